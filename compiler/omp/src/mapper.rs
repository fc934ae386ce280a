//! `declare mapper` (OpenMP 5.2 section 5.8.8), expanded in the unit's text before anything
//! else reads it: a map (or `target update` motion) clause list item whose type is a struct
//! or union with a mapper (the default one, or the one its `mapper(id)` modifier names)
//! becomes the mapper's map clauses with the mapper's variable replaced by the item, each
//! map type decayed by the clause's (5.2 Table 5.3: `to` keeps `to`/`tofrom` as `to` and
//! makes `from` `alloc`, and so on); the directive lines themselves become blank. gcc 12,
//! which parses neither the directive nor the modifier, then sees plain clauses, and the
//! whole pipeline maps members the way it already does. Edits stay on their line, so line
//! numbers are the user's. A variable of a type with a default mapper that a target region
//! maps implicitly gets the mapper's clauses appended to the directive. Refused (E0909,
//! naming the item and the line): an array section of a mapped type (its elements would need
//! a loop of maps) and an item that is not a name or a member/element chain.

use ompcc_diag::{Diagnostic, Span};
use ompcc_sema::types::TypeKind;
use ompcc_sema::{SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    Expr, ExprKind, MapType, OmpClauseKind, OmpClauseName, OmpDirective, OmpDirectiveKind as K,
    TranslationUnit,
};

use crate::selector::{clauses, split_top};
use crate::walk::{self, Node};

/// One edit of the unit's text: bytes `lo..hi` become `with` (no newline added or removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub lo: usize,
    pub hi: usize,
    pub with: String,
}

struct Mapper {
    /// `None`: the default mapper.
    id: Option<String>,
    record: ompcc_sema::types::RecordId,
    var: String,
    /// (map type, `iterator(...)` modifier with its iterators renamed apart, items as
    /// written in their terms).
    maps: Vec<(MapType, Option<String>, Vec<String>)>,
}

pub(crate) fn map_type_word(t: MapType) -> &'static str {
    match t {
        MapType::To => "to",
        MapType::From => "from",
        MapType::ToFrom => "tofrom",
        MapType::Alloc => "alloc",
        MapType::Release => "release",
        MapType::Delete => "delete",
    }
}

/// The map type of a mapper's item under a clause of type `outer` (5.2 Table 5.3); `None`
/// when the item is not mapped at all under a motion clause.
fn decay(outer: MapType, inner: MapType) -> MapType {
    use MapType::*;
    match (outer, inner) {
        (Release | Delete, _) => outer,
        (Alloc, _) | (_, Alloc | Release | Delete) => Alloc,
        (ToFrom, t) => t,
        (To, To | ToFrom) => To,
        (From, From | ToFrom) => From,
        _ => Alloc,
    }
}

