//! Interprocedural planning. A function that runs device constructs (itself or through a
//! callee) and is called from one statement of the unit, in a plain shape (`f(args);`,
//! `x = f(args);`, `x += f(args);`, `T x = f(args);`), with its pointer parameters bound to
//! plain pointer variables or arrays of the caller, is planned as part of its caller: the caller's tree
//! takes the callee's body in place of the call (its parameters standing for the caller's
//! arguments), the enter/exit data go around the caller's range and the updates at the host
//! statements that need them, in whichever function those are. The callee is then not
//! planned on its own: its own exit `from` would not copy anything under the caller's
//! mapping (the reference count stays above zero), so the two plans cannot be nested.
//! Calls that are not spliced make a caller that keeps the data on the device around them
//! refuse that data (see `opaque_call`), for the same reason.

use ompcc_access::{BaseId, BaseKind, Callee, Provenance, UnitAccesses};
use ompcc_diag::{SourceMap, Span};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{
    Block, BlockItem, DeclarationKind, Expr, ExprKind, FunctionDef, Initializer, Stmt, StmtKind,
};

use crate::{FnPlan, tree};

/// Which bases of a frame's function stand for which bases of the planned function.
pub(crate) struct FrameMap {
    /// The function (index into the unit's functions).
    pub fi: usize,
    /// (base of the planned function, base here); frame 0 maps every base to itself.
    pub bases: Vec<(BaseId, BaseId)>,
    /// Bases here that name memory the planned function cannot name: the callee's own
    /// objects (distinct from everything the caller has), and the names of others.
    pub unnamed: Vec<(BaseId, bool)>,
    /// Scalar parameters here the callee never assigns, bound to a variable of the planned
    /// function (the call passes a plain variable): a section in the callee's terms
    /// (`a[0:n]`) is a section of the planned function's.
    pub scalars: Vec<(ompcc_sema::SymbolId, ompcc_sema::SymbolId)>,
}

impl FrameMap {
    /// The base here that is `b` of the planned function.
    pub fn here(&self, b: BaseId, frame: usize) -> Option<BaseId> {
        if frame == 0 {
            return Some(b);
        }
        self.bases.iter().find(|(r, _)| *r == b).map(|(_, h)| *h)
    }

    /// `dims` (in the planned function's variables) in this callee's names: its bound
    /// scalar parameters for the variables they stand for; `None` when some variable is
    /// neither one of those nor a static one.
    pub fn callee_terms(
        &self,
        typed: &TypedUnit,
        dims: &[ompcc_access::DimRange],
    ) -> Option<Vec<ompcc_access::DimRange>> {
        let mut out = dims.to_vec();
        for &(param, var) in &self.scalars {
            let (a, by) = (
                ompcc_access::Atom::Var(var),
                ompcc_access::SymExpr::var(param),
            );
            for d in &mut out {
                d.lo = d.lo.subst(&a, &by)?;
                d.hi = d.hi.subst(&a, &by)?;
            }
        }
        let named = |v: ompcc_sema::SymbolId| {
            typed.symbols[v].storage == ompcc_sema::Storage::Static
                || self.scalars.iter().any(|(p, _)| *p == v)
        };
        out.iter()
            .all(|d| d.lo.vars().into_iter().chain(d.hi.vars()).all(named))
            .then_some(out)
    }

    /// The base of the planned function that base `h` here is.
    pub fn planned(&self, h: BaseId, frame: usize) -> Option<BaseId> {
        if frame == 0 {
            return Some(h);
        }
        self.bases.iter().find(|(_, x)| *x == h).map(|(r, _)| *r)
    }
}

/// One call statement that splices its callee into the caller.
pub(crate) struct Splice {
    pub caller: usize,
    pub callee: usize,
    /// The statement (an expression statement or a declaration).
    pub stmt: Span,
    /// The call's arguments: the variable each names, when it is a plain identifier.
    pub args: Vec<Option<ompcc_sema::SymbolId>>,
    /// The callee runs device constructs (else it is spliced for its host code only, which
    /// the caller's flow then sees statement by statement instead of as one call).
    pub kernels: bool,
}

