//! OpenMP 5.1/5.2 spellings that ompcc accepts and gcc 12 (the host compiler) rejects, made
//! into what gcc understands, with the same meaning for the host fallback (which gcc compiles
//! with `-foffload=disable`, where every device is the host):
//! - `declare target enter(list)` becomes `declare target to(list)` (5.2 renamed `to`);
//! - `begin declare target` becomes `declare target` (the delimited form gcc 12 knows), and
//!   `device_type(...)` is dropped from every `declare target`: it chooses devices, and gcc 12
//!   ignores a delimited `declare target` whose only clause is `device_type` (its
//!   `end declare target` is then an error); so is `indirect[(...)]`, which gcc 12 does not
//!   know (host code calls host functions through host pointers anyway).
//! - `map(present, ...)` loses its `present` modifier and `defaultmap(present[: category])`
//!   becomes `defaultmap(tofrom[: category])`: presence is always true on the host, and these
//!   clauses reach gcc only in the host-fallback copy of a `target` construct (standalone
//!   data directives are replaced whole); likewise a `*p` list item becomes `p[0:1]`.
//!
//! - `device(n)` on a `target` region becomes `device(-1)` (`omp_initial_device`) in its
//!   host-fallback copy: the runtime evaluated `n` already and chose the host, and libgomp,
//!   which has no devices, would read ompcc's device numbers (its initial device included)
//!   as missing devices and abort under `OMP_TARGET_OFFLOAD=MANDATORY`.
//!
//! - `requires unified_address` and `unified_shared_memory` are dropped (gcc 12 answers
//!   "sorry, unimplemented"; ompcc meets them, the runtime told by the image's registration,
//!   and the host fallback's only device is the host), with the whole directive when no other
//!   clause remains; the clause ompcc refuses (E0913, `reverse_offload`) never reaches here.
//!
//! - `map(iterator(...), ...)` (OpenMP 5.1) is dropped from fallback copies: gcc 12 does not
//!   know `iterator` in data clauses, and on the host the items are the host's own storage.
//!
//! - `uses_allocators` naming only predefined allocators (`omp_*_mem_alloc`, which need no
//!   declaring) is dropped from fallback copies: gcc 12 does not know the clause.
//!
//! Invariant: each replacement lies inside one pragma line and keeps it one line, and no two
//! replacements overlap (each is a whole clause, a clause's name, a directive's name, a
//! modifier list, or a `*` and an insertion after a list item), so line numbers stay the
//! user's. They go to the pragma-only substitutions: C expressions built from list items
//! still see the items as written.

use ompcc_omp::walk::{self, Node};
use ompcc_syntax::ast::{
    DefaultmapBehavior, DefaultmapCategory, Expr, ExprKind, MapModifier, OmpClauseKind,
    OmpClauseName, OmpDirectiveKind, TranslationUnit, UnaryOp,
};
use std::collections::BTreeMap;

/// Adds to `subst` (start -> (end, text)) the replacements in the pragma lines of `tu`
/// (`text` is what `tu` was parsed from).
pub(crate) fn host_pragmas(
    tu: &TranslationUnit,
    text: &str,
    subst: &mut BTreeMap<usize, (usize, String)>,
) {
    walk::unit(tu, &mut |n| {
        let Node::Directive(d) = n else { return };
        let declare = matches!(
            d.kind,
            OmpDirectiveKind::DeclareTarget | OmpDirectiveKind::BeginDeclareTarget
        );
        if d.kind == OmpDirectiveKind::Requires {
            requires(d, text, subst);
            return;
        }
        if d.kind == OmpDirectiveKind::BeginDeclareTarget {
            let (lo, hi) = (d.name_span.lo as usize, d.name_span.hi as usize);
            subst.insert(lo, (hi, "#pragma omp declare target".to_owned()));
        }
        for c in &d.clauses {
            let (lo, hi) = (c.span.lo as usize, c.span.hi as usize);
            match (c.name, &c.kind) {
                (OmpClauseName::Enter, _) if declare => {
                    subst.insert(lo, (lo + "enter".len(), "to".to_owned()));
                }
                (OmpClauseName::DeviceType | OmpClauseName::Indirect, _) if declare => {
                    subst.insert(lo, (hi, String::new()));
                }
                // the fallback copy of a `target` region runs on the host whatever device
                // the runtime was asked for: libgomp, with no device of its own, would
                // take ompcc's device numbers (the initial device among them) for missing
                // devices and abort under OMP_TARGET_OFFLOAD=MANDATORY
                (OmpClauseName::Device, _) if ompcc_omp::is_target_region(d.kind) => {
                    subst.insert(lo, (hi, "device(-1)".to_owned()));
                }
                (
                    _,
                    OmpClauseKind::Defaultmap {
                        behavior: DefaultmapBehavior::Present,
                        category,
                    },
                ) => {
                    let category = match category {
                        Some(DefaultmapCategory::Scalar) => ": scalar",
                        Some(DefaultmapCategory::Aggregate) => ": aggregate",
                        Some(DefaultmapCategory::Pointer) => ": pointer",
                        Some(DefaultmapCategory::All) | None => "",
                    };
                    subst.insert(lo, (hi, format!("defaultmap(tofrom{category})")));
                }
                (OmpClauseName::UsesAllocators, OmpClauseKind::List(items))
                    if items.iter().all(|e| {
                        let name = &text[e.span.lo as usize..e.span.hi as usize];
                        name.starts_with("omp_")
                            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    }) =>
                {
                    subst.insert(lo, (hi, String::new()));
                }
                // gcc 12 does not know `iterator` in data clauses; these reach it only in the
                // fallback copy of a `target` region, where every device is the host
                (
                    _,
                    OmpClauseKind::Map {
                        iterated: Some(_), ..
                    }
                    | OmpClauseKind::Motion {
                        iterated: Some(_), ..
                    },
                ) => {
                    subst.insert(lo, (hi, String::new()));
                }
                (
                    _,
                    OmpClauseKind::Map {
                        modifiers, list, ..
                    },
                ) => {
                    if modifiers.contains(&MapModifier::Present)
                        && let Some((at, with)) = without_present(&text[lo..hi])
                    {
                        subst.insert(lo + at.start, (lo + at.end, with));
                    }
                    for e in list {
                        deref_as_section(e, subst);
                    }
                }
                _ => {}
            }
        }
    });
}

