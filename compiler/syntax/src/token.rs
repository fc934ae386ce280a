//! Tokens of preprocessed C11 + GNU C, recognised by a logos DFA.
//!
//! Invariants: identifiers, numbers and directive lines come out of logos without their final
//! meaning; `crate::lexer::Lexer` turns them into `Ident`/`TypeName` (typedef table),
//! `Int`/`Float` (pp-number classification) and pragma tokens. Literal values are decoded from
//! the source text by the parser's actions, so tokens are small `Copy` values.

use logos::Logos;

use crate::ast::Symbol;
use crate::omp::OmpDirectiveKind;

/// A token. Punctuators are named after their spelling; digraphs map to the same tokens.
#[derive(Logos, Clone, Copy, Debug, PartialEq)]
#[logos(skip r"[ \t\r\n\x0b\x0c]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
#[allow(missing_docs)]
pub enum Tok {
    #[token("auto")]
    Auto,
    #[token("break")]
    Break,
    #[token("case")]
    Case,
    #[token("char")]
    Char,
    #[token("const")]
    #[token("__const")]
    #[token("__const__")]
    Const,
    #[token("continue")]
    Continue,
    #[token("default")]
    Default,
    #[token("do")]
    Do,
    #[token("double")]
    Double,
    #[token("else")]
    Else,
    #[token("enum")]
    Enum,
    #[token("extern")]
    Extern,
    #[token("float")]
    Float,
    #[token("for")]
    For,
    #[token("goto")]
    Goto,
    #[token("if")]
    If,
    #[token("inline")]
    #[token("__inline")]
    #[token("__inline__")]
    Inline,
    #[token("int")]
    Int,
    #[token("long")]
    Long,
    #[token("register")]
    Register,
    #[token("restrict")]
    #[token("__restrict")]
    #[token("__restrict__")]
    Restrict,
    #[token("return")]
    Return,
    #[token("short")]
    Short,
    #[token("signed")]
    #[token("__signed")]
    #[token("__signed__")]
    Signed,
    #[token("sizeof")]
    Sizeof,
    #[token("static")]
    Static,
    #[token("struct")]
    Struct,
    #[token("switch")]
    Switch,
    #[token("typedef")]
    Typedef,
    #[token("union")]
    Union,
    #[token("unsigned")]
    Unsigned,
    #[token("void")]
    Void,
    #[token("volatile")]
    #[token("__volatile")]
    #[token("__volatile__")]
    Volatile,
    #[token("while")]
    While,
    #[token("_Alignas")]
    Alignas,
    #[token("_Alignof")]
    #[token("__alignof")]
    #[token("__alignof__")]
    Alignof,
    /// `_Atomic` used as a qualifier.
    #[token("_Atomic")]
    Atomic,
    /// `_Atomic` immediately followed by `(`: the type specifier `_Atomic(type)`; the lexer
    /// splits the two so the grammar needs no precedence to tell them apart.
    #[regex(r"_Atomic[ \t\r\n]*\(")]
    AtomicParen,
    #[token("_Bool")]
    Bool,
    #[token("_Complex")]
    #[token("__complex")]
    #[token("__complex__")]
    Complex,
    #[token("_Generic")]
    Generic,
    #[token("_Imaginary")]
    Imaginary,
    #[token("_Noreturn")]
    Noreturn,
    #[token("_Static_assert")]
    #[token("static_assert")]
    StaticAssert,
    #[token("_Thread_local")]
    #[token("__thread")]
    ThreadLocal,
    #[token("__attribute__")]
    #[token("__attribute")]
    Attribute,
    #[token("asm")]
    #[token("__asm")]
    #[token("__asm__")]
    Asm,
    #[token("__extension__")]
    Extension,
    #[token("typeof")]
    #[token("__typeof")]
    #[token("__typeof__")]
    Typeof,
    #[token("__builtin_va_list")]
    VaList,
    #[token("__builtin_va_arg")]
    VaArg,
    #[token("__builtin_offsetof")]
    Offsetof,
    #[token("__builtin_types_compatible_p")]
    TypesCompatible,
    #[token("__int128")]
    Int128,
    /// `_FloatN` / `_FloatNx`: payload is `bits * 2 + extended`; GCC's `__float128` is
    /// `_Float128` and `__float80` is `_Float64x` (the x87 80-bit type) on x86-64.
    #[regex(r"_Float(16|32|64|128)x?", float_n)]
    #[token("__float128", |_| 256)]
    #[token("__float80", |_| 129)]
    FloatN(u16),
    #[token("__label__")]
    LocalLabel,
    #[token("__real__")]
    #[token("__real")]
    Real,
    #[token("__imag__")]
    #[token("__imag")]
    Imag,
    #[token("__auto_type")]
    AutoType,

