//! The C ABI: `extern "C"` entry points declared in `include/ompcc_rt.h`, plus the host side
//! of the OpenMP device API (`omp_get_num_devices`, `omp_target_alloc`, ...).
//!
//! Invariants: no panic crosses this boundary (each entry point runs under [`guard`]); the
//! runtime lock is released before an error is reported, so the exit-time profile can still
//! run; an error prints `ompcc-rt: error: file:line:col: message` and exits with status 1
//! (like libomptarget's fatal mapping errors) unless [`set_record_errors`] asked for errors to
//! be recorded and returned as -1 (tests).

use crate::backend::DeviceAbort;
use crate::options::{Options, ProfileOutput};
use crate::profile::{self, Profile};
use crate::runtime::{
    GlobalDesc, INITIAL_DEVICE, KernelDesc, Launch, MapItem, ModuleDesc, RtError, Runtime, Target,
};
use std::borrow::Cow;
use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, OnceLock};

/// Version of the structures below; `ompcc_rt_module_desc.abi_version` must equal it.
pub const ABI_VERSION: u32 = 2;

/// `ompcc_rt_kernel_desc`.
#[repr(C)]
pub struct KernelDescC {
    /// NUL-terminated PTX entry name.
    pub name: *const c_char,
    /// Number of parameters.
    pub num_params: u32,
    /// Size of each parameter in bytes (`num_params` values).
    pub param_sizes: *const u32,
}

/// `ompcc_rt_global_desc`.
#[repr(C)]
pub struct GlobalDescC {
    /// NUL-terminated PTX name of the device copy.
    pub name: *const c_char,
    /// Address of the host copy.
    pub host_addr: *mut c_void,
    /// Size in bytes.
    pub size: u64,
}

/// `ompcc_rt_module_desc`.
#[repr(C)]
pub struct ModuleDescC {
    /// Must be [`ABI_VERSION`].
    pub abi_version: u32,
    /// Number of kernels.
    pub num_kernels: u32,
    /// Number of globals.
    pub num_globals: u32,
    /// `OMPCC_RT_REQUIRES_*` bits: the unit's `#pragma omp requires` clauses the runtime acts
    /// on ([`crate::runtime::requires`]); 0 from units without them (and from older ompcc).
    pub requirements: u32,
    /// NUL-terminated source file name.
    pub name: *const c_char,
    /// PTX text (`ptx_size` bytes, NUL not required).
    pub ptx: *const c_char,
    /// Length of the PTX text.
    pub ptx_size: u64,
    /// Kernel table.
    pub kernels: *const KernelDescC,
    /// Global table.
    pub globals: *const GlobalDescC,
}

/// `ompcc_rt_map_entry`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MapEntryC {
    /// See [`MapItem::base`].
    pub base: *mut c_void,
    /// First byte of the list item.
    pub begin: *mut c_void,
    /// Bytes.
    pub size: u64,
    /// `OMPCC_RT_MAP_*` bits.
    pub flags: u64,
    /// NUL-terminated variable name, or NULL.
    pub name: *const c_char,
    /// NUL-terminated `file:line:col`, or NULL.
    pub loc: *const c_char,
}

/// `ompcc_rt_launch_args`.
#[repr(C)]
pub struct LaunchArgsC {
    /// Module id returned by `ompcc_rt_register_module`.
    pub module: i32,
    /// Kernel index in the module's kernel table.
    pub kernel: u32,
    /// Device number or `OMPCC_RT_DEVICE_DEFAULT`.
    pub device: i32,
    /// Number of map entries.
    pub num_entries: u32,
    /// Map entries.
    pub entries: *const MapEntryC,
    /// `num_teams` clause, 0 if absent.
    pub num_teams: u32,
    /// `thread_limit` clause, 0 if absent.
    pub thread_limit: u32,
    /// Dynamic shared memory per team, bytes.
    pub dyn_shared_bytes: u32,
    /// Iterations of the region's distributed loop nest, saturated (0: unknown or none).
    pub iterations: u32,
    /// NUL-terminated `file:line:col` of the construct.
    pub loc: *const c_char,
    /// Trip counts of a collapsed nest of two or three loops, innermost first, saturated,
    /// whose one-iteration variant runs on a grid of as many dimensions (1 for an absent
    /// third loop); all 0 otherwise.
    pub nest: [u32; 3],
}

