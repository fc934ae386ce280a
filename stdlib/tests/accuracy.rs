//! Host accuracy test of the device math library: builds `tests/accuracy.c` with the
//! library's C sources and glibc's libm (`cc -O2`), runs it, checks every function against
//! its stated ulp bound and prints the table; with `OMPCC_RECORD_ACCURACY=1` it also records
//! the table in `ACCURACY.md` (between the table markers).
//!
//! Every row the driver prints must have a bound here and every bound must be measured, so
//! neither a new function nor a dropped one goes unnoticed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `(row, bound)`: the largest allowed error in ulps against the higher-precision reference
/// (the true error, since glibc itself is not always correctly rounded). A bound of 0 means
/// bit-identical to glibc in the same precision (NaN payloads aside).
const BOUNDS: &[(&str, f64)] = &[
    ("sqrt", 0.0),
    ("sqrtf", 0.0),
    ("fabs", 0.0),
    ("fabsf", 0.0),
    ("floor", 0.0),
    ("floorf", 0.0),
    ("ceil", 0.0),
    ("ceilf", 0.0),
    ("trunc", 0.0),
    ("truncf", 0.0),
    ("rint", 0.0),
    ("rintf", 0.0),
    ("round", 0.0),
    ("roundf", 0.0),
    ("fmin", 0.0),
    ("fminf", 0.0),
    ("fmax", 0.0),
    ("fmaxf", 0.0),
    ("fdim", 0.0),
    ("fdimf", 0.0),
    ("copysign", 0.0),
    ("copysignf", 0.0),
    ("fmod", 0.0),
    ("fmodf", 0.0),
    ("remainder", 0.0),
    ("remainderf", 0.0),
    ("fma", 0.0),
    ("fmaf", 0.0),
    ("ldexp", 0.0),
    ("ldexpf", 0.0),
    ("frexp+modf", 0.0),
    ("frexpf+modff", 0.0),
    ("abs+labs+llabs", 0.0),
    ("lrint+lround+ilogb", 0.0),
    ("scalbn+scalbln", 0.0),
    ("nearbyint", 0.0),
    ("nearbyintf", 0.0),
    ("logb", 0.0),
    ("logbf", 0.0),
    ("nextafter", 0.0),
    ("nextafterf", 0.0),
    ("exp", 2.0),
    ("expf", 2.0),
    ("exp2", 2.0),
    ("exp2f", 2.0),
    ("expm1", 2.0),
    ("expm1f", 2.0),
    ("sinh", 2.0),
    ("sinhf", 2.0),
    ("cosh", 2.0),
    ("coshf", 2.0),
    ("tanh", 2.0),
    ("tanhf", 2.0),
    ("tgamma", 2.0),
    ("tgammaf", 2.0),
    ("erf", 2.0),
    ("erff", 2.0),
    ("erfc", 2.0),
    ("erfcf", 2.0),
    ("asin", 2.0),
    ("asinf", 2.0),
    ("acos", 2.0),
    ("acosf", 2.0),
    ("atan", 2.0),
    ("atanf", 2.0),
    ("atan2", 2.0),
    ("atan2f", 2.0),
    ("sin", 2.0),
    ("sinf", 2.0),
    ("cos", 2.0),
    ("cosf", 2.0),
    ("tan", 2.0),
    ("tanf", 2.0),
    ("log", 2.0),
    ("logf", 2.0),
    ("log2", 2.0),
    ("log2f", 2.0),
    ("log10", 2.0),
    ("log10f", 2.0),
    ("log1p", 2.0),
    ("log1pf", 2.0),
    ("asinh", 2.0),
    ("asinhf", 2.0),
    ("acosh", 2.0),
    ("acoshf", 2.0),
    ("atanh", 2.0),
    ("atanhf", 2.0),
    ("cbrt", 2.0),
    ("cbrtf", 2.0),
    ("pow", 2.0),
    ("powf", 2.0),
    ("hypot", 2.0),
    ("hypotf", 2.0),
];

struct Row {
    name: String,
    vs_glibc: f64,
    vs_ref: f64,
    inputs: u64,
    special_mismatches: u64,
    worst: String,
}

