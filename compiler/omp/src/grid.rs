//! Grid mapping (issue 16, DESIGN.md section 11): which loop of an SPMD region's loop nest
//! the grid's threads take. A warp's 32 loads are fast only when consecutive threads touch
//! adjacent addresses, so the loop whose variable walks the contiguous dimension should be
//! the one the threads share.
//!
//! For each SPMD region whose loop directive distributes one loop (no `collapse`), the
//! candidates are the loops of its perfectly nested band (the distributed loop and the
//! `for` loops that are each the whole body of the one before). Each candidate is scored by
//! the bytes of the nest's accesses whose stride in its variable is 0 or ±1 (a broadcast or
//! a coalesced access; an access inside loops deeper than the band weighs 8x per loop, since
//! it runs once per iteration of each). The best candidate, when it beats the distributed
//! loop, is swapped in (parallel loop swap, OpenMPC Fig. 4): its iterations go to the
//! threads and each thread runs the band's other loops in their order around the body.
//!
//! Legal only when the access analysis proves it: every band loop from the distributed one
//! down to the chosen one carries no dependence (`independent`; the distributed loop itself
//! is asserted parallel by the directive), the band's loops are canonical and rectangular
//! (their bounds use no band variable; the chosen loop's may use one outer band variable
//! when its step is ±1 and its bounds are affine in it: the threads then take the bounding
//! box of its ranges and each checks its own, `GridMapping::box_over`), none exits early, the chosen loop's variable is
//! declared in its `for`, scalar reductions are the directive's, and the directive has no
//! clause that fixes the assignment of iterations (`schedule`, `dist_schedule`, `ordered`,
//! `lastprivate`, `linear`, an `unroll` as the loop). Otherwise the nest stays as written
//! and a missed remark names the first missing fact.
//!
//! A nest kept as written may instead share its inner reduction loop among a group of lanes
//! (module `coop`, `GridMapping::cooperative`).

use ompcc_access::{Access, Atom, LoopId, ReductionTarget, UnitAccesses};
use ompcc_diag::{SourceMap, Span};
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{
    ForInit, OmpClause, OmpClauseKind, OmpClauseName as C, OmpDirective, Stmt, StmtKind,
    TranslationUnit,
};

use crate::collapse::CollapseDecision;
use crate::layout::LayoutDecision;
use crate::plan::{ExecMode, GridMapping, OffloadPlan, TargetRegion};
use crate::strip_compound;

/// What the grid mapping may do.
#[derive(Clone, Copy, Debug)]
pub struct GridOptions {
    /// Parallel loop swap (`-C loop-swap=on|off`, on at -O2 and above).
    pub loop_swap: bool,
    /// Warp-cooperative inner loops (`-C warp-coop=on|off|reassoc`, on at -O2 and above).
    pub warp_coop: bool,
    /// ... for floating-point reductions too, whose result then rounds differently
    /// (`-C warp-coop=reassoc`).
    pub reassociate: bool,
    /// Private array layout (`-C private-layout=on|off`, on at -O2 and above): device-only
    /// work arrays indexed thread-major are laid out thread-minor (module `layout`).
    pub private_layout: bool,
    /// Automatic collapse (`-C auto-collapse=on|off`, on at -O2 and above): a parallel inner
    /// loop joins a distributed loop of few iterations (module `collapse`).
    pub auto_collapse: bool,
    /// ... for triangular nests too (`-C triangular-collapse=on|off`, on at -O2 and above):
    /// the threads take the bounding box of the inner loop's ranges (module `collapse`).
    pub triangular_collapse: bool,
    /// Warp-cooperative floating-point reductions without `reassociate` shared in order
    /// (`-C ordered-coop=on|off`, on at -O2 and above; module `coop`).
    pub ordered_coop: bool,
    /// Disjoint kernel parameters (`-C noalias-maps=on|off`, on at -O2 and above): address
    /// parameters proven disjoint from everything else the kernel reaches are `noalias`
    /// (module `disjoint`).
    pub noalias_maps: bool,
    /// ... for inner loops whose bounds are read from memory too (CSR rows of unknown length,
    /// `-C ordered-coop=all`).
    pub ordered_irregular: bool,
    /// Irregular loop collapsing (`-C irregular-collapse=on|off`, on at -O2 and above): a
    /// floating-point sum over a CSR row is computed by the warp over its rows' nonzeros
    /// flattened, in each row's order (module `coop`, `Cooperative::flattened`).
    pub irregular_collapse: bool,
}

