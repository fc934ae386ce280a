//! Every function of the corpus (`testsuite/corpus/*.c`) as device code, as `ompcc
//! --device-only -O2` compiles it: each file is preprocessed (`cc -E -fopenmp`), checked,
//! lowered with every definition selected, optimized by the -O2 pipeline with the verifier
//! after every pass, emitted as PTX and assembled by ptxas for sm_70, sm_80 and sm_90.
//!
//! The device C library (`sqrt`, `strlen`, ...) is linked as `ompcc --device-only` links it
//! (`ompcc_devlib`), so the functions calling it are compiled with it.
//!
//! Functions the device cannot run are reported by lowering (`E08xx`) and get a body that
//! traps; they are counted per diagnostic code and stay in the module (a trap assembles), so
//! their callers still compile. Functions that call something no device module provides (a
//! C library function outside the device library) are set aside the same way and counted
//! as a third kind. Any `E0899` (a lowering bug), verifier failure, PTX emission error or
//! ptxas rejection fails the test. The counts are printed; the test also requires that most
//! functions compile cleanly, so a regression that diagnoses everything fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ompcc_lower::{FunctionSelection, LowerOptions, lower_functions};
use ompcc_testsuite::harness::{find_ptxas, require_ptxas};

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];

/// Per-file result counts.
#[derive(Default)]
struct Counts {
    files: usize,
    clean: usize,
    diagnosed: usize,
    unresolved: usize,
    by_code: BTreeMap<String, usize>,
}

/// A function whose whole body is `trap`: lowering gave up on it.
fn is_trap_body(f: &ompcc_ir::Function) -> bool {
    let mut insts = f.layout.blocks().flat_map(|b| f.layout.block_insts(b));
    matches!(
        (insts.next(), insts.next()),
        (Some(i), None) if f.dfg.inst(i).opcode() == ompcc_ir::Opcode::Trap
    )
}

/// Functions the CUDA driver provides to every module.
const RUNTIME: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];

/// Replaces every function that refers to an external declaration that neither the CUDA
/// runtime nor the device library provides with a trapping body and drops those
/// declarations; returns how many.
fn set_aside_unresolved_callers(module: &mut ompcc_ir::Module) -> usize {
    let missing: Vec<String> = module
        .decls
        .iter()
        .map(|d| d.name.clone())
        .filter(|n| !RUNTIME.contains(&n.as_str()) && ompcc_stdlib::device_symbol(n).is_none())
        .collect();
    let mut n = 0;
    for f in module.functions.iter_mut() {
        let refers = f.dfg.ext_funcs.values().any(|e| missing.contains(&e.name));
        if !refers || is_trap_body(f) {
            continue;
        }
        let mut stub = ompcc_ir::Function::new(f.name.clone(), f.kind, f.sig.clone());
        let mut b = ompcc_ir::FunctionBuilder::new(&mut stub);
        let entry = b.create_entry_block();
        b.switch_to_block(entry);
        b.ins().trap();
        *f = stub;
        n += 1;
    }
    module.decls.retain(|d| !missing.contains(&d.name));
    n
}

