//! The C type system: interned types, records, enums and typedefs.
//!
//! A [`TypeTable`] owns every type of one translation unit. Types are interned: structurally
//! equal unqualified types share one [`TypeId`], so `==` on ids is type identity (records and
//! enums are nominal: each definition has its own [`RecordId`]/[`EnumId`]). Qualifiers live
//! outside the interned type in [`QualType`], as in C where `const int` and `int` are the same
//! type with different qualifiers.
//!
//! Typedef names are kept as sugar ([`TypeKind::Typedef`]) so diagnostics can show what the user
//! wrote; [`TypeTable::canon`] strips them (collecting their qualifiers). A typedef may carry an
//! `aligned(N)` attribute, which changes the alignment of the named type (gcc semantics, it may
//! lower it), so layout reads alignment through the sugar.
//!
//! Invariants: a record or enum is completed at most once; a completed record always has a
//! layout (computed when it is completed, see `layout.rs`).

use cranelift_entity::{PrimaryMap, entity_impl};
use rustc_hash::FxHashMap;
use std::fmt;

/// An interned, unqualified type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(u32);
entity_impl!(TypeId, "type");

/// A struct or union definition (nominal identity).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(u32);
entity_impl!(RecordId, "record");

/// An enum definition (nominal identity).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(u32);
entity_impl!(EnumId, "enum");

/// A typedef name.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypedefId(u32);
entity_impl!(TypedefId, "typedef");

/// The run-time size expression of a variable length array. The checker allocates these and
/// keeps the expression they stand for; the type layer only needs their identity.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct VlaSize(pub u32);

/// Type qualifiers, a small bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Quals(u8);

impl Quals {
    pub const NONE: Quals = Quals(0);
    pub const CONST: Quals = Quals(1);
    pub const VOLATILE: Quals = Quals(2);
    pub const RESTRICT: Quals = Quals(4);
    pub const ATOMIC: Quals = Quals(8);

    pub fn contains(self, other: Quals) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn union(self, other: Quals) -> Quals {
        Quals(self.0 | other.0)
    }
    pub fn without(self, other: Quals) -> Quals {
        Quals(self.0 & !other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Quals {
    type Output = Quals;
    fn bitor(self, rhs: Quals) -> Quals {
        self.union(rhs)
    }
}

impl fmt::Display for Quals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (q, name) in [
            (Quals::CONST, "const"),
            (Quals::VOLATILE, "volatile"),
            (Quals::RESTRICT, "restrict"),
            (Quals::ATOMIC, "_Atomic"),
        ] {
            if self.contains(q) {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Quals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quals({self})")
    }
}

/// A type with its qualifiers.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct QualType {
    pub ty: TypeId,
    pub quals: Quals,
}

impl QualType {
    pub fn new(ty: TypeId) -> QualType {
        QualType {
            ty,
            quals: Quals::NONE,
        }
    }
    pub fn with(self, quals: Quals) -> QualType {
        QualType {
            ty: self.ty,
            quals: self.quals | quals,
        }
    }
    pub fn unqual(self) -> QualType {
        QualType::new(self.ty)
    }
}

/// Integer types other than `_Bool`, in rank order (signed before unsigned of the same rank).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum IntKind {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
}

impl IntKind {
    /// Size in bytes on x86-64 SysV.
    pub fn size(self) -> u64 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 4,
            Long | ULong | LongLong | ULongLong => 8,
            Int128 | UInt128 => 16,
        }
    }
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }
    /// Plain `char` is signed on x86-64.
    pub fn is_signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong | Int128)
    }
    /// Integer conversion rank (C11 6.3.1.1); `_Bool` has rank 0, so these start at 1.
    pub fn rank(self) -> u8 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
            Int128 | UInt128 => 6,
        }
    }
    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar | UChar => UChar,
            Short | UShort => UShort,
            Int | UInt => UInt,
            Long | ULong => ULong,
            LongLong | ULongLong => ULongLong,
            Int128 | UInt128 => UInt128,
        }
    }
    /// Smallest value.
    pub fn min_value(self) -> i128 {
        if !self.is_signed() {
            0
        } else if self.bits() == 128 {
            i128::MIN
        } else {
            -(1i128 << (self.bits() - 1))
        }
    }
    /// Largest value; `UInt128`'s does not fit in i128 and saturates to `i128::MAX` here.
    pub fn max_value(self) -> i128 {
        match (self.bits(), self.is_signed()) {
            (128, _) => i128::MAX,
            (b, true) => (1i128 << (b - 1)) - 1,
            (b, false) => (1i128 << b) - 1,
        }
    }
    /// Whether a mathematical value fits in this type (values above `i128::MAX` are not
    /// representable here, so `UInt128` accepts every non-negative i128).
    pub fn fits_i128(self, v: i128) -> bool {
        v >= self.min_value() && v <= self.max_value()
    }
    pub fn name(self) -> &'static str {
        use IntKind::*;
        match self {
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
            Int128 => "__int128",
            UInt128 => "unsigned __int128",
        }
    }
}

