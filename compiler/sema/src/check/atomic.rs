//! Typing of the GNU atomic builtins ([`AtomicBuiltin`]), as gcc types them: generic over
//! the object's type `T` (the pointee of the first argument, qualifiers and `_Atomic`
//! dropped), value arguments converted to `T` as if by assignment, `bool` results for the
//! compare-exchange, test-and-set and lock-free queries.
//!
//! Invariants: every argument is checked (and given its conversion) before the result is
//! returned; a bad argument is an `E0433` naming the argument and the builtin, never a
//! panic; `__atomic_always_lock_free` with a constant size (and `__atomic_is_lock_free`,
//! which gcc folds the same way) records its value in `consts`.

use super::Checker;
use super::ExprInfo;
use super::expr::rv;
use super::fold::fold;
use crate::atomic::{self, AtomicBuiltin, MemOrder, Param};
use crate::consteval::{ConstInt, ConstValue};
use crate::types::{IntKind, QualType, Quals, TypeKind};
use ompcc_syntax::ast::{self, Expr};

impl Checker<'_> {
    /// Types a call of atomic builtin `b` (named `name`).
    pub(super) fn atomic_builtin_call(
        &mut self,
        e: &Expr,
        name: ast::Symbol,
        b: AtomicBuiltin,
        args: &[Expr],
    ) -> Option<ExprInfo> {
        let n = self.name(name);
        let params = b.params();
        if args.len() < params.len() || (!b.variadic() && args.len() > params.len()) {
            let few = if args.len() < params.len() {
                "few"
            } else {
                "many"
            };
            self.error(
                "E0431",
                format!("too {few} arguments to function '{n}'"),
                e.span,
            );
            // still type the arguments, so their own errors show
            for a in args {
                self.rvalue(a);
            }
            return None;
        }
        let tys: Vec<Option<QualType>> = args.iter().map(|a| self.rvalue(a)).collect();
        // the object type first: the other arguments are checked against it
        let mut obj: Option<QualType> = None;
        if params.first() == Some(&Param::Object) {
            obj = Some(self.atomic_object(b, n, &args[0], tys[0]?)?);
        }
        let mut ok = true;
        let mut order_args = Vec::new();
        for (i, (p, a)) in params
            .iter()
            .zip(args)
            .enumerate()
            .skip(usize::from(obj.is_some()))
        {
            let Some(t) = tys[i] else {
                ok = false;
                continue;
            };
            let k = i + 1;
            let good = match p {
                Param::Object => true,
                Param::Value => self.atomic_value(b, n, k, a, t, obj),
                Param::ValuePtr => self.atomic_value_ptr(n, k, a, t, obj),
                Param::Order => {
                    order_args.push(a);
                    self.atomic_int_arg(n, k, a, t)
                }
                Param::Weak | Param::Size => {
                    let good = self.out.types.is_scalar(t);
                    if !good {
                        self.atomic_arg_error(n, k, a, t, "a scalar");
                    }
                    good
                }
                Param::AnyPtr => {
                    let good = self.out.types.is_pointer(t) || self.is_null_constant(a);
                    if !good {
                        self.atomic_arg_error(n, k, a, t, "a pointer");
                    }
                    good
                }
            };
            ok &= good;
        }
        if !ok || tys.iter().any(Option::is_none) {
            return None;
        }
        self.check_orders(b, n, &order_args);
        let types = &mut self.out.types;
        let ret = match b {
            AtomicBuiltin::Load { generic: false }
            | AtomicBuiltin::Exchange { generic: false }
            | AtomicBuiltin::Fetch { .. }
            | AtomicBuiltin::SyncCas { value: true }
            | AtomicBuiltin::SyncLockTestAndSet => obj.unwrap_or_else(|| types.void()),
            AtomicBuiltin::CompareExchange { .. }
            | AtomicBuiltin::TestAndSet
            | AtomicBuiltin::SyncCas { value: false } => types.bool_(),
            AtomicBuiltin::AlwaysLockFree | AtomicBuiltin::IsLockFree => {
                let size = fold(&self.out, &args[0]).and_then(|c| match c {
                    ConstValue::Int(i) => u64::try_from(i.value).ok(),
                    _ => None,
                });
                match size {
                    Some(s) => {
                        let v = i128::from(atomic::always_lock_free(s));
                        self.out
                            .consts
                            .insert(e.id, ConstValue::Int(ConstInt::new(v, IntKind::Int)));
                    }
                    None if b == AtomicBuiltin::AlwaysLockFree => {
                        self.error(
                            "E0433",
                            format!("non-constant argument 1 to '{n}'"),
                            args[0].span,
                        );
                        return None;
                    }
                    None => {}
                }
                self.out.types.bool_()
            }
            _ => types.void(),
        };
        Some(rv(ret))
    }

    /// `T` from the first argument (of type `p`): the pointee, unqualified.
    fn atomic_object(
        &mut self,
        b: AtomicBuiltin,
        n: &str,
        a: &Expr,
        p: QualType,
    ) -> Option<QualType> {
        let types = &self.out.types;
        let Some(pointee) = types.pointee(p) else {
            self.atomic_arg_error(n, 1, a, p, "a pointer");
            return None;
        };
        let pointee = types.canon(pointee);
        let t = pointee.unqual();
        let read_only = matches!(b, AtomicBuiltin::Load { .. });
        if pointee.quals.contains(Quals::CONST) && !read_only {
            let s = self.ty_str(p);
            self.error(
                "E0433",
                format!("argument 1 of '{n}' must be a pointer to a non-const object (type '{s}')"),
                a.span,
            );
            return None;
        }
        let fetch = matches!(b, AtomicBuiltin::Fetch { .. });
        let size = types.size_of(t);
        let fits = if b.any_type() {
            size.is_some_and(|s| s > 0) && !types.is_function(t) && !types.is_void(t)
        } else {
            let bool_ = matches!(types.ckind(t), TypeKind::Bool);
            (types.is_integer(t) || types.is_pointer(t))
                && !(fetch && bool_)
                && matches!(size, Some(1 | 2 | 4 | 8 | 16))
        };
        if !fits {
            let s = self.ty_str(p);
            self.error(
                "E0433",
                format!("operand type '{s}' is incompatible with argument 1 of '{n}'"),
                a.span,
            );
            return None;
        }
        Some(t)
    }

    /// A value argument (number `k`, type `t`): converted to `T`, or for a pointer `T` in
    /// the fetch builtins an integer byte count (`long`).
    fn atomic_value(
        &mut self,
        b: AtomicBuiltin,
        n: &str,
        k: usize,
        a: &Expr,
        t: QualType,
        obj: Option<QualType>,
    ) -> bool {
        let Some(to) = obj else { return false };
        let fetch = matches!(b, AtomicBuiltin::Fetch { .. });
        if fetch && self.out.types.is_pointer(to) {
            if !self.out.types.is_integer(t) {
                self.atomic_arg_error(n, k, a, t, "an integer");
                return false;
            }
            let long = self.out.types.int(IntKind::Long);
            self.set_conv(a.id, long);
            return true;
        }
        self.assign_convert(a, t, to, &format!("passing argument {k} of '{n}'"))
            .is_some()
    }

    /// A `T *` argument other than the object: a pointer to an object of `T`'s size.
    fn atomic_value_ptr(
        &mut self,
        n: &str,
        k: usize,
        a: &Expr,
        t: QualType,
        obj: Option<QualType>,
    ) -> bool {
        let Some(obj) = obj else { return false };
        let types = &self.out.types;
        let Some(pt) = types.pointee(t) else {
            self.atomic_arg_error(n, k, a, t, "a pointer");
            return false;
        };
        if types.is_void(pt) || types.size_of(pt) != types.size_of(obj) {
            self.error(
                "E0433",
                format!("size mismatch in argument {k} of '{n}'"),
                a.span,
            );
            return false;
        }
        true
    }

    fn atomic_int_arg(&mut self, n: &str, k: usize, a: &Expr, t: QualType) -> bool {
        let good = self.out.types.is_integer(t);
        if !good {
            self.atomic_arg_error(n, k, a, t, "an integer");
        }
        good
    }

    fn atomic_arg_error(&mut self, n: &str, k: usize, a: &Expr, t: QualType, want: &str) {
        let s = self.ty_str(t);
        self.error(
            "E0433",
            format!("argument {k} of '{n}' must be {want} (type '{s}')"),
            a.span,
        );
    }

    /// Warns about constant memory orders C11 forbids for the operation (gcc's
    /// `-Winvalid-memory-model`); the code treats them as seq_cst, as gcc does.
    fn check_orders(&mut self, b: AtomicBuiltin, n: &str, orders: &[&Expr]) {
        let consts: Vec<Option<MemOrder>> = orders
            .iter()
            .map(|a| match fold(&self.out, a) {
                Some(ConstValue::Int(i)) => Some(MemOrder::from_value(i.value)),
                _ => None,
            })
            .collect();
        for (i, (a, o)) in orders.iter().zip(&consts).enumerate() {
            let Some(o) = *o else { continue };
            let bad = match b {
                AtomicBuiltin::Load { .. } => !o.valid_for_load(),
                AtomicBuiltin::Store { .. } | AtomicBuiltin::Clear => !o.valid_for_store(),
                // the failure order of compare_exchange: a load, no stronger than success
                AtomicBuiltin::CompareExchange { .. } if i == 1 => {
                    !o.valid_for_load() || consts[0].is_some_and(|s| o > s)
                }
                _ => false,
            };
            if bad {
                self.warn("W0411", format!("invalid memory model for '{n}'"), a.span);
            }
        }
    }
}
