//! narrow: 64-bit index arithmetic done in 32 bits where value ranges prove it fits.
//!
//! GPUs compute 32-bit integers natively, while 64-bit multiplies and divides are multi-
//! instruction sequences. Lowering computes indices in 64 bits (the flattened loop counter of
//! a worksharing loop, `sext` of `int` indices, `size_t` arithmetic); `ompcc_ir::analysis::Ranges`
//! bounds them, and this pass rewrites, in dominator order:
//! - `sext.i64 (trunc.i32 x)` to `x` when `x` fits `i32`, and `zext.i64 (trunc.i32 x)` to `x`
//!   when `x` lies in `[0, 2^32)` (the round trip changes nothing);
//! - `udiv`/`urem`/`sdiv`/`srem` on `i64` whose operands both lie in `[0, 2^31)` (`udiv`/`urem`:
//!   `[0, 2^32)`) to the 32-bit unsigned operation and a `zext` (they agree there; a zero
//!   divisor traps either way);
//! - `iadd`/`isub`/`imul`, `shl` by a constant, on `i64` whose operands and exact result all
//!   fit `i32`, to the `i32` operation and one `sext`, when every operand is cheap in 32 bits
//!   (a constant, an `sext`/`zext` of an `i32`, or an operation narrowed before): chains of
//!   index arithmetic then stay 32-bit and widen once, at the address. Adding a constant stays
//!   64-bit (`reassoc` made those the `+imm` of `[reg+imm]` addresses);
//! - `smax`/`smin` on `i64` of operands that fit `i32` and are cheap in 32 bits, the same way
//!   (the trip count `smax(sext(n), 0)` of a loop over `int` bounds);
//! - `a - q * d` where `q` is a quotient `a / d` narrowed before (the remainder `divrem`
//!   writes) to the 32-bit `a - q * d` and a `zext`: it lies in `[0, d)`;
//! - `smax(x - c, 0)` with `x` a widened `i32` and `c` a positive constant (the trip count of
//!   a loop over `int` bounds from `c`) to the 32-bit `smax(x, c) - c` and an `sext`;
//! - `icmp` of `i64` operands that fit `i32` and are cheap in 32 bits, to the `i32` `icmp`
//!   (the one-iteration kernel's `k < n` on a thread number and an `int` trip count), past a
//!   clamp `smax(a, C)` of one operand that the other's range makes moot (`k < smax(n, 0)`
//!   with `k >= 0` is `k < n`);
//! - `trunc.i32 x` of an `x` narrowed before (or the extension of an `i32`) to that `i32`.
//!
//! C's signed overflow is undefined, but this pass assumes nothing from the source language
//! and reads no `nsw` flag (lowering sets them where C makes overflow undefined; `slsr` and
//! `reassoc` use them): only value ranges decide.
//! Replaced instructions are left for DCE.

use crate::remarks::{Remarks, plural};
use crate::util::iconst_value;
use ompcc_ir::analysis::{Range, Ranges};
use ompcc_ir::{Block, FuncCursor, Function, Inst, InstData, Opcode, Type, Value, ValueDef};
use rustc_hash::FxHashMap;

/// Runs the pass; returns whether anything changed.
pub fn narrow(func: &mut Function) -> bool {
    narrow_with_remarks(func, &mut Remarks::default())
}

const I32_MIN: i128 = i32::MIN as i128;
const I32_MAX: i128 = i32::MAX as i128;

struct Narrow<'a> {
    ranges: &'a Ranges,
    /// i64 values (original or the `sext` replacing them) and their `i32` equal.
    small: FxHashMap<Value, Value>,
    /// Ranges of the values this pass created, by the original's range.
    made: FxHashMap<Value, Range>,
}

