//! Instruction decoding: an opcode's modifiers, its operands (registers, immediates,
//! addresses, call slots) resolved against the function's names, and the typed `Op` it
//! becomes.

use super::*;

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

    pub(super) fn declare_reg(&mut self, name: String) {
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

    pub(super) fn reg(&self, name: &str) -> Result<u32, EmuError> {
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

    pub(super) fn inst(&self, i: &InstAst) -> Result<Op, EmuError> {
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
