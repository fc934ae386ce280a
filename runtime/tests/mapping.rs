//! OpenMP 5.2 mapping rules, driven through the C entry points over a `sim` device (separate
//! buffers, so every copy and every missing copy is observable).

mod common;

use common::{c, errors, map, register, setup, setup_with};
use ompcc_rt::abi::*;
use ompcc_rt::backend::sim::{SimBackend, SimMemory};
use ompcc_rt::flags::*;
use ompcc_rt::options::{Offload, Options};
use ompcc_rt::{Backend, LaunchDims};
use std::ffi::c_void;

const DEV: i32 = 0;
const LOC: &str = "test.c:9:1";

fn data_begin(e: &[MapEntryC]) -> i32 {
    // SAFETY: entries are valid and describe live test storage.
    unsafe { ompcc_rt_target_data_begin(DEV, e.len() as u32, e.as_ptr(), c(LOC)) }
}
fn data_end(e: &[MapEntryC]) -> i32 {
    // SAFETY: as above.
    unsafe { ompcc_rt_target_data_end(DEV, e.len() as u32, e.as_ptr(), c(LOC)) }
}
fn enter(e: &[MapEntryC]) -> i32 {
    // SAFETY: as above.
    unsafe { ompcc_rt_target_enter_data(DEV, e.len() as u32, e.as_ptr(), c(LOC)) }
}
fn exit(e: &[MapEntryC]) -> i32 {
    // SAFETY: as above.
    unsafe { ompcc_rt_target_exit_data(DEV, e.len() as u32, e.as_ptr(), c(LOC)) }
}
fn update(e: &[MapEntryC]) -> i32 {
    // SAFETY: as above.
    unsafe { ompcc_rt_target_update(DEV, e.len() as u32, e.as_ptr(), c(LOC)) }
}
fn dev_addr<T>(p: *const T) -> u64 {
    // SAFETY: plain translation query.
    unsafe { ompcc_rt_use_device_ptr(DEV, p as *mut c_void, c("p"), c(LOC)) as u64 }
}
fn initial() -> i32 {
    omp_get_initial_device()
}
/// Reads the device copy of `n` values starting at host address `p`.
fn dev_read<T: Copy + Default>(p: *const T, n: usize) -> Vec<T> {
    let mut out = vec![T::default(); n];
    let d = dev_addr(p);
    assert_ne!(d, p as u64, "not mapped");
    let bytes = n * std::mem::size_of::<T>();
    // SAFETY: `out` holds `bytes` bytes; the device range is mapped.
    let rc = unsafe {
        omp_target_memcpy(
            out.as_mut_ptr().cast(),
            d as *const c_void,
            bytes,
            0,
            0,
            initial(),
            DEV,
        )
    };
    assert_eq!(rc, 0);
    out
}
/// Overwrites the device copy at host address `p`.
fn dev_write<T: Copy>(p: *const T, vals: &[T]) {
    let d = dev_addr(p);
    assert_ne!(d, p as u64, "not mapped");
    let bytes = std::mem::size_of_val(vals);
    // SAFETY: as for dev_read.
    let rc = unsafe {
        omp_target_memcpy(
            d as *mut c_void,
            vals.as_ptr().cast(),
            bytes,
            0,
            0,
            DEV,
            initial(),
        )
    };
    assert_eq!(rc, 0);
}
fn entries() -> Vec<ompcc_rt::table::Entry> {
    ompcc_rt::with_runtime(|rt| rt.present_entries(0))
}
fn is_present<T>(p: *const T) -> bool {
    omp_target_is_present(p.cast(), DEV) == 1
}

#[test]
fn tofrom_copies_in_on_entry_and_out_on_exit() {
    let _g = setup(SimBackend::new());
    let mut a = [1.0f64, 2.0, 3.0];
    let e = [map(a.as_ptr(), 3, TO | FROM, "a")];
    assert_eq!(data_begin(&e), 0);
    assert_eq!(dev_read(a.as_ptr(), 3), [1.0, 2.0, 3.0]);
    dev_write(a.as_ptr(), &[7.0, 8.0, 9.0]);
    a[0] = -1.0;
    assert_eq!(data_end(&e), 0);
    assert_eq!(a, [7.0, 8.0, 9.0]);
    assert!(entries().is_empty());
}

#[test]
fn to_does_not_copy_back() {
    let _g = setup(SimBackend::new());
    let a = [1i32, 2];
    let e = [map(a.as_ptr(), 2, TO, "a")];
    data_begin(&e);
    dev_write(a.as_ptr(), &[5, 6]);
    data_end(&e);
    assert_eq!(a, [1, 2]);
}

#[test]
fn from_does_not_copy_in_and_alloc_copies_nothing() {
    let _g = setup(SimBackend::new());
    let a = [4i32, 4];
    let b = [9i32, 9];
    let e = [map(a.as_ptr(), 2, FROM, "a"), map(b.as_ptr(), 2, 0, "b")];
    data_begin(&e);
    assert_eq!(dev_read(a.as_ptr(), 2), [0, 0]);
    assert_eq!(dev_read(b.as_ptr(), 2), [0, 0]);
    dev_write(b.as_ptr(), &[1, 1]);
    data_end(&e);
    assert_eq!(a, [0, 0]);
    assert_eq!(b, [9, 9]);
}

#[test]
fn present_storage_is_not_copied_again() {
    let _g = setup(SimBackend::new());
    let mut a = [1i32];
    let e = [map(a.as_ptr(), 1, TO | FROM, "a")];
    data_begin(&e);
    a[0] = 2;
    data_begin(&e);
    assert_eq!(dev_read(a.as_ptr(), 1), [1]);
    assert_eq!(entries()[0].structured_refs, 2);
    data_end(&e);
    // Inner end: the count drops to 1, so no copy back.
    a[0] = 3;
    assert_eq!(a, [3]);
    data_end(&e);
    assert_eq!(a, [1]);
}

