//! `static-peers`: ompcc's machine code against nvcc's for the same kernels, without a GPU.
//!
//! For every bench kernel `kernels/K.c` with a CUDA reference `kernels/K.cu`: ompcc's PTX
//! (`ompcc -fopenmp -O2 --emit=ptx`) assembled by `ptxas -v -arch=ARCH`, and `nvcc -O3
//! -cubin -arch=ARCH -Xptxas -v` of the reference; from `ptxas -v` the registers (most over
//! the kernels) and spill bytes, from `cuobjdump -sass` the instructions (sums over the
//! launch sites: a CUDA function launched from two places in `K.cu` counts twice, as the
//! OpenMP program's two target regions are two kernels), the largest innermost loop, global loads and stores and read-only loads.
//! Writes a Markdown table with the ratios and the goals of the code-quality issue.
//! `nvcc`, `ptxas` and `cuobjdump` are taken from PATH (../shared/PEERS.md installs them).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use ompcc_bench::plot::{self, Bars};
use ompcc_bench::process::checked;
use ompcc_bench::{ptxas, runner, sass, stats};

const USAGE: &str =
    "usage: static-peers --ompcc PATH [--kernels DIR] [--arch sm_90] [--out FILE] [--only a,b]";

struct Args {
    ompcc: PathBuf,
    kernels: PathBuf,
    arch: String,
    out: Option<PathBuf>,
    only: Option<Vec<String>>,
}

/// What one compiler made of one program.
#[derive(Clone, Debug, Default)]
struct Code {
    registers: u32,
    spill_bytes: u32,
    /// Over the kernels a launch runs by default (one-iteration variants where there are).
    sass: sass::Stats,
    /// SASS instructions of the grid-stride kernels that have a one-iteration variant.
    fallback_instructions: u32,
}

/// The name suffix of a one-iteration kernel variant (`ompcc_omp::ONE_ITERATION_SUFFIX`).
const ONE_ITERATION_SUFFIX: &str = "_one";

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut ompcc = None;
    let mut args = Args {
        ompcc: PathBuf::new(),
        kernels: Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels"),
        arch: "sm_90".into(),
        out: None,
        only: None,
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
            Long("ompcc") => ompcc = Some(PathBuf::from(text(&mut p)?)),
            Long("kernels") => args.kernels = PathBuf::from(text(&mut p)?),
            Long("arch") => args.arch = text(&mut p)?,
            Long("out") => args.out = Some(PathBuf::from(text(&mut p)?)),
            Long("only") => {
                args.only = Some(text(&mut p)?.split(',').map(str::to_string).collect())
            }
            Long("help") | Short('h') => return Err(USAGE.into()),
            other => return Err(format!("{}\n{USAGE}", other.unexpected())),
        }
    }
    args.ompcc = ompcc.ok_or_else(|| format!("--ompcc is required\n{USAGE}"))?;
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("static-peers: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("static-peers: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<bool, String> {
    let work = tempfile::tempdir().map_err(|e| format!("scratch folder: {e}"))?;
    let mut names: Vec<String> = std::fs::read_dir(&args.kernels)
        .map_err(|e| format!("cannot read {}: {e}", args.kernels.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu") && p.with_extension("c").is_file())
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|n| args.only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("no K.c with a K.cu in {}", args.kernels.display()));
    }
    let mut rows = BTreeMap::new();
    for name in &names {
        eprintln!("static-peers: {name}");
        let src = args.kernels.join(name);
        let ompcc = ompcc_code(args, &src, work.path());
        let nvcc = nvcc_code(args, &src, work.path());
        rows.insert(name.clone(), (ompcc, nvcc));
    }
    let report = render(args, &rows);
    match &args.out {
        Some(path) => std::fs::write(path, &report)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{report}"),
    }
    Ok(rows.values().all(|(o, n)| o.is_ok() && n.is_ok()))
}

fn ompcc_code(args: &Args, src: &Path, work: &Path) -> Result<Code, String> {
    let stem = src.file_name().unwrap_or_default().to_string_lossy();
    let ptx = work.join(format!("{stem}-ompcc.ptx"));
    let cubin = work.join(format!("{stem}-ompcc.cubin"));
    checked(
        Command::new(&args.ompcc)
            .args(["-fopenmp", "-O2", "--emit=ptx"])
            .arg(src.with_extension("c"))
            .arg("-o")
            .arg(&ptx),
        "ompcc --emit=ptx",
    )?;
    let log = verbose_stderr(
        Command::new("ptxas")
            .args(["-v", &format!("-arch={}", args.arch)])
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin),
        "ptxas",
    )?;
    code_of(&log, &cubin, |_| 1)
}

