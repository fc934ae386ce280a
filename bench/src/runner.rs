//! What the runner binaries do the same way: reading option values, the exit status from a
//! run's result, where the checkout is, and the work folder (`--keep DIR`, else a temporary
//! one removed at the end).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The value of the current option, as UTF-8 text.
pub fn text(p: &mut lexopt::Parser) -> Result<String, String> {
    p.value()
        .map_err(|e| e.to_string())?
        .into_string()
        .map_err(|_| "arguments must be UTF-8".to_string())
}

/// `a, b,,c` as `[a, b, c]`.
pub fn list(s: String) -> Vec<String> {
    s.split(',')
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The exit status of a runner: success only for `Ok(true)`; an error is printed first.
pub fn exit_code(runner: &str, result: Result<bool, String>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{runner}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command that reruns runner `bin` with `args`, as a table's header cites it: with
/// `--release` only when this runner was built that way, so the line says how it was made.
pub fn cargo_run_line(bin: &str, args: &str) -> String {
    let release = if cfg!(debug_assertions) {
        ""
    } else {
        "--release "
    };
    let sep = if args.is_empty() { "" } else { " -- " };
    format!("cargo run {release}-p ompcc-bench --bin {bin}{sep}{args}")
}

/// The checkout this bench crate belongs to.
pub fn repo_root() -> Result<PathBuf, String> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| "the bench crate has no parent folder".to_string())
}

/// The folder a runner writes its builds and profiles to: `keep` (created, and left there),
/// else a temporary folder that goes away with this value.
pub struct WorkDir {
    path: PathBuf,
    _temp: Option<tempfile::TempDir>,
}

impl WorkDir {
    pub fn new(keep: Option<&Path>) -> Result<WorkDir, String> {
        match keep {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                Ok(WorkDir {
                    path: dir.to_path_buf(),
                    _temp: None,
                })
            }
            None => {
                let temp = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
                Ok(WorkDir {
                    path: temp.path().to_path_buf(),
                    _temp: Some(temp),
                })
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_drop_empty_words() {
        assert_eq!(list(" a, b,,c ".into()), ["a", "b", "c"]);
        assert!(list(String::new()).is_empty());
    }

    #[test]
    fn a_temporary_work_folder_goes_away() {
        let work = WorkDir::new(None).unwrap();
        let path = work.path().to_path_buf();
        assert!(path.is_dir());
        drop(work);
        assert!(!path.exists());
    }
}
