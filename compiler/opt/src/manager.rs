//! The pass manager: named passes, pipelines per optimization level, `--passes=` parsing,
//! print-before/after hooks, verification after each pass and a time-passes table.
//!
//! Passes are plain functions (`PassFn`) over one function, or over the module for inlining,
//! returning true when they changed something; they write remarks (`-Rpass=`) into the
//! manager's sink, which drops them unless its filter names the pass, and read the manager's
//! `Knobs` (`-C key=value`). A module runs pass by pass (every function through one pass
//! before the next starts).
//! The manager never prints: hook output and the timing table go to strings the caller owns.
//! When verification is on, the first pass that leaves a function invalid stops the pipeline
//! with a `PassError` that carries the annotated function text.

use crate::knobs::Knobs;
use crate::remarks::Remarks;
use ompcc_ir::verifier::annotate;
use ompcc_ir::{Function, Module, VerifierError, verify_function};
use std::fmt::{self, Write};
use std::time::{Duration, Instant};

/// How a pass runs.
#[derive(Clone, Copy)]
pub enum PassFn {
    /// Over one function, reporting to the remarks sink.
    Function(fn(&mut Function, &mut Remarks) -> bool),
    /// Over one function, reading the knobs.
    FunctionKnobs(fn(&mut Function, &Knobs, &mut Remarks) -> bool),
    /// Over the whole module (inlining); it tells the sink which function each remark is
    /// about with `Remarks::begin`.
    Module(fn(&mut Module, &Knobs, &mut Remarks) -> bool),
}

/// A named pass.
#[derive(Clone, Copy)]
pub struct Pass {
    /// Name used in `--passes=` and the timing table.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// The pass itself.
    pub run: PassFn,
}

