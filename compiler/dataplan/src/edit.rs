//! Writing the plan's edits into text: the preprocessed unit the compiler goes on with (each
//! inserted directive line followed by a line marker, so every user line keeps its number)
//! and the user's own file (`--emit=annotated-c`). An edit goes only where it can go into
//! both: a statement that starts and ends its lines in the main file, a directive line
//! without comments.

use ompcc_diag::SourceMap;
#[cfg(test)]
use ompcc_diag::Span;

use crate::{Anchor, Edit};

/// Whether `at` can take a directive line (or clause) in the preprocessed `text` and in the
/// user's `original` file.
pub fn anchorable(text: &str, sm: &SourceMap, original: Option<&str>, at: Anchor) -> bool {
    let bytes = text.as_bytes();
    let (pos, ok_pp) = match at {
        Anchor::Before(s) => (s.lo, blank(&bytes[line_start(bytes, s.lo)..s.lo as usize])),
        Anchor::After(s) => {
            let end = line_end(bytes, s.hi);
            (s.hi.saturating_sub(1), blank(&bytes[s.hi as usize..end]))
        }
        Anchor::Clause(s) => (s.lo, true),
    };
    let loc = sm.lookup(pos);
    if !ok_pp || loc.file != sm.main_file() {
        return false;
    }
    let Some(orig) = original else { return true };
    let lines: Vec<&str> = orig.split('\n').collect();
    let line = |n: u32| lines.get(n as usize - 1).copied();
    match at {
        Anchor::Before(s) => {
            let word = first_word(&text[s.lo as usize..]);
            line(loc.line).is_some_and(|l| !word.is_empty() && l.trim_start().starts_with(word))
        }
        Anchor::After(s) => {
            let last = text[..s.hi as usize].trim_end().chars().last();
            line(loc.line).is_some_and(|l| {
                let t = l.trim_end();
                !t.ends_with('\\') && last.is_some_and(|c| t.ends_with(c)) && !t.contains("//")
            })
        }
        Anchor::Clause(_) => pragma_lines(&lines, loc.line).is_some(),
    }
}

/// The 1-based lines of a pragma starting at `first` (continued with `\`), when none holds
/// a comment; the last one takes appended clauses.
fn pragma_lines(lines: &[&str], first: u32) -> Option<u32> {
    let mut n = first;
    loop {
        let l = lines.get(n as usize - 1)?;
        if l.contains("//") || l.contains("/*") {
            return None;
        }
        if !l.trim_end().ends_with('\\') {
            return Some(n);
        }
        n += 1;
    }
}

fn first_word(s: &str) -> &str {
    let s = s.trim_start();
    let end = s
        .char_indices()
        .find(|(_, c)| c.is_whitespace() || *c == '(')
        .map_or(s.len(), |(i, _)| i);
    &s[..end.min(12)]
}

fn blank(b: &[u8]) -> bool {
    b.iter().all(|c| c.is_ascii_whitespace())
}

fn line_start(b: &[u8], pos: u32) -> usize {
    b[..pos as usize]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1)
}

fn line_end(b: &[u8], pos: u32) -> usize {
    b[pos as usize..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| pos as usize + p)
}

fn indent_of(line: &[u8]) -> String {
    line.iter()
        .take_while(|c| **c == b' ' || **c == b'\t')
        .map(|&c| c as char)
        .collect()
}

/// The preprocessed unit `raw` (the bytes `sm` was built from) with the edits in.
pub fn apply_preprocessed(raw: &[u8], sm: &SourceMap, edits: &[Edit]) -> Vec<u8> {
    // (offset, after-a-statement first, order, text)
    let mut ins: Vec<(usize, u8, u8, Vec<u8>)> = Vec::new();
    let marker = |pos: usize| -> String {
        let loc = sm.lookup(pos as u32);
        let name = sm
            .file_name(loc.file)
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        format!("# {} \"{name}\"\n", loc.line)
    };
    for e in edits {
        match e.at {
            Anchor::Before(s) => {
                let ls = line_start(raw, s.lo);
                let indent = indent_of(&raw[ls..]);
                let text = format!("{indent}{}\n{}", e.text, marker(ls));
                ins.push((ls, 1, e.order, text.into_bytes()));
            }
            Anchor::After(s) => {
                let le = line_end(raw, s.hi);
                let ls = line_start(raw, s.lo);
                let indent = indent_of(&raw[ls..]);
                let (at, lead) = if le < raw.len() {
                    (le + 1, "")
                } else {
                    (raw.len(), "\n")
                };
                let mark = if at < raw.len() {
                    marker(at)
                } else {
                    String::new()
                };
                let text = format!("{lead}{indent}{}\n{mark}", e.text);
                ins.push((at, 0, e.order, text.into_bytes()));
            }
            Anchor::Clause(s) => {
                let le = line_end(raw, s.lo);
                let mut at = le;
                while at > s.lo as usize && raw[at - 1].is_ascii_whitespace() {
                    at -= 1;
                }
                ins.push((at, 2, e.order, e.text.clone().into_bytes()));
            }
        }
    }
    ins.sort_by_key(|i| (i.0, i.1, i.2));
    let mut out = Vec::with_capacity(raw.len() + ins.iter().map(|i| i.3.len()).sum::<usize>());
    let mut from = 0;
    for (at, _, _, text) in ins {
        out.extend_from_slice(&raw[from..at]);
        out.extend_from_slice(&text);
        from = at;
    }
    out.extend_from_slice(&raw[from..]);
    out
}