/// Writes a `requires` directive without its `unified_address` and `unified_shared_memory`
/// clauses, or only the directive's newlines when nothing else is left.
fn requires(
    d: &ompcc_syntax::ast::OmpDirective,
    text: &str,
    subst: &mut BTreeMap<usize, (usize, String)>,
) {
    let ours = |c: &&ompcc_syntax::ast::OmpClause| {
        matches!(
            c.name,
            OmpClauseName::UnifiedAddress | OmpClauseName::UnifiedSharedMemory
        )
    };
    if !d.clauses.iter().any(|c| ours(&c)) {
        return;
    }
    let (lo, hi) = (d.span.lo as usize, d.span.hi as usize);
    let newlines: String = text.get(lo..hi).unwrap_or("").matches('\n').collect();
    let kept: Vec<&str> = d
        .clauses
        .iter()
        .filter(|c| !ours(c))
        .filter_map(|c| text.get(c.span.lo as usize..c.span.hi as usize))
        .collect();
    let with = if kept.is_empty() {
        newlines
    } else {
        format!("#pragma omp requires {}{newlines}", kept.join(", "))
    };
    subst.insert(lo, (hi, with));
}

/// A `*p` list item (`*s.p`, `*q->p`) becomes `p[0:1]`, the same storage: gcc 12 takes only
/// variables, sections and members in a map clause. The `*` is dropped and `[0:1]` inserted
/// after the pointer, so the pointer's own text is untouched.
fn deref_as_section(e: &Expr, subst: &mut BTreeMap<usize, (usize, String)>) {
    let ExprKind::Unary(UnaryOp::Deref, inner) = &e.kind else {
        return;
    };
    let mut p: &Expr = inner;
    loop {
        match &p.kind {
            ExprKind::Ident(_) => break,
            ExprKind::Member { base, .. } => p = base,
            _ => return,
        }
    }
    let (lo, hi) = (e.span.lo as usize, e.span.hi as usize);
    subst.insert(lo, (inner.span.lo as usize, String::new()));
    subst.insert(hi, (hi, "[0:1]".to_owned()));
}

/// For the text of a `map` clause whose modifiers include `present`: the byte range of its
/// modifier list (after `map(`, up to the `:`) and that list without `present`.
fn without_present(clause: &str) -> Option<(std::ops::Range<usize>, String)> {
    let open = clause.find('(')? + 1;
    // The modifiers end at the first `:` outside brackets and parentheses (sections have
    // their own colons inside `[...]`, iterators inside `(...)`).
    let mut depth = 0i32;
    let mut colon = None;
    for (i, ch) in clause[open..].char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ':' if depth == 0 => {
                colon = Some(open + i);
                break;
            }
            _ => {}
        }
    }
    let colon = colon?;
    let mut kept = Vec::new();
    let (mut depth, mut from) = (0i32, open);
    for (i, ch) in clause[open..colon].char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                kept.push(&clause[from..open + i]);
                from = open + i + 1;
            }
            _ => {}
        }
    }
    kept.push(&clause[from..colon]);
    // 5.2 also separates modifiers by blanks alone (`map(present to: x)`).
    let words: Vec<&str> = kept
        .iter()
        .flat_map(|m| {
            let m = m.trim();
            if m.contains('(') {
                vec![m]
            } else {
                m.split_whitespace().collect()
            }
        })
        .filter(|w| *w != "present" && !w.is_empty())
        .collect();
    let with = if words.is_empty() {
        // `map(present: x)`: the map type defaults to `tofrom`.
        "tofrom ".to_owned()
    } else {
        format!("{} ", words.join(", "))
    };
    Some((open..colon, with))
}

#[cfg(test)]
mod tests {
    use super::without_present;

    #[test]
    fn present_leaves_the_modifier_list() {
        let cases = [
            ("map(present, to: a[0:n])", "to "),
            ("map(always, present, tofrom : a)", "always, tofrom "),
            ("map(present tofrom: a)", "tofrom "),
            ("map(present: a)", "tofrom "),
            (
                "map(present, iterator(i = 0 : n), to: a[i])",
                "iterator(i = 0 : n), to ",
            ),
        ];
        for (clause, want) in cases {
            let (range, with) = without_present(clause).expect(clause);
            assert_eq!(with, want, "{clause}");
            assert_eq!(&clause[..range.start], "map(", "{clause}");
            assert_eq!(&clause[range.end..range.end + 1], ":", "{clause}");
        }
    }
}
