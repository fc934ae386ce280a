//! Checking the plain-OpenMP programs of automatic offload (`testsuite/auto`, issue 15)
//! against gcc: each is built with `ompcc -fopenmp -fopenmp-auto-offload` and run on the
//! emulator with `OMPCC_AUTO_OFFLOAD=device` and with `host`, and the user's file with the
//! versions written in (`--emit=annotated-c`) is built by gcc; every output must equal
//! gcc's. The programs of `offload/` must launch kernels on the device side (the
//! `OMPCC_INFO=auto` and launch lines say so); those of `host/` must launch none.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::programs::{
    Checks, Failure, LIBS, check_annotated, check_run, map_programs, program_name,
    reference_output, run, tail, workers,
};

const COMPILE_LIMIT: Duration = Duration::from_secs(120);

/// The -O levels built.
const LEVELS: &[&str] = &["-O0", "-O2"];

/// What a program must do.
#[derive(Clone, Copy)]
pub enum Expect<'a> {
    /// Run kernels on the device side.
    Offload,
    /// Keep every loop on the host.
    Host,
    /// Keep its loops on the host for now, with this text in its `-Rpass-missed` remark (a
    /// known gap of the analysis; the test fails once it is closed, to be taken off the list).
    NotYet(&'a str),
}

/// Every check of every program; `expect` says what each (by name) must do.
pub fn check_all(
    programs: &[std::path::PathBuf],
    ompcc: &Path,
    expect: &(dyn Fn(&str) -> Expect<'static> + Sync),
) -> Vec<Failure> {
    map_programs(programs, workers(), |program, scratch| {
        check_program(program, scratch, ompcc, expect(&program_name(program)))
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Builds with `cmd`; its stderr (the remarks).
fn compile_remarks(cmd: &mut Command, scratch: &Path) -> Result<String, (String, String)> {
    let out =
        crate::harness::run_with_timeout(cmd.current_dir(scratch), scratch, "auto", COMPILE_LIMIT)
            .map_err(|e| (format!("cannot start: {e}"), String::new()))?;
    if out.status.is_none_or(|s| !s.success()) {
        return Err((
            format!("build failed ({})", out.describe_end()),
            tail(&out.stderr, 30),
        ));
    }
    Ok(out.stderr)
}

fn launches(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|l| l.starts_with("ompcc-rt: info: ") && l.contains(": launch '"))
        .count()
}

fn device_versions(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|l| l.contains("auto-offload runs the device version"))
        .count()
}

fn check_program(program: &Path, scratch: &Path, ompcc: &Path, expect: Expect) -> Vec<Failure> {
    let offloads = matches!(expect, Expect::Offload);
    let name = program_name(program);
    let mut checks = Checks {
        program: &name,
        failures: Vec::new(),
    };
    let Some(reference) = reference_output(&mut checks, program, scratch) else {
        return checks.failures;
    };
    for level in LEVELS {
        let exe = scratch.join(format!("auto{level}"));
        let mut cmd = Command::new(ompcc);
        cmd.args(["-fopenmp", "-fopenmp-auto-offload", level])
            .arg("-Rpass-missed=auto-offload")
            .arg(program)
            .arg("-o")
            .arg(&exe)
            .args(LIBS);
        let config = format!("ompcc {level} -fopenmp-auto-offload");
        let remarks = match compile_remarks(&mut cmd, scratch) {
            Ok(r) => r,
            Err((summary, detail)) => {
                checks.fail(&config, summary, detail);
                continue;
            }
        };
        if let Expect::NotYet(why) = expect
            && !remarks.contains(why)
        {
            checks.fail(
                &config,
                format!("no remark says '{why}' (a known gap closed? take it off the list)"),
                remarks,
            );
        }
        for choice in ["device", "host"] {
            let config = format!("ompcc {level} auto-offload {choice}");
            let out = match run(
                &exe,
                scratch,
                &format!("{choice}{level}"),
                &[
                    ("OMPCC_DEVICE", "emu"),
                    ("OMPCC_AUTO_OFFLOAD", choice),
                    ("OMPCC_INFO", "launches,auto"),
                ],
            ) {
                Ok(out) => out,
                Err(e) => {
                    checks.fail(&config, e, "");
                    continue;
                }
            };
            if !check_run(&mut checks, &config, &out, &reference) {
                continue;
            }
            let (versions, kernels) = (device_versions(&out.stderr), launches(&out.stderr));
            let wrong = match (offloads, choice) {
                (true, "device") => (versions == 0 || kernels == 0)
                    .then_some("no loop ran its device version on the emulator"),
                (true, _) => (kernels > 0).then_some("OMPCC_AUTO_OFFLOAD=host launched a kernel"),
                (false, _) => (versions > 0 || kernels > 0)
                    .then_some("a loop that must stay on the host was offloaded"),
            };
            if let Some(what) = wrong {
                checks.fail(
                    &config,
                    what,
                    format!(
                        "{versions} device versions, {kernels} launches; stderr (tail):\n{}",
                        tail(&out.stderr, 20)
                    ),
                );
            }
        }
    }
    // the annotated source is portable OpenMP: gcc builds it and it prints the same
    let flags = ["-fopenmp-auto-offload"];
    check_annotated(&mut checks, ompcc, &flags, program, scratch, &reference);
    checks.failures
}
