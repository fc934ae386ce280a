//! `--emit=host-c`: the rewritten host code as a reader wants it — the user's file only,
//! with each rewritten construct laid out over several lines. (`--emit=host-c-full` prints
//! the exact text cc compiles: every header, the runtime prelude, the device image, and one
//! line per rewritten construct so the user's line numbers stay right.)
//!
//! The view keeps the lines whose line marker names the main file (the file of the text's
//! first marker), drops the markers, shows each `#include` as a comment naming the header,
//! and replaces the prelude and the device image with one comment each. A line ompcc wrote
//! (it names `__ompcc_` identifiers) longer than [`WIDE`] is broken after each statement,
//! inside blocks, and between the elements of its map-entry arrays.

/// Lines of ompcc's own code longer than this are laid out over several lines.
const WIDE: usize = 100;

/// The reader's view of `text`, the rewritten preprocessed unit.
pub fn view(text: &str) -> String {
    let mut main: Option<String> = None;
    let mut current: Option<String> = None;
    let mut out = String::new();
    let mut said_prelude = false;
    for line in text.lines() {
        if let Some((file, flags)) = marker(line) {
            let main_name = main.get_or_insert_with(|| file.clone());
            let in_main = current.as_deref() == Some(main_name.as_str());
            if in_main && flags.contains(&1) && file != *main_name {
                out.push_str(&format!("/* #include \"{file}\" */\n"));
            }
            if file == "<ompcc-prelude>" && !said_prelude {
                said_prelude = true;
                out.push_str(
                    "/* ompcc: the runtime's declarations (ompcc_rt_*, __ompcc_map_entry, ...) \
                     are here; --emit=host-c-full shows the whole text cc compiles */\n",
                );
            }
            if file == "<ompcc-image>" {
                out.push_str(
                    "/* ompcc: the device image follows (PTX, kernel tables and the \
                     constructor that registers them) */\n",
                );
                break;
            }
            current = Some(file);
            continue;
        }
        if current.is_some() && current == main {
            if line.contains("__ompcc_") && line.len() > WIDE {
                out.push_str(&layout(line));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
    }
    out
}

/// A line marker's file name and flags (`# 12 "file.c" 1 3`).
fn marker(line: &str) -> Option<(String, Vec<u32>)> {
    let rest = line.strip_prefix("# ")?;
    let (num, rest) = rest.split_once(' ')?;
    num.parse::<u32>().ok()?;
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    let flags = rest[end + 1..]
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    Some((rest[..end].to_owned(), flags))
}

/// What a `{` opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Brace {
    /// A block: its statements go on their own lines.
    Block,
    /// The outermost braces of an initializer: one element per line.
    Init,
    /// Braces inside an initializer (one map entry): kept on one line.
    Inner,
}

/// One line of C laid out: statements on their own lines, blocks indented, the outermost
/// initializer lists one element per line. String and character literals are copied as
/// they are.
fn layout(line: &str) -> String {
    let base: String = line.chars().take_while(|c| c.is_whitespace()).collect();
    let mut out = String::new();
    let mut stack: Vec<Brace> = Vec::new();
    let mut parens = 0usize;
    let mut chars = line.trim_start().chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        while out.ends_with(' ') {
            out.pop();
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&base);
        out.push_str(&"    ".repeat(depth));
    };
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                out.push(c);
                while let Some(d) = chars.next() {
                    out.push(d);
                    if d == '\\' {
                        if let Some(e) = chars.next() {
                            out.push(e);
                        }
                    } else if d == c {
                        break;
                    }
                }
            }
            '(' => {
                parens += 1;
                out.push(c);
            }
            ')' => {
                parens = parens.saturating_sub(1);
                out.push(c);
            }
            '{' if parens == 0 => {
                let init = out.trim_end().ends_with('=');
                let kind = match stack.last() {
                    Some(Brace::Init | Brace::Inner) => Brace::Inner,
                    _ if init => Brace::Init,
                    _ => Brace::Block,
                };
                out.push('{');
                stack.push(kind);
                if kind != Brace::Inner {
                    newline(&mut out, depth(&stack));
                    skip_spaces(&mut chars);
                }
            }
            '}' if parens == 0 => {
                let kind = stack.pop();
                if matches!(kind, Some(Brace::Block | Brace::Init)) {
                    newline(&mut out, depth(&stack));
                }
                out.push('}');
                if kind == Some(Brace::Block) && chars.peek().is_some() {
                    newline(&mut out, depth(&stack));
                    skip_spaces(&mut chars);
                }
            }
            ',' if parens == 0 && stack.last() == Some(&Brace::Init) => {
                out.push(',');
                newline(&mut out, depth(&stack));
                skip_spaces(&mut chars);
            }
            ';' if parens == 0 => {
                out.push(';');
                if chars.clone().any(|n| n != ' ') {
                    newline(&mut out, depth(&stack));
                    skip_spaces(&mut chars);
                }
            }
            _ => out.push(c),
        }
    }
    out.trim_end().to_owned()
}

/// The indentation depth inside `stack` (inner initializer braces add none).
fn depth(stack: &[Brace]) -> usize {
    stack.iter().filter(|b| **b != Brace::Inner).count()
}

fn skip_spaces(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while chars.peek() == Some(&' ') {
        chars.next();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewritten_lines_are_laid_out() {
        let line = "{ __ompcc_map_entry __ompcc_e1[] = {{((void *)&(n)), 0x30ull, \"n;{\"}, \
                    {((void *)(y)), 0x13ull, \"y\"}}; __ompcc_launch_args __ompcc_a1 = {m, 0u}; \
                    if (!ompcc_rt_launch(&__ompcc_a1)) {";
        assert_eq!(
            layout(line),
            "{\n    __ompcc_map_entry __ompcc_e1[] = {\n        {((void *)&(n)), 0x30ull, \
             \"n;{\"},\n        {((void *)(y)), 0x13ull, \"y\"}\n    };\n    \
             __ompcc_launch_args __ompcc_a1 = {\n        m,\n        0u\n    };\n    \
             if (!ompcc_rt_launch(&__ompcc_a1)) {"
        );
    }

    #[test]
    fn only_the_users_file_is_shown() {
        let text = "# 0 \"t.c\"\n# 1 \"<ompcc-prelude>\"\ntypedef int __ompcc_x;\n# 0 \"t.c\"\n\
                    # 1 \"t.c\"\n# 1 \"/usr/include/stdio.h\" 1 3 4\nint printf(const char *, ...);\n\
                    # 2 \"t.c\" 2\nint main(void) { return 0; }\n\n# 1 \"<ompcc-image>\"\n\
                    static const char __ompcc_ptx[] = \"\";\n";
        let v = view(text);
        assert_eq!(
            v,
            "/* ompcc: the runtime's declarations (ompcc_rt_*, __ompcc_map_entry, ...) are \
             here; --emit=host-c-full shows the whole text cc compiles */\n\
             /* #include \"/usr/include/stdio.h\" */\nint main(void) { return 0; }\n\n\
             /* ompcc: the device image follows (PTX, kernel tables and the constructor that \
             registers them) */\n"
        );
    }
}
