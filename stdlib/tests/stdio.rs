//! Host test of the device library's <stdio.h> formatting functions: builds
//! `tests/stdio_check.c` with `stdio.c` (the exact text the device compiles) and glibc, and
//! runs it; every return value and every byte written must equal glibc's (integers under
//! every flag combination, 100,000+ doubles over the whole range in the e, f, g and a
//! styles, truncation, `%n`).

use std::process::Command;

#[test]
fn snprintf_matches_glibc() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ompcc_stdio_check");
    ompcc_stdlib::write_math_tree(&dir).expect("writing the library sources");
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join("stdio_check");
    // -fno-builtin: the comparison must call glibc, not gcc's folding of snprintf.
    let build = Command::new("cc")
        .args(["-std=gnu11", "-O1", "-fno-builtin", "-Wall", "-I"])
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .arg(manifest.join("tests/stdio_check.c"))
        .arg(dir.join("stdio.c"))
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
    let checks: u64 = out
        .lines()
        .last()
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(checks > 1_000_000, "too few checks ran: {out}");
    assert!(out.contains(" 0 mismatches"), "{out}");
}
