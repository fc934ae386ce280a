//! Lowering of C11 `_Complex float` / `_Complex double` (`_Complex long double` is reported
//! like `long double`).
//!
//! Representation: a complex object is two adjacent elements `{re, im}` (C11 6.2.5p13); a
//! complex value is handled through its address like a struct ([`Rv::Agg`]), so parameters,
//! results (hidden result pointer), assignment, `?:`, members and initializers take the
//! record paths (`ty::by_address`). Operations load the two parts, compute on scalars and
//! store the result in a fresh stack slot, which `sroa`/`mem2reg` split into registers.
//!
//! Semantics follow gcc's defaults (no `-fcx-limited-range`): a real operand stays real
//! (`(a+bi)*r` is `(a*r, b*r)`, `r-(c+di)` is `(r-c, -d)`); complex `*` is the textbook
//! formula, and when both parts come out NaN the device library's `__mul[sd]c3`
//! (libgcc's `__mul[sd]c3` algorithm, Annex G infinity recovery) recomputes the product;
//! complex `/` by a complex number always calls `__div[sd]c3` (libgcc's algorithm);
//! `==`/`!=` compare both parts. `__real__`/`__imag__` of a complex lvalue are lvalues.
//! Volatile complex objects are accessed part by part.

use crate::expr::{Ev, Lv, Rv};
use crate::func::{Addr, FnLower};
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{FloatCC, Signature, Type, Value};
use ompcc_sema::ExprInfo;
use ompcc_sema::types::QualType;
use ompcc_syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};

/// An operand of complex arithmetic, its parts already in the operation's element type.
#[derive(Clone, Copy, Debug)]
enum Cv {
    /// A real operand (kept real, as gcc does).
    Real(Value),
    /// A complex operand.
    Cplx(Value, Value),
}

