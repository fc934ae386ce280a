//! `emu`: the PTX emulator (`ompcc-emu`) as a device.
//!
//! Memory and copies go straight to an emulated [`Device`]; a program is the executable's PTX
//! modules joined by [`ptx_link`](super::ptx_link) into one emulator module (the emulator
//! decodes one module at a time), then loaded (its `.global` variables allocated and
//! initialized). Launches run the grid to completion and report the emulator's counters:
//! warp-level instructions (what profilers call `inst_executed`), global-memory requests and
//! the 32-byte sectors they touched.
//!
//! Errors name the input module and its own line: a fault reads
//! ``kernel `k` block (b,0,0) thread (t,0,0): MESSAGE at PTX line L of MODULE (file:line)``.
//!
//! Device `printf` output goes into C's `stdout` stream (not Rust's), so it lands in order with
//! the host program's own `printf` output, as with the CUDA driver.

use super::ptx_link::{self, Linked};
use super::{
    Backend, BackendError, DevPtr, DeviceAbort, LaunchDims, LaunchStats, ModuleImage, ProgramId,
};
use ompcc_emu::{Device, EmuError, LoadedModule, Module};
use std::ffi::c_void;
use std::io::{self, Write};

unsafe extern "C" {
    /// The C library's `FILE *stdout`.
    static mut stdout: *mut c_void;
    fn fwrite(ptr: *const c_void, size: usize, n: usize, stream: *mut c_void) -> usize;
    fn fflush(stream: *mut c_void) -> i32;
}

/// Writes into the C library's `stdout` stream (which locks itself per call).
struct CStdout;

impl Write for CStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // SAFETY: `stdout` is the C library's stream, valid while the process runs; reading
        // the pointer by value takes no reference to the static.
        let n = unsafe { fwrite(buf.as_ptr().cast(), 1, buf.len(), stdout) };
        if n == 0 && !buf.is_empty() {
            return Err(io::Error::other(
                "writing device printf output to stdout failed",
            ));
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        // SAFETY: as in `write`.
        if unsafe { fflush(stdout) } != 0 {
            return Err(io::Error::other("flushing stdout failed"));
        }
        Ok(())
    }
}

/// One loaded program: the emulator's module and the map back to the input modules.
struct Program {
    loaded: LoadedModule,
    linked: Linked,
}

/// The emulated device.
pub struct EmuBackend {
    device: Device,
    workers: u32,
    programs: Vec<Program>,
}

impl Default for EmuBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl EmuBackend {
    /// An emulated device running blocks on one host thread per core.
    pub fn new() -> Self {
        Self::with_settings(None, None, true)
    }

    /// An emulated device running blocks on `threads` host threads (default: one per core),
    /// stopping a launch when one block issues more than `block_limit` warp instructions, and
    /// (with `div_check`) at an integer division by zero.
    pub fn with_settings(threads: Option<u32>, block_limit: Option<u64>, div_check: bool) -> Self {
        let workers = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32));
        let mut device = Device::new();
        device.set_workers(workers);
        device.set_block_instruction_limit(block_limit);
        device.set_division_check(div_check);
        // the per-thread stack (frames and `alloca`) is the CUDA backend's setting when one
        // is given; otherwise the emulator's roomier default keeps deep recursion running
        if let Some(bytes) = std::env::var("OMPCC_STACK_SIZE")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
        {
            device.set_stack_limit(bytes);
        }
        device.set_printf_sink(Box::new(CStdout));
        EmuBackend {
            device,
            workers,
            programs: Vec::new(),
        }
    }

    fn program(&self, p: ProgramId, op: &str) -> Result<&Program, BackendError> {
        self.programs
            .get(p.0 as usize)
            .ok_or_else(|| BackendError::new(op, format!("unknown program {}", p.0)))
    }
}

