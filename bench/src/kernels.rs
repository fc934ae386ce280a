//! `kernels`: the OpenMP target programs of `bench/kernels/`, built with the release `ompcc`
//! per optimization level and run on the PTX emulator (or a GPU), as Markdown tables.
//!
//! Per program and level it reports the emulator's warp-level dynamic instructions and
//! global-memory sectors per request (`OMPCC_PROFILE=json`), the PTX instruction count and
//! `ld.local`/`st.local` count of `ompcc --emit=ptx`, and registers and spill bytes from
//! `ptxas -v` for sm_80; on `--device cuda` the kernel time. Every run's output is checked
//! against the same program built by the host compiler with offloading disabled, and
//! `OMP_TARGET_OFFLOAD=MANDATORY` makes a silent host fallback a failure, so every number in
//! a table comes from a correct device run. It also times `ompcc -O2 -c` with the host
//! compiler's share measured by a timing wrapper (`OMPCC_HOST_CC`), and with `--ablate`
//! builds the -O2 pipeline with each pass removed in turn (`--passes=`).
//!
//! Usage: `cargo run --release -p ompcc-bench --bin kernels -- [--levels 0,1,2,3]
//! [--device emu|cuda] [--ablate] [--only a,b] [--large] [--out FILE] [--ompcc PATH]
//! [--compile-reps N] [--keep DIR] [--kernels DIR]` (`--kernels`: another folder of programs,
//! e.g. a copy on a machine without this checkout).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use ompcc_bench::plot::{self, Bars, Heatmap};
use ompcc_bench::process::{
    build_ompcc, checked, command_text, first_lines, git_version, run_program,
};
use ompcc_bench::runner::{self, WorkDir, exit_code, list, repo_root, text};
use ompcc_bench::{output, profile, ptx, ptxas, stats};

/// Relative tolerance for checksums: contraction into FMA and reduction order change the
/// last digits of float sums.
const REL_TOL: f64 = 1e-4;
/// Wall-clock limit for one run of a program.
const RUN_LIMIT: Duration = Duration::from_secs(600);
/// The architecture `ptxas` assembles for.
const PTXAS_ARCH: &str = "sm_80";
/// The marker a kernel source carries when it has an addressable local array (so
/// `ld.local`/`st.local` are allowed there).
const LOCAL_ARRAY_MARKER: &str = "// bench: local-array";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Device {
    Emu,
    Cuda,
}

impl Device {
    fn env(self) -> &'static str {
        match self {
            Device::Emu => "emu",
            Device::Cuda => "cuda",
        }
    }
}

struct Args {
    levels: Vec<String>,
    device: Device,
    ablate: bool,
    only: Option<Vec<String>>,
    large: bool,
    out: Option<PathBuf>,
    ompcc: Option<PathBuf>,
    compile_reps: u32,
    keep: Option<PathBuf>,
    kernels: Option<PathBuf>,
}

const USAGE: &str = "usage: kernels [--levels 0,1,2,3] [--device emu|cuda] [--ablate] [--only a,b] \
[--large] [--out FILE] [--ompcc PATH] [--compile-reps N] [--keep DIR] [--kernels DIR]";

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut args = Args {
        levels: ["0", "1", "2", "3"].map(String::from).to_vec(),
        device: Device::Emu,
        ablate: false,
        only: None,
        large: false,
        out: None,
        ompcc: None,
        compile_reps: 3,
        keep: None,
        kernels: None,
    };
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("levels") => {
                args.levels = list(text(&mut p)?);
                if let Some(bad) = args
                    .levels
                    .iter()
                    .find(|l| !["0", "1", "2", "3", "s", "g", "fast"].contains(&l.as_str()))
                {
                    return Err(format!("`{bad}` is not an -O level"));
                }
            }
            Long("device") => {
                args.device = match text(&mut p)?.as_str() {
                    "emu" => Device::Emu,
                    "cuda" => Device::Cuda,
                    other => return Err(format!("unknown device `{other}` (emu or cuda)")),
                }
            }
            Long("ablate") => args.ablate = true,
            Long("only") => args.only = Some(list(text(&mut p)?)),
            Long("large") => args.large = true,
            Long("out") => args.out = Some(text(&mut p)?.into()),
            Long("ompcc") => args.ompcc = Some(text(&mut p)?.into()),
            Long("keep") => args.keep = Some(text(&mut p)?.into()),
            Long("kernels") => args.kernels = Some(text(&mut p)?.into()),
            Long("compile-reps") => {
                args.compile_reps = text(&mut p)?
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or("--compile-reps takes a positive number")?
            }
            Long("help") | Short('h') => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("{}\n{USAGE}", other.unexpected())),
        }
    }
    if args.levels.is_empty() {
        return Err("--levels names no level".into());
    }
    Ok(args)
}

