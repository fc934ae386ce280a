//! Running the tools and programs a benchmark needs: a command to completion with its stdout,
//! or a program under a wall-clock limit with both its streams. Failures come back as one-line
//! messages that name the step and quote the first lines of the program's stderr.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a program printed.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
}

/// Runs a command to completion; its stdout on success, else the first lines of stderr.
pub fn checked(cmd: &mut Command, what: &str) -> Result<String, String> {
    let o = cmd
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", cmd.get_program()))?;
    if o.status.success() {
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    } else {
        Err(format!(
            "{what} failed ({}): {}",
            o.status,
            first_lines(&String::from_utf8_lossy(&o.stderr))
        ))
    }
}

/// Runs a benchmark program with a wall-clock limit (killed past it); both streams on success.
/// The streams go to temporary files, so a chatty program cannot block on a full pipe.
pub fn run_program(cmd: &mut Command, what: &str, limit: Duration) -> Result<Output, String> {
    let out_file = tempfile::tempfile().map_err(|e| format!("{what}: {e}"))?;
    let err_file = tempfile::tempfile().map_err(|e| format!("{what}: {e}"))?;
    let clone = |f: &std::fs::File| f.try_clone().map_err(|e| format!("{what}: {e}"));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(clone(&out_file)?)
        .stderr(clone(&err_file)?)
        .spawn()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", cmd.get_program()))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| format!("{what}: {e}"))? {
            Some(s) => break s,
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{what}: still running after {limit:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let read = |mut f: std::fs::File| -> String {
        use std::io::{Read as _, Seek as _};
        let mut s = String::new();
        let _ = f.rewind().and_then(|_| f.read_to_string(&mut s));
        s
    };
    let (stdout, stderr) = (read(out_file), read(err_file));
    if status.success() {
        Ok(Output { stdout, stderr })
    } else {
        Err(format!(
            "{what} failed ({status}): {}",
            first_lines(&stderr)
        ))
    }
}

/// The first three non-empty lines of `text`, joined with ` / `.
pub fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    if lines.is_empty() {
        "(no message)".into()
    } else {
        lines.join(" / ")
    }
}

/// A command's trimmed stdout, or `?` when it cannot run or fails (for report headers).
pub fn command_text(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}

/// `git describe`-like: the short commit, `+dirty` when the tree has changes.
pub fn git_version(root: &std::path::Path) -> String {
    let root = root.to_string_lossy();
    let commit = command_text("git", &["-C", &root, "rev-parse", "--short", "HEAD"]);
    let status = command_text(
        "git",
        &["-C", &root, "status", "--porcelain", "--untracked-files=no"],
    );
    let dirty = !status.is_empty() && status != "?";
    format!("`{commit}{}`", if dirty { "+dirty" } else { "" })
}
