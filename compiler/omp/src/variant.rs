//! `declare variant(v) match(selector)` (OpenMP 5.2 section 7.5) for device code: a direct
//! call of the base function (the function declared after the directive) in device code
//! calls the variant whose selector matches the call's context with the highest score (the
//! first of equals), else the base. The context is the one `metadirective` uses (device
//! traits, the constructs enclosing the call, `target` first in the device version of a
//! function). The host version is gcc's: it implements the directive itself.
//! `begin declare variant` is not resolved (W0910 in `analyze`).

use ompcc_diag::Diagnostic;
use ompcc_sema::{SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    DeclarationKind, Expr, ExprId, ExprKind, ExternalDecl, OmpDirective, OmpDirectiveKind, Stmt,
    StmtKind, TranslationUnit,
};
use rustc_hash::FxHashMap;

use crate::metadirective::{device_functions, enclosing_constructs};
use crate::selector::{self, Context, Selector};
use crate::walk::{self, Node};

/// The variants of one base function, in directive order.
type Variants = Vec<(Selector, SymbolId)>;

fn parse_variant(
    d: &OmpDirective,
    text: &str,
    typed: &TypedUnit,
) -> Result<(Selector, SymbolId), String> {
    let line = &text[d.span.lo as usize..d.span.hi as usize];
    let at = line.find("variant").ok_or("expected 'variant'")? + "variant".len();
    let mut name = None;
    let mut sel = None;
    for (clause, inner) in selector::clauses(&line[at..])? {
        match clause {
            "" => name = Some(inner.trim()),
            "match" => sel = Some(selector::parse(inner)?),
            other => {
                return Err(format!(
                    "the '{other}' clause of 'declare variant' is not supported by ompcc"
                ));
            }
        }
    }
    let name = name.ok_or("expected 'declare variant(function)'")?;
    let sel = sel.ok_or("expected a 'match(context-selector)' clause")?;
    let sym = typed
        .global(name)
        .filter(|s| typed.symbols[*s].kind == SymbolKind::Function)
        .ok_or_else(|| format!("'{name}' is not a function declared before the directive"))?;
    Ok((sel, sym))
}

/// The function an external declaration declares, if it declares exactly one.
fn declared_function(item: &ExternalDecl, typed: &TypedUnit) -> Option<SymbolId> {
    match item {
        ExternalDecl::Function(f) => typed.decl_symbol(f.declarator.id),
        ExternalDecl::Decl(d) => match &d.kind {
            DeclarationKind::Vars { declarators, .. } => declarators
                .iter()
                .filter_map(|id| typed.decl_symbol(id.declarator.id))
                .find(|s| typed.symbols[*s].kind == SymbolKind::Function),
            _ => None,
        },
        _ => None,
    }
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
    let mut pending: Vec<(&OmpDirective, (Selector, SymbolId))> = Vec::new();
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
            Some(base) => variants
                .entry(base)
                .or_default()
                .extend(pending.drain(..).map(|(_, v)| v)),
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
                });
                return;
            };
            let (mut constructs, _) = enclosing_constructs(f, d.span);
            let without = choose(
                list,
                &Context {
                    device: false,
                    constructs: &constructs,
                },
            );
            constructs.push("dispatch");
            let with = choose(
                list,
                &Context {
                    device: false,
                    constructs: &constructs,
                },
            );
            match (with, without) {
                (Ok(with_dispatch), Ok(without_dispatch)) => out.push(DispatchCall {
                    directive: d,
                    callee,
                    with_dispatch,
                    without_dispatch,
                }),
                (Err(why), _) | (_, Err(why)) => diags.push(error(d, &why)),
            }
        });
    }
    (out, diags)
}

/// The callee of a `dispatch` construct's statement: `f(...);` or `x = f(...);`.
pub fn target_call(s: &Stmt) -> Option<&Expr> {
    let StmtKind::Expr(Some(e)) = &s.kind else {
        return None;
    };
    let call = match &strip(e).kind {
        ExprKind::Assign(None, _, rhs) => strip(rhs),
        _ => strip(e),
    };
    match &call.kind {
        ExprKind::Call(callee, _) if matches!(strip(callee).kind, ExprKind::Ident(_)) => {
            Some(strip(callee))
        }
        _ => None,
    }
}

/// For each direct call in device code whose callee has a matching variant: the callee
/// expression's id and the variant to call. Errors (E0912) for directives ompcc cannot
/// resolve.
pub fn device_variant_calls(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
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
                constructs: &constructs,
            };
            match choose(list, &cx) {
                Ok(Some(v)) => {
                    calls.insert(callee.id, v);
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
/// `host_dispatch_calls`', which sees every construct.
pub fn device_dispatch_calls(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
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
                constructs: &constructs,
            };
            match choose(list, &cx) {
                Ok(v) => {
                    calls.insert(callee.id, v);
                }
                Err(why) => diags.push(error(d, &why)),
            }
        });
    }
    (calls, diags)
}

fn choose(list: &Variants, cx: &Context<'_>) -> Result<Option<SymbolId>, String> {
    let mut best: Option<(u64, SymbolId)> = None;
    for (sel, v) in list {
        if selector::matches(sel, cx)? {
            let s = selector::score(sel, cx);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, *v));
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