fn nvcc_code(args: &Args, src: &Path, work: &Path) -> Result<Code, String> {
    let stem = src.file_name().unwrap_or_default().to_string_lossy();
    let cubin = work.join(format!("{stem}-nvcc.cubin"));
    let log = verbose_stderr(
        Command::new("nvcc")
            .args([
                "-O3",
                "-cubin",
                &format!("-arch={}", args.arch),
                "-Xptxas",
                "-v",
            ])
            .arg(src.with_extension("cu"))
            .arg("-o")
            .arg(&cubin),
        "nvcc",
    )?;
    let cuda = std::fs::read_to_string(src.with_extension("cu")).unwrap_or_default();
    code_of(&log, &cubin, |f| launch_sites(&cuda, f))
}

/// How many `<<<...>>>` launches of the SASS function `mangled` (`_Z5sweepiPKfPf`, or an
/// `extern "C"` name) the CUDA source has; at least 1, so a function launched some other way
/// still counts once.
fn launch_sites(cuda: &str, mangled: &str) -> u32 {
    let name = plain_name(mangled);
    let sites = cuda
        .match_indices(name)
        .filter(|(at, _)| {
            let before = cuda[..*at].chars().next_back();
            let after = cuda[at + name.len()..].trim_start();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with("<<<")
        })
        .count();
    (sites as u32).max(1)
}

/// The source name of an Itanium-mangled free function (`_Z5sweepiPKfPf` -> `sweep`).
fn plain_name(mangled: &str) -> &str {
    let Some(rest) = mangled.strip_prefix("_Z") else {
        return mangled;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(len) if rest.len() >= digits + len => &rest[digits..digits + len],
        _ => mangled,
    }
}

/// Runs a tool whose `-v` report goes to stderr; the report on success.
fn verbose_stderr(cmd: &mut Command, what: &str) -> Result<String, String> {
    let o = cmd
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", cmd.get_program()))?;
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    if o.status.success() {
        Ok(err)
    } else {
        Err(format!("{what} failed ({}): {}", o.status, err.trim()))
    }
}

/// The code of one compiler's cubin; `sites` says from how many places a function is launched.
fn code_of(ptxas_log: &str, cubin: &Path, sites: impl Fn(&str) -> u32) -> Result<Code, String> {
    let resources = ptxas::parse_verbose(ptxas_log);
    let listing = checked(
        Command::new("cuobjdump").arg("-sass").arg(cubin),
        "cuobjdump -sass",
    )?;
    let functions = sass::parse(&listing);
    if functions.is_empty() {
        return Err(format!("no function in the SASS of {}", cubin.display()));
    }
    // A kernel with a one-iteration variant `K_one` runs only when the runtime cannot give
    // every iteration a thread: counted apart, as the fallback.
    let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
    let is_fallback =
        |name: &str| names.contains(&format!("{name}{ONE_ITERATION_SUFFIX}").as_str());
    let sum = |fallback: bool| {
        functions
            .iter()
            .filter(|f| is_fallback(&f.name) == fallback)
            .map(|f| sass::stats(f).times(sites(&f.name)))
            .fold(sass::Stats::default(), sass::Stats::combine)
    };
    let launched = resources.iter().filter(|(name, _)| !is_fallback(name));
    Ok(Code {
        registers: launched
            .clone()
            .filter_map(|(_, r)| r.registers)
            .max()
            .unwrap_or(0),
        spill_bytes: launched.map(|(_, r)| r.spill_stores + r.spill_loads).sum(),
        sass: sum(false),
        fallback_instructions: sum(true).instructions,
    })
}

