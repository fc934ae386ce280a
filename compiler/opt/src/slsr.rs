//! slsr: straight-line strength reduction (the gpucc paper's mul, add and pointer forms).
//!
//! Unrolled loops and stencils compute several products of one variable stride with indices
//! a constant apart: `(b + 1) * s`, `b * s`, `(b - 1) * s`, typically rows of a 2-D array.
//! Each product `x = (b + c2) * s` (`s` not a constant; `b + c` is an `iadd`/`isub` with a
//! constant, or plain `b` for c = 0) whose basis `y = (b + c1) * s` with the same `b` and `s`
//! dominates it is rebuilt from the nearest such basis as `y + (c2 - c1) * s`, when the
//! difference is +-1 (one add) or +-2^k (a shift and an add); other differences would need a
//! multiplication again. The identity is exact in wrapping arithmetic, so no overflow
//! reasoning is needed. A rebuilt product serves as the basis of later ones, chaining the rows.
//! Of the dominating bases the one with the smallest difference is taken (`(i - 1) * s` from
//! `i * s`, not from `(i + 1) * s` with a shift). The old multiplications are left for DCE.
//!
//! `nsw`: a rebuilt `y +- s` carries it when the product it replaces and its basis are both
//! exact (`nsw` on the multiplication and on the `b + c` inside, or a rebuilt sum that carries
//! it): then `y` and `x` are the exact products, their difference is exactly `s`, and the new
//! sum's exact value is `x`'s, which fits. Later passes read such sums through sign
//! extensions (`cache`). Other rebuilt instructions carry no flags.
//!
//! Add form: `x = b + i*s` (`i` a constant; `i*s` written `imul s, i`, `shl s, k` or plain
//! `s`; `b - i*s` counts as `-i`) with a dominating basis `y = b + i'*s` (same `b` and `s`)
//! becomes `y + (i - i')*s` when that is cheaper: the difference is +-1 (one add instead of
//! the product and the add), or the old product was a real multiplication and the
//! difference a power of two (a shift instead of a multiplication).
//!
//! Pointer form: `x = ptr_offset p, ((a + c)*s)*K` (the byte offset of `&p[(a + c)*s]`, `K`
//! the element size as `imul _, K` or `shl _, k`, or no scaling; the product `(a + c)*s` as
//! in the mul form, also after this pass rewrote it) with a dominating basis
//! `y = ptr_offset p, ((a + c')*s)*K` becomes `ptr_offset y, (c - c')*K*s`, a shift when
//! `(c - c')*K` is a power of two. Pointer arithmetic wraps like integers, so this is exact
//! too. Indices that are `sext`/`zext`ed between the product and the scaling are left alone:
//! without no-wrap facts the extension does not distribute over the sum.

use crate::remarks::{Remarks, plural};
use crate::util::{iconst_value, nsw_value};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::{
    ArithFlags, Block, FuncCursor, Function, Inst, InstData, Opcode, Type, Value, ValueDef,
};
use rustc_hash::FxHashMap;

/// Runs the pass; returns whether anything changed.
pub fn slsr(func: &mut Function) -> bool {
    slsr_with_remarks(func, &mut Remarks::default())
}

/// A product `(base + konst) * stride` available as `value` from `block` on.
struct Candidate {
    base: Value,
    stride: Value,
    konst: i64,
    value: Value,
    block: Block,
}

/// How far back (in candidates) a basis is searched for: keeps the pass linear.
const SEARCH: usize = 64;

/// `x` as `(base, konst)`: `iadd b, C`, `iadd C, b`, `isub b, C`, or `(x, 0)`, followed
/// through a chain of such steps (an unrolled `(i + 1) + 1`), with whether every step was
/// `nsw`. Wrapping sums associate, so `b + C1 + C2 == b + (C1 + C2)` exactly.
fn split_chain(func: &Function, mut x: Value) -> (Value, i64, bool) {
    let (mut konst, mut nsw) = (0i64, true);
    // A longer chain is not worth following (and this bounds the walk).
    for _ in 0..8 {
        let ValueDef::Result(inst, 0) = func.dfg.value_def(x) else {
            break;
        };
        let InstData::Binary { opcode, args, .. } = func.dfg.inst(inst) else {
            break;
        };
        let (c0, c1) = (iconst_value(func, args[0]), iconst_value(func, args[1]));
        let (next, c) = match (opcode, c0, c1) {
            (Opcode::Iadd, None, Some(c)) => (args[0], c),
            (Opcode::Iadd, Some(c), None) => (args[1], c),
            (Opcode::Isub, None, Some(c)) => (args[0], c.wrapping_neg()),
            _ => break,
        };
        nsw &= func.dfg.inst(inst).is_nsw();
        konst = konst.wrapping_add(c);
        x = next;
    }
    (x, konst, nsw)
}

