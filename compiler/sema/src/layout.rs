//! Sizes, alignments and record layout, identical to gcc on x86-64 SysV.
//!
//! The rules follow gcc's `place_field` with `PCC_BITFIELD_TYPE_MATTERS`:
//! - a non-bitfield member is aligned to its type's alignment, raised by `aligned(N)` /
//!   `_Alignas`; `packed` (on the member or the record) lowers it to 1 unless the member also
//!   has `aligned(N)`, in which case it is N; `#pragma pack(N)` caps it at N;
//! - a bitfield of nonzero width is moved to the next boundary of its type's alignment only
//!   when it would span more alignment units than its type has (gcc's `excess_unit_span`);
//!   packed bitfields are never moved; a named bitfield raises the record's alignment to its
//!   type's (1 if packed), an unnamed one does not (x86-64 has no `align_anon_bitfield`);
//! - a zero-width bitfield rounds the position up to its type's alignment, ignoring packing,
//!   and does not change the record's alignment;
//! - a flexible array member adds no size but its alignment;
//! - the size is the end of the last member rounded up to the alignment.
//!
//! Invariant: layouts are computed once, when a record is completed, from members that are
//! complete at that point; all positions are in bits internally, sizes in bytes outside.

use crate::types::{
    ArraySize, Field, FieldLayout, IntKind, QualType, Quals, RecordAttrs, RecordId, RecordKind,
    RecordLayout, TypeKind, TypeTable,
};

/// Why a struct/union definition cannot be laid out; `field` indexes the member list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// A member of incomplete or function type (other than a final flexible array).
    IncompleteMember { field: usize },
    /// A flexible array member that is not the last member, or the only named member.
    MisplacedFlexibleArray { field: usize },
    /// A bitfield whose type is not an integer type.
    BitfieldType { field: usize },
    /// A bitfield wider than its type.
    BitfieldWidth { field: usize, width: u32, max: u32 },
    /// A zero-width bitfield with a name.
    NamedZeroWidth { field: usize },
    /// The record would be larger than the target can address.
    TooLarge { field: usize },
}

impl LayoutError {
    pub fn field(&self) -> usize {
        match *self {
            LayoutError::IncompleteMember { field }
            | LayoutError::MisplacedFlexibleArray { field }
            | LayoutError::BitfieldType { field }
            | LayoutError::BitfieldWidth { field, .. }
            | LayoutError::NamedZeroWidth { field }
            | LayoutError::TooLarge { field } => field,
        }
    }
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::IncompleteMember { .. } => write!(f, "member has incomplete type"),
            LayoutError::MisplacedFlexibleArray { .. } => {
                write!(
                    f,
                    "flexible array member must be the last member of a struct with other named members"
                )
            }
            LayoutError::BitfieldType { .. } => write!(f, "bit-field has a non-integer type"),
            LayoutError::BitfieldWidth { width, max, .. } => {
                write!(
                    f,
                    "width of bit-field ({width}) exceeds its type ({max} bits)"
                )
            }
            LayoutError::NamedZeroWidth { .. } => write!(f, "zero width for named bit-field"),
            LayoutError::TooLarge { .. } => write!(f, "type is too large"),
        }
    }
}

fn round_up(v: u64, align: u64) -> u64 {
    if align <= 1 {
        v
    } else {
        v.div_ceil(align).saturating_mul(align)
    }
}

/// gcc's `excess_unit_span`: would a bitfield at `pos` span more units of `align` bits than
/// its type (of `size` bits) has?
fn excess_unit_span(pos: u64, width: u64, align: u64, size: u64) -> bool {
    (pos % align + width).div_ceil(align) > size / align
}

