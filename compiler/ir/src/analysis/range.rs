//! Integer value ranges: a signed interval `[lo, hi]` for every integer value, holding on every
//! execution, plus sharper ranges of loop counters inside their loop bodies.
//!
//! Intervals are of the value read as a signed integer of its type (`i128` bounds). Each
//! instruction's interval follows from its operands' (constants, `sext`/`zext`/`trunc`,
//! `iadd`/`isub`/`imul`, shifts and `and` by constants, divisions of non-negative values,
//! `select`, `smin`/`smax`, the launch-geometry special registers with `%nctaid.x` at most
//! [`MAX_TEAMS`]); an operation whose exact result may leave its type's range wraps, so it
//! gets the full range. Block parameters join
//! their incoming values; one that keeps growing is widened to the full range, so the
//! fixpoint ends.
//!
//! A counted loop whose header tests `p + c cc bound` (`slt`, `sle`, or `ult`/`ule` over
//! non-negative values; `c >= 0` a constant, 0 when `p` itself is tested; the test may be one
//! operand of an `and`, as unrolling writes its guard) before the body, with `p` coming back as
//! `p + s` (`s >= 0`, or a chain of constant additions summing to `s`), keeps `p` in
//! `[start.lo, max(start.hi, bound.hi - 1 - c + s.hi)]` (every value that re-enters passed the
//! test, and nothing wraps when that bound fits the type). Inside the body (blocks the staying
//! successor dominates, when the header is its only predecessor) the test itself holds:
//! `p <= bound.hi - 1 - c` (`bound.hi - c` for `sle`); `range_at` answers there with the sharper
//! range. A rotated loop, whose latch tests the value it sends back (`next cc bound`, branching
//! to the header only when it holds), keeps `p` in `[start.lo, max(start.hi, bound.hi - 1)]`.
//!
//! Results are valid while the function is unchanged.

use super::cfg::ControlFlowGraph;
use super::domtree::DominatorTree;
use super::loops::LoopAnalysis;
use super::scev::const_of;
use crate::dfg::ValueDef;
use crate::entities::{Block, Inst, Value};
use crate::function::Function;
use crate::instructions::{InstData, IntCC, Opcode, SpecialReg};
use rustc_hash::FxHashMap;

/// The most teams (`%nctaid.x`) a kernel is ever launched with: the runtime clamps every
/// league to it (`ompcc-rt`'s `launch_shape::MAX_TEAMS`, which must stay equal; OpenMP lets a
/// league have fewer teams than `num_teams` asks for). With at most 1024 threads a team,
/// `%ctaid.x * %ntid.x + %tid.x` and `%nctaid.x * %ntid.x` then fit `i32`, so the global
/// thread number and stride of a distributed loop are 32-bit values.
pub const MAX_TEAMS: u32 = (1 << 21) - 1;

/// A signed interval, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// Smallest value.
    pub lo: i128,
    /// Largest value.
    pub hi: i128,
}

impl Range {
    /// The full range of an integer type of `bits` bits (signed reading).
    pub fn full(bits: u32) -> Range {
        let bits = bits.clamp(1, 64);
        Range {
            lo: -(1i128 << (bits - 1)),
            hi: (1i128 << (bits - 1)) - 1,
        }
    }

    /// A single value.
    pub fn single(v: i128) -> Range {
        Range { lo: v, hi: v }
    }

    /// Whether every value lies in `[lo, hi]`.
    pub fn within(self, lo: i128, hi: i128) -> bool {
        self.lo >= lo && self.hi <= hi
    }

    /// Whether every value fits a signed integer of `bits` bits.
    pub fn fits_signed(self, bits: u32) -> bool {
        let f = Range::full(bits);
        self.within(f.lo, f.hi)
    }

