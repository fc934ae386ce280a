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
//! A function called from one plain call statement is planned inside its caller, its body
//! spliced into the caller's statement tree (`splice.rs`); calls of functions with device
//! constructs that are not spliced make the caller leave the data they touch as written.
//!
//! The regions' own maps then find their data present and move nothing. The plan is text
//! edits ([`Edit`]) anchored at statements: the driver applies them to the preprocessed unit
//! and compiles the result, and `--emit=annotated-c` applies them to the user's file, which
//! stays a portable OpenMP program. A fact the plan needs and the analysis cannot prove
//! leaves that base (or the function) as written, with a `-Rpass-missed=plan-data` remark.
//! Functions that already manage device data (`target data`, `enter`/`exit data`, `update`)
//! are left as written.

mod edit;
mod emit;
mod flow;
mod section;
mod splice;
mod suggest;
mod swap;
mod tree;

use ompcc_access::{BaseId, BaseKind, DimRange, Provenance, Scope, UnitAccesses};

use ompcc_diag::{SourceMap, Span};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{BlockItem, ExternalDecl, FunctionDef, TranslationUnit};
use section::contains;

pub use edit::{anchorable, annotate, apply_preprocessed};
pub use suggest::{RegionSection, region_sections, scope_sections, suggested_maps};

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
        self.render_for(sm, "plan-data")
    }

    /// The same for the remarks of another pass (`auto-offload`).
    pub fn render_for(&self, sm: &SourceMap, pass: &str) -> String {
        let flag = if self.missed {
            "-Rpass-missed"
        } else {
            "-Rpass"
        };
        format!(
            "{}: remark: {} [{flag}={pass}]",
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
    let funcs: Vec<&FunctionDef> = tu
        .items
        .iter()
        .filter_map(|i| match i {
            ExternalDecl::Function(f) => Some(f),
            _ => None,
        })
        .take(ua.functions.len())
        .collect();
    let calls = splice::calls(&ua, typed, &oplan, &funcs, sm);
    for (caller, span, callee, why) in &calls.refused {
        out.remarks.push(Remark {
            span: *span,
            missed: true,
            message: format!(
                "'{callee}' not planned with its caller '{}': {why}; its data is planned in \
                 '{callee}' alone",
                ua.functions[*caller].name
            ),
        });
    }
    // a function spliced into its caller is planned there, unless the caller's range could
    // not be planned at all
    let mut todo: Vec<usize> = (0..funcs.len())
        .filter(|&fi| calls.spliced_into(fi).is_none())
        .collect();
    todo.reverse();
    while let Some(fi) = todo.pop() {
        let cx = FnPlan {
            ua: &ua,
            fi,
            typed,
            sm,
            text,
            original,
            oplan: &oplan,
            calls: &calls,
            funcs: &funcs,
        };
        if !cx.function(funcs[fi], &mut out) {
            todo.extend(
                calls
                    .splices
                    .iter()
                    .filter(|s| s.caller == fi)
                    .map(|s| s.callee),
            );
        }
    }
    out.remarks.sort_by_key(|r| (r.span.lo, r.missed));
    out
}

#[derive(Clone, Copy)]
struct FnPlan<'a, 'u> {
    ua: &'a UnitAccesses<'u>,
    fi: usize,
    typed: &'a TypedUnit,
    sm: &'a SourceMap,
    text: &'a str,
    original: Option<&'a str>,
    oplan: &'a ompcc_omp::OffloadPlan<'a>,
    calls: &'a splice::Calls,
    funcs: &'a [&'a FunctionDef],
}

/// What the plan does with one base.
struct Planned {
    base: BaseId,
    /// The section every directive of the range maps (`a[0:n]`), as dimensions and as C.
    dims: Vec<DimRange>,
    text: String,
    entry_to: bool,
    /// Allocated although no kernel writes all of it: the elements kernels read are
    /// written on the device first, and nothing goes back to the host.
    written_before_read: bool,
    /// Allocated although a use needs the host's values: the host never wrote them since
    /// the `malloc` at this line, so they are indeterminate and copying them shows nothing.
    indeterminate_since: Option<u32>,
    exit_from: bool,
    /// The host may use it after the range.
    live: bool,
    /// (anchor node, `from` before it / `to` after it, the section it moves, named as the
    /// anchor's function names it).
    updates: Vec<(NodeId, bool, String)>,
}

