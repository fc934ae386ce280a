//! Access analysis over the typed AST (DESIGN.md section 11): per function, the loop nests in
//! canonical form, every memory access with its base and affine subscripts, symbolic
//! sections per loop, OpenMP region and function, dependence and alias facts, and
//! interprocedural summaries. Shared by data planning, automatic offload and the coalescing
//! transforms; printed by `ompcc --emit=accesses`.
//!
//! Soundness: every fact is proven or an [`Unknown`] with a typed [`Reason`] and a span;
//! sections are may-sections (they contain every element the code can touch; a length that
//! evaluates to zero or less means nothing is touched). Sections are per base: a consumer
//! must also ask [`UnitAccesses::distinct`] before assuming two bases are different memory,
//! and treat a call's `unknown_globals` as touching every base but non-escaping locals.
//!
//! ```text
//! let ua = ompcc_access::analyze(&tu, &typed);
//! for (fi, f) in ua.functions.iter().enumerate() {
//!     // data planner: what a target region reads and writes, as C at its statement
//!     for r in &f.regions {
//!         for s in ua.sections(fi, Scope::Region(r.id)) {
//!             let name = &f.bases[s.base.0 as usize].name;
//!             let reads = s.read.as_ref().map(|r| ua.section_c(fi, s.base, r)); // "a[0:n]"
//!         }
//!     }
//!     let scalars = ua.scalars_used(fi, Scope::Region(r.id)); // with r.scalars_written
//!     // is a base touched by a host statement range, and which elements
//!     let t = ua.touches(fi, base, range);              // Touch { read, write } or Unknown
//!     let s = ua.sections(fi, Scope::Range(range));     // at the range's first statement
//!     // automatic offload: independent iterations, bases, reductions
//!     let ok = ua.independent(fi, loop_id);             // Ok(()) or the missing fact
//!     let dep = ua.dependence(fi, loop_id, base);       // Independent | MayCarry | Unknown
//!     let bases = ua.loop_bases(fi, loop_id);
//!     let reds = ua.reductions(fi, loop_id);            // scalars and elements, with the op
//!     // coalescing: the stride of an access in a loop variable
//!     let stride = ua.stride(fi, access_index, loop_id); // elements per iteration
//!     // aliasing
//!     let distinct = ua.distinct(fi, a, b);             // Some(why) when proven
//! }
//! let sum = ua.summary(fn_symbol);                       // what a function reads/writes
//! ```
//!
//! Modules: [`sym`] (canonical symbolic expressions), [`model`] (the results), `scan` (the
//! pre-scan of writes and taken addresses), `collect`/`conv`/`exprs` (the walk),
//! `interproc` (call graph, library table, summaries at call sites), `section` (sections,
//! signs), `depend` (the dependence test), `alias`, [`print`](mod@print) (the
//! `--emit=accesses` text).

mod alias;
mod collect;
mod conv;
mod depend;
mod exprs;
mod guards;
mod interproc;
pub mod model;
pub mod print;
mod scan;
mod section;
pub mod sym;
pub mod walk;

use ompcc_diag::Span;
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{ExternalDecl, FunctionDef, TranslationUnit, UnaryOp};
use rustc_hash::{FxHashMap, FxHashSet};

pub use model::*;
pub use sym::{Atom, SymExpr, Term};

use section::Ctx;

/// The analysis of a translation unit.
pub struct UnitAccesses<'u> {
    /// The checked unit the results refer to.
    pub unit: &'u TypedUnit,
    /// One entry per function definition, in source order.
    pub functions: Vec<FunctionAccesses>,
    summaries: FxHashMap<SymbolId, Summary>,
    global_addr_taken: FxHashSet<SymbolId>,
}

/// Whether a statement range touches a base.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Touch {
    /// Some access or call in the range may read it.
    pub read: bool,
    /// Some access or call in the range may write it.
    pub write: bool,
}

