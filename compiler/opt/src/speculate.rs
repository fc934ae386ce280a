//! speculate: executes the cheap instructions of small conditional blocks unconditionally and
//! turns the join's block parameters into `select`s, removing the branch (and with it warp
//! divergence and the branch instructions).
//!
//! Shapes, for a block `A` ending in `brif c, X(..), Y(..)`:
//! - triangle: `X` jumps to `Y` (or `Y` to `X`); the conditional side runs, the other edge
//!   goes straight to the join;
//! - diamond: `X` and `Y` both jump to the same join `J`;
//! - a `brif` whose two targets are the same block with different arguments (what the
//!   other two shapes leave behind once their arms are empty).
//!
//! A conditional side is speculated only when `A` is its only predecessor (one edge), it has
//! no parameters, and it holds at most `MAX_SPECULATED` instructions besides its jump, each
//! pure, unable to trap and not reading memory (no loads, calls, atomics, divisions, volatile
//! special registers). Its instructions move before `A`'s branch; the branch becomes a jump to
//! the join passing `select c, then_value, else_value` for each parameter (the value itself
//! when both sides agree). The emptied sides leave the layout.

use crate::remarks::{Remarks, plural};
use ompcc_ir::analysis::ControlFlowGraph;
use ompcc_ir::{Block, FuncCursor, Function, Inst, InstData, Opcode, Value};

/// Most instructions a speculated block may hold (besides its jump).
pub const MAX_SPECULATED: usize = 4;

/// Runs the pass; returns whether anything changed.
pub fn speculate(func: &mut Function) -> bool {
    speculate_with_remarks(func, &mut Remarks::default())
}

fn cheap(func: &Function, inst: Inst) -> bool {
    let data = func.dfg.inst(inst);
    let op = data.opcode();
    if op.has_side_effects() || op.reads_memory() || op.can_trap() {
        return false;
    }
    match data {
        InstData::Nullary { .. } => false,
        InstData::Special { reg } => !reg.is_volatile(),
        _ => func.dfg.inst_results(inst).len() == 1,
    }
}

/// When `x` (a successor of `a`) can be speculated: its jump's target and arguments.
fn side(
    func: &Function,
    cfg: &ControlFlowGraph,
    a: Block,
    x: Block,
) -> Option<(Block, Vec<Value>)> {
    if cfg.preds(x).len() != 1 || cfg.preds(x)[0].0 != a || !func.dfg.block_params(x).is_empty() {
        return None;
    }
    let term = func.layout.last_inst(x)?;
    let InstData::Jump { dest } = func.dfg.inst(term) else {
        return None;
    };
    let body: Vec<Inst> = func.layout.block_insts(x).filter(|&i| i != term).collect();
    if body.len() > MAX_SPECULATED || !body.iter().all(|&i| cheap(func, i)) {
        return None;
    }
    Some((dest.block, func.dfg.block_call_args(dest).to_vec()))
}

/// `speculate`, reporting the number of branches removed.
pub fn speculate_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let mut removed = 0;
    loop {
        let cfg = ControlFlowGraph::compute(func);
        let mut done = false;
        let blocks: Vec<Block> = func.layout.blocks().collect();
        for a in blocks {
            if try_block(func, &cfg, a) {
                removed += 1;
                done = true;
                break;
            }
        }
        if !done {
            break;
        }
    }
    if removed > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "replaced {} by selects",
                plural(removed, "conditional branch", "conditional branches")
            ),
        );
    }
    removed > 0
}

fn try_block(func: &mut Function, cfg: &ControlFlowGraph, a: Block) -> bool {
    let Some(term) = func.layout.last_inst(a) else {
        return false;
    };
    let InstData::Brif { arg: c, blocks } = func.dfg.inst(term) else {
        return false;
    };
    let c = *c;
    let (x, y) = (blocks[0].block, blocks[1].block);
    let (xargs, yargs) = (
        func.dfg.block_call_args(&blocks[0]).to_vec(),
        func.dfg.block_call_args(&blocks[1]).to_vec(),
    );
    if x == y {
        // `brif c, B(t..), B(e..)`: one jump passing selects.
        if xargs.len() != yargs.len() || x == a {
            return false;
        }
        let loc = func.srcloc(term);
        let mut cur = FuncCursor::new(func);
        cur.goto_inst(term);
        cur.set_srcloc(loc);
        let args: Vec<Value> = xargs
            .iter()
            .zip(&yargs)
            .map(|(&t, &e)| if t == e { t } else { cur.ins().select(c, t, e) })
            .collect();
        let dest = cur.func.dfg.block_call(x, &args);
        *cur.func.dfg.inst_mut(term) = InstData::Jump { dest };
        return true;
    }
    if x == a || y == a {
        return false;
    }
    let sx = side(func, cfg, a, x);
    let sy = side(func, cfg, a, y);
    // (join, then-values, else-values, blocks to hoist)
    let (join, tv, ev, hoist) = match (sx, sy) {
        (Some((jx, ax)), Some((jy, ay))) if jx == jy => (jx, ax, ay, vec![x, y]),
        (Some((jx, ax)), _) if jx == y => (y, ax, yargs, vec![x]),
        (_, Some((jy, ay))) if jy == x => (x, xargs, ay, vec![y]),
        _ => return false,
    };
    if join == a || hoist.contains(&join) || tv.len() != ev.len() {
        return false;
    }
    for &h in &hoist {
        let insts: Vec<Inst> = func.layout.block_insts(h).collect();
        for i in insts {
            func.layout.remove_inst(i);
            if func.dfg.inst(i).opcode() != Opcode::Jump {
                func.layout.insert_inst_before(i, term);
            }
        }
        func.layout.remove_block(h);
    }
    let loc = func.srcloc(term);
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(term);
    cur.set_srcloc(loc);
    let args: Vec<Value> = tv
        .iter()
        .zip(&ev)
        .map(|(&t, &e)| if t == e { t } else { cur.ins().select(c, t, e) })
        .collect();
    let dest = cur.func.dfg.block_call(join, &args);
    *cur.func.dfg.inst_mut(term) = InstData::Jump { dest };
    true
}
