//! Arithmetic, comparison and conversion tests: single-thread kernels from tests/ptx write one
//! result per slot; each slot is checked against Rust's own arithmetic on the same inputs.

mod common;

use common::{Env, p};

fn run_slots(
    file: &str,
    kernel: &str,
    slots: usize,
    slot_bytes: usize,
    args: &[&[u8]],
) -> Vec<u64> {
    let mut e = Env::new(file);
    let out = e.zeros(slots * slot_bytes);
    let mut all: Vec<&[u8]> = Vec::new();
    let po = p(out);
    all.push(&po);
    all.extend_from_slice(args);
    e.run(kernel, 1, 1, &all);
    if slot_bytes == 8 {
        e.download::<u64>(out, slots)
    } else {
        e.download::<u32>(out, slots)
            .into_iter()
            .map(u64::from)
            .collect()
    }
}

fn bfind(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        31 - v.leading_zeros()
    }
}

fn prmt_ref(a: u32, b: u32, sel: u32) -> u32 {
    let bytes = [a.to_le_bytes(), b.to_le_bytes()].concat();
    let mut out = [0u8; 4];
    for (i, o) in out.iter_mut().enumerate() {
        let s = (sel >> (4 * i)) & 0xf;
        let byte = bytes[(s & 7) as usize];
        *o = if s & 8 != 0 {
            if byte & 0x80 != 0 { 0xff } else { 0 }
        } else {
            byte
        };
    }
    u32::from_le_bytes(out)
}

fn int_expected(a: i32, b: i32, c: i64, d: i64) -> Vec<u64> {
    let (ua, ub, uc, ud) = (a as u32, b as u32, c as u64, d as u64);
    let s = |v: i32| v as i64 as u64;
    let u = |v: u32| v as u64;
    let sh = ub & 31;
    let sh64 = ub & 63;
    let sext24 = |v: u32| ((v << 8) as i32 >> 8) as i64;
    vec![
        s(a.wrapping_add(b)),
        s(a.wrapping_sub(b)),
        s(a.wrapping_mul(b)),
        s(((a as i64 * b as i64) >> 32) as i32),
        (a as i64 * b as i64) as u64,
        u(((ua as u64 * ub as u64) >> 32) as u32),
        ua as u64 * ub as u64,
        s(a.wrapping_div(b)),
        s(a.wrapping_rem(b)),
        u(ua / ub),
        u(ua % ub),
        s(a.min(b)),
        s(a.max(b)),
        u(ua.min(ub)),
        u(ua.max(ub)),
        s(a.wrapping_abs()),
        s(a.wrapping_neg()),
        s(a.saturating_add(b)),
        s(a.saturating_sub(b)),
        s(a.wrapping_mul(b).wrapping_add(a)),
        u((((ua as u64 * ub as u64) >> 32) as u32).wrapping_add(ub)),
        (a as i64 * b as i64).wrapping_add(c) as u64,
        c.wrapping_add(d) as u64,
        c.wrapping_sub(d) as u64,
        c.wrapping_mul(d) as u64,
        ((c as i128 * d as i128) >> 64) as u64,
        ((uc as u128 * ud as u128) >> 64) as u64,
        c.wrapping_div(d) as u64,
        c.wrapping_rem(d) as u64,
        uc / ud,
        uc % ud,
        c.min(d) as u64,
        uc.max(ud),
        c.wrapping_abs() as u64,
        c.wrapping_mul(d).wrapping_add(d) as u64,
        (a as i16).wrapping_add(b as i16) as i64 as u64,
        (a as i16).wrapping_mul(b as i16) as i64 as u64,
        (a as i16 as i32 * b as i16 as i32) as i64 as u64,
        (ua as u16).max(ub as u16) as u64,
        (a as i16).wrapping_div(b as i16) as i64 as u64,
        u(ua & ub),
        u(ua | ub),
        u(ua ^ ub),
        u(!ua),
        u((ua == 0) as u32),
        u(ua << sh),
        u(ua >> sh),
        s(a >> sh),
        0,
        s(a >> 31),
        uc << sh64,
        (c >> sh64) as u64,
        u(ua.count_ones()),
        u(uc.count_ones()),
        u(ua.leading_zeros()),
        u(uc.leading_zeros()),
        u(ua.reverse_bits()),
        uc.reverse_bits(),
        u(bfind(ua)),
        u(bfind(if a < 0 { !ua } else { ua })),
        u((ua >> 4) & 0xff),
        s(a >> 20),
        u((ub & !(0xfff << 8)) | ((ua << 8) & (0xfff << 8))),
        u(prmt_ref(ua, ub, 0x5140)),
        u(prmt_ref(ua, ub, 0x8f3a)),
        uc & ud,
        uc ^ ud,
        s((sext24(ua) * sext24(ub)) as i32),
    ]
}

