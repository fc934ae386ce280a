//! Device `printf` (`vprintf`) formatting: C conversion specifications with flags, width,
//! precision and length modifiers, applied to CUDA's packed argument buffer (each argument at
//! an offset aligned to its size; `float` is promoted to `double`, integers narrower than
//! `int` to `int`).
//!
//! Invariants: formatting never panics; a bad argument access is reported by the caller's
//! reader and ends formatting with an error.

/// Reads the argument buffer and C strings for the formatter.
pub(crate) trait ArgSource {
    /// Reads `size` bytes at `offset` of the argument buffer.
    fn arg(&mut self, offset: u64, size: u32) -> Result<u64, String>;
    /// Reads a NUL-terminated string at a generic address.
    fn string(&mut self, addr: u64) -> Result<Vec<u8>, String>;
}

#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

/// Formats `fmt` with arguments from `src`.
pub(crate) fn format(fmt: &[u8], src: &mut dyn ArgSource) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut off = 0u64;
    let mut next = |size: u32, src: &mut dyn ArgSource| -> Result<u64, String> {
        off = off.div_ceil(size as u64) * size as u64;
        let v = src.arg(off, size)?;
        off += size as u64;
        Ok(v)
    };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut s = Spec::default();
        while let Some(&f) = fmt.get(i) {
            match f {
                b'-' => s.left = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.alt = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = next(4, src)? as u32 as i32;
            if w < 0 {
                s.left = true;
            }
            s.width = w.unsigned_abs() as usize;
        } else {
            while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                s.width = s
                    .width
                    .saturating_mul(10)
                    .saturating_add((d - b'0') as usize);
                i += 1;
            }
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let p = next(4, src)? as u32 as i32;
                s.prec = if p < 0 { None } else { Some(p as usize) };
            } else {
                let mut p = 0usize;
                while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                    p = p.saturating_mul(10).saturating_add((d - b'0') as usize);
                    i += 1;
                }
                s.prec = Some(p);
            }
        }
        s.width = s.width.min(4096);
        s.prec = s.prec.map(|p| p.min(4096));
        // length modifiers: anything that makes the argument 64-bit
        let mut long = false;
        while let Some(&l) = fmt.get(i) {
            match l {
                b'l' | b'j' | b'z' | b't' | b'q' => long = true,
                b'h' | b'L' => {}
                _ => break,
            }
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            out.push(b'%');
            break;
        };
        i += 1;
        let isize_ = if long { 8 } else { 4 };
        match conv {
            b'd' | b'i' => {
                let v = next(isize_, src)?;
                let v = if long {
                    v as i64
                } else {
                    v as u32 as i32 as i64
                };
                let sign = if v < 0 {
                    "-"
                } else if s.plus {
                    "+"
                } else if s.space {
                    " "
                } else {
                    ""
                };
                let digits = v.unsigned_abs().to_string();
                put_int(&mut out, &s, sign, "", &digits);
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = next(isize_, src)?;
                let v = if long { v } else { v as u32 as u64 };
                let (digits, prefix) = match conv {
                    b'u' => (v.to_string(), ""),
                    b'x' => (format!("{v:x}"), if s.alt && v != 0 { "0x" } else { "" }),
                    b'X' => (format!("{v:X}"), if s.alt && v != 0 { "0X" } else { "" }),
                    _ => {
                        let d = format!("{v:o}");
                        (
                            if s.alt && !d.starts_with('0') {
                                format!("0{d}")
                            } else {
                                d
                            },
                            "",
                        )
                    }
                };
                put_int(&mut out, &s, "", prefix, &digits);
            }
            b'c' => {
                let v = next(4, src)? as u8;
                pad(&mut out, &s, &[v], false);
            }
            b's' => {
                let p = next(8, src)?;
                let mut text = if p == 0 {
                    b"(null)".to_vec()
                } else {
                    src.string(p)?
                };
                if let Some(pr) = s.prec {
                    text.truncate(pr);
                }
                pad(&mut out, &s, &text, false);
            }
            b'p' => {
                let p = next(8, src)?;
                let text = format!("0x{p:x}");
                pad(&mut out, &s, text.as_bytes(), false);
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let v = f64::from_bits(next(8, src)?);
                put_float(&mut out, &s, conv, v);
            }
            b'n' => {
                next(8, src)?;
            }
            other => {
                out.push(b'%');
                out.push(other);
            }
        }
    }
    Ok(out)
}

