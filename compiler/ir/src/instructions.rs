//! Opcodes, instruction formats and the small enums their operands use.
//!
//! `InstData` is the instruction as stored in the data-flow graph: an opcode plus operands in
//! one of a fixed set of formats. Variable-length operands (call and return arguments, block
//! arguments) live in the DFG's `ValueList` pool; `br_table` targets live in a jump table.
//! Result types are not stored here: they are the types of the result values, and
//! `DataFlowGraph::result_types` computes them from the opcode, the operand types and, for the
//! opcodes where `Opcode::has_ctrl_type` holds, an explicit controlling type.

use crate::entities::{Block, FuncRef, GlobalRef, JumpTable, SigRef, StackSlot, Value};
use crate::types::AddrSpace;
use cranelift_entity::{EntityList, ListPool, PrimaryMap};
use std::fmt;

/// A pooled list of values.
pub type ValueList = EntityList<Value>;
/// The pool that owns every `ValueList` of a function.
pub type ValueListPool = ListPool<Value>;

/// Declares a fieldless enum whose variants each have a text-syntax name.
macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        pub enum $name { $($(#[$vm])* $var,)* }
        impl $name {
            /// Every variant.
            pub const ALL: &'static [$name] = &[$($name::$var,)*];
            /// The text-syntax name.
            pub fn name(self) -> &'static str {
                match self { $($name::$var => $s,)* }
            }
            /// Parses a text-syntax name.
            pub fn from_name(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)* _ => None }
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// Every operation of the IR.
    Opcode {
        // constants
        Iconst = "iconst",
        Fconst = "fconst",
        // integer arithmetic
        Iadd = "iadd",
        Isub = "isub",
        Imul = "imul",
        Sdiv = "sdiv",
        Udiv = "udiv",
        Srem = "srem",
        Urem = "urem",
        Smulhi = "smulhi",
        Umulhi = "umulhi",
        And = "and",
        Or = "or",
        Xor = "xor",
        Shl = "shl",
        Lshr = "lshr",
        Ashr = "ashr",
        Smin = "smin",
        Smax = "smax",
        Umin = "umin",
        Umax = "umax",
        Neg = "neg",
        Not = "not",
        Popcnt = "popcnt",
        Clz = "clz",
        Ctz = "ctz",
        Bswap = "bswap",
        // float arithmetic
        Fadd = "fadd",
        Fsub = "fsub",
        Fmul = "fmul",
        Fdiv = "fdiv",
        Frem = "frem",
        Fmin = "fmin",
        Fmax = "fmax",
        Fcopysign = "fcopysign",
        Fneg = "fneg",
        Fabs = "fabs",
        Sqrt = "sqrt",
        Floor = "floor",
        Ceil = "ceil",
        Ftrunc = "ftrunc",
        Nearest = "nearest",
        Fma = "fma",
        // compares and select
        Icmp = "icmp",
        Fcmp = "fcmp",
        Select = "select",
        // conversions
        Sext = "sext",
        Zext = "zext",
        Trunc = "trunc",
        Fpext = "fpext",
        Fptrunc = "fptrunc",
        Sitofp = "sitofp",
        Uitofp = "uitofp",
        Fptosi = "fptosi",
        Fptoui = "fptoui",
        Bitcast = "bitcast",
        Ptrtoint = "ptrtoint",
        Inttoptr = "inttoptr",
        Addrspacecast = "addrspacecast",
        // memory
        PtrOffset = "ptr_offset",
        Load = "load",
        Store = "store",
        StackAddr = "stack_addr",
        GlobalAddr = "global_addr",
        StackAlloc = "stack_alloc",
        StackSave = "stack_save",
        StackRestore = "stack_restore",
        // calls
        FuncAddr = "func_addr",
        Call = "call",
        CallIndirect = "call_indirect",
        Return = "return",
        // GPU
        Sreg = "sreg",
        Barrier = "barrier",
        Fence = "fence",
        AtomicRmw = "atomic_rmw",
        AtomicCas = "atomic_cas",
        Shuffle = "shuffle",
        Vote = "vote",
        Activemask = "activemask",
        WarpSync = "warp_sync",
        // control flow
        Jump = "jump",
        Brif = "brif",
        BrTable = "br_table",
        Unreachable = "unreachable",
        Trap = "trap",
    }
}

impl Opcode {
    /// Ends a block: branches, returns, `unreachable`, `trap`.
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Jump
                | Opcode::Brif
                | Opcode::BrTable
                | Opcode::Return
                | Opcode::Unreachable
                | Opcode::Trap
        )
    }

    /// Transfers control to blocks of the same function.
    pub fn is_branch(self) -> bool {
        matches!(self, Opcode::Jump | Opcode::Brif | Opcode::BrTable)
    }

    /// The result type is written after the opcode (`iconst.i32`, `load.f64`, `sext.i64`)
    /// because it cannot be derived from the operands.
    pub fn has_ctrl_type(self) -> bool {
        matches!(
            self,
            Opcode::Iconst
                | Opcode::Fconst
                | Opcode::Load
                | Opcode::Sext
                | Opcode::Zext
                | Opcode::Trunc
                | Opcode::Fpext
                | Opcode::Fptrunc
                | Opcode::Sitofp
                | Opcode::Uitofp
                | Opcode::Fptosi
                | Opcode::Fptoui
                | Opcode::Bitcast
                | Opcode::Ptrtoint
                | Opcode::Inttoptr
                | Opcode::Addrspacecast
        )
    }

    /// Has effects besides its results (memory, synchronization, control): never removed or
    /// moved by dead-code elimination even when its results are unused.
    pub fn has_side_effects(self) -> bool {
        self.is_terminator()
            || matches!(
                self,
                Opcode::Store
                    | Opcode::Call
                    | Opcode::CallIndirect
                    // Each allocation is a distinct object: never merged or moved.
                    | Opcode::StackAlloc
                    | Opcode::StackSave
                    | Opcode::StackRestore
                    | Opcode::Barrier
                    | Opcode::WarpSync
                    | Opcode::Fence
                    | Opcode::AtomicRmw
                    | Opcode::AtomicCas
                    | Opcode::Shuffle
                    | Opcode::Vote
            )
    }

    /// Reads memory (may observe stores).
    pub fn reads_memory(self) -> bool {
        matches!(
            self,
            Opcode::Load
                | Opcode::Call
                | Opcode::CallIndirect
                | Opcode::AtomicRmw
                | Opcode::AtomicCas
        )
    }

    /// May trap at run time on some inputs (integer division by zero).
    pub fn can_trap(self) -> bool {
        matches!(
            self,
            Opcode::Sdiv | Opcode::Udiv | Opcode::Srem | Opcode::Urem | Opcode::Trap
        )
    }
}

