//! The IR verifier.
//!
//! Invariants checked, per function:
//! 1. Layout: the function has an entry block; every block in the layout is non-empty, ends in
//!    exactly one terminator and has no terminator before its last instruction.
//! 2. Entry: the entry block's parameters match the signature's parameters in number and type;
//!    no branch targets the entry block; kernels return nothing.
//! 3. Format: each opcode is stored in its own operand format (guards hand-built IR).
//!    References: every value, block, stack slot, global, callee and jump table an instruction
//!    names exists; branch targets are in the layout; used values are defined by an instruction
//!    or block in the layout.
//! 4. Results: every instruction has exactly the results its opcode, operand types and
//!    controlling type call for (count and types).
//! 5. Operand types per opcode (integer/float/pointer classes, equal widths, conversion
//!    directions, `i1` conditions, `i32` lanes and masks, atomic value types per operation).
//!    Arithmetic flags (`nsw`) appear only on integer `iadd`, `isub`, `imul` and `shl`.
//! 6. Block arguments: every branch passes as many arguments as its destination has parameters,
//!    with the same types.
//! 7. Returns: `return` operands match the signature's returns; calls pass arguments matching the
//!    callee's signature; `call_indirect` names a declared signature, its callee is a generic
//!    `ptr` and its arguments match the signature. `stack_alloc` takes an `i64` size,
//!    `stack_restore` a `ptr(local)`.
//! 8. Dominance: every use in a reachable block is dominated by its definition (block
//!    parameters dominate their block; within a block the definition comes first).
//! 9. Address spaces: a memory access names the space of its pointer operand or `generic`;
//!    nothing stores to `const`; atomics act on `global`, `shared` or `generic` memory;
//!    `addrspacecast` converts between `generic` and one specific space; alignments are powers
//!    of two.
//!
//! Per module (`verify_module`): names are unique across globals, declarations and functions;
//! every declared callee names a module function or declaration with the same signature and is
//! not a kernel; every declared global names a module global in the same space; globals live in
//! `global`, `shared` or `const`, shared globals have no initializer and initializers fit;
//! every instruction's source location names a file of `Module::files`. Relocations: each names
//! a module global (not shared) it lies in, at a multiple of 8 with all 8 bytes inside, in
//! increasing non-overlapping order, and targets a module global, a non-kernel function or an
//! `extern` function declaration (defined by another unit). Linkage: kernels are
//! exported; defined functions are not `extern`; an `extern` global has no initializer and is
//! a dynamic shared array (shared space, size 0) or a `global`/`const` variable of nonzero
//! size defined by another module; a declaration takes no linkage entry but `extern` (a
//! function another module of the program defines; without it, one the device runtime or a
//! library linked into this module provides). Entries naming nothing are ignored. Per function also: launch bounds only on kernels, each count at least
//! 1, at most 1024 threads, not both `max_threads` and `req_threads`, `min_blocks` only with one of them.
//! Attributes: `noalias` indices name pointer parameters, kernels have no inlining attribute.
//!
//! Errors are collected (not just the first), each tied to an entity; `annotate` prints them
//! inline in the function text.

use crate::analysis::{ControlFlowGraph, DominatorTree};
use crate::dfg::ValueDef;
use crate::entities::{AnyEntity, Block, Inst, Value};
use crate::function::{FuncKind, Function, Linkage, Module};
use crate::instructions::{ArithFlags, AtomicRmwOp, InstData, Opcode};
use crate::types::{AddrSpace, Type};
use crate::write::{WriteOptions, function_to_string};
use cranelift_entity::SecondaryMap;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// Where a verifier error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorLocation {
    /// Module global number `n`.
    Global(usize),
    /// Module declaration number `n`.
    Decl(usize),
    /// Function number `n` of the module (0 for `verify_function`), at an entity.
    Function(usize, AnyEntity),
}

/// One broken invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierError {
    /// Where.
    pub location: ErrorLocation,
    /// What.
    pub message: String,
}

impl fmt::Display for VerifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            ErrorLocation::Global(i) => write!(f, "global #{i}: {}", self.message),
            ErrorLocation::Decl(i) => write!(f, "declaration #{i}: {}", self.message),
            ErrorLocation::Function(_, e) => write!(f, "{e}: {}", self.message),
        }
    }
}

struct Verifier<'a> {
    func: &'a Function,
    index: usize,
    errors: Vec<VerifierError>,
}

