//! The OpenMP device API routines that read or change internal control variables (OpenMP 5.2
//! chapters 2 and 18), and the device's answers to the routines about places, affinity,
//! cancellation, task priorities and resources, which have no state on the device.
//!
//! Where the ICVs live:
//! - The per-task ICVs (nthreads-var, run-sched-var, default-device-var,
//!   max-active-levels-var, levels-var, and whether the current task is final) are one
//!   16-byte record per hardware thread of the team, in a `.shared` array indexed by
//!   `tid.x`, plus one more record (index 1024) through which a forking main thread hands
//!   its values to the workers. A field is 0 for the device's initial value, so a kernel
//!   starts by zeroing its thread's record (but for the level of its chain's `parallel`).
//! - The device-scope ICVs that a target region may set (nteams-var, teams-thread-limit-var)
//!   are `.global` words of the unit (0 when unset), kept across launches as ICVs of the
//!   device are.
//!
//! All of this exists only in units whose device code may change an ICV or reads levels-var
//! ([`IcvState::may_set`], decided before lowering from the call graph of the unit's
//! functions): elsewhere the getters are the initial values (levels come from the lowering
//! context), and no kernel pays for the array.
//!
//! Invariants:
//! - the records also exist in units where a forking generic region calls a function of the
//!   program (`ompcc_omp::generic_region_calls`): the OpenMP API in device functions answers
//!   from them (`HW_TEAM`, levels-var and the team size bits), since the hardware ids of
//!   the main thread of a forking team describe the block, not its team of one;
//! - a thread reads and writes only its own record, except the fork record, which the main
//!   thread writes before the barrier that releases the workers and the workers read after it;
//! - every construct that begins a new task region (`parallel` forms, `task`, `taskloop`)
//!   saves the encountering thread's record and restores it when the region ends, so changes
//!   made inside never leak out (a data environment ends with its task);
//! - routines whose value would change how a forked team is formed (`omp_set_num_threads`,
//!   `omp_set_max_active_levels`) are rejected where the team may fork (the forked team's
//!   size is fixed at launch), never silently ignored.
//!
//! ICV state is per translation unit: a `declare target` function of another unit sees its
//! own unit's copy (the device link has no program-wide shared symbol yet).

