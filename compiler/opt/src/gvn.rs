//! gvn: global value numbering of pure instructions over the dominator tree.
//!
//! Walks the dominator tree in preorder with a scoped table from an instruction's "shape"
//! (opcode, immediates, operands after renaming, result type) to the value that first computed
//! it; a later instruction with the same shape in a dominated position is removed and its uses
//! take the earlier value. Only instructions without side effects that read no memory and do
//! not depend on the executing lane's state are numbered: loads, calls, atomics, warp
//! operations, `activemask` and volatile special registers (clocks, `warpid`, `smid`) never
//! are. Commutative operations are keyed
//! with sorted operands. Arithmetic flags are not part of the shape: the surviving twin keeps
//! only the flags both had (an `nsw` add merged with a wrapping one wraps). Unreachable blocks
//! are left alone.

use crate::remarks::{Remarks, plural};
use crate::util::Replacements;
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::{Block, Function, Inst, InstData, Opcode, Type, Value, ValueDef};
use rustc_hash::FxHashMap;

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    opcode: Opcode,
    args: [Option<Value>; 3],
    imm: u64,
    ty: Type,
}

fn commutative(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Iadd
            | Opcode::Imul
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Smin
            | Opcode::Smax
            | Opcode::Umin
            | Opcode::Umax
            | Opcode::Smulhi
            | Opcode::Umulhi
            | Opcode::Fadd
            | Opcode::Fmul
    )
}

fn key(func: &Function, inst: Inst) -> Option<Key> {
    let results = func.dfg.inst_results(inst);
    let [res] = results else { return None };
    let ty = func.dfg.value_type(*res);
    let data = func.dfg.inst(inst);
    let opcode = data.opcode();
    if opcode.has_side_effects() || opcode.reads_memory() {
        return None;
    }
    let mut args = [None; 3];
    for (slot, &a) in args.iter_mut().zip(func.dfg.inst_args(inst)) {
        *slot = Some(a);
    }
    if commutative(opcode) && args[1] < args[0] {
        args.swap(0, 1);
    }
    let imm = match data {
        InstData::UnaryImm { imm, .. } => *imm as u64,
        InstData::UnaryIeee { bits, .. } => *bits,
        InstData::IntCompare { cond, .. } => *cond as u64,
        InstData::FloatCompare { cond, .. } => *cond as u64,
        InstData::Special { reg } if reg.is_volatile() => return None,
        InstData::Special { reg } => *reg as u64,
        InstData::StackAddr { slot } => slot.as_u32() as u64,
        InstData::GlobalAddr { global } => global.as_u32() as u64,
        InstData::Nullary { .. } => return None,
        InstData::Unary { .. } | InstData::Binary { .. } | InstData::Ternary { .. } => 0,
        _ => return None,
    };
    Some(Key {
        opcode,
        args,
        imm,
        ty,
    })
}

/// Runs GVN; returns whether any instruction was removed.
pub fn gvn(func: &mut Function) -> bool {
    gvn_with_remarks(func, &mut Remarks::default())
}

/// `gvn`, reporting the redundant instructions it removes to `remarks`.
pub fn gvn_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let Some(entry) = func.layout.entry_block() else {
        return false;
    };
    let mut table: FxHashMap<Key, Value> = FxHashMap::default();
    // Keys added per open block, to pop when the walk leaves its subtree.
    let mut scopes: Vec<Vec<Key>> = Vec::new();
    let mut stack: Vec<(Block, bool)> = vec![(entry, false)];
    let mut repl = Replacements::default();
    let mut changed = false;
    let mut removed = 0;
    while let Some((b, leaving)) = stack.pop() {
        if leaving {
            for k in scopes.pop().unwrap_or_default() {
                table.remove(&k);
            }
            continue;
        }
        stack.push((b, true));
        let mut added = Vec::new();
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            repl.apply_to_inst(func, inst);
            let Some(k) = key(func, inst) else { continue };
            let res = func.dfg.inst_results(inst)[0];
            match table.get(&k) {
                Some(&v) => {
                    let flags = func.dfg.inst(inst).arith_flags();
                    if let ValueDef::Result(twin, _) = func.dfg.value_def(v) {
                        let kept = func.dfg.inst(twin).arith_flags().meet(flags);
                        func.dfg.inst_mut(twin).set_arith_flags(kept);
                    }
                    repl.insert(res, v);
                    func.layout.remove_inst(inst);
                    changed = true;
                    removed += 1;
                }
                None => {
                    table.insert(k.clone(), res);
                    added.push(k);
                }
            }
        }
        scopes.push(added);
        for &c in dt.children(b).iter().rev() {
            stack.push((c, false));
        }
    }
    repl.apply(func);
    if removed > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "removed {} computed by a dominating twin",
                plural(removed, "redundant instruction", "redundant instructions")
            ),
        );
    }
    changed
}