/// The device library as one unit preprocessed by `cc -E`, as the driver prepares it.
fn device_library_source(tmp: &Path) -> Result<String, String> {
    let dir = tmp.join("devlib");
    ompcc_stdlib::write_math_tree(&dir).map_err(|e| e.to_string())?;
    let unit = dir.join("all.c");
    std::fs::write(&unit, ompcc_stdlib::amalgamation()).map_err(|e| e.to_string())?;
    let out = Command::new("cc")
        .arg("-E")
        .arg("-I")
        .arg(&dir)
        .arg(&unit)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn compile_file(
    path: &Path,
    ptxas: Option<&Path>,
    tmp: &Path,
    library: &dyn Fn() -> Result<String, String>,
    counts: &mut Counts,
) -> Vec<String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let out = match Command::new("cc")
        .args(["-E", "-fopenmp"])
        .arg(path)
        .output()
    {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            return vec![format!(
                "{name}: cc -E failed: {}",
                String::from_utf8_lossy(&o.stderr)
            )];
        }
        Err(e) => return vec![format!("{name}: cannot run cc: {e}")],
    };
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (tu, _sm, pd) = ompcc_syntax::parse_translation_unit(&text, &name);
    let Some(tu) = tu.filter(|_| !pd.iter().any(|d| d.is_error())) else {
        return vec![format!("{name}: rejected by the parser")];
    };
    let (typed, sd) = ompcc_sema::check(&tu);
    if sd.iter().any(|d| d.is_error()) {
        return vec![format!("{name}: rejected by sema")];
    }
    counts.files += 1;
    let (mut module, diags) = lower_functions(
        &tu,
        &typed,
        &FunctionSelection::All,
        &LowerOptions::default(),
    );
    let mut fails: Vec<String> = diags
        .iter()
        .filter(|d| d.code == "E0899")
        .map(|d| format!("{name}: {}", d.message))
        .collect();
    for d in diags.iter().filter(|d| d.is_error()) {
        *counts.by_code.entry(d.code.to_string()).or_default() += 1;
    }
    let diagnosed = module.functions.iter().filter(|f| is_trap_body(f)).count();
    counts.diagnosed += diagnosed;
    let unresolved = set_aside_unresolved_callers(&mut module);
    counts.unresolved += unresolved;
    counts.clean += module.functions.len() - diagnosed - unresolved;
    let mut pm = ompcc_opt::PassManager::new(ompcc_opt::pipeline_for_level(2));
    pm.verify = true;
    if let Err(e) = pm.run_module(&mut module) {
        fails.push(format!("{name}: -O2: {e}"));
        return fails;
    }
    if let Err(e) = ompcc_devlib::link_device_library(&mut module, Some("2"), &library) {
        fails.push(format!("{name}: device library: {e}"));
        return fails;
    }
    let ptx = match ompcc_ptx::emit_module(&module, &ompcc_ptx::PtxOptions::default()) {
        Ok(p) => p,
        Err(e) => {
            fails.push(format!("{name}: PTX emission: {e}"));
            return fails;
        }
    };
    let Some(ptxas) = ptxas else { return fails };
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let file = tmp.join(format!("{stem}.ptx"));
    if let Err(e) = std::fs::write(&file, &ptx) {
        fails.push(format!("{name}: cannot write PTX: {e}"));
        return fails;
    }
    let children: Vec<_> = ARCHS
        .iter()
        .map(|arch| {
            let c = Command::new(ptxas)
                .args(["-arch", arch, "-o"])
                .arg(tmp.join(format!("{stem}.{arch}.cubin")))
                .arg(&file)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn();
            (arch, c)
        })
        .collect();
    for (arch, child) in children {
        match child.and_then(|c| c.wait_with_output()) {
            Ok(o) if o.status.success() => {}
            Ok(o) => fails.push(format!(
                "{name} {arch}: ptxas failed:\n{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => fails.push(format!("{name}: cannot run ptxas: {e}")),
        }
    }
    fails
}

#[test]
fn corpus_functions_compile_to_ptx_that_ptxas_accepts() {
    let ptxas = find_ptxas();
    if ptxas.is_none() {
        assert!(
            !require_ptxas(),
            "ptxas is required (OMPCC_REQUIRE_PTXAS=1) but not found"
        );
        eprintln!("note: ptxas not found; PTX is emitted but not assembled");
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testsuite/corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let tmp = tempfile::tempdir().expect("tempdir");
    let library_text = std::sync::OnceLock::new();
    let library = || {
        library_text
            .get_or_init(|| device_library_source(tmp.path()))
            .clone()
    };
    let mut counts = Counts::default();
    let mut fails = Vec::new();
    for f in &files {
        fails.extend(compile_file(
            f,
            ptxas.as_deref(),
            tmp.path(),
            &library,
            &mut counts,
        ));
    }
    eprintln!(
        "corpus: {} files, {} functions compiled to PTX; excluded: {} with device diagnostics, \
         {} calling functions no device module provides",
        counts.files, counts.clean, counts.diagnosed, counts.unresolved
    );
    for (code, n) in &counts.by_code {
        eprintln!("  {code}: {n}");
    }
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
    assert_eq!(
        counts.files,
        files.len(),
        "every corpus file passes the frontend"
    );
    let total = counts.clean + counts.diagnosed + counts.unresolved;
    assert!(
        counts.clean * 2 > total,
        "only {} of {total} functions compile cleanly",
        counts.clean
    );
}
