//! Outlining of `target` regions into kernels, and the OpenMP constructs inside them
//! (DESIGN section 5).
//!
//! A kernel's parameters are exactly the region's `params` (Ref, DevicePtr, Copy and
//! DeviceAddr: a generic pointer; Value: the variable's own scalar type). Ref and DeviceAddr
//! params stand for the variable itself (its storage is device memory); DevicePtr and Value
//! params are copied into private stack slots, and so are the bytes a Copy param points at
//! (`privatize::private_copy_param`). Every other variable the region uses that is declared outside it (private copies,
//! loop variables declared before the loop) gets a fresh private slot.
//!
//! Execution (the launch contract of `ompcc_omp::ExecMode`):
//! - Spmd with a loop nest: the collapsed nest is flattened into one 64-bit trip count and
//!   thread `k` of the grid runs iterations `k, k+G, k+2G...` (`G` = all threads of the
//!   grid), each iteration variable recovered by div/mod. A loop with a `schedule` or
//!   `dist_schedule` clause runs the assignment the clause defines instead (module
//!   `schedule`). Without `teams` (`target parallel for`) only team 0 runs, its threads sharing
//!   the iterations, so thread numbers stay those of one parallel region. Reductions: a
//!   private copy per thread; when the block is a whole number of warps, each warp combines
//!   its copies with a shuffle-down tree under the constant full mask and lane 0 leaves the
//!   warp's value in `.shared` memory; after a barrier a second tree combines the warps'
//!   values and thread 0 combines the block's into the original with one atomic (a CAS loop
//!   where no atomic instruction fits); in other blocks every thread combines its copy
//!   atomically; see `privatize`. Loops and nested constructs: `worksharing`.
//! - Spmd without a loop (`target parallel`): the threads of team 0 run the body (other teams
//!   return at once); a nested `for` splits iterations over `tid.x` / `ntid.x` and ends with a
//!   barrier unless `nowait`.
//! - Generic: thread 0 of each team (the main thread) runs the body; a nested `distribute`
//!   splits iterations over the teams; a nested `parallel` forks the team's other threads,
//!   which wait at a barrier until then (module `generic`); where nothing forks, the other
//!   threads return at once.
//! - Serial: one thread of one team runs the body (`target simd` runs its loop there).
//!
//! Invariants: `locals` entries a construct privatizes are restored when it ends; every
//! private copy of a reduction is combined exactly once; code after a kernel-level early
//! return is only reached by the threads that run the region.

use crate::func::{Addr, FnLower, Local};
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{
    AddrSpace, AtomicRmwOp, FuncKind, Function, FunctionBuilder, IntCC, Scope, Signature,
    SpecialReg, Type, Value,
};
use ompcc_omp::{ExecMode, Pass, TargetRegion};
use ompcc_sema::types::QualType;
use ompcc_sema::{Storage, SymbolId, SymbolKind};
use ompcc_syntax::ast::{
    Expr, ExprKind, OmpClauseKind, OmpClauseName as C, OmpDirective, OmpDirectiveKind as K, Stmt,
    StmtKind,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Who runs the code being lowered, which decides what an OpenMP construct does there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// A device function: only `atomic`, `flush` and sequential `simd` are lowered.
    Device,
    /// Every thread of one team (the body of `target parallel`): worksharing splits over
    /// `tid.x` / `ntid.x`.
    Team,
    /// The main thread of a team in a `teams` region (generic mode): `distribute` splits over
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
    /// `omp_get_team_num` / `omp_get_num_teams` report the block's number and the blocks
    /// (`FnLower::team_num`; else 0 / 1: no `teams` construct, one team).
    pub league: bool,
    /// The main thread of a generic team whose workers wait: a nested `parallel` forks the
    /// team (module `generic`).
    pub main: bool,
}

impl Par {
    /// Device functions.
    pub const DEVICE: Par = Par {
        split: Split::Device,
        threads: true,
        league: true,
        main: false,
    };
}

/// Who shares the iterations of a distributed loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    /// Every thread of the grid.
    Grid,
    /// The threads of the current team.
    Team,
    /// The teams of the league (one thread each).
    Teams,
    /// This thread alone (a loop run in order).
    Single,
}

/// Lowers one target region to a kernel named `region.kernel`.
pub fn lower_kernel<'a>(cx: &mut crate::ctx::Ctx<'a>, region: &TargetRegion<'a>) -> Function {
    lower_kernel_named(cx, region, region.kernel.clone())
}

