//! The analysis results: loops, bases, accesses, call sites, sections, summaries, and the
//! typed reasons for every `unknown`.
//!
//! Invariants:
//! - ids ([`LoopId`], [`RegionId`], [`BaseId`]) index the vectors of their
//!   [`FunctionAccesses`]; loops and regions are in source order, parents before children;
//! - every `unknown` is an [`Unknown`]: a [`Reason`] and the span it is about, never a bare
//!   flag, so each can become a `-Rpass-missed` remark;
//! - a [`DimRange`] is inclusive (`lo..=hi`) and a may-range: it contains every element the
//!   code can touch; when the loops around it do not run its length may be zero or negative,
//!   which means "nothing".

use ompcc_diag::Span;
use ompcc_sema::SymbolId;

use crate::sym::SymExpr;

/// A loop of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// A `target` or `parallel` construct of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(pub u32);

/// A base (array, pointer, member pointer, global) of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BaseId(pub u32);

/// Why a fact is unknown. Each kind prints as a one-line message (see [`Reason::message`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A `while`/`do` loop, or a `for` without the canonical init/test/step.
    LoopNotCanonical(&'static str),
    /// The loop variable is written in the loop body.
    LoopVarWritten(String),
    /// A bound or step uses a variable the loop writes.
    BoundNotInvariant(String),
    /// A step that is not a non-zero integer constant.
    NonConstantStep,
    /// A subscript reads memory (`a[idx[i]]`) or calls a function.
    IndirectSubscript,
    /// A subscript or bound operation that is not affine (`%`, `&`, `i*j` of two loop
    /// variables, division by a non-constant).
    NonAffine(&'static str),
    /// A scalar the subscript uses is written in an enclosing loop.
    ScalarWrittenInLoop(String),
    /// The variable of an enclosing loop that is not in canonical form, and why it is not.
    NonCanonicalLoopVar(String, String),
    /// The variable's address is taken, so any store may change it.
    AddressTaken(String),
    /// A cast the analysis does not see through.
    Cast,
    /// A variable that is not an integer (floating, struct, ...).
    NotInteger(String),
    /// Arithmetic on constants overflowed 64 bits.
    Overflow,
    /// The address is not one of a known base (a call result, `c ? p : q`, a union member).
    UnknownBase,
    /// The pointer variable is assigned in the scope, so it names different memory.
    PointerReassigned(String),
    /// A bound uses a variable not in scope at the program point.
    NotInScope(String),
    /// A bound uses a variable that is written inside the scope.
    WrittenInScope(String),
    /// Eliminating a loop variable needs the sign of a coefficient, which is not known.
    UnknownSign(String),
    /// A loop variable occurs non-linearly (`i*i`).
    NonLinearInLoopVar(String),
    /// A call through a function pointer.
    IndirectCall,
    /// A call to a function without a body in this unit and not a known library function.
    UnknownExternal(String),
    /// A call inside a recursive cycle of the call graph.
    Recursion(String),
    /// An argument whose shape does not match the parameter (flattened 2-D arrays, ...).
    ShapeMismatch,
    /// The callee's section depends on an argument the analysis cannot express.
    ArgumentUnknown(usize),
    /// The pointer is stored or passed where the analysis cannot follow it.
    Escapes(String),
    /// The callee's effect on this base is unknown.
    CalleeUnknown(String),
    /// A byte count that is not a multiple of the element size.
    ByteCount,
    /// Accesses through a base that may alias this one.
    MayAlias(String),
    /// A pointer assigned from an expression the analysis does not follow.
    UntracedPointer(String),
    /// A call inside the loop touches the base (sections are not per iteration).
    CallInLoop(String),
    /// The function accesses memory through a pointer member, which summaries do not
    /// describe.
    ThroughMember(String),
    /// A scalar declared outside the loop is written in it and is not a reduction.
    ScalarCarried(String),
    /// Two accesses to the base may touch one element in different iterations.
    DependenceCarried(String),
}

impl Reason {
    /// The one-line message.
    pub fn message(&self) -> String {
        match self {
            Reason::LoopNotCanonical(why) => format!("loop is not in canonical form: {why}"),
            Reason::LoopVarWritten(v) => format!("loop variable '{v}' is written in the body"),
            Reason::BoundNotInvariant(v) => {
                format!("loop bound uses '{v}', which the loop may change")
            }
            Reason::NonConstantStep => "loop step is not an integer constant".into(),
            Reason::IndirectSubscript => "the expression reads memory or calls a function".into(),
            Reason::NonAffine(what) => format!("subscript is not affine: {what}"),
            Reason::ScalarWrittenInLoop(v) => {
                format!("'{v}' is written in an enclosing loop (not an induction variable)")
            }
            Reason::NonCanonicalLoopVar(v, why) => {
                format!("'{v}' is the variable of a loop that is not canonical ({why})")
            }
            Reason::AddressTaken(v) => format!("the address of '{v}' is taken"),
            Reason::Cast => "a cast the analysis does not see through".into(),
            Reason::NotInteger(v) => format!("'{v}' is not an integer variable"),
            Reason::Overflow => "constant arithmetic overflows 64 bits".into(),
            Reason::UnknownBase => "the address is not based on a known array or pointer".into(),
            Reason::PointerReassigned(v) => format!("pointer '{v}' is reassigned"),
            Reason::NotInScope(v) => format!("'{v}' is not in scope at this point"),
            Reason::WrittenInScope(v) => format!("'{v}' is written inside the scope"),
            Reason::UnknownSign(e) => format!("the sign of '{e}' is not known"),
            Reason::NonLinearInLoopVar(v) => format!("loop variable '{v}' occurs non-linearly"),
            Reason::IndirectCall => "call through a function pointer".into(),
            Reason::UnknownExternal(f) => format!("call to '{f}', whose body is not available"),
            Reason::Recursion(f) => format!("'{f}' is recursive"),
            Reason::ShapeMismatch => "argument shape does not match the parameter".into(),
            Reason::ArgumentUnknown(k) => format!("argument {k} is not expressible"),
            Reason::Escapes(v) => format!("pointer '{v}' escapes"),
            Reason::CalleeUnknown(f) => format!("'{f}' has an unknown effect on it"),
            Reason::ByteCount => "byte count is not a multiple of the element size".into(),
            Reason::MayAlias(v) => format!("'{v}' may alias it"),
            Reason::CallInLoop(f) => format!("the call to '{f}' in the loop touches it"),
            Reason::ThroughMember(m) => {
                format!("accesses through member '{m}' are not summarized")
            }
            Reason::DependenceCarried(b) => {
                format!("a dependence on '{b}' may be carried by the loop")
            }
            Reason::ScalarCarried(v) => {
                format!("'{v}' is written in the loop and is not a reduction")
            }
            Reason::UntracedPointer(v) => {
                format!("pointer '{v}' is assigned from an expression the analysis does not follow")
            }
        }
    }
}

/// An unknown fact: why, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    /// The reason.
    pub reason: Reason,
    /// The source it is about.
    pub span: Span,
}

