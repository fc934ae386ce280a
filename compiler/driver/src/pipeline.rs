//! The compilation pipeline: from a parsed command line to host-compiler commands.
//!
//! Every command either goes to the host compiler unchanged (*pass-through*: anything that
//! is not an OpenMP compile of C, `-E`, `-M`, info queries, unusual file naming), or through
//! the per-unit pipeline for each C input:
//!
//! 1. preprocess: `host -E` with the user's preprocessing and code-generation flags
//!    (`-fopenmp` among them) into a temporary `.i`, standard error kept aside; a unit that
//!    fails here skips step 2 and is compiled from its source, so cc reports the problem;
//! 2. frontend ([`frontend`]): decides whether the unit has device constructs and, once the
//!    frontend crates are wired in, produces the device code and the rewritten host text;
//! 3. compile: if no unit has device constructs, the user's command runs unchanged, so the
//!    build is exactly cc's (outputs, `.d` files, warnings, exit code). Otherwise each unit is
//!    compiled on its own, from the original source when it has no device constructs, from
//!    the rewritten preprocessed text (`-x cpp-output`, plus `-foffload=disable` for gcc)
//!    when it has; `-MD` files come from step 1 under gcc's names; then one link command
//!    with the units' objects in place of the sources, `-foffload=disable` for gcc (its
//!    lto-wrapper would otherwise build offload images of the host fallback), and
//!    `libompcc_rt.a` when needed (also for links of objects that call the runtime: see
//!    [`crate::link`]).
//!
//! Invariants: all temporary files live in one [`tempfile::TempDir`] that is removed when
//! [`run`] returns, on success and on failure; the host compiler's exit status is returned
//! unchanged; nothing but the user's requested outputs is written outside that directory.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{Action, Color, EmitStage, HostArg, Input, Invocation, Kind, Lang, OmpccOptions};
use crate::devlibrary::{HostServices, Services};
use crate::diag::{self, Severity};
use crate::exec::{self, Cmd, RunError, Runner};
use crate::frontend;
use crate::host::HostCc;
use crate::link;
use crate::overlap::{Early, Overlap};
use crate::scan;
use crate::timing::{self, phase};

/// An error of ompcc's own, reported as `ompcc: error: ...` with exit status 1.
#[derive(Debug)]
pub enum DriverError {
    /// A plain error.
    Error(String),
    /// A fatal error (gcc's "fatal error: ... compilation terminated.").
    Fatal(String),
    /// A host command could not be started, or ompcc was interrupted.
    Run(RunError),
    /// The frontend rejected the program; its diagnostics are already printed.
    Reported,
}

impl DriverError {
    /// Prints the error (if it has a message) and returns the exit status for it.
    pub fn report(&self, color: bool) -> i32 {
        match self {
            DriverError::Error(msg) => diag::emit(Severity::Error, msg, color),
            DriverError::Fatal(msg) => diag::emit(Severity::Fatal, msg, color),
            DriverError::Reported => {}
            DriverError::Run(RunError::Spawn { program, error }) => {
                let reason = match error.kind() {
                    std::io::ErrorKind::NotFound => "No such file or directory".to_owned(),
                    _ => error.to_string(),
                };
                diag::emit(
                    Severity::Fatal,
                    &format!("cannot execute '{program}': {reason}"),
                    color,
                );
            }
            DriverError::Run(RunError::Interrupted(sig)) => return 128 + sig,
        }
        1
    }
}

impl From<RunError> for DriverError {
    fn from(e: RunError) -> Self {
        DriverError::Run(e)
    }
}

/// What the frontend decided for one translation unit.
#[derive(Debug)]
pub enum Outcome {
    /// No device constructs: the original source is compiled exactly as cc would.
    HostOnly,
    /// `--emit=STAGE` / `--device-only`: the stage's text, for `-o FILE` or stdout.
    Emitted(Vec<u8>),
    /// Device constructs: `host_text` (preprocessed C with line markers) is compiled instead
    /// of the source; `needs_runtime` links `libompcc_rt.a`. Bytes, not `String`: C sources
    /// may hold non-UTF-8 bytes in strings and comments, and they must reach cc unchanged.
    Offload {
        host_text: Vec<u8>,
        needs_runtime: bool,
        /// Under `-save-temps`: the optimized device IR and the PTX.
        device: Option<Box<frontend::DeviceTexts>>,
        /// The host compile of `host_text` (written with the PTX apart) started already, and
        /// the PTX that completes it (`crate::overlap`).
        early: Option<Box<Early>>,
    },
    /// No device constructs, but calls of `omp_target_free`: compiled from `host_text`, whose
    /// calls pass their source line to the runtime (with a weak fallback to the API's own
    /// where the runtime is not linked, as in a host-only program).
    Located { host_text: Vec<u8> },
    /// Device constructs, but ompcc's frontend rejected the unit. The host compiler compiles
    /// `host_text` first: if it fails too, its messages and exit code are the user's (exactly
    /// as with cc); if it succeeds, ompcc prints `diagnostics` and the unit fails.
    Rejected {
        host_text: Vec<u8>,
        diagnostics: String,
    },
}

/// One C input taken through the per-unit pipeline.
struct Unit<'a> {
    /// Position in `Invocation::args`.
    arg_index: usize,
    input: &'a Input,
    /// The preprocessed text (the input itself for `.i` files).
    preprocessed: PathBuf,
    /// Step 1's `-MD` output, when the user asked for dependency files.
    deps: Option<PathBuf>,
    /// Step 1's standard error (warnings the host compiler printed while preprocessing).
    pp_stderr: Vec<u8>,
    /// Step 1 succeeded and the preprocessed text could be read: the frontend decides.
    /// Otherwise the unit is compiled from its source, and the host compiler says what is
    /// wrong with it.
    analysable: bool,
    outcome: Outcome,
}

