//! simplifycfg: control-flow cleanups, repeated until nothing changes.
//!
//! 1. Fold constant branches: `brif` on a constant, `brif` whose arms are the same call, and
//!    `br_table` on a constant become `jump`.
//! 2. Thread empty blocks: a block (not the entry) holding only `jump T(args)`, whose
//!    parameters nothing but that jump uses, is bypassed by every branch into it, its
//!    parameters replaced by the incoming arguments. Safe because a value the jump passes
//!    either is one of the block's parameters or dominates the block, and then also dominates
//!    each predecessor's branch.
//! 3. Remove blocks unreachable from the entry.
//! 4. Merge a block into its predecessor when it has exactly one incoming edge, from a `jump`
//!    (the parameters become the jump's arguments).

use crate::util::{Replacements, iconst_value};
use ompcc_ir::analysis::{ControlFlowGraph, DefUse, DominatorTree};
use ompcc_ir::{Block, BlockCall, Function, Inst, InstData};

fn fold_branches(func: &mut Function) -> bool {
    let mut changed = false;
    for b in func.layout.blocks().collect::<Vec<_>>() {
        let Some(term) = func.layout.last_inst(b) else {
            continue;
        };
        let taken: Option<BlockCall> = match func.dfg.inst(term) {
            InstData::Brif { arg, blocks } => {
                let same = blocks[0].block == blocks[1].block
                    && func.dfg.block_call_args(&blocks[0]) == func.dfg.block_call_args(&blocks[1]);
                if same {
                    Some(blocks[0].clone())
                } else {
                    iconst_value(func, *arg).map(|c| blocks[if c != 0 { 0 } else { 1 }].clone())
                }
            }
            InstData::BrTable { arg, .. } => iconst_value(func, *arg).map(|c| {
                let calls = func.dfg.branch_destinations(term);
                let idx = usize::try_from(c).ok().map(|i| i + 1);
                match idx.and_then(|i| calls.get(i)) {
                    Some(call) => call.clone(),
                    None => calls[0].clone(),
                }
            }),
            _ => None,
        };
        if let Some(dest) = taken {
            let args = func.dfg.block_call_args(&dest).to_vec();
            let dest = func.dfg.block_call(dest.block, &args);
            *func.dfg.inst_mut(term) = InstData::Jump { dest };
            changed = true;
        }
    }
    changed
}

/// The target and arguments if `b` holds nothing but a jump.
fn lone_jump(func: &Function, b: Block) -> Option<(Inst, Block, Vec<ompcc_ir::Value>)> {
    let first = func.layout.first_inst(b)?;
    if func.layout.last_inst(b) != Some(first) {
        return None;
    }
    match func.dfg.inst(first) {
        InstData::Jump { dest } => {
            Some((first, dest.block, func.dfg.block_call_args(dest).to_vec()))
        }
        _ => None,
    }
}

fn thread_jumps(func: &mut Function) -> bool {
    let mut changed = false;
    let entry = func.layout.entry_block();
    for e in func.layout.blocks().collect::<Vec<_>>() {
        if Some(e) == entry {
            continue;
        }
        let Some((jump, target, jargs)) = lone_jump(func, e) else {
            continue;
        };
        if target == e {
            continue;
        }
        let params = func.dfg.block_params(e).to_vec();
        // The parameters disappear with the block: they may only be used by its own jump
        // (blocks that `e` dominates could use them directly).
        if !params.is_empty() {
            let du = DefUse::compute(func);
            if params
                .iter()
                .any(|&p| du.users(p).iter().any(|&u| u != jump))
            {
                continue;
            }
        }
        let cfg = ControlFlowGraph::compute(func);
        for &(_, br) in cfg.preds(e) {
            let (calls, pool) = func.dfg.branch_destinations_and_pool(br);
            for call in calls.iter_mut().filter(|c| c.block == e) {
                let incoming = call.args.as_slice(pool).to_vec();
                let new_args: Vec<ompcc_ir::Value> = jargs
                    .iter()
                    .map(|a| match params.iter().position(|p| p == a) {
                        Some(i) => incoming[i],
                        None => *a,
                    })
                    .collect();
                call.block = target;
                call.args.clear(pool);
                call.args.extend(new_args, pool);
                changed = true;
            }
        }
    }
    changed
}

fn remove_unreachable(func: &mut Function) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let dead: Vec<Block> = func
        .layout
        .blocks()
        .filter(|&b| !dt.is_reachable(b))
        .collect();
    for &b in &dead {
        func.layout.remove_block(b);
    }
    !dead.is_empty()
}

fn merge_blocks(func: &mut Function) -> bool {
    let mut changed = false;
    let mut repl = Replacements::default();
    let entry = func.layout.entry_block();
    loop {
        let cfg = ControlFlowGraph::compute(func);
        let mut merged = false;
        for b in func.layout.blocks().collect::<Vec<_>>() {
            if Some(b) == entry {
                continue;
            }
            let preds = cfg.preds(b);
            let [(p, br)] = preds else { continue };
            let (p, br) = (*p, *br);
            if p == b {
                continue;
            }
            let InstData::Jump { dest } = func.dfg.inst(br) else {
                continue;
            };
            let args = func.dfg.block_call_args(dest).to_vec();
            let params = func.dfg.block_params(b).to_vec();
            for (param, arg) in params.into_iter().zip(args) {
                repl.insert(param, arg);
            }
            func.layout.remove_inst(br);
            if let Some(first) = func.layout.first_inst(b) {
                func.layout.split_off_to(first, p);
            }
            func.layout.remove_block(b);
            merged = true;
            changed = true;
            // The CFG changed: recompute before the next merge.
            break;
        }
        if !merged {
            break;
        }
    }
    repl.apply(func);
    changed
}

/// Runs simplifycfg; returns whether anything changed.
pub fn simplifycfg(func: &mut Function) -> bool {
    let mut changed = false;
    loop {
        let mut round = fold_branches(func);
        round |= thread_jumps(func);
        round |= remove_unreachable(func);
        round |= merge_blocks(func);
        if !round {
            return changed;
        }
        changed = true;
    }
}
