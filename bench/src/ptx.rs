//! Static counts over PTX text: instructions per function and local-memory accesses.
//!
//! A function is a `.entry` or `.func` with a body; prototypes (`.func f(...);`) are skipped.
//! An instruction is a `;`-terminated statement of a body that is not a directive (`.reg`,
//! `.local`, ...; `.loc` lines, which have no `;`, are dropped first): labels and block braces
//! around statements are not counted, vector operands (`{%r1, %r2}`) stay part of their
//! instruction.

/// Counts for one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionStats {
    /// The function's name.
    pub name: String,
    /// `.entry` (a kernel) rather than `.func`.
    pub is_kernel: bool,
    /// Instructions in the body.
    pub instructions: u32,
    /// `ld.local*` and `st.local*` instructions (spills are not in PTX: see `ptxas`).
    pub local_accesses: u32,
    /// Loads, stores and atomics through generic addresses (no state space in the opcode):
    /// what memory-space inference has not proven.
    pub generic_accesses: u32,
}

/// Counts for every function with a body, in the order they appear.
pub fn function_stats(ptx: &str) -> Result<Vec<FunctionStats>, String> {
    let text = strip_comments(ptx);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some((at, is_kernel)) = next_function_keyword(&text, pos) {
        let mut i = at
            + if is_kernel {
                ".entry".len()
            } else {
                ".func".len()
            };
        i = skip_ws(bytes, i);
        // `.func (.param .b32 r) name(...)`: a return parameter list comes first.
        if !is_kernel && bytes.get(i) == Some(&b'(') {
            i = skip_balanced(bytes, i, b'(', b')')?;
            i = skip_ws(bytes, i);
        }
        let name_start = i;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        if i == name_start {
            return Err(format!(
                "a function keyword without a name at byte {at} of the PTX"
            ));
        }
        let name = text[name_start..i].to_string();
        // Skip parameters and performance directives up to the body or the `;` of a prototype.
        loop {
            match bytes.get(i) {
                None => return Err(format!("function `{name}` has no body or `;`")),
                Some(b'(') => i = skip_balanced(bytes, i, b'(', b')')?,
                Some(b';') => {
                    pos = i + 1;
                    break;
                }
                Some(b'{') => {
                    let end = skip_balanced(bytes, i, b'{', b'}')?;
                    let c = count_body(&text[i + 1..end - 1]);
                    out.push(FunctionStats {
                        name,
                        is_kernel,
                        instructions: c.instructions,
                        local_accesses: c.local,
                        generic_accesses: c.generic,
                    });
                    pos = end;
                    break;
                }
                Some(_) => i += 1,
            }
        }
        if pos <= at {
            pos = at + 1;
        }
    }
    Ok(out)
}

/// The next `.entry` / `.func` keyword at or after `from` (whole word), and whether it is
/// `.entry`.
fn next_function_keyword(text: &str, from: usize) -> Option<(usize, bool)> {
    let mut search = from;
    loop {
        let rest = text.get(search..)?;
        let dot = rest.find('.')? + search;
        let after = &text[dot..];
        for (kw, is_kernel) in [(".entry", true), (".func", false)] {
            if after.starts_with(kw) && !after[kw.len()..].bytes().next().is_some_and(is_ident_byte)
            {
                return Some((dot, is_kernel));
            }
        }
        search = dot + 1;
    }
}

#[derive(Default)]
struct BodyCounts {
    instructions: u32,
    local: u32,
    generic: u32,
}

/// State spaces a memory opcode can name after its first component.
const SPACES: &[&str] = &["global", "shared", "local", "const", "param"];

fn count_body(body: &str) -> BodyCounts {
    let mut c = BodyCounts::default();
    // `.loc` and `.file` end at the line, not at a `;`.
    let body: String = body
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !(l.starts_with(".loc") || l.starts_with(".file"))
        })
        .collect::<Vec<_>>()
        .join("\n");
    for stmt in body.split(';') {
        let mut s = stmt.trim_start();
        // Block braces and labels before the statement.
        loop {
            let before = s.len();
            s = s.trim_start_matches(['{', '}']).trim_start();
            if let Some(colon) = label_end(s) {
                s = s[colon + 1..].trim_start();
            }
            if s.len() == before {
                break;
            }
        }
        let s = s.trim();
        if s.is_empty() || s.starts_with('.') {
            continue;
        }
        c.instructions += 1;
        let mut parts = opcode(s).split('.');
        let (base, space) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if matches!(base, "ld" | "st" | "ldu" | "atom" | "red") {
            if space == "local" {
                c.local += 1;
            } else if !SPACES.contains(&space) {
                c.generic += 1;
            }
        }
    }
    c
}

