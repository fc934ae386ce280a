//! Lane arithmetic: the pure functions behind the interpreter's integer, float, comparison,
//! conversion, bit-field and atomic operations, one lane at a time.
//!
//! Invariants: every function is total (no panics for any input bits); integer results are
//! masked to the operation's width; float results follow IEEE-754 in the instruction's
//! precision (f32 math in f32, f64 in f64), with the rounding mode where PTX names one.

use crate::program::*;

#[inline(always)]
pub(crate) fn f32v(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
pub(crate) fn f64v(v: u64) -> f64 {
    f64::from_bits(v)
}

pub(crate) fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}
pub(crate) fn sat64(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

/// Float binary op in the precision of the instruction.
pub(crate) fn fbin(op: FOp, is64: bool, ftz: bool, sat: bool, rnd: Rnd, a: u64, b: u64) -> u64 {
    if is64 {
        let (x, y) = (f64v(a), f64v(b));
        let r = match op {
            FOp::Add => x + y,
            FOp::Sub => x - y,
            FOp::Mul => x * y,
            FOp::Div | FOp::DivApprox => x / y,
            FOp::Min => x.min(y),
            FOp::Max => x.max(y),
            FOp::Copysign => y.copysign(x),
        };
        (if sat { sat64(r) } else { r }).to_bits()
    } else {
        let (mut x, mut y) = (f32v(a), f32v(b));
        if ftz {
            x = ftz32(x);
            y = ftz32(y);
        }
        let directed = matches!(rnd, Rnd::Rz | Rnd::Rm | Rnd::Rp);
        let mut r = match op {
            // f32 sums and products are exact in f64 (barring far-apart exponents), so one
            // directed rounding from f64 gives the f32 result
            FOp::Add if directed => to_f32(x as f64 + y as f64, rnd),
            FOp::Sub if directed => to_f32(x as f64 - y as f64, rnd),
            FOp::Mul if directed => to_f32(x as f64 * y as f64, rnd),
            FOp::Div if directed => to_f32(x as f64 / y as f64, rnd),
            FOp::Add => x + y,
            FOp::Sub => x - y,
            FOp::Mul => x * y,
            FOp::Div | FOp::DivApprox => x / y,
            FOp::Min => x.min(y),
            FOp::Max => x.max(y),
            FOp::Copysign => y.copysign(x),
        };
        if ftz {
            r = ftz32(r);
        }
        if sat {
            r = sat64(r as f64) as f32;
        }
        r.to_bits() as u64
    }
}

pub(crate) fn fun(op: FUnOp, is64: bool, ftz: bool, sat: bool, a: u64) -> u64 {
    if is64 {
        let x = f64v(a);
        let r = match op {
            FUnOp::Neg => -x,
            FUnOp::Abs => x.abs(),
            FUnOp::Sqrt => x.sqrt(),
            FUnOp::Rcp => 1.0 / x,
            FUnOp::Rsqrt => 1.0 / x.sqrt(),
            FUnOp::Sin => x.sin(),
            FUnOp::Cos => x.cos(),
            FUnOp::Ex2 => x.exp2(),
            FUnOp::Lg2 => x.log2(),
            FUnOp::Tanh => x.tanh(),
        };
        (if sat { sat64(r) } else { r }).to_bits()
    } else {
        let mut x = f32v(a);
        if ftz {
            x = ftz32(x);
        }
        let mut r = match op {
            FUnOp::Neg => -x,
            FUnOp::Abs => x.abs(),
            FUnOp::Sqrt => x.sqrt(),
            FUnOp::Rcp => 1.0 / x,
            FUnOp::Rsqrt => 1.0 / x.sqrt(),
            FUnOp::Sin => x.sin(),
            FUnOp::Cos => x.cos(),
            FUnOp::Ex2 => x.exp2(),
            FUnOp::Lg2 => x.log2(),
            FUnOp::Tanh => x.tanh(),
        };
        if ftz {
            r = ftz32(r);
        }
        if sat {
            r = sat64(r as f64) as f32;
        }
        r.to_bits() as u64
    }
}

pub(crate) fn ibin(op: IOp, bits: u32, signed: bool, a: u64, b: u64) -> u64 {
    let m = mask(bits);
    let (ua, ub) = (a & m, b & m);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    match op {
        IOp::Add => ua.wrapping_add(ub) & m,
        IOp::Sub => ua.wrapping_sub(ub) & m,
        IOp::MulLo => ua.wrapping_mul(ub) & m,
        IOp::MulHi => {
            if signed {
                ((sa as i128 * sb as i128) >> bits) as u64 & m
            } else {
                ((ua as u128 * ub as u128) >> bits) as u64 & m
            }
        }
        IOp::MulWide => {
            if signed {
                (sa as i128 * sb as i128) as u64 & mask(bits * 2)
            } else {
                (ua as u128 * ub as u128) as u64 & mask(bits * 2)
            }
        }
        IOp::Mul24Lo | IOp::Mul24Hi => {
            let p = if signed {
                sext(a, 24) as i128 * sext(b, 24) as i128
            } else {
                ((a & 0xff_ffff) * (b & 0xff_ffff)) as i128
            };
            if op == IOp::Mul24Lo {
                p as u64 & m
            } else {
                (p >> 16) as u64 & m
            }
        }
        IOp::Div => {
            if ub == 0 {
                m
            } else if signed {
                sa.wrapping_div(sb) as u64 & m
            } else {
                ua / ub
            }
        }
        IOp::Rem => {
            if ub == 0 {
                ua
            } else if signed {
                sa.wrapping_rem(sb) as u64 & m
            } else {
                ua % ub
            }
        }
        IOp::Min => {
            if signed {
                sa.min(sb) as u64 & m
            } else {
                ua.min(ub)
            }
        }
        IOp::Max => {
            if signed {
                sa.max(sb) as u64 & m
            } else {
                ua.max(ub)
            }
        }
        IOp::And => ua & ub,
        IOp::Or => ua | ub,
        IOp::Xor => ua ^ ub,
        IOp::Shl => {
            let s = b & 0xffff_ffff;
            if s >= bits as u64 { 0 } else { (ua << s) & m }
        }
        IOp::Shr => {
            let s = (b & 0xffff_ffff).min(bits as u64 - 1 + (!signed) as u64);
            if signed {
                (sa >> s.min(63)) as u64 & m
            } else if s >= bits as u64 {
                0
            } else {
                ua >> s
            }
        }
        IOp::AddSat | IOp::SubSat => {
            let r = if op == IOp::AddSat {
                sa as i128 + sb as i128
            } else {
                sa as i128 - sb as i128
            };
            let lo = -(1i128 << (bits - 1));
            let hi = (1i128 << (bits - 1)) - 1;
            r.clamp(lo, hi) as u64 & m
        }
    }
}

pub(crate) fn iun(op: IUnOp, bits: u32, signed: bool, a: u64) -> u64 {
    let m = mask(bits);
    let ua = a & m;
    match op {
        IUnOp::Neg => ua.wrapping_neg() & m,
        IUnOp::Abs => sext(a, bits).unsigned_abs() & m,
        IUnOp::Not => !ua & m,
        IUnOp::Cnot => (ua == 0) as u64,
        IUnOp::Popc => ua.count_ones() as u64,
        IUnOp::Clz => (ua.leading_zeros() - (64 - bits)) as u64,
        IUnOp::Brev => ua.reverse_bits() >> (64 - bits),
        IUnOp::Bfind | IUnOp::BfindShift => {
            let v = if signed && sext(a, bits) < 0 {
                !ua & m
            } else {
                ua
            };
            if v == 0 {
                0xffff_ffff
            } else {
                let pos = 63 - v.leading_zeros() as u64;
                if op == IUnOp::BfindShift {
                    bits as u64 - 1 - pos
                } else {
                    pos
                }
            }
        }
    }
}

pub(crate) fn cmp_vals(cmp: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    if ty.float() {
        let (x, y) = if ty == Ty::F64 {
            (f64v(a), f64v(b))
        } else {
            (f32v(a) as f64, f32v(b) as f64)
        };
        let nan = x.is_nan() || y.is_nan();
        match cmp {
            Cmp::Eq => !nan && x == y,
            Cmp::Ne => !nan && x != y,
            Cmp::Lt | Cmp::Lo => !nan && x < y,
            Cmp::Le | Cmp::Ls => !nan && x <= y,
            Cmp::Gt | Cmp::Hi => !nan && x > y,
            Cmp::Ge | Cmp::Hs => !nan && x >= y,
            Cmp::Equ => nan || x == y,
            Cmp::Neu => nan || x != y,
            Cmp::Ltu => nan || x < y,
            Cmp::Leu => nan || x <= y,
            Cmp::Gtu => nan || x > y,
            Cmp::Geu => nan || x >= y,
            Cmp::Num => !nan,
            Cmp::Nan => nan,
        }
    } else {
        let bits = ty.bits();
        let (ua, ub) = (a & mask(bits), b & mask(bits));
        let (sa, sb) = (sext(a, bits), sext(b, bits));
        let s = ty.signed();
        match cmp {
            Cmp::Eq | Cmp::Equ => ua == ub,
            Cmp::Ne | Cmp::Neu => ua != ub,
            Cmp::Lt | Cmp::Ltu => {
                if s {
                    sa < sb
                } else {
                    ua < ub
                }
            }
            Cmp::Le | Cmp::Leu => {
                if s {
                    sa <= sb
                } else {
                    ua <= ub
                }
            }
            Cmp::Gt | Cmp::Gtu => {
                if s {
                    sa > sb
                } else {
                    ua > ub
                }
            }
            Cmp::Ge | Cmp::Geu => {
                if s {
                    sa >= sb
                } else {
                    ua >= ub
                }
            }
            Cmp::Lo => ua < ub,
            Cmp::Ls => ua <= ub,
            Cmp::Hi => ua > ub,
            Cmp::Hs => ua >= ub,
            Cmp::Num => true,
            Cmp::Nan => false,
        }
    }
}

pub(crate) fn boolop(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a && b,
        BoolOp::Or => a || b,
        BoolOp::Xor => a ^ b,
    }
}

