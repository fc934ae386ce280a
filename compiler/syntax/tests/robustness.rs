//! Robustness: mutated C sources never make the parser panic or run long.
//!
//! Seeds are `tests/seeds/*.c` plus, when present, `testsuite/corpus/*.c`. A deterministic
//! xorshift generator applies token deletions, duplications, swaps, insertions of tricky
//! tokens, random bytes and truncations; every mutant must parse (with or without
//! diagnostics) without panicking, and in time linear in its size.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

use ompcc_syntax::{parse_translation_unit, print_ast};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INSERTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "typedef",
    "int",
    "*",
    "=",
    "if",
    "else",
    ":",
    "?",
    "...",
    "struct",
    "\"s\"",
    "'c'",
    "0x1p3",
    "1e",
    "__attribute__((x))",
    "_Atomic(",
    "T",
    "case",
    "\n#pragma omp parallel for\n",
    "\n#pragma omp target map(to: a[0:n])\n",
    "\n#pragma omp\n",
    "\n# 3 \"x.c\" 2\n",
    "#",
    "@",
    "\\",
    "/*",
    "\"",
    "'",
    "a[1:]",
    "sizeof",
    "__extension__",
];

fn seeds() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        root.join("tests/seeds"),
        root.join("../../testsuite/corpus"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if f.extension().is_some_and(|e| e == "c")
                && let Ok(text) = std::fs::read_to_string(&f)
            {
                out.push((f.display().to_string(), text));
            }
        }
    }
    out
}

/// Token boundaries of a C text: a crude splitter is enough to make plausible mutants.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

fn mutate(text: &str, rng: &mut XorShift) -> String {
    let toks = tokens(text);
    if toks.is_empty() {
        return text.to_owned();
    }
    let mut s = text.as_bytes().to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let toks = tokens(std::str::from_utf8(&s).unwrap_or(""));
        if toks.is_empty() {
            break;
        }
        let (a, b) = toks[rng.below(toks.len())];
        match rng.below(7) {
            0 => {
                s.drain(a..b);
            }
            1 => {
                let t = s[a..b].to_vec();
                s.splice(a..a, t.into_iter().chain([b' ']));
            }
            2 => {
                let (c, d) = toks[rng.below(toks.len())];
                if d <= a || b <= c {
                    let (x, y) = if a < c {
                        ((a, b), (c, d))
                    } else {
                        ((c, d), (a, b))
                    };
                    let first = s[x.0..x.1].to_vec();
                    let second = s[y.0..y.1].to_vec();
                    s.splice(y.0..y.1, first);
                    s.splice(x.0..x.1, second);
                }
            }
            3 | 4 => {
                let ins = INSERTS[rng.below(INSERTS.len())];
                s.splice(a..a, ins.bytes().chain([b' ']));
            }
            5 => {
                let at = rng.below(s.len());
                s[at] = (rng.next() & 0x7f) as u8;
            }
            _ => {
                s.truncate(rng.below(s.len() + 1));
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

fn parse_checked(name: &str, text: &str) -> Duration {
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let (tu, _, diags) = parse_translation_unit(text, name);
        // The printer must cope with whatever the recovery produced.
        if let Some(tu) = tu {
            let _ = print_ast(&tu).len();
        }
        diags.len()
    }));
    if result.is_err() {
        let path = std::env::temp_dir().join("ompcc-syntax-crash.c");
        let _ = std::fs::write(&path, text);
        panic!(
            "parser panicked on a mutant of {name}; input saved to {}",
            path.display()
        );
    }
    start.elapsed()
}

#[test]
fn seeds_parse_cleanly() {
    let seeds = seeds();
    assert!(seeds.len() >= 3, "seed files missing");
    for (name, text) in &seeds {
        let (tu, sm, diags) = parse_translation_unit(text, name);
        let msgs: Vec<String> = diags
            .iter()
            .map(|d| format!("{}: {}", sm.describe(d.primary.span), d.message))
            .collect();
        assert!(msgs.is_empty(), "{}", msgs.join("\n"));
        assert!(tu.is_some());
    }
}

