//! PTX emulator: parses PTX, decodes it once, executes grids with checked memory and counters.
//!
//! Use: `Module::parse` the PTX text, create a `Device`, `alloc`/`copy_to_device` buffers,
//! `load` the module (allocates and initializes its `.global`/`.const` variables), then
//! `launch` kernels with one byte slice per kernel parameter. Every device memory access is
//! checked; a faulting kernel returns `EmuError::Fault` naming kernel, block, thread, address
//! and PTX line (and the `.loc` source line). `launch` returns per-launch counters
//! (`LaunchStats`): instructions by class, global-memory requests/sectors (coalescing),
//! shared-memory requests/wavefronts (bank conflicts) and divergent branches.
//!
//! Supported PTX (ISA 7.x/8.x as nvcc and clang emit it for sm_70+):
//! - structure: `.entry`/`.func` with the `.param` calling convention (recursion included),
//!   `.reg` ranges, `.global`/`.const`/`.shared` (static and dynamic)/`.local`/`.param`
//!   variables with initializers, `.loc`/`.file` line info, scoped `{ }` blocks;
//! - data: mov (with vector pack/unpack), ld/st/ldu in every space and generic (`.nc`, v2/v4),
//!   cvta, cvt between all integer and float types (f16 too) with every rounding mode and .sat;
//! - integer: add/sub/mul(.lo/.hi/.wide)/mul24/mad/div/rem/abs/neg/min/max/add.sat/sub.sat,
//!   carry chains (add.cc/addc/sub.cc/subc/mad.cc/madc), and/or/xor/not/cnot/shl/shr, popc,
//!   clz, brev, bfind, bfe, bfi, prmt;
//! - float (f32/f64, .ftz/.sat, directed rounding for f32): add/sub/mul/div/fma/mad/min/max/
//!   abs/neg/copysign/sqrt/rcp/rsqrt/sin/cos/ex2/lg2/tanh, testp;
//! - compare/select: setp/set with every comparison and .and/.or/.xor, selp, slct;
//! - stack: alloca (per-thread dynamic stack above the frame, checked against the stack
//!   limit), stacksave, stackrestore;
//! - control and sync: bra, brx.idx, call (direct and through function pointers), ret, exit,
//!   trap, bar/barrier (ids, counts, arrive, red.popc/and/or), bar.warp.sync, membar/fence,
//!   atom/red (global, shared, generic; 32/64-bit integer ops, f32/f64 add, cas, exch),
//!   shfl.sync, vote.sync, match.sync, activemask, special registers, and device `printf`
//!   through `vprintf`.
//!
//! Not supported (decode errors naming the instruction): f16 arithmetic, texture/surface
//! instructions, prmt modes other than the default.
//!
//! Invariants: nothing here panics on user input (PTX text, pointers, launch geometry);
//! device addresses are never reused after `free`, so stale pointers fault.

mod alu;
mod decode;
mod error;
mod exec;
mod hostmem;
mod lex;
mod memory;
mod parse;
mod printf;
mod program;

use std::io::Write;
use std::sync::{Arc, Mutex};

pub use error::{EmuError, FaultSite};
pub use exec::LaunchStats;
pub use program::InstClass;

use memory::GlobalMem;
use program::Program;

/// A decoded PTX module, ready to be loaded on any `Device`.
#[derive(Clone, Debug)]
pub struct Module {
    prog: Arc<Program>,
}

/// Placement of one kernel parameter in the parameter buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    pub offset: u32,
    pub size: u32,
}

/// Static resources of a kernel, as the emulator lays them out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    pub params: Vec<ParamInfo>,
    /// Size of the parameter buffer.
    pub param_bytes: u32,
    /// Virtual registers declared in the kernel body (not counting called functions).
    pub virtual_registers: u32,
    /// Per-thread local memory of the kernel frame plus module `.local` variables.
    pub local_bytes: u32,
    /// Static shared memory of the module (every kernel sees all of it).
    pub static_shared_bytes: u32,
}

impl Module {
    /// Parses and decodes PTX text.
    pub fn parse(ptx: &str) -> Result<Module, EmuError> {
        let ast = parse::parse(ptx)?;
        let prog = decode::decode(&ast)?;
        Ok(Module {
            prog: Arc::new(prog),
        })
    }

