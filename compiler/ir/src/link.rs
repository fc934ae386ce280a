//! Module linking: joins a library module into a program module (the device math library into
//! a unit's device code), renames symbols, and drops what nothing references.
//!
//! Rules of [`link`]: a definition replaces a declaration of the same name (in either module;
//! an `extern` declaration's linkage entry goes with it);
//! an exported symbol defined in both is an error; an internal symbol of the library that
//! clashes with any name of the program is renamed (with every reference to it in the
//! library); the library's source files are appended to the program's file table and its
//! source locations renumbered. Invariant: when both inputs verify, the result verifies.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::function::{Linkage, Module};

/// Renames function or global `from` to `to` in `m`: its definition or declaration, its
/// linkage entry and every reference to it. No-op when `from` is absent.
pub fn rename_symbol(m: &mut Module, from: &str, to: &str) {
    let mut map = FxHashMap::default();
    map.insert(from.to_owned(), to.to_owned());
    rename_all(m, &map);
}

fn rename_all(m: &mut Module, map: &FxHashMap<String, String>) {
    let new_name = |name: &mut String| {
        if let Some(to) = map.get(name.as_str()) {
            *name = to.clone();
        }
    };
    for f in &mut m.functions {
        new_name(&mut f.name);
        for (_, ext) in f.dfg.ext_funcs.iter_mut() {
            new_name(&mut ext.name);
        }
        for (_, g) in f.dfg.globals.iter_mut() {
            new_name(&mut g.name);
        }
    }
    for d in &mut m.decls {
        new_name(&mut d.name);
    }
    for g in &mut m.globals {
        new_name(&mut g.name);
    }
    let linkage: Vec<(String, Linkage)> = m.linkage.drain().collect();
    for (mut name, l) in linkage {
        new_name(&mut name);
        m.linkage.insert(name, l);
    }
    let relocs: Vec<(String, Vec<crate::Reloc>)> = m.relocs.drain().collect();
    for (mut name, mut list) in relocs {
        new_name(&mut name);
        for r in &mut list {
            new_name(&mut r.target);
        }
        m.relocs.insert(name, list);
    }
}

/// Every name `m` defines (declarations are not: a definition may replace them).
fn defined_names(m: &Module) -> FxHashSet<String> {
    m.functions
        .iter()
        .map(|f| f.name.clone())
        .chain(m.globals.iter().map(|g| g.name.clone()))
        .collect()
}

/// Links `lib` into `dst`. Returns the names of the globals that came from `lib` (after any
/// renaming), for [`drop_unreferenced`].
pub fn link(dst: &mut Module, mut lib: Module) -> Result<Vec<String>, String> {
    // Internal symbols of the library that clash with the program's names get fresh names.
    let taken = defined_names(dst);
    let mut renames = FxHashMap::default();
    let lib_defined: Vec<String> = lib
        .functions
        .iter()
        .map(|f| f.name.clone())
        .chain(lib.globals.iter().map(|g| g.name.clone()))
        .collect();
    for name in lib_defined.iter().cloned() {
        let clash = taken.contains(&name);
        match lib.linkage_of(&name) {
            Linkage::Internal if clash => {
                let mut n = 1;
                let fresh = loop {
                    // PTX names allow letters, digits, `_` and `$` only.
                    let candidate = format!("{name}_{n}");
                    if !taken.contains(&candidate)
                        && !lib_defined.contains(&candidate)
                        && !dst.decls.iter().any(|d| d.name == candidate)
                    {
                        break candidate;
                    }
                    n += 1;
                };
                renames.insert(name, fresh);
            }
            Linkage::Export | Linkage::Extern if clash => {
                return Err(format!("symbol '{name}' is defined in both modules"));
            }
            _ => {}
        }
    }
    if !renames.is_empty() {
        rename_all(&mut lib, &renames);
    }
    // Source files: the library's indices follow the program's.
    let file_map: Vec<u32> = lib.files.iter().map(|f| dst.add_file(f)).collect();
    for f in &mut lib.functions {
        let insts: Vec<_> = f.srclocs.keys().collect();
        for inst in insts {
            let loc = &mut f.srclocs[inst];
            if loc.line != 0 {
                loc.file = file_map.get(loc.file as usize).copied().unwrap_or(0);
            }
        }
    }
    // Definitions replace declarations, both ways.
    let lib_fns: FxHashSet<String> = lib.functions.iter().map(|f| f.name.clone()).collect();
    dst.decls.retain(|d| !lib_fns.contains(&d.name));
    // A definition is never `extern`: a replaced declaration's entry goes with it.
    for name in &lib_fns {
        if dst.linkage_of(name) == Linkage::Extern {
            dst.linkage.remove(name);
        }
    }
    let added_globals: Vec<String> = lib.globals.iter().map(|g| g.name.clone()).collect();
    for d in lib.decls {
        if dst.function(&d.name).is_none() && !dst.decls.iter().any(|x| x.name == d.name) {
            dst.decls.push(d);
        }
    }
    dst.functions.extend(lib.functions);
    dst.globals.extend(lib.globals);
    for (name, l) in lib.linkage {
        if l == Linkage::Extern && dst.function(&name).is_some() {
            continue;
        }
        dst.linkage.entry(name).or_insert(l);
    }
    dst.relocs.extend(lib.relocs);
    Ok(added_globals)
}