/// One `-Rpass=coalesce` (`passed`) or `-Rpass-missed=coalesce` remark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridRemark {
    /// The remark's pass name: `coalesce` (the grid mapping), or `readonly` (disjoint kernel
    /// parameters, which `ld.global.nc` needs).
    pub pass: &'static str,
    /// A transform was done (`-Rpass`), or a better mapping was not taken (`-Rpass-missed`).
    pub passed: bool,
    /// The loop directive it is about.
    pub span: Span,
    /// What was done, or which fact was missing.
    pub message: String,
}

/// Decides the grid mapping of every SPMD region of `plan` (see the module header): sets
/// `TargetRegion::grid` and points the region's `loop_nest.outer` at the loop the threads
/// take, so lowering and the host's launch sizing both follow it.
pub fn map_grids<'a>(
    plan: &mut OffloadPlan<'a>,
    tu: &'a TranslationUnit,
    typed: &'a TypedUnit,
    sm: &SourceMap,
    opts: GridOptions,
) -> Vec<GridRemark> {
    let mut remarks = Vec::new();
    let wanted = |r: &TargetRegion<'_>| {
        (opts.loop_swap && candidate(r))
            || (opts.warp_coop && (candidate(r) || teams_distribute(r)))
            || ((opts.private_layout || opts.auto_collapse) && layout_candidate(r))
    };
    // `restrict` pointers are noalias at every level (the source's promise), when no other
    // parameter may be based on them; `noalias-maps` proves the other parameters
    let restricts = |r: &TargetRegion<'_>| r.params.iter().any(|p| restrict_pointer(typed, p));
    let pointers = |r: &TargetRegion<'_>| (opts.noalias_maps && r.params.len() > 1) || restricts(r);
    if !plan.regions.iter().any(|r| wanted(r) || pointers(r)) {
        return remarks;
    }
    let ua = ompcc_access::analyze(tu, typed);
    let data = &plan.data;
    let globals = &plan.device_globals;
    for r in plan.regions.iter_mut() {
        let Some(fi) = ua.functions.iter().position(|f| f.span == r.function.span) else {
            continue;
        };
        if pointers(r) {
            noalias_params(&ua, fi, typed, r, globals, !opts.noalias_maps, &mut remarks);
        }
        if !wanted(r) {
            continue;
        }
        let cx = Cx { ua: &ua, fi, sm };
        let swap = if opts.loop_swap && candidate(r) {
            cx.decide(r)
        } else {
            Decision::Keep
        };
        // a nest kept as written may still share its inner reduction loop among lanes
        let decision = match swap {
            Decision::Swap { .. } => swap,
            _ if !opts.warp_coop || !(candidate(r) || teams_distribute(r)) => swap,
            _ => match (
                cx.decide_cooperative(
                    r,
                    (
                        opts.reassociate,
                        opts.ordered_coop,
                        opts.ordered_coop && opts.ordered_irregular,
                        opts.irregular_collapse,
                    ),
                ),
                swap,
            ) {
                (c @ Decision::Swap { .. }, _) => c,
                (Decision::Missed(s, m), Decision::Missed(s2, m2)) => {
                    remarks.push(GridRemark {
                        pass: "coalesce",
                        passed: false,
                        span: s2,
                        message: m2,
                    });
                    Decision::Missed(s, m)
                }
                (Decision::Keep, other) => other,
                (missed, _) => missed,
            },
        };
        match decision {
            Decision::Keep => {}
            Decision::Missed(span, message) => remarks.push(GridRemark {
                pass: "coalesce",
                passed: false,
                span,
                message,
            }),
            Decision::Swap { mapping, message } => {
                if let Some(ln) = &mut r.loop_nest
                    && mapping.box_over.is_none()
                {
                    ln.outer = mapping.threaded;
                }
                remarks.push(GridRemark {
                    pass: "coalesce",
                    passed: true,
                    span: r.loop_nest.map_or(r.directive.span, |l| l.directive.span),
                    message,
                });
                r.grid = Some(mapping);
            }
        }
        if opts.auto_collapse && r.grid.is_none() && candidate(r) {
            let span = r.loop_nest.map_or(r.directive.span, |l| l.directive.span);
            match cx.decide_collapse(r, opts.triangular_collapse) {
                CollapseDecision::Keep => {}
                CollapseDecision::Done(message, mapping) => {
                    if let Some(ln) = &mut r.loop_nest {
                        ln.collapse = 2;
                    }
                    r.grid = mapping;
                    remarks.push(GridRemark {
                        pass: "coalesce",
                        passed: true,
                        span,
                        message,
                    });
                }
                CollapseDecision::Missed(message) => remarks.push(GridRemark {
                    pass: "coalesce",
                    passed: false,
                    span,
                    message,
                }),
            }
        }
        if opts.private_layout && layout_candidate(r) {
            let span = r.loop_nest.map_or(r.directive.span, |l| l.directive.span);
            for d in cx.decide_layouts(r, data) {
                match d {
                    LayoutDecision::Done(layout, message) => {
                        r.layouts.push(layout);
                        remarks.push(GridRemark {
                            pass: "coalesce",
                            passed: true,
                            span,
                            message,
                        });
                    }
                    LayoutDecision::Missed(message) => remarks.push(GridRemark {
                        pass: "coalesce",
                        passed: false,
                        span,
                        message,
                    }),
                }
            }
        }
    }
    remarks
}

