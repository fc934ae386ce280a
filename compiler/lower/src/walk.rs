//! Walks the lowering needs, over `ompcc_omp::walk` (one expression walker for the compiler):
//! every expression of a translation unit, including those hidden in declarators (array
//! sizes), type names, initializers and OpenMP clauses, to index expressions by `ExprId`
//! (sema's side tables name expressions by id only, e.g. VLA sizes and initializer entries);
//! and the declarations inside function bodies.

use ompcc_omp::walk::{self, Node};
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::*;
use rustc_hash::FxHashSet;

/// Calls `f` on every expression of `tu`, parents before children.
pub fn exprs<'a>(tu: &'a TranslationUnit, f: &mut dyn FnMut(&'a Expr)) {
    walk::unit(tu, &mut |n| {
        if let Node::Expr(e) = n {
            f(e);
        }
    });
}

/// Calls `f` on every declaration inside `b`, nested blocks and statement expressions
/// included.
pub fn block_decls<'a>(b: &'a Block, f: &mut dyn FnMut(&'a Declaration)) {
    for item in &b.items {
        match item {
            BlockItem::Decl(d) => f(d),
            BlockItem::Stmt(s) => stmt_decls(s, f),
            _ => {}
        }
    }
}

/// Calls `f` on every declaration inside the statement `s`.
pub fn stmt_decls<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Declaration)) {
    {
        let stmt = stmt_decls;
        match &s.kind {
            StmtKind::Labeled(_, s)
            | StmtKind::Default(s)
            | StmtKind::Case(_, _, s)
            | StmtKind::Switch(_, s)
            | StmtKind::While(_, s)
            | StmtKind::DoWhile(s, _) => stmt(s, f),
            StmtKind::Compound(b) => block_decls(b, f),
            StmtKind::If(_, t, e) => {
                stmt(t, f);
                if let Some(e) = e {
                    stmt(e, f);
                }
            }
            StmtKind::For(init, _, _, body) => {
                if let ForInit::Decl(d) = init {
                    f(d);
                }
                stmt(body, f);
            }
            StmtKind::Omp(d) => {
                if let Some(b) = &d.body {
                    stmt(b, f);
                }
            }
            _ => {}
        }
    }
}

/// The variables declared inside `s`, and every identifier expression inside it (nested
/// directives and their clauses included) with the symbol it names, in order.
pub fn declared_and_used(
    s: &Stmt,
    typed: &TypedUnit,
) -> (FxHashSet<SymbolId>, Vec<(ExprId, SymbolId)>) {
    let mut declared = FxHashSet::default();
    stmt_decls(s, &mut |d| {
        if let DeclarationKind::Vars { declarators, .. } = &d.kind {
            declared.extend(
                declarators
                    .iter()
                    .filter_map(|id| typed.decl_symbol(id.declarator.id)),
            );
        }
    });
    let mut used = Vec::new();
    walk::stmt(s, &mut |n| {
        if let Node::Expr(e) = n
            && matches!(e.kind, ExprKind::Ident(_))
            && let Some(&sym) = typed.ident_symbols.get(&e.id)
        {
            used.push((e.id, sym));
        }
    });
    (declared, used)
}

/// Calls `f` with the id of every identifier expression inside `e`.
pub fn idents_of(e: &Expr, f: &mut dyn FnMut(ExprId)) {
    walk::expr(e, &mut |n| {
        if let Node::Expr(x) = n
            && matches!(x.kind, ExprKind::Ident(_))
        {
            f(x.id);
        }
    });
}
