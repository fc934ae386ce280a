//! `compile-time`: `ompcc -fopenmp -O2 -c` against the host compiler alone (`gcc -O2 -fopenmp
//! -c`) on the bench kernels (`bench/kernels/*.c`) and the run tests (`testsuite/run/*.c`),
//! measured side by side in one run: every repetition compiles every file with both, in
//! alternating order, so a change of machine load hits both alike. Medians of wall-clock
//! time and of CPU time (user + system of the compiler and everything it ran), ratios per
//! file and geometric means per set, and where ompcc's time goes: one extra
//! `ompcc --time-phases` run per file, its phases summed per set.
//!
//! ompcc keeps the device C library, preprocessed and compiled, in a cache between commands:
//! the run gives it an empty cache of its own, and compiles every file once with both
//! compilers before the timed repetitions (which also warms the file cache for both). That
//! first compile is reported too, as the cost of a build that finds nothing kept.
//!
//! `compile-time [--ompcc PATH] [--cc gcc] [--reps 5] [--sets kernels,run] [--only a,b]
//! [--out FILE]`; without `--ompcc`, the release build is built first. With `--out`, the plots
//! go beside the table (`NAME-kernels.svg`, `NAME-ratios.svg`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use ompcc_bench::plot::{self, Bars};
use ompcc_bench::process::{build_ompcc, command_text, git_version};
use ompcc_bench::runner::{exit_code, list, repo_root, text};
use ompcc_bench::stats::{geomean, median};

const USAGE: &str = "usage: compile-time [--ompcc PATH] [--cc CMD] [--reps N] [--sets kernels,run] \
[--only a,b] [--out FILE]";

/// The goal: `ompcc -c` at most this many times the host compiler's `-c`.
const GOAL: f64 = 1.2;

struct Args {
    ompcc: Option<PathBuf>,
    cc: String,
    reps: usize,
    sets: Vec<String>,
    only: Option<Vec<String>>,
    out: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut args = Args {
        ompcc: None,
        cc: "gcc".into(),
        reps: 5,
        sets: vec!["kernels".into(), "run".into()],
        only: None,
        out: None,
    };
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("ompcc") => args.ompcc = Some(PathBuf::from(text(&mut p)?)),
            Long("cc") => args.cc = text(&mut p)?,
            Long("reps") => {
                args.reps = text(&mut p)?
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or("--reps takes a positive number")?
            }
            Long("sets") => args.sets = list(text(&mut p)?),
            Long("only") => args.only = Some(list(text(&mut p)?)),
            Long("out") => args.out = Some(PathBuf::from(text(&mut p)?)),
            Long("help") | Short('h') => return Err(USAGE.into()),
            other => return Err(format!("{}\n{USAGE}", other.unexpected())),
        }
    }
    if let Some(bad) = args
        .sets
        .iter()
        .find(|s| !matches!(s.as_str(), "kernels" | "run"))
    {
        return Err(format!("unknown set `{bad}` (kernels, run)\n{USAGE}"));
    }
    Ok(args)
}

fn main() -> ExitCode {
    match parse_args() {
        Ok(args) => exit_code("compile-time", run(&args)),
        Err(e) => {
            eprintln!("compile-time: {e}");
            ExitCode::from(2)
        }
    }
}

/// One file to compile, and the set it belongs to.
struct Unit {
    set: &'static str,
    path: PathBuf,
    name: String,
}

/// One compile: wall-clock and CPU time.
#[derive(Clone, Copy, Default)]
struct Sample {
    wall: Duration,
    cpu: Duration,
}

/// What was measured for one file.
#[derive(Default)]
struct Measured {
    gcc: Vec<Sample>,
    ompcc: Vec<Sample>,
    /// The first compile by each, ompcc's with its cache still empty of this file's library.
    first: Option<(Sample, Sample)>,
    /// ompcc's `--time-phases` report: (phase, ms), `total` included.
    phases: Vec<(String, f64)>,
    problem: Option<String>,
    /// The host compiler alone cannot compile the file (OpenMP it does not know): nothing
    /// to compare with, and not a failure of the run.
    host_rejects: bool,
}

