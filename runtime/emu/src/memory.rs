//! Device global memory: allocations at distinct, never-reused addresses, checked accesses,
//! and atomics that are correct when blocks run on several host threads.
//!
//! Device addresses (allocations and the generic windows of the other state spaces) lie at
//! and above [`DEVICE_SPACE`], where no host address can be (x86-64 user addresses stay below
//! 2^57 even with 5-level paging): with host access on (`requires unified_shared_memory`) an
//! address below it is the program's host memory (`hostmem`), off it is unmapped.
//!
//! Invariants: allocations are sorted by base address and never overlap, each is stored as
//! whole 32-bit words (its size rounded up to 4); there is a gap of at
//! least `GUARD` unmapped bytes after each one, so small overruns fault instead of landing in
//! a neighbour; freed ranges are never handed out again (use-after-free faults).
//!
//! Storage is 64-bit atomic words, so racy kernels are data races of the emulated program,
//! never of the emulator, and every naturally aligned access is single-copy atomic as on the
//! GPU: a 1-, 2- or 4-byte store is a compare-and-swap on the word holding it, and a
//! read-modify-write atomic is one compare-and-swap loop on that word. A plain store racing
//! an atomic on the same location is therefore never lost (a lock around the atomic would
//! not exclude the store).

use std::sync::atomic::{AtomicU64, Ordering};

/// Every device address is at least this; no host address reaches it.
pub(crate) const DEVICE_SPACE: u64 = 0x1000_0000_0000_0000;
/// First device address handed out; keeps small integers and null unmapped.
const HEAP_BASE: u64 = DEVICE_SPACE;
/// Alignment of every allocation (a multiple of the 8-byte storage word).
const ALLOC_ALIGN: u64 = 256;
/// Unmapped bytes after every allocation.
const GUARD: u64 = 4096;
/// Generic-address window of shared memory (`cvta.shared` adds it).
pub(crate) const SHARED_WINDOW: u64 = 0x1e00_0000_0000_0000;
/// Generic-address window of local memory.
pub(crate) const LOCAL_WINDOW: u64 = 0x1f00_0000_0000_0000;
/// Generic-address window of the kernel parameter buffer.
pub(crate) const PARAM_WINDOW: u64 = 0x1d00_0000_0000_0000;
/// Addresses of device functions (function pointers): `FUNC_WINDOW + 16 * index`; the
/// lowest window, which allocations stay below.
pub(crate) const FUNC_WINDOW: u64 = 0x1c00_0000_0000_0000;
/// Size of each window.
pub(crate) const WINDOW_SIZE: u64 = 1 << 40;

pub(crate) struct Alloc {
    pub base: u64,
    /// Addressable bytes (the requested size rounded up to 4).
    size: u64,
    words: Box<[AtomicU64]>,
}

impl Alloc {
    fn end(&self) -> u64 {
        self.base + self.size
    }

    /// The word holding byte `off` of the allocation, and the byte's shift in it.
    #[inline]
    fn word(&self, off: u64) -> (&AtomicU64, u32) {
        (&self.words[(off / 8) as usize], 8 * (off % 8) as u32)
    }

    /// Reads `len <= 8` bytes at offset `off` little-endian.
    #[inline]
    fn read(&self, off: u64, len: u32) -> u64 {
        let (w, shift) = self.word(off);
        if shift / 8 + len <= 8 {
            return (w.load(Ordering::Relaxed) >> shift) & mask(len);
        }
        // Straddles two words: only an unaligned access can, and the GPU has none.
        (0..len as u64).fold(0, |v, k| v | self.read(off + k, 1) << (8 * k))
    }

    /// Writes the low `len <= 8` bytes of `v` at offset `off` little-endian.
    #[inline]
    fn write(&self, off: u64, len: u32, v: u64) {
        let (w, shift) = self.word(off);
        if len == 8 && shift == 0 {
            w.store(v, Ordering::Relaxed);
        } else if shift / 8 + len <= 8 {
            let m = mask(len) << shift;
            let bits = (v << shift) & m;
            // `fetch_update` with a closure that never declines cannot fail
            let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some(old & !m | bits)
            });
        } else {
            for k in 0..len as u64 {
                self.write(off + k, 1, v >> (8 * k));
            }
        }
    }
}

/// The low `len` bytes set.
#[inline]
fn mask(len: u32) -> u64 {
    if len >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * len)) - 1
    }
}

/// Why an access failed.
#[derive(Debug)]
pub(crate) enum MemFault {
    Unmapped,
    /// A host address (host access on) that the process cannot read or write that way.
    Host,
    OutOfBounds {
        base: u64,
        size: u64,
    },
}

pub(crate) struct GlobalMem {
    allocs: Vec<Alloc>,
    next: u64,
    /// Addresses below [`DEVICE_SPACE`] are the host's (unified shared memory).
    host: bool,
}

