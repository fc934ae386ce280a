//! The C corpus (`testsuite/corpus/*.c`): every program is built with the system `cc` (the
//! reference) and with `ompcc`, both are run, and their stdout and exit codes must agree.
//!
//! Programs are found by scanning the folder; there is no hand-kept list. A program that must
//! exit with a code other than 0 says so in a line `// expect-exit: N`. Every failure is
//! collected and reported at the end, so one run shows all of them. `OMPCC_CORPUS_FILTER=text`
//! restricts the build-and-run tests to programs whose name contains `text`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use ompcc_testsuite::harness::{RunOutput, compare_outputs, ompcc_binary, run_with_timeout};
use ompcc_testsuite::programs::{c_files, filtered, map_programs, program_name};

/// Builds run two at a time: the machines running the suite have few cores.
const WORKERS: usize = 2;
const RUN_LIMIT: Duration = Duration::from_secs(30);
const COMPILE_LIMIT: Duration = Duration::from_secs(120);
/// Flags every reference build uses (gcc: no offload compilation of the fallback code).
const REF_CC_FLAGS: &[&str] = &["-fopenmp", "-foffload=disable"];
/// The standard the corpus is written in, with every warning an error.
const STRICT_FLAGS: &[&str] = &["-std=gnu11", "-Wall", "-Wextra", "-Werror"];
const LIBS: &[&str] = &["-lm"];

/// Environment of every program run. Idle OpenMP threads sleep instead of spinning: on a loaded
/// machine with few cores, spinning threads of several concurrent runs starve each other and
/// a 0.3 s program takes a minute. It changes no output.
const RUN_ENV: &[(&str, &str)] = &[("OMP_WAIT_POLICY", "passive")];

/// Headers that the corpus as a whole must include at least once.
const REQUIRED_HEADERS: &[&str] = ompcc_syntax::STANDARD_HEADERS;

const MIN_PROGRAMS: usize = 45;
const MIN_LINES: usize = 40;
const MAX_LINES: usize = 250;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every `*.c` file in the corpus folder, sorted by name.
fn corpus_programs() -> Vec<PathBuf> {
    c_files(&corpus_dir())
}

/// The programs the build-and-run tests use: all of them, or with `OMPCC_CORPUS_FILTER=text`
/// only those whose file name contains `text` (for quick iteration on one failure).
fn selected_programs() -> Vec<PathBuf> {
    filtered("OMPCC_CORPUS_FILTER", corpus_programs())
}

/// The exit code a program documents with `// expect-exit: N`, else 0.
fn expected_exit(source: &str) -> Result<i32, String> {
    match source
        .lines()
        .find_map(|l| l.trim().strip_prefix("// expect-exit:"))
    {
        None => Ok(0),
        Some(n) => n
            .trim()
            .parse()
            .map_err(|e| format!("bad `// expect-exit:` line ({n:?}): {e}")),
    }
}

/// Runs `job` on every program with [`WORKERS`] threads and returns the collected failures,
/// in program order.
fn for_each_program(
    programs: &[PathBuf],
    job: impl Fn(&Path, &Path) -> Result<(), String> + Sync,
) -> Vec<String> {
    map_programs(programs, WORKERS, |program, scratch| {
        job(program, scratch)
            .err()
            .map(|msg| format!("{}: {msg}", program_name(program)))
    })
    .into_iter()
    .flatten()
    .collect()
}

