//! Device global memory: allocations at distinct, never-reused addresses, checked accesses,
//! and atomics that are correct when blocks run on several host threads.
//!
//! Invariants: allocations are sorted by base address and never overlap, each is stored as
//! whole 32-bit words (its size rounded up to 4); there is a gap of at
//! least `GUARD` unmapped bytes after each one, so small overruns fault instead of landing in
//! a neighbour; freed ranges are never handed out again (use-after-free faults). Bytes are
//! `AtomicU8` so racy kernels are data races of the emulated program, never of the emulator;
//! read-modify-write atomics take a lock chosen by address, so two atomics on one location
//! exclude each other.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};

/// First device address handed out; keeps small integers and null unmapped.
const HEAP_BASE: u64 = 0x1_0000_0000;
/// Alignment of every allocation.
const ALLOC_ALIGN: u64 = 256;
/// Unmapped bytes after every allocation.
const GUARD: u64 = 4096;
/// Generic-address window of shared memory (`cvta.shared` adds it).
pub(crate) const SHARED_WINDOW: u64 = 0x7e00_0000_0000;
/// Generic-address window of local memory.
pub(crate) const LOCAL_WINDOW: u64 = 0x7f00_0000_0000;
/// Generic-address window of the kernel parameter buffer.
pub(crate) const PARAM_WINDOW: u64 = 0x7d00_0000_0000;
/// Addresses of device functions (function pointers): `FUNC_WINDOW + 16 * index`.
pub(crate) const FUNC_WINDOW: u64 = 0x7c00_0000_0000;
/// Size of each window.
pub(crate) const WINDOW_SIZE: u64 = 1 << 40;
const LOCKS: usize = 64;

pub(crate) struct Alloc {
    pub base: u64,
    pub data: Box<[AtomicU8]>,
}

impl Alloc {
    fn end(&self) -> u64 {
        self.base + self.data.len() as u64
    }
}

/// Why an access failed.
#[derive(Debug)]
pub(crate) enum MemFault {
    Unmapped,
    OutOfBounds { base: u64, size: u64 },
}

pub(crate) struct GlobalMem {
    allocs: Vec<Alloc>,
    next: u64,
    locks: Vec<Mutex<()>>,
}

impl GlobalMem {
    pub fn new() -> Self {
        GlobalMem {
            allocs: Vec::new(),
            next: HEAP_BASE,
            locks: (0..LOCKS).map(|_| Mutex::new(())).collect(),
        }
    }

    /// Allocates `bytes` zeroed bytes aligned to `ALLOC_ALIGN`.
    pub fn alloc(&mut self, bytes: u64) -> Option<u64> {
        if bytes > (1 << 36) || self.next >= SHARED_WINDOW - (1 << 37) {
            return None;
        }
        let base = self.next;
        // Storage is whole 32-bit words: a GPU allocation is padded to its granule, and
        // 8- and 16-bit atomics are compare-and-swap loops on the aligned word holding
        // the object (as nvcc and LLVM emit them), so that word must be addressable.
        let n = usize::try_from(bytes.max(1).div_ceil(4) * 4).ok()?;
        let mut data: Vec<AtomicU8> = Vec::new();
        // a failed reservation is an error for the caller, not an abort of the host
        data.try_reserve_exact(n).ok()?;
        data.resize_with(n, || AtomicU8::new(0));
        let data = data.into_boxed_slice();
        self.next = (base + bytes.max(1) + GUARD).div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
        self.allocs.push(Alloc { base, data });
        Some(base)
    }

