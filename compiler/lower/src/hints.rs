//! What the source asks of the optimizer, turned into IR attributes: loop pragmas
//! (`#pragma unroll [N]`, `#pragma unroll(N)`, `#pragma nounroll`, `#pragma GCC unroll N`)
//! and OpenMP's `#pragma omp unroll [full | partial[(N)]]` into `ompcc_ir::LoopHint`s, function specifiers and attributes (`inline`,
//! `__attribute__((always_inline))`, `__attribute__((noinline))`) into `InlineAttr`, and the
//! test for `restrict` pointer parameters of device functions (`noalias`; a kernel's
//! `noalias` parameters come from the plan, module `disjoint` of ompcc-omp).
//!
//! Invariants: nothing here changes what a program computes: a hint only permits or forbids
//! transformations that keep the meaning. A malformed pragma is an `Err` message for a
//! warning, never a panic. `noalias` lists are sorted and hold only pointer parameters.

use crate::ctx::Ctx;
use ompcc_ir::{InlineAttr, LoopHint};
use ompcc_sema::SymbolId;
use ompcc_sema::types::Quals;
use ompcc_syntax::ast::{self, DeclSpecKind, DeclarationKind, ExternalDecl};

/// The unrolling request of a non-OpenMP pragma line (the text after `#pragma`):
/// `Ok(None)` for loop pragmas that say nothing about unrolling (`GCC ivdep`), `Err` with a
/// message for a malformed unroll pragma.
///
/// `unroll` alone asks for full unrolling; a count of 0 or 1 (`unroll 1`, `GCC unroll 0`)
/// forbids unrolling, as in gcc and clang; `nounroll` too.
pub fn loop_hint_of(text: &str) -> Result<Option<LoopHint>, String> {
    let (gcc, rest) = match text.strip_prefix("GCC") {
        Some(r) if r.starts_with(char::is_whitespace) => (true, r.trim_start()),
        _ => (false, text),
    };
    if !gcc && rest.trim_end() == "nounroll" {
        return Ok(Some(LoopHint::Disable));
    }
    let Some(arg) = rest.strip_prefix("unroll") else {
        return Ok(None);
    };
    if !(arg.is_empty() || arg.starts_with(char::is_whitespace) || arg.starts_with('(')) {
        return Ok(None);
    }
    let name = if gcc { "GCC unroll" } else { "unroll" };
    let arg = arg.trim();
    if arg.is_empty() {
        return if gcc {
            Err(format!("'#pragma {name}' requires a count"))
        } else {
            Ok(Some(LoopHint::Full))
        };
    }
    let count = arg
        .strip_prefix('(')
        .and_then(|a| a.strip_suffix(')'))
        .map_or(arg, str::trim);
    let n = parse_count(count).ok_or_else(|| {
        format!("'#pragma {name} {arg}': the count must be a non-negative integer constant")
    })?;
    Ok(Some(match n {
        0 | 1 => LoopHint::Disable,
        n => LoopHint::Count(u32::try_from(n).unwrap_or(u32::MAX)),
    }))
}

/// The unrolling an OpenMP `unroll` directive asks for: `full` -> `Full`, `partial(N)` ->
/// `Count(N)` (`partial(1)` -> `Disable`), and no hint for `partial` without a count or a bare
/// `unroll`, where OpenMP leaves the factor to the implementation: the unroll pass's own
/// heuristics choose (which may unroll fully: the same iterations in the same order).
/// Sema has checked the clauses; a count it could not fold gives no hint.
pub fn omp_unroll_hint(cx: &Ctx<'_>, d: &ast::OmpDirective) -> Option<LoopHint> {
    use ast::OmpClauseName as C;
    for c in &d.clauses {
        match (c.name, &c.kind) {
            (C::Full, _) => return Some(LoopHint::Full),
            (C::Partial, ast::OmpClauseKind::Expr(e)) => {
                let n = match ompcc_sema::fold(cx.typed, e) {
                    Some(ompcc_sema::consteval::ConstValue::Int(v)) => v.as_i128()?,
                    _ => return None,
                };
                return match n {
                    ..=0 => None,
                    1 => Some(LoopHint::Disable),
                    n => Some(LoopHint::Count(u32::try_from(n).unwrap_or(u32::MAX))),
                };
            }
            _ => {}
        }
    }
    None
}