    #[token("[")]
    #[token("<:")]
    LBracket,
    #[token("]")]
    #[token(":>")]
    RBracket,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    #[token("<%")]
    LBrace,
    #[token("}")]
    #[token("%>")]
    RBrace,
    #[token(".")]
    Dot,
    #[token("->")]
    Arrow,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("&")]
    Amp,
    #[token("*")]
    Star,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("~")]
    Tilde,
    #[token("!")]
    Bang,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    Le,
    #[token(">=")]
    Ge,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("^")]
    Caret,
    #[token("|")]
    Pipe,
    #[token("&&")]
    AmpAmp,
    #[token("||")]
    PipePipe,
    #[token("?")]
    Question,
    #[token(":")]
    Colon,
    #[token(";")]
    Semi,
    #[token("...")]
    Ellipsis,
    #[token("=")]
    Assign,
    #[token("*=")]
    StarAssign,
    #[token("/=")]
    SlashAssign,
    #[token("%=")]
    PercentAssign,
    #[token("+=")]
    PlusAssign,
    #[token("-=")]
    MinusAssign,
    #[token("<<=")]
    ShlAssign,
    #[token(">>=")]
    ShrAssign,
    #[token("&=")]
    AmpAssign,
    #[token("^=")]
    CaretAssign,
    #[token("|=")]
    PipeAssign,
    #[token(",")]
    Comma,

    /// An identifier; the payload is filled in by the lexer wrapper. Universal character
    /// names are identifier characters (C11 6.4.2.1): `gcc -E` spells UTF-8 ones that way.
    #[regex(
        r"([A-Za-z_$\u{80}-\u{10FFFF}]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})([A-Za-z0-9_$\u{80}-\u{10FFFF}]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*",
        |_| Symbol(0)
    )]
    Ident(Symbol),
    /// An identifier currently declared as a typedef name.
    TypeName(Symbol),
    /// A preprocessing number, classified by the lexer wrapper into `IntLit` or `FloatLit`.
    #[regex(r"\.?[0-9]([0-9A-Za-z_.]|[eEpP][+-])*")]
    Number,
    IntLit,
    FloatLit,
    #[regex(r#"(L|u8|u|U)?'([^'\\\n]|\\[^\n])*'"#)]
    CharLit,
    #[regex(r#"(L|u8|u|U)?"([^"\\\n]|\\[^\n])*""#)]
    StrLit,
    /// A character constant without its closing quote (reported, then treated as complete).
    #[regex(r#"(L|u8|u|U)?'([^'\\\n]|\\[^\n])*"#, priority = 1)]
    BadCharLit,
    /// A string literal without its closing quote (reported, then treated as complete).
    #[regex(r#"(L|u8|u|U)?"([^"\\\n]|\\[^\n])*"#, priority = 1)]
    BadStrLit,
    /// A `#` line (line marker or pragma), consumed by the lexer wrapper.
    #[regex(r"#[^\n]*", allow_greedy = true)]
    Directive,

    /// `#pragma omp` of a directive owning a statement (kind), up to the directive name.
    OmpStmt(OmpDirectiveKind),
    /// `#pragma omp` of a standalone executable directive.
    OmpStandalone(OmpDirectiveKind),
    /// `#pragma omp` of a declarative directive.
    OmpDecl(OmpDirectiveKind),
    /// A whole `#pragma omp` line of a valid directive ompcc does not support.
    OmpUnsupported,
    /// `iterator` before `(` in a `#pragma omp` line: the iterator modifier of a clause.
    OmpIterator,
    /// End of a `#pragma omp` line.
    PragmaEnd,
    /// A whole non-OpenMP pragma line that later passes use (`GCC unroll 4`, `nounroll`).
    Pragma,
}

fn float_n(lex: &mut logos::Lexer<Tok>) -> u16 {
    let s = &lex.slice()[6..];
    let ext = s.ends_with('x');
    let bits: u16 = s.trim_end_matches('x').parse().unwrap_or(0);
    bits * 2 + u16::from(ext)
}