/// Runs the whole command; returns the exit status.
pub fn run(inv: &Invocation, host: &HostCc, runner: &Runner) -> Result<i32, DriverError> {
    // ompcc's optimizer options are checked first: a bad `-C` value fails every command,
    // not only those with device code, like any unknown option of cc.
    let settings = frontend::opt_settings(&inv.ours).map_err(DriverError::Error)?;
    let tmp = exec::in_temp_dir(|dir| tempfile::Builder::new().prefix("ompcc-").tempdir_in(dir))
        .map_err(|e| DriverError::Fatal(format!("cannot create a temporary directory: {e}")))?;
    exec::remove_on_signal(tmp.path());
    // The user's command, plus the runtime when it links objects that call it.
    let mut pass_through = host.cmd(all_words(&inv.args));
    pass_through
        .argv
        .extend(link_args(inv, host, runner, false, false, tmp.path())?);
    if !uses_pipeline(inv) {
        if inv.ours.emit.is_some() || inv.ours.device_only {
            return Err(DriverError::Error(format!(
                "'{}' needs a C source file to compile (not '-E', '-M', '-MM' or a query \
                 the host compiler answers itself)",
                emit_flag(&inv.ours)
            )));
        }
        if inv.dry_run {
            exec::print_dry_run(&[pass_through]);
            return Ok(0);
        }
        if let Some(opt) = &inv.bypass
            && inv.openmp
            && inv.ours.offload == crate::cli::Offload::Enabled
            && inv.inputs().any(Input::is_c_source)
            && !inv.args.iter().any(|a| a.words.iter().any(|w| w == "-w"))
        {
            diag::emit(
                Severity::Warning,
                &format!(
                    "'{opt}' hands this command to the host compiler unchanged: its target \
                     regions are not offloaded by ompcc"
                ),
                diag::use_color(inv.ours.color),
            );
        }
        // Where gcc has offload compilers installed it would build its own nvptx code of
        // the target regions ompcc does not offload here (and fail where they call libm, or
        // where a newer ptxas on PATH has no sm_35): a bypassing option, or C on stdin.
        let stdin_source = inv
            .inputs()
            .any(|i| i.path == "-" && matches!(i.lang, Lang::C | Lang::CppOutput));
        if (inv.bypass.is_some() || stdin_source)
            && inv.openmp
            && inv.ours.offload == crate::cli::Offload::Enabled
            && !pass_through.argv.iter().any(|a| a == "-foffload=disable")
            && host.is_gcc(runner)?
        {
            pass_through.argv.push("-foffload=disable".to_owned());
        }
        device_link_check(inv, &[])?;
        return Ok(phase(timing::HOST_COMMAND, || runner.run(&pass_through))?);
    }

    let color = step1_color(inv.ours.color);

    // Step 1: preprocess every C unit.
    let mut units = Vec::new();
    let mut step1 = Vec::new();
    for (arg_index, arg) in inv.args.iter().enumerate() {
        let Kind::Input(input) = &arg.kind else {
            continue;
        };
        if !input.is_c_source() {
            continue;
        }
        let n = units.len();
        let (preprocessed, deps) = match input.lang {
            Lang::CppOutput => (PathBuf::from(&input.path), None),
            _ => (
                tmp.path().join(format!("{n}.i")),
                inv.deps
                    .side_effect
                    .then(|| tmp.path().join(format!("{n}.d"))),
            ),
        };
        if input.lang == Lang::C {
            step1.push(preprocess_cmd(
                inv,
                host,
                input,
                &preprocessed,
                deps.as_deref(),
                color,
            ));
        }
        units.push(Unit {
            arg_index,
            input,
            preprocessed,
            deps,
            pp_stderr: Vec::new(),
            analysable: true,
            outcome: Outcome::HostOnly,
        });
    }
    if inv.dry_run {
        // Without running step 1 the frontend cannot decide; show the path taken when no
        // unit has device constructs.
        step1.push(pass_through);
        exec::print_dry_run(&step1);
        return Ok(0);
    }
    let mut step1 = step1.into_iter();
    for unit in units.iter_mut().filter(|u| u.input.lang == Lang::C) {
        let Some(cmd) = step1.next() else { break };
        let (code, stderr) = phase(timing::HOST_PREPROCESS, || runner.run_captured(&cmd))?;
        if code != 0 {
            if inv.ours.emit.is_some() || inv.ours.device_only {
                eprint(&stderr);
                return Ok(code);
            }
            // Compiled from its source in step 3, where the host compiler reports the
            // problem itself, exactly as cc would; the other units go on as usual.
            unit.analysable = false;
            continue;
        }
        unit.pp_stderr = stderr;
    }

    // Step 2: the frontend. The device math library is preprocessed by the host compiler
    // (its headers are plain C), only for units whose device code calls it.
    let services = Services::new(host, runner, tmp.path());
    let werror = inv
        .args
        .iter()
        .any(|a| a.words.iter().any(|w| w == "-Werror"));
    let no_warnings = inv.args.iter().any(|a| a.words.iter().any(|w| w == "-w"));
    let line_info = inv
        .args
        .iter()
        .any(|a| matches!(a.kind, Kind::Debug) && a.words.iter().all(|w| w != "-g0"));
    // Offloaded units start their host compile while their device code is compiled.
    let overlap = Overlap::for_command(inv, host, runner, tmp.path());
    for (n, unit) in units.iter_mut().enumerate().filter(|(_, u)| u.analysable) {
        let text = match phase("files", || fs::read(&unit.preprocessed)) {
            Ok(text) => text,
            // Only a user's `.i` input can be unreadable here: cc says why in step 3.
            Err(_) if !(inv.ours.emit.is_some() || inv.ours.device_only) => {
                unit.analysable = false;
                continue;
            }
            Err(e) => {
                let path = unit.preprocessed.display();
                return Err(DriverError::Fatal(format!("cannot read '{path}': {e}")));
            }
        };
        unit.outcome = frontend(
            unit.input,
            &text,
            &inv.ours,
            UnitFlags {
                verbose: inv.verbose,
                werror,
                no_warnings,
                line_info,
                keep_temps: inv.save_temps,
            },
            &services,
            &settings,
            overlap.as_ref().map(|o| (o, n)),
        )?;
    }

    if inv.ours.emit.is_some() || inv.ours.device_only {
        let text: Vec<u8> = units
            .iter()
            .filter_map(|u| match &u.outcome {
                Outcome::Emitted(t) => Some(t.as_slice()),
                _ => None,
            })
            .flatten()
            .copied()
            .collect();
        write_emitted(inv.output.as_deref(), &text)?;
        return Ok(0);
    }

    if inv.syntax_only {
        // The host compiler's checks on the user's own command (it writes nothing), then
        // ompcc's verdict on each unit it rejected; units it accepted have passed ompcc's
        // checks (device code included) above.
        let ours_first = units.iter().find_map(|u| match &u.outcome {
            Outcome::Rejected { diagnostics, .. } if ours_speak_first(diagnostics) => {
                Some(diagnostics)
            }
            _ => None,
        });
        if let Some(diagnostics) = ours_first {
            eprint(diagnostics.as_bytes());
            return Ok(1);
        }
        // Units ompcc rewrote are checked as the host compiler will compile them: the
        // rewritten text (gcc 12 rejects some of what ompcc implements in the original, such
        // as strided `target update` sections, `omp_all_memory` or `iterator` maps).
        let rewritten =
            |u: &Unit<'_>| matches!(u.outcome, Outcome::Offload { .. } | Outcome::Located { .. });
        let mut status = if units.iter().any(rewritten) {
            phase(timing::HOST_COMMAND, || {
                syntax_only_units(inv, host, runner, &units, tmp.path())
            })?
        } else {
            phase(timing::HOST_COMMAND, || runner.run(&pass_through))?
        };
        for unit in &units {
            if let Outcome::Rejected { diagnostics, .. } = &unit.outcome
                && status == 0
            {
                eprint(diagnostics.as_bytes());
                status = 1;
            }
        }
        return Ok(status);
    }

    // Step 3: compile.
    if units.iter().all(|u| matches!(u.outcome, Outcome::HostOnly)) {
        device_link_check(inv, &[])?;
        return Ok(phase(timing::HOST_COMMAND, || runner.run(&pass_through))?);
    }
    // The units whose host compile is running already.
    let early = units
        .iter_mut()
        .map(|u| match &mut u.outcome {
            Outcome::Offload { early, .. } => early.take(),
            _ => None,
        })
        .collect();
    compile_split(inv, host, runner, &units, tmp.path(), early)
}

