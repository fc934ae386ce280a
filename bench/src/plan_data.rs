//! `plan-data`: what the programs of `testsuite/plan/` move between host and device in each
//! form: `naive` (`NAME_naive.c`), `planned` (the naive source built with
//! `-fopenmp-plan-data`, issue 14's data planner) and `expert` (`NAME_expert.c`), as Markdown
//! tables with the goals evaluated per program.
//!
//! Every form is built with `ompcc -fopenmp -O<level>` and run on the PTX emulator with
//! `OMPCC_PROFILE=json:FILE` and `OMP_TARGET_OFFLOAD=MANDATORY`; its output must equal the
//! gcc build's (`gcc -fopenmp -foffload=disable -O2` of the same source) and the profile must
//! show a kernel, so every number comes from a correct device run. From the profile: the count
//! and bytes of host-to-device and device-to-host transfers. A form that does not build, run
//! or match is a failed cell with the reason (for `planned` before the planner exists:
//! ompcc's message about the flag), never a silent gap; `--forms naive,expert` measures the
//! others alone, and the report says which forms it left out.
//!
//! Usage: `cargo run --release -p ompcc-bench --bin plan-data -- [--forms naive,planned,expert]
//! [--only a,b] [--level 2] [--out FILE] [--ompcc PATH] [--keep DIR] [--programs DIR]`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use ompcc_bench::output;
use ompcc_bench::plot::{self, Bars};
use ompcc_bench::process::{build_ompcc, checked, command_text, git_version, run_program};
use ompcc_bench::profile::{self, TransferRow, Transfers};
use ompcc_bench::runner::{WorkDir, exit_code, list, repo_root, text};

/// The planner's flag (issue 14).
const PLAN_FLAG: &str = "-fopenmp-plan-data";
/// The marker of a program whose kernels run in a loop (`testsuite/plan/README.md`).
const TIME_STEPPED: &str = "// plan-data: time-stepped";
/// Outputs are integers or positive sums printed with `%.6e`: only contraction into FMA can
/// move a last digit.
const REL_TOL: f64 = 1e-6;
const RUN_LIMIT: Duration = Duration::from_secs(300);
/// The goal for time-stepped programs: the planned form moves at least this many
/// times fewer bytes than the naive one.
const GOAL_RATIO: f64 = 10.0;
const REF_FLAGS: &[&str] = &["-fopenmp", "-foffload=disable", "-O2"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Form {
    Naive,
    Planned,
    Expert,
}

impl Form {
    const ALL: [Form; 3] = [Form::Naive, Form::Planned, Form::Expert];

    fn name(self) -> &'static str {
        match self {
            Form::Naive => "naive",
            Form::Planned => "planned",
            Form::Expert => "expert",
        }
    }

    /// The source file's suffix: the planned form is the naive source.
    fn source(self) -> &'static str {
        match self {
            Form::Naive | Form::Planned => "naive",
            Form::Expert => "expert",
        }
    }

    fn flags(self) -> &'static [&'static str] {
        match self {
            Form::Planned => &[PLAN_FLAG],
            Form::Naive | Form::Expert => &[],
        }
    }
}

struct Args {
    forms: Vec<Form>,
    only: Option<Vec<String>>,
    level: String,
    out: Option<PathBuf>,
    ompcc: Option<PathBuf>,
    keep: Option<PathBuf>,
    programs: Option<PathBuf>,
}

const USAGE: &str = "usage: plan-data [--forms naive,planned,expert] [--only a,b] [--level 2] \
[--out FILE] [--ompcc PATH] [--keep DIR] [--programs DIR]";

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut args = Args {
        forms: Form::ALL.to_vec(),
        only: None,
        level: "2".into(),
        out: None,
        ompcc: None,
        keep: None,
        programs: None,
    };
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("forms") => {
                let mut forms = Vec::new();
                for word in list(text(&mut p)?) {
                    let form = Form::ALL
                        .into_iter()
                        .find(|f| f.name() == word)
                        .ok_or_else(|| format!("unknown form `{word}` (naive, planned, expert)"))?;
                    if !forms.contains(&form) {
                        forms.push(form);
                    }
                }
                forms.sort();
                args.forms = forms;
            }
            Long("only") => args.only = Some(list(text(&mut p)?)),
            Long("level") => {
                args.level = text(&mut p)?;
                if !["0", "1", "2", "3"].contains(&args.level.as_str()) {
                    return Err(format!("`{}` is not an -O level (0..3)", args.level));
                }
            }
            Long("out") => args.out = Some(text(&mut p)?.into()),
            Long("ompcc") => args.ompcc = Some(text(&mut p)?.into()),
            Long("keep") => args.keep = Some(text(&mut p)?.into()),
            Long("programs") => args.programs = Some(text(&mut p)?.into()),
            Long("help") | Short('h') => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("{}\n{USAGE}", other.unexpected())),
        }
    }
    if args.forms.is_empty() {
        return Err("--forms names no form".into());
    }
    Ok(args)
}

