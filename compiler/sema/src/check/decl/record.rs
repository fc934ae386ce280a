//! Struct, union and enum specifiers (C11 6.7.2.1-6.7.2.3): tags and their redeclarations,
//! member lists with bit-fields and attributes, layout, and enumerator values.

use super::*;

impl Checker<'_> {
    pub(super) fn record_spec(
        &mut self,
        r: &ast::RecordSpec,
        trailing: &[Attribute],
    ) -> Option<QualType> {
        let kind = match r.kind {
            ast::RecordKind::Struct => RecordKind::Struct,
            ast::RecordKind::Union => RecordKind::Union,
        };
        // find or create the record
        let rid = match (&r.tag, &r.members) {
            (Some(tag), members) => {
                let found = self.lookup_tag(tag.name);
                let reuse = match found {
                    // a definition always declares in the current scope
                    Some((Tag::Record(id), in_current)) if members.is_none() || in_current => {
                        let existing = self.out.types.record(id);
                        if existing.kind != kind {
                            let n = self.name(tag.name);
                            self.error(
                                "E0320",
                                format!("'{n}' defined as wrong kind of tag"),
                                tag.span,
                            );
                            return None;
                        }
                        if members.is_some() && existing.fields.is_some() {
                            let n = self.name(tag.name);
                            self.error(
                                "E0321",
                                format!("redefinition of '{} {n}'", kw(kind)),
                                tag.span,
                            );
                            return None;
                        }
                        Some(id)
                    }
                    Some((Tag::Enum(_), true)) => {
                        let n = self.name(tag.name);
                        self.error(
                            "E0320",
                            format!("'{n}' defined as wrong kind of tag"),
                            tag.span,
                        );
                        return None;
                    }
                    _ => None,
                };
                match reuse {
                    Some(id) => id,
                    None => {
                        let tname = self.name(tag.name).to_string();
                        let (id, _) = self.out.types.new_record(kind, Some(tname.clone()));
                        self.out.tags.push((tname, id));
                        if let Some(s) = self.scopes.last_mut() {
                            s.tags.insert(tag.name, (Tag::Record(id), tag.span));
                        }
                        id
                    }
                }
            }
            (None, _) => self.out.types.new_record(kind, None).0,
        };
        if let Some(members) = &r.members {
            let mut attrs = AttrInfo::default();
            self.attributes(&r.attrs, &mut attrs);
            self.attributes(trailing, &mut attrs);
            let mut fields = Vec::new();
            let mut spans = Vec::new();
            for m in members {
                match m {
                    MemberDecl::StaticAssert(sa) => self.static_assert(sa),
                    MemberDecl::Pragma(p) => self.pragma(p),
                    MemberDecl::Field {
                        span,
                        specs,
                        declarators,
                    } => {
                        let (base, info) = self.specs(specs);
                        let Some(base) = base else { continue };
                        if declarators.is_empty() {
                            // anonymous struct/union member
                            if self.out.types.is_record(base) {
                                fields.push(Field {
                                    name: None,
                                    ty: base,
                                    bit_width: None,
                                    packed: info.attrs.packed,
                                    align: info.align.or(info.attrs.align),
                                });
                                spans.push(*span);
                            } else {
                                self.warn("W0303", "declaration does not declare anything", *span);
                            }
                            continue;
                        }
                        for fd in declarators {
                            let mut fattrs = info.attrs;
                            let (ty, name) = match &fd.declarator {
                                Some(d) => {
                                    self.attributes(&d.attrs, &mut fattrs);
                                    let Some(t) = self.declarator_type(base, d, false) else {
                                        continue;
                                    };
                                    self.set_decl(d.id, None, t);
                                    (t, d.name)
                                }
                                None => (base, None),
                            };
                            let width = match &fd.bit_width {
                                Some(w) => match self.const_int(w) {
                                    Some(v) => match v.as_i128() {
                                        Some(v) if (0..=128).contains(&v) => Some(v as u32),
                                        _ => {
                                            self.error(
                                                "E0322",
                                                "negative or too large width in bit-field",
                                                w.span,
                                            );
                                            continue;
                                        }
                                    },
                                    None => continue,
                                },
                                None => None,
                            };
                            if self.out.types.is_vla(ty) {
                                self.error(
                                    "E0308",
                                    "a member of a structure or union cannot have a variably modified type",
                                    fd.span,
                                );
                                continue;
                            }
                            let align = match (info.align, fattrs.align) {
                                (Some(a), Some(b)) => Some(a.max(b)),
                                (a, b) => a.or(b),
                            };
                            if let Some(n) = name {
                                let nm = self.name(n.name);
                                if fields.iter().any(|f: &Field| f.name.as_deref() == Some(nm)) {
                                    self.error("E0323", format!("duplicate member '{nm}'"), n.span);
                                }
                            }
                            fields.push(Field {
                                name: name.map(|n| self.name(n.name).to_string()),
                                ty,
                                bit_width: width,
                                packed: fattrs.packed,
                                align,
                            });
                            spans.push(fd.span);
                        }
                    }
                }
            }
            let rattrs = RecordAttrs {
                packed: attrs.packed,
                align: attrs.align,
                max_field_align: self.pack,
            };
            if let Err(errs) = self.out.types.complete_record(rid, fields, rattrs) {
                for e in errs {
                    let span = spans.get(e.field()).copied().unwrap_or(r.span);
                    self.error("E0324", e.to_string(), span);
                }
            }
        }
        Some(self.out.types.record_type(rid))
    }

    pub(super) fn enum_spec(
        &mut self,
        e: &ast::EnumSpec,
        trailing: &[Attribute],
    ) -> Option<QualType> {
        let existing = e.tag.and_then(|t| match self.lookup_tag(t.name) {
            Some((Tag::Enum(id), cur)) if e.enumerators.is_none() || cur => Some(id),
            _ => None,
        });
        if let (Some(tag), None) = (e.tag, existing)
            && let Some((Tag::Record(_), true)) = self.lookup_tag(tag.name)
        {
            let n = self.name(tag.name);
            self.error(
                "E0320",
                format!("'{n}' defined as wrong kind of tag"),
                tag.span,
            );
            return None;
        }
        let (id, qt) = match existing {
            Some(id) => {
                if e.enumerators.is_some() && self.out.types.enum_def(id).complete {
                    let n = e.tag.map(|t| self.name(t.name)).unwrap_or("");
                    self.error("E0321", format!("redeclaration of 'enum {n}'"), e.span);
                    return None;
                }
                (id, QualType::new(self.out.types.intern(TypeKind::Enum(id))))
            }
            None => {
                let tag = e.tag.map(|t| self.name(t.name).to_string());
                let (id, qt) = self.out.types.new_enum(tag.clone());
                if let (Some(t), Some(tn)) = (e.tag, tag) {
                    self.out.enum_tags.push((tn, id));
                    if let Some(s) = self.scopes.last_mut() {
                        s.tags.insert(t.name, (Tag::Enum(id), t.span));
                    }
                }
                (id, qt)
            }
        };
        let Some(list) = &e.enumerators else {
            return Some(qt);
        };
        let mut attrs = AttrInfo::default();
        self.attributes(&e.attrs, &mut attrs);
        self.attributes(trailing, &mut attrs);
        let mut next: i128 = 0;
        let mut consts = Vec::new();
        let mut syms = Vec::new();
        for en in list {
            let v = match &en.value {
                Some(x) => match self.const_int(x) {
                    Some(v) => v.as_i128().unwrap_or(i128::MAX),
                    None => next,
                },
                None => next,
            };
            next = v.wrapping_add(1);
            let name = self.name(en.name.name).to_string();
            if let Some(prev) = self.lookup_current(en.name.name) {
                let ps = self.out.symbols[prev].span;
                self.diags.push(
                    ompcc_diag::Diagnostic::error(
                        "E0315",
                        format!("redeclaration of enumerator '{name}'"),
                        en.name.span,
                    )
                    .with_label(ps, "previous declaration"),
                );
            }
            // enumerators have type int when the value fits (C11), else the enum's type
            let int = self.out.types.int(IntKind::Int);
            let sym = self.new_symbol(SymbolInfo {
                name: name.clone(),
                kind: SymbolKind::EnumConstant(v),
                ty: int,
                linkage: Linkage::None,
                storage: Storage::Static,
                defined: true,
                tentative: false,
                is_param: false,
                is_inline: false,
                is_register: false,
                asm_label: None,
                span: en.name.span,
                align: None,
            });
            self.bind(en.name.name, sym);
            self.set_decl(en.id, Some(sym), int);
            consts.push((name, v));
            syms.push((sym, v));
        }
        self.out.types.complete_enum(id, consts, attrs.packed);
        let under = self.out.types.enum_def(id).underlying;
        for (sym, v) in syms {
            if !IntKind::Int.fits_i128(v) {
                self.out.symbols[sym].ty = self.out.types.int(under);
            }
        }
        Some(qt)
    }
}

fn kw(k: RecordKind) -> &'static str {
    match k {
        RecordKind::Struct => "struct",
        RecordKind::Union => "union",
    }
}
