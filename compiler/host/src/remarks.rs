//! `-Rpass=offload`: per `target` region, a remark at the construct naming the kernel it
//! became, its execution mode and launch shape (`trip-count teams`: sized at launch by the
//! loop's iteration count, see `trip`), and every parameter and map entry.
//!
//! The lines follow the compiler-message shape (`file:line:col: remark: ...`) so editors
//! find them; the first line of each region ends with the flag that asked for it.

use crate::{Bound, launch_shape};
use ompcc_diag::SourceMap;
use ompcc_omp::{ExecMode, MapItem, OffloadPlan, Pass};
use ompcc_syntax::ast::{MapModifier, MapType};

/// The remark lines for every region of `plan` (each ends with a newline).
pub fn remarks(
    plan: &OffloadPlan<'_>,
    plan_typed: &ompcc_sema::TypedUnit,
    sm: &SourceMap,
    text: &str,
) -> String {
    let mut out = String::new();
    for r in &plan.regions {
        let at = sm.describe(r.directive.span);
        let src = |e: &ompcc_syntax::ast::Expr| text.get(e.span.range()).unwrap_or("?").to_owned();
        // A count known at compile time (a constant or the clause's expression), or `None`
        // when the runtime picks it at launch.
        let bound = |b: Bound<'_>| match b {
            Bound::One => Some("1".to_owned()),
            Bound::Least(es) => match es.as_slice() {
                [] => None,
                [(_, e)] => Some(src(e)),
                es => Some(format!(
                    "min({})",
                    es.iter()
                        .map(|(_, e)| src(e))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            },
        };
        let mode = match r.mode {
            ExecMode::Spmd => "SPMD",
            ExecMode::Generic => "generic",
            ExecMode::Serial => "serial",
        };
        let shape = launch_shape(r);
        // Without num_teams, an SPMD nest whose trip count the host can compute gets no more
        // teams than its iterations need (OMP_NUM_TEAMS first): sized at launch.
        let by_trip =
            r.mode == ExecMode::Spmd && ompcc_omp::nest_trips(plan_typed, r, &src).is_some();
        let shape = describe_shape(bound(shape.teams), bound(shape.threads), by_trip);
        let params = plural(r.params.len(), "parameter");
        out.push_str(&format!(
            "{at}: remark: target region offloaded as kernel '{}': {mode} mode, {shape}, \
             {params} [-Rpass=offload]\n",
            r.kernel,
        ));
        for (i, p) in r.params.iter().enumerate() {
            let how = match p.pass {
                Pass::Ref => "device address",
                Pass::DevicePtr => "device pointer",
                Pass::Value => "value",
                Pass::Copy => "copy of the value",
                Pass::DeviceAddr => "device address as given",
            };
            let map = p.map.as_ref().map_or_else(
                || {
                    if p.pass == Pass::DeviceAddr {
                        "has_device_addr".to_owned()
                    } else {
                        "firstprivate".to_owned()
                    }
                },
                |m| {
                    if p.pass == Pass::DevicePtr && m.implicit {
                        // What the runtime maps: OpenMP's zero-length section of a pointer.
                        format!(
                            "map(tofrom: {}[:0]) implicit, a zero-length section: the device \
                             sees data mapped before the region, else the host address",
                            m.name
                        )
                    } else {
                        describe_map(m)
                    }
                },
            );
            out.push_str(&format!(
                "{at}: remark:   parameter {i} '{}' ({how}, {} bytes): {map}\n",
                p.name, p.size
            ));
        }
        for m in &r.extra_maps {
            out.push_str(&format!("{at}: remark:   also maps {}\n", describe_map(m)));
        }
    }
    out
}

/// `n thing` or `n things`.
fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The launch shape: counts known at compile time as written, the others chosen at launch.
fn describe_shape(teams: Option<String>, threads: Option<String>, by_trip: bool) -> String {
    let count = |n: &str, thing: &str| {
        if n == "1" {
            format!("1 {thing}")
        } else {
            format!("{n} {thing}s")
        }
    };
    match (teams, threads) {
        (Some(t), Some(h)) => format!("{} x {}", count(&t, "team"), count(&h, "thread")),
        (Some(t), None) => format!("{}, threads per team chosen at launch", count(&t, "team")),
        (None, Some(h)) if by_trip => {
            format!("teams from the trip count x {}", count(&h, "thread"))
        }
        (None, None) if by_trip => {
            "teams from the trip count, threads per team chosen at launch".to_owned()
        }
        (None, Some(h)) => format!("number of teams chosen at launch x {}", count(&h, "thread")),
        (None, None) => "teams and threads per team chosen at launch".to_owned(),
    }
}

fn describe_map(m: &MapItem<'_>) -> String {
    let ty = match m.map_type {
        MapType::To => "to",
        MapType::From => "from",
        MapType::ToFrom => "tofrom",
        MapType::Alloc => "alloc",
        MapType::Release => "release",
        MapType::Delete => "delete",
    };
    let mut mods = String::new();
    for modifier in &m.modifiers {
        mods.push_str(match modifier {
            MapModifier::Always => "always, ",
            MapModifier::Close => "close, ",
            MapModifier::Present => "present, ",
        });
    }
    format!(
        "map({mods}{ty}: {}) {}",
        m.name,
        if m.implicit { "implicit" } else { "explicit" }
    )
}
