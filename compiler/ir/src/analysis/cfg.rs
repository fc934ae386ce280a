//! Predecessors and successors of every block in the layout.
//!
//! Computed from the branch destinations of each block's terminator (the only place the
//! verifier allows branches). Each successor appears once per block; each predecessor appears
//! once per (block, branch instruction) pair, in layout order.

use crate::entities::{Block, Inst};
use crate::function::Function;
use cranelift_entity::SecondaryMap;

/// The control-flow graph of a function.
#[derive(Clone, Debug, Default)]
pub struct ControlFlowGraph {
    preds: SecondaryMap<Block, Vec<(Block, Inst)>>,
    succs: SecondaryMap<Block, Vec<Block>>,
}

impl ControlFlowGraph {
    /// Computes the graph of `func`.
    pub fn compute(func: &Function) -> ControlFlowGraph {
        let mut cfg = ControlFlowGraph::default();
        for block in func.layout.blocks() {
            for inst in func.layout.block_insts(block) {
                for call in func.dfg.branch_destinations(inst) {
                    let dest = call.block;
                    if !func.dfg.block_is_valid(dest) {
                        continue;
                    }
                    if !cfg.succs[block].contains(&dest) {
                        cfg.succs[block].push(dest);
                    }
                    if !cfg.preds[dest].contains(&(block, inst)) {
                        cfg.preds[dest].push((block, inst));
                    }
                }
            }
        }
        cfg
    }

    /// Predecessor blocks with the branch instruction that reaches `block`.
    pub fn preds(&self, block: Block) -> &[(Block, Inst)] {
        &self.preds[block]
    }

    /// Distinct predecessor blocks.
    pub fn pred_blocks(&self, block: Block) -> Vec<Block> {
        let mut v: Vec<Block> = Vec::new();
        for &(b, _) in &self.preds[block] {
            if !v.contains(&b) {
                v.push(b);
            }
        }
        v
    }

    /// Distinct successor blocks.
    pub fn succs(&self, block: Block) -> &[Block] {
        &self.succs[block]
    }
}
