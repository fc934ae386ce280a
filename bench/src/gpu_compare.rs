//! `gpu-compare`: ompcc against hand-written CUDA on a machine with an NVIDIA GPU.
//!
//! For every bench kernel `kernels/K.c` that has a CUDA reference `kernels/K.cu`: builds the
//! OpenMP program with `ompcc -fopenmp -O2 -DLARGE` and the reference with `nvcc -O3
//! -arch=native -DLARGE`, runs each `--reps` times on the GPU and keeps the best kernel time
//! (ompcc: the sum over launches from `OMPCC_PROFILE=json`; CUDA: the sum of CUDA-event times
//! the program prints as `cuda-kernel-ms`). Both outputs must match the host build
//! (`cc -fopenmp -foffload=disable -O2 -DLARGE`) within a relative 1e-4, else the row says
//! `fail`. Then the BabelStream-style `stream/stream.c` (ompcc) and `stream/stream.cu` (nvcc):
//! GB/s of copy, mul, add, triad and dot. Writes one Markdown report with the ratios.
//!
//! Needs no Rust toolchain and no checkout history: `bench/gpu-compare.sh` runs it on the GPU
//! machine with a prebuilt `ompcc` (and `libompcc_rt.a` beside it).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;
use std::time::Duration;

use ompcc_bench::process::{Output, checked, run_program};
use ompcc_bench::{output, profile, stats};

const USAGE: &str = "usage: gpu-compare --ompcc PATH [--kernels DIR] [--stream DIR] [--out FILE] \
[--reps N] [--only a,b] [--nvcc PATH] [--cc PATH] [--commit TEXT] [--jobs N]";
const RUN_LIMIT: Duration = Duration::from_secs(300);
/// Outputs are checksums of float arrays: the device may contract to FMAs and reduce in
/// another order than the host.
const REL_TOL: f64 = 1e-4;
const STREAM_KERNELS: &[&str] = &["copy", "mul", "add", "triad", "dot"];

struct Args {
    ompcc: PathBuf,
    kernels: PathBuf,
    stream: PathBuf,
    out: Option<PathBuf>,
    reps: u32,
    only: Option<Vec<String>>,
    nvcc: String,
    cc: String,
    commit: String,
    jobs: usize,
}

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ompcc = None;
    let mut args = Args {
        ompcc: PathBuf::new(),
        kernels: root.join("kernels"),
        stream: root.join("stream"),
        out: None,
        reps: 3,
        only: None,
        nvcc: "nvcc".into(),
        cc: "cc".into(),
        commit: "unknown".into(),
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get().min(8)),
    };
    let mut p = lexopt::Parser::from_env();
    let text = |p: &mut lexopt::Parser| -> Result<String, String> {
        p.value()
            .map_err(|e| e.to_string())?
            .into_string()
            .map_err(|_| "arguments must be UTF-8".to_string())
    };
    let number = |s: String, what: &str| -> Result<u32, String> {
        s.parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("{what} must be a positive number, not `{s}`"))
    };
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("ompcc") => ompcc = Some(PathBuf::from(text(&mut p)?)),
            Long("kernels") => args.kernels = PathBuf::from(text(&mut p)?),
            Long("stream") => args.stream = PathBuf::from(text(&mut p)?),
            Long("out") => args.out = Some(PathBuf::from(text(&mut p)?)),
            Long("reps") => args.reps = number(text(&mut p)?, "--reps")?,
            Long("jobs") => args.jobs = number(text(&mut p)?, "--jobs")? as usize,
            Long("only") => {
                args.only = Some(text(&mut p)?.split(',').map(str::to_string).collect())
            }
            Long("nvcc") => args.nvcc = text(&mut p)?,
            Long("cc") => args.cc = text(&mut p)?,
            Long("commit") => args.commit = text(&mut p)?,
            Long("help") | Short('h') => return Err(USAGE.into()),
            other => return Err(format!("{}\n{USAGE}", other.unexpected())),
        }
    }
    args.ompcc = ompcc.ok_or_else(|| format!("--ompcc is required\n{USAGE}"))?;
    Ok(args)
}

