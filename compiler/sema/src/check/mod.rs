//! The checker: walks a parsed translation unit, resolves every name, types every expression
//! and validates declarations, statements and OpenMP directives.
//!
//! Output is a [`TypedUnit`]: the type table plus side tables keyed by the AST's dense ids
//! (`ExprId`, `DeclId`), so the tree itself is never mutated. Errors are [`Diagnostic`]s with
//! spans; the checker never panics on user input and keeps going after an error (an expression
//! whose type could not be determined has no entry in [`TypedUnit::exprs`], and its parents stay
//! silent about it, so one mistake gives one message).
//!
//! Scoping follows C11 6.2.1: file, block and function-prototype scopes, each with separate
//! name spaces for ordinary identifiers and tags; labels live per function. Declarations with
//! linkage are also entered in a table of external names, so a block-scope `extern` finds the
//! file-scope entity.
//!
//! Diagnostic codes: E03xx declarations (E034x initializers), E04xx expressions, E05xx
//! statements, E06xx OpenMP; warnings use the same ranges with a W.

mod atomic;
mod builtins;
mod decl;
mod declare_target;
mod expr;
mod fold;
mod init;
mod omp;
mod print;
mod stmt;
mod unroll;

use crate::consteval::ConstValue;
use crate::types::{EnumId, QualType, RecordId, TypeTable, VlaSize};
use cranelift_entity::{PrimaryMap, entity_impl};
use ompcc_diag::{Diagnostic, Span};
use ompcc_syntax::ast::{self, DeclId, ExprId, TranslationUnit};
use rustc_hash::FxHashMap;

pub use fold::{fold, fold_as};
pub use print::print_typed;

/// A declared entity: object, function, typedef name or enumeration constant.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId(u32);
entity_impl!(SymbolId, "sym");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Object,
    Function,
    Typedef,
    EnumConstant(i128),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    None,
    Internal,
    External,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// File-scope or `static` objects, and functions.
    Static,
    /// Block-scope objects without `static`/`extern`, and parameters.
    Automatic,
    /// `_Thread_local`.
    Thread,
}

/// Everything known about one declared entity (after all its redeclarations).
#[derive(Clone, Debug)]
pub struct SymbolInfo {
    pub name: String,
    pub kind: SymbolKind,
    /// The composite type of all declarations seen so far.
    pub ty: QualType,
    pub linkage: Linkage,
    pub storage: Storage,
    /// A function with a body, or an object with an initializer.
    pub defined: bool,
    /// A file-scope object declared without initializer and without `extern`.
    pub tentative: bool,
    pub is_param: bool,
    pub is_inline: bool,
    /// `register` storage class (its address may not be taken).
    pub is_register: bool,
    /// `asm("name")` label.
    pub asm_label: Option<String>,
    /// Where it was first declared.
    pub span: Span,
    /// `aligned(N)` / `_Alignas` on the declaration, in bytes.
    pub align: Option<u64>,
}

/// Whether an expression designates an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    LValue,
    RValue,
    /// A function designator (converted to a pointer except under `&` and `sizeof`).
    Function,
}

/// The type of one expression and the conversion its context applies to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExprInfo {
    /// The expression's own type (qualified for lvalues).
    pub ty: QualType,
    pub kind: ValueKind,
    /// The type its value is converted to where it is used: after lvalue conversion, array
    /// and function decay, promotions, usual arithmetic conversions or conversion as if by
    /// assignment. Equal to the unqualified `ty` when the context converts nothing, and to
    /// `ty` itself when the expression is used as an lvalue (`&e`, `e = ...`, `e.m`).
    pub conv: QualType,
    /// Width of the bitfield an lvalue designates.
    pub bitfield: Option<u32>,
}

/// One scalar or string stored by an initializer, flattened: the lowering zero-fills the
/// object and then stores each entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitEntry {
    /// Position in bits from the start of the initialized object.
    pub bit_offset: u64,
    /// The subobject's type (a char array for a string literal initializer).
    pub ty: QualType,
    /// The initializing expression (already converted to `ty` through its `conv`).
    pub expr: ExprId,
    /// Width for a bitfield subobject.
    pub bit_width: Option<u32>,
}

/// Which object an initializer list belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InitKey {
    Decl(DeclId),
    CompoundLiteral(ExprId),
}

