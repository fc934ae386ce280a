//! The abstract syntax tree of a C11 + GNU + OpenMP translation unit.
//!
//! Invariants:
//! - every node carries a [`Span`]: a byte range into the preprocessed text (map it to the
//!   user's file with `ompcc_diag::SourceMap`); the host-side rewrite patches exactly these
//!   ranges, so a node's span covers all of its tokens;
//! - every expression has an [`ExprId`] and every declarator an [`DeclId`], dense from 0 in
//!   parse order (`TranslationUnit::num_exprs` / `num_decls` give the counts), so later stages
//!   attach types and symbols in side tables (`Vec<Type>` indexed by id) instead of mutating
//!   the tree (a few ids go unused: words inside OpenMP clauses such as `tofrom` are parsed as
//!   identifiers before the clause gives them their meaning);
//! - names are interned [`Symbol`]s; `TranslationUnit::symbols` resolves them;
//! - declarators are flat: `Declarator::derived` lists pointer / array / function layers from
//!   the name outward (`int *a[3]` is `a: [Array(3), Pointer]` over `int`), so a type is built
//!   by applying `derived` in reverse order to the specifiers' base type;
//! - specifiers are kept as written (`unsigned long long` is three `TypeSpec`s); sema combines
//!   them and diagnoses invalid combinations;
//! - OpenMP array sections appear only as [`ExprKind::ArraySection`]; the parser reports them
//!   outside `#pragma omp` lines and in clauses that take plain variables;
//! - attributes written after a struct/union body (`struct S {...} __attribute__((packed))`)
//!   are `DeclSpecKind::Attr` entries following the `TypeSpec::Record` in the specifiers;
//! - `__int128_t`, `__uint128_t` and `__builtin_ms_va_list` arrive as typedef names (GCC
//!   predefines them); `__extension__` is dropped by the lexer.

use ompcc_diag::Span;
use rustc_hash::FxHashMap;

/// An interned identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(pub u32);

/// Owns the text of every [`Symbol`].
#[derive(Clone, Debug, Default)]
pub struct Interner {
    map: FxHashMap<Box<str>, Symbol>,
    names: Vec<Box<str>>,
}

impl Interner {
    /// The symbol for `name`, creating it on first use.
    pub fn intern(&mut self, name: &str) -> Symbol {
        if let Some(&s) = self.map.get(name) {
            return s;
        }
        let s = Symbol(self.names.len() as u32);
        self.names.push(name.into());
        self.map.insert(name.into(), s);
        s
    }

    /// The symbol for `name` if it was interned.
    pub fn get(&self, name: &str) -> Option<Symbol> {
        self.map.get(name).copied()
    }

    /// The text of `sym`.
    pub fn resolve(&self, sym: Symbol) -> &str {
        &self.names[sym.0 as usize]
    }
}

/// Dense id of an expression (index for side tables such as expression types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// Dense id of a declarator (index for side tables such as symbols).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub u32);

/// A name with its location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The interned name.
    pub name: Symbol,
    /// Where it is written.
    pub span: Span,
}

/// A whole preprocessed file.
#[derive(Clone, Debug)]
pub struct TranslationUnit {
    /// Top-level items in source order.
    pub items: Vec<ExternalDecl>,
    /// Text of every identifier.
    pub symbols: Interner,
    /// Number of [`ExprId`]s handed out (ids are `0..num_exprs`).
    pub num_exprs: u32,
    /// Number of [`DeclId`]s handed out (ids are `0..num_decls`).
    pub num_decls: u32,
}

/// A top-level item.
#[derive(Clone, Debug)]
pub enum ExternalDecl {
    /// A function with a body.
    Function(FunctionDef),
    /// A declaration (also `_Static_assert`).
    Decl(Declaration),
    /// A declarative OpenMP directive at file scope (`declare target`, ...).
    Omp(Box<OmpDirective>),
    /// A non-OpenMP `#pragma` line.
    Pragma(Pragma),
    /// File-scope `asm("...");`.
    Asm(AsmStmt),
    /// A stray `;`.
    Empty(Span),
}

/// `specs declarator { body }`.
#[derive(Clone, Debug)]
pub struct FunctionDef {
    /// The whole definition.
    pub span: Span,
    /// Return type specifiers, storage class, `inline`, attributes.
    pub specs: DeclSpecs,
    /// The function's declarator (its last derived layer relevant to the name is `Function`).
    pub declarator: Declarator,
    /// The body.
    pub body: Block,
}