fn parse_mapper(line: &str, typed: &TypedUnit) -> Result<Mapper, String> {
    let at = line.find("mapper").ok_or("expected 'mapper'")? + "mapper".len();
    let mut list = clauses(&line[at..])?.into_iter();
    let (_, head) = list
        .next()
        .filter(|(n, _)| n.is_empty())
        .ok_or("expected '([mapper-identifier:] type var)'")?;
    let parts = split_top(head, ':');
    let (id, decl) = match parts.as_slice() {
        [d] => (None, *d),
        [i, d] if i.trim() == "default" => (None, *d),
        [i, d] => (Some(i.trim().to_owned()), *d),
        _ => return Err("malformed mapper declaration".into()),
    };
    let words: Vec<&str> = decl.split_whitespace().collect();
    let (var, ty) = words.split_last().ok_or("expected 'type var'")?;
    let record = match ty {
        ["struct" | "union", tag] => typed
            .tags
            .iter()
            .rev()
            .find(|(n, _)| n == tag)
            .map(|(_, r)| *r),
        [name] => typed
            .symbols
            .iter()
            .rfind(|(_, s)| s.kind == SymbolKind::Typedef && s.name == *name)
            .and_then(|(_, s)| match typed.types.ckind(s.ty) {
                TypeKind::Record(r) => Some(*r),
                _ => None,
            }),
        _ => None,
    }
    .ok_or_else(|| format!("'{}' is not a struct or union type", ty.join(" ")))?;
    let mut maps = Vec::new();
    for (name, inner) in list {
        if name != "map" {
            return Err(format!(
                "the '{name}' clause is not allowed on 'declare mapper'"
            ));
        }
        let parts = split_top(inner, ':');
        let (head, items) = match parts.as_slice() {
            [items] => ("", *items),
            [head, items] => (*head, *items),
            _ => return Err("malformed map clause".into()),
        };
        let mut map_type = MapType::ToFrom;
        let mut iterator = None;
        let mut renames: Vec<(String, String)> = Vec::new();
        for w in split_top(head, ',').into_iter().map(str::trim) {
            if let Some(defs) = w.strip_prefix("iterator").map(str::trim)
                && defs.starts_with('(')
                && defs.ends_with(')')
            {
                // each iterator gets a name no item of a clause using the mapper can
                // contain, so the expansion never captures one of the user's variables
                let mut text = w.to_owned();
                for def in split_top(&defs[1..defs.len() - 1], ',') {
                    let lhs = def.split('=').next().unwrap_or("");
                    let Some(name) = lhs.split_whitespace().last() else {
                        return Err(format!("malformed iterator '{def}' in a mapper"));
                    };
                    let fresh = format!("__ompcc_mapper_it{}_{name}", renames.len());
                    text = substitute(&text, name, &fresh);
                    renames.push((name.to_owned(), fresh));
                }
                iterator = Some(text);
                continue;
            }
            if w.is_empty() {
                continue;
            }
            map_type = match w {
                "to" => MapType::To,
                "from" => MapType::From,
                "tofrom" => MapType::ToFrom,
                "alloc" => MapType::Alloc,
                other => return Err(format!("map type or modifier '{other}' in a mapper")),
            };
        }
        let items = split_top(items, ',')
            .into_iter()
            .map(|s| {
                renames.iter().fold(s.trim().to_owned(), |t, (old, new)| {
                    substitute(&t, old, new)
                })
            })
            .collect();
        maps.push((map_type, iterator, items));
    }
    Ok(Mapper {
        id,
        record,
        var: (*var).to_owned(),
        maps,
    })
}

