//! The `ompcc` command: a drop-in replacement for `cc` that offloads OpenMP regions to GPUs.
//!
//! `main` only gathers the arguments, expands response files and hands over to
//! [`pipeline::run`]; its exit status is the host compiler's, 1 for ompcc's own errors, and
//! 128+N when ompcc or the host compiler was stopped by signal N.

mod ahead;
mod cli;
mod devlibrary;
mod devlink;
mod diag;
mod exec;
mod explain;
mod frontend;
mod host;
mod hostview;
mod indirect;
mod libcache;
mod link;
mod overlap;
mod pipeline;
mod response;
mod scan;
mod timing;

use std::io::Write as _;

use cli::Color;
use exec::Runner;
use host::HostCc;
use pipeline::DriverError;

const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit ompcc was built from, with its date (`build.rs`; `unknown` without git).
const COMMIT: &str = env!("OMPCC_COMMIT");

fn main() {
    let code = real_main();
    // Flush before `exit`, which skips destructors (nothing else is left to drop here).
    let _ = std::io::stdout().flush();
    std::process::exit(code);
}

fn real_main() -> i32 {
    let start = std::time::Instant::now();
    if std::env::var_os(exec::NESTED_VAR).is_some() {
        let msg = format!(
            "ompcc was started as its own host compiler; set ${} to a C compiler such as gcc",
            host::HOST_CC_VAR
        );
        return DriverError::Fatal(msg).report(diag::use_color(Color::Auto));
    }
    let mut argv = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.into_string() {
            Ok(arg) => argv.push(arg),
            Err(bad) => {
                let msg = format!("argument is not valid UTF-8: {}", bad.to_string_lossy());
                return DriverError::Error(msg).report(diag::use_color(Color::Auto));
            }
        }
    }
    let argv = match response::expand(argv) {
        Ok(argv) => argv,
        Err(e) => return DriverError::Error(e.to_string()).report(diag::use_color(Color::Auto)),
    };
    let inv = match cli::parse(&argv) {
        Ok(inv) => inv,
        Err(e) => return DriverError::Error(e.0).report(diag::use_color(Color::Auto)),
    };
    let color = diag::use_color(inv.ours.color);
    let host = HostCc::from_env();
    if inv.help {
        print_help(&host);
        return 0;
    }
    // Research signposts: answered by ompcc alone, like `--help`.
    if let Some(code) = &inv.ours.explain {
        return match explain::explain(code) {
            Ok(text) => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                0
            }
            Err(e) => DriverError::Error(e).report(color),
        };
    }
    if inv.ours.list_passes || inv.ours.print_pipeline {
        let mut text = String::new();
        if inv.ours.list_passes {
            text.push_str(&frontend::list_passes());
        }
        if inv.ours.print_pipeline {
            match frontend::print_pipeline(&inv.ours)
                .and_then(|t| frontend::opt_settings(&inv.ours).map(|_| t))
            {
                Ok(t) => text.push_str(&t),
                Err(e) => return DriverError::Error(e).report(color),
            }
        }
        let _ = std::io::stdout().write_all(text.as_bytes());
        return 0;
    }
    let runner = Runner::new(inv.verbose);
    if inv.version {
        // One write of ours and the host compiler's text, so `ompcc --version | head -1`
        // ends as quietly as `cc --version | head -1`.
        let (code, host_text) = match runner.probe(&host.cmd(["--version"])) {
            Ok(answer) => answer,
            Err(e) => return DriverError::Run(e).report(color),
        };
        let mut text = format!(
            "ompcc {VERSION} (commit {COMMIT})\nOpenMP: _OPENMP {} (-fopenmp-version=51|52: \
             {}|{}); __OMPCC_VERSION__ {}\nHost C compiler (${}): {}\n",
            cli::openmp_date(&cli::OmpccOptions::default()),
            cli::openmp_date(&cli::OmpccOptions {
                openmp_version: Some(51),
                ..Default::default()
            }),
            cli::openmp_date(&cli::OmpccOptions {
                openmp_version: Some(52),
                ..Default::default()
            }),
            cli::ompcc_version_number(),
            host::HOST_CC_VAR,
            host.display()
        )
        .into_bytes();
        text.extend_from_slice(&host_text);
        let _ = std::io::stdout().write_all(&text);
        return code;
    }
    if inv.verbose {
        eprintln!(
            "ompcc version {VERSION} (commit {COMMIT}; host compiler: {})",
            host.display()
        );
    }
    // (`-###` runs nothing: nothing to time)
    if inv.ours.time_phases && !inv.dry_run {
        timing::enable();
    }
    let code = pipeline::run(&inv, &host, &runner).unwrap_or_else(|e| e.report(color));
    eprint!("{}", timing::report(start.elapsed()));
    code
}

