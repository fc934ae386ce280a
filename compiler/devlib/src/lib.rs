//! The device C library, linked into a device module.
//!
//! When device code calls a C library function that `ompcc_stdlib` provides (`sin`,
//! `strlen`, ...), the call is an external declaration in the IR. [`link_device_library`]
//! compiles the library with ompcc's own stages (parse, check, lower, optimize), renames the
//! calls to the library's symbols (`sin` -> `__ompcc_sin`), links it with internal linkage
//! (every unit carries its own copy, so separately compiled units never clash) and drops the
//! library functions nothing calls. Declarations the library does not provide stay as they
//! are.
//!
//! The library is optimized apart from user code, at the same -O level but with
//! `fp-contract=off`: its error bounds (stdlib/ACCURACY.md) hold for separately rounded
//! products only. So it is linked after the user module's pipeline, and its functions stay
//! calls. The caller supplies the library as one preprocessed unit (the sources include
//! their own headers; see `ompcc_stdlib::amalgamation`), asked for only when it is needed.
//!
//! Compiling the library costs more than most units' own device code, and its result depends
//! only on the library's text, the -O level and the functions wanted: a [`LibrarySource`] may
//! keep compiled libraries (as IR text) and hand them back, and then the text is never asked
//! for.

use ompcc_ir::{Linkage, Module};

/// Prototypes for the exact builtins the library uses that sema does not predeclare.
const BUILTIN_PROTOTYPES: &str = "double __builtin_rint(double); float __builtin_rintf(float);\n";

/// Why linking failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// The library's source could not be produced (the preprocessor failed): the message of
    /// `source`.
    Source(String),
    /// The library did not compile or link: a bug in ompcc, not in the user's program.
    Internal(String),
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::Source(m) => f.write_str(m),
            LinkError::Internal(m) => write!(f, "internal compiler error: device library: {m}"),
        }
    }
}

/// Where the library comes from: its preprocessed text and, optionally, a store of libraries
/// compiled before.
pub trait LibrarySource {
    /// The library as one preprocessed unit.
    fn text(&self) -> Result<String, String>;
    /// Whether [`LibrarySource::keep`] keeps anything (else no IR text is made for it).
    fn keeps(&self) -> bool {
        false
    }
    /// The IR text kept by [`LibrarySource::keep`] under `key`, if there is one.
    fn kept(&self, _key: &str) -> Option<String> {
        None
    }
    /// Keeps the IR text of a library compiled for `key`.
    fn keep(&self, _key: &str, _ir: &str) {}
}

/// A plain function giving the text keeps nothing.
impl<F: Fn() -> Result<String, String>> LibrarySource for F {
    fn text(&self) -> Result<String, String> {
        self()
    }
}

/// Links the device library into `module` if its code calls library functions; a no-op
/// (and `source` is not called) otherwise. `opt_level` is the -O level the library is
/// optimized at (`None`: not optimized, for `--emit=ir`).
pub fn link_device_library(
    module: &mut Module,
    opt_level: Option<&str>,
    source: &dyn LibrarySource,
) -> Result<(), LinkError> {
    let used: Vec<(String, &'static str)> = module
        .decls
        .iter()
        .filter_map(|d| ompcc_stdlib::device_symbol(&d.name).map(|s| (d.name.clone(), s)))
        .collect();
    if used.is_empty() {
        return Ok(());
    }
    let wanted: Vec<String> = used.iter().map(|(_, s)| s.to_string()).collect();
    let mut lib = compiled_library(source, opt_level, wanted)?;
    let lib_names: Vec<String> = lib
        .functions
        .iter()
        .map(|f| f.name.clone())
        .chain(lib.globals.iter().map(|g| g.name.clone()))
        .collect();
    for name in &lib_names {
        lib.linkage.insert(name.clone(), Linkage::Internal);
    }
    for (c_name, symbol) in &used {
        ompcc_ir::link::rename_symbol(module, c_name, symbol);
    }
    let added = ompcc_ir::link::link(module, lib).map_err(LinkError::Internal)?;
    ompcc_ir::link::drop_unreferenced(module, |f| !lib_names.contains(&f.name), &added);
    Ok(())
}

/// The library compiled for `opt_level` and `wanted`: the one `source` kept, else compiled
/// from its text (and kept).
fn compiled_library(
    source: &dyn LibrarySource,
    opt_level: Option<&str>,
    wanted: Vec<String>,
) -> Result<Module, LinkError> {
    let key = library_key(opt_level, &wanted);
    if let Some(lib) = source
        .kept(&key)
        .and_then(|ir| ompcc_ir::parse_module(&ir).ok())
    {
        return Ok(lib);
    }
    let mut text = source.text().map_err(LinkError::Source)?;
    text.insert_str(0, BUILTIN_PROTOTYPES);
    let lib = compile(&text, opt_level, wanted).map_err(LinkError::Internal)?;
    if source.keeps() {
        let ir = ompcc_ir::module_to_string(&lib, ompcc_ir::WriteOptions::default());
        // what is kept must read back as the same module, or it is not kept
        if ompcc_ir::parse_module(&ir)
            .is_ok_and(|again| ompcc_ir::module_to_string(&again, Default::default()) == ir)
        {
            source.keep(&key, &ir);
        }
    }
    Ok(lib)
}

/// What a compiled library depends on besides the library's text: the -O level and the
/// functions wanted, in the order asked (which lowering's output follows).
fn library_key(opt_level: Option<&str>, wanted: &[String]) -> String {
    format!("O{} {}", opt_level.unwrap_or("-"), wanted.join(","))
}

/// The library's IR: the functions `wanted` of the preprocessed `text` and what they call,
/// optimized at `opt_level` without fp contraction (lowering and optimizing only those keeps
/// a unit that calls `sin` from paying for all of the library). Optimized before its linkage
/// becomes internal: the inliner may delete internal functions it inlined everywhere, and
/// user code still calls them.
fn compile(text: &str, opt_level: Option<&str>, wanted: Vec<String>) -> Result<Module, String> {
    let (tu, _, parse_diags) = ompcc_syntax::parse_translation_unit(text, "ompcc-devlib.c");
    let tu = match tu {
        Some(tu) if !parse_diags.iter().any(|d| d.is_error()) => tu,
        _ => return Err("it does not parse".into()),
    };
    let (typed, sema_diags) = ompcc_sema::check(&tu);
    if let Some(d) = sema_diags.iter().find(|d| d.is_error()) {
        return Err(format!("it does not type-check: {}", d.message));
    }
    let (mut lib, diags) = ompcc_lower::lower_functions(
        &tu,
        &typed,
        &ompcc_lower::FunctionSelection::Named(wanted),
        &ompcc_lower::LowerOptions::default(),
    );
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(format!("it does not lower to IR: {}", d.message));
    }
    if let Some(level) = opt_level {
        let mut pm = ompcc_opt::PassManager::new(ompcc_opt::pipeline_for_opt(level)?);
        pm.set_knobs(level, &[("fp-contract".into(), "off".into())])?;
        pm.verify = true;
        pm.run_module(&mut lib)
            .map_err(|e| format!("optimizing it: {e}"))?;
    }
    Ok(lib)
}
