//! Target regions end to end: C text -> parse -> sema -> plan -> `lower_device_unit` -> -O2
//! -> PTX; the PTX is assembled by ptxas and run on the emulator with buffers the test fills,
//! launched the way the runtime launches each execution mode.

#![allow(dead_code)]

use ompcc_emu::{DevPtr, Device, LoadedModule, Module};
use ompcc_lower::{FunctionSelection, LowerOptions, lower_device_unit};
use ompcc_omp::{ExecMode, Pass};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

/// What a test needs to know of one region.
#[derive(Clone, Debug)]
pub struct RegionInfo {
    pub kernel: String,
    pub mode: ExecMode,
    pub params: Vec<(String, Pass, u32)>,
}

/// A compiled unit.
pub struct Compiled {
    pub ptx: String,
    pub regions: Vec<RegionInfo>,
    pub globals: Vec<String>,
}

/// Compiles `src` at `level`; panics with the diagnostics when any is an error.
pub fn compile_at(src: &str, level: u8) -> Compiled {
    match try_compile(src, level) {
        Ok(c) => c,
        Err(d) => panic!("diagnostics:\n{d}"),
    }
}

/// Compiles `src` at -O2 (or at `OMPCC_TEST_OPT`) and checks that both -O0 and -O2 PTX
/// assemble; the result runs the tests.
pub fn compile(src: &str) -> Compiled {
    let level = std::env::var("OMPCC_TEST_OPT")
        .ok()
        .and_then(|l| l.parse().ok())
        .unwrap_or(2);
    let o0 = compile_at(src, 0);
    assemble(&o0.ptx);
    let o2 = compile_at(src, 2);
    assemble(&o2.ptx);
    if level == 0 { o0 } else { o2 }
}