#[test]
fn ten_thousand_mutants_never_panic() {
    let seeds = seeds();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut slowest = Duration::ZERO;
    let mut total_bytes = 0usize;
    let budget = Instant::now();
    for i in 0..10_000 {
        let (name, text) = &seeds[i % seeds.len()];
        let m = mutate(text, &mut rng);
        total_bytes += m.len();
        let t = parse_checked(name, &m);
        slowest = slowest.max(t);
    }
    // Each mutant is a few KiB: anything near a second means super-linear behaviour.
    assert!(
        slowest < Duration::from_millis(500),
        "slowest mutant took {slowest:?}"
    );
    assert!(total_bytes > 10_000);
    assert!(
        budget.elapsed() < Duration::from_secs(60),
        "took {:?}",
        budget.elapsed()
    );
}

#[test]
fn parse_time_is_linear() {
    // Many functions, long expressions, deep-but-bounded nesting and many errors.
    let unit = "typedef int T%; int f%(T% *a, int n) { int s = 0; for (int i = 0; i < n; i++) { if (a[i] > 0) s += a[i] * 2 + (a[i] << 1); else s -= ((((a[i])))); } return s ? s : -1; }\nint g% = 1 + ;\n";
    let build =
        |n: usize| -> String { (0..n).map(|i| unit.replace('%', &i.to_string())).collect() };
    let small = build(500);
    let large = build(4000);
    let t_small = parse_checked("small.c", &small).max(Duration::from_micros(200));
    let t_large = parse_checked("large.c", &large);
    let ratio = t_large.as_secs_f64() / t_small.as_secs_f64();
    assert!(
        ratio < 24.0,
        "8x the input took {ratio:.1}x the time ({t_small:?} -> {t_large:?})"
    );
    // Unbalanced openers and long token runs without a `;` must not hang either.
    let opens = "(".repeat(50_000) + &"{".repeat(50_000) + &"[".repeat(50_000);
    let t = parse_checked("opens.c", &opens);
    assert!(t < Duration::from_secs(5), "{t:?}");
    let junk = "a b ".repeat(50_000);
    let t = parse_checked("junk.c", &junk);
    assert!(t < Duration::from_secs(5), "{t:?}");
}

#[test]
fn deep_nesting_is_reported_not_overflowed() {
    let deep = format!("int x = {}1{};", "(".repeat(100_000), ")".repeat(100_000));
    let (_, _, diags) = parse_translation_unit(&deep, "deep.c");
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("nested too deeply")),
        "{diags:?}"
    );
    let chain = format!("int y = 1{};", " + 1".repeat(200_000));
    let (_, _, diags) = parse_translation_unit(&chain, "chain.c");
    assert!(
        diags.iter().any(|d| d.message.contains("too long")),
        "{diags:?}"
    );
    // Just below the limits the tree is built, printed and dropped on a test thread's stack.
    let ok = format!(
        "int z = {}1{}{};",
        "(".repeat(250),
        ")".repeat(250),
        " + 1".repeat(4000)
    );
    let (tu, _, diags) = parse_translation_unit(&ok, "ok.c");
    assert!(diags.is_empty(), "{diags:?}");
    assert!(print_ast(&tu.expect("tree")).len() > 4000);
    let elses = format!("void f(int x) {{ {} ; }}", "if (x) x++; else ".repeat(2000));
    let (tu, _, diags) = parse_translation_unit(&elses, "else.c");
    assert!(diags.is_empty(), "{diags:?}");
    assert!(print_ast(&tu.expect("tree")).len() > 2000);
}

#[test]
fn mutated_system_headers_never_panic() {
    // Real declarations from glibc exercise error recovery inside attributes, asm labels and
    // nested declarators; each mutant is ~100 KiB, so fewer of them.
    let src = std::env::temp_dir().join(format!("ompcc-robust-{}.c", std::process::id()));
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <omp.h>\n",
    )
    .expect("write");
    let out = std::process::Command::new("cc")
        .args(["-E", "-fopenmp"])
        .arg(&src)
        .output()
        .expect("cc must be installed");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..60 {
        let m = mutate(&text, &mut rng);
        let t = parse_checked("headers.c", &m);
        assert!(t < Duration::from_secs(2), "{t:?}");
    }
}
