//! `cuda`: NVIDIA GPUs through the CUDA driver API, loaded at run time with `libloading`.
//!
//! There is no link-time CUDA dependency: [`open_devices`] `dlopen`s `libcuda.so.1` (or the
//! file named by `OMPCC_LIBCUDA`) and resolves every entry point up front, so a machine without
//! a driver gets a reason string and the runtime falls back to the host. Each [`CudaDevice`]
//! uses its device's primary context and makes it current before every driver call (cheap, and
//! correct whichever host thread calls). Every failed call becomes a [`BackendError`] carrying
//! the driver's error name and string.
//!
//! Programs with several PTX modules are linked with `cuLinkCreate`/`cuLinkAddData`/
//! `cuLinkComplete`, so `extern` functions and globals resolve across translation units; a
//! single module is loaded directly with `cuModuleLoadDataEx`. Both paths capture the JIT
//! error and info logs, and failures carry the error log.
//!
//! Large host<->device copies go through a pinned staging buffer (`cuMemHostAlloc`) in chunks
//! when `OMPCC_PINNED_STAGING` (bytes, default 0 = off) is at most the transfer size.

use super::pool::{Freed, SmallPool};
use super::{
    Backend, BackendError, DevPtr, DeviceAbort, LaunchDims, LaunchStats, ModuleImage, ProgramId,
};
use libloading::Library;
use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::sync::Arc;

type CuResult = c_int;
type CuDevice = c_int;
type Handle = *mut c_void;

const CUDA_SUCCESS: CuResult = 0;
/// `__assertfail` on the device.
const CUDA_ERROR_ASSERT: CuResult = 710;
/// What a `trap` instruction ends the kernel with.
const CUDA_ERROR_ILLEGAL_INSTRUCTION: CuResult = 715;
const LIMIT_STACK_SIZE: c_int = 0;
const FUNC_ATTR_MAX_THREADS_PER_BLOCK: c_int = 0;
const ATTR_MULTIPROCESSOR_COUNT: c_int = 16;
const ATTR_CC_MAJOR: c_int = 75;
const ATTR_CC_MINOR: c_int = 76;
const ATTR_PAGEABLE_MEMORY_ACCESS: c_int = 88;
/// `CU_MEM_ATTACH_GLOBAL`.
const MEM_ATTACH_GLOBAL: c_uint = 1;
const JIT_INFO_LOG_BUFFER: c_int = 3;
const JIT_INFO_LOG_BUFFER_SIZE_BYTES: c_int = 4;
const JIT_ERROR_LOG_BUFFER: c_int = 5;
const JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
const JIT_LOG_VERBOSE: c_int = 12;
const JIT_INPUT_PTX: c_int = 1;
const LOG_BYTES: usize = 16 * 1024;
const STAGING_CHUNK: usize = 8 << 20;

