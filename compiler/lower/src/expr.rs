//! Lowering of expressions.
//!
//! `eval` produces an [`Ev`]: an lvalue (memory, bitfield or function designator) or an rvalue
//! in the expression's own type; `rvalue` applies lvalue conversion, array decay and the
//! conversion sema recorded in `ExprInfo::conv`, so every operand arrives in exactly the type
//! its parent expects (promotions and usual arithmetic conversions included). Conditions are
//! lowered to branches directly (`branch`), so `&&`, `||`, `!` and comparisons never
//! materialise 0/1 values when they steer control flow.

use crate::func::{Addr, FnLower};
use crate::ty::{self, Scalar, Unsupported};
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, ArithFlags, Block, FloatCC, IntCC, Opcode, Type, Value};
use ompcc_sema::consteval::ConstValue;
use ompcc_sema::types::{FloatKind, QualType, Quals, TypeKind};
use ompcc_sema::{ExprInfo, InitKey, Storage, SymbolId, SymbolKind};
use ompcc_syntax::ast::{BinaryOp, CharPrefix, Expr, ExprKind, StmtKind, UnaryOp};

mod call;
mod operator;

/// An lvalue.
#[derive(Clone, Copy, Debug)]
pub enum Lv {
    /// An object in memory of the given type.
    Mem(Addr, QualType),
    /// A bitfield: the storage unit at `addr`, the field's bits at `shift..shift+width`.
    Bit {
        addr: Addr,
        unit: Type,
        shift: u32,
        width: u32,
        cls: Scalar,
        volatile: bool,
    },
    /// A function designator.
    Func(SymbolId),
}

/// An rvalue.
#[derive(Clone, Copy, Debug)]
pub enum Rv {
    S(Value),
    /// A struct or union value, held in memory.
    Agg(Addr),
    Void,
}

/// The result of evaluating an expression.
#[derive(Clone, Copy, Debug)]
pub enum Ev {
    L(Lv),
    R(Rv),
}

