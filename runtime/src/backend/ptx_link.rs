//! A source-level linker for the emulator: joins several PTX modules into one module text.
//!
//! The emulator decodes one module at a time and rejects calls to functions it cannot see, so
//! a program made of several translation units is linked here, the way `cuLinkCreate` links
//! them for the driver:
//! - the first module's `.version`/`.target`/`.address_size` header is kept, later ones are
//!   blanked;
//! - `.extern .global`/`.const` declarations of variables that another module defines are
//!   blanked (the emulator would otherwise allocate a second, empty variable), and one that no
//!   module defines is an error, as in the driver's linker; `.extern .func` prototypes stay
//!   (the emulator pairs a prototype with the definition), and one that no module defines
//!   is an error unless the CUDA runtime provides it (`vprintf`, `malloc`, ...);
//! - an externally visible symbol defined by two modules is an error, unless all but one of
//!   the definitions are `.weak`/`.common` (the others are then blanked);
//! - file-local symbols (no `.visible`/`.extern`/`.weak`/`.common`) whose name appears at module
//!   scope in another module are renamed in their module (`name$ompcc<N>`);
//! - `.file` indices (and the `.loc`/`inlined_at` references to them) are shifted so that
//!   every module keeps its own file names.
//!
//! Invariant: rewriting never adds or removes a line, so line `L` of the linked text is a
//! known line of one input module ([`Linked::locate`]); error and fault messages name it.

use super::ModuleImage;
use std::collections::HashMap;
use std::fmt;

/// Device functions the CUDA runtime provides to every module (`.extern .func` prototypes of
/// these need no defining module).
const CUDA_RUNTIME_FUNCS: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];

/// The linked text and where each input module sits in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linked {
    /// One PTX module.
    pub text: String,
    /// `(module name, first line in `text`, 1-based)`, in input order.
    parts: Vec<(String, u32)>,
}

impl Linked {
    /// The input module and 1-based line of line `line` of the linked text.
    pub fn locate(&self, line: u32) -> (&str, u32) {
        let i = self
            .parts
            .iter()
            .rposition(|(_, first)| *first <= line)
            .unwrap_or(0);
        let (name, first) = &self.parts[i];
        (name.as_str(), line.saturating_sub(*first) + 1)
    }
}

/// A link failure (a symbol defined twice, malformed module-level syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Directive,
    Number,
    Str,
    Punct(u8),
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
    line: u32,
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Splits PTX into tokens, dropping whitespace and comments.
fn tokenize(src: &str, name: &str) -> Result<Vec<Tok>, LinkError> {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let start_line = line;
        let kind = match c {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            _ if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                loop {
                    if i + 1 >= b.len() {
                        return Err(LinkError(format!(
                            "{name} line {start_line}: unterminated comment"
                        )));
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
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    if b.get(i) == Some(&b'\n') {
                        line += 1;
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Err(LinkError(format!(
                        "{name} line {start_line}: unterminated string"
                    )));
                }
                i += 1;
                Kind::Str
            }
            b'.' if b.get(i + 1).is_some_and(|&n| is_ident_char(n)) => {
                i += 1;
                while i < b.len() && is_ident_char(b[i]) {
                    i += 1;
                }
                Kind::Directive
            }
            b'0'..=b'9' => {
                while i < b.len() && (is_ident_char(b[i]) || b[i] == b'.') {
                    i += 1;
                }
                Kind::Number
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' => {
                i += 1;
                while i < b.len() && is_ident_char(b[i]) {
                    i += 1;
                }
                Kind::Ident
            }
            _ => {
                i += 1;
                Kind::Punct(c)
            }
        };
        toks.push(Tok {
            kind,
            start,
            end: i,
            line: start_line,
        });
    }
    Ok(toks)
}

/// Module-scope linkage of a declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Linkage {
    visible: bool,
    external: bool,
    weak: bool,
}

/// One module-scope item: tokens `[first, last]`.
#[derive(Clone, Debug)]
struct Item {
    first: usize,
    last: usize,
    /// `.version`, `.target`, `.address_size`.
    header: bool,
    /// Declared symbol, with whether it is a function (`.func`/`.entry`) and a definition.
    symbol: Option<Symbol>,
}

#[derive(Clone, Debug)]
struct Symbol {
    name: String,
    linkage: Linkage,
    func: bool,
    entry: bool,
    /// A `.shared` variable (an `.extern` one is dynamic shared memory, never defined).
    shared: bool,
    /// A function body, or a variable without `.extern`.
    defines: bool,
}

