//! Initializers (C11 6.7.9): scalars, string literals into character arrays, nested braces
//! with brace elision, designators (`.m`, `[i]`, GNU `[a ... b]`), arrays of unknown size
//! completed by their initializer, and the constant-ness required for static storage.
//!
//! The result is a flat list of [`InitEntry`] (bit offset, subobject type, expression) per
//! initialized object, so lowering only zero-fills and stores. Positions are tracked with a
//! stack of "current object" frames, outermost first, as the standard describes.

use super::expr::strip_parens;
use super::{Checker, InitEntry, InitKey, SymbolKind, ValueKind};
use crate::types::{ArraySize, QualType, RecordKind, TypeKind};
use ompcc_syntax::ast::{Designator, Expr, ExprKind, InitList, Initializer};

#[derive(Clone, Copy)]
struct Frame {
    ty: QualType,
    base: u64,
    idx: u64,
}

/// A subobject: type, bit offset, bitfield width.
type Sub = (QualType, u64, Option<u32>);

impl Checker<'_> {
    /// Checks `init` for an object of type `ty`. Returns the object's type, completed when
    /// `ty` is an array of unknown size; `None` after an error.
    pub(super) fn initializer(
        &mut self,
        ty: QualType,
        init: &Initializer,
        key: InitKey,
        is_static: bool,
    ) -> Option<QualType> {
        if self.out.types.is_vla(ty) {
            self.error(
                "E0340",
                "variable-sized object may not be initialized",
                init.span(),
            );
            return None;
        }
        let mut entries = Vec::new();
        let t = self.init_object(ty, init, 0, None, &mut entries, is_static, true);
        self.out.inits.insert(key, entries);
        t
    }

    /// Initializes one (sub)object from an initializer; returns its (completed) type.
    #[allow(clippy::too_many_arguments)]
    fn init_object(
        &mut self,
        ty: QualType,
        init: &Initializer,
        base: u64,
        width: Option<u32>,
        out: &mut Vec<InitEntry>,
        is_static: bool,
        top: bool,
    ) -> Option<QualType> {
        match init {
            Initializer::Expr(e) => {
                if let Some(t) = self.string_init(ty, e, base, out) {
                    return t;
                }
                if self.out.types.is_array(ty) {
                    self.error(
                        "E0341",
                        "array initialized from non-string expression",
                        e.span,
                    );
                    return None;
                }
                let et = self.rvalue(e)?;
                if self.out.types.is_incomplete(ty) {
                    let s = self.ty_str(ty);
                    self.error(
                        "E0342",
                        format!("variable has incomplete type '{s}'"),
                        e.span,
                    );
                    return None;
                }
                self.assign_convert(e, et, ty, "initialization")?;
                if is_static {
                    self.require_constant(e);
                }
                out.push(InitEntry {
                    bit_offset: base,
                    ty,
                    expr: e.id,
                    bit_width: width,
                });
                Some(ty)
            }
            Initializer::List(l) => {
                // `char s[] = { "abc" }`: a braced string literal initializes the array itself
                if let [item] = l.items.as_slice()
                    && item.designators.is_empty()
                    && let Initializer::Expr(e) = &item.init
                    && matches!(strip_parens(e).kind, ExprKind::Str(_))
                    && self
                        .out
                        .types
                        .array_elem(ty)
                        .is_some_and(|el| self.out.types.is_integer(el))
                {
                    return self.init_object(ty, &item.init, base, width, out, is_static, top);
                }
                if self.out.types.is_scalar(ty) {
                    match l.items.as_slice() {
                        [] => Some(ty),
                        [first, rest @ ..] => {
                            if !first.designators.is_empty() {
                                self.error(
                                    "E0343",
                                    "designator in initializer for scalar type",
                                    first.span,
                                );
                                return None;
                            }
                            if !rest.is_empty() {
                                self.warn(
                                    "W0341",
                                    "excess elements in scalar initializer",
                                    rest[0].span,
                                );
                            }
                            self.init_object(ty, &first.init, base, width, out, is_static, false)
                        }
                    }
                } else if self.out.types.is_aggregate(ty) {
                    if self.out.types.is_incomplete(ty) && !(top && self.out.types.is_array(ty)) {
                        let s = self.ty_str(ty);
                        self.error(
                            "E0342",
                            format!("variable has incomplete type '{s}'"),
                            l.span,
                        );
                        return None;
                    }
                    self.init_list(ty, l, base, out, is_static)
                } else {
                    let s = self.ty_str(ty);
                    self.error(
                        "E0342",
                        format!("invalid initializer for type '{s}'"),
                        l.span,
                    );
                    None
                }
            }
        }
    }

    /// A string literal initializing a character array; `None` if this is not that case.
    fn string_init(
        &mut self,
        ty: QualType,
        e: &Expr,
        base: u64,
        out: &mut Vec<InitEntry>,
    ) -> Option<Option<QualType>> {
        let ExprKind::Str(s) = &strip_parens(e).kind else {
            return None;
        };
        let types = &self.out.types;
        let TypeKind::Array { elem, size, .. } = types.ckind(ty).clone() else {
            return None;
        };
        let ek = types.int_kind(elem)?;
        let lit_elem = match s.prefix {
            ompcc_syntax::ast::CharPrefix::None | ompcc_syntax::ast::CharPrefix::Utf8 => 1,
            ompcc_syntax::ast::CharPrefix::Wide | ompcc_syntax::ast::CharPrefix::U32 => 4,
            ompcc_syntax::ast::CharPrefix::U16 => 2,
        };
        if ek.size() != lit_elem {
            self.error(
                "E0341",
                "array of inappropriate type initialized from string constant",
                e.span,
            );
            return Some(None);
        }
        self.expr(e)?;
        let len = s.value.len() as u64;
        let ty = match size {
            ArraySize::Fixed(n) => {
                if len > n {
                    self.warn("W0342", "initializer-string for array is too long", e.span);
                }
                ty
            }
            _ => self
                .out
                .types
                .array(elem, ArraySize::Fixed(len + 1))
                .with(ty.quals),
        };
        self.set_conv(e.id, ty);
        self.set_conv(strip_parens(e).id, ty);
        out.push(InitEntry {
            bit_offset: base,
            ty,
            expr: e.id,
            bit_width: None,
        });
        Some(Some(ty))
    }

    /// Number of positional subobjects (`None`: unbounded, an array of unknown size).
    fn sub_count(&self, ty: QualType) -> Option<u64> {
        let t = &self.out.types;
        match t.ckind(ty) {
            TypeKind::Array { size, .. } => match size {
                ArraySize::Fixed(n) => Some(*n),
                _ => None,
            },
            TypeKind::Record(r) => Some(t.record(*r).fields.as_ref().map_or(0, |f| f.len() as u64)),
            _ => Some(0),
        }
    }

    fn sub_at(&self, f: &Frame) -> Option<Sub> {
        let t = &self.out.types;
        match t.ckind(f.ty) {
            TypeKind::Array { elem, .. } => {
                let es = t.size_of(*elem)?;
                let off = f.idx.saturating_mul(es).saturating_mul(8);
                Some((*elem, f.base.saturating_add(off), None))
            }
            TypeKind::Record(r) => {
                let rd = t.record(*r);
                let i = f.idx as usize;
                let fd = rd.fields.as_ref()?.get(i)?;
                let fl = rd.layout.as_ref()?.fields.get(i)?;
                Some((fd.ty, f.base.saturating_add(fl.bit_offset), fd.bit_width))
            }
            _ => None,
        }
    }

    fn is_unnamed_bitfield(&self, f: &Frame) -> bool {
        let t = &self.out.types;
        match t.ckind(f.ty) {
            TypeKind::Record(r) => t
                .record(*r)
                .fields
                .as_ref()
                .and_then(|fs| fs.get(f.idx as usize))
                .is_some_and(|fd| fd.name.is_none() && fd.bit_width.is_some()),
            _ => false,
        }
    }

    fn is_union(&self, ty: QualType) -> bool {
        let t = &self.out.types;
        t.record_id(ty)
            .is_some_and(|r| t.record(r).kind == RecordKind::Union)
    }

    fn advance(&self, f: &mut Frame) {
        if self.is_union(f.ty) {
            f.idx = self.sub_count(f.ty).unwrap_or(0);
        } else {
            f.idx += 1;
        }
    }

    fn init_list(
        &mut self,
        ty: QualType,
        list: &InitList,
        base: u64,
        out: &mut Vec<InitEntry>,
        is_static: bool,
    ) -> Option<QualType> {
        let mut stack = vec![Frame { ty, base, idx: 0 }];
        let mut extent: u64 = 0;
        let mut ok = true;
        'items: for item in &list.items {
            let mut range: Option<(usize, u64, u64)> = None;
            if !item.designators.is_empty() {
                stack.truncate(1);
                let n = item.designators.len();
                for (k, d) in item.designators.iter().enumerate() {
                    let top = *stack.last()?;
                    match d {
                        Designator::Field(id) => {
                            let name = self.name(id.name);
                            let Some(rec) = self.out.types.record_id(top.ty) else {
                                self.error(
                                    "E0344",
                                    format!(
                                        "field name '{name}' not in record or union initializer"
                                    ),
                                    id.span,
                                );
                                ok = false;
                                continue 'items;
                            };
                            let Some((path, _)) = self.out.types.find_member(rec, name) else {
                                let s = self.ty_str(top.ty);
                                self.error(
                                    "E0344",
                                    format!("'{s}' has no member named '{name}'"),
                                    id.span,
                                );
                                ok = false;
                                continue 'items;
                            };
                            // anonymous members on the way are subobjects of their own
                            for (j, &i) in path.iter().enumerate() {
                                let t = stack.last_mut()?;
                                t.idx = i as u64;
                                if j + 1 < path.len() {
                                    let (sty, off, _) = self.sub_at(t)?;
                                    stack.push(Frame {
                                        ty: sty,
                                        base: off,
                                        idx: 0,
                                    });
                                }
                            }
                        }
                        Designator::Index(ix) | Designator::Range(ix, _) => {
                            if !self.out.types.is_array(top.ty) {
                                self.error(
                                    "E0344",
                                    "array index in non-array initializer",
                                    ix.span,
                                );
                                ok = false;
                                continue 'items;
                            }
                            let Some(lo) = self.const_int(ix).and_then(|v| v.as_i128()) else {
                                ok = false;
                                continue 'items;
                            };
                            let hi = match d {
                                Designator::Range(_, h) => {
                                    match self.const_int(h).and_then(|v| v.as_i128()) {
                                        Some(h) => h,
                                        None => {
                                            ok = false;
                                            continue 'items;
                                        }
                                    }
                                }
                                _ => lo,
                            };
                            let count = self.sub_count(top.ty);
                            // the GNU range is expanded entry by entry: keep it reasonable
                            if lo >= 0 && hi >= lo && (hi - lo > 1 << 20 || hi >= 1 << 40) {
                                self.error("E0345", "designator index or range too large", ix.span);
                                ok = false;
                                continue 'items;
                            }
                            if lo < 0 || hi < lo || count.is_some_and(|c| hi as u64 >= c) {
                                self.error(
                                    "E0345",
                                    "array index in initializer exceeds array bounds",
                                    ix.span,
                                );
                                ok = false;
                                continue 'items;
                            }
                            if hi > lo {
                                range = Some((stack.len() - 1, lo as u64, hi as u64));
                            }
                            stack.last_mut()?.idx = lo as u64;
                        }
                    }
                    if k + 1 < n {
                        let t = *stack.last()?;
                        let (sty, off, _) = self.sub_at(&t)?;
                        if !self.out.types.is_aggregate(sty) {
                            self.error(
                                "E0344",
                                "designator into a non-aggregate member",
                                item.span,
                            );
                            ok = false;
                            continue 'items;
                        }
                        stack.push(Frame {
                            ty: sty,
                            base: off,
                            idx: 0,
                        });
                    }
                }
            } else {
                loop {
                    let t = stack.last_mut()?;
                    while self.is_unnamed_bitfield(t) {
                        t.idx += 1;
                    }
                    let t = *stack.last()?;
                    if self.sub_count(t.ty).is_none_or(|c| t.idx < c) {
                        break;
                    }
                    if stack.len() == 1 {
                        self.warn("W0341", "excess elements in initializer", item.span);
                        continue 'items;
                    }
                    stack.pop();
                    let p = stack.last_mut()?;
                    let mut pp = *p;
                    self.advance(&mut pp);
                    *p = pp;
                }
            }
            let first_entry = out.len();
            // initialize the subobject at the top of the stack, eliding braces as needed
            let mut checked: Option<Option<QualType>> = None;
            loop {
                let t = *stack.last()?;
                let Some((sty, off, width)) = self.sub_at(&t) else {
                    ok = false;
                    break;
                };
                if matches!(
                    self.out.types.ckind(sty),
                    TypeKind::Array {
                        size: ArraySize::Incomplete,
                        ..
                    }
                ) {
                    self.error(
                        "E0346",
                        "initialization of a flexible array member is not supported",
                        item.span,
                    );
                    ok = false;
                    break;
                }
                match &item.init {
                    Initializer::List(_) => {
                        ok &= self
                            .init_object(sty, &item.init, off, width, out, is_static, false)
                            .is_some();
                        break;
                    }
                    Initializer::Expr(e) => {
                        if self.out.types.is_aggregate(sty) {
                            if let Some(r) = self.string_init(sty, e, off, out) {
                                ok &= r.is_some();
                                break;
                            }
                            let et = match checked {
                                Some(t) => t,
                                None => {
                                    let t = self.rvalue(e);
                                    checked = Some(t);
                                    t
                                }
                            };
                            let Some(et) = et else {
                                ok = false;
                                break;
                            };
                            if self.out.types.is_record(sty)
                                && self.out.types.compatible_unqual(sty, et)
                            {
                                self.set_conv(e.id, self.out.types.canon(sty).unqual());
                                if is_static {
                                    self.require_constant(e);
                                }
                                out.push(InitEntry {
                                    bit_offset: off,
                                    ty: sty,
                                    expr: e.id,
                                    bit_width: None,
                                });
                                break;
                            }
                            // brace elision: the value initializes the first scalar inside
                            if self.sub_count(sty) == Some(0) {
                                self.error("E0342", "initializer for an empty aggregate", e.span);
                                ok = false;
                                break;
                            }
                            stack.push(Frame {
                                ty: sty,
                                base: off,
                                idx: 0,
                            });
                            let t = stack.last_mut()?;
                            while self.is_unnamed_bitfield(t) {
                                t.idx += 1;
                            }
                            continue;
                        }
                        let et = match checked {
                            Some(t) => t,
                            None => self.rvalue(e),
                        };
                        let Some(et) = et else {
                            ok = false;
                            break;
                        };
                        if self.assign_convert(e, et, sty, "initialization").is_none() {
                            ok = false;
                            break;
                        }
                        if is_static {
                            self.require_constant(e);
                        }
                        out.push(InitEntry {
                            bit_offset: off,
                            ty: sty,
                            expr: e.id,
                            bit_width: width,
                        });
                        break;
                    }
                }
            }
            if let Some((depth, lo, hi)) = range {
                // replicate what this item stored for every index of the range
                if let Some(f) = stack.get(depth).copied()
                    && let Some(elem) = self.out.types.array_elem(f.ty)
                    && let Some(es) = self.out.types.size_of(elem)
                {
                    let stored: Vec<InitEntry> = out[first_entry..].to_vec();
                    for k in 1..=(hi - lo) {
                        for s in &stored {
                            out.push(InitEntry {
                                bit_offset: s
                                    .bit_offset
                                    .saturating_add(k.saturating_mul(es).saturating_mul(8)),
                                ..*s
                            });
                        }
                    }
                    stack.truncate(depth + 1);
                    if let Some(f) = stack.last_mut() {
                        f.idx = hi;
                    }
                }
            }
            if let Some(t) = stack.last_mut() {
                let mut tt = *t;
                self.advance(&mut tt);
                *t = tt;
            }
            let root = stack[0].idx + u64::from(stack.len() > 1);
            extent = extent.max(root);
        }
        if !ok {
            return None;
        }
        let t = &mut self.out.types;
        match t.ckind(ty).clone() {
            TypeKind::Array {
                elem,
                size: ArraySize::Incomplete,
                ..
            } => Some(t.array(elem, ArraySize::Fixed(extent)).with(ty.quals)),
            _ => Some(ty),
        }
    }

    /// Static storage duration: the initializer must be an arithmetic constant or an
    /// address constant (C11 6.6p7).
    fn require_constant(&mut self, e: &Expr) {
        if super::fold::fold(&self.out, e).is_some() || self.is_address_constant(e) {
            return;
        }
        self.error("E0347", "initializer element is not constant", e.span);
    }

    fn is_address_constant(&self, e: &Expr) -> bool {
        let Some(info) = self.info(e.id) else {
            return false;
        };
        let t = &self.out.types;
        // an array lvalue of static storage (`s.arr`, `mat[2]`) decays to a constant address
        if t.is_array(info.ty) && t.is_pointer(info.conv) && self.is_static_lvalue(e) {
            return true;
        }
        match &e.kind {
            ExprKind::Paren(x) => self.is_address_constant(x),
            ExprKind::Str(_) => true,
            ExprKind::Cast(_, x) => {
                (t.is_pointer(info.ty) || t.is_integer(info.ty) && t.size_of(info.ty) == Some(8))
                    && (self.is_address_constant(x)
                        // an integer constant cast to a pointer (`(struct s *)0`)
                        || t.is_pointer(info.ty) && super::fold::fold(&self.out, x).is_some())
            }
            // GNU labels as values, for static dispatch tables
            ExprKind::LabelAddr(_) => true,
            ExprKind::Ident(_) => {
                // an array or function designator of static storage decays to its address
                let Some(s) = self.out.ident_symbols.get(&e.id) else {
                    return false;
                };
                let s = &self.out.symbols[*s];
                (s.kind == SymbolKind::Function
                    || s.storage != super::Storage::Automatic && t.is_array(s.ty))
                    && t.is_pointer(info.conv)
            }
            ExprKind::Unary(ompcc_syntax::ast::UnaryOp::AddrOf, x) => self.is_static_lvalue(x),
            ExprKind::Binary(op, l, r) => {
                use ompcc_syntax::ast::BinaryOp::{Add, Sub};
                matches!(op, Add | Sub)
                    && (self.is_address_constant(l) && super::fold::fold(&self.out, r).is_some()
                        || *op == Add
                            && self.is_address_constant(r)
                            && super::fold::fold(&self.out, l).is_some())
            }
            ExprKind::CompoundLiteral(..) => self.func.is_none(),
            ExprKind::Cond(c, a, b) => {
                super::fold::fold(&self.out, c).is_some()
                    && a.as_ref().is_none_or(|a| {
                        self.is_address_constant(a) || super::fold::fold(&self.out, a).is_some()
                    })
                    && (self.is_address_constant(b) || super::fold::fold(&self.out, b).is_some())
            }
            _ => false,
        }
    }

    /// An lvalue designating (part of) an object of static storage duration.
    fn is_static_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Paren(x) => self.is_static_lvalue(x),
            ExprKind::Ident(_) => self.out.ident_symbols.get(&e.id).is_some_and(|s| {
                let s = &self.out.symbols[*s];
                s.kind == SymbolKind::Function || s.storage == super::Storage::Static
            }),
            ExprKind::Member {
                base, arrow: false, ..
            } => self.is_static_lvalue(base),
            ExprKind::Member {
                base, arrow: true, ..
            } => self.is_address_constant(base),
            ExprKind::Index(a, b) => {
                let const_idx = |x: &Expr| super::fold::fold(&self.out, x).is_some();
                (self.is_address_constant(a) && const_idx(b))
                    || (self.is_address_constant(b) && const_idx(a))
            }
            ExprKind::Str(_) => true,
            ExprKind::CompoundLiteral(..) => self.func.is_none(),
            ExprKind::Unary(ompcc_syntax::ast::UnaryOp::Deref, x) => self.is_address_constant(x),
            _ => self
                .info(e.id)
                .is_some_and(|i| i.kind == ValueKind::Function),
        }
    }
}
