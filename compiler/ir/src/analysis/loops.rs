//! Natural loops: headers, bodies, nesting and preheaders.
//!
//! A back edge is an edge `latch -> header` where `header` dominates `latch`; the loop of a header
//! is the header plus every block that reaches one of its latches without passing through the
//! header. Back edges to a block that does not dominate their source (irreducible control
//! flow) form no natural loop; they are listed in `irreducible_edges`. Loops are numbered in
//! reverse postorder of their headers, so an outer loop comes before the loops nested in it.
//! Only reachable blocks belong to loops.

use super::cfg::ControlFlowGraph;
use super::domtree::DominatorTree;
use crate::entities::Block;
use cranelift_entity::SecondaryMap;

/// One natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The header (target of the back edges, dominates the body).
    pub header: Block,
    /// Sources of the back edges.
    pub latches: Vec<Block>,
    /// All blocks of the loop, header first, then in reverse postorder.
    pub blocks: Vec<Block>,
    /// Index of the innermost enclosing loop.
    pub parent: Option<usize>,
    /// 1 for outermost loops.
    pub depth: u32,
    /// The unique block outside the loop that branches to the header and only to it.
    pub preheader: Option<Block>,
}

/// All natural loops of a function.
#[derive(Clone, Debug, Default)]
pub struct LoopAnalysis {
    loops: Vec<Loop>,
    innermost: SecondaryMap<Block, Option<usize>>,
    irreducible: Vec<(Block, Block)>,
}

impl LoopAnalysis {
    /// Finds the loops of `func`.
    pub fn compute(cfg: &ControlFlowGraph, dt: &DominatorTree) -> LoopAnalysis {
        let mut la = LoopAnalysis::default();
        let rpo_index: SecondaryMap<Block, usize> = {
            let mut m = SecondaryMap::new();
            for (i, &b) in dt.rpo().iter().enumerate() {
                m[b] = i;
            }
            m
        };
        for &header in dt.rpo() {
            let mut latches = Vec::new();
            for p in cfg.pred_blocks(header) {
                if !dt.is_reachable(p) {
                    continue;
                }
                if dt.dominates(header, p) {
                    latches.push(p);
                } else if rpo_index[p] >= rpo_index[header] {
                    // A retreating edge whose target does not dominate its source.
                    la.irreducible.push((p, header));
                }
            }
            if latches.is_empty() {
                continue;
            }
            let mut in_loop: SecondaryMap<Block, bool> = SecondaryMap::new();
            in_loop[header] = true;
            let mut work = latches.clone();
            while let Some(b) = work.pop() {
                if in_loop[b] {
                    continue;
                }
                in_loop[b] = true;
                for p in cfg.pred_blocks(b) {
                    if dt.is_reachable(p) && !in_loop[p] {
                        work.push(p);
                    }
                }
            }
            let blocks: Vec<Block> = dt.rpo().iter().copied().filter(|&b| in_loop[b]).collect();
            let outside: Vec<Block> = cfg
                .pred_blocks(header)
                .into_iter()
                .filter(|p| !in_loop[*p])
                .collect();
            let preheader = match outside.as_slice() {
                [p] if cfg.succs(*p) == [header] => Some(*p),
                _ => None,
            };
            la.loops.push(Loop {
                header,
                latches,
                blocks,
                parent: None,
                depth: 1,
                preheader,
            });
        }
        // Headers come in RPO, so every enclosing loop precedes the loops it contains: the
        // last earlier loop that contains our header is the innermost parent.
        for i in 0..la.loops.len() {
            let h = la.loops[i].header;
            let parent = (0..i).rev().find(|&j| la.loops[j].blocks.contains(&h));
            la.loops[i].parent = parent;
            la.loops[i].depth = parent.map_or(1, |p| la.loops[p].depth + 1);
            for &b in &la.loops[i].blocks {
                la.innermost[b] = Some(i);
            }
        }
        la
    }

    /// All loops, outer before inner.
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    /// The innermost loop containing `block`.
    pub fn innermost_loop(&self, block: Block) -> Option<usize> {
        self.innermost[block]
    }

    /// Loop nesting depth of `block` (0 outside loops).
    pub fn depth(&self, block: Block) -> u32 {
        self.innermost[block].map_or(0, |l| self.loops[l].depth)
    }

    /// Whether `block` is a loop header.
    pub fn is_header(&self, block: Block) -> bool {
        self.loops.iter().any(|l| l.header == block)
    }

    /// Retreating edges `(from, to)` that are not back edges of a natural loop.
    pub fn irreducible_edges(&self) -> &[(Block, Block)] {
        &self.irreducible
    }
}
