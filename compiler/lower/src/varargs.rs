//! The device varargs ABI: variadic calls, variadic definitions, `va_start` / `va_arg` /
//! `va_copy` / `va_end`.
//!
//! ABI (ompcc's own; PTX has no varargs): a variadic function takes one hidden trailing
//! generic `ptr` parameter, the address of a caller-owned buffer holding the variadic
//! arguments after the default argument promotions, in order, each at an offset aligned to
//! its size (struct, union and `_Complex` arguments: copied by value, aligned to their
//! alignment). The buffer's own alignment is the largest of those, so offsets and absolute
//! addresses agree. This is exactly the buffer CUDA's `vprintf(fmt, buf)` reads, so device
//! `printf` packs its arguments with the same helper ([`FnLower::pack_varargs`]). With no
//! variadic arguments the hidden pointer is null.
//!
//! `va_list` keeps its host type (`struct __va_list_tag[1]`, 24 bytes on x86-64), so
//! `sizeof(va_list)` and the layout of structs holding one are the same on both sides and a
//! `va_list` parameter is, as on the host, a pointer to the caller's object. On the device
//! only the object's first 8 bytes are used: a generic pointer, the cursor into the buffer.
//! `va_start` stores the hidden parameter there, `va_arg(ap, T)` aligns the cursor up, reads
//! a `T` and advances it by `sizeof(T)`, `va_copy` copies the cursor and `va_end` does
//! nothing. Calls through pointers to variadic functions use the same convention (the
//! signature of a variadic function type includes the hidden parameter everywhere:
//! [`call_signature`]).
//!
//! Invariant: the packing of a call and the reads of `va_arg` compute offsets with the same
//! rule ([`slot_align`]), from the promoted argument types.

use crate::ctx::Ctx;
use crate::expr::{Ev, Rv};
use crate::func::{Addr, FnLower};
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, Signature, Type, Value};
use ompcc_sema::types::QualType;
use ompcc_syntax::ast::Expr;

/// The IR signature of a function of C type `fty` and whether it returns through a hidden
/// result pointer: [`Ctx::signature`] plus, for a variadic function, the hidden trailing
/// pointer to the argument buffer.
pub(crate) fn call_signature(cx: &Ctx<'_>, fty: QualType) -> Result<(Signature, bool), String> {
    let (mut sig, sret) = cx.signature(fty)?;
    if is_variadic(cx, fty) {
        sig.params.push(Type::PTR);
    }
    Ok((sig, sret))
}

/// Whether `fty` is a variadic function type.
pub(crate) fn is_variadic(cx: &Ctx<'_>, fty: QualType) -> bool {
    cx.typed.types.fn_type(fty).is_some_and(|f| f.variadic)
}

/// One variadic argument, already promoted.
#[derive(Clone, Copy, Debug)]
pub(crate) enum VaItem {
    /// A scalar (`i32`, `i64`, `f64` or `ptr`).
    S(Value),
    /// A struct, union or complex value in memory, of this type.
    Agg(Addr, QualType),
}