impl Unknown {
    /// A new unknown.
    pub fn new(reason: Reason, span: Span) -> Unknown {
        Unknown { reason, span }
    }
}

/// A proven fact or why not.
pub type Fact<T> = Result<T, Unknown>;

/// A loop in canonical form: the variable takes values in `lo..=hi` by `step`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The loop variable.
    pub var: SymbolId,
    /// The smallest value the variable takes in the body.
    pub lo: SymExpr,
    /// The largest value it may take in the body (for steps other than ±1, a bound).
    pub hi: SymExpr,
    /// The constant step (negative for decreasing loops).
    pub step: i64,
}

/// One loop (`for`, `while`, `do`).
#[derive(Clone, Debug)]
pub struct Loop {
    /// Its id.
    pub id: LoopId,
    /// The loop statement (for an OpenMP loop, the `for` itself).
    pub span: Span,
    /// The body's span.
    pub body: Span,
    /// The enclosing loop.
    pub parent: Option<LoopId>,
    /// The innermost region it is in.
    pub region: Option<RegionId>,
    /// Canonical form, or why not.
    pub form: Fact<Canonical>,
    /// The OpenMP loop directive it is associated with (`parallel for`, ...), and its level
    /// in a `collapse` nest (0 for the outermost).
    pub omp: Option<(String, u32)>,
    /// The number of loops the directive collapses (1 without `collapse`).
    pub collapse: u32,
    /// `break`, `goto` or `return` in the body: the bounds are still bounds.
    pub early_exit: bool,
    /// Scalars declared outside the loop and written in it, sorted by name.
    pub scalars_written: Vec<SymbolId>,
}

/// One `target` or `parallel` construct.
#[derive(Clone, Debug)]
pub struct Region {
    /// Its id.
    pub id: RegionId,
    /// The directive's name (`target teams distribute parallel for`).
    pub directive: String,
    /// The whole construct (pragma line and statement).
    pub span: Span,
    /// The enclosing region.
    pub parent: Option<RegionId>,
    /// Scalars declared outside the region and written in it.
    pub scalars_written: Vec<SymbolId>,
}

