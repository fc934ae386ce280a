//! Shared helpers for the file-test harnesses in `tests/`.
