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
//! Entry points: [`plan`] and [`plan_with_source`] (the latter names kernels
//! `__omp_offload_<function>_l<line>`, with a hash of the unit after the function name when
//! the function is `static` or `inline`, since kernel names must be unique in the program the
//! units' device code is linked into; without a source map the suffix is `_r<n>`, the region's
//! ordinal in its function). What the analysis decides:
//! - modes: combined SPMD forms (`target teams distribute parallel for [simd]`, `target
//!   parallel for [simd]`, `target teams loop`, `target parallel loop`, `target teams
//!   distribute [simd]`) and `target` / `target teams` / `target parallel` whose body is
//!   exactly such a construct are `Spmd` with a loop nest; `target parallel` otherwise is
//!   `Spmd` without one (team 0 runs it); `target teams` with other code is `Generic`;
//!   `target` with other code, and `target simd` (with its loop nest), are `Serial`;
//! - params, in order of first reference: `is_device_ptr` -> Value; `has_device_addr` ->
//!   DeviceAddr (Value for a section of a pointer); explicit map -> Ref, or DevicePtr for a
//!   pointer mapped through a section; target `firstprivate` scalars -> Value, aggregates of
//!   known size (and `defaultmap(firstprivate)` aggregates) -> Copy; reduction and lastprivate variables of combined constructs -> Ref tofrom;
//!   implicit pointers -> DevicePtr (zero-length), scalars -> Value unless `defaultmap` says
//!   otherwise, arrays/structs/unions -> Ref tofrom; identifiers in the VLA sizes of a
//!   captured variable's type are captured too; `declare target` globals, `private` items
//!   and loop iteration variables are no params;
//! - diagnostics `E0901`-`E0907`: nested device constructs, reductions over members or
//!   elements, unnamed map items, thread-locals, firstprivate of variable-length types,
//!   implicit maps of unsized arrays, `defaultmap(none)` violations.
//!
//! [`map_grids`] decides which loop of each SPMD nest the grid's threads take (parallel loop
//! swap, from the access analysis; `-Rpass=coalesce` remarks), and which inner reduction loop
//! a group of lanes shares (warp-cooperative inner loops).
//!
//! [`unmapped_pointer_warnings`] (W0912) finds pointers a region uses that nothing maps.
//!
//! Everything refers back to the AST by reference (`'a` is the translation unit's lifetime) and
//! to sema's symbols by `SymbolId`; names are the list items as written.

mod analyze;
mod collapse;
mod coop;
mod disjoint;
mod generic;
mod grid;
mod layout;
mod link;
mod mapcheck;
mod mapper;
mod metadirective;
mod one_iteration;
mod plan;
pub mod selector;
mod tiles;
mod trip;
mod variant;
pub mod walk;

pub use analyze::{
    base_ident, collapse_of, fnv1a, is_section_chain, is_target_region, item_text, loop_var,
    nest_loops, nest_unroll, plan, plan_with_source, strip_compound, unit_id,
};
pub use collapse::FEW_ITERATIONS;
pub use generic::{forkable, generic_region_calls, generic_region_forks, parallel_if, sizes_team};
pub use grid::{GridOptions, GridRemark, map_grids};
pub use mapcheck::{
    requires_unified_address, requires_unified_shared_memory, unmapped_pointer_warnings,
};
pub use mapper::{TextEdit, expand_mappers};
pub use metadirective::{MetaEdit, resolve_metadirectives};
pub use one_iteration::{ONE_ITERATION_SUFFIX, choose_one_iteration, one_iteration_grid};
pub use plan::*;
pub use tiles::{SHARED_TILES_REMARK, TILE_THREADS, choose_tiles};
pub use trip::nest_trips;
pub use variant::{
    DispatchCall, device_dispatch_calls, device_variant_calls, host_dispatch_calls,
    is_declare_variant, selects_dispatch, target_call as dispatch_target_call,
    target_call_parts as dispatch_target_call_parts,
};