fn parse(out: &str) -> Vec<Row> {
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert!(f.len() >= 6, "malformed driver line: {l}");
            Row {
                name: f[0].to_string(),
                vs_glibc: f[1].parse().expect("ulp number"),
                vs_ref: f[2].parse().expect("ulp number"),
                inputs: f[3].parse().expect("input count"),
                special_mismatches: f[4].parse().expect("mismatch count"),
                worst: f[5..].join(" "),
            }
        })
        .collect()
}

/// Builds the driver from the library text as exposed to the compiler (written to a scratch
/// directory by `write_math_tree`), so the test measures exactly what ompcc compiles.
fn build_driver() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join("ompcc_math_tree");
    let sources = ompcc_stdlib::write_math_tree(&dir).expect("writing the math sources");
    let exe = tmp.join("ompcc_math_accuracy");
    let mut cmd = Command::new("cc");
    cmd.args(["-O2", "-std=c11", "-fno-math-errno", "-ffp-contract=off"])
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(&dir)
        .args(&sources);
    cmd.arg(root.join("tests/accuracy.c"))
        .arg("-lm")
        .arg("-o")
        .arg(&exe);
    let st = cmd.status().expect("running cc");
    assert!(st.success(), "cc failed to build the accuracy driver");
    exe
}

fn render(rows: &[Row]) -> String {
    let mut s = String::from(
        "| function | bound (ulp) | max ulp vs glibc | max ulp vs reference | inputs | special mismatches | worst input |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let bound = BOUNDS.iter().find(|(n, _)| *n == r.name).map(|b| b.1);
        s.push_str(&format!(
            "| {} | {} | {:.3} | {:.3} | {} | {} | `{}` |\n",
            r.name,
            bound.map_or("none".to_string(), |b| format!("{b}")),
            r.vs_glibc,
            r.vs_ref,
            r.inputs,
            r.special_mismatches,
            r.worst
        ));
    }
    s
}

#[test]
fn accuracy_against_glibc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = build_driver();
    let out = Command::new(&exe)
        .output()
        .expect("running accuracy driver");
    assert!(out.status.success(), "accuracy driver failed");
    let rows = parse(&String::from_utf8(out.stdout).expect("utf-8 output"));
    let table = render(&rows);
    println!("{table}");

    // Record the table in ACCURACY.md, keeping the hand-written text around the markers,
    // only when asked: a test run leaves the source tree as it found it (the worst inputs
    // of some rows differ from run to run).
    let md_path = root.join("ACCURACY.md");
    let md = std::fs::read_to_string(&md_path).expect("reading ACCURACY.md");
    let (begin, end) = ("<!-- table:begin -->\n", "<!-- table:end -->");
    let b = md.find(begin).expect("table begin marker") + begin.len();
    let e = md.find(end).expect("table end marker");
    let new_md = format!("{}{}{}", &md[..b], table, &md[e..]);
    if std::env::var_os("OMPCC_RECORD_ACCURACY").is_some() && new_md != md {
        std::fs::write(&md_path, new_md).expect("writing ACCURACY.md");
    }

    let mut failures = Vec::new();
    for r in &rows {
        assert!(r.inputs >= 100_000, "{}: only {} inputs", r.name, r.inputs);
        if r.special_mismatches != 0 {
            failures.push(format!(
                "{}: {} inputs where NaN-ness or the sign of a zero or infinity differs from glibc",
                r.name, r.special_mismatches
            ));
        }
        match BOUNDS.iter().find(|(n, _)| *n == r.name) {
            None => failures.push(format!("{}: no bound stated", r.name)),
            Some((_, bound)) => {
                let exceeded = if *bound == 0.0 {
                    r.vs_glibc > 0.0 || r.vs_ref > 0.0
                } else {
                    r.vs_ref > *bound
                };
                if exceeded {
                    failures.push(format!(
                        "{}: {:.3} ulp vs glibc, {:.3} vs reference, bound {bound} (worst input {})",
                        r.name, r.vs_glibc, r.vs_ref, r.worst
                    ));
                }
            }
        }
    }
    for (n, _) in BOUNDS {
        if !rows.iter().any(|r| r.name == *n) {
            failures.push(format!("{n}: bound stated but not measured"));
        }
    }
    assert!(
        failures.is_empty(),
        "accuracy failures:\n{}",
        failures.join("\n")
    );
}
