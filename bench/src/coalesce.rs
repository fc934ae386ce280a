//! `coalesce`: the pairs of `bench/coalesce/` (`NAME-natural.c`, `NAME-hand.c`: the same
//! computation written the natural way and hand-coalesced), run on the PTX emulator, as a
//! Markdown table of global-memory sectors per request and total sectors (issue 16).
//!
//! Per pair, three builds at `-O2`: the natural program with ompcc's coalescing transforms
//! off (`--off-flag`, default `-Cloop-swap=off -Cwarp-coop=off -Cprivate-layout=off
//! -Cauto-collapse=off -Cregister-cache=off`), the hand version, and the natural program as ompcc compiles it by default (or with `--ompcc-flags`, e.g.
//! `-Cwarp-coop=reassoc`, which lets lanes share floating-point sums as the hand versions do). Each runs with `OMPCC_PROFILE=json`, `OMPCC_DEVICE=emu`
//! and `OMP_TARGET_OFFLOAD=MANDATORY`, and its output must match the host compiler's build
//! of the same file (offloading disabled) within a relative 1e-4; the two host builds of a
//! pair must print the same result too. A failed step shows `fail` and is listed under
//! Problems; the exit status is then non-zero.
//!
//! Usage: `cargo run --release -p ompcc-bench --bin coalesce -- [--ompcc PATH] [--out FILE]
//! [--only a,b] [--off-flag FLAGS] [--ompcc-flags FLAGS] [--keep DIR]` (FLAGS: separated by
//! spaces; `--off-flag ''`: no flag, for a compiler that has no such knob).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use ompcc_bench::plot::{self, Bars};
use ompcc_bench::process::{checked, command_text, git_version, run_program};
use ompcc_bench::{output, profile, runner};

/// Relative tolerance between outputs: FMA contraction and the hand versions' summation
/// order change the last digits.
const REL_TOL: f64 = 1e-4;
/// Wall-clock limit for one run.
const RUN_LIMIT: Duration = Duration::from_secs(600);
/// The goal: ompcc's natural build within this factor of the hand version on both measures.
const GOAL: f64 = 1.15;

struct Args {
    ompcc: Option<PathBuf>,
    out: Option<PathBuf>,
    only: Option<Vec<String>>,
    off_flag: String,
    ompcc_flags: String,
    keep: Option<PathBuf>,
}

const USAGE: &str = "usage: coalesce [--ompcc PATH] [--out FILE] [--only a,b] [--off-flag FLAGS] [--ompcc-flags FLAGS] [--keep DIR]";

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut args = Args {
        ompcc: None,
        out: None,
        only: None,
        off_flag: "-Cloop-swap=off -Cwarp-coop=off -Cprivate-layout=off -Cauto-collapse=off -Cregister-cache=off".into(),
        ompcc_flags: String::new(),
        keep: None,
    };
    let mut p = lexopt::Parser::from_env();
    let text = |p: &mut lexopt::Parser| -> Result<String, String> {
        p.value()
            .map_err(|e| e.to_string())?
            .into_string()
            .map_err(|_| "arguments must be UTF-8".to_string())
    };
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("ompcc") => args.ompcc = Some(text(&mut p)?.into()),
            Long("out") => args.out = Some(text(&mut p)?.into()),
            Long("keep") => args.keep = Some(text(&mut p)?.into()),
            Long("off-flag") => args.off_flag = text(&mut p)?,
            Long("ompcc-flags") => args.ompcc_flags = text(&mut p)?,
            Long("only") => {
                args.only = Some(
                    text(&mut p)?
                        .split(',')
                        .map(|w| w.trim().to_string())
                        .filter(|w| !w.is_empty())
                        .collect(),
                )
            }
            Long("help") | Short('h') => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("{}\n{USAGE}", other.unexpected())),
        }
    }
    Ok(args)
}

/// One build + run: the profile's totals, or why there are none.
type Run = Result<profile::Totals, String>;

struct Pair {
    name: String,
    natural: Run,
    hand: Run,
    ompcc: Run,
    /// The host builds of the two files print the same result.
    same_result: Result<(), String>,
}

