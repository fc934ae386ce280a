//! `@file` response files and the word splitting they share with `$OMPCC_HOST_CC`.
//!
//! The rules are gcc's (libiberty `buildargv`): words are separated by whitespace; single and
//! double quotes group; a backslash makes the next character literal, inside quotes too. A
//! response file may name further response files. As in gcc, an `@file` whose file cannot be
//! read stays a literal argument (the host compiler then reports it as a missing input).
//!
//! Invariant: expansion terminates: nesting deeper than [`MAX_DEPTH`] is an error.

use std::fmt;

/// How deep response files may nest (gcc stops at a similar bound to catch `@a` naming itself).
const MAX_DEPTH: usize = 32;

/// Response files nest too deeply (most likely a file that names itself).
#[derive(Debug, PartialEq, Eq)]
pub struct TooDeep {
    pub file: String,
}

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "response file '{}' nests more than {MAX_DEPTH} levels deep",
            self.file
        )
    }
}

/// Splits `text` into words by gcc's response-file rules.
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // `in_word` tells an empty quoted word ("") from no word at all.
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                in_word = true;
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            }
            q @ ('\'' | '"') if quote.is_none() => {
                quote = Some(q);
                in_word = true;
            }
            q if quote == Some(q) => quote = None,
            c if quote.is_none() && c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Replaces every readable `@file` argument by the words in the file, recursively.
pub fn expand(args: Vec<String>) -> Result<Vec<String>, TooDeep> {
    let mut out = Vec::with_capacity(args.len());
    expand_into(args, &mut out, 0)?;
    Ok(out)
}

fn expand_into(args: Vec<String>, out: &mut Vec<String>, depth: usize) -> Result<(), TooDeep> {
    for arg in args {
        let Some(path) = arg.strip_prefix('@').filter(|p| !p.is_empty()) else {
            out.push(arg);
            continue;
        };
        match std::fs::read_to_string(path) {
            Ok(text) => {
                if depth >= MAX_DEPTH {
                    return Err(TooDeep { file: path.into() });
                }
                expand_into(split_words(&text), out, depth + 1)?;
            }
            // Unreadable: kept as is, like gcc does.
            Err(_) => out.push(arg),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_words(text)
    }

    #[test]
    fn splits_on_any_whitespace() {
        assert_eq!(words(" -c\n a.c\t-o  a.o \n"), ["-c", "a.c", "-o", "a.o"]);
    }

    #[test]
    fn quotes_group_and_backslash_escapes_everywhere() {
        assert_eq!(words(r#"-DX="a b" 'c d' e\ f"#), ["-DX=a b", "c d", "e f"]);
        assert_eq!(words(r#"'it\'s' "q\"q""#), ["it's", "q\"q"]);
        assert_eq!(words(r#""" x"#), ["", "x"]);
    }

    #[test]
    fn expands_nested_files_and_keeps_unreadable_ones() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("inner.rsp");
        let outer = dir.path().join("outer.rsp");
        std::fs::write(&inner, "-O2 'x y.c'").unwrap();
        std::fs::write(&outer, format!("-c @{}", inner.display())).unwrap();
        let got = expand(vec![
            "-g".into(),
            format!("@{}", outer.display()),
            "@/nonexistent/ompcc.rsp".into(),
            "@".into(),
        ])
        .unwrap();
        assert_eq!(
            got,
            ["-g", "-c", "-O2", "x y.c", "@/nonexistent/ompcc.rsp", "@"]
        );
    }

    #[test]
    fn self_reference_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("self.rsp");
        std::fs::write(&file, format!("@{}", file.display())).unwrap();
        let err = expand(vec![format!("@{}", file.display())]).unwrap_err();
        assert_eq!(err.file, file.display().to_string());
    }
}
