//! The data planner (`-fopenmp-plan-data`, DESIGN.md section 11): from the access analysis
//! (`ompcc-access`) it plans, per function, where the data of its `target` regions lives,
//! and writes the plan as OpenMP directives at statements of the user's source:
//!
//! - `target enter data` before the statements that hold the function's regions (from the
//!   first to the last, in the function body) and `target exit data` after them, with the
//!   section the kernels touch: `to` when a use needs the host's values (else `alloc`), `from`
//!   when a kernel may have written it and the host may read it afterwards (else `release`);
//! - `target update from` before host code that touches data a kernel may have written, and
//!   `target update to` after host code that writes data a later kernel (or the copy back)
//!   sees, hoisted out of every statement, loops included, that holds no kernel touching the
//!   base (OMPDart's placement), with the section that host code touches;
//! - a map clause on regions that use a pointer with no map clause (OpenMP would map a
//!   zero-length section);
//! - where two planned pointers may alias, an `if` on the enter/exit directives that checks at
//!   run time that their sections are disjoint; when they overlap nothing is mapped there and
//!   every region maps its data as written (updates of data not present do nothing).
//!
//! The regions' own maps then find their data present and move nothing. The plan is text
//! edits ([`Edit`]) anchored at statements: the driver applies them to the preprocessed unit
//! and compiles the result, and `--emit=annotated-c` applies them to the user's file, which
//! stays a portable OpenMP program. A fact the plan needs and the analysis cannot prove
//! leaves that base (or the function) as written, with a `-Rpass-missed=plan-data` remark.
//! Functions that already manage device data (`target data`, `enter`/`exit data`, `update`)
//! are left as written.

mod edit;
mod flow;
mod tree;

use ompcc_access::{BaseId, BaseKind, DimRange, Provenance, Scope, Section, SymExpr, UnitAccesses};
use ompcc_diag::{SourceMap, Span};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{BlockItem, ExternalDecl, FunctionDef, TranslationUnit};

pub use edit::{annotate, apply_preprocessed};

use flow::NodeFacts;
use tree::{Kind, NodeId, Tree};

/// The planned directives of a unit and the remarks that explain them.
#[derive(Debug, Default)]
pub struct DataPlan {
    /// Directive lines and clauses to insert, in no particular order.
    pub edits: Vec<Edit>,
    /// One remark per planned item (`missed`: what could not be planned, and why).
    pub remarks: Vec<Remark>,
}

/// One insertion into the source.
#[derive(Debug, Clone)]
pub struct Edit {
    /// Where it goes.
    pub at: Anchor,
    /// A whole directive (`#pragma omp target update from(a[0:n])`) or a clause (` map(...)`).
    pub text: String,
    /// Among edits at one anchor: entry data first (0), updates (1), exit data last (2).
    pub order: u8,
}

/// Where an edit goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// A line of its own before the statement.
    Before(Span),
    /// A line of its own after the statement.
    After(Span),
    /// Appended to the directive line (the span of an `OmpDirective`).
    Clause(Span),
}

/// A `-Rpass=plan-data` / `-Rpass-missed=plan-data` remark.
#[derive(Debug, Clone)]
pub struct Remark {
    /// Where it points.
    pub span: Span,
    /// A missed plan (`-Rpass-missed`) rather than a planned item (`-Rpass`).
    pub missed: bool,
    /// The text after `remark: `.
    pub message: String,
}

impl Remark {
    /// `file:line:col: remark: message [-Rpass=plan-data]`.
    pub fn render(&self, sm: &SourceMap) -> String {
        let flag = if self.missed {
            "-Rpass-missed"
        } else {
            "-Rpass"
        };
        format!(
            "{}: remark: {} [{flag}=plan-data]",
            sm.describe(self.span),
            self.message
        )
    }
}

/// Plans the data of every function of `tu` that has `target` regions. `text` is the
/// preprocessed unit the spans index and `original` the user's file (the main file of `sm`),
/// when readable: an edit goes only where it can be written into both.
pub fn plan(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    sm: &SourceMap,
    text: &str,
    original: Option<&str>,
) -> DataPlan {
    let ua = ompcc_access::analyze(tu, typed);
    let (oplan, _) = ompcc_omp::plan_with_source(tu, typed, sm);
    let mut out = DataPlan::default();
    let funcs = tu.items.iter().filter_map(|i| match i {
        ExternalDecl::Function(f) => Some(f),
        _ => None,
    });
    for (fi, f) in funcs.enumerate() {
        if fi >= ua.functions.len() {
            break;
        }
        let cx = FnPlan {
            ua: &ua,
            fi,
            typed,
            sm,
            text,
            original,
            oplan: &oplan,
        };
        cx.function(f, &mut out);
    }
    out.remarks.sort_by_key(|r| (r.span.lo, r.missed));
    out
}