impl fmt::Debug for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Every registered pass.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "sroa",
        description: "split stack slots accessed at constant offsets into one slot per field",
        run: PassFn::Function(crate::sroa::sroa_with_remarks),
    },
    Pass {
        name: "nary",
        description: "regroup integer sums and address chains to reuse a part computed earlier",
        run: PassFn::Function(crate::nary::nary_with_remarks),
    },
    Pass {
        name: "mem2reg",
        description: "promote loaded/stored stack slots to SSA values",
        run: PassFn::Function(crate::mem2reg::mem2reg_with_remarks),
    },
    Pass {
        name: "simplify",
        description: "constant folding and algebraic identities",
        run: PassFn::Function(crate::simplify::simplify_with_remarks),
    },
    Pass {
        name: "dce",
        description: "remove instructions and block parameters that feed no side effect",
        run: PassFn::Function(crate::dce::dce_with_remarks),
    },
    Pass {
        name: "gvn",
        description: "remove pure instructions a dominating identical one already computed",
        run: PassFn::Function(crate::gvn::gvn_with_remarks),
    },
    Pass {
        name: "licm",
        description: "give loops preheaders and hoist pure, non-trapping invariant instructions and loads of memory the loop does not write",
        run: PassFn::Function(crate::licm::licm_with_remarks),
    },
    Pass {
        name: "spaces",
        description: "infer the address space of generic pointers and access memory through it",
        run: PassFn::Function(crate::spaces::spaces_with_remarks),
    },
    Pass {
        name: "simplifycfg",
        description: "fold constant branches, thread empty blocks, drop unreachable blocks, merge straight-line blocks",
        run: PassFn::Function(crate::simplifycfg::simplifycfg_with_remarks),
    },
    Pass {
        name: "inline",
        description: "inline calls to small, always_inline and inline-hinted device functions (knob inline-threshold)",
        run: PassFn::Module(crate::inline::inline_with_remarks),
    },
    Pass {
        name: "loadfwd",
        description: "replace loads of values already known (stored or loaded) at a must-alias address, by alias analysis",
        run: PassFn::Function(crate::memopt::loadfwd_with_remarks),
    },
    Pass {
        name: "dse",
        description: "remove stores overwritten before any read, stores to non-escaping stack slots before a return, and every store to a non-escaping slot no load reads",
        run: PassFn::Function(crate::memopt::dse_with_remarks),
    },
    Pass {
        name: "reassoc",
        description: "move constant parts of 64-bit pointer offsets outward, into [reg+imm] addressing",
        run: PassFn::Function(crate::reassoc::reassoc_with_remarks),
    },
    Pass {
        name: "contract",
        description: "contract a*b+c into fma following the fp-contract knob (off, on, fast)",
        run: PassFn::FunctionKnobs(crate::contract::contract_with_remarks),
    },
    Pass {
        name: "speculate",
        description: "run small side-effect-free conditional blocks unconditionally and select their results",
        run: PassFn::Function(crate::speculate::speculate_with_remarks),
    },
    Pass {
        name: "divrem",
        description: "compute a remainder from the quotient of the same operands (a - (a / b) * b) instead of dividing again",
        run: PassFn::Function(crate::divrem::divrem_with_remarks),
    },
    Pass {
        name: "divbypass",
        description: "give 64-bit division and remainder a 32-bit path when both operands fit",
        run: PassFn::Function(crate::divbypass::divbypass_with_remarks),
    },
    Pass {
        name: "narrow",
        description: "do 64-bit index arithmetic, divisions and ext/trunc round trips in 32 bits where value ranges prove it fits",
        run: PassFn::Function(crate::narrow::narrow_with_remarks),
    },
    Pass {
        name: "narrowiv",
        description: "keep 64-bit loop counters in 32 bits where value ranges prove every value lies in [0, 2^32)",
        run: PassFn::Function(crate::narrowiv::narrowiv_with_remarks),
    },
    Pass {
        name: "slsr",
        description: "straight-line strength reduction: (b + c) * s from a dominating (b + c') * s by adds and shifts",
        run: PassFn::Function(crate::slsr::slsr_with_remarks),
    },
    Pass {
        name: "readonly",
        description: "mark kernel loads of global memory that no store, atomic or call of the kernel can write (ld.global.nc)",
        run: PassFn::Function(crate::readonly::readonly_with_remarks),
    },
    Pass {
        name: "rotate",
        description: "kernel loops as guarded do-while loops, loop-only values computed after the guard (last: ptxas then keeps the memory descriptor out of the loop)",
        run: PassFn::Function(crate::rotate::rotate_with_remarks),
    },
    Pass {
        name: "cache",
        description: "keep values a loop re-reads in registers across iterations (a[i+1] reused as a[i]) and hoist invariant loads, for memory the loop never writes (knob register-cache; after rotate)",
        run: PassFn::FunctionKnobs(crate::cache::cache_with_remarks),
    },
    Pass {
        name: "sccp",
        description: "sparse conditional constant propagation of integers through branches and block parameters",
        run: PassFn::Function(crate::sccp::sccp_with_remarks),
    },
    Pass {
        name: "unroll",
        description: "unroll loops fully (small constant trip counts) or by a factor with a remainder loop (knobs unroll-count, unroll-threshold; loop hints)",
        run: PassFn::FunctionKnobs(crate::unroll::unroll_with_remarks),
    },
];

/// Looks a pass up by name.
pub fn lookup(name: &str) -> Option<Pass> {
    PASSES.iter().copied().find(|p| p.name == name)
}

/// Parses a comma-separated pass list (`"mem2reg,simplify,dce"`); `O0`..`O3` stand for the
/// pipeline of that level.
pub fn parse_pipeline(s: &str) -> Result<Vec<Pass>, String> {
    let mut out = Vec::new();
    for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if let Some(level) = name.strip_prefix('O').and_then(|l| l.parse::<u8>().ok()) {
            out.extend(pipeline_for_level(level));
            continue;
        }
        match lookup(name) {
            Some(p) => out.push(p),
            None => {
                let known: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
                return Err(format!(
                    "unknown pass `{name}` (known: {})",
                    known.join(", ")
                ));
            }
        }
    }
    Ok(out)
}