/// The unit's call structure as the splicing sees it.
pub(crate) struct Calls {
    /// Per function: it runs device constructs, itself or through a callee.
    pub kernels: Vec<bool>,
    pub splices: Vec<Splice>,
    /// Calls of functions that run device constructs and are not spliced:
    /// (caller, call span, callee name, why).
    pub refused: Vec<(usize, Span, String, String)>,
}

impl Calls {
    /// The splice that takes function `fi` into its caller.
    pub fn spliced_into(&self, fi: usize) -> Option<&Splice> {
        self.splices.iter().find(|s| s.callee == fi)
    }

    /// Why a call (by span) of a function running device constructs is not spliced.
    pub fn refusal(&self, call: Span) -> Option<&str> {
        self.refused
            .iter()
            .find(|r| r.1 == call)
            .map(|r| r.3.as_str())
    }
}

/// Whether function `fi` is not planned on its own or with a caller: it manages device data
/// itself, or has a region with an `if`/`device` clause (the data may be needed elsewhere).
pub(crate) fn unplannable(oplan: &ompcc_omp::OffloadPlan<'_>, f: &FunctionDef) -> Option<String> {
    if let Some((_, name)) = tree::user_data_construct(&f.body) {
        return Some(format!("it manages device data itself ('{name}')"));
    }
    oplan
        .regions
        .iter()
        .any(|r| r.function.span == f.span && (r.if_cond.is_some() || r.device.is_some()))
        .then(|| "a target region in it has an 'if' or 'device' clause".to_owned())
}

