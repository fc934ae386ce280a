//! IR module -> PTX text.
//!
//! The pipeline per module: verify the IR (`ompcc_ir::verify_module`), legalize each function
//! on a copy (`legalize`: `i1` in memory, `i1` compares and selects, exact `i8` values where an
//! operation needs them, underaligned accesses split), then emit (`writer` for frames, calls
//! and control flow, `insts` per instruction family): one typed virtual register per SSA value
//! (`regs`), 64-bit products of widened 32-bit values as one `mul.wide` (`widemul`), block parameters leave SSA through parallel copies on edges (`copies`) unless the
//! value a `jump` passes can be computed in the parameter's register (`coalesce`), blocks are
//! laid out in IR order with fallthrough. ptxas does the real register allocation.
//!
//! Linkage: exported globals and functions are `.visible`, internal ones get no qualifier,
//! shared variables never do; the dynamic shared array (`extern` shared global of size 0) is
//! `.extern .shared .align A .b8 name[];`, an `extern` global or const variable (defined by
//! another unit) `.extern .global .align A .b8 name[N];`, and a function declaration
//! `.extern .func`: a module with such externs is assembled on its own with `ptxas -c` and
//! resolved when the program's modules are linked (`cuLink*`, the emulator's linker). Kernel launch bounds become `.maxntid`, `.reqntid`
//! and `.minnctapersm` between the parameter list and the body.
//!
//! Function pointers: `func_addr` is `mov.u64 %rd, name`; `call_indirect` calls through the
//! register with a `.callprototype` of its signature declared in the call's scope. Dynamic
//! stack (`stack_alloc`, `stack_save`, `stack_restore`) is `alloca`, `stacksave` and
//! `stackrestore`, which need PTX ISA 7.3: a module using them gets `.version 7.3` at least.
//! Globals whose initializer holds addresses (`Module::relocs`) become `.u64` arrays of
//! numbers and `generic(sym)+N` / function names, written after the plain globals and the
//! function prototypes (PTX wants symbols declared before an initializer names them), in an
//! order where each comes after the relocated globals it names; a cycle is a `PtxError`.
//!
//! Line info (`PtxOptions::line_info`, set by `-g`/`-lineinfo`): the module's source files
//! become `.file N "path"` directives (IR file index + 1: PTX numbers files from 1) and each
//! instruction with a source location is preceded by `.loc N LINE COL` when its location
//! differs from the previous one in the function. Code the backend adds on its own (parameter
//! loads, edge copies, trampolines) carries the location of the instruction it belongs to, or
//! none.
//!
//! ```
//! let ir = "kernel @k(ptr(global)) {\nblock0(v0: ptr(global)):\n    v1 = sreg tid.x\n    \
//!           store global align 4 v1, v0\n    return\n}\n";
//! let module = ompcc_ir::parse_module(ir).unwrap();
//! let ptx = ompcc_ptx::emit_module(&module, &ompcc_ptx::PtxOptions::default()).unwrap();
//! assert!(ptx.contains(".visible .entry k("));
//! assert!(ptx.contains("st.global.u32 [%rd1], %r1;"));
//! ```
//!
//! Invariant: everything the verifier accepts either becomes PTX that ptxas assembles for the
//! chosen target, or a `PtxError` naming the function and the reason; nothing here panics on a
//! verified module.

mod coalesce;
mod copies;
mod insts;
mod legalize;
mod regs;
mod widemul;
mod writer;

use ompcc_ir::{Module, VerifierError};
use std::fmt;

pub use writer::{RUNTIME_FUNCS, Writer};

/// Emission options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxOptions {
    /// Target compute capability times ten (`70` for `sm_70`).
    pub sm: u32,
    /// Lower large `br_table`s to `brx.idx` jump tables instead of a binary search of
    /// compares (off by default: the built-in emulator does not run `brx.idx` yet).
    pub jump_tables: bool,
    /// Write `.file`/`.loc` line information from the IR's source locations.
    pub line_info: bool,
}

