//! Private copies of OpenMP list items inside kernels: `private`, `firstprivate`,
//! `lastprivate` and reductions (scalars, whole arrays and contiguous array sections), with
//! the reduction identities, combiners, the warp shuffle tree and the atomic combine into the
//! original.
//!
//! Invariants: a privatized symbol's previous binding in `locals` is restored by
//! `end_privates`; every reduction copy is combined exactly once; combines into memory other
//! threads can see are atomic (thread-private originals are updated in place).

use crate::atomic_builtin::Obj;
use crate::func::{Addr, FnLower, Local};
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{
    AddrSpace, AtomicRmwOp, FloatCC, IntCC, Scope, ShuffleMode, SpecialReg, Type, Value,
};
use ompcc_sema::SymbolId;
use ompcc_sema::types::QualType;
use ompcc_syntax::ast::{
    DefaultKind, Expr, ExprKind, OmpClauseKind, OmpClauseName as C, OmpDirective,
    OmpDirectiveKind as K, ReductionOp,
};

/// One privatized list item of a construct.
pub(crate) struct Private<'a> {
    pub(crate) sym: SymbolId,
    pub(crate) old: Option<Local>,
    /// Array reductions: the private buffer and where its elements combine.
    pub(crate) array: Option<ArrayRed>,
    /// The original's address and type (absent for plain `private`).
    pub(crate) orig: Option<(Addr, QualType)>,
    pub(crate) kind: PrivKind,
    pub(crate) item: &'a Expr,
    /// `linear`: the original's value at the construct (as `i64`) and the step.
    pub(crate) linear: Option<(Value, Value)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PrivKind {
    Private,
    First,
    Last,
    /// `linear(x: step)`: each logical iteration `k` starts with `x + k * step`; the last one's
    /// value is copied back, as for `lastprivate`.
    Linear,
    Reduce(ReductionOp),
}

/// A reduction over an array (whole, or a contiguous section): `count` elements of class
/// `cls` from element `first` of the original, privatized in `buf` (local memory).
#[derive(Clone, Copy)]
pub(crate) struct ArrayRed {
    pub(crate) cls: Scalar,
    pub(crate) esize: u32,
    pub(crate) first: i64,
    pub(crate) count: i64,
    pub(crate) buf: Addr,
    pub(crate) orig: Addr,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// Whether clause `c` is a `reduction(inscan, ...)`.
    pub(crate) fn inscan(&self, c: &ompcc_syntax::ast::OmpClause) -> bool {
        matches!(&c.kind, OmpClauseKind::Reduction { modifier: Some(m), .. }
            if c.name == C::Reduction && self.cx.tu.symbols.resolve(m.name) == "inscan")
    }

    /// A firstprivate aggregate kernel parameter (`Pass::Copy`): `ptr` is the device address
    /// of the host's bytes; each thread copies them into its own stack slot, which then is
    /// the variable in the kernel.
    pub(crate) fn private_copy_param(&mut self, sym: SymbolId, ptr: Value, span: Span) {
        let qt = self.cx.typed.symbols[sym].ty;
        let align = self.align_of(qt);
        let Some(slot) = self.new_slot(qt, span) else {
            return;
        };
        let dst = self.slot_addr(slot, align);
        // The runtime allocates the copy for this one object, so it has the object's alignment.
        let src = Addr {
            ptr,
            space: AddrSpace::Generic,
            align,
        };
        self.copy(dst, src, qt, span);
        self.locals.insert(sym, Local::Slot(slot, align));
    }

    pub(crate) fn privatize_chain(
        &mut self,
        chain: &[&'a OmpDirective],
        with_last: bool,
    ) -> Vec<Private<'a>> {
        let mut out = Vec::new();
        for d in chain {
            let target_leaf = ompcc_omp::is_target_region(d.kind);
            self.privatize(d, with_last, target_leaf, &mut out);
        }
        out
    }