fn main() -> ExitCode {
    match parse_args().and_then(|a| run(&a)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("coalesce: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<bool, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("the bench crate has no parent folder")?
        .to_path_buf();
    let ompcc = match &args.ompcc {
        Some(p) => p.clone(),
        None => root.join("target").join("release").join("ompcc"),
    };
    if !ompcc.is_file() {
        return Err(format!(
            "{} is missing (cargo build --release -p ompcc-driver -p ompcc-rt, or --ompcc PATH)",
            ompcc.display()
        ));
    }
    let temp;
    let work = match &args.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            dir.clone()
        }
        None => {
            temp = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
            temp.path().to_path_buf()
        }
    };
    let dir = root.join("bench").join("coalesce");
    let names = pair_names(&dir)?;
    if let Some(o) = &args.only
        && let Some(missing) = o.iter().find(|n| !names.contains(n))
    {
        return Err(format!("no pair `{missing}` in {}", dir.display()));
    }
    let host_cc = std::env::var("OMPCC_HOST_CC").unwrap_or_else(|_| "cc".into());
    let mut pairs = Vec::new();
    for name in names {
        if args.only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        eprintln!("coalesce: {name}");
        let natural_src = dir.join(format!("{name}-natural.c"));
        let hand_src = dir.join(format!("{name}-hand.c"));
        let natural_ref = reference(&host_cc, &natural_src, &work);
        let hand_ref = reference(&host_cc, &hand_src, &work);
        let same_result = match (&natural_ref, &hand_ref) {
            (Ok(a), Ok(b)) => output::matches(a, b, REL_TOL)
                .map_err(|e| format!("the hand version prints another result: {e}")),
            (Err(e), _) | (_, Err(e)) => Err(e.clone()),
        };
        let off: Vec<&str> = args.off_flag.split_whitespace().collect();
        let on: Vec<&str> = args.ompcc_flags.split_whitespace().collect();
        pairs.push(Pair {
            natural: measure(&ompcc, &natural_src, &off, &natural_ref, &work, "natural"),
            hand: measure(&ompcc, &hand_src, &[], &hand_ref, &work, "hand"),
            ompcc: measure(&ompcc, &natural_src, &on, &natural_ref, &work, "ompcc"),
            same_result,
            name,
        });
    }
    let report = render(args, &root, &pairs);
    print!("{report}");
    if let Some(out) = &args.out {
        std::fs::write(out, &report).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(pairs
        .iter()
        .all(|p| p.natural.is_ok() && p.hand.is_ok() && p.ompcc.is_ok() && p.same_result.is_ok()))
}

/// The names `NAME` with both `NAME-natural.c` and `NAME-hand.c` in `dir`, sorted; a file
/// without its twin is an error.
fn pair_names(dir: &Path) -> Result<Vec<String>, String> {
    let mut natural = Vec::new();
    let mut hand = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let name = e
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(n) = name.strip_suffix("-natural.c") {
            natural.push(n.to_string());
        } else if let Some(n) = name.strip_suffix("-hand.c") {
            hand.push(n.to_string());
        }
    }
    natural.sort();
    hand.sort();
    if natural != hand {
        return Err(format!(
            "{}: every NAME-natural.c needs a NAME-hand.c (natural: {natural:?}, hand: {hand:?})",
            dir.display()
        ));
    }
    Ok(natural)
}

/// The file built by the host compiler with offloading disabled, and its output.
fn reference(host_cc: &str, source: &Path, work: &Path) -> Result<String, String> {
    let stem = source.file_stem().unwrap_or_default().to_string_lossy();
    let exe = work.join(format!("{stem}-ref"));
    let mut words = host_cc.split_whitespace();
    let cc = words.next().ok_or("OMPCC_HOST_CC is empty")?;
    let mut cmd = Command::new(cc);
    cmd.args(words)
        .args(["-fopenmp", "-foffload=disable", "-O2"])
        .arg(source)
        .arg("-o")
        .arg(&exe);
    checked(&mut cmd, "reference build")?;
    run_program(&mut Command::new(&exe), "reference run", RUN_LIMIT).map(|o| o.stdout)
}

/// `ompcc -fopenmp -O2 FLAGS source`, run on the emulator; the profile's totals when the
/// output matches `want`.
fn measure(
    ompcc: &Path,
    source: &Path,
    flags: &[&str],
    want: &Result<String, String>,
    work: &Path,
    tag: &str,
) -> Run {
    let stem = source.file_stem().unwrap_or_default().to_string_lossy();
    let exe = work.join(format!("{stem}-{tag}.exe"));
    let json = work.join(format!("{stem}-{tag}.json"));
    let mut build = Command::new(ompcc);
    build
        .args(["-fopenmp", "-O2"])
        .args(flags)
        .arg(source)
        .arg("-o")
        .arg(&exe);
    checked(&mut build, "ompcc build")?;
    let _ = std::fs::remove_file(&json);
    let mut cmd = Command::new(&exe);
    cmd.env("OMPCC_DEVICE", "emu")
        .env("OMPCC_PROFILE", format!("json:{}", json.display()))
        .env("OMP_TARGET_OFFLOAD", "MANDATORY");
    let got = run_program(&mut cmd, "run", RUN_LIMIT)?.stdout;
    let want = want.as_ref().map_err(|e| format!("no reference: {e}"))?;
    output::matches(want, &got, REL_TOL).map_err(|e| format!("wrong output: {e}"))?;
    let text = std::fs::read_to_string(&json).map_err(|e| {
        format!(
            "no profile ({}: {e}): nothing ran on the device",
            json.display()
        )
    })?;
    let rows = profile::parse(&text)?;
    if rows.is_empty() {
        return Err("no kernel ran on the device".into());
    }
    Ok(profile::Totals::of(&rows))
}

