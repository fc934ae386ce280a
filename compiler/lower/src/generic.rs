//! Generic-mode teams regions with workers (DESIGN section 5): a `teams` region whose body has
//! sequential code around nested `parallel` constructs.
//!
//! Every thread of a team starts. Thread 0 (the main thread) runs the sequential code; the
//! others (the workers) wait in a loop at a barrier. At a nested `parallel` (or `parallel for`,
//! `distribute parallel for`), the main thread copies the variables the construct uses into
//! shared memory (their "homes", one `.shared` object per variable), publishes the construct's
//! number in a shared state word and releases the workers with a barrier; all threads of the
//! team run the construct's body (worksharing over `tid.x`/`ntid.x`), a barrier ends it, the
//! main thread copies the homes back into its own variables and goes on, the workers go back
//! to waiting. At the end of the region the main thread publishes 0 and releases the workers,
//! which return. The construct numbers are known at compile time, so the workers dispatch with
//! one `br_table` over copies of the bodies (no indirect calls): each body is lowered twice,
//! once on the main thread's path and once in the workers' loop, with the same bindings.
//!
//! A construct with `num_threads(n)` or `if(c)` forks with `min(n, team size)` active threads
//! (1 when `c` is false): the main thread computes the count and publishes it in a shared
//! word with the construct number; workers whose `tid.x` is not below it skip the body and go
//! straight to the barrier that ends it. Inside, `omp_get_num_threads`, worksharing and
//! reductions use that count (`GenericTeam::active`), and so does the OpenMP API in called
//! functions (through the ICV records, `icv::icv_team_size`).
//!
//! Invariants: both copies of a body see every variable declared outside it through memory
//! all threads can read (a shared home, or a pointer published through one), never through a
//! value of the main thread's path; barriers pair up (release / end of every construct, and
//! the final release), so every thread of the team executes the same sequence of barriers
//! (the non-aligned `barrier.sync`: lanes of warp 0 wait at different instructions)
//! (a sized construct has no barrier of its own inside, `ompcc_omp::forkable`); a construct
//! that cannot be forked (sections, master, a sized one that synchronizes its team) runs on
//! the main thread as a team of one, as before. Whether a region forks at all is
//! `ompcc_omp::generic_region_forks` (the host launches its team size from the same answer).

use crate::func::{Addr, FnLower, Local};
use crate::kernel::{Par, Split, Who};
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, Block, IntCC, Opcode, SpecialReg, Type, Value, ValueDef};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{OmpClauseKind, OmpClauseName as C, OmpDirective, OmpDirectiveKind as K};
use rustc_hash::{FxHashMap, FxHashSet};

/// Shared memory the homes of one kernel may take (of the 48 KiB a block can always have).
const HOME_BYTES: u64 = 32 * 1024;

/// The worker state machine of the generic kernel being lowered.
pub struct GenericTeam {
    /// The `.shared` state word: 0 = return, k = run construct k.
    state: String,
    /// Where the workers wait (filled by `finish_generic_team`).
    worker_head: Block,
    /// The workers' copy of construct k is `works[k - 1]`.
    works: Vec<Block>,
    /// Shared homes by variable: global name, and whether it holds a pointer to the object
    /// (the object itself lives elsewhere) rather than the object.
    homes: FxHashMap<SymbolId, (String, bool)>,
    home_bytes: u64,
    /// The `.shared` word through which the main thread publishes the active threads of a
    /// sized construct (created on first use).
    active_word: Option<String>,
    /// While a copy of a sized construct's body is lowered: its active thread count (`i32`),
    /// the team size the OpenMP API and worksharing use there instead of `ntid.x`.
    pub(crate) active: Option<Value>,
}

