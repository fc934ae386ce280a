//! Every standard header (and omp.h, pthread.h, unistd.h) preprocessed by the host compiler
//! must parse without a diagnostic, in gnu11 and c11 modes.

use std::process::Command;

const HEADERS: &[&str] = ompcc_syntax::STANDARD_HEADERS;

fn preprocess(std: &str, body: &str) -> String {
    let dir =
        std::env::temp_dir().join(format!("ompcc-syntax-headers-{}-{std}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("all.c");
    let mut text: String = HEADERS
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    text.push_str(body);
    std::fs::write(&src, text).expect("write");
    let out = Command::new("cc")
        .args(["-E", "-fopenmp", &format!("-std={std}")])
        .arg(&src)
        .output()
        .expect("cc must be installed to run the header test");
    assert!(
        out.status.success(),
        "cc -E failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn check(std: &str) {
    // Some uses of the headers' macros too, so macro bodies (assert, tgmath, ...) are parsed.
    let body = r#"
int use_headers(double x, int n, char **argv) {
    assert(n > 0);
    double y = sqrt(x) + fabs(x) + cabs(x + 1.0 * I);
    y += sin(x) + pow(x, 2);
    int c = isalpha(argv[0][0]) && toupper('a') == 'A';
    uint64_t big = UINT64_MAX; int32_t m = INT32_MIN;
    printf("%d %" PRId64 " %f\n", c, (int64_t)big, y);
    atomic_int ai = ATOMIC_VAR_INIT(0); atomic_fetch_add(&ai, 1);
    va_list ap; (void)ap;
    size_t off = offsetof(struct tm, tm_year);
    bool b = true; alignas(16) char buf[16]; (void)buf;
    #pragma omp parallel for reduction(+: y)
    for (int i = 0; i < n; i++) y += omp_get_thread_num();
    return (int)y + m + (int)off + b + errno + (int)strlen(argv[0]);
}
"#;
    let text = preprocess(std, body);
    let start = std::time::Instant::now();
    let (tu, sm, diags) = ompcc_syntax::parse_translation_unit(&text, "all.c");
    eprintln!(
        "-std={std}: parsed {} bytes in {:?}",
        text.len(),
        start.elapsed()
    );
    let shown: Vec<String> = diags
        .iter()
        .take(10)
        .map(|d| {
            format!(
                "{}: {} | {}",
                sm.describe(d.primary.span),
                d.message,
                sm.pp_line_text(sm.pp_line(d.primary.span.lo))
            )
        })
        .collect();
    assert!(
        diags.is_empty(),
        "{} diagnostics in -std={std}:\n{}",
        diags.len(),
        shown.join("\n")
    );
    let tu = tu.expect("tree");
    assert!(tu.items.len() > 1000, "only {} items", tu.items.len());
}

#[test]
fn all_headers_gnu11() {
    check("gnu11");
}

#[test]
fn all_headers_c11() {
    check("c11");
}
