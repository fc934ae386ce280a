//! Map list items as C expressions: the first byte, the size in bytes and (for pointer members)
//! the pointer to attach, written over the item's own source text so the host compiler
//! evaluates them where the construct is.
//!
//! Invariants: every expression produced is a parenthesized C expression of type `void *`
//! (addresses) or `unsigned long long` (sizes) that evaluates each written subexpression of the
//! item at most once per use of the expression; the item's text is reused verbatim (it is
//! preprocessed C, so its identifiers mean what they meant in the source at that point).

use ompcc_diag::{Diagnostic, Span};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{Expr, ExprKind};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The unit's text as the host compiler will see it: identifier uses that a `use_device_addr`
/// region redirects to the device copy (`subst`: start -> (end, replacement); the ranges are
/// disjoint identifier spans) read as their replacements.
#[derive(Clone, Copy)]
pub struct Text<'t> {
    pub text: &'t str,
    pub subst: &'t BTreeMap<usize, (usize, String)>,
}

impl<'t> Text<'t> {
    /// `text[lo..hi]` with the substitutions inside it applied.
    pub fn range(&self, lo: usize, hi: usize) -> Cow<'t, str> {
        let raw = self.text.get(lo..hi).unwrap_or("");
        let mut subs = self.subst.range(lo..hi).filter(|(_, (end, _))| *end <= hi);
        let Some(first) = subs.next() else {
            return Cow::Borrowed(raw);
        };
        let mut out = String::with_capacity(raw.len() + 16);
        let mut at = lo;
        for (&start, (end, with)) in std::iter::once(first).chain(subs) {
            out.push_str(&self.text[at..start]);
            out.push_str(with);
            at = *end;
        }
        out.push_str(&self.text[at..hi]);
        Cow::Owned(out)
    }

    /// The text of `e`, substitutions applied.
    pub fn of(&self, e: &Expr) -> Cow<'t, str> {
        self.range(e.span.lo as usize, e.span.hi as usize)
    }
}

/// A list item in C.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemC {
    /// `(void *)` address of the item's first byte.
    pub begin: String,
    /// `unsigned long long` size in bytes.
    pub size: String,
    /// For a section of a pointer that is itself a struct member (`s.p[0:n]`, `q->p[1:m]`):
    /// the address of that pointer, for an `ATTACH` entry.
    pub attach_ptr: Option<String>,
    /// For a section of an array of arrays (`a[l1:n1][l2:n2]`), or a strided section
    /// (`a[l:n:s]`, OpenMP 5.0): the section itself, which `begin`/`size` only cover with its
    /// contiguous hull. Motion clauses must move this.
    pub strided: Option<Strided>,
}

/// The elements of a multi-dimensional or strided section as rows: `rows[k]` is the count and
/// the byte stride of dimension `k` (outermost first, every dimension but the innermost, and
/// the innermost too when it is strided: its rows are then one element), and each row is
/// `row_size` bytes from `begin` plus `sum(i_k * stride_k)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strided {
    /// `unsigned long long` bytes of one row (the innermost dimension's part).
    pub row_size: String,
    /// `(count, stride)` as `unsigned long long` expressions, outermost first.
    pub rows: Vec<(String, String)>,
}

fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// The C expressions of list item `e` (`x`, `a`, `a[lo:len]`, `a[:len]`, `a[lo:]`, `p[lo:len]`,
/// `a[i][0:n]`, `a[0:n][0:m]`, `s.m`, `s.p[0:n]`, `p->m`). Errors name the item.
pub fn item(text: &Text<'_>, typed: &TypedUnit, e: &Expr) -> Result<ItemC, Box<Diagnostic>> {
    let e = strip_parens(e);
    if !matches!(e.kind, ExprKind::ArraySection { .. }) {
        let t = text.of(e);
        let lvalue = typed
            .expr(e.id)
            .is_some_and(|i| i.kind == ompcc_sema::ValueKind::LValue);
        if !lvalue {
            return Err(unsupported(e.span, &t, "it does not designate an object"));
        }
        return Ok(ItemC {
            begin: format!("((void *)&({t}))"),
            size: format!("((unsigned long long)sizeof({t}))"),
            attach_ptr: None,
            strided: None,
        });
    }
    // Sections nest outward: `a[l1:n1][l2:n2]` is Section(Section(a, l1, n1), l2, n2).
    let mut dims: Vec<(Option<&Expr>, Option<&Expr>, Option<&Expr>)> = Vec::new();
    let mut root = e;
    while let ExprKind::ArraySection {
        base,
        lower,
        length,
        stride,
    } = &root.kind
    {
        dims.push((lower.as_deref(), length.as_deref(), stride.as_deref()));
        root = strip_parens(base);
    }
    dims.reverse();
    let x = text.of(root);
    let root_ty = typed.expr(root.id).map(|i| i.ty);
    let root_is_pointer = root_ty.is_some_and(|t| typed.types.is_pointer(t));
    let zeros = |k: usize| "[0]".repeat(k);
    let stride = |k: usize| format!("((unsigned long long)sizeof(({x}){}))", zeros(k));
    let mut index = String::new();
    let mut size_terms = Vec::new();
    let mut counts = Vec::new();
    // each dimension's byte stride between the section's elements
    let mut steps = Vec::new();
    for (k, (lower, length, step)) in dims.iter().enumerate() {
        let k = k + 1;
        let lo = lower.map_or("0".to_owned(), |l| text.of(l).into_owned());
        index.push_str(&format!("[{lo}]"));
        let n = match length {
            Some(len) => format!("((unsigned long long)({}))", text.of(len)),
            None if k == 1 && root_is_pointer => {
                return Err(unsupported(
                    e.span,
                    &text.of(e),
                    "a section of a pointer needs a length",
                ));
            }
            None => format!(
                "(((unsigned long long)sizeof(({x}){}) / {}) - (unsigned long long)({lo}))",
                zeros(k - 1),
                stride(k)
            ),
        };
        counts.push(n.clone());
        let step = match step {
            Some(s) => format!("((unsigned long long)({}) * {})", text.of(s), stride(k)),
            None => stride(k),
        };
        if k < dims.len() {
            // The contiguous hull: every outer row but the last is whole.
            size_terms.push(format!("({n} - 1) * {step}"));
        } else if dims[k - 1].2.is_some() {
            size_terms.push(format!("(({n} - 1) * {step} + {})", stride(k)));
        } else {
            size_terms.push(format!("{n} * {}", stride(k)));
        }
        steps.push(step);
    }
    let strided_inner = dims.last().is_some_and(|d| d.2.is_some());
    let strided_any = dims.iter().any(|d| d.2.is_some());
    let rows_fixed = outer_levels_are_arrays(typed, root_ty, dims.len());
    if strided_any && !rows_fixed {
        return Err(unsupported(
            e.span,
            &text.of(e),
            "a strided section through a pointer to pointers",
        ));
    }
    let begin = format!("((void *)&({x}){index})");
    let attach_ptr = (root_is_pointer && matches!(root.kind, ExprKind::Member { .. }))
        .then(|| format!("((void *)&({x}))"));
    let strided = ((dims.len() > 1 || strided_any) && rows_fixed).then(|| {
        // rows: every dimension but a contiguous innermost one
        let rows = if strided_inner {
            dims.len()
        } else {
            dims.len() - 1
        };
        Strided {
            row_size: if strided_inner {
                stride(dims.len())
            } else {
                format!("({})", size_terms.last().cloned().unwrap_or_default())
            },
            rows: (0..rows)
                .map(|k| (counts[k].clone(), steps[k].clone()))
                .collect(),
        }
    });
    Ok(ItemC {
        begin,
        size: format!("({})", size_terms.join(" + ")),
        attach_ptr,
        strided,
    })
}

/// Whether subscripting `root` (of type `root_ty`) `k` times, `1 <= k < dims`, gives an array
/// each time: then the section's rows lie at fixed strides in one object. (Through a
/// pointer to pointers, `pp[0:n][0:m]`, they do not; such an item keeps its hull.)
fn outer_levels_are_arrays(
    typed: &TypedUnit,
    root_ty: Option<ompcc_sema::types::QualType>,
    dims: usize,
) -> bool {
    let types = &typed.types;
    let Some(root_ty) = root_ty else {
        return false;
    };
    let mut ty = types.pointee(root_ty).or_else(|| types.array_elem(root_ty));
    for _ in 1..dims {
        match ty {
            Some(t) if types.is_array(t) => ty = types.array_elem(t),
            _ => return false,
        }
    }
    true
}

fn unsupported(span: Span, item: &str, why: &str) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(
            "E0950",
            format!("cannot map '{item}' to the device: {why}"),
            span,
        )
        .with_primary_label("in this list item"),
    )
}

/// `s` as a C string literal (bytes above 0x7e and controls as octal escapes).
pub fn c_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_escaped(&mut out, s.as_bytes());
    out.push('"');
    out
}

/// Appends `bytes` escaped for the inside of a C string literal. Octal escapes are always
/// three digits, so a following digit can never extend them.
pub fn push_escaped(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            // `??x` trigraphs are off by default in gnu modes, but not in -std=c11.
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_controls_and_trigraphs() {
        assert_eq!(c_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(c_string("??=\u{1}7"), r#""\?\?=\0017""#);
    }
}