    /// Names of the kernels (`.entry` functions) with bodies.
    pub fn kernels(&self) -> Vec<&str> {
        self.prog
            .funcs
            .iter()
            .filter(|f| f.is_kernel && f.entry != u32::MAX)
            .map(|f| f.name.as_str())
            .collect()
    }

    /// Parameter layout of a kernel.
    pub fn kernel_params(&self, kernel: &str) -> Option<Vec<ParamInfo>> {
        let f = self
            .prog
            .funcs
            .iter()
            .find(|f| f.is_kernel && f.name == kernel)?;
        Some(
            f.params
                .iter()
                .map(|p| ParamInfo {
                    offset: p.offset,
                    size: p.size,
                })
                .collect(),
        )
    }

    /// Static resources of a kernel.
    pub fn kernel_info(&self, kernel: &str) -> Option<KernelInfo> {
        let f = self
            .prog
            .funcs
            .iter()
            .find(|f| f.is_kernel && f.name == kernel)?;
        Some(KernelInfo {
            params: f
                .params
                .iter()
                .map(|p| ParamInfo {
                    offset: p.offset,
                    size: p.size,
                })
                .collect(),
            param_bytes: f.param_size,
            virtual_registers: f.nregs,
            local_bytes: f.frame_size + self.prog.static_local,
            static_shared_bytes: self.prog.static_shared,
        })
    }

    /// Number of decoded instructions (all functions).
    pub fn instruction_count(&self) -> usize {
        self.prog.code.len()
    }
}

/// A device address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevPtr(pub u64);

impl DevPtr {
    /// The address `bytes` further on.
    pub fn offset(self, bytes: u64) -> DevPtr {
        DevPtr(self.0.wrapping_add(bytes))
    }
}

/// A module whose global variables live in one device's memory.
#[derive(Debug)]
pub struct LoadedModule {
    module: Module,
    gaddrs: Vec<u64>,
    device_id: u64,
}

impl LoadedModule {
    /// Address and size of a `.global`/`.const` variable (declare-target globals).
    pub fn global(&self, name: &str) -> Option<(DevPtr, u64)> {
        let i = self
            .module
            .prog
            .globals
            .iter()
            .position(|g| g.name == name)?;
        Some((DevPtr(self.gaddrs[i]), self.module.prog.globals[i].size))
    }

    /// The module this was loaded from.
    pub fn module(&self) -> &Module {
        &self.module
    }
}

/// The emulated device: global memory, a printf sink and launch settings.
pub struct Device {
    mem: GlobalMem,
    /// Created by the first load of a module that calls `malloc`/`free`.
    heap: Option<Mutex<memory::DeviceHeap>>,
    sink: Mutex<Box<dyn Write + Send>>,
    workers: u32,
    stack_limit: usize,
    max_block_insts: u64,
    div_check: bool,
    id: u64,
}

impl Default for Device {
    fn default() -> Self {
        Device::new()
    }
}

