//! The main walk over one function: loops (canonical form), regions, bases and accesses with
//! their subscripts, and call sites with their effects. Runs after the pre-scan
//! ([`crate::scan`]), so every "is this variable written in that loop" question has its
//! answer when the walk reaches a subscript.
//!
//! Subscripts are converted by [`Walker::conv`] (`conv.rs`): an atom is a loop variable of a
//! canonical enclosing loop, or a variable no enclosing loop writes; anything else is an
//! [`Unknown`] with its reason. Address expressions (`a`, `p + k`, `&a[i][0]`, `s->p`) are
//! resolved by [`Walker::addr`] into a base and a list of subscripts, one per dimension
//! reached so far; an element access completes that list.

use ompcc_diag::Span;
use ompcc_sema::types::{ArraySize, QualType, TypeKind};
use ompcc_sema::{Storage, SymbolId, TypedUnit};
use ompcc_syntax::ast::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::model::*;
use crate::scan::{Env, Scan};
use crate::sym::SymExpr;
use crate::walk::strip_parens;

/// Identity of a base inside one function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BaseKey {
    /// A variable (array, pointer, or global scalar).
    Var(SymbolId),
    /// `s.p`, `s->p`, `s->a.p`: the root variable and the member path text.
    Member(SymbolId, String),
    /// An untraced address (one per occurrence).
    Unknown(u32),
}

/// An address: a base, and one subscript per dimension reached (the last one is where the
/// pointer points; `a` decays to `[0]`).
#[derive(Clone, Debug)]
pub(crate) struct Addr {
    pub key: BaseKey,
    pub subs: Vec<Fact<SymExpr>>,
    /// The type of the base expression (for dimensions and extents).
    pub base_ty: Option<QualType>,
}

/// A local pointer defined once by an address expression (`double *row = a + i*n;`).
pub(crate) struct Derived {
    pub addr: Addr,
}

/// The walker's state for one function.
pub(crate) struct Walker<'a, 'u> {
    pub tu: &'u TranslationUnit,
    pub unit: &'u TypedUnit,
    pub scan: Scan<'a>,
    pub summaries: &'u FxHashMap<SymbolId, Summary>,
    pub recursive: &'u FxHashSet<SymbolId>,
    pub global_addr_taken: &'u FxHashSet<SymbolId>,
    pub out: FunctionAccesses,
    pub loop_stack: Vec<LoopId>,
    pub region_stack: Vec<RegionId>,
    /// Loops that `break` leaves (`None` entries are `switch` statements).
    breakable: Vec<Option<LoopId>>,
    /// The OpenMP loop directive waiting for its loop: name, collapse, level.
    pending_omp: Option<(String, u32, u32)>,
    /// Current block spans, innermost last.
    blocks: Vec<Span>,
    pub base_map: FxHashMap<BaseKey, BaseId>,
    pub derived: FxHashMap<SymbolId, Derived>,
    /// Single-definition integer locals: their value at the definition.
    pub defs: FxHashMap<SymbolId, SymExpr>,
    /// Single-definition local pointers from an address not followed: the base's name.
    addr_defs: FxHashMap<SymbolId, String>,
    unknown_count: u32,
    /// Bounds on loop variables from the conditions around the current point.
    pub guards: Vec<Guard>,
    /// The arm each conditional subscript takes in the access being recorded (its span,
    /// then-arm): see [`Walker::record`].
    pub cond_arms: Vec<(Span, bool)>,
}

impl<'a, 'u> Walker<'a, 'u> {
    pub fn new(
        tu: &'u TranslationUnit,
        unit: &'u TypedUnit,
        scan: Scan<'a>,
        summaries: &'u FxHashMap<SymbolId, Summary>,
        recursive: &'u FxHashSet<SymbolId>,
        global_addr_taken: &'u FxHashSet<SymbolId>,
        out: FunctionAccesses,
    ) -> Self {
        Walker {
            tu,
            unit,
            scan,
            summaries,
            recursive,
            global_addr_taken,
            out,
            loop_stack: Vec::new(),
            region_stack: Vec::new(),
            breakable: Vec::new(),
            pending_omp: None,
            blocks: Vec::new(),
            base_map: FxHashMap::default(),
            derived: FxHashMap::default(),
            defs: FxHashMap::default(),
            addr_defs: FxHashMap::default(),
            unknown_count: 0,
            guards: Vec::new(),
            cond_arms: Vec::new(),
        }
    }

