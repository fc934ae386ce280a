//! Offloading end to end: C programs built by `ompcc` run on the PTX emulator
//! (`OMPCC_DEVICE=emu`) and on the host fallback (`OMPCC_DEVICE=host`), each output compared
//! with the `gcc -fopenmp` build of the same source; on the emulator the runtime's
//! `OMPCC_INFO` log must show the kernels really launched there. Also: separate compilation,
//! `--emit=host-c` keeping user line numbers, `-Rpass=offload`.
//!
//! Programs: `examples/` (saxpy, jacobi, spmv) and `tests/offload/*.c`.

mod support;

use std::path::Path;
use std::process::Output;

use support::{Sandbox, ok, stderr, stdout};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
const PROGRAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/offload");

/// Runs `exe` in `sb` on `device` with the runtime's info log on.
fn run_on(sb: &Sandbox, exe: &str, device: &str) -> Output {
    std::process::Command::new(sb.join(exe))
        .current_dir(sb.path())
        .env("OMPCC_DEVICE", device)
        .env("OMPCC_INFO", "1")
        .env_remove("OMP_TARGET_OFFLOAD")
        .output()
        .expect("running the program")
}

/// Builds `source` with gcc and with ompcc at `opt`, runs the ompcc build on the emulator and
/// on the host, and checks both outputs equal gcc's and that `kernels` launches happened on
/// the emulator. Returns gcc's output.
fn check_program(source: &Path, opt: &str, kernels: usize) -> String {
    let sb = Sandbox::new();
    let src = source.display().to_string();
    ok(&sb.cc(&["-fopenmp", "-O2", &src, "-o", "ref", "-lm"]));
    let reference = sb.run("ref");
    ok(&reference);
    let want = stdout(&reference);
    ok(&sb.ompcc(&["-fopenmp", opt, &src, "-o", "prog", "-lm"]));
    for device in ["emu", "host"] {
        let out = run_on(&sb, "prog", device);
        ok(&out);
        assert_eq!(stdout(&out), want, "{src} {opt} on {device}");
        let log = stderr(&out);
        let launches = log.lines().filter(|l| l.contains(": launch '")).count();
        if device == "emu" {
            assert!(
                launches >= kernels,
                "{src}: {launches} launches on emu, want at least {kernels}:\n{log}"
            );
        } else {
            assert_eq!(launches, 0, "{src}: launches on the host device:\n{log}");
        }
    }
    want
}

#[test]
fn saxpy_example_matches_gcc() {
    let out = check_program(&Path::new(EXAMPLES).join("saxpy.c"), "-O2", 1);
    assert!(out.contains("wrong=0"), "{out}");
}

#[test]
fn jacobi_example_keeps_data_on_the_device() {
    check_program(&Path::new(EXAMPLES).join("jacobi.c"), "-O2", 200);
}

#[test]
fn spmv_example_matches_gcc_at_o0() {
    check_program(&Path::new(EXAMPLES).join("spmv.c"), "-O0", 1);
}

#[test]
fn data_constructs_sections_and_attachment_match_gcc() {
    check_program(&Path::new(PROGRAMS).join("data_constructs.c"), "-O2", 5);
}

#[test]
fn declare_target_globals_updates_and_device_math_match_gcc() {
    check_program(&Path::new(PROGRAMS).join("globals_math.c"), "-O2", 2);
}

#[test]
fn separately_compiled_units_each_register_their_module() {
    let sb = Sandbox::new();
    sb.write(
        "a.c",
        "#include <stdio.h>\ndouble lib_total(int n);\nint main(void) {\n  int v[8];\n\
         #pragma omp target teams distribute parallel for map(from: v)\n  \
         for (int i = 0; i < 8; i++) v[i] = i * i;\n  \
         printf(\"%d %g\\n\", v[7], lib_total(100));\n  return 0;\n}\n",
    );
    let lib = Path::new(PROGRAMS).join("sep_lib.c").display().to_string();
    ok(&sb.ompcc(&["-fopenmp", "-c", "a.c"]));
    ok(&sb.ompcc(&["-fopenmp", "-c", &lib, "-o", "b.o"]));
    ok(&sb.ompcc(&["-fopenmp", "a.o", "b.o", "-o", "prog"]));
    ok(&sb.cc(&["-fopenmp", "a.c", &lib, "-o", "ref"]));
    let want = stdout(&sb.run("ref"));
    for device in ["emu", "host"] {
        let out = run_on(&sb, "prog", device);
        ok(&out);
        assert_eq!(stdout(&out), want, "on {device}");
    }
    let log = stderr(&run_on(&sb, "prog", "emu"));
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("registered module"))
            .count(),
        2,
        "{log}"
    );
    assert_eq!(log.lines().filter(|l| l.contains(": launch '")).count(), 2);
}

