//! The host C compiler: `$OMPCC_HOST_CC` (default `cc`), which may be a command with
//! arguments (`ccache gcc`, `gcc -m64`), split by the same rules as response files.
//!
//! Invariant: `argv` is never empty.

use std::cell::OnceCell;

use crate::ahead::Ahead;
use crate::exec::{Cmd, RunError, Runner};
use crate::libcache::DiskCache;
use crate::response::split_words;

/// The environment variable that names the host compiler.
pub const HOST_CC_VAR: &str = "OMPCC_HOST_CC";

type Probe = Ahead<Result<(i32, Vec<u8>), RunError>>;

/// The cache key of [`HostCc::is_gcc`]'s answer.
const IS_GCC_KEY: &str = "is gcc";

/// The host compiler command.
pub struct HostCc {
    argv: Vec<String>,
    is_gcc: OnceCell<bool>,
    /// `--version`, perhaps started ahead ([`HostCc::probe_ahead`]).
    probe: OnceCell<Probe>,
    cache: OnceCell<Option<DiskCache>>,
}

impl std::fmt::Debug for HostCc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostCc")
            .field("argv", &self.argv)
            .field("is_gcc", &self.is_gcc)
            .finish_non_exhaustive()
    }
}

impl HostCc {
    /// The host compiler named by `value` (the content of `$OMPCC_HOST_CC`, if set).
    pub fn new(value: Option<&str>) -> HostCc {
        let argv = value.map(split_words).unwrap_or_default();
        let argv = if argv.is_empty() {
            vec!["cc".to_owned()]
        } else {
            argv
        };
        HostCc {
            argv,
            is_gcc: OnceCell::new(),
            probe: OnceCell::new(),
            cache: OnceCell::new(),
        }
    }

    /// The host compiler named by the environment.
    pub fn from_env() -> HostCc {
        let value = std::env::var(HOST_CC_VAR).ok();
        HostCc::new(value.as_deref())
    }

    /// The cache for this host compiler, if the environment gives one ([`DiskCache`]).
    pub fn cache(&self) -> Option<&DiskCache> {
        self.cache
            .get_or_init(|| DiskCache::from_env(&self.argv))
            .as_ref()
    }

    /// The command as the user wrote it (for messages).
    pub fn display(&self) -> String {
        self.argv.join(" ")
    }

    /// A host command with `args` after the compiler's own words.
    pub fn cmd<I, S>(&self, args: I) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut argv = self.argv.clone();
        argv.extend(args.into_iter().map(Into::into));
        Cmd {
            argv,
            program_words: self.argv.len(),
        }
    }

    fn probe(&self, runner: &Runner) -> &Probe {
        self.probe.get_or_init(|| {
            let (cmd, runner) = (self.cmd(["--version"]), *runner);
            Ahead::new(move || runner.probe(&cmd))
        })
    }

    /// Starts the `--version` probe of [`HostCc::is_gcc`] on a thread of its own, so that
    /// its answer is there when a later step asks.
    pub fn probe_ahead(&self, runner: &Runner) {
        if self.is_gcc.get().is_none() && self.cached_answer().is_none() {
            self.probe(runner).start();
        }
    }

    /// Whether the host compiler is gcc, as an earlier command found it (then kept in
    /// [`HostCc::is_gcc`]'s cell).
    fn cached_answer(&self) -> Option<bool> {
        let known = match self.cache()?.get(IS_GCC_KEY)?.as_str() {
            "yes" => true,
            "no" => false,
            _ => return None,
        };
        Some(*self.is_gcc.get_or_init(|| known))
    }

    /// Whether the host compiler is gcc (then compiling host code ompcc already offloaded
    /// needs `-foffload=disable`). Decided once from `--version`: gcc's names the Free
    /// Software Foundation, clang's does not, whatever the executable is called. The answer
    /// is kept in the cache, so later commands run no probe.
    pub fn is_gcc(&self, runner: &Runner) -> Result<bool, RunError> {
        if let Some(known) = self.is_gcc.get().copied().or_else(|| self.cached_answer()) {
            return Ok(known);
        }
        let answer = crate::timing::phase(crate::timing::HOST_PROBE, || self.probe(runner).take());
        // (taken only here, once: `None` only if the probe's thread panicked)
        let (status, stdout) = match answer {
            Some(answer) => answer?,
            None => runner.probe(&self.cmd(["--version"]))?,
        };
        let known = String::from_utf8_lossy(&stdout).contains("Free Software Foundation");
        // (a compiler that fails its `--version` is asked again next time)
        if let Some(cache) = self.cache().filter(|_| status == 0) {
            cache.put(IS_GCC_KEY, if known { "yes" } else { "no" });
        }
        Ok(*self.is_gcc.get_or_init(|| known))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_variable_and_defaults_to_cc() {
        assert_eq!(HostCc::new(None).argv, ["cc"]);
        assert_eq!(HostCc::new(Some("  ")).argv, ["cc"]);
        assert_eq!(
            HostCc::new(Some("ccache gcc -m64")).argv,
            ["ccache", "gcc", "-m64"]
        );
        assert_eq!(
            HostCc::new(Some("'/opt/my cc/gcc'")).cmd(["-c"]).argv,
            ["/opt/my cc/gcc", "-c"]
        );
    }

    #[test]
    fn recognises_gcc_by_its_version_text() {
        let runner = Runner::new(false);
        let gcc = HostCc::new(Some("sh -c 'echo \"Free Software Foundation\"' sh"));
        assert!(gcc.is_gcc(&runner).unwrap());
        let other = HostCc::new(Some("sh -c 'echo \"clang version 18\"' sh"));
        assert!(!other.is_gcc(&runner).unwrap());
    }
}
