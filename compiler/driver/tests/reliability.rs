//! Reliability: inputs that once crashed or hung ompcc, signals, and run-time limits. Each
//! test bounds its time (generously: the machine may be busy) and asserts on it.

mod support;

use std::io::Read as _;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};
use support::*;

/// Waits for `child` at most `limit`; kills it and fails past that.
#[track_caller]
fn wait_within(mut child: Child, limit: Duration, what: &str) -> (Output, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting") {
            let mut out = Vec::new();
            let mut err = Vec::new();
            if let Some(mut s) = child.stdout.take() {
                let _ = s.read_to_end(&mut out);
            }
            if let Some(mut s) = child.stderr.take() {
                let _ = s.read_to_end(&mut err);
            }
            let output = Output {
                status,
                stdout: out,
                stderr: err,
            };
            return (output, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} took more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// `ompcc ARGS` in `sb`, at most `limit`.
#[track_caller]
fn ompcc_within(sb: &Sandbox, args: &[&str], limit: Duration) -> Output {
    let child = sb
        .ompcc_cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting ompcc");
    wait_within(child, limit, &format!("ompcc {}", args.join(" "))).0
}

#[test]
fn huge_zero_initialized_device_objects_compile_without_their_size_in_memory() {
    let sb = Sandbox::new();
    sb.write(
        "big.c",
        "#include <stdio.h>\n\
         char table[1ULL << 40];\n\
         #pragma omp declare target(table)\n\
         long ones[1L << 20] = {1, 2, [1000] = 3};\n\
         #pragma omp declare target(ones)\n\
         int main(void) {\n\
         int r = 0;\n\
         #pragma omp target map(from : r)\n\
         {\n\
             static char h[1ULL << 40];\n\
             h[5] = 1;\n\
             r = h[5] + table[7] + (int)ones[1000];\n\
         }\n\
         printf(\"%d\\n\", r);\n\
         return 0;\n\
         }\n",
    );
    let out = ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "--emit=ptx", "big.c", "-o", "big.ptx"],
        Duration::from_secs(60),
    );
    ok(&out);
    let ptx = String::from_utf8(sb.read("big.ptx")).unwrap();
    assert!(ptx.contains(".b8 table[1099511627776];"), "{ptx}");
    // only the initialized prefix is written: 1001 longs, the last one 3
    let ones = ptx.lines().find(|l| l.contains(" ones[")).unwrap();
    assert!(
        ones.len() < 40_000 && ones.ends_with(", 3};"),
        "{}",
        &ones[..200]
    );
    // and the host object builds too
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "-c", "big.c"],
        Duration::from_secs(60),
    ));
}

#[test]
fn nonzero_bytes_far_into_a_device_object_are_an_error_not_an_abort() {
    let sb = Sandbox::new();
    sb.write(
        "far.c",
        "char far[1ULL << 40] = {[1ULL << 39] = 1};\n\
         #pragma omp declare target(far)\n\
         int main(void) { return 0; }\n",
    );
    let out = ompcc_within(&sb, &["-fopenmp", "-c", "far.c"], Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("far.c:") && err.contains("[E0808]"), "{err}");
}