impl Narrow<'_> {
    fn range(&self, func: &Function, v: Value, block: Block) -> Range {
        match self.made.get(&v) {
            Some(&r) => r,
            None => self.ranges.range_at(func, v, block),
        }
    }

    /// An `i32` equal to `v` (an `i64` that fits `i32` at `block`) without new instructions,
    /// or a constant.
    fn cheap32(&self, func: &Function, v: Value) -> Option<Cheap> {
        if let Some(&s) = self.small.get(&v) {
            return Some(Cheap::Value(s));
        }
        if let Some(c) = iconst_value(func, v) {
            return Some(Cheap::Const(c));
        }
        let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
            return None;
        };
        match func.dfg.inst(inst) {
            InstData::Unary {
                opcode: Opcode::Sext | Opcode::Zext,
                arg,
            } if func.dfg.value_type(*arg) == Type::I32 => Some(Cheap::Value(*arg)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy)]
enum Cheap {
    Value(Value),
    Const(i64),
}

/// `narrow`, reporting how many operations it narrowed.
pub fn narrow_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let ranges = Ranges::compute(func);
    let cfg = ompcc_ir::analysis::ControlFlowGraph::compute(func);
    let dt = ompcc_ir::analysis::DominatorTree::compute(func, &cfg);
    let mut st = Narrow {
        ranges: &ranges,
        small: FxHashMap::default(),
        made: FxHashMap::default(),
    };
    let mut count = 0;
    for &b in dt.rpo() {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            if rewrite(func, &mut st, b, inst) {
                count += 1;
            }
        }
    }
    if count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "did {} in 32 bits",
                plural(count, "64-bit operation", "64-bit operations")
            ),
        );
    }
    count > 0
}

fn rewrite(func: &mut Function, st: &mut Narrow<'_>, block: Block, inst: Inst) -> bool {
    let Some(res) = func.dfg.first_result(inst) else {
        return false;
    };
    if let InstData::IntCompare { cond, args } = *func.dfg.inst(inst) {
        return compare(func, st, block, inst, cond, args);
    }
    if let InstData::Unary {
        opcode: Opcode::Trunc,
        arg,
    } = *func.dfg.inst(inst)
        && func.dfg.value_type(res) == Type::I32
        && let Some(Cheap::Value(s)) = st.cheap32(func, arg)
    {
        // trunc(x) of an x whose i32 equal is at hand (an operation narrowed before).
        func.replace_all_uses(res, s);
        return true;
    }
    if func.dfg.value_type(res) != Type::I64 {
        return false;
    }
    match func.dfg.inst(inst).clone() {
        InstData::Unary { opcode, arg } if matches!(opcode, Opcode::Sext | Opcode::Zext) => {
            // ext(trunc x) == x when x survives the round trip.
            let ValueDef::Result(t, 0) = func.dfg.value_def(arg) else {
                return false;
            };
            let InstData::Unary {
                opcode: Opcode::Trunc,
                arg: x,
            } = *func.dfg.inst(t)
            else {
                return false;
            };
            if func.dfg.value_type(x) != Type::I64 || func.dfg.value_type(arg) != Type::I32 {
                return false;
            }
            let r = st.range(func, x, block);
            let ok = match opcode {
                Opcode::Sext => r.within(I32_MIN, I32_MAX),
                _ => r.within(0, u32::MAX as i128),
            };
            if ok {
                func.replace_all_uses(res, x);
            }
            ok
        }
        InstData::Binary { opcode, args, .. }
            if matches!(
                opcode,
                Opcode::Udiv | Opcode::Urem | Opcode::Sdiv | Opcode::Srem
            ) =>
        {
            // unsigned operations agree with their 32-bit forms on all of `[0, 2^32)`
            let hi = match opcode {
                Opcode::Udiv | Opcode::Urem => u32::MAX as i128,
                _ => I32_MAX,
            };
            let fits = |v| st.range(func, v, block).within(0, hi);
            if !(fits(args[0]) && fits(args[1])) {
                return false;
            }
            let op32 = match opcode {
                Opcode::Udiv | Opcode::Sdiv => Opcode::Udiv,
                _ => Opcode::Urem,
            };
            let a = to32(func, &mut *st, inst, args[0]);
            let b = to32(func, &mut *st, inst, args[1]);
            let mut cur = FuncCursor::new(func);
            cur.goto_inst(inst);
            let q = binary(&mut cur, op32, a, b);
            let w = cur.ins().zext(Type::I64, q);
            let r = st.ranges.get(func, res);
            st.made.insert(w, r);
            st.small.insert(w, q);
            st.small.insert(res, q);
            func.replace_all_uses(res, w);
            true
        }
        InstData::Binary { opcode, args, .. }
            if matches!(
                opcode,
                Opcode::Iadd
                    | Opcode::Isub
                    | Opcode::Imul
                    | Opcode::Shl
                    | Opcode::Smax
                    | Opcode::Smin
            ) =>
        {
            if opcode == Opcode::Isub && remainder(func, st, inst, res, args) {
                return true;
            }
            if opcode == Opcode::Smax && clamped_span(func, st, inst, res, args) {
                return true;
            }
            let c1 = iconst_value(func, args[1]);
            if opcode == Opcode::Shl && !c1.is_some_and(|c| (0..32).contains(&c)) {
                return false;
            }
            // `x + C` stays 64-bit: reassoc folded such constants into `[reg+imm]` addresses.
            let c0 = iconst_value(func, args[0]);
            if matches!(opcode, Opcode::Iadd | Opcode::Isub) && (c0.is_some() || c1.is_some()) {
                return false;
            }
            let fits = |v| st.range(func, v, block).within(I32_MIN, I32_MAX);
            if !(fits(args[0]) && fits(args[1]) && fits(res)) {
                return false;
            }
            // Only when both operands are free in 32 bits: no new truncations.
            if st.cheap32(func, args[0]).is_none() || st.cheap32(func, args[1]).is_none() {
                return false;
            }
            let a = to32(func, &mut *st, inst, args[0]);
            let b = to32(func, &mut *st, inst, args[1]);
            let mut cur = FuncCursor::new(func);
            cur.goto_inst(inst);
            let n = binary(&mut cur, opcode, a, b);
            let w = cur.ins().sext(Type::I64, n);
            let r = st.range(func, res, block);
            st.made.insert(w, r);
            st.small.insert(w, n);
            st.small.insert(res, n);
            func.replace_all_uses(res, w);
            true
        }
        _ => false,
    }
}

