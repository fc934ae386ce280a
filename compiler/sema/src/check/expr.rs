//! Expressions: typing (C11 6.5), implicit conversions recorded as each expression's `conv`,
//! lvalue checks, and constant folding over the typed tree.
//!
//! Conventions: [`Checker::expr`] types an expression and records it with `conv` = its
//! unqualified type; [`Checker::rvalue`] additionally applies lvalue conversion and array /
//! function decay; parents then overwrite `conv` with the type they convert the operand to.
//! [`fold`] replays exactly these conversions, so constant values agree with the lowering.

use super::fold::{eval_error, fold, fold_raw_value};
use super::{Checker, ExprInfo, SymbolKind, ValueKind};
use crate::consteval::{ConstInt, ConstValue, IntOp, int_binop};
use crate::types::{ArraySize, FloatKind, FnType, IntKind, QualType, Quals, TypeKind};
use ompcc_diag::{Diagnostic, Span};
use ompcc_syntax::ast::{
    self, BinaryOp, CharPrefix, Expr, ExprKind, FloatSuffix, OffsetofMember, UnaryOp,
};

pub(super) fn rv(ty: QualType) -> ExprInfo {
    ExprInfo {
        ty,
        kind: ValueKind::RValue,
        conv: ty.unqual(),
        bitfield: None,
    }
}