fn spr(r: &Run) -> Option<f64> {
    r.as_ref().ok().and_then(|t| t.sectors_per_request())
}

fn sectors(r: &Run) -> Option<f64> {
    r.as_ref().ok().and_then(|t| t.sectors).map(|s| s as f64)
}

fn cell(r: &Run, f: fn(&Run) -> Option<f64>, digits: usize) -> String {
    match (r, f(r)) {
        (Err(_), _) => "fail".into(),
        (Ok(_), Some(v)) => format!("{v:.digits$}"),
        (Ok(_), None) => "-".into(),
    }
}

/// `a / b` as a cell, with whether it is within the goal.
fn ratio(a: Option<f64>, b: Option<f64>) -> (String, Option<bool>) {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => (format!("{:.2}", a / b), Some(a / b <= GOAL)),
        _ => ("-".into(), None),
    }
}

fn render(args: &Args, root: &Path, pairs: &[Pair]) -> String {
    let mut s = String::new();
    let cmdline: Vec<String> = std::env::args().skip(1).collect();
    let _ = writeln!(s, "# Coalescing pairs (issue 16)\n");
    let _ = writeln!(
        s,
        "Recorded {} at ompcc {} on {}; device `emu` (the PTX emulator's sector counters).",
        command_text("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        git_version(root),
        command_text("uname", &["-n"]),
    );
    let _ = writeln!(
        s,
        "Command: `{}`.\n",
        runner::cargo_run_line("coalesce", &cmdline.join(" "))
    );
    let off = if args.off_flag.is_empty() {
        "no flag".to_string()
    } else {
        format!("`{}`", args.off_flag)
    };
    let on = if args.ompcc_flags.trim().is_empty() {
        "as ompcc compiles it by default".to_string()
    } else {
        format!("with `{}`", args.ompcc_flags.trim())
    };
    let _ = writeln!(
        s,
        "All builds `ompcc -fopenmp -O2`. natural: `NAME-natural.c` with {off}; hand: \
         `NAME-hand.c`; ompcc: `NAME-natural.c` {on}. S/R: \
         global-memory sectors per warp-level request (4.00: coalesced 4-byte accesses, 32: \
         one sector per lane); sectors: total over the program's kernels. Every run's output \
         matched the host compiler's build within a relative {REL_TOL:e}, and each pair's two \
         files print the same result. Goal: ompcc within {GOAL}x of hand on both measures.\n"
    );
    let _ = writeln!(
        s,
        "| pair | natural S/R | natural sectors | hand S/R | hand sectors | ompcc S/R | ompcc sectors | ompcc/hand S/R | ompcc/hand sectors | goal |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    let mut met = 0;
    for p in pairs {
        let (r1, g1) = ratio(spr(&p.ompcc), spr(&p.hand));
        let (r2, g2) = ratio(sectors(&p.ompcc), sectors(&p.hand));
        let goal = match (g1, g2) {
            (Some(true), Some(true)) => {
                met += 1;
                "met"
            }
            (Some(_), Some(_)) => "not met",
            _ => "-",
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {r1} | {r2} | {goal} |",
            p.name,
            cell(&p.natural, spr, 2),
            cell(&p.natural, sectors, 0),
            cell(&p.hand, spr, 2),
            cell(&p.hand, sectors, 0),
            cell(&p.ompcc, spr, 2),
            cell(&p.ompcc, sectors, 0),
        );
    }
    let _ = writeln!(s, "\nGoal met on {met} of {} pairs.", pairs.len());
    if let Some(out) = &args.out {
        let names = pairs.iter().map(|p| p.name.clone()).collect();
        let of = |run: fn(&Pair) -> &Run| pairs.iter().map(|p| spr(run(p))).collect();
        let chart = Bars::new(
            "Global-memory sectors per request (lower is better; 4: coalesced 4-byte accesses)",
            "sectors / request",
            names,
        )
        .series("natural, grid mapping off", of(|p| &p.natural))
        .series("hand-coalesced", of(|p| &p.hand))
        .series("natural, as ompcc compiles it", of(|p| &p.ompcc));
        let path = plot::path_beside(out, "sectors");
        let _ = write!(
            s,
            "\n{}",
            plot::write_linked(chart.svg(), &path, "sectors per request per pair")
        );
    }
    let problems: Vec<String> = pairs
        .iter()
        .flat_map(|p| {
            [
                ("natural", p.natural.as_ref().err()),
                ("hand", p.hand.as_ref().err()),
                ("ompcc", p.ompcc.as_ref().err()),
                ("pair", p.same_result.as_ref().err()),
            ]
            .into_iter()
            .filter_map(move |(what, e)| e.map(|e| format!("- {} ({what}): {e}", p.name)))
        })
        .collect();
    if !problems.is_empty() {
        let _ = writeln!(s, "\n## Problems\n\n{}", problems.join("\n"));
    }
    s
}
