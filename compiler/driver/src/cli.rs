//! The command line: gcc-compatible options plus ompcc's own, parsed into an [`Invocation`].
//!
//! Model: every argument the host compiler must see is kept as a [`HostArg`]: the user's exact
//! words (so `-ofile` stays `-ofile` and `-I dir` stays two words) plus a [`Kind`] that tells
//! the pipeline which commands it belongs in (preprocess, compile, link). ompcc's own options
//! are removed from that list and collected in [`OmpccOptions`]. Options ompcc does not know are
//! kept as [`Kind::Compile`] and reach the host compiler unchanged, so a bad flag gets the host
//! compiler's own diagnostic and exit code.
//!
//! Invariants: `args` is in the user's order; an option's detached argument is in the same
//! `HostArg` as the option, never mistaken for an input; the derived fields (`action`, `output`,
//! `openmp`, `deps`, ...) agree with `args` (gcc's "last one wins" where gcc has it).

use std::fmt;

/// What the host compiler is asked to produce (gcc's `-E` > `-S` > `-c` > link precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `-E`, or `-M`/`-MM` without `-MD`/`-MMD`.
    Preprocess,
    /// `-S`.
    Assemble,
    /// `-c`.
    Compile,
    /// No mode flag: compile and link.
    Link,
}

/// The language of an input, as gcc decides it (a `-x` in force, else the file suffix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lang {
    /// C source, preprocessed by the pipeline's first step.
    C,
    /// Already preprocessed C (`.i`, `-x cpp-output`).
    CppOutput,
    /// Another language the host compiler compiles itself (C++, assembly, headers, ...).
    OtherSource,
    /// An object, archive, shared library or unknown suffix: goes to the linker.
    Linker,
}

/// One input file (or `-` for standard input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub path: String,
    pub lang: Lang,
    /// The `-x` value in force for this input, if any (must be repeated when it is compiled
    /// on its own).
    pub explicit_lang: Option<String>,
}

impl Input {
    /// Whether the ompcc pipeline (preprocess + frontend) can take this input.
    pub fn is_c_source(&self) -> bool {
        matches!(self.lang, Lang::C | Lang::CppOutput) && self.path != "-"
    }
}

/// Where an argument for the host compiler belongs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An input file.
    Input(Input),
    /// `-o FILE`.
    Output,
    /// `-c`, `-S`, `-E`.
    Mode,
    /// `-x LANG`.
    Lang,
    /// Dependency-file options (`-MD`, `-MF`, `-MT`, ...).
    Deps,
    /// Positional linker arguments (`-l`, `-L`, `-Wl,`, `-Xlinker`, `-T`, `-u`, `-z`, `-e`).
    Link,
    /// Debug-information options (`-g*`): kept out of the preprocessing step, where `-g3`
    /// would add `#define` lines to the output.
    Debug,
    /// `-foffload=...`: replaced by `-foffload=disable` when ompcc compiles the host side.
    Offload,
    /// `-v`: passed to the host compiler in the commands whose output the user sees.
    Verbose,
    /// `-save-temps[=...]`: in the compile commands (cc keeps its own intermediates), not in
    /// the preprocessing step, whose output is ompcc's.
    SaveTemps,
    /// Everything else: preprocessing, code generation and warning options, unknown options.
    Compile,
}

/// One argument (one or two words) for the host compiler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostArg {
    pub words: Vec<String>,
    pub kind: Kind,
}

/// `-fdiagnostics-color=` (also forwarded to the host compiler).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

/// A stage that `--emit=` can stop after and print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitStage {
    Tokens,
    Ast,
    /// The access analysis (`ompcc-access`).
    Accesses,
    Ir,
    IrOpt,
    Ptx,
    /// The user's file of the rewritten host code, laid out for reading.
    HostC,
    /// The whole rewritten text, exactly as cc compiles it.
    HostCFull,
    /// The user's file with the data planner's directives written in (`-fopenmp-plan-data`).
    AnnotatedC,
}

impl EmitStage {
    const ALL: [(&'static str, EmitStage); 9] = [
        ("tokens", EmitStage::Tokens),
        ("ast", EmitStage::Ast),
        ("accesses", EmitStage::Accesses),
        ("ir", EmitStage::Ir),
        ("ir-opt", EmitStage::IrOpt),
        ("ptx", EmitStage::Ptx),
        ("host-c", EmitStage::HostC),
        ("host-c-full", EmitStage::HostCFull),
        ("annotated-c", EmitStage::AnnotatedC),
    ];

    fn parse(name: &str) -> Option<EmitStage> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, s)| s)
    }

    /// The spelling used on the command line.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("", |(n, _)| n)
    }
}

/// `-foffload=`: whether target regions are compiled for the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Offload {
    #[default]
    Enabled,
    /// `-foffload=disable`: host fallback only; ompcc then behaves exactly like cc.
    Disabled,
}

/// Which remarks `-Rpass*` asks for (clang's three kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemarkKind {
    /// `-Rpass=`: transformations done.
    Passed,
    /// `-Rpass-missed=`: transformations tried and not done.
    Missed,
    /// `-Rpass-analysis=`: analysis results behind those decisions.
    Analysis,
}

