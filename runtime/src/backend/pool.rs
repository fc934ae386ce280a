//! Reuse of small device allocations on a GPU. Every target region that maps a scalar
//! (`map(tofrom: sum)` of a reduction, a struct) allocates and frees a few bytes of device
//! memory; `cuMemAlloc` and `cuMemFree` (which synchronizes the device) cost tens of
//! microseconds each, more than a bandwidth-bound kernel over millions of elements takes to
//! launch. Freed blocks of up to [`MAX_BLOCK`] bytes are kept, by power-of-two size class,
//! and handed out again; at most [`MAX_IDLE`] bytes are kept idle.
//!
//! Only the CUDA backend pools: the emulator is the checking device, and reusing its
//! allocations would hide use-after-free faults. Reuse is safe on a GPU because every
//! launch and copy of the runtime completes before it returns, so a freed block is idle.

use super::DevPtr;
use std::collections::HashMap;

/// Largest request served from the pool.
pub const MAX_BLOCK: u64 = 64 * 1024;
/// Smallest size class (`cuMemAlloc` aligns to 256 bytes anyway).
const MIN_CLASS: u64 = 256;
/// Most bytes kept in idle blocks.
pub const MAX_IDLE: u64 = 8 * 1024 * 1024;

/// Idle blocks by size class, and the class of every block the pool handed out and not yet
/// got back (a block is in exactly one of the two).
#[derive(Default)]
pub struct SmallPool {
    idle: HashMap<u64, Vec<DevPtr>>,
    idle_bytes: u64,
    in_use: HashMap<DevPtr, u64>,
}

/// What to do with a freed block.
#[derive(Debug, PartialEq, Eq)]
pub enum Freed {
    /// Kept for reuse: nothing to free.
    Kept,
    /// The pool is full or the block is not the pool's: free it.
    Release,
    /// The block is already idle in the pool: a double free, an error.
    AlreadyFree,
}

impl SmallPool {
    /// The size class serving `bytes`, or `None` for a request too large to pool.
    pub fn class(bytes: u64) -> Option<u64> {
        (bytes <= MAX_BLOCK).then(|| bytes.max(MIN_CLASS).next_power_of_two())
    }

    /// An idle block of `class`, if one is kept.
    pub fn take(&mut self, class: u64) -> Option<DevPtr> {
        let p = self.idle.get_mut(&class)?.pop()?;
        self.idle_bytes -= class;
        self.in_use.insert(p, class);
        Some(p)
    }

    /// Records a block of `class` newly allocated from the device.
    pub fn allocated(&mut self, ptr: DevPtr, class: u64) {
        self.in_use.insert(ptr, class);
    }

    /// Takes back a freed block.
    pub fn free(&mut self, ptr: DevPtr) -> Freed {
        let Some(class) = self.in_use.remove(&ptr) else {
            let idle = self.idle.values().any(|blocks| blocks.contains(&ptr));
            return if idle {
                Freed::AlreadyFree
            } else {
                Freed::Release
            };
        };
        if self.idle_bytes + class > MAX_IDLE {
            return Freed::Release;
        }
        self.idle.entry(class).or_default().push(ptr);
        self.idle_bytes += class;
        Freed::Kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_powers_of_two_from_256() {
        assert_eq!(SmallPool::class(1), Some(256));
        assert_eq!(SmallPool::class(256), Some(256));
        assert_eq!(SmallPool::class(257), Some(512));
        assert_eq!(SmallPool::class(MAX_BLOCK), Some(MAX_BLOCK));
        assert_eq!(SmallPool::class(MAX_BLOCK + 1), None);
    }

    #[test]
    fn freed_blocks_are_reused_by_class() {
        let mut p = SmallPool::default();
        assert_eq!(p.take(256), None);
        p.allocated(0x1000, 256);
        p.allocated(0x2000, 512);
        assert_eq!(p.free(0x1000), Freed::Kept);
        assert_eq!(p.free(0x1000), Freed::AlreadyFree);
        assert_eq!(p.take(512), None);
        assert_eq!(p.take(256), Some(0x1000));
        assert_eq!(p.take(256), None);
        // Not the pool's: the caller frees it.
        assert_eq!(p.free(0x9000), Freed::Release);
    }

    #[test]
    fn idle_bytes_are_bounded() {
        let mut p = SmallPool::default();
        let n = MAX_IDLE / MAX_BLOCK;
        for i in 0..=n {
            p.allocated(i * MAX_BLOCK, MAX_BLOCK);
        }
        for i in 0..n {
            assert_eq!(p.free(i * MAX_BLOCK), Freed::Kept);
        }
        assert_eq!(p.free(n * MAX_BLOCK), Freed::Release);
        // Once released, the block is forgotten: a second free is not kept.
        assert_eq!(p.free(n * MAX_BLOCK), Freed::Release);
    }
}