    pub fn env(&self) -> &Env {
        &self.scan.env
    }

    pub fn sym_name(&self, s: SymbolId) -> String {
        self.unit.symbols[s].name.clone()
    }

    /// The symbol an identifier expression names.
    pub fn ident(&self, e: &Expr) -> Option<SymbolId> {
        self.unit.ident_symbols.get(&e.id).copied()
    }

    /// The type of an expression as its context uses it (after decay).
    pub fn conv_ty(&self, e: &Expr) -> Option<QualType> {
        self.unit.expr(e.id).map(|i| i.conv)
    }

    /// The expression's own type.
    pub fn own_ty(&self, e: &Expr) -> Option<QualType> {
        self.unit.expr(e.id).map(|i| i.ty)
    }

    pub fn is_ptr(&self, e: &Expr) -> bool {
        self.conv_ty(e)
            .is_some_and(|t| self.unit.types.is_pointer(t))
    }

    /// A global changes in `span` by a call, or by a store through a pointer of a type that
    /// may alias it (C11 6.5p7) unless nothing can point to it (internal linkage, address
    /// never taken in the unit).
    pub fn global_may_change(&self, v: SymbolId, span: Span) -> bool {
        let info = &self.unit.symbols[v];
        let unreachable =
            info.linkage != ompcc_sema::Linkage::External && !self.global_addr_taken.contains(&v);
        if unreachable {
            return self.env().call_writes_in(v, span.lo, span.hi);
        }
        let class = crate::scan::AliasClass::of(self.unit, info.ty);
        self.env().global_may_change(v, class, span.lo, span.hi)
    }

    pub fn is_global(&self, s: SymbolId) -> bool {
        self.unit.symbols[s].storage != Storage::Automatic
    }

    // ----- statements -------------------------------------------------------------------

    pub fn block(&mut self, b: &'a Block) {
        self.blocks.push(b.span);
        for item in &b.items {
            match item {
                BlockItem::Decl(d) => self.decl(d),
                BlockItem::Stmt(s) => self.stmt(s),
                BlockItem::Pragma(_) | BlockItem::LocalLabels(..) => {}
            }
        }
        self.blocks.pop();
    }

    fn decl(&mut self, d: &'a Declaration) {
        let DeclarationKind::Vars { declarators, .. } = &d.kind else {
            return;
        };
        for id in declarators {
            let Some(init) = &id.init else { continue };
            let sym = self.unit.decl_symbol(id.declarator.id);
            match init {
                Initializer::Expr(e) => {
                    if let Some(s) = sym
                        && self.try_derived(s, e, id.declarator.span)
                    {
                        continue;
                    }
                    if let Some(s) = sym
                        && self.unit.types.is_pointer(self.unit.symbols[s].ty)
                        && self.env().writes.get(&s).is_some_and(|w| w.len() == 1)
                        && let Ok(a) = self.addr(e)
                    {
                        let name = self.key_text(&a.key);
                        self.addr_defs.insert(s, name);
                    }
                    if let Some(s) = sym
                        && self.single_def_int(s)
                        && let Ok(v) = self.conv(e)
                    {
                        // its variables must keep their values to the end of the block
                        let end = self.blocks.last().map_or(e.span.hi, |b| b.hi);
                        let lo = id.declarator.span.lo + 1;
                        if v.vars().iter().all(|x| !self.env().written_in(*x, lo, end)) {
                            self.defs.insert(s, v);
                        }
                    }
                    if let Some(s) = sym
                        && self.scan.allocs.contains_key(&s)
                    {
                        // the allocation call: its arguments are reads
                        self.expr(e, Use::Discard);
                    } else {
                        self.expr(e, Use::Read);
                    }
                }
                Initializer::List(l) => self.init_list(l),
            }
        }
    }