/// How one variable reaches the threads of a forked team.
#[derive(Clone, Copy)]
enum Capture {
    /// The object is copied into its home and back; `slot`/`align` are the main thread's own.
    Value {
        sym: SymbolId,
        local: Local,
        align: u32,
    },
    /// The object's address (already visible to every thread) is published through its home.
    Pointer { sym: SymbolId, align: u32 },
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// Splits the team: workers go to the (not yet built) waiting loop, the main thread
    /// continues in a fresh block.
    pub(crate) fn start_generic_team(&mut self) {
        let state = self
            .cx
            .shared_global(&format!("{}__state", self.name), 4, 4);
        let worker_head = self.b.create_block();
        let main = self.b.create_block();
        let t = self.b.ins().sreg(SpecialReg::TidX);
        let zero = self.b.ins().iconst(Type::I32, 0);
        let is_main = self.b.ins().icmp(IntCC::Eq, t, zero);
        self.b.ins().brif(is_main, main, &[], worker_head, &[]);
        self.b.switch_to_block(main);
        self.generic = Some(GenericTeam {
            state,
            worker_head,
            works: Vec::new(),
            homes: FxHashMap::default(),
            home_bytes: 0,
            active_word: None,
            active: None,
        });
    }

    /// Ends the main thread's part (the workers are told to return) and builds the workers'
    /// waiting loop. The main thread's block stays open.
    pub(crate) fn finish_generic_team(&mut self) {
        let Some(team) = self.generic.take() else {
            return;
        };
        self.ensure_open();
        let st = self.state_addr(&team.state);
        let zero = self.b.ins().iconst(Type::I32, 0);
        self.store_raw(st, zero, true);
        self.b.ins().barrier();
        let main = self.b.current_block();
        self.b.switch_to_block(team.worker_head);
        self.b.ins().barrier();
        let st = self.state_addr(&team.state);
        let s = self.load_raw(st, Type::I32, true);
        let exit = self.b.create_block();
        let mut targets: Vec<(Block, &[Value])> = vec![(exit, &[])];
        targets.extend(team.works.iter().map(|&b| (b, &[][..])));
        self.b.ins().br_table(s, (exit, &[]), &targets);
        self.b.switch_to_block(exit);
        self.b.ins().ret(&[]);
        if let Some(m) = main {
            self.b.switch_to_block(m);
        }
    }

    fn state_addr(&mut self, name: &str) -> Addr {
        let gr = self.b.import_global(name, AddrSpace::Shared);
        let ptr = self.b.ins().global_addr(gr);
        Addr {
            ptr,
            space: AddrSpace::Shared,
            align: 4,
        }
    }

    /// The generic address of `sym`'s home (created on first use).
    fn home(&mut self, sym: SymbolId, size: u64, align: u32, pointer: bool, span: Span) -> Value {
        let known = self
            .generic
            .as_ref()
            .and_then(|t| t.homes.get(&sym))
            .map(|(n, _)| n.clone());
        let name = match known {
            Some(n) => n,
            None => {
                let info = &self.cx.typed.symbols[sym];
                let base = format!("{}__{}", self.name, info.name);
                let n = self.cx.shared_global(&base, size, align);
                let mut over = false;
                if let Some(team) = self.generic.as_mut() {
                    team.home_bytes += size.next_multiple_of(align.max(1) as u64);
                    over = team.home_bytes > HOME_BYTES;
                    team.homes.insert(sym, (n.clone(), pointer));
                }
                if over {
                    self.unsupported(
                        format!(
                            "the variables a nested 'parallel' shares take more than {HOME_BYTES} bytes of shared memory"
                        ),
                        span,
                    );
                }
                n
            }
        };
        let gr = self.b.import_global(&name, AddrSpace::Shared);
        let sp = self.b.ins().global_addr(gr);
        self.b.ins().addrspacecast(Type::PTR, sp)
    }

    /// Whether `v` is (an offset or cast of) the address of this thread's stack: such an
    /// address means nothing to the other threads.
    fn is_stack_address(&self, mut v: Value) -> bool {
        let dfg = &self.b.func.dfg;
        loop {
            let ValueDef::Result(inst, _) = dfg.value_def(v) else {
                return false;
            };
            let data = dfg.inst(inst);
            match data.opcode() {
                Opcode::StackAddr | Opcode::StackAlloc => return true,
                Opcode::Addrspacecast | Opcode::PtrOffset => {
                    let args = dfg.inst_args(inst);
                    match args.first() {
                        Some(&a) => v = a,
                        None => return false,
                    }
                }
                _ => return false,
            }
        }
    }