/// The operand layout of an instruction: which `InstData` variant an opcode uses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[allow(missing_docs)]
pub enum Format {
    Nullary,
    UnaryImm,
    UnaryIeee,
    Unary,
    Binary,
    Ternary,
    IntCompare,
    FloatCompare,
    Special,
    Load,
    Store,
    StackAddr,
    GlobalAddr,
    FuncAddr,
    Call,
    CallIndirect,
    Return,
    Jump,
    Brif,
    BrTable,
    AtomicRmw,
    AtomicCas,
    Fence,
    Shuffle,
    Vote,
}

impl Opcode {
    /// The format instructions with this opcode must use.
    pub fn format(self) -> Format {
        use Opcode as O;
        match self {
            O::Iconst => Format::UnaryImm,
            O::Fconst => Format::UnaryIeee,
            O::Iadd
            | O::Isub
            | O::Imul
            | O::Sdiv
            | O::Udiv
            | O::Srem
            | O::Urem
            | O::Smulhi
            | O::Umulhi
            | O::And
            | O::Or
            | O::Xor
            | O::Shl
            | O::Lshr
            | O::Ashr
            | O::Smin
            | O::Smax
            | O::Umin
            | O::Umax
            | O::Fadd
            | O::Fsub
            | O::Fmul
            | O::Fdiv
            | O::Frem
            | O::Fmin
            | O::Fmax
            | O::Fcopysign
            | O::PtrOffset => Format::Binary,
            O::Neg
            | O::Not
            | O::Popcnt
            | O::Clz
            | O::Ctz
            | O::Bswap
            | O::Fneg
            | O::Fabs
            | O::Sqrt
            | O::Floor
            | O::Ceil
            | O::Ftrunc
            | O::Nearest
            | O::Sext
            | O::Zext
            | O::Trunc
            | O::Fpext
            | O::Fptrunc
            | O::Sitofp
            | O::Uitofp
            | O::Fptosi
            | O::Fptoui
            | O::Bitcast
            | O::Ptrtoint
            | O::Inttoptr
            | O::Addrspacecast
            | O::StackAlloc
            | O::StackRestore
            | O::WarpSync => Format::Unary,
            O::Fma | O::Select => Format::Ternary,
            O::Icmp => Format::IntCompare,
            O::Fcmp => Format::FloatCompare,
            O::Sreg => Format::Special,
            O::Load => Format::Load,
            O::Store => Format::Store,
            O::StackAddr => Format::StackAddr,
            O::GlobalAddr => Format::GlobalAddr,
            O::FuncAddr => Format::FuncAddr,
            O::Call => Format::Call,
            O::CallIndirect => Format::CallIndirect,
            O::Return => Format::Return,
            O::Jump => Format::Jump,
            O::Brif => Format::Brif,
            O::BrTable => Format::BrTable,
            O::AtomicRmw => Format::AtomicRmw,
            O::AtomicCas => Format::AtomicCas,
            O::Fence => Format::Fence,
            O::Shuffle => Format::Shuffle,
            O::Vote => Format::Vote,
            O::Barrier | O::Activemask | O::Unreachable | O::Trap | O::StackSave => Format::Nullary,
        }
    }
}