/// Tools and places shared by every measurement.
struct Env {
    root: PathBuf,
    kernels: PathBuf,
    ompcc: PathBuf,
    host_cc: String,
    ptxas: Option<PathBuf>,
    work: PathBuf,
    device: Device,
    large: bool,
}

/// What one build + run + PTX inspection of a program produced. A field is `None` when that
/// step failed; the reason is in `errors`.
#[derive(Default)]
struct Measurement {
    totals: Option<profile::Totals>,
    /// Per-kernel profile rows.
    kernels: BTreeMap<String, profile::KernelRow>,
    ptx_instructions: Option<u32>,
    local_accesses: Option<u32>,
    generic_accesses: Option<u32>,
    /// Largest register count over the kernels.
    registers: Option<u32>,
    /// Spill stores + loads, bytes, over all functions.
    spill_bytes: Option<u32>,
    /// `ptxas -v` per function.
    resources: BTreeMap<String, ptxas::Resources>,
    /// The output matched the reference.
    correct: bool,
    errors: Vec<String>,
}

impl Measurement {
    fn instructions(&self) -> Option<u64> {
        self.totals.as_ref().and_then(|t| t.instructions)
    }

    fn time_s(&self) -> Option<f64> {
        self.totals.as_ref().map(|t| t.time_s)
    }
}

struct Program {
    name: String,
    source: PathBuf,
    local_array: bool,
    reference: Result<String, String>,
}

/// Everything measured, keyed by program name and level (or removed pass, `full` for none).
#[derive(Default)]
struct Results {
    per_level: BTreeMap<(String, String), Measurement>,
    compile: BTreeMap<String, Result<CompileTime, String>>,
    ablation: BTreeMap<(String, String), Measurement>,
    /// The -O2 pipeline's pass names in order.
    full: Vec<&'static str>,
    /// Each name of `full` once, in first-use order: the passes the ablation removes.
    removable: Vec<&'static str>,
}

struct CompileTime {
    total: Duration,
    host: Duration,
}

fn main() -> ExitCode {
    exit_code("kernels", parse_args().and_then(|args| run(&args)))
}

