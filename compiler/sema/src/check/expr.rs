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

mod operator;

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
                stride,
            } => {
                // the parser accepts sections only inside OpenMP clause lists and reports
                // them elsewhere: stay silent there
                if !self.in_omp_list {
                    return None;
                }
                let bt = self.rvalue(base)?;
                for x in [lower, length, stride].into_iter().flatten() {
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