/// The result of checking a translation unit.
pub struct TypedUnit {
    pub types: TypeTable,
    pub symbols: PrimaryMap<SymbolId, SymbolInfo>,
    /// Indexed by `ExprId`; `None` for expressions that failed to check (or were never
    /// reached, like the unevaluated arm of `__builtin_choose_expr`).
    pub exprs: Vec<Option<ExprInfo>>,
    /// Indexed by `DeclId`: the entity each named declarator declares.
    pub decl_symbols: Vec<Option<SymbolId>>,
    /// Indexed by `DeclId`: the type each declarator (named or abstract) denotes.
    pub decl_types: Vec<Option<QualType>>,
    /// The entity each identifier expression refers to.
    pub ident_symbols: FxHashMap<ExprId, SymbolId>,
    /// For `a.m` / `a->m`: the field index path (through anonymous members) in the record.
    pub member_paths: FxHashMap<ExprId, (RecordId, Vec<usize>)>,
    /// Values of the integer constant expressions the language requires (array sizes, case
    /// labels, enumerator values, bitfield widths, `_Static_assert`, alignments).
    pub consts: FxHashMap<ExprId, ConstValue>,
    /// Flattened initializer lists.
    pub inits: FxHashMap<InitKey, Vec<InitEntry>>,
    /// The size expression of each variable length array type.
    pub vla_sizes: FxHashMap<VlaSize, ExprId>,
    /// Expressions that stand for another one: `_Generic` and `__builtin_choose_expr` map to
    /// the selected operand, `__builtin_expect(x, c)` to `x`; a `__builtin_tgmath` call maps to
    /// the candidate function it calls (with the remaining arguments).
    pub selected: FxHashMap<ExprId, ExprId>,
    /// Functions and variables marked by `declare target` (inside a `begin declare target`
    /// region, or named in a `declare target` list or `to`/`enter`/`link` clause).
    pub declare_target: rustc_hash::FxHashSet<SymbolId>,
    /// Variables named in a `declare target link` clause: not in `declare_target` (the device
    /// has no copy of its own; mapping one gives it one, OpenMP 5.2 section 7.8.1).
    pub declare_target_link: rustc_hash::FxHashSet<SymbolId>,
    /// Functions marked `declare target ... indirect`: the device can call them through
    /// their host addresses.
    pub declare_target_indirect: rustc_hash::FxHashSet<SymbolId>,
    /// For `l op= r`: the type the operation is computed in (the type of `l op r`); the
    /// result converts back to the type of `l`.
    pub compound_types: FxHashMap<ExprId, QualType>,
    /// Record tags declared anywhere, in order (for tools and tests).
    pub tags: Vec<(String, RecordId)>,
    pub enum_tags: Vec<(String, EnumId)>,
}

impl TypedUnit {
    pub fn expr(&self, id: ExprId) -> Option<&ExprInfo> {
        self.exprs.get(id.0 as usize).and_then(Option::as_ref)
    }
    pub fn decl_symbol(&self, id: DeclId) -> Option<SymbolId> {
        self.decl_symbols.get(id.0 as usize).copied().flatten()
    }
    pub fn decl_type(&self, id: DeclId) -> Option<QualType> {
        self.decl_types.get(id.0 as usize).copied().flatten()
    }
    /// The parameters of a function definition, in order (`None` for an unnamed one).
    pub fn params(&self, f: &ast::FunctionDef) -> Vec<Option<SymbolId>> {
        // `(void)` is written as one parameter but declares none
        let declared = self
            .decl_symbol(f.declarator.id)
            .and_then(|s| self.types.fn_type(self.symbols[s].ty))
            .map_or(0, |t| t.params.len());
        match f.declarator.derived.first() {
            Some(ast::Derived::Function { params, .. }) if declared > 0 => params
                .iter()
                .map(|p| p.declarator.as_ref().and_then(|d| self.decl_symbol(d.id)))
                .collect(),
            _ => Vec::new(),
        }
    }
    /// The last record declared with this tag.
    pub fn record_by_tag(&self, tag: &str) -> Option<RecordId> {
        self.tags.iter().rev().find(|t| t.0 == tag).map(|t| t.1)
    }
    /// The file-scope symbol with this name.
    pub fn global(&self, name: &str) -> Option<SymbolId> {
        self.symbols
            .iter()
            .find(|(_, s)| {
                s.name == name && (s.linkage != Linkage::None || s.storage == Storage::Static)
            })
            .map(|(id, _)| id)
    }
}

/// Checks a translation unit. Always returns the tables, even when there are errors.
pub fn check(tu: &TranslationUnit) -> (TypedUnit, Vec<Diagnostic>) {
    let mut c = Checker::new(tu);
    c.declare_builtins();
    for item in &tu.items {
        c.external_decl(item);
    }
    c.finish_tentatives();
    (c.out, c.diags)
}