impl TypeTable {
    /// `sizeof`, in bytes; `None` for incomplete types, functions and VLAs.
    pub fn size_of(&self, qt: QualType) -> Option<u64> {
        match self.kind(qt.ty) {
            TypeKind::Void | TypeKind::Function(_) => None,
            TypeKind::Bool => Some(1),
            TypeKind::Int(k) => Some(k.size()),
            TypeKind::Float(k) => Some(k.size()),
            TypeKind::Complex(k) => Some(2 * k.size()),
            TypeKind::Pointer(_) => Some(8),
            TypeKind::Array { elem, size, .. } => match size {
                ArraySize::Fixed(n) => self.size_of(*elem)?.checked_mul(*n),
                _ => None,
            },
            TypeKind::Record(r) => self.record(*r).layout.as_ref().map(|l| l.size),
            TypeKind::Enum(e) => {
                let e = self.enum_def(*e);
                e.complete.then(|| e.underlying.size())
            }
            TypeKind::Typedef(t) => self.size_of(self.typedef(*t).ty),
        }
    }

    /// `_Alignof`, in bytes; `None` for void, functions and incomplete records/enums. Arrays
    /// (even incomplete or variable ones) have their element's alignment.
    pub fn align_of(&self, qt: QualType) -> Option<u64> {
        let base = match self.kind(qt.ty) {
            TypeKind::Void | TypeKind::Function(_) => None,
            TypeKind::Bool => Some(1),
            TypeKind::Int(k) => Some(k.size()),
            TypeKind::Float(k) => Some(k.align()),
            TypeKind::Complex(k) => Some(k.align()),
            TypeKind::Pointer(_) => Some(8),
            TypeKind::Array { elem, .. } => self.align_of(*elem),
            TypeKind::Record(r) => self.record(*r).layout.as_ref().map(|l| l.align),
            TypeKind::Enum(e) => {
                let e = self.enum_def(*e);
                e.complete.then(|| e.underlying.size())
            }
            TypeKind::Typedef(t) => {
                let td = self.typedef(*t);
                match td.align {
                    Some(a) => Some(a),
                    None => self.align_of(td.ty),
                }
            }
        }?;
        // gcc gives `_Atomic` types whose size is 1, 2, 4, 8 or 16 bytes that alignment, so
        // they can be accessed with one atomic instruction.
        if qt.quals.contains(Quals::ATOMIC)
            && let Some(size) = self.size_of(qt)
            && size.is_power_of_two()
            && size <= 16
        {
            return Some(base.max(size));
        }
        Some(base)
    }

    /// Layout of a complete record.
    pub fn record_layout(&self, id: RecordId) -> Option<&RecordLayout> {
        self.record(id).layout.as_ref()
    }

    /// Completes a struct or union with its members and computes its layout. On error the
    /// record stays incomplete, so later uses report "incomplete type" instead of garbage.
    pub fn complete_record(
        &mut self,
        id: RecordId,
        fields: Vec<Field>,
        attrs: RecordAttrs,
    ) -> Result<(), Vec<LayoutError>> {
        let kind = self.record(id).kind;
        let (layout, flex) = self.compute_layout(kind, &fields, attrs)?;
        let rd = self.record_mut(id);
        rd.fields = Some(fields);
        rd.attrs = attrs;
        rd.layout = Some(layout);
        rd.has_flexible_array = flex;
        Ok(())
    }