/// `e` without enclosing parentheses.
pub fn strip_parens(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(x) => strip_parens(x),
        _ => e,
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    pub fn info(&mut self, e: &Expr) -> Option<ExprInfo> {
        let i = self.cx.typed.expr(e.id).copied();
        if i.is_none() {
            self.unsupported("expression has no type (it failed to check)", e.span);
        }
        i
    }

    /// The value class of `qt`, reporting types the device cannot hold.
    pub fn class(&mut self, qt: QualType, span: Span) -> Option<Scalar> {
        match ty::scalar(&self.cx.typed.types, qt) {
            Ok(Some(s)) => Some(s),
            Ok(None) => {
                let t = &self.cx.typed.types;
                if t.is_array(qt) || t.is_function(qt) {
                    return Some(Scalar::Ptr);
                }
                self.unsupported(format!("'{}' is not a scalar type", t.display(qt)), span);
                None
            }
            Err(u) => {
                let msg = match u {
                    Unsupported::LongDouble => {
                        "a 'long double' value at run time is not supported \
                        on the device (ompcc folds constant long double expressions converted to \
                        double or float; compute this one in double)"
                            .to_string()
                    }
                    u => format!("type '{}' is not supported on the device", u.name()),
                };
                self.unsupported(msg, span);
                None
            }
        }
    }

    /// The class of the value `e` is converted to where it is used.
    pub fn class_of_conv(&mut self, e: &Expr) -> Option<Scalar> {
        let info = self.info(e)?;
        self.class(info.conv, e.span)
    }

    // ----- entry points -----

    /// Evaluates `e` for its side effects only.
    pub fn effect(&mut self, e: &'a Expr) {
        self.ensure_open();
        let _ = self.eval(e);
    }

    /// The scalar value of `e` in its converted type.
    pub fn scalar(&mut self, e: &'a Expr) -> Option<Value> {
        match self.rvalue(e)? {
            Rv::S(v) => Some(v),
            _ => {
                self.unsupported("expected a scalar value", e.span);
                None
            }
        }
    }

    /// The address of the struct/union value of `e`.
    pub fn agg_value(&mut self, e: &'a Expr) -> Option<Addr> {
        match self.rvalue(e)? {
            Rv::Agg(a) => Some(a),
            _ => {
                self.unsupported("expected a struct or union value", e.span);
                None
            }
        }
    }

    /// Lvalue conversion, decay and sema's recorded conversion.
    pub fn rvalue(&mut self, e: &'a Expr) -> Option<Rv> {
        let info = self.info(e)?;
        if self.is_complex(info.ty) || self.is_complex(info.conv) {
            return self.complex_rvalue(e, info);
        }
        self.rvalue_to(e, info, info.conv)
    }

    /// `rvalue` converting to `to` instead of sema's recorded type (neither complex).
    pub fn rvalue_to(&mut self, e: &'a Expr, info: ExprInfo, to: QualType) -> Option<Rv> {
        if let Some(v) = self.folded_long_double(e, info.ty, to) {
            return Some(Rv::S(v));
        }
        let ev = self.eval(e)?;
        let types = &self.cx.typed.types;
        let (rv, from_ptr) = match ev {
            Ev::R(rv) => (rv, false),
            // A function designator decays to a pointer to the function.
            Ev::L(Lv::Func(sym)) => (Rv::S(self.func_ptr(sym, e.span)?), true),
            Ev::L(Lv::Mem(addr, qt)) => {
                if types.is_array(qt) {
                    if types.is_pointer(to) {
                        (Rv::S(self.generic_ptr(addr)), true)
                    } else {
                        (Rv::Agg(addr), false)
                    }
                } else if types.is_record(qt) {
                    (Rv::Agg(addr), false)
                } else if types.is_void(qt) {
                    (Rv::Void, false)
                } else {
                    let cls = self.class(qt, e.span)?;
                    let vol = types.canon(qt).quals.contains(Quals::VOLATILE);
                    let a = Addr {
                        align: addr.align.min(self.align_of(qt)),
                        ..addr
                    };
                    match self.atomic_lvalue_load(&Lv::Mem(a, qt)) {
                        Some(v) => (Rv::S(v), false),
                        None => (Rv::S(self.load_raw(a, cls.ty(), vol)), false),
                    }
                }
            }
            Ev::L(lv @ Lv::Bit { .. }) => (Rv::S(self.load_lv(&lv)), false),
        };
        let Rv::S(v) = rv else { return Some(rv) };
        let t = &self.cx.typed.types;
        if t.is_void(to) {
            return Some(Rv::Void);
        }
        let from = if from_ptr {
            Scalar::Ptr
        } else {
            self.class(info.ty, e.span)?
        };
        let to = self.class(to, e.span)?;
        Some(Rv::S(self.convert(v, from, to)))
    }

    /// An lvalue (reports non-lvalues).
    pub(crate) fn lvalue(&mut self, e: &'a Expr) -> Option<Lv> {
        match self.eval(e)? {
            Ev::L(lv) => Some(lv),
            Ev::R(Rv::Agg(a)) => {
                let qt = self.info(e)?.ty;
                Some(Lv::Mem(a, qt))
            }
            Ev::R(_) => {
                self.unsupported("expression is not an lvalue", e.span);
                None
            }
        }
    }

    // ----- conversions -----

    /// Converts `v` of class `from` to class `to` (C11 6.3).
    pub fn convert(&mut self, v: Value, from: Scalar, to: Scalar) -> Value {
        if from == to {
            return v;
        }
        let ins_ty = self.b.value_type(v);
        match (from, to) {
            (_, Scalar::Bool) => {
                let c = self.nonzero(v, from);
                self.b.ins().zext(Type::I8, c)
            }
            (Scalar::Bool | Scalar::Int(..), Scalar::Int(t, _)) => {
                let signed = from.is_signed();
                self.resize(v, t, signed)
            }
            (Scalar::Bool | Scalar::Int(..), Scalar::Float(t)) => {
                if from.is_signed() {
                    self.b.ins().sitofp(t, v)
                } else {
                    self.b.ins().uitofp(t, v)
                }
            }
            (Scalar::Float(_), Scalar::Int(t, signed)) => {
                if signed {
                    self.b.ins().fptosi(t, v)
                } else {
                    self.b.ins().fptoui(t, v)
                }
            }
            (Scalar::Float(_), Scalar::Float(t)) => {
                if t.bits() > ins_ty.bits() {
                    self.b.ins().fpext(t, v)
                } else {
                    self.b.ins().fptrunc(t, v)
                }
            }
            (Scalar::Ptr, Scalar::Int(t, _)) => {
                let i = self.b.ins().ptrtoint(Type::I64, v);
                self.resize(i, t, false)
            }
            (Scalar::Bool | Scalar::Int(..), Scalar::Ptr) => {
                let i = self.resize(v, Type::I64, from.is_signed());
                self.b.ins().inttoptr(Type::PTR, i)
            }
            (Scalar::Float(_), Scalar::Ptr) => {
                let i = self.b.ins().fptoui(Type::I64, v);
                self.b.ins().inttoptr(Type::PTR, i)
            }
            (Scalar::Ptr, Scalar::Float(t)) => {
                let i = self.b.ins().ptrtoint(Type::I64, v);
                self.b.ins().uitofp(t, i)
            }
            (Scalar::Ptr, Scalar::Ptr) => v,
        }
    }

    /// Integer width change: truncate, or sign/zero-extend.
    pub fn resize(&mut self, v: Value, to: Type, signed: bool) -> Value {
        let from = self.b.value_type(v);
        if from.bits() == to.bits() {
            v
        } else if from.bits() > to.bits() {
            self.b.ins().trunc(to, v)
        } else if signed {
            self.b.ins().sext(to, v)
        } else {
            self.b.ins().zext(to, v)
        }
    }

    /// `v != 0` as an `i1`.
    fn nonzero(&mut self, v: Value, cls: Scalar) -> Value {
        match cls {
            Scalar::Float(t) => {
                let z = self.b.ins().fconst(t, 0.0);
                self.b.ins().fcmp(FloatCC::Une, v, z)
            }
            Scalar::Ptr => {
                let i = self.b.ins().ptrtoint(Type::I64, v);
                let z = self.b.ins().iconst(Type::I64, 0);
                self.b.ins().icmp(IntCC::Ne, i, z)
            }
            other => {
                let z = self.b.ins().iconst(other.ty(), 0);
                self.b.ins().icmp(IntCC::Ne, v, z)
            }
        }
    }

    pub(crate) fn iconst_in(&mut self, cls: Scalar, v: i128) -> Value {
        match cls {
            Scalar::Float(t) => self.b.ins().fconst(t, v as f64),
            Scalar::Ptr => {
                let i = self.b.ins().iconst(Type::I64, v as i64);
                self.b.ins().inttoptr(Type::PTR, i)
            }
            Scalar::Bool => self.b.ins().iconst(Type::I8, (v != 0) as i64),
            Scalar::Int(t, _) => self.b.ins().iconst(t, v as i64),
        }
    }

    /// A `long double` constant expression `e` (of type `from`) converted to a type the device
    /// holds (`to`: `double`, `float`, an integer) is folded to that type: no `long double`
    /// value exists at run time (gcc's `<float.h>` spells `DBL_MAX` as `(double)...L`). `None`
    /// when `from` is another type or `e` is not constant; the caller then lowers it as usual
    /// and a run-time `long double` is reported there.
    fn folded_long_double(&mut self, e: &Expr, from: QualType, to: QualType) -> Option<Value> {
        let types = &self.cx.typed.types;
        if !matches!(types.ckind(from), TypeKind::Float(k) if *k != FloatKind::Float && *k != FloatKind::Double)
        {
            return None;
        }
        let Ok(Some(cls)) = ty::scalar(types, to) else {
            return None;
        };
        let c = ompcc_sema::fold_as(self.cx.typed, e, to)?;
        Some(self.const_value(cls, c))
    }

    fn const_value(&mut self, cls: Scalar, c: ConstValue) -> Value {
        match (c, cls) {
            (ConstValue::Int(i), _) => self.iconst_in(cls, i.value),
            (ConstValue::Float(f), Scalar::Float(t)) => self.b.ins().fconst(t, f.value),
            (ConstValue::Float(f), Scalar::Bool) => {
                self.b.ins().iconst(Type::I8, (f.value != 0.0) as i64)
            }
            (ConstValue::Float(f), _) => self.iconst_in(cls, f.value as i128),
        }
    }

    // ----- conditions -----

    /// Branches to `t` when `c` is true, else to `f`.
    pub fn branch(&mut self, c: &'a Expr, t: Block, f: Block) {
        self.ensure_open();
        let inner = strip_parens(c);
        match &inner.kind {
            ExprKind::Binary(BinaryOp::LogAnd, a, b) => {
                let mid = self.b.create_block();
                self.branch(a, mid, f);
                self.b.switch_to_block(mid);
                self.branch(b, t, f);
            }
            ExprKind::Binary(BinaryOp::LogOr, a, b) => {
                let mid = self.b.create_block();
                self.branch(a, t, mid);
                self.b.switch_to_block(mid);
                self.branch(b, t, f);
            }
            ExprKind::Unary(UnaryOp::Not, x) => self.branch(x, f, t),
            _ => match self.cond_value(c) {
                Some(v) if !self.b.is_filled() => {
                    self.b.ins().brif(v, t, &[], f, &[]);
                }
                _ => self.jump_to(f),
            },
        }
    }

    /// `c` as an `i1`.
    pub(crate) fn cond_value(&mut self, c: &'a Expr) -> Option<Value> {
        let inner = strip_parens(c);
        if let ExprKind::Binary(op, l, r) = &inner.kind
            && matches!(
                op,
                BinaryOp::Lt
                    | BinaryOp::Gt
                    | BinaryOp::Le
                    | BinaryOp::Ge
                    | BinaryOp::Eq
                    | BinaryOp::Ne
            )
        {
            return self.compare(*op, l, r);
        }
        let ci = self.info(c)?;
        if self.is_complex(ci.conv) {
            return self.complex_nonzero(c);
        }
        let cls = self.class_of_conv(c)?;
        let v = self.scalar(c)?;
        Some(self.nonzero(v, cls))
    }

    fn compare(&mut self, op: BinaryOp, l: &'a Expr, r: &'a Expr) -> Option<Value> {
        if let Some(c) = self.complex_compare(op, l, r) {
            return c;
        }
        let cls = self.class_of_conv(l)?;
        let a = self.scalar(l)?;
        let b = self.scalar(r)?;
        let rc = self.class_of_conv(r)?;
        let b = self.convert(b, rc, cls);
        Some(self.compare_values(op, cls, a, b))
    }

    /// `a op b` (a relational or equality operator) on two values of class `cls`, as an `i1`.
    pub(crate) fn compare_values(
        &mut self,
        op: BinaryOp,
        cls: Scalar,
        a: Value,
        b: Value,
    ) -> Value {
        match cls {
            Scalar::Float(_) => {
                let cc = match op {
                    BinaryOp::Lt => FloatCC::Olt,
                    BinaryOp::Gt => FloatCC::Ogt,
                    BinaryOp::Le => FloatCC::Ole,
                    BinaryOp::Ge => FloatCC::Oge,
                    BinaryOp::Eq => FloatCC::Oeq,
                    _ => FloatCC::Une,
                };
                self.b.ins().fcmp(cc, a, b)
            }
            _ => {
                let s = cls.is_signed();
                let cc = match op {
                    BinaryOp::Lt if s => IntCC::Slt,
                    BinaryOp::Lt => IntCC::Ult,
                    BinaryOp::Gt if s => IntCC::Sgt,
                    BinaryOp::Gt => IntCC::Ugt,
                    BinaryOp::Le if s => IntCC::Sle,
                    BinaryOp::Le => IntCC::Ule,
                    BinaryOp::Ge if s => IntCC::Sge,
                    BinaryOp::Ge => IntCC::Uge,
                    BinaryOp::Eq => IntCC::Eq,
                    _ => IntCC::Ne,
                };
                self.b.ins().icmp(cc, a, b)
            }
        }
    }

    /// A condition materialised as an `int` 0/1 through a join block.
    fn bool_value(&mut self, e: &'a Expr) -> Value {
        let t = self.b.create_block();
        let f = self.b.create_block();
        let join = self.b.create_block();
        let p = self.b.append_block_param(join, Type::I32);
        self.branch(e, t, f);
        self.b.switch_to_block(t);
        let one = self.b.ins().iconst(Type::I32, 1);
        self.b.ins().jump(join, &[one]);
        self.b.switch_to_block(f);
        let zero = self.b.ins().iconst(Type::I32, 0);
        self.b.ins().jump(join, &[zero]);
        self.b.switch_to_block(join);
        p
    }

    // ----- the expression walk -----

    pub fn eval(&mut self, e: &'a Expr) -> Option<Ev> {
        let before = self.cx.diags.len();
        // The expression's own instructions carry its location; its operands set theirs, and
        // the enclosing construct gets its own back afterwards.
        let outer = self.b.srcloc();
        let loc = self.cx.srcloc(e.span);
        self.b.set_srcloc(loc);
        let r = self.eval_inner(e);
        self.b.set_srcloc(outer);
        if r.is_none() && self.cx.diags.len() == before && !self.failed_silently(e) {
            // Every failure must be reported: a silently dropped expression would be a
            // wrong program.
            self.errors += 1;
            self.cx.error(
                "E0899",
                "internal error: expression could not be lowered",
                e.span,
            );
        }
        r
    }

    /// Uses of locals whose declaration was already reported fail without a new message.
    fn failed_silently(&self, e: &Expr) -> bool {
        self.cx
            .typed
            .ident_symbols
            .get(&strip_parens(e).id)
            .is_some_and(|s| self.failed_locals.contains(s))
            || self.errors > 0
    }

    fn eval_inner(&mut self, e: &'a Expr) -> Option<Ev> {
        self.ensure_open();
        let info = self.info(e)?;
        let span = e.span;
        if let Some(&sel) = self.cx.typed.selected.get(&e.id) {
            return self.selected(e, sel);
        }
        let r = |rv| Some(Ev::R(rv));
        match &e.kind {
            ExprKind::Paren(x) => self.eval(x),
            ExprKind::Ident(_) => self.ident(e, info),
            ExprKind::Int { .. } | ExprKind::Float { .. } if self.is_complex(info.ty) => {
                self.imaginary_literal(e, info)
            }
            ExprKind::Int { .. } | ExprKind::Char { .. } => {
                let cls = self.class(info.ty, span)?;
                let v = match &e.kind {
                    ExprKind::Int { value, .. } => self.iconst_in(cls, *value as i128),
                    ExprKind::Char { value, prefix } => {
                        // A plain character constant is a `char` (signed here) widened to
                        // int: '\xff' is -1, as gcc has it.
                        let v = if *prefix == CharPrefix::None && *value <= 0xff {
                            *value as u8 as i8 as i128
                        } else {
                            *value as i128
                        };
                        self.iconst_in(cls, v)
                    }
                    _ => return None,
                };
                r(Rv::S(v))
            }
            ExprKind::Float { value, .. } => {
                let cls = self.class(info.ty, span)?;
                let v = match cls {
                    Scalar::Float(t) => self.b.ins().fconst(t, *value),
                    _ => self.iconst_in(cls, *value as i128),
                };
                r(Rv::S(v))
            }
            ExprKind::Str(s) => {
                let unit = match s.prefix {
                    CharPrefix::None | CharPrefix::Utf8 => 1usize,
                    CharPrefix::U16 => 2,
                    CharPrefix::Wide | CharPrefix::U32 => 4,
                };
                let mut bytes = Vec::with_capacity((s.value.len() + 1) * unit);
                for &u in s.value.iter().chain(std::iter::once(&0)) {
                    bytes.extend_from_slice(&(u as u64).to_le_bytes()[..unit]);
                }
                let name = self.cx.string_global(bytes);
                let g = self.b.import_global(&name, AddrSpace::Global);
                let ptr = self.b.ins().global_addr(g);
                let addr = Addr {
                    ptr,
                    space: AddrSpace::Global,
                    align: unit as u32,
                };
                Some(Ev::L(Lv::Mem(addr, info.ty)))
            }
            ExprKind::Generic(..) => {
                self.unsupported("unresolved _Generic selection", span);
                None
            }
            ExprKind::Index(_, _) if self.cx.tile_reads.contains_key(&e.id) => {
                let addr = self.tile_read(e.id)?;
                Some(Ev::L(Lv::Mem(addr, info.ty)))
            }
            ExprKind::Index(a, b) => match self.cx.layouts.get(&e.id).copied() {
                Some((row, rows, two_d)) => self.index_relaid(a, b, (row, rows, two_d), info, span),
                None => self.index(a, b, info, span),
            },
            // Builtins sema evaluates (`__builtin_constant_p`, `__builtin_classify_type`)
            // have no callee to call.
            ExprKind::Call(..) if self.cx.typed.consts.contains_key(&e.id) => {
                let cls = self.class(info.ty, span)?;
                let c = ompcc_sema::fold(self.cx.typed, e)?;
                r(Rv::S(self.const_value(cls, c)))
            }
            ExprKind::Call(f, args) => self.call(e, f, args, info).map(Ev::R),
            ExprKind::Member { base, arrow, .. } => self.member(e, base, *arrow, info),
            ExprKind::Unary(op, x) => self.unary(*op, x, info, span),
            ExprKind::CompoundLiteral(..) => {
                let slot = self.new_slot(info.ty, span)?;
                let align = self.align_of(info.ty);
                let addr = self.slot_addr(slot, align);
                self.init_object(addr, info.ty, InitKey::CompoundLiteral(e.id), span);
                let addr = self.slot_addr(slot, align);
                Some(Ev::L(Lv::Mem(addr, info.ty)))
            }
            ExprKind::SizeofExpr(_)
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofType(_)
            | ExprKind::AlignofExpr(_)
            | ExprKind::Offsetof(..)
            | ExprKind::TypesCompatible(..) => {
                let cls = self.class(info.ty, span)?;
                if let Some(c) = ompcc_sema::fold(self.cx.typed, e) {
                    return r(Rv::S(self.const_value(cls, c)));
                }
                let qt = match &e.kind {
                    ExprKind::SizeofExpr(x) => self.cx.typed.expr(x.id).map(|i| i.ty),
                    ExprKind::SizeofType(tn) => tn
                        .declarator
                        .as_ref()
                        .and_then(|d| self.cx.typed.decl_type(d.id))
                        .or_else(|| self.typedef_of_specs(&tn.specs)),
                    _ => None,
                };
                let Some(qt) = qt else {
                    self.unsupported("this constant could not be evaluated", span);
                    return None;
                };
                self.vla_sizes_of(qt, span);
                let n = self.sizeof_value(qt, span)?;
                r(Rv::S(self.convert(n, Scalar::ULONG, cls)))
            }
            ExprKind::Cast(_, x) => {
                let t = &self.cx.typed.types;
                if t.is_void(info.ty) {
                    self.effect(x);
                    return r(Rv::Void);
                }
                let xi = self.info(x)?;
                if self.is_complex(info.ty) || self.is_complex(xi.conv) {
                    let v = self.rvalue(x)?;
                    return self.complex_convert(v, xi.conv, info.ty, span).map(Ev::R);
                }
                if !t.is_scalar(info.ty) {
                    self.unsupported("cast to a non-scalar type is not supported", span);
                    return None;
                }
                self.vla_sizes_of(info.ty, span);
                if let Some(v) = self.folded_long_double(x, xi.conv, info.ty) {
                    return r(Rv::S(v));
                }
                let to = self.class(info.ty, span)?;
                let from = self.class_of_conv(x)?;
                let v = self.scalar(x)?;
                r(Rv::S(self.convert(v, from, to)))
            }
            ExprKind::Binary(op, l, rr) => self.binary(e, *op, l, rr, info).map(Ev::R),
            ExprKind::Assign(op, l, rr) => self.assign(*op, l, rr, span).map(Ev::R),
            ExprKind::Cond(c, t, f) => self.conditional(c, t.as_deref(), f, info, span).map(Ev::R),
            ExprKind::Comma(a, b) => {
                self.effect(a);
                self.ensure_open();
                let rv = self.rvalue(b)?;
                r(rv)
            }
            ExprKind::StmtExpr(blk) => {
                let (last, rest) = match blk.items.split_last() {
                    Some((l, rest)) => (Some(l), rest),
                    None => (None, &[][..]),
                };
                for item in rest {
                    match item {
                        ompcc_syntax::ast::BlockItem::Decl(d) => self.declaration(d),
                        ompcc_syntax::ast::BlockItem::Stmt(s) => self.stmt(s),
                        _ => {}
                    }
                }
                self.ensure_open();
                match last {
                    Some(ompcc_syntax::ast::BlockItem::Stmt(s)) => match &s.kind {
                        StmtKind::Expr(Some(x)) if !self.cx.typed.types.is_void(info.ty) => {
                            let rv = self.rvalue(x)?;
                            r(rv)
                        }
                        _ => {
                            self.stmt(s);
                            self.ensure_open();
                            r(Rv::Void)
                        }
                    },
                    Some(ompcc_syntax::ast::BlockItem::Decl(d)) => {
                        self.declaration(d);
                        r(Rv::Void)
                    }
                    _ => r(Rv::Void),
                }
            }
            ExprKind::VaArg(ap, _) => {
                let t = self.info(e)?.ty;
                self.va_arg(ap, t, span)
            }
            ExprKind::LabelAddr(_) => {
                self.unsupported("label addresses are not supported on the device", span);
                None
            }
            ExprKind::ArraySection { .. } => {
                self.unsupported("array section outside an OpenMP clause", span);
                None
            }
        }
    }

    /// The type a `typedef` name among `specs` stands for (block-scope typedefs of VLA
    /// types, whose size is only known at run time).
    fn typedef_of_specs(&self, specs: &ompcc_syntax::ast::DeclSpecs) -> Option<QualType> {
        specs.specs.iter().find_map(|s| match &s.kind {
            ompcc_syntax::ast::DeclSpecKind::Type(ompcc_syntax::ast::TypeSpec::TypedefName(id)) => {
                self.typedefs.get(&id.name).copied()
            }
            _ => None,
        })
    }

    /// `_Generic`, `__builtin_expect`, `__builtin_choose_expr`: the selected operand.
    fn selected(&mut self, e: &'a Expr, sel: ompcc_syntax::ast::ExprId) -> Option<Ev> {
        let Some(x) = self.cx.expr_by_id(sel) else {
            self.unsupported("selected expression not found", e.span);
            return None;
        };
        let xi = self.info(x)?;
        if xi.kind == ompcc_sema::ValueKind::Function
            || self.cx.typed.types.is_function(xi.ty)
            || self
                .cx
                .typed
                .types
                .pointee(xi.ty)
                .is_some_and(|p| self.cx.typed.types.is_function(p))
        {
            // `__builtin_tgmath(f, g, h, args...)`: a call of the chosen candidate with the
            // arguments after the candidates (sema converted them to its parameters).
            let ExprKind::Call(_, args) = &e.kind else {
                self.unsupported("unexpected function selection", e.span);
                return None;
            };
            let types = &self.cx.typed.types;
            let n = args
                .iter()
                .take_while(|a| {
                    self.cx.typed.expr(a.id).is_some_and(|i| {
                        types.pointee(i.conv).is_some_and(|p| types.is_function(p))
                    })
                })
                .count();
            let info = self.info(e)?;
            return self.call(e, x, &args[n..], info).map(Ev::R);
        }
        if matches!(e.kind, ExprKind::Generic(..)) {
            return self.eval(x);
        }
        // Builtin calls: the other arguments are not evaluated (`__builtin_expect`'s hint is
        // a constant).
        self.rvalue(x).map(Ev::R)
    }

    fn ident(&mut self, e: &'a Expr, info: ExprInfo) -> Option<Ev> {
        let Some(&sym) = self.cx.typed.ident_symbols.get(&e.id) else {
            self.unsupported("unresolved name", e.span);
            return None;
        };
        let s = self.cx.typed.symbols[sym].clone();
        match s.kind {
            SymbolKind::EnumConstant(v) => {
                let cls = self.class(info.ty, e.span)?;
                Some(Ev::R(Rv::S(self.iconst_in(cls, v))))
            }
            SymbolKind::Function => Some(Ev::L(Lv::Func(sym))),
            SymbolKind::Typedef => {
                self.unsupported("a type name is not a value", e.span);
                None
            }
            SymbolKind::Object => {
                if let Some(&l) = self.locals.get(&sym) {
                    let addr = self.local_addr(l);
                    return Some(Ev::L(Lv::Mem(addr, s.ty)));
                }
                if s.storage == Storage::Automatic {
                    if self.failed_locals.contains(&sym) {
                        self.errors += 1;
                        return None;
                    }
                    self.unsupported(format!("local '{}' is not available here", s.name), e.span);
                    return None;
                }
                if self.cx.is_link(sym) {
                    return self.link_lvalue(sym, s.ty, e.span).map(Ev::L);
                }
                let fname = self.name.clone();
                let g = match self.cx.const_tables.get(&sym) {
                    Some(Some(table)) => table.clone(),
                    _ => self.cx.object_global(sym, &fname, e.span)?,
                };
                let gr = self.b.import_global(&g.name, g.space);
                let ptr = self.b.ins().global_addr(gr);
                let align = self.align_of(s.ty).max(s.align.unwrap_or(1) as u32);
                Some(Ev::L(Lv::Mem(
                    Addr {
                        ptr,
                        space: g.space,
                        align,
                    },
                    s.ty,
                )))
            }
        }
    }

    /// The address `a[i]` designates, keeping the space of a local or global array.
    fn index(&mut self, a: &'a Expr, b: &'a Expr, info: ExprInfo, span: Span) -> Option<Ev> {
        let ai = self.info(a)?;
        let (base, idx) = if self.cx.typed.types.is_pointer(ai.conv) {
            (a, b)
        } else {
            (b, a)
        };
        let bi = self.info(base)?;
        let base_addr = if self.cx.typed.types.is_array(bi.ty) {
            match self.lvalue(base)? {
                Lv::Mem(addr, _) => addr,
                _ => {
                    self.unsupported("cannot index this array", span);
                    return None;
                }
            }
        } else {
            let p = self.scalar(base)?;
            Addr {
                ptr: p,
                space: AddrSpace::Generic,
                align: self.align_of(info.ty),
            }
        };
        let addr = self.element_addr(base_addr, idx, info.ty, false, span)?;
        Some(Ev::L(Lv::Mem(addr, info.ty)))
    }

    /// `work[e]` of a work array laid out thread-minor (the plan's `PrivateLayout`):
    /// `work[(e % row) * rows + e / row]`, `e >= 0` proven by the plan (unsigned division);
    /// `work[t][k]` of a pointer to rows (`two_d`): element `k * rows + t`.
    fn index_relaid(
        &mut self,
        a: &'a Expr,
        b: &'a Expr,
        (row, rows, two_d): (i64, &'a Expr, bool),
        info: ExprInfo,
        span: Span,
    ) -> Option<Ev> {
        let (pointer, row_index) = match (&strip_parens(a).kind, two_d) {
            (ExprKind::Index(w, i), true) => (&**w, Some(&**i)),
            (_, false) => (a, None),
            _ => {
                self.unsupported("a relaid work array's access is not 'work[t][k]'", span);
                return None;
            }
        };
        let p = self.scalar(pointer)?;
        let base = Addr {
            ptr: p,
            space: AddrSpace::Generic,
            align: self.align_of(info.ty),
        };
        let e = self.index_i64(b)?;
        let rc = self.class_of_conv(rows)?;
        let n = self.scalar(rows)?;
        let n = self.resize(n, Type::I64, rc.is_signed());
        let (t, within) = match row_index {
            Some(i) => (self.index_i64(i)?, e),
            None => {
                let k = self.b.ins().iconst(Type::I64, row);
                (self.b.ins().udiv(e, k), self.b.ins().urem(e, k))
            }
        };
        let scaled = self.b.ins().imul(within, n);
        let i = self.b.ins().iadd(scaled, t);
        let addr = self.element_addr_value(base, i, Scalar::LONG, info.ty, false, span)?;
        Some(Ev::L(Lv::Mem(addr, info.ty)))
    }

    /// `base + idx * sizeof(elem)` (or minus).
    fn element_addr(
        &mut self,
        base: Addr,
        idx: &'a Expr,
        elem: QualType,
        negate: bool,
        span: Span,
    ) -> Option<Addr> {
        let i = self.index_i64(idx)?;
        self.element_addr_value(base, i, Scalar::LONG, elem, negate, span)
    }

    /// An integer index widened to `i64`. A signed sum or difference narrower than 64 bits
    /// whose operands have its type and whose terms include a constant (`i * n + j - 1` in
    /// `int`) is widened operand by operand: signed overflow is undefined, so
    /// `sext(a + b) == sext(a) + sext(b)` in every defined execution, and the 64-bit form lets
    /// GVN share the common part of neighbouring accesses and reassoc move their constant
    /// parts into `[reg+imm]` addresses. A sum without a constant (`a[i + j]`) is computed in
    /// its own type, as C says, and widened once: one `sext` instead of one per operand.
    fn index_i64(&mut self, idx: &'a Expr) -> Option<Value> {
        let ic = self.class_of_conv(idx)?;
        if let Scalar::Int(t, true) = ic
            && t.bits() < 64
            && let ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), l, r) =
                &strip_parens(idx).kind
            && self.has_constant_term(idx)
            && self.class_of_conv(l)? == ic
            && self.class_of_conv(r)? == ic
        {
            let a = self.index_i64(l)?;
            let b = self.index_i64(r)?;
            return Some(if *op == BinaryOp::Add {
                self.b.ins().iadd(a, b)
            } else {
                self.b.ins().isub(a, b)
            });
        }
        let v = self.scalar(idx)?;
        Some(self.resize(v, Type::I64, ic.is_signed()))
    }

    /// Whether the terms of `e` as a sum (through `+`, `-` and parentheses) include an
    /// integer constant expression.
    fn has_constant_term(&self, e: &Expr) -> bool {
        let e = strip_parens(e);
        if ompcc_sema::fold(self.cx.typed, e).is_some() {
            return true;
        }
        match &e.kind {
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, l, r) => {
                self.has_constant_term(l) || self.has_constant_term(r)
            }
            _ => false,
        }
    }

    pub(crate) fn element_addr_value(
        &mut self,
        base: Addr,
        iv: Value,
        ic: Scalar,
        elem: QualType,
        negate: bool,
        span: Span,
    ) -> Option<Addr> {
        let i = self.resize(iv, Type::I64, ic.is_signed());
        let size = self.sizeof_value(elem, span)?;
        let mut off = self.b.ins().imul(i, size);
        if negate {
            off = self.b.ins().neg(off);
        }
        let ptr = self.b.ins().ptr_offset(base.ptr, off);
        let ea = self.align_of(elem);
        Some(Addr {
            ptr,
            space: base.space,
            align: base.align.min(ea).max(1),
        })
    }

    fn member(&mut self, e: &'a Expr, base: &'a Expr, arrow: bool, info: ExprInfo) -> Option<Ev> {
        let Some((rec, path)) = self.cx.typed.member_paths.get(&e.id).cloned() else {
            self.unsupported("unresolved member", e.span);
            return None;
        };
        let types = &self.cx.typed.types;
        let rec_align = types.record_layout(rec).map_or(1, |l| l.align) as u32;
        let addr = if arrow {
            let p = self.scalar(base)?;
            Addr {
                ptr: p,
                space: AddrSpace::Generic,
                align: rec_align,
            }
        } else {
            match self.lvalue(base)? {
                Lv::Mem(a, _) => a,
                _ => {
                    self.unsupported("member of a non-object", e.span);
                    return None;
                }
            }
        };
        let mut bits = 0u64;
        let mut r = rec;
        let mut width = None;
        // the bits (from `addr`) of the record holding the field: a bitfield's load unit must
        // not reach past them (a packed record may end mid-unit)
        let mut storage = 0..0u64;
        for (n, &i) in path.iter().enumerate() {
            let types = &self.cx.typed.types;
            let rd = types.record(r);
            let (Some(fl), Some(fd)) = (
                rd.layout.as_ref().and_then(|l| l.fields.get(i)),
                rd.fields.as_ref().and_then(|f| f.get(i)),
            ) else {
                self.unsupported("member of an incomplete record", e.span);
                return None;
            };
            let record_bits = rd.layout.as_ref().map_or(0, |l| l.size * 8);
            storage = bits..bits + record_bits;
            bits += fl.bit_offset;
            if n + 1 < path.len() {
                match types.record_id(fd.ty) {
                    Some(inner) => r = inner,
                    None => {
                        self.unsupported("bad member path", e.span);
                        return None;
                    }
                }
            } else {
                width = fd.bit_width;
            }
        }
        if let Some(w) = width {
            let cls = self.class(info.ty, e.span)?;
            let mut lv = self.bitfield_lv(addr, bits, w, storage, cls, e.span)?;
            if let Lv::Bit { volatile, .. } = &mut lv {
                *volatile = info.ty.quals.contains(Quals::VOLATILE);
            }
            return Some(Ev::L(lv));
        }
        let a = self.offset(addr, (bits / 8) as i64);
        Some(Ev::L(Lv::Mem(a, info.ty)))
    }

    /// A bitfield at `bit_offset` bits from `base`: the smallest naturally aligned unit that
    /// holds it, or (packed records, where a field may straddle such units) the smallest unit
    /// starting at the byte that holds its first bit, or ending where `storage` (the bits from
    /// `base` of the record holding the field) ends: no unit reaches outside the record, whose
    /// last byte may be the last of its allocation.
    pub fn bitfield_lv(
        &mut self,
        base: Addr,
        bit_offset: u64,
        width: u32,
        storage: std::ops::Range<u64>,
        cls: Scalar,
        span: Span,
    ) -> Option<Lv> {
        let holds = |start: u64, u: u64| {
            storage.start <= start
                && start <= bit_offset
                && bit_offset + width as u64 <= start + u
                && start + u <= storage.end
        };
        let byte = bit_offset / 8 * 8;
        let aligned = [8u64, 16, 32, 64].map(|u| (bit_offset / u * u, u));
        let from_first_byte = [16u64, 32, 64].map(|u| (byte, u));
        let to_storage_end = [16u64, 32, 64].map(|u| (storage.end.saturating_sub(u), u));
        let Some((start, unit)) = aligned
            .into_iter()
            .chain(from_first_byte)
            .chain(to_storage_end)
            .find(|&(start, u)| holds(start, u))
        else {
            self.unsupported(
                "a bitfield this wide that straddles 64-bit units is not supported on the device",
                span,
            );
            return None;
        };
        let addr = self.offset(base, (start / 8) as i64);
        Some(Lv::Bit {
            addr,
            unit: Type::int(unit as u32).unwrap_or(Type::I64),
            shift: (bit_offset - start) as u32,
            width,
            cls,
            volatile: false,
        })
    }

    pub fn load_lv(&mut self, lv: &Lv) -> Value {
        if let Some(v) = self.atomic_lvalue_load(lv) {
            return v;
        }
        match *lv {
            Lv::Mem(addr, qt) => {
                let cls = self.class(qt, Span::point(0)).unwrap_or(Scalar::INT);
                let vol = qt.quals.contains(Quals::VOLATILE);
                let a = Addr {
                    align: addr.align.min(self.align_of(qt)),
                    ..addr
                };
                self.load_raw(a, cls.ty(), vol)
            }
            Lv::Bit {
                addr,
                unit,
                shift,
                width,
                cls,
                volatile,
            } => {
                let u = self.load_raw(addr, unit, volatile);
                let bits = unit.bits();
                let up = self.b.ins().iconst(unit, (bits - shift - width) as i64);
                let x = self.b.ins().shl(u, up);
                let down = self.b.ins().iconst(unit, (bits - width) as i64);
                let x = if cls.is_signed() {
                    self.b.ins().ashr(x, down)
                } else {
                    self.b.ins().lshr(x, down)
                };
                let from = Scalar::Int(unit, cls.is_signed());
                if cls == Scalar::Bool {
                    let t = self.resize(x, Type::I8, false);
                    return t;
                }
                self.convert(x, from, cls)
            }
            Lv::Func(_) => self.b.ins().iconst(Type::I32, 0),
        }
    }

    /// Stores `v` (of the lvalue's class); returns the value the object now holds.
    pub fn store_lv(&mut self, lv: &Lv, v: Value) -> Value {
        if self.atomic_lvalue_store(lv, v) {
            return v;
        }
        match *lv {
            Lv::Mem(addr, qt) => {
                let vol = qt.quals.contains(Quals::VOLATILE);
                let a = Addr {
                    align: addr.align.min(self.align_of(qt)),
                    ..addr
                };
                self.store_raw(a, v, vol);
                v
            }
            Lv::Bit {
                addr,
                unit,
                shift,
                width,
                cls,
                volatile,
            } => {
                let vt = self.b.value_type(v);
                let vu = self.resize(v, unit, false);
                let mask_bits: u64 = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                let mask = mask_bits << shift;
                let old = self.load_raw(addr, unit, volatile);
                let keep = self.b.ins().iconst(unit, !mask as i64);
                let kept = self.b.ins().and(old, keep);
                let sh = self.b.ins().iconst(unit, shift as i64);
                let moved = self.b.ins().shl(vu, sh);
                let m = self.b.ins().iconst(unit, mask as i64);
                let moved = self.b.ins().and(moved, m);
                let new = self.b.ins().or(kept, moved);
                self.store_raw(addr, new, volatile);
                // The value read back: v truncated to `width` bits, sign-extended if signed.
                if cls == Scalar::Bool || vt.bits() <= width {
                    return v;
                }
                let k = self.b.ins().iconst(vt, (vt.bits() - width) as i64);
                let x = self.b.ins().shl(v, k);
                if cls.is_signed() {
                    self.b.ins().ashr(x, k)
                } else {
                    self.b.ins().lshr(x, k)
                }
            }
            Lv::Func(_) => v,
        }
    }
}
