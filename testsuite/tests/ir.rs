//! File tests for the IR: every `testsuite/ir/**/*.ir` file is parsed, round-tripped through
//! the printer and parser, and run through the subtests its header names:
//!
//! - `; test: verify` — the verifier's errors must be exactly the `; error: <text>` comments
//!   written at the end of the offending lines (each text a substring of the message); with no
//!   such comments the module must verify.
//! - `; test: print` / `; test: print-renumbered` — the printed module, matched by `; check:`
//!   lines (the `filecheck` crate's directives).
//! - `; test: cfg` / `; test: domtree` / `; test: loops` / `; test: scev` — a dump of the
//!   analysis per function, matched by `; check:` lines.
//! - `; run: pass1, pass2` — runs the passes (ompcc-opt) on every function, verifying after
//!   each, then prints the module for the `; check:` lines; the result must round-trip too.
//! - `; eval: @f(1, 2.5) == 3` (or `; eval: @f(0) fails <text>`) — runs `@f` in the reference interpreter (`ompcc_ir::interp`)
//!   and compares the results; in a file with `; run:` lines it is checked both before and
//!   after the passes, so each pass test is also a semantic test.
//! - `; knobs: inline-threshold=5, unroll-count=2` — with `; run:`, sets those pass knobs
//!   (`-C key=value`) on top of the -O2 defaults.
//! - `; remarks: pass1, pass2` (or `all`) — with `; run:`, collects those passes' optimization
//!   remarks (`; remarks-missed:` and `; remarks-analysis:` their missed-optimization and
//!   analysis remarks, `[-Rpass-missed=NAME]`, `[-Rpass-analysis=NAME]`);
//!   they are printed as `remark: @f: message [-Rpass=NAME]` lines (plus ` !loc F:L:C`
//!   when the remark has a location) before the module that run produced.
//! - `; test: parse-error` — the file must not parse; the `line:col: message` error is matched
//!   by `; check:` lines (no round trip).
//!
//! The outputs of all dumping subtests of a file are concatenated in header order and matched
//! by one filecheck run. All failures are collected and reported together.

use filecheck::CheckerBuilder;
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree, LoopAnalysis};
use ompcc_ir::interp::{DataValue, Interpreter};
use ompcc_ir::{
    ErrorLocation, Function, Module, WriteOptions, module_to_string, parse_module,
    parse_module_with_locations, verify_module,
};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn ir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            ir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ir") {
            out.push(p);
        }
    }
}

/// Lines that are only a comment, without the leading `;`.
fn comment_lines(src: &str) -> impl Iterator<Item = &str> {
    src.lines()
        .filter_map(|l| l.trim_start().strip_prefix(';').map(str::trim))
}

fn filecheck(src: &str, output: &str) -> Result<(), String> {
    let mut b = CheckerBuilder::new();
    let mut any = false;
    for l in src.lines() {
        if l.trim_start().starts_with(';') {
            any |= b
                .directive(l)
                .map_err(|e| format!("bad directive `{l}`: {e}"))?;
        }
    }
    if !any {
        return Err("no `; check:` directives".into());
    }
    let checker = b.finish();
    let (ok, explain) = checker
        .explain(output, filecheck::NO_VARIABLES)
        .map_err(|e| e.to_string())?;
    if ok {
        Ok(())
    } else {
        Err(format!("filecheck failed on:\n{output}\n{explain}"))
    }
}

fn round_trip(m: &Module) -> Result<(), String> {
    let text = module_to_string(m, WriteOptions::default());
    let again =
        parse_module(&text).map_err(|e| format!("printed text does not parse: {e}\n{text}"))?;
    let text2 = module_to_string(&again, WriteOptions::default());
    if text != text2 {
        return Err(format!(
            "round trip changed the text:\n{text}\n---\n{text2}"
        ));
    }
    let opts = WriteOptions {
        renumber: true,
        annotations: None,
    };
    let ren = module_to_string(m, opts);
    let again =
        parse_module(&ren).map_err(|e| format!("renumbered text does not parse: {e}\n{ren}"))?;
    if module_to_string(&again, opts) != ren {
        return Err(format!("renumbered round trip changed the text:\n{ren}"));
    }
    Ok(())
}

