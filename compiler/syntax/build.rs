//! Generates the parser from `src/grammar.lalrpop`.
//!
//! The grammar is LR(1) but not LALR(1); lalrpop's default lane-table construction reports
//! spurious conflicts on it, so the canonical LR(1) construction is selected.

fn main() {
    println!("cargo:rerun-if-changed=src/grammar.lalrpop");
    // SAFETY: the build script is single-threaded; nothing reads the environment concurrently.
    unsafe { std::env::set_var("LALRPOP_LANE_TABLE", "disabled") };
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
        .expect("lalrpop grammar failed to compile");
}