/// Real floating types. `_Float32`/`_Float64`/`_Float32x` map to float/double and
/// `_Float64x` to long double (same representation on x86-64).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
    Float128,
}

impl FloatKind {
    pub fn size(self) -> u64 {
        match self {
            FloatKind::Float => 4,
            FloatKind::Double => 8,
            FloatKind::LongDouble | FloatKind::Float128 => 16,
        }
    }
    pub fn align(self) -> u64 {
        self.size()
    }
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble => "long double",
            FloatKind::Float128 => "_Float128",
        }
    }
}

/// The size part of an array type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ArraySize {
    Fixed(u64),
    /// `T[]`: an incomplete type (or a flexible array member, or adjusted away as a parameter).
    Incomplete,
    /// `T[n]` with a non-constant `n`.
    Vla(VlaSize),
    /// `T[*]` in a prototype.
    Star,
}

/// A function type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FnType {
    pub ret: QualType,
    /// Parameter types after adjustment (arrays and functions to pointers), qualifiers dropped.
    pub params: Vec<QualType>,
    pub variadic: bool,
    /// False for `int f()` (old style: parameters unknown).
    pub prototyped: bool,
}

/// The shape of an interned type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    Void,
    Bool,
    Int(IntKind),
    Float(FloatKind),
    Complex(FloatKind),
    Pointer(QualType),
    Array {
        elem: QualType,
        size: ArraySize,
        /// `[static n]` in a parameter: the caller promises at least n elements.
        is_static: bool,
    },
    Function(FnType),
    Record(RecordId),
    Enum(EnumId),
    Typedef(TypedefId),
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RecordKind {
    Struct,
    Union,
}

/// One member of a struct or union, as declared.
#[derive(Clone, Debug)]
pub struct Field {
    /// `None` for unnamed bitfields and anonymous struct/union members.
    pub name: Option<String>,
    pub ty: QualType,
    pub bit_width: Option<u32>,
    /// `__attribute__((packed))` on the member.
    pub packed: bool,
    /// Largest of `aligned(N)` / `_Alignas(N)` on the member, in bytes.
    pub align: Option<u64>,
}

/// Attributes of a struct/union definition that affect layout.
#[derive(Copy, Clone, Debug, Default)]
pub struct RecordAttrs {
    pub packed: bool,
    /// `aligned(N)` on the record, in bytes.
    pub align: Option<u64>,
    /// `#pragma pack(N)` in force at the definition, in bytes.
    pub max_field_align: Option<u64>,
}

/// Where one field lies, in bits from the start of the record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    pub bit_offset: u64,
    /// Bits occupied (the width for bitfields, 8 * size otherwise, 0 for a flexible array).
    pub bit_size: u64,
}

impl FieldLayout {
    pub fn byte_offset(&self) -> u64 {
        self.bit_offset / 8
    }
}

/// Size and alignment of a complete record, with one entry per field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    pub size: u64,
    pub align: u64,
    pub fields: Vec<FieldLayout>,
}

#[derive(Clone, Debug)]
pub struct RecordDef {
    pub kind: RecordKind,
    pub tag: Option<String>,
    /// `None` while incomplete.
    pub fields: Option<Vec<Field>>,
    pub attrs: RecordAttrs,
    pub layout: Option<RecordLayout>,
    /// True if the last member is a flexible array member.
    pub has_flexible_array: bool,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub tag: Option<String>,
    /// The compatible integer type, chosen as gcc does once the enum is complete; `UInt`
    /// before that.
    pub underlying: IntKind,
    pub complete: bool,
    pub constants: Vec<(String, i128)>,
}

