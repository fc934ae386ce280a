//! Host test of the device library's <complex.h> functions and complex `*`/`/` routines:
//! builds `tests/complex_check.c` with the library sources (the exact text the device
//! compiles), glibc and libgcc, runs it and checks the bounds below.
//!
//! Bounds: `__ompcc___mul[sd]c3` and `__ompcc___div[sd]c3` are bit-identical to libgcc's
//! `__mul[sd]c3` / `__div[sd]c3` (NaN payloads aside), special values included; the
//! elementary functions are within [`bound`] ulps of glibc, measured normwise (in ulps of
//! the larger part of glibc's result), with the same infinities and NaNs on the special
//! inputs tested. Measured (4000 inputs each): cabs/carg/cproj/csqrt <= 1, cexp/csin/ccos/
//! csinh/ccosh/clog <= 3, ctan/ctanh <= 6, cpow <= 10.5 (`exp(w log z)`, as glibc computes it,
//! so both carry the amplified error of `log`).

use std::process::Command;

/// Worst allowed normwise error of `name` against glibc, in ulps of the result's precision.
fn bound(name: &str) -> f64 {
    match name.trim_end_matches('f') {
        "ctan" | "ctanh" => 8.0,
        "cpow" => 16.0,
        _ => 4.0,
    }
}

#[test]
fn complex_functions_match_glibc_and_libgcc() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ompcc_complex_check");
    let sources = ompcc_stdlib::write_math_tree(&dir).expect("writing the library sources");
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join("complex_check");
    let build = Command::new("cc")
        .args([
            "-std=gnu11",
            "-O2",
            "-fno-math-errno",
            "-ffp-contract=off",
            "-I",
        ])
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .arg(manifest.join("tests/complex_check.c"))
        // The math and complex sources only (the others are checked by tests/libc.rs).
        .args(sources.iter().filter(|p| {
            ![
                "string.c",
                "ctype.c",
                "stdlib.c",
                "strtod.c",
                "errno.c",
                "strerror.c",
                "wchar.c",
                "output.c",
            ]
            .iter()
            .any(|s| p.ends_with(s))
        }))
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
    let mut rows = 0;
    for line in out.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with(' ') {
            continue;
        }
        let [name, _, kind, value] = f[..] else {
            panic!("bad line: {line}");
        };
        let v: f64 = value.parse().expect("a number");
        match kind {
            "BITS" => assert_eq!(v, 0.0, "{name}: {v} results differ from libgcc"),
            "ULP" => assert!(v <= bound(name), "{name}: {v} ulps > {}", bound(name)),
            _ => panic!("bad line: {line}"),
        }
        rows += 1;
    }
    assert_eq!(rows, 4 + 4 + 2 * 11, "every function must be measured");
}
