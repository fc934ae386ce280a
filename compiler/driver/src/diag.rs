//! ompcc's own diagnostics, in gcc's shape (`ompcc: error: ...`) so that make, editors and
//! build tools read them like the host compiler's.
//!
//! Invariant: diagnostics go to standard error; colour follows `-fdiagnostics-color=` as gcc
//! does (`auto`: only on a terminal whose `TERM` is not `dumb`).

use std::io::IsTerminal as _;

use crate::cli::Color;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    /// Stops the whole command (gcc adds "compilation terminated.").
    Fatal,
    Warning,
    Note,
}

/// Whether diagnostics written to standard error should be coloured.
pub fn use_color(choice: Color) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::io::stderr().is_terminal() && std::env::var("TERM").is_ok_and(|t| t != "dumb")
        }
    }
}

/// Formats one diagnostic line (without the trailing newline).
pub fn format(severity: Severity, message: &str, color: bool) -> String {
    let (label, code) = match severity {
        Severity::Error => ("error", "01;31"),
        Severity::Fatal => ("fatal error", "01;31"),
        Severity::Warning => ("warning", "01;35"),
        Severity::Note => ("note", "01;36"),
    };
    if color {
        format!("\x1b[01m\x1b[Kompcc:\x1b[m\x1b[K \x1b[{code}m\x1b[K{label}:\x1b[m\x1b[K {message}")
    } else {
        format!("ompcc: {label}: {message}")
    }
}

/// Writes one diagnostic to standard error.
pub fn emit(severity: Severity, message: &str, color: bool) {
    eprintln!("{}", format(severity, message, color));
    if severity == Severity::Fatal {
        eprintln!("compilation terminated.");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_coloured_forms() {
        assert_eq!(format(Severity::Error, "boom", false), "ompcc: error: boom");
        assert_eq!(
            format(Severity::Fatal, "no", false),
            "ompcc: fatal error: no"
        );
        let coloured = format(Severity::Error, "boom", true);
        assert!(coloured.contains("\x1b[01;31m\x1b[Kerror:"));
        assert!(coloured.ends_with(" boom"));
        assert!(use_color(Color::Always));
        assert!(!use_color(Color::Never));
    }
}