/// Runs everything and prints the report; `Ok(false)` when some measurement failed.
fn run(args: &Args) -> Result<bool, String> {
    let root = repo_root()?;
    let ompcc = match &args.ompcc {
        Some(p) => p.clone(),
        None => build_ompcc(&root)?,
    };
    let work_dir = WorkDir::new(args.keep.as_deref())?;
    let env = Env {
        host_cc: std::env::var("OMPCC_HOST_CC").unwrap_or_else(|_| "cc".into()),
        ptxas: ptxas::find(),
        kernels: args
            .kernels
            .clone()
            .unwrap_or_else(|| root.join("bench").join("kernels")),
        root,
        ompcc,
        work: work_dir.path().to_path_buf(),
        device: args.device,
        large: args.large,
    };
    if env.ptxas.is_none() && std::env::var("OMPCC_REQUIRE_PTXAS").as_deref() == Ok("1") {
        return Err("OMPCC_REQUIRE_PTXAS=1 but ptxas is neither on PATH nor in the nvidia.cuda_nvcc package".into());
    }
    let programs = discover(&env, args.only.as_deref())?;

    let mut r = Results {
        full: ompcc_opt::pipeline_for_level(2)
            .iter()
            .map(|p| p.name)
            .collect(),
        ..Results::default()
    };
    for name in &r.full {
        if !r.removable.contains(name) {
            r.removable.push(name);
        }
    }
    for prog in &programs {
        for level in &args.levels {
            eprintln!("kernels: {} -O{level}", prog.name);
            let m = measure(&env, prog, level, None, &format!("O{level}"));
            r.per_level.insert((prog.name.clone(), level.clone()), m);
        }
        eprintln!("kernels: {} compile time", prog.name);
        r.compile.insert(
            prog.name.clone(),
            compile_time(&env, prog, args.compile_reps),
        );
        if args.ablate {
            let variants = std::iter::once(("full", r.full.join(","))).chain(
                r.removable.iter().map(|removed| {
                    let kept: Vec<&str> = r.full.iter().copied().filter(|n| n != removed).collect();
                    (*removed, kept.join(","))
                }),
            );
            for (removed, passes) in variants {
                eprintln!("kernels: {} -O2 without {removed}", prog.name);
                let tag = format!("no-{removed}");
                let m = measure(&env, prog, "2", Some(&passes), &tag);
                r.ablation
                    .insert((prog.name.clone(), removed.to_string()), m);
            }
        }
    }

    let report = render(args, &env, &programs, &r);
    print!("{report}");
    if let Some(out) = &args.out {
        std::fs::write(out, &report).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let all_ok = programs.iter().all(|p| p.reference.is_ok())
        && r.per_level.values().all(|m| m.errors.is_empty())
        && r.ablation.values().all(|m| m.errors.is_empty())
        && r.compile.values().all(Result::is_ok);
    Ok(all_ok)
}

/// The programs of `bench/kernels/` (sorted by name), each with the output of its reference
/// build.
fn discover(env: &Env, only: Option<&[String]>) -> Result<Vec<Program>, String> {
    let dir = &env.kernels;
    let mut sources: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    let mut out = Vec::new();
    for source in sources {
        let name = source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if only.is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let text =
            std::fs::read_to_string(&source).map_err(|e| format!("{}: {e}", source.display()))?;
        let reference = reference_output(env, &name, &source);
        out.push(Program {
            local_array: text.contains(LOCAL_ARRAY_MARKER),
            name,
            source,
            reference,
        });
    }
    if let Some(o) = only
        && let Some(missing) = o.iter().find(|n| !out.iter().any(|p| &p.name == *n))
    {
        return Err(format!("no kernel `{missing}` in {}", dir.display()));
    }
    Ok(out)
}

fn size_flags(env: &Env) -> Vec<&'static str> {
    if env.large { vec!["-DLARGE"] } else { vec![] }
}

/// The program built by the host compiler alone (`-foffload=disable`) and its output.
fn reference_output(env: &Env, name: &str, source: &Path) -> Result<String, String> {
    let exe = env.work.join(format!("{name}-ref"));
    let mut words = env.host_cc.split_whitespace();
    let cc = words.next().ok_or("OMPCC_HOST_CC is empty")?;
    let mut cmd = Command::new(cc);
    cmd.args(words)
        .args(["-fopenmp", "-foffload=disable", "-O2"])
        .args(size_flags(env))
        .arg(source)
        .arg("-o")
        .arg(&exe);
    checked(&mut cmd, "reference build")?;
    run_program(&mut Command::new(&exe), "reference run", RUN_LIMIT).map(|o| o.stdout)
}