impl Default for PtxOptions {
    /// `sm_70` with PTX ISA 7.0: the PTX then JIT-compiles on every GPU from Volta on with any
    /// driver since CUDA 11.0.
    fn default() -> PtxOptions {
        PtxOptions {
            sm: 70,
            jump_tables: false,
            line_info: false,
        }
    }
}

/// Targets we know, with the first PTX ISA version (major*10+minor) that accepts each.
const TARGETS: &[(u32, u32)] = &[
    (70, 60),
    (72, 61),
    (75, 63),
    (80, 70),
    (86, 71),
    (87, 74),
    (89, 78),
    (90, 78),
    (100, 86),
    (101, 86),
    (103, 88),
    (120, 87),
    (121, 88),
];

/// The PTX ISA version we write: 7.0 (the oldest that every supported target's toolchain
/// knows and that has every instruction we emit), or later where the target needs it.
const BASE_PTX_VERSION: u32 = 70;

impl PtxOptions {
    /// Options for an `sm_XX` name (as in `--offload-arch=sm_80`).
    pub fn for_arch(arch: &str) -> Result<PtxOptions, PtxError> {
        let sm = arch
            .strip_prefix("sm_")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|sm| TARGETS.iter().any(|t| t.0 == *sm));
        match sm {
            Some(sm) => Ok(PtxOptions {
                sm,
                ..PtxOptions::default()
            }),
            None => Err(PtxError::UnknownTarget(arch.to_string())),
        }
    }

    /// The `.version` written, as major*10+minor.
    pub fn ptx_version(&self) -> u32 {
        let min = TARGETS
            .iter()
            .find(|t| t.0 == self.sm)
            .map_or(BASE_PTX_VERSION, |t| t.1);
        min.max(BASE_PTX_VERSION)
    }
}

/// Something the IR verifier allows but this backend cannot express in PTX.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PtxError {
    /// `--offload-arch` named no target we know.
    UnknownTarget(String),
    /// The module does not verify; emission needs valid IR.
    InvalidIr(Vec<VerifierError>),
    /// A symbol name that is not a PTX identifier.
    BadName(String),
    /// A construct that PTX cannot express.
    Unsupported {
        /// The function or global it is in.
        symbol: String,
        /// Why.
        reason: String,
    },
    /// The output sink failed.
    Write,
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PtxError::UnknownTarget(a) => write!(
                f,
                "unknown GPU architecture `{a}` (expected sm_70 or newer, e.g. sm_80)"
            ),
            PtxError::InvalidIr(errs) => {
                write!(f, "invalid IR:")?;
                for e in errs {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
            PtxError::BadName(n) => write!(f, "`{n}` is not a valid PTX symbol name"),
            PtxError::Unsupported { symbol, reason } => write!(f, "in `{symbol}`: {reason}"),
            PtxError::Write => f.write_str("failed to write the PTX output"),
        }
    }
}

impl std::error::Error for PtxError {}