/// For each pointer a `target` region uses without a map clause whose accesses in the
/// region all happen unconditionally, the clause they call for: (the region's statement span,
/// the pointer, `map(tofrom: a[0:n])`). The W0912 help shows it.
pub fn suggested_maps(
    tu: &TranslationUnit,
    typed: &TypedUnit,
) -> Vec<(Span, ompcc_sema::SymbolId, String)> {
    let ua = ompcc_access::analyze(tu, typed);
    let mut out = Vec::new();
    let funcs = tu.items.iter().filter_map(|i| match i {
        ExternalDecl::Function(f) => Some(f),
        _ => None,
    });
    for (fi, f) in funcs.enumerate().take(ua.functions.len()) {
        let fa = &ua.functions[fi];
        let items: Vec<&BlockItem> = f.body.items.iter().collect();
        let guarded = tree::guarded_spans(&items, f.body.span);
        for r in fa
            .regions
            .iter()
            .filter(|r| r.directive.starts_with("target"))
        {
            // guards around the region do not make its accesses conditional within it
            let inside = |s: Span| s.lo >= r.span.lo && s.hi <= r.span.hi;
            let unsure = |s: Span| {
                fa.calls.iter().any(|c| c.span == s)
                    || guarded
                        .iter()
                        .any(|g| inside(*g) && s.lo >= g.lo && s.hi <= g.hi)
            };
            let all = ua.sections(fi, Scope::Region(r.id));
            let sure = ua.sections_of(fi, Scope::Region(r.id), &|s| !unsure(s));
            for bs in &all {
                let b = &fa.bases[bs.base.0 as usize];
                let (BaseKind::Pointer(_), Some(root)) = (&b.kind, b.root) else {
                    continue;
                };
                let Some(sure) = sure.iter().find(|x| x.base == bs.base) else {
                    continue;
                };
                let joined = |x: &ompcc_access::BaseSections| -> Option<Vec<DimRange>> {
                    let parts: Vec<&Section> = [&x.read, &x.write].into_iter().flatten().collect();
                    let mut acc = (*parts.first()?).clone().ok()?;
                    for p in &parts[1..] {
                        acc = UnitAccesses::join_sections(&Ok(acc), p, r.span).ok()?;
                    }
                    Some(acc)
                };
                let (Some(all_d), Some(sure_d)) = (joined(bs), joined(sure)) else {
                    continue;
                };
                if !contains(&sure_d, &all_d) {
                    continue;
                }
                let mut text = b.name.clone();
                for d in &sure_d {
                    let Some(len) = d.length() else { continue };
                    text.push_str(&format!("[{}:{}]", ua.expr_c(&d.lo), ua.expr_c(&len)));
                }
                // `from` would copy back elements a partial write left undefined
                let kind = if bs.write.is_some() { "tofrom" } else { "to" };
                out.push((r.span, root, format!("map({kind}: {text})")));
            }
        }
    }
    out
}

struct FnPlan<'a, 'u> {
    ua: &'a UnitAccesses<'u>,
    fi: usize,
    typed: &'a TypedUnit,
    sm: &'a SourceMap,
    text: &'a str,
    original: Option<&'a str>,
    oplan: &'a ompcc_omp::OffloadPlan<'a>,
}

/// What the plan does with one base.
struct Planned {
    base: BaseId,
    /// The section every directive of the range maps (`a[0:n]`), as dimensions and as C.
    dims: Vec<DimRange>,
    text: String,
    entry_to: bool,
    exit_from: bool,
    /// The host may use it after the range.
    live: bool,
    /// (anchor node, `from` before it / `to` after it).
    updates: Vec<(NodeId, bool)>,
}

impl FnPlan<'_, '_> {
    fn fa(&self) -> &ompcc_access::FunctionAccesses {
        &self.ua.functions[self.fi]
    }

    fn line(&self, s: Span) -> u32 {
        self.sm.lookup(s.lo).line
    }

    fn base_name(&self, b: BaseId) -> &str {
        &self.fa().bases[b.0 as usize].name
    }

    fn function(&self, f: &FunctionDef, out: &mut DataPlan) {
        let fa = self.fa();
        let regions: Vec<(ompcc_access::RegionId, Span)> = fa
            .regions
            .iter()
            .filter(|r| r.directive.starts_with("target") && r.parent.is_none())
            .map(|r| (r.id, r.span))
            .collect();
        if regions.is_empty() {
            return;
        }
        let first_region = regions[0].1;
        let missed = |out: &mut DataPlan, span: Span, message: String| {
            out.remarks.push(Remark {
                span,
                missed: true,
                message,
            })
        };
        if let Some((span, name)) = tree::user_data_construct(&f.body) {
            missed(
                out,
                first_region,
                format!(
                    "data of the target regions in '{}' not planned: the function manages \
                     device data itself ('{name}' at line {}), which stays as written",
                    fa.name,
                    self.line(span)
                ),
            );
            return;
        }
        // a region that may run on the host (or another device) would read the host copy
        if let Some(r) = self
            .oplan
            .regions
            .iter()
            .find(|r| r.function.span == f.span && (r.if_cond.is_some() || r.device.is_some()))
        {
            let clause = if r.if_cond.is_some() {
                "an 'if'"
            } else {
                "a 'device'"
            };
            missed(
                out,
                r.directive.span,
                format!(
                    "data of the target regions in '{}' not planned: this region has \
                     {clause} clause, so it may run where the planned data is not",
                    fa.name
                ),
            );
            return;
        }
        let spans: Vec<Span> = regions.iter().map(|r| r.1).collect();
        let items: Vec<&BlockItem> = f.body.items.iter().collect();
        let holds = |i: &BlockItem| {
            let s = item_span(i);
            spans.iter().any(|r| r.lo >= s.lo && r.lo < s.hi)
        };
        let (Some(first), Some(last)) = (
            items.iter().position(|i| holds(i)),
            items.iter().rposition(|i| holds(i)),
        ) else {
            return;
        };
        let range_items = &items[first..=last];
        let range = Span::new(item_span(items[first]).lo, item_span(items[last]).hi);
        if let Some(j) = tree::leaving_jump(range_items) {
            missed(
                out,
                j,
                format!(
                    "data of the target regions in '{}' not planned: this jump leaves the \
                     statements the data would stay on the device around (lines {}-{})",
                    fa.name,
                    self.line(range),
                    self.sm.lookup(range.hi.saturating_sub(1)).line
                ),
            );
            return;
        }
        let tree = match Tree::build(range_items, range, &spans) {
            Ok(t) => t,
            Err(r) => {
                missed(
                    out,
                    r.span,
                    format!(
                        "data of the target regions in '{}' not planned: {}",
                        fa.name, r.why
                    ),
                );
                return;
            }
        };
        let guarded = tree::guarded_spans(range_items, range);
        let candidates = self.candidates(&tree, out);
        let mut planned: Vec<BaseId> = candidates.iter().map(|(b, _)| *b).collect();
        let mut refused: Vec<(Span, String)> = Vec::new();
        let touched = self.touched_by_regions(&tree);
        // Plan every candidate assuming the others planned are disjoint from it (checked at
        // run time); a refusal changes that assumption, so plan the rest again.
        let plans = loop {
            // a base that may alias a base the plan leaves alone cannot be planned either
            while let Some((b, c)) = planned.iter().find_map(|&b| {
                touched
                    .iter()
                    .find(|&&c| {
                        c != b && !planned.contains(&c) && self.ua.distinct(self.fi, b, c).is_none()
                    })
                    .map(|&c| (b, c))
            }) {
                planned.retain(|&x| x != b);
                refused.push((
                    first_region,
                    format!(
                        "'{}' not planned: '{}' may alias it and is not planned",
                        self.base_name(b),
                        self.base_name(c)
                    ),
                ));
            }
            let mut plans = Vec::new();
            let mut failed = false;
            for &(b, first_use) in &candidates {
                if !planned.contains(&b) {
                    continue;
                }
                match self.base(b, &tree, &guarded, range, f, &planned) {
                    Ok(p) => plans.push(p),
                    Err(why) => {
                        refused.push((
                            first_use,
                            format!("'{}' not planned: {why}", self.base_name(b)),
                        ));
                        planned.retain(|&x| x != b);
                        failed = true;
                    }
                }
            }
            if !failed {
                break plans;
            }
        };
        for (span, message) in refused {
            missed(out, span, message);
        }
        if plans.is_empty() {
            return;
        }
        self.emit(&tree, range, &plans, out);
    }

