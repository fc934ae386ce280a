//! `ompcc` against `cc`: the same commands must produce the same files, output and exit codes;
//! the commands ompcc runs are checked through `-###` and `-v`.

mod support;

use support::*;

/// Runs the same command with cc in one sandbox and ompcc in another (same files), and
/// checks that both produce the same files with the same contents and the same status.
#[track_caller]
fn same_as_cc(files: &[(&str, &str)], args: &[&str], compare: &[&str]) {
    let (a, b) = (Sandbox::new(), Sandbox::new());
    for (rel, text) in files {
        a.write(rel, text);
        b.write(rel, text);
    }
    let by_cc = a.cc(args);
    let by_ompcc = b.ompcc(args);
    assert_eq!(
        by_cc.status.code(),
        by_ompcc.status.code(),
        "{args:?}\ncc: {}\nompcc: {}",
        stderr(&by_cc),
        stderr(&by_ompcc)
    );
    assert_eq!(a.files(), b.files(), "{args:?}: different files");
    for rel in compare {
        let (x, y) = (a.read(rel), b.read(rel));
        if x != y {
            panic!(
                "{args:?}: {rel} differs\ncc:\n{}\nompcc:\n{}",
                String::from_utf8_lossy(&x[..x.len().min(2000)]),
                String::from_utf8_lossy(&y[..y.len().min(2000)])
            );
        }
    }
    assert_eq!(
        stdout(&by_cc),
        stdout(&by_ompcc),
        "{args:?}: stdout differs"
    );
}

const LIB: &str = "int twice(int x) { return 2 * x; }\n";
const MAIN: &str = "#include <stdio.h>\nint twice(int);\nint main(void) { printf(\"%d\\n\", twice(21)); return 0; }\n";