#[test]
fn diagnostics_after_line_int_max_are_prompt() {
    let sb = Sandbox::new();
    sb.write(
        "l.c",
        "#line 2147483647\nint main(void) { return undeclared_name; }\n",
    );
    let start = Instant::now();
    let out = ompcc_within(&sb, &["-fopenmp", "-c", "l.c"], Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("l.c:2147483647:"), "{err}");
    assert!(err.contains("undeclared_name"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn non_positive_num_teams_at_run_time_is_ignored_with_a_warning() {
    let sb = Sandbox::new();
    sb.write(
        "nt.c",
        "#include <stdio.h>\n\
         static int calls;\n\
         static int count(int k) { calls++; return k; }\n\
         int main(int argc, char **argv) {\n\
         (void)argv;\n\
         int k = -5 - (argc - 1), s = 0;\n\
         #pragma omp target teams distribute parallel for num_teams(count(k)) thread_limit(k) reduction(+ : s)\n\
         for (int i = 0; i < 1000; i++) s += i;\n\
         printf(\"%d %d\\n\", s, calls);\n\
         return 0;\n\
         }\n",
    );
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "nt.c", "-o", "nt"],
        Duration::from_secs(120),
    ));
    // 4294967291 teams took hours on the emulator; the host fallback (gcc's own `teams`
    // construct, which takes -5 as 4294967291 too) runs the clause values the launch took
    for device in ["emu", "host"] {
        let child = std::process::Command::new(sb.join("nt"))
            .env("OMPCC_DEVICE", device)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (out, _) = wait_within(child, Duration::from_secs(60), "the program");
        ok(&out);
        // the clause's expression is evaluated once, on either path
        assert_eq!(stdout(&out), "499500 1\n", "on {device}");
        let err = stderr(&out);
        assert!(
            err.contains("nt.c:7:")
                && err.contains("'num_teams' value -5 is not positive; ignored"),
            "{err}"
        );
        assert!(err.contains("'thread_limit' value -5"), "{err}");
    }
}

/// A unit big enough that ompcc computes for many seconds after the preprocessor is done.
fn slow_unit() -> String {
    let mut s = String::from("int f(int x) {\nint r = 0;\n");
    for i in 0..60_000 {
        s.push_str(&format!("r += (x + {i}) * (r ^ {i}) / (x | 1);\n"));
    }
    s.push_str("return r;\n}\n#pragma omp declare target(f)\nint main(void) { return 0; }\n");
    s
}

/// The children of `pid` (Linux).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            let text = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            out.extend(
                text.split_whitespace()
                    .filter_map(|w| w.parse::<u32>().ok()),
            );
        }
    }
    out
}

