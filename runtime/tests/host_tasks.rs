//! Links `tests/c/host_tasks.c` against the static library and libgomp, and runs it on the
//! simulated device: the OpenMP 5.1/5.2 routines of `host_task.rs` and the wrapped task entry
//! points (firstprivate copies, taskloop bounds and reductions) behave as OpenMP says.

use std::path::Path;
use std::process::Command;

mod common;

#[test]
fn explicit_tasks_and_async_copies() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.path().join("host_tasks");
    let o = Command::new("cc")
        .args(["-fopenmp", "-O2", "-I"])
        .arg(manifest.join("include"))
        .arg(manifest.join("tests/c/host_tasks.c"))
        .arg(common::staticlib())
        .args(["-ldl", "-lpthread", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("cc must be installed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for threads in ["1", "4"] {
        let o = Command::new(&exe)
            .env("OMPCC_DEVICE", "sim")
            .env("OMP_NUM_THREADS", threads)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            stdout,
            "vla task: got=16 explicit=1\n\
             taskloop: sum=499500 count=1000 outside=0 usum=190\n\
             async: bad=0 total=1498500\n\
             accessible: host=1 device=0\n\
             mapped: host=1 unmapped=1\n",
            "stderr: {stderr}"
        );
    }
}
