//! `declare variant` in device code: the variant ompcc-omp chose for a direct call
//! (`ompcc_omp::device_variant_calls`, handed over in `LowerOptions::variant_calls`).

use ompcc_ir::Value;
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{Expr, ExprKind, OmpClauseKind, OmpClauseName as C, OmpDirective};

use crate::ctx::Ctx;
use crate::func::FnLower;

impl Ctx<'_> {
    /// The function a direct call with callee expression `f` (of symbol `sym`) calls: a
    /// `declare variant` of it chosen for this call (`ompcc_omp::device_variant_calls`), else
    /// `sym`.
    pub(crate) fn variant_of(&self, f: &Expr, mut sym: SymbolId) -> SymbolId {
        let mut e = f;
        while let ExprKind::Paren(x) = &e.kind {
            e = x;
        }
        if let Some(&v) = self.variant_calls.get(&e.id) {
            sym = v;
        }
        sym
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    /// `#pragma omp dispatch` in device code (OpenMP 5.2 section 7.6): `novariants` and
    /// `nocontext` are evaluated once, in that order; then the statement runs with its
    /// target call calling the base function (`novariants` true), the variant chosen without
    /// `dispatch` in the construct set (`nocontext` true: what `variant_calls` holds for the
    /// call), or the one chosen with it (`dispatch_calls`). `depend` needs nothing (device
    /// tasks run undeferred, so every sibling task is complete), `nowait` has no effect
    /// (5.2), `is_device_ptr`/`has_device_addr` only feed `adjust_args`, whose
    /// `need_device_ptr` is the identity on the device. `device` is refused: the device
    /// has no default-device ICV to set for the call.
    pub(crate) fn dispatch(&mut self, d: &'a OmpDirective) {
        let Some(body) = d.body.as_deref() else {
            return;
        };
        if let Some(c) = d.clauses.iter().find(|c| c.name == C::Device) {
            self.unsupported(
                "'device' on '#pragma omp dispatch' is not supported in device code (the \
                 device has no default-device ICV to set for the call)",
                c.span,
            );
            return;
        }
        let Some(callee) = ompcc_omp::dispatch_target_call(body) else {
            self.unsupported(
                "the statement of '#pragma omp dispatch' must be a call 'f(...);' or an \
                 assignment 'x = f(...);' of a named function",
                body.span,
            );
            return;
        };
        let Some(&base) = self.cx.typed.ident_symbols.get(&callee.id) else {
            return;
        };
        let with = match self.cx.dispatch_calls.get(&callee.id) {
            Some(v) => v.unwrap_or(base),
            None => self.cx.variant_of(callee, base),
        };
        let cond = |name: C| {
            d.clauses.iter().find_map(|c| match &c.kind {
                OmpClauseKind::Expr(e) if c.name == name => Some(&**e),
                _ => None,
            })
        };
        let mut arms: Vec<(Value, Option<SymbolId>)> = Vec::new();
        for (name, calls) in [(C::Novariants, Some(base)), (C::Nocontext, None)] {
            if let Some(e) = cond(name) {
                let Some(v) = self.cond_value(e) else { return };
                arms.push((v, calls));
            }
        }
        let join = self.b.create_block();
        for (v, calls) in arms {
            let then_b = self.b.create_block();
            let else_b = self.b.create_block();
            if !self.b.is_filled() {
                self.b.ins().brif(v, then_b, &[], else_b, &[]);
            }
            self.b.switch_to_block(then_b);
            self.dispatch_callee = calls.map(|s| (callee.id, s));
            self.stmt(body);
            self.jump_to(join);
            self.b.switch_to_block(else_b);
        }
        self.dispatch_callee = Some((callee.id, with));
        self.stmt(body);
        self.dispatch_callee = None;
        self.jump_to(join);
        self.b.switch_to_block(join);
    }
}
