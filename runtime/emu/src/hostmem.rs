//! Host memory as device code reaches it under `requires unified_shared_memory`: the kernel
//! dereferences the program's own host addresses (malloc'ed blocks, stacks, globals).
//!
//! Every access goes through `process_vm_readv`/`process_vm_writev` on the emulator's own
//! process, never through a raw pointer: a kernel's address is untrusted, and these calls
//! answer `EFAULT` for an unmapped page, a guard page or a read-only page written to, so a bad
//! address becomes the emulator's usual fault, not a crash (and a device store never lands in
//! read-only data, which `/proc/self/mem` would force). The price is a system call per access
//! (about 1.5 us), which is what a checking device may pay.
//!
//! Blocks run on several host threads, and host bytes are not the emulator's atomic words
//! (see `memory`): every store and every read-modify-write of host memory holds one lock, so a
//! store racing an atomic on the same location is never lost and atomics are atomic with
//! respect to each other. Host threads of the program itself wait for the launch (launches
//! are synchronous), so they do not race the kernel.

use std::sync::Mutex;

/// Serializes the emulator's stores and atomics to host memory.
static HOST_WRITES: Mutex<()> = Mutex::new(());

#[cfg(target_os = "linux")]
mod sys {
    use std::ffi::c_void;

    #[repr(C)]
    pub struct IoVec {
        pub base: *mut c_void,
        pub len: usize,
    }

    unsafe extern "C" {
        pub fn getpid() -> i32;
        pub fn process_vm_readv(
            pid: i32,
            local: *const IoVec,
            local_count: u64,
            remote: *const IoVec,
            remote_count: u64,
            flags: u64,
        ) -> isize;
        pub fn process_vm_writev(
            pid: i32,
            local: *const IoVec,
            local_count: u64,
            remote: *const IoVec,
            remote_count: u64,
            flags: u64,
        ) -> isize;
    }

    /// Copies `buf.len()` bytes at host address `addr` into `buf` (`write`: the other way).
    /// False when any page of the range is not accessible that way.
    pub fn transfer(addr: u64, buf: &mut [u8], write: bool) -> bool {
        let local = IoVec {
            base: buf.as_mut_ptr().cast(),
            len: buf.len(),
        };
        let remote = IoVec {
            base: addr as *mut c_void,
            len: buf.len(),
        };
        // SAFETY: `local` describes `buf`; the kernel checks `remote` against this process's
        // mappings and fails with EFAULT instead of touching an inaccessible page. The pid is
        // read each time: a forked child must not reach its parent's memory.
        let n = unsafe {
            let pid = getpid();
            if write {
                process_vm_writev(pid, &local, 1, &remote, 1, 0)
            } else {
                process_vm_readv(pid, &local, 1, &remote, 1, 0)
            }
        };
        n == buf.len() as isize
    }
}

#[cfg(not(target_os = "linux"))]
mod sys {
    /// No safe way to probe host memory here: every host access faults.
    pub fn transfer(_addr: u64, _buf: &mut [u8], _write: bool) -> bool {
        false
    }
}

/// Reads `len <= 8` bytes at host address `addr`, little-endian; `None` if inaccessible.
pub(crate) fn read(addr: u64, len: u32) -> Option<u64> {
    let mut b = [0u8; 8];
    sys::transfer(addr, &mut b[..len as usize], false).then(|| u64::from_le_bytes(b))
}

/// Writes the low `len <= 8` bytes of `v` at host address `addr`; false if inaccessible.
pub(crate) fn write(addr: u64, len: u32, v: u64) -> bool {
    let mut b = v.to_le_bytes();
    let _held = HOST_WRITES.lock().unwrap_or_else(|p| p.into_inner());
    sys::transfer(addr, &mut b[..len as usize], true)
}

/// Copies host memory at `addr` into `buf`; false if any of it is inaccessible.
pub(crate) fn read_bytes(addr: u64, buf: &mut [u8]) -> bool {
    sys::transfer(addr, buf, false)
}

/// Copies `bytes` to host memory at `addr`; false if any of it is inaccessible.
pub(crate) fn write_bytes(addr: u64, bytes: &[u8]) -> bool {
    let mut b = bytes.to_vec();
    let _held = HOST_WRITES.lock().unwrap_or_else(|p| p.into_inner());
    sys::transfer(addr, &mut b, true)
}

/// Atomic read-modify-write of `len <= 8` bytes at host address `addr`: stores `f(old)` and
/// returns `old`; `None` if the location cannot be read and written.
pub(crate) fn atomic(addr: u64, len: u32, f: impl Fn(u64) -> u64) -> Option<u64> {
    let _held = HOST_WRITES.lock().unwrap_or_else(|p| p.into_inner());
    let mut b = [0u8; 8];
    if !sys::transfer(addr, &mut b[..len as usize], false) {
        return None;
    }
    let old = u64::from_le_bytes(b);
    let mut new = f(old).to_le_bytes();
    sys::transfer(addr, &mut new[..len as usize], true).then_some(old)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn reads_writes_and_atomics_reach_host_memory_and_bad_addresses_fail() {
        let mut cell: u64 = 0x1122_3344_5566_7788;
        let a = &raw mut cell as u64;
        assert_eq!(read(a, 8), Some(0x1122_3344_5566_7788));
        assert_eq!(read(a + 2, 2), Some(0x5566));
        assert!(write(a + 4, 4, 0xdead_beef));
        assert_eq!(atomic(a, 4, |x| x + 1), Some(0x5566_7788));
        // SAFETY: `cell` is a live local; the writes above went through the kernel.
        assert_eq!(
            unsafe { std::ptr::read_volatile(&raw const cell) },
            0xdead_beef_5566_7789
        );
        assert_eq!(read(0, 4), None);
        assert_eq!(read(16, 1), None);
        assert!(!write(8, 8, 1));
        assert_eq!(atomic(0, 4, |x| x), None);
        // a read-only page is readable but a store to it fails instead of landing there
        static RO: [u8; 4] = *b"abc\0";
        let r = RO.as_ptr() as u64;
        assert_eq!(read(r, 1), Some(b'a' as u64));
        assert!(!write(r, 1, b'x' as u64));
        assert_eq!(RO[0], b'a');
    }
}
