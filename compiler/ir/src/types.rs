//! Value types and address spaces.
//!
//! Every SSA value has exactly one `Type`. Pointers carry the PTX state space they point into;
//! `ptr` with no space written is the generic space. Pointers are 64 bits wide in every space,
//! matching `.address_size 64` (shared/local addresses are zero-extended 32-bit windows).

use std::fmt;

/// A PTX state space that a pointer can point into.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AddrSpace {
    /// Generic addressing: resolved by hardware into one of the others.
    Generic,
    /// Device global memory.
    Global,
    /// Per-block shared memory.
    Shared,
    /// Per-thread local memory (stack slots live here).
    Local,
    /// Constant memory (read-only for kernels).
    Const,
    /// Kernel parameter space.
    Param,
}

impl AddrSpace {
    /// All spaces, in the order used by the parser's keyword table.
    pub const ALL: [AddrSpace; 6] = [
        AddrSpace::Generic,
        AddrSpace::Global,
        AddrSpace::Shared,
        AddrSpace::Local,
        AddrSpace::Const,
        AddrSpace::Param,
    ];

    /// The keyword used in the text form.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Generic => "generic",
            AddrSpace::Global => "global",
            AddrSpace::Shared => "shared",
            AddrSpace::Local => "local",
            AddrSpace::Const => "const",
            AddrSpace::Param => "param",
        }
    }

    /// Parses a space keyword.
    pub fn from_name(s: &str) -> Option<AddrSpace> {
        AddrSpace::ALL.into_iter().find(|a| a.name() == s)
    }

    /// Whether stores into this space are allowed from device code.
    pub fn is_writable(self) -> bool {
        !matches!(self, AddrSpace::Const)
    }
}

impl fmt::Display for AddrSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of an SSA value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    /// Boolean (predicate register).
    I1,
    /// 8-bit integer.
    I8,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// 64-bit pointer into an address space.
    Ptr(AddrSpace),
}

impl Type {
    /// Generic pointer.
    pub const PTR: Type = Type::Ptr(AddrSpace::Generic);

    /// Width in bits (pointers are 64).
    pub fn bits(self) -> u32 {
        match self {
            Type::I1 => 1,
            Type::I8 => 8,
            Type::I16 => 16,
            Type::I32 | Type::F32 => 32,
            Type::I64 | Type::F64 | Type::Ptr(_) => 64,
        }
    }

    /// Size in bytes when stored to memory (`i1` occupies one byte).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// Integer types, `i1` included.
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Type::I1 | Type::I8 | Type::I16 | Type::I32 | Type::I64
        )
    }

    /// Float types.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }

    /// Pointer types in any space.
    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    /// The address space of a pointer type.
    pub fn addr_space(self) -> Option<AddrSpace> {
        match self {
            Type::Ptr(s) => Some(s),
            _ => None,
        }
    }

    /// The integer type with `bits` bits, if there is one.
    pub fn int(bits: u32) -> Option<Type> {
        match bits {
            1 => Some(Type::I1),
            8 => Some(Type::I8),
            16 => Some(Type::I16),
            32 => Some(Type::I32),
            64 => Some(Type::I64),
            _ => None,
        }
    }

    /// Parses a type written in the text form (`i32`, `ptr`, `ptr(shared)`).
    pub fn from_name(s: &str) -> Option<Type> {
        Some(match s {
            "i1" => Type::I1,
            "i8" => Type::I8,
            "i16" => Type::I16,
            "i32" => Type::I32,
            "i64" => Type::I64,
            "f32" => Type::F32,
            "f64" => Type::F64,
            "ptr" => Type::PTR,
            _ => {
                let inner = s.strip_prefix("ptr(")?.strip_suffix(')')?;
                Type::Ptr(AddrSpace::from_name(inner)?)
            }
        })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::I1 => f.write_str("i1"),
            Type::I8 => f.write_str("i8"),
            Type::I16 => f.write_str("i16"),
            Type::I32 => f.write_str("i32"),
            Type::I64 => f.write_str("i64"),
            Type::F32 => f.write_str("f32"),
            Type::F64 => f.write_str("f64"),
            Type::Ptr(AddrSpace::Generic) => f.write_str("ptr"),
            Type::Ptr(s) => write!(f, "ptr({s})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_round_trip() {
        let all = [
            Type::I1,
            Type::I8,
            Type::I16,
            Type::I32,
            Type::I64,
            Type::F32,
            Type::F64,
            Type::PTR,
            Type::Ptr(AddrSpace::Shared),
            Type::Ptr(AddrSpace::Param),
        ];
        for t in all {
            assert_eq!(Type::from_name(&t.to_string()), Some(t));
        }
        assert_eq!(Type::from_name("ptr(generic)"), Some(Type::PTR));
        assert_eq!(Type::from_name("ptr(heap)"), None);
        assert_eq!(Type::I1.bytes(), 1);
    }
}