/// The pipeline of an optimization level: -O0 runs nothing (lowering output is already valid
/// IR for the backend); -O1 runs the baseline cleanups and inlining; -O2 and up add GVN,
/// LICM, memory-space inference, load forwarding, dead-store elimination and unrolling (-O3
/// has the same passes with larger thresholds: `Knobs::for_level`).
pub fn pipeline_for_level(level: u8) -> Vec<Pass> {
    let names: &[&str] = match level {
        0 => &[],
        1 => &[
            "sroa",
            "mem2reg",
            "simplify",
            "simplifycfg",
            // Callees were cleaned up above (pass by pass over the module): inline them and
            // clean up the callers again.
            "inline",
            "sroa",
            "mem2reg",
            "simplify",
            "simplifycfg",
            "dce",
            "simplify",
            "simplifycfg",
        ],
        _ => &[
            "sroa",
            "mem2reg",
            "simplify",
            "simplifycfg",
            "inline",
            "sroa",
            "mem2reg",
            "sccp",
            "simplify",
            "simplifycfg",
            "gvn",
            "licm",
            "spaces",
            // Generic accesses to locals became local ones: promote them now.
            "dce",
            "sroa",
            "mem2reg",
            "simplify",
            "loadfwd",
            "dse",
            "gvn",
            "licm",
            // Unrolled copies expose constants (indices, bounds) and redundant address
            // arithmetic across iterations.
            "unroll",
            "simplify",
            "simplifycfg",
            "speculate",
            "gvn",
            "dce",
            // Cleaned up, loops that enclosed the unrolled ones may now be small enough.
            "unroll",
            "simplify",
            "simplifycfg",
            "speculate",
            // Unrolled and cleaned up: products of one stride a constant apart are in view.
            "slsr",
            "reassoc",
            // Constant parts are split off: regroup what remains to reuse computed sums.
            "nary",
            "gvn",
            // Unrolled bodies expose invariant address arithmetic of the enclosing loop.
            "licm",
            "loadfwd",
            "dse",
            "simplify",
            "contract",
            // One division per quotient/remainder pair, before narrowing and bypassing it.
            "divrem",
            // Before divbypass: divisions proven small need no run-time test, once DCE has
            // removed the 64-bit ones they replaced.
            "narrow",
            // Counters over int bounds in 32 bits, then what they feed narrowed again.
            "narrowiv",
            "narrow",
            "dce",
            "divbypass",
            // Last: earlier passes removed the stores they could, and later ones add none.
            "readonly",
            "dce",
            "simplifycfg",
            // Last of all: the shape ptxas keeps the memory descriptor uniform for; the
            // passes above rely on the test at the loop's header.
            "rotate",
            // Rotated loops run their body's straight line on every iteration, the first
            // included: what `cache` needs to load values before the loop. It keeps the shape.
            "cache",
        ],
    };
    names.iter().filter_map(|n| lookup(n)).collect()
}

/// The numeric level of a `-O` level as the driver keeps it (`0`..`3`, `s`, `z`, `fast`,
/// `g`): `g` is treated as 1, `s`, `z` (gcc 12's "size above speed") and `fast` as 2.
pub fn level_of_opt(level: &str) -> Result<u8, String> {
    match level {
        "g" => Ok(1),
        "s" | "z" | "fast" => Ok(2),
        l => l
            .parse::<u8>()
            .map_err(|_| format!("unknown optimization level `-O{l}`")),
    }
}

/// The pipeline for a `-O` level as the driver keeps it (see `level_of_opt`).
pub fn pipeline_for_opt(level: &str) -> Result<Vec<Pass>, String> {
    Ok(pipeline_for_level(level_of_opt(level)?))
}

/// Which passes a print hook fires for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PrintFilter {
    /// Never.
    #[default]
    None,
    /// Every pass.
    All,
    /// The named passes.
    Names(Vec<String>),
}

