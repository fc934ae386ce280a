//! `declare variant(v) match(selector)` (OpenMP 5.2 section 7.5) for device code: a direct
//! call of the base function (the function declared after the directive) in device code
//! calls the variant whose selector matches the call's context with the highest score (the
//! first of equals), else the base. The context is the one `metadirective` uses (device
//! traits, the constructs enclosing the call, `target` first in the device version of a
//! function). The host version is gcc's: it implements the directive itself.
//! `begin declare variant` is not resolved (W0910 in `analyze`).
//!
//! `adjust_args(need_device_ptr: p, ...)` (OpenMP 5.1, 5.2 section 7.5.2) names parameters of
//! the base function whose arguments a `dispatch` call of the variant passes as device
//! pointers (the host rewrite translates them as `use_device_ptr` does; in device code a
//! pointer already holds its device address); `adjust_args(nothing: ...)` passes them as they
//! are. The clause needs `dispatch` in the selector's construct set (5.2 7.5.1).

use ompcc_diag::Diagnostic;
use ompcc_sema::{SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    DeclarationKind, Declarator, Derived, Expr, ExprId, ExprKind, ExternalDecl, OmpClauseKind,
    OmpClauseName, OmpDirective, OmpDirectiveKind, Stmt, StmtKind, TranslationUnit,
};
use rustc_hash::FxHashMap;

use crate::metadirective::{device_functions, enclosing_constructs};
use crate::selector::{self, Context, Selector};
use crate::walk::{self, Node};

/// One variant of a base function.
struct Variant {
    selector: Selector,
    function: SymbolId,
    /// `adjust_args(need_device_ptr: ...)`: the base function's parameters, by index, whose
    /// arguments a `dispatch` call of this variant passes as device pointers.
    need_device_ptr: Vec<usize>,
}

/// The variants of one base function, in directive order.
type Variants = Vec<Variant>;

/// A parsed `declare variant` directive: its variant (parameters still unresolved) and the
/// parameter names of its `adjust_args(need_device_ptr: ...)` and `adjust_args(nothing: ...)`.
struct Parsed {
    selector: Selector,
    function: SymbolId,
    need_device_ptr: Vec<String>,
    nothing: Vec<String>,
}

fn parse_variant(d: &OmpDirective, text: &str, typed: &TypedUnit) -> Result<Parsed, String> {
    let line = &text[d.span.lo as usize..d.span.hi as usize];
    let at = line.find("variant").ok_or("expected 'variant'")? + "variant".len();
    let mut name = None;
    let mut sel = None;
    let (mut need_device_ptr, mut nothing) = (Vec::new(), Vec::new());
    for (clause, inner) in selector::clauses(&line[at..])? {
        match clause {
            "" => name = Some(inner.trim()),
            "match" => sel = Some(selector::parse(inner)?),
            "adjust_args" => {
                let (op, list) = inner
                    .split_once(':')
                    .ok_or("expected 'adjust_args(adjust-op: parameter-list)'")?;
                let names = list.split(',').map(|n| n.trim().to_owned());
                match op.trim() {
                    "need_device_ptr" => need_device_ptr.extend(names),
                    "nothing" => nothing.extend(names),
                    other => {
                        return Err(format!(
                            "the adjust-op '{other}' of 'adjust_args' is not supported by ompcc \
                             (it takes 'need_device_ptr' and 'nothing')"
                        ));
                    }
                }
            }
            other => {
                return Err(format!(
                    "the '{other}' clause of 'declare variant' is not supported by ompcc"
                ));
            }
        }
    }
    let name = name.ok_or("expected 'declare variant(function)'")?;
    let sel = sel.ok_or("expected a 'match(context-selector)' clause")?;
    let adjusts = !need_device_ptr.is_empty() || !nothing.is_empty();
    if adjusts && !construct_names(&sel).any(|c| c == "dispatch") {
        return Err(
            "'adjust_args' needs 'dispatch' in the construct selector set of its \
                    'match' clause (OpenMP 5.2 7.5.1)"
                .into(),
        );
    }
    let sym = typed
        .global(name)
        .filter(|s| typed.symbols[*s].kind == SymbolKind::Function)
        .ok_or_else(|| format!("'{name}' is not a function declared before the directive"))?;
    Ok(Parsed {
        selector: sel,
        function: sym,
        need_device_ptr,
        nothing,
    })
}