/// `-fsyntax-only` with units ompcc rewrote: the host compiler checks each C unit, the
/// rewritten ones as their host text (`-x cpp-output`, as step 3 would compile them), the
/// others from their source; the first failing status is the command's.
fn syntax_only_units(
    inv: &Invocation,
    host: &HostCc,
    runner: &Runner,
    units: &[Unit<'_>],
    tmp: &Path,
) -> Result<i32, DriverError> {
    let is_gcc = host.is_gcc(runner)?;
    let mut status = 0;
    for (n, unit) in units.iter().enumerate() {
        let mut args = Vec::new();
        match &unit.outcome {
            Outcome::Offload { host_text, .. } | Outcome::Located { host_text } => {
                eprint(&unit.pp_stderr);
                let path = tmp.join(format!("{n}.host.i"));
                fs::write(&path, host_text).map_err(|e| {
                    DriverError::Fatal(format!("cannot write '{}': {e}", path.display()))
                })?;
                args.extend(words_where(&inv.args, |k| {
                    matches!(k, Kind::Compile | Kind::Debug | Kind::Verbose)
                }));
                if is_gcc {
                    args.push("-foffload=disable".into());
                }
                if let Some(seed) = random_seed(inv, host_text) {
                    args.push(seed);
                }
                args.extend(["-x".into(), "cpp-output".into(), path.display().to_string()]);
            }
            _ => {
                args.extend(words_where(&inv.args, |k| {
                    matches!(
                        k,
                        Kind::Compile | Kind::Debug | Kind::Offload | Kind::Verbose
                    )
                }));
                args.extend(lang_words(unit.input));
                args.push(unit.input.path.clone());
            }
        }
        let code = runner.run(&host.cmd(args))?;
        if code != 0 {
            status = first_failure(status, code);
        }
    }
    Ok(status)
}

/// Whether ompcc's rejection of a unit is about OpenMP that gcc 12 cannot parse either
/// (strided sections in `map` and other clauses, E0128): gcc's messages ("expected
/// ']' before ':' token") would not say what is wrong, so ompcc's are printed and the host
/// compiler does not run on the unit.
fn ours_speak_first(diagnostics: &str) -> bool {
    diagnostics.contains("E0128]")
}

/// Whether the command goes through the per-unit pipeline (else: to the host unchanged).
fn uses_pipeline(inv: &Invocation) -> bool {
    let wants_frontend = inv.ours.emit.is_some()
        || inv.ours.device_only
        || (inv.openmp && inv.ours.offload == crate::cli::Offload::Enabled);
    let compile_inputs = inv.inputs().filter(|i| i.lang != Lang::Linker).count();
    wants_frontend
        && !inv.host_only
        // gcc's "input file 'x' is the same as output file": ompcc's own commands read
        // temporary files, so only the user's command lets cc see it (and not clobber x).
        && !output_is_an_input(inv)
        && inv.action != Action::Preprocess
        && inv.inputs().any(Input::is_c_source)
        // gcc's "cannot specify '-o' with '-c', '-S' or '-E' with multiple files".
        && !(inv.output.is_some() && inv.action != Action::Link && compile_inputs > 1)
}

fn output_is_an_input(inv: &Invocation) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let Some(out) = inv.output.as_deref().and_then(|o| fs::metadata(o).ok()) else {
        return false;
    };
    inv.inputs().any(|input| {
        fs::metadata(&input.path).is_ok_and(|m| m.dev() == out.dev() && m.ino() == out.ino())
    })
}

fn emit_flag(ours: &OmpccOptions) -> String {
    match ours.emit {
        Some(stage) => format!("--emit={}", stage.name()),
        None => "--device-only".to_owned(),
    }
}

/// Command-wide switches the frontend of every unit reads.
#[derive(Clone, Copy, Debug, Default)]
struct UnitFlags {
    /// `-v`.
    verbose: bool,
    /// `-Werror`.
    werror: bool,
    /// `-w`.
    no_warnings: bool,
    /// `-g` (not `-g0`): line info in the PTX.
    line_info: bool,
    /// `-save-temps`: keep the device IR and PTX for the unit's intermediates.
    keep_temps: bool,
}

