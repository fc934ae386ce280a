//! Errors of the emulator: parse/decode errors carry the PTX line; run-time faults carry the
//! kernel, block, thread, PTX line and (when `.loc` was given) the source location.
//!
//! Invariant: every failure of the emulator on user input is one of these values; nothing panics.

use std::fmt;

/// Where a run-time fault happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultSite {
    /// Kernel that was launched.
    pub kernel: String,
    /// Block index (`%ctaid`).
    pub block: [u32; 3],
    /// Thread index inside the block (`%tid`).
    pub thread: [u32; 3],
    /// 1-based line in the PTX text of the faulting instruction.
    pub ptx_line: u32,
    /// Source location from the last `.loc` before the instruction: (file name, line).
    pub source: Option<(String, u32)>,
}

/// An emulator error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmuError {
    /// Malformed PTX text.
    Parse { line: u32, msg: String },
    /// Well-formed PTX that the emulator cannot decode (unknown symbol, unsupported opcode).
    Decode { line: u32, msg: String },
    /// Bad use of the API (unknown kernel, bad launch geometry, bad device pointer).
    Api(String),
    /// A fault while a kernel ran.
    Fault { site: Box<FaultSite>, msg: String },
    /// A thread executed `trap` (the program called `abort` on the device) or called
    /// `__assertfail` (a failed `assert`, whose message glibc's format `file:line: function:
    /// Assertion `expr' failed.` is `assertion`).
    Trap {
        site: Box<FaultSite>,
        assertion: Option<String>,
    },
}

impl EmuError {
    pub(crate) fn parse(line: u32, msg: impl Into<String>) -> Self {
        EmuError::Parse {
            line,
            msg: msg.into(),
        }
    }
    pub(crate) fn decode(line: u32, msg: impl Into<String>) -> Self {
        EmuError::Decode {
            line,
            msg: msg.into(),
        }
    }
    pub(crate) fn api(msg: impl Into<String>) -> Self {
        EmuError::Api(msg.into())
    }
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmuError::Parse { line, msg } => write!(f, "PTX parse error at line {line}: {msg}"),
            EmuError::Decode { line, msg } => write!(f, "PTX error at line {line}: {msg}"),
            EmuError::Api(msg) => write!(f, "emulator: {msg}"),
            EmuError::Fault { .. } | EmuError::Trap { .. } => match self.fault() {
                Some((site, what)) => site.describe(f, what, |line| format!("PTX line {line}")),
                None => Ok(()),
            },
        }
    }
}

impl EmuError {
    /// Where a run-time fault or trap happened and what happened there, in one phrase.
    pub fn fault(&self) -> Option<(&FaultSite, &str)> {
        match self {
            EmuError::Fault { site, msg } => Some((site, msg)),
            EmuError::Trap { site, assertion } => {
                Some((site, assertion.as_deref().unwrap_or(TRAP_MESSAGE)))
            }
            _ => None,
        }
    }
}

/// What a [`EmuError::Trap`] says happened.
const TRAP_MESSAGE: &str = "trap instruction executed";

impl FaultSite {
    /// `kernel `k` block (..) thread (..): {what} at {ptx_line(line)} (file:line)`.
    pub fn describe(
        &self,
        f: &mut impl fmt::Write,
        what: &str,
        ptx_line: impl Fn(u32) -> String,
    ) -> fmt::Result {
        let [bx, by, bz] = self.block;
        let [tx, ty, tz] = self.thread;
        write!(
            f,
            "kernel `{}` block ({bx},{by},{bz}) thread ({tx},{ty},{tz}): {what} at {}",
            self.kernel,
            ptx_line(self.ptx_line)
        )?;
        if let Some((file, line)) = &self.source {
            write!(f, " ({file}:{line})")?;
        }
        Ok(())
    }
}

impl std::error::Error for EmuError {}
