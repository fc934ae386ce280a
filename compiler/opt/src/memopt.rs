//! loadfwd and dse: redundant load elimination and dead-store elimination driven by
//! `ompcc_ir::analysis::alias`.
//!
//! loadfwd walks blocks in reverse postorder keeping a table of memory contents known at the
//! current point: (access, value) pairs from earlier stores (the stored value) and loads (the
//! loaded value). A block with a single predecessor (through a single edge) starts from its
//! predecessor's final table (extended basic blocks); any other block starts empty. A load
//! that must-alias a table entry of the same type is replaced by the entry's value. A store
//! removes the entries it may alias, then records itself. Calls, atomics, barriers and fences
//! clear the table (another thread's writes become visible at a barrier; a callee may write
//! anything); shuffles and votes do not touch memory. Volatile accesses are never forwarded
//! and never recorded (a volatile store still clears what it may alias).
//!
//! dse walks each block backwards keeping the accesses that a later store in the block
//! overwrites before anything may read them. A non-volatile store whose bytes a later store
//! covers exactly (must-alias, same size) is removed. Any load that may alias an entry
//! removes it; calls, atomics, barriers and fences clear the list. In a block that ends in
//! `return`, stores into stack slots whose address never escapes are dead unless a later load
//! in the block reads that slot; in any block, so are stores into such a slot that no load in
//! the function reads (a local array only ever written, e.g. once unrolling forwarded every
//! read of its constant initializer).

use crate::remarks::{Remarks, plural};
use crate::util::Replacements;
use ompcc_ir::analysis::alias::Object;
use ompcc_ir::analysis::{Access, AliasAnalysis, AliasResult, ControlFlowGraph, DominatorTree};
use ompcc_ir::{Block, Function, Inst, InstData, Opcode, StackSlot, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// Clears every memory fact: the instruction may read or write any memory.
fn clobbers_all(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Call
            | Opcode::AtomicRmw
            | Opcode::AtomicCas
            | Opcode::Barrier
            | Opcode::WarpSync
            | Opcode::Fence
    )
}

fn flags_volatile(data: &InstData) -> bool {
    match data {
        InstData::Load { flags, .. } | InstData::Store { flags, .. } => flags.volatile,
        _ => false,
    }
}

#[derive(Clone)]
struct Known {
    access: Access,
    ty: Type,
    value: Value,
}

/// Runs load forwarding; returns whether a load was removed.
pub fn loadfwd(func: &mut Function) -> bool {
    loadfwd_with_remarks(func, &mut Remarks::default())
}

/// `loadfwd`, reporting the number of loads it removed.
pub fn loadfwd_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let aa = AliasAnalysis::compute(func);
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let mut out: FxHashMap<Block, Vec<Known>> = FxHashMap::default();
    let mut repl = Replacements::default();
    let mut removed = 0;
    for &b in dt.rpo() {
        // Memory at the start of `b` is memory at the end of its only predecessor block,
        // which dominates `b` and so every value in its table does too.
        let mut table: Vec<Known> = match cfg.pred_blocks(b).as_slice() {
            [p] => out.get(p).cloned().unwrap_or_default(),
            _ => Vec::new(),
        };
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            repl.apply_to_inst(func, inst);
            let data = func.dfg.inst(inst);
            let op = data.opcode();
            if clobbers_all(op) {
                table.clear();
                continue;
            }
            let Some(access) = AliasAnalysis::access_of(func, inst) else {
                continue;
            };
            let volatile = flags_volatile(data);
            match *data {
                InstData::Load { .. } => {
                    let Some(res) = func.dfg.first_result(inst) else {
                        continue;
                    };
                    let ty = func.dfg.value_type(res);
                    if volatile {
                        continue;
                    }
                    let hit = table.iter().find(|k| {
                        k.ty == ty && aa.alias(func, &k.access, &access) == AliasResult::MustAlias
                    });
                    match hit {
                        Some(k) => {
                            repl.insert(res, k.value);
                            func.layout.remove_inst(inst);
                            removed += 1;
                        }
                        None => table.push(Known {
                            access,
                            ty,
                            value: res,
                        }),
                    }
                }
                InstData::Store { args, .. } => {
                    table.retain(|k| aa.alias(func, &k.access, &access) == AliasResult::NoAlias);
                    if !volatile {
                        table.push(Known {
                            access,
                            ty: func.dfg.value_type(args[0]),
                            value: args[0],
                        });
                    }
                }
                _ => {}
            }
        }
        out.insert(b, table);
    }
    repl.apply(func);
    if removed > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "removed {} of values already in registers",
                plural(removed, "load", "loads")
            ),
        );
    }
    removed > 0
}

