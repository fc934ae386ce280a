//! Offloading end to end: C programs built by `ompcc` run on the PTX emulator
//! (`OMPCC_DEVICE=emu`) and on the host fallback (`OMPCC_DEVICE=host`), each output compared
//! with the `gcc -fopenmp` build of the same source; on the emulator the runtime's
//! `OMPCC_INFO` log must show the kernels really launched there. Also: separate compilation,
//! `--emit=host-c-full` keeping user line numbers, `-Rpass=offload`.
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

#[test]
fn a_unit_without_device_code_calls_routines_only_the_runtime_defines() {
    // No device directive anywhere, and libgomp 12 lacks these routines: the unit is still
    // rewritten (the prelude declares them, so no implicit `int` pointer) and linked with the
    // runtime, in one command and separately.
    let sb = Sandbox::new();
    sb.write(
        "u.c",
        "#include <omp.h>\n#include <stdio.h>\nstatic double a[8];\nint main(void) {\n  \
         void *p = omp_get_mapped_ptr(a, omp_get_initial_device());\n  int e = -1;\n\
         #pragma omp parallel num_threads(2)\n#pragma omp single\n\
         #pragma omp task shared(e)\n  e = omp_in_explicit_task();\n  \
         printf(\"%d %d %d\\n\", p == (void *)a, e, \
         omp_target_is_accessible(a, 8, omp_get_initial_device()));\n  return 0;\n}\n",
    );
    let built = sb.ompcc(&["-fopenmp", "-Wall", "u.c", "-o", "one"]);
    ok(&built);
    assert!(!stderr(&built).contains("implicit"), "{}", stderr(&built));
    ok(&sb.ompcc(&["-fopenmp", "-c", "u.c"]));
    ok(&sb.ompcc(&["-fopenmp", "u.o", "-o", "two"]));
    for exe in ["one", "two"] {
        let out = run_on(&sb, exe, "host");
        ok(&out);
        assert_eq!(stdout(&out), "1 1 1\n", "{exe}");
    }
}

/// `ptxas`: on `PATH`, else in the `nvidia-cuda-nvcc-cu12` Python package; `None` when
/// absent (a failure instead when `OMPCC_REQUIRE_PTXAS=1`, as in CI).
fn find_ptxas() -> Option<std::path::PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("ptxas"))
            .find(|p| p.is_file())
    });
    let found = on_path.or_else(|| {
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])",
            ])
            .output()
            .ok()?;
        let dir = String::from_utf8(out.stdout).ok()?;
        let p = Path::new(dir.trim()).join("bin").join("ptxas");
        p.is_file().then_some(p)
    });
    if found.is_none() {
        assert!(
            std::env::var("OMPCC_REQUIRE_PTXAS").as_deref() != Ok("1"),
            "ptxas not found and OMPCC_REQUIRE_PTXAS=1"
        );
        eprintln!("ptxas not found: the PTX of each unit is not assembled");
    }
    found
}

/// Builds `units` separately (`-c` each, then one link) and with gcc, checks that each unit's
/// PTX assembles alone (`ptxas -c`: its externs stay unresolved), and that the program's
/// output on the emulator and on the host equals gcc's. Returns the emulator's info log.
fn check_separate(units: &[&str]) -> String {
    let sb = Sandbox::new();
    let srcs: Vec<String> = units
        .iter()
        .map(|u| Path::new(PROGRAMS).join(u).display().to_string())
        .collect();
    let mut objs = Vec::new();
    for (i, src) in srcs.iter().enumerate() {
        let obj = format!("u{i}.o");
        ok(&sb.ompcc(&["-fopenmp", "-c", src, "-o", &obj]));
        objs.push(obj);
    }
    let mut link: Vec<&str> = vec!["-fopenmp"];
    link.extend(objs.iter().map(String::as_str));
    link.extend(["-o", "prog"]);
    ok(&sb.ompcc(&link));
    let mut cc: Vec<&str> = vec!["-fopenmp"];
    cc.extend(srcs.iter().map(String::as_str));
    cc.extend(["-o", "ref"]);
    ok(&sb.cc(&cc));
    if let Some(ptxas) = find_ptxas() {
        for (i, src) in srcs.iter().enumerate() {
            let ptx = sb.ompcc(&["-fopenmp", "--emit=ptx", src]);
            ok(&ptx);
            let file = format!("u{i}.ptx");
            sb.write(&file, &stdout(&ptx));
            let out = std::process::Command::new(&ptxas)
                .current_dir(sb.path())
                .args(["-c", "-arch=sm_70", &file, "-o", &format!("u{i}.cubin")])
                .output()
                .expect("running ptxas");
            ok(&out);
        }
    }
    let want = stdout(&sb.run("ref"));
    let host = run_on(&sb, "prog", "host");
    ok(&host);
    assert_eq!(stdout(&host), want, "on the host");
    let emu = run_on(&sb, "prog", "emu");
    ok(&emu);
    assert_eq!(stdout(&emu), want, "on the emulator");
    stderr(&emu)
}

