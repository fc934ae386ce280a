//! Conversions between C types: integer promotions, usual arithmetic conversions, default
//! argument promotions, compatible types and composite types (C11 6.3.1, 6.2.7).
//!
//! All functions look through typedefs; results are canonical (no typedef sugar) unless they
//! return one of their inputs unchanged.

use crate::types::{ArraySize, FloatKind, FnType, IntKind, QualType, TypeKind, TypeTable};

impl TypeTable {
    /// Integer promotion of an integer type (C11 6.3.1.1p2); other types are returned
    /// unqualified and otherwise unchanged. Enums promote by their underlying type, so an enum
    /// whose underlying type is `unsigned int` stays unsigned, as with gcc.
    pub fn promote(&mut self, qt: QualType) -> QualType {
        let c = self.canon(qt).unqual();
        match self.kind(c.ty).clone() {
            TypeKind::Bool => self.int(IntKind::Int),
            TypeKind::Int(k) if k.rank() < IntKind::Int.rank() => self.int(IntKind::Int),
            TypeKind::Enum(e) => {
                let k = self.enum_def(e).underlying;
                if k.rank() < IntKind::Int.rank() {
                    self.int(IntKind::Int)
                } else {
                    self.int(k)
                }
            }
            _ => c,
        }
    }

    /// Promotion of a bitfield of `width` bits: to `int` if int holds every value, else to
    /// `unsigned int` if that does, else like its declared type (gcc keeps wider types).
    pub fn promote_bitfield(&mut self, qt: QualType, width: u32) -> QualType {
        let signed = self.is_signed_int(qt);
        let rank_le_int = match self.int_kind(qt) {
            Some(k) => k.rank() <= IntKind::Int.rank(),
            None => true, // _Bool
        };
        if rank_le_int {
            if width < 32 || (width == 32 && signed) {
                return self.int(IntKind::Int);
            }
            if width == 32 {
                return self.int(IntKind::UInt);
            }
        }
        self.promote(qt)
    }

    /// Default argument promotions (C11 6.5.2.2p6): integer promotions, `float` to `double`.
    pub fn default_arg_promote(&mut self, qt: QualType) -> QualType {
        if matches!(self.ckind(qt), TypeKind::Float(FloatKind::Float)) {
            return self.float(FloatKind::Double);
        }
        self.promote(qt)
    }

    /// The common real type of two arithmetic operands (C11 6.3.1.8). Complex if either
    /// operand is complex. Callers must check that both are arithmetic.
    pub fn usual_arith(&mut self, a: QualType, b: QualType) -> QualType {
        let fa = self.float_rank(a);
        let fb = self.float_rank(b);
        if fa.is_some() || fb.is_some() {
            let k = fa.max(fb).unwrap_or(FloatKind::Double);
            return if self.is_complex(a) || self.is_complex(b) {
                self.complex(k)
            } else {
                self.float(k)
            };
        }
        let pa = self.promote(a);
        let pb = self.promote(b);
        let (Some(ka), Some(kb)) = (self.int_kind(pa), self.int_kind(pb)) else {
            return pa;
        };
        self.int(common_int(ka, kb))
    }

    fn float_rank(&self, qt: QualType) -> Option<FloatKind> {
        match self.ckind(qt) {
            TypeKind::Float(k) | TypeKind::Complex(k) => Some(*k),
            _ => None,
        }
    }

    /// C11 6.2.7 compatible types, qualifiers included.
    pub fn compatible(&self, a: QualType, b: QualType) -> bool {
        let a = self.canon(a);
        let b = self.canon(b);
        a.quals == b.quals && self.compatible_unqual(a, b)
    }

    /// Compatibility ignoring top-level qualifiers.
    pub fn compatible_unqual(&self, a: QualType, b: QualType) -> bool {
        let a = self.canon(a);
        let b = self.canon(b);
        if a.ty == b.ty {
            return true;
        }
        match (self.kind(a.ty), self.kind(b.ty)) {
            (TypeKind::Pointer(x), TypeKind::Pointer(y)) => self.compatible(*x, *y),
            (
                TypeKind::Array {
                    elem: ea, size: sa, ..
                },
                TypeKind::Array {
                    elem: eb, size: sb, ..
                },
            ) => {
                let sizes_ok = match (sa, sb) {
                    (ArraySize::Fixed(x), ArraySize::Fixed(y)) => x == y,
                    _ => true,
                };
                sizes_ok && self.compatible(*ea, *eb)
            }
            (TypeKind::Function(f), TypeKind::Function(g)) => self.compatible_fn(f, g),
            (TypeKind::Enum(e), TypeKind::Int(k)) | (TypeKind::Int(k), TypeKind::Enum(e)) => {
                self.enum_def(*e).underlying == *k
            }
            _ => false,
        }
    }

