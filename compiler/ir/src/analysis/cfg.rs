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
        // The block that last recorded each destination as its successor: duplicates are
        // found in constant time, so a `br_table` of 20,000 cases into one block is linear.
        let mut succ_of: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
        for block in func.layout.blocks() {
            for inst in func.layout.block_insts(block) {
                for call in func.dfg.branch_destinations(inst) {
                    let dest = call.block;
                    if !func.dfg.block_is_valid(dest) {
                        continue;
                    }
                    if succ_of[dest] != Some(block) {
                        succ_of[dest] = Some(block);
                        cfg.succs[block].push(dest);
                    }
                    // Pairs arrive in (block, inst) order, so a repeat is the last entry.
                    if cfg.preds[dest].last() != Some(&(block, inst)) {
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
        // The pairs come block by block (layout order), so a repeated block is the last one.
        let mut v: Vec<Block> = Vec::new();
        for &(b, _) in &self.preds[block] {
            if v.last() != Some(&b) {
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
