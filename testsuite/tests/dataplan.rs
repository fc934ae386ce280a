//! Data-planner and automatic-offload file tests: every `testsuite/dataplan/*.c` goes through
//! `ompcc -fopenmp --emit=annotated-c -Rpass=plan-data -Rpass-missed=plan-data`, and the
//! annotated source followed by the remarks must equal `*.expected` next to it (`BLESS=1`
//! rewrites them). Whether planned programs still print what gcc's build prints is the run
//! suite's business (`tests/run.rs` builds every run program with `-fopenmp-plan-data` too).

use std::path::Path;
use std::process::Command;

fn annotate(path: &Path) -> Result<String, String> {
    emit(path, &["-Rpass=plan-data", "-Rpass-missed=plan-data"])
}

fn emit(path: &Path, flags: &[&str]) -> Result<String, String> {
    let dir = path.parent().ok_or("no folder")?;
    let name = path.file_name().ok_or("no file name")?;
    let out = Command::new(ompcc_testsuite::harness::ompcc_binary())
        .current_dir(dir)
        .args(["-fopenmp", "--emit=annotated-c"])
        .args(flags)
        .arg(name)
        .output()
        .map_err(|e| format!("cannot run ompcc: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("ompcc failed:\n{stderr}"));
    }
    Ok(format!("{stdout}---- remarks\n{stderr}"))
}

#[test]
fn dataplan_files() {
    ompcc_testsuite::harness::check_c_files("dataplan", 10, |p| {
        ompcc_testsuite::harness::check_expected(p, &annotate(p)?)
    });
}

/// Automatic-offload file tests: `testsuite/autooffload/*.c` through
/// `ompcc -fopenmp -fopenmp-auto-offload --emit=annotated-c` with its remarks.
#[test]
fn autooffload_files() {
    ompcc_testsuite::harness::check_c_files("autooffload", 3, |p| {
        let flags = [
            "-fopenmp-auto-offload",
            "-Rpass=auto-offload",
            "-Rpass-missed=auto-offload",
        ];
        ompcc_testsuite::harness::check_expected(p, &emit(p, &flags)?)
    });
}
