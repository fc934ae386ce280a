//! Optimization remarks (`-Rpass=NAME`): passes say what they did, one line per transformation
//! ("promoted 2 stack slots to SSA values: ss0, ss1"), into a `Remarks` sink the caller owns.
//!
//! A sink has a filter by pass name (`PrintFilter`: none, all, or a list); a pass asks
//! `wants()` before building a message, so remarks cost nothing when nobody listens. The pass
//! manager tells the sink which pass and function run (`begin`), so passes only write the
//! message and, where one instruction is the obvious subject, its source location. Every pass
//! has a plain form (`dce(func)`) and a `_with_remarks` form; the plain form passes a sink
//! that wants nothing. Library code never prints: the caller renders `Remark`s (`Display`:
//! `@f: message [-Rpass=dce]`, prefixed by the location's `file:line:col` when the driver knows
//! the file names).

use crate::manager::PrintFilter;
use ompcc_ir::SourceLoc;
use std::fmt;

/// One remark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
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
            "@{}: {} [-Rpass={}]",
            self.function, self.message, self.pass
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

/// Collects the remarks of the passes its filter names.
#[derive(Clone, Debug, Default)]
pub struct Remarks {
    filter: PrintFilter,
    pass: &'static str,
    function: String,
    list: Vec<Remark>,
}

impl Remarks {
    /// A sink for the passes `filter` names (`PrintFilter::parse("mem2reg,dce")`).
    pub fn new(filter: PrintFilter) -> Remarks {
        Remarks {
            filter,
            ..Remarks::default()
        }
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

    /// Records a remark of the running pass (dropped unless `wants()`).
    pub fn emit(&mut self, loc: SourceLoc, message: impl Into<String>) {
        if !self.wants() {
            return;
        }
        self.list.push(Remark {
            pass: self.pass,
            function: self.function.clone(),
            loc,
            message: message.into(),
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
}
