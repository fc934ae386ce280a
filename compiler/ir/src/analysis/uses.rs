//! Def-use chains: for every value, the instructions that use it.
//!
//! Uses include block-call arguments of branches. An instruction using a value twice is listed
//! twice. Only instructions in the layout count.

use crate::entities::{Inst, Value};
use crate::function::Function;
use cranelift_entity::SecondaryMap;

/// The users of every value.
#[derive(Clone, Debug, Default)]
pub struct DefUse {
    users: SecondaryMap<Value, Vec<Inst>>,
}

impl DefUse {
    /// Computes the users of every value of `func`.
    pub fn compute(func: &Function) -> DefUse {
        let mut du = DefUse::default();
        for block in func.layout.blocks() {
            for inst in func.layout.block_insts(block) {
                for v in func.dfg.inst_uses(inst) {
                    du.users[v].push(inst);
                }
            }
        }
        du
    }

    /// The instructions using `v`.
    pub fn users(&self, v: Value) -> &[Inst] {
        &self.users[v]
    }

    /// Number of uses of `v`.
    pub fn num_uses(&self, v: Value) -> usize {
        self.users[v].len()
    }
}
