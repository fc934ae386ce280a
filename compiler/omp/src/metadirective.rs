//! `metadirective` (OpenMP 5.2 section 7.4.3), resolved at compile time separately for the
//! device and the host version of the code around it: each metadirective line becomes the
//! directive of its selected variant (or nothing), padded with spaces to the line's length,
//! once in the text the device code is compiled from and once in the host text. Device
//! code is everything in a `target` region and every function device code may call (the
//! declare-target functions and those the regions and they name, closed over the unit); its
//! device version matches `device={kind(gpu)}` and friends, its host version (the fallback
//! copy of a region, the host version of a function) the host's traits. The construct set
//! is the leaf constructs enclosing the metadirective, led by `target` in the device version
//! of a function. Selection: the highest-scoring compatible `when`, the first of equals,
//! else `otherwise`/`default`, else nothing. `begin metadirective` and what ompcc cannot
//! decide at compile time are E0912 errors naming the directive and the reason.

use ompcc_diag::{Diagnostic, Span};
use ompcc_sema::{SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    Expr, ExprKind, ExternalDecl, FunctionDef, OmpDirective, OmpDirectiveKind, TranslationUnit,
};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::selector::{self, Context, Selector, split_top};
use crate::walk::{self, Node};

/// One metadirective line rewritten: bytes `lo..hi` of the unit become `device` in the text
/// device code is compiled from and `host` in the host text (both exactly `hi - lo` bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaEdit {
    pub lo: usize,
    pub hi: usize,
    pub device: String,
    pub host: String,
}

/// A parsed metadirective: `(selector, variant)` per `when` in order, and the default.
struct Meta {
    whens: Vec<(Selector, String)>,
    otherwise: String,
}

fn parse_meta(line: &str) -> Result<Meta, String> {
    let Some(at) = line.find("metadirective") else {
        return Err("expected 'metadirective'".into());
    };
    let mut meta = Meta {
        whens: Vec::new(),
        otherwise: String::new(),
    };
    for (name, inner) in selector::clauses(&line[at + "metadirective".len()..])? {
        match name {
            "when" => {
                let parts = split_top(inner, ':');
                if parts.len() < 2 {
                    return Err("expected 'when(context-selector: directive)'".into());
                }
                let variant = inner[parts[0].len() + 1..].trim().to_owned();
                meta.whens.push((selector::parse(parts[0])?, variant));
            }
            "default" | "otherwise" => meta.otherwise = inner.trim().to_owned(),
            other => return Err(format!("unknown metadirective clause '{other}'")),
        }
    }
    Ok(meta)
}

/// The variant chosen for context `cx`: its directive text (empty: none).
fn select(meta: &Meta, cx: &Context<'_>) -> Result<String, String> {
    let mut best: Option<(u64, &String)> = None;
    for (sel, variant) in &meta.whens {
        if selector::matches(sel, cx)? {
            let s = selector::score(sel, cx);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, variant));
            }
        }
    }
    Ok(best.map_or(&meta.otherwise, |(_, v)| v).clone())
}

/// The directive line for a variant, padded to `len` bytes; errors for variants that are
/// not directives ompcc knows.
fn variant_line(variant: &str, len: usize) -> Result<String, String> {
    let words: Vec<&str> = variant
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    let text = if variant.is_empty() || words == ["nothing"] {
        String::new()
    } else {
        match OmpDirectiveKind::lookup(&words) {
            Some((k, _)) if k != OmpDirectiveKind::Unsupported => {
                format!("#pragma omp {variant}")
            }
            _ => {
                return Err(format!(
                    "'{variant}' is not a directive ompcc supports here"
                ));
            }
        }
    };
    if text.len() > len {
        return Err("internal compiler error: metadirective variant longer than its line".into());
    }
    Ok(format!("{text:len$}"))
}