    /// The variables of the enclosing code that `d` uses, and how each reaches the team;
    /// `None` (after an error) when one of them cannot reach it.
    fn captures(&mut self, d: &'a OmpDirective) -> Option<Vec<Capture>> {
        let mut declared = FxHashSet::default();
        let mut used: Vec<SymbolId> = Vec::new();
        let typed = self.cx.typed;
        let mut ident = |id| {
            if let Some(&s) = typed.ident_symbols.get(&id)
                && !used.contains(&s)
            {
                used.push(s);
            }
        };
        for c in &d.clauses {
            match &c.kind {
                OmpClauseKind::Expr(e) => crate::walk::idents_of(e, &mut ident),
                OmpClauseKind::List(l)
                | OmpClauseKind::Lastprivate { list: l, .. }
                | OmpClauseKind::Reduction { list: l, .. }
                | OmpClauseKind::UserReduction { list: l, .. } => {
                    for e in l {
                        crate::walk::idents_of(e, &mut ident);
                    }
                }
                OmpClauseKind::Schedule { chunk: Some(e), .. } => {
                    crate::walk::idents_of(e, &mut ident)
                }
                _ => {}
            }
        }
        if let Some(b) = d.body.as_deref() {
            let (inside, uses) = crate::walk::declared_and_used(b, typed);
            declared = inside;
            for (e, _) in uses {
                ident(e);
            }
        }
        let mut out = Vec::new();
        let mut ok = true;
        for s in used {
            if declared.contains(&s) {
                continue;
            }
            let Some(&local) = self.locals.get(&s) else {
                continue;
            };
            let qt = self.cx.typed.symbols[s].ty;
            let shared_stack = match local {
                Local::Ptr(v, _) => self.is_stack_address(v),
                Local::Slot(..) => false,
            };
            if shared_stack || self.cx.typed.types.is_vla(qt) {
                let name = self.cx.typed.symbols[s].name.clone();
                self.unsupported(
                    format!(
                        "'{name}' lives in the main thread's stack (a VLA or an array reduction copy) and cannot be shared with a nested 'parallel' in a generic 'teams' region yet"
                    ),
                    d.span,
                );
                ok = false;
                continue;
            }
            out.push(match local {
                Local::Slot(_, align) => Capture::Value {
                    sym: s,
                    local,
                    align,
                },
                Local::Ptr(_, align) => Capture::Pointer { sym: s, align },
            });
        }
        ok.then_some(out)
    }

    /// The `.shared` word of the active thread count of sized constructs (module docs).
    fn active_addr(&mut self) -> Option<Addr> {
        let team = self.generic.as_ref()?;
        let name = match &team.active_word {
            Some(n) => n.clone(),
            None => {
                let n = self
                    .cx
                    .shared_global(&format!("{}__active", self.name), 4, 4);
                if let Some(t) = self.generic.as_mut() {
                    t.active_word = Some(n.clone());
                }
                n
            }
        };
        Some(self.state_addr(&name))
    }

