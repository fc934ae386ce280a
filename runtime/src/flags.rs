//! Map-type bits of `ompcc_rt_map_entry.flags`, shared with `include/ompcc_rt.h`.
//!
//! The low 32 bits say what to do with one list item; bits 48..63 hold `MEMBER_OF`: the 1-based
//! index of the parent entry (a whole struct) in the same entry array, 0 when the item stands
//! alone. The values are part of the C ABI: never renumber one, only add new bits.

/// Copy host -> device when the mapping is created (or always, with [`ALWAYS`]).
pub const TO: u64 = 1 << 0;
/// Copy device -> host when the mapping is removed (or always, with [`ALWAYS`]).
pub const FROM: u64 = 1 << 1;
/// `always` modifier: transfer even when the storage was already present.
pub const ALWAYS: u64 = 1 << 2;
/// `delete` map type: drop the dynamic reference count to zero on exit.
pub const DELETE: u64 = 1 << 3;
/// The entry is a kernel parameter (in entry order): the device address of `base` is passed.
pub const TARGET_PARAM: u64 = 1 << 4;
/// firstprivate / by-value: the kernel parameter is the `size` bytes at `begin`; nothing is
/// mapped. Also used for `is_device_ptr` (the bytes of the pointer itself).
pub const LITERAL: u64 = 1 << 5;
/// Implicitly mapped (no map clause written): only changes the wording of logs and errors.
pub const IMPLICIT: u64 = 1 << 6;
/// `close` modifier: a placement hint; accepted and ignored (one memory kind per device).
pub const CLOSE: u64 = 1 << 7;
/// `present` modifier: a fatal error when the storage is not already present.
pub const PRESENT: u64 = 1 << 8;
/// Pointer attachment: `base` is the host address of a pointer variable, `begin` the start of
/// the pointee section it points into (already mapped by another entry). When the pointer or
/// the pointee is newly mapped by this construct (or with [`ALWAYS`]), the device copy of the
/// pointer is set to the device address of the pointee. No reference count changes.
pub const ATTACH: u64 = 1 << 9;
/// The storage is a struct member: its reference count is its parent's (see [`member_of`]).
pub const MEMBER_OF_SHIFT: u32 = 48;
/// Mask of the `MEMBER_OF` field.
pub const MEMBER_OF_MASK: u64 = 0xffff << MEMBER_OF_SHIFT;

/// All bits this runtime knows; any other bit set is an ABI mismatch.
pub const KNOWN: u64 = TO
    | FROM
    | ALWAYS
    | DELETE
    | TARGET_PARAM
    | LITERAL
    | IMPLICIT
    | CLOSE
    | PRESENT
    | ATTACH
    | MEMBER_OF_MASK;

/// 0-based index of the parent entry, when the entry is a struct member.
pub fn member_of(flags: u64) -> Option<usize> {
    let field = (flags & MEMBER_OF_MASK) >> MEMBER_OF_SHIFT;
    (field != 0).then(|| field as usize - 1)
}

/// Encodes `MEMBER_OF(parent)` for a 0-based parent index (used by tests and generated code).
pub fn member_of_bits(parent: usize) -> u64 {
    ((parent as u64 + 1) << MEMBER_OF_SHIFT) & MEMBER_OF_MASK
}

/// The map type as OpenMP spells it, for logs: `to`, `from`, `tofrom`, `alloc`, `delete`.
pub fn describe(flags: u64) -> String {
    let mut s = String::new();
    if flags & LITERAL != 0 {
        return "firstprivate".into();
    }
    if flags & ATTACH != 0 {
        return "attach".into();
    }
    for (bit, word) in [
        (ALWAYS, "always,"),
        (CLOSE, "close,"),
        (PRESENT, "present,"),
    ] {
        if flags & bit != 0 {
            s.push_str(word);
        }
    }
    s.push_str(
        match (flags & TO != 0, flags & FROM != 0, flags & DELETE != 0) {
            (_, _, true) => "delete",
            (true, true, _) => "tofrom",
            (true, false, _) => "to",
            (false, true, _) => "from",
            (false, false, _) => "alloc",
        },
    );
    if flags & IMPLICIT != 0 {
        s.push_str(" (implicit)");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_of_round_trips() {
        assert_eq!(member_of(TO), None);
        assert_eq!(member_of(TO | member_of_bits(0)), Some(0));
        assert_eq!(member_of(member_of_bits(41) | FROM), Some(41));
        assert_eq!(member_of_bits(3) & !MEMBER_OF_MASK, 0);
    }

    #[test]
    fn describes_map_types() {
        assert_eq!(describe(TO | FROM), "tofrom");
        assert_eq!(describe(ALWAYS | FROM), "always,from");
        assert_eq!(describe(0), "alloc");
        assert_eq!(describe(DELETE), "delete");
        assert_eq!(describe(PRESENT | TO | IMPLICIT), "present,to (implicit)");
        assert_eq!(describe(LITERAL | TARGET_PARAM), "firstprivate");
    }
}
