//! C to PTX file tests. Every `testsuite/ptx-c/*.c` says how it is compiled in one
//! `// run: ARGS` line (the `ompcc` arguments before the file name, e.g.
//! `-fopenmp --device-only --emit=ptx -O2`) and what the PTX must contain in filecheck
//! directives (`// check:`, `// nextln:`, `// not:`, ...; a literal `$` is written `$$`).
//!
//! For each file: the PTX of the run line is matched against the directives (at least one is
//! required, so no file passes vacuously); that PTX and the PTX of the same arguments at -O0
//! and -O2 are assembled by ptxas for sm_70, sm_80 and sm_90; at -O2 no function may touch
//! local memory unless the file says `// local-memory: yes` (it has addressable local arrays).
//! ptxas is found by the shared harness; without it the PTX is still checked, and the test
//! fails only when `OMPCC_REQUIRE_PTXAS=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ompcc_testsuite::harness::{find_ptxas, ompcc_binary, require_ptxas};

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];

fn sources() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ptx-c");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testsuite/ptx-c")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    files
}

/// The value of the `// NAME:` line.
fn directive<'s>(src: &'s str, name: &str) -> Option<&'s str> {
    let key = format!("// {name}:");
    src.lines()
        .find_map(|l| l.trim_start().strip_prefix(key.as_str()))
        .map(str::trim)
}

/// Runs `ompcc ARGS src`; the PTX or the failure.
fn emit_ptx(src: &Path, args: &[String]) -> Result<String, String> {
    let out = Command::new(ompcc_binary())
        .args(args)
        .arg(src)
        .output()
        .map_err(|e| format!("cannot run ompcc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "ompcc {} failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| "PTX is not UTF-8".to_string())
}

/// Assembles `ptx` for every arch; the failures.
fn assemble(ptxas: &Path, dir: &Path, what: &str, ptx: &str) -> Vec<String> {
    let file = dir.join("k.ptx");
    if let Err(e) = std::fs::write(&file, ptx) {
        return vec![format!("{what}: cannot write PTX: {e}")];
    }
    let children: Vec<_> = ARCHS
        .iter()
        .map(|arch| {
            let child = Command::new(ptxas)
                .args(["-arch", arch, "-o"])
                .arg(dir.join(format!("k.{arch}.cubin")))
                .arg(&file)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn();
            (arch, child)
        })
        .collect();
    let mut fails = Vec::new();
    for (arch, child) in children {
        match child.and_then(|c| c.wait_with_output()) {
            Ok(o) if o.status.success() && o.stderr.is_empty() => {}
            Ok(o) => fails.push(format!(
                "{what} {arch}: ptxas failed:\n{}{}\n--- PTX ---\n{ptx}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => fails.push(format!("{what}: cannot run ptxas: {e}")),
        }
    }
    fails
}

/// Checks one file; the failures.
fn check_file(src: &Path, ptxas: Option<&Path>, tmp: &Path) -> Vec<String> {
    let name = src.file_name().unwrap_or_default().to_string_lossy();
    let text = match std::fs::read_to_string(src) {
        Ok(t) => t,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let Some(run) = directive(&text, "run") else {
        return vec![format!("{name}: no `// run:` line")];
    };
    let args: Vec<String> = run.split_whitespace().map(String::from).collect();
    let checker = match filecheck::CheckerBuilder::new().text(&text) {
        Ok(b) => b.finish(),
        Err(e) => return vec![format!("{name}: bad directives: {e}")],
    };
    if checker.is_empty() {
        return vec![format!("{name}: no `// check:` lines")];
    }
    let mut fails = Vec::new();
    let mut compiles = vec![(run.to_string(), args.clone())];
    for level in ["-O0", "-O2"] {
        let mut a: Vec<String> = args
            .iter()
            .filter(|w| !w.starts_with("-O"))
            .cloned()
            .collect();
        a.push(level.to_string());
        compiles.push((a.join(" "), a));
    }
    let local_ok = directive(&text, "local-memory") == Some("yes");
    for (i, (what, a)) in compiles.iter().enumerate() {
        let what = format!("{name} [{what}]");
        let ptx = match emit_ptx(src, a) {
            Ok(p) => p,
            Err(e) => {
                fails.push(format!("{what}: {e}"));
                continue;
            }
        };
        if i == 0 {
            match checker.explain(&ptx, filecheck::NO_VARIABLES) {
                Ok((true, _)) => {}
                Ok((false, why)) => {
                    fails.push(format!("{what}: check failed:\n{why}\n--- PTX ---\n{ptx}"))
                }
                Err(e) => fails.push(format!("{what}: filecheck error {e}")),
            }
        }
        let at_o2 = a.last().is_some_and(|l| l == "-O2");
        if at_o2 && !local_ok && (ptx.contains("ld.local") || ptx.contains("st.local")) {
            fails.push(format!("{what}: local memory at -O2:\n{ptx}"));
        }
        if let Some(p) = ptxas {
            fails.extend(assemble(p, tmp, &what, &ptx));
        }
    }
    fails
}

#[test]
fn c_file_tests() {
    let ptxas = find_ptxas();
    if ptxas.is_none() {
        assert!(
            !require_ptxas(),
            "ptxas is required (OMPCC_REQUIRE_PTXAS=1) but not found"
        );
        eprintln!("note: ptxas not found; PTX is checked but not assembled");
    }
    let files = sources();
    assert!(!files.is_empty());
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut fails = Vec::new();
    for src in &files {
        fails.extend(check_file(src, ptxas.as_deref(), tmp.path()));
    }
    eprintln!("{} C-to-PTX file tests", files.len());
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}
