//! The iteration count of a region's distributed loop nest as a C expression, evaluated by
//! the host just before the launch: the runtime sizes the league by it (no more teams than
//! the iterations need) when neither `num_teams` nor `OMP_NUM_TEAMS` says otherwise.
//!
//! Only canonical loops (OpenMP 5.2 4.4.1) whose bounds and step are free of side effects
//! (no calls, assignments, increments, comma or statement expressions) and, in a collapsed
//! nest, do not use an outer loop's variable, get a count; any other nest gets none (`0`:
//! unknown), so evaluating the count can never change what the program does. A region whose
//! grid mapping shares an inner loop among a group of lanes counts `lanes` per iteration.

use crate::Writer;
use ompcc_omp::{TargetRegion, nest_trips, one_iteration_grid};
use ompcc_syntax::ast::Expr;

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
                "__extension__({{ long long __t = {}; (unsigned int)(__t > 0xffffffffLL ? 0xffffffffu : __t); }})",
                trips[0]
            ),
            Some(trips) => {
                let product = trips
                    .iter()
                    .map(|t| format!("(unsigned __int128)({t})"))
                    .collect::<Vec<_>>()
                    .join(" * ");
                format!(
                    "__extension__({{ unsigned __int128 __t = {product}; \
                     (unsigned int)(__t > 0xffffffffu ? 0xffffffffu : __t); }})"
                )
            }
            None => "0u".to_owned(),
        }
    }

    /// The `nest` field of `r`'s launch: when its one-iteration variant runs on a grid of
    /// two or three dimensions (`ompcc_omp::one_iteration_grid`), the trip counts of the
    /// collapsed loops innermost first (1 for an absent third), each saturated at
    /// `UINT_MAX`; else zeros, and the runtime gives the variant a one-dimensional grid.
    pub(crate) fn nest_hint(&self, r: &TargetRegion<'_>) -> String {
        let zeros = "{0u, 0u, 0u}".to_owned();
        if one_iteration_grid(r) == 1 {
            return zeros;
        }
        let src = |e: &Expr| self.src(e);
        let Some(trips) = nest_trips(self.typed, r, &src) else {
            return zeros;
        };
        let mut dims: Vec<String> = trips
            .iter()
            .rev()
            .map(|t| {
                format!(
                    "__extension__({{ long long __t = {t}; \
                     (unsigned int)(__t > 0xffffffffLL ? 0xffffffffu : __t); }})"
                )
            })
            .collect();
        dims.resize(3, "1u".to_owned());
        format!("{{{}}}", dims.join(", "))
    }
}
