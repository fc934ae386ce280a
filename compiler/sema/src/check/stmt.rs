//! Statements: block scopes, conditions of scalar type, `break`/`continue` context, `case`
//! and `default` inside `switch` with duplicate detection, `return` against the function
//! type, and labels (defined once, every `goto` target defined).

use super::{Checker, SwitchCtx};
use crate::consteval::ConstValue;
use ompcc_syntax::ast::{BlockItem, Expr, ForInit, Stmt, StmtKind};

impl Checker<'_> {
    pub(super) fn block_item(&mut self, item: &BlockItem) {
        match item {
            BlockItem::Decl(d) => self.declaration(d),
            BlockItem::Stmt(s) => self.stmt(s),
            BlockItem::Pragma(p) => self.pragma(p),
            BlockItem::LocalLabels(..) => {}
        }
    }

    fn condition(&mut self, e: &Expr, what: &str) {
        if let Some(t) = self.rvalue(e)
            && !self.out.types.is_scalar(t)
        {
            let s = self.ty_str(t);
            self.error(
                "E0501",
                format!("used '{s}' where scalar is required ({what} condition)"),
                e.span,
            );
        }
    }

    fn loop_body(&mut self, body: &Stmt) {
        self.breakables.push(true);
        self.stmt(body);
        self.breakables.pop();
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Labeled(l, body) => {
                if let Some(f) = self.func.as_mut()
                    && let Some(prev) = f.labels_defined.insert(l.name, l.span)
                {
                    let n = self.name(l.name);
                    self.diags.push(
                        ompcc_diag::Diagnostic::error(
                            "E0502",
                            format!("duplicate label '{n}'"),
                            l.span,
                        )
                        .with_label(prev, "previous definition"),
                    );
                }
                self.stmt(body);
            }
            StmtKind::Case(lo, hi, body) => {
                let v = self.const_int(lo);
                let vh = hi.as_ref().and_then(|h| self.const_int(h));
                match self.switches.last() {
                    None => self.error("E0503", "case label not within a switch statement", s.span),
                    Some(sw) => {
                        let ty = sw.ty;
                        let kind = self.out.types.int_kind(ty);
                        if let (Some(v), Some(k)) = (v, kind) {
                            // case values convert to the promoted controlling type
                            let lo_v = v.cast(k).value;
                            let hi_v = vh.map_or(lo_v, |h| h.cast(k).value);
                            self.out.consts.insert(lo.id, ConstValue::Int(v.cast(k)));
                            if hi_v < lo_v {
                                self.warn("W0501", "empty range specified", s.span);
                            }
                            // ranges are checked by their endpoints and up to 4096 values
                            let mut vals = vec![lo_v, hi_v];
                            if hi_v.checked_sub(lo_v).is_some_and(|d| d < 4096) {
                                vals = (lo_v..=hi_v).collect();
                            }
                            for x in vals {
                                let sw = self.switches.last_mut();
                                if let Some(sw) = sw
                                    && let Some(prev) = sw.cases.insert(x, lo.span)
                                {
                                    self.diags.push(
                                        ompcc_diag::Diagnostic::error(
                                            "E0504",
                                            "duplicate case value",
                                            lo.span,
                                        )
                                        .with_label(prev, "previously used here"),
                                    );
                                    break;
                                }
                            }
                        }
                    }
                }
                self.stmt(body);
            }
            StmtKind::Default(body) => {
                match self.switches.last_mut() {
                    None => self.error(
                        "E0503",
                        "'default' label not within a switch statement",
                        s.span,
                    ),
                    Some(sw) => {
                        if let Some(prev) = sw.default.replace(s.span) {
                            self.diags.push(
                                ompcc_diag::Diagnostic::error(
                                    "E0504",
                                    "multiple default labels in one switch",
                                    s.span,
                                )
                                .with_label(prev, "this is the first default label"),
                            );
                        }
                    }
                }
                self.stmt(body);
            }
            StmtKind::Compound(b) => {
                self.push_scope();
                for item in &b.items {
                    self.block_item(item);
                }
                self.pop_scope();
            }
            StmtKind::Expr(e) => {
                if let Some(e) = e {
                    self.expr(e);
                    if let Some(i) = self.info(e.id) {
                        let t = self.decay(i.ty);
                        self.set_conv(e.id, t);
                    }
                }
            }
            StmtKind::If(c, t, f) => {
                self.condition(c, "if");
                self.push_scope();
                self.stmt(t);
                self.pop_scope();
                if let Some(f) = f {
                    self.push_scope();
                    self.stmt(f);
                    self.pop_scope();
                }
            }
            StmtKind::Switch(c, body) => {
                let t = self.rvalue(c);
                let ty = match t {
                    Some(t) if self.out.types.is_integer(t) => {
                        let p = self.out.types.promote(t);
                        self.set_conv(c.id, p);
                        Some(p)
                    }
                    Some(t) => {
                        let s = self.ty_str(t);
                        self.error(
                            "E0505",
                            format!("switch quantity not an integer (type '{s}')"),
                            c.span,
                        );
                        None
                    }
                    None => None,
                };
                let ty = ty.unwrap_or_else(|| self.out.types.int(crate::types::IntKind::Int));
                self.switches.push(SwitchCtx {
                    ty,
                    cases: Default::default(),
                    default: None,
                });
                self.breakables.push(false);
                self.push_scope();
                self.stmt(body);
                self.pop_scope();
                self.breakables.pop();
                self.switches.pop();
            }
            StmtKind::While(c, body) => {
                self.condition(c, "while");
                self.push_scope();
                self.loop_body(body);
                self.pop_scope();
            }
            StmtKind::DoWhile(body, c) => {
                self.push_scope();
                self.loop_body(body);
                self.pop_scope();
                self.condition(c, "do-while");
            }
            StmtKind::For(init, c, step, body) => {
                self.push_scope();
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => {
                        self.expr(e);
                    }
                    ForInit::Decl(d) => self.declaration(d),
                }
                if let Some(c) = c {
                    self.condition(c, "for");
                }
                if let Some(st) = step {
                    self.expr(st);
                }
                self.push_scope();
                self.loop_body(body);
                self.pop_scope();
                self.pop_scope();
            }
            StmtKind::Goto(l) => {
                if let Some(f) = self.func.as_mut() {
                    f.labels_used.push((l.name, l.span));
                }
            }
            StmtKind::GotoIndirect(e) => {
                if let Some(t) = self.rvalue(e)
                    && !self.out.types.is_pointer(t)
                {
                    self.error("E0506", "computed goto needs a pointer", e.span);
                }
            }
            StmtKind::Continue => {
                if !self.breakables.contains(&true) {
                    self.error("E0507", "continue statement not within a loop", s.span);
                }
            }
            StmtKind::Break => {
                if self.breakables.is_empty() {
                    self.error("E0507", "break statement not within loop or switch", s.span);
                }
            }
            StmtKind::Return(e) => {
                let Some(ret) = self.func.as_ref().map(|f| f.ret) else {
                    return;
                };
                let is_void = self.out.types.is_void(ret);
                match e {
                    Some(e) => {
                        let t = self.rvalue(e);
                        if is_void {
                            if t.is_some_and(|t| !self.out.types.is_void(t)) {
                                self.warn(
                                    "W0502",
                                    "'return' with a value, in function returning void",
                                    e.span,
                                );
                            }
                        } else if let Some(t) = t {
                            let _ = self.assign_convert(e, t, ret, "returning");
                        }
                    }
                    None => {
                        if !is_void {
                            self.warn(
                                "W0502",
                                "'return' with no value, in function returning non-void",
                                s.span,
                            );
                        }
                    }
                }
            }
            StmtKind::Asm(a) => {
                for op in a.outputs.iter().chain(&a.inputs) {
                    self.expr(&op.expr);
                }
            }
            StmtKind::Omp(d) => self.omp_directive(d),
        }
    }

    /// At the end of a function: every `goto` target must be a defined label.
    pub(super) fn finish_labels(&mut self) {
        let Some(f) = self.func.as_ref() else { return };
        let missing: Vec<_> = f
            .labels_used
            .iter()
            .filter(|(n, _)| !f.labels_defined.contains_key(n))
            .copied()
            .collect();
        for (n, span) in missing {
            let name = self.name(n);
            self.error(
                "E0508",
                format!("label '{name}' used but not defined"),
                span,
            );
        }
    }
}
