//! OpenMP 5.1/5.2 routines that need the host's tasks, which libgomp 12 lacks:
//! `omp_in_explicit_task`, `omp_target_memcpy_async` and `omp_target_memcpy_rect_async`.
//!
//! Explicit tasks. The host compiler's code creates them with `GOMP_task`, `GOMP_taskloop`
//! and `GOMP_taskloop_ull`. The runtime defines those three (the driver links it before
//! libgomp, as for the `omp_*` API), wraps each task's function and data, and forwards to
//! libgomp's definitions (`dlsym(RTLD_NEXT)`). While a wrapped task runs, its thread's stack
//! of explicit tasks holds the nesting level (`omp_get_level`) it runs at: the thread is in an
//! explicit task when the top of the stack is the current level (a `parallel` inside the task
//! runs implicit tasks one level further in; a task it suspends at a scheduling point stays
//! below the one the thread runs meanwhile).
//!
//! Wrapped data (aligned to `max(8, arg_align)`): words 0..3 repeat the first three words of
//! the task's data, because libgomp writes a taskloop task's bounds in words 0 and 1 and reads
//! a taskloop reduction's pointer from word 2; word 3 holds the task's function, word 4 its
//! copy function (or 0), word 5 the data's size, word 6 its offset, word 7 the address of
//! the data the program passed, and the task's data follows. With a copy function the program's
//! data is not the task's (gcc passes a smaller struct of addresses that the copy function
//! reads), so the wrapped copy function runs it on the address of word 7, which libgomp only
//! uses before `GOMP_task`/`GOMP_taskloop` return, and then refreshes words 0..3 from the
//! task's data.
//!
//! Asynchronous copies are libgomp tasks whose dependences are the `omp_depend_t` objects the
//! program passes (gcc's layout: the address, then the dependence kind), so `taskwait`, a
//! `taskwait depend` or a later task's dependences order them as OpenMP says. Without libgomp
//! (the runtime's own tests) they copy at once, which is one valid schedule.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_ulonglong, c_void};
use std::sync::OnceLock;

use crate::abi::{RectDims, copy_devices_valid, guard, linear_copy};
use crate::runtime::RtError;

type TaskFn = unsafe extern "C" fn(*mut c_void);
type CopyFn = unsafe extern "C" fn(*mut c_void, *mut c_void);
type GompTask = unsafe extern "C" fn(
    TaskFn,
    *mut c_void,
    Option<CopyFn>,
    c_long,
    c_long,
    bool,
    c_uint,
    *mut *mut c_void,
    c_int,
    *mut c_void,
);
/// `GOMP_taskloop` (`T` = `long`) and `GOMP_taskloop_ull` (`unsigned long long`).
type GompTaskloop<T> = unsafe extern "C" fn(
    TaskFn,
    *mut c_void,
    Option<CopyFn>,
    c_long,
    c_long,
    c_uint,
    c_ulong,
    c_int,
    T,
    T,
    T,
);
type GetLevel = unsafe extern "C" fn() -> c_int;

unsafe extern "C" {
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// glibc's `RTLD_NEXT`: the next definition after the calling object's.
const RTLD_NEXT: *mut c_void = -1isize as *mut c_void;
/// glibc's `RTLD_DEFAULT`: the global scope.
const RTLD_DEFAULT: *mut c_void = std::ptr::null_mut();
/// libgomp's `GOMP_TASK_FLAG_DEPEND`.
const FLAG_DEPEND: c_uint = 8;

/// libgomp's entry points, looked up once (absent in a program not linked with libgomp).
struct Gomp {
    task: Option<GompTask>,
    taskloop: Option<GompTaskloop<c_long>>,
    taskloop_ull: Option<GompTaskloop<c_ulonglong>>,
    get_level: Option<GetLevel>,
}

fn gomp() -> &'static Gomp {
    static GOMP: OnceLock<Gomp> = OnceLock::new();
    GOMP.get_or_init(|| {
        let find = |handle, name: &[u8]| {
            // SAFETY: `name` is NUL-terminated; dlsym has no other precondition.
            let p = unsafe { dlsym(handle, name.as_ptr().cast()) };
            (!p.is_null()).then_some(p)
        };
        // SAFETY: each symbol is libgomp's function of the type it is read as (gcc 9 onward).
        unsafe {
            Gomp {
                task: find(RTLD_NEXT, b"GOMP_task\0").map(|p| std::mem::transmute(p)),
                taskloop: find(RTLD_NEXT, b"GOMP_taskloop\0").map(|p| std::mem::transmute(p)),
                taskloop_ull: find(RTLD_NEXT, b"GOMP_taskloop_ull\0")
                    .map(|p| std::mem::transmute(p)),
                get_level: find(RTLD_DEFAULT, b"omp_get_level\0").map(|p| std::mem::transmute(p)),
            }
        }
    })
}

