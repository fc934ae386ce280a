//! PTX parser: tokens -> a light syntax tree (module directives, variables, functions with
//! their statements). Names stay strings here; `decode` resolves them.
//!
//! Invariants: every statement keeps its PTX line; malformed input gives `EmuError::Parse` with
//! the line of the offending token; `.section` blocks (debug info) are skipped whole.

use crate::error::EmuError;
use crate::lex::{Tok, Token, tokenize};

/// A parsed module.
#[derive(Debug, Default)]
pub(crate) struct Ast {
    pub items: Vec<Item>,
    /// `.file` table: index -> file name.
    pub files: Vec<(u32, String)>,
}

#[derive(Debug)]
pub(crate) enum Item {
    Var(VarDecl),
    Func(FuncDecl),
}

/// State space of a variable or memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Space {
    Global,
    Shared,
    Local,
    Const,
    Param,
}

/// A variable declaration (`.global .align 4 .b32 x[4] = {1, 2, 3, 4};`).
#[derive(Debug, Clone)]
pub(crate) struct VarDecl {
    pub space: Space,
    pub align: u32,
    /// Element type suffix (`b8`, `u32`, `f64`, ...).
    pub ty: String,
    /// Vector width (`.v2`, `.v4`), 1 for scalars.
    pub vec: u32,
    pub name: String,
    /// Array dimensions; `None` for `[]` (size from initializer or dynamic shared).
    pub dims: Vec<Option<u64>>,
    pub init: Vec<Init>,
    pub is_extern: bool,
    pub line: u32,
}

/// One initializer element.
#[derive(Debug, Clone)]
pub(crate) enum Init {
    Num(Num),
    /// Address of a symbol (`x`, `generic(x)`, `x+8`).
    Sym {
        name: String,
        add: i64,
    },
}

/// A numeric literal as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    Int(i128),
    /// `0f...` single float bits.
    F32(u32),
    /// `0d...` double bits or a decimal float.
    F64(u64),
}

/// A `.param` declaration in a function signature.
#[derive(Debug, Clone)]
pub(crate) struct ParamDecl {
    pub name: String,
    pub ty: String,
    pub align: u32,
    pub count: u64,
}

#[derive(Debug)]
pub(crate) struct FuncDecl {
    pub name: String,
    pub is_entry: bool,
    pub rets: Vec<ParamDecl>,
    pub params: Vec<ParamDecl>,
    /// `None` for a prototype (declaration without body).
    pub body: Option<Vec<Stmt>>,
    pub line: u32,
}

#[derive(Debug)]
pub(crate) enum Stmt {
    /// `.reg .ty names;` each name optionally a range `%r<N>`.
    Reg {
        names: Vec<(String, Option<u32>)>,
        line: u32,
    },
    Var(VarDecl),
    Label(String, u32),
    /// `.branchtargets` list, named by the label just before it.
    BranchTargets(Vec<String>, u32),
    Inst(InstAst),
    /// `{` and `}` open and close a scope.
    Open,
    Close,
    /// `.loc file line`.
    Loc {
        file: u32,
        line: u32,
    },
}

/// A guard predicate `@%p` / `@!%p`.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    pub reg: String,
    pub neg: bool,
}

#[derive(Debug)]
pub(crate) struct InstAst {
    pub guard: Option<Guard>,
    pub opcode: String,
    pub operands: Vec<Operand>,
    pub line: u32,
}

/// An operand as written.
#[derive(Debug, Clone)]
pub(crate) enum Operand {
    /// A name: register, symbol, label or function.
    Name(String),
    /// `!%p`.
    Not(String),
    Imm(Num),
    /// `[base+off]`, base absent for absolute addresses.
    Addr {
        base: Option<String>,
        off: i64,
    },
    /// `{a, b, c}` vector operand.
    Vec(Vec<Operand>),
    /// `%p|%q` pair destination of setp.
    Pair(String, String),
    /// `(a, b)` call argument or return list.
    List(Vec<Operand>),
    /// `name+off` symbol with offset (mov of an address).
    SymOff(String, i64),
}

