//! What makes a `parallel for` safe to run on the device, each refusal with the fact that is
//! missing: its clauses, the functions it calls, the directives it holds, the variables it
//! writes, and a section for every base it touches (which becomes its map clauses).

use ompcc_access::{BaseKind, Callee, LoopId};
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{
    ExternalDecl, OmpClauseKind, OmpDirectiveKind, Stmt, StmtKind, TranslationUnit,
};

use crate::Candidate;

/// Library functions the device has a body for and that depend on no host state.
const DEVICE_LIBRARY: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2",
    "expm1", "log", "log2", "log10", "log1p", "pow", "sqrt", "cbrt", "hypot", "fabs", "floor",
    "ceil", "round", "trunc", "fmod", "fmin", "fmax", "fma", "erf", "erfc", "sinf", "cosf", "tanf",
    "expf", "logf", "powf", "sqrtf", "fabsf", "floorf", "ceilf", "fminf", "fmaxf", "fmaf",
    "roundf", "ldexp", "copysign", "abs", "labs", "llabs",
];

/// Whether `name` is a device library function (the features count it as a special one).
pub(crate) fn device_library(name: &str) -> bool {
    DEVICE_LIBRARY.contains(&name)
}

/// The map clauses of the device version and the bytes they name, as a C expression.
pub(crate) struct Maps {
    pub clauses: Vec<String>,
    /// One C expression per mapped object.
    pub bytes: Vec<String>,
}

/// The variables of `threadprivate` directives at file scope.
pub(crate) fn threadprivate(tu: &TranslationUnit, typed: &TypedUnit) -> Vec<SymbolId> {
    let mut out = Vec::new();
    for item in &tu.items {
        if let ExternalDecl::Omp(d) = item
            && d.kind == OmpDirectiveKind::Threadprivate
        {
            for e in &d.args {
                if let Some(s) = typed.ident_symbols.get(&e.id) {
                    out.push(*s);
                }
            }
        }
    }
    out
}

impl Candidate<'_, '_> {
    /// The clauses the device version keeps, as written; an error for one that ties the
    /// loop to the host.
    pub(crate) fn device_clauses(&self) -> Result<Vec<String>, String> {
        // a user-defined reduction's loop runs on one device thread (lowering): never faster
        if let Some(name) = self
            .directive
            .clauses
            .iter()
            .chain(self.inherited.iter().copied())
            .find_map(|c| match &c.kind {
                OmpClauseKind::UserReduction { name, .. } => Some(self.src(name.span)),
                _ => None,
            })
        {
            return Err(format!(
                "its reduction '{name}' is user-defined ('declare reduction'), which a device runs on one thread"
            ));
        }
        let mut keep = Vec::new();
        // the region's clauses, for the variables this loop uses (a clause naming a variable
        // a kernel never touches has nothing to do there)
        let used = self.used_symbols();
        for c in &self.inherited {
            let items: Vec<&ompcc_syntax::ast::Expr> = match &c.kind {
                OmpClauseKind::List(l) => l.iter().collect(),
                OmpClauseKind::Reduction { list, .. } => list.iter().collect(),
                _ => Vec::new(),
            };
            let names: Vec<&str> = items
                .iter()
                .filter(|e| {
                    self.typed
                        .ident_symbols
                        .get(&e.id)
                        .is_some_and(|s| used.contains(s))
                })
                .map(|e| self.src(e.span))
                .collect();
            if names.is_empty() {
                continue;
            }
            let head = match &c.kind {
                OmpClauseKind::Reduction { op_span, .. } => {
                    format!("reduction({}: ", self.src(*op_span))
                }
                _ => format!("{}(", c.name.as_str()),
            };
            keep.push(format!("{head}{})", names.join(", ")));
        }
        for c in &self.directive.clauses {
            let name = c.name.as_str();
            match name {
                "private" | "firstprivate" | "collapse" | "linear" | "aligned" | "safelen"
                | "simdlen" | "nontemporal" => keep.push(self.src(c.span).to_owned()),
                "lastprivate" => {
                    if let OmpClauseKind::Lastprivate {
                        conditional: true, ..
                    } = c.kind
                    {
                        return Err("it has 'lastprivate(conditional:)'".to_owned());
                    }
                    keep.push(self.src(c.span).to_owned());
                }
                "reduction" => {
                    if let OmpClauseKind::Reduction { modifier, list, .. } = &c.kind {
                        if modifier.is_some() {
                            return Err("its reduction has a modifier".to_owned());
                        }
                        if list
                            .iter()
                            .any(|e| !matches!(e.kind, ompcc_syntax::ast::ExprKind::Ident(_)))
                        {
                            return Err("it reduces an array section".to_owned());
                        }
                    }
                    keep.push(self.src(c.span).to_owned());
                }
                // how host threads share the iterations: the device version has its own
                "schedule" | "num_threads" | "proc_bind" | "default" | "shared" | "order"
                | "nowait" => {}
                _ => return Err(format!("it has the clause '{name}'")),
            }
        }
        Ok(keep)
    }