    fn single_def_int(&self, s: SymbolId) -> bool {
        let info = &self.unit.symbols[s];
        info.storage == Storage::Automatic
            && self.unit.types.int_kind(info.ty).is_some()
            && self.env().writes.get(&s).is_some_and(|w| w.len() == 1)
            && !self.env().addr_taken.contains(&s)
    }

    /// `T *p = <address>;` for a local pointer never written again: its accesses resolve to
    /// the address's base. The offset's variables must keep their values to the end of the
    /// block.
    fn try_derived(&mut self, s: SymbolId, e: &'a Expr, at: Span) -> bool {
        let info = &self.unit.symbols[s];
        if info.storage != Storage::Automatic
            || !self.unit.types.is_pointer(info.ty)
            || self.env().writes.get(&s).is_none_or(|w| w.len() != 1)
            || self.env().addr_taken.contains(&s)
            || self.scan.allocs.contains_key(&s)
        {
            return false;
        }
        // the pointee types must agree, or the subscripts would mean other elements
        let same = match (self.conv_ty(e), Some(info.ty)) {
            (Some(a), Some(b)) => self.same_pointee(a, b),
            _ => false,
        };
        if !same {
            return false;
        }
        let Ok(addr) = self.addr(e) else {
            return false;
        };
        let end = self.blocks.last().map_or(at.hi, |b| b.hi);
        for sub in &addr.subs {
            let Ok(x) = sub else { return false };
            for v in x.vars() {
                if self.env().written_in(v, at.lo + 1, end) || self.env().addr_taken.contains(&v) {
                    return false;
                }
            }
        }
        if let BaseKey::Var(b) = &addr.key
            && self.env().written_in(*b, at.lo + 1, end)
        {
            return false;
        }
        self.addr_operands(e);
        self.derived.insert(s, Derived { addr });
        true
    }

    fn same_pointee(&self, a: QualType, b: QualType) -> bool {
        let t = &self.unit.types;
        match (t.pointee(a), t.pointee(b)) {
            (Some(x), Some(y)) => t.canon(x).ty == t.canon(y).ty,
            _ => false,
        }
    }

    fn init_list(&mut self, l: &'a InitList) {
        for item in &l.items {
            match &item.init {
                Initializer::Expr(e) => self.expr(e, Use::Read),
                Initializer::List(l) => self.init_list(l),
            }
        }
    }

