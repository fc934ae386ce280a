//! `declare target indirect` (OpenMP 5.2 section 7.8.2): a call through a function pointer in
//! device code may get the *host* address of an indirect declare-target function, and must
//! then call its device version. Each unit that defines indirect functions has a global
//! `__ompcc_indirect_fns_<unit>` holding their device addresses, whose host copy (registered
//! like a declare-target variable, written by the host rewrite) holds their host addresses in
//! the same order ([`indirect_functions`]). At load the runtime pairs the two arrays of every
//! unit of the program into one table in device memory and writes its address and length into
//! each unit's `__ompcc_indirect_tab_<unit>` (16 bytes). Every indirect call of a unit's device
//! code first looks its pointer up in that table (a linear search: few functions are
//! indirect) and calls the device address when it finds one, the pointer itself otherwise (a
//! device address taken in device code).

use ompcc_ir::{AddrSpace, GlobalData, IntCC, Reloc, Type, Value};
use ompcc_sema::{SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{ExternalDecl, TranslationUnit};

use crate::ctx::Ctx;
use crate::func::{Addr, FnLower};

/// The name of the global holding the device addresses of a unit's indirect functions.
pub fn functions_global(unit_id: &str) -> String {
    format!("__ompcc_indirect_fns_{unit_id}")
}

/// The name of the global the runtime points at the program's table.
pub fn table_global(unit_id: &str) -> String {
    format!("__ompcc_indirect_tab_{unit_id}")
}

/// The indirect functions `tu` defines, in the order both halves list them.
pub fn indirect_functions(tu: &TranslationUnit, typed: &TypedUnit) -> Vec<SymbolId> {
    let mut out: Vec<SymbolId> = tu
        .items
        .iter()
        .filter_map(|it| match it {
            ExternalDecl::Function(f) => typed.decl_symbol(f.declarator.id),
            _ => None,
        })
        .filter(|s| {
            typed.declare_target_indirect.contains(s)
                && typed.symbols[*s].kind == SymbolKind::Function
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

impl Ctx<'_> {
    /// Defines `__ompcc_indirect_fns_<unit>` with the device addresses of the unit's indirect
    /// functions (queued for lowering), when it has any.
    pub(crate) fn define_indirect_functions(&mut self, unit_id: &str) {
        let fns = indirect_functions(self.tu, self.typed);
        if fns.is_empty() {
            return;
        }
        let name = functions_global(unit_id);
        let relocs: Vec<Reloc> = fns
            .iter()
            .enumerate()
            .map(|(i, &s)| Reloc {
                offset: 8 * i as u64,
                target: self.enqueue(s),
                addend: 0,
            })
            .collect();
        self.module.relocs.insert(name.clone(), relocs);
        self.module.globals.push(GlobalData {
            name,
            space: AddrSpace::Global,
            size: 8 * fns.len() as u64,
            align: 8,
            init: Some(vec![0; 8 * fns.len()]),
        });
    }

    /// `__ompcc_indirect_tab_<unit>`, defined on first use; `None` outside offload images.
    fn indirect_table(&mut self) -> Option<String> {
        let name = table_global(self.unit_id.as_deref()?);
        if !self.module.globals.iter().any(|g| g.name == name) {
            self.module.globals.push(GlobalData {
                name: name.clone(),
                space: AddrSpace::Global,
                size: 16,
                align: 8,
                init: Some(vec![0; 16]),
            });
        }
        Some(name)
    }
}

impl FnLower<'_, '_, '_> {
    /// The address an indirect call through `p` (a generic pointer) really calls: the device
    /// version when `p` is the host address of an indirect function.
    pub(crate) fn indirect_target(&mut self, p: Value) -> Value {
        let Some(tab) = self.cx.indirect_table() else {
            return p;
        };
        let gr = self.b.import_global(&tab, AddrSpace::Global);
        let at = self.b.ins().global_addr(gr);
        let word = |ptr| Addr {
            ptr,
            space: AddrSpace::Global,
            align: 8,
        };
        let base = self.load_raw(word(at), Type::PTR, false);
        let eight = self.b.ins().iconst(Type::I64, 8);
        let at_len = self.b.ins().ptr_offset(at, eight);
        let len = self.load_raw(word(at_len), Type::I64, false);
        let head = self.b.create_block();
        let body = self.b.create_block();
        let found = self.b.create_block();
        let next = self.b.create_block();
        let exit = self.b.create_block();
        let i = self.b.append_block_param(head, Type::I64);
        let result = self.b.append_block_param(exit, Type::PTR);
        let zero = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(head, &[zero]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, i, len);
        self.b.ins().brif(more, body, &[], exit, &[p]);
        self.b.switch_to_block(body);
        let sixteen = self.b.ins().iconst(Type::I64, 16);
        let off = self.b.ins().imul(i, sixteen);
        let entry = self.b.ins().ptr_offset(base, off);
        let host = self.load_raw(
            Addr {
                space: AddrSpace::Generic,
                ..word(entry)
            },
            Type::PTR,
            false,
        );
        let hit = self.b.ins().icmp(IntCC::Eq, host, p);
        self.b.ins().brif(hit, found, &[], next, &[]);
        self.b.switch_to_block(found);
        let eight = self.b.ins().iconst(Type::I64, 8);
        let at_dev = self.b.ins().ptr_offset(entry, eight);
        let dev = self.load_raw(
            Addr {
                space: AddrSpace::Generic,
                ..word(at_dev)
            },
            Type::PTR,
            false,
        );
        self.b.ins().jump(exit, &[dev]);
        self.b.switch_to_block(next);
        let one = self.b.ins().iconst(Type::I64, 1);
        let i1 = self.b.ins().iadd(i, one);
        self.b.ins().jump(head, &[i1]);
        self.b.switch_to_block(exit);
        result
    }
}