/// The function an external declaration declares, if it declares exactly one, with its
/// declarator.
fn declared_function<'t>(
    item: &'t ExternalDecl,
    typed: &TypedUnit,
) -> Option<(SymbolId, &'t Declarator)> {
    match item {
        ExternalDecl::Function(f) => typed
            .decl_symbol(f.declarator.id)
            .map(|s| (s, &f.declarator)),
        ExternalDecl::Decl(d) => match &d.kind {
            DeclarationKind::Vars { declarators, .. } => declarators.iter().find_map(|id| {
                typed
                    .decl_symbol(id.declarator.id)
                    .filter(|s| typed.symbols[*s].kind == SymbolKind::Function)
                    .map(|s| (s, &id.declarator))
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The variant of `p` for the base function `base` declared by `decl`: its
/// `adjust_args` names resolved to parameter indices. Each must name a parameter, at most
/// once; a `need_device_ptr` one must be a pointer.
fn resolve_variant(
    p: Parsed,
    base: SymbolId,
    decl: &Declarator,
    tu: &TranslationUnit,
    typed: &TypedUnit,
) -> Result<Variant, String> {
    let params: Vec<Option<&str>> = match decl.derived.first() {
        Some(Derived::Function { params, .. }) => params
            .iter()
            .map(|p| {
                p.declarator
                    .as_ref()
                    .and_then(|d| d.name.as_ref())
                    .map(|n| tu.symbols.resolve(n.name))
            })
            .collect(),
        _ => Vec::new(),
    };
    let base_name = &typed.symbols[base].name;
    let index = |name: &str| {
        params
            .iter()
            .position(|p| *p == Some(name))
            .ok_or_else(|| format!("'{name}' in 'adjust_args' is not a parameter of '{base_name}'"))
    };
    let mut seen = Vec::new();
    for name in p.need_device_ptr.iter().chain(&p.nothing) {
        let i = index(name)?;
        if seen.contains(&i) {
            return Err(format!("'{name}' appears in 'adjust_args' more than once"));
        }
        seen.push(i);
    }
    let param_types = typed
        .types
        .fn_type(typed.symbols[base].ty)
        .map(|f| f.params.clone())
        .unwrap_or_default();
    let mut need_device_ptr = Vec::new();
    for name in &p.need_device_ptr {
        let i = index(name)?;
        if !param_types
            .get(i)
            .is_some_and(|t| typed.types.is_pointer(*t))
        {
            return Err(format!(
                "'{name}' in 'adjust_args(need_device_ptr: ...)' is not a pointer parameter"
            ));
        }
        need_device_ptr.push(i);
    }
    need_device_ptr.sort_unstable();
    Ok(Variant {
        selector: p.selector,
        function: p.function,
        need_device_ptr,
    })
}

/// The variants of each base function declared in `tu`, and errors (E0912) for
/// directives ompcc cannot resolve.
fn variant_table(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
) -> (FxHashMap<SymbolId, Variants>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut variants: FxHashMap<SymbolId, Variants> = FxHashMap::default();
    let mut pending: Vec<(&OmpDirective, Parsed)> = Vec::new();
    for item in &tu.items {
        if let ExternalDecl::Omp(d) = item
            && is_declare_variant(d)
        {
            match parse_variant(d, text, typed) {
                Ok(v) => pending.push((d, v)),
                Err(why) => diags.push(error(d, &why)),
            }
            continue;
        }
        if pending.is_empty() || matches!(item, ExternalDecl::Omp(_)) {
            continue;
        }
        match declared_function(item, typed) {
            Some((base, decl)) => {
                for (d, p) in pending.drain(..) {
                    match resolve_variant(p, base, decl, tu, typed) {
                        Ok(v) => variants.entry(base).or_default().push(v),
                        Err(why) => diags.push(error(d, &why)),
                    }
                }
            }
            None => {
                for (d, _) in pending.drain(..) {
                    diags.push(error(d, "no function declaration follows the directive"));
                }
            }
        }
    }
    for (d, _) in pending {
        diags.push(error(d, "no function declaration follows the directive"));
    }
    (variants, diags)
}

/// Whether `d` is a `declare variant` directive.
pub fn is_declare_variant(d: &OmpDirective) -> bool {
    d.kind == OmpDirectiveKind::Unsupported && d.unsupported_name == ["declare", "variant"]
}

/// Whether the `declare variant` directive `d` names the `dispatch` construct in its
/// selector (gcc 12 rejects such a selector; the host rewrite resolves these itself).
pub fn selects_dispatch(d: &OmpDirective, text: &str) -> bool {
    let line = &text[d.span.lo as usize..d.span.hi as usize];
    parse_selector(line).is_ok_and(|sel| construct_names(&sel).any(|c| c == "dispatch"))
}

fn parse_selector(line: &str) -> Result<Selector, String> {
    let at = line.find("variant").ok_or("expected 'variant'")? + "variant".len();
    for (clause, inner) in selector::clauses(&line[at..])? {
        if clause == "match" {
            return selector::parse(inner);
        }
    }
    Err("expected a 'match(context-selector)' clause".into())
}

fn construct_names(sel: &Selector) -> impl Iterator<Item = &str> {
    selector::construct_traits(sel)
}

/// The call of one `dispatch` construct (OpenMP 5.1), resolved for the host version of the
/// code: the function to call with the construct in the context's construct set, and
/// without it (`nocontext(true)`); `None` is the base function.
pub struct DispatchCall<'a> {
    /// The `dispatch` directive.
    pub directive: &'a OmpDirective,
    /// The callee of its target call (an identifier naming the base function).
    pub callee: &'a Expr,
    /// The variant selected with `dispatch` in the construct set.
    pub with_dispatch: Option<SymbolId>,
    /// The variant selected without it.
    pub without_dispatch: Option<SymbolId>,
    /// The arguments (by index) the call of `with_dispatch` passes as device pointers of the
    /// default device (`adjust_args(need_device_ptr: ...)`): none in a target region (its
    /// pointers are the device's already) nor those the construct's `is_device_ptr` or
    /// `has_device_addr` names.
    pub need_device_ptr: Vec<usize>,
}

/// Every `dispatch` construct of `tu`, with its call resolved for the host (`device` traits
/// of the host, the constructs enclosing the construct). Errors for a statement that is not
/// `f(...);` or `x = f(...);` with `f` a function name (E0912).
pub fn host_dispatch_calls<'a>(
    tu: &'a TranslationUnit,
    typed: &TypedUnit,
    text: &str,
) -> (Vec<DispatchCall<'a>>, Vec<Diagnostic>) {
    let (variants, mut diags) = variant_table(tu, typed, text);
    let mut out = Vec::new();
    for item in &tu.items {
        let ExternalDecl::Function(f) = item else {
            continue;
        };
        walk::block(&f.body, &mut |n| {
            let Node::Directive(d) = n else { return };
            if d.kind != OmpDirectiveKind::Dispatch {
                return;
            }
            let Some(callee) = d.body.as_deref().and_then(target_call) else {
                diags.push(error(
                    d,
                    "its statement must be a call 'f(...);' or an assignment 'x = f(...);' \
                     of a named function",
                ));
                return;
            };
            let base = typed.ident_symbols.get(&callee.id).copied();
            let Some(list) = base.and_then(|b| variants.get(&b)) else {
                out.push(DispatchCall {
                    directive: d,
                    callee,
                    with_dispatch: None,
                    without_dispatch: None,
                    need_device_ptr: Vec::new(),
                });
                return;
            };
            let (mut constructs, in_target) = enclosing_constructs(f, d.span);
            let without = choose(
                list,
                &Context {
                    device: false,
                    isa: 0,
                    constructs: &constructs,
                },
            );
            constructs.push("dispatch");
            let with = choose(
                list,
                &Context {
                    device: false,
                    isa: 0,
                    constructs: &constructs,
                },
            );
            match (with, without) {
                (Ok(with), Ok(without)) => out.push(DispatchCall {
                    directive: d,
                    callee,
                    with_dispatch: with.map(|v| v.function),
                    without_dispatch: without.map(|v| v.function),
                    need_device_ptr: match (with, d.body.as_deref()) {
                        (Some(v), Some(body)) if !in_target => {
                            converted_args(d, body, &v.need_device_ptr, typed)
                        }
                        _ => Vec::new(),
                    },
                }),
                (Err(why), _) | (_, Err(why)) => diags.push(error(d, &why)),
            }
        });
    }
    (out, diags)
}

/// The callee of a `dispatch` construct's statement: `f(...);` or `x = f(...);`.
pub fn target_call(s: &Stmt) -> Option<&Expr> {
    target_call_parts(s).map(|(callee, _)| callee)
}

/// The callee and the arguments of a `dispatch` construct's target call.
pub fn target_call_parts(s: &Stmt) -> Option<(&Expr, &[Expr])> {
    let StmtKind::Expr(Some(e)) = &s.kind else {
        return None;
    };
    let call = match &strip(e).kind {
        ExprKind::Assign(None, _, rhs) => strip(rhs),
        _ => strip(e),
    };
    match &call.kind {
        ExprKind::Call(callee, args) if matches!(strip(callee).kind, ExprKind::Ident(_)) => {
            Some((strip(callee), args))
        }
        _ => None,
    }
}

/// Of the argument indices `params`, those whose argument the `dispatch` construct `d` does
/// not name in `is_device_ptr` or `has_device_addr` (those are device pointers already).
fn converted_args(
    d: &OmpDirective,
    body: &Stmt,
    params: &[usize],
    typed: &TypedUnit,
) -> Vec<usize> {
    let Some((_, args)) = target_call_parts(body) else {
        return Vec::new();
    };
    let named: Vec<SymbolId> = d
        .clauses
        .iter()
        .filter(|c| {
            matches!(
                c.name,
                OmpClauseName::IsDevicePtr | OmpClauseName::HasDeviceAddr
            )
        })
        .filter_map(|c| match &c.kind {
            OmpClauseKind::List(l) => Some(l),
            _ => None,
        })
        .flatten()
        .filter_map(|e| typed.ident_symbols.get(&strip(e).id).copied())
        .collect();
    params
        .iter()
        .copied()
        .filter(|&i| {
            args.get(i).is_some_and(|a| {
                !typed
                    .ident_symbols
                    .get(&strip(a).id)
                    .is_some_and(|s| named.contains(s))
            })
        })
        .collect()
}

/// For each direct call in device code (compiled for `sm_<isa>`) whose callee has a matching
/// variant: the callee expression's id and the variant to call. Errors (E0912) for directives
/// ompcc cannot resolve.
pub fn device_variant_calls(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
    isa: u32,
) -> (FxHashMap<ExprId, SymbolId>, Vec<Diagnostic>) {
    let (variants, mut diags) = variant_table(tu, typed, text);
    let mut calls = FxHashMap::default();
    if variants.is_empty() {
        return (calls, diags);
    }
    let device_fns = device_functions(tu, typed);
    for item in &tu.items {
        let ExternalDecl::Function(f) = item else {
            continue;
        };
        let device_fn = typed
            .decl_symbol(f.declarator.id)
            .is_some_and(|s| device_fns.contains(&s));
        walk::block(&f.body, &mut |n| {
            let Node::Expr(e) = n else { return };
            let ExprKind::Call(callee, _) = &e.kind else {
                return;
            };
            let callee = strip(callee);
            let Some(base) = typed.ident_symbols.get(&callee.id) else {
                return;
            };
            let Some(list) = variants.get(base) else {
                return;
            };
            let (mut constructs, in_target) = enclosing_constructs(f, e.span);
            if !(in_target || device_fn) {
                return;
            }
            if !in_target {
                constructs.insert(0, "target");
            }
            let cx = Context {
                device: true,
                isa,
                constructs: &constructs,
            };
            match choose(list, &cx) {
                Ok(Some(v)) => {
                    calls.insert(callee.id, v.function);
                }
                Ok(None) => {}
                Err(why) => diags.push(Diagnostic::error(
                    "E0912",
                    format!("cannot resolve the 'declare variant' of this call: {why}"),
                    e.span,
                )),
            }
        });
    }
    (calls, diags)
}

/// For each `dispatch` construct in device code (in a target region or a device function):
/// its target call's callee expression and the function to call with `dispatch` in the
/// construct set (`None`: the base function). The same call without it (`nocontext(true)`)
/// is `device_variant_calls`' choice, as `dispatch` is no construct trait of the enclosing
/// constructs; `novariants(true)` calls the base function. Statement-shape errors are
/// `host_dispatch_calls`', which sees every construct. Device code is for `sm_<isa>`.
pub fn device_dispatch_calls(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
    isa: u32,
) -> (FxHashMap<ExprId, Option<SymbolId>>, Vec<Diagnostic>) {
    let (variants, mut diags) = variant_table(tu, typed, text);
    diags.clear(); // `device_variant_calls` reports the table's errors
    let mut calls = FxHashMap::default();
    let device_fns = device_functions(tu, typed);
    for item in &tu.items {
        let ExternalDecl::Function(f) = item else {
            continue;
        };
        let device_fn = typed
            .decl_symbol(f.declarator.id)
            .is_some_and(|s| device_fns.contains(&s));
        walk::block(&f.body, &mut |n| {
            let Node::Directive(d) = n else { return };
            if d.kind != OmpDirectiveKind::Dispatch {
                return;
            }
            let Some(callee) = d.body.as_deref().and_then(target_call) else {
                return;
            };
            let (mut constructs, in_target) = enclosing_constructs(f, d.span);
            if !(in_target || device_fn) {
                return;
            }
            if !in_target {
                constructs.insert(0, "target");
            }
            constructs.push("dispatch");
            let base = typed.ident_symbols.get(&callee.id).copied();
            let Some(list) = base.and_then(|b| variants.get(&b)) else {
                calls.insert(callee.id, None);
                return;
            };
            let cx = Context {
                device: true,
                isa,
                constructs: &constructs,
            };
            match choose(list, &cx) {
                Ok(v) => {
                    calls.insert(callee.id, v.map(|v| v.function));
                }
                Err(why) => diags.push(error(d, &why)),
            }
        });
    }
    (calls, diags)
}

fn choose<'v>(list: &'v Variants, cx: &Context<'_>) -> Result<Option<&'v Variant>, String> {
    let mut best: Option<(u64, &Variant)> = None;
    for v in list {
        if selector::matches(&v.selector, cx)? {
            let s = selector::score(&v.selector, cx);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, v));
            }
        }
    }
    Ok(best.map(|(_, v)| v))
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}

fn error(d: &OmpDirective, why: &str) -> Diagnostic {
    Diagnostic::error(
        "E0912",
        format!("cannot resolve '#pragma omp {}': {why}", d.name()),
        d.span,
    )
}
