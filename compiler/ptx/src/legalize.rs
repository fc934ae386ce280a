//! Legalization: IR rewrites that make every instruction directly expressible in PTX.
//!
//! Runs on a copy of each function before emission, as small explicit steps:
//! 1. `i1` (a predicate register) never touches memory: `load.i1` becomes a byte load and a
//!    compare, `store` of an `i1` stores a 0/1 byte.
//! 2. `i1` compares become predicate logic (`ne` is `xor`, `eq` is `not xor`) or compares of
//!    the widened values; `select` of `i1` values becomes `and`/`or`/`not`.
//! 3. `i8` values live in 16-bit registers with an unspecified upper byte, which is harmless
//!    for `iadd`, `imul`, bitwise ops, `shl`, `trunc` and stores, so only the operations that
//!    read the upper byte are rewritten to act on sign- or zero-extended `i16` values
//!    (division, remainder, right shifts, min/max, high multiply, compares, int-to-float).
//! 4. `popcnt`/`clz`/`ctz` of `i8`/`i16` and `br_table` on `i8`/`i16` indices work on `i32`.
//! 5. Loads and stores less aligned than their size (PTX needs natural alignment) become
//!    aligned pieces combined with shifts (after step 1, before step 3).
//!
//! Each rewrite keeps the original instruction's result value (the instruction is changed in
//! place, new instructions go before it), so no use needs rewriting. The result verifies.

use ompcc_ir::{
    Function, Inst, InstData, IntCC, MemFlags, Opcode, Type, Value,
    builder::{InsertBuilder, InsertPoint},
};

/// Legalizes `func` in place.
pub fn legalize(func: &mut Function) {
    for &inst in &all_insts(func) {
        legalize_i1(func, inst);
    }
    // Later steps see the instructions earlier steps created (byte loads, i8 compares).
    for &inst in &all_insts(func) {
        legalize_align(func, inst);
    }
    for &inst in &all_insts(func) {
        legalize_narrow(func, inst);
    }
}

fn all_insts(func: &Function) -> Vec<Inst> {
    func.layout
        .blocks()
        .flat_map(|b| func.layout.block_insts(b).collect::<Vec<_>>())
        .collect()
}

/// A builder before `before`; what it builds replaces or feeds `before`, so it takes
/// `before`'s source location.
fn ins(func: &mut Function, before: Inst) -> InsertBuilder<'_> {
    let loc = func.srcloc(before);
    InsertBuilder::new(func, InsertPoint::Before(before)).with_srcloc(loc)
}

fn ty(func: &Function, v: Value) -> Type {
    func.dfg.value_type(v)
}

