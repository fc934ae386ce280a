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
use crate::timing::phase;

/// A unit that parsed and type-checked.
pub struct Checked {
    pub tu: TranslationUnit,
    pub typed: ompcc_sema::TypedUnit,
    pub source_map: SourceMap,
    color: ColorChoice,
    /// `-w`: the later stages' emitters print no warnings either.
    hide_warnings: bool,
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
    /// `-w`: no warning is shown, now or by the later stages.
    pub hide_warnings: bool,
}

/// `--emit=tokens`: the token stream as the parser sees it.
pub fn tokens(text: &str, file_name: &str) -> String {
    ompcc_syntax::dump_tokens(text, file_name)
}

/// Parses and checks one unit. On success its warnings are printed; on failure every
/// diagnostic is returned rendered.
pub fn check(text: &str, file_name: &str, opts: &DiagOptions) -> Result<Checked, Rejected> {
    crate::timing::phase(crate::timing::CHECK, || check_timed(text, file_name, opts))
}

fn check_timed(text: &str, file_name: &str, opts: &DiagOptions) -> Result<Checked, Rejected> {
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
            let shown = opts.warnings && !opts.hide_warnings;
            if !opts.quiet && (d.severity != Severity::Warning || shown) {
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
        hide_warnings: opts.hide_warnings,
    })
}

/// `--emit=ast`: the tree with the type of every expression.
pub fn typed_ast(checked: &Checked, text: &str) -> String {
    ompcc_sema::print_typed(&checked.tu, &checked.typed, text)
}

/// `--emit=accesses`: the access analysis of every function of the main file.
pub fn accesses(checked: &Checked) -> String {
    let ua = ompcc_access::analyze(&checked.tu, &checked.typed);
    ompcc_access::print::print(&ua, &checked.source_map)
}

/// The data planner's plan for a unit (`-fopenmp-plan-data`), its remarks printed as the
/// command asks.
pub fn plan_data(
    checked: &Checked,
    text: &str,
    original: Option<&str>,
    settings: &OptSettings,
) -> ompcc_dataplan::DataPlan {
    let plan = ompcc_dataplan::plan(
        &checked.tu,
        &checked.typed,
        &checked.source_map,
        text,
        original,
    );
    let asked = (settings.plan_remarks, settings.plan_missed);
    print_remarks(&plan.remarks, checked, "plan-data", asked);
    plan
}

/// Automatic offload's plan for a unit (`-fopenmp-auto-offload`), its remarks printed as
/// the command asks.
pub fn auto_offload(
    checked: &Checked,
    text: &str,
    original: Option<&str>,
    settings: &OptSettings,
) -> ompcc_autooffload::AutoPlan {
    let plan = ompcc_autooffload::plan(
        &checked.tu,
        &checked.typed,
        &checked.source_map,
        text,
        original,
    );
    print_remarks(
        &plan.remarks,
        checked,
        "auto-offload",
        settings.auto_remarks,
    );
    plan
}

/// Prints the remarks of `pass` the command asks for: (`-Rpass`, `-Rpass-missed`).
fn print_remarks(
    remarks: &[ompcc_dataplan::Remark],
    checked: &Checked,
    pass: &str,
    (passed, missed): (bool, bool),
) {
    for r in remarks {
        if (r.missed && missed) || (!r.missed && passed) {
            eprintln!("{}", r.render_for(&checked.source_map, pass));
        }
    }
}

/// Whether the device code of a versioned unit lowers without an error, tried quietly: a
/// device version that cannot be compiled (a called function uses what the device lacks)
/// must not fail a build that the unit as written passes. The first error if not.
pub fn versions_lower(checked: &Checked) -> Result<(), String> {
    use ompcc_diag::Severity;
    let (plan, diags) =
        ompcc_omp::plan_with_source(&checked.tu, &checked.typed, &checked.source_map);
    let first_error = |diags: &[ompcc_diag::Diagnostic]| {
        diags
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
    };
    if let Some(e) = first_error(&diags) {
        return Err(e);
    }
    let (_, diags) = ompcc_lower::lower_device_unit(
        &checked.tu,
        &checked.typed,
        &plan,
        &ompcc_lower::FunctionSelection::DeclareTarget,
        &ompcc_lower::LowerOptions::default(),
    );
    first_error(&diags).map_or(Ok(()), Err)
}

/// The unit with the plan's directives in, checked again; `None` (the unit goes on as
/// written, and `-Rpass-missed=plan-data` says why) when there is nothing to change or the
/// planned text does not check, which would be a planner bug that must not fail the build.
pub fn replan(
    checked: &Checked,
    raw: &[u8],
    file_name: &str,
    plan: &ompcc_dataplan::DataPlan,
    settings: &OptSettings,
) -> Option<(Vec<u8>, Checked)> {
    edited(
        checked,
        raw,
        file_name,
        &plan.edits,
        settings.plan_missed,
        "data planner",
        "plan-data",
    )
}

/// The unit with automatic offload's versions in, checked again; `None` as for [`replan`].
pub fn revise(
    checked: &Checked,
    raw: &[u8],
    file_name: &str,
    edits: &[ompcc_dataplan::Edit],
    settings: &OptSettings,
) -> Option<(Vec<u8>, Checked)> {
    let missed = settings.auto_remarks.1;
    edited(
        checked,
        raw,
        file_name,
        edits,
        missed,
        "automatic offload",
        "auto-offload",
    )
}

