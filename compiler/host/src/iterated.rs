//! `iterator(...)` modifiers in `map`, `to` and `from` clauses (OpenMP 5.1): the list items
//! stand for one item per point of the iterators' space, so the construct's map entries are
//! counted and filled at run time. The writer allocates the entries array on the heap for
//! the static entries plus these ([`Iterated::count`]), assigns the static ones, then runs
//! [`Iterated::fill`], nested `for` loops over the iterators' points (outermost first, each
//! iterator declared with its written type, `int` without one) that append each item's
//! entries. Every range (`begin`, `end`, `step`) is evaluated once, before the loops, as the
//! iterators of one modifier cannot name each other.
//!
//! Entries are those of the item written with the iterators' values (`cexpr::item`), plus an
//! `ATTACH` entry when the item's base pointer is itself an element (`p[it][0:len]`: the
//! device copy of `p[it]`, where `p`'s array is mapped, is set to the device copy of the
//! section). A strided or discontiguous item of a motion clause is one strided update call
//! per point instead ([`Iterated::strided`]).

use crate::cexpr;
use crate::embed;
use ompcc_diag::Diagnostic;
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{
    Expr, ExprKind, MapType, OmpClauseKind, OmpClauseName, OmpDirective, OmpDirectiveKind,
    OmpIterated,
};

/// The iterated items of one construct, as C.
pub(crate) struct Iterated {
    /// Declarations evaluating every range once and counting its points.
    pub pre: String,
    /// `unsigned long long` C expression: how many entries the loops append.
    pub count: String,
    /// Statements appending the entries to `ARR[IX++]` (placeholders, see [`Self::fill`]).
    fill: String,
    /// Statements making one strided update call per point (placeholders `@DEV@`, `@LOC@`).
    strided: String,
}

impl Iterated {
    /// The statements appending the entries to array `arr` at index variable `ix`.
    pub fn fill(&self, arr: &str, ix: &str) -> String {
        self.fill.replace("@ARR@", arr).replace("@IX@", ix)
    }

    /// The strided update calls (motion clauses), each under `guard` (`if (c) ` or empty).
    pub fn strided(&self, guard: &str, device: &str, loc: &str) -> String {
        if self.strided.is_empty() {
            return String::new();
        }
        format!(
            "{guard}{{ {} }}",
            self.strided.replace("@DEV@", device).replace("@LOC@", loc)
        )
    }
}

/// One clause's iterators and items with their runtime flags.
struct Clause<'a> {
    it: &'a OmpIterated,
    flags: u64,
}