impl<'a> Verifier<'a> {
    fn report(&mut self, e: AnyEntity, message: impl Into<String>) {
        self.errors.push(VerifierError {
            location: ErrorLocation::Function(self.index, e),
            message: message.into(),
        });
    }

    /// Attributes: `noalias` names pointer parameters; a kernel is never inlined, so it takes no
    /// inlining attribute. (A loop hint left on a block that a pass removed is ignored.)
    fn attrs(&mut self) {
        for &i in &self.func.attrs.noalias {
            match self.func.sig.params.get(i as usize) {
                Some(t) if t.is_ptr() => {}
                Some(t) => self.report(
                    AnyEntity::Function,
                    format!("noalias parameter {i} has type {t}, not a pointer"),
                ),
                None => self.report(
                    AnyEntity::Function,
                    format!("noalias parameter {i} does not exist"),
                ),
            }
        }
        if self.func.kind == FuncKind::Kernel && self.func.attrs.inline != Default::default() {
            self.report(AnyEntity::Function, "kernels take no inlining attribute");
        }
    }

    /// Launch bounds: kernels only, counts from 1, at most 1024 threads per block (every
    /// target from sm_70 on), a maximum or a required shape but not both, and a minimum number of
    /// resident blocks only together with a thread bound (ptxas ignores it otherwise).
    fn launch_bounds(&mut self) {
        let lb = self.func.launch_bounds;
        if lb.is_empty() {
            return;
        }
        if self.func.kind != FuncKind::Kernel {
            self.report(AnyEntity::Function, "only kernels have launch bounds");
        }
        let counts = lb
            .max_threads
            .into_iter()
            .chain(lb.req_threads.into_iter().flatten())
            .chain(lb.min_blocks);
        if counts.into_iter().any(|n| n == 0) {
            self.report(AnyEntity::Function, "launch bounds count from 1");
            return;
        }
        if let Some(n) = lb.max_threads
            && n > 1024
        {
            self.report(
                AnyEntity::Function,
                format!("max_threads({n}) exceeds 1024 threads per block"),
            );
        }
        if let Some(r) = lb.req_threads {
            if lb.max_threads.is_some() {
                // ptxas refuses `.maxntid` together with `.reqntid`.
                self.report(
                    AnyEntity::Function,
                    "max_threads and req_threads exclude each other",
                );
            }
            let total = r.iter().map(|&d| u64::from(d)).product::<u64>();
            if total > 1024 {
                self.report(
                    AnyEntity::Function,
                    format!(
                        "req_threads({}, {}, {}) is {total} threads, more than 1024",
                        r[0], r[1], r[2]
                    ),
                );
            }
        }
        if lb.min_blocks.is_some() && lb.max_threads.is_none() && lb.req_threads.is_none() {
            self.report(
                AnyEntity::Function,
                "min_blocks needs max_threads or req_threads",
            );
        }
    }

    fn run(&mut self) {
        let f = self.func;
        if f.kind == FuncKind::Kernel && !f.sig.returns.is_empty() {
            self.report(AnyEntity::Function, "a kernel cannot return values");
        }
        self.launch_bounds();
        self.attrs();
        for (ss, d) in f.stack_slots.iter() {
            if !d.align.is_power_of_two() {
                self.report(
                    AnyEntity::StackSlot(ss),
                    format!("alignment {} is not a power of two", d.align),
                );
            }
        }
        let Some(entry) = f.layout.entry_block() else {
            self.report(AnyEntity::Function, "function has no blocks");
            return;
        };
        let params: Vec<Type> = f
            .dfg
            .block_params(entry)
            .iter()
            .map(|&v| f.dfg.value_type(v))
            .collect();
        if params != f.sig.params {
            self.report(
                AnyEntity::Block(entry),
                format!(
                    "entry block parameters ({}) do not match the signature ({})",
                    join(&params),
                    join(&f.sig.params)
                ),
            );
        }
        let mut structure_ok = true;
        for block in f.layout.blocks() {
            let Some(last) = f.layout.last_inst(block) else {
                self.report(
                    AnyEntity::Block(block),
                    "block is empty (needs a terminator)",
                );
                structure_ok = false;
                continue;
            };
            for inst in f.layout.block_insts(block) {
                let is_term = f.dfg.inst(inst).opcode().is_terminator();
                if inst != last && is_term {
                    self.report(AnyEntity::Inst(inst), "terminator in the middle of a block");
                } else if inst == last && !is_term {
                    self.report(AnyEntity::Inst(inst), "block does not end in a terminator");
                }
                if !self.inst(inst, entry) {
                    structure_ok = false;
                }
            }
        }
        if structure_ok {
            self.dominance();
        }
    }

