//! OpenMP validation (OpenMP 5.2): clause operands are typed like expressions (array
//! sections allowed in list items), region nesting follows chapter 17.1 for the constructs
//! ompcc supports, loop-associated directives get the canonical loop form of section 4.4.1
//! checked on as many perfectly nested loops as `collapse(n)` asks for (and their iteration
//! variables must not be modified in the body), `default(none)` requires every outer
//! variable referenced in the construct to be listed, a variable may appear in one
//! data-sharing clause only, and `atomic` statements must have one of the allowed forms.
//! `declare target` entities are recorded for device compilation.
//!
//! Which clauses a directive accepts is the parser's business (it owns the clause tables);
//! this module checks what needs types and context.

use super::Checker;
use crate::consteval::ConstValue;
use ompcc_diag::Span;
use ompcc_syntax::ast::{
    self, BinaryOp, BlockItem, DeclarationKind, Expr, ExprKind, ForInit, OmpClauseKind,
    OmpClauseName, OmpDirective, OmpDirectiveKind as K, ReductionOp, Stmt, StmtKind, UnaryOp,
};

fn map_type_name(t: ast::MapType) -> &'static str {
    match t {
        ast::MapType::To => "to",
        ast::MapType::From => "from",
        ast::MapType::ToFrom => "tofrom",
        ast::MapType::Alloc => "alloc",
        ast::MapType::Release => "release",
        ast::MapType::Delete => "delete",
    }
}

fn first_word(k: K) -> &'static str {
    k.words().first().copied().unwrap_or("")
}
fn last_word(k: K) -> &'static str {
    k.words().last().copied().unwrap_or("")
}
fn has_word(k: K, w: &str) -> bool {
    k.words().contains(&w)
}
/// Worksharing-loop, sections, single: constructs that bind to the innermost parallel.
fn is_worksharing(k: K) -> bool {
    matches!(first_word(k), "for" | "sections" | "single" | "section")
}

