//! Analyses over a function's control-flow graph: predecessors and successors, dominator tree,
//! natural loops, and def-use chains. Each is computed from scratch by `compute` and is valid
//! until the function's control flow (or, for `DefUse`, its instructions) change.

pub mod cfg;
pub mod domtree;
pub mod loops;
pub mod uses;

pub use cfg::ControlFlowGraph;
pub use domtree::DominatorTree;
pub use loops::{Loop, LoopAnalysis};
pub use uses::DefUse;