/// Resolved driver entry points. The `Library` is kept alive as long as any pointer is used.
struct Driver {
    _lib: Library,
    init: unsafe extern "C" fn(c_uint) -> CuResult,
    driver_get_version: unsafe extern "C" fn(*mut c_int) -> CuResult,
    device_get_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
    device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    device_get_name: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
    device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, CuDevice) -> CuResult,
    primary_ctx_retain: unsafe extern "C" fn(*mut Handle, CuDevice) -> CuResult,
    ctx_set_current: unsafe extern "C" fn(Handle) -> CuResult,
    /// `cuCtxSetLimit`, optional (the device keeps its default limits without it).
    ctx_set_limit: Option<unsafe extern "C" fn(c_int, usize) -> CuResult>,
    ctx_synchronize: unsafe extern "C" fn() -> CuResult,
    module_load_data_ex: unsafe extern "C" fn(
        *mut Handle,
        *const c_void,
        c_uint,
        *mut c_int,
        *mut *mut c_void,
    ) -> CuResult,
    module_load_data: unsafe extern "C" fn(*mut Handle, *const c_void) -> CuResult,
    module_get_function: unsafe extern "C" fn(*mut Handle, Handle, *const c_char) -> CuResult,
    /// `cuFuncGetAttribute`, optional (launches are then not clamped to the kernel's limit).
    func_get_attribute: Option<unsafe extern "C" fn(*mut c_int, c_int, Handle) -> CuResult>,
    /// `cuOccupancyMaxActiveBlocksPerMultiprocessor`, optional (the default grid is then a
    /// fixed few teams per multiprocessor).
    occupancy_max_blocks:
        Option<unsafe extern "C" fn(*mut c_int, Handle, c_int, usize) -> CuResult>,
    module_get_global:
        unsafe extern "C" fn(*mut u64, *mut usize, Handle, *const c_char) -> CuResult,
    mem_alloc: unsafe extern "C" fn(*mut u64, usize) -> CuResult,
    mem_free: unsafe extern "C" fn(u64) -> CuResult,
    /// `cuMemAllocManaged`, optional (`omp_target_alloc` under unified shared memory then
    /// hands out pageable host memory, which such a device reaches too).
    mem_alloc_managed: Option<unsafe extern "C" fn(*mut u64, usize, c_uint) -> CuResult>,
    memcpy_htod: unsafe extern "C" fn(u64, *const c_void, usize) -> CuResult,
    memcpy_dtoh: unsafe extern "C" fn(*mut c_void, u64, usize) -> CuResult,
    memcpy_dtod: unsafe extern "C" fn(u64, u64, usize) -> CuResult,
    mem_host_alloc: unsafe extern "C" fn(*mut *mut c_void, usize, c_uint) -> CuResult,
    launch_kernel: unsafe extern "C" fn(
        Handle,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Handle,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    get_error_name: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    get_error_string: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    link_create:
        unsafe extern "C" fn(c_uint, *mut c_int, *mut *mut c_void, *mut Handle) -> CuResult,
    link_add_data: unsafe extern "C" fn(
        Handle,
        c_int,
        *mut c_void,
        usize,
        *const c_char,
        c_uint,
        *mut c_int,
        *mut *mut c_void,
    ) -> CuResult,
    link_complete: unsafe extern "C" fn(Handle, *mut *mut c_void, *mut usize) -> CuResult,
    link_destroy: unsafe extern "C" fn(Handle) -> CuResult,
}

// SAFETY: the driver API is thread-safe; the struct holds only function pointers and the
// library handle.
unsafe impl Send for Driver {}
unsafe impl Sync for Driver {}

