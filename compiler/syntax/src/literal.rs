//! Decoding of numeric, character and string literals from their source text.
//!
//! Every function returns a value even for malformed input (plus an error message), so the
//! parser can report and go on. Integer values above 64 bits are reported as too large.

use crate::ast::{CharPrefix, FloatSuffix, IntSuffix};

/// `(value, suffix, decimal)` of an integer pp-number, or an error message.
pub(crate) fn int(s: &str) -> Result<(u128, IntSuffix, bool), String> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err("empty integer constant".into());
    }
    let (radix, start): (u32, usize) = if b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'x' {
        (16, 2)
    } else if b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'b' {
        (2, 2)
    } else if b[0] == b'0' {
        (8, 0)
    } else {
        (10, 0)
    };
    let digits_end = start
        + b[start..]
            .iter()
            .take_while(|c| {
                if radix == 16 {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_digit()
                }
            })
            .count();
    if digits_end == start {
        return Err(format!("invalid integer constant '{s}'"));
    }
    let mut value: u128 = 0;
    let mut overflow = false;
    for &c in &b[start..digits_end] {
        let d = (c as char).to_digit(16).unwrap_or(0);
        if d >= radix {
            return Err(format!(
                "invalid digit '{}' in {} constant",
                c as char,
                radix_name(radix)
            ));
        }
        let (v, o1) = value.overflowing_mul(u128::from(radix));
        let (v, o2) = v.overflowing_add(u128::from(d));
        overflow |= o1 | o2;
        value = v;
    }
    let suffix = int_suffix(&s[digits_end..])
        .ok_or_else(|| format!("invalid suffix '{}' on integer constant", &s[digits_end..]))?;
    if overflow || value > u128::from(u64::MAX) {
        return Err("integer constant is too large for its type".into());
    }
    Ok((value, suffix, radix == 10))
}

fn radix_name(r: u32) -> &'static str {
    match r {
        2 => "binary",
        8 => "octal",
        16 => "hexadecimal",
        _ => "decimal",
    }
}

fn int_suffix(s: &str) -> Option<IntSuffix> {
    let mut suf = IntSuffix::default();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let lc = c.to_ascii_lowercase();
        if lc == 'u' && !suf.unsigned {
            suf.unsigned = true;
            rest = &rest[1..];
        } else if (rest.starts_with("ll") || rest.starts_with("LL")) && suf.long == 0 {
            suf.long = 2;
            rest = &rest[2..];
        } else if lc == 'l' && suf.long == 0 {
            suf.long = 1;
            rest = &rest[1..];
        } else if (lc == 'i' || lc == 'j') && !suf.imaginary {
            suf.imaginary = true;
            rest = &rest[1..];
        } else {
            return None;
        }
    }
    Some(suf)
}

/// `(value, suffix)` of a floating pp-number, or an error message.
pub(crate) fn float(s: &str) -> Result<(f64, FloatSuffix, bool), String> {
    let b = s.as_bytes();
    let hex = b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'x';
    let exp_char = if hex { b'p' } else { b'e' };
    // The number ends at the first byte that cannot continue it; the rest is the suffix.
    let mut end = if hex { 2 } else { 0 };
    let mut seen_exp = false;
    while end < b.len() {
        let c = b[end];
        let ok = if seen_exp {
            c.is_ascii_digit() || ((c == b'+' || c == b'-') && (b[end - 1] | 0x20) == exp_char)
        } else if (c | 0x20) == exp_char {
            seen_exp = true;
            true
        } else if hex {
            c.is_ascii_hexdigit() || c == b'.'
        } else {
            c.is_ascii_digit() || c == b'.'
        };
        if !ok {
            break;
        }
        end += 1;
    }
    // GNU imaginary constants: one `i` or `j` before or after the suffix proper.
    let mut suf = s[end..].to_ascii_lowercase();
    let mut imaginary = false;
    for c in ['i', 'j'] {
        if !imaginary && (suf.starts_with(c) || suf.ends_with(c)) {
            imaginary = true;
            suf = if suf.starts_with(c) {
                suf[1..].to_owned()
            } else {
                suf[..suf.len() - 1].to_owned()
            };
        }
    }
    let suffix = match suf.as_str() {
        "" => FloatSuffix::None,
        "f" => FloatSuffix::F,
        "l" => FloatSuffix::L,
        "q" | "w" => FloatSuffix::FloatN(128, false),
        "f16" => FloatSuffix::FloatN(16, false),
        "f32" => FloatSuffix::FloatN(32, false),
        "f64" => FloatSuffix::FloatN(64, false),
        "f128" => FloatSuffix::FloatN(128, false),
        "f32x" => FloatSuffix::FloatN(32, true),
        "f64x" => FloatSuffix::FloatN(64, true),
        other => return Err(format!("invalid suffix '{other}' on floating constant")),
    };
    let num = &s[..end];
    let value = if hex {
        hex_float(&num[2..])
    } else {
        dec_float(num)
    };
    value
        .map(|v| (v, suffix, imaginary))
        .ok_or_else(|| format!("invalid floating constant '{s}'"))
}