/// Declaration specifiers in source order.
#[derive(Clone, Debug)]
pub struct DeclSpecs {
    /// Covers all specifiers.
    pub span: Span,
    /// Specifiers as written.
    pub specs: Vec<DeclSpec>,
}

impl DeclSpecs {
    /// True when `typedef` is among the specifiers.
    pub fn is_typedef(&self) -> bool {
        self.specs
            .iter()
            .any(|s| matches!(s.kind, DeclSpecKind::Storage(StorageClass::Typedef)))
    }
}

/// One declaration specifier.
#[derive(Clone, Debug)]
pub struct DeclSpec {
    /// Its tokens.
    pub span: Span,
    /// What it is.
    pub kind: DeclSpecKind,
}

/// The kinds of declaration specifiers.
#[derive(Clone, Debug)]
pub enum DeclSpecKind {
    /// `typedef extern static _Thread_local auto register`.
    Storage(StorageClass),
    /// A type specifier.
    Type(TypeSpec),
    /// `const restrict volatile _Atomic`.
    Qual(TypeQual),
    /// `inline`, `_Noreturn`.
    Func(FuncSpec),
    /// `_Alignas(type)` / `_Alignas(expr)`.
    Align(AlignSpec),
    /// `__attribute__((...))`.
    Attr(Attribute),
}

/// Storage classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    ThreadLocal,
    Auto,
    Register,
}

/// Type qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TypeQual {
    Const,
    Restrict,
    Volatile,
    /// `_Atomic` used as a qualifier (not `_Atomic(type)`).
    Atomic,
}

/// Function specifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum FuncSpec {
    Inline,
    Noreturn,
}

/// `_Alignas` argument.
#[derive(Clone, Debug)]
pub enum AlignSpec {
    /// `_Alignas(type-name)`.
    Type(Box<TypeName>),
    /// `_Alignas(constant-expression)`.
    Expr(Box<Expr>),
}

/// Type specifiers.
#[derive(Clone, Debug)]
pub enum TypeSpec {
    /// `void`
    Void,
    /// `char`
    Char,
    /// `short`
    Short,
    /// `int`
    Int,
    /// `long` (appears twice for `long long`)
    Long,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `signed` / `__signed__`
    Signed,
    /// `unsigned`
    Unsigned,
    /// `_Bool`
    Bool,
    /// `_Complex` / `__complex__`
    Complex,
    /// `__int128`
    Int128,
    /// `_FloatN` / `_FloatNx`: bits and whether it is the extended (`x`) form.
    FloatN(u16, bool),
    /// `__builtin_va_list`
    VaList,
    /// `__auto_type`
    AutoType,
    /// A name declared by `typedef`.
    TypedefName(Ident),
    /// `struct`/`union` specifier.
    Record(Box<RecordSpec>),
    /// `enum` specifier.
    Enum(Box<EnumSpec>),
    /// `_Atomic(type-name)`.
    AtomicType(Box<TypeName>),
    /// `typeof(expr)` / `__typeof__(expr)`.
    TypeofExpr(Box<Expr>),
    /// `typeof(type-name)`.
    TypeofType(Box<TypeName>),
}

/// `struct` or `union`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// `struct`
    Struct,
    /// `union`
    Union,
}

/// `struct tag { members }` (either part may be missing, not both).
#[derive(Clone, Debug)]
pub struct RecordSpec {
    /// struct or union.
    pub kind: RecordKind,
    /// The whole specifier.
    pub span: Span,
    /// The tag, if named.
    pub tag: Option<Ident>,
    /// `None` for a reference/forward declaration, `Some` when a body is given.
    pub members: Option<Vec<MemberDecl>>,
    /// Attributes written after `struct` or after the closing brace.
    pub attrs: Vec<Attribute>,
}

/// A member declaration inside a struct or union body.
#[derive(Clone, Debug)]
pub enum MemberDecl {
    /// `specs declarator[: width], ...;` (no declarators: anonymous struct/union member).
    Field {
        /// The whole member declaration.
        span: Span,
        /// Specifiers and qualifiers.
        specs: DeclSpecs,
        /// The declarators.
        declarators: Vec<FieldDeclarator>,
    },
    /// `_Static_assert` inside a struct.
    StaticAssert(StaticAssert),
    /// A kept pragma between members (`#pragma pack` applies to the record being defined).
    Pragma(Pragma),
}