    /// The variables the loop names.
    fn used_symbols(&self) -> Vec<SymbolId> {
        let mut out = Vec::new();
        if let Some(body) = self.directive.body.as_deref() {
            ompcc_access::walk::stmt(body, &mut |n| {
                if let ompcc_access::walk::Node::Expr(e) = n
                    && let Some(s) = self.typed.ident_symbols.get(&e.id)
                    && !out.contains(s)
                {
                    out.push(*s);
                }
            });
        }
        out
    }

    /// Every call has a device body that depends on no host state, transitively.
    pub(crate) fn calls_allowed(&self) -> Result<(), String> {
        let span = self.span;
        let mut seen = vec![self.fi];
        self.calls_in(self.fa, &|s| s.lo >= span.lo && s.hi <= span.hi, &mut seen)
    }

    fn calls_in(
        &self,
        fa: &ompcc_access::FunctionAccesses,
        within: &dyn Fn(ompcc_diag::Span) -> bool,
        seen: &mut Vec<usize>,
    ) -> Result<(), String> {
        for c in fa.calls.iter().filter(|c| within(c.span)) {
            let name = c.name.as_str();
            match &c.callee {
                Callee::Library(n) if device_library(n) => {}
                Callee::Library(n)
                    if n.starts_with("omp_get_thread_num") || n == "omp_get_num_threads" =>
                {
                    return Err(format!(
                        "it calls '{n}', which ties it to the host's threads"
                    ));
                }
                Callee::Library(n) if n == "rand" || n == "srand" => {
                    return Err(format!(
                        "it calls '{n}', whose sequence belongs to the host"
                    ));
                }
                Callee::Library(n) => {
                    return Err(format!("it calls '{n}', a host-only function"));
                }
                Callee::Defined(n) => {
                    let Some(fj) = self.ua.function(n) else {
                        return Err(format!("it calls '{n}', which has no body here"));
                    };
                    if seen.contains(&fj) {
                        return Err(format!("it calls '{n}', which is recursive"));
                    }
                    seen.push(fj);
                    let callee = &self.ua.functions[fj];
                    self.calls_in(callee, &|_| true, seen)
                        .map_err(|why| format!("{why} (in '{n}')"))?;
                    if let Some(u) = &callee.summary.unknown_globals {
                        return Err(format!(
                            "'{n}' may touch any global: {}",
                            u.reason.message()
                        ));
                    }
                    seen.pop();
                }
                Callee::Unknown(_) if name.starts_with('(') || name.starts_with('*') => {
                    return Err("it calls through a function pointer".to_owned());
                }
                Callee::Unknown(u) => {
                    return Err(format!("it calls '{name}': {}", u.reason.message()));
                }
            }
        }
        Ok(())
    }

    /// Only `atomic` and `simd` may be nested in the loop.
    pub(crate) fn directives_allowed(&self, body: &Stmt) -> Result<(), String> {
        let mut bad: Option<String> = None;
        nested_directives(body, &mut |d| {
            let name = d.kind.to_string();
            if !(name == "atomic" || name.starts_with("atomic ") || name == "simd") && bad.is_none()
            {
                bad = Some(name);
            }
        });
        match bad {
            Some(name) => Err(format!("it holds '#pragma omp {name}'")),
            None => Ok(()),
        }
    }

    /// The loops the directive distributes (its `collapse` nest), outermost first.
    pub(crate) fn parallel_loops(&self) -> Vec<LoopId> {
        let span = self.span;
        let mut out: Vec<(u32, LoopId)> = self
            .fa
            .loops
            .iter()
            .filter(|l| l.span.lo >= span.lo && l.span.hi <= span.hi)
            .filter_map(|l| l.omp.as_ref().map(|(_, lvl)| (*lvl, l.id)))
            .collect();
        out.sort();
        out.into_iter().map(|(_, l)| l).collect()
    }