    fn compatible_fn(&self, f: &FnType, g: &FnType) -> bool {
        if !self.compatible(f.ret, g.ret) {
            return false;
        }
        match (f.prototyped, g.prototyped) {
            (true, true) => {
                f.variadic == g.variadic
                    && f.params.len() == g.params.len()
                    && f.params
                        .iter()
                        .zip(&g.params)
                        .all(|(x, y)| self.compatible_unqual(*x, *y))
            }
            (false, false) => true,
            // An old-style declaration is compatible with a prototype whose parameters are
            // all unchanged by the default argument promotions and that is not variadic.
            (true, false) | (false, true) => {
                let p = if f.prototyped { f } else { g };
                !p.variadic && p.params.iter().all(|x| self.is_self_promoting(*x))
            }
        }
    }

    fn is_self_promoting(&self, qt: QualType) -> bool {
        match self.ckind(qt) {
            TypeKind::Bool | TypeKind::Float(FloatKind::Float) => false,
            TypeKind::Int(k) => k.rank() >= IntKind::Int.rank(),
            TypeKind::Enum(e) => self.enum_def(*e).underlying.rank() >= IntKind::Int.rank(),
            _ => true,
        }
    }

    /// The composite type of two compatible types (C11 6.2.7p3); `None` if incompatible.
    /// Qualifiers are those of `a`.
    pub fn composite(&mut self, a: QualType, b: QualType) -> Option<QualType> {
        if !self.compatible_unqual(a, b) {
            return None;
        }
        let ca = self.canon(a);
        let cb = self.canon(b);
        if ca.ty == cb.ty {
            return Some(a);
        }
        let ka = self.kind(ca.ty).clone();
        let kb = self.kind(cb.ty).clone();
        let r = match (ka, kb) {
            (TypeKind::Pointer(x), TypeKind::Pointer(y)) => {
                let p = self.composite(x, y)?;
                self.pointer(p)
            }
            (
                TypeKind::Array {
                    elem: ea,
                    size: sa,
                    is_static,
                },
                TypeKind::Array {
                    elem: eb, size: sb, ..
                },
            ) => {
                let e = self.composite(ea, eb)?;
                let size = match (sa, sb) {
                    (ArraySize::Fixed(n), _) | (_, ArraySize::Fixed(n)) => ArraySize::Fixed(n),
                    (ArraySize::Vla(v), _) | (_, ArraySize::Vla(v)) => ArraySize::Vla(v),
                    (s, _) => s,
                };
                if is_static {
                    self.array_static(e, size)
                } else {
                    self.array(e, size)
                }
            }
            (TypeKind::Function(f), TypeKind::Function(g)) => {
                let ret = self.composite(f.ret, g.ret)?;
                let ft = match (f.prototyped, g.prototyped) {
                    (true, true) => {
                        let mut params = Vec::with_capacity(f.params.len());
                        for (x, y) in f.params.iter().zip(&g.params) {
                            params.push(self.composite(*x, *y)?);
                        }
                        FnType {
                            ret,
                            params,
                            variadic: f.variadic,
                            prototyped: true,
                        }
                    }
                    (true, false) => FnType { ret, ..f },
                    (false, true) => FnType { ret, ..g },
                    (false, false) => FnType { ret, ..f },
                };
                self.function(ft)
            }
            // enum vs its underlying integer type: keep the first
            _ => ca,
        };
        Some(r.with(ca.quals))
    }
}