#[test]
fn always_to_copies_even_when_present() {
    let _g = setup(SimBackend::new());
    let mut a = [1i32];
    data_begin(&[map(a.as_ptr(), 1, TO, "a")]);
    a[0] = 5;
    let inner = [map(a.as_ptr(), 1, TO | ALWAYS, "a")];
    data_begin(&inner);
    assert_eq!(dev_read(a.as_ptr(), 1), [5]);
    data_end(&inner);
}

#[test]
fn always_from_copies_back_while_still_present() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    let outer = [map(a.as_ptr(), 1, TO, "a")];
    data_begin(&outer);
    let inner = [map(a.as_ptr(), 1, FROM | ALWAYS, "a")];
    data_begin(&inner);
    dev_write(a.as_ptr(), &[42]);
    data_end(&inner);
    assert_eq!(a, [42]);
    assert!(is_present(a.as_ptr()));
    data_end(&outer);
    assert!(!is_present(a.as_ptr()));
}

#[test]
fn enter_exit_data_count_dynamic_references() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    let to = [map(a.as_ptr(), 1, TO, "a")];
    let from = [map(a.as_ptr(), 1, FROM, "a")];
    enter(&to);
    enter(&to);
    assert_eq!(
        entries()[0].dynamic_refs,
        ompcc_rt::table::RefCount::Finite(2)
    );
    dev_write(a.as_ptr(), &[3]);
    exit(&from);
    assert_eq!(a, [1], "still referenced: no copy back");
    assert!(is_present(a.as_ptr()));
    exit(&from);
    assert_eq!(a, [3], "last release copies back");
    assert!(!is_present(a.as_ptr()));
}

#[test]
fn delete_removes_whatever_the_count() {
    let sim = SimBackend::new();
    let _g = setup(sim);
    let a = [1i32];
    let to = [map(a.as_ptr(), 1, TO, "a")];
    enter(&to);
    enter(&to);
    enter(&to);
    dev_write(a.as_ptr(), &[3]);
    exit(&[map(a.as_ptr(), 1, DELETE, "a")]);
    assert!(!is_present(a.as_ptr()));
    assert_eq!(a, [1], "delete copies nothing");
}

#[test]
fn release_of_absent_item_is_a_no_op() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    assert_eq!(exit(&[map(a.as_ptr(), 1, FROM, "a")]), 0);
    assert_eq!(exit(&[map(a.as_ptr(), 1, DELETE, "a")]), 0);
    assert!(errors().is_empty());
}

#[test]
fn exit_data_delete_ends_the_enclosing_target_data_mapping() {
    // OpenMP 5.2 (5.8.3): delete sets the reference count to zero, structured references
    // included; the enclosing region's end finds nothing and copies nothing back.
    let _g = setup(SimBackend::new());
    let a = [1i32];
    let e = [map(a.as_ptr(), 1, TO | FROM, "a")];
    data_begin(&e);
    dev_write(a.as_ptr(), &[8]);
    exit(&[map(a.as_ptr(), 1, DELETE, "a")]);
    assert!(!is_present(a.as_ptr()), "delete removed the mapping");
    assert_eq!(data_end(&e), 0);
    assert_eq!(a, [1], "the enclosing end copies nothing back");
    assert!(errors().is_empty());
}

#[test]
fn zero_length_section_is_looked_up_not_mapped() {
    let _g = setup(SimBackend::new());
    let a = [1i32, 2];
    let z = [map(a.as_ptr(), 0, TO | FROM, "a[0:0]")];
    data_begin(&z);
    assert!(entries().is_empty());
    data_end(&z);
    enter(&[map(a.as_ptr(), 2, TO, "a")]);
    data_begin(&z);
    data_end(&z);
    assert_eq!(
        entries()[0].structured_refs,
        0,
        "zero-length adds no reference"
    );
    assert!(errors().is_empty());
}

#[test]
fn partial_overlap_is_an_error() {
    let _g = setup(SimBackend::new());
    let a = [0i32; 20];
    enter(&[map(a.as_ptr(), 10, TO, "a[0:10]")]);
    // SAFETY: in bounds.
    let tail = unsafe { a.as_ptr().add(5) };
    assert_eq!(enter(&[map(tail, 10, TO, "a[5:10]")]), -1);
    let errs = errors();
    assert_eq!(errs.len(), 1);
    assert!(errs[0].contains("test.c:1:1: 'a[5:10]'"), "{}", errs[0]);
    assert!(
        errs[0].contains("partially overlaps 'a[0:10]'"),
        "{}",
        errs[0]
    );
}

/// An implicitly mapped variable (a struct a region reads members of) of which a data
/// construct mapped only some members: only that part has device storage (OpenMP 5.2), so the
/// error says which part is present and that the region needs the rest too.
#[test]
fn implicit_item_partly_present_names_the_part() {
    let _g = setup(SimBackend::new());
    let s = [0u64; 4];
    // SAFETY: in bounds.
    let members = unsafe { s.as_ptr().add(1) };
    enter(&[map(members, 3, TO, "s")]);
    assert_eq!(
        data_begin(&[map(s.as_ptr(), 4, TO | FROM | IMPLICIT, "s")]),
        -1
    );
    let errs = errors();
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].contains("only part of it") && errs[0].contains("is present"),
        "{}",
        errs[0]
    );
    assert!(errs[0].contains("map the rest"), "{}", errs[0]);
}

#[test]
fn extending_a_mapping_is_an_error() {
    let _g = setup(SimBackend::new());
    let a = [0i32; 20];
    // SAFETY: in bounds.
    let mid = unsafe { a.as_ptr().add(2) };
    enter(&[map(mid, 4, TO, "a[2:4]")]);
    assert_eq!(data_begin(&[map(a.as_ptr(), 20, TO, "a")]), -1);
    assert!(errors()[0].contains("cannot be extended"));
}