#[test]
fn integer_arithmetic_all_widths() {
    let inputs: [(i32, i32, i64, i64); 4] = [
        (7, 3, 100, 7),
        (-123456789, 98765, -5_000_000_000_123, 77_777_777),
        (i32::MIN, -1, i64::MIN + 5, -3),
        (
            0x7fff_0f0f,
            0x1234_5678u32 as i32,
            0x0123_4567_89ab_cdef,
            -0x0fed_cba9_8765_4321,
        ),
    ];
    for (a, b, c, d) in inputs {
        let exp = int_expected(a, b, c, d);
        let got = run_slots(
            "int_arith",
            "int_ops",
            exp.len(),
            8,
            &[
                &a.to_le_bytes(),
                &b.to_le_bytes(),
                &c.to_le_bytes(),
                &d.to_le_bytes(),
            ],
        );
        for (i, (g, e)) in got.iter().zip(&exp).enumerate() {
            assert_eq!(
                g, e,
                "slot {i} for inputs {a} {b} {c} {d}: got {g:#x}, expected {e:#x}"
            );
        }
    }
}

fn rz32(v: f64) -> f32 {
    let r = v as f32;
    if (r as f64).abs() > v.abs() {
        if r > 0.0 { r.next_down() } else { r.next_up() }
    } else {
        r
    }
}

#[test]
fn float_arithmetic_f32_f64() {
    for (x, y, z, xd, yd, zd) in [
        (1.7f32, -0.3f32, 2.25f32, 3.5f64, -1.25f64, 0.1f64),
        (1.0, -1e-8, -7.0, 1e300, 3e-10, -2.0),
    ] {
        let b32 = |v: f32| v.to_bits() as u64;
        let b64 = |v: f64| v.to_bits();
        let exact = [
            b32(x + y),
            b32(x - y),
            b32(x * y),
            b32(x / y),
            b32(x.min(y)),
            b32(x.max(y)),
            b32(y.copysign(x)),
            b32(rz32(x as f64 + y as f64)),
            b32(x.mul_add(y, z)),
            b32(x.mul_add(y, z)),
            b32(x.abs()),
            b32(-x),
            b32(x.sqrt()),
            b32(1.0 / x),
        ];
        let approx32 = [
            x.sqrt(),
            1.0 / x,
            1.0 / x.sqrt(),
            x.sin(),
            x.cos(),
            x.exp2(),
            x.log2(),
            x / y,
            x / y,
        ];
        let tail32 = [b32((x + y).clamp(0.0, 1.0)), b32(x * y)];
        let exact64 = [
            b64(xd + yd),
            b64(xd - yd),
            b64(xd * yd),
            b64(xd / yd),
            b64(xd.min(yd)),
            b64(xd.max(yd)),
            b64(xd.mul_add(yd, zd)),
            b64(xd.abs()),
            b64(-xd),
            b64(xd.sqrt()),
            b64(1.0 / xd),
        ];
        let n = exact.len() + approx32.len() + tail32.len() + exact64.len() + 1;
        let got = run_slots(
            "float_arith",
            "float_ops",
            n,
            8,
            &[
                &x.to_le_bytes(),
                &y.to_le_bytes(),
                &z.to_le_bytes(),
                &xd.to_le_bytes(),
                &yd.to_le_bytes(),
                &zd.to_le_bytes(),
            ],
        );
        let mut i = 0;
        for e in exact {
            assert_eq!(got[i], e, "f32 slot {i} ({x}, {y}, {z})");
            i += 1;
        }
        for e in approx32 {
            let g = f32::from_bits(got[i] as u32);
            assert!(
                (g - e).abs() <= 1e-5 * e.abs().max(1.0),
                "approx slot {i}: {g} vs {e}"
            );
            i += 1;
        }
        for e in tail32 {
            assert_eq!(got[i], e, "f32 slot {i}");
            i += 1;
        }
        for e in exact64 {
            assert_eq!(got[i], e, "f64 slot {i}");
            i += 1;
        }
        let g = f64::from_bits(got[i]);
        let e = 1.0 / xd.sqrt();
        assert!((g - e).abs() <= 1e-12 * e.abs(), "rsqrt.f64: {g} vs {e}");
    }
}