fn level() -> c_int {
    // SAFETY: libgomp's `omp_get_level` takes nothing.
    gomp().get_level.map_or(0, |f| unsafe { f() })
}

thread_local! {
    /// Levels of the explicit tasks this thread is running, innermost last.
    static EXPLICIT: RefCell<Vec<c_int>> = const { RefCell::new(Vec::new()) };
}

/// `omp_in_explicit_task` (OpenMP 5.2, 18.5.11): whether the encountering task is explicit.
#[unsafe(no_mangle)]
pub extern "C" fn omp_in_explicit_task() -> c_int {
    let top = EXPLICIT.with(|s| s.borrow().last().copied());
    c_int::from(top == Some(level()))
}

const WORD: usize = std::mem::size_of::<usize>();
/// Words of the header before the task's data.
const HEADER_WORDS: usize = 8;
const MIRRORED: usize = 3 * WORD;

/// The wrapped form of a task's data (module docs), owned while libgomp copies it.
struct Wrapped {
    buf: Vec<u128>,
    align: usize,
    size: usize,
}

impl Wrapped {
    /// # Safety
    /// `data` holds `arg_size` readable bytes (or `arg_size` is 0).
    unsafe fn new(
        f: TaskFn,
        data: *mut c_void,
        cpyfn: Option<CopyFn>,
        arg_size: c_long,
        arg_align: c_long,
    ) -> Wrapped {
        let size = usize::try_from(arg_size).unwrap_or(0);
        let align = usize::try_from(arg_align).unwrap_or(1).max(WORD);
        let offset = (HEADER_WORDS * WORD).next_multiple_of(align);
        let total = offset + size;
        // u128 keeps the buffer 16-byte aligned; larger alignments are placed inside it.
        let mut buf = vec![0u128; (total + align).div_ceil(16)];
        let base = buf.as_mut_ptr() as usize;
        let start = base.next_multiple_of(align) - base;
        let w = Wrapped {
            buf,
            align,
            size: total,
        };
        let p = w.start(start);
        // SAFETY: the buffer holds `start + total` bytes; `data` holds `size` by contract.
        unsafe {
            if size > 0 {
                if cpyfn.is_none() {
                    std::ptr::copy_nonoverlapping(data.cast::<u8>(), p.add(offset), size);
                }
                std::ptr::copy_nonoverlapping(data.cast::<u8>(), p, size.min(MIRRORED));
            }
            let words = p.cast::<usize>();
            *words.add(3) = f as usize;
            *words.add(4) = cpyfn.map_or(0, |c| c as usize);
            *words.add(5) = size;
            *words.add(6) = offset;
            *words.add(7) = data as usize;
        }
        w
    }

    fn start(&self, start: usize) -> *mut u8 {
        (self.buf.as_ptr() as *mut u8).wrapping_add(start)
    }

    fn data(&self) -> *mut c_void {
        let base = self.buf.as_ptr() as usize;
        self.start(base.next_multiple_of(self.align) - base).cast()
    }

    fn copy_fn(&self) -> Option<CopyFn> {
        // SAFETY: word 4 was written by `new`.
        let c = unsafe { *self.data().cast::<usize>().add(4) };
        (c != 0).then_some(copy_wrapped as CopyFn)
    }
}

/// Runs a wrapped task: the words libgomp may have written go back into the task's own data,
/// then its function runs as an explicit task.
unsafe extern "C" fn run_wrapped(p: *mut c_void) {
    // SAFETY: `p` is a wrapped buffer (module docs) libgomp copied or passed through.
    unsafe {
        let words = p.cast::<usize>();
        let f: TaskFn = std::mem::transmute::<usize, TaskFn>(*words.add(3));
        let size = *words.add(5);
        let data = p.cast::<u8>().add(*words.add(6));
        std::ptr::copy_nonoverlapping(p.cast::<u8>(), data, size.min(MIRRORED));
        EXPLICIT.with(|s| s.borrow_mut().push(level()));
        f(data.cast());
        EXPLICIT.with(|s| s.borrow_mut().pop());
    }
}

