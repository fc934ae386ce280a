//! Analyses over a function's control-flow graph: predecessors and successors, dominator tree,
//! natural loops, def-use chains, scalar evolution of induction variables (`scev`), integer
//! value ranges (`range`) and alias
//! analysis of memory accesses (`alias`). Each is computed from scratch by `compute` and is valid
//! until the function's control flow (or, for `DefUse`, its instructions) change.

pub mod alias;
pub mod cfg;
pub mod domtree;
pub mod loops;
pub mod range;
pub mod scev;
pub mod uses;

pub use alias::{Access, AliasAnalysis, AliasResult};
pub use cfg::ControlFlowGraph;
pub use domtree::DominatorTree;
pub use loops::{Loop, LoopAnalysis};
pub use range::{MAX_TEAMS, Range, Ranges};
pub use scev::{ExitTest, Induction, LoopScev};
pub use uses::DefUse;
