//! The text reader: parses what `write` prints, keeping entity numbers.
//!
//! Grammar (one rule per parse function below):
//! ```text
//! module   = item*
//! item     = "file" INT STRING
//!          | linkage? "global" NAME ":" SPACE "," "size" INT "," "align" INT ("=" "[" HEX* "]")?
//!            ("relocs" "[" reloc ("," reloc)* "]")?
//!          | "extern"? "declare" NAME sig
//!          | linkage? ("kernel" | "func") NAME sig bound* attr* "{" preamble* block* "}"
//! linkage  = "internal" | "extern"
//! bound    = "max_threads" "(" INT ")" | "req_threads" "(" INT "," INT "," INT ")"
//!          | "min_blocks" "(" INT ")"
//! attr     = "inlinehint" | "always_inline" | "noinline" | "noalias" "(" INT ("," INT)* ")"
//! sig      = "(" (type ("," type)*)? ")" ("->" type ("," type)*)?
//! preamble = "ssN" "=" "stack_slot" "size" INT "," "align" INT
//!          | "gvN" "=" "global" NAME ":" SPACE
//!          | "fnN" "=" "func" NAME sig
//! block    = "blockN" ("(" "vN" ":" type ("," ...)* ")")? hint? ":" inst*
//! hint     = "nounroll" | "unroll" "(" (INT | "full") ")"
//! inst     = (value ("," value)* "=")? OPCODE("." type)? operands ("!loc" INT ":" INT ":" INT)?
//! reloc    = INT ":" NAME INT?          ; offset: @target+addend
//! sigdecl  = "sigN" "=" sig            ; one more preamble form, for `call_indirect`
//! ```
//! `;` starts a comment. `file N "path"` items number the module's source files densely from 0
//! (`"` and `\` escaped with a backslash, control characters as `\xHH`); `!loc F:L:C` gives an
//! instruction's source location (file index, line, column; see `srcloc`). Without a linkage
//! keyword a global or function is exported (`Linkage::Export`). Value and block numbers are kept: unused numbers become placeholders
//! that no instruction refers to. Result types are inferred from operand types (in any textual
//! order, so uses may precede definitions). Errors carry `line:col`; no input makes it panic.

use crate::builder::normalize_imm;
use crate::dfg::{ExtFuncData, GlobalRefData, ValueDef};
use crate::entities::{AnyEntity, Block, Inst, Value};
use crate::function::Reloc;
use crate::function::{
    FuncAttrs, FuncDecl, FuncKind, Function, GlobalData, InlineAttr, LaunchBounds, Linkage,
    LoopHint, Module, Signature,
};
use crate::instructions::{
    ArithFlags, AtomicRmwOp, BlockCall, FloatCC, InstData, IntCC, MemFlags, Opcode, Scope,
    ShuffleMode, SpecialReg, VoteMode,
};
use crate::types::{AddrSpace, Type};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// A parse error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A source position (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Location {
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
}

/// Where each parsed entity was written, per function (same order as `Module::functions`).
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Location of each module global.
    pub globals: Vec<Location>,
    /// Location of each module declaration.
    pub decls: Vec<Location>,
    /// Entity locations of each function; `AnyEntity::Function` is its header.
    pub functions: Vec<FxHashMap<AnyEntity, Location>>,
}

/// Largest entity number accepted, so a typo cannot allocate gigabytes.
const MAX_ENTITY: u32 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
    Word(&'a str),
    Name(&'a str),
    Punct(char),
    Arrow,
    /// A string literal's contents between the quotes, escapes not yet decoded.
    Str(&'a str),
    Eof,
}

#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    loc: Location,
}

fn describe(t: Tok<'_>) -> String {
    match t {
        Tok::Word(w) => format!("`{w}`"),
        Tok::Name(n) => format!("`@{n}`"),
        Tok::Punct(c) => format!("`{c}`"),
        Tok::Arrow => "`->`".to_string(),
        Tok::Str(s) => format!("string \"{s}\""),
        Tok::Eof => "end of input".to_string(),
    }
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

fn lex(src: &str) -> Result<Vec<Token<'_>>, ParseError> {
    let mut toks = Vec::new();
    let bytes = src.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    while i < bytes.len() {
        let c = bytes[i] as char;
        let loc = Location { line, col };
        let start = i;
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == ';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == '-' && bytes.get(i + 1) == Some(&b'>') {
            toks.push(Token {
                tok: Tok::Arrow,
                loc,
            });
            i += 2;
            col += 2;
            continue;
        }
        if c == '"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            if i >= bytes.len() || bytes[i] != b'"' {
                return Err(ParseError {
                    line,
                    col,
                    message: "unterminated string".into(),
                });
            }
            i += 1;
            toks.push(Token {
                tok: Tok::Str(&src[start + 1..i - 1]),
                loc,
            });
            col += src[start..i].chars().count() as u32;
            continue;
        }
        if "(){}[],:=!".contains(c) {
            toks.push(Token {
                tok: Tok::Punct(c),
                loc,
            });
            i += 1;
            col += 1;
            continue;
        }
        if c == '@' {
            i += 1;
            while i < bytes.len() && (is_word_char(bytes[i] as char) || bytes[i] == b'$') {
                i += 1;
            }
            if i == start + 1 {
                return Err(ParseError {
                    line,
                    col,
                    message: "expected a name after `@`".into(),
                });
            }
            toks.push(Token {
                tok: Tok::Name(&src[start + 1..i]),
                loc,
            });
            col += (i - start) as u32;
            continue;
        }
        let numeric = c.is_ascii_digit() || c == '-' || c == '+';
        if is_word_char(c) || numeric {
            i += 1;
            while i < bytes.len() {
                let d = bytes[i] as char;
                let exp_sign = numeric
                    && (d == '-' || d == '+')
                    && matches!(bytes[i - 1], b'e' | b'E')
                    && !src[start..i].starts_with("0x")
                    && !src[start..i].starts_with("-0x");
                if is_word_char(d) || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            toks.push(Token {
                tok: Tok::Word(&src[start..i]),
                loc,
            });
            col += (i - start) as u32;
            continue;
        }
        return Err(ParseError {
            line,
            col,
            message: format!("unexpected character `{c}`"),
        });
    }
    toks.push(Token {
        tok: Tok::Eof,
        loc: Location { line, col },
    });
    Ok(toks)
}