/// One bench kernel's measurements; `Err` holds why a side failed.
struct KernelResult {
    name: String,
    ompcc_ms: Result<f64, String>,
    cuda_ms: Result<f64, String>,
}

/// GB/s per stream kernel for one side.
type StreamRates = Result<BTreeMap<String, f64>, String>;

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gpu-compare: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("gpu-compare: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<bool, String> {
    let work = tempfile::tempdir().map_err(|e| format!("scratch folder: {e}"))?;
    let names = kernel_names(args)?;
    eprintln!("gpu-compare: building {} kernels", names.len());
    let builds = build_all(args, work.path(), &names);
    let mut kernels = Vec::new();
    for name in &names {
        eprintln!("gpu-compare: {name}");
        kernels.push(measure_kernel(args, work.path(), name, &builds[name]));
    }
    eprintln!("gpu-compare: stream");
    let (ompcc_stream, cuda_stream) = measure_stream(args, work.path());
    let report = render(args, &kernels, &ompcc_stream, &cuda_stream);
    match &args.out {
        Some(path) => std::fs::write(path, &report)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{report}"),
    }
    let all_ok = kernels
        .iter()
        .all(|k| k.ompcc_ms.is_ok() && k.cuda_ms.is_ok())
        && ompcc_stream.is_ok()
        && cuda_stream.is_ok();
    Ok(all_ok)
}

/// Kernels with both `K.c` and `K.cu`, sorted; `--only` narrows them.
fn kernel_names(args: &Args) -> Result<Vec<String>, String> {
    let dir = std::fs::read_dir(&args.kernels)
        .map_err(|e| format!("cannot read {}: {e}", args.kernels.display()))?;
    let mut names: Vec<String> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c") && p.with_extension("cu").is_file())
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|n| args.only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!(
            "no kernel with both K.c and K.cu in {}",
            args.kernels.display()
        ));
    }
    Ok(names)
}

/// The three executables of a kernel, or why each build failed.
struct Builds {
    reference: Result<PathBuf, String>,
    ompcc: Result<PathBuf, String>,
    cuda: Result<PathBuf, String>,
}