use crate::expr::Rv;
use crate::func::{Addr, FnLower};
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, AtomicRmwOp, GlobalData, IntCC, Scope, SpecialReg, Type, Value};
use ompcc_omp::walk::{self, Node};
use ompcc_sema::{ExprInfo, SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    Expr, ExprKind, ExternalDecl, OmpClauseKind, OmpClauseName as C, OmpDirective,
    OmpDirectiveKind as K, TranslationUnit,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// The routines that change an ICV on the device (or, for a `final` task, the clause), and
/// those that read levels-var, which the records track.
const NEEDS_RECORD: &[&str] = &[
    "omp_get_level",
    "omp_get_ancestor_thread_num",
    "omp_get_team_size",
    "omp_set_num_threads",
    "omp_set_schedule",
    "omp_set_max_active_levels",
    "omp_set_default_device",
    "omp_set_nested",
    "omp_set_num_teams",
    "omp_set_teams_thread_limit",
];

/// The routines lowered here (see [`crate::is_device_api`]).
pub const ROUTINES: &[&str] = &[
    "omp_set_num_threads",
    "omp_set_dynamic",
    "omp_set_nested",
    "omp_get_schedule",
    "omp_set_schedule",
    "omp_get_max_active_levels",
    "omp_set_max_active_levels",
    "omp_get_supported_active_levels",
    "omp_get_default_device",
    "omp_set_default_device",
    "omp_get_max_teams",
    "omp_set_num_teams",
    "omp_get_teams_thread_limit",
    "omp_set_teams_thread_limit",
    "omp_get_cancellation",
    "omp_get_proc_bind",
    "omp_get_num_places",
    "omp_get_place_num_procs",
    "omp_get_place_proc_ids",
    "omp_get_place_num",
    "omp_get_partition_num_places",
    "omp_get_partition_place_nums",
    "omp_get_num_procs",
    "omp_get_max_task_priority",
    "omp_pause_resource",
    "omp_pause_resource_all",
];

/// Threads a block may have (the runtime clamps launches to it).
const MAX_THREADS: i64 = 1024;
const RECORD: i64 = 16;
/// The fork record's index.
const FORK: i64 = MAX_THREADS;

/// Byte offsets of the record's `i32` fields.
const NTHREADS: i64 = 0; // nthreads-var; 0: the team's threads
const CHUNK: i64 = 4; // run-sched-var's chunk; 0: none given
const DEVICE: i64 = 8; // default-device-var
const FLAGS: i64 = 12;

/// Bits of the flags word.
const KIND: i64 = 0x7; // run-sched-var's kind xor 1 (static is 0)
const MONOTONIC: i64 = 0x8;
const NO_LEVELS: i64 = 0x10; // max-active-levels-var is 0 (else 1)
const FINAL: i64 = 0x20;
/// The level-1 parallel region is the block's team, so `tid.x`/`ntid.x` are its thread
/// number and size (else every region the thread is in has a team of one).
const HW_TEAM: i64 = 0x40;
/// levels-var, in bits 8 to 15.
const LEVEL_SHIFT: i64 = 8;
const LEVEL_ONE: i64 = 1 << LEVEL_SHIFT;
/// With `HW_TEAM`, the number of threads of the level-1 team when a `num_threads` or `if`
/// clause sized it below the block (its threads are then `tid.x` below it), in bits 16 to 27;
/// 0: `ntid.x`.
const SIZE_SHIFT: i64 = 16;
const SIZE_MASK: i64 = 0xfff;

/// `omp_sched_monotonic`.
const SCHED_MONOTONIC: i64 = 0x8000_0000;

/// The unit's ICV storage.
#[derive(Debug, Default)]
pub struct IcvState {
    /// Whether the unit's device code may change an ICV or read levels-var, so kernels keep
    /// the records (module docs).
    pub may_set: bool,
    /// The `.shared` record array, once created.
    array: Option<String>,
    /// The device-scope words by routine family, once created.
    device: FxHashMap<&'static str, String>,
}

/// Whether the device code of the unit (the bodies of `regions`, the functions `selected`
/// and every function of the unit they may call) needs the records: it names a setter or a
/// levels routine, or has a `task`/`taskloop` with a `final` clause. Conservative: a function counts as called when
/// its name appears.
pub fn device_code_sets_icvs(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    regions: &[&OmpDirective],
    selected: &[SymbolId],
) -> bool {
    // What each function definition names, and whether it sets an ICV itself.
    let mut defs: FxHashMap<SymbolId, (bool, Vec<SymbolId>)> = FxHashMap::default();
    let mut current: Option<SymbolId> = None;
    let fn_decls: FxHashMap<*const ompcc_syntax::ast::Declarator, SymbolId> = tu
        .items
        .iter()
        .filter_map(|it| match it {
            ExternalDecl::Function(f) => typed
                .decl_symbol(f.declarator.id)
                .map(|s| (&f.declarator as *const _, s)),
            _ => None,
        })
        .collect();
    walk::unit(tu, &mut |n| {
        if let Node::Declarator(d) = n
            && let Some(&s) = fn_decls.get(&(d as *const _))
        {
            current = Some(s);
            defs.entry(s).or_default();
            return;
        }
        let Some(cur) = current else { return };
        let (sets, named) = scan_node(typed, n);
        let e = defs.entry(cur).or_default();
        e.0 |= sets;
        e.1.extend(named);
    });
    // Functions that set an ICV themselves or call one that does.
    let mut setting: FxHashSet<SymbolId> =
        defs.iter().filter(|(_, d)| d.0).map(|(&s, _)| s).collect();
    loop {
        let before = setting.len();
        for (&s, (_, named)) in &defs {
            if !setting.contains(&s) && named.iter().any(|n| setting.contains(n)) {
                setting.insert(s);
            }
        }
        if setting.len() == before {
            break;
        }
    }
    if selected.iter().any(|s| setting.contains(s)) {
        return true;
    }
    regions.iter().any(|d| {
        let mut found = false;
        let mut visit = |n: Node<'_>| {
            let (sets, named) = scan_node(typed, n);
            found |= sets || named.iter().any(|s| setting.contains(s));
        };
        visit(Node::Directive(d));
        if let Some(b) = d.body.as_deref() {
            walk::stmt(b, &mut visit);
        }
        found
    })
}

/// Whether node `n` sets an ICV, and the function it names (if any).
fn scan_node(typed: &TypedUnit, n: Node<'_>) -> (bool, Option<SymbolId>) {
    match n {
        Node::Expr(e) if matches!(e.kind, ExprKind::Ident(_)) => {
            let Some(&s) = typed.ident_symbols.get(&e.id) else {
                return (false, None);
            };
            let info = &typed.symbols[s];
            if info.kind != SymbolKind::Function {
                return (false, None);
            }
            (NEEDS_RECORD.contains(&info.name.as_str()), Some(s))
        }
        Node::Directive(d) => (
            matches!(d.kind, K::Task | K::Taskloop | K::TaskloopSimd)
                && d.clauses.iter().any(|c| c.name == C::Final),
            None,
        ),
        _ => (false, None),
    }
}

