//! A reference interpreter for IR functions, for `; eval:` file tests and for checking that
//! passes keep meaning.
//!
//! It runs one thread: special registers come from `ThreadState`, barriers and fences do
//! nothing, shuffles return the thread's own value, votes see one lane. Memory is one flat,
//! little-endian byte array for every address space; address 0..16 is never valid, so null
//! dereferences fail. Globals are laid out once per interpreter (relocations written once all
//! are placed); stack slots are allocated on function entry and released on return, and
//! `stack_alloc` takes fresh memory released by `stack_restore` or the return. Functions have
//! addresses outside memory (`FUNC_BASE` + 16 * index, module functions first, then
//! declarations), so `func_addr` values can be stored, compared and called through, and a load
//! or store through them fails. Every failure (trap, bad access, step or depth limit,
//! call to an external function, malformed IR) is an `InterpError`, never a panic.

use crate::builder::normalize_imm;
use crate::entities::{Block, StackSlot, Value};
use crate::function::{Function, Module};
use crate::instructions::{AtomicRmwOp, InstData, Opcode, SpecialReg, VoteMode};
use crate::semantics::{self, mask};
use crate::types::{AddrSpace, Type};
use cranelift_entity::SecondaryMap;
use rustc_hash::FxHashMap;
use std::fmt;

/// A runtime value with its type. Integers are normalized `i64`s, floats `f64`s (an `f32` is
/// exact in it), pointers addresses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DataValue {
    /// An integer of the given type.
    Int(Type, i64),
    /// A float of the given type.
    Float(Type, f64),
    /// A pointer of the given type.
    Ptr(Type, u64),
}

impl DataValue {
    /// Parses a literal of type `ty` (`-3`, `0x10`, `1.5`, `inf`, `nan`).
    pub fn parse(ty: Type, s: &str) -> Option<DataValue> {
        let int = |s: &str| -> Option<i64> {
            let (neg, body) = match s.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, s),
            };
            let m = match body.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok()?,
                None => body.parse::<u64>().ok()?,
            };
            Some(if neg {
                (m as i64).wrapping_neg()
            } else {
                m as i64
            })
        };
        Some(match ty {
            Type::F32 => DataValue::Float(ty, s.parse::<f32>().ok()? as f64),
            Type::F64 => DataValue::Float(ty, s.parse::<f64>().ok()?),
            Type::Ptr(_) => DataValue::Ptr(ty, int(s)? as u64),
            _ => DataValue::Int(ty, normalize_imm(ty, int(s)?)),
        })
    }

    /// The value's type.
    pub fn ty(self) -> Type {
        match self {
            DataValue::Int(t, _) | DataValue::Float(t, _) | DataValue::Ptr(t, _) => t,
        }
    }

    /// Equality that treats all NaNs as equal and distinguishes `0.0` from `-0.0`.
    pub fn same(self, other: DataValue) -> bool {
        match (self, other) {
            (DataValue::Float(t, a), DataValue::Float(u, b)) => {
                t == u && ((a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits())
            }
            _ => self == other,
        }
    }

    fn bits(self) -> u64 {
        match self {
            DataValue::Int(_, v) => v as u64,
            DataValue::Float(_, f) => f.to_bits(),
            DataValue::Ptr(_, p) => p,
        }
    }

    fn from_bits(ty: Type, bits: u64) -> DataValue {
        if ty.is_float() {
            DataValue::Float(ty, f64::from_bits(bits))
        } else if ty.is_ptr() {
            DataValue::Ptr(ty, bits)
        } else {
            DataValue::Int(ty, bits as i64)
        }
    }
}

impl fmt::Display for DataValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataValue::Int(_, v) => write!(f, "{v}"),
            DataValue::Float(t, v) => f.write_str(&crate::write::format_float(*t, v.to_bits())),
            DataValue::Ptr(_, p) => write!(f, "0x{p:x}"),
        }
    }
}

