//! The OpenMP memory-management routines in device code (OpenMP 5.2 section 18.13):
//! `omp_alloc`, `omp_aligned_alloc`, `omp_calloc`, `omp_aligned_calloc`, `omp_realloc`,
//! `omp_free` and `omp_get_default_allocator`, as calls to the device C library's heap
//! (`malloc`, `aligned_alloc`, `calloc`, `realloc`, `free`, `memset`; `stdlib/stdlib/heap.c`).
//!
//! Every predefined allocator (handles 1 to 8, and `omp_null_allocator`, which means
//! def-allocator-var, `omp_default_mem_alloc`) allocates from the device heap: global memory,
//! reachable by every thread of the device, which satisfies each predefined allocator's
//! access trait, and a memory space is allowed to map to the same storage as another.
//! `omp_init_allocator` in device code makes an allocator of a predefined memory space whose
//! traits the device heap honours (`sync_hint`, `alignment`, `access`, `fallback`,
//! `fb_data`): its handle is `USER_BASE | log2(alignment)`; with any other trait (a pool size,
//! pinned or partitioned memory) or another memory space it returns `omp_null_allocator`, as
//! OpenMP 5.2 18.13.2 allows when an allocator cannot be made. `omp_destroy_allocator` has
//! nothing to free. Any other handle (an allocator made on the host, or by a
//! `uses_allocators` clause, whose traits the device does not know) cannot be honoured: its
//! allocations fail (a null pointer), as with a `null_fb` fallback, never memory with the
//! wrong traits.
//!
//! Invariants: a size of zero allocates nothing and returns a null pointer (as the host's
//! libgomp does); `omp_free` and `omp_realloc` take any pointer these routines returned (the
//! heap's blocks all carry its header).

use crate::expr::Rv;
use crate::func::FnLower;
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{IntCC, Signature, Type, Value};
use ompcc_sema::ExprInfo;
use ompcc_syntax::ast::Expr;

/// The routines lowered here (see [`crate::is_device_api`]).
pub const ROUTINES: &[&str] = &[
    "omp_alloc",
    "omp_aligned_alloc",
    "omp_calloc",
    "omp_aligned_calloc",
    "omp_realloc",
    "omp_free",
    "omp_get_default_allocator",
    "omp_init_allocator",
    "omp_destroy_allocator",
];

/// Handles of allocators made by `omp_init_allocator` in device code: this plus the log2 of
/// their alignment (at most `MAX_ALIGN_LOG2`).
const USER_BASE: i64 = 0x100;
const MAX_ALIGN_LOG2: i64 = 20;

