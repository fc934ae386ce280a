//! cache: values a loop re-reads kept in registers across its iterations (scalar replacement,
//! OpenMPC's register caching), and loads with an invariant address hoisted out of the loop.
//!
//! For a loop with one latch, every load of integer or floating-point type that
//! - runs on every iteration, the first included: its block dominates every latch and every
//!   block leaving the loop (a rotated, do-while loop's straight line), or every one but the
//!   header, whose exit test can then be computed before the loop (a loop tested at the top),
//! - reads memory no store of the loop can write in any iteration (`never_overlap`: another
//!   object, or another space), in a loop without calls, atomics, barriers or fences (so no
//!   other thread may write it meanwhile without a data race),
//!
//! has its address written as a root pointer plus a polynomial byte offset over the loop's
//! counters (header parameters that come back plus a constant, through a chain of constant
//! additions as unrolling leaves) and values defined before the loop: through `ptr_offset`,
//! `iadd`/`isub`/`imul`/`shl` of `i64` (exact modulo 2^64, as addresses are), and `sext` of
//! an `i32` chain whose steps are all `nsw` (then `sext(a + b) == sext(a) + sext(b)`, the IR's
//! rule), an `i32` counter only when its increments are `nsw` too, and `trunc` of an `i64`
//! value that value ranges put in `i32` (its `sext` is the value). Each counter term of
//! degree one moves the offset by a fixed polynomial `delta` per iteration (`n * 8` bytes for
//! `a[i*n + j]` over `i`). Two loads with the same root, counter terms and type whose other
//! terms differ by `t * delta` (`t` an integer) read the same bytes `t` iterations apart:
//! `a[i+1]` on iteration `k` is `a[i]` on `k + 1`. A run of such loads at consecutive distances
//! `0..=M` (`M` at most `MAX_DISTANCE`) becomes one load per iteration, the run's leading one,
//! and `M` header parameters that carry its value for `M` iterations (loads of one element
//! within an iteration, `M = 0`, share one load). Their first values are loaded before the
//! loop at the addresses the run's other loads have on the first iteration (their address
//! arithmetic copied with each header parameter at its entry value): loads the first
//! iteration makes anyway. In a loop tested at the top they run only when the header's test
//! holds on the entry values, and reach the header through a join (zero otherwise, when the
//! loop does not run and nothing reads them), except those a load of the header reads: the
//! header runs anyway. A load whose offset has no counter term is
//! hoisted the same way. A loop without a preheader gets one when there is something to do.
//!
//! Runs last, after `rotate`, whose loop shape it keeps (it only adds header parameters, and
//! blocks before the loop). Knob `register-cache` (`on` at -O2 and above). `-Rpass=cache`
//! says what was kept in registers or hoisted; `-Rpass-missed=cache`, for loads of an array
//! the loop reads at several places, which fact was missing: the store that may write it (to
//! the same array, or through another pointer), the call or barrier in the loop, an offset
//! that is not affine in the loop's counters, offsets not a whole number of iterations apart,
//! or a load that does not run on every iteration.

use crate::knobs::Knobs;
use crate::licm::{Stores, leaving_blocks, loop_stores, make_preheader};
use crate::remarks::{Remarks, plural};
use crate::util::{InstCopy, Remap, iconst_value};
use ompcc_ir::analysis::{
    AliasAnalysis, ControlFlowGraph, DominatorTree, Loop, LoopAnalysis, LoopScev, Ranges,
};
use ompcc_ir::{
    AddrSpace, Block, FuncCursor, Function, Inst, InstData, MemFlags, Opcode, Type, Value, ValueDef,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// Iterations a value is carried at most (registers per run).
const MAX_DISTANCE: usize = 8;
/// Factors of one monomial at most (`i * n * m`).
const MAX_FACTORS: usize = 3;
/// Instructions looked through per offset.
const MAX_DEPTH: u32 = 12;

/// A value of an offset polynomial, read as itself (`i64`) or sign-extended (`i32`).
type Sym = (Value, bool);

/// One monomial: at most one loop counter times values defined before the loop.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Mono {
    counter: Option<Value>,
    factors: Vec<Sym>,
}

/// A polynomial with `i64` coefficients, exact modulo 2^64.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Poly(BTreeMap<Mono, i64>);

impl Poly {
    fn constant(c: i64) -> Poly {
        let mut p = Poly::default();
        p.add_term(Mono::default_const(), c);
        p
    }

    fn of(m: Mono) -> Poly {
        let mut p = Poly::default();
        p.add_term(m, 1);
        p
    }

    fn add_term(&mut self, m: Mono, c: i64) {
        let e = self.0.entry(m.clone()).or_insert(0);
        *e = e.wrapping_add(c);
        if *e == 0 {
            self.0.remove(&m);
        }
    }

    fn add(&mut self, other: &Poly, sign: i64) {
        for (m, c) in &other.0 {
            self.add_term(m.clone(), c.wrapping_mul(sign));
        }
    }

