//! Symbolic sections: the range of each base's elements a scope may touch.
//!
//! For every access (its subscripts as one-point ranges) and call effect (a range per
//! dimension) inside the scope, the variables of the loops between it and the scope are
//! eliminated innermost first: the smallest lower end puts the variable at the end of its
//! range that minimizes the expression (the expression must be monotone in it, which needs
//! the sign of its coefficient), the largest upper end at the other. What is left must be
//! expressible at the scope's program point: every variable declared outside the scope and
//! written nowhere in it (a single-definition local inside it is replaced by its
//! definition). The sections of a base are then joined with `min`/`max` per dimension.
//!
//! Signs come from [`Facts`]: the ranges of the loops around the access (it runs only when
//! they iterate, so `for (j = 0; j < n; j++)` proves `n >= 1` there) and unsigned types.

use ompcc_diag::Span;
use ompcc_sema::{SymbolId, TypedUnit};
use rustc_hash::FxHashSet;

use crate::model::*;
use crate::sym::{Atom, SymExpr};

/// What a query needs besides the function's own results.
pub(crate) struct Ctx<'x> {
    pub unit: &'x TypedUnit,
    pub f: &'x FunctionAccesses,
    pub global_addr_taken: &'x FxHashSet<SymbolId>,
}

/// Ranges of loop variables (and their primed copies) around an access.
#[derive(Clone, Default)]
pub(crate) struct Facts {
    pub ranges: Vec<(Atom, SymExpr, SymExpr)>,
}

/// One contributor to sections: an access or a call effect.
pub(crate) struct Contrib<'x> {
    pub base: BaseId,
    pub kind: AccessKind,
    pub dims: Fact<Vec<DimRange>>,
    pub loops: &'x [LoopId],
    pub span: Span,
    /// Bounds on loop variables where it happens.
    pub guards: &'x [Guard],
}

impl<'x> Ctx<'x> {
    pub fn name(&self, s: SymbolId) -> String {
        self.unit.symbols[s].name.clone()
    }

    pub fn show(&self, e: &SymExpr) -> String {
        e.to_c(&|s| self.name(s))
    }

    /// The span of a scope's statement (the body for the function).
    pub fn scope_span(&self, s: Scope) -> Span {
        match s {
            Scope::Loop(l) => self.f.loops[l.0 as usize].span,
            Scope::Region(r) => self.f.regions[r.0 as usize].span,
            Scope::Function => self.f.body,
            Scope::Range(s) => s,
        }
    }