    fn union(self, o: Range) -> Range {
        Range {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// `self` if it fits `bits`, else the full range (the operation wrapped).
    fn wrap(self, bits: u32) -> Range {
        if self.fits_signed(bits) {
            self
        } else {
            Range::full(bits)
        }
    }
}

/// A loop counter's range inside its loop body.
#[derive(Clone, Copy, Debug)]
struct BodyFact {
    value: Value,
    /// The header's successor inside the loop; its dominance region is the body.
    stay: Block,
    range: Range,
}

/// How a counter comes back: `p + step` (a value defined outside the loop), or `p` plus a
/// constant through a chain of additions.
#[derive(Clone, Copy, Debug)]
enum Step {
    Value(Value),
    Const(i128),
}

/// A recognized counted loop: `param` (plus `offset`) tested against `bound` in the header, or
/// (`rotated`) the value coming back tested in the latch.
#[derive(Clone, Copy, Debug)]
struct Counter {
    param: Value,
    start: Value,
    step: Step,
    bound: Value,
    /// `c` of a header test `p + c cc bound` (0 when rotated).
    offset: i128,
    /// The latch tests the value sent back; nothing is known inside the body.
    rotated: bool,
    /// `sle`/`ule`: the bound itself passes the test.
    inclusive: bool,
    /// `ult`/`ule`: only valid over non-negative values.
    unsigned: bool,
    stay: Option<Block>,
}

/// Ranges of a function's integer values.
pub struct Ranges {
    map: FxHashMap<Value, Range>,
    body: Vec<BodyFact>,
    domtree: DominatorTree,
}

/// Widening: a block parameter whose range changed this often becomes full.
const WIDEN_AFTER: u32 = 4;
/// Rounds of the fixpoint before giving up (every range is then full).
const MAX_ROUNDS: u32 = 64;

impl Ranges {
    /// Computes the ranges.
    pub fn compute(func: &Function) -> Ranges {
        let cfg = ControlFlowGraph::compute(func);
        let domtree = DominatorTree::compute(func, &cfg);
        let loops = LoopAnalysis::compute(&cfg, &domtree);
        let mut counters: FxHashMap<Value, Counter> = FxHashMap::default();
        for lp in loops.loops() {
            for c in find_counters(func, &cfg, lp.header, &lp.blocks) {
                counters.insert(c.param, c);
            }
        }
        // Incoming arguments of each block parameter.
        let mut incoming: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
        for &b in domtree.rpo() {
            for &(_, br) in cfg.preds(b) {
                for call in func
                    .dfg
                    .branch_destinations(br)
                    .iter()
                    .filter(|c| c.block == b)
                {
                    for (&p, &a) in func
                        .dfg
                        .block_params(b)
                        .iter()
                        .zip(func.dfg.block_call_args(call))
                    {
                        incoming.entry(p).or_default().push(a);
                    }
                }
            }
        }
        let mut r = Ranges {
            map: FxHashMap::default(),
            body: Vec::new(),
            domtree,
        };
        let entry = func.layout.entry_block();
        // Function parameters can be anything.
        if let Some(e) = entry {
            for &p in func.dfg.block_params(e) {
                let ty = func.dfg.value_type(p);
                if ty.is_int() {
                    r.map.insert(p, Range::full(ty.bits()));
                }
            }
        }
        let mut grown: FxHashMap<Value, u32> = FxHashMap::default();
        let mut converged = false;
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            for &b in r.domtree.rpo() {
                let mut vals: Vec<Value> = Vec::new();
                if Some(b) != entry {
                    vals.extend(func.dfg.block_params(b).iter().copied());
                }
                for inst in func.layout.block_insts(b) {
                    vals.extend(func.dfg.inst_results(inst).iter().copied());
                }
                for v in vals {
                    let ty = func.dfg.value_type(v);
                    if !ty.is_int() {
                        continue;
                    }
                    let mut new = match func.dfg.value_def(v) {
                        ValueDef::Param(..) => match counters.get(&v) {
                            Some(c) => r.counter_range(func, c),
                            None => r.join(&incoming, v),
                        },
                        _ => r.eval(func, v),
                    };
                    let Some(new_r) = new else { continue };
                    if let Some(&old) = r.map.get(&v) {
                        if old == new_r {
                            continue;
                        }
                        if matches!(func.dfg.value_def(v), ValueDef::Param(..))
                            && !counters.contains_key(&v)
                        {
                            let n = grown.entry(v).or_insert(0);
                            *n += 1;
                            if *n > WIDEN_AFTER {
                                new = Some(Range::full(ty.bits()));
                            }
                        }
                    }
                    let new_r = new.unwrap_or(Range::full(ty.bits()));
                    if r.map.get(&v) != Some(&new_r) {
                        r.map.insert(v, new_r);
                        changed = true;
                    }
                }
            }
            if !changed {
                converged = true;
                break;
            }
        }
        if !converged {
            r.map.clear();
            return r;
        }
        for c in counters.values() {
            let (Some(stay), Some(head)) = (c.stay, r.map.get(&c.param).copied()) else {
                continue;
            };
            let b = r.get(func, c.bound);
            // `p <u bound` with a non-negative bound: p is non-negative too.
            if c.unsigned && b.lo < 0 {
                continue;
            }
            // `p + c` must not have wrapped for the test to bound `p`.
            let full = Range::full(func.dfg.value_type(c.param).bits());
            if c.rotated || head.hi + c.offset > full.hi {
                continue;
            }
            let lo = if c.unsigned { head.lo.max(0) } else { head.lo };
            let hi = if c.inclusive { b.hi } else { b.hi - 1 } - c.offset;
            if lo <= hi {
                r.body.push(BodyFact {
                    value: c.param,
                    stay,
                    range: Range {
                        lo,
                        hi: hi.min(head.hi),
                    },
                });
            }
        }
        r
    }

    /// The range of integer value `v` anywhere it is used (full when unknown).
    pub fn get(&self, func: &Function, v: Value) -> Range {
        let bits = func.dfg.value_type(v).bits();
        self.map.get(&v).copied().unwrap_or(Range::full(bits))
    }

    /// The range of `v` as seen by an instruction in `block` (sharper inside loop bodies, for
    /// a counter and for the counter plus constants, as an unrolled body's copies use it).
    pub fn range_at(&self, func: &Function, v: Value, block: Block) -> Range {
        self.range_at_depth(func, v, block, 8)
    }

    fn range_at_depth(&self, func: &Function, v: Value, block: Block, depth: u32) -> Range {
        let mut r = self.get(func, v);
        let (x, c) = plus_constant(func, v);
        if x != v && depth > 0 {
            let full = Range::full(func.dfg.value_type(v).bits());
            let base = self.range_at_depth(func, x, block, depth - 1);
            let shifted = Range {
                lo: base.lo + c,
                hi: base.hi + c,
            };
            if shifted.within(full.lo, full.hi) {
                r = Range {
                    lo: r.lo.max(shifted.lo),
                    hi: r.hi.min(shifted.hi),
                };
            }
        }
        for f in self.body.iter().filter(|f| f.value == v) {
            if self.domtree.dominates(f.stay, block) {
                r = Range {
                    lo: r.lo.max(f.range.lo),
                    hi: r.hi.min(f.range.hi),
                };
            }
        }
        r
    }

    /// Union of the known incoming ranges; `None` while none is known.
    fn join(&self, incoming: &FxHashMap<Value, Vec<Value>>, v: Value) -> Option<Range> {
        let ins = incoming.get(&v)?;
        let mut acc: Option<Range> = None;
        for a in ins {
            if let Some(&r) = self.map.get(a) {
                acc = Some(acc.map_or(r, |x| x.union(r)));
            }
        }
        acc
    }

    fn counter_range(&self, func: &Function, c: &Counter) -> Option<Range> {
        let ty = func.dfg.value_type(c.param);
        let full = Range::full(ty.bits());
        let start = *self.map.get(&c.start)?;
        let step = match c.step {
            Step::Value(s) => self.map.get(&s).copied(),
            Step::Const(k) => Some(Range::single(k)),
        };
        let (Some(step), Some(&bound)) = (step, self.map.get(&c.bound)) else {
            // Not known yet: assume the optimistic start until the others settle.
            return Some(start);
        };
        if step.lo < 0 || (c.unsigned && (start.lo < 0 || bound.lo < 0)) {
            return Some(full);
        }
        // The largest value that passes the test.
        let last = if c.inclusive { bound.hi } else { bound.hi - 1 } - c.offset;
        let hi = if c.rotated {
            start.hi.max(last)
        } else {
            start.hi.max(last + step.hi)
        };
        // Nothing may wrap: the tested `p + c` of a header test (the next value `p + s` is at
        // most `hi` there, as `p` passed the test), the next value of a rotated loop.
        let reach = hi + if c.rotated { step.hi } else { c.offset };
        Some(if reach > full.hi {
            full
        } else {
            Range { lo: start.lo, hi }
        })
    }

    /// The range of an instruction result from its operands' current ranges; `None` while an
    /// operand is still unknown.
    fn eval(&self, func: &Function, v: Value) -> Option<Range> {
        let ty = func.dfg.value_type(v);
        let bits = ty.bits();
        let full = Range::full(bits);
        let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
            return Some(full);
        };
        let get = |x: Value| -> Option<Range> {
            if func.dfg.value_type(x).is_int() {
                self.map.get(&x).copied()
            } else {
                Some(Range::full(64))
            }
        };
        let konst = |x: Value| crate::analysis::scev::const_of(func, x);
        Some(match func.dfg.inst(inst) {
            InstData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => {
                let sh = 128 - bits.clamp(1, 64);
                Range::single((i128::from(*imm) << sh) >> sh)
            }
            InstData::Unary { opcode, arg } => {
                let a = get(*arg)?;
                let abits = func.dfg.value_type(*arg).bits();
                match opcode {
                    Opcode::Sext => a,
                    Opcode::Zext if a.lo >= 0 => a,
                    Opcode::Zext => Range {
                        lo: 0,
                        hi: (1i128 << abits) - 1,
                    }
                    .wrap(bits),
                    Opcode::Trunc => a.wrap(bits),
                    _ => full,
                }
            }
            InstData::Binary { opcode, args, .. } => {
                let (a, b) = (get(args[0])?, get(args[1])?);
                let c1 = konst(args[1]).map(i128::from);
                match opcode {
                    Opcode::Iadd => Range {
                        lo: a.lo + b.lo,
                        hi: a.hi + b.hi,
                    }
                    .wrap(bits),
                    Opcode::Isub => Range {
                        lo: a.lo - b.hi,
                        hi: a.hi - b.lo,
                    }
                    .wrap(bits),
                    Opcode::Imul => {
                        let ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
                        Range {
                            lo: ps.iter().copied().min().unwrap_or(full.lo),
                            hi: ps.iter().copied().max().unwrap_or(full.hi),
                        }
                        .wrap(bits)
                    }
                    Opcode::Shl => match c1 {
                        Some(c) if (0..i128::from(bits)).contains(&c) => Range {
                            lo: a.lo << c,
                            hi: a.hi << c,
                        }
                        .wrap(bits),
                        _ => full,
                    },
                    Opcode::Ashr => match c1 {
                        Some(c) if (0..i128::from(bits)).contains(&c) => Range {
                            lo: a.lo >> c,
                            hi: a.hi >> c,
                        },
                        _ => full,
                    },
                    Opcode::Lshr => match c1 {
                        Some(c) if a.lo >= 0 && (0..i128::from(bits)).contains(&c) => Range {
                            lo: a.lo >> c,
                            hi: a.hi >> c,
                        },
                        Some(c) if (1..i128::from(bits)).contains(&c) => Range {
                            lo: 0,
                            hi: ((1i128 << bits) - 1) >> c,
                        },
                        _ => full,
                    },
                    Opcode::And if a.lo >= 0 && b.lo >= 0 => Range {
                        lo: 0,
                        hi: a.hi.min(b.hi),
                    },
                    Opcode::And if a.lo >= 0 || b.lo >= 0 => Range {
                        lo: 0,
                        hi: if a.lo >= 0 { a.hi } else { b.hi },
                    },
                    Opcode::Udiv | Opcode::Sdiv if a.lo >= 0 && b.lo >= 0 => {
                        Range { lo: 0, hi: a.hi }
                    }
                    Opcode::Urem | Opcode::Srem if a.lo >= 0 && b.lo >= 0 => Range {
                        lo: 0,
                        hi: a.hi.min(b.hi - 1).max(0),
                    },
                    Opcode::Smin => Range {
                        lo: a.lo.min(b.lo),
                        hi: a.hi.min(b.hi),
                    },
                    Opcode::Smax => Range {
                        lo: a.lo.max(b.lo),
                        hi: a.hi.max(b.hi),
                    },
                    _ => full,
                }
            }
            InstData::Ternary {
                opcode: Opcode::Select,
                args,
            } => get(args[1])?.union(get(args[2])?),
            InstData::Special { reg } if bits == 32 => {
                let max_teams = i128::from(MAX_TEAMS);
                let (lo, hi) = match reg {
                    SpecialReg::TidX | SpecialReg::TidY | SpecialReg::Laneid => (0, 1023),
                    SpecialReg::TidZ => (0, 63),
                    // A launch has at least one thread and one team in each dimension.
                    SpecialReg::NtidX | SpecialReg::NtidY => (1, 1024),
                    SpecialReg::NtidZ => (1, 64),
                    SpecialReg::CtaidX => (0, max_teams - 1),
                    SpecialReg::NctaidX => (1, max_teams),
                    SpecialReg::CtaidY | SpecialReg::CtaidZ => (0, 65534),
                    SpecialReg::NctaidY | SpecialReg::NctaidZ => (1, 65535),
                    SpecialReg::Warpsize => (1, 32),
                    _ => return Some(full),
                };
                Range { lo, hi }
            }
            _ => full,
        })
    }
}

