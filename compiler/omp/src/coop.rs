//! Warp-cooperative inner loops (issue 16 item 4, DESIGN.md section 11): when each iteration
//! of the threaded loop runs a reduction loop whose accesses are coalesced in its own
//! variable but not in the threaded one (a row's dot product with a thread per row), a group
//! of lanes takes each iteration: the lanes stride the inner loop (consecutive lanes on
//! consecutive elements), their partial values are combined by shuffles, and lane 0 runs the
//! rest of the iteration ([`crate::Cooperative`]).
//!
//! Legal only when proven: the threaded loop's body is `{ declarations; for (...) ...;
//! statements }` whose declarations have no side effects (every lane runs them) and declare
//! the reduction variable; the inner loop is canonical, does not exit early, writes no
//! memory, calls nothing, contains no OpenMP directive, and writes no scalar declared outside
//! it but the reduction variable, whose every occurrence in it is an update with one
//! operator (`+ - * & | ^`). Reordering the updates must not change the result: an integer
//! computation (wrapping, so associative), or a floating-point one under
//! `-C warp-coop=reassoc`, which accepts other rounding. The lanes per group come from the
//! inner trip count when it is a constant (the next power of two, 4 to 32), else 32.
//!
//! A floating-point `+` or `*` reduction without `reassoc` is shared in order instead
//! (`Cooperative::ordered`, `-C ordered-coop`; a loop whose bounds are read from memory, a
//! CSR row of unknown length, only with `-C ordered-coop=all`, since a short row would
//! leave most of a warp-wide group idle through its serial updates) when the loop's body is
//! the one update
//! `v += e` (`v *= e`, `v = v + e`) computed in `v`'s own type: the lanes evaluate the
//! terms `e` of consecutive iterations (their loads coalesced), and every lane adds them to
//! `v` one by one in the loop's order, taking each from its lane by a shuffle. Each update
//! is the C one, `v = v + e` rounded once, in the same order: the result is the loop's
//! (without contraction of the update into an `fma`, which C allows but never requires).
//! The serial additions cost every lane an add and a shuffle per term, so the groups of a
//! loop with affine bounds are as narrow as one 32-byte sector of terms (8 lanes for
//! `float`, 4 for `double`): a warp's four or eight groups then read whole sectors, as 32
//! lanes on one row would. A loop whose bounds are read from memory (a CSR row, starting
//! anywhere in a sector) keeps 32 lanes: a narrow group's run would straddle two sectors.
//!
//! Such a CSR row is first offered to irregular loop collapsing (`Cooperative::flattened`,
//! `-C irregular-collapse`, OpenMPC 4.1.3; lowered by `lower/src/flatten.rs`): a thread per
//! row, the warp's rows' nonzeros evaluated by consecutive lanes, each lane adding its own
//! row's terms in order. Row lengths are known only at run time, so the choice is static:
//! in order, collapsing costs a lane one add per term of its own row, a warp per row a
//! shuffle and an add per term of every row, at any row length. It needs the row's term to
//! use only the loop's variable and values the same on every thread (`flat_row`).

use ompcc_access::{LoopId, ReductionTarget};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{
    BinaryOp, BlockItem, DeclarationKind, ExprKind, ForInit, Initializer, OmpClauseKind,
    OmpClauseName, OmpDirective, ReductionOp, Stmt, StmtKind, UnaryOp,
};

use crate::grid::{Cx, Decision};
use crate::plan::{Cooperative, GridMapping, TargetRegion};
use crate::walk::{self, Node};

