//! Running host commands: `-v`/`-###` echo, exit statuses, interruption.
//!
//! Invariants: every command ompcc runs goes through [`Runner`], so `-v` shows exactly what
//! runs and `-###` runs nothing. A child killed by signal N reads as exit status 128+N (the
//! shell's convention). A SIGINT/SIGTERM/SIGHUP sent to ompcc is taken by a thread of its
//! own, whatever the main thread is doing (a child running, a long pass): it removes the
//! temporary paths registered with [`remove_on_signal`] and exits with 128+N at once. Every
//! child is started with the parent-death signal SIGTERM (`PR_SET_PDEATHSIG`), so it ends
//! with ompcc however ompcc ends, SIGKILL included, and still removes its own temporary
//! files (gcc does on SIGTERM). The handlers are reset by exec, so children keep the
//! default dispositions.

use std::io::Write as _;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use tempfile::NamedTempFile;

/// The signal ompcc received (0: none).
static INTERRUPTED: AtomicUsize = AtomicUsize::new(0);

/// Temporary files and directories to remove when a signal stops ompcc.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

static HANDLER: Once = Once::new();

/// Registers `path` (a file or a directory) for removal if a signal stops ompcc.
pub fn remove_on_signal(path: &Path) {
    let mut t = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
    t.push(path.to_owned());
}

/// Starts the thread that stops ompcc on SIGINT, SIGTERM and SIGHUP (once per process).
fn install_handler() {
    HANDLER.call_once(|| {
        // Failing to register only means a signal kills ompcc the default way, leaving its
        // temporary directory behind.
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("ompcc-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    INTERRUPTED.store(sig as usize, Ordering::SeqCst);
                    let paths = {
                        let t = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
                        t.clone()
                    };
                    for p in paths {
                        let _ = std::fs::remove_dir_all(&p).or_else(|_| std::fs::remove_file(&p));
                    }
                    // Children get SIGTERM as ompcc ends (their parent-death signal).
                    std::process::exit(128 + sig);
                }
            });
    });
}

/// A host command: program and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cmd {
    pub argv: Vec<String>,
    /// How many leading words name the program (`ccache gcc` is two); the rest may go
    /// into a response file.
    pub program_words: usize,
}

#[cfg(test)]
impl Cmd {
    /// A command whose program is the first word.
    pub fn new(argv: Vec<String>) -> Cmd {
        Cmd {
            argv,
            program_words: 1,
        }
    }
}

/// Set in the environment of every command ompcc starts. An ompcc that finds it set was
/// started by the host compiler ompcc ran, i.e. ompcc is its own host compiler (`cc` linked
/// to ompcc, `OMPCC_HOST_CC=ompcc`): it stops instead of starting itself forever.
pub const NESTED_VAR: &str = "OMPCC_HOST_CC_RUNNING";

/// Arguments longer than this (in bytes, all together) go to the host compiler in a
/// response file: expanding the user's `@file` could otherwise pass the kernel's limit.
const RESPONSE_FILE_THRESHOLD: usize = 100_000;

/// Why a command could not produce an exit status.
#[derive(Debug)]
pub enum RunError {
    /// The program could not be started.
    Spawn {
        program: String,
        error: std::io::Error,
    },
    /// ompcc received signal N (exit with 128+N after cleanup).
    Interrupted(i32),
}

/// Runs commands, echoing them for `-v`.
#[derive(Clone, Copy, Debug)]
pub struct Runner {
    verbose: bool,
}

impl Runner {
    /// A runner; installs the interruption handler.
    pub fn new(verbose: bool) -> Runner {
        install_handler();
        Runner { verbose }
    }

    /// `-v`: commands are echoed as they start.
    pub fn verbose(&self) -> bool {
        self.verbose
    }

    /// The signal ompcc received, if any.
    pub fn interruption(&self) -> Option<i32> {
        match INTERRUPTED.load(Ordering::SeqCst) {
            0 => None,
            sig => i32::try_from(sig).ok(),
        }
    }

    /// Runs `cmd` with inherited standard streams; returns its exit status.
    pub fn run(&self, cmd: &Cmd) -> Result<i32, RunError> {
        let (mut command, _rsp) = self.command(cmd)?;
        self.echo(&command);
        let status = command.status().map_err(|error| spawn_error(cmd, error))?;
        self.check_interrupt()?;
        Ok(exit_code(status))
    }