/// `icmp` of two `i64` operands that both fit `i32` and are free in 32 bits: the `i32`
/// comparison (truncation keeps the order of such values, signed and unsigned alike).
fn compare(
    func: &mut Function,
    st: &mut Narrow<'_>,
    block: Block,
    inst: Inst,
    cond: ompcc_ir::IntCC,
    args: [Value; 2],
) -> bool {
    if func.dfg.value_type(args[0]) != Type::I64 {
        return false;
    }
    let fits = |v| st.range(func, v, block).within(I32_MIN, I32_MAX);
    if !(fits(args[0]) && fits(args[1])) {
        return false;
    }
    if st.cheap32(func, args[0]).is_none() || st.cheap32(func, args[1]).is_none() {
        return false;
    }
    let a = to32(func, &mut *st, inst, args[0]);
    let b = to32(func, &mut *st, inst, args[1]);
    let ranges = [0, 1].map(|i| st.range(func, args[i], block));
    let [a, b] = past_clamp(func, cond, [a, b], ranges);
    *func.dfg.inst_mut(inst) = InstData::IntCompare { cond, args: [a, b] };
    true
}

/// `v = smax(a, C)`, `C` a constant: `(a, C)`.
fn clamp_of(func: &Function, v: Value) -> Option<(Value, i128)> {
    let ValueDef::Result(i, 0) = func.dfg.value_def(v) else {
        return None;
    };
    let InstData::Binary {
        opcode: Opcode::Smax,
        args,
        ..
    } = *func.dfg.inst(i)
    else {
        return None;
    };
    let c = |k: usize| iconst_value(func, args[k]).map(i128::from);
    c(1).map(|c| (args[0], c))
        .or_else(|| c(0).map(|c| (args[1], c)))
}

