//! Optimization remarks, clang's three kinds: what a pass did (`-Rpass=NAME`, one line per
//! transformation: "promoted 2 stack slots to SSA values: ss0, ss1"), what it tried and did
//! not do, with the reason (`-Rpass-missed=NAME`: "loop not unrolled: trip count unknown"),
//! and the analysis behind a decision (`-Rpass-analysis=NAME`), into a `Remarks` sink the
//! caller owns.
//!
//! A sink has one filter by pass name per kind (`PrintFilter`: none, all, or a list); a pass
//! asks `wants()` / `wants_missed()` / `wants_analysis()` before building a message, so
//! remarks cost nothing when nobody listens. The pass
//! manager tells the sink which pass and function run (`begin`), so passes only write the
//! message and, where one instruction is the obvious subject, its source location. Every pass
//! has a plain form (`dce(func)`) and a `_with_remarks` form; the plain form passes a sink
//! that wants nothing. Library code never prints: the caller renders `Remark`s (`Display`:
//! `@f: message [-Rpass=dce]`, `[-Rpass-missed=unroll]`, ..., prefixed by the location's
//! `file:line:col` when the driver knows the file names). Invariant: a remark never changes
//! what a pass does. A missed or analysis remark equal to one already collected (a pass
//! that runs twice in a pipeline meets the same loop again) is dropped.

use crate::manager::PrintFilter;
use ompcc_ir::SourceLoc;
use std::fmt;

/// The kind of a remark, which selects the option that asks for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RemarkKind {
    /// A transformation done (`-Rpass=`).
    #[default]
    Passed,
    /// A transformation tried and not done, with the reason (`-Rpass-missed=`).
    Missed,
    /// An analysis result behind a decision (`-Rpass-analysis=`).
    Analysis,
}

impl RemarkKind {
    /// The command-line option of this kind, without `=`.
    pub fn option(self) -> &'static str {
        match self {
            RemarkKind::Passed => "-Rpass",
            RemarkKind::Missed => "-Rpass-missed",
            RemarkKind::Analysis => "-Rpass-analysis",
        }
    }
}

/// One remark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    /// Which kind it is.
    pub kind: RemarkKind,
    /// The pass that made it.
    pub pass: &'static str,
    /// The function it is about.
    pub function: String,
    /// Where in the source, when one instruction is its subject (else unknown).
    pub loc: SourceLoc,
    /// What the pass did.
    pub message: String,
}

impl fmt::Display for Remark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "@{}: {} [{}={}]",
            self.function,
            self.message,
            self.kind.option(),
            self.pass
        )
    }
}

impl Remark {
    /// The remark as a compiler prints it, clang style: `FILE:LINE:COL: remark: @f: message
    /// [-Rpass=NAME]`, or without the position when the remark has no location or its file
    /// index is not in `files` (the module's `files`).
    pub fn render(&self, files: &[String]) -> String {
        match files.get(self.loc.file as usize) {
            Some(file) if !self.loc.is_unknown() => {
                format!("{file}:{}:{}: remark: {self}", self.loc.line, self.loc.col)
            }
            _ => format!("remark: {self}"),
        }
    }
}

/// Collects the remarks of the passes its filters name, one filter per kind.
#[derive(Clone, Debug, Default)]
pub struct Remarks {
    filter: PrintFilter,
    missed: PrintFilter,
    analysis: PrintFilter,
    pass: &'static str,
    function: String,
    list: Vec<Remark>,
}

impl Remarks {
    /// A sink for what the passes `filter` names did (`PrintFilter::parse("mem2reg,dce")`).
    pub fn new(filter: PrintFilter) -> Remarks {
        Remarks {
            filter,
            ..Remarks::default()
        }
    }

    /// A sink for the three kinds: `-Rpass`, `-Rpass-missed` and `-Rpass-analysis` remarks of
    /// the passes each filter names.
    pub fn with_kinds(passed: PrintFilter, missed: PrintFilter, analysis: PrintFilter) -> Remarks {
        Remarks {
            filter: passed,
            missed,
            analysis,
            ..Remarks::default()
        }
    }

    /// Whether any remark of any kind is wanted (lowering then keeps source locations).
    pub fn wants_any(&self) -> bool {
        [&self.filter, &self.missed, &self.analysis]
            .iter()
            .any(|f| **f != PrintFilter::None)
    }

    /// Tells the sink that `pass` now runs on `function`.
    pub fn begin(&mut self, pass: &'static str, function: &str) {
        self.pass = pass;
        if self.function != function {
            self.function = function.to_string();
        }
    }

