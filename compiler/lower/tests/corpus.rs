//! Lowers every function of the corpus programs (`testsuite/corpus/*.c`, preprocessed with
//! `cc -E -fopenmp`): device-unsupported diagnostics are allowed, panics and verifier failures
//! (after lowering and after -O1) are not. Prints the counts.
//!
//! `OMPCC_CORPUS_INLINE=1` lowers inline definitions too (header helpers), not only those
//! called. The corpus lives on the `corpus` branch until it is merged; point `OMPCC_CORPUS_DIR` at it
//! and run with `--ignored` meanwhile.

use ompcc_lower::{FunctionSelection, LowerOptions, lower_functions};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("OMPCC_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testsuite/corpus"),
    }
}

#[test]
fn corpus_functions_lower_and_verify() {
    lower_dir(&corpus_dir());
}

/// The same over the C programs the sema and syntax tests keep in this repository.
#[test]
fn repository_programs_lower_and_verify() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let clean = lower_dir(&root.join("compiler/sema/tests/programs"))
        + lower_dir(&root.join("compiler/syntax/tests/seeds"));
    assert!(clean >= 10, "only {clean} functions lowered cleanly");
}

/// Lowers every function of every C file in `dir`; returns how many lowered cleanly.
fn lower_dir(dir: &std::path::Path) -> usize {
    let dir = dir.to_path_buf();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no C files in {}", dir.display());
    let (mut n_files, mut frontend_fail, mut funcs, mut clean, mut diag_funcs) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut messages: std::collections::BTreeMap<String, usize> = Default::default();
    for f in &files {
        let out = std::process::Command::new("cc")
            .args(["-E", "-fopenmp"])
            .arg(f)
            .output()
            .expect("cc -E");
        if !out.status.success() {
            frontend_fail += 1;
            continue;
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        n_files += 1;
        let (tu, _sm, pd) = ompcc_syntax::parse_translation_unit(&text, &name);
        let Some(tu) = tu else {
            frontend_fail += 1;
            continue;
        };
        if pd.iter().any(|d| d.is_error()) {
            println!("{name}: rejected by the parser");
            frontend_fail += 1;
            continue;
        }
        let (typed, sd) = ompcc_sema::check(&tu);
        if sd.iter().any(|d| d.is_error()) {
            println!("{name}: rejected by sema");
            frontend_fail += 1;
            continue;
        }
        // Every definition, inline header helpers included (`All` skips unused inline ones).
        let every: Vec<String> = tu
            .items
            .iter()
            .filter_map(|i| match i {
                ompcc_syntax::ast::ExternalDecl::Function(f) => typed
                    .decl_symbol(f.declarator.id)
                    .map(|s| typed.symbols[s].name.clone()),
                _ => None,
            })
            .collect();
        let which = if std::env::var_os("OMPCC_CORPUS_INLINE").is_some() {
            FunctionSelection::Named(every)
        } else {
            FunctionSelection::All
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            lower_functions(&tu, &typed, &which, &LowerOptions::default())
        }));
        let (m, diags) = match r {
            Ok(x) => x,
            Err(_) => {
                failures.push(format!("{name}: panic while lowering"));
                continue;
            }
        };
        if let Err(e) = ompcc_ir::verify_module(&m) {
            failures.push(format!("{name}: verifier: {e:?}"));
            continue;
        }
        let mut o1 = m.clone();
        if let Err(e) = ompcc_opt::optimize(&mut o1, 1, true) {
            failures.push(format!("{name}: -O1: {e:?}"));
            continue;
        }
        // The full pipeline must keep every corpus function valid too.
        let mut o3 = m.clone();
        if let Err(e) = ompcc_opt::optimize(&mut o3, 3, true) {
            failures.push(format!("{name}: -O3: {e}"));
            continue;
        }
        let trapped = m
            .functions
            .iter()
            .filter(|f| {
                let s = f.to_string();
                s.lines().filter(|l| l.starts_with("    ")).count() == 1 && s.contains("    trap")
            })
            .count();
        funcs += m.functions.len();
        diag_funcs += trapped;
        clean += m.functions.len() - trapped;
        for d in diags.iter().filter(|d| d.code == "E0899") {
            failures.push(format!("{name}: {}", d.message));
        }
        for d in diags.iter().filter(|d| d.is_error()) {
            if std::env::var_os("OMPCC_CORPUS_VERBOSE").is_some() {
                println!(
                    "{name}: {}: {}",
                    d.message,
                    text.get(d.primary.span.range())
                        .unwrap_or("")
                        .chars()
                        .take(80)
                        .collect::<String>()
                );
            }
            let key: String = d
                .message
                .split('\'')
                .enumerate()
                .map(|(i, p)| if i % 2 == 1 { "_" } else { p })
                .collect::<Vec<_>>()
                .join("'");
            *messages.entry(key).or_default() += 1;
        }
    }
    println!(
        "corpus: {n_files} files preprocessed, {frontend_fail} rejected by the frontend; \
         {funcs} functions lowered: {clean} clean, {diag_funcs} with device diagnostics"
    );
    for (m, n) in &messages {
        println!("  {n:4}  {m}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    clean
}