/// Deepest `{...}`/`(...)` nesting accepted in operands and initializers (keeps recursion
/// bounded on hostile input).
const MAX_NESTING: u32 = 16;

struct P<'a> {
    t: Vec<Token<'a>>,
    i: usize,
}

/// Parses a number token text (without sign).
pub(crate) fn parse_number(text: &str) -> Option<Num> {
    let s = text.trim_end_matches(['U', 'u']);
    let b = s.as_bytes();
    if b.len() > 2 && b[0] == b'0' {
        match b[1] {
            b'x' | b'X' => {
                return u128::from_str_radix(&s[2..], 16)
                    .ok()
                    .map(|v| Num::Int(v as i128));
            }
            b'f' | b'F' if s.len() == 10 => {
                return u32::from_str_radix(&s[2..], 16).ok().map(Num::F32);
            }
            b'd' | b'D' if s.len() == 18 => {
                return u64::from_str_radix(&s[2..], 16).ok().map(Num::F64);
            }
            _ => {}
        }
    }
    if s.contains(['.', 'e', 'E']) {
        return s.parse::<f64>().ok().map(|f| Num::F64(f.to_bits()));
    }
    if b.len() > 1 && b[0] == b'0' && b.iter().all(|c| (b'0'..=b'7').contains(c)) {
        return u128::from_str_radix(&s[1..], 8)
            .ok()
            .map(|v| Num::Int(v as i128));
    }
    s.parse::<u128>().ok().map(|v| Num::Int(v as i128))
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&Token<'a>> {
        self.t.get(self.i)
    }
    fn line(&self) -> u32 {
        self.t.get(self.i).or(self.t.last()).map_or(1, |t| t.line)
    }
    fn next(&mut self) -> Result<Token<'a>, EmuError> {
        let t = self
            .t
            .get(self.i)
            .copied()
            .ok_or_else(|| EmuError::parse(self.line(), "unexpected end of input"))?;
        self.i += 1;
        Ok(t)
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, EmuError> {
        Err(EmuError::parse(self.line(), msg))
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek().is_some_and(|t| t.kind == Tok::Punct(c))
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char) -> Result<(), EmuError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            let found = self.peek().map_or("end of input", |t| t.text);
            self.err(format!("expected `{c}`, found `{found}`"))
        }
    }
    fn is_dir(&self, d: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.kind == Tok::Directive && t.text == d)
    }
    fn eat_dir(&mut self, d: &str) -> bool {
        if self.is_dir(d) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> Result<&'a str, EmuError> {
        let t = self.next()?;
        if t.kind == Tok::Ident {
            Ok(t.text)
        } else {
            Err(EmuError::parse(
                t.line,
                format!("expected a name, found `{}`", t.text),
            ))
        }
    }
    fn number(&mut self) -> Result<Num, EmuError> {
        let neg = self.eat_punct('-');
        let t = self.next()?;
        if t.kind != Tok::Number {
            return Err(EmuError::parse(
                t.line,
                format!("expected a number, found `{}`", t.text),
            ));
        }
        let n = parse_number(t.text)
            .ok_or_else(|| EmuError::parse(t.line, format!("bad number `{}`", t.text)))?;
        Ok(if neg { negate(n) } else { n })
    }
    fn uint(&mut self) -> Result<u64, EmuError> {
        match self.number()? {
            Num::Int(v) if (0..=u64::MAX as i128).contains(&v) => Ok(v as u64),
            _ => self.err("expected a non-negative integer"),
        }
    }
    /// Skips tokens up to the end of the current line.
    fn skip_line(&mut self, line: u32) {
        while self.peek().is_some_and(|t| t.line == line) {
            self.i += 1;
        }
    }
}

fn negate(n: Num) -> Num {
    match n {
        Num::Int(v) => Num::Int(-v),
        Num::F32(b) => Num::F32(b ^ 0x8000_0000),
        Num::F64(b) => Num::F64(b ^ (1 << 63)),
    }
}