fn sat_i(v: f64, lo: f64, hi: f64) -> f64 {
    if v.is_nan() { 0.0 } else { v.clamp(lo, hi) }
}

fn f32_dir(v: f64, mode: u8) -> f32 {
    let r = v as f32;
    if r as f64 == v {
        return r;
    }
    match mode {
        b'z' => rz32(v),
        b'm' if r as f64 > v => r.next_down(),
        b'p' if (r as f64) < v => r.next_up(),
        _ => r,
    }
}

fn i64_f32_dir(i: i64, mode: u8) -> f32 {
    let r = i as f32;
    let back = r as i128;
    let v = i as i128;
    if back == v {
        return r;
    }
    match mode {
        b'z' if back.abs() > v.abs() => {
            if r > 0.0 {
                r.next_down()
            } else {
                r.next_up()
            }
        }
        b'm' if back > v => r.next_down(),
        b'p' if back < v => r.next_up(),
        _ => r,
    }
}

#[test]
fn conversions_with_rounding_and_saturation() {
    for (x, xd, i) in [
        (2.5f32, 123456789.12345679f64, 0x0123_4567_89ab_cdefi64),
        (-3.7, -0.5, -123_456_789_012_345),
        (1e10, 1e30, 300),
        (-1e10, 2.5, -129),
    ] {
        let xf = x as f64;
        let rnd = |v: f64, m: u8| match m {
            b'n' => v.round_ties_even(),
            b'z' => v.trunc(),
            b'm' => v.floor(),
            _ => v.ceil(),
        };
        let b32 = |v: f32| v.to_bits() as u64;
        let mut exp: Vec<u64> = Vec::new();
        for m in [b'n', b'z', b'm', b'p'] {
            exp.push(sat_i(rnd(xf, m), i32::MIN as f64, i32::MAX as f64) as i64 as u64);
        }
        exp.push(sat_i(xf.trunc(), 0.0, u32::MAX as f64) as u64);
        exp.push(sat_i(xf.round_ties_even(), i64::MIN as f64, i64::MAX as f64) as i64 as u64);
        exp.push(sat_i(xf.trunc(), i16::MIN as f64, i16::MAX as f64) as i64 as u64);
        exp.push(sat_i(xf.trunc(), 0.0, 255.0) as u64);
        for m in [b'n', b'z', b'm', b'p'] {
            exp.push(b32(rnd(xf, m) as f32));
        }
        exp.push(b32(x.clamp(0.0, 1.0)));
        exp.push(xf.to_bits());
        for m in [b'n', b'z', b'm', b'p'] {
            exp.push(b32(f32_dir(xd, m)));
        }
        for m in [b'n', b'z', b'm', b'p'] {
            exp.push(sat_i(rnd(xd, m), i64::MIN as f64, i64::MAX as f64) as i64 as u64);
        }
        exp.push(sat_i(xd.trunc(), 0.0, u64::MAX as f64) as u64);
        exp.push(xd.round_ties_even().to_bits());
        for m in [b'n', b'z', b'm', b'p'] {
            exp.push(b32(i64_f32_dir(i, m)));
        }
        exp.push((i as f64).to_bits());
        exp.push((i as u64 as f64).to_bits());
        exp.push(b32(i as u32 as f32));
        exp.push(i as i32 as i64 as u64);
        exp.push(i.clamp(i32::MIN as i64, i32::MAX as i64) as u64);
        exp.push(i.clamp(0, 255) as u64);
        exp.push(i as i8 as i64 as u64);
        exp.push(i as u16 as u64);
        exp.push(i as i8 as i64 as u64);
        // binary16 round trip: (bits, value back in f32)
        let (h, back) = match x {
            2.5 => (0x4100, 2.5f32),
            -3.7 => (0xc366, -3.699_218_8),
            1e10 => (0x7c00, f32::INFINITY),
            _ => (0xfc00, f32::NEG_INFINITY),
        };
        exp.push(h);
        exp.push(b32(back));
        let got = run_slots(
            "cvt",
            "cvt_ops",
            exp.len(),
            8,
            &[&x.to_le_bytes(), &xd.to_le_bytes(), &i.to_le_bytes()],
        );
        for (k, (g, e)) in got.iter().zip(&exp).enumerate() {
            assert_eq!(
                g, e,
                "cvt slot {k} for ({x}, {xd}, {i}): got {g:#x}, expected {e:#x}"
            );
        }
    }
}