/// `item` with every identifier `var` (not a member name) replaced by `with`.
fn substitute(item: &str, var: &str, with: &str) -> String {
    let mut out = String::new();
    let b = item.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let before = item[..start].trim_end();
            let member = before.ends_with('.') || before.ends_with("->");
            if &item[start..i] == var && !member {
                out.push_str(with);
            } else {
                out.push_str(&item[start..i]);
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn is_chain(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Member { base, .. } | ExprKind::Index(base, _) => is_chain(base),
        _ => false,
    }
}

fn refuse(at: Span, msg: String) -> Diagnostic {
    Diagnostic::error("E0909", msg, at).with_help(
        "map the structure and its pointer members explicitly, e.g. 'map(tofrom: s, s.p[0:s.n])'",
    )
}

/// The edits that expand every use of the unit's mappers, and the errors for uses ompcc
/// cannot expand. No mappers: no edits.
pub fn expand_mappers(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
) -> (Vec<TextEdit>, Vec<Diagnostic>) {
    let mut edits = Vec::new();
    let mut diags = Vec::new();
    let mut mappers: Vec<Mapper> = Vec::new();
    let mut users: Vec<&OmpDirective> = Vec::new();
    walk::unit(tu, &mut |n| {
        let Node::Directive(d) = n else { return };
        if d.kind == K::Unsupported && d.unsupported_name == ["declare", "mapper"] {
            let (lo, hi) = (d.span.lo as usize, d.span.hi as usize);
            match parse_mapper(&text[lo..hi], typed) {
                Ok(m) => mappers.push(m),
                Err(why) => diags.push(Diagnostic::error(
                    "E0909",
                    format!("malformed '#pragma omp declare mapper': {why}"),
                    d.span,
                )),
            }
            edits.push(TextEdit {
                lo,
                hi,
                with: " ".repeat(hi - lo),
            });
        } else if crate::is_target_region(d.kind)
            || matches!(
                d.kind,
                K::TargetData | K::TargetEnterData | K::TargetExitData | K::TargetUpdate
            )
        {
            users.push(d);
        }
    });
    if mappers.is_empty() {
        return (edits, diags);
    }
    let record_of = |e: &Expr| match typed.expr(e.id).map(|i| typed.types.ckind(i.ty)) {
        Some(TypeKind::Record(r)) => Some(*r),
        _ => None,
    };
    for &d in &users {
        for c in &d.clauses {
            // an iterated item of a type with a mapper would need the mapper's maps per
            // point: refused rather than mapped without them
            if let OmpClauseKind::Map {
                iterated: Some(it), ..
            }
            | OmpClauseKind::Motion {
                iterated: Some(it), ..
            } = &c.kind
            {
                for e in &it.list {
                    let mut base = e;
                    while let ExprKind::ArraySection { base: b, .. } = &base.kind {
                        base = b;
                    }
                    if record_of(base).is_some_and(|r| mappers.iter().any(|m| m.record == r)) {
                        let item = &text[e.span.lo as usize..e.span.hi as usize];
                        diags.push(refuse(
                            e.span,
                            format!(
                                "'{item}' has a type with a 'declare mapper', which ompcc does \
                                 not apply to the items of an 'iterator' modifier"
                            ),
                        ));
                    }
                }
            }
            let (outer, list, motion) = match &c.kind {
                OmpClauseKind::Map { map_type, list, .. } => (
                    map_type.unwrap_or(match d.kind {
                        K::TargetEnterData => MapType::To,
                        K::TargetExitData => MapType::From,
                        _ => MapType::ToFrom,
                    }),
                    list,
                    false,
                ),
                OmpClauseKind::Motion { list, .. } if c.name == OmpClauseName::To => {
                    (MapType::To, list, true)
                }
                OmpClauseKind::Motion { list, .. } if c.name == OmpClauseName::From => {
                    (MapType::From, list, true)
                }
                _ => continue,
            };
            let (lo, hi) = (c.span.lo as usize, c.span.hi as usize);
            let clause = &text[lo..hi];
            let open = clause.find('(').unwrap_or(0);
            let parts = split_top(&clause[open + 1..clause.len() - 1], ':');
            let head_text = if parts.len() == 2 { parts[0] } else { "" };
            let mut named: Option<String> = None;
            let mut head: Vec<String> = Vec::new();
            for m in split_top(head_text, ',') {
                let m = m.trim();
                if let Some(id) = m.strip_prefix("mapper").map(str::trim)
                    && id.starts_with('(')
                {
                    named = Some(id.trim_matches(|c| c == '(' || c == ')').trim().to_owned());
                } else if !m.is_empty() {
                    head.push(m.to_owned());
                }
            }
            let mut kept: Vec<String> = Vec::new();
            let mut extra: Vec<(MapType, String)> = Vec::new();
            // items of the mapper's iterated maps: one clause each
            let mut iterated: Vec<(MapType, String, String)> = Vec::new();
            let mut changed = named.is_some();
            for e in list {
                let item = &text[e.span.lo as usize..e.span.hi as usize];
                let mut base = e;
                while let ExprKind::ArraySection { base: b, .. } = &base.kind {
                    base = b;
                }
                let section = !std::ptr::eq(base, e);
                let elem = if section {
                    typed
                        .expr(base.id)
                        .and_then(|i| match typed.types.ckind(i.ty) {
                            TypeKind::Array { elem, .. } => Some(*elem),
                            TypeKind::Pointer(p) => Some(*p),
                            _ => None,
                        })
                        .and_then(|t| match typed.types.ckind(t) {
                            TypeKind::Record(r) => Some(*r),
                            _ => None,
                        })
                } else {
                    record_of(e)
                };
                let mapper = elem.and_then(|r| {
                    mappers
                        .iter()
                        .rev()
                        .find(|m| m.record == r && m.id == named)
                });
                let Some(mapper) = mapper else {
                    kept.push(item.to_owned());
                    continue;
                };
                if section || !is_chain(e) {
                    diags.push(refuse(
                        e.span,
                        format!(
                            "'{item}' has a type with a 'declare mapper', which ompcc expands \
                             only for variables and members, not {}",
                            if section {
                                "array sections"
                            } else {
                                "this expression"
                            }
                        ),
                    ));
                    continue;
                }
                changed = true;
                for (inner, iterator, items) in &mapper.maps {
                    let t = decay(outer, *inner);
                    if motion && t == MapType::Alloc {
                        continue;
                    }
                    for it in items {
                        let it = substitute(it, &mapper.var, item);
                        match iterator {
                            Some(i) => {
                                iterated.push((t, substitute(i, &mapper.var, item), it));
                            }
                            None => extra.push((t, it)),
                        }
                    }
                }
            }
            if !changed {
                continue;
            }
            let name = c.name.as_str();
            let mut out = Vec::new();
            let clause_for = |t: Option<MapType>, iterator: Option<&str>, items: &[String]| {
                let mut mods = head.clone();
                if let Some(i) = iterator {
                    mods.insert(0, i.to_owned());
                }
                if let Some(t) = t
                    && !motion
                {
                    mods.retain(|m| {
                        !matches!(
                            m.as_str(),
                            "to" | "from" | "tofrom" | "alloc" | "release" | "delete"
                        )
                    });
                    mods.push(map_type_word(t).to_owned());
                }
                if mods.is_empty() {
                    format!("{name}({})", items.join(", "))
                } else {
                    format!("{name}({}: {})", mods.join(", "), items.join(", "))
                }
            };
            if !kept.is_empty() {
                out.push(clause_for(None, None, &kept));
            }
            for t in [
                MapType::To,
                MapType::From,
                MapType::ToFrom,
                MapType::Alloc,
                MapType::Release,
                MapType::Delete,
            ] {
                let items: Vec<String> = extra
                    .iter()
                    .filter(|(u, _)| *u == t)
                    .map(|(_, s)| s.clone())
                    .collect();
                if !items.is_empty() {
                    out.push(clause_for(Some(t), None, &items));
                }
            }
            for (t, iterator, item) in &iterated {
                out.push(clause_for(
                    Some(*t),
                    Some(iterator),
                    std::slice::from_ref(item),
                ));
            }
            edits.push(TextEdit {
                lo,
                hi,
                with: out.join(" "),
            });
        }
    }
    for d in users.iter().filter(|d| crate::is_target_region(d.kind)) {
        if let Some(with) = implicit_maps(d, typed, text, &mappers) {
            let at = d.span.hi as usize;
            edits.push(TextEdit {
                lo: at,
                hi: at,
                with,
            });
        }
    }
    edits.sort_by_key(|e| e.lo);
    (edits, diags)
}

/// The clause a target region gets for the variables of a type with a default mapper that
/// it maps implicitly (OpenMP 5.2 5.8.8: implicit maps use the default mapper): those its
/// body names, declared outside it, that no clause of the directive names and no
/// `defaultmap` clause governs.
fn implicit_maps(
    d: &OmpDirective,
    typed: &TypedUnit,
    text: &str,
    mappers: &[Mapper],
) -> Option<String> {
    let body = d.body.as_deref()?;
    if d.clauses
        .iter()
        .any(|c| c.name == OmpClauseName::Defaultmap)
    {
        return None;
    }
    let directive = &text[d.span.lo as usize..d.span.hi as usize];
    let names_it = |name: &str| {
        directive
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == name)
    };
    let mut declared = rustc_hash::FxHashSet::default();
    let mut items: Vec<String> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    walk::stmt(body, &mut |n| match n {
        Node::Declarator(decl) => {
            if let Some(s) = typed.decl_symbol(decl.id) {
                declared.insert(s);
            }
        }
        Node::Expr(e) => {
            let ExprKind::Ident(_) = e.kind else { return };
            let Some(&sym) = typed.ident_symbols.get(&e.id) else {
                return;
            };
            let info = &typed.symbols[sym];
            if info.kind != SymbolKind::Object || declared.contains(&sym) || !seen.insert(sym) {
                return;
            }
            let TypeKind::Record(r) = typed.types.ckind(info.ty) else {
                return;
            };
            let Some(m) = mappers
                .iter()
                .rev()
                .find(|m| m.record == *r && m.id.is_none())
            else {
                return;
            };
            if names_it(&info.name) {
                return;
            }
            for (inner, iterator, list) in &m.maps {
                let t = decay(MapType::ToFrom, *inner);
                let iterator = iterator
                    .as_deref()
                    .map(|i| format!("{}, ", substitute(i, &m.var, &info.name)))
                    .unwrap_or_default();
                for it in list {
                    items.push(format!(
                        "map({iterator}{}: {})",
                        map_type_word(t),
                        substitute(it, &m.var, &info.name)
                    ));
                }
            }
        }
        _ => {}
    });
    (!items.is_empty()).then(|| format!(" {}", items.join(" ")))
}