/// Why an OpenMP routine that device code may not call (or ompcc cannot run there) is
/// rejected; `None` for the others.
fn not_on_device(name: &str) -> Option<&'static str> {
    Some(match name {
        "omp_fulfill_event" => "events come from 'detach' clauses, which device code does not have",
        "omp_display_env" => "the device cannot read the environment",
        "omp_set_affinity_format"
        | "omp_get_affinity_format"
        | "omp_display_affinity"
        | "omp_capture_affinity" => "device threads have no affinity (no places)",
        "omp_set_default_allocator" => "def-allocator-var is the predefined default on the device",
        "omp_target_alloc"
        | "omp_target_free"
        | "omp_target_is_present"
        | "omp_target_is_accessible"
        | "omp_target_memcpy"
        | "omp_target_memcpy_rect"
        | "omp_target_memcpy_async"
        | "omp_target_memcpy_rect_async"
        | "omp_target_associate_ptr"
        | "omp_target_disassociate_ptr"
        | "omp_get_mapped_ptr" => "the device memory routines are called on the host",
        _ => return None,
    })
}

/// The kinds of construct whose region is a new task (implicit or explicit) for the thread
/// that encounters it; `Some(true)` for parallel regions (their implicit tasks are never
/// final), `Some(false)` for explicit tasks.
fn new_task(k: K) -> Option<bool> {
    match k {
        K::Task | K::Taskloop | K::TaskloopSimd => Some(false),
        _ if k.words().contains(&"parallel") => Some(true),
        _ => None,
    }
}

/// A thread's record saved around a construct: its four words.
pub(crate) struct Saved {
    words: [Value; 4],
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// An OpenMP construct inside a kernel or device function, in its own ICV data
    /// environment when it begins a task region.
    pub(crate) fn omp_construct(&mut self, d: &'a OmpDirective) {
        let saved = self.icv_enter(d);
        self.omp_construct_inner(d);
        if let Some(s) = saved {
            self.icv_leave(s);
        }
    }

    /// Kernel entry: this thread's record holds the initial values; `parallel` when the
    /// region's code runs in a (level 1) parallel region, `hw_team` when that region's team
    /// is the block's threads.
    pub(crate) fn icv_init(&mut self, parallel: bool, hw_team: bool) {
        if !self.cx.icv.may_set {
            return;
        }
        let r = self.icv_record(None);
        let z = self.b.ins().iconst(Type::I32, 0);
        for off in [NTHREADS, CHUNK, DEVICE] {
            let a = self.offset(r, off);
            self.store_raw(a, z, false);
        }
        let flags = if parallel { LEVEL_ONE } else { 0 } | if hw_team { HW_TEAM } else { 0 };
        let f = self.b.ins().iconst(Type::I32, flags);
        let a = self.offset(r, FLAGS);
        self.store_raw(a, f, false);
    }

    /// A forked team's worker, before the construct's body: the main thread's values.
    pub(crate) fn icv_inherit(&mut self) {
        if !self.cx.icv.may_set {
            return;
        }
        let from = self.icv_record(Some(FORK));
        let to = self.icv_record(None);
        for off in [NTHREADS, CHUNK, DEVICE, FLAGS] {
            let a = self.offset(from, off);
            let v = self.load_raw(a, Type::I32, true);
            let b = self.offset(to, off);
            self.store_raw(b, v, false);
        }
    }

    fn icv_enter(&mut self, d: &'a OmpDirective) -> Option<Saved> {
        if !self.cx.icv.may_set {
            return None;
        }
        let parallel = new_task(d.kind)?;
        let fork = self.par.main && self.generic.is_some() && ompcc_omp::forkable(d);
        let r = self.icv_record(None);
        let words = [NTHREADS, CHUNK, DEVICE, FLAGS].map(|off| {
            let a = self.offset(r, off);
            self.load_raw(a, Type::I32, false)
        });
        let flags = words[3];
        let new_flags = if parallel {
            // one level deeper, never final; a forked team is the block's team
            let keep = self.b.ins().iconst(Type::I32, !FINAL);
            let f = self.b.ins().and(flags, keep);
            let one = self.b.ins().iconst(Type::I32, LEVEL_ONE);
            let f = self.b.ins().iadd(f, one);
            Some(if fork {
                let hw = self.b.ins().iconst(Type::I32, HW_TEAM);
                self.b.ins().or(f, hw)
            } else {
                f
            })
        } else if let Some(e) = d.clauses.iter().find_map(|c| match (&c.name, &c.kind) {
            (C::Final, OmpClauseKind::Expr(e)) => Some(&**e),
            _ => None,
        }) {
            // A task is final when its `final` clause says so or its parent is final.
            let c = self.cond_i32(e)?;
            let z = self.b.ins().iconst(Type::I32, 0);
            let is = self.b.ins().icmp(IntCC::Ne, c, z);
            let bit = self.b.ins().iconst(Type::I32, FINAL);
            let add = self.b.ins().select(is, bit, z);
            Some(self.b.ins().or(flags, add))
        } else {
            None
        };
        if let Some(f) = new_flags {
            let a = self.offset(r, FLAGS);
            self.store_raw(a, f, false);
        }
        if fork {
            // the workers' implicit tasks start with the values of the main thread's
            let to = self.icv_record(Some(FORK));
            let mut inherit = words;
            inherit[3] = new_flags.unwrap_or(flags);
            for (i, off) in [NTHREADS, CHUNK, DEVICE, FLAGS].into_iter().enumerate() {
                let a = self.offset(to, off);
                self.store_raw(a, inherit[i], true);
            }
        }
        Some(Saved { words })
    }

