//! Build systems drive ompcc as their C compiler: `make CC=ompcc` and
//! `cmake -DCMAKE_C_COMPILER=ompcc` on the example projects in `tests/projects/`.

mod support;

use std::path::Path;
use std::process::Command;

use support::*;

const PROJECTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/projects");

/// Copies a project into a fresh sandbox.
fn project(name: &str) -> Sandbox {
    let sb = Sandbox::new();
    let src = Path::new(PROJECTS).join(name);
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let rel = path.file_name().unwrap().to_str().unwrap().to_owned();
        sb.write(&rel, &std::fs::read_to_string(&path).unwrap());
    }
    sb
}

/// Runs a build tool in the sandbox; the ompcc it starts links this build's runtime (a clean
/// `cargo test` leaves no `libompcc_rt.a` next to the binary).
fn in_dir(sb: &Sandbox, program: &str, args: &[&str]) -> std::process::Output {
    Command::new(program)
        .args(args)
        .current_dir(sb.path())
        .env_remove("OMPCC_HOST_CC")
        .env("OMPCC_RUNTIME_LIB", runtime_lib())
        .env_remove("MAKEFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("running {program}: {e}"))
}

#[test]
fn make_project_builds_with_ompcc_as_cc() {
    let sb = project("make");
    let cc = format!("CC={OMPCC}");
    let out = in_dir(&sb, "make", &[&cc]);
    ok(&out);
    // Every compile and the link went through ompcc.
    let log = stdout(&out);
    assert_eq!(log.matches(OMPCC).count(), 4, "{log}");
    let run = sb.run("app");
    ok(&run);
    assert_eq!(stdout(&run), "dot = 14.0, norm^2 = 14.0\n");
    // The -MMD files are cc's and drive rebuilds: touching the header makes the project stale.
    assert_eq!(
        String::from_utf8(sb.read("vec.d")).unwrap(),
        "vec.o: vec.c vec.h\nvec.h:\n"
    );
    ok(&in_dir(&sb, "make", &["-q", &cc]));
    let future = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(sb.join("vec.h"))
        .unwrap()
        .set_modified(future)
        .unwrap();
    assert_eq!(in_dir(&sb, "make", &["-q", &cc]).status.code(), Some(1));
}

/// `cmake` on PATH, else the one inside the `cmake` Python package.
fn find_cmake() -> Option<String> {
    // A pyenv shim without the package behind it runs but fails: that is missing too.
    let works = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if works("cmake") {
        return Some("cmake".to_owned());
    }
    let out = Command::new("python3")
        .args([
            "-c",
            "import cmake, os; print(os.path.join(cmake.CMAKE_BIN_DIR, 'cmake'))",
        ])
        .output()
        .ok()?;
    let path = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    works(&path).then_some(path)
}

#[test]
fn cmake_project_configures_and_builds_with_ompcc() {
    // A missing cmake fails the test (.ci/run installs it), never skips it silently.
    let cmake = find_cmake()
        .expect("cmake is required for this test: python3 -m pip install cmake (see .ci/run)");
    let sb = project("cmake");
    let configure = in_dir(
        &sb,
        &cmake,
        &[
            "-S",
            ".",
            "-B",
            "build",
            &format!("-DCMAKE_C_COMPILER={OMPCC}"),
            "-DCMAKE_BUILD_TYPE=Release",
        ],
    );
    ok(&configure);
    let log = stdout(&configure);
    assert!(
        log.contains("The C compiler identification is GNU"),
        "{log}"
    );
    // FindOpenMP reads _OPENMP from a test program: ompcc's 201811 is OpenMP 5.0.
    assert!(
        log.contains("Found OpenMP_C: -fopenmp (found version \"5.0\")"),
        "{log}"
    );
    ok(&in_dir(&sb, &cmake, &["--build", "build", "--verbose"]));
    let run = sb.run("build/saxpy");
    ok(&run);
    assert_eq!(stdout(&run), "saxpy sum = 1000000.0\n");
}
