//! `declare target link` variables a target region reaches through the functions it calls
//! (OpenMP 5.2 section 7.8.1). The device has no copy of such a variable until a map makes
//! one, and device functions reach it through a pointer the kernel sets (ompcc-lower's
//! `link` module), so a region passes the mapped address of every link variable that it or
//! any function it calls (directly, by name, closed over the unit's definitions) references.

use ompcc_sema::{SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{Expr, ExprKind, ExternalDecl, Stmt, TranslationUnit};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::walk::{self, Node};

/// Identifier expressions naming link variables in the functions `body` calls, transitively,
/// one per variable (the first found).
pub(crate) fn callee_link_refs<'a>(
    tu: &'a TranslationUnit,
    typed: &TypedUnit,
    body: &'a Stmt,
) -> Vec<&'a Expr> {
    if typed.declare_target_link.is_empty() {
        return Vec::new();
    }
    let defs: FxHashMap<SymbolId, &'a ompcc_syntax::ast::FunctionDef> = tu
        .items
        .iter()
        .filter_map(|it| match it {
            ExternalDecl::Function(f) => typed.decl_symbol(f.declarator.id).map(|s| (s, f)),
            _ => None,
        })
        .collect();
    let mut out: Vec<&'a Expr> = Vec::new();
    let mut found: FxHashSet<SymbolId> = FxHashSet::default();
    let mut seen: FxHashSet<SymbolId> = FxHashSet::default();
    let mut todo: Vec<SymbolId> = Vec::new();
    let mut visit =
        |e: &'a Expr, in_callee: bool, todo: &mut Vec<SymbolId>, out: &mut Vec<&'a Expr>| {
            let ExprKind::Ident(_) = e.kind else { return };
            let Some(&s) = typed.ident_symbols.get(&e.id) else {
                return;
            };
            if typed.symbols[s].kind == SymbolKind::Function {
                if defs.contains_key(&s) && seen.insert(s) {
                    todo.push(s);
                }
            } else if in_callee && typed.declare_target_link.contains(&s) && found.insert(s) {
                out.push(e);
            }
        };
    walk::stmt(body, &mut |n| {
        if let Node::Expr(e) = n {
            visit(e, false, &mut todo, &mut out);
        }
    });
    while let Some(f) = todo.pop() {
        let def = defs[&f];
        walk::block(&def.body, &mut |n| {
            if let Node::Expr(e) = n {
                visit(e, true, &mut todo, &mut out);
            }
        });
    }
    out
}