pub(crate) fn round_int(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rni | Rnd::Rn => x.round_ties_even(),
        Rnd::Rmi | Rnd::Rm => x.floor(),
        Rnd::Rpi | Rnd::Rp => x.ceil(),
        Rnd::Rzi | Rnd::Rz | Rnd::None => x.trunc(),
    }
}

/// f64 -> f32 with a directed rounding mode.
pub(crate) fn to_f32(x: f64, rnd: Rnd) -> f32 {
    let r = x as f32;
    if r.is_nan() || (r as f64) == x {
        return r;
    }
    match rnd {
        Rnd::Rz if (r as f64).abs() > x.abs() => {
            if r > 0.0 {
                r.next_down()
            } else {
                r.next_up()
            }
        }
        Rnd::Rm if (r as f64) > x => r.next_down(),
        Rnd::Rp if (r as f64) < x => r.next_up(),
        _ => r,
    }
}

/// Integer (as i128) -> f64 with a directed rounding mode.
pub(crate) fn i_to_f64(v: i128, rnd: Rnd) -> f64 {
    let r = v as f64;
    let back = r as i128;
    if back == v {
        return r;
    }
    match rnd {
        Rnd::Rz if back.abs() > v.abs() => {
            if r > 0.0 {
                r.next_down()
            } else {
                r.next_up()
            }
        }
        Rnd::Rm if back > v => r.next_down(),
        Rnd::Rp if back < v => r.next_up(),
        _ => r,
    }
}

