//! The token stream the grammar consumes: logos tokens plus the C lexer hack, pp-number
//! classification, line-marker skipping and `#pragma` handling.
//!
//! Invariants: every token handed out lies inside the source; a `#pragma omp` line becomes
//! `OmpStmt`/`OmpStandalone`/`OmpDecl` (covering `#pragma omp` and the directive name), then the
//! tokens of the rest of the line, then `PragmaEnd`; unknown directives are reported and the
//! line skipped; lexical errors are diagnostics, never `Err` items, so the parser always sees a
//! well-formed stream. Work is linear in the input.

use logos::Logos;
use ompcc_diag::Diagnostic;

use crate::omp::{Association, OmpDirectiveKind};
use crate::state::{State, span};
use crate::token::Tok;

/// Never produced: lexical errors are reported as diagnostics and skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError;

pub(crate) type Spanned = (usize, Tok, usize);

struct PragmaLine<'a> {
    lex: logos::Lexer<'a, Tok>,
    base: usize,
    end: usize,
}

/// Brackets may nest this deep; deeper input ends the token stream with an error, so the
/// tree (and every recursive walk over it in later stages) stays within a thread's stack.
const MAX_NESTING: u32 = 256;
/// Operators allowed in one statement (between `;`, `{` and `}`), for the same reason: long
/// operator chains build left-deep trees.
const MAX_OPERATORS: u32 = 4096;

pub(crate) struct Lexer<'a, 's> {
    src: &'a str,
    main: logos::Lexer<'a, Tok>,
    pragma: Option<PragmaLine<'a>>,
    st: &'s State<'a>,
    nesting: u32,
    operators: u32,
    stopped: bool,
    /// The last token was a (non-typedef) identifier.
    after_ident: bool,
    /// The last two tokens were an identifier and `(` at file scope.
    after_ident_paren: bool,
    /// Tokens to hand out before lexing more: a K&R definition's parameters rewritten as a
    /// prototype (`kr_prototype`).
    pending: std::collections::VecDeque<Spanned>,
}

impl<'a, 's> Lexer<'a, 's> {
    pub fn new(src: &'a str, st: &'s State<'a>) -> Self {
        Lexer {
            src,
            main: Tok::lexer(src),
            pragma: None,
            st,
            nesting: 0,
            operators: 0,
            stopped: false,
            after_ident: false,
            after_ident_paren: false,
            pending: std::collections::VecDeque::new(),
        }
    }

    fn at_line_start(&self, pos: usize) -> bool {
        let before = &self.src.as_bytes()[..pos];
        before
            .iter()
            .rev()
            .find(|&&b| b != b' ' && b != b'\t')
            .is_none_or(|&b| b == b'\n')
    }