    /// On the main thread, before the release: the number of threads a sized construct `d`
    /// runs on, `if` ? clamp(`num_threads`, 1, team size) : 1, published for the workers
    /// (`None` after an error).
    fn active_threads(&mut self, d: &'a OmpDirective) -> Option<Value> {
        let team = self.b.ins().sreg(SpecialReg::NtidX);
        let mut n = team;
        if let Some(e) = d.clauses.iter().find_map(|c| match (&c.name, &c.kind) {
            (C::NumThreads, OmpClauseKind::Expr(e)) => Some(&**e),
            _ => None,
        }) {
            let cls = self.class_of_conv(e)?;
            let v = self.scalar(e)?;
            // as a 64-bit count, so a huge request is not truncated to a small one
            let v = self.convert(v, cls, Scalar::LONG);
            let one = self.b.ins().iconst(Type::I64, 1);
            let t64 = self.b.ins().zext(Type::I64, team);
            let v = self.b.ins().smax(v, one);
            let v = self.b.ins().smin(v, t64);
            n = self.b.ins().trunc(Type::I32, v);
        }
        if let Some(e) = ompcc_omp::parallel_if(d) {
            let c = self.cond_i32(e)?;
            let z = self.b.ins().iconst(Type::I32, 0);
            let on = self.b.ins().icmp(IntCC::Ne, c, z);
            let one = self.b.ins().iconst(Type::I32, 1);
            n = self.b.ins().select(on, n, one);
        }
        let a = self.active_addr()?;
        self.store_raw(a, n, true);
        self.icv_team_size(n);
        Some(n)
    }

    /// A nested `parallel` construct on the main thread: forks the team (module docs).
    pub(crate) fn fork_team(&mut self, d: &'a OmpDirective) {
        let span = d.span;
        let sized = ompcc_omp::sizes_team(d);
        let active = if sized {
            match self.active_threads(d) {
                Some(n) => Some(n),
                None => return,
            }
        } else {
            None
        };
        let Some(caps) = self.captures(d) else {
            return;
        };
        // Main thread: publish the variables, then the construct number.
        let mut restore = Vec::new();
        for c in &caps {
            match *c {
                Capture::Value { sym, local, align } => {
                    let qt = self.cx.typed.symbols[sym].ty;
                    let size = self.cx.typed.types.size_of(qt).unwrap_or(1);
                    let h = self.home(sym, size, align, false, span);
                    let dst = Addr {
                        ptr: h,
                        space: AddrSpace::Generic,
                        align,
                    };
                    let src = self.local_addr(local);
                    self.copy(dst, src, qt, span);
                    restore.push((sym, local, self.locals.insert(sym, Local::Ptr(h, align))));
                }
                Capture::Pointer { sym, .. } => {
                    let h = self.home(sym, 8, 8, true, span);
                    let Some(Local::Ptr(v, _)) = self.locals.get(&sym).copied() else {
                        continue;
                    };
                    let dst = Addr {
                        ptr: h,
                        space: AddrSpace::Generic,
                        align: 8,
                    };
                    self.store_raw(dst, v, false);
                }
            }
        }
        let work = self.b.create_block();
        let Some(team) = self.generic.as_mut() else {
            return;
        };
        team.works.push(work);
        let k = team.works.len() as i64;
        let state = team.state.clone();
        let st = self.state_addr(&state);
        let kv = self.b.ins().iconst(Type::I32, k);
        self.store_raw(st, kv, true);
        self.b.ins().barrier();
        let vla = self.vla.clone();
        let labels = std::mem::take(&mut self.labels);
        self.team_body(d, active);
        self.ensure_open();
        self.b.ins().barrier();
        // Back on the main thread alone: take the team's values home.
        for (sym, local, old) in restore {
            let qt = self.cx.typed.symbols[sym].ty;
            let align = match local {
                Local::Slot(_, a) | Local::Ptr(_, a) => a,
            };
            if let Some(Local::Ptr(h, _)) = self.locals.get(&sym).copied() {
                let src = Addr {
                    ptr: h,
                    space: AddrSpace::Generic,
                    align,
                };
                let dst = self.local_addr(local);
                self.copy(dst, src, qt, span);
            }
            match old {
                Some(l) => self.locals.insert(sym, l),
                None => self.locals.remove(&sym),
            };
        }
        let cont = self.b.current_block();
        // The workers' copy: same bindings, through the homes. Its diagnostics repeat the
        // main copy's, so they are dropped.
        let main_labels = std::mem::replace(&mut self.labels, labels);
        let main_vla = std::mem::replace(&mut self.vla, vla);
        let saved_locals = self.locals.clone();
        let breaks = std::mem::take(&mut self.breaks);
        let continues = std::mem::take(&mut self.continues);
        let switches = std::mem::take(&mut self.switches);
        let vla_scopes = std::mem::take(&mut self.vla_scopes);
        let diags = self.cx.diags.len();
        let errors = self.errors;
        self.b.switch_to_block(work);
        self.icv_inherit();
        for c in &caps {
            match *c {
                Capture::Value { sym, align, .. } => {
                    let qt = self.cx.typed.symbols[sym].ty;
                    let size = self.cx.typed.types.size_of(qt).unwrap_or(1);
                    let h = self.home(sym, size, align, false, span);
                    self.locals.insert(sym, Local::Ptr(h, align));
                }
                Capture::Pointer { sym, align } => {
                    let h = self.home(sym, 8, 8, true, span);
                    let src = Addr {
                        ptr: h,
                        space: AddrSpace::Generic,
                        align: 8,
                    };
                    let v = self.load_raw(src, Type::PTR, false);
                    self.locals.insert(sym, Local::Ptr(v, align));
                }
            }
        }
        // A sized construct: the workers that are not active wait for the others at its end.
        let mut skip = None;
        let active = match active.and_then(|_| self.active_addr()) {
            Some(a) => {
                let n = self.load_raw(a, Type::I32, true);
                let t = self.b.ins().sreg(SpecialReg::TidX);
                let run = self.b.ins().icmp(IntCC::Ult, t, n);
                let body = self.b.create_block();
                let end = self.b.create_block();
                self.b.ins().brif(run, body, &[], end, &[]);
                self.b.switch_to_block(body);
                skip = Some(end);
                Some(n)
            }
            None => None,
        };
        self.team_body(d, active);
        self.ensure_open();
        if let Some(end) = skip {
            self.b.ins().jump(end, &[]);
            self.b.switch_to_block(end);
        }
        self.b.ins().barrier();
        let head = self.generic.as_ref().map(|t| t.worker_head);
        if let Some(h) = head {
            self.b.ins().jump(h, &[]);
        }
        self.cx.diags.truncate(diags);
        self.errors = errors;
        self.locals = saved_locals;
        self.labels = main_labels;
        self.vla = main_vla;
        self.breaks = breaks;
        self.continues = continues;
        self.switches = switches;
        self.vla_scopes = vla_scopes;
        match cont {
            Some(b) => self.b.switch_to_block(b),
            None => self.ensure_open(),
        }
    }

