//! PTX tokenizer: splits PTX text into tokens that carry their 1-based line.
//!
//! Invariants: every token borrows its text from the input; comments (`//`, `/* */`) are
//! dropped; identifiers keep their dots (`ld.global.u32`, `%tid.x`) because PTX opcodes and
//! special registers are dotted words. Unknown characters are errors, never panics.

use crate::error::EmuError;

/// The kind of one token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A word: opcode, register, label, symbol (`%r1`, `$L__BB0_1`, `mad.lo.s32`).
    Ident,
    /// A directive: a word that starts with a dot (`.reg`, `.u32`).
    Directive,
    /// A number literal, integer or float (`12`, `0xff`, `0f3F800000`, `1.5e3`).
    Number,
    /// A string literal, quotes included.
    Str,
    /// One punctuation character.
    Punct(char),
}

/// One token with its source line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub kind: Tok,
    pub text: &'a str,
    pub line: u32,
}

fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%'
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'%' || c == b'.'
}

/// Tokenizes a whole PTX text.
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token<'_>>, EmuError> {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(src.len() / 4);
    let mut i = 0;
    let mut line = 1u32;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let start_line = line;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(EmuError::parse(start_line, "unterminated block comment"));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
        } else if c == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    return Err(EmuError::parse(line, "newline in string literal"));
                }
                i += 1;
            }
            if i >= b.len() {
                return Err(EmuError::parse(line, "unterminated string literal"));
            }
            i += 1;
            out.push(Token {
                kind: Tok::Str,
                text: &src[start..i],
                line,
            });
        } else if c == b'.' && b.get(i + 1).is_some_and(|&n| is_word_start(n)) {
            let start = i;
            i += 1;
            while i < b.len() && is_word_char(b[i]) {
                i += 1;
            }
            out.push(Token {
                kind: Tok::Directive,
                text: &src[start..i],
                line,
            });
        } else if is_word_start(c) {
            let start = i;
            while i < b.len() && is_word_char(b[i]) {
                i += 1;
            }
            out.push(Token {
                kind: Tok::Ident,
                text: &src[start..i],
                line,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            let hexlike =
                c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X' | b'f' | b'F' | b'd' | b'D'));
            if hexlike {
                i += 2;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
            } else {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                    let mut j = i + 1;
                    if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                        j += 1;
                    }
                    if j < b.len() && b[j].is_ascii_digit() {
                        i = j;
                        while i < b.len() && b[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                }
            }
            if i < b.len() && (b[i] == b'U' || b[i] == b'u') {
                i += 1;
            }
            out.push(Token {
                kind: Tok::Number,
                text: &src[start..i],
                line,
            });
        } else if b",;:[](){}<>@!+-=|".contains(&c) {
            out.push(Token {
                kind: Tok::Punct(c as char),
                text: &src[i..i + 1],
                line,
            });
            i += 1;
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(EmuError::parse(
                line,
                format!("unexpected character `{ch}`"),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_lines() {
        let t = tokenize("ld.global.u32 %r1, [%rd2+4]; // c\n/* x\n*/ 0f3F800000 -1").unwrap();
        let kinds: Vec<_> = t.iter().map(|t| (t.text, t.line)).collect();
        assert_eq!(kinds[0], ("ld.global.u32", 1));
        assert_eq!(kinds[3], ("[", 1));
        assert_eq!(kinds[9], ("0f3F800000", 3));
        assert_eq!(kinds[10], ("-", 3));
    }

    #[test]
    fn bad_char_is_error() {
        let e = tokenize("mov.u32 %r1, #3;").unwrap_err();
        assert!(e.to_string().contains("line 1"));
    }
}
