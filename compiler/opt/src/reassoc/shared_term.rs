//! Shared terms of two-term addresses: `p + (a + b) * K` becomes `(p + b * K) + a * K` when
//! `b` is a term of more addresses on `p` than `a` is, so the addresses share `p + b * K`.
//!
//! The 3x3 window `A[(i + r) * n + j + c]` of a one-iteration stencil kernel has the terms
//! `sext((i + r) * n)` (one per row) and `sext(j)` (all nine taps): after the split the
//! column part `A + j * 4` is computed once and each row adds its own term (one `mul.wide`
//! and add, ptxas's `IMAD.WIDE`), while the constants of the columns become immediates. The
//! sum `(a + b) * K` in 64 bits costs a 64-bit add, a shift pair and a 64-bit add per row.
//!
//! Terms are read through `i64` sums with constants (`x + C`, `x - C`) and through the sign
//! extension of an `nsw` sum (`sext(a + b) == sext(a) + sext(b)` and `sext(x + C) ==
//! sext(x) + C`, the IR's rule for `nsw`). The rewrite is exact: `ptr_offset` adds modulo
//! 2^64, so `p + (a + b) * K + C * K` regroups freely. Only blocks outside loops are
//! rewritten (in a loop the sum may be what strength reduction and register caching
//! follow), and only terms that at least three addresses on the base share.

use super::{binary, peel_consts, pointer_offset};
use crate::util::iconst_value;
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree, LoopAnalysis};
use ompcc_ir::{FuncCursor, Function, Inst, InstData, Opcode, Type, Value, ValueDef};
use rustc_hash::FxHashMap;

/// How many addresses on one base must share a term for the split: with two, it trades two
/// 32-bit sums for the shared term's product, and loses where a sum serves another base
/// too (`ey[i * n + j]` next to `hz[i * n + j]` and `hz[(i - 1) * n + j]`).
const MIN_SHARED: usize = 3;

/// A term of an `i64` offset: an `i64` value, or the sign extension of a narrower one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Term {
    Wide(Value),
    Ext(Value),
}

/// `ptr_offset p, (a + b) * K + C * K` read off an address.
struct TwoTerms {
    inst: Inst,
    base: Value,
    scale: i64,
    terms: [Term; 2],
    constant: i64,
}

/// `v` (an `i64`) as a term plus a constant.
fn term_of(func: &Function, v: Value) -> (Term, i64) {
    let (x, c) = peel_consts(func, v, false);
    if let Some((Opcode::Sext, arg)) = unary(func, x) {
        let (y, k) = peel_consts(func, arg, true);
        return (Term::Ext(y), c.wrapping_add(k));
    }
    (Term::Wide(x), c)
}

fn unary(func: &Function, v: Value) -> Option<(Opcode, Value)> {
    match func.dfg.value_def(v) {
        ValueDef::Result(i, 0) => match func.dfg.inst(i) {
            InstData::Unary { opcode, arg } => Some((*opcode, *arg)),
            _ => None,
        },
        _ => None,
    }
}

/// The two terms and the constant of the unscaled offset `x`, if it has exactly two terms.
fn two_terms(func: &Function, x: Value) -> Option<([Term; 2], i64)> {
    let (x, c) = peel_consts(func, x, false);
    if let Some((Opcode::Iadd, a, b)) = binary(func, x) {
        let ((ta, ca), (tb, cb)) = (term_of(func, a), term_of(func, b));
        return Some(([ta, tb], c.wrapping_add(ca).wrapping_add(cb)));
    }
    // `sext(a + b)` of an `nsw` sum (after its constants) is `sext(a) + sext(b)`.
    let (Opcode::Sext, arg) = unary(func, x)? else {
        return None;
    };
    let (sum, k) = peel_consts(func, arg, true);
    let ValueDef::Result(i, 0) = func.dfg.value_def(sum) else {
        return None;
    };
    if !func.dfg.inst(i).is_nsw() {
        return None;
    }
    let (Opcode::Iadd, a, b) = binary(func, sum)? else {
        return None;
    };
    let ((a, ca), (b, cb)) = (peel_consts(func, a, true), peel_consts(func, b, true));
    let c = c.wrapping_add(k).wrapping_add(ca).wrapping_add(cb);
    Some(([Term::Ext(a), Term::Ext(b)], c))
}

/// The address `inst` computes, read as two terms, when it is one.
fn address(func: &Function, inst: Inst) -> Option<TwoTerms> {
    let (base, off) = pointer_offset(func, inst)?;
    let (x, scale) = match binary(func, off) {
        Some((Opcode::Imul, x, k)) => (x, iconst_value(func, k)?),
        _ => (off, 1),
    };
    let (terms, constant) = two_terms(func, x)?;
    (terms[0] != terms[1]).then_some(TwoTerms {
        inst,
        base,
        scale,
        terms,
        constant,
    })
}

/// Splits the two-term addresses of blocks outside loops; returns how many it rewrote.
pub(super) fn split_shared_terms(func: &mut Function) -> usize {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let loops = LoopAnalysis::compute(&cfg, &dt);
    let mut found = Vec::new();
    for b in func.layout.blocks() {
        if loops.depth(b) > 0 || !dt.is_reachable(b) {
            continue;
        }
        found.extend(func.layout.block_insts(b).filter_map(|i| address(func, i)));
    }
    // How many addresses on one base and scale each term is part of.
    let mut uses: FxHashMap<(Value, i64, Term), usize> = FxHashMap::default();
    for a in &found {
        for t in a.terms {
            *uses.entry((a.base, a.scale, t)).or_default() += 1;
        }
    }
    let mut rewritten = 0;
    for a in found {
        let count = |t: Term| uses[&(a.base, a.scale, t)];
        let [t0, t1] = a.terms;
        let (inner, outer) = if count(t0) > count(t1) {
            (t0, t1)
        } else {
            (t1, t0)
        };
        if count(inner) < MIN_SHARED || count(inner) == count(outer) {
            continue;
        }
        rebuild(func, &a, inner, outer);
        rewritten += 1;
    }
    rewritten
}

/// Rewrites `a` as `(base + inner * K) + outer * K` (then `+ C * K`).
fn rebuild(func: &mut Function, a: &TwoTerms, inner: Term, outer: Term) {
    let loc = func.srcloc(a.inst);
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(a.inst);
    cur.set_srcloc(loc);
    let scaled = |cur: &mut FuncCursor<'_>, t: Term| {
        let v = match t {
            Term::Wide(v) => v,
            Term::Ext(v) => cur.ins().sext(Type::I64, v),
        };
        if a.scale == 1 {
            return v;
        }
        let k = cur.ins().iconst(Type::I64, a.scale);
        cur.ins().imul(v, k)
    };
    let i = scaled(&mut cur, inner);
    let q = cur.ins().ptr_offset(a.base, i);
    let o = scaled(&mut cur, outer);
    let data = if a.constant == 0 {
        InstData::binary(Opcode::PtrOffset, [q, o])
    } else {
        let r = cur.ins().ptr_offset(q, o);
        let c = cur
            .ins()
            .iconst(Type::I64, a.constant.wrapping_mul(a.scale));
        InstData::binary(Opcode::PtrOffset, [r, c])
    };
    *cur.func.dfg.inst_mut(a.inst) = data;
}