#[test]
fn comparisons_predicates_and_selects() {
    for (x, y, a, b) in [
        (1.0f32, 2.0f32, 3i32, -4i32),
        (f32::NAN, 2.0, 0, 5),
        (-0.0, 0.0, -7, -7),
        (5.5, -1.0, 0, 0),
    ] {
        let nan = x.is_nan() || y.is_nan();
        let fc = [
            x == y,
            !nan && x != y,
            x < y,
            x <= y,
            x > y,
            x >= y,
            nan || x == y,
            x != y,
            nan || x < y,
            nan || x <= y,
            nan || x > y,
            nan || x >= y,
            !nan,
            nan,
        ];
        let (xd, yd) = (x as f64, y as f64);
        let dc = [
            xd == yd,
            !nan && xd != yd,
            xd < yd,
            xd <= yd,
            xd > yd,
            xd >= yd,
        ];
        let sc = [a == b, a != b, a < b, a <= b, a > b, a >= b];
        let (ua, ub) = (a as u32, b as u32);
        let uc = [
            ua == ub,
            ua != ub,
            ua < ub,
            ua <= ub,
            ua > ub,
            ua >= ub,
            ua < ub,
            ua <= ub,
            ua > ub,
            ua >= ub,
        ];
        let lt = a < b;
        let mut exp: Vec<u64> = fc
            .iter()
            .chain(&dc)
            .chain(&sc)
            .chain(&uc)
            .map(|&c| c as u64)
            .collect();
        for c in [
            a < b,
            lt && a == 0,
            lt || a != 0,
            (a >= b) ^ (b != 0),
            !lt,
            lt && a != 0,
            lt || a != 0,
            lt ^ (a != 0),
            !lt,
        ] {
            exp.push(c as u64);
        }
        exp.push(if lt { x.to_bits() } else { y.to_bits() } as u64);
        exp.push(if a >= 0 { 10 } else { 20 });
        exp.push(if x >= 0.0 { 10 } else { 20 });
        exp.push(if lt { 0xffff_ffff } else { 0 });
        exp.push(if !nan && x > y {
            1.0f32.to_bits() as u64
        } else {
            0
        });
        exp.push(if lt { 8 } else { 7 });
        exp.push(if lt { 7 } else { 8 });
        let got = run_slots(
            "setp",
            "setp_ops",
            exp.len(),
            4,
            &[
                &x.to_le_bytes(),
                &y.to_le_bytes(),
                &a.to_le_bytes(),
                &b.to_le_bytes(),
            ],
        );
        for (k, (g, e)) in got.iter().zip(&exp).enumerate() {
            assert_eq!(g, e, "setp slot {k} for ({x}, {y}, {a}, {b})");
        }
    }
}

