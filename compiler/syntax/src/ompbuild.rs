//! Turns the generic clause syntax of a `#pragma omp` line into typed OpenMP clauses, checking
//! them against the tables in [`crate::omp`].
//!
//! The grammar parses every clause as `name` or `name(groups)`, where groups are separated by
//! `:` and each group is a comma list of expressions, reduction operators or bare words. This
//! module gives those pieces their meaning per clause and reports, with spans: unknown clauses,
//! clauses not allowed on the directive, duplicates of unique clauses, malformed arguments and
//! misplaced array sections. Invariant: it never fails; bad clauses are reported and dropped.

use ompcc_diag::{Diagnostic, Span};

use crate::ast::*;
use crate::omp::OmpDirectiveKind;
use crate::state::{State, span};

/// One comma-separated item inside clause parentheses.
pub(crate) enum RawItem {
    Expr(Expr),
    Op(&'static str, Span),
    Words(Vec<Ident>),
    /// `iterator(defs)`, a modifier of `depend`, `map`, `to` and `from`.
    Iterator(Vec<OmpIterator>, Span),
}

impl RawItem {
    fn span(&self) -> Span {
        match self {
            RawItem::Expr(e) => e.span,
            RawItem::Op(_, s) => *s,
            RawItem::Words(w) => w[0].span.to(w[w.len() - 1].span),
            RawItem::Iterator(_, s) => *s,
        }
    }
}

/// A clause as parsed: `name`, `name(args)`, or a directive argument `(args)`.
pub(crate) struct RawClause {
    pub span: Span,
    pub name: Option<Ident>,
    pub args: Option<Vec<Vec<RawItem>>>,
}

struct Ctx<'s, 'a> {
    st: &'s State<'a>,
    kind: OmpDirectiveKind,
}

impl Ctx<'_, '_> {
    fn err(&self, code: &'static str, msg: String, at: Span) {
        self.st.error(Diagnostic::error(code, msg, at));
    }

    fn word(&self, item: &RawItem) -> Option<(String, Span)> {
        match item {
            RawItem::Words(w) if w.len() == 1 => Some((
                self.st.interner.borrow().resolve(w[0].name).to_owned(),
                w[0].span,
            )),
            RawItem::Expr(Expr {
                kind: ExprKind::Ident(s),
                span,
                ..
            }) => Some((self.st.interner.borrow().resolve(*s).to_owned(), *span)),
            _ => None,
        }
    }

    fn ident(&self, item: &RawItem) -> Option<Ident> {
        match item {
            RawItem::Words(w) if w.len() == 1 => Some(w[0]),
            RawItem::Expr(Expr {
                kind: ExprKind::Ident(s),
                span,
                ..
            }) => Some(Ident {
                name: *s,
                span: *span,
            }),
            _ => None,
        }
    }

    /// Checks list items: variables, array elements, members and (where allowed) sections.
    fn list(&self, items: Vec<RawItem>, clause: &str, sections: bool) -> Vec<Expr> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            match it {
                RawItem::Expr(e) => {
                    let ok = check_list_item(self, &e, sections, clause);
                    if ok {
                        out.push(e);
                    }
                }
                other => self.err(
                    "E0124",
                    format!("expected a variable or array section in '{clause}' clause"),
                    other.span(),
                ),
            }
        }
        out
    }

    fn expr(&self, items: Vec<RawItem>, clause: &str, at: Span) -> Option<Box<Expr>> {
        let n = items.len();
        match items.into_iter().next() {
            Some(RawItem::Expr(e)) if n == 1 => {
                no_sections(self, &e);
                Some(Box::new(e))
            }
            _ => {
                self.err(
                    "E0124",
                    format!("'{clause}' clause expects one expression"),
                    at,
                );
                None
            }
        }
    }
}

/// Reports sections anywhere inside `e`.
fn no_sections(cx: &Ctx, e: &Expr) {
    let mut found = None;
    visit_sections(e, &mut |s| found = found.or(Some(s)));
    if let Some(s) = found {
        cx.err("E0125", "array section is not allowed here".into(), s);
    }
}