named_enum! {
    /// Integer comparison condition codes.
    IntCC {
        Eq = "eq",
        Ne = "ne",
        Slt = "slt",
        Sle = "sle",
        Sgt = "sgt",
        Sge = "sge",
        Ult = "ult",
        Ule = "ule",
        Ugt = "ugt",
        Uge = "uge",
    }
}

impl IntCC {
    /// The condition that holds exactly when this one does not.
    pub fn inverse(self) -> IntCC {
        match self {
            IntCC::Eq => IntCC::Ne,
            IntCC::Ne => IntCC::Eq,
            IntCC::Slt => IntCC::Sge,
            IntCC::Sle => IntCC::Sgt,
            IntCC::Sgt => IntCC::Sle,
            IntCC::Sge => IntCC::Slt,
            IntCC::Ult => IntCC::Uge,
            IntCC::Ule => IntCC::Ugt,
            IntCC::Ugt => IntCC::Ule,
            IntCC::Uge => IntCC::Ult,
        }
    }

    /// The condition with operands swapped (`a < b` is `b > a`).
    pub fn swapped(self) -> IntCC {
        match self {
            IntCC::Eq | IntCC::Ne => self,
            IntCC::Slt => IntCC::Sgt,
            IntCC::Sle => IntCC::Sge,
            IntCC::Sgt => IntCC::Slt,
            IntCC::Sge => IntCC::Sle,
            IntCC::Ult => IntCC::Ugt,
            IntCC::Ule => IntCC::Uge,
            IntCC::Ugt => IntCC::Ult,
            IntCC::Uge => IntCC::Ule,
        }
    }
}

