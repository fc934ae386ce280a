//! Entity references: `u32` newtypes that index the function's tables.
//!
//! `Display` prints each entity exactly as the text syntax writes it (`v3`, `block2`, `ss0`,
//! `fn1`, `gv0`, `jt0`), so the printer and error messages never format numbers by hand.
//! An entity is only meaningful together with the `Function` (or `Module`) that created it.

use cranelift_entity::entity_impl;

/// An SSA value: an instruction result or a block parameter.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// An instruction in the data-flow graph (not printed in the text form).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// A basic block with parameters.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// A stack slot in the function's frame (PTX `.local`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StackSlot(u32);
entity_impl!(StackSlot, "ss");

/// A function the current function may call, declared in its preamble.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncRef(u32);
entity_impl!(FuncRef, "fn");

/// A module global the current function refers to, declared in its preamble.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalRef(u32);
entity_impl!(GlobalRef, "gv");

/// A call signature declared in a function's preamble, for `call_indirect`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SigRef(u32);
entity_impl!(SigRef, "sig");

/// A jump table of a `br_table` instruction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JumpTable(u32);
entity_impl!(JumpTable, "jt");

/// Any entity an error or annotation can be attached to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AnyEntity {
    /// The whole function.
    Function,
    /// A block header.
    Block(Block),
    /// An instruction.
    Inst(Inst),
    /// A value (attached to its definition).
    Value(Value),
    /// A stack slot declaration.
    StackSlot(StackSlot),
    /// A function declaration.
    FuncRef(FuncRef),
    /// A global declaration.
    GlobalRef(GlobalRef),
    /// A signature declaration.
    SigRef(SigRef),
}

impl std::fmt::Display for AnyEntity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyEntity::Function => f.write_str("function"),
            AnyEntity::Block(b) => b.fmt(f),
            AnyEntity::Inst(i) => i.fmt(f),
            AnyEntity::Value(v) => v.fmt(f),
            AnyEntity::StackSlot(s) => s.fmt(f),
            AnyEntity::FuncRef(r) => r.fmt(f),
            AnyEntity::GlobalRef(g) => g.fmt(f),
            AnyEntity::SigRef(s) => s.fmt(f),
        }
    }
}
