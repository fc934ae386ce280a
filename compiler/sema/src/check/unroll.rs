//! `#pragma omp unroll` (OpenMP 5.1, 5.2 section 9.2): its own clauses and its place in a
//! loop nest.
//!
//! Checked here: `full` and `partial` exclude each other; `partial(N)` takes a positive
//! integer constant (checked with the other constant clauses); `full` needs a loop whose trip
//! count is a compile-time constant; the loop is in canonical form (checked by the caller);
//! and an `unroll` that is the loop of an enclosing loop-associated directive must have
//! `partial`, the only form that generates a loop (OpenMP 5.2, 9.2: "the generated loop ...
//! only with the partial clause"). Invariant: every problem is a diagnostic with a span.

use super::Checker;
use crate::consteval::ConstValue;
use ompcc_syntax::ast::{
    self, BinaryOp, DeclarationKind, Expr, ExprKind, ForInit, OmpClauseName, OmpDirective, Stmt,
    StmtKind, UnaryOp,
};

/// Whether `d` has a clause named `name`.
pub(super) fn has_clause(d: &OmpDirective, name: OmpClauseName) -> bool {
    d.clauses.iter().any(|c| c.name == name)
}

impl Checker<'_> {
    /// The checks of an `unroll` directive whose associated statement is `body`.
    pub(super) fn omp_unroll(&mut self, d: &OmpDirective, body: &Stmt) {
        let full = has_clause(d, OmpClauseName::Full);
        if full && has_clause(d, OmpClauseName::Partial) {
            self.error(
                "E0626",
                "'full' and 'partial' clauses cannot both appear on '#pragma omp unroll'",
                d.name_span,
            );
            return;
        }
        if !full {
            return;
        }
        let s = super::omp::unwrap_single(body);
        let StmtKind::For(init, cond, step, _) = &s.kind else {
            // The canonical-loop check reports a missing loop.
            return;
        };
        if self
            .constant_trip_count(init, cond.as_deref(), step.as_deref())
            .is_none()
        {
            self.error(
                "E0627",
                "'#pragma omp unroll full' needs a loop whose trip count is a compile-time constant",
                s.span,
            );
        }
    }

    /// The iteration count of a canonical `for` whose bounds and step are integer constants.
    fn constant_trip_count(
        &self,
        init: &ForInit,
        cond: Option<&Expr>,
        step: Option<&Expr>,
    ) -> Option<u128> {
        let (var, lb) = match init {
            ForInit::Expr(e) => match &strip(e).kind {
                ExprKind::Assign(None, l, r) => match &strip(l).kind {
                    ExprKind::Ident(v) => (*v, r.as_ref()),
                    _ => return None,
                },
                _ => return None,
            },
            ForInit::Decl(decl) => match &decl.kind {
                DeclarationKind::Vars { declarators, .. } if declarators.len() == 1 => {
                    let d = &declarators[0];
                    match (&d.init, d.declarator.name) {
                        (Some(ast::Initializer::Expr(e)), Some(n)) => (n.name, &**e),
                        _ => return None,
                    }
                }
                _ => return None,
            },
            ForInit::None => return None,
        };
        let lb = self.const_value(lb)?;
        let ExprKind::Binary(op, l, r) = &strip(cond?).kind else {
            return None;
        };
        // `var op ub`, or `ub op var` turned around.
        let (op, ub) = if is_var(l, var) {
            (*op, r.as_ref())
        } else if is_var(r, var) {
            let flipped = match op {
                BinaryOp::Lt => BinaryOp::Gt,
                BinaryOp::Le => BinaryOp::Ge,
                BinaryOp::Gt => BinaryOp::Lt,
                BinaryOp::Ge => BinaryOp::Le,
                other => *other,
            };
            (flipped, l.as_ref())
        } else {
            return None;
        };
        let ub = self.const_value(ub)?;
        let incr = match &strip(step?).kind {
            ExprKind::Unary(UnaryOp::PreInc | UnaryOp::PostInc, _) => 1,
            ExprKind::Unary(UnaryOp::PreDec | UnaryOp::PostDec, _) => -1,
            ExprKind::Assign(Some(BinaryOp::Add), _, r) => self.const_value(r)?,
            ExprKind::Assign(Some(BinaryOp::Sub), _, r) => self.const_value(r)?.checked_neg()?,
            ExprKind::Assign(None, _, r) => match &strip(r).kind {
                ExprKind::Binary(BinaryOp::Add, a, b) if is_var(a, var) => self.const_value(b)?,
                ExprKind::Binary(BinaryOp::Add, a, _) => self.const_value(a)?,
                ExprKind::Binary(BinaryOp::Sub, _, b) => self.const_value(b)?.checked_neg()?,
                _ => return None,
            },
            _ => return None,
        };
        trip_count(lb, op, ub, incr)
    }

    fn const_value(&self, e: &Expr) -> Option<i128> {
        match super::fold::fold(&self.out, e) {
            Some(ConstValue::Int(v)) => v.as_i128(),
            _ => None,
        }
    }
}

/// Iterations of `for (v = lb; v op ub; v += incr)`, or `None` when the loop never ends.
fn trip_count(lb: i128, op: BinaryOp, ub: i128, incr: i128) -> Option<u128> {
    // The half-open distance to cover and the direction the loop must move in.
    let (dist, up) = match op {
        BinaryOp::Lt => (ub.checked_sub(lb)?, true),
        BinaryOp::Le => (ub.checked_sub(lb)?.checked_add(1)?, true),
        BinaryOp::Gt => (lb.checked_sub(ub)?, false),
        BinaryOp::Ge => (lb.checked_sub(ub)?.checked_add(1)?, false),
        // OpenMP allows `!=` only with a step of 1 or -1.
        BinaryOp::Ne if incr == 1 => (ub.checked_sub(lb)?, true),
        BinaryOp::Ne if incr == -1 => (lb.checked_sub(ub)?, false),
        _ => return None,
    };
    if dist <= 0 {
        return Some(0);
    }
    if incr == 0 || (incr > 0) != up {
        return None;
    }
    let s = incr.unsigned_abs();
    Some((dist.unsigned_abs()).div_ceil(s))
}

fn strip(e: &Expr) -> &Expr {
    super::expr::strip_parens(e)
}

fn is_var(e: &Expr, var: ast::Symbol) -> bool {
    matches!(strip(e).kind, ExprKind::Ident(v) if v == var)
}

#[cfg(test)]
mod tests {
    use super::trip_count;
    use ompcc_syntax::ast::BinaryOp::*;

    #[test]
    fn trip_counts() {
        assert_eq!(trip_count(0, Lt, 8, 1), Some(8));
        assert_eq!(trip_count(0, Le, 8, 1), Some(9));
        assert_eq!(trip_count(0, Lt, 10, 3), Some(4));
        assert_eq!(trip_count(10, Gt, 0, -2), Some(5));
        assert_eq!(trip_count(10, Ge, 0, -1), Some(11));
        assert_eq!(trip_count(5, Lt, 5, 1), Some(0));
        assert_eq!(trip_count(0, Ne, 4, 1), Some(4));
        assert_eq!(trip_count(4, Ne, 0, -1), Some(4));
        assert_eq!(trip_count(0, Lt, 8, -1), None);
        assert_eq!(trip_count(0, Lt, 8, 0), None);
        assert_eq!(trip_count(0, Ne, 8, 2), None);
    }
}