/// Functions whose device version exists: declare-target functions and what target regions
/// and they name, closed over the unit's definitions.
pub(crate) fn device_functions(tu: &TranslationUnit, typed: &TypedUnit) -> FxHashSet<SymbolId> {
    let defs: FxHashMap<SymbolId, &FunctionDef> = tu
        .items
        .iter()
        .filter_map(|it| match it {
            ExternalDecl::Function(f) => typed.decl_symbol(f.declarator.id).map(|s| (s, f)),
            _ => None,
        })
        .collect();
    let mut todo: Vec<SymbolId> = defs
        .keys()
        .copied()
        .filter(|s| typed.declare_target.contains(s))
        .collect();
    let named = |e: &Expr, todo: &mut Vec<SymbolId>| {
        if let ExprKind::Ident(_) = e.kind
            && let Some(&s) = typed.ident_symbols.get(&e.id)
            && typed.symbols[s].kind == SymbolKind::Function
            && defs.contains_key(&s)
        {
            todo.push(s);
        }
    };
    for f in defs.values() {
        walk::block(&f.body, &mut |n| {
            if let Node::Directive(d) = n
                && crate::is_target_region(d.kind)
                && let Some(b) = &d.body
            {
                walk::stmt(b, &mut |n| {
                    if let Node::Expr(e) = n {
                        named(e, &mut todo);
                    }
                });
            }
        });
    }
    let mut seen = FxHashSet::default();
    while let Some(f) = todo.pop() {
        if !seen.insert(f) {
            continue;
        }
        walk::block(&defs[&f].body, &mut |n| {
            if let Node::Expr(e) = n {
                named(e, &mut todo);
            }
        });
    }
    seen
}

/// The enclosing directives' leaf constructs of code at `at` in `f`, outermost first, and
/// whether one of them is a target region.
pub(crate) fn enclosing_constructs(f: &FunctionDef, at: Span) -> (Vec<&'static str>, bool) {
    let mut enclosing: Vec<&OmpDirective> = Vec::new();
    walk::block(&f.body, &mut |n| {
        if let Node::Directive(d) = n
            && let Some(b) = &d.body
            && b.span.lo <= at.lo
            && at.hi <= b.span.hi
        {
            enclosing.push(d);
        }
    });
    enclosing.sort_by_key(|d| d.span.lo);
    let in_target = enclosing.iter().any(|d| crate::is_target_region(d.kind));
    let constructs = enclosing
        .iter()
        .flat_map(|d| selector::construct_leaves(d.kind))
        .collect();
    (constructs, in_target)
}

/// Every metadirective of `tu` (`text` is what it was parsed from), resolved for the device
/// (code for `sm_<isa>`) and the host version of its code.
pub fn resolve_metadirectives(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
    isa: u32,
) -> (Vec<MetaEdit>, Vec<Diagnostic>) {
    let mut edits = Vec::new();
    let mut diags = Vec::new();
    let mut device_fns: Option<FxHashSet<SymbolId>> = None;
    for item in &tu.items {
        let f = match item {
            ExternalDecl::Function(f) => f,
            ExternalDecl::Omp(d) if is_meta(d) => {
                diags.push(meta_error(d, "a metadirective at file scope"));
                continue;
            }
            _ => continue,
        };
        let mut metas: Vec<&OmpDirective> = Vec::new();
        walk::block(&f.body, &mut |n| {
            if let Node::Directive(d) = n
                && is_meta(d)
            {
                metas.push(d);
            }
        });
        if metas.is_empty() {
            continue;
        }
        let fns = device_fns.get_or_insert_with(|| device_functions(tu, typed));
        let device_fn = typed
            .decl_symbol(f.declarator.id)
            .is_some_and(|s| fns.contains(&s));
        for d in metas {
            let (lo, hi) = (d.span.lo as usize, d.span.hi as usize);
            let line = &text[lo..hi];
            if d.unsupported_name.first() == Some(&"begin") {
                diags.push(meta_error(
                    d,
                    "'begin metadirective' is not supported by ompcc",
                ));
                continue;
            }
            let (constructs, in_target) = enclosing_constructs(f, d.span);
            let mut device_constructs = constructs.clone();
            if device_fn && !in_target {
                device_constructs.insert(0, "target");
            }
            let resolved = parse_meta(line).and_then(|meta| {
                let host = select(
                    &meta,
                    &Context {
                        device: false,
                        isa: 0,
                        constructs: &constructs,
                    },
                )?;
                let device = if in_target || device_fn {
                    select(
                        &meta,
                        &Context {
                            device: true,
                            isa,
                            constructs: &device_constructs,
                        },
                    )?
                } else {
                    host.clone()
                };
                Ok(MetaEdit {
                    lo,
                    hi,
                    device: variant_line(&device, hi - lo)?,
                    host: variant_line(&host, hi - lo)?,
                })
            });
            match resolved {
                Ok(e) => edits.push(e),
                Err(why) => diags.push(meta_error(d, &why)),
            }
        }
    }
    (edits, diags)
}

fn is_meta(d: &OmpDirective) -> bool {
    d.kind == OmpDirectiveKind::Unsupported && d.unsupported_name.last() == Some(&"metadirective")
}

fn meta_error(d: &OmpDirective, why: &str) -> Diagnostic {
    Diagnostic::error(
        "E0912",
        format!("cannot resolve '#pragma omp {}': {why}", d.name()),
        d.span,
    )
}
