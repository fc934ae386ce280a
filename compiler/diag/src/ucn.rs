//! Universal character names (C11 6.4.3) in identifiers: `gcc -E` writes UTF-8 identifiers
//! as `\\U000000e9`, so the lexer and the column mapping compare names through this.

/// `name` with its universal character names (`\\uXXXX`, `\\UXXXXXXXX`) as the characters
/// they name, so `\\u00e9t\\u00e9` and `été` are one identifier; anything else (a lone `\\`,
/// a short or invalid name, a surrogate) is kept as written.
pub fn ucn_decoded(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.contains('\\') {
        return name.into();
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = match after.as_bytes().first() {
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => 0,
        };
        let hex = after
            .get(1..1 + digits)
            .filter(|h| digits > 0 && h.bytes().all(|b| b.is_ascii_hexdigit()));
        match hex.and_then(|h| char::from_u32(u32::from_str_radix(h, 16).ok()?)) {
            Some(c) => {
                out.push(c);
                rest = &after[1 + digits..];
            }
            None => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::ucn_decoded;

    #[test]
    fn names_decode_and_the_rest_stays() {
        assert_eq!(ucn_decoded("\\U000000e9t\\u00e9"), "été");
        assert_eq!(ucn_decoded("plain"), "plain");
        for kept in ["a\\", "\\u12", "\\ud800x", "\\x", "\\U0011ffff"] {
            assert_eq!(ucn_decoded(kept), kept);
        }
        assert_eq!(ucn_decoded("\\\\u00e9"), "\\é");
    }
}