/// The options that only ompcc understands (never forwarded to the host compiler).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OmpccOptions {
    /// `--emit=STAGE`: stop after STAGE and write its output (to `-o FILE`, else stdout).
    pub emit: Option<EmitStage>,
    /// `--offload-arch=sm_XX`.
    pub offload_arch: Option<String>,
    /// `-fopenmp-plan-data` (`-fno-openmp-plan-data` after it turns it off): the compiler
    /// plans the data movement of target regions (`ompcc-dataplan`).
    pub plan_data: bool,
    /// `-fopenmp-auto-offload` (`-fno-openmp-auto-offload` turns it off): plain `parallel
    /// for` loops the analysis proves safe get a device version chosen at run time
    /// (`ompcc-autooffload`); implies the data planner.
    pub auto_offload: bool,
    /// `--device-only`: produce the device code (PTX) only.
    pub device_only: bool,
    /// `-Rpass=REGEX`, `-Rpass-missed=REGEX`, `-Rpass-analysis=REGEX`: remarks of that kind
    /// from the passes whose name matches, in order.
    pub remarks: Vec<(RemarkKind, String)>,
    /// `--passes=a,b,c` as written (last one wins): run this comma-separated pass list
    /// instead of the -O pipeline. Validated by the pass manager, which knows the names.
    pub passes: Option<String>,
    /// `--print-after=a,b` or `--print-after=all` as written (last one wins): print the IR
    /// after these passes.
    pub print_after: Option<String>,
    /// `--time-passes`.
    pub time_passes: bool,
    /// `--time-phases`: the command's wall time per phase (`crate::timing`).
    pub time_phases: bool,
    /// `-C key=value` codegen knobs, in order.
    pub codegen: Vec<(String, String)>,
    /// `-foffload=`.
    pub offload: Offload,
    /// `-fdiagnostics-color=` (last one wins; also forwarded).
    pub color: Color,
    /// The `-O` level as written (`0`..`3`, `s`, `fast`, `g`; `-O` alone is `1`).
    pub opt_level: Option<String>,
    /// `-ffp-contract=` as written (last one wins; also forwarded).
    pub fp_contract: Option<String>,
    /// `-std=` as written, `c90` for `-ansi` (last one wins; also forwarded): an ISO C mode
    /// turns floating-point contraction off by default, as in gcc.
    pub std: Option<String>,
    /// `-fopenmp-version=N` (last one wins): the value of `_OPENMP` ([`openmp_date`]).
    pub openmp_version: Option<u32>,
    /// `--disable-pass=a,b` (several add up): passes dropped from the pipeline that runs.
    pub disabled_passes: Vec<String>,
    /// `--print-pipeline`: print the -O level's pipeline as a `--passes=` list, then stop.
    pub print_pipeline: bool,
    /// `--list-passes`: print every device pass with a line saying what it does, then stop.
    pub list_passes: bool,
    /// `--explain CODE`: print the documentation of a diagnostic code, then stop.
    pub explain: Option<String>,
}

/// The OpenMP versions `-fopenmp-version=` accepts (clang's spelling: 52 is OpenMP 5.2) and
/// the `_OPENMP` date each defines. Without the option it is 5.0's, as in clang: ompcc
/// implements 5.0 and the parts of 5.1 and 5.2 that its README lists.
pub const OPENMP_VERSIONS: &[(u32, u32)] =
    &[(45, 201511), (50, 201811), (51, 202011), (52, 202111)];

/// The `_OPENMP` value for a command.
pub fn openmp_date(ours: &OmpccOptions) -> u32 {
    let version = ours.openmp_version.unwrap_or(50);
    OPENMP_VERSIONS
        .iter()
        .find(|(v, _)| *v == version)
        .map_or(201811, |&(_, date)| date)
}

/// `__OMPCC_VERSION__`: major * 10000 + minor * 100 + patch (0.1.0 is 100), for `#if`.
pub fn ompcc_version_number() -> u32 {
    let part = |s: &str| s.parse::<u32>().unwrap_or(0);
    part(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + part(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + part(env!("CARGO_PKG_VERSION_PATCH"))
}

/// The macros ompcc defines for an OpenMP compile, as host-compiler words: `_OPENMP` as
/// ompcc implements it (the host compiler's own definition removed first, so neither gcc nor
/// clang warns about a redefinition), `__OMPCC__` and `__OMPCC_VERSION__`.
pub fn openmp_macro_words(ours: &OmpccOptions) -> Vec<String> {
    vec![
        "-U_OPENMP".to_owned(),
        format!("-D_OPENMP={}", openmp_date(ours)),
        "-D__OMPCC__=1".to_owned(),
        format!("-D__OMPCC_VERSION__={}", ompcc_version_number()),
    ]
}

/// Dependency-file options (`-MD`/`-MMD` and friends), as far as the pipeline must know them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deps {
    /// `-MD` or `-MMD` given (write a .d file as a side effect of compiling).
    pub side_effect: bool,
    /// `-M` or `-MM` given (dependencies instead of compiling: implies `-E`).
    pub only: bool,
    /// `-MF FILE` (last one wins).
    pub file: Option<String>,
    /// `-MT`/`-MQ` given: the user chose the target names.
    pub has_target: bool,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// Arguments for the host compiler, in the user's order.
    pub args: Vec<HostArg>,
    pub action: Action,
    /// `-o FILE` (last one wins).
    pub output: Option<String>,
    /// `-fopenmp` in force (`-fno-openmp` after it turns it off).
    pub openmp: bool,
    pub deps: Deps,
    pub ours: OmpccOptions,
    /// `-v`.
    pub verbose: bool,
    /// `-###`: print the commands, run nothing.
    pub dry_run: bool,
    /// `--help`.
    pub help: bool,
    /// `--version`.
    pub version: bool,
    /// An option that the host compiler answers by itself or that changes its file naming
    /// (`-print-*`, `-dumpversion`, `-dumpdir`, ...): the whole command goes to the host
    /// compiler unchanged.
    pub host_only: bool,
    /// The option among those that made the command host-only although it compiles
    /// (`-dumpdir`, `-wrapper`, ...): ompcc warns that target regions are not offloaded.
    pub bypass: Option<String>,
    /// `-save-temps[=cwd|obj]`: ompcc keeps its intermediates next to cc's.
    pub save_temps: bool,
    /// `-fsyntax-only`: check only (cc's checks and ompcc's), write nothing.
    pub syntax_only: bool,
}

impl Invocation {
    /// The input files, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &Input> {
        self.args.iter().filter_map(|a| match &a.kind {
            Kind::Input(input) => Some(input),
            _ => None,
        })
    }
}