#[test]
fn subsection_of_mapped_storage_is_present() {
    let _g = setup(SimBackend::new());
    let a = [1i32, 2, 3, 4, 5, 6];
    enter(&[map(a.as_ptr(), 6, TO, "a")]);
    // SAFETY: in bounds.
    let mid = unsafe { a.as_ptr().add(2) };
    data_begin(&[map(mid, 3, TO, "a[2:3]")]);
    assert_eq!(entries().len(), 1);
    assert_eq!(entries()[0].structured_refs, 1);
    assert_eq!(dev_addr(mid), dev_addr(a.as_ptr()) + 8);
    assert_eq!(dev_read(mid, 3), [3, 4, 5]);
}

#[test]
fn present_modifier_requires_presence() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    assert_eq!(data_begin(&[map(a.as_ptr(), 1, TO | PRESENT, "a")]), -1);
    let errs = errors();
    assert!(
        errs[0].contains("'a'") && errs[0].contains("is not present on device 0"),
        "{errs:?}"
    );
    assert!(entries().is_empty());
    enter(&[map(a.as_ptr(), 1, TO, "a")]);
    assert_eq!(data_begin(&[map(a.as_ptr(), 1, TO | PRESENT, "a")]), 0);
}

#[test]
fn update_moves_data_both_ways() {
    let _g = setup(SimBackend::new());
    let mut a = [1i32, 2];
    enter(&[map(a.as_ptr(), 2, 0, "a")]);
    update(&[map(a.as_ptr(), 2, TO, "a")]);
    assert_eq!(dev_read(a.as_ptr(), 2), [1, 2]);
    dev_write(a.as_ptr(), &[10, 20]);
    a[1] = 0;
    // SAFETY: in bounds.
    let second = unsafe { a.as_ptr().add(1) };
    update(&[map(second, 1, FROM, "a[1]")]);
    assert_eq!(a, [1, 20]);
}

#[test]
fn update_of_partly_present_item_moves_the_present_part() {
    let _g = setup(SimBackend::new());
    let mut a = [1i32, 2, 3, 4];
    // SAFETY: in bounds.
    let (second, third) = unsafe { (a.as_ptr().add(1), a.as_ptr().add(2)) };
    enter(&[map(second, 2, TO, "a[1:2]")]);
    dev_write(second, &[20, 30]);
    a[0] = 0;
    assert_eq!(update(&[map(a.as_ptr(), 4, FROM, "a[0:4]")]), 0);
    assert_eq!(a, [0, 20, 30, 4], "only the mapped elements come back");
    a[2] = 33;
    assert_eq!(update(&[map(third, 2, TO, "a[2:2]")]), 0);
    assert_eq!(dev_read(second, 2), [20, 33]);
    assert_eq!(update(&[map(a.as_ptr(), 4, FROM | PRESENT, "a")]), -1);
    assert!(errors()[0].contains("partially overlaps"));
}

#[test]
fn update_of_absent_item_is_skipped_unless_present_modifier() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    assert_eq!(update(&[map(a.as_ptr(), 1, TO, "a")]), 0);
    assert!(entries().is_empty());
    assert_eq!(update(&[map(a.as_ptr(), 1, FROM | PRESENT, "a")]), -1);
    assert!(errors()[0].contains("target update with the `present` modifier"));
}

fn update_strided(row: &MapEntryC, counts: &[u64], strides: &[u64]) -> i32 {
    // SAFETY: `row` describes live test storage; both arrays hold `counts.len()` values.
    unsafe {
        ompcc_rt_target_update_strided(
            DEV,
            row,
            counts.len() as u32,
            counts.as_ptr(),
            strides.as_ptr(),
            c(LOC),
        )
    }
}

#[test]
fn strided_update_moves_only_the_section_rows() {
    let _g = setup(SimBackend::new());
    // int a[2][2][5], all mapped; the device holds 100 + i.
    let mut a: Vec<i32> = (0..20).collect();
    enter(&[map(a.as_ptr(), 20, TO, "a")]);
    dev_write(a.as_ptr(), &(100..120).collect::<Vec<i32>>());
    // from a[0:2][1:1][1:3]: rows of 3 at 6 and 16.
    // SAFETY: in bounds.
    let row = map(unsafe { a.as_ptr().add(6) }, 3, FROM, "a[0:2][1:1][1:3]");
    assert_eq!(update_strided(&row, &[2, 1], &[40, 20]), 0);
    let want: Vec<i32> = (0..20)
        .map(|i| {
            if matches!(i, 6..=8 | 16..=18) {
                100 + i
            } else {
                i
            }
        })
        .collect();
    assert_eq!(a, want);
    // to a[0:2][0:2][2:2]: rows of 2 at 2, 7, 12, 17.
    a.iter_mut().for_each(|x| *x = -*x);
    // SAFETY: in bounds.
    let row = map(unsafe { a.as_ptr().add(2) }, 2, TO, "a[0:2][0:2][2:2]");
    assert_eq!(update_strided(&row, &[2, 2], &[40, 20]), 0);
    let want: Vec<i32> = (0..20)
        .map(|i| {
            if i % 5 == 2 || i % 5 == 3 {
                -want[i as usize]
            } else {
                100 + i
            }
        })
        .collect();
    assert_eq!(dev_read(a.as_ptr(), 20), want);
    // Whole inner rows merge into one range; an empty dimension moves nothing.
    let row = map(a.as_ptr(), 5, TO, "a[0:2][0:2][0:5]");
    assert_eq!(update_strided(&row, &[2, 2], &[40, 20]), 0);
    assert_eq!(dev_read(a.as_ptr(), 20), a);
    let row = map(a.as_ptr(), 1, FROM, "a[0:0][0:2][0:1]");
    assert_eq!(update_strided(&row, &[0, 2], &[40, 20]), 0);
    // A section past the end of the address space is an error, not a wrap.
    assert_eq!(update_strided(&row, &[u64::MAX / 8, 2], &[40, 20]), -1);
    assert!(errors()[0].contains("does not fit in the address space"));
}

