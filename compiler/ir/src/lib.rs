//! SSA IR: entities, types, instructions, builder, verifier, text printer and parser, CFG
//! analyses.
//!
//! The IR follows Cranelift's shape: a `Function` is a `DataFlowGraph` (instructions and
//! values) plus a `Layout` (their order); blocks take parameters instead of phi nodes. The text
//! form (`write`, `parse`) round-trips with the same entity numbers, so every pass can be tested
//! from a file.

pub mod analysis;
pub mod builder;
pub mod dfg;
pub mod entities;
pub mod function;
pub mod instructions;
pub mod layout;
pub mod parser;
pub mod types;
pub mod verifier;
pub mod write;

pub use builder::{FuncCursor, FunctionBuilder, InsertBuilder, InsertPoint};
pub use dfg::{DataFlowGraph, ValueDef};
pub use entities::{AnyEntity, Block, FuncRef, GlobalRef, Inst, JumpTable, StackSlot, Value};
pub use function::{FuncDecl, FuncKind, Function, GlobalData, Module, Signature, StackSlotData};
pub use instructions::{
    AtomicRmwOp, BlockCall, FloatCC, InstData, IntCC, MemFlags, Opcode, Scope, ShuffleMode,
    SpecialReg, VoteMode,
};
pub use layout::Layout;
pub use parser::{ParseError, SourceMap, parse_module};
pub use types::{AddrSpace, Type};
pub use verifier::{VerifierError, verify_function, verify_module};
