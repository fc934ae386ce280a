//! Typed AST -> SSA IR for the functions that run on the device.
//!
//! [`lower_functions`] selects the device functions of a checked translation unit (those
//! inside `declare target` / `begin declare target`, named by `declare target(list)`, or all
//! definitions), lowers each to an `ompcc_ir::Function`, and pulls in every function of the
//! unit they call (implicitly declare target, as OpenMP 5.x says). The result verifies with
//! `ompcc_ir::verify_module`, also when diagnostics were reported: a function whose body could
//! not be lowered gets a body that traps, so callers stay valid.
//!
//! Lowering strategy (the clang one): every local lives in a stack slot and is read and written
//! through `load`/`store`; `mem2reg`/`sroa` promote the slots whose address never escapes.
//! C pointers are generic `ptr`s; addresses of locals stay `ptr(local)` until they escape, so
//! accesses to them can be promoted. Structs and unions are handled through their address (by
//! value copies are unit-wise loads and stores); struct parameters and results pass through
//! pointers to caller-owned copies. Everything the device cannot do is an `E08xx` error at
//! the construct, never a panic and never silently wrong code.
//!
//! Lowered: integer and float arithmetic of every width with C's conversions (as sema
//! recorded them), `_Bool`, pointers and pointer arithmetic, arrays, pointers to VLAs (run-time
//! strides), structs/unions by value and by pointer, bitfields, every statement (loops,
//! `switch` as compares or `br_table`, `goto`), `&&`/`||`/`?:` as control flow, compound
//! assignment, `++`/`--`, casts, `sizeof` (VLAs too), compound literals, designated
//! initializers, statement expressions, recursion, static locals and file-scope objects as
//! module globals with constant initializers (addresses of objects, members, array elements,
//! functions, string literals and compound literals, plus constant offsets, as IR
//! relocations), string literals, `printf` (as
//! `vprintf` with CUDA's argument buffer), `assert`/`abort`, bit builtins, the exact math
//! builtins (`__builtin_sqrt`, `fma`, `fmin`/`fmax`, `copysign`, `floor`, `ceil`, `trunc`:
//! single IR operations), `__builtin_tgmath`, function pointers (`func_addr`, calls through
//! them as `call_indirect`), local VLAs (`stack_alloc`; the block's stack top is saved before
//! its first VLA and restored when the block ends or a `break`/`continue` leaves it; a `goto`
//! out of it keeps the memory until the function returns), `#pragma omp atomic`, `simd`
//! without privatization (run in order), `flush` (a fence). Calls to [`DEVICE_API`] and
//! [`MATH_FUNCTIONS`] stay calls to external functions.
//!
//! Diagnosed (`E0801`-`E0808`): other variadic calls and definitions, `va_arg`, calls to
//! functions without a device body (and their addresses), calls through pointers to variadic
//! functions, `setjmp`/`longjmp`, inline assembly, `long double`, `__int128`, `_Complex`,
//! thread-locals, global initializers that are neither constants nor constant addresses,
//! other OpenMP directives inside device functions. `E0899` reports
//! a lowering bug caught by the verifier instead of emitting invalid IR.
//!
//! Source locations: with `LowerOptions::source_map`, each statement's instructions carry its
//! start (file, line, column) and each expression's own instructions carry the expression's
//! start; a function's prologue has its declarator's location and the implicit return the
//! closing brace's.

mod ctx;
mod expr;
mod func;
mod ty;
mod walk;

use ompcc_diag::Diagnostic;
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::TranslationUnit;

pub use ctx::{DEVICE_API, MATH_FUNCTIONS};

/// Which function definitions of the unit become device functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionSelection {
    /// Functions inside `declare target` regions or named by `declare target(list)` /
    /// `declare target enter(list)` / `to(list)`.
    DeclareTarget,
    /// Every function definition (`--device-only`).
    All,
    /// The definitions with these names.
    Named(Vec<String>),
}

/// Lowering options.
#[derive(Clone, Debug)]
pub struct LowerOptions<'a> {
    /// Also lower every function of the unit that a selected function calls (default true).
    pub include_callees: bool,
    /// The unit's source map: when given, every instruction carries the file, line and column
    /// of the statement or expression it implements (`!loc`, PTX `.loc` under `-g`).
    pub source_map: Option<&'a ompcc_diag::SourceMap>,
}

impl Default for LowerOptions<'_> {
    fn default() -> Self {
        LowerOptions {
            include_callees: true,
            source_map: None,
        }
    }
}

/// Lowers the selected functions of a checked translation unit to one IR module.
///
/// Diagnostics are `E08xx` errors for constructs the device cannot run (and `W08xx` warnings);
/// the module is valid IR whatever they say.
pub fn lower_functions(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    which: &FunctionSelection,
    opts: &LowerOptions<'_>,
) -> (ompcc_ir::Module, Vec<Diagnostic>) {
    let mut cx = ctx::Ctx::new(tu, typed, opts.include_callees, opts.source_map);
    for sym in cx.select(which) {
        cx.enqueue(sym);
    }
    cx.run();
    cx.finish()
}