named_enum! {
    /// Float comparison condition codes: `o*` are false when either operand is NaN,
    /// `u*` are true when either is NaN; `ord`/`uno` test for NaN only.
    FloatCC {
        Oeq = "oeq",
        One = "one",
        Olt = "olt",
        Ole = "ole",
        Ogt = "ogt",
        Oge = "oge",
        Ord = "ord",
        Ueq = "ueq",
        Une = "une",
        Ult = "ult",
        Ule = "ule",
        Ugt = "ugt",
        Uge = "uge",
        Uno = "uno",
    }
}

named_enum! {
    /// Read-modify-write operations of `atomic_rmw`.
    AtomicRmwOp {
        Add = "add",
        Sub = "sub",
        And = "and",
        Or = "or",
        Xor = "xor",
        Smin = "smin",
        Smax = "smax",
        Umin = "umin",
        Umax = "umax",
        Xchg = "xchg",
        Inc = "inc",
        Dec = "dec",
    }
}

named_enum! {
    /// Memory-model scope of fences and atomics.
    Scope {
        Cta = "cta",
        Gpu = "gpu",
        Sys = "sys",
    }
}

named_enum! {
    /// Warp shuffle modes (`shfl.sync.{idx,up,down,bfly}`).
    ShuffleMode {
        Idx = "idx",
        Up = "up",
        Down = "down",
        Xor = "xor",
    }
}

named_enum! {
    /// Warp vote modes (`vote.sync.{all,any,ballot}`).
    VoteMode {
        All = "all",
        Any = "any",
        Ballot = "ballot",
    }
}

named_enum! {
    /// GPU special registers readable with `sreg`.
    SpecialReg {
        TidX = "tid.x",
        TidY = "tid.y",
        TidZ = "tid.z",
        NtidX = "ntid.x",
        NtidY = "ntid.y",
        NtidZ = "ntid.z",
        CtaidX = "ctaid.x",
        CtaidY = "ctaid.y",
        CtaidZ = "ctaid.z",
        NctaidX = "nctaid.x",
        NctaidY = "nctaid.y",
        NctaidZ = "nctaid.z",
        Laneid = "laneid",
        Warpid = "warpid",
        Nwarpid = "nwarpid",
        Smid = "smid",
        Nsmid = "nsmid",
        Warpsize = "warpsize",
        Clock = "clock",
        Clock64 = "clock64",
    }
}

impl SpecialReg {
    /// The value can change while a thread runs (clocks; `warpid` and `smid` after
    /// preemption), so two reads are never interchangeable.
    pub fn is_volatile(self) -> bool {
        matches!(
            self,
            SpecialReg::Clock | SpecialReg::Clock64 | SpecialReg::Warpid | SpecialReg::Smid
        )
    }
}

/// Flags of a memory access.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemFlags {
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// Must not be removed, merged or reordered with other volatile accesses.
    pub volatile: bool,
    /// The memory does not change while the kernel runs (PTX `ld.global.nc`).
    pub readonly: bool,
}

impl MemFlags {
    /// Plain access with the given alignment.
    pub fn aligned(align: u32) -> MemFlags {
        MemFlags {
            align,
            volatile: false,
            readonly: false,
        }
    }
}

impl fmt::Display for MemFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "align {}", self.align)?;
        if self.volatile {
            f.write_str(" volatile")?;
        }
        if self.readonly {
            f.write_str(" readonly")?;
        }
        Ok(())
    }
}

/// Facts about an integer `iadd`, `isub`, `imul` or `shl` that its producer guarantees, so
/// passes may use them (LLVM's `nsw`). Every other opcode has no flags.
///
/// The rule for passes: a pass that changes an instruction's operands or opcode, or creates a
/// new instruction, sets `nsw` only if it proves the fact for the new instruction (e.g. from a
/// C `int` operation whose overflow is undefined); when in doubt it drops the flag, which is
/// always correct. Replacing an operand by a value equal to it keeps the flag.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ArithFlags {
    /// No signed wrap: the exact result of the operands read as signed fits the type (for
    /// `shl a, k`: the result is `a * 2^k` exactly). When it does not, the result is
    /// undefined (each use may see any value; nothing else goes wrong, so the instruction may
    /// still be hoisted or speculated). Hence `sext(a + b) == sext(a) + sext(b)`, and the
    /// same for `-` and `*`. The interpreter and the PTX emitter compute the wrapped result,
    /// one of the allowed values.
    pub nsw: bool,
}