/// A command-line error of ompcc's own (bad values for its options).
#[derive(Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Options that take their argument as the next word when it is not attached (`-I dir`).
/// The attached form (`-Idir`) is accepted for the one-letter ones.
const SEPARATE: &[&str] = &[
    "-o",
    "-x",
    "-I",
    "-D",
    "-U",
    "-L",
    "-l",
    "-A",
    "-B",
    "-T",
    "-u",
    "-z",
    "-e",
    "-MF",
    "-MT",
    "-MQ",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-isysroot",
    "-imultilib",
    "-aux-info",
    "-dumpbase",
    "-dumpbase-ext",
    "-dumpdir",
    "--param",
    "-wrapper",
    "-imultiarch",
    // clang's, so that a clang host compiler's arguments are not taken for inputs.
    "-MJ",
    "-Xclang",
    "-mllvm",
    "-target",
    "-arch",
    "-Xopenmp-target",
];

/// gcc's long option spellings (its driver's `option_map`) and the short options they stand
/// for. Those taking a value accept `--name=value` and `--name value`.
const LONG_ALIASES: &[(&str, &str)] = &[
    ("--assemble", "-S"),
    ("--assert", "-A"),
    ("--compile", "-c"),
    ("--debug", "-g"),
    ("--define-macro", "-D"),
    ("--dependencies", "-M"),
    ("--dumpbase", "-dumpbase"),
    ("--dumpdir", "-dumpdir"),
    ("--entry", "-e"),
    ("--for-linker", "-Xlinker"),
    ("--force-link", "-u"),
    ("--include", "-include"),
    ("--include-directory", "-I"),
    ("--include-directory-after", "-idirafter"),
    ("--include-prefix", "-iprefix"),
    ("--include-with-prefix", "-iwithprefix"),
    ("--include-with-prefix-after", "-iwithprefix"),
    ("--include-with-prefix-before", "-iwithprefixbefore"),
    ("--language", "-x"),
    ("--library-directory", "-L"),
    ("--optimize", "-O"),
    ("--output", "-o"),
    ("--prefix", "-B"),
    ("--preprocess", "-E"),
    ("--print-missing-file-dependencies", "-MG"),
    ("--save-temps", "-save-temps"),
    ("--undefine-macro", "-U"),
    ("--user-dependencies", "-MM"),
    ("--verbose", "-v"),
    ("--write-dependencies", "-MD"),
    ("--write-user-dependencies", "-MMD"),
];

/// The short option a long gcc spelling stands for, and its `=value` if attached.
fn long_alias(arg: &str) -> Option<(&'static str, Option<&str>)> {
    let (name, value) = match arg.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (arg, None),
    };
    let &(_, short) = LONG_ALIASES.iter().find(|(long, _)| *long == name)?;
    Some((short, value))
}

/// Whether a short option takes a value (attached or as the next word).
fn takes_value(short: &str) -> bool {
    SEPARATE.contains(&short)
}

/// Options after which the host compiler must see the command as the user wrote it: queries
/// the host compiler answers by itself (no compile happens, so nothing of ompcc's is lost)
/// and options that change how cc runs its own passes or names their files. The second kind
/// hides ompcc's work when the command compiles OpenMP code, so ompcc says so
/// ([`Invocation::bypass`]).
fn forces_host_only(opt: &str) -> bool {
    opt.starts_with("-print-")
        || opt.starts_with("--print-")
        || opt.starts_with("--help=")
        || matches!(
            opt,
            "-dumpversion" | "-dumpfullversion" | "-dumpmachine" | "-dumpspecs" | "--target-help"
        )
        || bypasses_ompcc(opt)
}

/// The host-only options that would otherwise compile: `-dumpbase`/`-dumpbase-ext`/`-dumpdir`
/// (cc's names for its auxiliary files, which ompcc's split compile commands cannot keep),
/// `-wrapper`, `-no-integrated-cpp`, `-traditional-cpp`.
fn bypasses_ompcc(opt: &str) -> bool {
    matches!(
        opt,
        "-dumpbase"
            | "-dumpbase-ext"
            | "-dumpdir"
            | "-wrapper"
            | "-no-integrated-cpp"
            | "-traditional-cpp"
    )
}