impl PrintFilter {
    /// Parses a `--print-after=` value: `all` or a comma-separated list of names.
    pub fn parse(s: &str) -> Result<PrintFilter, String> {
        if s == "all" {
            return Ok(PrintFilter::All);
        }
        let names = parse_pipeline(s)?;
        Ok(PrintFilter::Names(
            names.iter().map(|p| p.name.to_string()).collect(),
        ))
    }

    /// Whether the filter selects pass `name`.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            PrintFilter::None => false,
            PrintFilter::All => true,
            PrintFilter::Names(ns) => ns.iter().any(|n| n == name),
        }
    }
}

/// A pass broke the IR.
#[derive(Clone, Debug)]
pub struct PassError {
    /// The pass that ran last (`input` when the function was invalid before any pass).
    pub pass: &'static str,
    /// The function it broke.
    pub function: String,
    /// The verifier's errors.
    pub errors: Vec<VerifierError>,
    /// The function text with the errors inline.
    pub annotated: String,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "IR invalid after pass `{}` in @{}:",
            self.pass, self.function
        )?;
        f.write_str(&self.annotated)
    }
}

impl std::error::Error for PassError {}

/// Runs a pipeline over functions.
#[derive(Debug, Default)]
pub struct PassManager {
    passes: Vec<Pass>,
    /// Verify each function after every pass that changed it (and the input first).
    pub verify: bool,
    /// Print the function before these passes.
    pub print_before: PrintFilter,
    /// Print the function after these passes.
    pub print_after: PrintFilter,
    /// Collect per-pass timings.
    pub time_passes: bool,
    timings: Vec<(&'static str, Duration, u32, u32)>,
    /// Text written by the print hooks.
    pub printed: String,
    /// Remarks of the passes its filter names (`-Rpass=`); wants nothing by default.
    pub remarks: Remarks,
    /// The passes' knobs (`-C key=value`); -O2 defaults unless set.
    pub knobs: Knobs,
}

impl PassManager {
    /// A manager for the pipeline and knobs of optimization level `level`.
    pub fn for_level(level: u8) -> PassManager {
        let mut pm = PassManager::new(pipeline_for_level(level));
        pm.knobs = Knobs::for_level(level);
        pm
    }

    /// Sets the knobs to the defaults of `-O{level}` (as the driver keeps it) with each
    /// `-C key=value` of `codegen` applied in order.
    pub fn set_knobs(&mut self, level: &str, codegen: &[(String, String)]) -> Result<(), String> {
        let mut k = Knobs::for_level(level_of_opt(level)?);
        for (key, value) in codegen {
            k.set(key, value)?;
        }
        self.knobs = k;
        Ok(())
    }

    /// A manager for `passes`, with verification on in debug builds.
    pub fn new(passes: Vec<Pass>) -> PassManager {
        PassManager {
            passes,
            verify: cfg!(debug_assertions),
            ..PassManager::default()
        }
    }

    /// The pipeline.
    pub fn passes(&self) -> &[Pass] {
        &self.passes
    }

    fn check_input(&self, func: &Function) -> Result<(), PassError> {
        if self.verify
            && !self.passes.is_empty()
            && let Err(errors) = verify_function(func)
        {
            return Err(PassError {
                pass: "input",
                function: func.name.clone(),
                annotated: annotate(func, &errors),
                errors,
            });
        }
        Ok(())
    }

    fn record_time(&mut self, name: &'static str, took: Duration, changed: bool) {
        if !self.time_passes {
            return;
        }
        match self.timings.iter_mut().find(|t| t.0 == name) {
            Some(t) => {
                t.1 += took;
                t.2 += 1;
                t.3 += changed as u32;
            }
            None => self.timings.push((name, took, 1, changed as u32)),
        }
    }

    fn print(&mut self, before: bool, pass: &'static str, func: &Function) {
        let (filter, word) = if before {
            (&self.print_before, "before")
        } else {
            (&self.print_after, "after")
        };
        if filter.matches(pass) {
            let _ = write!(self.printed, "; {word} {pass} on @{}\n{func}", func.name);
        }
    }