/// `name:` at the start of `s` (a label), as the index of the colon.
fn label_end(s: &str) -> Option<usize> {
    let end = s.bytes().position(|b| !is_ident_byte(b))?;
    (end > 0 && s.as_bytes()[end] == b':').then_some(end)
}

/// The opcode of an instruction, after an optional `@%p` / `@!%p` guard.
fn opcode(s: &str) -> &str {
    let mut words = s.split_whitespace();
    let first = words.next().unwrap_or("");
    if first.starts_with('@') {
        words.next().unwrap_or("")
    } else {
        first
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'%')
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// Index just past the bracket that closes the one at `open_at`.
fn skip_balanced(bytes: &[u8], open_at: usize, open: u8, close: u8) -> Result<usize, String> {
    let mut depth = 0usize;
    for (k, &b) in bytes.iter().enumerate().skip(open_at) {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Ok(k + 1);
            }
        }
    }
    Err(format!(
        "unbalanced `{}` at byte {open_at} of the PTX",
        open as char
    ))
}

/// The text with `//` and `/* */` comments replaced by spaces (string literals do not occur
/// in PTX bodies; `.file` names are outside functions and contain no comment markers).
fn strip_comments(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let mut chars = ptx.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for c in chars.by_ref() {
                if prev == '*' && c == '/' {
                    break;
                }
                if c == '\n' {
                    out.push('\n');
                }
                prev = c;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
//
// Generated by ompcc
.version 7.0
.target sm_70
.address_size 64

.extern .func (.param .b32 r) vprintf(.param .b64 fmt, .param .b64 args);
.visible .func (.param .b32 out) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [x];
	add.s32 %r2, %r1, %r1; // double it
	st.param.b32 [out], %r2;
	ret;
}

.visible .entry k(.param .u64 p, .param .u32 n) .maxntid 128
{
	.reg .pred %p<2>;
	.reg .b32 %r<9>;
	.reg .f32 %f<3>;
	.local .align 4 .b8 buf[36];
	.loc 1 12 3
	ld.param.u32 %r1, [n];
	setp.ge.s32 %p1, %r1, 4;
	@%p1 bra $L__BB0_2;
$L__BB0_1:
	ld.global.v2.f32 {%f1, %f2}, [%rd1];
	ld.f32 %f1, [%rd1];
	atom.add.f32 %f1, [%rd1], %f2;
	st.local.f32 [buf], %f1;
	ld.local.f32 %f2, [buf+4];
	{
	.param .b32 a0;
	st.param.b32 [a0], %r1;
	call.uni (retval0), twice, (a0);
	}
	/* a block comment; with a semicolon */
$L__BB0_2: ret;
}
"#;

    #[test]
    fn counts_instructions_per_function() {
        let stats = function_stats(SAMPLE).unwrap();
        let names: Vec<_> = stats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["twice", "k"]);
        assert_eq!(stats[0].instructions, 4);
        assert!(!stats[0].is_kernel);
        assert_eq!(stats[0].local_accesses, 0);
        // ld.param, setp, bra, ld.global.v2, ld, atom, st.local, ld.local, st.param, call, ret
        assert_eq!(stats[1].instructions, 11);
        assert_eq!(stats[1].generic_accesses, 2);
        assert_eq!(stats[0].generic_accesses, 0);
        assert!(stats[1].is_kernel);
        assert_eq!(stats[1].local_accesses, 2);
    }

    #[test]
    fn unbalanced_body_is_an_error() {
        let err = function_stats(".visible .entry k() { ret;").unwrap_err();
        assert!(err.contains("unbalanced"), "{err}");
    }

    #[test]
    fn no_functions_is_empty() {
        assert!(
            function_stats(".version 7.0\n.target sm_80\n")
                .unwrap()
                .is_empty()
        );
    }
}
