//! Bounds on loop variables from the conditions around an access (DawnCC's symbolic ranges,
//! in their simplest form): in `if (i > 0) a[i - 1]` or `i > 0 ? a[i - 1] : a[i]` the
//! guarded access sees `i >= 1`, so its section starts at `a[0]`. Only comparisons of an
//! enclosing canonical loop's variable with an expression free of loop variables count, joined
//! by `&&` (or `||` under a negation); anything else adds no bound.

use ompcc_syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};

use crate::collect::Walker;
use crate::model::Guard;
use crate::walk::strip_parens;

impl Walker<'_, '_> {
    /// Pushes the bounds `c` (or, `negate`d, its negation) implies; returns how many.
    pub fn push_guards(&mut self, c: &Expr, negate: bool) -> usize {
        let mut found = Vec::new();
        self.bounds(c, negate, &mut found);
        let n = found.len();
        self.guards.extend(found);
        n
    }

    fn bounds(&self, c: &Expr, negate: bool, out: &mut Vec<Guard>) {
        let c = strip_parens(c);
        match &c.kind {
            ExprKind::Unary(UnaryOp::Not, x) => self.bounds(x, !negate, out),
            ExprKind::Binary(BinaryOp::LogAnd, l, r) if !negate => {
                self.bounds(l, false, out);
                self.bounds(r, false, out);
            }
            ExprKind::Binary(BinaryOp::LogOr, l, r) if negate => {
                self.bounds(l, true, out);
                self.bounds(r, true, out);
            }
            ExprKind::Binary(op, l, r) => {
                let flipped = |op: BinaryOp| match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Ge => BinaryOp::Le,
                    o => o,
                };
                let (var, k, op) = match (self.loop_var(l), self.loop_var(r)) {
                    (Some(v), None) => (v, r, *op),
                    (None, Some(v)) => (v, l, flipped(*op)),
                    _ => return,
                };
                let op = if negate {
                    match op {
                        BinaryOp::Lt => BinaryOp::Ge,
                        BinaryOp::Gt => BinaryOp::Le,
                        BinaryOp::Le => BinaryOp::Gt,
                        BinaryOp::Ge => BinaryOp::Lt,
                        BinaryOp::Ne => BinaryOp::Eq,
                        _ => return,
                    }
                } else {
                    op
                };
                let Ok(k) = self.conv(k) else { return };
                // the bound must not move with the loops
                let loops = self.loop_vars();
                if k.vars().iter().any(|v| loops.contains(v)) {
                    return;
                }
                let (lo, hi) = match op {
                    BinaryOp::Gt => (k.add_const(1), None),
                    BinaryOp::Ge => (Some(k), None),
                    BinaryOp::Lt => (None, k.add_const(-1)),
                    BinaryOp::Le => (None, Some(k)),
                    BinaryOp::Eq => (Some(k.clone()), Some(k)),
                    _ => return,
                };
                if lo.is_some() || hi.is_some() {
                    out.push(Guard { var, lo, hi });
                }
            }
            _ => {}
        }
    }

    /// The variable of an enclosing canonical loop that `e` names.
    fn loop_var(&self, e: &Expr) -> Option<ompcc_sema::SymbolId> {
        let ExprKind::Ident(_) = &strip_parens(e).kind else {
            return None;
        };
        let s = *self.unit.ident_symbols.get(&strip_parens(e).id)?;
        self.loop_vars().contains(&s).then_some(s)
    }
}
