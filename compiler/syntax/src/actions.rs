//! Node constructors used by the grammar actions, so the grammar stays a list of rules.
//!
//! Invariants: constructors only assemble nodes and register declared names with the
//! [`State`]; they never look ahead in the token stream. Syntax errors from lalrpop are turned
//! into diagnostics here, with cascades (a second error before the next `;`, `{`, `}` or pragma
//! end) suppressed.

use lalrpop_util::ParseError;
use ompcc_diag::{Diagnostic, Span};

use crate::ast::*;
use crate::lexer::LexError;
use crate::literal;
use crate::state::{State, span};
use crate::token::Tok;

pub(crate) fn spec(l: usize, r: usize, kind: DeclSpecKind) -> DeclSpec {
    DeclSpec {
        span: span(l, r),
        kind,
    }
}

pub(crate) fn decl_specs(v: Vec<DeclSpec>) -> DeclSpecs {
    let lo = v.first().map_or(0, |s| s.span.lo);
    let hi = v.last().map_or(lo, |s| s.span.hi);
    DeclSpecs {
        span: Span::new(lo, hi),
        specs: v,
    }
}

pub(crate) fn add_attrs(mut d: Declarator, a: Option<Vec<Attribute>>) -> Declarator {
    if let Some(a) = a {
        if let Some(last) = a.last() {
            d.span = d.span.to(last.span);
        }
        d.attrs.extend(a);
    }
    d
}

pub(crate) fn asm_label(d: Declarator, s: StringLit, a: Option<Vec<Attribute>>) -> Declarator {
    let mut d = d;
    d.span = d.span.to(s.span);
    d.asm_label = Some(s);
    add_attrs(d, a)
}

pub(crate) fn with_pointers(mut d: Declarator, p: Vec<Derived>, l: usize, r: usize) -> Declarator {
    d.derived.extend(p.into_iter().rev());
    d.span = span(l, r);
    d
}

pub(crate) fn paren_declarator(mut d: Declarator, l: usize, r: usize) -> Declarator {
    d.span = span(l, r);
    d
}

pub(crate) fn push_derived(mut d: Declarator, s: Derived, l: usize, r: usize) -> Declarator {
    d.derived.push(s);
    d.span = span(l, r);
    d
}

/// A qualifier or attribute after `*`.
pub(crate) enum PtrQual {
    Qual(TypeQual),
    Attr(Attribute),
}

pub(crate) fn pointer(l: usize, r: usize, q: Vec<PtrQual>) -> Derived {
    let mut quals = Vec::new();
    let mut attrs = Vec::new();
    for x in q {
        match x {
            PtrQual::Qual(q) => quals.push(q),
            PtrQual::Attr(a) => attrs.push(a),
        }
    }
    Derived::Pointer {
        span: span(l, r),
        quals,
        attrs,
    }
}

pub(crate) fn array(
    l: usize,
    r: usize,
    quals: Vec<TypeQual>,
    is_static: bool,
    size: ArraySize,
) -> Derived {
    Derived::Array {
        span: span(l, r),
        quals,
        is_static,
        size,
    }
}

pub(crate) fn function_head(
    st: &State,
    specs: DeclSpecs,
    declarator: Declarator,
    attrs: Option<Vec<Attribute>>,
) -> (DeclSpecs, Declarator) {
    let declarator = add_attrs(declarator, attrs);
    let params = declarator.derived.iter().find_map(|d| match d {
        Derived::Function { params, .. } => Some(params),
        _ => None,
    });
    for p in params.into_iter().flatten() {
        if let Some(n) = p.declarator.as_ref().and_then(|d| d.name) {
            st.declare(n.name, false);
        }
    }
    (specs, declarator)
}

pub(crate) fn function_def(
    st: &State,
    l: usize,
    r: usize,
    head: (DeclSpecs, Declarator),
    body: Block,
) -> FunctionDef {
    st.end_decl();
    let (specs, declarator) = head;
    FunctionDef {
        span: span(l, r),
        specs,
        declarator,
        body,
    }
}

pub(crate) fn init_declarator(
    st: &State,
    l: usize,
    r: usize,
    declarator: Declarator,
    init: Option<Initializer>,
) -> InitDeclarator {
    if let Some(n) = declarator.name {
        st.declare_in_decl(n.name);
    }
    InitDeclarator {
        span: span(l, r),
        declarator,
        init,
    }
}

pub(crate) fn enumerator(
    st: &State,
    l: usize,
    r: usize,
    name: Ident,
    value: Option<Expr>,
) -> Enumerator {
    st.declare(name.name, false);
    Enumerator {
        span: span(l, r),
        name,
        id: st.decl_id(),
        value: value.map(Box::new),
    }
}

