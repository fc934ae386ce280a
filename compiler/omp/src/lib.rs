//! OpenMP semantics for offloading: which constructs of a checked translation unit involve the
//! device, and the plan both halves of the compiler follow for each of them.
//!
//! [`plan`] walks a translation unit and returns an [`OffloadPlan`]:
//! - one [`TargetRegion`] per `target` construct (combined forms included): the kernel it
//!   becomes, its execution mode, and its kernel parameters ([`Param`]) in order, each with how
//!   it is passed and which map entry feeds it;
//! - one [`DataConstruct`] per `target data` / `enter data` / `exit data` / `update`.
//!
//! The contract between the halves: the device side (`ompcc-lower`) outlines each region into a
//! kernel whose parameters are exactly `region.params`, in order; the host side (`ompcc-host`)
//! passes one `TARGET_PARAM` map entry per param, in the same order, plus the map entries that
//! feed no parameter. Neither half re-derives data-sharing.
//!
//! Everything refers back to the AST by reference (`'a` is the translation unit's lifetime) and
//! to sema's symbols by `SymbolId`; names are the list items as written.

mod plan;

pub use plan::*;
