//! Functions, signatures and modules.
//!
//! A `Function` owns its data-flow graph and layout plus the per-function declarations the text
//! form writes in its preamble (stack slots, referenced globals, callees). A `Module` owns
//! functions, global variables and external function declarations; module-level names are
//! unique and every per-function reference names a module entity with the same signature or
//! address space (checked by `verify_module`).
//!
//! Linkage is a property of a module symbol, so it lives in the module's table
//! (`Module::linkage`, keyed by name; a symbol without an entry is `Linkage::Export`) rather than
//! in `GlobalData` or `Function`: a function printed or parsed on its own has no linkage.
//! Launch bounds belong to a kernel's body and live on the `Function`.

use crate::dfg::DataFlowGraph;
use crate::entities::{Block, Inst, StackSlot, Value};
use crate::layout::Layout;
use crate::srcloc::SourceLoc;
use crate::types::{AddrSpace, Type};
use cranelift_entity::{PrimaryMap, SecondaryMap};
use rustc_hash::FxHashMap;
use std::fmt;

/// Parameter and return types of a function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Signature {
    /// Parameter types, in order.
    pub params: Vec<Type>,
    /// Return types, in order.
    pub returns: Vec<Type>,
}

impl Signature {
    /// A signature from parameter and return types.
    pub fn new(params: Vec<Type>, returns: Vec<Type>) -> Signature {
        Signature { params, returns }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, t) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{t}")?;
        }
        f.write_str(")")?;
        for (i, t) in self.returns.iter().enumerate() {
            f.write_str(if i == 0 { " -> " } else { ", " })?;
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// Whether a function is a kernel entry point or a device function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FuncKind {
    /// A kernel (`.entry`): launched from the host, returns nothing.
    Kernel,
    /// A device function (`.func`): called from device code.
    Device,
}

impl FuncKind {
    /// The keyword that starts the function in the text form.
    pub fn keyword(self) -> &'static str {
        match self {
            FuncKind::Kernel => "kernel",
            FuncKind::Device => "func",
        }
    }
}

/// Who sees a module symbol.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// Defined here and visible to other modules (PTX `.visible`); the default.
    #[default]
    Export,
    /// Defined here and private to the module (C `static`; PTX writes no qualifier).
    Internal,
    /// Declared here, defined outside the module (PTX `.extern`): a `shared` global of size 0
    /// (the dynamic shared-memory array whose size the kernel launch gives), or a `global` or
    /// `const` variable that another unit's module defines (resolved when modules are linked).
    /// On a declaration (`extern declare`): a function another module defines, as opposed to
    /// one the device runtime provides or a library links in (no entry).
    Extern,
}

impl Linkage {
    /// The keyword the text form writes before the item (`None` for the default).
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            Linkage::Export => None,
            Linkage::Internal => Some("internal"),
            Linkage::Extern => Some("extern"),
        }
    }

    /// The linkage a text keyword names.
    pub fn from_keyword(word: &str) -> Option<Linkage> {
        match word {
            "internal" => Some(Linkage::Internal),
            "extern" => Some(Linkage::Extern),
            _ => None,
        }
    }
}

/// A kernel's launch bounds, promised by the program and passed to ptxas (`.maxntid`,
/// `.reqntid`, `.minnctapersm`) so it can budget registers. All optional; default none.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaunchBounds {
    /// At most this many threads per block (`.maxntid`).
    pub max_threads: Option<u32>,
    /// Exactly this block shape (`.reqntid x, y, z`).
    pub req_threads: Option<[u32; 3]>,
    /// At least this many blocks resident per multiprocessor (`.minnctapersm`).
    pub min_blocks: Option<u32>,
}

impl LaunchBounds {
    /// Whether no bound is set.
    pub fn is_empty(&self) -> bool {
        *self == LaunchBounds::default()
    }
}

impl fmt::Display for LaunchBounds {
    /// The text form after a kernel's signature: ` max_threads(N) req_threads(X, Y, Z)
    /// min_blocks(N)`, each part only when set (empty when none is).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.max_threads {
            write!(f, " max_threads({n})")?;
        }
        if let Some([x, y, z]) = self.req_threads {
            write!(f, " req_threads({x}, {y}, {z})")?;
        }
        if let Some(n) = self.min_blocks {
            write!(f, " min_blocks({n})")?;
        }
        Ok(())
    }
}