fn visit_sections(e: &Expr, f: &mut impl FnMut(Span)) {
    match &e.kind {
        ExprKind::ArraySection {
            base,
            lower,
            length,
            stride,
        } => {
            f(e.span);
            visit_sections(base, f);
            for x in [lower, length, stride].into_iter().flatten() {
                visit_sections(x, f);
            }
        }
        ExprKind::Paren(a)
        | ExprKind::Unary(_, a)
        | ExprKind::SizeofExpr(a)
        | ExprKind::AlignofExpr(a) => visit_sections(a, f),
        ExprKind::Cast(_, a) => visit_sections(a, f),
        ExprKind::Member { base, .. } => visit_sections(base, f),
        ExprKind::Index(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b) => {
            visit_sections(a, f);
            visit_sections(b, f);
        }
        ExprKind::Cond(a, b, c) => {
            visit_sections(a, f);
            if let Some(b) = b {
                visit_sections(b, f);
            }
            visit_sections(c, f);
        }
        ExprKind::Call(a, args) => {
            visit_sections(a, f);
            for x in args {
                visit_sections(x, f);
            }
        }
        _ => {}
    }
}

/// A list item is a chain of `.m`, `->m`, `[i]`, `[lo:len]` on a name (or `*p`); sections may
/// appear only in that chain, never inside subscripts or arithmetic.
fn check_list_item(cx: &Ctx, e: &Expr, sections: bool, clause: &str) -> bool {
    let mut cur = e;
    let mut ok = true;
    let mut saw_section = false;
    loop {
        match &cur.kind {
            ExprKind::ArraySection {
                base,
                lower,
                length,
                stride,
            } => {
                saw_section = true;
                if !sections {
                    cx.err(
                        "E0125",
                        format!("array sections are not allowed in '{clause}' clause"),
                        cur.span,
                    );
                    ok = false;
                } else if let Some(s) = stride
                    && !strided_ok(cx, clause)
                    && !is_literal_one(s)
                {
                    // a map's list items must be contiguous storage (OpenMP 4.5 2.15.5.1 up
                    // to 6.0 7.9.6, map clause restrictions)
                    let why = if clause == "map" {
                        "is not allowed: a map list item that is an array section must specify \
                         contiguous storage (OpenMP map clause restrictions)"
                    } else {
                        "is not supported"
                    };
                    cx.st.error(
                        Diagnostic::error(
                            "E0128",
                            format!(
                                "strided array section in '{clause}' clause of '#pragma omp {}' {why}",
                                cx.kind
                            ),
                            cur.span,
                        )
                        .with_help(
                            "map the whole range the stride runs over; 'target update to/from' \
                             moves strided sections",
                        ),
                    );
                    ok = false;
                }
                for x in [lower, length, stride].into_iter().flatten() {
                    no_sections(cx, x);
                }
                cur = base;
            }
            ExprKind::Index(base, idx) => {
                no_sections(cx, idx);
                cur = base;
            }
            ExprKind::Member { base, .. } => cur = base,
            ExprKind::Paren(b) => cur = b,
            ExprKind::Unary(UnaryOp::Deref, b) => cur = b,
            ExprKind::Ident(_) => return ok,
            _ => {
                let mut bad = saw_section;
                visit_sections(cur, &mut |_| bad = true);
                if bad {
                    cx.err(
                        "E0125",
                        "malformed array section: the base must be a variable, member or element"
                            .into(),
                        cur.span,
                    );
                    return false;
                }
                return ok;
            }
        }
    }
}

/// Whether a strided section (`a[lo:len:stride]`) may appear in `clause`: the motion clauses
/// of `target update`, which move each element (the runtime's strided update). A map cannot
/// give a strided section one device copy, so it is refused (E0128).
fn strided_ok(cx: &Ctx, clause: &str) -> bool {
    cx.kind == OmpDirectiveKind::TargetUpdate && matches!(clause, "to" | "from")
}

/// `1` as written: a stride that is no stride.
fn is_literal_one(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Paren(x) => is_literal_one(x),
        ExprKind::Int { value, .. } => *value == 1,
        _ => false,
    }
}

/// Takes the `iterator(...)` modifier out of `head` (the modifiers of a `map`, `to` or
/// `from` clause, OpenMP 5.1): its iterators, or `Err` after a second one (one per clause).
fn take_iterator(
    cx: &Ctx,
    head: &mut Vec<RawItem>,
    clause: &str,
) -> Result<Option<Vec<OmpIterator>>, ()> {
    let mut found = None;
    let mut i = 0;
    while i < head.len() {
        if !matches!(head[i], RawItem::Iterator(..)) {
            i += 1;
            continue;
        }
        let RawItem::Iterator(defs, s) = head.remove(i) else {
            unreachable!("matched above")
        };
        if found.is_some() {
            cx.err(
                "E0124",
                format!("'{clause}' clause takes at most one 'iterator' modifier"),
                s,
            );
            return Err(());
        }
        found = Some(defs);
    }
    Ok(found)
}

