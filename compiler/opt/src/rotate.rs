//! rotate: kernel loops as guarded do-while loops, with what only the loop uses computed
//! after the guard.
//!
//! Lowering writes loops with the exit test at the header (`head(k): if !(k < n) exit; body;
//! jump head(k + g)`), and the passes before this one rely on that shape (range analysis
//! bounds `k` by the header's test). ptxas keeps the global-memory descriptor in uniform
//! registers across a loop only when the loop is a guarded do-while and the values only the
//! loop needs (the grid stride) are computed after the guard; otherwise it moves the
//! descriptor with `R2UR` on every iteration (issue 17). So, last in the pipeline, for each
//! loop of a kernel with
//! - a preheader `P` ending in `jump H(a)` and one latch `L` ending in `jump H(b)`,
//! - a header `H` of at most 8 instructions that neither touch memory nor trap, ending in
//!   `brif c, B, X` (no arguments) with `B` in the loop and entered only from `H`, and `X`
//!   outside,
//! - no value of `H` used outside the loop,
//!
//! the pass copies `H`'s instructions to the end of `P` (over `a`) and of `L` (over `b`), each
//! copy ending in `brif` to the body or the exit, gives `B` `H`'s parameters and computes
//! `H`'s other values again at its top, drops the copies nothing uses, and deletes `H`. `P`'s `brif` enters the body through a new block `S`, into which the
//! instructions of `P` whose results only the loop uses are moved (and that neither touch
//! memory nor trap). A loop hint moves from `H` to `B`.

use crate::remarks::Remarks;
use crate::util::{InstCopy, Remap};
use ompcc_ir::analysis::{ControlFlowGraph, DefUse, DominatorTree, LoopAnalysis};
use ompcc_ir::{Block, FuncCursor, FuncKind, Function, Inst, InstData, Value};
use rustc_hash::FxHashSet;

/// Header instructions copied at most.
const MAX_HEADER: usize = 8;

/// Runs the pass; returns whether a loop was rotated.
pub fn rotate(func: &mut Function) -> bool {
    rotate_with_remarks(func, &mut Remarks::default())
}

/// `rotate`, reporting each rotated loop (`-Rpass=rotate`).
pub fn rotate_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    if func.kind != FuncKind::Kernel {
        return false;
    }
    let mut changed = false;
    let mut done: FxHashSet<Block> = FxHashSet::default();
    // one loop at a time: each rotation changes the CFG
    loop {
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(func, &cfg);
        let la = LoopAnalysis::compute(&cfg, &dt);
        let next = la
            .loops()
            .iter()
            .filter(|l| !done.contains(&l.header))
            .find_map(|l| candidate(func, &cfg, l).map(|c| (l.header, c)));
        let Some((header, c)) = next else {
            return changed;
        };
        done.insert(header);
        done.insert(c.body);
        if remarks.wants() {
            let loc = func
                .layout
                .first_inst(c.body)
                .map(|i| func.srcloc(i))
                .unwrap_or_default();
            remarks.emit(
                loc,
                "loop rotated: a guarded do-while loop, its invariants after the guard",
            );
        }
        apply(func, c);
        changed = true;
    }
}

/// A loop the pass rotates.
struct Rotation {
    pre: Block,
    header: Block,
    latch: Block,
    body: Block,
    /// The body is the `brif`'s first destination.
    body_first: bool,
    exit: Block,
    blocks: FxHashSet<Block>,
}

fn pure(func: &Function, inst: Inst) -> bool {
    let data = func.dfg.inst(inst);
    let op = data.opcode();
    if op.has_side_effects() || op.reads_memory() || op.can_trap() || op.is_terminator() {
        return false;
    }
    match data {
        InstData::Special { reg } => !reg.is_volatile(),
        InstData::Nullary { .. } => false,
        _ => true,
    }
}

fn candidate(
    func: &Function,
    cfg: &ControlFlowGraph,
    l: &ompcc_ir::analysis::Loop,
) -> Option<Rotation> {
    let pre = l.preheader?;
    let [latch] = l.latches[..] else {
        return None;
    };
    let header = l.header;
    let jumps_to_header = |b: Block| {
        let t = func.layout.last_inst(b)?;
        match func.dfg.inst(t) {
            InstData::Jump { dest } if dest.block == header => Some(()),
            _ => None,
        }
    };
    jumps_to_header(pre)?;
    jumps_to_header(latch)?;
    if latch == header {
        return None;
    }
    let term = func.layout.last_inst(header)?;
    let InstData::Brif { blocks, .. } = func.dfg.inst(term) else {
        return None;
    };
    if !func.dfg.block_call_args(&blocks[0]).is_empty()
        || !func.dfg.block_call_args(&blocks[1]).is_empty()
    {
        return None;
    }
    let (t, e) = (blocks[0].block, blocks[1].block);
    let inside: FxHashSet<Block> = l.blocks.iter().copied().collect();
    let (body, exit, body_first) = match (inside.contains(&t), inside.contains(&e)) {
        (true, false) => (t, e, true),
        (false, true) => (e, t, false),
        _ => return None,
    };
    if body == header
        || cfg.preds(body).len() != 1
        || !func.dfg.block_params(body).is_empty()
        || !func.dfg.block_params(exit).is_empty()
    {
        return None;
    }
    let insts: Vec<Inst> = func.layout.block_insts(header).collect();
    if insts.len() > MAX_HEADER + 1 || !insts[..insts.len() - 1].iter().all(|&i| pure(func, i)) {
        return None;
    }
    // no value of the header is used outside the loop
    let mut values: Vec<Value> = func.dfg.block_params(header).to_vec();
    for &i in &insts {
        values.extend(func.dfg.inst_results(i));
    }
    let values: FxHashSet<Value> = values.into_iter().collect();
    for b in func.layout.blocks() {
        if inside.contains(&b) {
            continue;
        }
        for i in func.layout.block_insts(b) {
            if func.dfg.inst_uses(i).iter().any(|v| values.contains(v)) {
                return None;
            }
        }
    }
    Some(Rotation {
        pre,
        header,
        latch,
        body,
        body_first,
        exit,
        blocks: inside,
    })
}