    pub fn stmt(&mut self, s: &'a Stmt) {
        if !matches!(s.kind, StmtKind::For(..) | StmtKind::Compound(_)) {
            self.pending_omp = None;
        }
        match &s.kind {
            StmtKind::Labeled(_, x) | StmtKind::Default(x) | StmtKind::Case(_, _, x) => {
                self.stmt(x)
            }
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Expr(e) => {
                if let Some(e) = e {
                    self.expr(e, Use::Discard);
                }
            }
            StmtKind::If(c, t, e) => {
                self.expr(c, Use::Read);
                let n = self.push_guards(c, false);
                self.stmt(t);
                self.guards.truncate(self.guards.len() - n);
                if let Some(e) = e {
                    let n = self.push_guards(c, true);
                    self.stmt(e);
                    self.guards.truncate(self.guards.len() - n);
                }
            }
            StmtKind::Switch(c, b) => {
                self.expr(c, Use::Read);
                self.breakable.push(None);
                self.stmt(b);
                self.breakable.pop();
            }
            StmtKind::While(c, b) => {
                let id = self.push_loop(
                    s,
                    b.span,
                    Err(Unknown::new(
                        Reason::LoopNotCanonical("a while loop"),
                        s.span,
                    )),
                );
                self.expr(c, Use::Read);
                self.stmt(b);
                self.pop_loop(id);
            }
            StmtKind::DoWhile(b, c) => {
                let id = self.push_loop(
                    s,
                    b.span,
                    Err(Unknown::new(
                        Reason::LoopNotCanonical("a do-while loop"),
                        s.span,
                    )),
                );
                self.stmt(b);
                self.expr(c, Use::Read);
                self.pop_loop(id);
            }
            StmtKind::For(init, cond, step, body) => {
                let form = self.canonical(s, init, cond.as_deref(), step.as_deref(), body);
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(e, Use::Discard),
                    ForInit::Decl(d) => self.decl(d),
                }
                let id = self.push_loop(s, body.span, form);
                if let Some(c) = cond {
                    self.expr(c, Use::Read);
                }
                if let Some(st) = step {
                    self.expr(st, Use::Discard);
                }
                self.stmt(body);
                self.pop_loop(id);
            }
            StmtKind::Break => {
                if let Some(Some(l)) = self.breakable.last() {
                    self.out.loops[l.0 as usize].early_exit = true;
                }
            }
            StmtKind::Goto(_) | StmtKind::Return(None) => self.exit_all(),
            StmtKind::Return(Some(e)) => {
                self.exit_all();
                self.expr(e, Use::Read);
            }
            StmtKind::GotoIndirect(e) => {
                self.exit_all();
                self.expr(e, Use::Read);
            }
            StmtKind::Continue => {}
            StmtKind::Asm(a) => {
                for op in &a.outputs {
                    self.lhs(&op.expr, AccessKind::Write);
                }
                for op in &a.inputs {
                    self.expr(&op.expr, Use::Read);
                }
            }
            StmtKind::Omp(d) => self.omp(d, s),
        }
    }

    fn exit_all(&mut self) {
        for l in self.loop_stack.clone() {
            self.out.loops[l.0 as usize].early_exit = true;
        }
    }

    fn push_loop(&mut self, s: &Stmt, body: Span, form: Fact<Canonical>) -> LoopId {
        let id = LoopId(self.out.loops.len() as u32);
        let (omp, collapse) = match self.pending_omp.take() {
            Some((name, collapse, level)) => {
                if level + 1 < collapse {
                    self.pending_omp = Some((name.clone(), collapse, level + 1));
                }
                (Some((name, level)), collapse)
            }
            None => (None, 1),
        };
        self.out.loops.push(Loop {
            id,
            span: s.span,
            body,
            parent: self.loop_stack.last().copied(),
            region: self.region_stack.last().copied(),
            form,
            omp,
            collapse,
            early_exit: false,
            scalars_written: self.scalars_written_in(s.span),
        });
        self.loop_stack.push(id);
        self.breakable.push(Some(id));
        id
    }

    fn pop_loop(&mut self, _id: LoopId) {
        self.loop_stack.pop();
        self.breakable.pop();
    }

    /// Scalars declared outside `span` and written inside it, sorted by name.
    fn scalars_written_in(&self, span: Span) -> Vec<SymbolId> {
        let mut out: Vec<SymbolId> = self
            .env()
            .writes
            .iter()
            .filter(|(s, ps)| {
                let info = &self.unit.symbols[**s];
                let decl = info.span.lo;
                (decl < span.lo || decl >= span.hi)
                    && self.unit.types.is_scalar(info.ty)
                    && ps.iter().any(|&p| p >= span.lo && p < span.hi)
            })
            .map(|(s, _)| *s)
            .collect();
        out.sort_by(|a, b| {
            (&self.unit.symbols[*a].name, *a).cmp(&(&self.unit.symbols[*b].name, *b))
        });
        out
    }

    fn omp(&mut self, d: &'a OmpDirective, s: &'a Stmt) {
        let words = d.kind.words();
        let is_region = (words.first() == Some(&"target")
            && !matches!(words.get(1), Some(&"data" | &"enter" | &"exit" | &"update")))
            || words.contains(&"parallel");
        let is_loop = words
            .iter()
            .any(|w| matches!(*w, "for" | "loop" | "distribute" | "simd" | "taskloop"));
        let region = is_region.then(|| {
            let id = RegionId(self.out.regions.len() as u32);
            self.out.regions.push(Region {
                id,
                directive: d.name(),
                span: s.span,
                parent: self.region_stack.last().copied(),
                scalars_written: self.scalars_written_in(s.span),
            });
            id
        });
        if let Some(r) = region {
            self.region_stack.push(r);
        }
        if let Some(body) = &d.body {
            let pending = is_loop.then(|| (d.name(), collapse_of(self.unit, d), 0));
            // `omp unroll` and friends pass a pending directive through to the loop
            if pending.is_some() {
                self.pending_omp = pending;
            }
            self.stmt_keep_pending(body);
        }
        if region.is_some() {
            self.region_stack.pop();
        }
    }

    /// Like [`Walker::stmt`] for a directive's body: the pending loop directive survives
    /// nested directives (`parallel for` inside `target teams distribute`...) .
    fn stmt_keep_pending(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Omp(d) => self.omp(d, s),
            _ => self.stmt(s),
        }
    }

    // ----- loops ------------------------------------------------------------------------

    fn canonical(
        &mut self,
        s: &'a Stmt,
        init: &'a ForInit,
        cond: Option<&'a Expr>,
        step: Option<&'a Expr>,
        body: &'a Stmt,
    ) -> Fact<Canonical> {
        let bad = |why: &'static str| Err(Unknown::new(Reason::LoopNotCanonical(why), s.span));
        let (var, lb) = match init {
            ForInit::Decl(d) => match &d.kind {
                DeclarationKind::Vars { declarators, .. } if declarators.len() == 1 => {
                    match (
                        &declarators[0].init,
                        self.unit.decl_symbol(declarators[0].declarator.id),
                    ) {
                        (Some(Initializer::Expr(e)), Some(v)) => (v, &**e),
                        _ => return bad("the init is not 'i = lb'"),
                    }
                }
                _ => return bad("the init is not 'i = lb'"),
            },
            ForInit::Expr(e) => match &strip_parens(e).kind {
                ExprKind::Assign(None, l, r) => match strip_parens(l).kind {
                    ExprKind::Ident(_) => match self.ident(strip_parens(l)) {
                        Some(v) => (v, &**r),
                        None => return bad("the init is not 'i = lb'"),
                    },
                    _ => return bad("the init is not 'i = lb'"),
                },
                _ => return bad("the init is not 'i = lb'"),
            },
            ForInit::None => return bad("no init"),
        };
        let name = self.sym_name(var);
        let info = &self.unit.symbols[var];
        let Some(kind) = self.unit.types.int_kind(info.ty) else {
            return Err(Unknown::new(Reason::NotInteger(name), s.span));
        };
        if kind.size() < 4 {
            // a narrow counter may wrap before it reaches the bound
            return bad("the loop variable is narrower than int");
        }
        if self.env().addr_taken.contains(&var) || self.global_addr_taken.contains(&var) {
            return Err(Unknown::new(Reason::AddressTaken(name), s.span));
        }
        if self.env().written_in(var, body.span.lo, body.span.hi)
            || (self.is_global(var) && self.global_may_change(var, body.span))
        {
            return Err(Unknown::new(Reason::LoopVarWritten(name), body.span));
        }
        let Some(step) = step else {
            return bad("no step");
        };
        let step = match self.step_of(var, step) {
            Some(Ok(c)) => c,
            Some(Err(u)) => return Err(u),
            None => return bad("the step is not 'i++', 'i--', 'i += c' or 'i -= c'"),
        };
        let Some(cond) = cond else {
            return bad("no test");
        };
        let (op, bound) = match &strip_parens(cond).kind {
            ExprKind::Binary(op, l, r) if self.is_var(l, var) => (*op, &**r),
            ExprKind::Binary(op, l, r) if self.is_var(r, var) => {
                let swapped = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Ge => BinaryOp::Le,
                    o => *o,
                };
                (swapped, &**l)
            }
            _ => return bad("the test does not compare the loop variable"),
        };
        let op = match (op, step) {
            (BinaryOp::Ne, 1) => BinaryOp::Lt,
            (BinaryOp::Ne, -1) => BinaryOp::Gt,
            (o, _) => o,
        };
        let lb = self.conv_outside(lb, var, s.span)?;
        let ub = self.conv_outside(bound, var, s.span)?;
        if !kind.is_signed()
            && step < 0
            && op == BinaryOp::Ge
            && ub.as_const().is_none_or(|c| c < 1)
        {
            // `i >= 0` on an unsigned counter going down holds again after it wraps
            return bad("an unsigned variable counting down to '>=' a bound that may be 0");
        }
        let ovf = || Unknown::new(Reason::Overflow, s.span);
        let (lo, hi) = match (op, step > 0) {
            (BinaryOp::Lt, true) => (lb, ub.add_const(-1).ok_or_else(ovf)?),
            (BinaryOp::Le, true) => (lb, ub),
            (BinaryOp::Gt, false) => (ub.add_const(1).ok_or_else(ovf)?, lb),
            (BinaryOp::Ge, false) => (ub, lb),
            _ => return bad("the test and the step disagree"),
        };
        Ok(Canonical { var, lo, hi, step })
    }

    fn is_var(&self, e: &Expr, v: SymbolId) -> bool {
        let e = strip_parens(e);
        matches!(e.kind, ExprKind::Ident(_)) && self.ident(e) == Some(v)
    }

    fn step_of(&self, var: SymbolId, e: &Expr) -> Option<Fact<i64>> {
        let e = strip_parens(e);
        let constant = |x: &Expr| -> Fact<i64> {
            match ompcc_sema::fold(self.unit, x) {
                Some(ompcc_sema::consteval::ConstValue::Int(c)) if c.value != 0 => {
                    i64::try_from(c.value).map_err(|_| Unknown::new(Reason::Overflow, x.span))
                }
                _ => Err(Unknown::new(Reason::NonConstantStep, x.span)),
            }
        };
        match &e.kind {
            ExprKind::Unary(UnaryOp::PreInc | UnaryOp::PostInc, x) if self.is_var(x, var) => {
                Some(Ok(1))
            }
            ExprKind::Unary(UnaryOp::PreDec | UnaryOp::PostDec, x) if self.is_var(x, var) => {
                Some(Ok(-1))
            }
            ExprKind::Assign(Some(BinaryOp::Add), l, r) if self.is_var(l, var) => Some(constant(r)),
            ExprKind::Assign(Some(BinaryOp::Sub), l, r) if self.is_var(l, var) => {
                Some(constant(r).and_then(|c| {
                    c.checked_neg()
                        .ok_or_else(|| Unknown::new(Reason::Overflow, r.span))
                }))
            }
            ExprKind::Assign(None, l, r) if self.is_var(l, var) => match &strip_parens(r).kind {
                ExprKind::Binary(BinaryOp::Add, a, b) if self.is_var(a, var) => Some(constant(b)),
                ExprKind::Binary(BinaryOp::Add, a, b) if self.is_var(b, var) => Some(constant(a)),
                ExprKind::Binary(BinaryOp::Sub, a, b) if self.is_var(a, var) => {
                    Some(constant(b).and_then(|c| {
                        c.checked_neg()
                            .ok_or_else(|| Unknown::new(Reason::Overflow, b.span))
                    }))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// A loop bound: converted in the loop's enclosing context, and invariant in the loop.
    fn conv_outside(&mut self, e: &Expr, var: SymbolId, loop_span: Span) -> Fact<SymExpr> {
        let x = self.conv(e)?;
        for v in x.vars() {
            let name = self.sym_name(v);
            if v == var
                || self.env().written_in(v, loop_span.lo, loop_span.hi)
                || (self.is_global(v) && self.global_may_change(v, loop_span))
            {
                return Err(Unknown::new(Reason::BoundNotInvariant(name), e.span));
            }
        }
        Ok(x)
    }

    // ----- bases ------------------------------------------------------------------------

    /// The base for `key`, created on first use. `ty` is the type of the base expression.
    pub fn base_of(&mut self, key: &BaseKey, ty: Option<QualType>, text: &str) -> BaseId {
        if let Some(&b) = self.base_map.get(key) {
            return b;
        }
        let id = BaseId(self.out.bases.len() as u32);
        let base = self.make_base(id, key, ty, text);
        self.out.bases.push(base);
        self.base_map.insert(key.clone(), id);
        id
    }

    fn make_base(&mut self, id: BaseId, key: &BaseKey, ty: Option<QualType>, text: &str) -> Base {
        let t = &self.unit.types;
        let (dims, extents, elem_ty) = match ty {
            Some(ty) => self.shape(ty),
            None => (1, Vec::new(), None),
        };
        let elem = elem_ty.map_or_else(|| "?".to_string(), |e| t.display(e));
        let elem_size = elem_ty.and_then(|e| t.size_of(e));
        let elem_class = elem_ty.map(|e| crate::scan::AliasClass::of(self.unit, e));
        let const_pointee = ty
            .and_then(|ty| t.pointee(ty).or_else(|| t.array_elem(ty)))
            .is_some_and(|p| t.canon(p).quals.contains(ompcc_sema::types::Quals::CONST));
        let restrict = ty.is_some_and(|ty| {
            t.canon(ty)
                .quals
                .contains(ompcc_sema::types::Quals::RESTRICT)
        });
        let (name, root, kind) = match key {
            BaseKey::Var(s) => {
                let info = &self.unit.symbols[*s];
                let kind = if t.is_array(info.ty) {
                    BaseKind::Array {
                        global: self.is_global(*s),
                    }
                } else if t.is_pointer(info.ty) {
                    BaseKind::Pointer(self.provenance(*s))
                } else {
                    BaseKind::GlobalScalar
                };
                (info.name.clone(), Some(*s), kind)
            }
            BaseKey::Member(root, path) => (
                format!("{}{}", self.unit.symbols[*root].name, path),
                Some(*root),
                BaseKind::Member,
            ),
            BaseKey::Unknown(_) => (
                format!("?{}", text),
                None,
                BaseKind::Unknown(Unknown::new(Reason::UnknownBase, Span::default())),
            ),
        };
        let (dims, extents) = if matches!(kind, BaseKind::GlobalScalar) {
            (0, Vec::new())
        } else {
            (dims, extents)
        };
        Base {
            id,
            name,
            root,
            kind,
            dims,
            extents,
            elem,
            elem_size,
            restrict,
            const_pointee,
            escapes: None,
            elem_class,
        }
    }

    /// Dimensions, extents after the first, element type of a base of type `ty`.
    fn shape(&mut self, ty: QualType) -> (usize, Vec<Fact<SymExpr>>, Option<QualType>) {
        let t = &self.unit.types;
        let (mut dims, mut cur) = match t.pointee(ty) {
            Some(p) => (1, p),
            None => match t.ckind(ty) {
                TypeKind::Array { elem, .. } => (1, *elem),
                _ => return (0, Vec::new(), Some(ty)),
            },
        };
        let mut extents = Vec::new();
        while let TypeKind::Array { size, elem, .. } = self.unit.types.ckind(cur) {
            let (size, elem) = (*size, *elem);
            dims += 1;
            extents.push(self.extent(size));
            cur = elem;
        }
        (dims, extents, Some(cur))
    }

    pub fn extent(&self, size: ArraySize) -> Fact<SymExpr> {
        let span = self.out.span;
        match size {
            ArraySize::Fixed(n) => i64::try_from(n)
                .map(SymExpr::int)
                .map_err(|_| Unknown::new(Reason::Overflow, span)),
            ArraySize::Vla(v) => {
                let e = self
                    .unit
                    .vla_sizes
                    .get(&v)
                    .and_then(|id| self.scan.sizes.get(id).copied())
                    .ok_or_else(|| Unknown::new(Reason::NonAffine("array size"), span))?;
                let x = self.conv_plain(e)?;
                // the size was evaluated at the declaration: its variables must not change
                for v in x.vars() {
                    if self.env().written_in(v, self.out.body.lo, self.out.body.hi) {
                        return Err(Unknown::new(
                            Reason::WrittenInScope(self.sym_name(v)),
                            e.span,
                        ));
                    }
                }
                Ok(x)
            }
            ArraySize::Incomplete | ArraySize::Star => {
                Err(Unknown::new(Reason::NonAffine("array size"), span))
            }
        }
    }

    fn provenance(&mut self, s: SymbolId) -> Provenance {
        let info = &self.unit.symbols[s];
        if info.is_param {
            let idx = self
                .out
                .params
                .iter()
                .position(|p| *p == Some(s))
                .unwrap_or(0);
            return Provenance::Param(idx);
        }
        if self.is_global(s) {
            return Provenance::Global;
        }
        if let Some((call, func)) = self.scan.allocs.get(&s).map(|(c, f)| (*c, f.clone())) {
            let bytes = self.alloc_bytes(call, &func);
            let pointee = self.unit.types.pointee(info.ty);
            let elems = match (&bytes, &pointee.map(|p| self.sizeof(p, call))) {
                (Ok(b), Some(Ok(sz))) => b
                    .div_exact(sz)
                    .ok_or_else(|| Unknown::new(Reason::ByteCount, call.span)),
                (Err(u), _) | (_, Some(Err(u))) => Err(u.clone()),
                _ => Err(Unknown::new(Reason::ByteCount, call.span)),
            };
            return Provenance::Alloc {
                func,
                call: call.span,
                bytes,
                elems,
            };
        }
        if let Some(name) = self.addr_defs.get(&s) {
            return Provenance::AddressOf(name.clone());
        }
        let n = self.env().writes.get(&s).map_or(0, Vec::len);
        let reason = if n > 1 {
            Reason::PointerReassigned(info.name.clone())
        } else {
            Reason::UntracedPointer(info.name.clone())
        };
        Provenance::Unknown(Unknown::new(reason, info.span))
    }

    fn alloc_bytes(&mut self, call: &Expr, func: &str) -> Fact<SymExpr> {
        let mut e = strip_parens(call);
        while let ExprKind::Cast(_, x) = &e.kind {
            e = strip_parens(x);
        }
        let ExprKind::Call(_, args) = &e.kind else {
            return Err(Unknown::new(Reason::UnknownBase, call.span));
        };
        let arg = |k: usize| {
            args.get(k)
                .ok_or_else(|| Unknown::new(Reason::NonAffine("allocation size"), call.span))
        };
        match func {
            "malloc" => self.conv_plain(arg(0)?),
            "calloc" => {
                let n = self.conv_plain(arg(0)?)?;
                let sz = self.conv_plain(arg(1)?)?;
                n.mul(&sz)
                    .ok_or_else(|| Unknown::new(Reason::Overflow, call.span))
            }
            _ => self.conv_plain(arg(1)?),
        }
    }

    /// A fresh unknown base for an untraced address.
    pub fn unknown_base(&mut self, u: Unknown) -> BaseId {
        self.unknown_count += 1;
        let key = BaseKey::Unknown(self.unknown_count);
        let id = self.base_of(&key, None, &self.unknown_count.to_string());
        self.out.bases[id.0 as usize].kind = BaseKind::Unknown(u);
        id
    }

    /// Marks the base of an address value as escaping.
    pub fn escape(&mut self, e: &Expr) {
        let t = &self.unit.types;
        if self
            .conv_ty(e)
            .and_then(|ty| t.pointee(ty))
            .is_some_and(|p| t.is_function(p))
        {
            return;
        }
        if let Ok(a) = self.addr(e) {
            let name = self.key_text(&a.key);
            let b = self.base_of(&a.key, a.base_ty, &name);
            let base = &mut self.out.bases[b.0 as usize];
            if base.escapes.is_none() {
                base.escapes = Some(Unknown::new(Reason::Escapes(base.name.clone()), e.span));
            }
        }
    }

    pub fn key_text(&self, k: &BaseKey) -> String {
        match k {
            BaseKey::Var(s) => self.sym_name(*s),
            BaseKey::Member(r, p) => format!("{}{}", self.sym_name(*r), p),
            BaseKey::Unknown(n) => format!("?{n}"),
        }
    }
}

/// How an expression's value is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// Its value is used.
    Read,
    /// Evaluated for its side effects only.
    Discard,
}

/// The `collapse` argument of a loop directive (1 without one).
pub(crate) fn collapse_of(unit: &TypedUnit, d: &OmpDirective) -> u32 {
    d.clauses
        .iter()
        .find(|c| c.name == OmpClauseName::Collapse)
        .and_then(|c| match &c.kind {
            OmpClauseKind::Expr(e) => match ompcc_sema::fold(unit, e) {
                Some(ompcc_sema::consteval::ConstValue::Int(i)) => u32::try_from(i.value).ok(),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or(1)
        .clamp(1, 64)
}