fn edited(
    checked: &Checked,
    raw: &[u8],
    file_name: &str,
    edits: &[ompcc_dataplan::Edit],
    missed: bool,
    who: &str,
    pass: &str,
) -> Option<(Vec<u8>, Checked)> {
    if edits.is_empty() {
        return None;
    }
    let bytes = ompcc_dataplan::apply_preprocessed(raw, &checked.source_map, edits);
    let quiet = DiagOptions {
        color: Color::Never,
        quiet: true,
        warnings: false,
        warnings_are_errors: false,
        // later stages' warnings (W0912) follow `-w` as for the unit as written
        hide_warnings: checked.hide_warnings,
    };
    let text = crate::pipeline::utf8_same_length(&bytes).into_owned();
    match check(&text, file_name, &quiet) {
        Ok(mut re) => {
            re.color = checked.color;
            Some((bytes, re))
        }
        Err(_) => {
            if missed {
                eprintln!(
                    "{file_name}: remark: internal compiler error in the {who}: its \
                     directives do not check; the unit is compiled as written \
                     [-Rpass-missed={pass}]"
                );
            }
            None
        }
    }
}

/// Expands the unit's `declare mapper`s (`ompcc_omp::expand_mappers`) in `raw`: the new
/// bytes (same lines) and the unit checked again. `Ok(None)`: the unit has none. `Err(())`:
/// errors, printed.
pub fn expand_mappers(
    checked: &Checked,
    text: &str,
    raw: &[u8],
    file_name: &str,
) -> Result<Option<(Checked, Vec<u8>)>, ()> {
    let (edits, diags) = ompcc_omp::expand_mappers(&checked.tu, &checked.typed, text);
    if !diags.is_empty() {
        let mut emitter = Emitter::new(checked.color);
        for d in &diags {
            emitter.emit(d, &checked.source_map);
        }
        return Err(());
    }
    if edits.is_empty() {
        return Ok(None);
    }
    let raw = if raw.len() == text.len() {
        raw
    } else {
        text.as_bytes()
    };
    let mut out = Vec::with_capacity(raw.len());
    let mut at = 0;
    for e in &edits {
        out.extend_from_slice(&raw[at..e.lo]);
        out.extend_from_slice(e.with.as_bytes());
        at = e.hi;
    }
    out.extend_from_slice(&raw[at..]);
    let quiet = DiagOptions {
        color: Color::Never,
        quiet: false,
        warnings: false,
        warnings_are_errors: false,
        hide_warnings: checked.hide_warnings,
    };
    let expanded = crate::pipeline::utf8_same_length(&out).into_owned();
    match check(&expanded, file_name, &quiet) {
        Ok(mut re) => {
            re.color = checked.color;
            Ok(Some((re, out)))
        }
        Err(Rejected { diagnostics }) => {
            eprint!("{diagnostics}");
            Err(())
        }
    }
}

/// Resolves the unit's metadirectives (`ompcc_omp::resolve_metadirectives`): the device
/// version of each in a text that is checked again and compiled for the device, the host
/// version in the bytes the host rewrite copies (both the same length as `raw`, so spans
/// index either). `Ok(None)`: the unit has none. `Err(())`: errors, printed.
pub fn resolve_metadirectives(
    checked: &Checked,
    text: &str,
    raw: &[u8],
    file_name: &str,
    arch: Option<&str>,
) -> Result<Option<(Checked, String, Vec<u8>)>, ()> {
    let (edits, diags) =
        ompcc_omp::resolve_metadirectives(&checked.tu, &checked.typed, text, device_isa(arch));
    if !diags.is_empty() {
        let mut emitter = Emitter::new(checked.color);
        for d in &diags {
            emitter.emit(d, &checked.source_map);
        }
        return Err(());
    }
    if edits.is_empty() {
        return Ok(None);
    }
    let mut device = text.as_bytes().to_vec();
    let mut host = raw.to_vec();
    for e in &edits {
        device[e.lo..e.hi].copy_from_slice(e.device.as_bytes());
        if host.len() == device.len() {
            host[e.lo..e.hi].copy_from_slice(e.host.as_bytes());
        }
    }
    let device = String::from_utf8(device).map_err(|_| ())?;
    let quiet = DiagOptions {
        color: Color::Never,
        quiet: false,
        warnings: false,
        warnings_are_errors: false,
        hide_warnings: checked.hide_warnings,
    };
    match check(&device, file_name, &quiet) {
        Ok(mut re) => {
            re.color = checked.color;
            Ok(Some((re, device, host)))
        }
        Err(Rejected { diagnostics }) => {
            eprint!("{diagnostics}");
            Err(())
        }
    }
}