    fn scaled(&self, k: i64) -> Poly {
        let mut p = Poly::default();
        p.add(self, k);
        p
    }

    /// The product, when every monomial keeps at most one counter and `MAX_FACTORS` factors.
    fn mul(&self, other: &Poly) -> Option<Poly> {
        let mut p = Poly::default();
        for (a, ca) in &self.0 {
            for (b, cb) in &other.0 {
                if a.counter.is_some() && b.counter.is_some() {
                    return None;
                }
                let mut factors = [a.factors.as_slice(), b.factors.as_slice()].concat();
                if factors.len() > MAX_FACTORS {
                    return None;
                }
                factors.sort();
                let m = Mono {
                    counter: a.counter.or(b.counter),
                    factors,
                };
                p.add_term(m, ca.wrapping_mul(*cb));
            }
        }
        Some(p)
    }

    /// The terms with a counter, and the others.
    fn split(&self) -> (Poly, Poly) {
        let (mut var, mut inv) = (Poly::default(), Poly::default());
        for (m, c) in &self.0 {
            let part = if m.counter.is_some() {
                &mut var
            } else {
                &mut inv
            };
            part.add_term(m.clone(), *c);
        }
        (var, inv)
    }

    /// `t` with `self == t * delta` (delta non-zero).
    fn multiple_of(&self, delta: &Poly) -> Option<i64> {
        let (m, &dc) = delta.0.iter().next()?;
        let c = self.0.get(m).copied().unwrap_or(0);
        if c.checked_rem(dc)? != 0 {
            return None;
        }
        let t = c.checked_div(dc)?;
        (delta.scaled(t) == *self).then_some(t)
    }
}

impl Mono {
    fn default_const() -> Mono {
        Mono {
            counter: None,
            factors: Vec::new(),
        }
    }
}

/// What the pass knows of one loop.
struct LoopFacts<'a> {
    func: &'a Function,
    body: &'a FxHashSet<Block>,
    /// Counters: step per iteration, and whether an `i32` one may be sign-extended term by
    /// term (its increment is `nsw`; always true for `i64` and pointers).
    counters: FxHashMap<Value, (i64, bool)>,
    /// Value ranges: a truncated `i64` that fits `i32` reads as itself.
    ranges: &'a Ranges,
}

impl LoopFacts<'_> {
    fn inside(&self, v: Value) -> bool {
        let block = match self.func.dfg.value_def(v) {
            ValueDef::Result(i, _) => self.func.layout.inst_block(i),
            ValueDef::Param(b, _) => Some(b),
            ValueDef::Placeholder => None,
        };
        block.is_none_or(|b| self.body.contains(&b))
    }

    /// `v` (an `i64` offset, or under `sext` an `i32` value) as a polynomial.
    fn expand(&self, v: Value, sext: bool, depth: u32) -> Option<Poly> {
        if let Some(c) = iconst_value(self.func, v) {
            return Some(Poly::constant(c));
        }
        if let Some(&(_, widens)) = self.counters.get(&v) {
            return (!sext || widens).then(|| {
                Poly::of(Mono {
                    counter: Some(v),
                    factors: Vec::new(),
                })
            });
        }
        if !self.inside(v) {
            return Some(Poly::of(Mono {
                counter: None,
                factors: vec![(v, sext)],
            }));
        }
        let ValueDef::Result(inst, 0) = self.func.dfg.value_def(v) else {
            return None;
        };
        let depth = depth.checked_sub(1)?;
        match self.func.dfg.inst(inst) {
            InstData::Binary {
                opcode,
                args,
                flags,
            } => {
                if sext && !flags.nsw {
                    return None;
                }
                let a = self.expand(args[0], sext, depth)?;
                match opcode {
                    Opcode::Iadd | Opcode::Isub => {
                        let b = self.expand(args[1], sext, depth)?;
                        let mut s = a;
                        s.add(&b, if *opcode == Opcode::Iadd { 1 } else { -1 });
                        Some(s)
                    }
                    Opcode::Imul => a.mul(&self.expand(args[1], sext, depth)?),
                    Opcode::Shl => {
                        let k = iconst_value(self.func, args[1]).filter(|k| (0..63).contains(k))?;
                        Some(a.scaled(1i64 << k))
                    }
                    _ => None,
                }
            }
            InstData::Unary {
                opcode: Opcode::Sext,
                arg,
            } if !sext && self.func.dfg.value_type(*arg) == Type::I32 => {
                self.expand(*arg, true, depth)
            }
            InstData::Unary {
                opcode: Opcode::Trunc,
                arg,
            } if sext && self.fits_i32_at(*arg, inst) => self.expand(*arg, false, depth),
            _ => None,
        }
    }

    /// Whether the `i64` value `v`, as `inst` reads it, lies in `i32`'s range.
    fn fits_i32_at(&self, v: Value, inst: Inst) -> bool {
        self.func.dfg.value_type(v) == Type::I64
            && self
                .func
                .layout
                .inst_block(inst)
                .is_some_and(|b| self.ranges.range_at(self.func, v, b).fits_signed(32))
    }

    /// Root pointer and byte offset of `addr` (`None` when the offset is not a polynomial or
    /// the root varies in the loop other than as a counter).
    fn address(&self, addr: Value) -> Option<(Value, Poly)> {
        let mut v = addr;
        let mut off = Poly::default();
        for _ in 0..64 {
            let ValueDef::Result(inst, 0) = self.func.dfg.value_def(v) else {
                break;
            };
            match self.func.dfg.inst(inst) {
                InstData::Binary {
                    opcode: Opcode::PtrOffset,
                    args,
                    ..
                } => {
                    off.add(&self.expand(args[1], false, MAX_DEPTH)?, 1);
                    v = args[0];
                }
                InstData::Unary {
                    opcode: Opcode::Addrspacecast,
                    arg,
                } => v = *arg,
                _ => break,
            }
        }
        if self.counters.contains_key(&v) {
            off.add(
                &Poly::of(Mono {
                    counter: Some(v),
                    factors: Vec::new(),
                }),
                1,
            );
        } else if self.inside(v) {
            return None;
        }
        Some((v, off))
    }

    /// How far the counter terms `var` move per iteration.
    fn delta(&self, var: &Poly) -> Poly {
        let mut d = Poly::default();
        for (m, c) in &var.0 {
            let step = m
                .counter
                .and_then(|v| self.counters.get(&v))
                .map_or(0, |s| s.0);
            let inv = Mono {
                counter: None,
                factors: m.factors.clone(),
            };
            d.add_term(inv, c.wrapping_mul(step));
        }
        d
    }
}