/// The language of a file from its suffix, as gcc decides it.
fn lang_of_path(path: &str) -> Lang {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((_, ext)) = name.rsplit_once('.') else {
        return Lang::Linker;
    };
    match ext {
        "c" => Lang::C,
        "i" => Lang::CppOutput,
        "h" | "s" | "S" | "sx" | "cc" | "cp" | "cxx" | "cpp" | "CPP" | "c++" | "C" | "ii"
        | "hh" | "H" | "hp" | "hxx" | "hpp" | "HPP" | "h++" | "tcc" | "m" | "mi" | "mm" | "M"
        | "mii" | "f" | "for" | "ftn" | "F" | "FOR" | "fpp" | "FPP" | "FTN" | "f90" | "f95"
        | "f03" | "f08" | "F90" | "F95" | "F03" | "F08" | "go" | "d" | "di" | "dd" | "ads"
        | "adb" => Lang::OtherSource,
        _ => Lang::Linker,
    }
}

/// The language named by `-x VALUE` (`None` for `-x none`).
fn lang_of_x(value: &str) -> Option<Lang> {
    match value {
        "none" => None,
        "c" => Some(Lang::C),
        "cpp-output" => Some(Lang::CppOutput),
        _ => Some(Lang::OtherSource),
    }
}

/// Parses a command line (response files already expanded; without the program name).
pub fn parse(argv: &[String]) -> Result<Invocation, CliError> {
    let mut inv = Invocation {
        args: Vec::new(),
        action: Action::Link,
        output: None,
        openmp: false,
        deps: Deps::default(),
        ours: OmpccOptions::default(),
        verbose: false,
        dry_run: false,
        help: false,
        version: false,
        host_only: false,
        bypass: None,
        save_temps: false,
        syntax_only: false,
    };
    let (mut saw_e, mut saw_s, mut saw_c) = (false, false, false);
    let mut x_lang: Option<String> = None;
    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        i += 1;
        // Inputs: anything not starting with '-', and '-' itself (standard input).
        if !arg.starts_with('-') || arg == "-" {
            let lang = match &x_lang {
                Some(x) => lang_of_x(x).unwrap_or_else(|| lang_of_path(arg)),
                None => lang_of_path(arg),
            };
            let input = Input {
                path: arg.clone(),
                lang,
                explicit_lang: x_lang.clone(),
            };
            inv.args.push(HostArg {
                words: vec![arg.clone()],
                kind: Kind::Input(input),
            });
            continue;
        }

        // ompcc's own options: consumed here.
        if let Some(consumed) = parse_ours(arg, argv.get(i), &mut inv.ours)? {
            i += consumed;
            continue;
        }
        match arg.as_str() {
            "--help" => {
                inv.help = true;
                continue;
            }
            "--version" => {
                inv.version = true;
                continue;
            }
            "-###" => {
                inv.dry_run = true;
                continue;
            }
            _ => {}
        }

        // Host options: find the option's words (one, or two for a detached argument).
        // gcc's long spellings (`--output=x`, `--compile`) are classified as their short
        // forms; the user's words are kept as written.
        let (canon, long_takes_value) = match long_alias(arg) {
            Some((short, Some(v))) => (format!("{short}{v}"), false),
            Some((short, None)) => (short.to_owned(), takes_value(short)),
            None => (arg.clone(), false),
        };
        let arg = &canon;
        let mut words = vec![argv[i - 1].clone()];
        let value: Option<String> = if long_takes_value || SEPARATE.contains(&arg.as_str()) {
            match argv.get(i) {
                Some(next) => {
                    i += 1;
                    words.push(next.clone());
                    Some(next.clone())
                }
                // gcc reports "missing argument to '-o'"; let it.
                None => None,
            }
        } else {
            None
        };
        let joined = |prefix: &str| -> Option<String> {
            value.clone().or_else(|| {
                arg.strip_prefix(prefix)
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned)
            })
        };

        if forces_host_only(arg) {
            inv.host_only = true;
            if bypasses_ompcc(arg) && inv.bypass.is_none() {
                inv.bypass = Some(arg.clone());
            }
        }
        let kind = match arg.as_str() {
            "-c" | "-S" | "-E" => {
                match arg.as_str() {
                    "-c" => saw_c = true,
                    "-S" => saw_s = true,
                    _ => saw_e = true,
                }
                Kind::Mode
            }
            "-v" => {
                inv.verbose = true;
                Kind::Verbose
            }
            a if a.starts_with("-save-temps") => {
                inv.save_temps = true;
                Kind::SaveTemps
            }
            "-fsyntax-only" => {
                inv.syntax_only = true;
                Kind::Compile
            }
            // `-fopenmp=libomp` is clang's spelling.
            a if a == "-fopenmp" || a.starts_with("-fopenmp=") => {
                inv.openmp = true;
                Kind::Compile
            }
            "-fno-openmp" => {
                inv.openmp = false;
                Kind::Compile
            }
            "-M" | "-MM" => {
                inv.deps.only = true;
                Kind::Deps
            }
            "-MD" | "-MMD" => {
                inv.deps.side_effect = true;
                Kind::Deps
            }
            "-MP" | "-MG" => Kind::Deps,
            "-undef" => Kind::Compile,
            a if a.starts_with("-o") => {
                inv.output = joined("-o");
                Kind::Output
            }
            a if a.starts_with("-x") => {
                // `-x none` (or a missing value) ends the -x in force.
                x_lang = joined("-x").filter(|v| v != "none");
                Kind::Lang
            }
            a if a.starts_with("-MF") => {
                inv.deps.file = joined("-MF");
                Kind::Deps
            }
            a if a.starts_with("-MT") || a.starts_with("-MQ") => {
                inv.deps.has_target = true;
                Kind::Deps
            }
            a if a.starts_with("-Wl,")
                || a == "-Xlinker"
                || a.starts_with("-l")
                || a.starts_with("-L")
                || a.starts_with("-T")
                || a.starts_with("-u")
                || a.starts_with("-z")
                || a == "-e" =>
            {
                Kind::Link
            }
            a if a.starts_with("-g") => Kind::Debug,
            a if a.starts_with("-foffload=") => {
                let value = &a["-foffload=".len()..];
                // `targets[=options]` (gcc before 12 also took `-foffload=-options`)
                let targets = value.split_once('=').map_or(value, |(t, _)| t);
                if !value.starts_with('-')
                    && let Some(t) = targets
                        .split(',')
                        .find(|t| !matches!(*t, "nvptx-none" | "default" | "disable"))
                {
                    return Err(CliError(format!(
                        "unsupported offload target '{t}' in '-foffload=' (ompcc offloads to \
                         NVIDIA GPUs only: nvptx-none)"
                    )));
                }
                inv.ours.offload = if a == "-foffload=disable" {
                    Offload::Disabled
                } else {
                    Offload::Enabled
                };
                Kind::Offload
            }
            a if a.starts_with("-fdiagnostics-color") => {
                inv.ours.color = match a {
                    "-fdiagnostics-color" | "-fdiagnostics-color=always" => Color::Always,
                    "-fdiagnostics-color=never" => Color::Never,
                    // Invalid values are the host compiler's to reject.
                    _ => Color::Auto,
                };
                Kind::Compile
            }
            "-fno-diagnostics-color" => {
                inv.ours.color = Color::Never;
                Kind::Compile
            }
            a if a.starts_with("-ffp-contract=") => {
                inv.ours.fp_contract = Some(a["-ffp-contract=".len()..].to_owned());
                Kind::Compile
            }
            a if a.starts_with("-std=") => {
                inv.ours.std = Some(a["-std=".len()..].to_owned());
                Kind::Compile
            }
            "-ansi" => {
                inv.ours.std = Some("c90".to_owned());
                Kind::Compile
            }
            a if a.starts_with("-O") => {
                inv.ours.opt_level = Some(match &a[2..] {
                    "" => "1".to_owned(),
                    level => level.to_owned(),
                });
                Kind::Compile
            }
            _ => Kind::Compile,
        };
        inv.args.push(HostArg { words, kind });
    }

    // ompcc's macros follow the `-fopenmp` in force (after any `-fno-openmp`), in every
    // command that gets the user's compile flags; `-foffload=disable` leaves the command
    // exactly cc's.
    if inv.openmp && inv.ours.offload == Offload::Enabled {
        let at = inv
            .args
            .iter()
            .rposition(|a| {
                a.kind == Kind::Compile
                    && a.words[0].starts_with("-fopenmp")
                    && !a.words[0].starts_with("-fopenmp-")
            })
            .map_or(inv.args.len(), |i| i + 1);
        let macros = openmp_macro_words(&inv.ours).into_iter().map(|w| HostArg {
            words: vec![w],
            kind: Kind::Compile,
        });
        inv.args.splice(at..at, macros);
    }

    inv.action = if saw_e || (inv.deps.only && !inv.deps.side_effect) {
        Action::Preprocess
    } else if saw_s {
        Action::Assemble
    } else if saw_c {
        Action::Compile
    } else {
        Action::Link
    };
    Ok(inv)
}

