//! Frontend speed: parse + sema of one translation unit that includes every standard header
//! the frontend must accept (preprocessing by the host compiler is excluded: it is timed
//! separately and reported beside ours for scale).
//!
//! Usage: `cargo run --release -p ompcc-bench --bin frontend-speed [ITERATIONS]`; prints a
//! Markdown table (bench/results/frontend.md holds the last recorded one).

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

const HEADERS: &[&str] = ompcc_syntax::STANDARD_HEADERS;

fn main() -> ExitCode {
    let iterations: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 20,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("frontend-speed: the argument is a positive number of iterations");
            return ExitCode::FAILURE;
        }
    };
    let source: String = HEADERS
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    let source = source + "int main(void) { return 0; }\n";
    let cc = std::env::var("OMPCC_HOST_CC").unwrap_or_else(|_| "cc".into());
    let pp_start = Instant::now();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("{cc} -E -fopenmp -std=gnu11 -x c -"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .map(|mut s| s.write_all(source.as_bytes()));
            child.wait_with_output()
        });
    let preprocess = pp_start.elapsed();
    let text = match output {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => {
            eprintln!("frontend-speed: {cc} -E failed ({})", o.status);
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("frontend-speed: cannot run {cc}: {e}");
            return ExitCode::FAILURE;
        }
    };

    let mut parse = Vec::new();
    let mut sema = Vec::new();
    for _ in 0..iterations {
        let t0 = Instant::now();
        let (tu, _sm, diags) = ompcc_syntax::parse_translation_unit(&text, "<headers>");
        let t1 = Instant::now();
        let Some(tu) = tu.filter(|_| diags.is_empty()) else {
            eprintln!(
                "frontend-speed: the headers did not parse ({} diagnostics)",
                diags.len()
            );
            return ExitCode::FAILURE;
        };
        let (_typed, diags) = ompcc_sema::check(&tu);
        let t2 = Instant::now();
        if diags
            .iter()
            .any(|d| d.severity == ompcc_diag::Severity::Error)
        {
            eprintln!("frontend-speed: the headers did not type-check");
            return ExitCode::FAILURE;
        }
        parse.push(t1 - t0);
        sema.push(t2 - t1);
    }
    let total: Vec<Duration> = parse.iter().zip(&sema).map(|(p, s)| *p + *s).collect();
    println!(
        "All {} standard headers: {} KiB preprocessed, {} lines; {iterations} iterations, release build.\n",
        HEADERS.len(),
        text.len() / 1024,
        text.lines().count()
    );
    println!("| stage | median ms | min ms |");
    println!("|---|---|---|");
    for (name, times) in [("parse", &parse), ("sema", &sema), ("parse + sema", &total)] {
        println!(
            "| {name} | {:.2} | {:.2} |",
            ms(median(times)),
            ms(min(times))
        );
    }
    println!(
        "| (host `cc -E`, once, for scale) | {:.2} | |",
        ms(preprocess)
    );
    ExitCode::SUCCESS
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn min(times: &[Duration]) -> Duration {
    times.iter().copied().min().unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