impl Checker<'_> {
    pub(super) fn omp_declarative(&mut self, d: &OmpDirective) {
        self.omp_clauses(d);
        for a in &d.args {
            self.expr(a);
        }
        // begin/end pairing is checked by the parser; here the marked entities are recorded
        self.declare_target_marks(d);
    }

    fn omp_clauses(&mut self, d: &OmpDirective) {
        for c in &d.clauses {
            self.omp_clause(d, c);
        }
    }

    fn list_items(&mut self, list: &[Expr]) {
        self.in_omp_list = true;
        for e in list {
            if let Some(i) = self.expr(e)
                && i.kind != super::ValueKind::LValue
            {
                self.error(
                    "E0602",
                    "list item is not a variable or array section",
                    e.span,
                );
            }
        }
        self.in_omp_list = false;
    }

    /// Items of data-sharing clauses other than `reduction` must be whole variables, and
    /// variables that get a private copy must not be const.
    fn privatizable(&mut self, clause: OmpClauseName, list: &[Expr]) {
        use OmpClauseName as C;
        let whole_variable = matches!(
            clause,
            C::Private | C::Firstprivate | C::Lastprivate | C::Shared | C::Copyin | C::Copyprivate
        );
        if !whole_variable {
            return;
        }
        for e in list {
            if !matches!(strip(e).kind, ExprKind::Ident(_)) {
                self.error(
                    "E0607",
                    format!("list items of '{clause}' must be variables"),
                    e.span,
                );
                continue;
            }
            if matches!(clause, C::Private | C::Lastprivate)
                && let Some(i) = self.info(e.id)
                && self
                    .out
                    .types
                    .canon(i.ty)
                    .quals
                    .contains(crate::types::Quals::CONST)
            {
                self.error(
                    "E0608",
                    format!("const-qualified variable cannot appear in '{clause}'"),
                    e.span,
                );
            }
        }
    }

    /// `depend(iterator(defs), type: list)` (also `map`, `to`, `from`): each range is
    /// checked where the clause is (an
    /// iterator's bounds do not see the iterators), then the list items in a scope where the
    /// iterators are `int` variables (what their names mean for typing; the host compiler
    /// gets the clause as written).
    fn iterated_items(&mut self, it: &ast::OmpIterated, clause: OmpClauseName) {
        for d in &it.iterators {
            for e in [Some(&d.begin), Some(&d.end), d.step.as_ref()]
                .into_iter()
                .flatten()
            {
                self.int_operand(e, clause);
            }
        }
        self.push_scope();
        let int = self.out.types.int(crate::types::IntKind::Int);
        for d in &it.iterators {
            let sym = self.new_symbol(super::SymbolInfo {
                name: self.name(d.name.name).to_string(),
                kind: super::SymbolKind::Object,
                ty: int,
                linkage: super::Linkage::None,
                storage: super::Storage::Automatic,
                defined: true,
                tentative: false,
                is_param: false,
                is_inline: false,
                is_register: false,
                asm_label: None,
                span: d.name.span,
                align: None,
            });
            self.bind(d.name.name, sym);
        }
        self.list_items(&it.list);
        self.pop_scope();
    }

    fn int_operand(&mut self, e: &Expr, clause: OmpClauseName) {
        if let Some(t) = self.rvalue(e)
            && !self.out.types.is_integer(t)
        {
            let s = self.ty_str(t);
            self.error(
                "E0603",
                format!("expression in '{clause}' clause must have integer type (have '{s}')"),
                e.span,
            );
        }
    }

    fn omp_clause(&mut self, d: &OmpDirective, c: &ast::OmpClause) {
        self.omp_clause_inner(d, c);
        if let OmpClauseKind::Depend {
            iterated: Some(it), ..
        }
        | OmpClauseKind::Map {
            iterated: Some(it), ..
        }
        | OmpClauseKind::Motion {
            iterated: Some(it), ..
        }
        | OmpClauseKind::IteratedList(it) = &c.kind
        {
            self.iterated_items(it, c.name);
        }
        self.in_omp_list = false;
    }

    fn omp_clause_inner(&mut self, d: &OmpDirective, c: &ast::OmpClause) {
        match &c.kind {
            OmpClauseKind::Flag
            | OmpClauseKind::Default(_)
            | OmpClauseKind::ProcBind(_)
            | OmpClauseKind::Order { .. }
            | OmpClauseKind::Keyword(_)
            | OmpClauseKind::IteratedList(_)
            | OmpClauseKind::Defaultmap { .. } => {}
            OmpClauseKind::Expr(e) => match c.name {
                OmpClauseName::Collapse
                | OmpClauseName::Ordered
                | OmpClauseName::Safelen
                | OmpClauseName::Simdlen
                | OmpClauseName::Partial => {
                    if let Some(v) = self.const_int(e)
                        && v.as_i128().is_none_or(|v| v <= 0)
                    {
                        self.error(
                            "E0604",
                            format!("'{}' argument must be a positive constant integer", c.name),
                            e.span,
                        );
                    }
                }
                OmpClauseName::Final | OmpClauseName::Novariants | OmpClauseName::Nocontext => {
                    if let Some(t) = self.rvalue(e)
                        && !self.out.types.is_scalar(t)
                    {
                        self.error(
                            "E0603",
                            format!("'{}' condition must be scalar", c.name),
                            e.span,
                        );
                    }
                }
                _ => {
                    self.int_operand(e, c.name);
                    let positive = matches!(
                        c.name,
                        OmpClauseName::NumThreads
                            | OmpClauseName::NumTeams
                            | OmpClauseName::ThreadLimit
                    );
                    if positive
                        && let Some(ConstValue::Int(v)) = super::fold::fold(&self.out, e)
                        && v.as_i128().is_some_and(|v| v <= 0)
                    {
                        self.warn(
                            "W0602",
                            format!("'{}' value must be positive", c.name),
                            e.span,
                        );
                    }
                }
            },
            OmpClauseKind::List(l)
            | OmpClauseKind::Lastprivate { list: l, .. }
            | OmpClauseKind::Map { list: l, .. }
            | OmpClauseKind::Motion { list: l, .. }
            | OmpClauseKind::Depend { list: l, .. } => {
                // `uses_allocators` names allocator handles: the predefined ones are enum
                // constants, not variables.
                if matches!(d.kind, K::DeclareTarget) || c.name == OmpClauseName::UsesAllocators {
                    self.in_omp_list = true;
                    for e in l {
                        self.expr(e);
                    }
                } else {
                    self.list_items(l);
                    self.privatizable(c.name, l);
                }
                if matches!(
                    c.name,
                    OmpClauseName::IsDevicePtr | OmpClauseName::UseDevicePtr
                ) {
                    for e in l {
                        if let Some(i) = self.info(e.id)
                            && !self.out.types.is_pointer(i.ty)
                            && !self.out.types.is_array(i.ty)
                        {
                            let s = self.ty_str(i.ty);
                            self.error(
                                "E0605",
                                format!("'{}' list item must be a pointer (have '{s}')", c.name),
                                e.span,
                            );
                        }
                    }
                }
            }
            OmpClauseKind::Reduction { op, list, .. } => {
                self.list_items(list);
                for e in list {
                    let Some(i) = self.info(e.id) else { continue };
                    let mut t = i.ty;
                    while let Some(el) = self.out.types.array_elem(t) {
                        t = el;
                    }
                    let types = &self.out.types;
                    let ok = match op {
                        ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor => {
                            types.is_integer(t)
                        }
                        ReductionOp::Min | ReductionOp::Max => types.is_real(t),
                        _ => types.is_arithmetic(t),
                    };
                    if !ok {
                        let s = self.ty_str(t);
                        self.error(
                            "E0606",
                            format!("invalid type '{s}' for reduction list item"),
                            e.span,
                        );
                    }
                }
            }
            // the host compiler checks the identifier against its `declare reduction`
            OmpClauseKind::UserReduction { list, .. } => self.list_items(list),
            OmpClauseKind::Schedule { chunk, .. } | OmpClauseKind::DistSchedule { chunk } => {
                if let Some(ch) = chunk {
                    self.int_operand(ch, c.name);
                }
            }
            OmpClauseKind::If { cond, .. } => {
                if let Some(t) = self.rvalue(cond)
                    && !self.out.types.is_scalar(t)
                {
                    self.error("E0603", "'if' condition must be scalar", cond.span);
                }
            }
            OmpClauseKind::Aligned { list, alignment } => {
                self.list_items(list);
                if let Some(a) = alignment {
                    self.const_int(a);
                }
            }
            OmpClauseKind::Linear { list, step } => {
                self.list_items(list);
                if let Some(s) = step {
                    self.int_operand(s, c.name);
                }
            }
        }
    }

    /// An executable directive with its statement `s`.
    pub(super) fn omp_directive(&mut self, d: &OmpDirective) {
        self.omp_clauses(d);
        self.data_clauses(d);
        // The name of `critical(name)` lives in its own namespace: it is not an expression.
        if d.kind != K::Critical {
            for a in &d.args {
                self.expr(a);
            }
        }
        self.omp_nesting(d);
        let collapse = d
            .clauses
            .iter()
            .find(|c| c.name == OmpClauseName::Collapse)
            .and_then(|c| match &c.kind {
                OmpClauseKind::Expr(e) => match self.out.consts.get(&e.id) {
                    Some(ConstValue::Int(v)) => v.as_i128(),
                    _ => None,
                },
                _ => None,
            })
            .filter(|v| *v > 0)
            .unwrap_or(1) as usize;
        let Some(body) = &d.body else {
            return;
        };
        if matches!(d.kind, K::Target) {
            self.check_target_teams_alone(body);
        }
        let atomic = d.kind == K::Atomic;
        let dsa_none = d
            .clauses
            .iter()
            .any(|c| matches!(c.kind, OmpClauseKind::Default(ast::DefaultKind::None)));
        let mut listed = self.listed_variables(d);
        if dsa_none {
            // the iteration variables of the associated loops are predetermined private
            let mut cur: &Stmt = body;
            for _ in 0..if d.kind.is_loop() { collapse } else { 0 } {
                let StmtKind::For(ForInit::Expr(init), _, _, inner) = &unwrap_single(cur).kind
                else {
                    break;
                };
                if let ExprKind::Assign(None, l, _) = &strip(init).kind
                    && let ExprKind::Ident(v) = strip(l).kind
                    && let Some(sym) = self.lookup(v)
                {
                    listed.insert(sym);
                }
                cur = inner;
            }
            self.dsa_none.push(super::DsaNone {
                watermark: self.out.symbols.len(),
                listed: std::mem::take(&mut listed),
                reported: Default::default(),
                directive: d.kind,
            });
        }
        self.omp.push(d.kind);
        self.stmt(body);
        self.omp.pop();
        if dsa_none {
            self.dsa_none.pop();
        }
        if atomic {
            self.atomic_form(d, body);
        }
        // after the body, so loop variables declared in the `for` have their symbols
        if d.kind.is_loop() {
            self.canonical_loop_nest(d, body, collapse);
        }
        if d.kind == K::Unroll {
            self.canonical_loop_nest(d, body, 1);
            self.omp_unroll(d, body);
        }
    }

    /// What the data constructs require of their clauses (OpenMP 5.2 sections 13.6-13.9):
    /// `target update` moves something (`to`/`from`), `target enter data` / `exit data` map
    /// something with a map type of their direction, `target data` maps or converts
    /// something; and no array section of a map or motion clause has a constant negative
    /// length.
    fn data_clauses(&mut self, d: &OmpDirective) {
        let has = |names: &[OmpClauseName]| d.clauses.iter().any(|c| names.contains(&c.name));
        let missing = match d.kind {
            K::TargetUpdate if !has(&[OmpClauseName::To, OmpClauseName::From]) => {
                Some("a 'to' or 'from' clause")
            }
            K::TargetEnterData | K::TargetExitData if !has(&[OmpClauseName::Map]) => {
                Some("a 'map' clause")
            }
            K::TargetData
                if !has(&[
                    OmpClauseName::Map,
                    OmpClauseName::UseDevicePtr,
                    OmpClauseName::UseDeviceAddr,
                ]) =>
            {
                Some("a 'map', 'use_device_ptr' or 'use_device_addr' clause")
            }
            _ => None,
        };
        if let Some(what) = missing {
            self.error(
                "E0650",
                format!("'#pragma omp {}' must have {what}", d.kind),
                d.span,
            );
        }
        for c in &d.clauses {
            let (list, iterated) = match &c.kind {
                OmpClauseKind::Map {
                    map_type,
                    list,
                    iterated,
                    ..
                } => {
                    let allowed: &[ast::MapType] = match d.kind {
                        K::TargetEnterData => &[ast::MapType::To, ast::MapType::Alloc],
                        K::TargetExitData => &[
                            ast::MapType::From,
                            ast::MapType::Release,
                            ast::MapType::Delete,
                        ],
                        _ => &[],
                    };
                    let mt = map_type.unwrap_or(ast::MapType::ToFrom);
                    if !allowed.is_empty() && !allowed.contains(&mt) {
                        let names: Vec<String> = allowed
                            .iter()
                            .map(|t| format!("'{}'", map_type_name(*t)))
                            .collect();
                        self.error(
                            "E0651",
                            format!(
                                "map type '{}' is not allowed on '#pragma omp {}' (only {})",
                                map_type_name(mt),
                                d.kind,
                                names.join(", ")
                            ),
                            c.span,
                        );
                    }
                    (list, iterated)
                }
                OmpClauseKind::Motion { list, iterated, .. } if d.kind == K::TargetUpdate => {
                    (list, iterated)
                }
                _ => continue,
            };
            // the items an `iterator(...)` modifier ranges over are list items too
            let iterated = iterated.iter().flat_map(|it| &it.list);
            for item in list.iter().chain(iterated) {
                let mut cur = strip(item);
                while let ExprKind::ArraySection {
                    base,
                    length,
                    stride,
                    ..
                } = &cur.kind
                {
                    if let Some(s) = stride
                        && let Some(ConstValue::Int(v)) = super::fold::fold(&self.out, s)
                        && v.as_i128().is_some_and(|v| v <= 0)
                    {
                        self.error(
                            "E0652",
                            format!("array section in '{}' clause has a stride below 1", c.name),
                            s.span,
                        );
                    }
                    if let Some(len) = length
                        && let Some(ConstValue::Int(v)) = super::fold::fold(&self.out, len)
                        && v.as_i128().is_some_and(|v| v < 0)
                    {
                        self.error(
                            "E0652",
                            format!("array section in '{}' clause has a negative length", c.name),
                            len.span,
                        );
                    }
                    cur = strip(base);
                }
            }
        }
    }

    /// The variables named in a directive's clauses; reports a variable that appears in two
    /// data-sharing clauses (other than `firstprivate` with `lastprivate`).
    fn listed_variables(&mut self, d: &OmpDirective) -> rustc_hash::FxHashSet<super::SymbolId> {
        let mut listed = rustc_hash::FxHashSet::default();
        let mut dsa: rustc_hash::FxHashMap<super::SymbolId, OmpClauseName> = Default::default();
        for c in &d.clauses {
            let list: &[Expr] = match &c.kind {
                OmpClauseKind::List(l)
                | OmpClauseKind::Lastprivate { list: l, .. }
                | OmpClauseKind::Reduction { list: l, .. }
                | OmpClauseKind::UserReduction { list: l, .. }
                | OmpClauseKind::Map { list: l, .. }
                | OmpClauseKind::Motion { list: l, .. }
                | OmpClauseKind::Aligned { list: l, .. }
                | OmpClauseKind::Linear { list: l, .. } => l,
                _ => &[],
            };
            let is_dsa = matches!(
                c.name,
                OmpClauseName::Private
                    | OmpClauseName::Firstprivate
                    | OmpClauseName::Lastprivate
                    | OmpClauseName::Shared
                    | OmpClauseName::Reduction
                    | OmpClauseName::Linear
            );
            for e in list {
                let Some(sym) = base_symbol(&self.out, e) else {
                    continue;
                };
                listed.insert(sym);
                if !is_dsa {
                    continue;
                }
                if let Some(prev) = dsa.insert(sym, c.name) {
                    let pair = matches!(
                        (prev, c.name),
                        (OmpClauseName::Firstprivate, OmpClauseName::Lastprivate)
                            | (OmpClauseName::Lastprivate, OmpClauseName::Firstprivate)
                    );
                    if !pair {
                        let n = self.out.symbols[sym].name.clone();
                        self.error(
                            "E0631",
                            format!("'{n}' appears in both '{prev}' and '{}' clauses", c.name),
                            e.span,
                        );
                    }
                }
            }
        }
        listed
    }

    /// A variable referenced inside a `default(none)` construct must be listed in its
    /// clauses unless it is declared inside the construct.
    pub(super) fn check_default_none(&mut self, sym: super::SymbolId, span: Span) {
        if self.unevaluated > 0 || self.dsa_none.is_empty() {
            return;
        }
        let s = &self.out.symbols[sym];
        let name = s.name.clone();
        let mut errors = Vec::new();
        for ctx in &mut self.dsa_none {
            if sym.as_u32() as usize >= ctx.watermark
                || ctx.listed.contains(&sym)
                || !ctx.reported.insert(sym)
            {
                continue;
            }
            errors.push(ctx.directive);
        }
        for k in errors {
            self.error(
                "E0630",
                format!("'{name}' not specified in enclosing '{k}' construct with 'default(none)'"),
                span,
            );
        }
    }

    /// OpenMP 5.2 section 17.1 nesting restrictions for the supported constructs.
    fn omp_nesting(&mut self, d: &OmpDirective) {
        let k = d.kind;
        let parent = self.omp.last().copied();
        let span = d.name_span;
        let first = first_word(k);
        // An orphaned `distribute` (in a function a `teams` region calls) binds to the
        // caller's teams: only a lexically enclosing construct other than `teams` is wrong.
        if first == "distribute" {
            match parent {
                Some(p) if last_word(p) == "teams" => {}
                None => {}
                _ => self.error(
                    "E0610",
                    format!("'{k}' region must be strictly nested inside a 'teams' region"),
                    span,
                ),
            }
        }
        if first == "teams"
            && let Some(p) = parent
            && last_word(p) != "target"
        {
            self.error(
                "E0611",
                format!("'{k}' construct must be closely nested in a 'target' construct or not nested at all (it is inside '{p}')"),
                span,
            );
        }
        if let Some(p) = parent {
            // only distribute, parallel, loop and atomic may be closely nested in teams
            if last_word(p) == "teams"
                && !matches!(
                    first,
                    "distribute" | "parallel" | "loop" | "atomic" | "unroll"
                )
            {
                self.error(
                    "E0612",
                    format!("'{k}' region may not be closely nested inside a 'teams' region"),
                    span,
                );
            }
            // `unroll` transforms a loop and makes no region of its own.
            if last_word(p) == "simd"
                && !matches!(first, "atomic" | "loop" | "simd" | "ordered" | "unroll")
            {
                self.error(
                    "E0613",
                    format!("'{k}' region may not be closely nested inside a 'simd' region"),
                    span,
                );
            }
        }
        // worksharing and barrier may not be closely nested in worksharing, critical,
        // ordered, masked or task regions; masked only not in worksharing, loop, atomic,
        // task or taskloop regions (OpenMP 5.2 17.1; the closest enclosing parallel resets)
        let masked = matches!(first, "masked" | "master");
        if is_worksharing(k) || first == "barrier" || masked {
            // innermost first: a blocking region wins over a parallel in the same combined
            // directive (`parallel for` blocks through its `for`)
            let mut blocked = None;
            for p in self.omp.iter().rev() {
                let blocks = is_worksharing(*p)
                    || has_word(*p, "for")
                    || has_word(*p, "sections")
                    || has_word(*p, "single")
                    || if masked {
                        has_word(*p, "taskloop")
                            || has_word(*p, "loop")
                            || matches!(last_word(*p), "task" | "atomic")
                    } else {
                        matches!(
                            last_word(*p),
                            "critical" | "ordered" | "masked" | "master" | "task" | "taskloop"
                        )
                    };
                if blocks {
                    blocked = Some(*p);
                    break;
                }
                if has_word(*p, "parallel") || has_word(*p, "teams") || first_word(*p) == "target" {
                    break;
                }
            }
            if let Some(p) = blocked
                && !(first == "section" && has_word(p, "sections"))
            {
                self.error(
                    "E0614",
                    format!("'{k}' region may not be closely nested inside a '{p}' region"),
                    span,
                );
            }
        }
        if first == "target"
            && self.omp.iter().any(|p| {
                first_word(*p) == "target"
                    && matches!(
                        p,
                        K::Target
                            | K::TargetParallel
                            | K::TargetParallelFor
                            | K::TargetParallelForSimd
                            | K::TargetParallelLoop
                            | K::TargetSimd
                            | K::TargetTeams
                            | K::TargetTeamsLoop
                            | K::TargetTeamsDistribute
                            | K::TargetTeamsDistributeSimd
                            | K::TargetTeamsDistributeParallelFor
                            | K::TargetTeamsDistributeParallelForSimd
                    )
            })
        {
            self.warn(
                "W0601",
                format!("'{k}' construct inside of a target region"),
                span,
            );
        }
        if first == "section" && parent.is_none_or(|p| !has_word(p, "sections")) {
            self.error(
                "E0615",
                "'section' directive outside a 'sections' construct",
                span,
            );
        }
    }

    /// OpenMP 5.2 15.8.4: the statement of an `atomic` construct must have one of the forms
    /// of its clause (`read`: `v = x`, `write`: `x = e`, `update`: `x++`, `x op= e`,
    /// `x = x op e`, `x = e op x`, `capture`: `v = <update>` or a block of two such
    /// statements), on a scalar `x` that `e` does not mention.
    fn atomic_form(&mut self, d: &OmpDirective, body: &Stmt) {
        let has = |n: OmpClauseName| d.clauses.iter().any(|c| c.name == n);
        if has(OmpClauseName::Compare) {
            return; // compare forms (OpenMP 5.1) are accepted as written
        }
        let kinds = [
            OmpClauseName::Read,
            OmpClauseName::Write,
            OmpClauseName::Update,
            OmpClauseName::Capture,
        ];
        if kinds.iter().filter(|k| has(**k)).count() > 1 {
            return; // the parser reports conflicting atomic clauses
        }
        let kind = if has(OmpClauseName::Read) {
            "read"
        } else if has(OmpClauseName::Write) {
            "write"
        } else if has(OmpClauseName::Capture) {
            "capture"
        } else {
            "update"
        };
        let stmts: Vec<&Expr> = match &body.kind {
            StmtKind::Expr(Some(e)) => vec![e],
            StmtKind::Compound(b) if kind == "capture" => b
                .items
                .iter()
                .filter_map(|i| match i {
                    BlockItem::Stmt(Stmt {
                        kind: StmtKind::Expr(Some(e)),
                        ..
                    }) => Some(&**e),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        };
        let ok = match (kind, stmts.as_slice()) {
            ("read", [e]) => match &strip(e).kind {
                ExprKind::Assign(None, v, x) => self.atomic_var(x) && self.atomic_var(v),
                _ => false,
            },
            ("write", [e]) => match &strip(e).kind {
                ExprKind::Assign(None, x, ex) => self.atomic_var(x) && !accesses(ex, x),
                _ => false,
            },
            ("update", [e]) => self.atomic_update(e),
            ("capture", [e]) => match &strip(e).kind {
                ExprKind::Assign(None, v, u) => self.atomic_var(v) && self.atomic_update(u),
                _ => false,
            },
            ("capture", [a, b]) => {
                // `{v = x; x op= e;}` or `{x op= e; v = x;}`, also `x = e` as the update
                let is_read = |c: &Checker<'_>, e: &Expr| match &strip(e).kind {
                    ExprKind::Assign(None, v, x) => c.atomic_var(v) && c.atomic_var(x),
                    _ => false,
                };
                // swap `{v = x; x = e;}`
                let is_write = |c: &Checker<'_>, e: &Expr| match &strip(e).kind {
                    ExprKind::Assign(None, x, ex) => c.atomic_var(x) && !accesses(ex, x),
                    _ => false,
                };
                (is_read(self, a)
                    && (self.atomic_update(b) || is_read(self, b) || is_write(self, b)))
                    || (self.atomic_update(a) && is_read(self, b))
            }
            _ => false,
        };
        if !ok {
            self.error(
                "E0640",
                format!("invalid form of the statement of '#pragma omp atomic {kind}'"),
                body.span,
            );
        }
    }

    /// An lvalue expression of scalar type.
    fn atomic_var(&self, e: &Expr) -> bool {
        self.info(e.id)
            .is_some_and(|i| i.kind == super::ValueKind::LValue && self.out.types.is_scalar(i.ty))
    }

    fn atomic_update(&self, e: &Expr) -> bool {
        use BinaryOp as B;
        let op_ok = |op: &BinaryOp| {
            matches!(
                op,
                B::Add
                    | B::Mul
                    | B::Sub
                    | B::Div
                    | B::BitAnd
                    | B::BitXor
                    | B::BitOr
                    | B::Shl
                    | B::Shr
            )
        };
        match &strip(e).kind {
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PostInc | UnaryOp::PreDec | UnaryOp::PostDec,
                x,
            ) => self.atomic_var(x),
            ExprKind::Assign(Some(op), x, ex) => {
                op_ok(op) && self.atomic_var(x) && !accesses(ex, x)
            }
            ExprKind::Assign(None, x, rhs) => {
                self.atomic_var(x)
                    && match &strip(rhs).kind {
                        ExprKind::Binary(op, a, b) if op_ok(op) => {
                            (same_lvalue(a, x) && !accesses(b, x))
                                || (same_lvalue(b, x) && !accesses(a, x))
                        }
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    /// A `target` whose body holds a `teams` construct must hold nothing else.
    fn check_target_teams_alone(&mut self, body: &Stmt) {
        let StmtKind::Compound(b) = &body.kind else {
            return;
        };
        let mut teams = None;
        let mut others = 0;
        for item in &b.items {
            match item {
                BlockItem::Stmt(Stmt {
                    kind: StmtKind::Omp(d),
                    span,
                }) if first_word(d.kind) == "teams" => teams = Some(*span),
                BlockItem::Pragma(_) => {}
                BlockItem::Stmt(Stmt {
                    kind: StmtKind::Expr(None),
                    ..
                }) => {}
                _ => others += 1,
            }
        }
        if let Some(sp) = teams
            && others > 0
        {
            self.error(
                "E0616",
                "a 'target' construct that contains a 'teams' construct must not contain other statements or directives",
                sp,
            );
        }
    }

    /// Checks `collapse` nested loops in canonical form, perfectly nested.
    fn canonical_loop_nest(&mut self, d: &OmpDirective, body: &Stmt, depth: usize) {
        let mut cur = body;
        for level in 0..depth {
            let s = unwrap_single(cur);
            if let StmtKind::Omp(u) = &s.kind
                && u.kind == K::Unroll
                && d.kind != K::Unroll
            {
                // Only `unroll partial` generates a loop, and only one: it can be the
                // innermost loop of the nest. Its own loop is checked as its directive.
                if !super::unroll::has_clause(u, OmpClauseName::Partial) {
                    self.error(
                        "E0628",
                        format!("the loop of '#pragma omp {}' is an 'unroll' construct without 'partial', which generates no loop", d.kind),
                        u.name_span,
                    );
                } else if level + 1 < depth {
                    self.error(
                        "E0628",
                        format!("the loop generated by 'unroll partial' cannot be an outer loop of 'collapse({depth})'"),
                        u.name_span,
                    );
                }
                return;
            }
            let StmtKind::For(init, cond, step, inner) = &s.kind else {
                let msg = if level == 0 {
                    format!("'{}' directive must be followed by a 'for' loop", d.kind)
                } else {
                    format!(
                        "not enough perfectly nested loops for 'collapse({depth})': only {level} found"
                    )
                };
                self.error("E0620", msg, s.span);
                return;
            };
            if !self.canonical_for(init, cond.as_deref(), step.as_deref(), s.span) {
                return;
            }
            // the iteration variable may only change through the increment expression
            let var = match init {
                ForInit::Expr(e) => match &strip(e).kind {
                    ExprKind::Assign(None, l, _) => {
                        self.out.ident_symbols.get(&strip(l).id).copied()
                    }
                    _ => None,
                },
                _ => self.for_decl_symbol(init),
            };
            if let Some(var) = var {
                let mut roots = Vec::new();
                stmt_exprs(inner, &mut roots);
                if let Some(sp) = roots.iter().find_map(|e| modification(&self.out, e, var)) {
                    let n = self.out.symbols[var].name.clone();
                    self.error(
                        "E0625",
                        format!("iteration variable '{n}' of an OpenMP loop is modified in the loop body"),
                        sp,
                    );
                }
            }
            cur = inner;
        }
    }

    /// OpenMP 5.2 4.4.1 canonical loop form of one `for` header.
    fn canonical_for(
        &mut self,
        init: &ForInit,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        span: Span,
    ) -> bool {
        // init-expr: `var = lb` or `T var = lb`
        let var = match init {
            ForInit::Expr(e) => match &strip(e).kind {
                ExprKind::Assign(None, l, _) => match &strip(l).kind {
                    ExprKind::Ident(v) => Some(*v),
                    _ => None,
                },
                _ => None,
            },
            ForInit::Decl(decl) => match &decl.kind {
                DeclarationKind::Vars { declarators, .. } if declarators.len() == 1 => {
                    let d = &declarators[0];
                    d.init.as_ref().and(d.declarator.name).map(|n| n.name)
                }
                _ => None,
            },
            ForInit::None => None,
        };
        let Some(var) = var else {
            self.error(
                "E0621",
                "invalid initialization in OpenMP 'for' loop: expected 'var = lb' or a declaration with initializer",
                span,
            );
            return false;
        };
        // the variable must be of integer or pointer type
        if let Some(sym) = self.for_decl_symbol(init).or_else(|| self.lookup(var)) {
            let t = self.out.symbols[sym].ty;
            if !self.out.types.is_integer(t) && !self.out.types.is_pointer(t) {
                let s = self.ty_str(t);
                self.error(
                    "E0622",
                    format!("OpenMP loop iteration variable must have integer or pointer type (has '{s}')"),
                    span,
                );
                return false;
            }
        }
        let vname = self.name(var);
        // test-expr: `var relop b` or `b relop var`
        let test_ok = cond.is_some_and(|c| match &strip(c).kind {
            ExprKind::Binary(op, l, r) => {
                matches!(
                    op,
                    BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Ne
                ) && (is_var(l, var) != is_var(r, var))
            }
            _ => false,
        });
        if !test_ok {
            let sp = cond.map_or(span, |c| c.span);
            self.error(
                "E0623",
                format!(
                    "invalid controlling predicate in OpenMP loop: expected '{vname} relop bound'"
                ),
                sp,
            );
            return false;
        }
        // incr-expr
        let incr_ok = step.is_some_and(|st| match &strip(st).kind {
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PostInc | UnaryOp::PreDec | UnaryOp::PostDec,
                x,
            ) => is_var(x, var),
            ExprKind::Assign(Some(BinaryOp::Add | BinaryOp::Sub), l, r) => {
                is_var(l, var) && !mentions(r, var)
            }
            ExprKind::Assign(None, l, r) => {
                is_var(l, var)
                    && match &strip(r).kind {
                        ExprKind::Binary(BinaryOp::Add, a, b) => {
                            (is_var(a, var) && !mentions(b, var))
                                || (is_var(b, var) && !mentions(a, var))
                        }
                        ExprKind::Binary(BinaryOp::Sub, a, b) => {
                            is_var(a, var) && !mentions(b, var)
                        }
                        _ => false,
                    }
            }
            _ => false,
        });
        if !incr_ok {
            let sp = step.map_or(span, |s| s.span);
            self.error(
                "E0624",
                format!("invalid increment expression in OpenMP loop: expected '{vname}++', '{vname} += step' or similar"),
                sp,
            );
            return false;
        }
        true
    }

    fn for_decl_symbol(&self, init: &ForInit) -> Option<super::SymbolId> {
        match init {
            ForInit::Decl(decl) => match &decl.kind {
                DeclarationKind::Vars { declarators, .. } => declarators
                    .first()
                    .and_then(|d| self.out.decl_symbol(d.declarator.id)),
                _ => None,
            },
            _ => None,
        }
    }
}

fn strip(e: &Expr) -> &Expr {
    super::expr::strip_parens(e)
}

fn is_var(e: &Expr, var: ast::Symbol) -> bool {
    matches!(strip(e).kind, ExprKind::Ident(v) if v == var)
}

/// Whether `e` mentions `var` anywhere (a step or bound may not depend on the variable).
/// Whether `e` reads the storage `x` designates, as far as the syntax tells (OpenMP 5.2
/// 15.8.4: the expression of an atomic write or update "must not access the storage location
/// designated by x"): a variable `x` anywhere in `e`, or an lvalue written exactly as `x`
/// (`cost[v] + 1` does not access `cost[u]`; which elements alias at run time is the
/// program's responsibility, as in gcc).
fn accesses(e: &Expr, x: &Expr) -> bool {
    if let ExprKind::Ident(n) = &strip(x).kind {
        return mentions(e, *n);
    }
    if same_lvalue(e, x) {
        return true;
    }
    let any = |a: &Expr| accesses(a, x);
    match &e.kind {
        ExprKind::Paren(a)
        | ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::Member { base: a, .. } => any(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => any(a) || any(b),
        ExprKind::Cond(a, b, c) => any(a) || b.as_deref().is_some_and(any) || any(c),
        ExprKind::Call(f, args) => any(f) || args.iter().any(any),
        _ => false,
    }
}

/// Whether two expressions are written the same way (names, constants, subscripts, members,
/// dereferences and operators), so they designate the same storage.
fn same_lvalue(a: &Expr, b: &Expr) -> bool {
    match (&strip(a).kind, &strip(b).kind) {
        (ExprKind::Ident(x), ExprKind::Ident(y)) => x == y,
        (ExprKind::Int { value: x, .. }, ExprKind::Int { value: y, .. }) => x == y,
        (ExprKind::Index(a1, a2), ExprKind::Index(b1, b2)) => {
            same_lvalue(a1, b1) && same_lvalue(a2, b2)
        }
        (
            ExprKind::Member {
                base: ab,
                name: an,
                arrow: aa,
            },
            ExprKind::Member {
                base: bb,
                name: bn,
                arrow: ba,
            },
        ) => an.name == bn.name && aa == ba && same_lvalue(ab, bb),
        (ExprKind::Unary(oa, x), ExprKind::Unary(ob, y)) => {
            oa == ob
                && !matches!(
                    oa,
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                )
                && same_lvalue(x, y)
        }
        (ExprKind::Binary(oa, a1, a2), ExprKind::Binary(ob, b1, b2)) => {
            oa == ob && same_lvalue(a1, b1) && same_lvalue(a2, b2)
        }
        _ => false,
    }
}

fn mentions(e: &Expr, var: ast::Symbol) -> bool {
    match &e.kind {
        ExprKind::Ident(v) => *v == var,
        ExprKind::Paren(x)
        | ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::SizeofExpr(x)
        | ExprKind::AlignofExpr(x) => mentions(x, var),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => mentions(a, var) || mentions(b, var),
        ExprKind::Cond(a, b, c) => {
            mentions(a, var) || b.as_ref().is_some_and(|b| mentions(b, var)) || mentions(c, var)
        }
        ExprKind::Call(f, args) => mentions(f, var) || args.iter().any(|a| mentions(a, var)),
        ExprKind::Member { base, .. } => mentions(base, var),
        _ => false,
    }
}

/// A `{ stmt }` block holding one statement stands for that statement (perfect nesting).
pub(super) fn unwrap_single(s: &Stmt) -> &Stmt {
    match &s.kind {
        StmtKind::Compound(b) => {
            let stmts: Vec<&Stmt> = b
                .items
                .iter()
                .filter_map(|i| match i {
                    BlockItem::Stmt(s) => Some(s),
                    _ => None,
                })
                .collect();
            let only_stmts = b
                .items
                .iter()
                .all(|i| matches!(i, BlockItem::Stmt(_) | BlockItem::Pragma(_)));
            match stmts.as_slice() {
                [one] if only_stmts => unwrap_single(one),
                _ => s,
            }
        }
        _ => s,
    }
}

/// The variable an OpenMP list item names (`a`, `a[1:n]`, `s.m`, `p->m[0]`).
pub(super) fn base_symbol(unit: &super::TypedUnit, e: &Expr) -> Option<super::SymbolId> {
    match &strip(e).kind {
        ExprKind::Ident(_) => unit.ident_symbols.get(&strip(e).id).copied(),
        ExprKind::ArraySection { base, .. } | ExprKind::Index(base, _) => base_symbol(unit, base),
        ExprKind::Member { base, .. } => base_symbol(unit, base),
        ExprKind::Unary(UnaryOp::Deref, x) => base_symbol(unit, x),
        _ => None,
    }
}

/// The root expressions of a statement and everything nested in it.
fn stmt_exprs<'s>(s: &'s Stmt, out: &mut Vec<&'s Expr>) {
    match &s.kind {
        StmtKind::Labeled(_, b) | StmtKind::Default(b) => stmt_exprs(b, out),
        StmtKind::Case(_, _, b) => stmt_exprs(b, out),
        StmtKind::Compound(b) => block_exprs(&b.items, out),
        StmtKind::Expr(Some(e)) | StmtKind::Return(Some(e)) | StmtKind::GotoIndirect(e) => {
            out.push(e)
        }
        StmtKind::If(c, t, f) => {
            out.push(c);
            stmt_exprs(t, out);
            if let Some(f) = f {
                stmt_exprs(f, out);
            }
        }
        StmtKind::Switch(c, b) | StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            out.push(c);
            stmt_exprs(b, out);
        }
        StmtKind::For(init, c, st, b) => {
            match init {
                ForInit::Expr(e) => out.push(e),
                ForInit::Decl(d) => decl_exprs(d, out),
                ForInit::None => {}
            }
            out.extend(c.iter().map(|x| &**x));
            out.extend(st.iter().map(|x| &**x));
            stmt_exprs(b, out);
        }
        StmtKind::Omp(d) => {
            if let Some(b) = &d.body {
                stmt_exprs(b, out);
            }
        }
        _ => {}
    }
}

