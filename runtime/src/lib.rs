//! libompcc_rt: the runtime that generated code calls to map data and launch kernels.
//!
//! Layers, bottom up: [`backend`] (one device: memory, copies, programs, launches; `cuda`,
//! `emu`, `sim`), [`table`] (the present table), [`runtime`] (OpenMP mapping rules,
//! device selection, launches), [`abi`] (the C entry points of `include/ompcc_rt.h` and the
//! host OpenMP device API), [`host_task`] (the 5.1/5.2 routines that need libgomp's tasks). [`options`] reads the environment; [`log`] writes
//! stderr lines (`OMPCC_INFO` categories, MPI ranks); [`profile`] keeps the
//! `OMPCC_PROFILE` counters.
//!
//! Symbol strategy: the `omp_*` device-API functions are defined here with their standard
//! names. The driver links `libompcc_rt.a` before `-lgomp` (which `-fopenmp` appends last),
//! so a program's references resolve to these definitions; libgomp's shared-library
//! definitions are then unused (a definition in the executable takes precedence over a
//! shared library's, without a duplicate-symbol error). See ARCHITECTURE.md.

pub mod abi;
pub mod auto_offload;
pub mod backend;
pub mod flags;
pub mod host_task;
mod indirect;
mod launch_shape;
pub mod log;
pub mod options;
pub mod profile;
pub mod runtime;
pub mod table;

pub use abi::{install, set_record_errors, take_errors, with_runtime};
pub use backend::{
    Backend, BackendError, DevPtr, DeviceAbort, LaunchDims, LaunchStats, ModuleImage, ProgramId,
};
pub use runtime::{DEVICE_DEFAULT, INITIAL_DEVICE, RtError, Runtime};
