//! Expressions in the main walk: which lvalues are loaded or stored (accesses), which
//! pointer values escape, and calls.
//!
//! An address expression that feeds an access (`p + k` under `*`, `a[i]` of an array of
//! arrays under another `[]`) is walked by [`Walker::addr_operands`], which visits only its
//! integer operands and the pointers it loads (`pp[i]` in `pp[i][j]`). Any other use of a
//! pointer value (stored, returned, passed to unknown code, converted) makes its base
//! escape.

use ompcc_syntax::ast::*;

use crate::collect::{BaseKey, Use, Walker};
use crate::model::*;

/// At most this many conditional subscripts in one lvalue are followed (2^n versions).
const MAX_COND_SUBSCRIPTS: usize = 2;

impl<'a> Walker<'a, '_> {
    pub fn expr(&mut self, e: &'a Expr, u: Use) {
        let t = &self.unit.types;
        match &e.kind {
            ExprKind::Paren(x) => self.expr(x, u),
            ExprKind::Ident(_) => {
                let Some(s) = self.ident(e) else { return };
                let info = &self.unit.symbols[s];
                if info.kind != ompcc_sema::SymbolKind::Object {
                    return;
                }
                if t.pointee(info.ty).is_some_and(|p| t.is_function(p)) {
                    return;
                }
                if t.is_pointer(info.ty) || t.is_array(info.ty) {
                    if u == Use::Read {
                        self.escape(e);
                    }
                } else if self.is_global(s) {
                    self.record(e, AccessKind::Read);
                }
            }
            ExprKind::Index(..) | ExprKind::Unary(UnaryOp::Deref, _) | ExprKind::Member { .. } => {
                let ty = self.own_ty(e);
                if ty.is_some_and(|ty| t.is_array(ty))
                    || (matches!(e.kind, ExprKind::Member { .. })
                        && ty.is_some_and(|ty| t.is_pointer(ty))
                        && u == Use::Read)
                {
                    // an address value (decayed array, or a pointer member's value)
                    if u == Use::Read {
                        self.escape(e);
                    }
                    self.addr_operands(e);
                } else {
                    self.record(e, AccessKind::Read);
                    self.lvalue_operands(e);
                }
            }
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if u == Use::Read {
                    self.escape(e);
                }
                self.lvalue_operands(x);
            }
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                x,
            ) => {
                let at = self.out.accesses.len();
                self.lhs(x, AccessKind::ReadWrite);
                if u == Use::Discard {
                    self.mark_update(at, x, "+");
                }
            }
            ExprKind::Unary(_, x) => self.expr(x, Use::Read),
            ExprKind::Assign(op, l, r) => {
                self.expr(r, Use::Read);
                let at = self.out.accesses.len();
                self.lhs(
                    l,
                    if op.is_none() {
                        AccessKind::Write
                    } else {
                        AccessKind::ReadWrite
                    },
                );
                let red = match op {
                    Some(BinaryOp::Add | BinaryOp::Sub) => Some("+"),
                    Some(BinaryOp::Mul) => Some("*"),
                    Some(BinaryOp::BitAnd) => Some("&"),
                    Some(BinaryOp::BitOr) => Some("|"),
                    Some(BinaryOp::BitXor) => Some("^"),
                    _ => None,
                };
                if let Some(o) = red
                    && u == Use::Discard
                {
                    self.mark_update(at, l, o);
                }
            }
            ExprKind::Call(c, args) => self.call(e, c, args),
            ExprKind::Binary(op, l, r) => {
                let cmp = matches!(
                    op,
                    BinaryOp::Lt
                        | BinaryOp::Gt
                        | BinaryOp::Le
                        | BinaryOp::Ge
                        | BinaryOp::Eq
                        | BinaryOp::Ne
                        | BinaryOp::LogAnd
                        | BinaryOp::LogOr
                );
                let ptr_result = self.is_ptr(e);
                if ptr_result && u == Use::Read {
                    self.escape(e);
                }
                for x in [l, r] {
                    if self.is_ptr(x) && (cmp || ptr_result || *op == BinaryOp::Sub) {
                        self.addr_operands(x);
                    } else {
                        self.expr(x, Use::Read);
                    }
                }
            }
            ExprKind::Cast(_, x) => self.expr(x, u),
            ExprKind::Cond(c, th, el) => {
                self.expr(c, Use::Read);
                if let Some(th) = th {
                    let n = self.push_guards(c, false);
                    self.expr(th, u);
                    self.guards.truncate(self.guards.len() - n);
                }
                let n = self.push_guards(c, true);
                self.expr(el, u);
                self.guards.truncate(self.guards.len() - n);
            }
            ExprKind::Comma(a, b) => {
                self.expr(a, Use::Discard);
                self.expr(b, u);
            }
            ExprKind::StmtExpr(b) => self.block(b),
            ExprKind::CompoundLiteral(_, l) => {
                for item in &l.items {
                    if let Initializer::Expr(x) = &item.init {
                        self.expr(x, Use::Read);
                    }
                }
            }
            ExprKind::Generic(_, assocs) => {
                for a in assocs {
                    self.expr(&a.expr, u);
                }
            }
            ExprKind::VaArg(x, _) => self.expr(x, Use::Read),
            ExprKind::ArraySection { .. }
            | ExprKind::SizeofExpr(_)
            | ExprKind::AlignofExpr(_)
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofType(_)
            | ExprKind::Offsetof(..)
            | ExprKind::TypesCompatible(..)
            | ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Char { .. }
            | ExprKind::Str(_)
            | ExprKind::LabelAddr(_) => {}
        }
    }

    /// Marks the accesses recorded from index `at` for the lvalue `l` (one per arm of its
    /// conditional subscripts) as an update by `op`.
    fn mark_update(&mut self, at: usize, l: &Expr, op: &'static str) {
        let l = crate::walk::strip_parens(l);
        for a in self.out.accesses.iter_mut().skip(at) {
            if a.span == l.span && a.kind == AccessKind::ReadWrite {
                a.update = Some(op);
            }
        }
    }

    /// An assignment target or `++` operand.
    pub fn lhs(&mut self, l: &'a Expr, kind: AccessKind) {
        let l = crate::walk::strip_parens(l);
        match &l.kind {
            ExprKind::Ident(_) => {
                if let Some(s) = self.ident(l)
                    && self.is_global(s)
                    && !self.unit.types.is_pointer(self.unit.symbols[s].ty)
                {
                    self.record(l, kind);
                }
            }
            _ => {
                self.record(l, kind);
                self.lvalue_operands(l);
            }
        }
    }

    /// Records the access of an lvalue (locals accessed as a whole are not memory accesses).
    ///
    /// An lvalue with conditional subscripts (`x[i > 0 ? i - 1 : n - 1]`, at most
    /// [`MAX_COND_SUBSCRIPTS`] of them) is recorded once per choice of arms, each under the
    /// guards of its conditions: the access touches what one of them touches.
    pub fn record(&mut self, e: &'a Expr, kind: AccessKind) {
        let mut conds = Vec::new();
        self.subscript_conds(e, &mut conds);
        if conds.is_empty() || conds.len() > MAX_COND_SUBSCRIPTS {
            return self.record_one(e, kind);
        }
        for choice in 0..1u32 << conds.len() {
            let mut pushed = 0;
            for (k, c) in conds.iter().enumerate() {
                let then = choice & (1 << k) == 0;
                let ExprKind::Cond(cond, _, _) = &c.kind else {
                    continue;
                };
                pushed += self.push_guards(cond, !then);
                self.cond_arms.push((c.span, then));
            }
            self.record_one(e, kind);
            self.guards.truncate(self.guards.len() - pushed);
            self.cond_arms.truncate(self.cond_arms.len() - conds.len());
        }
    }

    /// The conditional expressions (with both arms) that the subscripts of lvalue `e` are
    /// built from by arithmetic: `?:` nested in an arm, or in a load's own subscript, is not
    /// one (the first stays non-affine, the second belongs to another access).
    fn subscript_conds(&self, e: &'a Expr, out: &mut Vec<&'a Expr>) {
        fn arith<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
            let e = crate::walk::strip_parens(e);
            match &e.kind {
                ExprKind::Cond(_, Some(_), _) => out.push(e),
                ExprKind::Binary(_, l, r) => {
                    arith(l, out);
                    arith(r, out);
                }
                ExprKind::Unary(UnaryOp::Minus | UnaryOp::Plus, x) | ExprKind::Cast(_, x) => {
                    arith(x, out)
                }
                _ => {}
            }
        }
        let e = crate::walk::strip_parens(e);
        if let ExprKind::Index(l, r) = &e.kind {
            let (p, k) = if self.is_ptr(l) { (l, r) } else { (r, l) };
            arith(k, out);
            if self.own_ty(p).is_some_and(|t| self.unit.types.is_array(t)) {
                self.subscript_conds(p, out);
            }
        }
    }

    fn record_one(&mut self, e: &'a Expr, kind: AccessKind) {
        let base_ty_of = |w: &Self, key: &BaseKey| match key {
            BaseKey::Var(s) => Some(w.unit.symbols[*s].ty),
            _ => None,
        };
        let (base, subscripts, field) = match self.lvalue(e) {
            Ok((a, field)) => {
                if a.subs.is_empty() {
                    match a.key {
                        BaseKey::Var(s) if self.is_global(s) => {}
                        _ => return,
                    }
                }
                let ty = a.base_ty.or_else(|| base_ty_of(self, &a.key));
                let text = self.key_text(&a.key);
                let b = self.base_of(&a.key, ty, &text);
                let dims = self.out.bases[b.0 as usize].dims;
                let subs = if a.subs.len() == dims {
                    a.subs
                } else {
                    vec![Err(Unknown::new(Reason::ShapeMismatch, e.span)); dims]
                };
                (b, subs, field)
            }
            Err(u) => {
                let b = self.unknown_base(u.clone());
                (b, vec![Err(u)], None)
            }
        };
        self.out.accesses.push(Access {
            span: e.span,
            base,
            kind,
            subscripts,
            field,
            update: None,
            loops: self.loop_stack.clone(),
            region: self.region_stack.last().copied(),
            guards: self.guards.clone(),
        });
    }

    /// The operands of an lvalue whose own access is recorded: subscripts are read, the
    /// address is walked by [`Walker::addr_operands`].
    pub fn lvalue_operands(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Paren(x) => self.lvalue_operands(x),
            ExprKind::Index(l, r) => {
                let (p, k) = if self.is_ptr(l) { (l, r) } else { (r, l) };
                self.addr_operands(p);
                self.expr(k, Use::Read);
            }
            ExprKind::Unary(UnaryOp::Deref, x) => self.addr_operands(x),
            ExprKind::Member { base, arrow, .. } => {
                if *arrow {
                    self.addr_operands(base);
                } else {
                    self.lvalue_operands(base);
                }
            }
            _ => {}
        }
    }

    /// The operands of an address expression that feeds an access, without making its base
    /// escape; pointers loaded on the way are read accesses.
    pub fn addr_operands(&mut self, e: &'a Expr) {
        let t = &self.unit.types;
        match &e.kind {
            ExprKind::Paren(x) | ExprKind::Cast(_, x) => self.addr_operands(x),
            ExprKind::Ident(_) => {}
            ExprKind::Index(..) | ExprKind::Unary(UnaryOp::Deref, _) | ExprKind::Member { .. } => {
                let ty = self.own_ty(e);
                if ty.is_some_and(|ty| t.is_array(ty)) {
                    self.lvalue_operands(e);
                } else {
                    // a pointer stored in memory is loaded
                    self.record(e, AccessKind::Read);
                    self.lvalue_operands(e);
                }
            }
            ExprKind::Unary(UnaryOp::AddrOf, x) => self.lvalue_operands(x),
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, l, r) => {
                for x in [l, r] {
                    if self.is_ptr(x) {
                        self.addr_operands(x);
                    } else {
                        self.expr(x, Use::Read);
                    }
                }
            }
            _ => self.expr(e, Use::Read),
        }
    }
}
