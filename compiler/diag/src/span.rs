//! Byte ranges into the preprocessed text.
//!
//! Invariant: `lo <= hi`; both are byte offsets into the one preprocessed buffer a
//! [`crate::SourceMap`] was built from (u32: inputs above 4 GiB are rejected by the parser).

use std::fmt;
use std::ops::Range;

/// A half-open byte range `lo..hi` into the preprocessed text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
}

impl Span {
    /// A span from `lo` to `hi`; swaps the bounds if given in the wrong order.
    pub fn new(lo: u32, hi: u32) -> Span {
        if lo <= hi {
            Span { lo, hi }
        } else {
            Span { lo: hi, hi: lo }
        }
    }

    /// An empty span at `pos`.
    pub fn point(pos: u32) -> Span {
        Span { lo: pos, hi: pos }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> u32 {
        self.hi - self.lo
    }

    /// True when the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.lo == self.hi
    }

    /// As a `usize` range, for slicing the preprocessed text.
    pub fn range(self) -> Range<usize> {
        self.lo as usize..self.hi as usize
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}