impl<'a> Cx<'_, 'a> {
    /// The cooperative mapping of `r`'s one-loop nest, a missed remark naming the fact that
    /// is missing when the inner loop would be coalesced but cannot be shared, or `Keep`.
    /// `reassoc`: floating-point reductions may be reordered; `ordered`: they may be shared
    /// in order (module header), `irregular`: also in loops whose bounds are read from memory;
    /// `flatten`: such loops' rows may be collapsed (irregular loop collapsing).
    pub(crate) fn decide_cooperative(
        &self,
        r: &TargetRegion<'a>,
        (reassoc, ordered, irregular, flatten): (bool, bool, bool, bool),
    ) -> Decision<'a> {
        let Some(ln) = r.loop_nest else {
            return Decision::Keep;
        };
        let outer = ln.outer;
        let Some(oid) = self.loop_id(outer) else {
            return Decision::Keep;
        };
        let StmtKind::For(_, _, _, body) = &outer.kind else {
            return Decision::Keep;
        };
        let StmtKind::Compound(block) = &body.kind else {
            return Decision::Keep;
        };
        // the inner loop: the first `for` item of the body (a perfect nest is the swap's), or
        // a loop directive's `for`
        let Some((at, item, inner, clause)) =
            block.items.iter().enumerate().find_map(|(k, it)| match it {
                BlockItem::Stmt(s) => match &s.kind {
                    StmtKind::For(..) => Some((k, s, s, None)),
                    StmtKind::Omp(d) => inner_directive_loop(d).map(|(f, c)| (k, s, f, Some(c))),
                    _ => None,
                },
                _ => None,
            })
        else {
            return Decision::Keep;
        };
        let Some(iid) = self.loop_id(inner) else {
            return Decision::Keep;
        };
        let f = &self.ua.functions[self.fi];
        let accesses: Vec<(usize, u64)> = f
            .accesses
            .iter()
            .enumerate()
            .filter(|(_, a)| a.loops.contains(&iid))
            .map(|(k, a)| {
                let deeper = a
                    .loops
                    .iter()
                    .position(|l| *l == iid)
                    .map_or(0, |p| a.loops.len() - p - 1);
                (k, 8u64.saturating_pow(deeper as u32))
            })
            .collect();
        // a loop whose bounds read memory (a CSR row) has no affine form: its variable's
        // unit-stride subscripts are found in the source
        let plain = if f.loops[iid.0 as usize].form.is_err() {
            self.unit_subscripts(inner)
        } else {
            Vec::new()
        };
        let plain_bytes: u64 = plain
            .iter()
            .map(|&k| {
                f.bases[f.accesses[k].base.0 as usize]
                    .elem_size
                    .unwrap_or(0)
            })
            .sum();
        let (s_outer, s_inner) = (
            self.score(&accesses, oid),
            self.score(&accesses, iid) + plain_bytes,
        );
        if s_inner <= s_outer {
            return Decision::Keep;
        }
        let from = self.var_name(oid);
        let to = match crate::loop_var(self.ua.unit, inner) {
            Some(v) => self.ua.unit.symbols[v].name.clone(),
            None => self.var_name(iid),
        };
        let missed = |why: String| {
            Decision::Missed(
                ln.directive.span,
                format!(
                    "loop '{to}' (line {}) has unit or zero stride for more bytes than the distributed loop '{from}' ({s_inner} vs {s_outer} per iteration), but its iterations were not shared by a group of lanes: {why}",
                    self.line(inner.span)
                ),
            )
        };
        if let Err(why) = self.directive_allows(r, ln.directive, outer) {
            return missed(why);
        }
        let (var, op, lanes, in_order, flattened) = match self.cooperative_legal(
            block.items.as_slice(),
            (at, inner, iid),
            (oid, r.directive),
            (reassoc, (ordered, irregular, flatten), clause),
        ) {
            Ok(x) => x,
            Err(why) => return missed(why),
        };
        let before = self.strides_text(&accesses, oid);
        let after = if plain.is_empty() {
            self.strides_text(&accesses, iid)
        } else {
            let mut seen: Vec<String> = Vec::new();
            for &k in &plain {
                let t = format!("{}[{to}] 1", f.bases[f.accesses[k].base.0 as usize].name);
                if !seen.contains(&t) {
                    seen.push(t);
                }
            }
            seen.join(", ")
        };
        Decision::Swap {
            mapping: GridMapping {
                threaded: outer,
                sequential: Vec::new(),
                body,
                box_over: None,
                cooperative: Some(Cooperative {
                    item,
                    inner,
                    lanes,
                    var,
                    op,
                    ordered: in_order,
                    flattened,
                }),
            },
            message: if flattened {
                format!(
                    "irregular loop collapse: each warp takes the nonzeros of its 32 iterations of '{from}' (line {}) flattened, consecutive lanes evaluating the terms of consecutive iterations of loop '{to}' (line {}) into shared memory, and each lane adds its own row's terms to '{}' ('{}' reduction) in the loop's order, so the result rounds as the loop's; a warp whose rows' ranges are not consecutive runs the loop as written; chosen over a warp-cooperative row statically, for any row length (rows are known only at run time; an in-order warp per row costs every lane a shuffle per term of each row, here a lane adds only its own row's terms); unit or zero stride bytes per iteration {s_outer} -> {s_inner}; strides in '{from}': {before}; in the flattened nonzeros (across lanes): {after}",
                    self.line(outer.span),
                    self.line(inner.span),
                    self.ua.unit.symbols[var].name,
                    op_text(op),
                )
            } else if in_order {
                format!(
                    "warp-cooperative inner loop, in order: {lanes} lanes share each iteration of '{from}' (line {}) in loop '{to}' (line {}), each lane evaluating the term of one iteration and every lane adding the terms to '{}' ('{}' reduction) in the loop's order, so the result rounds as the loop's; lane 0 runs the rest of the iteration; unit or zero stride bytes per iteration {s_outer} -> {s_inner}; strides in '{from}': {before}; in '{to}' (across lanes): {after}",
                    self.line(outer.span),
                    self.line(inner.span),
                    self.ua.unit.symbols[var].name,
                    op_text(op),
                )
            } else {
                format!(
                    "warp-cooperative inner loop: {lanes} lanes share each iteration of '{from}' (line {}) in loop '{to}' (line {}), their partial '{}' values ('{}' reduction) combined by shuffles and lane 0 running the rest of the iteration; unit or zero stride bytes per iteration {s_outer} -> {s_inner}; strides in '{from}': {before}; in '{to}' (across lanes): {after}",
                    self.line(outer.span),
                    self.line(inner.span),
                    self.ua.unit.symbols[var].name,
                    op_text(op),
                )
            },
        }
    }

    /// The reduction variable, its operator, the lanes per group, whether the lanes add
    /// the terms in order and whether the rows are collapsed (`Cooperative::flattened`), or
    /// the missing fact. `outer`: the distributed loop and where its directive starts.
    fn cooperative_legal(
        &self,
        items: &'a [BlockItem],
        (at, inner, iid): (usize, &'a Stmt, LoopId),
        outer: (LoopId, &'a OmpDirective),
        (reassoc, (ordered, irregular, flatten), clause): (
            bool,
            (bool, bool, bool),
            Option<Clause<'_>>,
        ),
    ) -> Result<(SymbolId, ReductionOp, u32, bool, bool), String> {
        let typed = self.ua.unit;
        let f = &self.ua.functions[self.fi];
        let lp = &f.loops[iid.0 as usize];
        let name = match crate::loop_var(typed, inner) {
            Some(v) => typed.symbols[v].name.clone(),
            None => self.var_name(iid),
        };
        if lp.early_exit {
            return Err(format!(
                "loop '{name}' may exit early (break, goto or return)"
            ));
        }
        if !matches!(&inner.kind, StmtKind::For(ForInit::Decl(_), ..)) {
            return Err(format!(
                "the variable of loop '{name}' is not declared in its 'for'"
            ));
        }
        // what every lane runs before the loop: declarations without side effects
        let mut declared = Vec::new();
        for it in &items[..at] {
            let BlockItem::Decl(d) = it else {
                return Err(format!(
                    "a statement before loop '{name}' in the distributed loop's body (only declarations run on every lane)"
                ));
            };
            let DeclarationKind::Vars { declarators, .. } = &d.kind else {
                continue;
            };
            for id in declarators {
                let Some(s) = typed
                    .decl_symbols
                    .get(id.declarator.id.0 as usize)
                    .copied()
                    .flatten()
                else {
                    continue;
                };
                // (an array could be a VLA, whose stack only lane 0 would free)
                if !typed.types.is_scalar(typed.symbols[s].ty) {
                    return Err(format!(
                        "'{}', declared before loop '{name}', is not a scalar",
                        typed.symbols[s].name
                    ));
                }
                declared.push(s);
                let pure = match &id.init {
                    None => true,
                    Some(Initializer::Expr(e)) => walk::pure_expr(typed, e, &[]),
                    Some(_) => false,
                };
                if !pure {
                    return Err(format!(
                        "a declaration before loop '{name}' has side effects or an initializer list (every lane runs it)"
                    ));
                }
            }
        }
        // lane 0 alone runs the rest: what it writes there must not be read by the other
        // lanes in later iterations (in the declarations or the loop)
        let mut rest_writes = Vec::new();
        for it in &items[at + 1..] {
            if let BlockItem::Stmt(st) = it {
                walk::stmt(st, &mut |n| {
                    if let Node::Expr(x) = n {
                        let target = match &x.kind {
                            ExprKind::Assign(_, l, _) => Some(&**l),
                            ExprKind::Unary(
                                UnaryOp::PreInc
                                | UnaryOp::PostInc
                                | UnaryOp::PreDec
                                | UnaryOp::PostDec,
                                v,
                            ) => Some(&**v),
                            _ => None,
                        };
                        if let Some(v) = target.and_then(|t| {
                            typed.ident_symbols.get(&crate::analyze::strip_parens(t).id)
                        }) {
                            rest_writes.push(*v);
                        }
                    }
                });
            }
        }
        let mut stale = None;
        let mut reads = |n: Node<'_>| {
            if let Node::Expr(x) = n
                && let Some(v) = typed.ident_symbols.get(&x.id)
                && rest_writes.contains(v)
                && !declared.contains(v)
            {
                stale.get_or_insert(*v);
            }
        };
        for it in &items[..at] {
            if let BlockItem::Decl(d) = it
                && let DeclarationKind::Vars { declarators, .. } = &d.kind
            {
                for id in declarators {
                    if let Some(Initializer::Expr(e)) = &id.init {
                        walk::expr(e, &mut reads);
                    }
                }
            }
        }
        walk::stmt(inner, &mut reads);
        if let Some(v) = stale {
            return Err(format!(
                "'{}' is written after loop '{name}' (by lane 0 alone) and read before it or in it",
                typed.symbols[v].name
            ));
        }
        if let Some(a) = f
            .accesses
            .iter()
            .find(|a| a.loops.contains(&iid) && a.kind.writes())
        {
            return Err(format!(
                "loop '{name}' writes memory ('{}', line {})",
                self.access_text(a),
                self.line(a.span)
            ));
        }
        if let Some(c) = f.calls.iter().find(|c| c.loops.contains(&iid)) {
            return Err(format!(
                "loop '{name}' calls '{}' (line {})",
                c.name,
                self.line(c.span)
            ));
        }
        let mut directive = None;
        walk::stmt(inner, &mut |n| {
            if let Node::Directive(d) = n {
                directive.get_or_insert(d.span);
            }
        });
        if let Some(s) = directive {
            return Err(format!(
                "loop '{name}' contains an OpenMP directive (line {})",
                self.line(s)
            ));
        }
        let reds = self.ua.reductions(self.fi, iid);
        let mut var = None;
        for &v in &lp.scalars_written {
            let red = reds.iter().find(|r| r.target == ReductionTarget::Scalar(v));
            match red {
                Some(r) if declared.contains(&v) && var.is_none() => var = Some((v, r.op)),
                Some(_) if var.is_some() => {
                    return Err(format!("loop '{name}' reduces into more than one variable"));
                }
                _ => {
                    return Err(format!(
                        "loop '{name}' writes '{}', which is not a reduction variable declared in the distributed loop's body",
                        typed.symbols[v].name
                    ));
                }
            }
        }
        let Some((var, op)) = var else {
            return Err(format!("loop '{name}' reduces into no variable"));
        };
        let op = match op {
            "+" => ReductionOp::Add,
            "*" => ReductionOp::Mul,
            "&" => ReductionOp::BitAnd,
            "|" => ReductionOp::BitOr,
            "^" => ReductionOp::BitXor,
            other => return Err(format!("loop '{name}' reduces by '{other}'")),
        };
        let vname = &typed.symbols[var].name;
        let vty = typed.symbols[var].ty;
        // a directive's reduction clause allows any order of the updates
        let declared_op = match clause {
            Some(Clause::Reduction(cop, item)) => {
                let named = typed
                    .ident_symbols
                    .get(&crate::analyze::strip_parens(item).id);
                if named != Some(&var) || !same_op(cop, op) {
                    return Err(format!(
                        "the directive's reduction is not the loop's update of '{vname}'"
                    ));
                }
                true
            }
            Some(Clause::Other(what)) => {
                return Err(format!(
                    "the directive of loop '{name}' has {what} (only one 'reduction' item is shared by lanes)"
                ));
            }
            None => false,
        };
        let mut in_order = false;
        let mut flattened = false;
        if declared_op {
            // the directive allows any order
        } else if typed.types.is_floating(vty) {
            if !reassoc && flatten && lp.form.is_err() {
                match self
                    .single_update(inner, var, op)
                    .and_then(|()| self.flat_row(inner, var, outer))
                {
                    Ok(()) => flattened = true,
                    // an in-order warp per row may still take it
                    Err(w) if !(ordered && irregular) => {
                        return Err(format!(
                            "'{vname}' is a floating-point '{}' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and the rows' nonzeros cannot be collapsed (-C irregular-collapse): {w}",
                            op_text(op)
                        ));
                    }
                    Err(_) => {}
                }
            }
            if flattened {
                in_order = true;
            } else if !reassoc {
                let why = if ordered && lp.form.is_err() && !irregular {
                    Some(format!(
                        ", and loop '{name}' has bounds read from memory (a row of unknown length, which a group could mostly idle through: shared in order with -C ordered-coop=all)"
                    ))
                } else if ordered {
                    match self.single_update(inner, var, op) {
                        Ok(()) => None,
                        Err(w) => Some(format!(", and it cannot be shared in order: {w}")),
                    }
                } else {
                    Some(", and sharing it in order is off (-C ordered-coop=off)".to_string())
                };
                if let Some(why) = why {
                    return Err(format!(
                        "'{vname}' is a floating-point '{}' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc){why}",
                        op_text(op)
                    ));
                }
                in_order = true;
            }
        } else if !typed.types.is_integer(vty) || !self.integer_updates(inner, var) {
            return Err(format!(
                "an update of '{vname}' is not computed in an integer type"
            ));
        }
        let canon = match &lp.form {
            Ok(c) => Some(c),
            Err(u) => {
                // evaluated once by the lanes instead of before each iteration: the same
                // values when the loop changes nothing its bounds read
                self.plain_bounds(inner, var)
                    .map_err(|why| format!("loop '{name}': {} ({why})", u.reason.message()))?;
                None
            }
        };
        let lanes = match canon.map(|c| (c.lo.as_const(), c.hi.as_const(), c.step)) {
            Some((Some(lo), Some(hi), step)) => {
                let trips = (hi - lo) / step.abs() + 1;
                if trips < 4 {
                    return Err(format!(
                        "loop '{name}' runs {} iterations, too few to share",
                        trips.max(0)
                    ));
                }
                (trips as u64).next_power_of_two().min(32) as u32
            }
            _ => 32,
        };
        // in order, a row with affine bounds: a sector of terms per group (module header);
        // a row whose bounds are read from memory (a CSR row) starts anywhere in a sector,
        // and its groups stay a warp wide, so that the row's first and last sectors, read
        // half by each of two runs, are a smaller share of each run's
        let lanes = match typed.types.size_of(vty) {
            Some(size) if in_order && canon.is_some() => {
                lanes.min((32 / size.max(1)).clamp(4, 32) as u32)
            }
            _ => lanes,
        };
        // a flattened row keeps a thread per iteration of the distributed loop
        Ok((
            var,
            op,
            if flattened { 1 } else { lanes },
            in_order,
            flattened,
        ))
    }

    /// Whether the rows of CSR loop `inner` may be collapsed (`Cooperative::flattened`): its
    /// condition is `k < hi` or `k <= hi` and its step `k++` (a row is `lo, lo + 1, ...`),
    /// and its one update of `var` has a term that uses nothing but `k` and variables that hold the same value
    /// on every thread: declared before the target region's directive `outer.1`, not
    /// thread-local, not written in the distributed loop `outer.0` nor anywhere in the region
    /// (assigned, incremented or its address taken: a private copy written before the loop
    /// may differ between threads). A lane evaluates the
    /// terms of other lanes' rows. The missing fact otherwise.
    fn flat_row(
        &self,
        inner: &'a Stmt,
        var: SymbolId,
        outer: (LoopId, &'a OmpDirective),
    ) -> Result<(), String> {
        let typed = self.ua.unit;
        let f = &self.ua.functions[self.fi];
        let StmtKind::For(_, Some(cond), Some(step), body) = &inner.kind else {
            return Err("the loop has no condition or no increment".into());
        };
        let Some(k) = crate::loop_var(typed, inner) else {
            return Err("the loop has no variable".into());
        };
        let kname = &typed.symbols[k].name;
        let is_k = |e: &ompcc_syntax::ast::Expr| {
            typed.ident_symbols.get(&crate::analyze::strip_parens(e).id) == Some(&k)
        };
        let up = matches!(&crate::analyze::strip_parens(cond).kind,
            ExprKind::Binary(BinaryOp::Lt | BinaryOp::Le, a, _) if is_k(a))
            && matches!(&crate::analyze::strip_parens(step).kind,
                ExprKind::Unary(UnaryOp::PreInc | UnaryOp::PostInc, x) if is_k(x));
        if !up {
            return Err(format!(
                "loop '{kname}' is not 'for (... {kname} < hi; {kname}++)' (a row of consecutive nonzeros)"
            ));
        }
        let mut written = f.loops[outer.0.0 as usize].scalars_written.clone();
        if let Some(b) = outer.1.body.as_deref() {
            walk::stmt(b, &mut |n| {
                let Node::Expr(x) = n else { return };
                let target = match &x.kind {
                    ExprKind::Assign(_, l, _) => l,
                    ExprKind::Unary(
                        UnaryOp::PreInc
                        | UnaryOp::PostInc
                        | UnaryOp::PreDec
                        | UnaryOp::PostDec
                        | UnaryOp::AddrOf,
                        v,
                    ) => v,
                    _ => return,
                };
                if let Some(&s) = typed
                    .ident_symbols
                    .get(&crate::analyze::strip_parens(target).id)
                {
                    written.push(s);
                }
            });
        }
        let mut varying = None;
        walk::stmt(body, &mut |n| {
            if let Node::Expr(x) = n
                && matches!(x.kind, ExprKind::Ident(_))
                && let Some(&s) = typed.ident_symbols.get(&x.id)
                && s != k
                && s != var
            {
                let info = &typed.symbols[s];
                let same = info.span.lo < outer.1.span.lo
                    && info.storage != ompcc_sema::Storage::Thread
                    && !written.contains(&s);
                if !same {
                    varying.get_or_insert(s);
                }
            }
        });
        match varying {
            Some(s) => Err(format!(
                "the term of loop '{kname}' uses '{}', which may differ between rows (a lane evaluates other rows' terms)",
                typed.symbols[s].name
            )),
            None => Ok(()),
        }
    }

    /// Whether the body of `inner` is the one update `var op= e` (or `var = var op e`), `op`
    /// `+` or `*`, computed in `var`'s type, with `e` free of `var` and of side effects: its
    /// terms may then be evaluated apart and added in order; the missing fact otherwise.
    fn single_update(&self, inner: &Stmt, var: SymbolId, op: ReductionOp) -> Result<(), String> {
        let typed = self.ua.unit;
        let vname = &typed.symbols[var].name;
        let bop = match op {
            ReductionOp::Add => BinaryOp::Add,
            ReductionOp::Mul => BinaryOp::Mul,
            _ => return Err(format!("'{vname}' is not updated by '+' or '*'")),
        };
        let StmtKind::For(_, _, _, body) = &inner.kind else {
            return Err("the loop is not a 'for'".into());
        };
        let not_one = || format!("the loop's body is not one update of '{vname}'");
        let StmtKind::Expr(Some(e)) = &crate::strip_compound(body).kind else {
            return Err(not_one());
        };
        let e = crate::analyze::strip_parens(e);
        let is_var = |x: &ompcc_syntax::ast::Expr| {
            typed.ident_symbols.get(&crate::analyze::strip_parens(x).id) == Some(&var)
        };
        let ty_of = |x: &ompcc_syntax::ast::Expr| {
            typed
                .exprs
                .get(x.id.0 as usize)
                .and_then(|i| i.as_ref())
                .map(|i| i.ty)
        };
        let (term, computed) = match &e.kind {
            ExprKind::Assign(Some(o), l, r) if *o == bop && is_var(l) => {
                (&**r, typed.compound_types.get(&e.id).copied())
            }
            ExprKind::Assign(None, l, r) if is_var(l) => {
                match &crate::analyze::strip_parens(r).kind {
                    ExprKind::Binary(o, a, b) if *o == bop && is_var(a) => (&**b, ty_of(r)),
                    _ => return Err(not_one()),
                }
            }
            _ => return Err(not_one()),
        };
        let vty = typed.symbols[var].ty;
        let same = |t: Option<ompcc_sema::types::QualType>| {
            t.is_some_and(|t| typed.types.compatible_unqual(t, vty))
        };
        if !same(computed) || !same(ty_of(term)) {
            return Err(format!(
                "the update of '{vname}' is not computed in its own type"
            ));
        }
        let mut mentions = false;
        walk::expr(term, &mut |n| {
            if let Node::Expr(x) = n
                && typed.ident_symbols.get(&x.id) == Some(&var)
            {
                mentions = true;
            }
        });
        if mentions || !walk::pure_expr(typed, term, &[]) {
            return Err(format!(
                "the term added to '{vname}' reads it or has side effects"
            ));
        }
        Ok(())
    }

    /// The accesses of `inner`'s body whose subscript is its variable (plus or minus a
    /// constant), by index into the function's accesses.
    fn unit_subscripts(&self, inner: &'a Stmt) -> Vec<usize> {
        let typed = self.ua.unit;
        let f = &self.ua.functions[self.fi];
        let Some(k) = crate::loop_var(typed, inner) else {
            return Vec::new();
        };
        let StmtKind::For(_, _, _, body) = &inner.kind else {
            return Vec::new();
        };
        let is_k = |e: &ompcc_syntax::ast::Expr| {
            let e = crate::analyze::strip_parens(e);
            matches!(e.kind, ExprKind::Ident(_)) && typed.ident_symbols.get(&e.id) == Some(&k)
        };
        let mut spans = Vec::new();
        walk::stmt(body, &mut |n| {
            if let Node::Expr(e) = n
                && let ExprKind::Index(_, sub) = &e.kind
            {
                let sub = crate::analyze::strip_parens(sub);
                let unit = is_k(sub)
                    || matches!(&sub.kind, ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, b)
                        if is_k(a) && matches!(crate::analyze::strip_parens(b).kind, ExprKind::Int { .. }));
                if unit {
                    spans.push(e.span);
                }
            }
        });
        f.accesses
            .iter()
            .enumerate()
            .filter(|(_, a)| spans.contains(&a.span) && a.subscripts.iter().any(|s| s.is_err()))
            .map(|(k, _)| k)
            .collect()
    }

    /// `inner` is `for (int k = lo; k < hi; k++)` (or `<=`, `>`, `>=`, `--`) with `lo` and
    /// `hi` free of side effects and of variables the loop writes (`k`, `red`), and the body
    /// does not write `k`. (The caller has checked that the loop writes no memory.)
    fn plain_bounds(&self, inner: &'a Stmt, red: SymbolId) -> Result<(), String> {
        let typed = self.ua.unit;
        let StmtKind::For(ForInit::Decl(d), Some(cond), Some(step), body) = &inner.kind else {
            return Err("not 'for (int k = lo; k < hi; k++)'".into());
        };
        let Some(k) = crate::loop_var(typed, inner) else {
            return Err("no loop variable".into());
        };
        if !typed.types.is_integer(typed.symbols[k].ty) {
            return Err("a non-integer loop variable".into());
        }
        let is_k = |e: &ompcc_syntax::ast::Expr| {
            let e = crate::analyze::strip_parens(e);
            matches!(e.kind, ExprKind::Ident(_)) && typed.ident_symbols.get(&e.id) == Some(&k)
        };
        let DeclarationKind::Vars { declarators, .. } = &d.kind else {
            return Err("no initial value".into());
        };
        let Some(Initializer::Expr(lo)) = declarators.first().and_then(|i| i.init.as_ref()) else {
            return Err("no initial value".into());
        };
        let hi = match &crate::analyze::strip_parens(cond).kind {
            ExprKind::Binary(BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge, a, b)
                if is_k(a) =>
            {
                &**b
            }
            _ => return Err("the condition is not 'k < bound'".into()),
        };
        if !matches!(&crate::analyze::strip_parens(step).kind,
            ExprKind::Unary(UnaryOp::PreInc | UnaryOp::PostInc | UnaryOp::PreDec | UnaryOp::PostDec, x) if is_k(x))
        {
            return Err("the increment is not 'k++' or 'k--'".into());
        }
        if ![&**lo, hi]
            .iter()
            .all(|e| walk::pure_expr(typed, e, &[k, red]))
        {
            return Err("a bound has side effects or uses a variable the loop writes".into());
        }
        let mut writes_k = false;
        walk::stmt(body, &mut |n| {
            if let Node::Expr(x) = n {
                match &x.kind {
                    ExprKind::Assign(_, l, _) if is_k(l) => writes_k = true,
                    ExprKind::Unary(
                        UnaryOp::PreInc
                        | UnaryOp::PostInc
                        | UnaryOp::PreDec
                        | UnaryOp::PostDec
                        | UnaryOp::AddrOf,
                        v,
                    ) if is_k(v) => writes_k = true,
                    _ => {}
                }
            }
        });
        if writes_k {
            return Err("the body writes the loop variable".into());
        }
        Ok(())
    }

    /// Every update of `var` in `inner` is computed in an integer type (so the lanes' order
    /// of the updates gives the same wrapped result).
    fn integer_updates(&self, inner: &Stmt, var: SymbolId) -> bool {
        let typed = self.ua.unit;
        let is_var = |e: &ompcc_syntax::ast::Expr| {
            typed.ident_symbols.get(&crate::analyze::strip_parens(e).id) == Some(&var)
        };
        let mut ok = true;
        walk::stmt(inner, &mut |n| {
            let Node::Expr(e) = n else { return };
            let ty = match &e.kind {
                ExprKind::Assign(Some(_), l, _) if is_var(l) => {
                    typed.compound_types.get(&e.id).copied()
                }
                ExprKind::Assign(None, l, r) if is_var(l) => typed
                    .exprs
                    .get(r.id.0 as usize)
                    .and_then(|i| i.as_ref())
                    .map(|i| i.ty),
                _ => return,
            };
            if !ty.is_some_and(|t| typed.types.is_integer(t)) {
                ok = false;
            }
        });
        ok
    }
}