    /// Checks a value reference; false when it cannot be used further.
    fn value_ok(&mut self, inst: Inst, v: Value) -> bool {
        let f = self.func;
        if !f.dfg.value_is_valid(v) {
            self.report(AnyEntity::Inst(inst), format!("uses nonexistent value {v}"));
            return false;
        }
        let inserted = match f.dfg.value_def(v) {
            ValueDef::Param(b, _) => f.layout.is_block_inserted(b),
            ValueDef::Result(i, _) => f.layout.inst_block(i).is_some(),
            ValueDef::Placeholder => false,
        };
        if !inserted {
            self.report(
                AnyEntity::Inst(inst),
                format!("uses {v}, which is not defined in the layout"),
            );
        }
        inserted
    }

    /// Checks one instruction; false when its references are broken.
    fn inst(&mut self, inst: Inst, entry: Block) -> bool {
        let f = self.func;
        let dfg = &f.dfg;
        let data = dfg.inst(inst);
        if data.opcode().format() != data.format() {
            self.report(
                AnyEntity::Inst(inst),
                format!(
                    "`{}` built in the {:?} format",
                    data.opcode(),
                    data.format()
                ),
            );
            return false;
        }
        let mut ok = true;
        for &v in dfg.inst_args(inst) {
            ok &= self.value_ok(inst, v);
        }
        if let InstData::BrTable { table, .. } = data
            && !dfg.jump_tables.is_valid(*table)
        {
            self.report(
                AnyEntity::Inst(inst),
                format!("nonexistent jump table {table}"),
            );
            return false;
        }
        for call in dfg.branch_destinations(inst) {
            let b = call.block;
            if !dfg.block_is_valid(b) || !f.layout.is_block_inserted(b) {
                self.report(
                    AnyEntity::Inst(inst),
                    format!("branch to {b}, which is not in the layout"),
                );
                ok = false;
                continue;
            }
            if b == entry {
                self.report(AnyEntity::Inst(inst), "branch to the entry block");
            }
            let args = dfg.block_call_args(call);
            let mut args_ok = true;
            for &a in args {
                args_ok &= self.value_ok(inst, a);
            }
            ok &= args_ok;
            let params = dfg.block_params(b);
            if args.len() != params.len() {
                self.report(
                    AnyEntity::Inst(inst),
                    format!(
                        "{b} takes {} argument(s), {} given",
                        params.len(),
                        args.len()
                    ),
                );
            } else if args_ok {
                for (i, (&a, &p)) in args.iter().zip(params).enumerate() {
                    let (ta, tp) = (dfg.value_type(a), dfg.value_type(p));
                    if ta != tp {
                        self.report(
                            AnyEntity::Inst(inst),
                            format!("argument {i} to {b} is {ta}, parameter {p} is {tp}"),
                        );
                    }
                }
            }
        }
        match data {
            InstData::StackAddr { slot } if !f.stack_slots.is_valid(*slot) => {
                self.report(
                    AnyEntity::Inst(inst),
                    format!("nonexistent stack slot {slot}"),
                );
                return false;
            }
            InstData::GlobalAddr { global } if !dfg.globals.is_valid(*global) => {
                self.report(AnyEntity::Inst(inst), format!("undeclared global {global}"));
                return false;
            }
            InstData::Call { func, .. } | InstData::FuncAddr { func }
                if !dfg.ext_funcs.is_valid(*func) =>
            {
                self.report(AnyEntity::Inst(inst), format!("undeclared callee {func}"));
                return false;
            }
            InstData::CallIndirect { sig, .. } if !dfg.signatures.is_valid(*sig) => {
                self.report(AnyEntity::Inst(inst), format!("undeclared signature {sig}"));
                return false;
            }
            _ => {}
        }
        if !ok {
            return false;
        }
        // Results.
        let results = dfg.inst_results(inst);
        let op = data.opcode();
        let ctrl = if op.has_ctrl_type() {
            results.first().map(|&r| dfg.value_type(r))
        } else {
            None
        };
        let expected = dfg.result_types(data, ctrl);
        let actual: Vec<Type> = results.iter().map(|&r| dfg.value_type(r)).collect();
        if op.has_ctrl_type() && results.len() != 1 {
            self.report(
                AnyEntity::Inst(inst),
                format!("`{op}` must have exactly one result"),
            );
        } else if expected != actual {
            self.report(
                AnyEntity::Inst(inst),
                format!(
                    "results are ({}), `{op}` produces ({})",
                    join(&actual),
                    join(&expected)
                ),
            );
        }
        self.types(inst, ctrl);
        true
    }

