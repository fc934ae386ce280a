//! Shared helpers for the runtime's integration tests: a process-wide lock (the runtime is a
//! global), installing a fresh runtime over a sim device, and building C map entries.
#![allow(dead_code)]

use ompcc_rt::abi::{KernelDescC, MapEntryC, ModuleDescC, ompcc_rt_register_module};
use ompcc_rt::backend::sim::SimBackend;
use ompcc_rt::options::Options;
use ompcc_rt::{Backend, Runtime};
use std::ffi::{CString, c_void};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

static LOCK: Mutex<()> = Mutex::new(());

/// Installs a fresh runtime with `devices` and `options`, recording errors instead of exiting.
pub fn setup_with(options: Options, devices: Vec<Box<dyn Backend>>) -> MutexGuard<'static, ()> {
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    ompcc_rt::install(Runtime::new(options, Some(devices)));
    ompcc_rt::set_record_errors(true);
    ompcc_rt::take_errors();
    guard
}

/// A fresh runtime over one sim device.
pub fn setup(sim: SimBackend) -> MutexGuard<'static, ()> {
    setup_with(Options::default(), vec![Box::new(sim)])
}

/// Leaks a C string (tests only; entries must outlive calls).
pub fn c(s: &str) -> *const std::ffi::c_char {
    CString::new(s).unwrap().into_raw()
}

/// A map entry for `len` elements of `T` starting at `p`, with base = begin.
pub fn map<T>(p: *const T, len: usize, flags: u64, name: &str) -> MapEntryC {
    MapEntryC {
        base: p as *mut c_void,
        begin: p as *mut c_void,
        size: (len * std::mem::size_of::<T>()) as u64,
        flags,
        name: c(name),
        loc: c("test.c:1:1"),
    }
}

/// Registers a module with the given kernels (name, parameter sizes); returns its id.
pub fn register(kernels: &[(&str, &[u32])]) -> i32 {
    let descs: Vec<KernelDescC> = kernels
        .iter()
        .map(|(name, sizes)| KernelDescC {
            name: c(name),
            num_params: sizes.len() as u32,
            param_sizes: sizes.to_vec().leak().as_ptr(),
        })
        .collect();
    let ptx = ".version 7.0\n.target sm_70\n.address_size 64\n";
    let desc = ModuleDescC {
        abi_version: ompcc_rt::abi::ABI_VERSION,
        num_kernels: descs.len() as u32,
        num_globals: 0,
        requirements: 0,
        name: c("test.c"),
        ptx: ptx.as_ptr().cast(),
        ptx_size: ptx.len() as u64,
        kernels: descs.leak().as_ptr(),
        globals: std::ptr::null(),
    };
    // SAFETY: the descriptor and its tables are valid (leaked).
    unsafe { ompcc_rt_register_module(&desc) }
}

/// Errors recorded since the last call.
pub fn errors() -> Vec<String> {
    ompcc_rt::take_errors()
}

/// The static library cargo built with this test: `cargo test` leaves it in `deps/` as
/// `libompcc_rt-HASH.a` (only `cargo build` copies it up a level), so take the newest of those.
pub fn staticlib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let candidates = std::fs::read_dir(deps)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .chain([deps.parent().unwrap().join("libompcc_rt.a")])
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("libompcc_rt") && name.ends_with(".a") && p.exists()
        });
    let newest = candidates.max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok());
    newest.unwrap_or_else(|| panic!("no libompcc_rt*.a in {}", deps.display()))
}