/// What a loop directive in the body says beyond its loop.
#[derive(Clone, Copy)]
enum Clause<'a> {
    /// Its one clause, `reduction(op: item)` with one item.
    Reduction(ReductionOp, &'a ompcc_syntax::ast::Expr),
    /// Anything else (no reduction, another clause, more items), described.
    Other(&'static str),
}

/// The `for` of a `parallel for [simd]`, `parallel loop` or `simd` directive in the body (a
/// new team's loop, or one thread's: never a worksharing construct that binds to the
/// distributed loop's team), and its clauses.
fn inner_directive_loop(d: &OmpDirective) -> Option<(&Stmt, Clause<'_>)> {
    let words = d.kind.words();
    if !matches!(
        words,
        ["parallel", "for"] | ["parallel", "for", "simd"] | ["parallel", "loop"] | ["simd"]
    ) {
        return None;
    }
    let body = crate::strip_compound(d.body.as_deref()?);
    if !matches!(body.kind, StmtKind::For(..)) {
        return None;
    }
    let clause = match d.clauses.as_slice() {
        [c] => match &c.kind {
            OmpClauseKind::Reduction {
                modifier: None,
                op,
                list,
                ..
            } if c.name == OmpClauseName::Reduction && list.len() == 1 => {
                Clause::Reduction(*op, &list[0])
            }
            _ => Clause::Other("another clause than one 'reduction'"),
        },
        [] => Clause::Other("no 'reduction' clause"),
        _ => Clause::Other("more clauses than one 'reduction'"),
    };
    Some((body, clause))
}

/// The directive's operator is the analysis's (`-` accumulates like `+`).
fn same_op(declared: ReductionOp, found: ReductionOp) -> bool {
    let norm = |o| match o {
        ReductionOp::Sub => ReductionOp::Add,
        o => o,
    };
    norm(declared) == norm(found)
}

/// The operator as C text.
fn op_text(op: ReductionOp) -> &'static str {
    match op {
        ReductionOp::Add | ReductionOp::Sub => "+",
        ReductionOp::Mul => "*",
        ReductionOp::BitAnd => "&",
        ReductionOp::BitOr => "|",
        ReductionOp::BitXor => "^",
        ReductionOp::LogAnd => "&&",
        ReductionOp::LogOr => "||",
        ReductionOp::Min => "min",
        ReductionOp::Max => "max",
    }
}