fn legalize_i1(func: &mut Function, inst: Inst) {
    let data = func.dfg.inst(inst).clone();
    match data {
        InstData::Load { space, flags, arg } => {
            if func.dfg.first_result(inst).map(|r| ty(func, r)) != Some(Type::I1) {
                return;
            }
            let byte = ins(func, inst).load(Type::I8, space, flags, arg);
            let zero = ins(func, inst).iconst(Type::I8, 0);
            *func.dfg.inst_mut(inst) = InstData::IntCompare {
                cond: IntCC::Ne,
                args: [byte, zero],
            };
        }
        InstData::Store {
            space,
            flags,
            args: [val, addr],
        } => {
            if ty(func, val) != Type::I1 {
                return;
            }
            let byte = ins(func, inst).zext(Type::I8, val);
            *func.dfg.inst_mut(inst) = InstData::Store {
                space,
                flags,
                args: [byte, addr],
            };
        }
        InstData::IntCompare { cond, args: [a, b] } => {
            if ty(func, a) != Type::I1 {
                return;
            }
            match cond {
                IntCC::Ne => *func.dfg.inst_mut(inst) = InstData::binary(Opcode::Xor, [a, b]),
                IntCC::Eq => {
                    let x = ins(func, inst).xor(a, b);
                    *func.dfg.inst_mut(inst) = InstData::Unary {
                        opcode: Opcode::Not,
                        arg: x,
                    };
                }
                _ => {
                    // As signed, true is -1; as unsigned, 1.
                    let signed = matches!(cond, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
                    let (wa, wb) = if signed {
                        (
                            ins(func, inst).sext(Type::I32, a),
                            ins(func, inst).sext(Type::I32, b),
                        )
                    } else {
                        (
                            ins(func, inst).zext(Type::I32, a),
                            ins(func, inst).zext(Type::I32, b),
                        )
                    };
                    *func.dfg.inst_mut(inst) = InstData::IntCompare {
                        cond,
                        args: [wa, wb],
                    };
                }
            }
        }
        InstData::Ternary {
            opcode: Opcode::Select,
            args: [c, a, b],
        } => {
            if ty(func, a) != Type::I1 {
                return;
            }
            let t = ins(func, inst).and(c, a);
            let nc = ins(func, inst).not(c);
            let e = ins(func, inst).and(nc, b);
            *func.dfg.inst_mut(inst) = InstData::binary(Opcode::Or, [t, e]);
        }
        _ => {}
    }
}

/// Splits a load or store narrower-aligned than its type into naturally aligned pieces of
/// the alignment's size, little-endian: a load ORs the zero-extended pieces shifted into
/// place (the original instruction becomes the last `or`, or the final bitcast/inttoptr); a
/// store writes shifted, truncated pieces (the original becomes the last piece's store).
fn legalize_align(func: &mut Function, inst: Inst) {
    let data = func.dfg.inst(inst).clone();
    let (space, flags, addr, t, store_val) = match data {
        InstData::Load { space, flags, arg } => match func.dfg.first_result(inst) {
            Some(r) => (space, flags, arg, ty(func, r), None),
            None => return,
        },
        InstData::Store {
            space,
            flags,
            args: [val, addr],
        } => (space, flags, addr, ty(func, val), Some(val)),
        _ => return,
    };
    let size = t.bytes();
    if flags.align >= size {
        return;
    }
    let piece = flags.align;
    let (Some(int_ty), Some(piece_ty)) = (Type::int(size * 8), Type::int(piece * 8)) else {
        return;
    };
    let pflags = MemFlags {
        align: piece,
        ..flags
    };
    let n = size / piece;
    let mut addrs = vec![addr];
    for k in 1..n {
        let off = ins(func, inst).iconst(Type::I64, i64::from(k * piece));
        addrs.push(ins(func, inst).ptr_offset(addr, off));
    }
    let shift = |k: u32| i64::from(8 * piece * k);
    match store_val {
        None => {
            let mut acc: Option<Value> = None;
            for (k, &a) in (0u32..).zip(&addrs) {
                let p = ins(func, inst).load(piece_ty, space, pflags, a);
                let mut w = ins(func, inst).zext(int_ty, p);
                if k > 0 {
                    let amt = ins(func, inst).iconst(int_ty, shift(k));
                    w = ins(func, inst).shl(w, amt);
                }
                acc = Some(match acc {
                    None => w,
                    Some(prev) if k + 1 == n && t == int_ty => {
                        *func.dfg.inst_mut(inst) = InstData::binary(Opcode::Or, [prev, w]);
                        return;
                    }
                    Some(prev) => ins(func, inst).or(prev, w),
                });
            }
            let Some(bits) = acc else { return };
            let opcode = if t.is_ptr() {
                Opcode::Inttoptr
            } else {
                Opcode::Bitcast
            };
            *func.dfg.inst_mut(inst) = InstData::Unary { opcode, arg: bits };
        }
        Some(val) => {
            let bits = match t {
                Type::Ptr(_) => ins(func, inst).ptrtoint(int_ty, val),
                t if t.is_float() => ins(func, inst).bitcast(int_ty, val),
                _ => val,
            };
            for (k, &a) in (0u32..).zip(&addrs) {
                let shifted = if k > 0 {
                    let amt = ins(func, inst).iconst(int_ty, shift(k));
                    ins(func, inst).lshr(bits, amt)
                } else {
                    bits
                };
                let p = ins(func, inst).trunc(piece_ty, shifted);
                if k + 1 == n {
                    *func.dfg.inst_mut(inst) = InstData::Store {
                        space,
                        flags: pflags,
                        args: [p, a],
                    };
                } else {
                    ins(func, inst).store(space, pflags, p, a);
                }
            }
        }
    }
}

/// Extends `v` (an i8) to i16, signed or not.
fn widen(func: &mut Function, before: Inst, v: Value, signed: bool) -> Value {
    if signed {
        ins(func, before).sext(Type::I16, v)
    } else {
        ins(func, before).zext(Type::I16, v)
    }
}

fn legalize_narrow(func: &mut Function, inst: Inst) {
    let data = func.dfg.inst(inst).clone();
    match data {
        InstData::Binary {
            opcode,
            args: [a, b],
            ..
        } if ty(func, a) == Type::I8 => {
            use Opcode as O;
            let signed = match opcode {
                O::Sdiv | O::Srem | O::Ashr | O::Smin | O::Smax | O::Smulhi => true,
                O::Udiv | O::Urem | O::Lshr | O::Umin | O::Umax | O::Umulhi => false,
                _ => return,
            };
            let wa = widen(func, inst, a, signed);
            let wide = match opcode {
                // Amounts of 8 or more shift everything out of the extended value too (the
                // emitter reads the i8 amount exactly and PTX clamps it).
                O::Ashr | O::Lshr => ins(func, inst).build(InstData::binary(opcode, [wa, b]), None),
                O::Smulhi | O::Umulhi => {
                    let wb = widen(func, inst, b, signed);
                    let prod = ins(func, inst).imul(wa, wb);
                    let eight = ins(func, inst).iconst(Type::I16, 8);
                    let shift = if signed { O::Ashr } else { O::Lshr };
                    ins(func, inst).build(InstData::binary(shift, [prod, eight]), None)
                }
                _ => {
                    let wb = widen(func, inst, b, signed);
                    ins(func, inst).build(InstData::binary(opcode, [wa, wb]), None)
                }
            };
            truncate_into(func, inst, wide);
        }
        InstData::IntCompare { cond, args: [a, b] } if ty(func, a) == Type::I8 => {
            let signed = matches!(cond, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
            let wa = widen(func, inst, a, signed);
            let wb = widen(func, inst, b, signed);
            *func.dfg.inst_mut(inst) = InstData::IntCompare {
                cond,
                args: [wa, wb],
            };
        }
        InstData::Unary {
            opcode: opcode @ (Opcode::Sitofp | Opcode::Uitofp),
            arg,
        } if ty(func, arg) == Type::I8 => {
            let w = widen(func, inst, arg, opcode == Opcode::Sitofp);
            *func.dfg.inst_mut(inst) = InstData::Unary { opcode, arg: w };
        }
        InstData::Unary {
            opcode: opcode @ (Opcode::Popcnt | Opcode::Clz | Opcode::Ctz),
            arg,
        } if matches!(ty(func, arg), Type::I8 | Type::I16) => {
            let bits = ty(func, arg).bits() as i64;
            let w = ins(func, inst).zext(Type::I32, arg);
            let r = match opcode {
                Opcode::Popcnt => ins(func, inst).popcnt(w),
                Opcode::Clz => {
                    let c = ins(func, inst).clz(w);
                    let k = ins(func, inst).iconst(Type::I32, 32 - bits);
                    ins(func, inst).isub(c, k)
                }
                _ => {
                    // A bit just above the value makes ctz(0) equal the width.
                    let k = ins(func, inst).iconst(Type::I32, 1 << bits);
                    let o = ins(func, inst).or(w, k);
                    ins(func, inst).ctz(o)
                }
            };
            *func.dfg.inst_mut(inst) = InstData::Unary {
                opcode: Opcode::Trunc,
                arg: r,
            };
        }
        InstData::BrTable { arg, table } if matches!(ty(func, arg), Type::I8 | Type::I16) => {
            let w = ins(func, inst).zext(Type::I32, arg);
            *func.dfg.inst_mut(inst) = InstData::BrTable { arg: w, table };
        }
        _ => {}
    }
}

/// Turns `inst` (with one i8 result) into `trunc.i8` of the i16 result of `wide`.
fn truncate_into(func: &mut Function, inst: Inst, wide: Inst) {
    if let Some(w) = func.dfg.first_result(wide) {
        *func.dfg.inst_mut(inst) = InstData::Unary {
            opcode: Opcode::Trunc,
            arg: w,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ompcc_ir::{parse_module, verify_function};

    fn legal(src: &str) -> String {
        let mut m = parse_module(src).expect("parses");
        let f = &mut m.functions[0];
        legalize(f);
        verify_function(f).expect("legalized IR verifies");
        f.to_string()
    }

    #[test]
    fn i1_memory_and_compares() {
        let out = legal(
            "func @f(ptr, i1, i1) -> i1 {\nblock0(v0: ptr, v1: i1, v2: i1):\n    \
             v3 = load.i1 generic align 1 v0\n    store generic align 1 v1, v0\n    \
             v4 = icmp eq v1, v2\n    v5 = icmp slt v3, v4\n    v6 = select v5, v1, v2\n    \
             return v6\n}\n",
        );
        assert!(out.contains("load.i8"), "{out}");
        assert!(out.contains("zext.i8"), "{out}");
        assert!(out.contains("sext.i32"), "{out}");
        assert!(!out.contains("select"), "{out}");
    }

    #[test]
    fn i8_exactness() {
        let out = legal(
            "func @f(i8, i8) -> i8 {\nblock0(v0: i8, v1: i8):\n    v2 = sdiv v0, v1\n    \
             v3 = lshr v2, v1\n    v4 = clz v3\n    return v4\n}\n",
        );
        assert!(out.contains("sext.i16"), "{out}");
        assert!(out.contains("zext.i32"), "{out}");
        assert_eq!(out.matches("trunc.i8").count(), 3, "{out}");
    }
}