/// Builds (`-O{level}`, or `--passes=` when given), runs, and inspects the PTX of one program.
fn measure(env: &Env, prog: &Program, level: &str, passes: Option<&str>, tag: &str) -> Measurement {
    let mut m = Measurement::default();
    let ompcc = |extra: &[&str]| {
        let mut c = Command::new(&env.ompcc);
        c.arg("-fopenmp")
            .arg(format!("-O{level}"))
            .args(passes.map(|p| format!("--passes={p}")))
            .args(size_flags(env))
            .args(extra)
            .arg(&prog.source);
        c
    };
    let base = env.work.join(format!("{}-{tag}", prog.name));
    let exe = base.with_extension("exe");
    let json = base.with_extension("json");
    let exe_arg = exe.to_string_lossy().into_owned();
    match checked(&mut ompcc(&["-o", &exe_arg]), "ompcc build") {
        Err(e) => m.errors.push(e),
        Ok(_) => {
            let _ = std::fs::remove_file(&json);
            let mut cmd = Command::new(&exe);
            cmd.env("OMPCC_DEVICE", env.device.env())
                .env("OMPCC_PROFILE", format!("json:{}", json.display()))
                .env("OMP_TARGET_OFFLOAD", "MANDATORY");
            match run_program(&mut cmd, "run", RUN_LIMIT).map(|o| o.stdout) {
                Err(e) => m.errors.push(e),
                Ok(out) => {
                    if let Ok(want) = &prog.reference {
                        match output::matches(want, &out, REL_TOL) {
                            Ok(()) => m.correct = true,
                            Err(e) => m.errors.push(format!("wrong output: {e}")),
                        }
                    }
                    match std::fs::read_to_string(&json)
                        .map_err(|e| {
                            format!(
                                "no profile written ({}: {e}): nothing ran on the device",
                                json.display()
                            )
                        })
                        .and_then(|t| profile::parse(&t))
                    {
                        Ok(rows) if rows.is_empty() => {
                            m.errors.push("no kernel ran on the device".into())
                        }
                        Ok(rows) => {
                            m.totals = Some(profile::Totals::of(&rows));
                            m.kernels = rows;
                        }
                        Err(e) => m.errors.push(e),
                    }
                }
            }
        }
    }
    match checked(&mut ompcc(&["--emit=ptx"]), "ompcc --emit=ptx") {
        Err(e) => m.errors.push(e),
        Ok(text) => {
            let ptx_file = base.with_extension("ptx");
            if let Err(e) = std::fs::write(&ptx_file, &text) {
                m.errors.push(format!("{}: {e}", ptx_file.display()));
            }
            match ptx::function_stats(&text) {
                Err(e) => m.errors.push(e),
                Ok(funcs) if !funcs.iter().any(|f| f.is_kernel) => {
                    m.errors.push("the PTX has no kernel".into())
                }
                Ok(funcs) => {
                    m.ptx_instructions = Some(funcs.iter().map(|f| f.instructions).sum());
                    m.local_accesses = Some(funcs.iter().map(|f| f.local_accesses).sum());
                    m.generic_accesses = Some(funcs.iter().map(|f| f.generic_accesses).sum());
                }
            }
            if let Some(ptxas) = &env.ptxas {
                let mut cmd = Command::new(ptxas);
                cmd.args(["-v", "-arch", PTXAS_ARCH])
                    .arg(&ptx_file)
                    .arg("-o")
                    .arg(base.with_extension("cubin"));
                match cmd.output() {
                    Err(e) => m.errors.push(format!("ptxas: {e}")),
                    Ok(o) if !o.status.success() => m.errors.push(format!(
                        "ptxas rejected the PTX: {}",
                        first_lines(&String::from_utf8_lossy(&o.stderr))
                    )),
                    Ok(o) => {
                        let res = ptxas::parse_verbose(&String::from_utf8_lossy(&o.stderr));
                        m.registers = res.values().filter_map(|r| r.registers).max();
                        m.spill_bytes =
                            Some(res.values().map(|r| r.spill_stores + r.spill_loads).sum());
                        m.resources = res;
                    }
                }
            }
        }
    }
    m
}

/// `ompcc -fopenmp -O2 -c`, `reps` times, with the host compiler behind a wrapper that logs
/// when each of its runs starts and ends; medians of the whole compile and of the host share.
fn compile_time(env: &Env, prog: &Program, reps: u32) -> Result<CompileTime, String> {
    let log = env.work.join(format!("{}-cc-times.log", prog.name));
    let wrapper = env.work.join("timed-cc.sh");
    let script = format!(
        "#!/bin/bash\nstart=$EPOCHREALTIME\n{} \"$@\"\nrc=$?\necho \"$start $EPOCHREALTIME\" >> \"$OMPCC_BENCH_CC_LOG\"\nexit $rc\n",
        env.host_cc
    );
    std::fs::write(&wrapper, script).map_err(|e| format!("{}: {e}", wrapper.display()))?;
    make_executable(&wrapper)?;
    let object = env.work.join(format!("{}.o", prog.name));
    let mut totals = Vec::new();
    let mut hosts = Vec::new();
    for _ in 0..reps {
        let _ = std::fs::remove_file(&log);
        let mut cmd = Command::new(&env.ompcc);
        cmd.args(["-fopenmp", "-O2", "-c"])
            .args(size_flags(env))
            .arg(&prog.source)
            .arg("-o")
            .arg(&object)
            .env("OMPCC_HOST_CC", &wrapper)
            .env("OMPCC_BENCH_CC_LOG", &log);
        let start = Instant::now();
        checked(&mut cmd, "ompcc -O2 -c")?;
        totals.push(start.elapsed());
        let text = std::fs::read_to_string(&log)
            .map_err(|e| format!("the host compiler never ran ({}: {e})", log.display()))?;
        hosts.push(busy_time(&text)?);
    }
    Ok(CompileTime {
        total: stats::median(&totals),
        host: stats::median(&hosts),
    })
}

