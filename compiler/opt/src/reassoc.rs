//! reassoc: pointer-offset reassociation, so constant parts of addresses end up in the PTX
//! `[reg+imm]` addressing mode.
//!
//! The PTX emitter folds an access through `ptr_offset base, C` (C a constant) into
//! `[base+C]`. This pass rewrites `ptr_offset p, off` where the `i64` offset has a constant
//! part into `ptr_offset (ptr_offset p, rest), C`: `off = x + C`, `x - C`, `C + x`, or
//! `(x + C) * K` / `(x + C) << S` (then `rest = x * K`, `C * K`). Nested constant offsets
//! are merged (`ptr_offset (ptr_offset p, C1), C2` becomes `ptr_offset p, C1 + C2`) and a
//! constant inner offset moves outward (`ptr_offset (ptr_offset p, C), x` becomes
//! `ptr_offset (ptr_offset p, x), C`). Unrolled stencils then share one base register per
//! row (GVN merges the `ptr_offset p, rest` copies) and differ only in immediates.
//!
//! Only `i64` offsets are split: pointer arithmetic wraps modulo 2^64 like `i64`
//! arithmetic, so the rewrite is exact; a 32-bit offset (sign-extended by `ptr_offset`) is
//! left alone since `x + C` may wrap at 32 bits. The exception is an `i64` offset that is the
//! sign extension of a narrower `nsw` sum, `sext(x + C)`, as C's `a[k + 1]` on an `int k`:
//! `nsw` says it does not wrap, so it is `sext(x) + C` and splits like the others (chains of
//! constants, as unrolled `k + 1 + 1`, are followed). A constant inside one operand of an
//! `i64` sum is found too (`a + sext(k + 1)` is `(a + sext(k)) + 1`, a few levels deep), so
//! `A[i * n + k + 1]` shares `A[i * n + k]`'s base. The new instructions carry no flags.

mod shared_term;

use crate::remarks::{Remarks, plural};
use crate::util::{all_insts, iconst_value};
use ompcc_ir::{FuncCursor, Function, Inst, InstData, Opcode, Type, Value, ValueDef};

/// Runs the pass; returns whether anything changed.
pub fn reassoc(func: &mut Function) -> bool {
    reassoc_with_remarks(func, &mut Remarks::default())
}

fn binary(func: &Function, v: Value) -> Option<(Opcode, Value, Value)> {
    match func.dfg.value_def(v) {
        ValueDef::Result(i, 0) => match func.dfg.inst(i) {
            InstData::Binary { opcode, args, .. } => Some((*opcode, args[0], args[1])),
            _ => None,
        },
        _ => None,
    }
}

/// The variable part of a split offset, before any scaling.
enum Base {
    /// An existing `i64` value.
    Value(Value),
    /// `sext.i64` of a narrower value, to be built.
    Ext(Value),
    /// `x + base`, to be built: the constant came from inside one operand of an `i64` sum.
    Add(Value, Box<Base>),
}

/// How deep `split_base` looks into `i64` sums for a constant (`a + (b + sext(k + 1))`).
const MAX_DEPTH: u32 = 3;

/// What `off` splits into: an existing or to-be-built variable part and a constant.
enum Rest {
    Base(Base),
    Scaled(Base, Opcode, Value),
}

/// `v` as `x + c` through a chain of additions and subtractions of constants (`c` may be 0).
/// With `nsw_only`, only `nsw` steps are followed: the chain is then narrower than `i64` and
/// the sum is exact, so `sext(v) == sext(x) + c`.
fn peel_consts(func: &Function, mut v: Value, nsw_only: bool) -> (Value, i64) {
    let mut c = 0i64;
    // A chain longer than this is not worth following (and bounds the walk).
    for _ in 0..16 {
        let ValueDef::Result(i, 0) = func.dfg.value_def(v) else {
            break;
        };
        let data = func.dfg.inst(i);
        if nsw_only && !data.is_nsw() {
            break;
        }
        let Some((op, a, b)) = binary(func, v) else {
            break;
        };
        let (ca, cb) = (iconst_value(func, a), iconst_value(func, b));
        let (next, k) = match (op, ca, cb) {
            (Opcode::Iadd, None, Some(k)) | (Opcode::Iadd, Some(k), None) => {
                (if cb.is_some() { a } else { b }, k)
            }
            (Opcode::Isub, None, Some(k)) => (a, k.wrapping_neg()),
            _ => break,
        };
        // Narrow chains: the sum of the constants stays exact in i64 (at most 16 i32s).
        c = c.wrapping_add(k);
        v = next;
    }
    (v, c)
}