impl Tok {
    /// How the token is named in "expected X, found Y" messages.
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Ident(_) => "identifier",
            Tok::TypeName(_) => "type name",
            Tok::Number | Tok::IntLit => "integer constant",
            Tok::FloatLit => "floating constant",
            Tok::CharLit => "character constant",
            Tok::StrLit => "string literal",
            Tok::Directive => "directive",
            Tok::OmpStmt(_) | Tok::OmpStandalone(_) | Tok::OmpDecl(_) | Tok::OmpUnsupported => {
                "'#pragma omp'"
            }
            Tok::PragmaEnd => "end of pragma line",
            Tok::OmpIterator => "'iterator'",
            Tok::Pragma => "'#pragma'",
            Tok::FloatN(_) => "'_FloatN'",
            Tok::AtomicParen => "'_Atomic('",
            other => other.spelling().unwrap_or("token"),
        }
    }

    /// The quoted spelling of fixed tokens (`'while'`, `';'`).
    pub fn spelling(self) -> Option<&'static str> {
        Some(match self {
            Tok::Auto => "'auto'",
            Tok::Break => "'break'",
            Tok::Case => "'case'",
            Tok::Char => "'char'",
            Tok::Const => "'const'",
            Tok::Continue => "'continue'",
            Tok::Default => "'default'",
            Tok::Do => "'do'",
            Tok::Double => "'double'",
            Tok::Else => "'else'",
            Tok::Enum => "'enum'",
            Tok::Extern => "'extern'",
            Tok::Float => "'float'",
            Tok::For => "'for'",
            Tok::Goto => "'goto'",
            Tok::If => "'if'",
            Tok::Inline => "'inline'",
            Tok::Int => "'int'",
            Tok::Long => "'long'",
            Tok::Register => "'register'",
            Tok::Restrict => "'restrict'",
            Tok::Return => "'return'",
            Tok::Short => "'short'",
            Tok::Signed => "'signed'",
            Tok::Sizeof => "'sizeof'",
            Tok::Static => "'static'",
            Tok::Struct => "'struct'",
            Tok::Switch => "'switch'",
            Tok::Typedef => "'typedef'",
            Tok::Union => "'union'",
            Tok::Unsigned => "'unsigned'",
            Tok::Void => "'void'",
            Tok::Volatile => "'volatile'",
            Tok::While => "'while'",
            Tok::Alignas => "'_Alignas'",
            Tok::Alignof => "'_Alignof'",
            Tok::Atomic => "'_Atomic'",
            Tok::Bool => "'_Bool'",
            Tok::Complex => "'_Complex'",
            Tok::Generic => "'_Generic'",
            Tok::Imaginary => "'_Imaginary'",
            Tok::Noreturn => "'_Noreturn'",
            Tok::StaticAssert => "'_Static_assert'",
            Tok::ThreadLocal => "'_Thread_local'",
            Tok::Attribute => "'__attribute__'",
            Tok::Asm => "'asm'",
            Tok::Extension => "'__extension__'",
            Tok::Typeof => "'typeof'",
            Tok::VaList => "'__builtin_va_list'",
            Tok::VaArg => "'__builtin_va_arg'",
            Tok::Offsetof => "'__builtin_offsetof'",
            Tok::TypesCompatible => "'__builtin_types_compatible_p'",
            Tok::Int128 => "'__int128'",
            Tok::LocalLabel => "'__label__'",
            Tok::Real => "'__real__'",
            Tok::Imag => "'__imag__'",
            Tok::AutoType => "'__auto_type'",
            Tok::LBracket => "'['",
            Tok::RBracket => "']'",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::Dot => "'.'",
            Tok::Arrow => "'->'",
            Tok::PlusPlus => "'++'",
            Tok::MinusMinus => "'--'",
            Tok::Amp => "'&'",
            Tok::Star => "'*'",
            Tok::Plus => "'+'",
            Tok::Minus => "'-'",
            Tok::Tilde => "'~'",
            Tok::Bang => "'!'",
            Tok::Slash => "'/'",
            Tok::Percent => "'%'",
            Tok::Shl => "'<<'",
            Tok::Shr => "'>>'",
            Tok::Lt => "'<'",
            Tok::Gt => "'>'",
            Tok::Le => "'<='",
            Tok::Ge => "'>='",
            Tok::EqEq => "'=='",
            Tok::Ne => "'!='",
            Tok::Caret => "'^'",
            Tok::Pipe => "'|'",
            Tok::AmpAmp => "'&&'",
            Tok::PipePipe => "'||'",
            Tok::Question => "'?'",
            Tok::Colon => "':'",
            Tok::Semi => "';'",
            Tok::Ellipsis => "'...'",
            Tok::Assign => "'='",
            Tok::StarAssign => "'*='",
            Tok::SlashAssign => "'/='",
            Tok::PercentAssign => "'%='",
            Tok::PlusAssign => "'+='",
            Tok::MinusAssign => "'-='",
            Tok::ShlAssign => "'<<='",
            Tok::ShrAssign => "'>>='",
            Tok::AmpAssign => "'&='",
            Tok::CaretAssign => "'^='",
            Tok::PipeAssign => "'|='",
            Tok::Comma => "','",
            _ => return None,
        })
    }
}
