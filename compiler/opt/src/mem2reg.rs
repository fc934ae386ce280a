//! mem2reg: promotes stack slots that are only loaded and stored to SSA values.
//!
//! A slot is promoted when every use of every `stack_addr` of it is the address operand of a
//! non-volatile `load` or `store` in the `local` or `generic` space, all of one type no larger
//! than the slot (the address never escapes: not stored, passed, offset or compared). Block
//! parameters are placed on the iterated dominance frontier of the storing blocks (minimal SSA;
//! DCE removes the dead ones), then loads are replaced by the reaching value in dominator-tree
//! order. A load with no reaching store reads a zero of its type (C leaves it undefined).
//! Unreachable blocks are rewritten too, starting from zero values.

use crate::util::Replacements;
use cranelift_entity::SecondaryMap;
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::{AddrSpace, Block, FuncCursor, Function, Inst, InstData, StackSlot, Type, Value};
use rustc_hash::FxHashMap;

#[derive(Clone, Default)]
struct SlotInfo {
    rejected: bool,
    ty: Option<Type>,
    accessed: bool,
}

fn plain_space(space: AddrSpace) -> bool {
    matches!(space, AddrSpace::Local | AddrSpace::Generic)
}

/// Finds the promotable slots.
fn candidates(func: &Function) -> (FxHashMap<Value, StackSlot>, Vec<(StackSlot, Type)>) {
    let mut addr_of: FxHashMap<Value, StackSlot> = FxHashMap::default();
    let mut info: SecondaryMap<StackSlot, SlotInfo> = SecondaryMap::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            if let InstData::StackAddr { slot } = func.dfg.inst(inst)
                && let Some(&r) = func.dfg.inst_results(inst).first()
            {
                addr_of.insert(r, *slot);
            }
        }
    }
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            let data = func.dfg.inst(inst);
            let access = match data {
                InstData::Load { space, flags, arg } if plain_space(*space) && !flags.volatile => {
                    func.dfg
                        .inst_results(inst)
                        .first()
                        .map(|&r| (*arg, func.dfg.value_type(r)))
                }
                InstData::Store { space, flags, args }
                    if plain_space(*space) && !flags.volatile =>
                {
                    Some((args[1], func.dfg.value_type(args[0])))
                }
                _ => None,
            };
            let mut access_slot = None;
            if let Some((addr, ty)) = access
                && let Some(&slot) = addr_of.get(&addr)
            {
                let i = &mut info[slot];
                i.accessed = true;
                if i.ty.is_some_and(|t| t != ty) || ty.bytes() > func.stack_slots[slot].size {
                    i.rejected = true;
                }
                i.ty = Some(ty);
                access_slot = Some(addr);
            }
            // Any other use of a slot address is an escape.
            let uses = func.dfg.inst_uses(inst);
            for (n, v) in uses.iter().enumerate() {
                let is_the_address = Some(*v) == access_slot
                    && match data {
                        InstData::Store { .. } => n == 1,
                        _ => n == 0,
                    };
                if !is_the_address && let Some(&slot) = addr_of.get(v) {
                    info[slot].rejected = true;
                }
            }
        }
    }
    let cands = func
        .stack_slots
        .keys()
        .filter(|&s| info[s].accessed && !info[s].rejected)
        .filter_map(|s| info[s].ty.map(|t| (s, t)))
        .collect();
    (addr_of, cands)
}

fn zero(func: &mut Function, entry: Block, ty: Type) -> Value {
    let mut cur = FuncCursor::new(func);
    match cur.func.layout.first_inst(entry) {
        Some(first) => cur.goto_inst(first),
        None => cur.goto_bottom(entry),
    }
    if ty.is_float() {
        cur.ins().fconst(ty, 0.0)
    } else if ty.is_ptr() {
        let z = cur.ins().iconst(Type::I64, 0);
        cur.ins().inttoptr(ty, z)
    } else {
        cur.ins().iconst(ty, 0)
    }
}