    /// The body of a forked construct, run by every thread of the team. Reductions combine
    /// with one (shared-memory) atomic per thread, not the warp shuffle tree: lane 0 of the
    /// first warp runs the main thread's copy of the body and the other lanes the workers'
    /// copy, and `shfl.sync` is only defined for lanes at the same instruction.
    /// `active`: the thread count of a sized construct (module docs).
    fn team_body(&mut self, d: &'a OmpDirective, active: Option<Value>) {
        if let Some(t) = self.generic.as_mut() {
            t.active = active;
        }
        let par = self.par;
        self.par = Par {
            split: Split::Team,
            threads: true,
            league: par.league,
            main: false,
        };
        self.shared_scopes.push(self.locals.clone());
        let mut privs = Vec::new();
        self.privatize(d, true, false, &mut privs);
        match d.kind {
            K::Parallel => {
                if let Some(b) = d.body.as_deref() {
                    self.stmt(b);
                }
                self.ensure_open();
                self.end_privates(privs, false, None);
            }
            _ => {
                // `distribute parallel for` shares the iterations over every thread of the
                // league, the other forms over the team.
                let who = if matches!(
                    d.kind,
                    K::DistributeParallelFor | K::DistributeParallelForSimd
                ) {
                    Who::Grid
                } else {
                    Who::Team
                };
                match d.body.as_deref() {
                    Some(b) => {
                        let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                        self.distributed_loop(d, b, collapse, who, privs, false, None);
                    }
                    None => self.end_privates(privs, false, None),
                }
            }
        }
        self.shared_scopes.pop();
        self.par = par;
        if let Some(t) = self.generic.as_mut() {
            t.active = None;
        }
    }
}