/// A signed `<`/`<=` with an operand `smax(a, C)` whose clamp cannot change the answer, given
/// the other operand's range (`ranges`, in operand order), compares `a` instead: `x < smax(a,
/// C)` is `x < a` when `x >= C`, and `smax(a, C) <= y` is `a <= y` when `y >= C` (the
/// one-iteration kernel's `k < smax(n, 0)` and its check that the grid covers the trip count).
fn past_clamp(
    func: &Function,
    cond: ompcc_ir::IntCC,
    [a, b]: [Value; 2],
    ranges: [Range; 2],
) -> [Value; 2] {
    use ompcc_ir::IntCC::{Sle, Slt};
    let at_least = |r: Range, c: i128| r.within(c, i128::MAX);
    // the other operand's least value for which the clamp does not matter
    let (strict_rhs, strict_lhs) = match cond {
        Slt => (0, 1),
        Sle => (1, 0),
        _ => return [a, b],
    };
    if let Some((x, c)) = clamp_of(func, b)
        && at_least(ranges[0], c + strict_rhs)
    {
        return [a, x];
    }
    if let Some((x, c)) = clamp_of(func, a)
        && at_least(ranges[1], c + strict_lhs)
    {
        return [x, b];
    }
    [a, b]
}

/// `smax(x - c, 0)` (or `x + (-c)`) with `x` an `i32` widened and `0 < c < 2^31`: the trip
/// count of a loop over `int` bounds from a constant `c`, computed in 64 bits since `x - c`
/// may leave `i32`. It equals the 32-bit `smax(x, c) - c`, which lies in `[0, 2^31 - 1 - c]`.
fn clamped_span(
    func: &mut Function,
    st: &mut Narrow<'_>,
    inst: Inst,
    res: Value,
    args: [Value; 2],
) -> bool {
    let span = match (iconst_value(func, args[0]), iconst_value(func, args[1])) {
        (None, Some(0)) => args[0],
        (Some(0), None) => args[1],
        _ => return false,
    };
    let ValueDef::Result(d, 0) = func.dfg.value_def(span) else {
        return false;
    };
    let (x, c) = match *func.dfg.inst(d) {
        InstData::Binary {
            opcode: Opcode::Isub,
            args: [x, k],
            ..
        } => (x, iconst_value(func, k)),
        InstData::Binary {
            opcode: Opcode::Iadd,
            args: [x, k],
            ..
        } => (x, iconst_value(func, k).and_then(i64::checked_neg)),
        _ => return false,
    };
    let Some(c) = c.filter(|c| (1..=i64::from(i32::MAX)).contains(c)) else {
        return false;
    };
    let Some(Cheap::Value(x32)) = st.cheap32(func, x) else {
        return false;
    };
    // `cheap32` gives the `i32` of an `sext` or `zext`: only the sign-extended one is `x`
    // for every value; a zero-extended one must be below 2^31.
    let Some(block) = func.layout.inst_block(inst) else {
        return false;
    };
    if !st.range(func, x, block).within(I32_MIN, I32_MAX) {
        return false;
    }
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(inst);
    let c32 = cur.ins().iconst(Type::I32, c);
    let m = cur.ins().smax(x32, c32);
    let n = cur.ins().isub(m, c32);
    let w = cur.ins().sext(Type::I64, n);
    st.made.insert(
        w,
        Range {
            lo: 0,
            hi: I32_MAX - i128::from(c),
        },
    );
    st.small.insert(w, n);
    st.small.insert(res, n);
    func.replace_all_uses(res, w);
    true
}