#[test]
fn carry_chains_for_extended_precision() {
    for (a, b, x, y, z) in [
        (u128::MAX - 5, 7u128, u32::MAX, u32::MAX, u32::MAX),
        (
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
            0xffff_ffff_ffff_ffff,
            12345,
            67890,
            5,
        ),
        (1, 2, 0, 0, 0),
    ] {
        let limbs = |v: u128| ((v as u64).to_le_bytes(), ((v >> 64) as u64).to_le_bytes());
        let ((a0, a1), (b0, b1)) = (limbs(a), limbs(b));
        let got = run_slots(
            "carry",
            "wide",
            5,
            8,
            &[
                &a0,
                &a1,
                &b0,
                &b1,
                &x.to_le_bytes(),
                &y.to_le_bytes(),
                &z.to_le_bytes(),
            ],
        );
        let sum = a.wrapping_add(b);
        let diff = a.wrapping_sub(b);
        assert_eq!(
            (got[0], got[1]),
            (sum as u64, (sum >> 64) as u64),
            "add {a:#x} {b:#x}"
        );
        assert_eq!(
            (got[2], got[3]),
            (diff as u64, (diff >> 64) as u64),
            "sub {a:#x} {b:#x}"
        );
        assert_eq!(got[4], x as u64 * y as u64 + z as u64, "mad {x} {y} {z}");
    }
}

/// NaN through `cvt`, with the results an H100 gave (tests/ptx/cvt.ptx via gpu_diff): NaN to
/// a 32-bit or narrower integer is 0 but to a 64-bit one 0x8000000000000000, and a NaN result
/// in f32 or f16 is the hardware's canonical NaN (0x7fffffff, 0x7fff), not the input's payload.
#[test]
fn cvt_of_nan_matches_hardware() {
    let got = run_slots(
        "cvt",
        "cvt_ops",
        39,
        8,
        &[
            &f32::NAN.to_le_bytes(),
            &f64::INFINITY.to_le_bytes(),
            &(-129i64).to_le_bytes(),
        ],
    );
    // rni/rzi/rmi/rpi.s32, rzi.u32, then rni.s64, rzi.s16, rzi.u8
    assert_eq!(got[0..8], [0, 0, 0, 0, 0, 1 << 63, 0, 0]);
    // rni/rzi/rmi/rpi.f32.f32, then sat.f32.f32 (NaN saturates to +0)
    assert_eq!(
        got[8..13],
        [0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff, 0]
    );
    // +inf f64 to s64 clamps to the maximum, to u64 as well
    assert_eq!(
        got[18..23],
        [
            i64::MAX as u64,
            i64::MAX as u64,
            i64::MAX as u64,
            i64::MAX as u64,
            u64::MAX
        ]
    );
    // rn.f16.f32 then back to f32
    assert_eq!(got[37..39], [0x7fff, 0x7fff_ffff]);
}

/// NaN from an f64 source through `cvt`, as an H100 gave it: to f32 the payload is kept
/// (0x7ff8000000000000 narrows to 0x7fc00000, unlike f32 sources), to s64/u64 it is the
/// 0x8000000000000000 sentinel; an f32 signalling NaN widens to f64 quieted, sign and
/// payload kept.
#[test]
fn cvt_of_f64_nan_matches_hardware() {
    let got = run_slots(
        "cvt",
        "cvt_ops",
        39,
        8,
        &[
            &f32::from_bits(0xff80_0001).to_le_bytes(),
            &f64::NAN.to_le_bytes(),
            &i64::MIN.to_le_bytes(),
        ],
    );
    assert_eq!(got[5], 1 << 63, "rni.s64.f32");
    assert_eq!(
        got[8..12],
        [0x7fff_ffff; 4],
        "f32 -> f32 with integer rounding"
    );
    assert_eq!(got[13], 0xfff8_0000_2000_0000, "f64.f32");
    assert_eq!(got[14..18], [0x7fc0_0000; 4], "rn/rz/rm/rp.f32.f64");
    assert_eq!(
        got[18..23],
        [1 << 63; 5],
        "rni/rzi/rmi/rpi.s64.f64, rzi.u64.f64"
    );
    assert_eq!(got[23], 0x7ff8_0000_0000_0000, "rni.f64.f64");
    assert_eq!(got[37..39], [0x7fff, 0x7fff_ffff], "f16 round trip");
}
