//! Host memory access (`Device::set_host_memory_access`, for `requires unified_shared_memory`):
//! kernels read, write and update host addresses; without it, or at an address the process
//! cannot access, the launch faults with a message naming the address.

mod common;

use common::Env;

fn ptr_arg(p: u64) -> [u8; 8] {
    p.to_le_bytes()
}

#[test]
fn kernels_use_host_memory_when_allowed() {
    let mut e = Env::new("hostmem");
    // on this test's stack: an address the old local-memory window covered
    let mut host = [0u32, 21, 0];
    let addr = host.as_mut_ptr() as u64;
    let err = e
        .launch("bump", [1, 1, 1], [1, 1, 1], &[&ptr_arg(addr)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("unmapped global address 0x{addr:x}")),
        "{err}"
    );
    e.dev.set_host_memory_access(true);
    assert!(e.dev.host_memory_access());
    e.launch("bump", [4, 1, 1], [64, 1, 1], &[&ptr_arg(addr)])
        .unwrap();
    // SAFETY: `host` is live; the kernel wrote it through the kernel's process_vm_writev.
    let seen: Vec<u32> = (0..3)
        .map(|i| unsafe { std::ptr::read_volatile(host.as_ptr().add(i)) })
        .collect();
    assert_eq!(
        seen,
        [256, 21, 42],
        "every atomic counted, the store landed"
    );
    let err = e
        .launch("bump", [1, 1, 1], [1, 1, 1], &[&ptr_arg(16)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("atomic of 4 bytes at host address 0x10, which the process cannot access"),
        "{err}"
    );
    // device allocations are still device memory, checked as before
    let buf = e.zeros(12);
    e.launch("bump", [1, 1, 1], [2, 1, 1], &[&ptr_arg(buf.0)])
        .unwrap();
    let mut out = [0u8; 4];
    e.dev.copy_from_device(&mut out, buf).unwrap();
    assert_eq!(u32::from_le_bytes(out), 2);
}