static NEXT_DEVICE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Size of the device heap (CUDA's default `cudaLimitMallocHeapSize`).
const HEAP_BYTES: u64 = 8 << 20;

/// Most threads in a block.
const MAX_BLOCK_THREADS: u32 = 1024;
/// Most dynamic shared memory per block.
const MAX_DYN_SHARED: u32 = 227 * 1024;

impl Device {
    /// A device with empty memory, printf to stdout, one worker per host core.
    pub fn new() -> Device {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        Device {
            mem: GlobalMem::new(),
            heap: None,
            sink: Mutex::new(Box::new(std::io::stdout())),
            workers,
            stack_limit: 2 * decode::MAX_LOCAL as usize,
            max_block_insts: u64::MAX,
            div_check: true,
            id: NEXT_DEVICE.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Number of host threads that run blocks (at least 1).
    pub fn set_workers(&mut self, n: u32) {
        self.workers = n.max(1);
    }

    /// Stops a launch with an error when one block issues more than `limit` warp
    /// instructions (a guard against endless loops); unlimited by default.
    pub fn set_block_instruction_limit(&mut self, limit: Option<u64>) {
        self.max_block_insts = limit.unwrap_or(u64::MAX);
    }

    /// Whether an integer division or remainder by zero stops the launch with a fault naming
    /// the kernel, thread and line (default). A GPU does not trap: without the check the
    /// quotient is all ones and the remainder the dividend, as there.
    pub fn set_division_check(&mut self, on: bool) {
        self.div_check = on;
    }

    /// Per-thread local memory in bytes: the kernel's frame, the frames of the functions it
    /// calls and its `alloca` blocks (CUDA's `cudaLimitStackSize`). A call or an `alloca`
    /// that would pass it stops the launch with a stack overflow error. Default 256 KiB.
    pub fn set_stack_limit(&mut self, bytes: usize) {
        self.stack_limit = bytes;
    }

    /// Whether kernels read and write the host process's memory at its own addresses
    /// (`requires unified_shared_memory`): an address outside device memory is then a host
    /// address, accessed safely (an inaccessible one is a fault naming it, never a crash).
    /// Off by default: such an address faults as unmapped, which catches missing maps.
    pub fn set_host_memory_access(&mut self, on: bool) {
        self.mem.set_host_access(on);
    }

    /// See [`Device::set_host_memory_access`].
    pub fn host_memory_access(&self) -> bool {
        self.mem.host_access()
    }

    /// Where device `printf` output goes. Like CUDA, output is buffered during a launch and
    /// written when it ends (also when it fails), block by block in block-index order.
    pub fn set_printf_sink(&mut self, sink: Box<dyn Write + Send>) {
        self.sink = Mutex::new(sink);
    }

    /// Allocates zeroed device memory.
    pub fn alloc(&mut self, bytes: u64) -> Result<DevPtr, EmuError> {
        self.mem
            .alloc(bytes)
            .map(DevPtr)
            .ok_or_else(|| EmuError::api(format!("cannot allocate {bytes} bytes of device memory")))
    }

    /// Frees an allocation made by `alloc`.
    pub fn free(&mut self, p: DevPtr) -> Result<(), EmuError> {
        if self.mem.free(p.0) {
            Ok(())
        } else {
            Err(EmuError::api(format!(
                "free of 0x{:x}, which is not an allocation",
                p.0
            )))
        }
    }

    /// Size of the allocation starting at `p`.
    pub fn allocation_size(&self, p: DevPtr) -> Option<u64> {
        self.mem.size_of(p.0)
    }

    /// Copies host bytes to device memory (`dst` may point inside an allocation).
    pub fn copy_to_device(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), EmuError> {
        if src.is_empty() {
            return Ok(());
        }
        self.mem.copy_in(dst.0, src).map_err(|_| {
            EmuError::api(format!(
                "copy of {} bytes to 0x{:x} is outside device allocations",
                src.len(),
                dst.0
            ))
        })
    }

    /// Copies device memory to host bytes.
    pub fn copy_from_device(&self, dst: &mut [u8], src: DevPtr) -> Result<(), EmuError> {
        if dst.is_empty() {
            return Ok(());
        }
        self.mem.copy_out(src.0, dst).map_err(|_| {
            EmuError::api(format!(
                "copy of {} bytes from 0x{:x} is outside device allocations",
                dst.len(),
                src.0
            ))
        })
    }

    /// Sets `len` bytes at `dst` to `byte`.
    pub fn memset(&mut self, dst: DevPtr, byte: u8, len: u64) -> Result<(), EmuError> {
        let bytes = usize::try_from(len).map_err(|_| EmuError::api("memset length too large"))?;
        self.copy_to_device(dst, &vec![byte; bytes])
    }

    /// Copies `len` bytes between device addresses (the ranges may overlap).
    pub fn copy_device_to_device(
        &mut self,
        dst: DevPtr,
        src: DevPtr,
        len: u64,
    ) -> Result<(), EmuError> {
        let bytes = usize::try_from(len).map_err(|_| EmuError::api("copy length too large"))?;
        let mut tmp = vec![0u8; bytes];
        self.copy_from_device(&mut tmp, src)?;
        self.copy_to_device(dst, &tmp)
    }

    /// Allocates and initializes the module's global variables on this device.
    pub fn load(&mut self, m: &Module) -> Result<LoadedModule, EmuError> {
        let prog = &m.prog;
        if prog.uses_heap && self.heap.is_none() {
            let base = self.alloc(HEAP_BYTES)?;
            self.heap = Some(Mutex::new(memory::DeviceHeap::new(base.0, HEAP_BYTES)));
        }
        let mut gaddrs = Vec::with_capacity(prog.globals.len());
        for g in &prog.globals {
            if g.align > 256 {
                return Err(EmuError::api(format!(
                    "global `{}` needs alignment {}, more than 256",
                    g.name, g.align
                )));
            }
            let p = self.alloc(g.size)?;
            gaddrs.push(p.0);
        }
        for (g, &addr) in prog.globals.iter().zip(&gaddrs) {
            let mut bytes = g.init.clone();
            for &(off, target, add) in &g.relocs {
                let v = gaddrs[target as usize].wrapping_add(add as u64);
                if let Some(s) = bytes.get_mut(off as usize..off as usize + 8) {
                    s.copy_from_slice(&v.to_le_bytes());
                }
            }
            bytes.truncate(g.size as usize);
            self.copy_to_device(DevPtr(addr), &bytes)?;
        }
        Ok(LoadedModule {
            module: m.clone(),
            gaddrs,
            device_id: self.id,
        })
    }

    /// Runs `kernel` on a `grid` of blocks of `block` threads with `dyn_shared` bytes of
    /// dynamic shared memory; `args` holds the bytes of each kernel parameter in order.
    pub fn launch(
        &self,
        m: &LoadedModule,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        dyn_shared: u32,
        args: &[&[u8]],
    ) -> Result<LaunchStats, EmuError> {
        if m.device_id != self.id {
            return Err(EmuError::api("module was loaded on another device"));
        }
        let prog = &m.module.prog;
        let Some(ki) = prog
            .funcs
            .iter()
            .position(|f| f.is_kernel && f.name == kernel && f.entry != u32::MAX)
        else {
            return Err(EmuError::api(format!(
                "no kernel named `{kernel}` in the module"
            )));
        };
        let kf = &prog.funcs[ki];
        if grid.contains(&0) || block.contains(&0) {
            return Err(EmuError::api(format!(
                "launch of `{kernel}` with an empty grid or block"
            )));
        }
        let threads = block[0] as u64 * block[1] as u64 * block[2] as u64;
        if threads > MAX_BLOCK_THREADS as u64 || block[2] > 64 {
            return Err(EmuError::api(format!(
                "launch of `{kernel}`: block of {threads} threads exceeds {MAX_BLOCK_THREADS}"
            )));
        }
        if grid[1] > 65535 || grid[2] > 65535 {
            return Err(EmuError::api(format!(
                "launch of `{kernel}`: grid y/z dimension above 65535"
            )));
        }
        if dyn_shared > MAX_DYN_SHARED {
            return Err(EmuError::api(format!(
                "launch of `{kernel}`: {dyn_shared} bytes of dynamic shared memory exceed {MAX_DYN_SHARED}"
            )));
        }
        if args.len() != kf.params.len() {
            return Err(EmuError::api(format!(
                "kernel `{kernel}` takes {} parameters, {} given",
                kf.params.len(),
                args.len()
            )));
        }
        let mut params = vec![0u8; kf.param_size as usize];
        for (i, (a, p)) in args.iter().zip(&kf.params).enumerate() {
            if a.len() != p.size as usize {
                return Err(EmuError::api(format!(
                    "kernel `{kernel}` parameter {i} is {} bytes, {} given",
                    p.size,
                    a.len()
                )));
            }
            params[p.offset as usize..(p.offset + p.size) as usize].copy_from_slice(a);
        }
        let launch = exec::Launch {
            prog,
            kernel: ki as u32,
            gaddrs: &m.gaddrs,
            mem: &self.mem,
            params: &params,
            grid,
            block,
            dyn_shared,
            sink: &self.sink,
            workers: self.workers,
            stack_limit: self.stack_limit,
            max_block_insts: self.max_block_insts,
            div_check: self.div_check,
            heap: self.heap.as_ref(),
        };
        let r = exec::run_grid(&launch);
        // printf output is best effort, like the device's
        let _ = self.sink.lock().unwrap_or_else(|p| p.into_inner()).flush();
        r
    }
}