/// `declarator`, `declarator : width` or `: width`.
#[derive(Clone, Debug)]
pub struct FieldDeclarator {
    /// Covers the declarator and the width.
    pub span: Span,
    /// Missing for unnamed bit-fields.
    pub declarator: Option<Declarator>,
    /// Bit-field width.
    pub bit_width: Option<Box<Expr>>,
}

/// `enum tag { A = 1, B }`.
#[derive(Clone, Debug)]
pub struct EnumSpec {
    /// The whole specifier.
    pub span: Span,
    /// The tag, if named.
    pub tag: Option<Ident>,
    /// `None` for a reference, `Some` when a body is given.
    pub enumerators: Option<Vec<Enumerator>>,
    /// Attributes.
    pub attrs: Vec<Attribute>,
}

/// One enumeration constant.
#[derive(Clone, Debug)]
pub struct Enumerator {
    /// Covers the name and the value.
    pub span: Span,
    /// Its name.
    pub name: Ident,
    /// Its declarator id (enumerators are ordinary identifiers).
    pub id: DeclId,
    /// `= value`.
    pub value: Option<Box<Expr>>,
}

/// A declaration: specifiers and zero or more init-declarators, or a static assertion.
#[derive(Clone, Debug)]
pub struct Declaration {
    /// The whole declaration including `;`.
    pub span: Span,
    /// What it is.
    pub kind: DeclarationKind,
}

/// The two forms of declarations.
#[derive(Clone, Debug)]
pub enum DeclarationKind {
    /// `specs init-declarator-list? ;`
    Vars {
        /// Specifiers.
        specs: DeclSpecs,
        /// The declared names with their initializers.
        declarators: Vec<InitDeclarator>,
    },
    /// `_Static_assert(expr, "msg");`
    StaticAssert(StaticAssert),
}

/// `_Static_assert(cond, "message")`.
#[derive(Clone, Debug)]
pub struct StaticAssert {
    /// The whole assertion.
    pub span: Span,
    /// The condition.
    pub cond: Box<Expr>,
    /// The message (C2x allows omitting it).
    pub message: Option<StringLit>,
}

/// `declarator = initializer`.
#[derive(Clone, Debug)]
pub struct InitDeclarator {
    /// Covers declarator and initializer.
    pub span: Span,
    /// The declarator.
    pub declarator: Declarator,
    /// The initializer.
    pub init: Option<Initializer>,
}

/// A (possibly abstract) declarator, flattened.
#[derive(Clone, Debug)]
pub struct Declarator {
    /// Covers the declarator's tokens.
    pub span: Span,
    /// Id for side tables (also given to abstract declarators).
    pub id: DeclId,
    /// The declared name; `None` for abstract declarators.
    pub name: Option<Ident>,
    /// Layers from the name outward.
    pub derived: Vec<Derived>,
    /// GNU asm label: `int x asm("y");`.
    pub asm_label: Option<StringLit>,
    /// Attributes inside and after the declarator.
    pub attrs: Vec<Attribute>,
}

/// One layer of a declarator.
#[derive(Clone, Debug)]
pub enum Derived {
    /// `* quals`.
    Pointer {
        /// The `*` and its qualifiers.
        span: Span,
        /// Qualifiers on the pointer itself.
        quals: Vec<TypeQual>,
        /// Attributes between `*` and the rest.
        attrs: Vec<Attribute>,
    },
    /// `[static quals size]`.
    Array {
        /// From `[` to `]`.
        span: Span,
        /// Qualifiers (parameters only).
        quals: Vec<TypeQual>,
        /// `static` inside the brackets (parameters only).
        is_static: bool,
        /// The size.
        size: ArraySize,
    },
    /// `(parameters)`.
    Function {
        /// From `(` to `)`.
        span: Span,
        /// Parameters; empty for `()` (unprototyped); `(void)` is one parameter of type void.
        params: Vec<ParamDecl>,
        /// Ends in `, ...`.
        variadic: bool,
        /// Written K&R-style (`f(a, b) int a; char *b;`), read as the prototype it declares:
        /// `params` come from the parameter declarations.
        old_style: bool,
    },
}

/// The size part of an array declarator.
#[derive(Clone, Debug)]
pub enum ArraySize {
    /// `[]`
    Unknown,
    /// `[*]` (VLA of unspecified size, prototypes only)
    Star,
    /// `[n]`
    Expr(Box<Expr>),
}