/// Parses PTX text.
pub(crate) fn parse(src: &str) -> Result<Ast, EmuError> {
    let mut p = P {
        t: tokenize(src)?,
        i: 0,
    };
    let mut ast = Ast::default();
    while let Some(t) = p.peek().copied() {
        match (t.kind, t.text) {
            (Tok::Directive, ".version") => {
                p.i += 1;
                p.number()?;
            }
            (Tok::Directive, ".target") => {
                p.i += 1;
                p.ident()?;
                while p.eat_punct(',') {
                    p.ident()?;
                }
            }
            (Tok::Directive, ".address_size") => {
                p.i += 1;
                let n = p.uint()?;
                if n != 64 {
                    return Err(EmuError::parse(
                        t.line,
                        "only `.address_size 64` is supported",
                    ));
                }
            }
            (Tok::Directive, ".file") => {
                p.i += 1;
                let idx = p.uint()? as u32;
                let name = p.next()?;
                if name.kind != Tok::Str {
                    return Err(EmuError::parse(name.line, "expected a file name string"));
                }
                ast.files.push((idx, unquote(name.text)));
                p.skip_line(name.line);
            }
            (Tok::Directive, ".section") => {
                p.i += 1;
                while !p.is_punct('{') {
                    p.next()?;
                }
                let mut depth = 0;
                loop {
                    let t = p.next()?;
                    match t.kind {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            (Tok::Directive, ".pragma") => {
                p.i += 1;
                while !p.eat_punct(';') {
                    p.next()?;
                }
            }
            (Tok::Directive, _) => parse_decl(&mut p, &mut ast)?,
            _ => return p.err(format!("unexpected `{}` at module scope", t.text)),
        }
    }
    Ok(ast)
}

fn unquote(s: &str) -> String {
    s.trim_matches('"').to_string()
}

/// decl = linkage* (var-decl | ("." "entry" | "." "func") signature (body | ";"))
fn parse_decl(p: &mut P, ast: &mut Ast) -> Result<(), EmuError> {
    let line = p.line();
    let mut is_extern = false;
    loop {
        if p.eat_dir(".visible") || p.eat_dir(".weak") || p.eat_dir(".common") {
            continue;
        }
        if p.eat_dir(".extern") {
            is_extern = true;
            continue;
        }
        break;
    }
    if p.is_dir(".entry") || p.is_dir(".func") {
        let is_entry = p.is_dir(".entry");
        p.i += 1;
        let mut rets = Vec::new();
        if !is_entry && p.is_punct('(') {
            rets = parse_params(p)?;
        }
        let name = p.ident()?.to_string();
        let params = if p.is_punct('(') {
            parse_params(p)?
        } else {
            Vec::new()
        };
        // performance directives and attributes up to the body or `;`
        while !p.is_punct('{') && !p.is_punct(';') {
            p.next()?;
        }
        let body = if p.eat_punct(';') {
            None
        } else {
            Some(parse_body(p)?)
        };
        ast.items.push(Item::Func(FuncDecl {
            name,
            is_entry,
            rets,
            params,
            body,
            line,
        }));
        return Ok(());
    }
    let mut v = parse_var(p)?;
    v.is_extern = is_extern;
    v.line = line;
    ast.items.push(Item::Var(v));
    Ok(())
}

/// params = "(" (".param" ".align"? type name ("[" n "]")?) % "," ")"
fn parse_params(p: &mut P) -> Result<Vec<ParamDecl>, EmuError> {
    p.expect_punct('(')?;
    let mut out = Vec::new();
    if p.eat_punct(')') {
        return Ok(out);
    }
    loop {
        if !p.eat_dir(".param") && !p.eat_dir(".reg") {
            return p.err("expected `.param`");
        }
        let mut align = 0;
        let mut ty = String::new();
        loop {
            if p.eat_dir(".align") {
                align = p.uint()? as u32;
            } else if p.eat_dir(".ptr")
                || p.eat_dir(".global")
                || p.eat_dir(".shared")
                || p.eat_dir(".const")
                || p.eat_dir(".local")
            {
            } else if let Some(t) = p.peek().filter(|t| t.text.starts_with(".ptr.")) {
                // `.ptr.global.align 16` written as one word
                let with_align = t.text.ends_with(".align");
                p.i += 1;
                if with_align {
                    align = p.uint()? as u32;
                }
            } else if p.peek().is_some_and(|t| t.kind == Tok::Directive) {
                ty = p.next()?.text[1..].to_string();
            } else {
                break;
            }
        }
        let name = p.ident()?.to_string();
        let mut count = 1;
        if p.eat_punct('[') {
            count = p.uint()?;
            p.expect_punct(']')?;
        }
        if ty.is_empty() {
            return p.err(format!("parameter `{name}` has no type"));
        }
        out.push(ParamDecl {
            name,
            ty,
            align,
            count,
        });
        if p.eat_punct(')') {
            return Ok(out);
        }
        p.expect_punct(',')?;
    }
}

/// var = space (".align" n | ".v2" | ".v4" | type)* name ("[" n? "]")* ("=" init)? ";"
fn parse_var(p: &mut P) -> Result<VarDecl, EmuError> {
    let line = p.line();
    let t = p.next()?;
    let space = match t.text {
        ".global" => Space::Global,
        ".shared" => Space::Shared,
        ".local" => Space::Local,
        ".const" => Space::Const,
        ".param" => Space::Param,
        other => {
            return Err(EmuError::parse(
                t.line,
                format!("unexpected directive `{other}`"),
            ));
        }
    };
    let mut align = 0;
    let mut vec = 1;
    let mut ty = String::new();
    loop {
        if p.eat_dir(".align") {
            align = p.uint()? as u32;
        } else if p.eat_dir(".v2") {
            vec = 2;
        } else if p.eat_dir(".v4") {
            vec = 4;
        } else if p.peek().is_some_and(|t| t.kind == Tok::Directive) {
            ty = p.next()?.text[1..].to_string();
        } else {
            break;
        }
    }
    if ty.is_empty() {
        return p.err("variable declaration without a type");
    }
    let name = p.ident()?.to_string();
    let mut dims = Vec::new();
    while p.eat_punct('[') {
        if p.eat_punct(']') {
            dims.push(None);
        } else {
            dims.push(Some(p.uint()?));
            p.expect_punct(']')?;
        }
    }
    let mut init = Vec::new();
    if p.eat_punct('=') {
        parse_init(p, &mut init, 0)?;
    }
    p.expect_punct(';')?;
    Ok(VarDecl {
        space,
        align,
        ty,
        vec,
        name,
        dims,
        init,
        is_extern: false,
        line,
    })
}

/// init = "{" init % "," "}" | number | name ("+" n)? | "generic" "(" name ")"
fn parse_init(p: &mut P, out: &mut Vec<Init>, depth: u32) -> Result<(), EmuError> {
    if depth > MAX_NESTING {
        return p.err("initializer nested too deeply");
    }
    if p.eat_punct('{') {
        if p.eat_punct('}') {
            return Ok(());
        }
        loop {
            parse_init(p, out, depth + 1)?;
            if p.eat_punct('}') {
                return Ok(());
            }
            p.expect_punct(',')?;
        }
    }
    if p.peek().is_some_and(|t| t.kind == Tok::Ident) {
        let name = p.ident()?;
        let name = if name == "generic" {
            p.expect_punct('(')?;
            let n = p.ident()?;
            p.expect_punct(')')?;
            n
        } else {
            name
        };
        let mut add = 0;
        if p.eat_punct('+') {
            match p.number()? {
                Num::Int(v) => add = v as i64,
                _ => return p.err("expected an integer offset"),
            }
        }
        out.push(Init::Sym {
            name: name.to_string(),
            add,
        });
        return Ok(());
    }
    out.push(Init::Num(p.number()?));
    Ok(())
}

fn parse_body(p: &mut P) -> Result<Vec<Stmt>, EmuError> {
    p.expect_punct('{')?;
    let mut out = Vec::new();
    let mut depth = 1;
    loop {
        let Some(t) = p.peek().copied() else {
            return p.err("unterminated function body");
        };
        match t.kind {
            Tok::Punct('{') => {
                p.i += 1;
                depth += 1;
                out.push(Stmt::Open);
            }
            Tok::Punct('}') => {
                p.i += 1;
                depth -= 1;
                if depth == 0 {
                    return Ok(out);
                }
                out.push(Stmt::Close);
            }
            Tok::Punct(';') => p.i += 1,
            Tok::Directive => match t.text {
                ".reg" => {
                    p.i += 1;
                    while p.peek().is_some_and(|t| t.kind == Tok::Directive) {
                        p.next()?;
                    }
                    let mut names = Vec::new();
                    loop {
                        let n = p.ident()?.to_string();
                        let mut range = None;
                        if p.eat_punct('<') {
                            range = Some(p.uint()? as u32);
                            p.expect_punct('>')?;
                        }
                        names.push((n, range));
                        if !p.eat_punct(',') {
                            break;
                        }
                    }
                    p.expect_punct(';')?;
                    out.push(Stmt::Reg {
                        names,
                        line: t.line,
                    });
                }
                ".loc" => {
                    p.i += 1;
                    let file = p.uint()? as u32;
                    let line = p.uint()? as u32;
                    p.skip_line(t.line);
                    out.push(Stmt::Loc { file, line });
                }
                ".branchtargets" => {
                    p.i += 1;
                    let mut names = vec![p.ident()?.to_string()];
                    while p.eat_punct(',') {
                        names.push(p.ident()?.to_string());
                    }
                    p.expect_punct(';')?;
                    out.push(Stmt::BranchTargets(names, t.line));
                }
                // call prototypes and call-target lists only describe indirect calls
                ".callprototype" | ".calltargets" => {
                    while !p.eat_punct(';') {
                        p.next()?;
                    }
                }
                ".pragma" => {
                    while !p.eat_punct(';') {
                        p.next()?;
                    }
                }
                ".local" | ".shared" | ".param" | ".global" | ".const" => {
                    let v = parse_var(p)?;
                    out.push(Stmt::Var(v));
                }
                other => return p.err(format!("unexpected directive `{other}` in function body")),
            },
            Tok::Ident if p.t.get(p.i + 1).is_some_and(|n| n.kind == Tok::Punct(':')) => {
                p.i += 2;
                out.push(Stmt::Label(t.text.to_string(), t.line));
            }
            Tok::Ident | Tok::Punct('@') => out.push(Stmt::Inst(parse_inst(p)?)),
            _ => return p.err(format!("unexpected `{}` in function body", t.text)),
        }
    }
}

/// inst = ("@" "!"? pred)? opcode operand % "," ";"
fn parse_inst(p: &mut P) -> Result<InstAst, EmuError> {
    let line = p.line();
    let mut guard = None;
    if p.eat_punct('@') {
        let neg = p.eat_punct('!');
        guard = Some(Guard {
            reg: p.ident()?.to_string(),
            neg,
        });
    }
    let opcode = p.ident()?.to_string();
    let mut operands = Vec::new();
    if !p.eat_punct(';') {
        loop {
            operands.push(parse_operand(p, 0)?);
            if p.eat_punct(';') {
                break;
            }
            p.expect_punct(',')?;
        }
    }
    Ok(InstAst {
        guard,
        opcode,
        operands,
        line,
    })
}

fn parse_operand(p: &mut P, depth: u32) -> Result<Operand, EmuError> {
    if depth > MAX_NESTING {
        return p.err("operand nested too deeply");
    }
    let Some(t) = p.peek().copied() else {
        return p.err("expected an operand");
    };
    match t.kind {
        Tok::Punct('[') => {
            p.i += 1;
            let mut base = None;
            let mut off = 0i64;
            if p.peek().is_some_and(|t| t.kind == Tok::Ident) {
                base = Some(p.ident()?.to_string());
                // `[r+4]`, `[r+-4]` and `[r-4]`: number() takes the sign
                if p.eat_punct('+') || p.is_punct('-') {
                    let n = p.number()?;
                    off = int_of(p, n)?;
                }
            } else {
                {
                    let n = p.number()?;
                    off = int_of(p, n)?;
                }
            }
            p.expect_punct(']')?;
            Ok(Operand::Addr { base, off })
        }
        Tok::Punct('{') => {
            p.i += 1;
            let mut v = Vec::new();
            loop {
                v.push(parse_operand(p, depth + 1)?);
                if p.eat_punct('}') {
                    break;
                }
                p.expect_punct(',')?;
            }
            Ok(Operand::Vec(v))
        }
        Tok::Punct('(') => {
            p.i += 1;
            let mut v = Vec::new();
            if p.eat_punct(')') {
                return Ok(Operand::List(v));
            }
            loop {
                v.push(parse_operand(p, depth + 1)?);
                if p.eat_punct(')') {
                    break;
                }
                p.expect_punct(',')?;
            }
            Ok(Operand::List(v))
        }
        Tok::Punct('!') => {
            p.i += 1;
            Ok(Operand::Not(p.ident()?.to_string()))
        }
        Tok::Punct('-') | Tok::Number => Ok(Operand::Imm(p.number()?)),
        Tok::Ident => {
            p.i += 1;
            let name = t.text.to_string();
            if p.eat_punct('|') {
                return Ok(Operand::Pair(name, p.ident()?.to_string()));
            }
            if p.eat_punct('+') {
                let n = p.number()?;
                let off = int_of(p, n)?;
                return Ok(Operand::SymOff(name, off));
            }
            Ok(Operand::Name(name))
        }
        _ => p.err(format!("unexpected `{}` in operand", t.text)),
    }
}

fn int_of(p: &P, n: Num) -> Result<i64, EmuError> {
    match n {
        Num::Int(v) => Ok(v as i64),
        _ => p.err("expected an integer offset"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("0f3F800000"), Some(Num::F32(0x3F80_0000)));
        assert_eq!(parse_number("0x10"), Some(Num::Int(16)));
        assert_eq!(parse_number("010"), Some(Num::Int(8)));
        assert_eq!(parse_number("12U"), Some(Num::Int(12)));
        assert_eq!(parse_number("1.5"), Some(Num::F64(1.5f64.to_bits())));
    }

    #[test]
    fn kernel_shape() {
        let src = ".version 7.0\n.target sm_70\n.address_size 64\n.global .align 4 .b8 g[8] = {1,2};\n\
            .visible .entry k(.param .u64 k_param_0)\n{\n.reg .b32 %r<3>;\n$L1:\n@!%p1 bra $L1;\nret;\n}\n";
        let ast = parse(src).unwrap();
        assert_eq!(ast.items.len(), 2);
        let Item::Func(f) = &ast.items[1] else {
            panic!("expected a function")
        };
        assert_eq!(f.params[0].name, "k_param_0");
        assert_eq!(f.body.as_ref().unwrap().len(), 4);
    }

    #[test]
    fn pointer_parameter_attributes() {
        let src = ".visible .entry k(.param .u64 .ptr .global .align 16 a, .param .u64 .ptr.global.align 8 b)\n{\nret;\n}\n";
        let ast = parse(src).unwrap();
        let Item::Func(f) = &ast.items[0] else {
            panic!("expected a function")
        };
        assert_eq!((f.params[0].align, f.params[1].align), (16, 8));
        assert_eq!(f.params[1].ty, "u64");
    }

    #[test]
    fn error_has_line() {
        let e = parse(".version 7.0\n.entry k() {\n mov.u32 %r1 %r2;\n}").unwrap_err();
        assert!(matches!(e, EmuError::Parse { line: 3, .. }), "{e}");
    }
}
