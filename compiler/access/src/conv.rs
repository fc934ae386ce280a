//! C expressions to symbolic form: integer expressions ([`Walker::conv`]) and addresses
//! ([`Walker::addr`], [`Walker::lvalue`]).
//!
//! An integer expression is affine when it is built from constants, variables, `+`, `-`,
//! `*` (not of two loop variables), `/` and `<<` by constants, and widening integer casts.
//! A variable is an atom when it is an integer object whose address is never taken and,
//! unless it is the variable of a canonical enclosing loop, no enclosing loop writes it
//! (a global also must not be written by a call in an enclosing loop).

use ompcc_sema::SymbolKind;
use ompcc_sema::consteval::ConstValue;
use ompcc_syntax::ast::*;

use crate::collect::{Addr, BaseKey, Walker};
use crate::model::*;
use crate::sym::SymExpr;
use crate::walk::strip_parens;

impl<'a> Walker<'a, '_> {
    /// The expression at the current point, checked against the enclosing loops.
    pub fn conv(&self, e: &Expr) -> Fact<SymExpr> {
        self.conv_inner(e, true)
    }

    /// The expression without loop checks (allocation and array sizes).
    pub fn conv_plain(&self, e: &Expr) -> Fact<SymExpr> {
        self.conv_inner(e, false)
    }

    /// The variables of the enclosing canonical loops.
    pub(crate) fn loop_vars(&self) -> Vec<ompcc_sema::SymbolId> {
        self.loop_stack
            .iter()
            .filter_map(|l| {
                self.out.loops[l.0 as usize]
                    .form
                    .as_ref()
                    .ok()
                    .map(|c| c.var)
            })
            .collect()
    }

    fn conv_inner(&self, e: &Expr, check: bool) -> Fact<SymExpr> {
        let ovf = || Unknown::new(Reason::Overflow, e.span);
        if !matches!(strip_parens(e).kind, ExprKind::Ident(_))
            && let Some(ConstValue::Int(c)) = ompcc_sema::fold(self.unit, e)
        {
            return i64::try_from(c.value).map(SymExpr::int).map_err(|_| ovf());
        }
        let na = |what: &'static str| Err(Unknown::new(Reason::NonAffine(what), e.span));
        match &e.kind {
            ExprKind::Paren(x) => self.conv_inner(x, check),
            ExprKind::Ident(_) => self.conv_var(e, check),
            ExprKind::Unary(UnaryOp::Plus, x) => self.conv_inner(x, check),
            ExprKind::Unary(UnaryOp::Minus, x) => self.conv_inner(x, check)?.neg().ok_or_else(ovf),
            ExprKind::Binary(op, l, r) => match op {
                BinaryOp::Add => self
                    .conv_inner(l, check)?
                    .add(&self.conv_inner(r, check)?)
                    .ok_or_else(ovf),
                BinaryOp::Sub => self
                    .conv_inner(l, check)?
                    .sub(&self.conv_inner(r, check)?)
                    .ok_or_else(ovf),
                BinaryOp::Mul => {
                    let (a, b) = (self.conv_inner(l, check)?, self.conv_inner(r, check)?);
                    if check {
                        let lv = self.loop_vars();
                        let has = |x: &SymExpr| x.vars().iter().any(|v| lv.contains(v));
                        if has(&a) && has(&b) {
                            return na("a product of loop variables");
                        }
                    }
                    a.mul(&b).ok_or_else(ovf)
                }
                BinaryOp::Div => {
                    let a = self.conv_inner(l, check)?;
                    match self.conv_inner(r, check)?.as_const() {
                        Some(c) if c > 0 => a.div(c).ok_or_else(ovf),
                        _ => na("division by a non-constant"),
                    }
                }
                BinaryOp::Shl => {
                    let a = self.conv_inner(l, check)?;
                    match self.conv_inner(r, check)?.as_const() {
                        Some(k) if (0..62).contains(&k) => a.scale(1 << k).ok_or_else(ovf),
                        _ => na("shift by a non-constant"),
                    }
                }
                BinaryOp::Rem => na("'%'"),
                BinaryOp::Shr => na("'>>'"),
                BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => na("a bitwise operation"),
                _ => na("a comparison or logical operation"),
            },
            ExprKind::Cast(_, x) => {
                let t = &self.unit.types;
                match (self.own_ty(e), self.conv_ty(x)) {
                    (Some(to), Some(from)) => match (t.int_kind(to), t.int_kind(from)) {
                        (Some(a), Some(b))
                            if a.size() > b.size()
                                || (a.size() == b.size() && a.is_signed() == b.is_signed()) =>
                        {
                            self.conv_inner(x, check)
                        }
                        _ => Err(Unknown::new(Reason::Cast, e.span)),
                    },
                    _ => Err(Unknown::new(Reason::Cast, e.span)),
                }
            }
            ExprKind::Index(..)
            | ExprKind::Unary(UnaryOp::Deref, _)
            | ExprKind::Member { .. }
            | ExprKind::Call(..) => Err(Unknown::new(Reason::IndirectSubscript, e.span)),
            ExprKind::Assign(..)
            | ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                _,
            )
            | ExprKind::Comma(..) => na("a side effect"),
            ExprKind::Cond(_, Some(then), other) => {
                match self.cond_arms.iter().find(|(at, _)| *at == e.span) {
                    Some(&(_, true)) => self.conv_inner(then, check),
                    Some(&(_, false)) => self.conv_inner(other, check),
                    None => na("a conditional expression"),
                }
            }
            ExprKind::Cond(..) => na("a conditional expression"),
            ExprKind::SizeofExpr(x) => match self.own_ty(x) {
                Some(ty) => self.sizeof(ty, e),
                None => na("sizeof"),
            },
            ExprKind::SizeofType(tn) => {
                match tn
                    .declarator
                    .as_ref()
                    .and_then(|d| self.unit.decl_type(d.id))
                {
                    Some(ty) => self.sizeof(ty, e),
                    None => na("sizeof"),
                }
            }
            _ => na("an expression of this kind"),
        }
    }

    /// `sizeof` of a (possibly variable length) array type.
    pub fn sizeof(&self, ty: ompcc_sema::types::QualType, e: &Expr) -> Fact<SymExpr> {
        let t = &self.unit.types;
        match t.ckind(ty) {
            ompcc_sema::types::TypeKind::Array { size, elem, .. } => {
                let (size, elem) = (*size, *elem);
                self.extent(size)?
                    .mul(&self.sizeof(elem, e)?)
                    .ok_or_else(|| Unknown::new(Reason::Overflow, e.span))
            }
            _ => t
                .size_of(ty)
                .and_then(|s| i64::try_from(s).ok())
                .map(SymExpr::int)
                .ok_or_else(|| Unknown::new(Reason::NonAffine("sizeof"), e.span)),
        }
    }

    fn conv_var(&self, e: &Expr, check: bool) -> Fact<SymExpr> {
        let Some(s) = self.ident(e) else {
            return Err(Unknown::new(
                Reason::NonAffine("an unresolved name"),
                e.span,
            ));
        };
        let info = &self.unit.symbols[s];
        if let SymbolKind::EnumConstant(v) = info.kind {
            return i64::try_from(v)
                .map(SymExpr::int)
                .map_err(|_| Unknown::new(Reason::Overflow, e.span));
        }
        let name = info.name.clone();
        if info.kind != SymbolKind::Object || self.unit.types.int_kind(info.ty).is_none() {
            return Err(Unknown::new(Reason::NotInteger(name), e.span));
        }
        if self.env().addr_taken.contains(&s) || self.global_addr_taken.contains(&s) {
            return Err(Unknown::new(Reason::AddressTaken(name), e.span));
        }
        if check {
            let is_loop_var = self.loop_stack.iter().any(|l| {
                self.out.loops[l.0 as usize]
                    .form
                    .as_ref()
                    .is_ok_and(|c| c.var == s)
            });
            if !is_loop_var {
                for l in &self.loop_stack {
                    let sp = self.out.loops[l.0 as usize].span;
                    if self.env().written_in(s, sp.lo, sp.hi)
                        || (self.is_global(s) && self.global_may_change(s, sp))
                    {
                        // a local defined once, from values that do not change before the
                        // end of its block, is its definition
                        if let Some(def) = self.defs.get(&s) {
                            return Ok(def.clone());
                        }
                        // written in an enclosing loop's own header: that loop's variable
                        // (a CSR row's `k`)
                        for m in &self.loop_stack {
                            let lp = &self.out.loops[m.0 as usize];
                            if let Err(u) = &lp.form
                                && self.env().written_in(s, lp.span.lo, lp.body.lo)
                            {
                                let why = u.reason.message();
                                let reason = Reason::NonCanonicalLoopVar(name, why);
                                return Err(Unknown::new(reason, e.span));
                            }
                        }
                        return Err(Unknown::new(Reason::ScalarWrittenInLoop(name), e.span));
                    }
                }
            }
        }
        Ok(SymExpr::var(s))
    }

    // ----- addresses --------------------------------------------------------------------

    /// The address a pointer-valued (or array) expression denotes.
    pub fn addr(&self, e: &Expr) -> Fact<Addr> {
        let unknown = || Err(Unknown::new(Reason::UnknownBase, e.span));
        let t = &self.unit.types;
        match &e.kind {
            ExprKind::Paren(x) => self.addr(x),
            ExprKind::Ident(_) => {
                let Some(s) = self.ident(e) else {
                    return unknown();
                };
                let info = &self.unit.symbols[s];
                if info.kind != SymbolKind::Object {
                    return unknown();
                }
                if t.is_pointer(info.ty)
                    && let Some(d) = self.derived.get(&s)
                {
                    return Ok(d.addr.clone());
                }
                if t.is_array(info.ty) || t.is_pointer(info.ty) {
                    Ok(Addr {
                        key: BaseKey::Var(s),
                        subs: vec![Ok(SymExpr::int(0))],
                        base_ty: Some(info.ty),
                    })
                } else {
                    unknown()
                }
            }
            ExprKind::Member { .. } => {
                let ty = self.own_ty(e);
                if !ty.is_some_and(|ty| t.is_pointer(ty) || t.is_array(ty)) {
                    return unknown();
                }
                match self.member_key(e) {
                    Some(key) => Ok(Addr {
                        key,
                        subs: vec![Ok(SymExpr::int(0))],
                        base_ty: ty,
                    }),
                    None => unknown(),
                }
            }
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), l, r) => {
                let (p, k, neg) = if self.is_ptr(l) {
                    (l, r, *op == BinaryOp::Sub)
                } else if self.is_ptr(r) && *op == BinaryOp::Add {
                    (r, l, false)
                } else {
                    return unknown();
                };
                if self.is_ptr(k) {
                    return unknown();
                }
                let mut a = self.addr(p)?;
                let off = self.conv(k).and_then(|x| {
                    if neg {
                        x.neg()
                            .ok_or_else(|| Unknown::new(Reason::Overflow, k.span))
                    } else {
                        Ok(x)
                    }
                });
                add_last(&mut a, off, e.span);
                Ok(a)
            }
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                let (a, field) = self.lvalue(x)?;
                if field.is_some() || a.subs.is_empty() {
                    return unknown();
                }
                Ok(a)
            }
            ExprKind::Index(..) | ExprKind::Unary(UnaryOp::Deref, _) => {
                // an array-typed element decays to the address of its first element
                if !self.own_ty(e).is_some_and(|ty| t.is_array(ty)) {
                    return unknown();
                }
                let (mut a, field) = self.lvalue(e)?;
                if field.is_some() {
                    return unknown();
                }
                a.subs.push(Ok(SymExpr::int(0)));
                Ok(a)
            }
            ExprKind::Cast(_, x) => match (self.own_ty(e), self.conv_ty(x)) {
                (Some(to), Some(from)) if t.is_pointer(from) => {
                    match (t.pointee(to), t.pointee(from)) {
                        (Some(a), Some(b)) if t.canon(a).ty == t.canon(b).ty => self.addr(x),
                        _ => Err(Unknown::new(Reason::Cast, e.span)),
                    }
                }
                _ => Err(Unknown::new(Reason::Cast, e.span)),
            },
            _ => unknown(),
        }
    }

    /// The element an lvalue designates: its address (one subscript per dimension, or none
    /// for a whole variable) and the member path after the element.
    pub fn lvalue(&self, e: &Expr) -> Fact<(Addr, Option<String>)> {
        let unknown = || Err(Unknown::new(Reason::UnknownBase, e.span));
        match &e.kind {
            ExprKind::Paren(x) => self.lvalue(x),
            ExprKind::Index(l, r) => {
                let (p, k) = if self.is_ptr(l) { (l, r) } else { (r, l) };
                let mut a = self.addr(p)?;
                let off = self.conv(k);
                add_last(&mut a, off, e.span);
                Ok((a, None))
            }
            ExprKind::Unary(UnaryOp::Deref, x) => Ok((self.addr(x)?, None)),
            ExprKind::Member { base, name, arrow } => {
                let n = self.tu.symbols.resolve(name.name);
                if *arrow {
                    Ok((self.addr(base)?, Some(format!("->{n}"))))
                } else {
                    let (a, f) = self.lvalue(base)?;
                    Ok((a, Some(format!("{}.{n}", f.unwrap_or_default()))))
                }
            }
            ExprKind::Ident(_) => {
                let Some(s) = self.ident(e) else {
                    return unknown();
                };
                let info = &self.unit.symbols[s];
                if info.kind != SymbolKind::Object {
                    return unknown();
                }
                Ok((
                    Addr {
                        key: BaseKey::Var(s),
                        subs: Vec::new(),
                        base_ty: Some(info.ty),
                    },
                    None,
                ))
            }
            _ => unknown(),
        }
    }

    /// `s.p`, `s->p`, `s->a.p` rooted at a variable.
    fn member_key(&self, e: &Expr) -> Option<BaseKey> {
        let mut path = String::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Paren(x) => cur = x,
                ExprKind::Member { base, name, arrow } => {
                    let n = self.tu.symbols.resolve(name.name);
                    path = format!("{}{n}{path}", if *arrow { "->" } else { "." });
                    cur = base;
                }
                ExprKind::Ident(_) => {
                    let s = self.ident(cur)?;
                    if self.unit.symbols[s].kind != SymbolKind::Object {
                        return None;
                    }
                    return Some(BaseKey::Member(s, path));
                }
                _ => return None,
            }
        }
    }
}

/// Adds `off` to the last subscript of `a`.
fn add_last(a: &mut Addr, off: Fact<SymExpr>, span: ompcc_diag::Span) {
    if let Some(last) = a.subs.last_mut() {
        *last = match (last.clone(), off) {
            (Ok(x), Ok(y)) => x
                .add(&y)
                .ok_or_else(|| Unknown::new(Reason::Overflow, span)),
            (Err(u), _) | (_, Err(u)) => Err(u),
        };
    }
}
