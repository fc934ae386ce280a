//! The automatic-offload programs (`testsuite/auto`, issue 15): plain OpenMP in the shapes of
//! the papers' benchmarks. Those in `offload/` must run kernels on the device side and print
//! gcc's output with either version; those in `host/` must keep every loop on the host and
//! print gcc's output. `OMPCC_RUN_FILTER` selects programs by name.

use std::path::Path;

use ompcc_testsuite::auto_offload::{Expect, check_all};
use ompcc_testsuite::harness::ompcc_binary;
use ompcc_testsuite::programs::{c_files, filtered, render_report};

/// Programs of `offload/` the analysis cannot offload yet, with the fact it misses.
const NOT_YET: &[(&str, &str)] = &[];

fn suite(dir: &str, min: usize, offloads: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("auto").join(dir);
    let all = c_files(&dir);
    assert!(
        all.len() >= min,
        "{}: {} programs, the issue asks for {min}",
        dir.display(),
        all.len()
    );
    let programs = filtered("OMPCC_RUN_FILTER", all);
    let expect = |name: &str| match NOT_YET.iter().find(|(n, _)| *n == name) {
        Some((_, why)) if offloads => Expect::NotYet(why),
        _ if offloads => Expect::Offload,
        _ => Expect::Host,
    };
    let failures = check_all(&programs, &ompcc_binary(), &expect);
    assert!(
        failures.is_empty(),
        "{}",
        render_report("auto-offload programs", programs.len(), &failures)
    );
}

#[test]
fn offloaded_programs_print_what_gcc_prints() {
    suite("offload", 20, true);
}

#[test]
fn host_programs_keep_their_loops_on_the_host() {
    suite("host", 8, false);
}
