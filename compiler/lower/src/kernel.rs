//! Outlining of `target` regions into kernels, and the OpenMP constructs inside them
//! (DESIGN section 5).
//!
//! A kernel's parameters are exactly the region's `params` (Ref and DevicePtr: a generic
//! pointer; Value: the variable's own scalar type). Ref params stand for the variable itself
//! (its storage is device memory); DevicePtr and Value params are copied into private stack
//! slots. Every other variable the region uses that is declared outside it (private copies,
//! loop variables declared before the loop) gets a fresh private slot.
//!
//! Execution (the launch contract of `ompcc_omp::ExecMode`):
//! - Spmd with a loop nest: the collapsed nest is flattened into one 64-bit trip count and
//!   thread `k` of the grid runs iterations `k, k+G, k+2G...` (`G` = all threads of the
//!   grid), each iteration variable recovered by div/mod. Static `schedule`/`dist_schedule`
//!   chunks are treated as this cyclic assignment: for conforming programs the results are
//!   the same. Reductions: a private copy per thread, a warp shuffle-down tree, then lane 0
//!   of each warp combines into the original with one atomic (a CAS loop where no atomic
//!   instruction fits).
//! - Spmd without a loop (`target parallel`): the threads of team 0 run the body (other teams
//!   return at once); a nested `for` splits iterations over `tid.x` / `ntid.x` and ends with a
//!   barrier unless `nowait`.
//! - Generic: one thread per team (others return) runs the body; a nested `distribute`
//!   splits iterations over the teams, nested `parallel`, `for`, ... run on that thread.
//! - Serial: one thread of one team runs the body (`target simd` runs its loop there).
//!
//! Invariants: `locals` entries a construct privatizes are restored when it ends; every
//! private copy of a reduction is combined exactly once; code after a kernel-level early
//! return is only reached by the threads that run the region.

use crate::func::{Addr, FnLower, Local};
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{
    AddrSpace, AtomicRmwOp, FloatCC, FuncKind, Function, FunctionBuilder, IntCC, Scope,
    ShuffleMode, Signature, SpecialReg, Type, Value,
};
use ompcc_omp::{ExecMode, Pass, TargetRegion};
use ompcc_sema::types::QualType;
use ompcc_sema::{Storage, SymbolId, SymbolKind};
use ompcc_syntax::ast::{
    self, BinaryOp, Expr, ExprKind, OmpClauseKind, OmpClauseName as C, OmpDirective,
    OmpDirectiveKind as K, ReductionOp, Stmt, StmtKind, UnaryOp,
};
use rustc_hash::FxHashSet;

/// Who runs the code being lowered, which decides what an OpenMP construct does there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// A device function: only `atomic`, `flush` and sequential `simd` are lowered.
    Device,
    /// Every thread of one team (the body of `target parallel`): worksharing splits over
    /// `tid.x` / `ntid.x`.
    Team,
    /// The one thread of a team in a `teams` region (generic mode): `distribute` splits over
    /// the teams.
    TeamsLevel,
    /// One thread as a team of one (other threads may run the same code at the same time).
    Alone,
}

/// The execution context of the code being lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Par {
    /// What constructs do.
    pub split: Split,
    /// `omp_get_thread_num` / `omp_get_num_threads` report `tid.x` / `ntid.x` (else 0 / 1).
    pub threads: bool,
}

impl Par {
    /// Device functions.
    pub const DEVICE: Par = Par {
        split: Split::Device,
        threads: true,
    };
}

/// Who shares the iterations of a distributed loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    /// Every thread of the grid.
    Grid,
    /// The threads of the current team.
    Team,
    /// The teams of the league (one thread each).
    Teams,
    /// This thread alone (a loop run in order).
    Single,
}

/// One privatized list item of a construct.
struct Private<'a> {
    sym: SymbolId,
    old: Option<Local>,
    /// Array reductions: the private buffer and where its elements combine.
    array: Option<ArrayRed>,
    /// The original's address and type (absent for plain `private`).
    orig: Option<(Addr, QualType)>,
    kind: PrivKind,
    item: &'a Expr,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum PrivKind {
    Private,
    First,
    Last,
    Reduce(ReductionOp),
}

/// A reduction over an array (whole, or a contiguous section): `count` elements of class
/// `cls` from element `first` of the original, privatized in `buf` (local memory).
#[derive(Clone, Copy)]
struct ArrayRed {
    cls: Scalar,
    esize: u32,
    first: i64,
    count: i64,
    buf: Addr,
    orig: Addr,
}

/// One canonical loop of a nest: iteration variable and bounds as `i64`.
struct CanonLoop {
    var: SymbolId,
    cls: Scalar,
    lb: Value,
    step: Value,
    trip: Value,
}

/// Lowers one target region to a kernel named `region.kernel`.
pub fn lower_kernel<'a>(cx: &mut crate::ctx::Ctx<'a>, region: &TargetRegion<'a>) -> Function {
    let name = region.kernel.clone();
    let span = region.directive.span;
    let mut sig = Signature::default();
    let mut ok = true;
    for p in &region.params {
        let ty = match p.pass {
            Pass::Ref | Pass::DevicePtr => Type::PTR,
            Pass::Value => match cx.value_type(cx.typed.symbols[p.sym].ty) {
                Ok(t) => t,
                Err(m) => {
                    cx.error(
                        "E0910",
                        format!("'{}' cannot be passed to the device: {m}", p.name),
                        span,
                    );
                    ok = false;
                    Type::I64
                }
            },
        };
        sig.params.push(ty);
    }
    let errors_before = cx.diags.iter().filter(|d| d.is_error()).count();
    let mut func = Function::new(name.clone(), FuncKind::Kernel, sig.clone());
    if ok {
        let mut fl = FnLower {
            cx,
            b: FunctionBuilder::new(&mut func),
            name: name.clone(),
            locals: Default::default(),
            vla: Default::default(),
            labels: Default::default(),
            typedefs: Default::default(),
            failed_locals: Default::default(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            sret: None,
            ret: None,
            errors: 0,
            par: Par::DEVICE,
        };
        fl.kernel_body(region);
        fl.terminate_all();
    }
    let cx = &mut *cx;
    if let Err(e) = ompcc_ir::verify_function(&func) {
        cx.error(
            "E0899",
            format!(
                "internal error: outlining '{name}' produced invalid IR ({})",
                e.first().map_or(String::new(), |e| e.message.clone())
            ),
            span,
        );
    }
    let errors_after = cx.diags.iter().filter(|d| d.is_error()).count();
    if errors_after > errors_before || !ok {
        let mut f = Function::new(name, FuncKind::Kernel, sig);
        let mut b = FunctionBuilder::new(&mut f);
        let e = b.create_entry_block();
        b.switch_to_block(e);
        b.ins().trap();
        return f;
    }
    func
}