/// Whether kernel parameter `p` carries a `restrict`-qualified pointer.
fn restrict_pointer(typed: &TypedUnit, p: &crate::plan::Param<'_>) -> bool {
    let ty = typed.symbols[p.sym].ty;
    matches!(
        p.pass,
        crate::plan::Pass::DevicePtr | crate::plan::Pass::Value
    ) && typed.types.is_pointer(ty)
        && typed
            .types
            .canon(ty)
            .quals
            .contains(ompcc_sema::types::Quals::RESTRICT)
}

/// Sets `r.disjoint` (module `disjoint`; only its `restrict` pointers when `restrict_only`),
/// with a `readonly` remark per parameter.
fn noalias_params(
    ua: &UnitAccesses<'_>,
    fi: usize,
    typed: &TypedUnit,
    r: &mut TargetRegion<'_>,
    globals: &[SymbolId],
    restrict_only: bool,
    remarks: &mut Vec<GridRemark>,
) {
    let mut d = crate::disjoint::disjoint_params(ua, fi, typed, r, globals);
    if restrict_only {
        // without `noalias-maps`, only what the source promised: its `restrict` pointers
        let keep: Vec<bool> = (d.params.iter())
            .map(|&i| {
                r.params
                    .get(i as usize)
                    .is_some_and(|p| restrict_pointer(typed, p))
            })
            .collect();
        let mut k = keep.iter();
        d.params.retain(|_| k.next() == Some(&true));
        let mut k = keep.iter();
        d.proven.retain(|_| k.next() == Some(&true));
        d.missed.clear();
    }
    let span = r.directive.span;
    for (name, why) in d.proven {
        remarks.push(GridRemark {
            pass: "readonly",
            passed: true,
            span,
            message: format!(
                "'{name}' reaches memory nothing else the kernel reaches overlaps ({why})"
            ),
        });
    }
    for message in d.missed {
        remarks.push(GridRemark {
            pass: "readonly",
            passed: false,
            span,
            message,
        });
    }
    r.disjoint = d.params;
}

/// An SPMD region distributing one loop (no `collapse`): its work arrays may be laid out
/// thread-minor.
fn layout_candidate(r: &TargetRegion<'_>) -> bool {
    r.mode == ExecMode::Spmd && r.loop_nest.is_some_and(|ln| ln.collapse == 1)
}

/// An SPMD region whose threads share a one-loop nest (no `collapse`).
fn candidate(r: &TargetRegion<'_>) -> bool {
    r.mode == ExecMode::Spmd
        && r.loop_nest.is_some_and(|ln| {
            let w = ln.directive.kind.words();
            // a `collapse` nest is kept as written: its loops already share the threads
            ln.collapse == 1 && (w.contains(&"parallel") || w.contains(&"loop"))
        })
}