/// Builds every kernel three ways, `--jobs` builds at a time (they are CPU-bound; the runs that
/// follow are not overlapped, so timings are taken on an otherwise idle GPU).
fn build_all(args: &Args, work: &Path, names: &[String]) -> BTreeMap<String, Builds> {
    let jobs: Vec<(String, &str)> = names
        .iter()
        .flat_map(|n| ["ref", "ompcc", "cuda"].map(|side| (n.clone(), side)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs {
            scope.spawn(|| {
                while let Some((name, side)) =
                    jobs.get(next.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
                {
                    let src = args.kernels.join(name);
                    let exe = work.join(format!("{name}-{side}"));
                    let r = build(args, side, &src, &exe).map(|_| exe);
                    done.lock()
                        .expect("build list")
                        .push((name.clone(), *side, r));
                }
            });
        }
    });
    let mut builds: BTreeMap<String, Builds> = BTreeMap::new();
    for (name, side, r) in done.into_inner().expect("build list") {
        let b = builds.entry(name).or_insert_with(|| Builds {
            reference: Err("not built".into()),
            ompcc: Err("not built".into()),
            cuda: Err("not built".into()),
        });
        match side {
            "ref" => b.reference = r,
            "ompcc" => b.ompcc = r,
            _ => b.cuda = r,
        }
    }
    builds
}

/// One build of `src` (`K`, without extension) for `side`.
fn build(args: &Args, side: &str, src: &Path, exe: &Path) -> Result<(), String> {
    let c = src.with_extension("c");
    let mut cmd = match side {
        "ref" => {
            let mut cmd = Command::new(&args.cc);
            cmd.args(["-O2", "-fopenmp", "-foffload=disable"]).arg(&c);
            cmd
        }
        "ompcc" => {
            let mut cmd = Command::new(&args.ompcc);
            cmd.args(["-fopenmp", "-O2"]).arg(&c);
            cmd
        }
        _ => {
            let mut cmd = Command::new(&args.nvcc);
            cmd.args(["-O3", "-arch=native"])
                .arg(src.with_extension("cu"));
            cmd
        }
    };
    cmd.arg("-DLARGE").arg("-o").arg(exe).arg("-lm");
    checked(&mut cmd, &format!("{side} build")).map(|_| ())
}

fn measure_kernel(args: &Args, work: &Path, name: &str, b: &Builds) -> KernelResult {
    let failed = |e: &String| Err::<f64, String>(e.clone());
    let reference = match &b.reference {
        Ok(exe) => run_program(&mut Command::new(exe), "reference run", RUN_LIMIT),
        Err(e) => Err(e.clone()),
    };
    let reference = match reference {
        Ok(o) => o.stdout,
        Err(e) => {
            return KernelResult {
                name: name.into(),
                ompcc_ms: failed(&e),
                cuda_ms: failed(&e),
            };
        }
    };
    let json = work.join(format!("{name}.json"));
    let ompcc_ms = b.ompcc.clone().and_then(|exe| {
        best_of(args.reps, || {
            let _ = std::fs::remove_file(&json);
            let mut cmd = Command::new(&exe);
            cmd.env("OMPCC_DEVICE", "cuda")
                .env("OMP_TARGET_OFFLOAD", "MANDATORY")
                .env("OMPCC_PROFILE", format!("json:{}", json.display()));
            run_checked(&mut cmd, "ompcc run", &reference)?;
            let text = std::fs::read_to_string(&json)
                .map_err(|e| format!("profile {}: {e}", json.display()))?;
            let totals = profile::Totals::of(&profile::parse(&text)?);
            if totals.launches == 0 {
                return Err("no kernel launched on the GPU".into());
            }
            Ok(totals.time_s * 1e3)
        })
    });
    let cuda_ms = b.cuda.clone().and_then(|exe| {
        best_of(args.reps, || {
            let o = run_checked(&mut cuda_command(&exe), "CUDA run", &reference)?;
            cuda_kernel_ms(&o.stderr)
        })
    });
    KernelResult {
        name: name.into(),
        ompcc_ms,
        cuda_ms,
    }
}

/// A CUDA reference's command. Its module is loaded before `main`, as ompcc's runtime loads
/// its modules before the first launch: with CUDA's default lazy loading the first launch of
/// each kernel would load it inside the timed interval (measured on an H200: saxpy 0.372 ms
/// lazy, 0.272 ms eager).
fn cuda_command(exe: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env("CUDA_MODULE_LOADING", "EAGER");
    cmd
}

/// Runs a program and checks its stdout against the reference's.
fn run_checked(cmd: &mut Command, what: &str, reference: &str) -> Result<Output, String> {
    let o = run_program(cmd, what, RUN_LIMIT)?;
    output::matches(reference, &o.stdout, REL_TOL)
        .map_err(|e| format!("{what}: wrong output: {e}"))?;
    Ok(o)
}

/// The smallest of `reps` measurements; the first error ends it.
fn best_of(reps: u32, mut once: impl FnMut() -> Result<f64, String>) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        best = best.min(once()?);
    }
    Ok(best)
}

/// The `cuda-kernel-ms <ms>` line a CUDA reference prints on stderr.
fn cuda_kernel_ms(stderr: &str) -> Result<f64, String> {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("cuda-kernel-ms "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .ok_or_else(|| "the CUDA program printed no `cuda-kernel-ms` line".to_string())
}

/// `stream NAME n=N best T ms G GB/s` lines, and the `stream check ok` line that must follow.
fn parse_stream(stdout: &str) -> StreamRates {
    let mut rates = BTreeMap::new();
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["stream", name, _n, "best", _t, "ms", gbs, "GB/s"] = words[..] {
            let v = gbs
                .parse::<f64>()
                .map_err(|_| format!("bad rate in `{line}`"))?;
            rates.insert(name.to_string(), v);
        }
    }
    if !stdout.lines().any(|l| l.trim() == "stream check ok") {
        return Err("the arrays did not hold the expected values (`stream check` failed)".into());
    }
    for k in STREAM_KERNELS {
        if !rates.contains_key(*k) {
            return Err(format!("no `stream {k}` line"));
        }
    }
    Ok(rates)
}