    /// On the main thread forking a sized construct (after `icv_enter`): its team has `n`
    /// threads (`i32`, 1 to `ntid.x`), for this thread's record and the workers'.
    pub(crate) fn icv_team_size(&mut self, n: Value) {
        if !self.cx.icv.may_set {
            return;
        }
        let sh = self.b.ins().iconst(Type::I32, SIZE_SHIFT);
        let bits = self.b.ins().shl(n, sh);
        for (rec, volatile) in [(None, false), (Some(FORK), true)] {
            let r = self.icv_record(rec);
            let a = self.offset(r, FLAGS);
            let f = self.load_raw(a, Type::I32, volatile);
            let keep = self.b.ins().iconst(Type::I32, !(SIZE_MASK << SIZE_SHIFT));
            let f = self.b.ins().and(f, keep);
            let f = self.b.ins().or(f, bits);
            let a = self.offset(r, FLAGS);
            self.store_raw(a, f, volatile);
        }
    }

    /// From this thread's record: whether the innermost parallel region is the level-1 team
    /// of the block's threads, and that team's size (`i32`s; module docs).
    fn icv_team(&mut self) -> (Value, Value) {
        let f = self.icv_load(FLAGS);
        let hwb = self.b.ins().iconst(Type::I32, HW_TEAM);
        let hw = self.b.ins().and(f, hwb);
        let z = self.b.ins().iconst(Type::I32, 0);
        let is_hw = self.b.ins().icmp(IntCC::Ne, hw, z);
        let size = self.team_size_of(f);
        (is_hw, size)
    }

    /// The level-1 team's size from a flags word (with `HW_TEAM` set).
    fn team_size_of(&mut self, f: Value) -> Value {
        let sh = self.b.ins().iconst(Type::I32, SIZE_SHIFT);
        let s = self.b.ins().lshr(f, sh);
        let m = self.b.ins().iconst(Type::I32, SIZE_MASK);
        let s = self.b.ins().and(s, m);
        let z = self.b.ins().iconst(Type::I32, 0);
        let unsized_ = self.b.ins().icmp(IntCC::Eq, s, z);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        self.b.ins().select(unsized_, ntid, s)
    }

    /// The OpenMP API about the current team in a device function, from the records (whose
    /// callers' teams are not known here); `None` for other routines or without records.
    pub(crate) fn device_team_api(&mut self, name: &str) -> Option<Value> {
        if !self.cx.icv.may_set
            || !matches!(
                name,
                "omp_get_thread_num"
                    | "omp_get_num_threads"
                    | "omp_in_parallel"
                    | "omp_get_active_level"
            )
        {
            return None;
        }
        let (is_hw, size) = self.icv_team();
        let z = self.b.ins().iconst(Type::I32, 0);
        let one = self.b.ins().iconst(Type::I32, 1);
        Some(match name {
            "omp_get_thread_num" | "omp_get_num_threads" => {
                // the block's team is the innermost region only at level 1
                let l = self.icv_level();
                let at1 = self.b.ins().icmp(IntCC::Eq, l, one);
                let inner = self.b.ins().and(is_hw, at1);
                if name == "omp_get_thread_num" {
                    let t = self.b.ins().sreg(SpecialReg::TidX);
                    self.b.ins().select(inner, t, z)
                } else {
                    self.b.ins().select(inner, size, one)
                }
            }
            _ => {
                // an enclosing region is active: the level-1 team has more than one thread
                let many = self.b.ins().icmp(IntCC::Ugt, size, one);
                let c = self.b.ins().and(is_hw, many);
                self.b.ins().zext(Type::I32, c)
            }
        })
    }

    fn icv_leave(&mut self, s: Saved) {
        if self.b.current_block().is_none() {
            return;
        }
        let r = self.icv_record(None);
        for (i, off) in [NTHREADS, CHUNK, DEVICE, FLAGS].into_iter().enumerate() {
            let a = self.offset(r, off);
            self.store_raw(a, s.words[i], false);
        }
    }