static RUNTIME: Mutex<Option<Runtime>> = Mutex::new(None);
static RECORD_ERRORS: AtomicBool = AtomicBool::new(false);
static ERRORS: Mutex<Vec<String>> = Mutex::new(Vec::new());
static PROFILE_OUTPUT: OnceLock<ProfileOutput> = OnceLock::new();
static AT_EXIT: Once = Once::new();

unsafe extern "C" {
    fn atexit(f: extern "C" fn()) -> c_int;
    fn malloc(size: usize) -> *mut c_void;
    fn free(p: *mut c_void);
}

/// Replaces the process-wide runtime (tests and embedders; generated code never calls this).
pub fn install(runtime: Runtime) {
    start(runtime.options());
    *RUNTIME.lock().unwrap_or_else(|e| e.into_inner()) = Some(runtime);
}

/// With `true`, errors are recorded (see [`take_errors`]) and the entry point returns -1
/// instead of exiting the process.
pub fn set_record_errors(record: bool) {
    RECORD_ERRORS.store(record, Ordering::SeqCst);
}

/// Errors recorded since the last call, rendered as they would be printed.
pub fn take_errors() -> Vec<String> {
    std::mem::take(&mut *ERRORS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Runs `f` on the runtime, creating it from the environment on first use.
pub fn with_runtime<T>(f: impl FnOnce(&mut Runtime) -> T) -> T {
    let mut guard = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    let rt = guard.get_or_insert_with(|| {
        let options = Options::from_env();
        start(&options);
        Runtime::new(options, None)
    });
    f(rt)
}

/// One-time process setup for a runtime's options: warnings and the at-exit profile.
fn start(options: &Options) {
    for w in &options.warnings {
        crate::log::line(&format!("ompcc-rt: warning: {w}"));
    }
    if options.profile != ProfileOutput::Off {
        let _ = PROFILE_OUTPUT.set(options.profile.clone());
        let mut p = profile::PROFILE.lock().unwrap_or_else(|e| e.into_inner());
        p.get_or_insert_with(Profile::default);
        AT_EXIT.call_once(|| {
            // SAFETY: registering a plain `extern "C" fn()` with the C library.
            unsafe { atexit(write_profile) };
        });
    }
}

extern "C" fn write_profile() {
    let _ = std::panic::catch_unwind(|| {
        let guard = profile::PROFILE.lock().unwrap_or_else(|e| e.into_inner());
        let Some(p) = guard.as_ref() else { return };
        match PROFILE_OUTPUT.get() {
            Some(ProfileOutput::Json(path)) => {
                let path = profile::expand_path(path, crate::log::mpi_rank(), std::process::id());
                if let Err(e) = std::fs::write(&path, p.render_json()) {
                    crate::log::line(&format!(
                        "ompcc-rt: warning: cannot write profile to {path}: {e}"
                    ));
                }
            }
            Some(ProfileOutput::Table) => crate::log::line(&p.render_table()),
            _ => {}
        }
    });
}

/// Reports an error: records it, or prints it and exits with status 1 (aborts after a device
/// `trap`).
fn report(e: RtError) -> i32 {
    let text = format!("ompcc-rt: error: {e}");
    if RECORD_ERRORS.load(Ordering::SeqCst) {
        ERRORS.lock().unwrap_or_else(|e| e.into_inner()).push(text);
        return -1;
    }
    if let Some(how) = &e.abort {
        // The device code called `abort` or failed an `assert`: end as the host code would
        // have (glibc's message, SIGABRT), not with a launch failure status.
        if let DeviceAbort::Assert(m) = how {
            crate::log::line(&format!("{}: {m}", program_name()));
        }
        crate::log::line(&text);
        std::process::abort();
    }
    crate::log::line(&text);
    std::process::exit(1);
}

/// The program's short name, as glibc's `assert` prints it.
fn program_name() -> String {
    std::env::args_os()
        .next()
        .as_deref()
        .map(std::path::Path::new)
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Runs an entry point, turning a panic into a reported internal error.
pub(crate) fn guard<T>(on_error: T, f: impl FnOnce() -> Result<T, RtError>) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            report(e);
            on_error
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            report(RtError::new("<runtime>", format!("internal error: {what}")));
            on_error
        }
    }
}

/// Reads a C string, or `default` for NULL.
///
/// # Safety
/// `p` is NULL or points at a NUL-terminated string.
unsafe fn cstr<'a>(p: *const c_char, default: &'a str) -> Cow<'a, str> {
    if p.is_null() {
        Cow::Borrowed(default)
    } else {
        // SAFETY: the caller guarantees NUL termination.
        unsafe { CStr::from_ptr(p) }.to_string_lossy()
    }
}