impl ArithFlags {
    /// No facts.
    pub const NONE: ArithFlags = ArithFlags { nsw: false };
    /// No signed wrap.
    pub const NSW: ArithFlags = ArithFlags { nsw: true };

    /// The facts that hold for both of two instructions being merged into one.
    pub fn meet(self, other: ArithFlags) -> ArithFlags {
        ArithFlags {
            nsw: self.nsw && other.nsw,
        }
    }

    /// Whether an instruction with `opcode` may carry flags.
    pub fn allowed_on(opcode: Opcode) -> bool {
        matches!(
            opcode,
            Opcode::Iadd | Opcode::Isub | Opcode::Imul | Opcode::Shl
        )
    }
}

impl fmt::Display for ArithFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nsw {
            f.write_str(" nsw")?;
        }
        Ok(())
    }
}

/// A branch target with its block arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockCall {
    /// Destination block.
    pub block: Block,
    /// Arguments for the destination's parameters.
    pub args: ValueList,
}

/// The targets of one `br_table`: `calls[0]` is the default, `calls[1..]` the table.
#[derive(Clone, Debug, Default)]
pub struct JumpTableData {
    /// Default first, then index 0, 1, ...
    pub calls: Vec<BlockCall>,
}

/// An instruction's opcode and operands.
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub enum InstData {
    /// `barrier`, `activemask`, `unreachable`, `trap`, `stack_save`.
    Nullary { opcode: Opcode },
    /// `iconst`: the immediate is kept sign-extended; only the low bits of the type matter.
    UnaryImm { opcode: Opcode, imm: i64 },
    /// `fconst`: the IEEE bits of an `f64` (an `f32` constant is stored widened exactly).
    UnaryIeee { opcode: Opcode, bits: u64 },
    /// One value operand.
    Unary { opcode: Opcode, arg: Value },
    /// Two value operands; `flags` are facts the producer guarantees (`iadd nsw a, b`).
    Binary {
        opcode: Opcode,
        args: [Value; 2],
        flags: ArithFlags,
    },
    /// Three value operands (`select c, a, b`; `fma a, b, c`).
    Ternary { opcode: Opcode, args: [Value; 3] },
    /// `icmp cc a, b`.
    IntCompare { cond: IntCC, args: [Value; 2] },
    /// `fcmp cc a, b`.
    FloatCompare { cond: FloatCC, args: [Value; 2] },
    /// `sreg tid.x`.
    Special { reg: SpecialReg },
    /// `load.T space flags addr`.
    Load {
        space: AddrSpace,
        flags: MemFlags,
        arg: Value,
    },
    /// `store space flags value, addr`.
    Store {
        space: AddrSpace,
        flags: MemFlags,
        args: [Value; 2],
    },
    /// `stack_addr ss`.
    StackAddr { slot: StackSlot },
    /// `global_addr gv`.
    GlobalAddr { global: GlobalRef },
    /// `func_addr fn`: the address of a function, a generic `ptr`.
    FuncAddr { func: FuncRef },
    /// `call fn(args)`.
    Call { func: FuncRef, args: ValueList },
    /// `call_indirect sig, callee(args)`: `args[0]` is the callee pointer, the rest its
    /// arguments.
    CallIndirect { sig: SigRef, args: ValueList },
    /// `return args`.
    Return { args: ValueList },
    /// `jump block(args)`.
    Jump { dest: BlockCall },
    /// `brif c, then(args), else(args)`.
    Brif { arg: Value, blocks: [BlockCall; 2] },
    /// `br_table index, default(args), [t0(args), ...]`.
    BrTable { arg: Value, table: JumpTable },
    /// `atomic_rmw op space scope addr, value`: returns the old value.
    AtomicRmw {
        op: AtomicRmwOp,
        space: AddrSpace,
        scope: Scope,
        args: [Value; 2],
    },
    /// `atomic_cas space scope addr, expected, new`: returns the old value.
    AtomicCas {
        space: AddrSpace,
        scope: Scope,
        args: [Value; 3],
    },
    /// `fence scope`.
    Fence { scope: Scope },
    /// `shuffle mode value, lane, mask`.
    Shuffle { mode: ShuffleMode, args: [Value; 3] },
    /// `vote mode pred, mask`.
    Vote { mode: VoteMode, args: [Value; 2] },
}

