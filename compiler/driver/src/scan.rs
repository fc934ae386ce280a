//! A quick scan of preprocessed C for OpenMP device directives.
//!
//! The host preprocessor writes every `#pragma` (and every `_Pragma("...")`) as a line of its
//! own starting with `#pragma`, so a line scan finds every directive; the scan does not parse
//! C. A translation unit without any device directive needs no frontend at all: ompcc then
//! compiles the original source exactly as cc would. This stays useful once the frontend
//! exists, as its fast path.
//!
//! Invariant: a directive is reported only when its first words name a device construct
//! (`target ...`, `declare target`, `begin declare target`) or a `requires` with a clause
//! about devices that gcc 12 refuses and ompcc decides (`unified_address`,
//! `unified_shared_memory`, `reverse_offload`); `end declare target` closes one and is not
//! reported again.

/// One device directive found in preprocessed text.
#[derive(Debug, PartialEq, Eq)]
pub struct DeviceDirective {
    /// The source file and line, from the preprocessor's line markers.
    pub file: String,
    pub line: u32,
    /// The directive's words after `omp`, e.g. `target teams distribute`.
    pub text: String,
}

/// The device directives in `text` (the output of `cc -E`), in order.
/// Whether `text` has a `parallel for` (or `parallel`) directive automatic offload looks at.
pub fn has_parallel_loops(text: &str) -> bool {
    text.lines().any(|raw| {
        omp_pragma(raw.trim_start()).is_some_and(|(_, words)| words.first() == Some(&"parallel"))
    })
}

pub fn device_directives(text: &str) -> Vec<DeviceDirective> {
    let mut found = Vec::new();
    let mut file = String::new();
    // The source line of the next line of `text` (from the last line marker).
    let mut line: u32 = 1;
    for raw in text.lines() {
        let trimmed = raw.trim_start();
        if let Some((marker_line, marker_file)) = line_marker(trimmed) {
            line = marker_line;
            file = marker_file;
            continue;
        }
        if let Some((directive, words)) = omp_pragma(trimmed)
            && is_device_directive(&words)
        {
            found.push(DeviceDirective {
                file: file.clone(),
                line,
                text: directive.to_owned(),
            });
        }
        line = line.saturating_add(1);
    }
    found
}

/// `# 12 "file.c" 1 3` (gcc) or `#line 12 "file.c"`: the line and file it names.
fn line_marker(line: &str) -> Option<(u32, String)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 {
        return None;
    }
    let number = rest[..digits_end].parse().ok()?;
    let name = rest[digits_end..].trim_start().strip_prefix('"')?;
    let end = name.rfind('"')?;
    Some((
        number,
        name[..end].replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The text after `#pragma omp` and its leading words, if `line` is an OpenMP pragma.
fn omp_pragma(line: &str) -> Option<(&str, Vec<&str>)> {
    let rest = line
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("pragma")?;
    let rest = rest
        .strip_prefix(char::is_whitespace)?
        .trim_start()
        .strip_prefix("omp")?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let directive = rest.trim();
    let words = directive
        .split(|c: char| c.is_whitespace() || c == '(' || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    Some((directive, words))
}

/// OpenMP 5.1/5.2 routines that ompcc's runtime defines and libgomp 12 does not: a unit that
/// names one needs the rewrite's prelude (their declarations) and the runtime at link time,
/// even without device directives.
const RUNTIME_ONLY_ROUTINES: &[&str] = &[
    "omp_target_memcpy_async",
    "omp_target_memcpy_rect_async",
    "omp_get_mapped_ptr",
    "omp_target_is_accessible",
    "omp_in_explicit_task",
];

/// Whether `text` names one of [`RUNTIME_ONLY_ROUTINES`] as a whole identifier.
pub fn names_runtime_only_routine(text: &str) -> bool {
    RUNTIME_ONLY_ROUTINES
        .iter()
        .any(|name| names_identifier(text, name))
}

/// Whether `text` holds `name` as a whole identifier.
pub fn names_identifier(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !ident(c));
        let after = text[at + name.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

fn is_device_directive(words: &[&str]) -> bool {
    matches!(
        words,
        ["target", ..]
            | ["declare", "target", ..]
            | ["begin", "declare", "target", ..]
            // gcc 12 ignores `dispatch` and rejects the selectors naming it: ompcc resolves
            // them in the host text (compiler/host/src/dispatch.rs)
            | ["dispatch", ..]
    ) || matches!(words, ["declare", "variant", rest @ ..] if rest.iter().any(|w| w.contains("dispatch")))
        || matches!(words, ["requires", clauses @ ..] if clauses.iter().any(|w| {
            // gcc 12 says "sorry, unimplemented" to these; ompcc accepts or refuses each itself
            matches!(*w, "unified_address" | "unified_shared_memory" | "reverse_offload")
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_runtime_only_routines_as_identifiers() {
        assert!(names_runtime_only_routine("p = omp_get_mapped_ptr(a, d);"));
        assert!(names_runtime_only_routine(
            "int (*f)(void) = omp_in_explicit_task;"
        ));
        assert!(!names_runtime_only_routine(
            "my_omp_get_mapped_ptr(a); omp_target_memcpy(x);"
        ));
        assert!(!names_runtime_only_routine(
            "omp_in_explicit_task_count = 1;"
        ));
    }

    #[test]
    fn finds_device_directives_with_source_lines() {
        let text = "\
# 0 \"t.c\"
# 1 \"/usr/include/stdio.h\" 1 3 4
#pragma omp declare target
# 3 \"t.c\" 2
int x;
#pragma omp parallel for
for (;;) {}
#pragma omp target teams distribute parallel for map(tofrom: x)
#pragma omp end declare target
  #  pragma   omp target(
#pragma GCC target(\"avx\")
#pragma omp targets
#pragma omp requires unified_address
#pragma omp requires atomic_default_mem_order(seq_cst), dynamic_allocators
#pragma omp requires dynamic_allocators,reverse_offload
";
        let found = device_directives(text);
        let got: Vec<_> = found
            .iter()
            .map(|d| (d.file.as_str(), d.line, d.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("/usr/include/stdio.h", 1, "declare target"),
                (
                    "t.c",
                    6,
                    "target teams distribute parallel for map(tofrom: x)"
                ),
                ("t.c", 8, "target("),
                ("t.c", 11, "requires unified_address"),
                ("t.c", 13, "requires dynamic_allocators,reverse_offload"),
            ]
        );
    }

    #[test]
    fn host_only_openmp_has_no_device_directives() {
        let text = "#pragma omp parallel\n#pragma omp for reduction(+:s)\n#pragma omp end declare target\nint target;\n";
        assert!(device_directives(text).is_empty());
    }
}