    fn check(&self, pass: &'static str, func: &Function) -> Result<(), PassError> {
        if self.verify
            && let Err(errors) = verify_function(func)
        {
            return Err(PassError {
                pass,
                function: func.name.clone(),
                annotated: annotate(func, &errors),
                errors,
            });
        }
        Ok(())
    }

    fn run_on_function(&mut self, pass: Pass, func: &mut Function) -> Result<(), PassError> {
        let run = match pass.run {
            PassFn::Function(run) => Some(run),
            _ => None,
        };
        let with_knobs = match pass.run {
            PassFn::FunctionKnobs(run) => Some(run),
            _ => None,
        };
        if run.is_none() && with_knobs.is_none() {
            return Ok(());
        }
        self.print(true, pass.name, func);
        let start = Instant::now();
        self.remarks.begin(pass.name, &func.name);
        let changed = match (run, with_knobs) {
            (Some(run), _) => run(func, &mut self.remarks),
            (None, Some(run)) => run(func, &self.knobs, &mut self.remarks),
            (None, None) => false,
        };
        self.record_time(pass.name, start.elapsed(), changed);
        self.print(false, pass.name, func);
        // A pass that changed nothing leaves the function as verified before it.
        if changed {
            self.check(pass.name, func)
        } else {
            Ok(())
        }
    }

    /// Runs the pipeline on one function. With `verify`, the input is checked first (an
    /// invalid input is reported as pass `input`, not blamed on the first pass). Module
    /// passes (inlining) need the other functions and are skipped here.
    pub fn run_function(&mut self, func: &mut Function) -> Result<(), PassError> {
        self.check_input(func)?;
        for i in 0..self.passes.len() {
            let pass = self.passes[i];
            self.run_on_function(pass, func)?;
        }
        Ok(())
    }