    /// Handles a `#...` line; returns a token to hand out, if any.
    fn directive(&mut self, lo: usize, hi: usize) -> Option<Spanned> {
        if !self.at_line_start(lo) {
            self.st.error(Diagnostic::error(
                "E0100",
                "stray '#' in program",
                span(lo, lo + 1),
            ));
            return None;
        }
        let line = &self.src[lo..hi];
        let body = line[1..].trim_start();
        let Some(rest) = body.strip_prefix("pragma") else {
            return None; // line markers, #ident, #line: the SourceMap reads markers itself
        };
        if !rest.starts_with([' ', '\t']) && !rest.is_empty() {
            return None;
        }
        let rest_off = hi - rest.len();
        let text = rest.trim();
        let Some(omp) = text
            .strip_prefix("omp")
            .filter(|t| t.is_empty() || t.starts_with([' ', '\t']))
        else {
            return self.other_pragma(lo, hi, text);
        };
        // Collect the leading words of the directive.
        let omp_off = rest_off + (rest.len() - rest.trim_start().len()) + 3;
        let mut words: Vec<(&str, usize, usize)> = Vec::new();
        let bytes = self.src.as_bytes();
        let mut i = omp_off;
        loop {
            while i < hi && (bytes[i] == b' ' || bytes[i] == b'\t') {
                i += 1;
            }
            let start = i;
            while i < hi && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if i == start || words.len() == 8 {
                break;
            }
            words.push((&self.src[start..i], start, i));
        }
        let names: Vec<&str> = words.iter().map(|w| w.0).collect();
        let Some((kind, n)) = OmpDirectiveKind::lookup(&names) else {
            let (msg, at) = match words.first() {
                Some(w) => (
                    format!("unknown OpenMP directive '{}'", w.0),
                    span(w.1, w.2),
                ),
                None => ("expected an OpenMP directive name".to_owned(), span(lo, hi)),
            };
            let _ = omp;
            self.st
                .error(Diagnostic::error("E0120", msg, at).with_primary_label("not a directive"));
            return None;
        };
        if kind == OmpDirectiveKind::Unsupported {
            return Some((lo, Tok::OmpUnsupported, hi));
        }
        let name_end = words[n - 1].2;
        let tail = &self.src[name_end..hi];
        let tok = match kind.association() {
            Association::Stmt
                if kind == OmpDirectiveKind::Ordered
                    && (tail.contains("depend") || tail.contains("doacross")) =>
            {
                Tok::OmpStandalone(kind)
            }
            Association::Stmt => Tok::OmpStmt(kind),
            Association::Standalone => Tok::OmpStandalone(kind),
            Association::Declarative => Tok::OmpDecl(kind),
        };
        // Outside every bracket is file scope, where C has no statements: one error on the
        // directive's line, which is skipped, so that the parser's recovery does not swallow
        // the definitions that follow and report them lines later.
        if self.nesting == 0 && matches!(tok, Tok::OmpStmt(_) | Tok::OmpStandalone(_)) {
            self.st.error(Diagnostic::error(
                "E0127",
                format!(
                    "'#pragma omp {}' may only be used inside a function body",
                    names[..n].join(" ")
                ),
                span(lo, name_end),
            ));
            return None;
        }
        self.pragma = Some(PragmaLine {
            lex: Tok::lexer(tail),
            base: name_end,
            end: hi,
        });
        self.st.pragma_line.set((lo as u32, hi as u32));
        Some((lo, tok, name_end))
    }

    /// Non-OpenMP pragmas: loop pragmas are kept for later passes and `pack` for the
    /// checker's record layout; the rest is skipped.
    fn other_pragma(&mut self, lo: usize, hi: usize, text: &str) -> Option<Spanned> {
        let words: Vec<&str> = text.split_ascii_whitespace().take(2).collect();
        let keep = match words.as_slice() {
            ["GCC", w, ..] => matches!(*w, "unroll" | "ivdep" | "novector"),
            [w, ..] => {
                matches!(*w, "unroll" | "nounroll" | "ivdep")
                    || w.starts_with("unroll(")
                    || *w == "pack"
                    || w.starts_with("pack(")
            }
            [] => false,
        };
        keep.then_some((lo, Tok::Pragma, hi))
    }

