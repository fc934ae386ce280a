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
pub mod interp;
pub mod layout;
pub mod parser;
pub mod semantics;
pub mod types;
pub mod verifier;
pub mod write;

pub use builder::{FuncCursor, FunctionBuilder, InsertBuilder, InsertPoint};
pub use dfg::{DataFlowGraph, ValueDef};
pub use entities::{AnyEntity, Block, FuncRef, GlobalRef, Inst, JumpTable, StackSlot, Value};
pub use function::{FuncDecl, FuncKind, Function, GlobalData, Module, Signature, StackSlotData};
pub use instructions::{
    AtomicRmwOp, BlockCall, FloatCC, Format, InstData, IntCC, MemFlags, Opcode, Scope, ShuffleMode,
    SpecialReg, VoteMode,
};
pub use layout::Layout;
pub use parser::{
    Location, ParseError, SourceMap, parse_function, parse_module, parse_module_with_locations,
};
pub use types::{AddrSpace, Type};
pub use verifier::{ErrorLocation, VerifierError, annotate, verify_function, verify_module};
pub use write::{WriteOptions, function_to_string, module_to_string};