fn apply(func: &mut Function, r: Rotation) {
    let header_insts: Vec<Inst> = func.layout.block_insts(r.header).collect();
    let (term, copies) = header_insts
        .split_last()
        .expect("a header has a terminator");
    let copies: Vec<InstCopy> = copies.iter().map(|&i| InstCopy::read(func, i)).collect();
    let InstData::Brif { arg: cond, .. } = *func.dfg.inst(*term) else {
        return;
    };
    // The header's parameters become the body's; its instructions are computed again at the
    // top of the body (so `sext(k) * 4` stays one `mul.wide` there), in the guard and in the
    // latch (for the test), and what a copy does not need is dropped.
    let params: Vec<Value> = func.dfg.block_params(r.header).to_vec();
    let mut new_params = Vec::with_capacity(params.len());
    for &p in &params {
        let ty = func.dfg.value_type(p);
        new_params.push(func.dfg.append_block_param(r.body, ty));
    }
    let mut top = Remap::default();
    for (&p, &q) in params.iter().zip(&new_params) {
        top.values.insert(p, q);
    }
    let first = func.layout.first_inst(r.body);
    let mut made = Vec::new();
    for c in &copies {
        let ni = c.write(func, &mut top);
        match first {
            Some(f) => func.layout.insert_inst_before(ni, f),
            None => func.layout.append_inst(ni, r.body),
        }
        made.push(ni);
    }
    for (&p, &q) in params.iter().zip(&new_params) {
        func.replace_all_uses(p, q);
    }
    for c in &copies {
        for &old in &c.results {
            let new = top.value(old);
            func.replace_all_uses(old, new);
        }
    }
    // (that reached the header too, whose copies were read before); then the guard, entering
    // the body through `sink`, and the latch's test
    let sink = func.dfg.make_block();
    func.layout.insert_block_before(sink, r.body);
    for (from, via) in [(r.pre, Some(sink)), (r.latch, None)] {
        let Some(jump) = func.layout.last_inst(from) else {
            continue;
        };
        let InstData::Jump { dest } = func.dfg.inst(jump).clone() else {
            continue;
        };
        let args: Vec<Value> = func.dfg.block_call_args(&dest).to_vec();
        func.layout.remove_inst(jump);
        let mut map = Remap::default();
        for (&p, &a) in params.iter().zip(&args) {
            map.values.insert(p, a);
        }
        for c in &copies {
            let ni = c.write(func, &mut map);
            func.layout.append_inst(ni, from);
            made.push(ni);
        }
        let c = map.value(cond);
        let mut cur = FuncCursor::new(func);
        cur.goto_bottom(from);
        let (into, into_args) = match via {
            Some(s) => (s, Vec::new()),
            None => (r.body, args.clone()),
        };
        if r.body_first {
            cur.ins().brif(c, into, &into_args, r.exit, &[]);
        } else {
            cur.ins().brif(c, r.exit, &[], into, &into_args);
        }
        if via.is_some() {
            cur.goto_bottom(sink);
            cur.ins().jump(r.body, &args);
        }
    }
    for i in header_insts {
        func.layout.remove_inst(i);
    }
    func.layout.remove_block(r.header);
    if let Some(h) = func.loop_hints[r.header].take() {
        func.loop_hints[r.body] = Some(h);
    }
    drop_unused(func, made);
    sink_into(func, r.pre, sink, &r.blocks);
}

/// Removes the instructions of `made` whose results nothing uses, until none is left.
fn drop_unused(func: &mut Function, mut made: Vec<Inst>) {
    loop {
        let du = DefUse::compute(func);
        let before = made.len();
        made.retain(|&i| {
            let dead = func
                .dfg
                .inst_results(i)
                .iter()
                .all(|&v| du.num_uses(v) == 0);
            if dead {
                func.layout.remove_inst(i);
            }
            !dead
        });
        if made.len() == before {
            return;
        }
    }
}

/// Moves the instructions of `pre` that neither touch memory nor trap and whose results only
/// the loop (`blocks`, and `sink` itself) uses into `sink`, in their order.
fn sink_into(func: &mut Function, pre: Block, sink: Block, blocks: &FxHashSet<Block>) {
    let du = DefUse::compute(func);
    let insts: Vec<Inst> = func.layout.block_insts(pre).collect();
    let mut moved: FxHashSet<Inst> = FxHashSet::default();
    let mut order = Vec::new();
    for &i in insts.iter().rev() {
        if !pure(func, i) {
            continue;
        }
        let only_loop = func.dfg.inst_results(i).iter().all(|&v| {
            du.users(v).iter().all(|&u| {
                moved.contains(&u)
                    || func
                        .layout
                        .inst_block(u)
                        .is_some_and(|b| b == sink || blocks.contains(&b))
            })
        });
        if only_loop && !func.dfg.inst_results(i).is_empty() {
            moved.insert(i);
            order.push(i);
        }
    }
    let Some(first) = func.layout.first_inst(sink) else {
        return;
    };
    for &i in order.iter().rev() {
        func.layout.remove_inst(i);
        func.layout.insert_inst_before(i, first);
    }
}