    /// Every access and call effect that starts in `within`, in source order.
    pub fn contributors(&self, within: Span) -> Vec<Contrib<'x>> {
        let inside = |s: Span| s.lo >= within.lo && s.lo < within.hi;
        let mut out = Vec::new();
        for a in self.f.accesses.iter().filter(|a| inside(a.span)) {
            let dims = a
                .subscripts
                .iter()
                .map(|s| {
                    s.clone().map(|x| DimRange {
                        lo: x.clone(),
                        hi: x,
                    })
                })
                .collect();
            out.push(Contrib {
                base: a.base,
                kind: a.kind,
                dims,
                loops: &a.loops,
                span: a.span,
                guards: &a.guards,
            });
        }
        for c in self.f.calls.iter().filter(|c| inside(c.span)) {
            for e in &c.effects {
                out.push(Contrib {
                    base: e.base,
                    kind: e.kind,
                    dims: e.section.clone(),
                    loops: &c.loops,
                    span: c.span,
                    guards: &[],
                });
            }
            if let Some(u) = &c.unknown_globals {
                for b in &self.f.bases {
                    if reachable_by_unknown(b) {
                        out.push(Contrib {
                            base: b.id,
                            kind: AccessKind::ReadWrite,
                            dims: Err(u.clone()),
                            loops: &c.loops,
                            span: c.span,
                            guards: &[],
                        });
                    }
                }
            }
        }
        out.sort_by_key(|c| c.span.lo);
        out
    }

    /// The ranges of the canonical loops in `loops`.
    pub fn facts(&self, loops: &[LoopId]) -> Facts {
        let mut f = Facts::default();
        for l in loops {
            if let Ok(c) = &self.f.loops[l.0 as usize].form {
                f.ranges
                    .push((Atom::Var(c.var), c.lo.clone(), c.hi.clone()));
            }
        }
        f
    }

    /// A constant lower bound of `e`, if one follows from the facts.
    pub fn lowbound(&self, e: &SymExpr, facts: &Facts, depth: u32) -> Option<i64> {
        if depth > 6 {
            return None;
        }
        let mut sum: i64 = 0;
        for t in e.terms() {
            if t.atoms.is_empty() {
                sum = sum.checked_add(t.coef)?;
                continue;
            }
            if t.coef < 0 {
                return None;
            }
            let mut prod: i64 = t.coef;
            for a in &t.atoms {
                let lb = self.atom_lowbound(a, facts, depth)?;
                if lb < 0 {
                    return None;
                }
                prod = prod.checked_mul(lb)?;
            }
            sum = sum.checked_add(prod)?;
        }
        Some(sum)
    }

    fn atom_lowbound(&self, a: &Atom, facts: &Facts, depth: u32) -> Option<i64> {
        match a {
            Atom::Var(v) | Atom::Prime(v) => {
                let mut best: Option<i64> = None;
                let mut take = |x: Option<i64>| {
                    if let Some(x) = x {
                        best = Some(best.map_or(x, |b| b.max(x)));
                    }
                };
                let t = &self.unit.types;
                if matches!(a, Atom::Var(_))
                    && t.int_kind(self.unit.symbols[*v].ty)
                        .is_some_and(|k| !k.is_signed())
                {
                    take(Some(0));
                }
                let me = SymExpr::atom(a.clone());
                for (x, lo, hi) in &facts.ranges {
                    if x == a {
                        take(self.lowbound(lo, facts, depth + 1));
                    }
                    // hi = a + c and lo <= hi: a >= lo - c
                    if let Some(c) = hi.sub(&me).and_then(|d| d.as_const())
                        && !lo.mentions(a)
                    {
                        take(
                            self.lowbound(lo, facts, depth + 1)
                                .and_then(|l| l.checked_sub(c)),
                        );
                    }
                }
                best
            }
            Atom::Div(e, c) => self
                .lowbound(e, facts, depth + 1)
                .filter(|&l| l >= 0)
                .map(|l| l / c),
            Atom::Min(args) => args
                .iter()
                .map(|e| self.lowbound(e, facts, depth + 1))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .min(),
            Atom::Max(args) => args
                .iter()
                .filter_map(|e| self.lowbound(e, facts, depth + 1))
                .max(),
        }
    }

    /// Whether `x >= y` follows from the facts, looking into `min`/`max` on either side.
    pub fn at_least(&self, x: &SymExpr, y: &SymExpr, facts: &Facts, depth: u32) -> bool {
        if x.sub(y).is_some_and(|d| self.sign(&d, facts) > 0) {
            return true;
        }
        if depth > 4 {
            return false;
        }
        let lone = |e: &SymExpr| match e.terms() {
            [t] if t.coef == 1 && t.atoms.len() == 1 => Some(t.atoms[0].clone()),
            _ => None,
        };
        let next = depth + 1;
        match (lone(x), lone(y)) {
            (_, Some(Atom::Max(args))) => args.iter().all(|a| self.at_least(x, a, facts, next)),
            (Some(Atom::Min(args)), _) => args.iter().all(|a| self.at_least(a, y, facts, next)),
            (_, Some(Atom::Min(args))) => args.iter().any(|a| self.at_least(x, a, facts, next)),
            (Some(Atom::Max(args)), _) => args.iter().any(|a| self.at_least(a, y, facts, next)),
            _ => false,
        }
    }

    /// +1 when `e` is provably non-negative, -1 when non-positive, else 0.
    pub fn sign(&self, e: &SymExpr, facts: &Facts) -> i8 {
        if self.lowbound(e, facts, 0).is_some_and(|l| l >= 0) {
            1
        } else if e
            .neg()
            .and_then(|n| self.lowbound(&n, facts, 0))
            .is_some_and(|l| l >= 0)
        {
            -1
        } else {
            0
        }
    }

    /// +1 if `e` is non-decreasing in `v`, -1 if non-increasing, 0 if it does not mention
    /// it; `None` when unknown.
    fn direction(&self, e: &SymExpr, v: &Atom, facts: &Facts) -> Option<i8> {
        let mut acc = 0i8;
        for t in e.terms() {
            let holders: Vec<&Atom> = t.atoms.iter().filter(|a| atom_has(a, v)).collect();
            if holders.is_empty() {
                continue;
            }
            if holders.len() > 1 {
                return None;
            }
            let mut others = SymExpr::int(t.coef);
            let mut skipped = false;
            for a in &t.atoms {
                if !skipped && atom_has(a, v) {
                    skipped = true;
                    continue;
                }
                others = others.mul(&SymExpr::atom(a.clone()))?;
            }
            let s = self.sign(&others, facts);
            if s == 0 {
                return None;
            }
            let d = match holders[0] {
                x if x == v => 1,
                Atom::Div(inner, _) => self.direction(inner, v, facts)?,
                Atom::Min(args) | Atom::Max(args) => {
                    let mut dd = 0i8;
                    for x in args {
                        let k = self.direction(x, v, facts)?;
                        if k != 0 {
                            if dd != 0 && k != dd {
                                return None;
                            }
                            dd = k;
                        }
                    }
                    dd
                }
                _ => return None,
            };
            let d = d * s;
            if d != 0 {
                if acc != 0 && acc != d {
                    return None;
                }
                acc = d;
            }
        }
        Some(acc)
    }

    /// The smallest (`min`) or largest value of `e` over `v` in `lo..=hi`.
    pub fn eliminate(
        &self,
        e: &SymExpr,
        v: &Atom,
        (lo, hi): (&SymExpr, &SymExpr),
        facts: &Facts,
        min: bool,
        span: Span,
    ) -> Fact<SymExpr> {
        let dir = self.direction(e, v, facts).ok_or_else(|| {
            let reason = match e.split_linear(v) {
                Some((x, _)) => Reason::UnknownSign(self.show(&x)),
                None => Reason::NonLinearInLoopVar(match v {
                    Atom::Var(s) | Atom::Prime(s) => self.name(*s),
                    _ => "?".into(),
                }),
            };
            Unknown::new(reason, span)
        })?;
        let at = match (dir >= 0, min) {
            (true, true) | (false, false) => lo,
            _ => hi,
        };
        if dir == 0 {
            return Ok(e.clone());
        }
        e.subst(v, at)
            .ok_or_else(|| Unknown::new(Reason::Overflow, span))
    }

    /// `e` at the program point of a scope spanning `s`, or why it is not expressible.
    pub fn at_point(&self, e: &SymExpr, s: Span, span: Span) -> Fact<SymExpr> {
        let mut e = e.clone();
        for _ in 0..8 {
            let mut bad = None;
            for v in e.vars() {
                if let Err(r) = self.var_ok(v, s) {
                    bad = Some((v, r));
                    break;
                }
            }
            let Some((v, r)) = bad else { return Ok(e) };
            match self.f.defs.get(&v) {
                Some(def) => {
                    e = e
                        .subst(&Atom::Var(v), def)
                        .ok_or_else(|| Unknown::new(Reason::Overflow, span))?;
                }
                None => return Err(Unknown::new(r, span)),
            }
        }
        Err(Unknown::new(
            Reason::NonAffine("too many substitutions"),
            span,
        ))
    }

    pub(crate) fn var_ok(&self, v: SymbolId, s: Span) -> Result<(), Reason> {
        let info = &self.unit.symbols[v];
        let env = &self.f.env;
        if env.addr_taken.contains(&v) || self.global_addr_taken.contains(&v) {
            return Err(Reason::AddressTaken(info.name.clone()));
        }
        if info.span.lo >= s.lo && info.span.lo < s.hi {
            return Err(Reason::NotInScope(info.name.clone()));
        }
        let global = info.storage != ompcc_sema::Storage::Automatic;
        let reachable =
            info.linkage == ompcc_sema::Linkage::External || self.global_addr_taken.contains(&v);
        let changes = if reachable {
            let class = crate::scan::AliasClass::of(self.unit, info.ty);
            env.global_may_change(v, class, s.lo, s.hi)
        } else {
            env.call_writes_in(v, s.lo, s.hi)
        };
        if env.written_in(v, s.lo, s.hi) || (global && changes) {
            return Err(Reason::WrittenInScope(info.name.clone()));
        }
        Ok(())
    }

    /// The ranges of one contributor with the variables of the loops inside `s` eliminated,
    /// expressed at the point of `s`.
    pub fn hoist(&self, c: &Contrib<'_>, s: Span) -> Section {
        let dims = c.dims.clone()?;
        let facts = self.facts(c.loops);
        let inner: Vec<&Loop> = c
            .loops
            .iter()
            .map(|l| &self.f.loops[l.0 as usize])
            .filter(|l| l.span.lo >= s.lo && l.span.hi <= s.hi)
            .collect();
        let mut out = Vec::with_capacity(dims.len());
        for d in dims {
            let (mut lo, mut hi) = (d.lo, d.hi);
            for l in inner.iter().rev() {
                let canon = match &l.form {
                    Ok(c) => c,
                    // a non-canonical loop writes no variable of the subscripts (they
                    // would be unknown already): nothing to eliminate
                    Err(_) => continue,
                };
                let v = Atom::Var(canon.var);
                // the conditions around the access narrow the variable's range
                let (mut from, mut to) = (canon.lo.clone(), canon.hi.clone());
                for g in c.guards.iter().filter(|g| g.var == canon.var) {
                    if let Some(b) = g.lo.as_ref().and_then(|b| from.smax(b)) {
                        from = b;
                    }
                    if let Some(b) = g.hi.as_ref().and_then(|b| to.smin(b)) {
                        to = b;
                    }
                }
                let r = (&from, &to);
                lo = self.eliminate(&lo, &v, r, &facts, true, c.span)?;
                hi = self.eliminate(&hi, &v, r, &facts, false, c.span)?;
            }
            out.push(DimRange {
                lo: self.at_point(&lo, s, c.span)?,
                hi: self.at_point(&hi, s, c.span)?,
            });
        }
        Ok(out)
    }

    /// The sections of every base the scope touches.
    pub fn sections(&self, scope: Scope) -> Vec<BaseSections> {
        self.sections_of(scope, &|_| true)
    }

    /// [`Ctx::sections`] of the accesses and calls whose span `keep` accepts.
    pub fn sections_of(&self, scope: Scope, keep: &dyn Fn(Span) -> bool) -> Vec<BaseSections> {
        let s = self.scope_span(scope);
        let mut out: Vec<BaseSections> = Vec::new();
        for c in self.contributors(s).into_iter().filter(|c| keep(c.span)) {
            if let Scope::Loop(l) = scope
                && !c.loops.contains(&l)
            {
                continue;
            }
            let sec = self
                .base_stable(c.base, s, scope, c.span)
                .and_then(|()| self.hoist(&c, s));
            let k = match out.iter().position(|b| b.base == c.base) {
                Some(k) => k,
                None => {
                    out.push(BaseSections {
                        base: c.base,
                        read: None,
                        write: None,
                    });
                    out.len() - 1
                }
            };
            let entry = &mut out[k];
            if c.kind.reads() {
                entry.read = Some(join(entry.read.take(), sec.clone(), c.span));
            }
            if c.kind.writes() {
                entry.write = Some(join(entry.write.take(), sec, c.span));
            }
        }
        out.sort_by_key(|b| b.base);
        out
    }
}

