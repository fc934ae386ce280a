//! Decoder: syntax tree -> `Program`. Resolves every name once (registers to frame indices,
//! labels to instruction indices, variables to offsets or global indices), lays out shared,
//! local and parameter memory, and turns opcode strings into typed `Op`s.
//!
//! Invariants: each `Stmt::Inst` becomes exactly one `Inst` (so label positions can be counted
//! before decoding), and every body ends with an implicit `ret`; the layout of shared memory is module-wide (every kernel sees every
//! `.shared` variable at the same offset; dynamic shared memory starts after all of them).

use std::collections::HashMap;

use crate::error::EmuError;
use crate::parse::{
    Ast, FuncDecl, Init, InstAst, Item, Num, Operand, ParamDecl, Space, Stmt, VarDecl,
};
use crate::program::*;

/// What a name means.
#[derive(Clone, Copy, Debug)]
enum Sym {
    Reg(u32),
    Global(u32),
    Shared(u32),
    StaticLocal(u32),
    Frame(u32),
    KParam(u32),
    Func(u32),
}

/// A pointer relocation in a global initializer: (byte offset, target global, addend).
type Reloc = (u64, u32, i64);

/// Most virtual registers per function.
const MAX_REGS: u64 = 1 << 22;
/// Most local memory per thread (as on the hardware); also the emulator's stack limit.
pub(crate) const MAX_LOCAL: u64 = 128 * 1024;
/// Most bytes of parameters (or results) of one function.
const MAX_PARAMS: u64 = 64 * 1024;
/// Most static shared memory per module.
const MAX_SHARED: u64 = 1 << 20;

/// The function-pointer value of function `f`.
fn func_addr(f: u32) -> u64 {
    crate::memory::FUNC_WINDOW + 16 * f as u64
}

fn align_up(v: u64, a: u64) -> u64 {
    if a <= 1 {
        v
    } else {
        v.div_ceil(a).saturating_mul(a)
    }
}

fn elem_bytes(ty: &str, line: u32) -> Result<u32, EmuError> {
    Ty::parse(ty)
        .map(Ty::bytes)
        .ok_or_else(|| EmuError::decode(line, format!("unknown type `.{ty}`")))
}

fn var_size(v: &VarDecl) -> Result<(u64, u32, bool), EmuError> {
    let eb = elem_bytes(&v.ty, v.line)? as u64 * v.vec as u64;
    let mut n = 1u64;
    let mut unsized_ = false;
    for d in &v.dims {
        match d {
            Some(d) => n = n.saturating_mul(*d),
            None => unsized_ = true,
        }
    }
    if unsized_ {
        n = if v.init.is_empty() {
            0
        } else {
            (v.init.len() as u64).div_ceil(v.vec as u64)
        };
    }
    let align = if v.align > 0 { v.align } else { eb as u32 };
    Ok((
        n.saturating_mul(eb),
        align.max(1),
        unsized_ && v.init.is_empty(),
    ))
}

fn param_layout(
    ps: &[ParamDecl],
    start: u64,
    line: u32,
) -> Result<(Vec<ParamSlot>, u64), EmuError> {
    let mut off = start;
    let mut out = Vec::new();
    for p in ps {
        let eb = elem_bytes(&p.ty, line)? as u64;
        let a = if p.align > 0 { p.align as u64 } else { eb };
        off = align_up(off, a);
        let size = eb.saturating_mul(p.count);
        if off.saturating_add(size) > MAX_PARAMS {
            return Err(EmuError::decode(
                line,
                format!("parameters of more than {MAX_PARAMS} bytes"),
            ));
        }
        out.push(ParamSlot {
            offset: off as u32,
            size: size as u32,
        });
        off += size;
    }
    Ok((out, off))
}

struct ModCtx {
    syms: HashMap<String, Sym>,
    funcs: Vec<Func>,
    decls: Vec<usize>,
    is_vprintf: Vec<bool>,
    /// CUDA's `__assertfail` (declared, no body).
    is_assertfail: Vec<bool>,
    has_body: Vec<bool>,
    globals: Vec<GlobalVar>,
    /// Offsets of function-scope `.shared` variables, in visit order.
    body_shared: Vec<u32>,
    dyn_shared_base: u32,
    files: HashMap<u32, u32>,
}