    /// The map clauses: every base the loop touches with its proven section; every scalar it
    /// writes must be private, a reduction or lastprivate (mapped back).
    pub(crate) fn maps(&self, f: &ompcc_syntax::ast::FunctionDef) -> Result<Maps, String> {
        let span = self.span;
        let fa = self.fa;
        let declared_inside = |s: SymbolId| {
            let at = self.typed.symbols[s].span.lo;
            at >= span.lo && at < span.hi
        };
        let mut clauses = Vec::new();
        let mut bytes = Vec::new();
        for rs in ompcc_dataplan::scope_sections(self.ua, self.fi, f, self.scope, self.span) {
            let b = &fa.bases[rs.base.0 as usize];
            if b.root.is_some_and(declared_inside) && matches!(b.kind, BaseKind::Array { .. }) {
                continue;
            }
            if self.threadprivate.iter().any(|t| Some(*t) == b.root) {
                return Err(format!("it uses the threadprivate variable '{}'", b.name));
            }
            let kind = if rs.written { "tofrom" } else { "to" };
            match &b.kind {
                BaseKind::Array { .. } => {
                    clauses.push(format!("map({kind}: {})", b.name));
                    bytes.push(format!("(long)sizeof({})", b.name));
                }
                BaseKind::Pointer(_) if b.root.is_some_and(declared_inside) => {
                    return Err(format!(
                        "'{}' points to memory the analysis does not follow (it is set inside the loop)",
                        b.name
                    ));
                }
                BaseKind::Pointer(_) => {
                    let Some(text) = rs.text else {
                        return Err(format!("no section of '{}' is proven: {}", b.name, rs.why));
                    };
                    let elem = format!("{}{}", b.name, "[0]".repeat(b.dims.max(1)));
                    let mut n = String::from("(long)");
                    for l in &rs.lengths {
                        n.push_str(&format!("({l})*"));
                    }
                    bytes.push(format!("{n}(long)sizeof({elem})"));
                    clauses.push(format!("map({kind}: {text})"));
                }
                BaseKind::GlobalScalar => {
                    if rs.written {
                        clauses.push(format!("map(tofrom: {})", b.name));
                    }
                }
                BaseKind::Member => {
                    return Err(format!(
                        "struct member '{}' is not mapped automatically",
                        b.name
                    ));
                }
                BaseKind::Unknown(u) => {
                    return Err(format!("an address is not traced: {}", u.reason.message()));
                }
            }
        }
        // scalars: the loop's variables are private; reductions and lastprivate go back
        let loops = self.parallel_loops();
        let loop_vars: Vec<SymbolId> = loops
            .iter()
            .filter_map(|l| fa.loops[l.0 as usize].form.as_ref().ok().map(|c| c.var))
            .collect();
        let listed = |kinds: &[&str]| -> Vec<SymbolId> {
            self.directive
                .clauses
                .iter()
                .chain(self.inherited.iter().copied())
                .filter(|c| kinds.contains(&c.name.as_str()))
                .flat_map(|c| match &c.kind {
                    OmpClauseKind::List(l) | OmpClauseKind::Lastprivate { list: l, .. } => {
                        l.iter().collect::<Vec<_>>()
                    }
                    OmpClauseKind::Reduction { list, .. } => list.iter().collect(),
                    _ => Vec::new(),
                })
                .filter_map(|e| self.typed.ident_symbols.get(&e.id).copied())
                .collect()
        };
        let private = listed(&["private", "firstprivate", "linear"]);
        let back = listed(&["reduction", "lastprivate"]);
        for &s in self.scalars_written {
            if loop_vars.contains(&s) || private.contains(&s) {
                continue;
            }
            let name = &self.typed.symbols[s].name;
            if back.contains(&s) {
                clauses.push(format!("map(tofrom: {name})"));
                continue;
            }
            if self.threadprivate.contains(&s) {
                return Err(format!("it writes the threadprivate variable '{name}'"));
            }
            return Err(format!(
                "it writes the shared scalar '{name}' in every iteration (not private, not a reduction)"
            ));
        }
        if loop_vars.len() < loops.len() {
            return Err("the loop is not in canonical form".to_owned());
        }
        Ok(Maps { clauses, bytes })
    }
}

/// Calls `f` on every OpenMP directive nested in `s`.
fn nested_directives(s: &Stmt, f: &mut dyn FnMut(&ompcc_syntax::ast::OmpDirective)) {
    use ompcc_syntax::ast::BlockItem;
    match &s.kind {
        StmtKind::Labeled(_, x) | StmtKind::Default(x) | StmtKind::Case(_, _, x) => {
            nested_directives(x, f)
        }
        StmtKind::Compound(b) => {
            for i in &b.items {
                if let BlockItem::Stmt(s) = i {
                    nested_directives(s, f);
                }
            }
        }
        StmtKind::If(_, t, e) => {
            nested_directives(t, f);
            if let Some(e) = e {
                nested_directives(e, f);
            }
        }
        StmtKind::Switch(_, b)
        | StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b) => nested_directives(b, f),
        StmtKind::Omp(d) => {
            f(d);
            if let Some(b) = &d.body {
                nested_directives(b, f);
            }
        }
        _ => {}
    }
}