impl Driver {
    fn load(path: &str) -> Result<Driver, String> {
        // SAFETY: loading the CUDA driver runs its initializers, which are designed to be run
        // in any process.
        let lib = unsafe { Library::new(path) }
            .map_err(|e| format!("cannot load {path}: {}", chain(&e)))?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol has the signature of the field it initializes (CUDA driver
                // API, cuda.h); the pointer is used only while `_lib` is alive.
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                    .map_err(|e| format!("{path} has no {}: {e}", $name))?
            };
        }
        Ok(Driver {
            init: sym!("cuInit"),
            driver_get_version: sym!("cuDriverGetVersion"),
            device_get_count: sym!("cuDeviceGetCount"),
            device_get: sym!("cuDeviceGet"),
            device_get_name: sym!("cuDeviceGetName"),
            device_get_attribute: sym!("cuDeviceGetAttribute"),
            primary_ctx_retain: sym!("cuDevicePrimaryCtxRetain"),
            ctx_set_current: sym!("cuCtxSetCurrent"),
            // SAFETY: as for `sym!`; a missing symbol is only a missing option.
            ctx_set_limit: unsafe { lib.get(b"cuCtxSetLimit\0") }.ok().map(|f| *f),
            ctx_synchronize: sym!("cuCtxSynchronize"),
            module_load_data_ex: sym!("cuModuleLoadDataEx"),
            module_load_data: sym!("cuModuleLoadData"),
            module_get_function: sym!("cuModuleGetFunction"),
            // SAFETY: as for `sym!`; a missing symbol is only a missing option.
            func_get_attribute: unsafe { lib.get(b"cuFuncGetAttribute\0") }.ok().map(|f| *f),
            // SAFETY: as for `sym!`; a missing symbol is only a missing option.
            occupancy_max_blocks: unsafe {
                lib.get(b"cuOccupancyMaxActiveBlocksPerMultiprocessor\0")
            }
            .ok()
            .map(|f| *f),
            module_get_global: sym!("cuModuleGetGlobal_v2"),
            mem_alloc: sym!("cuMemAlloc_v2"),
            mem_free: sym!("cuMemFree_v2"),
            // SAFETY: as for `sym!`; a missing symbol is only a missing option.
            mem_alloc_managed: unsafe { lib.get(b"cuMemAllocManaged\0") }.ok().map(|f| *f),
            memcpy_htod: sym!("cuMemcpyHtoD_v2"),
            memcpy_dtoh: sym!("cuMemcpyDtoH_v2"),
            memcpy_dtod: sym!("cuMemcpyDtoD_v2"),
            mem_host_alloc: sym!("cuMemHostAlloc"),
            launch_kernel: sym!("cuLaunchKernel"),
            get_error_name: sym!("cuGetErrorName"),
            get_error_string: sym!("cuGetErrorString"),
            link_create: sym!("cuLinkCreate_v2"),
            link_add_data: sym!("cuLinkAddData_v2"),
            link_complete: sym!("cuLinkComplete"),
            link_destroy: sym!("cuLinkDestroy"),
            _lib: lib,
        })
    }

    /// Turns a driver status into a `Result`, naming the failed call.
    fn check(&self, op: &str, status: CuResult) -> Result<(), BackendError> {
        if status == CUDA_SUCCESS {
            return Ok(());
        }
        let text = |f: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult| {
            let mut p: *const c_char = std::ptr::null();
            // SAFETY: the driver writes a pointer to a static NUL-terminated string or fails.
            let ok = unsafe { f(status, &mut p) } == CUDA_SUCCESS && !p.is_null();
            // SAFETY: checked non-null above; the string is static in the driver.
            ok.then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        };
        Err(BackendError {
            op: op.to_string(),
            code: Some(text(self.get_error_name).unwrap_or_else(|| format!("CUresult {status}"))),
            message: text(self.get_error_string).unwrap_or_else(|| "unknown error".into()),
            log: String::new(),
            // the driver has printed a failed assert's message itself
            abort: matches!(status, CUDA_ERROR_ASSERT | CUDA_ERROR_ILLEGAL_INSTRUCTION)
                .then_some(DeviceAbort::Trap),
        })
    }
}

/// An error and its sources, `: `-separated (libloading keeps dlerror's text in the source).
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// Where `libcuda` is looked for: `OMPCC_LIBCUDA`, else `libcuda.so.1`.
pub fn library_path() -> String {
    std::env::var("OMPCC_LIBCUDA").unwrap_or_else(|_| "libcuda.so.1".to_string())
}

/// Opens every CUDA device. `Err` holds the reason there is none, in words for the user
/// (library missing, `cuInit` failure, zero devices).
pub fn open_devices(lib_path: &str) -> Result<Vec<CudaDevice>, String> {
    let driver = Arc::new(Driver::load(lib_path)?);
    let d = &driver;
    // SAFETY: plain driver calls with valid out-pointers.
    d.check("cuInit", unsafe { (d.init)(0) })
        .map_err(|e| format!("{e}"))?;
    let mut version = 0;
    // SAFETY: valid out-pointer.
    d.check("cuDriverGetVersion", unsafe {
        (d.driver_get_version)(&mut version)
    })
    .map_err(|e| e.to_string())?;
    let mut count = 0;
    // SAFETY: valid out-pointer.
    d.check("cuDeviceGetCount", unsafe {
        (d.device_get_count)(&mut count)
    })
    .map_err(|e| e.to_string())?;
    if count <= 0 {
        return Err(format!(
            "the CUDA driver (version {version}) reports no CUDA device"
        ));
    }
    (0..count)
        .map(|i| CudaDevice::open(driver.clone(), i).map_err(|e| e.to_string()))
        .collect()
}

/// A loaded program: the module and a cache of kernel handles.
struct Program {
    module: Handle,
    functions: HashMap<String, Handle>,
}

/// One GPU.
pub struct CudaDevice {
    driver: Arc<Driver>,
    ordinal: c_int,
    name: String,
    sm: (c_int, c_int),
    multiprocessors: u32,
    /// `CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS` (HMM or ATS: kernels reach malloc'ed memory).
    pageable_access: bool,
    context: Handle,
    programs: Vec<Program>,
    staging: Option<(*mut c_void, usize)>,
    staging_threshold: usize,
    /// Freed small blocks kept for the next maps of scalars.
    small: SmallPool,
}

