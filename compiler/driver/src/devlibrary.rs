//! The device C library (`ompcc_stdlib`) as one translation unit preprocessed by the host
//! compiler, for the device stages of the units whose device code calls it: prepared once
//! per command (every unit that needs it shares the text), and started ahead, while the
//! unit's passes run, as soon as its lowered device code is seen to call the library.
//!
//! Under `-v` it is never started ahead, so the `cc -E` line is echoed where it always was.
//!
//! Both the preprocessed text and the libraries compiled from it are kept in the cache
//! ([`crate::libcache`]): a command whose unit calls functions some earlier command compiled
//! at its -O level runs neither `cc -E` nor ompcc's stages on the library.

use std::cell::OnceCell;
use std::fs;
use std::path::{Path, PathBuf};

use crate::ahead::Ahead;
use crate::exec::{Cmd, Runner};
use crate::host::HostCc;
use crate::libcache::DiskCache;
use crate::timing;

/// What a unit's frontend asks of the host compiler beyond its own preprocessed text.
pub trait HostServices {
    /// The device library, preprocessed (asked for only when device code calls it).
    fn library_text(&self) -> Result<String, String>;
    /// Device code calls the library: start preparing it.
    fn library_ahead(&self) {}
    /// The unit has device constructs: start what their host compile will ask
    /// (`cc --version`).
    fn probe_ahead(&self) {}
    /// Whether compiled libraries are kept ([`HostServices::keep_compiled_library`]).
    fn keeps_compiled_libraries(&self) -> bool {
        false
    }
    /// The library compiled for `key` ([`ompcc_devlib::LibrarySource::kept`]), if kept.
    fn compiled_library(&self, _key: &str) -> Option<String> {
        None
    }
    /// Keeps the library compiled for `key`.
    fn keep_compiled_library(&self, _key: &str, _ir: &str) {}
}

/// The services as the device library linker sees them.
pub struct LibraryFrom<'a>(pub &'a dyn HostServices);

impl ompcc_devlib::LibrarySource for LibraryFrom<'_> {
    fn text(&self) -> Result<String, String> {
        self.0.library_text()
    }

    fn keeps(&self) -> bool {
        self.0.keeps_compiled_libraries()
    }

    fn kept(&self, key: &str) -> Option<String> {
        self.0.compiled_library(key)
    }

    fn keep(&self, key: &str, ir: &str) {
        self.0.keep_compiled_library(key, ir)
    }
}

/// A plain function giving the text (tests, `--emit` stages) starts nothing ahead.
impl<F: Fn() -> Result<String, String>> HostServices for F {
    fn library_text(&self) -> Result<String, String> {
        self()
    }
}

/// The host compiler's services for one command.
pub struct Services<'a> {
    host: &'a HostCc,
    runner: &'a Runner,
    library: Ahead<Result<String, String>>,
    text: OnceCell<Result<String, String>>,
    cache: Option<DiskCache>,
}

impl<'a> Services<'a> {
    /// Services writing their files under `tmp`.
    pub fn new(host: &'a HostCc, runner: &'a Runner, tmp: &Path) -> Services<'a> {
        let cache = host.cache().cloned();
        let job = preprocess_job(host, *runner, tmp.join("math"), cache.clone());
        Services {
            host,
            runner,
            library: Ahead::new(job),
            text: OnceCell::new(),
            cache,
        }
    }
}

/// A preprocessing started ahead but never asked for still writes under the temporary
/// directory: it ends before the directory is removed.
impl Drop for Services<'_> {
    fn drop(&mut self) {
        self.library.settle();
    }
}

impl HostServices for Services<'_> {
    fn library_text(&self) -> Result<String, String> {
        self.text
            .get_or_init(|| {
                timing::phase(timing::HOST_LIBRARY_PREPROCESS, || self.library.take())
                    .unwrap_or_else(|| Err("preprocessing the device math library failed".into()))
            })
            .clone()
    }

    fn library_ahead(&self) {
        if !self.runner.verbose() {
            self.library.start();
        }
    }

    fn probe_ahead(&self) {
        self.host.probe_ahead(self.runner);
    }

    fn keeps_compiled_libraries(&self) -> bool {
        self.cache.is_some()
    }

    fn compiled_library(&self, key: &str) -> Option<String> {
        self.cache.as_ref()?.get(&compiled_key(key))
    }

    fn keep_compiled_library(&self, key: &str, ir: &str) {
        if let Some(cache) = &self.cache {
            cache.put(&compiled_key(key), ir);
        }
    }
}

/// The cache key of the library compiled for the linker's `key`.
fn compiled_key(key: &str) -> String {
    format!("compiled {key}")
}

/// The cache key of the preprocessed library.
const PREPROCESSED_KEY: &str = "preprocessed";

/// The preprocessed library: the cache's, else the library's sources written under `dir` and
/// run through `host -E` (and kept).
fn preprocess_job(
    host: &HostCc,
    runner: Runner,
    dir: PathBuf,
    cache: Option<DiskCache>,
) -> impl FnOnce() -> Result<String, String> + Send + 'static {
    let preprocess = run_preprocessor(host, runner, dir);
    move || {
        if let Some(text) = cache.as_ref().and_then(|c| c.get(PREPROCESSED_KEY)) {
            return Ok(text);
        }
        let text = preprocess()?;
        if let Some(cache) = &cache {
            cache.put(PREPROCESSED_KEY, &text);
        }
        Ok(text)
    }
}

/// Writes the library's sources under `dir` and runs them through `host -E`.
fn run_preprocessor(
    host: &HostCc,
    runner: Runner,
    dir: PathBuf,
) -> impl FnOnce() -> Result<String, String> + Send + 'static {
    let all = dir.join("ompcc_math_all.c");
    let out = dir.join("ompcc_math_all.i");
    let cmd: Cmd = host.cmd(vec![
        "-E".to_owned(),
        "-I".to_owned(),
        dir.display().to_string(),
        all.display().to_string(),
        "-o".to_owned(),
        out.display().to_string(),
    ]);
    move || {
        ompcc_stdlib::write_math_tree(&dir)
            .map_err(|e| format!("cannot write the device math library: {e}"))?;
        fs::write(&all, ompcc_stdlib::amalgamation())
            .map_err(|e| format!("cannot write '{}': {e}", all.display()))?;
        match runner.run_captured(&cmd) {
            Ok((0, _)) => fs::read_to_string(&out)
                .map_err(|e| format!("cannot read '{}': {e}", out.display())),
            Ok((code, stderr)) => Err(format!(
                "preprocessing the device math library failed (status {code}): {}",
                String::from_utf8_lossy(&stderr)
            )),
            Err(e) => Err(format!("cannot preprocess the device math library: {e:?}")),
        }
    }
}