    /// The bases the range's regions touch that the planner may move: arrays and pointers,
    /// not scalars, not `declare target` variables; each with the first region using it.
    fn candidates(&self, tree: &Tree, out: &mut DataPlan) -> Vec<(BaseId, Span)> {
        let fa = self.fa();
        let mut found: Vec<(BaseId, Span)> = Vec::new();
        for t in tree.targets() {
            let Some(r) = self.region_at(tree.nodes[t].span) else {
                continue;
            };
            for s in self.ua.sections(self.fi, Scope::Region(r)) {
                if found.iter().any(|(b, _)| *b == s.base) {
                    continue;
                }
                let b = &fa.bases[s.base.0 as usize];
                let declare_target = b
                    .root
                    .is_some_and(|r| self.oplan.device_globals.contains(&r));
                // `is_device_ptr` / `has_device_addr` / firstprivate pointers already hold
                // device addresses (or are the user's business)
                let device_address = b.root.is_some_and(|root| {
                    self.oplan.regions.iter().any(|r| {
                        r.params.iter().any(|p| {
                            p.sym == root
                                && matches!(
                                    p.pass,
                                    ompcc_omp::Pass::Value | ompcc_omp::Pass::DeviceAddr
                                )
                        })
                    })
                });
                if device_address {
                    out.remarks.push(Remark {
                        span: tree.nodes[t].span,
                        missed: true,
                        message: format!(
                            "'{}' not planned: a region takes it as a device address \
                             (is_device_ptr, has_device_addr or firstprivate)",
                            b.name
                        ),
                    });
                    continue;
                }
                // `__func__` and its GNU spellings are the compiler's own constant strings
                let predefined = matches!(
                    b.name.as_str(),
                    "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__"
                );
                if b.dims == 0 || b.kind == BaseKind::GlobalScalar || declare_target || predefined {
                    continue;
                }
                let why = match &b.kind {
                    BaseKind::Member => Some("struct members are not planned".to_owned()),
                    BaseKind::Unknown(u) | BaseKind::Pointer(Provenance::Unknown(u)) => {
                        Some(u.reason.message())
                    }
                    _ => None,
                };
                if let Some(why) = why {
                    out.remarks.push(Remark {
                        span: tree.nodes[t].span,
                        missed: true,
                        message: format!("'{}' not planned: {why}", b.name),
                    });
                    continue;
                }
                found.push((s.base, tree.nodes[t].span));
            }
        }
        found
    }

    /// Every base some region of the range touches.
    fn touched_by_regions(&self, tree: &Tree) -> Vec<BaseId> {
        let mut out = Vec::new();
        for t in tree.targets() {
            if let Some(r) = self.region_at(tree.nodes[t].span) {
                for s in self.ua.sections(self.fi, Scope::Region(r)) {
                    if !out.contains(&s.base) {
                        out.push(s.base);
                    }
                }
            }
        }
        out
    }

    fn region_at(&self, span: Span) -> Option<ompcc_access::RegionId> {
        self.fa()
            .regions
            .iter()
            .find(|r| r.span == span)
            .map(|r| r.id)
    }

    /// Plans one base: its mapped section, the flow's transfers, and where they go.
    fn base(
        &self,
        b: BaseId,
        tree: &Tree,
        guarded: &[Span],
        range: Span,
        f: &FunctionDef,
        planned: &[BaseId],
    ) -> Result<Planned, String> {
        let fa = self.fa();
        let base = &fa.bases[b.0 as usize];
        let (dims, text) = self.mapped_section(b, tree, guarded, range)?;
        // the host's other uses after the range
        let after = Span::new(range.hi, f.body.span.hi);
        let live = !matches!(
            base.kind,
            BaseKind::Array { global: false } | BaseKind::Pointer(Provenance::Alloc { .. })
        ) || base.escapes.is_some()
            || self
                .ua
                .touches(self.fi, b, after)
                .map_or(true, |t| t.read || t.write);
        let facts = self.facts(b, tree, &dims, guarded, planned)?;
        let needs = flow::run(tree, &facts, live);
        if let Some((n, why)) = needs.refused {
            return Err(format!("{why} (line {})", self.line(tree.nodes[n].span)));
        }
        let touching: Vec<NodeId> = tree
            .targets()
            .into_iter()
            .filter(|&t| facts[t].read || facts[t].write)
            .collect();
        let mut updates = Vec::new();
        for &n in &needs.from_before {
            updates.push((self.hoist(tree, n, &touching)?, true));
        }
        // whether node `m` may run after node `n`: later in the text, or in a loop with it
        let after = |n: NodeId, m: NodeId| {
            tree.nodes[m].span.lo >= tree.nodes[n].span.hi
                || tree
                    .loops_around(m)
                    .iter()
                    .any(|l| tree.loops_around(n).contains(l))
        };
        for &n in &needs.host_writes {
            // a kernel sees the write, or a later copy back would overwrite it with the
            // device's older value
            let seen_later = touching.iter().any(|&t| after(n, t))
                || needs.from_before.iter().any(|&m| m != n && after(n, m));
            if seen_later || needs.stale_at_exit {
                updates.push((self.hoist(tree, n, &touching)?, false));
            }
        }
        updates.sort_unstable();
        updates.dedup();
        Ok(Planned {
            base: b,
            dims,
            text,
            entry_to: needs.entry_to,
            exit_from: needs.stale_at_exit,
            live,
            updates,
        })
    }

