//! SSA IR: entities, types, instructions, builder, verifier, text printer and parser, CFG
//! analyses, and a reference interpreter.
//!
//! The IR follows Cranelift's shape: a `Function` is a `DataFlowGraph` (instructions and
//! values) plus a `Layout` (their order); blocks take parameters instead of phi nodes. The text
//! form (`write`, `parser`) round-trips with the same entity numbers, so every pass can be
//! tested from a file. Instructions may carry source locations (`srcloc`: `!loc FILE:LINE:COL`
//! after the operands, files named by `file N "path"` module items); globals and functions may
//! be `internal` (or `extern`: the dynamic shared array, or a variable another module defines) and kernels may carry launch
//! bounds (`kernel @k() max_threads(256) {`). Function pointers are `func_addr fnN` values
//! called with `call_indirect sigN, vP(args)` (`sigN = (i32) -> i32` in the preamble); local
//! VLAs use `stack_alloc` with `stack_save`/`stack_restore`; a global's initializer may hold
//! addresses (`global @p: global, size 8, align 8 relocs [0: @g+4]`). Integer `iadd`,
//! `isub`, `imul` and `shl` may say `nsw` (`v3 = iadd nsw v1, v2`: no signed wrap, from C's
//! undefined signed overflow; see `ArithFlags` for what it means and the rule passes follow:
//! a pass that changes an instruction's operands or creates one says `nsw` only if it proves
//! it, and dropping the flag is always correct):
//!
//! ```text
//! global @hits: shared, size 4, align 4
//! declare @vprintf(ptr, ptr) -> i32
//!
//! kernel @scale(i32, f32, ptr(global)) {
//!     ss0 = stack_slot size 8, align 8
//!     gv0 = global @hits: shared
//!     fn0 = func @vprintf(ptr, ptr) -> i32
//!
//! block0(v0: i32, v1: f32, v2: ptr(global)):
//!     v3 = sreg tid.x
//!     v4 = icmp slt v3, v0
//!     brif v4, block1(v3), block2
//!
//! block1(v5: i32):
//!     v6 = sext.i64 v5
//!     v7 = iconst.i64 4
//!     v8 = imul nsw v6, v7
//!     v9 = ptr_offset v2, v8
//!     v10 = load.f32 global align 4 v9
//!     v11 = fmul v10, v1
//!     store global align 4 v11, v9
//!     jump block2
//!
//! block2:
//!     return
//! }
//! ```
//!
//! Building the same kind of code through the API:
//!
//! ```
//! use ompcc_ir::*;
//! let sig = Signature::new(vec![Type::I32, Type::I32], vec![Type::I32]);
//! let mut func = Function::new("max", FuncKind::Device, sig);
//! let mut b = FunctionBuilder::new(&mut func);
//! let entry = b.create_entry_block();
//! let join = b.create_block();
//! let r = b.append_block_param(join, Type::I32);
//! b.switch_to_block(entry);
//! let (x, y) = (b.block_params(entry)[0], b.block_params(entry)[1]);
//! let c = b.ins().icmp(IntCC::Sgt, x, y);
//! b.ins().brif(c, join, &[x], join, &[y]);
//! b.switch_to_block(join);
//! b.ins().ret(&[r]);
//! verify_function(&func).unwrap();
//! assert!(func.to_string().contains("brif v3, block1(v0), block1(v1)"));
//! ```

pub mod analysis;
pub mod builder;
pub mod dfg;
pub mod entities;
pub mod function;
pub mod instructions;
pub mod interp;
pub mod layout;
pub mod link;
pub mod parser;
pub mod semantics;
pub mod srcloc;
pub mod types;
pub mod verifier;
pub mod write;

pub use builder::{FuncCursor, FunctionBuilder, InsertBuilder, InsertPoint, Variable};
pub use dfg::{DataFlowGraph, ValueDef};
pub use entities::{
    AnyEntity, Block, FuncRef, GlobalRef, Inst, JumpTable, SigRef, StackSlot, Value,
};
pub use function::Reloc;
pub use function::{
    FuncAttrs, FuncDecl, FuncKind, Function, GlobalData, InlineAttr, LaunchBounds, Linkage,
    LoopHint, Module, Signature, StackSlotData,
};
pub use instructions::{
    ArithFlags, AtomicRmwOp, BlockCall, FloatCC, Format, InstData, IntCC, MemFlags, Opcode, Scope,
    ShuffleMode, SpecialReg, VoteMode,
};
pub use layout::Layout;
pub use parser::{
    Location, ParseError, SourceMap, parse_function, parse_module, parse_module_with_locations,
};
pub use srcloc::SourceLoc;
pub use types::{AddrSpace, Type};
pub use verifier::{ErrorLocation, VerifierError, annotate, verify_function, verify_module};
pub use write::{WriteOptions, function_to_string, module_to_string};
