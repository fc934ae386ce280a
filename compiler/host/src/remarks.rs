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
        let bound = |b: Bound<'_>| match b {
            Bound::One => "1".to_owned(),
            Bound::Least(es) => match es.as_slice() {
                [] => "runtime".to_owned(),
                [e] => src(e),
                es => format!(
                    "min({})",
                    es.iter().map(|e| src(e)).collect::<Vec<_>>().join(", ")
                ),
            },
        };
        let mode = match r.mode {
            ExecMode::Spmd => "SPMD",
            ExecMode::Generic => "generic",
            ExecMode::Serial => "serial",
        };
        let shape = launch_shape(r);
        let (mut teams, threads) = (bound(shape.teams), bound(shape.threads));
        if teams == "runtime"
            && r.mode == ExecMode::Spmd
            && crate::trip::nest_trips(plan_typed, r, &src).is_some()
        {
            // sized at launch: OMP_NUM_TEAMS, else no more than the iterations need
            teams = "trip-count".to_owned();
        }
        out.push_str(&format!(
            "{at}: remark: target region offloaded as kernel '{}': {mode} mode, {teams} teams x \
             {threads} threads, {} parameters [-Rpass=offload]\n",
            r.kernel,
            r.params.len()
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
                |m| describe_map(m),
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
