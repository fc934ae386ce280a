//! PTX file tests: every `testsuite/ptx/*.ir` module is emitted as PTX, matched against the
//! file's filecheck directives (`; check:` ...; a literal `$` is written `$$`), and assembled
//! by ptxas for sm_70, sm_80 and sm_90 (those at least the file's target; with `-c` when the module
//! declares symbols of other units, which the device link resolves).
//!
//! Per-file directives: `; target: sm_XX` (default sm_70), `; jump-tables: yes`, `; line-info: yes`
//! (write `.file`/`.loc`) and `; error: TEXT` for a module
//! that must be refused with a `PtxError` whose message contains TEXT. Each file needs at least
//! one check or error line, so no test passes vacuously.
//!
//! A second test feeds every `testsuite/ir/**/*.ir` module that parses and verifies to the
//! emitter: each must become PTX that ptxas accepts (sm_90), or a `PtxError` (never a panic).
//!
//! ptxas is looked up by the shared harness (`harness::find_ptxas`: PATH, then the
//! `nvidia-cuda-nvcc-cu12` Python package). Without it the PTX is still checked, a note is
//! printed, and the tests fail only when `OMPCC_REQUIRE_PTXAS=1` (`harness::require_ptxas`).

use ompcc_ptx::{PtxOptions, emit_module};
use ompcc_testsuite::harness::{find_ptxas, require_ptxas};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ARCHS: [u32; 3] = [70, 80, 90];

/// The value of a `; NAME: value` line.
fn directive<'a>(src: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("; {name}:");
    src.lines()
        .find_map(|l| l.trim_start().strip_prefix(key.as_str()))
        .map(str::trim)
}

/// Assembles `ptx` for every arch at least `min_sm`; returns the failures.
fn assemble(ptxas: &Path, dir: &Path, name: &str, ptx: &str, min_sm: u32) -> Vec<String> {
    let file = dir.join(format!("{name}.ptx"));
    if let Err(e) = std::fs::write(&file, ptx) {
        return vec![format!("{name}: cannot write {}: {e}", file.display())];
    }
    let children: Vec<_> = ARCHS
        .iter()
        .filter(|&&sm| sm >= min_sm)
        .map(|&sm| {
            let out = dir.join(format!("{name}.sm_{sm}.cubin"));
            // Symbols of other units (`.extern .global`, a non-runtime `.extern .func`)
            // resolve at the device link: assemble such a module alone, as relocatable code.
            let relocatable = ptx.lines().any(|l| {
                (l.starts_with(".extern .global") || l.starts_with(".extern .const"))
                    || (l.starts_with(".extern .func") && !l.contains(" vprintf("))
            });
            let child = Command::new(ptxas)
                .args(relocatable.then_some("-c"))
                .arg(format!("-arch=sm_{sm}"))
                .arg(&file)
                .arg("-o")
                .arg(out)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn();
            (sm, child)
        })
        .collect();
    let mut fails = Vec::new();
    for (sm, child) in children {
        match child.and_then(|c| c.wait_with_output()) {
            Ok(o) if o.status.success() && o.stderr.is_empty() => {}
            Ok(o) => fails.push(format!(
                "{name}: ptxas sm_{sm} failed:\n{}{}\n--- PTX ---\n{ptx}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => fails.push(format!("{name}: cannot run ptxas: {e}")),
        }
    }
    fails
}

#[test]
fn ptx_file_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("ptx");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("testsuite/ptx exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no tests in {}", root.display());
    let ptxas = find_ptxas();
    match &ptxas {
        None if require_ptxas() => panic!("ptxas not found and OMPCC_REQUIRE_PTXAS=1"),
        None => eprintln!("note: ptxas not found; PTX is checked but not assembled"),
        Some(p) => eprintln!("using {}", p.display()),
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut fails = Vec::new();
    let mut assembled = 0;
    for path in &files {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let src = std::fs::read_to_string(path).expect("readable test file");
        let opts = match directive(&src, "target") {
            Some(a) => match PtxOptions::for_arch(a) {
                Ok(o) => o,
                Err(e) => {
                    fails.push(format!("{name}: {e}"));
                    continue;
                }
            },
            None => PtxOptions::default(),
        };
        let opts = PtxOptions {
            jump_tables: directive(&src, "jump-tables") == Some("yes"),
            line_info: directive(&src, "line-info") == Some("yes"),
            ..opts
        };
        let module = match ompcc_ir::parse_module(&src) {
            Ok(m) => m,
            Err(e) => {
                fails.push(format!("{name}: parse error {e}"));
                continue;
            }
        };
        let result = emit_module(&module, &opts);
        if let Some(want) = directive(&src, "error") {
            match result {
                Err(e) if e.to_string().contains(want) => {}
                Err(e) => fails.push(format!("{name}: expected error `{want}`, got `{e}`")),
                Ok(_) => fails.push(format!("{name}: expected error `{want}`, got PTX")),
            }
            continue;
        }
        let ptx = match result {
            Ok(p) => p,
            Err(e) => {
                fails.push(format!("{name}: {e}"));
                continue;
            }
        };
        let checker = match filecheck::CheckerBuilder::new().text(&src) {
            Ok(b) => b.finish(),
            Err(e) => {
                fails.push(format!("{name}: bad directives: {e}"));
                continue;
            }
        };
        if checker.is_empty() {
            fails.push(format!("{name}: no `; check:` lines"));
            continue;
        }
        match checker.explain(&ptx, filecheck::NO_VARIABLES) {
            Ok((true, _)) => {}
            Ok((false, why)) => {
                fails.push(format!("{name}: check failed:\n{why}\n--- PTX ---\n{ptx}"))
            }
            Err(e) => fails.push(format!("{name}: filecheck error {e}")),
        }
        if let Some(p) = &ptxas {
            fails.extend(assemble(p, tmp.path(), &name, &ptx, opts.sm));
            assembled += 1;
        }
    }
    eprintln!(
        "{} PTX file tests, {assembled} assembled with ptxas",
        files.len()
    );
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}

fn ir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ir") {
            out.push(p);
        }
    }
}

#[test]
fn ir_suite_emits_or_refuses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("ir");
    let mut files = Vec::new();
    ir_files(&root, &mut files);
    files.sort();
    let ptxas = find_ptxas();
    if ptxas.is_none() && require_ptxas() {
        panic!("ptxas not found and OMPCC_REQUIRE_PTXAS=1");
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let (mut emitted, mut refused, mut fails) = (0, 0, Vec::new());
    for path in &files {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(module) = ompcc_ir::parse_module(&src) else {
            continue;
        };
        if ompcc_ir::verify_module(&module).is_err() {
            continue;
        }
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace(['/', '\\'], "_");
        // Line info on: files with source locations also check the `.file`/`.loc` output.
        let opts = PtxOptions {
            line_info: true,
            ..PtxOptions::default()
        };
        match emit_module(&module, &opts) {
            Ok(ptx) => {
                emitted += 1;
                if let Some(p) = &ptxas {
                    fails.extend(assemble(p, tmp.path(), &name, &ptx, 90));
                }
            }
            Err(e) => {
                refused += 1;
                eprintln!("{name}: refused: {e}");
            }
        }
    }
    eprintln!("IR suite: {emitted} emitted, {refused} refused");
    assert!(emitted > 0, "no IR file emitted");
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}