    fn types(&mut self, inst: Inst, ctrl: Option<Type>) {
        let f = self.func;
        let dfg = &f.dfg;
        let data = dfg.inst(inst);
        let op = data.opcode();
        let args = dfg.inst_args(inst);
        let t: Vec<Type> = args.iter().map(|&a| dfg.value_type(a)).collect();
        let e = AnyEntity::Inst(inst);
        let mut errs: Vec<String> = Vec::new();
        // A macro, not a closure: the message is only formatted for an instruction that
        // fails the check (formatting it for every instruction was most of the verifier's
        // time, and the verifier runs after every pass).
        macro_rules! need {
            ($cond:expr, $msg:expr $(,)?) => {
                if !$cond {
                    errs.push($msg);
                }
            };
        }
        let int_no_i1 = |t: Type| t.is_int() && t != Type::I1;
        if data.is_nsw() {
            need!(
                ArithFlags::allowed_on(op),
                format!("`nsw` is only allowed on iadd, isub, imul and shl, not `{op}`"),
            );
        }
        use Opcode as O;
        match op {
            O::Iconst => need!(
                ctrl.is_some_and(Type::is_int),
                "`iconst` needs an integer type".into(),
            ),
            O::Fconst => need!(
                ctrl.is_some_and(Type::is_float),
                "`fconst` needs a float type".into(),
            ),
            O::Iadd
            | O::Isub
            | O::Imul
            | O::Sdiv
            | O::Udiv
            | O::Srem
            | O::Urem
            | O::Smulhi
            | O::Umulhi
            | O::Smin
            | O::Smax
            | O::Umin
            | O::Umax => need!(
                int_no_i1(t[0]) && t[0] == t[1],
                format!(
                    "`{op}` needs two integers of one type (not i1), got {} and {}",
                    t[0], t[1]
                ),
            ),
            O::And | O::Or | O::Xor => need!(
                t[0].is_int() && t[0] == t[1],
                format!(
                    "`{op}` needs two integers of one type, got {} and {}",
                    t[0], t[1]
                ),
            ),
            O::Shl | O::Lshr | O::Ashr => need!(
                int_no_i1(t[0]) && int_no_i1(t[1]),
                format!(
                    "`{op}` needs an integer and an integer shift amount, got {} and {}",
                    t[0], t[1]
                ),
            ),
            O::Neg | O::Popcnt | O::Clz | O::Ctz => need!(
                int_no_i1(t[0]),
                format!("`{op}` needs an integer (not i1), got {}", t[0]),
            ),
            O::Not => need!(
                t[0].is_int(),
                format!("`not` needs an integer, got {}", t[0]),
            ),
            O::Bswap => need!(
                matches!(t[0], Type::I16 | Type::I32 | Type::I64),
                format!("`bswap` needs i16, i32 or i64, got {}", t[0]),
            ),
            O::Fadd | O::Fsub | O::Fmul | O::Fdiv | O::Frem | O::Fmin | O::Fmax | O::Fcopysign => {
                need!(
                    t[0].is_float() && t[0] == t[1],
                    format!(
                        "`{op}` needs two floats of one type, got {} and {}",
                        t[0], t[1]
                    ),
                )
            }
            O::Fneg | O::Fabs | O::Sqrt | O::Floor | O::Ceil | O::Ftrunc | O::Nearest => need!(
                t[0].is_float(),
                format!("`{op}` needs a float, got {}", t[0]),
            ),
            O::Fma => need!(
                t[0].is_float() && t[0] == t[1] && t[1] == t[2],
                format!(
                    "`fma` needs three floats of one type, got {}, {} and {}",
                    t[0], t[1], t[2]
                ),
            ),
            O::Select => {
                need!(
                    t[0] == Type::I1,
                    format!("`select` condition must be i1, got {}", t[0]),
                );
                need!(
                    t[1] == t[2],
                    format!("`select` operands differ: {} and {}", t[1], t[2]),
                );
            }
            O::Icmp => need!(
                (t[0].is_int() || t[0].is_ptr()) && t[0] == t[1],
                format!(
                    "`icmp` needs two integers or pointers of one type, got {} and {}",
                    t[0], t[1]
                ),
            ),
            O::Fcmp => need!(
                t[0].is_float() && t[0] == t[1],
                format!(
                    "`fcmp` needs two floats of one type, got {} and {}",
                    t[0], t[1]
                ),
            ),
            O::Sext | O::Zext | O::Trunc => {
                let to = ctrl.unwrap_or(Type::I1);
                let ok = t[0].is_int()
                    && to.is_int()
                    && if op == O::Trunc {
                        to.bits() < t[0].bits()
                    } else {
                        to.bits() > t[0].bits()
                    };
                let dir = if op == O::Trunc { "narrower" } else { "wider" };
                need!(
                    ok,
                    format!(
                        "`{op}` converts an integer to a {dir} integer, not {} to {to}",
                        t[0]
                    ),
                );
            }
            O::Fpext | O::Fptrunc => {
                let to = ctrl.unwrap_or(Type::I1);
                let ok = if op == O::Fpext {
                    t[0] == Type::F32 && to == Type::F64
                } else {
                    t[0] == Type::F64 && to == Type::F32
                };
                need!(ok, format!("`{op}` cannot convert {} to {to}", t[0]));
            }
            O::Sitofp | O::Uitofp => {
                let to = ctrl.unwrap_or(Type::I1);
                need!(
                    int_no_i1(t[0]) && to.is_float(),
                    format!(
                        "`{op}` converts an integer to a float, not {} to {to}",
                        t[0]
                    ),
                );
            }
            O::Fptosi | O::Fptoui => {
                let to = ctrl.unwrap_or(Type::I1);
                need!(
                    t[0].is_float() && int_no_i1(to),
                    format!(
                        "`{op}` converts a float to an integer, not {} to {to}",
                        t[0]
                    ),
                );
            }
            O::Bitcast => {
                let to = ctrl.unwrap_or(Type::I1);
                need!(
                    !t[0].is_ptr()
                        && !to.is_ptr()
                        && t[0] != to
                        && t[0].bits() == to.bits()
                        && to != Type::I1,
                    format!(
                        "`bitcast` needs two different non-pointer types of one width, got {} to {to}",
                        t[0]
                    ),
                );
            }
            O::Ptrtoint => {
                let to = ctrl.unwrap_or(Type::I1);
                need!(
                    t[0].is_ptr() && matches!(to, Type::I32 | Type::I64),
                    format!(
                        "`ptrtoint` converts a pointer to i32 or i64, not {} to {to}",
                        t[0]
                    ),
                );
            }
            O::Inttoptr => {
                let to = ctrl.unwrap_or(Type::I1);
                need!(
                    matches!(t[0], Type::I32 | Type::I64) && to.is_ptr(),
                    format!(
                        "`inttoptr` converts i32 or i64 to a pointer, not {} to {to}",
                        t[0]
                    ),
                );
            }
            O::Addrspacecast => {
                let to = ctrl.unwrap_or(Type::I1);
                let ok = match (t[0].addr_space(), to.addr_space()) {
                    (Some(a), Some(b)) => {
                        a != b && (a == AddrSpace::Generic || b == AddrSpace::Generic)
                    }
                    _ => false,
                };
                need!(
                    ok,
                    format!(
                        "`addrspacecast` converts between generic and one specific space, not {} to {to}",
                        t[0]
                    ),
                );
            }
            O::PtrOffset => need!(
                t[0].is_ptr() && matches!(t[1], Type::I32 | Type::I64),
                format!(
                    "`ptr_offset` needs a pointer and an i32 or i64 offset, got {} and {}",
                    t[0], t[1]
                ),
            ),
            O::Load | O::Store => {
                let (space, flags, ptr) = match data {
                    InstData::Load { space, flags, .. } => (*space, *flags, t[0]),
                    InstData::Store { space, flags, .. } => (*space, *flags, t[1]),
                    _ => return,
                };
                need!(
                    flags.align.is_power_of_two(),
                    format!("alignment {} is not a power of two", flags.align),
                );
                match ptr.addr_space() {
                    None => need!(
                        false,
                        format!("`{op}` address must be a pointer, got {ptr}"),
                    ),
                    Some(ps) => need!(
                        ps == space || space == AddrSpace::Generic,
                        format!("`{op}` in {space} space through a {ptr} pointer"),
                    ),
                }
                if op == O::Store {
                    need!(
                        space.is_writable() && ptr.addr_space() != Some(AddrSpace::Const),
                        "store to const space".into(),
                    );
                }
            }
            O::AtomicRmw | O::AtomicCas => {
                let (space, ptr) = match data {
                    InstData::AtomicRmw { space, .. } | InstData::AtomicCas { space, .. } => {
                        (*space, t[0])
                    }
                    _ => return,
                };
                let space_ok = matches!(
                    space,
                    AddrSpace::Global | AddrSpace::Shared | AddrSpace::Generic
                );
                need!(
                    space_ok,
                    format!("atomics act on global, shared or generic memory, not {space}"),
                );
                // One cause, one error: the pointer is only compared with a valid space.
                match ptr.addr_space() {
                    None => need!(
                        false,
                        format!("atomic address must be a pointer, got {ptr}"),
                    ),
                    Some(ps) => need!(
                        !space_ok || ps == space || space == AddrSpace::Generic,
                        format!("atomic in {space} space through a {ptr} pointer"),
                    ),
                }
                let vt = t[1];
                match data {
                    InstData::AtomicRmw { op: rop, .. } => {
                        let ok = match rop {
                            AtomicRmwOp::Add | AtomicRmwOp::Xchg => {
                                matches!(vt, Type::I32 | Type::I64 | Type::F32 | Type::F64)
                            }
                            AtomicRmwOp::Inc | AtomicRmwOp::Dec => vt == Type::I32,
                            _ => matches!(vt, Type::I32 | Type::I64),
                        };
                        need!(ok, format!("`atomic_rmw {rop}` does not support {vt}"));
                    }
                    _ => need!(
                        matches!(vt, Type::I32 | Type::I64) && t[2] == vt,
                        format!(
                            "`atomic_cas` needs i32 or i64 operands of one type, got {} and {}",
                            vt, t[2]
                        ),
                    ),
                }
            }
            O::Shuffle => {
                need!(
                    matches!(t[0], Type::I32 | Type::I64 | Type::F32 | Type::F64),
                    format!("`shuffle` moves i32, i64, f32 or f64, not {}", t[0]),
                );
                need!(
                    t[1] == Type::I32 && t[2] == Type::I32,
                    "`shuffle` lane and mask must be i32".into(),
                );
            }
            O::Vote => {
                need!(
                    t[0] == Type::I1,
                    format!("`vote` predicate must be i1, got {}", t[0]),
                );
                need!(
                    t[1] == Type::I32,
                    format!("`vote` mask must be i32, got {}", t[1]),
                );
            }
            O::Brif => need!(
                t[0] == Type::I1,
                format!("`brif` condition must be i1, got {}", t[0]),
            ),
            O::BrTable => need!(
                int_no_i1(t[0]),
                format!("`br_table` index must be an integer, got {}", t[0]),
            ),
            O::Call => {
                if let InstData::Call { func, .. } = data {
                    let sig = &dfg.ext_funcs[*func].sig;
                    need!(
                        t == sig.params,
                        format!(
                            "call arguments ({}) do not match {func}'s parameters ({})",
                            join(&t),
                            join(&sig.params)
                        ),
                    );
                }
            }
            O::CallIndirect => {
                if let InstData::CallIndirect { sig: s, .. } = data {
                    let sig = &dfg.signatures[*s];
                    need!(
                        t.first() == Some(&Type::PTR),
                        format!(
                            "`call_indirect` callee must be a generic ptr, got {}",
                            t.first().map_or("nothing".to_string(), |t| t.to_string())
                        ),
                    );
                    let args = t.get(1..).unwrap_or(&[]);
                    need!(
                        args == sig.params.as_slice(),
                        format!(
                            "call arguments ({}) do not match {s}'s parameters ({})",
                            join(args),
                            join(&sig.params)
                        ),
                    );
                }
            }
            O::StackAlloc => need!(
                t[0] == Type::I64,
                format!("`stack_alloc` size must be i64, got {}", t[0]),
            ),
            O::StackRestore => need!(
                t[0] == Type::Ptr(AddrSpace::Local),
                format!(
                    "`stack_restore` takes a ptr(local) from `stack_save`, got {}",
                    t[0]
                ),
            ),
            O::WarpSync => need!(
                t[0] == Type::I32,
                format!("`warp_sync` takes an i32 lane mask, got {}", t[0]),
            ),
            O::Return => need!(
                t == f.sig.returns,
                format!(
                    "return values ({}) do not match the signature ({})",
                    join(&t),
                    join(&f.sig.returns)
                ),
            ),
            O::StackAddr
            | O::GlobalAddr
            | O::FuncAddr
            | O::StackSave
            | O::Sreg
            | O::Barrier
            | O::Fence
            | O::Activemask
            | O::Jump
            | O::Unreachable
            | O::Trap => {}
        }
        for m in errs {
            self.report(e, m);
        }
    }