/// How the inliner treats a function (C `always_inline`, `noinline`, `inline`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum InlineAttr {
    /// No preference: the inliner's cost threshold decides.
    #[default]
    Default,
    /// `inline` / `static inline`: a larger threshold applies (text: `inlinehint`).
    Hint,
    /// `__attribute__((always_inline))`: inlined whatever its size, unless recursive.
    Always,
    /// `__attribute__((noinline))`: never inlined.
    Never,
}

impl InlineAttr {
    /// The keyword the text form writes after the signature (`None` for the default).
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            InlineAttr::Default => None,
            InlineAttr::Hint => Some("inlinehint"),
            InlineAttr::Always => Some("always_inline"),
            InlineAttr::Never => Some("noinline"),
        }
    }

    /// The attribute a text keyword names.
    pub fn from_keyword(word: &str) -> Option<InlineAttr> {
        match word {
            "inlinehint" => Some(InlineAttr::Hint),
            "always_inline" => Some(InlineAttr::Always),
            "noinline" => Some(InlineAttr::Never),
            _ => None,
        }
    }
}

/// Function attributes the optimizer reads. Text form, after the launch bounds:
/// `inlinehint | always_inline | noinline` and `noalias(0, 2)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FuncAttrs {
    /// Inlining preference.
    pub inline: InlineAttr,
    /// Indices of pointer parameters through which the function reaches memory that no other
    /// pointer it can see (other parameters, globals) reaches: C `restrict` parameters, or
    /// distinct kernel parameters the program promises not to overlap. Sorted, no duplicates.
    pub noalias: Vec<u32>,
}

impl FuncAttrs {
    /// Whether parameter `index` is `noalias`.
    pub fn is_noalias(&self, index: usize) -> bool {
        self.noalias.iter().any(|&i| i as usize == index)
    }
}

impl fmt::Display for FuncAttrs {
    /// The text form after the signature and launch bounds (empty when nothing is set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = self.inline.keyword() {
            write!(f, " {k}")?;
        }
        if !self.noalias.is_empty() {
            let ns: Vec<String> = self.noalias.iter().map(|n| n.to_string()).collect();
            write!(f, " noalias({})", ns.join(", "))?;
        }
        Ok(())
    }
}

/// A loop unrolling request, attached to the loop's header block (`#pragma unroll N`,
/// `#pragma GCC unroll N`, `#pragma nounroll`). Text form after the header's parameters:
/// `block1(v3: i32) unroll(4):`, `unroll(full)`, `nounroll`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LoopHint {
    /// `#pragma nounroll`, `#pragma unroll 1`, `#pragma GCC unroll 0|1`: never unroll.
    Disable,
    /// `#pragma unroll N` / `#pragma GCC unroll N` (N >= 2): unroll by N.
    Count(u32),
    /// `#pragma unroll` without a count: unroll fully when the trip count is known.
    Full,
}

impl fmt::Display for LoopHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopHint::Disable => f.write_str("nounroll"),
            LoopHint::Count(n) => write!(f, "unroll({n})"),
            LoopHint::Full => f.write_str("unroll(full)"),
        }
    }
}

/// A stack slot: `size` bytes of per-thread local memory aligned to `align`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackSlotData {
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes (a power of two).
    pub align: u32,
}

/// One function: name, signature, frame, data-flow graph and layout.
#[derive(Clone, Debug)]
pub struct Function {
    /// Symbol name (without `@`).
    pub name: String,
    /// Kernel or device function.
    pub kind: FuncKind,
    /// Parameter and return types; the entry block's parameters match `sig.params`.
    pub sig: Signature,
    /// Stack slots of the frame.
    pub stack_slots: PrimaryMap<StackSlot, StackSlotData>,
    /// Instructions, values, blocks and declarations.
    pub dfg: DataFlowGraph,
    /// Order of blocks and instructions.
    pub layout: Layout,
    /// Source location of each instruction (unknown where no entry was set); see `srcloc`.
    pub srclocs: SecondaryMap<Inst, SourceLoc>,
    /// Launch bounds (kernels only).
    pub launch_bounds: LaunchBounds,
    /// Inlining preference and `noalias` parameters.
    pub attrs: FuncAttrs,
    /// Unrolling requests, keyed by loop header block.
    pub loop_hints: SecondaryMap<Block, Option<LoopHint>>,
}