    /// Installs private copies for the list items of `d`'s privatizing clauses.
    pub(crate) fn privatize(
        &mut self,
        d: &'a OmpDirective,
        with_last: bool,
        target_leaf: bool,
        out: &mut Vec<Private<'a>>,
    ) {
        for c in &d.clauses {
            let (kind, list): (PrivKind, &'a [Expr]) = match (&c.kind, c.name) {
                (OmpClauseKind::List(l), C::Private) if !target_leaf => (PrivKind::Private, l),
                (OmpClauseKind::List(l), C::Firstprivate) if !target_leaf => (PrivKind::First, l),
                (OmpClauseKind::Lastprivate { .. }, _) if matches!(d.kind, K::Sections) => {
                    self.unsupported(
                        "'lastprivate' on 'sections' is not supported in a target region",
                        c.span,
                    );
                    continue;
                }
                (OmpClauseKind::Lastprivate { list, .. }, _) if with_last => (PrivKind::Last, list),
                (OmpClauseKind::Lastprivate { list, .. }, _) => (PrivKind::Private, list),
                // the loop of an `inscan` reduction runs in order on one worker (or its
                // `scan` is refused): the item stays shared, and the worker's updates are
                // the running values the scan phases read
                (OmpClauseKind::Reduction { .. }, C::Reduction) if self.inscan(c) => {
                    // gcc, which compiles the host fallback, takes `inscan` only on
                    // worksharing loops (`for`, `parallel for`), not on combined target
                    // constructs
                    if target_leaf {
                        self.unsupported(
                            "'reduction(inscan, ...)' on a combined target construct is not \
                             supported; write the loop as '#pragma omp parallel for \
                             reduction(inscan, ...)' inside '#pragma omp target'",
                            c.span,
                        );
                    }
                    continue;
                }
                (OmpClauseKind::Reduction { op, list, .. }, C::Reduction) => {
                    (PrivKind::Reduce(*op), list)
                }
                // An included task runs on the thread that owns the reduction's copy (the
                // taskgroup's or the enclosing construct's): it updates that copy directly.
                (OmpClauseKind::Reduction { .. }, C::InReduction) => continue,
                // A user-defined reduction on a worksharing, distribute or simd loop that runs
                // in order on one worker (`in_order_loop`): the item stays shared and the
                // worker's updates are the whole reduction, so the combiner never runs (as
                // with one thread, where the initializer's value combines with the original
                // once more: an identity, as `declare reduction` initializers are meant to be).
                (OmpClauseKind::UserReduction { .. }, C::Reduction)
                    if d.kind.is_loop()
                        && !d.kind.words().contains(&"taskloop")
                        && self.in_order_loop(d) =>
                {
                    continue;
                }
                (OmpClauseKind::UserReduction { .. }, _) => {
                    self.unsupported(
                        format!(
                            "a user-defined reduction ('declare reduction') in '{}' is not \
                             supported in a target region yet, except on a loop whose \
                             iterations one thread may run in order (no static 'schedule' or \
                             'dist_schedule'); use one of + * - & | ^ && || min max",
                            c.name.as_str()
                        ),
                        c.span,
                    );
                    continue;
                }
                (OmpClauseKind::Reduction { .. }, _) => {
                    self.unsupported(
                        format!("'{}' is not supported in a target region", c.name.as_str()),
                        c.span,
                    );
                    continue;
                }
                (OmpClauseKind::Linear { list, step }, C::Linear) => {
                    self.privatize_linear(d, list, step.as_deref(), with_last, out);
                    continue;
                }
                // One thread runs the `single` and is the whole team: nothing to broadcast.
                (OmpClauseKind::List(_), C::Copyprivate)
                    if self.par.split != crate::kernel::Split::Team =>
                {
                    continue;
                }
                (OmpClauseKind::List(_), C::Copyprivate | C::Copyin) => {
                    self.unsupported(
                        format!("'{}' is not supported in a target region", c.name.as_str()),
                        c.span,
                    );
                    continue;
                }
                _ => continue,
            };
            for item in list {
                self.privatize_item(item, kind, out);
            }
        }
        // `default(private)` / `default(firstprivate)` on a `parallel` or `teams` (alone or as
        // a leaf of a combined construct, `target parallel` included): every variable the
        // body uses that no clause names gets its copy. Tasks apply their own rule
        // (`task_data`).
        let words = d.kind.words();
        let team_leaf = words.iter().any(|w| matches!(*w, "parallel" | "teams"))
            && !words.iter().any(|w| matches!(*w, "task" | "taskloop"));
        let default = d.clauses.iter().find_map(|c| match c.kind {
            OmpClauseKind::Default(k @ (DefaultKind::Private | DefaultKind::Firstprivate)) => {
                Some(k)
            }
            _ => None,
        });
        if let (true, Some(k), Some(body)) = (team_leaf, default, d.body.as_deref()) {
            self.implicit_privates(d, body, Some(k), out);
        }
    }

    pub(crate) fn privatize_item(
        &mut self,
        item: &'a Expr,
        kind: PrivKind,
        out: &mut Vec<Private<'a>>,
    ) {
        let e = crate::expr::strip_parens(item);
        if let PrivKind::Reduce(op) = kind {
            let array_var =
                matches!(e.kind, ExprKind::Ident(_))
                    && self.cx.typed.ident_symbols.get(&e.id).is_some_and(|s| {
                        self.cx.typed.types.is_array(self.cx.typed.symbols[*s].ty)
                    });
            if array_var || matches!(e.kind, ExprKind::ArraySection { .. }) {
                self.privatize_array_reduction(item, op, out);
                return;
            }
        }
        let sym = match (&e.kind, self.cx.typed.ident_symbols.get(&e.id)) {
            (ExprKind::Ident(_), Some(&s)) => s,
            _ => {
                self.unsupported(
                    "only variables can be privatized on the device (not array sections or members)",
                    item.span,
                );
                return;
            }
        };
        if let Some(i) = out.iter().position(|p| p.sym == sym) {
            // `firstprivate(x) lastprivate(x)`: one copy, initialized from the original and
            // copied back after the last iteration, whichever clause comes first
            match (out[i].kind, kind) {
                (PrivKind::First, PrivKind::Last) => out[i].kind = PrivKind::Last,
                (PrivKind::Last, PrivKind::First) => {
                    if let (Some((src, _)), Some(Local::Slot(slot, align))) =
                        (out[i].orig, self.locals.get(&sym).copied())
                    {
                        let qt = self.cx.typed.symbols[sym].ty;
                        let dst = self.slot_addr(slot, align);
                        self.copy(dst, src, qt, item.span);
                    }
                }
                _ => {}
            }
            return;
        }
        let qt = self.cx.typed.symbols[sym].ty;
        let orig = if kind == PrivKind::Private {
            None
        } else {
            match self.lvalue(e) {
                Some(crate::expr::Lv::Mem(a, q)) => Some((a, q)),
                _ => return,
            }
        };
        let Some(slot) = self.new_slot(qt, item.span) else {
            return;
        };
        let align = self.align_of(qt);
        let priv_addr = self.slot_addr(slot, align);
        match kind {
            PrivKind::First => {
                if let Some((src, _)) = orig {
                    self.copy(priv_addr, src, qt, item.span);
                }
            }
            PrivKind::Reduce(op) => {
                let Some(cls) = self.reduction_class(qt, op, item.span) else {
                    return;
                };
                let v = self.identity(op, cls);
                self.store_raw(priv_addr, v, false);
            }
            _ => {}
        }
        let old = self.locals.insert(sym, Local::Slot(slot, align));
        out.push(Private {
            sym,
            old,
            array: None,
            orig,
            kind,
            item,
            linear: None,
        });
    }