fn measure_stream(args: &Args, work: &Path) -> (StreamRates, StreamRates) {
    let src = args.stream.join("stream.c");
    let ompcc_exe = work.join("stream-ompcc");
    let cuda_exe = work.join("stream-cuda");
    let ompcc = checked(
        Command::new(&args.ompcc)
            .args(["-fopenmp", "-O2"])
            .arg(&src)
            .arg("-o")
            .arg(&ompcc_exe)
            .arg("-lm"),
        "ompcc build of stream.c",
    )
    .and_then(|_| {
        let mut cmd = Command::new(&ompcc_exe);
        cmd.env("OMPCC_DEVICE", "cuda")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY");
        run_program(&mut cmd, "ompcc stream", RUN_LIMIT)
    })
    .and_then(|o| parse_stream(&o.stdout));
    let cuda = checked(
        Command::new(&args.nvcc)
            .args(["-O3", "-arch=native"])
            .arg(src.with_extension("cu"))
            .arg("-o")
            .arg(&cuda_exe),
        "nvcc build of stream.cu",
    )
    .and_then(|_| run_program(&mut cuda_command(&cuda_exe), "CUDA stream", RUN_LIMIT))
    .and_then(|o| parse_stream(&o.stdout));
    (ompcc, cuda)
}

fn gpu_name() -> String {
    let mut cmd = Command::new("nvidia-smi");
    cmd.args(["--query-gpu=name,driver_version", "--format=csv,noheader"]);
    checked(&mut cmd, "nvidia-smi")
        .map(|s| s.lines().next().unwrap_or("").trim().to_string())
        .unwrap_or_else(|e| format!("unknown GPU ({e})"))
}