fn block_exprs<'s>(items: &'s [BlockItem], out: &mut Vec<&'s Expr>) {
    for i in items {
        match i {
            BlockItem::Stmt(s) => stmt_exprs(s, out),
            BlockItem::Decl(d) => decl_exprs(d, out),
            _ => {}
        }
    }
}

fn decl_exprs<'s>(d: &'s ast::Declaration, out: &mut Vec<&'s Expr>) {
    if let DeclarationKind::Vars { declarators, .. } = &d.kind {
        for id in declarators {
            if let Some(ast::Initializer::Expr(e)) = &id.init {
                out.push(e);
            }
        }
    }
}

/// Where `e` assigns to or increments the variable `var`, if it does.
fn modification(unit: &super::TypedUnit, e: &Expr, var: super::SymbolId) -> Option<Span> {
    let is = |x: &Expr| unit.ident_symbols.get(&strip(x).id) == Some(&var);
    match &e.kind {
        ExprKind::Assign(_, l, r) => {
            if is(l) {
                return Some(e.span);
            }
            modification(unit, l, var).or_else(|| modification(unit, r, var))
        }
        ExprKind::Unary(
            UnaryOp::PreInc | UnaryOp::PostInc | UnaryOp::PreDec | UnaryOp::PostDec,
            x,
        ) if is(x) => Some(e.span),
        ExprKind::Paren(x)
        | ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::Member { base: x, .. } => modification(unit, x, var),
        ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) | ExprKind::Index(a, b) => {
            modification(unit, a, var).or_else(|| modification(unit, b, var))
        }
        ExprKind::Cond(a, b, c) => modification(unit, a, var)
            .or_else(|| b.as_ref().and_then(|b| modification(unit, b, var)))
            .or_else(|| modification(unit, c, var)),
        ExprKind::Call(f, args) => modification(unit, f, var)
            .or_else(|| args.iter().find_map(|a| modification(unit, a, var))),
        ExprKind::StmtExpr(b) => {
            let mut roots = Vec::new();
            block_exprs(&b.items, &mut roots);
            roots.iter().find_map(|x| modification(unit, x, var))
        }
        _ => None,
    }
}