    /// Whether `pass` has its remarks collected.
    pub fn wants_pass(&self, pass: &str) -> bool {
        self.filter.matches(pass)
    }

    /// Whether the running pass has its remarks collected.
    pub fn wants(&self) -> bool {
        self.filter.matches(self.pass)
    }

    /// Whether the running pass has its missed-optimization remarks collected.
    pub fn wants_missed(&self) -> bool {
        self.missed.matches(self.pass)
    }

    /// Whether the running pass has its analysis remarks collected.
    pub fn wants_analysis(&self) -> bool {
        self.analysis.matches(self.pass)
    }

    /// Records a remark of the running pass (dropped unless `wants()`).
    pub fn emit(&mut self, loc: SourceLoc, message: impl Into<String>) {
        if self.wants() {
            self.push(RemarkKind::Passed, loc, message.into());
        }
    }

    /// Records a missed-optimization remark of the running pass (dropped unless
    /// `wants_missed()`).
    pub fn emit_missed(&mut self, loc: SourceLoc, message: impl Into<String>) {
        if self.wants_missed() {
            self.push(RemarkKind::Missed, loc, message.into());
        }
    }

    /// Records an analysis remark of the running pass (dropped unless `wants_analysis()`).
    pub fn emit_analysis(&mut self, loc: SourceLoc, message: impl Into<String>) {
        if self.wants_analysis() {
            self.push(RemarkKind::Analysis, loc, message.into());
        }
    }

    fn push(&mut self, kind: RemarkKind, loc: SourceLoc, message: String) {
        // A pass that runs several times in a pipeline finds the same missed chance again.
        let repeated = kind != RemarkKind::Passed
            && self.list.iter().any(|r| {
                r.kind == kind
                    && r.pass == self.pass
                    && r.function == self.function
                    && r.loc == loc
                    && r.message == message
            });
        if repeated {
            return;
        }
        self.list.push(Remark {
            kind,
            pass: self.pass,
            function: self.function.clone(),
            loc,
            message,
        });
    }

    /// The remarks so far, in order.
    pub fn remarks(&self) -> &[Remark] {
        &self.list
    }

    /// Takes the remarks so far, leaving the sink empty (filter kept).
    pub fn take(&mut self) -> Vec<Remark> {
        std::mem::take(&mut self.list)
    }
}

/// `n` followed by `one` or `many` (`plural(2, "slot", "slots")` is "2 slots").
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering() {
        let mut r = Remarks::new(PrintFilter::parse("dce").unwrap());
        r.begin("gvn", "f");
        r.emit(SourceLoc::default(), "dropped: gvn is not wanted");
        r.begin("dce", "f");
        r.emit(SourceLoc::new(0, 3, 7), "removed 1 dead instruction");
        r.emit(SourceLoc::default(), "no location");
        let files = vec!["k.c".to_string()];
        let out: Vec<String> = r.remarks().iter().map(|r| r.render(&files)).collect();
        assert_eq!(
            out,
            [
                "k.c:3:7: remark: @f: removed 1 dead instruction [-Rpass=dce]",
                "remark: @f: no location [-Rpass=dce]",
            ]
        );
        assert_eq!(
            r.remarks()[0].render(&[]),
            "remark: @f: removed 1 dead instruction [-Rpass=dce]"
        );
    }

    #[test]
    fn kinds_have_their_own_filters() {
        let p = |s: &str| PrintFilter::parse(s).unwrap();
        let mut r = Remarks::with_kinds(PrintFilter::None, p("unroll"), p("licm"));
        assert!(r.wants_any());
        r.begin("unroll", "f");
        assert!(!r.wants() && r.wants_missed() && !r.wants_analysis());
        r.emit(SourceLoc::default(), "unrolled: not asked for");
        r.emit_missed(
            SourceLoc::default(),
            "loop not unrolled: trip count unknown",
        );
        r.emit_analysis(SourceLoc::default(), "not asked for either");
        r.begin("licm", "f");
        r.emit_analysis(SourceLoc::default(), "3 loads, 1 store");
        let out: Vec<String> = r.take().iter().map(ToString::to_string).collect();
        assert_eq!(
            out,
            [
                "@f: loop not unrolled: trip count unknown [-Rpass-missed=unroll]",
                "@f: 3 loads, 1 store [-Rpass-analysis=licm]",
            ]
        );
        assert!(!Remarks::default().wants_any());
    }
}