/// The iterated clauses of `d` (none: `None`). `id` numbers the construct's variables; errors
/// (items ompcc cannot express) go to `errors`.
pub(crate) fn entries(
    d: &OmpDirective,
    id: u32,
    text: &cexpr::Text<'_>,
    typed: &TypedUnit,
    describe: &dyn Fn(ompcc_diag::Span) -> String,
    errors: &mut Vec<Diagnostic>,
) -> Option<Iterated> {
    let update = d.kind == OmpDirectiveKind::TargetUpdate;
    let default = match d.kind {
        OmpDirectiveKind::TargetEnterData => MapType::To,
        OmpDirectiveKind::TargetExitData => MapType::From,
        _ => MapType::ToFrom,
    };
    let clauses: Vec<Clause<'_>> = d
        .clauses
        .iter()
        .filter_map(|c| match &c.kind {
            OmpClauseKind::Map {
                modifiers,
                map_type,
                iterated: Some(it),
                ..
            } => Some(Clause {
                it,
                flags: crate::type_flags(map_type.unwrap_or(default), modifiers),
            }),
            OmpClauseKind::Motion {
                present,
                iterated: Some(it),
                ..
            } => {
                let mut flags = if c.name == OmpClauseName::From {
                    embed::flags::FROM
                } else {
                    embed::flags::TO
                };
                if *present {
                    flags |= embed::flags::PRESENT;
                }
                Some(Clause { it, flags })
            }
            _ => None,
        })
        .collect();
    if clauses.is_empty() {
        return None;
    }
    let mut out = Iterated {
        pre: String::new(),
        count: String::new(),
        fill: String::new(),
        strided: String::new(),
    };
    let mut counts = Vec::new();
    for (ci, c) in clauses.iter().enumerate() {
        // ranges, once
        let mut points = Vec::new();
        let mut heads = String::new();
        for (k, itr) in c.it.iterators.iter().enumerate() {
            let v = format!("__ompcc_i{id}_{ci}_{k}");
            let step = itr
                .step
                .as_ref()
                .map_or("1".to_owned(), |s| text.of(s).into_owned());
            out.pre.push_str(&format!(
                "long long {v}b = (long long)({}), {v}e = (long long)({}), {v}s = (long long)({step}); \
                 unsigned long long {v}n = {v}s > 0 ? ({v}b < {v}e ? (unsigned long long)(({v}e - {v}b - 1) / {v}s) + 1u : 0u) \
                 : {v}s < 0 ? ({v}b > {v}e ? (unsigned long long)(({v}b - {v}e - 1) / -{v}s) + 1u : 0u) : 0u; ",
                text.of(&itr.begin),
                text.of(&itr.end),
            ));
            points.push(format!("{v}n"));
            let ty = itr.ty.map_or("int".to_owned(), |s| {
                text.range(s.lo as usize, s.hi as usize).into_owned()
            });
            let name = text.range(itr.name.span.lo as usize, itr.name.span.hi as usize);
            heads.push_str(&format!(
                "for (unsigned long long {v} = 0; {v} < {v}n; {v}++) {{ {ty} {name} = ({ty})({v}b + (long long){v} * {v}s); "
            ));
        }
        let closers = "}".repeat(c.it.iterators.len());
        let mut per_point = 0usize;
        let mut body = String::new();
        let mut strided_body = String::new();
        for e in &c.it.list {
            let item = match cexpr::item(text, typed, e) {
                Ok(i) => i,
                Err(diag) => {
                    errors.push(*diag);
                    continue;
                }
            };
            let name = cexpr::c_string(&text.of(e));
            let loc = cexpr::c_string(&describe(e.span));
            if update && let Some(s) = &item.strided {
                let (rc, rs): (Vec<_>, Vec<_>) = s.rows.iter().cloned().unzip();
                strided_body.push_str(&format!(
                    "{{ __ompcc_map_entry __ompcc_r = {{{b}, {b}, {}, {:#x}ull, {name}, {loc}}}; \
                     unsigned long long __ompcc_rc[] = {{{}}}; unsigned long long __ompcc_rs[] = {{{}}}; \
                     ompcc_rt_target_update_strided(@DEV@, &__ompcc_r, {}u, __ompcc_rc, __ompcc_rs, @LOC@); }} ",
                    s.row_size,
                    c.flags,
                    rc.join(", "),
                    rs.join(", "),
                    s.rows.len(),
                    b = item.begin,
                ));
                continue;
            }
            body.push_str(&format!(
                "@ARR@[@IX@++] = (__ompcc_map_entry){{{b}, {b}, {}, {:#x}ull, {name}, {loc}}}; ",
                item.size,
                c.flags,
                b = item.begin,
            ));
            per_point += 1;
            let attach = item.attach_ptr.or_else(|| element_pointer(text, typed, e));
            if let Some(ptr) = attach.filter(|_| !update) {
                body.push_str(&format!(
                    "@ARR@[@IX@++] = (__ompcc_map_entry){{{ptr}, {}, 8, {:#x}ull, {name}, {loc}}}; ",
                    item.begin,
                    embed::flags::ATTACH,
                ));
                per_point += 1;
            }
        }
        if per_point > 0 {
            out.fill.push_str(&format!("{heads}{body}{closers} "));
            counts.push(format!("{per_point}ull * {}", points.join(" * ")));
        }
        if !strided_body.is_empty() {
            out.strided
                .push_str(&format!("{heads}{strided_body}{closers} "));
        }
    }
    out.count = if counts.is_empty() {
        "0ull".to_owned()
    } else {
        format!("({})", counts.join(" + "))
    };
    Some(out)
}

/// For a section whose base pointer is an array or pointer element (`p[it][0:n]`, with `p` a
/// pointer to pointers or an array of pointers), the address of that element: the pointer to
/// attach.
fn element_pointer(text: &cexpr::Text<'_>, typed: &TypedUnit, e: &Expr) -> Option<String> {
    let mut root = strip(e);
    if !matches!(root.kind, ExprKind::ArraySection { .. }) {
        return None;
    }
    while let ExprKind::ArraySection { base, .. } = &root.kind {
        root = strip(base);
    }
    let pointer = typed
        .expr(root.id)
        .is_some_and(|i| typed.types.is_pointer(i.ty));
    (pointer && matches!(root.kind, ExprKind::Index(..)))
        .then(|| format!("((void *)&({}))", text.of(root)))
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}
