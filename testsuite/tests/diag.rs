//! Diagnostic file tests: every `testsuite/diag/*.c` is preprocessed with `cc -E -fopenmp`,
//! run through the frontend, and its diagnostics compared with the expectation lines at the
//! end of the file:
//!
//! ```text
//! // ERROR 3:14: expected ';', found 'return' [E0101]
//! // WARNING 5:1: message [W0001]
//! ```
//!
//! (line and column in the original file: on a line with a macro, the column gcc gives). Every diagnostic must be expected and every
//! expectation produced. The first rendered line of each diagnostic is also checked to be
//! gcc's `file:line:col: error: message [code]`. `BLESS=1` rewrites the expectation lines from
//! the actual output.

use std::path::Path;
use std::process::Command;

use ompcc_diag::{ColorChoice, Diagnostic, Emitter, Severity, SourceMap};

const MARK_ERROR: &str = "// ERROR ";
const MARK_WARNING: &str = "// WARNING ";

fn preprocess(path: &Path) -> String {
    let out = Command::new("cc")
        .args(["-E", "-fopenmp", "-std=gnu11"])
        .arg(path)
        .output()
        .expect("cc must be installed for the diag tests");
    assert!(
        out.status.success(),
        "cc -E {} failed: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// The frontend stages that report diagnostics: the parser, then the checker when the
/// parser produced a tree.
fn diagnose(pp: &str, name: &str) -> (SourceMap, Vec<Diagnostic>) {
    let (tu, sm, mut diags) = ompcc_syntax::parse_translation_unit(pp, name);
    if let Some(tu) = tu {
        diags.extend(ompcc_sema::check(&tu).1);
    }
    (sm, diags)
}

fn expectation(line: u32, col: &str, d: &Diagnostic) -> String {
    let mark = if d.severity == Severity::Error {
        MARK_ERROR
    } else {
        MARK_WARNING
    };
    format!("{mark}{line}:{col}: {} [{}]", d.message, d.code)
}

fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let name = path.to_str().ok_or("non-UTF-8 path")?;
    let pp = preprocess(path);
    let (sm, diags) = diagnose(&pp, name);
    let mut actual = Vec::new();
    let mut emitter = Emitter::new(ColorChoice::Never);
    for d in diags.iter().filter(|d| d.severity != Severity::Note) {
        let loc = sm.lookup(d.primary.span.lo);
        if sm.file_name(loc.file) != name {
            return Err(format!(
                "diagnostic outside the test file: {}",
                sm.describe(d.primary.span)
            ));
        }
        // The rendered line gives the user's column (on a line with a macro expansion it is
        // not the column in the preprocessed text); the line is the source map's.
        let rendered = emitter.render(d, &sm);
        let first = rendered.lines().next().unwrap_or("");
        let prefix = format!("{name}:{}:", loc.line);
        let col: String = first
            .strip_prefix(&prefix)
            .unwrap_or("")
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let want = format!(
            "{prefix}{col}: {}: {} [{}]",
            d.severity.as_str(),
            d.message,
            d.code
        );
        if col.is_empty() || first != want {
            return Err(format!("rendered first line {first:?}, want {want:?}"));
        }
        actual.push(expectation(loc.line, &col, d));
    }
    let expected: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with(MARK_ERROR) || l.starts_with(MARK_WARNING))
        .map(str::to_owned)
        .collect();
    if std::env::var_os("BLESS").is_some() {
        let body: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with(MARK_ERROR) && !l.starts_with(MARK_WARNING))
            .collect();
        let mut out = body.join("\n");
        out.push('\n');
        for a in &actual {
            out.push_str(a);
            out.push('\n');
        }
        std::fs::write(path, out).map_err(|e| e.to_string())?;
        return Ok(());
    }
    if expected.is_empty() {
        return Err("no expectation lines: a diag test must expect at least one diagnostic".into());
    }
    if actual != expected {
        return Err(format!(
            "expected:\n  {}\nactual:\n  {}",
            expected.join("\n  "),
            actual.join("\n  ")
        ));
    }
    Ok(())
}

#[test]
fn diag_files() {
    ompcc_testsuite::harness::check_c_files("diag", 20, check);
}
