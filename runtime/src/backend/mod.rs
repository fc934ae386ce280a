//! Device backends: the narrow interface between the mapping logic and a device.
//!
//! One [`Backend`] value drives one device. A backend knows nothing of OpenMP: it allocates,
//! frees and copies bytes at device addresses ([`DevPtr`]), loads a program (all PTX modules of
//! the executable) and launches kernels. The runtime owns every allocation it makes and frees
//! each exactly once; a backend may assume that.
//!
//! Backends: `cuda` (the driver API, loaded at run time), `emu` (the PTX emulator crate
//! `ompcc-emu`, with [`ptx_link`] joining the modules of a program) and `sim` (separate host
//! buffers and kernels written in Rust: the mapping tests observe copies through it).

pub mod cuda;
pub mod emu;
mod pool;
pub mod ptx_link;
pub mod sim;

use std::fmt;

/// An address in a device's memory. For the `sim` and `emu` backends it is whatever address
/// space the backend invents; the runtime only does offset arithmetic on it.
pub type DevPtr = u64;

/// A program loaded on a device by [`Backend::load_program`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramId(pub u32);

/// One PTX module of the executable (one per translation unit with device code).
#[derive(Clone, Copy, Debug)]
pub struct ModuleImage<'a> {
    /// Where the module came from (source file), for error messages.
    pub name: &'a str,
    /// PTX text, without a trailing NUL.
    pub ptx: &'a str,
}

/// Launch geometry: a grid of `teams` x `teams_yz` blocks of `threads` threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchDims {
    /// Blocks in x (all the OpenMP teams in a one-dimensional grid).
    pub teams: u32,
    /// Blocks in y and z: `[1, 1]` but for a one-iteration variant of a collapsed nest.
    pub teams_yz: [u32; 2],
    /// Threads per block (OpenMP thread limit).
    pub threads: u32,
    /// Dynamic shared memory per block, bytes.
    pub dyn_shared_bytes: u32,
}

/// What a backend can tell about one launch beyond its wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    /// Instructions executed (the emulator counts them).
    pub instructions: Option<u64>,
    /// Global-memory sectors touched (32-byte units).
    pub sectors: Option<u64>,
    /// Global-memory warp-level requests; `sectors / requests` measures coalescing.
    pub requests: Option<u64>,
}

/// A failed device operation. `Display` gives one line; [`BackendError::log`] may add a
/// multi-line log (the PTX JIT's error log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError {
    /// The operation or driver call that failed, e.g. `cuMemAlloc`.
    pub op: String,
    /// Symbolic error name, e.g. `CUDA_ERROR_OUT_OF_MEMORY`, when the device has one.
    pub code: Option<String>,
    /// Human-readable explanation.
    pub message: String,
    /// Extra output to show after the message (JIT log), possibly empty.
    pub log: String,
    /// The kernel stopped because the device code called `abort` or failed an `assert`.
    pub abort: Option<DeviceAbort>,
}

/// How device code ended a kernel on purpose; the program then aborts as on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceAbort {
    /// `abort()` or `trap`, or an `assert` whose message the device already printed (CUDA).
    Trap,
    /// A failed `assert` whose message (`file:line: function: Assertion `expr' failed.`) is
    /// still to be printed.
    Assert(String),
}

