//! C to PTX through the `ompcc` driver: every `testsuite/ptx-c/*.c` is compiled with
//! `--emit=ptx` at -O0 and -O2 (its `declare target` functions), every result is assembled by
//! ptxas for sm_70, sm_80 and sm_90, and at -O2 no function may touch local memory (the files
//! here have no addressable local arrays).

use std::path::{Path, PathBuf};
use std::process::Command;

use ompcc_testsuite::harness::{find_ptxas, ompcc_binary, require_ptxas};

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

fn emit_ptx(src: &Path, level: &str) -> String {
    let out = Command::new(ompcc_binary())
        .args(["-fopenmp", level, "--emit=ptx"])
        .arg(src)
        .output()
        .expect("run ompcc");
    assert!(
        out.status.success(),
        "{} {level}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("PTX is text")
}

#[test]
fn c_sources_compile_to_ptx_that_ptxas_accepts() {
    let ptxas = find_ptxas();
    if ptxas.is_none() {
        assert!(
            !require_ptxas(),
            "ptxas is required (OMPCC_REQUIRE_PTXAS=1) but not found"
        );
        eprintln!("note: ptxas not found; PTX is checked for shape only");
    }
    let files = sources();
    assert!(!files.is_empty());
    let tmp = tempfile::tempdir().expect("tempdir");
    for src in &files {
        for level in ["-O0", "-O2"] {
            let ptx = emit_ptx(src, level);
            assert!(ptx.contains(".func") || ptx.contains(".entry"), "{ptx}");
            if level == "-O2" {
                assert!(
                    !ptx.contains("ld.local") && !ptx.contains("st.local"),
                    "{}: local memory at -O2:\n{ptx}",
                    src.display()
                );
            }
            let Some(ptxas) = &ptxas else { continue };
            let file = tmp.path().join("k.ptx");
            std::fs::write(&file, &ptx).expect("write PTX");
            for arch in ["sm_70", "sm_80", "sm_90"] {
                let out = Command::new(ptxas)
                    .args(["-arch", arch, "-o"])
                    .arg(tmp.path().join("k.cubin"))
                    .arg(&file)
                    .output()
                    .expect("run ptxas");
                assert!(
                    out.status.success(),
                    "{} {level} {arch}: {}\n{ptx}",
                    src.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
}