struct Env {
    root: PathBuf,
    programs: PathBuf,
    ompcc: PathBuf,
    work: PathBuf,
    level: String,
    /// When the planned form is left out: whether this ompcc accepts the planner's flag at all.
    plan_flag_probe: Option<String>,
}

struct Program {
    name: String,
    time_stepped: bool,
}

/// One form's transfers, or why there are none.
type Measurement = Result<Transfers, String>;

/// One number of a form's transfers, for a table row.
type Metric = fn(&Transfers) -> u64;

fn main() -> ExitCode {
    exit_code("plan-data", parse_args().and_then(|args| run(&args)))
}

/// Measures every form of every program and prints the report; `Ok(false)` when some form
/// failed.
fn run(args: &Args) -> Result<bool, String> {
    let root = repo_root()?;
    let ompcc = match &args.ompcc {
        Some(p) => p.clone(),
        None => build_ompcc(&root)?,
    };
    let work_dir = WorkDir::new(args.keep.as_deref())?;
    let mut env = Env {
        programs: args
            .programs
            .clone()
            .unwrap_or_else(|| root.join("testsuite").join("plan")),
        root,
        ompcc,
        work: work_dir.path().to_path_buf(),
        level: args.level.clone(),
        plan_flag_probe: None,
    };
    let programs = discover(&env.programs, args.only.as_deref())?;
    if !args.forms.contains(&Form::Planned) {
        env.plan_flag_probe = Some(probe_plan_flag(&env, &programs[0].name));
    }
    let mut results: BTreeMap<(String, Form), Measurement> = BTreeMap::new();
    for prog in &programs {
        // gcc's output per source file (the naive one serves the naive and planned forms).
        let mut references: BTreeMap<&str, Result<String, String>> = BTreeMap::new();
        for &form in &args.forms {
            eprintln!("plan-data: {} {}", prog.name, form.name());
            let source = env
                .programs
                .join(format!("{}_{}.c", prog.name, form.source()));
            let m = match references
                .entry(form.source())
                .or_insert_with(|| reference_output(&env, &prog.name, form, &source))
            {
                Ok(want) => measure(&env, &prog.name, form, &source, want),
                Err(e) => Err(e.clone()),
            };
            results.insert((prog.name.clone(), form), m);
        }
    }
    let report = render(args, &env, &programs, &results);
    print!("{report}");
    if let Some(out) = &args.out {
        std::fs::write(out, &report).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(results.values().all(Result::is_ok))
}

/// The programs of the folder (every `NAME_naive.c` with its `NAME_expert.c`), sorted.
fn discover(dir: &Path, only: Option<&[String]>) -> Result<Vec<Program>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix("_naive.c"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        if only.is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let naive = dir.join(format!("{name}_naive.c"));
        let text =
            std::fs::read_to_string(&naive).map_err(|e| format!("{}: {e}", naive.display()))?;
        out.push(Program {
            time_stepped: text.contains(TIME_STEPPED),
            name,
        });
    }
    if let Some(o) = only
        && let Some(missing) = o.iter().find(|n| !out.iter().any(|p| &p.name == *n))
    {
        return Err(format!(
            "no program `{missing}_naive.c` in {}",
            dir.display()
        ));
    }
    if out.is_empty() {
        return Err(format!("no `*_naive.c` program in {}", dir.display()));
    }
    Ok(out)
}

/// Whether ompcc compiles a naive program with the planner's flag, as a sentence for the
/// report (so a table without the planned column says why).
fn probe_plan_flag(env: &Env, name: &str) -> String {
    let mut cmd = Command::new(&env.ompcc);
    cmd.args(["-fopenmp", PLAN_FLAG, "-c"])
        .arg(env.programs.join(format!("{name}_naive.c")))
        .arg("-o")
        .arg(env.work.join("plan-flag-probe.o"));
    match checked(&mut cmd, "ompcc") {
        Ok(_) => format!("This ompcc accepts `{PLAN_FLAG}` (`{name}_naive.c` compiles with it)."),
        Err(e) => format!(
            "This ompcc does not build with `{PLAN_FLAG}` yet (`{name}_naive.c`: {}).",
            e.replace('|', "\\|")
        ),
    }
}