/// `--help`. Written with `writeln!` so that a closed pipe (`ompcc --help | head`) is not an
/// error, as for cc.
fn print_help(host: &HostCc) {
    let _ = writeln!(
        std::io::stdout(),
        "\
Usage: ompcc [options] file...

ompcc is a drop-in C compiler (cc) for OpenMP programs that runs their target regions on
NVIDIA GPUs. Host code is compiled by the host C compiler (${var}, now: {host});
every option below that is not ompcc's own is passed to it, so cc's options all work.

Common cc options:
  -c / -S / -E              compile / compile to assembly / preprocess only
  -o <file>                 write the output to <file>
  -I<dir> -D<m>[=<v>] -U<m> -include <file> -isystem <dir> -iquote <dir>
  -std=<std> -O<level> -g -W<warning> -f<flag> -m<flag> -l<lib> -L<dir> -Wl,<args>
  -MD -MMD -MF <file> -MT <target> -MQ <target> -MP -M -MM
  -fopenmp                  enable OpenMP (device constructs go through ompcc's pipeline)
  -foffload=disable         compile target regions for the host only
  -fdiagnostics-color=<when>  never, always or auto
  -v                        print the commands run
  -###                      print the commands without running them
  @<file>                   read options from <file>
  --version                 print ompcc's and the host compiler's versions

ompcc's own options:
  --emit=<stage>            stop after <stage> and print it: tokens, ast, accesses, ir,
                            ir-opt, ptx, host-c (the user's file, rewritten), host-c-full
                            (all cc sees), annotated-c (the user's file with the planned
                            data directives written in)
  -fopenmp-plan-data        the compiler plans the data movement of target regions (data
                            kept on the device across kernels, updates where the host uses
                            it); -Rpass=plan-data / -Rpass-missed=plan-data say what and why
  -fopenmp-auto-offload     plain `parallel for` loops proven safe also get a GPU version,
                            chosen at run time (OMPCC_AUTO_OFFLOAD=model|device|host); plans
                            data too; -Rpass=auto-offload / -Rpass-missed=auto-offload
  --offload-arch=sm_<NN>    the GPU architecture to generate PTX for
  -fopenmp-targets=nvptx64-nvidia-cuda  -Xopenmp-target[=<triple>] -march=sm_<NN>
  -fopenmp-version=<n>      45, 50 (default), 51 or 52: the OpenMP version _OPENMP names
                            (201511, 201811, 202011, 202111); ompcc also defines
                            __OMPCC__ (1) and __OMPCC_VERSION__ (major*10000+minor*100+patch)
  --device-only             produce only the device code
  -Rpass=<regex>            remarks (file:line:col: remark: ...) from the device passes
                            whose name matches <regex> (unroll, inline, ...; `offload` for
                            the target regions, `plan-data` for the data planner)
  -Rpass-missed=<regex>     the same passes' missed optimizations, with the reason
  -Rpass-analysis=<regex>   the same passes' analysis remarks
  --passes=<p1,p2,...>      run these device passes instead of the -O pipeline
  --print-pipeline          print the -O<level> pipeline as a --passes= list, and stop
  --list-passes             print every device pass with what it does, and stop
  --disable-pass=<p1,...>   leave these passes out of the pipeline that runs
  --explain <code>          explain a diagnostic code (E0803, ...), and stop
  --print-after=<p1,...>    print the device IR after these passes
  --time-passes             report the time spent in each pass
  --time-phases             report where the command's time goes: the host compiler's
                            runs, the frontend, the device passes, PTX, the host rewrite
  -C <key>=<value>          set a device optimizer knob: inline-threshold=<n>,
                            unroll-count=<n>, unroll-threshold=<n>, fp-contract=off|on|fast,
                            loop-swap=on|off (grid mapping of SPMD nests, on at -O2),
                            warp-coop=on|off|reassoc (lanes share inner reduction loops,
                            on at -O2; reassoc: floating-point ones too),
                            private-layout=on|off (device-only work arrays laid out
                            thread-minor, on at -O2), auto-collapse=on|off (a parallel inner
                            loop joins a short distributed loop, on at -O2),
                            triangular-collapse=on|off (... a triangular one too, over
                            the bounding box of its ranges, on at -O2),
                            ordered-coop=on|off|all (lanes share a floating-point sum
                            in the loop's order, the same result, on at -O2; all: CSR
                            rows too), irregular-collapse=on|off (a CSR row's
                            floating-point sum over the warp's nonzeros flattened, each
                            lane adding its row's terms in order, on at -O2),
                            register-cache=on|off (values a loop re-reads kept in
                            registers across iterations, invariant loads hoisted, on
                            at -O2),
                            one-iteration=on|off (a second kernel per SPMD loop region
                            with one iteration per thread and no loop, launched when
                            every iteration can get a thread, on at -O2)
  -ffp-contract=off|on|fast  (cc's option) fusing a*b+c into fma on the device too; default
                            fast, off under an ISO -std=c99/c11/... as in gcc

Device code also honours #pragma unroll [N], #pragma nounroll, #pragma GCC unroll N,
inline, __attribute__((always_inline)), __attribute__((noinline)) and restrict.

Environment:
  {var}             host C compiler command (default: cc), e.g. \"ccache gcc\"
  {rt_var}         the runtime library (default: libompcc_rt.a next to ompcc or in
                            <prefix>/lib)
  {cache_var}           where the device C library is kept preprocessed and compiled
                            between commands (default: $XDG_CACHE_HOME/ompcc or
                            ~/.cache/ompcc; empty: no cache)",
        var = host::HOST_CC_VAR,
        rt_var = link::RUNTIME_LIB_VAR,
        cache_var = libcache::CACHE_DIR_VAR,
        host = host.display()
    );
}