/// The name words of a directive contain `parallel`.
fn has_parallel(k: K) -> bool {
    k.words().contains(&"parallel")
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    fn kernel_body(&mut self, region: &TargetRegion<'a>) {
        let entry = self.b.create_entry_block();
        self.b.switch_to_block(entry);
        let params: Vec<Value> = self.b.block_params(entry).to_vec();
        let span = region.directive.span;
        let mut param_syms = FxHashSet::default();
        for (p, &v) in region.params.iter().zip(&params) {
            param_syms.insert(p.sym);
            let qt = self.cx.typed.symbols[p.sym].ty;
            let align = self.align_of(qt);
            match p.pass {
                Pass::Ref => {
                    self.locals.insert(p.sym, Local::Ptr(v, align));
                }
                Pass::DevicePtr | Pass::Value => {
                    let Some(slot) = self.new_slot(qt, span) else {
                        continue;
                    };
                    let a = self.slot_addr(slot, align);
                    self.store_raw(a, v, false);
                    self.locals.insert(p.sym, Local::Slot(slot, align));
                }
            }
        }
        // Variables of the host frame the region uses without a param: private copies.
        let body = region.directive.body.as_deref();
        if let Some(body) = body {
            let mut declared = FxHashSet::default();
            let mut used = Vec::new();
            crate::walk::stmt_decls_and_idents(body, &mut |d, e| {
                if let Some(d) = d
                    && let Some(s) = self.cx.typed.decl_symbol(d)
                {
                    declared.insert(s);
                }
                if let Some(e) = e
                    && let Some(&s) = self.cx.typed.ident_symbols.get(&e)
                {
                    used.push(s);
                }
            });
            for s in used {
                let info = &self.cx.typed.symbols[s];
                if info.kind != SymbolKind::Object
                    || declared.contains(&s)
                    || param_syms.contains(&s)
                    || self.locals.contains_key(&s)
                    || (info.storage == Storage::Static
                        && self.cx.typed.declare_target.contains(&s))
                    || info.storage == Storage::Thread
                {
                    continue;
                }
                let qt = info.ty;
                if let Some(slot) = self.new_slot(qt, span) {
                    let align = self.align_of(qt);
                    self.locals.insert(s, Local::Slot(slot, align));
                }
            }
            // VLA sizes of pointer-to-VLA params (their size variables are params too).
            for p in &region.params {
                let qt = self.cx.typed.symbols[p.sym].ty;
                self.vla_sizes_of(qt, span);
            }
        }
        let shape = Shape::of(region);
        match (region.mode, region.loop_nest) {
            (_, Some(ln)) => {
                if region.mode == ExecMode::Serial {
                    self.guard_first_thread(true, true);
                }
                self.par = Par {
                    split: Split::Alone,
                    threads: shape.chain.iter().any(|d| has_parallel(d.kind)),
                };
                let privs = self.privatize_chain(&shape.chain, true);
                // `target simd` (serial): the one thread runs every iteration in order.
                let (who, tree) = if region.mode == ExecMode::Serial {
                    (Who::Single, false)
                } else {
                    (Who::Grid, true)
                };
                self.distributed_loop(ln.directive, ln.outer, ln.collapse, who, privs, tree);
            }
            (ExecMode::Spmd, None) => {
                // `target parallel`: the threads of team 0.
                self.guard_first_thread(true, false);
                self.team_shared(region, &shape);
                self.par = Par {
                    split: Split::Team,
                    threads: true,
                };
                let privs = self.privatize_chain(&shape.chain, false);
                if let Some(b) = shape.body {
                    self.stmt(b);
                }
                self.ensure_open();
                self.end_privates(privs, true, None);
            }
            (ExecMode::Generic, None) => {
                self.guard_first_thread(false, true);
                self.par = Par {
                    split: Split::TeamsLevel,
                    threads: false,
                };
                let privs = self.privatize_chain(&shape.chain, false);
                if let Some(b) = shape.body {
                    self.stmt(b);
                }
                self.ensure_open();
                self.end_privates(privs, false, None);
            }
            (ExecMode::Serial, None) => {
                self.guard_first_thread(true, true);
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                };
                let privs = self.privatize_chain(&shape.chain, false);
                if let Some(b) = shape.body {
                    self.stmt(b);
                }
                self.ensure_open();
                self.end_privates(privs, false, None);
            }
        }
        self.ensure_open();
        self.b.ins().ret(&[]);
    }

    /// In a `target parallel` kernel, the variables the target makes private (firstprivate
    /// values, device pointers, `private` items) are shared by the team's threads: each gets
    /// one copy in shared memory, initialized by thread 0 before a barrier.
    fn team_shared(&mut self, region: &TargetRegion<'a>, shape: &Shape<'a>) {
        let mut syms: Vec<SymbolId> = Vec::new();
        for p in &region.params {
            if p.pass != Pass::Ref {
                syms.push(p.sym);
            }
        }
        for c in &region.directive.clauses {
            if let (OmpClauseKind::List(l), C::Private) = (&c.kind, c.name) {
                for e in l {
                    if let Some(&s) = self.cx.typed.ident_symbols.get(&e.id)
                        && !syms.contains(&s)
                    {
                        syms.push(s);
                    }
                }
            }
        }
        let _ = shape;
        let mut moved = Vec::new();
        for s in syms {
            let Some(Local::Slot(slot, align)) = self.locals.get(&s).copied() else {
                continue;
            };
            let info = &self.cx.typed.symbols[s];
            let qt = info.ty;
            let Some(size) = self.cx.typed.types.size_of(qt) else {
                continue;
            };
            let name = format!("{}__{}", self.name, info.name);
            let g = self.cx.shared_global(&name, size, align);
            let gr = self.b.import_global(&g, AddrSpace::Shared);
            let sp = self.b.ins().global_addr(gr);
            let gp = self.b.ins().addrspacecast(Type::PTR, sp);
            moved.push((s, slot, align, gp, qt));
        }
        if moved.is_empty() {
            return;
        }
        let t = self.b.ins().sreg(SpecialReg::TidX);
        let zero = self.b.ins().iconst(Type::I32, 0);
        let first = self.b.ins().icmp(IntCC::Eq, t, zero);
        let init = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(first, init, &[], join, &[]);
        self.b.switch_to_block(init);
        for (_, slot, align, gp, qt) in &moved {
            let src = self.slot_addr(*slot, *align);
            let dst = Addr {
                ptr: *gp,
                space: AddrSpace::Generic,
                align: *align,
            };
            self.copy(dst, src, *qt, Span::default());
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.ins().barrier();
        for (s, _, align, gp, _) in moved {
            self.locals.insert(s, Local::Ptr(gp, align));
        }
    }

    /// Returns at once on every thread but the first of team 0 (`team`) and/or the first of
    /// its team (`thread`).
    fn guard_first_thread(&mut self, team: bool, thread: bool) {
        let zero = self.b.ins().iconst(Type::I32, 0);
        let mut cond = None;
        if team {
            let c = self.b.ins().sreg(SpecialReg::CtaidX);
            cond = Some(self.b.ins().icmp(IntCC::Ne, c, zero));
        }
        if thread {
            let t = self.b.ins().sreg(SpecialReg::TidX);
            let c = self.b.ins().icmp(IntCC::Ne, t, zero);
            cond = Some(match cond {
                Some(o) => self.b.ins().or(o, c),
                None => c,
            });
        }
        let Some(cond) = cond else { return };
        let out = self.b.create_block();
        let go = self.b.create_block();
        self.b.ins().brif(cond, out, &[], go, &[]);
        self.b.switch_to_block(out);
        self.b.ins().ret(&[]);
        self.b.switch_to_block(go);
    }

    /// The privatizing clauses of the directives a kernel starts with (the target's own
    /// firstprivate/private are already handled by its params).
    fn privatize_chain(&mut self, chain: &[&'a OmpDirective], with_last: bool) -> Vec<Private<'a>> {
        let mut out = Vec::new();
        for d in chain {
            let target_leaf = ompcc_omp::is_target_region(d.kind);
            self.privatize(d, with_last, target_leaf, &mut out);
        }
        out
    }

    /// Installs private copies for the list items of `d`'s privatizing clauses.
    fn privatize(
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
                (OmpClauseKind::Lastprivate { list, .. }, _) if with_last => (PrivKind::Last, list),
                (OmpClauseKind::Lastprivate { list, .. }, _) => (PrivKind::Private, list),
                (OmpClauseKind::Reduction { op, list, .. }, C::Reduction) => {
                    (PrivKind::Reduce(*op), list)
                }
                (OmpClauseKind::Reduction { .. }, _) => {
                    self.unsupported(
                        format!("'{}' is not supported in a target region", c.name.as_str()),
                        c.span,
                    );
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
    }

    fn privatize_item(&mut self, item: &'a Expr, kind: PrivKind, out: &mut Vec<Private<'a>>) {
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
        if out.iter().any(|p| p.sym == sym) {
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
        });
    }

    /// A reduction over a whole array or a contiguous section of it (inner dimensions
    /// complete): a private buffer of the section initialized with the identity; the variable
    /// names the buffer (shifted so its indices stay those of the original) until the end.
    fn privatize_array_reduction(
        &mut self,
        item: &'a Expr,
        op: ReductionOp,
        out: &mut Vec<Private<'a>>,
    ) {
        let span = item.span;
        let mut secs: Vec<(Option<&'a Expr>, Option<&'a Expr>)> = Vec::new();
        let mut cur = crate::expr::strip_parens(item);
        while let ExprKind::ArraySection {
            base,
            lower,
            length,
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
        let mut inner: i64 = 1;
        for x in &extents[1..] {
            match x {
                Some(n) => inner *= n,
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
                Some(n) => (0, n * inner),
                None => return bad(self, "a pointer needs an array section"),
            }
        } else {
            let (Some(lo), Some(len)) = (konst(self, secs[0].0), konst(self, secs[0].1)) else {
                return bad(self, "section bounds must be constants");
            };
            let lo = lo.unwrap_or(0);
            let len = match (len, extents[0]) {
                (Some(l), _) => l,
                (None, Some(n)) => n - lo,
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
            (lo * inner, len * inner)
        };
        let bytes = count * esize as i64;
        if count <= 0 || bytes > 1 << 16 {
            return bad(self, "the private copy must hold 1 to 65536 bytes");
        }
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
        let shift = self.b.ins().iconst(Type::I64, -first * esize as i64);
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
        });
    }

    /// Emits `for (i = 0; i < count; i++) f(i)` with an `i64` index.
    fn elem_loop(&mut self, count: i64, mut f: impl FnMut(&mut Self, Value)) {
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

    /// Ends private copies: reductions combine into their originals (through a warp tree
    /// first when `tree`: every lane of the warp is here), lastprivate copies are written back
    /// (by the thread whose `last` flag slot holds 1, or always when there is no flag), and
    /// the previous bindings return.
    fn end_privates(&mut self, privs: Vec<Private<'a>>, tree: bool, last: Option<Addr>) {
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
                    let mut v = self.load_raw(a, cls.ty(), false);
                    if tree {
                        v = self.warp_tree(op, cls, v);
                        let lane = self.b.ins().sreg(SpecialReg::Laneid);
                        let zero = self.b.ins().iconst(Type::I32, 0);
                        let is0 = self.b.ins().icmp(IntCC::Eq, lane, zero);
                        let then_b = self.b.create_block();
                        let join = self.b.create_block();
                        self.b.ins().brif(is0, then_b, &[], join, &[]);
                        self.b.switch_to_block(then_b);
                        self.combine_into(orig, op, cls, v);
                        self.b.ins().jump(join, &[]);
                        self.b.switch_to_block(join);
                    } else {
                        self.combine_into(orig, op, cls, v);
                    }
                }
                PrivKind::Last => {
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
    fn reduction_class(&mut self, qt: QualType, op: ReductionOp, span: Span) -> Option<Scalar> {
        let cls = self.class(qt, span)?;
        let ok = match cls {
            Scalar::Int(Type::I32 | Type::I64, _) => true,
            Scalar::Float(_) => !matches!(
                op,
                ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor
            ),
            _ => false,
        };
        if !ok {
            self.unsupported(
                format!(
                    "reduction on type '{}' is not supported on the device (int, long, float and double are)",
                    self.cx.typed.types.display(qt)
                ),
                span,
            );
            return None;
        }
        Some(cls)
    }

    fn identity(&mut self, op: ReductionOp, cls: Scalar) -> Value {
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
            _ => {
                let t = cls.ty();
                let signed = cls.is_signed();
                let x: i64 = match op {
                    R::Mul | R::LogAnd => 1,
                    R::BitAnd => -1,
                    R::Min if signed => {
                        if t == Type::I32 {
                            i32::MAX as i64
                        } else {
                            i64::MAX
                        }
                    }
                    R::Min => -1,
                    R::Max if signed => {
                        if t == Type::I32 {
                            i32::MIN as i64
                        } else {
                            i64::MIN
                        }
                    }
                    _ => 0,
                };
                self.b.ins().iconst(t, x)
            }
        }
    }

    /// `a op b` for a reduction operator.
    fn combine(&mut self, op: ReductionOp, cls: Scalar, a: Value, b: Value) -> Value {
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

    /// Combines the values of every lane of the warp into lane 0 (shuffle-down tree). The
    /// member mask names the warp's lanes that exist in the block (all of them reach this
    /// point), not `activemask`: lanes that diverged earlier need not have reconverged, and
    /// `.sync` makes them meet here.
    fn warp_tree(&mut self, op: ReductionOp, cls: Scalar, mut v: Value) -> Value {
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let m31 = self.b.ins().iconst(Type::I32, !31);
        let base = self.b.ins().and(tid, m31);
        let left = self.b.ins().isub(ntid, base);
        let n32 = self.b.ins().iconst(Type::I32, 32);
        let n = self.b.ins().umin(left, n32);
        let one = self.b.ins().iconst(Type::I32, 1);
        let bits = self.b.ins().shl(one, n);
        let partial = self.b.ins().isub(bits, one);
        let all = self.b.ins().iconst(Type::I32, -1);
        let full = self.b.ins().icmp(IntCC::Eq, n, n32);
        let mask = self.b.ins().select(full, all, partial);
        let lane = self.b.ins().sreg(SpecialReg::Laneid);
        for off in [16, 8, 4, 2, 1] {
            let o = self.b.ins().iconst(Type::I32, off);
            let other = self.b.ins().shuffle(ShuffleMode::Down, v, o, mask);
            let src = self.b.ins().iadd(lane, o);
            let n32 = self.b.ins().iconst(Type::I32, 32);
            let inside = self.b.ins().icmp(IntCC::Ult, src, n32);
            let bit = self.b.ins().lshr(mask, src);
            let one = self.b.ins().iconst(Type::I32, 1);
            let bit = self.b.ins().and(bit, one);
            let bit_set = self.b.ins().icmp(IntCC::Eq, bit, one);
            let valid = self.b.ins().and(inside, bit_set);
            let c = self.combine(op, cls, v, other);
            v = self.b.ins().select(valid, c, v);
        }
        v
    }

    /// `*orig = *orig op v`, atomically unless `orig` is thread-private.
    fn combine_into(&mut self, orig: Addr, op: ReductionOp, cls: Scalar, v: Value) {
        use ReductionOp as R;
        let ty = cls.ty();
        if orig.space == AddrSpace::Local {
            let o = self.load_raw(orig, ty, false);
            let n = self.combine(op, cls, o, v);
            self.store_raw(orig, n, false);
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

    // ----- loops -----

    /// Reads a canonical loop's bounds (evaluated here) as `i64` values.
    fn canon_loop(
        &mut self,
        s: &'a Stmt,
        outer_vars: &[SymbolId],
    ) -> Option<(CanonLoop, &'a Stmt)> {
        let StmtKind::For(init, cond, step, body) = &s.kind else {
            self.unsupported("expected a 'for' loop after the loop directive", s.span);
            return None;
        };
        let var = ompcc_omp::loop_var(self.cx.typed, s);
        let Some(var) = var else {
            self.unsupported(
                "loop is not in canonical form (no iteration variable)",
                s.span,
            );
            return None;
        };
        // Bounds of an inner loop must not use an outer loop's variable.
        let mut bad = false;
        let check = |e: &Expr, bad: &mut bool, typed: &ompcc_sema::TypedUnit| {
            crate::walk::idents_of(e, &mut |id| {
                if let Some(s) = typed.ident_symbols.get(&id)
                    && outer_vars.contains(s)
                {
                    *bad = true;
                }
            });
        };
        let qt = self.cx.typed.symbols[var].ty;
        let cls = self.class(qt, s.span)?;
        if !matches!(cls, Scalar::Int(..)) {
            self.unsupported(
                "loop iteration variables of distributed loops must be integers on the device",
                s.span,
            );
            return None;
        }
        let lb_e: &'a Expr = match init {
            ast::ForInit::Decl(d) => match &d.kind {
                ast::DeclarationKind::Vars { declarators, .. } => {
                    match declarators.first().and_then(|i| i.init.as_ref()) {
                        Some(ast::Initializer::Expr(e)) => e,
                        _ => {
                            self.unsupported("loop variable has no initial value", s.span);
                            return None;
                        }
                    }
                }
                _ => return None,
            },
            ast::ForInit::Expr(e) => match &e.kind {
                ExprKind::Assign(None, _, r) => r,
                _ => {
                    self.unsupported("loop is not in canonical form (init)", e.span);
                    return None;
                }
            },
            ast::ForInit::None => {
                self.unsupported("loop is not in canonical form (no init)", s.span);
                return None;
            }
        };
        let Some(cond) = cond.as_deref() else {
            self.unsupported("loop is not in canonical form (no condition)", s.span);
            return None;
        };
        let is_var = |e: &Expr, typed: &ompcc_sema::TypedUnit| {
            let e = crate::expr::strip_parens(e);
            matches!(e.kind, ExprKind::Ident(_)) && typed.ident_symbols.get(&e.id) == Some(&var)
        };
        let c = crate::expr::strip_parens(cond);
        let (op, ub_e) = match &c.kind {
            ExprKind::Binary(op, l, r) if is_var(l, self.cx.typed) => (*op, &**r),
            ExprKind::Binary(op, l, r) if is_var(r, self.cx.typed) => {
                let swapped = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    o => *o,
                };
                (swapped, &**l)
            }
            _ => {
                self.unsupported("loop is not in canonical form (condition)", cond.span);
                return None;
            }
        };
        // step: +1, -1, or an expression with a sign
        let Some(step) = step.as_deref() else {
            self.unsupported("loop is not in canonical form (no increment)", s.span);
            return None;
        };
        let st = crate::expr::strip_parens(step);
        let (step_e, neg): (Option<&'a Expr>, bool) = match &st.kind {
            ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) if is_var(x, self.cx.typed) => {
                (None, false)
            }
            ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, x) if is_var(x, self.cx.typed) => {
                (None, true)
            }
            ExprKind::Assign(Some(BinaryOp::Add), x, r) if is_var(x, self.cx.typed) => {
                (Some(r), false)
            }
            ExprKind::Assign(Some(BinaryOp::Sub), x, r) if is_var(x, self.cx.typed) => {
                (Some(r), true)
            }
            ExprKind::Assign(None, x, r) if is_var(x, self.cx.typed) => {
                match &crate::expr::strip_parens(r).kind {
                    ExprKind::Binary(BinaryOp::Add, a, b) if is_var(a, self.cx.typed) => {
                        (Some(&**b), false)
                    }
                    ExprKind::Binary(BinaryOp::Add, a, b) if is_var(b, self.cx.typed) => {
                        (Some(&**a), false)
                    }
                    ExprKind::Binary(BinaryOp::Sub, a, b) if is_var(a, self.cx.typed) => {
                        (Some(&**b), true)
                    }
                    _ => {
                        self.unsupported("loop is not in canonical form (increment)", step.span);
                        return None;
                    }
                }
            }
            _ => {
                self.unsupported("loop is not in canonical form (increment)", step.span);
                return None;
            }
        };
        if !outer_vars.is_empty() {
            check(lb_e, &mut bad, self.cx.typed);
            check(ub_e, &mut bad, self.cx.typed);
            if let Some(e) = step_e {
                check(e, &mut bad, self.cx.typed);
            }
            if bad {
                self.unsupported(
                    "collapsed loops whose bounds depend on an outer loop variable are not supported on the device yet",
                    s.span,
                );
                return None;
            }
        }
        let long = Scalar::LONG;
        let lb = self.long_value(lb_e, cls)?;
        let ub = self.long_value(ub_e, cls)?;
        let mut stepv = match step_e {
            Some(e) => {
                let ec = self.class_of_conv(e)?;
                let v = self.scalar(e)?;
                self.convert(v, ec, long)
            }
            None => self.b.ins().iconst(Type::I64, 1),
        };
        if neg {
            stepv = self.b.ins().neg(stepv);
        }
        let one = self.b.ins().iconst(Type::I64, 1);
        let zero = self.b.ins().iconst(Type::I64, 0);
        // ascending: trip = ub' > lb ? (ub' - lb + st - 1) / st : 0 with ub' = ub (+1 for <=)
        let (asc, adj) = match op {
            BinaryOp::Lt => (true, 0),
            BinaryOp::Le => (true, 1),
            BinaryOp::Gt => (false, 0),
            BinaryOp::Ge => (false, 1),
            // `i != ub` is canonical with a unit step only (it fixes the direction)
            BinaryOp::Ne if step_e.is_none() => (!neg, 0),
            _ => {
                self.unsupported("loop is not in canonical form (comparison)", cond.span);
                return None;
            }
        };
        let trip = if asc {
            let ubp = if adj == 1 {
                self.b.ins().iadd(ub, one)
            } else {
                ub
            };
            let span_v = self.b.ins().isub(ubp, lb);
            let t = self.b.ins().iadd(span_v, stepv);
            let t = self.b.ins().isub(t, one);
            let t = self.b.ins().sdiv(t, stepv);
            let c = self.b.ins().icmp(IntCC::Sgt, ubp, lb);
            self.b.ins().select(c, t, zero)
        } else {
            let ubp = if adj == 1 {
                self.b.ins().isub(ub, one)
            } else {
                ub
            };
            let m = self.b.ins().neg(stepv);
            let span_v = self.b.ins().isub(lb, ubp);
            let t = self.b.ins().iadd(span_v, m);
            let t = self.b.ins().isub(t, one);
            let t = self.b.ins().sdiv(t, m);
            let c = self.b.ins().icmp(IntCC::Sgt, lb, ubp);
            self.b.ins().select(c, t, zero)
        };
        let _ = ub;
        Some((
            CanonLoop {
                var,
                cls,
                lb,
                step: stepv,
                trip,
            },
            body,
        ))
    }

    /// `e` converted to the loop variable's class, then widened to `i64`.
    fn long_value(&mut self, e: &'a Expr, cls: Scalar) -> Option<Value> {
        let ec = self.class_of_conv(e)?;
        let v = self.scalar(e)?;
        let v = self.convert(v, ec, cls);
        Some(self.convert(v, cls, Scalar::LONG))
    }

    /// Runs the iterations of a loop nest distributed over `who` (cyclically), with the
    /// directive's private copies; ends the copies (and synchronizes the team) afterwards.
    fn distributed_loop(
        &mut self,
        d: &'a OmpDirective,
        outer: &'a Stmt,
        collapse: u32,
        who: Who,
        privs: Vec<Private<'a>>,
        tree: bool,
    ) {
        let span = d.span;
        let loops = ompcc_omp::nest_loops(outer, collapse);
        if loops.len() < collapse as usize {
            self.unsupported(
                format!("collapse({collapse}) needs {collapse} perfectly nested 'for' loops"),
                span,
            );
            return;
        }
        let mut canon = Vec::new();
        let mut vars = Vec::new();
        let mut saved = Vec::new();
        let mut body = outer;
        for l in &loops {
            let Some((cl, b)) = self.canon_loop(l, &vars) else {
                return;
            };
            vars.push(cl.var);
            // the iteration variable is private
            let qt = self.cx.typed.symbols[cl.var].ty;
            if let Some(slot) = self.new_slot(qt, l.span) {
                let align = self.align_of(qt);
                saved.push((cl.var, self.locals.insert(cl.var, Local::Slot(slot, align))));
            }
            canon.push(cl);
            body = b;
        }
        // Loop variables listed in lastprivate end with their value after the last iteration.
        let last_flag = if privs.iter().any(|p| p.kind == PrivKind::Last) {
            let slot = self.b.create_stack_slot(1, 1);
            let a = self.slot_addr(slot, 1);
            let z = self.b.ins().iconst(Type::I8, 0);
            self.store_raw(a, z, false);
            Some(a)
        } else {
            None
        };
        let mut total = canon[0].trip;
        for c in &canon[1..] {
            total = self.b.ins().imul(total, c.trip);
        }
        let (k0, g) = self.who_range(who);
        let head = self.b.create_block();
        let k = self.b.append_block_param(head, Type::I64);
        let body_b = self.b.create_block();
        let step_b = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(head, &[k0]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, k, total);
        self.b.ins().brif(more, body_b, &[], exit, &[]);
        self.b.switch_to_block(body_b);
        let mut rem = k;
        for (i, c) in canon.iter().enumerate().rev() {
            let idx = if i == 0 {
                rem
            } else {
                let idx = self.b.ins().srem(rem, c.trip);
                rem = self.b.ins().sdiv(rem, c.trip);
                idx
            };
            let off = self.b.ins().imul(idx, c.step);
            let iv = self.b.ins().iadd(c.lb, off);
            let iv = self.convert(iv, Scalar::LONG, c.cls);
            if let Some(Local::Slot(slot, align)) = self.locals.get(&c.var).copied() {
                let a = self.slot_addr(slot, align);
                self.store_raw(a, iv, false);
            }
        }
        if let Some(flag) = last_flag {
            let one = self.b.ins().iconst(Type::I64, 1);
            let lastk = self.b.ins().isub(total, one);
            let is_last = self.b.ins().icmp(IntCC::Eq, k, lastk);
            let f = self.b.ins().zext(Type::I8, is_last);
            let old = self.load_raw(flag, Type::I8, false);
            let f = self.b.ins().or(old, f);
            self.store_raw(flag, f, false);
        }
        self.breaks.push(exit);
        self.continues.push(step_b);
        self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        self.jump_to(step_b);
        self.b.switch_to_block(step_b);
        let next = self.b.ins().iadd(k, g);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(exit);
        // lastprivate loop variables: the value after the sequentially last increment
        if let Some(flag) = last_flag {
            for c in &canon {
                if !privs
                    .iter()
                    .any(|p| p.sym == c.var && p.kind == PrivKind::Last)
                {
                    continue;
                }
                let f = self.load_raw(flag, Type::I8, false);
                let zero = self.b.ins().iconst(Type::I8, 0);
                let is = self.b.ins().icmp(IntCC::Ne, f, zero);
                let then_b = self.b.create_block();
                let join = self.b.create_block();
                self.b.ins().brif(is, then_b, &[], join, &[]);
                self.b.switch_to_block(then_b);
                let off = self.b.ins().imul(c.trip, c.step);
                let v = self.b.ins().iadd(c.lb, off);
                let v = self.convert(v, Scalar::LONG, c.cls);
                // `saved` holds the binding before the loop's own slot: the lastprivate copy.
                if let Some((_, Some(Local::Slot(slot, align)))) =
                    saved.iter().find(|(s, _)| *s == c.var).copied()
                {
                    let a = self.slot_addr(slot, align);
                    self.store_raw(a, v, false);
                }
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(join);
            }
        }
        for (s, old) in saved.into_iter().rev() {
            match old {
                Some(l) => {
                    self.locals.insert(s, l);
                }
                None => {
                    self.locals.remove(&s);
                }
            }
        }
        self.end_privates(privs, tree, last_flag);
    }

    /// First index and stride of a distributed loop, as `i64`.
    fn who_range(&mut self, who: Who) -> (Value, Value) {
        let r = |fl: &mut Self, r: SpecialReg| {
            let v = fl.b.ins().sreg(r);
            fl.b.ins().zext(Type::I64, v)
        };
        match who {
            Who::Grid => {
                let (c, n, t, nc) = (
                    r(self, SpecialReg::CtaidX),
                    r(self, SpecialReg::NtidX),
                    r(self, SpecialReg::TidX),
                    r(self, SpecialReg::NctaidX),
                );
                let base = self.b.ins().imul(c, n);
                let k0 = self.b.ins().iadd(base, t);
                let g = self.b.ins().imul(nc, n);
                (k0, g)
            }
            Who::Team => (r(self, SpecialReg::TidX), r(self, SpecialReg::NtidX)),
            Who::Teams => (r(self, SpecialReg::CtaidX), r(self, SpecialReg::NctaidX)),
            Who::Single => (
                self.b.ins().iconst(Type::I64, 0),
                self.b.ins().iconst(Type::I64, 1),
            ),
        }
    }

    /// Runs a loop-associated construct's loop in order on this thread, with its private
    /// copies.
    fn sequential_loop(&mut self, d: &'a OmpDirective) {
        let mut privs = Vec::new();
        self.privatize(d, true, false, &mut privs);
        let Some(body) = d.body.as_deref() else {
            return;
        };
        let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
        // The same iteration variables, lastprivate values and reductions as a distributed
        // loop, over this one thread.
        self.distributed_loop(d, body, collapse, Who::Single, privs, false);
    }

    // ----- constructs -----

    /// Lowers an OpenMP construct inside a kernel; false when it is not supported.
    pub(crate) fn omp_construct(&mut self, d: &'a OmpDirective) {
        let par = self.par;
        let body = d.body.as_deref();
        match d.kind {
            K::Parallel | K::ParallelMaster | K::ParallelMasked | K::ParallelSections => {
                let mut privs = Vec::new();
                self.privatize(d, true, false, &mut privs);
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                };
                if let Some(b) = body {
                    self.stmt(b);
                }
                self.par = par;
                self.ensure_open();
                self.end_privates(privs, false, None);
            }
            K::ParallelFor | K::ParallelForSimd | K::ParallelLoop => {
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                };
                self.sequential_loop(d);
                self.par = par;
            }
            K::For | K::ForSimd | K::Loop | K::Simd => {
                if par.split == Split::Team && d.kind != K::Simd {
                    let mut privs = Vec::new();
                    self.privatize(d, true, false, &mut privs);
                    let Some(b) = body else { return };
                    let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                    self.distributed_loop(d, b, collapse, Who::Team, privs, false);
                    if !d.clauses.iter().any(|c| c.name == C::Nowait) {
                        self.b.ins().barrier();
                    }
                } else {
                    self.sequential_loop(d);
                }
            }
            K::Distribute
            | K::DistributeSimd
            | K::DistributeParallelFor
            | K::DistributeParallelForSimd => {
                if par.split == Split::TeamsLevel {
                    let mut privs = Vec::new();
                    self.privatize(d, true, false, &mut privs);
                    let Some(b) = body else { return };
                    let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                    self.par = Par {
                        split: Split::Alone,
                        threads: false,
                    };
                    self.distributed_loop(d, b, collapse, Who::Teams, privs, false);
                    self.par = par;
                } else {
                    self.sequential_loop(d);
                }
            }
            K::Single | K::Sections => {
                let mut privs = Vec::new();
                self.privatize(d, false, false, &mut privs);
                if par.split == Split::Team {
                    let t = self.b.ins().sreg(SpecialReg::TidX);
                    let zero = self.b.ins().iconst(Type::I32, 0);
                    let c = self.b.ins().icmp(IntCC::Eq, t, zero);
                    let then_b = self.b.create_block();
                    let join = self.b.create_block();
                    self.b.ins().brif(c, then_b, &[], join, &[]);
                    self.b.switch_to_block(then_b);
                    self.par = Par {
                        split: Split::Alone,
                        threads: true,
                    };
                    if let Some(b) = body {
                        self.stmt(b);
                    }
                    self.par = par;
                    self.jump_to(join);
                    self.b.switch_to_block(join);
                    self.end_privates(privs, false, None);
                    if !d.clauses.iter().any(|c| c.name == C::Nowait) {
                        self.b.ins().barrier();
                    }
                } else {
                    if let Some(b) = body {
                        self.stmt(b);
                    }
                    self.ensure_open();
                    self.end_privates(privs, false, None);
                }
            }
            K::Section => {
                if let Some(b) = body {
                    self.stmt(b);
                }
            }
            K::Master | K::Masked => {
                let filter = d.clauses.iter().find_map(|c| match (&c.kind, c.name) {
                    (OmpClauseKind::Expr(e), C::Filter) => Some(&**e),
                    _ => None,
                });
                let me = self.thread_num();
                let want = match filter {
                    Some(e) => {
                        let Some(ec) = self.class_of_conv(e) else {
                            return;
                        };
                        let Some(v) = self.scalar(e) else { return };
                        self.convert(v, ec, Scalar::INT)
                    }
                    None => self.b.ins().iconst(Type::I32, 0),
                };
                let c = self.b.ins().icmp(IntCC::Eq, me, want);
                let then_b = self.b.create_block();
                let join = self.b.create_block();
                self.b.ins().brif(c, then_b, &[], join, &[]);
                self.b.switch_to_block(then_b);
                if let Some(b) = body {
                    self.stmt(b);
                }
                self.jump_to(join);
                self.b.switch_to_block(join);
            }
            K::Barrier => {
                if par.split == Split::Team {
                    self.b.ins().barrier();
                }
            }
            K::Taskwait | K::Taskyield => {}
            K::Taskgroup => {
                if let Some(b) = body {
                    self.stmt(b);
                }
            }
            K::Critical => self.critical(d),
            _ => self.unsupported(
                format!(
                    "'#pragma omp {}' is not supported in a target region yet",
                    d.kind
                ),
                d.span,
            ),
        }
    }

    /// `critical`: a module-wide lock per name; the lanes of a warp take it one after the
    /// other, so a warp never spins against itself.
    fn critical(&mut self, d: &'a OmpDirective) {
        let name = d
            .args
            .first()
            .map(|e| match &e.kind {
                ExprKind::Ident(s) => self.cx.tu.symbols.resolve(*s).to_string(),
                _ => String::new(),
            })
            .unwrap_or_default();
        let g = self.cx.critical_lock(&name);
        let gr = self.b.import_global(&g, AddrSpace::Global);
        let lock = self.b.ins().global_addr(gr);
        let lane = self.b.ins().sreg(SpecialReg::Laneid);
        let head = self.b.create_block();
        let j = self.b.append_block_param(head, Type::I32);
        let pick = self.b.create_block();
        let spin = self.b.create_block();
        let work = self.b.create_block();
        let next = self.b.create_block();
        let exit = self.b.create_block();
        let zero = self.b.ins().iconst(Type::I32, 0);
        self.b.ins().jump(head, &[zero]);
        self.b.switch_to_block(head);
        let n32 = self.b.ins().iconst(Type::I32, 32);
        let more = self.b.ins().icmp(IntCC::Slt, j, n32);
        self.b.ins().brif(more, pick, &[], exit, &[]);
        self.b.switch_to_block(pick);
        let me = self.b.ins().icmp(IntCC::Eq, lane, j);
        self.b.ins().brif(me, spin, &[], next, &[]);
        self.b.switch_to_block(spin);
        let z = self.b.ins().iconst(Type::I32, 0);
        let one = self.b.ins().iconst(Type::I32, 1);
        let prev = self
            .b
            .ins()
            .atomic_cas(AddrSpace::Global, Scope::Gpu, lock, z, one);
        let got = self.b.ins().icmp(IntCC::Eq, prev, z);
        self.b.ins().brif(got, work, &[], spin, &[]);
        self.b.switch_to_block(work);
        self.b.ins().fence(Scope::Gpu);
        if let Some(b) = d.body.as_deref() {
            self.stmt(b);
        }
        self.ensure_open();
        self.b.ins().fence(Scope::Gpu);
        let z = self.b.ins().iconst(Type::I32, 0);
        self.b
            .ins()
            .atomic_rmw(AtomicRmwOp::Xchg, AddrSpace::Global, Scope::Gpu, lock, z);
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
        let one = self.b.ins().iconst(Type::I32, 1);
        let j1 = self.b.ins().iadd(j, one);
        self.b.ins().jump(head, &[j1]);
        self.b.switch_to_block(exit);
    }

    /// `omp_get_thread_num()` in the current context (`i32`).
    fn thread_num(&mut self) -> Value {
        if self.par.threads {
            self.b.ins().sreg(SpecialReg::TidX)
        } else {
            self.b.ins().iconst(Type::I32, 0)
        }
    }

    /// The OpenMP device API as special registers and constants; `None` when `name` is not
    /// one of the functions handled here.
    pub(crate) fn omp_api(&mut self, name: &str, args: &'a [Expr], ret: QualType) -> Option<Value> {
        let threads = self.par.threads;
        let int = |fl: &mut Self, x: i64| fl.b.ins().iconst(Type::I32, x);
        let v = match name {
            "omp_get_thread_num" => self.thread_num(),
            "omp_get_num_threads"
            | "omp_get_max_threads"
            | "omp_get_team_size"
            | "omp_get_thread_limit" => {
                if threads || name == "omp_get_thread_limit" {
                    self.b.ins().sreg(SpecialReg::NtidX)
                } else {
                    int(self, 1)
                }
            }
            "omp_get_team_num" => self.b.ins().sreg(SpecialReg::CtaidX),
            "omp_get_num_teams" => self.b.ins().sreg(SpecialReg::NctaidX),
            "omp_in_parallel" | "omp_get_level" | "omp_get_active_level" => {
                if threads {
                    let n = self.b.ins().sreg(SpecialReg::NtidX);
                    let one = int(self, 1);
                    let c = self.b.ins().icmp(IntCC::Ugt, n, one);
                    self.b.ins().zext(Type::I32, c)
                } else {
                    int(self, 0)
                }
            }
            "omp_get_ancestor_thread_num" => {
                let _ = args;
                self.thread_num()
            }
            "omp_is_initial_device"
            | "omp_get_device_num"
            | "omp_get_dynamic"
            | "omp_get_nested"
            | "omp_in_final" => int(self, 0),
            "omp_get_num_devices" | "omp_get_initial_device" => int(self, 1),
            "omp_get_wtime" => {
                let c = self.b.ins().sreg(SpecialReg::Clock64);
                let f = self.b.ins().uitofp(Type::F64, c);
                let k = self.b.ins().fconst(Type::F64, 1e-9);
                self.b.ins().fmul(f, k)
            }
            "omp_get_wtick" => self.b.ins().fconst(Type::F64, 1e-9),
            _ => return None,
        };
        // Arguments (levels) are evaluated for their effects only.
        for a in args {
            self.effect(a);
        }
        let have = if self.b.value_type(v) == Type::F64 {
            Scalar::Float(Type::F64)
        } else {
            Scalar::INT
        };
        let want = self.class(ret, Span::default()).unwrap_or(have);
        Some(self.convert(v, have, want))
    }
}