/// Decodes a parsed module.
pub(crate) fn decode(ast: &Ast) -> Result<Program, EmuError> {
    let mut m = ModCtx {
        syms: HashMap::new(),
        funcs: Vec::new(),
        decls: Vec::new(),
        is_vprintf: Vec::new(),
        is_assertfail: Vec::new(),
        has_body: Vec::new(),
        globals: Vec::new(),
        body_shared: Vec::new(),
        dyn_shared_base: 0,
        files: HashMap::new(),
    };
    let mut files = Vec::new();
    for (idx, name) in &ast.files {
        m.files.insert(*idx, files.len() as u32);
        files.push(name.clone());
    }
    // Pass 1: module variables and function signatures.
    let mut shared_off = 0u64;
    let mut static_local = 0u64;
    let mut dyn_vars = Vec::new();
    for (i, item) in ast.items.iter().enumerate() {
        match item {
            Item::Var(v) => {
                let (size, align, dynamic) = var_size(v)?;
                let sym = match v.space {
                    Space::Global | Space::Const => {
                        let idx = m.globals.len() as u32;
                        m.globals.push(GlobalVar {
                            name: v.name.clone(),
                            size,
                            align,
                            init: Vec::new(),
                            relocs: Vec::new(),
                        });
                        Sym::Global(idx)
                    }
                    Space::Shared if dynamic || (v.is_extern && size == 0) => {
                        dyn_vars.push(v.name.clone());
                        continue;
                    }
                    Space::Shared => {
                        shared_off = align_up(shared_off, align as u64);
                        let s = Sym::Shared(shared_off as u32);
                        shared_off = shared_off.saturating_add(size);
                        s
                    }
                    Space::Local => {
                        static_local = align_up(static_local, align as u64);
                        let s = Sym::StaticLocal(static_local as u32);
                        static_local = static_local.saturating_add(size);
                        s
                    }
                    Space::Param => {
                        return Err(EmuError::decode(
                            v.line,
                            "`.param` variable at module scope",
                        ));
                    }
                };
                m.syms.insert(v.name.clone(), sym);
            }
            Item::Func(f) => {
                if let Some(Sym::Func(idx)) = m.syms.get(&f.name).copied() {
                    // a prototype followed by the definition: keep the definition
                    if f.body.is_some() {
                        m.decls[idx as usize] = i;
                        m.has_body[idx as usize] = true;
                    }
                    continue;
                }
                let idx = m.funcs.len() as u32;
                let (params, rets, param_size, frame) = if f.is_entry {
                    let (p, size) = param_layout(&f.params, 0, f.line)?;
                    (p, Vec::new(), size, 0)
                } else {
                    let (p, end) = param_layout(&f.params, 0, f.line)?;
                    let (r, end) = param_layout(&f.rets, end, f.line)?;
                    (p, r, 0, end)
                };
                m.funcs.push(Func {
                    name: f.name.clone(),
                    is_kernel: f.is_entry,
                    entry: u32::MAX,
                    nregs: 0,
                    frame_size: frame as u32,
                    params,
                    rets,
                    param_size: param_size as u32,
                });
                m.decls.push(i);
                m.is_vprintf.push(f.name == "vprintf" && f.body.is_none());
                m.is_assertfail
                    .push(f.name == "__assertfail" && f.body.is_none());
                m.has_body.push(f.body.is_some());
                m.syms.insert(f.name.clone(), Sym::Func(idx));
            }
        }
    }
    // Function-scope shared variables join the module-wide layout.
    for item in &ast.items {
        if let Item::Func(FuncDecl {
            body: Some(body), ..
        }) = item
        {
            for s in body {
                if let Stmt::Var(v) = s
                    && v.space == Space::Shared
                {
                    let (size, align, _) = var_size(v)?;
                    shared_off = align_up(shared_off, align as u64);
                    m.body_shared.push(shared_off as u32);
                    shared_off = shared_off.saturating_add(size);
                }
            }
        }
    }
    if shared_off > MAX_SHARED {
        return Err(EmuError::decode(
            1,
            format!("{shared_off} bytes of static shared memory exceed {MAX_SHARED}"),
        ));
    }
    if static_local > MAX_LOCAL {
        return Err(EmuError::decode(
            1,
            format!("{static_local} bytes of module `.local` variables exceed {MAX_LOCAL}"),
        ));
    }
    let static_shared = shared_off as u32;
    m.dyn_shared_base = align_up(shared_off, 16) as u32;
    for name in dyn_vars {
        m.syms.insert(name, Sym::Shared(m.dyn_shared_base));
    }
    // Global initializers (after all symbols are known, for relocations).
    let mut gi = 0;
    for item in &ast.items {
        if let Item::Var(v) = item
            && matches!(v.space, Space::Global | Space::Const)
        {
            let (init, relocs) = init_bytes(v, &m.syms)?;
            m.globals[gi].init = init;
            m.globals[gi].relocs = relocs;
            gi += 1;
        }
    }
    // Pass 2: bodies.
    let mut code = Vec::new();
    let mut shared_cursor = 0usize;
    for fi in 0..m.funcs.len() {
        let Item::Func(f) = &ast.items[m.decls[fi]] else {
            continue;
        };
        let Some(body) = &f.body else { continue };
        let entry = code.len() as u32;
        let (nregs, frame) = decode_body(&m, fi as u32, f, body, &mut code, &mut shared_cursor)?;
        let func = &mut m.funcs[fi];
        func.entry = entry;
        func.nregs = nregs;
        func.frame_size = align_up(frame, 16) as u32;
    }
    let uses_heap = code
        .iter()
        .any(|i| matches!(i.op, Op::Malloc { .. } | Op::Free { .. }));
    Ok(Program {
        uses_heap,
        code,
        funcs: m.funcs,
        globals: m.globals,
        static_shared,
        dyn_shared_base: m.dyn_shared_base,
        static_local: align_up(static_local, 16) as u32,
        files,
    })
}

fn init_bytes(v: &VarDecl, syms: &HashMap<String, Sym>) -> Result<(Vec<u8>, Vec<Reloc>), EmuError> {
    let ty = Ty::parse(&v.ty)
        .ok_or_else(|| EmuError::decode(v.line, format!("unknown type `.{}`", v.ty)))?;
    let eb = ty.bytes() as usize;
    let (size, _, _) = var_size(v)?;
    if (v.init.len() as u64).saturating_mul(eb as u64) > size {
        // ptxas rejects this too; silently growing the variable would hide a bad emitter
        return Err(EmuError::decode(
            v.line,
            format!(
                "{} initializers for `{}`, which holds {} elements",
                v.init.len(),
                v.name,
                size / eb.max(1) as u64
            ),
        ));
    }
    let mut out = Vec::with_capacity(v.init.len() * eb);
    let mut relocs = Vec::new();
    for e in &v.init {
        match e {
            Init::Num(n) => {
                let bits = imm_bits(*n, ty);
                out.extend_from_slice(&bits.to_le_bytes()[..eb]);
            }
            Init::Sym { name, add, .. } => match syms.get(name) {
                Some(Sym::Global(g)) => {
                    relocs.push((out.len() as u64, *g, *add));
                    out.extend_from_slice(&vec![0u8; eb]);
                }
                Some(Sym::Func(f)) if *add == 0 => {
                    out.extend_from_slice(&func_addr(*f).to_le_bytes()[..eb]);
                }
                _ => {
                    return Err(EmuError::decode(
                        v.line,
                        format!("initializer refers to `{name}`, which is not a global variable"),
                    ));
                }
            },
        }
    }
    Ok((out, relocs))
}

/// Converts a literal to the bits of a value of type `ty`.
fn imm_bits(n: Num, ty: Ty) -> u64 {
    match (n, ty) {
        (Num::Int(v), Ty::F32) => (v as f32).to_bits() as u64,
        (Num::Int(v), Ty::F64) => (v as f64).to_bits(),
        (Num::F64(b), Ty::F32) => (f64::from_bits(b) as f32).to_bits() as u64,
        (Num::F32(b), Ty::F64) => (f32::from_bits(b) as f64).to_bits(),
        (Num::Int(v), _) => (v as u64) & mask(ty.bits()),
        (Num::F32(b), _) => b as u64,
        (Num::F64(b), _) => b & mask(ty.bits().max(32)),
    }
}

struct Fx<'a> {
    m: &'a ModCtx,
    scopes: Vec<HashMap<String, Sym>>,
    labels: HashMap<&'a str, u32>,
    /// `.branchtargets` lists by the label that names them.
    tables: HashMap<&'a str, &'a [String]>,
    nregs: u32,
    frame: u64,
    is_kernel: bool,
    line: u32,
}