    /// `linear(list: step)` on loop construct `d`: an integer list item becomes a private copy
    /// set per logical iteration (`PrivKind::Linear`); a loop iteration variable listed is
    /// lastprivate (its value after the loop), as the loop already sets it per iteration.
    fn privatize_linear(
        &mut self,
        d: &'a OmpDirective,
        list: &'a [Expr],
        step: Option<&'a Expr>,
        with_last: bool,
        out: &mut Vec<Private<'a>>,
    ) {
        let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
        let loop_vars: Vec<SymbolId> = d
            .body
            .as_deref()
            .map(|b| {
                ompcc_omp::nest_loops(b, collapse)
                    .into_iter()
                    .filter_map(|l| ompcc_omp::loop_var(self.cx.typed, l))
                    .collect()
            })
            .unwrap_or_default();
        let step_v = match step {
            Some(e) => match self.long_value(e, Scalar::LONG) {
                Some(v) => v,
                None => return,
            },
            None => self.b.ins().iconst(Type::I64, 1),
        };
        let last = if with_last {
            PrivKind::Last
        } else {
            PrivKind::Private
        };
        for item in list {
            let e = crate::expr::strip_parens(item);
            let sym = self.cx.typed.ident_symbols.get(&e.id).copied();
            if sym.is_some_and(|s| loop_vars.contains(&s)) {
                self.privatize_item(item, last, out);
                continue;
            }
            let Some(info) = self.info(e) else { continue };
            if !matches!(
                ty::scalar(&self.cx.typed.types, info.ty),
                Ok(Some(Scalar::Int(..)))
            ) {
                self.unsupported(
                    "'linear' on a variable that is not an integer is not supported in a target region",
                    item.span,
                );
                continue;
            }
            let Some(base) = self.long_value(e, Scalar::LONG) else {
                continue;
            };
            let n = out.len();
            self.privatize_item(
                item,
                if with_last {
                    PrivKind::Linear
                } else {
                    PrivKind::Private
                },
                out,
            );
            if out.len() > n && with_last {
                out[n].linear = Some((base, step_v));
            } else if out.len() > n {
                // no copy back: still each iteration's value
                out[n].kind = PrivKind::Linear;
                out[n].orig = None;
                out[n].linear = Some((base, step_v));
            }
        }
    }

