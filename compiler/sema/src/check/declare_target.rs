//! What `declare target` directives mark (OpenMP 5.2 section 7.8): the entities of
//! `enter`/`to` clauses, lists and `begin declare target` regions go to
//! `TypedUnit::declare_target`; `link` items to `declare_target_link` only (the device gets
//! no copy of its own: a map of the variable makes one); functions under `indirect` (or
//! `indirect(true)`) also to `declare_target_indirect`.

use super::Checker;
use crate::consteval::ConstValue;
use ompcc_syntax::ast::{Expr, OmpClauseKind, OmpClauseName, OmpDirective, OmpDirectiveKind as K};

impl Checker<'_> {
    /// Whether `d` carries `indirect` with a true (or no) argument.
    fn indirect(&self, d: &OmpDirective) -> bool {
        d.clauses.iter().any(|c| {
            c.name == OmpClauseName::Indirect
                && match &c.kind {
                    OmpClauseKind::Expr(e) => {
                        !matches!(self.out.consts.get(&e.id), Some(ConstValue::Int(v)) if v.is_zero())
                    }
                    _ => true,
                }
        })
    }

    /// Records the entities `d` marks; `begin`/`end` keep the open regions.
    pub(super) fn declare_target_marks(&mut self, d: &OmpDirective) {
        match d.kind {
            K::BeginDeclareTarget => {
                self.declare_target_depth += 1;
                let indirect = self.indirect(d);
                self.indirect_regions.push(indirect);
            }
            K::DeclareTarget if d.clauses.is_empty() && d.args.is_empty() => {
                self.declare_target_depth += 1;
                self.indirect_regions.push(false);
            }
            K::EndDeclareTarget => {
                self.declare_target_depth = self.declare_target_depth.saturating_sub(1);
                self.indirect_regions.pop();
            }
            K::DeclareTarget => {
                let indirect = self.indirect(d);
                let mut items: Vec<(&Expr, bool)> = d.args.iter().map(|e| (e, false)).collect();
                for c in &d.clauses {
                    if let OmpClauseKind::List(l) | OmpClauseKind::Motion { list: l, .. } = &c.kind
                    {
                        items.extend(l.iter().map(|e| (e, c.name == OmpClauseName::Link)));
                    }
                }
                for (e, link) in items {
                    let Some(sym) = super::omp::base_symbol(&self.out, e) else {
                        continue;
                    };
                    if link {
                        self.out.declare_target_link.insert(sym);
                        continue;
                    }
                    self.out.declare_target.insert(sym);
                    if indirect {
                        self.out.declare_target_indirect.insert(sym);
                    }
                }
            }
            _ => {}
        }
    }

    /// A file-scope entity declared inside `begin declare target indirect`.
    pub(super) fn mark_indirect_in_region(&mut self, sym: crate::SymbolId) {
        if self.indirect_regions.iter().any(|i| *i) {
            self.out.declare_target_indirect.insert(sym);
        }
    }
}
