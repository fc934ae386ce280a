//! MPI programs built with `OMPI_CC=ompcc mpicc` and run by `mpirun -np 2` with their target
//! regions on the emulator: each rank's runtime lines are whole and carry its rank, each rank
//! writes its own `OMPCC_PROFILE=json:prof-%r.json`, and each takes its device by local rank.
//! Needs Open MPI (`mpicc`, `mpirun`): .ci/run installs it; a missing one fails the test.

mod support;

use std::process::Command;

use support::{OMPCC, Sandbox, ok, stderr, stdout};

const PROGRAM: &str = "\
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, a[32];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#pragma omp target teams distribute parallel for map(from: a)
  for (int i = 0; i < 32; i++) a[i] = i * (rank + 1);
  long s = 0, total = 0;
  for (int i = 0; i < 32; i++) s += a[i];
  MPI_Reduce(&s, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf(\"ranks=%d total=%ld\\n\", size, total);
  MPI_Finalize();
  return 0;
}
";

#[test]
fn two_ranks_run_target_regions_with_tagged_lines_and_own_profiles() {
    let sb = Sandbox::new();
    sb.write("mpi.c", PROGRAM);
    let build = Command::new("mpicc")
        .args(["-fopenmp", "mpi.c", "-o", "mpi"])
        .current_dir(sb.path())
        .env("OMPI_CC", OMPCC)
        .env("OMPCC_RUNTIME_LIB", support::runtime_lib())
        .env_remove("OMPCC_HOST_CC")
        .output()
        .expect("mpicc is required (apt-get install openmpi-bin libopenmpi-dev, see .ci/run)");
    ok(&build);
    let run = Command::new("mpirun")
        .args(["--oversubscribe", "-np", "2", "./mpi"])
        .current_dir(sb.path())
        // Containers run tests as root; Open MPI refuses that unless told.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPCC_DEVICE", "emu")
        .env("OMPCC_INFO", "launches,devices")
        .env("OMPCC_PROFILE", "json:prof-%r.json")
        .env_remove("OMP_DEFAULT_DEVICE")
        .output()
        .expect("mpirun is required (apt-get install openmpi-bin, see .ci/run)");
    ok(&run);
    assert_eq!(stdout(&run), "ranks=2 total=1488\n");
    let log = stderr(&run);
    for rank in 0..2 {
        let tag = format!("[rank {rank}] ompcc-rt: info: ");
        assert!(
            log.lines()
                .any(|l| l.starts_with(&tag) && l.contains(": launch '__omp_offload_main_l8'")),
            "{log}"
        );
        assert!(
            log.lines().any(|l| l.starts_with(&tag)
                && l.ends_with(&format!(
                    "default device 0: local MPI rank {rank} mod 1 devices"
                ))),
            "{log}"
        );
        let json = String::from_utf8(sb.read(&format!("prof-{rank}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            v["kernels"]["__omp_offload_main_l8"]["launches"], 1,
            "{json}"
        );
    }
    // Every runtime line is whole and tagged: no line mixes two ranks' text.
    for l in log.lines().filter(|l| l.contains("ompcc-rt")) {
        assert!(l.starts_with("[rank "), "{l}");
        assert_eq!(l.matches("ompcc-rt:").count(), 1, "{l}");
    }
}