/// Builds a slice from a C array, empty for NULL or zero length.
///
/// # Safety
/// `p` is NULL or points at `n` valid elements.
unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `n` elements.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

const UNKNOWN_LOC: &str = "<unknown location>";

/// Owned copies of the strings of a C entry array, so `MapItem`s can borrow them.
struct Entries {
    raw: Vec<(u64, u64, u64, u64)>,
    names: Vec<String>,
    locs: Vec<String>,
}

impl Entries {
    /// # Safety
    /// `p` points at `n` entries whose strings are NULL or NUL-terminated.
    unsafe fn read(p: *const MapEntryC, n: u32, loc: &str) -> Entries {
        // SAFETY: forwarded contract.
        let entries = unsafe { slice(p, n as usize) };
        let mut out = Entries {
            raw: Vec::new(),
            names: Vec::new(),
            locs: Vec::new(),
        };
        for e in entries {
            out.raw
                .push((e.base as u64, e.begin as u64, e.size, e.flags));
            // SAFETY: forwarded contract.
            out.names
                .push(unsafe { cstr(e.name, "<unnamed>") }.into_owned());
            // SAFETY: forwarded contract.
            out.locs.push(unsafe { cstr(e.loc, loc) }.into_owned());
        }
        out
    }

    fn items(&self) -> Vec<MapItem<'_>> {
        self.raw
            .iter()
            .zip(self.names.iter().zip(&self.locs))
            .map(|(&(base, begin, size, flags), (name, loc))| MapItem {
                base,
                begin,
                size,
                flags,
                name,
                loc,
            })
            .collect()
    }
}

/// Registers one translation unit's device code; returns its module id (>= 0).
///
/// # Safety
/// `desc` points at a valid descriptor whose tables and strings live for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_register_module(desc: *const ModuleDescC) -> i32 {
    guard(-1, || {
        if desc.is_null() {
            return Err(RtError::new(
                UNKNOWN_LOC,
                "ompcc_rt_register_module: NULL descriptor",
            ));
        }
        // SAFETY: non-null and valid by contract.
        let d = unsafe { &*desc };
        // SAFETY: as above.
        let name = unsafe { cstr(d.name, "<unnamed module>") }.into_owned();
        if d.abi_version != ABI_VERSION {
            return Err(RtError::new(
                &name,
                format!(
                    "module built for runtime ABI {} but this libompcc_rt speaks ABI {ABI_VERSION}",
                    d.abi_version
                ),
            ));
        }
        let unknown = d.requirements & !crate::runtime::requires::KNOWN;
        if unknown != 0 {
            return Err(RtError::new(
                &name,
                format!(
                    "module requires features this libompcc_rt does not know (bits {unknown:#x})"
                ),
            ));
        }
        // SAFETY: `ptx` holds `ptx_size` bytes by contract.
        let ptx_bytes = unsafe { slice(d.ptx.cast::<u8>(), d.ptx_size as usize) };
        let ptx = String::from_utf8_lossy(ptx_bytes)
            .trim_end_matches('\0')
            .to_string();
        let mut kernels = Vec::new();
        // SAFETY: `num_kernels` entries by contract.
        for k in unsafe { slice(d.kernels, d.num_kernels as usize) } {
            kernels.push(KernelDesc {
                // SAFETY: NUL-terminated by contract.
                name: unsafe { cstr(k.name, "") }.into_owned(),
                // SAFETY: `num_params` values by contract.
                param_sizes: unsafe { slice(k.param_sizes, k.num_params as usize) }.to_vec(),
            });
        }
        let mut globals = Vec::new();
        // SAFETY: `num_globals` entries by contract.
        for g in unsafe { slice(d.globals, d.num_globals as usize) } {
            globals.push(GlobalDesc {
                // SAFETY: NUL-terminated by contract.
                name: unsafe { cstr(g.name, "") }.into_owned(),
                host_addr: g.host_addr as u64,
                size: g.size,
            });
        }
        let module = ModuleDesc {
            name,
            ptx,
            kernels,
            globals,
            requires: d.requirements,
        };
        Ok(with_runtime(|rt| rt.register_module(module)) as i32)
    })
}