fn has_errors(diags: &[ompcc_diag::Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
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
    /// The device math library as one preprocessed unit (asked for only when device code
    /// calls a math function).
    pub math_source: &'a dyn crate::devlibrary::HostServices,
    /// Knobs and remarks, checked once for the whole command.
    pub settings: &'a OptSettings,
    /// `-save-temps`: return the IR and PTX texts with the host text.
    pub keep_texts: bool,
}

/// What the command line asks of the optimizer, checked once per command (before any unit
/// is compiled, so a bad value fails the command whatever its units hold).
#[derive(Clone, Debug, Default)]
pub struct OptSettings {
    /// `key=value` knobs in the order they apply over the -O level's defaults: `fp-contract`
    /// from `-ffp-contract=` or the `-std=` mode, then every `-C key=value`.
    pub codegen: Vec<(String, String)>,
    /// The passes whose remarks `-Rpass=` asks for.
    pub remarks: ompcc_opt::PrintFilter,
    /// The passes whose missed-optimization remarks `-Rpass-missed=` asks for.
    pub missed: ompcc_opt::PrintFilter,
    /// The passes whose analysis remarks `-Rpass-analysis=` asks for.
    pub analysis: ompcc_opt::PrintFilter,
    /// `-Rpass=` matches `offload` (the host rewrite's remarks, one per target region).
    pub offload_remarks: bool,
    /// `-Rpass=` / `-Rpass-missed=` match `plan-data` (the data planner's remarks).
    pub plan_remarks: bool,
    pub plan_missed: bool,
    /// `-Rpass=` / `-Rpass-missed=` match `auto-offload` (automatic offload's remarks).
    pub auto_remarks: (bool, bool),
    /// `-Rpass=` / `-Rpass-missed=` match `coalesce` (the grid mapping's remarks).
    pub coalesce_remarks: (bool, bool),
    /// `-Rpass-missed=` matches `one-iteration` (regions without a one-iteration variant).
    pub one_iteration_missed: bool,
    /// The remarks of lowering's placements ([`LOWERING_REMARKS`]) asked for: name and
    /// whether `-Rpass` (true) or `-Rpass-missed` (false).
    pub lowering_remarks: Vec<(&'static str, bool)>,
    /// `--disable-pass=`: names of passes left out of the pipeline (each a known pass).
    pub disabled: Vec<String>,
}

/// The remark names of the placements of data in `.const` and `.shared`
/// (`-Rpass=const-tables`, `-Rpass=shared-tiles`).
pub const LOWERING_REMARKS: &[&str] = &[
    ompcc_lower::CONST_TABLES_REMARK,
    ompcc_omp::SHARED_TILES_REMARK,
];

impl OptSettings {
    /// Whether the command asks for lowering's remark `pass` of this kind.
    pub fn wants_lowering_remark(&self, pass: &str, passed: bool) -> bool {
        self.lowering_remarks
            .iter()
            .any(|&(p, k)| p == pass && k == passed)
    }

    /// A remarks sink for the three kinds the command asks for.
    pub fn sink(&self) -> ompcc_opt::Remarks {
        ompcc_opt::Remarks::with_kinds(
            self.remarks.clone(),
            self.missed.clone(),
            self.analysis.clone(),
        )
    }
}

/// gcc's floating-point contraction for a command: `-ffp-contract=` when given, else `off`
/// in an ISO C mode (`-std=c99`, `-std=c11`, `-ansi`, ...) and `fast` in the GNU modes,
/// gcc's default. gcc 12 implements `on` as `off`; ompcc fuses `a*b + c` within one
/// expression for `on` (what C allows), so results may differ from gcc's there. A value gcc
/// does not know is left to gcc, which rejects the command with its own message.
pub fn fp_contract(ours: &crate::cli::OmpccOptions) -> &'static str {
    match ours.fp_contract.as_deref() {
        Some("off") => return "off",
        Some("on") => return "on",
        Some("fast") => return "fast",
        _ => {}
    }
    let iso = ours
        .std
        .as_deref()
        .is_some_and(|s| s.starts_with('c') || s.starts_with("iso9899"));
    if iso { "off" } else { "fast" }
}

/// Checks the optimizer options of a command: the `-C` knobs (unknown keys and bad values
/// are errors naming the known keys) and the `-Rpass*=` regular
/// expressions (matched against pass names anywhere in the name, as clang does; several
/// `-Rpass=` options add up).
pub fn opt_settings(ours: &crate::cli::OmpccOptions) -> Result<OptSettings, String> {
    use crate::cli::RemarkKind;
    let mut codegen = vec![("fp-contract".to_owned(), fp_contract(ours).to_owned())];
    codegen.extend(ours.codegen.iter().cloned());
    let mut check = ompcc_opt::Knobs::default();
    for (key, value) in &codegen {
        check.set(key, value)?;
    }
    // The pass names each kind selects, in the order of `PASSES`.
    let mut names: [Vec<String>; 3] = Default::default();
    let mut offload_remarks = false;
    let (mut plan_remarks, mut plan_missed) = (false, false);
    let mut coalesce_remarks = (false, false);
    let mut one_iteration_missed = false;
    let mut lowering_remarks = Vec::new();
    let mut auto_remarks = (false, false);
    for (kind, re) in &ours.remarks {
        let (flag, slot) = match kind {
            RemarkKind::Passed => ("-Rpass", 0),
            RemarkKind::Missed => ("-Rpass-missed", 1),
            RemarkKind::Analysis => ("-Rpass-analysis", 2),
        };
        let regex = regex::Regex::new(re)
            .map_err(|e| format!("invalid regular expression '{re}' in '{flag}=': {e}"))?;
        // The host rewrite reports only what it offloaded.
        offload_remarks |= *kind == RemarkKind::Passed && regex.is_match("offload");
        plan_remarks |= *kind == RemarkKind::Passed && regex.is_match("plan-data");
        plan_missed |= *kind == RemarkKind::Missed && regex.is_match("plan-data");
        auto_remarks.0 |= *kind == RemarkKind::Passed && regex.is_match("auto-offload");
        auto_remarks.1 |= *kind == RemarkKind::Missed && regex.is_match("auto-offload");
        one_iteration_missed |= *kind == RemarkKind::Missed && regex.is_match("one-iteration");
        for &name in LOWERING_REMARKS {
            if *kind != RemarkKind::Analysis && regex.is_match(name) {
                lowering_remarks.push((name, *kind == RemarkKind::Passed));
            }
        }
        if regex.is_match("coalesce") {
            match kind {
                RemarkKind::Passed => coalesce_remarks.0 = true,
                RemarkKind::Missed => coalesce_remarks.1 = true,
                RemarkKind::Analysis => {}
            }
        }
        let names = &mut names[slot];
        for pass in ompcc_opt::PASSES {
            if regex.is_match(pass.name) && !names.iter().any(|n| n == pass.name) {
                names.push(pass.name.to_owned());
            }
        }
    }
    for name in &ours.disabled_passes {
        if ompcc_opt::lookup(name).is_none() {
            let known: Vec<&str> = ompcc_opt::PASSES.iter().map(|p| p.name).collect();
            return Err(format!(
                "unknown pass '{name}' in '--disable-pass=' (known: {}; `ompcc --list-passes` \
                 says what each does)",
                known.join(", ")
            ));
        }
    }
    let [remarks, missed, analysis] = names.map(|names| {
        if names.is_empty() {
            ompcc_opt::PrintFilter::None
        } else {
            ompcc_opt::PrintFilter::Names(names)
        }
    });
    Ok(OptSettings {
        codegen,
        remarks,
        missed,
        analysis,
        offload_remarks,
        plan_remarks,
        plan_missed,
        auto_remarks,
        coalesce_remarks,
        one_iteration_missed,
        lowering_remarks,
        disabled: ours.disabled_passes.clone(),
    })
}

/// The passes that run for `--passes=` (when given) or the `-O` level, without the
/// `--disable-pass=` ones.
pub fn pipeline(
    passes: Option<&str>,
    opt_level: &str,
    disabled: &[String],
) -> Result<Vec<ompcc_opt::Pass>, String> {
    let mut list = match passes {
        Some(list) => ompcc_opt::parse_pipeline(list),
        None => ompcc_opt::pipeline_for_opt(opt_level),
    }?;
    list.retain(|p| !disabled.iter().any(|d| d == p.name));
    Ok(list)
}

/// `--print-pipeline`: the passes that would run, as a `--passes=` value (one line).
pub fn print_pipeline(ours: &crate::cli::OmpccOptions) -> Result<String, String> {
    let level = ours.opt_level.as_deref().unwrap_or("0");
    let list = pipeline(ours.passes.as_deref(), level, &ours.disabled_passes)?;
    let names: Vec<&str> = list.iter().map(|p| p.name).collect();
    Ok(format!("{}\n", names.join(",")))
}

/// `--list-passes`: every device pass, one line each (`name  description`).
pub fn list_passes() -> String {
    let width = ompcc_opt::PASSES
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for p in ompcc_opt::PASSES {
        out.push_str(&format!("{:width$}  {}\n", p.name, p.description));
    }
    out
}

/// `--emit=ir|ir-opt|ptx`: lower the device code (with `--device-only`, every function;
/// otherwise the kernels of the unit's target regions and its declare-target functions),
/// optimize, emit PTX; returns the text of the requested stage. Diagnostics are printed;
/// `Err` means the unit failed (the message, if any, is for `ompcc: error:`).
pub fn device_stage(
    checked: &Checked,
    stage: EmitStage,
    opts: &DeviceOptions<'_>,
) -> Result<String, Option<String>> {
    let mut emitter = Emitter::new(checked.color).hiding_warnings(checked.hide_warnings);
    let plan = if opts.all_functions {
        None
    } else {
        let (mut plan, diags) =
            ompcc_omp::plan_with_source(&checked.tu, &checked.typed, &checked.source_map);
        for d in &diags {
            emitter.emit(d, &checked.source_map);
        }
        if emitter.error_count() > 0 {
            return Err(None);
        }
        map_grids(checked, &mut plan, opts)?;
        Some(plan)
    };
    let mut module = lower(checked, plan.as_ref(), opts, &mut emitter)?;
    if stage == EmitStage::Ir {
        link_device_math(&mut module, opts, false)?;
        return Ok(module.to_string());
    }
    optimize(&mut module, opts)?;
    link_device_math(&mut module, opts, true)?;
    if stage == EmitStage::IrOpt {
        return Ok(module.to_string());
    }
    ptx_text(&module, opts)
}

/// The plan's grid mapping (`ompcc_omp::map_grids`) under the `loop-swap`, `warp-coop`,
/// `private-layout`, `auto-collapse`, `triangular-collapse`, `ordered-coop` and `irregular-collapse` knobs of the -O level and `-C`, with its `-Rpass=coalesce` / `-Rpass-missed=coalesce` remarks on stderr; then the one-iteration kernel variants (`one-iteration`, `-Rpass-missed=one-iteration`).
fn map_grids<'a>(
    checked: &'a Checked,
    plan: &mut ompcc_omp::OffloadPlan<'a>,
    opts: &DeviceOptions<'_>,
) -> Result<(), Option<String>> {
    let knobs = command_knobs(opts)?;
    let remarks = ompcc_omp::map_grids(
        plan,
        &checked.tu,
        &checked.typed,
        &checked.source_map,
        ompcc_omp::GridOptions {
            loop_swap: knobs.loop_swap,
            warp_coop: knobs.warp_coop != ompcc_opt::WarpCoop::Off,
            reassociate: knobs.warp_coop == ompcc_opt::WarpCoop::Reassoc,
            private_layout: knobs.private_layout,
            auto_collapse: knobs.auto_collapse,
            triangular_collapse: knobs.triangular_collapse,
            ordered_coop: knobs.ordered_coop != ompcc_opt::OrderedCoop::Off,
            ordered_irregular: knobs.ordered_coop == ompcc_opt::OrderedCoop::All,
            noalias_maps: knobs.noalias_maps,
            irregular_collapse: knobs.irregular_collapse,
        },
    );
    let mut remarks = remarks;
    if knobs.one_iteration {
        remarks.extend(ompcc_omp::choose_one_iteration(plan, &checked.typed));
    }
    if knobs.shared_tiles {
        remarks.extend(ompcc_omp::choose_tiles(
            plan,
            &checked.tu,
            &checked.typed,
            &checked.source_map,
        ));
    }
    let (passed, missed) = opts.settings.coalesce_remarks;
    for r in remarks {
        let (wanted, flag) = match (r.pass, r.passed) {
            ("coalesce", true) => (passed, "-Rpass"),
            ("coalesce", false) => (missed, "-Rpass-missed"),
            ("one-iteration", _) => (opts.settings.one_iteration_missed, "-Rpass-missed"),
            (pass, passed) if LOWERING_REMARKS.contains(&pass) => (
                opts.settings.wants_lowering_remark(pass, passed),
                if passed { "-Rpass" } else { "-Rpass-missed" },
            ),
            (pass, true) => (opts.settings.remarks.matches(pass), "-Rpass"),
            (pass, false) => (opts.settings.missed.matches(pass), "-Rpass-missed"),
        };
        if wanted {
            print_remark(checked, &r, flag);
        }
    }
    Ok(())
}

