//! Declarations: specifiers to types, declarators, linkage and redeclarations, struct/union/
//! enum definitions with their attributes, function definitions, `_Static_assert`.
//!
//! Declarators are applied inside-out (the AST lists layers from the name outward). A
//! function declarator opens a prototype scope for its parameters; for a function definition
//! the parameters of the layer nearest the name are kept and re-entered in the body's scope.

use super::{Checker, Linkage, Storage, SymbolId, SymbolInfo, SymbolKind, Tag};
use crate::consteval::ConstValue;
use crate::types::{
    ArraySize, Field, FloatKind, FnType, IntKind, QualType, Quals, RecordAttrs, RecordKind,
    TypeKind,
};
use ompcc_diag::Span;
use ompcc_syntax::ast::{
    self, AlignSpec, Attribute, DeclSpecKind, DeclSpecs, Declaration, DeclarationKind, Declarator,
    Derived, ExternalDecl, FuncSpec, FunctionDef, MemberDecl, StorageClass, TypeQual, TypeSpec,
};

mod record;

/// What a list of declaration specifiers says, besides the type.
#[derive(Default)]
pub(super) struct SpecInfo {
    /// The storage class, `_Thread_local` apart (it combines with `static` and `extern`).
    pub storage: Option<StorageClass>,
    /// `_Thread_local` / `__thread`.
    pub thread_local: bool,
    pub inline: bool,
    pub align: Option<u64>,
    pub attrs: AttrInfo,
}

/// The GNU attributes the checker understands.
#[derive(Default, Clone, Copy)]
pub(super) struct AttrInfo {
    pub packed: bool,
    pub align: Option<u64>,
    /// `mode(QI|HI|SI|DI|TI|word|pointer)`: integer size in bytes.
    pub mode: Option<u64>,
}

pub(super) fn quals_of(qs: &[TypeQual]) -> Quals {
    qs.iter().fold(Quals::NONE, |acc, q| {
        acc | match q {
            TypeQual::Const => Quals::CONST,
            TypeQual::Volatile => Quals::VOLATILE,
            TypeQual::Restrict => Quals::RESTRICT,
            TypeQual::Atomic => Quals::ATOMIC,
        }
    })
}