/// gcc's build of `source` with offloading disabled, and its output.
fn reference_output(env: &Env, name: &str, form: Form, source: &Path) -> Result<String, String> {
    let exe = env.work.join(format!("{name}-{}-gcc", form.source()));
    let mut cmd = Command::new("gcc");
    cmd.args(REF_FLAGS)
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    checked(&mut cmd, "gcc reference build")?;
    run_program(&mut Command::new(&exe), "gcc reference run", RUN_LIMIT).map(|o| o.stdout)
}

/// Builds one form, runs it on the emulator and reads its transfers from the profile.
fn measure(env: &Env, name: &str, form: Form, source: &Path, want: &str) -> Measurement {
    let base = env.work.join(format!("{name}-{}", form.name()));
    let exe = base.with_extension("exe");
    let json = base.with_extension("json");
    let mut cmd = Command::new(&env.ompcc);
    cmd.arg("-fopenmp")
        .arg(format!("-O{}", env.level))
        .args(form.flags())
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    checked(&mut cmd, "ompcc build")?;
    let _ = std::fs::remove_file(&json);
    let mut cmd = Command::new(&exe);
    cmd.env("OMPCC_DEVICE", "emu")
        .env("OMPCC_PROFILE", format!("json:{}", json.display()))
        .env("OMP_TARGET_OFFLOAD", "MANDATORY");
    let out = run_program(&mut cmd, "run", RUN_LIMIT)?;
    output::matches(want, &out.stdout, REL_TOL).map_err(|e| format!("wrong output: {e}"))?;
    let text = std::fs::read_to_string(&json).map_err(|e| {
        format!(
            "no profile written ({}: {e}): nothing ran on the device",
            json.display()
        )
    })?;
    if profile::parse(&text)?.is_empty() {
        return Err("no kernel ran on the device".into());
    }
    profile::transfers(&text)
}

