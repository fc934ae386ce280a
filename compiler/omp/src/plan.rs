//! The offload plan: plain data from the OpenMP analysis to lowering and to the host rewrite.

use ompcc_diag::{Diagnostic, Span};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{Expr, FunctionDef, MapModifier, MapType, OmpDirective, ReductionOp, Stmt};

/// Every device construct of one translation unit.
#[derive(Debug, Default)]
pub struct OffloadPlan<'a> {
    /// `target` constructs, in source order; `kernel` names are unique in the unit.
    pub regions: Vec<TargetRegion<'a>>,
    /// Stand-alone and structured data constructs, in source order.
    pub data: Vec<DataConstruct<'a>>,
    /// File-scope variables that live on the device (`declare target`), in source order.
    pub device_globals: Vec<SymbolId>,
}

/// How a kernel runs (DESIGN section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecMode {
    /// Every thread of the grid runs the region; a distributed / worksharing loop at its top
    /// hands iterations out cyclically across all threads of the grid.
    Spmd,
    /// One thread per team runs the region (sequential code around nested `parallel` or
    /// `distribute`); nested parallel regions run on that thread.
    Generic,
    /// A single thread on a single team (`target` with sequential code, `target simd`).
    Serial,
}

/// How the launch honours the `if` of an SPMD region's `parallel` (`TargetRegion::parallel_if`).
#[derive(Debug, Clone, Copy)]
pub enum ParallelIf<'a> {
    /// A condition the host evaluates before the launch to the region's value: one thread
    /// per team when it is false.
    Host(&'a Expr),
    /// A condition only the region could evaluate (the device's copy of a variable, memory,
    /// a call): one thread per team whatever it is, a number of threads OpenMP allows (W0913).
    One,
}

/// One `target` construct.
#[derive(Debug)]
pub struct TargetRegion<'a> {
    /// The `target ...` directive (its `body` is the region).
    pub directive: &'a OmpDirective,
    /// The function that contains it.
    pub function: &'a FunctionDef,
    /// PTX `.entry` name: `__omp_offload_<function>_l<line>[_<n>]`, unique in the unit;
    /// `__omp_offload_<function>_<unit id>_l<line>[_<n>]` in a `static` or `inline` function,
    /// so that it is unique in the linked program too.
    pub kernel: String,
    /// Execution mode.
    pub mode: ExecMode,
    /// Generic mode only: whether the team's main thread forks the team at nested
    /// `parallel` constructs (the host then launches `thread_limit` threads per team, one
    /// otherwise); see `generic_region_forks`.
    pub forks_team: bool,
    /// A `teams` construct is in the region's directive chain: the kernel's blocks are a
    /// league of teams. Without one the region is a single team, and only block 0 works.
    pub league: bool,
    /// The loop-associated construct whose iterations are distributed (the combined
    /// directive itself, or the one directive nested directly in a `target` / `target teams`),
    /// with its collapse depth. `None` for non-loop regions.
    pub loop_nest: Option<LoopNest<'a>>,
    /// Kernel parameters in order.
    pub params: Vec<Param<'a>>,
    /// Map entries that feed no parameter (more sections of a mapped variable, struct members
    /// besides the parent, ...), for the host side.
    pub extra_maps: Vec<MapItem<'a>>,
    /// Reductions of the construct (combined forms), in clause order.
    pub reductions: Vec<Reduction<'a>>,
    /// `num_teams(e)`, `thread_limit(e)`, `if([target:] e)`, `device(e)` as written.
    pub num_teams: Option<&'a Expr>,
    pub thread_limit: Option<&'a Expr>,
    /// `num_threads(e)` of a `parallel` in the region's chain (the combined directive, a
    /// `parallel` that is the whole body of `target`, or the loop's directive).
    pub num_threads: Option<&'a Expr>,
    /// SPMD only: the `if` that applies to the `parallel` in the region's chain
    /// (`if(parallel: c)`, or `if(c)` on a `parallel` not combined with `target`).
    pub parallel_if: Option<ParallelIf<'a>>,
    pub if_cond: Option<&'a Expr>,
    pub device: Option<&'a Expr>,
    /// `nowait` was given (ompcc runs the region synchronously all the same).
    pub nowait: bool,
    /// The grid mapping when it is not the nest as written (`map_grids`): then
    /// `loop_nest.outer` is the loop whose iterations the threads take.
    pub grid: Option<GridMapping<'a>>,
    /// Work arrays laid out thread-minor (`map_grids`, issue 16 item 5).
    pub layouts: Vec<PrivateLayout<'a>>,
    /// Indices into `params` of the address parameters proven disjoint from all other memory
    /// the kernel reaches (`map_grids` with `noalias_maps`, module `disjoint`); lowering
    /// marks them `noalias`.
    pub disjoint: Vec<u32>,
    /// The region also gets a one-iteration kernel `<kernel>_one`, which the runtime launches
    /// when every iteration can have a thread (`choose_one_iteration`).
    pub one_iteration: bool,
    /// Arrays whose neighbourhoods the one-iteration kernel stages in `.shared`
    /// (`choose_tiles`, issue 16 item 7).
    pub tiles: Vec<SharedTile<'a>>,
}