impl Function {
    /// An empty function (no blocks yet).
    pub fn new(name: impl Into<String>, kind: FuncKind, sig: Signature) -> Function {
        Function {
            name: name.into(),
            kind,
            sig,
            stack_slots: PrimaryMap::new(),
            dfg: DataFlowGraph::new(),
            layout: Layout::new(),
            srclocs: SecondaryMap::new(),
            launch_bounds: LaunchBounds::default(),
            attrs: FuncAttrs::default(),
            loop_hints: SecondaryMap::new(),
        }
    }

    /// The source location of `inst` (unknown when none was recorded).
    pub fn srcloc(&self, inst: Inst) -> SourceLoc {
        self.srclocs[inst]
    }

    /// Records the source location of `inst`.
    pub fn set_srcloc(&mut self, inst: Inst, loc: SourceLoc) {
        self.srclocs[inst] = loc;
    }

    /// Adds a stack slot.
    pub fn create_stack_slot(&mut self, size: u32, align: u32) -> StackSlot {
        self.stack_slots.push(StackSlotData { size, align })
    }

    /// Rewrites every use of `from` in the layout (operands and block arguments) to `to`.
    /// O(instructions); passes with many replacements should batch them.
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        let insts: Vec<Inst> = self.layout.all_insts().collect();
        for inst in insts {
            self.dfg
                .map_inst_uses(inst, |v| if v == from { to } else { v });
        }
    }
}

/// A module-level global variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalData {
    /// Symbol name (without `@`).
    pub name: String,
    /// The space it lives in (`global`, `shared` or `const`).
    pub space: AddrSpace,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// Initial contents (at most `size` bytes; the rest is zero). `None`: uninitialized.
    pub init: Option<Vec<u8>>,
}

/// An address stored in a global's initial contents: the 8-byte little-endian generic
/// address of the module global or function `target`, plus `addend`, at byte `offset`.
/// Text form: `OFFSET: @target+ADDEND` (`+0` omitted, negative addends as `-N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// Byte offset in the global (a multiple of 8).
    pub offset: u64,
    /// Name of a module global or defined function.
    pub target: String,
    /// Bytes added to the target's address.
    pub addend: i64,
}

impl std::fmt::Display for Reloc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: @{}", self.offset, self.target)?;
        match self.addend {
            0 => Ok(()),
            a if a > 0 => write!(f, "+{a}"),
            a => write!(f, "{a}"),
        }
    }
}

/// A function declared but defined elsewhere (e.g. `vprintf`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncDecl {
    /// Symbol name (without `@`).
    pub name: String,
    /// Its signature.
    pub sig: Signature,
}

/// A translation unit of device code.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Global variables.
    pub globals: Vec<GlobalData>,
    /// External function declarations.
    pub decls: Vec<FuncDecl>,
    /// Defined functions.
    pub functions: Vec<Function>,
    /// Source file names; `SourceLoc::file` indexes this table.
    pub files: Vec<String>,
    /// Linkage of globals and functions by name; absent names are `Linkage::Export`.
    pub linkage: FxHashMap<String, Linkage>,
    /// Addresses in global initializers, by global name, sorted by offset; they overwrite
    /// the initializer's bytes at their offsets (see [`Reloc`]).
    pub relocs: FxHashMap<String, Vec<Reloc>>,
}

impl Module {
    /// An empty module.
    pub fn new() -> Module {
        Module::default()
    }

    /// The defined function with this name.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The signature of a defined or declared function.
    pub fn signature_of(&self, name: &str) -> Option<&Signature> {
        self.function(name)
            .map(|f| &f.sig)
            .or_else(|| self.decls.iter().find(|d| d.name == name).map(|d| &d.sig))
    }

    /// The index of source file `name` in `files`, adding it when new.
    pub fn add_file(&mut self, name: &str) -> u32 {
        match self.files.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.files.push(name.to_string());
                (self.files.len() - 1) as u32
            }
        }
    }

    /// The linkage of the global or function `name`.
    pub fn linkage_of(&self, name: &str) -> Linkage {
        self.linkage.get(name).copied().unwrap_or_default()
    }

    /// Sets the linkage of the global or function `name` (the default removes the entry, so
    /// equal modules have equal tables).
    pub fn set_linkage(&mut self, name: &str, linkage: Linkage) {
        if linkage == Linkage::Export {
            self.linkage.remove(name);
        } else {
            self.linkage.insert(name.to_string(), linkage);
        }
    }

    /// The global variable with this name.
    pub fn global(&self, name: &str) -> Option<&GlobalData> {
        self.globals.iter().find(|g| g.name == name)
    }
}