/// An emulator error as one line, with PTX lines mapped back to the input module.
fn describe_error(e: &EmuError, linked: Option<&Linked>) -> String {
    let at = |line: u32| match linked {
        Some(l) => {
            let (module, line) = l.locate(line);
            format!("PTX line {line} of {module}")
        }
        None => format!("PTX line {line}"),
    };
    match e {
        EmuError::Parse { line, msg } => format!("PTX syntax error at {}: {msg}", at(*line)),
        EmuError::Decode { line, msg } => format!("PTX error at {}: {msg}", at(*line)),
        EmuError::Api(msg) => msg.clone(),
        EmuError::Fault { .. } | EmuError::Trap { .. } => {
            let mut s = String::new();
            if let Some((site, what)) = e.fault() {
                // writing to a String cannot fail
                let _ = site.describe(&mut s, what, at);
            }
            s
        }
    }
}

/// A device `abort`/`assert` is marked so that the program aborts as it would on the host.
fn emu_err(op: &str, linked: Option<&Linked>) -> impl FnOnce(EmuError) -> BackendError {
    move |e| {
        let abort = match &e {
            EmuError::Trap {
                assertion: Some(m), ..
            } => Some(DeviceAbort::Assert(m.clone())),
            EmuError::Trap { .. } => Some(DeviceAbort::Trap),
            _ => None,
        };
        BackendError {
            abort,
            ..BackendError::new(op, describe_error(&e, linked))
        }
    }
}

impl Backend for EmuBackend {
    fn describe(&self) -> String {
        format!("emu:0 (PTX emulator, {} host threads)", self.workers)
    }

    fn multiprocessors(&self) -> u32 {
        self.workers
    }

    fn reads_host_memory(&self) -> bool {
        self.device.host_memory_access()
    }

    /// The emulator reaches host memory through checked system calls (`ompcc-emu`'s
    /// `hostmem`): an inaccessible address is a fault naming it, as on device memory.
    fn share_host_memory(&mut self) -> Result<(), String> {
        self.device.set_host_memory_access(true);
        Ok(())
    }

    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, BackendError> {
        self.device
            .alloc(bytes)
            .map(|p| p.0)
            .map_err(emu_err("emu alloc", None))
    }

    fn free(&mut self, ptr: DevPtr) -> Result<(), BackendError> {
        self.device
            .free(ompcc_emu::DevPtr(ptr))
            .map_err(emu_err("emu free", None))
    }

    fn copy_to_device(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), BackendError> {
        self.device
            .copy_to_device(ompcc_emu::DevPtr(dst), src)
            .map_err(emu_err("emu copy to device", None))
    }

    fn copy_from_device(&mut self, dst: &mut [u8], src: DevPtr) -> Result<(), BackendError> {
        self.device
            .copy_from_device(dst, ompcc_emu::DevPtr(src))
            .map_err(emu_err("emu copy from device", None))
    }

    fn copy_within_device(
        &mut self,
        dst: DevPtr,
        src: DevPtr,
        bytes: u64,
    ) -> Result<(), BackendError> {
        self.device
            .copy_device_to_device(ompcc_emu::DevPtr(dst), ompcc_emu::DevPtr(src), bytes)
            .map_err(emu_err("emu device copy", None))
    }