/// `x` as `(base, konst)` (`split_chain`).
fn split(func: &Function, x: Value) -> (Value, i64) {
    let (b, c, _) = split_chain(func, x);
    (b, c)
}

/// Whether `v`, read as `(b + konst) * stride` or `b + konst * stride`, is that value exactly
/// (no step wrapped): its own instruction and the inner sum or product (when there is one)
/// are `nsw`. A sum this pass rebuilt carries `nsw` only when exact.
fn exact(func: &Function, v: Value, stride: Value) -> bool {
    let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
        return false;
    };
    let data = func.dfg.inst(inst);
    if !data.is_nsw() {
        return false;
    }
    let InstData::Binary { opcode, args, .. } = data else {
        return false;
    };
    match opcode {
        Opcode::Imul => {
            let inner = if args[0] == stride { args[1] } else { args[0] };
            let (_, c, nsw) = split_chain(func, inner);
            c == 0 || nsw
        }
        Opcode::Iadd | Opcode::Isub => args.iter().all(|&a| {
            a == stride
                || scaled(func, a).1 == 1
                || nsw_value(func, a)
                || iconst_value(func, a).is_some()
        }),
        _ => false,
    }
}

/// The candidate shapes of an `imul`: each operand in turn as the stride.
fn shapes(func: &Function, inst: Inst) -> Vec<(Value, i64, Value)> {
    let InstData::Binary {
        opcode: Opcode::Imul,
        args,
        ..
    } = func.dfg.inst(inst)
    else {
        return Vec::new();
    };
    if !func.dfg.value_type(args[0]).is_int() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (idx, other) in [(0, 1), (1, 0)] {
        let (s, x) = (args[idx], args[other]);
        if iconst_value(func, s).is_some() {
            continue;
        }
        let (b, c) = split(func, x);
        out.push((b, c, s));
    }
    out
}

/// `x` as the add form `(b, i, s)` meaning `b + i*s`, both operand orders of an `iadd`
/// (`b - i*s` as `-i`), with whether the product was a multiplication.
fn add_shapes(func: &Function, inst: Inst) -> Vec<(Value, i64, Value, bool)> {
    let InstData::Binary { opcode, args, .. } = func.dfg.inst(inst) else {
        return Vec::new();
    };
    let sub = match opcode {
        Opcode::Iadd => false,
        Opcode::Isub => true,
        _ => return Vec::new(),
    };
    if !func.dfg.value_type(args[0]).is_int() {
        return Vec::new();
    }
    let orders: &[(usize, usize)] = if sub { &[(0, 1)] } else { &[(0, 1), (1, 0)] };
    let mut out = Vec::new();
    for &(bi, mi) in orders {
        let (b, m) = (args[bi], args[mi]);
        if iconst_value(func, b).is_some() {
            continue;
        }
        let (s, i, was_mul) = scaled(func, m);
        if iconst_value(func, s).is_some() {
            continue;
        }
        out.push((b, if sub { i.wrapping_neg() } else { i }, s, was_mul));
    }
    out
}

/// `m` as `(s, i)` meaning `i*s` for a constant `i`: `imul s, C`, `imul C, s`, `shl s, k`, or
/// `(m, 1)`; the flag says whether it was an `imul`.
fn scaled(func: &Function, m: Value) -> (Value, i64, bool) {
    if let ValueDef::Result(inst, 0) = func.dfg.value_def(m)
        && let InstData::Binary { opcode, args, .. } = func.dfg.inst(inst)
    {
        let (c0, c1) = (iconst_value(func, args[0]), iconst_value(func, args[1]));
        let bits = func.dfg.value_type(m).bits();
        match (opcode, c0, c1) {
            (Opcode::Imul, None, Some(c)) => return (args[0], c, true),
            (Opcode::Imul, Some(c), None) => return (args[1], c, true),
            (Opcode::Shl, None, Some(k)) if (0..i64::from(bits).min(63)).contains(&k) => {
                return (args[0], 1i64 << k, false);
            }
            _ => {}
        }
    }
    (m, 1, false)
}