pub(crate) fn pragma(st: &State, l: usize, r: usize) -> Pragma {
    let line = st.text(l, r);
    let text = line.trim_start_matches('#').trim_start();
    let text = text.strip_prefix("pragma").unwrap_or(text).trim();
    Pragma {
        span: span(l, r),
        text: text.to_owned(),
    }
}

pub(crate) fn stmt(l: usize, r: usize, kind: StmtKind) -> Stmt {
    Stmt {
        span: span(l, r),
        kind,
    }
}

/// `while (c)`, `switch (c)` or `for (...)` waiting for its body.
pub(crate) enum LoopHead {
    While(Expr),
    Switch(Expr),
    For(ForInit, Option<Expr>, Option<Expr>),
}

impl LoopHead {
    pub(crate) fn finish(self, l: usize, r: usize, body: Stmt) -> Stmt {
        let body = Box::new(body);
        stmt(
            l,
            r,
            match self {
                LoopHead::While(c) => StmtKind::While(Box::new(c), body),
                LoopHead::Switch(c) => StmtKind::Switch(Box::new(c), body),
                LoopHead::For(i, c, s) => StmtKind::For(i, c.map(Box::new), s.map(Box::new), body),
            },
        )
    }
}

/// A label, case label or OpenMP directive waiting for its statement.
pub(crate) enum StmtPrefix {
    Label(Ident),
    Case(Expr, Option<Expr>),
    Default,
    Omp(OmpDirective),
}

impl StmtPrefix {
    pub(crate) fn finish(self, l: usize, r: usize, body: Stmt) -> Stmt {
        let kind = match self {
            StmtPrefix::Omp(d) if !d.kind.split().is_empty() => {
                return crate::split::split_combined(d, body, l, r);
            }
            StmtPrefix::Label(n) => StmtKind::Labeled(n, Box::new(body)),
            StmtPrefix::Case(a, b) => StmtKind::Case(Box::new(a), b.map(Box::new), Box::new(body)),
            StmtPrefix::Default => StmtKind::Default(Box::new(body)),
            StmtPrefix::Omp(mut d) => {
                d.body = Some(Box::new(body));
                StmtKind::Omp(Box::new(d))
            }
        };
        stmt(l, r, kind)
    }
}

/// The operand sections of an asm statement.
#[derive(Default)]
pub(crate) struct AsmTail {
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<StringLit>,
    pub labels: Vec<Ident>,
}

pub(crate) fn asm_stmt(
    l: usize,
    r: usize,
    qualifiers: Vec<Ident>,
    template: StringLit,
    t: AsmTail,
) -> AsmStmt {
    AsmStmt {
        span: span(l, r),
        qualifiers,
        template,
        outputs: t.outputs,
        inputs: t.inputs,
        clobbers: t.clobbers,
        labels: t.labels,
    }
}

/// How a grammar terminal name (as lalrpop lists it in `expected`) reads in a message.
fn terminal_name(t: &str) -> String {
    if let Some(q) = t.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        return format!("'{}'", q.replace("\\\"", "\""));
    }
    match t {
        "Ident" => "identifier",
        "TypeName" => "type name",
        "IntLit" => "integer constant",
        "FloatLit" => "floating constant",
        "CharLit" => "character constant",
        "StrLit" => "string literal",
        "PragmaEnd" => "end of pragma line",
        "Pragma" | "OmpStmt" | "OmpStandalone" | "OmpDecl" | "OmpUnsupported" => "'#pragma'",
        other => other,
    }
    .to_owned()
}

/// Summarises lalrpop's list of acceptable terminals the way a C programmer reads it.
fn expected_phrase(expected: &[String], eof: bool) -> String {
    let names: Vec<String> = expected.iter().map(|e| terminal_name(e)).collect();
    let has = |n: &str| names.iter().any(|x| x == n);
    if names.len() <= 3 && !names.is_empty() {
        return match names.as_slice() {
            [a] => a.clone(),
            [a, b] => format!("{a} or {b}"),
            [a, b, c] => format!("{a}, {b} or {c}"),
            _ => names.join(", "),
        };
    }
    if has("integer constant") && !has("';'") {
        return "expression".into();
    }
    if has("')'") && !has("';'") {
        return "')'".into();
    }
    if has("'if'") {
        // The start of a block item.
        return if eof {
            "'}'".into()
        } else {
            "declaration or statement".into()
        };
    }
    if has("identifier") && has("'('") && has("'*'") && !has("integer constant") {
        return "identifier or '('".into();
    }
    if has("'typedef'") {
        return "declaration".into();
    }
    for p in ["';'", "')'", "']'", "'}'", "':'"] {
        if has(p) {
            return p.into();
        }
    }
    if has("identifier") {
        return "identifier".into();
    }
    "declaration or statement".into()
}

