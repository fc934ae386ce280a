//! The trip counts of a region's distributed loop nest as C expressions the host evaluates
//! just before the launch (`ompcc-host`'s iteration hint), and whether a nest has them (the
//! one-iteration kernel variant needs the hint to size its launch).
//!
//! Only canonical loops (OpenMP 5.2 4.4.1) whose bounds and step are free of side effects
//! (no calls, assignments, increments, comma or statement expressions) and, in a collapsed
//! nest, do not use an outer loop's variable, get a count; any other nest gets none, so
//! evaluating the count can never change what the program does.

use crate::TargetRegion;
use crate::analyze::strip_parens;
use crate::walk;
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{BinaryOp, Expr, ExprKind, ForInit, Initializer, Stmt, StmtKind, UnaryOp};

/// The trip counts (C expressions) of `r`'s distributed loops, when all can be computed
/// safely before the region.
pub fn nest_trips(
    typed: &TypedUnit,
    r: &TargetRegion<'_>,
    src: &dyn Fn(&Expr) -> String,
) -> Option<Vec<String>> {
    let ln = r.loop_nest?;
    let loops = crate::nest_loops(ln.outer, ln.collapse);
    if loops.len() != ln.collapse as usize {
        return None;
    }
    let mut vars = Vec::new();
    let mut trips = Vec::new();
    for l in loops {
        let (var, t) = trip_of(typed, l, &vars, src)?;
        vars.push(var);
        trips.push(t);
    }
    Some(trips)
}

/// The loop variable of canonical loop `l` and its trip count as a non-negative
/// `long long` C expression.
fn trip_of(
    typed: &TypedUnit,
    l: &Stmt,
    outer: &[SymbolId],
    src: &dyn Fn(&Expr) -> String,
) -> Option<(SymbolId, String)> {
    let StmtKind::For(init, cond, step, _) = &l.kind else {
        return None;
    };
    let var = crate::loop_var(typed, l)?;
    let ty = typed.symbols[var].ty;
    if !typed.types.is_integer(ty) {
        return None;
    }
    let lb = match init {
        ForInit::Decl(d) => match &d.kind {
            ompcc_syntax::ast::DeclarationKind::Vars { declarators, .. } => {
                match declarators.first().and_then(|i| i.init.as_ref()) {
                    Some(Initializer::Expr(e)) => &**e,
                    _ => return None,
                }
            }
            _ => return None,
        },
        ForInit::Expr(e) => match &strip_parens(e).kind {
            ExprKind::Assign(None, _, r) => &**r,
            _ => return None,
        },
        ForInit::None => return None,
    };
    let is_var = |e: &Expr| {
        let e = strip_parens(e);
        matches!(e.kind, ExprKind::Ident(_)) && typed.ident_symbols.get(&e.id) == Some(&var)
    };
    let c = strip_parens(cond.as_deref()?);
    let (op, ub) = match &c.kind {
        ExprKind::Binary(op, a, b) if is_var(a) => (*op, &**b),
        ExprKind::Binary(op, a, b) if is_var(b) => (
            match op {
                BinaryOp::Lt => BinaryOp::Gt,
                BinaryOp::Le => BinaryOp::Ge,
                BinaryOp::Gt => BinaryOp::Lt,
                BinaryOp::Ge => BinaryOp::Le,
                o => *o,
            },
            &**a,
        ),
        _ => return None,
    };
    let st = strip_parens(step.as_deref()?);
    let (inc, neg): (Option<&Expr>, bool) = match &st.kind {
        ExprKind::Unary(UnaryOp::PreInc | UnaryOp::PostInc, x) if is_var(x) => (None, false),
        ExprKind::Unary(UnaryOp::PreDec | UnaryOp::PostDec, x) if is_var(x) => (None, true),
        ExprKind::Assign(Some(BinaryOp::Add), x, e) if is_var(x) => (Some(e), false),
        ExprKind::Assign(Some(BinaryOp::Sub), x, e) if is_var(x) => (Some(e), true),
        _ => return None,
    };
    for e in [Some(lb), Some(ub), inc].into_iter().flatten() {
        if !walk::pure_expr(typed, e, outer) {
            return None;
        }
    }
    let (lb, ub) = (src(lb), src(ub));
    let s = inc.map_or("1".to_owned(), src);
    let (lo, hi, adj) = match (op, neg) {
        (BinaryOp::Lt, false) => (lb, ub, 0),
        (BinaryOp::Le, false) => (lb, ub, 1),
        (BinaryOp::Gt, true) => (ub, lb, 0),
        (BinaryOp::Ge, true) => (ub, lb, 1),
        (BinaryOp::Ne, _) if inc.is_none() => {
            if neg {
                (ub, lb, 0)
            } else {
                (lb, ub, 0)
            }
        }
        _ => return None,
    };
    // ascending from lo to hi (exclusive, or inclusive with adj) by s
    let adj = if adj == 0 {
        String::new()
    } else {
        format!(" + {adj}")
    };
    Some((
        var,
        format!(
            "({{ long long __lo = (long long)({lo}), __hi = (long long)({hi}){adj}, \
             __s = (long long)({s}); __s > 0 && __hi > __lo ? (__hi - __lo + __s - 1) / __s \
             : 0; }})"
        ),
    ))
}
