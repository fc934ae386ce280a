//! Checking OpenMP target programs against gcc, shared by the run tests (`tests/run.rs`,
//! `testsuite/run`) and the data-planning programs (`tests/plan.rs`, `testsuite/plan`): every
//! program is built with `gcc -fopenmp -foffload=disable` (the reference, run with two thread
//! counts that must agree) and with `ompcc -fopenmp` at the suite's -O levels; each ompcc build
//! runs on the PTX emulator (`OMPCC_DEVICE=emu`, or `cuda` with `OMPCC_RUN_DEVICE=cuda`) and
//! the suite's host level also on the host fallback (`OMPCC_DEVICE=host`); every output must
//! equal the reference's, and the device runs must show a kernel launch. Optionally the device
//! code of the host level is emitted as PTX and assembled by ptxas.
//!
//! Invariants: every check of every program runs (nothing stops at the first failure, except
//! that a program whose reference fails is not built by ompcc), failures come back in program
//! order, and nothing here panics on a program's behavior: a failed build or run is a
//! [`Failure`] row in the report.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use crate::harness::{RunOutput, compare_outputs_within, run_with_timeout};

/// Programs run two at a time by default: the machines running the suites have few cores.
const WORKERS: usize = 2;
/// Relative tolerance for numbers printed with a fraction or an exponent: reductions combine
/// float partial sums in a schedule-dependent order, and device math functions may differ from
/// glibc's by an ulp or two. Integers and words always compare exactly.
const REL_TOL: f64 = 1e-6;
/// Every program finishes in a few seconds at most on the emulator; the limit only catches
/// hangs (with room for a loaded machine).
const RUN_LIMIT: Duration = Duration::from_secs(30);
const COMPILE_LIMIT: Duration = Duration::from_secs(120);

pub(crate) const REF_CC: &str = "gcc";
/// The reference build: no offload compilation, strict warnings. gcc drops variables that only
/// appear in data-mapping directives before its unused-variable checks, so those two warnings
/// would flag correct programs.
pub(crate) const REF_FLAGS: &[&str] = &[
    "-fopenmp",
    "-foffload=disable",
    "-std=gnu11",
    "-O2",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-variable",
    "-Wno-unused-parameter",
];
pub(crate) const LIBS: &[&str] = &["-lm"];
const PTX_ARCHS: &[&str] = &["sm_70", "sm_80", "sm_90"];
/// The reference must print the same with these OpenMP thread counts (outputs may not depend on
/// the schedule).
const REF_THREADS: &[&str] = &["1", "3"];

/// Environment of every run. Idle OpenMP threads sleep instead of spinning (several programs run
/// at once on few cores), and the emulator uses one host thread, so the parallelism of a suite
/// is over programs. A block that issues 50M warp instructions (the largest program needs well
/// under 5M) is an endless loop: the emulator stops it with an error instead of running into
/// the time limit.
const RUN_ENV: &[(&str, &str)] = &[
    ("OMP_WAIT_POLICY", "passive"),
    ("OMP_NUM_THREADS", "2"),
    ("OMPCC_EMU_THREADS", "1"),
    ("OMPCC_EMU_MAX_BLOCK_INSTS", "50000000"),
];

/// What a suite builds and runs for each of its programs.
pub struct Suite<'a> {
    /// The ompcc -O levels built and run on the device.
    pub levels: &'a [&'a str],
    /// The level whose build also runs on the host fallback (and whose PTX goes through ptxas).
    pub host_level: &'a str,
    /// Flags added to every ompcc build (after `-fopenmp` and the level).
    pub extra_flags: &'a [&'a str],
    /// Emit the host level's PTX, require a kernel in it, and assemble it with this ptxas.
    pub ptx: Ptx<'a>,
    /// Programs that must fail to build with a diagnostic code instead of matching gcc.
    pub not_yet_supported: &'a [(&'a str, &'a str)],
    /// Also build with `-fopenmp-plan-data` (device and host fallback at the host level) and
    /// build the annotated source (`--emit=annotated-c`) with gcc: the data planner never
    /// changes what a program prints.
    pub planned: bool,
}

