//! Functions, signatures and modules.
//!
//! A `Function` owns its data-flow graph and layout plus the per-function declarations the text
//! form writes in its preamble (stack slots, referenced globals, callees). A `Module` owns
//! functions, global variables and external function declarations; module-level names are
//! unique and every per-function reference names a module entity with the same signature or
//! address space (checked by `verify_module`).

use crate::dfg::DataFlowGraph;
use crate::entities::{Inst, StackSlot, Value};
use crate::layout::Layout;
use crate::types::{AddrSpace, Type};
use cranelift_entity::PrimaryMap;
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
        }
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

    /// The global variable with this name.
    pub fn global(&self, name: &str) -> Option<&GlobalData> {
        self.globals.iter().find(|g| g.name == name)
    }
}
