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
//!
//! Every program is also built with `-fopenmp-plan-data` (device and host fallback) and its
//! annotated source (`--emit=annotated-c`) with gcc: the data planner never changes what a
//! program prints.
//!
//! The building, running and comparing is `ompcc_testsuite::programs`, shared with
//! `tests/plan.rs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ompcc_testsuite::harness::{find_ptxas, ompcc_binary, require_ptxas};
use ompcc_testsuite::programs::{
    Ptx, Suite, c_files, check_all, filtered, program_name, render_report,
};

const OPT_LEVELS: &[&str] = &["-O0", "-O1", "-O2", "-O3"];
/// The level whose build also runs on the host fallback and whose PTX goes through ptxas.
const HOST_LEVEL: &str = "-O2";

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

/// Every `*.c` file in `testsuite/run`, sorted by name.
fn all_programs() -> Vec<PathBuf> {
    c_files(&run_dir())
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
    let programs = filtered("OMPCC_RUN_FILTER", all_programs());
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
    let suite = Suite {
        levels: OPT_LEVELS,
        host_level: HOST_LEVEL,
        extra_flags: &[],
        ptx: Ptx::Check(ptxas.as_deref()),
        not_yet_supported: NOT_YET_SUPPORTED,
        planned: true,
    };
    let start = Instant::now();
    let failures = check_all(&suite, &programs, &ompcc);
    eprintln!(
        "run tests: {} programs checked in {:.1} s",
        programs.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{}",
        render_report("run-test programs", programs.len(), &failures)
    );
}
