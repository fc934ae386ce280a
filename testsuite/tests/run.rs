//! The run tests (`testsuite/run/*.c`, OpenMP target programs): every program is built with
//! `gcc -fopenmp -foffload=disable` (the reference) and with `ompcc -fopenmp` at -O0..-O3; the
//! ompcc builds run on the PTX emulator (`OMPCC_DEVICE=emu`, each level) and on the host
//! fallback (`OMPCC_DEVICE=host`, -O2), and every output must equal the reference's. The -O2
//! device code is also emitted as PTX and assembled by ptxas for several architectures, and the
//! emulator runs must show that at least one kernel really launched on the emulator.
//!
//! Programs are found by scanning the folder. Every check of every program runs (nothing stops
//! at the first failure), and one test reports all failures at the end as a table with the
//! first differing line, then the details. `OMPCC_RUN_FILTER=text` restricts the build-and-run
//! test to programs whose file name contains `text`. `OMPCC_RUN_DEVICE=cuda` runs the per-level
//! builds on a GPU instead of the emulator (for machines that have one; the launch check then
//! requires the CUDA device). For such a machine, which builds the suite elsewhere and runs the
//! test binary there: `OMPCC_RUN_DIR` names the folder of programs (default: this checkout's
//! `testsuite/run`), `OMPCC_RUN_JOBS` how many programs run at once (default 2), and
//! `OMPCC_RUN_PTX_ARCHS=sm_80,sm_90` the architectures ptxas assembles for (a CUDA 13 ptxas has
//! no sm_70; CI keeps the default three).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use ompcc_testsuite::harness::{
    RunOutput, compare_outputs_within, find_ptxas, ompcc_binary, require_ptxas, run_with_timeout,
};

/// Programs run two at a time by default: the machines running the suite have few cores.
const WORKERS: usize = 2;
/// Relative tolerance for numbers printed with a fraction or an exponent: reductions combine
/// float partial sums in a schedule-dependent order, and device math functions may differ from
/// glibc's by an ulp or two. Integers and words always compare exactly.
const REL_TOL: f64 = 1e-6;
/// Every program finishes in well under a second on the emulator; the limit only catches hangs
/// (with room for a loaded machine).
const RUN_LIMIT: Duration = Duration::from_secs(30);
const COMPILE_LIMIT: Duration = Duration::from_secs(120);