    /// `e` as an `i32` (0 or not), for a clause expression.
    pub(crate) fn cond_i32(&mut self, e: &'a Expr) -> Option<Value> {
        let cls = self.class_of_conv(e)?;
        let v = self.scalar(e)?;
        let v = match cls {
            Scalar::Float(t) => {
                let z = self.b.ins().fconst(t, 0.0);
                let ne = self.b.ins().fcmp(ompcc_ir::FloatCC::One, v, z);
                return Some(self.b.ins().zext(Type::I32, ne));
            }
            Scalar::Ptr => self.b.ins().ptrtoint(Type::I64, v),
            _ => v,
        };
        let t = self.b.value_type(v);
        let z = self.b.ins().iconst(t, 0);
        let ne = self.b.ins().icmp(IntCC::Ne, v, z);
        Some(self.b.ins().zext(Type::I32, ne))
    }

    /// The generic address of this thread's record (`None`) or of record `index`.
    fn icv_record(&mut self, index: Option<i64>) -> Addr {
        let name = match &self.cx.icv.array {
            Some(n) => n.clone(),
            None => {
                let n = self.cx.unique_name("__ompcc_icv");
                self.cx
                    .module
                    .linkage
                    .insert(n.clone(), ompcc_ir::Linkage::Internal);
                self.cx.module.globals.push(GlobalData {
                    name: n.clone(),
                    space: AddrSpace::Shared,
                    size: ((MAX_THREADS + 1) * RECORD) as u64,
                    align: RECORD as u32,
                    init: None,
                });
                self.cx.icv.array = Some(n.clone());
                n
            }
        };
        let gr = self.b.import_global(&name, AddrSpace::Shared);
        let sp = self.b.ins().global_addr(gr);
        let base = self.b.ins().addrspacecast(Type::PTR, sp);
        let off = match index {
            Some(i) => self.b.ins().iconst(Type::I64, i * RECORD),
            None => {
                let t = self.b.ins().sreg(SpecialReg::TidX);
                let t = self.b.ins().zext(Type::I64, t);
                let k = self.b.ins().iconst(Type::I64, RECORD);
                self.b.ins().imul(t, k)
            }
        };
        let ptr = self.b.ins().ptr_offset(base, off);
        Addr {
            ptr,
            space: AddrSpace::Generic,
            align: RECORD as u32,
        }
    }

    fn icv_load(&mut self, field: i64) -> Value {
        let r = self.icv_record(None);
        let a = self.offset(r, field);
        self.load_raw(a, Type::I32, false)
    }

    fn icv_store(&mut self, field: i64, v: Value) {
        let r = self.icv_record(None);
        let a = self.offset(r, field);
        self.store_raw(a, v, false);
    }

    /// The generic address of the device-scope word `which`.
    fn device_icv(&mut self, which: &'static str) -> Value {
        let name = match self.cx.icv.device.get(which) {
            Some(n) => n.clone(),
            None => {
                let n = self.cx.unique_name(&format!("__ompcc_icv_{which}"));
                self.cx
                    .module
                    .linkage
                    .insert(n.clone(), ompcc_ir::Linkage::Internal);
                self.cx.module.globals.push(GlobalData {
                    name: n.clone(),
                    space: AddrSpace::Global,
                    size: 4,
                    align: 4,
                    init: Some(vec![0; 4]),
                });
                self.cx.icv.device.insert(which, n.clone());
                n
            }
        };
        let gr = self.b.import_global(&name, AddrSpace::Global);
        let g = self.b.ins().global_addr(gr);
        self.b.ins().addrspacecast(Type::PTR, g)
    }

    /// Argument `i` as an `int`.
    fn int_arg(&mut self, args: &'a [Expr], i: usize, name: &str, span: Span) -> Option<Value> {
        let Some(a) = args.get(i) else {
            self.unsupported(format!("'{name}' needs {} arguments", i + 1), span);
            return None;
        };
        let cls = self.class_of_conv(a)?;
        let v = self.scalar(a)?;
        Some(self.convert(v, cls, Scalar::INT))
    }

    /// Argument `i` as a pointer.
    fn ptr_arg(&mut self, args: &'a [Expr], i: usize, name: &str, span: Span) -> Option<Value> {
        let Some(a) = args.get(i) else {
            self.unsupported(format!("'{name}' needs {} arguments", i + 1), span);
            return None;
        };
        self.scalar(a)
    }

    /// Rejects `name` where the thread may fork a team after it (module docs).
    fn no_fork_after(&mut self, name: &str, span: Span) -> bool {
        if self.par.main && self.generic.is_some() {
            self.unsupported(
                format!(
                    "'{name}' is not supported in the sequential part of a target region whose \
                     'parallel' constructs fork the team: the team's size is fixed when the \
                     kernel is launched"
                ),
                span,
            );
            return false;
        }
        true
    }

