//! Non-terminator instructions, by family: constants, integer and float arithmetic,
//! compares and select, conversions, memory, GPU operations (special registers, barriers,
//! fences, atomics, shuffles, votes).
//!
//! Expects legalized IR (`legalize`): no `i1` in memory, `select` or compares of `i1`; no
//! `i8` operation that reads the unspecified upper byte of its register. Float arithmetic is
//! written with explicit `.rn` so ptxas does not contract `mul`+`add` into `fma` behind the
//! IR's back; division and square root are the IEEE-exact forms.

use crate::PtxError;
use crate::regs::{Reg, RegClass, bits, cvt_int, float, int, mem, reg_bits};
use crate::writer::FuncEmitter;
use ompcc_ir::{
    AddrSpace, AtomicRmwOp, FloatCC, Inst, InstData, IntCC, MemFlags, Opcode, Scope, ShuffleMode,
    SpecialReg, Type, Value, ValueDef, VoteMode,
};

fn space(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Generic => "",
        AddrSpace::Global => ".global",
        AddrSpace::Shared => ".shared",
        AddrSpace::Local => ".local",
        AddrSpace::Const => ".const",
        AddrSpace::Param => ".param",
    }
}

fn int_cc(cc: IntCC) -> (&'static str, Option<bool>) {
    match cc {
        IntCC::Eq => ("eq", None),
        IntCC::Ne => ("ne", None),
        IntCC::Slt => ("lt", Some(true)),
        IntCC::Sle => ("le", Some(true)),
        IntCC::Sgt => ("gt", Some(true)),
        IntCC::Sge => ("ge", Some(true)),
        IntCC::Ult => ("lo", Some(false)),
        IntCC::Ule => ("ls", Some(false)),
        IntCC::Ugt => ("hi", Some(false)),
        IntCC::Uge => ("hs", Some(false)),
    }
}

fn float_cc(cc: FloatCC) -> &'static str {
    match cc {
        FloatCC::Oeq => "eq",
        FloatCC::One => "ne",
        FloatCC::Olt => "lt",
        FloatCC::Ole => "le",
        FloatCC::Ogt => "gt",
        FloatCC::Oge => "ge",
        FloatCC::Ord => "num",
        FloatCC::Ueq => "equ",
        FloatCC::Une => "neu",
        FloatCC::Ult => "ltu",
        FloatCC::Ule => "leu",
        FloatCC::Ugt => "gtu",
        FloatCC::Uge => "geu",
        FloatCC::Uno => "nan",
    }
}

/// The bits of an integer type as a mask.
fn mask(t: Type) -> u64 {
    match t.bits() {
        64 => u64::MAX,
        b => (1u64 << b) - 1,
    }
}

fn scope(s: Scope) -> &'static str {
    match s {
        Scope::Cta => "cta",
        Scope::Gpu => "gpu",
        Scope::Sys => "sys",
    }
}

fn sreg(r: SpecialReg) -> &'static str {
    use SpecialReg as S;
    match r {
        S::TidX => "%tid.x",
        S::TidY => "%tid.y",
        S::TidZ => "%tid.z",
        S::NtidX => "%ntid.x",
        S::NtidY => "%ntid.y",
        S::NtidZ => "%ntid.z",
        S::CtaidX => "%ctaid.x",
        S::CtaidY => "%ctaid.y",
        S::CtaidZ => "%ctaid.z",
        S::NctaidX => "%nctaid.x",
        S::NctaidY => "%nctaid.y",
        S::NctaidZ => "%nctaid.z",
        S::Laneid => "%laneid",
        S::Warpid => "%warpid",
        S::Nwarpid => "%nwarpid",
        S::Smid => "%smid",
        S::Nsmid => "%nsmid",
        S::Warpsize => "WARP_SZ",
        S::Clock => "%clock",
        S::Clock64 => "%clock64",
    }
}