fn verify_test(src: &str) -> Result<(), String> {
    let (m, map) = parse_module_with_locations(src).map_err(|e| e.to_string())?;
    // Expected errors: (line, text, matched).
    let mut expected: Vec<(u32, String, bool)> = Vec::new();
    for (i, l) in src.lines().enumerate() {
        if let Some((code, c)) = l.split_once(';')
            && let Some(t) = c.trim().strip_prefix("error:")
        {
            if code.trim().is_empty() {
                return Err(format!(
                    "line {}: `; error:` must follow the offending code",
                    i + 1
                ));
            }
            expected.push((i as u32 + 1, t.trim().to_string(), false));
        }
    }
    let errors = verify_module(&m).err().unwrap_or_default();
    let mut problems = String::new();
    for e in &errors {
        let line = match e.location {
            ErrorLocation::Global(i) => map.globals.get(i).map(|l| l.line),
            ErrorLocation::Decl(i) => map.decls.get(i).map(|l| l.line),
            ErrorLocation::Function(f, ent) => map.functions.get(f).and_then(|locs| {
                locs.get(&ent)
                    .or_else(|| locs.get(&ompcc_ir::AnyEntity::Function))
                    .map(|l| l.line)
            }),
        };
        let hit = expected
            .iter_mut()
            .find(|(l, t, _)| Some(*l) == line && e.message.contains(t.as_str()));
        match hit {
            Some(h) => h.2 = true,
            None => {
                let _ = writeln!(problems, "unexpected error at line {line:?}: {e}");
            }
        }
    }
    for (l, t, matched) in &expected {
        if !matched {
            let _ = writeln!(problems, "expected error at line {l} not reported: {t}");
        }
    }
    if !problems.is_empty() {
        for (i, f) in m.functions.iter().enumerate() {
            let errs: Vec<_> = errors
                .iter()
                .filter(|e| matches!(e.location, ErrorLocation::Function(j, _) if j == i))
                .cloned()
                .collect();
            problems.push_str(&ompcc_ir::annotate(f, &errs));
        }
        return Err(problems);
    }
    Ok(())
}

/// Checks every `; eval:` line of `src` against `m`.
fn eval_lines(src: &str, m: &Module, when: &str) -> Result<usize, String> {
    let mut n = 0;
    for line in comment_lines(src) {
        let Some(e) = line.strip_prefix("eval:") else {
            continue;
        };
        let bad = || {
            format!(
                "malformed eval `{e}` (expected `@f(args) == results` or `@f(args) fails <text>`)"
            )
        };
        let (call, expect, fails) = match e.split_once("==") {
            Some((c, x)) => (c, x, None),
            None => {
                let (c, x) = e.split_once(" fails ").ok_or_else(bad)?;
                (c, "", Some(x.trim()))
            }
        };
        let call = call.trim().strip_prefix('@').ok_or_else(bad)?;
        let (name, args) = call.split_once('(').ok_or_else(bad)?;
        let args = args.trim().strip_suffix(')').ok_or_else(bad)?;
        let f = m
            .function(name)
            .ok_or_else(|| format!("eval: no function @{name}"))?;
        let split = |s: &str| -> Vec<String> {
            s.split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect()
        };
        let parse = |tys: &[ompcc_ir::Type], vals: Vec<String>| -> Result<Vec<DataValue>, String> {
            if tys.len() != vals.len() {
                return Err(format!("eval `{e}`: expected {} values", tys.len()));
            }
            tys.iter()
                .zip(&vals)
                .map(|(t, v)| DataValue::parse(*t, v).ok_or_else(|| format!("eval: bad {t} `{v}`")))
                .collect()
        };
        let args = parse(&f.sig.params, split(args))?;
        let mut it = Interpreter::new(m).map_err(|e| e.to_string())?;
        // Enough for every test program; keeps the infinite-loop tests fast.
        it.steps_left = 1_000_000;
        if let Some(text) = fails {
            match it.call(name, &args) {
                Err(err) if err.to_string().contains(text) => {}
                Err(err) => return Err(format!("eval `{e}` {when}: failed with `{err}`")),
                Ok(_) => return Err(format!("eval `{e}` {when}: did not fail")),
            }
            n += 1;
            continue;
        }
        let want = parse(&f.sig.returns, split(expect))?;
        let got = it
            .call(name, &args)
            .map_err(|err| format!("eval `{e}` {when}: {err}"))?;
        if got.len() != want.len() || got.iter().zip(&want).any(|(g, w)| !g.same(*w)) {
            let shown: Vec<String> = got.iter().map(|g| g.to_string()).collect();
            return Err(format!("eval `{e}` {when}: got {}", shown.join(", ")));
        }
        n += 1;
    }
    Ok(n)
}