/// Why execution stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    /// No function of that name in the module.
    UnknownFunction(String),
    /// The callee is only declared.
    External(String),
    /// Wrong number or types of arguments.
    BadArguments(String),
    /// A `trap` ran.
    Trap,
    /// An `unreachable` ran.
    Unreachable,
    /// Division by zero or overflow.
    DivideByZero,
    /// A memory access outside allocated memory.
    OutOfBounds {
        /// Address.
        addr: u64,
        /// Access size.
        size: u32,
    },
    /// The step budget ran out (probably an infinite loop).
    StepLimit,
    /// Calls nested too deeply.
    StackOverflow,
    /// Memory would exceed the interpreter's limit.
    OutOfMemory,
    /// The IR is not valid (run the verifier first).
    Invalid(String),
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterpError::UnknownFunction(n) => write!(f, "no function @{n}"),
            InterpError::External(n) => write!(f, "@{n} is external"),
            InterpError::BadArguments(m) => write!(f, "bad arguments: {m}"),
            InterpError::Trap => f.write_str("trap"),
            InterpError::Unreachable => f.write_str("reached `unreachable`"),
            InterpError::DivideByZero => f.write_str("integer division by zero or overflow"),
            InterpError::OutOfBounds { addr, size } => {
                write!(f, "out-of-bounds access of {size} bytes at 0x{addr:x}")
            }
            InterpError::StepLimit => f.write_str("step limit reached"),
            InterpError::StackOverflow => f.write_str("call depth limit reached"),
            InterpError::OutOfMemory => f.write_str("memory limit reached"),
            InterpError::Invalid(m) => write!(f, "invalid IR: {m}"),
        }
    }
}

impl std::error::Error for InterpError {}

/// The special registers the running thread sees.
#[derive(Clone, Copy, Debug)]
pub struct ThreadState {
    /// `tid.{x,y,z}`.
    pub tid: [u32; 3],
    /// `ntid.{x,y,z}`.
    pub ntid: [u32; 3],
    /// `ctaid.{x,y,z}`.
    pub ctaid: [u32; 3],
    /// `nctaid.{x,y,z}`.
    pub nctaid: [u32; 3],
}

impl Default for ThreadState {
    fn default() -> Self {
        ThreadState {
            tid: [0; 3],
            ntid: [1; 3],
            ctaid: [0; 3],
            nctaid: [1; 3],
        }
    }
}

const MEM_LIMIT: usize = 64 << 20;
const NULL_GUARD: usize = 16;
/// Address of the first function (far above `MEM_LIMIT`).
const FUNC_BASE: u64 = 1 << 56;

/// Runs functions of one module.
pub struct Interpreter<'m> {
    module: &'m Module,
    mem: Vec<u8>,
    globals: FxHashMap<&'m str, u64>,
    /// Instructions left before `StepLimit`.
    pub steps_left: u64,
    /// Maximum call depth.
    pub max_depth: u32,
    /// Special registers.
    pub thread: ThreadState,
    depth: u32,
    steps: u64,
}

type R<T> = Result<T, InterpError>;

fn invalid<T>(m: impl Into<String>) -> R<T> {
    Err(InterpError::Invalid(m.into()))
}

impl<'m> Interpreter<'m> {
    /// An interpreter with the module's globals laid out and initialized.
    pub fn new(module: &'m Module) -> R<Interpreter<'m>> {
        let mut it = Interpreter {
            module,
            mem: vec![0; NULL_GUARD],
            globals: FxHashMap::default(),
            steps_left: 10_000_000,
            max_depth: 200,
            thread: ThreadState::default(),
            depth: 0,
            steps: 0,
        };
        for g in &module.globals {
            let size = usize::try_from(g.size).map_err(|_| InterpError::OutOfMemory)?;
            let addr = it.alloc(size, g.align)?;
            if let Some(init) = &g.init {
                let n = init.len().min(size);
                it.mem[addr as usize..addr as usize + n].copy_from_slice(&init[..n]);
            }
            it.globals.insert(&g.name, addr);
        }
        for (name, relocs) in &module.relocs {
            let Some(&base) = it.globals.get(name.as_str()) else {
                return invalid(format!("relocations for unknown global @{name}"));
            };
            for r in relocs {
                let target = match it.globals.get(r.target.as_str()) {
                    Some(&a) => a,
                    None => match it.func_address(&r.target) {
                        Some(a) => a,
                        None => return invalid(format!("relocation to unknown @{}", r.target)),
                    },
                };
                let v = DataValue::Ptr(Type::PTR, target.wrapping_add(r.addend as u64));
                it.store(v, base.wrapping_add(r.offset))?;
            }
        }
        Ok(it)
    }

    /// The address `func_addr` gives the module function or declaration `name`.
    fn func_address(&self, name: &str) -> Option<u64> {
        let m = self.module;
        let i = m
            .functions
            .iter()
            .position(|f| f.name == name)
            .or_else(|| {
                m.decls
                    .iter()
                    .position(|d| d.name == name)
                    .map(|j| m.functions.len() + j)
            })?;
        Some(FUNC_BASE + 16 * i as u64)
    }

    /// The function or declaration at a `func_addr` address.
    fn function_at(&self, addr: u64) -> Option<&'m str> {
        let m = self.module;
        let off = addr.checked_sub(FUNC_BASE)?;
        if !off.is_multiple_of(16) {
            return None;
        }
        let i = usize::try_from(off / 16).ok()?;
        match m.functions.get(i) {
            Some(f) => Some(&f.name),
            None => m.decls.get(i - m.functions.len()).map(|d| d.name.as_str()),
        }
    }

