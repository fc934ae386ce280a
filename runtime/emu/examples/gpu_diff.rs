//! Differential check against real hardware: runs test kernels from tests/ptx on the
//! emulator and, through the CUDA driver API (libcuda loaded with dlopen, no build-time CUDA
//! dependency), on GPU 0, and compares every output buffer byte for byte. Needs a machine
//! with an NVIDIA driver; prints one line per case and exits non-zero on any difference.
//!
//! Run: `cargo run --release -p ompcc-emu --example gpu_diff [PTX_DIR]`.

use std::ffi::{CString, c_char, c_int, c_uint, c_void};
use std::path::PathBuf;

use ompcc_emu::{Device, Module};

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

type Res = c_int;
type Ptr = *mut c_void;

struct Cuda {
    module_load_data: unsafe extern "C" fn(*mut Ptr, *const c_void) -> Res,
    module_get_function: unsafe extern "C" fn(*mut Ptr, Ptr, *const c_char) -> Res,
    mem_alloc: unsafe extern "C" fn(*mut u64, usize) -> Res,
    memcpy_htod: unsafe extern "C" fn(u64, *const c_void, usize) -> Res,
    memcpy_dtoh: unsafe extern "C" fn(*mut c_void, u64, usize) -> Res,
    mem_free: unsafe extern "C" fn(u64) -> Res,
    #[allow(clippy::type_complexity)]
    launch: unsafe extern "C" fn(
        Ptr,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Ptr,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> Res,
    sync: unsafe extern "C" fn() -> Res,
}

fn check(what: &str, r: Res) -> Result<(), String> {
    if r == 0 {
        Ok(())
    } else {
        Err(format!("{what} failed with CUDA error {r}"))
    }
}

impl Cuda {
    fn open() -> Result<Cuda, String> {
        // SAFETY: dlopen/dlsym with NUL-terminated names; each symbol is cast to the
        // signature the CUDA driver API documents for it.
        unsafe {
            let lib = dlopen(c"libcuda.so.1".as_ptr(), 2);
            if lib.is_null() {
                return Err("libcuda.so.1 not found".into());
            }
            // SAFETY (caller): `T` must be the function-pointer type of the symbol.
            unsafe fn sym<T: Copy>(lib: *mut c_void, name: &str) -> Result<T, String> {
                let c = CString::new(name).map_err(|e| e.to_string())?;
                // SAFETY: `c` is NUL-terminated; `lib` came from dlopen.
                let p = unsafe { dlsym(lib, c.as_ptr()) };
                if p.is_null() {
                    return Err(format!("{name} missing in libcuda"));
                }
                // SAFETY: a non-null code pointer reinterpreted as the documented signature.
                Ok(unsafe { std::mem::transmute_copy::<*mut c_void, T>(&p) })
            }
            type InitFn = unsafe extern "C" fn(c_uint) -> Res;
            type DevGetFn = unsafe extern "C" fn(*mut c_int, c_int) -> Res;
            type CtxCreateFn = unsafe extern "C" fn(*mut Ptr, c_uint, c_int) -> Res;
            let init: InitFn = sym(lib, "cuInit")?;
            let dev_get: DevGetFn = sym(lib, "cuDeviceGet")?;
            let ctx_create: CtxCreateFn = sym(lib, "cuCtxCreate_v2")?;
            check("cuInit", init(0))?;
            let mut dev = 0;
            check("cuDeviceGet", dev_get(&mut dev, 0))?;
            let mut ctx = std::ptr::null_mut();
            check("cuCtxCreate", ctx_create(&mut ctx, 0, dev))?;
            Ok(Cuda {
                module_load_data: sym(lib, "cuModuleLoadData")?,
                module_get_function: sym(lib, "cuModuleGetFunction")?,
                mem_alloc: sym(lib, "cuMemAlloc_v2")?,
                memcpy_htod: sym(lib, "cuMemcpyHtoD_v2")?,
                memcpy_dtoh: sym(lib, "cuMemcpyDtoH_v2")?,
                mem_free: sym(lib, "cuMemFree_v2")?,
                launch: sym(lib, "cuLaunchKernel")?,
                sync: sym(lib, "cuCtxSynchronize")?,
            })
        }
    }
}

/// A kernel argument: a buffer (initial bytes; compared after the run) or a plain value.
enum Arg {
    Buf(Vec<u8>),
    Val(Vec<u8>),
}

struct Case {
    file: &'static str,
    kernel: &'static str,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_shared: u32,
    args: Vec<Arg>,
    /// Output words (buffer index, byte offset) whose value PTX leaves to the hardware and
    /// that are therefore not compared; each use says why.
    unspecified: fn(usize, usize) -> bool,
}

fn all_specified(_: usize, _: usize) -> bool {
    false
}

fn run_emu(ptx: &str, c: &Case) -> Result<Vec<Vec<u8>>, String> {
    let m = Module::parse(ptx).map_err(|e| e.to_string())?;
    let mut dev = Device::new();
    let lm = dev.load(&m).map_err(|e| e.to_string())?;
    let mut bufs = Vec::new();
    let mut vals: Vec<Vec<u8>> = Vec::new();
    for a in &c.args {
        match a {
            Arg::Buf(init) => {
                let p = dev.alloc(init.len() as u64).map_err(|e| e.to_string())?;
                dev.copy_to_device(p, init).map_err(|e| e.to_string())?;
                bufs.push((p, init.len()));
                vals.push(p.0.to_le_bytes().to_vec());
            }
            Arg::Val(v) => vals.push(v.clone()),
        }
    }
    let refs: Vec<&[u8]> = vals.iter().map(|v| v.as_slice()).collect();
    dev.launch(&lm, c.kernel, c.grid, c.block, c.dyn_shared, &refs)
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (p, n) in bufs {
        let mut b = vec![0u8; n];
        dev.copy_from_device(&mut b, p).map_err(|e| e.to_string())?;
        out.push(b);
    }
    Ok(out)
}

fn run_gpu(cu: &Cuda, ptx: &str, c: &Case) -> Result<Vec<Vec<u8>>, String> {
    let text = CString::new(ptx).map_err(|e| e.to_string())?;
    let name = CString::new(c.kernel).map_err(|e| e.to_string())?;
    // SAFETY: driver calls with live host buffers of the sizes passed; kernel parameters
    // point at values that outlive the launch, which is synchronized before they drop.
    unsafe {
        let mut module = std::ptr::null_mut();
        check(
            "cuModuleLoadData",
            (cu.module_load_data)(&mut module, text.as_ptr().cast()),
        )?;
        let mut f = std::ptr::null_mut();
        check(
            "cuModuleGetFunction",
            (cu.module_get_function)(&mut f, module, name.as_ptr()),
        )?;
        let mut bufs = Vec::new();
        let mut vals: Vec<Vec<u8>> = Vec::new();
        for a in &c.args {
            match a {
                Arg::Buf(init) => {
                    let mut p = 0u64;
                    check("cuMemAlloc", (cu.mem_alloc)(&mut p, init.len()))?;
                    check(
                        "cuMemcpyHtoD",
                        (cu.memcpy_htod)(p, init.as_ptr().cast(), init.len()),
                    )?;
                    bufs.push((p, init.len()));
                    vals.push(p.to_le_bytes().to_vec());
                }
                Arg::Val(v) => vals.push(v.clone()),
            }
        }
        let mut ptrs: Vec<*mut c_void> = vals.iter_mut().map(|v| v.as_mut_ptr().cast()).collect();
        let [gx, gy, gz] = c.grid;
        let [bx, by, bz] = c.block;
        check(
            "cuLaunchKernel",
            (cu.launch)(
                f,
                gx,
                gy,
                gz,
                bx,
                by,
                bz,
                c.dyn_shared,
                std::ptr::null_mut(),
                ptrs.as_mut_ptr(),
                std::ptr::null_mut(),
            ),
        )?;
        check("cuCtxSynchronize", (cu.sync)())?;
        let mut out = Vec::new();
        for (p, n) in bufs {
            let mut b = vec![0u8; n];
            check(
                "cuMemcpyDtoH",
                (cu.memcpy_dtoh)(b.as_mut_ptr().cast(), p, n),
            )?;
            (cu.mem_free)(p);
            out.push(b);
        }
        Ok(out)
    }
}

fn le<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|x| f(*x)).collect()
}

