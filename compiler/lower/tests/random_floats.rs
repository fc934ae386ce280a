//! Differential test of floating-point lowering: random expressions over `float`, `double`
//! and integer variables (arithmetic, compares, `?:`, conversions between the float types and
//! from integers, compound assignment) run in the IR interpreter before and after -O1 must
//! give bit-identical results to the host C compiler's build (x86-64 SSE: every operation
//! rounds to its type, no contraction at -O0).

mod common;
use common::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const VARS: &[(&str, &str)] = &[
    ("x", "float"),
    ("y", "double"),
    ("z", "float"),
    ("w", "double"),
    ("n", "int"),
    ("u", "unsigned"),
    ("l", "long"),
];

fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.below(4) == 0 {
        return match r.below(4) {
            0 => format!("{}.{}", r.below(100), r.below(1000)),
            1 => format!("{}.{}f", r.below(100), r.below(1000)),
            _ => VARS[r.below(VARS.len() as u64) as usize].0.to_string(),
        };
    }
    let a = expr(r, depth - 1);
    let b = expr(r, depth - 1);
    match r.below(11) {
        0 => format!("({a} + {b})"),
        1 => format!("({a} - {b})"),
        2 => format!("({a} * {b})"),
        3 => format!("({a} / (double)({b}))"),
        4 => format!("({a} < {b})"),
        5 => format!("({a} != {b})"),
        6 => format!("(-({a}))"),
        7 => format!("((float)({a}))"),
        8 => format!("((double)({a}))"),
        9 => format!("(!({a}))"),
        _ => {
            let c = expr(r, depth - 1);
            format!("({a} ? {b} : {c})")
        }
    }
}

fn program(r: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    for k in 0..n {
        s.push_str(&format!("double test{k}(void) {{\n"));
        for (v, t) in VARS {
            // no negative value reaches `unsigned` (that conversion is undefined)
            let init = r.below(4000) as i64 - if *t == "unsigned" { 0 } else { 2000 };
            s.push_str(&format!("    {t} {v} = {init} / 8.0;\n"));
        }
        s.push_str("    double r = 0;\n");
        for _ in 0..4 {
            let (v, _) = VARS[r.below(4) as usize];
            let op = ["+=", "-=", "*=", "="][r.below(4) as usize];
            s.push_str(&format!("    {v} {op} {};\n", expr(r, 2)));
            s.push_str(&format!("    r = r * 0.5 + ({});\n", expr(r, 3)));
        }
        s.push_str("    return r + x + y + z + w;\n}\n");
    }
    s
}

#[test]
fn random_float_expressions_match_the_host_compiler() {
    const N: usize = 40;
    let seed = std::env::var("OMPCC_RANDOM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xf10a7);
    let mut rng = Rng(seed);
    let src = program(&mut rng, N);
    let (o0, o1) = lower_ok(&src);
    let (o2, o3) = (optimized_exact(&o0, 2), optimized_exact(&o0, 3));
    let mut driver = String::from(
        "int printf(const char *, ...);\n\
         int main(void) {\n    union { double d; unsigned long long u; } v;\n",
    );
    for k in 0..N {
        driver.push_str(&format!("    v.d = test{k}(); printf(\"%llu\\n\", v.u);\n"));
    }
    driver.push_str("    return 0;\n}\n");
    if let Some(p) = std::env::var_os("OMPCC_DUMP") {
        let _ = std::fs::write(p, format!("{src}\n{driver}"));
    }
    let expect = host_output(&format!("{src}\n{driver}"));
    let lines: Vec<&str> = expect.lines().collect();
    assert_eq!(lines.len(), N, "host output: {expect}");
    let mut bad = Vec::new();
    for (k, want) in lines.iter().enumerate() {
        let want: u64 = want.parse().unwrap_or(0);
        for (lvl, m) in [("-O0", &o0), ("-O1", &o1), ("-O2", &o2), ("-O3", &o3)] {
            let got = as_f64(run(m, &format!("test{k}")));
            let same = got.to_bits() == want || (got.is_nan() && f64::from_bits(want).is_nan());
            if !same {
                bad.push(format!(
                    "test{k} {lvl}: got {got:e}, cc says {:e}",
                    f64::from_bits(want)
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}\n{src}", bad.join("\n"));
}
