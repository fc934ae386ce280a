//! Every standard header (and `<omp.h>`), preprocessed by the host compiler with
//! `cc -E -fopenmp`, must parse and type-check without any diagnostic. Requires `cc`.

mod common;

use std::process::Command;

const HEADERS: &[&str] = ompcc_syntax::STANDARD_HEADERS;

fn preprocess(src: &str) -> String {
    preprocess_with(src, &[])
}

fn preprocess_with(src: &str, flags: &[&str]) -> String {
    // one directory per call: the tests run in parallel
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ompcc-sema-hdr-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("h.c");
    std::fs::write(&file, src).unwrap();
    let out = Command::new("cc")
        .args(["-E", "-fopenmp"])
        .args(flags)
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
    let errs: Vec<String> = c
        .parse_diags
        .iter()
        .chain(&c.diags)
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
        for d in c.parse_diags.iter().chain(&c.diags).take(3) {
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

#[test]
fn headers_with_fortify_and_gnu_source() {
    // optimised builds with _FORTIFY_SOURCE expose the headers' inline wrappers around
    // __builtin___*_chk and __builtin_dynamic_object_size; _GNU_SOURCE adds the extensions
    let mut src = String::new();
    for h in HEADERS {
        src.push_str(&format!("#include <{h}>\n"));
    }
    src.push_str(
        "int use(char *b) { memcpy(b, \"abc\", 4); strcpy(b, \"x\"); \
         snprintf(b, 8, \"%d\", 1); return printf(\"%s\\n\", b) + (int)strlen(b); }\n",
    );
    for flags in [
        &["-O2", "-D_FORTIFY_SOURCE=2"][..],
        &["-O2", "-D_GNU_SOURCE", "-D_FORTIFY_SOURCE=3"][..],
    ] {
        let text = preprocess_with(&src, flags);
        let c = common::check_src(&text);
        let diags: Vec<String> = c
            .parse_diags
            .iter()
            .chain(&c.diags)
            .take(10)
            .map(|d| {
                format!(
                    "{} {}: `{}`",
                    d.code,
                    d.message,
                    common::span_text(&text, d)
                )
            })
            .collect();
        assert!(diags.is_empty(), "{flags:?}:\n{}", diags.join("\n"));
    }
}