/// The counted loops of `header`: header-tested counters, else a rotated one.
fn find_counters(
    func: &Function,
    cfg: &ControlFlowGraph,
    header: Block,
    body: &[Block],
) -> Vec<Counter> {
    let mut out = header_counters(func, cfg, header, body);
    if out.is_empty() {
        out.extend(rotated_counter(func, cfg, header, body));
    }
    out
}

/// The compares a branch's staying side needs: the compare itself (inverted when the loop
/// stays on the false side), or each compare of an `and` the loop stays on when true. Returns
/// the staying block and whether it is the true side.
fn staying_tests(func: &Function, term: Inst, body: &[Block]) -> Option<(Block, bool, Vec<Inst>)> {
    let InstData::Brif { arg, blocks } = func.dfg.inst(term) else {
        return None;
    };
    let (t, e) = (blocks[0].block, blocks[1].block);
    let (stay, on_true) = match (body.contains(&t), body.contains(&e)) {
        (true, false) => (t, true),
        (false, true) => (e, false),
        _ => return None,
    };
    let compares = |v: Value| match func.dfg.value_def(v) {
        ValueDef::Result(i, 0) if matches!(func.dfg.inst(i), InstData::IntCompare { .. }) => {
            Some(i)
        }
        _ => None,
    };
    if let Some(cmp) = compares(*arg) {
        return Some((stay, on_true, vec![cmp]));
    }
    let ValueDef::Result(and, 0) = func.dfg.value_def(*arg) else {
        return None;
    };
    match func.dfg.inst(and) {
        InstData::Binary {
            opcode: Opcode::And,
            args,
            ..
        } if on_true => Some((
            stay,
            on_true,
            args.iter().filter_map(|&a| compares(a)).collect(),
        )),
        _ => None,
    }
}