/// Where a pointer's value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// The `n`-th parameter (from 0).
    Param(usize),
    /// A file-scope (or `static`) pointer variable.
    Global,
    /// An allocation call (`malloc`, `calloc`, `realloc`, `aligned_alloc`); `elems` is the
    /// size in elements when it divides by the element size.
    Alloc {
        /// The allocation function.
        func: String,
        /// The call.
        call: Span,
        /// The size in bytes.
        bytes: Fact<SymExpr>,
        /// The size in elements.
        elems: Fact<SymExpr>,
    },
    /// Defined once from the address of (an element of) another base, which is not
    /// followed (the base or the offset changes later in the block).
    AddressOf(String),
    /// Not known (assigned more than once, from a call, ...).
    Unknown(Unknown),
}

/// What a base is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaseKind {
    /// A named array object (local, `static`, or file-scope).
    Array {
        /// File-scope or `static` storage.
        global: bool,
    },
    /// A pointer variable (a parameter declared as an array is a pointer).
    Pointer(Provenance),
    /// A pointer or array member reached from a variable: `s.p`, `s->p`.
    Member,
    /// A file-scope scalar or structure, accessed as a whole.
    GlobalScalar,
    /// An address the analysis could not trace.
    Unknown(Unknown),
}

/// A base of accesses.
#[derive(Clone, Debug)]
pub struct Base {
    /// Its id.
    pub id: BaseId,
    /// C text that names it (`a`, `s->p`, `?` for unknown ones).
    pub name: String,
    /// The variable it is rooted at (the struct variable for members).
    pub root: Option<SymbolId>,
    /// What it is.
    pub kind: BaseKind,
    /// Number of subscripts of an element access (0 for global scalars).
    pub dims: usize,
    /// Extent of each dimension after the first, when known (`double (*a)[m]`: `[m]`).
    pub extents: Vec<Fact<SymExpr>>,
    /// The element type as C text.
    pub elem: String,
    /// Element size in bytes, when known.
    pub elem_size: Option<u64>,
    /// `restrict`-qualified pointer.
    pub restrict: bool,
    /// The pointee is `const`.
    pub const_pointee: bool,
    /// Where the pointer (or the array's address) may escape the analysis.
    pub escapes: Option<Unknown>,
    /// The element type's aliasing class (C11 6.5p7), when known.
    pub(crate) elem_class: Option<crate::scan::AliasClass>,
}

/// Read, write, or both (`+=`, `++`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// A load.
    Read,
    /// A store.
    Write,
    /// A load and a store of the same element.
    ReadWrite,
}

impl AccessKind {
    /// True for `Read` and `ReadWrite`.
    pub fn reads(self) -> bool {
        self != AccessKind::Write
    }
    /// True for `Write` and `ReadWrite`.
    pub fn writes(self) -> bool {
        self != AccessKind::Read
    }
}

/// One memory access in the source.
#[derive(Clone, Debug)]
pub struct Access {
    /// The lvalue expression.
    pub span: Span,
    /// Its base.
    pub base: BaseId,
    /// Read, write or both.
    pub kind: AccessKind,
    /// One affine subscript per dimension of the base (empty for global scalars).
    pub subscripts: Vec<Fact<SymExpr>>,
    /// `.x` / `->x` after the element (the whole element counts as touched).
    pub field: Option<String>,
    /// The operator of an update whose value is not used (`a[k] += e`, `a[k]++`).
    pub update: Option<&'static str>,
    /// Enclosing loops, outermost first.
    pub loops: Vec<LoopId>,
    /// The innermost enclosing region.
    pub region: Option<RegionId>,
    /// Bounds on enclosing loops' variables that hold where it happens (from `if` and `?:`
    /// conditions around it).
    pub guards: Vec<Guard>,
}

/// `var >= lo` and `var <= hi` (either may be absent) where a guarded access happens: the
/// condition of an enclosing `if` or `?:` compares a loop variable with an invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// The loop variable.
    pub var: SymbolId,
    /// Its smallest value there.
    pub lo: Option<SymExpr>,
    /// Its largest value there.
    pub hi: Option<SymExpr>,
}

/// An inclusive range of subscripts in one dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimRange {
    /// First subscript.
    pub lo: SymExpr,
    /// Last subscript.
    pub hi: SymExpr,
}

impl DimRange {
    /// `hi - lo + 1`.
    pub fn length(&self) -> Option<SymExpr> {
        self.hi.sub(&self.lo)?.add_const(1)
    }
}

/// The elements of a base a scope may touch, one range per dimension.
pub type Section = Fact<Vec<DimRange>>;

/// The effect of a call on one base of the caller.
#[derive(Clone, Debug)]
pub struct CallEffect {
    /// The caller's base.
    pub base: BaseId,
    /// Read or written or both.
    pub kind: AccessKind,
    /// The caller's elements it touches.
    pub section: Section,
}

/// What is called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A function of this unit with a summary.
    Defined(String),
    /// A C library function with a built-in summary.
    Library(String),
    /// Anything else; the reason says what.
    Unknown(Unknown),
}