impl Measured {
    fn medians(&self) -> Option<(Sample, Sample)> {
        if self.problem.is_some() || self.gcc.is_empty() || self.ompcc.is_empty() {
            return None;
        }
        let m = |v: &[Sample]| Sample {
            wall: median(&v.iter().map(|s| s.wall).collect::<Vec<_>>()),
            cpu: median(&v.iter().map(|s| s.cpu).collect::<Vec<_>>()),
        };
        Some((m(&self.gcc), m(&self.ompcc)))
    }
}

fn run(args: &Args) -> Result<bool, String> {
    let root = repo_root()?;
    let ompcc = match &args.ompcc {
        Some(p) => p.clone(),
        None => build_ompcc(&root)?,
    };
    let units = units(&root, args)?;
    let work = tempfile::tempdir().map_err(|e| format!("scratch folder: {e}"))?;
    let load_before = load_average();
    let mut measured: Vec<Measured> = units.iter().map(|_| Measured::default()).collect();
    let cache = work.path().join("ompcc-cache");
    let gcc_of = |unit: &Unit| timed(host_cmd(&args.cc, &unit.path, work.path()));
    let ours_of = |unit: &Unit| {
        timed(ompcc_cmd(
            &ompcc,
            &args.cc,
            &unit.path,
            work.path(),
            &cache,
            false,
        ))
    };
    eprintln!("compile-time: first compiles");
    for (unit, m) in units.iter().zip(measured.iter_mut()) {
        m.first = gcc_of(unit).ok().zip(ours_of(unit).ok());
    }
    for rep in 0..args.reps {
        eprintln!("compile-time: repetition {} of {}", rep + 1, args.reps);
        for (unit, m) in units.iter().zip(measured.iter_mut()) {
            if m.problem.is_some() {
                continue;
            }
            let gcc = || gcc_of(unit);
            let ours = || ours_of(unit);
            // alternate which goes first, so neither always finds the caches warmed by the other
            let (g, o) = if rep % 2 == 0 {
                let g = gcc();
                (g, ours())
            } else {
                let o = ours();
                (gcc(), o)
            };
            match (g, o) {
                (Ok(g), Ok(o)) => {
                    m.gcc.push(g);
                    m.ompcc.push(o);
                }
                (Err(_), Ok(_)) if rep == 0 => {
                    m.host_rejects = true;
                    m.problem = Some(format!("{} cannot compile it", args.cc));
                }
                (Err(e), _) => m.problem = Some(format!("{}: {e}", args.cc)),
                (_, Err(e)) => m.problem = Some(format!("ompcc: {e}")),
            }
        }
    }
    eprintln!("compile-time: phases");
    for (unit, m) in units.iter().zip(measured.iter_mut()) {
        if m.problem.is_none() {
            match phases(&ompcc, &args.cc, &unit.path, work.path(), &cache) {
                Ok(p) => m.phases = p,
                Err(e) => m.problem = Some(format!("ompcc --time-phases: {e}")),
            }
        }
    }
    let load_after = load_average();
    let env = Env {
        root: &root,
        ompcc: &ompcc,
        load: (load_before, load_after),
    };
    let report = render(args, &env, &units, &measured);
    match &args.out {
        Some(path) => std::fs::write(path, report)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{report}"),
    }
    Ok(measured
        .iter()
        .all(|m| m.problem.is_none() || m.host_rejects))
}

/// The files of the chosen sets, sorted by name within each set.
fn units(root: &Path, args: &Args) -> Result<Vec<Unit>, String> {
    let mut out = Vec::new();
    for set in &args.sets {
        let (set, dir): (&'static str, PathBuf) = match set.as_str() {
            "kernels" => ("kernels", root.join("bench/kernels")),
            _ => ("run", root.join("testsuite/run")),
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if args.only.as_ref().is_none_or(|o| o.contains(&name)) {
                out.push(Unit { set, path, name });
            }
        }
    }
    if out.is_empty() {
        return Err("no file to compile".into());
    }
    Ok(out)
}