/// `(cc, lhs, rhs)` of compare `cmp` as the loop stays (inverted on the false side).
fn staying_compare(func: &Function, cmp: Inst, on_true: bool) -> Option<(IntCC, Value, Value)> {
    let InstData::IntCompare { cond, args } = func.dfg.inst(cmp) else {
        return None;
    };
    let cc = if on_true { *cond } else { cond.inverse() };
    Some((cc, args[0], args[1]))
}

/// `(inclusive, unsigned)` of a counting test.
fn test_kind(cc: IntCC) -> Option<(bool, bool)> {
    match cc {
        IntCC::Slt => Some((false, false)),
        IntCC::Sle => Some((true, false)),
        IntCC::Ult => Some((false, true)),
        IntCC::Ule => Some((true, true)),
        _ => None,
    }
}

/// `v` as `(p, c)` meaning `p + c` for a constant `c >= 0` (`(v, 0)` otherwise).
fn plus_constant(func: &Function, v: Value) -> (Value, i128) {
    if let ValueDef::Result(inst, 0) = func.dfg.value_def(v)
        && let InstData::Binary {
            opcode: Opcode::Iadd,
            args,
            ..
        } = func.dfg.inst(inst)
    {
        for (x, k) in [(args[0], args[1]), (args[1], args[0])] {
            if let Some(c) = const_of(func, k).map(i128::from).filter(|&c| c >= 0) {
                return (x, c);
            }
        }
    }
    (v, 0)
}

