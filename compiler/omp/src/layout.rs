//! Private array layout (issue 16 item 5, Wang et al.'s index reordering, OpenMPC's
//! transposed private arrays): a device-only work array that each thread indexes in its own
//! row (`work[t*K + k]`, `t` the distributed loop's variable) puts consecutive threads `K`
//! elements apart, so a warp's 32 accesses touch up to 32 sectors. Laid out thread-minor
//! (`work[k*R + t]`, `R` the distributed loop's trip count) they touch adjacent elements.
//!
//! The new layout is a permutation of the array's first `R*K` elements, applied to every
//! access of the region, so the region sees the values it wrote where it reads them. It is
//! legal when nothing outside the region sees the array's contents, and when every access
//! is one of the permuted elements. The facts, each proven or the transform not done (a
//! `-Rpass-missed=coalesce` remark names the first missing one):
//! - the array is a pointer variable of the function defined once from an allocation call
//!   (`malloc`, ...), whose value does not escape (no other function can map or read it);
//! - the region maps it `map(alloc: work[0:L])` (not copied in or out) and no data construct
//!   of the function names it (so its device copy is allocated at the region's start and
//!   freed at its end: nothing else ever reads the device copy);
//! - every use of `work` in the region is a subscript `work[e]` (no pointer arithmetic, no
//!   call, no copy of the pointer), and every other base the region touches is proven
//!   distinct from it;
//! - the distributed loop runs `t` from 0 by 1 while `t < R`, without `collapse`;
//! - every subscript is `K*t + rest` with the same constant `K >= 2`, `rest` free of `t` and
//!   proven within `[0, K)` over the loops around the access;
//! - `L` equals `R*K`.
//!
//! A pointer to rows of a constant length `K` (`float (*work)[K]`), accessed `work[t][k]`
//! and mapped `work[0:R]`, is the same array seen in two dimensions.
//!
//! The grid mapping must keep the nest as written (no swap, no cooperative loop, no
//! automatic collapse), so the threads take `t` one iteration each.
//!
//! Lowering then computes `work[(e % K)*R + e / K]` for each listed subscript (`e >= 0`:
//! `e / K` is `t` and `e % K` is `rest`).

use ompcc_access::{Atom, BaseKind, DimRange, LoopId, Provenance, SymExpr};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{BinaryOp, Expr, ExprKind, MapType, Stmt, StmtKind, UnaryOp};

use crate::grid::Cx;
use crate::plan::{DataConstruct, PrivateLayout, TargetRegion};

/// Every use of an array fits the layout: its row length, the rows (the distributed loop's
/// bound as written, and symbolic), the subscripts to rewrite, and whether they are
/// `work[t][k]` (a pointer to rows) rather than `work[K*t + k]`.
struct Fit<'a> {
    row: i64,
    rows: &'a Expr,
    accesses: Vec<ompcc_syntax::ast::ExprId>,
    rows_sym: SymExpr,
    two_d: bool,
}

/// One decision about one array: the layout, or a missed remark.
pub(crate) enum LayoutDecision<'a> {
    Done(PrivateLayout<'a>, String),
    Missed(String),
}

