//! Access-analysis file tests: every `testsuite/access/*.c` is preprocessed with
//! `cc -E -fopenmp`, parsed, checked and analysed by `ompcc-access`, and the printed analysis
//! (`ompcc --emit=accesses` prints the same text) is compared with `*.expected` next to it.
//! `BLESS=1` rewrites the expected files from the actual output. The directory is scanned:
//! a new case is a new `.c` file.

use std::path::Path;
use std::process::Command;

fn preprocess(path: &Path) -> Result<String, String> {
    let out = Command::new("cc")
        .args(["-E", "-fopenmp", "-std=gnu11"])
        .arg(path)
        .output()
        .map_err(|e| format!("cc must be installed for the access tests: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cc -E failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

fn analyse(path: &Path) -> Result<String, String> {
    let pp = preprocess(path)?;
    let name = path.to_str().ok_or("non-UTF-8 path")?;
    let (tu, sm, diags) = ompcc_syntax::parse_translation_unit(&pp, name);
    let errors = |d: &[ompcc_diag::Diagnostic]| {
        d.iter()
            .filter(|d| d.severity == ompcc_diag::Severity::Error)
            .map(|d| format!("{}: {}", sm.describe(d.primary.span), d.message))
            .collect::<Vec<_>>()
    };
    let parse_errors = errors(&diags);
    let tu = match tu {
        Some(tu) if parse_errors.is_empty() => tu,
        _ => return Err(format!("parse errors:\n{}", parse_errors.join("\n"))),
    };
    let (typed, sema_diags) = ompcc_sema::check(&tu);
    let sema_errors = errors(&sema_diags);
    if !sema_errors.is_empty() {
        return Err(format!("sema errors:\n{}", sema_errors.join("\n")));
    }
    let ua = ompcc_access::analyze(&tu, &typed);
    Ok(ompcc_access::print::print(&ua, &sm))
}

fn check(path: &Path) -> Result<(), String> {
    ompcc_testsuite::harness::check_expected(path, &analyse(path)?)
}

#[test]
fn access_files() {
    ompcc_testsuite::harness::check_c_files("access", 40, check);
}