/// The user's file `original` with the edits written in as `#pragma omp` lines and clauses
/// (every edit was checked with [`anchorable`] against it).
pub fn annotate(original: &str, sm: &SourceMap, edits: &[Edit]) -> String {
    let lines: Vec<&str> = original.split('\n').collect();
    let mut before: Vec<Vec<(u8, String)>> = vec![Vec::new(); lines.len() + 1];
    let mut after: Vec<Vec<(u8, String)>> = vec![Vec::new(); lines.len() + 1];
    let mut append: Vec<String> = vec![String::new(); lines.len() + 1];
    let indent = |n: u32| {
        lines
            .get(n as usize - 1)
            .map(|l| indent_of(l.as_bytes()))
            .unwrap_or_default()
    };
    for e in edits {
        match e.at {
            Anchor::Before(s) => {
                let l = sm.lookup(s.lo).line;
                if (l as usize) <= lines.len() {
                    before[l as usize - 1].push((e.order, format!("{}{}", indent(l), e.text)));
                }
            }
            Anchor::After(s) => {
                let first = sm.lookup(s.lo).line;
                let l = sm.lookup(s.hi.saturating_sub(1)).line;
                if (l as usize) <= lines.len() {
                    after[l as usize - 1].push((e.order, format!("{}{}", indent(first), e.text)));
                }
            }
            Anchor::Clause(s) => {
                let first = sm.lookup(s.lo).line;
                if let Some(l) = pragma_lines(&lines, first) {
                    let slot = &mut append[l as usize - 1];
                    slot.push_str(&e.text);
                }
            }
        }
    }
    let mut out = String::with_capacity(original.len() + 256);
    for (i, l) in lines.iter().enumerate() {
        before[i].sort_by_key(|(o, _)| *o);
        for (_, t) in &before[i] {
            out.push_str(t);
            out.push('\n');
        }
        if append[i].is_empty() {
            out.push_str(l);
        } else {
            let t = l.trim_end();
            out.push_str(t);
            out.push_str(&append[i]);
        }
        if i + 1 < lines.len() {
            out.push('\n');
        }
        after[i].sort_by_key(|(o, _)| *o);
        for (_, t) in &after[i] {
            if i + 1 >= lines.len() {
                out.push('\n');
            }
            out.push_str(t);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_lines_keep_the_user_lines() {
        let text = "# 1 \"t.c\"\nint f(void) {\n  for (;;) {}\n  return 0;\n}\n";
        let sm = SourceMap::new(text, "t.c");
        let lo = text.find("for").unwrap() as u32;
        let hi = text.find("{}").unwrap() as u32 + 2;
        let s = Span::new(lo, hi);
        let edits = [
            Edit {
                at: Anchor::Before(s),
                text: "#pragma omp target enter data map(to: a)".into(),
                order: 0,
            },
            Edit {
                at: Anchor::After(s),
                text: "#pragma omp target exit data map(from: a)".into(),
                order: 2,
            },
        ];
        let out = String::from_utf8(apply_preprocessed(text.as_bytes(), &sm, &edits)).unwrap();
        assert_eq!(
            out,
            "# 1 \"t.c\"\nint f(void) {\n  #pragma omp target enter data map(to: a)\n# 2 \"t.c\"\n  for (;;) {}\n  #pragma omp target exit data map(from: a)\n# 3 \"t.c\"\n  return 0;\n}\n"
        );
        let orig = "int f(void) {\n  for (;;) {}\n  return 0;\n}\n";
        assert!(anchorable(text, &sm, Some(orig), edits[0].at));
        assert!(anchorable(text, &sm, Some(orig), edits[1].at));
        assert_eq!(
            annotate(orig, &sm, &edits),
            "int f(void) {\n  #pragma omp target enter data map(to: a)\n  for (;;) {}\n  #pragma omp target exit data map(from: a)\n  return 0;\n}\n"
        );
    }
}