    /// Runs `cmd` with its standard error captured; returns the status and what it wrote.
    pub fn run_captured(&self, cmd: &Cmd) -> Result<(i32, Vec<u8>), RunError> {
        let (mut command, _rsp) = self.command(cmd)?;
        self.echo(&command);
        let out = command
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped())
            .output()
            .map_err(|error| spawn_error(cmd, error))?;
        self.check_interrupt()?;
        Ok((exit_code(out.status), out.stderr))
    }

    /// Starts `cmd` with its standard error going to `stderr` (read when it has ended, so a
    /// chatty command never waits for ompcc) and returns without waiting; the response file,
    /// if any, must outlive the process.
    pub fn spawn(
        &self,
        cmd: &Cmd,
        stderr: std::fs::File,
    ) -> Result<(std::process::Child, Option<NamedTempFile>), RunError> {
        let (mut command, rsp) = self.command(cmd)?;
        self.echo(&command);
        let child = command
            .stderr(stderr)
            .spawn()
            .map_err(|error| spawn_error(cmd, error))?;
        Ok((child, rsp))
    }

    /// Waits for a child [`Runner::spawn`] started; its exit status.
    pub fn wait(&self, child: &mut std::process::Child) -> Result<i32, RunError> {
        let status = child.wait().map_err(|error| RunError::Spawn {
            program: format!("(waiting for process {})", child.id()),
            error,
        })?;
        self.check_interrupt()?;
        Ok(exit_code(status))
    }

    /// Runs `cmd` with standard output captured and standard error discarded (for probes).
    pub fn probe(&self, cmd: &Cmd) -> Result<(i32, Vec<u8>), RunError> {
        let (mut command, _rsp) = self.command(cmd)?;
        let out = command
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .map_err(|error| spawn_error(cmd, error))?;
        self.check_interrupt()?;
        Ok((exit_code(out.status), out.stdout))
    }

    /// The process to start, and the response file it reads (removed when dropped, so it
    /// must outlive the process).
    fn command(&self, cmd: &Cmd) -> Result<(Command, Option<NamedTempFile>), RunError> {
        // Interrupted before the start: the new process would not get the user's Ctrl-C.
        self.check_interrupt()?;
        let split = cmd.program_words.clamp(1, cmd.argv.len());
        let (program, args) = cmd.argv.split_at(split);
        let mut c = Command::new(&program[0]);
        c.args(&program[1..]).env(NESTED_VAR, "1");
        end_with_parent(&mut c);
        let length: usize = args.iter().map(|a| a.len() + 1).sum();
        if length <= RESPONSE_FILE_THRESHOLD {
            c.args(args);
            return Ok((c, None));
        }
        let rsp = write_response_file(args).map_err(|error| RunError::Spawn {
            program: format!("{} (writing a response file)", program[0]),
            error,
        })?;
        c.arg(format!("@{}", rsp.path().display()));
        Ok((c, Some(rsp)))
    }

    /// `-v`: the command exactly as started (with its response file, if it got one).
    fn echo(&self, command: &Command) {
        if self.verbose {
            let words: Vec<String> = std::iter::once(command.get_program())
                .chain(command.get_args())
                .map(|w| w.to_string_lossy().into_owned())
                .collect();
            eprintln!(" {}", shell_line(&words));
        }
    }

    fn check_interrupt(&self) -> Result<(), RunError> {
        match self.interruption() {
            Some(sig) => Err(RunError::Interrupted(sig)),
            None => Ok(()),
        }
    }
}

/// Makes the child get SIGTERM when the thread that starts it (ompcc's main thread, which
/// waits for it) ends, so no child outlives ompcc.
fn end_with_parent(c: &mut Command) {
    // SAFETY: getpid before the fork; prctl, getppid and _exit are async-signal-safe and
    // touch no memory of the parent.
    let parent = unsafe { libc::getpid() };
    unsafe {
        c.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // ompcc ended between the fork and the prctl: end as it would have made us.
            if libc::getppid() != parent {
                libc::_exit(128 + libc::SIGTERM);
            }
            Ok(())
        });
    }
}

fn write_response_file(args: &[String]) -> std::io::Result<NamedTempFile> {
    let mut file = in_temp_dir(|dir| {
        tempfile::Builder::new()
            .prefix("ompcc-args-")
            .suffix(".rsp")
            .tempfile_in(dir)
    })?;
    remove_on_signal(file.path());
    let text: Vec<String> = args.iter().map(|a| response_quote(a)).collect();
    file.write_all(text.join("\n").as_bytes())?;
    file.flush()?;
    Ok(file)
}