fn dec_float(s: &str) -> Option<f64> {
    // Rust's parser wants a digit after '.' before an exponent: "1.e5" -> "1.0e5".
    let fixed = s.replace(".e", ".0e").replace(".E", ".0E");
    fixed.parse::<f64>().ok()
}

fn hex_float(s: &str) -> Option<f64> {
    // C requires the binary exponent in hexadecimal floating constants.
    let i = s.find(['p', 'P'])?;
    let (mant, exp) = (&s[..i], s[i + 1..].parse::<i32>().ok()?);
    let (int_part, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int_part.is_empty() && frac.is_empty() {
        return None;
    }
    let mut v = 0f64;
    for c in int_part.chars().chain(frac.chars()) {
        v = v * 16.0 + f64::from(c.to_digit(16)?);
    }
    let e = exp.saturating_sub(4 * frac.len() as i32);
    Some(v * 2f64.powi(e))
}

/// Splits an encoding prefix off a character or string literal.
pub(crate) fn prefix(s: &str) -> (CharPrefix, &str) {
    if let Some(r) = s.strip_prefix("u8") {
        (CharPrefix::Utf8, r)
    } else if let Some(r) = s.strip_prefix('L') {
        (CharPrefix::Wide, r)
    } else if let Some(r) = s.strip_prefix('u') {
        (CharPrefix::U16, r)
    } else if let Some(r) = s.strip_prefix('U') {
        (CharPrefix::U32, r)
    } else {
        (CharPrefix::None, s)
    }
}

/// One decoded item of a literal body: a numeric escape or a character.
enum Unit {
    Raw(u32),
    Char(char),
}

/// Decodes escapes in a literal body (without quotes); records bad escapes in `errs`.
fn units(body: &str, errs: &mut Vec<String>) -> Vec<Unit> {
    let mut out = Vec::with_capacity(body.len());
    let mut it = body.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(Unit::Char(c));
            continue;
        }
        let Some(e) = it.next() else { break };
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            'e' | 'E' => Some('\x1b'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(Unit::Char(s));
        } else if let Some(first) = e.to_digit(8) {
            let mut v = first;
            for _ in 0..2 {
                match it.peek().and_then(|c| c.to_digit(8)) {
                    Some(d) => {
                        v = v * 8 + d;
                        it.next();
                    }
                    None => break,
                }
            }
            out.push(Unit::Raw(v));
        } else if e == 'x' {
            let mut v: u32 = 0;
            let mut n = 0;
            while let Some(d) = it.peek().and_then(|c| c.to_digit(16)) {
                v = v.wrapping_mul(16).wrapping_add(d);
                n += 1;
                it.next();
            }
            if n == 0 {
                errs.push("\\x used with no following hex digits".into());
            }
            out.push(Unit::Raw(v));
        } else if e == 'u' || e == 'U' {
            let want = if e == 'u' { 4 } else { 8 };
            let mut v: u32 = 0;
            let mut complete = true;
            for _ in 0..want {
                match it.peek().and_then(|c| c.to_digit(16)) {
                    Some(d) => {
                        v = v.wrapping_mul(16).wrapping_add(d);
                        it.next();
                    }
                    None => {
                        complete = false;
                        break;
                    }
                }
            }
            match char::from_u32(v).filter(|_| complete) {
                Some(c) => out.push(Unit::Char(c)),
                None => errs.push(format!("invalid universal character name \\{e}{v:x}")),
            }
        } else {
            errs.push(format!("unknown escape sequence '\\{e}'"));
            out.push(Unit::Char(e));
        }
    }
    out
}

