//! Columns on lines where the preprocessor expanded a macro: the column in the user's line,
//! as gcc gives it, instead of the column in the expanded text.
//!
//! ompcc parses the preprocessed text, so a span's column counts the expansion (`int x =
//! ONE +;` is `int x = 1 +;` there). When the user's line differs from the preprocessed one,
//! both are split into C tokens and aligned by a longest common subsequence of token
//! spellings. A position on a token that appears in both (the user's own tokens, macro
//! arguments) maps to that token in the user's line; a position inside text only the
//! expansion has maps to the start of what the user wrote there, the macro's name, which is
//! where gcc points for a token of a macro body (its "expansion point").
//!
//! Invariants: the result is always a byte offset within the user's line (at most its
//! length); lines too long to align (over [`MAX_TOKENS`] tokens) keep the column unchanged.

/// The alignment is quadratic in tokens; longer lines keep the preprocessed column.
const MAX_TOKENS: usize = 512;

/// One token: byte offset in its line, its spelling, and the spelling it is compared by
/// (an identifier's universal character names decoded: `gcc -E` writes `é` as `\U000000e9`).
#[derive(Debug)]
struct Tok<'a> {
    start: usize,
    text: &'a str,
    key: std::borrow::Cow<'a, str>,
}

/// The 0-based byte column in `orig` (the user's line) of 0-based column `col` of `pp` (the
/// preprocessed line); `col` itself when the lines are equal or cannot be aligned.
pub fn original_column(orig: &str, pp: &str, col: usize) -> usize {
    if orig == pp {
        return col;
    }
    let (a, b) = (tokens(pp), tokens(orig));
    if a.is_empty() || b.is_empty() || a.len() > MAX_TOKENS || b.len() > MAX_TOKENS {
        return col.min(orig.len());
    }
    // The pp token at `col`: the one containing it, else the next one.
    let Some(i) = a.iter().position(|t| col < t.start + t.text.len().max(1)) else {
        // Past the last token (an error at the end of the line): the end of the user's line.
        return orig.trim_end().len();
    };
    let pairs = align(&a, &b);
    if let Some(&(_, j)) = pairs.iter().find(|&&(pi, _)| pi == i) {
        let within = col.saturating_sub(a[i].start).min(b[j].text.len());
        return b[j].start + within;
    }
    // Text of an expansion. It came from the macro invocation that ends before the next
    // matched token: the last user token before it that matched nothing starts it (the
    // macro's name). A token spelled the same inside the invocation is a macro argument
    // (used twice, say): its own column; anything else: the macro's name.
    let hi = pairs
        .iter()
        .find(|&&(pi, _)| pi > i)
        .map_or(b.len(), |&(_, j)| j);
    let matched = |j: usize| pairs.iter().any(|&(_, pj)| pj == j);
    let lo = pairs
        .iter()
        .rev()
        .find(|&&(pi, _)| pi < i)
        .map_or(0, |&(_, j)| j + 1);
    let start = (0..hi).rev().find(|&j| !matched(j)).unwrap_or(lo.min(hi));
    let same = (start..hi).find(|&j| b[j].text == a[i].text);
    match same {
        Some(j) => b[j].start + col.saturating_sub(a[i].start).min(b[j].text.len()),
        None => b.get(start).map_or(orig.trim_end().len(), |t| t.start),
    }
}

/// A longest common subsequence of the two token lists by spelling, as increasing index
/// pairs `(index in a, index in b)`.
fn align(a: &[Tok<'_>], b: &[Tok<'_>]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    let mut lcs = vec![0u16; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[at(i, j)] = if a[i].key == b[j].key {
                lcs[at(i + 1, j + 1)] + 1
            } else {
                lcs[at(i + 1, j)].max(lcs[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if a[i].key == b[j].key {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if lcs[at(i, j + 1)] >= lcs[at(i + 1, j)] {
            // Ties skip the user's token: expansion tokens then match as early as they can.
            j += 1;
        } else {
            i += 1;
        }
    }
    out
}

/// C tokens of one line, roughly: identifiers and numbers (with `.`), string and character
/// literals, and single punctuation characters; comments and white space are skipped.
fn tokens(line: &str) -> Vec<Tok<'_>> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            break;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = line[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |e| i + 2 + e + 2);
            continue;
        }
        let ident_at = |i: usize| {
            bytes[i].is_ascii_alphanumeric()
                || matches!(bytes[i], b'_' | b'.' | b'$')
                || bytes[i] >= 0x80
                || bytes[i] == b'\\' && matches!(bytes.get(i + 1), Some(b'u' | b'U'))
        };
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 || c == b'.' && i + 1 < bytes.len() {
            while i < bytes.len() && ident_at(i) {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            // a UTF-8 sequence is never cut: continuation bytes are >= 0x80 too
            i = i.min(bytes.len());
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
        } else {
            // One character (UTF-8 sequences whole, so slicing stays on boundaries).
            i += line[i..].chars().next().map_or(1, char::len_utf8);
        }
        let text = &line[start..i];
        out.push(Tok {
            start,
            text,
            key: crate::ucn_decoded(text),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_tokens_keep_their_column_and_expansions_point_at_the_macro() {
        // `;` after an object-like macro.
        let (orig, pp) = ("int x = ONE +;", "int x = 1 +;");
        assert_eq!(original_column(orig, pp, pp.find(';').unwrap()), 13);
        // Inside the expansion: the macro's name.
        assert_eq!(original_column(orig, pp, pp.find('1').unwrap()), 8);
        // A macro argument keeps its own column (gcc tracks argument tokens too).
        let (orig, pp) = ("  y = SQ(zz) + w;", "  y = ((zz)*(zz)) + w;");
        assert_eq!(original_column(orig, pp, pp.find("zz").unwrap()), 9);
        assert_eq!(original_column(orig, pp, pp.rfind("zz").unwrap()), 9);
        assert_eq!(original_column(orig, pp, pp.find('*').unwrap()), 6);
        assert_eq!(
            original_column(orig, pp, pp.find('w').unwrap()),
            orig.find('w').unwrap()
        );
        // Equal lines, comments and the end of the line.
        assert_eq!(original_column("a b", "a b", 2), 2);
        let (orig, pp) = ("f(N) /* n */ + g", "f(100) + g");
        assert_eq!(
            original_column(orig, pp, pp.find('g').unwrap()),
            orig.find('g').unwrap()
        );
        assert_eq!(original_column("x = N;", "x = 3;", 40), 6);
    }

    #[test]
    fn utf8_identifiers_match_their_universal_character_names() {
        let (orig, pp) = ("r = été + x;", "r = \\U000000e9t\\U000000e9 + x;");
        assert_eq!(
            original_column(orig, pp, pp.find('x').unwrap()),
            orig.find('x').unwrap()
        );
        assert_eq!(original_column(orig, pp, 4), 4);
    }
}