#[derive(Clone, Copy, Debug)]
enum Tag {
    Record(RecordId),
    Enum(EnumId),
}

#[derive(Default)]
struct Scope {
    ordinary: FxHashMap<ast::Symbol, SymbolId>,
    tags: FxHashMap<ast::Symbol, (Tag, Span)>,
}

struct SwitchCtx {
    ty: QualType,
    cases: FxHashMap<i128, Span>,
    default: Option<Span>,
}

/// A construct with `default(none)`: variables declared before it (symbol ids below
/// `watermark`) must be listed in one of its clauses to be referenced inside.
struct DsaNone {
    watermark: usize,
    listed: rustc_hash::FxHashSet<SymbolId>,
    reported: rustc_hash::FxHashSet<SymbolId>,
    directive: ast::OmpDirectiveKind,
}

struct FuncCtx {
    ret: QualType,
    name: String,
    labels_defined: FxHashMap<ast::Symbol, Span>,
    labels_used: Vec<(ast::Symbol, Span)>,
}

struct Checker<'a> {
    tu: &'a TranslationUnit,
    out: TypedUnit,
    diags: Vec<Diagnostic>,
    scopes: Vec<Scope>,
    /// Entities with linkage, by name, whatever scope declared them.
    externals: FxHashMap<ast::Symbol, SymbolId>,
    func: Option<FuncCtx>,
    /// Enclosing loops and switches, innermost last: true for a loop.
    breakables: Vec<bool>,
    switches: Vec<SwitchCtx>,
    /// Enclosing OpenMP constructs, innermost last.
    omp: Vec<ompcc_syntax::ast::OmpDirectiveKind>,
    /// Parameters of the function declarator processed last (for function definitions).
    last_params: Vec<(Option<ast::Symbol>, SymbolId)>,
    /// True while checking `sizeof`/`_Alignof`/`typeof` operands (no evaluation).
    unevaluated: u32,
    /// Names of builtin functions whose result type follows their arguments.
    generic_builtins: FxHashMap<ast::Symbol, builtins::Generic>,
    /// Open `begin declare target` regions.
    declare_target_depth: u32,
    /// Per open `begin declare target` region, whether it is `indirect` (its functions are).
    indirect_regions: Vec<bool>,
    /// True while checking the list items of an OpenMP clause, the one place array sections
    /// are valid (elsewhere the parser has reported them and they stay untyped).
    in_omp_list: bool,
    /// `#pragma pack` state: the current maximum member alignment and the pushed ones.
    pack: Option<u64>,
    pack_stack: Vec<Option<u64>>,
    /// Enclosing OpenMP constructs with `default(none)`, innermost last.
    dsa_none: Vec<DsaNone>,
    /// Undeclared names already reported in the current function.
    reported_undeclared: rustc_hash::FxHashSet<ast::Symbol>,
}

impl<'a> Checker<'a> {
    fn new(tu: &'a TranslationUnit) -> Checker<'a> {
        let n_exprs = tu.num_exprs as usize;
        let n_decls = tu.num_decls as usize;
        Checker {
            tu,
            out: TypedUnit {
                types: TypeTable::new(),
                symbols: PrimaryMap::new(),
                exprs: vec![None; n_exprs],
                decl_symbols: vec![None; n_decls],
                decl_types: vec![None; n_decls],
                ident_symbols: FxHashMap::default(),
                member_paths: FxHashMap::default(),
                consts: FxHashMap::default(),
                inits: FxHashMap::default(),
                vla_sizes: FxHashMap::default(),
                selected: FxHashMap::default(),
                compound_types: FxHashMap::default(),
                declare_target: Default::default(),
                declare_target_link: Default::default(),
                declare_target_indirect: Default::default(),
                tags: Vec::new(),
                enum_tags: Vec::new(),
            },
            diags: Vec::new(),
            scopes: vec![Scope::default()],
            externals: FxHashMap::default(),
            func: None,
            breakables: Vec::new(),
            switches: Vec::new(),
            omp: Vec::new(),
            last_params: Vec::new(),
            unevaluated: 0,
            generic_builtins: FxHashMap::default(),
            declare_target_depth: 0,
            indirect_regions: Vec::new(),
            in_omp_list: false,
            pack: None,
            pack_stack: Vec::new(),
            reported_undeclared: Default::default(),
            dsa_none: Vec::new(),
        }
    }

    fn name(&self, s: ast::Symbol) -> &'a str {
        self.tu.symbols.resolve(s)
    }

    fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::error(code, msg, span));
    }
    fn warn(&mut self, code: &'static str, msg: impl Into<String>, span: Span) {
        self.diags.push(Diagnostic::warning(code, msg, span));
    }

    fn ty_str(&self, q: QualType) -> String {
        self.out.types.display(q)
    }

    fn at_file_scope(&self) -> bool {
        self.scopes.len() == 1
    }

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }
    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    fn lookup(&self, name: ast::Symbol) -> Option<SymbolId> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.ordinary.get(&name).copied())
    }
    fn lookup_current(&self, name: ast::Symbol) -> Option<SymbolId> {
        self.scopes
            .last()
            .and_then(|s| s.ordinary.get(&name).copied())
    }
    fn lookup_tag(&self, name: ast::Symbol) -> Option<(Tag, bool)> {
        let n = self.scopes.len();
        self.scopes
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, s)| s.tags.get(&name).map(|t| (t.0, i + 1 == n)))
    }
    fn bind(&mut self, name: ast::Symbol, sym: SymbolId) {
        if let Some(s) = self.scopes.last_mut() {
            s.ordinary.insert(name, sym);
        }
    }

    fn new_symbol(&mut self, info: SymbolInfo) -> SymbolId {
        self.out.symbols.push(info)
    }

    fn set_expr(&mut self, id: ExprId, info: ExprInfo) {
        if let Some(slot) = self.out.exprs.get_mut(id.0 as usize) {
            *slot = Some(info);
        }
    }
    fn set_conv(&mut self, id: ExprId, conv: QualType) {
        if let Some(Some(info)) = self.out.exprs.get_mut(id.0 as usize) {
            info.conv = conv;
        }
    }
    fn info(&self, id: ExprId) -> Option<ExprInfo> {
        self.out.expr(id).copied()
    }
    fn set_decl(&mut self, id: DeclId, sym: Option<SymbolId>, ty: QualType) {
        let i = id.0 as usize;
        if let Some(slot) = self.out.decl_symbols.get_mut(i)
            && sym.is_some()
        {
            *slot = sym;
        }
        if let Some(slot) = self.out.decl_types.get_mut(i) {
            *slot = Some(ty);
        }
    }

    /// `#pragma pack(N)`, `pack(push[, N])`, `pack(pop)`, `pack()`; other pragmas are not
    /// the checker's business.
    fn pragma(&mut self, p: &ast::Pragma) {
        let text = p.text.trim();
        let Some(rest) = text.strip_prefix("pack") else {
            return;
        };
        let args = rest
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .collect::<Vec<_>>();
        let num = |s: &str| {
            s.parse::<u64>()
                .ok()
                .filter(|n| n.is_power_of_two() && *n <= 16)
        };
        let mut bad = false;
        match args.as_slice() {
            [] => self.pack = None,
            ["push", rest @ ..] => {
                self.pack_stack.push(self.pack);
                if let Some(n) = rest.last() {
                    match num(n) {
                        Some(n) => self.pack = Some(n),
                        None => bad = !rest.is_empty() && n.parse::<u64>().is_ok(),
                    }
                }
            }
            ["pop", ..] => self.pack = self.pack_stack.pop().flatten(),
            [n] => match num(n) {
                Some(n) => self.pack = Some(n),
                None => bad = true,
            },
            _ => bad = true,
        }
        if bad {
            self.warn(
                "W0304",
                "invalid '#pragma pack': alignment must be 1, 2, 4, 8 or 16",
                p.span,
            );
        }
    }

    /// File-scope tentative definitions of incomplete array type become one-element arrays.
    fn finish_tentatives(&mut self) {
        let ids: Vec<SymbolId> = self.out.symbols.keys().collect();
        for id in ids {
            let s = &self.out.symbols[id];
            if !(s.tentative && !s.defined && s.kind == SymbolKind::Object) {
                continue;
            }
            let ty = s.ty;
            let span = s.span;
            let name = s.name.clone();
            if let crate::types::TypeKind::Array {
                elem,
                size: crate::types::ArraySize::Incomplete,
                ..
            } = self.out.types.ckind(ty).clone()
            {
                self.warn(
                    "W0301",
                    format!("array '{name}' assumed to have one element"),
                    span,
                );
                let t = self
                    .out
                    .types
                    .array(elem, crate::types::ArraySize::Fixed(1));
                self.out.symbols[id].ty = t.with(ty.quals);
            } else if self.out.types.is_incomplete(ty) && s.linkage != Linkage::None {
                self.error(
                    "E0301",
                    format!("storage size of '{name}' isn't known"),
                    span,
                );
            }
        }
    }
}
