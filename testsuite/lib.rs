//! Shared helpers for the file-test harnesses in `tests/`.
pub mod harness;
pub mod programs;
