//! The present table of one device: which host address ranges have corresponding device
//! storage, and their reference counts.
//!
//! Invariants: entries never overlap; every entry is non-empty; an entry is removed exactly
//! when both of its reference counts are zero (the caller asks [`Entry::is_dead`]). Keys are
//! the host start addresses, so a `BTreeMap` range query finds the only entry that can contain
//! or overlap a given range: the last one starting before the range ends.

use crate::backend::DevPtr;
use std::collections::BTreeMap;

/// A reference count that may be infinite (declare target globals, associated pointers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefCount {
    /// Counted references.
    Finite(u64),
    /// Never drops to zero.
    Infinite,
}

impl RefCount {
    fn is_zero(self) -> bool {
        self == RefCount::Finite(0)
    }

    /// Adds one reference.
    pub fn increment(&mut self) {
        if let RefCount::Finite(n) = self {
            *n += 1;
        }
    }

    /// Drops one reference; a count already at zero stays at zero.
    pub fn decrement(&mut self) {
        if let RefCount::Finite(n) = self {
            *n = n.saturating_sub(1);
        }
    }

    /// `delete`: drops every counted reference.
    pub fn clear(&mut self) {
        if let RefCount::Finite(n) = self {
            *n = 0;
        }
    }
}

impl std::fmt::Display for RefCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefCount::Finite(n) => write!(f, "{n}"),
            RefCount::Infinite => f.write_str("inf"),
        }
    }
}

/// One mapped host range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// First host byte.
    pub host_begin: u64,
    /// One past the last host byte (> `host_begin`).
    pub host_end: u64,
    /// Device address of `host_begin`.
    pub dev_begin: DevPtr,
    /// References from `target enter data` / `target exit data` (and the API).
    pub dynamic_refs: RefCount,
    /// References from structured constructs (`target data`, `target`).
    pub structured_refs: u64,
    /// Whether the runtime allocated `dev_begin` (and must free it on removal).
    pub owned: bool,
    /// The device uses the host storage itself (unified shared memory): `dev_begin` is
    /// `host_begin`, nothing was allocated and nothing is copied.
    pub shared: bool,
    /// Variable name as written in the source, for messages.
    pub name: String,
    /// Source location that created the mapping.
    pub loc: String,
}

impl Entry {
    /// Both reference counts are zero: the storage must be removed.
    pub fn is_dead(&self) -> bool {
        self.dynamic_refs.is_zero() && self.structured_refs == 0
    }

    /// Device address corresponding to host address `host` (which may lie outside the entry,
    /// e.g. the base of an array section that starts later).
    pub fn translate(&self, host: u64) -> DevPtr {
        self.dev_begin
            .wrapping_add(host.wrapping_sub(self.host_begin))
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.host_end - self.host_begin
    }
}

/// Result of looking a host range up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// No entry touches the range.
    Absent,
    /// The entry with this key contains the whole range.
    Inside(u64),
    /// The entry with this key overlaps the range without containing it.
    Partial(u64),
}

/// The present table.
#[derive(Default, Debug)]
pub struct PresentTable {
    entries: BTreeMap<u64, Entry>,
}

impl PresentTable {
    /// Looks up `[begin, begin+size)`. A zero-size range is found in the entry that contains
    /// `begin` or ends exactly at it (a one-past-the-end pointer still refers to that storage).
    pub fn lookup(&self, begin: u64, size: u64) -> Lookup {
        let end = begin.saturating_add(size);
        if size == 0 {
            return match self.entries.range(..=begin).next_back() {
                Some((k, e)) if begin <= e.host_end => Lookup::Inside(*k),
                _ => Lookup::Absent,
            };
        }
        match self.entries.range(..end).next_back() {
            Some((k, e)) if e.host_begin <= begin && end <= e.host_end => Lookup::Inside(*k),
            Some((k, e)) if e.host_end > begin => Lookup::Partial(*k),
            _ => Lookup::Absent,
        }
    }

    /// The entry with key `key`.
    pub fn get(&self, key: u64) -> Option<&Entry> {
        self.entries.get(&key)
    }

    /// The entry with key `key`, mutably.
    pub fn get_mut(&mut self, key: u64) -> Option<&mut Entry> {
        self.entries.get_mut(&key)
    }

    /// Adds an entry; the caller has checked with [`PresentTable::lookup`] that it overlaps
    /// nothing. Returns its key.
    pub fn insert(&mut self, entry: Entry) -> u64 {
        debug_assert_eq!(self.lookup(entry.host_begin, entry.size()), Lookup::Absent);
        let key = entry.host_begin;
        self.entries.insert(key, entry);
        key
    }

    /// Removes and returns the entry with key `key`.
    pub fn remove(&mut self, key: u64) -> Option<Entry> {
        self.entries.remove(&key)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries in host address order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(begin: u64, end: u64) -> Entry {
        Entry {
            host_begin: begin,
            host_end: end,
            dev_begin: begin + 0x1000,
            dynamic_refs: RefCount::Finite(1),
            structured_refs: 0,
            owned: true,
            shared: false,
            name: "x".into(),
            loc: "t.c:1:1".into(),
        }
    }

    #[test]
    fn lookup_classifies_ranges() {
        let mut t = PresentTable::default();
        t.insert(entry(100, 200));
        t.insert(entry(300, 400));
        assert_eq!(t.lookup(100, 100), Lookup::Inside(100));
        assert_eq!(t.lookup(150, 10), Lookup::Inside(100));
        assert_eq!(t.lookup(90, 20), Lookup::Partial(100));
        assert_eq!(t.lookup(190, 20), Lookup::Partial(100));
        assert_eq!(t.lookup(50, 400), Lookup::Partial(300));
        assert_eq!(t.lookup(200, 100), Lookup::Absent);
        assert_eq!(t.lookup(0, 100), Lookup::Absent);
        assert_eq!(t.lookup(250, 0), Lookup::Absent);
        assert_eq!(t.lookup(200, 0), Lookup::Inside(100));
        assert_eq!(t.lookup(300, 0), Lookup::Inside(300));
    }

    #[test]
    fn refcounts_saturate_and_infinite_stays() {
        let mut e = entry(0, 8);
        e.dynamic_refs.decrement();
        e.dynamic_refs.decrement();
        assert!(e.is_dead());
        let mut inf = RefCount::Infinite;
        inf.clear();
        inf.decrement();
        assert_eq!(inf, RefCount::Infinite);
        assert_eq!(e.translate(4), 0x1004);
        assert_eq!(e.translate(0u64.wrapping_sub(8)), 0x1000 - 8);
    }
}