/// A function parameter.
#[derive(Clone, Debug)]
pub struct ParamDecl {
    /// The whole parameter.
    pub span: Span,
    /// Specifiers.
    pub specs: DeclSpecs,
    /// The (possibly abstract) declarator; `None` when only specifiers are written.
    pub declarator: Option<Declarator>,
}

/// `specifier-qualifier-list abstract-declarator?` as used by casts, sizeof, compound literals.
#[derive(Clone, Debug)]
pub struct TypeName {
    /// The whole type name.
    pub span: Span,
    /// Specifiers and qualifiers.
    pub specs: DeclSpecs,
    /// The abstract declarator.
    pub declarator: Option<Declarator>,
}

/// A GNU attribute list `__attribute__((a, b(1), c))`.
#[derive(Clone, Debug)]
pub struct Attribute {
    /// From `__attribute__` to the closing parentheses.
    pub span: Span,
    /// The attributes in the list.
    pub items: Vec<AttributeItem>,
}

/// One attribute: `name` or `name(args)`.
#[derive(Clone, Debug)]
pub struct AttributeItem {
    /// Covers name and arguments.
    pub span: Span,
    /// Name without surrounding underscores normalised (as written).
    pub name: Ident,
    /// Arguments (identifiers appear as `ExprKind::Ident`).
    pub args: Vec<Expr>,
}

/// An initializer.
#[derive(Clone, Debug)]
pub enum Initializer {
    /// `= expr`
    Expr(Box<Expr>),
    /// `= { ... }`
    List(InitList),
}

impl Initializer {
    /// The initializer's span.
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(l) => l.span,
        }
    }
}

/// `{ designation? initializer, ... }`.
#[derive(Clone, Debug)]
pub struct InitList {
    /// From `{` to `}`.
    pub span: Span,
    /// The elements.
    pub items: Vec<InitItem>,
}

/// One element of an initializer list.
#[derive(Clone, Debug)]
pub struct InitItem {
    /// Covers designators and initializer.
    pub span: Span,
    /// `.a[2] =` designators (empty when positional).
    pub designators: Vec<Designator>,
    /// The value.
    pub init: Initializer,
}

/// A designator.
#[derive(Clone, Debug)]
pub enum Designator {
    /// `.name`
    Field(Ident),
    /// `[index]`
    Index(Box<Expr>),
    /// GNU `[lo ... hi]`
    Range(Box<Expr>, Box<Expr>),
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// Dense id for side tables (types, values).
    pub id: ExprId,
    /// Its tokens.
    pub span: Span,
    /// What it is.
    pub kind: ExprKind,
}

/// Integer literal suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IntSuffix {
    /// `u`/`U`
    pub unsigned: bool,
    /// 0, 1 (`l`) or 2 (`ll`)
    pub long: u8,
    /// GNU imaginary `i`/`j`.
    pub imaginary: bool,
}

/// Floating literal suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// none: double
    None,
    /// `f`/`F`: float
    F,
    /// `l`/`L`: long double
    L,
    /// `f16 f32 f64 f128 f32x f64x` (bits, extended) and `q`/`Q` (= f128)
    FloatN(u16, bool),
}

/// Encoding prefix of a character or string literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharPrefix {
    /// none: `char`
    None,
    /// `L`: `wchar_t`
    Wide,
    /// `u`: `char16_t`
    U16,
    /// `U`: `char32_t`
    U32,
    /// `u8`: UTF-8 `char`
    Utf8,
}

/// A string literal after concatenation of adjacent pieces and escape decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringLit {
    /// From the first piece to the last.
    pub span: Span,
    /// The widest prefix among the pieces.
    pub prefix: CharPrefix,
    /// Code units without the terminating zero: bytes for narrow/UTF-8 strings, code points
    /// for `L`/`U`, UTF-16 units for `u`.
    pub value: Vec<u32>,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnaryOp {
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    /// `&`
    AddrOf,
    /// `*`
    Deref,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `~`
    BitNot,
    /// `!`
    Not,
    /// GNU `__real__`
    Real,
    /// GNU `__imag__`
    Imag,
}

/// Binary operators (assignment and comma excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

/// Assignment operators: `=` is `None`, `+=` is `Some(Add)` and so on.
pub type AssignOp = Option<BinaryOp>;

/// One `type: expr` or `default: expr` association of `_Generic`.
#[derive(Clone, Debug)]
pub struct GenericAssoc {
    /// Covers the association.
    pub span: Span,
    /// `None` for `default`.
    pub ty: Option<TypeName>,
    /// The selected expression.
    pub expr: Expr,
}

