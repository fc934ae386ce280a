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
//! sequential code calls through a pointer, or calls a function that neither this unit
//! defines (with all it calls in turn) nor is the OpenMP API or the device C library: the
//! OpenMP API in a function of another unit reads the hardware thread ids, which on the main
//! thread of a forking team report the team size instead of one thread. The functions of
//! this unit answer from the unit's per-thread ICV records instead, which ompcc-lower keeps
//! whenever a forking region calls one ([`generic_region_calls`]).
//!
//! A nested `parallel` with `num_threads` or `if` forks too, with its active threads only
//! (the others skip the body and meet the team at the barrier that ends it), unless its body
//! has a construct that synchronizes the team itself (`barrier`, a worksharing construct
//! without `nowait`): `barrier.sync` waits for every thread of the block, the inactive included.
//! A region with such a construct whose body calls a function of another unit does not fork
//! at all: that function would report the block as the team. Nor does one whose sequential
//! code calls a function of the unit that calls `omp_set_num_threads` or
//! `omp_set_max_active_levels` (the forked team's size is fixed at launch).

use ompcc_syntax::ast::{
    Block, Derived, Expr, ExprKind, ExternalDecl, OmpClauseKind, OmpClauseName as C, OmpDirective,
    OmpDirectiveKind as K, Stmt, Symbol, TranslationUnit, UnaryOp,
};

use crate::walk::{self, Node};

/// A nested construct the main thread can hand to the whole team (the others run on the
/// main thread as a team of one).
pub fn forkable(d: &OmpDirective) -> bool {
    let kind = matches!(
        d.kind,
        K::Parallel
            | K::ParallelFor
            | K::ParallelForSimd
            | K::ParallelLoop
            | K::DistributeParallelFor
            | K::DistributeParallelForSimd
    );
    kind && (!sizes_team(d) || !synchronizes_team(d))
}

/// Whether `d` has a clause that decides at run time how many threads its team gets
/// (`num_threads`, or an `if` that applies to the `parallel`).
pub fn sizes_team(d: &OmpDirective) -> bool {
    d.clauses.iter().any(|c| c.name == C::NumThreads) || parallel_if(d).is_some()
}

/// The condition of `d`'s `if` clause that applies to its `parallel` construct.
pub fn parallel_if(d: &OmpDirective) -> Option<&Expr> {
    d.clauses.iter().find_map(|c| match &c.kind {
        OmpClauseKind::If {
            modifier: None | Some(K::Parallel),
            cond,
        } => Some(&**cond),
        _ => None,
    })
}

/// Whether the body of `d` has a construct whose lowering waits at a block-wide barrier.
fn synchronizes_team(d: &OmpDirective) -> bool {
    let mut found = false;
    if let Some(b) = d.body.as_deref() {
        walk::stmt(b, &mut |n| {
            if let Node::Directive(x) = n {
                let nowait = x.clauses.iter().any(|c| c.name == C::Nowait);
                found |= match x.kind {
                    K::Barrier | K::Single | K::Sections => true,
                    K::For | K::ForSimd | K::Loop | K::Scope => !nowait,
                    _ => false,
                };
            }
        });
    }
    found
}

/// Whether a routine of this name is the OpenMP API or the device C library (not code of
/// the program).
fn runtime_routine(name: &str) -> bool {
    name.starts_with("omp_")
        || name.starts_with("__builtin_")
        || name == "printf"
        || ompcc_stdlib::device_symbol(name).is_some()
}

/// The functions `tu` defines, by name.
fn definitions(tu: &TranslationUnit) -> Vec<(Symbol, &Block)> {
    tu.items
        .iter()
        .filter_map(|it| match it {
            ExternalDecl::Function(f) => f.declarator.name.as_ref().map(|n| (n.name, &f.body)),
            _ => None,
        })
        .collect()
}

/// The calls the nodes visited by `walk` make: `Ok(names)` of the direct calls that are not
/// runtime routines, `Err(())` when one calls through a pointer or (`setters`) a routine
/// that would change how the next team is formed, which a forking team cannot honour (its
/// size is fixed at launch; in the region's own code ompcc-lower reports such a call).
fn calls_in(
    tu: &TranslationUnit,
    setters: bool,
    walk: impl FnOnce(&mut dyn FnMut(Node<'_>)),
) -> Result<Vec<Symbol>, ()> {
    let mut names = Vec::new();
    let mut refused = false;
    walk(&mut |n| {
        if let Node::Expr(e) = n
            && let ExprKind::Call(f, _) = &e.kind
        {
            let mut f = &**f;
            while let ExprKind::Paren(x) = &f.kind {
                f = x;
            }
            match &f.kind {
                ExprKind::Ident(s)
                    if setters
                        && matches!(
                            tu.symbols.resolve(*s),
                            "omp_set_num_threads" | "omp_set_max_active_levels"
                        ) =>
                {
                    refused = true
                }
                ExprKind::Ident(s) if !runtime_routine(tu.symbols.resolve(*s)) => {
                    if !names.contains(s) {
                        names.push(*s);
                    }
                }
                ExprKind::Ident(_) => {}
                _ => refused = true,
            }
        }
    });
    if refused { Err(()) } else { Ok(names) }
}

/// Whether every function `roots` names is defined in `tu`, and so is everything they call
/// (directly, by name) in turn.
fn unit_closed(tu: &TranslationUnit, roots: &[Symbol]) -> bool {
    let defs = definitions(tu);
    let mut seen: Vec<Symbol> = Vec::new();
    let mut todo = roots.to_vec();
    while let Some(f) = todo.pop() {
        if seen.contains(&f) {
            continue;
        }
        seen.push(f);
        let Some(&(_, body)) = defs.iter().find(|(n, _)| *n == f) else {
            return false;
        };
        match calls_in(tu, true, |v| walk::block(body, v)) {
            Ok(more) => todo.extend(more),
            Err(()) => return false,
        }
    }
    true
}

/// Whether the region with this body calls a function of the program (not the OpenMP API or
/// the device C library) anywhere: a forking one then needs the per-thread ICV records for
/// the OpenMP API in the functions it calls (module docs).
pub fn generic_region_calls(tu: &TranslationUnit, body: &Stmt) -> bool {
    !matches!(calls_in(tu, false, |v| walk::stmt(body, v)), Ok(v) if v.is_empty())
}

/// Whether the generic region with this body forks its team (module docs).
pub fn generic_region_forks(tu: &TranslationUnit, body: &Stmt) -> bool {
    let mut forks = false;
    let mut inside: Vec<*const ompcc_syntax::ast::Expr> = Vec::new();
    let mut inside_decls: Vec<*const ompcc_syntax::ast::Declarator> = Vec::new();
    let mut sized_calls_out = false;
    walk::stmt(body, &mut |n| {
        if let Node::Directive(d) = n
            && forkable(d)
        {
            forks = true;
            // A function of another unit would report the block as the team.
            if sizes_team(d)
                && let Some(b) = d.body.as_deref()
            {
                sized_calls_out |= !matches!(
                    calls_in(tu, false, |v| walk::stmt(b, v)),
                    Ok(c) if unit_closed(tu, &c)
                );
            }
            if let Some(b) = d.body.as_deref() {
                walk::stmt(b, &mut |m| match m {
                    Node::Expr(e) => inside.push(e),
                    Node::Declarator(dd) => inside_decls.push(dd),
                    Node::Directive(_) => {}
                });
            }
        }
    });
    if !forks || sized_calls_out {
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
                ExprKind::Call(..) => {
                    !matches!(calls_in(tu, false, |v| walk::expr(e, v)), Ok(c) if unit_closed(tu, &c))
                }
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