/// A read-only array that each iteration `i` of a one-iteration kernel reads at `a[i + c]`
/// for several constants `c` (a stencil): each block loads the elements its threads read
/// into `.shared` once, with a barrier, and the reads take them from there (`choose_tiles`).
#[derive(Debug, Clone)]
pub struct SharedTile<'a> {
    /// The array or pointer variable.
    pub array: SymbolId,
    /// An identifier expression naming it in the region (lowered once at the kernel's top).
    pub base: &'a Expr,
    /// The smallest and the largest offset `c`.
    pub lo: i64,
    pub hi: i64,
    /// Bytes per element.
    pub elem_bytes: u32,
    /// The `a[i + c]` expressions to read from the tile, with their `c`.
    pub reads: Vec<(ompcc_syntax::ast::ExprId, i64)>,
}

/// A device-only work array indexed thread-major (`work[t*row + k]`, `t` the distributed
/// loop's variable, `0 <= k < row`) that the kernel lays out thread-minor: each listed
/// subscript `work[e]` becomes `work[(e % row) * rows + e / row]` (`e >= 0` is proven).
/// Nothing outside the region sees the array (see `map_grids`' module `layout`).
#[derive(Debug, Clone)]
pub struct PrivateLayout<'a> {
    /// The pointer variable.
    pub array: SymbolId,
    /// Elements per thread (the coefficient of `t` in every subscript), at least 2.
    pub row: i64,
    /// The distributed loop's bound (`t < rows`, from 0 by 1): the rows, as written.
    pub rows: &'a Expr,
    /// The `work[e]` expressions to rewrite.
    pub accesses: Vec<ompcc_syntax::ast::ExprId>,
    /// `work` points to rows of `row` elements and each access is `work[t][k]`: it becomes
    /// element `k * rows + t` of the rows seen as one array.
    pub two_d: bool,
}

/// A loop nest run with another loop than the directive's on the grid's threads (parallel
/// loop swap, `map_grids`): the threads share the iterations of `threaded`, and each runs
/// `sequential` (the nest's other loops, outermost first, whose bounds use no loop variable
/// of the nest) around `body` for each of its iterations. Or the directive's loop as written,
/// with an inner loop of its body shared by a group of lanes (`cooperative`).
#[derive(Debug, Clone)]
pub struct GridMapping<'a> {
    /// The loop whose iterations the threads take (`loop_nest.outer` too, unless `box_over`).
    pub threaded: &'a Stmt,
    /// The loops each thread runs, outermost first.
    pub sequential: Vec<&'a Stmt>,
    /// The innermost loop's body.
    pub body: &'a Stmt,
    /// A triangular nest: `threaded`'s bounds (step ±1) use the variable of this loop of
    /// `sequential`. The threads take the bounding box of its ranges over that loop's first
    /// and last iterations, and each runs the body only where its value is in the range the
    /// current iteration of that loop gives. `loop_nest.outer` stays the directive's loop
    /// (the host cannot evaluate these bounds before the region).
    ///
    /// Or a triangular automatic collapse (`loop_nest.collapse` 2, `threaded` the outer loop,
    /// `sequential` empty): the inner loop's bounds (step ±1) use this variable of the outer
    /// loop; the threads take the outer loop's iterations times the bounding box of the inner
    /// loop's ranges, and each runs `body` only where its inner value is in its row's range.
    pub box_over: Option<SymbolId>,
    /// A warp-cooperative inner loop: each iteration of `threaded` goes to a group of lanes
    /// that share this reduction loop of its body.
    pub cooperative: Option<Cooperative<'a>>,
}

/// A reduction loop in the body of the threaded loop that a group of `lanes` lanes shares
/// (`map_grids`, issue 16 item 4): the statements before it run on every lane (they only
/// declare locals), lane `l` runs the loop's iterations `l, l + lanes, ...` into its own
/// partial value of `var` (started at `op`'s identity), the partials are combined by warp
/// shuffles into the value `var` had before the loop, and lane 0 alone runs the statements
/// after it. The host launches `lanes` threads per iteration of `threaded`.
#[derive(Debug, Clone, Copy)]
pub struct Cooperative<'a> {
    /// The body's item holding it: `inner` itself, or a `parallel for` / `for` / `simd` /
    /// `loop` directive with a `reduction` of `var` as its only clause around it.
    pub item: &'a Stmt,
    /// The `for` statement the lanes share.
    pub inner: &'a Stmt,
    /// Lanes per group: a power of two from 4 to 32 (a group never spans warps).
    pub lanes: u32,
    /// The reduction variable: a local declared before `inner` in the body.
    pub var: SymbolId,
    /// Its operator.
    pub op: ReductionOp,
    /// In order (a floating-point `+`/`*` whose loop body is the one update `var op= e`):
    /// instead of partial values, lane `l` evaluates the term `e` of iteration `base + l`
    /// and every lane applies the group's terms to `var` one by one, in the iterations'
    /// order (each taken from its lane by a shuffle), so `var` ends with the loop's value.
    pub ordered: bool,
    /// Irregular loop collapsing (with `ordered`, `lanes` 1; `inner` a CSR row, bounds read
    /// from memory, step +1, its term `e` using only `inner`'s variable and values the same
    /// on every thread): each thread keeps its iteration of `threaded`, and a warp whose
    /// rows' ranges are consecutive takes their nonzeros flattened, consecutive lanes
    /// evaluating consecutive nonzeros' terms into shared memory, after which each lane
    /// applies its own row's terms to `var` in order; a warp whose ranges are not
    /// consecutive runs the loop as written on each lane.
    pub flattened: bool,
}

