//! The iteration count of a region's distributed loop nest as a C expression, evaluated by
//! the host just before the launch: the runtime sizes the league by it (no more teams than
//! the iterations need) when neither `num_teams` nor `OMP_NUM_TEAMS` says otherwise.
//!
//! Only canonical loops (OpenMP 5.2 4.4.1) whose bounds and step are free of side effects
//! (no calls, assignments, increments, comma or statement expressions) and, in a collapsed
//! nest, do not use an outer loop's variable, get a count; any other nest gets none (`0`:
//! unknown), so evaluating the count can never change what the program does. A region whose
//! grid mapping shares an inner loop among a group of lanes counts `lanes` per iteration.

use crate::{Writer, strip_parens};
use ompcc_omp::TargetRegion;
use ompcc_omp::walk;
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{BinaryOp, Expr, ExprKind, ForInit, Initializer, Stmt, StmtKind, UnaryOp};

impl Writer<'_> {
    /// `(unsigned int)` count of the iterations of `r`'s loop nest, saturated at `UINT_MAX`,
    /// or `0u` when it has none or it cannot be computed safely.
    pub(crate) fn iterations_hint(&self, r: &TargetRegion<'_>) -> String {
        let src = |e: &Expr| self.src(e);
        // a warp-cooperative inner loop takes a group of lanes per iteration
        let lanes = r.grid.as_ref().and_then(|g| g.cooperative).map(|c| c.lanes);
        let trips = nest_trips(self.typed, r, &src).map(|mut t| {
            t.extend(lanes.map(|l| l.to_string()));
            t
        });
        match trips {
            // One loop: its count is a nonnegative long long; a nest multiplies in 128 bits.
            Some(trips) if trips.len() == 1 => format!(
                "({{ long long __t = {}; (unsigned int)(__t > 0xffffffffLL ? 0xffffffffu : __t); }})",
                trips[0]
            ),
            Some(trips) => {
                let product = trips
                    .iter()
                    .map(|t| format!("(unsigned __int128)({t})"))
                    .collect::<Vec<_>>()
                    .join(" * ");
                format!(
                    "({{ unsigned __int128 __t = {product}; \
                     (unsigned int)(__t > 0xffffffffu ? 0xffffffffu : __t); }})"
                )
            }
            None => "0u".to_owned(),
        }
    }
}

/// The trip counts (C expressions) of `r`'s distributed loops, when all can be computed
/// safely before the region.
pub(crate) fn nest_trips(
    typed: &TypedUnit,
    r: &TargetRegion<'_>,
    src: &dyn Fn(&Expr) -> String,
) -> Option<Vec<String>> {
    let ln = r.loop_nest?;
    let loops = ompcc_omp::nest_loops(ln.outer, ln.collapse);
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
    let var = ompcc_omp::loop_var(typed, l)?;
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