    fn classify(&mut self, tok: Tok, lo: usize, hi: usize) -> Option<Spanned> {
        let st = self.st;
        let tok = match tok {
            // `iterator(` in a pragma line, followed by an iterator definition
            // (`[type] name = ...`), is the clause modifier, which no C expression can parse
            // (`it = 0 : n`); anything else (`iterator(x)`) is a call of a function so named.
            Tok::Ident(_)
                if self.pragma.is_some()
                    && &self.src[lo..hi] == "iterator"
                    && iterator_definition_follows(&self.src[hi..]) =>
            {
                Tok::OmpIterator
            }
            Tok::Ident(_) => {
                let sym = st.intern(&ompcc_diag::ucn_decoded(&self.src[lo..hi]));
                if st.is_typedef(sym) {
                    Tok::TypeName(sym)
                } else {
                    if self.after_ident_paren
                        && self.pragma.is_none()
                        && identifier_list_at(self.src, lo)
                    {
                        match self.kr_prototype((lo, Tok::Ident(sym), hi)) {
                            Some(first) => return Some(first),
                            None => self.kr_definition(lo, hi),
                        }
                    }
                    Tok::Ident(sym)
                }
            }
            Tok::Number => {
                if is_float(&self.src[lo..hi]) {
                    Tok::FloatLit
                } else {
                    Tok::IntLit
                }
            }
            Tok::BadCharLit | Tok::BadStrLit => {
                let (what, q, t) = if tok == Tok::BadStrLit {
                    ("string", '"', Tok::StrLit)
                } else {
                    ("character", '\'', Tok::CharLit)
                };
                st.error(
                    Diagnostic::error(
                        "E0103",
                        format!("missing terminating {q} character"),
                        span(lo, hi),
                    )
                    .with_primary_label(format!("this {what} literal is not closed")),
                );
                t
            }
            Tok::LBrace => {
                st.push_scope();
                st.syncs.borrow_mut().push(lo as u32);
                tok
            }
            Tok::RBrace => {
                st.pop_scope();
                st.syncs.borrow_mut().push(lo as u32);
                tok
            }
            Tok::Semi | Tok::PragmaEnd => {
                st.syncs.borrow_mut().push(lo as u32);
                tok
            }
            Tok::Directive => return self.directive(lo, hi),
            // `__extension__` only silences pedantic warnings; dropping it keeps the grammar
            // free of the declaration-vs-expression conflict it would cause.
            Tok::Extension => return None,
            t => t,
        };
        Some((lo, tok, hi))
    }

    /// A K&R-style definition (`int f(a, b) int a, b; {...}`): one precise error, and none of
    /// the syntax errors its parameter declarations would cause (the parser may report them
    /// late or, when its recovery never finds a `;`, only as an error at the end of file).
    fn kr_definition(&self, lo: usize, hi: usize) {
        self.st.error(Diagnostic::error(
            "E0101",
            "K&R-style function definitions (parameter names without types) are not supported: \
             declare each parameter's type in the parentheses",
            span(lo, hi),
        ));
        self.st.stopped.set(true);
    }

    /// A K&R-style definition (`int f(a, b) int a; char *b; {`) read as the prototype it
    /// declares (`int f(int a, char *b) {`): from `first`, the list's first name, through the
    /// parameter declarations to the `{`, the tokens are regrouped per parameter in the list's
    /// order (a name without a declaration is `int`), and handed out before the `{`. The host
    /// compiler still compiles the definition as written; ompcc's checker and device code see
    /// the prototype, whose conversions give the same values as the old-style promotions.
    /// `None` (nothing handed out yet) when the text is not a well-formed definition.
    fn kr_prototype(&mut self, first: Spanned) -> Option<Spanned> {
        let mut names = vec![first];
        let rparen = loop {
            let t = self.next_token()?;
            match t.1 {
                Tok::RParen => break t,
                Tok::Comma => {
                    names.push(self.next_token().filter(|n| matches!(n.1, Tok::Ident(_)))?)
                }
                _ => return None,
            }
        };
        let mut decls: Vec<Vec<Spanned>> = vec![Vec::new()];
        let lbrace = loop {
            let t = self.next_token()?;
            match t.1 {
                Tok::LBrace => break t,
                Tok::Semi => decls.push(Vec::new()),
                Tok::RBrace | Tok::PragmaEnd | Tok::OmpStmt(_) | Tok::OmpStandalone(_) => {
                    return None;
                }
                _ => decls.last_mut()?.push(t),
            }
        };
        let mut params: Vec<Option<Vec<Spanned>>> = vec![None; names.len()];
        for decl in decls.iter().filter(|d| !d.is_empty()) {
            let parts = split_top_level_commas(decl);
            let named = |part: &[Spanned]| {
                let at = part
                    .iter()
                    .rposition(|t| names.iter().any(|n| n.1 == t.1))?;
                Some((at, names.iter().position(|n| n.1 == part[at].1)?))
            };
            let (at0, _) = named(parts[0])?;
            let spec_end = declarator_start(parts[0], at0);
            let specifiers = &parts[0][..spec_end];
            for (k, part) in parts.iter().enumerate() {
                let (_, which) = named(part)?;
                if params[which].is_some() {
                    return None;
                }
                let mut toks = if k == 0 {
                    Vec::new()
                } else {
                    specifiers.to_vec()
                };
                toks.extend_from_slice(part);
                params[which] = Some(toks);
            }
        }
        for (k, (name, p)) in names.iter().zip(params).enumerate() {
            if k > 0 {
                self.pending.push_back((name.0, Tok::Comma, name.0));
            }
            match p {
                Some(toks) => self.pending.extend(toks),
                None => {
                    self.pending.push_back((name.0, Tok::Int, name.0));
                    self.pending.push_back(*name);
                }
            }
        }
        self.st.old_style_params.borrow_mut().push(first.0 as u32);
        self.pending.push_back(rparen);
        self.pending.push_back(lbrace);
        self.pending.pop_front()
    }