/// A wrapped task's copy function: the header, the task's own copy function from the
/// program's data into the task's, then words 0..3 from the task's data.
unsafe extern "C" fn copy_wrapped(dst: *mut c_void, src: *mut c_void) {
    // SAFETY: `src` is a wrapped buffer whose word 7 is still the program's live data (libgomp
    // copies inside `GOMP_task`/`GOMP_taskloop`), and `dst` has room for one (libgomp sized it).
    unsafe {
        let words = src.cast::<usize>();
        let offset = *words.add(6);
        let size = *words.add(5);
        std::ptr::copy_nonoverlapping(src.cast::<u8>(), dst.cast::<u8>(), offset);
        let c: CopyFn = std::mem::transmute::<usize, CopyFn>(*words.add(4));
        let data = dst.cast::<u8>().add(offset);
        c(data.cast(), *words.add(7) as *mut c_void);
        std::ptr::copy_nonoverlapping(data, dst.cast::<u8>(), size.min(MIRRORED));
    }
}

/// `GOMP_task` as the host compiler calls it: forwarded to libgomp with the task wrapped.
///
/// # Safety
/// libgomp's contract for `GOMP_task`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn GOMP_task(
    f: TaskFn,
    data: *mut c_void,
    cpyfn: Option<CopyFn>,
    arg_size: c_long,
    arg_align: c_long,
    if_clause: bool,
    flags: c_uint,
    depend: *mut *mut c_void,
    priority: c_int,
    detach: *mut c_void,
) {
    let Some(real) = gomp().task else {
        // No libgomp: nothing defers, so the task runs here.
        // SAFETY: libgomp's contract.
        unsafe { f(data) };
        return;
    };
    // SAFETY: libgomp's contract.
    let w = unsafe { Wrapped::new(f, data, cpyfn, arg_size, arg_align) };
    // SAFETY: the wrapped buffer lives until libgomp has copied or run it.
    unsafe {
        real(
            run_wrapped,
            w.data(),
            w.copy_fn(),
            w.size as c_long,
            w.align as c_long,
            if_clause,
            flags,
            depend,
            priority,
            detach,
        )
    }
}

/// Defines `GOMP_taskloop` (`long` bounds) or `GOMP_taskloop_ull` (`unsigned long long`)
/// as the host compiler calls it: forwarded to libgomp's with every task wrapped.
macro_rules! taskloop_entry {
    ($name:ident, $field:ident, $t:ty) => {
        /// Forwarded to libgomp's with every task wrapped (module docs).
        ///
        /// # Safety
        /// libgomp's contract for this entry point.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            f: TaskFn,
            data: *mut c_void,
            cpyfn: Option<CopyFn>,
            arg_size: c_long,
            arg_align: c_long,
            flags: c_uint,
            num_tasks: c_ulong,
            priority: c_int,
            start: $t,
            end: $t,
            step: $t,
        ) {
            let real = gomp()
                .$field
                .expect(concat!(stringify!($name), " called without libgomp"));
            // SAFETY: libgomp's contract.
            let w = unsafe { Wrapped::new(f, data, cpyfn, arg_size, arg_align) };
            // SAFETY: the wrapped buffer lives until libgomp has copied or run it.
            unsafe {
                real(
                    run_wrapped,
                    w.data(),
                    w.copy_fn(),
                    w.size as c_long,
                    w.align as c_long,
                    flags,
                    num_tasks,
                    priority,
                    start,
                    end,
                    step,
                )
            }
        }
    };
}

taskloop_entry!(GOMP_taskloop, taskloop, c_long);
taskloop_entry!(GOMP_taskloop_ull, taskloop_ull, c_ulonglong);

/// An asynchronous copy, run by [`run_copy`] in its task.
enum Copy {
    Linear {
        dst: u64,
        src: u64,
        length: u64,
    },
    Rect {
        dst: u64,
        src: u64,
        element_size: usize,
        dims: RectDims,
    },
}

struct CopyTask {
    what: &'static str,
    copy: Copy,
    dst_device: c_int,
    src_device: c_int,
}

impl CopyTask {
    fn run(self) {
        guard((), || {
            // SAFETY: the program keeps host volumes valid until the copy completes (the
            // routines' contract).
            unsafe {
                match &self.copy {
                    Copy::Linear { dst, src, length } => linear_copy(
                        self.what,
                        *dst,
                        *src,
                        *length,
                        self.dst_device,
                        self.src_device,
                    ),
                    Copy::Rect {
                        dst,
                        src,
                        element_size,
                        dims,
                    } => dims.rect(*element_size).copy_between(
                        self.what,
                        *dst,
                        *src,
                        self.dst_device,
                        self.src_device,
                    ),
                }
            }
        })
    }

