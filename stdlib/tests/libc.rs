//! Host tests of the device library's C functions (<string.h>, <ctype.h>, <stdlib.h> with
//! strtod, errno, strerror, <wchar.h>/<wctype.h>, puts, <stdio.h> snprintf): each builds a
//! checker (`tests/*_check.c`) with the library source (the exact text the device compiles)
//! and glibc, and runs it; every result (and every byte written) must equal glibc's.

use std::process::Command;

#[test]
fn string_functions_match_glibc() {
    check_against_glibc("string_check", &["string.c", "heap.c"]);
}

#[test]
fn ctype_functions_and_tables_match_glibc() {
    check_against_glibc("ctype_check", &["ctype.c"]);
}

#[test]
fn stdlib_functions_match_glibc() {
    check_against_glibc(
        "stdlib_check",
        &["stdlib.c", "heap.c", "string.c", "errno.c"],
    );
}

#[test]
fn strtod_strtof_atof_match_glibc_bit_for_bit() {
    check_against_glibc(
        "strtod_check",
        &["strtod.c", "stdlib.c", "string.c", "heap.c", "errno.c"],
    );
}

#[test]
fn wide_string_functions_match_glibc_in_the_c_locale() {
    check_against_glibc(
        "wchar_check",
        &[
            "wchar.c", "strtod.c", "stdlib.c", "string.c", "heap.c", "ctype.c", "errno.c",
        ],
    );
}

#[test]
fn strerror_strdup_puts_match_glibc() {
    let out = check_against_glibc(
        "strerror_check",
        &["strerror.c", "string.c", "heap.c", "output.c"],
    );
    // Each output line twice: ours (device printf's formats), then glibc's.
    assert!(
        out.starts_with("puts line\nputs line\n\n\nxx\n\n"),
        "{out:?}"
    );
}

/// <stdio.h> formatting: every return value and every byte written equals glibc's (integers
/// under every flag combination, 100,000+ doubles over the whole range in the e, f, g and a
/// styles, truncation, `%n`).
#[test]
fn snprintf_matches_glibc() {
    let out = check_against_glibc("stdio_check", &["stdio.c"]);
    let checks: u64 = out
        .lines()
        .last()
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(checks > 1_000_000, "too few checks ran: {out}");
}

/// Builds `tests/{checker}.c` with library sources `sources` and runs it; returns its output.
fn check_against_glibc(checker: &str, sources: &[&str]) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ompcc_{checker}"));
    ompcc_stdlib::write_math_tree(&dir).expect("writing the library sources");
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join(checker);
    // -fno-builtin: the comparison must call glibc, not gcc's inline expansions.
    let build = Command::new("cc")
        .args(["-std=gnu11", "-O1", "-fno-builtin", "-Wall", "-I"])
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .arg(manifest.join(format!("tests/{checker}.c")))
        .args(sources.iter().map(|s| dir.join(s)))
        .arg("-lm")
        .output()
        .expect("running cc");
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let run = Command::new(&exe).output().expect("running the check");
    let out = String::from_utf8_lossy(&run.stdout);
    eprint!("{out}");
    assert!(run.status.success(), "{out}");
    assert!(out.contains(" 0 mismatches"), "{out}");
    out.into_owned()
}