// SAFETY: the handles are driver objects usable from any thread once the context is current,
// which every method ensures; the staging buffer is owned by this device alone.
unsafe impl Send for CudaDevice {}

/// Sets the per-thread stack of `context` to `OMPCC_STACK_SIZE` bytes (default
/// `DEFAULT_STACK_SIZE`): CUDA's 1 KiB default overflows on recursive device functions.
fn set_stack_size(d: &Driver, context: Handle) -> Result<(), BackendError> {
    let Some(set_limit) = d.ctx_set_limit else {
        return Ok(());
    };
    let env = std::env::var("OMPCC_STACK_SIZE").ok();
    let bytes = crate::runtime::device_stack_size(env.as_deref());
    // SAFETY: the context was just retained; the limit applies to the current context.
    d.check("cuCtxSetCurrent", unsafe { (d.ctx_set_current)(context) })?;
    // SAFETY: a valid limit number and size; the driver rounds the size as it needs.
    d.check("cuCtxSetLimit", unsafe {
        set_limit(LIMIT_STACK_SIZE, bytes)
    })
}

impl CudaDevice {
    /// The handle of `kernel` in `program`, looked up once and cached. The context must be
    /// current.
    fn function(&mut self, program: ProgramId, kernel: &str) -> Result<Handle, BackendError> {
        let d = &*self.driver;
        let prog = self
            .programs
            .get_mut(program.0 as usize)
            .ok_or_else(|| BackendError::new("cuModuleGetFunction", "unknown program"))?;
        if let Some(f) = prog.functions.get(kernel) {
            return Ok(*f);
        }
        let cname = CString::new(kernel)
            .map_err(|_| BackendError::new("cuModuleGetFunction", "name contains NUL"))?;
        let mut f = std::ptr::null_mut();
        // SAFETY: valid out-pointer, module and NUL-terminated name.
        let status = unsafe { (d.module_get_function)(&mut f, prog.module, cname.as_ptr()) };
        d.check("cuModuleGetFunction", status)?;
        prog.functions.insert(kernel.to_string(), f);
        Ok(f)
    }