    /// Stores each `linear` copy's value for logical iteration `k` (an `i64`).
    pub(crate) fn set_linear(&mut self, privs: &[Private<'a>], k: Value) {
        for p in privs.iter().filter(|p| p.kind == PrivKind::Linear) {
            let Some((base, step)) = p.linear else {
                continue;
            };
            let Some(Local::Slot(slot, align)) = self.locals.get(&p.sym).copied() else {
                continue;
            };
            let qt = self.cx.typed.symbols[p.sym].ty;
            let Ok(Some(cls)) = ty::scalar(&self.cx.typed.types, qt) else {
                continue;
            };
            let off = self.b.ins().imul(k, step);
            let v = self.b.ins().iadd(base, off);
            let v = self.convert(v, Scalar::LONG, cls);
            let a = self.slot_addr(slot, align);
            self.store_raw(a, v, false);
        }
    }

    /// A reduction over a whole array or a contiguous section of it (inner dimensions
    /// complete): a private buffer of the section initialized with the identity; the variable
    /// names the buffer (shifted so its indices stay those of the original) until the end.
    pub(crate) fn privatize_array_reduction(
        &mut self,
        item: &'a Expr,
        op: ReductionOp,
        out: &mut Vec<Private<'a>>,
    ) {
        let span = item.span;
        let mut secs: Vec<(Option<&'a Expr>, Option<&'a Expr>)> = Vec::new();
        let mut cur = crate::expr::strip_parens(item);
        // a reduction's sections have no stride (E0128)
        while let ExprKind::ArraySection {
            base,
            lower,
            length,
            ..
        } = &cur.kind
        {
            secs.push((lower.as_deref(), length.as_deref()));
            cur = crate::expr::strip_parens(base);
        }
        secs.reverse();
        let bad = |fl: &mut Self, why: &str| {
            fl.unsupported(
                format!("array reduction not supported on the device: {why}"),
                span,
            )
        };
        let sym = match (&cur.kind, self.cx.typed.ident_symbols.get(&cur.id)) {
            (ExprKind::Ident(_), Some(&s)) => s,
            _ => return bad(self, "the list item must be a variable or sections of one"),
        };
        if out.iter().any(|p| p.sym == sym) {
            return;
        }
        let qt = self.cx.typed.symbols[sym].ty;
        let types = &self.cx.typed.types;
        let is_ptr = types.is_pointer(qt);
        let mut extents: Vec<Option<i64>> = Vec::new();
        let mut et = if is_ptr {
            extents.push(None);
            match types.pointee(qt) {
                Some(t) => t,
                None => return,
            }
        } else {
            qt
        };
        while let ompcc_sema::types::TypeKind::Array {
            elem,
            size: ompcc_sema::types::ArraySize::Fixed(n),
            ..
        } = types.ckind(et).clone()
        {
            extents.push(Some(n as i64));
            et = elem;
        }
        if types.is_array(et) || extents.is_empty() {
            return bad(self, "every dimension needs a constant size");
        }
        let Some(esize) = types.size_of(et) else {
            return;
        };
        let esize = esize as u32;
        let Some(cls) = self.reduction_class(et, op, span) else {
            return;
        };
        // sizes are checked products: a constant section length may be anything
        let too_big = "the private copy must hold 1 to 65536 bytes";
        let mut inner: i64 = 1;
        for x in &extents[1..] {
            match x.and_then(|n| inner.checked_mul(n)) {
                Some(n) => inner = n,
                None if x.is_some() => return bad(self, too_big),
                None => return bad(self, "inner dimensions need a constant size"),
            }
        }
        let konst = |fl: &Self, e: Option<&'a Expr>| -> Option<Option<i64>> {
            match e {
                None => Some(None),
                Some(e) => match ompcc_sema::fold(fl.cx.typed, e) {
                    Some(ompcc_sema::consteval::ConstValue::Int(i)) => {
                        i64::try_from(i.value).ok().map(Some)
                    }
                    _ => None,
                },
            }
        };
        let (first, count) = if secs.is_empty() {
            match extents[0] {
                Some(n) => match n.checked_mul(inner) {
                    Some(count) => (0, count),
                    None => return bad(self, too_big),
                },
                None => return bad(self, "a pointer needs an array section"),
            }
        } else {
            let (Some(lo), Some(len)) = (konst(self, secs[0].0), konst(self, secs[0].1)) else {
                return bad(self, "section bounds must be constants");
            };
            let lo = lo.unwrap_or(0);
            let len = match (len, extents[0]) {
                (Some(l), _) => l,
                (None, Some(n)) => n.saturating_sub(lo),
                (None, None) => return bad(self, "the section needs a length"),
            };
            for (k, (l, n)) in secs.iter().enumerate().skip(1) {
                let (Some(l), Some(n)) = (konst(self, *l), konst(self, *n)) else {
                    return bad(self, "section bounds must be constants");
                };
                if l.unwrap_or(0) != 0
                    || n.is_some_and(|n| Some(n) != extents.get(k).copied().flatten())
                {
                    return bad(self, "inner dimensions must be complete");
                }
            }
            match (lo.checked_mul(inner), len.checked_mul(inner)) {
                (Some(first), Some(count)) => (first, count),
                _ => return bad(self, too_big),
            }
        };
        let bytes = count.checked_mul(esize as i64).unwrap_or(i64::MAX);
        if count <= 0 || bytes > 1 << 16 {
            return bad(self, too_big);
        }
        // the buffer's address minus the section's start, in bytes
        let Some(start_bytes) = first.checked_mul(esize as i64).and_then(i64::checked_neg) else {
            return bad(self, "the section's start is out of range");
        };
        // where the original's element 0 is
        let orig = if is_ptr {
            let Some(v) = self.scalar(cur) else { return };
            Addr {
                ptr: v,
                space: AddrSpace::Generic,
                align: esize,
            }
        } else {
            match self.lvalue(cur) {
                Some(crate::expr::Lv::Mem(a, _)) => a,
                _ => return,
            }
        };
        let slot = self.b.create_stack_slot(bytes as u32, esize.max(4));
        let buf = self.slot_addr(slot, esize);
        let id = self.identity(op, cls);
        self.elem_loop(count, |fl, i| {
            let off = {
                let k = fl.b.ins().iconst(Type::I64, esize as i64);
                fl.b.ins().imul(i, k)
            };
            let p = fl.b.ins().ptr_offset(buf.ptr, off);
            fl.store_raw(Addr { ptr: p, ..buf }, id, false);
        });
        let g = self.b.ins().addrspacecast(Type::PTR, buf.ptr);
        let shift = self.b.ins().iconst(Type::I64, start_bytes);
        let shifted = self.b.ins().ptr_offset(g, shift);
        let binding = if is_ptr {
            let Some(ps) = self.new_slot(qt, span) else {
                return;
            };
            let a = self.slot_addr(ps, 8);
            self.store_raw(a, shifted, false);
            Local::Slot(ps, 8)
        } else {
            Local::Ptr(shifted, esize)
        };
        let old = self.locals.insert(sym, binding);
        out.push(Private {
            sym,
            old,
            array: Some(ArrayRed {
                cls,
                esize,
                first,
                count,
                buf,
                orig,
            }),
            orig: None,
            kind: PrivKind::Reduce(op),
            item,
            linear: None,
        });
    }

