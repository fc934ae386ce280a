//! Typed virtual registers and PTX type spellings.
//!
//! Every SSA value gets its own register of the class its type needs; ptxas allocates the
//! real registers. `i8` lives in a 16-bit register (PTX has no 8-bit registers) whose upper
//! byte is unspecified: operations that depend on it are widened by `legalize` first.
//! Pointers of every space are 64-bit (`.address_size 64`).

use ompcc_ir::Type;
use std::fmt;

/// A PTX register class.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RegClass {
    /// `.pred %p`
    Pred,
    /// `.b16 %rs` (i8, i16)
    B16,
    /// `.b32 %r` (i32)
    B32,
    /// `.b64 %rd` (i64, pointers)
    B64,
    /// `.f32 %f`
    F32,
    /// `.f64 %fd`
    F64,
}

impl RegClass {
    /// Every class, in declaration order.
    pub const ALL: [RegClass; 6] = [
        RegClass::Pred,
        RegClass::B16,
        RegClass::B32,
        RegClass::B64,
        RegClass::F32,
        RegClass::F64,
    ];

    /// The class holding values of `ty`.
    pub fn of(ty: Type) -> RegClass {
        match ty {
            Type::I1 => RegClass::Pred,
            Type::I8 | Type::I16 => RegClass::B16,
            Type::I32 => RegClass::B32,
            Type::I64 | Type::Ptr(_) => RegClass::B64,
            Type::F32 => RegClass::F32,
            Type::F64 => RegClass::F64,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// Register name prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            RegClass::Pred => "%p",
            RegClass::B16 => "%rs",
            RegClass::B32 => "%r",
            RegClass::B64 => "%rd",
            RegClass::F32 => "%f",
            RegClass::F64 => "%fd",
        }
    }

    /// Type in the `.reg` declaration.
    pub fn decl(self) -> &'static str {
        match self {
            RegClass::Pred => ".pred",
            RegClass::B16 => ".b16",
            RegClass::B32 => ".b32",
            RegClass::B64 => ".b64",
            RegClass::F32 => ".f32",
            RegClass::F64 => ".f64",
        }
    }

    /// Type suffix of a plain `mov` in this class.
    pub fn mov(self) -> &'static str {
        match self {
            RegClass::Pred => "pred",
            RegClass::B16 => "b16",
            RegClass::B32 => "b32",
            RegClass::B64 => "b64",
            RegClass::F32 => "f32",
            RegClass::F64 => "f64",
        }
    }
}

/// One virtual register.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    /// Its class.
    pub class: RegClass,
    /// Its number within the class.
    pub num: u32,
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.class.prefix(), self.num)
    }
}

/// Hands out registers per class and writes their declarations.
#[derive(Default)]
pub struct RegAlloc {
    counts: [u32; 6],
}

impl RegAlloc {
    /// A fresh register of `class`.
    pub fn fresh(&mut self, class: RegClass) -> Reg {
        let n = &mut self.counts[class.index()];
        *n += 1;
        Reg { class, num: *n }
    }

    /// `.reg` lines for every class used (registers are numbered from 1).
    pub fn declarations(&self) -> String {
        let mut s = String::new();
        for c in RegClass::ALL {
            let n = self.counts[c.index()];
            if n > 0 {
                s.push_str(&format!("\t.reg {} {}<{}>;\n", c.decl(), c.prefix(), n + 1));
            }
        }
        s
    }
}

/// Width of the register holding an integer type (i8 -> 16).
pub fn reg_bits(ty: Type) -> u32 {
    match ty {
        Type::I8 => 16,
        t => t.bits(),
    }
}

/// `s32`, `u64`, ... for arithmetic on an integer type in its register width.
pub fn int(ty: Type, signed: bool) -> String {
    format!("{}{}", if signed { 's' } else { 'u' }, reg_bits(ty))
}

/// `b16`, `b32`, `b64` for bitwise operations on an integer type.
pub fn bits(ty: Type) -> String {
    format!("b{}", reg_bits(ty))
}

/// `f32` or `f64`.
pub fn float(ty: Type) -> &'static str {
    if ty == Type::F32 { "f32" } else { "f64" }
}

/// Exact-width integer type for conversions (`s8` for i8, unlike `int`).
pub fn cvt_int(ty: Type, signed: bool) -> String {
    format!("{}{}", if signed { 's' } else { 'u' }, ty.bits())
}

/// Type of a memory access of `ty` (`u8` for i8; i1 never reaches memory after legalization).
pub fn mem(ty: Type) -> &'static str {
    match ty {
        Type::I1 | Type::I8 => "u8",
        Type::I16 => "u16",
        Type::I32 => "u32",
        Type::I64 | Type::Ptr(_) => "u64",
        Type::F32 => "f32",
        Type::F64 => "f64",
    }
}