/// How `next` comes from `p`: `p + s` with `s` outside the loop, or `p` plus constants
/// through a chain of additions (an unrolled loop's copies).
fn step_from(
    func: &Function,
    p: Value,
    next: Value,
    invariant: impl Fn(Value) -> bool,
) -> Option<Step> {
    if let Some(s) = step_of(func, p, next)
        && invariant(s)
        && const_of(func, s).is_none()
    {
        return Some(Step::Value(s));
    }
    let mut total = 0i128;
    let mut v = next;
    for _ in 0..64 {
        if v == p {
            return Some(Step::Const(total));
        }
        let (x, c) = plus_constant(func, v);
        if x == v {
            return None;
        }
        total += c;
        v = x;
    }
    None
}

/// The start (the one value entering from outside) and the step (the same from every latch)
/// of header parameter `index`.
fn start_and_step(
    func: &Function,
    cfg: &ControlFlowGraph,
    header: Block,
    body: &[Block],
    index: usize,
) -> Option<(Value, Step)> {
    let p = func.dfg.block_params(header)[index];
    let invariant = |v: Value| def_block(func, v).is_none_or(|b| !body.contains(&b));
    let mut start = None;
    let mut step: Option<Step> = None;
    for &(from, br) in cfg.preds(header) {
        for call in func
            .dfg
            .branch_destinations(br)
            .iter()
            .filter(|c| c.block == header)
        {
            let a = func.dfg.block_call_args(call)[index];
            if body.contains(&from) {
                let s = step_from(func, p, a, invariant)?;
                match (s, step) {
                    (s, None) => step = Some(s),
                    (Step::Value(x), Some(Step::Value(y))) if x == y => {}
                    (Step::Const(x), Some(Step::Const(y))) if x == y => {}
                    _ => return None,
                }
            } else {
                match start {
                    None => start = Some(a),
                    Some(x) if x == a => {}
                    _ => return None,
                }
            }
        }
    }
    Some((start?, step?))
}