#[derive(Clone, Debug)]
pub struct TypedefDef {
    pub name: String,
    pub ty: QualType,
    /// `aligned(N)` on the typedef, in bytes (may lower the alignment).
    pub align: Option<u64>,
}

/// The type store of one translation unit.
pub struct TypeTable {
    kinds: PrimaryMap<TypeId, TypeKind>,
    interned: FxHashMap<TypeKind, TypeId>,
    records: PrimaryMap<RecordId, RecordDef>,
    enums: PrimaryMap<EnumId, EnumDef>,
    typedefs: PrimaryMap<TypedefId, TypedefDef>,
    next_vla: u32,
}

impl Default for TypeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeTable {
    pub fn new() -> TypeTable {
        TypeTable {
            kinds: PrimaryMap::new(),
            interned: FxHashMap::default(),
            records: PrimaryMap::new(),
            enums: PrimaryMap::new(),
            typedefs: PrimaryMap::new(),
            next_vla: 0,
        }
    }

    pub fn intern(&mut self, kind: TypeKind) -> TypeId {
        if let Some(&id) = self.interned.get(&kind) {
            return id;
        }
        let id = self.kinds.push(kind.clone());
        self.interned.insert(kind, id);
        id
    }

    pub fn kind(&self, ty: TypeId) -> &TypeKind {
        &self.kinds[ty]
    }

    // ----- constructors -----

    pub fn void(&mut self) -> QualType {
        QualType::new(self.intern(TypeKind::Void))
    }
    pub fn bool_(&mut self) -> QualType {
        QualType::new(self.intern(TypeKind::Bool))
    }
    pub fn int(&mut self, k: IntKind) -> QualType {
        QualType::new(self.intern(TypeKind::Int(k)))
    }
    pub fn float(&mut self, k: FloatKind) -> QualType {
        QualType::new(self.intern(TypeKind::Float(k)))
    }
    pub fn complex(&mut self, k: FloatKind) -> QualType {
        QualType::new(self.intern(TypeKind::Complex(k)))
    }
    pub fn pointer(&mut self, to: QualType) -> QualType {
        QualType::new(self.intern(TypeKind::Pointer(to)))
    }
    pub fn array(&mut self, elem: QualType, size: ArraySize) -> QualType {
        QualType::new(self.intern(TypeKind::Array {
            elem,
            size,
            is_static: false,
        }))
    }
    pub fn array_static(&mut self, elem: QualType, size: ArraySize) -> QualType {
        QualType::new(self.intern(TypeKind::Array {
            elem,
            size,
            is_static: true,
        }))
    }
    pub fn function(&mut self, f: FnType) -> QualType {
        QualType::new(self.intern(TypeKind::Function(f)))
    }
    /// A fresh VLA size handle; every VLA declarator gets its own.
    pub fn new_vla_size(&mut self) -> VlaSize {
        self.next_vla += 1;
        VlaSize(self.next_vla - 1)
    }

    /// Declares a new (incomplete) struct or union.
    pub fn new_record(&mut self, kind: RecordKind, tag: Option<String>) -> (RecordId, QualType) {
        let id = self.records.push(RecordDef {
            kind,
            tag,
            fields: None,
            attrs: RecordAttrs::default(),
            layout: None,
            has_flexible_array: false,
        });
        (id, QualType::new(self.intern(TypeKind::Record(id))))
    }
    pub fn record_type(&mut self, id: RecordId) -> QualType {
        QualType::new(self.intern(TypeKind::Record(id)))
    }
    pub fn record(&self, id: RecordId) -> &RecordDef {
        &self.records[id]
    }
    pub fn records(&self) -> impl Iterator<Item = (RecordId, &RecordDef)> {
        self.records.iter()
    }
    pub(crate) fn record_mut(&mut self, id: RecordId) -> &mut RecordDef {
        &mut self.records[id]
    }