#[test]
fn use_device_ptr_translates_mapped_and_keeps_unmapped() {
    let _g = setup(SimBackend::new());
    let a = [0u8; 64];
    let b = [0u8; 4];
    enter(&[map(a.as_ptr(), 64, 0, "a")]);
    let d = dev_addr(a.as_ptr());
    assert!(d >= SimBackend::BASE);
    // SAFETY: in bounds.
    assert_eq!(dev_addr(unsafe { a.as_ptr().add(10) }), d + 10);
    assert_eq!(dev_addr(b.as_ptr()), b.as_ptr() as u64);
}

#[repr(C)]
struct Vec3 {
    n: i64,
    data: *mut f64,
}

/// `map(to: s) map(tofrom: s.data[0:n])` with attachment of `s.data`.
fn struct_entries(s: &Vec3, always_attach: bool) -> [MapEntryC; 3] {
    let field = &s.data as *const *mut f64;
    let attach = MapEntryC {
        base: field as *mut c_void,
        begin: s.data.cast(),
        size: 8,
        flags: ATTACH | if always_attach { ALWAYS } else { 0 },
        name: c("s.data"),
        loc: c(LOC),
    };
    [
        map(s as *const Vec3, 1, TO, "s"),
        map(s.data, s.n as usize, TO | FROM, "s.data[0:n]"),
        attach,
    ]
}

#[test]
fn pointer_member_is_attached_to_the_device_pointee() {
    let _g = setup(SimBackend::new());
    let mut buf = [1.0f64, 2.0, 3.0];
    let s = Vec3 {
        n: 3,
        data: buf.as_mut_ptr(),
    };
    let e = struct_entries(&s, false);
    data_begin(&e);
    let dev_s: Vec<u64> = dev_read((&s as *const Vec3).cast::<u64>(), 2);
    assert_eq!(dev_s[0], 3);
    assert_eq!(
        dev_s[1],
        dev_addr(buf.as_ptr()),
        "device s.data points at the device copy"
    );
    data_end(&e);
    assert_eq!(s.data, buf.as_mut_ptr(), "host pointer untouched");
}

#[test]
fn copying_a_struct_back_keeps_the_host_pointer() {
    let _g = setup(SimBackend::new());
    let mut buf = [1.0f64, 2.0];
    let s = Vec3 {
        n: 2,
        data: buf.as_mut_ptr(),
    };
    let mut e = struct_entries(&s, false);
    e[0].flags = TO | FROM;
    data_begin(&e);
    dev_write(buf.as_ptr(), &[5.0, 6.0]);
    update(&[map(&s as *const Vec3, 1, FROM, "s")]);
    assert_eq!(
        s.data,
        buf.as_mut_ptr(),
        "update from restored the host pointer"
    );
    update(&[map(&s as *const Vec3, 1, TO, "s")]);
    let dev_s: Vec<u64> = dev_read((&s as *const Vec3).cast::<u64>(), 2);
    assert_eq!(
        dev_s[1],
        dev_addr(buf.as_ptr()),
        "update to re-attached the device pointer"
    );
    data_end(&e);
    assert_eq!(s.data, buf.as_mut_ptr());
    assert_eq!(buf, [5.0, 6.0]);
}

#[test]
fn attachment_happens_only_when_pointer_or_pointee_is_new() {
    let _g = setup(SimBackend::new());
    let mut buf = [1.0f64];
    let s = Vec3 {
        n: 1,
        data: buf.as_mut_ptr(),
    };
    let e = struct_entries(&s, false);
    enter(&e);
    let sp = (&s as *const Vec3).cast::<u64>();
    // SAFETY: second word of `s`.
    let field = unsafe { sp.add(1) };
    dev_write(field, &[0xdead]);
    enter(&e);
    assert_eq!(dev_read(field, 1), [0xdead], "nothing new: no attachment");
    enter(&struct_entries(&s, true));
    assert_eq!(
        dev_read(field, 1),
        [dev_addr(buf.as_ptr())],
        "always: attached again"
    );
}

#[test]
fn attach_without_mapped_pointee_is_an_error() {
    let _g = setup(SimBackend::new());
    let mut buf = [1.0f64];
    let s = Vec3 {
        n: 1,
        data: buf.as_mut_ptr(),
    };
    let mut e = struct_entries(&s, false);
    e[1].size = 0;
    assert_eq!(enter(&e), -1);
    assert!(errors()[0].contains("cannot attach pointer 's.data'"));
}

#[test]
fn struct_member_follows_its_parent() {
    let _g = setup(SimBackend::new());
    let s = [10i64, 20, 30];
    // SAFETY: in bounds.
    let second = unsafe { s.as_ptr().add(1) };
    let e = [
        map(s.as_ptr(), 3, 0, "s"),
        map(second, 1, TO | FROM | member_of_bits(0), "s.b"),
    ];
    data_begin(&e);
    assert_eq!(
        dev_read(s.as_ptr(), 3),
        [0, 20, 0],
        "only the member is copied in"
    );
    assert_eq!(entries().len(), 1);
    dev_write(s.as_ptr(), &[1, 2, 3]);
    data_end(&e);
    assert_eq!(s, [10, 2, 30], "only the member is copied out");
}