    pub fn free(&mut self, base: u64) -> bool {
        match self.allocs.binary_search_by_key(&base, |a| a.base) {
            Ok(i) => {
                self.allocs.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// Size of the allocation that starts at `base`.
    pub fn size_of(&self, base: u64) -> Option<u64> {
        self.allocs
            .binary_search_by_key(&base, |a| a.base)
            .ok()
            .map(|i| self.allocs[i].data.len() as u64)
    }

    /// The allocation holding `[addr, addr+len)`.
    #[inline]
    pub fn find(&self, addr: u64, len: u64) -> Result<&Alloc, MemFault> {
        let i = self.allocs.partition_point(|a| a.base <= addr);
        if i == 0 {
            return Err(MemFault::Unmapped);
        }
        let a = &self.allocs[i - 1];
        if addr >= a.end() {
            // inside the guard gap: report it against the allocation it overran
            if addr - a.end() < GUARD {
                return Err(MemFault::OutOfBounds {
                    base: a.base,
                    size: a.data.len() as u64,
                });
            }
            return Err(MemFault::Unmapped);
        }
        if addr.checked_add(len).is_none_or(|e| e > a.end()) {
            return Err(MemFault::OutOfBounds {
                base: a.base,
                size: a.data.len() as u64,
            });
        }
        Ok(a)
    }

    /// Reads `len <= 8` bytes little-endian.
    #[inline]
    pub fn read(&self, addr: u64, len: u32) -> Result<u64, MemFault> {
        let a = self.find(addr, len as u64)?;
        let off = (addr - a.base) as usize;
        let mut v = 0u64;
        for (k, b) in a.data[off..off + len as usize].iter().enumerate() {
            v |= (b.load(Ordering::Relaxed) as u64) << (8 * k);
        }
        Ok(v)
    }

    /// Writes the low `len <= 8` bytes of `v` little-endian.
    #[inline]
    pub fn write(&self, addr: u64, len: u32, v: u64) -> Result<(), MemFault> {
        let a = self.find(addr, len as u64)?;
        let off = (addr - a.base) as usize;
        for (k, b) in a.data[off..off + len as usize].iter().enumerate() {
            b.store((v >> (8 * k)) as u8, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Atomic read-modify-write of `len` bytes: stores `f(old)` and returns `old`.
    pub fn atomic(&self, addr: u64, len: u32, f: impl FnOnce(u64) -> u64) -> Result<u64, MemFault> {
        self.find(addr, len as u64)?;
        let lock = &self.locks[((addr >> 3) as usize) % LOCKS];
        // a poisoned lock only means another host thread panicked; the bytes are still valid
        let _g = lock.lock().unwrap_or_else(|p| p.into_inner());
        let old = self.read(addr, len)?;
        self.write(addr, len, f(old))?;
        Ok(old)
    }

    pub fn copy_in(&mut self, addr: u64, src: &[u8]) -> Result<(), MemFault> {
        let a = self.find(addr, src.len() as u64)?;
        let off = (addr - a.base) as usize;
        for (d, s) in a.data[off..off + src.len()].iter().zip(src) {
            d.store(*s, Ordering::Relaxed);
        }
        Ok(())
    }

    pub fn copy_out(&self, addr: u64, dst: &mut [u8]) -> Result<(), MemFault> {
        let a = self.find(addr, dst.len() as u64)?;
        let off = (addr - a.base) as usize;
        let n = dst.len();
        for (d, s) in dst.iter_mut().zip(&a.data[off..off + n]) {
            *d = s.load(Ordering::Relaxed);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_accesses() {
        let mut m = GlobalMem::new();
        let a = m.alloc(16).unwrap();
        let b = m.alloc(16).unwrap();
        assert!(b >= a + 16 + GUARD);
        m.write(a + 8, 8, 0x1122_3344_5566_7788).unwrap();
        assert_eq!(m.read(a + 8, 4).unwrap(), 0x5566_7788);
        assert!(matches!(
            m.read(a + 12, 8),
            Err(MemFault::OutOfBounds { .. })
        ));
        assert!(matches!(
            m.read(a + 16, 4),
            Err(MemFault::OutOfBounds { .. })
        ));
        assert!(matches!(m.read(a + 16 + GUARD, 4), Err(MemFault::Unmapped)));
        assert!(matches!(m.read(0, 4), Err(MemFault::Unmapped)));
        assert!(m.free(a));
        assert!(matches!(m.read(a, 4), Err(MemFault::Unmapped)));
        assert_eq!(m.atomic(b, 4, |x| x + 5).unwrap(), 0);
        assert_eq!(m.read(b, 4).unwrap(), 5);
        // a one-byte object's word is addressable (sub-word atomics), the next word is not
        let c = m.alloc(1).unwrap();
        assert_eq!(m.atomic(c, 4, |x| x | 0x100).unwrap(), 0);
        assert_eq!(m.read(c, 1).unwrap(), 0);
        assert!(matches!(
            m.read(c + 4, 4),
            Err(MemFault::OutOfBounds { .. })
        ));
    }
}

/// The device heap behind device-side `malloc`/`free`: one global allocation carved up
/// first-fit, like CUDA's fixed-size heap (8 MiB by default there too). Blocks inside it
/// are not bounds-checked one by one (the heap as a whole is), as on the GPU.
pub(crate) struct DeviceHeap {
    base: u64,
    size: u64,
    /// Live blocks: offset -> size.
    live: std::collections::BTreeMap<u64, u64>,
}

/// Alignment of `malloc` results (CUDA guarantees 16).
const HEAP_ALIGN: u64 = 16;

impl DeviceHeap {
    /// A heap over `[base, base + size)`.
    pub fn new(base: u64, size: u64) -> Self {
        DeviceHeap {
            base,
            size,
            live: Default::default(),
        }
    }

    /// The address of `bytes` free bytes, or 0 (`NULL`) when the heap has no room.
    pub fn malloc(&mut self, bytes: u64) -> u64 {
        let need = bytes.max(1).div_ceil(HEAP_ALIGN) * HEAP_ALIGN;
        let mut at = 0;
        for (&off, &len) in &self.live {
            if off - at >= need {
                break;
            }
            at = (off + len).div_ceil(HEAP_ALIGN) * HEAP_ALIGN;
        }
        if at.checked_add(need).is_none_or(|end| end > self.size) {
            return 0;
        }
        self.live.insert(at, need);
        self.base + at
    }

    /// Frees a block `malloc` returned; false for any other address.
    pub fn free(&mut self, addr: u64) -> bool {
        addr.checked_sub(self.base)
            .is_some_and(|off| self.live.remove(&off).is_some())
    }
}

#[cfg(test)]
mod heap_tests {
    use super::DeviceHeap;

    #[test]
    fn blocks_are_aligned_disjoint_and_reused_after_free() {
        let mut h = DeviceHeap::new(0x1000, 256);
        let a = h.malloc(10);
        let b = h.malloc(100);
        assert_eq!((a, b), (0x1000, 0x1010));
        assert_eq!(h.malloc(200), 0, "no room left");
        assert!(h.free(a) && !h.free(a) && !h.free(0x1001));
        assert_eq!(h.malloc(16), 0x1000, "the freed block is reused");
        assert!(h.free(b));
        assert_eq!(h.malloc(200), 0x1010);
    }
}
