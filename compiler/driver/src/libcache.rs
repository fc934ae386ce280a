//! The cache of work that is the same for many commands: the device library preprocessed by
//! the host compiler and compiled by ompcc's stages (the same for every unit that calls the
//! same functions at the same -O level), and whether the host compiler is gcc (its
//! `--version` probe), kept on disk between commands.
//!
//! Where: `$OMPCC_CACHE_DIR` (empty: no cache), else `$XDG_CACHE_HOME/ompcc`, else
//! `$HOME/.cache/ompcc`. Each entry is a file named by the FNV-1a hash of its full key, whose
//! first line is the key itself (a hash collision reads as a miss). The key names this ompcc
//! executable (path, size, modification time: a rebuilt compiler never reads an older one's
//! entries) and the host compiler command with its executable, whose preprocessing the entries
//! hold. Entries are written to a unique temporary name and renamed into place, so concurrent
//! commands (`make -j`) read whole entries or none; any failure only means no cache.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// The environment variable naming the cache directory (empty: no cache).
pub const CACHE_DIR_VAR: &str = "OMPCC_CACHE_DIR";

/// A cache directory and the part of every key that names this compiler and the host one.
#[derive(Debug, Clone)]
pub struct DiskCache {
    dir: PathBuf,
    identity: String,
}

impl DiskCache {
    /// The cache the environment names for `host_argv`, if there is one.
    pub fn from_env(host_argv: &[String]) -> Option<DiskCache> {
        let dir = cache_dir()?;
        let identity = format!(
            "{}\n{}",
            file_identity(&std::env::current_exe().ok()?)?,
            host_identity(host_argv)
        );
        Some(DiskCache { dir, identity })
    }

    /// The entry kept under `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        let text = fs::read_to_string(self.path(key)).ok()?;
        let (head, body) = text.split_once("\n\n")?;
        (head == self.full_key(key)).then(|| body.to_owned())
    }

    /// Keeps `value` under `key`; a failure is silent (the next command computes it again).
    pub fn put(&self, key: &str, value: &str) {
        let _ = self.try_put(key, value);
    }

    fn try_put(&self, key: &str, value: &str) -> std::io::Result<()> {
        static SERIAL: AtomicU32 = AtomicU32::new(0);
        fs::create_dir_all(&self.dir)?;
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let tmp = self
            .dir
            .join(format!(".tmp-{}-{serial}", std::process::id()));
        let entry = format!("{}\n\n{value}", self.full_key(key));
        let written = fs::write(&tmp, entry).and_then(|()| fs::rename(&tmp, self.path(key)));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written
    }

    /// The key with this compiler's and the host compiler's identity, one line (a key's
    /// own newlines become spaces, so the blank line always ends the head).
    fn full_key(&self, key: &str) -> String {
        format!("{}\n{key}", self.identity).replace('\n', " ")
    }

    fn path(&self, key: &str) -> PathBuf {
        let hash = ompcc_omp::fnv1a(&[self.full_key(key).as_bytes()]);
        self.dir.join(format!("{hash:016x}.kept"))
    }
}

/// The directory the environment names.
fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CACHE_DIR_VAR) {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|d| !d.is_empty())
                .map(|h| Path::new(&h).join(".cache"))
        })?;
    Some(base.join("ompcc"))
}

/// A file as its canonical path, size and modification time.
fn file_identity(path: &Path) -> Option<String> {
    let path = fs::canonicalize(path).ok()?;
    let meta = fs::metadata(&path).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{} {} {}.{:09}",
        path.display(),
        meta.len(),
        modified.as_secs(),
        modified.subsec_nanos()
    ))
}

/// The host compiler's words, and the identity of each word that `PATH` finds as a program
/// (`ccache gcc`: both; an upgraded or another compiler gets entries of its own).
fn host_identity(argv: &[String]) -> String {
    let programs: Vec<String> = argv
        .iter()
        .filter(|w| !w.starts_with('-'))
        .filter_map(|w| find_program(w))
        .filter_map(|p| file_identity(&p))
        .collect();
    format!("{} [{}]", argv.join(" "), programs.join("; "))
}

/// `program` as `execvp` finds it.
fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|p| p.is_file());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(dir: &Path) -> DiskCache {
        DiskCache {
            dir: dir.to_path_buf(),
            identity: "ompcc 1\ncc [x]".into(),
        }
    }

    #[test]
    fn keeps_and_returns_entries_by_key() {
        let dir = std::env::temp_dir().join(format!("ompcc-libcache-{}", std::process::id()));
        let c = cache(&dir);
        assert_eq!(c.get("O2 sin"), None);
        c.put("O2 sin", "module text\n\nwith a blank line");
        assert_eq!(
            c.get("O2 sin").as_deref(),
            Some("module text\n\nwith a blank line")
        );
        assert_eq!(c.get("O3 sin"), None);
        // another compiler's entry under the same name reads as a miss
        let other = DiskCache {
            identity: "ompcc 2\ncc [x]".into(),
            ..c.clone()
        };
        fs::copy(c.path("O2 sin"), other.path("O2 sin")).unwrap();
        assert_eq!(other.get("O2 sin"), None);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_that_cannot_be_made_is_no_cache() {
        let c = cache(Path::new("/dev/null/ompcc"));
        c.put("k", "v");
        assert_eq!(c.get("k"), None);
    }
}
