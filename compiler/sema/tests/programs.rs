//! Whole programs (`tests/programs/*.c`, valid C that gcc compiles with `-fopenmp`) must
//! check without errors or warnings after `cc -E -fopenmp`. Requires `cc`.

mod common;

use std::path::Path;
use std::process::Command;

#[test]
fn programs_check_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 3);
    let mut failures = Vec::new();
    for input in inputs {
        let out = Command::new("cc")
            .args(["-std=gnu11", "-E", "-fopenmp"])
            .arg(&input)
            .output()
            .expect("this test needs the host C compiler `cc`");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let c = common::check_src(&text);
        for d in c.parse_diags.iter().chain(&c.diags).take(10) {
            failures.push(format!(
                "{}: {} {} {}: `{}`",
                input.file_name().unwrap().to_string_lossy(),
                d.severity.as_str(),
                d.code,
                d.message,
                common::span_text(&text, d)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
