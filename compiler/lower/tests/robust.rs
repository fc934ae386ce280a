//! The lowering never panics and always produces a module that verifies, even when it is
//! handed a unit with parse or type errors (the driver should stop before, but a library
//! must not crash on any input): every file of `testsuite/diag` (broken programs) and of the
//! sema and syntax test programs, whole and truncated at several points.

use ompcc_lower::{FunctionSelection, LowerOptions, lower_functions};

fn lower_any(src: &str, name: &str) {
    let (tu, _sm, _pd) = ompcc_syntax::parse_translation_unit(src, name);
    let Some(tu) = tu else { return };
    let (typed, _sd) = ompcc_sema::check(&tu);
    let (m, d) = lower_functions(
        &tu,
        &typed,
        &FunctionSelection::All,
        &LowerOptions::default(),
    );
    if let Some(ice) = d.iter().find(|d| d.code == "E0899") {
        panic!("{name}: {}", ice.message);
    }
    if let Err(e) = ompcc_ir::verify_module(&m) {
        panic!("{name}: lowered module does not verify: {e:?}\n{m}");
    }
}

#[test]
fn broken_programs_never_crash_the_lowering() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dirs = [
        "testsuite/diag",
        "compiler/sema/tests/programs",
        "compiler/syntax/tests/seeds",
    ];
    let mut n = 0;
    let entries = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap_or_else(|e| panic!("{d}: {e}")));
    for entry in entries {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "c") {
            continue;
        }
        let src = std::fs::read_to_string(&path).expect("read");
        let name = path.display().to_string();
        lower_any(&src, &name);
        // Truncations cut functions in the middle of statements and expressions.
        for k in 1..8 {
            let mut cut = src.len() * k / 8;
            while !src.is_char_boundary(cut) {
                cut -= 1;
            }
            lower_any(&src[..cut], &name);
        }
        n += 1;
    }
    assert!(n >= 40, "only {n} programs");
}
