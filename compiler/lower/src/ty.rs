//! How C types map onto IR value types.
//!
//! Every C scalar has a [`Scalar`] class that fixes its IR type and how it converts: integers
//! keep their width and signedness (`_Bool` is an `i8` holding 0 or 1), floats are `f32`/`f64`,
//! every C pointer is a generic `ptr`. Types the device cannot represent (`long double`,
//! `__int128`, `_Complex long double`) have no class; the lowering reports them at their use.
//! Complex types are not scalars here: their values live in memory like structs
//! ([`by_address`]), as two elements of [`complex_elem`]'s type.

use ompcc_ir::Type;
use ompcc_sema::types::{FloatKind, IntKind, QualType, TypeKind, TypeTable};

/// The value class of a C scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// `_Bool`: an `i8` that is always 0 or 1.
    Bool,
    /// An integer of the IR type, signed or not.
    Int(Type, bool),
    /// `float` or `double`.
    Float(Type),
    /// Any object or function pointer (generic space).
    Ptr,
}

impl Scalar {
    /// The IR type of values of this class.
    pub fn ty(self) -> Type {
        match self {
            Scalar::Bool => Type::I8,
            Scalar::Int(t, _) | Scalar::Float(t) => t,
            Scalar::Ptr => Type::PTR,
        }
    }

    /// Signed integer (plain `char` is signed, as on x86-64).
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::Int(_, true))
    }

    /// `int`: the class of comparison and logical results.
    pub const INT: Scalar = Scalar::Int(Type::I32, true);
    /// `long`: the class of `ptrdiff_t` and of index arithmetic.
    pub const LONG: Scalar = Scalar::Int(Type::I64, true);
    /// `unsigned long`: the class of `size_t`.
    pub const ULONG: Scalar = Scalar::Int(Type::I64, false);
}

/// Why a type has no device representation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// `long double`.
    LongDouble,
    /// `_Float128` (`__float128`).
    Float128,
    /// `__int128`.
    Int128,
}

impl Unsupported {
    /// The type's name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Unsupported::LongDouble => "long double",
            Unsupported::Float128 => "_Float128",
            Unsupported::Int128 => "__int128",
        }
    }
}

/// The class of an integer kind.
pub fn int_class(k: IntKind) -> Result<Scalar, Unsupported> {
    match Type::int(k.bits()) {
        Some(t) => Ok(Scalar::Int(t, k.is_signed())),
        None => Err(Unsupported::Int128),
    }
}

/// The scalar class of `qt`: `Ok(None)` for non-scalars (void, arrays, records, functions).
pub fn scalar(types: &TypeTable, qt: QualType) -> Result<Option<Scalar>, Unsupported> {
    Ok(Some(match types.ckind(qt) {
        TypeKind::Bool => Scalar::Bool,
        TypeKind::Int(k) => int_class(*k)?,
        TypeKind::Enum(_) => match types.int_kind(qt) {
            Some(k) => int_class(k)?,
            None => return Ok(None),
        },
        TypeKind::Float(FloatKind::Float) => Scalar::Float(Type::F32),
        TypeKind::Float(FloatKind::Double) => Scalar::Float(Type::F64),
        TypeKind::Float(k) => return Err(wide_float(*k)),
        TypeKind::Complex(k) => {
            return match k {
                FloatKind::Float | FloatKind::Double => Ok(None),
                k => Err(wide_float(*k)),
            };
        }
        TypeKind::Pointer(_) => Scalar::Ptr,
        _ => return Ok(None),
    }))
}

/// Why a floating kind wider than `double` has no device representation.
fn wide_float(k: FloatKind) -> Unsupported {
    if k == FloatKind::Float128 {
        Unsupported::Float128
    } else {
        Unsupported::LongDouble
    }
}

/// Integer promotion of a class (C11 6.3.1.1): narrower than `int` becomes `int`.
pub fn promote(s: Scalar) -> Scalar {
    match s {
        Scalar::Bool => Scalar::INT,
        Scalar::Int(t, _) if t.bits() < 32 => Scalar::INT,
        other => other,
    }
}

/// The element type of a complex type (`f32`/`f64`); `Ok(None)` for other types.
pub fn complex_elem(types: &TypeTable, qt: QualType) -> Result<Option<Type>, Unsupported> {
    match types.ckind(qt) {
        TypeKind::Complex(FloatKind::Float) => Ok(Some(Type::F32)),
        TypeKind::Complex(FloatKind::Double) => Ok(Some(Type::F64)),
        TypeKind::Complex(k) => Err(wide_float(*k)),
        _ => Ok(None),
    }
}

/// Types whose values are handled through their address (held in memory, passed as pointers
/// to copies, returned through a hidden result pointer): structs, unions and complex types.
pub fn by_address(types: &TypeTable, qt: QualType) -> bool {
    types.is_record(qt) || matches!(complex_elem(types, qt), Ok(Some(_)))
}