/// `CC -O2 -fopenmp -c FILE` (`CC` may be a command with arguments).
fn host_cmd(cc: &str, src: &Path, work: &Path) -> Command {
    let mut words = cc.split_whitespace();
    let mut cmd = Command::new(words.next().unwrap_or("gcc"));
    cmd.args(words)
        .args(["-O2", "-fopenmp", "-c"])
        .arg(src)
        .arg("-o")
        .arg(work.join("host.o"));
    cmd
}

/// `ompcc [--time-phases] -fopenmp -O2 -c FILE`, with `CC` as its host compiler and `cache`
/// as its cache.
fn ompcc_cmd(
    ompcc: &Path,
    cc: &str,
    src: &Path,
    work: &Path,
    cache: &Path,
    phases: bool,
) -> Command {
    let mut cmd = Command::new(ompcc);
    if phases {
        cmd.arg("--time-phases");
    }
    cmd.args(["-fopenmp", "-O2", "-c"])
        .arg(src)
        .arg("-o")
        .arg(work.join("ompcc.o"))
        .env("OMPCC_HOST_CC", cc)
        .env("OMPCC_CACHE_DIR", cache);
    cmd
}

/// Runs `cmd` to completion (output discarded): its wall-clock time and the CPU time of it
/// and its children.
fn timed(mut cmd: Command) -> Result<Sample, String> {
    let cpu_before = children_cpu();
    let start = Instant::now();
    let status = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let wall = start.elapsed();
    let cpu = children_cpu().saturating_sub(cpu_before);
    if !status.success() {
        return Err(format!("failed ({status})"));
    }
    Ok(Sample { wall, cpu })
}

/// User + system time of the children this process waited for, so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes one `rusage` into the zeroed value we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) != 0 {
            return Duration::ZERO;
        }
        usage
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// One `ompcc --time-phases` compile of `src`: its phases in ms, `total` last.
fn phases(
    ompcc: &Path,
    cc: &str,
    src: &Path,
    work: &Path,
    cache: &Path,
) -> Result<Vec<(String, f64)>, String> {
    let out = ompcc_cmd(ompcc, cc, src, work, cache, true)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run ompcc: {e}"))?;
    if !out.status.success() {
        return Err(format!("failed ({})", out.status));
    }
    parse_phases(&String::from_utf8_lossy(&out.stderr))
}

/// A row of the phase table that is not part of the total: how long host compiles ran
/// alongside ompcc's device phases before ompcc waited for them (the `ompcc: concurrent:`
/// lines after the report).
const ALONGSIDE: &str = "(alongside) host: compile before ompcc waited";

/// The phases of a `--time-phases` report (`  NAME   12.345 ms   21.0%` lines after its
/// header, up to `total`), then [`ALONGSIDE`] when host compiles ran alongside.
fn parse_phases(stderr: &str) -> Result<Vec<(String, f64)>, String> {
    let mut lines = stderr
        .lines()
        .skip_while(|l| !l.starts_with("ompcc: phase times"));
    if lines.next().is_none() {
        return Err("no --time-phases report".into());
    }
    let mut out = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(ms_at) = words.iter().position(|w| *w == "ms") else {
            break;
        };
        let (Some(value), true) = (ms_at.checked_sub(1), ms_at >= 2) else {
            break;
        };
        let ms: f64 = words[value]
            .parse()
            .map_err(|_| format!("bad phase line `{line}`"))?;
        let name = words[..value].join(" ");
        let last = name == "total";
        out.push((name, ms));
        if last {
            break;
        }
    }
    if !out.iter().any(|(n, _)| n == "total") {
        return Err("the --time-phases report has no total".into());
    }
    let alongside: f64 = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("ompcc: concurrent: "))
        .filter_map(|l| {
            l.split_once(" started ")?
                .1
                .split_once(" ms ")?
                .0
                .parse::<f64>()
                .ok()
        })
        .sum();
    if alongside > 0.0 {
        out.push((ALONGSIDE.to_owned(), alongside));
    }
    Ok(out)
}

/// `/proc/loadavg`'s first number, for the report (`?` elsewhere).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

struct Env<'a> {
    root: &'a Path,
    ompcc: &'a Path,
    load: (String, String),
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn set_title(set: &str) -> &'static str {
    if set == "kernels" {
        "bench kernels"
    } else {
        "run tests"
    }
}