/// Removes the functions no root reaches through calls, the declarations no remaining
/// function declares, and the globals among `droppable` that no remaining function uses.
/// `root` says which functions are kept whatever calls them.
pub fn drop_unreferenced(
    m: &mut Module,
    root: impl Fn(&crate::Function) -> bool,
    droppable: &[String],
) {
    let index: FxHashMap<&str, usize> = m
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let kept_anyway = |g: &str| !droppable.iter().any(|d| d == g);
    let mut live = vec![false; m.functions.len()];
    let mut live_globals: FxHashSet<&str> = m
        .globals
        .iter()
        .map(|g| g.name.as_str())
        .filter(|g| kept_anyway(g))
        .collect();
    let mut work: Vec<usize> = (0..m.functions.len())
        .filter(|&i| root(&m.functions[i]))
        .collect();
    let mut global_work: Vec<&str> = live_globals.iter().copied().collect();
    // Functions reach functions (calls, addresses) and globals; globals reach what their
    // initializers' relocations name.
    while !work.is_empty() || !global_work.is_empty() {
        while let Some(i) = work.pop() {
            if std::mem::replace(&mut live[i], true) {
                continue;
            }
            let f = &m.functions[i];
            work.extend(callees(f).filter_map(|n| index.get(n).copied()));
            for (_, g) in f.dfg.globals.iter() {
                if live_globals.insert(g.name.as_str()) {
                    global_work.push(g.name.as_str());
                }
            }
        }
        while let Some(g) = global_work.pop() {
            for r in m.relocs.get(g).into_iter().flatten() {
                if let Some(&j) = index.get(r.target.as_str()) {
                    work.push(j);
                } else if live_globals.insert(r.target.as_str()) {
                    global_work.push(r.target.as_str());
                }
            }
        }
    }
    let live_globals: FxHashSet<String> = live_globals.into_iter().map(str::to_owned).collect();
    let mut n = 0;
    m.functions.retain(|_| {
        n += 1;
        live[n - 1]
    });
    // The verifier wants every callee a preamble declares to exist, called or not.
    // So does a live initializer holding the address of another unit's function.
    let called: FxHashSet<&str> = m
        .functions
        .iter()
        .flat_map(|f| f.dfg.ext_funcs.iter().map(|(_, e)| e.name.as_str()))
        .chain(
            m.relocs
                .iter()
                .filter(|(g, _)| live_globals.contains(g.as_str()))
                .flat_map(|(_, rs)| rs.iter().map(|r| r.target.as_str())),
        )
        .collect();
    let keep_decls: FxHashSet<String> = m
        .decls
        .iter()
        .filter(|d| called.contains(d.name.as_str()))
        .map(|d| d.name.clone())
        .collect();
    m.decls.retain(|d| keep_decls.contains(&d.name));
    m.globals.retain(|g| live_globals.contains(&g.name));
    m.relocs.retain(|g, _| live_globals.contains(g));
}