impl State<'_> {
    /// Records a syntax error (cascades are dropped later by `finish_diagnostics`).
    pub(crate) fn syntax_error(&self, e: ParseError<usize, Tok, LexError>) {
        if self.stopped.get() {
            return;
        }
        let (at, msg) = match e {
            ParseError::UnrecognizedToken {
                token: (l, t, r),
                expected,
            } => (
                span(l, r),
                format!(
                    "expected {}, found {}",
                    expected_phrase(&expected, false),
                    t.describe()
                ),
            ),
            ParseError::UnrecognizedEof { location, expected } => (
                span(location, location),
                format!(
                    "expected {}, found end of file",
                    expected_phrase(&expected, true)
                ),
            ),
            ParseError::ExtraToken { token: (l, t, r) } => {
                (span(l, r), format!("unexpected {}", t.describe()))
            }
            ParseError::InvalidToken { location } => {
                (span(location, location), "invalid token".into())
            }
            ParseError::User { error: LexError } => return,
        };
        self.error(Diagnostic::error("E0101", msg, at));
    }

    /// `base[lower:length[:stride]]`: reported unless inside a `#pragma omp` line.
    pub(crate) fn array_section(
        &self,
        l: usize,
        r: usize,
        base: Expr,
        lower: Option<Expr>,
        length: Option<Expr>,
        stride: Option<Expr>,
    ) -> Expr {
        let (plo, phi) = self.pragma_line.get();
        if !(plo as usize <= l && r <= phi as usize) {
            self.error(
                Diagnostic::error(
                    "E0125",
                    "array sections are only allowed in OpenMP clauses",
                    span(l, r),
                )
                .with_help("use an index `a[i]`, or move this into a map/to/from/reduction clause"),
            );
        }
        let kind = ExprKind::ArraySection {
            base: Box::new(base),
            lower: lower.map(Box::new),
            length: length.map(Box::new),
            stride: stride.map(Box::new),
        };
        self.expr(l, r, kind)
    }

    pub(crate) fn keyword_ident(&self, l: usize, r: usize) -> Ident {
        Ident {
            name: self.intern(self.text(l, r)),
            span: span(l, r),
        }
    }

    pub(crate) fn named_declarator(&self, n: Ident) -> Declarator {
        Declarator {
            span: n.span,
            id: self.decl_id(),
            name: Some(n),
            derived: Vec::new(),
            asm_label: None,
            attrs: Vec::new(),
        }
    }

    pub(crate) fn abstract_declarator(&self, l: usize) -> Declarator {
        Declarator {
            span: span(l, l),
            id: self.decl_id(),
            name: None,
            derived: Vec::new(),
            asm_label: None,
            attrs: Vec::new(),
        }
    }

    fn literal_error(&self, l: usize, r: usize, msg: String) {
        self.error(Diagnostic::error("E0102", msg, span(l, r)));
    }

    pub(crate) fn int_lit(&self, l: usize, r: usize) -> Expr {
        let kind = match literal::int(self.text(l, r)) {
            Ok((value, suffix, decimal)) => ExprKind::Int {
                value,
                suffix,
                decimal,
            },
            Err(m) => {
                self.literal_error(l, r, m);
                ExprKind::Int {
                    value: 0,
                    suffix: IntSuffix::default(),
                    decimal: true,
                }
            }
        };
        self.expr(l, r, kind)
    }

    pub(crate) fn float_lit(&self, l: usize, r: usize) -> Expr {
        let kind = match literal::float(self.text(l, r)) {
            Ok((value, suffix, imaginary)) => ExprKind::Float {
                value,
                suffix,
                imaginary,
            },
            Err(m) => {
                self.literal_error(l, r, m);
                ExprKind::Float {
                    value: 0.0,
                    suffix: FloatSuffix::None,
                    imaginary: false,
                }
            }
        };
        self.expr(l, r, kind)
    }

    pub(crate) fn char_lit(&self, l: usize, r: usize) -> Expr {
        let mut errs = Vec::new();
        let (value, prefix) = literal::char_lit(self.text(l, r), &mut errs);
        for m in errs {
            self.literal_error(l, r, m);
        }
        self.expr(l, r, ExprKind::Char { value, prefix })
    }

    pub(crate) fn string_lit(&self, pieces: &[(usize, usize)]) -> StringLit {
        let texts: Vec<&str> = pieces.iter().map(|&(l, r)| self.text(l, r)).collect();
        let mut errs = Vec::new();
        let (value, prefix) = literal::string_lit(&texts, &mut errs);
        let lo = pieces.first().map_or(0, |p| p.0);
        let hi = pieces.last().map_or(lo, |p| p.1);
        for m in errs {
            self.literal_error(lo, hi, m);
        }
        StringLit {
            span: span(lo, hi),
            prefix,
            value,
        }
    }
}
