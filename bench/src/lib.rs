//! Shared pieces of the benchmark runners: reading what the tools report (PTX text, `ptxas -v`,
//! the runtime's `OMPCC_PROFILE` JSON, program output) and the statistics the tables use.
//!
//! Every parser here takes text and returns values or an error string; the runners do the
//! process handling. Nothing here panics on malformed input.

pub mod output;
pub mod plot;
pub mod process;
pub mod profile;
pub mod ptx;
pub mod ptxas;
pub mod runner;
pub mod sass;
pub mod stats;