/// Parses one of ompcc's own options. Returns how many following words it consumed, or
/// `None` when `arg` is not ours.
fn parse_ours(
    arg: &str,
    next: Option<&String>,
    ours: &mut OmpccOptions,
) -> Result<Option<usize>, CliError> {
    // `--opt=value` or `--opt value`.
    let long = |name: &str| -> Option<(Option<String>, usize)> {
        if let Some(v) = arg.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
            Some((Some(v.to_owned()), 0))
        } else if arg == name {
            Some((next.cloned(), usize::from(next.is_some())))
        } else {
            None
        }
    };
    let missing = |name: &str| CliError(format!("missing argument to '{name}'"));

    if let Some((value, used)) = long("--emit") {
        let value = value.ok_or_else(|| missing("--emit"))?;
        let stage = EmitStage::parse(&value).ok_or_else(|| {
            let names: Vec<_> = EmitStage::ALL.iter().map(|(n, _)| *n).collect();
            CliError(format!(
                "unknown stage '{value}' in '--emit' (expected one of: {})",
                names.join(", ")
            ))
        })?;
        ours.emit = Some(stage);
        return Ok(Some(used));
    }
    if let Some((value, used)) = long("--offload-arch") {
        let value = value.ok_or_else(|| missing("--offload-arch"))?;
        ours.offload_arch = Some(gpu_arch(value, "--offload-arch")?);
        return Ok(Some(used));
    }
    // clang's offloading options, so that build files written for clang work unchanged.
    if let Some(list) = arg.strip_prefix("-fopenmp-targets=") {
        for triple in list.split(',') {
            if !triple.starts_with("nvptx64") {
                return Err(CliError(format!(
                    "unsupported offload target '{triple}' in '-fopenmp-targets' (ompcc \
                     offloads to NVIDIA GPUs only: nvptx64-nvidia-cuda)"
                )));
            }
        }
        return Ok(Some(0));
    }
    if arg == "-Xopenmp-target" || arg.starts_with("-Xopenmp-target=") {
        if let Some(triple) = arg.strip_prefix("-Xopenmp-target=")
            && !triple.starts_with("nvptx64")
        {
            return Err(CliError(format!(
                "unsupported offload target '{triple}' in '{arg}' (ompcc offloads to NVIDIA \
                 GPUs only: nvptx64-nvidia-cuda)"
            )));
        }
        let value = next.ok_or_else(|| missing(arg))?;
        let arch = value
            .strip_prefix("-march=")
            .or_else(|| value.strip_prefix("--offload-arch="))
            .ok_or_else(|| {
                CliError(format!(
                    "unsupported device option '{value}' after '{arg}' (ompcc takes \
                     -march=sm_NN there)"
                ))
            })?;
        ours.offload_arch = Some(gpu_arch(arch.to_owned(), arg)?);
        return Ok(Some(1));
    }
    if let Some(version) = arg.strip_prefix("-fopenmp-version=") {
        // It sets `_OPENMP`; ompcc compiles the same constructs whatever version is asked
        // for, as clang does for the features it has.
        let known = version
            .parse::<u32>()
            .ok()
            .filter(|v| OPENMP_VERSIONS.iter().any(|(k, _)| k == v));
        let Some(v) = known else {
            let names: Vec<String> = OPENMP_VERSIONS.iter().map(|(v, _)| v.to_string()).collect();
            return Err(CliError(format!(
                "invalid value '{version}' in '-fopenmp-version=' (expected one of: {})",
                names.join(", ")
            )));
        };
        ours.openmp_version = Some(v);
        return Ok(Some(0));
    }
    if arg == "-fopenmp-auto-offload" || arg == "-fno-openmp-auto-offload" {
        ours.auto_offload = arg == "-fopenmp-auto-offload";
        return Ok(Some(0));
    }
    if arg == "-fopenmp-plan-data" || arg == "-fno-openmp-plan-data" {
        ours.plan_data = arg == "-fopenmp-plan-data";
        return Ok(Some(0));
    }
    if arg == "-fopenmp-offload-mandatory" {
        return Err(CliError(
            "'-fopenmp-offload-mandatory' is not supported: run the program with \
             OMP_TARGET_OFFLOAD=MANDATORY instead"
                .into(),
        ));
    }
    if let Some((value, used)) = long("--passes") {
        let value = value.ok_or_else(|| missing("--passes"))?;
        ours.passes = Some(value);
        return Ok(Some(used));
    }
    if let Some((value, used)) = long("--print-after") {
        let value = value.ok_or_else(|| missing("--print-after"))?;
        ours.print_after = Some(value);
        return Ok(Some(used));
    }
    if let Some((value, used)) = long("--disable-pass") {
        let value = value.ok_or_else(|| missing("--disable-pass"))?;
        ours.disabled_passes.extend(
            value
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned),
        );
        return Ok(Some(used));
    }
    if let Some((value, used)) = long("--explain") {
        ours.explain = Some(value.ok_or_else(|| missing("--explain"))?);
        return Ok(Some(used));
    }
    match arg {
        "--print-pipeline" => {
            ours.print_pipeline = true;
            return Ok(Some(0));
        }
        "--list-passes" => {
            ours.list_passes = true;
            return Ok(Some(0));
        }
        "--device-only" => {
            ours.device_only = true;
            return Ok(Some(0));
        }
        "--time-passes" => {
            ours.time_passes = true;
            return Ok(Some(0));
        }
        "--time-phases" => {
            ours.time_phases = true;
            return Ok(Some(0));
        }
        _ => {}
    }
    for (prefix, kind) in [
        ("-Rpass=", RemarkKind::Passed),
        ("-Rpass-missed=", RemarkKind::Missed),
        ("-Rpass-analysis=", RemarkKind::Analysis),
    ] {
        if let Some(regex) = arg.strip_prefix(prefix) {
            ours.remarks.push((kind, regex.to_owned()));
            return Ok(Some(0));
        }
    }
    // `-C key=value` / `-Ckey=value`. gcc's own `-C` (keep comments) takes no argument, so a
    // `-C` followed by a word without '=' stays gcc's.
    if let Some(attached) = arg.strip_prefix("-C").filter(|r| r.contains('=')) {
        ours.codegen.push(key_value(attached)?);
        return Ok(Some(0));
    }
    if arg == "-C"
        && let Some(kv) = next.filter(|n| !n.starts_with('-') && n.contains('='))
    {
        ours.codegen.push(key_value(kv)?);
        return Ok(Some(1));
    }
    Ok(None)
}