fn pad(out: &mut Vec<u8>, s: &Spec, body: &[u8], zero_ok: bool) {
    let fill = s.width.saturating_sub(body.len());
    if s.left {
        out.extend_from_slice(body);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else {
        out.extend(std::iter::repeat_n(
            if zero_ok && s.zero { b'0' } else { b' ' },
            fill,
        ));
        out.extend_from_slice(body);
    }
}

fn put_int(out: &mut Vec<u8>, s: &Spec, sign: &str, prefix: &str, digits: &str) {
    let mut digits = digits.to_string();
    if let Some(p) = s.prec {
        if p == 0 && digits == "0" {
            digits.clear();
        }
        while digits.len() < p {
            digits.insert(0, '0');
        }
    }
    let head = format!("{sign}{prefix}");
    let len = head.len() + digits.len();
    if s.zero && !s.left && s.prec.is_none() && s.width > len {
        out.extend_from_slice(head.as_bytes());
        out.extend(std::iter::repeat_n(b'0', s.width - len));
        out.extend_from_slice(digits.as_bytes());
    } else {
        pad(out, s, format!("{head}{digits}").as_bytes(), false);
    }
}

/// `%e` body of a finite non-negative value: mantissa with `prec` digits, C-style exponent.
fn fmt_e(v: f64, prec: usize, alt: bool) -> String {
    let r = format!("{v:.prec$e}");
    let (mant, exp) = r.split_once('e').unwrap_or((&r, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut mant = mant.to_string();
    if alt && prec == 0 {
        mant.push('.');
    }
    format!(
        "{mant}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

fn strip_zeros(s: &mut String) {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
}

fn put_float(out: &mut Vec<u8>, s: &Spec, conv: u8, v: f64) {
    let upper = conv.is_ascii_uppercase();
    let neg = v.is_sign_negative() && !v.is_nan();
    let sign = if neg {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    };
    let a = v.abs();
    let body = if !a.is_finite() {
        let t = if a.is_nan() { "nan" } else { "inf" };
        let t = if upper {
            t.to_uppercase()
        } else {
            t.to_string()
        };
        pad(out, s, format!("{sign}{t}").as_bytes(), false);
        return;
    } else {
        let prec = s.prec.unwrap_or(6);
        match conv.to_ascii_lowercase() {
            b'f' => {
                let mut r = format!("{a:.prec$}");
                if s.alt && prec == 0 {
                    r.push('.');
                }
                r
            }
            b'e' => fmt_e(a, prec, s.alt),
            b'g' => {
                let p = if prec == 0 { 1 } else { prec };
                let e = fmt_e(a, p - 1, false);
                let x: i32 = e
                    .rsplit_once('e')
                    .and_then(|(_, x)| x.parse().ok())
                    .unwrap_or(0);
                let mut r = if x < -4 || x >= p as i32 {
                    let mut r = fmt_e(a, p - 1, s.alt);
                    if !s.alt {
                        let (m, ex) = r
                            .split_once('e')
                            .map(|(m, x)| (m.to_string(), x.to_string()))
                            .unwrap_or_default();
                        let mut m = m;
                        strip_zeros(&mut m);
                        r = format!("{m}e{ex}");
                    }
                    r
                } else {
                    let fp = (p as i32 - 1 - x).max(0) as usize;
                    let mut r = format!("{a:.fp$}");
                    if !s.alt {
                        strip_zeros(&mut r);
                    }
                    r
                };
                if upper {
                    r = r.to_uppercase();
                }
                r
            }
            _ => hexfloat(a, s.prec),
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    let len = sign.len() + body.len();
    if s.zero && !s.left && s.width > len {
        out.extend_from_slice(sign.as_bytes());
        out.extend(std::iter::repeat_n(b'0', s.width - len));
        out.extend_from_slice(body.as_bytes());
    } else {
        pad(out, s, format!("{sign}{body}").as_bytes(), false);
    }
}

/// `%a` of a finite non-negative value (exact digits; precision truncates).
fn hexfloat(a: f64, prec: Option<usize>) -> String {
    if a == 0.0 {
        return "0x0p+0".to_string();
    }
    let bits = a.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    let (lead, e) = if exp == 0 {
        (0, -1022)
    } else {
        (1, exp - 1023)
    };
    let mut digits = format!("{frac:013x}");
    match prec {
        Some(p) => digits.truncate(p),
        None => {
            while digits.ends_with('0') {
                digits.pop();
            }
        }
    }
    let dot = if digits.is_empty() { "" } else { "." };
    format!(
        "0x{lead}{dot}{digits}p{}{}",
        if e < 0 { '-' } else { '+' },
        e.abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Buf(Vec<u8>);
    impl ArgSource for Buf {
        fn arg(&mut self, offset: u64, size: u32) -> Result<u64, String> {
            let o = offset as usize;
            let b = self.0.get(o..o + size as usize).ok_or("past the end")?;
            let mut v = [0u8; 8];
            v[..b.len()].copy_from_slice(b);
            Ok(u64::from_le_bytes(v))
        }
        fn string(&mut self, _addr: u64) -> Result<Vec<u8>, String> {
            Ok(b"str".to_vec())
        }
    }

    fn run(fmt: &str, args: &[u8]) -> String {
        String::from_utf8(format(fmt.as_bytes(), &mut Buf(args.to_vec())).unwrap()).unwrap()
    }

    #[test]
    fn conversions() {
        let mut a = Vec::new();
        a.extend_from_slice(&(-42i32).to_le_bytes());
        a.extend_from_slice(&[0; 4]);
        a.extend_from_slice(&1.5f64.to_bits().to_le_bytes());
        a.extend_from_slice(&255u64.to_le_bytes());
        assert_eq!(run("%5d|%-8.3f|%#lx", &a), "  -42|1.500   |0xff");
        let g = 0.0001234f64.to_bits().to_le_bytes();
        assert_eq!(run("%g", &g), "0.0001234");
        let g = 1234567.0f64.to_bits().to_le_bytes();
        assert_eq!(run("%g %e", &[g, g].concat()), "1.23457e+06 1.234567e+06");
        assert_eq!(
            run("%08.2f", &(-3.25159f64).to_bits().to_le_bytes()),
            "-0003.25"
        );
        assert_eq!(
            run(
                "%s %c%%",
                &[1u64.to_le_bytes(), 65u64.to_le_bytes()].concat()
            ),
            "str A%"
        );
        assert_eq!(
            run(
                "%+.3d %o %X",
                &[
                    7u32.to_le_bytes(),
                    8u32.to_le_bytes(),
                    0xabu32.to_le_bytes()
                ]
                .concat()
            ),
            "+007 10 AB"
        );
    }

    #[test]
    fn missing_argument_is_error() {
        assert!(format(b"%d", &mut Buf(Vec::new())).is_err());
    }
}
