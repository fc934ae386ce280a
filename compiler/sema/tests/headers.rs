//! Every standard header (and `<omp.h>`), preprocessed by the host compiler with
//! `cc -E -fopenmp`, must parse and type-check without errors. Requires `cc`.

mod common;

use std::process::Command;

const HEADERS: &[&str] = &[
    "assert.h",
    "complex.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdalign.h",
    "stdarg.h",
    "stdatomic.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "stdnoreturn.h",
    "string.h",
    "tgmath.h",
    "time.h",
    "uchar.h",
    "wchar.h",
    "wctype.h",
    "unistd.h",
    "sys/time.h",
    "sys/types.h",
    "pthread.h",
    "omp.h",
];

fn preprocess(src: &str) -> String {
    // one directory per call: the tests run in parallel
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ompcc-sema-hdr-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("h.c");
    std::fs::write(&file, src).unwrap();
    let out = Command::new("cc")
        .args(["-E", "-fopenmp"])
        .arg(&file)
        .output()
        .expect("this test needs the host C compiler `cc`");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn all_standard_headers_check_without_errors() {
    let mut src = String::new();
    for h in HEADERS {
        src.push_str(&format!("#include <{h}>\n"));
    }
    let text = preprocess(&src);
    let c = common::check_src(&text);
    let errs: Vec<String> = common::errors(&c.parse_diags)
        .into_iter()
        .chain(common::errors(&c.diags))
        .take(20)
        .map(|d| {
            format!(
                "{} {}: `{}`",
                d.code,
                d.message,
                common::span_text(&text, d)
            )
        })
        .collect();
    assert!(errs.is_empty(), "errors:\n{}", errs.join("\n"));
}

#[test]
fn headers_one_by_one() {
    // each header alone, so a header that only works after another one is caught too
    let mut failures = Vec::new();
    for h in HEADERS {
        let text = preprocess(&format!("#include <{h}>\n"));
        let c = common::check_src(&text);
        for d in common::errors(&c.parse_diags)
            .into_iter()
            .chain(common::errors(&c.diags))
            .take(3)
        {
            failures.push(format!(
                "{h}: {} {}: `{}`",
                d.code,
                d.message,
                common::span_text(&text, d)
            ));
        }
    }
    assert!(failures.is_empty(), "errors:\n{}", failures.join("\n"));
}
