//! `-fopenmp-auto-offload` (issue 15) from the command line: a unit without candidates builds
//! exactly as without the flag, the remarks say what was offloaded and why a loop was kept,
//! and the run-time choice follows `OMPCC_AUTO_OFFLOAD` and the device, visible through
//! `OMPCC_INFO=auto` and `OMPCC_PROFILE`.

mod support;

use support::{Sandbox, ok, stderr, stdout};

const SAXPY: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int n = 1000;\n  \
float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);\n  for (int i = 0; i < n; i++) {\n    \
x[i] = i;\n    y[i] = 1;\n  }\n  for (int t = 0; t < 3; t++) {\n#pragma omp parallel for\n    \
for (int i = 0; i < n; i++)\n      y[i] += 2.0f * x[i];\n  }\n  printf(\"%.1f %.1f\\n\", y[0], y[n - 1]);\n  \
free(x);\n  free(y);\n  return 0;\n}\n";

const KEPT: &str = "#include <stdio.h>\nint main(void) {\n  int a[8];\n#pragma omp parallel for\n  \
for (int i = 0; i < 8; i++) {\n    a[i] = i;\n    printf(\"%s\", \"\");\n  }\n  printf(\"%d\\n\", a[7]);\n  return 0;\n}\n";

#[test]
fn a_unit_without_candidates_builds_as_without_the_flag() {
    let sb = Sandbox::new();
    sb.write("k.c", KEPT);
    sb.write("plain.c", "int f(int x) { return x + 1; }\n");
    for file in ["k.c", "plain.c"] {
        ok(&sb.ompcc(&["-fopenmp", "-O2", "-c", file, "-o", "without.o"]));
        let out = sb.ompcc(&[
            "-fopenmp",
            "-O2",
            "-fopenmp-auto-offload",
            "-Rpass-missed=auto-offload",
            "-c",
            file,
            "-o",
            "with.o",
        ]);
        ok(&out);
        assert_eq!(sb.read("with.o"), sb.read("without.o"), "{file}");
        if file == "k.c" {
            assert!(
                stderr(&out).contains(
                    "k.c:4:1: remark: loop kept on the host: it calls 'printf', a host-only \
                     function [-Rpass-missed=auto-offload]"
                ),
                "{}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn the_run_time_choice_follows_the_device_and_the_environment() {
    let sb = Sandbox::new();
    sb.write("s.c", SAXPY);
    let out = sb.ompcc(&[
        "-fopenmp",
        "-fopenmp-auto-offload",
        "-Rpass=auto-offload",
        "s.c",
        "-o",
        "s",
    ]);
    ok(&out);
    assert!(
        stderr(&out).contains(
            "s.c:11:1: remark: loop offloaded in two versions chosen at run time: kernel \
             'target teams distribute parallel for', trip count (long)(n), data map(to: \
             x[0:n]) map(tofrom: y[0:n]) [-Rpass=auto-offload]"
        ),
        "{}",
        stderr(&out)
    );
    let run = |env: &[(&str, &str)]| {
        let out = std::process::Command::new(sb.join("s"))
            .envs(env.iter().copied())
            .env("OMPCC_INFO", "auto,launches")
            .output()
            .unwrap();
        ok(&out);
        assert_eq!(stdout(&out), "1.0 5995.0\n");
        stderr(&out)
    };
    // the emulator exists to test the device version
    let emu = run(&[("OMPCC_DEVICE", "emu")]);
    assert_eq!(
        emu.matches("s.c:11: auto-offload runs the device version (the emulator tests the device version; trip count 1000, 8000 bytes mapped)").count(),
        3,
        "{emu}"
    );
    assert!(emu.contains("auto-offload device version took"), "{emu}");
    assert!(emu.contains(": launch '"), "{emu}");
    // forced to the host: no launch
    let host = run(&[("OMPCC_DEVICE", "emu"), ("OMPCC_AUTO_OFFLOAD", "host")]);
    assert_eq!(
        host.matches("auto-offload runs the host version (OMPCC_AUTO_OFFLOAD")
            .count(),
        3,
        "{host}"
    );
    assert!(!host.contains(": launch '"), "{host}");
    // no device: the program as written
    let none = run(&[("OMPCC_DEVICE", "host")]);
    assert!(
        none.contains("auto-offload runs the host version (no offload device"),
        "{none}"
    );
    // a wrong value is named, and the model goes on
    let bad = run(&[("OMPCC_DEVICE", "emu"), ("OMPCC_AUTO_OFFLOAD", "gpu")]);
    assert!(
        bad.contains("OMPCC_AUTO_OFFLOAD=gpu is not one of model, device, host; using model"),
        "{bad}"
    );
    // the profile counts the runs on each side
    let json = sb.join("p.json");
    let prof = format!("json:{}", json.display());
    run(&[("OMPCC_DEVICE", "emu"), ("OMPCC_PROFILE", prof.as_str())]);
    let text = String::from_utf8(sb.read("p.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["auto"]["s.c:11"]["device_runs"], 3, "{text}");
    assert_eq!(v["auto"]["s.c:11"]["host_runs"], 0, "{text}");
}

/// A device version that cannot be compiled (a called function computes in long double)
/// leaves the unit as written: the build never fails where the unit as written builds.
#[test]
fn device_versions_that_do_not_compile_leave_the_unit_as_written() {
    let sb = Sandbox::new();
    sb.write(
        "ld.c",
        "#include <stdio.h>\nstatic double widen(double x) { long double w = x; w = w * 3; \
         return (double)w; }\nint main(void) {\n  double a[100];\n#pragma omp parallel for\n  \
         for (int i = 0; i < 100; i++)\n    a[i] = widen(i);\n  printf(\"%.1f\\n\", a[99]);\n  \
         return 0;\n}\n",
    );
    let out = sb.ompcc(&[
        "-fopenmp",
        "-fopenmp-auto-offload",
        "-Rpass-missed=auto-offload",
        "ld.c",
        "-o",
        "ld",
    ]);
    ok(&out);
    assert!(
        stderr(&out).contains("ld.c: remark: loops kept on the host: their device versions do not compile (a 'long double' value"),
        "{}",
        stderr(&out)
    );
    let run = std::process::Command::new(sb.join("ld"))
        .env("OMPCC_DEVICE", "emu")
        .env("OMPCC_INFO", "auto,launches")
        .output()
        .unwrap();
    ok(&run);
    assert_eq!(stdout(&run), "297.0\n");
    assert!(!stderr(&run).contains("auto-offload"), "{}", stderr(&run));
}

/// A `parallel for` with a user-defined reduction stays on the host (the host compiler
/// implements `declare reduction`; on a device such a loop runs on one thread), with a
/// remark.
#[test]
fn user_defined_reductions_stay_on_the_host() {
    let sb = Sandbox::new();
    sb.write(
        "u.c",
        "#include <stdio.h>\n#pragma omp declare reduction(keepmax : int : omp_out = omp_in > \
         omp_out ? omp_in : omp_out) initializer(omp_priv = -1000)\nint main(void) {\n  int m = \
         -1000;\n#pragma omp parallel for reduction(keepmax: m)\n  for (int i = 0; i < 100; i++)\n    \
         if (i % 37 > m) m = i % 37;\n  printf(\"%d\\n\", m);\n  return 0;\n}\n",
    );
    let out = sb.ompcc(&[
        "-fopenmp",
        "-O2",
        "-fopenmp-auto-offload",
        "-Rpass-missed=auto-offload",
        "u.c",
        "-o",
        "u",
    ]);
    ok(&out);
    assert!(
        stderr(&out).contains(
            "u.c:5:1: remark: loop kept on the host: its reduction 'keepmax' is user-defined \
             ('declare reduction'), which a device runs on one thread [-Rpass-missed=auto-offload]"
        ),
        "{}",
        stderr(&out)
    );
    let run = sb.run("u");
    assert_eq!(stdout(&run), "36\n");
}