/// The knobs of the command's -O level with its `-C` options applied.
fn command_knobs(opts: &DeviceOptions<'_>) -> Result<ompcc_opt::Knobs, Option<String>> {
    let mut knobs =
        ompcc_opt::Knobs::for_level(ompcc_opt::level_of_opt(opts.opt_level).map_err(Some)?);
    for (key, value) in &opts.settings.codegen {
        knobs.set(key, value).map_err(Some)?;
    }
    Ok(knobs)
}

/// Prints a plan or lowering remark on stderr, clang style.
fn print_remark(checked: &Checked, r: &ompcc_omp::GridRemark, flag: &str) {
    eprintln!(
        "{}: remark: {} [{flag}={}]",
        checked.source_map.describe(r.span),
        r.message,
        r.pass
    );
}

/// Lowers the device code of a unit: with a plan, its kernels and declare-target functions;
/// without, every function (`--device-only`).
fn lower(
    checked: &Checked,
    plan: Option<&ompcc_omp::OffloadPlan<'_>>,
    opts: &DeviceOptions<'_>,
    emitter: &mut Emitter,
) -> Result<ompcc_ir::Module, Option<String>> {
    use ompcc_lower::{
        FunctionSelection, LowerOptions, lower_device_unit_with_remarks,
        lower_functions_with_remarks,
    };
    let isa = device_isa(opts.arch);
    let text = checked.source_map.text();
    let (variant_calls, variant_diags) =
        ompcc_omp::device_variant_calls(&checked.tu, &checked.typed, text, isa);
    let (dispatch_calls, dispatch_diags) =
        ompcc_omp::device_dispatch_calls(&checked.tu, &checked.typed, text, isa);
    for d in variant_diags.iter().chain(&dispatch_diags) {
        emitter.emit(d, &checked.source_map);
    }
    let lower_opts = LowerOptions {
        // Source locations only when they are asked for (`-g`, or remarks that name their
        // line), so `--emit=ir` stays terse.
        source_map: (opts.line_info || opts.settings.sink().wants_any())
            .then_some(&checked.source_map),
        unit_id: ompcc_omp::unit_id(&checked.source_map),
        variant_calls: Some(&variant_calls),
        dispatch_calls: Some(&dispatch_calls),
        const_tables: command_knobs(opts)?.const_tables,
        ..LowerOptions::default()
    };
    let (module, diags, remarks) = match plan {
        Some(plan) => lower_device_unit_with_remarks(
            &checked.tu,
            &checked.typed,
            plan,
            &FunctionSelection::DeclareTarget,
            &lower_opts,
        ),
        None => lower_functions_with_remarks(
            &checked.tu,
            &checked.typed,
            &FunctionSelection::All,
            &lower_opts,
        ),
    };
    for r in &remarks {
        if opts.settings.wants_lowering_remark(r.pass, r.passed) {
            print_remark(
                checked,
                r,
                if r.passed { "-Rpass" } else { "-Rpass-missed" },
            );
        }
    }
    for d in &diags {
        emitter.emit(d, &checked.source_map);
    }
    if emitter.error_count() > 0 {
        return Err(None);
    }
    Ok(module)
}