/// A kernel in one unit calling a declare-target function defined in another needs the
/// device lowering to declare the callee as external (see the report of this branch).
#[test]
#[ignore = "ompcc-lower does not yet declare declare-target functions defined in other units"]
fn a_kernel_calls_a_declare_target_function_of_another_unit() {
    let sb = Sandbox::new();
    let main = Path::new(PROGRAMS).join("sep_main.c").display().to_string();
    let lib = Path::new(PROGRAMS).join("sep_lib.c").display().to_string();
    ok(&sb.ompcc(&["-fopenmp", "-c", &main, "-o", "a.o"]));
    ok(&sb.ompcc(&["-fopenmp", "-c", &lib, "-o", "b.o"]));
    ok(&sb.ompcc(&["-fopenmp", "a.o", "b.o", "-o", "prog"]));
    ok(&sb.cc(&["-fopenmp", &main, &lib, "-o", "ref"]));
    let out = run_on(&sb, "prog", "emu");
    ok(&out);
    assert_eq!(stdout(&out), stdout(&sb.run("ref")));
}

#[test]
fn host_c_keeps_the_line_numbers_of_user_code() {
    let sb = Sandbox::new();
    // gcc's warnings after a rewritten construct must name the same lines.
    let src = "#include <stdio.h>\nint main(void) {\n  int n = 10, a[10];\n\
               #pragma omp target teams distribute parallel for map(from: a)\n  \
               for (int i = 0; i < n; i++)\n    a[i] = i;\n\
               #pragma omp target update from(a[0:2])\n  \
               int unused_here;\n  printf(\"%d\\n\", a[9]);\n  return 0;\n}\n";
    sb.write("t.c", src);
    let host_c = sb.ompcc(&["-fopenmp", "--emit=host-c", "t.c"]);
    ok(&host_c);
    let text = stdout(&host_c);
    assert!(text.contains("ompcc_rt_launch(&"), "{text}");
    assert!(text.contains("ompcc_rt_target_update("), "{text}");
    assert!(text.contains("ompcc_rt_register_module(&d)"), "{text}");
    let ours = sb.ompcc(&["-fopenmp", "-Wall", "-c", "t.c"]);
    ok(&ours);
    let theirs = sb.cc(&["-fopenmp", "-Wall", "-c", "t.c"]);
    let line = |out: &Output| {
        stderr(out)
            .lines()
            .find(|l| l.contains("unused_here") && l.contains("warning"))
            .map(|l| l.split(':').take(2).collect::<Vec<_>>().join(":"))
    };
    assert_eq!(line(&ours), Some("t.c:8".to_owned()), "{}", stderr(&ours));
    assert_eq!(line(&ours), line(&theirs));
}

#[test]
fn rpass_offload_describes_each_region() {
    let sb = Sandbox::new();
    let saxpy = Path::new(EXAMPLES).join("saxpy.c").display().to_string();
    let out = sb.ompcc(&["-fopenmp", "-Rpass=offload", "-c", &saxpy, "-o", "s.o"]);
    ok(&out);
    let err = stderr(&out);
    assert!(
        err.contains("saxpy.c:16:1: remark: target region offloaded as kernel '__omp_offload_main_l16': SPMD mode, runtime teams x runtime threads, 4 parameters [-Rpass=offload]"),
        "{err}"
    );
    assert!(
        err.contains("parameter 1 'y' (device pointer, 8 bytes): map(tofrom: y[0:n]) explicit")
            || err.contains("'y' (device pointer, 8 bytes): map(tofrom: y[0:n]) explicit"),
        "{err}"
    );
    assert!(err.contains("'a' (value, 4 bytes): firstprivate"), "{err}");
    // Without the flag: no remarks.
    let quiet = sb.ompcc(&["-fopenmp", "-c", &saxpy, "-o", "s.o"]);
    ok(&quiet);
    assert!(!stderr(&quiet).contains("remark"), "{}", stderr(&quiet));
}

#[test]
fn if_false_runs_the_original_construct_on_the_host() {
    let sb = Sandbox::new();
    sb.write(
        "t.c",
        "#include <stdio.h>\n#include <omp.h>\nint main(void) {\n  int on_host = -1, c = 0;\n\
         #pragma omp target map(from: on_host) if(c)\n  on_host = omp_is_initial_device();\n\
         #pragma omp target map(from: c)\n  c = omp_is_initial_device();\n  \
         printf(\"%d %d\\n\", on_host, c);\n  return 0;\n}\n",
    );
    ok(&sb.ompcc(&["-fopenmp", "t.c", "-o", "prog"]));
    let out = run_on(&sb, "prog", "emu");
    ok(&out);
    assert_eq!(stdout(&out), "1 0\n", "{}", stderr(&out));
    let log = stderr(&out);
    assert_eq!(
        log.lines().filter(|l| l.contains(": launch '")).count(),
        1,
        "{log}"
    );
}
