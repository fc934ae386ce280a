//! IR optimization passes and the pass manager.
//!
//! Each pass is a plain function over one `ompcc_ir::Function` that keeps the IR valid (the
//! manager can verify after every pass). `optimize` runs the pipeline of an optimization level.

pub mod dce;
pub mod gvn;
pub mod licm;
pub mod manager;
pub mod mem2reg;
pub mod simplify;
pub mod simplifycfg;
pub mod spaces;
pub mod sroa;
mod util;

pub use dce::dce;
pub use gvn::gvn;
pub use licm::licm;
pub use manager::{
    PASSES, Pass, PassError, PassManager, PrintFilter, lookup, parse_pipeline, pipeline_for_level,
    pipeline_for_opt,
};
pub use mem2reg::mem2reg;
pub use simplify::simplify;
pub use simplifycfg::simplifycfg;
pub use spaces::spaces;
pub use sroa::sroa;

/// Runs the pipeline of optimization level `level` over every function of `module`, verifying
/// after each pass when `verify` is set.
pub fn optimize(module: &mut ompcc_ir::Module, level: u8, verify: bool) -> Result<(), PassError> {
    let mut pm = PassManager::new(pipeline_for_level(level));
    pm.verify = verify;
    pm.run_module(module)
}
