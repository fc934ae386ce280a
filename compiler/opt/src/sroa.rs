//! sroa: scalar replacement of aggregates in stack slots.
//!
//! A slot is split when every use of every `stack_addr` of it is either the address of a
//! non-volatile `load`/`store` in the `local` or `generic` space, or a `ptr_offset` by an
//! integer constant whose result is only used that way (directly or through further constant
//! offsets: a field of a nested struct). Each distinct (offset, type) field
//! becomes its own slot of the type's size and alignment, and every access gets a fresh
//! `stack_addr` of its field's slot; the old offsets die (DCE) and mem2reg can then promote the
//! fields. Slots whose fields overlap (type punning, misaligned views) or that are accessed out
//! of bounds or through a variable index are left alone.

use crate::remarks::{Remarks, plural};
use crate::util::iconst_value;
use ompcc_ir::{AddrSpace, FuncCursor, Function, Inst, InstData, Opcode, StackSlot, Type, Value};
use rustc_hash::FxHashMap;

/// One access: the instruction, whether its address is operand 1 (store) or 0 (load), the
/// byte offset and the accessed type.
struct Access {
    inst: Inst,
    offset: i64,
    ty: Type,
}

fn plain_access(func: &Function, inst: Inst, addr: Value) -> Option<Type> {
    match func.dfg.inst(inst) {
        InstData::Load { space, flags, arg }
            if *arg == addr
                && !flags.volatile
                && matches!(space, AddrSpace::Local | AddrSpace::Generic) =>
        {
            func.dfg
                .inst_results(inst)
                .first()
                .map(|&r| func.dfg.value_type(r))
        }
        InstData::Store { space, flags, args }
            if args[1] == addr
                && args[0] != addr
                && !flags.volatile
                && matches!(space, AddrSpace::Local | AddrSpace::Generic) =>
        {
            Some(func.dfg.value_type(args[0]))
        }
        _ => None,
    }
}

/// Runs SROA; returns whether any slot was split.
pub fn sroa(func: &mut Function) -> bool {
    sroa_with_remarks(func, &mut Remarks::default())
}

/// `sroa`, reporting each slot it splits to `remarks`.
pub fn sroa_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    // Users of every value, in layout order.
    let mut users: FxHashMap<Value, Vec<Inst>> = FxHashMap::default();
    let mut addrs: FxHashMap<StackSlot, Vec<Value>> = FxHashMap::default();
    for b in func.layout.blocks() {
        for inst in func.layout.block_insts(b) {
            for v in func.dfg.inst_uses(inst) {
                users.entry(v).or_default().push(inst);
            }
            if let InstData::StackAddr { slot } = func.dfg.inst(inst) {
                addrs
                    .entry(*slot)
                    .or_default()
                    .extend(func.dfg.inst_results(inst).first().copied());
            }
        }
    }
    let none = Vec::new();
    let mut plans: Vec<(StackSlot, Vec<Access>)> = Vec::new();
    'slots: for (slot, bases) in &addrs {
        let size = i64::from(func.stack_slots[*slot].size);
        let mut accesses = Vec::new();
        let mut has_offset = false;
        // Addresses into the slot with their constant byte offsets: the slot's own addresses,
        // then every constant `ptr_offset` of one (chains of them: a field of a field).
        let mut work: Vec<(Value, i64)> = bases.iter().map(|&b| (b, 0)).collect();
        while let Some((addr, at)) = work.pop() {
            for &u in users.get(&addr).unwrap_or(&none) {
                if let Some(ty) = plain_access(func, u, addr) {
                    accesses.push(Access {
                        inst: u,
                        offset: at,
                        ty,
                    });
                    continue;
                }
                let InstData::Binary {
                    opcode: Opcode::PtrOffset,
                    args: [p, k],
                    ..
                } = *func.dfg.inst(u)
                else {
                    continue 'slots;
                };
                let (Some(off), true) = (iconst_value(func, k), p == addr) else {
                    continue 'slots;
                };
                let (Some(&derived), Some(total)) =
                    (func.dfg.inst_results(u).first(), at.checked_add(off))
                else {
                    continue 'slots;
                };
                has_offset = true;
                work.push((derived, total));
            }
        }
        if !has_offset || accesses.is_empty() {
            continue;
        }
        // Fields: distinct (offset, type); they must be in bounds and must not overlap.
        let mut fields: Vec<(i64, Type)> = accesses.iter().map(|a| (a.offset, a.ty)).collect();
        fields.sort_by_key(|&(o, t)| (o, t.bits()));
        fields.dedup();
        for w in fields.windows(2) {
            if w[0].0 + i64::from(w[0].1.bytes()) > w[1].0 {
                continue 'slots;
            }
        }
        if fields
            .iter()
            .any(|&(o, t)| o < 0 || o + i64::from(t.bytes()) > size)
        {
            continue;
        }
        plans.push((*slot, accesses));
    }
    plans.sort_by_key(|(s, _)| *s);
    let changed = !plans.is_empty();
    for (slot, accesses) in plans {
        let loc = accesses
            .first()
            .map_or_else(Default::default, |a| func.srcloc(a.inst));
        let mut new_slots: FxHashMap<(i64, u32), StackSlot> = FxHashMap::default();
        for a in accesses {
            let bytes = a.ty.bytes();
            let ss = *new_slots
                .entry((a.offset, a.ty.bits()))
                .or_insert_with(|| func.create_stack_slot(bytes, bytes));
            let mut cur = FuncCursor::new(func);
            cur.goto_inst(a.inst);
            let addr = cur.ins().stack_addr(ss);
            match func.dfg.inst_mut(a.inst) {
                InstData::Load { arg, .. } => *arg = addr,
                InstData::Store { args, .. } => args[1] = addr,
                _ => {}
            }
        }
        if remarks.wants() {
            let mut fields: Vec<StackSlot> = new_slots.into_values().collect();
            fields.sort();
            let names: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
            remarks.emit(
                loc,
                format!(
                    "split {slot} into {}: {}",
                    plural(fields.len(), "scalar slot", "scalar slots"),
                    names.join(", ")
                ),
            );
        }
    }
    changed
}