/// The names of the kernels launched, from an `OMPCC_INFO` log.
fn launched(log: &str) -> Vec<String> {
    let mut names: Vec<String> = log
        .lines()
        .filter_map(|l| l.split(": launch '").nth(1))
        .filter_map(|rest| rest.split('\'').next())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A kernel in one unit calls a declare-target function defined only in another: the call
/// is to an `.extern .func`, resolved when the runtime links the units' device code.
#[test]
fn a_kernel_calls_a_declare_target_function_of_another_unit() {
    let log = check_separate(&["sep_main.c", "sep_lib.c"]);
    assert_eq!(launched(&log), ["__omp_offload_main_l10"], "{log}");
}

/// `extern` declare-target arrays and scalars defined in another unit: this unit's kernels
/// read and write the one device copy, and `target update` in either unit moves it.
#[test]
fn extern_declare_target_globals_of_another_unit_are_one_device_copy() {
    let log = check_separate(&["sep_global_main.c", "sep_global_lib.c"]);
    assert_eq!(launched(&log).len(), 3, "{log}");
}

/// Function pointers to declare-target functions of another unit: addresses taken in this
/// unit's kernels (`mov` of an `.extern .func`), stored into a device table at run time and
/// held by a static initializer, all called indirectly; each unit's PTX assembles alone.
#[test]
fn function_pointers_to_another_units_functions_are_called_on_the_device() {
    let log = check_separate(&["sep_fnptr_main.c", "sep_fnptr_lib.c"]);
    assert_eq!(launched(&log).len(), 2, "{log}");
}

/// An array of unknown size (`extern double table[];`) that another unit defines with a
/// size: maps and updates of its sections find the defining unit's device copy.
#[test]
fn extern_arrays_of_unknown_size_defined_in_another_unit() {
    let log = check_separate(&["sep_extern_array_main.c", "sep_extern_array_lib.c"]);
    assert_eq!(launched(&log).len(), 3, "{log}");
}

/// The same in one unit: the array is declared without a size before its definition.
#[test]
fn an_extern_array_declared_before_its_definition_matches_gcc() {
    for opt in ["-O0", "-O2"] {
        check_program(&Path::new(PROGRAMS).join("extern_array_one_unit.c"), opt, 2);
    }
}

/// Two units with a `static` declare-target function of the same name and a kernel in a
/// `static` function of the same name on the same line: the helpers stay private to their
/// module and the kernels get different names (the unit's id), so the linked program has both.
#[test]
fn static_functions_and_their_kernels_do_not_clash_across_units() {
    let log = check_separate(&["sep_static_a.c", "sep_static_b.c"]);
    let names = launched(&log);
    assert_eq!(names.len(), 2, "{log}");
    for n in &names {
        assert!(
            n.starts_with("__omp_offload_run_") && n.ends_with("_l9"),
            "{n}"
        );
    }
}

/// A declare-target function that no unit's device code defines (here only the host has it)
/// is an error when ompcc links, naming the function and the calling unit (as gcc and clang
/// fail at link time); a program linked without ompcc still fails at the first device use.
#[test]
fn a_declare_target_function_no_unit_defines_is_a_device_link_error() {
    let sb = Sandbox::new();
    let main = Path::new(PROGRAMS).join("sep_main.c").display().to_string();
    sb.write("host.c", "double weight(int i) { return i; }\n");
    ok(&sb.ompcc(&["-fopenmp", "-c", &main, "-o", "a.o"]));
    ok(&sb.ompcc(&["-fopenmp", "-c", "host.c", "-o", "h.o"]));
    let link = sb.ompcc(&["-fopenmp", "a.o", "h.o", "-o", "prog"]);
    assert_eq!(link.status.code(), Some(1));
    let err = stderr(&link);
    assert!(
        err.contains("ompcc: error: undefined device function 'weight' referenced by the device code of 'a.o'"),
        "{err}"
    );
    assert!(!sb.exists("prog"));
    // Compiling and linking in one command names the source.
    let link = sb.ompcc(&["-fopenmp", &main, "h.o", "-o", "prog"]);
    assert_eq!(link.status.code(), Some(1));
    let err = stderr(&link);
    assert!(
        err.contains(&format!(
            "'weight' referenced by the device code of '{main}'"
        )),
        "{err}"
    );
    // Linked by cc, past ompcc's check: the runtime's device link reports it.
    let rt = support::runtime_lib().display().to_string();
    ok(&sb.cc(&[
        "-fopenmp",
        "-foffload=disable",
        "a.o",
        "h.o",
        "-o",
        "prog",
        &rt,
        "-lpthread",
        "-ldl",
        "-lm",
    ]));
    let out = run_on(&sb, "prog", "emu");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("`.extern` function `weight` of ")
            && err.contains("sep_main.c is not defined by any module"),
        "{err}"
    );
}

