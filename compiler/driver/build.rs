//! Build script: the commit ompcc is built from, for `ompcc --version` (`OMPCC_COMMIT`).
//!
//! The commit comes from `$OMPCC_BUILD_COMMIT` when set (a build from a source archive can
//! name it), else from `git` in the source tree; without either (no `.git`, no `git`) it is
//! `unknown`, and the build goes on. Cargo reruns the script when `HEAD` or the branch it
//! points to moves (or, when git could not be asked, when `.git` changes or appears, or `PATH` does), so the
//! name never goes stale.

use std::process::Command;

/// The package's directory as cargo gives it to this run (not `env!`, which would fix the
/// directory the script was compiled in: a target directory copied to another checkout
/// reuses the compiled script).
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(Into::into)
        .unwrap_or_default()
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(manifest_dir())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-env-changed=OMPCC_BUILD_COMMIT");
    let from_env = std::env::var("OMPCC_BUILD_COMMIT")
        .ok()
        .filter(|c| !c.is_empty());
    let commit = from_env.or_else(|| {
        // Watch what moves when a commit is made or checked out: HEAD, the branch file and
        // packed-refs (paths from git itself, so worktrees work too). When git cannot say
        // (not installed, not a repository yet), watch the source tree's `.git` instead, so
        // that `unknown` does not outlive the reason for it.
        let mut watched = false;
        for path in ["HEAD", "packed-refs"] {
            if let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", path]) {
                println!("cargo:rerun-if-changed={p}");
                watched = true;
            }
        }
        if !watched {
            let root = manifest_dir().join("../../.git");
            println!("cargo:rerun-if-changed={}", root.display());
            println!("cargo:rerun-if-env-changed=PATH");
        }
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
            && let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", &branch])
        {
            println!("cargo:rerun-if-changed={p}");
        }
        let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
        let date = git(&["log", "-1", "--format=%cs", "HEAD"]);
        Some(match date {
            Some(date) => format!("{hash} {date}"),
            None => hash,
        })
    });
    let commit = commit.unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=OMPCC_COMMIT={commit}");
}