/// A lowered device module, optimized: the pass pipeline, then the device math library
/// (optimized on its own, without contraction) linked in where it is called.
fn optimize_device_module(
    module: &mut ompcc_ir::Module,
    opts: &DeviceOptions<'_>,
) -> Result<(), Option<String>> {
    // the library's preprocessing runs while the passes do
    if module
        .decls
        .iter()
        .any(|d| ompcc_stdlib::device_symbol(&d.name).is_some())
    {
        opts.math_source.library_ahead();
    }
    phase("device: passes", || optimize(module, opts))?;
    phase("device: library", || link_device_math(module, opts, true))
}

/// Links the device C library where device code calls it (`ompcc_devlib`); `optimized`:
/// at the -O level (after the user module's pipeline), else as lowered (`--emit=ir`).
fn link_device_math(
    module: &mut ompcc_ir::Module,
    opts: &DeviceOptions<'_>,
    optimized: bool,
) -> Result<(), Option<String>> {
    let level = optimized.then_some(opts.opt_level);
    let source = crate::devlibrary::LibraryFrom(opts.math_source);
    ompcc_devlib::link_device_library(module, level, &source).map_err(|e| Some(e.to_string()))
}

/// Runs `--passes=` or the pipeline of the -O level, verifying after every pass.
fn optimize(module: &mut ompcc_ir::Module, opts: &DeviceOptions<'_>) -> Result<(), Option<String>> {
    let passes = pipeline(opts.passes, opts.opt_level, &opts.settings.disabled).map_err(Some)?;
    let mut pm = ompcc_opt::PassManager::new(passes);
    // The -O level's knobs (-O3 inlines and unrolls more), then fp-contract and `-C`.
    pm.set_knobs(opts.opt_level, &opts.settings.codegen)
        .map_err(Some)?;
    pm.remarks = opts.settings.sink();
    // The verifier after every pass is cheap next to the host compile; a pass bug becomes
    // an internal compiler error instead of wrong code.
    pm.verify = true;
    pm.time_passes = opts.time_passes;
    if let Some(filter) = opts.print_after {
        pm.print_after = ompcc_opt::PrintFilter::parse(filter).map_err(Some)?;
    }
    // Where each function starts, for the remarks about a whole function (taken before
    // the passes, which may inline a function away).
    let starts = function_starts(module);
    let result = pm.run_module(module);
    eprint!("{}{}", pm.printed, pm.timing_table());
    for mut remark in pm.remarks.take() {
        if remark.loc.is_unknown()
            && let Some((_, loc)) = starts.iter().find(|(f, _)| *f == remark.function)
        {
            remark.loc = *loc;
        }
        eprintln!("{}", remark.render(&module.files));
    }
    result.map_err(|e| Some(format!("internal compiler error: {e}")))
}