/// Counters the header tests (`p + c cc bound` before the body).
fn header_counters(
    func: &Function,
    cfg: &ControlFlowGraph,
    header: Block,
    body: &[Block],
) -> Vec<Counter> {
    let mut out = Vec::new();
    let Some(term) = func.layout.last_inst(header) else {
        return out;
    };
    let Some((stay, on_true, tests)) = staying_tests(func, term, body) else {
        return out;
    };
    // The bound must not change inside the loop (so the counter's range follows from ranges
    // that settle before it).
    let invariant = |v: Value| def_block(func, v).is_none_or(|b| !body.contains(&b));
    // The body refinement needs the test to have held on the only way into `stay`.
    let only_pred = cfg.preds(stay).len() == 1;
    let params = func.dfg.block_params(header);
    for cmp in tests {
        let Some((cc, lhs, bound)) = staying_compare(func, cmp, on_true) else {
            continue;
        };
        let Some((inclusive, unsigned)) = test_kind(cc) else {
            continue;
        };
        let (p, offset) = plus_constant(func, lhs);
        let Some(index) = params.iter().position(|&x| x == p) else {
            continue;
        };
        if !invariant(bound) || out.iter().any(|c: &Counter| c.param == p) {
            continue;
        }
        let Some((start, step)) = start_and_step(func, cfg, header, body, index) else {
            continue;
        };
        out.push(Counter {
            param: p,
            start,
            step,
            bound,
            offset,
            rotated: false,
            inclusive,
            unsigned,
            stay: only_pred.then_some(stay),
        });
    }
    out
}