fn render(
    args: &Args,
    kernels: &[KernelResult],
    ompcc_stream: &StreamRates,
    cuda_stream: &StreamRates,
) -> String {
    let mut s = String::new();
    let nvcc_version = checked(Command::new(&args.nvcc).arg("--version"), "nvcc --version")
        .map(|v| v.lines().last().unwrap_or("").to_string())
        .unwrap_or_else(|e| e);
    let _ = writeln!(s, "# ompcc vs CUDA on {}\n", gpu_name());
    let _ = writeln!(
        s,
        "ompcc `{}` (`-fopenmp -O2`), nvcc `-O3 -arch=native` ({nvcc_version}); sizes `-DLARGE`; \
         every number is the best of {} runs whose output matched the host build \
         (`{} -O2 -fopenmp -foffload=disable`) within a relative {REL_TOL:e}. Written by \
         `bench/gpu-compare.sh` (bench/README.md).\n",
        args.commit, args.reps, args.cc
    );
    let _ = writeln!(
        s,
        "## Kernel time, ms (sum over launches)\n\nompcc: `OMPCC_PROFILE` kernel time; CUDA: \
         CUDA events around each launch of the reference in `bench/kernels/K.cu` \
         (`CUDA_MODULE_LOADING=EAGER`, so no launch loads its module).\n"
    );
    let _ = writeln!(
        s,
        "| kernel | ompcc | CUDA | ompcc / CUDA |\n|---|---|---|---|"
    );
    let mut ratios = Vec::new();
    let mut problems = Vec::new();
    for k in kernels {
        let cell = |r: &Result<f64, String>| match r {
            Ok(v) => format!("{v:.3}"),
            Err(_) => "fail".into(),
        };
        let ratio = match (&k.ompcc_ms, &k.cuda_ms) {
            (Ok(o), Ok(c)) if *c > 0.0 => {
                ratios.push(o / c);
                format!("{:.2}", o / c)
            }
            _ => "-".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {ratio} |",
            k.name,
            cell(&k.ompcc_ms),
            cell(&k.cuda_ms)
        );
        for (side, r) in [("ompcc", &k.ompcc_ms), ("CUDA", &k.cuda_ms)] {
            if let Err(e) = r {
                problems.push(format!("{} ({side}): {e}", k.name));
            }
        }
    }
    let geo = stats::geomean(&ratios);
    if let Some(g) = geo {
        let _ = writeln!(s, "| **geomean** | | | **{g:.2}** |");
    }
    let _ = writeln!(
        s,
        "\n## BabelStream-style bandwidth, GB/s\n\n`bench/stream/stream.c` (ompcc) and \
         `stream.cu` (nvcc), 2^25 doubles per array, best of 19 timed runs each, host wall \
         time around each launch.\n"
    );
    let _ = writeln!(
        s,
        "| kernel | ompcc | CUDA | ompcc / CUDA |\n|---|---|---|---|"
    );
    let mut stream_ratio = BTreeMap::new();
    for k in STREAM_KERNELS {
        let get = |r: &StreamRates| r.as_ref().ok().and_then(|m| m.get(*k).copied());
        let (o, c) = (get(ompcc_stream), get(cuda_stream));
        let f = |v: Option<f64>| v.map_or("fail".into(), |v| format!("{v:.1}"));
        let ratio = match (o, c) {
            (Some(o), Some(c)) if c > 0.0 => {
                stream_ratio.insert(*k, o / c);
                format!("{:.3}", o / c)
            }
            _ => "-".into(),
        };
        let _ = writeln!(s, "| {k} | {} | {} | {ratio} |", f(o), f(c));
    }
    for (side, r) in [("ompcc", ompcc_stream), ("CUDA", cuda_stream)] {
        if let Err(e) = r {
            problems.push(format!("stream ({side}): {e}"));
        }
    }
    let _ = writeln!(s, "\n## Goals (issue: code quality vs CUDA)\n");
    let goal = |name: &str, v: Option<f64>, ok: fn(f64) -> bool, want: &str| match v {
        Some(v) => format!(
            "- {name}: {v:.3} ({want}): {}",
            if ok(v) { "met" } else { "not met" }
        ),
        None => format!("- {name}: not measured ({want})"),
    };
    let _ = writeln!(
        s,
        "{}",
        goal(
            "triad GB/s, ompcc / CUDA",
            stream_ratio.get("triad").copied(),
            |v| v >= 0.95,
            "at least 0.95"
        )
    );
    let _ = writeln!(
        s,
        "{}",
        goal(
            "dot GB/s, ompcc / CUDA",
            stream_ratio.get("dot").copied(),
            |v| v >= 0.9,
            "at least 0.9"
        )
    );
    let _ = writeln!(
        s,
        "{}",
        goal(
            "kernel time geomean, ompcc / CUDA",
            geo,
            |v| v <= 1.1,
            "at most 1.1"
        )
    );
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
    fn reads_the_cuda_kernel_time() {
        assert_eq!(cuda_kernel_ms("x\ncuda-kernel-ms 1.250000\n"), Ok(1.25));
        assert!(cuda_kernel_ms("cuda-kernel-ms abc\n").is_err());
        assert!(cuda_kernel_ms("").is_err());
    }

    #[test]
    fn reads_stream_lines_and_requires_the_check() {
        let mut out = String::new();
        for k in STREAM_KERNELS {
            out.push_str(&format!("stream {k} n=100 best 0.5 ms 1000.5 GB/s\n"));
        }
        let ok = parse_stream(&format!("{out}stream check ok\n")).unwrap();
        assert_eq!(ok["triad"], 1000.5);
        let failed = parse_stream(&format!("{out}stream check FAILED\n")).unwrap_err();
        assert!(failed.contains("stream check"), "{failed}");
        let missing = parse_stream("stream copy n=1 best 1 ms 2 GB/s\nstream check ok\n");
        assert!(missing.unwrap_err().contains("no `stream mul` line"));
    }

    #[test]
    fn best_of_keeps_the_smallest_and_stops_at_an_error() {
        let mut v = [3.0, 1.0, 2.0].into_iter();
        assert_eq!(best_of(3, || Ok(v.next().unwrap())), Ok(1.0));
        let mut calls = 0;
        let r = best_of(3, || {
            calls += 1;
            Err("boom".to_string())
        });
        assert_eq!((r, calls), (Err("boom".to_string()), 1));
    }
}
