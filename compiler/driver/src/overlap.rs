//! The host compile of an offloaded unit run alongside its device pipeline.
//!
//! The rewritten host text needs the offload plan and the lowered device module (kernel
//! names, parameter sizes, the globals to register), not the PTX. So the frontend writes it
//! with the PTX apart (`ompcc_host::DeviceImage::ptx_apart`: the text declares
//! `__ompcc_ptx` and `__ompcc_ptx_size`) and [`Overlap::start`] starts `cc -S` on it while
//! the device passes, the device library and the PTX writer run in this process. Step 3 then
//! [`HostCompile::finish`]es the unit: waits for cc, appends the PTX as assembly
//! (`ompcc_host::ptx_assembly`, local symbols of the unit) and assembles the whole with
//! `cc -c -x assembler` into the user's object (`-S`: the assembly is the output, a complete
//! unit). gcc makes the same object of `-S` + `-c` on its assembly as of `-c` (its debug
//! info included); the extra process is the second driver start, a few milliseconds.
//!
//! The host compiler's standard error goes to a file and is printed when step 3 reaches the
//! unit, so messages come in the order of the sequential pipeline. A unit whose device
//! pipeline fails, or a command that fails, stops the started compile (SIGTERM, then a
//! wait) when its [`HostCompile`] is dropped.
//!
//! Commands that would not get the same outputs this way take the sequential path (cc
//! compiles the text with the PTX in it once the PTX exists): a host compiler other than
//! gcc, `-save-temps` (cc's own intermediates are kept under names of the output),
//! `-o -`, LTO (the appended assembly would not reach the link-time object), and the
//! options whose auxiliary files gcc names after its output (`-fstack-usage`, `-fdump-*`,
//! coverage and profiles, `-gsplit-dwarf`, ...).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::Instant;

use tempfile::NamedTempFile;

use crate::cli::{Action, Invocation, Kind};
use crate::exec::Runner;
use crate::host::HostCc;
use crate::pipeline::DriverError;
use crate::timing::{self, phase};

/// Options whose effect depends on the name of the host compile's output (or on a single
/// `-c`): commands with one of them are compiled sequentially.
const SEQUENTIAL_OPTIONS: &[&str] = &[
    "-flto",
    "-ffat-lto-objects",
    "-fstack-usage",
    "-fdump-",
    "-fcallgraph-info",
    "--coverage",
    "-fprofile",
    "-ftest-coverage",
    "-fauto-profile",
    "-fbranch-probabilities",
    "-fcompare-debug",
    "-fdiagnostics-format",
    "-gsplit-dwarf",
    "-save-temps",
];

/// A command whose offloaded units may start their host compile early.
pub struct Overlap<'a> {
    inv: &'a Invocation,
    host: &'a HostCc,
    runner: &'a Runner,
    tmp: &'a Path,
}

impl<'a> Overlap<'a> {
    /// `None` when the command's units must be compiled sequentially (see the module doc).
    pub fn for_command(
        inv: &'a Invocation,
        host: &'a HostCc,
        runner: &'a Runner,
        tmp: &'a Path,
    ) -> Option<Overlap<'a>> {
        let compiles = matches!(
            inv.action,
            Action::Compile | Action::Assemble | Action::Link
        );
        let plain_options = inv
            .args
            .iter()
            .filter(|a| matches!(a.kind, Kind::Compile | Kind::Debug))
            .flat_map(|a| &a.words)
            .all(|w| !SEQUENTIAL_OPTIONS.iter().any(|o| w.starts_with(o)));
        let overlaps = compiles
            && plain_options
            && !inv.save_temps
            && !inv.syntax_only
            && !inv.dry_run
            && inv.ours.emit.is_none()
            && !inv.ours.device_only
            && inv.output.as_deref() != Some("-");
        overlaps.then_some(Overlap {
            inv,
            host,
            runner,
            tmp,
        })
    }

    /// Starts `cc -S` on unit `n`'s host text (written with the PTX apart); `None` when it
    /// did not start (the unit is then compiled sequentially, and a host compiler that
    /// cannot be run is reported there).
    pub fn start(&self, n: usize, host_text: &[u8]) -> Option<HostCompile> {
        phase(timing::HOST_COMPILE, || self.try_start(n, host_text))
    }

    fn try_start(&self, n: usize, host_text: &[u8]) -> Option<HostCompile> {
        if !self.host.is_gcc(self.runner).ok()? {
            return None;
        }
        let source = self.tmp.join(format!("{n}.early.i"));
        let assembly = self.tmp.join(format!("{n}.early.s"));
        let stderr = self.tmp.join(format!("{n}.early.err"));
        fs::write(&source, host_text).ok()?;
        let mut args =
            crate::pipeline::host_text_args(self.inv, true, host_text, &source.to_string_lossy());
        args.extend(crate::pipeline::diagnostics_color(self.inv));
        args.extend([
            "-S".to_owned(),
            "-o".to_owned(),
            assembly.display().to_string(),
        ]);
        let file = fs::File::create(&stderr).ok()?;
        let (child, rsp) = self.runner.spawn(&self.host.cmd(args), file).ok()?;
        Some(HostCompile {
            child: Some(child),
            _rsp: rsp,
            assembly,
            stderr,
            started: Instant::now(),
        })
    }
}