/// Splits a token stream into module-scope items.
fn items(src: &str, toks: &[Tok], name: &str) -> Result<Vec<Item>, LinkError> {
    let text = |t: &Tok| &src[t.start..t.end];
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let first = i;
        let head = text(&toks[i]);
        if matches!(head, ".version" | ".target" | ".address_size" | ".file") {
            // line-oriented directives without a terminating `;`
            let line = toks[i].line;
            while i + 1 < toks.len() && toks[i + 1].line == line {
                i += 1;
            }
            out.push(Item {
                first,
                last: i,
                header: head != ".file",
                symbol: None,
            });
            i += 1;
            continue;
        }
        let mut linkage = Linkage::default();
        let mut func = false;
        let mut entry = false;
        let mut var = false;
        let mut shared = false;
        let mut sym_name: Option<String> = None;
        let mut has_body = false;
        let mut depth = 0i32;
        let mut parens = 0i32;
        loop {
            let Some(t) = toks.get(i) else {
                return Err(LinkError(format!(
                    "{name} line {}: module-scope declaration does not end",
                    toks[first].line
                )));
            };
            match t.kind {
                Kind::Punct(b'{') => {
                    if depth == 0 && (func || head == ".section") {
                        has_body = true;
                    }
                    depth += 1;
                }
                Kind::Punct(b'}') => {
                    depth -= 1;
                    if depth == 0 && has_body {
                        break;
                    }
                }
                Kind::Punct(b'(') => parens += 1,
                Kind::Punct(b')') => parens -= 1,
                Kind::Punct(b';') if depth == 0 => break,
                Kind::Directive if depth == 0 && parens == 0 => match text(t) {
                    ".visible" => linkage.visible = true,
                    ".extern" => linkage.external = true,
                    ".weak" | ".common" => linkage.weak = true,
                    ".func" => func = true,
                    ".entry" => {
                        func = true;
                        entry = true;
                    }
                    ".global" | ".const" | ".local" => var = true,
                    ".shared" => {
                        var = true;
                        shared = true;
                    }
                    _ => {}
                },
                Kind::Ident if depth == 0 && parens == 0 && sym_name.is_none() && (func || var) => {
                    sym_name = Some(text(t).to_string());
                }
                _ => {}
            }
            i += 1;
        }
        let symbol = sym_name.map(|n| Symbol {
            name: n,
            linkage,
            func,
            entry,
            shared,
            defines: if func {
                has_body
            } else {
                var && !linkage.external
            },
        });
        out.push(Item {
            first,
            last: i,
            header: false,
            symbol,
        });
        i += 1;
    }
    Ok(out)
}

struct Parsed<'a> {
    image: ModuleImage<'a>,
    toks: Vec<Tok>,
    items: Vec<Item>,
}

