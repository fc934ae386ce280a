//! `iropt`: runs passes over an IR file, like LLVM's `opt`.
//!
//! ```text
//! cargo run -p ompcc-opt --example iropt -- FILE.ir [-O0|-O1|-O2] [--passes=a,b]
//!     [--print-before=all|a,b] [--print-after=all|a,b] [--time-passes] [--no-verify]
//! ```
//! Prints the optimized module on stdout; hook output and the timing table go to stderr.

use ompcc_opt::{PassManager, PrintFilter, parse_pipeline, pipeline_for_level};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("iropt: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut file = None;
    let mut passes = pipeline_for_level(1);
    let (mut before, mut after) = (PrintFilter::None, PrintFilter::None);
    let (mut time, mut verify) = (false, true);
    for arg in std::env::args().skip(1) {
        if let Some(l) = arg.strip_prefix("-O") {
            let level: u8 = l.parse().map_err(|_| format!("bad level `{arg}`"))?;
            passes = pipeline_for_level(level);
        } else if let Some(p) = arg.strip_prefix("--passes=") {
            passes = parse_pipeline(p)?;
        } else if let Some(p) = arg.strip_prefix("--print-before=") {
            before = PrintFilter::parse(p)?;
        } else if let Some(p) = arg.strip_prefix("--print-after=") {
            after = PrintFilter::parse(p)?;
        } else if arg == "--time-passes" {
            time = true;
        } else if arg == "--no-verify" {
            verify = false;
        } else if arg.starts_with('-') {
            return Err(format!("unknown option `{arg}`"));
        } else {
            file = Some(arg);
        }
    }
    let file = file.ok_or("no input file")?;
    let src = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let mut module = ompcc_ir::parse_module(&src).map_err(|e| format!("{file}:{e}"))?;
    if verify && let Err(errs) = ompcc_ir::verify_module(&module) {
        let msgs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        return Err(format!("{file}: invalid input:\n{}", msgs.join("\n")));
    }
    let mut pm = PassManager::new(passes);
    pm.verify = verify;
    pm.print_before = before;
    pm.print_after = after;
    pm.time_passes = time;
    let result = pm.run_module(&mut module);
    eprint!("{}", pm.printed);
    eprint!("{}", pm.timing_table());
    result.map_err(|e| e.to_string())?;
    print!("{module}");
    Ok(())
}
