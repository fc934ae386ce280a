//! Small read-only tables in `.const` (issue 16, item 7; knob `-C const-tables`, on at -O2).
//!
//! A static-storage object of integers or floats up to 8 bytes (a scalar or an array of them) that is
//! `const`-qualified and defined in this unit with a constant initializer can change neither
//! on the device (a store to it is undefined behaviour in C) nor on the host (a `target update
//! to` or a map can only send the same bytes again). Device code of this unit then reads an
//! internal `.const` copy, `<name>__const`, with `ld.const`, through the constant cache. The
//! object's own `.global` definition stays: the host registers it by name, and another unit's
//! device code declared against it keeps linking. The copies are limited to
//! [`CONST_BUDGET`] bytes per unit, so a few units linked together stay within the 64 KiB of
//! a GPU's constant bank. Mapped read-only arrays (a kernel parameter never written) are not
//! placed: their contents are known only at run time.

use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, GlobalData};
use ompcc_sema::types::{QualType, Quals, TypeTable};
use ompcc_sema::{Storage, SymbolId, SymbolKind};

use crate::ctx::{Ctx, GlobalInfo};

/// Bytes of `.const` copies one unit may make.
pub const CONST_BUDGET: u64 = 32 * 1024;

/// The remark name of this transform (`-Rpass=const-tables`, `-Rpass-missed=const-tables`).
pub const PASS: &str = "const-tables";

impl<'a> Ctx<'a> {
    /// The `.const` copy of static object `sym` that this unit's device code reads instead of
    /// the object, made on first use, when `.const` tables are on and `sym` qualifies; a
    /// remark either way for arrays (once).
    pub(crate) fn const_table(&mut self, sym: SymbolId, span: Span) -> Option<GlobalInfo> {
        self.const_budget?;
        let info = &self.typed.symbols[sym];
        if info.kind != SymbolKind::Object || info.storage != Storage::Static || self.is_link(sym) {
            return None;
        }
        if let Some(known) = self.const_tables.get(&sym) {
            return known.clone();
        }
        let copy = self.make_const_table(sym, span);
        self.const_tables.insert(sym, copy.clone());
        copy
    }

    fn make_const_table(&mut self, sym: SymbolId, span: Span) -> Option<GlobalInfo> {
        let info = self.typed.symbols[sym].clone();
        let is_array = self.typed.types.is_array(info.ty);
        let types = &self.typed.types;
        let size = types.size_of(info.ty)?.max(1);
        let align = info
            .align
            .unwrap_or(1)
            .max(types.align_of(info.ty).unwrap_or(1)) as u32;
        let fact = self.const_table_fact(sym, size).and_then(|()| {
            let (init, relocs) = self.global_init(sym, "", size, span);
            if relocs.is_empty() {
                Ok(init)
            } else {
                Err("its initializer holds addresses".to_string())
            }
        });
        let init = match fact {
            Ok(init) => init,
            Err(why) => {
                if is_array {
                    let msg = format!("'{}' stays in .global: {why}", info.name);
                    self.const_remark(false, span, msg);
                }
                return None;
            }
        };
        self.const_budget = self.const_budget.map(|left| left - size);
        let name = self.unique_name(&format!("{}__const", info.name));
        self.module
            .linkage
            .insert(name.clone(), ompcc_ir::Linkage::Internal);
        self.module.globals.push(GlobalData {
            name: name.clone(),
            space: AddrSpace::Const,
            size,
            align: align.max(1),
            init: Some(init),
        });
        let msg = format!(
            "'{}' ({size} bytes) is read from .const (ld.const): const-qualified with a \
             constant initializer, so no host or device code can change it",
            info.name
        );
        self.const_remark(true, span, msg);
        Some(GlobalInfo {
            name,
            space: AddrSpace::Const,
        })
    }

    /// Why static object `sym` of `size` bytes may not be copied to `.const`, if it may not.
    fn const_table_fact(&self, sym: SymbolId, size: u64) -> Result<(), String> {
        let types = &self.typed.types;
        let elem = innermost_element(types, self.typed.symbols[sym].ty);
        let scalar = types.is_integer(elem) || types.is_real_float(elem);
        if !scalar || types.size_of(elem).is_none_or(|b| b > 8) {
            return Err("its elements are not integers or floats of at most 8 bytes".into());
        }
        if elem.quals.contains(Quals::VOLATILE) {
            return Err("it is volatile".into());
        }
        if !elem.quals.contains(Quals::CONST) {
            return Err(
                "it is not const-qualified: host code may change it (a 'target update \
                        to', a map) and device code may write it (mapped arrays that are only \
                        read are out of scope)"
                    .into(),
            );
        }
        if !self.has_initializer(sym) {
            return Err("it has no constant initializer in this unit".into());
        }
        let left = self.const_budget.unwrap_or(0);
        if size > left {
            return Err(format!(
                "{size} bytes do not fit the {left} bytes left of this unit's {CONST_BUDGET}-byte \
                 .const budget"
            ));
        }
        Ok(())
    }

    fn const_remark(&mut self, passed: bool, span: Span, message: String) {
        self.remarks.push(ompcc_omp::GridRemark {
            pass: PASS,
            passed,
            span,
            message,
        });
    }
}

/// The element type of `ty` with every array level peeled, its qualifiers merged through
/// typedefs (C 6.7.3p9: an array type's qualifiers are its elements').
fn innermost_element(types: &TypeTable, ty: QualType) -> QualType {
    let mut t = types.canon(ty);
    let mut quals = t.quals;
    while let Some(e) = types.array_elem(t) {
        t = types.canon(e);
        quals = quals | t.quals;
    }
    t.with(quals)
}
