//! `sim`: a device made of separate host buffers, with kernels written in Rust.
//!
//! It exists so that mapping semantics are observable without a GPU: a `to` copy really copies
//! into another buffer, and a missing `from` really leaves the host stale. Addresses are
//! invented (starting at [`SimBackend::BASE`], never reused), so a host pointer passed by
//! mistake to the device is caught as an access outside every allocation. PTX is accepted and
//! kept, but only kernels registered with [`SimBackend::with_kernel`] can run.

use super::{Backend, BackendError, DevPtr, LaunchDims, LaunchStats, ModuleImage, ProgramId};
use std::collections::{BTreeMap, HashMap};

/// Signature of a sim kernel: device memory, parameter bytes, geometry.
pub type SimKernel =
    Box<dyn Fn(&mut SimMemory, &[&[u8]], LaunchDims) -> Result<(), String> + Send + Sync>;

/// The memory of a sim device: allocations keyed by their start address.
#[derive(Default)]
pub struct SimMemory {
    blocks: BTreeMap<DevPtr, Vec<u8>>,
}

impl SimMemory {
    /// The allocation holding `[addr, addr+len)` and the offset of `addr` in it.
    fn locate(&mut self, addr: DevPtr, len: u64) -> Result<(&mut Vec<u8>, usize), String> {
        let (start, block) = self
            .blocks
            .range_mut(..=addr)
            .next_back()
            .ok_or_else(|| format!("address {addr:#x} is not in any device allocation"))?;
        let off = addr - start;
        if off
            .checked_add(len)
            .is_none_or(|end| end > block.len() as u64)
        {
            return Err(format!(
                "access of {len} bytes at {addr:#x} is outside the allocation at {start:#x} \
                 ({} bytes)",
                block.len()
            ));
        }
        Ok((block, off as usize))
    }

    /// Reads `dst.len()` bytes at `addr`.
    pub fn read(&mut self, addr: DevPtr, dst: &mut [u8]) -> Result<(), String> {
        let (block, off) = self.locate(addr, dst.len() as u64)?;
        dst.copy_from_slice(&block[off..off + dst.len()]);
        Ok(())
    }

    /// Writes `src` at `addr`.
    pub fn write(&mut self, addr: DevPtr, src: &[u8]) -> Result<(), String> {
        let (block, off) = self.locate(addr, src.len() as u64)?;
        block[off..off + src.len()].copy_from_slice(src);
        Ok(())
    }

    /// Number of live allocations (tests check that unmapping frees).
    pub fn live_allocations(&self) -> usize {
        self.blocks.len()
    }
}

/// The sim device.
pub struct SimBackend {
    memory: SimMemory,
    next: DevPtr,
    kernels: HashMap<String, SimKernel>,
    programs: Vec<Vec<(String, DevPtr, u64)>>,
    globals: Vec<(String, u64)>,
    /// Plays a GPU whose driver reports pageable memory access (unified shared memory).
    pageable: bool,
}

impl Default for SimBackend {
    fn default() -> Self {
        SimBackend {
            memory: SimMemory::default(),
            next: Self::BASE,
            kernels: HashMap::new(),
            programs: Vec::new(),
            globals: Vec::new(),
            pageable: false,
        }
    }
}

impl SimBackend {
    /// First address handed out; far from where Linux puts heap and stack.
    pub const BASE: DevPtr = 0x5ee0_0000_0000;

    /// A sim device with no kernels.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a kernel that `launch` runs when asked for `name`.
    pub fn with_kernel(
        mut self,
        name: &str,
        kernel: impl Fn(&mut SimMemory, &[&[u8]], LaunchDims) -> Result<(), String>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.kernels.insert(name.to_string(), Box::new(kernel));
        self
    }

    /// Whether the device says its kernels can access pageable host memory, as a GPU's
    /// `CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS` does: with it, a program requiring unified
    /// shared memory runs zero-copy (its kernels get host addresses); without, it is refused.
    pub fn with_pageable_memory_access(mut self, on: bool) -> Self {
        self.pageable = on;
        self
    }

    /// Declares a device global that every loaded program will have (zero-initialized),
    /// standing in for the `.global` variables of PTX, which the sim device cannot read.
    pub fn with_global(mut self, name: &str, bytes: u64) -> Self {
        self.globals.push((name.to_string(), bytes));
        self
    }