impl BackendError {
    /// An error without a symbolic code or log.
    pub fn new(op: impl Into<String>, message: impl Into<String>) -> Self {
        BackendError {
            op: op.into(),
            code: None,
            message: message.into(),
            log: String::new(),
            abort: None,
        }
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed: ", self.op)?;
        if let Some(code) = &self.code {
            write!(f, "{code} ({})", self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

/// One device. Implemented by `cuda`, `emu` and `sim`.
///
/// The `emu` and `sim` backends allocate in their own address spaces; `emu` parses the PTX
/// and its `launch` returns the emulator's counters in [`LaunchStats`].
/// Every method is synchronous: when it returns, the work is done and visible.
pub trait Backend: Send {
    /// One line naming the device, e.g. `cuda:0 NVIDIA H100 (sm_90)`.
    fn describe(&self) -> String;
    /// Number of multiprocessors; the default grid is a few teams per multiprocessor.
    fn multiprocessors(&self) -> u32 {
        1
    }
    /// Whether kernels can read and write ordinary (pageable) host memory at its host
    /// address (`omp_target_is_accessible`). The emulator's address space is its own unless
    /// the program requires unified shared memory; the simulator's is its own unless built
    /// with pageable memory access.
    fn reads_host_memory(&self) -> bool {
        false
    }
    /// Lets kernels use host memory at host addresses (`requires unified_shared_memory`):
    /// called once, before the first program loads, when the program requires it. `Err`
    /// says why the device cannot.
    fn share_host_memory(&mut self) -> Result<(), String> {
        if self.reads_host_memory() {
            Ok(())
        } else {
            Err("its kernels cannot access host memory".into())
        }
    }
    /// Allocates `bytes` (> 0) of device memory, aligned to at least 256 bytes.
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, BackendError>;
    /// Frees an allocation returned by [`Backend::alloc`].
    fn free(&mut self, ptr: DevPtr) -> Result<(), BackendError>;
    /// Allocates `bytes` (> 0) that the host and the device both use at one address, aligned
    /// to at least 256 bytes (`omp_target_alloc` under unified shared memory). `None`: the
    /// backend has no such allocator, and the runtime hands out host memory, which kernels
    /// reach at its host address once [`Backend::share_host_memory`] succeeded.
    fn alloc_managed(&mut self, _bytes: u64) -> Option<Result<DevPtr, BackendError>> {
        None
    }
    /// Frees an allocation returned by [`Backend::alloc_managed`].
    fn free_managed(&mut self, ptr: DevPtr) -> Result<(), BackendError> {
        self.free(ptr)
    }
    /// Copies `src` to device memory at `dst`.
    fn copy_to_device(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), BackendError>;
    /// Copies device memory at `src` into `dst`.
    fn copy_from_device(&mut self, dst: &mut [u8], src: DevPtr) -> Result<(), BackendError>;
    /// Copies `bytes` within the device. The default stages through host memory.
    fn copy_within_device(
        &mut self,
        dst: DevPtr,
        src: DevPtr,
        bytes: u64,
    ) -> Result<(), BackendError> {
        let len = usize::try_from(bytes)
            .map_err(|_| BackendError::new("device copy", "size does not fit in memory"))?;
        let mut staging = vec![0u8; len];
        self.copy_from_device(&mut staging, src)?;
        self.copy_to_device(dst, &staging)
    }
    /// Loads the executable's PTX modules as one program (linked together when there are
    /// several, so `extern` device functions and globals resolve across modules).
    fn load_program(&mut self, modules: &[ModuleImage<'_>]) -> Result<ProgramId, BackendError>;
    /// Device address and size of a global variable of a loaded program, `None` if absent.
    fn global_address(
        &mut self,
        program: ProgramId,
        name: &str,
    ) -> Result<Option<(DevPtr, u64)>, BackendError>;
    /// The most threads per block `kernel` of `program` can be launched with. A GPU lowers
    /// it below 1024 when the kernel's registers per thread would not fit the multiprocessor.
    fn max_threads(&mut self, _program: ProgramId, _kernel: &str) -> Result<u32, BackendError> {
        Ok(1024)
    }
    /// Teams of a launch that names none: as many as the device runs at once (a kernel's
    /// distribute loops stride over the grid, so more would only queue; fewer leave
    /// multiprocessors or memory bandwidth idle). By default a few per multiprocessor.
    fn default_teams(
        &mut self,
        _program: ProgramId,
        _kernel: &str,
        _threads: u32,
        _dyn_shared_bytes: u32,
    ) -> Result<u32, BackendError> {
        Ok(4 * self.multiprocessors())
    }
    /// Runs kernel `kernel` of `program` to completion. `params[i]` holds the bytes of
    /// parameter `i` exactly as the kernel's `.param` declares them (pointers are 8 bytes).
    fn launch(
        &mut self,
        program: ProgramId,
        kernel: &str,
        params: &[&[u8]],
        dims: LaunchDims,
    ) -> Result<LaunchStats, BackendError>;
}