impl Ctx<'_> {
    /// A pointer base names the same memory throughout the scope: its variable (or the
    /// member's root, or the member itself) is not assigned in it. A single-definition
    /// allocation is stable at the function level.
    pub(crate) fn base_stable(
        &self,
        b: BaseId,
        s: Span,
        scope: Scope,
        span: Span,
    ) -> Result<(), Unknown> {
        let base = &self.f.bases[b.0 as usize];
        let env = &self.f.env;
        let Some(root) = base.root else { return Ok(()) };
        let reassigned = || {
            Err(Unknown::new(
                Reason::PointerReassigned(base.name.clone()),
                span,
            ))
        };
        match &base.kind {
            BaseKind::Pointer(Provenance::Alloc { .. }) if scope == Scope::Function => Ok(()),
            BaseKind::Pointer(_) => {
                if env.addr_taken.contains(&root) || self.global_addr_taken.contains(&root) {
                    return Err(Unknown::new(Reason::AddressTaken(base.name.clone()), span));
                }
                if env.written_in(root, s.lo, s.hi) {
                    return reassigned();
                }
                if self.unit.symbols[root].storage != ompcc_sema::Storage::Automatic
                    && self.var_ok(root, s).is_err()
                {
                    return reassigned();
                }
                Ok(())
            }
            BaseKind::Member => {
                if env.written_in(root, s.lo, s.hi) {
                    return reassigned();
                }
                let last = base.name.rsplit(['.', '>']).next().unwrap_or("");
                let stored = self.f.accesses.iter().any(|a| {
                    a.span.lo >= s.lo
                        && a.span.lo < s.hi
                        && a.kind.writes()
                        && a.field
                            .as_deref()
                            .is_some_and(|f| f.rsplit(['.', '>']).next() == Some(last))
                });
                let called = self.f.calls.iter().any(|c| {
                    c.span.lo >= s.lo
                        && c.span.lo < s.hi
                        && (c.unknown_globals.is_some()
                            || c.effects.iter().any(|e| {
                                e.kind.writes()
                                    && self.f.bases[e.base.0 as usize].root == Some(root)
                            }))
                });
                if stored || called {
                    return reassigned();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn atom_has(a: &Atom, v: &Atom) -> bool {
    match a {
        Atom::Var(_) | Atom::Prime(_) => a == v,
        Atom::Div(e, _) => e.mentions(v),
        Atom::Min(args) | Atom::Max(args) => args.iter().any(|e| e.mentions(v)),
    }
}

/// The union of two sections, per dimension.
pub(crate) fn join(a: Option<Section>, b: Section, span: Span) -> Section {
    let Some(a) = a else { return b };
    let (a, b) = (a?, b?);
    if a.len() != b.len() {
        return Err(Unknown::new(Reason::ShapeMismatch, span));
    }
    let ovf = || Unknown::new(Reason::Overflow, span);
    a.iter()
        .zip(&b)
        .map(|(x, y)| {
            Ok(DimRange {
                lo: x.lo.smin(&y.lo).ok_or_else(ovf)?,
                hi: x.hi.smax(&y.hi).ok_or_else(ovf)?,
            })
        })
        .collect()
}

/// True for bases that code this function cannot see may reach: everything but the local
/// arrays and allocations whose address never escapes (a caller may have stored a
/// parameter's value in a global that unknown code reads).
pub(crate) fn reachable_by_unknown(b: &Base) -> bool {
    let local = matches!(
        b.kind,
        BaseKind::Array { global: false } | BaseKind::Pointer(Provenance::Alloc { .. })
    );
    !local || b.escapes.is_some()
}
