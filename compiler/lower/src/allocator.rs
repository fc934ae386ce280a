//! The OpenMP memory-management routines in device code (OpenMP 5.2 section 18.13):
//! `omp_alloc`, `omp_aligned_alloc`, `omp_calloc`, `omp_aligned_calloc`, `omp_realloc`,
//! `omp_free` and `omp_get_default_allocator`, as calls to the device C library's heap
//! (`malloc`, `aligned_alloc`, `calloc`, `realloc`, `free`, `memset`; `stdlib/stdlib/heap.c`).
//!
//! Every predefined allocator (handles 1 to 8, and `omp_null_allocator`, which means
//! def-allocator-var, `omp_default_mem_alloc`) allocates from the device heap: global memory,
//! reachable by every thread of the device, which satisfies each predefined allocator's
//! access trait, and a memory space is allowed to map to the same storage as another. Any
//! other handle (an allocator made on the host, or by a `uses_allocators` clause, whose
//! traits the device does not know) cannot be honoured: its allocations fail (a null pointer),
//! as with a `null_fb` fallback, never memory with the wrong traits.
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
];

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
            "omp_alloc" => {
                let (size, h) = (vals[0], vals[1]);
                let ok = self.can_allocate(h, size);
                self.guarded_alloc(ok, |fl| {
                    fl.lib_call("malloc", &[Type::I64], Some(Type::PTR), &[size], span)
                })
            }
            "omp_aligned_alloc" => {
                let (align, size, h) = (vals[0], vals[1], vals[2]);
                let ok = self.can_allocate(h, size);
                self.guarded_alloc(ok, |fl| {
                    let p = [Type::I64, Type::I64];
                    fl.lib_call("aligned_alloc", &p, Some(Type::PTR), &[align, size], span)
                })
            }
            "omp_calloc" => {
                let (n, size, h) = (vals[0], vals[1], vals[2]);
                let total = self.b.ins().imul(n, size);
                let ok = self.can_allocate(h, total);
                self.guarded_alloc(ok, |fl| {
                    let p = [Type::I64, Type::I64];
                    fl.lib_call("calloc", &p, Some(Type::PTR), &[n, size], span)
                })
            }
            "omp_aligned_calloc" => {
                let (align, n, size, h) = (vals[0], vals[1], vals[2], vals[3]);
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
                let ok = self.can_allocate(h, size);
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
        let known = self.b.ins().icmp(IntCC::Ule, h, last);
        let z = self.b.ins().iconst(Type::I64, 0);
        let some = self.b.ins().icmp(IntCC::Ne, size, z);
        self.b.ins().and(known, some)
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
