//! Dead-code elimination: removes instructions and block parameters whose values never reach a
//! side effect.
//!
//! Liveness starts at the operands of instructions with side effects (stores, calls, atomics,
//! barriers, volatile loads, branch conditions, returns) and flows backwards through operands
//! and from a live block parameter to the matching argument of every branch into its block, so
//! loop-carried values that feed nothing are removed too. The entry block's parameters are the
//! signature and always stay. Finally, stack slots no `stack_addr` names are dropped and the
//! remaining ones renumbered in order.

use cranelift_entity::{PrimaryMap, SecondaryMap};
use ompcc_ir::analysis::ControlFlowGraph;
use ompcc_ir::{Block, Function, Inst, InstData, StackSlot, Value, ValueDef};

fn is_root(func: &Function, inst: Inst) -> bool {
    match func.dfg.inst(inst) {
        InstData::Load { flags, .. } => flags.volatile,
        d => d.opcode().has_side_effects(),
    }
}

/// Runs DCE; returns whether anything was removed.
pub fn dce(func: &mut Function) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let mut live: SecondaryMap<Value, bool> = SecondaryMap::new();
    let mut work: Vec<Value> = Vec::new();
    let blocks: Vec<Block> = func.layout.blocks().collect();
    for &b in &blocks {
        for inst in func.layout.block_insts(b) {
            if is_root(func, inst) {
                // Branch arguments are not roots: they live only if their parameter does.
                work.extend_from_slice(func.dfg.inst_args(inst));
            }
        }
    }
    let entry = func.layout.entry_block();
    if let Some(e) = entry {
        work.extend_from_slice(func.dfg.block_params(e));
    }
    while let Some(v) = work.pop() {
        if live[v] {
            continue;
        }
        live[v] = true;
        match func.dfg.value_def(v) {
            ValueDef::Result(inst, _) => work.extend_from_slice(func.dfg.inst_args(inst)),
            ValueDef::Param(block, i) => {
                for &(_, br) in cfg.preds(block) {
                    for call in func.dfg.branch_destinations(br) {
                        if call.block == block
                            && let Some(&a) = func.dfg.block_call_args(call).get(i)
                        {
                            work.push(a);
                        }
                    }
                }
            }
            ValueDef::Placeholder => {}
        }
    }
    let mut changed = false;
    for &b in &blocks {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            if !is_root(func, inst) && func.dfg.inst_results(inst).iter().all(|&r| !live[r]) {
                func.layout.remove_inst(inst);
                changed = true;
            }
        }
    }
    // Dead block parameters, last to first so indices stay valid.
    for &b in &blocks {
        if Some(b) == entry {
            continue;
        }
        let params = func.dfg.block_params(b).to_vec();
        for (i, &p) in params.iter().enumerate().rev() {
            if live[p] {
                continue;
            }
            for &(_, br) in cfg.preds(b) {
                let (calls, pool) = func.dfg.branch_destinations_and_pool(br);
                for call in calls.iter_mut().filter(|c| c.block == b) {
                    if i < call.args.len(pool) {
                        call.args.remove(i, pool);
                    }
                }
            }
            func.dfg.remove_block_param(b, i);
            changed = true;
        }
    }
    changed |= drop_unused_stack_slots(func);
    changed
}

/// Removes stack slots no `stack_addr` in the layout names, renumbering the rest in order.
fn drop_unused_stack_slots(func: &mut Function) -> bool {
    let mut used: SecondaryMap<StackSlot, bool> = SecondaryMap::new();
    let insts: Vec<Inst> = func
        .layout
        .blocks()
        .flat_map(|b| func.layout.block_insts(b).collect::<Vec<_>>())
        .collect();
    for &inst in &insts {
        if let InstData::StackAddr { slot } = func.dfg.inst(inst) {
            used[*slot] = true;
        }
    }
    if func.stack_slots.keys().all(|s| used[s]) {
        return false;
    }
    let mut renamed: SecondaryMap<StackSlot, Option<StackSlot>> = SecondaryMap::new();
    let mut kept = PrimaryMap::new();
    for (s, d) in func.stack_slots.iter() {
        if used[s] {
            renamed[s] = Some(kept.push(*d));
        }
    }
    func.stack_slots = kept;
    for inst in insts {
        if let InstData::StackAddr { slot } = func.dfg.inst_mut(inst)
            && let Some(n) = renamed[*slot]
        {
            *slot = n;
        }
    }
    true
}
