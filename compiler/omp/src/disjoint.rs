//! Disjoint kernel parameters (issue 17): which pointer parameters of a kernel reach memory
//! that nothing else the kernel can reach overlaps, so lowering may mark them `noalias` (and
//! the `readonly` pass may then load what the kernel only reads through `ld.global.nc`).
//!
//! Each parameter that carries an address stands for a host object, whose device copy the
//! kernel reaches through it:
//! - `Copy`: a temporary the host maps for this launch only (fresh, disjoint from all);
//! - `Ref`: the variable's own storage (a whole named object);
//! - `DevicePtr`: the objects the pointer variable's host value points into (its base in the
//!   access analysis);
//! - `Value` of a pointer type (`is_device_ptr`) and `DeviceAddr`: a device address that
//!   nothing relates to a host object, so nothing is proven about it.
//!
//! Disjoint host objects have disjoint device copies (the runtime maps each present host
//! range once). A parameter is disjoint when, against every other address parameter, the
//! pair is proven distinct: two variables by being two variables, a variable and a pointer by
//! `UnitAccesses::var_distinct`, two pointers by `UnitAccesses::distinct` (distinct named
//! arrays, allocations, `restrict`, a local against a parameter, element types that cannot
//! alias). When the unit has `declare target` variables, which the kernel reaches by name, a
//! pointer must also be a fresh allocation or `restrict` (it could hold the address of one),
//! and a variable must not be one of them. Every parameter not proven gets a missed remark
//! naming the first missing fact when the region only reads what it reaches.

use ompcc_access::{BaseId, BaseKind, Provenance, UnitAccesses};
use ompcc_sema::{SymbolId, TypedUnit};

use crate::plan::{Param, Pass, TargetRegion};

/// What a kernel parameter's address reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Obj {
    /// Not an address (a scalar value).
    NotMemory,
    /// A fresh temporary.
    Fresh,
    /// The whole storage of this variable.
    Var(SymbolId),
    /// What this pointer base of the function points into.
    Pointee(BaseId),
    /// Unrelated to any host object (or the pointer's base is not in the analysis).
    Unknown(&'static str),
}

/// The disjoint parameters of one region, and one missed-remark text per read-only
/// parameter that is not.
pub(crate) struct Disjoint {
    /// Indices into the region's `params`, ascending.
    pub params: Vec<u32>,
    /// For each proven parameter, its name and the proof of its first pair (for remarks).
    pub proven: Vec<(String, &'static str)>,
    /// Missing facts, one per parameter the region only reads.
    pub missed: Vec<String>,
}

/// See the module header. `fi` is the function of `r` in `ua`.
pub(crate) fn disjoint_params(
    ua: &UnitAccesses<'_>,
    fi: usize,
    typed: &TypedUnit,
    r: &TargetRegion<'_>,
    device_globals: &[SymbolId],
) -> Disjoint {
    let objs: Vec<Obj> = r.params.iter().map(|p| obj_of(ua, fi, typed, p)).collect();
    let body = r
        .directive
        .body
        .as_deref()
        .map_or(r.directive.span, |s| s.span);
    let mut out = Disjoint {
        params: Vec::new(),
        proven: Vec::new(),
        missed: Vec::new(),
    };
    for (i, p) in r.params.iter().enumerate() {
        if objs[i] == Obj::NotMemory {
            continue;
        }
        match proof(ua, fi, r, &objs, i, device_globals) {
            Ok(why) => {
                if let Ok(i) = u32::try_from(i) {
                    out.params.push(i);
                    out.proven.push((p.name.clone(), why));
                }
            }
            Err(fact) => {
                let read_only = match objs[i] {
                    Obj::Pointee(b) => !ua.writes_within(fi, b, body),
                    Obj::Var(v) => ua
                        .base_of_var(fi, v)
                        .is_some_and(|b| !ua.writes_within(fi, b, body)),
                    _ => false,
                };
                if read_only {
                    out.missed.push(format!(
                        "'{}' is only read in the region but not proven disjoint from the \
                         memory the kernel writes: {fact}",
                        p.name
                    ));
                }
            }
        }
    }
    out
}

/// The object parameter `p` reaches.
fn obj_of(ua: &UnitAccesses<'_>, fi: usize, typed: &TypedUnit, p: &Param<'_>) -> Obj {
    match p.pass {
        Pass::Copy => Obj::Fresh,
        Pass::Ref => Obj::Var(p.sym),
        Pass::DevicePtr => match ua.base_of_var(fi, p.sym) {
            Some(b) => Obj::Pointee(b),
            None => Obj::Unknown("its accesses are not in the access analysis"),
        },
        Pass::Value if typed.types.is_pointer(typed.symbols[p.sym].ty) => {
            // a `restrict` device pointer still promises what it reaches is its own
            let restrict = typed
                .types
                .canon(typed.symbols[p.sym].ty)
                .quals
                .contains(ompcc_sema::types::Quals::RESTRICT);
            match ua.base_of_var(fi, p.sym) {
                Some(b) if restrict => Obj::Pointee(b),
                _ => Obj::Unknown("it is a device pointer (is_device_ptr)"),
            }
        }
        Pass::Value => Obj::NotMemory,
        Pass::DeviceAddr => Obj::Unknown("it is a device address (has_device_addr)"),
    }
}

/// Why parameter `i` is disjoint from everything else the kernel reaches, or the first
/// missing fact.
fn proof(
    ua: &UnitAccesses<'_>,
    fi: usize,
    r: &TargetRegion<'_>,
    objs: &[Obj],
    i: usize,
    device_globals: &[SymbolId],
) -> Result<&'static str, String> {
    let name = |j: usize| r.params[j].name.as_str();
    let fresh_or_restrict = |b: BaseId| {
        let base = &ua.functions[fi].bases[b.0 as usize];
        base.restrict || matches!(base.kind, BaseKind::Pointer(Provenance::Alloc { .. }))
    };
    match objs[i] {
        Obj::Unknown(why) => return Err(why.to_string()),
        Obj::Var(v) if device_globals.contains(&v) => {
            return Err("it is a declare-target variable".into());
        }
        Obj::Pointee(b) if !device_globals.is_empty() && !fresh_or_restrict(b) => {
            return Err(format!(
                "'{}' may point into a declare-target variable (it is neither a fresh \
                 allocation nor restrict)",
                name(i)
            ));
        }
        _ => {}
    }
    let mut first = None;
    for (j, &other) in objs.iter().enumerate() {
        if j == i || other == Obj::NotMemory {
            continue;
        }
        let why = match (objs[i], other) {
            (Obj::Fresh, _) | (_, Obj::Fresh) => Some("a temporary of the launch"),
            (Obj::Var(a), Obj::Var(b)) => (a != b).then_some("distinct variables"),
            (Obj::Var(v), Obj::Pointee(b)) | (Obj::Pointee(b), Obj::Var(v)) => {
                ua.var_distinct(fi, v, b)
            }
            (Obj::Pointee(a), Obj::Pointee(b)) => ua.distinct(fi, a, b),
            _ => None,
        };
        match why {
            Some(w) => {
                first.get_or_insert(w);
            }
            None => {
                let how = match other {
                    Obj::Unknown(w) => format!(" ({w})"),
                    _ => String::new(),
                };
                return Err(format!(
                    "'{}' and '{}' are not proven distinct objects{how}",
                    name(i),
                    name(j)
                ));
            }
        }
    }
    Ok(first.unwrap_or("no other memory parameter"))
}