/// Shared body of the five data-environment entry points.
///
/// # Safety
/// As for the entry points.
unsafe fn data_op(
    entries: *const MapEntryC,
    n: u32,
    loc: *const c_char,
    op: impl FnOnce(&mut Runtime, &[MapItem<'_>], &str) -> Result<(), RtError>,
) -> i32 {
    guard(-1, || {
        // SAFETY: forwarded contract.
        let loc = unsafe { cstr(loc, UNKNOWN_LOC) }.into_owned();
        // SAFETY: forwarded contract.
        let entries = unsafe { Entries::read(entries, n, &loc) };
        let items = entries.items();
        with_runtime(|rt| op(rt, &items, &loc)).map(|()| 0)
    })
}

/// Entry of a `target data` region. Returns 0.
///
/// # Safety
/// `entries` points at `n` valid entries describing live host storage.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_data_begin(
    device: i32,
    n: u32,
    entries: *const MapEntryC,
    loc: *const c_char,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        data_op(entries, n, loc, |rt, items, loc| {
            rt.data_begin(device, items, true, loc)
        })
    }
}

/// Exit of a `target data` region (the same entries as the begin). Returns 0.
///
/// # Safety
/// As for [`ompcc_rt_target_data_begin`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_data_end(
    device: i32,
    n: u32,
    entries: *const MapEntryC,
    loc: *const c_char,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        data_op(entries, n, loc, |rt, items, loc| {
            rt.data_end(device, items, true, loc)
        })
    }
}

/// `target enter data`. Returns 0.
///
/// # Safety
/// As for [`ompcc_rt_target_data_begin`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_enter_data(
    device: i32,
    n: u32,
    entries: *const MapEntryC,
    loc: *const c_char,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        data_op(entries, n, loc, |rt, items, loc| {
            rt.data_begin(device, items, false, loc)
        })
    }
}

/// `target exit data`. Returns 0.
///
/// # Safety
/// As for [`ompcc_rt_target_data_begin`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_exit_data(
    device: i32,
    n: u32,
    entries: *const MapEntryC,
    loc: *const c_char,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        data_op(entries, n, loc, |rt, items, loc| {
            rt.data_end(device, items, false, loc)
        })
    }
}

/// `target update`. Returns 0.
///
/// # Safety
/// As for [`ompcc_rt_target_data_begin`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_update(
    device: i32,
    n: u32,
    entries: *const MapEntryC,
    loc: *const c_char,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        data_op(entries, n, loc, |rt, items, loc| {
            rt.update(device, items, loc)
        })
    }
}

/// `target update` of a discontiguous section: `row` describes its first row, `counts` and
/// `strides` (bytes) the `dims` dimensions above the rows, outermost first. Returns 0.
///
/// # Safety
/// `row` points at a valid entry; `counts` and `strides` hold `dims` values each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_update_strided(
    device: i32,
    row: *const MapEntryC,
    dims: u32,
    counts: *const u64,
    strides: *const u64,
    loc: *const c_char,
) -> i32 {
    guard(-1, || {
        // SAFETY: forwarded contract.
        let loc = unsafe { cstr(loc, UNKNOWN_LOC) }.into_owned();
        // SAFETY: forwarded contract.
        let entries = unsafe { Entries::read(row, 1, &loc) };
        let items = entries.items();
        let Some(row) = items.first() else {
            return Err(RtError::new(&loc, "target update: NULL section"));
        };
        // SAFETY: forwarded contract.
        let (counts, strides) =
            unsafe { (slice(counts, dims as usize), slice(strides, dims as usize)) };
        if counts.len() != dims as usize || strides.len() != dims as usize {
            return Err(RtError::new(&loc, "target update: NULL section dimensions"));
        }
        let dims: Vec<(u64, u64)> = counts
            .iter()
            .copied()
            .zip(strides.iter().copied())
            .collect();
        with_runtime(|rt| rt.update_strided(device, row, &dims, &loc)).map(|()| 0)
    })
}

/// `use_device_ptr` / `use_device_addr`: the device address corresponding to `host`, or
/// `host` itself when it is not mapped (or the construct runs on the host).
///
/// # Safety
/// `name` and `loc` are NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_use_device_ptr(
    device: i32,
    host: *mut c_void,
    name: *const c_char,
    loc: *const c_char,
) -> *mut c_void {
    guard(host, || {
        // SAFETY: forwarded contract.
        let loc = unsafe { cstr(loc, UNKNOWN_LOC) }.into_owned();
        // SAFETY: forwarded contract.
        let name = unsafe { cstr(name, "<unnamed>") }.into_owned();
        let addr = with_runtime(|rt| {
            let a = rt.device_address(device, host as u64, &loc);
            if rt.options().info.has(crate::log::InfoCategories::MAPS)
                && let Ok(a) = &a
            {
                crate::log::line(&format!(
                    "ompcc-rt: info: {loc}: use_device_ptr '{name}' {host:p} -> {a:#x}"
                ));
            }
            a
        })?;
        Ok(addr as *mut c_void)
    })
}

