//! The static features of a loop the run-time choice works from (Wang, Grewe and O'Boyle's
//! kind, per iteration of the thread-mapped loop): integer, floating-point and special-function
//! operations, global loads and stores, the share of them that is coalesced (unit or zero
//! stride in the thread-mapped variable), and the trip count as a C expression.

use ompcc_access::walk::{self, Node};
use ompcc_access::{AccessKind, LoopId};
use ompcc_syntax::ast::ExprKind;

use crate::Candidate;

/// Inner loops whose trip count is not a constant count this many times.
const UNKNOWN_TRIP: i64 = 16;

pub(crate) struct Features {
    /// C expression of the iterations (`-1`: unknown).
    pub trip: String,
    pub int_ops: i64,
    pub float_ops: i64,
    pub special: i64,
    pub loads: i64,
    pub stores: i64,
    /// Coalesced loads and stores, per thousand.
    pub coalesced_permille: i64,
}

impl Features {
    /// The features of two kernels run one after the other (per iteration of the first).
    pub fn plus(&self, o: &Features) -> Features {
        let (a, b) = (self.loads + self.stores, o.loads + o.stores);
        Features {
            trip: self.trip.clone(),
            int_ops: self.int_ops + o.int_ops,
            float_ops: self.float_ops + o.float_ops,
            special: self.special + o.special,
            loads: self.loads + o.loads,
            stores: self.stores + o.stores,
            coalesced_permille: if a + b == 0 {
                1000
            } else {
                (self.coalesced_permille * a + o.coalesced_permille * b) / (a + b)
            },
        }
    }

    /// The feature arguments of `__ompcc_auto_select` after trip count and bytes.
    pub fn list(&self) -> String {
        format!(
            "{}, {}, {}, {}, {}, {}",
            self.int_ops,
            self.float_ops,
            self.special,
            self.loads,
            self.stores,
            self.coalesced_permille
        )
    }
}

pub(crate) fn features(c: &Candidate) -> Features {
    let fa = c.fa;
    let parallel = c.parallel_loops();
    // how many times an inner loop's body runs per iteration of the parallel loop(s)
    let weight = |loops: &[LoopId]| -> i64 {
        loops
            .iter()
            .filter(|l| !parallel.contains(l))
            .filter(|l| {
                let s = fa.loops[l.0 as usize].span;
                s.lo >= c.span.lo && s.hi <= c.span.hi
            })
            .map(|l| match &fa.loops[l.0 as usize].form {
                Ok(f) => {
                    f.hi.sub(&f.lo)
                        .and_then(|d| d.as_const())
                        .map_or(UNKNOWN_TRIP, |d| (d / f.step.abs() + 1).max(1))
                }
                Err(_) => UNKNOWN_TRIP,
            })
            .fold(1i64, |a, b| a.saturating_mul(b))
    };
    let inner = parallel.last().copied();
    let (mut loads, mut stores, mut coalesced) = (0i64, 0i64, 0i64);
    for (i, a) in fa.accesses.iter().enumerate() {
        if a.span.lo < c.span.lo || a.span.hi > c.span.hi {
            continue;
        }
        let w = weight(&a.loops);
        match a.kind {
            AccessKind::Read => loads += w,
            AccessKind::Write => stores += w,
            AccessKind::ReadWrite => {
                loads += w;
                stores += w;
            }
        }
        let unit = inner.is_some_and(|l| {
            c.ua.stride(c.fi, i, l)
                .ok()
                .and_then(|s| s.as_const())
                .is_some_and(|s| s.abs() <= 1)
        });
        if unit {
            coalesced += w;
        }
    }
    // operations: walk the loop statement, weighting each by the loops around it
    let loops_at = |s: ompcc_diag::Span| -> Vec<LoopId> {
        fa.loops
            .iter()
            .filter(|l| l.body.lo <= s.lo && s.hi <= l.body.hi)
            .map(|l| l.id)
            .collect()
    };
    let (mut int_ops, mut float_ops, mut special) = (0i64, 0i64, 0i64);
    if let Some(body) = c.directive.body.as_deref() {
        walk::stmt(body, &mut |n| {
            let Node::Expr(e) = n else { return };
            let op = match &e.kind {
                ExprKind::Binary(..) | ExprKind::Assign(Some(_), ..) => true,
                ExprKind::Call(callee, _) => {
                    if let ExprKind::Ident(_) = &walk::strip_parens(callee).kind
                        && crate::legal::device_library(c.src(callee.span).trim())
                    {
                        special += weight(&loops_at(e.span));
                    }
                    false
                }
                _ => false,
            };
            if !op {
                return;
            }
            let w = weight(&loops_at(e.span));
            let float = c
                .typed
                .expr(e.id)
                .is_some_and(|info| c.typed.types.is_floating(info.conv));
            if float {
                float_ops += w;
            } else {
                int_ops += w;
            }
        });
    }
    let total = loads + stores;
    Features {
        trip: trip_count(c, &parallel),
        int_ops,
        float_ops,
        special,
        loads,
        stores,
        coalesced_permille: if total == 0 {
            1000
        } else {
            coalesced * 1000 / total
        },
    }
}

/// The product of the distributed loops' trip counts as C, or `-1` when a bound depends on
/// another of them or is not canonical.
fn trip_count(c: &Candidate, parallel: &[LoopId]) -> String {
    let fa = c.fa;
    let vars: Vec<_> = parallel
        .iter()
        .filter_map(|l| fa.loops[l.0 as usize].form.as_ref().ok().map(|f| f.var))
        .collect();
    let mut parts = Vec::new();
    for l in parallel {
        let Ok(f) = &fa.loops[l.0 as usize].form else {
            return "-1".to_owned();
        };
        let depends =
            f.lo.vars()
                .iter()
                .chain(f.hi.vars().iter())
                .any(|v| vars.contains(v));
        let Some(span) = f.hi.sub(&f.lo) else {
            return "-1".to_owned();
        };
        if depends {
            return "-1".to_owned();
        }
        let step = f.step.abs().max(1);
        if let Some(k) = span.as_const() {
            parts.push(if k >= 0 {
                (k / step + 1).to_string()
            } else {
                "0".to_owned()
            });
            continue;
        }
        match span.div(step).and_then(|q| q.add_const(1)) {
            // a negative count (an empty loop) reads as unknown at run time
            Some(n) => parts.push(format!("(long)({})", c.ua.expr_c(&n))),
            None => {
                let span = c.ua.expr_c(&span);
                parts.push(format!(
                    "((long)({span}) >= 0 ? (long)({span}) / {step} + 1 : 0L)"
                ));
            }
        }
    }
    if parts.is_empty() {
        "-1".to_owned()
    } else {
        parts.join(" * ")
    }
}