/// Decodes the escapes of a string literal's contents (`\\"`, `\\\\`, `\\xHH`).
fn unescape(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut cs = raw.chars();
    while let Some(c) = cs.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match cs.next()? {
            c @ ('"' | '\\') => out.push(c),
            'x' => {
                let hex: String = cs.by_ref().take(2).collect();
                let b = u8::from_str_radix(&hex, 16).ok().filter(|b| b.is_ascii())?;
                out.push(b as char);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The function kind a keyword (`kernel` or `func`) names.
fn func_kind(keyword: &str) -> FuncKind {
    if keyword == "kernel" {
        FuncKind::Kernel
    } else {
        FuncKind::Device
    }
}

/// Parses an entity word like `v12` with the given prefix.
fn entity_num(word: &str, prefix: &str) -> Option<u32> {
    let digits = word.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn parse_int_literal(w: &str) -> Option<i64> {
    let (neg, body) = match w.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, w.strip_prefix('+').unwrap_or(w)),
    };
    let mag: u64 = if let Some(h) = body.strip_prefix("0x") {
        u64::from_str_radix(&h.replace('_', ""), 16).ok()?
    } else {
        body.replace('_', "").parse().ok()?
    };
    if neg {
        if mag > 1u64 << 63 {
            return None;
        }
        Some((mag as i64).wrapping_neg())
    } else {
        Some(mag as i64)
    }
}

/// Float literal to the f64 bits stored by `fconst`; hex means the raw bits of `ty`.
fn parse_float_literal(ty: Type, w: &str) -> Option<u64> {
    if let Some(h) = w.strip_prefix("0x") {
        let bits = u64::from_str_radix(h, 16).ok()?;
        return match ty {
            Type::F32 => Some((f32::from_bits(u32::try_from(bits).ok()?) as f64).to_bits()),
            _ => Some(bits),
        };
    }
    if !w.bytes().any(|b| b.is_ascii_digit()) && !w.trim_start_matches(['-', '+']).eq("inf") {
        return None;
    }
    match ty {
        Type::F32 => w.parse::<f32>().ok().map(|x| (x as f64).to_bits()),
        _ => w.parse::<f64>().ok().map(f64::to_bits),
    }
}

struct PendingInst {
    inst: Inst,
    results: Vec<Value>,
    ctrl: Option<Type>,
    loc: Location,
    store_align_missing: bool,
}

struct Parser<'a> {
    toks: Vec<Token<'a>>,
    pos: usize,
}

/// Per-function parse state.
struct FuncCtx {
    func: Function,
    locs: FxHashMap<AnyEntity, Location>,
    defined_values: FxHashSet<Value>,
    defined_blocks: FxHashSet<Block>,
    block_uses: Vec<(Block, Location)>,
    value_uses: Vec<(Value, Location)>,
    pending: Vec<PendingInst>,
}

type PResult<T> = Result<T, ParseError>;

impl<'a> Parser<'a> {
    fn peek(&self) -> Token<'a> {
        self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> Token<'a> {
        self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }

    fn bump(&mut self) -> Token<'a> {
        let t = self.peek();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn err<T>(&self, loc: Location, message: impl Into<String>) -> PResult<T> {
        Err(ParseError {
            line: loc.line,
            col: loc.col,
            message: message.into(),
        })
    }

    fn unexpected<T>(&self, what: &str) -> PResult<T> {
        let t = self.peek();
        self.err(t.loc, format!("expected {what}, found {}", describe(t.tok)))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.peek().tok == Tok::Punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.unexpected(&format!("`{c}`"))
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek().tok == Tok::Word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect_word(&mut self, w: &str) -> PResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            self.unexpected(&format!("`{w}`"))
        }
    }

    fn word(&mut self, what: &str) -> PResult<(&'a str, Location)> {
        match self.peek().tok {
            Tok::Word(w) => {
                let loc = self.bump().loc;
                Ok((w, loc))
            }
            _ => self.unexpected(what),
        }
    }

    fn name(&mut self) -> PResult<String> {
        match self.peek().tok {
            Tok::Name(n) => {
                self.bump();
                Ok(n.to_string())
            }
            _ => self.unexpected("a name like `@foo`"),
        }
    }

    fn int(&mut self) -> PResult<i64> {
        let (w, loc) = self.word("an integer")?;
        match parse_int_literal(w) {
            Some(v) => Ok(v),
            None => self.err(loc, format!("invalid integer `{w}`")),
        }
    }

    fn u32_lit(&mut self, what: &str) -> PResult<u32> {
        let loc = self.peek().loc;
        let v = self.int()?;
        match u32::try_from(v) {
            Ok(v) => Ok(v),
            Err(_) => self.err(loc, format!("{what} out of range")),
        }
    }

    fn keyword<T>(&mut self, what: &str, f: impl Fn(&str) -> Option<T>) -> PResult<T> {
        let (w, loc) = self.word(what)?;
        match f(w) {
            Some(v) => Ok(v),
            None => self.err(loc, format!("expected {what}, found `{w}`")),
        }
    }

    fn space(&mut self) -> PResult<AddrSpace> {
        self.keyword("an address space", AddrSpace::from_name)
    }

    /// type = "i1" | ... | "ptr" ("(" SPACE ")")?
    fn ty(&mut self) -> PResult<Type> {
        let (w, loc) = self.word("a type")?;
        self.finish_type(w, loc)
    }

    fn finish_type(&mut self, w: &str, loc: Location) -> PResult<Type> {
        if w == "ptr" && self.eat_punct('(') {
            let s = self.space()?;
            self.expect_punct(')')?;
            return Ok(Type::Ptr(s));
        }
        match Type::from_name(w) {
            Some(t) => Ok(t),
            None => self.err(loc, format!("unknown type `{w}`")),
        }
    }

    /// sig = "(" (type ("," type)*)? ")" ("->" type ("," type)*)?
    fn sig(&mut self) -> PResult<Signature> {
        self.expect_punct('(')?;
        let mut sig = Signature::default();
        if !self.eat_punct(')') {
            loop {
                sig.params.push(self.ty()?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        if self.peek().tok == Tok::Arrow {
            self.bump();
            loop {
                sig.returns.push(self.ty()?);
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        Ok(sig)
    }

    /// module = item*
    fn module(&mut self, map: &mut SourceMap) -> PResult<Module> {
        let mut m = Module::new();
        loop {
            let t = self.peek();
            match t.tok {
                Tok::Eof => return Ok(m),
                Tok::Word("file") => {
                    self.bump();
                    let loc = self.peek().loc;
                    let n = self.u32_lit("file number")?;
                    if n as usize != m.files.len() {
                        return self.err(
                            loc,
                            format!(
                                "expected file {} here: number files densely from 0",
                                m.files.len()
                            ),
                        );
                    }
                    let t = self.bump();
                    let Tok::Str(raw) = t.tok else {
                        return self.err(
                            t.loc,
                            format!("expected a file name string, found {}", describe(t.tok)),
                        );
                    };
                    let Some(name) = unescape(raw) else {
                        return self.err(t.loc, "invalid escape in string");
                    };
                    m.files.push(name);
                }
                Tok::Word(w) if Linkage::from_keyword(w).is_some() => {
                    self.bump();
                    let linkage = Linkage::from_keyword(w).unwrap_or_default();
                    let item = self.peek();
                    let name = match item.tok {
                        Tok::Word("global") => {
                            self.bump();
                            map.globals.push(item.loc);
                            let g = self.global(&mut m)?;
                            let name = g.name.clone();
                            m.globals.push(g);
                            name
                        }
                        Tok::Word(k @ ("kernel" | "func")) => {
                            self.bump();
                            let (f, locs) = self.function(func_kind(k), item.loc)?;
                            let name = f.name.clone();
                            m.functions.push(f);
                            map.functions.push(locs);
                            name
                        }
                        // A function another module of the program defines.
                        Tok::Word("declare") if linkage == Linkage::Extern => {
                            self.bump();
                            map.decls.push(item.loc);
                            let name = self.name()?;
                            let sig = self.sig()?;
                            m.decls.push(FuncDecl {
                                name: name.clone(),
                                sig,
                            });
                            name
                        }
                        _ => {
                            let also = if linkage == Linkage::Extern {
                                ", `declare`"
                            } else {
                                ""
                            };
                            return self.unexpected(&format!(
                                "`global`, `kernel` or `func`{also} after `{w}`"
                            ));
                        }
                    };
                    m.set_linkage(&name, linkage);
                }
                Tok::Word("global") => {
                    self.bump();
                    map.globals.push(t.loc);
                    let g = self.global(&mut m)?;
                    m.globals.push(g);
                }
                Tok::Word("declare") => {
                    self.bump();
                    map.decls.push(t.loc);
                    let name = self.name()?;
                    let sig = self.sig()?;
                    m.decls.push(FuncDecl { name, sig });
                }
                Tok::Word(k @ ("kernel" | "func")) => {
                    self.bump();
                    let (f, locs) = self.function(func_kind(k), t.loc)?;
                    m.functions.push(f);
                    map.functions.push(locs);
                }
                _ => return self.unexpected("`file`, `global`, `declare`, `kernel` or `func`"),
            }
        }
    }

    /// "global" NAME ":" SPACE "," "size" INT "," "align" INT ("=" "[" HEX* "]")?
    /// ("relocs" "[" reloc ("," reloc)* "]")?  -- relocations go to `m.relocs`.
    fn global(&mut self, m: &mut Module) -> PResult<GlobalData> {
        let name = self.name()?;
        self.expect_punct(':')?;
        let space = self.space()?;
        self.expect_punct(',')?;
        self.expect_word("size")?;
        let loc = self.peek().loc;
        let size = self.int()?;
        let Ok(size) = u64::try_from(size) else {
            return self.err(loc, "size out of range");
        };
        self.expect_punct(',')?;
        self.expect_word("align")?;
        let align = self.u32_lit("alignment")?;
        let mut init = None;
        if self.eat_punct('=') {
            self.expect_punct('[')?;
            let mut bytes = Vec::new();
            while !self.eat_punct(']') {
                let (w, loc) = self.word("a hex byte or `]`")?;
                match u8::from_str_radix(w, 16) {
                    Ok(b) if w.len() == 2 => bytes.push(b),
                    _ => return self.err(loc, format!("expected two hex digits, found `{w}`")),
                }
            }
            init = Some(bytes);
        }
        if self.eat_word("relocs") {
            self.expect_punct('[')?;
            let mut relocs = Vec::new();
            loop {
                let loc = self.peek().loc;
                let offset = self.int()?;
                let Ok(offset) = u64::try_from(offset) else {
                    return self.err(loc, "offset out of range");
                };
                self.expect_punct(':')?;
                let target = self.name()?;
                let addend = match self.peek().tok {
                    Tok::Word(w) if w.starts_with(['+', '-']) => self.int()?,
                    _ => 0,
                };
                relocs.push(Reloc {
                    offset,
                    target,
                    addend,
                });
                if self.eat_punct(']') {
                    break;
                }
                self.expect_punct(',')?;
            }
            m.relocs.insert(name.clone(), relocs);
        }
        Ok(GlobalData {
            name,
            space,
            size,
            align,
            init,
        })
    }

    fn function(
        &mut self,
        kind: FuncKind,
        loc: Location,
    ) -> PResult<(Function, FxHashMap<AnyEntity, Location>)> {
        let name = self.name()?;
        let sig = self.sig()?;
        let launch_bounds = self.launch_bounds()?;
        let attrs = self.func_attrs()?;
        self.expect_punct('{')?;
        let mut cx = FuncCtx {
            func: Function::new(name, kind, sig),
            locs: FxHashMap::default(),
            defined_values: FxHashSet::default(),
            defined_blocks: FxHashSet::default(),
            block_uses: Vec::new(),
            value_uses: Vec::new(),
            pending: Vec::new(),
        };
        cx.func.launch_bounds = launch_bounds;
        cx.func.attrs = attrs;
        cx.locs.insert(AnyEntity::Function, loc);
        self.preamble(&mut cx)?;
        loop {
            let t = self.peek();
            match t.tok {
                Tok::Punct('}') => {
                    self.bump();
                    break;
                }
                Tok::Word(w) if entity_num(w, "block").is_some() => self.block(&mut cx)?,
                _ => return self.unexpected("a block header like `block0:` or `}`"),
            }
        }
        self.finish_function(&mut cx)?;
        Ok((cx.func, cx.locs))
    }

    /// bound* (each at most once)
    fn launch_bounds(&mut self) -> PResult<LaunchBounds> {
        let mut lb = LaunchBounds::default();
        loop {
            let t = self.peek();
            let Tok::Word(w @ ("max_threads" | "req_threads" | "min_blocks")) = t.tok else {
                return Ok(lb);
            };
            self.bump();
            self.expect_punct('(')?;
            let dup = match w {
                "max_threads" => lb
                    .max_threads
                    .replace(self.u32_lit("thread count")?)
                    .is_some(),
                "min_blocks" => lb
                    .min_blocks
                    .replace(self.u32_lit("block count")?)
                    .is_some(),
                _ => {
                    let x = self.u32_lit("thread count")?;
                    self.expect_punct(',')?;
                    let y = self.u32_lit("thread count")?;
                    self.expect_punct(',')?;
                    let z = self.u32_lit("thread count")?;
                    lb.req_threads.replace([x, y, z]).is_some()
                }
            };
            self.expect_punct(')')?;
            if dup {
                return self.err(t.loc, format!("`{w}` is given twice"));
            }
        }
    }

    /// attr* (each kind at most once)
    fn func_attrs(&mut self) -> PResult<FuncAttrs> {
        let mut attrs = FuncAttrs::default();
        loop {
            let t = self.peek();
            let Tok::Word(w) = t.tok else {
                return Ok(attrs);
            };
            if let Some(a) = InlineAttr::from_keyword(w) {
                self.bump();
                if attrs.inline != InlineAttr::Default {
                    return self.err(t.loc, "more than one inlining attribute");
                }
                attrs.inline = a;
                continue;
            }
            if w != "noalias" {
                return Ok(attrs);
            }
            self.bump();
            if !attrs.noalias.is_empty() {
                return self.err(t.loc, "`noalias` is given twice");
            }
            self.expect_punct('(')?;
            loop {
                let n = self.u32_lit("parameter index")?;
                if attrs.noalias.last().is_some_and(|&l| l >= n) {
                    return self.err(t.loc, "noalias indices must increase");
                }
                attrs.noalias.push(n);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
    }

    /// hint = "nounroll" | "unroll" "(" (INT | "full") ")"
    fn loop_hint(&mut self) -> PResult<Option<LoopHint>> {
        if self.eat_word("nounroll") {
            return Ok(Some(LoopHint::Disable));
        }
        if !self.eat_word("unroll") {
            return Ok(None);
        }
        self.expect_punct('(')?;
        let hint = if self.eat_word("full") {
            LoopHint::Full
        } else {
            let loc = self.peek().loc;
            match self.u32_lit("unroll count")? {
                n @ 2.. => LoopHint::Count(n),
                _ => return self.err(loc, "an unroll count is at least 2 (write `nounroll`)"),
            }
        };
        self.expect_punct(')')?;
        Ok(Some(hint))
    }

    /// preamble = "ssN" "=" ... | "gvN" "=" ... | "fnN" "=" ...
    fn preamble(&mut self, cx: &mut FuncCtx) -> PResult<()> {
        loop {
            let t = self.peek();
            let Tok::Word(w) = t.tok else { return Ok(()) };
            if self.peek_at(1).tok != Tok::Punct('=') {
                return Ok(());
            }
            if let Some(n) = entity_num(w, "ss") {
                self.bump();
                self.expect_punct('=')?;
                if n as usize != cx.func.stack_slots.len() {
                    return self.err(
                        t.loc,
                        format!(
                            "expected ss{} here: declare slots in order",
                            cx.func.stack_slots.len()
                        ),
                    );
                }
                self.expect_word("stack_slot")?;
                self.expect_word("size")?;
                let size = self.u32_lit("size")?;
                self.expect_punct(',')?;
                self.expect_word("align")?;
                let align = self.u32_lit("alignment")?;
                let ss = cx.func.create_stack_slot(size, align);
                cx.locs.insert(AnyEntity::StackSlot(ss), t.loc);
            } else if let Some(n) = entity_num(w, "gv") {
                self.bump();
                self.expect_punct('=')?;
                if n as usize != cx.func.dfg.globals.len() {
                    return self.err(
                        t.loc,
                        format!(
                            "expected gv{} here: declare globals in order",
                            cx.func.dfg.globals.len()
                        ),
                    );
                }
                self.expect_word("global")?;
                let name = self.name()?;
                self.expect_punct(':')?;
                let space = self.space()?;
                let gv = cx.func.dfg.globals.push(GlobalRefData { name, space });
                cx.locs.insert(AnyEntity::GlobalRef(gv), t.loc);
            } else if let Some(n) = entity_num(w, "sig") {
                self.bump();
                self.expect_punct('=')?;
                if n as usize != cx.func.dfg.signatures.len() {
                    return self.err(
                        t.loc,
                        format!(
                            "expected sig{} here: declare signatures in order",
                            cx.func.dfg.signatures.len()
                        ),
                    );
                }
                let sig = self.sig()?;
                let r = cx.func.dfg.signatures.push(sig);
                cx.locs.insert(AnyEntity::SigRef(r), t.loc);
            } else if let Some(n) = entity_num(w, "fn") {
                self.bump();
                self.expect_punct('=')?;
                if n as usize != cx.func.dfg.ext_funcs.len() {
                    return self.err(
                        t.loc,
                        format!(
                            "expected fn{} here: declare callees in order",
                            cx.func.dfg.ext_funcs.len()
                        ),
                    );
                }
                self.expect_word("func")?;
                let name = self.name()?;
                let sig = self.sig()?;
                let r = cx.func.dfg.ext_funcs.push(ExtFuncData { name, sig });
                cx.locs.insert(AnyEntity::FuncRef(r), t.loc);
            } else {
                return Ok(());
            }
        }
    }

    fn block_ref(&mut self, cx: &mut FuncCtx) -> PResult<(Block, Location)> {
        let (w, loc) = self.word("a block")?;
        let Some(n) = entity_num(w, "block") else {
            return self.err(loc, format!("expected a block, found `{w}`"));
        };
        if n >= MAX_ENTITY {
            return self.err(loc, "block number too large");
        }
        while cx.func.dfg.num_blocks() <= n as usize {
            cx.func.dfg.make_block();
        }
        Ok((Block::from_u32(n), loc))
    }

    fn value_word(&self, cx: &mut FuncCtx, w: &str, loc: Location) -> PResult<Value> {
        let Some(n) = entity_num(w, "v") else {
            return self.err(loc, format!("expected a value, found `{w}`"));
        };
        if n >= MAX_ENTITY {
            return self.err(loc, "value number too large");
        }
        while cx.func.dfg.num_values() <= n as usize {
            cx.func.dfg.make_placeholder();
        }
        Ok(Value::from_u32(n))
    }

    /// A value operand (a use).
    fn value(&mut self, cx: &mut FuncCtx) -> PResult<Value> {
        let (w, loc) = self.word("a value")?;
        let v = self.value_word(cx, w, loc)?;
        cx.value_uses.push((v, loc));
        Ok(v)
    }

    fn define_value(&self, cx: &mut FuncCtx, w: &str, loc: Location) -> PResult<Value> {
        let v = self.value_word(cx, w, loc)?;
        if !cx.defined_values.insert(v) {
            return self.err(loc, format!("{v} is defined more than once"));
        }
        cx.locs.insert(AnyEntity::Value(v), loc);
        Ok(v)
    }

    /// block = "blockN" ("(" "vN" ":" type ("," ...)* ")")? ":" inst*
    fn block(&mut self, cx: &mut FuncCtx) -> PResult<()> {
        let (block, loc) = self.block_ref(cx)?;
        if !cx.defined_blocks.insert(block) {
            return self.err(loc, format!("{block} is defined more than once"));
        }
        cx.locs.insert(AnyEntity::Block(block), loc);
        cx.func.layout.append_block(block);
        if self.eat_punct('(') {
            loop {
                let (w, vloc) = self.word("a block parameter")?;
                let v = self.define_value(cx, w, vloc)?;
                self.expect_punct(':')?;
                let ty = self.ty()?;
                cx.func.dfg.attach_block_param(block, v, ty);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        cx.func.loop_hints[block] = self.loop_hint()?;
        self.expect_punct(':')?;
        loop {
            match self.peek().tok {
                Tok::Punct('}') | Tok::Eof => return Ok(()),
                Tok::Word(w) if entity_num(w, "block").is_some() => return Ok(()),
                _ => self.inst(cx, block)?,
            }
        }
    }

    /// A block call: "blockN" ("(" value ("," value)* ")")?
    fn block_call(&mut self, cx: &mut FuncCtx) -> PResult<BlockCall> {
        let (block, loc) = self.block_ref(cx)?;
        cx.block_uses.push((block, loc));
        let mut args = Vec::new();
        if self.eat_punct('(') && !self.eat_punct(')') {
            loop {
                args.push(self.value(cx)?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(cx.func.dfg.block_call(block, &args))
    }

    fn values<const N: usize>(&mut self, cx: &mut FuncCtx) -> PResult<[Value; N]> {
        let mut out = [Value::from_u32(0); N];
        for (i, slot) in out.iter_mut().enumerate() {
            if i > 0 {
                self.expect_punct(',')?;
            }
            *slot = self.value(cx)?;
        }
        Ok(out)
    }

    fn mem_flags(&mut self, ty: Option<Type>) -> PResult<(MemFlags, bool)> {
        let mut flags = MemFlags::aligned(ty.map_or(0, |t| t.bytes()));
        let mut explicit_align = false;
        loop {
            if self.eat_word("align") {
                let loc = self.peek().loc;
                let a = self.u32_lit("alignment")?;
                if !a.is_power_of_two() {
                    return self.err(loc, format!("alignment {a} is not a power of two"));
                }
                flags.align = a;
                explicit_align = true;
            } else if self.eat_word("volatile") {
                flags.volatile = true;
            } else if self.eat_word("readonly") {
                flags.readonly = true;
            } else {
                return Ok((flags, explicit_align));
            }
        }
    }

    /// inst = (value ("," value)* "=")? OPCODE("." type)? operands
    fn inst(&mut self, cx: &mut FuncCtx, block: Block) -> PResult<()> {
        let start = self.peek();
        let mut results = Vec::new();
        let has_results = matches!(start.tok, Tok::Word(w) if entity_num(w, "v").is_some())
            && matches!(self.peek_at(1).tok, Tok::Punct(',' | '='));
        if has_results {
            loop {
                let (w, loc) = self.word("a result value")?;
                results.push(self.define_value(cx, w, loc)?);
                if self.eat_punct('=') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        let (word, oploc) = self.word("an opcode")?;
        let (opname, suffix) = match word.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (word, None),
        };
        let Some(opcode) = Opcode::from_name(opname) else {
            return self.err(oploc, format!("unknown opcode `{opname}`"));
        };
        let ctrl = match suffix {
            Some(s) => Some(self.finish_type(s, oploc)?),
            None => None,
        };
        if opcode.has_ctrl_type() != ctrl.is_some() {
            return if ctrl.is_some() {
                self.err(oploc, format!("`{opname}` takes no type suffix"))
            } else {
                self.err(
                    oploc,
                    format!("`{opname}` needs a result type, like `{opname}.i32`"),
                )
            };
        }
        let mut store_align_missing = false;
        use Opcode as O;
        let data = match opcode {
            O::Iconst => {
                let imm = self.int()?;
                InstData::UnaryImm {
                    opcode,
                    imm: normalize_imm(ctrl.unwrap_or(Type::I64), imm),
                }
            }
            O::Fconst => {
                let (w, loc) = self.word("a float literal")?;
                let ty = ctrl.unwrap_or(Type::F64);
                let Some(bits) = parse_float_literal(ty, w) else {
                    return self.err(loc, format!("invalid float literal `{w}`"));
                };
                InstData::UnaryIeee { opcode, bits }
            }
            O::Iadd
            | O::Isub
            | O::Imul
            | O::Sdiv
            | O::Udiv
            | O::Srem
            | O::Urem
            | O::Smulhi
            | O::Umulhi
            | O::And
            | O::Or
            | O::Xor
            | O::Shl
            | O::Lshr
            | O::Ashr
            | O::Smin
            | O::Smax
            | O::Umin
            | O::Umax
            | O::Fadd
            | O::Fsub
            | O::Fmul
            | O::Fdiv
            | O::Frem
            | O::Fmin
            | O::Fmax
            | O::Fcopysign
            | O::PtrOffset => {
                let flags = ArithFlags {
                    nsw: self.eat_word("nsw"),
                };
                InstData::Binary {
                    opcode,
                    args: self.values::<2>(cx)?,
                    flags,
                }
            }
            O::Neg
            | O::Not
            | O::Popcnt
            | O::Clz
            | O::Ctz
            | O::Bswap
            | O::Fneg
            | O::Fabs
            | O::Sqrt
            | O::Floor
            | O::Ceil
            | O::Ftrunc
            | O::Nearest
            | O::Sext
            | O::Zext
            | O::Trunc
            | O::Fpext
            | O::Fptrunc
            | O::Sitofp
            | O::Uitofp
            | O::Fptosi
            | O::Fptoui
            | O::Bitcast
            | O::Ptrtoint
            | O::Inttoptr
            | O::Addrspacecast
            | O::StackAlloc
            | O::StackRestore
            | O::WarpSync => InstData::Unary {
                opcode,
                arg: self.value(cx)?,
            },
            O::Fma | O::Select => InstData::Ternary {
                opcode,
                args: self.values::<3>(cx)?,
            },
            O::Icmp => {
                let cond = self.keyword("an integer condition", IntCC::from_name)?;
                InstData::IntCompare {
                    cond,
                    args: self.values::<2>(cx)?,
                }
            }
            O::Fcmp => {
                let cond = self.keyword("a float condition", FloatCC::from_name)?;
                InstData::FloatCompare {
                    cond,
                    args: self.values::<2>(cx)?,
                }
            }
            O::Sreg => InstData::Special {
                reg: self.keyword("a special register", SpecialReg::from_name)?,
            },
            O::Load => {
                let space = self.space()?;
                let (flags, _) = self.mem_flags(ctrl)?;
                InstData::Load {
                    space,
                    flags,
                    arg: self.value(cx)?,
                }
            }
            O::Store => {
                let space = self.space()?;
                let (flags, explicit) = self.mem_flags(None)?;
                store_align_missing = !explicit;
                InstData::Store {
                    space,
                    flags,
                    args: self.values::<2>(cx)?,
                }
            }
            O::StackAddr => {
                let (w, loc) = self.word("a stack slot")?;
                match entity_num(w, "ss") {
                    Some(n) if (n as usize) < cx.func.stack_slots.len() => InstData::StackAddr {
                        slot: crate::entities::StackSlot::from_u32(n),
                    },
                    _ => return self.err(loc, format!("undeclared stack slot `{w}`")),
                }
            }
            O::GlobalAddr => {
                let (w, loc) = self.word("a global")?;
                match entity_num(w, "gv") {
                    Some(n) if (n as usize) < cx.func.dfg.globals.len() => InstData::GlobalAddr {
                        global: crate::entities::GlobalRef::from_u32(n),
                    },
                    _ => return self.err(loc, format!("undeclared global `{w}`")),
                }
            }
            O::Call => {
                let (w, loc) = self.word("a callee")?;
                let func = match entity_num(w, "fn") {
                    Some(n) if (n as usize) < cx.func.dfg.ext_funcs.len() => {
                        crate::entities::FuncRef::from_u32(n)
                    }
                    _ => return self.err(loc, format!("undeclared callee `{w}`")),
                };
                self.expect_punct('(')?;
                let mut args = Vec::new();
                if !self.eat_punct(')') {
                    loop {
                        args.push(self.value(cx)?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                let args = cx.func.dfg.value_list(&args);
                InstData::Call { func, args }
            }
            O::FuncAddr => {
                let (w, loc) = self.word("a callee")?;
                match entity_num(w, "fn") {
                    Some(n) if (n as usize) < cx.func.dfg.ext_funcs.len() => InstData::FuncAddr {
                        func: crate::entities::FuncRef::from_u32(n),
                    },
                    _ => return self.err(loc, format!("undeclared callee `{w}`")),
                }
            }
            O::CallIndirect => {
                let (w, loc) = self.word("a signature")?;
                let sig = match entity_num(w, "sig") {
                    Some(n) if (n as usize) < cx.func.dfg.signatures.len() => {
                        crate::entities::SigRef::from_u32(n)
                    }
                    _ => return self.err(loc, format!("undeclared signature `{w}`")),
                };
                self.expect_punct(',')?;
                let mut args = vec![self.value(cx)?];
                self.expect_punct('(')?;
                if !self.eat_punct(')') {
                    loop {
                        args.push(self.value(cx)?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                let args = cx.func.dfg.value_list(&args);
                InstData::CallIndirect { sig, args }
            }
            O::Return => {
                // Operands run to the end of the line: `return` has no closing delimiter.
                let mut args = Vec::new();
                if matches!(self.peek().tok, Tok::Word(w) if entity_num(w, "v").is_some())
                    && self.peek().loc.line == oploc.line
                {
                    loop {
                        args.push(self.value(cx)?);
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                }
                let args = cx.func.dfg.value_list(&args);
                InstData::Return { args }
            }
            O::Jump => InstData::Jump {
                dest: self.block_call(cx)?,
            },
            O::Brif => {
                let arg = self.value(cx)?;
                self.expect_punct(',')?;
                let a = self.block_call(cx)?;
                self.expect_punct(',')?;
                let b = self.block_call(cx)?;
                InstData::Brif {
                    arg,
                    blocks: [a, b],
                }
            }
            O::BrTable => {
                let arg = self.value(cx)?;
                self.expect_punct(',')?;
                let mut calls = vec![self.block_call(cx)?];
                self.expect_punct(',')?;
                self.expect_punct('[')?;
                if !self.eat_punct(']') {
                    loop {
                        calls.push(self.block_call(cx)?);
                        if self.eat_punct(']') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                let table = cx.func.dfg.make_jump_table(calls);
                InstData::BrTable { arg, table }
            }
            O::AtomicRmw => {
                let op = self.keyword("an atomic operation", AtomicRmwOp::from_name)?;
                let space = self.space()?;
                let scope = self.keyword("a scope", Scope::from_name)?;
                InstData::AtomicRmw {
                    op,
                    space,
                    scope,
                    args: self.values::<2>(cx)?,
                }
            }
            O::AtomicCas => {
                let space = self.space()?;
                let scope = self.keyword("a scope", Scope::from_name)?;
                InstData::AtomicCas {
                    space,
                    scope,
                    args: self.values::<3>(cx)?,
                }
            }
            O::Fence => InstData::Fence {
                scope: self.keyword("a scope", Scope::from_name)?,
            },
            O::Shuffle => {
                let mode = self.keyword("a shuffle mode", ShuffleMode::from_name)?;
                InstData::Shuffle {
                    mode,
                    args: self.values::<3>(cx)?,
                }
            }
            O::Vote => {
                let mode = self.keyword("a vote mode", VoteMode::from_name)?;
                InstData::Vote {
                    mode,
                    args: self.values::<2>(cx)?,
                }
            }
            O::Barrier | O::Activemask | O::Unreachable | O::Trap | O::StackSave => {
                InstData::Nullary { opcode }
            }
        };
        let inst = cx.func.dfg.make_inst(data);
        cx.func.layout.append_inst(inst, block);
        if self.eat_punct('!') {
            self.expect_word("loc")?;
            let file = self.u32_lit("file number")?;
            self.expect_punct(':')?;
            let lloc = self.peek().loc;
            let line = self.u32_lit("line")?;
            if line == 0 {
                return self.err(lloc, "line numbers start at 1");
            }
            self.expect_punct(':')?;
            let col = self.u32_lit("column")?;
            cx.func
                .set_srcloc(inst, crate::srcloc::SourceLoc::new(file, line, col));
        }
        cx.locs.insert(AnyEntity::Inst(inst), start.loc);
        cx.pending.push(PendingInst {
            inst,
            results,
            ctrl,
            loc: start.loc,
            store_align_missing,
        });
        Ok(())
    }

    /// Checks references and infers result types once the whole body is read.
    fn finish_function(&self, cx: &mut FuncCtx) -> PResult<()> {
        for &(b, loc) in &cx.block_uses {
            if !cx.defined_blocks.contains(&b) {
                return self.err(loc, format!("undefined block {b}"));
            }
        }
        for &(v, loc) in &cx.value_uses {
            if !cx.defined_values.contains(&v) {
                return self.err(loc, format!("undefined value {v}"));
            }
        }
        // Fixpoint: an instruction's result types are known once its operands' types are.
        let mut pending = std::mem::take(&mut cx.pending);
        loop {
            let before = pending.len();
            let mut rest = Vec::new();
            for p in pending {
                let dfg = &cx.func.dfg;
                let ready = dfg
                    .inst_args(p.inst)
                    .iter()
                    .all(|&a| dfg.value_def(a) != ValueDef::Placeholder);
                if !ready {
                    rest.push(p);
                    continue;
                }
                let tys = dfg.result_types(dfg.inst(p.inst), p.ctrl);
                if tys.len() != p.results.len() {
                    return self.err(
                        p.loc,
                        format!(
                            "`{}` has {} result(s) here, {} written",
                            dfg.inst(p.inst).opcode(),
                            tys.len(),
                            p.results.len()
                        ),
                    );
                }
                for (v, ty) in p.results.iter().zip(tys) {
                    cx.func.dfg.attach_result(p.inst, *v, ty);
                }
                if p.store_align_missing {
                    let vty = cx
                        .func
                        .dfg
                        .inst_args(p.inst)
                        .first()
                        .map(|&v| cx.func.dfg.value_type(v));
                    if let InstData::Store { flags, .. } = cx.func.dfg.inst_mut(p.inst) {
                        flags.align = vty.map_or(1, |t| t.bytes());
                    }
                }
            }
            pending = rest;
            if pending.is_empty() {
                return Ok(());
            }
            if pending.len() == before {
                let p = &pending[0];
                return self.err(
                    p.loc,
                    "cannot infer result types: the operands' definitions depend on this instruction",
                );
            }
        }
    }
}

/// Parses a module; also returns where each entity was written.
pub fn parse_module_with_locations(src: &str) -> Result<(Module, SourceMap), ParseError> {
    let toks = lex(src)?;
    let mut p = Parser { toks, pos: 0 };
    let mut map = SourceMap::default();
    let m = p.module(&mut map)?;
    Ok((m, map))
}

/// Parses a module.
pub fn parse_module(src: &str) -> Result<Module, ParseError> {
    parse_module_with_locations(src).map(|(m, _)| m)
}

/// Parses a text holding exactly one function (declarations it needs may precede it).
pub fn parse_function(src: &str) -> Result<Function, ParseError> {
    let mut m = parse_module(src)?;
    match m.functions.len() {
        1 => Ok(m.functions.remove(0)),
        n => Err(ParseError {
            line: 1,
            col: 1,
            message: format!("expected exactly one function, found {n}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(parse_int_literal("-1"), Some(-1));
        assert_eq!(parse_int_literal("0xffffffffffffffff"), Some(-1));
        assert_eq!(parse_int_literal("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int_literal("-9223372036854775809"), None);
        assert_eq!(parse_int_literal("abc"), None);
        assert_eq!(
            parse_float_literal(Type::F64, "1e-7"),
            Some(1e-7f64.to_bits())
        );
        assert_eq!(
            parse_float_literal(Type::F64, "-inf"),
            Some(f64::NEG_INFINITY.to_bits())
        );
        assert_eq!(parse_float_literal(Type::F64, "nan"), None);
        assert!(parse_float_literal(Type::F32, "0x7fc00000").is_some());
    }

    #[test]
    fn errors_have_positions() {
        let e = parse_module("kernel @k() {\nblock0:\n    v0 = frob v1\n}\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 10));
        let e = parse_module("kernel @k() {\nblock0:\n    jump block7\n}\n").unwrap_err();
        assert!(e.message.contains("undefined block"), "{e}");
        let e = parse_module("kernel @k() {\nblock0:\n    v1 = iadd v1, v1\n    return\n}\n")
            .unwrap_err();
        assert!(e.message.contains("cannot infer"), "{e}");
        let e = parse_module("kernel @k() { block0: v0 = iconst.i32 1\n v0 = iconst.i32 2 }")
            .unwrap_err();
        assert!(e.message.contains("more than once"), "{e}");
        assert!(parse_module("kernel @k() { block0: v99999999 = iconst.i32 1 }").is_err());
        assert!(parse_module("kernel @k( { ").is_err());
        assert!(parse_module("#").is_err());
    }
}