/// Emits `module` as one PTX text for `opts`.
pub fn emit_module(module: &Module, opts: &PtxOptions) -> Result<String, PtxError> {
    if !TARGETS.iter().any(|t| t.0 == opts.sm) {
        return Err(PtxError::UnknownTarget(format!("sm_{}", opts.sm)));
    }
    let mut out = String::new();
    Writer::new(&mut out, opts).module(module)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_names() {
        assert_eq!(PtxOptions::for_arch("sm_80").map(|o| o.sm), Ok(80));
        assert_eq!(PtxOptions::default().ptx_version(), 70);
        assert_eq!(PtxOptions::for_arch("sm_90").unwrap().ptx_version(), 78);
        assert!(matches!(
            PtxOptions::for_arch("sm_61"),
            Err(PtxError::UnknownTarget(_))
        ));
        assert!(PtxOptions::for_arch("compute_80").is_err());
        let m = Module::new();
        assert!(matches!(
            emit_module(
                &m,
                &PtxOptions {
                    sm: 71,
                    ..PtxOptions::default()
                }
            ),
            Err(PtxError::UnknownTarget(_))
        ));
    }

    fn module_with_global(name: &str, size: u64) -> Module {
        let mut m = Module::new();
        m.globals.push(ompcc_ir::GlobalData {
            name: name.to_string(),
            space: ompcc_ir::AddrSpace::Global,
            size,
            align: 4,
            init: None,
        });
        m
    }

    #[test]
    fn refused_symbols() {
        let opts = PtxOptions::default();
        let ok = emit_module(&module_with_global("g", 4), &opts).expect("emits");
        assert!(ok.contains(".visible .global .align 4 .b8 g[4];"), "{ok}");
        assert_eq!(
            emit_module(&module_with_global("a.b", 4), &opts),
            Err(PtxError::BadName("a.b".into()))
        );
        let zero = emit_module(&module_with_global("z", 0), &opts);
        assert!(
            matches!(&zero, Err(PtxError::Unsupported { symbol, .. }) if symbol == "z"),
            "{zero:?}"
        );
    }

    /// Symbols of other units: `extern` declarations are callable and print as `.extern
    /// .func`, `extern` globals as sized `.extern .global`; a plain declaration that is no
    /// CUDA runtime function is still refused.
    #[test]
    fn extern_symbols_of_other_units() {
        let src = "extern global @tab: global, size 64, align 8\n\
                   extern declare @w(i32) -> f64\n\
                   kernel @k(i32) {\n    gv0 = global @tab: global\n    fn0 = func @w(i32) -> f64\n\
                   block0(v0: i32):\n    v1 = call fn0(v0)\n    v2 = global_addr gv0\n    \
                   store global align 8 v1, v2\n    return\n}\n";
        let m = ompcc_ir::parse_module(src).expect("parses");
        let ptx = emit_module(&m, &PtxOptions::default()).expect("emits");
        assert!(
            ptx.contains(".extern .func (.param .b64 w_retval0) w(.param .b32 w_param_0);"),
            "{ptx}"
        );
        assert!(
            ptx.contains(".extern .global .align 8 .b8 tab[64];"),
            "{ptx}"
        );
        assert!(
            ptx.contains("call.uni (r0), w, (a0);") || ptx.contains(", w, ("),
            "{ptx}"
        );
        let plain = ompcc_ir::parse_module(&src.replace("extern declare", "declare")).unwrap();
        assert!(matches!(
            emit_module(&plain, &PtxOptions::default()),
            Err(PtxError::Unsupported { .. })
        ));
    }

    /// The address of another unit's function: taken with `mov` and held by an initializer
    /// (a function name, as for a defined function), both resolved by the device link.
    #[test]
    fn addresses_of_extern_functions() {
        let src = "extern declare @sq(f64) -> f64
                   global @ops: global, size 16, align 8 relocs [8: @sq]
                   kernel @k() {
    gv0 = global @ops: global
    fn0 = func @sq(f64) -> f64
                   block0:
    v0 = func_addr fn0
    v1 = global_addr gv0
                       store global align 8 v0, v1
    return
}
";
        let m = ompcc_ir::parse_module(src).expect("parses");
        ompcc_ir::verify_module(&m).expect("verifies");
        let ptx = emit_module(&m, &PtxOptions::default()).expect("emits");
        assert!(
            ptx.contains(".visible .global .align 8 .u64 ops[2] = {0, sq};"),
            "{ptx}"
        );
        assert!(ptx.contains("mov.u64 %rd1, sq;"), "{ptx}");
        let first = |needle: &str| ptx.find(needle).expect(needle);
        assert!(first(".extern .func") < first("ops[2]"), "{ptx}");
    }
}