fn decode_body(
    m: &ModCtx,
    fi: u32,
    f: &FuncDecl,
    body: &[Stmt],
    code: &mut Vec<Inst>,
    shared_cursor: &mut usize,
) -> Result<(u32, u64), EmuError> {
    let func = &m.funcs[fi as usize];
    let mut fx = Fx {
        m,
        scopes: vec![HashMap::new()],
        labels: HashMap::new(),
        tables: HashMap::new(),
        nregs: 0,
        frame: 0,
        is_kernel: f.is_entry,
        line: f.line,
    };
    // Parameters and results.
    for (p, slot) in f.params.iter().zip(&func.params) {
        let s = if f.is_entry {
            Sym::KParam(slot.offset)
        } else {
            Sym::Frame(slot.offset)
        };
        fx.scopes[0].insert(p.name.clone(), s);
    }
    for (p, slot) in f.rets.iter().zip(&func.rets) {
        fx.scopes[0].insert(p.name.clone(), Sym::Frame(slot.offset));
    }
    fx.frame = func.frame_size as u64;
    // Labels: each instruction statement is one instruction.
    let mut pc = code.len() as u32;
    let mut last_label: Option<&str> = None;
    for s in body {
        if let Stmt::Label(name, _) = s {
            last_label = Some(name.as_str());
        }
        match s {
            Stmt::Inst(_) => pc += 1,
            Stmt::BranchTargets(names, line) => match last_label {
                Some(l) => {
                    fx.tables.insert(l, names.as_slice());
                }
                None => return Err(EmuError::decode(*line, "`.branchtargets` without a label")),
            },
            Stmt::Label(name, line) if fx.labels.insert(name.as_str(), pc).is_some() => {
                return Err(EmuError::decode(
                    *line,
                    format!("label `{name}` defined twice"),
                ));
            }
            _ => {}
        }
    }
    let mut loc = (u32::MAX, 0u32);
    for s in body {
        match s {
            Stmt::Open => fx.scopes.push(HashMap::new()),
            Stmt::Close => {
                fx.scopes.pop();
            }
            Stmt::Loc { file, line } => {
                loc = (m.files.get(file).copied().unwrap_or(u32::MAX), *line);
            }
            Stmt::Label(..) | Stmt::BranchTargets(..) => {}
            Stmt::Reg { names, line, .. } => {
                for (name, range) in names {
                    match range {
                        Some(n) => {
                            if fx.nregs as u64 + *n as u64 > MAX_REGS {
                                return Err(EmuError::decode(*line, "too many registers"));
                            }
                            for k in 0..*n {
                                fx.declare_reg(format!("{name}{k}"));
                            }
                        }
                        None => fx.declare_reg(name.clone()),
                    }
                    if fx.nregs as u64 > MAX_REGS {
                        return Err(EmuError::decode(*line, "too many registers"));
                    }
                }
            }
            Stmt::Var(v) => {
                let (size, align, _) = var_size(v)?;
                let sym = match v.space {
                    Space::Shared => {
                        let off = m.body_shared.get(*shared_cursor).copied().unwrap_or(0);
                        *shared_cursor += 1;
                        Sym::Shared(off)
                    }
                    Space::Local | Space::Param => {
                        fx.frame = align_up(fx.frame, align as u64);
                        let s = Sym::Frame(fx.frame as u32);
                        fx.frame = fx.frame.saturating_add(size);
                        s
                    }
                    Space::Global | Space::Const => {
                        return Err(EmuError::decode(
                            v.line,
                            "function-scope `.global`/`.const` variables are not supported",
                        ));
                    }
                };
                fx.scopes.last_mut().map(|s| s.insert(v.name.clone(), sym));
            }
            Stmt::Inst(i) => {
                fx.line = i.line;
                let op = fx.inst(i)?;
                let class = classify(&op);
                let (guard, guard_neg) = match &i.guard {
                    Some(g) => (fx.reg(&g.reg)?, g.neg),
                    None => (NO_GUARD, false),
                };
                code.push(Inst {
                    op,
                    guard,
                    guard_neg,
                    class,
                    line: i.line,
                    src_file: loc.0,
                    src_line: loc.1,
                });
            }
        }
    }
    // Falling off the end of a body returns (the code of the next function follows).
    let last_line = code.last().map_or(f.line, |i| i.line);
    code.push(Inst {
        op: Op::Ret,
        guard: NO_GUARD,
        guard_neg: false,
        class: InstClass::Control,
        line: last_line,
        src_file: u32::MAX,
        src_line: 0,
    });
    if fx.frame > MAX_LOCAL {
        return Err(EmuError::decode(
            f.line,
            format!(
                "local frame of `{}` is {} bytes, more than {MAX_LOCAL}",
                f.name, fx.frame
            ),
        ));
    }
    Ok((fx.nregs, fx.frame))
}

fn classify(op: &Op) -> InstClass {
    match op {
        Op::Mov { .. }
        | Op::Pack { .. }
        | Op::Unpack { .. }
        | Op::IBin { .. }
        | Op::IUn { .. }
        | Op::Mad { .. }
        | Op::Selp { .. }
        | Op::Bfe { .. }
        | Op::Bfi { .. }
        | Op::Prmt { .. }
        | Op::AddC { .. }
        | Op::MadC { .. }
        | Op::Cvta { .. }
        | Op::Nop => InstClass::Int,
        Op::Setp { ty, .. } | Op::Set { ty, .. } => {
            if ty.float() {
                InstClass::Float
            } else {
                InstClass::Int
            }
        }
        Op::Slct { cf32, .. } => {
            if *cf32 {
                InstClass::Float
            } else {
                InstClass::Int
            }
        }
        Op::Cvt { dt, st, .. } => {
            if dt.float() || st.float() {
                InstClass::Float
            } else {
                InstClass::Int
            }
        }
        Op::FBin { .. } | Op::FUn { .. } | Op::Fma { .. } | Op::Testp { .. } => InstClass::Float,
        Op::Ld { sp, .. } | Op::St { sp, .. } => match sp {
            MemSpace::Global | MemSpace::Generic => InstClass::GlobalMem,
            MemSpace::Shared => InstClass::SharedMem,
            MemSpace::Local | MemSpace::KParam => InstClass::LocalMem,
        },
        Op::Bra { .. } | Op::Brx { .. } | Op::Call(_) | Op::Ret | Op::Exit => InstClass::Control,
        Op::Bar { .. }
        | Op::WarpSync { .. }
        | Op::Fence
        | Op::Shfl { .. }
        | Op::Vote { .. }
        | Op::Activemask { .. }
        | Op::Match { .. } => InstClass::Sync,
        Op::Atom { .. } => InstClass::Atomic,
        Op::Alloca { .. } | Op::StackSave { .. } | Op::StackRestore { .. } => InstClass::Int,
        Op::Trap
        | Op::AssertFail { .. }
        | Op::Vprintf { .. }
        | Op::Malloc { .. }
        | Op::Free { .. } => InstClass::Other,
    }
}

/// Modifiers of an opcode after the mnemonic.
struct Mods<'a> {
    list: Vec<&'a str>,
}

