//! Helpers shared by the test harnesses: locating the `ompcc` binary and `ptxas`, running a
//! program with a time limit, and comparing program outputs with a float tolerance.
//!
//! Invariants: only [`ompcc_binary`] panics on a missing tool (the harnesses cannot do anything
//! without it, and the message says how to build it); everything else reports absence as `None`
//! or as an `Err`, so each harness decides whether that is a failure.

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The `ompcc` binary of the current cargo build: `target/<profile>/ompcc`, found from the test
/// executable's own path (`target/<profile>/deps/<test>-<hash>`).
///
/// Panics with instructions when the binary has not been built (`cargo test --workspace` builds it,
/// because the driver package is a workspace member; `cargo test -p ompcc-testsuite` alone does not).
pub fn ompcc_binary() -> PathBuf {
    match locate_ompcc() {
        Ok(path) => path,
        Err(msg) => panic!("{msg}"),
    }
}

/// Like [`ompcc_binary`], but returns the explanation instead of panicking.
pub fn locate_ompcc() -> Result<PathBuf, String> {
    let exe = env::current_exe().map_err(|e| format!("cannot find the test executable: {e}"))?;
    let deps = exe
        .parent()
        .ok_or_else(|| format!("test executable {} has no parent folder", exe.display()))?;
    // Test executables live in target/<profile>/deps; build-script or example layouts do not.
    let profile_dir = if deps.file_name() == Some(OsStr::new("deps")) {
        deps.parent().unwrap_or(deps)
    } else {
        deps
    };
    let bin = profile_dir.join(format!("ompcc{}", env::consts::EXE_SUFFIX));
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "the ompcc binary is missing at {}; build it first with `cargo build -p ompcc-driver` \
             (same profile as the tests) or run `cargo test --workspace`",
            bin.display()
        ))
    }
}

/// `ptxas`, looked up on `PATH`, then in the `nvidia-cuda-nvcc-cu12` Python package
/// (`python3 -c 'import nvidia.cuda_nvcc'`, its `bin/` folder).
pub fn find_ptxas() -> Option<PathBuf> {
    let name = format!("ptxas{}", env::consts::EXE_SUFFIX);
    if let Some(paths) = env::var_os("PATH") {
        for dir in env::split_paths(&paths) {
            let candidate = dir.join(&name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    // The package is a namespace package (no __file__), so ask for its __path__.
    let out = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let dir = String::from_utf8(out.stdout).ok()?;
    let candidate = Path::new(dir.trim()).join("bin").join(&name);
    candidate.is_file().then_some(candidate)
}

/// Whether a missing `ptxas` must fail the tests instead of skipping them
/// (`OMPCC_REQUIRE_PTXAS=1`, set by CI).
pub fn require_ptxas() -> bool {
    env::var("OMPCC_REQUIRE_PTXAS").is_ok_and(|v| v == "1")
}

/// What a finished (or killed) program run produced.
#[derive(Debug)]
pub struct RunOutput {
    /// Exit status; `None` when the run was killed at the time limit.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

impl RunOutput {
    /// A one-line description of how the program ended, for failure reports.
    pub fn describe_end(&self) -> String {
        match self.status {
            None => "timed out".to_string(),
            Some(s) => match s.code() {
                Some(code) => format!("exit code {code}"),
                None => format!("killed by a signal ({s})"),
            },
        }
    }
}

/// Runs `cmd` with its output captured in files under `scratch` (so a chatty program cannot
/// block on a full pipe) and kills it after `limit`.
pub fn run_with_timeout(
    cmd: &mut Command,
    scratch: &Path,
    tag: &str,
    limit: Duration,
) -> std::io::Result<RunOutput> {
    let out_path = scratch.join(format!("{tag}.stdout"));
    let err_path = scratch.join(format!("{tag}.stderr"));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out_path)?)
        .stderr(fs::File::create(&err_path)?)
        .spawn()?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() >= limit {
            // The child may have exited between try_wait and kill; both outcomes are fine.
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(5));
    };
    let read = |p: &Path| String::from_utf8_lossy(&fs::read(p).unwrap_or_default()).into_owned();
    Ok(RunOutput {
        status,
        stdout: read(&out_path),
        stderr: read(&err_path),
    })
}

/// Relative tolerance for numbers in compared outputs: programs print floats with `%.6g`, so a
/// different but correct evaluation order may change the last printed digit.
pub const FLOAT_REL_TOL: f64 = 1e-5;

/// Compares two program outputs. Exact equality passes; otherwise the outputs must have the same
/// lines, each split into the same tokens, where tokens that both parse as floating-point numbers
/// may differ by [`FLOAT_REL_TOL`] (relative) and every other token must be equal.
///
/// Returns `None` when they match, or a description of the first difference.
pub fn compare_outputs(expected: &str, actual: &str) -> Option<String> {
    compare_outputs_within(expected, actual, FLOAT_REL_TOL)
}

/// [`compare_outputs`] with the relative tolerance for numbers given by the caller.
pub fn compare_outputs_within(expected: &str, actual: &str, rel_tol: f64) -> Option<String> {
    if expected == actual {
        return None;
    }
    let exp_lines: Vec<&str> = expected.lines().collect();
    let act_lines: Vec<&str> = actual.lines().collect();
    for (i, (e, a)) in exp_lines.iter().zip(&act_lines).enumerate() {
        if !lines_match(e, a, rel_tol) {
            return Some(format!(
                "line {}:\n    expected: {e:?}\n    actual:   {a:?}",
                i + 1
            ));
        }
    }
    if exp_lines.len() != act_lines.len() {
        return Some(format!(
            "expected {} lines, got {} (first extra: {:?})",
            exp_lines.len(),
            act_lines.len(),
            exp_lines
                .get(act_lines.len())
                .or(act_lines.get(exp_lines.len()))
                .copied()
                .unwrap_or("")
        ));
    }
    // Same lines modulo tolerance, but a trailing newline differs.
    if expected.ends_with('\n') != actual.ends_with('\n') {
        return Some("outputs differ in the final newline".to_string());
    }
    None
}

fn lines_match(expected: &str, actual: &str, rel_tol: f64) -> bool {
    if expected == actual {
        return true;
    }
    let e = tokens(expected);
    let a = tokens(actual);
    e.len() == a.len() && e.iter().zip(&a).all(|(x, y)| tokens_match(x, y, rel_tol))
}

/// Splits a line at whitespace and at punctuation that never belongs to a number.
fn tokens(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || ",;:()[]{}=<>|/".contains(c))
        .filter(|t| !t.is_empty())
        .collect()
}