fn signal(pid: u32, name: &str) {
    let st = std::process::Command::new("kill")
        .args(["-s", name, &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
}

#[test]
fn signals_stop_ompcc_promptly_while_it_computes() {
    let sb = Sandbox::new();
    sb.write("slow.c", &slow_unit());
    for (name, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        let tmp = tempfile::tempdir().unwrap();
        let child = sb
            .ompcc_cmd(&["-fopenmp", "-O2", "-c", "slow.c"])
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        // Wait for the preprocessed unit and for the preprocessor to be gone: ompcc computes.
        let start = Instant::now();
        loop {
            let made = std::fs::read_dir(tmp.path())
                .unwrap()
                .flatten()
                .any(|d| std::fs::read_dir(d.path()).is_ok_and(|mut e| e.next().is_some()));
            if made && children_of(pid).is_empty() {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "ompcc never got past the preprocessor"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        signal(pid, name);
        let (out, took) = wait_within(child, Duration::from_secs(20), "ompcc after a signal");
        assert_eq!(
            out.status.code(),
            Some(128 + number),
            "SIG{name}: {}",
            stderr(&out)
        );
        assert!(
            took < Duration::from_secs(5),
            "SIG{name}: stopped after {took:?}"
        );
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert!(left.is_empty(), "SIG{name} left {left:?}");
    }
}

#[test]
fn children_end_with_ompcc_even_after_sigkill() {
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    // A host compiler that records its pid and hangs (exec keeps the pid).
    sb.write("hang.sh", "#!/bin/sh\necho $$ > hang.pid\nexec sleep 60\n");
    let child = sb
        .ompcc_cmd(&["-fopenmp", "-c", "t.c"])
        .env(
            "OMPCC_HOST_CC",
            format!("sh {}", sb.join("hang.sh").display()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let hang = loop {
        if let Some(p) = std::fs::read_to_string(sb.join("hang.pid"))
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
        {
            break p;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no host compiler started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    signal(child.id(), "KILL");
    let _ = wait_within(child, Duration::from_secs(10), "ompcc after SIGKILL");
    let start = Instant::now();
    while std::path::Path::new(&format!("/proc/{hang}")).exists()
        && !std::fs::read_to_string(format!("/proc/{hang}/stat")).is_ok_and(|s| s.contains(") Z"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the host compiler outlived ompcc"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A kernel with a `switch` of 20,000 cases: the -O2 passes were quadratic in it (the
/// dominator tree climbed the compare chain once per case, the CFG deduplicated edges by
/// search; over 300 s, now seconds). The bound is generous so a busy machine cannot flake it.
#[test]
fn a_20000_case_switch_optimizes_in_near_linear_time() {
    let mut s = String::from(
        "#include <stdio.h>\nint main(void) {\nint x = 3, r = 0;\n\
         #pragma omp target map(tofrom : r) map(to : x)\n{\nswitch (x * 7 + r) {\n",
    );
    for i in 0..20_000 {
        s.push_str(&format!("case {i}: r += {}; break;\n", (i * 37) % 11));
    }
    s.push_str("default: r = -1;\n}\n}\nprintf(\"%d\\n\", r);\nreturn 0;\n}\n");
    let sb = Sandbox::new();
    sb.write("sw.c", &s);
    let start = Instant::now();
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "--emit=ptx", "sw.c", "-o", "sw.ptx"],
        Duration::from_secs(150),
    ));
    assert!(start.elapsed() < Duration::from_secs(150));
}

/// Builds `src` (in `name`) with ompcc at -O2 and runs it on `device` (`OMPCC_DEVICE`) with
/// `env` added, at most a minute.
fn build_and_run(
    sb: &Sandbox,
    name: &str,
    src: &str,
    device: &str,
    env: &[(&str, &str)],
) -> Output {
    sb.write(name, src);
    let exe = name.trim_end_matches(".c");
    ok(&ompcc_within(
        sb,
        &["-fopenmp", "-O2", name, "-o", exe],
        Duration::from_secs(120),
    ));
    let mut cmd = std::process::Command::new(sb.join(exe));
    cmd.env("OMPCC_DEVICE", device)
        .env_remove("OMP_TARGET_OFFLOAD")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    wait_within(cmd.spawn().unwrap(), Duration::from_secs(60), "the program").0
}

/// OpenMP 5.2 18.8.1: `omp_target_alloc` returns NULL when the device cannot allocate (the
/// runtime ended the program), on every device kind and for the initial device.
#[test]
fn omp_target_alloc_beyond_the_device_returns_null() {
    let src = "#include <omp.h>\n#include <stdio.h>\n\
               int main(void) {\n\
               int r = 0;\n\
               #pragma omp target map(from : r)\n\
               r = 1;\n\
               int devs[2] = {omp_get_default_device(), omp_get_initial_device()};\n\
               for (int k = 0; k < 2; k++) {\n\
               void *huge = omp_target_alloc((size_t)1 << 62, devs[k]);\n\
               void *small = omp_target_alloc(64, devs[k]);\n\
               printf(\"%d %s %s\\n\", r, huge ? \"huge\" : \"null\", small ? \"small\" : \"null\");\n\
               omp_target_free(small, devs[k]);\n\
               }\n\
               return 0;\n\
               }\n";
    let sb = Sandbox::new();
    // (the sim backend runs no compiled kernels: runtime/tests/mapping.rs checks it)
    for device in ["emu", "host"] {
        let out = build_and_run(&sb, "alloc.c", src, device, &[]);
        ok(&out);
        assert_eq!(stdout(&out), "1 null small\n1 null small\n", "{device}");
    }
}

/// Freeing twice names the second call's line (the runtime said only `omp_target_free`).
#[test]
fn a_second_omp_target_free_names_its_line() {
    let src = "#include <omp.h>\n\
               int main(void) {\n\
               int d = omp_get_default_device();\n\
               double *p = omp_target_alloc(8 * sizeof *p, d);\n\
               #pragma omp target is_device_ptr(p)\n\
               p[0] = 1;\n\
               omp_target_free(p, d);\n\
               omp_target_free(p, d);\n\
               return 0;\n\
               }\n";
    let sb = Sandbox::new();
    let out = build_and_run(&sb, "twice.c", src, "emu", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("twice.c:8:1: omp_target_free: 0x")
            && err.contains(
                "was not returned by omp_target_alloc for device 0, or was freed already"
            ),
        "{err}"
    );
}

/// The same in a unit without device constructs, linked with one that has them: its calls
/// of `omp_target_free` are rewritten too, so the runtime names the line, whether the units
/// are built by one command or each alone with `-c`. The `-c` object of such a unit still
/// links with cc alone, where the runtime is absent: its call then is libgomp's own.
#[test]
fn a_second_omp_target_free_in_a_unit_without_device_constructs_names_its_line() {
    let main = "#include <omp.h>\n\
                void release(double *p, int d);\n\
                int main(void) {\n\
                int d = omp_get_default_device();\n\
                double *p = omp_target_alloc(8 * sizeof *p, d);\n\
                #pragma omp target is_device_ptr(p)\n\
                p[0] = 1;\n\
                release(p, d);\n\
                return 0;\n\
                }\n";
    let free = "#include <omp.h>\n\
                void release(double *p, int d) {\n\
                omp_target_free(p, d);\n\
                omp_target_free(p, d);\n\
                }\n";
    let host_main = "#include <omp.h>\n\
                     #include <stdio.h>\n\
                     void release(double *p, int d);\n\
                     int main(void) {\n\
                     int d = omp_get_initial_device();\n\
                     double *p = omp_target_alloc(8, d);\n\
                     p[0] = 2;\n\
                     printf(\"%g\\n\", p[0]);\n\
                     release(p, d);\n\
                     return 0;\n\
                     }\n";
    let sb = Sandbox::new();
    sb.write("main.c", main)
        .write("free.c", free)
        .write("host_main.c", host_main);
    let limit = Duration::from_secs(120);
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "main.c", "free.c", "-o", "prog"],
        limit,
    ));
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "-c", "main.c"],
        limit,
    ));
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-O2", "-c", "free.c"],
        limit,
    ));
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "main.o", "free.o", "-o", "prog_c"],
        limit,
    ));
    for exe in ["prog", "prog_c"] {
        let mut cmd = std::process::Command::new(sb.join(exe));
        cmd.env("OMPCC_DEVICE", "emu")
            .env_remove("OMP_TARGET_OFFLOAD")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let out = wait_within(cmd.spawn().unwrap(), Duration::from_secs(60), "the program").0;
        assert_eq!(out.status.code(), Some(1), "{exe}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("free.c:4:1: omp_target_free: 0x"),
            "{exe}: {err}"
        );
    }
    // cc links the `-c` object without the runtime (a host-only program; `release` is
    // called once, on the initial device).
    let host = "#include <omp.h>\n\
                void release(double *p, int d) {\n\
                omp_target_free(p, d);\n\
                }\n";
    sb.write("host_free.c", host);
    ok(&ompcc_within(
        &sb,
        &["-fopenmp", "-c", "host_free.c"],
        limit,
    ));
    ok(&sb.cc(&["-fopenmp", "host_main.c", "host_free.o", "-o", "host_prog"]));
    let out = sb.run("host_prog");
    ok(&out);
    assert_eq!(stdout(&out), "2\n");
}