/// Splits an `i64` offset into `base + c` with c != 0: an `i64` chain `x + C`, or the sign
/// extension of an `nsw` chain, `sext(x + C) == sext(x) + C` (C's overflow is undefined).
fn split_base(func: &Function, off: Value, depth: u32) -> Option<(Base, i64)> {
    // `(x + C1) + C2` in i64, then `x = sext(y + C3)` with `nsw` steps: `sext(y) + C3`.
    let (x, c) = peel_consts(func, off, false);
    let (base, c) = match func.dfg.value_def(x) {
        ValueDef::Result(i, 0) => match *func.dfg.inst(i) {
            InstData::Unary {
                opcode: Opcode::Sext,
                arg,
            } => match peel_consts(func, arg, true) {
                (_, 0) => (Base::Value(x), c),
                (y, k) => (Base::Ext(y), c.wrapping_add(k)),
            },
            _ => (Base::Value(x), c),
        },
        _ => (Base::Value(x), c),
    };
    if c != 0 {
        return Some((base, c));
    }
    // `a + b` with a constant inside one operand: `a + (b' + c) == (a + b') + c` in i64.
    let (Opcode::Iadd, a, b) = binary(func, off)? else {
        return None;
    };
    if depth >= MAX_DEPTH || func.dfg.value_type(off) != Type::I64 {
        return None;
    }
    [(a, b), (b, a)].into_iter().find_map(|(keep, inner)| {
        let (base, c) = split_base(func, inner, depth + 1)?;
        Some((Base::Add(keep, Box::new(base)), c))
    })
}

/// Builds the value of `base` before the cursor.
fn build_base(cur: &mut FuncCursor<'_>, base: Base) -> Value {
    match base {
        Base::Value(v) => v,
        Base::Ext(v) => cur.ins().sext(Type::I64, v),
        Base::Add(x, b) => {
            let y = build_base(cur, *b);
            cur.ins().iadd(x, y)
        }
    }
}

/// Splits an `i64` offset into `rest + c` (c != 0).
fn split(func: &Function, off: Value) -> Option<(Rest, i64)> {
    if let Some((base, c)) = split_base(func, off, 0) {
        return Some((Rest::Base(base), c));
    }
    let (op, a, b) = binary(func, off)?;
    match op {
        Opcode::Imul | Opcode::Shl => {
            let k = iconst_value(func, b)?;
            let scale = if op == Opcode::Shl {
                if !(0..64).contains(&k) {
                    return None;
                }
                1i64.wrapping_shl(k as u32)
            } else {
                k
            };
            let (inner, c) = split_base(func, a, 0)?;
            let c = c.wrapping_mul(scale);
            (c != 0).then_some((Rest::Scaled(inner, op, b), c))
        }
        _ => None,
    }
}

/// `reassoc`, reporting the number of addresses rewritten.
pub fn reassoc_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let shared = shared_term::split_shared_terms(func);
    if shared > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "split {} to share a term with other addresses",
                plural(shared, "two-term address", "two-term addresses")
            ),
        );
    }
    let mut rewritten = 0;
    for inst in all_insts(func) {
        if rewrite(func, inst) {
            rewritten += 1;
        }
    }
    if rewritten > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "moved constant offsets outward in {}",
                plural(rewritten, "address", "addresses")
            ),
        );
    }
    rewritten > 0 || shared > 0
}

/// The base and the 64-bit byte offset of `inst` when it is a `ptr_offset`.
fn pointer_offset(func: &Function, inst: Inst) -> Option<(Value, Value)> {
    let InstData::Binary {
        opcode: Opcode::PtrOffset,
        args: [p, off],
        ..
    } = *func.dfg.inst(inst)
    else {
        return None;
    };
    (func.dfg.value_type(off) == Type::I64).then_some((p, off))
}

fn rewrite(func: &mut Function, inst: Inst) -> bool {
    let Some((p, off)) = pointer_offset(func, inst) else {
        return false;
    };
    let loc = func.srcloc(inst);
    let inner = binary(func, p).filter(|(op, _, _)| *op == Opcode::PtrOffset);
    let off_c = iconst_value(func, off);
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(inst);
    cur.set_srcloc(loc);
    match (inner, off_c) {
        // (p0 + C1) + C2 -> p0 + (C1 + C2)
        (Some((_, p0, o0)), Some(c2)) => {
            let Some(c1) = iconst_value(cur.func, o0) else {
                return false;
            };
            let c = cur.ins().iconst(Type::I64, c1.wrapping_add(c2));
            *cur.func.dfg.inst_mut(inst) = InstData::binary(Opcode::PtrOffset, [p0, c]);
            true
        }
        // (p0 + C) + x -> (p0 + x) + C
        (Some((_, p0, o0)), None)
            if iconst_value(cur.func, o0).is_some() && cur.func.dfg.value_type(o0) == Type::I64 =>
        {
            let q = cur.ins().ptr_offset(p0, off);
            *cur.func.dfg.inst_mut(inst) = InstData::binary(Opcode::PtrOffset, [q, o0]);
            true
        }
        (_, None) => {
            let Some((rest, c)) = split(cur.func, off) else {
                return false;
            };
            let rest = match rest {
                Rest::Base(b) => build_base(&mut cur, b),
                Rest::Scaled(b, op, k) => {
                    let x = build_base(&mut cur, b);
                    match op {
                        Opcode::Shl => cur.ins().shl(x, k),
                        _ => cur.ins().imul(x, k),
                    }
                }
            };
            let q = cur.ins().ptr_offset(p, rest);
            let cv = cur.ins().iconst(Type::I64, c);
            *cur.func.dfg.inst_mut(inst) = InstData::binary(Opcode::PtrOffset, [q, cv]);
            true
        }
        _ => false,
    }
}