/// The list of a `map`/`to`/`from` clause: `(list, None)`, or with an iterator modifier
/// `(empty, Some(iterated))`.
fn data_list(
    cx: &Ctx,
    items: Vec<RawItem>,
    clause: &str,
    iterators: Option<Vec<OmpIterator>>,
) -> (Vec<Expr>, Option<Box<OmpIterated>>) {
    let list = cx.list(items, clause, true);
    match iterators {
        Some(iterators) => (Vec::new(), Some(Box::new(OmpIterated { iterators, list }))),
        None => (list, None),
    }
}

/// `mapper(id)` among a map or motion clause's modifiers: the driver's mapper expansion
/// (ompcc-omp's `mapper` module) reads it from the clause's text and removes it.
fn is_mapper_modifier(cx: &Ctx, item: &RawItem) -> bool {
    matches!(item, RawItem::Expr(Expr { kind: ExprKind::Call(f, args), .. })
        if args.len() == 1
            && matches!(&f.kind, ExprKind::Ident(s) if cx.st.interner.borrow().resolve(*s) == "mapper"))
}

fn reduction_op(cx: &Ctx, item: &RawItem) -> Option<ReductionOp> {
    if let RawItem::Op(o, _) = item {
        return Some(match *o {
            "+" => ReductionOp::Add,
            "*" => ReductionOp::Mul,
            "-" => ReductionOp::Sub,
            "&" => ReductionOp::BitAnd,
            "|" => ReductionOp::BitOr,
            "^" => ReductionOp::BitXor,
            "&&" => ReductionOp::LogAnd,
            _ => ReductionOp::LogOr,
        });
    }
    match cx.word(item)?.0.as_str() {
        "min" => Some(ReductionOp::Min),
        "max" => Some(ReductionOp::Max),
        _ => None,
    }
}

impl State<'_> {
    /// Builds a directive from its pragma line: `l` is the `#`, `m` the end of the directive
    /// name, `r` the end of the line.
    pub(crate) fn omp_directive(
        &self,
        kind: OmpDirectiveKind,
        l: usize,
        m: usize,
        r: usize,
        raw: Vec<RawClause>,
    ) -> OmpDirective {
        let cx = Ctx { st: self, kind };
        let mut d = OmpDirective {
            span: span(l, r),
            kind,
            name_span: span(l, m),
            args: Vec::new(),
            clauses: Vec::new(),
            body: None,
            unsupported_name: &[],
        };
        if kind == OmpDirectiveKind::Unsupported {
            // The line is `#pragma omp <name words> ...`: the words after `omp`.
            let line = self.src.get(l..r).unwrap_or("");
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .skip_while(|w| *w != "omp")
                .skip(1)
                .take(8)
                .collect();
            d.unsupported_name = OmpDirectiveKind::unsupported_name(&words).unwrap_or(&[]);
        }
        for c in raw {
            let Some(name) = c.name else {
                directive_argument(&cx, &mut d, c);
                continue;
            };
            let text = self.interner.borrow().resolve(name.name).to_owned();
            let Some(cname) = OmpClauseName::lookup(&text) else {
                cx.err(
                    "E0121",
                    format!("unknown OpenMP clause '{text}'"),
                    name.span,
                );
                continue;
            };
            if !kind.allows(cname) {
                cx.err(
                    "E0122",
                    format!("'{text}' clause is not allowed on '#pragma omp {kind}'"),
                    name.span,
                );
                continue;
            }
            let Ok(modifier) = expr_modifier(&cx, cname, c.span, c.args.as_deref()) else {
                continue;
            };
            let Some(clause_kind) = clause(&cx, cname, c.span, c.args) else {
                continue;
            };
            let dup = d.clauses.iter().find(|p| {
                p.name == cname
                    && (cname.unique()
                        || matches!((&p.kind, &clause_kind),
                            (OmpClauseKind::If { modifier: a, .. }, OmpClauseKind::If { modifier: b, .. }) if a == b))
            });
            if let Some(prev) = dup {
                self.error(
                    Diagnostic::error(
                        "E0123",
                        format!("'{text}' clause appears more than once on '#pragma omp {kind}'"),
                        name.span,
                    )
                    .with_label(prev.span, "first given here"),
                );
                continue;
            }
            d.clauses.push(OmpClause {
                span: c.span,
                name: cname,
                modifier,
                kind: clause_kind,
            });
        }
        if kind == OmpDirectiveKind::Atomic {
            let kinds: Vec<&OmpClause> = d
                .clauses
                .iter()
                .filter(|c| {
                    matches!(
                        c.name,
                        OmpClauseName::Read
                            | OmpClauseName::Write
                            | OmpClauseName::Update
                            | OmpClauseName::Capture
                    )
                })
                .collect();
            if kinds.len() > 1 {
                self.error(
                    Diagnostic::error(
                        "E0123",
                        "'#pragma omp atomic' takes at most one of read, write, update, capture",
                        kinds[1].span,
                    )
                    .with_label(kinds[0].span, "first given here"),
                );
            }
        }
        d
    }
}