/// Runs mem2reg; returns whether any slot was promoted.
pub fn mem2reg(func: &mut Function) -> bool {
    let (addr_of, cands) = candidates(func);
    let Some(entry) = func.layout.entry_block() else {
        return false;
    };
    if cands.is_empty() {
        return false;
    }
    let index: FxHashMap<StackSlot, usize> = cands
        .iter()
        .enumerate()
        .map(|(i, &(s, _))| (s, i))
        .collect();
    let slot_ty: Vec<Type> = cands.iter().map(|&(_, t)| t).collect();
    // The promoted slot an instruction accesses, if any: (slot index, is store).
    let access = |func: &Function, inst: Inst| -> Option<(usize, bool)> {
        match func.dfg.inst(inst) {
            InstData::Load { arg, .. } => addr_of
                .get(arg)
                .and_then(|s| index.get(s))
                .map(|&k| (k, false)),
            InstData::Store { args, .. } => addr_of
                .get(&args[1])
                .and_then(|s| index.get(s))
                .map(|&k| (k, true)),
            _ => None,
        }
    };

    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    // Dominance frontiers of reachable blocks.
    let mut df: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for &b in dt.rpo() {
        let preds = cfg.pred_blocks(b);
        if preds.len() < 2 {
            continue;
        }
        let Some(idom) = dt.idom(b) else { continue };
        for p in preds {
            let mut runner = p;
            while dt.is_reachable(runner) && runner != idom {
                if !df[runner].contains(&b) {
                    df[runner].push(b);
                }
                match dt.idom(runner) {
                    Some(d) => runner = d,
                    None => break,
                }
            }
        }
    }
    // Place block parameters on the iterated dominance frontier of each slot's stores.
    let mut new_params: SecondaryMap<Block, Vec<(usize, Value)>> = SecondaryMap::new();
    let mut def_blocks: Vec<Vec<Block>> = vec![Vec::new(); cands.len()];
    for &b in dt.rpo() {
        for i in func.layout.block_insts(b) {
            if let Some((k, true)) = access(func, i)
                && def_blocks[k].last() != Some(&b)
            {
                def_blocks[k].push(b);
            }
        }
    }
    for (k, (&ty, defs)) in slot_ty.iter().zip(def_blocks).enumerate() {
        let mut has_param: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut work = defs;
        while let Some(b) = work.pop() {
            for &f in &df[b] {
                if !has_param[f] {
                    has_param[f] = true;
                    let p = func.dfg.append_block_param(f, ty);
                    new_params[f].push((k, p));
                    work.push(f);
                }
            }
        }
    }
    // Rename in reverse postorder (an immediate dominator is finished before its children),
    // then the unreachable blocks in layout order.
    let mut zeros: Vec<Option<Value>> = vec![None; cands.len()];
    let mut end: SecondaryMap<Block, Vec<Value>> = SecondaryMap::new();
    let mut repl = Replacements::default();
    let mut order: Vec<Block> = dt.rpo().to_vec();
    order.extend(func.layout.blocks().filter(|&b| !dt.is_reachable(b)));
    for &b in &order {
        let mut cur: Vec<Option<Value>> = match dt.idom(b) {
            Some(d) => end[d].iter().copied().map(Some).collect(),
            None => vec![None; cands.len()],
        };
        for &(k, p) in &new_params[b] {
            cur[k] = Some(p);
        }
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            let Some((k, is_store)) = access(func, inst) else {
                continue;
            };
            if is_store {
                cur[k] = Some(func.dfg.inst_args(inst)[0]);
            } else {
                let v = match cur[k] {
                    Some(v) => v,
                    None => {
                        let z = *zeros[k].get_or_insert_with(|| zero(func, entry, slot_ty[k]));
                        cur[k] = Some(z);
                        z
                    }
                };
                repl.insert(func.dfg.inst_results(inst)[0], v);
            }
            func.layout.remove_inst(inst);
        }
        let mut done = Vec::with_capacity(cands.len());
        for (k, c) in cur.into_iter().enumerate() {
            done.push(match c {
                Some(v) => v,
                None => *zeros[k].get_or_insert_with(|| zero(func, entry, slot_ty[k])),
            });
        }
        end[b] = done;
    }
    // Pass the values reaching each edge to the new parameters.
    for &b in &order {
        let Some(term) = func.layout.last_inst(b) else {
            continue;
        };
        let vals = end[b].clone();
        let (calls, pool) = func.dfg.branch_destinations_and_pool(term);
        for call in calls.iter_mut() {
            for &(k, _) in &new_params[call.block] {
                call.args.push(vals[k], pool);
            }
        }
    }
    repl.apply(func);
    // The slot addresses are now unused.
    for b in func.layout.blocks().collect::<Vec<_>>() {
        for inst in func.layout.block_insts(b).collect::<Vec<_>>() {
            if let InstData::StackAddr { slot } = func.dfg.inst(inst)
                && index.contains_key(slot)
            {
                func.layout.remove_inst(inst);
            }
        }
    }
    true
}