#[test]
fn struct_member_outside_parent_is_an_error() {
    let _g = setup(SimBackend::new());
    let s = [10i64, 20, 30];
    // SAFETY: in bounds.
    let third = unsafe { s.as_ptr().add(2) };
    let e = [
        map(s.as_ptr(), 2, 0, "s"),
        map(third, 1, TO | member_of_bits(0), "s.c"),
    ];
    assert_eq!(data_begin(&e), -1);
    assert!(errors()[0].contains("lies outside its parent 's'"));
}

fn scale_kernel(mem: &mut SimMemory, params: &[&[u8]], dims: LaunchDims) -> Result<(), String> {
    let word = |i: usize| u64::from_le_bytes(params[i].try_into().unwrap());
    let (ptr, n, factor) = (word(0), word(1), f64::from_bits(word(2)));
    assert_eq!(dims.teams, 2);
    for i in 0..n {
        let mut b = [0u8; 8];
        mem.read(ptr + 8 * i, &mut b)?;
        mem.write(ptr + 8 * i, &(f64::from_le_bytes(b) * factor).to_le_bytes())?;
    }
    Ok(())
}

fn launch(module: i32, device: i32, e: &[MapEntryC]) -> i32 {
    let args = LaunchArgsC {
        module,
        kernel: 0,
        device,
        num_entries: e.len() as u32,
        entries: e.as_ptr(),
        num_teams: 2,
        thread_limit: 64,
        dyn_shared_bytes: 0,
        iterations: 0,
        nest: [0; 3],
        loc: c("test.c:30:1"),
    };
    // SAFETY: valid arguments.
    unsafe { ompcc_rt_launch(&args) }
}

fn scale_entries(a: &[f64], n: &i64, factor: &f64) -> [MapEntryC; 3] {
    [
        map(a.as_ptr(), a.len(), TO | FROM | TARGET_PARAM, "a[0:n]"),
        map(n as *const i64, 1, LITERAL | TARGET_PARAM, "n"),
        map(factor as *const f64, 1, LITERAL | TARGET_PARAM, "factor"),
    ]
}

#[test]
fn launch_maps_runs_and_unmaps() {
    let _g = setup(SimBackend::new().with_kernel("scale", scale_kernel));
    let m = register(&[("scale", &[8, 8, 8])]);
    let a = [1.0f64, 2.0, 3.0];
    let (n, f) = (3i64, 2.5f64);
    assert_eq!(launch(m, DEVICE_DEFAULT_ARG, &scale_entries(&a, &n, &f)), 1);
    assert_eq!(a, [2.5, 5.0, 7.5]);
    assert!(entries().is_empty());
    assert!(errors().is_empty());
}

const DEVICE_DEFAULT_ARG: i32 = ompcc_rt::DEVICE_DEFAULT;

#[test]
fn launch_whose_pointer_cannot_be_attached_is_an_error() {
    let _g = setup(SimBackend::new().with_kernel("scale", scale_kernel));
    let m = register(&[("scale", &[8, 8, 8])]);
    let mut buf = [1.0f64, 2.0];
    let s = Vec3 {
        n: 2,
        data: buf.as_mut_ptr(),
    };
    let (n, f) = (2i64, 2.0f64);
    // `s.data[0:n]` and its attachment, but not the struct holding the pointer
    let e = struct_entries(&s, false);
    let mut items = scale_entries(&buf, &n, &f).to_vec();
    items.extend([e[1], e[2]]);
    assert_eq!(launch(m, DEV, &items), -1);
    let errs = errors();
    assert!(
        errs[0].contains("cannot attach pointer 's.data': the pointer at"),
        "{errs:?}"
    );
    // a data construct leaves an unmapped pointer alone (OpenMP 5.2 attaches present ones)
    assert_eq!(enter(&e[1..]), 0);
}

#[test]
fn launch_inside_data_region_leaves_data_on_device() {
    let _g = setup(SimBackend::new().with_kernel("scale", scale_kernel));
    let m = register(&[("scale", &[8, 8, 8])]);
    let a = [1.0f64, 2.0];
    let (n, f) = (2i64, 3.0f64);
    let region = [map(a.as_ptr(), 2, TO | FROM, "a")];
    data_begin(&region);
    launch(m, DEV, &scale_entries(&a, &n, &f));
    assert_eq!(
        a,
        [1.0, 2.0],
        "still mapped by the region: no copy back yet"
    );
    launch(m, DEV, &scale_entries(&a, &n, &f));
    data_end(&region);
    assert_eq!(a, [9.0, 18.0]);
}

#[test]
fn zero_length_kernel_argument_keeps_host_value_when_unmapped() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(0u64));
    let seen2 = seen.clone();
    let sim = SimBackend::new().with_kernel("peek", move |_, p, _| {
        *seen2.lock().unwrap() = u64::from_le_bytes(p[0].try_into().unwrap());
        Ok(())
    });
    let _g = setup(sim);
    let m = register(&[("peek", &[8])]);
    let a = [1i32, 2];
    launch(
        m,
        DEV,
        &[map(a.as_ptr(), 0, TO | FROM | TARGET_PARAM, "a[0:0]")],
    );
    assert_eq!(*seen.lock().unwrap(), a.as_ptr() as u64);
    enter(&[map(a.as_ptr(), 2, TO, "a")]);
    launch(
        m,
        DEV,
        &[map(a.as_ptr(), 0, TO | FROM | TARGET_PARAM, "a[0:0]")],
    );
    assert_eq!(*seen.lock().unwrap(), dev_addr(a.as_ptr()));
}