    fn load_program(&mut self, modules: &[ModuleImage<'_>]) -> Result<ProgramId, BackendError> {
        if modules.is_empty() {
            return Err(BackendError::new("emu load", "no PTX modules"));
        }
        let linked =
            ptx_link::link(modules).map_err(|e| BackendError::new("emu link", e.to_string()))?;
        let module = Module::parse(&linked.text).map_err(emu_err("emu load", Some(&linked)))?;
        let loaded = self
            .device
            .load(&module)
            .map_err(emu_err("emu load", Some(&linked)))?;
        self.programs.push(Program { loaded, linked });
        Ok(ProgramId(self.programs.len() as u32 - 1))
    }

    fn global_address(
        &mut self,
        program: ProgramId,
        name: &str,
    ) -> Result<Option<(DevPtr, u64)>, BackendError> {
        let p = self.program(program, "emu global")?;
        Ok(p.loaded.global(name).map(|(addr, size)| (addr.0, size)))
    }

    fn launch(
        &mut self,
        program: ProgramId,
        kernel: &str,
        params: &[&[u8]],
        dims: LaunchDims,
    ) -> Result<LaunchStats, BackendError> {
        let p = self.program(program, "emu launch")?;
        let stats = self
            .device
            .launch(
                &p.loaded,
                kernel,
                [dims.teams, dims.teams_yz[0], dims.teams_yz[1]],
                [dims.threads, 1, 1],
                dims.dyn_shared_bytes,
                params,
            )
            .map_err(emu_err("emu launch", Some(&p.linked)))?;
        Ok(LaunchStats {
            instructions: Some(stats.total_warp_insts()),
            sectors: Some(stats.global_sectors),
            requests: Some(stats.global_requests),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INC: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\
        .visible .global .align 4 .b32 g = 5;\n\
        .visible .entry bump(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\
        \tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [g];\n\tst.global.u32 [%rd1+4], %r1;\n\
        \tret;\n}\n";

    fn dims() -> LaunchDims {
        LaunchDims {
            teams: 1,
            teams_yz: [1, 1],
            threads: 1,
            dyn_shared_bytes: 0,
        }
    }

    #[test]
    fn globals_copies_and_launch_stats() {
        let mut emu = EmuBackend::new();
        let p = emu
            .load_program(&[ModuleImage {
                name: "inc.c",
                ptx: INC,
            }])
            .unwrap();
        let (g, size) = emu.global_address(p, "g").unwrap().unwrap();
        assert_eq!(size, 4);
        emu.copy_to_device(g, &9u32.to_le_bytes()).unwrap();
        let buf = emu.alloc(8).unwrap();
        let stats = emu
            .launch(p, "bump", &[&buf.to_le_bytes()], dims())
            .unwrap();
        let mut out = [0u8; 8];
        emu.copy_from_device(&mut out, buf).unwrap();
        assert_eq!(out, [0, 0, 0, 0, 9, 0, 0, 0]);
        assert!(stats.instructions.unwrap() >= 4, "{stats:?}");
        assert_eq!(stats.requests, Some(2));
        assert_eq!(stats.sectors, Some(2));
        assert_eq!(emu.global_address(p, "nope").unwrap(), None);
        emu.free(buf).unwrap();
        assert!(emu.free(buf).is_err());
    }

    #[test]
    fn faults_name_kernel_thread_and_module_line() {
        let mut emu = EmuBackend::new();
        let other =
            ".version 7.0\n.target sm_70\n.address_size 64\n.visible .func f()\n{\n\tret;\n}\n";
        let p = emu
            .load_program(&[
                ModuleImage {
                    name: "other.c",
                    ptx: other,
                },
                ModuleImage {
                    name: "inc.c",
                    ptx: INC,
                },
            ])
            .unwrap();
        let buf = emu.alloc(4).unwrap();
        let err = emu
            .launch(p, "bump", &[&buf.to_le_bytes()], dims())
            .unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("emu launch failed: kernel `bump` block (0,0,0) thread (0,0,0): "),
            "{msg}"
        );
        assert!(msg.contains("out-of-bounds"), "{msg}");
        assert!(msg.ends_with("at PTX line 11 of inc.c"), "{msg}");
    }

    #[test]
    fn parse_errors_name_the_module_line() {
        let mut emu = EmuBackend::new();
        let bad = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tfrob.u32 %r1;\n}\n";
        let err = emu
            .load_program(&[
                ModuleImage {
                    name: "inc.c",
                    ptx: INC,
                },
                ModuleImage {
                    name: "bad.c",
                    ptx: bad,
                },
            ])
            .unwrap_err();
        assert!(err.to_string().contains("line 6 of bad.c"), "{err}");
    }
}