    /// Runs the pipeline on every function of a module, pass by pass: each function pass
    /// runs over every function before the next pass starts, so a module pass sees every
    /// function at the same point of the pipeline.
    pub fn run_module(&mut self, module: &mut Module) -> Result<(), PassError> {
        for f in &module.functions {
            self.check_input(f)?;
        }
        for i in 0..self.passes.len() {
            let pass = self.passes[i];
            match pass.run {
                PassFn::Module(run) => {
                    for f in &module.functions {
                        self.print(true, pass.name, f);
                    }
                    let start = Instant::now();
                    self.remarks.begin(pass.name, "");
                    let changed = run(module, &self.knobs, &mut self.remarks);
                    self.record_time(pass.name, start.elapsed(), changed);
                    for f in &module.functions {
                        self.print(false, pass.name, f);
                        if changed {
                            self.check(pass.name, f)?;
                        }
                    }
                    if self.verify
                        && changed
                        && let Err(errors) = ompcc_ir::verify_module(module)
                    {
                        let text = errors
                            .iter()
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                            .join("\n");
                        return Err(PassError {
                            pass: pass.name,
                            function: String::new(),
                            errors,
                            annotated: text,
                        });
                    }
                }
                _ => {
                    for f in &mut module.functions {
                        self.run_on_function(pass, f)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The time-passes table (empty unless `time_passes`).
    pub fn timing_table(&self) -> String {
        let mut s = String::new();
        if self.timings.is_empty() {
            return s;
        }
        let total: Duration = self.timings.iter().map(|t| t.1).sum();
        let _ = writeln!(
            s,
            "{:<14} {:>10} {:>6} {:>8} {:>6}",
            "pass", "time(us)", "%", "runs", "changed"
        );
        for (name, d, runs, changed) in &self.timings {
            let pct = if total.is_zero() {
                0.0
            } else {
                100.0 * d.as_secs_f64() / total.as_secs_f64()
            };
            let _ = writeln!(
                s,
                "{name:<14} {:>10} {pct:>6.1} {runs:>8} {changed:>6}",
                d.as_micros()
            );
        }
        let _ = writeln!(s, "{:<14} {:>10}", "total", total.as_micros());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ompcc_ir::parser::parse_function;

    const SRC: &str = "func @f(i32) -> i32 {
block0(v0: i32):
    v1 = iconst.i32 0
    v2 = iadd v0, v1
    v3 = imul v2, v2
    return v2
}
";

    #[test]
    fn pipeline_parsing() {
        let p = parse_pipeline("simplify, dce,,simplifycfg").unwrap();
        let names: Vec<&str> = p.iter().map(|p| p.name).collect();
        assert_eq!(names, ["simplify", "dce", "simplifycfg"]);
        let e = parse_pipeline("simplify,inliner").unwrap_err();
        assert!(e.contains("unknown pass `inliner`"), "{e}");
        assert!(pipeline_for_level(0).is_empty());
        assert_eq!(
            pipeline_for_opt("fast").unwrap().len(),
            pipeline_for_level(2).len()
        );
        assert_eq!(
            pipeline_for_opt("z").unwrap().len(),
            pipeline_for_level(2).len()
        );
        assert_eq!(
            pipeline_for_opt("g").unwrap().len(),
            pipeline_for_level(1).len()
        );
        assert!(pipeline_for_opt("x").is_err());
        assert_eq!(
            parse_pipeline("O2").unwrap().len(),
            pipeline_for_level(2).len()
        );
        assert_eq!(parse_pipeline("O0, dce").unwrap().len(), 1);
        let o2: Vec<&str> = pipeline_for_level(2).iter().map(|p| p.name).collect();
        assert!(o2.contains(&"gvn") && o2.contains(&"licm"), "{o2:?}");
        for name in [
            "inline",
            "unroll",
            "loadfwd",
            "dse",
            "reassoc",
            "speculate",
            "contract",
            "divrem",
            "divbypass",
            "narrow",
            "narrowiv",
            "readonly",
            "slsr",
            "sccp",
            "rotate",
            "cache",
        ] {
            assert!(o2.contains(&name), "{name} not in -O2: {o2:?}");
        }
        let o1: Vec<&str> = pipeline_for_level(1).iter().map(|p| p.name).collect();
        assert!(!o1.contains(&"gvn"), "{o1:?}");
        assert!(o1.contains(&"inline"), "{o1:?}");
        let o3: Vec<&str> = pipeline_for_level(3).iter().map(|p| p.name).collect();
        assert_eq!(o2, o3, "-O3 differs in knobs only");
        assert_eq!(pipeline_for_level(2)[0].name, "sroa");
        assert_eq!(PrintFilter::parse("all").unwrap(), PrintFilter::All);
        assert!(PrintFilter::parse("nope").is_err());
    }

    #[test]
    fn hooks_and_timing() {
        let mut f = parse_function(SRC).unwrap();
        let mut pm = PassManager::new(parse_pipeline("simplify,dce").unwrap());
        pm.verify = true;
        pm.print_before = PrintFilter::parse("simplify").unwrap();
        pm.print_after = PrintFilter::All;
        pm.time_passes = true;
        pm.run_function(&mut f).unwrap();
        assert_eq!(pm.printed.matches("; before simplify on @f").count(), 1);
        assert_eq!(pm.printed.matches("; after ").count(), 2);
        assert!(
            pm.printed.contains(
                "; after dce on @f\nfunc @f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n"
            ),
            "{}",
            pm.printed
        );
        let table = pm.timing_table();
        assert!(table.lines().any(|l| l.starts_with("simplify ")), "{table}");
        assert!(table.lines().any(|l| l.starts_with("total")), "{table}");
    }

    #[test]
    fn remarks_follow_the_filter() {
        let run = |filter: PrintFilter| {
            let mut f = parse_function(SRC).unwrap();
            let mut pm = PassManager::new(parse_pipeline("simplify,dce").unwrap());
            pm.remarks = Remarks::new(filter);
            pm.run_function(&mut f).unwrap();
            let text: Vec<String> = pm.remarks.take().iter().map(|r| r.to_string()).collect();
            (text, f.to_string())
        };
        let (none, plain) = run(PrintFilter::None);
        assert!(none.is_empty(), "{none:?}");
        let (dce, with_remarks) = run(PrintFilter::parse("dce").unwrap());
        assert_eq!(
            dce,
            ["@f: removed 2 dead instructions [-Rpass=dce]".to_string()]
        );
        assert_eq!(plain, with_remarks, "remarks do not change the result");
        let (all, _) = run(PrintFilter::All);
        assert_eq!(all.len(), 2, "{all:?}");
        assert!(all[0].ends_with("[-Rpass=simplify]"), "{all:?}");
    }

    #[test]
    fn knobs_from_the_command_line() {
        let mut pm = PassManager::for_level(3);
        assert_eq!(pm.knobs, Knobs::for_level(3));
        let cg = vec![
            ("inline-threshold".to_string(), "7".to_string()),
            ("fp-contract".to_string(), "off".to_string()),
        ];
        pm.set_knobs("2", &cg).unwrap();
        assert_eq!(pm.knobs.inline_threshold, 7);
        assert_eq!(pm.knobs.unroll_count, Knobs::for_level(2).unroll_count);
        assert_eq!(pm.knobs.fp_contract, crate::knobs::FpContract::Off);
        let bad = vec![("unrol".to_string(), "1".to_string())];
        assert!(
            pm.set_knobs("2", &bad)
                .unwrap_err()
                .contains("unknown codegen option")
        );
        assert!(pm.set_knobs("y", &[]).is_err());
    }

    #[test]
    fn module_passes_run_between_function_passes() {
        let src = "internal func @g(i32) -> i32 {
block0(v0: i32):
    v1 = iconst.i32 0
    v2 = iadd v0, v1
    return v2
}

func @f(i32) -> i32 {
    fn0 = func @g(i32) -> i32
block0(v0: i32):
    v1 = call fn0(v0)
    return v1
}
";
        let mut m = ompcc_ir::parse_module(src).unwrap();
        let mut pm = PassManager::new(parse_pipeline("simplify,inline,simplifycfg,dce").unwrap());
        pm.verify = true;
        pm.print_after = PrintFilter::parse("inline").unwrap();
        pm.remarks = Remarks::new(PrintFilter::parse("inline").unwrap());
        pm.run_module(&mut m).unwrap();
        assert_eq!(m.functions.len(), 1, "{m}");
        assert_eq!(
            m.functions[0].to_string(),
            "func @f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n"
        );
        let r: Vec<String> = pm.remarks.take().iter().map(|r| r.to_string()).collect();
        assert_eq!(r[0], "@f: inlined @g into @f [-Rpass=inline]");
        assert!(
            pm.printed.contains("; after inline on @f"),
            "{}",
            pm.printed
        );
    }

    #[test]
    fn verifier_stops_a_broken_pass() {
        fn breaker(f: &mut Function, _: &mut Remarks) -> bool {
            let b = f.layout.entry_block().unwrap();
            let term = f.layout.last_inst(b).unwrap();
            f.layout.remove_inst(term);
            true
        }
        let mut bad = parse_function("func @g() {\nblock0:\n    v0 = iconst.i32 1\n}\n").unwrap();
        let mut pm = PassManager::new(parse_pipeline("dce").unwrap());
        pm.verify = true;
        assert_eq!(pm.run_function(&mut bad).unwrap_err().pass, "input");

        let mut f = parse_function(SRC).unwrap();
        let mut pm = PassManager::new(vec![Pass {
            name: "breaker",
            description: "removes the entry terminator",
            run: PassFn::Function(breaker),
        }]);
        pm.verify = true;
        let e = pm.run_function(&mut f).unwrap_err();
        assert_eq!(e.pass, "breaker");
        assert!(
            e.to_string()
                .contains("; error: block does not end in a terminator"),
            "{e}"
        );
    }
}
