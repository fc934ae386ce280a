//! Struct members in the map clauses of a `target` region (OpenMP 5.2, 5.8.3), written as
//! one group per struct: a parent entry over the struct storage the region needs, the
//! members' own entries (`MEMBER_OF` the parent), and the sections of pointer members with
//! an `ATTACH` entry each.
//!
//! A group forms for a kernel parameter `s` (a struct variable, `Pass::Ref`) or `p` (a
//! pointer to one struct, `Pass::DevicePtr`) when some list item of the region maps a part
//! of it: a member (`s.m`, `s.in.x`, `s.arr[1:2]`, `p->m`) or a section through a pointer
//! member (`s.a[:s.n]`, `t.in.p[0:n]`, `p->a[0:n]`). Every item with that root joins the
//! group whatever the clause order, the whole struct (`map(to: s)`) as the parent.
//!
//! Invariants: the parent covers every member item, every pointer member whose pointee is
//! mapped (so its attachment has device storage to write) and every member the region's
//! body reads or writes (the whole struct when the body uses `s` or `*p` other than through
//! `.`/`->`). A member the body uses that no clause maps is mapped `tofrom` implicitly, as the
//! struct itself would be; one a clause maps keeps that clause's map type.

use crate::{Entry, Writer, attach_entry, cexpr, embed, map_flags, member_of, strip_parens};
use ompcc_omp::{MapItem, Param, Pass, TargetRegion};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{Expr, ExprKind, Symbol};

/// A list item of a struct group: the item, the part of the root it maps, and the first-level
/// member it covers whole (see [`Writer::struct_part`]).
pub(crate) type GroupItem<'m, 'e> = (&'m MapItem<'e>, Part, Option<Symbol>);

/// One struct group to write.
struct Group<'m, 'e, 'r> {
    /// The root variable as C text: the struct, or with `arrow` the pointer to it.
    var: String,
    arrow: bool,
    items: Vec<GroupItem<'m, 'e>>,
    /// First-level members the construct's body uses, and whether it uses the root bare.
    used: Vec<&'r Expr>,
    bare: bool,
    /// The parent is the kernel's parameter (`TARGET_PARAM`).
    param: bool,
    name: String,
    /// Where the parent is written when no item maps the whole root.
    loc: ompcc_diag::Span,
}

/// Which part of its root variable a list item maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// The struct variable itself (`s`).
    Whole,
    /// Storage inside the struct: a member, a nested member, a section of an array member.
    Member,
    /// A section of the storage a pointer member points to.
    Pointee,
    /// Several elements through the root pointer (`p[0:n]`): an array of structs, no group.
    Array,
}