/// Whether a suite checks the PTX of its programs.
pub enum Ptx<'a> {
    /// No PTX check.
    Skip,
    /// `--emit=ptx` must give a kernel; ptxas (when found) must accept it.
    Check(Option<&'a Path>),
}

/// One failed check of one program.
pub struct Failure {
    program: String,
    /// Which build or run: `gcc`, `ompcc -O2 emu`, `ptxas sm_80`, ...
    config: String,
    /// One line for the table.
    summary: String,
    /// Everything useful for debugging (diagnostics, stderr tail, the differing lines).
    detail: String,
}

/// The failures of one program, collected as its checks run.
pub(crate) struct Checks<'a> {
    pub(crate) program: &'a str,
    pub(crate) failures: Vec<Failure>,
}

impl Checks<'_> {
    pub(crate) fn fail(
        &mut self,
        config: &str,
        summary: impl Into<String>,
        detail: impl Into<String>,
    ) {
        self.failures.push(Failure {
            program: self.program.to_string(),
            config: config.to_string(),
            summary: summary.into(),
            detail: detail.into(),
        });
    }
}

/// Programs checked at once: `OMPCC_RUN_JOBS`, else [`WORKERS`].
pub(crate) fn workers() -> usize {
    match std::env::var("OMPCC_RUN_JOBS") {
        Ok(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .unwrap_or_else(|| panic!("OMPCC_RUN_JOBS={v:?}: expected a positive number")),
        Err(_) => WORKERS,
    }
}

/// The architectures ptxas assembles for: `OMPCC_RUN_PTX_ARCHS=a,b`, else [`PTX_ARCHS`].
fn ptx_archs() -> Vec<String> {
    match std::env::var("OMPCC_RUN_PTX_ARCHS") {
        Ok(v) => {
            let archs: Vec<String> = v
                .split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect();
            assert!(
                archs.iter().all(|a| a.starts_with("sm_")),
                "OMPCC_RUN_PTX_ARCHS={v:?}: expected a list like sm_80,sm_90"
            );
            archs
        }
        Err(_) => PTX_ARCHS.iter().map(|a| a.to_string()).collect(),
    }
}

/// The device the per-level builds run on: `emu` unless `OMPCC_RUN_DEVICE=cuda`.
pub(crate) fn run_device() -> &'static str {
    match std::env::var("OMPCC_RUN_DEVICE").as_deref() {
        Ok("cuda") => "cuda",
        Ok("emu") | Err(_) => "emu",
        Ok(other) => panic!("OMPCC_RUN_DEVICE={other:?}: expected emu or cuda"),
    }
}

/// Every `*.c` file in `dir`, sorted by name.
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read the program folder {}: {e}", dir.display()));
    let mut programs: Vec<PathBuf> = entries
        .map(|e| e.expect("program folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    programs.sort();
    programs
}

/// `programs`, or with `{var}=text` (`OMPCC_RUN_FILTER`, ...) those whose name contains `text`;
/// a filter that matches nothing fails, so a typo cannot turn a test into a silent pass.
pub fn filtered(var: &str, all: Vec<PathBuf>) -> Vec<PathBuf> {
    let Ok(filter) = std::env::var(var) else {
        return all;
    };
    let chosen: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| program_name(p).contains(&filter))
        .collect();
    assert!(!chosen.is_empty(), "{var}={filter:?} matches no program");
    eprintln!("{var}={filter:?}: running {} program(s)", chosen.len());
    chosen
}

pub fn program_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The last `max` lines of `text`: enough of a long stderr to see the error.
pub(crate) fn tail(text: &str, max: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(max);
    lines[start..].join("\n")
}

/// The first line of `text` that is not empty, for the summary column.
fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

/// The first line of `stderr` that mentions an error, else its first line.
fn error_line(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .map(|l| l.trim().to_string())
        .unwrap_or_else(|| first_line(stderr))
}