    fn alloc(&mut self, size: usize, align: u32) -> R<u64> {
        let align = (align.max(1) as usize).next_power_of_two();
        let start = self.mem.len().div_ceil(align) * align;
        let end = start
            .checked_add(size.max(1))
            .ok_or(InterpError::OutOfMemory)?;
        if end > MEM_LIMIT {
            return Err(InterpError::OutOfMemory);
        }
        self.mem.resize(end, 0);
        Ok(start as u64)
    }

    fn range(&self, addr: u64, size: u32) -> R<std::ops::Range<usize>> {
        let a = usize::try_from(addr).map_err(|_| InterpError::OutOfBounds { addr, size })?;
        match a.checked_add(size as usize) {
            Some(end) if a >= NULL_GUARD && end <= self.mem.len() => Ok(a..end),
            _ => Err(InterpError::OutOfBounds { addr, size }),
        }
    }

    fn load(&self, ty: Type, addr: u64) -> R<DataValue> {
        let r = self.range(addr, ty.bytes())?;
        let mut buf = [0u8; 8];
        buf[..r.len()].copy_from_slice(&self.mem[r]);
        let raw = u64::from_le_bytes(buf);
        Ok(match ty {
            Type::F32 => DataValue::Float(ty, f32::from_bits(raw as u32) as f64),
            Type::F64 => DataValue::Float(ty, f64::from_bits(raw)),
            Type::Ptr(_) => DataValue::Ptr(ty, raw),
            _ => DataValue::Int(ty, normalize_imm(ty, raw as i64)),
        })
    }

    fn store(&mut self, v: DataValue, addr: u64) -> R<()> {
        let ty = v.ty();
        let r = self.range(addr, ty.bytes())?;
        let raw = match v {
            DataValue::Float(Type::F32, f) => (f as f32).to_bits() as u64,
            other => other.bits(),
        };
        let n = r.len();
        self.mem[r].copy_from_slice(&raw.to_le_bytes()[..n]);
        Ok(())
    }

    /// Writes `bytes` into fresh memory and returns its address (test inputs for pointers).
    pub fn alloc_bytes(&mut self, bytes: &[u8], align: u32) -> R<u64> {
        let a = self.alloc(bytes.len(), align)?;
        self.mem[a as usize..a as usize + bytes.len()].copy_from_slice(bytes);
        Ok(a)
    }

    /// Reads `len` bytes at `addr`.
    pub fn read_bytes(&self, addr: u64, len: u32) -> R<&[u8]> {
        let r = self.range(addr, len)?;
        Ok(&self.mem[r])
    }

    /// Calls the module function `name`.
    pub fn call(&mut self, name: &str, args: &[DataValue]) -> R<Vec<DataValue>> {
        let Some(f) = self.module.function(name) else {
            return match self.module.decls.iter().any(|d| d.name == name) {
                true => Err(InterpError::External(name.to_string())),
                false => Err(InterpError::UnknownFunction(name.to_string())),
            };
        };
        if args.len() != f.sig.params.len()
            || args.iter().zip(&f.sig.params).any(|(a, t)| a.ty() != *t)
        {
            return Err(InterpError::BadArguments(format!(
                "@{name} takes {}",
                f.sig
            )));
        }
        if self.depth >= self.max_depth {
            return Err(InterpError::StackOverflow);
        }
        self.depth += 1;
        let mark = self.mem.len();
        let r = self.run(f, args);
        self.mem.truncate(mark.max(NULL_GUARD));
        self.depth -= 1;
        r
    }

