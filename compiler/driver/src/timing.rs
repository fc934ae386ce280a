//! `--time-phases`: where the wall time of one ompcc command goes, printed on standard error
//! when the command ends (the counterpart of gcc's `-ftime-report` for the driver; the
//! device passes have their own `--time-passes`).
//!
//! Every phase is timed where it runs with [`phase`]; the host compiler's runs are phases of
//! their own (`host: preprocess`, `host: compile`, ...), so the table splits a command into
//! ompcc's work and cc's. Times of a phase that runs more than once (one per unit) add up;
//! `other` is the rest of the command (start-up, command-line parsing). A phase that runs
//! inside another is taken out of the outer one's time (self time: every instant of the
//! command counts once).
//!
//! The report, one phase a line in the order the phases first ran, then `other` and `total`:
//!
//! ```text
//! ompcc: phase times (wall clock):
//!   host: preprocess         12.345 ms   21.0%
//!   ...
//!   total                    58.800 ms  100.0%
//! ```
//!
//! A host compile that runs alongside ompcc's device phases (`crate::overlap`) counts as
//! `host: compile` only for the time ompcc waits for it; a line after the table says how long
//! it ran before:
//!
//! ```text
//! ompcc: concurrent: t.c: `host: compile` started 40.1 ms before ompcc waited for it, ...
//! ```
//!
//! Invariant: when `--time-phases` is not given nothing is recorded or printed (one atomic
//! load per phase).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);

/// The phases timed so far, in the order they first ran.
static PHASES: Mutex<Vec<(&'static str, Duration)>> = Mutex::new(Vec::new());

/// For each phase running now, outermost first: the time of the phases run inside it.
static NESTED: Mutex<Vec<Duration>> = Mutex::new(Vec::new());

/// Lines printed after the table: what ran concurrently with the phases.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The host compiler preprocessing a unit (`cc -E`).
pub const HOST_PREPROCESS: &str = "host: preprocess";
/// The host compiler preprocessing the device C library.
pub const HOST_LIBRARY_PREPROCESS: &str = "host: preprocess device library";
/// The host compiler compiling a unit (`cc -c` / `cc -S`).
pub const HOST_COMPILE: &str = "host: compile";
/// The host compiler assembling a unit whose compile started early (`crate::overlap`).
pub const HOST_ASSEMBLE: &str = "host: assemble";
/// The host compiler running the user's command unchanged, or a link.
pub const HOST_COMMAND: &str = "host: command or link";
/// The host compiler asked what it is (`cc --version`).
pub const HOST_PROBE: &str = "host: probe";
/// Parsing and checking a unit (again after each rewrite below).
pub const CHECK: &str = "frontend: parse and check";
/// `declare mapper` expansion, automatic offload, the data planner, metadirectives.
pub const REWRITES: &str = "frontend: rewrites";

/// Starts recording (`--time-phases`).
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Runs `f` as (part of) phase `name`.
pub fn phase<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    lock(&NESTED).push(Duration::ZERO);
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    let inner = {
        let mut nested = lock(&NESTED);
        let inner = nested.pop().unwrap_or_default();
        if let Some(outer) = nested.last_mut() {
            *outer += took;
        }
        inner
    };
    add(name, took.saturating_sub(inner));
    out
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn add(name: &'static str, took: Duration) {
    let mut phases = lock(&PHASES);
    match phases.iter_mut().find(|(n, _)| *n == name) {
        Some((_, total)) => *total += took,
        None => phases.push((name, took)),
    }
}

/// Records a line for the end of the report: a host command that ran alongside the phases
/// (each instant of the table still counts once, for what ompcc's own thread did).
pub fn note(line: String) {
    if enabled() {
        lock(&NOTES).push(line);
    }
}

/// The report for a command that took `total` (empty unless `--time-phases`).
pub fn report(total: Duration) -> String {
    if !enabled() {
        return String::new();
    }
    let phases = lock(&PHASES).clone();
    let mut text = render(&phases, total);
    for line in lock(&NOTES).iter() {
        text.push_str(&format!("ompcc: concurrent: {line}\n"));
    }
    text
}

fn render(phases: &[(&'static str, Duration)], total: Duration) -> String {
    use std::fmt::Write as _;
    let timed: Duration = phases.iter().map(|(_, d)| *d).sum();
    let other = total.saturating_sub(timed);
    let whole = total.max(timed).as_secs_f64().max(1e-9);
    let width = phases
        .iter()
        .map(|(n, _)| n.len())
        .chain([5])
        .max()
        .unwrap_or(5);
    let mut s = String::from("ompcc: phase times (wall clock):\n");
    let rows = phases
        .iter()
        .copied()
        .chain([("other", other), ("total", total.max(timed))]);
    for (name, d) in rows {
        let _ = writeln!(
            s,
            "  {name:<width$} {:>10.3} ms {:>6.1}%",
            d.as_secs_f64() * 1e3,
            d.as_secs_f64() / whole * 100.0
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_adds_repeated_phases_and_names_the_rest_other() {
        let ms = Duration::from_millis;
        let text = render(&[(HOST_PREPROCESS, ms(10)), ("frontend", ms(5))], ms(20));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "ompcc: phase times (wall clock):");
        assert!(lines[1].starts_with("  host: preprocess"), "{text}");
        assert!(lines[1].ends_with("10.000 ms   50.0%"), "{text}");
        assert!(lines[3].starts_with("  other") && lines[3].contains("5.000 ms"));
        assert!(lines[4].starts_with("  total") && lines[4].ends_with("100.0%"));
    }

    #[test]
    fn phases_accumulate_only_when_enabled() {
        // (the only test that enables recording: the switch is process-wide)
        phase("t-off", || ());
        note("n-off".into());
        assert!(report(Duration::ZERO).is_empty());
        enable();
        note("cc ran alongside".into());
        phase("t-on", || std::thread::sleep(Duration::from_millis(1)));
        phase("t-on", || ());
        phase("t-outer", || {
            phase("t-inner", || std::thread::sleep(Duration::from_millis(30)))
        });
        let text = report(Duration::from_millis(50));
        assert!(!text.contains("t-off") && !text.contains("n-off"), "{text}");
        // notes follow the table
        let total_at = text.find("  total").unwrap();
        assert!(
            text[total_at..].contains("\nompcc: concurrent: cc ran alongside\n"),
            "{text}"
        );
        assert_eq!(text.matches("t-on").count(), 1, "{text}");
        let ms_of = |name: &str| -> f64 {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap();
            line.split_whitespace().nth(1).unwrap().parse().unwrap()
        };
        // the inner phase's time is not the outer one's too
        assert!(ms_of("t-inner") >= 30.0, "{text}");
        assert!(ms_of("t-outer") < 20.0, "{text}");
    }
}