/// The loop nest a region's threads share.
#[derive(Debug, Clone, Copy)]
pub struct LoopNest<'a> {
    /// The loop-associated directive.
    pub directive: &'a OmpDirective,
    /// `collapse(n)`, 1 when absent.
    pub collapse: u32,
    /// The outermost associated `for` statement; with a grid mapping
    /// ([`TargetRegion::grid`]), the loop whose iterations the threads take.
    pub outer: &'a Stmt,
}

/// One kernel parameter: a variable the region uses that is declared outside it.
#[derive(Debug)]
pub struct Param<'a> {
    /// The variable.
    pub sym: SymbolId,
    /// Its name as written.
    pub name: String,
    /// How it reaches the kernel.
    pub pass: Pass,
    /// The map entry that feeds it; `None` for `Pass::Value` parameters that are plain
    /// firstprivate copies (the host passes them as `LITERAL` entries of `sizeof(var)` bytes),
    /// for `Pass::Copy` (the host maps its own temporary) and for `Pass::DeviceAddr`.
    pub map: Option<MapItem<'a>>,
    /// Size of the parameter in the kernel's parameter space, in bytes (pointers: 8).
    pub size: u32,
}

/// How a parameter reaches the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The device address of the variable's own storage (mapped arrays, structs and scalars,
    /// reduction variables). The kernel reads and writes the variable through it.
    Ref,
    /// The device pointer that corresponds to the variable's host pointer value (a pointer
    /// variable whose pointee is mapped as an array section, or implicitly as a zero-length
    /// section). The kernel gets a private copy of the pointer holding it.
    DevicePtr,
    /// The variable's value (firstprivate scalars, `is_device_ptr` pointers). The kernel gets
    /// a private copy holding it.
    Value,
    /// A firstprivate aggregate (array of known size, struct, union): the host copies the
    /// variable's bytes into a fresh temporary mapped `to` for the launch, and the kernel gets
    /// that copy's device address and copies it into its own private variable. (A fresh host
    /// temporary is never present already, so the device always sees the host value.)
    Copy,
    /// The variable's storage address is already a device address (`has_device_addr(x)` of a
    /// variable that is not a pointer section): the host passes `&x` unchanged and the kernel
    /// reads and writes the variable through it, as for `Ref`.
    DeviceAddr,
}

/// One map list item (explicit or implicit).
#[derive(Debug, Clone)]
pub struct MapItem<'a> {
    /// The list item as written (`a`, `a[0:n]`, `s.x`, `p[i][0:m]`); for implicit maps, the
    /// identifier expression of the first use in the region.
    pub expr: &'a Expr,
    /// The item's text, for runtime messages (`"a[0:n]"`).
    pub name: String,
    /// Map type (`tofrom` when not written; `to`/`from` for `target update` motion clauses).
    pub map_type: MapType,
    /// `always`, `close`, `present`.
    pub modifiers: Vec<MapModifier>,
    /// No map clause was written for it.
    pub implicit: bool,
    /// Where the item is written (the region's directive for implicit maps).
    pub span: Span,
}

/// One reduction list item.
#[derive(Debug, Clone)]
pub struct Reduction<'a> {
    /// The variable.
    pub sym: SymbolId,
    /// The list item as written.
    pub expr: &'a Expr,
    /// The operator.
    pub op: ReductionOp,
}

/// `target data`, `target enter data`, `target exit data`, `target update`.
#[derive(Debug)]
pub struct DataConstruct<'a> {
    /// The directive (`target data` has a `body`).
    pub directive: &'a OmpDirective,
    /// Its list items in clause order (`to`/`from` items of `update` as map types).
    pub maps: Vec<MapItem<'a>>,
    /// `use_device_ptr` / `use_device_addr` items of `target data`.
    pub use_device: Vec<UseDevice<'a>>,
    /// `if(e)` and `device(e)` as written.
    pub if_cond: Option<&'a Expr>,
    pub device: Option<&'a Expr>,
}

/// One `use_device_ptr` / `use_device_addr` item.
#[derive(Debug, Clone)]
pub struct UseDevice<'a> {
    /// The variable.
    pub sym: SymbolId,
    /// The item as written.
    pub expr: &'a Expr,
    /// `use_device_addr` (the variable's address is translated) rather than `use_device_ptr`
    /// (the pointer's value is).
    pub addr: bool,
}

/// The analysis result with its diagnostics (`E09xx`: device constructs ompcc cannot offload,
/// named at the construct).
pub type PlanResult<'a> = (OffloadPlan<'a>, Vec<Diagnostic>);