/// Appends the code units of `body` encoded for `prefix`.
fn encode(body: &str, prefix: CharPrefix, out: &mut Vec<u32>, errs: &mut Vec<String>) {
    for u in units(body, errs) {
        match (u, prefix) {
            (Unit::Raw(v), CharPrefix::None | CharPrefix::Utf8) => out.push(v & 0xff),
            (Unit::Raw(v), _) => out.push(v),
            (Unit::Char(c), CharPrefix::None | CharPrefix::Utf8) => {
                let mut buf = [0u8; 4];
                out.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            (Unit::Char(c), CharPrefix::U16) => {
                let mut buf = [0u16; 2];
                out.extend(c.encode_utf16(&mut buf).iter().map(|&u| u32::from(u)));
            }
            (Unit::Char(c), _) => out.push(c as u32),
        }
    }
}

/// Value and prefix of a character constant; multi-character constants combine like gcc.
pub(crate) fn char_lit(s: &str, errs: &mut Vec<String>) -> (u32, CharPrefix) {
    let (p, rest) = prefix(s);
    let body = rest.strip_prefix('\'').unwrap_or(rest);
    let body = body.strip_suffix('\'').unwrap_or(body);
    let mut v = Vec::new();
    encode(body, p, &mut v, errs);
    let Some(&last) = v.last() else {
        errs.push("empty character constant".into());
        return (0, p);
    };
    let value = match p {
        // Plain char is signed on x86-64: '\xff' is -1 as an int.
        CharPrefix::None if v.len() == 1 => last as u8 as i8 as i32 as u32,
        CharPrefix::None => v.iter().fold(0u32, |acc, &b| (acc << 8) | (b & 0xff)),
        _ => last,
    };
    (value, p)
}

/// Concatenates and decodes adjacent string literal pieces.
pub(crate) fn string_lit(pieces: &[&str], errs: &mut Vec<String>) -> (Vec<u32>, CharPrefix) {
    let mut prefix_all = CharPrefix::None;
    for p in pieces {
        let (pre, _) = prefix(p);
        if pre != CharPrefix::None {
            if prefix_all != CharPrefix::None && prefix_all != pre {
                errs.push(
                    "concatenation of string literals with conflicting encoding prefixes".into(),
                );
            }
            prefix_all = pre;
        }
    }
    let mut out = Vec::new();
    for p in pieces {
        let (_, rest) = prefix(p);
        let body = rest.strip_prefix('"').unwrap_or(rest);
        let body = body.strip_suffix('"').unwrap_or(body);
        encode(body, prefix_all, &mut out, errs);
    }
    (out, prefix_all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(int("42").unwrap(), (42, IntSuffix::default(), true));
        let (v, s, d) = int("0x1fULL").unwrap();
        assert_eq!((v, s.unsigned, s.long, d), (31, true, 2, false));
        assert_eq!(int("017").unwrap().0, 15);
        assert_eq!(int("0b101").unwrap().0, 5);
        assert_eq!(int("10lu").unwrap().1.long, 1);
        assert!(int("08").is_err());
        assert!(int("1xyz").is_err());
        assert!(int("99999999999999999999999").is_err());
        assert!(int("1lul").is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(float("1.5").unwrap(), (1.5, FloatSuffix::None, false));
        assert_eq!(float("1.e2f").unwrap(), (100.0, FloatSuffix::F, false));
        assert_eq!(float(".5L").unwrap(), (0.5, FloatSuffix::L, false));
        assert_eq!(float("1.0iF").unwrap(), (1.0, FloatSuffix::F, true));
        assert_eq!(float("0x1.8p1").unwrap().0, 3.0);
        assert_eq!(float("0x10p-4f").unwrap(), (1.0, FloatSuffix::F, false));
        assert_eq!(
            float("1e-3f128").unwrap().1,
            FloatSuffix::FloatN(128, false)
        );
        assert_eq!(float("2.0f64x").unwrap().1, FloatSuffix::FloatN(64, true));
        assert!(float("1.0zz").is_err());
        assert!(float("0x1.0").is_err());
    }

    #[test]
    fn chars_and_strings() {
        let mut e = Vec::new();
        assert_eq!(char_lit("'a'", &mut e), (97, CharPrefix::None));
        assert_eq!(char_lit("'\\n'", &mut e).0, 10);
        assert_eq!(char_lit("'\\377'", &mut e).0, u32::MAX);
        assert_eq!(char_lit("L'\\x41'", &mut e), (0x41, CharPrefix::Wide));
        assert_eq!(char_lit("'ab'", &mut e).0, 0x6162);
        assert_eq!(char_lit("U'\\U0001F600'", &mut e).0, 0x1F600);
        assert!(e.is_empty());
        let (v, p) = string_lit(&["\"a\\tb\"", "u8\"\u{e9}\""], &mut e);
        assert_eq!((v, p), (vec![97, 9, 98, 0xc3, 0xa9], CharPrefix::Utf8));
        let (v, p) = string_lit(&["u\"\\U0001F600\""], &mut e);
        assert_eq!((v, p), (vec![0xd83d, 0xde00], CharPrefix::U16));
        assert!(e.is_empty());
        string_lit(&["\"\\q\""], &mut e);
        assert_eq!(e.len(), 1);
    }
}