#[test]
fn array_section_parameter_passes_translated_base() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(0u64));
    let seen2 = seen.clone();
    let sim = SimBackend::new().with_kernel("peek", move |_, p, _| {
        *seen2.lock().unwrap() = u64::from_le_bytes(p[0].try_into().unwrap());
        Ok(())
    });
    let _g = setup(sim);
    let m = register(&[("peek", &[8])]);
    let a = [0i32; 10];
    // map(a[4:3]): storage starts at a+4, the kernel gets the device image of `a`.
    let mut e = map(a.as_ptr(), 3, TO | TARGET_PARAM, "a[4:3]");
    // SAFETY: in bounds.
    e.begin = unsafe { a.as_ptr().add(4) } as *mut c_void;
    enter(&[map(e.begin as *const i32, 3, 0, "a[4:3]")]);
    launch(m, DEV, &[e]);
    let dev_a4 = dev_addr(e.begin as *const i32);
    assert_eq!(*seen.lock().unwrap(), dev_a4 - 16);
}

#[test]
fn launch_with_wrong_parameter_count_is_an_error() {
    let _g = setup(SimBackend::new().with_kernel("scale", scale_kernel));
    let m = register(&[("scale", &[8, 8])]);
    let a = [1.0f64];
    let (n, f) = (1i64, 1.0f64);
    assert_eq!(launch(m, DEV, &scale_entries(&a, &n, &f)), -1);
    assert!(errors()[0].contains("kernel 'scale' takes 2 parameters but the launch passes 3"));
}

#[test]
fn device_failure_names_kernel_and_location() {
    let _g = setup(SimBackend::new());
    let m = register(&[("missing", &[])]);
    assert_eq!(launch(m, DEV, &[]), -1);
    let e = &errors()[0];
    assert!(
        e.starts_with("ompcc-rt: error: test.c:30:1: kernel 'missing' on sim:0"),
        "{e}"
    );
}

#[test]
fn initial_device_runs_the_fallback_and_maps_nothing() {
    let _g = setup(SimBackend::new().with_kernel("scale", scale_kernel));
    let m = register(&[("scale", &[8, 8, 8])]);
    let a = [1.0f64];
    let (n, f) = (1i64, 2.0f64);
    assert_eq!(launch(m, INITIAL_DEVICE_ARG, &scale_entries(&a, &n, &f)), 0);
    assert_eq!(launch(m, initial(), &scale_entries(&a, &n, &f)), 0);
    assert_eq!(a, [1.0]);
    // SAFETY: valid entries.
    unsafe {
        let e = [map(a.as_ptr(), 1, TO, "a")];
        ompcc_rt_target_enter_data(INITIAL_DEVICE_ARG, 1, e.as_ptr(), c(LOC));
    }
    assert!(entries().is_empty());
}

const INITIAL_DEVICE_ARG: i32 = ompcc_rt::INITIAL_DEVICE;

#[test]
fn disabled_offload_has_no_devices() {
    let options = Options {
        offload: Offload::Disabled,
        ..Options::default()
    };
    let sim: Box<dyn Backend> = Box::new(SimBackend::new().with_kernel("scale", scale_kernel));
    let _g = setup_with(options, vec![sim]);
    assert_eq!(omp_get_num_devices(), 0);
    assert_eq!(omp_get_initial_device(), 0);
    let m = register(&[("scale", &[8, 8, 8])]);
    let a = [1.0f64];
    let (n, f) = (1i64, 2.0f64);
    assert_eq!(launch(m, DEVICE_DEFAULT_ARG, &scale_entries(&a, &n, &f)), 0);
}

#[test]
fn mandatory_without_device_is_a_clear_error() {
    let options = Options {
        offload: Offload::Mandatory,
        ..Options::default()
    };
    let _g = setup_with(options, vec![]);
    assert_eq!(omp_get_num_devices(), 0);
    let a = [1i32];
    assert_eq!(data_begin(&[map(a.as_ptr(), 1, TO, "a")]), -1);
    let e = &errors()[0];
    assert!(
        e.contains("test.c:9:1: OMP_TARGET_OFFLOAD=MANDATORY but no offload device"),
        "{e}"
    );
}

#[test]
fn invalid_device_number_is_an_error() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    let e = [map(a.as_ptr(), 1, TO, "a")];
    // SAFETY: valid entries.
    assert_eq!(
        unsafe { ompcc_rt_target_enter_data(7, 1, e.as_ptr(), c(LOC)) },
        -1
    );
    assert!(errors()[0].contains("device number 7 is not valid"));
}

#[test]
fn unknown_flag_bits_are_rejected() {
    let _g = setup(SimBackend::new());
    let a = [1i32];
    assert_eq!(enter(&[map(a.as_ptr(), 1, 1 << 30, "a")]), -1);
    assert!(errors()[0].contains("unknown flag bits 0x40000000"));
}

#[test]
fn default_device_can_be_set() {
    let _g = setup(SimBackend::new());
    assert_eq!(omp_get_default_device(), 0);
    omp_set_default_device(omp_get_initial_device());
    let a = [1i32];
    // SAFETY: valid entries.
    unsafe {
        let e = [map(a.as_ptr(), 1, TO, "a")];
        ompcc_rt_target_enter_data(DEVICE_DEFAULT_ARG, 1, e.as_ptr(), c(LOC));
    }
    assert!(entries().is_empty(), "default device is the host now");
    omp_set_default_device(0);
    enter(&[map(a.as_ptr(), 1, TO, "a")]);
    assert_eq!(entries().len(), 1);
}

