//! Shared helpers for the file-test harnesses in `tests/`.
pub mod auto_offload;
pub mod harness;
pub mod programs;