/// A host compile started early: `cc -S` of a unit's host text into a temporary assembly.
#[derive(Debug)]
pub struct HostCompile {
    /// `None` once waited for.
    child: Option<Child>,
    /// The response file of a long command line, kept while cc runs.
    _rsp: Option<NamedTempFile>,
    assembly: PathBuf,
    stderr: PathBuf,
    started: Instant,
}

/// An offloaded unit whose host compile started early, and the PTX that completes it.
#[derive(Debug)]
pub struct Early {
    pub compile: HostCompile,
    pub ptx: String,
}

impl Early {
    /// Step 3 for the unit: waits for cc and prints its messages; when it succeeded, appends
    /// the PTX to its assembly and makes `out` of the whole (`-S`: the assembly itself).
    /// The exit status of the first failing host command.
    pub fn finish(
        mut self,
        inv: &Invocation,
        host: &HostCc,
        runner: &Runner,
        out: &str,
        unit: &str,
    ) -> Result<i32, DriverError> {
        let compile = &mut self.compile;
        let Some(mut child) = compile.child.take() else {
            return Ok(1);
        };
        let ahead = compile.started.elapsed();
        let code = phase(timing::HOST_COMPILE, || runner.wait(&mut child))?;
        timing::note(format!(
            "{unit}: `host: compile` started {:.1} ms before ompcc waited for it, alongside \
             the device phases after `host rewrite` (passes, library, PTX); the `host: \
             compile` above is the rest",
            ahead.as_secs_f64() * 1e3
        ));
        if let Ok(messages) = fs::read(&compile.stderr) {
            use std::io::Write as _;
            let _ = std::io::stderr().write_all(&messages);
        }
        if code != 0 {
            return Ok(code);
        }
        let path = &compile.assembly;
        phase("files", || {
            append(path, &ompcc_host::ptx_assembly(&self.ptx))
        })
        .map_err(|e| DriverError::Fatal(format!("cannot write '{}': {e}", path.display())))?;
        if inv.action == Action::Assemble {
            return phase("files", || fs::copy(path, out))
                .map(|_| 0)
                .map_err(|e| DriverError::Fatal(format!("cannot write '{out}': {e}")));
        }
        let mut args: Vec<String> = inv
            .args
            .iter()
            .filter(|a| matches!(a.kind, Kind::Compile | Kind::Debug | Kind::Verbose))
            .flat_map(|a| a.words.iter().cloned())
            .collect();
        args.extend(["-c", "-x", "assembler"].map(str::to_owned));
        args.extend([path.display().to_string(), "-o".to_owned(), out.to_owned()]);
        Ok(phase(timing::HOST_ASSEMBLE, || {
            runner.run(&host.cmd(args))
        })?)
    }
}

fn append(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = fs::OpenOptions::new().append(true).open(path)?;
    file.write_all(text.as_bytes())
}

impl Drop for HostCompile {
    /// A compile nobody waits for any more (its unit or the command failed) is stopped:
    /// SIGTERM lets cc remove its own temporary files.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            if let Ok(pid) = i32::try_from(child.id()) {
                // SAFETY: kill(2) on our own child, which has not been reaped yet (no wait
                // ran), so the pid cannot belong to another process.
                unsafe {
                    libc::kill(pid, libc::SIGTERM);
                }
            }
            let _ = child.wait();
        }
    }
}