/// The alignment of a slot of `bytes` bytes holding a scalar: its size.
fn slot_align(bytes: u32) -> u32 {
    bytes.max(1)
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Packs `items` into a fresh local buffer laid out by the varargs ABI and returns its
    /// generic address (null when there are no items).
    pub(crate) fn pack_varargs(&mut self, items: &[VaItem], span: Span) -> Option<Value> {
        if items.is_empty() {
            let z = self.b.ins().iconst(Type::I64, 0);
            return Some(self.b.ins().inttoptr(Type::PTR, z));
        }
        let mut offs = Vec::with_capacity(items.len());
        let mut at = 0u32;
        let mut max_align = 8u32;
        for it in items {
            let (size, align) = match *it {
                VaItem::S(v) => {
                    let n = self.b.value_type(v).bytes();
                    (n, slot_align(n))
                }
                VaItem::Agg(_, qt) => {
                    let Some(size) = self.cx.typed.types.size_of(qt) else {
                        self.unsupported("variadic argument of unknown size", span);
                        return None;
                    };
                    let Ok(size) = u32::try_from(size) else {
                        self.unsupported("variadic argument is too large for the device", span);
                        return None;
                    };
                    (size, self.align_of(qt))
                }
            };
            max_align = max_align.max(align);
            at = at.div_ceil(align) * align;
            offs.push(at);
            at += size;
        }
        let slot = self
            .b
            .create_stack_slot(at.div_ceil(max_align).max(1) * max_align, max_align);
        for (it, off) in items.iter().zip(offs) {
            let base = self.slot_addr(slot, max_align);
            let a = self.offset(base, off as i64);
            match *it {
                VaItem::S(v) => self.store_raw(a, v, false),
                VaItem::Agg(src, qt) => self.copy(a, src, qt, span),
            }
        }
        let base = self.slot_addr(slot, max_align);
        Some(self.generic_ptr(base))
    }

    /// The variadic arguments `rest` of a call (those after the named ones), promoted as
    /// sema recorded, packed into a buffer whose address is the call's hidden last argument.
    /// Aggregates are copied into the buffer after every argument is evaluated, which is one
    /// of the orders C allows.
    pub(crate) fn variadic_args(&mut self, rest: &'a [Expr], span: Span) -> Option<Value> {
        let mut items = Vec::with_capacity(rest.len());
        for a in rest {
            let ai = self.info(a)?;
            if ty::by_address(&self.cx.typed.types, ai.conv) {
                let src = self.agg_value(a)?;
                items.push(VaItem::Agg(src, ai.conv));
            } else {
                let cls = self.class_of_conv(a)?;
                let v = self.scalar(a)?;
                items.push(VaItem::S(self.promote_vararg(v, cls)));
            }
        }
        self.pack_varargs(&items, span)
    }

    /// The default argument promotions (`float` to `double`, narrow integers to `int`):
    /// sema records them as each argument's conversion, so this changes only values whose
    /// recorded type was not promoted.
    pub(crate) fn promote_vararg(&mut self, v: Value, cls: Scalar) -> Value {
        match cls {
            Scalar::Float(Type::F32) => self.b.ins().fpext(Type::F64, v),
            Scalar::Bool | Scalar::Int(..) if self.b.value_type(v).bits() < 32 => {
                self.resize(v, Type::I32, cls.is_signed())
            }
            _ => v,
        }
    }

    /// The `va_list` cursor slot that expression `ap` (a `va_list`, decayed to a pointer to
    /// the caller's object) designates.
    fn va_cursor(&mut self, ap: &'a Expr) -> Option<Addr> {
        let p = self.scalar(ap)?;
        Some(Addr {
            ptr: p,
            space: AddrSpace::Generic,
            align: 8,
        })
    }

    /// The current cursor of `va_list` expression `ap`, for `vprintf(fmt, ap)`: CUDA's
    /// `vprintf` reads the rest of the buffer from there, with its offsets counted from the
    /// cursor (exact after `va_start`, or when the arguments consumed end 8-byte aligned).
    pub(crate) fn va_list_cursor(&mut self, ap: &'a Expr) -> Option<Value> {
        let c = self.va_cursor(ap)?;
        Some(self.load_raw(c, Type::PTR, false))
    }

    /// `__builtin_va_start`, `__builtin_va_end`, `__builtin_va_copy`; `None`: not one of them.
    pub(crate) fn va_builtin(
        &mut self,
        name: &str,
        args: &'a [Expr],
        span: Span,
    ) -> Option<Option<Rv>> {
        if !matches!(
            name,
            "__builtin_va_start" | "__builtin_va_end" | "__builtin_va_copy"
        ) {
            return None;
        }
        Some((|| match (name, args) {
            ("__builtin_va_start", [ap, ..]) => {
                let Some(area) = self.va_area else {
                    self.unsupported("'va_start' used in a function with fixed arguments", span);
                    return None;
                };
                // the second argument only names the last parameter
                let c = self.va_cursor(ap)?;
                self.store_raw(c, area, false);
                Some(Rv::Void)
            }
            ("__builtin_va_end", [ap]) => {
                // evaluated for its side effects only, as the host does
                self.va_cursor(ap)?;
                Some(Rv::Void)
            }
            ("__builtin_va_copy", [dst, src]) => {
                let d = self.va_cursor(dst)?;
                let s = self.va_cursor(src)?;
                let cur = self.load_raw(s, Type::PTR, false);
                self.store_raw(d, cur, false);
                Some(Rv::Void)
            }
            _ => {
                self.unsupported(format!("'{name}' with unexpected arguments"), span);
                None
            }
        })())
    }

    /// `__builtin_va_arg(ap, T)`: align the cursor up, read a `T` where it points, advance
    /// it past the `T`. Types that no argument has after the default promotions (`float`,
    /// integers narrower than `int`) trap when reached, as with gcc (C: undefined).
    pub(crate) fn va_arg(&mut self, ap: &'a Expr, t: QualType, span: Span) -> Option<Ev> {
        let c = self.va_cursor(ap)?;
        let types = &self.cx.typed.types;
        let agg = ty::by_address(types, t);
        let (size, align, cls) = if agg {
            let Some(size) = types.size_of(t) else {
                self.unsupported("'va_arg' of a type with no fixed size", span);
                return None;
            };
            (size as i64, self.align_of(t), None)
        } else {
            let cls = self.class(t, span)?;
            let n = cls.ty().bytes();
            (n as i64, slot_align(n), Some(cls))
        };
        let cur = self.load_raw(c, Type::PTR, false);
        let cur = if align > 1 {
            // cur + ((-(uintptr)cur) & (align - 1)), keeping the pointer's provenance
            let i = self.b.ins().ptrtoint(Type::I64, cur);
            let z = self.b.ins().iconst(Type::I64, 0);
            let neg = self.b.ins().isub(z, i);
            let m = self.b.ins().iconst(Type::I64, align as i64 - 1);
            let pad = self.b.ins().and(neg, m);
            self.b.ins().ptr_offset(cur, pad)
        } else {
            cur
        };
        let n = self.b.ins().iconst(Type::I64, size);
        let next = self.b.ins().ptr_offset(cur, n);
        self.store_raw(c, next, false);
        let at = Addr {
            ptr: cur,
            space: AddrSpace::Generic,
            align,
        };
        let Some(cls) = cls else {
            return Some(Ev::R(Rv::Agg(at)));
        };
        let promoted_away = match cls {
            Scalar::Float(Type::F32) | Scalar::Bool => true,
            Scalar::Int(ty, _) => ty.bits() < 32,
            _ => false,
        };
        if promoted_away {
            // no argument has this type after promotion: the call is undefined
            self.b.ins().trap();
            self.ensure_open();
            return Some(Ev::R(Rv::S(self.zero(cls))));
        }
        let v = self.load_raw(at, cls.ty(), false);
        Some(Ev::R(Rv::S(v)))
    }
}
