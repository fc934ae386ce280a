//! The decoded program: what the interpreter runs. Produced once by `decode` from the syntax
//! tree; registers are frame-relative indices, branch targets are instruction indices in one
//! flat code array, symbols are resolved to offsets or global-variable indices.
//!
//! Invariants: every `Src::Reg`/destination index is `< Func::nregs` of the function that holds
//! the instruction; every branch target (bra, brx.idx) and `Func::entry` is a valid index into
//! `Program::code`, and every body ends with a `ret`, so execution never runs into the next
//! function; every frame offset plus its access size is `<= Func::frame_size`; direct calls
//! name functions with bodies and matching signatures (indirect calls are checked when they
//! run); function pointers are `memory::FUNC_WINDOW + 16 * index`.

/// A PTX scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    B8,
    B16,
    B32,
    B64,
    F16,
    F32,
    F64,
    Pred,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "f16" => Ty::F16,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }
    /// Width in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::U8 | Ty::S8 | Ty::B8 => 8,
            Ty::U16 | Ty::S16 | Ty::B16 | Ty::F16 => 16,
            Ty::U32 | Ty::S32 | Ty::B32 | Ty::F32 => 32,
            Ty::U64 | Ty::S64 | Ty::B64 | Ty::F64 => 64,
        }
    }
    /// Size in memory in bytes.
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }
    pub fn signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }
    pub fn float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
}