impl GlobalMem {
    pub fn new() -> Self {
        GlobalMem {
            allocs: Vec::new(),
            next: HEAP_BASE,
            host: false,
        }
    }

    /// Whether kernels reach host memory at addresses below [`DEVICE_SPACE`].
    pub fn set_host_access(&mut self, on: bool) {
        self.host = on;
    }

    pub fn host_access(&self) -> bool {
        self.host
    }

    #[inline]
    fn is_host(&self, addr: u64) -> bool {
        self.host && addr < DEVICE_SPACE
    }

    /// Allocates `bytes` zeroed bytes aligned to `ALLOC_ALIGN`.
    pub fn alloc(&mut self, bytes: u64) -> Option<u64> {
        if bytes > (1 << 36) || self.next >= FUNC_WINDOW - (1 << 37) {
            return None;
        }
        let base = self.next;
        // Addressable as whole 32-bit words: a GPU allocation is padded to its granule, and
        // 8- and 16-bit atomics are compare-and-swap loops on the aligned word holding
        // the object (as nvcc and LLVM emit them), so that word must be addressable.
        let size = bytes.max(1).div_ceil(4) * 4;
        let n = usize::try_from(size.div_ceil(8)).ok()?;
        let words = zeroed_words(n)?;
        self.next = (base + bytes.max(1) + GUARD).div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
        self.allocs.push(Alloc { base, size, words });
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
            .map(|i| self.allocs[i].size)
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
                    size: a.size,
                });
            }
            return Err(MemFault::Unmapped);
        }
        if addr.checked_add(len).is_none_or(|e| e > a.end()) {
            return Err(MemFault::OutOfBounds {
                base: a.base,
                size: a.size,
            });
        }
        Ok(a)
    }

    /// Reads `len <= 8` bytes little-endian.
    #[inline]
    pub fn read(&self, addr: u64, len: u32) -> Result<u64, MemFault> {
        if self.is_host(addr) {
            return crate::hostmem::read(addr, len).ok_or(MemFault::Host);
        }
        let a = self.find(addr, len as u64)?;
        Ok(a.read(addr - a.base, len))
    }

    /// Writes the low `len <= 8` bytes of `v` little-endian.
    #[inline]
    pub fn write(&self, addr: u64, len: u32, v: u64) -> Result<(), MemFault> {
        if self.is_host(addr) {
            return crate::hostmem::write(addr, len, v)
                .then_some(())
                .ok_or(MemFault::Host);
        }
        let a = self.find(addr, len as u64)?;
        a.write(addr - a.base, len, v);
        Ok(())
    }

    /// Atomic read-modify-write of the naturally aligned `len` bytes at `addr`: stores
    /// `f(old)` and returns `old`. `f` may run more than once (a compare-and-swap loop).
    pub fn atomic(&self, addr: u64, len: u32, f: impl Fn(u64) -> u64) -> Result<u64, MemFault> {
        if self.is_host(addr) {
            return crate::hostmem::atomic(addr, len, f).ok_or(MemFault::Host);
        }
        let a = self.find(addr, len as u64)?;
        let off = addr - a.base;
        let (w, shift) = a.word(off);
        debug_assert!(off.is_multiple_of(len as u64) && shift / 8 + len <= 8);
        let m = mask(len);
        let update = |word: u64| {
            let new = f((word >> shift) & m) & m;
            Some(word & !(m << shift) | new << shift)
        };
        // `update` never declines, so this is always `Ok`
        let word = match w.fetch_update(Ordering::SeqCst, Ordering::SeqCst, update) {
            Ok(word) | Err(word) => word,
        };
        Ok((word >> shift) & m)
    }

    pub fn copy_in(&mut self, addr: u64, src: &[u8]) -> Result<(), MemFault> {
        if self.is_host(addr) {
            // storage the device shares with the host (`omp_target_alloc` under unified
            // shared memory)
            return crate::hostmem::write_bytes(addr, src)
                .then_some(())
                .ok_or(MemFault::Host);
        }
        let a = self.find(addr, src.len() as u64)?;
        let off = addr - a.base;
        // Whole words where the range covers them, single bytes at its ragged ends.
        let mut k = 0;
        while k < src.len() {
            let at = off + k as u64;
            if at.is_multiple_of(8) && src.len() - k >= 8 {
                let bytes: [u8; 8] = src[k..k + 8].try_into().expect("8 bytes");
                a.write(at, 8, u64::from_le_bytes(bytes));
                k += 8;
            } else {
                a.write(at, 1, src[k] as u64);
                k += 1;
            }
        }
        Ok(())
    }

    pub fn copy_out(&self, addr: u64, dst: &mut [u8]) -> Result<(), MemFault> {
        if self.is_host(addr) {
            return crate::hostmem::read_bytes(addr, dst)
                .then_some(())
                .ok_or(MemFault::Host);
        }
        let a = self.find(addr, dst.len() as u64)?;
        let off = addr - a.base;
        let mut k = 0;
        while k < dst.len() {
            let at = off + k as u64;
            if at.is_multiple_of(8) && dst.len() - k >= 8 {
                dst[k..k + 8].copy_from_slice(&a.read(at, 8).to_le_bytes());
                k += 8;
            } else {
                dst[k] = a.read(at, 1) as u8;
                k += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn copies_reach_host_memory_only_with_host_access() {
        let mut m = GlobalMem::new();
        let mut buf = [0u8; 12];
        let at = buf.as_mut_ptr() as u64;
        assert!(m.copy_in(at, b"shared bytes").is_err());
        m.set_host_access(true);
        m.copy_in(at, b"shared bytes").unwrap();
        let mut back = [0u8; 6];
        m.copy_out(at + 7, &mut back[..5]).unwrap();
        assert_eq!(&back[..5], b"bytes");
        assert!(matches!(m.copy_out(8, &mut back), Err(MemFault::Host)));
        // SAFETY: `buf` is live; the copy above went through the kernel.
        assert_eq!(
            unsafe { std::ptr::read_volatile(&raw const buf) },
            *b"shared bytes"
        );
    }

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
        // sub-word stores and atomics leave the rest of their word alone
        m.write(b + 8, 8, u64::MAX).unwrap();
        m.write(b + 10, 2, 0x1234).unwrap();
        assert_eq!(m.read(b + 8, 8).unwrap(), 0xffff_ffff_1234_ffff);
        assert_eq!(m.atomic(b + 12, 4, |x| x + 1).unwrap(), 0xffff_ffff);
        assert_eq!(m.read(b + 8, 8).unwrap(), 0x0000_0000_1234_ffff);
        let mut out = [0u8; 13];
        m.copy_out(b + 3, &mut out).unwrap();
        m.copy_in(b + 1, &out).unwrap();
        // every byte moved down by two
        assert_eq!(m.read(b + 4, 4).unwrap(), 0xffff_0000);
        assert_eq!(m.read(b + 8, 4).unwrap(), 0x1234);
        // a one-byte object's word is addressable (sub-word atomics), the next word is not
        let c = m.alloc(1).unwrap();
        assert_eq!(m.atomic(c, 4, |x| x | 0x100).unwrap(), 0);
        assert_eq!(m.read(c, 1).unwrap(), 0);
        assert!(matches!(
            m.read(c + 4, 4),
            Err(MemFault::OutOfBounds { .. })
        ));
    }

    /// Plain stores racing atomics on the same word are never lost: a failing
    /// compare-and-swap does not write the old value back over a newer store, and an
    /// atomic add on one half of a word keeps its count while the other half is stored to.
    #[test]
    fn plain_stores_racing_atomics_are_not_lost() {
        const N: u64 = 200_000;
        let mut m = GlobalMem::new();
        let a = m.alloc(8).unwrap();
        let m = &m;
        let (started, done) = (AtomicU64::new(0), AtomicU64::new(0));
        let lost = std::thread::scope(|s| {
            s.spawn(|| {
                while done.load(Ordering::Relaxed) == 0 {
                    // `atom.cas` expecting a value the location never holds
                    m.atomic(a, 4, |x| if x == u32::MAX as u64 { 0 } else { x })
                        .unwrap();
                    m.atomic(a + 4, 4, |x| x + 1).unwrap();
                    started.store(1, Ordering::Relaxed);
                }
            });
            while started.load(Ordering::Relaxed) == 0 {
                std::hint::spin_loop();
            }
            let mut lost = Vec::new();
            let mut adds = 0;
            for i in 1..=N {
                m.write(a, 4, i).unwrap();
                if m.read(a, 4).unwrap() != i {
                    lost.push(format!("store {i} was overwritten"));
                }
                // the adds on the other half only ever grow
                let now = m.read(a + 4, 4).unwrap();
                if now < adds {
                    lost.push(format!("adds went from {adds} back to {now}"));
                }
                adds = now;
            }
            done.store(1, Ordering::Relaxed);
            lost
        });
        assert!(
            lost.is_empty(),
            "{} lost: {:?}",
            lost.len(),
            &lost[..lost.len().min(5)]
        );
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

/// `n` (> 0) zeroed words, or `None` when the host cannot provide them: the memory comes
/// zeroed from the allocator (fresh pages for large blocks), so a large allocation the
/// program never touches costs no host memory and a failed one is an error for the caller,
/// not an abort of the host process.
fn zeroed_words(n: usize) -> Option<Box<[AtomicU64]>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout has a nonzero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` holds `n` zeroed `AtomicU64`s (all-zero bits are `AtomicU64::new(0)`),
    // allocated by the global allocator with the layout a boxed slice of `n` of them has.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)) })
}
