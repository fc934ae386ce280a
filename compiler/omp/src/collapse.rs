//! Automatic collapse (issue 16 item 3): a distributed loop of few iterations gives the grid
//! few threads (a loop of 64 rows fills two warps). When its body is a parallel loop, the
//! threads may take the pairs `(i, j)` instead, as `collapse(2)` would: the plan's
//! `loop_nest.collapse` becomes 2, lowering runs the two loops as one iteration space (the
//! inner index as the fastest digit) and the host sizes the launch from the product of the
//! trip counts.
//!
//! Taken when the distributed loop's trip count is a constant below [`FEW_ITERATIONS`], the
//! grid mapping kept the nest as written (no loop swap, no cooperative loop), consecutive
//! threads taking consecutive inner iterations loses no coalescing (the inner loop's unit or
//! zero stride bytes, scored as for the swap, are at least the outer loop's), and the
//! analysis proves it legal: the inner loop is the whole body of the distributed one
//! (perfectly nested), both are canonical, the inner one's bounds use no variable of the
//! outer one, neither exits early, the inner loop carries no dependence and its scalar
//! reductions are the directive's, its variable is declared in its `for`, and the directive
//! leaves the assignment of iterations to the implementation (no `schedule`,
//! `dist_schedule`, `ordered`, `lastprivate`, `linear`).
//!
//! A triangular nest (`for (j = 0; j <= i; j++)`, `for (j = i; j < n; j++)`: the inner
//! bounds use the outer variable) is collapsed too (`-C triangular-collapse`) when both
//! bounds are affine in the outer variable and the inner step is ±1: the threads take the
//! pairs `(i, j)` of `i`'s range times the bounding box of `j`'s ranges at `i`'s first and
//! last values (affine bounds are monotone in `i`, so every row's range lies inside), and
//! each runs the body only when its `j` is in row `i`'s range (`GridMapping::box_over` over
//! the collapsed outer loop). Every pair of the triangle runs exactly once, on one thread;
//! the threads outside it do nothing.

use ompcc_access::{Atom, ReductionTarget};
use ompcc_syntax::ast::{ForInit, StmtKind};

use crate::grid::Cx;
use crate::plan::{GridMapping, TargetRegion};
use crate::strip_compound;

/// A distributed loop with a constant trip count below this many iterations under-fills
/// the grid (a few warps per multiprocessor of a large GPU), so a parallel inner loop joins it.
pub const FEW_ITERATIONS: i64 = 2048;

/// What the automatic collapse decided for one region.
pub(crate) enum CollapseDecision<'a> {
    /// Not considered (a long or unknown trip count, no inner loop).
    Keep,
    /// Collapsed: the remark, and for a triangular nest the boxed mapping.
    Done(String, Option<GridMapping<'a>>),
    /// Not collapsed: the missing fact.
    Missed(String),
}