/// Runs a compiler with a time limit in the scratch folder (leftovers go away with it).
/// `Ok` holds its stdout; `Err` holds (summary, detail).
pub(crate) fn compile(
    cmd: &mut Command,
    scratch: &Path,
    tag: &str,
) -> Result<String, (String, String)> {
    let out = run_with_timeout(cmd.current_dir(scratch), scratch, tag, COMPILE_LIMIT)
        .map_err(|e| (format!("cannot start: {e}"), String::new()))?;
    if out.status.is_none_or(|s| !s.success()) {
        return Err((
            format!(
                "build failed ({}): {}",
                out.describe_end(),
                error_line(&out.stderr)
            ),
            tail(&out.stderr, 30),
        ));
    }
    Ok(out.stdout)
}

pub(crate) fn run(
    exe: &Path,
    scratch: &Path,
    tag: &str,
    env: &[(&str, &str)],
) -> Result<RunOutput, String> {
    let mut cmd = Command::new(exe);
    cmd.current_dir(scratch)
        .envs(RUN_ENV.iter().copied())
        .envs(env.iter().copied());
    run_with_timeout(&mut cmd, scratch, tag, RUN_LIMIT).map_err(|e| format!("cannot run: {e}"))
}

/// Checks a run of an ompcc build against the reference output: exit status 0 and the same
/// stdout within [`REL_TOL`]. Returns whether it passed.
pub(crate) fn check_run(
    checks: &mut Checks,
    config: &str,
    out: &RunOutput,
    reference: &str,
) -> bool {
    if out.status.and_then(|s| s.code()) != Some(0) {
        checks.fail(
            config,
            format!("{}: {}", out.describe_end(), error_line(&out.stderr)),
            format!(
                "stderr (tail):\n{}\nstdout (tail):\n{}",
                tail(&out.stderr, 20),
                tail(&out.stdout, 10)
            ),
        );
        return false;
    }
    if let Some(diff) = compare_outputs_within(reference, &out.stdout, REL_TOL) {
        let summary = diff.lines().map(str::trim).collect::<Vec<_>>().join(" ");
        checks.fail(config, format!("output differs: {summary}"), diff);
        return false;
    }
    true
}

/// The emulator really ran a kernel: with `OMPCC_INFO=1` the runtime names the device it
/// opened (`device 0: emu:0 (PTX emulator, ...)`) and logs each launch
/// (`FILE:L:C: launch 'KERNEL' on device 0: ...`).
pub(crate) fn check_emu_launch(checks: &mut Checks, config: &str, stderr: &str) {
    let opened = format!("ompcc-rt: info: device 0: {}", run_device());
    let emu_opened = stderr.lines().any(|l| l.starts_with(&opened));
    let launched = stderr.lines().any(|l| {
        l.starts_with("ompcc-rt: info: ") && l.contains(": launch '") && l.contains("on device 0:")
    });
    if !(emu_opened && launched) {
        let what = if emu_opened {
            "no kernel launch logged on the emulator (target regions ran on the host)"
        } else {
            "the emulator device was never opened (OMPCC_INFO=1 logged no `device 0: emu`)"
        };
        checks.fail(
            config,
            what,
            format!("stderr (tail):\n{}", tail(stderr, 20)),
        );
    }
}

/// A program of `not_yet_supported`: the ompcc build must fail with diagnostic `code`.
fn check_not_yet_supported(
    checks: &mut Checks,
    suite: &Suite,
    program: &Path,
    scratch: &Path,
    ompcc: &Path,
    code: &str,
) {
    let mut cmd = Command::new(ompcc);
    cmd.args(["-fopenmp", suite.host_level, "-c"])
        .args(suite.extra_flags)
        .arg(program)
        .arg("-o")
        .arg(scratch.join("unsupported.o"));
    match compile(&mut cmd, scratch, "unsupported") {
        Ok(_) => checks.fail(
            "ompcc (not yet supported)",
            "it builds now: remove it from NOT_YET_SUPPORTED so its output is checked",
            "",
        ),
        Err((summary, detail)) if !detail.contains(&format!("[{code}]")) => checks.fail(
            "ompcc (not yet supported)",
            format!("expected diagnostic {code}, got: {summary}"),
            detail,
        ),
        Err(_) => {}
    }
}