/// The one-iteration variant of `region`'s kernel (`TargetRegion::one_iteration`), named
/// `<kernel>_one`: its grid loop gives each thread at most one iteration. Lowered after the
/// region's kernel lowered without errors: the warnings it repeats are dropped, an error
/// (none is expected) stays and fails the unit, since the host lists the variant.
pub fn lower_one_iteration_kernel<'a>(
    cx: &mut crate::ctx::Ctx<'a>,
    region: &TargetRegion<'a>,
) -> Function {
    let reported = cx.diags.len();
    cx.one_iteration_loop = region.loop_nest.map(|ln| ln.directive.span);
    cx.tiles = region.tiles.clone();
    cx.one_iteration_grid = ompcc_omp::one_iteration_grid(region);
    let name = format!("{}{}", region.kernel, ompcc_omp::ONE_ITERATION_SUFFIX);
    let f = lower_kernel_named(cx, region, name);
    cx.one_iteration_loop = None;
    cx.one_iteration_grid = 1;
    cx.tiles.clear();
    cx.tile_reads.clear();
    if !cx.diags[reported..].iter().any(|d| d.is_error()) {
        cx.diags.truncate(reported);
    }
    f
}

fn lower_kernel_named<'a>(
    cx: &mut crate::ctx::Ctx<'a>,
    region: &TargetRegion<'a>,
    name: String,
) -> Function {
    let span = region.directive.span;
    let mut sig = Signature::default();
    // the kernel is named after its function
    let function = cx
        .typed
        .decl_symbol(region.function.declarator.id)
        .map(|s| cx.typed.symbols[s].name.clone())
        .unwrap_or_default();
    let mut ok = cx.ptx_nameable("E0801", "function", &function, span);
    for p in &region.params {
        let ty = match p.pass {
            Pass::Ref | Pass::DevicePtr | Pass::Copy | Pass::DeviceAddr => Type::PTR,
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
            va_area: None,
            ret: None,
            errors: 0,
            par: Par::DEVICE,
            vla_scopes: Vec::new(),
            generic: None,
            shared_scopes: Vec::new(),
            dispatch_callee: None,
            loop_runs: Vec::new(),
            taskloop_split: None,
            depth: 0,
        };
        fl.cx.layouts = region
            .layouts
            .iter()
            .flat_map(|l| l.accesses.iter().map(|&e| (e, (l.row, l.rows, l.two_d))))
            .collect();
        fl.kernel_body(region);
        fl.cx.layouts.clear();
        fl.terminate_all();
    }
    let cx = &mut *cx;
    // A region whose parameters were refused has no body to verify: it is replaced below.
    if let Err(e) = ompcc_ir::verify_function(&func)
        && ok
    {
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
                // A mapped read-only table: the kernel reads its `.const` copy instead.
                Pass::Ref if self.cx.const_table(p.sym, span).is_some() => {}
                Pass::Ref | Pass::DeviceAddr => {
                    self.locals.insert(p.sym, Local::Ptr(v, align));
                    self.set_link_ref(p.sym, v, span);
                }
                Pass::Copy => self.private_copy_param(p.sym, v, span),
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
            let (declared, used) = crate::walk::declared_and_used(body, self.cx.typed);
            for (_, s) in used {
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
        // A `parallel` in the chain is level 1: the block's team in SPMD kernels, a team of
        // one on the main thread of a generic one.
        let level1 = shape.chain.iter().any(|d| has_parallel(d.kind));
        self.icv_init(level1, level1 && region.mode == ExecMode::Spmd);
        // What a task in the region shares: under `parallel` or `teams`, every variable bound
        // here that the construct chain does not privatize; under a plain `target`, only the
        // mapped variables (the others are the target task's own firstprivate copies).
        let team_level = shape
            .chain
            .iter()
            .any(|d| has_parallel(d.kind) || d.kind.words().contains(&"teams"));
        let shared: FxHashMap<SymbolId, Local> = if team_level {
            self.locals.clone()
        } else {
            region
                .params
                .iter()
                .filter(|p| matches!(p.pass, Pass::Ref | Pass::DeviceAddr))
                .filter_map(|p| self.locals.get(&p.sym).map(|l| (p.sym, *l)))
                .collect()
        };
        self.shared_scopes.push(shared);
        match (region.mode, region.loop_nest) {
            (_, Some(ln)) => {
                if region.mode == ExecMode::Serial {
                    self.guard_first_thread(true, true);
                }
                self.par = Par {
                    split: Split::Alone,
                    threads: shape.chain.iter().any(|d| has_parallel(d.kind)),
                    league: shape
                        .chain
                        .iter()
                        .any(|d| d.kind.words().contains(&"teams")),
                    main: false,
                };
                let privs = self.privatize_chain(&shape.chain, true);
                // `target simd` (serial): the one thread runs every iteration in order. Without
                // `teams` (`target parallel for`) the region is one parallel region: team 0's
                // threads share the iterations (thread numbers then stay unique).
                let teams = shape
                    .chain
                    .iter()
                    .any(|d| d.kind.words().contains(&"teams"));
                let (who, tree) = if region.mode == ExecMode::Serial {
                    (Who::Single, false)
                } else if !teams {
                    self.guard_first_thread(true, false);
                    (Who::Team, true)
                } else {
                    (Who::Grid, true)
                };
                // with a grid mapping, the threads take its loop (see `GridMapping`)
                let outer = region.grid.as_ref().map_or(ln.outer, |g| g.threaded);
                self.distributed_loop(
                    ln.directive,
                    outer,
                    ln.collapse,
                    who,
                    privs,
                    tree,
                    region.grid.clone(),
                );
            }
            (ExecMode::Spmd, None) => {
                // `target parallel`: the threads of team 0; `target teams` + `parallel`: the
                // threads of every team.
                let league = shape
                    .chain
                    .iter()
                    .any(|d| d.kind.words().contains(&"teams"));
                self.guard_first_thread(!league, false);
                self.team_shared(region, &shape);
                // the team's variables now live in their `.shared` homes: what tasks in the
                // region share is those bindings
                if team_level && let Some(top) = self.shared_scopes.last_mut() {
                    *top = self.locals.clone();
                }
                self.par = Par {
                    split: Split::Team,
                    threads: true,
                    league,
                    main: false,
                };
                self.region_body(&shape, true);
            }
            (ExecMode::Generic, None) => {
                // Thread 0 of each team runs the region; the others wait for nested
                // `parallel` constructs (module `generic`), or return when there are none.
                let workers = region.forks_team;
                if workers {
                    self.start_generic_team();
                } else {
                    self.guard_first_thread(false, true);
                }
                self.par = Par {
                    split: Split::TeamsLevel,
                    threads: false,
                    league: true,
                    main: workers,
                };
                self.region_body(&shape, false);
                self.finish_generic_team();
            }
            (ExecMode::Serial, None) => {
                self.guard_first_thread(true, true);
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                    league: false,
                    main: false,
                };
                self.region_body(&shape, false);
            }
        }
        self.ensure_open();
        self.b.ins().ret(&[]);
    }

    /// The region's body with the privatization of its construct chain around it;
    /// `tree`: reductions go through a warp tree and a block combine first (every thread of
    /// the block is here).
    fn region_body(&mut self, shape: &Shape<'a>, tree: bool) {
        let privs = self.privatize_chain(&shape.chain, false);
        if let Some(b) = shape.body {
            self.stmt(b);
        }
        self.ensure_open();
        self.end_privates(privs, tree, None);
    }

    /// In a `target parallel` kernel, the variables the target makes private (firstprivate
    /// values, device pointers, `private` items) are shared by the team's threads: each gets
    /// one copy in shared memory, initialized by thread 0 before a barrier.
    fn team_shared(&mut self, region: &TargetRegion<'a>, shape: &Shape<'a>) {
        let mut syms: Vec<SymbolId> = Vec::new();
        for p in &region.params {
            if !matches!(p.pass, Pass::Ref | Pass::DeviceAddr) {
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
    pub(crate) fn guard_first_thread(&mut self, team: bool, thread: bool) {
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
    /// `critical`: a module-wide lock per name; the lanes of a warp take it one after the
    /// other, so a warp never spins against itself.
    pub(crate) fn critical(&mut self, d: &'a OmpDirective) {
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
    pub(crate) fn thread_num(&mut self) -> Value {
        if self.par.threads {
            self.b.ins().sreg(SpecialReg::TidX)
        } else {
            self.b.ins().iconst(Type::I32, 0)
        }
    }

    /// The OpenMP device API as special registers and constants; `None` when `name` is not
    /// one of the functions handled here.
    pub(crate) fn omp_api(&mut self, name: &str, args: &'a [Expr], ret: QualType) -> Option<Value> {
        let v = self.omp_api_value(name)?;
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

    /// [`Self::omp_api`]'s value before its conversion to the routine's type (`i32`, or `f64`
    /// for the clock); the arguments it ignores are not evaluated here.
    pub(crate) fn omp_api_value(&mut self, name: &str) -> Option<Value> {
        let threads = self.par.threads;
        // In the body of a forked sized construct: its active threads (module `generic`).
        let active = self
            .generic
            .as_ref()
            .and_then(|t| t.active)
            .filter(|_| threads);
        let int = |fl: &mut Self, x: i64| fl.b.ins().iconst(Type::I32, x);
        let device = if self.par.split == Split::Device {
            self.device_team_api(name)
        } else {
            None
        };
        let v = match name {
            _ if device.is_some() => device?,
            "omp_get_num_threads" | "omp_get_team_size" if active.is_some() => active?,
            "omp_in_parallel" | "omp_get_active_level" if active.is_some() => {
                let one = int(self, 1);
                let c = self.b.ins().icmp(IntCC::Ugt, active?, one);
                self.b.ins().zext(Type::I32, c)
            }
            "omp_get_level" if active.is_some() => int(self, 1),
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
            "omp_get_team_num" if self.par.league => self.team_num(),
            "omp_get_num_teams" if self.par.league => self.num_teams(),
            "omp_get_team_num" => int(self, 0),
            "omp_get_num_teams" => int(self, 1),
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
            "omp_get_ancestor_thread_num" => self.thread_num(),
            "omp_is_initial_device"
            | "omp_get_device_num"
            | "omp_get_dynamic"
            | "omp_get_nested" => int(self, 0),
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
        Some(v)
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