impl FuncEmitter<'_> {
    /// The address operand for an access in space `s` through `addr`: `[reg]`, or
    /// `[base+imm]` when `addr` is a `ptr_offset` by a constant, with `base` a symbol
    /// (`stack_addr`, `global_addr`) when the access is in that symbol's own space.
    fn addr(&mut self, addr: Value, s: AddrSpace) -> String {
        let dfg = &self.func.dfg;
        let konst = |v: Value| match dfg.value_def(v) {
            ValueDef::Result(i, 0) => match dfg.inst(i) {
                InstData::UnaryImm { imm, .. } => i32::try_from(*imm).ok(),
                _ => None,
            },
            _ => None,
        };
        let (base, off) = match dfg.value_def(addr) {
            ValueDef::Result(i, 0) => match dfg.inst(i) {
                InstData::Binary {
                    opcode: Opcode::PtrOffset,
                    args: [b, o],
                    ..
                } => match konst(*o) {
                    Some(k) => (*b, k),
                    None => (addr, 0),
                },
                _ => (addr, 0),
            },
            _ => (addr, 0),
        };
        let sym = match dfg.value_def(base) {
            ValueDef::Result(i, 0) if s != AddrSpace::Generic => match dfg.inst(i) {
                InstData::StackAddr { slot } if s == AddrSpace::Local => {
                    Some(format!("__stack_{}", slot.as_u32()))
                }
                InstData::GlobalAddr { global } if Some(s) == self.ty(base).addr_space() => {
                    Some(dfg.globals[*global].name.clone())
                }
                _ => None,
            },
            _ => None,
        };
        let b = match sym {
            Some(name) => name,
            None => self.v(base).to_string(),
        };
        if off == 0 {
            format!("[{b}]")
        } else {
            format!("[{b}+{off}]")
        }
    }

    /// Emits one non-terminator instruction.
    pub(crate) fn inst(&mut self, inst: Inst) -> Result<(), PtxError> {
        let f = self.func;
        let data = f.dfg.inst(inst).clone();
        let res = f.dfg.first_result(inst);
        let d = res.map(|v| self.v(v));
        let dt = res.map(|v| self.ty(v));
        // Instructions without results: memory writes, calls, synchronization.
        let (Some(d), Some(dt)) = (d, dt) else {
            return self.effect(inst, &data);
        };
        match data {
            InstData::UnaryImm { imm, .. } => self.iconst(d, dt, imm),
            InstData::UnaryIeee { bits, .. } => {
                if dt == Type::F32 {
                    let b = (f64::from_bits(bits) as f32).to_bits();
                    self.e(format_args!("mov.f32 {d}, 0f{b:08X}"));
                } else {
                    self.e(format_args!("mov.f64 {d}, 0d{bits:016X}"));
                }
            }
            InstData::Binary {
                opcode,
                args: [a, b],
                ..
            } => {
                // Before `a` and `b` are referenced: a widening only this reads is dropped.
                if matches!(opcode, Opcode::Imul | Opcode::Shl)
                    && self.wide_mul(opcode, d, dt, a, b)
                {
                    return Ok(());
                }
                let ra = self.v(a);
                if !dt.is_float() && matches!(opcode, Opcode::Shl | Opcode::Lshr | Opcode::Ashr) {
                    // A constant amount is an immediate: its register stays unreferenced.
                    self.shift(opcode, d, dt, ra, b);
                    return Ok(());
                }
                let rb = self.v(b);
                if dt.is_float() {
                    self.float_binary(opcode, d, dt, ra, rb);
                } else if opcode == Opcode::PtrOffset {
                    let off = if self.ty(b) == Type::I32 {
                        let t = self.tmp(RegClass::B64);
                        self.e(format_args!("cvt.s64.s32 {t}, {rb}"));
                        t
                    } else {
                        rb
                    };
                    self.e(format_args!("add.s64 {d}, {ra}, {off}"));
                } else {
                    self.int_binary(opcode, d, dt, ra, rb)?;
                }
            }
            InstData::Unary {
                opcode: Opcode::StackAlloc,
                arg,
            } => {
                // PTX's minimum guaranteed alignment is 8; the IR promises 16.
                let n = self.v(arg);
                self.e(format_args!("alloca.u64 {d}, {n}, 16"));
            }
            InstData::Unary { opcode, arg } => {
                let a = self.v(arg);
                let at = self.ty(arg);
                self.unary(opcode, d, dt, a, at)?;
            }
            InstData::Ternary { opcode, args } => {
                let [a, b, c] = args.map(|v| self.v(v));
                if opcode == Opcode::Select {
                    let t = select_type(dt);
                    self.e(format_args!("selp.{t} {d}, {b}, {c}, {a}"));
                } else {
                    self.e(format_args!("fma.rn.{} {d}, {a}, {b}, {c}", float(dt)));
                }
            }
            InstData::IntCompare { cond, args: [a, b] } => {
                let t = self.ty(a);
                let (ra, rb) = (self.v(a), self.v(b));
                let (cc, signed) = int_cc(cond);
                let ty = match signed {
                    None => format!("b{}", reg_bits(t)),
                    Some(s) => int(t, s),
                };
                self.e(format_args!("setp.{cc}.{ty} {d}, {ra}, {rb}"));
            }
            InstData::FloatCompare { cond, args: [a, b] } => {
                let t = self.ty(a);
                let (ra, rb) = (self.v(a), self.v(b));
                self.e(format_args!(
                    "setp.{}.{} {d}, {ra}, {rb}",
                    float_cc(cond),
                    float(t)
                ));
            }
            InstData::Special { reg } => {
                let t = if reg == SpecialReg::Clock64 {
                    "u64"
                } else {
                    "u32"
                };
                self.e(format_args!("mov.{t} {d}, {}", sreg(reg)));
            }
            InstData::Load {
                space: s,
                flags,
                arg,
            } => {
                let a = self.addr(arg, s);
                self.load(d, dt, s, flags, &a)?;
            }
            InstData::StackAddr { slot } => {
                self.e(format_args!("mov.u64 {d}, __stack_{}", slot.as_u32()));
            }
            InstData::GlobalAddr { global } => {
                let name = &f.dfg.globals[global].name;
                self.e(format_args!("mov.u64 {d}, {name}"));
            }
            InstData::Call { .. } | InstData::CallIndirect { .. } => self.call(inst)?,
            InstData::FuncAddr { func } => {
                let name = f.dfg.ext_funcs[func].name.clone();
                if !self.is_defined(&name) {
                    return Err(self.unsupported(format!(
                        "the address of `{name}`, which the module does not define"
                    )));
                }
                self.e(format_args!("mov.u64 {d}, {name}"));
            }
            InstData::Nullary {
                opcode: Opcode::StackSave,
            } => self.e(format_args!("stacksave.u64 {d}")),
            InstData::AtomicRmw {
                op,
                space: s,
                scope: sc,
                args: [addr, val],
            } => {
                let (a, v) = (self.addr(addr, s), self.v(val));
                self.atomic_rmw(d, dt, op, s, sc, &a, v);
            }
            InstData::AtomicCas {
                space: s,
                scope: sc,
                args,
            } => {
                let a = self.addr(args[0], s);
                let [b, c] = [args[1], args[2]].map(|v| self.v(v));
                self.e(format_args!(
                    "atom{}{}.cas.b{} {d}, {a}, {b}, {c}",
                    atom_scope(sc),
                    space(s),
                    dt.bits()
                ));
            }
            InstData::Shuffle { mode, args } => {
                let [v, lane, mask] = args.map(|v| self.v(v));
                self.shuffle(d, dt, mode, v, lane, mask);
            }
            InstData::Vote { mode, args } => {
                let [p, mask] = args.map(|v| self.v(v));
                match mode {
                    VoteMode::All => self.e(format_args!("vote.sync.all.pred {d}, {p}, {mask}")),
                    VoteMode::Any => self.e(format_args!("vote.sync.any.pred {d}, {p}, {mask}")),
                    VoteMode::Ballot => {
                        self.e(format_args!("vote.sync.ballot.b32 {d}, {p}, {mask}"))
                    }
                }
            }
            InstData::Nullary {
                opcode: Opcode::Activemask,
            } => self.e(format_args!("activemask.b32 {d}")),
            _ => {
                return Err(
                    self.unsupported(format!("cannot emit `{}` with a result", data.opcode()))
                );
            }
        }
        Ok(())
    }

    /// Instructions without results.
    fn effect(&mut self, inst: Inst, data: &InstData) -> Result<(), PtxError> {
        match *data {
            InstData::Store {
                space: s,
                flags,
                args: [val, addr],
            } => {
                let t = self.ty(val);
                let (v, a) = (self.v(val), self.addr(addr, s));
                self.check_align(t, flags)?;
                let vol = if volatile(flags, s) { ".volatile" } else { "" };
                self.e(format_args!("st{vol}{}.{} {a}, {v}", space(s), mem(t)));
            }
            InstData::Call { .. } | InstData::CallIndirect { .. } => self.call(inst)?,
            InstData::Unary {
                opcode: Opcode::StackRestore,
                arg,
            } => {
                let r = self.v(arg);
                self.e(format_args!("stackrestore.u64 {r}"));
            }
            // Not `bar.sync` (= `barrier.sync.aligned`): in generic-mode kernels the main
            // thread and the workers of its warp wait at different barrier instructions, which
            // the aligned form does not allow (real GPUs hang; the emulator reports it).
            InstData::Nullary {
                opcode: Opcode::Barrier,
            } => self.e("barrier.sync 0"),
            InstData::Unary {
                opcode: Opcode::WarpSync,
                arg,
            } => {
                let m = self.v(arg);
                self.e(format_args!("bar.warp.sync {m}"));
            }
            InstData::Fence { scope: s } => self.e(format_args!("fence.sc.{}", scope(s))),
            // Ops whose only result is unused still have one; anything else here is a bug.
            _ => {
                return Err(
                    self.unsupported(format!("cannot emit `{}` without a result", data.opcode()))
                );
            }
        }
        Ok(())
    }

    fn check_align(&self, t: Type, flags: MemFlags) -> Result<(), PtxError> {
        if flags.align < t.bytes() {
            return Err(self.unsupported(format!(
                "{}-byte access of {t} needs natural alignment in PTX",
                flags.align
            )));
        }
        Ok(())
    }

    fn iconst(&mut self, d: Reg, t: Type, imm: i64) {
        match t {
            Type::I1 => self.e(format_args!("mov.pred {d}, {}", imm & 1)),
            Type::I8 => self.e(format_args!("mov.u16 {d}, {}", imm as u8)),
            Type::I16 => self.e(format_args!("mov.u16 {d}, {}", imm as u16)),
            Type::I32 => self.e(format_args!("mov.u32 {d}, {}", imm as u32)),
            _ => self.e(format_args!("mov.u64 {d}, {}", imm as u64)),
        }
    }

    fn float_binary(&mut self, op: Opcode, d: Reg, t: Type, a: Reg, b: Reg) {
        let ft = float(t);
        let name = match op {
            Opcode::Fadd => "add.rn",
            Opcode::Fsub => "sub.rn",
            Opcode::Fmul => "mul.rn",
            Opcode::Fdiv => "div.rn",
            Opcode::Fmin => "min",
            Opcode::Fmax => "max",
            // copysign.f d, a, b takes the sign of a and the magnitude of b.
            Opcode::Fcopysign => {
                self.e(format_args!("copysign.{ft} {d}, {b}, {a}"));
                return;
            }
            _ => {
                self.frem(d, t, a, b);
                return;
            }
        };
        self.e(format_args!("{name}.{ft} {d}, {a}, {b}"));
    }

    /// Exact `fmod` (PTX has no `rem.f`). Fast path: `a - trunc(a / b) * b` with one rounding
    /// in the fma, corrected by one `b` when the rounded quotient crossed an integer (the
    /// remainder's sign then differs from `a`'s), which is exact while the quotient fits the
    /// mantissa; `a` itself when `b` is infinite; NaN for infinite `a` or zero `b`. Larger
    /// quotients take `frem_long`.
    fn frem(&mut self, d: Reg, t: Type, a: Reg, b: Reg) {
        let ft = float(t);
        let w = t.bits();
        let class = RegClass::of(t);
        let int_class = if w == 32 {
            RegClass::B32
        } else {
            RegClass::B64
        };
        let [q, n, r, m, fixed, exact] = [0; 6].map(|_| self.tmp(class));
        let [ri, ai, x] = [0; 3].map(|_| self.tmp(int_class));
        let [wrong, nonzero, inf] = [0; 3].map(|_| self.tmp(RegClass::Pred));
        self.e(format_args!("div.rn.{ft} {q}, {a}, {b}"));
        self.e(format_args!("cvt.rzi.{ft}.{ft} {q}, {q}"));
        self.e(format_args!("neg.{ft} {n}, {q}"));
        self.e(format_args!("fma.rn.{ft} {r}, {n}, {b}, {a}"));
        self.e(format_args!("mov.b{w} {ri}, {r}"));
        self.e(format_args!("mov.b{w} {ai}, {a}"));
        self.e(format_args!("xor.b{w} {x}, {ri}, {ai}"));
        self.e(format_args!("setp.lt.s{w} {wrong}, {x}, 0"));
        let zero = if w == 32 {
            "0f00000000"
        } else {
            "0d0000000000000000"
        };
        self.e(format_args!("setp.ne.{ft} {nonzero}, {r}, {zero}"));
        self.e(format_args!("and.pred {wrong}, {wrong}, {nonzero}"));
        // |b| with the sign of a.
        self.e(format_args!("copysign.{ft} {m}, {a}, {b}"));
        self.e(format_args!("add.rn.{ft} {fixed}, {r}, {m}"));
        self.e(format_args!("selp.{ft} {exact}, {fixed}, {r}, {wrong}"));
        // a % inf is a (for finite a); the result always carries a's sign (zeros included).
        let fin_a = self.tmp(RegClass::Pred);
        self.e(format_args!("testp.infinite.{ft} {inf}, {b}"));
        self.e(format_args!("testp.finite.{ft} {fin_a}, {a}"));
        self.e(format_args!("and.pred {inf}, {inf}, {fin_a}"));
        self.e(format_args!("selp.{ft} {d}, {a}, {exact}, {inf}"));
        self.e(format_args!("copysign.{ft} {d}, {a}, {d}"));
        // Quotients too large for the mantissa (finite operands): exact long division.
        let limit = if w == 32 {
            "0f4B800000"
        } else {
            "0d4340000000000000"
        };
        let qa = self.tmp(class);
        let [slow, fin] = [0; 2].map(|_| self.tmp(RegClass::Pred));
        self.e(format_args!("abs.{ft} {qa}, {q}"));
        self.e(format_args!("setp.ge.{ft} {slow}, {qa}, {limit}"));
        self.e(format_args!("testp.finite.{ft} {fin}, {a}"));
        self.e(format_args!("and.pred {slow}, {slow}, {fin}"));
        self.e(format_args!("testp.finite.{ft} {fin}, {b}"));
        self.e(format_args!("and.pred {slow}, {slow}, {fin}"));
        self.e(format_args!("setp.ne.{ft} {fin}, {b}, {zero}"));
        self.e(format_args!("and.pred {slow}, {slow}, {fin}"));
        let end = self.fresh_label("F");
        self.e(format_args!("@!{slow} bra {end}"));
        self.frem_long(d, t, a, b);
        self.raw(format_args!("{end}:"));
    }

    /// Exact `fmod` of finite `a`, `b` (`b` nonzero, `|a| >= |b|`) by shift-and-subtract on
    /// the integer significands, one exponent step per iteration (at most ~280 for f32, ~2100
    /// for f64), as in the classic libm algorithm; the result is exact, so no rounding.
    fn frem_long(&mut self, d: Reg, t: Type, a: Reg, b: Reg) {
        let w = t.bits();
        let (mant, sign, abs_mask, mant_mask): (u32, u64, u64, u64) = if w == 32 {
            (23, 0x8000_0000, 0x7fff_ffff, 0x7f_ffff)
        } else {
            (52, 1 << 63, (1 << 63) - 1, (1 << 52) - 1)
        };
        let implicit = mant_mask + 1;
        let ic = if w == 32 {
            RegClass::B32
        } else {
            RegClass::B64
        };
        let [ix, iy, sx, mx, my, tmp] = [0; 6].map(|_| self.tmp(ic));
        let [ex, ey, sh] = [0; 3].map(|_| self.tmp(RegClass::B32));
        let p = self.tmp(RegClass::Pred);
        let to32 = |w: u32| if w == 32 { "mov.b32" } else { "cvt.u32.u64" };
        self.e(format_args!("mov.b{w} {ix}, {a}"));
        self.e(format_args!("mov.b{w} {iy}, {b}"));
        self.e(format_args!("and.b{w} {sx}, {ix}, {sign}"));
        self.e(format_args!("and.b{w} {ix}, {ix}, {abs_mask}"));
        self.e(format_args!("and.b{w} {iy}, {iy}, {abs_mask}"));
        for (i, m, e) in [(ix, mx, ex), (iy, my, ey)] {
            self.e(format_args!("shr.u{w} {tmp}, {i}, {mant}"));
            self.e(format_args!("{} {e}, {tmp}", to32(w)));
            self.e(format_args!("and.b{w} {m}, {i}, {mant_mask}"));
            // Normal: add the implicit bit. Subnormal: exponent 1, then normalize below 1.
            self.e(format_args!("setp.eq.u32 {p}, {e}, 0"));
            self.e(format_args!("@!{p} or.b{w} {m}, {m}, {implicit}"));
            self.e(format_args!("@{p} mov.u32 {e}, 1"));
            let (top, done) = (self.fresh_label("F"), self.fresh_label("F"));
            self.raw(format_args!("{top}:"));
            self.e(format_args!("setp.ge.u{w} {p}, {m}, {implicit}"));
            self.e(format_args!("@{p} bra {done}"));
            self.e(format_args!("shl.b{w} {m}, {m}, 1"));
            self.e(format_args!("sub.s32 {e}, {e}, 1"));
            self.e(format_args!("bra {top}"));
            self.raw(format_args!("{done}:"));
        }
        // Invariant mx < 2*my: subtract when possible, then shift in the next quotient bit.
        let (top, after) = (self.fresh_label("F"), self.fresh_label("F"));
        self.raw(format_args!("{top}:"));
        self.e(format_args!("setp.le.s32 {p}, {ex}, {ey}"));
        self.e(format_args!("@{p} bra {after}"));
        self.e(format_args!("sub.s{w} {tmp}, {mx}, {my}"));
        self.e(format_args!("setp.ge.s{w} {p}, {tmp}, 0"));
        self.e(format_args!("@{p} mov.b{w} {mx}, {tmp}"));
        self.e(format_args!("shl.b{w} {mx}, {mx}, 1"));
        self.e(format_args!("sub.s32 {ex}, {ex}, 1"));
        self.e(format_args!("bra {top}"));
        self.raw(format_args!("{after}:"));
        self.e(format_args!("sub.s{w} {tmp}, {mx}, {my}"));
        self.e(format_args!("setp.ge.s{w} {p}, {tmp}, 0"));
        self.e(format_args!("@{p} mov.b{w} {mx}, {tmp}"));
        let (sign_l, norm, pack, denorm) = (
            self.fresh_label("F"),
            self.fresh_label("F"),
            self.fresh_label("F"),
            self.fresh_label("F"),
        );
        // A zero remainder keeps only the sign of a.
        self.e(format_args!("setp.eq.u{w} {p}, {mx}, 0"));
        self.e(format_args!("@{p} bra {sign_l}"));
        self.raw(format_args!("{norm}:"));
        self.e(format_args!("setp.ge.u{w} {p}, {mx}, {implicit}"));
        self.e(format_args!("@{p} bra {pack}"));
        self.e(format_args!("shl.b{w} {mx}, {mx}, 1"));
        self.e(format_args!("sub.s32 {ex}, {ex}, 1"));
        self.e(format_args!("bra {norm}"));
        self.raw(format_args!("{pack}:"));
        self.e(format_args!("setp.lt.s32 {p}, {ex}, 1"));
        self.e(format_args!("@{p} bra {denorm}"));
        self.e(format_args!("sub.s{w} {mx}, {mx}, {implicit}"));
        if w == 32 {
            self.e(format_args!("shl.b32 {tmp}, {ex}, {mant}"));
        } else {
            self.e(format_args!("cvt.u64.u32 {tmp}, {ex}"));
            self.e(format_args!("shl.b64 {tmp}, {tmp}, {mant}"));
        }
        self.e(format_args!("or.b{w} {mx}, {mx}, {tmp}"));
        self.e(format_args!("bra {sign_l}"));
        // Subnormal result: shift right by 1 - ex (exact: the dropped bits are zero).
        self.raw(format_args!("{denorm}:"));
        self.e(format_args!("neg.s32 {sh}, {ex}"));
        self.e(format_args!("add.s32 {sh}, {sh}, 1"));
        self.e(format_args!("shr.u{w} {mx}, {mx}, {sh}"));
        self.raw(format_args!("{sign_l}:"));
        self.e(format_args!("or.b{w} {mx}, {mx}, {sx}"));
        self.e(format_args!("mov.b{w} {d}, {mx}"));
    }

    fn int_binary(&mut self, op: Opcode, d: Reg, t: Type, a: Reg, b: Reg) -> Result<(), PtxError> {
        use Opcode as O;
        if t == Type::I1 {
            let name = match op {
                O::And => "and",
                O::Or => "or",
                _ => "xor",
            };
            self.e(format_args!("{name}.pred {d}, {a}, {b}"));
            return Ok(());
        }
        let (name, ty) = match op {
            O::Iadd => ("add", int(t, true)),
            O::Isub => ("sub", int(t, true)),
            O::Imul => ("mul.lo", int(t, true)),
            O::Sdiv => ("div", int(t, true)),
            O::Udiv => ("div", int(t, false)),
            O::Srem => ("rem", int(t, true)),
            O::Urem => ("rem", int(t, false)),
            O::Smulhi => ("mul.hi", int(t, true)),
            O::Umulhi => ("mul.hi", int(t, false)),
            O::Smin => ("min", int(t, true)),
            O::Smax => ("max", int(t, true)),
            O::Umin => ("min", int(t, false)),
            O::Umax => ("max", int(t, false)),
            O::And => ("and", bits(t)),
            O::Or => ("or", bits(t)),
            O::Xor => ("xor", bits(t)),
            _ => return Err(self.unsupported(format!("cannot emit integer `{op}`"))),
        };
        self.e(format_args!("{name}.{ty} {d}, {a}, {b}"));
        Ok(())
    }

    /// Shifts follow the IR (and PTX) rule: the amount is unsigned and amounts of the width or
    /// more shift everything out. PTX clamps a .u32 amount itself, so only a 64-bit amount is
    /// clamped before its narrowing; constants become immediates.
    fn shift(&mut self, op: Opcode, d: Reg, t: Type, a: Reg, amount: Value) {
        let width = u64::from(t.bits());
        let at = self.ty(amount);
        let dfg = &self.func.dfg;
        let konst = match dfg.value_def(amount) {
            ValueDef::Result(i, 0) => match dfg.inst(i) {
                InstData::UnaryImm { imm, .. } => Some((*imm as u64 & mask(at)).min(width)),
                _ => None,
            },
            _ => None,
        };
        let amt = match konst {
            Some(k) => k.to_string(),
            None => {
                let b = self.v(amount);
                match at {
                    Type::I32 => b.to_string(),
                    Type::I64 => {
                        let c = self.tmp(RegClass::B64);
                        let r = self.tmp(RegClass::B32);
                        self.e(format_args!("min.u64 {c}, {b}, {width}"));
                        self.e(format_args!("cvt.u32.u64 {r}, {c}"));
                        r.to_string()
                    }
                    _ => {
                        // The exact type (u8 for i8) reads only the amount's own bits.
                        let r = self.tmp(RegClass::B32);
                        self.e(format_args!("cvt.u32.{} {r}, {b}", cvt_int(at, false)));
                        r.to_string()
                    }
                }
            }
        };
        let (name, ty) = match op {
            Opcode::Shl => ("shl", bits(t)),
            Opcode::Lshr => ("shr", int(t, false)),
            _ => ("shr", int(t, true)),
        };
        self.e(format_args!("{name}.{ty} {d}, {a}, {amt}"));
    }

    fn unary(&mut self, op: Opcode, d: Reg, dt: Type, a: Reg, at: Type) -> Result<(), PtxError> {
        use Opcode as O;
        match op {
            O::Neg => self.e(format_args!("neg.{} {d}, {a}", int(dt, true))),
            O::Not if dt == Type::I1 => self.e(format_args!("not.pred {d}, {a}")),
            O::Not => self.e(format_args!("not.{} {d}, {a}", bits(dt))),
            O::Popcnt | O::Clz | O::Ctz => self.bit_count(op, d, dt, a),
            O::Bswap => self.bswap(d, dt, a),
            O::Fneg => self.e(format_args!("neg.{} {d}, {a}", float(dt))),
            O::Fabs => self.e(format_args!("abs.{} {d}, {a}", float(dt))),
            O::Sqrt => self.e(format_args!("sqrt.rn.{} {d}, {a}", float(dt))),
            O::Floor | O::Ceil | O::Ftrunc | O::Nearest => {
                let rnd = match op {
                    O::Floor => "rmi",
                    O::Ceil => "rpi",
                    O::Ftrunc => "rzi",
                    _ => "rni",
                };
                let ft = float(dt);
                self.e(format_args!("cvt.{rnd}.{ft}.{ft} {d}, {a}"));
            }
            _ => self.convert(op, d, dt, a, at)?,
        }
        Ok(())
    }

    /// `popc`/`clz` give a .u32 count for either width; `ctz` is `clz` of the bit reverse.
    fn bit_count(&mut self, op: Opcode, d: Reg, t: Type, a: Reg) {
        let b = bits(t);
        let src = if op == Opcode::Ctz {
            let r = self.tmp(RegClass::of(t));
            self.e(format_args!("brev.{b} {r}, {a}"));
            r
        } else {
            a
        };
        let name = if op == Opcode::Popcnt { "popc" } else { "clz" };
        if t == Type::I64 {
            let c = self.tmp(RegClass::B32);
            self.e(format_args!("{name}.{b} {c}, {src}"));
            self.e(format_args!("cvt.u64.u32 {d}, {c}"));
        } else {
            self.e(format_args!("{name}.{b} {d}, {src}"));
        }
    }

    /// Byte swap with `prmt` (selector nibbles name the source byte of each result byte).
    fn bswap(&mut self, d: Reg, t: Type, a: Reg) {
        match t {
            Type::I16 => {
                let (w, s) = (self.tmp(RegClass::B32), self.tmp(RegClass::B32));
                self.e(format_args!("cvt.u32.u16 {w}, {a}"));
                self.e(format_args!("prmt.b32 {s}, {w}, 0, 0x0001"));
                self.e(format_args!("cvt.u16.u32 {d}, {s}"));
            }
            Type::I32 => self.e(format_args!("prmt.b32 {d}, {a}, 0, 0x0123")),
            _ => {
                let [lo, hi, nlo, nhi] = [0; 4].map(|_| self.tmp(RegClass::B32));
                self.e(format_args!("mov.b64 {{{lo}, {hi}}}, {a}"));
                self.e(format_args!("prmt.b32 {nlo}, {hi}, 0, 0x0123"));
                self.e(format_args!("prmt.b32 {nhi}, {lo}, 0, 0x0123"));
                self.e(format_args!("mov.b64 {d}, {{{nlo}, {nhi}}}"));
            }
        }
    }

    fn convert(&mut self, op: Opcode, d: Reg, dt: Type, a: Reg, at: Type) -> Result<(), PtxError> {
        use Opcode as O;
        match op {
            O::Sext | O::Zext if at == Type::I1 => {
                let one = if op == O::Sext { "-1" } else { "1" };
                let ty = int(dt, op == O::Sext);
                self.e(format_args!("selp.{ty} {d}, {one}, 0, {a}"));
            }
            O::Sext | O::Zext => {
                // The source type is exact (`s8` for i8), so only its low byte is read.
                let s = op == O::Sext;
                self.e(format_args!(
                    "cvt.{}.{} {d}, {a}",
                    int(dt, s),
                    cvt_int(at, s)
                ));
            }
            O::Trunc if dt == Type::I1 => {
                let t = self.tmp(RegClass::of(at));
                let b = bits(at);
                self.e(format_args!("and.{b} {t}, {a}, 1"));
                self.e(format_args!("setp.ne.{b} {d}, {t}, 0"));
            }
            O::Trunc if reg_bits(dt) == reg_bits(at) => {
                self.e(format_args!("mov.b16 {d}, {a}"));
            }
            O::Trunc => self.e(format_args!(
                "cvt.u{}.u{} {d}, {a}",
                reg_bits(dt),
                reg_bits(at)
            )),
            O::Fpext => self.e(format_args!("cvt.f64.f32 {d}, {a}")),
            O::Fptrunc => self.e(format_args!("cvt.rn.f32.f64 {d}, {a}")),
            O::Sitofp | O::Uitofp => self.e(format_args!(
                "cvt.rn.{}.{} {d}, {a}",
                float(dt),
                int(at, op == O::Sitofp)
            )),
            O::Fptosi | O::Fptoui => self.e(format_args!(
                "cvt.rzi.{}.{} {d}, {a}",
                cvt_int(dt, op == O::Fptosi),
                float(at)
            )),
            O::Bitcast => self.e(format_args!("mov.b{} {d}, {a}", dt.bits())),
            O::Ptrtoint | O::Inttoptr if dt.bits() == at.bits() => {
                self.e(format_args!("mov.b64 {d}, {a}"))
            }
            O::Ptrtoint => self.e(format_args!("cvt.u32.u64 {d}, {a}")),
            O::Inttoptr => self.e(format_args!("cvt.u64.u32 {d}, {a}")),
            O::Addrspacecast => {
                let (from, to) = (at.addr_space(), dt.addr_space());
                let (dir, sp) = match (from, to) {
                    (Some(AddrSpace::Generic), Some(s)) => (".to", s),
                    (Some(s), _) => ("", s),
                    _ => return Err(self.unsupported("`addrspacecast` of a non-pointer")),
                };
                if sp == AddrSpace::Param && self.opts.ptx_version() < 77 {
                    return Err(self.unsupported(
                        "casts of param-space pointers need PTX ISA 7.7 (sm_89 or newer)",
                    ));
                }
                self.e(format_args!("cvta{dir}{}.u64 {d}, {a}", space(sp)));
            }
            _ => return Err(self.unsupported(format!("cannot emit `{op}`"))),
        }
        Ok(())
    }

    fn load(
        &mut self,
        d: Reg,
        t: Type,
        s: AddrSpace,
        flags: MemFlags,
        a: &str,
    ) -> Result<(), PtxError> {
        self.check_align(t, flags)?;
        let m = mem(t);
        if volatile(flags, s) {
            self.e(format_args!("ld.volatile{}.{m} {d}, {a}", space(s)));
        } else if flags.readonly && s == AddrSpace::Global {
            self.e(format_args!("ld.global.nc.{m} {d}, {a}"));
        } else {
            self.e(format_args!("ld{}.{m} {d}, {a}", space(s)));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn atomic_rmw(
        &mut self,
        d: Reg,
        t: Type,
        op: AtomicRmwOp,
        s: AddrSpace,
        sc: Scope,
        a: &str,
        v: Reg,
    ) {
        use AtomicRmwOp as A;
        let w = t.bits();
        let pre = format!("atom{}{}", atom_scope(sc), space(s));
        let (name, ty, val) = match op {
            A::Add | A::Sub => {
                let ty = if t.is_float() {
                    float(t).to_string()
                } else {
                    format!("u{w}")
                };
                let val = if op == A::Sub {
                    // No atom.sub: add the negation.
                    let n = self.tmp(RegClass::of(t));
                    let neg = if t.is_float() {
                        float(t).to_string()
                    } else {
                        format!("s{w}")
                    };
                    self.e(format_args!("neg.{neg} {n}, {v}"));
                    n
                } else {
                    v
                };
                ("add", ty, val)
            }
            A::And => ("and", format!("b{w}"), v),
            A::Or => ("or", format!("b{w}"), v),
            A::Xor => ("xor", format!("b{w}"), v),
            A::Smin => ("min", format!("s{w}"), v),
            A::Smax => ("max", format!("s{w}"), v),
            A::Umin => ("min", format!("u{w}"), v),
            A::Umax => ("max", format!("u{w}"), v),
            A::Xchg => ("exch", format!("b{w}"), v),
            A::Inc => ("inc", "u32".to_string(), v),
            A::Dec => ("dec", "u32".to_string(), v),
        };
        self.e(format_args!("{pre}.{name}.{ty} {d}, {a}, {val}"));
    }

    fn shuffle(&mut self, d: Reg, t: Type, mode: ShuffleMode, v: Reg, lane: Reg, mask: Reg) {
        let (m, c) = match mode {
            ShuffleMode::Idx => ("idx", "31"),
            ShuffleMode::Up => ("up", "0"),
            ShuffleMode::Down => ("down", "31"),
            ShuffleMode::Xor => ("bfly", "31"),
        };
        if t.bits() == 32 {
            self.e(format_args!(
                "shfl.sync.{m}.b32 {d}, {v}, {lane}, {c}, {mask}"
            ));
            return;
        }
        // 64-bit values move as two 32-bit halves.
        let [lo, hi, nlo, nhi] = [0; 4].map(|_| self.tmp(RegClass::B32));
        self.e(format_args!("mov.b64 {{{lo}, {hi}}}, {v}"));
        self.e(format_args!(
            "shfl.sync.{m}.b32 {nlo}, {lo}, {lane}, {c}, {mask}"
        ));
        self.e(format_args!(
            "shfl.sync.{m}.b32 {nhi}, {hi}, {lane}, {c}, {mask}"
        ));
        self.e(format_args!("mov.b64 {d}, {{{nlo}, {nhi}}}"));
    }
}

/// Whether an access is written `.volatile`: PTX allows it for global, shared and generic
/// accesses only; local, const and param memory are private or read-only, so nothing else
/// can observe the difference.
fn volatile(flags: MemFlags, s: AddrSpace) -> bool {
    flags.volatile
        && matches!(
            s,
            AddrSpace::Global | AddrSpace::Shared | AddrSpace::Generic
        )
}

/// Scope qualifier of `atom` (gpu is the default and written bare).
fn atom_scope(s: Scope) -> &'static str {
    match s {
        Scope::Cta => ".cta",
        Scope::Gpu => "",
        Scope::Sys => ".sys",
    }
}

/// Type of `selp` for a result type.
fn select_type(t: Type) -> String {
    match t {
        Type::F32 | Type::F64 => float(t).to_string(),
        _ => bits(t),
    }
}