impl<'a> Cx<'_, 'a> {
    /// The private layouts of region `r`'s work arrays (see the module header), with a
    /// remark per array considered: a `map(alloc:)` array indexed thread-major, or one whose
    /// subscripts fit but that is copied to or from the host.
    pub(crate) fn decide_layouts(
        &self,
        r: &TargetRegion<'a>,
        data: &[DataConstruct<'a>],
    ) -> Vec<LayoutDecision<'a>> {
        let mut out = Vec::new();
        let Some(ln) = r.loop_nest else {
            return out;
        };
        if ln.collapse != 1 {
            return out;
        }
        // the threads must take the directive's loop as written, one iteration per thread
        if r.grid.is_some() {
            return out;
        }
        let Some(tl) = self.loop_id(ln.outer) else {
            return out;
        };
        let f = &self.ua.functions[self.fi];
        let Ok(canon) = &f.loops[tl.0 as usize].form else {
            return out;
        };
        let t = canon.var;
        // bases indexed thread-major in the loop: a constant stride of 2 or more in `t`
        let mut cands: Vec<ompcc_access::BaseId> = Vec::new();
        for (k, a) in f.accesses.iter().enumerate() {
            if !a.loops.contains(&tl) || cands.contains(&a.base) {
                continue;
            }
            let major = self
                .ua
                .stride(self.fi, k, tl)
                .ok()
                .and_then(|s| s.as_const())
                .is_some_and(|c| c.abs() >= 2);
            if major {
                cands.push(a.base);
            }
        }
        for b in cands {
            let base = &f.bases[b.0 as usize];
            let Some(sym) = base.root else { continue };
            let map = r
                .params
                .iter()
                .find(|p| p.sym == sym)
                .and_then(|p| p.map.as_ref())
                .filter(|m| !m.implicit);
            let alloc = map.is_some_and(|m| m.map_type == MapType::Alloc);
            let name = &base.name;
            let fits = self.layout_fits(r, ln.outer, tl, t, b);
            let Fit {
                row,
                rows,
                accesses,
                rows_sym,
                two_d,
            } = match fits {
                Ok(x) => x,
                Err(why) => {
                    if alloc {
                        out.push(LayoutDecision::Missed(format!(
                            "'{name}' is indexed thread-major, but it was not laid out thread-minor: {why}"
                        )));
                    }
                    continue;
                }
            };
            let missed = |why: String| {
                LayoutDecision::Missed(format!(
                    "'{name}' is indexed thread-major ({row} elements per '{}'), but it was not laid out thread-minor: {why}",
                    self.ua.unit.symbols[t].name
                ))
            };
            let Some(map) = map else {
                out.push(missed(format!("'{name}' has no map clause on the region")));
                continue;
            };
            if map.map_type != MapType::Alloc {
                out.push(missed(format!(
                    "'{name}' is copied to or from the host (map({})), which would see the new layout",
                    crate::mapper::map_type_word(map.map_type)
                )));
                continue;
            }
            let length = if two_d { 1 } else { row };
            if let Err(why) = self.device_only(r, data, b, sym, map.expr, length, &rows_sym) {
                out.push(missed(why));
                continue;
            }
            let tn = self.ua.unit.symbols[t].name.clone();
            let before = if two_d {
                format!("{name}[{tn}][k]")
            } else {
                format!("{name}[{row}*{tn} + k]")
            };
            let rows_c = self.ua.expr_c(&rows_sym);
            let rows_c = if rows_c.contains(' ') {
                format!("({rows_c})")
            } else {
                rows_c
            };
            out.push(LayoutDecision::Done(
                PrivateLayout {
                    array: sym,
                    row,
                    rows,
                    accesses,
                    two_d,
                },
                format!(
                    "private array layout: '{name}' (map(alloc), device-only) laid out thread-minor: {before} -> {name}[{rows_c}*k + {tn}]; stride in '{tn}' {row} -> 1, in k 1 -> {rows_c}",
                ),
            ));
        }
        out
    }

    /// The row length, the trip count (as written and symbolic) and the subscripts to
    /// rewrite when every use of base `b` in the region is `b[K*t + rest]` with `rest` in
    /// `[0, K)` and `t` running from 0 below the trip count; the first failing fact otherwise.
    fn layout_fits(
        &self,
        r: &TargetRegion<'a>,
        outer: &'a Stmt,
        tl: LoopId,
        t: SymbolId,
        b: ompcc_access::BaseId,
    ) -> Result<Fit<'a>, String> {
        let f = &self.ua.functions[self.fi];
        let base = &f.bases[b.0 as usize];
        let name = &base.name;
        let tn = &self.ua.unit.symbols[t].name;
        let sym = base
            .root
            .ok_or_else(|| format!("'{name}' is not a variable"))?;
        // `work[K*t + k]`, or rows of a constant length: `work[t][k]` with `work` a `T (*)[K]`
        let two_d = base.dims == 2;
        let extent = match base.dims {
            1 => None,
            2 => Some(
                base.extents
                    .first()
                    .and_then(|e| e.as_ref().ok())
                    .and_then(|e| e.as_const())
                    .filter(|&k| k >= 2)
                    .ok_or_else(|| format!("the rows of '{name}' do not have a constant length"))?,
            ),
            d => {
                return Err(format!(
                    "'{name}' is indexed with {d} subscripts (one or two are needed)"
                ));
            }
        };
        // the loop: t from 0 by 1 while t < rows
        let canon = f.loops[tl.0 as usize]
            .form
            .as_ref()
            .map_err(|u| u.reason.message())?;
        let rows = match &outer.kind {
            StmtKind::For(_, Some(cond), _, _) => match &strip_parens(cond).kind {
                ExprKind::Binary(BinaryOp::Lt, l, rhs)
                    if self.ua.unit.ident_symbols.get(&strip_parens(l).id) == Some(&t) =>
                {
                    Some(&**rhs)
                }
                _ => None,
            },
            _ => None,
        };
        let rows_sym = rows.and_then(|e| self.sym_of(e));
        let (Some(rows), Some(rows_sym)) = (rows, rows_sym) else {
            return Err(format!(
                "the distributed loop's condition is not '{tn} < bound' with an integer bound"
            ));
        };
        if canon.lo.as_const() != Some(0)
            || canon.step != 1
            || canon.hi.add_const(1).as_ref() != Some(&rows_sym)
        {
            return Err(format!(
                "the distributed loop does not run '{tn}' from 0 by 1 up to its bound"
            ));
        }
        // every use of the variable in the region is the base of a subscript
        let body = r
            .directive
            .body
            .as_deref()
            .ok_or_else(|| "the region has no body".to_string())?;
        let mut indexes: Vec<&'a Expr> = Vec::new();
        let mut bare: Option<&'a Expr> = None;
        let mut idents: Vec<&'a Expr> = Vec::new();
        let mut addressed: Vec<&'a Expr> = Vec::new();
        ompcc_access::walk::stmt(body, &mut |n| {
            if let ompcc_access::walk::Node::Expr(e) = n {
                match &e.kind {
                    ExprKind::Unary(UnaryOp::AddrOf, x) => addressed.push(strip_parens(x)),
                    ExprKind::Index(..) => indexes.push(e),
                    ExprKind::Ident(_) if self.ua.unit.ident_symbols.get(&e.id) == Some(&sym) => {
                        idents.push(e)
                    }
                    _ => {}
                }
            }
        });
        // `x[..]` with `x` among `of`
        let on = |of: &[&'a Expr]| -> Vec<&'a Expr> {
            indexes
                .iter()
                .copied()
                .filter(|e| match &e.kind {
                    ExprKind::Index(a, _) => of.iter().any(|x| x.id == strip_parens(a).id),
                    _ => false,
                })
                .collect()
        };
        let rows_of = on(&idents);
        let subscripts = if two_d { on(&rows_of) } else { rows_of.clone() };
        for id in &idents {
            let covered = rows_of.iter().any(|s| match &s.kind {
                ExprKind::Index(a, _) => strip_parens(a).id == id.id,
                _ => false,
            });
            if !covered && bare.is_none() {
                bare = Some(id);
            }
        }
        // a row used other than by subscript (`work[t]` passed on)
        if two_d {
            for row in &rows_of {
                let covered = subscripts.iter().any(|s| match &s.kind {
                    ExprKind::Index(a, _) => strip_parens(a).id == row.id,
                    _ => false,
                });
                if !covered && bare.is_none() {
                    bare = Some(row);
                }
            }
        }
        if let Some(e) = subscripts
            .iter()
            .chain(&rows_of)
            .find(|s| addressed.iter().any(|x| x.id == s.id))
        {
            return Err(format!(
                "the address of an element of '{name}' is taken at line {}",
                self.line(e.span)
            ));
        }
        if let Some(e) = bare {
            return Err(format!(
                "'{name}' is used other than as '{name}[...]' at line {}",
                self.line(e.span)
            ));
        }
        // every access: K*t + rest, rest within [0, K)
        let mut row: Option<i64> = None;
        for a in f
            .accesses
            .iter()
            .filter(|a| a.base == b && a.span.lo >= body.span.lo && a.span.hi <= body.span.hi)
        {
            let line = self.line(a.span);
            if !a.loops.contains(&tl) {
                return Err(format!(
                    "'{name}' is accessed outside the distributed loop at line {line}"
                ));
            }
            let not_affine = || format!("the subscript of '{name}' at line {line} is not affine");
            let (k, rest) = match (a.subscripts.as_slice(), extent) {
                ([Ok(sub)], None) => {
                    let (coef, rest) = sub.split_linear(&Atom::Var(t)).ok_or_else(|| {
                        format!("the subscript of '{name}' at line {line} is not linear in '{tn}'")
                    })?;
                    let Some(k) = coef.as_const().filter(|&k| k >= 2) else {
                        return Err(format!(
                            "the subscript '{}' of '{name}' at line {line} does not step by a constant row length in '{tn}'",
                            self.ua.expr_c(sub)
                        ));
                    };
                    (k, rest)
                }
                ([Ok(r), Ok(c)], Some(k)) => {
                    if *r != SymExpr::var(t) || c.mentions(&Atom::Var(t)) {
                        return Err(format!(
                            "the access '{name}[{}][{}]' at line {line} is not '{name}[{tn}][k]'",
                            self.ua.expr_c(r),
                            self.ua.expr_c(c)
                        ));
                    }
                    (k, c.clone())
                }
                _ => return Err(not_affine()),
            };
            if row.is_some_and(|r| r != k) {
                return Err(format!(
                    "the subscripts of '{name}' step by different row lengths in '{tn}' ({} and {k})",
                    row.unwrap_or(0)
                ));
            }
            row = Some(k);
            let within = [DimRange {
                lo: SymExpr::int(0),
                hi: SymExpr::int(k - 1),
            }];
            let inner = [DimRange {
                lo: rest.clone(),
                hi: rest.clone(),
            }];
            let in_row = self
                .range_over(&rest, &a.loops)
                .is_some_and(|(lo, hi)| lo >= 0 && hi < k);
            if !in_row && !self.ua.contains_when_run(self.fi, a.span, &within, &inner) {
                return Err(format!(
                    "the index '{}' within the row of '{name}' at line {line} is not proven within [0, {k})",
                    self.ua.expr_c(&rest)
                ));
            }
        }
        let row = row.ok_or_else(|| format!("'{name}' is not accessed in the loop"))?;
        let mut ids = Vec::new();
        for s in &subscripts {
            if !f.accesses.iter().any(|a| a.base == b && a.span == s.span) {
                return Err(format!(
                    "the access to '{name}' at line {} is not analysed",
                    self.line(s.span)
                ));
            }
            ids.push(s.id);
        }
        Ok(Fit {
            row,
            rows,
            accesses: ids,
            rows_sym,
            two_d,
        })
    }

    /// Whether nothing outside region `r` can see the device copy of pointer `sym` (base
    /// `b`), mapped by `item` as `rows * row` elements from 0 (`row` is 1 for a pointer to
    /// rows, whose section counts rows).
    #[allow(clippy::too_many_arguments)]
    fn device_only(
        &self,
        r: &TargetRegion<'a>,
        data: &[DataConstruct<'a>],
        b: ompcc_access::BaseId,
        sym: SymbolId,
        item: &Expr,
        row: i64,
        rows: &SymExpr,
    ) -> Result<(), String> {
        let f = &self.ua.functions[self.fi];
        let base = &f.bases[b.0 as usize];
        let name = &base.name;
        if !matches!(&base.kind, BaseKind::Pointer(Provenance::Alloc { .. })) {
            return Err(format!(
                "'{name}' is not a pointer defined once from an allocation call in this function (another function could see its device copy)"
            ));
        }
        if let Some(u) = &base.escapes {
            return Err(format!("'{name}' escapes: {}", u.reason.message()));
        }
        // the section: name[0:rows*row]
        let ExprKind::ArraySection {
            lower,
            length: Some(len),
            ..
        } = &strip_parens(item).kind
        else {
            return Err(format!(
                "its map clause does not name a section of '{name}'"
            ));
        };
        let lo_zero = lower
            .as_ref()
            .is_none_or(|l| self.sym_of(l).is_some_and(|s| s.as_const() == Some(0)));
        let want = rows.scale(row);
        if !lo_zero || want.is_none() || self.sym_of(len) != want {
            return Err(format!(
                "the mapped section of '{name}' is not [0:{}] (the rows the threads take times the row length)",
                want.map_or("?".into(), |w| self.ua.expr_c(&w))
            ));
        }
        if r.extra_maps
            .iter()
            .any(|m| self.root_symbol(m.expr) == Some(sym))
        {
            return Err(format!("the region maps more than one section of '{name}'"));
        }
        let fspan = r.function.span;
        for d in data {
            if d.directive.span.lo < fspan.lo || d.directive.span.hi > fspan.hi {
                continue;
            }
            let names = d.maps.iter().any(|m| self.root_symbol(m.expr) == Some(sym))
                || d.use_device.iter().any(|u| u.sym == sym);
            if names {
                return Err(format!(
                    "the '{}' at line {} names '{name}' (its device copy may outlive the region)",
                    d.directive.name(),
                    self.line(d.directive.span)
                ));
            }
        }
        // the other bases the region touches are other memory
        let body = r
            .directive
            .body
            .as_deref()
            .map_or(r.directive.span, |s| s.span);
        let mut seen = Vec::new();
        for a in &f.accesses {
            if a.base == b || seen.contains(&a.base) || a.span.lo < body.lo || a.span.hi > body.hi {
                continue;
            }
            seen.push(a.base);
            if self.ua.distinct(self.fi, a.base, b).is_none() {
                return Err(format!(
                    "'{}' may alias '{name}'",
                    f.bases[a.base.0 as usize].name
                ));
            }
        }
        Ok(())
    }

    /// The smallest and largest values of `e` over the canonical loops `loops` with
    /// constant bounds (each term a constant times one of their variables, or a constant).
    fn range_over(&self, e: &SymExpr, loops: &[LoopId]) -> Option<(i64, i64)> {
        let f = &self.ua.functions[self.fi];
        let (mut lo, mut hi) = (0i64, 0i64);
        for term in e.terms() {
            let (a, b) = match term.atoms.as_slice() {
                [] => (term.coef, term.coef),
                [Atom::Var(v)] => {
                    let c = loops.iter().find_map(|l| {
                        f.loops[l.0 as usize]
                            .form
                            .as_ref()
                            .ok()
                            .filter(|c| c.var == *v)
                    })?;
                    let (x, y) = (c.lo.as_const()?, c.hi.as_const()?);
                    let (x, y) = (x.checked_mul(term.coef)?, y.checked_mul(term.coef)?);
                    (x.min(y), x.max(y))
                }
                _ => return None,
            };
            lo = lo.checked_add(a)?;
            hi = hi.checked_add(b)?;
        }
        Some((lo, hi))
    }

    /// The variable a map list item is rooted at (`a`, `a[0:n]`, `a[i][0:m]`).
    fn root_symbol(&self, e: &Expr) -> Option<SymbolId> {
        match &e.kind {
            ExprKind::Paren(x) | ExprKind::Index(x, _) => self.root_symbol(x),
            ExprKind::ArraySection { base, .. } => self.root_symbol(base),
            ExprKind::Ident(_) => self.ua.unit.ident_symbols.get(&e.id).copied(),
            _ => None,
        }
    }

    /// An integer expression as a symbolic one.
    fn sym_of(&self, e: &Expr) -> Option<SymExpr> {
        ompcc_access::walk::int_sym(self.ua.unit, e)
    }
}

fn strip_parens(e: &Expr) -> &Expr {
    ompcc_access::walk::strip_parens(e)
}
