//! The benchmark programs themselves: each builds with the host compiler and offloading
//! disabled, runs, and prints one checksum line (the reference the `kernels` runner compares
//! device runs against); ompcc's frontend accepts each with no diagnostic; and the list holds
//! every kernel the optimization issue names.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

fn sources() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    v
}

fn host_cc() -> Vec<String> {
    std::env::var("OMPCC_HOST_CC")
        .unwrap_or_else(|_| "cc".into())
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[test]
fn every_named_kernel_is_present() {
    let names: Vec<String> = sources()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "saxpy",
        "triad",
        "dot",
        "gemm",
        "atax",
        "bicg",
        "mvt",
        "jacobi2d",
        "fdtd2d",
        "heat3d",
        "conv2d",
        "spmv",
        "stencil3x3",
    ] {
        assert!(names.iter().any(|n| n == want), "missing kernel {want}");
    }
}

#[test]
fn kernels_run_on_the_host_compiler_with_offloading_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let cc = host_cc();
    for src in sources() {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let exe = dir.path().join(&name);
        let out = Command::new(&cc[0])
            .args(&cc[1..])
            .args(["-fopenmp", "-foffload=disable", "-O1", "-Wall", "-Werror"])
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().unwrap();
        assert!(run.status.success(), "{name} exited with {}", run.status);
        let text = String::from_utf8_lossy(&run.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "{name}: one line of output: {text}");
        let words: Vec<&str> = lines[0].split_whitespace().collect();
        assert_eq!(words[0], name, "{name}: the line starts with the name");
        let pos = words
            .iter()
            .position(|w| *w == "checksum")
            .expect("checksum");
        let value: f64 = words[pos + 1].parse().unwrap();
        assert!(
            value.is_finite() && value != 0.0,
            "{name}: checksum {value}"
        );
    }
}

#[test]
fn kernels_pass_ompccs_frontend() {
    let cc = host_cc();
    for src in sources() {
        let name = src.display().to_string();
        let pp = Command::new(&cc[0])
            .args(&cc[1..])
            .args(["-E", "-fopenmp"])
            .arg(&src)
            .output()
            .unwrap();
        assert!(pp.status.success(), "{name}: cc -E failed");
        let text = String::from_utf8(pp.stdout).unwrap();
        let (tu, _sm, diags) = ompcc_syntax::parse_translation_unit(&text, &name);
        assert!(
            diags.is_empty(),
            "{name}: {} parse diagnostics",
            diags.len()
        );
        let tu = tu.expect("a translation unit");
        let (_typed, diags) = ompcc_sema::check(&tu);
        assert!(
            diags.is_empty(),
            "{name}: {:?}",
            diags.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
}

/// The BabelStream-style program of the GPU comparison builds with the host compiler, runs
/// at a small size, prints one rate line per kernel and passes its own check of the arrays.
#[test]
fn stream_program_runs_and_checks_its_results() {
    let dir = tempfile::tempdir().unwrap();
    let cc = host_cc();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("stream/stream.c");
    let exe = dir.path().join("stream");
    let out = Command::new(&cc[0])
        .args(&cc[1..])
        .args(["-fopenmp", "-foffload=disable", "-O1", "-Wall", "-Werror"])
        .args(["-DSTREAM_N=10000", "-DNTIMES=4"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    for kernel in ["copy", "mul", "add", "triad", "dot"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("stream {kernel} n=10000 best "))
                    && l.ends_with(" GB/s")),
            "{kernel}: {text}"
        );
    }
    assert!(text.lines().any(|l| l == "stream check ok"), "{text}");
}

/// The coalescing pairs (`coalesce/NAME-natural.c`, `NAME-hand.c`): every pair the issue
/// names is there, each file builds with the host compiler (offloading disabled, warnings as
/// errors) and prints one checksum line, and the two files of a pair print the same result
/// within the runner's tolerance.
#[test]
fn coalesce_pairs_print_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let cc = host_cc();
    let pairs = Path::new(env!("CARGO_MANIFEST_DIR")).join("coalesce");
    let run = |file: &str| -> String {
        let src = pairs.join(file);
        let exe = dir.path().join(file.trim_end_matches(".c"));
        let out = Command::new(&cc[0])
            .args(&cc[1..])
            .args(["-fopenmp", "-foffload=disable", "-O1", "-Wall", "-Werror"])
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().unwrap();
        assert!(run.status.success(), "{file} exited with {}", run.status);
        let text = String::from_utf8_lossy(&run.stdout).into_owned();
        assert_eq!(
            text.lines().count(),
            1,
            "{file}: one line of output: {text}"
        );
        assert!(text.contains(" checksum "), "{file}: {text}");
        text
    };
    for name in [
        "jacobi",
        "gemm",
        "atax",
        "bicg",
        "mvt",
        "spmv",
        "transpose",
        "stencil3d",
        "ep",
        "triangular",
    ] {
        let natural = run(&format!("{name}-natural.c"));
        let hand = run(&format!("{name}-hand.c"));
        assert!(natural.starts_with(name), "{name}: {natural}");
        ompcc_bench::output::matches(&natural, &hand, 1e-4)
            .unwrap_or_else(|e| panic!("{name}: the hand version prints another result: {e}"));
    }
}