type Rows = BTreeMap<String, (Result<Code, String>, Result<Code, String>)>;

fn render(args: &Args, rows: &Rows) -> String {
    let mut s = String::new();
    let version = |tool: &str| {
        checked(Command::new(tool).arg("--version"), tool)
            .map(|v| v.lines().last().unwrap_or("").trim().to_string())
            .unwrap_or_else(|e| e)
    };
    let _ = writeln!(s, "# ompcc vs nvcc: static code of the bench kernels\n");
    let _ = writeln!(
        s,
        "`{}`; ompcc `-fopenmp -O2 --emit=ptx` then ptxas ({}), nvcc `-O3` ({}) of \
         `bench/kernels/K.cu`; both `-arch={}`. SASS instructions from `cuobjdump -sass`, \
         summed over the launch sites, padding excluded: a function `K.cu` launches from two \
         places counts twice, as the OpenMP program's two target regions are two kernels \
         (jacobi2d's and heat3d's `sweep`); for ompcc the kernels a launch runs by default (ompcc's \
         one-iteration variant `K_one` of a loop kernel `K`, which the runtime launches when \
         every iteration can have a thread; `K` itself, the grid-stride fallback, is the \
         column 'fallback'; registers and spills are the default kernels' too); loop: instructions of the largest \
         innermost loop (0: none); LDG/STG: global loads/stores; nc: loads through the \
         read-only path (`LDG.E.CONSTANT`). Written by `{}`.\n",
        checked(
            Command::new(&args.ompcc).arg("--version"),
            "ompcc --version"
        )
        .map(|v| v.lines().next().unwrap_or("").trim().to_string())
        .unwrap_or_else(|e| e),
        version("ptxas"),
        version("nvcc"),
        args.arch,
        runner::cargo_run_line(
            "static-peers",
            &format!(
                "--ompcc {} --out bench/results/static-peers.md",
                args.ompcc.display()
            )
        ),
    );
    let _ = writeln!(
        s,
        "| kernel | regs ompcc / nvcc | spill B | SASS ompcc / nvcc | ratio | loop ompcc / nvcc \
         | LDG ompcc / nvcc | STG | nc ompcc / nvcc | fallback |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    let mut ratios = Vec::new();
    let mut problems = Vec::new();
    let (mut over_regs, mut over_each, mut spills) = (Vec::new(), Vec::new(), Vec::new());
    for (name, (o, n)) in rows {
        let (o, n) = match (o, n) {
            (Ok(o), Ok(n)) => (o, n),
            (o, n) => {
                for (who, r) in [("ompcc", o), ("nvcc", n)] {
                    if let Err(e) = r {
                        problems.push(format!("{name} ({who}): {e}"));
                    }
                }
                let _ = writeln!(s, "| {name} | fail | | | | | | | | |");
                continue;
            }
        };
        let ratio = o.sass.instructions as f64 / n.sass.instructions.max(1) as f64;
        ratios.push(ratio);
        if ratio > 1.3 {
            over_each.push(name.as_str());
        }
        if o.registers > n.registers + 4 {
            over_regs.push(name.as_str());
        }
        if o.spill_bytes > 0 {
            spills.push(name.as_str());
        }
        let _ = writeln!(
            s,
            "| {name} | {} / {} | {} | {} / {} | {ratio:.2} | {} / {} | {} / {} | {} / {} | {} / {} | {} |",
            o.registers,
            n.registers,
            o.spill_bytes,
            o.sass.instructions,
            n.sass.instructions,
            o.sass.innermost_loop,
            n.sass.innermost_loop,
            o.sass.global_loads,
            n.sass.global_loads,
            o.sass.global_stores,
            n.sass.global_stores,
            o.sass.readonly_loads,
            n.sass.readonly_loads,
            o.fallback_instructions,
        );
    }
    let geo = stats::geomean(&ratios);
    if let Some(g) = geo {
        let _ = writeln!(s, "| **geomean** | | | | **{g:.2}** | | | | | |");
    }
    if let Some(out) = &args.out {
        s.push_str(&plots(out, rows));
    }
    let verdict = |ok: bool| if ok { "met" } else { "not met" };
    let list = |v: &[&str]| {
        if v.is_empty() {
            String::new()
        } else {
            format!(" ({})", v.join(", "))
        }
    };
    let _ = writeln!(s, "\n## Goals (issue: code quality vs CUDA)\n");
    if let Some(g) = geo {
        let _ = writeln!(
            s,
            "- SASS geomean at most 1.2x nvcc: {g:.2}, {}",
            verdict(g <= 1.2)
        );
    }
    let _ = writeln!(
        s,
        "- every kernel at most 1.3x: {}{}",
        verdict(over_each.is_empty()),
        list(&over_each)
    );
    let _ = writeln!(
        s,
        "- registers at most nvcc's + 4: {}{}",
        verdict(over_regs.is_empty()),
        list(&over_regs)
    );
    let _ = writeln!(
        s,
        "- no spills: {}{}",
        verdict(spills.is_empty()),
        list(&spills)
    );
    if !problems.is_empty() {
        let _ = writeln!(s, "\n## Problems\n");
        for p in problems {
            let _ = writeln!(s, "- {p}");
        }
    }
    s
}

/// The plots beside the table (SASS instructions, innermost loop, registers: ompcc against
/// nvcc per kernel), and the Markdown that shows them.
fn plots(out: &Path, rows: &Rows) -> String {
    let names: Vec<String> = rows.keys().cloned().collect();
    let of = |f: fn(&Code) -> u32, ours: bool| -> Vec<Option<f64>> {
        rows.values()
            .map(|(o, n)| {
                let code = if ours { o } else { n };
                code.as_ref().ok().map(|c| f64::from(f(c)))
            })
            .collect()
    };
    let mut s = String::from("\n");
    /// (file suffix, title, unit, the measure)
    type Chart = (&'static str, &'static str, &'static str, fn(&Code) -> u32);
    let charts: [Chart; 3] = [
        (
            "sass",
            "SASS instructions per kernel",
            "instructions",
            |c| c.sass.instructions,
        ),
        (
            "loop",
            "SASS instructions of the largest innermost loop",
            "instructions",
            |c| c.sass.innermost_loop,
        ),
        ("registers", "Registers per thread", "registers", |c| {
            c.registers
        }),
    ];
    for (file, title, unit, f) in charts {
        let chart = Bars::new(title, unit, names.clone())
            .series("ompcc", of(f, true))
            .series("nvcc", of(f, false));
        let path = plot::path_beside(out, file);
        s.push_str(&plot::write_linked(chart.svg(), &path, title));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{launch_sites, plain_name};

    #[test]
    fn plain_names_of_mangled_functions() {
        assert_eq!(plain_name("_Z5sweepiPKfPf"), "sweep");
        assert_eq!(plain_name("saxpy"), "saxpy");
        assert_eq!(plain_name("_Z99x"), "_Z99x");
    }

    #[test]
    fn launch_sites_count_each_triple_chevron_launch() {
        let cuda = "__global__ void sweep(int n) {}\n__global__ void sweep2() {}\n\
                    int main() { sweep<<<g, b>>>(1); sweep <<<g, b>>>(2); sweep2<<<1, 1>>>(); }";
        assert_eq!(launch_sites(cuda, "_Z5sweepi"), 2);
        assert_eq!(launch_sites(cuda, "_Z6sweep2v"), 1);
        assert_eq!(launch_sites(cuda, "_Z6unusedv"), 1);
    }
}
