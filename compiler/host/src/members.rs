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
    /// region maps parts of it; `false` (nothing written) otherwise.
    pub(crate) fn struct_group(
        &mut self,
        r: &TargetRegion<'_>,
        p: &Param<'_>,
        entries: &mut Vec<Entry>,
    ) -> bool {
        let items: Vec<(&MapItem<'_>, Part, Option<Symbol>)> = p
            .map
            .iter()
            .chain(&r.extra_maps)
            .filter_map(|m| {
                let (root, part, first) = self.struct_part(m.expr, p.pass)?;
                (root == p.sym).then_some((m, part, first))
            })
            .collect();
        if items.iter().all(|(_, part, _)| *part == Part::Whole)
            || items.iter().any(|(_, part, _)| *part == Part::Array)
        {
            return false;
        }
        let arrow = p.pass == Pass::DevicePtr;
        let v = self.var(p.sym, &p.name);
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
        // What the body touches: first-level members (`s.n`, `p->a`) and bare uses.
        let (used, bare) = self.body_members(r, p.sym, arrow);
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
            (None, false) => 0,
        };
        let parent = entries.len();
        let loc_of =
            |w: &Self, m: Option<&MapItem<'_>>| w.loc(m.map_or(r.directive.span, |m| m.span));
        entries.push(Entry {
            base,
            begin: format!("((void *)({{ char *__l = (char *){first}; {lo}__l; }}))"),
            size: format!(
                "((unsigned long long)({{ char *__l = (char *){first}, *__h = __l; {lo}{hi}__h - __l; }}))"
            ),
            flags: embed::flags::TARGET_PARAM | parent_flags,
            name: p.name.clone(),
            loc: loc_of(self, whole.map(|w| w.0).or(p.map.as_ref())),
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
        true
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