/// The unit's splices: every call statement of a function running device constructs that
/// can take the callee's body, and why the others cannot.
pub(crate) fn calls(
    ua: &UnitAccesses<'_>,
    typed: &TypedUnit,
    oplan: &ompcc_omp::OffloadPlan<'_>,
    funcs: &[&FunctionDef],
    sm: &SourceMap,
) -> Calls {
    let n = ua.functions.len();
    let callee_of = |c: &ompcc_access::CallSite| match &c.callee {
        Callee::Defined(name) => ua.function(name).filter(|&g| g < n),
        _ => None,
    };
    let mut kernels: Vec<bool> = ua
        .functions
        .iter()
        .map(|f| f.regions.iter().any(|r| r.directive.starts_with("target")))
        .collect();
    loop {
        let mut changed = false;
        for fi in 0..n {
            if !kernels[fi]
                && ua.functions[fi]
                    .calls
                    .iter()
                    .any(|c| callee_of(c).is_some_and(|g| kernels[g]))
            {
                kernels[fi] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut sites = vec![0usize; n];
    for fa in &ua.functions {
        for c in &fa.calls {
            if let Some(g) = callee_of(c) {
                sites[g] += 1;
            }
        }
    }
    let mut out = Calls {
        kernels,
        splices: Vec::new(),
        refused: Vec::new(),
    };
    for (ci, f) in funcs.iter().enumerate().take(n) {
        let fa = &ua.functions[ci];
        let mut stmts: Vec<(Span, &Expr)> = Vec::new();
        for i in &f.body.items {
            call_statements(i, &mut stmts);
        }
        for c in &fa.calls {
            let Some(g) = callee_of(c) else { continue };
            let why = (|| -> Result<Splice, String> {
                if c.region.is_some() {
                    return Err("the call is inside a target region".to_owned());
                }
                if sites[g] != 1 {
                    return Err(format!("it is called from {} places", sites[g]));
                }
                let callee = &ua.functions[g];
                if callee.symbol.is_none_or(|s| ua.summary(s).is_none()) || g == ci {
                    return Err("it is recursive".to_owned());
                }
                if let Some(why) = unplannable(oplan, funcs[g]) {
                    return Err(why);
                }
                if let Some(why) = unplannable(oplan, f) {
                    return Err(format!("its caller '{}': {why}", fa.name));
                }
                let body = &funcs[g].body;
                let mut items: Vec<&BlockItem> = body.items.iter().collect();
                if let Some(BlockItem::Stmt(s)) = items.last()
                    && matches!(s.kind, StmtKind::Return(_))
                {
                    // nothing can go after it: it must not touch memory
                    let inside = |x: Span| x.lo >= s.span.lo && x.hi <= s.span.hi;
                    if callee.accesses.iter().any(|a| inside(a.span))
                        || callee.calls.iter().any(|c| inside(c.span))
                    {
                        return Err("its return statement touches memory".to_owned());
                    }
                    items.pop();
                }
                if let Some(j) = tree::leaving_jump(&items) {
                    return Err(format!(
                        "it may return or jump before its end (line {})",
                        sm.lookup(j.lo).line
                    ));
                }
                let Some(&(stmt, call)) = stmts
                    .iter()
                    .find(|(_, e)| e.span.lo <= c.span.lo && c.span.hi <= e.span.hi)
                else {
                    return Err("the call is not a statement of its own ('f(...);', \
                                'x = f(...);', 'x += f(...);' or 'T x = f(...);')"
                        .to_owned());
                };
                let inside = |s: Span| s.lo >= stmt.lo && s.hi <= stmt.hi;
                if fa.accesses.iter().any(|a| inside(a.span))
                    || fa.calls.iter().filter(|x| inside(x.span)).count() != 1
                {
                    return Err("the call's statement does more than call it".to_owned());
                }
                let ExprKind::Call(_, args) = &call.kind else {
                    return Err("internal compiler error: splice without a call".to_owned());
                };
                let args: Vec<Option<ompcc_sema::SymbolId>> = args
                    .iter()
                    .map(|a| match &strip(a).kind {
                        ExprKind::Ident(_) => typed.ident_symbols.get(&strip(a).id).copied(),
                        _ => None,
                    })
                    .collect();
                // a pointer declared in a region lives on the device (its accesses count
                // for every base it may alias)
                let in_region = |b: &ompcc_access::Base| {
                    b.root.is_some_and(|r| {
                        let at = typed.symbols[r].span.lo;
                        callee
                            .regions
                            .iter()
                            .any(|x| at >= x.span.lo && at < x.span.hi)
                    })
                };
                for b in callee.bases.iter().filter(|b| !in_region(b)) {
                    match &b.kind {
                        BaseKind::Pointer(Provenance::Param(i)) => {
                            let Some(Some(v)) = args.get(*i) else {
                                return Err(format!(
                                    "its argument {} (for '{}') is not a plain pointer variable \
                                     or array",
                                    i + 1,
                                    b.name
                                ));
                            };
                            if !fa.bases.iter().any(|x| {
                                x.root == Some(*v)
                                    && matches!(
                                        x.kind,
                                        BaseKind::Pointer(_) | BaseKind::Array { .. }
                                    )
                            }) {
                                return Err(format!(
                                    "its caller does not know what argument {} points to",
                                    i + 1
                                ));
                            }
                            if let Some(p) = b.root
                                && ua.invariant(g, p, body.span).is_err()
                            {
                                return Err(format!("it assigns its parameter '{}'", b.name));
                            }
                        }
                        BaseKind::Pointer(Provenance::Global)
                        | BaseKind::Pointer(Provenance::Alloc { .. })
                        | BaseKind::Array { .. }
                        | BaseKind::GlobalScalar => {}
                        _ if b.dims == 0 => {}
                        _ => {
                            return Err(format!(
                                "it reaches data through '{}', which its caller cannot name",
                                b.name
                            ));
                        }
                    }
                }
                Ok(Splice {
                    caller: ci,
                    callee: g,
                    stmt,
                    args,
                    kernels: out.kernels[g],
                })
            })();
            match why {
                Ok(s) => out.splices.push(s),
                Err(_) if !out.kernels[g] => {}
                Err(why) => out
                    .refused
                    .push((ci, c.span, ua.functions[g].name.clone(), why)),
            }
        }
    }
    out
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(x) => strip(x),
        _ => e,
    }
}

/// The statements of a body (not inside `target` regions) that are a call: (statement span,
/// the call expression).
fn call_statements<'a>(i: &'a BlockItem, out: &mut Vec<(Span, &'a Expr)>) {
    match i {
        BlockItem::Stmt(s) => stmt_calls(s, out),
        BlockItem::Decl(d) => {
            if let DeclarationKind::Vars { declarators, .. } = &d.kind
                && let [one] = declarators.as_slice()
                && let Some(Initializer::Expr(e)) = &one.init
                && matches!(strip(e).kind, ExprKind::Call(..))
            {
                out.push((d.span, strip(e)));
            }
        }
        _ => {}
    }
}

fn stmt_calls<'a>(s: &'a Stmt, out: &mut Vec<(Span, &'a Expr)>) {
    match &s.kind {
        StmtKind::Expr(Some(e)) => {
            let e = strip(e);
            let call = match &e.kind {
                ExprKind::Call(..) => Some(e),
                // `x = f(...)`, `x += f(...)`: the scalar store after the call is host code
                // that touches no planned data
                ExprKind::Assign(_, l, r)
                    if matches!(strip(l).kind, ExprKind::Ident(_))
                        && matches!(strip(r).kind, ExprKind::Call(..)) =>
                {
                    Some(strip(r))
                }
                _ => None,
            };
            if let Some(c) = call {
                out.push((s.span, c));
            }
        }
        StmtKind::Compound(b) => block_calls(b, out),
        StmtKind::For(_, _, _, b)
        | StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::Labeled(_, b)
        | StmtKind::Case(_, _, b)
        | StmtKind::Default(b) => stmt_calls(b, out),
        StmtKind::If(_, t, e) => {
            stmt_calls(t, out);
            if let Some(e) = e {
                stmt_calls(e, out);
            }
        }
        StmtKind::Omp(d) if !ompcc_omp::is_target_region(d.kind) => {
            if let Some(b) = &d.body {
                stmt_calls(b, out);
            }
        }
        _ => {}
    }
}

fn block_calls<'a>(b: &'a Block, out: &mut Vec<(Span, &'a Expr)>) {
    for i in &b.items {
        call_statements(i, out);
    }
}

impl<'a> FnPlan<'a, '_> {
    /// The frames of the range `range` of function `f` (this planner's function): itself,
    /// then every callee spliced in, depth first; with where the tree splices each and the
    /// spans whose code runs only under a condition (a callee called under one: all of it).
    /// `Err`: a callee reaches memory this function cannot name (where, why).
    pub(crate) fn frames(
        &self,
        f: &'a FunctionDef,
        guarded: &mut Vec<Span>,
    ) -> Result<(Vec<tree::Site<'a>>, Vec<FrameMap>), (Span, String)> {
        let own = |fi: usize| -> Vec<Span> {
            self.ua.functions[fi]
                .regions
                .iter()
                .filter(|r| r.directive.starts_with("target") && r.parent.is_none())
                .map(|r| r.span)
                .chain(
                    self.calls
                        .splices
                        .iter()
                        .filter(|s| s.caller == fi)
                        .map(|s| s.stmt),
                )
                .collect()
        };
        let mut sites = vec![tree::Site {
            parent: usize::MAX,
            stmt: f.span,
            body: &f.body,
            spans: own(self.fi),
        }];
        let mut maps = vec![FrameMap {
            fi: self.fi,
            bases: Vec::new(),
            unnamed: Vec::new(),
            scalars: Vec::new(),
        }];
        let mut k = 0;
        while k < maps.len() {
            let c = maps[k].fi;
            for sp in self.calls.splices.iter().filter(|s| s.caller == c) {
                if maps.len() > 64 || maps.iter().any(|m| m.fi == sp.callee) {
                    return Err((sp.stmt, "the calls nest too deep".to_owned()));
                }
                let map = self.frame_map(&maps[k], k, sp);
                let callee = &self.ua.functions[sp.callee];
                let unnamed = map.unnamed.iter().find(|(_, private)| !private);
                // a callee without device constructs stays one host statement instead
                if !sp.kernels && (unnamed.is_some() || !distinct_roots(&map)) {
                    continue;
                }
                if let Some((b, _)) = unnamed {
                    return Err((
                        sp.stmt,
                        format!(
                            "'{}' reaches data through '{}', which '{}' cannot name",
                            callee.name,
                            callee.bases[b.0 as usize].name,
                            self.fa().name
                        ),
                    ));
                }
                let mut seen: Vec<BaseId> = Vec::new();
                for (r, _) in &map.bases {
                    if seen.contains(r) {
                        return Err((
                            sp.stmt,
                            format!(
                                "the call of '{}' passes '{}' for two of its names",
                                callee.name,
                                self.base_name(*r)
                            ),
                        ));
                    }
                    seen.push(*r);
                }
                let body = &self.funcs[sp.callee].body;
                if guarded
                    .iter()
                    .any(|g| sp.stmt.lo >= g.lo && sp.stmt.hi <= g.hi)
                {
                    guarded.push(body.span);
                }
                let items: Vec<&BlockItem> = body.items.iter().collect();
                guarded.extend(tree::guarded_spans(&items, body.span));
                sites.push(tree::Site {
                    parent: k,
                    stmt: sp.stmt,
                    body,
                    spans: own(sp.callee),
                });
                maps.push(map);
            }
            k += 1;
        }
        Ok((sites, maps))
    }

    /// The bases of `sp`'s callee as bases of this planner's function, through the frame
    /// `parent` (number `k`) of its caller.
    fn frame_map(&self, parent: &FrameMap, k: usize, sp: &Splice) -> FrameMap {
        let caller = &self.ua.functions[sp.caller];
        let callee = &self.ua.functions[sp.callee];
        let mut out = FrameMap {
            fi: sp.callee,
            bases: Vec::new(),
            unnamed: Vec::new(),
            scalars: Vec::new(),
        };
        let body = self.funcs[sp.callee].body.span;
        for (i, param) in callee.params.iter().enumerate() {
            let (Some(param), Some(Some(arg))) = (*param, sp.args.get(i)) else {
                continue;
            };
            let bound = if k == 0 {
                Some(*arg)
            } else {
                parent
                    .scalars
                    .iter()
                    .find(|(p, _)| p == arg)
                    .map(|(_, v)| *v)
            };
            if let Some(v) = bound
                && self.typed.types.is_integer(self.typed.symbols[param].ty)
                && self.ua.invariant(sp.callee, param, body).is_ok()
            {
                out.scalars.push((param, v));
            }
        }
        let in_caller = |root: ompcc_sema::SymbolId, array: bool| {
            caller.bases.iter().find(|x| {
                x.root == Some(root)
                    && if array {
                        matches!(x.kind, BaseKind::Array { .. })
                    } else {
                        matches!(x.kind, BaseKind::Pointer(_) | BaseKind::Array { .. })
                    }
            })
        };
        for b in &callee.bases {
            let in_region = b.root.is_some_and(|r| {
                let at = self.typed.symbols[r].span.lo;
                callee
                    .regions
                    .iter()
                    .any(|x| at >= x.span.lo && at < x.span.hi)
            });
            if b.dims == 0 || b.kind == BaseKind::GlobalScalar || in_region {
                continue;
            }
            let static_root = b
                .root
                .is_some_and(|r| self.typed.symbols[r].storage == ompcc_sema::Storage::Static);
            let own = matches!(b.kind, BaseKind::Array { .. } if !static_root)
                || matches!(b.kind, BaseKind::Pointer(Provenance::Alloc { .. }) if !static_root);
            let cb = match &b.kind {
                BaseKind::Pointer(Provenance::Param(i)) => sp
                    .args
                    .get(*i)
                    .copied()
                    .flatten()
                    .and_then(|v| in_caller(v, false)),
                BaseKind::Pointer(Provenance::Global) | BaseKind::Array { .. } if static_root => b
                    .root
                    .and_then(|r| in_caller(r, matches!(b.kind, BaseKind::Array { .. }))),
                _ => None,
            };
            match cb {
                Some(cb) => match parent.planned(cb.id, k) {
                    Some(r) => out.bases.push((r, b.id)),
                    None => {
                        let private = parent.unnamed.iter().any(|(x, p)| *x == cb.id && *p);
                        out.unnamed.push((b.id, private));
                    }
                },
                None => out.unnamed.push((
                    b.id,
                    own || (matches!(b.kind, BaseKind::Array { .. }) && b.escapes.is_none()),
                )),
            }
        }
        out
    }
}

/// No two bases of a frame stand for one base of the planned function.
fn distinct_roots(map: &FrameMap) -> bool {
    map.bases
        .iter()
        .enumerate()
        .all(|(i, (r, _))| map.bases[..i].iter().all(|(x, _)| x != r))
}