/// The first source location (lowest line and column in the file of its first located
/// instruction) of every function that has one: a function-level remark (`promoted 4 stack
/// slots`) is reported there, as clang reports such remarks at the function.
fn function_starts(module: &ompcc_ir::Module) -> Vec<(String, ompcc_ir::SourceLoc)> {
    let mut out = Vec::new();
    for func in &module.functions {
        let locs = func
            .layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .map(|i| func.srcloc(i))
            .filter(|l| !l.is_unknown());
        let mut first: Option<ompcc_ir::SourceLoc> = None;
        for loc in locs {
            first = match first {
                None => Some(loc),
                Some(f) if f.file == loc.file && (loc.line, loc.col) < (f.line, f.col) => Some(loc),
                keep => keep,
            };
        }
        if let Some(loc) = first {
            out.push((func.name.clone(), loc));
        }
    }
    out
}

/// The `NN` of `--offload-arch=sm_NN` (default 70), which `isa` context selectors compare
/// with; an unknown architecture is reported when the PTX is written.
pub fn device_isa(arch: Option<&str>) -> u32 {
    arch.unwrap_or("sm_70")
        .strip_prefix("sm_")
        .and_then(|n| n.parse().ok())
        .unwrap_or(70)
}

/// PTX for `--offload-arch` (default sm_70), with line info under `-g`.
fn ptx_text(module: &ompcc_ir::Module, opts: &DeviceOptions<'_>) -> Result<String, Option<String>> {
    let mut ptx_opts = ompcc_ptx::PtxOptions::for_arch(opts.arch.unwrap_or("sm_70"))
        .map_err(|e| Some(e.to_string()))?;
    ptx_opts.line_info = opts.line_info;
    ompcc_ptx::emit_module(module, &ptx_opts)
        .map_err(|e| Some(format!("internal compiler error: PTX emission: {e}")))
}

/// Starts the host compile of a host text written with the PTX apart; whether it started.
pub type StartHostCompile<'a> = &'a mut dyn FnMut(&[u8]) -> bool;

