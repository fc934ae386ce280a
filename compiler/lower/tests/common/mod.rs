//! Shared helpers for the lowering tests: C text -> parse -> check -> lower -> verify -> -O1 ->
//! verify, and running lowered functions in the IR interpreter.

#![allow(dead_code)]

use ompcc_diag::{Diagnostic, Severity};
use ompcc_ir::interp::{DataValue, Interpreter};
use ompcc_ir::{Module, verify_module};
use ompcc_lower::{FunctionSelection, LowerOptions, lower_functions};

/// Parses, checks (no errors allowed) and lowers `src` with `which`.
pub fn lower_with(src: &str, which: &FunctionSelection) -> (Module, Vec<Diagnostic>) {
    let (tu, _sm, pd) = ompcc_syntax::parse_translation_unit(src, "test.c");
    let tu = tu.unwrap_or_else(|| panic!("parser gave up: {pd:?}"));
    assert!(
        pd.iter().all(|d| d.severity != Severity::Error),
        "parse errors: {pd:?}"
    );
    let (typed, sd) = ompcc_sema::check(&tu);
    let errs: Vec<_> = sd.iter().filter(|d| d.is_error()).collect();
    assert!(errs.is_empty(), "sema errors: {errs:?}");
    let (m, d) = lower_functions(&tu, &typed, which, &LowerOptions::default());
    if let Err(e) = verify_module(&m) {
        panic!("verifier failed after lowering: {e:?}\n{}", m);
    }
    (m, d)
}

/// Lowers every function; no diagnostics allowed. Returns the module before and after -O1,
/// both verified.
pub fn lower_ok(src: &str) -> (Module, Module) {
    try_lower(src).unwrap_or_else(|e| panic!("{e}"))
}

/// `lower_ok` returning failures as messages.
pub fn try_lower(src: &str) -> Result<(Module, Module), String> {
    let (m, d) = lower_with(src, &FunctionSelection::All);
    let errs: Vec<_> = d
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            format!(
                "{} at {:?}: {}",
                d.message,
                d.primary.span,
                src.get(d.primary.span.range()).unwrap_or("")
            )
        })
        .collect();
    if !errs.is_empty() {
        return Err(format!("lowering errors: {errs:?}"));
    }
    // The text form must read back (names like `.str` and `f.calls` included).
    let text = m.to_string();
    let back = ompcc_ir::parse_module(&text)
        .map_err(|e| format!("printed IR does not parse: {e:?}\n{text}"))?;
    if back.to_string() != text {
        return Err("printed IR does not round-trip".into());
    }
    let mut o1 = m.clone();
    ompcc_opt::optimize(&mut o1, 1, true).map_err(|e| format!("-O1 failed: {e:?}\n{m}"))?;
    verify_module(&o1).map_err(|e| format!("verifier failed after -O1: {e:?}"))?;
    Ok((m, o1))
}

/// `m` after the pipeline of optimization level `level`, verified after every pass.
pub fn optimized(m: &Module, level: u8) -> Module {
    let mut o = m.clone();
    if let Err(e) = ompcc_opt::optimize(&mut o, level, true) {
        panic!("-O{level} failed: {e}\n{m}");
    }
    o
}

/// `optimized` without fp contraction, for bit-exact comparison with the host's build (x86-64
/// gcc does not fuse without `-mfma`).
pub fn optimized_exact(m: &Module, level: u8) -> Module {
    let mut o = m.clone();
    let mut knobs = ompcc_opt::Knobs::for_level(level);
    knobs.fp_contract = ompcc_opt::FpContract::Off;
    if let Err(e) = ompcc_opt::optimize_with(&mut o, level, knobs, true) {
        panic!("-O{level} failed: {e}\n{m}");
    }
    o
}

/// The error messages of lowering `src` (all functions).
pub fn lower_errors(src: &str) -> Vec<String> {
    let (_m, d) = lower_with(src, &FunctionSelection::All);
    d.iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

/// Calls `name` with no arguments in the interpreter.
pub fn run(m: &Module, name: &str) -> DataValue {
    let mut it = Interpreter::new(m).expect("interpreter");
    let r = it
        .call(name, &[])
        .unwrap_or_else(|e| panic!("{name} failed: {e:?}\n{}", m));
    r[0]
}

/// The value as an i64 (integers) or its bits' float value.
pub fn as_i64(v: DataValue) -> i64 {
    match v {
        DataValue::Int(_, i) => i,
        DataValue::Float(_, f) => f as i64,
        DataValue::Ptr(_, p) => p as i64,
    }
}

pub fn as_f64(v: DataValue) -> f64 {
    match v {
        DataValue::Int(_, i) => i as f64,
        DataValue::Float(_, f) => f,
        DataValue::Ptr(_, p) => p as f64,
    }
}

/// Runs `test()` of snippet `src` in the IR interpreter at -O0..-O3 and compares each result
/// with the host compiler's (floats within 1e-9 relative); returns one line per mismatch.
pub fn mismatches_with_host(name: &str, src: &str, float: bool) -> Vec<String> {
    let (o0, o1) = match try_lower(src) {
        Ok(m) => m,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let expect = gcc_value(src, float);
    let (o2, o3) = (optimized(&o0, 2), optimized(&o0, 3));
    let mut failures = Vec::new();
    for (level, m) in [("-O0", &o0), ("-O1", &o1), ("-O2", &o2), ("-O3", &o3)] {
        let v = run(m, "test");
        let ok = if float {
            let e: f64 = expect.parse().unwrap_or(f64::NAN);
            let got = as_f64(v);
            (got - e).abs() <= 1e-9 * e.abs().max(1.0)
        } else {
            expect.parse::<i64>().ok() == Some(as_i64(v))
        };
        if !ok {
            failures.push(format!("{name} {level}: got {v:?}, cc says {expect}"));
        }
    }
    failures
}

/// Builds `src` with the host C compiler plus a main printing `test()` and returns the
/// output (the oracle for the interpreter results).
pub fn gcc_value(src: &str, float: bool) -> String {
    let main = if float {
        "int printf(const char *, ...);\nint main(void) { printf(\"%.17g\\n\", (double)test()); return 0; }\n"
    } else {
        "int printf(const char *, ...);\nint main(void) { printf(\"%lld\\n\", (long long)test()); return 0; }\n"
    };
    host_output(&format!("{src}\n{main}"))
}

/// Builds a whole program with the host C compiler at -O0, runs it and returns its output.
pub fn host_output(program: &str) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let c = dir.path().join("t.c");
    let exe = dir.path().join("t");
    std::fs::write(&c, program).expect("write");
    let out = std::process::Command::new("cc")
        .arg("-O0")
        .arg("-w")
        .arg("-o")
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("cc must be installed for the oracle");
    assert!(
        out.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = std::process::Command::new(&exe).output().expect("run");
    String::from_utf8_lossy(&run.stdout).trim().to_string()
}