    fn raw_alloc(&mut self, bytes: u64) -> Result<DevPtr, BackendError> {
        let len = usize::try_from(bytes)
            .map_err(|_| BackendError::new("sim alloc", "size does not fit in memory"))?;
        let mut block = Vec::new();
        block.try_reserve_exact(len).map_err(|_| {
            BackendError::new("sim alloc", format!("out of memory for {bytes} bytes"))
        })?;
        block.resize(len, 0);
        let addr = self.next;
        // Leave a gap so that an off-by-one access lands outside every allocation.
        self.next += bytes.div_ceil(256) * 256 + 256;
        self.memory.blocks.insert(addr, block);
        Ok(addr)
    }
}

fn sim_err(op: &str) -> impl FnOnce(String) -> BackendError + '_ {
    move |msg| BackendError::new(op, msg)
}

impl Backend for SimBackend {
    fn describe(&self) -> String {
        "sim:0 (host buffers, Rust kernels)".into()
    }

    fn reads_host_memory(&self) -> bool {
        self.pageable
    }

    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, BackendError> {
        self.raw_alloc(bytes)
    }

    fn free(&mut self, ptr: DevPtr) -> Result<(), BackendError> {
        self.memory
            .blocks
            .remove(&ptr)
            .map(|_| ())
            .ok_or_else(|| BackendError::new("sim free", format!("{ptr:#x} is not allocated")))
    }

    fn copy_to_device(&mut self, dst: DevPtr, src: &[u8]) -> Result<(), BackendError> {
        self.memory
            .write(dst, src)
            .map_err(sim_err("sim copy to device"))
    }

    fn copy_from_device(&mut self, dst: &mut [u8], src: DevPtr) -> Result<(), BackendError> {
        self.memory
            .read(src, dst)
            .map_err(sim_err("sim copy from device"))
    }

    fn load_program(&mut self, modules: &[ModuleImage<'_>]) -> Result<ProgramId, BackendError> {
        if let Some(empty) = modules.iter().find(|m| m.ptx.trim().is_empty()) {
            return Err(BackendError::new(
                "sim load",
                format!("module {} is empty", empty.name),
            ));
        }
        let mut globals = Vec::new();
        for (name, bytes) in self.globals.clone() {
            let addr = self.raw_alloc(bytes.max(1))?;
            globals.push((name, addr, bytes));
        }
        self.programs.push(globals);
        Ok(ProgramId(self.programs.len() as u32 - 1))
    }

    fn global_address(
        &mut self,
        program: ProgramId,
        name: &str,
    ) -> Result<Option<(DevPtr, u64)>, BackendError> {
        let globals = self
            .programs
            .get(program.0 as usize)
            .ok_or_else(|| BackendError::new("sim global", "unknown program"))?;
        Ok(globals.iter().find(|g| g.0 == name).map(|g| (g.1, g.2)))
    }

    fn launch(
        &mut self,
        _program: ProgramId,
        kernel: &str,
        params: &[&[u8]],
        dims: LaunchDims,
    ) -> Result<LaunchStats, BackendError> {
        let body = self.kernels.get(kernel).ok_or_else(|| {
            BackendError::new(
                "sim launch",
                format!("the sim device has no Rust implementation of kernel '{kernel}'"),
            )
        })?;
        body(&mut self.memory, params, dims).map_err(sim_err("sim launch"))?;
        Ok(LaunchStats::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_round_trip_and_bounds_are_checked() {
        let mut sim = SimBackend::new();
        let a = sim.alloc(16).unwrap();
        sim.copy_to_device(a + 4, &[1, 2, 3]).unwrap();
        let mut out = [0u8; 5];
        sim.copy_from_device(&mut out, a + 3).unwrap();
        assert_eq!(out, [0, 1, 2, 3, 0]);
        let err = sim.copy_to_device(a + 14, &[0; 4]).unwrap_err();
        assert!(err.to_string().contains("outside the allocation"), "{err}");
        assert!(sim.copy_to_device(0x1000, &[0]).is_err());
        sim.free(a).unwrap();
        assert!(sim.free(a).is_err());
    }

    #[test]
    fn unknown_kernel_is_an_error() {
        let mut sim = SimBackend::new();
        let p = sim
            .load_program(&[ModuleImage {
                name: "a.c",
                ptx: ".version 7.0",
            }])
            .unwrap();
        let dims = LaunchDims {
            teams: 1,
            teams_yz: [1, 1],
            threads: 1,
            dyn_shared_bytes: 0,
        };
        let err = sim.launch(p, "k", &[], dims).unwrap_err();
        assert!(
            err.to_string()
                .contains("no Rust implementation of kernel 'k'"),
            "{err}"
        );
    }
}