/// The largest predefined allocator handle (`omp_thread_mem_alloc`).
const LAST_PREDEFINED: i64 = 8;
/// `omp_default_mem_alloc`, def-allocator-var's value on the device.
const DEFAULT_MEM_ALLOC: i64 = 1;

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// A call of a memory-management routine; `None` when `name` is not one of them.
    pub(crate) fn omp_allocator(
        &mut self,
        name: &str,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Rv>> {
        if !ROUTINES.contains(&name) {
            return None;
        }
        let want = match name {
            "omp_alloc" => 2,
            "omp_aligned_alloc" | "omp_calloc" => 3,
            "omp_aligned_calloc" | "omp_realloc" => 4,
            "omp_free" => 2,
            "omp_init_allocator" => 3,
            "omp_destroy_allocator" => 1,
            _ => 0,
        };
        if args.len() != want {
            self.unsupported(format!("'{name}' takes {want} arguments"), span);
            return Some(None);
        }
        let mut vals = Vec::new();
        for a in args {
            let cls = self.class_of_conv(a)?;
            let v = self.scalar(a)?;
            // sizes, alignments and handles are 64-bit (size_t, uintptr_t enums)
            vals.push(match cls {
                Scalar::Ptr => v,
                _ => self.convert(v, cls, Scalar::ULONG),
            });
        }
        let r = match name {
            "omp_get_default_allocator" => {
                let h = self.b.ins().iconst(Type::I64, DEFAULT_MEM_ALLOC);
                let want = self.class(info.ty, span).unwrap_or(Scalar::ULONG);
                return Some(Some(Rv::S(self.convert(h, Scalar::ULONG, want))));
            }
            "omp_free" => {
                self.lib_call("free", &[Type::PTR], None, &[vals[0]], span)?;
                return Some(Some(Rv::Void));
            }
            "omp_destroy_allocator" => return Some(Some(Rv::Void)),
            "omp_init_allocator" => {
                let h = self.init_allocator(vals[0], vals[1], vals[2]);
                let want = self.class(info.ty, span).unwrap_or(Scalar::ULONG);
                return Some(Some(Rv::S(self.convert(h, Scalar::ULONG, want))));
            }
            "omp_alloc" => {
                let (size, h) = (vals[0], vals[1]);
                let ok = self.can_allocate(h, size);
                let align = self.handle_alignment(h);
                self.guarded_alloc(ok, |fl| {
                    let p = [Type::I64, Type::I64];
                    fl.lib_call("aligned_alloc", &p, Some(Type::PTR), &[align, size], span)
                })
            }
            "omp_aligned_alloc" => {
                let (align, size, h) = (vals[0], vals[1], vals[2]);
                let ok = self.can_allocate(h, size);
                let own = self.handle_alignment(h);
                let align = self.b.ins().umax(align, own);
                self.guarded_alloc(ok, |fl| {
                    let p = [Type::I64, Type::I64];
                    fl.lib_call("aligned_alloc", &p, Some(Type::PTR), &[align, size], span)
                })
            }
            "omp_calloc" | "omp_aligned_calloc" => {
                // omp_calloc is omp_aligned_calloc at the allocator's own alignment
                let (align, n, size, h) = if name == "omp_calloc" {
                    let own = self.handle_alignment(vals[2]);
                    (own, vals[0], vals[1], vals[2])
                } else {
                    let own = self.handle_alignment(vals[3]);
                    let a = self.b.ins().umax(vals[0], own);
                    (a, vals[1], vals[2], vals[3])
                };
                let total = self.b.ins().imul(n, size);
                let ok = self.can_allocate(h, total);
                // n * size must not wrap
                let hi = self.b.ins().umulhi(n, size);
                let z = self.b.ins().iconst(Type::I64, 0);
                let fits = self.b.ins().icmp(IntCC::Eq, hi, z);
                let ok = self.b.ins().and(ok, fits);
                self.guarded_alloc(ok, |fl| {
                    let p = [Type::I64, Type::I64];
                    let ptr =
                        fl.lib_call("aligned_alloc", &p, Some(Type::PTR), &[align, total], span)?;
                    let zero = fl.b.ins().iconst(Type::I32, 0);
                    let p = [Type::PTR, Type::I32, Type::I64];
                    let null = fl.null_ptr();
                    let nonnull = fl.b.ins().icmp(IntCC::Ne, ptr, null);
                    let set = fl.b.create_block();
                    let done = fl.b.create_block();
                    fl.b.ins().brif(nonnull, set, &[], done, &[]);
                    fl.b.switch_to_block(set);
                    fl.lib_call("memset", &p, Some(Type::PTR), &[ptr, zero, total], span)?;
                    fl.b.ins().jump(done, &[]);
                    fl.b.switch_to_block(done);
                    Some(ptr)
                })
            }
            _ => {
                // omp_realloc(ptr, size, allocator, free_allocator): size 0 frees
                let (ptr, size, h) = (vals[0], vals[1], vals[2]);
                let z = self.b.ins().iconst(Type::I64, 0);
                let is0 = self.b.ins().icmp(IntCC::Eq, size, z);
                let free = self.b.create_block();
                let other = self.b.create_block();
                let done = self.b.create_block();
                let res = self.b.append_block_param(done, Type::PTR);
                self.b.ins().brif(is0, free, &[], other, &[]);
                self.b.switch_to_block(free);
                self.lib_call("free", &[Type::PTR], None, &[ptr], span)?;
                let null = self.null_ptr();
                self.b.ins().jump(done, &[null]);
                self.b.switch_to_block(other);
                // the heap's realloc keeps 16-byte alignment: an allocator with a larger
                // alignment trait cannot resize (null, as its null fallback would)
                let ok = self.can_allocate(h, size);
                let own = self.handle_alignment(h);
                let sixteen = self.b.ins().iconst(Type::I64, 16);
                let fits = self.b.ins().icmp(IntCC::Ule, own, sixteen);
                let ok = self.b.ins().and(ok, fits);
                let p = self.guarded_alloc(ok, |fl| {
                    let p = [Type::PTR, Type::I64];
                    fl.lib_call("realloc", &p, Some(Type::PTR), &[ptr, size], span)
                })?;
                self.b.ins().jump(done, &[p]);
                self.b.switch_to_block(done);
                Some(res)
            }
        }?;
        Some(Some(Rv::S(r)))
    }

    /// Whether an allocation of `size` bytes with handle `h` is attempted (`i1`): the handle
    /// is predefined and the size is not zero.
    fn can_allocate(&mut self, h: Value, size: Value) -> Value {
        let last = self.b.ins().iconst(Type::I64, LAST_PREDEFINED);
        let predefined = self.b.ins().icmp(IntCC::Ule, h, last);
        let base = self.b.ins().iconst(Type::I64, USER_BASE);
        let top = self.b.ins().iconst(Type::I64, USER_BASE + MAX_ALIGN_LOG2);
        let above = self.b.ins().icmp(IntCC::Uge, h, base);
        let below = self.b.ins().icmp(IntCC::Ule, h, top);
        let user = self.b.ins().and(above, below);
        let known = self.b.ins().or(predefined, user);
        let z = self.b.ins().iconst(Type::I64, 0);
        let some = self.b.ins().icmp(IntCC::Ne, size, z);
        self.b.ins().and(known, some)
    }

    /// The alignment allocations with handle `h` need: 16 (the heap's own), or the alignment
    /// trait of an allocator made by `omp_init_allocator`.
    fn handle_alignment(&mut self, h: Value) -> Value {
        let base = self.b.ins().iconst(Type::I64, USER_BASE);
        let user = self.b.ins().icmp(IntCC::Uge, h, base);
        let e = self.b.ins().isub(h, base);
        let zero = self.b.ins().iconst(Type::I64, 0);
        let e = self.b.ins().select(user, e, zero);
        let one = self.b.ins().iconst(Type::I64, 1);
        let a = self.b.ins().shl(one, e);
        let sixteen = self.b.ins().iconst(Type::I64, 16);
        self.b.ins().umax(a, sixteen)
    }

    /// `omp_init_allocator(memspace, ntraits, traits)`: `USER_BASE | log2(alignment)`, or
    /// `omp_null_allocator` (0) for another memory space, a trait the device cannot honour
    /// or an alignment that is not a power of two up to `1 << MAX_ALIGN_LOG2`.
    fn init_allocator(&mut self, space: Value, n: Value, traits: Value) -> Value {
        // memory spaces 0 (default) .. 4 (low latency) are the predefined ones
        let four = self.b.ins().iconst(Type::I64, 4);
        let space_ok = self.b.ins().icmp(IntCC::Ule, space, four);
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, Type::I64);
        let align = self.b.append_block_param(head, Type::I64);
        let ok = self.b.append_block_param(head, Type::I8);
        let body = self.b.create_block();
        let done = self.b.create_block();
        let zero = self.b.ins().iconst(Type::I64, 0);
        let one = self.b.ins().iconst(Type::I64, 1);
        let ok0 = self.b.ins().zext(Type::I8, space_ok);
        self.b.ins().jump(head, &[zero, one, ok0]);
        self.b.switch_to_block(head);
        // n is an int converted to unsigned: a negative count runs no trait
        let more = self.b.ins().icmp(IntCC::Slt, i, n);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        // omp_alloctrait_t: { int key; uintptr_t value; }, 16 bytes
        let sixteen = self.b.ins().iconst(Type::I64, 16);
        let off = self.b.ins().imul(i, sixteen);
        let at = self.b.ins().ptr_offset(traits, off);
        let key = self.b.ins().load(
            Type::I32,
            ompcc_ir::AddrSpace::Generic,
            ompcc_ir::MemFlags::aligned(4),
            at,
        );
        let eight = self.b.ins().iconst(Type::I64, 8);
        let vat = self.b.ins().ptr_offset(at, eight);
        let value = self.b.ins().load(
            Type::I64,
            ompcc_ir::AddrSpace::Generic,
            ompcc_ir::MemFlags::aligned(8),
            vat,
        );
        let k2 = self.b.ins().iconst(Type::I32, 2);
        let is_align = self.b.ins().icmp(IntCC::Eq, key, k2);
        // honoured keys: sync_hint 1, alignment 2, access 3, fallback 5, fb_data 6
        let mut honoured = is_align;
        for k in [1, 3, 5, 6] {
            let kv = self.b.ins().iconst(Type::I32, k);
            let eq = self.b.ins().icmp(IntCC::Eq, key, kv);
            honoured = self.b.ins().or(honoured, eq);
        }
        // a power of two: v != 0 && (v & (v - 1)) == 0, at most 1 << MAX_ALIGN_LOG2
        let vm1 = self.b.ins().isub(value, one);
        let and = self.b.ins().and(value, vm1);
        let pow2 = self.b.ins().icmp(IntCC::Eq, and, zero);
        let nz = self.b.ins().icmp(IntCC::Ne, value, zero);
        let pow2 = self.b.ins().and(pow2, nz);
        let max = self.b.ins().iconst(Type::I64, 1 << MAX_ALIGN_LOG2);
        let small = self.b.ins().icmp(IntCC::Ule, value, max);
        let good_align = self.b.ins().and(pow2, small);
        // still = ok && honoured && (key != alignment || good_align)
        let yes = self.b.ins().icmp(IntCC::Eq, zero, zero);
        let align_fine = self.b.ins().select(is_align, good_align, yes);
        let z8 = self.b.ins().iconst(Type::I8, 0);
        let ok_now = self.b.ins().icmp(IntCC::Ne, ok, z8);
        let still = self.b.ins().and(ok_now, honoured);
        let still = self.b.ins().and(still, align_fine);
        let new_align = self.b.ins().select(is_align, value, align);
        let ok1 = self.b.ins().zext(Type::I8, still);
        let inext = self.b.ins().iadd(i, one);
        self.b.ins().jump(head, &[inext, new_align, ok1]);
        self.b.switch_to_block(done);
        // log2 of the power of two: 63 - clz
        let lz = self.b.ins().clz(align);
        let c63 = self.b.ins().iconst(Type::I64, 63);
        let e = self.b.ins().isub(c63, lz);
        let base = self.b.ins().iconst(Type::I64, USER_BASE);
        let h = self.b.ins().iadd(base, e);
        let z8 = self.b.ins().iconst(Type::I8, 0);
        let good = self.b.ins().icmp(IntCC::Ne, ok, z8);
        self.b.ins().select(good, h, zero)
    }

    fn null_ptr(&mut self) -> Value {
        let z = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().inttoptr(Type::PTR, z)
    }

    /// `ok ? alloc() : NULL`, calling `alloc` only when `ok`.
    fn guarded_alloc(
        &mut self,
        ok: Value,
        alloc: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Option<Value> {
        let call = self.b.create_block();
        let skip = self.b.create_block();
        let done = self.b.create_block();
        let res = self.b.append_block_param(done, Type::PTR);
        self.b.ins().brif(ok, call, &[], skip, &[]);
        self.b.switch_to_block(call);
        let p = alloc(self)?;
        self.b.ins().jump(done, &[p]);
        self.b.switch_to_block(skip);
        let null = self.null_ptr();
        self.b.ins().jump(done, &[null]);
        self.b.switch_to_block(done);
        Some(res)
    }

    /// A call of device C library function `name` (declared on first use): its result, or
    /// an unused 0 for a function without one; `None` after a diagnostic.
    fn lib_call(
        &mut self,
        name: &str,
        params: &[Type],
        ret: Option<Type>,
        args: &[Value],
        span: Span,
    ) -> Option<Value> {
        let sig = Signature {
            params: params.to_vec(),
            returns: ret.into_iter().collect(),
        };
        if !self.cx.module.functions.iter().any(|f| f.name == name)
            && let Err(m) = self.cx.declare_external(name, &sig)
        {
            self.unsupported(
                format!("cannot call '{name}' for an OpenMP allocator: {m}"),
                span,
            );
            return None;
        }
        let fr = self.b.import_function(name, sig);
        let call = self.b.ins().call(fr, args);
        match ret {
            Some(_) => self.b.func.dfg.inst_results(call).first().copied(),
            None => Some(self.b.ins().iconst(Type::I32, 0)),
        }
    }
}