/// Total time covered by the `start end` intervals of the wrapper log (overlaps counted once,
/// in case the driver runs host compilers in parallel).
fn busy_time(log: &str) -> Result<Duration, String> {
    let mut spans: Vec<(f64, f64)> = Vec::new();
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        let nums: Vec<f64> = line
            .split_whitespace()
            .map(|w| w.replace(',', ".").parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("timing log line `{line}`: {e}"))?;
        match nums[..] {
            [s, e] if e >= s => spans.push((s, e)),
            _ => return Err(format!("timing log line `{line}` is not `start end`")),
        }
    }
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut busy = 0.0;
    let mut current: Option<(f64, f64)> = None;
    for (s, e) in spans {
        current = match current {
            Some((cs, ce)) if s <= ce => Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                busy += ce - cs;
                Some((s, e))
            }
            None => Some((s, e)),
        };
    }
    if let Some((cs, ce)) = current {
        busy += ce - cs;
    }
    Ok(Duration::from_secs_f64(busy))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), String> {
    Err("the compile-time wrapper needs a Unix shell".into())
}

/// The whole Markdown report.
fn render(args: &Args, env: &Env, programs: &[Program], r: &Results) -> String {
    let Results {
        per_level,
        compile,
        ablation,
        full,
        removable,
    } = r;
    let mut s = String::new();
    let cmdline: Vec<String> = std::env::args().skip(1).collect();
    let _ = writeln!(s, "# Kernel benchmarks\n");
    let _ = writeln!(
        s,
        "Recorded {} at ompcc {} on {} ({} host threads); device `{}`{}.",
        command_text("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        git_version(&env.root),
        command_text("uname", &["-n"]),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        env.device.env(),
        if env.large {
            ", sizes `-DLARGE`"
        } else {
            ", default sizes"
        },
    );
    let _ = writeln!(
        s,
        "Command: `{}`.",
        runner::cargo_run_line("kernels", &cmdline.join(" "))
    );
    let _ = writeln!(
        s,
        "Every number comes from a run whose output matched the host-compiler build within a relative {REL_TOL:e}, with `OMP_TARGET_OFFLOAD=MANDATORY`; a failed step shows `fail` and is listed under Problems.\n"
    );
    let level_cols: Vec<String> = args.levels.iter().map(|l| format!("-O{l}")).collect();
    let has = |l: &str| args.levels.iter().any(|x| x == l);

    // Table 1: the primary metric per level.
    let (title, metric): (&str, fn(&Measurement) -> Option<f64>) = match env.device {
        Device::Emu => (
            "Dynamic instructions (emulator, warp-level, all kernels of the program)",
            |m| m.instructions().map(|v| v as f64),
        ),
        Device::Cuda => ("Kernel time, ms (sum over launches)", |m| {
            m.time_s().map(|t| t * 1e3)
        }),
    };
    let _ = writeln!(s, "## {title}\n");
    let ratio_col = has("0") && has("2");
    let _ = write!(s, "| kernel | {} |", level_cols.join(" | "));
    let _ = writeln!(s, "{}", if ratio_col { " -O0/-O2 |" } else { "" });
    let _ = writeln!(
        s,
        "|---|{}{}",
        "---|".repeat(level_cols.len()),
        if ratio_col { "---|" } else { "" }
    );
    let mut ratios = Vec::new();
    for p in programs {
        let _ = write!(s, "| {} |", p.name);
        for l in &args.levels {
            let v = per_level.get(&(p.name.clone(), l.clone()));
            let _ = write!(s, " {} |", cell(v, metric, env.device));
        }
        if ratio_col {
            let get = |l: &str| {
                per_level
                    .get(&(p.name.clone(), l.to_string()))
                    .filter(|m| m.correct)
                    .and_then(metric)
            };
            match (get("0"), get("2")) {
                (Some(a), Some(b)) if b > 0.0 => {
                    ratios.push(a / b);
                    let _ = write!(s, " {:.2} |", a / b);
                }
                _ => {
                    let _ = write!(s, " - |");
                }
            }
        }
        s.push('\n');
    }
    let geo = stats::geomean(&ratios);
    if ratio_col {
        let _ = writeln!(
            s,
            "| **geomean** |{} **{}** |",
            " |".repeat(level_cols.len()),
            geo.map_or("-".into(), |g| format!("{g:.2}"))
        );
    }

    // Table 2: details per level.
    let _ = writeln!(
        s,
        "\n## Per level\n\nSectors per request: global-memory sectors / warp-level requests (emulator; 4.00 = coalesced 4-byte accesses). Registers: most over the program's kernels; spill bytes: stores + loads over all functions (`ptxas -v -arch {PTXAS_ARCH}`). PTX instructions, `ld/st.local` and generic (no state space) loads/stores/atomics count statements of `ompcc --emit=ptx`.\n"
    );
    let _ = writeln!(
        s,
        "| kernel | -O | sectors/req | registers | spill B | PTX insts | ld/st.local | generic ld/st | output |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for p in programs {
        for l in &args.levels {
            let Some(m) = per_level.get(&(p.name.clone(), l.clone())) else {
                continue;
            };
            let spr = m
                .totals
                .as_ref()
                .and_then(|t| t.sectors_per_request())
                .map_or("-".into(), |v| format!("{v:.2}"));
            let _ = writeln!(
                s,
                "| {} | {l} | {spr} | {} | {} | {} | {} | {} | {} |",
                p.name,
                opt(m.registers),
                opt(m.spill_bytes),
                opt(m.ptx_instructions),
                opt(m.local_accesses),
                opt(m.generic_accesses),
                if m.correct { "ok" } else { "fail" }
            );
        }
    }

    // Table 2b: each device kernel at one level.
    if let Some(level) = ["2", "3", "1", "0"].into_iter().find(|l| has(l)) {
        let _ = writeln!(
            s,
            "\n## Each device kernel at -O{level}\n\n| program | kernel | launches | {} | sectors/req | registers | spill B |\n|---|---|---|---|---|---|---|",
            match env.device {
                Device::Emu => "dyn. insts",
                Device::Cuda => "time ms",
            }
        );
        for p in programs {
            let Some(m) = per_level.get(&(p.name.clone(), level.to_string())) else {
                continue;
            };
            for (k, row) in &m.kernels {
                let value = match env.device {
                    Device::Emu => row.instructions.map_or("-".into(), |v| v.to_string()),
                    Device::Cuda => format!("{:.3}", row.total_s * 1e3),
                };
                let spr = match (row.sectors, row.requests) {
                    (Some(sec), Some(req)) if req > 0 => format!("{:.2}", sec as f64 / req as f64),
                    _ => "-".into(),
                };
                let res = m.resources.get(k);
                let _ = writeln!(
                    s,
                    "| {} | {k} | {} | {value} | {spr} | {} | {} |",
                    p.name,
                    row.launches,
                    opt(res.and_then(|r| r.registers)),
                    opt(res.map(|r| r.spill_stores + r.spill_loads)),
                );
            }
        }
    }

    // Table 3: compile time.
    let _ = writeln!(
        s,
        "\n## Compile time of `ompcc -fopenmp -O2 -c`\n\nMedian of {} runs. Host cc: the time the host compiler ran (preprocessing, host code), measured by a wrapper given as `OMPCC_HOST_CC`; ompcc: the rest (frontend, IR, passes, PTX, host rewrite, process start-up).\n",
        args.compile_reps
    );
    let _ = writeln!(
        s,
        "| kernel | total ms | host cc ms | ompcc ms | ompcc share |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    let mut shares = Vec::new();
    for p in programs {
        match compile.get(&p.name) {
            Some(Ok(c)) => {
                let own = c.total.saturating_sub(c.host);
                let share = own.as_secs_f64() / c.total.as_secs_f64().max(1e-9);
                shares.push(share);
                let _ = writeln!(
                    s,
                    "| {} | {:.1} | {:.1} | {:.1} | {:.1}% |",
                    p.name,
                    ms(c.total),
                    ms(c.host),
                    ms(own),
                    share * 100.0
                );
            }
            _ => {
                let _ = writeln!(s, "| {} | fail | | | |", p.name);
            }
        }
    }

    // Table 4: ablation.
    if args.ablate {
        let _ = writeln!(
            s,
            "\n## Effect of each -O2 pass (ablation)\n\nThe -O2 pipeline (`--passes={}`) with every occurrence of one pass removed, vs the full pipeline: {} without the pass / with it (above 1.00: the pass helps; `fail`: that build or run failed).\n",
            full.join(","),
            match env.device {
                Device::Emu => "dynamic instructions",
                Device::Cuda => "kernel time",
            }
        );
        let _ = writeln!(s, "| kernel | {} |", removable.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(removable.len()));
        let mut per_pass: Vec<Vec<f64>> = vec![Vec::new(); removable.len()];
        for p in programs {
            let _ = write!(s, "| {} |", p.name);
            let base = ablation
                .get(&(p.name.clone(), "full".to_string()))
                .filter(|m| m.correct)
                .and_then(metric);
            for (k, r) in removable.iter().enumerate() {
                let v = ablation
                    .get(&(p.name.clone(), r.to_string()))
                    .filter(|m| m.correct)
                    .and_then(metric);
                match (v, base) {
                    (Some(v), Some(b)) if b > 0.0 => {
                        per_pass[k].push(v / b);
                        let _ = write!(s, " {:.2} |", v / b);
                    }
                    _ => {
                        let _ = write!(s, " fail |");
                    }
                }
            }
            s.push('\n');
        }
        let _ = write!(s, "| **geomean** |");
        for v in &per_pass {
            let _ = write!(
                s,
                " **{}** |",
                stats::geomean(v).map_or("-".into(), |g| format!("{g:.2}"))
            );
        }
        s.push('\n');
    }

    s.push_str(&plots(args, env.device, programs, r, metric));

    // Goals.
    let _ = writeln!(s, "\n## Goals\n");
    if ratio_col {
        let _ = writeln!(
            s,
            "- -O2 executes at least 2x fewer dynamic instructions than -O0 (geometric mean over {} kernels): {}.",
            ratios.len(),
            match geo {
                Some(g) if g >= 2.0 && ratios.len() == programs.len() => format!("met ({g:.2}x)"),
                Some(g) if g >= 2.0 => format!(
                    "{g:.2}x, but only {} of {} kernels measured",
                    ratios.len(),
                    programs.len()
                ),
                Some(g) => format!("not met ({g:.2}x)"),
                None => "not measured".into(),
            }
        );
    }
    if has("2") {
        let mut bad = Vec::new();
        let mut unmeasured = Vec::new();
        for p in programs {
            let m = per_level.get(&(p.name.clone(), "2".to_string()));
            match m.map(|m| (m.spill_bytes, m.local_accesses)) {
                Some((Some(spill), Some(local))) => {
                    if spill > 0 {
                        bad.push(format!("{} spills {spill} B", p.name));
                    }
                    if local > 0 && !p.local_array {
                        bad.push(format!("{} has {local} ld/st.local", p.name));
                    }
                }
                _ => unmeasured.push(p.name.clone()),
            }
        }
        let _ = writeln!(
            s,
            "- No spills at -O2, and no `ld.local`/`st.local` in kernels without an addressable local array: {}{}.",
            if !bad.is_empty() {
                format!("not met ({})", bad.join("; "))
            } else if unmeasured.len() == programs.len() {
                "not measured".to_string()
            } else {
                "met".to_string()
            },
            if unmeasured.is_empty() {
                String::new()
            } else {
                format!(" (not measured: {})", unmeasured.join(", "))
            }
        );
    }
    let over: Vec<&Program> = programs
        .iter()
        .zip(&shares)
        .filter(|(_, sh)| **sh >= 0.2)
        .map(|(p, _)| p)
        .collect();
    let _ = writeln!(
        s,
        "- ompcc's own share of `ompcc -O2 -c` under 20%: {} (largest {}).",
        if shares.len() < programs.len() {
            "not measured for every kernel".to_string()
        } else if over.is_empty() {
            "met".to_string()
        } else {
            format!(
                "not met for {}",
                over.iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        shares
            .iter()
            .copied()
            .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b))))
            .map_or("-".into(), |m| format!("{:.1}%", m * 100.0))
    );

    // Problems.
    let mut problems = Vec::new();
    for p in programs {
        if let Err(e) = &p.reference {
            problems.push(format!("{}: reference: {e}", p.name));
        }
        if let Some(Err(e)) = compile.get(&p.name) {
            problems.push(format!("{}: compile time: {e}", p.name));
        }
    }
    for ((name, level), m) in per_level {
        for e in &m.errors {
            problems.push(format!("{name} -O{level}: {e}"));
        }
    }
    for ((name, removed), m) in ablation {
        for e in &m.errors {
            let what = if removed == "full" {
                "-O2 full pipeline".to_string()
            } else {
                format!("-O2 without {removed}")
            };
            problems.push(format!("{name} {what}: {e}"));
        }
    }
    if env.ptxas.is_none() {
        problems.push("ptxas not found: no register or spill counts".into());
    }
    if !problems.is_empty() {
        let _ = writeln!(s, "\n## Problems\n");
        for p in problems {
            let _ = writeln!(s, "- {}", p.replace('|', "\\|"));
        }
    }
    s
}