    /// The section the range maps. A fixed-size array is mapped whole. A pointer gets the
    /// union of the sections the regions' map clauses name (the user vouches for those
    /// elements) and, when some region uses it without a map clause, of what the analysis
    /// proves that region touches. Every variable in the bounds must hold one value across
    /// the range, where the section is evaluated at entry and at exit.
    fn mapped_section(
        &self,
        b: BaseId,
        tree: &Tree,
        guarded: &[Span],
        range: Span,
    ) -> Result<(Vec<DimRange>, String), String> {
        // the variable names the same memory from the range's start to its end
        let base = &self.fa().bases[b.0 as usize];
        if let Some(root) = base.root {
            let info = &self.typed.symbols[root];
            let stable = if matches!(base.kind, BaseKind::Array { .. }) {
                (info.span.lo < range.lo).then_some(()).ok_or_else(|| {
                    ompcc_access::Unknown::new(
                        ompcc_access::Reason::NotInScope(info.name.clone()),
                        range,
                    )
                })
            } else {
                self.ua.invariant(self.fi, root, range)
            };
            if let Err(u) = stable {
                return Err(format!(
                    "'{}' does not name the same memory across lines {}-{} ({})",
                    info.name,
                    self.line(range),
                    self.sm.lookup(range.hi.saturating_sub(1)).line,
                    u.reason.message()
                ));
            }
        }
        let (user, implicit) = self.user_sections(b, tree)?;
        let dims = if let Some(whole) = self.whole_array(b) {
            whole
        } else {
            let mut acc: Option<Vec<DimRange>> = None;
            let mut add = |d: Vec<DimRange>| -> Result<(), String> {
                acc = Some(match acc.take() {
                    None => d,
                    Some(a) => hull(&a, &d).ok_or("the sections do not have one shape")?,
                });
                Ok(())
            };
            for (_, d) in user {
                add(d)?;
            }
            if implicit {
                add(self.touched_section(b, tree, guarded)?)?;
            }
            acc.ok_or("no region touches it")?
        };
        for d in &dims {
            for v in d.lo.vars().into_iter().chain(d.hi.vars()) {
                if let Err(u) = self.ua.invariant(self.fi, v, range) {
                    return Err(format!(
                        "its section uses '{}', which does not hold one value across lines \
                         {}-{} ({})",
                        self.typed.symbols[v].name,
                        self.line(range),
                        self.sm.lookup(range.hi.saturating_sub(1)).line,
                        u.reason.message()
                    ));
                }
            }
        }
        let text = self.section_text(b, &dims, false);
        Ok((dims, text))
    }

    /// What the range's regions touch of `b` by the analysis. Accesses under a condition may
    /// name elements outside the object (the condition guards them), so they must lie inside
    /// what the unconditional ones touch.
    fn touched_section(
        &self,
        b: BaseId,
        tree: &Tree,
        guarded: &[Span],
    ) -> Result<Vec<DimRange>, String> {
        let fa = self.fa();
        let is_call = |s: Span| fa.calls.iter().any(|c| c.span == s);
        let unsure = |s: Span| is_call(s) || guarded.iter().any(|g| s.lo >= g.lo && s.hi <= g.hi);
        let mut sure: Option<Section> = None;
        let mut other: Option<(Section, Span)> = None;
        for t in tree.targets() {
            let Some(r) = self.region_at(tree.nodes[t].span) else {
                continue;
            };
            let span = tree.nodes[t].span;
            let add = |acc: &mut Option<Section>, s: &ompcc_access::BaseSections| {
                for x in [&s.read, &s.write].into_iter().flatten() {
                    *acc = Some(match acc.take() {
                        None => x.clone(),
                        Some(a) => UnitAccesses::join_sections(&a, x, span),
                    });
                }
            };
            for s in self
                .ua
                .sections_of(self.fi, Scope::Region(r), &|s| !unsure(s))
            {
                if s.base == b {
                    add(&mut sure, &s);
                }
            }
            for s in self.ua.sections_of(self.fi, Scope::Region(r), &unsure) {
                if s.base == b {
                    let mut o = other.take().map(|(s, _)| s);
                    add(&mut o, &s);
                    other = o.map(|o| (o, span));
                }
            }
        }
        match (&sure, &other) {
            (Some(Ok(d)), None) => Ok(d.clone()),
            (Some(Ok(d)), Some((Ok(g), _))) if contains(d, g) => Ok(d.clone()),
            (Some(Err(u)), _) | (_, Some((Err(u), _))) => Err(u.reason.message()),
            (_, Some((_, s))) => Err(format!(
                "the kernel at line {} touches it under a condition or in a call, and those \
                 elements are not proven to lie in the section it touches otherwise",
                self.line(*s)
            )),
            (None, None) => Err("no kernel touches it".to_owned()),
        }
    }

