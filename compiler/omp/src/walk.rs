//! A read-only walk over a statement: every expression (those in declarators, type names,
//! initializers and OpenMP clauses included), every declarator and every OpenMP directive, in
//! source order, parents before children. The analysis uses it to find what a region
//! references and declares.

use ompcc_syntax::ast::*;

/// One node the walk visits.
#[derive(Clone, Copy)]
pub enum Node<'a> {
    /// An expression (its subexpressions follow).
    Expr(&'a Expr),
    /// A declarator (parameters of function declarators included).
    Declarator(&'a Declarator),
    /// An OpenMP directive (its clause expressions and body follow).
    Directive(&'a OmpDirective),
}

/// Calls `f` on every node of `s`.
pub fn stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(Node<'a>)) {
    Walker { f }.stmt(s);
}

/// `e` has no side effects (no call, assignment, increment, comma or statement expression)
/// and names none of `avoid`: evaluating it once more, or once instead of repeatedly while
/// nothing it reads changes, gives the same value.
pub fn pure_expr(typed: &ompcc_sema::TypedUnit, e: &Expr, avoid: &[ompcc_sema::SymbolId]) -> bool {
    let mut ok = true;
    expr(e, &mut |n| {
        let Node::Expr(x) = n else { return };
        match &x.kind {
            ExprKind::Call(..)
            | ExprKind::Assign(..)
            | ExprKind::Comma(..)
            | ExprKind::StmtExpr(..)
            | ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PostInc | UnaryOp::PreDec | UnaryOp::PostDec,
                _,
            ) => ok = false,
            ExprKind::Ident(_)
                if typed
                    .ident_symbols
                    .get(&x.id)
                    .is_some_and(|s| avoid.contains(s)) =>
            {
                ok = false
            }
            _ => {}
        }
    });
    ok
}

/// Calls `f` on every node of the expression `e`.
pub fn expr<'a>(e: &'a Expr, f: &mut dyn FnMut(Node<'a>)) {
    Walker { f }.expr(e);
}

/// Calls `f` on every node of the block `b` (a function body).
pub fn block<'a>(b: &'a Block, f: &mut dyn FnMut(Node<'a>)) {
    Walker { f }.block(b);
}

/// Calls `f` on every node of every function body and file-scope declaration of `tu`.
pub fn unit<'a>(tu: &'a TranslationUnit, f: &mut dyn FnMut(Node<'a>)) {
    let mut w = Walker { f };
    for item in &tu.items {
        match item {
            ExternalDecl::Function(fd) => {
                w.specs(&fd.specs);
                w.declarator(&fd.declarator);
                w.block(&fd.body);
            }
            ExternalDecl::Decl(d) => w.decl(d),
            ExternalDecl::Omp(d) => w.omp(d),
            _ => {}
        }
    }
}

struct Walker<'f, 'a> {
    f: &'f mut dyn FnMut(Node<'a>),
}

