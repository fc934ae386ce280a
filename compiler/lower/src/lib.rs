//! Typed AST -> SSA IR for the code that runs on the device: device functions and the
//! kernels outlined from `target` regions.
//!
//! [`lower_device_unit`] is the offloading entry point: given the unit's
//! `ompcc_omp::OffloadPlan`, it lowers the `declare target` functions (as [`lower_functions`]
//! does), one kernel per target region (`.entry` named `region.kernel`, parameters exactly
//! `region.params`: Ref/DevicePtr as generic pointers, Value as the variable's scalar type),
//! the functions those call, and the plan's `declare target` globals (module globals with
//! their C names). Kernel semantics (module `kernel`): Spmd regions run their collapsed loop
//! nest as one grid-stride loop over a 64-bit trip count (thread k takes iterations k, k+G,
//! ...; static schedule and dist_schedule chunks are treated as this cyclic assignment, which
//! gives the same results for conforming programs; forms without `teams`, such as `target
//! parallel for`, are one parallel region: team 0's threads share the iterations, other teams
//! return); `target parallel` runs its body on the
//! threads of team 0 (nested `for` split over the team and ended by a barrier unless
//! `nowait`; `single` on thread 0 then a barrier; `scope` on every thread, its reductions
//! combined into the originals, then a barrier unless `nowait`; `master`/`masked`; `barrier`; `sections`
//! run by thread 0); generic `teams` regions run their sequential code on thread 0 of each team (nested
//! `distribute` split over the teams) and fork the team's other threads, waiting at a barrier,
//! for each nested `parallel` (module `generic`); serial regions on one thread. Everywhere: `critical` (a global lock taken one lane
//! of a warp at a time), `atomic`, `private`/`firstprivate`/`lastprivate` (the thread that ran
//! the sequentially last iteration writes back; loop variables get their value after the
//! loop; a non-rectangular collapsed nest then runs on one worker, in order), `linear`
//! (integers: `x + k * step` per logical iteration `k`), private arrays (per-thread stack
//! slots), reductions `+ * - min max & | ^ && ||` on every integer type and `_Bool` (narrow
//! ones combined in 32 bits) and `+ * - min max && ||` on float and double (private copy per thread, then a warp
//! shuffle tree and one atomic per warp at the top level, an atomic per thread in nested
//! constructs; `atom.add/min/max/and/or/xor` where they exist, CAS loops otherwise), the
//! OpenMP device API as special registers (`omp_get_thread_num` = tid.x inside parallel
//! work, 0 in a team of one; `omp_get_team_num` = the block's number, ctaid.x in a
//! one-dimensional grid; `omp_is_initial_device` = 0).
//! `task` and `taskloop` run undeferred (module `task`), a `taskloop` split into tasks as
//! libgomp splits it (module `taskloop`).
//! Not supported in target regions (an `E0803` error at the construct): `ordered` where
//! iterations run on several threads, `scan`, `cancel`, `copyprivate`/`copyin`,
//! `task_reduction` on a `taskgroup` every thread of a team runs, a `taskloop` over a
//! non-rectangular collapsed nest, reductions over members, `linear` on non-integers, collapsed loops whose bounds use an
//! outer iteration variable with `lastprivate` and a `schedule` clause (without
//! `lastprivate`, the loops from the first such one inward run whole in each distributed
//! iteration); target-level `firstprivate` scalars that a nested `parallel`
//! shares are private per thread.
//!
//! [`lower_functions`] selects the device functions of a checked translation unit (those
//! inside `declare target` / `begin declare target`, named by `declare target(list)`, or all
//! definitions), lowers each to an `ompcc_ir::Function`, and pulls in every function of the
//! unit they call (implicitly declare target, as OpenMP 5.x says). The result verifies with
//! `ompcc_ir::verify_module`, also when diagnostics were reported: a function whose body could
//! not be lowered gets a body that traps, so callers stay valid.
//!
//! Lowering strategy (the clang one): every local lives in a stack slot and is read and written
//! through `load`/`store`; `mem2reg`/`sroa` promote the slots whose address never escapes.
//! C pointers are generic `ptr`s; addresses of locals stay `ptr(local)` until they escape, so
//! accesses to them can be promoted. Structs and unions are handled through their address (by
//! value copies are unit-wise loads and stores); struct parameters and results pass through
//! pointers to caller-owned copies. Everything the device cannot do is an `E08xx` error at
//! the construct, never a panic and never silently wrong code.
//!
//! Lowered: integer and float arithmetic of every width with C's conversions (as sema
//! recorded them), `_Bool`, pointers and pointer arithmetic, arrays, pointers to VLAs (run-time
//! strides), structs/unions by value and by pointer, bitfields, every statement (loops,
//! `switch` as compares or `br_table`, `goto`), `&&`/`||`/`?:` as control flow, compound
//! assignment, `++`/`--`, casts, `sizeof` (VLAs too), compound literals, designated
//! initializers, statement expressions, recursion, static locals and file-scope objects as
//! module globals with constant initializers (addresses of objects, members, array elements,
//! functions, string literals and compound literals, plus constant offsets, as IR
//! relocations), string literals, variadic functions, their calls (direct and through
//! pointers) and `va_start`/`va_arg`/`va_copy`/`va_end` (module `varargs`: a hidden trailing
//! pointer to a caller-owned buffer of the promoted arguments, each aligned to its size;
//! `va_list` keeps its host type and holds the cursor in its first 8 bytes), `printf` (as
//! `vprintf` with the same buffer, CUDA's layout), `assert`/`abort`, bit builtins, the exact math
//! builtins (`__builtin_sqrt`, `fma`, `fmin`/`fmax`, `copysign`, `floor`, `ceil`, `trunc`:
//! single IR operations), `__builtin_tgmath`, function pointers (`func_addr`, calls through
//! them as `call_indirect`), local VLAs (`stack_alloc`; the block's stack top is saved before
//! its first VLA and restored when the block ends or a `break`/`continue` leaves it; a `goto`
//! out of it keeps the memory until the function returns), `#pragma omp atomic` in every
//! OpenMP 5.2 form (module `atomic`: read, write, update, capture with the block forms and
//! swap, compare with min/max and compare-and-swap forms: one atomic instruction where one
//! gives the exact result, a compare-and-swap loop computing in C's types otherwise), the
//! GNU atomic builtins `__atomic_*`/`__sync_*` behind `<stdatomic.h>` and C11 `_Atomic`
//! objects (module `atomic_builtin`: 1-8 byte objects, memory orders as fences, 1- and 2-byte
//! objects by compare-and-swap on the containing word), the OpenMP lock API (module `lock`:
//! compare-and-swap spin locks, nest locks owned by the grid-wide thread index), the
//! `<math.h>` classification builtins (module `fpclass`: `isnan`, `isinf`, `signbit`,
//! `fpclassify`, ...), `simd` without privatization (run in order), `flush` (a fence),
//! `_Complex float`/`double` (module `complex`: values in memory like structs, gcc's
//! real/complex mixing, `*` and `/` computed as libgcc does). OpenMP API calls ([`is_device_api`]) are lowered inline; calls to
//! the device library ([`is_device_library_function`]) stay calls to external functions.
//!
//! Diagnosed (`E0801`-`E0808`): calls to functions without a device body (and their
//! addresses; variadic C library functions other than `printf` and the device library's
//! `snprintf` family among them), `va_start` outside a variadic function, `setjmp`/`longjmp`, inline assembly, `long double` (and its `_Complex`), `__int128`,
//! thread-locals, global initializers that are neither constants nor constant addresses,
//! other OpenMP directives inside device functions. `E0899` reports
//! a lowering bug caught by the verifier instead of emitting invalid IR.
//!
//! Source locations: with `LowerOptions::source_map`, each statement's instructions carry its
//! start (file, line, column) and each expression's own instructions carry the expression's
//! start; a function's prologue has its declarator's location and the implicit return the
//! closing brace's.

