//! The one-iteration kernel variant (issue 17): a region whose grid's threads share a loop
//! nest gets a second kernel, `<kernel>_one` ([`ONE_ITERATION_SUFFIX`]), in which each
//! thread runs the one iteration its global thread number names, if any: no loop, no stride,
//! no first-iteration setup, the collapsed indices recovered once from the thread number.
//! The runtime launches it instead of the grid-stride kernel when it can give every iteration
//! a thread (the host's iteration hint is known and neither `num_teams` nor `OMP_NUM_TEAMS`
//! bounds the league), which is CUDA's one-thread-per-element form.
//!
//! Any assignment of iterations to threads is one OpenMP allows for such a loop when the
//! directives leave it to the implementation: no `schedule`, `dist_schedule` or `ordered`
//! clause (`lastprivate` and `linear` work in any assignment: the thread that runs the
//! sequentially last iteration writes the lastprivate copy back). Regions with a reduction
//! are left out too: each team combines a partial result, and a team per block of iterations
//! would combine many more. Every region left out keeps the grid-stride kernel alone, with a
//! `-Rpass-missed=one-iteration` remark naming why.
//!
//! A collapsed nest of two or three loops runs on a grid of as many dimensions
//! ([`one_iteration_grid`]): block x over the innermost loop, grid y and z over the outer
//! ones, so each index is a block or thread number and no thread divides (CUDA's form).

use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::OmpClauseName as C;

use crate::grid::GridRemark;
use crate::plan::{ExecMode, OffloadPlan, TargetRegion};

/// What the one-iteration kernel of region kernel `K` is called: `K_one` (a kernel name ends
/// in `_l<line>`, `_r<n>` or `_<n>`, so no other region's kernel has this name). The runtime
/// finds the variant by this name.
pub const ONE_ITERATION_SUFFIX: &str = "_one";

/// The most loops a one-iteration variant spreads over the dimensions of its grid.
const GRID_LOOPS: u32 = 3;

/// The number of grid dimensions region `r`'s one-iteration variant runs on: the collapsed
/// loops when there are two or three and the threads take the directive's own nest, else 1
/// (the iteration's indices are divided out of the global thread number). The host passes
/// the trip counts of a multi-dimensional variant and the runtime sizes its grid by them.
pub fn one_iteration_grid(r: &TargetRegion<'_>) -> u32 {
    let Some(ln) = r.loop_nest else { return 1 };
    let own_nest = r
        .grid
        .as_ref()
        .is_none_or(|g| std::ptr::eq(g.threaded, ln.outer));
    if r.one_iteration && own_nest && (2..=GRID_LOOPS).contains(&ln.collapse) {
        ln.collapse
    } else {
        1
    }
}

/// Marks the regions of `plan` that get a one-iteration kernel variant
/// (`TargetRegion::one_iteration`); a missed remark for each SPMD loop region that does not.
pub fn choose_one_iteration(plan: &mut OffloadPlan<'_>, typed: &TypedUnit) -> Vec<GridRemark> {
    let mut remarks = Vec::new();
    for r in plan.regions.iter_mut() {
        let Some(ln) = r.loop_nest else {
            continue;
        };
        if r.mode != ExecMode::Spmd || !r.league {
            continue;
        }
        match why_not(r, typed) {
            None => r.one_iteration = true,
            Some(why) => remarks.push(GridRemark {
                pass: "one-iteration",
                passed: false,
                span: ln.directive.span,
                message: format!("the loop keeps its grid-stride kernel only: {why}"),
            }),
        }
    }
    remarks
}

/// Why region `r` (SPMD, a league sharing a loop nest) gets no one-iteration variant.
fn why_not(r: &TargetRegion<'_>, typed: &TypedUnit) -> Option<String> {
    let ln = r.loop_nest?;
    if r.num_teams.is_some() {
        return Some("'num_teams' fixes the number of teams".into());
    }
    for dir in [r.directive, ln.directive] {
        for c in &dir.clauses {
            if matches!(c.name, C::Schedule | C::DistSchedule | C::Ordered) {
                return Some(format!(
                    "the '{}' clause fixes which thread runs each iteration",
                    c.name.as_str()
                ));
            }
            // such a loop runs in order on one thread (lowering's `in_order_loop`)
            if crate::grid::in_order_reduction(c) {
                return Some(
                    "a user-defined reduction or one with a modifier ('inscan' loops run in order \
                     on one thread)"
                        .into(),
                );
            }
        }
    }
    if !r.reductions.is_empty() {
        // every team combines its partial result into the original (an atomic per team):
        // the grid-stride kernel's league, sized to fill the device, combines far fewer
        // (CUDA's reductions stride the same way); the emulator counted 11x the
        // instructions for `dot` with a team per 128 iterations
        return Some(
            "a reduction: each team adds its partial result to the original, and the \
             grid-stride league has far fewer teams"
                .into(),
        );
    }
    if crate::nest_unroll(ln.outer, ln.collapse).is_some() {
        return Some("an 'unroll' construct is the loop".into());
    }
    if let Some(g) = &r.grid {
        if g.cooperative.is_some() {
            return Some("a group of lanes shares each iteration's inner loop".into());
        }
        if g.box_over.is_some() {
            return Some("the threads take a triangle's bounding box".into());
        }
    }
    if crate::nest_trips(typed, r, &|_| String::new()).is_none() {
        return Some(
            "the host cannot count the iterations before the launch (bounds with side \
             effects, or an inner loop's bounds use an outer loop's variable)"
                .into(),
        );
    }
    None
}