/// `{ stmt }` (a block holding one statement and nothing else) stands for `stmt`: the loop an
/// `omp unroll` owns may be written in braces.
pub fn single_stmt(s: &ast::Stmt) -> &ast::Stmt {
    match &s.kind {
        ast::StmtKind::Compound(b) => match b.items.as_slice() {
            [ast::BlockItem::Stmt(one)] => single_stmt(one),
            _ => s,
        },
        _ => s,
    }
}

/// A decimal, hex or octal integer literal with an optional `u`/`l` suffix.
fn parse_count(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

/// The inlining preference of function `sym`: `noinline` or `always_inline` from an
/// `__attribute__` on any of its file-scope declarations, else `inlinehint` for `inline`
/// functions. When both attributes appear `noinline` wins (gcc ignores the conflicting one
/// with a warning; never inlining is the safe reading).
pub fn inline_attr(cx: &Ctx<'_>, sym: SymbolId, def: &ast::FunctionDef) -> InlineAttr {
    let (mut always, mut never) = (false, false);
    let mut note = |attrs: &[ast::Attribute]| {
        for item in attrs.iter().flat_map(|a| &a.items) {
            match cx.tu.symbols.resolve(item.name.name).trim_matches('_') {
                "always_inline" => always = true,
                "noinline" => never = true,
                _ => {}
            }
        }
    };
    let spec_attrs = |specs: &ast::DeclSpecs| -> Vec<ast::Attribute> {
        specs
            .specs
            .iter()
            .filter_map(|s| match &s.kind {
                DeclSpecKind::Attr(a) => Some(a.clone()),
                _ => None,
            })
            .collect()
    };
    note(&spec_attrs(&def.specs));
    note(&def.declarator.attrs);
    for item in &cx.tu.items {
        let ExternalDecl::Decl(d) = item else {
            continue;
        };
        let DeclarationKind::Vars { specs, declarators } = &d.kind else {
            continue;
        };
        let mut specs_noted = false;
        for id in declarators {
            if cx.typed.decl_symbol(id.declarator.id) != Some(sym) {
                continue;
            }
            if !specs_noted {
                note(&spec_attrs(specs));
                specs_noted = true;
            }
            note(&id.declarator.attrs);
        }
    }
    if never {
        InlineAttr::Never
    } else if always {
        InlineAttr::Always
    } else if cx.typed.symbols[sym].is_inline {
        InlineAttr::Hint
    } else {
        InlineAttr::Default
    }
}

/// Whether a variable of type `qt` is a `restrict`-qualified pointer.
pub fn is_restrict_pointer(cx: &Ctx<'_>, qt: ompcc_sema::types::QualType) -> bool {
    qt.quals.contains(Quals::RESTRICT) && cx.typed.types.is_pointer(qt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_pragmas() {
        let h = |t: &str| loop_hint_of(t);
        assert_eq!(h("unroll"), Ok(Some(LoopHint::Full)));
        assert_eq!(h("unroll 4"), Ok(Some(LoopHint::Count(4))));
        assert_eq!(h("unroll(8)"), Ok(Some(LoopHint::Count(8))));
        assert_eq!(h("unroll ( 0x10 )"), Ok(Some(LoopHint::Count(16))));
        assert_eq!(h("unroll 1"), Ok(Some(LoopHint::Disable)));
        assert_eq!(h("nounroll"), Ok(Some(LoopHint::Disable)));
        assert_eq!(h("GCC unroll 8"), Ok(Some(LoopHint::Count(8))));
        assert_eq!(h("GCC unroll 0"), Ok(Some(LoopHint::Disable)));
        assert_eq!(h("GCC unroll 1"), Ok(Some(LoopHint::Disable)));
        assert_eq!(h("GCC ivdep"), Ok(None));
        assert_eq!(h("ivdep"), Ok(None));
        assert_eq!(h("GCC novector"), Ok(None));
        assert!(h("GCC unroll").is_err());
        assert!(h("unroll n").is_err());
        assert!(h("unroll -2").is_err());
        assert!(h("GCC nounroll").is_ok_and(|x| x.is_none()));
        assert_eq!(h("unroll 99999999999"), Ok(Some(LoopHint::Count(u32::MAX))));
    }
}