/// The value of a `num_teams`, `thread_limit` or `num_threads` clause of a launch, as the
/// launch arguments take it: OpenMP requires a positive value, so a non-positive one is
/// ignored (0: the runtime picks) with one warning per clause site, and one past `u32`
/// saturates (the runtime clamps it to what the device allows).
///
/// # Safety
/// `clause` and `loc` are NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_clause_count(
    value: i64,
    clause: *const c_char,
    loc: *const c_char,
) -> u32 {
    if value > 0 {
        return u32::try_from(value).unwrap_or(u32::MAX);
    }
    static WARNED: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if !warned.contains(&(loc as usize)) {
        warned.push(loc as usize);
        // SAFETY: forwarded contract.
        let (clause, loc) = unsafe { (cstr(clause, "clause"), cstr(loc, UNKNOWN_LOC)) };
        eprintln!("ompcc-rt: warning: {loc}: '{clause}' value {value} is not positive; ignored");
    }
    0
}

/// `target` region: maps the entries, launches the kernel, unmaps. Returns 1 when the kernel
/// ran on a device, 0 when the caller must run the host fallback.
///
/// # Safety
/// `args` points at valid launch arguments; entries as for [`ompcc_rt_target_data_begin`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_launch(args: *const LaunchArgsC) -> i32 {
    guard(-1, || {
        if args.is_null() {
            return Err(RtError::new(UNKNOWN_LOC, "ompcc_rt_launch: NULL arguments"));
        }
        // SAFETY: non-null and valid by contract.
        let a = unsafe { &*args };
        // SAFETY: forwarded contract.
        let loc = unsafe { cstr(a.loc, UNKNOWN_LOC) }.into_owned();
        // SAFETY: forwarded contract.
        let entries = unsafe { Entries::read(a.entries, a.num_entries, &loc) };
        let items = entries.items();
        let launch = Launch {
            module: a.module.max(0) as u32,
            kernel: a.kernel,
            device: a.device,
            items: &items,
            num_teams: a.num_teams,
            thread_limit: a.thread_limit,
            dyn_shared_bytes: a.dyn_shared_bytes,
            iterations: a.iterations,
            nest: a.nest,
            loc: &loc,
        };
        if a.module < 0 {
            return Err(RtError::new(
                &loc,
                format!("launch of invalid module id {}", a.module),
            ));
        }
        with_runtime(|rt| rt.launch(&launch)).map(i32::from)
    })
}

// ---- OpenMP device API (host side) -------------------------------------------------------

/// The target of an OpenMP API device number; `None` when it names no device.
fn api_target(rt: &mut Runtime, device: c_int) -> Option<Target> {
    let n = rt.num_devices();
    if device == INITIAL_DEVICE || device == n {
        Some(Target::Host)
    } else if (0..n).contains(&device) {
        Some(Target::Device(device as usize))
    } else {
        None
    }
}

fn api_error(what: &str, message: String) -> RtError {
    RtError::new(what, message)
}

/// `omp_get_num_devices`.
#[unsafe(no_mangle)]
pub extern "C" fn omp_get_num_devices() -> c_int {
    guard(0, || Ok(with_runtime(|rt| rt.num_devices())))
}

/// `omp_get_default_device`.
#[unsafe(no_mangle)]
pub extern "C" fn omp_get_default_device() -> c_int {
    guard(0, || Ok(with_runtime(|rt| rt.default_device())))
}

/// `omp_set_default_device`.
#[unsafe(no_mangle)]
pub extern "C" fn omp_set_default_device(device: c_int) {
    guard((), || {
        with_runtime(|rt| rt.set_default_device(device));
        Ok(())
    })
}

/// `omp_get_initial_device`: the host's device number, equal to `omp_get_num_devices()`.
#[unsafe(no_mangle)]
pub extern "C" fn omp_get_initial_device() -> c_int {
    omp_get_num_devices()
}

/// `omp_is_initial_device`: host code always runs on the initial device.
#[unsafe(no_mangle)]
pub extern "C" fn omp_is_initial_device() -> c_int {
    1
}

