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

use crate::remarks::{Remarks, plural};
use crate::util::{Replacements, iconst_value};
use cranelift_entity::SecondaryMap;
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
    // One graph and one def-use table for the whole walk (linear, not per block): the
    // predecessor lists are updated as branches are redirected. The def-use table may go
    // stale, but only conservatively: a redirected branch uses the values the bypassed
    // block's jump or the branch itself already used, and a block whose parameter that jump
    // used was never bypassable (its parameters had a user outside it).
    let cfg = ControlFlowGraph::compute(func);
    let mut preds: SecondaryMap<Block, Vec<(Block, Inst)>> = SecondaryMap::new();
    for b in func.layout.blocks() {
        preds[b] = cfg.preds(b).to_vec();
    }
    let mut du: Option<DefUse> = None;
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
            let du = du.get_or_insert_with(|| DefUse::compute(func));
            if params
                .iter()
                .any(|&p| du.users(p).iter().any(|&u| u != jump))
            {
                continue;
            }
        }
        for (pb, br) in std::mem::take(&mut preds[e]) {
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
            // A repeated pair (the branch already reached `target`) is harmless: bypassing
            // `target` later finds no call of it left in that branch the second time.
            if preds[target].last() != Some(&(pb, br)) {
                preds[target].push((pb, br));
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
    // One graph for the whole walk: merging moves a block's instructions, not its edges, so
    // each block keeps its predecessor branches; the block that holds a branch now is asked
    // of the layout.
    let cfg = ControlFlowGraph::compute(func);
    for b in func.layout.blocks().collect::<Vec<_>>() {
        if Some(b) == entry || !func.layout.is_block_inserted(b) {
            continue;
        }
        let [(_, br)] = cfg.preds(b) else { continue };
        let br = *br;
        let Some(p) = func.layout.inst_block(br) else {
            continue;
        };
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
        changed = true;
    }
    repl.apply(func);
    changed
}

/// Runs simplifycfg; returns whether anything changed.
pub fn simplifycfg(func: &mut Function) -> bool {
    simplifycfg_with_remarks(func, &mut Remarks::default())
}

/// `simplifycfg`, reporting how many blocks it removes to `remarks`.
pub fn simplifycfg_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let mut changed = false;
    let blocks_before = func.layout.blocks().count();
    loop {
        let mut round = fold_branches(func);
        round |= thread_jumps(func);
        round |= remove_unreachable(func);
        round |= merge_blocks(func);
        if !round {
            break;
        }
        changed = true;
    }
    let removed = blocks_before.saturating_sub(func.layout.blocks().count());
    if changed && remarks.wants() {
        let message = if removed > 0 {
            format!("removed {}", plural(removed, "block", "blocks"))
        } else {
            "simplified branches".to_string()
        };
        remarks.emit(Default::default(), message);
    }
    changed
}