/// The error diagnostics (code and message, one a line) when compilation fails.
pub fn try_compile(src: &str, level: u8) -> Result<Compiled, String> {
    let (tu, sm, pd) = ompcc_syntax::parse_translation_unit(src, "t.c");
    let fmt = |ds: &[ompcc_diag::Diagnostic]| {
        ds.iter()
            .filter(|d| d.is_error())
            .map(|d| {
                format!(
                    "{} {} @{}",
                    d.code,
                    d.message,
                    sm.lookup(d.primary.span.lo).line
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    if pd.iter().any(|d| d.is_error()) {
        return Err(fmt(&pd));
    }
    let tu = tu.expect("parsed");
    let (typed, sd) = ompcc_sema::check(&tu);
    if sd.iter().any(|d| d.is_error()) {
        return Err(fmt(&sd));
    }
    let (plan, pdiag) = ompcc_omp::plan_with_source(&tu, &typed, &sm);
    if pdiag.iter().any(|d| d.is_error()) {
        return Err(fmt(&pdiag));
    }
    let (mut module, ld) = lower_device_unit(
        &tu,
        &typed,
        &plan,
        &FunctionSelection::DeclareTarget,
        &LowerOptions::default(),
    );
    if ld.iter().any(|d| d.is_error()) {
        return Err(fmt(&ld));
    }
    ompcc_ir::verify_module(&module).unwrap_or_else(|e| panic!("invalid IR: {e:?}\n{module}"));
    ompcc_opt::optimize(&mut module, level, true).unwrap_or_else(|e| panic!("opt: {e}"));
    // Calls to the device math library stay unresolved here (the driver links it).
    let ptx = ompcc_ptx::emit_module(&module, &ompcc_ptx::PtxOptions::default())
        .map_err(|e| format!("ptx: {e}"))?;
    let regions = plan
        .regions
        .iter()
        .map(|r| RegionInfo {
            kernel: r.kernel.clone(),
            mode: r.mode,
            params: r
                .params
                .iter()
                .map(|p| (p.name.clone(), p.pass, p.size))
                .collect(),
        })
        .collect();
    let globals = plan
        .device_globals
        .iter()
        .map(|g| typed.symbols[*g].name.clone())
        .collect();
    Ok(Compiled {
        ptx,
        regions,
        globals,
    })
}

fn find_ptxas() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("ptxas");
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let py = PathBuf::from(
        "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/nvidia/cuda_nvcc/bin/ptxas",
    );
    py.is_file().then_some(py)
}

/// Assembles `ptx` for sm_70 and sm_90 (skipped without ptxas unless OMPCC_REQUIRE_PTXAS=1).
pub fn assemble(ptx: &str) {
    let Some(ptxas) = find_ptxas() else {
        if std::env::var("OMPCC_REQUIRE_PTXAS").as_deref() == Ok("1") {
            panic!("ptxas not found and OMPCC_REQUIRE_PTXAS=1");
        }
        eprintln!("note: ptxas not found; PTX not assembled");
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("k.ptx");
    std::fs::write(&input, ptx).expect("write");
    for arch in ["sm_70", "sm_90"] {
        let out = Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg(&input)
            .arg("-o")
            .arg(dir.path().join("k.cubin"))
            .output()
            .expect("ptxas runs");
        assert!(
            out.status.success(),
            "ptxas {arch} failed:\n{}\n{ptx}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

struct Sink(Arc<Mutex<Vec<u8>>>);
impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A kernel argument.
pub enum Arg {
    /// A device buffer (Ref and DevicePtr params).
    Buf(u64),
    /// The bytes of a value.
    Val(Vec<u8>),
}

pub fn int(v: i32) -> Arg {
    Arg::Val(v.to_le_bytes().to_vec())
}
pub fn long(v: i64) -> Arg {
    Arg::Val(v.to_le_bytes().to_vec())
}
pub fn float(v: f32) -> Arg {
    Arg::Val(v.to_le_bytes().to_vec())
}
pub fn double(v: f64) -> Arg {
    Arg::Val(v.to_le_bytes().to_vec())
}

enum Dev {
    /// The emulator, printf captured.
    Emu(Device, LoadedModule),
    /// A GPU through the runtime's CUDA backend (`OMPCC_TEST_DEVICE=cuda`).
    Gpu(Box<dyn ompcc_rt::Backend>, ompcc_rt::ProgramId),
}

/// The unit's module loaded on the emulator, or on GPU 0 with `OMPCC_TEST_DEVICE=cuda`.
pub struct Emu<'c> {
    pub c: &'c Compiled,
    dev: Dev,
    pub out: Arc<Mutex<Vec<u8>>>,
}

/// True when the tests run on a GPU.
pub fn on_gpu() -> bool {
    std::env::var("OMPCC_TEST_DEVICE").as_deref() == Ok("cuda")
}

impl<'c> Emu<'c> {
    pub fn new(c: &'c Compiled) -> Emu<'c> {
        let out = Arc::new(Mutex::new(Vec::new()));
        if on_gpu() {
            let lib = ompcc_rt::backend::cuda::library_path();
            let mut devs = ompcc_rt::backend::cuda::open_devices(&lib).expect("a CUDA device");
            let mut b: Box<dyn ompcc_rt::Backend> = Box::new(devs.remove(0));
            let prog = b
                .load_program(&[ompcc_rt::ModuleImage {
                    name: "t.c",
                    ptx: &c.ptx,
                }])
                .unwrap_or_else(|e| panic!("cuda load: {e}\n{}", c.ptx));
            return Emu {
                c,
                dev: Dev::Gpu(b, prog),
                out,
            };
        }
        let mut dev = Device::new();
        dev.set_printf_sink(Box::new(Sink(out.clone())));
        let module = Module::parse(&c.ptx).unwrap_or_else(|e| panic!("emu parse: {e}\n{}", c.ptx));
        let m = dev.load(&module).expect("load");
        Emu {
            c,
            dev: Dev::Emu(dev, m),
            out,
        }
    }

    /// Device printf output (emulator only; `None` on a GPU, where it goes to stdout).
    pub fn printed(&self) -> Option<String> {
        match self.dev {
            Dev::Emu(..) => Some(String::from_utf8(self.out.lock().unwrap().clone()).unwrap()),
            Dev::Gpu(..) => None,
        }
    }

    pub fn buf<T: Num>(&mut self, v: &[T]) -> u64 {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.le()).collect();
        let n = bytes.len().max(1) as u64;
        match &mut self.dev {
            Dev::Emu(d, _) => {
                let p = d.alloc(n).unwrap();
                d.copy_to_device(p, &bytes).unwrap();
                p.0
            }
            Dev::Gpu(b, _) => {
                let p = b.alloc(n).unwrap();
                b.copy_to_device(p, &bytes).unwrap();
                p
            }
        }
    }

    pub fn get<T: Num>(&mut self, p: u64, n: usize) -> Vec<T> {
        let mut bytes = vec![0u8; n * T::SIZE];
        match &mut self.dev {
            Dev::Emu(d, _) => d.copy_from_device(&mut bytes, DevPtr(p)).unwrap(),
            Dev::Gpu(b, _) => b.copy_from_device(&mut bytes, p).unwrap(),
        }
        bytes.chunks(T::SIZE).map(T::from_le).collect()
    }

    /// The device address of a `declare target` global.
    pub fn global(&mut self, name: &str) -> u64 {
        match &mut self.dev {
            Dev::Emu(_, m) => {
                m.global(name)
                    .unwrap_or_else(|| panic!("no global {name}"))
                    .0
                    .0
            }
            Dev::Gpu(b, prog) => b.global_address(*prog, name).unwrap().expect("global").0,
        }
    }

    /// Launches region `r` with the arguments by param name; the grid follows the mode
    /// (Spmd: `teams` x `threads`; Generic: `teams` x 1; Serial: 1 x 1).
    pub fn launch(&mut self, r: usize, teams: u32, threads: u32, args: &[(&str, Arg)]) {
        let region = &self.c.regions[r];
        let args: HashMap<&str, &Arg> = args.iter().map(|(n, a)| (*n, a)).collect();
        let mut bytes: Vec<Vec<u8>> = Vec::new();
        for (name, pass, size) in &region.params {
            let a = args
                .get(name.as_str())
                .unwrap_or_else(|| panic!("no argument for param '{name}' of {region:?}"));
            let b = match (a, pass) {
                (Arg::Buf(p), Pass::Ref | Pass::DevicePtr | Pass::Copy | Pass::DeviceAddr) => {
                    p.to_le_bytes().to_vec()
                }
                (Arg::Buf(p), Pass::Value) if *size == 8 => p.to_le_bytes().to_vec(),
                (Arg::Val(v), Pass::Value) => v.clone(),
                _ => panic!("argument for '{name}' does not match {pass:?}"),
            };
            assert_eq!(b.len(), *size as usize, "size of '{name}'");
            bytes.push(b);
        }
        let refs: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
        let (g, b) = match region.mode {
            // generic kernels run with any team size (workers wait for nested `parallel`)
            ExecMode::Spmd | ExecMode::Generic => (teams, threads),
            ExecMode::Serial => (1, 1),
        };
        let kernel = region.kernel.clone();
        match &mut self.dev {
            Dev::Emu(d, m) => {
                d.launch(m, &kernel, [g, 1, 1], [b, 1, 1], 0, &refs)
                    .unwrap_or_else(|e| panic!("launch {kernel}: {e}\n{}", self.c.ptx));
            }
            Dev::Gpu(be, prog) => {
                let dims = ompcc_rt::LaunchDims {
                    teams: g,
                    teams_yz: [1, 1],
                    threads: b,
                    dyn_shared_bytes: 0,
                };
                be.launch(*prog, &kernel, &refs, dims)
                    .unwrap_or_else(|e| panic!("launch {kernel}: {e}\n{}", self.c.ptx));
            }
        }
    }
}

/// Plain numbers moved to and from device memory.
pub trait Num: Copy {
    const SIZE: usize;
    fn le(self) -> Vec<u8>;
    fn from_le(b: &[u8]) -> Self;
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn le(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn from_le(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("element size"))
            }
        }
    )*};
}
num!(i32, i64, u32, u64, f32, f64);
