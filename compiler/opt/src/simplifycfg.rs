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

/// An argument of a threaded branch: the bypassed block's parameter `i` (the branch's own
/// argument `i`), or a value that dominates that block.
#[derive(Clone, Copy)]
enum Arg {
    Param(usize),
    Value(ompcc_ir::Value),
}

/// Where a branch into a bypassable block ends up after every empty block of the chain: the
/// destination and its arguments in terms of the bypassed block's parameters.
type Threaded = (Block, Vec<Arg>);

fn thread_jumps(func: &mut Function) -> bool {
    let entry = func.layout.entry_block();
    // One step per bypassable block, decided on the unchanged function (one def-use table).
    let mut du: Option<DefUse> = None;
    let mut step: SecondaryMap<Block, Option<Threaded>> = SecondaryMap::new();
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
        let args = jargs
            .iter()
            .map(|a| match params.iter().position(|p| p == a) {
                Some(i) => Arg::Param(i),
                None => Arg::Value(*a),
            })
            .collect();
        step[e] = Some((target, args));
    }
    // Each chain of empty blocks is resolved once, from its far end back (a chain of n
    // blocks that a walk block by block would re-thread n times: an `else if` ladder's
    // joins), so every branch is redirected once, to the end of its chain.
    let mut done: SecondaryMap<Block, Option<Threaded>> = SecondaryMap::new();
    let mut state: SecondaryMap<Block, u8> = SecondaryMap::new(); // 1 on the path, 2 done
    for e in func.layout.blocks().collect::<Vec<_>>() {
        if step[e].is_none() || state[e] != 0 {
            continue;
        }
        let mut path = vec![e];
        state[e] = 1;
        let mut end = step[e].as_ref().map_or(e, |s| s.0);
        while step[end].is_some() && state[end] == 0 {
            state[end] = 1;
            path.push(end);
            end = step[end].as_ref().map_or(end, |s| s.0);
        }
        // `end` is a block that stays, a resolved block, or (a cycle of empty blocks) one on
        // this path, which then stays where it is.
        let mut next: Option<Threaded> = if state[end] == 2 {
            done[end].clone()
        } else {
            None
        };
        for &b in path.iter().rev() {
            state[b] = 2;
            let Some((target, args)) = step[b].clone() else {
                continue;
            };
            // `next` is where `target` leads (None: it stays)
            let resolved = match next {
                Some((dest, through)) => {
                    let args = through
                        .iter()
                        .map(|a| match *a {
                            Arg::Param(i) => args[i],
                            v => v,
                        })
                        .collect();
                    (dest, args)
                }
                None => (target, args),
            };
            // a chain that comes back to `b` (a cycle of empty blocks): `b` stays
            done[b] = (resolved.0 != b).then_some(resolved);
            next = done[b].clone();
        }
    }
    let mut changed = false;
    let blocks: Vec<Block> = func.layout.blocks().collect();
    for b in blocks {
        let Some(br) = func.layout.last_inst(b) else {
            continue;
        };
        let (calls, pool) = func.dfg.branch_destinations_and_pool(br);
        for call in calls.iter_mut() {
            let Some((dest, through)) = &done[call.block] else {
                continue;
            };
            let incoming = call.args.as_slice(pool).to_vec();
            let new_args: Vec<ompcc_ir::Value> = through
                .iter()
                .map(|a| match *a {
                    Arg::Param(i) => incoming[i],
                    Arg::Value(v) => v,
                })
                .collect();
            call.block = *dest;
            call.args.clear(pool);
            call.args.extend(new_args, pool);
            changed = true;
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