    fn run(&mut self, f: &Function, args: &[DataValue]) -> R<Vec<DataValue>> {
        let dfg = &f.dfg;
        let mut slots: SecondaryMap<StackSlot, u64> = SecondaryMap::new();
        for (ss, d) in f.stack_slots.iter() {
            slots[ss] = self.alloc(d.size as usize, d.align)?;
        }
        let mut env: SecondaryMap<Value, Option<DataValue>> = SecondaryMap::new();
        let get = |env: &SecondaryMap<Value, Option<DataValue>>, v: Value| -> R<DataValue> {
            match env[v] {
                Some(d) => Ok(d),
                None => invalid(format!("{v} used before it is defined")),
            }
        };
        let Some(mut block) = f.layout.entry_block() else {
            return invalid("function has no blocks");
        };
        for (&p, a) in dfg.block_params(block).iter().zip(args) {
            env[p] = Some(*a);
        }
        loop {
            let mut next: Option<(Block, Vec<DataValue>)> = None;
            for inst in f.layout.block_insts(block) {
                if self.steps_left == 0 {
                    return Err(InterpError::StepLimit);
                }
                self.steps_left -= 1;
                self.steps += 1;
                let data = dfg.inst(inst);
                let args: Vec<DataValue> = dfg
                    .inst_args(inst)
                    .iter()
                    .map(|&v| get(&env, v))
                    .collect::<R<_>>()?;
                let results = dfg.inst_results(inst);
                let rty = results.first().map(|&r| dfg.value_type(r));
                let int = |d: DataValue| match d {
                    DataValue::Int(_, v) => Ok(v),
                    DataValue::Ptr(_, p) => Ok(p as i64),
                    DataValue::Float(..) => invalid("float where an integer was expected"),
                };
                let flt = |d: DataValue| match d {
                    DataValue::Float(_, v) => Ok(v),
                    _ => invalid("integer where a float was expected"),
                };
                let out: Vec<DataValue> = match data {
                    InstData::UnaryImm { imm, .. } => {
                        vec![DataValue::Int(rty.unwrap_or(Type::I64), *imm)]
                    }
                    InstData::UnaryIeee { bits, .. } => {
                        vec![DataValue::Float(
                            rty.unwrap_or(Type::F64),
                            f64::from_bits(*bits),
                        )]
                    }
                    InstData::Binary { opcode, .. } => {
                        let ty = args[0].ty();
                        vec![match opcode {
                            Opcode::PtrOffset => DataValue::Ptr(
                                ty,
                                (int(args[0])? as u64).wrapping_add(int(args[1])? as u64),
                            ),
                            _ if ty.is_float() => DataValue::Float(
                                ty,
                                semantics::float_binary(*opcode, ty, flt(args[0])?, flt(args[1])?)
                                    .ok_or_else(|| {
                                        InterpError::Invalid(format!("`{opcode}` on floats"))
                                    })?,
                            ),
                            _ => DataValue::Int(
                                ty,
                                semantics::int_binary(*opcode, ty, int(args[0])?, int(args[1])?)
                                    .ok_or(InterpError::DivideByZero)?,
                            ),
                        }]
                    }
                    InstData::Unary {
                        opcode: Opcode::StackAlloc,
                        ..
                    } => {
                        let size =
                            usize::try_from(int(args[0])?).map_err(|_| InterpError::OutOfMemory)?;
                        let a = self.alloc(size, 16)?;
                        vec![DataValue::Ptr(Type::Ptr(AddrSpace::Local), a)]
                    }
                    InstData::Unary {
                        opcode: Opcode::WarpSync,
                        ..
                    } => vec![],
                    InstData::Unary {
                        opcode: Opcode::StackRestore,
                        ..
                    } => {
                        let to = int(args[0])? as u64;
                        match usize::try_from(to) {
                            Ok(to) if (NULL_GUARD..=self.mem.len()).contains(&to) => {
                                self.mem.truncate(to)
                            }
                            _ => return invalid(format!("stack_restore to 0x{to:x}")),
                        }
                        vec![]
                    }
                    InstData::Unary { opcode, .. } => {
                        let a = args[0];
                        let (from, to) = (a.ty(), rty.unwrap_or(a.ty()));
                        vec![match opcode {
                            Opcode::Fpext => DataValue::Float(to, flt(a)?),
                            Opcode::Fptrunc => DataValue::Float(to, flt(a)? as f32 as f64),
                            Opcode::Sitofp | Opcode::Uitofp => DataValue::Float(
                                to,
                                semantics::int_to_float(
                                    *opcode == Opcode::Sitofp,
                                    from,
                                    to,
                                    int(a)?,
                                ),
                            ),
                            Opcode::Fptosi | Opcode::Fptoui => DataValue::Int(
                                to,
                                semantics::float_to_int(*opcode == Opcode::Fptosi, to, flt(a)?),
                            ),
                            Opcode::Bitcast => match a {
                                DataValue::Float(Type::F32, x) => DataValue::Int(
                                    to,
                                    normalize_imm(to, (x as f32).to_bits() as i64),
                                ),
                                DataValue::Float(_, x) => DataValue::Int(to, x.to_bits() as i64),
                                DataValue::Int(_, v) if to == Type::F32 => {
                                    DataValue::Float(to, f32::from_bits(v as u32) as f64)
                                }
                                DataValue::Int(_, v) => {
                                    DataValue::Float(to, f64::from_bits(v as u64))
                                }
                                DataValue::Ptr(..) => return invalid("bitcast of a pointer"),
                            },
                            Opcode::Ptrtoint => DataValue::Int(to, normalize_imm(to, int(a)?)),
                            Opcode::Inttoptr => DataValue::Ptr(to, int(a)? as u64 & mask(from)),
                            Opcode::Addrspacecast => DataValue::Ptr(to, int(a)? as u64),
                            _ if from.is_float() => DataValue::Float(
                                to,
                                semantics::float_unary(*opcode, to, flt(a)?).ok_or_else(|| {
                                    InterpError::Invalid(format!("`{opcode}` on a float"))
                                })?,
                            ),
                            _ => DataValue::Int(
                                to,
                                semantics::int_unary(*opcode, from, to, int(a)?).ok_or_else(
                                    || InterpError::Invalid(format!("`{opcode}` on an integer")),
                                )?,
                            ),
                        }]
                    }
                    InstData::Ternary { opcode, .. } => match opcode {
                        Opcode::Select => vec![if int(args[0])? != 0 { args[1] } else { args[2] }],
                        _ => {
                            let ty = args[0].ty();
                            let (a, b, c) = (flt(args[0])?, flt(args[1])?, flt(args[2])?);
                            let r = if ty == Type::F32 {
                                (a as f32).mul_add(b as f32, c as f32) as f64
                            } else {
                                a.mul_add(b, c)
                            };
                            vec![DataValue::Float(ty, r)]
                        }
                    },
                    InstData::IntCompare { cond, .. } => {
                        let ty = if args[0].ty().is_ptr() {
                            Type::I64
                        } else {
                            args[0].ty()
                        };
                        let r = semantics::icmp(*cond, ty, int(args[0])?, int(args[1])?);
                        vec![DataValue::Int(Type::I1, r as i64)]
                    }
                    InstData::FloatCompare { cond, .. } => {
                        let r = semantics::fcmp(*cond, flt(args[0])?, flt(args[1])?);
                        vec![DataValue::Int(Type::I1, r as i64)]
                    }
                    InstData::Special { reg } => {
                        let t = &self.thread;
                        let v = match reg {
                            SpecialReg::TidX => t.tid[0],
                            SpecialReg::TidY => t.tid[1],
                            SpecialReg::TidZ => t.tid[2],
                            SpecialReg::NtidX => t.ntid[0],
                            SpecialReg::NtidY => t.ntid[1],
                            SpecialReg::NtidZ => t.ntid[2],
                            SpecialReg::CtaidX => t.ctaid[0],
                            SpecialReg::CtaidY => t.ctaid[1],
                            SpecialReg::CtaidZ => t.ctaid[2],
                            SpecialReg::NctaidX => t.nctaid[0],
                            SpecialReg::NctaidY => t.nctaid[1],
                            SpecialReg::NctaidZ => t.nctaid[2],
                            SpecialReg::Laneid | SpecialReg::Warpid | SpecialReg::Smid => 0,
                            SpecialReg::Nwarpid | SpecialReg::Nsmid => 1,
                            SpecialReg::Warpsize => 32,
                            SpecialReg::Clock => self.steps as u32,
                            SpecialReg::Clock64 => {
                                let ty = rty.unwrap_or(Type::I64);
                                out_one(&mut env, results, DataValue::Int(ty, self.steps as i64));
                                continue;
                            }
                        };
                        vec![DataValue::Int(
                            Type::I32,
                            normalize_imm(Type::I32, v as i64),
                        )]
                    }
                    InstData::Load { arg, .. } => {
                        let ty =
                            rty.ok_or_else(|| InterpError::Invalid("load without result".into()))?;
                        vec![self.load(ty, int(get(&env, *arg)?)? as u64)?]
                    }
                    InstData::Store { .. } => {
                        self.store(args[0], int(args[1])? as u64)?;
                        vec![]
                    }
                    InstData::StackAddr { slot } => {
                        vec![DataValue::Ptr(rty.unwrap_or(Type::PTR), slots[*slot])]
                    }
                    InstData::GlobalAddr { global } => {
                        let name = match dfg.globals.get(*global) {
                            Some(g) => g.name.as_str(),
                            None => return invalid(format!("undeclared {global}")),
                        };
                        let Some(&a) = self.globals.get(name) else {
                            return invalid(format!("no module global @{name}"));
                        };
                        vec![DataValue::Ptr(rty.unwrap_or(Type::PTR), a)]
                    }
                    InstData::Call { func, .. } => {
                        let Some(ext) = dfg.ext_funcs.get(*func) else {
                            return invalid(format!("undeclared {func}"));
                        };
                        let name = ext.name.clone();
                        self.call(&name, &args)?
                    }
                    InstData::FuncAddr { func } => {
                        let Some(ext) = dfg.ext_funcs.get(*func) else {
                            return invalid(format!("undeclared {func}"));
                        };
                        let Some(a) = self.func_address(&ext.name) else {
                            return Err(InterpError::UnknownFunction(ext.name.clone()));
                        };
                        vec![DataValue::Ptr(Type::PTR, a)]
                    }
                    InstData::CallIndirect { sig, .. } => {
                        let Some(sig) = dfg.signatures.get(*sig) else {
                            return invalid(format!("undeclared {sig}"));
                        };
                        let addr = int(args[0])? as u64;
                        let Some(name) = self.function_at(addr) else {
                            return Err(InterpError::BadArguments(format!(
                                "indirect call to 0x{addr:x}, which is not a function"
                            )));
                        };
                        if self.module.signature_of(name) != Some(sig) {
                            return Err(InterpError::BadArguments(format!(
                                "indirect call with signature {sig} to @{name}"
                            )));
                        }
                        self.call(name, &args[1..])?
                    }
                    InstData::Return { .. } => return Ok(args),
                    InstData::Jump { .. } | InstData::Brif { .. } | InstData::BrTable { .. } => {
                        let calls = dfg.branch_destinations(inst);
                        let pick = match data {
                            InstData::Jump { .. } => 0,
                            InstData::Brif { .. } => usize::from(int(args[0])? == 0),
                            _ => {
                                // calls[0] is the default; an index at or past the table
                                // (any u64, all ones included) takes it.
                                let i = int(args[0])? as u64 & mask(args[0].ty());
                                match usize::try_from(i) {
                                    Ok(i) if i < calls.len().saturating_sub(1) => i + 1,
                                    _ => 0,
                                }
                            }
                        };
                        let Some(call) = calls.get(pick) else {
                            return invalid("branch without destinations");
                        };
                        let vals = dfg
                            .block_call_args(call)
                            .iter()
                            .map(|&v| get(&env, v))
                            .collect::<R<Vec<_>>>()?;
                        next = Some((call.block, vals));
                        break;
                    }
                    InstData::AtomicRmw { op, .. } => {
                        let addr = int(args[0])? as u64;
                        let ty = args[1].ty();
                        let old = self.load(ty, addr)?;
                        let new = match (op, old, args[1]) {
                            (AtomicRmwOp::Xchg, _, v) => v,
                            (AtomicRmwOp::Add, DataValue::Float(t, a), DataValue::Float(_, b)) => {
                                DataValue::Float(
                                    t,
                                    semantics::float_binary(Opcode::Fadd, t, a, b).unwrap_or(a),
                                )
                            }
                            (AtomicRmwOp::Inc, DataValue::Int(t, a), DataValue::Int(_, b)) => {
                                let (ua, ub) = (a as u64 & mask(t), b as u64 & mask(t));
                                DataValue::Int(
                                    t,
                                    if ua >= ub { 0 } else { normalize_imm(t, a + 1) },
                                )
                            }
                            (AtomicRmwOp::Dec, DataValue::Int(t, a), DataValue::Int(_, b)) => {
                                let (ua, ub) = (a as u64 & mask(t), b as u64 & mask(t));
                                DataValue::Int(
                                    t,
                                    if ua == 0 || ua > ub {
                                        b
                                    } else {
                                        normalize_imm(t, a - 1)
                                    },
                                )
                            }
                            (op, DataValue::Int(t, a), DataValue::Int(_, b)) => {
                                let o = match op {
                                    AtomicRmwOp::Add => Opcode::Iadd,
                                    AtomicRmwOp::Sub => Opcode::Isub,
                                    AtomicRmwOp::And => Opcode::And,
                                    AtomicRmwOp::Or => Opcode::Or,
                                    AtomicRmwOp::Xor => Opcode::Xor,
                                    AtomicRmwOp::Smin => Opcode::Smin,
                                    AtomicRmwOp::Smax => Opcode::Smax,
                                    AtomicRmwOp::Umin => Opcode::Umin,
                                    _ => Opcode::Umax,
                                };
                                DataValue::Int(t, semantics::int_binary(o, t, a, b).unwrap_or(a))
                            }
                            _ => return invalid(format!("atomic_rmw {op} on {ty}")),
                        };
                        self.store(new, addr)?;
                        vec![old]
                    }
                    InstData::AtomicCas { .. } => {
                        let addr = int(args[0])? as u64;
                        let old = self.load(args[1].ty(), addr)?;
                        if old.same(args[1]) {
                            self.store(args[2], addr)?;
                        }
                        vec![old]
                    }
                    InstData::Shuffle { .. } => vec![args[0]],
                    InstData::Vote { mode, .. } => {
                        let p = int(args[0])? & 1;
                        match mode {
                            VoteMode::Ballot => vec![DataValue::Int(Type::I32, p)],
                            _ => vec![DataValue::Int(Type::I1, p)],
                        }
                    }
                    InstData::Fence { .. } => vec![],
                    InstData::Nullary { opcode } => match opcode {
                        Opcode::Activemask => vec![DataValue::Int(Type::I32, 1)],
                        Opcode::StackSave => vec![DataValue::Ptr(
                            Type::Ptr(AddrSpace::Local),
                            self.mem.len() as u64,
                        )],
                        Opcode::Trap => return Err(InterpError::Trap),
                        Opcode::Unreachable => return Err(InterpError::Unreachable),
                        _ => vec![],
                    },
                };
                if out.len() != results.len() {
                    return invalid(format!(
                        "`{}` produced {} values for {} results",
                        data.opcode(),
                        out.len(),
                        results.len()
                    ));
                }
                for (&r, v) in results.iter().zip(out) {
                    // Keep the result's declared type (e.g. a pointer space or an i1 compare).
                    env[r] = Some(DataValue::from_bits(dfg.value_type(r), v.bits()));
                }
            }
            match next {
                Some((b, _)) if !dfg.block_is_valid(b) => {
                    return invalid(format!("branch to nonexistent {b}"));
                }
                Some((b, vals)) => {
                    let params = dfg.block_params(b);
                    if params.len() != vals.len() {
                        return invalid(format!("{b} takes {} arguments", params.len()));
                    }
                    for (&p, v) in params.iter().zip(vals) {
                        env[p] = Some(v);
                    }
                    block = b;
                }
                None => return invalid(format!("{block} has no terminator")),
            }
        }
    }
}

fn out_one(env: &mut SecondaryMap<Value, Option<DataValue>>, results: &[Value], v: DataValue) {
    if let Some(&r) = results.first() {
        env[r] = Some(v);
    }
}
