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

mod inst;

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