/// A call expression and its effects.
#[derive(Clone, Debug)]
pub struct CallSite {
    /// The call.
    pub span: Span,
    /// The callee's name as written (`(*fp)` for indirect calls).
    pub name: String,
    /// Who is called.
    pub callee: Callee,
    /// Effects on the caller's bases.
    pub effects: Vec<CallEffect>,
    /// Set when the call may read or write any global.
    pub unknown_globals: Option<Unknown>,
    /// Enclosing loops, outermost first.
    pub loops: Vec<LoopId>,
    /// The innermost enclosing region.
    pub region: Option<RegionId>,
}

/// The sections of one base in one scope.
#[derive(Clone, Debug)]
pub struct BaseSections {
    /// The base.
    pub base: BaseId,
    /// What the scope reads (`None`: nothing).
    pub read: Option<Section>,
    /// What the scope writes (`None`: nothing).
    pub write: Option<Section>,
}

/// A scope whose sections are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A loop (the variables of it and of loops inside it are eliminated).
    Loop(LoopId),
    /// A `target`/`parallel` construct, at its statement.
    Region(RegionId),
    /// The whole function, at its entry.
    Function,
    /// Any statement range of the function (host code between regions, a `target data`
    /// body), at its start.
    Range(Span),
}

/// What a function does to one pointer parameter's pointee, or to one global.
#[derive(Clone, Debug, Default)]
pub struct Effect {
    /// Elements read, in terms of the parameters and globals.
    pub read: Option<Section>,
    /// Elements written.
    pub write: Option<Section>,
    /// The extents of the base's dimensions after the first (to check argument shapes).
    pub extents: Vec<Fact<SymExpr>>,
}

/// A function's interprocedural summary.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The parameters' symbols, to substitute arguments for.
    pub param_syms: Vec<Option<SymbolId>>,
    /// Per parameter index: the effect through a pointer parameter (`None` for non-pointers
    /// and pointers never dereferenced).
    pub params: Vec<Option<Effect>>,
    /// Parameters whose pointer value escapes (stored, passed to unknown code).
    pub escaping: Vec<usize>,
    /// Effects on file-scope bases, by variable.
    pub globals: Vec<(SymbolId, Effect)>,
    /// File-scope scalars the function (or its callees) may assign.
    pub scalars_written: Vec<SymbolId>,
    /// Set when the function may read or write any global (calls unknown code).
    pub unknown_globals: Option<Unknown>,
}

/// One loop's reduction: a scalar updated only by `s op= e` / `s = s op e`, or an element
/// updated only by `a[c] op= e` with subscripts invariant in the loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// What is reduced.
    pub target: ReductionTarget,
    /// The operator as C text (`+`, `*`, `&`, `|`, `^`).
    pub op: &'static str,
}

/// The variable or element a loop reduces into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReductionTarget {
    /// A scalar declared outside the loop.
    Scalar(SymbolId),
    /// One element, the same in every iteration (`y[i] += a[i][j] * x[j]` in the `j`
    /// loop): `access` indexes [`FunctionAccesses::accesses`].
    Element {
        /// The base.
        base: BaseId,
        /// The update's access.
        access: usize,
    },
}

/// The answer of the dependence test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dependence {
    /// Proven: no two different iterations of the loop touch the same element with at least
    /// one write.
    Independent,
    /// Not proven independent: two accesses (spans) may touch the same element in different
    /// iterations; `distance` when it is a known constant.
    MayCarry {
        /// The first access.
        first: Span,
        /// The second access.
        second: Span,
        /// The dependence distance in iterations of the loop, when constant.
        distance: Option<i64>,
    },
    /// A fact the test needs is unknown.
    Unknown(Unknown),
}

/// Everything the analysis knows about one function.
#[derive(Clone, Debug)]
pub struct FunctionAccesses {
    /// The function's name.
    pub name: String,
    /// Its symbol.
    pub symbol: Option<SymbolId>,
    /// The definition's span.
    pub span: Span,
    /// The body's span.
    pub body: Span,
    /// Its parameters in order.
    pub params: Vec<Option<SymbolId>>,
    /// Loops in source order.
    pub loops: Vec<Loop>,
    /// `target`/`parallel` constructs in source order.
    pub regions: Vec<Region>,
    /// Bases, in order of first access.
    pub bases: Vec<Base>,
    /// Accesses in source order.
    pub accesses: Vec<Access>,
    /// Calls in source order.
    pub calls: Vec<CallSite>,
    /// The summary other functions see.
    pub summary: Summary,
    /// The pre-scan's facts (writes, taken addresses), for queries.
    pub(crate) env: crate::scan::Env,
    /// Single-definition integer locals and their definitions.
    pub(crate) defs: rustc_hash::FxHashMap<SymbolId, SymExpr>,
}
