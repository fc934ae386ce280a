//! Stage 2: the frontend on one preprocessed unit — parse (ompcc-syntax), check (ompcc-sema),
//! render diagnostics (ompcc-diag), and print a stage for `--emit=tokens|ast`.
//!
//! Every `-fopenmp` unit is parsed and checked, whether or not it has device constructs (later
//! stages, like automatic offload of `parallel for`, need the tree of every unit). For a unit
//! with device constructs our diagnostics are the ones shown and errors stop the build. A unit
//! without them is the host compiler's: the caller runs the frontend quietly and, if it
//! rejects the unit, leaves the unit to the host compiler, so the user sees exactly cc's
//! messages and exit code (a drop-in `cc` must not reword them).

use ompcc_diag::{ColorChoice, Emitter, Severity, SourceMap};
use ompcc_syntax::ast::TranslationUnit;

use crate::cli::{Color, EmitStage};

/// A unit that parsed and type-checked.
pub struct Checked {
    pub tu: TranslationUnit,
    pub typed: ompcc_sema::TypedUnit,
    pub source_map: SourceMap,
    color: ColorChoice,
}

/// The frontend rejected the unit; `diagnostics` is their rendered text (not yet printed: the
/// caller lets the host compiler speak first, see `pipeline::Outcome::Rejected`).
#[derive(Debug)]
pub struct Rejected {
    pub diagnostics: String,
}

/// Diagnostic options the frontend takes from the command line.
pub struct DiagOptions {
    pub color: Color,
    /// Print nothing (a host-only unit: the host compiler reports its problems).
    pub quiet: bool,
    /// Show warnings (units with device constructs).
    pub warnings: bool,
    /// `-Werror`: a shown warning fails the unit.
    pub warnings_are_errors: bool,
}

/// `--emit=tokens`: the token stream as the parser sees it.
pub fn tokens(text: &str, file_name: &str) -> String {
    ompcc_syntax::dump_tokens(text, file_name)
}

/// Parses and checks one unit. On success its warnings are printed; on failure every
/// diagnostic is returned rendered.
pub fn check(text: &str, file_name: &str, opts: &DiagOptions) -> Result<Checked, Rejected> {
    let color = match opts.color {
        Color::Auto => ColorChoice::Auto,
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
    };
    let mut emitter = Emitter::new(color);
    let (tu, source_map, parse_diags) = ompcc_syntax::parse_translation_unit(text, file_name);
    let mut rendered = String::new();
    let mut report = |diags: &[ompcc_diag::Diagnostic], sm: &SourceMap| {
        for d in diags {
            if !opts.quiet && (d.severity != Severity::Warning || opts.warnings) {
                rendered.push_str(&emitter.render(d, sm));
            }
        }
    };
    report(&parse_diags, &source_map);
    let tu = match tu {
        Some(tu) if !has_errors(&parse_diags) => tu,
        _ => {
            return Err(Rejected {
                diagnostics: rendered,
            });
        }
    };
    let (typed, sema_diags) = ompcc_sema::check(&tu);
    report(&sema_diags, &source_map);
    let failed = has_errors(&sema_diags)
        || (opts.warnings_are_errors && opts.warnings && emitter.warning_count() > 0);
    if failed {
        return Err(Rejected {
            diagnostics: rendered,
        });
    }
    eprint!("{rendered}");
    Ok(Checked {
        tu,
        typed,
        source_map,
        color,
    })
}

/// `--emit=ast`: the tree with the type of every expression.
pub fn typed_ast(checked: &Checked, text: &str) -> String {
    ompcc_sema::print_typed(&checked.tu, &checked.typed, text)
}

fn has_errors(diags: &[ompcc_diag::Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

/// The stages this build cannot produce yet.
pub fn later_stage(stage: EmitStage) -> bool {
    stage == EmitStage::HostC
}

/// What the device stages take from the command line.
pub struct DeviceOptions<'a> {
    /// `--device-only`: every function of the unit, not only `declare target` ones.
    pub all_functions: bool,
    /// `--passes=` (instead of the -O pipeline).
    pub passes: Option<&'a str>,
    /// The `-O` level as written.
    pub opt_level: &'a str,
    pub print_after: Option<&'a str>,
    pub time_passes: bool,
    /// `--offload-arch=sm_XX`.
    pub arch: Option<&'a str>,
    /// `-g`: `.loc` line info in the PTX.
    pub line_info: bool,
}

/// `--emit=ir|ir-opt|ptx`: lower the device functions, optimize, emit PTX; returns the text
/// of the requested stage. Lowering diagnostics are printed; `Err` means the unit failed
/// (the message, if any, is for `ompcc: error:`).
pub fn device_stage(
    checked: &Checked,
    stage: EmitStage,
    opts: &DeviceOptions<'_>,
) -> Result<String, Option<String>> {
    use ompcc_lower::{FunctionSelection, LowerOptions, lower_functions};
    let which = if opts.all_functions {
        FunctionSelection::All
    } else {
        FunctionSelection::DeclareTarget
    };
    let (mut module, diags) = lower_functions(
        &checked.tu,
        &checked.typed,
        &which,
        &LowerOptions {
            // Source locations only when they are asked for, so `--emit=ir` stays terse.
            source_map: opts.line_info.then_some(&checked.source_map),
            ..LowerOptions::default()
        },
    );
    let mut emitter = Emitter::new(checked.color);
    for d in &diags {
        emitter.emit(d, &checked.source_map);
    }
    if emitter.error_count() > 0 {
        return Err(None);
    }
    if stage == EmitStage::Ir {
        return Ok(module.to_string());
    }
    let passes = match opts.passes {
        Some(list) => ompcc_opt::parse_pipeline(list),
        None => ompcc_opt::pipeline_for_opt(opts.opt_level),
    }
    .map_err(Some)?;
    let mut pm = ompcc_opt::PassManager::new(passes);
    // The -O level's knobs (-O3 inlines and unrolls more); `-C key=value` goes on top once
    // the pipeline passes `codegen` down (`PassManager::set_knobs`).
    pm.set_knobs(opts.opt_level, &[]).map_err(Some)?;
    // The verifier after every pass is cheap next to the host compile; a pass bug becomes
    // an internal compiler error instead of wrong code.
    pm.verify = true;
    pm.time_passes = opts.time_passes;
    if let Some(filter) = opts.print_after {
        pm.print_after = ompcc_opt::PrintFilter::parse(filter).map_err(Some)?;
    }
    let result = pm.run_module(&mut module);
    eprint!("{}{}", pm.printed, pm.timing_table());
    if let Err(e) = result {
        return Err(Some(format!("internal compiler error: {e}")));
    }
    if stage == EmitStage::IrOpt {
        return Ok(module.to_string());
    }
    let mut ptx_opts = ompcc_ptx::PtxOptions::for_arch(opts.arch.unwrap_or("sm_70"))
        .map_err(|e| Some(e.to_string()))?;
    ptx_opts.line_info = opts.line_info;
    ompcc_ptx::emit_module(&module, &ptx_opts)
        .map_err(|e| Some(format!("internal compiler error: PTX emission: {e}")))
}
