//! IR optimization passes and the pass manager.
//!
//! Each pass is a plain function over one `ompcc_ir::Function` (inlining: over the `Module`)
//! that keeps the IR valid (the manager can verify after every pass). `optimize` runs the
//! pipeline of an optimization level with its `Knobs`. Every pass has a plain form and a
//! `_with_remarks` form (what the manager calls) that reports what it did to a `Remarks` sink.

pub mod cache;
pub mod contract;
pub mod dce;
pub mod divbypass;
pub mod divrem;
pub mod gvn;
pub mod inline;
pub mod knobs;
pub mod licm;
pub mod manager;
pub mod mem2reg;
pub mod memopt;
pub mod narrow;
pub mod narrowiv;
pub mod nary;
pub mod readonly;
pub mod reassoc;
pub mod remarks;
pub mod rotate;
pub mod sccp;
pub mod simplify;
pub mod simplifycfg;
pub mod slsr;
pub mod spaces;
pub mod speculate;
pub mod sroa;
pub mod unroll;
mod util;

pub use cache::{cache, cache_with_remarks};
pub use contract::{contract, contract_with_remarks};
pub use dce::{dce, dce_with_remarks};
pub use divbypass::{divbypass, divbypass_with_remarks};
pub use divrem::{divrem, divrem_with_remarks};
pub use gvn::{gvn, gvn_with_remarks};
pub use inline::{inline, inline_with_remarks};
pub use knobs::{FpContract, KNOB_NAMES, Knobs, OrderedCoop, WarpCoop};
pub use licm::{licm, licm_with_remarks};
pub use manager::{
    PASSES, Pass, PassError, PassFn, PassManager, PrintFilter, level_of_opt, lookup,
    parse_pipeline, pipeline_for_level, pipeline_for_opt,
};
pub use mem2reg::{mem2reg, mem2reg_with_remarks};
pub use memopt::{dse, dse_with_remarks, loadfwd, loadfwd_with_remarks};
pub use narrow::{narrow, narrow_with_remarks};
pub use narrowiv::{narrowiv, narrowiv_with_remarks};
pub use readonly::{readonly, readonly_with_remarks};
pub use reassoc::{reassoc, reassoc_with_remarks};
pub use remarks::{Remark, RemarkKind, Remarks};
pub use rotate::{rotate, rotate_with_remarks};
pub use sccp::{sccp, sccp_with_remarks};
pub use simplify::{simplify, simplify_with_remarks};
pub use simplifycfg::{simplifycfg, simplifycfg_with_remarks};
pub use slsr::{slsr, slsr_with_remarks};
pub use spaces::{spaces, spaces_with_remarks};
pub use speculate::{speculate, speculate_with_remarks};
pub use sroa::{sroa, sroa_with_remarks};
pub use unroll::{unroll, unroll_with_remarks};

/// Runs the pipeline of optimization level `level` over every function of `module`, verifying
/// after each pass when `verify` is set.
pub fn optimize(module: &mut ompcc_ir::Module, level: u8, verify: bool) -> Result<(), PassError> {
    let mut pm = PassManager::for_level(level);
    pm.verify = verify;
    pm.run_module(module)
}

/// `optimize` with `knobs` instead of the level's defaults (e.g. `fp-contract=off` to compare
/// bit for bit with a host build that does not contract).
pub fn optimize_with(
    module: &mut ompcc_ir::Module,
    level: u8,
    knobs: Knobs,
    verify: bool,
) -> Result<(), PassError> {
    let mut pm = PassManager::for_level(level);
    pm.knobs = knobs;
    pm.verify = verify;
    pm.run_module(module)
}