/// Assembles `ptx` with ptxas for every architecture of [`ptx_archs`].
fn check_ptxas(checks: &mut Checks, ptxas: &Path, ptx: &str, scratch: &Path) {
    let file = scratch.join("prog.ptx");
    if let Err(e) = fs::write(&file, ptx) {
        checks.fail("ptxas", format!("cannot write the PTX: {e}"), "");
        return;
    }
    for arch in &ptx_archs() {
        let mut cmd = Command::new(ptxas);
        cmd.args(["-arch", arch, "-o"])
            .arg(scratch.join(format!("prog.{arch}.cubin")))
            .arg(&file);
        if let Err((summary, detail)) = compile(&mut cmd, scratch, &format!("ptxas-{arch}")) {
            checks.fail(&format!("ptxas {arch}"), summary, detail);
        }
    }
}

/// The reference build's output (gcc, run with every count of [`REF_THREADS`], which must
/// agree), or `None` after recording why there is none.
/// The reference output: gcc's, or the specification's where gcc 12 cannot build the program
/// (`NAME.expected` next to it; a gcc that builds it must print the same).
pub(crate) fn reference_output(
    checks: &mut Checks,
    program: &Path,
    scratch: &Path,
) -> Option<String> {
    let expected = program.with_extension("expected");
    if !expected.exists() {
        return gcc_reference(checks, program, scratch, true)?;
    }
    let spec = match fs::read_to_string(&expected) {
        Ok(spec) => spec,
        Err(e) => {
            checks.fail(
                "reference",
                format!("cannot read {}: {e}", expected.display()),
                "",
            );
            return None;
        }
    };
    if let Some(Some(gcc)) = gcc_reference(checks, program, scratch, false)
        && let Some(diff) = compare_outputs_within(&spec, &gcc, REL_TOL)
    {
        checks.fail(
            "gcc",
            "gcc builds it and prints other than the .expected file",
            diff,
        );
    }
    Some(spec)
}

/// gcc's output for `program`, run with every thread count of [`REF_THREADS`] (which must
/// agree). `None`: a check failed (recorded). `Some(None)`: gcc cannot build it, recorded as a
/// failure only when `required`.
fn gcc_reference(
    checks: &mut Checks,
    program: &Path,
    scratch: &Path,
    required: bool,
) -> Option<Option<String>> {
    let ref_exe = scratch.join("ref");
    let mut cmd = Command::new(REF_CC);
    cmd.args(REF_FLAGS)
        .arg(program)
        .arg("-o")
        .arg(&ref_exe)
        .args(LIBS);
    if let Err((summary, detail)) = compile(&mut cmd, scratch, "gcc") {
        if !required {
            return Some(None);
        }
        checks.fail("gcc", summary, detail);
        return None;
    }
    let mut reference: Option<String> = None;
    for threads in REF_THREADS {
        let config = format!("gcc OMP_NUM_THREADS={threads}");
        let out = match run(&ref_exe, scratch, "ref", &[("OMP_NUM_THREADS", threads)]) {
            Ok(out) => out,
            Err(e) => {
                checks.fail(&config, e, "");
                return None;
            }
        };
        if out.status.and_then(|s| s.code()) != Some(0) {
            checks.fail(&config, out.describe_end(), tail(&out.stderr, 20));
            return None;
        }
        match &reference {
            None => reference = Some(out.stdout),
            Some(first) if *first != out.stdout => {
                let diff = compare_outputs_within(first, &out.stdout, 0.0).unwrap_or_default();
                checks.fail(
                    &config,
                    "reference output depends on the thread count",
                    diff,
                );
                return None;
            }
            Some(_) => {}
        }
    }
    Some(reference)
}