    fn compute_layout(
        &self,
        kind: RecordKind,
        fields: &[Field],
        attrs: RecordAttrs,
    ) -> Result<(RecordLayout, bool), Vec<LayoutError>> {
        let mut errors = Vec::new();
        let mut out = Vec::with_capacity(fields.len());
        let mut pos: u64 = 0; // next free bit (structs)
        let mut end: u64 = 0; // largest end bit seen
        let mut rec_align: u64 = 8; // bits
        let mut flex = false;
        let pack = attrs.max_field_align.map(|a| a * 8);
        let named_count = fields
            .iter()
            .filter(|f| f.name.is_some() || f.bit_width.is_none())
            .count();
        for (i, f) in fields.iter().enumerate() {
            let packed = attrs.packed || f.packed;
            let user_align = f.align.map(|a| a * 8);
            let start = if kind == RecordKind::Union { 0 } else { pos };
            if let Some(width) = f.bit_width {
                let int_like = matches!(
                    self.ckind(f.ty),
                    TypeKind::Bool | TypeKind::Int(_) | TypeKind::Enum(_)
                );
                let (Some(tsize), Some(talign), true) =
                    (self.size_of(f.ty), self.align_of(f.ty), int_like)
                else {
                    errors.push(LayoutError::BitfieldType { field: i });
                    out.push(FieldLayout {
                        bit_offset: start,
                        bit_size: 0,
                    });
                    continue;
                };
                let (tsize, talign) = (tsize * 8, talign * 8);
                let max = if matches!(self.ckind(f.ty), TypeKind::Bool) {
                    1
                } else {
                    tsize as u32
                };
                if width > max {
                    errors.push(LayoutError::BitfieldWidth {
                        field: i,
                        width,
                        max,
                    });
                }
                if width == 0 {
                    if f.name.is_some() {
                        errors.push(LayoutError::NamedZeroWidth { field: i });
                    }
                    // Packing does not apply to zero-width bitfields.
                    let at = round_up(start, talign);
                    if kind == RecordKind::Struct {
                        pos = at;
                        end = end.max(pos);
                    }
                    out.push(FieldLayout {
                        bit_offset: at,
                        bit_size: 0,
                    });
                    continue;
                }
                let width = u64::from(width.min(max));
                let mut at = start;
                if let Some(ua) = user_align {
                    at = round_up(at, ua);
                }
                if !packed {
                    let span_align = pack.map_or(talign, |p| talign.min(p));
                    if excess_unit_span(at, width, span_align, tsize) {
                        at = round_up(at, span_align);
                    }
                }
                if f.name.is_some() {
                    let eff = if let Some(p) = pack {
                        talign.min(p)
                    } else if packed {
                        8
                    } else {
                        talign
                    };
                    rec_align = rec_align.max(eff).max(user_align.unwrap_or(8));
                }
                out.push(FieldLayout {
                    bit_offset: at,
                    bit_size: width,
                });
                if kind == RecordKind::Struct {
                    pos = at.saturating_add(width);
                }
                end = end.max(at.saturating_add(width));
                continue;
            }
            // An ordinary member.
            let is_flex = matches!(
                self.ckind(f.ty),
                TypeKind::Array {
                    size: ArraySize::Incomplete,
                    ..
                }
            );
            let size_bits = if is_flex {
                if kind == RecordKind::Struct && (i + 1 != fields.len() || named_count < 2) {
                    errors.push(LayoutError::MisplacedFlexibleArray { field: i });
                }
                flex = true;
                Some(0)
            } else {
                self.size_of(f.ty).map(|s| s.saturating_mul(8))
            };
            let (Some(size_bits), Some(talign)) = (size_bits, self.align_of(f.ty)) else {
                errors.push(LayoutError::IncompleteMember { field: i });
                out.push(FieldLayout {
                    bit_offset: start,
                    bit_size: 0,
                });
                continue;
            };
            // A member that is itself a struct ending in a flexible array makes this one
            // variable-sized as well (a GNU extension); remember it for the checker.
            if let Some(r) = self.record_id(f.ty) {
                flex |= self.record(r).has_flexible_array;
            }
            let talign = talign * 8;
            let mut falign = if packed {
                user_align.unwrap_or(8)
            } else {
                talign.max(user_align.unwrap_or(8))
            };
            if let Some(p) = pack {
                falign = falign.min(p);
            }
            let at = round_up(start, falign);
            rec_align = rec_align.max(falign);
            out.push(FieldLayout {
                bit_offset: at,
                bit_size: size_bits,
            });
            if kind == RecordKind::Struct {
                pos = at.saturating_add(size_bits);
            }
            end = end.max(at.saturating_add(size_bits));
        }
        // sizes are kept in bits internally: refuse records near the end of that range
        if end >= 1 << 62 {
            errors.push(LayoutError::TooLarge {
                field: fields.len().saturating_sub(1),
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        if let Some(a) = attrs.align {
            rec_align = rec_align.max(a * 8);
        }
        let size_bits = round_up(round_up(end, 8), rec_align);
        Ok((
            RecordLayout {
                size: size_bits / 8,
                align: rec_align / 8,
                fields: out,
            },
            flex,
        ))
    }

    /// Byte offset of a member path as returned by [`TypeTable::find_member`] (`offsetof`).
    /// For a bitfield this is the byte holding its first bit.
    pub fn member_offset(&self, rec: RecordId, path: &[usize]) -> Option<u64> {
        let mut rec = rec;
        let mut bits = 0;
        for (n, &i) in path.iter().enumerate() {
            let rd = self.record(rec);
            let fl = rd.layout.as_ref()?.fields.get(i)?;
            bits += fl.bit_offset;
            if n + 1 < path.len() {
                rec = self.record_id(rd.fields.as_ref()?[i].ty)?;
            }
        }
        Some(bits / 8)
    }

    /// The integer type that `size_t` is on this target.
    pub fn size_t_kind() -> IntKind {
        IntKind::ULong
    }
    /// The integer type that `ptrdiff_t` is on this target.
    pub fn ptrdiff_t_kind() -> IntKind {
        IntKind::Long
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::FloatKind;

    fn field(name: &str, ty: QualType) -> Field {
        Field {
            name: Some(name.into()),
            ty,
            bit_width: None,
            packed: false,
            align: None,
        }
    }
    fn bits(name: Option<&str>, ty: QualType, w: u32) -> Field {
        Field {
            name: name.map(Into::into),
            ty,
            bit_width: Some(w),
            packed: false,
            align: None,
        }
    }

    #[test]
    fn scalar_sizes() {
        let mut t = TypeTable::new();
        let ld = t.float(FloatKind::LongDouble);
        assert_eq!(t.size_of(ld), Some(16));
        let cld = t.complex(FloatKind::LongDouble);
        assert_eq!((t.size_of(cld), t.align_of(cld)), (Some(32), Some(16)));
        let cf = t.complex(FloatKind::Float).with(Quals::ATOMIC);
        assert_eq!((t.size_of(cf), t.align_of(cf)), (Some(8), Some(8)));
        let i128 = t.int(IntKind::Int128);
        assert_eq!(t.align_of(i128), Some(16));
    }

    #[test]
    fn simple_struct_and_bitfields() {
        let mut t = TypeTable::new();
        let c = t.int(IntKind::Char);
        let i = t.int(IntKind::Int);
        let s = t.int(IntKind::Short);
        // struct G { char a; short b:9; short c:9; } => size 6 align 2
        let (g, _) = t.new_record(RecordKind::Struct, Some("G".into()));
        t.complete_record(
            g,
            vec![field("a", c), bits(Some("b"), s, 9), bits(Some("c"), s, 9)],
            RecordAttrs::default(),
        )
        .unwrap();
        let l = t.record_layout(g).unwrap();
        assert_eq!((l.size, l.align), (6, 2));
        assert_eq!(l.fields[1].bit_offset, 16);
        assert_eq!(l.fields[2].bit_offset, 32);
        // struct H { char a; int :0; } => size 4 align 1
        let (h, _) = t.new_record(RecordKind::Struct, Some("H".into()));
        t.complete_record(
            h,
            vec![field("a", c), bits(None, i, 0)],
            RecordAttrs::default(),
        )
        .unwrap();
        let l = t.record_layout(h).unwrap();
        assert_eq!((l.size, l.align), (4, 1));
    }

    #[test]
    fn layout_errors_are_values() {
        let mut t = TypeTable::new();
        let c = t.int(IntKind::Char);
        let d = t.float(FloatKind::Double);
        let v = t.void();
        let (r, _) = t.new_record(RecordKind::Struct, None);
        let errs = t
            .complete_record(
                r,
                vec![bits(Some("x"), c, 9), bits(Some("y"), d, 1), field("z", v)],
                RecordAttrs::default(),
            )
            .unwrap_err();
        assert_eq!(errs.len(), 3);
        let rt = t.record_type(r);
        assert!(t.is_incomplete(rt));
    }
}