fn names(bs: impl IntoIterator<Item = ompcc_ir::Block>) -> String {
    bs.into_iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn dump_cfg(f: &Function, out: &mut String) {
    let cfg = ControlFlowGraph::compute(f);
    let _ = writeln!(out, "function @{}", f.name);
    for b in f.layout.blocks() {
        let _ = writeln!(
            out,
            "{b}: preds [{}] succs [{}]",
            names(cfg.pred_blocks(b)),
            names(cfg.succs(b).iter().copied())
        );
    }
}

fn dump_domtree(f: &Function, out: &mut String) {
    let cfg = ControlFlowGraph::compute(f);
    let dt = DominatorTree::compute(f, &cfg);
    let _ = writeln!(out, "function @{}", f.name);
    let _ = writeln!(out, "rpo [{}]", names(dt.rpo().iter().copied()));
    for b in f.layout.blocks() {
        if !dt.is_reachable(b) {
            let _ = writeln!(out, "{b}: unreachable");
        } else {
            match dt.idom(b) {
                Some(d) => {
                    let _ = writeln!(out, "{b}: idom {d}");
                }
                None => {
                    let _ = writeln!(out, "{b}: entry");
                }
            }
        }
    }
}

fn dump_loops(f: &Function, out: &mut String) {
    let cfg = ControlFlowGraph::compute(f);
    let dt = DominatorTree::compute(f, &cfg);
    let la = LoopAnalysis::compute(&cfg, &dt);
    let _ = writeln!(out, "function @{}", f.name);
    for (i, l) in la.loops().iter().enumerate() {
        let _ = writeln!(
            out,
            "loop{i}: header {} depth {} parent {} preheader {} latches [{}] blocks [{}]",
            l.header,
            l.depth,
            l.parent.map_or("-".to_string(), |p| format!("loop{p}")),
            l.preheader.map_or("-".to_string(), |p| p.to_string()),
            names(l.latches.iter().copied()),
            names(l.blocks.iter().copied()),
        );
    }
    for (a, b) in la.irreducible_edges() {
        let _ = writeln!(out, "irreducible {a} -> {b}");
    }
}

fn dump_scev(f: &Function, out: &mut String) {
    let cfg = ControlFlowGraph::compute(f);
    let dt = DominatorTree::compute(f, &cfg);
    let la = LoopAnalysis::compute(&cfg, &dt);
    let _ = writeln!(out, "function @{}", f.name);
    for (i, l) in la.loops().iter().enumerate() {
        let s = ompcc_ir::analysis::LoopScev::compute(f, &cfg, l);
        let _ = writeln!(out, "loop{i}: header {}", l.header);
        for iv in &s.ivs {
            let _ = writeln!(
                out,
                "  iv {} = {{{}, +, {}}} next {}",
                iv.param, iv.start, iv.step, iv.next
            );
        }
        match s.exit {
            Some(e) => {
                let iv = s.ivs[e.iv];
                let x = if e.uses_next { iv.next } else { iv.param };
                let _ = writeln!(
                    out,
                    "  exit at {}: continue while {x} {} {}",
                    e.block, e.cc, e.bound
                );
            }
            None => {
                let _ = writeln!(out, "  exit unknown");
            }
        }
        match s.constant_trip_count(f, 1 << 16) {
            Some(t) => {
                let _ = writeln!(out, "  trips {t}");
            }
            None => {
                let _ = writeln!(out, "  trips unknown");
            }
        }
    }
}

fn run_file(path: &Path) -> Result<usize, String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let tests: Vec<&str> = comment_lines(&src)
        .filter_map(|c| c.strip_prefix("test:").map(str::trim))
        .collect();
    let has_run = comment_lines(&src).any(|c| c.starts_with("run:") || c.starts_with("eval:"));
    if tests.is_empty() && !has_run {
        return Err("no `; test:`, `; run:` or `; eval:` line".into());
    }
    if tests == ["parse-error"] {
        return match parse_module(&src) {
            Ok(_) => Err("expected a parse error, but the file parsed".into()),
            Err(e) => filecheck(&src, &e.to_string()).map(|_| 1),
        };
    }
    let m = parse_module(&src).map_err(|e| format!("parse error: {e}"))?;
    round_trip(&m)?;
    let runs: Vec<&str> = comment_lines(&src)
        .filter_map(|c| c.strip_prefix("run:").map(str::trim))
        .collect();
    let evals = eval_lines(&src, &m, "before passes")?;
    // The outputs of all dumping subtests are concatenated in header order and matched by
    // one filecheck run, so `; check:` lines follow that order.
    let mut combined = String::new();
    for t in &tests {
        let out = match *t {
            "verify" => {
                verify_test(&src)?;
                continue;
            }
            "print" => module_to_string(&m, WriteOptions::default()),
            "print-renumbered" => module_to_string(
                &m,
                WriteOptions {
                    renumber: true,
                    annotations: None,
                },
            ),
            "cfg" | "domtree" | "loops" | "scev" => {
                let mut s = String::new();
                for f in &m.functions {
                    match *t {
                        "cfg" => dump_cfg(f, &mut s),
                        "domtree" => dump_domtree(f, &mut s),
                        "scev" => dump_scev(f, &mut s),
                        _ => dump_loops(f, &mut s),
                    }
                }
                s
            }
            other => return Err(format!("unknown test kind `{other}`")),
        };
        combined.push_str(&out);
    }
    let filter = |key: &str| -> Result<Option<ompcc_opt::PrintFilter>, String> {
        match comment_lines(&src).find_map(|c| c.strip_prefix(key)) {
            Some(f) => Ok(Some(ompcc_opt::PrintFilter::parse(f.trim())?)),
            None => Ok(None),
        }
    };
    let kinds = [
        filter("remarks:")?,
        filter("remarks-missed:")?,
        filter("remarks-analysis:")?,
    ];
    let remarks = kinds.iter().any(Option::is_some).then(|| {
        let [p, m, a] = kinds.map(Option::unwrap_or_default);
        ompcc_opt::Remarks::with_kinds(p, m, a)
    });
    if remarks.is_some() && runs.is_empty() {
        return Err("`; remarks:` needs a `; run:` line".into());
    }
    let mut knobs = ompcc_opt::Knobs::default();
    for k in comment_lines(&src).filter_map(|c| c.strip_prefix("knobs:")) {
        knobs.set_list(k)?;
    }
    for r in &runs {
        let passes = ompcc_opt::parse_pipeline(r)?;
        let mut pm = ompcc_opt::PassManager::new(passes);
        pm.verify = true;
        pm.knobs = knobs.clone();
        if let Some(sink) = &remarks {
            pm.remarks = sink.clone();
        }
        let mut opt = m.clone();
        pm.run_module(&mut opt).map_err(|e| e.to_string())?;
        round_trip(&opt)?;
        eval_lines(&src, &opt, &format!("after `{r}`"))?;
        for remark in pm.remarks.remarks() {
            let loc = if remark.loc.is_unknown() {
                String::new()
            } else {
                format!(" !loc {}", remark.loc)
            };
            writeln!(combined, "remark: {remark}{loc}").map_err(|e| e.to_string())?;
        }
        combined.push_str(&module_to_string(&opt, WriteOptions::default()));
    }
    if !combined.is_empty() {
        filecheck(&src, &combined)?;
    }
    Ok(tests.len() + runs.len() + evals)
}

#[test]
fn ir_file_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("ir");
    let mut files = Vec::new();
    ir_files(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .ir files under {}", root.display());
    let mut failures = Vec::new();
    let mut subtests = 0;
    for f in &files {
        match run_file(f) {
            Ok(n) => subtests += n,
            Err(e) => failures.push(format!("{}:\n{e}", f.display())),
        }
    }
    eprintln!(
        "{} IR files, {subtests} subtests, {} failed",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
