//! May-alias facts between the bases of one function: two bases are reported distinct only
//! when it is proven; every other pair may alias.
//!
//! Proofs, in order: two named arrays (distinct objects); two allocations (fresh objects);
//! an allocation and a named array; a `restrict`-qualified pointer and any other base that
//! cannot be based on it (C11 6.7.3.1, within the pointer's block); a local array or allocation of this call and a
//! parameter (the parameter's value existed before the object); a local array or allocation
//! whose address never escapes and any other base; two bases whose element types cannot
//! alias under C11 6.5p7 (`int` and `double`; a character, structure or union type may
//! alias anything), as gcc and clang assume by default.

use crate::model::*;
use crate::section::Ctx;

/// Why two bases are distinct, or `None` when they may alias.
pub(crate) fn distinct(cx: &Ctx<'_>, a: BaseId, b: BaseId) -> Option<&'static str> {
    if a == b {
        return None;
    }
    let (x, y) = (&cx.f.bases[a.0 as usize], &cx.f.bases[b.0 as usize]);
    if matches!(x.kind, BaseKind::Unknown(_)) || matches!(y.kind, BaseKind::Unknown(_)) {
        return None;
    }
    let fresh = |k: &BaseKind| matches!(k, BaseKind::Pointer(Provenance::Alloc { .. }));
    let array = |k: &BaseKind| matches!(k, BaseKind::Array { .. });
    let object = |k: &BaseKind| array(k) || matches!(k, BaseKind::GlobalScalar);
    let local = |k: &BaseKind| fresh(k) || matches!(k, BaseKind::Array { global: false });
    let param = |k: &BaseKind| matches!(k, BaseKind::Pointer(Provenance::Param(_)));
    if object(&x.kind) && object(&y.kind) {
        return Some("distinct variables");
    }
    if fresh(&x.kind) && fresh(&y.kind) {
        return Some("distinct allocations");
    }
    if (fresh(&x.kind) && array(&y.kind)) || (array(&x.kind) && fresh(&y.kind)) {
        return Some("allocation and array");
    }
    if (x.restrict && !may_be_based_on(cx, y, x)) || (y.restrict && !may_be_based_on(cx, x, y)) {
        return Some("restrict");
    }
    if (local(&x.kind) && param(&y.kind)) || (param(&x.kind) && local(&y.kind)) {
        return Some("local object and parameter");
    }
    if (local(&x.kind) && x.escapes.is_none()) || (local(&y.kind) && y.escapes.is_none()) {
        return Some("local object that does not escape");
    }
    if let (Some(a), Some(b)) = (x.elem_class, y.elem_class)
        && !a.may_modify(b)
    {
        return Some("element types that cannot alias");
    }
    None
}

/// Whether pointer base `q` may hold a value computed from restrict pointer `p` ("based on"
/// it, C11 6.7.3.1p3): then the two may reach the same object legally (`q = p + 1`, pointers
/// swapped), and `restrict` proves nothing about the pair. Named objects, allocations and
/// parameters never assigned hold values that `p` did not make; a pointer from the address of
/// another named base neither.
fn may_be_based_on(cx: &Ctx<'_>, q: &Base, p: &Base) -> bool {
    match &q.kind {
        BaseKind::Array { .. } | BaseKind::GlobalScalar => false,
        BaseKind::Pointer(Provenance::Alloc { .. }) => false,
        BaseKind::Pointer(Provenance::Param(_)) => {
            q.root.is_none_or(|r| cx.f.env.writes.contains_key(&r))
        }
        BaseKind::Pointer(Provenance::AddressOf(name)) => *name == p.name,
        _ => true,
    }
}

/// True unless the two bases are proven distinct.
pub(crate) fn may_alias(cx: &Ctx<'_>, a: BaseId, b: BaseId) -> bool {
    a == b || distinct(cx, a, b).is_none()
}