    /// Emits `for (i = 0; i < count; i++) f(i)` with an `i64` index.
    pub(crate) fn elem_loop(&mut self, count: i64, mut f: impl FnMut(&mut Self, Value)) {
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, Type::I64);
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let zero = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(head, &[zero]);
        self.b.switch_to_block(head);
        let n = self.b.ins().iconst(Type::I64, count);
        let c = self.b.ins().icmp(IntCC::Slt, i, n);
        self.b.ins().brif(c, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        f(self, i);
        let one = self.b.ins().iconst(Type::I64, 1);
        let next = self.b.ins().iadd(i, one);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(exit);
    }

    /// Ends private copies: reductions combine into their originals (when `tree`, every
    /// thread of the block is here: through warp trees, a barrier and a block combine, one
    /// atomic per block), lastprivate copies are written back
    /// (by the thread whose `last` flag slot holds 1, or always when there is no flag), and
    /// the previous bindings return.
    pub(crate) fn end_privates(&mut self, privs: Vec<Private<'a>>, tree: bool, last: Option<Addr>) {
        let mut block_stage = Vec::new();
        for p in &privs {
            if let (Some(a), PrivKind::Reduce(op)) = (p.array, p.kind) {
                self.elem_loop(a.count, |fl, i| {
                    let off = {
                        let k = fl.b.ins().iconst(Type::I64, a.esize as i64);
                        fl.b.ins().imul(i, k)
                    };
                    let src = fl.b.ins().ptr_offset(a.buf.ptr, off);
                    let v = fl.load_raw(Addr { ptr: src, ..a.buf }, a.cls.ty(), false);
                    let base = fl.b.ins().iconst(Type::I64, a.first * a.esize as i64);
                    let off = fl.b.ins().iadd(off, base);
                    let dst = fl.b.ins().ptr_offset(a.orig.ptr, off);
                    let dst = Addr {
                        ptr: dst,
                        align: a.esize.min(a.orig.align),
                        ..a.orig
                    };
                    fl.combine_into(dst, op, a.cls, v);
                });
                continue;
            }
            let Some((orig, qt)) = p.orig else { continue };
            let Some(Local::Slot(slot, align)) = self.locals.get(&p.sym).copied() else {
                continue;
            };
            match p.kind {
                PrivKind::Reduce(op) => {
                    let Some(cls) = self.reduction_class(qt, op, p.item.span) else {
                        continue;
                    };
                    let a = self.slot_addr(slot, align);
                    let v = self.load_raw(a, cls.ty(), false);
                    if tree {
                        block_stage.push((orig, op, cls, v));
                    } else {
                        self.combine_into(orig, op, cls, v);
                    }
                }
                PrivKind::Last | PrivKind::Linear => {
                    let src = self.slot_addr(slot, align);
                    match last {
                        Some(flag) => {
                            let f = self.load_raw(flag, Type::I8, false);
                            let zero = self.b.ins().iconst(Type::I8, 0);
                            let c = self.b.ins().icmp(IntCC::Ne, f, zero);
                            let then_b = self.b.create_block();
                            let join = self.b.create_block();
                            self.b.ins().brif(c, then_b, &[], join, &[]);
                            self.b.switch_to_block(then_b);
                            self.copy(orig, src, qt, p.item.span);
                            self.b.ins().jump(join, &[]);
                            self.b.switch_to_block(join);
                        }
                        None => self.copy(orig, src, qt, p.item.span),
                    }
                }
                _ => {}
            }
        }
        if !block_stage.is_empty() {
            self.block_reductions(&block_stage);
        }
        for p in privs.into_iter().rev() {
            match p.old {
                Some(l) => {
                    self.locals.insert(p.sym, l);
                }
                None => {
                    self.locals.remove(&p.sym);
                }
            }
        }
    }

    /// The scalar class of a reduction variable, if ompcc reduces that type with `op`.
    pub(crate) fn reduction_class(
        &mut self,
        qt: QualType,
        op: ReductionOp,
        span: Span,
    ) -> Option<Scalar> {
        let cls = self.class(qt, span)?;
        let ok = match cls {
            Scalar::Bool | Scalar::Int(..) => true,
            Scalar::Float(_) => !matches!(
                op,
                ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor
            ),
            Scalar::Ptr => false,
        };
        if !ok {
            self.unsupported(
                format!(
                    "reduction '{}' on type '{}' is not allowed (OpenMP 5.2 section 5.5.5: arithmetic types only, no bitwise operators on floating types)",
                    op_name(op),
                    self.cx.typed.types.display(qt)
                ),
                span,
            );
            return None;
        }
        Some(cls)
    }

    /// `v` of the narrow class `cls` (`_Bool`, 8- and 16-bit integers) widened to its 32-bit
    /// working class, by its signedness; other classes unchanged.
    pub(crate) fn widen(&mut self, v: Value, cls: Scalar) -> (Value, Scalar) {
        match narrow_work(cls) {
            Some(w) if cls.is_signed() => (self.b.ins().sext(Type::I32, v), w),
            Some(w) => (self.b.ins().zext(Type::I32, v), w),
            None => (v, cls),
        }
    }