/// Analyses every function of `tu` (callees first, so their summaries apply at call sites).
pub fn analyze<'u>(tu: &'u TranslationUnit, unit: &'u TypedUnit) -> UnitAccesses<'u> {
    let global_addr_taken = global_addresses(tu, unit);
    let (order, recursive) = interproc::call_order(tu, unit);
    let mut summaries: FxHashMap<SymbolId, Summary> = FxHashMap::default();
    let mut results: Vec<(usize, FunctionAccesses)> = Vec::new();
    for k in order {
        let ExternalDecl::Function(f) = &tu.items[k] else {
            continue;
        };
        let fa = analyze_function(tu, unit, f, &summaries, &recursive, &global_addr_taken);
        if let Some(s) = fa.symbol
            && !recursive.contains(&s)
        {
            summaries.insert(s, fa.summary.clone());
        }
        results.push((k, fa));
    }
    results.sort_by_key(|(k, _)| *k);
    UnitAccesses {
        unit,
        functions: results.into_iter().map(|(_, f)| f).collect(),
        summaries,
        global_addr_taken,
    }
}

/// Globals whose address is taken anywhere in the unit.
fn global_addresses(tu: &TranslationUnit, unit: &TypedUnit) -> FxHashSet<SymbolId> {
    let mut out = FxHashSet::default();
    let mut visit = |n: walk::Node<'_>| {
        if let walk::Node::Expr(e) = n
            && let ompcc_syntax::ast::ExprKind::Unary(UnaryOp::AddrOf, x) = &e.kind
        {
            let mut x = walk::strip_parens(x);
            while let ompcc_syntax::ast::ExprKind::Member {
                base, arrow: false, ..
            } = &x.kind
            {
                x = walk::strip_parens(base);
            }
            if let Some(&s) = unit.ident_symbols.get(&x.id)
                && unit.symbols[s].storage != ompcc_sema::Storage::Automatic
            {
                out.insert(s);
            }
        }
    };
    for item in &tu.items {
        match item {
            ExternalDecl::Function(f) => walk::block(&f.body, &mut visit),
            ExternalDecl::Decl(d) => walk::decl(d, &mut visit),
            _ => {}
        }
    }
    out
}

fn analyze_function(
    tu: &TranslationUnit,
    unit: &TypedUnit,
    f: &FunctionDef,
    summaries: &FxHashMap<SymbolId, Summary>,
    recursive: &FxHashSet<SymbolId>,
    global_addr_taken: &FxHashSet<SymbolId>,
) -> FunctionAccesses {
    let symbol = unit.decl_symbol(f.declarator.id);
    let name = f
        .declarator
        .name
        .map(|n| tu.symbols.resolve(n.name).to_string())
        .unwrap_or_default();
    let scan = scan::scan(unit, f, summaries, &interproc::is_library);
    let out = FunctionAccesses {
        name,
        symbol,
        span: f.span,
        body: f.body.span,
        params: unit.params(f),
        loops: Vec::new(),
        regions: Vec::new(),
        bases: Vec::new(),
        accesses: Vec::new(),
        calls: Vec::new(),
        summary: Summary::default(),
        env: scan::Env::default(),
        defs: FxHashMap::default(),
    };
    let mut w = collect::Walker::new(tu, unit, scan, summaries, recursive, global_addr_taken, out);
    // parameters are bases from the start, so their provenance knows their index
    w.block(&f.body);
    let mut out = std::mem::replace(
        &mut w.out,
        FunctionAccesses {
            name: String::new(),
            symbol: None,
            span: Span::default(),
            body: Span::default(),
            params: Vec::new(),
            loops: Vec::new(),
            regions: Vec::new(),
            bases: Vec::new(),
            accesses: Vec::new(),
            calls: Vec::new(),
            summary: Summary::default(),
            env: scan::Env::default(),
            defs: FxHashMap::default(),
        },
    );
    out.env = std::mem::take(&mut w.scan.env);
    out.defs = std::mem::take(&mut w.defs);
    let cx = Ctx {
        unit,
        f: &out,
        global_addr_taken,
    };
    let summary = summarize(&cx);
    out.summary = summary;
    out
}