    fn dominance(&mut self) {
        let f = self.func;
        let cfg = ControlFlowGraph::compute(f);
        let dt = DominatorTree::compute(f, &cfg);
        let mut pos: SecondaryMap<Inst, u32> = SecondaryMap::new();
        for block in f.layout.blocks() {
            for (i, inst) in f.layout.block_insts(block).enumerate() {
                pos[inst] = i as u32;
            }
        }
        let mut reported: FxHashSet<(Inst, Value)> = FxHashSet::default();
        for block in f.layout.blocks() {
            if !dt.is_reachable(block) {
                continue;
            }
            for inst in f.layout.block_insts(block) {
                for v in f.dfg.inst_uses(inst) {
                    let ok = match f.dfg.value_def(v) {
                        ValueDef::Param(b, _) => dt.dominates(b, block),
                        ValueDef::Result(d, _) => match f.layout.inst_block(d) {
                            Some(db) if db == block => pos[d] < pos[inst],
                            Some(db) => dt.dominates(db, block),
                            None => false,
                        },
                        ValueDef::Placeholder => false,
                    };
                    if !ok && reported.insert((inst, v)) {
                        self.report(
                            AnyEntity::Inst(inst),
                            format!("use of {v} is not dominated by its definition"),
                        );
                    }
                }
            }
        }
    }
}