impl InstData {
    /// The instruction's opcode.
    pub fn opcode(&self) -> Opcode {
        match self {
            InstData::Nullary { opcode }
            | InstData::UnaryImm { opcode, .. }
            | InstData::UnaryIeee { opcode, .. }
            | InstData::Unary { opcode, .. }
            | InstData::Binary { opcode, .. }
            | InstData::Ternary { opcode, .. } => *opcode,
            InstData::IntCompare { .. } => Opcode::Icmp,
            InstData::FloatCompare { .. } => Opcode::Fcmp,
            InstData::Special { .. } => Opcode::Sreg,
            InstData::Load { .. } => Opcode::Load,
            InstData::Store { .. } => Opcode::Store,
            InstData::StackAddr { .. } => Opcode::StackAddr,
            InstData::GlobalAddr { .. } => Opcode::GlobalAddr,
            InstData::FuncAddr { .. } => Opcode::FuncAddr,
            InstData::Call { .. } => Opcode::Call,
            InstData::CallIndirect { .. } => Opcode::CallIndirect,
            InstData::Return { .. } => Opcode::Return,
            InstData::Jump { .. } => Opcode::Jump,
            InstData::Brif { .. } => Opcode::Brif,
            InstData::BrTable { .. } => Opcode::BrTable,
            InstData::AtomicRmw { .. } => Opcode::AtomicRmw,
            InstData::AtomicCas { .. } => Opcode::AtomicCas,
            InstData::Fence { .. } => Opcode::Fence,
            InstData::Shuffle { .. } => Opcode::Shuffle,
            InstData::Vote { .. } => Opcode::Vote,
        }
    }

    /// The format of this instruction (`opcode().format()` in well-formed IR).
    pub fn format(&self) -> Format {
        match self {
            InstData::Nullary { .. } => Format::Nullary,
            InstData::UnaryImm { .. } => Format::UnaryImm,
            InstData::UnaryIeee { .. } => Format::UnaryIeee,
            InstData::Unary { .. } => Format::Unary,
            InstData::Binary { .. } => Format::Binary,
            InstData::Ternary { .. } => Format::Ternary,
            InstData::IntCompare { .. } => Format::IntCompare,
            InstData::FloatCompare { .. } => Format::FloatCompare,
            InstData::Special { .. } => Format::Special,
            InstData::Load { .. } => Format::Load,
            InstData::Store { .. } => Format::Store,
            InstData::StackAddr { .. } => Format::StackAddr,
            InstData::GlobalAddr { .. } => Format::GlobalAddr,
            InstData::FuncAddr { .. } => Format::FuncAddr,
            InstData::Call { .. } => Format::Call,
            InstData::CallIndirect { .. } => Format::CallIndirect,
            InstData::Return { .. } => Format::Return,
            InstData::Jump { .. } => Format::Jump,
            InstData::Brif { .. } => Format::Brif,
            InstData::BrTable { .. } => Format::BrTable,
            InstData::AtomicRmw { .. } => Format::AtomicRmw,
            InstData::AtomicCas { .. } => Format::AtomicCas,
            InstData::Fence { .. } => Format::Fence,
            InstData::Shuffle { .. } => Format::Shuffle,
            InstData::Vote { .. } => Format::Vote,
        }
    }