/// Stage 2 for one unit: the frontend. Inputs: the unit's input (for messages), its
/// preprocessed text (line markers kept: they map every token back to the user's file and
/// line), and ompcc's options (`--emit`, `--offload-arch`, `-Rpass`, `--passes`,
/// `--print-after`, `--time-passes`, `-C`, the `-O` level, diagnostics colour).
///
/// INTEGRATION POINT for the frontend crates: lex and parse `text` (ompcc-syntax), check it
/// (ompcc-sema), honour `--emit` by printing the requested stage, lower the outlined target
/// regions to IR, optimize, emit PTX, and return `Outcome::Offload` with the rewritten host
/// text (`needs_runtime: true`). Units without device directives keep `Outcome::HostOnly`
/// without being parsed.
fn frontend(
    input: &Input,
    text: &[u8],
    ours: &OmpccOptions,
    flags: UnitFlags,
    services: &dyn HostServices,
    settings: &frontend::OptSettings,
    overlap: Option<(&Overlap<'_>, usize)>,
) -> Result<Outcome, DriverError> {
    let UnitFlags {
        verbose,
        werror,
        no_warnings,
        line_info,
        keep_temps,
    } = flags;
    // Spans index the text, so it must stay byte-for-byte: invalid UTF-8 (Latin-1 in a string
    // or comment) is replaced by as many '?' as there were bytes.
    let text_str = utf8_same_length(text);
    let directives = scan::device_directives(&text_str);
    if ours.emit == Some(EmitStage::Tokens) {
        return Ok(Outcome::Emitted(
            frontend::tokens(&text_str, &input.path).into_bytes(),
        ));
    }
    let stops = ours.emit.is_some() || ours.device_only;
    // a unit of plain OpenMP loops is analysed for automatic offload, and still left to the
    // host compiler as written when it has no candidate or does not check
    let auto = ours.auto_offload && scan::has_parallel_loops(&text_str);
    let host_only = directives.is_empty() && !stops;
    if !directives.is_empty() && !stops {
        services.probe_ahead();
    }
    let opts = frontend::DiagOptions {
        color: ours.color,
        quiet: host_only,
        warnings: !directives.is_empty(),
        warnings_are_errors: werror,
        hide_warnings: no_warnings,
    };
    let checked = match frontend::check(&text_str, &input.path, &opts) {
        Ok(checked) => checked,
        Err(frontend::Rejected { .. }) if host_only => {
            if verbose {
                diag::emit(
                    Severity::Note,
                    &format!(
                        "{}: ompcc's frontend could not analyse this unit; it is left to the \
                         host compiler",
                        input.path
                    ),
                    false,
                );
            }
            return Ok(Outcome::HostOnly);
        }
        Err(frontend::Rejected { diagnostics }) if stops => {
            eprint(diagnostics.as_bytes());
            return Err(DriverError::Reported);
        }
        Err(frontend::Rejected { diagnostics }) => {
            return Ok(Outcome::Rejected {
                host_text: text.to_vec(),
                diagnostics,
            });
        }
    };
    if ours.emit == Some(EmitStage::Ast) {
        return Ok(Outcome::Emitted(
            frontend::typed_ast(&checked, &text_str).into_bytes(),
        ));
    }
    if ours.emit == Some(EmitStage::Accesses) {
        return Ok(Outcome::Emitted(frontend::accesses(&checked).into_bytes()));
    }
    // `declare mapper`: its uses expanded into plain map clauses, for every later stage.
    let expanded: Vec<u8>;
    let expanded_str: String;
    let (checked, text_str, text) = match phase(timing::REWRITES, || {
        frontend::expand_mappers(&checked, &text_str, text, &input.path)
    }) {
        Ok(Some((rechecked, bytes))) => {
            expanded = bytes;
            expanded_str = utf8_same_length(&expanded).into_owned();
            (
                rechecked,
                std::borrow::Cow::Borrowed(expanded_str.as_str()),
                expanded.as_slice(),
            )
        }
        Ok(None) => (checked, text_str, text),
        Err(()) => return Err(DriverError::Reported),
    };
    let annotate = ours.emit == Some(EmitStage::AnnotatedC);
    let original_text = |checked: &frontend::Checked| {
        checked
            .source_map
            .supplied_original(checked.source_map.main_file())
            .map(str::to_owned)
            .or_else(|| std::fs::read_to_string(&input.path).ok())
    };
    // Automatic offload writes the two versions of each loop it offloads into the unit,
    // which is checked again and goes on to the data planner.
    let versioned: Vec<u8>;
    let mut directives = directives;
    let (checked, text_str, text, auto_done) = if auto {
        let original = original_text(&checked);
        let plan = phase(timing::REWRITES, || {
            frontend::auto_offload(&checked, &text_str, original.as_deref(), settings)
        });
        if annotate && !plan.annotated.is_empty() {
            let original = original.ok_or_else(|| {
                DriverError::Error(format!(
                    "--emit=annotated-c: cannot read the source file '{}'",
                    input.path
                ))
            })?;
            let body = ompcc_dataplan::annotate(&original, &checked.source_map, &plan.annotated);
            return Ok(Outcome::Emitted(
                format!("{}{body}", ompcc_autooffload::PORTABLE_PRELUDE).into_bytes(),
            ));
        }
        let revised = phase(timing::REWRITES, || {
            frontend::revise(&checked, text, &input.path, &plan.preprocessed, settings)
        })
        .filter(|(_, rechecked)| {
            match phase(timing::REWRITES, || frontend::versions_lower(rechecked)) {
                Ok(()) => true,
                Err(why) => {
                    if settings.auto_remarks.1 {
                        eprintln!(
                            "{}: remark: loops kept on the host: their device versions do not \
                             compile ({why}) [-Rpass-missed=auto-offload]",
                            input.path
                        );
                    }
                    false
                }
            }
        });
        match revised {
            Some((bytes, rechecked)) => {
                versioned = bytes;
                let text_str = utf8_same_length(&versioned);
                directives = scan::device_directives(&text_str);
                (rechecked, text_str, versioned.as_slice(), true)
            }
            None => (checked, text_str, text, false),
        }
    } else {
        (checked, text_str, text, false)
    };
    // The data planner writes its directives into the unit, which is checked again and
    // compiled in place of the original (`--emit=annotated-c`: into the user's file).
    let planned: Vec<u8>;
    let plan_data = ours.plan_data || auto_done;
    let (checked, text_str, text) = if (plan_data && !directives.is_empty()) || annotate {
        // after automatic offload the unit no longer lines up with the user's file
        let original = if auto_done {
            None
        } else {
            original_text(&checked)
        };
        let plan = phase(timing::REWRITES, || {
            frontend::plan_data(&checked, &text_str, original.as_deref(), settings)
        });
        if annotate {
            let original = original.ok_or_else(|| {
                DriverError::Error(format!(
                    "--emit=annotated-c: cannot read the source file '{}'",
                    input.path
                ))
            })?;
            return Ok(Outcome::Emitted(
                ompcc_dataplan::annotate(&original, &checked.source_map, &plan.edits).into_bytes(),
            ));
        }
        match phase(timing::REWRITES, || {
            frontend::replan(&checked, text, &input.path, &plan, settings)
        }) {
            Some((bytes, rechecked)) => {
                planned = bytes;
                (rechecked, utf8_same_length(&planned), planned.as_slice())
            }
            None => (checked, text_str, text),
        }
    } else {
        (checked, text_str, text)
    };
    // Metadirectives: the device code is compiled from their device versions, the host
    // text gets their host versions.
    let resolved: Vec<u8>;
    let device_text: String;
    let (checked, text_str, text) = match phase(timing::REWRITES, || {
        frontend::resolve_metadirectives(
            &checked,
            &text_str,
            text,
            &input.path,
            ours.offload_arch.as_deref(),
        )
    }) {
        Ok(Some((rechecked, device, host))) => {
            resolved = host;
            device_text = device;
            (
                rechecked,
                std::borrow::Cow::Borrowed(device_text.as_str()),
                resolved.as_slice(),
            )
        }
        Ok(None) => (checked, text_str, text),
        Err(()) => return Err(DriverError::Reported),
    };
    let opts = frontend::DeviceOptions {
        all_functions: ours.device_only,
        passes: ours.passes.as_deref(),
        opt_level: ours.opt_level.as_deref().unwrap_or("0"),
        print_after: ours.print_after.as_deref(),
        time_passes: ours.time_passes,
        arch: ours.offload_arch.as_deref(),
        line_info,
        math_source: services,
        settings,
        keep_texts: keep_temps,
    };
    if let Some(stage @ (EmitStage::HostC | EmitStage::HostCFull)) = ours.emit {
        let remarks = settings.offload_remarks;
        return match frontend::offload(&checked, &text_str, text, &opts, remarks, false, None) {
            Ok(done) if stage == EmitStage::HostCFull => Ok(Outcome::Emitted(done.host_text)),
            Ok(done) => Ok(Outcome::Emitted(
                crate::hostview::view(&String::from_utf8_lossy(&done.host_text)).into_bytes(),
            )),
            Err(Some(msg)) => Err(DriverError::Error(msg)),
            Err(None) => Err(DriverError::Reported),
        };
    }
    // `--device-only` alone prints the PTX.
    if let Some(stage) = ours.emit.or(ours.device_only.then_some(EmitStage::Ptx)) {
        return match frontend::device_stage(&checked, stage, &opts) {
            Ok(text) => Ok(Outcome::Emitted(text.into_bytes())),
            Err(Some(msg)) => Err(DriverError::Error(msg)),
            Err(None) => Err(DriverError::Reported),
        };
    }
    // A unit without device directives that calls a routine only ompcc's runtime defines is
    // rewritten all the same (no regions: the prelude declares the routine) and linked with
    // the runtime; so is one naming `omp_all_memory`, which gcc 12 does not know (the
    // rewrite orders its tasks with taskwaits: `compiler/host/src/depend.rs`).
    if directives.is_empty()
        && !scan::names_runtime_only_routine(&text_str)
        && !scan::names_identifier(&text_str, "omp_all_memory")
    {
        if scan::names_identifier(&text_str, "omp_target_free")
            && let Ok(done) = frontend::offload(&checked, &text_str, text, &opts, false, true, None)
        {
            return Ok(Outcome::Located {
                host_text: done.host_text,
            });
        }
        return Ok(Outcome::HostOnly);
    }
    let remarks = settings.offload_remarks;
    let mut started = None;
    let offloaded = {
        let mut start = |host_text: &[u8]| {
            started = overlap.and_then(|(o, n)| o.start(n, host_text));
            started.is_some()
        };
        let early: Option<frontend::StartHostCompile<'_>> = match overlap {
            Some(_) => Some(&mut start),
            None => None,
        };
        frontend::offload(&checked, &text_str, text, &opts, remarks, false, early)
    };
    match offloaded {
        Ok(done) => Ok(Outcome::Offload {
            host_text: done.host_text,
            needs_runtime: true,
            device: keep_temps.then(|| Box::new(done.device)),
            // (a compile started on a text the device module's final globals changed is
            // stopped here, when `started` drops)
            early: match (done.ptx_apart, started) {
                (Some(ptx), Some(compile)) => Some(Box::new(Early { compile, ptx })),
                _ => None,
            },
        }),
        Err(Some(msg)) => Err(DriverError::Error(msg)),
        Err(None) => Err(DriverError::Reported),
    }
}