    fn stray(&self, lo: usize, hi: usize) {
        let text = self.src.get(lo..hi).unwrap_or("?");
        let shown: String = text.chars().take(1).collect();
        self.st.error(Diagnostic::error(
            "E0100",
            format!("stray '{}' in program", shown.escape_debug()),
            span(lo, hi.max(lo + 1).min(self.src.len())),
        ));
    }
}

/// Whether the identifier at `at` starts the identifier list of a K&R-style definition:
/// `name(` before it, then `a, b, c)` and a parameter declaration or the body after.
fn identifier_list_at(src: &str, at: usize) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let before = src[..at].trim_end();
    let Some(before) = before.strip_suffix('(') else {
        return false;
    };
    if !before.trim_end().ends_with(is_ident) {
        return false;
    }
    let mut rest = &src[at..];
    loop {
        let name_len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if name_len == 0 {
            return false;
        }
        rest = rest[name_len..].trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
        } else if let Some(r) = rest.strip_prefix(')') {
            let next = r.trim_start();
            return next.starts_with('{') || next.starts_with(is_ident);
        } else {
            return false;
        }
    }
}

/// `tokens` split at the commas outside parentheses and brackets.
fn split_top_level_commas(tokens: &[Spanned]) -> Vec<&[Spanned]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, t) in tokens.iter().enumerate() {
        match t.1 {
            Tok::LParen | Tok::LBracket => depth += 1,
            Tok::RParen | Tok::RBracket => depth -= 1,
            Tok::Comma if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts
}

/// Where the declarator naming `tokens[name]` starts: the pointers, qualifiers after them
/// and opening parentheses just before the name belong to it; the rest are the specifiers.
fn declarator_start(tokens: &[Spanned], name: usize) -> usize {
    let mut at = name;
    while at > 0 {
        let t = tokens[at - 1].1;
        let qualifier = matches!(t, Tok::Const | Tok::Volatile | Tok::Restrict);
        let pointer_before = tokens[..at - 1].iter().any(|x| x.1 == Tok::Star);
        if matches!(t, Tok::Star | Tok::LParen) || (qualifier && pointer_before) {
            at -= 1;
        } else {
            break;
        }
    }
    at
}

fn is_float(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() > 1 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        s.contains(['.', 'p', 'P'])
    } else {
        s.contains(['.', 'e', 'E'])
    }
}

impl Iterator for Lexer<'_, '_> {
    type Item = Result<Spanned, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped {
            return None;
        }
        let t = match self.pending.pop_front() {
            Some(t) => t,
            None => self.next_token()?,
        };
        if !self.within_limits(t) {
            return None;
        }
        // the nesting counts the `(` just handed out: 1 is a parenthesis at file scope
        self.after_ident_paren = self.after_ident && t.1 == Tok::LParen && self.nesting == 1;
        self.after_ident = matches!(t.1, Tok::Ident(_));
        Some(Ok(self.record(t)))
    }
}