#[test]
fn target_memory_api_allocates_copies_and_associates() {
    let _g = setup(SimBackend::new());
    assert_eq!(omp_get_num_devices(), 1);
    assert_eq!(omp_is_initial_device(), 1);
    let d = omp_target_alloc(16, DEV);
    assert!(d as u64 >= SimBackend::BASE);
    let src = [1u32, 2, 3, 4];
    let mut back = [0u32; 4];
    // SAFETY: valid ranges.
    unsafe {
        assert_eq!(
            omp_target_memcpy(d, src.as_ptr().cast(), 16, 0, 0, DEV, initial()),
            0
        );
        assert_eq!(
            omp_target_memcpy(back.as_mut_ptr().cast(), d, 8, 4, 8, initial(), DEV),
            0
        );
    }
    assert_eq!(back, [0, 3, 4, 0]);
    let host = [0u32; 4];
    assert!(!is_present(host.as_ptr()));
    assert_eq!(
        omp_target_associate_ptr(host.as_ptr().cast(), d, 16, 0, DEV),
        0
    );
    assert!(is_present(host.as_ptr()));
    assert_eq!(dev_read(host.as_ptr(), 4), [1, 2, 3, 4]);
    exit(&[map(host.as_ptr(), 4, DELETE, "host")]);
    assert!(
        is_present(host.as_ptr()),
        "associated storage has an infinite count"
    );
    assert_eq!(omp_target_disassociate_ptr(host.as_ptr().cast(), DEV), 0);
    assert!(!is_present(host.as_ptr()));
    assert_eq!(omp_target_disassociate_ptr(host.as_ptr().cast(), DEV), 1);
    assert!(errors()[0].contains("was not associated"));
    // The host device has nothing to associate: a failure value, not a reported error.
    let on_host = omp_target_associate_ptr(host.as_ptr().cast(), d, 16, 0, initial());
    assert_ne!(on_host, 0);
    assert_ne!(
        omp_target_disassociate_ptr(host.as_ptr().cast(), initial()),
        0
    );
    assert!(errors().is_empty());
    assert!(!is_present(host.as_ptr()));
    // SAFETY: `d` came from omp_target_alloc.
    unsafe { omp_target_free(d, DEV) };
    assert!(errors().is_empty());
    let h = omp_target_alloc(8, initial());
    assert!(!h.is_null());
    // SAFETY: host allocation from omp_target_alloc.
    unsafe { omp_target_free(h, initial()) };
}

#[test]
fn memcpy_rect_copies_a_sub_block() {
    let _g = setup(SimBackend::new());
    // A 4x5 host matrix; copy the 2x3 block at (1,1) to the device's 2x3 buffer at (0,0).
    let m: Vec<i32> = (0..20).collect();
    let d = omp_target_alloc(6 * 4, DEV);
    let vol = [2usize, 3];
    // SAFETY: valid arrays and ranges.
    unsafe {
        let rc = omp_target_memcpy_rect(
            d,
            m.as_ptr().cast(),
            4,
            2,
            vol.as_ptr(),
            [0usize, 0].as_ptr(),
            [1usize, 1].as_ptr(),
            [2usize, 3].as_ptr(),
            [4usize, 5].as_ptr(),
            DEV,
            initial(),
        );
        assert_eq!(rc, 0);
        let mut back = [0i32; 6];
        omp_target_memcpy(back.as_mut_ptr().cast(), d, 24, 0, 0, initial(), DEV);
        assert_eq!(back, [6, 7, 8, 11, 12, 13]);
        let z = std::ptr::null::<usize>();
        let max = omp_target_memcpy_rect(
            std::ptr::null_mut(),
            std::ptr::null(),
            0,
            0,
            z,
            z,
            z,
            z,
            z,
            0,
            0,
        );
        assert!(max >= 3);
    }
}

#[test]
fn declare_target_globals_are_always_present() {
    let _g = setup(SimBackend::new().with_global("g_counter", 8));
    static mut G: [i32; 2] = [5, 6];
    let g = &raw const G;
    let globals = [GlobalDescC {
        name: c("g_counter"),
        host_addr: g as *mut c_void,
        size: 8,
    }];
    let ptx = ".version 7.0";
    let desc = ModuleDescC {
        abi_version: ABI_VERSION,
        num_kernels: 0,
        num_globals: 1,
        requirements: 0,
        name: c("glob.c"),
        ptx: ptx.as_ptr().cast(),
        ptx_size: ptx.len() as u64,
        kernels: std::ptr::null(),
        globals: globals.as_ptr(),
    };
    // SAFETY: valid descriptor.
    assert_eq!(unsafe { ompcc_rt_register_module(&desc) }, 0);
    let gp = g.cast::<i32>();
    assert!(is_present(gp));
    update(&[map(gp, 2, TO, "g_counter")]);
    assert_eq!(dev_read(gp, 2), [5, 6]);
    let e = [map(gp, 2, TO | FROM, "g_counter")];
    data_begin(&e);
    dev_write(gp, &[7, 8]);
    data_end(&e);
    // SAFETY: reading the test's own static.
    assert_eq!(
        unsafe { G },
        [5, 6],
        "infinite count: no copy back without always"
    );
    exit(&[map(gp, 2, DELETE, "g_counter")]);
    assert!(is_present(gp));
}

#[test]
fn module_with_wrong_abi_version_is_rejected() {
    let _g = setup(SimBackend::new());
    let ptx = ".version 7.0";
    let desc = ModuleDescC {
        abi_version: 99,
        num_kernels: 0,
        num_globals: 0,
        requirements: 0,
        name: c("old.c"),
        ptx: ptx.as_ptr().cast(),
        ptx_size: ptx.len() as u64,
        kernels: std::ptr::null(),
        globals: std::ptr::null(),
    };
    // SAFETY: valid descriptor.
    assert_eq!(unsafe { ompcc_rt_register_module(&desc) }, -1);
    assert!(errors()[0].contains("old.c: module built for runtime ABI 99"));
}

/// Delegates to a sim device and counts live allocations.
struct Counting(SimBackend, std::sync::Arc<std::sync::atomic::AtomicI64>);