/// `text` as UTF-8 with the same byte length: each byte of an invalid sequence becomes '?'.
pub(crate) fn utf8_same_length(text: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(text) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => {
            let mut out = String::with_capacity(text.len());
            for chunk in text.utf8_chunks() {
                out.push_str(chunk.valid());
                out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
            }
            std::borrow::Cow::Owned(out)
        }
    }
}

/// Writes what `--emit` / `--device-only` produced to `-o FILE`, or to stdout without `-o`
/// or with `-o -`.
fn write_emitted(output: Option<&str>, bytes: &[u8]) -> Result<(), DriverError> {
    use std::io::Write as _;
    match output {
        Some(path) if path != "-" => fs::write(path, bytes)
            .map_err(|e| DriverError::Fatal(format!("cannot write '{path}': {e}"))),
        // A closed stdout (`ompcc --emit=ast x.c | head`) is not an error worth reporting.
        _ => {
            let _ = std::io::stdout().write_all(bytes);
            Ok(())
        }
    }
}

/// Every word, in order: the user's command for the host compiler.
fn all_words(args: &[HostArg]) -> Vec<String> {
    args.iter().flat_map(|a| a.words.iter().cloned()).collect()
}

/// The words of the arguments whose kind `keep` accepts.
fn words_where(args: &[HostArg], keep: impl Fn(&Kind) -> bool) -> Vec<String> {
    args.iter()
        .filter(|a| keep(&a.kind))
        .flat_map(|a| a.words.iter().cloned())
        .collect()
}

/// The `-fdiagnostics-color=always` that keeps colours in step 1's captured output when the
/// user's terminal would have shown them.
fn step1_color(choice: Color) -> Option<&'static str> {
    (choice == Color::Auto && diag::use_color(Color::Auto)).then_some("-fdiagnostics-color=always")
}

/// Step 1's command: `host -E <flags> [-x L] input -o out [-MD -MF deps ...]`.
fn preprocess_cmd(
    inv: &Invocation,
    host: &HostCc,
    input: &Input,
    out: &Path,
    deps: Option<&Path>,
    color: Option<&str>,
) -> Cmd {
    let mut args = vec!["-E".to_owned()];
    args.extend(words_where(&inv.args, |k| {
        matches!(k, Kind::Compile | Kind::Offload)
    }));
    args.extend(color.map(str::to_owned));
    if let Some(deps) = deps {
        // -MD/-MMD, -MT/-MQ/-MP/-MG as the user wrote them; -MF and the default target as
        // gcc would choose them for the user's command.
        for arg in inv.args.iter().filter(|a| a.kind == Kind::Deps) {
            let opt = arg.words[0].as_str();
            if !(opt.starts_with("-MF") || opt == "-M" || opt == "-MM") {
                args.extend(arg.words.iter().cloned());
            }
        }
        args.push("-MF".into());
        args.push(deps.display().to_string());
        if !inv.deps.has_target {
            let (_, target) = default_dep_names(inv.action, inv.output.as_deref(), &input.path);
            args.push("-MQ".into());
            args.push(target);
        }
    }
    args.extend(lang_words(input));
    args.push(input.path.clone());
    args.push("-o".into());
    args.push(out.display().to_string());
    host.cmd(args)
}