const REF_CC: &str = "gcc";
/// The reference build: no offload compilation, strict warnings. gcc drops variables that only
/// appear in data-mapping directives before its unused-variable checks, so those two warnings
/// would flag correct programs.
const REF_FLAGS: &[&str] = &[
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
const LIBS: &[&str] = &["-lm"];
const OPT_LEVELS: &[&str] = &["-O0", "-O1", "-O2", "-O3"];
/// The level whose build also runs on the host fallback and whose PTX goes through ptxas.
const HOST_LEVEL: &str = "-O2";
const PTX_ARCHS: &[&str] = &["sm_70", "sm_80", "sm_90"];
/// The reference must print the same with these OpenMP thread counts (outputs may not depend on
/// the schedule).
const REF_THREADS: &[&str] = &["1", "3"];

/// Environment of every run. Idle OpenMP threads sleep instead of spinning (several programs run
/// at once on few cores), and the emulator uses one host thread, so the parallelism of the suite
/// is over programs. A block that issues 50M warp instructions (the largest program needs well
/// under 5M) is an endless loop: the emulator stops it with an error instead of running into
/// the time limit.
const RUN_ENV: &[(&str, &str)] = &[
    ("OMP_WAIT_POLICY", "passive"),
    ("OMP_NUM_THREADS", "2"),
    ("OMPCC_EMU_THREADS", "1"),
    ("OMPCC_EMU_MAX_BLOCK_INSTS", "50000000"),
];

const MIN_PROGRAMS: usize = 85;
const MAX_LINES: usize = 120;

/// Directives and API calls the suite as a whole must exercise (issue 5's list); each must
/// occur in at least one program, as written here (after collapsing spaces).
/// Programs that use a construct ompcc does not offload yet, with the diagnostic code it must
/// give for it. They stay in the suite (gcc's reference still has to run), but instead of
/// matching gcc, the ompcc build must fail with that code: an unsupported construct is a
/// clear error at the construct, never a wrong program. A program here that starts to build
/// fails the test, so the list shrinks as support lands.
const NOT_YET_SUPPORTED: &[(&str, &str)] = &[];

const REQUIRED_FEATURES: &[&str] = &[
    "#pragma omp target teams distribute parallel for",
    "#pragma omp target parallel for",
    "#pragma omp target teams loop",
    "#pragma omp target simd",
    "#pragma omp target parallel for simd",
    "#pragma omp target teams distribute simd",
    "#pragma omp target teams distribute parallel for simd",
    "#pragma omp target teams distribute map",
    "#pragma omp target parallel",
    "#pragma omp target map",
    "#pragma omp target data",
    "#pragma omp target enter data",
    "#pragma omp target exit data",
    "#pragma omp target update to",
    "#pragma omp target update from",
    "#pragma omp declare target",
    "#pragma omp end declare target",
    "#pragma omp declare target to(",
    "#pragma omp distribute parallel for",
    "#pragma omp distribute",
    "#pragma omp parallel for",
    "#pragma omp for",
    "#pragma omp simd",
    "#pragma omp loop",
    "#pragma omp single",
    "#pragma omp master",
    "#pragma omp masked",
    "#pragma omp critical",
    "#pragma omp barrier",
    "#pragma omp flush",
    "#pragma omp taskwait",
    "#pragma omp atomic read",
    "#pragma omp atomic write",
    "#pragma omp atomic update",
    "#pragma omp atomic capture",
    "#pragma omp atomic compare",
    "collapse(2)",
    "collapse(3)",
    "private(",
    "firstprivate(",
    "lastprivate(",
    "reduction(+:",
    "reduction(-:",
    "reduction(*:",
    "reduction(min:",
    "reduction(max:",
    "reduction(&:",
    "reduction(|:",
    "reduction(^:",
    "reduction(&&:",
    "reduction(||:",
    "num_teams(",
    "thread_limit(",
    "num_threads(",
    "schedule(static",
    "dist_schedule(static",
    "if(target",
    "device(",
    "nowait",
    "depend(",
    "defaultmap(",
    "map(always",
    "map(alloc",
    "map(release",
    "map(delete",
    "is_device_ptr(",
    "use_device_ptr(",
    "use_device_addr(",
    "has_device_addr(",
    "omp_target_alloc(",
    "omp_target_memcpy(",
    "omp_target_free(",
    "omp_target_is_present(",
    "omp_get_team_num()",
    "omp_get_thread_num()",
    "printf(",
];

fn run_dir() -> PathBuf {
    match std::env::var_os("OMPCC_RUN_DIR") {
        // Builds run in scratch folders: a relative folder is taken from here.
        Some(dir) => std::path::absolute(&dir).unwrap_or_else(|_| PathBuf::from(dir)),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("run"),
    }
}

/// Programs checked at once: `OMPCC_RUN_JOBS`, else [`WORKERS`].
fn workers() -> usize {
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

/// Every `*.c` file in `testsuite/run`, sorted by name.
fn all_programs() -> Vec<PathBuf> {
    let dir = run_dir();
    let entries = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the run-test folder {}: {e}", dir.display()));
    let mut programs: Vec<PathBuf> = entries
        .map(|e| e.expect("run-test folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    programs.sort();
    programs
}

/// All programs, or with `OMPCC_RUN_FILTER=text` those whose name contains `text`; a filter that
/// matches nothing fails, so a typo cannot turn the test into a silent pass.
fn selected_programs() -> Vec<PathBuf> {
    let all = all_programs();
    let Ok(filter) = std::env::var("OMPCC_RUN_FILTER") else {
        return all;
    };
    let chosen: Vec<PathBuf> = all
        .into_iter()
        .filter(|p| program_name(p).contains(&filter))
        .collect();
    assert!(
        !chosen.is_empty(),
        "OMPCC_RUN_FILTER={filter:?} matches no run-test program"
    );
    eprintln!(
        "OMPCC_RUN_FILTER={filter:?}: running {} program(s)",
        chosen.len()
    );
    chosen
}

fn program_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Collapses white space and drops it around `:` and after `(`, so `reduction(+ : s)` and
/// `reduction(+:s)` read the same.
fn normalize(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for word in line.split_whitespace() {
        if !out.is_empty() && !out.ends_with('(') && !word.starts_with(')') {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.replace(" :", ":").replace(": ", ":")
}

/// One failed check of one program.
struct Failure {
    program: String,
    /// Which build or run: `gcc`, `ompcc -O2 emu`, `ptxas sm_80`, ...
    config: String,
    /// One line for the table.
    summary: String,
    /// Everything useful for debugging (diagnostics, stderr tail, the differing lines).
    detail: String,
}

/// The failures of one program, collected as its checks run.
struct Checks<'a> {
    program: &'a str,
    failures: Vec<Failure>,
}

impl Checks<'_> {
    fn fail(&mut self, config: &str, summary: impl Into<String>, detail: impl Into<String>) {
        self.failures.push(Failure {
            program: self.program.to_string(),
            config: config.to_string(),
            summary: summary.into(),
            detail: detail.into(),
        });
    }
}

/// The last `max` lines of `text`: enough of a long stderr to see the error.
fn tail(text: &str, max: usize) -> String {
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

/// Runs a compiler with a time limit in the scratch folder (leftovers go away with it).
/// `Ok` holds its stdout; `Err` holds (summary, detail).
fn compile(cmd: &mut Command, scratch: &Path, tag: &str) -> Result<String, (String, String)> {
    let out = run_with_timeout(cmd.current_dir(scratch), scratch, tag, COMPILE_LIMIT)
        .map_err(|e| (format!("cannot start: {e}"), String::new()))?;
    if out.status.is_none_or(|s| !s.success()) {
        let first = out
            .stderr
            .lines()
            .find(|l| l.contains("error"))
            .map(str::trim)
            .map(str::to_string)
            .unwrap_or_else(|| first_line(&out.stderr));
        return Err((
            format!("build failed ({}): {first}", out.describe_end()),
            tail(&out.stderr, 30),
        ));
    }
    Ok(out.stdout)
}

fn run(exe: &Path, scratch: &Path, tag: &str, env: &[(&str, &str)]) -> Result<RunOutput, String> {
    let mut cmd = Command::new(exe);
    cmd.current_dir(scratch)
        .envs(RUN_ENV.iter().copied())
        .envs(env.iter().copied());
    run_with_timeout(&mut cmd, scratch, tag, RUN_LIMIT).map_err(|e| format!("cannot run: {e}"))
}

/// Checks a run of an ompcc build against the reference output: exit status 0 and the same
/// stdout within [`REL_TOL`]. Returns whether it passed.
fn check_run(checks: &mut Checks, config: &str, out: &RunOutput, reference: &str) -> bool {
    if out.status.and_then(|s| s.code()) != Some(0) {
        let err_line = out
            .stderr
            .lines()
            .find(|l| l.contains("error"))
            .map(str::trim)
            .map(str::to_string)
            .unwrap_or_else(|| first_line(&out.stderr));
        checks.fail(
            config,
            format!("{}: {err_line}", out.describe_end()),
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

/// The device the per-level builds run on: `emu` unless `OMPCC_RUN_DEVICE=cuda`.
fn run_device() -> &'static str {
    match std::env::var("OMPCC_RUN_DEVICE").as_deref() {
        Ok("cuda") => "cuda",
        Ok("emu") | Err(_) => "emu",
        Ok(other) => panic!("OMPCC_RUN_DEVICE={other:?}: expected emu or cuda"),
    }
}

/// The emulator really ran a kernel: with `OMPCC_INFO=1` the runtime names the device it
/// opened (`device 0: emu:0 (PTX emulator, ...)`) and logs each launch
/// (`FILE:L:C: launch 'KERNEL' on device 0: ...`).
fn check_emu_launch(checks: &mut Checks, config: &str, stderr: &str) {
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

/// A program of [`NOT_YET_SUPPORTED`]: the ompcc build must fail with diagnostic `code`.
fn check_not_yet_supported(
    checks: &mut Checks,
    program: &Path,
    scratch: &Path,
    ompcc: &Path,
    code: &str,
) {
    let mut cmd = Command::new(ompcc);
    cmd.args(["-fopenmp", HOST_LEVEL, "-c"])
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
fn check_program(
    program: &Path,
    scratch: &Path,
    ompcc: &Path,
    ptxas: Option<&Path>,
) -> Vec<Failure> {
    let name = program_name(program);
    let mut checks = Checks {
        program: &name,
        failures: Vec::new(),
    };

    // The reference: gcc's output, or the specification's where gcc 12 cannot build the
    // program (`NAME.expected` next to it; a gcc that builds it must print the same).
    let expected = program.with_extension("expected");
    let reference = if expected.exists() {
        let spec = match fs::read_to_string(&expected) {
            Ok(spec) => spec,
            Err(e) => {
                checks.fail(
                    "reference",
                    format!("cannot read {}: {e}", expected.display()),
                    "",
                );
                return checks.failures;
            }
        };
        if let Some(Some(gcc)) = gcc_reference(&mut checks, program, scratch, false)
            && let Some(diff) = compare_outputs_within(&spec, &gcc, REL_TOL)
        {
            checks.fail(
                "gcc",
                "gcc builds it and prints other than the .expected file",
                diff,
            );
        }
        spec
    } else {
        match gcc_reference(&mut checks, program, scratch, true) {
            Some(Some(out)) => out,
            _ => return checks.failures,
        }
    };
    if let Some((_, code)) = NOT_YET_SUPPORTED.iter().find(|(n, _)| *n == name) {
        check_not_yet_supported(&mut checks, program, scratch, ompcc, code);
        return checks.failures;
    }

    // ompcc at every level: the emulator, and the host fallback at HOST_LEVEL.
    for level in OPT_LEVELS {
        let exe = scratch.join(format!("ompcc{level}"));
        let mut cmd = Command::new(ompcc);
        cmd.args(["-fopenmp", level])
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
        if *level == HOST_LEVEL {
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

    // The device code as PTX: one kernel at least (every program has a target region), and
    // ptxas accepts it.
    let mut cmd = Command::new(ompcc);
    cmd.args(["-fopenmp", HOST_LEVEL, "--emit=ptx"])
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
    checks.failures
}

/// Runs [`check_program`] over the programs with [`workers`] threads; failures come back in
/// program order.
fn check_all(programs: &[PathBuf], ompcc: &Path, ptxas: Option<&Path>) -> Vec<Failure> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..workers() {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(program) = programs.get(i) else {
                        break;
                    };
                    let scratch = tempfile::tempdir().expect("create a scratch folder");
                    let failures = check_program(program, scratch.path(), ompcc, ptxas);
                    results
                        .lock()
                        .expect("result list lock")
                        .push((i, failures));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("result list lock");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().flat_map(|(_, f)| f).collect()
}

/// The failure report: a table (program, configuration, first line of the reason), then the
/// details of each failure.
fn render_report(total: usize, failures: &[Failure]) -> String {
    let programs: BTreeSet<&str> = failures.iter().map(|f| f.program.as_str()).collect();
    let mut out = format!(
        "{} of {total} run-test programs failed ({} failed checks):\n\n",
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

/// The suite is what issue 5 asks for: enough programs, each short, each listed in the README,
/// each with a target region, and together covering every required directive and clause.
#[test]
fn run_programs_cover_what_they_must() {
    let programs = all_programs();
    let readme = fs::read_to_string(run_dir().join("README.md")).unwrap_or_default();
    let mut problems = Vec::new();
    if programs.len() < MIN_PROGRAMS {
        problems.push(format!(
            "testsuite/run has {} programs, at least {MIN_PROGRAMS} are required",
            programs.len()
        ));
    }
    let mut all_text = String::new();
    for program in &programs {
        let name = program_name(program);
        let source = fs::read_to_string(program).unwrap_or_default();
        let lines = source.lines().count();
        if lines > MAX_LINES {
            problems.push(format!("{name}: {lines} lines, more than {MAX_LINES}"));
        }
        if !readme.contains(&format!("`{name}`")) {
            problems.push(format!("{name}: no line in testsuite/run/README.md"));
        }
        if !source
            .lines()
            .any(|l| normalize(l).starts_with("#pragma omp target"))
        {
            problems.push(format!("{name}: no target construct"));
        }
        for line in source.lines() {
            all_text.push_str(&normalize(line));
            all_text.push('\n');
        }
    }
    for feature in REQUIRED_FEATURES {
        if !all_text.contains(&normalize(feature)) {
            problems.push(format!("no run-test program uses `{feature}`"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The point of the suite: every ompcc build of every program prints what gcc's build prints,
/// on the emulator at every optimization level and on the host fallback, and its PTX assembles.
#[test]
fn run_programs_match_gcc_on_emulator_and_host() {
    let programs = selected_programs();
    let ompcc = ompcc_binary();
    let ptxas = find_ptxas();
    if ptxas.is_none() {
        assert!(
            !require_ptxas(),
            "ptxas is required (OMPCC_REQUIRE_PTXAS=1) but was found neither on PATH nor in the \
             nvidia.cuda_nvcc Python package"
        );
        eprintln!("note: ptxas not found; the PTX of the run tests is not assembled");
    }
    let start = Instant::now();
    let failures = check_all(&programs, &ompcc, ptxas.as_deref());
    eprintln!(
        "run tests: {} programs checked in {:.1} s",
        programs.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{}",
        render_report(programs.len(), &failures)
    );
}