mod allocator;
mod atomic;
mod atomic_builtin;
mod complex;
mod const_table;
mod coop;
mod ctx;
mod expr;
mod flatten;
mod fpclass;
mod func;
mod generic;
mod hints;
mod host_library;
mod icv;
mod indirect;
mod init_image;
mod kernel;
mod link;
mod lock;
mod one_iteration;
mod privatize;
mod schedule;
mod task;
mod taskloop;
mod tiles;
mod ty;
mod varargs;
mod variant;
mod walk;
mod worksharing;

use ompcc_diag::Diagnostic;
use ompcc_omp::{GridRemark, OffloadPlan};

pub use const_table::PASS as CONST_TABLES_REMARK;
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::TranslationUnit;

pub use ctx::{DEVICE_API, is_device_api, is_device_library_function};
pub use indirect::{functions_global, indirect_functions, table_global};

/// Which function definitions of the unit become device functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionSelection {
    /// Functions inside `declare target` regions or named by `declare target(list)` /
    /// `declare target enter(list)` / `to(list)`.
    DeclareTarget,
    /// Every function definition (`--device-only`).
    All,
    /// The definitions with these names.
    Named(Vec<String>),
}

/// Lowering options.
#[derive(Clone, Debug)]
pub struct LowerOptions<'a> {
    /// Also lower every function of the unit that a selected function calls (default true).
    pub include_callees: bool,
    /// The unit's source map: when given, every instruction carries the file, line and column
    /// of the statement or expression it implements (`!loc`, PTX `.loc` under `-g`).
    pub source_map: Option<&'a ompcc_diag::SourceMap>,
    /// The unit's id (`ompcc_omp::unit_id`): unique names of the unit's program-wide device
    /// symbols (the `declare target indirect` tables).
    pub unit_id: String,
    /// Direct calls in device code that call a `declare variant` instead of the base
    /// function: the callee expression and the variant (`ompcc_omp::device_variant_calls`).
    pub variant_calls:
        Option<&'a rustc_hash::FxHashMap<ompcc_syntax::ast::ExprId, ompcc_sema::SymbolId>>,
    /// The target calls of `dispatch` constructs in device code: the callee expression and
    /// the function chosen with `dispatch` in the construct set (`None`: the base function;
    /// `ompcc_omp::device_dispatch_calls`).
    pub dispatch_calls:
        Option<&'a rustc_hash::FxHashMap<ompcc_syntax::ast::ExprId, Option<ompcc_sema::SymbolId>>>,
    /// Small `const` tables are read from `.const` copies (`-C const-tables`, module
    /// `const_table`; default off).
    pub const_tables: bool,
}

