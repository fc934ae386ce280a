//! Snapshot tests of the typed AST printer (`--emit=ast` with types): every `tests/typed/*.c`
//! is checked and printed, and the text must equal the `.out` file next to it. Run with
//! `BLESS=1` to rewrite the expected files after an intended change.

mod common;

use std::path::Path;

#[test]
fn typed_ast_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/typed");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for input in inputs {
        let src = std::fs::read_to_string(&input).unwrap();
        let c = common::check_src(&src);
        let mut text = String::new();
        for d in c.parse_diags.iter().chain(&c.diags) {
            text.push_str(&format!(
                "{} {}: {} `{}`\n",
                d.severity.as_str(),
                d.code,
                d.message,
                common::span_text(&src, d)
            ));
        }
        text.push_str(&ompcc_sema::print_typed(&c.tu, &c.unit, &src));
        let expected_path = input.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != text {
            failures.push(format!(
                "{} differs; got:\n{text}",
                input.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