impl<'a> Mods<'a> {
    fn has(&self, m: &str) -> bool {
        self.list.contains(&m)
    }
    fn types(&self) -> Vec<Ty> {
        self.list.iter().filter_map(|m| Ty::parse(m)).collect()
    }
    fn space(&self) -> Option<Space> {
        self.list.iter().find_map(|m| {
            Some(match m.split("::").next()? {
                "global" => Space::Global,
                "shared" => Space::Shared,
                "local" => Space::Local,
                "const" => Space::Const,
                "param" => Space::Param,
                _ => return None,
            })
        })
    }
    fn vec(&self) -> u8 {
        if self.has("v4") {
            4
        } else if self.has("v2") {
            2
        } else {
            1
        }
    }
    fn rnd(&self) -> Rnd {
        for m in &self.list {
            let r = match *m {
                "rn" => Rnd::Rn,
                "rz" => Rnd::Rz,
                "rm" => Rnd::Rm,
                "rp" => Rnd::Rp,
                "rni" => Rnd::Rni,
                "rzi" => Rnd::Rzi,
                "rmi" => Rnd::Rmi,
                "rpi" => Rnd::Rpi,
                _ => continue,
            };
            return r;
        }
        Rnd::None
    }
    fn boolop(&self) -> Option<BoolOp> {
        self.list.iter().skip(1).find_map(|m| match *m {
            "and" => Some(BoolOp::And),
            "or" => Some(BoolOp::Or),
            "xor" => Some(BoolOp::Xor),
            _ => None,
        })
    }
}