/// Every check of one program; returns its failures (empty when it passes).
fn check_program(suite: &Suite, program: &Path, scratch: &Path, ompcc: &Path) -> Vec<Failure> {
    let name = program_name(program);
    let mut checks = Checks {
        program: &name,
        failures: Vec::new(),
    };
    let Some(reference) = reference_output(&mut checks, program, scratch) else {
        return checks.failures;
    };
    if let Some((_, code)) = suite.not_yet_supported.iter().find(|(n, _)| *n == name) {
        check_not_yet_supported(&mut checks, suite, program, scratch, ompcc, code);
        return checks.failures;
    }

    // ompcc at every level: the device, and the host fallback at the host level.
    for level in suite.levels {
        let exe = scratch.join(format!("ompcc{level}"));
        let mut cmd = Command::new(ompcc);
        cmd.args(["-fopenmp", level])
            .args(suite.extra_flags)
            .arg(program)
            .arg("-o")
            .arg(&exe)
            .args(LIBS);
        if let Err((summary, detail)) = compile(&mut cmd, scratch, &format!("ompcc{level}")) {
            checks.fail(&format!("ompcc {level}"), summary, detail);
            continue;
        }
        let device = run_device();
        let config = format!("ompcc {level} {device}");
        match run(
            &exe,
            scratch,
            &format!("{device}{level}"),
            &[("OMPCC_DEVICE", device), ("OMPCC_INFO", "1")],
        ) {
            Ok(out) => {
                if check_run(&mut checks, &config, &out, &reference) {
                    check_emu_launch(&mut checks, &config, &out.stderr);
                }
            }
            Err(e) => checks.fail(&config, e, ""),
        }
        if *level == suite.host_level {
            let config = format!("ompcc {level} host");
            match run(
                &exe,
                scratch,
                &format!("host{level}"),
                &[("OMPCC_DEVICE", "host")],
            ) {
                Ok(out) => {
                    check_run(&mut checks, &config, &out, &reference);
                }
                Err(e) => checks.fail(&config, e, ""),
            }
        }
    }

    if suite.planned {
        check_planned(&mut checks, suite, program, scratch, ompcc, &reference);
    }

    // The device code as PTX: one kernel at least (every program has a target region), and
    // ptxas accepts it.
    if let Ptx::Check(ptxas) = suite.ptx {
        let mut cmd = Command::new(ompcc);
        cmd.args(["-fopenmp", suite.host_level, "--emit=ptx"])
            .args(suite.extra_flags)
            .arg(program);
        match compile(&mut cmd, scratch, "emit-ptx") {
            Err((summary, detail)) => checks.fail("ompcc --emit=ptx", summary, detail),
            Ok(ptx) => {
                if !ptx.lines().any(|l| l.contains(".entry")) {
                    checks.fail(
                        "ompcc --emit=ptx",
                        "the PTX has no .entry (no kernel for the target regions)",
                        tail(&ptx, 20),
                    );
                }
                if let Some(ptxas) = ptxas {
                    check_ptxas(&mut checks, ptxas, &ptx, scratch);
                }
            }
        }
    }
    checks.failures
}

/// The planned build on the device and the host fallback, and gcc on the annotated source.
fn check_planned(
    checks: &mut Checks<'_>,
    suite: &Suite,
    program: &Path,
    scratch: &Path,
    ompcc: &Path,
    reference: &str,
) {
    let level = suite.host_level;
    let exe = scratch.join("planned");
    let mut cmd = Command::new(ompcc);
    cmd.args(["-fopenmp", "-fopenmp-plan-data", level])
        .args(suite.extra_flags)
        .arg(program)
        .arg("-o")
        .arg(&exe)
        .args(LIBS);
    let device = run_device();
    if let Err((summary, detail)) = compile(&mut cmd, scratch, "planned") {
        checks.fail(
            &format!("ompcc {level} -fopenmp-plan-data"),
            summary,
            detail,
        );
    } else {
        for (dev, launched) in [(device, true), ("host", false)] {
            let config = format!("ompcc {level} -fopenmp-plan-data {dev}");
            match run(
                &exe,
                scratch,
                &format!("planned-{dev}"),
                &[("OMPCC_DEVICE", dev), ("OMPCC_INFO", "1")],
            ) {
                Ok(out) => {
                    if check_run(checks, &config, &out, reference) && launched {
                        check_emu_launch(checks, &config, &out.stderr);
                    }
                }
                Err(e) => checks.fail(&config, e, ""),
            }
        }
    }
    check_annotated(checks, ompcc, &[], program, scratch, reference);
}

