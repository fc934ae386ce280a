//! W0912: a pointer used in a target region that nothing maps — the most common offload bug.
//!
//! OpenMP maps a pointer that a target region uses without a map clause as a zero-length
//! array section (`map(tofrom: p[:0])`, OpenMP 5.2 section 5.8.6): the kernel's copy points
//! at the device copy of data mapped *earlier* that contains the pointee, and when there is
//! none it keeps the host address, which the device cannot read. That is right when the
//! data was mapped by an enclosing `target data` or a `target enter data`, and a fault on the
//! device otherwise.
//!
//! The check is syntactic and local to the function, so it cannot see data mapped by a
//! caller or another function: it warns when a pointer parameter of a region comes from an
//! implicit map ([`crate::Pass::DevicePtr`] with no map clause and no `is_device_ptr`) and no
//! `target data` construct of the same function that maps anything encloses the region, and
//! no `target enter data` of the function maps a list item of that variable.
//!
//! A unit with `#pragma omp requires unified_address` gets no W0912: there an unmapped
//! pointer is a device address the program passes as a value (from `omp_target_alloc`,
//! `omp_get_mapped_ptr`, `use_device_ptr`), which is what that requirement promises to keep
//! working without `is_device_ptr`. Nor does one with `unified_shared_memory` (which implies
//! it): there the device dereferences host pointers.

use ompcc_diag::{Diagnostic, Span};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{
    Expr, ExprKind, ExternalDecl, OmpClauseName, OmpDirectiveKind, Symbol, TranslationUnit,
};

use crate::{OffloadPlan, Pass, base_ident};

/// Whether `tu` has `#pragma omp requires` with the clause `name` (checked at file scope,
/// where `requires` may appear).
fn requires(tu: &TranslationUnit, name: OmpClauseName) -> bool {
    tu.items.iter().any(|item| {
        matches!(item, ExternalDecl::Omp(d) if d.kind == OmpDirectiveKind::Requires
            && d.clauses.iter().any(|c| c.name == name))
    })
}

/// Whether `tu` requires `unified_address`, by that clause or by `unified_shared_memory`
/// (which implies it, OpenMP 5.2 8.2.1).
pub fn requires_unified_address(tu: &TranslationUnit) -> bool {
    requires(tu, OmpClauseName::UnifiedAddress) || requires_unified_shared_memory(tu)
}

/// Whether `tu` has `#pragma omp requires unified_shared_memory`.
pub fn requires_unified_shared_memory(tu: &TranslationUnit) -> bool {
    requires(tu, OmpClauseName::UnifiedSharedMemory)
}

/// The W0912 warnings of a plan, in region order. `suggest(region statement, pointer)` gives
/// the map clause the region's accesses call for, when the access analysis knows it.
pub fn unmapped_pointer_warnings(
    plan: &OffloadPlan<'_>,
    suggest: &dyn Fn(Span, SymbolId) -> Option<String>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in &plan.regions {
        let func = r.function.span;
        for p in &r.params {
            let Some(m) = p.map.as_ref().filter(|m| m.implicit) else {
                continue;
            };
            if p.pass != Pass::DevicePtr {
                continue;
            }
            let Some(var) = ident(m.expr) else {
                continue;
            };
            let covered = plan.data.iter().any(|d| {
                let at = d.directive.span;
                if at.lo < func.lo || at.hi > func.hi {
                    return false;
                }
                let kind = d.directive.kind;
                let encloses = kind == OmpDirectiveKind::TargetData
                    && d.directive.body.as_ref().is_some_and(|b| {
                        b.span.lo <= r.directive.span.lo && r.directive.span.hi <= b.span.hi
                    });
                // `target enter data` maps until a matching exit: anywhere in the function.
                let maps_it = kind == OmpDirectiveKind::TargetEnterData
                    && d.maps.iter().any(|dm| ident(dm.expr) == Some(var));
                encloses || maps_it
            });
            if covered {
                continue;
            }
            let name = &p.name;
            out.push(
                Diagnostic::warning(
                    "W0912",
                    format!(
                        "pointer '{name}' is used in a target region, but nothing maps the data \
                         it points to"
                    ),
                    use_span(m.expr),
                )
                .with_label(
                    r.directive.span,
                    "the region maps it as a zero-length section",
                )
                .with_note(format!(
                    "without a map, the device gets '{name}' pointing into data mapped before \
                     the region, or its host address when there is none (a fault on the device)"
                ))
                .with_help(
                    match suggest(Span::new(r.directive.span.lo, r.directive.span.lo), p.sym) {
                        Some(clause) => format!(
                            "add {clause} to the target directive (the elements the region \
                             uses), or build with -fopenmp-plan-data and ompcc maps it"
                        ),
                        None => format!(
                            "add map(tofrom: {name}[0:COUNT]) (COUNT: the elements the region \
                             uses; to: or from: when it only reads or only writes them) to the \
                             target directive, or map it with 'target data' / 'target enter \
                             data' first"
                        ),
                    },
                ),
            );
        }
    }
    out
}

/// The variable an identifier, section or element expression is based on.
fn ident(e: &Expr) -> Option<Symbol> {
    match base_ident(e)?.kind {
        ExprKind::Ident(s) => Some(s),
        _ => None,
    }
}

fn use_span(e: &Expr) -> Span {
    base_ident(e).map_or(e.span, |b| b.span)
}