impl<'a> Cx<'_, 'a> {
    /// Whether the one distributed loop of region `r` (collapse 1) should take its inner
    /// loop along (see the module header).
    /// `triangular`: a nest whose inner bounds use the outer variable may be collapsed too.
    pub(crate) fn decide_collapse(
        &self,
        r: &TargetRegion<'a>,
        triangular: bool,
    ) -> CollapseDecision<'a> {
        let Some(ln) = r.loop_nest else {
            return CollapseDecision::Keep;
        };
        if ln.collapse != 1 {
            return CollapseDecision::Keep;
        }
        let Some(outer_id) = self.loop_id(ln.outer) else {
            return CollapseDecision::Keep;
        };
        let f = &self.ua.functions[self.fi];
        let outer = &f.loops[outer_id.0 as usize];
        let Ok(oc) = &outer.form else {
            return CollapseDecision::Keep;
        };
        let (Some(lo), Some(hi)) = (oc.lo.as_const(), oc.hi.as_const()) else {
            return CollapseDecision::Keep;
        };
        // (checked: a constant bound near the ends of `i64` or a zero step is no short loop)
        let span = if oc.step > 0 {
            hi.checked_sub(lo)
        } else {
            lo.checked_sub(hi)
        };
        let trip = span
            .zip(oc.step.checked_abs())
            .and_then(|(d, s)| d.checked_div(s))
            .and_then(|t| t.checked_add(1));
        let Some(trip) = trip.filter(|&t| t > 0 && t < FEW_ITERATIONS) else {
            return CollapseDecision::Keep;
        };
        let StmtKind::For(_, _, _, body) = &ln.outer.kind else {
            return CollapseDecision::Keep;
        };
        let inner_stmt = strip_compound(body);
        let from = self.var_name(outer_id);
        let Some(inner_id) = f
            .loops
            .iter()
            .find(|l| l.parent == Some(outer_id))
            .map(|l| l.id)
        else {
            return CollapseDecision::Keep;
        };
        let to = match crate::loop_var(self.ua.unit, inner_stmt) {
            Some(v) => self.ua.unit.symbols[v].name.clone(),
            None => self.var_name(inner_id),
        };
        let missed = |why: String| {
            CollapseDecision::Missed(format!(
                "loop '{from}' has {trip} iterations (fewer than {FEW_ITERATIONS}), but its inner loop '{to}' was not collapsed with it: {why}"
            ))
        };
        if !matches!(inner_stmt.kind, StmtKind::For(..))
            || self.loop_id(inner_stmt) != Some(inner_id)
        {
            return missed(format!(
                "'{to}' is not perfectly nested in '{from}' (statements around it)"
            ));
        }
        if let Err(why) = self.directive_allows(r, ln.directive, ln.outer) {
            return missed(why);
        }
        let inner = &f.loops[inner_id.0 as usize];
        let ic = match &inner.form {
            Ok(c) => c,
            Err(u) => return missed(format!("loop '{to}': {}", u.reason.message())),
        };
        if outer.early_exit || inner.early_exit {
            return missed("a loop may exit early (break, goto or return)".into());
        }
        let boxed = ic.lo.vars().contains(&oc.var) || ic.hi.vars().contains(&oc.var);
        if boxed {
            let why = if !triangular {
                Some("triangular collapse is off (-C triangular-collapse=off)".to_string())
            } else if ic.step.abs() != 1 {
                Some(format!(
                    "its step is {}, and a triangular collapse needs 1 or -1",
                    ic.step
                ))
            } else if [&ic.lo, &ic.hi]
                .iter()
                .any(|b| b.split_linear(&Atom::Var(oc.var)).is_none())
            {
                Some(format!("they are not affine in '{from}'"))
            } else {
                None
            };
            if let Some(why) = why {
                return missed(format!(
                    "the bounds of '{to}' depend on the outer variable '{from}' (a triangular nest): {why}"
                ));
            }
        }
        if !matches!(&inner_stmt.kind, StmtKind::For(ForInit::Decl(_), ..)) {
            return missed(format!(
                "the variable of loop '{to}' is not declared in its 'for'"
            ));
        }
        if let Err(u) = self.ua.independent(self.fi, inner_id) {
            return missed(format!("loop '{to}': {}", u.reason.message()));
        }
        for red in self.ua.reductions(self.fi, inner_id) {
            let ok = match red.target {
                ReductionTarget::Scalar(s) => r.reductions.iter().any(|x| x.sym == s),
                ReductionTarget::Element { .. } => false,
            };
            if !ok {
                return missed(format!(
                    "loop '{to}' reduces into a variable that is not a reduction of the directive"
                ));
            }
        }
        // the inner index becomes the fastest digit: not when that loses coalescing
        let accesses = self.nest_accesses(outer_id, inner_id);
        let (so, si) = (
            self.score(&accesses, outer_id),
            self.score(&accesses, inner_id),
        );
        if si < so {
            return missed(format!(
                "consecutive threads would take consecutive '{to}', which has unit or zero stride for fewer bytes than '{from}' ({si} vs {so} per iteration; strides in '{from}': {}; in '{to}': {})",
                self.strides_text(&accesses, outer_id),
                self.strides_text(&accesses, inner_id)
            ));
        }
        let StmtKind::For(_, _, _, inner_body) = &inner_stmt.kind else {
            return CollapseDecision::Keep;
        };
        let (mapping, how) = if boxed {
            (
                Some(GridMapping {
                    threaded: ln.outer,
                    sequential: Vec::new(),
                    body: inner_body,
                    box_over: Some(oc.var),
                    cooperative: None,
                }),
                format!(
                    " (a triangular nest: the bounding box of the ranges of '{to}', each thread checking its own row's range)"
                ),
            )
        } else {
            (None, String::new())
        };
        CollapseDecision::Done(
            format!(
                "automatic collapse: loop '{from}' (line {}) has {trip} iterations (fewer than {FEW_ITERATIONS}); the grid's threads take the iterations of '{from}' and '{to}' (line {}) together, as collapse(2) would{how}",
                self.line(ln.outer.span),
                self.line(inner_stmt.span),
            ),
            mapping,
        )
    }
}
