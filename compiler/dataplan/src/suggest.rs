//! The map clause a region's accesses call for: the W0912 help, and the maps of the loops
//! automatic offload versions.

use ompcc_access::{
    BaseId, BaseKind, DimRange, FunctionAccesses, Region, Scope, Section, UnitAccesses,
};
use ompcc_diag::Span;
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{BlockItem, ExternalDecl, FunctionDef, TranslationUnit};

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
        for r in fa
            .regions
            .iter()
            .filter(|r| r.directive.starts_with("target"))
        {
            for m in region_sections(&ua, fi, f, r) {
                let b = &fa.bases[m.base.0 as usize];
                let (BaseKind::Pointer(_), Some(root), Some(text)) = (&b.kind, b.root, m.text)
                else {
                    continue;
                };
                // `from` would copy back elements a partial write left undefined
                let kind = if m.written { "tofrom" } else { "to" };
                out.push((r.span, root, format!("map({kind}: {text})")));
            }
        }
    }
    out
}

/// The section of one base a region touches.
pub struct RegionSection {
    /// The base.
    pub base: BaseId,
    /// The region writes it.
    pub written: bool,
    /// The section as C (`a[0:n][0:m]`), when every element the region may touch is also
    /// touched unconditionally (so the section exists in memory); `None` otherwise.
    pub text: Option<String>,
    /// The element counts of the section's dimensions as C, with `text`.
    pub lengths: Vec<String>,
    /// Without `text`: the fact that is missing.
    pub why: String,
}

/// The sections of every base the region `r` of function `fi` (`f`) touches, calls included.
pub fn region_sections(
    ua: &UnitAccesses,
    fi: usize,
    f: &FunctionDef,
    r: &Region,
) -> Vec<RegionSection> {
    scope_sections(ua, fi, f, Scope::Region(r.id), r.span)
}

/// The same for any scope of the function (`span`: its statement).
pub fn scope_sections(
    ua: &UnitAccesses,
    fi: usize,
    f: &FunctionDef,
    scope: Scope,
    span: Span,
) -> Vec<RegionSection> {
    let fa: &FunctionAccesses = &ua.functions[fi];
    let items: Vec<&BlockItem> = f.body.items.iter().collect();
    let guarded = tree::guarded_spans(&items, f.body.span);
    // guards around the scope do not make its accesses conditional within it
    let inside = |s: Span| s.lo >= span.lo && s.hi <= span.hi;
    let unsure = |s: Span| {
        fa.calls.iter().any(|c| c.span == s)
            || guarded
                .iter()
                .any(|g| inside(*g) && s.lo >= g.lo && s.hi <= g.hi)
    };
    let all = ua.sections(fi, scope);
    let sure = ua.sections_of(fi, scope, &|s| !unsure(s));
    let joined = |x: &ompcc_access::BaseSections| -> Option<Vec<DimRange>> {
        let parts: Vec<&Section> = [&x.read, &x.write].into_iter().flatten().collect();
        let mut acc = (*parts.first()?).clone().ok()?;
        for p in &parts[1..] {
            acc = UnitAccesses::join_sections(&Ok(acc), p, span).ok()?;
        }
        Some(acc)
    };
    // the conditional accesses and calls, each checked on its own against the unconditional
    // section with the facts of its enclosing loops (a `?:` arm or an `if` branch)
    let unsure_spans: Vec<Span> = fa
        .accesses
        .iter()
        .map(|a| a.span)
        .chain(fa.calls.iter().map(|c| c.span))
        .filter(|&s| inside(s) && unsure(s))
        .collect();
    let unsure_within = |base: BaseId, sure_d: &[DimRange]| {
        unsure_spans.iter().all(|&at| {
            ua.sections_of(fi, scope, &|s| s == at)
                .iter()
                .filter(|s| s.base == base)
                .all(|s| {
                    joined(s).is_some_and(|g| {
                        contains(sure_d, &g) || ua.contains_when_run(fi, at, sure_d, &g)
                    })
                })
        })
    };
    all.iter()
        .map(|bs| {
            let b = &fa.bases[bs.base.0 as usize];
            let proven = sure
                .iter()
                .find(|x| x.base == bs.base)
                .and_then(|s| Some((joined(bs)?, joined(s)?)))
                .filter(|(all_d, sure_d)| contains(sure_d, all_d) || unsure_within(bs.base, sure_d))
                .map(|(_, sure_d)| sure_d)
                .or_else(|| within_allocation(b, joined(bs)?));
            let mut lengths = Vec::new();
            let text = proven.and_then(|dims| {
                let mut text = b.name.clone();
                for (i, d) in dims.iter().enumerate() {
                    // rows are mapped whole where their length is known, so that the
                    // section is contiguous (OpenMP requires it)
                    let whole = i
                        .checked_sub(1)
                        .and_then(|e| b.extents.get(e)?.as_ref().ok());
                    let (lo, len) = match whole {
                        Some(ext) => ("0".to_owned(), ua.expr_c(ext)),
                        None => (ua.expr_c(&d.lo), ua.expr_c(&d.length()?)),
                    };
                    text.push_str(&format!("[{lo}:{len}]"));
                    lengths.push(len);
                }
                Some(text)
            });
            let why = [&bs.read, &bs.write]
                .into_iter()
                .flatten()
                .find_map(|s| s.as_ref().err())
                .map_or_else(
                    || "an access may touch elements no unconditional access does".to_owned(),
                    |u| u.reason.message(),
                );
            RegionSection {
                base: bs.base,
                written: bs.write.is_some(),
                text,
                lengths,
                why,
            }
        })
        .collect()
}

/// `all`, when the pointer holds an allocation of this function of known size that
/// contains it: the elements exist even where the accesses are conditional.
fn within_allocation(b: &ompcc_access::Base, all: Vec<DimRange>) -> Option<Vec<DimRange>> {
    let BaseKind::Pointer(ompcc_access::Provenance::Alloc { elems: Ok(n), .. }) = &b.kind else {
        return None;
    };
    let whole = DimRange {
        lo: ompcc_access::SymExpr::int(0),
        hi: n.add_const(-1)?,
    };
    (all.len() == 1 && contains(std::slice::from_ref(&whole), &all)).then_some(all)
}