    fn open(driver: Arc<Driver>, ordinal: c_int) -> Result<CudaDevice, BackendError> {
        let d = &driver;
        let mut dev = 0;
        // SAFETY: valid out-pointer; ordinal < device count.
        d.check("cuDeviceGet", unsafe { (d.device_get)(&mut dev, ordinal) })?;
        let mut name = [0 as c_char; 128];
        // SAFETY: the buffer is 128 bytes, as declared.
        d.check("cuDeviceGetName", unsafe {
            (d.device_get_name)(name.as_mut_ptr(), 128, dev)
        })?;
        // SAFETY: the driver NUL-terminates within the buffer.
        let name = unsafe { CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let attr = |a| {
            let mut v = 0;
            // SAFETY: valid out-pointer and attribute number.
            d.check("cuDeviceGetAttribute", unsafe {
                (d.device_get_attribute)(&mut v, a, dev)
            })
            .map(|_| v)
        };
        let sm = (attr(ATTR_CC_MAJOR)?, attr(ATTR_CC_MINOR)?);
        let multiprocessors = attr(ATTR_MULTIPROCESSOR_COUNT)?.max(1) as u32;
        let pageable_access = attr(ATTR_PAGEABLE_MEMORY_ACCESS)? != 0;
        let mut context = std::ptr::null_mut();
        // SAFETY: valid out-pointer and device.
        d.check("cuDevicePrimaryCtxRetain", unsafe {
            (d.primary_ctx_retain)(&mut context, dev)
        })?;
        set_stack_size(d, context)?;
        let staging_threshold = std::env::var("OMPCC_PINNED_STAGING")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Ok(CudaDevice {
            driver,
            ordinal,
            name,
            sm,
            multiprocessors,
            pageable_access,
            context,
            programs: Vec::new(),
            staging: None,
            staging_threshold,
            small: SmallPool::default(),
        })
    }

    fn current(&self) -> Result<&Driver, BackendError> {
        let d = &*self.driver;
        // SAFETY: the context was retained in `open` and is never released.
        d.check("cuCtxSetCurrent", unsafe {
            (d.ctx_set_current)(self.context)
        })?;
        Ok(d)
    }

    /// The pinned staging buffer, allocated on first use; `None` when staging is off or the
    /// transfer is below the threshold.
    fn staging_for(&mut self, len: usize) -> Result<Option<(*mut c_void, usize)>, BackendError> {
        if self.staging_threshold == 0 || len < self.staging_threshold {
            return Ok(None);
        }
        if self.staging.is_none() {
            let d = self.current()?;
            let mut p = std::ptr::null_mut();
            // SAFETY: valid out-pointer; flags 0 = plain page-locked memory.
            d.check("cuMemHostAlloc", unsafe {
                (d.mem_host_alloc)(&mut p, STAGING_CHUNK, 0)
            })?;
            self.staging = Some((p, STAGING_CHUNK));
        }
        Ok(self.staging)
    }

    fn load_one(&self, d: &Driver, image: &[u8]) -> Result<Handle, BackendError> {
        let mut info = vec![0u8; LOG_BYTES];
        let mut error = vec![0u8; LOG_BYTES];
        let mut opts = [
            JIT_INFO_LOG_BUFFER,
            JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            JIT_ERROR_LOG_BUFFER,
            JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            JIT_LOG_VERBOSE,
        ];
        // Option values are passed as pointer-sized integers (cuda.h: CUjit_option).
        let mut vals = [
            info.as_mut_ptr().cast::<c_void>(),
            LOG_BYTES as *mut c_void,
            error.as_mut_ptr().cast::<c_void>(),
            LOG_BYTES as *mut c_void,
            std::ptr::dangling_mut::<c_void>(),
        ];
        let mut module = std::ptr::null_mut();
        // SAFETY: `image` is NUL-terminated PTX or a cubin; the option arrays have equal length
        // and the log buffers outlive the call.
        let status = unsafe {
            (d.module_load_data_ex)(
                &mut module,
                image.as_ptr().cast(),
                opts.len() as c_uint,
                opts.as_mut_ptr(),
                vals.as_mut_ptr(),
            )
        };
        d.check("cuModuleLoadDataEx", status)
            .map(|_| module)
            .map_err(|mut e| {
                e.log = log_text(&error);
                e
            })
    }

    fn link(&self, d: &Driver, modules: &[ModuleImage<'_>]) -> Result<Handle, BackendError> {
        let mut info = vec![0u8; LOG_BYTES];
        let mut error = vec![0u8; LOG_BYTES];
        let mut opts = [
            JIT_INFO_LOG_BUFFER,
            JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            JIT_ERROR_LOG_BUFFER,
            JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut vals = [
            info.as_mut_ptr().cast::<c_void>(),
            LOG_BYTES as *mut c_void,
            error.as_mut_ptr().cast::<c_void>(),
            LOG_BYTES as *mut c_void,
        ];
        let mut state = std::ptr::null_mut();
        // SAFETY: option arrays of equal length; the log buffers outlive the link state, which
        // is destroyed below on every path.
        let status = unsafe {
            (d.link_create)(
                opts.len() as c_uint,
                opts.as_mut_ptr(),
                vals.as_mut_ptr(),
                &mut state,
            )
        };
        d.check("cuLinkCreate", status)?;
        let result = (|| {
            for m in modules {
                let mut ptx = m.ptx.as_bytes().to_vec();
                ptx.push(0);
                let name = CString::new(m.name.replace('\0', "?")).unwrap_or_default();
                // SAFETY: `ptx` is NUL-terminated and its size includes the NUL, as the driver
                // expects for PTX input.
                let status = unsafe {
                    (d.link_add_data)(
                        state,
                        JIT_INPUT_PTX,
                        ptx.as_mut_ptr().cast(),
                        ptx.len(),
                        name.as_ptr(),
                        0,
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                    )
                };
                d.check(&format!("cuLinkAddData({})", m.name), status)?;
            }
            let mut cubin = std::ptr::null_mut();
            let mut size = 0usize;
            // SAFETY: valid out-pointers; the cubin stays owned by `state` until destroyed.
            d.check("cuLinkComplete", unsafe {
                (d.link_complete)(state, &mut cubin, &mut size)
            })?;
            let mut module = std::ptr::null_mut();
            // SAFETY: `cubin` is the linker's output image, alive until `link_destroy`.
            d.check("cuModuleLoadData", unsafe {
                (d.module_load_data)(&mut module, cubin)
            })?;
            Ok(module)
        })();
        // SAFETY: `state` came from cuLinkCreate and is destroyed once.
        unsafe { (d.link_destroy)(state) };
        result.map_err(|mut e: BackendError| {
            e.log = log_text(&error);
            e
        })
    }
}

/// The NUL-terminated text a JIT log buffer holds.
fn log_text(buf: &[u8]) -> String {
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).trim_end().to_string()
}

impl Backend for CudaDevice {
    fn describe(&self) -> String {
        format!(
            "cuda:{} {} (sm_{}{})",
            self.ordinal, self.name, self.sm.0, self.sm.1
        )
    }

    fn multiprocessors(&self) -> u32 {
        self.multiprocessors
    }

    fn reads_host_memory(&self) -> bool {
        self.pageable_access
    }

    /// Host pointers go to kernels as they are; that needs the driver to let kernels access
    /// pageable host memory (HMM, or ATS on coherent systems).
    fn share_host_memory(&mut self) -> Result<(), String> {
        if self.pageable_access {
            Ok(())
        } else {
            Err(format!(
                "the driver reports CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 0 (kernels \
                 cannot access pageable host memory: that needs HMM or ATS); run on the host \
                 with OMP_TARGET_OFFLOAD=DISABLED, or remove the requirement and map the data \
                 (attribute {ATTR_PAGEABLE_MEMORY_ACCESS})"
            ))
        }
    }

    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, BackendError> {
        let class = SmallPool::class(bytes);
        if let Some(p) = class.and_then(|c| self.small.take(c)) {
            return Ok(p);
        }
        let d = self.current()?;
        let mut p = 0u64;
        // SAFETY: valid out-pointer.
        d.check("cuMemAlloc", unsafe {
            (d.mem_alloc)(&mut p, class.unwrap_or(bytes) as usize)
        })?;
        if let Some(c) = class {
            self.small.allocated(p, c);
        }
        Ok(p)
    }

    fn free(&mut self, ptr: DevPtr) -> Result<(), BackendError> {
        match self.small.free(ptr) {
            Freed::Kept => Ok(()),
            Freed::AlreadyFree => Err(BackendError::new(
                "cuMemFree",
                format!("{ptr:#x} was already freed"),
            )),
            Freed::Release => {
                let d = self.current()?;
                // SAFETY: `ptr` came from cuMemAlloc (the trait's contract).
                d.check("cuMemFree", unsafe { (d.mem_free)(ptr) })
            }
        }
    }

    /// Managed memory: the driver migrates its pages to whichever processor touches them.
    fn alloc_managed(&mut self, bytes: u64) -> Option<Result<DevPtr, BackendError>> {
        let d = match self.current() {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        let alloc = d.mem_alloc_managed?;
        let mut p = 0u64;
        // SAFETY: valid out-pointer; CU_MEM_ATTACH_GLOBAL: any stream may use it.
        let status = unsafe { alloc(&mut p, bytes as usize, MEM_ATTACH_GLOBAL) };
        Some(d.check("cuMemAllocManaged", status).map(|()| p))
    }

    fn free_managed(&mut self, ptr: DevPtr) -> Result<(), BackendError> {
        let d = self.current()?;
        // SAFETY: `ptr` came from cuMemAllocManaged (the trait's contract).
        d.check("cuMemFree", unsafe { (d.mem_free)(ptr) })
    }

    fn copy_to_device(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), BackendError> {
        if let Some((buf, cap)) = self.staging_for(src.len())? {
            let d = self.current()?;
            for (i, chunk) in src.chunks(cap).enumerate() {
                // SAFETY: `buf` holds `cap` >= chunk.len() bytes of pinned memory.
                unsafe { std::ptr::copy_nonoverlapping(chunk.as_ptr(), buf.cast(), chunk.len()) };
                let at = dst + (i * cap) as u64;
                // SAFETY: valid pinned source of chunk.len() bytes.
                d.check("cuMemcpyHtoD", unsafe {
                    (d.memcpy_htod)(at, buf, chunk.len())
                })?;
            }
            return Ok(());
        }
        let d = self.current()?;
        // SAFETY: `src` is a valid slice; the destination range is device memory.
        d.check("cuMemcpyHtoD", unsafe {
            (d.memcpy_htod)(dst, src.as_ptr().cast(), src.len())
        })
    }

    fn copy_from_device(&mut self, dst: &mut [u8], src: DevPtr) -> Result<(), BackendError> {
        if let Some((buf, cap)) = self.staging_for(dst.len())? {
            let d = self.current()?;
            for (i, chunk) in dst.chunks_mut(cap).enumerate() {
                let at = src + (i * cap) as u64;
                // SAFETY: valid pinned destination of chunk.len() <= cap bytes.
                d.check("cuMemcpyDtoH", unsafe {
                    (d.memcpy_dtoh)(buf, at, chunk.len())
                })?;
                // SAFETY: the buffer now holds chunk.len() copied bytes.
                unsafe {
                    std::ptr::copy_nonoverlapping(buf.cast(), chunk.as_mut_ptr(), chunk.len())
                };
            }
            return Ok(());
        }
        let d = self.current()?;
        // SAFETY: `dst` is a valid mutable slice.
        d.check("cuMemcpyDtoH", unsafe {
            (d.memcpy_dtoh)(dst.as_mut_ptr().cast(), src, dst.len())
        })
    }

    fn copy_within_device(
        &mut self,
        dst: DevPtr,
        src: DevPtr,
        bytes: u64,
    ) -> Result<(), BackendError> {
        let d = self.current()?;
        // SAFETY: both ranges are device memory (the runtime checked them against its table).
        d.check("cuMemcpyDtoD", unsafe {
            (d.memcpy_dtod)(dst, src, bytes as usize)
        })
    }

    fn load_program(&mut self, modules: &[ModuleImage<'_>]) -> Result<ProgramId, BackendError> {
        let d = self.current()?;
        let module = match modules {
            [] => {
                return Err(BackendError::new(
                    "load program",
                    "no PTX module registered",
                ));
            }
            [one] => {
                let mut ptx = one.ptx.as_bytes().to_vec();
                ptx.push(0);
                self.load_one(d, &ptx)?
            }
            many => self.link(d, many)?,
        };
        self.programs.push(Program {
            module,
            functions: HashMap::new(),
        });
        Ok(ProgramId(self.programs.len() as u32 - 1))
    }

    fn global_address(
        &mut self,
        program: ProgramId,
        name: &str,
    ) -> Result<Option<(DevPtr, u64)>, BackendError> {
        let d = self.current()?;
        let module = self
            .programs
            .get(program.0 as usize)
            .ok_or_else(|| BackendError::new("cuModuleGetGlobal", "unknown program"))?
            .module;
        let cname = CString::new(name)
            .map_err(|_| BackendError::new("cuModuleGetGlobal", "name contains NUL"))?;
        let (mut ptr, mut size) = (0u64, 0usize);
        // SAFETY: valid out-pointers, loaded module and NUL-terminated name.
        let status = unsafe { (d.module_get_global)(&mut ptr, &mut size, module, cname.as_ptr()) };
        match d.check("cuModuleGetGlobal", status) {
            Ok(()) => Ok(Some((ptr, size as u64))),
            Err(e) if e.code.as_deref() == Some("CUDA_ERROR_NOT_FOUND") => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn max_threads(&mut self, program: ProgramId, kernel: &str) -> Result<u32, BackendError> {
        let driver = self.driver.clone();
        let Some(get) = driver.func_get_attribute else {
            return Ok(1024);
        };
        // SAFETY: the context was retained in `open`.
        driver.check("cuCtxSetCurrent", unsafe {
            (driver.ctx_set_current)(self.context)
        })?;
        let function = self.function(program, kernel)?;
        let mut n: c_int = 0;
        // SAFETY: valid out-pointer and a function handle of a loaded module.
        driver.check("cuFuncGetAttribute", unsafe {
            get(&mut n, FUNC_ATTR_MAX_THREADS_PER_BLOCK, function)
        })?;
        Ok(u32::try_from(n).unwrap_or(1).clamp(1, 1024))
    }

    fn default_teams(
        &mut self,
        program: ProgramId,
        kernel: &str,
        threads: u32,
        dyn_shared_bytes: u32,
    ) -> Result<u32, BackendError> {
        let driver = self.driver.clone();
        let Some(occupancy) = driver.occupancy_max_blocks else {
            return Ok(FALLBACK_TEAMS_PER_SM * self.multiprocessors);
        };
        // SAFETY: the context was retained in `open`.
        driver.check("cuCtxSetCurrent", unsafe {
            (driver.ctx_set_current)(self.context)
        })?;
        let function = self.function(program, kernel)?;
        let mut blocks: c_int = 0;
        // SAFETY: valid out-pointer and a function handle of a loaded module.
        let status = unsafe {
            occupancy(
                &mut blocks,
                function,
                threads as c_int,
                dyn_shared_bytes as usize,
            )
        };
        // A driver that cannot answer leaves the launch to the fixed default, not to an error.
        let per_sm = match u32::try_from(blocks) {
            Ok(b) if status == CUDA_SUCCESS && b > 0 => b,
            _ => FALLBACK_TEAMS_PER_SM,
        };
        Ok(per_sm * self.multiprocessors)
    }

    fn launch(
        &mut self,
        program: ProgramId,
        kernel: &str,
        params: &[&[u8]],
        dims: LaunchDims,
    ) -> Result<LaunchStats, BackendError> {
        let driver = self.driver.clone();
        let d = &*driver;
        // SAFETY: the context was retained in `open`.
        d.check("cuCtxSetCurrent", unsafe {
            (d.ctx_set_current)(self.context)
        })?;
        let function = self.function(program, kernel)?;
        // The driver reads each parameter through a pointer to its bytes; copy them into
        // 8-byte-aligned storage so every parameter type is suitably aligned.
        let storage: Vec<Vec<u64>> = params.iter().map(|p| bytes_to_words(p)).collect::<Vec<_>>();
        let mut ptrs: Vec<*mut c_void> =
            storage.iter().map(|w| w.as_ptr() as *mut c_void).collect();
        // SAFETY: `ptrs` points at parameter values that live until after the call; the
        // geometry and shared size come from the runtime; stream 0 is the default stream.
        let status = unsafe {
            (d.launch_kernel)(
                function,
                dims.teams,
                dims.teams_yz[0],
                dims.teams_yz[1],
                dims.threads,
                1,
                1,
                dims.dyn_shared_bytes,
                std::ptr::null_mut(),
                ptrs.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        d.check("cuLaunchKernel", status)?;
        // SAFETY: plain synchronization of the current context.
        d.check("cuCtxSynchronize", unsafe { (d.ctx_synchronize)() })?;
        Ok(LaunchStats::default())
    }
}

/// Teams per multiprocessor when the driver cannot say how many fit.
const FALLBACK_TEAMS_PER_SM: u32 = 4;

/// Copies parameter bytes into 8-byte words (zero-padded).
fn bytes_to_words(bytes: &[u8]) -> Vec<u64> {
    let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)];
    for (i, b) in bytes.iter().enumerate() {
        words[i / 8] |= u64::from(*b) << (8 * (i % 8));
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_library_is_a_reason_not_a_crash() {
        let err = open_devices("/nonexistent/libcuda.so.1").err().unwrap();
        assert!(
            err.starts_with("cannot load /nonexistent/libcuda.so.1"),
            "{err}"
        );
    }

    #[test]
    fn parameters_are_packed_little_endian() {
        assert_eq!(bytes_to_words(&[1, 2]), vec![0x0201]);
        assert_eq!(bytes_to_words(&7u64.to_le_bytes()), vec![7]);
        assert_eq!(bytes_to_words(&[0; 12]).len(), 2);
        assert_eq!(bytes_to_words(&[]), vec![0]);
    }

    #[test]
    fn log_text_stops_at_nul() {
        assert_eq!(log_text(b"ptxas error\n\0junk"), "ptxas error");
    }
}