/// A CUDA architecture name `sm_NN` (with an optional `a`/`f` suffix), as given to `flag`.
fn gpu_arch(value: String, flag: &str) -> Result<String, CliError> {
    let valid = value
        .strip_prefix("sm_")
        .is_some_and(|n| !n.is_empty() && n.trim_end_matches(['a', 'f']).parse::<u32>().is_ok());
    if !valid {
        return Err(CliError(format!(
            "invalid GPU architecture '{value}' in '{flag}' (expected sm_NN, e.g. sm_80)"
        )));
    }
    Ok(value)
}

fn key_value(text: &str) -> Result<(String, String), CliError> {
    match text.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_owned(), v.to_owned())),
        _ => Err(CliError(format!(
            "invalid codegen option '-C {text}' (expected -C key=value)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Invocation {
        let argv: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        parse(&argv).unwrap()
    }

    fn words(inv: &Invocation) -> Vec<String> {
        inv.args.iter().flat_map(|a| a.words.clone()).collect()
    }

    #[test]
    fn attached_and_detached_forms_keep_their_spelling() {
        let inv = parse_str("-ofoo -I inc -Iinc2 -DX=1 -D Y -lm -l pthread -Wl,-z,now a.c");
        assert_eq!(
            words(&inv),
            [
                "-ofoo",
                "-I",
                "inc",
                "-Iinc2",
                "-DX=1",
                "-D",
                "Y",
                "-lm",
                "-l",
                "pthread",
                "-Wl,-z,now",
                "a.c"
            ]
        );
        assert_eq!(inv.output.as_deref(), Some("foo"));
        let inputs: Vec<_> = inv.inputs().map(|i| i.path.as_str()).collect();
        assert_eq!(inputs, ["a.c"]);
    }

    #[test]
    fn clang_separate_arguments_are_not_inputs() {
        let inv = parse_str("-Xclang -ast-dump.c -target x86_64.o -mllvm -x.c -MJ cdb.json a.c");
        let inputs: Vec<_> = inv.inputs().map(|i| i.path.as_str()).collect();
        assert_eq!(inputs, ["a.c"]);
    }

    #[test]
    fn detached_arguments_are_not_inputs() {
        let inv = parse_str("-include x.c -MT t.c -MF d.c -o out.c -x c y.txt -Xlinker z.o");
        let inputs: Vec<_> = inv.inputs().cloned().collect();
        assert_eq!(inputs.len(), 1);
        assert_eq!(inputs[0].path, "y.txt");
        assert_eq!(inputs[0].lang, Lang::C);
        assert_eq!(inputs[0].explicit_lang.as_deref(), Some("c"));
        assert_eq!(inv.deps.file.as_deref(), Some("d.c"));
        assert!(inv.deps.has_target);
    }

    #[test]
    fn languages_follow_x_and_suffixes() {
        let inv = parse_str("a.c b.i c.cpp d.o e.a f.so g -x c h.txt -x none i.S -xcpp-output j");
        let langs: Vec<_> = inv.inputs().map(|i| i.lang.clone()).collect();
        use Lang::*;
        assert_eq!(
            langs,
            [
                C,
                CppOutput,
                OtherSource,
                Linker,
                Linker,
                Linker,
                Linker,
                C,
                OtherSource,
                CppOutput
            ]
        );
    }

    #[test]
    fn long_spellings_are_classified_like_short_ones() {
        let inv = parse_str("--compile --output=x.o --include-directory inc --language c in.txt");
        assert_eq!(inv.action, Action::Compile);
        assert_eq!(inv.output.as_deref(), Some("x.o"));
        assert_eq!(
            words(&inv),
            [
                "--compile",
                "--output=x.o",
                "--include-directory",
                "inc",
                "--language",
                "c",
                "in.txt"
            ]
        );
        let inputs: Vec<_> = inv.inputs().collect();
        assert_eq!(inputs.len(), 1);
        assert_eq!(inputs[0].lang, Lang::C);
        let inv = parse_str("--output out --write-dependencies --preprocess a.c");
        assert_eq!(inv.output.as_deref(), Some("out"));
        assert!(inv.deps.side_effect);
        assert_eq!(inv.action, Action::Preprocess);
        assert!(parse_str("--save-temps a.c").save_temps);
    }

    #[test]
    fn action_precedence_is_gccs() {
        assert_eq!(parse_str("-c -S a.c").action, Action::Assemble);
        assert_eq!(parse_str("-c -E a.c").action, Action::Preprocess);
        assert_eq!(parse_str("-c a.c").action, Action::Compile);
        assert_eq!(parse_str("a.c").action, Action::Link);
        assert_eq!(parse_str("-M a.c").action, Action::Preprocess);
        assert_eq!(parse_str("-MM -MD a.c").action, Action::Link);
        assert_eq!(parse_str("-c -MD a.c").action, Action::Compile);
    }

    #[test]
    fn openmp_last_one_wins() {
        assert!(parse_str("-fopenmp a.c").openmp);
        assert!(!parse_str("-fopenmp -fno-openmp a.c").openmp);
        assert!(parse_str("-fno-openmp -fopenmp a.c").openmp);
        assert!(parse_str("-fopenmp=libomp a.c").openmp);
        assert!(!parse_str("-fopenmp-simd a.c").openmp);
    }

    #[test]
    fn ours_are_removed_from_host_args() {
        let inv = parse_str(
            "--emit=ptx --offload-arch sm_80 --device-only -Rpass=unroll -Rpass-missed=licm|gvn --passes=sroa,gvn \
             --print-after=gvn --time-passes --time-phases -C unroll=4 -Cinline=no -C a.c -fdiagnostics-color=never",
        );
        assert_eq!(words(&inv), ["-C", "a.c", "-fdiagnostics-color=never"]);
        let o = &inv.ours;
        assert_eq!(o.emit, Some(EmitStage::Ptx));
        assert_eq!(o.offload_arch.as_deref(), Some("sm_80"));
        assert!(o.device_only && o.time_passes && o.time_phases);
        assert_eq!(
            o.remarks,
            [
                (RemarkKind::Passed, "unroll".to_owned()),
                (RemarkKind::Missed, "licm|gvn".to_owned())
            ]
        );
        assert_eq!(o.passes.as_deref(), Some("sroa,gvn"));
        assert_eq!(o.print_after.as_deref(), Some("gvn"));
        assert_eq!(
            o.codegen,
            [
                ("unroll".into(), "4".into()),
                ("inline".into(), "no".into())
            ]
        );
        assert_eq!(o.color, Color::Never);
    }

    #[test]
    fn fp_contract_and_std_are_remembered_and_forwarded() {
        let inv = parse_str("-std=c99 -ffp-contract=on -ansi a.c -ffp-contract=fast");
        assert_eq!(inv.ours.fp_contract.as_deref(), Some("fast"));
        assert_eq!(inv.ours.std.as_deref(), Some("c90"));
        assert_eq!(
            words(&inv),
            [
                "-std=c99",
                "-ffp-contract=on",
                "-ansi",
                "a.c",
                "-ffp-contract=fast"
            ]
        );
    }

    #[test]
    fn bad_values_of_our_options_are_errors() {
        let bad = |line: &str| {
            let argv: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
            parse(&argv).unwrap_err().0
        };
        assert!(bad("--emit=llvm").contains("unknown stage 'llvm'"));
        assert!(bad("--offload-arch=gfx90a").contains("invalid GPU architecture"));
        assert!(bad("--emit").contains("missing argument"));
        assert!(bad("-C =3").contains("invalid codegen option"));
        assert!(bad("-fopenmp-targets=amdgcn-amd-amdhsa").contains("unsupported offload target"));
        assert!(bad("-Xopenmp-target -O3").contains("unsupported device option '-O3'"));
        assert!(bad("-Xopenmp-target").contains("missing argument"));
        assert!(
            bad("-Xopenmp-target=amdgcn-amd-amdhsa -march=gfx90a").contains("'amdgcn-amd-amdhsa'")
        );
        assert!(bad("-Xopenmp-target -march=gfx90a").contains("invalid GPU architecture"));
        assert!(bad("-fopenmp-version=x").contains("invalid value"));
        assert!(bad("-fopenmp-version=53").contains("expected one of: 45, 50, 51, 52"));
        assert!(bad("-fopenmp-offload-mandatory").contains("OMP_TARGET_OFFLOAD=MANDATORY"));
        assert!(
            bad("-foffload=amdgcn-amdhsa").contains("unsupported offload target 'amdgcn-amdhsa'")
        );
    }

    #[test]
    fn openmp_macros_follow_the_version_and_the_last_fopenmp() {
        let date = |cmd: &str| {
            let inv = parse_str(cmd);
            let w = words(&inv);
            w.iter()
                .find_map(|w| w.strip_prefix("-D_OPENMP="))
                .map(str::to_owned)
        };
        assert_eq!(date("-fopenmp a.c").as_deref(), Some("201811"));
        assert_eq!(
            date("-fopenmp-version=52 -fopenmp a.c").as_deref(),
            Some("202111")
        );
        assert_eq!(
            date("-fopenmp -fopenmp-version=45 a.c").as_deref(),
            Some("201511")
        );
        assert_eq!(date("-fopenmp -fno-openmp a.c"), None);
        assert_eq!(date("-fopenmp -foffload=disable a.c"), None);
        assert_eq!(date("a.c"), None);
        // After the `-fopenmp` in force, never before a `-fno-openmp` that it follows.
        let inv = parse_str("-fno-openmp -O2 -fopenmp=libomp -c a.c");
        assert_eq!(
            &words(&inv)[..4],
            ["-fno-openmp", "-O2", "-fopenmp=libomp", "-U_OPENMP"]
        );
    }

    #[test]
    fn clang_offload_options_are_ours() {
        let inv = parse_str(
            "-fopenmp -fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target=nvptx64-nvidia-cuda \
             -march=sm_80 -fopenmp-version=51 a.c",
        );
        assert_eq!(inv.ours.offload_arch.as_deref(), Some("sm_80"));
        let v = format!("-D__OMPCC_VERSION__={}", ompcc_version_number());
        assert_eq!(
            words(&inv),
            [
                "-fopenmp",
                "-U_OPENMP",
                "-D_OPENMP=202011",
                "-D__OMPCC__=1",
                &v,
                "a.c"
            ]
        );
        let inv = parse_str("-fopenmp-targets=nvptx64 -Xopenmp-target --offload-arch=sm_90a a.c");
        assert_eq!(inv.ours.offload_arch.as_deref(), Some("sm_90a"));
        assert_eq!(words(&inv), ["a.c"]);
        for ok in [
            "-foffload=nvptx-none",
            "-foffload=default",
            "-foffload=nvptx-none=-O3",
            "-foffload=-lm",
        ] {
            assert_eq!(parse_str(ok).ours.offload, Offload::Enabled, "{ok}");
        }
    }

    #[test]
    fn host_only_options_are_flagged() {
        assert!(parse_str("-print-file-name=libgomp.so").host_only);
        assert!(parse_str("-dumpversion").host_only);
        assert!(!parse_str("-save-temps a.c").host_only);
        assert!(!parse_str("-fsyntax-only a.c").host_only);
        let inv = parse_str("-fopenmp -dumpdir d/ a.c");
        assert!(inv.host_only);
        assert_eq!(inv.bypass.as_deref(), Some("-dumpdir"));
        assert_eq!(parse_str("-dumpmachine").bypass, None);
        assert!(!parse_str("-O2 a.c").host_only);
    }

    #[test]
    fn offload_and_opt_level_are_remembered() {
        let inv = parse_str("-O -foffload=nvptx-none -Ofast -foffload=disable");
        assert_eq!(inv.ours.opt_level.as_deref(), Some("fast"));
        assert_eq!(inv.ours.offload, Offload::Disabled);
        let offload: Vec<_> = inv
            .args
            .iter()
            .filter(|a| a.kind == Kind::Offload)
            .collect();
        assert_eq!(offload.len(), 2);
    }
}