fn render(args: &Args, env: &Env<'_>, units: &[Unit], measured: &[Measured]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Compile time: `ompcc -fopenmp -O2 -c` against `{} -O2 -fopenmp -c`\n",
        args.cc
    );
    let date = command_text("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    let host = command_text("hostname", &[]);
    let cc_version = command_text(
        args.cc.split_whitespace().next().unwrap_or("gcc"),
        &["--version"],
    );
    let ompcc_version = command_text(&env.ompcc.to_string_lossy(), &["--version"]);
    let _ = writeln!(
        s,
        "Recorded {date} at {} on `{host}` ({} cores; load average {} at the start, {} at the end); \
         `{}`; `{}`.",
        git_version(env.root),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        env.load.0,
        env.load.1,
        ompcc_version.lines().next().unwrap_or("?"),
        cc_version.lines().next().unwrap_or("?"),
    );
    let _ = writeln!(
        s,
        "Command: `cargo run --release -p ompcc-bench --bin compile-time -- --reps {}{} --out \
         bench/results/compile-time.md`.\n",
        args.reps,
        if args.sets.len() == 2 {
            String::new()
        } else {
            format!(" --sets {}", args.sets.join(","))
        }
    );
    let _ = writeln!(
        s,
        "Every file is compiled {} times by each, `{cc} -O2 -fopenmp -c FILE` and `ompcc \
         -fopenmp -O2 -c FILE` (release build, `OMPCC_HOST_CC={cc}`), one after the other in \
         alternating order, file after file, repetition after repetition, after one untimed \
         first compile of every file by each (ompcc's device-library cache starts empty: \
         `first compile` is that compile's ratio, the cost of a build that finds nothing kept). \
         Times are medians; wall: elapsed time; CPU: user + system time of the compiler and \
         every process it ran. Ratio: ompcc / {cc}. Goal (issue 17): at most {GOAL}x.\n",
        args.reps,
        cc = args.cc
    );

    // Summary per set.
    let sets: Vec<&str> = {
        let mut v: Vec<&str> = units.iter().map(|u| u.set).collect();
        v.dedup();
        v
    };
    let ratios = |set: Option<&str>, cpu: bool| -> Vec<f64> {
        units
            .iter()
            .zip(measured)
            .filter(|(u, _)| set.is_none_or(|s| u.set == s))
            .filter_map(|(_, m)| m.medians())
            .map(|(g, o)| {
                if cpu {
                    ms(o.cpu) / ms(g.cpu).max(1e-6)
                } else {
                    ms(o.wall) / ms(g.wall).max(1e-6)
                }
            })
            .collect()
    };
    let first_ratios = |set: Option<&str>| -> Vec<f64> {
        units
            .iter()
            .zip(measured)
            .filter(|(u, _)| set.is_none_or(|s| u.set == s))
            .filter(|(_, m)| m.medians().is_some())
            .filter_map(|(_, m)| m.first)
            .map(|(g, o)| ms(o.wall) / ms(g.wall).max(1e-6))
            .collect()
    };
    let _ = writeln!(s, "## Summary\n");
    let _ = writeln!(
        s,
        "| files | measured | geomean wall ratio | geomean CPU ratio | files over {GOAL}x (wall) | goal | first compile: geomean wall ratio |\n|---|---|---|---|---|---|---|"
    );
    let mut rows: Vec<(String, Option<&str>)> = sets
        .iter()
        .map(|set| (set_title(set).to_string(), Some(*set)))
        .collect();
    if sets.len() > 1 {
        rows.push(("all".into(), None));
    }
    for (title, set) in &rows {
        let wall = ratios(*set, false);
        let cpu = ratios(*set, true);
        let count = units
            .iter()
            .filter(|u| set.is_none_or(|s| u.set == s))
            .count();
        let over = wall.iter().filter(|r| **r > GOAL).count();
        let (gw, gc, gf) = (geomean(&wall), geomean(&cpu), geomean(&first_ratios(*set)));
        let f = |g: Option<f64>| g.map_or("-".into(), |g| format!("{g:.2}"));
        let verdict = match gw {
            Some(g) if g <= GOAL => "met",
            Some(_) => "not met",
            None => "-",
        };
        let _ = writeln!(
            s,
            "| {title} ({count}) | {} | {} | {} | {over} | {verdict} | {} |",
            wall.len(),
            f(gw),
            f(gc),
            f(gf)
        );
    }

    // Plots.
    if let Some(out) = &args.out {
        let _ = writeln!(s);
        let kernels: Vec<(&Unit, &Measured)> = units
            .iter()
            .zip(measured)
            .filter(|(u, _)| u.set == "kernels")
            .collect();
        if !kernels.is_empty() {
            let med = |m: &Measured, ours: bool| {
                m.medians()
                    .map(|(g, o)| ms(if ours { o.wall } else { g.wall }))
            };
            let chart = Bars::new(
                "Compile time of the bench kernels (median wall clock)",
                "ms",
                kernels.iter().map(|(u, _)| u.name.clone()).collect(),
            )
            .series(
                &args.cc,
                kernels.iter().map(|(_, m)| med(m, false)).collect(),
            )
            .series("ompcc", kernels.iter().map(|(_, m)| med(m, true)).collect());
            let path = plot::path_beside(out, "kernels");
            s.push_str(&plot::write_linked(
                chart.svg(),
                &path,
                "compile time per kernel",
            ));
        }
        let names: Vec<String> = units
            .iter()
            .map(|u| format!("{}/{}", u.set, u.name))
            .collect();
        let wall = |m: &Measured| m.medians().map(|(g, o)| ms(o.wall) / ms(g.wall).max(1e-6));
        let cpu = |m: &Measured| m.medians().map(|(g, o)| ms(o.cpu) / ms(g.cpu).max(1e-6));
        let chart = Bars::new(
            &format!("ompcc -c / {} -c per file", args.cc),
            "ratio",
            names,
        )
        .series("wall clock", measured.iter().map(wall).collect())
        .series("CPU", measured.iter().map(cpu).collect())
        .line(GOAL, "goal");
        let path = plot::path_beside(out, "ratios");
        s.push_str(&plot::write_linked(
            chart.svg(),
            &path,
            "compile-time ratio per file",
        ));
    }

    // Phases.
    let _ = writeln!(
        s,
        "\n## Where ompcc's time goes\n\nOne `ompcc --time-phases -fopenmp -O2 -c` run per file \
         (wall clock; phases summed over the set's files; `host:` phases are the host \
         compiler's runs, the others ompcc's own work; `other`: start-up, command line, \
         temporary files). The host compile of an offloaded unit starts after lowering and \
         runs alongside ompcc's device passes, library and PTX: `host: compile` is the \
         time ompcc waited for it, `host: assemble` the assembly of its output with the PTX \
         appended, and the last row, not part of the total, how long it had run before \
         ompcc waited.\n"
    );
    let mut header = String::from("| phase |");
    let mut rule = String::from("|---|");
    let mut sums: Vec<BTreeMap<String, f64>> = Vec::new();
    let mut order: Vec<String> = Vec::new();
    for set in &sets {
        let _ = write!(header, " {} ms | share |", set_title(set));
        rule.push_str("---|---|");
        let mut sum = BTreeMap::new();
        for (_, m) in units.iter().zip(measured).filter(|(u, _)| u.set == *set) {
            for (name, v) in &m.phases {
                if !order.contains(name) {
                    order.push(name.clone());
                }
                *sum.entry(name.clone()).or_insert(0.0) += v;
            }
        }
        sums.push(sum);
    }
    // `other` and `total` last, then what ran alongside
    order.sort_by_key(|n| match n.as_str() {
        "other" => 1,
        "total" => 2,
        ALONGSIDE => 3,
        _ => 0,
    });
    let _ = writeln!(s, "{header}\n{rule}");
    for name in &order {
        let mut row = format!("| {name} |");
        for sum in &sums {
            let total = sum.get("total").copied().unwrap_or(0.0).max(1e-9);
            let v = sum.get(name).copied().unwrap_or(0.0);
            let _ = write!(row, " {v:.1} | {:.1}% |", v / total * 100.0);
        }
        let _ = writeln!(s, "{row}");
    }
    for (title, own) in [
        ("host compiler (`host:` phases)", false),
        ("ompcc's own work", true),
    ] {
        let mut row = format!("| **{title}** |");
        for sum in &sums {
            let total = sum.get("total").copied().unwrap_or(0.0).max(1e-9);
            let v: f64 = sum
                .iter()
                .filter(|(n, _)| {
                    !matches!(n.as_str(), "total" | ALONGSIDE) && n.starts_with("host:") != own
                })
                .map(|(_, v)| v)
                .sum();
            let _ = write!(row, " {v:.1} | {:.1}% |", v / total * 100.0);
        }
        let _ = writeln!(s, "{row}");
    }

    // Per file.
    let _ = writeln!(
        s,
        "\n## Per file\n\n| set | file | {cc} ms | ompcc ms | ratio | {cc} CPU ms | ompcc CPU ms | CPU ratio |\n|---|---|---|---|---|---|---|---|",
        cc = args.cc
    );
    let mut problems = Vec::new();
    let mut rejected = Vec::new();
    for (u, m) in units.iter().zip(measured) {
        match m.medians() {
            Some((g, o)) => {
                let _ = writeln!(
                    s,
                    "| {} | {} | {:.1} | {:.1} | {:.2} | {:.1} | {:.1} | {:.2} |",
                    u.set,
                    u.name,
                    ms(g.wall),
                    ms(o.wall),
                    ms(o.wall) / ms(g.wall).max(1e-6),
                    ms(g.cpu),
                    ms(o.cpu),
                    ms(o.cpu) / ms(g.cpu).max(1e-6)
                );
            }
            None if m.host_rejects => {
                let _ = writeln!(s, "| {} | {} | - | | | | | |", u.set, u.name);
                rejected.push(format!("{} ({})", u.name, u.set));
            }
            None => {
                let _ = writeln!(s, "| {} | {} | fail | | | | | |", u.set, u.name);
                problems.push(format!(
                    "{} ({}): {}",
                    u.name,
                    u.set,
                    m.problem.as_deref().unwrap_or("not measured")
                ));
            }
        }
    }
    if !rejected.is_empty() {
        let _ = writeln!(
            s,
            "\nNot compared: {} alone cannot compile {} (OpenMP 5.x constructs it does not \
             know), which ompcc compiles: {}.",
            args.cc,
            if rejected.len() == 1 {
                "this file"
            } else {
                "these files"
            },
            rejected.join(", ")
        );
    }
    if !problems.is_empty() {
        let _ = writeln!(s, "\n## Problems\n");
        for p in problems {
            let _ = writeln!(s, "- {p}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_phase_report() {
        let text = "warning: x\nompcc: phase times (wall clock):\n  host: preprocess   12.500 ms   25.0%\n  device: PTX         0.250 ms    0.5%\n  other               1.000 ms    2.0%\n  total              50.000 ms  100.0%\n";
        let p = parse_phases(text).unwrap();
        assert_eq!(p[0], ("host: preprocess".to_string(), 12.5));
        assert_eq!(p[1], ("device: PTX".to_string(), 0.25));
        assert_eq!(p.last().unwrap(), &("total".to_string(), 50.0));
        assert!(parse_phases("no report\n").is_err());
        // lines after the total: what ran alongside, summed, and nothing else
        let text = format!(
            "{text}ompcc: concurrent: a.c: `host: compile` started 40.5 ms before ompcc waited\n\
             ompcc: concurrent: b.c: `host: compile` started 2.0 ms before ompcc waited\n"
        );
        let p = parse_phases(&text).unwrap();
        assert_eq!(p[p.len() - 2].0, "total");
        assert_eq!(p.last().unwrap(), &(ALONGSIDE.to_string(), 42.5));
        assert!(parse_phases("ompcc: phase times (wall clock):\n  x 1.0 ms 2%\n").is_err());
    }

    #[test]
    fn child_cpu_time_grows_with_a_busy_child() {
        let before = children_cpu();
        let busy = timed({
            let mut c = Command::new("sh");
            c.args(["-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"]);
            c
        })
        .unwrap();
        assert!(children_cpu() > before);
        assert!(busy.cpu > Duration::ZERO && busy.wall >= busy.cpu / 4);
        assert!(timed(Command::new("false")).is_err());
    }
}