/// A load of the loop the pass may cache.
struct Cand {
    inst: Inst,
    addr: Value,
    root: Value,
    var: Poly,
    inv: Poly,
    ty: Type,
    space: AddrSpace,
    flags: MemFlags,
    /// It runs on the first iteration only once the header's test holds.
    guarded: bool,
}

/// Why a load of the loop is not cached.
enum Missing {
    /// Its offset is not a polynomial in the loop's counters.
    NotAffine,
    /// It does not run on every iteration.
    Conditional,
    /// The loop has a call, atomic, barrier or fence.
    Clobber(Inst),
    /// A store of the loop may write it.
    Store(Inst),
}

/// Loads of one run: `at[m]` read what the leading load read `m` iterations before.
struct Run {
    at: Vec<Vec<usize>>,
}

/// Runs the pass with the -O2 knobs.
pub fn cache(func: &mut Function) -> bool {
    cache_with_remarks(func, &Knobs::default(), &mut Remarks::default())
}

/// `cache`, reporting what it kept in registers or hoisted (`-Rpass=cache`) and, for arrays
/// the loop reads at several places, why a load was not (`-Rpass-missed=cache`).
pub fn cache_with_remarks(func: &mut Function, knobs: &Knobs, remarks: &mut Remarks) -> bool {
    if !knobs.register_cache {
        return false;
    }
    let mut changed = false;
    let mut done: FxHashSet<Block> = FxHashSet::default();
    // One loop at a time, innermost first: a guard or a preheader changes the CFG.
    loop {
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(func, &cfg);
        let la = LoopAnalysis::compute(&cfg, &dt);
        let aa = AliasAnalysis::compute(func);
        let next = la
            .loops()
            .iter()
            .enumerate()
            .rev()
            .find(|(_, l)| !done.contains(&l.header));
        let Some((index, l)) = next else {
            break;
        };
        match cache_loop(func, (&cfg, &dt, &la, &aa), index, l, remarks) {
            Outcome::Retry => changed = true,
            Outcome::Done(c) => {
                done.insert(l.header);
                changed |= c;
            }
        }
    }
    // The address arithmetic of the loads that left the loop.
    if changed {
        crate::dce::dce(func);
    }
    changed
}

type Analyses<'a> = (
    &'a ControlFlowGraph,
    &'a DominatorTree,
    &'a LoopAnalysis,
    &'a AliasAnalysis,
);

/// What became of one loop.
enum Outcome {
    /// It got a preheader: analyze it again.
    Retry,
    /// Finished; whether anything changed.
    Done(bool),
}

/// Where the loads before the loop go.
struct Entry {
    /// The branch entering the header from outside (the preheader's jump).
    branch: Inst,
    /// The header's values as the loop starts (its parameters: the entry's arguments).
    subst: FxHashMap<Value, Value>,
    /// The header's test on those values, when some loads run only once it holds (a loop
    /// tested at its header).
    guard: Option<Value>,
}