impl Writer<'_> {
    /// The root variable of list item `e` for a parameter passed as `pass`, the part of it the
    /// item maps, and the root's member whose storage the item covers whole (`m` of `s.m`, the
    /// pointer `a` of `s.a[:n]`; none for `t.in.p[0:n]` or `s.arr[1:2]`). `None` for items
    /// that are no part of a struct variable (or, for `Pass::DevicePtr`, of the struct a
    /// pointer variable points to).
    pub(crate) fn struct_part(
        &self,
        e: &Expr,
        pass: Pass,
    ) -> Option<(SymbolId, Part, Option<Symbol>)> {
        let mut b = strip_parens(e);
        // `p[0:1]`, `p[:1]`, `*p`: the one struct a pointer parameter points to
        if pass == Pass::DevicePtr {
            let root = match &b.kind {
                // a map's section (strides are refused there, E0128)
                ExprKind::ArraySection {
                    base,
                    lower,
                    length,
                    ..
                } => {
                    let one = |x: &Option<Box<Expr>>, v: u128| {
                        x.as_deref().is_some_and(
                            |x| matches!(strip_parens(x).kind, ExprKind::Int { value, .. } if value == v),
                        )
                    };
                    let part = if (lower.is_none() || one(lower, 0)) && one(length, 1) {
                        Part::Whole
                    } else {
                        Part::Array
                    };
                    Some((strip_parens(base), part))
                }
                ExprKind::Unary(ompcc_syntax::ast::UnaryOp::Deref, x) => {
                    Some((strip_parens(x), Part::Whole))
                }
                _ => None,
            };
            if let Some((r, part)) = root
                && matches!(r.kind, ExprKind::Ident(_))
            {
                return Some((*self.typed.ident_symbols.get(&r.id)?, part, None));
            }
        }
        let mut section = false;
        while let ExprKind::ArraySection { base, .. } = &b.kind {
            b = strip_parens(base);
            section = true;
        }
        let through_pointer = self
            .typed
            .expr(b.id)
            .is_some_and(|i| self.typed.types.is_pointer(i.ty));
        let mut c = b;
        let mut first = None;
        let mut depth = 0;
        let root = loop {
            match &c.kind {
                ExprKind::Member {
                    base,
                    arrow: false,
                    name,
                } => {
                    first = Some(name.name);
                    depth += 1;
                    c = strip_parens(base);
                }
                ExprKind::Member {
                    base,
                    arrow: true,
                    name,
                } if pass == Pass::DevicePtr => {
                    first = Some(name.name);
                    depth += 1;
                    let r = strip_parens(base);
                    if !matches!(r.kind, ExprKind::Ident(_)) {
                        return None;
                    }
                    break *self.typed.ident_symbols.get(&r.id)?;
                }
                ExprKind::Ident(_) if pass == Pass::Ref => {
                    break *self.typed.ident_symbols.get(&c.id)?;
                }
                _ => return None,
            }
        };
        let part = match first {
            None if section => return None,
            None => Part::Whole,
            Some(_) if section && through_pointer => Part::Pointee,
            Some(_) => Part::Member,
        };
        // the item covers a whole first-level member: `s.m`, or the pointer `s.a` of `s.a[:n]`
        let covers = match (part, depth) {
            (Part::Member, 1) if !section => first,
            (Part::Pointee, 1) => first,
            _ => None,
        };
        Some((root, part, covers))
    }

    /// Writes parameter `p`'s entries as a struct group (see the module header) when its
    /// region maps parts of it, or maps it only implicitly while its body uses nothing of it
    /// but members (then the group holds just those members, so the region finds them
    /// present when an enclosing data construct mapped them member by member); `false`
    /// (nothing written) otherwise.
    pub(crate) fn struct_group(
        &mut self,
        r: &TargetRegion<'_>,
        p: &Param<'_>,
        entries: &mut Vec<Entry>,
    ) -> bool {
        let items: Vec<GroupItem<'_, '_>> = p
            .map
            .iter()
            .chain(&r.extra_maps)
            .filter_map(|m| {
                let (root, part, first) = self.struct_part(m.expr, p.pass)?;
                (root == p.sym).then_some((m, part, first))
            })
            .collect();
        let arrow = p.pass == Pass::DevicePtr;
        // What the body touches: first-level members (`s.n`, `p->a`) and bare uses.
        let (used, bare) = self.body_members(r, p.sym, arrow);
        let only_implicit = items
            .iter()
            .all(|(m, part, _)| *part == Part::Whole && m.implicit);
        let by_members = p.pass == Pass::Ref && only_implicit && !bare && !used.is_empty();
        if !by_members
            && (items.iter().all(|(_, part, _)| *part == Part::Whole)
                || items.iter().any(|(_, part, _)| *part == Part::Array))
        {
            return false;
        }
        let items = if by_members { Vec::new() } else { items };
        let group = Group {
            var: self.var(p.sym, &p.name),
            arrow,
            items,
            used,
            bare,
            param: true,
            name: p.name.clone(),
            loc: p.map.as_ref().map_or(r.directive.span, |m| m.span),
        };
        self.write_group(group, entries);
        true
    }

    /// The struct groups of a data construct's list items (`target data`, `enter data`,
    /// `exit data`): for each struct variable, or pointer to one struct, whose members or
    /// member sections the items map, the items of that root. Items of no group map alone.
    pub(crate) fn data_groups<'m, 'e>(
        &self,
        maps: &'m [MapItem<'e>],
    ) -> Vec<(SymbolId, Vec<GroupItem<'m, 'e>>)> {
        let mut groups: Vec<(SymbolId, Vec<GroupItem<'m, 'e>>)> = Vec::new();
        for m in maps {
            let Some((root, pass)) = self.struct_root(m.expr) else {
                continue;
            };
            let Some((sym, part, first)) = self.struct_part(m.expr, pass) else {
                continue;
            };
            debug_assert_eq!(sym, root);
            match groups.iter_mut().find(|(s, _)| *s == sym) {
                Some((_, g)) => g.push((m, part, first)),
                None => groups.push((sym, vec![(m, part, first)])),
            }
        }
        groups.retain(|(_, items)| {
            !items.iter().all(|(_, part, _)| *part == Part::Whole)
                && !items.iter().any(|(_, part, _)| *part == Part::Array)
        });
        groups
    }

    /// Writes one data construct group (see [`Self::data_groups`]): a parent over the struct
    /// storage its items need, no kernel parameter.
    pub(crate) fn data_group(
        &mut self,
        sym: SymbolId,
        items: Vec<GroupItem<'_, '_>>,
        entries: &mut Vec<Entry>,
    ) {
        let symbol = &self.typed.symbols[sym];
        let arrow = self.typed.types.is_pointer(symbol.ty);
        let name = symbol.name.to_string();
        let loc = items[0].0.span;
        let group = Group {
            var: self.var(sym, &name),
            arrow,
            items,
            used: Vec::new(),
            bare: false,
            param: false,
            name,
            loc,
        };
        self.write_group(group, entries);
    }

    /// The variable at the root of list item `e` and how a region would take it, when it is
    /// a struct variable or a pointer to a struct.
    fn struct_root(&self, e: &Expr) -> Option<(SymbolId, Pass)> {
        let mut c = strip_parens(e);
        loop {
            c = match &c.kind {
                ExprKind::ArraySection { base, .. } | ExprKind::Member { base, .. } => {
                    strip_parens(base)
                }
                ExprKind::Unary(ompcc_syntax::ast::UnaryOp::Deref, x) => strip_parens(x),
                ExprKind::Ident(_) => break,
                _ => return None,
            };
        }
        let sym = *self.typed.ident_symbols.get(&c.id)?;
        let ty = self.typed.symbols[sym].ty;
        let types = &self.typed.types;
        if types.is_record(ty) {
            Some((sym, Pass::Ref))
        } else if types.pointee(ty).is_some_and(|t| types.is_record(t)) {
            Some((sym, Pass::DevicePtr))
        } else {
            None
        }
    }

    /// Writes a struct group's entries: the parent, its members, the implicit members the
    /// body uses, and each pointee with its attachment.
    fn write_group(&mut self, g: Group<'_, '_, '_>, entries: &mut Vec<Entry>) {
        let Group {
            var: v,
            arrow,
            items,
            used,
            bare,
            param,
            name,
            loc: parent_span,
        } = g;
        let (whole_begin, whole_size, base) = if arrow {
            (
                format!("((void *)({v}))"),
                format!("((unsigned long long)sizeof(*({v})))"),
                format!("((void *)({v}))"),
            )
        } else {
            (
                format!("((void *)&({v}))"),
                format!("((unsigned long long)sizeof({v}))"),
                format!("((void *)&({v}))"),
            )
        };
        let whole = items.iter().find(|(_, part, _)| *part == Part::Whole);
        // (begin, size) of every range the parent must cover
        let mut ranges: Vec<(String, String)> = Vec::new();
        if whole.is_some() || bare {
            ranges.push((whole_begin.clone(), whole_size.clone()));
        }
        let mut members = Vec::new();
        let mut pointees = Vec::new();
        for &(m, part, _) in &items {
            if matches!(part, Part::Whole | Part::Array) {
                continue;
            }
            match cexpr::item(&self.tx(), self.typed, m.expr) {
                Ok(c) if part == Part::Pointee => {
                    let Some(ptr) = c.attach_ptr.clone() else {
                        continue;
                    };
                    ranges.push((ptr.clone(), "8ULL".to_owned()));
                    pointees.push((m, c, ptr));
                }
                Ok(c) => {
                    ranges.push((c.begin.clone(), c.size.clone()));
                    members.push((m, c));
                }
                Err(d) => self.errors.push(*d),
            }
        }
        if ranges.is_empty() && used.is_empty() {
            return; // every item failed (reported)
        }
        let mapped: Vec<Symbol> = items.iter().filter_map(|(_, _, f)| *f).collect();
        let mut implicit: Vec<(Symbol, String)> = Vec::new();
        for u in &used {
            let text = self.src(u);
            ranges.push((
                format!("((void *)&({text}))"),
                format!("((unsigned long long)sizeof({text}))"),
            ));
            let name = match &u.kind {
                ExprKind::Member { name, .. } => name.name,
                _ => continue,
            };
            if whole.is_none()
                && !bare
                && !mapped.contains(&name)
                && !implicit.iter().any(|(n, _)| *n == name)
            {
                implicit.push((name, text));
            }
        }
        let lo: String = ranges
            .iter()
            .map(|(b, _)| format!("if ((char *){b} < __l) __l = (char *){b}; "))
            .collect();
        let hi: String = ranges
            .iter()
            .map(|(b, s)| format!("if ((char *){b} + {s} > __h) __h = (char *){b} + {s}; "))
            .collect();
        let first = &ranges[0].0;
        // the parent starts at an offset of the struct's alignment, so the kernel's view of
        // the struct (the parent's device address minus that offset) is aligned as on the host
        let align = if arrow {
            format!("__alignof__(*({v}))")
        } else {
            format!("__alignof__({v})")
        };
        let lo = format!(
            "{lo}__l = (char *){whole_begin} + (((char *)__l - (char *){whole_begin}) & -(long)({align})); "
        );
        let parent_flags = match (whole, bare) {
            (Some((m, _, _)), _) => {
                let mut f = map_flags(m);
                if m.implicit {
                    f |= embed::flags::IMPLICIT;
                }
                f
            }
            // the struct used as a whole but mapped only in parts: the rest goes tofrom
            (None, true) => embed::flags::TO | embed::flags::FROM | embed::flags::IMPLICIT,
            // no item of the construct names the struct: its storage is mapped implicitly
            // (the runtime's error then says which part a data construct left present)
            (None, false)
                if members.iter().all(|(m, _)| m.implicit)
                    && pointees.iter().all(|(m, _, _)| m.implicit) =>
            {
                embed::flags::IMPLICIT
            }
            (None, false) => 0,
        };
        let parent = entries.len();
        let loc_of = |w: &Self, m: Option<&MapItem<'_>>| w.loc(m.map_or(parent_span, |m| m.span));
        let param = if param { embed::flags::TARGET_PARAM } else { 0 };
        entries.push(Entry {
            base,
            begin: format!("((void *)__extension__({{ char *__l = (char *){first}; {lo}__l; }}))"),
            size: format!(
                "((unsigned long long)__extension__({{ char *__l = (char *){first}, *__h = __l; {lo}{hi}__h - __l; }}))"
            ),
            flags: param | parent_flags,
            name,
            loc: whole.map_or_else(|| self.loc(parent_span), |w| loc_of(self, Some(w.0))),
        });
        for (m, c) in members {
            let mut flags = map_flags(m) | member_of(parent);
            if m.implicit {
                flags |= embed::flags::IMPLICIT;
            }
            entries.push(Entry {
                base: c.begin.clone(),
                begin: c.begin,
                size: c.size,
                flags,
                name: m.name.clone(),
                loc: loc_of(self, Some(m)),
            });
        }
        for (_, text) in implicit {
            entries.push(Entry {
                base: format!("((void *)&({text}))"),
                begin: format!("((void *)&({text}))"),
                size: format!("((unsigned long long)sizeof({text}))"),
                flags: embed::flags::TO
                    | embed::flags::FROM
                    | embed::flags::IMPLICIT
                    | member_of(parent),
                name: text,
                loc: loc_of(self, None),
            });
        }
        for (m, c, ptr) in pointees {
            let mut flags = map_flags(m);
            if m.implicit {
                flags |= embed::flags::IMPLICIT;
            }
            let loc = loc_of(self, Some(m));
            entries.push(Entry {
                base: c.begin.clone(),
                begin: c.begin.clone(),
                size: c.size,
                flags,
                name: m.name.clone(),
                loc: loc.clone(),
            });
            entries.push(attach_entry(ptr, c.begin, &m.name, loc));
        }
    }

    /// The first-level members of `sym` the region's body uses (`s.m` or, with `arrow`,
    /// `p->m`: the member expression next to the variable), and whether the body also uses
    /// the variable other than as the base of such a member.
    fn body_members<'r>(
        &self,
        r: &'r TargetRegion<'_>,
        sym: SymbolId,
        arrow: bool,
    ) -> (Vec<&'r Expr>, bool) {
        use ompcc_omp::walk::{self, Node};
        let Some(body) = r.directive.body.as_deref() else {
            return (Vec::new(), false);
        };
        let mut used = Vec::new();
        let mut bases = Vec::new();
        let mut uses = Vec::new();
        walk::stmt(body, &mut |n| {
            let Node::Expr(e) = n else { return };
            match &e.kind {
                ExprKind::Member { base, arrow: a, .. } if *a == arrow => {
                    let b = strip_parens(base);
                    if matches!(b.kind, ExprKind::Ident(_))
                        && self.typed.ident_symbols.get(&b.id) == Some(&sym)
                    {
                        used.push(e);
                        bases.push(b.span);
                    }
                }
                ExprKind::Ident(_) if self.typed.ident_symbols.get(&e.id) == Some(&sym) => {
                    uses.push(e.span);
                }
                _ => {}
            }
        });
        let bare = uses.iter().any(|u| !bases.contains(u));
        (used, bare)
    }
}