/// An SPMD `teams distribute` region without `parallel` (its loop's iterations go to the
/// grid's threads, each a team's initial thread): a nested loop directive with a reduction
/// may be shared by lanes, which gives the team's threads the inner loop.
fn teams_distribute(r: &TargetRegion<'_>) -> bool {
    r.mode == ExecMode::Spmd
        && r.loop_nest.is_some_and(|ln| {
            let w = ln.directive.kind.words();
            ln.collapse == 1 && w.contains(&"teams") && w.contains(&"distribute")
        })
}

pub(crate) enum Decision<'a> {
    Keep,
    Missed(Span, String),
    Swap {
        mapping: GridMapping<'a>,
        message: String,
    },
}

pub(crate) struct Cx<'u, 'a> {
    pub(crate) ua: &'u UnitAccesses<'a>,
    pub(crate) fi: usize,
    pub(crate) sm: &'u SourceMap,
}

/// A loop of the band: the statement and the analysis's loop.
#[derive(Clone, Copy)]
struct BandLoop<'a> {
    stmt: &'a Stmt,
    id: LoopId,
}

impl<'a> Cx<'_, 'a> {
    pub(crate) fn line(&self, s: Span) -> u32 {
        self.sm.lookup(s.lo).line
    }

    pub(crate) fn var_name(&self, l: LoopId) -> String {
        let f = &self.ua.functions[self.fi];
        match &f.loops[l.0 as usize].form {
            Ok(c) => self.ua.unit.symbols[c.var].name.clone(),
            Err(_) => "?".into(),
        }
    }

    pub(crate) fn loop_id(&self, s: &Stmt) -> Option<LoopId> {
        let f = &self.ua.functions[self.fi];
        f.loops.iter().find(|l| l.span == s.span).map(|l| l.id)
    }

    /// The perfectly nested `for` loops from `outer` down.
    fn band(&self, outer: &'a Stmt) -> Vec<BandLoop<'a>> {
        let mut out = Vec::new();
        let mut cur = outer;
        while let StmtKind::For(_, _, _, body) = &cur.kind {
            let Some(id) = self.loop_id(cur) else { break };
            out.push(BandLoop { stmt: cur, id });
            cur = strip_compound(body);
        }
        out
    }

    fn decide(&self, r: &TargetRegion<'a>) -> Decision<'a> {
        let Some(ln) = r.loop_nest else {
            return Decision::Keep;
        };
        let band = self.band(ln.outer);
        let Some(first) = band.first().copied() else {
            return Decision::Keep;
        };
        let accesses = self.nest_accesses(first.id, band.last().map_or(first.id, |b| b.id));
        // Candidates: the band's loops; with a one-loop band, the first inner loop too (to
        // say why a better one is not taken).
        let mut cands: Vec<LoopId> = band.iter().map(|b| b.id).collect();
        let imperfect_inner = if band.len() == 1 {
            let f = &self.ua.functions[self.fi];
            f.loops
                .iter()
                .find(|l| l.parent == Some(first.id))
                .map(|l| l.id)
        } else {
            None
        };
        cands.extend(imperfect_inner);
        let scores: Vec<u64> = cands.iter().map(|&l| self.score(&accesses, l)).collect();
        let (best, best_score) =
            scores.iter().enumerate().fold(
                (0, scores[0]),
                |acc, (k, &s)| if s > acc.1 { (k, s) } else { acc },
            );
        if best == 0 || best_score <= scores[0] {
            return Decision::Keep;
        }
        let at = ln.directive.span;
        let target = cands[best];
        let from = self.var_name(first.id);
        let to = self.var_name(target);
        let missed = |why: String| {
            Decision::Missed(
                at,
                format!(
                    "loop '{to}' (line {}) has unit or zero stride for more bytes than the distributed loop '{from}' ({best_score} vs {} per iteration), but the loops were not swapped: {why}",
                    self.line(self.ua.functions[self.fi].loops[target.0 as usize].span),
                    scores[0]
                ),
            )
        };
        if Some(target) == imperfect_inner {
            return missed(format!(
                "'{to}' is not perfectly nested in '{from}' (statements around it)"
            ));
        }
        let box_over = match self.legal(r, ln.directive, &band, best) {
            Ok(b) => b,
            Err(why) => return missed(why),
        };
        let before = self.strides_text(&accesses, first.id);
        let after = self.strides_text(&accesses, target);
        let sequential: Vec<&'a Stmt> = band
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != best)
            .map(|(_, b)| b.stmt)
            .collect();
        let body = match &band[band.len() - 1].stmt.kind {
            StmtKind::For(_, _, _, body) => &**body,
            _ => return Decision::Keep,
        };
        let triangular = box_over.map_or(String::new(), |v| {
            format!(
                " (over the bounding box of its ranges in '{}')",
                self.ua.unit.symbols[v].name
            )
        });
        Decision::Swap {
            mapping: GridMapping {
                threaded: band[best].stmt,
                sequential,
                body,
                box_over,
                cooperative: None,
            },
            message: format!(
                "parallel loop swap: the grid's threads take loop '{to}' (line {}){triangular} instead of '{from}' (line {}); unit or zero stride bytes per iteration {} -> {best_score}; strides in '{from}': {before}; in '{to}': {after}",
                self.line(band[best].stmt.span),
                self.line(first.stmt.span),
                scores[0],
            ),
        }
    }

    /// The accesses inside loop `outer`, each with its weight: 8 per loop it is in below the
    /// band's innermost loop `inner`.
    pub(crate) fn nest_accesses(&self, outer: LoopId, inner: LoopId) -> Vec<(usize, u64)> {
        let f = &self.ua.functions[self.fi];
        f.accesses
            .iter()
            .enumerate()
            .filter(|(_, a)| a.loops.contains(&outer))
            .map(|(k, a)| {
                let deeper = a
                    .loops
                    .iter()
                    .position(|l| *l == inner)
                    .map_or(0, |p| a.loops.len() - p - 1);
                (k, 8u64.saturating_pow(deeper as u32))
            })
            .collect()
    }

    /// Bytes (times weight) of the accesses whose stride in `l` is 0 or ±1 elements.
    pub(crate) fn score(&self, accesses: &[(usize, u64)], l: LoopId) -> u64 {
        let f = &self.ua.functions[self.fi];
        accesses
            .iter()
            .filter(|(k, _)| {
                self.ua
                    .stride(self.fi, *k, l)
                    .ok()
                    .and_then(|s| s.as_const())
                    .is_some_and(|c| c.abs() <= 1)
            })
            .map(|(k, w)| {
                let size = f.bases[f.accesses[*k].base.0 as usize]
                    .elem_size
                    .unwrap_or(0);
                size.saturating_mul(*w)
            })
            .fold(0u64, u64::saturating_add)
    }

    /// `A[n*i + k] n, B[n*k + j] 0`: each distinct access with its stride in `l`.
    pub(crate) fn strides_text(&self, accesses: &[(usize, u64)], l: LoopId) -> String {
        let mut seen: Vec<String> = Vec::new();
        let mut out: Vec<String> = Vec::new();
        for (k, _) in accesses {
            let a = &self.ua.functions[self.fi].accesses[*k];
            let name = self.access_text(a);
            if seen.contains(&name) {
                continue;
            }
            let stride = match self.ua.stride(self.fi, *k, l) {
                Ok(s) => self.ua.expr_c(&s),
                Err(_) => "unknown".into(),
            };
            out.push(format!("{name} {stride}"));
            seen.push(name);
        }
        out.join(", ")
    }

    pub(crate) fn access_text(&self, a: &Access) -> String {
        let f = &self.ua.functions[self.fi];
        let mut s = f.bases[a.base.0 as usize].name.clone();
        for sub in &a.subscripts {
            match sub {
                Ok(e) => s.push_str(&format!("[{}]", self.ua.expr_c(e))),
                Err(_) => s.push_str("[?]"),
            }
        }
        s
    }

    /// The directive leaves the assignment of iterations to threads to the implementation
    /// (no `schedule`, `dist_schedule`, `ordered`, `lastprivate`, `linear`, or `unroll` as
    /// the loop).
    pub(crate) fn directive_allows(
        &self,
        r: &TargetRegion<'a>,
        d: &OmpDirective,
        outer: &Stmt,
    ) -> Result<(), String> {
        for dir in [r.directive, d] {
            for c in &dir.clauses {
                if matches!(
                    c.name,
                    C::Schedule | C::DistSchedule | C::Ordered | C::Lastprivate | C::Linear
                ) {
                    return Err(format!(
                        "the directive's '{}' clause fixes which thread runs each iteration",
                        c.name.as_str()
                    ));
                }
                if in_order_reduction(c) {
                    return Err("a user-defined reduction or one with a modifier: the loop \
                                runs in order on one thread"
                        .into());
                }
            }
        }
        if crate::nest_unroll(outer, 1).is_some() {
            return Err("the distributed loop is an 'unroll' construct".into());
        }
        Ok(())
    }

    /// Whether the threads may take band loop `t` instead of the distributed one (with the
    /// variable of the loop whose ranges it is boxed over, for a triangular nest); the missing
    /// fact otherwise.
    fn legal(
        &self,
        r: &TargetRegion<'a>,
        d: &OmpDirective,
        band: &[BandLoop<'a>],
        t: usize,
    ) -> Result<Option<SymbolId>, String> {
        self.directive_allows(r, d, band[0].stmt)?;
        let f = &self.ua.functions[self.fi];
        let band_vars: Vec<_> = band
            .iter()
            .filter_map(|b| f.loops[b.id.0 as usize].form.as_ref().ok().map(|c| c.var))
            .collect();
        let mut box_over = None;
        for (k, b) in band.iter().enumerate() {
            let lp = &f.loops[b.id.0 as usize];
            let name = self.var_name(b.id);
            let canon = lp
                .form
                .as_ref()
                .map_err(|u| format!("loop '{name}': {}", u.reason.message()))?;
            if lp.early_exit {
                return Err(format!(
                    "loop '{name}' may exit early (break, goto or return)"
                ));
            }
            let mut uses: Vec<SymbolId> = canon
                .lo
                .vars()
                .into_iter()
                .chain(canon.hi.vars())
                .filter(|v| band_vars.contains(v))
                .collect();
            uses.sort();
            uses.dedup();
            let Some(&v) = uses.first() else { continue };
            // A triangular threaded loop: boxed over one outer loop of the band, its range
            // checked per iteration (exact for steps of ±1 only).
            let affine = [&canon.lo, &canon.hi]
                .iter()
                .all(|b| b.split_linear(&Atom::Var(v)).is_some());
            if k == t
                && uses.len() == 1
                && band_vars[..k].contains(&v)
                && canon.step.abs() == 1
                && affine
            {
                box_over = Some(v);
                continue;
            }
            return Err(format!(
                "the bounds of loop '{name}' use '{}' (a non-rectangular nest{})",
                self.ua.unit.symbols[v].name,
                if k == t {
                    "; a boxed swap needs a step of 1 or -1 and bounds affine in one outer loop's variable"
                } else {
                    ""
                }
            ));
        }
        if !matches!(&band[t].stmt.kind, StmtKind::For(ForInit::Decl(_), ..)) {
            return Err(format!(
                "the variable of loop '{}' is not declared in its 'for'",
                self.var_name(band[t].id)
            ));
        }
        for b in &band[1..=t] {
            let name = self.var_name(b.id);
            self.ua
                .independent(self.fi, b.id)
                .map_err(|u| format!("loop '{name}': {}", u.reason.message()))?;
            for red in self.ua.reductions(self.fi, b.id) {
                // (an element reduction is a dependence the loop carries: never independent)
                let ok = match red.target {
                    ReductionTarget::Scalar(s) => {
                        band_vars.contains(&s) || r.reductions.iter().any(|x| x.sym == s)
                    }
                    ReductionTarget::Element { .. } => false,
                };
                if !ok {
                    return Err(format!(
                        "loop '{name}' reduces into a variable that is not a reduction of the directive"
                    ));
                }
            }
        }
        Ok(box_over)
    }
}

/// A `reduction` clause whose loop lowering runs in order on one thread (`in_order_loop` in
/// ompcc-lower): a user-defined one, or one with a modifier (`inscan`; `task` and `default`
/// are taken the same way here, which only costs the loop its transformations).
pub(crate) fn in_order_reduction(c: &OmpClause) -> bool {
    c.name == C::Reduction
        && matches!(
            &c.kind,
            OmpClauseKind::UserReduction { .. }
                | OmpClauseKind::Reduction {
                    modifier: Some(_),
                    ..
                }
        )
}