/// `omp_get_device_num` on the host: the initial device.
#[unsafe(no_mangle)]
pub extern "C" fn omp_get_device_num() -> c_int {
    omp_get_num_devices()
}

/// `omp_target_alloc`: device memory, or host memory for the initial device; NULL on failure.
#[unsafe(no_mangle)]
pub extern "C" fn omp_target_alloc(size: usize, device: c_int) -> *mut c_void {
    guard(std::ptr::null_mut(), || {
        with_runtime(|rt| match api_target(rt, device) {
            // SAFETY: plain C allocation.
            Some(Target::Host) => Ok(unsafe { malloc(size.max(1)) }),
            Some(Target::Device(d)) => rt.target_alloc(d, size as u64).map(|p| p as *mut c_void),
            None => Err(api_error(
                "omp_target_alloc",
                format!("invalid device number {device}"),
            )),
        })
    })
}

/// `omp_target_free`.
///
/// # Safety
/// `ptr` is NULL or came from `omp_target_alloc(_, device)`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn omp_target_free(ptr: *mut c_void, device: c_int) {
    // SAFETY: forwarded contract; a NULL location.
    unsafe { ompcc_rt_target_free_at(ptr, device, std::ptr::null()) }
}

/// `omp_target_free` called at `loc` (`file:line:col`): ompcc's host rewrite turns the calls
/// of units it compiles into this, so a bad free names its line, as map errors do.
///
/// # Safety
/// `ptr` is NULL or came from `omp_target_alloc(_, device)`; `loc` is NULL or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ompcc_rt_target_free_at(
    ptr: *mut c_void,
    device: c_int,
    loc: *const c_char,
) {
    if ptr.is_null() {
        return;
    }
    guard((), || {
        // SAFETY: forwarded contract.
        let loc = unsafe { cstr(loc, "omp_target_free") }.into_owned();
        with_runtime(|rt| match api_target(rt, device) {
            Some(Target::Host) => {
                // SAFETY: came from malloc in omp_target_alloc by contract.
                unsafe { free(ptr) };
                Ok(())
            }
            Some(Target::Device(d)) => rt.target_free(d, ptr as u64, &loc),
            None => Err(api_error(
                &loc,
                format!("omp_target_free: invalid device number {device}"),
            )),
        })
    })
}

/// `omp_target_is_present`.
#[unsafe(no_mangle)]
pub extern "C" fn omp_target_is_present(ptr: *const c_void, device: c_int) -> c_int {
    guard(0, || {
        with_runtime(|rt| match api_target(rt, device) {
            Some(Target::Host) => Ok(1),
            Some(Target::Device(d)) => rt.is_present(d, ptr as u64).map(c_int::from),
            None => Ok(0),
        })
    })
}

/// `omp_get_mapped_ptr` (OpenMP 5.1): the device address `ptr` is mapped to on `device`,
/// `ptr` itself for the host, NULL when it is not mapped or the device number is invalid.
#[unsafe(no_mangle)]
pub extern "C" fn omp_get_mapped_ptr(ptr: *const c_void, device: c_int) -> *mut c_void {
    guard(std::ptr::null_mut(), || {
        with_runtime(|rt| match api_target(rt, device) {
            Some(Target::Host) => Ok(ptr.cast_mut()),
            Some(Target::Device(d)) => Ok(rt
                // The byte at `ptr`: a mapping that ends there does not hold it.
                .mapped_address(d, ptr as u64, 1, "omp_get_mapped_ptr")?
                .map_or(std::ptr::null_mut(), |a| a as *mut c_void)),
            None => Ok(std::ptr::null_mut()),
        })
    })
}

/// `omp_target_is_accessible` (OpenMP 5.1): whether device code can use the host storage
/// `[ptr, ptr+size)` as it is: always on the host, on a GPU whose driver reports pageable
/// memory access, never on the emulator (its memory is its own).
#[unsafe(no_mangle)]
pub extern "C" fn omp_target_is_accessible(
    ptr: *const c_void,
    size: usize,
    device: c_int,
) -> c_int {
    let _ = (ptr, size);
    guard(0, || {
        with_runtime(|rt| match api_target(rt, device) {
            Some(Target::Host) => Ok(1),
            Some(Target::Device(d)) => rt.reads_host_memory(d).map(c_int::from),
            None => Ok(0),
        })
    })
}

