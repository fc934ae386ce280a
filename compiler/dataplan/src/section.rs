//! Sections: what the planner maps of a base (the map clauses' sections, whole arrays, what
//! the analysis proves the regions touch), what host code touches, and their C text.

use ompcc_access::{Atom, BaseId, BaseKind, DimRange, Scope, Section, SymExpr, UnitAccesses};
use ompcc_diag::Span;

use crate::FnPlan;
use crate::tree::Tree;

impl FnPlan<'_, '_> {
    /// The section the range maps. A fixed-size array is mapped whole. A pointer gets the
    /// union of the sections the regions' map clauses name (the user vouches for those
    /// elements) and, when some region uses it without a map clause, of what the analysis
    /// proves that region touches. Every variable in the bounds must hold one value across
    /// the range, where the section is evaluated at entry and at exit.
    pub(crate) fn mapped_section(
        &self,
        b: BaseId,
        tree: &Tree,
        guarded: &[Span],
        range: Span,
        swapped: bool,
    ) -> Result<(Vec<DimRange>, String), String> {
        // the variable names the same memory from the range's start to its end (or, in a
        // swap group, one of the group's objects)
        let base = &self.fa().bases[b.0 as usize];
        if let Some(root) = base.root.filter(|_| !swapped) {
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
                add(bind_scalars(tree, d))?;
            }
            if implicit {
                add(bind_scalars(tree, self.touched_section(b, tree, guarded)?))?;
            }
            acc.ok_or("no region touches it")?
        };
        let fspan = self.fa().span;
        for d in &dims {
            for v in d.lo.vars().into_iter().chain(d.hi.vars()) {
                let info = &self.typed.symbols[v];
                // a spliced callee's section may name its own variables
                if info.storage != ompcc_sema::Storage::Static
                    && (info.span.lo < fspan.lo || info.span.lo >= fspan.hi)
                {
                    return Err(format!(
                        "its section uses '{}', which '{}' cannot name",
                        info.name,
                        self.fa().name
                    ));
                }
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
    pub(crate) fn touched_section(
        &self,
        b: BaseId,
        tree: &Tree,
        guarded: &[Span],
    ) -> Result<Vec<DimRange>, String> {
        let mut sure: Option<Section> = None;
        // the conditional accesses' sections, each with its access (or call) and region
        let mut other: Vec<(Section, Span, usize, Span)> = Vec::new();
        for t in tree.targets() {
            let (fp, Some(b)) = self.frame(tree, t, b) else {
                continue;
            };
            let fa = fp.fa();
            let is_call = |s: Span| fa.calls.iter().any(|c| c.span == s);
            let unsure =
                |s: Span| is_call(s) || guarded.iter().any(|g| s.lo >= g.lo && s.hi <= g.hi);
            let Some(r) = fp.region_at(tree.nodes[t].span) else {
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
                .sections_of(fp.fi, Scope::Region(r), &|s| !unsure(s))
            {
                if s.base == b {
                    add(&mut sure, &s);
                }
            }
            let spans: Vec<Span> = fa
                .accesses
                .iter()
                .map(|a| a.span)
                .chain(fa.calls.iter().map(|c| c.span))
                .filter(|&s| s.lo >= span.lo && s.lo < span.hi && unsure(s))
                .collect();
            for at in spans {
                let only = |s: Span| s == at;
                for s in self.ua.sections_of(fp.fi, Scope::Region(r), &only) {
                    if s.base == b {
                        let mut o = None;
                        add(&mut o, &s);
                        other.extend(o.map(|o| (o, at, fp.fi, span)));
                    }
                }
            }
        }
        if let Some((Err(u), ..)) = other.iter().find(|o| o.0.is_err()) {
            return Err(u.reason.message());
        }
        match &sure {
            Some(Ok(d)) => match other.iter().find(|(g, at, fi, _)| {
                !g.as_ref()
                    .is_ok_and(|g| contains(d, g) || self.ua.contains_when_run(*fi, *at, d, g))
            }) {
                None => Ok(d.clone()),
                Some((.., s)) => Err(format!(
                    "the kernel at line {} touches it under a condition or in a call, and \
                     those elements are not proven to lie in the section it touches otherwise",
                    self.line(*s)
                )),
            },
            Some(Err(u)) => Err(u.reason.message()),
            None if other.is_empty() => Err("no kernel touches it".to_owned()),
            None => Err(format!(
                "the kernel at line {} touches it under a condition or in a call, and those \
                 elements are not proven to lie in the section it touches otherwise",
                self.line(other[0].3)
            )),
        }
    }

    /// The sections the regions' map clauses name for `b` (with the clause's span), and
    /// whether some region of the range touches `b` without naming it.
    #[allow(clippy::type_complexity)]
    pub(crate) fn user_sections(
        &self,
        b: BaseId,
        tree: &Tree,
    ) -> Result<(Vec<(Span, Vec<DimRange>)>, bool), String> {
        let mut out = Vec::new();
        let mut implicit = false;
        for t in tree.targets() {
            let (fp, Some(b)) = self.frame(tree, t, b) else {
                continue;
            };
            let base = &fp.fa().bases[b.0 as usize];
            let Some(root) = base.root else {
                return Err("it has no variable to name it by".to_owned());
            };
            let span = tree.nodes[t].span;
            let touches = fp.region_at(span).is_some_and(|r| {
                self.ua
                    .sections(fp.fi, Scope::Region(r))
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
                let dims = fp.clause_section(b, m.expr).ok_or_else(|| {
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
    pub(crate) fn clause_section(
        &self,
        b: BaseId,
        e: &ompcc_syntax::ast::Expr,
    ) -> Option<Vec<DimRange>> {
        use ompcc_syntax::ast::ExprKind;
        let base = &self.fa().bases[b.0 as usize];
        let mut dims = Vec::new();
        let mut at = e;
        loop {
            match &at.kind {
                ExprKind::Paren(x) => at = x,
                // a strided section (`a[lo:n:s]`) is not one range: no section
                ExprKind::ArraySection {
                    base: inner,
                    lower,
                    length,
                    stride: None,
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

    /// An integer expression of a clause as a symbolic one.
    pub(crate) fn sym_of(&self, e: &ompcc_syntax::ast::Expr) -> Option<SymExpr> {
        ompcc_access::walk::int_sym(self.typed, e)
    }

    /// An array whose elements are `const`.
    pub(crate) fn const_object(&self, b: BaseId) -> bool {
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
    pub(crate) fn whole_array(&self, b: BaseId) -> Option<Vec<DimRange>> {
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
    pub(crate) fn section_text(&self, b: BaseId, dims: &[DimRange], clamp: bool) -> String {
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

    /// The section an update at host statement `node` moves: what the statement touches
    /// (writes only, for `to`), cut to the mapped section when that reads simply (the
    /// runtime moves only the present part of a section anyway), else the mapped section.
    /// `b` is the planned base as this function names it, `mapped` the planned section; at
    /// a spliced callee's statement (`!own`) only what the callee can name is written.
    /// `None`: no section the function can name.
    pub(crate) fn update_text(
        &self,
        b: BaseId,
        mapped: &[DimRange],
        node: Span,
        from: bool,
        own: bool,
    ) -> Option<String> {
        let nameable = |d: &[DimRange]| {
            own || d.iter().all(|r| {
                r.lo.vars()
                    .into_iter()
                    .chain(r.hi.vars())
                    .all(|v| self.typed.symbols[v].storage == ompcc_sema::Storage::Static)
            })
        };
        let whole = || nameable(mapped).then(|| self.section_text(b, mapped, false));
        let Some(host) = self.host_section(b, node, from) else {
            return whole();
        };
        // an update section must be contiguous (gcc and the OpenMP 4.5 rules): every
        // dimension after the first spans what is mapped
        let mut host = host;
        if !nameable(mapped) {
            // the callee's own view of what it touches (every dimension after the first
            // must be whole for an update: leave such sections to the caller)
            return (host.len() == 1).then(|| self.section_text(b, &host, true));
        }
        for (h, m) in host.iter_mut().zip(mapped).skip(1) {
            *h = m.clone();
        }
        let clipped = clip(&host, mapped);
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
        Some(if dims == mapped {
            self.section_text(b, mapped, false)
        } else {
            self.section_text(b, &dims, true)
        })
    }

    /// What host code at `span` touches of `b` (reads and writes, or writes only), when known.
    pub(crate) fn host_section(
        &self,
        b: BaseId,
        span: Span,
        reads_too: bool,
    ) -> Option<Vec<DimRange>> {
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

    /// A region writes every element of `mapped`: one unconditional store (not an update)
    /// whose subscripts each follow one loop variable with coefficient ±1 through loops of
    /// step ±1 with bounds that do not depend on each other, covers it.
    pub(crate) fn writes_all(
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
                || crate::tree::conditional_within(guarded, rspan, a.span)
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
                    vs => {
                        // a linearized box (`a[i * n + j]`): with the coefficients sorted,
                        // each is the product of the trip counts of the loops below it
                        let mut terms = Vec::new();
                        for v in vs {
                            let coef = s
                                .split_linear(&ompcc_access::Atom::Var(*v))
                                .and_then(|(c, _)| c.as_const());
                            let form = forms.iter().find(|c| c.var == *v);
                            let trips = form.and_then(|c| {
                                let len = c.hi.sub(&c.lo)?.add_const(1)?.as_const()?;
                                (len > 0).then_some(len)
                            });
                            let (Some(coef), Some(trips)) = (coef, trips) else {
                                return false;
                            };
                            if used.contains(v) {
                                return false;
                            }
                            used.push(*v);
                            terms.push((coef.abs(), trips));
                        }
                        terms.sort_unstable();
                        let mut expect = 1i64;
                        for (coef, trips) in terms {
                            if coef != expect {
                                return false;
                            }
                            let Some(e) = expect.checked_mul(trips) else {
                                return false;
                            };
                            expect = e;
                        }
                    }
                }
            }
            let one = self
                .ua
                .sections_of(self.fi, Scope::Region(r), &|s| s == a.span);
            one.iter()
                .any(|s| s.base == b && matches!(&s.write, Some(Ok(d)) if contains(d, mapped)))
        })
    }
}

/// The smallest section holding both (per dimension: the lower start, the higher end).
pub(crate) fn hull(a: &[DimRange], b: &[DimRange]) -> Option<Vec<DimRange>> {
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
pub(crate) fn contains(outer: &[DimRange], inner: &[DimRange]) -> bool {
    outer.len() == inner.len()
        && outer.iter().zip(inner).all(|(o, i)| {
            o.lo.smin(&i.lo).as_ref() == Some(&o.lo) && o.hi.smax(&i.hi).as_ref() == Some(&o.hi)
        })
}

/// `host` intersected with `mapped`: what an update may move (the device holds nothing
/// else); `mapped` itself where a bound cannot be formed.
pub(crate) fn clip(host: &[DimRange], mapped: &[DimRange]) -> Vec<DimRange> {
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

/// `dims` with the scalar parameters of spliced callees (see `FrameMap::scalars`) replaced
/// by the planned function's variables they are bound to; a bound that cannot be rewritten
/// stays in the callee's terms, which the planned function then cannot name.
fn bind_scalars(tree: &Tree, mut dims: Vec<DimRange>) -> Vec<DimRange> {
    for &(param, var) in tree.frames.iter().skip(1).flat_map(|m| &m.scalars) {
        let (a, by) = (Atom::Var(param), SymExpr::var(var));
        for d in &mut dims {
            if let (Some(lo), Some(hi)) = (d.lo.subst(&a, &by), d.hi.subst(&a, &by)) {
                d.lo = lo;
                d.hi = hi;
            }
        }
    }
    dims
}