fn cache_loop(
    func: &mut Function,
    (cfg, dt, la, aa): Analyses,
    index: usize,
    l: &Loop,
    remarks: &mut Remarks,
) -> Outcome {
    let scev = LoopScev::compute(func, cfg, l);
    let (Some(latch), Some(entry)) = (scev.latch, scev.entry_branch) else {
        return Outcome::Done(false);
    };
    let Some(back) = func.layout.last_inst(latch) else {
        return Outcome::Done(false);
    };
    let body: FxHashSet<Block> = l.blocks.iter().copied().collect();
    let mut subst: FxHashMap<Value, Value> = FxHashMap::default();
    for call in func.dfg.branch_destinations(entry) {
        if call.block == l.header {
            let args = func.dfg.block_call_args(call);
            let params = func.dfg.block_params(l.header);
            subst.extend(params.iter().copied().zip(args.iter().copied()));
        }
    }
    let guard = header_test(func, l, &body, &subst);
    let ranges = Ranges::compute(func);
    let (cands, runs) = {
        let facts = LoopFacts {
            func,
            body: &body,
            counters: counters(func, &ranges, l.header, back),
            ranges: &ranges,
        };
        let ctx = LoopCtx {
            analyses: (cfg, dt, la, aa),
            index,
            l,
            guarded: guard.is_some(),
        };
        let (mut cands, missed) = loop_loads(&facts, &ctx);
        cands.retain(|c| materializable(func, &body, &subst, c.addr, MAX_DEPTH));
        // Missed remarks once: a loop that gets a preheader first is analyzed again.
        let mut sink = Remarks::default();
        let quiet = l.preheader.is_none();
        let remarks_now = if quiet { &mut sink } else { &mut *remarks };
        let runs = runs(&facts, &cands, remarks_now);
        let idle = runs.is_empty() && cands.iter().all(|c| !c.var.0.is_empty());
        if (!quiet || idle) && remarks.wants_missed() {
            report_missed(func, aa, &cands, &missed, remarks);
            if quiet {
                runs_missed(&facts, &cands, remarks);
            }
        }
        (cands, runs)
    };
    let hoists: Vec<usize> = (0..cands.len())
        .filter(|&i| cands[i].var.0.is_empty())
        .collect();
    if hoists.is_empty() && runs.is_empty() {
        return Outcome::Done(false);
    }
    let Some(pre) = l.preheader else {
        let outside: Vec<Inst> = cfg
            .preds(l.header)
            .iter()
            .filter(|(p, _)| !body.contains(p))
            .map(|&(_, br)| br)
            .collect();
        make_preheader(func, l.header, &outside);
        return Outcome::Retry;
    };
    if func.layout.last_inst(pre) != Some(entry) {
        return Outcome::Done(false);
    }
    // Each first value with whether it may be loaded only behind the guard: not when a load
    // that reads it runs even if the loop does not (one in the header).
    let behind = |members: &[usize]| members.iter().all(|&i| cands[i].guarded);
    let firsts: Vec<(usize, bool)> = hoists
        .iter()
        .map(|&h| (h, cands[h].guarded))
        .chain(
            runs.iter()
                .flat_map(|r| r.at[1..].iter().map(|m| (m[0], behind(m)))),
        )
        .collect();
    let needs_guard = firsts.iter().any(|f| f.1);
    let mut entry = Entry {
        branch: entry,
        subst,
        guard: None,
    };
    if needs_guard {
        let Some((cond, stay_is_then)) = guard else {
            return Outcome::Done(false);
        };
        let c = materialize(func, &body, &mut entry.subst, cond, entry.branch);
        entry.guard = Some(if stay_is_then {
            c
        } else {
            let mut cur = FuncCursor::new(func);
            cur.goto_inst(entry.branch);
            let one = cur.ins().iconst(Type::I1, 1);
            cur.ins().xor(c, one)
        });
    }
    let loaded = load_before(func, &body, &mut entry, &cands, &firsts);
    let mut values = loaded.into_iter();
    for &h in &hoists {
        let Some(v) = values.next() else { break };
        let old = func
            .dfg
            .first_result(cands[h].inst)
            .expect("a load's result");
        remarks.emit(
            func.srcloc(cands[h].inst),
            "load of memory the loop never writes hoisted out of the loop",
        );
        func.replace_all_uses(old, v);
        func.layout.remove_inst(cands[h].inst);
    }
    for run in &runs {
        let carried_firsts: Vec<Value> = values.by_ref().take(run.at.len() - 1).collect();
        let loc = func.srcloc(cands[run.at[0][0]].inst);
        let loads: usize = run.at.iter().map(Vec::len).sum();
        let edges = (entry.branch, back, l.header);
        rotate_run(func, dt, &cands, run, &carried_firsts, edges);
        let what = if run.at.len() == 1 {
            format!(
                "{} of one element: loaded once",
                plural(loads, "load", "loads")
            )
        } else {
            format!(
                "{} of one array reuse values across iterations: loaded once per iteration, {} carried in registers",
                plural(loads, "load", "loads"),
                plural(run.at.len() - 1, "value", "values"),
            )
        };
        remarks.emit(loc, what);
    }
    Outcome::Done(true)
}