impl Default for LowerOptions<'_> {
    fn default() -> Self {
        LowerOptions {
            include_callees: true,
            source_map: None,
            unit_id: "0".to_owned(),
            variant_calls: None,
            dispatch_calls: None,
            const_tables: false,
        }
    }
}

/// Lowers the selected functions of a checked translation unit to one IR module.
///
/// Diagnostics are `E08xx` errors for constructs the device cannot run (and `W08xx` warnings);
/// the module is valid IR whatever they say.
pub fn lower_functions(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    which: &FunctionSelection,
    opts: &LowerOptions<'_>,
) -> (ompcc_ir::Module, Vec<Diagnostic>) {
    let (module, diags, _) = lower_functions_with_remarks(tu, typed, which, opts);
    (module, diags)
}

/// [`lower_functions`], with the remarks about what lowering placed where
/// (`-Rpass=const-tables`).
pub fn lower_functions_with_remarks(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    which: &FunctionSelection,
    opts: &LowerOptions<'_>,
) -> (ompcc_ir::Module, Vec<Diagnostic>, Vec<GridRemark>) {
    let mut cx = new_ctx(tu, typed, opts);
    let selected = cx.select(which);
    cx.icv.may_set = icv::device_code_sets_icvs(tu, typed, &[], &selected);
    for sym in selected {
        cx.enqueue(sym);
    }
    cx.run();
    cx.finish_with_remarks()
}

