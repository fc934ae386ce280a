//! Helpers shared by the emulator tests: load a PTX file from tests/ptx, move typed buffers
//! in and out of device memory, capture printf output.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use ompcc_emu::{DevPtr, Device, EmuError, LaunchStats, LoadedModule, Module};

pub fn ptx_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("ptx")
}

pub fn module(name: &str) -> Module {
    let path = ptx_dir().join(format!("{name}.ptx"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Module::parse(&text).unwrap_or_else(|e| panic!("{name}.ptx: {e}"))
}

/// A device with one module loaded and printf captured.
pub struct Env {
    pub dev: Device,
    pub m: LoadedModule,
    pub out: Arc<Mutex<Vec<u8>>>,
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

impl Env {
    pub fn new(name: &str) -> Env {
        let mut dev = Device::new();
        let out = Arc::new(Mutex::new(Vec::new()));
        dev.set_printf_sink(Box::new(Sink(out.clone())));
        let m = dev.load(&module(name)).unwrap();
        Env { dev, m, out }
    }

    pub fn launch(
        &self,
        k: &str,
        grid: [u32; 3],
        block: [u32; 3],
        args: &[&[u8]],
    ) -> Result<LaunchStats, EmuError> {
        self.dev.launch(&self.m, k, grid, block, 0, args)
    }

    pub fn run(&self, k: &str, grid: u32, block: u32, args: &[&[u8]]) -> LaunchStats {
        self.launch(k, [grid, 1, 1], [block, 1, 1], args)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn printed(&self) -> String {
        String::from_utf8(self.out.lock().unwrap().clone()).unwrap()
    }

    pub fn zeros(&mut self, bytes: usize) -> DevPtr {
        self.dev.alloc(bytes as u64).unwrap()
    }

    pub fn upload<T: Pod>(&mut self, v: &[T]) -> DevPtr {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.bytes()).collect();
        let p = self.dev.alloc(bytes.len() as u64).unwrap();
        self.dev.copy_to_device(p, &bytes).unwrap();
        p
    }

    pub fn download<T: Pod>(&self, p: DevPtr, n: usize) -> Vec<T> {
        let mut bytes = vec![0u8; n * T::SIZE];
        self.dev.copy_from_device(&mut bytes, p).unwrap();
        bytes.chunks(T::SIZE).map(T::from_bytes).collect()
    }
}

/// Plain values that move to and from device memory little-endian.
pub trait Pod: Copy {
    const SIZE: usize;
    fn bytes(&self) -> Vec<u8>;
    fn from_bytes(b: &[u8]) -> Self;
}

macro_rules! pod {
    ($($t:ty),*) => {$(
        impl Pod for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn bytes(&self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn from_bytes(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().unwrap())
            }
        }
    )*};
}
pod!(u8, u16, u32, u64, i32, i64, f32, f64);

pub fn p(d: DevPtr) -> [u8; 8] {
    d.0.to_le_bytes()
}