    /// Defers the copy as a task with the program's dependences. Returns 0, or 1 (nothing
    /// deferred) when a device number is invalid.
    ///
    /// # Safety
    /// `deps` holds `count` initialized `omp_depend_t` objects (or `count` is 0).
    unsafe fn spawn(self, count: c_int, deps: *mut c_void) -> c_int {
        if !copy_devices_valid(self.dst_device, self.src_device) {
            let message = format!(
                "invalid device number {} or {}",
                self.dst_device, self.src_device
            );
            return guard(1, || Err(RtError::new(self.what, message)));
        }
        let Some(real) = gomp().task else {
            self.run();
            return 0;
        };
        let n = usize::try_from(count).unwrap_or(0);
        // libgomp's dependence vector: 0, the count, no out/inout, mutexinoutset or in
        // addresses, then one pointer per omp_depend_t (two words each).
        let mut depend: Vec<*mut c_void> = vec![std::ptr::null_mut(); 5 + n];
        depend[1] = n as *mut c_void;
        for (i, d) in depend[5..].iter_mut().enumerate() {
            *d = deps.cast::<u8>().wrapping_add(i * 2 * WORD).cast();
        }
        let mut boxed: *mut CopyTask = Box::into_raw(Box::new(self));
        let flags = if n > 0 { FLAG_DEPEND } else { 0 };
        // SAFETY: the data is one pointer, copied by libgomp; the dependence vector lives for
        // the call (libgomp records dependences before it returns).
        unsafe {
            real(
                run_copy,
                (&raw mut boxed).cast(),
                None,
                WORD as c_long,
                WORD as c_long,
                true,
                flags,
                if n > 0 {
                    depend.as_mut_ptr()
                } else {
                    std::ptr::null_mut()
                },
                0,
                std::ptr::null_mut(),
            )
        };
        0
    }
}

unsafe extern "C" fn run_copy(p: *mut c_void) {
    // SAFETY: the task's data is the pointer `spawn` boxed; each task runs once.
    let task = unsafe { Box::from_raw(*p.cast::<*mut CopyTask>()) };
    task.run();
}

/// `omp_target_memcpy_async` (OpenMP 5.1): `omp_target_memcpy` as a deferrable task that
/// depends on `depobj_list`. Returns 0, or nonzero on an invalid device.
///
/// # Safety
/// As for `omp_target_memcpy`, until the copy completes; `depobj_list` holds `depobj_count`
/// initialized depend objects.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn omp_target_memcpy_async(
    dst: *mut c_void,
    src: *const c_void,
    length: usize,
    dst_offset: usize,
    src_offset: usize,
    dst_device: c_int,
    src_device: c_int,
    depobj_count: c_int,
    depobj_list: *mut c_void,
) -> c_int {
    let task = CopyTask {
        what: "omp_target_memcpy_async",
        copy: Copy::Linear {
            dst: (dst as u64).wrapping_add(dst_offset as u64),
            src: (src as u64).wrapping_add(src_offset as u64),
            length: length as u64,
        },
        dst_device,
        src_device,
    };
    // SAFETY: forwarded contract.
    unsafe { task.spawn(depobj_count, depobj_list) }
}

/// `omp_target_memcpy_rect_async` (OpenMP 5.1): `omp_target_memcpy_rect` as a deferrable task
/// that depends on `depobj_list` (the dimension arrays are copied before it returns). With
/// `dst` and `src` both NULL, returns the number of dimensions supported.
///
/// # Safety
/// As for `omp_target_memcpy_rect`, until the copy completes; `depobj_list` holds
/// `depobj_count` initialized depend objects.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn omp_target_memcpy_rect_async(
    dst: *mut c_void,
    src: *const c_void,
    element_size: usize,
    num_dims: c_int,
    volume: *const usize,
    dst_offsets: *const usize,
    src_offsets: *const usize,
    dst_dimensions: *const usize,
    src_dimensions: *const usize,
    dst_device: c_int,
    src_device: c_int,
    depobj_count: c_int,
    depobj_list: *mut c_void,
) -> c_int {
    if dst.is_null() && src.is_null() {
        return c_int::MAX;
    }
    const WHAT: &str = "omp_target_memcpy_rect_async";
    let arrays = [
        volume,
        dst_offsets,
        src_offsets,
        dst_dimensions,
        src_dimensions,
    ];
    let dims = guard(None, || {
        if dst.is_null() || src.is_null() {
            return Err(RtError::new(WHAT, "NULL source or destination"));
        }
        // SAFETY: forwarded contract.
        unsafe { RectDims::read(WHAT, num_dims, arrays) }.map(Some)
    });
    let Some(dims) = dims else {
        return 1;
    };
    let task = CopyTask {
        what: WHAT,
        copy: Copy::Rect {
            dst: dst as u64,
            src: src as u64,
            element_size,
            dims,
        },
        dst_device,
        src_device,
    };
    // SAFETY: forwarded contract.
    unsafe { task.spawn(depobj_count, depobj_list) }
}