/// Both directions together.
fn total(t: &Transfers) -> TransferRow {
    TransferRow {
        count: t.host_to_device.count + t.device_to_host.count,
        bytes: t.host_to_device.bytes + t.device_to_host.bytes,
        total_s: t.host_to_device.total_s + t.device_to_host.total_s,
    }
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `a / b` as `12.3x`; `-` without both, `inf` over zero.
fn ratio(a: Option<u64>, b: Option<u64>) -> String {
    match (a, b) {
        (Some(_), Some(0)) => "inf".into(),
        (Some(a), Some(b)) => format!("{:.1}x", a as f64 / b as f64),
        _ => "-".into(),
    }
}

/// Whether the planned form moves no more than the expert's, in bytes and in transfers.
fn planned_vs_expert(planned: Option<&Measurement>, expert: Option<&Measurement>) -> Goal {
    match (planned, expert) {
        (Some(Ok(p)), Some(Ok(e))) => {
            let (p, e) = (total(p), total(e));
            if p.bytes <= e.bytes && p.count <= e.count {
                Goal::Met
            } else {
                Goal::NotMet(format!(
                    "planned {} bytes in {} transfers, expert {} in {}",
                    thousands(p.bytes),
                    p.count,
                    thousands(e.bytes),
                    e.count
                ))
            }
        }
        _ => Goal::NotEvaluated,
    }
}

/// Whether the planned form moves at least [`GOAL_RATIO`] times fewer bytes than the naive.
fn planned_vs_naive(
    prog: &Program,
    naive: Option<&Measurement>,
    planned: Option<&Measurement>,
) -> Goal {
    if !prog.time_stepped {
        return Goal::NotApplicable;
    }
    match (naive, planned) {
        (Some(Ok(n)), Some(Ok(p))) => {
            let (n, p) = (total(n).bytes, total(p).bytes);
            if n as f64 >= GOAL_RATIO * p as f64 {
                Goal::Met
            } else {
                Goal::NotMet(format!("naive/planned bytes {}", ratio(Some(n), Some(p))))
            }
        }
        _ => Goal::NotEvaluated,
    }
}

enum Goal {
    Met,
    NotMet(String),
    NotEvaluated,
    NotApplicable,
}

impl Goal {
    fn cell(&self) -> String {
        match self {
            Goal::Met => "met".into(),
            Goal::NotMet(why) => format!("not met ({why})"),
            Goal::NotEvaluated => "not evaluated".into(),
            Goal::NotApplicable => "n/a".into(),
        }
    }
}

fn render(
    args: &Args,
    env: &Env,
    programs: &[Program],
    results: &BTreeMap<(String, Form), Measurement>,
) -> String {
    let get = |name: &str, form: Form| results.get(&(name.to_string(), form));
    let bytes = |name: &str, form: Form| -> Option<u64> {
        get(name, form)
            .and_then(|m| m.as_ref().ok())
            .map(|t| total(t).bytes)
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Data movement of the naive, planned and expert forms\n"
    );
    let _ = writeln!(
        s,
        "Generated by `plan-data{}` on {}, \
         ompcc {}, host `{}`. Programs: `testsuite/plan/` (`NAME_naive.c`, `NAME_expert.c`; the \
         planned form is the naive source built with `{PLAN_FLAG}`). Each form is built with \
         `ompcc -fopenmp -O{}` and run on the PTX emulator with `OMPCC_PROFILE=json` and \
         `OMP_TARGET_OFFLOAD=MANDATORY`; a number is shown only when the output equals the \
         gcc build's (`gcc -fopenmp -foffload=disable -O2`). Bytes and counts are the \
         runtime's host-to-device (h2d) and device-to-host (d2h) copies.\n",
        std::env::args()
            .skip(1)
            .map(|a| format!(" {a}"))
            .collect::<String>(),
        command_text("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        git_version(&env.root),
        command_text("uname", &["-n"]),
        env.level,
    );
    let left_out: Vec<&str> = Form::ALL
        .iter()
        .filter(|f| !args.forms.contains(f))
        .map(|f| f.name())
        .collect();
    if !left_out.is_empty() {
        let _ = writeln!(
            s,
            "**Not measured: {} (left out with `--forms`).** The goals that need {} are not \
             evaluated.\n",
            left_out.join(", "),
            if left_out.len() > 1 { "them" } else { "it" }
        );
    }
    if let Some(probe) = &env.plan_flag_probe {
        let _ = writeln!(s, "{probe}\n");
    }

    // The goals, per program.
    let _ = writeln!(s, "## Goals (issue 14)\n");
    let mut goal1 = Vec::new();
    let mut goal2 = Vec::new();
    for p in programs {
        goal1.push((
            p,
            planned_vs_expert(get(&p.name, Form::Planned), get(&p.name, Form::Expert)),
        ));
        goal2.push((
            p,
            planned_vs_naive(p, get(&p.name, Form::Naive), get(&p.name, Form::Planned)),
        ));
    }
    let summarize = |goals: &[(&Program, Goal)]| -> String {
        let applicable = goals
            .iter()
            .filter(|(_, g)| !matches!(g, Goal::NotApplicable))
            .count();
        let met = goals.iter().filter(|(_, g)| matches!(g, Goal::Met)).count();
        let unevaluated = goals
            .iter()
            .filter(|(_, g)| matches!(g, Goal::NotEvaluated))
            .count();
        let evaluated = applicable - unevaluated;
        if evaluated == 0 {
            return format!("not evaluated on any of the {applicable} programs");
        }
        let mut line = format!("met on {met} of {evaluated} programs");
        if unevaluated > 0 {
            let _ = write!(line, " ({unevaluated} more not evaluated)");
        }
        line
    };
    let _ = writeln!(
        s,
        "- Planned at most expert in bytes and in transfer count, on every program: {}.",
        summarize(&goal1)
    );
    let _ = writeln!(
        s,
        "- Planned at least {GOAL_RATIO:.0}x fewer bytes than naive on the time-stepped \
         programs: {}.\n",
        summarize(&goal2)
    );

    let _ = writeln!(
        s,
        "| program | time-stepped | bytes naive | bytes planned | bytes expert | naive/expert | \
         naive/planned | planned/expert | planned <= expert | >= {GOAL_RATIO:.0}x vs naive |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---|---|");
    for ((p, g1), (_, g2)) in goal1.iter().zip(&goal2) {
        let cell = |form: Form| match get(&p.name, form) {
            None => "-".to_string(),
            Some(Ok(t)) => thousands(total(t).bytes),
            Some(Err(_)) => "fail".to_string(),
        };
        let (n, pl, e) = (
            bytes(&p.name, Form::Naive),
            bytes(&p.name, Form::Planned),
            bytes(&p.name, Form::Expert),
        );
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            p.name,
            if p.time_stepped { "yes" } else { "no" },
            cell(Form::Naive),
            cell(Form::Planned),
            cell(Form::Expert),
            ratio(n, e),
            ratio(n, pl),
            ratio(pl, e),
            g1.cell(),
            g2.cell()
        );
    }

    if let Some(out) = &args.out {
        let mut chart = Bars::new(
            "Bytes copied between host and device (both directions)",
            "bytes",
            programs.iter().map(|p| p.name.clone()).collect(),
        )
        .log_y();
        for form in Form::ALL.iter().filter(|f| args.forms.contains(f)) {
            let values = programs
                .iter()
                .map(|p| bytes(&p.name, *form).map(|b| b as f64))
                .collect();
            chart = chart.series(form.name(), values);
        }
        let path = plot::path_beside(out, "bytes");
        let _ = write!(
            s,
            "\n{}",
            plot::write_linked(chart.svg(), &path, "bytes per program and form")
        );
    }

    // One table per program.
    let _ = writeln!(s, "\n## Per program\n");
    for p in programs {
        let _ = writeln!(
            s,
            "### {}{}\n",
            p.name,
            if p.time_stepped {
                " (time-stepped)"
            } else {
                ""
            }
        );
        let _ = writeln!(s, "| | naive | planned | expert |");
        let _ = writeln!(s, "|---|---:|---:|---:|");
        let rows: [(&str, Metric); 6] = [
            ("h2d bytes", |t| t.host_to_device.bytes),
            ("h2d count", |t| t.host_to_device.count),
            ("d2h bytes", |t| t.device_to_host.bytes),
            ("d2h count", |t| t.device_to_host.count),
            ("total bytes", |t| total(t).bytes),
            ("total count", |t| total(t).count),
        ];
        for (label, metric) in rows {
            let cells: Vec<String> = Form::ALL
                .iter()
                .map(|&f| match get(&p.name, f) {
                    None => "not measured".into(),
                    Some(Ok(t)) => thousands(metric(t)),
                    Some(Err(_)) => "fail".into(),
                })
                .collect();
            let _ = writeln!(s, "| {label} | {} |", cells.join(" | "));
        }
        let count = |form: Form| -> Option<u64> {
            get(&p.name, form)
                .and_then(|m| m.as_ref().ok())
                .map(|t| total(t).count)
        };
        let (n, pl, e) = (
            bytes(&p.name, Form::Naive),
            bytes(&p.name, Form::Planned),
            bytes(&p.name, Form::Expert),
        );
        let _ = writeln!(
            s,
            "\nnaive/planned: {} bytes, {} transfers; planned/expert: {} bytes, {} transfers; \
             naive/expert: {} bytes, {} transfers.\n",
            ratio(n, pl),
            ratio(count(Form::Naive), count(Form::Planned)),
            ratio(pl, e),
            ratio(count(Form::Planned), count(Form::Expert)),
            ratio(n, e),
            ratio(count(Form::Naive), count(Form::Expert)),
        );
        for f in Form::ALL {
            if let Some(Err(e)) = get(&p.name, f) {
                let _ = writeln!(s, "- {} failed: {}", f.name(), e.replace('|', "\\|"));
            }
        }
        if Form::ALL
            .iter()
            .any(|&f| matches!(get(&p.name, f), Some(Err(_))))
        {
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(12345678), "12,345,678");
    }

    #[test]
    fn ratios_and_goals() {
        assert_eq!(ratio(Some(30), Some(3)), "10.0x");
        assert_eq!(ratio(Some(3), Some(0)), "inf");
        assert_eq!(ratio(None, Some(3)), "-");
        let t = |bytes: u64, count: u64| -> Measurement {
            Ok(Transfers {
                host_to_device: TransferRow {
                    count,
                    bytes,
                    total_s: 0.0,
                },
                device_to_host: TransferRow::default(),
            })
        };
        let stepped = Program {
            name: "x".into(),
            time_stepped: true,
        };
        assert!(matches!(
            planned_vs_expert(Some(&t(10, 2)), Some(&t(10, 2))),
            Goal::Met
        ));
        assert!(matches!(
            planned_vs_expert(Some(&t(10, 3)), Some(&t(20, 2))),
            Goal::NotMet(_)
        ));
        assert!(matches!(
            planned_vs_expert(Some(&Err("build failed".into())), Some(&t(1, 1))),
            Goal::NotEvaluated
        ));
        assert!(matches!(
            planned_vs_naive(&stepped, Some(&t(100, 9)), Some(&t(10, 2))),
            Goal::Met
        ));
        assert!(matches!(
            planned_vs_naive(&stepped, Some(&t(99, 9)), Some(&t(10, 2))),
            Goal::NotMet(_)
        ));
        let single = Program {
            name: "y".into(),
            time_stepped: false,
        };
        assert!(matches!(
            planned_vs_naive(&single, Some(&t(1, 1)), None),
            Goal::NotApplicable
        ));
    }
}