/// Runs dead-store elimination; returns whether a store was removed.
pub fn dse(func: &mut Function) -> bool {
    dse_with_remarks(func, &mut Remarks::default())
}

/// `dse`, reporting the number of stores it removed.
pub fn dse_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let aa = AliasAnalysis::compute(func);
    let mut removed = 0;
    let blocks: Vec<Block> = func.layout.blocks().collect();
    let slot_of =
        |func: &Function, a: &Access| match aa.object(func, aa.decompose(func, a.addr).root) {
            Object::Slot(s) if !aa.slot_escapes(s) => Some(s),
            _ => None,
        };
    // Slots no load anywhere reads (a slot that does not escape is only accessed by loads and
    // stores through its own address): every store into them is dead.
    let mut never_read: FxHashSet<StackSlot> = func
        .stack_slots
        .keys()
        .filter(|&s| !aa.slot_escapes(s))
        .collect();
    for inst in func.layout.all_insts() {
        if let InstData::Load { .. } = func.dfg.inst(inst)
            && let Some(access) = AliasAnalysis::access_of(func, inst)
            && let Some(s) = slot_of(func, &access)
        {
            never_read.remove(&s);
        }
    }
    for b in blocks {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        let ends_in_return = insts
            .last()
            .is_some_and(|&i| func.dfg.inst(i).opcode() == Opcode::Return);
        // Slots nothing reads after this point (only meaningful before a return).
        let mut dead_slots: Option<FxHashSet<StackSlot>> = ends_in_return.then(|| {
            func.stack_slots
                .keys()
                .filter(|&s| !aa.slot_escapes(s))
                .collect()
        });
        let mut overwritten: Vec<Access> = Vec::new();
        for &inst in insts.iter().rev() {
            let data = func.dfg.inst(inst);
            let op = data.opcode();
            if clobbers_all(op) {
                overwritten.clear();
                continue;
            }
            let Some(access) = AliasAnalysis::access_of(func, inst) else {
                continue;
            };
            match data {
                InstData::Load { .. } => {
                    overwritten.retain(|o| aa.alias(func, o, &access) == AliasResult::NoAlias);
                    // An unknown pointer cannot reach a slot that does not escape.
                    if let (Some(dead), Some(s)) = (dead_slots.as_mut(), slot_of(func, &access)) {
                        dead.remove(&s);
                    }
                }
                InstData::Store { flags, .. } => {
                    let covered = overwritten
                        .iter()
                        .any(|o| aa.alias(func, o, &access) == AliasResult::MustAlias);
                    let slot = slot_of(func, &access);
                    let local_dead = slot.is_some_and(|s| never_read.contains(&s))
                        || dead_slots
                            .as_ref()
                            .zip(slot)
                            .is_some_and(|(d, s)| d.contains(&s));
                    if !flags.volatile && (covered || local_dead) {
                        func.layout.remove_inst(inst);
                        removed += 1;
                        continue;
                    }
                    overwritten.push(access);
                }
                _ => {}
            }
        }
    }
    if removed > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "removed {} overwritten or never read",
                plural(removed, "dead store", "dead stores")
            ),
        );
    }
    removed > 0
}
