//! Helpers shared by the passes: value replacement and constant inspection.

use ompcc_ir::{Function, Inst, InstData, Value, ValueDef};
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
