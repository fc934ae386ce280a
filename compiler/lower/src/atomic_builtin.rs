//! Lowering of the GNU atomic builtins (`__atomic_*`, `__sync_*`, which `<stdatomic.h>`
//! expands to) and of plain accesses to `_Atomic` objects (C11 6.2.6.1, 6.5.2.4, 6.5.16.2:
//! reads, assignments, `++`/`--` and compound assignments are seq_cst atomic operations).
//!
//! Invariants:
//! - an atomic object is moved as its bits (`i8`/`i16`/`i32`/`i64`: floats bitcast, pointers
//!   through `ptrtoint`); 4- and 8-byte objects use `atomic_rmw`/`atomic_cas`, 1- and
//!   2-byte objects a compare-and-swap loop on the aligned 32-bit word that contains them
//!   (PTX has no narrower `atom`), so the neighbouring bytes are never written;
//! - atomic loads are `volatile` loads (PTX `ld.volatile`: relaxed, single-copy atomic when
//!   naturally aligned, never cached in registers, merged or removed by the optimizer);
//!   atomic stores are exchanges whose result is unused (see `atomic_store_bits`);
//! - memory orders become fences around the operation, as the PTX memory model allows
//!   (a fence before a morally strong access makes it a release, one after it an acquire):
//!   release, acq_rel and seq_cst put a fence before, consume, acquire, acq_rel and seq_cst
//!   one after; relaxed none. A non-constant order is seq_cst, as in gcc;
//! - thread-private (`local`-space) `_Atomic` objects are read and written plainly: no other
//!   thread can see them;
//! - operands are evaluated once, left to right, before the object is touched.

use crate::expr::{Lv, Rv, strip_parens};
use crate::func::{Addr, FnLower};
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, AtomicRmwOp, IntCC, MemFlags, Scope, Type, Value};
use ompcc_sema::ExprInfo;
use ompcc_sema::atomic::{AtomicBuiltin, FetchOp, MemOrder};
use ompcc_sema::consteval::ConstValue;
use ompcc_sema::types::{QualType, Quals};
use ompcc_syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};

/// An atomic object: where it is and the integer type of its bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Obj {
    pub addr: Addr,
    pub bits: Type,
}

/// Memory a `T *` argument points to, with the class its object is accessed in (`None`:
/// as the atomic object's bits).
#[derive(Clone, Copy, Debug)]
struct Place {
    addr: Addr,
    cls: Option<Scalar>,
}

/// Whether `o` needs a fence before the operation (it releases).
fn fence_before(o: MemOrder) -> bool {
    matches!(o, MemOrder::Release | MemOrder::AcqRel | MemOrder::SeqCst)
}

/// Whether `o` needs a fence after the operation (it acquires).
fn fence_after(o: MemOrder) -> bool {
    matches!(
        o,
        MemOrder::Consume | MemOrder::Acquire | MemOrder::AcqRel | MemOrder::SeqCst
    )
}