/// `a - q * d` (either factor order) where `q` is `a / d` narrowed above: the remainder, in
/// `[0, d)` with `a` and `d` in `[0, 2^31)`, so the 32-bit `a - q * d` (exact modulo 2^32)
/// equals it. `divrem` writes remainders this way.
fn remainder(
    func: &mut Function,
    st: &mut Narrow<'_>,
    inst: Inst,
    res: Value,
    args: [Value; 2],
) -> bool {
    let ValueDef::Result(m, 0) = func.dfg.value_def(args[1]) else {
        return false;
    };
    let InstData::Binary {
        opcode: Opcode::Imul,
        args: f,
        ..
    } = *func.dfg.inst(m)
    else {
        return false;
    };
    let Some(Cheap::Value(a32)) = st.cheap32(func, args[0]) else {
        return false;
    };
    for (q, d) in [(f[0], f[1]), (f[1], f[0])] {
        let Some(&q32) = st.small.get(&q) else {
            continue;
        };
        let ValueDef::Result(div, 0) = func.dfg.value_def(q32) else {
            continue;
        };
        let InstData::Binary {
            opcode: Opcode::Udiv,
            args: qa,
            ..
        } = *func.dfg.inst(div)
        else {
            continue;
        };
        if qa[0] != a32
            || st
                .cheap32(func, d)
                .is_none_or(|c| !matches!(c, Cheap::Value(d32) if d32 == qa[1]))
        {
            continue;
        }
        // the remainder lies in `[0, d)`
        let Some(block) = func.layout.inst_block(inst) else {
            continue;
        };
        let hi = (st.range(func, d, block).hi - 1).clamp(0, u32::MAX as i128);
        let mut cur = FuncCursor::new(func);
        cur.goto_inst(inst);
        let p = cur.ins().imul(q32, qa[1]);
        let r = cur.ins().isub(a32, p);
        let w = cur.ins().zext(Type::I64, r);
        st.made.insert(w, Range { lo: 0, hi });
        st.small.insert(w, r);
        st.small.insert(res, r);
        func.replace_all_uses(res, w);
        return true;
    }
    false
}

fn binary(cur: &mut FuncCursor<'_>, op: Opcode, a: Value, b: Value) -> Value {
    match op {
        Opcode::Iadd => cur.ins().iadd(a, b),
        Opcode::Isub => cur.ins().isub(a, b),
        Opcode::Imul => cur.ins().imul(a, b),
        Opcode::Shl => cur.ins().shl(a, b),
        Opcode::Udiv => cur.ins().udiv(a, b),
        Opcode::Smax => cur.ins().smax(a, b),
        Opcode::Smin => cur.ins().smin(a, b),
        _ => cur.ins().urem(a, b),
    }
}

/// An `i32` equal to `v` (which fits): one at hand, or a `trunc` placed right after `v`'s
/// definition (so it serves every later use) and remembered.
fn to32(func: &mut Function, st: &mut Narrow<'_>, inst: Inst, v: Value) -> Value {
    match st.cheap32(func, v) {
        Some(Cheap::Value(s)) => s,
        Some(Cheap::Const(c)) => {
            // At the top of the function, out of any loop.
            let mut cur = FuncCursor::new(func);
            let top = cur.func.layout.entry_block();
            match top.and_then(|b| cur.func.layout.first_inst(b)) {
                Some(f) => {
                    cur.goto_inst(f);
                    cur.set_srcloc(Default::default());
                }
                None => cur.goto_inst(inst),
            }
            cur.ins().iconst(Type::I32, c)
        }
        None => {
            let mut cur = FuncCursor::new(func);
            match cur.func.dfg.value_def(v) {
                ValueDef::Result(d, _) => match cur.func.layout.next_inst(d) {
                    Some(n) => cur.goto_inst(n),
                    None => cur.goto_inst(inst),
                },
                ValueDef::Param(b, _) => match cur.func.layout.first_inst(b) {
                    Some(f) => cur.goto_inst(f),
                    None => cur.goto_inst(inst),
                },
                ValueDef::Placeholder => cur.goto_inst(inst),
            }
            let t = cur.ins().trunc(Type::I32, v);
            st.small.insert(v, t);
            t
        }
    }
}