#[test]
fn objects_assembly_and_preprocessed_output_equal_ccs() {
    let files = [("a.c", HOST_PROGRAM), ("lib.c", LIB)];
    for openmp in [&[][..], &["-fopenmp"][..]] {
        let with = |args: &[&'static str]| -> Vec<&'static str> { [openmp, args].concat() };
        same_as_cc(&files, &with(&["-c", "a.c"]), &["a.o"]);
        // (-g would record each sandbox's directory in the object.)
        same_as_cc(
            &files,
            &with(&["-c", "-O2", "-Wall", "a.c", "-o", "x.o"]),
            &["x.o"],
        );
        same_as_cc(&files, &with(&["-S", "a.c"]), &["a.s"]);
        same_as_cc(&files, &with(&["-c", "a.c", "lib.c"]), &["a.o", "lib.o"]);
        same_as_cc(&files, &with(&["-E", "a.c"]), &[]);
        same_as_cc(
            &files,
            &with(&["-E", "-DX=1", "a.c", "-o", "a.i"]),
            &["a.i"],
        );
    }
}

#[test]
fn device_units_give_the_same_object_names() {
    let files = [
        ("t.c", TARGET_PROGRAM),
        ("inc/n.h", TARGET_HEADER),
        ("lib.c", LIB),
    ];
    same_as_cc(&files, &["-fopenmp", "-c", "t.c", "lib.c"], &["lib.o"]);
    same_as_cc(&files, &["-fopenmp", "-c", "t.c", "-o", "out.o"], &[]);
    same_as_cc(&files, &["-fopenmp", "-S", "t.c"], &[]);
    same_as_cc(&files, &["-fopenmp", "-E", "t.c", "-o", "t.i"], &["t.i"]);
    // A unit the preprocessor rejects does not stop the others, as with cc.
    let with_missing = [
        ("t.c", TARGET_PROGRAM),
        ("inc/n.h", TARGET_HEADER),
        ("miss.c", "#include \"nope.h\"\nint f(void) { return 1; }\n"),
    ];
    same_as_cc(&with_missing, &["-fopenmp", "-c", "t.c", "miss.c"], &[]);
    same_as_cc(
        &with_missing,
        &["-fopenmp", "-c", "-MD", "miss.c", "t.c"],
        &["t.d"],
    );
    same_as_cc(
        &with_missing,
        &["-fopenmp", "t.c", "miss.c", "-o", "x"],
        &[],
    );
}

#[test]
fn dependency_files_equal_ccs() {
    let header_files = [
        ("t.c", TARGET_PROGRAM),
        ("inc/n.h", TARGET_HEADER),
        ("h.c", "#include \"inc/n.h\"\nint n = N;\n"),
        (
            "sub/m.c",
            "#include \"../inc/n.h\"\nint main(void) { return N - 100; }\n",
        ),
    ];
    let cases: &[(&[&str], &[&str])] = &[
        (&["-c", "-MD", "h.c"], &["h.d"]),
        (&["-c", "-MMD", "-MP", "h.c", "-o", "o.x.o"], &["o.x.d"]),
        (
            &[
                "-c", "-MD", "-MF", "deps.txt", "-MT", "tgt", "-MQ", "a$b", "h.c",
            ],
            &["deps.txt"],
        ),
        (&["-c", "-MD", "-MFdeps2.txt", "h.c"], &["deps2.txt"]),
        (&["-S", "-MD", "h.c"], &["h.d"]),
        (&["-MD", "sub/m.c", "-o", "prog"], &["prog.d"]),
        (&["-MMD", "sub/m.c", "h.c"], &["a-m.d", "a-h.d"]),
        (&["-M", "h.c"], &[]),
        (&["-MM", "-MG", "h.c"], &[]),
    ];
    for (args, deps) in cases {
        same_as_cc(&header_files, args, deps);
        let with_openmp = [&["-fopenmp"][..], args].concat();
        same_as_cc(&header_files, &with_openmp, deps);
    }
    // Device units: the .d files come from ompcc's own preprocessing step.
    let device_cases: &[(&[&str], &[&str])] = &[
        (&["-fopenmp", "-c", "-MD", "t.c"], &["t.d"]),
        (
            &["-fopenmp", "-c", "-MMD", "-MP", "t.c", "-o", "obj/t.o"],
            &["obj/t.d"],
        ),
        (
            &["-fopenmp", "-c", "-MD", "-MF", "t.dep", "-MT", "x y", "t.c"],
            &["t.dep"],
        ),
        (&["-fopenmp", "-S", "-MMD", "t.c"], &["t.d"]),
        (&["-fopenmp", "-MMD", "t.c", "-o", "prog"], &["prog.d"]),
        (
            &["-fopenmp", "-MMD", "t.c", "sub/m.c", "-o", "prog"],
            &["prog.d"],
        ),
        (&["-fopenmp", "-MD", "t.c", "h.c"], &["a-t.d", "a-h.d"]),
        (&["-fopenmp", "-c", "-MD", "badt.c"], &["badt.d"]),
        (
            &[
                "-fopenmp",
                "--compile",
                "--write-dependencies",
                "t.c",
                "--output",
                "o.o",
            ],
            &["o.d"],
        ),
    ];
    for (args, deps) in device_cases {
        let mut files = header_files.to_vec();
        files.push(("obj/.keep", ""));
        files.push((
            "badt.c",
            "#include \"inc/n.h\"\nint main(void) {\n#pragma omp target\n{ int x = ; }\n}\n",
        ));
        if args.contains(&"sub/m.c") {
            // Two mains would not link: make t.c's main a plain function there.
            files[0] = (
                "t.c",
                "#include \"inc/n.h\"\nint f(void){int s=0;\n#pragma omp target map(tofrom: s)\ns = N;\nreturn s;}\n",
            );
        }
        same_as_cc(&files, args, deps);
    }
}

#[test]
fn multiple_inputs_objects_and_archives_link() {
    let sb = Sandbox::new();
    sb.write("main.c", MAIN)
        .write("lib.c", LIB)
        .write("t.c", TARGET_PROGRAM);
    sb.write("inc/n.h", TARGET_HEADER);
    ok(&sb.cc(&["-c", "lib.c", "-o", "lib.o"]));
    let ar = std::process::Command::new("ar")
        .args(["rcs", "libtw.a", "lib.o"])
        .current_dir(sb.path())
        .output()
        .unwrap();
    ok(&ar);
    // Sources, an object and an archive (by path and by -l) in one command.
    ok(&sb.ompcc(&["-fopenmp", "main.c", "lib.o", "-o", "p1"]));
    assert_eq!(stdout(&sb.run("p1")), "42\n");
    ok(&sb.ompcc(&["-fopenmp", "main.c", "libtw.a", "-o", "p2"]));
    assert_eq!(stdout(&sb.run("p2")), "42\n");
    ok(&sb.ompcc(&["-fopenmp", "main.c", "-L.", "-ltw", "-o", "p3"]));
    assert_eq!(stdout(&sb.run("p3")), "42\n");
    // Two sources, one with a target region (compiled by ompcc's pipeline), linked together.
    sb.write(
        "t2.c",
        &TARGET_PROGRAM.replace("int main(void)", "int run(void)"),
    );
    sb.write("m2.c", "int run(void);\nint main(void) { return run(); }\n");
    ok(&sb.ompcc(&["-fopenmp", "-O2", "m2.c", "t2.c", "-o", "p4"]));
    assert_eq!(stdout(&sb.run("p4")), "4950\n");
    // `-x c` on a file with another suffix, then `-x none` for the object after it.
    sb.write("prog.txt", TARGET_PROGRAM);
    ok(&sb.ompcc(&[
        "-fopenmp", "-x", "c", "prog.txt", "-x", "none", "lib.o", "-o", "p5",
    ]));
    assert_eq!(stdout(&sb.run("p5")), "4950\n");
}

#[test]
fn target_programs_build_and_run() {
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    for opt in ["-O0", "-O2"] {
        ok(&sb.ompcc(&["-fopenmp", opt, "t.c", "-o", "t"]));
        assert_eq!(stdout(&sb.run("t")), "4950\n");
    }
    ok(&sb.ompcc(&["-fopenmp", "-c", "t.c"]));
    ok(&sb.ompcc(&["-fopenmp", "t.o", "-o", "t2"]));
    assert_eq!(stdout(&sb.run("t2")), "4950\n");
    // Already preprocessed input (.i) goes through the frontend without step 1.
    ok(&sb.cc(&["-fopenmp", "-E", "t.c", "-o", "pre.i"]));
    let out = sb.ompcc(&["-v", "-fopenmp", "pre.i", "-o", "t3"]);
    ok(&out);
    assert!(!stderr(&out).contains(" -E "), "{}", stderr(&out));
    assert!(stderr(&out).contains("-x cpp-output"), "{}", stderr(&out));
    assert_eq!(stdout(&sb.run("t3")), "4950\n");
    // Standard input goes to the host compiler as it is.
    let mut child = sb
        .ompcc_cmd(&["-fopenmp", "-x", "c", "-", "-o", "t4"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    let source = TARGET_PROGRAM.replace("#include \"inc/n.h\"", "#define N 100");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(stdout(&sb.run("t4")), "4950\n");
    // Bytes that are not UTF-8 (a Latin-1 string) reach the host compiler unchanged.
    let latin1 = b"#include <stdio.h>\nint main(void) {\n#pragma omp target\n{}\nputs(\"caf\xe9\");\nreturn 0; }\n";
    std::fs::write(sb.join("l1.c"), latin1).unwrap();
    ok(&sb.ompcc(&["-fopenmp", "l1.c", "-o", "l1"]));
    assert_eq!(sb.run("l1").stdout, b"caf\xe9\n");
}

#[test]
fn readme_example_builds_and_runs() {
    let sb = Sandbox::new();
    let hello = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/hello.c");
    ok(&sb.ompcc(&["-fopenmp", "-O2", hello, "-o", "hello"]));
    let out = sb.run("hello");
    ok(&out);
    assert_eq!(stdout(&out), "sum of 1/i^2 for i=1..1000 = 1.643934567\n");
}

#[test]
fn exit_codes_and_messages_are_ccs() {
    let sb = Sandbox::new();
    sb.write("bad.c", "int main(void) { return 0 }\n");
    sb.write("warn.c", "int main(void) { int unused; return 0; }\n");
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    sb.write(
        "badt.c",
        "int main(void) {\n#pragma omp target\n{ int x = ; }\nreturn 0; }\n",
    );
    sb.write(
        "warnt.c",
        "int main(void) { int unused;\n#pragma omp target\n{}\nreturn 0; }\n",
    );
    let cases: &[&[&str]] = &[
        &["-c", "bad.c"],
        &["-fopenmp", "-c", "bad.c"],
        &["-fopenmp", "-c", "badt.c"],
        &["-fopenmp", "badt.c", "-o", "x"],
        &["-c", "missing.c"],
        &["-fopenmp", "missing.c"],
        &["-c", "-fno-such-flag", "warn.c"],
        &["-fopenmp", "-c", "-fno-such-flag", "warn.c"],
        &["-c", "-Wall", "-Werror", "warn.c"],
        &["-fopenmp", "-c", "-Wall", "-Werror", "warn.c"],
        &["-fopenmp", "-c", "-Wall", "-Werror", "warnt.c"],
        &["-fopenmp", "-c", "-Wall", "warnt.c"],
        &["-c", "warn.c", "t.c", "-o", "one.o"],
        &["-fopenmp", "-c", "warn.c", "t.c", "-o", "one.o"],
        &["bad.c", "nomain-at-all.o"],
        &["-fopenmp", "-c", "missing.i"],
        &["-fopenmp", "-c", "t.c", "-o", "t.c"],
        &["-fopenmp", "t.c", "-o", "./t.c"],
        &[],
    ];
    for args in cases {
        let cc = sb.cc(args);
        let ours = sb.ompcc(args);
        assert_eq!(
            cc.status.code(),
            ours.status.code(),
            "{args:?}: {}",
            stderr(&ours)
        );
        // The diagnostics are cc's, word for word (ompcc adds nothing).
        assert_eq!(stderr(&cc), stderr(&ours), "{args:?}");
        assert_eq!(stdout(&cc), stdout(&ours), "{args:?}");
    }
    assert_eq!(sb.read("t.c"), TARGET_PROGRAM.as_bytes());
    // -Werror turns the warning into a failure in both paths.
    assert!(
        !sb.ompcc(&["-fopenmp", "-c", "-Wall", "-Werror", "warnt.c"])
            .status
            .success()
    );
    assert!(
        sb.ompcc(&["-fopenmp", "-c", "-Wall", "warnt.c"])
            .status
            .success()
    );
}

#[test]
fn preprocessor_warnings_appear_once() {
    let sb = Sandbox::new();
    sb.write(
        "w.c",
        "#warning one-warning\nint main(void) { return 0; }\n",
    );
    sb.write(
        "wt.c",
        "#warning one-warning\nint main(void) {\n#pragma omp target\n{}\nreturn 0; }\n",
    );
    for file in ["w.c", "wt.c"] {
        let out = sb.ompcc(&["-fopenmp", "-c", file]);
        ok(&out);
        assert_eq!(
            stderr(&out).matches("warning: #warning").count(),
            1,
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn dry_run_shows_exact_forwarded_flags() {
    let sb = Sandbox::new();
    let args = [
        "-###",
        "-c",
        "-O2",
        "-Ifoo",
        "-I",
        "bar",
        "-DX=\"a b\"",
        "-D",
        "Y",
        "-UZ",
        "-include",
        "pre.h",
        "-isystem",
        "sys",
        "-iquote",
        "q",
        "-std=gnu11",
        "-g3",
        "-Wall",
        "-Wno-unused",
        "-Werror",
        "-fPIC",
        "-march=x86-64-v2",
        "-mno-red-zone",
        "-pipe",
        "-x",
        "c",
        "a.src",
        "-x",
        "none",
        "-MMD",
        "-MF",
        "a.d",
        "-o",
        "a.o",
        "-pthread",
        "-Wl,-z,now",
        "-Xlinker",
        "-v",
    ];
    let out = sb.ompcc(&args);
    ok(&out);
    let expected: Vec<String> = std::iter::once("cc")
        .chain(args[1..].iter().copied())
        .map(|w| format!("\"{}\"", w.replace('"', "\\\"")))
        .collect();
    assert_eq!(stderr(&out), format!(" {}\n", expected.join(" ")));
    assert!(!sb.exists("a.o"));

    // ompcc's own options never reach the host compiler.
    let out = sb.ompcc(&[
        "-###",
        "-c",
        "a.c",
        "--offload-arch=sm_80",
        "-Rpass=unroll",
        "--passes=sroa",
        "--print-after=gvn",
        "--time-passes",
        "--time-phases",
        "-C",
        "unroll-count=4",
        "-foffload=disable",
    ]);
    ok(&out);
    assert_eq!(
        stderr(&out),
        " \"cc\" \"-c\" \"a.c\" \"-foffload=disable\"\n"
    );
}

#[test]
fn dry_run_shows_the_openmp_pipeline() {
    let mq = openmp_macros_quoted();
    let sb = Sandbox::new();
    let out = sb.ompcc(&["-###", "-fopenmp", "-O2", "-g", "-DX", "-c", "-MD", "a.c"]);
    ok(&out);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    // Step 1: preprocess with the user's flags (no -g: -g3 would add #define lines).
    let tmp = lines[0]
        .split('"')
        .find(|w| w.ends_with("/0.i"))
        .expect("temporary .i")
        .trim_end_matches("/0.i");
    assert_eq!(
        lines[0],
        format!(
            " \"cc\" \"-E\" \"-fopenmp\" {mq} \"-O2\" \"-DX\" \"-MD\" \"-MF\" \"{tmp}/0.d\" \"-MQ\" \"a.o\" \"a.c\" \"-o\" \"{tmp}/0.i\""
        )
    );
    // Then the user's own command (the path taken when no unit has device constructs).
    assert_eq!(
        lines[1],
        format!(" \"cc\" \"-fopenmp\" {mq} \"-O2\" \"-g\" \"-DX\" \"-c\" \"-MD\" \"a.c\"")
    );
}

#[test]
fn verbose_shows_the_commands_run() {
    let m = openmp_macros();
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    sb.write("h.c", HOST_PROGRAM);
    let out = sb.ompcc(&["-v", "-fopenmp", "-O1", "-c", "t.c"]);
    ok(&out);
    let err = stderr(&out);
    let cmds: Vec<&str> = err.lines().filter(|l| l.starts_with(" cc ")).collect();
    assert_eq!(cmds.len(), 3, "{err}");
    assert!(
        cmds[0].starts_with(&format!(" cc -E -fopenmp {m} -O1 t.c -o /")),
        "{}",
        cmds[0]
    );
    // The host text compiled to assembly while the device passes run, then assembled with
    // the PTX appended (overlap.rs).
    assert!(
        cmds[1].starts_with(&format!(
            " cc -v -fopenmp {m} -O1 -foffload=disable -frandom-seed="
        )),
        "{}",
        cmds[1]
    );
    assert!(cmds[1].contains(" -x cpp-output /"), "{}", cmds[1]);
    assert!(cmds[1].contains("/0.early.i -S -o /"), "{}", cmds[1]);
    assert!(
        cmds[2].starts_with(&format!(" cc -v -fopenmp {m} -O1 -c -x assembler /")),
        "{}",
        cmds[2]
    );
    assert!(cmds[2].ends_with("/0.early.s -o t.o"), "{}", cmds[2]);
    // Under -save-temps the unit is compiled in one command, after its device code.
    let out = sb.ompcc(&["-v", "-save-temps", "-fopenmp", "-O1", "-c", "t.c"]);
    ok(&out);
    let err = stderr(&out);
    let cmds: Vec<&str> = err.lines().filter(|l| l.starts_with(" cc ")).collect();
    assert_eq!(cmds.len(), 2, "{err}");
    assert!(cmds[1].ends_with("t.ompcc-host.i -c -o t.o"), "{}", cmds[1]);
    // Linking an offloaded unit: gcc must not build its own offload images at link time.
    let out = sb.ompcc(&["-v", "-fopenmp", "t.c", "-o", "t"]);
    ok(&out);
    let err = stderr(&out);
    let link = err.lines().rfind(|l| l.starts_with(" cc ")).unwrap();
    assert!(
        link.starts_with(&format!(" cc -v -fopenmp {m} /")),
        "{link}"
    );
    let rt = support::runtime_lib().display().to_string();
    // (the script puts the runtime's data before the program's: see link::data_first_script)
    let (link, script) = link.rsplit_once(" -T ").unwrap();
    assert!(
        link.ends_with(&format!(
            "/0.o -o t -Wl,--undefined=ompcc_rt_target_free_at {rt} -lpthread -ldl -lm"
        )),
        "{link}"
    );
    assert!(
        script.ends_with("/ompcc_rt_data.ld -foffload=disable"),
        "{script}"
    );
    assert!(err.starts_with("ompcc version "));

    // No device constructs: the user's command itself.
    let out = sb.ompcc(&["-v", "-fopenmp", "-c", "h.c"]);
    ok(&out);
    let err = stderr(&out);
    let cmds: Vec<&str> = err.lines().filter(|l| l.starts_with(" cc ")).collect();
    assert_eq!(cmds.len(), 2, "{err}");
    assert_eq!(cmds[1], format!(" cc -v -fopenmp {m} -c h.c"));

    // -foffload=disable: straight to the host compiler.
    let out = sb.ompcc(&["-v", "-fopenmp", "-foffload=disable", "-c", "t.c"]);
    ok(&out);
    let err = stderr(&out);
    let cmds: Vec<&str> = err.lines().filter(|l| l.starts_with(" cc ")).collect();
    assert_eq!(cmds, [" cc -v -fopenmp -foffload=disable -c t.c"]);
}

#[test]
fn version_help_and_host_queries() {
    let sb = Sandbox::new();
    let out = sb.ompcc(&["--version"]);
    ok(&out);
    let text = stdout(&out);
    // The first line names the commit (build.rs), as git names HEAD of this source tree.
    let first = text.lines().next().unwrap_or_default();
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let commit = match (option_env!("OMPCC_BUILD_COMMIT"), head) {
        (Some(c), _) if !c.is_empty() => c.to_owned(),
        (_, Some(hash)) => hash,
        (_, None) => "unknown".to_owned(),
    };
    assert!(
        first.starts_with(&format!(
            "ompcc {} (commit {commit}",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    assert!(text.contains("_OPENMP 201811"), "{text}");
    assert!(text.contains(&stdout(&sb.cc(&["--version"]))), "{text}");

    let out = sb.ompcc(&["--help"]);
    ok(&out);
    for needle in [
        "Usage: ompcc",
        "--emit=",
        "--offload-arch=",
        "OMPCC_HOST_CC",
    ] {
        assert!(stdout(&out).contains(needle), "{needle}");
    }

    for query in [
        &["-dumpversion"][..],
        &["-dumpmachine"],
        &["-print-file-name=libgomp.so"],
        &["-print-search-dirs"],
        &["-fopenmp", "-print-prog-name=cc1"],
    ] {
        let (a, b) = (sb.cc(query), sb.ompcc(query));
        assert_eq!(a.status.code(), b.status.code(), "{query:?}");
        assert_eq!(stdout(&a), stdout(&b), "{query:?}");
    }
}

#[test]
fn emit_stages_are_not_silently_accepted() {
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    // The frontend's stages print to stdout and stop.
    let out = sb.ompcc(&["-fopenmp", "--emit=tokens", "t.c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("PragmaOmp("), "{}", stdout(&out));
    let out = sb.ompcc(&["-fopenmp", "--emit=ast", "t.c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("function main"), "{}", stdout(&out));
    sb.write("dev.c", "int add(int a, int b) { return a + b; }\n");
    // The device stages print the unit's `declare target` code (every function with
    // --device-only; --device-only alone prints PTX).
    for (args, marker) in [
        (&["-fopenmp", "--emit=ir", "t.c"][..], ""),
        (&["-fopenmp", "-O2", "--emit=ir-opt", "t.c"][..], ""),
        (&["-fopenmp", "--emit=ptx", "t.c"][..], ".version"),
        (
            &["-fopenmp", "--device-only", "--emit=ir", "dev.c"][..],
            "func @add",
        ),
        (&["-fopenmp", "--device-only", "dev.c"][..], ".func"),
    ] {
        let out = sb.ompcc(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).contains(marker), "{args:?}: {}", stdout(&out));
    }
    let out = sb.ompcc(&["-fopenmp", "--emit=host-c", "t.c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("ompcc_rt_launch(&"),
        "{}",
        stdout(&out)
    );
    // `-o FILE` takes a stage's text instead of stdout (`-o -` is stdout); an unwritable
    // one is a fatal error, as with cc.
    let out = sb.ompcc(&["-fopenmp", "--emit=ptx", "t.c", "-o", "t.ptx"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(String::from_utf8_lossy(&sb.read("t.ptx")).contains(".version"));
    let out = sb.ompcc(&["-fopenmp", "--emit=ir", "-o", "-", "t.c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!sb.exists("-") && !stdout(&out).is_empty());
    let out = sb.ompcc(&["-fopenmp", "--emit=ast", "t.c", "-o", "no/such/dir/t.ast"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("fatal error: cannot write 'no/such/dir/t.ast'"),
        "{}",
        stderr(&out)
    );
    // Bad values of ompcc's options are ompcc's errors.
    let out = sb.ompcc(&["--emit=llvm", "t.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("ompcc: error: unknown stage 'llvm' in '--emit'"));
    let out = sb.ompcc(&["--offload-arch=gfx90a", "t.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("ompcc: error: invalid GPU architecture 'gfx90a'"));
    let out = sb.ompcc(&["--emit=ir", "-E", "t.c"]);
    assert_eq!(out.status.code(), Some(1));
    // A preprocessing error comes before the missing stage.
    sb.write("inc.c", "#include \"nope.h\"\n");
    let out = sb.ompcc(&["--emit=ast", "inc.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("nope.h"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("not yet implemented"));
    // Colour follows -fdiagnostics-color.
    let out = sb.ompcc(&[
        "--emit=ptx",
        "--offload-arch=sm_1",
        "-fdiagnostics-color=always",
        "t.c",
    ]);
    assert!(
        stderr(&out).contains("\x1b[01;31m\x1b[Kerror:"),
        "{:?}",
        stderr(&out)
    );
}

#[test]
fn temporary_files_are_removed() {
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    sb.write(
        "bad.c",
        "int main(void) {\n#pragma omp target\n{ int x = ; }\nreturn 0; }\n",
    );
    sb.write("inc.c", "#include \"nope.h\"\n");
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], bool)] = &[
        (&["-fopenmp", "-MD", "t.c", "-o", "t"], true),
        (&["-fopenmp", "-c", "t.c"], true),
        (&["-fopenmp", "bad.c", "-o", "b"], false),
        (&["-fopenmp", "inc.c"], false),
        (&["--emit=host-c", "t.c"], true),
        (&["-c", "bad.c"], false),
    ];
    for (args, succeeds) in cases {
        let out = sb
            .ompcc_cmd(args)
            .env("TMPDIR", tmp.path())
            .output()
            .unwrap();
        assert_eq!(
            out.status.success(),
            *succeeds,
            "{args:?}: {}",
            stderr(&out)
        );
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    // An unusable $TMPDIR does not stop cc, nor ompcc.
    let out = sb
        .ompcc_cmd(&["-fopenmp", "t.c", "-o", "t"])
        .env("TMPDIR", sb.join("no/such/dir"))
        .output()
        .unwrap();
    ok(&out);
    assert_eq!(stdout(&sb.run("t")), "4950\n");
}

#[test]
fn host_compiler_comes_from_the_environment() {
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    sb.write(
        "wrap.sh",
        "#!/bin/sh\nprintf '%s|' \"$1\" \"$@\" >> \"$(dirname \"$0\")/log\"\necho >> \"$(dirname \"$0\")/log\"\nshift\nexec cc \"$@\"\n",
    );
    let wrapper = sb.join("wrap.sh").display().to_string();
    // A command with arguments, as in "ccache gcc".
    let host = format!("sh {wrapper} MARK");
    let out = sb
        .ompcc_cmd(&["-fopenmp", "t.c", "-o", "t"])
        .env("OMPCC_HOST_CC", &host)
        .output()
        .unwrap();
    ok(&out);
    assert_eq!(stdout(&sb.run("t")), "4950\n");
    let log = String::from_utf8(sb.read("log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // preprocess, --version probe (is it gcc?), compile (to assembly, while the device
    // passes run), assemble, link: all through the wrapper.
    assert_eq!(lines.len(), 5, "{log}");
    assert!(lines.iter().all(|l| l.starts_with("MARK|MARK|")), "{log}");
    assert!(
        lines[0].starts_with(&format!(
            "MARK|MARK|-E|-fopenmp|{}|t.c|-o|",
            openmp_macros().replace(' ', "|")
        )),
        "{log}"
    );
    assert_eq!(lines[1], "MARK|MARK|--version|");

    // The host compiler's exit status and signals come back as a shell would report them.
    sb.write("die.sh", "#!/bin/sh\nkill -SEGV $$\n");
    let out = sb
        .ompcc_cmd(&["-c", "t.c"])
        .env(
            "OMPCC_HOST_CC",
            format!("sh {}", sb.join("die.sh").display()),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(128 + 11));
    let out = sb
        .ompcc_cmd(&["-c", "t.c"])
        .env("OMPCC_HOST_CC", "/nonexistent/cc")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "ompcc: fatal error: cannot execute '/nonexistent/cc': No such file or directory\ncompilation terminated.\n"
    );
}

#[test]
fn ompcc_as_its_own_host_compiler_stops() {
    let sb = Sandbox::new();
    sb.write("a.c", MAIN);
    // `cc` on PATH being ompcc (as when cc is linked to it) or OMPCC_HOST_CC=ompcc.
    std::fs::create_dir_all(sb.join("bin")).unwrap();
    std::os::unix::fs::symlink(OMPCC, sb.join("bin/cc")).unwrap();
    let path = format!(
        "{}:{}",
        sb.join("bin").display(),
        std::env::var("PATH").unwrap()
    );
    let expected = "ompcc: fatal error: ompcc was started as its own host compiler; set \
                    $OMPCC_HOST_CC to a C compiler such as gcc\ncompilation terminated.\n";
    for cmd in [
        sb.ompcc_cmd(&["-c", "a.c"]).env("PATH", &path).output(),
        sb.ompcc_cmd(&["-fopenmp", "a.c"])
            .env("OMPCC_HOST_CC", OMPCC)
            .output(),
    ] {
        let out = cmd.unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stderr(&out), expected);
    }
}

#[test]
fn response_files_are_read() {
    let sb = Sandbox::new();
    sb.write("my prog.c", MAIN).write("lib.c", LIB);
    sb.write(
        "args.rsp",
        "-fopenmp \"my prog.c\"\n@more.rsp -o 'out file'\n",
    );
    sb.write("more.rsp", "lib.c -DUNUSED='\"x\"'");
    ok(&sb.ompcc(&["@args.rsp"]));
    assert_eq!(stdout(&sb.run("out file")), "42\n");
    // An unreadable response file is left to the host compiler, as gcc does.
    let (a, b) = (sb.cc(&["@missing.rsp"]), sb.ompcc(&["@missing.rsp"]));
    assert_eq!(a.status.code(), b.status.code());
}

#[test]
fn interrupt_removes_temporary_files() {
    use std::os::unix::process::CommandExt as _;
    let sb = Sandbox::new();
    sb.write("t.c", TARGET_PROGRAM)
        .write("inc/n.h", TARGET_HEADER);
    // A host compiler that hangs: ompcc is interrupted while it runs (step 1).
    sb.write("hang.sh", "#!/bin/sh\nexec sleep 30\n");
    let tmp = tempfile::tempdir().unwrap();
    let mut child = sb
        .ompcc_cmd(&["-fopenmp", "-c", "t.c"])
        .env("TMPDIR", tmp.path())
        .env(
            "OMPCC_HOST_CC",
            format!("sh {}", sb.join("hang.sh").display()),
        )
        .process_group(0)
        .spawn()
        .unwrap();
    // Wait until ompcc has made its temporary directory, then Ctrl-C the process group.
    let start = std::time::Instant::now();
    while std::fs::read_dir(tmp.path()).unwrap().next().is_none() {
        assert!(
            start.elapsed().as_secs() < 20,
            "ompcc made no temporary directory"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    let kill = std::process::Command::new("kill")
        .args(["-s", "INT", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 2));
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "left {left:?}");
}

#[test]
fn long_command_lines_reach_the_host_compiler() {
    let sb = Sandbox::new();
    sb.write("m.c", MAIN)
        .write("lib.c", LIB)
        .write("sub/dir/.keep", "");
    ok(&sb.cc(&["-c", "lib.c"]));
    let ar = std::process::Command::new("ar")
        .args(["rcs", "libtw.a", "lib.o"])
        .current_dir(sb.path())
        .output()
        .unwrap();
    ok(&ar);
    // 3,000 linker inputs (about 110 kB) through a response file: more than ompcc passes
    // on a command line, so it hands them on in a response file of its own.
    let inputs = vec!["sub/dir/../../sub/dir/../../libtw.a"; 3000];
    sb.write("big.rsp", &inputs.join("\n"));
    let tmp = tempfile::tempdir().unwrap();
    let out = sb
        .ompcc_cmd(&["-fopenmp", "-v", "m.c", "@big.rsp", "-o", "m"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    ok(&out);
    let rsp = format!(" @{}/ompcc-args-", tmp.path().display());
    let link = stderr(&out)
        .lines()
        .rfind(|l| l.starts_with(" cc "))
        .unwrap()
        .to_owned();
    assert!(link.contains(&rsp), "{link}");
    assert_eq!(stdout(&sb.run("m")), "42\n");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "left {left:?}");
}

#[test]
fn preprocessing_flags_reach_the_device_path() {
    let sb = Sandbox::new();
    sb.write("sys/s.h", "#define FROM_ISYSTEM 3\n");
    sb.write("quote/q.h", "#define FROM_IQUOTE 4\n");
    sb.write("pre.h", "#define FROM_INCLUDE 5\n");
    sb.write(
        "p.c",
        "#include <stdio.h>\n#include <s.h>\n#include \"q.h\"\n\
         #ifdef UNDEFINED_BY_U\n#error -U was not applied\n#endif\n\
         int main(void) {\n  int v = 0;\n\
         #pragma omp target map(tofrom : v)\n  v = FROM_D + FROM_ISYSTEM + FROM_IQUOTE + FROM_INCLUDE;\n\
         printf(\"%d %ld\\n\", v, __STDC_VERSION__);\n  return 0;\n}\n",
    );
    for opt in ["-O0", "-O1", "-O2", "-O3", "-Os", "-Ofast", "-Og"] {
        let out = sb.ompcc(&[
            "-fopenmp",
            opt,
            "-g",
            "-std=c11",
            "-DFROM_D=2",
            "-DUNDEFINED_BY_U",
            "-UUNDEFINED_BY_U",
            "-isystem",
            "sys",
            "-iquote",
            "quote",
            "-include",
            "pre.h",
            "-Wall",
            "-Wno-unused",
            "-march=x86-64",
            "-pipe",
            "-pthread",
            "p.c",
            "-o",
            "p",
        ]);
        ok(&out);
        assert_eq!(stdout(&sb.run("p")), "14 201112\n", "{opt}");
    }
}

#[test]
fn shared_libraries_with_device_code_link() {
    let sb = Sandbox::new();
    sb.write(
        "k.c",
        "int k(int n) {\n  int s = 0;\n#pragma omp target teams distribute parallel for reduction(+ : s)\n  for (int i = 0; i < n; i++)\n    s += i;\n  return s;\n}\n",
    );
    sb.write(
        "m.c",
        "#include <stdio.h>\nint k(int);\nint main(void) { printf(\"%d\\n\", k(10)); return 0; }\n",
    );
    ok(&sb.ompcc(&["-fopenmp", "-shared", "-fPIC", "k.c", "-o", "libk.so"]));
    ok(&sb.ompcc(&[
        "-fopenmp",
        "m.c",
        "-L.",
        "-lk",
        "-Wl,-rpath,$ORIGIN",
        "-o",
        "m",
    ]));
    assert_eq!(stdout(&sb.run("m")), "45\n");
    // The shared library named by its path.
    ok(&sb.ompcc(&[
        "-fopenmp",
        "m.c",
        "./libk.so",
        "-Wl,-rpath,$ORIGIN",
        "-o",
        "m1",
    ]));
    assert_eq!(stdout(&sb.run("m1")), "45\n");
    // A static executable with device code.
    ok(&sb.ompcc(&["-fopenmp", "-static", "m.c", "k.c", "-o", "ms"]));
    assert_eq!(stdout(&sb.run("ms")), "45\n");
    // A static archive of device code, and -Xlinker.
    ok(&sb.ompcc(&["-fopenmp", "-fpic", "-c", "k.c", "-o", "k.o"]));
    let ar = std::process::Command::new("ar")
        .args(["rcs", "libks.a", "k.o"])
        .current_dir(sb.path())
        .output()
        .unwrap();
    ok(&ar);
    ok(&sb.ompcc(&[
        "-fopenmp",
        "m.c",
        "libks.a",
        "-Xlinker",
        "--as-needed",
        "-o",
        "m2",
    ]));
    assert_eq!(stdout(&sb.run("m2")), "45\n");
}

#[test]
fn links_of_objects_that_call_the_runtime_get_it() {
    let sb = Sandbox::new();
    // A stand-in runtime and an object calling it, as offloaded code will.
    sb.write("rt.c", "#include <stdio.h>\nint ompcc_rt_launch(const void *a) { (void)a; puts(\"runtime called\"); return 0; }\n");
    sb.write(
        "user.c",
        "int ompcc_rt_launch(const void *);\nint main(void) { return ompcc_rt_launch(0); }\n",
    );
    sb.write("lib/.keep", "");
    ok(&sb.cc(&["-c", "rt.c", "user.c"]));
    let ar = |args: &[&str]| {
        let out = std::process::Command::new("ar")
            .args(args)
            .current_dir(sb.path())
            .output()
            .unwrap();
        ok(&out);
    };
    ar(&["rcs", "fake_rt.a", "rt.o"]);
    ar(&["rcs", "lib/libuser.a", "user.o"]);
    let rt = sb.join("fake_rt.a").display().to_string();
    let link = |args: &[&str]| {
        sb.ompcc_cmd(args)
            .env("OMPCC_RUNTIME_LIB", &rt)
            .output()
            .unwrap()
    };
    for (args, exe) in [
        (&["-fopenmp", "user.o", "-o", "u1"][..], "u1"),
        (&["-fopenmp", "-Llib", "-luser", "-o", "u2"], "u2"),
        (&["-fopenmp", "-v", "lib/libuser.a", "-o", "u3"], "u3"),
    ] {
        let out = link(args);
        ok(&out);
        assert_eq!(stdout(&sb.run(exe)), "runtime called\n", "{args:?}");
        if args.contains(&"-v") {
            let cmd = stderr(&out)
                .lines()
                .find(|l| l.starts_with(" cc "))
                .unwrap()
                .to_owned();
            assert!(
                cmd.contains(&format!(
                    " -o u3 -Wl,--undefined=ompcc_rt_target_free_at {rt} -lpthread -ldl -lm -T /"
                )) && cmd.ends_with("/ompcc_rt_data.ld -foffload=disable"),
                "{cmd}"
            );
        }
    }
    // For host-only objects the link is cc's own command.
    let out = link(&["-v", "-fopenmp", "rt.o", "-o", "x"]);
    assert!(
        stderr(&out).contains(&format!(" cc -v -fopenmp {} rt.o -o x\n", openmp_macros())),
        "{}",
        stderr(&out)
    );
    // Objects that call the runtime get it without -fopenmp too: build systems link OpenMP
    // programs naming libgomp instead (CMake's OpenMP::OpenMP_C).
    let out = link(&["-v", "user.o", "rt.o", "-o", "y"]);
    assert!(
        stderr(&out).contains(&format!(
            " cc -v user.o rt.o -o y -Wl,--undefined=ompcc_rt_target_free_at {rt} -lpthread"
        )),
        "{}",
        stderr(&out)
    );

    // A copy of ompcc with no runtime beside it says where it looked.
    std::fs::create_dir_all(sb.join("inst/bin")).unwrap();
    std::fs::copy(OMPCC, sb.join("inst/bin/ompcc")).unwrap();
    let out = std::process::Command::new(sb.join("inst/bin/ompcc"))
        .args(["-fopenmp", "user.o", "-o", "z"])
        .current_dir(sb.path())
        .env_remove("OMPCC_RUNTIME_LIB")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let inst = sb.join("inst").display().to_string();
    assert_eq!(
        stderr(&out),
        format!(
            "ompcc: fatal error: cannot find the ompcc runtime libompcc_rt.a (looked for \
             {inst}/bin/libompcc_rt.a, {inst}/lib/libompcc_rt.a; set $OMPCC_RUNTIME_LIB to its \
             path)\ncompilation terminated.\n"
        )
    );
}

/// A unit that gcc builds with `-std=gnu11 -Wall -Wextra -Werror -pedantic` builds the same
/// with ompcc: the text ompcc adds (statement expressions and `__int128` in launch sizes and
/// struct-member ranges, the PTX as a string longer than ISO C's 4095 characters on the
/// sequential path) raises no pedantic diagnostic, overlapped or with `-save-temps`.
#[test]
fn pedantic_werror_units_build() {
    let sb = Sandbox::new();
    sb.write(
        "p.c",
        "#include <stdio.h>\n#include <math.h>\nstruct S { int n; double *a; };\n\
         double f(struct S s, int m) {\n  double t = 0;\n\
         #pragma omp target teams distribute parallel for collapse(2) map(to: s.a[0:s.n]) reduction(+: t)\n\
         for (int i = 0; i < m; i++)\n    for (int j = 0; j < s.n; j++) t += sin(s.a[j]) * i;\n\
         return t;\n}\n",
    );
    let strict = ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    let gcc = sb.cc(&[&["-fopenmp", "-O2", "-c", "p.c", "-o", "g.o"][..], &strict].concat());
    assert!(gcc.status.success(), "gcc: {}", stderr(&gcc));
    for extra in [&[][..], &["-save-temps"][..]] {
        let args = [
            &["-fopenmp", "-O2", "-c", "p.c", "-o", "p.o"][..],
            &strict,
            extra,
        ]
        .concat();
        ok(&sb.ompcc(&args));
    }
}