    /// A working value back in the narrow class `cls`: C's conversion (`_Bool`: nonzero is 1,
    /// integers: the low bits, which is where modular `+ - * & | ^` and the in-range
    /// `min`/`max`/`&&`/`||` results agree with the narrow arithmetic).
    pub(crate) fn unwiden(&mut self, v: Value, cls: Scalar) -> Value {
        match cls {
            Scalar::Bool => {
                let z = self.b.ins().iconst(Type::I32, 0);
                let c = self.b.ins().icmp(IntCC::Ne, v, z);
                let one = self.b.ins().iconst(Type::I8, 1);
                let zero = self.b.ins().iconst(Type::I8, 0);
                self.b.ins().select(c, one, zero)
            }
            _ if narrow_work(cls).is_some() => self.b.ins().trunc(cls.ty(), v),
            _ => v,
        }
    }

    pub(crate) fn identity(&mut self, op: ReductionOp, cls: Scalar) -> Value {
        use ReductionOp as R;
        match cls {
            Scalar::Float(t) => {
                let x = match op {
                    R::Mul | R::LogAnd => 1.0,
                    R::Min => f64::INFINITY,
                    R::Max => f64::NEG_INFINITY,
                    _ => 0.0,
                };
                self.b.ins().fconst(t, x)
            }
            // `_Bool` holds 0 or 1: `~0` and its largest value are 1
            Scalar::Bool => {
                let x = matches!(op, R::Mul | R::LogAnd | R::BitAnd | R::Min);
                self.b.ins().iconst(Type::I8, x as i64)
            }
            _ => {
                let t = cls.ty();
                let signed = cls.is_signed();
                let bits = t.bits();
                let x: i64 = match op {
                    R::Mul | R::LogAnd => 1,
                    R::BitAnd => -1,
                    R::Min if signed => ((1u64 << (bits - 1)) - 1) as i64,
                    R::Min => -1,
                    R::Max if signed => -(((1u64 << (bits - 1)) - 1) as i64) - 1,
                    _ => 0,
                };
                self.b.ins().iconst(t, x)
            }
        }
    }

    /// `a op b` for a reduction operator.
    pub(crate) fn combine(&mut self, op: ReductionOp, cls: Scalar, a: Value, b: Value) -> Value {
        if narrow_work(cls).is_some() {
            let (a, w) = self.widen(a, cls);
            let (b, _) = self.widen(b, cls);
            let r = self.combine_work(op, w, a, b);
            return self.unwiden(r, cls);
        }
        self.combine_work(op, cls, a, b)
    }

    /// `a op b` in a class of 32 or 64 bits.
    pub(crate) fn combine_work(
        &mut self,
        op: ReductionOp,
        cls: Scalar,
        a: Value,
        b: Value,
    ) -> Value {
        use ReductionOp as R;
        let float = matches!(cls, Scalar::Float(_));
        let signed = cls.is_signed();
        match op {
            R::Add | R::Sub if float => self.b.ins().fadd(a, b),
            R::Add | R::Sub => self.b.ins().iadd(a, b),
            R::Mul if float => self.b.ins().fmul(a, b),
            R::Mul => self.b.ins().imul(a, b),
            R::BitAnd => self.b.ins().and(a, b),
            R::BitOr => self.b.ins().or(a, b),
            R::BitXor => self.b.ins().xor(a, b),
            R::Min | R::Max if float => {
                // C's `a < b ? a : b`, as the host computes the reduction.
                let cc = if op == R::Min {
                    FloatCC::Olt
                } else {
                    FloatCC::Ogt
                };
                let c = self.b.ins().fcmp(cc, b, a);
                self.b.ins().select(c, b, a)
            }
            R::Min if signed => self.b.ins().smin(a, b),
            R::Min => self.b.ins().umin(a, b),
            R::Max if signed => self.b.ins().smax(a, b),
            R::Max => self.b.ins().umax(a, b),
            R::LogAnd | R::LogOr => {
                let (za, zb) = (self.zero(cls), self.zero(cls));
                let (na, nb) = if float {
                    (
                        self.b.ins().fcmp(FloatCC::Une, a, za),
                        self.b.ins().fcmp(FloatCC::Une, b, zb),
                    )
                } else {
                    (
                        self.b.ins().icmp(IntCC::Ne, a, za),
                        self.b.ins().icmp(IntCC::Ne, b, zb),
                    )
                };
                let r = if op == R::LogAnd {
                    self.b.ins().and(na, nb)
                } else {
                    self.b.ins().or(na, nb)
                };
                let one = match cls {
                    Scalar::Float(t) => self.b.ins().fconst(t, 1.0),
                    _ => self.b.ins().iconst(cls.ty(), 1),
                };
                let zero = self.zero(cls);
                self.b.ins().select(r, one, zero)
            }
        }
    }

