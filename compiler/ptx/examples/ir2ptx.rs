//! Prints the PTX for an IR text file:
//! `cargo run -p ompcc-ptx --example ir2ptx -- FILE [sm_XX]` (`OMPCC_JUMP_TABLES=1` for brx.idx).

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: ir2ptx FILE.ir [sm_XX]");
        return ExitCode::FAILURE;
    };
    let opts = match args.next().map(|a| ompcc_ptx::PtxOptions::for_arch(&a)) {
        None => ompcc_ptx::PtxOptions::default(),
        Some(Ok(o)) => o,
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let opts = ompcc_ptx::PtxOptions {
        jump_tables: std::env::var_os("OMPCC_JUMP_TABLES").is_some(),
        ..opts
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let module = match ompcc_ir::parse_module(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{path}:{e}");
            return ExitCode::FAILURE;
        }
    };
    match ompcc_ptx::emit_module(&module, &opts) {
        Ok(ptx) => {
            print!("{ptx}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