/// The device library routines of complex `*` and `/` for element type `t`.
fn helper(t: Type, op: BinaryOp) -> &'static str {
    match (t == Type::F32, op) {
        (true, BinaryOp::Mul) => "__mulsc3",
        (false, BinaryOp::Mul) => "__muldc3",
        (true, _) => "__divsc3",
        (false, _) => "__divdc3",
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Whether `qt` is a complex type.
    pub fn is_complex(&self, qt: QualType) -> bool {
        self.cx.typed.types.is_complex(qt)
    }

    /// The element type of complex `qt` (`f32`/`f64`), reporting `_Complex long double`.
    fn complex_elem(&mut self, qt: QualType, span: Span) -> Option<Type> {
        match ty::complex_elem(&self.cx.typed.types, qt) {
            Ok(Some(t)) => Some(t),
            Ok(None) => {
                self.unsupported("expected a complex value", span);
                None
            }
            Err(u) => {
                self.unsupported(
                    format!(
                        "type '_Complex {}' is not supported on the device",
                        u.name()
                    ),
                    span,
                );
                None
            }
        }
    }

    /// The real and imaginary parts of the complex object at `a`.
    fn complex_parts(&mut self, a: Addr, t: Type) -> (Value, Value) {
        let re = self.load_raw(a, t, false);
        let ia = self.offset(a, t.bytes() as i64);
        let im = self.load_raw(ia, t, false);
        (re, im)
    }

    /// Stores `re`, `im` into the complex object at `a`.
    fn complex_store(&mut self, a: Addr, re: Value, im: Value) {
        let t = self.b.value_type(re);
        self.store_raw(a, re, false);
        let ia = self.offset(a, t.bytes() as i64);
        self.store_raw(ia, im, false);
    }

    /// A fresh stack slot for a complex value of element type `t`.
    fn complex_slot(&mut self, t: Type) -> (ompcc_ir::StackSlot, u32) {
        let align = t.bytes();
        (self.b.create_stack_slot(2 * align, align), align)
    }

    /// A fresh temporary holding `re + im*i`.
    fn complex_temp(&mut self, re: Value, im: Value) -> Addr {
        let t = self.b.value_type(re);
        let (slot, align) = self.complex_slot(t);
        let a = self.slot_addr(slot, align);
        self.complex_store(a, re, im);
        self.slot_addr(slot, align)
    }

    /// Converts `v` (an rvalue of type `from`) to type `to` where either is complex
    /// (C11 6.3.1.7): real -> complex gets a +0 imaginary part, complex -> real drops it,
    /// complex -> `_Bool` tests both parts.
    pub fn complex_convert(
        &mut self,
        v: Rv,
        from: QualType,
        to: QualType,
        span: Span,
    ) -> Option<Rv> {
        if self.cx.typed.types.is_void(to) {
            return Some(Rv::Void);
        }
        match (self.is_complex(from), self.is_complex(to), v) {
            (true, true, Rv::Agg(a)) => {
                let ft = self.complex_elem(from, span)?;
                let tt = self.complex_elem(to, span)?;
                if ft == tt {
                    return Some(Rv::Agg(a));
                }
                let (re, im) = self.complex_parts(a, ft);
                let re = self.convert(re, Scalar::Float(ft), Scalar::Float(tt));
                let im = self.convert(im, Scalar::Float(ft), Scalar::Float(tt));
                Some(Rv::Agg(self.complex_temp(re, im)))
            }
            (true, false, Rv::Agg(a)) => {
                let ft = self.complex_elem(from, span)?;
                let to_cls = self.class(to, span)?;
                let (re, im) = self.complex_parts(a, ft);
                if to_cls == Scalar::Bool {
                    let z = self.b.ins().fconst(ft, 0.0);
                    let r = self.b.ins().fcmp(FloatCC::Une, re, z);
                    let i = self.b.ins().fcmp(FloatCC::Une, im, z);
                    let nz = self.b.ins().or(r, i);
                    return Some(Rv::S(self.b.ins().zext(Type::I8, nz)));
                }
                Some(Rv::S(self.convert(re, Scalar::Float(ft), to_cls)))
            }
            (false, true, Rv::S(x)) => {
                let tt = self.complex_elem(to, span)?;
                let from_cls = self.class(from, span)?;
                let re = self.convert(x, from_cls, Scalar::Float(tt));
                let im = self.b.ins().fconst(tt, 0.0);
                Some(Rv::Agg(self.complex_temp(re, im)))
            }
            _ => {
                self.unsupported("invalid conversion of a complex value", span);
                None
            }
        }
    }

    /// `rvalue` of an expression whose type or converted type is complex.
    pub fn complex_rvalue(&mut self, e: &'a Expr, info: ExprInfo) -> Option<Rv> {
        let v = if self.is_complex(info.ty) {
            Rv::Agg(self.complex_addr(e)?)
        } else {
            self.rvalue_to(e, info, info.ty)?
        };
        self.complex_convert(v, info.ty, info.conv, e.span)
    }

    /// The address of the complex object or value `e` designates (in its own type).
    fn complex_addr(&mut self, e: &'a Expr) -> Option<Addr> {
        match self.eval(e)? {
            Ev::L(Lv::Mem(a, _)) | Ev::R(Rv::Agg(a)) => Some(a),
            _ => {
                self.unsupported("expected a complex value", e.span);
                None
            }
        }
    }

    /// The address of the complex value of `e` (converted as sema recorded).
    fn complex_value(&mut self, e: &'a Expr) -> Option<(Addr, QualType)> {
        let info = self.info(e)?;
        match self.rvalue(e)? {
            Rv::Agg(a) if self.is_complex(info.conv) => Some((a, info.conv)),
            _ => {
                self.unsupported("expected a complex value", e.span);
                None
            }
        }
    }

    /// Operand `e` of a complex operation done in element type `t`: a real operand is
    /// evaluated in its own type and stays real.
    fn complex_operand(&mut self, e: &'a Expr, t: Type) -> Option<Cv> {
        let info = self.info(e)?;
        if self.is_complex(info.ty) {
            let a = self.complex_addr(e)?;
            let ft = self.complex_elem(info.ty, e.span)?;
            let (re, im) = self.complex_parts(a, ft);
            let re = self.convert(re, Scalar::Float(ft), Scalar::Float(t));
            let im = self.convert(im, Scalar::Float(ft), Scalar::Float(t));
            Some(Cv::Cplx(re, im))
        } else {
            let cls = self.class(info.ty, e.span)?;
            let v = match self.rvalue_to(e, info, info.ty)? {
                Rv::S(v) => v,
                _ => {
                    self.unsupported("expected an arithmetic value", e.span);
                    return None;
                }
            };
            Some(Cv::Real(self.convert(v, cls, Scalar::Float(t))))
        }
    }

    /// The element type of the complex operation of `l op r` (the wider operand kind).
    fn common_elem(&mut self, l: &Expr, r: &Expr) -> Option<Type> {
        let mut t = Type::F32;
        for e in [l, r] {
            let info = self.info(e)?;
            let types = &self.cx.typed.types;
            let et = if types.is_complex(info.conv) {
                self.complex_elem(info.conv, e.span)?
            } else if types.is_floating(info.conv) {
                self.class(info.conv, e.span)?.ty()
            } else {
                // integers convert to the other operand's complex type
                continue;
            };
            if et.bits() > t.bits() {
                t = et;
            }
        }
        Some(t)
    }

    /// `a op b` on complex/real operands in element type `t`; the result parts.
    fn complex_arith(
        &mut self,
        op: BinaryOp,
        a: Cv,
        b: Cv,
        t: Type,
        span: Span,
    ) -> Option<(Value, Value)> {
        use Cv::*;
        let zero = |s: &mut Self| s.b.ins().fconst(t, 0.0);
        Some(match (op, a, b) {
            (BinaryOp::Add, Cplx(x, y), Cplx(u, v)) => {
                (self.b.ins().fadd(x, u), self.b.ins().fadd(y, v))
            }
            (BinaryOp::Add, Cplx(x, y), Real(u)) => (self.b.ins().fadd(x, u), y),
            (BinaryOp::Add, Real(x), Cplx(u, v)) => (self.b.ins().fadd(x, u), v),
            (BinaryOp::Sub, Cplx(x, y), Cplx(u, v)) => {
                (self.b.ins().fsub(x, u), self.b.ins().fsub(y, v))
            }
            (BinaryOp::Sub, Cplx(x, y), Real(u)) => (self.b.ins().fsub(x, u), y),
            (BinaryOp::Sub, Real(x), Cplx(u, v)) => (self.b.ins().fsub(x, u), self.b.ins().fneg(v)),
            (BinaryOp::Mul, Cplx(x, y), Real(u)) => {
                (self.b.ins().fmul(x, u), self.b.ins().fmul(y, u))
            }
            (BinaryOp::Mul, Real(x), Cplx(u, v)) => {
                (self.b.ins().fmul(x, u), self.b.ins().fmul(x, v))
            }
            (BinaryOp::Mul, Cplx(x, y), Cplx(u, v)) => self.complex_mul(x, y, u, v, span)?,
            (BinaryOp::Div, Cplx(x, y), Real(u)) => {
                (self.b.ins().fdiv(x, u), self.b.ins().fdiv(y, u))
            }
            (BinaryOp::Div, Cplx(x, y), Cplx(u, v)) => {
                self.complex_call(helper(t, op), [x, y, u, v], span)?
            }
            (BinaryOp::Div, Real(x), Cplx(u, v)) => {
                let y = zero(self);
                self.complex_call(helper(t, op), [x, y, u, v], span)?
            }
            (_, Real(x), Real(u)) => {
                // `real op real` with a complex result type (a compound assignment).
                let r = self.arith_float(op, x, u, span)?;
                (r, zero(self))
            }
            _ => {
                self.unsupported("invalid operation on complex values", span);
                return None;
            }
        })
    }

    fn arith_float(&mut self, op: BinaryOp, x: Value, u: Value, span: Span) -> Option<Value> {
        let ins = self.b.ins();
        Some(match op {
            BinaryOp::Add => ins.fadd(x, u),
            BinaryOp::Sub => ins.fsub(x, u),
            BinaryOp::Mul => ins.fmul(x, u),
            BinaryOp::Div => ins.fdiv(x, u),
            _ => {
                self.unsupported("invalid operation on complex values", span);
                return None;
            }
        })
    }

    /// `(x+yi)*(u+vi)`: the textbook formula; when both parts are NaN the library routine
    /// recomputes it with infinity recovery (gcc's inline code and `__muldc3`).
    fn complex_mul(
        &mut self,
        x: Value,
        y: Value,
        u: Value,
        v: Value,
        span: Span,
    ) -> Option<(Value, Value)> {
        let t = self.b.value_type(x);
        let xu = self.b.ins().fmul(x, u);
        let yv = self.b.ins().fmul(y, v);
        let xv = self.b.ins().fmul(x, v);
        let yu = self.b.ins().fmul(y, u);
        let re = self.b.ins().fsub(xu, yv);
        let im = self.b.ins().fadd(xv, yu);
        let check_im = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        let pr = self.b.append_block_param(join, t);
        let pi = self.b.append_block_param(join, t);
        let nan_re = self.b.ins().fcmp(FloatCC::Uno, re, re);
        self.b.ins().brif(nan_re, check_im, &[], join, &[re, im]);
        self.b.switch_to_block(check_im);
        let nan_im = self.b.ins().fcmp(FloatCC::Uno, im, im);
        self.b.ins().brif(nan_im, slow, &[], join, &[re, im]);
        self.b.switch_to_block(slow);
        let (sr, si) = self.complex_call(helper(t, BinaryOp::Mul), [x, y, u, v], span)?;
        self.b.ins().jump(join, &[sr, si]);
        self.b.switch_to_block(join);
        Some((pr, pi))
    }

    /// Calls device library routine `name(a, b, c, d)` returning a complex
    /// (through a hidden result pointer, as every complex result is).
    fn complex_call(&mut self, name: &str, args: [Value; 4], span: Span) -> Option<(Value, Value)> {
        let t = self.b.value_type(args[0]);
        let sig = Signature {
            params: vec![Type::PTR, t, t, t, t],
            returns: vec![],
        };
        if let Err(m) = self.cx.declare_external(name, &sig) {
            self.unsupported(m, span);
            return None;
        }
        let (slot, align) = self.complex_slot(t);
        let res = self.slot_addr(slot, align);
        let p = self.generic_ptr(res);
        let fr = self.b.import_function(name, sig);
        self.b
            .ins()
            .call(fr, &[p, args[0], args[1], args[2], args[3]]);
        let res = self.slot_addr(slot, align);
        Some(self.complex_parts(res, t))
    }

    /// `l op r` for `+ - * /` with a complex result; `None` when the expression is not
    /// complex arithmetic.
    pub fn complex_binary(
        &mut self,
        op: BinaryOp,
        l: &'a Expr,
        r: &'a Expr,
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Rv>> {
        if !self.is_complex(info.ty) {
            return None;
        }
        Some(self.complex_binary_inner(op, l, r, info.ty, span))
    }

    fn complex_binary_inner(
        &mut self,
        op: BinaryOp,
        l: &'a Expr,
        r: &'a Expr,
        rqt: QualType,
        span: Span,
    ) -> Option<Rv> {
        let t = self.complex_elem(rqt, span)?;
        let a = self.complex_operand(l, t)?;
        let b = self.complex_operand(r, t)?;
        let (re, im) = self.complex_arith(op, a, b, t, span)?;
        Some(Rv::Agg(self.complex_temp(re, im)))
    }

    /// `l == r` / `l != r` as an `i1` when either operand is complex; `None` otherwise.
    pub fn complex_compare(
        &mut self,
        op: BinaryOp,
        l: &'a Expr,
        r: &'a Expr,
    ) -> Option<Option<Value>> {
        let li = self.cx.typed.expr(l.id).copied()?;
        let ri = self.cx.typed.expr(r.id).copied()?;
        if !self.is_complex(li.conv) && !self.is_complex(ri.conv) {
            return None;
        }
        Some(self.complex_compare_inner(op, l, r))
    }

    fn complex_compare_inner(&mut self, op: BinaryOp, l: &'a Expr, r: &'a Expr) -> Option<Value> {
        let t = self.common_elem(l, r)?;
        let parts = |s: &mut Self, c: Cv| match c {
            Cv::Cplx(x, y) => (x, y),
            Cv::Real(x) => (x, s.b.ins().fconst(t, 0.0)),
        };
        let a = self.complex_operand(l, t)?;
        let b = self.complex_operand(r, t)?;
        let (x, y) = parts(self, a);
        let (u, v) = parts(self, b);
        Some(if op == BinaryOp::Eq {
            let c1 = self.b.ins().fcmp(FloatCC::Oeq, x, u);
            let c2 = self.b.ins().fcmp(FloatCC::Oeq, y, v);
            self.b.ins().and(c1, c2)
        } else {
            let c1 = self.b.ins().fcmp(FloatCC::Une, x, u);
            let c2 = self.b.ins().fcmp(FloatCC::Une, y, v);
            self.b.ins().or(c1, c2)
        })
    }

    /// A complex condition (`if (z)`, `!z`) as an `i1`: either part nonzero.
    pub fn complex_nonzero(&mut self, c: &'a Expr) -> Option<Value> {
        let (a, qt) = self.complex_value(c)?;
        let t = self.complex_elem(qt, c.span)?;
        let (re, im) = self.complex_parts(a, t);
        let z = self.b.ins().fconst(t, 0.0);
        let r = self.b.ins().fcmp(FloatCC::Une, re, z);
        let i = self.b.ins().fcmp(FloatCC::Une, im, z);
        Some(self.b.ins().or(r, i))
    }

    /// Unary operators on complex operands and `__real__`/`__imag__`; `None` when `op x`
    /// is not one of them.
    pub fn complex_unary(
        &mut self,
        op: UnaryOp,
        x: &'a Expr,
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Ev>> {
        match op {
            UnaryOp::Real | UnaryOp::Imag => Some(self.real_imag(op == UnaryOp::Imag, x, info)),
            UnaryOp::Minus | UnaryOp::Plus | UnaryOp::BitNot if self.is_complex(info.ty) => {
                Some(self.complex_negate(op, x, span))
            }
            UnaryOp::Not
                if self
                    .cx
                    .typed
                    .expr(x.id)
                    .is_some_and(|i| self.is_complex(i.conv)) =>
            {
                Some((|| {
                    let nz = self.complex_nonzero(x)?;
                    let one = self.b.ins().iconst(Type::I1, 1);
                    let z = self.b.ins().xor(nz, one);
                    Some(Ev::R(Rv::S(self.b.ins().zext(Type::I32, z))))
                })())
            }
            _ => None,
        }
    }

    fn complex_negate(&mut self, op: UnaryOp, x: &'a Expr, span: Span) -> Option<Ev> {
        let (a, qt) = self.complex_value(x)?;
        let t = self.complex_elem(qt, span)?;
        let (re, im) = self.complex_parts(a, t);
        let (re, im) = match op {
            UnaryOp::Minus => (self.b.ins().fneg(re), self.b.ins().fneg(im)),
            // GNU `~z` is the conjugate.
            UnaryOp::BitNot => (re, self.b.ins().fneg(im)),
            _ => (re, im),
        };
        Some(Ev::R(Rv::Agg(self.complex_temp(re, im))))
    }

    /// `__real__ x` / `__imag__ x`: a part of a complex lvalue is an lvalue; of a complex
    /// rvalue, a value; of a real `x`, `x` itself or 0.
    fn real_imag(&mut self, imag: bool, x: &'a Expr, info: ExprInfo) -> Option<Ev> {
        let xi = self.info(x)?;
        if !self.is_complex(xi.ty) {
            let cls = self.class(info.ty, x.span)?;
            let v = self.rvalue_to(x, xi, xi.ty)?;
            let Rv::S(v) = v else {
                self.unsupported("expected an arithmetic value", x.span);
                return None;
            };
            if imag {
                // `x` is still evaluated for its side effects.
                return Some(Ev::R(Rv::S(self.zero(cls))));
            }
            return Some(Ev::R(Rv::S(v)));
        }
        let t = self.complex_elem(xi.ty, x.span)?;
        let a = self.complex_addr(x)?;
        let a = if imag {
            self.offset(a, t.bytes() as i64)
        } else {
            a
        };
        Some(Ev::L(Lv::Mem(a, info.ty)))
    }

    /// An imaginary constant (`2.0i`, `1.0iF`): `0 + value*i`.
    pub fn imaginary_literal(&mut self, e: &Expr, info: ExprInfo) -> Option<Ev> {
        let value = match &e.kind {
            ExprKind::Float { value, .. } => *value,
            ExprKind::Int { value, .. } => *value as f64,
            _ => {
                self.unsupported("invalid imaginary constant", e.span);
                return None;
            }
        };
        let t = self.complex_elem(info.ty, e.span)?;
        let re = self.b.ins().fconst(t, 0.0);
        let im = self.b.ins().fconst(t, value);
        Some(Ev::R(Rv::Agg(self.complex_temp(re, im))))
    }

    /// `z op= e` where `z` or `e` is complex (the operation in the complex type, the result
    /// converted back to `z`'s type).
    pub fn complex_compound(
        &mut self,
        op: BinaryOp,
        l: &'a Expr,
        r: &'a Expr,
        span: Span,
    ) -> Option<Rv> {
        let li = self.info(l)?;
        let lt = li.ty;
        let t = self.common_elem(l, r)?;
        let lv = self.lvalue(l)?;
        let old = if self.is_complex(lt) {
            let Lv::Mem(a, _) = lv else {
                self.unsupported("expected a complex lvalue", span);
                return None;
            };
            let ft = self.complex_elem(lt, span)?;
            let (re, im) = self.complex_parts(a, ft);
            let re = self.convert(re, Scalar::Float(ft), Scalar::Float(t));
            let im = self.convert(im, Scalar::Float(ft), Scalar::Float(t));
            Cv::Cplx(re, im)
        } else {
            let cls = self.class(lt, span)?;
            let v = self.load_lv(&lv);
            Cv::Real(self.convert(v, cls, Scalar::Float(t)))
        };
        let b = self.complex_operand(r, t)?;
        // The result type for library calls: a complex type of element `t`.
        let (re, im) = self.complex_arith(op, old, b, t, span)?;
        if self.is_complex(lt) {
            let Lv::Mem(a, _) = lv else { return None };
            let ft = self.complex_elem(lt, span)?;
            let re = self.convert(re, Scalar::Float(t), Scalar::Float(ft));
            let im = self.convert(im, Scalar::Float(t), Scalar::Float(ft));
            self.complex_store(a, re, im);
            Some(Rv::Agg(a))
        } else {
            let cls = self.class(lt, span)?;
            let v = self.convert(re, Scalar::Float(t), cls);
            Some(Rv::S(self.store_lv(&lv, v)))
        }
    }

    /// Calls of the <complex.h> functions that are single operations (`creal`, `cimag`,
    /// `conj` and their `f` and `__builtin_` forms); `None` when
    /// `name` is none of them.
    pub fn complex_builtin(
        &mut self,
        name: &str,
        args: &'a [Expr],
        span: Span,
    ) -> Option<Option<Rv>> {
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let which = match base {
            "creal" | "crealf" => UnaryOp::Real,
            "cimag" | "cimagf" => UnaryOp::Imag,
            "conj" | "conjf" => UnaryOp::BitNot,
            _ => return None,
        };
        let [arg] = args else { return None };
        Some((|| {
            let (a, qt) = self.complex_value(arg)?;
            let t = self.complex_elem(qt, span)?;
            let (re, im) = self.complex_parts(a, t);
            match which {
                UnaryOp::Real => Some(Rv::S(re)),
                UnaryOp::Imag => Some(Rv::S(im)),
                _ => {
                    let im = self.b.ins().fneg(im);
                    Some(Rv::Agg(self.complex_temp(re, im)))
                }
            }
        })())
    }

    /// `__builtin_complex(re, im)` (glibc's `CMPLX`).
    pub fn builtin_complex(&mut self, args: &'a [Expr], info: ExprInfo, span: Span) -> Option<Rv> {
        let [re, im] = args else {
            self.unsupported("'__builtin_complex' takes two arguments", span);
            return None;
        };
        let t = self.complex_elem(info.ty, span)?;
        let rc = self.class_of_conv(re)?;
        let ic = self.class_of_conv(im)?;
        let x = self.scalar(re)?;
        let y = self.scalar(im)?;
        let x = self.convert(x, rc, Scalar::Float(t));
        let y = self.convert(y, ic, Scalar::Float(t));
        Some(Rv::Agg(self.complex_temp(x, y)))
    }

    /// Copies a complex object part by part in its element type (so `sroa` sees the same
    /// float fields as the arithmetic's accesses).
    pub fn complex_copy(&mut self, dst: Addr, src: Addr, qt: QualType) -> bool {
        let Ok(Some(t)) = ty::complex_elem(&self.cx.typed.types, qt) else {
            return false;
        };
        let (re, im) = self.complex_parts(src, t);
        self.complex_store(dst, re, im);
        true
    }
}