/// `omp_target_memcpy`: returns 0 on success, nonzero on an invalid device.
///
/// # Safety
/// Host-side ranges are valid for `length` bytes at their offsets.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn omp_target_memcpy(
    dst: *mut c_void,
    src: *const c_void,
    length: usize,
    dst_offset: usize,
    src_offset: usize,
    dst_device: c_int,
    src_device: c_int,
) -> c_int {
    let d = (dst as u64).wrapping_add(dst_offset as u64);
    let s = (src as u64).wrapping_add(src_offset as u64);
    // SAFETY: forwarded contract.
    guard(1, || unsafe {
        linear_copy(
            "omp_target_memcpy",
            d,
            s,
            length as u64,
            dst_device,
            src_device,
        )
        .map(|()| 0)
    })
}

/// The copy of `omp_target_memcpy` and its `_async` form.
///
/// # Safety
/// Host-side ranges are valid for `length` bytes.
pub(crate) unsafe fn linear_copy(
    what: &str,
    dst: u64,
    src: u64,
    length: u64,
    dst_device: c_int,
    src_device: c_int,
) -> Result<(), RtError> {
    with_runtime(|rt| {
        let (dt, st) = copy_targets(rt, what, dst_device, src_device)?;
        // SAFETY: forwarded contract.
        unsafe { rt.memcpy((dst, dt), (src, st), length) }
    })
}

/// The targets of a copy's two device numbers, or the error naming them.
fn copy_targets(
    rt: &mut Runtime,
    what: &str,
    dst_device: c_int,
    src_device: c_int,
) -> Result<(Target, Target), RtError> {
    match (api_target(rt, dst_device), api_target(rt, src_device)) {
        (Some(dt), Some(st)) => Ok((dt, st)),
        _ => Err(api_error(
            what,
            format!("invalid device number {dst_device} or {src_device}"),
        )),
    }
}

/// Whether both device numbers name a device (the `_async` copies check before they defer).
pub(crate) fn copy_devices_valid(dst_device: c_int, src_device: c_int) -> bool {
    with_runtime(|rt| api_target(rt, dst_device).is_some() && api_target(rt, src_device).is_some())
}

/// `omp_target_memcpy_rect`: copies a `num_dims`-dimensional sub-volume. With `dst` and `src`
/// both NULL, returns the number of dimensions supported.
///
/// # Safety
/// The arrays hold `num_dims` values; host-side volumes are valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn omp_target_memcpy_rect(
    dst: *mut c_void,
    src: *const c_void,
    element_size: usize,
    num_dims: c_int,
    volume: *const usize,
    dst_offsets: *const usize,
    src_offsets: *const usize,
    dst_dimensions: *const usize,
    src_dimensions: *const usize,
    dst_device: c_int,
    src_device: c_int,
) -> c_int {
    if dst.is_null() && src.is_null() {
        return c_int::MAX;
    }
    const WHAT: &str = "omp_target_memcpy_rect";
    guard(1, || {
        // SAFETY: forwarded contract.
        let dims = unsafe {
            RectDims::read(
                WHAT,
                num_dims,
                [
                    volume,
                    dst_offsets,
                    src_offsets,
                    dst_dimensions,
                    src_dimensions,
                ],
            )?
        };
        if dst.is_null() || src.is_null() {
            return Err(api_error(WHAT, "NULL source or destination".into()));
        }
        let rect = dims.rect(element_size);
        // SAFETY: forwarded contract.
        unsafe { rect.copy_between(WHAT, dst as u64, src as u64, dst_device, src_device) }
            .map(|()| 0)
    })
}

/// Owned copies of a rectangular copy's five dimension arrays (volume, destination and source
/// offsets, destination and source dimensions), so an `_async` copy outlives its caller's.
pub(crate) struct RectDims([Vec<usize>; 5]);

impl RectDims {
    /// Reads `num_dims` values from each array; an array that is NULL, or no dimension, is
    /// the error of `what`.
    ///
    /// # Safety
    /// Each non-NULL array holds `num_dims` values.
    pub(crate) unsafe fn read(
        what: &str,
        num_dims: c_int,
        arrays: [*const usize; 5],
    ) -> Result<RectDims, RtError> {
        let n = usize::try_from(num_dims).unwrap_or(0);
        if n == 0 {
            return Err(api_error(what, format!("invalid num_dims {num_dims}")));
        }
        if arrays.iter().any(|a| a.is_null()) {
            return Err(api_error(what, "NULL dimension array".into()));
        }
        // SAFETY: `n` values each, by contract.
        Ok(RectDims(arrays.map(|a| unsafe { slice(a, n) }.to_vec())))
    }