/// `ompcc -fopenmp FLAGS --emit=annotated-c` of `program` is portable OpenMP: gcc builds it
/// and it prints the reference.
pub(crate) fn check_annotated(
    checks: &mut Checks<'_>,
    ompcc: &Path,
    flags: &[&str],
    program: &Path,
    scratch: &Path,
    reference: &str,
) {
    let annotated = scratch.join("annotated.c");
    let mut cmd = Command::new(ompcc);
    cmd.arg("-fopenmp")
        .args(flags)
        .arg("--emit=annotated-c")
        .arg(program)
        .arg("-o")
        .arg(&annotated);
    let config = format!(
        "gcc on ompcc {}--emit=annotated-c",
        flags.iter().map(|f| format!("{f} ")).collect::<String>()
    );
    let config = config.as_str();
    if let Err((summary, detail)) = compile(&mut cmd, scratch, "annotate") {
        checks.fail(config, summary, detail);
        return;
    }
    // gcc 12 cannot build a program whose reference is a `.expected` file, annotated or not
    if program.with_extension("expected").exists() {
        return;
    }
    // the program's own `#include "..."` files are next to it
    let exe = scratch.join("annotated");
    let mut cmd = Command::new(REF_CC);
    cmd.args(REF_FLAGS)
        .arg("-I")
        .arg(program.parent().unwrap_or(Path::new(".")))
        .arg(&annotated)
        .arg("-o")
        .arg(&exe)
        .args(LIBS);
    if let Err((summary, detail)) = compile(&mut cmd, scratch, "gcc-annotated") {
        checks.fail(config, summary, detail);
        return;
    }
    match run(&exe, scratch, "annotated", &[]) {
        Ok(out) => {
            check_run(checks, config, &out, reference);
        }
        Err(e) => checks.fail(config, e, ""),
    }
}

/// Runs `job` on every program, each in its own scratch folder, with `workers` threads; the
/// results come back in program order.
pub fn map_programs<T: Send>(
    programs: &[PathBuf],
    workers: usize,
    job: impl Fn(&Path, &Path) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(program) = programs.get(i) else {
                        break;
                    };
                    let scratch = tempfile::tempdir().expect("create a scratch folder");
                    let result = job(program, scratch.path());
                    results.lock().expect("result list lock").push((i, result));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("result list lock");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Runs every check of `suite` over the programs with [`workers`] threads; failures come back
/// in program order.
pub fn check_all(suite: &Suite, programs: &[PathBuf], ompcc: &Path) -> Vec<Failure> {
    map_programs(programs, workers(), |program, scratch| {
        check_program(suite, program, scratch, ompcc)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The failure report: a table (program, configuration, first line of the reason), then the
/// details of each failure. `what` names the programs (`run-test programs`).
pub fn render_report(what: &str, total: usize, failures: &[Failure]) -> String {
    let programs: BTreeSet<&str> = failures.iter().map(|f| f.program.as_str()).collect();
    let mut out = format!(
        "{} of {total} {what} failed ({} failed checks):\n\n",
        programs.len(),
        failures.len()
    );
    let pw = failures.iter().map(|f| f.program.len()).max().unwrap_or(0);
    let cw = failures.iter().map(|f| f.config.len()).max().unwrap_or(0);
    for f in failures {
        let summary: String = f.summary.chars().take(160).collect();
        let _ = writeln!(out, "{:pw$}  {:cw$}  {summary}", f.program, f.config);
    }
    out.push_str("\nDetails:\n");
    for f in failures {
        let _ = writeln!(
            out,
            "\n== {} [{}]\n{}",
            f.program,
            f.config,
            f.detail.trim_end()
        );
    }
    out
}