/// An array-section reduction whose constant length overflows the private copy's size is
/// an error on its line (it made lowering panic on the multiplication; found by the clause
/// mutation test).
#[test]
fn a_reduction_section_of_huge_constant_length_is_an_error() {
    let sb = Sandbox::new();
    sb.write(
        "r.c",
        "int main(void) {\n  int a[8] = {0};\n\
         #pragma omp target teams distribute parallel for reduction(+: a[1:0x7fffffffffffffff])\n\
         for (int i = 0; i < 8; i++) a[1] += i;\n  return a[1];\n}\n",
    );
    let out = ompcc_within(
        &sb,
        &["-fopenmp", "--emit=host-c", "r.c", "-o", "r.txt"],
        Duration::from_secs(60),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("r.c:3:") && err.contains("array reduction") && !err.contains("panicked"),
        "{err}"
    );
}

/// The emulator, the checking device, reports an integer division by zero with the kernel
/// and the source line; `OMPCC_EMU_DIV_CHECK=0` gives what a GPU computes instead.
#[test]
fn integer_division_by_zero_on_the_emulator_is_reported() {
    let src = "#include <stdio.h>\n\
               int main(int argc, char **argv) {\n\
               (void)argv;\n\
               int z = argc - 1, q = 0, m = 0;\n\
               #pragma omp target map(tofrom : q, m)\n\
               {\n\
               q = 100 / z;\n\
               m = 100 % (z + 3);\n\
               }\n\
               printf(\"%d %d\\n\", q, m);\n\
               return 0;\n\
               }\n";
    let sb = Sandbox::new();
    let out = build_and_run(&sb, "dz.c", src, "emu", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("integer division by zero")
            && err.contains("(dz.c:7)")
            && err.contains("kernel '__omp_offload_main_l5'"),
        "{err}"
    );
    let out = build_and_run(&sb, "dz.c", src, "emu", &[("OMPCC_EMU_DIV_CHECK", "0")]);
    ok(&out);
    assert_eq!(stdout(&out), "-1 1\n");
}