/// `-x L` when the user's `-x` applied to this input.
fn lang_words(input: &Input) -> Vec<String> {
    match &input.explicit_lang {
        Some(lang) => vec!["-x".into(), lang.clone()],
        None => Vec::new(),
    }
}

/// gcc 12's names for a unit's dependency file and its default target, for the user's
/// command: `-o out.o` gives `out.d` / `out.o`; without `-o`, `-c` gives `stem.d` / `stem.o`
/// and linking gives `a-stem.d` / `stem.o`.
pub fn default_dep_names(action: Action, output: Option<&str>, input: &str) -> (String, String) {
    let name = input.rsplit('/').next().unwrap_or(input);
    let stem = strip_suffix(name);
    match output {
        Some(out) => (format!("{}.d", strip_suffix(out)), out.to_owned()),
        None if action == Action::Link => (format!("a-{stem}.d"), format!("{stem}.o")),
        None => (format!("{stem}.d"), format!("{stem}.o")),
    }
}

/// `path` without the suffix of its last component (`dir.x/a.tar.gz` -> `dir.x/a.tar`).
fn strip_suffix(path: &str) -> &str {
    let name_start = path.rfind('/').map_or(0, |i| i + 1);
    match path[name_start..].rfind('.') {
        Some(dot) if dot > 0 => &path[..name_start + dot],
        _ => path,
    }
}

/// gcc 12's base name for a unit's `-save-temps` files (`BASE.i`, `BASE.s`, `BASE.o`): with
/// `-c`/`-S` the output without its suffix (the source's stem in the current directory
/// without `-o`); when linking `OUT-STEM` next to the output (`a-STEM` without `-o`).
fn save_temps_base(inv: &Invocation, input: &str) -> String {
    let name = input.rsplit('/').next().unwrap_or(input);
    let stem = strip_suffix(name);
    match (inv.action, inv.output.as_deref()) {
        (Action::Link, Some(out)) => format!("{out}-{stem}"),
        (Action::Link, None) => format!("a-{stem}"),
        (_, Some(out)) => strip_suffix(out).to_owned(),
        (_, None) => stem.to_owned(),
    }
}

/// `-save-temps` for a unit ompcc offloaded: next to cc's own files, the preprocessed text
/// ompcc analysed (`BASE.i`, what cc would have kept), the device IR after the pass pipeline
/// (`BASE.ompcc.ir`) and the PTX (`BASE.ompcc.ptx`); the rewritten host C that cc compiles
/// is `BASE.ompcc-host.i`, written by the caller.
fn keep_intermediates(
    base: &str,
    preprocessed: &Path,
    device: &frontend::DeviceTexts,
) -> Result<(), DriverError> {
    let write = |path: String, bytes: &[u8]| {
        fs::write(&path, bytes)
            .map_err(|e| DriverError::Fatal(format!("cannot write '{path}': {e}")))
    };
    let text = fs::read(preprocessed).map_err(|e| {
        DriverError::Fatal(format!("cannot read '{}': {e}", preprocessed.display()))
    })?;
    let kept = format!("{base}.i");
    // A user's `.i` input is its own preprocessed text: never write over it.
    if Path::new(&kept) != preprocessed {
        write(kept, &text)?;
    }
    write(format!("{base}.ompcc.ir"), device.ir.as_bytes())?;
    write(format!("{base}.ompcc.ptx"), device.ptx.as_bytes())
}