impl Backend for Counting {
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn alloc(&mut self, bytes: u64) -> Result<u64, ompcc_rt::BackendError> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.0.alloc(bytes)
    }
    fn free(&mut self, ptr: u64) -> Result<(), ompcc_rt::BackendError> {
        self.1.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        self.0.free(ptr)
    }
    fn copy_to_device(&mut self, dst: u64, src: &[u8]) -> Result<(), ompcc_rt::BackendError> {
        self.0.copy_to_device(dst, src)
    }
    fn copy_from_device(&mut self, dst: &mut [u8], src: u64) -> Result<(), ompcc_rt::BackendError> {
        self.0.copy_from_device(dst, src)
    }
    fn load_program(
        &mut self,
        modules: &[ompcc_rt::ModuleImage<'_>],
    ) -> Result<ompcc_rt::ProgramId, ompcc_rt::BackendError> {
        self.0.load_program(modules)
    }
    fn global_address(
        &mut self,
        program: ompcc_rt::ProgramId,
        name: &str,
    ) -> Result<Option<(u64, u64)>, ompcc_rt::BackendError> {
        self.0.global_address(program, name)
    }
    fn launch(
        &mut self,
        program: ompcc_rt::ProgramId,
        kernel: &str,
        params: &[&[u8]],
        dims: LaunchDims,
    ) -> Result<ompcc_rt::LaunchStats, ompcc_rt::BackendError> {
        self.0.launch(program, kernel, params, dims)
    }
}

#[test]
fn unmapping_frees_device_memory_exactly_once() {
    use std::sync::atomic::Ordering::SeqCst;
    let live = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let _g = setup_with(
        Options::default(),
        vec![Box::new(Counting(SimBackend::new(), live.clone()))],
    );
    let a = [0u8; 100];
    let b = [0u8; 8];
    let e = [map(a.as_ptr(), 100, TO, "a"), map(b.as_ptr(), 8, TO, "b")];
    enter(&e);
    data_begin(&e);
    assert_eq!(live.load(SeqCst), 2);
    exit(&e);
    assert_eq!(live.load(SeqCst), 2, "the region still holds both");
    data_end(&e);
    assert_eq!(live.load(SeqCst), 0);
    let d = omp_target_alloc(4, DEV);
    assert_eq!(live.load(SeqCst), 1);
    // SAFETY: from omp_target_alloc.
    unsafe { omp_target_free(d, DEV) };
    assert_eq!(live.load(SeqCst), 0);
    // SAFETY: already freed: reported, not freed twice.
    unsafe { omp_target_free(d, DEV) };
    assert_eq!(live.load(SeqCst), 0);
    let errs = errors();
    assert!(errs[0].contains("was not returned by omp_target_alloc"));
    // without a call site the routine's name is the location, said once
    assert!(
        errs[0].contains("error: omp_target_free: 0x") && !errs[0].contains("free: omp_target"),
        "{}",
        errs[0]
    );
}

/// OpenMP 5.2 18.8.1: more than the device can give is NULL for the program to handle, not
/// a fatal error; smaller allocations still succeed afterwards.
#[test]
fn omp_target_alloc_beyond_the_device_is_null() {
    let _g = setup(SimBackend::new());
    assert!(omp_target_alloc(1 << 62, DEV).is_null());
    assert!(errors().is_empty());
    let d = omp_target_alloc(64, DEV);
    assert!(!d.is_null());
    // SAFETY: from omp_target_alloc.
    unsafe { omp_target_free(d, DEV) };
    assert!(omp_target_alloc(1 << 62, initial()).is_null());
    assert!(errors().is_empty());
}

#[test]
fn null_and_impossible_ranges_are_errors_not_crashes() {
    let _g = setup(SimBackend::new());
    let null = map(std::ptr::null::<f64>(), 4, TO, "p[0:4]");
    assert_eq!(enter(&[null]), -1);
    assert!(errors()[0].contains("'p[0:4]' is a NULL address with 32 bytes to map"));
    let a = [0u8; 4];
    let mut huge = map(a.as_ptr(), 1, TO, "a[0:n]");
    huge.size = u64::MAX - 8;
    assert_eq!(enter(&[huge]), -1);
    assert!(errors()[0].contains("impossible size"));
    // A zero-length section at NULL is just a lookup.
    assert_eq!(enter(&[map(std::ptr::null::<f64>(), 0, TO, "p[0:0]")]), 0);
    assert!(entries().is_empty());
}

#[test]
fn is_device_ptr_passes_the_device_address_unchanged() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(0u64));
    let seen2 = seen.clone();
    let sim = SimBackend::new().with_kernel("peek", move |_, p, _| {
        *seen2.lock().unwrap() = u64::from_le_bytes(p[0].try_into().unwrap());
        Ok(())
    });
    let _g = setup(sim);
    let m = register(&[("peek", &[8])]);
    let d = omp_target_alloc(64, DEV);
    let e = [map(
        &d as *const *mut c_void,
        1,
        LITERAL | TARGET_PARAM,
        "d",
    )];
    assert_eq!(launch(m, DEV, &e), 1);
    assert_eq!(*seen.lock().unwrap(), d as u64);
    assert!(entries().is_empty());
}

#[test]
fn modules_registered_after_first_use_are_loaded_later() {
    let sim = SimBackend::new()
        .with_kernel("scale", scale_kernel)
        .with_kernel("nop", |_, _, _| Ok(()));
    let _g = setup(sim);
    let first = register(&[("scale", &[8, 8, 8])]);
    let a = [1.0f64];
    let (n, f) = (1i64, 4.0f64);
    assert_eq!(launch(first, DEV, &scale_entries(&a, &n, &f)), 1);
    let second = register(&[("nop", &[])]);
    assert_eq!(second, first + 1);
    assert_eq!(launch(second, DEV, &[]), 1);
    assert_eq!(launch(first, DEV, &scale_entries(&a, &n, &f)), 1);
    assert_eq!(a, [16.0]);
    assert!(errors().is_empty());
}
