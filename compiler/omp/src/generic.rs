//! Whether a generic-mode `teams` region forks its team at nested `parallel` constructs (the
//! worker state machine of ompcc-lower's `generic` module) or runs each team on one thread.
//! Both halves of the compiler ask here: the device side builds the state machine, the host
//! side launches `thread_limit` threads per team for it (one thread otherwise).
//!
//! Forking shares the main thread's variables with the team by copying them into shared
//! memory; an address of the main thread's stack means nothing to the other threads. So a
//! region whose code may put such an address into a variable (`&x`, an array of the region
//! decaying to a pointer rather than being indexed, a compound literal) outside the forked
//! bodies does not fork: it
//! keeps the team of one thread, which is correct for any such code. So does a region whose
//! sequential code calls a function other than the OpenMP API and the device C library:
//! the OpenMP API in functions reads the hardware thread ids, which on the main thread of
//! a forking team would report the team size instead of one thread.

use ompcc_syntax::ast::{
    Derived, Expr, ExprKind, OmpClauseName as C, OmpDirective, OmpDirectiveKind as K, Stmt,
    TranslationUnit, UnaryOp,
};

use crate::walk::{self, Node};

/// A nested construct the main thread can hand to the whole team (the others run on the
/// main thread as a team of one).
pub fn forkable(d: &OmpDirective) -> bool {
    matches!(
        d.kind,
        K::Parallel
            | K::ParallelFor
            | K::ParallelForSimd
            | K::ParallelLoop
            | K::DistributeParallelFor
            | K::DistributeParallelForSimd
    ) && !d
        .clauses
        .iter()
        .any(|c| matches!(c.name, C::NumThreads | C::If))
}

/// Whether the generic region with this body forks its team (module docs).
pub fn generic_region_forks(tu: &TranslationUnit, body: &Stmt) -> bool {
    let mut forks = false;
    let mut inside: Vec<*const ompcc_syntax::ast::Expr> = Vec::new();
    let mut inside_decls: Vec<*const ompcc_syntax::ast::Declarator> = Vec::new();
    walk::stmt(body, &mut |n| {
        if let Node::Directive(d) = n
            && forkable(d)
        {
            forks = true;
            if let Some(b) = d.body.as_deref() {
                walk::stmt(b, &mut |m| match m {
                    Node::Expr(e) => inside.push(e),
                    Node::Declarator(dd) => inside_decls.push(dd),
                    Node::Directive(_) => {}
                });
            }
        }
    });
    if !forks {
        return false;
    }
    // Arrays the sequential part declares, and the uses of names that do not make an array
    // decay to a pointer (indexing, sizeof, _Alignof).
    let mut arrays: Vec<ompcc_syntax::ast::Symbol> = Vec::new();
    let mut no_decay: Vec<*const Expr> = Vec::new();
    let mut exposes_stack = false;
    walk::stmt(body, &mut |n| match n {
        Node::Expr(e) if !inside.contains(&(e as *const _)) => {
            exposes_stack |= match &e.kind {
                ExprKind::Unary(UnaryOp::AddrOf, _) | ExprKind::CompoundLiteral(..) => true,
                ExprKind::Call(f, _) => match &f.kind {
                    ExprKind::Ident(n) => {
                        let name = tu.symbols.resolve(*n);
                        !(name.starts_with("omp_")
                            || name.starts_with("__builtin_")
                            || name == "printf"
                            || ompcc_stdlib::device_symbol(name).is_some())
                    }
                    _ => true,
                },
                _ => false,
            };
            match &e.kind {
                ExprKind::Index(base, _)
                | ExprKind::SizeofExpr(base)
                | ExprKind::AlignofExpr(base) => no_decay.push(&**base),
                _ => {}
            }
        }
        Node::Declarator(d) if !inside_decls.contains(&(d as *const _)) => {
            if d.derived.iter().any(|x| matches!(x, Derived::Array { .. }))
                && let Some(name) = &d.name
            {
                arrays.push(name.name);
            }
        }
        _ => {}
    });
    walk::stmt(body, &mut |n| {
        if let Node::Expr(e) = n
            && let ExprKind::Ident(name) = &e.kind
            && arrays.contains(name)
            && !inside.contains(&(e as *const _))
            && !no_decay.contains(&(e as *const _))
        {
            exposes_stack = true;
        }
    });
    !exposes_stack
}