/// Links `modules` (at least one) into one PTX text.
pub fn link(modules: &[ModuleImage<'_>]) -> Result<Linked, LinkError> {
    let parsed = modules
        .iter()
        .map(|m| {
            let toks = tokenize(m.ptx, m.name)?;
            let items = items(m.ptx, &toks, m.name)?;
            Ok(Parsed {
                image: *m,
                toks,
                items,
            })
        })
        .collect::<Result<Vec<_>, LinkError>>()?;

    // Externally visible definitions: name -> (module, item, weak).
    let mut defs: HashMap<&str, Vec<(usize, usize, bool)>> = HashMap::new();
    // Module-scope names per module, to find colliding file-local symbols.
    let mut scope_names: HashMap<&str, Vec<usize>> = HashMap::new();
    for (mi, p) in parsed.iter().enumerate() {
        for (ii, it) in p.items.iter().enumerate() {
            let Some(s) = &it.symbol else { continue };
            let users = scope_names.entry(s.name.as_str()).or_default();
            if users.last() != Some(&mi) {
                users.push(mi);
            }
            let external = s.linkage.visible || s.linkage.weak || s.entry;
            if s.defines && external {
                defs.entry(s.name.as_str())
                    .or_default()
                    .push((mi, ii, s.linkage.weak));
            }
        }
    }
    // Items to blank: (module, item).
    let mut blank: Vec<(usize, usize)> = Vec::new();
    for (name, list) in &defs {
        let strong: Vec<_> = list.iter().filter(|d| !d.2).collect();
        if strong.len() > 1 {
            return Err(LinkError(format!(
                "symbol `{name}` is defined in both {} and {}",
                parsed[strong[0].0].image.name, parsed[strong[1].0].image.name
            )));
        }
        let keep = strong.first().copied().unwrap_or(&list[0]);
        blank.extend(list.iter().filter(|d| *d != keep).map(|d| (d.0, d.1)));
    }
    for (mi, p) in parsed.iter().enumerate() {
        for (ii, it) in p.items.iter().enumerate() {
            if mi > 0 && it.header {
                blank.push((mi, ii));
            }
            if let Some(s) = &it.symbol
                && s.func
                && s.linkage.external
                && !CUDA_RUNTIME_FUNCS.contains(&s.name.as_str())
                && !defs.contains_key(s.name.as_str())
            {
                // Named like the driver's linker names it: the call would otherwise fail at
                // decode time, without saying that a module is missing.
                return Err(LinkError(format!(
                    "`.extern` function `{}` of {} is not defined by any module",
                    s.name, p.image.name
                )));
            }
            if let Some(s) = &it.symbol
                && !s.func
                && !s.shared
                && s.linkage.external
            {
                if !defs.contains_key(s.name.as_str()) {
                    // the driver's linker rejects this too; the emulator would silently
                    // allocate a fresh, zeroed variable
                    return Err(LinkError(format!(
                        "`.extern` variable `{}` of {} is not defined by any module",
                        s.name, p.image.name
                    )));
                }
                blank.push((mi, ii));
            }
        }
    }

    let mut text = String::new();
    let mut parts = Vec::new();
    let mut line = 1u32;
    let mut file_offset = 0u64;
    for (mi, p) in parsed.iter().enumerate() {
        let src = p.image.ptx;
        let tok_text = |t: &Tok| &src[t.start..t.end];
        // Renames of colliding file-local symbols.
        let mut renames: HashMap<&str, String> = HashMap::new();
        for it in &p.items {
            if let Some(s) = &it.symbol
                && !(s.linkage.visible || s.linkage.weak || s.linkage.external || s.entry)
                && scope_names
                    .get(s.name.as_str())
                    .is_some_and(|users| users.iter().any(|&u| u != mi))
            {
                renames.insert(s.name.as_str(), format!("{}$ompcc{mi}", s.name));
            }
        }
        // Replacements over byte ranges, in order.
        let mut edits: Vec<(usize, usize, String)> = Vec::new();
        let mut blanked: Vec<(usize, usize)> = blank
            .iter()
            .filter(|b| b.0 == mi)
            .map(|b| {
                (
                    p.toks[p.items[b.1].first].start,
                    p.toks[p.items[b.1].last].end,
                )
            })
            .collect();
        blanked.sort_unstable();
        for (start, end) in &blanked {
            let lines = src[*start..*end].matches('\n').count();
            edits.push((*start, *end, "\n".repeat(lines)));
        }
        let mut max_file = 0u64;
        for (ti, t) in p.toks.iter().enumerate() {
            if blanked.iter().any(|(s, e)| t.start >= *s && t.end <= *e) {
                continue;
            }
            match t.kind {
                Kind::Ident => {
                    if let Some(new) = renames.get(tok_text(t)) {
                        edits.push((t.start, t.end, new.clone()));
                    }
                }
                Kind::Number
                    if ti > 0
                        && (matches!(
                            tok_text(&p.toks[ti - 1]),
                            ".file" | ".loc" | "inlined_at"
                        )) =>
                {
                    let Ok(n) = tok_text(t).parse::<u64>() else {
                        continue;
                    };
                    max_file = max_file.max(n);
                    if file_offset > 0 {
                        edits.push((t.start, t.end, (n + file_offset).to_string()));
                    }
                }
                _ => {}
            }
        }
        edits.sort_by_key(|e| e.0);
        let mut out = String::with_capacity(src.len());
        let mut at = 0;
        for (start, end, new) in edits {
            if start < at {
                continue; // inside a blanked item
            }
            out.push_str(&src[at..start]);
            out.push_str(&new);
            at = end;
        }
        out.push_str(&src[at..]);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        parts.push((p.image.name.to_string(), line));
        line += out.matches('\n').count() as u32;
        text.push_str(&out);
        file_offset += max_file;
    }
    Ok(Linked { text, parts })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img<'a>(name: &'a str, ptx: &'a str) -> ModuleImage<'a> {
        ModuleImage { name, ptx }
    }

    const HDR: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

    #[test]
    fn one_module_is_unchanged_and_lines_map_back() {
        let src = format!("{HDR}.visible .entry k()\n{{\n\tret;\n}}\n");
        let l = link(&[img("a.ptx", &src)]).unwrap();
        assert_eq!(l.text, src);
        assert_eq!(l.locate(5), ("a.ptx", 5));
    }

    #[test]
    fn later_headers_and_resolved_extern_variables_are_blanked() {
        let a = format!(
            "{HDR}.extern .global .align 4 .b32 g;\n.extern .func (.param .b32 r) f(.param .b32 x);\n"
        );
        let b = format!(
            "{HDR}.visible .global .align 4 .b32 g = 7;\n.visible .func (.param .b32 r) f(.param .b32 x)\n{{\n\tret;\n}}\n"
        );
        let l = link(&[img("a", &a), img("b", &b)]).unwrap();
        assert_eq!(l.text.lines().count(), 13);
        assert!(!l.text.contains(".extern .global"), "{}", l.text);
        assert!(l.text.contains(".extern .func"), "{}", l.text);
        assert_eq!(l.text.matches(".version").count(), 1);
        assert!(l.text.contains(".visible .global .align 4 .b32 g = 7;"));
        assert_eq!(l.locate(9), ("b", 4));
        assert_eq!(l.locate(3), ("a", 3));
    }

    #[test]
    fn file_local_collisions_are_renamed_and_file_indices_shifted() {
        let a = format!(
            "{HDR}.file 1 \"a.c\"\n.global .align 1 .b8 $str[3] = {{104, 105, 0}};\n\
             .func h()\n{{\n\t.loc 1 4 2\n\tmov.u64 %rd1, $str;\n\tret;\n}}\n"
        );
        let b = format!(
            "{HDR}.file 1 \"b.c\"\n.global .align 1 .b8 $str[2] = {{104, 0}};\n\
             .visible .func h2() // $str\n{{\n\t.loc 1 9 2\n\tmov.u64 %rd1, $str;\n\tret;\n}}\n"
        );
        let l = link(&[img("a", &a), img("b", &b)]).unwrap();
        assert!(l.text.contains("$str$ompcc0[3]"), "{}", l.text);
        assert!(l.text.contains("mov.u64 %rd1, $str$ompcc0;"), "{}", l.text);
        assert!(l.text.contains("$str$ompcc1[2]"), "{}", l.text);
        assert!(l.text.contains("mov.u64 %rd1, $str$ompcc1;"), "{}", l.text);
        assert!(l.text.contains("// $str\n"), "comments untouched");
        assert!(l.text.contains(".file 2 \"b.c\""), "{}", l.text);
        assert!(l.text.contains(".loc 2 9 2"), "{}", l.text);
        assert!(l.text.contains(".loc 1 4 2"), "{}", l.text);
        // `h` is file-local but no other module uses the name
        assert!(l.text.contains(".func h()"), "{}", l.text);
    }

    #[test]
    fn duplicate_definitions_are_errors_unless_weak() {
        let f = format!("{HDR}.visible .func f()\n{{\n\tret;\n}}\n");
        let err = link(&[img("a.c", &f), img("b.c", &f)]).unwrap_err();
        assert_eq!(err.to_string(), "symbol `f` is defined in both a.c and b.c");
        let w = format!("{HDR}.weak .func f()\n{{\n\tret;\n}}\n");
        let l = link(&[img("a.c", &w), img("b.c", &f)]).unwrap();
        assert_eq!(l.text.matches(".func f()").count(), 1, "{}", l.text);
        assert!(l.text.contains(".visible .func f()"), "{}", l.text);
    }

    #[test]
    fn unresolved_extern_functions_are_errors_but_cuda_runtime_ones_are_not() {
        let a = format!(
            "{HDR}.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n\
             .extern .func (.param .b64 r) weight(.param .b32 i);\n"
        );
        let err = link(&[img("main.c", &a)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`.extern` function `weight` of main.c is not defined by any module"
        );
        let b =
            format!("{HDR}.visible .func (.param .b64 r) weight(.param .b32 i)\n{{\n\tret;\n}}\n");
        let l = link(&[img("main.c", &a), img("lib.c", &b)]).unwrap();
        assert!(
            l.text.contains(".extern .func (.param .b64 r) weight"),
            "{}",
            l.text
        );
    }

    #[test]
    fn unresolved_extern_variables_are_errors_but_dynamic_shared_is_not() {
        let a = format!(
            "{HDR}.extern .global .align 4 .b32 g;\n.extern .shared .align 16 .b8 dyn[];\n"
        );
        let err = link(&[img("a.c", &a)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`.extern` variable `g` of a.c is not defined by any module"
        );
        let b = format!("{HDR}.visible .global .align 4 .b32 g;\n");
        let l = link(&[img("a.c", &a), img("b.c", &b)]).unwrap();
        assert!(l.text.contains(".extern .shared .align 16 .b8 dyn[];"));
    }

    #[test]
    fn malformed_module_scope_is_an_error() {
        let err = link(&[img("a.c", ".visible .entry k(\n{\n")]).unwrap_err();
        assert!(err.to_string().contains("a.c line 1"), "{err}");
        let err = link(&[img("a.c", "/* open")]).unwrap_err();
        assert!(err.to_string().contains("unterminated comment"), "{err}");
    }
}