/// The header's exit test `(condition, whether the loop stays on its first target)`, when
/// the header leaves the loop by a `brif` and the condition can be computed before the loop.
fn header_test(
    func: &Function,
    l: &Loop,
    body: &FxHashSet<Block>,
    subst: &FxHashMap<Value, Value>,
) -> Option<(Value, bool)> {
    let term = func.layout.last_inst(l.header)?;
    let InstData::Brif { arg, blocks } = func.dfg.inst(term) else {
        return None;
    };
    let (t, e) = (
        body.contains(&blocks[0].block),
        body.contains(&blocks[1].block),
    );
    (t != e && materializable(func, body, subst, *arg, MAX_DEPTH)).then_some((*arg, t))
}

/// Loads `cands[firsts[..].0]` as on the loop's first iteration, before `entry.branch`; with
/// a guard, those marked (`.1`) behind it, in a block of their own whose values reach the
/// header through a join (zero when the loop does not run: then nothing reads them), and
/// `entry.branch` moves to the end of the join. Returns their values in order.
fn load_before(
    func: &mut Function,
    body: &FxHashSet<Block>,
    entry: &mut Entry,
    cands: &[Cand],
    firsts: &[(usize, bool)],
) -> Vec<Value> {
    let addrs: Vec<Value> = firsts
        .iter()
        .map(|&(i, _)| materialize(func, body, &mut entry.subst, cands[i].addr, entry.branch))
        .collect();
    let guard = entry.guard;
    let mut out: Vec<Option<Value>> = firsts
        .iter()
        .zip(&addrs)
        .map(|(&(i, behind), &a)| {
            (guard.is_none() || !behind).then(|| emit_load(func, &cands[i], a, entry.branch))
        })
        .collect();
    let Some(guard) = guard else {
        return out.into_iter().flatten().collect();
    };
    // pre: .. brif guard, loads, join(zeros)   loads: ..; jump join(values)
    // join(params): the old jump to the header
    let pre = func
        .layout
        .inst_block(entry.branch)
        .expect("the entry branch is placed");
    let (loads, join) = (func.dfg.make_block(), func.dfg.make_block());
    let after = func.layout.next_block(pre).expect("the header follows");
    func.layout.insert_block_before(loads, after);
    func.layout.insert_block_before(join, after);
    func.layout.remove_inst(entry.branch);
    func.layout.append_inst(entry.branch, join);
    let mut cur = FuncCursor::new(func);
    cur.goto_bottom(loads);
    let jump_in = cur.ins().jump(join, &[]);
    let (mut values, mut zeros) = (Vec::new(), Vec::new());
    for (k, &(i, _)) in firsts.iter().enumerate() {
        if out[k].is_some() {
            continue;
        }
        let c = &cands[i];
        values.push(emit_load(func, c, addrs[k], jump_in));
        let mut cur = FuncCursor::new(func);
        cur.goto_bottom(pre);
        zeros.push(if c.ty.is_float() {
            cur.ins().fconst(c.ty, 0.0)
        } else {
            cur.ins().iconst(c.ty, 0)
        });
        out[k] = Some(func.dfg.append_block_param(join, c.ty));
    }
    let mut cur = FuncCursor::new(func);
    cur.goto_bottom(pre);
    cur.ins().brif(guard, loads, &[], join, &zeros);
    let (calls, pool) = func.dfg.branch_destinations_and_pool(jump_in);
    for &v in &values {
        calls[0].args.push(v, pool);
    }
    out.into_iter().flatten().collect()
}

/// A copy of load `c` at address `addr`, before `before`.
fn emit_load(func: &mut Function, c: &Cand, addr: Value, before: Inst) -> Value {
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(before);
    cur.set_srcloc(cur.func.srcloc(c.inst));
    cur.ins().load(c.ty, c.space, c.flags, addr)
}

/// The loop a candidate search runs over.
struct LoopCtx<'a> {
    analyses: Analyses<'a>,
    index: usize,
    l: &'a Loop,
    /// The header's test can be computed before the loop (loads right after it qualify).
    guarded: bool,
}

/// The non-volatile loads of integer or floating-point type whose innermost loop is the
/// context's: those the pass may cache, and the others with the fact that is missing.
fn loop_loads(facts: &LoopFacts, ctx: &LoopCtx) -> (Vec<Cand>, Vec<(Inst, Missing)>) {
    let func = facts.func;
    let (cfg, dt, la, aa) = ctx.analyses;
    let l = ctx.l;
    let stores = loop_stores(func, l);
    let leaving = leaving_blocks(func, cfg, l);
    let mut cands = Vec::new();
    let mut missed = Vec::new();
    for &b in l
        .blocks
        .iter()
        .filter(|&&b| la.innermost_loop(b) == Some(ctx.index))
    {
        for inst in func.layout.block_insts(b) {
            let InstData::Load { space, flags, arg } = *func.dfg.inst(inst) else {
                continue;
            };
            let Some(result) = func.dfg.first_result(inst) else {
                continue;
            };
            let ty = func.dfg.value_type(result);
            if flags.volatile || !(ty.is_int() || ty.is_float()) {
                continue;
            }
            let runs = runs_first(dt, l, &leaving, b, ctx.guarded);
            let blocker = missing_fact(func, aa, &stores, inst).or(match runs {
                None => Some(Missing::Conditional),
                Some(_) => None,
            });
            match (blocker, facts.address(arg)) {
                (None, Some((root, off))) => {
                    let (var, inv) = off.split();
                    cands.push(Cand {
                        inst,
                        addr: arg,
                        root,
                        var,
                        inv,
                        ty,
                        space,
                        flags,
                        guarded: runs == Some(true),
                    });
                }
                (Some(why), _) => missed.push((inst, why)),
                (None, None) => missed.push((inst, Missing::NotAffine)),
            }
        }
    }
    (cands, missed)
}