/// More than 2 GiB of static data links as with gcc: the runtime's own data (Rust code of
/// the small code model) is laid out before the program's, not 3 GiB away from its text
/// ("failed to convert GOTPCREL relocation ... relink with --no-relax").
#[test]
fn a_program_with_3_gib_of_static_data_links_with_the_runtime() {
    let src = "#include <stdio.h>\n\
               static char big[3UL << 30];\n\
               int main(void) {\n\
               int r = 0;\n\
               #pragma omp target map(from : r)\n\
               r = 7;\n\
               big[(3UL << 30) - 1] = (char)r;\n\
               printf(\"%d\\n\", big[(3UL << 30) - 1]);\n\
               return 0;\n\
               }\n";
    let sb = Sandbox::new();
    sb.write("big.c", src);
    ok(&sb.cc(&["-fopenmp", "big.c", "-o", "ref"]));
    assert_eq!(stdout(&sb.run("ref")), "7\n");
    for device in ["emu", "host"] {
        let out = build_and_run(&sb, "big.c", src, device, &[]);
        ok(&out);
        assert_eq!(stdout(&out), "7\n", "{device}");
    }
}

/// A kernel with a 10,000-arm `else if` ladder (10,000 nested `if`s): simplifycfg re-threaded
/// the ladder's chain of join blocks once per block it bypassed (quadratic: 48 s at -O2 for
/// this, 0.3 s now). The bound is generous so a busy machine cannot flake it.
#[test]
fn a_10000_arm_else_if_ladder_optimizes_in_near_linear_time() {
    let mut s = String::from(
        "#include <stdio.h>\nint main(void) {\nint x = 3, r = 0;\n\
         #pragma omp target map(tofrom : r) map(to : x)\n{\n",
    );
    for i in 0..10_000 {
        s.push_str(&format!("if (x == {i}) r += {};\nelse ", i % 5));
    }
    s.push_str("r = -1;\n}\nprintf(\"%d\\n\", r);\nreturn 0;\n}\n");
    let sb = Sandbox::new();
    sb.write("ladder.c", &s);
    let start = Instant::now();
    ok(&ompcc_within(
        &sb,
        &[
            "-fopenmp",
            "-O2",
            "--emit=ptx",
            "ladder.c",
            "-o",
            "ladder.ptx",
        ],
        Duration::from_secs(150),
    ));
    assert!(start.elapsed() < Duration::from_secs(150));
}
