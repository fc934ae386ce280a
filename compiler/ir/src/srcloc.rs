//! Source locations of instructions, for diagnostics and debug line info.
//!
//! A `SourceLoc` names a file by its index in `Module::files`, a 1-based line and a 1-based
//! column (0: unknown column). Line 0 means "no location": it is the default, so the side table
//! `Function::srclocs` (a `SecondaryMap<Inst, SourceLoc>`) needs no entry for instructions
//! without one, and a function built without locations prints exactly as before.
//!
//! Text form: an instruction line ends with `!loc FILE:LINE:COL` (`v3 = iadd v1, v2 !loc 0:12:5`);
//! the module names its files first with `file N "path"` lines, numbered densely from 0.
//!
//! Who sets locations: lowering sets the current location on the `FunctionBuilder`
//! (`set_srcloc`) before building each statement or expression. Passes keep a location with its
//! instruction when they rewrite it in place or move it (the table is keyed by `Inst`). New
//! instructions a pass inserts with a `FuncCursor` positioned by `goto_inst(i)` take `i`'s
//! location, because code inserted before an instruction almost always implements or feeds
//! it (legalization, address rewriting); a pass that inserts code belonging elsewhere calls
//! `FuncCursor::set_srcloc` to say so, and code at a block end (`goto_bottom`) has no location.

use std::fmt;

/// A position in a source file: file index into `Module::files`, line and column (1-based).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLoc {
    /// Index of the file in `Module::files`.
    pub file: u32,
    /// Line, 1-based; 0 means the location is unknown.
    pub line: u32,
    /// Column, 1-based; 0 means unknown.
    pub col: u32,
}

impl SourceLoc {
    /// A location in file `file` (an index into `Module::files`).
    pub fn new(file: u32, line: u32, col: u32) -> SourceLoc {
        SourceLoc { file, line, col }
    }

    /// Whether this is the "no location" value (line 0).
    pub fn is_unknown(self) -> bool {
        self.line == 0
    }
}

impl fmt::Display for SourceLoc {
    /// `FILE:LINE:COL`, as written after `!loc`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}