    /// The sections the regions' map clauses name for `b` (with the clause's span), and
    /// whether some region of the range touches `b` without naming it.
    #[allow(clippy::type_complexity)]
    fn user_sections(
        &self,
        b: BaseId,
        tree: &Tree,
    ) -> Result<(Vec<(Span, Vec<DimRange>)>, bool), String> {
        let base = &self.fa().bases[b.0 as usize];
        let Some(root) = base.root else {
            return Err("it has no variable to name it by".to_owned());
        };
        let mut out = Vec::new();
        let mut implicit = false;
        for t in tree.targets() {
            let span = tree.nodes[t].span;
            let touches = self.region_at(span).is_some_and(|r| {
                self.ua
                    .sections(self.fi, Scope::Region(r))
                    .iter()
                    .any(|s| s.base == b)
            });
            let Some(r) = self
                .oplan
                .regions
                .iter()
                .find(|r| r.directive.span.lo == span.lo)
            else {
                implicit |= touches;
                continue;
            };
            let items = r
                .params
                .iter()
                .filter_map(|p| p.map.as_ref())
                .chain(r.extra_maps.iter());
            let mut named = false;
            for m in items.filter(|m| !m.implicit) {
                let Some(id) = ompcc_omp::base_ident(m.expr) else {
                    continue;
                };
                if self.typed.ident_symbols.get(&id.id) != Some(&root) {
                    continue;
                }
                named = true;
                let dims = self.clause_section(b, m.expr).ok_or_else(|| {
                    format!(
                        "the planner cannot follow the section '{}' of the map clause at line {}",
                        self.text.get(m.expr.span.range()).unwrap_or("?"),
                        self.line(m.span)
                    )
                })?;
                out.push((m.span, dims));
            }
            implicit |= touches && !named;
        }
        Ok((out, implicit))
    }

    /// A map clause's list item as dimensions of `b` (`a[lo:len]`, `a[:len]`, a leading
    /// section of a pointer to rows, the whole array).
    fn clause_section(&self, b: BaseId, e: &ompcc_syntax::ast::Expr) -> Option<Vec<DimRange>> {
        use ompcc_syntax::ast::ExprKind;
        let base = &self.fa().bases[b.0 as usize];
        let mut dims = Vec::new();
        let mut at = e;
        loop {
            match &at.kind {
                ExprKind::Paren(x) => at = x,
                ExprKind::ArraySection {
                    base: inner,
                    lower,
                    length,
                } => {
                    let lo = match lower {
                        Some(l) => self.sym_of(l)?,
                        None => SymExpr::int(0),
                    };
                    let len = self.sym_of(length.as_ref()?)?;
                    let hi = lo.add(&len)?.add_const(-1)?;
                    dims.push(DimRange { lo, hi });
                    at = inner;
                }
                ExprKind::Ident(_) => break,
                _ => return None,
            }
        }
        dims.reverse();
        // trailing dimensions not written are whole
        let whole = self.whole_array(b);
        while dims.len() < base.dims {
            let d = dims.len();
            let full = match &whole {
                Some(w) => w[d].clone(),
                None => {
                    let ext = base.extents.get(d.checked_sub(1)?)?.clone().ok()?;
                    DimRange {
                        lo: SymExpr::int(0),
                        hi: ext.add_const(-1)?,
                    }
                }
            };
            if dims.is_empty() && whole.is_none() {
                return None;
            }
            dims.push(full);
        }
        (dims.len() == base.dims).then_some(dims)
    }