fn join(ts: &[Type]) -> String {
    ts.iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks every function invariant listed in the module header.
pub fn verify_function(func: &Function) -> Result<(), Vec<VerifierError>> {
    verify_function_at(func, 0)
}

fn verify_function_at(func: &Function, index: usize) -> Result<(), Vec<VerifierError>> {
    let mut v = Verifier {
        func,
        index,
        errors: Vec::new(),
    };
    v.run();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// Checks every function and the module-level invariants.
pub fn verify_module(m: &Module) -> Result<(), Vec<VerifierError>> {
    let mut errors = Vec::new();
    let mut names: FxHashSet<&str> = FxHashSet::default();
    for (i, g) in m.globals.iter().enumerate() {
        let mut err = |msg: String| {
            errors.push(VerifierError {
                location: ErrorLocation::Global(i),
                message: msg,
            })
        };
        if !names.insert(&g.name) {
            err(format!("@{} is defined more than once", g.name));
        }
        if !matches!(
            g.space,
            AddrSpace::Global | AddrSpace::Shared | AddrSpace::Const
        ) {
            err(format!(
                "globals live in global, shared or const space, not {}",
                g.space
            ));
        }
        if !g.align.is_power_of_two() {
            err(format!("alignment {} is not a power of two", g.align));
        }
        // Extern: the dynamic shared array, or a variable another module defines.
        if m.linkage_of(&g.name) == Linkage::Extern
            && (g.init.is_some() || (g.space == AddrSpace::Shared) != (g.size == 0))
        {
            err(
                "an extern global has no initializer and is either a dynamic shared array \
                 (shared space, size 0) or a global/const variable of nonzero size"
                    .into(),
            );
        }
        if let Some(init) = &g.init {
            if g.space == AddrSpace::Shared {
                err("shared memory cannot be initialized".into());
            }
            if init.len() as u64 > g.size {
                err(format!(
                    "initializer has {} bytes, size is {}",
                    init.len(),
                    g.size
                ));
            }
        }
    }
    let mut reloc_globals: Vec<&String> = m.relocs.keys().collect();
    reloc_globals.sort();
    for name in reloc_globals {
        let relocs = &m.relocs[name];
        let Some(i) = m.globals.iter().position(|g| &g.name == name) else {
            if !relocs.is_empty() {
                errors.push(VerifierError {
                    location: ErrorLocation::Global(0),
                    message: format!("relocations for @{name}, which is not a module global"),
                });
            }
            continue;
        };
        let g = &m.globals[i];
        let mut err = |msg: String| {
            errors.push(VerifierError {
                location: ErrorLocation::Global(i),
                message: msg,
            })
        };
        if g.space == AddrSpace::Shared && !relocs.is_empty() {
            err("shared memory cannot be initialized".into());
        }
        let mut end = 0u64;
        for r in relocs {
            if !r.offset.is_multiple_of(8) || r.offset.checked_add(8).is_none_or(|e| e > g.size) {
                err(format!(
                    "relocation at {} is not an aligned 8-byte field of the {}-byte global",
                    r.offset, g.size
                ));
            } else if r.offset < end {
                err(format!(
                    "relocation at {} overlaps or is out of order",
                    r.offset
                ));
            }
            end = r.offset.saturating_add(8);
            let ok = m.global(&r.target).is_some()
                || m.function(&r.target)
                    .is_some_and(|f| f.kind != FuncKind::Kernel)
                || (m.decls.iter().any(|d| d.name == r.target)
                    && m.linkage.get(&r.target) == Some(&Linkage::Extern));
            if !ok {
                err(format!(
                    "relocation target @{} is not a module global or device function",
                    r.target
                ));
            }
        }
    }
    for (i, d) in m.decls.iter().enumerate() {
        if m.linkage
            .get(&d.name)
            .is_some_and(|&l| l != Linkage::Extern)
        {
            errors.push(VerifierError {
                location: ErrorLocation::Decl(i),
                message: format!(
                    "declaration @{} takes no linkage but `extern` (it is external)",
                    d.name
                ),
            });
        }
        if !names.insert(&d.name) {
            errors.push(VerifierError {
                location: ErrorLocation::Decl(i),
                message: format!("@{} is defined more than once", d.name),
            });
        }
    }
    for (i, f) in m.functions.iter().enumerate() {
        let mut err = |e: AnyEntity, msg: String| {
            errors.push(VerifierError {
                location: ErrorLocation::Function(i, e),
                message: msg,
            })
        };
        if !names.insert(&f.name) {
            err(
                AnyEntity::Function,
                format!("@{} is defined more than once", f.name),
            );
        }
        match (m.linkage_of(&f.name), f.kind) {
            (Linkage::Internal, FuncKind::Kernel) => {
                err(AnyEntity::Function, "a kernel must be exported".into())
            }
            (Linkage::Extern, _) => err(
                AnyEntity::Function,
                "a defined function cannot be extern (use `declare`)".into(),
            ),
            _ => {}
        }
        for (r, ext) in f.dfg.ext_funcs.iter() {
            match m.signature_of(&ext.name) {
                None => err(
                    AnyEntity::FuncRef(r),
                    format!("@{} is not defined or declared in the module", ext.name),
                ),
                Some(sig) if *sig != ext.sig => err(
                    AnyEntity::FuncRef(r),
                    format!("@{} has signature {sig} in the module", ext.name),
                ),
                Some(_) => {}
            }
            if m.function(&ext.name)
                .is_some_and(|c| c.kind == FuncKind::Kernel)
            {
                err(
                    AnyEntity::FuncRef(r),
                    format!("@{} is a kernel and cannot be called", ext.name),
                );
            }
        }
        for (gv, g) in f.dfg.globals.iter() {
            match m.global(&g.name) {
                None => err(
                    AnyEntity::GlobalRef(gv),
                    format!("@{} is not a module global", g.name),
                ),
                Some(mg) if mg.space != g.space => err(
                    AnyEntity::GlobalRef(gv),
                    format!("@{} lives in {} space in the module", g.name, mg.space),
                ),
                Some(_) => {}
            }
        }
        for inst in f.layout.all_insts() {
            let loc = f.srcloc(inst);
            if !loc.is_unknown() && loc.file as usize >= m.files.len() {
                err(
                    AnyEntity::Inst(inst),
                    format!(
                        "source location names file {}, the module has {} file(s)",
                        loc.file,
                        m.files.len()
                    ),
                );
            }
        }
        if let Err(es) = verify_function_at(f, i) {
            errors.extend(es);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The function's text with each error printed as a `; error:` line after its entity.
pub fn annotate(func: &Function, errors: &[VerifierError]) -> String {
    let mut notes: FxHashMap<AnyEntity, Vec<String>> = FxHashMap::default();
    for e in errors {
        if let ErrorLocation::Function(_, ent) = e.location {
            notes.entry(ent).or_default().push(e.message.clone());
        }
    }
    function_to_string(
        func,
        WriteOptions {
            renumber: false,
            annotations: Some(&notes),
        },
    )
}