/// Whether block `b` runs on every iteration of `l`, the first included: `Some(false)` when
/// it dominates every latch and every block leaving the loop; `Some(true)` when it does so
/// but for the header (tested at the top; `guarded`: its test can be computed before the
/// loop), so it runs on the first iteration once that test holds; else `None`.
fn runs_first(
    dt: &DominatorTree,
    l: &Loop,
    leaving: &[Block],
    b: Block,
    guarded: bool,
) -> Option<bool> {
    if !l.latches.iter().all(|&x| dt.dominates(b, x)) {
        return None;
    }
    if leaving.iter().all(|&x| dt.dominates(b, x)) {
        return Some(false);
    }
    let mut others = leaving.iter().filter(|&&x| x != l.header);
    (guarded && others.all(|&x| dt.dominates(b, x))).then_some(true)
}

/// The header parameters that come back from `back` (the latch's branch) as themselves plus
/// a constant, through a chain of constant additions (an unrolled body steps once per copy):
/// each with its step and whether it may be sign-extended term by term (not an `i32`, every
/// addition of the chain `nsw`, or value ranges keep `p + step` inside `i32`).
fn counters(
    func: &Function,
    ranges: &Ranges,
    header: Block,
    back: Inst,
) -> FxHashMap<Value, (i64, bool)> {
    let mut out = FxHashMap::default();
    let params = func.dfg.block_params(header);
    for call in func.dfg.branch_destinations(back) {
        if call.block != header {
            continue;
        }
        for (&p, &next) in params.iter().zip(func.dfg.block_call_args(call)) {
            if let Some((step, nsw)) = step_chain(func, p, next) {
                let r = ranges.get(func, p);
                let stays = r.within(
                    i128::from(i32::MIN) - i128::from(step.min(0)),
                    i128::from(i32::MAX) - i128::from(step.max(0)),
                );
                let widens = nsw || stays || func.dfg.value_type(p) != Type::I32;
                out.insert(p, (step, widens));
            }
        }
    }
    out
}

/// `(k, every step nsw)` when `v` is `p + k` by at most `MAX_DEPTH` constant additions, `k`
/// non-zero.
fn step_chain(func: &Function, p: Value, mut v: Value) -> Option<(i64, bool)> {
    let (mut step, mut nsw) = (0i64, true);
    for _ in 0..MAX_DEPTH {
        if v == p {
            return (step != 0).then_some((step, nsw));
        }
        let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
            return None;
        };
        let data = func.dfg.inst(inst);
        let InstData::Binary { opcode, args, .. } = data else {
            return None;
        };
        let (next, k) = match (
            opcode,
            iconst_value(func, args[0]),
            iconst_value(func, args[1]),
        ) {
            (Opcode::Iadd | Opcode::PtrOffset, _, Some(k)) => (args[0], k),
            (Opcode::Iadd, Some(k), None) => (args[1], k),
            (Opcode::Isub, _, Some(k)) => (args[0], k.checked_neg()?),
            _ => return None,
        };
        nsw &= *opcode == Opcode::PtrOffset || data.is_nsw();
        step = step.checked_add(k)?;
        v = next;
    }
    None
}

/// What keeps load `inst` from being cached, apart from its address and where it runs.
fn missing_fact(
    func: &Function,
    aa: &AliasAnalysis,
    stores: &Stores,
    inst: Inst,
) -> Option<Missing> {
    let access = AliasAnalysis::access_of(func, inst)?;
    let stores = match stores {
        Err(clobber) => return Some(Missing::Clobber(*clobber)),
        Ok(s) => s,
    };
    stores
        .iter()
        .find(|(_, a)| !aa.never_overlap(func, &access, a))
        .map(|(st, _)| Missing::Store(*st))
}

/// Loads that may share values: root, counter terms and type.
type FamilyKey<'a> = (Value, &'a Poly, Type);