fn directive_argument(cx: &Ctx, d: &mut OmpDirective, c: RawClause) {
    use OmpDirectiveKind as K;
    let groups = c.args.unwrap_or_default();
    match cx.kind {
        K::Critical | K::Flush | K::DeclareTarget | K::Threadprivate
            if groups.len() == 1 && d.args.is_empty() =>
        {
            let items = groups.into_iter().next().unwrap_or_default();
            if cx.kind == K::Critical {
                match items.as_slice() {
                    [one] => {
                        if let Some(id) = cx.ident(one) {
                            d.args.push(cx.st.expr(
                                id.span.lo as usize,
                                id.span.hi as usize,
                                ExprKind::Ident(id.name),
                            ));
                        } else {
                            cx.err("E0124", "'critical' expects a name".into(), c.span);
                        }
                    }
                    _ => cx.err("E0124", "'critical' expects one name".into(), c.span),
                }
            } else {
                d.args = cx.list(items, &cx.kind.to_string(), false);
            }
        }
        _ => cx.err(
            "E0124",
            format!(
                "'#pragma omp {}' does not take an argument list here",
                cx.kind
            ),
            c.span,
        ),
    }
}

/// The modifier before the expression of `grainsize`/`num_tasks` (`strict`) or `device`
/// (`device_num`, `ancestor`): one word, then `:`. `Err` after a diagnostic for another word.
fn expr_modifier(
    cx: &Ctx,
    name: OmpClauseName,
    at: Span,
    args: Option<&[Vec<RawItem>]>,
) -> Result<Option<Ident>, ()> {
    use OmpClauseName as C;
    let allowed: &[&str] = match name {
        C::Grainsize | C::NumTasks => &["strict"],
        C::Device => &["device_num", "ancestor"],
        _ => return Ok(None),
    };
    let Some([head, _]) = args else {
        return Ok(None);
    };
    let word = match head.as_slice() {
        [item] => cx.ident(item),
        _ => None,
    };
    let known = word.filter(|w| allowed.contains(&cx.st.interner.borrow().resolve(w.name)));
    match known {
        Some(w) => Ok(Some(w)),
        None => {
            let expected: Vec<String> = allowed.iter().map(|w| format!("'{w}:'")).collect();
            cx.err(
                "E0124",
                format!(
                    "malformed '{}' clause: the modifier before ':' must be {}",
                    name.as_str(),
                    expected.join(" or ")
                ),
                head.first().map_or(at, RawItem::span),
            );
            Err(())
        }
    }
}

