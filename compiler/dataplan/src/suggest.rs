//! The W0912 help: the map clause a region's accesses call for.

use ompcc_access::{BaseKind, DimRange, Scope, Section, UnitAccesses};
use ompcc_diag::Span;
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{BlockItem, ExternalDecl, TranslationUnit};

use crate::section::contains;
use crate::tree;

/// For each pointer a `target` region uses without a map clause whose accesses in the
/// region all happen unconditionally, the clause they call for: (the region's statement span,
/// the pointer, `map(tofrom: a[0:n])`). The W0912 help shows it.
pub fn suggested_maps(
    tu: &TranslationUnit,
    typed: &TypedUnit,
) -> Vec<(Span, ompcc_sema::SymbolId, String)> {
    let ua = ompcc_access::analyze(tu, typed);
    let mut out = Vec::new();
    let funcs = tu.items.iter().filter_map(|i| match i {
        ExternalDecl::Function(f) => Some(f),
        _ => None,
    });
    for (fi, f) in funcs.enumerate().take(ua.functions.len()) {
        let fa = &ua.functions[fi];
        let items: Vec<&BlockItem> = f.body.items.iter().collect();
        let guarded = tree::guarded_spans(&items, f.body.span);
        for r in fa
            .regions
            .iter()
            .filter(|r| r.directive.starts_with("target"))
        {
            // guards around the region do not make its accesses conditional within it
            let inside = |s: Span| s.lo >= r.span.lo && s.hi <= r.span.hi;
            let unsure = |s: Span| {
                fa.calls.iter().any(|c| c.span == s)
                    || guarded
                        .iter()
                        .any(|g| inside(*g) && s.lo >= g.lo && s.hi <= g.hi)
            };
            let all = ua.sections(fi, Scope::Region(r.id));
            let sure = ua.sections_of(fi, Scope::Region(r.id), &|s| !unsure(s));
            for bs in &all {
                let b = &fa.bases[bs.base.0 as usize];
                let (BaseKind::Pointer(_), Some(root)) = (&b.kind, b.root) else {
                    continue;
                };
                let Some(sure) = sure.iter().find(|x| x.base == bs.base) else {
                    continue;
                };
                let joined = |x: &ompcc_access::BaseSections| -> Option<Vec<DimRange>> {
                    let parts: Vec<&Section> = [&x.read, &x.write].into_iter().flatten().collect();
                    let mut acc = (*parts.first()?).clone().ok()?;
                    for p in &parts[1..] {
                        acc = UnitAccesses::join_sections(&Ok(acc), p, r.span).ok()?;
                    }
                    Some(acc)
                };
                let (Some(all_d), Some(sure_d)) = (joined(bs), joined(sure)) else {
                    continue;
                };
                if !contains(&sure_d, &all_d) {
                    continue;
                }
                let mut text = b.name.clone();
                for d in &sure_d {
                    let Some(len) = d.length() else { continue };
                    text.push_str(&format!("[{}:{}]", ua.expr_c(&d.lo), ua.expr_c(&len)));
                }
                // `from` would copy back elements a partial write left undefined
                let kind = if bs.write.is_some() { "tofrom" } else { "to" };
                out.push((r.span, root, format!("map({kind}: {text})")));
            }
        }
    }
    out
}