/// A unit's device constructs, compiled: the rewritten host text and the remarks asked for.
pub struct Offloaded {
    /// The preprocessed unit with every device construct rewritten into runtime calls and
    /// the device image appended (bytes: see `ompcc_host::rewrite`).
    pub host_text: Vec<u8>,
    /// The device code as text (for `-save-temps`).
    pub device: DeviceTexts,
    /// `host_text` is the one handed to `early` before the device passes, with the PTX apart
    /// (`ompcc_host::DeviceImage::ptx_apart`); this PTX completes it.
    pub ptx_apart: Option<String>,
}

/// A unit's device code as the intermediates `-save-temps` keeps.
#[derive(Debug)]
pub struct DeviceTexts {
    /// The IR after the pass pipeline, with the device library linked in.
    pub ir: String,
    /// The PTX embedded in the object.
    pub ptx: String,
}

/// The whole offload pipeline for a unit with device constructs: the offload plan, the
/// device module (kernels and declare-target functions), the optimization pipeline of the
/// -O level, PTX, and the host rewrite (`calls_only`: of a unit without device constructs,
/// for its API calls). Diagnostics are printed; `Err` means the unit failed (with a message
/// for `ompcc: error:` when there is one).
///
/// `early`, when given, gets the host text with the PTX apart as soon as lowering is done,
/// and says whether it started compiling it (`crate::overlap`); the passes, the library and
/// the PTX follow. That text is the result unless the final module registers other globals
/// than the lowered one did (then the text is written again, with the PTX in).
pub fn offload(
    checked: &Checked,
    text: &str,
    raw: &[u8],
    opts: &DeviceOptions<'_>,
    remarks: bool,
    calls_only: bool,
    early: Option<StartHostCompile<'_>>,
) -> Result<Offloaded, Option<String>> {
    // The embedded image always has line info (`.loc`), so a device fault names the source
    // line with or without `-g`; `--emit=ir|ptx` keep to `-g` and stay terse.
    let opts = &DeviceOptions {
        line_info: true,
        ..*opts
    };
    let (mut plan, diags) = phase("device: offload plan", || {
        ompcc_omp::plan_with_source(&checked.tu, &checked.typed, &checked.source_map)
    });
    let mut emitter = Emitter::new(checked.color).hiding_warnings(checked.hide_warnings);
    for d in &diags {
        emitter.emit(d, &checked.source_map);
    }
    if emitter.error_count() > 0 {
        return Err(None);
    }
    phase("device: offload plan", || {
        map_grids(checked, &mut plan, opts)
    })?;
    // the access analysis' sections for the W0912 help, only when some pointer is unmapped
    // (under `requires unified_address` such a pointer is a device address: no W0912)
    let warn_unmapped = !ompcc_omp::requires_unified_address(&checked.tu);
    let unmapped = warn_unmapped
        && plan.regions.iter().any(|r| {
            r.params.iter().any(|p| {
                p.pass == ompcc_omp::Pass::DevicePtr && p.map.as_ref().is_some_and(|m| m.implicit)
            })
        });
    let suggestions = if unmapped {
        phase("device: offload plan", || {
            ompcc_dataplan::suggested_maps(&checked.tu, &checked.typed)
        })
    } else {
        Vec::new()
    };
    let suggest = |at: ompcc_diag::Span, sym: ompcc_sema::SymbolId| {
        suggestions
            .iter()
            .find(|(s, v, _)| s.lo == at.lo && *v == sym)
            .map(|(_, _, c)| c.clone())
    };
    if warn_unmapped {
        for d in &ompcc_omp::unmapped_pointer_warnings(&plan, &suggest) {
            emitter.emit(d, &checked.source_map);
        }
    }
    let mut module = phase("device: lower", || {
        lower(checked, Some(&plan), opts, &mut emitter)
    })?;
    let requirements = requirements(checked);
    let rewrite_host = |image: &ompcc_host::DeviceImage| {
        phase("host rewrite", || {
            ompcc_host::rewrite(
                text,
                raw,
                &checked.source_map,
                &checked.tu,
                &checked.typed,
                &plan,
                image,
            )
        })
    };
    let started = early.and_then(|start| {
        let parts = image_parts(checked, &plan, &module);
        let image = ompcc_host::DeviceImage {
            globals: parts.0.clone(),
            host_decls: parts.1.clone(),
            calls_only,
            requirements,
            ptx_apart: true,
            ptx: String::new(),
        };
        let host_text = rewrite_host(&image).ok()?;
        start(&host_text).then_some((host_text, parts))
    });
    optimize_device_module(&mut module, opts)?;
    let ptx = phase("device: PTX", || ptx_text(&module, opts))?;
    let device = DeviceTexts {
        ir: if opts.keep_texts {
            module.to_string()
        } else {
            String::new()
        },
        ptx: if opts.keep_texts {
            ptx.clone()
        } else {
            String::new()
        },
    };
    let (globals, host_decls) = image_parts(checked, &plan, &module);
    if remarks {
        eprint!(
            "{}",
            ompcc_host::remarks(&plan, &checked.typed, &checked.source_map, text)
        );
    }
    if let Some((host_text, (early_globals, early_decls))) = started
        && early_globals == globals
        && early_decls == host_decls
    {
        return Ok(Offloaded {
            host_text,
            device,
            ptx_apart: Some(ptx),
        });
    }
    let image = ompcc_host::DeviceImage {
        ptx,
        globals,
        host_decls,
        calls_only,
        requirements,
        ptx_apart: false,
    };
    match rewrite_host(&image) {
        Ok(host_text) => Ok(Offloaded {
            host_text,
            device,
            ptx_apart: None,
        }),
        Err(diags) => {
            for d in &diags {
                emitter.emit(d, &checked.source_map);
            }
            Err(None)
        }
    }
}