/// The counter of a rotated loop: its only latch branches back with `next` only when
/// `next cc bound` holds.
fn rotated_counter(
    func: &Function,
    cfg: &ControlFlowGraph,
    header: Block,
    body: &[Block],
) -> Option<Counter> {
    let latches: Vec<(Block, Inst)> = cfg
        .preds(header)
        .iter()
        .copied()
        .filter(|(b, _)| body.contains(b))
        .collect();
    let [(_, term)] = latches.as_slice() else {
        return None;
    };
    let InstData::Brif { arg, blocks } = func.dfg.inst(*term) else {
        return None;
    };
    let on_true = match (blocks[0].block == header, blocks[1].block == header) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    let ValueDef::Result(cmp, 0) = func.dfg.value_def(*arg) else {
        return None;
    };
    let (cc, next, bound) = staying_compare(func, cmp, on_true)?;
    let (inclusive, unsigned) = test_kind(cc)?;
    let invariant = |v: Value| def_block(func, v).is_none_or(|b| !body.contains(&b));
    if !invariant(bound) {
        return None;
    }
    let call = &blocks[if on_true { 0 } else { 1 }];
    let index = func
        .dfg
        .block_call_args(call)
        .iter()
        .position(|&a| a == next)?;
    let (start, step) = start_and_step(func, cfg, header, body, index)?;
    Some(Counter {
        param: func.dfg.block_params(header)[index],
        start,
        step,
        bound,
        offset: 0,
        rotated: true,
        inclusive,
        unsigned,
        stay: None,
    })
}

/// `s` when `next` is `p + s` (either operand order).
pub fn step_of(func: &Function, p: Value, next: Value) -> Option<Value> {
    let ValueDef::Result(inst, 0) = func.dfg.value_def(next) else {
        return None;
    };
    match func.dfg.inst(inst) {
        InstData::Binary {
            opcode: Opcode::Iadd,
            args,
            ..
        } if args[0] == p => Some(args[1]),
        InstData::Binary {
            opcode: Opcode::Iadd,
            args,
            ..
        } if args[1] == p => Some(args[0]),
        _ => None,
    }
}

/// The block that defines `v` (its instruction's block, or the block it is a parameter of).
pub fn def_block(func: &Function, v: Value) -> Option<Block> {
    match func.dfg.value_def(v) {
        ValueDef::Result(i, _) => func.layout.inst_block(i),
        ValueDef::Param(b, _) => Some(b),
        ValueDef::Placeholder => None,
    }
}
