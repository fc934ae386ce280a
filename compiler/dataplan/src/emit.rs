//! The plan of a range as edits and remarks: the enter/exit directives (with the run-time
//! checks their `if` needs), the updates, the map clauses for unmapped pointers.

use ompcc_access::{BaseKind, Scope};
use ompcc_diag::Span;

use crate::tree::Tree;
use crate::{Anchor, DataPlan, Edit, FnPlan, Planned, Remark, edit};

impl FnPlan<'_, '_> {
    /// The edits and remarks of a planned range; false when nothing could be written.
    pub(crate) fn emit(
        &self,
        tree: &Tree,
        range: Span,
        plans: &[Planned],
        out: &mut DataPlan,
    ) -> bool {
        let last_line = self.sm.lookup(range.hi.saturating_sub(1)).line;
        let mut ok: Vec<&Planned> = Vec::new();
        for p in plans {
            let anchors_ok = p.updates.iter().all(|&(n, from, _)| {
                let s = tree.nodes[n].span;
                let at = if from {
                    Anchor::Before(s)
                } else {
                    Anchor::After(s)
                };
                edit::anchorable(self.text, self.sm, self.original, at)
            });
            if anchors_ok {
                ok.push(p);
            } else {
                out.remarks.push(Remark {
                    span: range,
                    missed: true,
                    message: format!(
                        "'{}' not planned: a 'target update' it needs would share a line with \
                         other code",
                        p.text
                    ),
                });
            }
        }
        let (before, after) = (Anchor::Before(range), Anchor::After(range));
        if ok.is_empty()
            || !edit::anchorable(self.text, self.sm, self.original, before)
            || !edit::anchorable(self.text, self.sm, self.original, after)
        {
            if !ok.is_empty() {
                out.remarks.push(Remark {
                    span: range,
                    missed: true,
                    message: "data not planned: the statements that hold the target regions \
                              share their first or last line with other code"
                        .to_owned(),
                });
            }
            return false;
        }
        // a length that may be negative (the loops behind it not running) maps nothing
        let mut conds: Vec<String> = Vec::new();
        for p in &ok {
            for d in &p.dims {
                if let Some(len) = d.length()
                    && len.as_const().is_none()
                {
                    let c = format!("{} > 0", self.ua.expr_c(&len));
                    if !conds.contains(&c) {
                        conds.push(c);
                    }
                }
            }
        }
        let alias = self.disjoint_condition(&ok);
        conds.extend(alias.clone());
        let cond = (!conds.is_empty()).then(|| conds.join(" && "));
        let list = |pick: &dyn Fn(&Planned) -> bool| -> String {
            ok.iter()
                .filter(|p| pick(p))
                .map(|p| p.text.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut enter = String::from("#pragma omp target enter data");
        let mut exit = String::from("#pragma omp target exit data");
        if let Some(c) = &cond {
            enter.push_str(&format!(" if({c})"));
            exit.push_str(&format!(" if({c})"));
        }
        for (kind, pick) in [
            (
                "to",
                &(|p: &Planned| p.entry_to) as &dyn Fn(&Planned) -> bool,
            ),
            ("alloc", &|p: &Planned| !p.entry_to),
        ] {
            let l = list(pick);
            if !l.is_empty() {
                enter.push_str(&format!(" map({kind}: {l})"));
            }
        }
        for (kind, pick) in [
            (
                "from",
                &(|p: &Planned| p.exit_from) as &dyn Fn(&Planned) -> bool,
            ),
            ("release", &|p: &Planned| !p.exit_from),
        ] {
            let l = list(pick);
            if !l.is_empty() {
                exit.push_str(&format!(" map({kind}: {l})"));
            }
        }
        out.edits.push(Edit {
            at: before,
            text: enter,
            order: 0,
        });
        out.edits.push(Edit {
            at: after,
            text: exit,
            order: 2,
        });
        let first_line = self.line(range);
        for p in &ok {
            let since;
            let how_in = if p.entry_to {
                "copied in before it"
            } else if let Some(line) = p.indeterminate_since {
                since = format!(
                    "allocated before it (the host has not written it since its allocation at \
                     line {line}: its values are indeterminate)"
                );
                &since
            } else if p.written_before_read {
                "allocated before it (every element a kernel reads is written on the device or \
                 copied there first, and nothing is copied back)"
            } else {
                "allocated before it (its first kernel writes all of it)"
            };
            let how_out = if p.exit_from {
                "copied back after it"
            } else if p.live {
                "released after it (the host copy is current there)"
            } else {
                "released after it (the host does not use it afterwards)"
            };
            out.remarks.push(Remark {
                span: range,
                missed: false,
                message: format!(
                    "'{}' stays on the device across lines {first_line}-{last_line}: {how_in}, \
                     {how_out}",
                    p.text
                ),
            });
            for (n, from, sec) in &p.updates {
                let (n, from) = (*n, *from);
                let node = tree.nodes[n].span;
                let (dir, at, why) = if from {
                    (
                        "from",
                        Anchor::Before(node),
                        "the host uses it there after a kernel may have written it",
                    )
                } else {
                    (
                        "to",
                        Anchor::After(node),
                        "the host writes it there and the device sees it later",
                    )
                };
                out.edits.push(Edit {
                    at,
                    text: format!("#pragma omp target update {dir}({sec}"),
                    order: 1,
                });
                out.remarks.push(Remark {
                    span: node,
                    missed: false,
                    message: format!(
                        "'target update {dir}({sec}' {} line {}: {why}",
                        if from { "before" } else { "after" },
                        if from {
                            self.line(node)
                        } else {
                            self.sm.lookup(node.hi.saturating_sub(1)).line
                        }
                    ),
                });
            }
        }
        self.implicit_pointer_maps(tree, &ok, out);
        if let Some(c) = alias {
            out.remarks.push(Remark {
                span: range,
                missed: false,
                message: format!(
                    "planned pointers may alias: the data is kept on the device only when \
                     their sections do not overlap at run time ({c}); otherwise every region \
                     maps its data as written"
                ),
            });
        }
        true
    }

    /// Regions that use a planned pointer without a map clause get one with the planned
    /// section (the data is present, so it moves nothing; without the plan's data it keeps
    /// the region correct).
    pub(crate) fn implicit_pointer_maps(&self, tree: &Tree, ok: &[&Planned], out: &mut DataPlan) {
        for t in tree.targets() {
            let span = tree.nodes[t].span;
            let Some(r) = self
                .oplan
                .regions
                .iter()
                .find(|r| r.directive.span.lo == span.lo)
            else {
                continue;
            };
            let (fp, _) = self.frame(tree, t, ompcc_access::BaseId(0));
            let Some(ar) = fp.region_at(span) else {
                continue;
            };
            let sections = self.ua.sections(fp.fi, Scope::Region(ar));
            for p in &r.params {
                let implicit = p.pass == ompcc_omp::Pass::DevicePtr
                    && p.map.as_ref().is_some_and(|m| m.implicit);
                let Some((pl, here)) = ok.iter().find_map(|pl| {
                    let here = self.frame(tree, t, pl.base).1?;
                    let b = &fp.fa().bases[here.0 as usize];
                    (b.root == Some(p.sym) && matches!(b.kind, BaseKind::Pointer(_)))
                        .then_some((*pl, here))
                }) else {
                    continue;
                };
                if !implicit {
                    continue;
                }
                // in a spliced callee, the clause names the section by the callee's names
                // (the present data is found without it otherwise)
                let text = if tree.nodes[t].frame == 0 {
                    pl.text.clone()
                } else {
                    let frame = &tree.frames[tree.nodes[t].frame];
                    let Some(dims) = frame.callee_terms(self.typed, &pl.dims) else {
                        continue;
                    };
                    fp.section_text(here, &dims, false)
                };
                let writes = sections.iter().any(|s| s.base == here && s.write.is_some());
                let kind = if writes { "tofrom" } else { "to" };
                let at = Anchor::Clause(r.directive.span);
                if !edit::anchorable(self.text, self.sm, self.original, at) {
                    continue;
                }
                out.edits.push(Edit {
                    at,
                    text: format!(" map({kind}: {text})"),
                    order: 1,
                });
                out.remarks.push(Remark {
                    span: r.directive.span,
                    missed: false,
                    message: format!(
                        "'map({kind}: {text})' added to the target region: '{}' had no map \
                         clause (a zero-length section)",
                        p.name
                    ),
                });
            }
        }
    }

    /// `if` condition that the planned pointers which may alias occupy disjoint bytes.
    pub(crate) fn disjoint_condition(&self, ok: &[&Planned]) -> Option<String> {
        let mut terms = Vec::new();
        for (i, p) in ok.iter().enumerate() {
            for q in &ok[i + 1..] {
                if self.ua.distinct(self.fi, p.base, q.base).is_some() {
                    continue;
                }
                let (ps, pe) = self.byte_bounds(p);
                let (qs, qe) = self.byte_bounds(q);
                terms.push(format!("({pe} <= {qs} || {qe} <= {ps})"));
            }
        }
        (!terms.is_empty()).then(|| terms.join(" && "))
    }

    /// The first and one-past-last byte address of a planned section, as `unsigned long`.
    pub(crate) fn byte_bounds(&self, p: &Planned) -> (String, String) {
        let name = self.base_name(p.base);
        let mut lo = format!("&{name}");
        let mut hi = format!("&{name}");
        for d in &p.dims {
            lo.push_str(&format!("[{}]", self.ua.expr_c(&d.lo)));
            hi.push_str(&format!("[{}]", self.ua.expr_c(&d.hi)));
        }
        (
            format!("(unsigned long)({lo})"),
            format!("(unsigned long)({hi} + 1)"),
        )
    }
}