/// A pointer-form candidate: `ptr_offset ptr, ((base + konst)*stride)*scale`.
struct PtrCandidate {
    ptr: Value,
    base: Value,
    stride: Value,
    scale: i64,
    konst: i64,
    value: Value,
    block: Block,
}

/// The pointer shapes of `ptr_offset p, o`: `(p, base, konst, stride, scale)`. The product
/// is read through `products`, the mul-form facts of values this pass built.
fn ptr_shapes(
    func: &Function,
    inst: Inst,
    products: &FxHashMap<Value, (Value, i64, Value)>,
) -> Vec<(Value, Value, i64, Value, i64)> {
    let InstData::Binary {
        opcode: Opcode::PtrOffset,
        args,
        ..
    } = func.dfg.inst(inst)
    else {
        return Vec::new();
    };
    let (p, o) = (args[0], args[1]);
    let (a, scale, _) = scaled(func, o);
    if let Some(&(b, c, s)) = products.get(&a) {
        return vec![(p, b, c, s, scale)];
    }
    let ValueDef::Result(mul, 0) = func.dfg.value_def(a) else {
        return Vec::new();
    };
    shapes(func, mul)
        .into_iter()
        .map(|(b, c, s)| (p, b, c, s, scale))
        .collect()
}

/// `slsr`, reporting how many multiplications became additions.
pub fn slsr_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let mut cands: Vec<Candidate> = Vec::new();
    let mut adds: Vec<Candidate> = Vec::new();
    let mut ptrs: Vec<PtrCandidate> = Vec::new();
    // Mul-form facts of the values that replaced products, for the pointer form.
    let mut products: FxHashMap<Value, (Value, i64, Value)> = FxHashMap::default();
    let (mut count, mut add_count, mut ptr_count) = (0, 0, 0);
    for &b in dt.rpo() {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            let Some(res) = func.dfg.first_result(inst) else {
                continue;
            };
            let ty = func.dfg.value_type(res);
            let shapes = shapes(func, inst);
            if !shapes.is_empty() {
                let mut value = res;
                let best = shapes
                    .iter()
                    .filter_map(|&(base, konst, stride)| {
                        cands
                            .iter()
                            .rev()
                            .take(SEARCH)
                            .filter(|c| {
                                c.base == base && c.stride == stride && dt.dominates(c.block, b)
                            })
                            .map(|c| (c.value, konst.wrapping_sub(c.konst)))
                            .filter(|&(_, d)| rebuildable(ty, d))
                            .min_by_key(|&(_, d)| d.unsigned_abs())
                            .map(|(basis, d)| (base, konst, stride, basis, d))
                    })
                    .min_by_key(|&(.., d)| d.unsigned_abs());
                if let Some((base, konst, stride, basis, d)) = best {
                    let nsw = exact(func, res, stride) && exact(func, basis, stride);
                    if let Some(r) = rebuild(func, inst, ty, basis, stride, d, nsw) {
                        func.replace_all_uses(res, r);
                        products.insert(r, (base, konst, stride));
                        value = r;
                        count += 1;
                    }
                }
                for (base, konst, stride) in shapes {
                    cands.push(Candidate {
                        base,
                        stride,
                        konst,
                        value,
                        block: b,
                    });
                }
                continue;
            }
            let add_shapes = add_shapes(func, inst);
            if !add_shapes.is_empty() {
                let mut value = res;
                'find: for &(base, konst, stride, was_mul) in &add_shapes {
                    for c in adds.iter().rev().take(SEARCH) {
                        if c.base != base || c.stride != stride || !dt.dominates(c.block, b) {
                            continue;
                        }
                        let d = konst.wrapping_sub(c.konst);
                        // Only when cheaper than the product it replaces.
                        if d.unsigned_abs() != 1 && !was_mul {
                            continue;
                        }
                        let nsw = exact(func, res, stride) && exact(func, c.value, stride);
                        let Some(r) = rebuild(func, inst, ty, c.value, stride, d, nsw) else {
                            continue;
                        };
                        func.replace_all_uses(res, r);
                        value = r;
                        add_count += 1;
                        break 'find;
                    }
                }
                for (base, konst, stride, _) in add_shapes {
                    adds.push(Candidate {
                        base,
                        stride,
                        konst,
                        value,
                        block: b,
                    });
                }
                continue;
            }
            let ptr_shapes = ptr_shapes(func, inst, &products);
            let mut value = res;
            'find: for &(ptr, base, konst, stride, scale) in &ptr_shapes {
                for c in ptrs.iter().rev().take(SEARCH) {
                    if c.ptr != ptr
                        || c.base != base
                        || c.stride != stride
                        || c.scale != scale
                        || !dt.dominates(c.block, b)
                    {
                        continue;
                    }
                    let Some(d) = konst
                        .checked_sub(c.konst)
                        .and_then(|d| d.checked_mul(scale))
                    else {
                        continue;
                    };
                    let Some(r) = rebuild_ptr(func, inst, c.value, stride, d) else {
                        continue;
                    };
                    func.replace_all_uses(res, r);
                    value = r;
                    ptr_count += 1;
                    break 'find;
                }
            }
            for (ptr, base, konst, stride, scale) in ptr_shapes {
                ptrs.push(PtrCandidate {
                    ptr,
                    base,
                    stride,
                    scale,
                    konst,
                    value,
                    block: b,
                });
            }
        }
    }
    if count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "turned {} into additions",
                plural(count, "multiplication", "multiplications")
            ),
        );
    }
    if add_count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "rebuilt {} from a dominating sum with the same stride",
                plural(add_count, "sum", "sums")
            ),
        );
    }
    if ptr_count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "rebuilt {} from a dominating address with the same stride",
                plural(ptr_count, "address", "addresses")
            ),
        );
    }
    count + add_count + ptr_count > 0
}