/// The runs of loads at consecutive whole-iteration distances, per root, counter terms and
/// type; a remark for loads of one root and counter terms that found no partner.
fn runs(facts: &LoopFacts, cands: &[Cand], remarks: &mut Remarks) -> Vec<Run> {
    // Families in the order of their first load, so the output does not depend on hashing.
    let mut families: Vec<(FamilyKey, Vec<usize>)> = Vec::new();
    for (i, c) in cands.iter().enumerate() {
        if c.var.0.is_empty() {
            continue;
        }
        let key = (c.root, &c.var, c.ty);
        match families.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => families.push((key, vec![i])),
        }
    }
    let mut out = Vec::new();
    for (_, members) in &families {
        let delta = facts.delta(&cands[members[0]].var);
        if delta.0.is_empty() {
            continue;
        }
        // Classes of loads whose offsets differ by whole iterations: (reference, [(t, load)]).
        let mut classes: Vec<(usize, Vec<(i64, usize)>)> = Vec::new();
        for &m in members {
            let found = classes.iter_mut().find_map(|(r, list)| {
                let mut d = cands[m].inv.clone();
                d.add(&cands[*r].inv, -1);
                d.multiple_of(&delta).map(|t| (t, list))
            });
            match found {
                Some((t, list)) => list.push((t, m)),
                None => classes.push((m, vec![(0, m)])),
            }
        }
        let before = out.len();
        for (_, list) in &mut classes {
            list.sort_by_key(|&(t, _)| std::cmp::Reverse(t));
            out.extend(consecutive(list));
        }
        if out.len() == before && classes.len() > 1 {
            for &m in members {
                remarks.emit_missed(
                    facts.func.srcloc(cands[m].inst),
                    "not kept in a register: the other loads of this array in the loop are not a whole number of iterations away (an offset that is not a constant multiple of the loop's step)",
                );
            }
        }
    }
    out
}

/// Splits loads sorted by decreasing `t` into runs of consecutive distances, each at most
/// `MAX_DISTANCE` long, that reuse a value (two distances, or two loads of one element).
fn consecutive(list: &[(i64, usize)]) -> Vec<Run> {
    let mut out = Vec::new();
    let mut cur: Option<(i64, Run)> = None;
    for &(t, m) in list {
        if let Some((lead, run)) = &mut cur {
            let pos = lead.wrapping_sub(t);
            if pos >= 0 && (pos as usize) < run.at.len() {
                run.at[pos as usize].push(m);
                continue;
            }
            if pos as usize == run.at.len() && run.at.len() <= MAX_DISTANCE {
                run.at.push(vec![m]);
                continue;
            }
        }
        out.extend(cur.take().map(|(_, run)| run).filter(Run::reuses));
        cur = Some((t, Run { at: vec![vec![m]] }));
    }
    out.extend(cur.map(|(_, run)| run).filter(Run::reuses));
    out
}

/// The remarks of `runs`, for a loop with nothing to do.
fn runs_missed(facts: &LoopFacts, cands: &[Cand], remarks: &mut Remarks) {
    runs(facts, cands, remarks);
}

impl Run {
    /// Whether a load of the run reads what another one does (now or iterations before).
    fn reuses(&self) -> bool {
        self.at.len() > 1 || self.at[0].len() > 1
    }
}

fn report_missed(
    func: &Function,
    aa: &AliasAnalysis,
    cands: &[Cand],
    missed: &[(Inst, Missing)],
    remarks: &mut Remarks,
) {
    let root_of = |inst: Inst| {
        let InstData::Load { arg, .. } = *func.dfg.inst(inst) else {
            return None;
        };
        Some(aa.decompose(func, arg).root)
    };
    let roots: Vec<Option<Value>> = cands
        .iter()
        .map(|c| root_of(c.inst))
        .chain(missed.iter().map(|(i, _)| root_of(*i)))
        .collect();
    for (inst, why) in missed {
        let root = root_of(*inst);
        if roots.iter().filter(|r| **r == root).count() < 2 {
            continue;
        }
        let why = match why {
            Missing::NotAffine => {
                "its offset is not an affine function of the loop's counter (unknown stride)"
                    .to_string()
            }
            Missing::Conditional => "it does not run on every iteration".to_string(),
            Missing::Clobber(c) => format!(
                "the loop has a {}{}",
                func.dfg.inst(*c).opcode().name(),
                line_of(func, *c)
            ),
            Missing::Store(st) => {
                let same = AliasAnalysis::access_of(func, *st)
                    .is_some_and(|a| Some(aa.decompose(func, a.addr).root) == root);
                if same {
                    format!(
                        "the array is written in the loop (the store{})",
                        line_of(func, *st)
                    )
                } else {
                    format!(
                        "the store{} may write the same memory through another pointer (no proof that they point to distinct objects)",
                        line_of(func, *st)
                    )
                }
            }
        };
        remarks.emit_missed(func.srcloc(*inst), format!("not kept in a register: {why}"));
    }
}

/// ` at line N` for an instruction with a known location, else nothing.
fn line_of(func: &Function, inst: Inst) -> String {
    let loc = func.srcloc(inst);
    if loc.is_unknown() {
        String::new()
    } else {
        format!(" at line {}", loc.line)
    }
}