fn cell(m: Option<&Measurement>, metric: fn(&Measurement) -> Option<f64>, d: Device) -> String {
    match m {
        Some(m) if m.correct => match metric(m) {
            Some(v) if d == Device::Emu => format!("{v:.0}"),
            Some(v) => format!("{v:.3}"),
            None => "-".into(),
        },
        Some(_) => "fail".into(),
        None => "-".into(),
    }
}

fn opt(v: Option<u32>) -> String {
    v.map_or("-".into(), |v| v.to_string())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// With `--out`: the plots beside the report (the primary metric per -O level; with
/// `--ablate`, the ablation grid), and the Markdown that shows them.
fn plots(
    args: &Args,
    device: Device,
    programs: &[Program],
    r: &Results,
    metric: fn(&Measurement) -> Option<f64>,
) -> String {
    let Some(out) = &args.out else {
        return String::new();
    };
    let what = match device {
        Device::Emu => "dynamic instructions",
        Device::Cuda => "kernel time (ms)",
    };
    let names: Vec<String> = programs.iter().map(|p| p.name.clone()).collect();
    let value = |map: &BTreeMap<(String, String), Measurement>, name: &str, key: &str| {
        map.get(&(name.to_string(), key.to_string()))
            .filter(|m| m.correct)
            .and_then(metric)
    };
    let mut s = String::from("\n## Plots\n\n");
    let mut chart = Bars::new(&format!("{what} per -O level"), what, names.clone()).log_y();
    for l in &args.levels {
        let values = programs
            .iter()
            .map(|p| value(&r.per_level, &p.name, l))
            .collect();
        chart = chart.series(&format!("-O{l}"), values);
    }
    let path = plot::path_beside(out, "levels");
    s.push_str(&plot::write_linked(chart.svg(), &path, "per -O level"));
    if args.ablate {
        let values = programs
            .iter()
            .map(|p| {
                let base = value(&r.ablation, &p.name, "full").filter(|b| *b > 0.0);
                r.removable
                    .iter()
                    .map(|pass| Some(value(&r.ablation, &p.name, pass)? / base?))
                    .collect()
            })
            .collect();
        let grid = Heatmap {
            title: "-O2 without each pass, against the full -O2 pipeline".into(),
            rows: names,
            cols: r.removable.iter().map(|p| p.to_string()).collect(),
            values,
            center: 1.0,
            note: format!(
                "{what} without the pass / with it: green above 1.00 (the pass helps), red below"
            ),
        };
        let path = plot::path_beside(out, "ablation");
        s.push_str(&plot::write_linked(grid.svg(), &path, "pass ablation"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_time_merges_overlaps() {
        let t = busy_time("10.0 10.5\n10.25 11.0\n12.0 12.5\n").unwrap();
        assert!((t.as_secs_f64() - 1.5).abs() < 1e-9, "{t:?}");
        assert_eq!(busy_time("").unwrap(), Duration::ZERO);
        assert!(busy_time("1.0\n").is_err());
        assert!(busy_time("2.0 1.0\n").is_err());
    }
}