impl<'a, 'u> FnPlan<'a, 'u> {
    fn fa(&self) -> &'a ompcc_access::FunctionAccesses {
        &self.ua.functions[self.fi]
    }

    /// This planner seen from another function of the unit (a spliced callee).
    fn at(&self, fi: usize) -> FnPlan<'a, 'u> {
        FnPlan { fi, ..*self }
    }

    /// The function of node `n` and the base there that is `b` of the planned function.
    fn frame(&self, tree: &Tree, n: NodeId, b: BaseId) -> (FnPlan<'a, 'u>, Option<BaseId>) {
        let k = tree.nodes[n].frame;
        let m = &tree.frames[k];
        (self.at(m.fi), m.here(b, k))
    }

    /// The planned function's base that base `h` of node `n`'s function is.
    fn planned_base(&self, tree: &Tree, n: NodeId, h: BaseId) -> Option<BaseId> {
        let k = tree.nodes[n].frame;
        tree.frames[k].planned(h, k)
    }

    fn line(&self, s: Span) -> u32 {
        self.sm.lookup(s.lo).line
    }

    fn base_name(&self, b: BaseId) -> &str {
        &self.fa().bases[b.0 as usize].name
    }

    /// Plans function `f` with the callees spliced into it; false when its range could not
    /// be planned at all (its callees are then planned on their own).
    fn function(&self, f: &FunctionDef, out: &mut DataPlan) -> bool {
        let fa = self.fa();
        // its own regions, and the call statements that splice a callee in
        let mut spans: Vec<Span> = fa
            .regions
            .iter()
            .filter(|r| r.directive.starts_with("target") && r.parent.is_none())
            .map(|r| r.span)
            .chain(
                self.calls
                    .splices
                    .iter()
                    .filter(|s| s.caller == self.fi && s.kernels)
                    .map(|s| s.stmt),
            )
            .collect();
        spans.sort_by_key(|s| s.lo);
        let Some(&first_region) = spans.first() else {
            return false;
        };
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
            return false;
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
            return false;
        }
        let items: Vec<&BlockItem> = f.body.items.iter().collect();
        let holds = |i: &BlockItem| {
            let s = item_span(i);
            spans.iter().any(|r| r.lo >= s.lo && r.lo < s.hi)
        };
        let (Some(first), Some(last)) = (
            items.iter().position(|i| holds(i)),
            items.iter().rposition(|i| holds(i)),
        ) else {
            return false;
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
            return false;
        }
        let mut guarded = tree::guarded_spans(range_items, range);
        let (sites, maps) = match self.frames(f, &mut guarded) {
            Ok(x) => x,
            Err((span, why)) => {
                missed(
                    out,
                    span,
                    format!(
                        "data of the target regions in '{}' not planned: {why}",
                        fa.name
                    ),
                );
                return false;
            }
        };
        let tree = match Tree::build(range_items, range, &sites, maps, self.typed) {
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
                return false;
            }
        };
        let candidates = self.candidates(&tree, out);
        let mut planned: Vec<BaseId> = candidates.iter().map(|(b, _)| *b).collect();
        let mut refused: Vec<(Span, String)> = Vec::new();
        let touched = self.touched_by_regions(&tree);
        // pointers the range only exchanges among themselves are planned together
        let groups = swap::swap_groups(range_items, self.typed, &|v| {
            self.typed.symbols[v].span.lo < range.lo
        });
        let unit_of = |b: BaseId| -> Result<Vec<BaseId>, String> {
            let root = fa.bases[b.0 as usize].root;
            let Some(g) = groups.iter().find(|g| root.is_some_and(|r| g.contains(&r))) else {
                return Ok(vec![b]);
            };
            let members: Vec<BaseId> = g
                .iter()
                .filter_map(|&v| {
                    fa.bases
                        .iter()
                        .find(|x| x.root == Some(v) && matches!(x.kind, BaseKind::Pointer(_)))
                        .map(|x| x.id)
                })
                .collect();
            if members.len() == g.len() {
                Ok(members)
            } else {
                Err("it is exchanged with a pointer the function never dereferences".to_owned())
            }
        };
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
            let mut plans: Vec<Planned> = Vec::new();
            let mut failed = false;
            for &(b, first_use) in &candidates {
                if !planned.contains(&b) || plans.iter().any(|p| p.base == b) {
                    continue;
                }
                let (members, result) = match unit_of(b) {
                    Ok(m) if m.iter().all(|x| planned.contains(x)) => {
                        let r = self.unit(&m, &tree, &guarded, range, f, &planned);
                        (m, r)
                    }
                    Ok(m) => (
                        m,
                        Err("a pointer it is exchanged with is not planned".to_owned()),
                    ),
                    Err(why) => (vec![b], Err(why)),
                };
                match result {
                    Ok(ps) => plans.extend(ps),
                    Err(why) => {
                        for m in &members {
                            refused.push((
                                first_use,
                                format!("'{}' not planned: {why}", self.base_name(*m)),
                            ));
                        }
                        planned.retain(|x| !members.contains(x));
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
        !plans.is_empty() && self.emit(&tree, range, &plans, out)
    }

    /// The bases the range's regions touch that the planner may move: arrays and pointers,
    /// not scalars, not `declare target` variables; each with the first region using it.
    fn candidates(&self, tree: &Tree, out: &mut DataPlan) -> Vec<(BaseId, Span)> {
        let mut found: Vec<(BaseId, Span)> = Vec::new();
        for t in tree.targets() {
            let span = tree.nodes[t].span;
            // the region's function (a spliced callee's bases stand for this function's)
            let (fp, _) = self.frame(tree, t, BaseId(0));
            let fa = fp.fa();
            let Some(r) = fp.region_at(span) else {
                continue;
            };
            // what the region touches, and what its map clauses name (accesses through a
            // pointer derived inside the region count for that pointer, not for the base)
            let mut bases: Vec<BaseId> = self
                .ua
                .sections(fp.fi, Scope::Region(r))
                .iter()
                .map(|s| s.base)
                .collect();
            for (sym, _) in self.clause_maps(span) {
                if let Some(b) = fa.bases.iter().find(|b| {
                    b.root == Some(sym)
                        && matches!(b.kind, BaseKind::Array { .. } | BaseKind::Pointer(_))
                }) && !bases.contains(&b.id)
                {
                    bases.push(b.id);
                }
            }
            for here in bases {
                let b = &fa.bases[here.0 as usize];
                // a pointer declared in the region lives on the device; a callee's own
                // objects are its business
                let Some(base) = self.planned_base(tree, t, here) else {
                    continue;
                };
                if found.iter().any(|(b, _)| *b == base) || fp.region_local(here, span) {
                    continue;
                }
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
                    BaseKind::Unknown(u) => Some(u.reason.message()),
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
                found.push((base, span));
            }
        }
        found
    }

    /// The explicit map items of the region at `span`: (variable, map type).
    fn clause_maps(&self, span: Span) -> Vec<(ompcc_sema::SymbolId, ompcc_syntax::ast::MapType)> {
        let Some(r) = self
            .oplan
            .regions
            .iter()
            .find(|r| r.directive.span.lo == span.lo)
        else {
            return Vec::new();
        };
        r.params
            .iter()
            .filter_map(|p| p.map.as_ref())
            .chain(r.extra_maps.iter())
            .filter(|m| !m.implicit)
            .filter_map(|m| {
                let id = ompcc_omp::base_ident(m.expr)?;
                Some((*self.typed.ident_symbols.get(&id.id)?, m.map_type))
            })
            .collect()
    }

    /// Whether `b`'s variable is declared inside the region at `span` (a pointer the kernel
    /// derives from mapped data: its accesses count for every base it may alias).
    fn region_local(&self, b: BaseId, span: Span) -> bool {
        self.fa().bases[b.0 as usize].root.is_some_and(|root| {
            let at = self.typed.symbols[root].span.lo;
            at >= span.lo && at < span.hi
        })
    }

    /// Every base some region of the range touches (not the regions' own pointers).
    fn touched_by_regions(&self, tree: &Tree) -> Vec<BaseId> {
        let mut out = Vec::new();
        for t in tree.targets() {
            let (fp, _) = self.frame(tree, t, BaseId(0));
            if let Some(r) = fp.region_at(tree.nodes[t].span) {
                for s in self.ua.sections(fp.fi, Scope::Region(r)) {
                    if fp.region_local(s.base, tree.nodes[t].span) {
                        continue;
                    }
                    if let Some(b) = self.planned_base(tree, t, s.base)
                        && !out.contains(&b)
                    {
                        out.push(b);
                    }
                }
            }
        }
        out
    }

    /// Whether some function of the unit calls `atexit` / `at_quick_exit` (whose handlers
    /// run after `main` returns).
    fn registers_exit_handlers(&self) -> bool {
        self.ua.functions.iter().any(|f| {
            f.calls
                .iter()
                .any(|c| matches!(c.name.as_str(), "atexit" | "at_quick_exit" | "on_exit"))
        })
    }

    fn region_at(&self, span: Span) -> Option<ompcc_access::RegionId> {
        self.fa()
            .regions
            .iter()
            .find(|r| r.span == span)
            .map(|r| r.id)
    }

    /// Plans one base, or the pointers of a swap group together: the mapped section, the
    /// flow's transfers, and where they go; one [`Planned`] per base.
    fn unit(
        &self,
        members: &[BaseId],
        tree: &Tree,
        guarded: &[Span],
        range: Span,
        f: &FunctionDef,
        planned: &[BaseId],
    ) -> Result<Vec<Planned>, String> {
        let fa = self.fa();
        let swapped = members.len() > 1;
        let mut dims: Option<Vec<DimRange>> = None;
        let mut live = false;
        let mut member_live = Vec::new();
        for &b in members {
            let (d, _) = self.mapped_section(b, tree, guarded, range, swapped)?;
            dims = Some(match dims {
                None => d,
                Some(a) => section::hull(&a, &d).ok_or("the swapped pointers' sections differ")?,
            });
            // the host's other uses after the range
            let base = &fa.bases[b.0 as usize];
            let after = Span::new(range.hi, f.body.span.hi);
            // a local (or, after `main`'s range, any object: nothing runs after `main`
            // returns but exit handlers, which the unit does not register) is live only
            // where the rest of the function may use it
            let in_main = fa.name == "main" && !self.registers_exit_handlers();
            let local = matches!(
                base.kind,
                BaseKind::Array { global: false } | BaseKind::Pointer(Provenance::Alloc { .. })
            ) || in_main;
            // the other planned pointers still point where the run-time check saw them
            let disjoint: Vec<BaseId> = planned
                .iter()
                .copied()
                .filter(|&c| {
                    c != b
                        && fa.bases[c.0 as usize]
                            .root
                            .is_some_and(|r| self.ua.invariant(self.fi, r, after).is_ok())
                })
                .collect();
            // a swap group's pointers are copied among themselves in the range: that is
            // not an escape
            let escapes = base
                .escapes
                .as_ref()
                .is_some_and(|u| !(swapped && u.span.lo >= range.lo && u.span.hi <= range.hi));
            let this = !local
                || escapes
                || self
                    .ua
                    .touches_except(self.fi, b, after, &disjoint)
                    .map_or(true, |t| t.read || t.write);
            member_live.push(this);
            live |= this;
        }
        let dims = dims.ok_or("nothing to plan")?;
        let mut facts = self.facts(members, tree, &dims, guarded, planned)?;
        // a host statement that only overwrites one element-exact section needs no copy
        // from the device first, when the copy to the device after it (where it is hoisted
        // to) moves just that section
        let touching: Vec<NodeId> = tree
            .targets()
            .into_iter()
            .filter(|&t| facts[t].read || facts[t].write)
            .collect();
        let overwriting: Vec<NodeId> = (0..tree.nodes.len())
            .filter(|&n| facts[n].overwrites)
            .collect();
        for n in overwriting {
            let keep = members.len() == 1
                && self.hoist(tree, n, &touching).is_ok_and(|h| {
                    let (fp, here) = self.frame(tree, n, members[0]);
                    let (hp, hhere) = self.frame(tree, h, members[0]);
                    let own = here.and_then(|x| fp.host_section(x, tree.nodes[n].span, false));
                    let at = hhere.and_then(|x| hp.host_section(x, tree.nodes[h].span, false));
                    own.is_some() && own == at
                });
            facts[n].overwrites = keep;
        }
        let needs = flow::run(tree, &facts, live);
        // nothing goes back to the host: the device copy needs to hold only what kernels
        // read, so a kernel that writes all of that (not all of the section) also suffices
        let relaxed = (needs.entry_to
            && !swapped
            && !live
            && needs.from_before.is_empty()
            && needs.refused.is_none())
        .then(|| self.device_read_facts(members[0], tree, &facts, guarded, range))
        .flatten()
        .map(|alt| flow::run(tree, &alt, live))
        .filter(|n| !n.entry_to && n.from_before.is_empty() && n.refused.is_none());
        let written_before_read = relaxed.is_some();
        let needs = relaxed.unwrap_or(needs);
        if let Some((n, why)) = needs.refused {
            return Err(format!("{why} (line {})", self.line(tree.nodes[n].span)));
        }
        self.opaque_calls(members, tree, planned)?;
        let mut updates = Vec::new();
        for &n in &needs.from_before {
            let at = self.hoist(tree, n, &touching)?;
            updates.push((at, true, self.arm_condition(tree, at, n)));
        }
        let after = |n: NodeId, m: NodeId| tree.may_follow(n, m);
        for &n in &needs.host_writes {
            // a kernel sees the write, or a later copy back would overwrite it with the
            // device's older value
            let seen_later = touching.iter().any(|&t| after(n, t))
                || needs.from_before.iter().any(|&m| m != n && after(n, m));
            if seen_later || needs.stale_at_exit {
                updates.push((self.hoist(tree, n, &touching)?, false, String::new()));
            }
        }
        updates.sort_unstable();
        updates.dedup();
        let alloc = if swapped {
            self.swap_allocs(members, tree, &facts, &dims, guarded, &member_live)
        } else {
            vec![false]
        };
        let indeterminate_since = (needs.entry_to && !swapped)
            .then(|| self.indeterminate_at(members[0], range, f))
            .flatten();
        let mut out = Vec::new();
        for (i, &b) in members.iter().enumerate() {
            let mut ups = Vec::new();
            for (n, from, cond) in &updates {
                let (n, from) = (*n, *from);
                let (fp, here) = self.frame(tree, n, b);
                let Some(here) = here else {
                    // the function there cannot name it (so it does not touch it)
                    continue;
                };
                // in a swap group, an update names the pointers the host code uses there
                if swapped
                    && !fp
                        .ua
                        .touches_except(
                            fp.fi,
                            here,
                            tree.nodes[n].span,
                            &self.here_all(tree, n, planned),
                        )
                        .map_or(true, |t| t.read || t.write)
                {
                    continue;
                }
                let text = fp
                    .update_text(
                        here,
                        &dims,
                        tree.nodes[n].span,
                        from,
                        tree.nodes[n].frame == 0,
                    )
                    .ok_or_else(|| {
                        format!(
                            "the update at line {} cannot name its section in '{}'",
                            self.line(tree.nodes[n].span),
                            fp.fa().name
                        )
                    })?;
                ups.push((n, from, format!("{text}){cond}")));
            }
            out.push(Planned {
                base: b,
                text: self.section_text(b, &dims, false),
                dims: dims.clone(),
                entry_to: needs.entry_to && !alloc[i] && indeterminate_since.is_none(),
                written_before_read,
                indeterminate_since,
                // in a swap group, the pointers the host reads afterwards bring back the
                // object they point to then; the others' objects are not looked at again
                exit_from: needs.stale_at_exit && member_live[i],
                live: member_live[i],
                updates: ups,
            });
        }
        Ok(out)
    }

    /// The line of the `malloc` (or `aligned_alloc`) that `b` points into when the host has
    /// not written its memory since, up to the range: its elements are indeterminate there,
    /// so no program can observe whether the range's entry copies them. The range is in the
    /// function's top-level statements, so each of its runs follows its own allocation;
    /// without labels nothing jumps back between them.
    fn indeterminate_at(&self, b: BaseId, range: Span, f: &FunctionDef) -> Option<u32> {
        let base = &self.fa().bases[b.0 as usize];
        let BaseKind::Pointer(Provenance::Alloc { func, call, .. }) = &base.kind else {
            return None;
        };
        let call = *call;
        let before = Span::new(call.hi, range.lo);
        let fresh = matches!(func.as_str(), "malloc" | "aligned_alloc")
            && base.escapes.is_none()
            && call.hi <= range.lo
            && !tree::has_label(&f.body)
            && self
                .ua
                .touches_except(self.fi, b, before, &[])
                .is_ok_and(|t| !t.write);
        fresh.then(|| self.line(call))
    }

    /// `facts` with a kernel's `covers` judged against the hull of the sections the range's
    /// kernels read of `b` rather than against its mapped section. None where a read section
    /// is unknown or uses a variable that may change in the range (`range`), or, in a
    /// spliced callee, any variable (the callee's names mean nothing to the caller).
    fn device_read_facts(
        &self,
        b: BaseId,
        tree: &Tree,
        facts: &[NodeFacts],
        guarded: &[Span],
        range: Span,
    ) -> Option<Vec<NodeFacts>> {
        let mut read: Option<Vec<DimRange>> = None;
        let mut regions = Vec::new();
        for t in tree.targets() {
            if !(facts[t].read || facts[t].write) {
                continue;
            }
            let (fp, here) = self.frame(tree, t, b);
            let here = here?;
            let r = fp.region_at(tree.nodes[t].span)?;
            for s in fp.ua.sections(fp.fi, Scope::Region(r)) {
                let Some(sec) = s.read.as_ref().filter(|_| s.base == here) else {
                    continue;
                };
                let d = sec.as_ref().ok()?;
                let fixed = d.iter().flat_map(|x| [&x.lo, &x.hi]).all(|e| {
                    e.vars().iter().all(|&v| {
                        tree.nodes[t].frame == 0 && self.ua.invariant(self.fi, v, range).is_ok()
                    })
                });
                if !fixed {
                    return None;
                }
                read = Some(match read {
                    None => d.clone(),
                    Some(a) => section::hull(&a, d)?,
                });
            }
            regions.push((t, fp, here, r));
        }
        let mut alt = facts.to_vec();
        for (t, fp, here, r) in regions {
            if alt[t].write {
                alt[t].covers = read
                    .as_ref()
                    .is_none_or(|d| fp.writes_all(here, r, d, guarded));
            }
        }
        // host code that writes all of it: the `update to` after it makes the device copy
        // hold what kernels read
        for (n, node) in tree.nodes.iter().enumerate() {
            if matches!(node.kind, Kind::Leaf) && alt[n].write {
                let (fp, Some(here)) = self.frame(tree, n, b) else {
                    continue;
                };
                alt[n].write_covers = read.as_ref().is_none_or(|d| {
                    fp.host_section(here, node.span, false)
                        .is_some_and(|w| contains(&w, d))
                });
            }
        }
        Some(alt)
    }

    /// Per member of a swap group: its object may be allocated rather than copied in. The
    /// first node touching the group (in execution order) is a kernel outside any `if` that
    /// writes all of the member's object and does not read it, every other node touching the
    /// group runs inside the loops around that kernel (so if they do not run, nothing does),
    /// and the host does not read the member after the range (if the loops never run, its
    /// object is released unread). Every later read of that object, whichever name it goes
    /// by then, comes after the kernel wrote it.
    fn swap_allocs(
        &self,
        members: &[BaseId],
        tree: &Tree,
        facts: &[NodeFacts],
        mapped: &[ompcc_access::DimRange],
        guarded: &[Span],
        member_live: &[bool],
    ) -> Vec<bool> {
        let none = vec![false; members.len()];
        let touching = |n: NodeId| {
            let f = &facts[n];
            f.read || f.write || f.head_read || f.head_write
        };
        // (nodes are numbered in execution order; a loop's head before its body)
        let Some(k) = (0..tree.nodes.len()).find(|&n| touching(n)) else {
            return none;
        };
        if !matches!(tree.nodes[k].kind, Kind::Target)
            || tree
                .ancestors(k)
                .iter()
                .any(|&a| matches!(tree.nodes[a].kind, Kind::Branch { .. }))
        {
            return none;
        }
        let outer = tree.loops_around(k).last().copied();
        let inside = |n: NodeId| outer.is_none_or(|l| tree.within(n, l));
        if (0..tree.nodes.len()).any(|n| touching(n) && !inside(n) && !tree.within(k, n)) {
            return none;
        }
        members
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let (fp, Some(here)) = self.frame(tree, k, b) else {
                    return false;
                };
                let Some(r) = fp.region_at(tree.nodes[k].span) else {
                    return false;
                };
                let reads = self
                    .ua
                    .sections(fp.fi, Scope::Region(r))
                    .iter()
                    .any(|s| s.base == here && s.read.is_some());
                !member_live[i] && !reads && fp.writes_all(here, r, mapped, guarded)
            })
            .collect()
    }

    /// The bases of node `n`'s function whose accesses do not count for a planned base even
    /// where the analysis cannot tell them apart: the ones standing for the other `planned`
    /// bases (checked disjoint at run time), and `const` arrays (a planned base whose data
    /// a kernel writes cannot point into one, which would be undefined; and reading one
    /// while the base is read-only needs no transfer).
    fn here_all(&self, tree: &Tree, n: NodeId, planned: &[BaseId]) -> Vec<BaseId> {
        let fp = self.at(tree.frames[tree.nodes[n].frame].fi);
        planned
            .iter()
            .filter_map(|&b| self.frame(tree, n, b).1)
            .chain(
                fp.fa()
                    .bases
                    .iter()
                    .filter(|x| fp.const_object(x.id))
                    .map(|x| x.id),
            )
            .collect()
    }

    /// A call in the range of a function that runs device constructs and is not spliced in
    /// (its own plan's exit `from` would copy nothing under this range's mapping, and the
    /// flow here sees it as host code): the members cannot be planned where it touches them.
    fn opaque_calls(
        &self,
        members: &[BaseId],
        tree: &Tree,
        planned: &[BaseId],
    ) -> Result<(), String> {
        for (n, node) in tree.nodes.iter().enumerate() {
            let span = match &node.kind {
                Kind::Leaf => node.span,
                Kind::Loop { head, .. } => *head,
                Kind::Branch { cond, .. } => *cond,
                _ => continue,
            };
            let fp = self.at(tree.frames[node.frame].fi);
            for c in &fp.fa().calls {
                if c.span.lo < span.lo || c.span.hi > span.hi {
                    continue;
                }
                let ompcc_access::Callee::Defined(name) = &c.callee else {
                    continue;
                };
                let Some(g) = self.ua.function(name) else {
                    continue;
                };
                if !self.calls.kernels.get(g).copied().unwrap_or(false) {
                    continue;
                }
                for &b in members {
                    let Some(here) = self.frame(tree, n, b).1 else {
                        continue;
                    };
                    let touched = fp
                        .ua
                        .touches_except(fp.fi, here, c.span, &self.here_all(tree, n, planned))
                        .map_or(true, |t| t.read || t.write);
                    if touched {
                        let why = self
                            .calls
                            .refusal(c.span)
                            .unwrap_or("it is not called from a statement the plan can take");
                        return Err(format!(
                            "the call of '{name}' at line {} runs device constructs on it and is \
                             not planned with '{}' ({why})",
                            self.line(c.span),
                            self.fa().name
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Per node: what it does to `b` (see [`NodeFacts`]).
    fn facts(
        &self,
        members: &[BaseId],
        tree: &Tree,
        mapped: &[DimRange],
        guarded: &[Span],
        planned: &[BaseId],
    ) -> Result<Vec<NodeFacts>, String> {
        let swapped = members.len() > 1;
        let mut facts = vec![NodeFacts::default(); tree.nodes.len()];
        for &b in members {
            // a `const` object is never written (an unknown call may only seem to write
            // it), and copying into it would fault in read-only memory
            let read_only = self.const_object(b);
            for (n, node) in tree.nodes.iter().enumerate() {
                let (fp, here) = self.frame(tree, n, b);
                // a function that cannot name it does not touch it (every memory a spliced
                // callee reaches is named by this function or is the callee's own)
                let Some(here) = here else { continue };
                let others = self.here_all(tree, n, planned);
                let touch = |s: Span| match fp.ua.touches_except(fp.fi, here, s, &others) {
                    Ok(t) => (t.read, t.write),
                    Err(_) => (true, true),
                };
                let mut fx = NodeFacts::default();
                match &node.kind {
                    Kind::Leaf => {
                        (fx.read, fx.write) = touch(node.span);
                        if (fx.read || fx.write) && !swapped {
                            fx.covers = fp
                                .host_section(here, node.span, true)
                                .is_some_and(|d| contains(&d, mapped));
                        }
                        fx.write_covers = fx.write
                            && !swapped
                            && fp
                                .host_section(here, node.span, false)
                                .is_some_and(|d| contains(&d, mapped));
                        fx.overwrites = fx.write
                            && !fx.read
                            && fp.overwrites(here, node.span, guarded, &others);
                    }
                    Kind::Loop { head, .. } => (fx.head_read, fx.head_write) = touch(*head),
                    Kind::Branch { cond, .. } => (fx.head_read, fx.head_write) = touch(*cond),
                    Kind::Target => {
                        let r = fp
                            .region_at(node.span)
                            .ok_or("a target region the analysis does not know")?;
                        for s in self.ua.sections(fp.fi, Scope::Region(r)) {
                            let through_local = fp.region_local(s.base, node.span)
                                && self.ua.distinct(fp.fi, s.base, here).is_none();
                            if s.base == here || through_local {
                                fx.read |= s.read.is_some();
                                fx.write |= s.write.is_some();
                            }
                        }
                        // a swap group's objects are valid only together
                        fx.covers = !swapped && fx.write && fp.writes_all(here, r, mapped, guarded);
                    }
                    Kind::Seq(_) => {}
                }
                if read_only {
                    fx.write = false;
                    fx.head_write = false;
                }
                let acc = &mut facts[n];
                acc.read |= fx.read;
                acc.write |= fx.write;
                acc.covers |= fx.covers;
                acc.head_read |= fx.head_read;
                acc.head_write |= fx.head_write;
                acc.overwrites |= fx.overwrites;
                acc.write_covers |= fx.write_covers;
            }
        }
        Ok(facts)
    }

    /// ` if(c)` for an update hoisted from node `n` to the `if` statement `at` around it
    /// (the arm holding `n` has no line of its own): the update runs where the arm runs,
    /// when evaluating the condition once more gives the same value; else nothing.
    fn arm_condition(&self, tree: &Tree, at: NodeId, n: NodeId) -> String {
        let Kind::Branch {
            arms,
            pure: Some(c),
            ..
        } = &tree.nodes[at].kind
        else {
            return String::new();
        };
        let Some(arm) = arms.iter().position(|&a| tree.within(n, a)) else {
            return String::new();
        };
        let Some(text) = self.text.get(c.range()) else {
            return String::new();
        };
        if text.contains("//") || text.contains("/*") || text.contains('#') {
            return String::new();
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if arm == 0 {
            format!(" if({text})")
        } else {
            format!(" if(!({text}))")
        }
    }

    /// Host statement `span` writes `b` only by element accesses of one subscript list, each
    /// of which happens whenever the statement runs (not under a condition, not in a loop of
    /// the statement), and no call or other base there may write it: after it, those
    /// elements hold what it wrote.
    fn overwrites(&self, b: BaseId, span: Span, guarded: &[Span], others: &[BaseId]) -> bool {
        let fa = self.fa();
        let inside = |s: Span| s.lo >= span.lo && s.hi <= span.hi;
        if fa
            .calls
            .iter()
            .any(|c| inside(c.span) && (c.unknown_globals.is_some() || !c.effects.is_empty()))
        {
            return false;
        }
        let mut subs = None;
        for a in fa.accesses.iter().filter(|a| inside(a.span)) {
            if a.base != b {
                if a.kind.writes()
                    && !others.contains(&a.base)
                    && self.ua.distinct(self.fi, a.base, b).is_none()
                {
                    return false;
                }
                continue;
            }
            let enclosing = a.loops.iter().all(|l| !inside(fa.loops[l.0 as usize].span));
            if a.kind != ompcc_access::AccessKind::Write
                || !enclosing
                || tree::conditional_within(guarded, span, a.span)
                || a.subscripts.iter().any(|s| s.is_err())
            {
                return false;
            }
            match &subs {
                None => subs = Some(a.subscripts.clone()),
                Some(x) if *x == a.subscripts => {}
                Some(_) => return false,
            }
        }
        subs.is_some()
    }

    /// The outermost statement around node `n` where a directive line may go and that holds
    /// no region touching the base.
    fn hoist(&self, tree: &Tree, n: NodeId, touching: &[NodeId]) -> Result<NodeId, String> {
        let holds_kernel = |m: NodeId| touching.iter().any(|&t| tree.within(t, m));
        // out of loops (fewer transfers) but not out of an `if` (a transfer on every path)
        // unless the code under it has no line of its own
        let mut best = None;
        for m in tree.ancestors(n) {
            if m == tree.root || holds_kernel(m) {
                break;
            }
            if matches!(tree.nodes[m].kind, Kind::Branch { .. }) && best.is_some() && m != n {
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
}

fn item_span(i: &BlockItem) -> Span {
    match i {
        BlockItem::Stmt(s) => s.span,
        BlockItem::Decl(d) => d.span,
        BlockItem::Pragma(p) => p.span,
        BlockItem::LocalLabels(s, _) => *s,
    }
}
