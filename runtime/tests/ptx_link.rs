//! The emu backend's linker over the emulator's own test PTX: every pair of modules links
//! into text the emulator decodes, with every kernel of both modules present, or fails only
//! because both define the same visible symbol.

use ompcc_emu::Module;
use ompcc_rt::backend::ModuleImage;
use ompcc_rt::backend::ptx_link::link;
use std::path::Path;

fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("emu/tests/ptx");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "emulator test PTX not found in {}",
        dir.display()
    );
    files
}

#[test]
fn pairs_of_modules_link_into_decodable_ptx() {
    let files = corpus();
    let mut linked_pairs = 0;
    for (i, (an, a)) in files.iter().enumerate() {
        let Ok(alone) = Module::parse(a) else {
            continue; // files that test decode errors
        };
        for (bn, b) in &files[i + 1..] {
            let Ok(other) = Module::parse(b) else {
                continue;
            };
            let images = [
                ModuleImage { name: an, ptx: a },
                ModuleImage { name: bn, ptx: b },
            ];
            let linked = match link(&images) {
                Ok(l) => l,
                Err(e) => {
                    assert!(
                        e.to_string().contains("is defined in both"),
                        "{an}+{bn}: {e}"
                    );
                    continue;
                }
            };
            let m = Module::parse(&linked.text)
                .unwrap_or_else(|e| panic!("{an}+{bn}: {e}\n{}", linked.text));
            let mut want: Vec<&str> = alone.kernels();
            want.extend(other.kernels());
            want.sort();
            let mut got = m.kernels();
            got.sort();
            assert_eq!(got, want, "{an}+{bn}");
            let lines_a = a.lines().count() as u32;
            assert_eq!(linked.locate(lines_a + 1), (bn.as_str(), 1), "{an}+{bn}");
            linked_pairs += 1;
        }
    }
    // file-local `table` of indirect.ptx and memory.ptx: both renamed, both still decode
    assert!(linked_pairs > 50, "only {linked_pairs} pairs linked");
    let find = |n: &str| files.iter().find(|f| f.0 == n).unwrap();
    let (ind, mem) = (find("indirect.ptx"), find("memory.ptx"));
    let l = link(&[
        ModuleImage {
            name: &ind.0,
            ptx: &ind.1,
        },
        ModuleImage {
            name: &mem.0,
            ptx: &mem.1,
        },
    ])
    .unwrap();
    assert!(
        l.text.contains("table$ompcc0[2] = {twice, square}"),
        "{}",
        l.text
    );
    assert!(l.text.contains("table$ompcc1[16]"), "{}", l.text);
    assert!(l.text.contains("generic(table$ompcc1)"), "{}", l.text);
}