/// Whether `v` can be computed at the end of the preheader with each counter at its start
/// value (`subst`): pure, non-trapping instructions of the loop over such values.
fn materializable(
    func: &Function,
    body: &FxHashSet<Block>,
    subst: &FxHashMap<Value, Value>,
    v: Value,
    depth: u32,
) -> bool {
    if subst.contains_key(&v) {
        return true;
    }
    match func.dfg.value_def(v) {
        ValueDef::Param(b, _) => !body.contains(&b),
        ValueDef::Placeholder => false,
        ValueDef::Result(inst, _) => {
            if !func
                .layout
                .inst_block(inst)
                .is_some_and(|b| body.contains(&b))
            {
                return true;
            }
            let data = func.dfg.inst(inst);
            let op = data.opcode();
            let pure = !op.has_side_effects()
                && !op.reads_memory()
                && !op.can_trap()
                && func.dfg.inst_results(inst).len() == 1
                && match data {
                    InstData::Special { reg } => !reg.is_volatile(),
                    InstData::Nullary { .. } => false,
                    _ => true,
                };
            pure && depth > 0
                && func
                    .dfg
                    .inst_args(inst)
                    .iter()
                    .all(|&a| materializable(func, body, subst, a, depth - 1))
        }
    }
}

/// Computes `v` before `before` (the preheader's jump), copying the loop's instructions it
/// needs with the counters at their start values; `materializable` must hold.
fn materialize(
    func: &mut Function,
    body: &FxHashSet<Block>,
    subst: &mut FxHashMap<Value, Value>,
    v: Value,
    before: Inst,
) -> Value {
    if let Some(&s) = subst.get(&v) {
        return s;
    }
    let ValueDef::Result(inst, _) = func.dfg.value_def(v) else {
        return v;
    };
    if !func
        .layout
        .inst_block(inst)
        .is_some_and(|b| body.contains(&b))
    {
        return v;
    }
    let mut map = Remap::default();
    for a in func.dfg.inst_args(inst).to_vec() {
        let m = materialize(func, body, subst, a, before);
        map.values.insert(a, m);
    }
    let copy = InstCopy::read(func, inst);
    let new = copy.write(func, &mut map);
    func.layout.insert_inst_before(new, before);
    func.set_srcloc(new, func.srcloc(inst));
    let out = map.value(v);
    // Later addresses share what this one computed.
    subst.insert(v, out);
    out
}

/// Loads the run's leader once per iteration and carries its value in new header parameters
/// for the loads that read it later; `firsts` are their values on the first iteration, passed
/// by `entry` (the branch into the header); `back` is the latch's branch to `header`.
fn rotate_run(
    func: &mut Function,
    dt: &DominatorTree,
    cands: &[Cand],
    run: &Run,
    firsts: &[Value],
    (entry, back, header): (Inst, Inst, Block),
) {
    let lead = leader(func, dt, cands, &run.at[0]);
    let lead_value = func
        .dfg
        .first_result(cands[lead].inst)
        .expect("a load's result");
    let ty = cands[lead].ty;
    let carried: Vec<Value> = firsts
        .iter()
        .map(|_| func.dfg.append_block_param(header, ty))
        .collect();
    let mut next = vec![lead_value];
    next.extend_from_slice(&carried[..carried.len().saturating_sub(1)]);
    next.truncate(carried.len());
    for (br, args) in [(entry, firsts), (back, next.as_slice())] {
        let (calls, pool) = func.dfg.branch_destinations_and_pool(br);
        for call in calls.iter_mut().filter(|c| c.block == header) {
            for &a in args {
                call.args.push(a, pool);
            }
        }
    }
    for (pos, members) in run.at.iter().enumerate() {
        for &m in members {
            let dominated = inst_dominates(func, dt, cands[lead].inst, cands[m].inst);
            if m == lead || (pos == 0 && !dominated) {
                continue;
            }
            let old = func
                .dfg
                .first_result(cands[m].inst)
                .expect("a load's result");
            let new = if pos == 0 {
                lead_value
            } else {
                carried[pos - 1]
            };
            func.replace_all_uses(old, new);
            func.layout.remove_inst(cands[m].inst);
        }
    }
}

/// The load of `members` (all at distance 0) that runs first: it dominates the others, since
/// each runs on every iteration.
fn leader(func: &Function, dt: &DominatorTree, cands: &[Cand], members: &[usize]) -> usize {
    members
        .iter()
        .copied()
        .find(|&a| {
            members
                .iter()
                .all(|&b| inst_dominates(func, dt, cands[a].inst, cands[b].inst))
        })
        .unwrap_or(members[0])
}

/// Whether `a` runs before `b` on every path to `b` (or is `b`).
fn inst_dominates(func: &Function, dt: &DominatorTree, a: Inst, b: Inst) -> bool {
    let (Some(ba), Some(bb)) = (func.layout.inst_block(a), func.layout.inst_block(b)) else {
        return false;
    };
    if ba != bb {
        return dt.dominates(ba, bb);
    }
    func.layout
        .block_insts(ba)
        .find(|&i| i == a || i == b)
        .is_some_and(|i| i == a)
}