/// A component of the member designator of `__builtin_offsetof`.
#[derive(Clone, Debug)]
pub enum OffsetofMember {
    /// `.name` (the first component is written without the dot)
    Field(Ident),
    /// `[index]`
    Index(Box<Expr>),
}

/// The kinds of expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A name (variable, function, enumerator).
    Ident(Symbol),
    /// Integer constant: value (wrapped to 128 bits), suffix, and whether written in decimal
    /// (decimal constants never become unsigned implicitly).
    Int {
        /// The value.
        value: u128,
        /// Suffix letters.
        suffix: IntSuffix,
        /// Decimal (vs. octal/hex/binary).
        decimal: bool,
    },
    /// Floating constant.
    Float {
        /// The value as a double (long double constants are rounded).
        value: f64,
        /// Suffix.
        suffix: FloatSuffix,
        /// GNU imaginary suffix `i`/`j` (`1.0iF` is `_Complex float`).
        imaginary: bool,
    },
    /// Character constant (multi-character constants combined as gcc does).
    Char {
        /// The value.
        value: u32,
        /// Prefix.
        prefix: CharPrefix,
    },
    /// String literal (adjacent pieces concatenated).
    Str(StringLit),
    /// `( expr )`, kept so spans and the printer reproduce the source.
    Paren(Box<Expr>),
    /// `_Generic(ctrl, assocs)`.
    Generic(Box<Expr>, Vec<GenericAssoc>),
    /// `base[index]`
    Index(Box<Expr>, Box<Expr>),
    /// OpenMP array section `base[lower : length]` (either bound may be missing).
    ArraySection {
        /// The array or pointer.
        base: Box<Expr>,
        /// Lower bound (default 0).
        lower: Option<Box<Expr>>,
        /// Length (default: to the end of the array).
        length: Option<Box<Expr>>,
        /// Stride in elements (`base[lower : length : stride]`, OpenMP 5.0; default 1).
        stride: Option<Box<Expr>>,
    },
    /// `f(args)`
    Call(Box<Expr>, Vec<Expr>),
    /// `base.name` or `base->name`.
    Member {
        /// The struct or pointer.
        base: Box<Expr>,
        /// The member.
        name: Ident,
        /// `->` instead of `.`.
        arrow: bool,
    },
    /// Prefix and postfix unary operators.
    Unary(UnaryOp, Box<Expr>),
    /// `(type){ ... }`
    CompoundLiteral(Box<TypeName>, InitList),
    /// `sizeof expr`
    SizeofExpr(Box<Expr>),
    /// `sizeof(type)`
    SizeofType(Box<TypeName>),
    /// `_Alignof(type)` / `__alignof__(type)`
    AlignofType(Box<TypeName>),
    /// GNU `__alignof__ expr`
    AlignofExpr(Box<Expr>),
    /// `(type) expr`
    Cast(Box<TypeName>, Box<Expr>),
    /// `l op r`
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `l = r`, `l op= r`
    Assign(AssignOp, Box<Expr>, Box<Expr>),
    /// `c ? t : e`; `t` is `None` for GNU `c ?: e`.
    Cond(Box<Expr>, Option<Box<Expr>>, Box<Expr>),
    /// `l, r`
    Comma(Box<Expr>, Box<Expr>),
    /// GNU statement expression `({ ... })`.
    StmtExpr(Box<Block>),
    /// `__builtin_va_arg(ap, type)`
    VaArg(Box<Expr>, Box<TypeName>),
    /// `__builtin_offsetof(type, member-designator)`
    Offsetof(Box<TypeName>, Vec<OffsetofMember>),
    /// `__builtin_types_compatible_p(t1, t2)`
    TypesCompatible(Box<TypeName>, Box<TypeName>),
    /// GNU `&&label`.
    LabelAddr(Ident),
}

/// A `{ ... }` block.
#[derive(Clone, Debug)]
pub struct Block {
    /// From `{` to `}`.
    pub span: Span,
    /// Declarations and statements in order.
    pub items: Vec<BlockItem>,
}

/// An item of a block.
#[derive(Clone, Debug)]
pub enum BlockItem {
    /// A declaration.
    Decl(Declaration),
    /// A statement.
    Stmt(Stmt),
    /// A non-OpenMP `#pragma` line (e.g. `GCC unroll 4`, applying to the next statement).
    Pragma(Pragma),
    /// GNU `__label__ a, b;`
    LocalLabels(Span, Vec<Ident>),
}