/// The common type of two promoted integer kinds.
pub fn common_int(a: IntKind, b: IntKind) -> IntKind {
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.size() > u.size() {
        s
    } else {
        s.to_unsigned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Quals, RecordKind};

    #[test]
    fn promotions() {
        let mut t = TypeTable::new();
        let int = t.int(IntKind::Int);
        let uint = t.int(IntKind::UInt);
        for k in [
            IntKind::Char,
            IntKind::UChar,
            IntKind::Short,
            IntKind::UShort,
        ] {
            let q = t.int(k);
            assert_eq!(t.promote(q), int, "{k:?}");
        }
        let b = t.bool_();
        assert_eq!(t.promote(b), int);
        let l = t.int(IntKind::Long);
        assert_eq!(t.promote(l), l);
        let (e, et) = t.new_enum(None);
        t.complete_enum(e, vec![("A".into(), 1)], false);
        assert_eq!(t.promote(et), uint);
        let u = t.int(IntKind::UShort);
        assert_eq!(t.promote_bitfield(u, 16), int);
        assert_eq!(t.promote_bitfield(uint, 31), int);
        assert_eq!(t.promote_bitfield(uint, 32), uint);
        let ul = t.int(IntKind::ULong);
        assert_eq!(t.promote_bitfield(ul, 40), ul);
        let f = t.float(FloatKind::Float);
        let d = t.float(FloatKind::Double);
        assert_eq!(t.default_arg_promote(f), d);
        let cs = t.int(IntKind::Short).with(Quals::CONST);
        assert_eq!(t.promote(cs), int);
    }

    #[test]
    fn usual_arithmetic_conversions() {
        let mut t = TypeTable::new();
        let q = |t: &mut TypeTable, k| t.int(k);
        let cases = [
            (IntKind::Int, IntKind::UInt, IntKind::UInt),
            (IntKind::Long, IntKind::UInt, IntKind::Long),
            (IntKind::LongLong, IntKind::ULong, IntKind::ULongLong),
            (IntKind::Char, IntKind::UShort, IntKind::Int),
            (IntKind::Int, IntKind::ULongLong, IntKind::ULongLong),
            (IntKind::Int128, IntKind::ULong, IntKind::Int128),
            (IntKind::UInt128, IntKind::Long, IntKind::UInt128),
        ];
        for (a, b, r) in cases {
            let (qa, qb, qr) = (q(&mut t, a), q(&mut t, b), q(&mut t, r));
            assert_eq!(t.usual_arith(qa, qb), qr, "{a:?} {b:?}");
            assert_eq!(t.usual_arith(qb, qa), qr, "{b:?} {a:?}");
        }
        let i = t.int(IntKind::Int);
        let f = t.float(FloatKind::Float);
        let d = t.float(FloatKind::Double);
        let cf = t.complex(FloatKind::Float);
        let cd = t.complex(FloatKind::Double);
        assert_eq!(t.usual_arith(i, f), f);
        assert_eq!(t.usual_arith(f, d), d);
        assert_eq!(t.usual_arith(cf, d), cd);
        assert_eq!(t.usual_arith(i, cf), cf);
    }

    #[test]
    fn compatibility_and_composite() {
        let mut t = TypeTable::new();
        let i = t.int(IntKind::Int);
        let a10 = t.array(i, ArraySize::Fixed(10));
        let a = t.array(i, ArraySize::Incomplete);
        let a5 = t.array(i, ArraySize::Fixed(5));
        assert!(t.compatible(a10, a));
        assert!(!t.compatible(a10, a5));
        assert_eq!(t.composite(a, a10), Some(a10));
        let old = t.function(FnType {
            ret: i,
            params: vec![],
            variadic: false,
            prototyped: false,
        });
        let proto = t.function(FnType {
            ret: i,
            params: vec![i, i],
            variadic: false,
            prototyped: true,
        });
        assert!(t.compatible(old, proto));
        assert_eq!(t.composite(old, proto), Some(proto));
        let c = t.int(IntKind::Char);
        let cproto = t.function(FnType {
            ret: i,
            params: vec![c],
            variadic: false,
            prototyped: true,
        });
        assert!(!t.compatible(old, cproto));
        let ci = i.with(Quals::CONST);
        assert!(!t.compatible(i, ci));
        let pi = t.pointer(i);
        let pci = t.pointer(ci);
        assert!(!t.compatible(pi, pci));
        let (e, et) = t.new_enum(None);
        t.complete_enum(e, vec![("X".into(), -1)], false);
        assert!(t.compatible(et, i));
        let (_, s1) = t.new_record(RecordKind::Struct, Some("s".into()));
        let (_, s2) = t.new_record(RecordKind::Struct, Some("s".into()));
        assert!(!t.compatible(s1, s2));
        let td = t.new_typedef("I".into(), i, None);
        assert!(t.compatible(td, i));
    }
}
