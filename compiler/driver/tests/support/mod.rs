//! Shared helpers for the driver's integration tests: run `ompcc` and `cc` side by side in
//! fresh directories and compare what they produce.

#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `ompcc` binary under test.
pub const OMPCC: &str = env!("CARGO_BIN_EXE_ompcc");

/// A fresh directory with some files in it, and an empty device-library cache of its own
/// (outside it), so that every test sees a first compile.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
    pub cache: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
            cache: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes `text` to `rel`, creating directories.
    pub fn write(&self, rel: &str, text: &str) -> &Self {
        let path = self.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.join(rel).exists()
    }

    /// `ompcc ARGS` in this directory, with the host compiler unset (so `cc`).
    pub fn ompcc(&self, args: &[&str]) -> Output {
        self.ompcc_cmd(args).output().expect("running ompcc")
    }

    /// The stderr (remarks) of a successful `ompcc -fopenmp -c FILE -o t.o EXTRA`.
    #[allow(dead_code)] // not every test file asks for remarks
    pub fn remarks(&self, file: &str, extra: &[&str]) -> String {
        let mut args = vec!["-fopenmp", "-c", file, "-o", "t.o"];
        args.extend(extra);
        let out = self.ompcc(&args);
        ok(&out);
        stderr(&out)
    }

    pub fn ompcc_cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(OMPCC);
        cmd.args(args)
            .current_dir(self.path())
            .env_remove("OMPCC_HOST_CC")
            .env("OMPCC_RUNTIME_LIB", runtime_lib())
            .env("OMPCC_CACHE_DIR", self.cache.path())
            .env("LC_ALL", "C");
        cmd
    }

    /// `cc ARGS` in this directory: the reference build. With `-fopenmp` it gets
    /// `-foffload=disable` too (unless ARGS pick an `-foffload=`), so that a gcc with its own
    /// offload compilers installed (Debian's gcc-12-offload-nvptx) builds the host fallback
    /// as everywhere else instead of trying, and failing, to build nvptx code.
    pub fn cc(&self, args: &[&str]) -> Output {
        let openmp =
            args.contains(&"-fopenmp") && !args.iter().any(|a| a.starts_with("-foffload="));
        Command::new("cc")
            .args(args)
            .args(openmp.then_some("-foffload=disable"))
            .current_dir(self.path())
            .env("LC_ALL", "C")
            .output()
            .expect("running cc")
    }

    /// Runs a program built in this directory.
    pub fn run(&self, rel: &str) -> Output {
        Command::new(self.join(rel))
            .current_dir(self.path())
            .output()
            .expect("running the built program")
    }

    /// Every file under the directory (relative paths, sorted).
    pub fn files(&self) -> Vec<String> {
        let mut out = Vec::new();
        list(self.path(), self.path(), &mut out);
        out.sort();
        out
    }
}

/// The runtime library of this build (`libompcc_rt.a` next to the `ompcc` binary), built
/// with cargo first when a test run did not build it (`cargo test -p ompcc-driver` alone).
pub fn runtime_lib() -> PathBuf {
    static LIB: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    LIB.get_or_init(|| {
        let bin_dir = Path::new(OMPCC).parent().expect("ompcc has a directory");
        let lib = bin_dir.join("libompcc_rt.a");
        if !lib.exists() {
            let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml");
            let mut cargo = Command::new(env!("CARGO"));
            cargo
                .args(["build", "-p", "ompcc-rt", "--manifest-path"])
                .arg(manifest);
            if bin_dir.ends_with("release") {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("running cargo to build the runtime");
            assert!(
                status.success() && lib.exists(),
                "cannot build {}",
                lib.display()
            );
        }
        lib
    })
    .clone()
}

fn list(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            list(root, &path, out);
        } else {
            out.push(path.strip_prefix(root).unwrap().display().to_string());
        }
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that a command succeeded, showing its output otherwise.
#[track_caller]
pub fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

/// A program with a device construct (a target region), printing 4950.
pub const TARGET_PROGRAM: &str = "\
#include <stdio.h>
#include \"inc/n.h\"
int main(void) {
    int a[N], s = 0;
#pragma omp target teams distribute parallel for map(from : a)
    for (int i = 0; i < N; i++)
        a[i] = i;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf(\"%d\\n\", s);
    return 0;
}
";

/// A header for [`TARGET_PROGRAM`].
pub const TARGET_HEADER: &str = "#define N 100\n";

/// A program with host-only OpenMP.
pub const HOST_PROGRAM: &str = "\
#include <stdio.h>
int main(void) {
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 100; i++)
        s += i;
    printf(\"%ld\\n\", s);
    return 0;
}
";

/// The macro options ompcc adds after `-fopenmp` by default, as `-v` shows them.
pub fn openmp_macros() -> String {
    openmp_macro_words().join(" ")
}

/// The same, as `-###` quotes them.
pub fn openmp_macros_quoted() -> String {
    let quoted: Vec<String> = openmp_macro_words()
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect();
    quoted.join(" ")
}

fn openmp_macro_words() -> Vec<String> {
    let n = |s: &str| s.parse::<u32>().unwrap();
    let version = n(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + n(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + n(env!("CARGO_PKG_VERSION_PATCH"));
    vec![
        "-U_OPENMP".to_owned(),
        "-D_OPENMP=201811".to_owned(),
        "-D__OMPCC__=1".to_owned(),
        format!("-D__OMPCC_VERSION__={version}"),
    ]
}
