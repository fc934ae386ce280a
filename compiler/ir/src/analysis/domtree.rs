//! Dominator tree by the Cooper-Harvey-Kennedy iterative algorithm.
//!
//! Runs over the blocks reachable from the entry in reverse postorder; unreachable blocks have
//! no immediate dominator, dominate nothing and are dominated by nothing (except themselves).
//! `dominates` answers in O(1) from pre/post numbers of a DFS over the tree.

use super::cfg::ControlFlowGraph;
use crate::dfg::ValueDef;
use crate::entities::{Block, Inst, Value};
use crate::function::Function;
use cranelift_entity::SecondaryMap;

/// Immediate dominators and tree numbering.
#[derive(Clone, Debug, Default)]
pub struct DominatorTree {
    idom: SecondaryMap<Block, Option<Block>>,
    rpo_num: SecondaryMap<Block, u32>,
    rpo: Vec<Block>,
    children: SecondaryMap<Block, Vec<Block>>,
    pre: SecondaryMap<Block, u32>,
    post: SecondaryMap<Block, u32>,
}

impl DominatorTree {
    /// Computes the tree of `func` with its `cfg`.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> DominatorTree {
        let mut dt = DominatorTree::default();
        let Some(entry) = func.layout.entry_block() else {
            return dt;
        };
        // Iterative DFS postorder from the entry, visiting successors last to first so that the
        // reverse postorder lists a block's first successor first (stable, readable dumps).
        let mut post = Vec::new();
        let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut stack = vec![(entry, 0usize)];
        seen[entry] = true;
        while let Some((b, i)) = stack.pop() {
            let succs = cfg.succs(b);
            if i < succs.len() {
                stack.push((b, i + 1));
                let s = succs[succs.len() - 1 - i];
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
            }
        }
        post.reverse();
        dt.rpo = post;
        for (i, &b) in dt.rpo.iter().enumerate() {
            // rpo_num 0 means "unreachable"; reachable blocks are numbered from 1.
            dt.rpo_num[b] = i as u32 + 1;
        }
        dt.idom[entry] = Some(entry);
        // Blocks known to lie below the candidate of the block being processed (marked with
        // its stamp): a climb that meets one stops, so a block with thousands of predecessors
        // deep in the tree (a `switch` lowered to a chain of compares) costs each tree node
        // once, not once per predecessor.
        let mut marks: SecondaryMap<Block, u32> = SecondaryMap::new();
        let mut stamp = 0u32;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in dt.rpo.iter().skip(1) {
                stamp += 1;
                let mut new_idom: Option<Block> = None;
                for p in cfg.pred_blocks(b) {
                    if dt.rpo_num[p] == 0 || dt.idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => {
                            marks[p] = stamp;
                            p
                        }
                        Some(cur) => dt.intersect_marked(p, cur, &mut marks, stamp),
                    });
                }
                if new_idom.is_some() && dt.idom[b] != new_idom {
                    dt.idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        dt.idom[entry] = None;
        for &b in &dt.rpo {
            if let Some(d) = dt.idom[b] {
                dt.children[d].push(b);
            }
        }
        // Pre/post numbering of the tree for O(1) dominance queries.
        let mut counter = 0u32;
        let mut stack = vec![(entry, false)];
        while let Some((b, done)) = stack.pop() {
            counter += 1;
            if done {
                dt.post[b] = counter;
                continue;
            }
            dt.pre[b] = counter;
            stack.push((b, true));
            for &c in dt.children[b].iter().rev() {
                stack.push((c, false));
            }
        }
        dt
    }

    /// `intersect(a, cur)` where every block marked with `stamp` lies below `cur` (so
    /// reaching one means the answer is `cur`); marks the blocks climbed from `a`, which lie
    /// below the answer.
    fn intersect_marked(
        &self,
        a: Block,
        cur: Block,
        marks: &mut SecondaryMap<Block, u32>,
        stamp: u32,
    ) -> Block {
        let mut x = a;
        let mut climbed = Vec::new();
        let mut b = cur;
        let result = loop {
            if marks[x] == stamp {
                break cur;
            }
            if x == b {
                break x;
            }
            if self.rpo_num[x] > self.rpo_num[b] {
                climbed.push(x);
                x = self.idom[x].unwrap_or(x);
            } else {
                b = self.idom[b].unwrap_or(b);
            }
        };
        for c in climbed {
            marks[c] = stamp;
        }
        marks[result] = stamp;
        result
    }

    /// Whether `block` is reachable from the entry.
    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_num[block] != 0
    }

    /// The immediate dominator (`None` for the entry and unreachable blocks).
    pub fn idom(&self, block: Block) -> Option<Block> {
        self.idom[block]
    }

    /// Reachable blocks in reverse postorder (entry first).
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Blocks immediately dominated by `block`.
    pub fn children(&self, block: Block) -> &[Block] {
        &self.children[block]
    }

    /// Whether `a` dominates `b` (reflexive). False when either is unreachable, unless a == b.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }

    /// Whether the definition of `v` dominates instruction `user` (same block: the definition
    /// comes first; block parameters dominate their whole block).
    pub fn value_dominates(&self, func: &Function, v: Value, user: Inst) -> bool {
        let Some(ub) = func.layout.inst_block(user) else {
            return false;
        };
        match func.dfg.value_def(v) {
            ValueDef::Param(b, _) => self.dominates(b, ub),
            ValueDef::Result(def, _) => {
                let Some(db) = func.layout.inst_block(def) else {
                    return false;
                };
                if db != ub {
                    return self.dominates(db, ub);
                }
                let mut cur = func.layout.prev_inst(user);
                while let Some(i) = cur {
                    if i == def {
                        return true;
                    }
                    cur = func.layout.prev_inst(i);
                }
                false
            }
            ValueDef::Placeholder => false,
        }
    }
}
