//! What makes ompcc easy to install, trust and debug (issue 19): the version macros, the
//! install script, the research options (`--print-pipeline`, `--list-passes`,
//! `--disable-pass=`, `--explain`), ompcc's intermediates under `-save-temps`, and the
//! diagnostics that point at the user's mistake.

mod support;

use support::{OMPCC, Sandbox, ok, stderr, stdout};

/// A program that prints the version macros, with a target region (so ompcc's own pipeline
/// compiles it) or without (the host compiler alone), and includes `<omp.h>`: gcc's header
/// reads `_OPENMP`, and ompcc's frontend parses what it then declares.
fn version_program(target: bool) -> String {
    let region = if target {
        "#pragma omp target map(tofrom: x)\n    x += 1;\n"
    } else {
        "x += 1;\n"
    };
    format!(
        "#include <omp.h>\n#include <stdio.h>\nint main(void) {{\n    int x = 0;\n    {region}\
         #ifdef __OMPCC__\n    printf(\"%d %d %d %d\\n\", _OPENMP, __OMPCC__, \
         __OMPCC_VERSION__ > 0, x);\n#else\n    printf(\"no ompcc\\n\");\n#endif\n    \
         return 0;\n}}\n"
    )
}

#[test]
fn openmp_and_ompcc_macros_say_what_ompcc_implements() {
    let sb = Sandbox::new();
    for (target, file) in [(true, "t.c"), (false, "h.c")] {
        sb.write(file, &version_program(target));
        for (flags, want) in [
            (&[][..], "201811 1 1 1\n"),
            (&["-fopenmp-version=51"][..], "202011 1 1 1\n"),
            (&["-fopenmp-version=52"][..], "202111 1 1 1\n"),
            (&["-foffload=disable"][..], "no ompcc\n"),
        ] {
            // -Werror: gcc must not warn about the redefined _OPENMP, nor about <omp.h>.
            let mut args = vec!["-fopenmp", "-Wall", "-Werror", file, "-o", "p"];
            args.extend_from_slice(flags);
            let out = sb.ompcc(&args);
            ok(&out);
            assert_eq!(stderr(&out), "", "{file} {flags:?}");
            let run = std::process::Command::new(sb.join("p"))
                .env("OMPCC_DEVICE", "host")
                .output()
                .unwrap();
            ok(&run);
            assert_eq!(stdout(&run), want, "{file} {flags:?}");
        }
    }
    let out = sb.ompcc(&["-fopenmp", "-fopenmp-version=60", "-c", "t.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("expected one of: 45, 50, 51, 52"));
    let _ = OMPCC;
}

/// `./install.sh --prefix P --from DIR` installs the binary, the runtime and the header; the
/// installed ompcc alone (no `OMPCC_RUNTIME_LIB`, nothing of the build tree) builds an
/// example that runs its region on the emulator.
#[test]
fn install_script_gives_a_prefix_whose_ompcc_finds_its_runtime() {
    let rt = support::runtime_lib();
    let built = std::path::Path::new(OMPCC).parent().unwrap();
    let prefix = Sandbox::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::process::Command::new("bash")
        .arg(root.join("install.sh"))
        .arg("--prefix")
        .arg(prefix.join("p"))
        .arg("--from")
        .arg(built)
        .output()
        .unwrap();
    ok(&out);
    for f in ["p/bin/ompcc", "p/lib/libompcc_rt.a", "p/include/ompcc_rt.h"] {
        assert!(prefix.exists(f), "{f} not installed");
    }
    assert_eq!(
        std::fs::read(prefix.join("p/lib/libompcc_rt.a")).unwrap(),
        std::fs::read(&rt).unwrap()
    );
    let sb = Sandbox::new();
    let saxpy = root.join("examples/saxpy.c");
    let build = std::process::Command::new(prefix.join("p/bin/ompcc"))
        .args(["-fopenmp", "-O2"])
        .arg(&saxpy)
        .args(["-o", "saxpy"])
        .current_dir(sb.path())
        .env_remove("OMPCC_RUNTIME_LIB")
        .env_remove("OMPCC_HOST_CC")
        .output()
        .unwrap();
    ok(&build);
    let run = std::process::Command::new(sb.join("saxpy"))
        .env("OMPCC_DEVICE", "emu")
        .env("OMPCC_INFO", "launches")
        .output()
        .unwrap();
    ok(&run);
    assert!(stdout(&run).contains("wrong=0"), "{}", stdout(&run));
    assert!(stderr(&run).contains(": launch '"), "{}", stderr(&run));
    // A bad argument is an error, not an install somewhere else.
    let bad = std::process::Command::new("bash")
        .arg(root.join("install.sh"))
        .arg("--nope")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// The research signposts: the pipeline as a `--passes=` list, every pass with a line, a pass
/// left out, and the reference of a diagnostic code.
#[test]
fn pipeline_passes_and_codes_are_printed_by_ompcc() {
    let sb = Sandbox::new();
    let out = sb.ompcc(&["-O2", "--print-pipeline"]);
    ok(&out);
    let o2 = stdout(&out);
    assert!(
        o2.starts_with("sroa,mem2reg,") && o2.ends_with("dce,simplifycfg,rotate,cache\n"),
        "{o2}"
    );
    assert!(o2.contains(",unroll,"), "{o2}");
    let out = sb.ompcc(&["-O2", "--disable-pass=unroll,licm", "--print-pipeline"]);
    ok(&out);
    let dropped = stdout(&out);
    assert!(
        !dropped.contains("unroll") && !dropped.contains("licm"),
        "{dropped}"
    );
    assert_eq!(
        dropped.trim().split(',').count(),
        o2.trim()
            .split(',')
            .filter(|p| *p != "unroll" && *p != "licm")
            .count()
    );
    assert_eq!(stdout(&sb.ompcc(&["-O0", "--print-pipeline"])), "\n");

    let out = sb.ompcc(&["--list-passes"]);
    ok(&out);
    let list = stdout(&out);
    assert_eq!(list.lines().count(), ompcc_opt::PASSES.len(), "{list}");
    assert!(
        list.lines()
            .any(|l| l.starts_with("licm ") && l.contains("hoist")),
        "{list}"
    );

    let out = sb.ompcc(&["--disable-pass=nosuch", "--print-pipeline"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("unknown pass 'nosuch' in '--disable-pass='"));

    // --disable-pass changes the code: without unroll the constant loop stays a loop.
    sb.write(
        "k.c",
        "#pragma omp declare target\nvoid k(float *a) {\n  for (int i = 0; i < 4; i++) a[i] = 2.0f * a[i];\n}\n#pragma omp end declare target\n",
    );
    let with = sb.ompcc(&["-fopenmp", "-O2", "--emit=ir-opt", "k.c"]);
    let without = sb.ompcc(&[
        "-fopenmp",
        "-O2",
        "--disable-pass=unroll",
        "--emit=ir-opt",
        "k.c",
    ]);
    ok(&with);
    ok(&without);
    let blocks = |o: &std::process::Output| stdout(o).matches("\nblock").count();
    assert!(
        blocks(&without) > blocks(&with),
        "{}\n---\n{}",
        stdout(&with),
        stdout(&without)
    );

    let out = sb.ompcc(&["--explain", "E0803"]);
    ok(&out);
    let text = stdout(&out);
    assert!(text.starts_with("## E0803\n"), "{text}");
    assert!(text.contains("host C library function"), "{text}");
    let out = sb.ompcc(&["--explain=e9999"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no diagnostic code 'E9999'"));
}

/// Every code the compiler emits is documented in docs/diagnostics.md, and every documented
/// code exists; every IR opcode is in docs/ir.md.
#[test]
fn docs_cover_every_diagnostic_code_and_ir_opcode() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/diagnostics.md")).unwrap();
    let documented: std::collections::BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|c| c.trim().to_owned())
        .collect();
    let mut used = std::collections::BTreeSet::new();
    let mut stack = vec![root.join("compiler")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "tests" {
                    stack.push(path);
                }
                continue;
            }
            if !name.ends_with(".rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // Unit tests make up codes of their own.
            let text = text.split("#[cfg(test)]").next().unwrap();
            let bytes = text.as_bytes();
            for (i, _) in text.match_indices('"') {
                let code = &bytes[i + 1..(i + 7).min(bytes.len())];
                if code.len() == 6
                    && code[5] == b'"'
                    && matches!(code[0], b'E' | b'W')
                    && code[1..5].iter().all(u8::is_ascii_digit)
                {
                    used.insert(String::from_utf8_lossy(&code[..5]).into_owned());
                }
            }
        }
    }
    let undocumented: Vec<&String> = used.difference(&documented).collect();
    let stale: Vec<&String> = documented.difference(&used).collect();
    assert!(
        undocumented.is_empty(),
        "not in docs/diagnostics.md: {undocumented:?}"
    );
    assert!(stale.is_empty(), "documented but never emitted: {stale:?}");
    assert!(used.len() > 150, "{}", used.len());

    let ir = std::fs::read_to_string(root.join("docs/ir.md")).unwrap();
    for op in ompcc_ir::instructions::Opcode::ALL {
        assert!(
            ir.contains(&format!("`{}`", op.name())),
            "{} not in docs/ir.md",
            op.name()
        );
    }
}

/// E0803 for a host C library function says it has no device version (no "define it"); for
/// the program's own function it says how to give it one.
#[test]
fn host_library_calls_on_the_device_say_what_to_do() {
    let sb = Sandbox::new();
    sb.write(
        "t.c",
        "#include <stdio.h>\n#include <stdlib.h>\nint mine(int);\nint main(void) {\n  int x = 0;\n\
         #pragma omp target map(tofrom: x)\n  {\n    FILE *f = fopen(\"x\", \"r\");\n    \
         x = rand();\n    x += mine(x);\n    if (!f) exit(1);\n  }\n  return x;\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "t.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for f in ["fopen", "rand", "exit"] {
        assert!(
            err.contains(&format!(
                "'{f}' is a host C library function with no device version"
            )),
            "{f}: {err}"
        );
    }
    assert!(
        err.contains("function 'mine' has no device definition [E0803]"),
        "{err}"
    );
    assert!(
        err.contains("define 'mine' in this unit, or declare it 'declare target'"),
        "{err}"
    );
    assert!(!err.contains("define it in this file or mark it"), "{err}");
}

/// `-Rpass=offload` counts in words: "1 parameter", "1 team x 1 thread", and says when the
/// runtime chooses the launch shape.
#[test]
fn offload_remarks_read_as_english() {
    let sb = Sandbox::new();
    sb.write(
        "t.c",
        "int main(void) {\n  int x = 0, a[64];\n#pragma omp target map(tofrom: x)\n  x += 1;\n\
         #pragma omp target teams distribute parallel for num_teams(4) map(from: a)\n  \
         for (int i = 0; i < 64; i++) a[i] = i;\n  return x + a[3];\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-Rpass=offload", "-c", "t.c"]);
    ok(&out);
    let err = stderr(&out);
    assert!(
        err.contains("serial mode, 1 team x 1 thread, 1 parameter [-Rpass=offload]"),
        "{err}"
    );
    assert!(
        err.contains("SPMD mode, 4 teams, threads per team chosen at launch, 1 parameter"),
        "{err}"
    );
    assert!(
        !err.contains("runtime teams") && !err.contains("1 parameters"),
        "{err}"
    );
}

/// A pointer used in a target region with nothing mapping its data: a warning with the map
/// clause to add; `-Rpass=offload` calls the implicit map a zero-length section; the runtime's
/// `OMPCC_INFO=maps` log shows it, and other categories leave it out.
const UNMAPPED: &str = "\
#include <stdlib.h>
#include <stdio.h>
int main(void) {
  int n = 8;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i;
#pragma omp target data map(tofrom: a[0:n])
  {
#pragma omp target
    a[1] += 1;
  }
#pragma omp target
  a[0] = 5;
  printf(\"%g %g\\n\", a[0], a[1]);
  return 0;
}
";

#[test]
fn unmapped_pointers_are_warned_about_and_logged() {
    let sb = Sandbox::new();
    sb.write("m.c", UNMAPPED);
    let out = sb.ompcc(&[
        "-fopenmp",
        "-fdiagnostics-color=never",
        "-Rpass=offload",
        "m.c",
        "-o",
        "m",
    ]);
    ok(&out);
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].starts_with("m.c:13:3: warning: pointer 'a' is used in a target region, but nothing maps the data it points to [W0912]"),
        "{err}"
    );
    // The access analysis knows the section the region uses, and the planner can map it.
    assert!(
        err.contains(
            "add map(tofrom: a[0:1]) to the target directive (the elements the region uses), \
             or build with -fopenmp-plan-data and ompcc maps it"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "'a' (device pointer, 8 bytes): map(tofrom: a[:0]) implicit, a zero-length section"
        ),
        "{err}"
    );
    // On the host fallback the program is right; on the emulator the unmapped region faults,
    // after the log said why.
    let run = |info: &str| {
        std::process::Command::new(sb.join("m"))
            .env("OMPCC_DEVICE", "emu")
            .env("OMPCC_INFO", info)
            .output()
            .unwrap()
    };
    let maps = run("maps");
    let log = stderr(&maps);
    assert!(
        log.lines().any(|l| l.starts_with("ompcc-rt: info: m.c:9:")
            && l.contains("zero-length section at 0x")
            && l.contains("(present in 'a[0:n]')")),
        "{log}"
    );
    assert!(
        log.lines().any(|l| l.starts_with("ompcc-rt: info: m.c:12:")
            && l.contains("'a' zero-length section")
            && l.contains("not mapped on device 0: the device gets the host address")),
        "{log}"
    );
    assert!(!log.contains(": launch '"), "{log}");
    // The fault names the source line without -g, and the pointer that carried a host
    // address.
    assert!(!maps.status.success());
    assert!(
        log.contains("ompcc-rt: error: m.c:12:1: kernel '__omp_offload_main_l12'")
            && log.contains("(m.c:13)"),
        "{log}"
    );
    assert!(
        log.contains("note: pointer 'a' reached the kernel as its host address 0x"),
        "{log}"
    );
    let launches = run("launches");
    let log = stderr(&launches);
    assert!(log.contains(": launch '"), "{log}");
    assert!(
        !log.contains("zero-length") && !log.contains(": map "),
        "{log}"
    );
    let bad = run("maps,bogus");
    assert!(stderr(&bad).contains("ompcc-rt: warning: ignoring 'bogus' in OMPCC_INFO=maps,bogus"));
}

/// `-save-temps` keeps ompcc's intermediates next to cc's, named as gcc names its own.
#[test]
fn save_temps_keeps_ompccs_intermediates_next_to_ccs() {
    let sb = Sandbox::new();
    sb.write("t.c", support::TARGET_PROGRAM)
        .write("inc/n.h", support::TARGET_HEADER);
    ok(&sb.ompcc(&["-fopenmp", "-save-temps", "-c", "t.c"]));
    for f in [
        "t.i",
        "t.s",
        "t.o",
        "t.ompcc-host.i",
        "t.ompcc.ir",
        "t.ompcc.ptx",
    ] {
        assert!(sb.exists(f), "{f}: {:?}", sb.files());
    }
    let ptx = String::from_utf8(sb.read("t.ompcc.ptx")).unwrap();
    assert!(
        ptx.contains(".visible .entry __omp_offload_main_l5("),
        "{ptx}"
    );
    assert!(
        String::from_utf8(sb.read("t.ompcc.ir"))
            .unwrap()
            .contains("kernel @__omp_offload_main_l5")
    );
    let host = String::from_utf8_lossy(&sb.read("t.ompcc-host.i")).into_owned();
    assert!(host.contains("ompcc_rt_launch("), "{host}");
    assert!(String::from_utf8_lossy(&sb.read("t.i")).contains("#pragma omp target"));

    // Linking: gcc's `OUT-STEM` names, and the program runs.
    std::fs::create_dir(sb.join("bin")).unwrap();
    ok(&sb.ompcc(&["-fopenmp", "-save-temps", "t.c", "-o", "bin/prog"]));
    for f in [
        "bin/prog-t.i",
        "bin/prog-t.s",
        "bin/prog-t.o",
        "bin/prog-t.ompcc.ptx",
        "bin/prog-t.ompcc-host.i",
    ] {
        assert!(sb.exists(f), "{f}: {:?}", sb.files());
    }
    let run = std::process::Command::new(sb.join("bin/prog"))
        .env("OMPCC_DEVICE", "emu")
        .output()
        .unwrap();
    ok(&run);
    assert_eq!(stdout(&run), "4950\n");
}

/// `-fsyntax-only` runs ompcc's checks too (device code included) and writes nothing; the
/// options that still hand the command to cc say so.
#[test]
fn syntax_only_checks_device_code_and_bypasses_are_announced() {
    let sb = Sandbox::new();
    sb.write("t.c", support::TARGET_PROGRAM)
        .write("inc/n.h", support::TARGET_HEADER)
        .write(
            "bad.c",
            "#include <stdio.h>\nint main(void) {\n  int x = 0;\n#pragma omp target map(tofrom: x)\n  x = getchar();\n  return x;\n}\n",
        );
    let before = sb.files();
    ok(&sb.ompcc(&["-fopenmp", "-fsyntax-only", "t.c"]));
    assert_eq!(sb.files(), before);
    // gcc accepts bad.c; ompcc's device checks reject it.
    ok(&sb.cc(&["-fopenmp", "-fsyntax-only", "bad.c"]));
    let out = sb.ompcc(&[
        "-fopenmp",
        "-fsyntax-only",
        "-fdiagnostics-color=never",
        "bad.c",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("bad.c:5:7: error: function 'getchar' has no device definition [E0803]"),
        "{}",
        stderr(&out)
    );
    assert_eq!(sb.files(), before);
    // A C error is cc's to report, with cc's exit status.
    sb.write("err.c", "int main(void) { return y; }\n");
    let ours = sb.ompcc(&["-fopenmp", "-fsyntax-only", "err.c"]);
    let theirs = sb.cc(&["-fopenmp", "-fsyntax-only", "err.c"]);
    assert_eq!(ours.status.code(), theirs.status.code());
    assert!(
        stderr(&ours).contains("'y' undeclared"),
        "{}",
        stderr(&ours)
    );

    let out = sb.ompcc(&["-fopenmp", "-dumpdir", "d/", "-c", "t.c"]);
    ok(&out);
    assert!(
        stderr(&out).contains("ompcc: warning: '-dumpdir' hands this command to the host compiler unchanged: its target regions are not offloaded by ompcc"),
        "{}",
        stderr(&out)
    );
    // Queries compile nothing: no warning.
    let out = sb.ompcc(&["-fopenmp", "-dumpmachine"]);
    ok(&out);
    assert_eq!(stderr(&out), "");
}

/// On a line with a macro, ompcc's error column is the one gcc gives.
#[test]
fn columns_on_macro_lines_match_gccs() {
    let sb = Sandbox::new();
    sb.write(
        "m.c",
        "#define SCALE 2.0 *\n#define SQ(v) ((v) * (v))\nint main(void) {\n  double r;\n  \
         r = SCALE SQ(3) + undeclared_one;\n  return (int)r;\n}\n",
    );
    // `--emit=ast` shows ompcc's own diagnostics whatever cc thinks.
    let ours = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "--emit=ast", "m.c"]);
    assert!(!ours.status.success());
    let theirs = sb.cc(&[
        "-fopenmp",
        "-fdiagnostics-color=never",
        "-fsyntax-only",
        "m.c",
    ]);
    let at = |text: &str| {
        text.lines()
            .find(|l| l.contains("undeclared_one") && l.contains("error"))
            .and_then(|l| l.split(": error").next())
            .map(str::to_owned)
    };
    let (o, t) = (at(&stderr(&ours)), at(&stderr(&theirs)));
    assert!(o.is_some(), "{}", stderr(&ours));
    assert_eq!(o, t, "ours:\n{}\ngcc:\n{}", stderr(&ours), stderr(&theirs));
    assert_eq!(o.as_deref(), Some("m.c:5:21"));
}

/// `OMPCC_PROFILE=1` on a run that fell back to the host lists the regions that ran there and
/// why, instead of empty tables; the JSON report has them too.
#[test]
fn the_profile_of_a_host_fallback_run_says_which_regions_and_why() {
    let sb = Sandbox::new();
    sb.write("t.c", support::TARGET_PROGRAM)
        .write("inc/n.h", support::TARGET_HEADER);
    ok(&sb.ompcc(&["-fopenmp", "t.c", "-o", "t"]));
    let run = std::process::Command::new(sb.join("t"))
        .current_dir(sb.path())
        .env("OMPCC_DEVICE", "host")
        .env("OMPCC_PROFILE", "1")
        .output()
        .unwrap();
    ok(&run);
    assert_eq!(stdout(&run), "4950\n");
    let err = stderr(&run);
    assert!(err.contains("ran on the host (fallback)"), "{err}");
    assert!(
        err.lines().any(|l| l.starts_with("__omp_offload_main_l5")
            && l.contains(" 1  no offload device: OMPCC_DEVICE=host selects no device (t.c:5:1)")),
        "{err}"
    );
    let run = std::process::Command::new(sb.join("t"))
        .current_dir(sb.path())
        .env("OMP_TARGET_OFFLOAD", "DISABLED")
        .env("OMPCC_PROFILE", "json:prof-%p.json")
        .output()
        .unwrap();
    ok(&run);
    let name = format!("prof-{}.json", run_pid(&sb));
    let json = String::from_utf8(sb.read(&name)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["host_fallback"]["__omp_offload_main_l5"]["reason"], "OMP_TARGET_OFFLOAD=DISABLED",
        "{json}"
    );
}

/// The pid in the one `prof-PID.json` file a run left in `sb`.
fn run_pid(sb: &Sandbox) -> String {
    let files: Vec<String> = sb
        .files()
        .into_iter()
        .filter(|f| f.starts_with("prof-") && f.ends_with(".json"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let pid = &files[0]["prof-".len()..files[0].len() - ".json".len()];
    assert!(pid.parse::<u32>().is_ok(), "{pid}");
    pid.to_owned()
}

/// `--emit=host-c` shows the user's file only, with the rewritten construct over several
/// lines; `--emit=host-c-full` is the whole text cc compiles.
#[test]
fn host_c_shows_the_users_file_laid_out() {
    let sb = Sandbox::new();
    let saxpy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/saxpy.c");
    let saxpy = saxpy.display().to_string();
    let source = std::fs::read_to_string(&saxpy).unwrap();
    let out = sb.ompcc(&["-fopenmp", "-O2", "--emit=host-c", &saxpy]);
    ok(&out);
    let view = stdout(&out);
    let full = stdout(&sb.ompcc(&["-fopenmp", "-O2", "--emit=host-c-full", &saxpy]));
    assert!(full.lines().count() > 1000, "{}", full.lines().count());
    // Short: the user's lines, a few lines per rewritten construct, no system header.
    assert!(view.lines().count() < source.lines().count() + 40, "{view}");
    assert!(view.lines().all(|l| l.len() <= 250), "{view}");
    assert!(
        !view.contains("__ompcc_ptx") && !view.contains("typedef struct __ompcc"),
        "{view}"
    );
    assert!(
        view.contains("/* #include \"/usr/include/stdio.h\" */"),
        "{view}"
    );
    assert!(
        view.contains("if (!ompcc_rt_launch(&__ompcc_a1)) {"),
        "{view}"
    );
    assert!(
        view.contains("#pragma omp target teams distribute parallel for"),
        "{view}"
    );
    let entries = view
        .lines()
        .filter(|l| l.trim_start().starts_with("{((void *)"))
        .count();
    assert_eq!(entries, 4, "one line per map entry: {view}");
    assert!(view.contains("printf(\"saxpy n=%d checksum=%.3f wrong=%d\\n\", n, sum, wrong);"));
}

/// Remarks about a whole function (`promoted N stack slots`) carry the function's first
/// source line like the others, so every remark names a line.
#[test]
fn every_pass_remark_names_a_source_line() {
    let sb = Sandbox::new();
    let jacobi = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/jacobi.c");
    let jacobi = jacobi.display().to_string();
    let out = sb.ompcc(&[
        "-fopenmp",
        "-O2",
        "-Rpass=.*",
        "-Rpass-missed=.*",
        "-c",
        &jacobi,
    ]);
    ok(&out);
    let err = stderr(&out);
    let remarks: Vec<&str> = err.lines().filter(|l| l.contains("remark:")).collect();
    assert!(remarks.len() > 10, "{err}");
    assert!(
        remarks
            .iter()
            .any(|l| l.contains("promoted") && l.contains("[-Rpass=mem2reg]")),
        "{err}"
    );
    for r in &remarks {
        assert!(r.starts_with(&format!("{jacobi}:")), "{r}");
    }
}

/// Messages that once were vague or wrong: `_Float128` named as itself (it was called
/// 'long double', followed by an internal error), malformed K&R definitions (a
/// parameter declared that the list does not name; well-formed ones compile), valid `static
/// _Thread_local`, UTF-8 identifiers (gcc -E spells them as universal character names).
/// Strided sections in a `map`, which gcc 12 cannot parse either and OpenMP forbids (a map's
/// sections must be contiguous storage): ompcc's located error naming the rule (not gcc's
/// "expected ']'"), with and without `-fsyntax-only`, and no object left behind.
#[test]
fn strided_maps_are_refused_by_name_and_line() {
    let sb = Sandbox::new();
    sb.write(
        "s.c",
        "int main(void) {\n  int a[8] = {0}, n = 4;\n#pragma omp target map(tofrom: a[0:n:2])\n  a[0] = 1;\n  return a[0];\n}\n",
    );
    for extra in ["-c", "-fsyntax-only"] {
        let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", extra, "s.c"]);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(
            err.contains("s.c:3:32: error: strided array section in 'map' clause of '#pragma omp target' is not allowed: a map list item that is an array section must specify contiguous storage (OpenMP map clause restrictions) [E0128]")
                && !err.contains("expected")
                && !err.contains("panicked"),
            "{err}"
        );
    }
    assert!(!sb.join("s.o").exists());
}

/// `-fsyntax-only` checks a unit ompcc rewrites as the host compiler will compile it (the
/// rewritten text): OpenMP 5.x that gcc 12 rejects in the original (a strided `target
/// update`, `omp_all_memory`, `iterator` in a map, `dispatch` with a `construct={dispatch}`
/// variant) passes, and writes nothing; an error the host compiler finds in the user's code
/// is still reported at the user's line.
#[test]
fn syntax_only_checks_the_rewritten_host_text() {
    let sb = Sandbox::new();
    sb.write(
        "ok.c",
        "int fv(int x) { return x + 1; }\n#pragma omp declare variant(fv) match(construct={dispatch})\nint f(int x) { return x; }\nint main(void) {\n  int a[8] = {0}, n = 4, *p[2] = {a, a + 4};\n#pragma omp target enter data map(to: a) map(to: p)\n#pragma omp target update from(a[0:n:2])\n#pragma omp target enter data map(iterator(i = 0:2), to: p[i][0:4])\n#pragma omp task depend(inout: omp_all_memory)\n  a[1] = 2;\n  int r;\n#pragma omp dispatch novariants(n > 9)\n  r = f(a[1]);\n  return r;\n}\n",
    );
    let out = sb.ompcc(&[
        "-fopenmp",
        "-fdiagnostics-color=never",
        "-fsyntax-only",
        "ok.c",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(!sb.join("ok.o").exists() && !sb.join("a.out").exists());
    // a C error the host compiler reports, at the user's line
    sb.write(
        "bad.c",
        "int main(void) {\n  int a[8] = {0};\n#pragma omp target update from(a[0:4:2])\n  return undeclared_name;\n}\n",
    );
    let out = sb.ompcc(&[
        "-fopenmp",
        "-fdiagnostics-color=never",
        "-fsyntax-only",
        "bad.c",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("bad.c:4:") && err.contains("undeclared_name"),
        "{err}"
    );
}

/// A detached task with `depend(inout: omp_all_memory)`: ompcc's host rewrite orders such
/// tasks by running them undeferred, which cannot order a task that completes later, when
/// its event is fulfilled: a located error (E0914), not a silently reordered program.
#[test]
fn detached_all_memory_task_is_refused() {
    let sb = Sandbox::new();
    sb.write(
        "d.c",
        "#include <omp.h>\nint main(void) {\n  int x = 0;\n  omp_event_handle_t ev;\n#pragma omp parallel\n#pragma omp single\n  {\n#pragma omp task detach(ev) depend(inout: omp_all_memory)\n    x = 1;\n    omp_fulfill_event(ev);\n  }\n  return x - 1;\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "d.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("d.c:8:18: error: a task with 'detach' cannot use 'depend(...: omp_all_memory)' with ompcc")
            && err.contains("[E0914]"),
        "{err}"
    );
    assert!(!sb.join("d.o").exists());
}

#[test]
fn precise_messages_for_float128_kr_definitions_and_names() {
    let sb = Sandbox::new();
    sb.write(
        "q.c",
        "_Float128 q = 1;\nint main(void) {\n  int r = 0;\n#pragma omp target map(from: r)\n  r = (int)q;\n  return r;\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "q.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("type '_Float128' is not supported on the device")
            && !err.contains("internal"),
        "{err}"
    );
    sb.write(
        "kr.c",
        "int add(a, b) int a; int c; { return a + b; }\nint main(void) {\n  int r = 0;\n#pragma omp target map(from: r)\n  r = 1;\n  return add(r, 1);\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "kr.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    // the host compiler rejects it too, and its message (which names the parameter) is shown
    assert!(err.contains("no such parameter"), "{err}");
    sb.write(
        "kr_ok.c",
        "int add(a, b) int a; int b; { return a + b; }\nint main(void) {\n  int r = 0;\n#pragma omp target map(from: r)\n  r = 1;\n  return add(r, 1) - 2;\n}\n",
    );
    ok(&sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "kr_ok.c"]));
    // Valid C that ompcc refused: a thread-local with internal linkage, UTF-8 names.
    sb.write(
        "ok.c",
        "#include <stdio.h>\nstatic _Thread_local int calls = 40;\nint main(void) {\n  int \u{e9}t\u{e9} = 2, r = 0;\n#pragma omp target map(from: r)\n  r = \u{e9}t\u{e9};\n  printf(\"%d\\n\", r + calls);\n  return 0;\n}\n",
    );
    ok(&sb.ompcc(&["-fopenmp", "ok.c", "-o", "ok"]));
    let run = std::process::Command::new(sb.join("ok"))
        .env("OMPCC_DEVICE", "emu")
        .output()
        .unwrap();
    ok(&run);
    assert_eq!(stdout(&run), "42\n");
    // A device symbol needs an ASCII name: said so, not an internal error.
    sb.write(
        "g.c",
        "int \u{e9}t\u{e9} = 5;\n#pragma omp declare target(\u{e9}t\u{e9})\nint main(void) {\n  int r = 0;\n#pragma omp target map(from: r)\n  r = \u{e9}t\u{e9};\n  return r;\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "g.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("g.c:1:5: error: object '\u{e9}t\u{e9}' cannot be placed on the device: its name is not ASCII")
            && !err.contains("internal"),
        "{err}"
    );
}

/// `-w` silences ompcc's own warnings as it does cc's (W0912 here), `-Werror` included.
#[test]
fn dash_w_silences_ompcc_warnings() {
    let sb = Sandbox::new();
    sb.write(
        "w.c",
        "#include <stdlib.h>\nint main(void) {\n  int *p = malloc(8);\n  int r = 0;\n#pragma omp target map(from: r)\n  r = p[0];\n  return r;\n}\n",
    );
    let out = sb.ompcc(&["-fopenmp", "-fdiagnostics-color=never", "-c", "w.c"]);
    ok(&out);
    assert!(stderr(&out).contains("[W0912]"), "{}", stderr(&out));
    for args in [&["-w"][..], &["-w", "-Werror"], &["-Werror", "-w"]] {
        let mut a = vec!["-fopenmp", "-c", "w.c"];
        a.extend(args);
        let out = sb.ompcc(&a);
        ok(&out);
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}