impl Checker<'_> {
    pub(super) fn external_decl(&mut self, item: &ExternalDecl) {
        match item {
            ExternalDecl::Function(f) => self.function_def(f),
            ExternalDecl::Decl(d) => self.declaration(d),
            ExternalDecl::Omp(d) => self.omp_declarative(d),
            ExternalDecl::Pragma(p) => self.pragma(p),
            ExternalDecl::Asm(_) | ExternalDecl::Empty(_) => {}
        }
    }

    // ----- attributes -----

    pub(super) fn attributes(&mut self, attrs: &[Attribute], into: &mut AttrInfo) {
        for a in attrs {
            for item in &a.items {
                let name = self.name(item.name.name).trim_matches('_');
                match name {
                    "packed" => into.packed = true,
                    "aligned" => {
                        let v = match item.args.first() {
                            Some(e) => self.const_int(e).and_then(|v| {
                                let v = v.as_i128()?;
                                if v > 0 && v <= 1 << 28 && (v as u128).is_power_of_two() {
                                    Some(v as u64)
                                } else {
                                    None
                                }
                            }),
                            // `aligned` alone: the largest alignment on the target
                            None => Some(16),
                        };
                        match v {
                            Some(v) => into.align = Some(into.align.map_or(v, |a| a.max(v))),
                            None => self.error(
                                "E0310",
                                "requested alignment is not a positive power of 2",
                                item.span,
                            ),
                        }
                    }
                    "mode" => {
                        let m = item.args.first().and_then(|e| match &e.kind {
                            ast::ExprKind::Ident(s) => Some(self.name(*s).trim_matches('_')),
                            _ => None,
                        });
                        into.mode = match m {
                            Some("QI" | "byte") => Some(1),
                            Some("HI") => Some(2),
                            Some("SI") => Some(4),
                            Some("DI" | "word" | "pointer") => Some(8),
                            Some("TI") => Some(16),
                            _ => {
                                self.error("E0311", "unknown machine mode", item.span);
                                None
                            }
                        };
                    }
                    _ => {}
                }
            }
        }
    }

    // ----- specifiers -----

    /// The type and the other facts a specifier list gives.
    pub(super) fn specs(&mut self, specs: &DeclSpecs) -> (Option<QualType>, SpecInfo) {
        let mut info = SpecInfo::default();
        let mut quals = Quals::NONE;
        let (mut void, mut char_, mut short, mut int, mut long, mut float, mut double) =
            (0, 0, 0, 0, 0, 0, 0);
        let (mut signed, mut unsigned, mut bool_, mut complex, mut int128) = (0, 0, 0, 0, 0);
        let mut other: Option<Option<QualType>> = None;
        let mut n_other = 0;
        let mut attrs = Vec::new();
        // attributes written after a struct/union/enum body belong to that type, not to the
        // declaration (`struct { .. } __attribute__((packed)) x;`)
        let body_at = specs.specs.iter().position(|s| {
            matches!(&s.kind, DeclSpecKind::Type(TypeSpec::Record(r)) if r.members.is_some())
                || matches!(&s.kind, DeclSpecKind::Type(TypeSpec::Enum(e)) if e.enumerators.is_some())
        });
        let type_attrs: Vec<Attribute> = match body_at {
            Some(i) => specs.specs[i + 1..]
                .iter()
                .filter_map(|s| match &s.kind {
                    DeclSpecKind::Attr(a) => Some(a.clone()),
                    _ => None,
                })
                .collect(),
            None => Vec::new(),
        };
        for (idx, s) in specs.specs.iter().enumerate() {
            match &s.kind {
                DeclSpecKind::Storage(StorageClass::ThreadLocal) => info.thread_local = true,
                DeclSpecKind::Storage(sc) => {
                    if info.storage.is_some_and(|x| x != *sc) {
                        self.error("E0302", "multiple storage classes in declaration", s.span);
                    }
                    info.storage = Some(*sc);
                }
                DeclSpecKind::Qual(q) => quals = quals | quals_of(&[*q]),
                DeclSpecKind::Func(FuncSpec::Inline) => info.inline = true,
                DeclSpecKind::Func(FuncSpec::Noreturn) => {}
                DeclSpecKind::Align(a) => {
                    let v = match a {
                        AlignSpec::Type(tn) => {
                            let t = self.type_name(tn);
                            t.and_then(|t| self.out.types.align_of(t))
                        }
                        AlignSpec::Expr(e) => self.const_int(e).and_then(|v| {
                            let v = v.as_i128()?;
                            ((0..=1 << 28).contains(&v)
                                && (v == 0 || (v as u128).is_power_of_two()))
                            .then_some(v as u64)
                        }),
                    };
                    match v {
                        Some(0) => {}
                        Some(v) => info.align = Some(info.align.map_or(v, |a| a.max(v))),
                        None => self.error(
                            "E0310",
                            "requested alignment is not a positive power of 2",
                            s.span,
                        ),
                    }
                }
                DeclSpecKind::Attr(a) => {
                    if body_at.is_none_or(|b| idx < b) {
                        attrs.push(a.clone());
                    }
                }
                DeclSpecKind::Type(t) => match t {
                    TypeSpec::Void => void += 1,
                    TypeSpec::Char => char_ += 1,
                    TypeSpec::Short => short += 1,
                    TypeSpec::Int => int += 1,
                    TypeSpec::Long => long += 1,
                    TypeSpec::Float => float += 1,
                    TypeSpec::Double => double += 1,
                    TypeSpec::Signed => signed += 1,
                    TypeSpec::Unsigned => unsigned += 1,
                    TypeSpec::Bool => bool_ += 1,
                    TypeSpec::Complex => complex += 1,
                    TypeSpec::Int128 => int128 += 1,
                    TypeSpec::FloatN(bits, ext) => {
                        let k = match (bits, ext) {
                            (32, false) => Some(FloatKind::Float),
                            (64, false) | (32, true) => Some(FloatKind::Double),
                            (64, true) => Some(FloatKind::LongDouble),
                            (128, false) => Some(FloatKind::Float128),
                            _ => None,
                        };
                        n_other += 1;
                        other = Some(match k {
                            Some(k) => {
                                // `_Complex _Float128` is written with both
                                Some(self.out.types.float(k))
                            }
                            None => {
                                self.error(
                                    "E0303",
                                    format!(
                                        "_Float{bits}{} is not supported",
                                        if *ext { "x" } else { "" }
                                    ),
                                    s.span,
                                );
                                None
                            }
                        });
                    }
                    _ => {
                        n_other += 1;
                        other = Some(self.type_spec(t, s.span, &type_attrs));
                    }
                },
            }
        }
        self.attributes(&attrs, &mut info.attrs);
        let basic = void + char_ + short + int + long + float + double + bool_ + int128;
        let sign = signed + unsigned;
        let span = specs.span;
        let bad = |c: &mut Self| {
            c.error("E0304", "invalid combination of type specifiers", span);
            None
        };
        let t = &mut self.out.types;
        let ty: Option<QualType> = if n_other > 0 {
            if n_other > 1 || basic > 0 || sign > 0 {
                bad(self)
            } else if complex > 0 {
                match other.flatten().map(|q| t.ckind(q).clone()) {
                    Some(TypeKind::Float(k)) => Some(t.complex(k)),
                    _ => bad(self),
                }
            } else {
                other.flatten()
            }
        } else if signed > 0 && unsigned > 0 || sign > 1 {
            bad(self)
        } else if void > 0 {
            if basic > 1 || sign > 0 || complex > 0 {
                bad(self)
            } else {
                Some(t.void())
            }
        } else if bool_ > 0 {
            if basic > 1 || sign > 0 || complex > 0 {
                bad(self)
            } else {
                Some(t.bool_())
            }
        } else if float > 0 || double > 0 {
            let k = match (float, double, long, short + char_ + int + int128 + sign) {
                (1, 0, 0, 0) => Some(FloatKind::Float),
                (0, 1, 0, 0) => Some(FloatKind::Double),
                (0, 1, 1, 0) => Some(FloatKind::LongDouble),
                _ => None,
            };
            match k {
                Some(k) if complex > 0 => Some(t.complex(k)),
                Some(k) => Some(t.float(k)),
                None => bad(self),
            }
        } else if complex > 0 && basic == 0 && sign == 0 {
            // GNU: `_Complex` alone is `_Complex double`
            Some(t.complex(FloatKind::Double))
        } else if complex > 0 {
            // GNU complex integer types are not supported
            self.error("E0303", "complex integer types are not supported", span);
            None
        } else {
            let u = unsigned > 0;
            let k = if char_ > 0 {
                (char_ == 1 && short + long + int + int128 == 0).then_some(if signed > 0 {
                    IntKind::SChar
                } else if u {
                    IntKind::UChar
                } else {
                    IntKind::Char
                })
            } else if int128 > 0 {
                (int128 == 1 && short + long == 0 && int <= 1).then_some(if u {
                    IntKind::UInt128
                } else {
                    IntKind::Int128
                })
            } else if short > 0 {
                (short == 1 && long == 0 && int <= 1).then_some(if u {
                    IntKind::UShort
                } else {
                    IntKind::Short
                })
            } else if long > 0 {
                match (long, int <= 1) {
                    (1, true) => Some(if u { IntKind::ULong } else { IntKind::Long }),
                    (2, true) => Some(if u {
                        IntKind::ULongLong
                    } else {
                        IntKind::LongLong
                    }),
                    _ => None,
                }
            } else if int <= 1 && (int == 1 || sign > 0) {
                Some(if u { IntKind::UInt } else { IntKind::Int })
            } else if int == 0 && sign == 0 {
                // no type specifier at all: implicit int (C89), gcc warns
                self.warn("W0302", "type defaults to 'int' in declaration", specs.span);
                Some(IntKind::Int)
            } else {
                None
            };
            match k {
                Some(k) => Some(self.out.types.int(k)),
                None => bad(self),
            }
        };
        let mut ty = ty.map(|q| q.with(quals));
        if let (Some(m), Some(q)) = (info.attrs.mode, ty)
            && self.out.types.is_integer(q)
        {
            let signed = self.out.types.is_signed_int(q);
            let k = match (m, signed) {
                (1, true) => IntKind::SChar,
                (1, false) => IntKind::UChar,
                (2, true) => IntKind::Short,
                (2, false) => IntKind::UShort,
                (4, true) => IntKind::Int,
                (4, false) => IntKind::UInt,
                (8, true) => IntKind::Long,
                (8, false) => IntKind::ULong,
                (_, true) => IntKind::Int128,
                (_, false) => IntKind::UInt128,
            };
            ty = Some(self.out.types.int(k).with(q.quals));
        }
        (ty, info)
    }

    fn type_spec(
        &mut self,
        t: &TypeSpec,
        span: Span,
        type_attrs: &[Attribute],
    ) -> Option<QualType> {
        match t {
            TypeSpec::VaList => Some(self.va_list_type()),
            TypeSpec::AutoType => {
                self.error(
                    "E0303",
                    "__auto_type is only allowed with an initializer",
                    span,
                );
                None
            }
            TypeSpec::TypedefName(id) => {
                let sym = self.lookup(id.name);
                match sym.map(|s| (s, self.out.symbols[s].kind)) {
                    Some((s, SymbolKind::Typedef)) => Some(self.out.symbols[s].ty),
                    _ => {
                        let n = self.name(id.name);
                        self.error("E0305", format!("unknown type name '{n}'"), id.span);
                        None
                    }
                }
            }
            TypeSpec::Record(r) => self.record_spec(r, type_attrs),
            TypeSpec::Enum(e) => self.enum_spec(e, type_attrs),
            TypeSpec::AtomicType(tn) => {
                let t = self.type_name(tn)?;
                Some(t.with(Quals::ATOMIC))
            }
            TypeSpec::TypeofExpr(e) => {
                self.unevaluated += 1;
                let r = self.expr(e);
                self.unevaluated -= 1;
                let info = r?;
                // typeof keeps qualifiers but not lvalue-ness; bitfields are rejected by gcc
                Some(info.ty)
            }
            TypeSpec::TypeofType(tn) => self.type_name(tn),
            // handled by the caller
            _ => None,
        }
    }

    /// `__builtin_va_list`: on x86-64 `struct __va_list_tag[1]`.
    pub(super) fn va_list_type(&mut self) -> QualType {
        let tag = "__va_list_tag";
        let rec = match self.out.tags.iter().find(|t| t.0 == tag) {
            Some(&(_, r)) => r,
            None => {
                let t = &mut self.out.types;
                let (r, _) = t.new_record(RecordKind::Struct, Some(tag.into()));
                let u = t.int(IntKind::UInt);
                let v = t.void();
                let pv = t.pointer(v);
                let f = |n: &str, ty| Field {
                    name: Some(n.into()),
                    ty,
                    bit_width: None,
                    packed: false,
                    align: None,
                };
                let fields = vec![
                    f("gp_offset", u),
                    f("fp_offset", u),
                    f("overflow_arg_area", pv),
                    f("reg_save_area", pv),
                ];
                // the fields are complete scalars: layout cannot fail
                let _ = t.complete_record(r, fields, RecordAttrs::default());
                self.out.tags.push((tag.into(), r));
                r
            }
        };
        let rt = self.out.types.record_type(rec);
        self.out.types.array(rt, ArraySize::Fixed(1))
    }

    /// C11 6.7.1p2-3: `_Thread_local` goes with `static` or `extern` only, and at block scope
    /// needs one of them (gcc's wording for each case).
    fn check_thread_local(
        &mut self,
        storage: Option<StorageClass>,
        file_scope: bool,
        is_fn: bool,
        sname: &str,
        span: Span,
    ) {
        if is_fn {
            let msg = format!("'_Thread_local' specified for function '{sname}'");
            return self.error("E0302", msg, span);
        }
        let with = match storage {
            Some(StorageClass::Typedef) => Some("typedef"),
            Some(StorageClass::Auto) => Some("auto"),
            Some(StorageClass::Register) => Some("register"),
            _ => None,
        };
        if let Some(with) = with {
            self.error("E0302", format!("'_Thread_local' used with '{with}'"), span);
        } else if storage.is_none() && !file_scope {
            self.error(
                "E0302",
                format!("function-scope '{sname}' implicitly auto and declared '_Thread_local'"),
                span,
            );
        }
    }

    pub(super) fn type_name(&mut self, tn: &ast::TypeName) -> Option<QualType> {
        let (base, info) = self.specs(&tn.specs);
        if info.storage.is_some() || info.thread_local {
            self.error(
                "E0302",
                "storage class specified in a type name",
                tn.specs.span,
            );
        }
        let base = base?;
        match &tn.declarator {
            Some(d) => {
                let t = self.declarator_type(base, d, false)?;
                self.set_decl(d.id, None, t);
                Some(t)
            }
            None => Some(base),
        }
    }

    // ----- declarators -----

    /// Applies a declarator's layers to `base`. `is_param` allows `[static n]`, `[*]` and
    /// qualifiers inside brackets.
    pub(super) fn declarator_type(
        &mut self,
        base: QualType,
        d: &Declarator,
        is_param: bool,
    ) -> Option<QualType> {
        let mut ty = base;
        let n = d.derived.len();
        for (i, layer) in d.derived.iter().enumerate().rev() {
            let outermost_for_param = is_param && i == 0;
            ty = match layer {
                Derived::Pointer { quals, .. } => self.out.types.pointer(ty).with(quals_of(quals)),
                Derived::Array {
                    span,
                    quals,
                    is_static,
                    size,
                } => {
                    if (!quals.is_empty() || *is_static) && !outermost_for_param {
                        self.error(
                            "E0306",
                            "static or type qualifiers in non-parameter array declarator",
                            *span,
                        );
                    }
                    self.array_layer(ty, size, *is_static, *span)?
                }
                Derived::Function {
                    span,
                    params,
                    variadic,
                    ..
                } => {
                    if self.out.types.is_function(ty) {
                        self.error("E0307", "function returning a function", *span);
                        return None;
                    }
                    if self.out.types.is_array(ty) {
                        self.error("E0307", "function returning an array", *span);
                        return None;
                    }
                    let nearest = i == 0 || n == 1;
                    self.function_layer(ty, params, *variadic, nearest)?
                }
            };
        }
        Some(ty)
    }

    fn array_layer(
        &mut self,
        elem: QualType,
        size: &ast::ArraySize,
        is_static: bool,
        span: Span,
    ) -> Option<QualType> {
        let t = &self.out.types;
        if t.is_function(elem) {
            self.error("E0308", "declaration of array of functions", span);
            return None;
        }
        if t.is_incomplete(elem) {
            let s = self.ty_str(elem);
            self.error(
                "E0308",
                format!("array type has incomplete element type '{s}'"),
                span,
            );
            return None;
        }
        let sz = match size {
            ast::ArraySize::Unknown => ArraySize::Incomplete,
            ast::ArraySize::Star => ArraySize::Star,
            ast::ArraySize::Expr(e) => {
                let info = self.rvalue(e)?;
                if !self.out.types.is_integer(info) {
                    let s = self.ty_str(info);
                    self.error(
                        "E0308",
                        format!("size of array has non-integer type '{s}'"),
                        e.span,
                    );
                    return None;
                }
                match super::fold::fold(&self.out, e) {
                    Some(ConstValue::Int(v)) if !self.out.types.is_vla(elem) => {
                        let neg = v.kind.is_signed() && v.value < 0;
                        if neg {
                            self.error("E0308", "size of array is negative", e.span);
                            return None;
                        }
                        self.out.consts.insert(e.id, ConstValue::Int(v));
                        let n = v.as_u128().min(u128::from(u64::MAX)) as u64;
                        let es = self.out.types.size_of(elem).unwrap_or(0);
                        if es.checked_mul(n).is_none_or(|b| b >= 1 << 60) {
                            self.error("E0308", "size of array is too large", e.span);
                            return None;
                        }
                        ArraySize::Fixed(n)
                    }
                    _ => {
                        if self.at_file_scope() && self.func.is_none() {
                            match super::fold::eval_error(&self.out, e) {
                                Some((sp, err)) => {
                                    self.error("E0402", format!("{err} in constant expression"), sp)
                                }
                                None => self.error(
                                    "E0308",
                                    "variably modified type at file scope",
                                    e.span,
                                ),
                            }
                            return None;
                        }
                        let v = self.out.types.new_vla_size();
                        self.out.vla_sizes.insert(v, e.id);
                        ArraySize::Vla(v)
                    }
                }
            }
        };
        Some(if is_static {
            self.out.types.array_static(elem, sz)
        } else {
            self.out.types.array(elem, sz)
        })
    }

    fn function_layer(
        &mut self,
        ret: QualType,
        params: &[ast::ParamDecl],
        variadic: bool,
        nearest: bool,
    ) -> Option<QualType> {
        self.push_scope();
        let mut tys = Vec::new();
        let mut named = Vec::new();
        let mut ok = true;
        let only_void = params.len() == 1
            && params[0]
                .declarator
                .as_ref()
                .is_none_or(|d| d.name.is_none() && d.derived.is_empty());
        for (i, p) in params.iter().enumerate() {
            let (base, info) = self.specs(&p.specs);
            if matches!(info.storage, Some(s) if s != StorageClass::Register) || info.thread_local {
                self.error(
                    "E0302",
                    "storage class specified for parameter",
                    p.specs.span,
                );
            }
            let Some(base) = base else {
                ok = false;
                continue;
            };
            let ty = match &p.declarator {
                Some(d) => self.declarator_type(base, d, true),
                None => Some(base),
            };
            let Some(ty) = ty else {
                ok = false;
                continue;
            };
            if self.out.types.is_void(ty) {
                if only_void && i == 0 && ty.quals.is_empty() {
                    break;
                }
                self.error("E0309", "parameter has void type", p.span);
                ok = false;
                continue;
            }
            let adj = self.adjust_param(ty);
            let name = p.declarator.as_ref().and_then(|d| d.name);
            let sym = self.new_symbol(SymbolInfo {
                name: name
                    .map(|n| self.name(n.name).to_string())
                    .unwrap_or_default(),
                kind: SymbolKind::Object,
                ty: adj,
                linkage: Linkage::None,
                storage: Storage::Automatic,
                defined: true,
                tentative: false,
                is_param: true,
                is_inline: false,
                is_register: info.storage == Some(StorageClass::Register),
                asm_label: None,
                span: p.span,
                align: None,
            });
            if let Some(d) = &p.declarator {
                self.set_decl(d.id, Some(sym), adj);
            }
            if let Some(n) = name {
                if self.lookup_current(n.name).is_some() {
                    let s = self.name(n.name);
                    self.error("E0312", format!("redefinition of parameter '{s}'"), n.span);
                }
                self.bind(n.name, sym);
            }
            named.push((name.map(|n| n.name), sym));
            tys.push(adj.unqual());
        }
        self.pop_scope();
        if nearest {
            self.last_params = named;
        }
        if !ok {
            return None;
        }
        let prototyped = !params.is_empty();
        Some(self.out.types.function(FnType {
            ret: ret.unqual(),
            params: tys,
            variadic,
            prototyped,
        }))
    }

    /// Parameter adjustment: arrays to pointers (keeping bracket qualifiers), functions to
    /// pointers to functions.
    pub(super) fn adjust_param(&mut self, ty: QualType) -> QualType {
        let t = &mut self.out.types;
        match t.ckind(ty).clone() {
            TypeKind::Array { elem, .. } => t.pointer(elem),
            TypeKind::Function(_) => t.pointer(ty),
            _ => ty,
        }
    }

    // ----- declarations -----

    pub(super) fn declaration(&mut self, d: &Declaration) {
        match &d.kind {
            DeclarationKind::StaticAssert(sa) => self.static_assert(sa),
            DeclarationKind::Vars { specs, declarators } => {
                if specs
                    .specs
                    .iter()
                    .any(|s| matches!(s.kind, DeclSpecKind::Type(TypeSpec::AutoType)))
                {
                    self.auto_type_decl(specs, declarators);
                    return;
                }
                let (base, info) = self.specs(specs);
                let Some(base) = base else {
                    return;
                };
                if declarators.is_empty() {
                    // `struct s;` / `enum e {..};` declare tags only
                    let is_tag = specs.specs.iter().any(|s| {
                        matches!(
                            s.kind,
                            DeclSpecKind::Type(TypeSpec::Record(_) | TypeSpec::Enum(_))
                        )
                    });
                    if !is_tag {
                        self.warn("W0303", "useless type name in empty declaration", d.span);
                    }
                    return;
                }
                for id in declarators {
                    self.init_declarator(base, &info, id);
                }
            }
        }
    }

    /// GNU `__auto_type x = e;`: the type of `e` after lvalue conversion and decay.
    fn auto_type_decl(&mut self, specs: &DeclSpecs, declarators: &[ast::InitDeclarator]) {
        let mut quals = Quals::NONE;
        let mut info = SpecInfo::default();
        for s in &specs.specs {
            match &s.kind {
                DeclSpecKind::Qual(q) => quals = quals | quals_of(&[*q]),
                DeclSpecKind::Storage(StorageClass::ThreadLocal) => info.thread_local = true,
                DeclSpecKind::Storage(sc) => info.storage = Some(*sc),
                _ => {}
            }
        }
        for id in declarators {
            let Some(ast::Initializer::Expr(e)) = &id.init else {
                self.error(
                    "E0303",
                    "'__auto_type' requires a plain initializer",
                    id.span,
                );
                continue;
            };
            // type the initializer once to learn its type; the declaration below checks it
            // again and reports its diagnostics
            let mark = self.diags.len();
            let t = self.rvalue(e);
            self.diags.truncate(mark);
            let Some(t) = t else {
                self.rvalue(e);
                continue;
            };
            self.init_declarator(t.with(quals), &info, id);
        }
    }

    fn init_declarator(&mut self, base: QualType, info: &SpecInfo, id: &ast::InitDeclarator) {
        let d = &id.declarator;
        let mut dattrs = info.attrs;
        self.attributes(&d.attrs, &mut dattrs);
        // `__auto_type x = e;`
        let Some(mut ty) = self.declarator_type(base, d, false) else {
            return;
        };
        let Some(name) = d.name else {
            self.set_decl(d.id, None, ty);
            return;
        };
        let file_scope = self.at_file_scope();
        let sname = self.name(name.name).to_string();
        let align = match (info.align, dattrs.align) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        if info.thread_local {
            let is_fn = self.out.types.is_function(ty);
            self.check_thread_local(info.storage, file_scope, is_fn, &sname, name.span);
        }
        if info.storage == Some(StorageClass::Typedef) {
            if id.init.is_some() {
                self.error(
                    "E0313",
                    format!("typedef '{sname}' is initialized"),
                    id.span,
                );
            }
            let td = self.out.types.new_typedef(sname.clone(), ty, dattrs.align);
            if let Some(prev) = self.lookup_current(name.name) {
                let p = &self.out.symbols[prev];
                if p.kind != SymbolKind::Typedef || !self.out.types.compatible(p.ty, ty) {
                    self.error(
                        "E0314",
                        format!("conflicting types for '{sname}'"),
                        name.span,
                    );
                }
            }
            let sym = self.new_symbol(SymbolInfo {
                name: sname,
                kind: SymbolKind::Typedef,
                ty: td,
                linkage: Linkage::None,
                storage: Storage::Static,
                defined: true,
                tentative: false,
                is_param: false,
                is_inline: false,
                is_register: false,
                asm_label: None,
                span: name.span,
                align,
            });
            self.bind(name.name, sym);
            self.set_decl(d.id, Some(sym), td);
            return;
        }
        let is_fn = self.out.types.is_function(ty);
        let storage = info.storage;
        if is_fn && id.init.is_some() {
            self.error(
                "E0313",
                format!("function '{sname}' is initialized like a variable"),
                id.span,
            );
        }
        if !file_scope && is_fn && matches!(storage, Some(StorageClass::Static)) {
            self.error(
                "E0302",
                format!("invalid storage class for function '{sname}'"),
                name.span,
            );
        }
        if file_scope && matches!(storage, Some(StorageClass::Auto | StorageClass::Register)) {
            self.error(
                "E0302",
                format!("file-scope declaration of '{sname}' specifies 'auto' or 'register'"),
                name.span,
            );
        }
        // linkage (C11 6.2.2)
        let prior_linkage = self
            .lookup(name.name)
            .filter(|s| self.out.symbols[*s].linkage != Linkage::None)
            .map(|s| self.out.symbols[s].linkage);
        let linkage = if file_scope {
            match storage {
                Some(StorageClass::Static) => Linkage::Internal,
                Some(StorageClass::Extern) | None if is_fn => {
                    prior_linkage.unwrap_or(Linkage::External)
                }
                Some(StorageClass::Extern) => prior_linkage.unwrap_or(Linkage::External),
                _ => Linkage::External,
            }
        } else if is_fn || storage == Some(StorageClass::Extern) {
            prior_linkage.unwrap_or(Linkage::External)
        } else {
            Linkage::None
        };
        let storage_dur = match storage {
            _ if info.thread_local && !is_fn => Storage::Thread,
            _ if file_scope || is_fn => Storage::Static,
            Some(StorageClass::Static | StorageClass::Extern) => Storage::Static,
            _ => Storage::Automatic,
        };
        if self.out.types.is_vla(ty)
            && storage_dur != Storage::Automatic
            && linkage == Linkage::None
        {
            self.error(
                "E0308",
                format!("storage size of '{sname}' isn't constant"),
                name.span,
            );
        } else if linkage == Linkage::None && self.out.types.is_variably_modified(ty) {
            // fine: block-scope VLA or pointer to one
        } else if self.out.types.is_vla(ty) {
            self.error(
                "E0308",
                format!("object '{sname}' with variably modified type must have no linkage"),
                name.span,
            );
        }
        let asm_label = d.asm_label.as_ref().map(|s| {
            s.value
                .iter()
                .filter_map(|&c| char::from_u32(c))
                .collect::<String>()
        });
        // redeclaration
        let existing = if linkage != Linkage::None {
            self.lookup_current(name.name)
                .or_else(|| self.externals.get(&name.name).copied())
        } else {
            self.lookup_current(name.name)
        };
        let sym = match existing {
            Some(prev)
                if self.lookup_current(name.name) == Some(prev) || linkage != Linkage::None =>
            {
                let p = self.out.symbols[prev].clone();
                let redecl_ok = p.linkage != Linkage::None
                    && linkage != Linkage::None
                    && matches!(p.kind, SymbolKind::Object | SymbolKind::Function);
                if !redecl_ok {
                    if self.lookup_current(name.name) == Some(prev) {
                        let msg = if p.kind == SymbolKind::Typedef
                            || is_fn != (p.kind == SymbolKind::Function)
                        {
                            format!("'{sname}' redeclared as different kind of symbol")
                        } else {
                            format!("redeclaration of '{sname}' with no linkage")
                        };
                        self.diags.push(
                            ompcc_diag::Diagnostic::error("E0315", msg, name.span)
                                .with_label(p.span, "previous declaration"),
                        );
                    }
                    None
                } else {
                    // a K&R definition after an old-style declaration (`double f();`): both
                    // declare no prototype, so they agree whatever the parameters' types
                    let old_style = d.derived.iter().any(|l| {
                        matches!(
                            l,
                            Derived::Function {
                                old_style: true,
                                ..
                            }
                        )
                    });
                    let composite = match (self.out.types.fn_type(p.ty), self.out.types.fn_type(ty))
                    {
                        (Some(old), Some(new))
                            if old_style
                                && !old.prototyped
                                && self.out.types.compatible(old.ret, new.ret) =>
                        {
                            Some(ty)
                        }
                        _ => self.out.types.composite(p.ty, ty),
                    };
                    match composite {
                        Some(c) => {
                            if p.linkage == Linkage::Internal
                                && linkage == Linkage::External
                                && storage.is_none()
                                && !is_fn
                            {
                                self.error(
                                    "E0316",
                                    format!("non-static declaration of '{sname}' follows static declaration"),
                                    name.span,
                                );
                            } else if p.linkage == Linkage::External
                                && storage == Some(StorageClass::Static)
                            {
                                self.error(
                                    "E0316",
                                    format!("static declaration of '{sname}' follows non-static declaration"),
                                    name.span,
                                );
                            }
                            let s = &mut self.out.symbols[prev];
                            s.ty = c;
                            ty = c;
                            if storage != Some(StorageClass::Extern) && file_scope && !is_fn {
                                s.tentative = true;
                            }
                            if asm_label.is_some() {
                                s.asm_label = asm_label.clone();
                            }
                            s.is_inline |= info.inline;
                            Some(prev)
                        }
                        None => {
                            let pt = self.ty_str(p.ty);
                            let nt = self.ty_str(ty);
                            self.diags.push(
                                ompcc_diag::Diagnostic::error(
                                    "E0314",
                                    format!("conflicting types for '{sname}'; have '{nt}'"),
                                    name.span,
                                )
                                .with_label(p.span, format!("previous declaration of type '{pt}'")),
                            );
                            None
                        }
                    }
                }
            }
            _ => None,
        };
        let sym = match sym {
            Some(s) => s,
            None => {
                let s = self.new_symbol(SymbolInfo {
                    name: sname.clone(),
                    kind: if is_fn {
                        SymbolKind::Function
                    } else {
                        SymbolKind::Object
                    },
                    ty,
                    linkage,
                    storage: storage_dur,
                    defined: false,
                    tentative: file_scope && !is_fn && storage != Some(StorageClass::Extern),
                    is_param: false,
                    is_inline: info.inline,
                    is_register: storage == Some(StorageClass::Register),
                    asm_label,
                    span: name.span,
                    align,
                });
                if linkage != Linkage::None {
                    self.externals.insert(name.name, s);
                }
                s
            }
        };
        self.bind(name.name, sym);
        self.set_decl(d.id, Some(sym), ty);
        if self.declare_target_depth > 0 && file_scope {
            self.out.declare_target.insert(sym);
            self.mark_indirect_in_region(sym);
        }
        if let Some(init) = &id.init {
            if storage == Some(StorageClass::Extern) && !file_scope {
                self.error(
                    "E0313",
                    format!("'{sname}' has both 'extern' and initializer"),
                    id.span,
                );
                return;
            }
            if self.out.symbols[sym].defined && file_scope {
                self.error("E0317", format!("redefinition of '{sname}'"), name.span);
            }
            let is_static = storage_dur != Storage::Automatic;
            let new_ty = self.initializer(ty, init, super::InitKey::Decl(d.id), is_static);
            if let Some(t) = new_ty {
                self.out.symbols[sym].ty = t;
                self.set_decl(d.id, Some(sym), t);
                ty = t;
            }
            self.out.symbols[sym].defined = true;
        } else if linkage == Linkage::None
            && !is_fn
            && self.out.types.is_incomplete(ty)
            && !self.out.types.is_vla(ty)
        {
            self.error(
                "E0318",
                format!("storage size of '{sname}' isn't known"),
                name.span,
            );
        }
        if !is_fn && self.out.types.is_void(ty) {
            self.error(
                "E0309",
                format!("variable '{sname}' declared void"),
                name.span,
            );
        }
    }

    fn static_assert(&mut self, sa: &ast::StaticAssert) {
        let Some(v) = self.const_int(&sa.cond) else {
            return;
        };
        if v.is_zero() {
            let msg = sa
                .message
                .as_ref()
                .map(|m| {
                    m.value
                        .iter()
                        .filter_map(|&c| char::from_u32(c))
                        .collect::<String>()
                })
                .unwrap_or_default();
            self.error(
                "E0319",
                format!("static assertion failed: \"{msg}\""),
                sa.span,
            );
        }
    }

    // ----- functions -----

    fn function_def(&mut self, f: &FunctionDef) {
        let (base, info) = self.specs(&f.specs);
        let Some(base) = base else { return };
        let d = &f.declarator;
        let Some(name) = d.name else { return };
        let fn_derived_first = matches!(d.derived.first(), Some(Derived::Function { .. }));
        if !fn_derived_first {
            let n = self.name(name.name);
            self.error(
                "E0325",
                format!("'{n}' is defined like a function but is not one"),
                name.span,
            );
            return;
        }
        // declare it through the ordinary path (linkage, redeclaration checks)
        let idecl = ast::InitDeclarator {
            span: f.span,
            declarator: d.clone(),
            init: None,
        };
        self.last_params.clear();
        self.init_declarator(base, &info, &idecl);
        let params = std::mem::take(&mut self.last_params);
        let Some(sym) = self.out.decl_symbol(d.id) else {
            return;
        };
        let sname = self.name(name.name).to_string();
        if self.out.symbols[sym].defined {
            let prev = self.out.symbols[sym].span;
            self.diags.push(
                ompcc_diag::Diagnostic::error(
                    "E0317",
                    format!("redefinition of '{sname}'"),
                    name.span,
                )
                .with_label(prev, "previous definition"),
            );
        }
        self.out.symbols[sym].defined = true;
        let fty = self.out.symbols[sym].ty;
        let Some(ft) = self.out.types.fn_type(fty).cloned() else {
            return;
        };
        if !self.out.types.is_void(ft.ret) && self.out.types.is_incomplete(ft.ret) {
            let s = self.ty_str(ft.ret);
            self.error(
                "E0326",
                format!("return type is an incomplete type '{s}'"),
                name.span,
            );
        }
        self.reported_undeclared.clear();
        self.func = Some(super::FuncCtx {
            ret: ft.ret,
            name: sname,
            labels_defined: Default::default(),
            labels_used: Vec::new(),
        });
        self.push_scope();
        for (pname, psym) in &params {
            match pname {
                Some(n) => self.bind(*n, *psym),
                None => {
                    let sp = self.out.symbols[*psym].span;
                    self.error("E0327", "parameter name omitted", sp);
                }
            }
        }
        // `__func__`
        let fname = self
            .func
            .as_ref()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        let ch = self.out.types.int(IntKind::Char).with(Quals::CONST);
        let arr = self
            .out
            .types
            .array(ch, ArraySize::Fixed(fname.len() as u64 + 1));
        // Three objects, as gcc makes them (a map of one must not take another's address).
        let names: Vec<(&str, ast::Symbol)> = ["__func__", "__FUNCTION__", "__PRETTY_FUNCTION__"]
            .iter()
            .filter_map(|n| Some((*n, self.tu.symbols.get(n)?)))
            .collect();
        for (spelling, n) in names {
            let fsym = self.new_symbol(SymbolInfo {
                name: spelling.into(),
                kind: SymbolKind::Object,
                ty: arr,
                linkage: Linkage::None,
                storage: Storage::Static,
                defined: true,
                tentative: false,
                is_param: false,
                is_inline: false,
                is_register: false,
                asm_label: None,
                span: name.span,
                align: None,
            });
            self.bind(n, fsym);
        }
        for item in &f.body.items {
            self.block_item(item);
        }
        self.pop_scope();
        self.finish_labels();
        self.func = None;
    }

    /// Registers a symbol for compiler-provided entities (builtins).
    pub(super) fn declare_builtin_fn(&mut self, name: ast::Symbol, ty: QualType) -> SymbolId {
        let sym = self.new_symbol(SymbolInfo {
            name: self.name(name).to_string(),
            kind: SymbolKind::Function,
            ty,
            linkage: Linkage::External,
            storage: Storage::Static,
            defined: false,
            tentative: false,
            is_param: false,
            is_inline: false,
            is_register: false,
            asm_label: None,
            span: Span::new(0, 0),
            align: None,
        });
        if let Some(s) = self.scopes.first_mut() {
            s.ordinary.insert(name, sym);
        }
        self.externals.insert(name, sym);
        sym
    }
}