/// The functions `f` refers to: every function its preamble names. A preamble entry may
/// outlive the calls that needed it (a trapping body, a call folded away), but the
/// verifier and the PTX writer want every entry to name a function of the module, so an
/// entry keeps its function alive.
fn callees(f: &crate::Function) -> impl Iterator<Item = &str> {
    f.dfg.ext_funcs.values().map(|e| e.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_module;

    #[test]
    fn definitions_replace_declarations_and_internal_clashes_are_renamed() {
        let mut prog = parse_module(
            "global @tab: global, size 4, align 4\n\
             declare @sin(f64) -> f64\n\
             kernel @k(f64) {\n    fn0 = func @sin(f64) -> f64\n\
             block0(v0: f64):\n    v1 = call fn0(v0)\n    return\n}\n",
        )
        .unwrap();
        let lib = parse_module(
            "internal global @tab: global, size 8, align 8\n\
             func @sin(f64) -> f64 {\n    gv0 = global @tab: global\n\
             block0(v0: f64):\n    v1 = global_addr gv0\n    v2 = load.f64 global align 8 v1\n    \
             v3 = fadd v0, v2\n    return v3\n}\n\
             func @unused(f64) -> f64 {\nblock0(v0: f64):\n    return v0\n}\n",
        )
        .unwrap();
        let added = link(&mut prog, lib).unwrap();
        assert_eq!(added, ["tab_1"]);
        assert!(prog.decls.is_empty());
        crate::verify_module(&prog).unwrap();
        let text = prog.to_string();
        assert!(text.contains("internal global @tab_1"), "{text}");
        assert!(text.contains("gv0 = global @tab_1"), "{text}");
        drop_unreferenced(&mut prog, |f| f.kind == crate::FuncKind::Kernel, &added);
        assert!(prog.function("sin").is_some() && prog.function("unused").is_none());
        assert_eq!(prog.globals.len(), 2);
        rename_symbol(&mut prog, "sin", "__ompcc_sin");
        let text = prog.to_string();
        assert!(text.contains("fn0 = func @__ompcc_sin"), "{text}");
        crate::verify_module(&prog).unwrap();
    }

    #[test]
    fn relocations_move_with_the_library_and_keep_their_targets() {
        let mut prog = parse_module(
            "declare @get() -> i64\n\
             kernel @k() {\n    fn0 = func @get() -> i64\n\
             block0:\n    v0 = call fn0()\n    return\n}\n",
        )
        .unwrap();
        let lib = parse_module(
            "internal global @table: global, size 8, align 8 = [01 02 03 04 05 06 07 08]\n\
             internal global @at: global, size 8, align 8 relocs [0: @table+4]\n\
             internal global @unused: global, size 8, align 8 relocs [0: @table]\n\
             func @get() -> i64 {\n    gv0 = global @at: global\n\
             block0:\n    v0 = global_addr gv0\n    v1 = load.i64 global align 8 v0\n    return v1\n}\n",
        )
        .unwrap();
        let added = link(&mut prog, lib).unwrap();
        drop_unreferenced(&mut prog, |f| f.kind == crate::FuncKind::Kernel, &added);
        crate::verify_module(&prog).unwrap();
        let text = prog.to_string();
        assert!(text.contains("relocs [0: @table+4]"), "{text}");
        assert!(
            text.contains("global @table") && !text.contains("@unused"),
            "{text}"
        );
    }

    /// An initializer holding the address of another unit's function keeps its `extern`
    /// declaration (nothing calls it here).
    #[test]
    fn an_extern_function_named_by_a_live_relocation_stays_declared() {
        let mut prog = parse_module(
            "extern declare @sq(f64) -> f64\n\
             extern declare @gone(f64) -> f64\n\
             global @ops: global, size 8, align 8 relocs [0: @sq]\n\
             kernel @k() {\n    gv0 = global @ops: global\n\
             block0:\n    v0 = global_addr gv0\n    return\n}\n",
        )
        .unwrap();
        crate::verify_module(&prog).unwrap();
        drop_unreferenced(&mut prog, |f| f.kind == crate::FuncKind::Kernel, &[]);
        crate::verify_module(&prog).unwrap();
        let names: Vec<&str> = prog.decls.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["sq"]);
    }

    #[test]
    fn a_function_named_by_a_preamble_stays() {
        let mut prog = parse_module(
            "kernel @k() {\n    fn0 = func @gone(f64) -> f64\n\
             block0:\n    trap\n}\n\
             func @gone(f64) -> f64 {\nblock0(v0: f64):\n    return v0\n}\n",
        )
        .unwrap();
        drop_unreferenced(&mut prog, |f| f.kind == crate::FuncKind::Kernel, &[]);
        crate::verify_module(&prog).unwrap();
    }

    #[test]
    fn a_function_whose_address_is_taken_stays() {
        let mut prog = parse_module(
            "kernel @k() {\n    fn0 = func @pick(f64) -> f64\n\
             block0:\n    v0 = func_addr fn0\n    return\n}\n\
             func @pick(f64) -> f64 {\nblock0(v0: f64):\n    return v0\n}\n",
        )
        .unwrap();
        drop_unreferenced(&mut prog, |f| f.kind == crate::FuncKind::Kernel, &[]);
        assert!(prog.function("pick").is_some(), "{prog}");
        crate::verify_module(&prog).unwrap();
    }

    #[test]
    fn a_definition_replaces_an_extern_declaration_in_either_module() {
        let user = "extern declare @w(i32) -> i32\n\
                    kernel @k(i32) {\n    fn0 = func @w(i32) -> i32\n\
                    block0(v0: i32):\n    v1 = call fn0(v0)\n    return\n}\n";
        let def = "func @w(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n";
        let mut prog = parse_module(user).unwrap();
        link(&mut prog, parse_module(def).unwrap()).unwrap();
        assert!(prog.decls.is_empty());
        assert_eq!(prog.linkage_of("w"), Linkage::Export);
        crate::verify_module(&prog).unwrap();
        let mut prog = parse_module(def).unwrap();
        link(&mut prog, parse_module(user).unwrap()).unwrap();
        assert_eq!(prog.linkage_of("w"), Linkage::Export);
        crate::verify_module(&prog).unwrap();
    }

    #[test]
    fn an_exported_symbol_defined_twice_is_an_error() {
        let src = "func @f() {\nblock0:\n    return\n}\n";
        let mut a = parse_module(src).unwrap();
        let b = parse_module(src).unwrap();
        assert!(link(&mut a, b).unwrap_err().contains("'f'"));
    }
}