    pub fn new_enum(&mut self, tag: Option<String>) -> (EnumId, QualType) {
        let id = self.enums.push(EnumDef {
            tag,
            underlying: IntKind::UInt,
            complete: false,
            constants: Vec::new(),
        });
        (id, QualType::new(self.intern(TypeKind::Enum(id))))
    }
    pub fn enum_def(&self, id: EnumId) -> &EnumDef {
        &self.enums[id]
    }
    /// Completes an enum: picks the underlying type as gcc does (unsigned int when no value
    /// is negative and all fit, int when some are negative and all fit, else the first of
    /// long / unsigned long / __int128 that holds every value; `packed` picks the smallest).
    pub fn complete_enum(&mut self, id: EnumId, constants: Vec<(String, i128)>, packed: bool) {
        let min = constants.iter().map(|c| c.1).min().unwrap_or(0);
        let max = constants.iter().map(|c| c.1).max().unwrap_or(0);
        let candidates: &[IntKind] = if packed {
            &[
                IntKind::UChar,
                IntKind::SChar,
                IntKind::UShort,
                IntKind::Short,
                IntKind::UInt,
                IntKind::Int,
                IntKind::ULong,
                IntKind::Long,
                IntKind::UInt128,
                IntKind::Int128,
            ]
        } else {
            &[
                IntKind::UInt,
                IntKind::Int,
                IntKind::ULong,
                IntKind::Long,
                IntKind::UInt128,
                IntKind::Int128,
            ]
        };
        let underlying = candidates
            .iter()
            .copied()
            .find(|k| k.fits_i128(min) && k.fits_i128(max))
            .unwrap_or(IntKind::Int128);
        let e = &mut self.enums[id];
        e.underlying = underlying;
        e.complete = true;
        e.constants = constants;
    }

    pub fn new_typedef(&mut self, name: String, ty: QualType, align: Option<u64>) -> QualType {
        let id = self.typedefs.push(TypedefDef { name, ty, align });
        QualType::new(self.intern(TypeKind::Typedef(id)))
    }
    pub fn typedef(&self, id: TypedefId) -> &TypedefDef {
        &self.typedefs[id]
    }

    // ----- queries -----

    /// Strips typedef sugar, merging the typedefs' qualifiers into the result.
    pub fn canon(&self, mut qt: QualType) -> QualType {
        while let TypeKind::Typedef(td) = self.kinds[qt.ty] {
            let inner = self.typedefs[td].ty;
            qt = QualType {
                ty: inner.ty,
                quals: qt.quals | inner.quals,
            };
        }
        qt
    }
    /// The canonical kind of a type (typedefs stripped).
    pub fn ckind(&self, qt: QualType) -> &TypeKind {
        &self.kinds[self.canon(qt).ty]
    }

