//! Pointers a range only exchanges among themselves (`tmp = t; t = u; u = tmp;`, the double
//! buffer of every time-stepped stencil): the objects they point to stay the same set, so
//! mapping what each points to at the start of the range keeps every object present
//! whichever name it goes by, and the exit finds them all again.

use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{
    Block, BlockItem, DeclarationKind, Expr, ExprKind, Initializer, Stmt, StmtKind, UnaryOp,
};

/// The pointer variables the range only copies into each other, as groups of variables
/// declared before the range (each group of two or more); `declared_before` says which
/// variables those are.
pub(crate) fn swap_groups(
    items: &[&BlockItem],
    typed: &TypedUnit,
    declared_before: &dyn Fn(SymbolId) -> bool,
) -> Vec<Vec<SymbolId>> {
    let mut w = Writes {
        typed,
        copies: Vec::new(),
        other: Vec::new(),
    };
    for i in items {
        w.item(i);
    }
    // union-find over the copies
    let mut vars: Vec<SymbolId> = Vec::new();
    for &(a, b) in &w.copies {
        for v in [a, b] {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
    }
    let mut parent: Vec<usize> = (0..vars.len()).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let index = |v: SymbolId| vars.iter().position(|&x| x == v).unwrap_or(0);
    for &(a, b) in &w.copies {
        let (ra, rb) = (find(&mut parent, index(a)), find(&mut parent, index(b)));
        parent[ra] = rb;
    }
    let mut groups: Vec<Vec<SymbolId>> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for (k, &v) in vars.iter().enumerate() {
        let r = find(&mut parent, k);
        match roots.iter().position(|&x| x == r) {
            Some(g) => groups[g].push(v),
            None => {
                roots.push(r);
                groups.push(vec![v]);
            }
        }
    }
    groups
        .into_iter()
        .filter(|g| g.iter().all(|v| !w.other.contains(v)))
        .map(|g| {
            g.into_iter()
                .filter(|&v| declared_before(v))
                .collect::<Vec<_>>()
        })
        .filter(|g| g.len() >= 2)
        .collect()
}

struct Writes<'t> {
    typed: &'t TypedUnit,
    /// `a = b` of two pointer variables (initializers included).
    copies: Vec<(SymbolId, SymbolId)>,
    /// Variables written any other way, or whose address is taken.
    other: Vec<SymbolId>,
}

impl Writes<'_> {
    fn var(&self, e: &Expr) -> Option<SymbolId> {
        match &e.kind {
            ExprKind::Paren(x) => self.var(x),
            ExprKind::Ident(_) => {
                let v = *self.typed.ident_symbols.get(&e.id)?;
                self.typed
                    .types
                    .is_pointer(self.typed.symbols[v].ty)
                    .then_some(v)
            }
            _ => None,
        }
    }

    fn item(&mut self, i: &BlockItem) {
        match i {
            BlockItem::Stmt(s) => self.stmt(s),
            BlockItem::Decl(d) => self.decl(d),
            _ => {}
        }
    }

    fn decl(&mut self, d: &ompcc_syntax::ast::Declaration) {
        let DeclarationKind::Vars { declarators, .. } = &d.kind else {
            return;
        };
        for id in declarators {
            let Some(v) = self.typed.decl_symbol(id.declarator.id) else {
                continue;
            };
            if !self.typed.types.is_pointer(self.typed.symbols[v].ty) {
                if let Some(Initializer::Expr(e)) = &id.init {
                    self.expr(e);
                }
                continue;
            }
            match &id.init {
                Some(Initializer::Expr(e)) => match self.var(e) {
                    Some(src) => self.copies.push((v, src)),
                    None => {
                        self.other.push(v);
                        self.expr(e);
                    }
                },
                Some(Initializer::List(_)) => self.other.push(v),
                None => {}
            }
        }
    }

    fn block(&mut self, b: &Block) {
        for i in &b.items {
            self.item(i);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Compound(b) => self.block(b),
            StmtKind::For(init, c, step, body) => {
                match init {
                    ompcc_syntax::ast::ForInit::Expr(e) => self.expr(e),
                    ompcc_syntax::ast::ForInit::Decl(d) => self.decl(d),
                    ompcc_syntax::ast::ForInit::None => {}
                }
                for e in [c, step].into_iter().flatten() {
                    self.expr(e);
                }
                self.stmt(body);
            }
            StmtKind::While(c, b) | StmtKind::Switch(c, b) => {
                self.expr(c);
                self.stmt(b);
            }
            StmtKind::DoWhile(b, c) => {
                self.stmt(b);
                self.expr(c);
            }
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.stmt(t);
                if let Some(e) = e {
                    self.stmt(e);
                }
            }
            StmtKind::Labeled(_, b) | StmtKind::Case(_, _, b) | StmtKind::Default(b) => {
                self.stmt(b)
            }
            StmtKind::Omp(d) => {
                if let Some(b) = &d.body {
                    self.stmt(b);
                }
            }
            StmtKind::Expr(Some(e)) | StmtKind::Return(Some(e)) => self.expr(e),
            _ => {}
        }
    }

    /// Every write to a pointer variable inside an expression.
    fn expr(&mut self, e: &Expr) {
        let mut found: Vec<(Option<SymbolId>, Option<SymbolId>)> = Vec::new();
        ompcc_omp::walk::expr(e, &mut |n| {
            let ompcc_omp::walk::Node::Expr(x) = n else {
                return;
            };
            match &x.kind {
                ExprKind::Assign(op, l, r) => {
                    let src = if op.is_none() { self.var(r) } else { None };
                    found.push((self.var(l), src));
                }
                ExprKind::Unary(
                    UnaryOp::PreInc
                    | UnaryOp::PreDec
                    | UnaryOp::PostInc
                    | UnaryOp::PostDec
                    | UnaryOp::AddrOf,
                    v,
                ) => found.push((self.var(v), None)),
                _ => {}
            }
        });
        for (dst, src) in found {
            match (dst, src) {
                (Some(d), Some(s)) => self.copies.push((d, s)),
                (Some(d), None) => self.other.push(d),
                _ => {}
            }
        }
    }
}