fn new_ctx<'a>(
    tu: &'a TranslationUnit,
    typed: &'a TypedUnit,
    opts: &LowerOptions<'a>,
) -> ctx::Ctx<'a> {
    let mut cx = ctx::Ctx::new(tu, typed, opts.include_callees, opts.source_map);
    cx.const_budget = opts.const_tables.then_some(const_table::CONST_BUDGET);
    cx
}

/// Lowers a translation unit's device code: the functions `which` selects (as
/// [`lower_functions`] does), one kernel per target region of `plan` (named `region.kernel`,
/// parameters exactly `region.params`), the functions they call, and the `declare target`
/// globals of the plan (each a module global named as in C, so the host can find it).
///
/// Diagnostics are `E08xx` (code the device cannot run) and `E09xx` (OpenMP constructs not
/// supported in target regions), each at the construct; the module is valid IR whatever they
/// say (a kernel that could not be lowered traps).
pub fn lower_device_unit(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    plan: &OffloadPlan<'_>,
    which: &FunctionSelection,
    opts: &LowerOptions<'_>,
) -> (ompcc_ir::Module, Vec<Diagnostic>) {
    let (module, diags, _) = lower_device_unit_with_remarks(tu, typed, plan, which, opts);
    (module, diags)
}

/// [`lower_device_unit`], with the remarks about what lowering placed where
/// (`-Rpass=const-tables`).
pub fn lower_device_unit_with_remarks(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    plan: &OffloadPlan<'_>,
    which: &FunctionSelection,
    opts: &LowerOptions<'_>,
) -> (ompcc_ir::Module, Vec<Diagnostic>, Vec<GridRemark>) {
    let mut cx = new_ctx(tu, typed, opts);
    for r in &plan.regions {
        if !cx.reserve_name(&r.kernel) {
            cx.error(
                "E0911",
                format!("kernel name '{}' is used twice in this unit", r.kernel),
                r.directive.span,
            );
        }
    }
    let selected = cx.select(which);
    let regions: Vec<_> = plan.regions.iter().map(|r| r.directive).collect();
    // The OpenMP API in functions a forking generic region calls answers from the records
    // (module `icv`).
    cx.icv.may_set = icv::device_code_sets_icvs(tu, typed, &regions, &selected)
        || plan.regions.iter().any(|r| {
            r.forks_team
                && r.directive
                    .body
                    .as_deref()
                    .is_some_and(|b| ompcc_omp::generic_region_calls(tu, b))
        });
    for sym in selected {
        cx.enqueue(sym);
    }
    for &g in &plan.device_globals {
        let span = typed.symbols[g].span;
        let _ = cx.object_global(g, "", span);
    }
    cx.define_link_refs();
    cx.unit_id = Some(opts.unit_id.clone());
    if let Some(v) = opts.variant_calls {
        cx.variant_calls = v.clone();
    }
    if let Some(v) = opts.dispatch_calls {
        cx.dispatch_calls = v.clone();
    }
    cx.define_indirect_functions(&opts.unit_id);
    for r in &plan.regions {
        let mut noalias = r.disjoint.clone();
        noalias.sort_unstable();
        noalias.dedup();
        let errors = cx.diags.iter().filter(|d| d.is_error()).count();
        let mut f = kernel::lower_kernel(&mut cx, r);
        f.attrs.noalias = noalias.clone();
        cx.module.functions.push(f);
        let lowered = cx.diags.iter().filter(|d| d.is_error()).count() == errors;
        if r.one_iteration && lowered {
            let mut f = kernel::lower_one_iteration_kernel(&mut cx, r);
            f.attrs.noalias = noalias;
            cx.module.functions.push(f);
        }
    }
    cx.run();
    cx.finish_with_remarks()
}
