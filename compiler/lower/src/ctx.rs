//! Module-level lowering state: function selection, the work queue of functions to lower,
//! C signatures as IR signatures, module globals (file-scope and `static` objects, string
//! literals) with their constant initializers, and external declarations.
//!
//! Invariants: every IR name is unique in the module (`unique_name`); a symbol gets its IR
//! function or global name once and keeps it; every function that a lowered body calls is
//! either queued for lowering or declared in `module.decls` with the signature the call uses;
//! a declaration is `extern` exactly when it names a `declare target` function this unit
//! declares but does not define (the device link resolves it), and an `extern` global is a
//! `declare target` object this unit only declares.

use crate::func::FnLower;
use crate::init_image::InitImage;
use crate::ty::{self, Scalar};
use ompcc_diag::{Diagnostic, FileId, SourceMap, Span};
use ompcc_ir::{
    AddrSpace, FuncDecl, FuncKind, GlobalData, Module, Reloc, Signature, SourceLoc, Type,
};
use ompcc_sema::consteval::ConstValue;
use ompcc_sema::types::{QualType, TypeKind};
use ompcc_sema::{InitKey, Storage, SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    self, DeclId, DeclarationKind, ExprKind, ExternalDecl, FunctionDef, OmpClauseKind,
    OmpDirectiveKind, TranslationUnit,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// The OpenMP API routines `kernel::omp_api` lowers inline (see [`is_device_api`] for all
/// that device code may call besides the lock API).
pub const DEVICE_API: &[&str] = &[
    "omp_get_thread_num",
    "omp_get_num_threads",
    "omp_get_max_threads",
    "omp_get_team_num",
    "omp_get_num_teams",
    "omp_get_thread_limit",
    "omp_get_level",
    "omp_get_active_level",
    "omp_get_ancestor_thread_num",
    "omp_get_team_size",
    "omp_in_parallel",
    "omp_is_initial_device",
    "omp_get_device_num",
    "omp_get_num_devices",
    "omp_get_initial_device",
    "omp_get_wtime",
    "omp_get_wtick",
    "omp_get_dynamic",
    "omp_get_nested",
    "omp_in_final",
];

/// Whether device code may call OpenMP API routine `name`: [`DEVICE_API`], the ICV routines
/// (`icv`) and the memory allocators (`allocator`).
pub fn is_device_api(name: &str) -> bool {
    DEVICE_API.contains(&name)
        || crate::icv::ROUTINES.contains(&name)
        || crate::allocator::ROUTINES.contains(&name)
}

/// Functions the CUDA driver gives every module: the device heap's `malloc`/`free`, which the
/// device library's allocation functions (user code's `malloc`, `realloc`, ...) build on.
const CUDA_PROVIDED: &[&str] = &["malloc", "free"];

/// Whether calls to C library function `name` stay calls to an external function that
/// the device side provides: the device C library (`ompcc_stdlib`, linked by
/// `ompcc_devlib`) or the CUDA driver.
pub fn is_device_library_function(name: &str) -> bool {
    ompcc_stdlib::device_symbol(name).is_some() || CUDA_PROVIDED.contains(&name)
}

/// A module global created for a C object.
#[derive(Clone, Debug)]
pub struct GlobalInfo {
    pub name: String,
    pub space: AddrSpace,
}

pub struct Ctx<'a> {
    pub tu: &'a TranslationUnit,
    pub typed: &'a TypedUnit,
    pub module: Module,
    pub diags: Vec<Diagnostic>,
    include_callees: bool,
    /// Function definitions by symbol.
    defs: FxHashMap<SymbolId, &'a FunctionDef>,
    /// Object declarators by symbol (the one with an initializer wins): for global inits.
    obj_decls: FxHashMap<SymbolId, DeclId>,
    queued: FxHashSet<SymbolId>,
    queue: VecDeque<SymbolId>,
    /// IR names of lowered functions.
    fn_names: FxHashMap<SymbolId, String>,
    globals: FxHashMap<SymbolId, GlobalInfo>,
    strings: FxHashMap<Vec<u8>, String>,
    used_names: FxHashSet<String>,
    /// Symbols whose global initializer could not be represented (reported once).
    bad_globals: FxHashSet<SymbolId>,
    /// Every expression of the unit by id.
    exprs: Vec<Option<&'a ast::Expr>>,
    /// Where spans point in the user's files; `None`: instructions get no locations.
    source_map: Option<&'a SourceMap>,
    /// Index in `module.files` of each source-map file used so far.
    file_ids: FxHashMap<FileId, u32>,
    /// Globals made for compound literals in static initializers, by expression.
    literals: FxHashMap<ast::ExprId, String>,
    /// Functions and objects this unit declares `declare target` (in a region or by name),
    /// whatever `select` was asked for: the ones without a definition here are defined by
    /// another unit's device code (`extern_device_function`, `object_global`).
    declare_target: FxHashSet<SymbolId>,
    /// Names of the functions another unit defines: their declarations are `extern`.
    other_units: FxHashSet<String>,
    /// The function standing for each device library function whose address is taken.
    library_addresses: FxHashMap<SymbolId, String>,
    /// Where the device's internal control variables live (`icv`).
    pub(crate) icv: crate::icv::IcvState,
    /// The pointer global of each `declare target link` variable (`link`).
    pub(crate) link_refs: FxHashMap<SymbolId, String>,
    /// The unit's id in the names of its program-wide symbols, when it is lowered for an
    /// offload image (`indirect`: only there does a runtime fill the tables).
    pub(crate) unit_id: Option<String>,
    /// Callee expressions of device calls that call a `declare variant` (by its symbol).
    pub(crate) variant_calls: FxHashMap<ast::ExprId, SymbolId>,
    /// `LowerOptions::dispatch_calls`.
    pub(crate) dispatch_calls: FxHashMap<ast::ExprId, Option<SymbolId>>,
    /// While a kernel is lowered: its subscripts of work arrays laid out thread-minor (the
    /// plan's `PrivateLayout`), with the row length, the rows and whether they are
    /// `work[t][k]`.
    pub(crate) layouts: FxHashMap<ast::ExprId, (i64, &'a ast::Expr, bool)>,
    /// While a one-iteration kernel variant is lowered: the span of the directive of its
    /// region's loop nest, whose grid loop gives each thread at most one iteration.
    pub(crate) one_iteration_loop: Option<ompcc_diag::Span>,
    /// While a one-iteration kernel is lowered: its region's shared tiles (`tiles`), and
    /// the tile address of each read they cover (this thread's element, the read's byte
    /// offset from it, its alignment).
    pub(crate) tiles: Vec<ompcc_omp::SharedTile<'a>>,
    pub(crate) tile_reads: FxHashMap<ast::ExprId, (ompcc_ir::Value, i64, u32)>,
    /// Bytes left for `.const` copies of read-only tables (`const_table`); `None`: off.
    pub(crate) const_budget: Option<u64>,
    /// The `.const` copy of each read-only table, made on first use (`const_table`).
    pub(crate) const_tables: FxHashMap<SymbolId, Option<GlobalInfo>>,
    /// Remarks about what lowering placed where (`-Rpass=const-tables`).
    pub remarks: Vec<ompcc_omp::GridRemark>,
    /// While a one-iteration kernel variant is lowered: the dimensions of its grid
    /// (`ompcc_omp::one_iteration_grid`); 1 everywhere else.
    pub(crate) one_iteration_grid: u32,
}

impl<'a> Ctx<'a> {
    pub fn new(
        tu: &'a TranslationUnit,
        typed: &'a TypedUnit,
        include_callees: bool,
        source_map: Option<&'a SourceMap>,
    ) -> Self {
        let mut cx = Ctx {
            tu,
            typed,
            module: Module::new(),
            diags: Vec::new(),
            include_callees,
            defs: FxHashMap::default(),
            obj_decls: FxHashMap::default(),
            queued: FxHashSet::default(),
            queue: VecDeque::new(),
            fn_names: FxHashMap::default(),
            globals: FxHashMap::default(),
            strings: FxHashMap::default(),
            used_names: FxHashSet::default(),
            bad_globals: FxHashSet::default(),
            exprs: vec![None; tu.num_exprs as usize],
            source_map,
            file_ids: FxHashMap::default(),
            literals: FxHashMap::default(),
            declare_target: FxHashSet::default(),
            other_units: FxHashSet::default(),
            library_addresses: FxHashMap::default(),
            icv: Default::default(),
            link_refs: FxHashMap::default(),
            unit_id: None,
            variant_calls: FxHashMap::default(),
            dispatch_calls: FxHashMap::default(),
            layouts: FxHashMap::default(),
            one_iteration_loop: None,
            tiles: Vec::new(),
            tile_reads: FxHashMap::default(),
            const_budget: None,
            const_tables: FxHashMap::default(),
            remarks: Vec::new(),
            one_iteration_grid: 1,
        };
        let mut index = std::mem::take(&mut cx.exprs);
        crate::walk::exprs(tu, &mut |e| {
            if let Some(slot) = index.get_mut(e.id.0 as usize) {
                *slot = Some(e);
            }
        });
        cx.exprs = index;
        for item in &tu.items {
            match item {
                ExternalDecl::Function(f) => {
                    if let Some(s) = typed.decl_symbol(f.declarator.id)
                        && !is_library_inline(f, &typed.symbols[s].name)
                    {
                        cx.defs.insert(s, f);
                    }
                    crate::walk::block_decls(&f.body, &mut |d| cx.note_decl(d));
                }
                ExternalDecl::Decl(d) => cx.note_decl(d),
                _ => {}
            }
        }
        cx
    }

    fn note_decl(&mut self, d: &ast::Declaration) {
        if let DeclarationKind::Vars { declarators, .. } = &d.kind {
            for id in declarators {
                if let Some(s) = self.typed.decl_symbol(id.declarator.id)
                    && (id.init.is_some() || !self.obj_decls.contains_key(&s))
                {
                    self.obj_decls.insert(s, id.declarator.id);
                }
            }
        }
    }

    /// The expression with this id.
    pub fn expr_by_id(&self, id: ast::ExprId) -> Option<&'a ast::Expr> {
        self.exprs.get(id.0 as usize).copied().flatten()
    }

    /// The source location of the start of `span` (unknown without a source map), its file
    /// added to the module's file table on first use.
    pub fn srcloc(&mut self, span: Span) -> SourceLoc {
        let Some(sm) = self.source_map else {
            return SourceLoc::default();
        };
        let loc = sm.lookup(span.lo);
        let file = match self.file_ids.get(&loc.file) {
            Some(&f) => f,
            None => {
                let f = self.module.add_file(sm.file_name(loc.file));
                self.file_ids.insert(loc.file, f);
                f
            }
        };
        SourceLoc::new(file, loc.line, loc.col)
    }

    pub fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::error(code, msg, span));
    }

    /// The module global (an `i32`, 0 when free) that locks `critical(name)` sections.
    pub fn critical_lock(&mut self, name: &str) -> String {
        let key = format!("__omp_critical_{name}");
        if self.module.globals.iter().any(|g| g.name == key) {
            return key;
        }
        let g = self.unique_name(&key);
        // One lock per unit: a visible symbol would clash when two units are linked.
        self.module
            .linkage
            .insert(g.clone(), ompcc_ir::Linkage::Internal);
        self.module.globals.push(GlobalData {
            name: g.clone(),
            space: AddrSpace::Global,
            size: 4,
            align: 4,
            init: Some(vec![0; 4]),
        });
        g
    }

    /// A fresh uninitialized module global in shared memory (one copy per block).
    pub fn shared_global(&mut self, base: &str, size: u64, align: u32) -> String {
        let name = self.unique_name(base);
        self.module.globals.push(GlobalData {
            name: name.clone(),
            space: AddrSpace::Shared,
            size: size.max(1),
            align: align.max(1),
            init: None,
        });
        name
    }

    /// Claims `name` for a module symbol (kernel names come from the plan and must not be
    /// renamed); false when it is taken.
    pub fn reserve_name(&mut self, name: &str) -> bool {
        self.used_names.insert(name.to_string())
    }

    /// The function definitions `which` selects, in source order.
    pub fn select(&mut self, which: &crate::FunctionSelection) -> Vec<SymbolId> {
        use crate::FunctionSelection as S;
        let mut out = Vec::new();
        let mut marked: FxHashSet<SymbolId> = FxHashSet::default();
        // Open declare-target regions, innermost last: true unless `device_type(host)`.
        let mut regions: Vec<bool> = Vec::new();
        for item in &self.tu.items {
            let in_device_region = regions.last() == Some(&true);
            match item {
                ExternalDecl::Omp(d) => match d.kind {
                    OmpDirectiveKind::BeginDeclareTarget => regions.push(!self.host_only(d)),
                    OmpDirectiveKind::EndDeclareTarget => {
                        regions.pop();
                    }
                    OmpDirectiveKind::DeclareTarget => {
                        let mut lists: Vec<&ast::Expr> = d.args.iter().collect();
                        for c in &d.clauses {
                            if let OmpClauseKind::List(l) | OmpClauseKind::Motion { list: l, .. } =
                                &c.kind
                            {
                                lists.extend(l.iter());
                            }
                        }
                        let has_clauses = d
                            .clauses
                            .iter()
                            .any(|c| !matches!(c.kind, OmpClauseKind::Keyword(_)));
                        if lists.is_empty() && !has_clauses {
                            // OpenMP 4.5 form: `declare target` ... `end declare target`.
                            regions.push(true);
                        }
                        if self.host_only(d) {
                            continue;
                        }
                        for e in lists {
                            if let Some(s) = self.typed.ident_symbols.get(&e.id) {
                                marked.insert(*s);
                            }
                        }
                    }
                    _ => {}
                },
                ExternalDecl::Function(f) => {
                    let Some(s) = self.typed.decl_symbol(f.declarator.id) else {
                        continue;
                    };
                    let name = &self.typed.symbols[s].name;
                    let take = match which {
                        // Inline definitions (header helpers, fortify wrappers) only when a
                        // lowered function calls them.
                        S::All => !self.typed.symbols[s].is_inline,
                        S::DeclareTarget => in_device_region || marked.contains(&s),
                        S::Named(names) => names.iter().any(|n| n == name),
                    };
                    if take {
                        out.push(s);
                    }
                }
                ExternalDecl::Decl(d) if in_device_region => {
                    if let DeclarationKind::Vars { declarators, .. } = &d.kind {
                        for id in declarators {
                            if let Some(s) = self.typed.decl_symbol(id.declarator.id) {
                                marked.insert(s);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.declare_target.extend(marked.iter().copied());
        // `declare target(f)` may come after f's definition.
        if *which == S::DeclareTarget {
            for item in &self.tu.items {
                if let ExternalDecl::Function(f) = item
                    && let Some(s) = self.typed.decl_symbol(f.declarator.id)
                    && marked.contains(&s)
                    && !out.contains(&s)
                {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The external name of a function declared `declare target` in this unit but defined in
    /// another: calls to it become calls to an IR declaration that the device link resolves
    /// (`None` for any other function, which keeps the "no device definition" error).
    pub fn extern_device_function(&mut self, sym: SymbolId) -> Option<String> {
        let info = &self.typed.symbols[sym];
        let name = (info.kind == SymbolKind::Function
            && info.linkage == ompcc_sema::Linkage::External
            && !self.defs.contains_key(&sym)
            && self.declare_target.contains(&sym))
        .then(|| info.asm_label.clone().unwrap_or_else(|| info.name.clone()))?;
        self.other_units.insert(name.clone());
        Some(name)
    }

    /// Whether `sym` is a `declare target` object that this unit only declares (`extern`,
    /// no tentative definition): its device copy is another unit's.
    fn is_extern_device_object(&self, sym: SymbolId) -> bool {
        let info = &self.typed.symbols[sym];
        info.kind == SymbolKind::Object
            && info.linkage == ompcc_sema::Linkage::External
            && !info.defined
            && !info.tentative
            && self.declare_target.contains(&sym)
    }

    /// `device_type(host)`: the directive's functions are not for the device.
    fn host_only(&self, d: &ast::OmpDirective) -> bool {
        d.clauses.iter().any(|c| {
            c.name == ast::OmpClauseName::DeviceType
                && matches!(&c.kind, OmpClauseKind::Keyword(k) if self.tu.symbols.resolve(k.name) == "host")
        })
    }

    /// Queues a function definition for lowering; returns its IR name.
    pub fn enqueue(&mut self, sym: SymbolId) -> String {
        if let Some(n) = self.fn_names.get(&sym) {
            return n.clone();
        }
        let info = &self.typed.symbols[sym];
        let base = info.asm_label.clone().unwrap_or_else(|| info.name.clone());
        let name = self.unique_name(&base);
        self.fn_names.insert(sym, name.clone());
        if self.queued.insert(sym) {
            self.queue.push_back(sym);
        }
        name
    }

    /// The IR function a call to `sym` should target, if the unit defines it and callees
    /// are lowered.
    pub fn callee_def(&mut self, sym: SymbolId) -> Option<String> {
        if !self.defs.contains_key(&sym) {
            return None;
        }
        if self.include_callees || self.fn_names.contains_key(&sym) {
            Some(self.enqueue(sym))
        } else {
            None
        }
    }

    /// The IR function whose address `&f` is when `f` is a device C library function without
    /// a definition in this unit (`sqrt` in `double (*p)(double) = sqrt;`); `None` for any
    /// other function. It is a small internal function calling the library one, made once
    /// per function: relocations and the verifier name defined functions only, and the
    /// library is linked after the module's passes. The call is a declared external like a
    /// called one, so the library link renames it (`__ompcc_sqrt`) and links its body, even
    /// where direct calls to the function become instructions.
    pub fn library_address(&mut self, sym: SymbolId) -> Option<String> {
        if let Some(n) = self.library_addresses.get(&sym) {
            return Some(n.clone());
        }
        let typed = self.typed;
        let info = &typed.symbols[sym];
        if info.kind != SymbolKind::Function || self.defs.contains_key(&sym) {
            return None;
        }
        let name = info.name.strip_prefix("__builtin_").unwrap_or(&info.name);
        ompcc_stdlib::device_symbol(name)?;
        let (sig, _) = self.signature(self.fn_type_of(sym)?).ok()?;
        self.declare_external(name, &sig).ok()?;
        let wrapper = self.unique_name(&format!("__ompcc_addr_{name}"));
        let mut f = ompcc_ir::Function::new(wrapper.clone(), FuncKind::Device, sig.clone());
        let mut b = ompcc_ir::FunctionBuilder::new(&mut f);
        let entry = b.create_entry_block();
        b.switch_to_block(entry);
        let args = b.block_params(entry).to_vec();
        let callee = b.import_function(name, sig);
        let call = b.ins().call(callee, &args);
        let results = b.func.dfg.inst_results(call).to_vec();
        b.ins().ret(&results);
        self.module
            .linkage
            .insert(wrapper.clone(), ompcc_ir::Linkage::Internal);
        self.module.functions.push(f);
        self.library_addresses.insert(sym, wrapper.clone());
        Some(wrapper)
    }

    pub fn run(&mut self) {
        while let Some(sym) = self.queue.pop_front() {
            let Some(def) = self.defs.get(&sym).copied() else {
                continue;
            };
            let name = self.fn_names[&sym].clone();
            // C `static` functions stay private to the module (two units may both have one).
            if self.typed.symbols[sym].linkage != ompcc_sema::Linkage::External {
                self.module
                    .linkage
                    .insert(name.clone(), ompcc_ir::Linkage::Internal);
            }
            let func = FnLower::lower(self, sym, def, name);
            self.module.functions.push(func);
        }
    }

    pub fn finish_with_remarks(self) -> (Module, Vec<Diagnostic>, Vec<ompcc_omp::GridRemark>) {
        (self.module, self.diags, self.remarks)
    }

    pub fn unique_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut n = 1;
        while !self.used_names.insert(name.clone()) {
            // PTX names allow letters, digits, `_` and `$` only.
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }

    /// IR signature of a C function type: struct results come back through a hidden first
    /// pointer parameter, struct parameters are pointers to caller-owned copies.
    pub fn signature(&self, fty: QualType) -> Result<(Signature, bool), String> {
        let types = &self.typed.types;
        let Some(f) = types.fn_type(fty) else {
            return Err("not a function type".into());
        };
        let mut sig = Signature::default();
        let sret = ty::by_address(types, f.ret);
        if sret {
            sig.params.push(Type::PTR);
        } else if !types.is_void(f.ret) {
            sig.returns.push(self.value_type(f.ret)?);
        }
        for p in &f.params {
            if types.is_void(*p) {
                continue;
            }
            sig.params.push(if ty::by_address(types, *p) {
                Type::PTR
            } else {
                self.value_type(*p)?
            });
        }
        Ok((sig, sret))
    }

    /// IR type of a scalar C type; an error message otherwise.
    pub fn value_type(&self, qt: QualType) -> Result<Type, String> {
        match ty::scalar(&self.typed.types, qt) {
            Ok(Some(s)) => Ok(s.ty()),
            Ok(None) => Err(format!(
                "type '{}' has no device value representation",
                self.typed.types.display(qt)
            )),
            Err(u) => Err(format!(
                "type '{}' is not supported on the device",
                u.name()
            )),
        }
    }

    /// Declares (once) an external function for calls that the device library resolves, or
    /// (`extern` linkage) that another unit's device code defines.
    pub fn declare_external(&mut self, name: &str, sig: &Signature) -> Result<(), String> {
        if let Some(d) = self.module.decls.iter().find(|d| d.name == name) {
            if &d.sig != sig {
                return Err(format!(
                    "'{name}' is called with two different signatures ({} and {sig})",
                    d.sig
                ));
            }
            return Ok(());
        }
        if !self.used_names.insert(name.to_string()) {
            return Err(format!("'{name}' clashes with another device symbol"));
        }
        self.module.decls.push(FuncDecl {
            name: name.to_string(),
            sig: sig.clone(),
        });
        if self.other_units.contains(name) {
            self.module
                .linkage
                .insert(name.to_string(), ompcc_ir::Linkage::Extern);
        }
        Ok(())
    }

    /// A module global holding `bytes` (string literals), shared between equal literals.
    pub fn string_global(&mut self, bytes: Vec<u8>) -> String {
        if let Some(n) = self.strings.get(&bytes) {
            return n.clone();
        }
        let name = self.unique_name("__str");
        self.module
            .linkage
            .insert(name.clone(), ompcc_ir::Linkage::Internal);
        self.module.globals.push(GlobalData {
            name: name.clone(),
            space: AddrSpace::Global,
            size: bytes.len().max(1) as u64,
            align: 1,
            init: Some(bytes.clone()),
        });
        self.strings.insert(bytes, name.clone());
        name
    }

    /// The module global of a static-storage object, created (with its initializer) on first
    /// use. `func` names the function for block-scope statics.
    /// Whether a C identifier can name a PTX symbol: PTX names are ASCII, C's (gcc 10 and
    /// later) may hold any letter. Reports `code` at `span` when not.
    pub fn ptx_nameable(&mut self, code: &'static str, what: &str, name: &str, span: Span) -> bool {
        if name.is_ascii() {
            return true;
        }
        self.error(
            code,
            format!(
                "{what} '{name}' cannot be placed on the device: its name is not ASCII, and \
                 PTX symbol names are (rename it; local variables may keep such names)"
            ),
            span,
        );
        false
    }

    pub fn object_global(&mut self, sym: SymbolId, func: &str, span: Span) -> Option<GlobalInfo> {
        if let Some(g) = self.globals.get(&sym) {
            return Some(g.clone());
        }
        let info = self.typed.symbols[sym].clone();
        if !self.ptx_nameable("E0807", "object", &info.name, span) {
            return None;
        }
        if info.storage == Storage::Thread {
            self.error(
                "E0806",
                format!(
                    "thread-local variable '{}' cannot be used on the device",
                    info.name
                ),
                span,
            );
            return None;
        }
        let types = &self.typed.types;
        let ty = info.ty;
        let Some(size) = types.size_of(ty) else {
            self.error(
                "E0807",
                format!(
                    "object '{}' of incomplete or variable type cannot be placed on the device",
                    info.name
                ),
                span,
            );
            return None;
        };
        let align = info.align.unwrap_or(1).max(types.align_of(ty).unwrap_or(1)) as u32;
        let base = if info.linkage == ompcc_sema::Linkage::None {
            format!("{func}__{}", info.name)
        } else {
            info.asm_label.clone().unwrap_or(info.name.clone())
        };
        let name = self.unique_name(&base);
        let g = GlobalInfo {
            name: name.clone(),
            space: AddrSpace::Global,
        };
        // Known before its initializer is lowered: it may hold its own address.
        self.globals.insert(sym, g.clone());
        if self.is_extern_device_object(sym) {
            // Defined by another unit's device code; the device link resolves it.
            self.module
                .linkage
                .insert(name.clone(), ompcc_ir::Linkage::Extern);
            self.module.globals.push(GlobalData {
                name,
                space: AddrSpace::Global,
                size: size.max(1),
                align: align.max(1),
                init: None,
            });
            return Some(g);
        }
        let (init, relocs) = self.global_init(sym, func, size, span);
        if !relocs.is_empty() {
            self.module.relocs.insert(name.clone(), relocs);
        }
        // Block-scope statics are private to the module; file-scope objects stay visible so
        // the host can find them by name.
        if info.linkage == ompcc_sema::Linkage::None {
            self.module
                .linkage
                .insert(name.clone(), ompcc_ir::Linkage::Internal);
        }
        self.module.globals.push(GlobalData {
            name,
            space: AddrSpace::Global,
            size: size.max(1),
            align: align.max(1),
            init: Some(init),
        });
        // This unit's device code reads the `.const` copy when there is one.
        if let Some(c) = self.const_table(sym, span) {
            self.globals.insert(sym, c.clone());
            return Some(c);
        }
        Some(g)
    }

    /// Whether static object `sym` has an initializer in this unit.
    pub(crate) fn has_initializer(&self, sym: SymbolId) -> bool {
        self.obj_decls
            .get(&sym)
            .is_some_and(|d| self.typed.inits.contains_key(&InitKey::Decl(*d)))
    }

    /// The bytes of a static object's initializer (zero when it has none) and the addresses
    /// it holds.
    pub(crate) fn global_init(
        &mut self,
        sym: SymbolId,
        func: &str,
        size: u64,
        span: Span,
    ) -> (Vec<u8>, Vec<Reloc>) {
        let mut bytes = InitImage::new(size);
        let mut relocs = Vec::new();
        let Some(decl) = self.obj_decls.get(&sym).copied() else {
            return (bytes.into_bytes(), relocs);
        };
        let Some(entries) = self.typed.inits.get(&InitKey::Decl(decl)) else {
            return (bytes.into_bytes(), relocs);
        };
        for e in entries.clone() {
            if let Err(msg) = self.write_const(&mut bytes, &mut relocs, &e, func, span) {
                if self.bad_globals.insert(sym) {
                    let name = self.typed.symbols[sym].name.clone();
                    self.error(
                        "E0808",
                        format!("initializer of '{name}' cannot be placed on the device: {msg}"),
                        span,
                    );
                }
                break;
            }
        }
        relocs.sort_by_key(|r| r.offset);
        (bytes.into_bytes(), relocs)
    }

    fn write_const(
        &mut self,
        bytes: &mut InitImage,
        relocs: &mut Vec<Reloc>,
        e: &ompcc_sema::InitEntry,
        func: &str,
        span: Span,
    ) -> Result<(), String> {
        let typed = self.typed;
        let types = &typed.types;
        let expr = self.expr_by_id(e.expr).ok_or("initializer not found")?;
        let at = (e.bit_offset / 8) as usize;
        // A string literal initializes a character array; for a pointer it is an address.
        if let ExprKind::Str(s) = &crate::expr::strip_parens(expr).kind
            && types.is_array(e.ty)
        {
            let elem = types
                .array_elem(e.ty)
                .and_then(|t| types.size_of(t))
                .unwrap_or(1) as usize;
            let n = types.size_of(e.ty).unwrap_or(0) as usize / elem.max(1);
            for (i, &u) in s.value.iter().take(n).enumerate() {
                let le = (u as u64).to_le_bytes();
                bytes.write((at + i * elem) as u64, &le[..elem])?;
            }
            return Ok(());
        }
        let class = ty::scalar(types, e.ty)
            .map_err(|u| format!("type '{}' is not supported", u.name()))?
            .ok_or("aggregate copy in a constant initializer")?;
        let v = ompcc_sema::fold(self.typed, expr);
        // A later entry for the same bytes (a designator overriding) replaces an address.
        let width = class.ty().bytes() as u64;
        relocs.retain(|r| r.offset + 8 <= at as u64 || r.offset >= at as u64 + width);
        let raw: u64 = match (v, class) {
            (Some(ConstValue::Int(i)), Scalar::Float(t)) => float_bits(i.value as f64, t),
            (Some(ConstValue::Float(f)), Scalar::Float(t)) => float_bits(f.value, t),
            (Some(ConstValue::Int(i)), _) => i.value as u64,
            (Some(ConstValue::Float(f)), Scalar::Bool) => (f.value != 0.0) as u64,
            (Some(ConstValue::Float(f)), _) => f.value as i64 as u64,
            (None, Scalar::Ptr) if is_null(expr) => 0,
            (None, Scalar::Ptr) if e.bit_width.is_none() => {
                let (target, addend) = self.address_const(expr, func, span)?;
                if !at.is_multiple_of(8) {
                    return Err("the address is not at an 8-byte aligned offset".into());
                }
                relocs.push(Reloc {
                    offset: at as u64,
                    target,
                    addend,
                });
                0
            }
            (None, _) => return Err("it is not a constant".into()),
        };
        if let Some(w) = e.bit_width {
            for (i, bit) in (0..w).zip(e.bit_offset..) {
                bytes.set_bit(bit, (raw >> i) & 1 == 1)?;
            }
            return Ok(());
        }
        let n = class.ty().bytes() as usize;
        bytes.write(at as u64, &raw.to_le_bytes()[..n])
    }

    /// The symbol and byte offset of a constant address (`&g`, an array or function name,
    /// a string literal, `&a[2]`, `p + 3`, `(T *)e` of these); `func` names the function
    /// whose block-scope statics are being initialized.
    fn address_const(
        &mut self,
        e: &'a ast::Expr,
        func: &str,
        span: Span,
    ) -> Result<(String, i64), String> {
        let e = crate::expr::strip_parens(e);
        match &e.kind {
            ExprKind::Cast(_, x) => self.address_const(x, func, span),
            ExprKind::Str(s) => {
                let unit = match s.prefix {
                    ast::CharPrefix::None | ast::CharPrefix::Utf8 => 1usize,
                    ast::CharPrefix::U16 => 2,
                    ast::CharPrefix::Wide | ast::CharPrefix::U32 => 4,
                };
                let mut bytes = Vec::with_capacity((s.value.len() + 1) * unit);
                for &u in s.value.iter().chain(std::iter::once(&0)) {
                    bytes.extend_from_slice(&(u as u64).to_le_bytes()[..unit]);
                }
                Ok((self.string_global(bytes), 0))
            }
            ExprKind::Ident(_) => self.symbol_address(e, func, span),
            ExprKind::Unary(ast::UnaryOp::AddrOf, x) => self.lvalue_address(x, func, span),
            // An array lvalue other than a name (`g[1]` of `int g[4][8]`, `s.arr`, `*g`)
            // decays to the address of its first element.
            ExprKind::Index(..)
            | ExprKind::Member { .. }
            | ExprKind::Unary(ast::UnaryOp::Deref, _)
            | ExprKind::CompoundLiteral(..)
                if self
                    .typed
                    .expr(e.id)
                    .is_some_and(|i| self.typed.types.is_array(i.ty)) =>
            {
                self.lvalue_address(e, func, span)
            }
            ExprKind::Binary(op @ (ast::BinaryOp::Add | ast::BinaryOp::Sub), l, r) => {
                let is_ptr = |x: &ast::Expr| {
                    self.typed
                        .expr(x.id)
                        .is_some_and(|i| self.typed.types.is_pointer(i.conv))
                };
                let (p, k, sign) = if is_ptr(l) {
                    (l, r, if *op == ast::BinaryOp::Sub { -1 } else { 1 })
                } else if *op == ast::BinaryOp::Add && is_ptr(r) {
                    (r, l, 1)
                } else {
                    return Err("it is not a constant address".into());
                };
                let elem = self.pointee_size(p)?;
                let k = self.const_int(k)?;
                let (t, a) = self.address_const(p, func, span)?;
                Ok((t, a.wrapping_add(sign * k.wrapping_mul(elem))))
            }
            _ => Err("it is not a constant address".into()),
        }
    }

    /// The address of a constant lvalue (`g`, `a[3]`, `*p`, a string literal).
    fn lvalue_address(
        &mut self,
        x: &'a ast::Expr,
        func: &str,
        span: Span,
    ) -> Result<(String, i64), String> {
        let x = crate::expr::strip_parens(x);
        match &x.kind {
            ExprKind::Ident(_) => self.symbol_address(x, func, span),
            ExprKind::Str(_) => self.address_const(x, func, span),
            ExprKind::CompoundLiteral(..) => Ok((self.literal_global(x, func, span)?, 0)),
            ExprKind::Unary(ast::UnaryOp::Deref, p) => self.address_const(p, func, span),
            ExprKind::Member { base, arrow, .. } => {
                let off = self
                    .member_offset(x)
                    .ok_or("the member has no constant offset")?;
                let (t, a) = if *arrow {
                    self.address_const(base, func, span)?
                } else {
                    self.lvalue_address(base, func, span)?
                };
                Ok((t, a.wrapping_add(off)))
            }
            ExprKind::Index(a, i) => {
                let elem = self
                    .typed
                    .expr(x.id)
                    .and_then(|info| self.typed.types.size_of(info.ty))
                    .ok_or("element of unknown size")? as i64;
                let (base, idx) = if self.typed.expr(a.id).is_some_and(|i| {
                    self.typed.types.is_pointer(i.conv) || self.typed.types.is_array(i.ty)
                }) {
                    (a, i)
                } else {
                    (i, a)
                };
                let k = self.const_int(idx)?;
                let (t, off) = self.address_const(base, func, span)?;
                Ok((t, off.wrapping_add(k.wrapping_mul(elem))))
            }
            _ => Err("it is not a constant address".into()),
        }
    }

    /// The module symbol of a static object or a function named by `e`.
    fn symbol_address(
        &mut self,
        e: &ast::Expr,
        func: &str,
        span: Span,
    ) -> Result<(String, i64), String> {
        let typed = self.typed;
        let sym = *typed.ident_symbols.get(&e.id).ok_or("unresolved name")?;
        let info = &typed.symbols[sym];
        match info.kind {
            SymbolKind::Function if self.defs.contains_key(&sym) => Ok((self.enqueue(sym), 0)),
            SymbolKind::Function => {
                if let Some(n) = self.library_address(sym) {
                    return Ok((n, 0));
                }
                // a declare-target function of another unit: the device link fills it in
                let Some(target) = self.extern_device_function(sym) else {
                    return Err(format!("function '{}' has no device definition", info.name));
                };
                let fty = self.fn_type_of(sym).ok_or("not a function type")?;
                let (sig, _) = self.signature(fty)?;
                self.declare_external(&target, &sig)?;
                Ok((target, 0))
            }
            SymbolKind::Object if self.is_link(sym) => Err(format!(
                "the address of 'declare target link' variable '{}' is not known before it is mapped",
                info.name
            )),
            SymbolKind::Object if info.storage != Storage::Automatic => self
                .object_global(sym, func, span)
                .map(|g| (g.name, 0))
                .ok_or_else(|| format!("'{}' cannot be placed on the device", info.name)),
            _ => Err(format!("the address of '{}' is not a constant", info.name)),
        }
    }

    /// The module global holding a compound literal whose address a static initializer takes
    /// (such a literal has static storage), created once per literal.
    fn literal_global(&mut self, e: &ast::Expr, func: &str, span: Span) -> Result<String, String> {
        if let Some(n) = self.literals.get(&e.id) {
            return Ok(n.clone());
        }
        let ty = self.typed.expr(e.id).ok_or("untyped compound literal")?.ty;
        let types = &self.typed.types;
        let size = types
            .size_of(ty)
            .ok_or("compound literal of unknown size")?;
        let align = types.align_of(ty).unwrap_or(1).max(1) as u32;
        let name = self.unique_name("__compound");
        self.literals.insert(e.id, name.clone());
        let mut bytes = InitImage::new(size);
        let mut relocs = Vec::new();
        let entries = self
            .typed
            .inits
            .get(&InitKey::CompoundLiteral(e.id))
            .cloned()
            .unwrap_or_default();
        for entry in &entries {
            self.write_const(&mut bytes, &mut relocs, entry, func, span)?;
        }
        relocs.sort_by_key(|r| r.offset);
        if !relocs.is_empty() {
            self.module.relocs.insert(name.clone(), relocs);
        }
        self.module.globals.push(GlobalData {
            name: name.clone(),
            space: AddrSpace::Global,
            size: size.max(1),
            align,
            init: Some(bytes.into_bytes()),
        });
        Ok(name)
    }

    /// The byte offset of the member `e` designates in its outermost record (not a bitfield).
    fn member_offset(&self, e: &ast::Expr) -> Option<i64> {
        let types = &self.typed.types;
        let (rec, path) = self.typed.member_paths.get(&e.id)?;
        let (mut r, mut bits) = (*rec, 0u64);
        for (n, &i) in path.iter().enumerate() {
            let rd = types.record(r);
            let fl = rd.layout.as_ref()?.fields.get(i)?;
            let fd = rd.fields.as_ref()?.get(i)?;
            bits += fl.bit_offset;
            if n + 1 < path.len() {
                r = types.record_id(fd.ty)?;
            } else if fd.bit_width.is_some() {
                return None;
            }
        }
        bits.is_multiple_of(8).then_some((bits / 8) as i64)
    }

    /// The size of what the pointer expression `p` points to (1 for `void *`).
    fn pointee_size(&self, p: &ast::Expr) -> Result<i64, String> {
        let types = &self.typed.types;
        let conv = self.typed.expr(p.id).ok_or("untyped expression")?.conv;
        let pointee = types.pointee(conv).ok_or("not a pointer")?;
        if types.is_void(pointee) {
            return Ok(1);
        }
        types
            .size_of(pointee)
            .map(|n| n as i64)
            .ok_or_else(|| "pointer to an object of unknown size".into())
    }

    /// An integer constant expression's value.
    fn const_int(&self, e: &ast::Expr) -> Result<i64, String> {
        match ompcc_sema::fold(self.typed, e) {
            Some(ConstValue::Int(i)) => Ok(i.value as i64),
            _ => Err("the offset is not an integer constant".into()),
        }
    }

    /// Whether `sym` names a function the device library is expected to provide.
    pub fn is_library_function(&self, name: &str) -> bool {
        is_device_api(name) || is_device_library_function(name)
    }

    /// The function type of a function symbol.
    pub fn fn_type_of(&self, sym: SymbolId) -> Option<QualType> {
        let s = &self.typed.symbols[sym];
        (s.kind == SymbolKind::Function
            && matches!(self.typed.types.ckind(s.ty), TypeKind::Function(_)))
        .then_some(s.ty)
    }
}

/// Whether `f` is an `extern inline` definition (glibc's `__extern_inline`: GNU inline
/// semantics, a body only for inlining, the function itself being defined elsewhere) of a
/// function the device library provides. On the device the library's function is the
/// definition: glibc's inline `putchar` calls `putc` on `stdout`, which the device lacks.
fn is_library_inline(f: &FunctionDef, name: &str) -> bool {
    use ast::{DeclSpecKind, FuncSpec, StorageClass};
    let has = |k: fn(&DeclSpecKind) -> bool| f.specs.specs.iter().any(|s| k(&s.kind));
    has(|k| matches!(k, DeclSpecKind::Storage(StorageClass::Extern)))
        && has(|k| matches!(k, DeclSpecKind::Func(FuncSpec::Inline)))
        && ompcc_stdlib::device_symbol(name).is_some()
}

fn float_bits(v: f64, t: Type) -> u64 {
    if t == Type::F32 {
        (v as f32).to_bits() as u64
    } else {
        v.to_bits()
    }
}

/// `0`, `(void *)0` and the like.
fn is_null(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Int { value: 0, .. } => true,
        ExprKind::Paren(x) | ExprKind::Cast(_, x) => is_null(x),
        _ => false,
    }
}