/// A statement.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// Its tokens (for OpenMP directives: from `#pragma` to the end of the associated statement).
    pub span: Span,
    /// What it is.
    pub kind: StmtKind,
}

/// `for` initialisation clause.
#[derive(Clone, Debug)]
pub enum ForInit {
    /// `for (;`
    None,
    /// `for (expr;`
    Expr(Box<Expr>),
    /// `for (int i = 0;`
    Decl(Box<Declaration>),
}

/// The kinds of statements.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `name: stmt` (with optional GNU attributes after the colon, dropped).
    Labeled(Ident, Box<Stmt>),
    /// `case lo: stmt` or GNU `case lo ... hi: stmt`.
    Case(Box<Expr>, Option<Box<Expr>>, Box<Stmt>),
    /// `default: stmt`
    Default(Box<Stmt>),
    /// `{ ... }`
    Compound(Block),
    /// `expr;` or `;`
    Expr(Option<Box<Expr>>),
    /// `if (c) t else e`
    If(Box<Expr>, Box<Stmt>, Option<Box<Stmt>>),
    /// `switch (e) body`
    Switch(Box<Expr>, Box<Stmt>),
    /// `while (c) body`
    While(Box<Expr>, Box<Stmt>),
    /// `do body while (c);`
    DoWhile(Box<Stmt>, Box<Expr>),
    /// `for (init; cond; step) body`
    For(ForInit, Option<Box<Expr>>, Option<Box<Expr>>, Box<Stmt>),
    /// `goto label;`
    Goto(Ident),
    /// GNU `goto *expr;`
    GotoIndirect(Box<Expr>),
    /// `continue;`
    Continue,
    /// `break;`
    Break,
    /// `return expr?;`
    Return(Option<Box<Expr>>),
    /// `asm(...)` statement (parsed, not interpreted).
    Asm(AsmStmt),
    /// An OpenMP directive; executable directives own their associated statement.
    Omp(Box<OmpDirective>),
}

/// A GNU asm statement: `asm qualifiers ( template : outputs : inputs : clobbers : labels )`.
#[derive(Clone, Debug)]
pub struct AsmStmt {
    /// The whole statement.
    pub span: Span,
    /// `volatile`, `inline`, `goto` qualifiers as written.
    pub qualifiers: Vec<Ident>,
    /// The template string.
    pub template: StringLit,
    /// `[name] "constraint" (expr)` outputs.
    pub outputs: Vec<AsmOperand>,
    /// Inputs.
    pub inputs: Vec<AsmOperand>,
    /// Clobber strings.
    pub clobbers: Vec<StringLit>,
    /// `asm goto` labels.
    pub labels: Vec<Ident>,
}

/// One asm operand.
#[derive(Clone, Debug)]
pub struct AsmOperand {
    /// Covers the operand.
    pub span: Span,
    /// `[name]`
    pub name: Option<Ident>,
    /// The constraint string.
    pub constraint: StringLit,
    /// The operand expression.
    pub expr: Expr,
}

/// A non-OpenMP pragma line, kept for later passes (`GCC unroll 4`, `unroll`, `nounroll`, ...).
#[derive(Clone, Debug)]
pub struct Pragma {
    /// From `#` to the end of the line.
    pub span: Span,
    /// The line after `#pragma`, trimmed.
    pub text: String,
}

// ---------------------------------------------------------------------------------------------
// OpenMP
// ---------------------------------------------------------------------------------------------

pub use crate::omp::{OmpClauseName, OmpDirectiveKind};

/// An OpenMP directive.
#[derive(Clone, Debug)]
pub struct OmpDirective {
    /// The pragma line, from `#` to the end of the line (the associated statement excluded).
    pub span: Span,
    /// Which directive (combined forms are one kind: `TargetTeamsDistributeParallelFor`).
    pub kind: OmpDirectiveKind,
    /// From `#pragma` to the end of the directive name words.
    pub name_span: Span,
    /// Directive argument: `critical(name)`, `flush(list)`, `declare target(list)`,
    /// `threadprivate(list)`, `allocate(list)`; empty otherwise.
    pub args: Vec<Expr>,
    /// The clauses in order.
    pub clauses: Vec<OmpClause>,
    /// The associated statement of executable non-standalone directives.
    pub body: Option<Box<Stmt>>,
    /// The name words of an `Unsupported` directive (`["declare", "mapper"]`), for
    /// diagnostics; empty for every other kind.
    pub unsupported_name: &'static [&'static str],
}

