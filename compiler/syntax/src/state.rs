//! Parser state shared by the lexer and the grammar actions: the typedef table (the "lexer
//! hack"), the interner, id counters and collected diagnostics.
//!
//! Invariants:
//! - the scope stack always has the file scope at the bottom; the lexer pushes a scope when it
//!   hands out `{` and pops when it hands out `}`, so a name declared inside a block stops being
//!   visible before the token after the `}` is classified;
//! - grammar actions register every declared name (typedef or ordinary) when its
//!   init-declarator is reduced, which happens before the token after the declarator is lexed;
//! - `decls` holds, for each declaration whose specifiers were reduced but whose `;` was not,
//!   whether its specifiers contain `typedef`.

use std::cell::{Cell, RefCell};

use ompcc_diag::{Diagnostic, Span};
use rustc_hash::FxHashMap;

use crate::ast::{Expr, ExprId, ExprKind, Interner, Symbol};
use crate::token::Tok;

#[derive(Default)]
struct Scopes {
    /// For each name, its declarations from outermost to innermost: (depth, is typedef).
    names: FxHashMap<Symbol, Vec<(u32, bool)>>,
    /// Names declared in each open scope, to undo on pop.
    undo: Vec<Vec<Symbol>>,
}

/// State shared between the lexer and the grammar actions of one parse.
pub(crate) struct State<'a> {
    pub src: &'a str,
    pub interner: RefCell<Interner>,
    scopes: RefCell<Scopes>,
    decls: RefCell<Vec<bool>>,
    pub diags: RefCell<Vec<Diagnostic>>,
    next_expr: Cell<u32>,
    next_decl: Cell<u32>,
    /// Offsets of every `;`, `{`, `}` and pragma end lexed, in increasing order: a syntax error
    /// with no such token since the previous one is a cascade and is not reported.
    pub syncs: RefCell<Vec<u32>>,
    /// Byte range of the most recent `#pragma omp` line (array sections are valid only there).
    pub pragma_line: Cell<(u32, u32)>,
    /// The lexer hit a size limit and ended the stream early: later syntax errors are noise.
    pub stopped: Cell<bool>,
    /// Offsets of the first names of K&R-style parameter lists the lexer read as prototypes
    /// (`Lexer::kr_prototype`): their function declarators are `old_style`.
    pub old_style_params: RefCell<Vec<u32>>,
    /// Tokens handed to the parser, when recording for `--emit=tokens`.
    pub recorded: Option<RefCell<Vec<(usize, Tok, usize)>>>,
}

impl<'a> State<'a> {
    pub fn new(src: &'a str, record: bool) -> Self {
        let st = State {
            src,
            interner: RefCell::new(Interner::default()),
            scopes: RefCell::new(Scopes {
                names: FxHashMap::default(),
                undo: vec![Vec::new()],
            }),
            decls: RefCell::new(Vec::new()),
            diags: RefCell::new(Vec::new()),
            next_expr: Cell::new(0),
            next_decl: Cell::new(0),
            syncs: RefCell::new(Vec::new()),
            stopped: Cell::new(false),
            pragma_line: Cell::new((0, 0)),
            old_style_params: RefCell::new(Vec::new()),
            recorded: record.then(|| RefCell::new(Vec::new())),
        };
        // GCC's predefined typedef names.
        for name in [
            "__int128_t",
            "__uint128_t",
            "__builtin_ms_va_list",
            "__gnuc_va_list_",
        ] {
            let sym = st.intern(name);
            st.declare(sym, true);
        }
        st
    }

    pub fn intern(&self, name: &str) -> Symbol {
        self.interner.borrow_mut().intern(name)
    }

    pub fn push_scope(&self) {
        self.scopes.borrow_mut().undo.push(Vec::new());
    }

    pub fn pop_scope(&self) {
        let mut sc = self.scopes.borrow_mut();
        if sc.undo.len() <= 1 {
            return; // unbalanced `}`: the parser reports it
        }
        let names = sc.undo.pop().unwrap_or_default();
        for n in names {
            if let Some(v) = sc.names.get_mut(&n) {
                v.pop();
            }
        }
    }

    /// Declares `name` in the innermost scope.
    pub fn declare(&self, name: Symbol, typedef: bool) {
        let mut sc = self.scopes.borrow_mut();
        let depth = sc.undo.len() as u32;
        let entry = sc.names.entry(name).or_default();
        match entry.last_mut() {
            Some(last) if last.0 == depth => last.1 = typedef,
            _ => {
                entry.push((depth, typedef));
                if let Some(u) = sc.undo.last_mut() {
                    u.push(name);
                }
            }
        }
    }

    pub fn is_typedef(&self, name: Symbol) -> bool {
        self.scopes
            .borrow()
            .names
            .get(&name)
            .and_then(|v| v.last())
            .is_some_and(|e| e.1)
    }

    /// The specifiers of a declaration were reduced.
    pub fn begin_decl(&self, typedef: bool) {
        self.decls.borrow_mut().push(typedef);
    }

    /// The declaration ended.
    pub fn end_decl(&self) {
        self.decls.borrow_mut().pop();
    }

    /// Registers a declarator of the innermost open declaration.
    pub fn declare_in_decl(&self, name: Symbol) {
        let typedef = self.decls.borrow().last().copied().unwrap_or(false);
        self.declare(name, typedef);
    }

    pub fn expr_id(&self) -> ExprId {
        let id = self.next_expr.get();
        self.next_expr.set(id + 1);
        ExprId(id)
    }

    pub fn decl_id(&self) -> crate::ast::DeclId {
        let id = self.next_decl.get();
        self.next_decl.set(id + 1);
        crate::ast::DeclId(id)
    }

    pub fn counts(&self) -> (u32, u32) {
        (self.next_expr.get(), self.next_decl.get())
    }

    pub fn expr(&self, l: usize, r: usize, kind: ExprKind) -> Expr {
        Expr {
            id: self.expr_id(),
            span: span(l, r),
            kind,
        }
    }

    pub fn error(&self, d: Diagnostic) {
        self.diags.borrow_mut().push(d);
    }

    /// Sorts the diagnostics by position and drops cascaded syntax errors.
    pub fn finish_diagnostics(&self) -> Vec<Diagnostic> {
        let mut diags = self.diags.take();
        diags.sort_by_key(|d| d.primary.span.lo);
        let syncs = self.syncs.borrow();
        let mut prev: Option<u32> = None;
        diags.retain(|d| {
            if d.code != "E0101" {
                return true;
            }
            let at = d.primary.span.lo;
            let keep = match prev {
                None => true,
                Some(p) => {
                    let i = syncs.partition_point(|&s| s < p);
                    at > p && syncs.get(i).is_some_and(|&s| s < at)
                }
            };
            if keep {
                prev = Some(at);
            }
            keep
        });
        diags
    }

    pub fn text(&self, l: usize, r: usize) -> &'a str {
        self.src.get(l..r).unwrap_or("")
    }
}

/// A span from lalrpop locations.
pub(crate) fn span(l: usize, r: usize) -> Span {
    Span::new(l as u32, r as u32)
}