impl Checker<'_> {
    /// Types `e` and records it; `None` after an error (already reported).
    pub(super) fn expr(&mut self, e: &Expr) -> Option<ExprInfo> {
        let info = self.expr_inner(e)?;
        let info = ExprInfo {
            conv: if info.kind == ValueKind::RValue {
                info.ty.unqual()
            } else {
                info.conv
            },
            ..info
        };
        self.set_expr(e.id, info);
        Some(info)
    }

    /// Types `e` as a value: lvalue conversion, array-to-pointer and function-to-pointer
    /// decay. Returns the converted type.
    pub(super) fn rvalue(&mut self, e: &Expr) -> Option<QualType> {
        let info = self.expr(e)?;
        let mut t = self.decay(info.ty);
        // a narrow bitfield reads as the type its values promote to (`unsigned x:3` is int)
        if let Some(w) = info.bitfield
            && self.out.types.is_integer(t)
        {
            t = self.out.types.promote_bitfield(t, w);
        }
        self.set_conv(e.id, t);
        Some(t)
    }

    /// The type a value of type `ty` has after lvalue conversion and decay.
    pub(super) fn decay(&mut self, ty: QualType) -> QualType {
        let types = &mut self.out.types;
        match types.ckind(ty).clone() {
            TypeKind::Array { elem, .. } => types.pointer(elem),
            TypeKind::Function(_) => types.pointer(ty.unqual()),
            _ => types.canon(ty).unqual(),
        }
    }

    /// Checks an integer constant expression and returns its value.
    pub(super) fn const_int(&mut self, e: &Expr) -> Option<ConstInt> {
        let t = self.rvalue(e)?;
        if !self.out.types.is_integer(t) {
            let s = self.ty_str(t);
            self.error(
                "E0401",
                format!("integer constant expression has type '{s}'"),
                e.span,
            );
            return None;
        }
        match fold(&self.out, e) {
            Some(ConstValue::Int(v)) => {
                self.out.consts.insert(e.id, ConstValue::Int(v));
                Some(v)
            }
            _ => {
                match eval_error(&self.out, e) {
                    Some((sp, err)) => {
                        self.error("E0402", format!("{err} in constant expression"), sp)
                    }
                    None => self.error(
                        "E0402",
                        "expression is not an integer constant expression",
                        e.span,
                    ),
                }
                None
            }
        }
    }

    pub(super) fn is_null_constant(&self, e: &Expr) -> bool {
        let Some(info) = self.info(e.id) else {
            return false;
        };
        let t = &self.out.types;
        let ok_type = t.is_integer(info.ty)
            || t.pointee(info.ty)
                .is_some_and(|p| t.is_void(p) && p.quals.is_empty())
                && matches!(strip_parens(e).kind, ExprKind::Cast(..));
        ok_type && matches!(fold(&self.out, e), Some(ConstValue::Int(v)) if v.is_zero())
    }

    fn expr_inner(&mut self, e: &Expr) -> Option<ExprInfo> {
        let types = &mut self.out.types;
        match &e.kind {
            ExprKind::Int {
                value,
                suffix,
                decimal,
            } => {
                let k = int_literal_kind(*value, suffix, *decimal);
                if k.is_none() {
                    self.error(
                        "E0403",
                        "integer constant is too large for its type",
                        e.span,
                    );
                }
                let k = k.unwrap_or(IntKind::UInt128);
                let mut t = self.out.types.int(k);
                if suffix.imaginary {
                    t = self.out.types.complex(FloatKind::Double);
                }
                Some(rv(t))
            }
            ExprKind::Float {
                suffix, imaginary, ..
            } => {
                let k = match suffix {
                    FloatSuffix::None => FloatKind::Double,
                    FloatSuffix::F => FloatKind::Float,
                    FloatSuffix::L => FloatKind::LongDouble,
                    FloatSuffix::FloatN(32, false) => FloatKind::Float,
                    FloatSuffix::FloatN(64, false) | FloatSuffix::FloatN(32, true) => {
                        FloatKind::Double
                    }
                    FloatSuffix::FloatN(64, true) => FloatKind::LongDouble,
                    FloatSuffix::FloatN(128, false) => FloatKind::Float128,
                    FloatSuffix::FloatN(..) => {
                        self.error("E0403", "unsupported floating constant suffix", e.span);
                        return None;
                    }
                };
                if *imaginary {
                    return Some(rv(types.complex(k)));
                }
                Some(rv(types.float(k)))
            }
            ExprKind::Char { prefix, .. } => {
                let k = match prefix {
                    CharPrefix::None | CharPrefix::Utf8 | CharPrefix::Wide => IntKind::Int,
                    CharPrefix::U16 => IntKind::UShort,
                    CharPrefix::U32 => IntKind::UInt,
                };
                Some(rv(types.int(k)))
            }
            ExprKind::Str(s) => {
                let elem = match s.prefix {
                    CharPrefix::None | CharPrefix::Utf8 => types.int(IntKind::Char),
                    CharPrefix::Wide => types.int(IntKind::Int),
                    CharPrefix::U16 => types.int(IntKind::UShort),
                    CharPrefix::U32 => types.int(IntKind::UInt),
                };
                let t = types.array(elem, ArraySize::Fixed(s.value.len() as u64 + 1));
                Some(ExprInfo {
                    ty: t,
                    kind: ValueKind::LValue,
                    conv: t,
                    bitfield: None,
                })
            }
            ExprKind::Ident(name) => self.ident(e, *name),
            ExprKind::Paren(inner) => {
                let i = self.expr(inner)?;
                Some(ExprInfo { conv: i.ty, ..i })
            }
            ExprKind::Generic(ctrl, assocs) => self.generic(e, ctrl, assocs),
            ExprKind::Index(a, b) => self.index(e, a, b),
            ExprKind::ArraySection {
                base,
                lower,
                length,
            } => {
                // the parser accepts sections only inside OpenMP clause lists and reports
                // them elsewhere: stay silent there
                if !self.in_omp_list {
                    return None;
                }
                let bt = self.rvalue(base)?;
                for x in [lower, length].into_iter().flatten() {
                    let t = self.rvalue(x)?;
                    if !self.out.types.is_integer(t) {
                        self.error("E0405", "array section bound is not an integer", x.span);
                    }
                }
                let Some(elem) = self.out.types.pointee(bt) else {
                    let s = self.ty_str(bt);
                    self.error(
                        "E0405",
                        format!("array section of non-array type '{s}'"),
                        base.span,
                    );
                    return None;
                };
                if self.out.types.is_incomplete(elem) {
                    let s = self.ty_str(elem);
                    self.error(
                        "E0405",
                        format!("array section of incomplete element type '{s}'"),
                        e.span,
                    );
                    return None;
                }
                Some(ExprInfo {
                    ty: elem,
                    kind: ValueKind::LValue,
                    conv: elem,
                    bitfield: None,
                })
            }
            ExprKind::Call(f, args) => self.call(e, f, args),
            ExprKind::Member { base, name, arrow } => self.member(e, base, *name, *arrow),
            ExprKind::Unary(op, x) => self.unary(e, *op, x),
            ExprKind::CompoundLiteral(tn, list) => {
                let t = self.type_name(tn)?;
                if self.out.types.is_vla(t) {
                    self.error("E0406", "compound literal has variable size", tn.span);
                    return None;
                }
                let init = ast::Initializer::List(list.clone());
                let static_storage = self.func.is_none();
                let t = self
                    .initializer(
                        t,
                        &init,
                        super::InitKey::CompoundLiteral(e.id),
                        static_storage,
                    )
                    .unwrap_or(t);
                Some(ExprInfo {
                    ty: t,
                    kind: ValueKind::LValue,
                    conv: t,
                    bitfield: None,
                })
            }
            ExprKind::SizeofExpr(x) => {
                self.unevaluated += 1;
                let r = self.expr(x);
                self.unevaluated -= 1;
                let i = r?;
                if i.bitfield.is_some() {
                    self.error("E0407", "'sizeof' applied to a bit-field", e.span);
                    return None;
                }
                self.sizeof_result(e, i.ty)
            }
            ExprKind::SizeofType(tn) => {
                let t = self.type_name(tn)?;
                self.sizeof_result(e, t)
            }
            ExprKind::AlignofType(tn) => {
                let t = self.type_name(tn)?;
                self.alignof_result(e, t)
            }
            ExprKind::AlignofExpr(x) => {
                self.unevaluated += 1;
                let r = self.expr(x);
                self.unevaluated -= 1;
                let i = r?;
                // gcc: __alignof__ of a declared object honours its aligned attribute
                let decl_align = match &strip_parens(x).kind {
                    ExprKind::Ident(_) => self
                        .out
                        .ident_symbols
                        .get(&strip_parens(x).id)
                        .and_then(|s| self.out.symbols[*s].align),
                    _ => None,
                };
                let r = self.alignof_result(e, i.ty)?;
                if let Some(a) = decl_align
                    && let Some(ConstValue::Int(v)) = self.out.consts.get(&e.id).copied()
                {
                    let k = crate::types::TypeTable::size_t_kind();
                    let m = (v.value as u64).max(a);
                    self.out
                        .consts
                        .insert(e.id, ConstValue::Int(ConstInt::new(m.into(), k)));
                }
                Some(r)
            }
            ExprKind::Cast(tn, x) => self.cast(e, tn, x),
            ExprKind::Binary(op, l, r) => self.binary(e, *op, l, r),
            ExprKind::Assign(op, l, r) => self.assign(e, *op, l, r),
            ExprKind::Cond(c, t, f) => self.cond(e, c, t.as_deref(), f),
            ExprKind::Comma(l, r) => {
                self.expr(l);
                let t = self.rvalue(r)?;
                Some(rv(t))
            }
            ExprKind::StmtExpr(block) => {
                self.push_scope();
                let mut last = None;
                for (i, item) in block.items.iter().enumerate() {
                    let is_last = i + 1 == block.items.len();
                    match item {
                        ast::BlockItem::Stmt(ast::Stmt {
                            kind: ast::StmtKind::Expr(Some(x)),
                            ..
                        }) if is_last => {
                            last = self.rvalue(x);
                        }
                        _ => self.block_item(item),
                    }
                }
                self.pop_scope();
                let t = match last {
                    Some(t) => t,
                    None => self.out.types.void(),
                };
                Some(rv(t))
            }
            ExprKind::VaArg(ap, tn) => {
                let at = self.rvalue(ap);
                let t = self.type_name(tn)?;
                if let Some(at) = at {
                    let va = self.va_list_type();
                    let va = self.decay(va);
                    if !self.out.types.compatible_unqual(at, va) {
                        let s = self.ty_str(at);
                        self.error(
                            "E0408",
                            format!("first argument to 'va_arg' not of type 'va_list' (has '{s}')"),
                            ap.span,
                        );
                    }
                }
                if self.out.types.is_incomplete(t) {
                    let s = self.ty_str(t);
                    self.error(
                        "E0408",
                        format!("'va_arg' of incomplete type '{s}'"),
                        tn.span,
                    );
                    return None;
                }
                Some(rv(t))
            }
            ExprKind::Offsetof(tn, path) => self.offsetof(e, tn, path),
            ExprKind::TypesCompatible(a, b) => {
                let ta = self.type_name(a)?;
                let tb = self.type_name(b)?;
                let same = self.out.types.compatible_unqual(ta, tb);
                let int = self.out.types.int(IntKind::Int);
                self.out.consts.insert(
                    e.id,
                    ConstValue::Int(ConstInt::new(i128::from(same), IntKind::Int)),
                );
                Some(rv(int))
            }
            ExprKind::LabelAddr(l) => {
                if let Some(f) = self.func.as_mut() {
                    f.labels_used.push((l.name, l.span));
                } else {
                    self.error("E0409", "label address outside a function", e.span);
                }
                let v = self.out.types.void();
                Some(rv(self.out.types.pointer(v)))
            }
        }
    }

    fn ident(&mut self, e: &Expr, name: ast::Symbol) -> Option<ExprInfo> {
        let Some(sym) = self.lookup(name) else {
            // reported once per function (or once at file scope), as gcc does
            if self.reported_undeclared.insert(name) {
                let n = self.name(name);
                self.diags.push(
                    Diagnostic::error("E0410", format!("'{n}' undeclared"), e.span).with_note(
                        "each undeclared identifier is reported only once for each function it appears in",
                    ),
                );
            }
            return None;
        };
        self.out.ident_symbols.insert(e.id, sym);
        if self.out.symbols[sym].kind == SymbolKind::Object {
            self.check_default_none(sym, e.span);
        }
        let s = &self.out.symbols[sym];
        match s.kind {
            SymbolKind::Typedef => {
                let n = self.name(name);
                self.error(
                    "E0411",
                    format!("unexpected type name '{n}': expected expression"),
                    e.span,
                );
                None
            }
            SymbolKind::EnumConstant(_) => Some(rv(s.ty)),
            SymbolKind::Function => Some(ExprInfo {
                ty: s.ty,
                kind: ValueKind::Function,
                conv: s.ty,
                bitfield: None,
            }),
            SymbolKind::Object => Some(ExprInfo {
                ty: s.ty,
                kind: ValueKind::LValue,
                conv: s.ty,
                bitfield: None,
            }),
        }
    }

    fn sizeof_result(&mut self, e: &Expr, t: QualType) -> Option<ExprInfo> {
        let types = &self.out.types;
        let k = crate::types::TypeTable::size_t_kind();
        let size = if types.is_void(t) || types.is_function(t) {
            // GNU: sizeof(void) and sizeof(function) are 1
            Some(1)
        } else if types.is_vla(t) {
            None
        } else if types.is_incomplete(t) {
            let s = self.ty_str(t);
            self.error(
                "E0412",
                format!("invalid application of 'sizeof' to incomplete type '{s}'"),
                e.span,
            );
            return None;
        } else {
            types.size_of(t)
        };
        if let Some(n) = size {
            self.out
                .consts
                .insert(e.id, ConstValue::Int(ConstInt::new(n.into(), k)));
        }
        Some(rv(self.out.types.int(k)))
    }

    fn alignof_result(&mut self, e: &Expr, t: QualType) -> Option<ExprInfo> {
        let types = &self.out.types;
        let k = crate::types::TypeTable::size_t_kind();
        let a = if types.is_void(t) || types.is_function(t) {
            Some(1)
        } else {
            types.align_of(t)
        };
        let Some(a) = a else {
            let s = self.ty_str(t);
            self.error(
                "E0412",
                format!("invalid application of '_Alignof' to incomplete type '{s}'"),
                e.span,
            );
            return None;
        };
        self.out
            .consts
            .insert(e.id, ConstValue::Int(ConstInt::new(a.into(), k)));
        Some(rv(self.out.types.int(k)))
    }

    fn offsetof(
        &mut self,
        e: &Expr,
        tn: &ast::TypeName,
        path: &[OffsetofMember],
    ) -> Option<ExprInfo> {
        let mut t = self.type_name(tn)?;
        let mut off: u64 = 0;
        let mut constant = true;
        for m in path {
            match m {
                OffsetofMember::Field(id) => {
                    let Some(rec) = self
                        .out
                        .types
                        .record_id(t)
                        .filter(|_| !self.out.types.is_incomplete(t))
                    else {
                        let s = self.ty_str(t);
                        self.error(
                            "E0413",
                            format!("'{s}' is not a complete struct or union"),
                            id.span,
                        );
                        return None;
                    };
                    let n = self.name(id.name);
                    let Some((p, ft)) = self.out.types.find_member(rec, n) else {
                        let s = self.ty_str(t);
                        self.error("E0414", format!("'{s}' has no member named '{n}'"), id.span);
                        return None;
                    };
                    // the path walks through anonymous members, so sum every level
                    let mut r = rec;
                    for (depth, &i) in p.iter().enumerate() {
                        let rd = self.out.types.record(r);
                        let fl = rd.layout.as_ref().and_then(|l| l.fields.get(i)).copied();
                        let fty = rd
                            .fields
                            .as_ref()
                            .and_then(|f| f.get(i))
                            .map(|f| (f.ty, f.bit_width));
                        let (Some(fl), Some((fty, bw))) = (fl, fty) else {
                            return None;
                        };
                        if bw.is_some() {
                            self.error("E0415", "attempt to take address of bit-field", id.span);
                            return None;
                        }
                        off += fl.bit_offset / 8;
                        if depth + 1 < p.len() {
                            r = self.out.types.record_id(fty)?;
                        }
                    }
                    t = ft;
                }
                OffsetofMember::Index(ix) => {
                    let Some(elem) = self.out.types.array_elem(t) else {
                        let s = self.ty_str(t);
                        self.error(
                            "E0413",
                            format!("subscripted value '{s}' is not an array"),
                            ix.span,
                        );
                        return None;
                    };
                    let it = self.rvalue(ix)?;
                    if !self.out.types.is_integer(it) {
                        self.error("E0416", "array subscript is not an integer", ix.span);
                        return None;
                    }
                    let es = self.out.types.size_of(elem).unwrap_or(0);
                    match fold(&self.out, ix) {
                        Some(ConstValue::Int(v)) => {
                            off = off.wrapping_add((v.value as u64).wrapping_mul(es));
                        }
                        _ => constant = false,
                    }
                    t = elem;
                }
            }
        }
        let k = crate::types::TypeTable::size_t_kind();
        if constant {
            self.out
                .consts
                .insert(e.id, ConstValue::Int(ConstInt::new(off.into(), k)));
        }
        Some(rv(self.out.types.int(k)))
    }

    fn generic(&mut self, e: &Expr, ctrl: &Expr, assocs: &[ast::GenericAssoc]) -> Option<ExprInfo> {
        self.unevaluated += 1;
        let ct = self.rvalue(ctrl);
        self.unevaluated -= 1;
        let ct = ct?;
        let mut chosen = None;
        let mut default = None;
        for a in assocs {
            match &a.ty {
                Some(tn) => {
                    if let Some(t) = self.type_name(tn)
                        && self.out.types.compatible(t, ct)
                    {
                        if chosen.is_some() {
                            self.error(
                                "E0417",
                                "_Generic selector matches multiple associations",
                                a.span,
                            );
                        }
                        chosen = Some(&a.expr);
                    }
                }
                None => default = Some(&a.expr),
            }
        }
        let Some(sel) = chosen.or(default) else {
            let s = self.ty_str(ct);
            self.error(
                "E0417",
                format!("'_Generic' selector of type '{s}' is not compatible with any association"),
                ctrl.span,
            );
            return None;
        };
        for a in assocs {
            if std::ptr::eq(&a.expr, sel) {
                continue;
            }
            // unselected associations are not evaluated, but must be valid
            self.unevaluated += 1;
            self.expr(&a.expr);
            self.unevaluated -= 1;
        }
        let i = self.expr(sel)?;
        self.out.selected.insert(e.id, sel.id);
        Some(ExprInfo { conv: i.ty, ..i })
    }

    fn index(&mut self, e: &Expr, a: &Expr, b: &Expr) -> Option<ExprInfo> {
        let ta = self.rvalue(a);
        let tb = self.rvalue(b);
        let (ta, tb) = (ta?, tb?);
        let types = &self.out.types;
        let (ptr, idx, idx_e) = if types.is_pointer(ta) {
            (ta, tb, b)
        } else if types.is_pointer(tb) {
            (tb, ta, a)
        } else {
            self.error(
                "E0416",
                "subscripted value is neither array nor pointer",
                e.span,
            );
            return None;
        };
        if !types.is_integer(idx) {
            self.error("E0416", "array subscript is not an integer", idx_e.span);
            return None;
        }
        let elem = types.pointee(ptr)?;
        if types.is_incomplete(elem) && !types.is_void(elem) {
            let s = self.ty_str(elem);
            self.error(
                "E0418",
                format!("subscript of pointer to incomplete type '{s}'"),
                e.span,
            );
            return None;
        }
        Some(ExprInfo {
            ty: elem,
            kind: ValueKind::LValue,
            conv: elem,
            bitfield: None,
        })
    }

    fn member(&mut self, e: &Expr, base: &Expr, name: ast::Ident, arrow: bool) -> Option<ExprInfo> {
        let (rec_ty, lvalue) = if arrow {
            let t = self.rvalue(base)?;
            let Some(p) = self.out.types.pointee(t) else {
                let s = self.ty_str(t);
                self.error(
                    "E0419",
                    format!("invalid type argument of '->' (have '{s}')"),
                    base.span,
                );
                return None;
            };
            (p, true)
        } else {
            let i = self.expr(base)?;
            (i.ty, i.kind == ValueKind::LValue)
        };
        let types = &self.out.types;
        let n = self.name(name.name);
        let Some(rec) = types.record_id(rec_ty) else {
            let s = self.ty_str(rec_ty);
            let mut d = Diagnostic::error(
                "E0419",
                format!(
                    "request for member '{n}' in something not a structure or union (type '{s}')"
                ),
                name.span,
            );
            if !arrow && types.pointee(rec_ty).is_some_and(|p| types.is_record(p)) {
                d = d.with_help("it is a pointer: did you mean to use '->'?");
            }
            self.diags.push(d);
            return None;
        };
        if types.is_incomplete(rec_ty) {
            let s = self.ty_str(rec_ty);
            self.error(
                "E0420",
                format!("dereferencing pointer to incomplete type '{s}'"),
                e.span,
            );
            return None;
        }
        let Some((path, fty)) = types.find_member(rec, n) else {
            let s = self.ty_str(rec_ty);
            self.error(
                "E0414",
                format!("'{s}' has no member named '{n}'"),
                name.span,
            );
            return None;
        };
        // the innermost field tells whether it is a bitfield
        let mut r = rec;
        let mut width = None;
        for (d, &i) in path.iter().enumerate() {
            let f = types.record(r).fields.as_ref().and_then(|f| f.get(i))?;
            width = f.bit_width;
            if d + 1 < path.len() {
                r = types.record_id(f.ty)?;
            }
        }
        let quals = types.canon(rec_ty).quals;
        let ty = fty.with(quals.without(Quals::RESTRICT));
        self.out.member_paths.insert(e.id, (rec, path));
        Some(ExprInfo {
            ty,
            kind: if lvalue {
                ValueKind::LValue
            } else {
                ValueKind::RValue
            },
            conv: ty,
            bitfield: width,
        })
    }

    fn check_modifiable(&mut self, e: &Expr, info: &ExprInfo, what: &str) -> bool {
        if info.kind != ValueKind::LValue {
            self.error("E0421", format!("lvalue required as {what}"), e.span);
            return false;
        }
        let types = &self.out.types;
        let c = types.canon(info.ty);
        if types.is_array(c) {
            self.error(
                "E0421",
                "assignment to expression with array type".to_string(),
                e.span,
            );
            return false;
        }
        if c.quals.contains(Quals::CONST) || self.record_has_const(c) {
            let s = match &strip_parens(e).kind {
                ExprKind::Ident(n) => format!("read-only variable '{}'", self.name(*n)),
                ExprKind::Member { name, .. } => {
                    format!("read-only member '{}'", self.name(name.name))
                }
                _ => "read-only location".to_string(),
            };
            self.error("E0422", format!("{what} of {s}"), e.span);
            return false;
        }
        if types.is_incomplete(c) {
            self.error("E0421", format!("{what} of incomplete type"), e.span);
            return false;
        }
        true
    }

    fn record_has_const(&self, q: QualType) -> bool {
        let types = &self.out.types;
        let Some(r) = types.record_id(q) else {
            return false;
        };
        types.record(r).fields.as_ref().is_some_and(|fs| {
            fs.iter().any(|f| {
                types.canon(f.ty).quals.contains(Quals::CONST) || self.record_has_const(f.ty)
            })
        })
    }

    fn unary(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> Option<ExprInfo> {
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

    fn cast(&mut self, e: &Expr, tn: &ast::TypeName, x: &Expr) -> Option<ExprInfo> {
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

    fn binary(&mut self, e: &Expr, op: BinaryOp, l: &Expr, r: &Expr) -> Option<ExprInfo> {
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

    fn assign(&mut self, e: &Expr, op: Option<BinaryOp>, l: &Expr, r: &Expr) -> Option<ExprInfo> {
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
    pub(super) fn assign_convert(
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

    fn cond(&mut self, e: &Expr, c: &Expr, t: Option<&Expr>, f: &Expr) -> Option<ExprInfo> {
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

    fn call(&mut self, e: &Expr, f: &Expr, args: &[Expr]) -> Option<ExprInfo> {
        // builtins with special typing
        if let ExprKind::Ident(name) = strip_parens(f).kind
            && self.lookup(name).is_none()
        {
            if let Some(g) = self.generic_builtins.get(&name).copied() {
                return self.generic_builtin_call(e, name, g, args);
            }
            if let Some(b) = crate::atomic::AtomicBuiltin::from_name(self.name(name)) {
                return self.atomic_builtin_call(e, name, b, args);
            }
            if !self.declare_omp_routine(name) {
                // C89 implicit declaration: `int name()`, as gcc does with a warning
                let n = self.name(name);
                self.warn(
                    "W0408",
                    format!("implicit declaration of function '{n}'"),
                    f.span,
                );
                let int = self.out.types.int(IntKind::Int);
                let ft = self.out.types.function(FnType {
                    ret: int,
                    params: vec![],
                    variadic: false,
                    prototyped: false,
                });
                let sym = self.declare_builtin_fn(name, ft);
                self.out.symbols[sym].span = f.span;
            }
        }
        let ft = self.rvalue(f);
        let arg_tys: Vec<Option<QualType>> = args.iter().map(|a| self.rvalue(a)).collect();
        let ft = ft?;
        let fnt = self
            .out
            .types
            .pointee(ft)
            .and_then(|p| self.out.types.fn_type(p).cloned());
        let Some(fnt) = fnt else {
            let s = self.ty_str(ft);
            self.error(
                "E0430",
                format!("called object is not a function or function pointer (type '{s}')"),
                f.span,
            );
            return None;
        };
        let fname = match &strip_parens(f).kind {
            ExprKind::Ident(n) => self.name(*n).to_string(),
            _ => "function".into(),
        };
        if fname == "__builtin_expect" && !args.is_empty() {
            // `__builtin_expect(x, c)` has the value of x
            self.out.selected.insert(e.id, args[0].id);
        }
        if fnt.prototyped {
            let n = fnt.params.len();
            if args.len() < n || (!fnt.variadic && args.len() > n) {
                let which = if args.len() < n {
                    "too few"
                } else {
                    "too many"
                };
                let mut d = Diagnostic::error(
                    "E0431",
                    format!(
                        "{which} arguments to function '{fname}' (expected {n}{}, have {})",
                        if fnt.variadic { " or more" } else { "" },
                        args.len()
                    ),
                    e.span,
                );
                // point at the declaration when it is in the source
                if let Some(sym) = self.out.ident_symbols.get(&strip_parens(f).id)
                    && !self.out.symbols[*sym].span.is_empty()
                {
                    d = d.with_label(self.out.symbols[*sym].span, "declared here");
                }
                self.diags.push(d);
            }
        }
        for (i, (a, at)) in args.iter().zip(&arg_tys).enumerate() {
            let Some(at) = *at else { continue };
            match fnt.params.get(i).filter(|_| fnt.prototyped) {
                Some(&pt) => {
                    let _ = self.assign_convert(
                        a,
                        at,
                        pt,
                        &format!("passing argument {} of '{fname}'", i + 1),
                    );
                }
                None => {
                    if self.out.types.is_incomplete(at) && !self.out.types.is_void(at)
                        || self.out.types.is_void(at)
                    {
                        self.error("E0432", "invalid use of void expression", a.span);
                        continue;
                    }
                    let p = self.out.types.default_arg_promote(at);
                    self.set_conv(a.id, p);
                }
            }
        }
        let ret = fnt.ret;
        if !self.out.types.is_void(ret) && self.out.types.is_incomplete(ret) {
            let s = self.ty_str(ret);
            self.error(
                "E0432",
                format!("calling function with incomplete return type '{s}'"),
                e.span,
            );
            return None;
        }
        Some(rv(ret.unqual()))
    }
}

pub(super) fn strip_parens(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(x) => strip_parens(x),
        _ => e,
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

/// The type of an integer literal (C11 6.4.4.1p5); `None` if no standard type holds it
/// (gcc then uses `__int128` types only for explicit casts, so this is an error).
fn int_literal_kind(v: u128, s: &ast::IntSuffix, decimal: bool) -> Option<IntKind> {
    use IntKind::*;
    let cands: &[IntKind] = match (s.unsigned, s.long, decimal) {
        (false, 0, true) => &[Int, Long],
        (false, 0, false) => &[Int, UInt, Long, ULong],
        (true, 0, _) => &[UInt, ULong],
        (false, 1, true) => &[Long],
        (false, 1, false) => &[Long, ULong],
        (true, 1, _) => &[ULong],
        (false, _, true) => &[LongLong],
        (false, _, false) => &[LongLong, ULongLong],
        (true, _, _) => &[ULongLong],
    };
    cands
        .iter()
        .copied()
        .find(|k| v <= k.max_value() as u128)
        // gcc: a decimal constant too large for long is given unsigned long, with a warning
        .or_else(|| (v <= u128::from(u64::MAX)).then_some(ULong))
}