    /// Combines each thread's values `v` into their originals `orig` (every thread of the
    /// block is here), one atomic per block and variable. When the block is a whole number
    /// of warps (a test on `%ntid.x`, the same for the whole block, so ptxas knows every warp
    /// is converged inside it): each warp combines its lanes with a shuffle tree under the
    /// constant full mask, lane 0 leaves the warp's value in a `.shared` array of 32, and
    /// after a barrier every warp combines those values with a second tree (all warps alike,
    /// so no branch divides one) and thread 0 combines the block's value into the original.
    /// Otherwise (a `thread_limit` that is not a multiple of 32) each thread combines its
    /// value into the original atomically.
    fn block_reductions(&mut self, reds: &[(Addr, ReductionOp, Scalar, Value)]) {
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let m31 = self.b.ins().iconst(Type::I32, 31);
        let rest = self.b.ins().and(ntid, m31);
        let zero = self.b.ins().iconst(Type::I32, 0);
        let whole = self.b.ins().icmp(IntCC::Eq, rest, zero);
        let trees_b = self.b.create_block();
        let atomics_b = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(whole, trees_b, &[], atomics_b, &[]);
        self.b.switch_to_block(atomics_b);
        for &(orig, op, cls, v) in reds {
            self.combine_into(orig, op, cls, v);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(trees_b);
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let five = self.b.ins().iconst(Type::I32, 5);
        let warp = self.b.ins().lshr(tid, five);
        let lane = self.b.ins().sreg(SpecialReg::Laneid);
        let mut homes = Vec::with_capacity(reds.len());
        let mut sums = Vec::with_capacity(reds.len());
        for &(_, op, cls, v) in reds {
            let work = narrow_work(cls).unwrap_or(cls);
            let bytes = work.ty().bytes();
            let name = format!("{}__red", self.name);
            let g = self.cx.shared_global(&name, 32 * u64::from(bytes), bytes);
            let gr = self.b.import_global(&g, AddrSpace::Shared);
            homes.push(self.b.ins().global_addr(gr));
            let (w, _) = self.widen(v, cls);
            sums.push(self.full_warp_tree(op, work, w, None));
        }
        let is0 = self.b.ins().icmp(IntCC::Eq, lane, zero);
        let store_b = self.b.create_block();
        let stored = self.b.create_block();
        self.b.ins().brif(is0, store_b, &[], stored, &[]);
        self.b.switch_to_block(store_b);
        for (i, &(_, _, cls, _)) in reds.iter().enumerate() {
            let bytes = narrow_work(cls).unwrap_or(cls).ty().bytes();
            let at = self.shared_elem(homes[i], warp, bytes);
            self.store_raw(at, sums[i], false);
        }
        self.b.ins().jump(stored, &[]);
        self.b.switch_to_block(stored);
        self.b.ins().barrier();
        // lanes past the warps read element 0 and are never combined in: they hold the
        // operation's exact neutral element, or each step of the tree tests its source lane
        let nwarps = self.b.ins().lshr(ntid, five);
        let used = self.b.ins().icmp(IntCC::Ult, lane, nwarps);
        let idx = self.b.ins().select(used, lane, zero);
        let mut block = Vec::with_capacity(reds.len());
        for (i, &(_, op, cls, _)) in reds.iter().enumerate() {
            let work = narrow_work(cls).unwrap_or(cls);
            let at = self.shared_elem(homes[i], idx, work.ty().bytes());
            let w = self.load_raw(at, work.ty(), false);
            let w = match self.exact_neutral(op, work) {
                Some(e) => {
                    let w = self.b.ins().select(used, w, e);
                    self.full_warp_tree(op, work, w, None)
                }
                None => self.full_warp_tree(op, work, w, Some(nwarps)),
            };
            block.push(self.unwiden(w, cls));
        }
        let first = self.b.ins().icmp(IntCC::Eq, tid, zero);
        let then_b = self.b.create_block();
        self.b.ins().brif(first, then_b, &[], join, &[]);
        self.b.switch_to_block(then_b);
        for (i, &(orig, op, cls, _)) in reds.iter().enumerate() {
            self.combine_into(orig, op, cls, block[i]);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// A value `e` of the working type with `x op e == x` bit for bit for every `x`, when
    /// `op` has one: combining it in changes nothing, so a tree over lanes holding it needs
    /// no test per step. A floating-point sum's is `-0.0` (`-0.0 + +0.0` is `+0.0`: the
    /// OpenMP initializer `0.0` would turn a `-0.0` total positive); `x * 1.0` is `x`, NaNs
    /// included. Comparisons (`min`, `max`) have none that keeps C's NaN behaviour.
    fn exact_neutral(&mut self, op: ReductionOp, work: Scalar) -> Option<Value> {
        use ReductionOp as R;
        Some(match (op, work) {
            (R::Add | R::Sub, Scalar::Float(t)) => self.b.ins().fconst(t, -0.0),
            (R::Mul, Scalar::Float(t)) => self.b.ins().fconst(t, 1.0),
            (R::Add | R::Sub | R::BitOr | R::BitXor, Scalar::Int(t, _)) => {
                self.b.ins().iconst(t, 0)
            }
            (R::Mul, Scalar::Int(t, _)) => self.b.ins().iconst(t, 1),
            (R::BitAnd, Scalar::Int(t, _)) => self.b.ins().iconst(t, -1),
            _ => return None,
        })
    }

    /// Element `i` (an `i32`) of `bytes`-byte elements of the `.shared` array at `slots`.
    fn shared_elem(&mut self, slots: Value, i: Value, bytes: u32) -> Addr {
        let i = self.b.ins().zext(Type::I64, i);
        let k = self.b.ins().iconst(Type::I64, i64::from(bytes));
        let off = self.b.ins().imul(i, k);
        Addr {
            ptr: self.b.ins().ptr_offset(slots, off),
            space: AddrSpace::Shared,
            align: bytes,
        }
    }

    /// Combines the working values `v` of a full warp's lanes into lane 0 with a
    /// shuffle-down tree under the constant full member mask (every lane exists and comes
    /// here). With `n`, only lanes below `n` are combined in; without, all 32 (a lane whose
    /// source is past lane 31 combines garbage, but lane 0 never reads such a lane's value).
    fn full_warp_tree(
        &mut self,
        op: ReductionOp,
        work: Scalar,
        mut v: Value,
        n: Option<Value>,
    ) -> Value {
        let mask = self.b.ins().iconst(Type::I32, -1);
        let lane = n.map(|_| self.b.ins().sreg(SpecialReg::Laneid));
        for off in [16, 8, 4, 2, 1] {
            let o = self.b.ins().iconst(Type::I32, off);
            let other = self.b.ins().shuffle(ShuffleMode::Down, v, o, mask);
            let c = self.combine_work(op, work, v, other);
            v = match (n, lane) {
                (Some(n), Some(lane)) => {
                    let src = self.b.ins().iadd(lane, o);
                    let valid = self.b.ins().icmp(IntCC::Ult, src, n);
                    self.b.ins().select(valid, c, v)
                }
                _ => c,
            };
        }
        v
    }

    /// `*orig = *orig op v`, atomically unless `orig` is thread-private.
    pub(crate) fn combine_into(&mut self, orig: Addr, op: ReductionOp, cls: Scalar, v: Value) {
        use ReductionOp as R;
        let ty = cls.ty();
        if orig.space == AddrSpace::Local {
            let o = self.load_raw(orig, ty, false);
            let n = self.combine(op, cls, o, v);
            self.store_raw(orig, n, false);
            return;
        }
        if ty.bytes() < 4 {
            // PTX has no narrower `atom`: a compare-and-swap loop on the containing word
            let bits = if ty.bytes() == 1 { Type::I8 } else { Type::I16 };
            let obj = Obj {
                addr: Addr {
                    align: orig.align.min(ty.bytes()).max(1),
                    ..orig
                },
                bits,
            };
            self.cas_loop(obj, |fl, old| (fl.combine(op, cls, old, v), None));
            return;
        }
        let float = matches!(cls, Scalar::Float(_));
        let signed = cls.is_signed();
        let rmw = match op {
            R::Add | R::Sub => Some(AtomicRmwOp::Add),
            R::Min if !float => Some(if signed {
                AtomicRmwOp::Smin
            } else {
                AtomicRmwOp::Umin
            }),
            R::Max if !float => Some(if signed {
                AtomicRmwOp::Smax
            } else {
                AtomicRmwOp::Umax
            }),
            R::BitAnd => Some(AtomicRmwOp::And),
            R::BitOr => Some(AtomicRmwOp::Or),
            R::BitXor => Some(AtomicRmwOp::Xor),
            _ => None,
        };
        if let Some(r) = rmw {
            self.b
                .ins()
                .atomic_rmw(r, orig.space, Scope::Gpu, orig.ptr, v);
            return;
        }
        // CAS loop on the bits.
        let bits = if ty.bytes() == 4 {
            Type::I32
        } else {
            Type::I64
        };
        let flags = ompcc_ir::MemFlags {
            align: orig.align.min(ty.bytes()).max(1),
            volatile: true,
            readonly: false,
        };
        let first = self.b.ins().load(bits, orig.space, flags, orig.ptr);
        let head = self.b.create_block();
        let old = self.b.append_block_param(head, bits);
        let done = self.b.create_block();
        self.b.ins().jump(head, &[first]);
        self.b.switch_to_block(head);
        let oldv = if float {
            self.b.ins().bitcast(ty, old)
        } else {
            old
        };
        let newv = self.combine(op, cls, oldv, v);
        let newb = if float {
            self.b.ins().bitcast(bits, newv)
        } else {
            newv
        };
        let prev = self
            .b
            .ins()
            .atomic_cas(orig.space, Scope::Gpu, orig.ptr, old, newb);
        let same = self.b.ins().icmp(IntCC::Eq, prev, old);
        self.b.ins().brif(same, done, &[], head, &[prev]);
        self.b.switch_to_block(done);
    }
}

/// The 32-bit class narrow reduction values are combined in (`_Bool`, 8- and 16-bit
/// integers); `None` for classes combined as they are.
fn narrow_work(cls: Scalar) -> Option<Scalar> {
    match cls {
        Scalar::Bool => Some(Scalar::Int(Type::I32, false)),
        Scalar::Int(t, signed) if t.bits() < 32 => Some(Scalar::Int(Type::I32, signed)),
        _ => None,
    }
}

/// The operator as written in a `reduction` clause.
fn op_name(op: ReductionOp) -> &'static str {
    use ReductionOp as R;
    match op {
        R::Add => "+",
        R::Sub => "-",
        R::Mul => "*",
        R::BitAnd => "&",
        R::BitOr => "|",
        R::BitXor => "^",
        R::LogAnd => "&&",
        R::LogOr => "||",
        R::Min => "min",
        R::Max => "max",
    }
}
