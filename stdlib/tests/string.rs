//! Host test of the device library's <string.h> functions: builds `tests/string_check.c`
//! with `string/string.c` (the exact text the device compiles) and glibc, and runs it; every
//! result and every byte written must equal glibc's.

use std::process::Command;

#[test]
fn string_functions_match_glibc() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ompcc_string_check");
    ompcc_stdlib::write_math_tree(&dir).expect("writing the library sources");
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join("string_check");
    // -fno-builtin: the comparison must call glibc, not gcc's inline expansions.
    let build = Command::new("cc")
        .args(["-std=gnu11", "-O1", "-fno-builtin", "-Wall", "-I"])
        .arg(&dir)
        .arg("-o")
        .arg(&exe)
        .arg(manifest.join("tests/string_check.c"))
        .arg(dir.join("string.c"))
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
}