fn tokens_match(expected: &str, actual: &str, rel_tol: f64) -> bool {
    if expected == actual {
        return true;
    }
    // Integers (counts, checksums, exit codes) must match exactly; only numbers written with a
    // fraction or an exponent get the tolerance.
    let looks_float = |t: &str| t.contains(['.', 'e', 'E']);
    if !looks_float(expected) && !looks_float(actual) {
        return false;
    }
    match (expected.parse::<f64>(), actual.parse::<f64>()) {
        (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => {
            let scale = x.abs().max(y.abs());
            // Values printed as 0 or rounding noise near zero (1e-17) compare absolutely.
            (x - y).abs() <= rel_tol * scale || (x - y).abs() <= 1e-9
        }
        _ => false,
    }
}

/// Runs `check` on every `*.c` file of `testsuite/<folder>` (sorted) and fails with every
/// failure listed; fewer than `min` files is a failure too, so a moved folder cannot pass.
/// Compares `actual` with the `.expected` file next to `path` (`BLESS=1` writes it instead):
/// the first differing line and the whole actual text on a mismatch.
pub fn check_expected(path: &Path, actual: &str) -> Result<(), String> {
    let expected_path = path.with_extension("expected");
    if std::env::var_os("BLESS").is_some() {
        return fs::write(&expected_path, actual).map_err(|e| e.to_string());
    }
    let expected = fs::read_to_string(&expected_path)
        .map_err(|e| format!("{}: {e} (run with BLESS=1)", expected_path.display()))?;
    if expected == actual {
        return Ok(());
    }
    let diff = expected
        .lines()
        .zip(actual.lines())
        .enumerate()
        .find(|(_, (e, a))| e != a)
        .map_or_else(
            || {
                format!(
                    "outputs differ in length ({} vs {} lines)",
                    expected.lines().count(),
                    actual.lines().count()
                )
            },
            |(k, (e, a))| {
                format!(
                    "first difference at line {}:\n  expected: {e}\n  actual:   {a}",
                    k + 1
                )
            },
        );
    Err(format!("{diff}\nactual output:\n{actual}"))
}

pub fn check_c_files(folder: &str, min: usize, check: impl Fn(&Path) -> Result<(), String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read testsuite/{folder}: {e}"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= min, "only {} {folder} tests", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} {folder} tests failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptxas_is_found_when_required() {
        // CI sets OMPCC_REQUIRE_PTXAS=1 after installing ptxas; elsewhere absence is allowed.
        if require_ptxas() {
            let found = find_ptxas();
            assert!(
                found.as_ref().is_some_and(|p| p.is_file()),
                "OMPCC_REQUIRE_PTXAS=1 but ptxas was not found on PATH or in the nvidia.cuda_nvcc package"
            );
        }
    }

    #[test]
    fn equal_outputs_match() {
        assert_eq!(compare_outputs("a 1\n", "a 1\n"), None);
    }

    #[test]
    fn floats_within_tolerance_match() {
        assert_eq!(
            compare_outputs("x=1.23457, y=2\n", "x=1.23456, y=2\n"),
            None
        );
        assert_eq!(compare_outputs("r 1e-17\n", "r -3e-18\n"), None);
    }

    #[test]
    fn different_outputs_do_not_match() {
        assert!(compare_outputs("x=1.5\n", "x=1.6\n").is_some());
        assert!(compare_outputs("a\nb\n", "a\n").is_some());
        assert!(compare_outputs("a\n", "a").is_some());
        assert!(compare_outputs("word 3\n", "ward 3\n").is_some());
        assert!(compare_outputs("n=7\n", "n=8\n").is_some());
        // Large integers are compared exactly, not with the float tolerance.
        assert!(compare_outputs("h 123456789\n", "h 123456790\n").is_some());
    }

    #[test]
    fn tolerance_is_the_callers() {
        assert_eq!(
            compare_outputs_within("x=1.000001\n", "x=1.000002\n", 1e-5),
            None
        );
        assert!(compare_outputs_within("x=1.000001\n", "x=1.000004\n", 1e-6).is_some());
    }
}