pub(crate) fn i_to_f32(v: i128, rnd: Rnd) -> f32 {
    let r = v as f32;
    let back = r as i128;
    if back == v {
        return r;
    }
    match rnd {
        Rnd::Rz if back.abs() > v.abs() => {
            if r > 0.0 {
                r.next_down()
            } else {
                r.next_up()
            }
        }
        Rnd::Rm if back > v => r.next_down(),
        Rnd::Rp if back < v => r.next_up(),
        _ => r,
    }
}

/// IEEE binary16 bits -> value.
pub(crate) fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let mant = (h & 0x3ff) as f64;
    sign * match exp {
        0 => mant * (-24f64).exp2(),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + mant) * ((exp - 25) as f64).exp2(),
    }
}

/// Value -> IEEE binary16 bits with a rounding mode (`None` means to nearest even).
pub(crate) fn f64_to_half(x: f64, rnd: Rnd) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return CANON_NAN16;
    }
    let a = x.abs();
    // round the magnitude: toward zero, or away from it when the mode points that way
    let up = match rnd {
        Rnd::Rp | Rnd::Rpi => sign == 0,
        Rnd::Rm | Rnd::Rmi => sign != 0,
        _ => false,
    };
    let nearest = !matches!(
        rnd,
        Rnd::Rz | Rnd::Rzi | Rnd::Rp | Rnd::Rpi | Rnd::Rm | Rnd::Rmi
    );
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    let e = if a == 0.0 {
        -15
    } else {
        (((a.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(-15)
    };
    // quantum: spacing of halves in this binade (subnormal spacing below 2^-14)
    let qexp = if e < -14 { -24 } else { e - 10 };
    let q = a / (qexp as f64).exp2();
    let r = if nearest {
        q.round_ties_even()
    } else if up {
        q.ceil()
    } else {
        q.floor()
    };
    let m = r * (qexp as f64).exp2();
    if m == 0.0 {
        return sign;
    }
    if m >= 65536.0 || (m > 65504.0) {
        // overflow: infinity when rounding away or to nearest, else the largest half
        return sign | if nearest || up { 0x7c00 } else { 0x7bff };
    }
    let me = ((m.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if me < -14 {
        sign | (m / (-24f64).exp2()) as u16
    } else {
        let mant = (m / ((me - 10) as f64).exp2()) as u16 - 1024;
        sign | (((me + 15) as u16) << 10) | mant
    }
}

/// The NaN NVIDIA hardware produces for a binary16 result, whatever NaN came in (payload
/// and sign are not kept; measured on an H100: `cvt.rn.f16.f32` of 0x7fc00000 is 0x7fff).
pub(crate) const CANON_NAN16: u16 = 0x7fff;
/// The NaN of an f32 `cvt` result from an f32 or f16 source (measured: `cvt.rni.f32.f32` and
/// `cvt.f32.f16` give 0x7fffffff; `cvt.rn.f32.f64` instead keeps the payload).
pub(crate) const CANON_NAN32: u32 = 0x7fff_ffff;

pub(crate) fn int_range(t: Ty) -> (i128, i128) {
    let b = t.bits();
    if t.signed() {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

pub(crate) fn cvt(dt: Ty, st: Ty, rnd: Rnd, sat: bool, ftz: bool, v: u64) -> u64 {
    if st.float() {
        let mut x = match st {
            Ty::F64 => f64v(v),
            Ty::F16 => half_to_f64(v as u16),
            _ => f32v(v) as f64,
        };
        if ftz && st == Ty::F32 {
            x = ftz32(x as f32) as f64;
        }
        if dt.float() {
            let int_rnd = matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi);
            if int_rnd {
                x = round_int(x, rnd);
            }
            if sat {
                x = sat64(x);
            }
            if x.is_nan() && dt == Ty::F32 && st != Ty::F64 {
                // f32 and f16 sources lose their NaN payload; from f64 it is kept (narrowed,
                // as `as f32` does), as measured on an H100
                CANON_NAN32 as u64
            } else if dt == Ty::F64 {
                x.to_bits()
            } else if dt == Ty::F16 {
                f64_to_half(x, if int_rnd { Rnd::Rn } else { rnd }) as u64
            } else {
                let mut r = if int_rnd { x as f32 } else { to_f32(x, rnd) };
                if ftz {
                    r = ftz32(r);
                }
                r.to_bits() as u64
            }
        } else {
            if x.is_nan() {
                // NaN to a 64-bit integer gives the 0x8000000000000000 sentinel (as
                // CUDA's __float2ll_rn / __double2ull_rz document), to narrower ones 0
                // (measured on an H100 for both)
                return if dt.bits() == 64 { 1 << 63 } else { 0 };
            }
            let r = round_int(x, rnd);
            let (lo, hi) = int_range(dt);
            let i = if r <= lo as f64 {
                lo
            } else if r >= hi as f64 {
                hi
            } else {
                r as i128
            };
            i as u64 & mask(dt.bits())
        }
    } else {
        let iv: i128 = if st.signed() {
            sext(v, st.bits()) as i128
        } else {
            (v & mask(st.bits())) as i128
        };
        match dt {
            Ty::F64 => i_to_f64(iv, rnd).to_bits(),
            Ty::F16 => f64_to_half(i_to_f64(iv, rnd), rnd) as u64,
            Ty::F32 => i_to_f32(iv, rnd).to_bits() as u64,
            _ => {
                let iv = if sat {
                    let (lo, hi) = int_range(dt);
                    iv.clamp(lo, hi)
                } else {
                    iv
                };
                // sign-extend narrower signed results into the register like hardware does
                let r = iv as u64 & mask(dt.bits());
                if dt.signed() {
                    sext(r, dt.bits()) as u64 & mask(dt.bits().max(32))
                } else {
                    r
                }
            }
        }
    }
}

pub(crate) fn atom_apply(op: AtomOp, ty: Ty, old: u64, b: u64, c: u64) -> u64 {
    let bits = ty.bits();
    let m = mask(bits);
    match (op, ty) {
        (AtomOp::Add, Ty::F32) => (f32v(old) + f32v(b)).to_bits() as u64,
        (AtomOp::Add, Ty::F64) => (f64v(old) + f64v(b)).to_bits(),
        (AtomOp::Min, Ty::F32) => f32v(old).min(f32v(b)).to_bits() as u64,
        (AtomOp::Max, Ty::F32) => f32v(old).max(f32v(b)).to_bits() as u64,
        (AtomOp::Min, Ty::F64) => f64v(old).min(f64v(b)).to_bits(),
        (AtomOp::Max, Ty::F64) => f64v(old).max(f64v(b)).to_bits(),
        (AtomOp::Add, _) => old.wrapping_add(b) & m,
        (AtomOp::Min, _) => ibin(IOp::Min, bits, ty.signed(), old, b),
        (AtomOp::Max, _) => ibin(IOp::Max, bits, ty.signed(), old, b),
        (AtomOp::Inc, _) => {
            if (old & m) >= (b & m) {
                0
            } else {
                (old + 1) & m
            }
        }
        (AtomOp::Dec, _) => {
            if old & m == 0 || (old & m) > (b & m) {
                b & m
            } else {
                (old - 1) & m
            }
        }
        (AtomOp::And, _) => old & b & m,
        (AtomOp::Or, _) => (old | b) & m,
        (AtomOp::Xor, _) => (old ^ b) & m,
        (AtomOp::Exch, _) => b & m,
        (AtomOp::Cas, _) => {
            if old & m == b & m {
                c & m
            } else {
                old
            }
        }
    }
}

pub(crate) fn bfe(bits: u32, signed: bool, a: u64, pos: u64, len: u64) -> u64 {
    let m = mask(bits);
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    let ua = a & m;
    if len == 0 {
        return 0;
    }
    let msb = bits - 1;
    let sbit = if signed {
        (ua >> (pos + len - 1).min(msb)) & 1
    } else {
        0
    };
    let flen = if pos > msb { 0 } else { len.min(bits - pos) };
    let field = if flen == 0 {
        0
    } else {
        (ua >> pos) & mask(flen)
    };
    if sbit == 1 {
        (field | (!mask(flen))) & m
    } else {
        field
    }
}

pub(crate) fn bfi(bits: u32, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let m = mask(bits);
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    if len == 0 || pos >= bits {
        return b & m;
    }
    let flen = len.min(bits - pos);
    let fm = mask(flen) << pos;
    ((b & !fm) | ((a << pos) & fm)) & m
}

pub(crate) fn prmt(a: u64, b: u64, c: u64) -> u64 {
    let bytes = (a & 0xffff_ffff) | ((b & 0xffff_ffff) << 32);
    let mut r = 0u64;
    for i in 0..4 {
        let sel = (c >> (4 * i)) & 0xf;
        let mut byte = (bytes >> (8 * (sel & 7))) & 0xff;
        if sel & 8 != 0 {
            byte = if byte & 0x80 != 0 { 0xff } else { 0 };
        }
        r |= byte << (8 * i);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions() {
        for h in 0..=u16::MAX {
            let v = half_to_f64(h);
            if v.is_nan() {
                assert_eq!(f64_to_half(v, Rnd::Rn), CANON_NAN16);
            } else {
                assert_eq!(f64_to_half(v, Rnd::Rn), h, "round trip of {h:#06x} ({v})");
            }
        }
        let cases = [
            (1.0, Rnd::Rn, 0x3c00),
            (65504.0, Rnd::Rn, 0x7bff),
            (65520.0, Rnd::Rn, 0x7c00),
            (65520.0, Rnd::Rz, 0x7bff),
            (-1e9, Rnd::Rm, 0xfc00),
            (-1e9, Rnd::Rp, 0xfbff),
            ((-24f64).exp2(), Rnd::Rn, 0x0001),
            ((-25f64).exp2(), Rnd::Rn, 0x0000),
            (3.0 * (-25f64).exp2(), Rnd::Rn, 0x0002),
            ((-25f64).exp2(), Rnd::Rp, 0x0001),
            (0.1, Rnd::Rn, 0x2e66),
            (0.1, Rnd::Rp, 0x2e67),
            (-2.5, Rnd::Rn, 0xc100),
        ];
        for (x, r, h) in cases {
            assert_eq!(f64_to_half(x, r), h, "{x} {r:?}");
        }
        assert_eq!(
            cvt(
                Ty::F16,
                Ty::F32,
                Rnd::Rn,
                false,
                false,
                1.5f32.to_bits() as u64
            ),
            0x3e00
        );
        assert_eq!(
            cvt(Ty::F32, Ty::F16, Rnd::None, false, false, 0x3e00),
            1.5f32.to_bits() as u64
        );
        assert_eq!(
            cvt(Ty::S32, Ty::F16, Rnd::Rzi, false, false, 0xc100),
            (-2i32) as u32 as u64 & 0xffff_ffff
        );
    }
}