fn clause(
    cx: &Ctx,
    name: OmpClauseName,
    at: Span,
    args: Option<Vec<Vec<RawItem>>>,
) -> Option<OmpClauseKind> {
    use OmpClauseName as C;
    let cname = name.as_str();
    let takes_args = !matches!(
        name,
        C::Nowait
            | C::Untied
            | C::Mergeable
            | C::Nogroup
            | C::Threads
            | C::SimdClause
            | C::Read
            | C::Write
            | C::Update
            | C::Capture
            | C::Compare
            | C::Weak
            | C::SeqCst
            | C::AcqRel
            | C::Release
            | C::Acquire
            | C::Relaxed
            | C::UnifiedAddress
            | C::UnifiedSharedMemory
            | C::ReverseOffload
            | C::DynamicAllocators
            | C::CancelParallel
            | C::CancelFor
            | C::CancelSections
            | C::CancelTaskgroup
            | C::Full
    );
    let optional_args = matches!(name, C::Ordered | C::Indirect | C::Nowait | C::Partial);
    let Some(mut groups) = args else {
        if takes_args && !optional_args {
            cx.err(
                "E0124",
                format!("'{cname}' clause expects arguments in parentheses"),
                at,
            );
            return None;
        }
        return Some(OmpClauseKind::Flag);
    };
    if !takes_args {
        cx.err("E0124", format!("'{cname}' clause takes no arguments"), at);
        return None;
    }
    let n = groups.len();
    let bad = |what: &str| {
        cx.err("E0124", format!("malformed '{cname}' clause: {what}"), at);
        None
    };
    Some(match name {
        C::NumThreads
        | C::Collapse
        | C::Safelen
        | C::Simdlen
        | C::Filter
        | C::Hint
        | C::Final
        | C::Priority
        | C::ThreadLimit
        | C::Ordered
        | C::Indirect
        | C::Partial
        | C::Novariants
        | C::Nocontext
        | C::Detach => {
            if n != 1 {
                return bad("expected one expression");
            }
            OmpClauseKind::Expr(cx.expr(groups.pop()?, cname, at)?)
        }
        C::NumTeams => {
            // OpenMP 5.1 `num_teams([lower-bound:] upper-bound)`: a league of upper-bound
            // teams is one the bounds allow, so only that expression is kept.
            if n > 2 {
                return bad("expected '[lower-bound:] upper-bound'");
            }
            OmpClauseKind::Expr(cx.expr(groups.pop()?, cname, at)?)
        }
        C::Device | C::Grainsize | C::NumTasks => {
            // An optional modifier (`device_num:`, `ancestor:`, `strict:`) precedes the value.
            if n > 2 {
                return bad("expected '[modifier:] expression'");
            }
            OmpClauseKind::Expr(cx.expr(groups.pop()?, cname, at)?)
        }
        C::Private
        | C::Firstprivate
        | C::Shared
        | C::Copyin
        | C::Copyprivate
        | C::IsDevicePtr
        | C::UseDevicePtr
        | C::Nontemporal
        | C::Inclusive
        | C::Exclusive
        | C::Link
        | C::Enter
        | C::Allocate
        | C::Affinity
        | C::UsesAllocators
        | C::Doacross
        | C::HasDeviceAddr
        | C::UseDeviceAddr => {
            let sections = matches!(
                name,
                C::HasDeviceAddr | C::UseDeviceAddr | C::Affinity | C::Doacross
            );
            // Only these take a `modifier:` before the list (allocator, iterator, ...).
            let modifiable = matches!(
                name,
                C::Allocate | C::Affinity | C::Doacross | C::UsesAllocators
            );
            if n > 2 || (n == 2 && !modifiable) {
                return bad("expected a list of variables");
            }
            let iterators = match n {
                2 if name == C::Affinity => take_iterator(cx, &mut groups[0], cname).ok()?,
                _ => None,
            };
            if n == 2 && iterators.is_some() && !groups[0].is_empty() {
                return bad("expected 'iterator(...): list'");
            }
            let items = groups.pop()?;
            let list = cx.list(items, cname, sections);
            match iterators {
                Some(iterators) => {
                    OmpClauseKind::IteratedList(Box::new(OmpIterated { iterators, list }))
                }
                None => OmpClauseKind::List(list),
            }
        }
        C::Lastprivate => {
            let conditional = match n {
                1 => false,
                2 => match cx.word(&groups[0][0]) {
                    Some((w, _)) if w == "conditional" && groups[0].len() == 1 => true,
                    _ => return bad("expected 'conditional:'"),
                },
                _ => return bad("too many ':'"),
            };
            OmpClauseKind::Lastprivate {
                conditional,
                list: cx.list(groups.pop()?, cname, false),
            }
        }
        C::Default => {
            let w = if n == 1 && groups[0].len() == 1 {
                cx.word(&groups[0][0])
            } else {
                None
            };
            match w.as_ref().map(|w| w.0.as_str()) {
                Some("shared") => OmpClauseKind::Default(DefaultKind::Shared),
                Some("none") => OmpClauseKind::Default(DefaultKind::None),
                Some("private") => OmpClauseKind::Default(DefaultKind::Private),
                Some("firstprivate") => OmpClauseKind::Default(DefaultKind::Firstprivate),
                _ => return bad("expected shared, none, private or firstprivate"),
            }
        }
        C::Reduction | C::InReduction | C::TaskReduction => {
            if n != 2 || groups[0].is_empty() || groups[0].len() > 2 {
                return bad("expected '[modifier,] operator: list'");
            }
            let list = groups.pop()?;
            let mut head = groups.pop()?;
            let op_item = head.pop()?;
            let modifier = head.first().and_then(|m| cx.ident(m));
            let user = cx
                .ident(&op_item)
                .filter(|_| reduction_op(cx, &op_item).is_none());
            if let Some(name) = user {
                return Some(OmpClauseKind::UserReduction {
                    modifier,
                    name,
                    list: cx.list(list, cname, true),
                });
            }
            let Some(op) = reduction_op(cx, &op_item) else {
                cx.err(
                    "E0124",
                    "unknown reduction operator (expected + * - & | ^ && || min max)".into(),
                    op_item.span(),
                );
                return None;
            };
            OmpClauseKind::Reduction {
                modifier,
                op,
                op_span: op_item.span(),
                list: cx.list(list, cname, true),
            }
        }
        C::Map => {
            if n > 2 {
                return bad("too many ':'");
            }
            let iterators = match groups.len() {
                2 => take_iterator(cx, &mut groups[0], cname).ok()?,
                _ => None,
            };
            let list = groups.pop()?;
            let mut modifiers = Vec::new();
            let mut map_type = None;
            if let Some(head) = groups.pop() {
                let last = head.len().saturating_sub(1);
                for (i, it) in head.iter().enumerate() {
                    if is_mapper_modifier(cx, it) {
                        continue;
                    }
                    let Some((w, s)) = cx.word(it) else {
                        cx.err("E0124", "expected a map type or modifier".into(), it.span());
                        continue;
                    };
                    let ty = match w.as_str() {
                        "to" => Some(MapType::To),
                        "from" => Some(MapType::From),
                        "tofrom" => Some(MapType::ToFrom),
                        "alloc" => Some(MapType::Alloc),
                        "release" => Some(MapType::Release),
                        "delete" => Some(MapType::Delete),
                        _ => None,
                    };
                    let modifier = match w.as_str() {
                        "always" => Some(MapModifier::Always),
                        "close" => Some(MapModifier::Close),
                        "present" => Some(MapModifier::Present),
                        _ => None,
                    };
                    match (ty, modifier) {
                        (Some(t), _) if i == last => map_type = Some(t),
                        (_, Some(m)) => modifiers.push(m),
                        _ => cx.err("E0124", format!("unknown map type or modifier '{w}'"), s),
                    }
                }
            }
            let (list, iterated) = data_list(cx, list, cname, iterators);
            OmpClauseKind::Map {
                modifiers,
                map_type,
                list,
                iterated,
            }
        }
        C::To | C::From => {
            let iterators = match n {
                2 => take_iterator(cx, &mut groups[0], cname).ok()?,
                _ => None,
            };
            let present = match n {
                1 => false,
                2 => {
                    let head: Vec<&RawItem> = groups[0]
                        .iter()
                        .filter(|it| !is_mapper_modifier(cx, it))
                        .collect();
                    match head.as_slice() {
                        [] => false,
                        [it] if cx.word(it).is_some_and(|(w, _)| w == "present") => true,
                        _ => return bad("expected 'present:'"),
                    }
                }
                _ => return bad("too many ':'"),
            };
            let (list, iterated) = data_list(cx, groups.pop()?, cname, iterators);
            OmpClauseKind::Motion {
                present,
                list,
                iterated,
            }
        }
        C::Schedule => {
            if n > 2 {
                return bad("too many ':'");
            }
            let mut body = groups.pop()?;
            let mut modifiers = Vec::new();
            if let Some(head) = groups.pop() {
                for it in &head {
                    match cx.word(it).as_ref().map(|w| w.0.as_str()) {
                        Some("monotonic") => modifiers.push(ScheduleModifier::Monotonic),
                        Some("nonmonotonic") => modifiers.push(ScheduleModifier::Nonmonotonic),
                        Some("simd") => modifiers.push(ScheduleModifier::Simd),
                        _ => return bad("expected monotonic, nonmonotonic or simd"),
                    }
                }
            }
            if body.is_empty() || body.len() > 2 {
                return bad("expected 'kind[, chunk]'");
            }
            let chunk = if body.len() == 2 {
                Some(cx.expr(vec![body.pop()?], cname, at)?)
            } else {
                None
            };
            let kind = match cx.word(&body[0]).as_ref().map(|w| w.0.as_str()) {
                Some("static") => ScheduleKind::Static,
                Some("dynamic") => ScheduleKind::Dynamic,
                Some("guided") => ScheduleKind::Guided,
                Some("auto") => ScheduleKind::Auto,
                Some("runtime") => ScheduleKind::Runtime,
                _ => return bad("expected static, dynamic, guided, auto or runtime"),
            };
            OmpClauseKind::Schedule {
                modifiers,
                kind,
                chunk,
            }
        }
        C::DistSchedule => {
            let mut body = groups.pop()?;
            if n != 1 || body.is_empty() || body.len() > 2 {
                return bad("expected 'static[, chunk]'");
            }
            let chunk = if body.len() == 2 {
                Some(cx.expr(vec![body.pop()?], cname, at)?)
            } else {
                None
            };
            if cx.word(&body[0]).as_ref().map(|w| w.0.as_str()) != Some("static") {
                return bad("the only kind is 'static'");
            }
            OmpClauseKind::DistSchedule { chunk }
        }
        C::If => {
            if n > 2 {
                return bad("too many ':'");
            }
            let cond = cx.expr(groups.pop()?, cname, at)?;
            let modifier = match groups.pop() {
                None => None,
                Some(head) => {
                    let words: Vec<String> = match head.as_slice() {
                        [RawItem::Words(w)] => w
                            .iter()
                            .map(|i| cx.st.interner.borrow().resolve(i.name).to_owned())
                            .collect(),
                        [one] => cx.word(one).map(|w| vec![w.0]).unwrap_or_default(),
                        _ => Vec::new(),
                    };
                    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
                    match OmpDirectiveKind::lookup(&refs) {
                        Some((k, used))
                            if used == refs.len() && k != OmpDirectiveKind::Unsupported =>
                        {
                            if !cx.kind.contains(k) {
                                cx.err("E0124", format!("'if' modifier '{k}' does not name a construct of '#pragma omp {}'", cx.kind), head[0].span());
                                return None;
                            }
                            Some(k)
                        }
                        _ => return bad("expected a directive name before ':'"),
                    }
                }
            };
            OmpClauseKind::If { modifier, cond }
        }
        C::Depend => {
            // `depend(iterator(defs), type: list)`: the iterators come first.
            let iterators = match groups[0].first() {
                Some(RawItem::Iterator(..)) if n == 2 && groups[0].len() == 2 => {
                    match groups[0].remove(0) {
                        RawItem::Iterator(defs, _) => Some(defs),
                        _ => None,
                    }
                }
                Some(RawItem::Iterator(_, s)) => {
                    cx.err(
                        "E0124",
                        format!("malformed '{cname}' clause: expected 'iterator(...), type: list'"),
                        *s,
                    );
                    return None;
                }
                _ => None,
            };
            let head_word = cx.word(&groups[0][0]).map(|w| w.0);
            let kind = match head_word.as_deref() {
                Some("in") => DependType::In,
                Some("out") => DependType::Out,
                Some("inout") => DependType::Inout,
                Some("mutexinoutset") => DependType::Mutexinoutset,
                Some("inoutset") => DependType::Inoutset,
                Some("depobj") => DependType::Depobj,
                Some("source") => DependType::Source,
                Some("sink") => DependType::Sink,
                _ => return bad("expected a dependence type (in, out, inout, ...)"),
            };
            match (kind, n) {
                (DependType::Source, 1) => OmpClauseKind::Depend {
                    kind,
                    list: Vec::new(),
                    iterated: None,
                    all_memory: false,
                },
                (DependType::Sink, 2) => {
                    let list = groups
                        .pop()?
                        .into_iter()
                        .filter_map(|i| {
                            if let RawItem::Expr(e) = i {
                                Some(e)
                            } else {
                                None
                            }
                        })
                        .collect();
                    OmpClauseKind::Depend {
                        kind,
                        list,
                        iterated: None,
                        all_memory: false,
                    }
                }
                (_, 2) if groups[0].len() == 1 => {
                    let items = groups.pop()?;
                    // the reserved locator `omp_all_memory` (OpenMP 5.1): all memory
                    let mut all_memory = None;
                    let items: Vec<RawItem> = items
                        .into_iter()
                        .filter(|it| match cx.word(it) {
                            Some((w, s)) if w == "omp_all_memory" => {
                                all_memory = Some(s);
                                false
                            }
                            _ => true,
                        })
                        .collect();
                    if let Some(s) = all_memory
                        && !matches!(kind, DependType::Out | DependType::Inout)
                    {
                        cx.err(
                            "E0124",
                            format!(
                                "'omp_all_memory' is only allowed in 'depend(out: ...)' and 'depend(inout: ...)', not '{}'",
                                head_word.as_deref().unwrap_or("")
                            ),
                            s,
                        );
                        return None;
                    }
                    if all_memory.is_some() && iterators.is_some() {
                        return bad("'omp_all_memory' cannot be used with 'iterator'");
                    }
                    let list = cx.list(items, cname, true);
                    match iterators {
                        Some(iterators) => OmpClauseKind::Depend {
                            kind,
                            list: Vec::new(),
                            iterated: Some(Box::new(OmpIterated { iterators, list })),
                            all_memory: false,
                        },
                        None => OmpClauseKind::Depend {
                            kind,
                            list,
                            iterated: None,
                            all_memory: all_memory.is_some(),
                        },
                    }
                }
                _ => return bad("expected 'type: list'"),
            }
        }
        C::Defaultmap => {
            if n > 2 || groups[0].len() != 1 {
                return bad("expected 'behavior[: category]'");
            }
            let behavior = match cx.word(&groups[0][0]).as_ref().map(|w| w.0.as_str()) {
                Some("alloc") => DefaultmapBehavior::Alloc,
                Some("to") => DefaultmapBehavior::To,
                Some("from") => DefaultmapBehavior::From,
                Some("tofrom") => DefaultmapBehavior::ToFrom,
                Some("firstprivate") => DefaultmapBehavior::Firstprivate,
                Some("none") => DefaultmapBehavior::None,
                Some("default") => DefaultmapBehavior::Default,
                Some("present") => DefaultmapBehavior::Present,
                _ => return bad("unknown implicit behavior"),
            };
            let category = if n == 2 {
                let g = &groups[1];
                match g
                    .first()
                    .and_then(|i| cx.word(i))
                    .as_ref()
                    .map(|w| w.0.as_str())
                {
                    Some("scalar") if g.len() == 1 => Some(DefaultmapCategory::Scalar),
                    Some("aggregate") if g.len() == 1 => Some(DefaultmapCategory::Aggregate),
                    Some("pointer") if g.len() == 1 => Some(DefaultmapCategory::Pointer),
                    Some("all") if g.len() == 1 => Some(DefaultmapCategory::All),
                    _ => return bad("unknown variable category"),
                }
            } else {
                None
            };
            OmpClauseKind::Defaultmap { behavior, category }
        }
        C::Aligned | C::Linear => {
            if n > 2 {
                return bad("too many ':'");
            }
            let extra = if n == 2 {
                Some(cx.expr(groups.pop()?, cname, at)?)
            } else {
                None
            };
            let list = cx.list(groups.pop()?, cname, false);
            if name == C::Aligned {
                OmpClauseKind::Aligned {
                    list,
                    alignment: extra,
                }
            } else {
                OmpClauseKind::Linear { list, step: extra }
            }
        }
        C::ProcBind => {
            let w = if n == 1 && groups[0].len() == 1 {
                cx.word(&groups[0][0])
            } else {
                None
            };
            OmpClauseKind::ProcBind(match w.as_ref().map(|w| w.0.as_str()) {
                Some("primary") => ProcBind::Primary,
                Some("master") => ProcBind::Master,
                Some("close") => ProcBind::Close,
                Some("spread") => ProcBind::Spread,
                _ => return bad("expected primary, master, close or spread"),
            })
        }
        C::Order => {
            if n > 2 || groups.iter().any(|g| g.len() != 1) {
                return bad("expected '[modifier:] concurrent'");
            }
            if cx.word(&groups[n - 1][0]).map(|w| w.0).as_deref() != Some("concurrent") {
                return bad("the only ordering is 'concurrent'");
            }
            let modifier = if n == 2 {
                cx.ident(&groups[0][0])
            } else {
                None
            };
            OmpClauseKind::Order { modifier }
        }
        _ => {
            // Clauses taking one keyword: bind, device_type, atomic_default_mem_order, fail.
            match groups.as_slice() {
                [g] if g.len() == 1 => match cx.ident(&g[0]) {
                    Some(id) => OmpClauseKind::Keyword(id),
                    None => return bad("expected a keyword"),
                },
                _ => return bad("expected a keyword"),
            }
        }
    })
}