    pub(crate) fn rect(&self, element_size: usize) -> Rect<'_> {
        let [vol, doff, soff, ddim, sdim] = &self.0;
        Rect {
            es: element_size as u64,
            vol,
            doff,
            soff,
            ddim,
            sdim,
        }
    }
}

pub(crate) struct Rect<'a> {
    es: u64,
    vol: &'a [usize],
    doff: &'a [usize],
    soff: &'a [usize],
    ddim: &'a [usize],
    sdim: &'a [usize],
}

impl Rect<'_> {
    /// The whole copy between two device numbers.
    ///
    /// # Safety
    /// Host-side volumes are valid.
    pub(crate) unsafe fn copy_between(
        &self,
        what: &str,
        dst: u64,
        src: u64,
        dst_device: c_int,
        src_device: c_int,
    ) -> Result<(), RtError> {
        with_runtime(|rt| {
            let (dt, st) = copy_targets(rt, what, dst_device, src_device)?;
            // SAFETY: forwarded contract.
            unsafe { self.copy(rt, 0, (dst, dt), (src, st)) }
        })
    }

    /// Copies dimension `k` onward; `dst`/`src` address the start of that sub-array.
    ///
    /// # Safety
    /// Host-side volumes are valid.
    unsafe fn copy(
        &self,
        rt: &mut Runtime,
        k: usize,
        dst: (u64, Target),
        src: (u64, Target),
    ) -> Result<(), RtError> {
        let stride = |dims: &[usize]| dims[k + 1..].iter().map(|&d| d as u64).product::<u64>();
        let (dstride, sstride) = (stride(self.ddim) * self.es, stride(self.sdim) * self.es);
        let last = k + 1 == self.vol.len();
        for i in 0..self.vol[k] as u64 {
            let d = dst.0 + (self.doff[k] as u64 + i) * dstride;
            let s = src.0 + (self.soff[k] as u64 + i) * sstride;
            if last {
                // Innermost dimension: one contiguous run of `vol[k]` elements.
                let bytes = self.vol[k] as u64 * self.es;
                let d0 = dst.0 + self.doff[k] as u64 * self.es;
                let s0 = src.0 + self.soff[k] as u64 * self.es;
                // SAFETY: forwarded contract.
                return unsafe { rt.memcpy((d0, dst.1), (s0, src.1), bytes) };
            }
            // SAFETY: forwarded contract.
            unsafe { self.copy(rt, k + 1, (d, dst.1), (s, src.1))? };
        }
        Ok(())
    }
}

/// What `omp_target_associate_ptr` and `omp_target_disassociate_ptr` return for the host
/// device, where there is nothing to associate: a failure the program can test (as libgomp's
/// EINVAL and libomptarget's OFFLOAD_FAIL are), not an error that ends it. Programs call them
/// with `omp_get_default_device()`, which is the host when no device is there.
const ASSOCIATE_ON_HOST: c_int = 22;

/// `omp_target_associate_ptr`: returns 0 on success.
#[unsafe(no_mangle)]
pub extern "C" fn omp_target_associate_ptr(
    host_ptr: *const c_void,
    device_ptr: *const c_void,
    size: usize,
    device_offset: usize,
    device: c_int,
) -> c_int {
    guard(1, || {
        with_runtime(|rt| match api_target(rt, device) {
            Some(Target::Device(d)) => {
                let dev = (device_ptr as u64).wrapping_add(device_offset as u64);
                rt.associate(d, host_ptr as u64, dev, size as u64)
                    .map(|()| 0)
            }
            Some(Target::Host) => Ok(ASSOCIATE_ON_HOST),
            None => Err(api_error(
                "omp_target_associate_ptr",
                format!("invalid device number {device}"),
            )),
        })
    })
}

/// `omp_target_disassociate_ptr`: returns 0 on success.
#[unsafe(no_mangle)]
pub extern "C" fn omp_target_disassociate_ptr(host_ptr: *const c_void, device: c_int) -> c_int {
    guard(1, || {
        with_runtime(|rt| match api_target(rt, device) {
            Some(Target::Device(d)) => rt.disassociate(d, host_ptr as u64).map(|()| 0),
            Some(Target::Host) => Ok(ASSOCIATE_ON_HOST),
            None => Err(api_error(
                "omp_target_disassociate_ptr",
                format!("invalid device number {device}"),
            )),
        })
    })
}