/// Step 3 when some unit has device constructs: one host command per unit, then the rest.
fn compile_split(
    inv: &Invocation,
    host: &HostCc,
    runner: &Runner,
    units: &[Unit<'_>],
    tmp: &Path,
    mut early: Vec<Option<Box<Early>>>,
) -> Result<i32, DriverError> {
    let mode = match inv.action {
        Action::Assemble => "-S",
        _ => "-c",
    };
    let is_gcc = host.is_gcc(runner)?;
    let mut status = 0;
    let mut objects = Vec::new();
    let mut needs_runtime = false;
    for (n, unit) in units.iter().enumerate() {
        let base = save_temps_base(inv, &unit.input.path);
        let out = match (inv.action, &inv.output) {
            // Under -save-temps the unit's object is one of cc's kept intermediates.
            (Action::Link, _) if inv.save_temps => format!("{base}.o"),
            (Action::Link, _) => tmp.join(format!("{n}.o")).display().to_string(),
            (_, Some(out)) => out.clone(),
            (_, None) => {
                let name = unit
                    .input
                    .path
                    .rsplit('/')
                    .next()
                    .unwrap_or(&unit.input.path);
                let suffix = if inv.action == Action::Assemble {
                    "s"
                } else {
                    "o"
                };
                format!("{}.{suffix}", strip_suffix(name))
            }
        };
        let mut args = Vec::new();
        match &unit.outcome {
            // (`Emitted` ends the command before this step)
            Outcome::HostOnly | Outcome::Emitted(_) => {
                args.extend(words_where(&inv.args, |k| {
                    matches!(
                        k,
                        Kind::Compile
                            | Kind::Debug
                            | Kind::Offload
                            | Kind::Verbose
                            | Kind::SaveTemps
                    )
                }));
                args.extend(lang_words(unit.input));
                args.push(unit.input.path.clone());
            }
            // Its host compile is running: `Early::finish` completes it.
            Outcome::Offload { .. } if early[n].is_some() => {
                eprint(&unit.pp_stderr);
                needs_runtime = true;
            }
            Outcome::Offload { host_text, .. }
            | Outcome::Located { host_text }
            | Outcome::Rejected { host_text, .. } => {
                // Preprocessing warnings are not repeated by a cpp-output compile: show them.
                eprint(&unit.pp_stderr);
                if let Outcome::Offload {
                    needs_runtime: rt, ..
                } = &unit.outcome
                {
                    needs_runtime |= *rt;
                }
                let path = if inv.save_temps {
                    if let Outcome::Offload {
                        device: Some(device),
                        ..
                    } = &unit.outcome
                    {
                        keep_intermediates(&base, &unit.preprocessed, device)?;
                    }
                    PathBuf::from(format!("{base}.ompcc-host.i"))
                } else {
                    tmp.join(format!("{n}.host.i"))
                };
                phase("files", || fs::write(&path, host_text)).map_err(|e| {
                    DriverError::Fatal(format!("cannot write '{}': {e}", path.display()))
                })?;
                args.extend(host_text_args(
                    inv,
                    is_gcc,
                    host_text,
                    &path.display().to_string(),
                ));
            }
        }
        args.extend([mode.to_owned(), "-o".into(), out.clone()]);
        let mut code = match (&unit.outcome, early[n].take()) {
            (_, Some(early)) => early.finish(inv, host, runner, &out, &unit.input.path)?,
            (Outcome::Rejected { diagnostics, .. }, _) if ours_speak_first(diagnostics) => {
                eprint(diagnostics.as_bytes());
                1
            }
            _ => phase(timing::HOST_COMPILE, || runner.run(&host.cmd(args)))?,
        };
        if let Outcome::Rejected { diagnostics, .. } = &unit.outcome
            && code == 0
        {
            eprint(diagnostics.as_bytes());
            // A unit that failed leaves no output behind, as with cc.
            let _ = fs::remove_file(&out);
            code = 1;
        }
        // gcc leaves the .d file of a unit that fails to compile: so does ompcc (if step 1
        // got as far as writing one).
        if let Some(deps) = unit.deps.as_ref().filter(|d| d.exists()) {
            let target = match &inv.deps.file {
                Some(file) => file.clone(),
                None => default_dep_names(inv.action, inv.output.as_deref(), &unit.input.path).0,
            };
            fs::copy(deps, &target).map_err(|e| {
                DriverError::Fatal(format!("opening dependency file {target}: {e}"))
            })?;
        }
        if code != 0 {
            status = first_failure(status, code);
            continue;
        }
        objects.push((unit.arg_index, out));
    }

    // The rest of the command: other inputs (-c/-S), or the link.
    let unit_at = |i: usize| objects.iter().find(|(at, _)| *at == i).map(|(_, o)| o);
    let is_unit = |i: usize| units.iter().any(|u| u.arg_index == i);
    match inv.action {
        Action::Link => {
            if status != 0 {
                return Ok(status);
            }
            let mut args = Vec::new();
            for (i, arg) in inv.args.iter().enumerate() {
                match (&arg.kind, unit_at(i)) {
                    (Kind::Input(input), Some(obj)) => match &input.explicit_lang {
                        Some(lang) => args.extend([
                            "-x".into(),
                            "none".into(),
                            obj.clone(),
                            "-x".into(),
                            lang.clone(),
                        ]),
                        None => args.push(obj.clone()),
                    },
                    _ => args.extend(arg.words.iter().cloned()),
                }
            }
            let unit_objects: Vec<(PathBuf, String)> = objects
                .iter()
                .filter_map(|(i, obj)| {
                    let name = units.iter().find(|u| u.arg_index == *i)?.input.path.clone();
                    Some((PathBuf::from(obj), name))
                })
                .collect();
            device_link_check(inv, &unit_objects)?;
            args.extend(link_args(inv, host, runner, true, needs_runtime, tmp)?);
            status = phase(timing::HOST_COMMAND, || runner.run(&host.cmd(args)))?;
        }
        _ => {
            let rest: Vec<&HostArg> = inv
                .args
                .iter()
                .enumerate()
                .filter(|&(i, _)| !is_unit(i))
                .map(|(_, a)| a)
                .collect();
            if rest.iter().any(|a| matches!(a.kind, Kind::Input(_))) {
                let args = rest.iter().flat_map(|a| a.words.iter().cloned());
                let code = phase(timing::HOST_COMMAND, || runner.run(&host.cmd(args)))?;
                status = first_failure(status, code);
            }
        }
    }
    Ok(status)
}

/// The link-time device symbol check ([`crate::devlink`]) of a link command: over the
/// objects ompcc compiled in this command (`unit_objects`, with their sources' names) and the
/// objects and archives the command links. Links of objects without device code, and
/// commands that do not link, have nothing to check.
fn device_link_check(
    inv: &Invocation,
    unit_objects: &[(PathBuf, String)],
) -> Result<(), DriverError> {
    if inv.action != Action::Link
        || inv.host_only
        || inv.ours.offload != crate::cli::Offload::Enabled
    {
        return Ok(());
    }
    let mut files = unit_objects.to_vec();
    files.extend(
        link::linked_files(&inv.args)
            .into_iter()
            .map(|p| (p.clone(), p.display().to_string())),
    );
    crate::devlink::check(&files).map_err(|errors| {
        let color = diag::use_color(inv.ours.color);
        for e in &errors {
            diag::emit(Severity::Error, e, color);
        }
        DriverError::Error(format!(
            "device link failed: {} undefined device symbol{}",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        ))
    })
}

/// Extra arguments for a link. When an offloaded unit (`units_need_runtime`) or an object or
/// archive being linked calls the runtime (separate compilation): `libompcc_rt.a` and the
/// system libraries it needs. When ompcc offloaded anything (`offloaded`, or the runtime is
/// linked): `-foffload=disable` for gcc, whose link step (lto-wrapper) would otherwise build
/// its own offload images of the host-fallback code where gcc has offload compilers
/// installed; the flag given when compiling does not stop gcc 12 from emitting the
/// offload sections those images are built from. Nothing for host-only programs, which link
/// exactly as with cc.
fn link_args(
    inv: &Invocation,
    host: &HostCc,
    runner: &Runner,
    offloaded: bool,
    units_need_runtime: bool,
    scratch: &Path,
) -> Result<Vec<String>, DriverError> {
    // Not only `-fopenmp` links: build systems link OpenMP programs with libgomp named
    // directly (CMake's OpenMP::OpenMP_C), and the objects say whether they need us.
    let openmp_link = inv.action == Action::Link
        && !inv.host_only
        && inv.ours.offload == crate::cli::Offload::Enabled;
    let needs_runtime =
        units_need_runtime || (openmp_link && link::inputs_reference_runtime(&inv.args));
    let mut args = Vec::new();
    if needs_runtime {
        let lib = link::runtime_library().map_err(DriverError::Fatal)?;
        // Units without device constructs carry a weak fallback of the located free
        // (`ompcc_host::FREE_AT_SYMBOL`); a weak definition pulls nothing out of an archive,
        // so the runtime's own is asked for by name.
        args.push(format!("-Wl,--undefined={}", ompcc_host::FREE_AT_SYMBOL));
        args.push(lib.display().to_string());
        args.extend(link::RUNTIME_SYSTEM_LIBS.iter().map(|l| l.to_string()));
        // GNU ld (the default linker) only: gold cannot read `INSERT` scripts.
        let gnu_ld = inv.args.iter().flat_map(|a| &a.words).all(|w| {
            w.strip_prefix("-fuse-ld=")
                .is_none_or(|l| l == "bfd" || l == "ld.bfd")
        });
        if gnu_ld {
            let script = scratch.join("ompcc_rt_data.ld");
            fs::write(&script, link::data_first_script(&lib)).map_err(|e| {
                DriverError::Fatal(format!("cannot write '{}': {e}", script.display()))
            })?;
            args.extend(["-T".to_owned(), script.display().to_string()]);
        }
        // A static link takes libgomp.a's target.o for the host fallback (GOMP_target_ext),
        // and that object also defines the omp_* device API the runtime defines: the
        // runtime's definitions come first and must win, as they do against libgomp.so.
        if inv
            .args
            .iter()
            .any(|a| a.words.iter().any(|w| w == "-static"))
        {
            args.push("-Wl,--allow-multiple-definition".to_owned());
        }
    }
    if (offloaded || needs_runtime) && host.is_gcc(runner)? {
        args.push("-foffload=disable".to_owned());
    }
    Ok(args)
}

/// `-frandom-seed=` for the host compile of a rewritten unit, unless the user gave one: gcc
/// otherwise names sections of target regions' code (`.gnu.offload_lto_*`) with a random
/// number, so two compiles of one source would give different objects. The seed is a hash of
/// the text compiled (which names the source), so objects are reproducible, and units with
/// different code get different seeds (as gcc wants of units linked together).
fn random_seed(inv: &Invocation, host_text: &[u8]) -> Option<String> {
    let given = inv
        .args
        .iter()
        .flat_map(|a| &a.words)
        .any(|w| w.starts_with("-frandom-seed"));
    (!given).then(|| format!("-frandom-seed={:016x}", ompcc_omp::fnv1a(&[host_text])))
}

/// The host compiler's arguments for a unit's rewritten text at `path`, before the mode
/// and the output: the user's compile options, `-foffload=disable` for gcc (`is_gcc`), the
/// random seed, `-x cpp-output PATH`.
pub(crate) fn host_text_args(
    inv: &Invocation,
    is_gcc: bool,
    host_text: &[u8],
    path: &str,
) -> Vec<String> {
    let mut args = words_where(&inv.args, |k| {
        matches!(
            k,
            Kind::Compile | Kind::Debug | Kind::Verbose | Kind::SaveTemps
        )
    });
    if is_gcc {
        args.push("-foffload=disable".into());
    }
    args.extend(random_seed(inv, host_text));
    args.extend(["-x".into(), "cpp-output".into(), path.to_owned()]);
    args
}

/// `-fdiagnostics-color=always` for a host command whose standard error ompcc prints later,
/// when the user's terminal would have shown colours.
pub(crate) fn diagnostics_color(inv: &Invocation) -> Option<String> {
    step1_color(inv.ours.color).map(str::to_owned)
}

fn first_failure(status: i32, code: i32) -> i32 {
    if status != 0 { status } else { code }
}

fn eprint(bytes: &[u8]) {
    use std::io::Write as _;
    let _ = std::io::stderr().write_all(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dep_names_follow_gcc() {
        use Action::*;
        let names = |a, o, i| default_dep_names(a, o, i);
        assert_eq!(
            names(Compile, None, "sub/a.c"),
            ("a.d".into(), "a.o".into())
        );
        assert_eq!(
            names(Assemble, None, "sub/a.c"),
            ("a.d".into(), "a.o".into())
        );
        assert_eq!(
            names(Compile, Some("out/x.tar.o"), "a.c"),
            ("out/x.tar.d".into(), "out/x.tar.o".into())
        );
        assert_eq!(
            names(Compile, Some("dir.x/o"), "a.c"),
            ("dir.x/o.d".into(), "dir.x/o".into())
        );
        assert_eq!(names(Link, None, "sub/b.c"), ("a-b.d".into(), "b.o".into()));
        assert_eq!(
            names(Link, Some("prog"), "b.c"),
            ("prog.d".into(), "prog".into())
        );
        assert_eq!(
            names(Link, Some(".hidden"), "b.c"),
            (".hidden.d".into(), ".hidden".into())
        );
    }

    #[test]
    fn frontend_finds_device_units() {
        let input = Input {
            path: "t.c".into(),
            lang: Lang::C,
            explicit_lang: None,
        };
        let no_math = || Err("no math library in this test".to_owned());
        let settings = frontend::OptSettings::default();
        let mut ours = OmpccOptions {
            color: Color::Never,
            ..OmpccOptions::default()
        };
        let host_only = b"void f(int *a) {\n#pragma omp parallel for\nfor (int i = 0; i < 4; i++) a[i] = i;\n}\n";
        assert!(matches!(
            frontend(
                &input,
                host_only,
                &ours,
                UnitFlags::default(),
                &no_math,
                &settings,
                None
            )
            .unwrap(),
            Outcome::HostOnly
        ));
        // A Latin-1 byte in a comment must neither stop the frontend nor change the text.
        let text =
            b"/* caf\xe9 */ void f(int *p) {\n#pragma omp target enter data map(to: p[0:1])\n}\n";
        let Outcome::Offload {
            host_text,
            needs_runtime: true,
            ..
        } = frontend(
            &input,
            text,
            &ours,
            UnitFlags::default(),
            &no_math,
            &settings,
            None,
        )
        .unwrap()
        else {
            panic!("not offloaded");
        };
        let rewritten = String::from_utf8_lossy(&host_text);
        assert!(
            host_text.windows(7).any(|w| w == b"/* caf\xe9"),
            "{rewritten}"
        );
        assert!(
            rewritten.contains("ompcc_rt_target_enter_data("),
            "{rewritten}"
        );
        // Code the frontend rejects: a host-only unit is left to the host compiler (which
        // reports it as cc would); a unit with device constructs is compiled by the host
        // compiler first, and our diagnostics follow if it accepts the unit.
        assert!(matches!(
            frontend(
                &input,
                b"int f( {\n",
                &ours,
                UnitFlags::default(),
                &no_math,
                &settings,
                None
            ),
            Ok(Outcome::HostOnly)
        ));
        assert!(matches!(
            frontend(
                &input,
                b"#pragma omp declare target\nint f( {\n",
                &ours,
                UnitFlags::default(),
                &no_math,
                &settings,
                None
            ),
            Ok(Outcome::Rejected { diagnostics, .. }) if diagnostics.contains("t.c:2:")
        ));
        ours.emit = Some(EmitStage::Ast);
        assert!(matches!(
            frontend(
                &input,
                b"int f( {\n",
                &ours,
                UnitFlags::default(),
                &no_math,
                &settings,
                None
            ),
            Err(DriverError::Reported)
        ));
        // --emit=accesses prints the access analysis and stops
        ours.emit = Some(EmitStage::Accesses);
        let out = frontend(
            &input,
            b"void f(int n, double *a) { for (int i = 0; i < n; i++) a[i] = 0; }\n",
            &ours,
            UnitFlags::default(),
            &no_math,
            &settings,
            None,
        );
        match out {
            Ok(Outcome::Emitted(text)) => {
                let text = String::from_utf8(text).unwrap();
                assert!(text.contains("write a[0:n]"), "{text}");
            }
            _ => panic!("--emit=accesses did not emit"),
        }
    }
}