    /// An integer expression of a clause as a symbolic one: constants, integer variables,
    /// `+ - *`, division and shifts by constants, integer casts.
    fn sym_of(&self, e: &ompcc_syntax::ast::Expr) -> Option<SymExpr> {
        use ompcc_syntax::ast::{BinaryOp, ExprKind, UnaryOp};
        if let Some(ompcc_sema::consteval::ConstValue::Int(c)) = ompcc_sema::fold(self.typed, e) {
            return i64::try_from(c.value).ok().map(SymExpr::int);
        }
        match &e.kind {
            ExprKind::Paren(x) | ExprKind::Unary(UnaryOp::Plus, x) | ExprKind::Cast(_, x) => {
                self.sym_of(x)
            }
            ExprKind::Unary(UnaryOp::Minus, x) => self.sym_of(x)?.neg(),
            ExprKind::Ident(_) => {
                let v = *self.typed.ident_symbols.get(&e.id)?;
                let ty = self.typed.symbols[v].ty;
                self.typed.types.is_integer(ty).then(|| SymExpr::var(v))
            }
            ExprKind::Binary(op, l, r) => {
                let (a, c) = (self.sym_of(l)?, self.sym_of(r)?);
                match op {
                    BinaryOp::Add => a.add(&c),
                    BinaryOp::Sub => a.sub(&c),
                    BinaryOp::Mul => a.mul(&c),
                    BinaryOp::Div => a.div(c.as_const()?),
                    BinaryOp::Shl => a.scale(1i64.checked_shl(u32::try_from(c.as_const()?).ok()?)?),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// An array whose elements are `const`.
    fn const_object(&self, b: BaseId) -> bool {
        let base = &self.fa().bases[b.0 as usize];
        let (BaseKind::Array { .. }, Some(root)) = (&base.kind, base.root) else {
            return false;
        };
        let types = &self.typed.types;
        let mut ty = self.typed.symbols[root].ty;
        while let Some(e) = types.array_elem(ty) {
            ty = e;
        }
        types
            .canon(ty)
            .quals
            .contains(ompcc_sema::types::Quals::CONST)
            || ty.quals.contains(ompcc_sema::types::Quals::CONST)
    }

    /// All of a fixed-size array, dimension by dimension.
    fn whole_array(&self, b: BaseId) -> Option<Vec<DimRange>> {
        let base = &self.fa().bases[b.0 as usize];
        if !matches!(base.kind, BaseKind::Array { .. }) {
            return None;
        }
        let types = &self.typed.types;
        let mut ty = self.typed.symbols[base.root?].ty;
        let mut dims = Vec::new();
        while let ompcc_sema::types::TypeKind::Array {
            elem,
            size: ompcc_sema::types::ArraySize::Fixed(n),
            ..
        } = types.ckind(ty)
        {
            let n = i64::try_from(*n).ok()?;
            dims.push(DimRange {
                lo: SymExpr::int(0),
                hi: SymExpr::int(n - 1),
            });
            ty = *elem;
        }
        (dims.len() == base.dims).then_some(dims)
    }

    /// `a[lo:len]...`; with `clamp`, a length that may be negative (the loops behind it may
    /// not run) is written as at least 0.
    fn section_text(&self, b: BaseId, dims: &[DimRange], clamp: bool) -> String {
        let mut out = self.base_name(b).to_owned();
        for d in dims {
            let len = d
                .length()
                .and_then(|l| {
                    if clamp && l.as_const().is_none() {
                        l.smax(&SymExpr::int(0))
                    } else {
                        Some(l)
                    }
                })
                .map_or_else(|| "0".to_owned(), |l| self.ua.expr_c(&l));
            out.push_str(&format!("[{}:{}]", self.ua.expr_c(&d.lo), len));
        }
        out
    }

    /// Per node: what it does to `b` (see [`NodeFacts`]).
    fn facts(
        &self,
        b: BaseId,
        tree: &Tree,
        mapped: &[DimRange],
        guarded: &[Span],
        planned: &[BaseId],
    ) -> Result<Vec<NodeFacts>, String> {
        let touch = |s: Span| match self.ua.touches_except(self.fi, b, s, planned) {
            Ok(t) => (t.read, t.write),
            Err(_) => (true, true),
        };
        // a `const` object is never written (an unknown call may only seem to write it),
        // and copying into it would fault in read-only memory
        let read_only = self.const_object(b);
        let mut facts = vec![NodeFacts::default(); tree.nodes.len()];
        for (n, node) in tree.nodes.iter().enumerate() {
            let fx = &mut facts[n];
            match &node.kind {
                Kind::Leaf => {
                    (fx.read, fx.write) = touch(node.span);
                    if fx.read || fx.write {
                        fx.covers = self
                            .host_section(b, node.span, true)
                            .is_some_and(|d| contains(&d, mapped));
                    }
                }
                Kind::Loop { head, .. } => (fx.head_read, fx.head_write) = touch(*head),
                Kind::Branch { cond, .. } => (fx.head_read, fx.head_write) = touch(*cond),
                Kind::Target => {
                    let r = self
                        .region_at(node.span)
                        .ok_or("a target region the analysis does not know")?;
                    for s in self.ua.sections(self.fi, Scope::Region(r)) {
                        if s.base == b {
                            fx.read |= s.read.is_some();
                            fx.write |= s.write.is_some();
                        }
                    }
                    fx.covers = fx.write && self.writes_all(b, r, mapped, guarded);
                }
                Kind::Seq(_) => {}
            }
            if read_only {
                fx.write = false;
                fx.head_write = false;
            }
        }
        Ok(facts)
    }

    /// A region writes every element of `mapped`: one unconditional store (not an update)
    /// whose subscripts each follow one loop variable with coefficient ±1 through loops of
    /// step ±1 with bounds that do not depend on each other, covers it.
    fn writes_all(
        &self,
        b: BaseId,
        r: ompcc_access::RegionId,
        mapped: &[DimRange],
        guarded: &[Span],
    ) -> bool {
        let fa = self.fa();
        let rspan = fa.regions[r.0 as usize].span;
        fa.accesses.iter().any(|a| {
            if a.base != b
                || a.kind != ompcc_access::AccessKind::Write
                || a.span.lo < rspan.lo
                || a.span.hi > rspan.hi
                || guarded
                    .iter()
                    .any(|g| a.span.lo >= g.lo && a.span.hi <= g.hi)
            {
                return false;
            }
            let inner: Vec<&ompcc_access::Loop> = a
                .loops
                .iter()
                .map(|l| &fa.loops[l.0 as usize])
                .filter(|l| l.span.lo >= rspan.lo)
                .collect();
            let mut forms = Vec::new();
            for l in &inner {
                match &l.form {
                    Ok(c) if c.step.abs() == 1 && !l.early_exit => forms.push(c.clone()),
                    _ => return false,
                }
            }
            let vars: Vec<ompcc_sema::SymbolId> = forms.iter().map(|c| c.var).collect();
            if forms.iter().any(|c| {
                c.lo.vars()
                    .iter()
                    .chain(c.hi.vars().iter())
                    .any(|v| vars.contains(v))
            }) {
                return false;
            }
            let mut used = Vec::new();
            for s in &a.subscripts {
                let Ok(s) = s else { return false };
                let in_sub: Vec<_> = s.vars().into_iter().filter(|v| vars.contains(v)).collect();
                match in_sub.as_slice() {
                    [] => {}
                    [v] => {
                        let Some((coef, _)) = s.split_linear(&ompcc_access::Atom::Var(*v)) else {
                            return false;
                        };
                        if coef.as_const().map(i64::abs) != Some(1) || used.contains(v) {
                            return false;
                        }
                        used.push(*v);
                    }
                    _ => return false,
                }
            }
            let one = self
                .ua
                .sections_of(self.fi, Scope::Region(r), &|s| s == a.span);
            one.iter()
                .any(|s| s.base == b && matches!(&s.write, Some(Ok(d)) if contains(d, mapped)))
        })
    }

    /// What host code at `span` touches of `b` (reads and writes, or writes only), when known.
    fn host_section(&self, b: BaseId, span: Span, reads_too: bool) -> Option<Vec<DimRange>> {
        let s = self
            .ua
            .sections(self.fi, Scope::Range(span))
            .into_iter()
            .find(|s| s.base == b)?;
        let mut acc: Option<Section> = None;
        let parts = if reads_too {
            vec![&s.read, &s.write]
        } else {
            vec![&s.write]
        };
        for x in parts.into_iter().flatten() {
            acc = Some(match acc.take() {
                None => x.clone(),
                Some(a) => UnitAccesses::join_sections(&a, x, span),
            });
        }
        acc?.ok()
    }

    /// The outermost statement around node `n` where a directive line may go and that holds
    /// no region touching the base.
    fn hoist(&self, tree: &Tree, n: NodeId, touching: &[NodeId]) -> Result<NodeId, String> {
        let holds_kernel = |m: NodeId| {
            let s = tree.nodes[m].span;
            touching
                .iter()
                .any(|&t| tree.nodes[t].span.lo >= s.lo && tree.nodes[t].span.lo < s.hi)
        };
        let mut best = None;
        for m in tree.ancestors(n) {
            if m == tree.root || holds_kernel(m) {
                break;
            }
            if tree.nodes[m].anchor {
                best = Some(m);
            }
        }
        best.ok_or_else(|| {
            format!(
                "no statement around the host code at line {} can take a 'target update' \
                 (it is not in a block of its own)",
                self.line(tree.nodes[n].span)
            )
        })
    }

    /// The edits and remarks of a planned range.
    fn emit(&self, tree: &Tree, range: Span, plans: &[Planned], out: &mut DataPlan) {
        let last_line = self.sm.lookup(range.hi.saturating_sub(1)).line;
        let mut ok: Vec<&Planned> = Vec::new();
        for p in plans {
            let anchors_ok = p.updates.iter().all(|&(n, from)| {
                let s = tree.nodes[n].span;
                let at = if from {
                    Anchor::Before(s)
                } else {
                    Anchor::After(s)
                };
                edit::anchorable(self.text, self.sm, self.original, at)
            });
            if anchors_ok {
                ok.push(p);
            } else {
                out.remarks.push(Remark {
                    span: range,
                    missed: true,
                    message: format!(
                        "'{}' not planned: a 'target update' it needs would share a line with \
                         other code",
                        p.text
                    ),
                });
            }
        }
        let (before, after) = (Anchor::Before(range), Anchor::After(range));
        if ok.is_empty()
            || !edit::anchorable(self.text, self.sm, self.original, before)
            || !edit::anchorable(self.text, self.sm, self.original, after)
        {
            if !ok.is_empty() {
                out.remarks.push(Remark {
                    span: range,
                    missed: true,
                    message: "data not planned: the statements that hold the target regions \
                              share their first or last line with other code"
                        .to_owned(),
                });
            }
            return;
        }
        // a length that may be negative (the loops behind it not running) maps nothing
        let mut conds: Vec<String> = Vec::new();
        for p in &ok {
            for d in &p.dims {
                if let Some(len) = d.length()
                    && len.as_const().is_none()
                {
                    let c = format!("{} > 0", self.ua.expr_c(&len));
                    if !conds.contains(&c) {
                        conds.push(c);
                    }
                }
            }
        }
        let alias = self.disjoint_condition(&ok);
        conds.extend(alias.clone());
        let cond = (!conds.is_empty()).then(|| conds.join(" && "));
        let list = |pick: &dyn Fn(&Planned) -> bool| -> String {
            ok.iter()
                .filter(|p| pick(p))
                .map(|p| p.text.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut enter = String::from("#pragma omp target enter data");
        let mut exit = String::from("#pragma omp target exit data");
        if let Some(c) = &cond {
            enter.push_str(&format!(" if({c})"));
            exit.push_str(&format!(" if({c})"));
        }
        for (kind, pick) in [
            (
                "to",
                &(|p: &Planned| p.entry_to) as &dyn Fn(&Planned) -> bool,
            ),
            ("alloc", &|p: &Planned| !p.entry_to),
        ] {
            let l = list(pick);
            if !l.is_empty() {
                enter.push_str(&format!(" map({kind}: {l})"));
            }
        }
        for (kind, pick) in [
            (
                "from",
                &(|p: &Planned| p.exit_from) as &dyn Fn(&Planned) -> bool,
            ),
            ("release", &|p: &Planned| !p.exit_from),
        ] {
            let l = list(pick);
            if !l.is_empty() {
                exit.push_str(&format!(" map({kind}: {l})"));
            }
        }
        out.edits.push(Edit {
            at: before,
            text: enter,
            order: 0,
        });
        out.edits.push(Edit {
            at: after,
            text: exit,
            order: 2,
        });
        let first_line = self.line(range);
        for p in &ok {
            let how_in = if p.entry_to {
                "copied in before it"
            } else {
                "allocated before it (its first kernel writes all of it)"
            };
            let how_out = if p.exit_from {
                "copied back after it"
            } else if p.live {
                "released after it (the host copy is current there)"
            } else {
                "released after it (the host does not use it afterwards)"
            };
            out.remarks.push(Remark {
                span: range,
                missed: false,
                message: format!(
                    "'{}' stays on the device across lines {first_line}-{last_line}: {how_in}, \
                     {how_out}",
                    p.text
                ),
            });
            for &(n, from) in &p.updates {
                let node = tree.nodes[n].span;
                let sec = self.update_text(p, node, from);
                let (dir, at, why) = if from {
                    (
                        "from",
                        Anchor::Before(node),
                        "the host uses it there after a kernel may have written it",
                    )
                } else {
                    (
                        "to",
                        Anchor::After(node),
                        "the host writes it there and the device sees it later",
                    )
                };
                out.edits.push(Edit {
                    at,
                    text: format!("#pragma omp target update {dir}({sec})"),
                    order: 1,
                });
                out.remarks.push(Remark {
                    span: node,
                    missed: false,
                    message: format!(
                        "'target update {dir}({sec})' {} line {}: {why}",
                        if from { "before" } else { "after" },
                        if from {
                            self.line(node)
                        } else {
                            self.sm.lookup(node.hi.saturating_sub(1)).line
                        }
                    ),
                });
            }
        }
        self.implicit_pointer_maps(tree, &ok, out);
        if let Some(c) = alias {
            out.remarks.push(Remark {
                span: range,
                missed: false,
                message: format!(
                    "planned pointers may alias: the data is kept on the device only when \
                     their sections do not overlap at run time ({c}); otherwise every region \
                     maps its data as written"
                ),
            });
        }
    }

    /// The section an update at host statement `node` moves: what the statement touches
    /// (writes only, for `to`), cut to the mapped section when that reads simply (the
    /// runtime moves only the present part of a section anyway), else the mapped section.
    fn update_text(&self, p: &Planned, node: Span, from: bool) -> String {
        let Some(host) = self.host_section(p.base, node, from) else {
            return p.text.clone();
        };
        // an update section must be contiguous (gcc and the OpenMP 4.5 rules): every
        // dimension after the first spans what is mapped
        let mut host = host;
        for (h, m) in host.iter_mut().zip(&p.dims).skip(1) {
            *h = m.clone();
        }
        let clipped = clip(&host, &p.dims);
        let simple = |d: &[DimRange]| {
            !d.iter()
                .any(|r| self.ua.expr_c(&r.lo).contains('?') || self.ua.expr_c(&r.hi).contains('?'))
        };
        let dims = if simple(&clipped) {
            clipped
        } else if simple(&host) {
            host
        } else {
            clipped
        };
        if dims == p.dims {
            p.text.clone()
        } else {
            self.section_text(p.base, &dims, true)
        }
    }

    /// Regions that use a planned pointer without a map clause get one with the planned
    /// section (the data is present, so it moves nothing; without the plan's data it keeps
    /// the region correct).
    fn implicit_pointer_maps(&self, tree: &Tree, ok: &[&Planned], out: &mut DataPlan) {
        for t in tree.targets() {
            let span = tree.nodes[t].span;
            let Some(r) = self
                .oplan
                .regions
                .iter()
                .find(|r| r.directive.span.lo == span.lo)
            else {
                continue;
            };
            let Some(ar) = self.region_at(span) else {
                continue;
            };
            let sections = self.ua.sections(self.fi, Scope::Region(ar));
            for p in &r.params {
                let implicit = p.pass == ompcc_omp::Pass::DevicePtr
                    && p.map.as_ref().is_some_and(|m| m.implicit);
                let Some(pl) = ok.iter().find(|pl| {
                    self.fa().bases[pl.base.0 as usize].root == Some(p.sym)
                        && matches!(
                            self.fa().bases[pl.base.0 as usize].kind,
                            BaseKind::Pointer(_)
                        )
                }) else {
                    continue;
                };
                if !implicit {
                    continue;
                }
                let writes = sections
                    .iter()
                    .any(|s| s.base == pl.base && s.write.is_some());
                let kind = if writes { "tofrom" } else { "to" };
                let at = Anchor::Clause(r.directive.span);
                if !edit::anchorable(self.text, self.sm, self.original, at) {
                    continue;
                }
                out.edits.push(Edit {
                    at,
                    text: format!(" map({kind}: {})", pl.text),
                    order: 1,
                });
                out.remarks.push(Remark {
                    span: r.directive.span,
                    missed: false,
                    message: format!(
                        "'map({kind}: {})' added to the target region: '{}' had no map clause \
                         (a zero-length section)",
                        pl.text, p.name
                    ),
                });
            }
        }
    }

    /// `if` condition that the planned pointers which may alias occupy disjoint bytes.
    fn disjoint_condition(&self, ok: &[&Planned]) -> Option<String> {
        let mut terms = Vec::new();
        for (i, p) in ok.iter().enumerate() {
            for q in &ok[i + 1..] {
                if self.ua.distinct(self.fi, p.base, q.base).is_some() {
                    continue;
                }
                let (ps, pe) = self.byte_bounds(p);
                let (qs, qe) = self.byte_bounds(q);
                terms.push(format!("({pe} <= {qs} || {qe} <= {ps})"));
            }
        }
        (!terms.is_empty()).then(|| terms.join(" && "))
    }

    /// The first and one-past-last byte address of a planned section, as `unsigned long`.
    fn byte_bounds(&self, p: &Planned) -> (String, String) {
        let name = self.base_name(p.base);
        let mut lo = format!("&{name}");
        let mut hi = format!("&{name}");
        for d in &p.dims {
            lo.push_str(&format!("[{}]", self.ua.expr_c(&d.lo)));
            hi.push_str(&format!("[{}]", self.ua.expr_c(&d.hi)));
        }
        (
            format!("(unsigned long)({lo})"),
            format!("(unsigned long)({hi} + 1)"),
        )
    }
}

fn item_span(i: &BlockItem) -> Span {
    match i {
        BlockItem::Stmt(s) => s.span,
        BlockItem::Decl(d) => d.span,
        BlockItem::Pragma(p) => p.span,
        BlockItem::LocalLabels(s, _) => *s,
    }
}

/// The smallest section holding both (per dimension: the lower start, the higher end).
fn hull(a: &[DimRange], b: &[DimRange]) -> Option<Vec<DimRange>> {
    (a.len() == b.len())
        .then(|| {
            a.iter()
                .zip(b)
                .map(|(x, y)| {
                    Some(DimRange {
                        lo: x.lo.smin(&y.lo)?,
                        hi: x.hi.smax(&y.hi)?,
                    })
                })
                .collect()
        })
        .flatten()
}

/// `outer` provably contains `inner`, dimension by dimension.
fn contains(outer: &[DimRange], inner: &[DimRange]) -> bool {
    outer.len() == inner.len()
        && outer.iter().zip(inner).all(|(o, i)| {
            o.lo.smin(&i.lo).as_ref() == Some(&o.lo) && o.hi.smax(&i.hi).as_ref() == Some(&o.hi)
        })
}

/// `host` intersected with `mapped`: what an update may move (the device holds nothing
/// else); `mapped` itself where a bound cannot be formed.
fn clip(host: &[DimRange], mapped: &[DimRange]) -> Vec<DimRange> {
    let dims: Option<Vec<DimRange>> = (host.len() == mapped.len())
        .then(|| {
            host.iter()
                .zip(mapped)
                .map(|(h, m)| {
                    Some(DimRange {
                        lo: h.lo.smax(&m.lo)?,
                        hi: h.hi.smin(&m.hi)?,
                    })
                })
                .collect()
        })
        .flatten();
    dims.unwrap_or_else(|| mapped.to_vec())
}