/// The function's summary from its function-level sections.
fn summarize(cx: &Ctx<'_>) -> Summary {
    let f = cx.f;
    let mut sum = Summary {
        param_syms: f.params.clone(),
        params: vec![None; f.params.len()],
        ..Summary::default()
    };
    let mut degrade: Option<Unknown> = None;
    for bs in cx.sections(Scope::Function) {
        let b = &f.bases[bs.base.0 as usize];
        let eff = Effect {
            read: bs.read.clone(),
            write: bs.write.clone(),
            extents: b.extents.clone(),
        };
        match &b.kind {
            BaseKind::Pointer(Provenance::Param(k)) => {
                if let Some(slot) = sum.params.get_mut(*k) {
                    *slot = Some(eff);
                }
            }
            BaseKind::Array { global: true }
            | BaseKind::GlobalScalar
            | BaseKind::Pointer(Provenance::Global) => {
                if let Some(r) = b.root {
                    sum.globals.push((r, eff));
                }
            }
            BaseKind::Array { global: false } | BaseKind::Pointer(Provenance::Alloc { .. }) => {}
            BaseKind::Member => {
                degrade.get_or_insert(Unknown::new(Reason::ThroughMember(b.name.clone()), f.span));
            }
            BaseKind::Pointer(Provenance::Unknown(u)) | BaseKind::Unknown(u) => {
                degrade.get_or_insert(u.clone());
            }
            BaseKind::Pointer(_) => {
                degrade.get_or_insert(Unknown::new(
                    Reason::UntracedPointer(b.name.clone()),
                    f.span,
                ));
            }
        }
    }
    for b in &f.bases {
        if let (BaseKind::Pointer(Provenance::Param(k)), Some(_)) = (&b.kind, &b.escapes) {
            sum.escaping.push(*k);
        }
    }
    for c in &f.calls {
        if let Some(u) = &c.unknown_globals {
            sum.unknown_globals.get_or_insert(u.clone());
        }
    }
    if let Some(u) = degrade {
        sum.unknown_globals.get_or_insert(u.clone());
        for (k, p) in f.params.iter().enumerate() {
            if p.is_some_and(|p| cx.unit.types.is_pointer(cx.unit.symbols[p].ty)) {
                sum.params[k] = Some(Effect {
                    read: Some(Err(u.clone())),
                    write: Some(Err(u.clone())),
                    extents: Vec::new(),
                });
                sum.escaping.push(k);
            }
        }
    }
    sum.escaping.sort_unstable();
    sum.escaping.dedup();
    let mut scalars: Vec<SymbolId> = f
        .env
        .writes
        .keys()
        .copied()
        .filter(|s| {
            let info = &cx.unit.symbols[*s];
            info.storage != ompcc_sema::Storage::Automatic && cx.unit.types.is_scalar(info.ty)
        })
        .collect();
    for (_, set) in &f.env.call_globals {
        if let Some(set) = set {
            scalars.extend(set.iter().copied());
        }
    }
    scalars.sort();
    scalars.dedup();
    sum.scalars_written = scalars;
    sum
}