    /// A call of a routine of this module or of `allocator`; `None` when `name` is not one
    /// of them.
    pub(crate) fn omp_icv_api(
        &mut self,
        name: &str,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Rv>> {
        if let Some(why) = not_on_device(name) {
            self.unsupported(
                format!("the OpenMP routine '{name}' is not supported in device code: {why}"),
                span,
            );
            return Some(None);
        }
        let alloc = self.omp_allocator(name, args, info, span);
        if alloc.is_some() {
            return alloc;
        }
        if !ROUTINES.contains(&name)
            && !matches!(
                name,
                "omp_get_max_threads"
                    | "omp_in_final"
                    | "omp_get_level"
                    | "omp_get_ancestor_thread_num"
                    | "omp_get_team_size"
            )
        {
            return None;
        }
        let state = self.cx.icv.may_set;
        let int = |fl: &mut Self, x: i64| Some(fl.b.ins().iconst(Type::I32, x));
        let v: Option<Value> = match name {
            "omp_get_max_threads" => {
                let base = self.omp_api(name, &[], info.ty)?;
                if !state {
                    return Some(Some(Rv::S(base)));
                }
                // A new team has at most nthreads-var threads, so once set it is the bound
                // (as the host's routine answers); unset, the team's threads.
                let cls = self.class(info.ty, span).unwrap_or(Scalar::INT);
                let base = self.convert(base, cls, Scalar::INT);
                let n = self.icv_load(NTHREADS);
                let z = self.b.ins().iconst(Type::I32, 0);
                let set = self.b.ins().icmp(IntCC::Sgt, n, z);
                Some(self.b.ins().select(set, n, base))
            }
            "omp_in_final" if state => {
                let f = self.icv_load(FLAGS);
                let bit = self.b.ins().iconst(Type::I32, FINAL);
                let x = self.b.ins().and(f, bit);
                let z = self.b.ins().iconst(Type::I32, 0);
                let c = self.b.ins().icmp(IntCC::Ne, x, z);
                Some(self.b.ins().zext(Type::I32, c))
            }
            "omp_in_final" => int(self, 0),
            "omp_get_level" if state => Some(self.icv_level()),
            "omp_get_ancestor_thread_num" | "omp_get_team_size" if state => {
                let l = self.int_arg(args, 0, name, span)?;
                Some(self.ancestor(name == "omp_get_team_size", l))
            }
            "omp_set_num_threads" => {
                let n = self.int_arg(args, 0, name, span)?;
                if self.no_fork_after(name, span) {
                    // a non-positive argument changes nothing (implementation defined)
                    let old = self.icv_load(NTHREADS);
                    let z = self.b.ins().iconst(Type::I32, 0);
                    let pos = self.b.ins().icmp(IntCC::Sgt, n, z);
                    let v = self.b.ins().select(pos, n, old);
                    self.icv_store(NTHREADS, v);
                }
                None
            }
            // Dynamic adjustment is not supported: dyn-var stays false (18.2.6).
            "omp_set_dynamic" => {
                self.int_arg(args, 0, name, span)?;
                None
            }
            // One supported active level: true sets max-active-levels-var to 1; false leaves
            // it (it is never above 1).
            "omp_set_nested" => {
                let x = self.int_arg(args, 0, name, span)?;
                if state {
                    let f = self.icv_load(FLAGS);
                    let keep = self.b.ins().iconst(Type::I32, !NO_LEVELS);
                    let cleared = self.b.ins().and(f, keep);
                    let z = self.b.ins().iconst(Type::I32, 0);
                    let on = self.b.ins().icmp(IntCC::Ne, x, z);
                    let v = self.b.ins().select(on, cleared, f);
                    self.icv_store(FLAGS, v);
                }
                None
            }
            "omp_get_schedule" => {
                let kp = self.ptr_arg(args, 0, name, span)?;
                let cp = self.ptr_arg(args, 1, name, span)?;
                let (kind, chunk) = if state {
                    let f = self.icv_load(FLAGS);
                    let m = self.b.ins().iconst(Type::I32, KIND);
                    let k = self.b.ins().and(f, m);
                    let one = self.b.ins().iconst(Type::I32, 1);
                    let k = self.b.ins().xor(k, one);
                    let mb = self.b.ins().iconst(Type::I32, MONOTONIC);
                    let mono = self.b.ins().and(f, mb);
                    let z = self.b.ins().iconst(Type::I32, 0);
                    let is = self.b.ins().icmp(IntCC::Ne, mono, z);
                    let hb = self.b.ins().iconst(Type::I32, SCHED_MONOTONIC);
                    let hi = self.b.ins().select(is, hb, z);
                    let kind = self.b.ins().or(k, hi);
                    (kind, self.icv_load(CHUNK))
                } else {
                    let k = self.b.ins().iconst(Type::I32, 1);
                    (k, self.b.ins().iconst(Type::I32, 0))
                };
                for (p, v) in [(kp, kind), (cp, chunk)] {
                    let a = Addr {
                        ptr: p,
                        space: AddrSpace::Generic,
                        align: 4,
                    };
                    self.store_raw(a, v, false);
                }
                None
            }
            "omp_set_schedule" => {
                let kind = self.int_arg(args, 0, name, span)?;
                let chunk = self.int_arg(args, 1, name, span)?;
                self.set_schedule(kind, chunk);
                None
            }
            "omp_get_max_active_levels" if state => {
                let f = self.icv_load(FLAGS);
                let bit = self.b.ins().iconst(Type::I32, NO_LEVELS);
                let x = self.b.ins().and(f, bit);
                let z = self.b.ins().iconst(Type::I32, 0);
                let c = self.b.ins().icmp(IntCC::Eq, x, z);
                Some(self.b.ins().zext(Type::I32, c))
            }
            "omp_get_max_active_levels" | "omp_get_supported_active_levels" => int(self, 1),
            "omp_set_max_active_levels" => {
                let n = self.int_arg(args, 0, name, span)?;
                if self.no_fork_after(name, span) {
                    // min(n, 1 supported level); a negative argument changes nothing
                    let f = self.icv_load(FLAGS);
                    let keep = self.b.ins().iconst(Type::I32, !NO_LEVELS);
                    let cleared = self.b.ins().and(f, keep);
                    let bit = self.b.ins().iconst(Type::I32, NO_LEVELS);
                    let zeroed = self.b.ins().or(cleared, bit);
                    let z = self.b.ins().iconst(Type::I32, 0);
                    let is0 = self.b.ins().icmp(IntCC::Eq, n, z);
                    let v = self.b.ins().select(is0, zeroed, cleared);
                    let neg = self.b.ins().icmp(IntCC::Slt, n, z);
                    let v = self.b.ins().select(neg, f, v);
                    self.icv_store(FLAGS, v);
                }
                None
            }
            "omp_get_default_device" if state => Some(self.icv_load(DEVICE)),
            "omp_get_default_device" => int(self, 0),
            "omp_set_default_device" => {
                let n = self.int_arg(args, 0, name, span)?;
                self.icv_store(DEVICE, n);
                None
            }
            "omp_get_max_teams" | "omp_get_teams_thread_limit" if state => {
                let which = if name == "omp_get_max_teams" {
                    "nteams"
                } else {
                    "teams_thread_limit"
                };
                let p = self.device_icv(which);
                let a = Addr {
                    ptr: p,
                    space: AddrSpace::Generic,
                    align: 4,
                };
                Some(self.load_raw(a, Type::I32, true))
            }
            "omp_get_max_teams" | "omp_get_teams_thread_limit" => int(self, 0),
            "omp_set_num_teams" | "omp_set_teams_thread_limit" => {
                let n = self.int_arg(args, 0, name, span)?;
                let which = if name == "omp_set_num_teams" {
                    "nteams"
                } else {
                    "teams_thread_limit"
                };
                // a non-positive argument changes nothing (implementation defined)
                let z = self.b.ins().iconst(Type::I32, 0);
                let pos = self.b.ins().icmp(IntCC::Sgt, n, z);
                let set = self.b.create_block();
                let done = self.b.create_block();
                self.b.ins().brif(pos, set, &[], done, &[]);
                self.b.switch_to_block(set);
                let p = self.device_icv(which);
                self.b
                    .ins()
                    .atomic_rmw(AtomicRmwOp::Xchg, AddrSpace::Generic, Scope::Gpu, p, n);
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(done);
                None
            }
            // No cancellation, no places or binding, no task priorities on the device.
            "omp_get_cancellation"
            | "omp_get_proc_bind"
            | "omp_get_num_places"
            | "omp_get_partition_num_places"
            | "omp_get_max_task_priority" => int(self, 0),
            "omp_get_place_num" => int(self, -1),
            "omp_get_place_num_procs" => {
                self.int_arg(args, 0, name, span)?;
                int(self, 0)
            }
            // Nothing to write for a place that does not exist.
            "omp_get_place_proc_ids" | "omp_get_partition_place_nums" => {
                for a in args {
                    self.effect(a);
                }
                None
            }
            // The processors of the device available to the region: the league's threads.
            "omp_get_num_procs" => {
                let t = self.b.ins().sreg(SpecialReg::NtidX);
                let n = self.num_teams();
                Some(self.b.ins().imul(t, n))
            }
            // A target region cannot relinquish its own device's resources: nonzero.
            "omp_pause_resource" | "omp_pause_resource_all" => {
                for a in args {
                    self.effect(a);
                }
                int(self, -1)
            }
            _ => return None,
        };
        Some(Some(match v {
            None => Rv::Void,
            Some(v) => {
                let want = self.class(info.ty, span).unwrap_or(Scalar::INT);
                Rv::S(self.convert(v, Scalar::INT, want))
            }
        }))
    }

    /// levels-var of the current task (`i32`).
    fn icv_level(&mut self) -> Value {
        let f = self.icv_load(FLAGS);
        let sh = self.b.ins().iconst(Type::I32, LEVEL_SHIFT);
        let l = self.b.ins().lshr(f, sh);
        let m = self.b.ins().iconst(Type::I32, 0xff);
        self.b.ins().and(l, m)
    }

    /// `omp_get_ancestor_thread_num(l)` (or `omp_get_team_size(l)` when `size`), from the
    /// record alone (so exact in device functions too): every level up to the current one is
    /// a team of one (level 0, the initial task's, and every inactive region) except level 1
    /// when it is the block's team (the only active level the device has); other levels
    /// are -1.
    fn ancestor(&mut self, size: bool, l: Value) -> Value {
        let level = self.icv_level();
        let f = self.icv_load(FLAGS);
        let hwb = self.b.ins().iconst(Type::I32, HW_TEAM);
        let hw = self.b.ins().and(f, hwb);
        let z = self.b.ins().iconst(Type::I32, 0);
        let is_hw = self.b.ins().icmp(IntCC::Ne, hw, z);
        let one = self.b.ins().iconst(Type::I32, 1);
        let at1 = self.b.ins().icmp(IntCC::Eq, l, one);
        let hw1 = self.b.ins().and(is_hw, at1);
        let (team, alone) = if size {
            (self.team_size_of(f), one)
        } else {
            (self.b.ins().sreg(SpecialReg::TidX), z)
        };
        let v = self.b.ins().select(hw1, team, alone);
        let neg = self.b.ins().icmp(IntCC::Slt, l, z);
        let deep = self.b.ins().icmp(IntCC::Sgt, l, level);
        let bad = self.b.ins().or(neg, deep);
        let m1 = self.b.ins().iconst(Type::I32, -1);
        self.b.ins().select(bad, m1, v)
    }

    /// `omp_set_schedule(kind, chunk)` (18.2.11): an unknown kind changes nothing; static
    /// takes a chunk below 1 as none (0), dynamic and guided as 1; auto keeps the chunk.
    fn set_schedule(&mut self, kind: Value, chunk: Value) {
        if !self.cx.icv.may_set {
            return;
        }
        let ins = |fl: &mut Self, x: i64| fl.b.ins().iconst(Type::I32, x);
        let low = ins(self, 0x7fff_ffff);
        let k = self.b.ins().and(kind, low);
        let one = ins(self, 1);
        let four = ins(self, 4);
        let ge1 = self.b.ins().icmp(IntCC::Sge, k, one);
        let le4 = self.b.ins().icmp(IntCC::Sle, k, four);
        let valid = self.b.ins().and(ge1, le4);
        let f = self.icv_load(FLAGS);
        let old_chunk = self.icv_load(CHUNK);
        // flags: kind xor 1, the monotonic bit from the kind's top bit
        let keep = ins(self, !(KIND | MONOTONIC));
        let cleared = self.b.ins().and(f, keep);
        let kx = self.b.ins().xor(k, one);
        let z = ins(self, 0);
        let neg = self.b.ins().icmp(IntCC::Slt, kind, z);
        let mb = ins(self, MONOTONIC);
        let mono = self.b.ins().select(neg, mb, z);
        let nf = self.b.ins().or(cleared, kx);
        let nf = self.b.ins().or(nf, mono);
        // chunk
        let small = self.b.ins().icmp(IntCC::Slt, chunk, one);
        let is_static = self.b.ins().icmp(IntCC::Eq, k, one);
        let floor = self.b.ins().select(is_static, z, one);
        let c = self.b.ins().select(small, floor, chunk);
        let is_auto = self.b.ins().icmp(IntCC::Eq, k, four);
        let c = self.b.ins().select(is_auto, old_chunk, c);
        let nf = self.b.ins().select(valid, nf, f);
        let c = self.b.ins().select(valid, c, old_chunk);
        self.icv_store(FLAGS, nf);
        self.icv_store(CHUNK, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routines_that_need_the_record_are_lowered_here() {
        for r in NEEDS_RECORD {
            assert!(crate::is_device_api(r), "{r} is not a device API routine");
        }
    }
}