fn report(what: &str, total: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} of {total} programs failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Runs a compiler command (with a time limit, so a hanging compiler fails instead of hanging the
/// suite) and turns a failure into a message with its diagnostics.
fn compile(cmd: &mut Command, what: &str, output: &Path, scratch: &Path) -> Result<(), String> {
    // Compilers run in the scratch folder: anything they leave behind is removed with it.
    let out = run_with_timeout(cmd.current_dir(scratch), scratch, "compile", COMPILE_LIMIT)
        .map_err(|e| format!("{what}: cannot start the compiler: {e}"))?;
    if out.status.is_none_or(|s| !s.success()) {
        return Err(format!(
            "{what} failed ({}):\n{}",
            out.describe_end(),
            out.stderr
        ));
    }
    if !output.is_file() {
        return Err(format!(
            "{what} reported success but wrote no executable at {}",
            output.display()
        ));
    }
    Ok(())
}

fn run_program(exe: &Path, scratch: &Path, tag: &str) -> Result<RunOutput, String> {
    let mut cmd = Command::new(exe);
    cmd.current_dir(scratch)
        .envs(RUN_ENV.iter().copied())
        .env("OMP_NUM_THREADS", "2");
    run_with_timeout(&mut cmd, scratch, tag, RUN_LIMIT)
        .map_err(|e| format!("cannot run {tag} build: {e}"))
}

/// Checks that a reference run ended with the documented exit code.
fn check_exit(run: &RunOutput, expected: i32, tag: &str) -> Result<(), String> {
    if run.status.and_then(|s| s.code()) == Some(expected) {
        Ok(())
    } else {
        Err(format!(
            "{tag} build: {} (expected exit code {expected})\nstderr:\n{}",
            run.describe_end(),
            run.stderr
        ))
    }
}

#[test]
fn corpus_covers_what_it_must() {
    let programs = corpus_programs();
    let mut problems = Vec::new();
    if programs.len() < MIN_PROGRAMS {
        problems.push(format!(
            "the corpus has {} programs, at least {MIN_PROGRAMS} are required",
            programs.len()
        ));
    }
    let readme = fs::read_to_string(corpus_dir().join("README.md")).unwrap_or_default();
    let mut included = Vec::new();
    for program in &programs {
        let name = program_name(program);
        let source = fs::read_to_string(program).unwrap_or_default();
        let lines = source.lines().count();
        if !(MIN_LINES..=MAX_LINES).contains(&lines) {
            problems.push(format!(
                "{name}: {lines} lines, outside {MIN_LINES}..={MAX_LINES}"
            ));
        }
        if !readme.contains(&format!("`{name}`")) {
            problems.push(format!("{name}: no line in corpus/README.md"));
        }
        if let Err(msg) = expected_exit(&source) {
            problems.push(format!("{name}: {msg}"));
        }
        for line in source.lines() {
            let rest = line.trim_start().strip_prefix('#').map(str::trim_start);
            if let Some(header) = rest
                .and_then(|r| r.strip_prefix("include"))
                .and_then(|r| r.trim().strip_prefix('<'))
                .and_then(|r| r.split('>').next())
            {
                included.push(header.to_string());
            }
        }
    }
    for header in REQUIRED_HEADERS {
        if !included.iter().any(|h| h == header) {
            problems.push(format!("no corpus program includes <{header}>"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The corpus itself must be clean C: strict warnings as errors, the documented exit code, and
/// the same output at -O0 with one thread as at -O2 with two (so outputs do not depend on
/// scheduling or on optimization).
#[test]
fn corpus_reference_builds_are_clean_and_deterministic() {
    let programs = selected_programs();
    let failures = for_each_program(&programs, |program, scratch| {
        let source = fs::read_to_string(program).map_err(|e| e.to_string())?;
        let expected = expected_exit(&source)?;
        let mut outputs = Vec::new();
        for (opt, threads) in [("-O0", "1"), ("-O2", "2")] {
            let exe = scratch.join(format!("strict{opt}"));
            let mut cmd = Command::new("cc");
            cmd.args(REF_CC_FLAGS)
                .args(STRICT_FLAGS)
                .arg(opt)
                .arg(program)
                .arg("-o")
                .arg(&exe)
                .args(LIBS);
            compile(&mut cmd, &format!("cc {opt} (strict)"), &exe, scratch)?;
            let tag = format!("cc {opt}, {threads} thread(s)");
            let mut run = Command::new(&exe);
            run.current_dir(scratch)
                .envs(RUN_ENV.iter().copied())
                .env("OMP_NUM_THREADS", threads);
            let out = run_with_timeout(&mut run, scratch, &format!("strict{opt}"), RUN_LIMIT)
                .map_err(|e| format!("cannot run {tag}: {e}"))?;
            check_exit(&out, expected, &tag)?;
            outputs.push(out.stdout);
        }
        // Exact equality: both builds use the same compiler and libm.
        if outputs[0] != outputs[1] {
            let diff = compare_outputs(&outputs[0], &outputs[1]).unwrap_or_default();
            return Err(format!(
                "-O0/1 thread and -O2/2 threads print different output: {diff}"
            ));
        }
        Ok(())
    });
    report("strict reference builds", programs.len(), &failures);
}

/// The point of the corpus: `ompcc` builds every program into an executable that behaves like
/// the `cc` build.
#[test]
fn corpus_ompcc_matches_cc() {
    let programs = selected_programs();
    let ompcc = ompcc_binary();
    let failures = for_each_program(&programs, |program, scratch| {
        let source = fs::read_to_string(program).map_err(|e| e.to_string())?;
        let expected = expected_exit(&source)?;

        let ref_exe = scratch.join("ref");
        let mut cmd = Command::new("cc");
        cmd.args(REF_CC_FLAGS)
            .arg("-O2")
            .arg(program)
            .arg("-o")
            .arg(&ref_exe)
            .args(LIBS);
        compile(&mut cmd, "reference build (cc)", &ref_exe, scratch)?;

        let ompcc_exe = scratch.join("ompcc");
        let mut cmd = Command::new(&ompcc);
        cmd.args(["-fopenmp", "-O2"])
            .arg(program)
            .arg("-o")
            .arg(&ompcc_exe)
            .args(LIBS);
        compile(&mut cmd, "ompcc build", &ompcc_exe, scratch)?;

        let reference = run_program(&ref_exe, scratch, "cc")?;
        check_exit(&reference, expected, "cc")?;
        let actual = run_program(&ompcc_exe, scratch, "ompcc")?;
        if actual.status.and_then(|s| s.code()) != Some(expected) {
            return Err(format!(
                "ompcc build: {} (the cc build exits with {expected})\nstderr:\n{}",
                actual.describe_end(),
                actual.stderr
            ));
        }
        if let Some(diff) = compare_outputs(&reference.stdout, &actual.stdout) {
            return Err(format!("stdout differs from the cc build at {diff}"));
        }
        Ok(())
    });
    report("ompcc vs cc", programs.len(), &failures);
}

/// ompcc's own frontend parses and type-checks every program with no diagnostic at all
/// (`--emit=ast` shows the frontend's verdict; a normal build would hand a unit the frontend
/// rejects to the host compiler, which could hide a frontend bug).
#[test]
fn corpus_passes_ompccs_frontend_cleanly() {
    let programs = selected_programs();
    let ompcc = ompcc_binary();
    let failures = for_each_program(&programs, |program, _scratch| {
        let out = Command::new(&ompcc)
            .args(["-fopenmp", "--emit=ast"])
            .arg(program)
            .output()
            .map_err(|e| format!("cannot run ompcc: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() || !stderr.is_empty() {
            return Err(format!("frontend diagnostics:\n{stderr}"));
        }
        Ok(())
    });
    report("ompcc frontend (parse + sema)", programs.len(), &failures);
}