impl<'u> UnitAccesses<'u> {
    fn ctx(&self, f: usize) -> Ctx<'_> {
        Ctx {
            unit: self.unit,
            f: &self.functions[f],
            global_addr_taken: &self.global_addr_taken,
        }
    }

    /// The index of the function named `name`.
    pub fn function(&self, name: &str) -> Option<usize> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// The summary of a function defined in the unit (none for recursive ones).
    pub fn summary(&self, f: SymbolId) -> Option<&Summary> {
        self.summaries.get(&f)
    }

    /// Sections of every base a loop, region or the whole function touches, as expressions
    /// over the symbols in scope at the scope's statement.
    pub fn sections(&self, f: usize, scope: Scope) -> Vec<BaseSections> {
        self.ctx(f).sections(scope)
    }

    /// [`UnitAccesses::sections`] of only the accesses and calls whose span `keep` accepts
    /// (the data planner separates accesses under a condition from the others).
    pub fn sections_of(
        &self,
        f: usize,
        scope: Scope,
        keep: &dyn Fn(Span) -> bool,
    ) -> Vec<BaseSections> {
        self.ctx(f).sections_of(scope, keep)
    }

    /// Whether `inner` lies within `outer` in every dimension whenever the accesses (or the
    /// call) at `span` run: the ranges of their enclosing canonical loops hold then, and a
    /// loop that runs has `lo <= hi` (`for (i = 0; i < n; i++) .. a[n - 1]` proves
    /// `n - 1 >= 0`). `min`/`max` bounds are compared argument by argument.
    pub fn contains_when_run(
        &self,
        f: usize,
        span: Span,
        outer: &[DimRange],
        inner: &[DimRange],
    ) -> bool {
        let fa = &self.functions[f];
        let loops = fa
            .accesses
            .iter()
            .find(|a| a.span == span)
            .map(|a| a.loops.as_slice())
            .or_else(|| {
                fa.calls
                    .iter()
                    .find(|c| c.span == span)
                    .map(|c| c.loops.as_slice())
            })
            .unwrap_or_default();
        let cx = self.ctx(f);
        let facts = cx.facts(loops);
        outer.len() == inner.len()
            && outer.iter().zip(inner).all(|(o, i)| {
                cx.at_least(&i.lo, &o.lo, &facts, 0) && cx.at_least(&o.hi, &i.hi, &facts, 0)
            })
    }

    /// The union of two sections of one base, per dimension (min of the starts, max of the
    /// ends; exact where the two differ by constants, `min`/`max` terms otherwise).
    pub fn join_sections(a: &Section, b: &Section, span: Span) -> Section {
        section::join(Some(a.clone()), b.clone(), span)
    }

    /// A section as C text: `a[lo:len][lo:len]` (OpenMP array-section syntax), or the
    /// unknown that prevents it.
    pub fn section_c(&self, f: usize, base: BaseId, s: &Section) -> Fact<String> {
        let cx = self.ctx(f);
        let b = &cx.f.bases[base.0 as usize];
        let dims = s.clone()?;
        let mut out = b.name.clone();
        for d in &dims {
            let len = d
                .length()
                .ok_or_else(|| Unknown::new(Reason::Overflow, cx.f.span))?;
            out.push_str(&format!("[{}:{}]", cx.show(&d.lo), cx.show(&len)));
        }
        Ok(out)
    }

    /// Whether the statements in `range` may read or write `base` (directly, through a
    /// callee, or through a base that may alias it); `Err` when a call in the range has an
    /// unknown effect on it.
    pub fn touches(&self, f: usize, base: BaseId, range: Span) -> Fact<Touch> {
        self.touches_except(f, base, range, &[])
    }

    /// [`UnitAccesses::touches`], where accesses through the bases in `disjoint` do not count
    /// even when they may alias `base` (the caller has made sure they do not: the data
    /// planner checks its pointers' sections at run time).
    pub fn touches_except(
        &self,
        f: usize,
        base: BaseId,
        range: Span,
        disjoint: &[BaseId],
    ) -> Fact<Touch> {
        let cx = self.ctx(f);
        let aliases = |other: BaseId| {
            other == base || (!disjoint.contains(&other) && alias::may_alias(&cx, other, base))
        };
        let mut t = Touch::default();
        let inside = |s: Span| s.lo >= range.lo && s.lo < range.hi;
        let global = section::reachable_by_unknown(&cx.f.bases[base.0 as usize]);
        for a in &cx.f.accesses {
            if inside(a.span) && aliases(a.base) {
                t.read |= a.kind.reads();
                t.write |= a.kind.writes();
            }
        }
        for c in &cx.f.calls {
            if !inside(c.span) {
                continue;
            }
            if let Some(u) = &c.unknown_globals
                && global
            {
                return Err(u.clone());
            }
            for e in &c.effects {
                if aliases(e.base) {
                    t.read |= e.kind.reads();
                    t.write |= e.kind.writes();
                }
            }
        }
        Ok(t)
    }

    /// Scalars (arithmetic and pointer variables) declared outside a scope and named in it,
    /// sorted by name: with the scope's `scalars_written`, what a region needs passed in
    /// (read-only ones can be firstprivate).
    pub fn scalars_used(&self, f: usize, scope: Scope) -> Vec<SymbolId> {
        let fa = &self.functions[f];
        let s = self.ctx(f).scope_span(scope);
        let t = &self.unit.types;
        let mut out: Vec<SymbolId> = fa
            .env
            .occurrences
            .iter()
            .filter(|(v, occ)| {
                let info = &self.unit.symbols[**v];
                let decl = info.span.lo;
                (decl < s.lo || decl >= s.hi)
                    && t.is_scalar(info.ty)
                    && occ.iter().any(|(p, _)| *p >= s.lo && *p < s.hi)
            })
            .map(|(v, _)| *v)
            .collect();
        out.sort_by(|a, b| {
            (&self.unit.symbols[*a].name, *a).cmp(&(&self.unit.symbols[*b].name, *b))
        });
        out
    }

    /// The bases a loop touches (directly or through calls).
    pub fn loop_bases(&self, f: usize, l: LoopId) -> Vec<BaseId> {
        let mut out: Vec<BaseId> = self
            .sections(f, Scope::Loop(l))
            .into_iter()
            .map(|s| s.base)
            .collect();
        out.sort();
        out
    }

    /// Does loop `l` carry a dependence on `base`? Proven independent, or not.
    pub fn dependence(&self, f: usize, l: LoopId, base: BaseId) -> Dependence {
        self.ctx(f).dependence(l, base)
    }

    /// Are the iterations of loop `l` independent (automatic offload)? Proven when every
    /// base the loop writes is [`Dependence::Independent`], no call in it has unknown
    /// effects, and every scalar declared outside it that it writes is a reduction (the loop
    /// variables of loops inside it excepted). The first missing fact otherwise.
    pub fn independent(&self, f: usize, l: LoopId) -> Fact<()> {
        let fa = &self.functions[f];
        let lp = &fa.loops[l.0 as usize];
        lp.form.clone()?;
        for c in &fa.calls {
            if c.loops.contains(&l)
                && let Some(u) = &c.unknown_globals
            {
                return Err(u.clone());
            }
        }
        let inner_vars: Vec<SymbolId> = fa
            .loops
            .iter()
            .filter(|x| x.span.lo >= lp.span.lo && x.span.hi <= lp.span.hi)
            .filter_map(|x| x.form.as_ref().ok().map(|c| c.var))
            .collect();
        for s in self.sections(f, Scope::Loop(l)) {
            let b = &fa.bases[s.base.0 as usize];
            // a global counter of the loop or of a loop inside it is the loops' own business
            let counter =
                b.kind == BaseKind::GlobalScalar && b.root.is_some_and(|r| inner_vars.contains(&r));
            if s.write.is_none() || counter {
                continue;
            }
            match self.dependence(f, l, s.base) {
                Dependence::Independent => {}
                Dependence::Unknown(u) => return Err(u),
                Dependence::MayCarry { second, .. } => {
                    let name = fa.bases[s.base.0 as usize].name.clone();
                    return Err(Unknown::new(Reason::DependenceCarried(name), second));
                }
            }
        }
        let reductions = self.reductions(f, l);
        for &v in &lp.scalars_written {
            if !inner_vars.contains(&v)
                && !reductions
                    .iter()
                    .any(|r| r.target == ReductionTarget::Scalar(v))
            {
                return Err(Unknown::new(
                    Reason::ScalarCarried(self.unit.symbols[v].name.clone()),
                    lp.span,
                ));
            }
        }
        Ok(())
    }

    /// The scalar reductions of a loop: scalars declared outside it whose every occurrence
    /// in it is an update `s op= e` / `s = s op e` with one operator.
    pub fn reductions(&self, f: usize, l: LoopId) -> Vec<Reduction> {
        let fa = &self.functions[f];
        let lp = &fa.loops[l.0 as usize];
        let mut out = Vec::new();
        for &v in &lp.scalars_written {
            let Some(occ) = fa.env.occurrences.get(&v) else {
                continue;
            };
            let inside: Vec<_> = occ
                .iter()
                .filter(|(p, _)| *p >= lp.span.lo && *p < lp.span.hi)
                .collect();
            let op = inside.first().and_then(|(_, o)| *o);
            if let Some(op) = op
                && inside.iter().all(|(_, o)| *o == Some(op))
                && !fa.env.addr_taken.contains(&v)
            {
                out.push(Reduction {
                    target: ReductionTarget::Scalar(v),
                    op,
                });
            }
        }
        out.extend(self.element_reductions(f, l));
        out
    }

    /// Elements updated by one operator with subscripts invariant in the loop, whose base
    /// (and every base that may alias it) the loop touches nowhere else, calls included.
    fn element_reductions(&self, f: usize, l: LoopId) -> Vec<Reduction> {
        let fa = &self.functions[f];
        let cx = self.ctx(f);
        let lp = &fa.loops[l.0 as usize];
        let inner_vars: Vec<SymbolId> = fa
            .loops
            .iter()
            .filter(|x| x.span.lo >= lp.span.lo && x.span.hi <= lp.span.hi)
            .filter_map(|x| x.form.as_ref().ok().map(|c| c.var))
            .collect();
        let in_loop: Vec<(usize, &Access)> = fa
            .accesses
            .iter()
            .enumerate()
            .filter(|(_, a)| a.loops.contains(&l))
            .collect();
        let mut out = Vec::new();
        for &(ai, a) in &in_loop {
            let Some(op) = a.update else { continue };
            let Ok(subs) = a.subscripts.iter().cloned().collect::<Fact<Vec<SymExpr>>>() else {
                continue;
            };
            if subs.is_empty()
                || subs
                    .iter()
                    .any(|x| x.vars().iter().any(|v| inner_vars.contains(v)))
            {
                continue;
            }
            if cx
                .base_stable(a.base, lp.span, Scope::Loop(l), lp.span)
                .is_err()
            {
                continue;
            }
            let alone = in_loop.iter().all(|(k, b)| {
                *k == ai
                    || (b.base != a.base && !alias::may_alias(&cx, b.base, a.base))
                    || (b.base == a.base && b.update == Some(op) && b.subscripts == a.subscripts)
            });
            let no_calls = fa.calls.iter().filter(|c| c.loops.contains(&l)).all(|c| {
                c.unknown_globals.is_none()
                    && c.effects
                        .iter()
                        .all(|e| !alias::may_alias(&cx, e.base, a.base))
            });
            let first = in_loop
                .iter()
                .find(|(_, b)| b.base == a.base)
                .is_some_and(|(k, _)| *k == ai);
            if alone && no_calls && first {
                out.push(Reduction {
                    target: ReductionTarget::Element {
                        base: a.base,
                        access: ai,
                    },
                    op,
                });
            }
        }
        out
    }

    /// The stride of an access in the variable of loop `l`, per dimension (the coefficient
    /// of the variable in each subscript).
    pub fn strides(&self, f: usize, access: usize, l: LoopId) -> Fact<Vec<SymExpr>> {
        let fa = &self.functions[f];
        let a = &fa.accesses[access];
        let lp = &fa.loops[l.0 as usize];
        let canon = lp.form.clone()?;
        let v = Atom::Var(canon.var);
        a.subscripts
            .iter()
            .map(|s| {
                let s = s.clone()?;
                let (x, _) = s.split_linear(&v).ok_or_else(|| {
                    Unknown::new(
                        Reason::NonLinearInLoopVar(self.unit.symbols[canon.var].name.clone()),
                        a.span,
                    )
                })?;
                x.scale(canon.step)
                    .ok_or_else(|| Unknown::new(Reason::Overflow, a.span))
            })
            .collect()
    }

    /// The stride in elements of the flattened base between consecutive iterations of `l`
    /// (row-major, using the base's extents).
    pub fn stride(&self, f: usize, access: usize, l: LoopId) -> Fact<SymExpr> {
        let fa = &self.functions[f];
        let a = &fa.accesses[access];
        let b = &fa.bases[a.base.0 as usize];
        let per_dim = self.strides(f, access, l)?;
        let ovf = || Unknown::new(Reason::Overflow, a.span);
        let mut total = SymExpr::int(0);
        for (d, s) in per_dim.iter().enumerate() {
            let mut term = s.clone();
            if !term.is_zero() {
                for ext in &b.extents[d.min(b.extents.len())..] {
                    term = term.mul(&ext.clone()?).ok_or_else(ovf)?;
                }
            }
            total = total.add(&term).ok_or_else(ovf)?;
        }
        Ok(total)
    }

    /// Why two bases of a function are distinct, or `None` when they may alias.
    pub fn distinct(&self, f: usize, a: BaseId, b: BaseId) -> Option<&'static str> {
        alias::distinct(&self.ctx(f), a, b)
    }

    /// The base of function `f` that is variable `v` itself: its array, or the pointer
    /// variable (not a member reached from it). `None` when `f` makes no such access.
    pub fn base_of_var(&self, f: usize, v: SymbolId) -> Option<BaseId> {
        self.functions[f]
            .bases
            .iter()
            .find(|b| {
                b.root == Some(v)
                    && matches!(
                        b.kind,
                        BaseKind::Array { .. } | BaseKind::Pointer(_) | BaseKind::GlobalScalar
                    )
            })
            .map(|b| b.id)
    }

    /// Why the whole storage of variable `v` (an object of function `f`'s scope: a local,
    /// a parameter or a global) and the memory base `b` reaches are disjoint, or `None` when
    /// not proven: `v`'s own base against `b` (`distinct`); a fresh allocation or a
    /// `restrict` pointer `b`; a scalar local or parameter of `f` whose address `f` never
    /// takes (then no pointer can reach it).
    pub fn var_distinct(&self, f: usize, v: SymbolId, b: BaseId) -> Option<&'static str> {
        let fa = &self.functions[f];
        let base = &fa.bases[b.0 as usize];
        if let Some(vb) = self.base_of_var(f, v) {
            if vb == b {
                return None;
            }
            if let Some(why) = self.distinct(f, vb, b) {
                return Some(why);
            }
        }
        if matches!(base.kind, BaseKind::Pointer(Provenance::Alloc { .. })) {
            return Some("allocation and variable");
        }
        if base.restrict && base.root != Some(v) {
            return Some("restrict");
        }
        let info = &self.unit.symbols[v];
        if info.storage == ompcc_sema::Storage::Automatic
            && self.unit.types.is_scalar(info.ty)
            && !fa.env.addr_taken.contains(&v)
        {
            return Some("a variable whose address is never taken");
        }
        None
    }

    /// Whether an access of function `f` within `span` writes base `b` (calls not counted).
    pub fn writes_within(&self, f: usize, b: BaseId, span: Span) -> bool {
        self.functions[f].accesses.iter().any(|a| {
            a.base == b
                && a.kind != AccessKind::Read
                && a.span.lo >= span.lo
                && a.span.hi <= span.hi
        })
    }

    /// Whether variable `v` holds one value throughout `span` of function `f`: declared
    /// before it, its address never taken, and neither the span nor a call in it writes it
    /// (the data planner evaluates sections at the start of a range and uses them at its end).
    pub fn invariant(&self, f: usize, v: SymbolId, span: Span) -> Fact<()> {
        let info = &self.unit.symbols[v];
        if info.span.lo >= span.lo {
            return Err(Unknown::new(Reason::NotInScope(info.name.clone()), span));
        }
        self.ctx(f)
            .var_ok(v, span)
            .map_err(|r| Unknown::new(r, span))
    }

    /// C text of a symbolic expression.
    pub fn expr_c(&self, e: &SymExpr) -> String {
        e.to_c(&|s| self.unit.symbols[s].name.clone())
    }
}
