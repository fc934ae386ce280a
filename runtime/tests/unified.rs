//! `#pragma omp requires unified_shared_memory` through the C entry points over a `sim`
//! device: with pageable memory access (what a GPU driver reports as
//! `CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`) maps are zero-copy and kernels get host
//! addresses; without it the first use of the device is an error naming the requirement and
//! the device; units that disagree are refused.

mod common;

use common::{c, errors, map, setup};
use ompcc_rt::abi::*;
use ompcc_rt::backend::sim::SimBackend;
use ompcc_rt::flags::*;
use ompcc_rt::runtime::requires::{UNIFIED_ADDRESS, UNIFIED_SHARED_MEMORY};
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

const DEV: i32 = 0;
const USM: u32 = UNIFIED_ADDRESS | UNIFIED_SHARED_MEMORY;

/// Registers a module named `name` with one kernel of one pointer parameter.
fn register(name: &str, kernel: &str, requirements: u32) -> i32 {
    let k = Box::leak(Box::new([KernelDescC {
        name: c(kernel),
        num_params: 1,
        param_sizes: [8u32].as_ptr(),
    }]));
    let ptx = ".version 7.0\n.target sm_70\n.address_size 64\n";
    let desc = ModuleDescC {
        abi_version: ABI_VERSION,
        num_kernels: 1,
        num_globals: 0,
        requirements,
        name: c(name),
        ptx: ptx.as_ptr().cast(),
        ptx_size: ptx.len() as u64,
        kernels: k.as_ptr(),
        globals: std::ptr::null(),
    };
    // SAFETY: the descriptor and its tables are valid (leaked or static).
    unsafe { ompcc_rt_register_module(&desc) }
}

fn launch(module: i32, e: &[MapEntryC]) -> i32 {
    let args = LaunchArgsC {
        module,
        kernel: 0,
        device: DEV,
        num_entries: e.len() as u32,
        entries: e.as_ptr(),
        num_teams: 1,
        thread_limit: 1,
        dyn_shared_bytes: 0,
        iterations: 0,
        nest: [0; 3],
        loc: c("usm.c:20:1"),
    };
    // SAFETY: valid arguments.
    unsafe { ompcc_rt_launch(&args) }
}

/// A sim device whose kernel `inc` records its pointer and adds 1 to the `i64` there, as a
/// GPU with pageable memory access would through a host pointer.
fn device(pageable: bool, seen: Arc<Mutex<u64>>) -> SimBackend {
    SimBackend::new()
        .with_pageable_memory_access(pageable)
        .with_kernel("inc", move |mem, p, _| {
            let ptr = u64::from_le_bytes(p[0].try_into().unwrap());
            *seen.lock().unwrap() = ptr;
            let mut b = [0u8; 8];
            if mem.read(ptr, &mut b).is_ok() {
                let v = i64::from_le_bytes(b) + 1;
                return mem.write(ptr, &v.to_le_bytes());
            }
            if !pageable {
                return Err(format!("{ptr:#x} is not device memory"));
            }
            // SAFETY: the test passes the address of a live i64 it owns.
            unsafe { *(ptr as *mut i64) += 1 };
            Ok(())
        })
}

fn entries() -> Vec<ompcc_rt::table::Entry> {
    ompcc_rt::with_runtime(|rt| rt.present_entries(0))
}