impl<'a> Fx<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, EmuError> {
        Err(EmuError::decode(self.line, msg))
    }

    fn declare_reg(&mut self, name: String) {
        let r = self.nregs;
        self.nregs += 1;
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, Sym::Reg(r));
        }
    }

    fn lookup(&self, name: &str) -> Option<Sym> {
        for s in self.scopes.iter().rev() {
            if let Some(v) = s.get(name) {
                return Some(*v);
            }
        }
        self.m.syms.get(name).copied()
    }

    fn reg(&self, name: &str) -> Result<u32, EmuError> {
        match self.lookup(name) {
            Some(Sym::Reg(r)) => Ok(r),
            Some(_) => self.err(format!("`{name}` is not a register")),
            None => self.err(format!("undeclared register `{name}`")),
        }
    }

    fn dst(&self, o: &Operand) -> Result<u32, EmuError> {
        match o {
            Operand::Name(n) => self.reg(n),
            _ => self.err("expected a destination register"),
        }
    }

    /// Optional destination (`_` is a sink).
    fn dst_opt(&self, o: &Operand) -> Result<Option<u32>, EmuError> {
        match o {
            Operand::Name(n) if n == "_" => Ok(None),
            _ => self.dst(o).map(Some),
        }
    }

    fn name_src(&self, n: &str, off: i64) -> Result<Src, EmuError> {
        if let Some(s) = SReg::parse(n) {
            return Ok(Src::SReg(s));
        }
        if n == "WARP_SZ" {
            return Ok(Src::Imm(32));
        }
        let add = |v: u32| Src::Imm((v as i64 + off) as u64);
        match self.lookup(n) {
            Some(Sym::Reg(r)) if off == 0 => Ok(Src::Reg(r)),
            Some(Sym::Reg(_)) => self.err("register with an offset"),
            Some(Sym::Global(g)) => Ok(Src::GlobalAddr(g, off)),
            Some(Sym::Shared(o) | Sym::StaticLocal(o) | Sym::KParam(o)) => Ok(add(o)),
            Some(Sym::Frame(o)) => Ok(Src::FrameAddr((o as i64 + off) as u32)),
            Some(Sym::Func(f)) if off == 0 => Ok(Src::Imm(func_addr(f))),
            Some(Sym::Func(_)) => self.err(format!("offset from function address `{n}`")),
            None => self.err(format!("undeclared name `{n}`")),
        }
    }

    fn src(&self, o: &Operand, ty: Ty) -> Result<Src, EmuError> {
        match o {
            Operand::Name(n) => self.name_src(n, 0),
            Operand::SymOff(n, off) => self.name_src(n, *off),
            Operand::Imm(n) => Ok(Src::Imm(imm_bits(*n, ty))),
            _ => self.err("unexpected operand kind"),
        }
    }

    /// A predicate source with optional negation (`!%p`).
    fn psrc(&self, o: &Operand) -> Result<(Src, bool), EmuError> {
        match o {
            Operand::Not(n) => Ok((Src::Reg(self.reg(n)?), true)),
            _ => Ok((self.src(o, Ty::Pred)?, false)),
        }
    }

    fn addr(&self, o: &Operand, space: Option<Space>) -> Result<(MemSpace, Addr), EmuError> {
        let Operand::Addr { base, off } = o else {
            return self.err("expected an address operand `[...]`");
        };
        let off = *off;
        let reg_space = match space {
            None => MemSpace::Generic,
            Some(Space::Global | Space::Const) => MemSpace::Global,
            Some(Space::Shared) => MemSpace::Shared,
            Some(Space::Local) => MemSpace::Local,
            Some(Space::Param) => {
                if self.is_kernel {
                    MemSpace::KParam
                } else {
                    MemSpace::Local
                }
            }
        };
        let Some(base) = base else {
            return Ok((
                reg_space,
                Addr {
                    base: Base::Abs,
                    off,
                },
            ));
        };
        let abs = |o: u32| Addr {
            base: Base::Abs,
            off: o as i64 + off,
        };
        Ok(match self.lookup(base) {
            Some(Sym::Reg(r)) => (
                reg_space,
                Addr {
                    base: Base::Reg(r),
                    off,
                },
            ),
            Some(Sym::Global(g)) => {
                if !matches!(reg_space, MemSpace::Global | MemSpace::Generic) {
                    return self.err(format!(
                        "global variable `{base}` used in another state space"
                    ));
                }
                (
                    MemSpace::Global,
                    Addr {
                        base: Base::Global(g),
                        off,
                    },
                )
            }
            Some(Sym::Shared(o)) => (MemSpace::Shared, abs(o)),
            Some(Sym::StaticLocal(o)) => (MemSpace::Local, abs(o)),
            Some(Sym::Frame(o)) => (
                MemSpace::Local,
                Addr {
                    base: Base::Frame(o),
                    off,
                },
            ),
            Some(Sym::KParam(o)) => (MemSpace::KParam, abs(o)),
            Some(Sym::Func(_)) => return self.err(format!("`{base}` is a function")),
            None => return self.err(format!("undeclared name `{base}`")),
        })
    }

    fn slot(&self, o: &Operand) -> Result<Slot, EmuError> {
        match o {
            Operand::Name(n) => match self.lookup(n) {
                Some(Sym::Frame(o)) => Ok(Slot::Frame(o)),
                Some(Sym::Reg(r)) => Ok(Slot::Reg(r)),
                _ => self.err(format!(
                    "call argument `{n}` is not a parameter or register"
                )),
            },
            Operand::Imm(Num::Int(v)) => Ok(Slot::Imm(*v as u64)),
            _ => self.err("unsupported call argument"),
        }
    }

    fn ty1(&self, mods: &Mods) -> Result<Ty, EmuError> {
        match mods.types().last() {
            Some(t) => Ok(*t),
            None => self.err("instruction without a type"),
        }
    }

    fn ops<'o>(&self, i: &'o InstAst, n: usize) -> Result<&'o [Operand], EmuError> {
        if i.operands.len() < n {
            return self.err(format!(
                "`{}` needs {n} operands, got {}",
                i.opcode,
                i.operands.len()
            ));
        }
        Ok(&i.operands)
    }

    fn inst(&self, i: &InstAst) -> Result<Op, EmuError> {
        let mut parts = i.opcode.split('.');
        let mn = parts.next().unwrap_or("");
        let mods = Mods {
            list: parts.collect(),
        };
        let o = &i.operands;
        Ok(match mn {
            "mov" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 2)?;
                match (&o[0], &o[1]) {
                    (Operand::Vec(ds), a) => {
                        let part_bits = ty.bits() / ds.len() as u32;
                        let ds = ds
                            .iter()
                            .map(|d| self.dst_opt(d))
                            .collect::<Result<Vec<_>, _>>()?;
                        Op::Unpack {
                            ds: ds.into(),
                            a: self.src(a, ty)?,
                            part_bits,
                        }
                    }
                    (d, Operand::Vec(ps)) => {
                        let part_bits = ty.bits() / ps.len() as u32;
                        let pty = match part_bits {
                            8 => Ty::B8,
                            16 => Ty::B16,
                            _ => Ty::B32,
                        };
                        let parts = ps
                            .iter()
                            .map(|p| self.src(p, pty))
                            .collect::<Result<Vec<_>, _>>()?;
                        Op::Pack {
                            d: self.dst(d)?,
                            parts: parts.into(),
                            part_bits,
                        }
                    }
                    (d, a) => Op::Mov {
                        d: self.dst(d)?,
                        a: self.src(a, ty)?,
                        bits: ty.bits(),
                    },
                }
            }
            "ld" | "ldu" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 2)?;
                let (sp, addr) = self.addr(&o[1], mods.space())?;
                let n = mods.vec();
                let mut d = [0u32; 4];
                match &o[0] {
                    Operand::Vec(v) => {
                        if v.len() != n as usize {
                            return self.err("vector width does not match the destination list");
                        }
                        for (k, x) in v.iter().enumerate() {
                            d[k] = self.dst(x)?;
                        }
                    }
                    x if n == 1 => d[0] = self.dst(x)?,
                    _ => return self.err("vector load needs a `{...}` destination"),
                }
                Op::Ld { sp, ty, n, d, addr }
            }
            "st" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 2)?;
                let (sp, addr) = self.addr(&o[0], mods.space())?;
                let n = mods.vec();
                let mut s = [Src::Imm(0); 4];
                match &o[1] {
                    Operand::Vec(v) => {
                        if v.len() != n as usize {
                            return self.err("vector width does not match the source list");
                        }
                        for (k, x) in v.iter().enumerate() {
                            s[k] = self.src(x, ty)?;
                        }
                    }
                    x if n == 1 => s[0] = self.src(x, ty)?,
                    _ => return self.err("vector store needs a `{...}` source"),
                }
                Op::St {
                    sp,
                    ty,
                    n,
                    s: Box::new(s),
                    addr,
                }
            }
            "prefetch" | "prefetchu" | "nanosleep" | "pmevent" | "brkpt" | "discard"
            | "applypriority" => Op::Nop,
            "add" | "sub" | "addc" | "subc" if mods.has("cc") || mn.ends_with('c') => {
                let ty = self.ty1(&mods)?;
                if ty.float() || ty.bits() < 32 {
                    return self.err("carry arithmetic needs a 32- or 64-bit integer type");
                }
                let o = self.ops(i, 3)?;
                Op::AddC {
                    sub: mn.starts_with("sub"),
                    cin: mn.ends_with('c'),
                    cout: mods.has("cc"),
                    bits: ty.bits(),
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], ty)?,
                    b: self.src(&o[2], ty)?,
                }
            }
            "mad" | "madc" if mods.has("cc") || mn == "madc" => {
                let ty = self.ty1(&mods)?;
                if ty.float() || ty.bits() < 32 {
                    return self.err("carry arithmetic needs a 32- or 64-bit integer type");
                }
                let o = self.ops(i, 4)?;
                Op::MadC {
                    hi: mods.has("hi"),
                    cin: mn == "madc",
                    cout: mods.has("cc"),
                    bits: ty.bits(),
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], ty)?,
                    b: self.src(&o[2], ty)?,
                    c: self.src(&o[3], ty)?,
                }
            }
            "add" | "sub" | "min" | "max" | "div" | "rem" | "mul" | "mul24" | "and" | "or"
            | "xor" | "shl" | "shr" | "copysign" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 3)?;
                let d = self.dst(&o[0])?;
                let (a, b) = (
                    self.src(&o[1], ty)?,
                    self.src(
                        &o[2],
                        if matches!(mn, "shl" | "shr") {
                            Ty::U32
                        } else {
                            ty
                        },
                    )?,
                );
                if ty.float() {
                    if ty == Ty::F16 {
                        return self.err("half-precision arithmetic is not supported");
                    }
                    let op = match mn {
                        "add" => FOp::Add,
                        "sub" => FOp::Sub,
                        "mul" => FOp::Mul,
                        "div" if mods.has("approx") || mods.has("full") => FOp::DivApprox,
                        "div" => FOp::Div,
                        "min" => FOp::Min,
                        "max" => FOp::Max,
                        "copysign" => FOp::Copysign,
                        _ => return self.err(format!("`{}` on a float type", i.opcode)),
                    };
                    Op::FBin {
                        op,
                        f64: ty == Ty::F64,
                        ftz: mods.has("ftz"),
                        sat: mods.has("sat"),
                        rnd: mods.rnd(),
                        d,
                        a,
                        b,
                    }
                } else {
                    let sat = mods.has("sat");
                    let op = match mn {
                        "add" if sat => IOp::AddSat,
                        "sub" if sat => IOp::SubSat,
                        "add" => IOp::Add,
                        "sub" => IOp::Sub,
                        "mul" if mods.has("hi") => IOp::MulHi,
                        "mul" if mods.has("wide") => IOp::MulWide,
                        "mul" => IOp::MulLo,
                        "mul24" if mods.has("hi") => IOp::Mul24Hi,
                        "mul24" => IOp::Mul24Lo,
                        "div" => IOp::Div,
                        "rem" => IOp::Rem,
                        "min" => IOp::Min,
                        "max" => IOp::Max,
                        "and" => IOp::And,
                        "or" => IOp::Or,
                        "xor" => IOp::Xor,
                        "shl" => IOp::Shl,
                        "shr" => IOp::Shr,
                        _ => return self.err(format!("`{}` on an integer type", i.opcode)),
                    };
                    Op::IBin {
                        op,
                        bits: ty.bits(),
                        signed: ty.signed(),
                        d,
                        a,
                        b,
                    }
                }
            }
            "mad" | "mad24" | "fma" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 4)?;
                let d = self.dst(&o[0])?;
                let (a, b) = (self.src(&o[1], ty)?, self.src(&o[2], ty)?);
                if ty.float() {
                    if ty == Ty::F16 {
                        return self.err("half-precision arithmetic is not supported");
                    }
                    let c = self.src(&o[3], ty)?;
                    Op::Fma {
                        f64: ty == Ty::F64,
                        ftz: mods.has("ftz"),
                        sat: mods.has("sat"),
                        rnd: mods.rnd(),
                        d,
                        a,
                        b,
                        c,
                    }
                } else {
                    let mode = if mods.has("hi") {
                        MadMode::Hi
                    } else if mods.has("wide") {
                        MadMode::Wide
                    } else {
                        MadMode::Lo
                    };
                    let cty = if mode == MadMode::Wide {
                        if ty.signed() { Ty::S64 } else { Ty::U64 }
                    } else {
                        ty
                    };
                    let c = self.src(&o[3], cty)?;
                    if mn == "mad24" {
                        return self.err("mad24 is not supported");
                    }
                    Op::Mad {
                        mode,
                        bits: ty.bits(),
                        signed: ty.signed(),
                        sat: mods.has("sat"),
                        d,
                        a,
                        b,
                        c,
                    }
                }
            }
            "abs" | "neg" | "not" | "cnot" | "popc" | "clz" | "brev" | "bfind" | "sqrt" | "rcp"
            | "rsqrt" | "sin" | "cos" | "ex2" | "lg2" | "tanh" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 2)?;
                let d = self.dst(&o[0])?;
                let a = self.src(&o[1], ty)?;
                if ty.float() {
                    if ty == Ty::F16 {
                        return self.err("half-precision arithmetic is not supported");
                    }
                    let op = match mn {
                        "abs" => FUnOp::Abs,
                        "neg" => FUnOp::Neg,
                        "sqrt" => FUnOp::Sqrt,
                        "rcp" => FUnOp::Rcp,
                        "rsqrt" => FUnOp::Rsqrt,
                        "sin" => FUnOp::Sin,
                        "cos" => FUnOp::Cos,
                        "ex2" => FUnOp::Ex2,
                        "lg2" => FUnOp::Lg2,
                        "tanh" => FUnOp::Tanh,
                        _ => return self.err(format!("`{}` on a float type", i.opcode)),
                    };
                    Op::FUn {
                        op,
                        f64: ty == Ty::F64,
                        ftz: mods.has("ftz"),
                        sat: mods.has("sat"),
                        d,
                        a,
                    }
                } else {
                    let op = match mn {
                        "abs" => IUnOp::Abs,
                        "neg" => IUnOp::Neg,
                        "not" => IUnOp::Not,
                        "cnot" => IUnOp::Cnot,
                        "popc" => IUnOp::Popc,
                        "clz" => IUnOp::Clz,
                        "brev" => IUnOp::Brev,
                        "bfind" if mods.has("shiftamt") => IUnOp::BfindShift,
                        "bfind" => IUnOp::Bfind,
                        _ => return self.err(format!("`{}` on an integer type", i.opcode)),
                    };
                    Op::IUn {
                        op,
                        bits: ty.bits(),
                        signed: ty.signed(),
                        d,
                        a,
                    }
                }
            }
            "setp" | "set" => {
                let cmp = mods.list.first().and_then(|m| Cmp::parse(m));
                let Some(cmp) = cmp else {
                    return self.err("setp/set without a comparison");
                };
                let tys = mods.types();
                let ty = *tys
                    .last()
                    .ok_or_else(|| EmuError::decode(i.line, "setp without a type"))?;
                let n = if mods.boolop().is_some() { 4 } else { 3 };
                let o = self.ops(i, n)?;
                let a = self.src(&o[1], ty)?;
                let b = self.src(&o[2], ty)?;
                let comb = match mods.boolop() {
                    Some(bop) => {
                        let (p, neg) = self.psrc(&o[3])?;
                        Some((bop, p, neg))
                    }
                    None => None,
                };
                if mn == "set" {
                    let dty = tys[0];
                    return Ok(Op::Set {
                        cmp,
                        ty,
                        dty,
                        d: self.dst(&o[0])?,
                        a,
                        b,
                        comb,
                    });
                }
                let (d, d2) = match &o[0] {
                    Operand::Pair(x, y) => (self.reg(x)?, Some(self.reg(y)?)),
                    x => (self.dst(x)?, None),
                };
                Op::Setp {
                    cmp,
                    ty,
                    d,
                    d2,
                    a,
                    b,
                    comb,
                }
            }
            "selp" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 4)?;
                Op::Selp {
                    bits: ty.bits(),
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], ty)?,
                    b: self.src(&o[2], ty)?,
                    p: self.src(&o[3], Ty::Pred)?,
                }
            }
            "slct" => {
                let tys = mods.types();
                if tys.len() != 2 {
                    return self.err("slct needs two types");
                }
                let o = self.ops(i, 4)?;
                Op::Slct {
                    bits: tys[0].bits(),
                    cf32: tys[1] == Ty::F32,
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], tys[0])?,
                    b: self.src(&o[2], tys[0])?,
                    c: self.src(&o[3], tys[1])?,
                }
            }
            "cvt" => {
                let tys = mods.types();
                if tys.len() != 2 {
                    return self.err("cvt needs a destination and a source type");
                }

                let o = self.ops(i, 2)?;
                Op::Cvt {
                    dt: tys[0],
                    st: tys[1],
                    rnd: mods.rnd(),
                    sat: mods.has("sat"),
                    ftz: mods.has("ftz"),
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], tys[1])?,
                }
            }
            "cvta" => {
                let to = mods.has("to");
                let sp = match mods.space() {
                    Some(Space::Global | Space::Const) => MemSpace::Global,
                    Some(Space::Shared) => MemSpace::Shared,
                    Some(Space::Local) => MemSpace::Local,
                    Some(Space::Param) => MemSpace::KParam,
                    None => return self.err("cvta without a state space"),
                };
                let o = self.ops(i, 2)?;
                Op::Cvta {
                    to,
                    sp,
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], Ty::U64)?,
                }
            }
            "bfe" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 4)?;
                Op::Bfe {
                    bits: ty.bits(),
                    signed: ty.signed(),
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], ty)?,
                    b: self.src(&o[2], Ty::U32)?,
                    c: self.src(&o[3], Ty::U32)?,
                }
            }
            "bfi" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 5)?;
                Op::Bfi {
                    bits: ty.bits(),
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], ty)?,
                    b: self.src(&o[2], ty)?,
                    c: self.src(&o[3], Ty::U32)?,
                    e: self.src(&o[4], Ty::U32)?,
                }
            }
            "prmt" => {
                if mods.list.len() > 1 {
                    return self.err("prmt modes (f4e, b4e, ...) are not supported");
                }
                let o = self.ops(i, 4)?;
                Op::Prmt {
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], Ty::B32)?,
                    b: self.src(&o[2], Ty::B32)?,
                    c: self.src(&o[3], Ty::B32)?,
                }
            }
            "bra" => {
                let o = self.ops(i, 1)?;
                let Operand::Name(l) = &o[0] else {
                    return self.err("bra needs a label");
                };
                match self.labels.get(l.as_str()) {
                    Some(t) => Op::Bra { target: *t },
                    None => return self.err(format!("unknown label `{l}`")),
                }
            }
            "brx" => {
                let o = self.ops(i, 2)?;
                let Operand::Name(t) = &o[1] else {
                    return self.err("brx.idx needs a `.branchtargets` label");
                };
                let Some(names) = self.tables.get(t.as_str()) else {
                    return self.err(format!("`{t}` is not a `.branchtargets` list"));
                };
                let targets = names
                    .iter()
                    .map(|n| {
                        self.labels
                            .get(n.as_str())
                            .copied()
                            .ok_or_else(|| EmuError::decode(i.line, format!("unknown label `{n}`")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Op::Brx {
                    index: self.src(&o[0], Ty::U32)?,
                    targets: targets.into(),
                }
            }
            "call" => self.call(i)?,
            "ret" => Op::Ret,
            "exit" => Op::Exit,
            "trap" => Op::Trap,
            "bar" | "barrier" => {
                // `bar.sync`, `bar.arrive` and `bar.red` are the `.aligned` forms of `barrier`.
                let aligned = mn == "bar" || mods.has("aligned");
                if mods.has("warp") {
                    let mask = match o.first() {
                        Some(x) => Some(self.src(x, Ty::B32)?),
                        None => None,
                    };
                    Op::WarpSync { mask }
                } else if mods.has("red") {
                    // bar.red.popc.u32 d, a{, b}, {!}c  /  bar.red.and|or.pred p, a{, b}, {!}c
                    let kind = if mods.has("popc") {
                        BarRed::Popc
                    } else if mods.has("and") {
                        BarRed::And
                    } else if mods.has("or") {
                        BarRed::Or
                    } else {
                        return self.err("bar.red needs popc, and or or");
                    };
                    let o = self.ops(i, 3)?;
                    let (c, neg) = self.psrc(&o[o.len() - 1])?;
                    let count = if o.len() >= 4 {
                        Some(self.src(&o[2], Ty::U32)?)
                    } else {
                        None
                    };
                    Op::Bar {
                        id: self.src(&o[1], Ty::U32)?,
                        count,
                        arrive: false,
                        aligned,
                        red: Some((kind, self.dst(&o[0])?, c, neg)),
                    }
                } else {
                    let arrive = mods.has("arrive");
                    let id = match o.first() {
                        Some(x) => self.src(x, Ty::U32)?,
                        None => Src::Imm(0),
                    };
                    let count = match o.get(1) {
                        Some(x) => Some(self.src(x, Ty::U32)?),
                        None => None,
                    };
                    Op::Bar {
                        id,
                        count,
                        arrive,
                        aligned,
                        red: None,
                    }
                }
            }
            "membar" | "fence" => Op::Fence,
            "atom" | "red" => {
                let ty = self.ty1(&mods)?;
                let op = mods
                    .list
                    .iter()
                    .find_map(|m| {
                        Some(match *m {
                            "add" => AtomOp::Add,
                            "min" => AtomOp::Min,
                            "max" => AtomOp::Max,
                            "inc" => AtomOp::Inc,
                            "dec" => AtomOp::Dec,
                            "and" => AtomOp::And,
                            "or" => AtomOp::Or,
                            "xor" => AtomOp::Xor,
                            "exch" => AtomOp::Exch,
                            "cas" => AtomOp::Cas,
                            _ => return None,
                        })
                    })
                    .ok_or_else(|| EmuError::decode(i.line, "atom without an operation"))?;
                if ty.bits() < 32 || ty == Ty::F16 {
                    return self.err("atomics narrower than 32 bits are not supported");
                }
                let (d, rest) = if mn == "atom" {
                    let o = self.ops(i, 3)?;
                    (Some(self.dst(&o[0])?), &o[1..])
                } else {
                    (None, self.ops(i, 2)?)
                };
                let (sp, addr) = self.addr(&rest[0], mods.space())?;
                let b = self.src(&rest[1], ty)?;
                let c = match rest.get(2) {
                    Some(x) => self.src(x, ty)?,
                    None if op == AtomOp::Cas => {
                        return self.err("atom.cas needs a compare and a new value");
                    }
                    None => Src::Imm(0),
                };
                Op::Atom {
                    sp,
                    op,
                    ty,
                    d,
                    addr,
                    b,
                    c,
                }
            }
            "shfl" => {
                let mode = mods
                    .list
                    .iter()
                    .find_map(|m| match *m {
                        "up" => Some(ShflMode::Up),
                        "down" => Some(ShflMode::Down),
                        "bfly" => Some(ShflMode::Bfly),
                        "idx" => Some(ShflMode::Idx),
                        _ => None,
                    })
                    .ok_or_else(|| EmuError::decode(i.line, "shfl without a mode"))?;
                let o = self.ops(i, 4)?;
                let (d, p) = match &o[0] {
                    Operand::Pair(x, y) => (self.reg(x)?, Some(self.reg(y)?)),
                    x => (self.dst(x)?, None),
                };
                Op::Shfl {
                    mode,
                    d,
                    p,
                    a: self.src(&o[1], Ty::B32)?,
                    b: self.src(&o[2], Ty::U32)?,
                    c: self.src(&o[3], Ty::U32)?,
                    mask: self.sync_mask(&mods, o, 4)?,
                }
            }
            "vote" => {
                let mode = mods
                    .list
                    .iter()
                    .find_map(|m| match *m {
                        "all" => Some(VoteMode::All),
                        "any" => Some(VoteMode::Any),
                        "uni" => Some(VoteMode::Uni),
                        "ballot" => Some(VoteMode::Ballot),
                        _ => None,
                    })
                    .ok_or_else(|| EmuError::decode(i.line, "vote without a mode"))?;
                let o = self.ops(i, 2)?;
                let (a, neg) = self.psrc(&o[1])?;
                Op::Vote {
                    mode,
                    d: self.dst(&o[0])?,
                    a,
                    neg,
                    mask: self.sync_mask(&mods, o, 2)?,
                }
            }
            "testp" => {
                let ty = self.ty1(&mods)?;
                let kind =
                    match mods.list.first().copied() {
                        Some("finite") => TestKind::Finite,
                        Some("infinite") => TestKind::Infinite,
                        Some("number") => TestKind::Number,
                        Some("notanumber") => TestKind::NotANumber,
                        Some("normal") => TestKind::Normal,
                        Some("subnormal") => TestKind::Subnormal,
                        _ => return self.err(
                            "testp needs finite, infinite, number, notanumber, normal or subnormal",
                        ),
                    };
                let o = self.ops(i, 2)?;
                Op::Testp {
                    kind,
                    f64: ty == Ty::F64,
                    d: self.dst(&o[0])?,
                    a: self.src(&o[1], ty)?,
                }
            }
            "alloca" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 2)?;
                // the default and minimum alignment is 8 (PTX ISA 7.3, `alloca`)
                let align = match o.get(2) {
                    None => 8,
                    Some(Operand::Imm(Num::Int(a)))
                        if *a > 0 && (*a as u64).is_power_of_two() && *a <= 1 << 23 =>
                    {
                        (*a as u32).max(8)
                    }
                    Some(_) => {
                        return self
                            .err("alloca alignment must be a power of two constant up to 2^23");
                    }
                };
                Op::Alloca {
                    d: self.dst(&o[0])?,
                    size: self.src(&o[1], ty)?,
                    align,
                }
            }
            "stacksave" => {
                let o = self.ops(i, 1)?;
                Op::StackSave {
                    d: self.dst(&o[0])?,
                }
            }
            "stackrestore" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 1)?;
                Op::StackRestore {
                    a: self.src(&o[0], ty)?,
                }
            }
            "activemask" => {
                let o = self.ops(i, 1)?;
                Op::Activemask {
                    d: self.dst(&o[0])?,
                }
            }
            "match" => {
                let ty = self.ty1(&mods)?;
                let o = self.ops(i, 2)?;
                let (d, p) = match &o[0] {
                    Operand::Pair(x, y) => (self.reg(x)?, Some(self.reg(y)?)),
                    x => (self.dst(x)?, None),
                };
                Op::Match {
                    all: mods.has("all"),
                    bits: ty.bits(),
                    d,
                    p,
                    a: self.src(&o[1], ty)?,
                    mask: self.sync_mask(&mods, o, 2)?,
                }
            }
            _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
        })
    }

    /// The member mask operand of a `.sync` warp instruction (`None` without `.sync`).
    fn sync_mask(&self, mods: &Mods, o: &[Operand], at: usize) -> Result<Option<Src>, EmuError> {
        if !mods.has("sync") {
            return Ok(None);
        }
        match o.get(at) {
            Some(x) => Ok(Some(self.src(x, Ty::B32)?)),
            None => self.err("`.sync` warp instruction without a member mask"),
        }
    }

    /// call = "call" ("(" rets ")" ",")? name ("," "(" args ")")? ("," proto)?
    fn call(&self, i: &InstAst) -> Result<Op, EmuError> {
        let o = &i.operands;
        let mut k = 0;
        let rets: &[Operand] = match o.first() {
            Some(Operand::List(r)) => {
                k = 1;
                r
            }
            _ => &[],
        };
        let Some(Operand::Name(callee)) = o.get(k) else {
            return self.err("call needs a function name");
        };
        let args: &[Operand] = match o.get(k + 1) {
            Some(Operand::List(a)) => a,
            None => &[],
            Some(_) => return self.err("malformed call arguments"),
        };
        let fi = match self.lookup(callee) {
            Some(Sym::Func(f)) => f,
            Some(Sym::Reg(r)) => {
                // through a function pointer: the callee's signature is known only at run time
                let args = args
                    .iter()
                    .map(|a| Ok((self.slot(a)?, 0, 0)))
                    .collect::<Result<Vec<_>, EmuError>>()?;
                let rets = rets
                    .iter()
                    .map(|r| Ok((0, self.slot(r)?, 0)))
                    .collect::<Result<Vec<_>, EmuError>>()?;
                return Ok(Op::Call(Box::new(CallInfo {
                    callee: 0,
                    target: Some(Src::Reg(r)),
                    args,
                    rets,
                })));
            }
            _ => return self.err(format!("unknown function `{callee}`")),
        };
        let f = &self.m.funcs[fi as usize];
        if self.m.is_vprintf[fi as usize] {
            if args.len() != 2 {
                return self.err("vprintf takes two arguments");
            }
            let ret = match rets.first() {
                Some(r) => Some(self.slot(r)?),
                None => None,
            };
            return Ok(Op::Vprintf {
                fmt: self.slot(&args[0])?,
                args: self.slot(&args[1])?,
                ret,
            });
        }
        if self.m.is_assertfail[fi as usize] {
            // (message, file, line, function, char size)
            if args.len() != 5 || !rets.is_empty() {
                return self.err("__assertfail takes five arguments and returns nothing");
            }
            return Ok(Op::AssertFail {
                message: self.slot(&args[0])?,
                file: self.slot(&args[1])?,
                line: self.slot(&args[2])?,
                function: self.slot(&args[3])?,
            });
        }
        if f.is_kernel {
            return self.err(format!("call of kernel `{callee}` from device code"));
        }
        // The CUDA driver's device heap.
        if !self.m.has_body[fi as usize] && matches!(f.name.as_str(), "malloc" | "free") {
            let is_malloc = f.name == "malloc";
            if args.len() != 1 || rets.len() != usize::from(is_malloc) {
                return self.err(format!(
                    "wrong number of arguments or results for `{callee}`"
                ));
            }
            let arg = self.slot(&args[0])?;
            return Ok(if is_malloc {
                Op::Malloc {
                    size: arg,
                    ret: Some(self.slot(&rets[0])?),
                }
            } else {
                Op::Free { ptr: arg }
            });
        }
        if !self.m.has_body[fi as usize] {
            return self.err(format!(
                "call of external function `{callee}`, which the emulator does not provide"
            ));
        }
        if args.len() != f.params.len() || rets.len() != f.rets.len() {
            return self.err(format!(
                "call of `{callee}` with the wrong number of arguments or results"
            ));
        }
        let args = args
            .iter()
            .zip(&f.params)
            .map(|(a, p)| Ok((self.slot(a)?, p.offset, p.size)))
            .collect::<Result<Vec<_>, EmuError>>()?;
        let rets = rets
            .iter()
            .zip(&f.rets)
            .map(|(r, p)| Ok((p.offset, self.slot(r)?, p.size)))
            .collect::<Result<Vec<_>, EmuError>>()?;
        Ok(Op::Call(Box::new(CallInfo {
            callee: fi,
            target: None,
            args,
            rets,
        })))
    }
}