/// The integer type of an object of `bytes` bytes.
fn bits_type(bytes: u64) -> Option<Type> {
    match bytes {
        1 => Some(Type::I8),
        2 => Some(Type::I16),
        4 => Some(Type::I32),
        8 => Some(Type::I64),
        _ => None,
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    // ----- the builtins -----

    /// A call of atomic builtin `b`; `info` is the call's typing.
    pub(crate) fn atomic_builtin(
        &mut self,
        b: AtomicBuiltin,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Rv> {
        use AtomicBuiltin as A;
        let n = b.params().len();
        if args.len() < n {
            self.unsupported("too few arguments to an atomic builtin", span);
            return None;
        }
        let result = match b {
            A::ThreadFence => {
                if self.order(&args[0]) != MemOrder::Relaxed {
                    self.b.ins().fence(Scope::Gpu);
                }
                None
            }
            // orders only against a signal handler of this thread: nothing to emit on the
            // device (volatile accesses already keep their order)
            A::SignalFence => {
                self.order(&args[0]);
                None
            }
            A::SyncSynchronize => {
                self.b.ins().fence(Scope::Gpu);
                None
            }
            A::AlwaysLockFree | A::IsLockFree => {
                // sema folded a constant size; here it is a run-time value
                let s = self.scalar(&args[0])?;
                self.effect(&args[1]);
                let st = self.b.value_type(s);
                let mut any = self.b.ins().iconst(Type::I1, 0);
                for k in [1, 2, 4, 8] {
                    let kv = self.b.ins().iconst(st, k);
                    let eq = self.b.ins().icmp(IntCC::Eq, s, kv);
                    any = self.b.ins().or(any, eq);
                }
                Some((self.b.ins().zext(Type::I8, any), Scalar::Bool))
            }
            A::TestAndSet | A::Clear => {
                let p = self.scalar(&args[0])?;
                let o = self.order(&args[1]);
                let obj = Obj {
                    addr: Addr {
                        ptr: p,
                        space: AddrSpace::Generic,
                        align: 1,
                    },
                    bits: Type::I8,
                };
                if b == A::Clear {
                    let z = self.b.ins().iconst(Type::I8, 0);
                    self.atomic_store_bits(obj, z, o);
                    None
                } else {
                    let one = self.b.ins().iconst(Type::I8, 1);
                    let old = self.atomic_xchg_bits(obj, one, o);
                    let z = self.b.ins().iconst(Type::I8, 0);
                    let set = self.b.ins().icmp(IntCC::Ne, old, z);
                    Some((self.b.ins().zext(Type::I8, set), Scalar::Bool))
                }
            }
            _ => return self.atomic_object_builtin(b, args, info, span),
        };
        // the `__sync_*` builtins' extra arguments are evaluated and ignored
        for a in args.iter().skip(n) {
            self.effect(a);
        }
        Some(match result {
            None => Rv::Void,
            Some((v, cls)) => {
                let want = self.class(info.ty, span)?;
                Rv::S(self.convert(v, cls, want))
            }
        })
    }

    /// The builtins whose first argument points to the atomic object.
    fn atomic_object_builtin(
        &mut self,
        b: AtomicBuiltin,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Rv> {
        use AtomicBuiltin as A;
        let (obj, cls) = self.atomic_pointee(&args[0], span)?;
        let n = b.params().len();
        // (result bits or bool, in class)
        let result: Option<(Value, Scalar)> = match b {
            A::Load { generic } => {
                let ret = if generic {
                    Some(self.value_ptr(&args[1], obj)?)
                } else {
                    None
                };
                let o = self.order(&args[n - 1]);
                let v = self.atomic_load_bits(obj, o);
                match ret {
                    Some(r) => {
                        self.store_bits_to(r, v);
                        None
                    }
                    None => Some((v, cls)),
                }
            }
            A::Store { generic } => {
                let v = self.atomic_operand(&args[1], generic, obj, cls)?;
                let o = self.order(&args[2]);
                self.atomic_store_bits(obj, v, o);
                None
            }
            A::Exchange { generic } => {
                let v = self.atomic_operand(&args[1], generic, obj, cls)?;
                let ret = if generic {
                    Some(self.value_ptr(&args[2], obj)?)
                } else {
                    None
                };
                let o = self.order(&args[n - 1]);
                let old = self.atomic_xchg_bits(obj, v, o);
                match ret {
                    Some(r) => {
                        self.store_bits_to(r, old);
                        None
                    }
                    None => Some((old, cls)),
                }
            }
            A::CompareExchange { generic } => {
                let ep = self.value_ptr(&args[1], obj)?;
                let desired = self.atomic_operand(&args[2], generic, obj, cls)?;
                self.effect(&args[3]);
                // a strong compare-and-swap ordered by the success order serves the weak
                // form and any failure order (which may not be stronger)
                let o = self.order(&args[4]);
                self.order(&args[5]);
                let expected = self.load_bits_from(ep, obj.bits);
                let old = self.atomic_cas_bits(obj, expected, desired, o);
                let ok = self.b.ins().icmp(IntCC::Eq, old, expected);
                // on failure `*expected` receives the value found
                let fail = self.b.create_block();
                let done = self.b.create_block();
                self.b.ins().brif(ok, done, &[], fail, &[]);
                self.b.switch_to_block(fail);
                self.store_bits_to(ep, old);
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(done);
                Some((self.b.ins().zext(Type::I8, ok), Scalar::Bool))
            }
            A::Fetch { op, new, sync } => {
                let v = self.atomic_operand(&args[1], false, obj, cls)?;
                let o = if sync {
                    MemOrder::SeqCst
                } else {
                    self.order(&args[2])
                };
                let old = self.atomic_fetch_bits(obj, op, v, o);
                let r = if new {
                    self.fetch_value(op, old, v)
                } else {
                    old
                };
                Some((r, cls))
            }
            A::SyncCas { value } => {
                let expected = self.atomic_operand(&args[1], false, obj, cls)?;
                let desired = self.atomic_operand(&args[2], false, obj, cls)?;
                let old = self.atomic_cas_bits(obj, expected, desired, MemOrder::SeqCst);
                if value {
                    Some((old, cls))
                } else {
                    let ok = self.b.ins().icmp(IntCC::Eq, old, expected);
                    Some((self.b.ins().zext(Type::I8, ok), Scalar::Bool))
                }
            }
            A::SyncLockTestAndSet => {
                let v = self.atomic_operand(&args[1], false, obj, cls)?;
                let old = self.atomic_xchg_bits(obj, v, MemOrder::Acquire);
                Some((old, cls))
            }
            A::SyncLockRelease => {
                let z = self.b.ins().iconst(obj.bits, 0);
                self.atomic_store_bits(obj, z, MemOrder::Release);
                None
            }
            _ => None,
        };
        for a in args.iter().skip(n) {
            self.effect(a);
        }
        Some(match result {
            None => Rv::Void,
            Some((v, Scalar::Bool))
                if matches!(b, A::CompareExchange { .. } | A::SyncCas { .. }) =>
            {
                let want = self.class(info.ty, span)?;
                Rv::S(self.convert(v, Scalar::Bool, want))
            }
            Some((v, c)) => {
                let v = self.value_of_bits(v, c);
                let want = self.class(info.ty, span)?;
                Rv::S(self.convert(v, c, want))
            }
        })
    }

    /// The atomic object `p` points to, with its value class (a pointer's bits, or for
    /// non-scalar objects the class of its bits).
    fn atomic_pointee(&mut self, p: &'a Expr, span: Span) -> Option<(Obj, Scalar)> {
        let pi = self.info(p)?;
        let types = &self.cx.typed.types;
        let Some(t) = types.pointee(pi.conv) else {
            self.unsupported(
                "the atomic object must be reached through a pointer",
                p.span,
            );
            return None;
        };
        let t = types.canon(t).unqual();
        let size = types.size_of(t).unwrap_or(0);
        let align = u64::from(self.align_of(t));
        let Some(bits) = bits_type(size).filter(|_| align >= size) else {
            let s = self.cx.typed.types.display(t);
            self.unsupported(
                format!(
                    "atomic operations on '{s}' ({size} bytes, aligned to {align}) are not supported on the device: it needs a naturally aligned object of 1, 2, 4 or 8 bytes"
                ),
                span,
            );
            return None;
        };
        let cls = match ty::scalar(&self.cx.typed.types, t) {
            Ok(Some(c)) => c,
            _ => Scalar::Int(bits, false),
        };
        let ptr = self.scalar(p)?;
        Some((
            Obj {
                addr: Addr {
                    ptr,
                    space: AddrSpace::Generic,
                    align: size as u32,
                },
                bits,
            },
            cls,
        ))
    }

    /// An operand in the object's bits: a value argument (converted to the object's type
    /// by sema) or, for the generic forms, the bits `a` points to.
    fn atomic_operand(
        &mut self,
        a: &'a Expr,
        by_ptr: bool,
        obj: Obj,
        cls: Scalar,
    ) -> Option<Value> {
        if by_ptr {
            let p = self.value_ptr(a, obj)?;
            return Some(self.load_bits_from(p, obj.bits));
        }
        let v = self.scalar(a)?;
        let vt = self.b.value_type(v);
        // a pointer object's fetch operand is a byte count (`long`)
        if cls == Scalar::Ptr && vt == Type::I64 {
            return Some(v);
        }
        Some(self.bits_of(v, cls))
    }

    /// The memory order argument `a`: its constant value, else seq_cst.
    fn order(&mut self, a: &'a Expr) -> MemOrder {
        match ompcc_sema::fold(self.cx.typed, a) {
            Some(ConstValue::Int(i)) => MemOrder::from_value(i.value),
            _ => {
                self.effect(a);
                MemOrder::SeqCst
            }
        }
    }

    /// Where a `T *` argument other than the object points: for `&x` the object `x`
    /// itself (so the temporaries of `<stdatomic.h>`'s macros stay promotable to
    /// registers), else the pointer's target.
    fn value_ptr(&mut self, a: &'a Expr, obj: Obj) -> Option<Place> {
        let align = obj.addr.align;
        if let ExprKind::Unary(UnaryOp::AddrOf, x) = &strip_parens(a).kind {
            return match self.lvalue(x)? {
                Lv::Mem(addr, qt) => {
                    // accessed in its own type, so that a promotable slot is never punned
                    let cls = ty::scalar(&self.cx.typed.types, qt)
                        .ok()
                        .flatten()
                        .filter(|c| c.ty().bytes() == obj.bits.bytes());
                    Some(Place {
                        addr: Addr {
                            align: addr.align.min(align),
                            ..addr
                        },
                        cls,
                    })
                }
                _ => {
                    self.unsupported("expected the address of an object", a.span);
                    None
                }
            };
        }
        let ptr = self.scalar(a)?;
        Some(Place {
            addr: Addr {
                ptr,
                space: AddrSpace::Generic,
                align,
            },
            cls: None,
        })
    }

    fn load_bits_from(&mut self, p: Place, bits: Type) -> Value {
        let t = p.cls.map_or(bits, Scalar::ty);
        let a = p.addr;
        let flags = MemFlags::aligned(a.align.min(t.bytes()).max(1));
        let v = self.b.ins().load(t, a.space, flags, a.ptr);
        match p.cls {
            Some(c) => self.bits_of(v, c),
            None => v,
        }
    }

    fn store_bits_to(&mut self, p: Place, v: Value) {
        let v = match p.cls {
            Some(c) => self.value_of_bits(v, c),
            None => v,
        };
        let t = self.b.value_type(v);
        let a = p.addr;
        let flags = MemFlags::aligned(a.align.min(t.bytes()).max(1));
        self.b.ins().store(a.space, flags, v, a.ptr);
    }

    /// `v` (of class `cls`) as the integer of the same width.
    pub(crate) fn bits_of(&mut self, v: Value, cls: Scalar) -> Value {
        match cls {
            Scalar::Float(t) => {
                let it = if t == Type::F32 { Type::I32 } else { Type::I64 };
                self.b.ins().bitcast(it, v)
            }
            Scalar::Ptr => self.b.ins().ptrtoint(Type::I64, v),
            Scalar::Bool | Scalar::Int(..) => v,
        }
    }

    /// The value of class `cls` whose bits are `v`.
    pub(crate) fn value_of_bits(&mut self, v: Value, cls: Scalar) -> Value {
        match cls {
            Scalar::Float(t) => self.b.ins().bitcast(t, v),
            Scalar::Ptr => self.b.ins().inttoptr(Type::PTR, v),
            Scalar::Bool | Scalar::Int(..) => v,
        }
    }

    /// `old op v` in the object's bits (the value an `OP_fetch` returns).
    fn fetch_value(&mut self, op: FetchOp, old: Value, v: Value) -> Value {
        let ins = self.b.ins();
        match op {
            FetchOp::Add => ins.iadd(old, v),
            FetchOp::Sub => ins.isub(old, v),
            FetchOp::And => ins.and(old, v),
            FetchOp::Or => ins.or(old, v),
            FetchOp::Xor => ins.xor(old, v),
            FetchOp::Nand => {
                let a = ins.and(old, v);
                self.b.ins().not(a)
            }
        }
    }

    // ----- operations on an object's bits -----

    fn fence_if(&mut self, yes: bool) {
        if yes {
            self.b.ins().fence(Scope::Gpu);
        }
    }

    fn volatile_flags(obj: Obj) -> MemFlags {
        MemFlags {
            align: obj.addr.align.min(obj.bits.bytes()).max(1),
            volatile: true,
            readonly: false,
        }
    }

    /// An atomic load with order `o`.
    pub(crate) fn atomic_load_bits(&mut self, obj: Obj, o: MemOrder) -> Value {
        self.fence_if(o == MemOrder::SeqCst);
        let f = Self::volatile_flags(obj);
        let v = self.b.ins().load(obj.bits, obj.addr.space, f, obj.addr.ptr);
        self.fence_if(fence_after(o));
        v
    }

    /// An atomic store with order `o`: an exchange whose old value is unused. A plain
    /// `st` would do on the GPU, but a read-modify-write is never lost against another
    /// thread's compare-and-swap loop on the same word in any executor (the emulator
    /// serializes read-modify-writes per address, not plain stores against them), and 1-
    /// and 2-byte objects need the word loop anyway.
    pub(crate) fn atomic_store_bits(&mut self, obj: Obj, v: Value, o: MemOrder) {
        self.fence_if(fence_before(o));
        self.exchange(obj, v);
        self.fence_if(o == MemOrder::SeqCst);
    }

    /// Swaps `v` into the object; returns the old bits.
    fn exchange(&mut self, obj: Obj, v: Value) -> Value {
        if obj.bits.bytes() >= 4 {
            let a = obj.addr;
            self.b
                .ins()
                .atomic_rmw(AtomicRmwOp::Xchg, a.space, Scope::Gpu, a.ptr, v)
        } else {
            self.cas_loop(obj, |_, _| (v, None))
        }
    }

    /// An atomic exchange; returns the old bits.
    fn atomic_xchg_bits(&mut self, obj: Obj, v: Value, o: MemOrder) -> Value {
        self.fence_if(fence_before(o));
        let old = self.exchange(obj, v);
        self.fence_if(fence_after(o));
        old
    }

    /// A strong compare-and-swap; returns the old bits.
    fn atomic_cas_bits(&mut self, obj: Obj, expected: Value, desired: Value, o: MemOrder) -> Value {
        self.fence_if(fence_before(o));
        let old = if obj.bits.bytes() >= 4 {
            let a = obj.addr;
            self.b
                .ins()
                .atomic_cas(a.space, Scope::Gpu, a.ptr, expected, desired)
        } else {
            self.cas_loop(obj, |fl, old| {
                let eq = fl.b.ins().icmp(IntCC::Eq, old, expected);
                (desired, Some(eq))
            })
        };
        self.fence_if(fence_after(o));
        old
    }

    /// `old op v`, atomically; returns the old bits.
    fn atomic_fetch_bits(&mut self, obj: Obj, op: FetchOp, v: Value, o: MemOrder) -> Value {
        self.fence_if(fence_before(o));
        let native = match op {
            FetchOp::Add => Some(AtomicRmwOp::Add),
            FetchOp::Sub => Some(AtomicRmwOp::Sub),
            FetchOp::And => Some(AtomicRmwOp::And),
            FetchOp::Or => Some(AtomicRmwOp::Or),
            FetchOp::Xor => Some(AtomicRmwOp::Xor),
            FetchOp::Nand => None,
        };
        let old = match native {
            Some(rop) if obj.bits.bytes() >= 4 => {
                let a = obj.addr;
                self.b.ins().atomic_rmw(rop, a.space, Scope::Gpu, a.ptr, v)
            }
            _ => self.cas_loop(obj, |fl, old| (fl.fetch_value(op, old, v), None)),
        };
        self.fence_if(fence_after(o));
        old
    }

    /// A compare-and-swap loop: `f(old)` gives the new bits and, for a conditional update,
    /// an `i1` that must hold for the store to happen. Returns the old bits. Objects of 1
    /// or 2 bytes are updated inside their aligned 32-bit word.
    pub(crate) fn cas_loop(
        &mut self,
        obj: Obj,
        mut f: impl FnMut(&mut Self, Value) -> (Value, Option<Value>),
    ) -> Value {
        let bits = obj.bits;
        let a = obj.addr;
        // the word holding the object, the object's bit position in it, and its mask
        let (wp, shift, mask) = if bits.bytes() >= 4 {
            (a.ptr, None, None)
        } else {
            let pt = self.b.value_type(a.ptr);
            let pi = self.b.ins().ptrtoint(Type::I64, a.ptr);
            let three = self.b.ins().iconst(Type::I64, 3);
            let lo = self.b.ins().and(pi, three);
            let back = self.b.ins().neg(lo);
            let wp = self.b.ins().ptr_offset(a.ptr, back);
            debug_assert_eq!(self.b.value_type(wp), pt);
            let lo32 = self.b.ins().trunc(Type::I32, lo);
            let k3 = self.b.ins().iconst(Type::I32, 3);
            let sh = self.b.ins().shl(lo32, k3);
            let m = self.b.ins().iconst(Type::I32, (1i64 << bits.bits()) - 1);
            let m = self.b.ins().shl(m, sh);
            (wp, Some(sh), Some(m))
        };
        let wt = if bits.bytes() >= 4 { bits } else { Type::I32 };
        let flags = MemFlags {
            align: wt.bytes(),
            volatile: true,
            readonly: false,
        };
        let first = self.b.ins().load(wt, a.space, flags, wp);
        let head = self.b.create_block();
        let w = self.b.append_block_param(head, wt);
        let swap = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().jump(head, &[first]);
        self.b.switch_to_block(head);
        let old = match shift {
            Some(sh) => {
                let x = self.b.ins().lshr(w, sh);
                self.b.ins().trunc(bits, x)
            }
            None => w,
        };
        let (new, cond) = f(self, old);
        match cond {
            Some(c) => {
                self.b.ins().brif(c, swap, &[], done, &[]);
            }
            None => {
                self.b.ins().jump(swap, &[]);
            }
        }
        self.b.switch_to_block(swap);
        let nw = match (shift, mask) {
            (Some(sh), Some(m)) => {
                let keep = self.b.ins().not(m);
                let kept = self.b.ins().and(w, keep);
                let nz = self.b.ins().zext(Type::I32, new);
                let moved = self.b.ins().shl(nz, sh);
                self.b.ins().or(kept, moved)
            }
            _ => new,
        };
        let prev = self.b.ins().atomic_cas(a.space, Scope::Gpu, wp, w, nw);
        let same = self.b.ins().icmp(IntCC::Eq, prev, w);
        self.b.ins().brif(same, done, &[], head, &[prev]);
        self.b.switch_to_block(done);
        old
    }

    // ----- `_Atomic` objects -----

    /// The object of an lvalue of `_Atomic`-qualified scalar type, or `None` for other
    /// lvalues (and for thread-private objects, which need no atomicity).
    pub(crate) fn atomic_lvalue(&self, lv: &Lv) -> Option<(Obj, Scalar)> {
        let Lv::Mem(addr, qt) = *lv else { return None };
        let types = &self.cx.typed.types;
        let c = types.canon(qt);
        if !c.quals.contains(Quals::ATOMIC) || addr.space == AddrSpace::Local {
            return None;
        }
        let cls = ty::scalar(types, c).ok().flatten()?;
        let bits = bits_type(u64::from(cls.ty().bytes()))?;
        Some((
            Obj {
                addr: Addr {
                    align: addr.align.min(cls.ty().bytes()),
                    ..addr
                },
                bits,
            },
            cls,
        ))
    }

    /// Reads an `_Atomic` object (seq_cst); `None` when `lv` is not one.
    pub(crate) fn atomic_lvalue_load(&mut self, lv: &Lv) -> Option<Value> {
        let (obj, cls) = self.atomic_lvalue(lv)?;
        let v = self.atomic_load_bits(obj, MemOrder::SeqCst);
        Some(self.value_of_bits(v, cls))
    }

    /// Writes `v` (of the object's class) into an `_Atomic` object (seq_cst); `false` when
    /// `lv` is not one.
    pub(crate) fn atomic_lvalue_store(&mut self, lv: &Lv, v: Value) -> bool {
        let Some((obj, cls)) = self.atomic_lvalue(lv) else {
            return false;
        };
        let b = self.bits_of(v, cls);
        self.atomic_store_bits(obj, b, MemOrder::SeqCst);
        true
    }

    /// `x++`, `x--`, `++x`, `--x` on an `_Atomic` object: one seq_cst read-modify-write
    /// (C11 6.5.2.4p2). `None` when `x` is not such an object.
    pub(crate) fn atomic_incdec(
        &mut self,
        op: UnaryOp,
        x: &'a Expr,
        lv: &Lv,
        span: Span,
    ) -> Option<Option<Value>> {
        let (obj, cls) = self.atomic_lvalue(lv)?;
        let xi = self.info(x)?;
        let inc = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
        let post = matches!(op, UnaryOp::PostInc | UnaryOp::PostDec);
        if let Scalar::Int(t @ (Type::I32 | Type::I64), _) = cls {
            // one native read-modify-write
            let one = self.b.ins().iconst(t, 1);
            let fop = if inc { FetchOp::Add } else { FetchOp::Sub };
            let old = self.atomic_fetch_bits(obj, fop, one, MemOrder::SeqCst);
            return Some(Some(if post {
                old
            } else {
                self.fetch_value(fop, old, one)
            }));
        }
        let elem = self.cx.typed.types.pointee(xi.ty);
        let (old, new) = self.atomic_object_update(obj, cls, span, |fl, old| match cls {
            Scalar::Ptr => {
                let one = fl.b.ins().iconst(Type::I64, 1);
                fl.step_pointer(old, one, Scalar::LONG, elem?, !inc, span)
            }
            Scalar::Float(t) => {
                let one = fl.b.ins().fconst(t, 1.0);
                Some(if inc {
                    fl.b.ins().fadd(old, one)
                } else {
                    fl.b.ins().fsub(old, one)
                })
            }
            Scalar::Bool => Some(if inc {
                fl.b.ins().iconst(Type::I8, 1)
            } else {
                let one = fl.b.ins().iconst(Type::I8, 1);
                fl.b.ins().xor(old, one)
            }),
            Scalar::Int(t, _) => {
                let one = fl.b.ins().iconst(t, 1);
                Some(if inc {
                    fl.b.ins().iadd(old, one)
                } else {
                    fl.b.ins().isub(old, one)
                })
            }
        })?;
        Some(Some(if post { old } else { new }))
    }

    /// `x op= r` on an `_Atomic` object: `r` evaluated once, then one seq_cst
    /// read-modify-write (C11 6.5.16.2p3). `None` when `lv` is not such an object.
    pub(crate) fn atomic_compound(
        &mut self,
        bop: BinaryOp,
        lt: QualType,
        lv: &Lv,
        r: &'a Expr,
        span: Span,
    ) -> Option<Option<Value>> {
        let (obj, cls) = self.atomic_lvalue(lv)?;
        let rc = self.class_of_conv(r)?;
        let rv = self.scalar(r)?;
        let native = match bop {
            BinaryOp::Add => Some(FetchOp::Add),
            BinaryOp::Sub => Some(FetchOp::Sub),
            BinaryOp::BitAnd => Some(FetchOp::And),
            BinaryOp::BitOr => Some(FetchOp::Or),
            BinaryOp::BitXor => Some(FetchOp::Xor),
            _ => None,
        };
        if let (Some(fop), Scalar::Int(Type::I32 | Type::I64, _)) = (native, cls)
            && rc == cls
        {
            // computed in the object's own type: one native read-modify-write
            let old = self.atomic_fetch_bits(obj, fop, rv, MemOrder::SeqCst);
            return Some(Some(self.fetch_value(fop, old, rv)));
        }
        let elem = self.cx.typed.types.pointee(lt);
        let (_, new) = self.atomic_object_update(obj, cls, span, |fl, old| {
            if cls == Scalar::Ptr {
                return fl.step_pointer(old, rv, rc, elem?, bop == BinaryOp::Sub, span);
            }
            let cc = if matches!(bop, BinaryOp::Shl | BinaryOp::Shr) {
                ty::promote(cls)
            } else {
                rc
            };
            let a = fl.convert(old, cls, cc);
            let res = fl.arith(bop, cc, a, rc, rv, span)?;
            Some(fl.convert(res, cc, cls))
        })?;
        Some(Some(new))
    }

    /// `p + i` (or `p - i`) for a pointer value `p` to `elem`.
    fn step_pointer(
        &mut self,
        p: Value,
        i: Value,
        ic: Scalar,
        elem: QualType,
        sub: bool,
        span: Span,
    ) -> Option<Value> {
        let base = Addr {
            ptr: p,
            space: AddrSpace::Generic,
            align: 1,
        };
        Some(self.element_addr_value(base, i, ic, elem, sub, span)?.ptr)
    }

    /// A seq_cst read-modify-write of an `_Atomic` object computing the new value (in its
    /// class) from the old one; returns (old, new).
    fn atomic_object_update(
        &mut self,
        obj: Obj,
        cls: Scalar,
        span: Span,
        mut step: impl FnMut(&mut Self, Value) -> Option<Value>,
    ) -> Option<(Value, Value)> {
        self.b.ins().fence(Scope::Gpu);
        let mut out = None;
        let mut failed = false;
        self.cas_loop(obj, |fl, ob| {
            let old = fl.value_of_bits(ob, cls);
            let new = match step(fl, old) {
                Some(n) => n,
                None => {
                    failed = true;
                    old
                }
            };
            out = Some((old, new));
            (fl.bits_of(new, cls), None)
        });
        self.b.ins().fence(Scope::Gpu);
        if failed {
            self.unsupported("cannot compute the update of this atomic object", span);
            return None;
        }
        out
    }
}

/// The builtin a call's callee names, when it is an atomic builtin sema typed as one (an
/// undeclared name: a user function of the same name is an ordinary call).
pub(crate) fn callee_builtin(
    typed: &ompcc_sema::TypedUnit,
    tu: &ompcc_syntax::ast::TranslationUnit,
    f: &Expr,
) -> Option<AtomicBuiltin> {
    let f = strip_parens(f);
    let ExprKind::Ident(n) = &f.kind else {
        return None;
    };
    if typed.ident_symbols.contains_key(&f.id) {
        return None;
    }
    AtomicBuiltin::from_name(tu.symbols.resolve(*n))
}