#[test]
fn maps_are_zero_copy_under_unified_shared_memory() {
    let seen = Arc::new(Mutex::new(0u64));
    let _g = setup(device(true, seen.clone()));
    let m = register("usm.c", "inc", USM);
    let mut x = 41i64;
    let px = &raw mut x;
    // map(to: x): no `from`, yet the host sees the device's write: one storage
    assert_eq!(launch(m, &[map(px, 1, TO | TARGET_PARAM, "x")]), 1);
    assert_eq!(
        *seen.lock().unwrap(),
        px as u64,
        "the kernel got the host address"
    );
    // SAFETY: reading the test's own local after the kernel wrote it.
    assert_eq!(unsafe { px.read_volatile() }, 42);
    // present-table semantics stay: counts, presence, the identity translation
    let e = [map(px, 1, TO | FROM, "x")];
    // SAFETY: valid entries describing live storage.
    unsafe { ompcc_rt_target_enter_data(DEV, 1, e.as_ptr(), c("usm.c:30:1")) };
    assert_eq!(omp_target_is_present(px.cast(), DEV), 1);
    let table = entries();
    assert_eq!(table.len(), 1);
    assert!(table[0].shared && !table[0].owned);
    assert_eq!(table[0].dev_begin, px as u64);
    // SAFETY: plain translation query.
    let d = unsafe { ompcc_rt_use_device_ptr(DEV, px.cast(), c("x"), c("usm.c:31:1")) };
    assert_eq!(d as u64, px as u64);
    // an update copies storage onto itself: nothing moves
    x = 7;
    // SAFETY: as above.
    unsafe { ompcc_rt_target_update(DEV, 1, e.as_ptr(), c("usm.c:32:1")) };
    assert_eq!(x, 7);
    // SAFETY: as above.
    unsafe { ompcc_rt_target_exit_data(DEV, 1, e.as_ptr(), c("usm.c:33:1")) };
    assert!(entries().is_empty());
    assert_eq!(x, 7);
    // an unmapped pointer's pointee is reachable too (zero-length section)
    let mut y = 1i64;
    let py = &raw mut y;
    assert_eq!(launch(m, &[map(py, 0, TO | FROM | TARGET_PARAM, "p")]), 1);
    // SAFETY: as above.
    assert_eq!(unsafe { py.read_volatile() }, 2);
    assert_eq!(omp_target_is_accessible(py.cast::<c_void>(), 8, DEV), 1);
    assert!(errors().is_empty());
}

#[test]
fn a_device_without_pageable_access_refuses_the_program() {
    let seen = Arc::new(Mutex::new(0u64));
    let _g = setup(device(false, seen.clone()));
    let m = register("usm.c", "inc", USM);
    let x = 41i64;
    assert_eq!(launch(m, &[map(&x, 1, TO | FROM | TARGET_PARAM, "x")]), -1);
    let errs = errors();
    assert!(
        errs[0].contains(
            "usm.c:20:1: the program requires unified_shared_memory ('#pragma omp requires \
             unified_shared_memory' in usm.c) but device 0 (sim:0 (host buffers, Rust kernels)) \
             cannot provide it: its kernels cannot access host memory"
        ),
        "{errs:?}"
    );
    assert_eq!(*seen.lock().unwrap(), 0, "nothing ran");
}

#[test]
fn without_the_requirement_maps_copy_as_before() {
    let seen = Arc::new(Mutex::new(0u64));
    let _g = setup(device(true, seen.clone()));
    let m = register("plain.c", "inc", UNIFIED_ADDRESS);
    let x = 41i64;
    assert_eq!(launch(m, &[map(&x, 1, TO | TARGET_PARAM, "x")]), 1);
    assert_ne!(*seen.lock().unwrap(), &raw const x as u64, "a device copy");
    assert_eq!(x, 41, "no `from`: the host copy is unchanged");
}

#[test]
fn units_that_disagree_are_refused() {
    let seen = Arc::new(Mutex::new(0u64));
    let _g = setup(device(true, seen));
    let m = register("a.c", "inc", USM);
    register("b.c", "inc", 0);
    let x = 41i64;
    assert_eq!(launch(m, &[map(&x, 1, TO | TARGET_PARAM, "x")]), -1);
    let errs = errors();
    assert!(
        errs[0].contains("'#pragma omp requires unified_shared_memory' is in a.c but not in b.c"),
        "{errs:?}"
    );
}

#[test]
fn unknown_requirement_bits_are_refused_at_registration() {
    let _g = setup(SimBackend::new());
    assert_eq!(register("new.c", "inc", 1 << 7), -1);
    let errs = errors();
    assert!(
        errs[0].contains("new.c: module requires features this libompcc_rt does not know"),
        "{errs:?}"
    );
}