    pub fn is_void(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Void)
    }
    pub fn is_integer(&self, qt: QualType) -> bool {
        matches!(
            self.ckind(qt),
            TypeKind::Bool | TypeKind::Int(_) | TypeKind::Enum(_)
        )
    }
    pub fn is_real_float(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Float(_))
    }
    pub fn is_complex(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Complex(_))
    }
    pub fn is_floating(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Float(_) | TypeKind::Complex(_))
    }
    pub fn is_arithmetic(&self, qt: QualType) -> bool {
        self.is_integer(qt) || self.is_floating(qt)
    }
    pub fn is_real(&self, qt: QualType) -> bool {
        self.is_integer(qt) || self.is_real_float(qt)
    }
    pub fn is_pointer(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Pointer(_))
    }
    pub fn is_scalar(&self, qt: QualType) -> bool {
        self.is_arithmetic(qt) || self.is_pointer(qt)
    }
    pub fn is_array(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Array { .. })
    }
    pub fn is_function(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Function(_))
    }
    pub fn is_record(&self, qt: QualType) -> bool {
        matches!(self.ckind(qt), TypeKind::Record(_))
    }
    pub fn is_aggregate(&self, qt: QualType) -> bool {
        self.is_array(qt) || self.is_record(qt)
    }
    pub fn pointee(&self, qt: QualType) -> Option<QualType> {
        match self.ckind(qt) {
            TypeKind::Pointer(p) => Some(*p),
            _ => None,
        }
    }
    pub fn array_elem(&self, qt: QualType) -> Option<QualType> {
        match self.ckind(qt) {
            TypeKind::Array { elem, .. } => Some(*elem),
            _ => None,
        }
    }
    pub fn fn_type(&self, qt: QualType) -> Option<&FnType> {
        match self.ckind(qt) {
            TypeKind::Function(f) => Some(f),
            _ => None,
        }
    }
    pub fn record_id(&self, qt: QualType) -> Option<RecordId> {
        match self.ckind(qt) {
            TypeKind::Record(r) => Some(*r),
            _ => None,
        }
    }
    /// The integer kind an integer type computes in (`_Bool` is `None`; enums give their
    /// underlying type).
    pub fn int_kind(&self, qt: QualType) -> Option<IntKind> {
        match self.ckind(qt) {
            TypeKind::Int(k) => Some(*k),
            TypeKind::Enum(e) => Some(self.enums[*e].underlying),
            _ => None,
        }
    }
    pub fn is_signed_int(&self, qt: QualType) -> bool {
        self.int_kind(qt).is_some_and(|k| k.is_signed())
    }
    /// True for types with no known size: void, incomplete arrays, incomplete records and
    /// enums, functions.
    pub fn is_incomplete(&self, qt: QualType) -> bool {
        match self.ckind(qt) {
            TypeKind::Void | TypeKind::Function(_) => true,
            TypeKind::Array { size, elem, .. } => {
                matches!(size, ArraySize::Incomplete) || self.is_incomplete(*elem)
            }
            TypeKind::Record(r) => self.records[*r].fields.is_none(),
            TypeKind::Enum(e) => !self.enums[*e].complete,
            _ => false,
        }
    }
    /// True if the type is variably modified at its outer levels (a VLA, or an array of them).
    pub fn is_vla(&self, qt: QualType) -> bool {
        match self.ckind(qt) {
            TypeKind::Array { size, elem, .. } => {
                matches!(size, ArraySize::Vla(_) | ArraySize::Star) || self.is_vla(*elem)
            }
            _ => false,
        }
    }
    /// True if any part of the type involves a VLA (e.g. `double (*)[n]`).
    pub fn is_variably_modified(&self, qt: QualType) -> bool {
        match self.ckind(qt) {
            TypeKind::Array { size, elem, .. } => {
                matches!(size, ArraySize::Vla(_) | ArraySize::Star)
                    || self.is_variably_modified(*elem)
            }
            TypeKind::Pointer(p) => self.is_variably_modified(*p),
            _ => false,
        }
    }

    /// Looks a member up by name, descending into anonymous struct/union members. Returns the
    /// path of field indices (outermost first) and the member's type.
    pub fn find_member(&self, rec: RecordId, name: &str) -> Option<(Vec<usize>, QualType)> {
        let fields = self.records[rec].fields.as_ref()?;
        for (i, f) in fields.iter().enumerate() {
            match &f.name {
                Some(n) if n == name => return Some((vec![i], f.ty)),
                None if f.bit_width.is_none() => {
                    if let Some(inner) = self.record_id(f.ty)
                        && let Some((mut path, ty)) = self.find_member(inner, name)
                    {
                        path.insert(0, i);
                        return Some((path, ty));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// C spelling of a type, e.g. `const char *`, `double (*)[n]`, `int (*)(int, ...)`.
    pub fn display(&self, qt: QualType) -> String {
        let mut s = String::new();
        self.write_decl(qt, String::new(), &mut s);
        s
    }

    /// Writes `qt` as a declaration of `inner` (a declarator text built inside-out).
    fn write_decl(&self, qt: QualType, inner: String, out: &mut String) {
        let quals = if qt.quals.is_empty() {
            String::new()
        } else {
            qt.quals.to_string()
        };
        match &self.kinds[qt.ty] {
            TypeKind::Pointer(p) => {
                let mut d = String::from("*");
                if !quals.is_empty() {
                    d.push(' ');
                    d.push_str(&quals);
                    if !inner.is_empty() {
                        d.push(' ');
                    }
                }
                d.push_str(&inner);
                let needs_paren = matches!(
                    self.kinds[p.ty],
                    TypeKind::Array { .. } | TypeKind::Function(_)
                );
                let d = if needs_paren { format!("({d})") } else { d };
                self.write_decl(*p, d, out)
            }
            TypeKind::Array { elem, size, .. } => {
                let sz = match size {
                    ArraySize::Fixed(n) => n.to_string(),
                    ArraySize::Incomplete => String::new(),
                    ArraySize::Vla(_) => "<vla>".to_string(),
                    ArraySize::Star => "*".to_string(),
                };
                self.write_decl(*elem, format!("{inner}[{sz}]"), out)
            }
            TypeKind::Function(f) => {
                let mut d = format!("{inner}(");
                for (i, p) in f.params.iter().enumerate() {
                    if i > 0 {
                        d.push_str(", ");
                    }
                    d.push_str(&self.display(*p));
                }
                if f.variadic {
                    d.push_str(if f.params.is_empty() { "..." } else { ", ..." });
                } else if f.prototyped && f.params.is_empty() {
                    d.push_str("void");
                }
                d.push(')');
                self.write_decl(f.ret, d, out)
            }
            _ => {
                if !quals.is_empty() {
                    out.push_str(&quals);
                    out.push(' ');
                }
                out.push_str(&self.base_name(qt.ty));
                if !inner.is_empty() {
                    if !inner.starts_with('[') {
                        out.push(' ');
                    }
                    out.push_str(&inner);
                }
            }
        }
    }

    fn base_name(&self, ty: TypeId) -> String {
        match &self.kinds[ty] {
            TypeKind::Void => "void".into(),
            TypeKind::Bool => "_Bool".into(),
            TypeKind::Int(k) => k.name().into(),
            TypeKind::Float(k) => k.name().into(),
            TypeKind::Complex(k) => format!("_Complex {}", k.name()),
            TypeKind::Record(r) => {
                let rd = &self.records[*r];
                let kw = match rd.kind {
                    RecordKind::Struct => "struct",
                    RecordKind::Union => "union",
                };
                match &rd.tag {
                    Some(t) => format!("{kw} {t}"),
                    None => format!("{kw} <anonymous>"),
                }
            }
            TypeKind::Enum(e) => match &self.enums[*e].tag {
                Some(t) => format!("enum {t}"),
                None => "enum <anonymous>".into(),
            },
            TypeKind::Typedef(t) => self.typedefs[*t].name.clone(),
            TypeKind::Pointer(_) | TypeKind::Array { .. } | TypeKind::Function(_) => {
                self.display(QualType::new(ty))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_gives_identity() {
        let mut t = TypeTable::new();
        let i = t.int(IntKind::Int);
        let p1 = t.pointer(i);
        let p2 = t.pointer(i);
        assert_eq!(p1, p2);
        let ci = i.with(Quals::CONST);
        assert_ne!(t.pointer(ci), p1);
    }

    #[test]
    fn display_declarators() {
        let mut t = TypeTable::new();
        let d = t.float(FloatKind::Double);
        let c = t.int(IntKind::Char).with(Quals::CONST);
        let pc = t.pointer(c);
        assert_eq!(t.display(pc), "const char *");
        let vs = t.new_vla_size();
        let row = t.array(d, ArraySize::Vla(vs));
        let prow = t.pointer(row);
        assert_eq!(t.display(prow), "double (*)[<vla>]");
        let i = t.int(IntKind::Int);
        let f = t.function(FnType {
            ret: i,
            params: vec![i],
            variadic: true,
            prototyped: true,
        });
        let pf = t.pointer(f);
        assert_eq!(t.display(pf), "int (*)(int, ...)");
        let a = t.array(pc, ArraySize::Fixed(4));
        assert_eq!(t.display(a), "const char *[4]");
        let cp = pc.with(Quals::CONST);
        assert_eq!(t.display(cp), "const char * const");
    }

    #[test]
    fn typedef_sugar_strips() {
        let mut t = TypeTable::new();
        let i = t.int(IntKind::Int);
        let td = t.new_typedef("myint".into(), i.with(Quals::VOLATILE), None);
        let c = t.canon(td.with(Quals::CONST));
        assert_eq!(c.ty, i.ty);
        assert!(c.quals.contains(Quals::CONST | Quals::VOLATILE));
        assert_eq!(t.display(td), "myint");
    }

    #[test]
    fn enum_underlying_like_gcc() {
        let mut t = TypeTable::new();
        let (a, _) = t.new_enum(Some("a".into()));
        t.complete_enum(a, vec![("X".into(), 1)], false);
        assert_eq!(t.enum_def(a).underlying, IntKind::UInt);
        let (b, _) = t.new_enum(None);
        t.complete_enum(b, vec![("Y".into(), -1)], false);
        assert_eq!(t.enum_def(b).underlying, IntKind::Int);
        let (c, _) = t.new_enum(None);
        t.complete_enum(c, vec![("Z".into(), 1 << 32)], false);
        assert_eq!(t.enum_def(c).underlying, IntKind::ULong);
        let (d, _) = t.new_enum(None);
        t.complete_enum(d, vec![("W".into(), 3)], true);
        assert_eq!(t.enum_def(d).underlying, IntKind::UChar);
    }
}