/// All-ones mask of the low `bits` bits.
#[inline]
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v`.
#[inline]
pub(crate) fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// A special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SReg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    Clock,
    Clock64,
    GlobalTimer,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    DynSmem,
    TotalSmem,
}

impl SReg {
    pub fn parse(s: &str) -> Option<SReg> {
        let dim = |c: &str| match c {
            "x" => Some(0u8),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        };
        if let Some((base, d)) = s.split_once('.') {
            let d = dim(d)?;
            return Some(match base {
                "%tid" => SReg::Tid(d),
                "%ntid" => SReg::Ntid(d),
                "%ctaid" => SReg::Ctaid(d),
                "%nctaid" => SReg::Nctaid(d),
                _ => return None,
            });
        }
        Some(match s {
            "%laneid" => SReg::LaneId,
            "%warpid" => SReg::WarpId,
            "%nwarpid" => SReg::NWarpId,
            "%smid" => SReg::SmId,
            "%nsmid" => SReg::NSmId,
            "%gridid" => SReg::GridId,
            "%clock" => SReg::Clock,
            "%clock64" => SReg::Clock64,
            "%globaltimer" => SReg::GlobalTimer,
            "%lanemask_eq" => SReg::LanemaskEq,
            "%lanemask_le" => SReg::LanemaskLe,
            "%lanemask_lt" => SReg::LanemaskLt,
            "%lanemask_ge" => SReg::LanemaskGe,
            "%lanemask_gt" => SReg::LanemaskGt,
            "%dynamic_smem_size" => SReg::DynSmem,
            "%total_smem_size" => SReg::TotalSmem,
            _ => return None,
        })
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Src {
    Reg(u32),
    Imm(u64),
    SReg(SReg),
    /// Address of global variable `idx` plus an offset (resolved per loaded module).
    GlobalAddr(u32, i64),
    /// Local-space address of a frame slot: frame base + offset.
    FrameAddr(u32),
}

/// Where an address operand points before the offset is added.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Base {
    /// A register holding an address in the instruction's space.
    Reg(u32),
    /// Global variable index.
    Global(u32),
    /// Frame-relative local offset (function-scope `.local`/`.param` and call parameters).
    Frame(u32),
    /// No base: the offset is the address (shared/static-local/kernel-param offsets).
    Abs,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Addr {
    pub base: Base,
    pub off: i64,
}

/// The memory an access goes to. `.const` data lives in global memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemSpace {
    Global,
    Shared,
    Local,
    /// Kernel parameter buffer.
    KParam,
    Generic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    MulWide,
    Mul24Lo,
    Mul24Hi,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    AddSat,
    SubSat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IUnOp {
    Neg,
    Abs,
    Not,
    Cnot,
    Popc,
    Clz,
    Brev,
    Bfind,
    BfindShift,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MadMode {
    Lo,
    Hi,
    Wide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FOp {
    Add,
    Sub,
    Mul,
    Div,
    DivApprox,
    Min,
    Max,
    Copysign,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FUnOp {
    Neg,
    Abs,
    Sqrt,
    Rcp,
    Rsqrt,
    Sin,
    Cos,
    Ex2,
    Lg2,
    Tanh,
}

/// Comparison of setp/set/slct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl Cmp {
    pub fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            "eq" => Cmp::Eq,
            "ne" => Cmp::Ne,
            "lt" => Cmp::Lt,
            "le" => Cmp::Le,
            "gt" => Cmp::Gt,
            "ge" => Cmp::Ge,
            "lo" => Cmp::Lo,
            "ls" => Cmp::Ls,
            "hi" => Cmp::Hi,
            "hs" => Cmp::Hs,
            "equ" => Cmp::Equ,
            "neu" => Cmp::Neu,
            "ltu" => Cmp::Ltu,
            "leu" => Cmp::Leu,
            "gtu" => Cmp::Gtu,
            "geu" => Cmp::Geu,
            "num" => Cmp::Num,
            "nan" => Cmp::Nan,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoolOp {
    And,
    Or,
    Xor,
}

/// Rounding modifier of cvt (and accepted, but not distinguished, on arithmetic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rnd {
    None,
    Rn,
    Rz,
    Rm,
    Rp,
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Exch,
    Cas,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TestKind {
    Finite,
    Infinite,
    Number,
    NotANumber,
    Normal,
    Subnormal,
}

/// Reduction of `bar.red` over the predicates of the threads at the barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BarRed {
    Popc,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// Where a call argument comes from or a result goes to.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slot {
    /// Bytes in the caller's frame at this offset.
    Frame(u32),
    Reg(u32),
    Imm(u64),
}

#[derive(Debug)]
pub(crate) struct CallInfo {
    /// Direct callee; for indirect calls the function is found from `target` at run time and
    /// the offsets and sizes below are taken from its signature.
    pub callee: u32,
    /// Function pointer of an indirect call.
    pub target: Option<Src>,
    /// (source in caller, offset in callee frame, size)
    pub args: Vec<(Slot, u32, u32)>,
    /// (offset in callee frame, destination in caller, size)
    pub rets: Vec<(u32, Slot, u32)>,
}

/// A decoded operation.
#[derive(Debug)]
pub(crate) enum Op {
    Mov {
        d: u32,
        a: Src,
        bits: u32,
    },
    /// `mov.b64 %rd, {%r1, %r2}`: parts from low to high.
    Pack {
        d: u32,
        parts: Box<[Src]>,
        part_bits: u32,
    },
    /// `mov.b64 {%r1, %r2}, %rd`: `None` for `_` sinks.
    Unpack {
        ds: Box<[Option<u32>]>,
        a: Src,
        part_bits: u32,
    },
    Ld {
        sp: MemSpace,
        ty: Ty,
        n: u8,
        d: [u32; 4],
        addr: Addr,
    },
    St {
        sp: MemSpace,
        ty: Ty,
        n: u8,
        s: Box<[Src; 4]>,
        addr: Addr,
    },
    IBin {
        op: IOp,
        bits: u32,
        signed: bool,
        d: u32,
        a: Src,
        b: Src,
    },
    IUn {
        op: IUnOp,
        bits: u32,
        signed: bool,
        d: u32,
        a: Src,
    },
    Mad {
        mode: MadMode,
        bits: u32,
        signed: bool,
        sat: bool,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    FBin {
        op: FOp,
        f64: bool,
        ftz: bool,
        sat: bool,
        rnd: Rnd,
        d: u32,
        a: Src,
        b: Src,
    },
    FUn {
        op: FUnOp,
        f64: bool,
        ftz: bool,
        sat: bool,
        d: u32,
        a: Src,
    },
    Fma {
        f64: bool,
        ftz: bool,
        sat: bool,
        rnd: Rnd,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        cmp: Cmp,
        ty: Ty,
        d: u32,
        d2: Option<u32>,
        a: Src,
        b: Src,
        comb: Option<(BoolOp, Src, bool)>,
    },
    /// `set`: writes all ones / 1.0f on true.
    Set {
        cmp: Cmp,
        ty: Ty,
        dty: Ty,
        d: u32,
        a: Src,
        b: Src,
        comb: Option<(BoolOp, Src, bool)>,
    },
    Selp {
        bits: u32,
        d: u32,
        a: Src,
        b: Src,
        p: Src,
    },
    Slct {
        bits: u32,
        cf32: bool,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Cvt {
        dt: Ty,
        st: Ty,
        rnd: Rnd,
        sat: bool,
        ftz: bool,
        d: u32,
        a: Src,
    },
    /// `to`: generic -> space; else space -> generic.
    Cvta {
        to: bool,
        sp: MemSpace,
        d: u32,
        a: Src,
    },
    Bfe {
        bits: u32,
        signed: bool,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Bfi {
        bits: u32,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
        e: Src,
    },
    /// Carry arithmetic: add.cc/addc/sub.cc/subc (`sub`), reading the lane's carry flag when
    /// `cin` and writing it when `cout` (for subtraction the flag is the borrow).
    AddC {
        sub: bool,
        cin: bool,
        cout: bool,
        bits: u32,
        d: u32,
        a: Src,
        b: Src,
    },
    /// mad.lo/hi.cc and madc.lo/hi: `d = (a*b).lo/hi + c (+ carry)`.
    MadC {
        hi: bool,
        cin: bool,
        cout: bool,
        bits: u32,
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Prmt {
        d: u32,
        a: Src,
        b: Src,
        c: Src,
    },
    Bra {
        target: u32,
    },
    /// `brx.idx`: jump to `targets[index]`.
    Brx {
        index: Src,
        targets: Box<[u32]>,
    },
    Call(Box<CallInfo>),
    Ret,
    Exit,
    Trap,
    Bar {
        id: Src,
        count: Option<Src>,
        arrive: bool,
        /// `bar.*` and `barrier.*.aligned`: every live thread of the warp must wait at this
        /// same instruction (checked at release; real GPUs may hang otherwise).
        aligned: bool,
        /// `bar.red`: the reduction, its destination and its (possibly negated) predicate.
        red: Option<(BarRed, u32, Src, bool)>,
    },
    /// `bar.warp.sync membermask`.
    WarpSync {
        mask: Option<Src>,
    },
    Fence,
    Atom {
        sp: MemSpace,
        op: AtomOp,
        ty: Ty,
        d: Option<u32>,
        addr: Addr,
        b: Src,
        c: Src,
    },
    Shfl {
        mode: ShflMode,
        d: u32,
        p: Option<u32>,
        a: Src,
        b: Src,
        c: Src,
        /// `.sync` member mask.
        mask: Option<Src>,
    },
    Vote {
        mode: VoteMode,
        d: u32,
        a: Src,
        neg: bool,
        mask: Option<Src>,
    },
    Activemask {
        d: u32,
    },
    Match {
        all: bool,
        bits: u32,
        d: u32,
        p: Option<u32>,
        a: Src,
        mask: Option<Src>,
    },
    Testp {
        kind: TestKind,
        f64: bool,
        d: u32,
        a: Src,
    },
    /// Call of the extern `vprintf(fmt, args)`.
    Vprintf {
        fmt: Slot,
        args: Slot,
        ret: Option<Slot>,
    },
    /// Call of CUDA's extern `__assertfail(message, file, line, function, char_size)`: the
    /// kernel stops with the assertion message.
    AssertFail {
        message: Slot,
        file: Slot,
        line: Slot,
        function: Slot,
    },
    /// Call of the extern `malloc(size)` (the device heap).
    Malloc {
        size: Slot,
        ret: Option<Slot>,
    },
    /// Call of the extern `free(ptr)`.
    Free {
        ptr: Slot,
    },
    /// `alloca`: `size` bytes on the lane's dynamic stack aligned to `align` (a power of
    /// two, at least 8); `d` gets their local address.
    Alloca {
        d: u32,
        size: Src,
        align: u32,
    },
    /// `stacksave`: `d` gets the lane's dynamic stack top.
    StackSave {
        d: u32,
    },
    /// `stackrestore`: the dynamic stack top becomes `a` (a value `stacksave` gave in the
    /// same frame).
    StackRestore {
        a: Src,
    },
    Nop,
}

/// Counter classes of dynamic instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstClass {
    /// Integer and bit arithmetic, logic, predicates, moves, conversions among integers.
    Int,
    /// Floating-point arithmetic and conversions involving floats.
    Float,
    /// Global (and const) memory loads/stores, generic ones that hit global memory.
    GlobalMem,
    /// Shared memory loads/stores.
    SharedMem,
    /// Local memory and parameter loads/stores.
    LocalMem,
    /// Branches, calls, returns, exit.
    Control,
    /// Barriers, fences, warp synchronisation, shuffles, votes.
    Sync,
    /// Atomics and reductions.
    Atomic,
    /// Everything else (printf, trap, special cases).
    Other,
}

impl InstClass {
    /// Number of classes.
    pub const COUNT: usize = 9;
    /// All classes in counter order.
    pub const ALL: [InstClass; 9] = [
        InstClass::Int,
        InstClass::Float,
        InstClass::GlobalMem,
        InstClass::SharedMem,
        InstClass::LocalMem,
        InstClass::Control,
        InstClass::Sync,
        InstClass::Atomic,
        InstClass::Other,
    ];
    /// Short name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            InstClass::Int => "int",
            InstClass::Float => "float",
            InstClass::GlobalMem => "global",
            InstClass::SharedMem => "shared",
            InstClass::LocalMem => "local",
            InstClass::Control => "control",
            InstClass::Sync => "sync",
            InstClass::Atomic => "atomic",
            InstClass::Other => "other",
        }
    }
}

/// No guard predicate.
pub(crate) const NO_GUARD: u32 = u32::MAX;

#[derive(Debug)]
pub(crate) struct Inst {
    pub op: Op,
    /// Guard predicate register, or `NO_GUARD`.
    pub guard: u32,
    pub guard_neg: bool,
    pub class: InstClass,
    /// 1-based PTX line.
    pub line: u32,
    /// Source location from `.loc`: file index into `Program::files`, line; file `u32::MAX`
    /// when none.
    pub src_file: u32,
    pub src_line: u32,
}

/// A parameter slot: (offset, size).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ParamSlot {
    pub offset: u32,
    pub size: u32,
}

#[derive(Debug)]
pub(crate) struct Func {
    pub name: String,
    pub is_kernel: bool,
    /// Entry instruction; `u32::MAX` for functions without a body.
    pub entry: u32,
    pub nregs: u32,
    /// Bytes of per-activation local memory (function-scope `.local`, `.param` slots).
    pub frame_size: u32,
    /// Kernel: offsets in the launch parameter buffer; function: offsets in its frame.
    pub params: Vec<ParamSlot>,
    /// Function results: offsets in its frame.
    pub rets: Vec<ParamSlot>,
    /// Kernel parameter buffer size.
    pub param_size: u32,
}

/// A global or const variable, allocated in device memory when a module is loaded.
#[derive(Debug)]
pub(crate) struct GlobalVar {
    pub name: String,
    pub size: u64,
    pub align: u32,
    pub init: Vec<u8>,
    /// (byte offset, target global index, addend): pointer-sized relocations.
    pub relocs: Vec<(u64, u32, i64)>,
}

#[derive(Debug)]
pub(crate) struct Program {
    pub code: Vec<Inst>,
    pub funcs: Vec<Func>,
    pub globals: Vec<GlobalVar>,
    /// Static shared memory bytes; dynamic shared memory starts at `dyn_shared_base`.
    pub static_shared: u32,
    pub dyn_shared_base: u32,
    /// Bytes of module-scope `.local` variables at the bottom of every thread's local memory.
    pub static_local: u32,
    pub files: Vec<String>,
    /// Whether the code calls `malloc`/`free` (the device then sets up its heap).
    pub uses_heap: bool,
}