    /// A binary instruction with no flags.
    pub fn binary(opcode: Opcode, args: [Value; 2]) -> InstData {
        InstData::Binary {
            opcode,
            args,
            flags: ArithFlags::NONE,
        }
    }

    /// The arithmetic flags (none for formats other than `Binary`).
    pub fn arith_flags(&self) -> ArithFlags {
        match self {
            InstData::Binary { flags, .. } => *flags,
            _ => ArithFlags::NONE,
        }
    }

    /// Replaces the arithmetic flags (no effect on formats other than `Binary`).
    pub fn set_arith_flags(&mut self, new: ArithFlags) {
        if let InstData::Binary { flags, .. } = self {
            *flags = new;
        }
    }

    /// Whether this instruction carries `nsw`.
    pub fn is_nsw(&self) -> bool {
        self.arith_flags().nsw
    }

    /// The value operands, excluding block-call arguments.
    pub fn arguments<'a>(&'a self, pool: &'a ValueListPool) -> &'a [Value] {
        match self {
            InstData::Unary { arg, .. }
            | InstData::Load { arg, .. }
            | InstData::Brif { arg, .. }
            | InstData::BrTable { arg, .. } => std::slice::from_ref(arg),
            InstData::Binary { args, .. }
            | InstData::IntCompare { args, .. }
            | InstData::FloatCompare { args, .. }
            | InstData::Store { args, .. }
            | InstData::AtomicRmw { args, .. }
            | InstData::Vote { args, .. } => args,
            InstData::Ternary { args, .. }
            | InstData::AtomicCas { args, .. }
            | InstData::Shuffle { args, .. } => args,
            InstData::Call { args, .. }
            | InstData::CallIndirect { args, .. }
            | InstData::Return { args } => args.as_slice(pool),
            InstData::Nullary { .. }
            | InstData::UnaryImm { .. }
            | InstData::UnaryIeee { .. }
            | InstData::Special { .. }
            | InstData::StackAddr { .. }
            | InstData::GlobalAddr { .. }
            | InstData::FuncAddr { .. }
            | InstData::Jump { .. }
            | InstData::Fence { .. } => &[],
        }
    }

    /// The value operands, mutable, excluding block-call arguments.
    pub fn arguments_mut<'a>(&'a mut self, pool: &'a mut ValueListPool) -> &'a mut [Value] {
        match self {
            InstData::Unary { arg, .. }
            | InstData::Load { arg, .. }
            | InstData::Brif { arg, .. }
            | InstData::BrTable { arg, .. } => std::slice::from_mut(arg),
            InstData::Binary { args, .. }
            | InstData::IntCompare { args, .. }
            | InstData::FloatCompare { args, .. }
            | InstData::Store { args, .. }
            | InstData::AtomicRmw { args, .. }
            | InstData::Vote { args, .. } => args,
            InstData::Ternary { args, .. }
            | InstData::AtomicCas { args, .. }
            | InstData::Shuffle { args, .. } => args,
            InstData::Call { args, .. }
            | InstData::CallIndirect { args, .. }
            | InstData::Return { args } => args.as_mut_slice(pool),
            InstData::Nullary { .. }
            | InstData::UnaryImm { .. }
            | InstData::UnaryIeee { .. }
            | InstData::Special { .. }
            | InstData::StackAddr { .. }
            | InstData::GlobalAddr { .. }
            | InstData::FuncAddr { .. }
            | InstData::Jump { .. }
            | InstData::Fence { .. } => &mut [],
        }
    }

    /// Branch targets with their arguments (empty for non-branches).
    pub fn branch_destinations<'a>(
        &'a self,
        jump_tables: &'a PrimaryMap<JumpTable, JumpTableData>,
    ) -> &'a [BlockCall] {
        match self {
            InstData::Jump { dest } => std::slice::from_ref(dest),
            InstData::Brif { blocks, .. } => blocks,
            InstData::BrTable { table, .. } => jump_tables.get(*table).map_or(&[], |t| &t.calls),
            _ => &[],
        }
    }
}
