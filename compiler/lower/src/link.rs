//! `declare target link` variables (OpenMP 5.2 section 7.8.1): the device has no copy of its
//! own; a map of the variable makes one, and device code reaches it through a pointer global
//! `__ompcc_link_<name>` (8 bytes, null until set). Every kernel whose region uses such a
//! variable gets its mapped address as a parameter (ompcc-omp maps it `tofrom` when no clause
//! does, also when only functions the region calls use it) and each thread stores it in the
//! pointer global at kernel entry, before anything reads it: all threads store the same value,
//! so device functions always find the current mapping's address. The unit defining the
//! variable defines the pointer global (visible, so other units' device code links to it);
//! a unit that only declares it refers to that one.

use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, GlobalData, Type, Value};
use ompcc_sema::types::QualType;
use ompcc_sema::{Linkage, SymbolId};

use crate::ctx::Ctx;
use crate::expr::Lv;
use crate::func::{Addr, FnLower};

impl Ctx<'_> {
    /// Whether `sym` is a `declare target link` variable.
    pub(crate) fn is_link(&self, sym: SymbolId) -> bool {
        self.typed.declare_target_link.contains(&sym)
    }

    /// The pointer global standing for link variable `sym`, made on first use.
    pub(crate) fn link_ref(&mut self, sym: SymbolId, span: Span) -> Option<String> {
        if let Some(n) = self.link_refs.get(&sym) {
            return Some(n.clone());
        }
        let info = self.typed.symbols[sym].clone();
        if !self.ptx_nameable("E0807", "object", &info.name, span) {
            return None;
        }
        let base = info.asm_label.clone().unwrap_or(info.name.clone());
        let name = self.unique_name(&format!("__ompcc_link_{base}"));
        let linkage = match info.linkage {
            Linkage::Internal | Linkage::None => Some(ompcc_ir::Linkage::Internal),
            Linkage::External if !info.defined && !info.tentative => {
                Some(ompcc_ir::Linkage::Extern)
            }
            Linkage::External => None,
        };
        if let Some(l) = linkage {
            self.module.linkage.insert(name.clone(), l);
        }
        let extern_ = linkage == Some(ompcc_ir::Linkage::Extern);
        self.module.globals.push(GlobalData {
            name: name.clone(),
            space: AddrSpace::Global,
            size: 8,
            align: 8,
            init: (!extern_).then(|| vec![0; 8]),
        });
        self.link_refs.insert(sym, name.clone());
        Some(name)
    }

    /// Defines the pointer globals of the link variables this unit defines, so other units'
    /// device code finds them whether or not this unit's uses them.
    pub(crate) fn define_link_refs(&mut self) {
        let mut defined: Vec<SymbolId> = self
            .typed
            .declare_target_link
            .iter()
            .copied()
            .filter(|&s| {
                let i = &self.typed.symbols[s];
                i.linkage == Linkage::External && (i.defined || i.tentative)
            })
            .collect();
        defined.sort();
        for s in defined {
            let span = self.typed.symbols[s].span;
            let _ = self.link_ref(s, span);
        }
    }
}

impl FnLower<'_, '_, '_> {
    /// The storage of link variable `sym` (of type `ty`): where its pointer global points.
    pub(crate) fn link_lvalue(&mut self, sym: SymbolId, ty: QualType, span: Span) -> Option<Lv> {
        let name = self.cx.link_ref(sym, span)?;
        let gr = self.b.import_global(&name, AddrSpace::Global);
        let at = self.b.ins().global_addr(gr);
        let ptr = self.load_raw(
            Addr {
                ptr: at,
                space: AddrSpace::Global,
                align: 8,
            },
            Type::PTR,
            false,
        );
        let s = &self.cx.typed.symbols[sym];
        let align = self.align_of(ty).max(s.align.unwrap_or(1) as u32);
        Some(Lv::Mem(
            Addr {
                ptr,
                space: AddrSpace::Generic,
                align,
            },
            ty,
        ))
    }

    /// At kernel entry: a link variable's parameter `v` (its mapped address) becomes what
    /// device functions find in its pointer global.
    pub(crate) fn set_link_ref(&mut self, sym: SymbolId, v: Value, span: Span) {
        if !self.cx.is_link(sym) {
            return;
        }
        let Some(name) = self.cx.link_ref(sym, span) else {
            return;
        };
        let gr = self.b.import_global(&name, AddrSpace::Global);
        let at = self.b.ins().global_addr(gr);
        self.store_raw(
            Addr {
                ptr: at,
                space: AddrSpace::Global,
                align: 8,
            },
            v,
            false,
        );
    }
}