/// `ptr_offset basis, d * stride` before `inst`: a shift for a power-of-two `d`, else a
/// multiplication (still fewer than the index arithmetic it replaces); `None` for `d = 0`.
fn rebuild_ptr(
    func: &mut Function,
    inst: Inst,
    basis: Value,
    stride: Value,
    d: i64,
) -> Option<Value> {
    let ty = func.dfg.value_type(stride);
    if d == 0 || ty != Type::I64 {
        return None;
    }
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(inst);
    let mag = d.unsigned_abs();
    let step = if mag == 1 {
        stride
    } else if mag.is_power_of_two() {
        let k = cur.ins().iconst(ty, i64::from(mag.trailing_zeros()));
        cur.ins().shl(stride, k)
    } else {
        let m = cur.ins().iconst(ty, mag as i64);
        cur.ins().imul(stride, m)
    };
    let off = if d > 0 {
        step
    } else {
        let z = cur.ins().iconst(ty, 0);
        cur.ins().isub(z, step)
    };
    Some(cur.ins().ptr_offset(basis, off))
}

/// Whether `basis + d * stride` can be rebuilt: `d` is +-2^k (k < bits).
fn rebuildable(ty: Type, d: i64) -> bool {
    let mag = d.unsigned_abs();
    d != 0 && mag.is_power_of_two() && mag.trailing_zeros() < ty.bits()
}

/// `basis + d * stride` before `inst`, when `d` is +-2^k (k < bits); `None` otherwise. The
/// sum carries `nsw` when `exact` (the basis and the replaced value are exact) and `d` is
/// +-1: the sum's exact value is then the replaced one's.
fn rebuild(
    func: &mut Function,
    inst: Inst,
    ty: Type,
    basis: Value,
    stride: Value,
    d: i64,
    exact: bool,
) -> Option<Value> {
    let mag = d.unsigned_abs();
    if !rebuildable(ty, d) {
        return None;
    }
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(inst);
    let step = if mag == 1 {
        stride
    } else {
        let k = cur.ins().iconst(ty, i64::from(mag.trailing_zeros()));
        cur.ins().shl(stride, k)
    };
    let flags = if exact && mag == 1 {
        ArithFlags::NSW
    } else {
        ArithFlags::NONE
    };
    let op = if d > 0 { Opcode::Iadd } else { Opcode::Isub };
    Some(cur.ins().binary_flags(op, flags, basis, step))
}