/// Creates a temporary file or directory with `make` in the first usable temporary
/// directory: `$TMPDIR`, then `/tmp`, `/var/tmp` and `.`, as gcc does (an unusable `$TMPDIR`
/// does not stop it).
pub fn in_temp_dir<T>(make: impl Fn(&Path) -> std::io::Result<T>) -> std::io::Result<T> {
    let mut first_error = None;
    for dir in [
        std::env::temp_dir(),
        "/tmp".into(),
        "/var/tmp".into(),
        ".".into(),
    ] {
        match make(&dir) {
            Ok(made) => return Ok(made),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| std::io::Error::other("no temporary directory")))
}

/// One word for a gcc response file: whitespace, quotes and backslashes escaped.
fn response_quote(word: &str) -> String {
    if word.is_empty() {
        return "\"\"".to_owned();
    }
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if c.is_whitespace() || matches!(c, '\\' | '\'' | '"') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn spawn_error(cmd: &Cmd, error: std::io::Error) -> RunError {
    RunError::Spawn {
        program: cmd.argv[0].clone(),
        error,
    }
}

/// The exit status a shell would report.
fn exit_code(status: std::process::ExitStatus) -> i32 {
    match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(sig)) => 128 + sig,
        (None, None) => 1,
    }
}

/// Prints commands the way gcc's `-###` does: every word double-quoted, one command a line.
pub fn print_dry_run(cmds: &[Cmd]) {
    let mut err = std::io::stderr().lock();
    for cmd in cmds {
        let line: Vec<String> = cmd
            .argv
            .iter()
            .map(|w| {
                let escaped = w.replace('\\', "\\\\").replace('"', "\\\"");
                format!("\"{escaped}\"")
            })
            .collect();
        let _ = writeln!(err, " {}", line.join(" "));
    }
}

/// A command as a line a POSIX shell would read back to the same words.
pub fn shell_line(argv: &[String]) -> String {
    argv.iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=+/.,:@%^".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting_round_trips_through_sh() {
        let words: Vec<String> = ["-DX=\"a b\"", "it's", "", "plain-1.c", "$HOME"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let line = shell_line(&words);
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' {line}"))
            .output()
            .unwrap();
        let back: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        assert_eq!(back, words);
    }

    #[test]
    fn response_file_quoting_round_trips() {
        let words: Vec<String> = ["a b", "", "q'\"x", "back\\slash", "tab\there", "plain"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let text: Vec<String> = words.iter().map(|w| response_quote(w)).collect();
        assert_eq!(crate::response::split_words(&text.join("\n")), words);
    }

    #[test]
    fn long_commands_use_a_response_file() {
        let runner = Runner::new(false);
        let long = "x".repeat(RESPONSE_FILE_THRESHOLD);
        // `sh -c SCRIPT sh ARGS`: with the program taken as three words, the script sees
        // the response file as $1.
        let cmd = Cmd {
            argv: vec![
                "sh".into(),
                "-c".into(),
                r#"case "$1" in @*) tr '\n' ' ' < "${1#@}"; exit 7;; esac; exit 1"#.into(),
                "sh".into(),
                "a b".into(),
                long.clone(),
            ],
            program_words: 4,
        };
        let (command, rsp) = runner.command(&cmd).unwrap();
        let rsp_path = rsp.as_ref().unwrap().path().to_owned();
        assert_eq!(command.get_args().count(), 4);
        drop((command, rsp));
        assert!(!rsp_path.exists());
        let (code, out) = runner.probe(&cmd).unwrap();
        assert_eq!(code, 7);
        assert!(
            out.starts_with(b"a\\ b xxx"),
            "{}",
            String::from_utf8_lossy(&out[..20])
        );
    }

    #[test]
    fn statuses_follow_the_shell_convention() {
        let runner = Runner::new(false);
        let sh = |script: &str| Cmd::new(vec!["sh".into(), "-c".into(), script.into()]);
        assert_eq!(runner.run(&sh("exit 0")).unwrap(), 0);
        assert_eq!(runner.run(&sh("exit 3")).unwrap(), 3);
        assert_eq!(runner.run(&sh("kill -SEGV $$")).unwrap(), 128 + 11);
        let (code, err) = runner.run_captured(&sh("echo oops >&2; exit 2")).unwrap();
        assert_eq!((code, err), (2, b"oops\n".to_vec()));
        let missing = Cmd::new(vec!["/nonexistent/ompcc-host-cc".into()]);
        assert!(matches!(runner.run(&missing), Err(RunError::Spawn { .. })));
    }
}