impl Lexer<'_, '_> {
    fn next_token(&mut self) -> Option<Spanned> {
        loop {
            if let Some(p) = &mut self.pragma {
                match p.lex.next() {
                    Some(r) => {
                        let sp = p.lex.span();
                        let (lo, hi) = (p.base + sp.start, p.base + sp.end);
                        match r {
                            Ok(Tok::Directive) | Err(()) => self.stray(lo, hi),
                            Ok(t) => {
                                if let Some(tok) = self.classify(t, lo, hi) {
                                    return Some(tok);
                                }
                            }
                        }
                    }
                    None => {
                        let end = p.end;
                        self.pragma = None;
                        return self.classify(Tok::PragmaEnd, end, end);
                    }
                }
                continue;
            }
            let r = self.main.next()?;
            let sp = self.main.span();
            match r {
                Ok(t) => {
                    if let Some(tok) = self.classify(t, sp.start, sp.end) {
                        return Some(tok);
                    }
                }
                Err(()) => self.stray(sp.start, sp.end),
            }
        }
    }
}

impl Lexer<'_, '_> {
    /// Enforces the nesting and expression-size limits; false ends the token stream.
    fn within_limits(&mut self, (lo, tok, hi): Spanned) -> bool {
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::AtomicParen => self.nesting += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                self.nesting = self.nesting.saturating_sub(1)
            }
            _ => {}
        }
        match tok {
            Tok::Semi | Tok::LBrace | Tok::RBrace | Tok::PragmaEnd => self.operators = 0,
            Tok::Plus
            | Tok::Minus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
            | Tok::Shl
            | Tok::Shr
            | Tok::Lt
            | Tok::Gt
            | Tok::Le
            | Tok::Ge
            | Tok::EqEq
            | Tok::Ne
            | Tok::Amp
            | Tok::Caret
            | Tok::Pipe
            | Tok::AmpAmp
            | Tok::PipePipe
            | Tok::Question
            | Tok::Assign
            | Tok::PlusAssign
            | Tok::MinusAssign
            | Tok::StarAssign
            | Tok::SlashAssign
            | Tok::PercentAssign
            | Tok::ShlAssign
            | Tok::ShrAssign
            | Tok::AmpAssign
            | Tok::CaretAssign
            | Tok::PipeAssign
            | Tok::Bang
            | Tok::Tilde
            | Tok::PlusPlus
            | Tok::MinusMinus
            | Tok::Dot
            | Tok::Arrow
            | Tok::LBracket
            | Tok::Else => self.operators += 1,
            _ => {}
        }
        let msg = if self.nesting > MAX_NESTING {
            format!("brackets nested too deeply (more than {MAX_NESTING} levels)")
        } else if self.operators > MAX_OPERATORS {
            format!("statement too long (more than {MAX_OPERATORS} operators)")
        } else {
            return true;
        };
        self.st.error(
            Diagnostic::error("E0105", msg, span(lo, hi)).with_help("split it into smaller parts"),
        );
        self.stopped = true;
        self.st.stopped.set(true);
        false
    }

    fn record(&self, t: Spanned) -> Spanned {
        if let Some(rec) = &self.st.recorded {
            rec.borrow_mut().push(t);
        }
        t
    }
}

/// Whether `rest` (the text after the word `iterator` in a pragma line) starts with `(`,
/// one or more words (an optional type, then the iterator's name) and a `=` that is not
/// `==`: an iterator definition, not the arguments of a call.
fn iterator_definition_follows(rest: &str) -> bool {
    let blank = [' ', '\t', '\\', '\n', '\r'];
    let Some(mut rest) = rest.trim_start_matches(blank).strip_prefix('(') else {
        return false;
    };
    let mut words = 0;
    loop {
        rest = rest.trim_start_matches(blank);
        let word = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if word == 0 || rest.as_bytes()[0].is_ascii_digit() {
            break;
        }
        words += 1;
        rest = &rest[word..];
    }
    words > 0 && rest.starts_with('=') && !rest.starts_with("==")
}