impl OmpDirective {
    /// The directive's name as written (`target teams`, `scope`), for diagnostics.
    pub fn name(&self) -> String {
        if self.kind == OmpDirectiveKind::Unsupported && !self.unsupported_name.is_empty() {
            self.unsupported_name.join(" ")
        } else {
            self.kind.to_string()
        }
    }
}

/// An OpenMP clause.
#[derive(Clone, Debug)]
pub struct OmpClause {
    /// From the clause name to its closing parenthesis.
    pub span: Span,
    /// Which clause.
    pub name: OmpClauseName,
    /// The word before the `:` of a single-expression clause: `strict` on `grainsize` and
    /// `num_tasks`, `device_num` or `ancestor` on `device`; `None` for every other clause.
    pub modifier: Option<Ident>,
    /// The clause's contents.
    pub kind: OmpClauseKind,
}

/// One iterator of an `iterator(...)` modifier: `[type] name = begin : end [: step]`.
#[derive(Clone, Debug)]
pub struct OmpIterator {
    /// From the type (or name) to the end of the range.
    pub span: Span,
    /// The iterator's name.
    pub name: Ident,
    /// The type as written (`int`, `unsigned long`, a typedef name), when there is one.
    pub ty: Option<Span>,
    /// First value.
    pub begin: Expr,
    /// End (not included).
    pub end: Expr,
    /// Step (default 1).
    pub step: Option<Expr>,
}

/// An `iterator(...)` modifier and the list items it ranges over.
#[derive(Clone, Debug)]
pub struct OmpIterated {
    /// The iterators, outermost first.
    pub iterators: Vec<OmpIterator>,
    /// The list items, in the iterators' terms.
    pub list: Vec<Expr>,
}

/// `map` type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MapType {
    To,
    From,
    ToFrom,
    Alloc,
    Release,
    Delete,
}

/// `map` type modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MapModifier {
    Always,
    Close,
    Present,
}

/// Reduction operators and identifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ReductionOp {
    Add,
    Mul,
    Sub,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
    Min,
    Max,
}

/// `schedule` / `dist_schedule` kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ScheduleKind {
    Static,
    Dynamic,
    Guided,
    Auto,
    Runtime,
}

/// `schedule` modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ScheduleModifier {
    Monotonic,
    Nonmonotonic,
    Simd,
}

/// `default(...)` kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DefaultKind {
    Shared,
    None,
    Private,
    Firstprivate,
}

/// `depend(type: ...)` types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DependType {
    In,
    Out,
    Inout,
    Mutexinoutset,
    Inoutset,
    Depobj,
    Source,
    Sink,
}

/// `defaultmap` implicit behaviors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DefaultmapBehavior {
    Alloc,
    To,
    From,
    ToFrom,
    Firstprivate,
    None,
    Default,
    Present,
}

/// `defaultmap` variable categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DefaultmapCategory {
    Scalar,
    Aggregate,
    Pointer,
    All,
}

/// `proc_bind` policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ProcBind {
    Primary,
    Master,
    Close,
    Spread,
}

