//! Operators (C11 6.5.3-6.5.16): unary, cast, binary with the usual arithmetic conversions
//! and pointer arithmetic, assignment and its conversions (6.5.16.1), and `?:`, with the
//! overflow warnings for constant operands.

use super::*;

impl Checker<'_> {
    pub(super) fn unary(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> Option<ExprInfo> {
        match op {
            UnaryOp::AddrOf => {
                let i = self.expr(x)?;
                if i.kind == ValueKind::RValue {
                    self.error("E0423", "lvalue required as unary '&' operand", e.span);
                    return None;
                }
                if i.bitfield.is_some() {
                    self.error("E0415", "cannot take address of bit-field", e.span);
                    return None;
                }
                if let ExprKind::Ident(_) = strip_parens(x).kind
                    && let Some(s) = self.out.ident_symbols.get(&strip_parens(x).id)
                    && self.out.symbols[*s].is_register
                {
                    self.error("E0423", "address of register variable requested", e.span);
                    return None;
                }
                Some(rv(self.out.types.pointer(i.ty)))
            }
            UnaryOp::Deref => {
                let t = self.rvalue(x)?;
                let Some(p) = self.out.types.pointee(t) else {
                    let s = self.ty_str(t);
                    self.error(
                        "E0424",
                        format!("invalid type argument of unary '*' (have '{s}')"),
                        e.span,
                    );
                    return None;
                };
                let kind = if self.out.types.is_function(p) {
                    ValueKind::Function
                } else {
                    ValueKind::LValue
                };
                Some(ExprInfo {
                    ty: p,
                    kind,
                    conv: p,
                    bitfield: None,
                })
            }
            UnaryOp::Plus | UnaryOp::Minus => {
                let t = self.rvalue(x)?;
                if !self.out.types.is_arithmetic(t) {
                    let s = self.ty_str(t);
                    self.error(
                        "E0425",
                        format!(
                            "wrong type argument to unary {} ('{s}')",
                            if op == UnaryOp::Plus { "plus" } else { "minus" }
                        ),
                        e.span,
                    );
                    return None;
                }
                let p = self.out.types.promote(t);
                self.set_conv(x.id, p);
                Some(rv(p))
            }
            UnaryOp::BitNot => {
                let t = self.rvalue(x)?;
                let types = &mut self.out.types;
                if !(types.is_integer(t) || types.is_complex(t)) {
                    let s = self.ty_str(t);
                    self.error(
                        "E0425",
                        format!("wrong type argument to bit-complement ('{s}')"),
                        e.span,
                    );
                    return None;
                }
                let p = types.promote(t);
                self.set_conv(x.id, p);
                Some(rv(p))
            }
            UnaryOp::Not => {
                let t = self.rvalue(x)?;
                if !self.out.types.is_scalar(t) {
                    let s = self.ty_str(t);
                    self.error(
                        "E0425",
                        format!("wrong type argument to unary exclamation mark ('{s}')"),
                        e.span,
                    );
                    return None;
                }
                Some(rv(self.out.types.int(IntKind::Int)))
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let i = self.expr(x)?;
                let what = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
                    "increment"
                } else {
                    "decrement"
                };
                if !self.check_modifiable(x, &i, &format!("{what} operand")) {
                    return None;
                }
                let types = &self.out.types;
                let ok = types.is_real(i.ty)
                    || types.is_complex(i.ty)
                    || types
                        .pointee(i.ty)
                        .is_some_and(|p| !types.is_incomplete(p) || types.is_void(p));
                if !ok {
                    let s = self.ty_str(i.ty);
                    self.error(
                        "E0425",
                        format!("wrong type argument to {what} ('{s}')"),
                        e.span,
                    );
                    return None;
                }
                let t = self.out.types.canon(i.ty).unqual();
                Some(ExprInfo {
                    bitfield: None,
                    ..rv(t)
                })
            }
            UnaryOp::Real | UnaryOp::Imag => {
                let i = self.expr(x)?;
                let types = &mut self.out.types;
                let t = match types.ckind(i.ty).clone() {
                    TypeKind::Complex(k) => types.float(k).with(i.ty.quals),
                    _ if types.is_arithmetic(i.ty) => i.ty,
                    _ => {
                        let s = self.ty_str(i.ty);
                        self.error(
                            "E0425",
                            format!("wrong type argument to __real__/__imag__ ('{s}')"),
                            e.span,
                        );
                        return None;
                    }
                };
                Some(ExprInfo {
                    ty: t,
                    kind: i.kind,
                    conv: t,
                    bitfield: None,
                })
            }
        }
    }

    pub(super) fn cast(&mut self, e: &Expr, tn: &ast::TypeName, x: &Expr) -> Option<ExprInfo> {
        let to = self.type_name(tn);
        let from = self.rvalue(x);
        let (to, from) = (to?, from?);
        let types = &self.out.types;
        if types.is_void(to) {
            return Some(rv(to.unqual()));
        }
        if !types.is_scalar(to) {
            // GNU cast to union from one of its member types
            if let Some(r) = types.record_id(to)
                && types.record(r).kind == crate::types::RecordKind::Union
                && types
                    .record(r)
                    .fields
                    .as_ref()
                    .is_some_and(|fs| fs.iter().any(|f| types.compatible_unqual(f.ty, from)))
            {
                return Some(rv(to.unqual()));
            }
            if types.compatible_unqual(to, from) {
                return Some(rv(to.unqual()));
            }
            let s = self.ty_str(to);
            self.error(
                "E0426",
                format!("conversion to non-scalar type '{s}' requested"),
                e.span,
            );
            return None;
        }
        if !types.is_scalar(from) {
            let s = self.ty_str(from);
            self.error(
                "E0426",
                format!(
                    "used {} type value where scalar is required",
                    if types.is_record(from) {
                        "struct/union"
                    } else {
                        &s
                    }
                ),
                x.span,
            );
            return None;
        }
        if (types.is_pointer(to) && types.is_floating(from))
            || (types.is_floating(to) && types.is_pointer(from))
        {
            self.error(
                "E0426",
                "cannot convert between pointer and floating type",
                e.span,
            );
            return None;
        }
        Some(rv(to.unqual()))
    }

    pub(super) fn binary(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        l: &Expr,
        r: &Expr,
    ) -> Option<ExprInfo> {
        let lt = self.rvalue(l);
        let rt = self.rvalue(r);
        let (lt, rt) = (lt?, rt?);
        let t = self.binary_type(e.span, op, l, r, lt, rt)?;
        self.warn_constant_overflow(e, op, l, r, t);
        Some(rv(t))
    }

    /// gcc's -Woverflow for signed arithmetic on constants (`INT_MAX + 1`).
    fn warn_constant_overflow(&mut self, e: &Expr, op: BinaryOp, l: &Expr, r: &Expr, t: QualType) {
        let iop = match op {
            BinaryOp::Add => IntOp::Add,
            BinaryOp::Sub => IntOp::Sub,
            BinaryOp::Mul => IntOp::Mul,
            BinaryOp::Div => IntOp::Div,
            _ => return,
        };
        if !self.out.types.is_signed_int(t) {
            return;
        }
        let (Some(ConstValue::Int(a)), Some(ConstValue::Int(b))) =
            (fold(&self.out, l), fold(&self.out, r))
        else {
            return;
        };
        if let Ok(f) = int_binop(iop, a, b)
            && f.overflow
        {
            let ts = self.ty_str(t);
            self.warn(
                "W0409",
                format!(
                    "integer overflow in expression of type '{ts}' results in '{}'",
                    f.value.value
                ),
                e.span,
            );
        }
    }

    /// Types `l op r` given the operands' value types; sets the operands' conversions.
    fn binary_type(
        &mut self,
        span: Span,
        op: BinaryOp,
        l: &Expr,
        r: &Expr,
        lt: QualType,
        rt: QualType,
    ) -> Option<QualType> {
        use BinaryOp::*;
        let int = self.out.types.int(IntKind::Int);
        let types = &self.out.types;
        let both_arith = types.is_arithmetic(lt) && types.is_arithmetic(rt);
        let both_int = types.is_integer(lt) && types.is_integer(rt);
        let lp = types.pointee(lt);
        let rp = types.pointee(rt);
        let bad = |c: &mut Self| {
            let (a, b) = (c.ty_str(lt), c.ty_str(rt));
            c.error(
                "E0427",
                format!(
                    "invalid operands to binary {} (have '{a}' and '{b}')",
                    op_str(op)
                ),
                span,
            );
            None
        };
        match op {
            Mul | Div | Add | Sub if both_arith => Some(self.arith(l, r, lt, rt)),
            Rem | BitAnd | BitOr | BitXor if both_int => Some(self.arith(l, r, lt, rt)),
            Add | Sub if lp.is_some() && types.is_integer(rt) => {
                self.pointer_arith_check(span, lp?)?;
                Some(lt)
            }
            Add if rp.is_some() && types.is_integer(lt) => {
                self.pointer_arith_check(span, rp?)?;
                Some(rt)
            }
            Sub if lp.is_some() && rp.is_some() => {
                let (a, b) = (lp?, rp?);
                if !types.compatible_unqual(a, b) {
                    return bad(self);
                }
                self.pointer_arith_check(span, a)?;
                Some(
                    self.out
                        .types
                        .int(crate::types::TypeTable::ptrdiff_t_kind()),
                )
            }
            Shl | Shr if both_int => {
                let pl = self.out.types.promote(lt);
                let pr = self.out.types.promote(rt);
                self.set_conv(l.id, pl);
                self.set_conv(r.id, pr);
                Some(pl)
            }
            Lt | Gt | Le | Ge | Eq | Ne => {
                let equality = matches!(op, Eq | Ne);
                let real = types.is_real(lt) && types.is_real(rt);
                if real || (equality && both_arith) {
                    self.arith(l, r, lt, rt);
                    return Some(int);
                }
                match (lp, rp) {
                    (Some(a), Some(b)) => {
                        let ok = types.compatible_unqual(a, b)
                            || equality && (types.is_void(a) || types.is_void(b));
                        if !ok {
                            let (x, y) = (self.ty_str(lt), self.ty_str(rt));
                            self.warn("W0401", format!("comparison of distinct pointer types ('{x}' and '{y}') lacks a cast"), span);
                        }
                        Some(int)
                    }
                    (Some(_), None) if types.is_integer(rt) => {
                        if !(equality && self.is_null_constant(r)) {
                            self.warn("W0402", "comparison between pointer and integer", span);
                        }
                        self.set_conv(r.id, lt);
                        Some(int)
                    }
                    (None, Some(_)) if types.is_integer(lt) => {
                        if !(equality && self.is_null_constant(l)) {
                            self.warn("W0402", "comparison between pointer and integer", span);
                        }
                        self.set_conv(l.id, rt);
                        Some(int)
                    }
                    _ => bad(self),
                }
            }
            LogAnd | LogOr => {
                if !types.is_scalar(lt) || !types.is_scalar(rt) {
                    return bad(self);
                }
                Some(int)
            }
            _ => bad(self),
        }
    }

    fn pointer_arith_check(&mut self, span: Span, pointee: QualType) -> Option<()> {
        let types = &self.out.types;
        // GNU: arithmetic on void* and function pointers uses size 1
        if types.is_incomplete(pointee) && !types.is_void(pointee) && !types.is_function(pointee) {
            let s = self.ty_str(pointee);
            self.error(
                "E0418",
                format!("arithmetic on pointer to incomplete type '{s}'"),
                span,
            );
            return None;
        }
        Some(())
    }

    /// Usual arithmetic conversions on two operands; returns the common type.
    fn arith(&mut self, l: &Expr, r: &Expr, lt: QualType, rt: QualType) -> QualType {
        let c = self.out.types.usual_arith(lt, rt);
        self.set_conv(l.id, c);
        self.set_conv(r.id, c);
        c
    }

    pub(super) fn assign(
        &mut self,
        e: &Expr,
        op: Option<BinaryOp>,
        l: &Expr,
        r: &Expr,
    ) -> Option<ExprInfo> {
        let li = self.expr(l);
        let rt = self.rvalue(r);
        let (li, rt) = (li?, rt?);
        if !self.check_modifiable(l, &li, "assignment") {
            return None;
        }
        let lt = self.out.types.canon(li.ty).unqual();
        match op {
            None => {
                self.assign_convert(r, rt, lt, "assignment")?;
            }
            Some(bop) => {
                // compound assignment: `l = l op r`, with l read as a value
                let lv = self.decay(li.ty);
                let res = self.binary_type(e.span, bop, l, r, lv, rt)?;
                // the operation is done in `res`; the result converts back to the lhs type
                self.out.compound_types.insert(e.id, res);
                self.set_conv(l.id, li.ty);
            }
        }
        Some(ExprInfo {
            bitfield: None,
            ..rv(lt)
        })
    }

    /// Checks that a value of type `from` (expression `e`) can be converted as if by
    /// assignment to `to` (C11 6.5.16.1) and records the conversion. `what` names the context
    /// for messages ("assignment", "initialization", "return", "passing argument 2 of 'f'").
    pub(in crate::check) fn assign_convert(
        &mut self,
        e: &Expr,
        from: QualType,
        to: QualType,
        what: &str,
    ) -> Option<()> {
        let types = &self.out.types;
        let to_u = types.canon(to).unqual();
        let ok = if types.is_arithmetic(to_u) && types.is_arithmetic(from) {
            true
        } else if types.is_record(to_u) || types.is_record(from) {
            if !types.compatible_unqual(to_u, from) {
                let (a, b) = (self.ty_str(to), self.ty_str(from));
                self.error(
                    "E0428",
                    format!("incompatible types when {what} to type '{a}' from type '{b}'"),
                    e.span,
                );
                return None;
            }
            true
        } else if let Some(tp) = types.pointee(to_u) {
            if self.is_null_constant(e) {
                // `(void *)0` converts to any pointer, function pointers included
                true
            } else if let Some(fp) = types.pointee(from) {
                let compatible = types.compatible_unqual(tp, fp)
                    || (types.is_void(tp) && !types.is_function(fp))
                    || (types.is_void(fp) && !types.is_function(tp));
                if !compatible {
                    let (a, b) = (self.ty_str(to), self.ty_str(from));
                    self.warn(
                        "W0403",
                        format!("incompatible pointer types in {what} to '{a}' from '{b}'"),
                        e.span,
                    );
                } else if !tp.quals.contains(fp.quals.without(Quals::ATOMIC)) {
                    self.warn(
                        "W0404",
                        format!("{what} discards qualifiers from pointer target type"),
                        e.span,
                    );
                }
                true
            } else if types.is_integer(from) {
                if !self.is_null_constant(e) {
                    self.warn(
                        "W0405",
                        format!("{what} makes pointer from integer without a cast"),
                        e.span,
                    );
                }
                true
            } else {
                false
            }
        } else if types.is_integer(to_u) && types.is_pointer(from) {
            if !matches!(types.ckind(to_u), TypeKind::Bool) {
                self.warn(
                    "W0405",
                    format!("{what} makes integer from pointer without a cast"),
                    e.span,
                );
            }
            true
        } else {
            false
        };
        if !ok {
            let (a, b) = (self.ty_str(to), self.ty_str(from));
            self.error(
                "E0428",
                format!("incompatible types when {what} to type '{a}' from type '{b}'"),
                e.span,
            );
            return None;
        }
        self.set_conv(e.id, to_u);
        self.warn_conversion_overflow(e, from, to_u);
        Some(())
    }

    /// gcc's -Woverflow for a constant converted to a narrower integer type: warns when the
    /// value fits neither the signed nor the unsigned type of that width.
    fn warn_conversion_overflow(&mut self, e: &Expr, from: QualType, to: QualType) {
        let types = &self.out.types;
        let Some(k) = types.int_kind(to) else {
            return;
        };
        if !types.is_integer(from) {
            return;
        }
        let Some(ConstValue::Int(v)) = fold_raw_value(&self.out, e) else {
            return;
        };
        let Some(x) = v.as_i128() else {
            return;
        };
        let signed = match k {
            IntKind::UChar | IntKind::Char => IntKind::SChar,
            k if !k.is_signed() => match k {
                IntKind::UShort => IntKind::Short,
                IntKind::UInt => IntKind::Int,
                IntKind::ULong => IntKind::Long,
                IntKind::ULongLong => IntKind::LongLong,
                _ => IntKind::Int128,
            },
            k => k,
        };
        let lo = signed.min_value();
        let hi = k.to_unsigned().max_value();
        if x < lo || x > hi {
            let new = v.cast(k);
            let (fs, ts) = (self.ty_str(from), self.ty_str(to));
            self.warn(
                "W0410",
                format!(
                    "overflow in conversion from '{fs}' to '{ts}' changes value from '{x}' to '{}'",
                    if k.is_signed() {
                        new.value.to_string()
                    } else {
                        new.as_u128().to_string()
                    }
                ),
                e.span,
            );
        }
    }

    pub(super) fn cond(
        &mut self,
        e: &Expr,
        c: &Expr,
        t: Option<&Expr>,
        f: &Expr,
    ) -> Option<ExprInfo> {
        let ct = self.rvalue(c);
        let tt = match t {
            Some(t) => self.rvalue(t),
            None => ct,
        };
        let ft = self.rvalue(f);
        let (ct, tt, ft) = (ct?, tt?, ft?);
        if !self.out.types.is_scalar(ct) {
            let s = self.ty_str(ct);
            self.error(
                "E0429",
                format!("used '{s}' where scalar is required"),
                c.span,
            );
            return None;
        }
        let t_e = t.unwrap_or(c);
        let types = &self.out.types;
        let res = if types.is_arithmetic(tt) && types.is_arithmetic(ft) {
            let common = self.out.types.usual_arith(tt, ft);
            if t.is_some() {
                self.set_conv(t_e.id, common);
            }
            self.set_conv(f.id, common);
            common
        } else if types.is_void(tt) || types.is_void(ft) {
            self.out.types.void()
        } else if types.is_record(tt) || types.is_record(ft) {
            if !types.compatible_unqual(tt, ft) {
                return self.cond_mismatch(e, tt, ft);
            }
            tt
        } else if let (Some(a), Some(b)) = (types.pointee(tt), types.pointee(ft)) {
            let q = a.quals | b.quals;
            let r = if types.is_void(a) || types.is_void(b) {
                self.out.types.void().with(q)
            } else if let Some(c) = self.out.types.composite(a.unqual(), b.unqual()) {
                c.with(q)
            } else {
                let (x, y) = (self.ty_str(tt), self.ty_str(ft));
                self.warn(
                    "W0406",
                    format!("pointer type mismatch in conditional expression ('{x}' and '{y}')"),
                    e.span,
                );
                self.out.types.void().with(q)
            };
            self.out.types.pointer(r)
        } else if types.is_pointer(tt) && types.is_integer(ft) {
            if !self.is_null_constant(f) {
                self.warn(
                    "W0407",
                    "pointer/integer type mismatch in conditional expression",
                    e.span,
                );
            }
            self.set_conv(f.id, tt);
            tt
        } else if types.is_pointer(ft) && types.is_integer(tt) {
            if !self.is_null_constant(t_e) {
                self.warn(
                    "W0407",
                    "pointer/integer type mismatch in conditional expression",
                    e.span,
                );
            }
            self.set_conv(t_e.id, ft);
            ft
        } else {
            return self.cond_mismatch(e, tt, ft);
        };
        Some(rv(res))
    }

    fn cond_mismatch(&mut self, e: &Expr, a: QualType, b: QualType) -> Option<ExprInfo> {
        let (x, y) = (self.ty_str(a), self.ty_str(b));
        self.error(
            "E0429",
            format!("type mismatch in conditional expression ('{x}' and '{y}')"),
            e.span,
        );
        None
    }
}

fn op_str(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        Mul => "*",
        Div => "/",
        Rem => "%",
        Add => "+",
        Sub => "-",
        Shl => "<<",
        Shr => ">>",
        Lt => "<",
        Gt => ">",
        Le => "<=",
        Ge => ">=",
        Eq => "==",
        Ne => "!=",
        BitAnd => "&",
        BitXor => "^",
        BitOr => "|",
        LogAnd => "&&",
        LogOr => "||",
    }
}