fn cases() -> Vec<Case> {
    let one = [1, 1, 1];
    let mut v = Vec::new();
    for (a, b, c, d) in [
        (7i32, 3i32, 100i64, 7i64),
        (-123456789, 98765, -5_000_000_000_123, 77_777_777),
        (i32::MIN, -1, i64::MIN + 5, -3),
    ] {
        v.push(Case {
            file: "int_arith",
            kernel: "int_ops",
            grid: one,
            block: one,
            dyn_shared: 0,
            unspecified: all_specified,
            args: vec![
                Arg::Buf(vec![0; 68 * 8]),
                Arg::Val(a.to_le_bytes().into()),
                Arg::Val(b.to_le_bytes().into()),
                Arg::Val(c.to_le_bytes().into()),
                Arg::Val(d.to_le_bytes().into()),
            ],
        });
    }
    for (x, xd, i) in [
        (2.5f32, 123456789.12345679f64, 0x0123_4567_89ab_cdefi64),
        (-3.7, -0.5, -123_456_789_012_345),
        (1e10, 1e30, 300),
        (f32::NAN, f64::INFINITY, -129),
        // a negative signalling NaN in f32 and a quiet NaN in f64: NaN handling of every slot
        (f32::from_bits(0xff80_0001), f64::NAN, i64::MIN),
    ] {
        v.push(Case {
            file: "cvt",
            kernel: "cvt_ops",
            grid: one,
            block: one,
            dyn_shared: 0,
            unspecified: all_specified,
            args: vec![
                Arg::Buf(vec![0; 39 * 8]),
                Arg::Val(x.to_le_bytes().into()),
                Arg::Val(xd.to_le_bytes().into()),
                Arg::Val(i.to_le_bytes().into()),
            ],
        });
    }
    for (x, y, a, b) in [
        (1.0f32, 2.0f32, 3i32, -4i32),
        (f32::NAN, 2.0, 0, 5),
        (-0.0, 0.0, -7, -7),
    ] {
        v.push(Case {
            file: "setp",
            kernel: "setp_ops",
            grid: one,
            block: one,
            dyn_shared: 0,
            unspecified: all_specified,
            args: vec![
                Arg::Buf(vec![0; 52 * 4]),
                Arg::Val(x.to_le_bytes().into()),
                Arg::Val(y.to_le_bytes().into()),
                Arg::Val(a.to_le_bytes().into()),
                Arg::Val(b.to_le_bytes().into()),
            ],
        });
    }
    let (a, b) = (0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128, u128::MAX - 3);
    let u = |v: u64| Arg::Val(v.to_le_bytes().into());
    v.push(Case {
        file: "carry",
        kernel: "wide",
        grid: one,
        block: one,
        dyn_shared: 0,
        unspecified: all_specified,
        args: vec![
            Arg::Buf(vec![0; 40]),
            u(a as u64),
            u((a >> 64) as u64),
            u(b as u64),
            u((b >> 64) as u64),
            Arg::Val(u32::MAX.to_le_bytes().into()),
            Arg::Val(0xdead_beefu32.to_le_bytes().into()),
            Arg::Val(7u32.to_le_bytes().into()),
        ],
    });
    let simple = |file, kernel, block: u32, bytes: usize| Case {
        file,
        kernel,
        grid: one,
        block: [block, 1, 1],
        dyn_shared: 0,
        unspecified: all_specified,
        args: vec![Arg::Buf(vec![0; bytes])],
    };
    v.push(simple("divergence", "diverge", 48, 48 * 12));
    v.push(simple("shuffle", "modes", 32, 32 * 32));
    v.push(simple("vote", "votes", 32, 32 * 32));
    // Word 5 of each 24-byte record is the activemask after calls whose recursion depth
    // differs per lane. The emulator follows PTX's `ret` (threads wait until all are ready to
    // return, so the mask is full); on an H100 the lanes come back grouped by depth (lane 0:
    // 0x0c006003), and ptxas, trusting `call.uni`, drops even a bar.warp.sync or a full-mask
    // vote.sync placed there as already converged. No code after the call can observe
    // convergence portably, so that word is left out here (tests/emu.rs checks the emulator).
    v.push(Case {
        unspecified: |buf, at| buf == 0 && at % 24 == 20,
        ..simple("calls", "calls", 64, 64 * 24)
    });
    v.push(simple("clang_style", "clang_kernel", 16, 16 * 32));
    v.push(simple("memory", "local_generic", 64, 64 * 4));
    v.push(simple("indirect", "dispatch", 64, 64 * 4));
    v.push(simple("loops", "switcher", 40, 40 * 8));
    v.push(Case {
        file: "barrier",
        kernel: "reductions",
        grid: one,
        block: [100, 1, 1],
        dyn_shared: 0,
        unspecified: all_specified,
        args: vec![
            Arg::Buf(vec![0; 1200]),
            Arg::Val(70u32.to_le_bytes().into()),
        ],
    });
    v.push(Case {
        file: "sregs",
        kernel: "sregs",
        grid: [2, 3, 2],
        block: [8, 4, 2],
        dyn_shared: 0,
        unspecified: all_specified,
        args: vec![Arg::Buf(vec![0; 12 * 64 * 64])],
    });
    v.push(Case {
        file: "loops",
        kernel: "tri_loop",
        grid: [3, 1, 1],
        block: [64, 1, 1],
        dyn_shared: 0,
        unspecified: all_specified,
        args: vec![Arg::Buf(vec![0; 192 * 4]), Arg::Buf(vec![0; 192 * 4])],
    });
    let input: Vec<f32> = (0..1000).map(|i| (i % 17) as f32).collect();
    v.push(Case {
        file: "reduce_shared",
        kernel: "block_sum",
        grid: [4, 1, 1],
        block: [256, 1, 1],
        dyn_shared: 1024,
        unspecified: all_specified,
        args: vec![
            Arg::Buf(le(&input, f32::to_le_bytes)),
            Arg::Buf(vec![0; 16]),
            Arg::Val(1000u32.to_le_bytes().into()),
        ],
    });
    v.push(Case {
        file: "atomics",
        kernel: "atomics",
        grid: [64, 1, 1],
        block: [128, 1, 1],
        dyn_shared: 0,
        unspecified: all_specified,
        args: vec![Arg::Buf(vec![0; 64])],
    });
    v
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ptx")));
    let cu = match Cuda::open() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("no GPU: {e}");
            std::process::exit(2);
        }
    };
    let mut bad = 0;
    for c in cases() {
        let ptx = std::fs::read_to_string(dir.join(format!("{}.ptx", c.file))).expect("PTX file");
        let (emu, gpu) = (run_emu(&ptx, &c), run_gpu(&cu, &ptx, &c));
        match (emu, gpu) {
            (Ok(e), Ok(g)) => {
                let mut diffs = Vec::new();
                for (bi, (eb, gb)) in e.iter().zip(&g).enumerate() {
                    for (k, (x, y)) in eb.chunks(4).zip(gb.chunks(4)).enumerate() {
                        if x != y && !(c.unspecified)(bi, k * 4) {
                            diffs.push(format!(
                                "buf{bi}[{}]: emu {:02x?} gpu {:02x?}",
                                k * 4,
                                x,
                                y
                            ));
                        }
                    }
                }
                if diffs.is_empty() {
                    println!("same   {}::{}", c.file, c.kernel);
                } else {
                    bad += 1;
                    println!("DIFFER {}::{} ({} words)", c.file, c.kernel, diffs.len());
                    for d in diffs.iter().take(12) {
                        println!("    {d}");
                    }
                }
            }
            (e, g) => {
                bad += 1;
                println!(
                    "ERROR  {}::{}: emu {:?} / gpu {:?}",
                    c.file,
                    c.kernel,
                    e.err(),
                    g.err()
                );
            }
        }
    }
    std::process::exit(if bad == 0 { 0 } else { 1 });
}
