//! Helpers shared by the passes: value replacement, constant inspection and copying
//! instructions under an entity renaming (`Remap`, `InstCopy`).

use ompcc_ir::instructions::BlockCall;
use ompcc_ir::{
    Block, FuncRef, Function, GlobalRef, Inst, InstData, Opcode, SigRef, StackSlot, Type, Value,
    ValueDef,
};
use rustc_hash::FxHashMap;

/// A set of pending "replace every use of `a` by `b`" rewrites, resolved transitively.
#[derive(Default)]
pub struct Replacements {
    map: FxHashMap<Value, Value>,
}

impl Replacements {
    /// Records that uses of `from` become uses of `to`.
    pub fn insert(&mut self, from: Value, to: Value) {
        let to = self.resolve(to);
        if from != to {
            self.map.insert(from, to);
        }
    }

    /// Follows the chain of rewrites from `v`.
    pub fn resolve(&self, mut v: Value) -> Value {
        // Chains are acyclic: `insert` resolves its target first, so a value never maps to
        // itself through a cycle. The bound only guards against a pass bug.
        for _ in 0..self.map.len() + 1 {
            match self.map.get(&v) {
                Some(&n) => v = n,
                None => return v,
            }
        }
        v
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Rewrites the uses of one instruction.
    pub fn apply_to_inst(&self, func: &mut Function, inst: Inst) {
        if !self.map.is_empty() {
            func.dfg.map_inst_uses(inst, |v| self.resolve(v));
        }
    }

    /// Rewrites every use in the layout.
    pub fn apply(&self, func: &mut Function) {
        if self.map.is_empty() {
            return;
        }
        for inst in all_insts(func) {
            self.apply_to_inst(func, inst);
        }
    }
}

/// The integer constant `v` is defined as, normalized to its type.
pub fn iconst_value(func: &Function, v: Value) -> Option<i64> {
    match func.dfg.value_def(v) {
        ValueDef::Result(inst, 0) => match func.dfg.inst(inst) {
            InstData::UnaryImm { imm, .. } => Some(*imm),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `v` is computed by an `nsw` instruction.
pub fn nsw_value(func: &Function, v: Value) -> bool {
    matches!(func.dfg.value_def(v), ValueDef::Result(i, 0) if func.dfg.inst(i).is_nsw())
}

/// The float constant `v` is defined as (as an `f64`; `f32` constants are exact in it).
pub fn fconst_value(func: &Function, v: Value) -> Option<f64> {
    match func.dfg.value_def(v) {
        ValueDef::Result(inst, 0) => match func.dfg.inst(inst) {
            InstData::UnaryIeee { bits, .. } => Some(f64::from_bits(*bits)),
            _ => None,
        },
        _ => None,
    }
}

/// All instructions in layout order.
pub fn all_insts(func: &Function) -> Vec<Inst> {
    func.layout.all_insts().collect()
}

/// Entity renaming for copying instructions (inlining, unrolling): values, blocks and, across
/// functions, stack slots, callees and globals. Entities without an entry keep their number.
#[derive(Default)]
pub struct Remap {
    /// Values.
    pub values: FxHashMap<Value, Value>,
    /// Blocks (branch targets).
    pub blocks: FxHashMap<Block, Block>,
    /// Stack slots.
    pub slots: FxHashMap<StackSlot, StackSlot>,
    /// Callees.
    pub funcs: FxHashMap<FuncRef, FuncRef>,
    /// Globals.
    pub globals: FxHashMap<GlobalRef, GlobalRef>,
    /// Signatures of indirect calls.
    pub sigs: FxHashMap<SigRef, SigRef>,
}

impl Remap {
    /// The new name of `v`.
    pub fn value(&self, v: Value) -> Value {
        self.values.get(&v).copied().unwrap_or(v)
    }

    /// The new name of `b`.
    pub fn block(&self, b: Block) -> Block {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

/// An instruction read out of a function, with its variable-length operand lists decoded so
/// it can be rebuilt in another function's pools.
pub struct InstCopy {
    data: InstData,
    list: Vec<Value>,
    dests: Vec<(Block, Vec<Value>)>,
    ctrl: Option<Type>,
    /// The results of the original instruction.
    pub results: Vec<Value>,
}

impl InstCopy {
    /// Reads `inst` of `func`.
    pub fn read(func: &Function, inst: Inst) -> InstCopy {
        let data = func.dfg.inst(inst).clone();
        let list = match &data {
            InstData::Call { args, .. }
            | InstData::CallIndirect { args, .. }
            | InstData::Return { args } => args.as_slice(&func.dfg.value_lists).to_vec(),
            _ => Vec::new(),
        };
        let dests = func
            .dfg
            .branch_destinations(inst)
            .iter()
            .map(|c| (c.block, func.dfg.block_call_args(c).to_vec()))
            .collect();
        let results = func.dfg.inst_results(inst).to_vec();
        InstCopy {
            ctrl: results.first().map(|&r| func.dfg.value_type(r)),
            data,
            list,
            dests,
            results,
        }
    }

    /// The opcode.
    pub fn opcode(&self) -> Opcode {
        self.data.opcode()
    }

    /// The `return` operands (empty for other instructions).
    pub fn return_args(&self) -> &[Value] {
        match self.data {
            InstData::Return { .. } => &self.list,
            _ => &[],
        }
    }

    /// Builds the copy in `func` (not in the layout) with every entity renamed through `map`,
    /// creates its results and records old result -> new result in `map.values`.
    pub fn write(&self, func: &mut Function, map: &mut Remap) -> Inst {
        let mut calls: Vec<BlockCall> = self
            .dests
            .iter()
            .map(|(b, args)| {
                let args: Vec<Value> = args.iter().map(|&a| map.value(a)).collect();
                func.dfg.block_call(map.block(*b), &args)
            })
            .collect();
        let list: Vec<Value> = self.list.iter().map(|&a| map.value(a)).collect();
        let data = match &self.data {
            InstData::Call { func: f, .. } => InstData::Call {
                func: map.funcs.get(f).copied().unwrap_or(*f),
                args: func.dfg.value_list(&list),
            },
            // The callee pointer is the list's first value; the list is rebuilt in `func`'s
            // pool (a list handle is only meaningful in the pool it came from).
            InstData::CallIndirect { sig, .. } => InstData::CallIndirect {
                sig: map.sigs.get(sig).copied().unwrap_or(*sig),
                args: func.dfg.value_list(&list),
            },
            InstData::FuncAddr { func: f } => InstData::FuncAddr {
                func: map.funcs.get(f).copied().unwrap_or(*f),
            },
            InstData::Return { .. } => InstData::Return {
                args: func.dfg.value_list(&list),
            },
            InstData::Jump { .. } if calls.len() == 1 => InstData::Jump {
                dest: calls.remove(0),
            },
            InstData::Brif { arg, .. } if calls.len() == 2 => {
                let second = calls.remove(1);
                InstData::Brif {
                    arg: map.value(*arg),
                    blocks: [calls.remove(0), second],
                }
            }
            InstData::BrTable { arg, .. } => InstData::BrTable {
                arg: map.value(*arg),
                table: func.dfg.make_jump_table(calls),
            },
            InstData::StackAddr { slot } => InstData::StackAddr {
                slot: map.slots.get(slot).copied().unwrap_or(*slot),
            },
            InstData::GlobalAddr { global } => InstData::GlobalAddr {
                global: map.globals.get(global).copied().unwrap_or(*global),
            },
            other => {
                let mut d = other.clone();
                for a in d.arguments_mut(&mut func.dfg.value_lists) {
                    *a = map.value(*a);
                }
                d
            }
        };
        let inst = func.dfg.make_inst(data);
        func.dfg.make_inst_results(inst, self.ctrl);
        for (&old, &new) in self.results.iter().zip(func.dfg.inst_results(inst)) {
            map.values.insert(old, new);
        }
        inst
    }
}