/// The `OMPCC_RT_REQUIRES_*` bits of the unit's `#pragma omp requires`.
fn requirements(checked: &Checked) -> u32 {
    if ompcc_omp::requires_unified_shared_memory(&checked.tu) {
        ompcc_host::REQUIRES_UNIFIED_SHARED_MEMORY | ompcc_host::REQUIRES_UNIFIED_ADDRESS
    } else if ompcc_omp::requires_unified_address(&checked.tu) {
        ompcc_host::REQUIRES_UNIFIED_ADDRESS
    } else {
        0
    }
}

/// The globals the device image registers (declare-target globals and the `declare target
/// indirect` tables `module` defines) and the C definitions of the tables' host copies.
fn image_parts(
    checked: &Checked,
    plan: &ompcc_omp::OffloadPlan<'_>,
    module: &ompcc_ir::Module,
) -> (Vec<ompcc_host::DeviceGlobal>, String) {
    let (indirect_globals, host_decls) = crate::indirect::image_parts(checked, module);
    let mut globals = device_globals(checked, plan, module);
    globals.extend(indirect_globals);
    (globals, host_decls)
}

/// The host variables that have a device copy in `module`, with their PTX names: the
/// declare-target globals of `plan`, and the file-scope objects that device functions use
/// (implicitly declare target, OpenMP 5.2 section 7.8.1). Registering them gives the runtime
/// the pairs it needs for `target update` and for maps of these variables.
fn device_globals(
    checked: &Checked,
    plan: &ompcc_omp::OffloadPlan<'_>,
    module: &ompcc_ir::Module,
) -> Vec<ompcc_host::DeviceGlobal> {
    let typed = &checked.typed;
    let mut out: Vec<ompcc_host::DeviceGlobal> = Vec::new();
    let candidates = plan
        .device_globals
        .iter()
        .copied()
        .chain(module.globals.iter().filter_map(|g| typed.global(&g.name)));
    for sym in candidates {
        let info = &typed.symbols[sym];
        // Only objects defined in this unit: an `extern` one belongs to the unit that
        // defines it, which registers it.
        if info.kind != ompcc_sema::SymbolKind::Object
            || !(info.defined || info.tentative)
            || info.linkage == ompcc_sema::Linkage::None
            || info.storage != ompcc_sema::Storage::Static
        {
            continue;
        }
        let ptx_name = info.asm_label.clone().unwrap_or_else(|| info.name.clone());
        if module.globals.iter().any(|g| g.name == ptx_name)
            && !out.iter().any(|g| g.ptx_name == ptx_name)
        {
            out.push(ompcc_host::DeviceGlobal {
                ptx_name,
                host_name: info.name.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{OmpccOptions, RemarkKind};

    #[test]
    fn optimizer_settings_follow_the_command_line() {
        let mut ours = OmpccOptions::default();
        let s = opt_settings(&ours).unwrap();
        assert_eq!(s.codegen, [("fp-contract".to_owned(), "fast".to_owned())]);
        assert_eq!(s.remarks, ompcc_opt::PrintFilter::None);
        assert!(!s.offload_remarks);

        ours.std = Some("c11".into());
        assert_eq!(fp_contract(&ours), "off");
        ours.std = Some("gnu17".into());
        assert_eq!(fp_contract(&ours), "fast");
        ours.std = Some("iso9899:1999".into());
        assert_eq!(fp_contract(&ours), "off");
        ours.fp_contract = Some("on".into());
        assert_eq!(fp_contract(&ours), "on");

        ours.codegen = vec![("unroll-count".into(), "2".into())];
        ours.remarks = vec![
            (RemarkKind::Passed, "^unroll$".into()),
            (RemarkKind::Passed, "dce|sroa".into()),
            (RemarkKind::Missed, "gvn".into()),
        ];
        let s = opt_settings(&ours).unwrap();
        assert_eq!(s.codegen.last().unwrap().0, "unroll-count");
        assert_eq!(
            s.remarks,
            ompcc_opt::PrintFilter::Names(vec!["unroll".into(), "sroa".into(), "dce".into()])
        );
        assert_eq!(s.missed, ompcc_opt::PrintFilter::Names(vec!["gvn".into()]));
        assert_eq!(s.analysis, ompcc_opt::PrintFilter::None);
        assert!(!s.offload_remarks);
        ours.remarks = vec![(RemarkKind::Missed, "off".into())];
        assert!(!opt_settings(&ours).unwrap().offload_remarks);
        ours.remarks = vec![(RemarkKind::Passed, "off".into())];
        let s = opt_settings(&ours).unwrap();
        assert!(s.offload_remarks);
        assert_eq!(s.remarks, ompcc_opt::PrintFilter::None);

        ours.codegen = vec![("nope".into(), "1".into())];
        assert!(
            opt_settings(&ours)
                .unwrap_err()
                .contains("unknown codegen option")
        );
    }
}