/// A call to a function that is neither defined in the unit nor `declare target` keeps its
/// error: only declare-target functions may come from another unit.
#[test]
fn a_call_to_a_function_that_is_not_declare_target_is_still_an_error() {
    let sb = Sandbox::new();
    sb.write(
        "t.c",
        "double weight(int i);
int main(void) {
  double w[4];
         #pragma omp target teams distribute parallel for map(from: w)
           for (int i = 0; i < 4; i++)
    w[i] = weight(i);
  return (int)w[0];
}
",
    );
    let out = sb.ompcc(&["-fopenmp", "-c", "t.c"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("function 'weight' has no device definition"),
        "{err}"
    );
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
    let host_c = sb.ompcc(&["-fopenmp", "--emit=host-c-full", "t.c"]);
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
        err.contains("saxpy.c:16:1: remark: target region offloaded as kernel '__omp_offload_main_l16': SPMD mode, teams from the trip count, threads per team chosen at launch, 4 parameters [-Rpass=offload]"),
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

/// A VLA larger than the per-thread stack (`OMPCC_STACK_SIZE`) stops the program on the
/// emulator with a stack overflow error naming the kernel and the source file, not a crash;
/// with the default stack it runs.
#[test]
fn a_vla_past_the_stack_size_is_a_stack_overflow_error_on_the_emulator() {
    let sb = Sandbox::new();
    sb.write(
        "t.c",
        "#include <stdio.h>\nint main(void) {\n  int n = 64;\n  double out[4];\n\
         #pragma omp target teams distribute parallel for map(from: out) firstprivate(n)\n  \
         for (int i = 0; i < 4; i++) {\n    double t[n];\n    \
         for (int k = 0; k < n; k++) t[k] = k + i;\n    out[i] = t[n - 1];\n  }\n  \
         printf(\"%g %g\\n\", out[0], out[3]);\n  return 0;\n}\n",
    );
    ok(&sb.ompcc(&["-fopenmp", "t.c", "-o", "prog"]));
    let out = run_on(&sb, "prog", "emu");
    ok(&out);
    assert_eq!(stdout(&out), "63 66\n");
    let small = std::process::Command::new(sb.join("prog"))
        .current_dir(sb.path())
        .env("OMPCC_DEVICE", "emu")
        .env("OMPCC_STACK_SIZE", "256")
        .env_remove("OMP_TARGET_OFFLOAD")
        .output()
        .expect("running the program");
    assert!(!small.status.success());
    assert!(small.status.code().is_some(), "killed by a signal");
    let err = stderr(&small);
    assert!(
        err.contains("t.c:5:1:")
            && err.contains("stack overflow: alloca of 512 bytes")
            && err.contains("(OMPCC_STACK_SIZE)"),
        "{err}"
    );
}

/// A failed `assert` in a kernel prints glibc's message and aborts the program (SIGABRT, exit
/// status 134 in a shell), as the host build of the same code does; it is not reported as a
/// launch failure with status 1.
#[test]
fn a_failed_device_assert_aborts_the_program_as_on_the_host() {
    use std::os::unix::process::ExitStatusExt;
    let sb = Sandbox::new();
    sb.write(
        "t.c",
        "#include <assert.h>\n#include <stdio.h>\nint main(void) {\n  int a[8];\n\
         #pragma omp target teams distribute parallel for map(from: a)\n  \
         for (int i = 0; i < 8; i++) {\n    assert(i < 5);\n    a[i] = i;\n  }\n  \
         printf(\"%d\\n\", a[7]);\n  return 0;\n}\n",
    );
    ok(&sb.ompcc(&["-fopenmp", "t.c", "-o", "prog"]));
    for device in ["emu", "host"] {
        let out = run_on(&sb, "prog", device);
        assert_eq!(out.status.signal(), Some(6), "{device}: {:?}", out.status);
        assert_eq!(stdout(&out), "", "{device}");
        let err = stderr(&out);
        assert!(
            err.contains("t.c:7: main: Assertion `i < 5' failed."),
            "{device}: {err}"
        );
    }
}

/// OpenMP 5.1's `OMP_NUM_TEAMS` / `OMP_TEAMS_THREAD_LIMIT`, and without clauses or variables
/// no more teams than the loop's iterations need, as `OMPCC_INFO` reports each launch.
#[test]
fn launch_shape_follows_trip_count_and_environment() {
    let sb = Sandbox::new();
    sb.write(
        "shape.c",
        "#include <stdio.h>
int main(void) {
  static double a[1000];
  int n = 100;
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < 1000; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target teams distribute parallel for num_teams(5) map(tofrom : a)
  for (int i = 0; i < 1000; i += 3) a[i] += 1;
  printf(\"%.1f %.1f\\n\", a[0], a[999]);
  return 0;
}
",
    );
    let out = sb.ompcc(&[
        "-fopenmp",
        "-O2",
        "-Rpass=offload",
        "shape.c",
        "-o",
        "shape",
    ]);
    ok(&out);
    assert!(
        stderr(&out)
            .contains("SPMD mode, teams from the trip count, threads per team chosen at launch"),
        "{}",
        stderr(&out)
    );
    let run = |env: &[(&str, &str)]| {
        let mut c = std::process::Command::new(sb.join("shape"));
        c.current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMPCC_INFO", "1")
            .env_remove("OMP_NUM_TEAMS")
            .env_remove("OMP_TEAMS_THREAD_LIMIT");
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().expect("running the program");
        ok(&out);
        assert_eq!(stdout(&out), "2.0 1000.0\n");
        stderr(&out)
            .lines()
            .filter(|l| l.contains(": launch '"))
            .map(|l| l.split(": ").last().unwrap_or("").to_owned())
            .collect::<Vec<_>>()
    };
    // What sized the league comes after the fields scripts already parse.
    let plain = run(&[]);
    assert_eq!(
        plain,
        [
            "8 teams x 128 threads, 0 bytes dynamic shared (for 1000 iterations, one per thread)",
            "1 teams x 128 threads, 0 bytes dynamic shared (for 100 iterations, one per thread)",
            "5 teams x 128 threads, 0 bytes dynamic shared",
        ]
    );
    let env = run(&[("OMP_NUM_TEAMS", "3"), ("OMP_TEAMS_THREAD_LIMIT", "64")]);
    assert_eq!(
        env[0], "3 teams x 64 threads, 0 bytes dynamic shared (OMP_NUM_TEAMS)",
        "{env:?}"
    );
    assert!(env[2].starts_with("5 teams x 64 threads,"), "{env:?}");
}

/// `target device(omp_get_initial_device())` runs through ompcc's own host path, also under
/// `OMP_TARGET_OFFLOAD=MANDATORY` (libgomp, which has no devices, must never see ompcc's
/// device numbers in the fallback copy).
#[test]
fn initial_device_runs_on_the_host_under_mandatory() {
    let sb = Sandbox::new();
    sb.write(
        "initdev.c",
        "#include <omp.h>
#include <stdio.h>
int main(void) {
  int x = 0, on_host = -1, y = 0;
  int d = omp_get_initial_device();
#pragma omp target device(d) map(tofrom : x, on_host)
  {
    x = 42;
    on_host = omp_is_initial_device();
  }
#pragma omp target data device(omp_get_initial_device()) map(tofrom : y)
  {
#pragma omp target device(omp_get_initial_device()) map(tofrom : y)
    y += 5;
  }
#pragma omp target device(0) map(tofrom : y)
  y += 1;
  printf(\"%d %d %d\\n\", x, on_host, y);
  return 0;
}
",
    );
    ok(&sb.ompcc(&["-fopenmp", "-O2", "initdev.c", "-o", "initdev"]));
    let out = std::process::Command::new(sb.join("initdev"))
        .current_dir(sb.path())
        .env("OMPCC_DEVICE", "emu")
        .env("OMPCC_INFO", "1")
        .env("OMP_TARGET_OFFLOAD", "MANDATORY")
        .output()
        .expect("running the program");
    ok(&out);
    assert_eq!(stdout(&out), "42 1 6\n", "{}", stderr(&out));
    let log = stderr(&out);
    assert!(log.contains("initdev.c:6:1: kernel"), "{log}");
    assert!(log.contains("runs on the host (fallback)"), "{log}");
    assert_eq!(
        log.lines().filter(|l| l.contains(": launch '")).count(),
        1,
        "{log}"
    );
}

#[test]
fn time_phases_splits_a_compile_into_the_host_compilers_runs_and_ompccs_stages() {
    let sb = Sandbox::new();
    let src = Path::new(PROGRAMS)
        .join("globals_math.c")
        .display()
        .to_string();
    let out = sb.ompcc(&["--time-phases", "-fopenmp", "-O2", "-c", &src, "-o", "t.o"]);
    ok(&out);
    assert!(sb.exists("t.o"));
    let err = stderr(&out);
    let table: Vec<&str> = err
        .lines()
        .skip_while(|l| *l != "ompcc: phase times (wall clock):")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    let names: Vec<String> = table
        .iter()
        .map(|l| l.split(" ms").next().unwrap_or(""))
        .map(|l| l.rsplit_once(' ').map_or(l, |(n, _)| n).trim().to_string())
        .collect();
    // this unit calls the device math library: its preprocessing is a phase of its own
    for phase in [
        "host: preprocess",
        "frontend: parse and check",
        "device: passes",
        "device: library",
        "host: preprocess device library",
        "device: PTX",
        "host rewrite",
        "host: compile",
        "host: assemble",
        "other",
        "total",
    ] {
        assert!(names.iter().any(|n| n == phase), "no `{phase}` in:\n{err}");
    }
    assert_eq!(names.last().map(String::as_str), Some("total"), "{err}");
    assert!(table.last().is_some_and(|l| l.ends_with("100.0%")), "{err}");
    // the host compile ran alongside the device passes: a line after the table says so
    assert!(
        err.contains("ompcc: concurrent: ") && err.contains("`host: compile` started "),
        "{err}"
    );
    // without the option, nothing of it
    let quiet = sb.ompcc(&["-fopenmp", "-O2", "-c", &src, "-o", "q.o"]);
    ok(&quiet);
    assert!(
        !stderr(&quiet).contains("phase times"),
        "{}",
        stderr(&quiet)
    );
}

#[test]
fn an_assembly_compiled_alongside_the_device_code_is_a_complete_unit() {
    let sb = Sandbox::new();
    let src = Path::new(PROGRAMS)
        .join("globals_math.c")
        .display()
        .to_string();
    ok(&sb.cc(&["-fopenmp", "-O2", &src, "-o", "ref", "-lm"]));
    let want = stdout(&sb.run("ref"));
    // -S: the host compiler's assembly with the PTX appended, which cc alone assembles; the
    // object links and runs like the one `-c` makes.
    ok(&sb.ompcc(&["-fopenmp", "-O2", "-S", &src, "-o", "t.s"]));
    let asm = String::from_utf8(sb.read("t.s")).unwrap();
    assert!(asm.contains("\n__ompcc_ptx:\n\t.ascii\t\"//"), "{asm}");
    assert!(asm.contains("\n\t.ascii\t\".version "), "{asm}");
    ok(&sb.cc(&["-c", "t.s", "-o", "from_s.o"]));
    ok(&sb.ompcc(&["-fopenmp", "-O2", "-c", &src, "-o", "t.o"]));
    for obj in ["from_s.o", "t.o"] {
        ok(&sb.ompcc(&["-fopenmp", obj, "-o", "prog", "-lm"]));
        let out = run_on(&sb, "prog", "emu");
        ok(&out);
        assert_eq!(stdout(&out), want, "{obj}: {}", stderr(&out));
        assert!(stderr(&out).contains(": launch '"), "{}", stderr(&out));
    }
}

#[test]
fn a_device_error_stops_the_host_compile_started_alongside() {
    let sb = Sandbox::new();
    let src = Path::new(PROGRAMS)
        .join("globals_math.c")
        .display()
        .to_string();
    // A host compiler whose compile to assembly takes 20 s: the PTX writer's error must
    // end the command at once, with the compile stopped and no object. (The `sleep` the
    // stopped shell leaves behind must not hold the test's pipes open.)
    sb.write(
        "slow.sh",
        "#!/bin/sh\ncase \"$*\" in *' -S '*) echo started >> \"$(dirname \"$0\")/log\"; \
         sleep 20 >/dev/null 2>&1; echo finished >> \"$(dirname \"$0\")/log\";; esac\n\
         exec cc \"$@\"\n",
    );
    let host = format!("sh {}", sb.join("slow.sh").display());
    let start = std::time::Instant::now();
    let out = sb
        .ompcc_cmd(&["-fopenmp", "--offload-arch=sm_5", "-c", &src, "-o", "t.o"])
        .env("OMPCC_HOST_CC", &host)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown GPU architecture `sm_5`"),
        "{}",
        stderr(&out)
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(15));
    assert_eq!(sb.read("log"), b"started\n");
    assert!(!sb.exists("t.o"));
}

/// The phase names of a `--time-phases` table.
fn phase_names(err: &str) -> Vec<String> {
    err.lines()
        .skip_while(|l| *l != "ompcc: phase times (wall clock):")
        .skip(1)
        .map(|l| l.split(" ms").next().unwrap_or(""))
        .map(|l| l.rsplit_once(' ').map_or(l, |(n, _)| n).trim().to_string())
        .collect()
}

#[test]
fn the_device_library_is_kept_between_commands_and_gives_the_same_object() {
    let sb = Sandbox::new();
    let src = Path::new(PROGRAMS)
        .join("globals_math.c")
        .display()
        .to_string();
    let compile = |out: &str| {
        let run = sb.ompcc(&["--time-phases", "-fopenmp", "-O2", "-c", &src, "-o", out]);
        ok(&run);
        phase_names(&stderr(&run))
    };
    let first = compile("first.o");
    assert!(first.iter().any(|n| n == "host: preprocess device library"));
    let kept = std::fs::read_dir(sb.cache.path()).unwrap().count();
    assert_eq!(
        kept, 3,
        "the preprocessed library, one compiled library, the probe"
    );
    // the second command reads both: no `cc -E` of the library
    let second = compile("second.o");
    assert!(
        !second
            .iter()
            .any(|n| n == "host: preprocess device library"),
        "{second:?}"
    );
    assert_eq!(sb.read("first.o"), sb.read("second.o"));
    // another -O level is another compiled library
    ok(&sb.ompcc(&["-fopenmp", "-O1", "-c", &src, "-o", "o1.o"]));
    assert_eq!(std::fs::read_dir(sb.cache.path()).unwrap().count(), 4);
    // an empty OMPCC_CACHE_DIR keeps nothing, and the object is the same
    let off = tempfile::tempdir().unwrap();
    let run = sb
        .ompcc_cmd(&["-fopenmp", "-O2", "-c", &src, "-o", "off.o"])
        .env("OMPCC_CACHE_DIR", "")
        .env("XDG_CACHE_HOME", off.path())
        .output()
        .unwrap();
    ok(&run);
    assert_eq!(std::fs::read_dir(off.path()).unwrap().count(), 0);
    assert_eq!(sb.read("first.o"), sb.read("off.o"));
}

#[test]
fn commands_sharing_a_cache_at_once_build_the_same_objects() {
    // as under `make -j`: each writes the entries it computed, none reads half of one
    let sb = Sandbox::new();
    let src = Path::new(PROGRAMS)
        .join("globals_math.c")
        .display()
        .to_string();
    let mut runs: Vec<_> = (0..4)
        .map(|i| {
            sb.ompcc_cmd(&["-fopenmp", "-O2", "-c", &src, "-o", &format!("{i}.o")])
                .spawn()
                .unwrap()
        })
        .collect();
    for run in &mut runs {
        assert!(run.wait().unwrap().success());
    }
    let first = sb.read("0.o");
    for i in 1..4 {
        assert_eq!(sb.read(&format!("{i}.o")), first, "{i}.o");
    }
    let names: Vec<String> = std::fs::read_dir(sb.cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".kept")), "{names:?}");
    ok(&sb.ompcc(&["-fopenmp", "-O2", "-c", &src, "-o", "after.o"]));
    assert_eq!(sb.read("after.o"), first);
}

#[test]
fn requires_unified_shared_memory_reaches_the_runtime_and_not_gcc() {
    let sb = Sandbox::new();
    let src = "#pragma omp requires unified_shared_memory, dynamic_allocators\n\
               int main(void) {\n  int *p = 0;\n\
               #pragma omp target\n  p[0] = 1;\n  return 0;\n}\n";
    sb.write("t.c", src);
    let host_c = sb.ompcc(&["-fopenmp", "--emit=host-c-full", "t.c"]);
    ok(&host_c);
    let text = stdout(&host_c);
    // both requirement bits in the module descriptor; gcc 12 sees only the clause it knows
    assert!(
        text.contains("static const __ompcc_module_desc d = {2u, 1u, 0u, 3u, "),
        "{text}"
    );
    assert!(
        text.contains("#pragma omp requires dynamic_allocators"),
        "{text}"
    );
    assert!(!text.contains("unified_shared_memory"), "{text}");
    // no W0912 for the unmapped pointer: under the requirement the device dereferences it
    let out = sb.ompcc(&["-fopenmp", "-c", "t.c"]);
    ok(&out);
    assert!(!stderr(&out).contains("W0912"), "{}", stderr(&out));
    // reverse_offload stays a clear error at the clause
    sb.write(
        "r.c",
        "#pragma omp requires reverse_offload\nint main(void) { return 0; }\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-c", "r.c"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains(
            "r.c:1:22: error: '#pragma omp requires reverse_offload' is not supported by ompcc"
        ) && err.contains("[E0913]"),
        "{err}"
    );
}

#[test]
fn two_compiles_of_one_source_give_the_same_object() {
    // gcc names the sections of target regions' code with a random number unless given a
    // seed; ompcc gives one derived from the text it compiles.
    let sb = Sandbox::new();
    let src = Path::new(EXAMPLES).join("jacobi.c").display().to_string();
    for flags in [&["-O2"][..], &["-O0", "-g"][..]] {
        let mut objects = Vec::new();
        for _ in 0..2 {
            let mut args = vec!["-fopenmp", "-c", &src, "-o", "t.o"];
            args.extend(flags);
            ok(&sb.ompcc(&args));
            objects.push(std::fs::read(sb.join("t.o")).expect("reading t.o"));
        }
        assert!(objects[0] == objects[1], "{flags:?}: the objects differ");
    }
}