impl<'a> Walker<'_, 'a> {
    fn expr(&mut self, e: &'a Expr) {
        (self.f)(Node::Expr(e));
        match &e.kind {
            ExprKind::Ident(_)
            | ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Char { .. }
            | ExprKind::Str(_)
            | ExprKind::LabelAddr(_) => {}
            ExprKind::Paren(x)
            | ExprKind::Unary(_, x)
            | ExprKind::SizeofExpr(x)
            | ExprKind::AlignofExpr(x) => self.expr(x),
            ExprKind::Generic(c, assocs) => {
                self.expr(c);
                for a in assocs {
                    if let Some(t) = &a.ty {
                        self.type_name(t);
                    }
                    self.expr(&a.expr);
                }
            }
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::ArraySection {
                base,
                lower,
                length,
                stride,
            } => {
                self.expr(base);
                for l in [lower, length, stride].into_iter().flatten() {
                    self.expr(l);
                }
            }
            ExprKind::Call(c, args) => {
                self.expr(c);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Member { base, .. } => self.expr(base),
            ExprKind::CompoundLiteral(t, l) => {
                self.type_name(t);
                self.init_list(l);
            }
            ExprKind::SizeofType(t) | ExprKind::AlignofType(t) => self.type_name(t),
            ExprKind::Cast(t, x) | ExprKind::VaArg(x, t) => {
                self.type_name(t);
                self.expr(x);
            }
            ExprKind::Cond(c, t, e2) => {
                self.expr(c);
                if let Some(t) = t {
                    self.expr(t);
                }
                self.expr(e2);
            }
            ExprKind::StmtExpr(b) => self.block(b),
            ExprKind::Offsetof(t, path) => {
                self.type_name(t);
                for p in path {
                    if let OffsetofMember::Index(x) = p {
                        self.expr(x);
                    }
                }
            }
            ExprKind::TypesCompatible(a, b) => {
                self.type_name(a);
                self.type_name(b);
            }
        }
    }

    fn type_name(&mut self, t: &'a TypeName) {
        self.specs(&t.specs);
        if let Some(d) = &t.declarator {
            self.declarator(d);
        }
    }

    fn specs(&mut self, s: &'a DeclSpecs) {
        for sp in &s.specs {
            match &sp.kind {
                DeclSpecKind::Type(t) => match t {
                    TypeSpec::Record(r) => {
                        for m in r.members.iter().flatten() {
                            match m {
                                MemberDecl::Field {
                                    specs, declarators, ..
                                } => {
                                    self.specs(specs);
                                    for d in declarators {
                                        if let Some(d) = &d.declarator {
                                            self.declarator(d);
                                        }
                                        if let Some(w) = &d.bit_width {
                                            self.expr(w);
                                        }
                                    }
                                }
                                MemberDecl::StaticAssert(sa) => self.expr(&sa.cond),
                                MemberDecl::Pragma(_) => {}
                            }
                        }
                    }
                    TypeSpec::Enum(e) => {
                        for en in e.enumerators.iter().flatten() {
                            if let Some(v) = &en.value {
                                self.expr(v);
                            }
                        }
                    }
                    TypeSpec::AtomicType(t) | TypeSpec::TypeofType(t) => self.type_name(t),
                    TypeSpec::TypeofExpr(e) => self.expr(e),
                    _ => {}
                },
                DeclSpecKind::Align(AlignSpec::Type(t)) => self.type_name(t),
                DeclSpecKind::Align(AlignSpec::Expr(e)) => self.expr(e),
                _ => {}
            }
        }
    }

    fn declarator(&mut self, d: &'a Declarator) {
        (self.f)(Node::Declarator(d));
        for der in &d.derived {
            match der {
                Derived::Array {
                    size: ArraySize::Expr(e),
                    ..
                } => self.expr(e),
                Derived::Function { params, .. } => {
                    for p in params {
                        self.specs(&p.specs);
                        if let Some(d) = &p.declarator {
                            self.declarator(d);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn decl(&mut self, d: &'a Declaration) {
        match &d.kind {
            DeclarationKind::Vars { specs, declarators } => {
                self.specs(specs);
                for id in declarators {
                    self.declarator(&id.declarator);
                    if let Some(i) = &id.init {
                        self.init(i);
                    }
                }
            }
            DeclarationKind::StaticAssert(sa) => self.expr(&sa.cond),
        }
    }

    fn init(&mut self, i: &'a Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(l) => self.init_list(l),
        }
    }

    fn init_list(&mut self, l: &'a InitList) {
        for item in &l.items {
            for d in &item.designators {
                match d {
                    Designator::Field(_) => {}
                    Designator::Index(e) => self.expr(e),
                    Designator::Range(a, b) => {
                        self.expr(a);
                        self.expr(b);
                    }
                }
            }
            self.init(&item.init);
        }
    }

    fn block(&mut self, b: &'a Block) {
        for item in &b.items {
            match item {
                BlockItem::Decl(d) => self.decl(d),
                BlockItem::Stmt(s) => self.stmt(s),
                _ => {}
            }
        }
    }

    fn omp(&mut self, d: &'a OmpDirective) {
        (self.f)(Node::Directive(d));
        for a in &d.args {
            self.expr(a);
        }
        for c in &d.clauses {
            match &c.kind {
                OmpClauseKind::Expr(e) => self.expr(e),
                OmpClauseKind::List(l)
                | OmpClauseKind::Lastprivate { list: l, .. }
                | OmpClauseKind::Reduction { list: l, .. }
                | OmpClauseKind::UserReduction { list: l, .. }
                | OmpClauseKind::Map { list: l, .. }
                | OmpClauseKind::Motion { list: l, .. }
                | OmpClauseKind::Depend { list: l, .. } => {
                    for e in l {
                        self.expr(e);
                    }
                }
                OmpClauseKind::Schedule { chunk: Some(e), .. }
                | OmpClauseKind::DistSchedule { chunk: Some(e) } => self.expr(e),
                OmpClauseKind::If { cond, .. } => self.expr(cond),
                OmpClauseKind::Aligned { list, alignment } => {
                    for e in list {
                        self.expr(e);
                    }
                    if let Some(a) = alignment {
                        self.expr(a);
                    }
                }
                OmpClauseKind::Linear { list, step } => {
                    for e in list {
                        self.expr(e);
                    }
                    if let Some(s) = step {
                        self.expr(s);
                    }
                }
                _ => {}
            }
        }
        if let Some(b) = &d.body {
            self.stmt(b);
        }
    }

    fn stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Labeled(_, s) | StmtKind::Default(s) => self.stmt(s),
            StmtKind::Case(a, b, s) => {
                self.expr(a);
                if let Some(b) = b {
                    self.expr(b);
                }
                self.stmt(s);
            }
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Expr(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.stmt(t);
                if let Some(e) = e {
                    self.stmt(e);
                }
            }
            StmtKind::Switch(c, b) | StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.expr(c);
                self.stmt(b);
            }
            StmtKind::For(init, c, step, body) => {
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => self.decl(d),
                }
                if let Some(c) = c {
                    self.expr(c);
                }
                if let Some(s) = step {
                    self.expr(s);
                }
                self.stmt(body);
            }
            StmtKind::GotoIndirect(e) => self.expr(e),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::Asm(a) => {
                for o in a.outputs.iter().chain(&a.inputs) {
                    self.expr(&o.expr);
                }
            }
            StmtKind::Omp(d) => self.omp(d),
            StmtKind::Goto(_) | StmtKind::Continue | StmtKind::Break => {}
        }
    }
}