/// What a kernel runs: its leading directives and the statement under them.
struct Shape<'a> {
    chain: Vec<&'a OmpDirective>,
    body: Option<&'a Stmt>,
}

impl<'a> Shape<'a> {
    fn of(region: &TargetRegion<'a>) -> Shape<'a> {
        let mut chain = vec![region.directive];
        let mut cur = region.directive;
        if let Some(ln) = &region.loop_nest {
            // target [teams|parallel ...] loop-directive
            while !std::ptr::eq(cur, ln.directive) {
                let Some(StmtKind::Omp(inner)) = cur
                    .body
                    .as_deref()
                    .map(|b| &ompcc_omp::strip_compound(b).kind)
                else {
                    break;
                };
                chain.push(inner);
                cur = inner;
            }
            return Shape { chain, body: None };
        }
        // target { teams { ... } } / target { parallel { ... } }
        while let Some(b) = cur.body.as_deref() {
            match &ompcc_omp::strip_compound(b).kind {
                StmtKind::Omp(inner)
                    if matches!(inner.kind, K::Teams | K::Parallel)
                        && (region.mode != ExecMode::Serial) =>
                {
                    chain.push(inner);
                    cur = inner;
                }
                _ => break,
            }
        }
        Shape {
            chain,
            body: cur.body.as_deref(),
        }
    }
}