/// `atomic` clause kinds and memory orders appear as [`OmpClauseKind::Flag`]; this is the
/// contents of every clause.
#[derive(Clone, Debug)]
pub enum OmpClauseKind {
    /// A clause without arguments (`nowait`, `read`, `seq_cst`, `untied`, `nogroup`, ...).
    Flag,
    /// A clause whose argument is a single expression (`collapse(2)`, `num_teams(n)`,
    /// `thread_limit`, `num_threads`, `device`, `simdlen`, `safelen`, `final`, `priority`,
    /// `hint`, `filter`, `ordered(n)`, `grainsize`, `num_tasks`).
    Expr(Box<Expr>),
    /// A clause whose argument is a variable list (`private`, `firstprivate`, `shared`,
    /// `copyin`, `copyprivate`, `is_device_ptr`, `use_device_ptr`, `use_device_addr`,
    /// `has_device_addr`, `nontemporal`, `inclusive`, `exclusive`, `link`, `enter`, `uniform`).
    List(Vec<Expr>),
    /// A variable-list clause with an `iterator(...)` modifier (`affinity(iterator(i = 0:n):
    /// a[i])`): the items are in the iterators' terms, so they are kept apart from `List`,
    /// where passes would take the iterators for variables the construct uses.
    IteratedList(Box<OmpIterated>),
    /// `lastprivate([conditional:] list)`
    Lastprivate {
        /// `conditional:` given.
        conditional: bool,
        /// The variables.
        list: Vec<Expr>,
    },
    /// `default(kind)`
    Default(DefaultKind),
    /// `reduction([modifier,] op: list)` (also `in_reduction`, `task_reduction`).
    Reduction {
        /// `inscan`, `task` or `default` modifier, as written.
        modifier: Option<Ident>,
        /// The operator.
        op: ReductionOp,
        /// Span of the operator.
        op_span: Span,
        /// The variables / array sections.
        list: Vec<Expr>,
    },
    /// A `reduction` (`in_reduction`, `task_reduction`) whose reduction identifier is a name
    /// other than `min`/`max`: a user-defined reduction (`declare reduction`), which the host
    /// compiler implements on the host; ompcc refuses it in device code.
    UserReduction {
        /// `inscan`, `task` or `default` modifier, as written.
        modifier: Option<Ident>,
        /// The reduction identifier.
        name: Ident,
        /// The variables / array sections.
        list: Vec<Expr>,
    },
    /// `map([modifiers,] [type:] list)`
    Map {
        /// `always`, `close`, `present` as written.
        modifiers: Vec<MapModifier>,
        /// The map type (default `tofrom`).
        map_type: Option<MapType>,
        /// The variables, array sections and members (empty when `iterated` holds them).
        list: Vec<Expr>,
        /// With an `iterator(...)` modifier (OpenMP 5.1): the iterators and the list items
        /// written in their terms, kept apart from `list` as for `depend`: the plan and the
        /// passes never meet the iterators' names; the checker and the host rewrite read it.
        iterated: Option<Box<OmpIterated>>,
    },
    /// `to([present:] list)` / `from(...)` on `target update`, also `to(list)` on `declare target`.
    Motion {
        /// `present` modifier.
        present: bool,
        /// The variables (empty when `iterated` holds them).
        list: Vec<Expr>,
        /// With an `iterator(...)` modifier: as for `Map`.
        iterated: Option<Box<OmpIterated>>,
    },
    /// `schedule([modifier[, modifier]:] kind[, chunk])`
    Schedule {
        /// Modifiers.
        modifiers: Vec<ScheduleModifier>,
        /// The kind.
        kind: ScheduleKind,
        /// Chunk size.
        chunk: Option<Box<Expr>>,
    },
    /// `dist_schedule(static[, chunk])`
    DistSchedule {
        /// Chunk size.
        chunk: Option<Box<Expr>>,
    },
    /// `if([directive-name:] expr)`
    If {
        /// The directive the condition applies to.
        modifier: Option<OmpDirectiveKind>,
        /// The condition.
        cond: Box<Expr>,
    },
    /// `depend([iterator(...),] type: list)`
    Depend {
        /// The dependence type.
        kind: DependType,
        /// The locators (without `omp_all_memory`, and empty when `iterated` holds them).
        list: Vec<Expr>,
        /// With an `iterator(...)` modifier: the iterators and the locators written in their
        /// terms. Kept apart from `list` so that passes looking for the variables a construct
        /// uses never meet the iterators' names; only the checker and the host text read it.
        iterated: Option<Box<OmpIterated>>,
        /// The list names the reserved locator `omp_all_memory` (OpenMP 5.1).
        all_memory: bool,
    },
    /// `defaultmap(behavior[: category])`
    Defaultmap {
        /// Behavior.
        behavior: DefaultmapBehavior,
        /// Category (all when missing).
        category: Option<DefaultmapCategory>,
    },
    /// `aligned(list[: alignment])`
    Aligned {
        /// Pointers / arrays.
        list: Vec<Expr>,
        /// Alignment in bytes.
        alignment: Option<Box<Expr>>,
    },
    /// `linear(list[: step])`
    Linear {
        /// Variables.
        list: Vec<Expr>,
        /// Step (default 1).
        step: Option<Box<Expr>>,
    },
    /// `proc_bind(policy)`
    ProcBind(ProcBind),
    /// `order([modifier:] concurrent)`
    Order {
        /// `reproducible` / `unconstrained` modifier as written.
        modifier: Option<Ident>,
    },
    /// `device_type(host|nohost|any)`, `bind(...)`, `atomic_default_mem_order(...)` and other
    /// clauses taking one keyword.
    Keyword(Ident),
}
