//! `--emit=ast`: an indented, line-per-node dump of the tree.
//!
//! Format: declarations and statements one per line, children indented by two spaces;
//! expressions as S-expressions (`(+ a (* b 2))`); declarators as the name followed by its
//! derived layers from the name outward (`a [3] *` is an array of 3 pointers); OpenMP
//! directives as `omp <name> <clauses>` in normalised clause syntax. The output is stable, so
//! tests compare it verbatim; types are added by sema's own printer later.

use std::fmt::Write;

use crate::ast::*;

/// Renders the tree as indented text.
pub fn print_ast(tu: &TranslationUnit) -> String {
    let mut p = Printer {
        out: String::new(),
        sy: &tu.symbols,
        depth: 0,
    };
    for item in &tu.items {
        p.external(item);
    }
    p.out
}

struct Printer<'a> {
    out: String,
    sy: &'a Interner,
    depth: usize,
}

impl Printer<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    fn name(&self, s: Symbol) -> &str {
        self.sy.resolve(s)
    }

    fn external(&mut self, item: &ExternalDecl) {
        match item {
            ExternalDecl::Function(f) => {
                let head = format!(
                    "function {} {}",
                    self.specs(&f.specs),
                    self.declarator(&f.declarator)
                );
                self.line(&head);
                self.nested(|p| p.block_items(&f.body));
            }
            ExternalDecl::Decl(d) => self.declaration(d),
            ExternalDecl::Omp(d) => self.omp(d),
            ExternalDecl::Pragma(p) => self.line(&format!("pragma {}", p.text)),
            ExternalDecl::Asm(a) => {
                let t = self.asm(a);
                self.line(&t)
            }
            ExternalDecl::Empty(_) => self.line(";"),
        }
    }

    fn declaration(&mut self, d: &Declaration) {
        match &d.kind {
            DeclarationKind::Vars { specs, declarators } => {
                let mut s = format!("decl {}", self.specs(specs));
                for (i, id) in declarators.iter().enumerate() {
                    s.push_str(if i == 0 { " " } else { ", " });
                    s.push_str(&self.declarator(&id.declarator));
                    if let Some(init) = &id.init {
                        s.push_str(" = ");
                        s.push_str(&self.init(init));
                    }
                }
                self.line(&s);
            }
            DeclarationKind::StaticAssert(a) => {
                let s = self.static_assert(a);
                self.line(&s)
            }
        }
    }

    fn static_assert(&self, a: &StaticAssert) -> String {
        match &a.message {
            Some(m) => format!("static_assert {} {}", self.expr(&a.cond), self.string(m)),
            None => format!("static_assert {}", self.expr(&a.cond)),
        }
    }

    fn specs(&self, s: &DeclSpecs) -> String {
        let parts: Vec<String> = s.specs.iter().map(|x| self.spec(x)).collect();
        parts.join(" ")
    }

    fn spec(&self, s: &DeclSpec) -> String {
        match &s.kind {
            DeclSpecKind::Storage(c) => match c {
                StorageClass::Typedef => "typedef",
                StorageClass::Extern => "extern",
                StorageClass::Static => "static",
                StorageClass::ThreadLocal => "_Thread_local",
                StorageClass::Auto => "auto",
                StorageClass::Register => "register",
            }
            .into(),
            DeclSpecKind::Qual(q) => qual(*q).into(),
            DeclSpecKind::Func(FuncSpec::Inline) => "inline".into(),
            DeclSpecKind::Func(FuncSpec::Noreturn) => "_Noreturn".into(),
            DeclSpecKind::Align(AlignSpec::Type(t)) => format!("_Alignas({})", self.type_name(t)),
            DeclSpecKind::Align(AlignSpec::Expr(e)) => format!("_Alignas({})", self.expr(e)),
            DeclSpecKind::Attr(a) => self.attr(a),
            DeclSpecKind::Type(t) => self.type_spec(t),
        }
    }

    fn type_spec(&self, t: &TypeSpec) -> String {
        match t {
            TypeSpec::Void => "void".into(),
            TypeSpec::Char => "char".into(),
            TypeSpec::Short => "short".into(),
            TypeSpec::Int => "int".into(),
            TypeSpec::Long => "long".into(),
            TypeSpec::Float => "float".into(),
            TypeSpec::Double => "double".into(),
            TypeSpec::Signed => "signed".into(),
            TypeSpec::Unsigned => "unsigned".into(),
            TypeSpec::Bool => "_Bool".into(),
            TypeSpec::Complex => "_Complex".into(),
            TypeSpec::Int128 => "__int128".into(),
            TypeSpec::FloatN(b, x) => format!("_Float{b}{}", if *x { "x" } else { "" }),
            TypeSpec::VaList => "__builtin_va_list".into(),
            TypeSpec::AutoType => "__auto_type".into(),
            TypeSpec::TypedefName(n) => format!("typedef-name:{}", self.name(n.name)),
            TypeSpec::Record(r) => {
                let kw = if r.kind == RecordKind::Struct {
                    "struct"
                } else {
                    "union"
                };
                let mut tag = String::new();
                for a in &r.attrs {
                    tag.push(' ');
                    tag.push_str(&self.attr(a));
                }
                if let Some(t) = r.tag {
                    tag.push(' ');
                    tag.push_str(self.name(t.name));
                }
                match &r.members {
                    None => format!("{kw}{tag}"),
                    Some(m) => {
                        let members: Vec<String> = m.iter().map(|m| self.member(m)).collect();
                        format!("{kw}{tag} {{ {} }}", members.join("; "))
                    }
                }
            }
            TypeSpec::Enum(e) => {
                let tag = e
                    .tag
                    .map_or(String::new(), |t| format!(" {}", self.name(t.name)));
                match &e.enumerators {
                    None => format!("enum{tag}"),
                    Some(v) => {
                        let items: Vec<String> = v
                            .iter()
                            .map(|en| match &en.value {
                                Some(x) => {
                                    format!("{} = {}", self.name(en.name.name), self.expr(x))
                                }
                                None => self.name(en.name.name).to_owned(),
                            })
                            .collect();
                        format!("enum{tag} {{ {} }}", items.join(", "))
                    }
                }
            }
            TypeSpec::AtomicType(t) => format!("_Atomic({})", self.type_name(t)),
            TypeSpec::TypeofExpr(e) => format!("typeof({})", self.expr(e)),
            TypeSpec::TypeofType(t) => format!("typeof({})", self.type_name(t)),
        }
    }

    fn member(&self, m: &MemberDecl) -> String {
        match m {
            MemberDecl::Field {
                specs, declarators, ..
            } => {
                let ds: Vec<String> = declarators
                    .iter()
                    .map(|f| {
                        let d = f
                            .declarator
                            .as_ref()
                            .map_or(String::new(), |d| self.declarator(d));
                        match &f.bit_width {
                            Some(w) => format!("{d}:{}", self.expr(w)),
                            None => d,
                        }
                    })
                    .collect();
                if ds.is_empty() {
                    self.specs(specs)
                } else {
                    format!("{} {}", self.specs(specs), ds.join(", "))
                }
            }
            MemberDecl::StaticAssert(a) => self.static_assert(a),
            MemberDecl::Pragma(p) => format!("pragma {}", p.text),
        }
    }

    fn attr(&self, a: &Attribute) -> String {
        let items: Vec<String> = a
            .items
            .iter()
            .map(|i| {
                if i.args.is_empty() {
                    self.name(i.name.name).to_owned()
                } else {
                    let args: Vec<String> = i.args.iter().map(|e| self.expr(e)).collect();
                    format!("{}({})", self.name(i.name.name), args.join(", "))
                }
            })
            .collect();
        format!("__attribute__(({}))", items.join(", "))
    }

    fn declarator(&self, d: &Declarator) -> String {
        let mut s = d
            .name
            .map_or("<abstract>".to_owned(), |n| self.name(n.name).to_owned());
        for x in &d.derived {
            s.push(' ');
            match x {
                Derived::Pointer { quals, .. } => {
                    s.push('*');
                    for q in quals {
                        s.push_str(qual(*q));
                    }
                }
                Derived::Array {
                    quals,
                    is_static,
                    size,
                    ..
                } => {
                    s.push('[');
                    let mut parts: Vec<String> = Vec::new();
                    if *is_static {
                        parts.push("static".into());
                    }
                    parts.extend(quals.iter().map(|q| qual(*q).to_owned()));
                    match size {
                        ArraySize::Unknown => {}
                        ArraySize::Star => parts.push("*".into()),
                        ArraySize::Expr(e) => parts.push(self.expr(e)),
                    }
                    s.push_str(&parts.join(" "));
                    s.push(']');
                }
                Derived::Function {
                    params, variadic, ..
                } => {
                    let mut ps: Vec<String> = params
                        .iter()
                        .map(|p| match &p.declarator {
                            Some(d) => format!("{} {}", self.specs(&p.specs), self.declarator(d)),
                            None => self.specs(&p.specs),
                        })
                        .collect();
                    if *variadic {
                        ps.push("...".into());
                    }
                    let _ = write!(s, "fn({})", ps.join(", "));
                }
            }
        }
        if let Some(l) = &d.asm_label {
            let _ = write!(s, " asm({})", self.string(l));
        }
        for a in &d.attrs {
            s.push(' ');
            s.push_str(&self.attr(a));
        }
        s
    }

    fn type_name(&self, t: &TypeName) -> String {
        match &t.declarator {
            Some(d) => format!("{} {}", self.specs(&t.specs), self.declarator(d)),
            None => self.specs(&t.specs),
        }
    }

    fn init(&self, i: &Initializer) -> String {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(l) => self.init_list(l),
        }
    }

    fn init_list(&self, l: &InitList) -> String {
        let items: Vec<String> = l
            .items
            .iter()
            .map(|it| {
                let mut s = String::new();
                for d in &it.designators {
                    match d {
                        Designator::Field(n) => {
                            let _ = write!(s, ".{}", self.name(n.name));
                        }
                        Designator::Index(e) => {
                            let _ = write!(s, "[{}]", self.expr(e));
                        }
                        Designator::Range(a, b) => {
                            let _ = write!(s, "[{} ... {}]", self.expr(a), self.expr(b));
                        }
                    }
                }
                if !s.is_empty() {
                    s.push_str(" = ");
                }
                s.push_str(&self.init(&it.init));
                s
            })
            .collect();
        format!("{{{}}}", items.join(", "))
    }

    fn string(&self, s: &StringLit) -> String {
        let p = match s.prefix {
            CharPrefix::None => "",
            CharPrefix::Wide => "L",
            CharPrefix::U16 => "u",
            CharPrefix::U32 => "U",
            CharPrefix::Utf8 => "u8",
        };
        let mut out = format!("{p}\"");
        for &u in &s.value {
            match char::from_u32(u) {
                Some(c) if (' '..='~').contains(&c) && c != '"' && c != '\\' => out.push(c),
                _ => {
                    let _ = write!(out, "\\x{u:x}");
                }
            }
        }
        out.push('"');
        out
    }

    fn expr(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Ident(s) => self.name(*s).to_owned(),
            ExprKind::Int { value, suffix, .. } => {
                let mut s = value.to_string();
                if suffix.unsigned {
                    s.push('u');
                }
                for _ in 0..suffix.long {
                    s.push('l');
                }
                if suffix.imaginary {
                    s.push('i');
                }
                s
            }
            ExprKind::Float {
                value,
                suffix,
                imaginary,
            } => {
                let mut s = format!("{value:?}");
                match suffix {
                    FloatSuffix::None => {}
                    FloatSuffix::F => s.push('f'),
                    FloatSuffix::L => s.push('l'),
                    FloatSuffix::FloatN(b, x) => {
                        let _ = write!(s, "f{b}{}", if *x { "x" } else { "" });
                    }
                }
                if *imaginary {
                    s.push('i');
                }
                s
            }
            ExprKind::Char { value, .. } => format!("'{value}'"),
            ExprKind::Str(s) => self.string(s),
            ExprKind::Paren(x) => format!("(paren {})", self.expr(x)),
            ExprKind::Generic(c, assocs) => {
                let a: Vec<String> = assocs
                    .iter()
                    .map(|g| {
                        let t =
                            g.ty.as_ref()
                                .map_or("default".to_owned(), |t| self.type_name(t));
                        format!("[{t}: {}]", self.expr(&g.expr))
                    })
                    .collect();
                format!("(_Generic {} {})", self.expr(c), a.join(" "))
            }
            ExprKind::Index(a, b) => format!("(index {} {})", self.expr(a), self.expr(b)),
            ExprKind::ArraySection {
                base,
                lower,
                length,
                stride,
            } => {
                let lo = lower.as_ref().map_or("_".to_owned(), |x| self.expr(x));
                let len = length.as_ref().map_or("_".to_owned(), |x| self.expr(x));
                match stride {
                    Some(s) => format!("(section {} {lo} {len} {})", self.expr(base), self.expr(s)),
                    None => format!("(section {} {lo} {len})", self.expr(base)),
                }
            }
            ExprKind::Call(f, args) => {
                let mut s = format!("(call {}", self.expr(f));
                for a in args {
                    s.push(' ');
                    s.push_str(&self.expr(a));
                }
                s.push(')');
                s
            }
            ExprKind::Member { base, name, arrow } => {
                format!(
                    "({} {} {})",
                    if *arrow { "->" } else { "." },
                    self.expr(base),
                    self.name(name.name)
                )
            }
            ExprKind::Unary(op, x) => {
                let o = match op {
                    UnaryOp::PreInc => "pre++",
                    UnaryOp::PreDec => "pre--",
                    UnaryOp::PostInc => "post++",
                    UnaryOp::PostDec => "post--",
                    UnaryOp::AddrOf => "&",
                    UnaryOp::Deref => "*",
                    UnaryOp::Plus => "+",
                    UnaryOp::Minus => "-",
                    UnaryOp::BitNot => "~",
                    UnaryOp::Not => "!",
                    UnaryOp::Real => "__real__",
                    UnaryOp::Imag => "__imag__",
                };
                format!("({o} {})", self.expr(x))
            }
            ExprKind::CompoundLiteral(t, l) => {
                format!("(compound ({}) {})", self.type_name(t), self.init_list(l))
            }
            ExprKind::SizeofExpr(x) => format!("(sizeof {})", self.expr(x)),
            ExprKind::SizeofType(t) => format!("(sizeof ({}))", self.type_name(t)),
            ExprKind::AlignofType(t) => format!("(alignof ({}))", self.type_name(t)),
            ExprKind::AlignofExpr(x) => format!("(alignof {})", self.expr(x)),
            ExprKind::Cast(t, x) => format!("(cast ({}) {})", self.type_name(t), self.expr(x)),
            ExprKind::Binary(op, a, b) => {
                format!("({} {} {})", binop(*op), self.expr(a), self.expr(b))
            }
            ExprKind::Assign(op, a, b) => {
                let o = op.map_or("=".to_owned(), |o| format!("{}=", binop(o)));
                format!("({o} {} {})", self.expr(a), self.expr(b))
            }
            ExprKind::Cond(c, t, f) => {
                let t = t.as_ref().map_or("_".to_owned(), |t| self.expr(t));
                format!("(?: {} {t} {})", self.expr(c), self.expr(f))
            }
            ExprKind::Comma(a, b) => format!("(, {} {})", self.expr(a), self.expr(b)),
            ExprKind::StmtExpr(b) => {
                let mut p = Printer {
                    out: String::new(),
                    sy: self.sy,
                    depth: 0,
                };
                p.block_items(b);
                format!("({{ {} }})", p.out.trim_end().replace('\n', "; "))
            }
            ExprKind::VaArg(x, t) => format!("(va_arg {} ({}))", self.expr(x), self.type_name(t)),
            ExprKind::Offsetof(t, m) => {
                let mut s = String::new();
                for (i, c) in m.iter().enumerate() {
                    match c {
                        OffsetofMember::Field(n) => {
                            if i > 0 {
                                s.push('.');
                            }
                            s.push_str(self.name(n.name));
                        }
                        OffsetofMember::Index(e) => {
                            let _ = write!(s, "[{}]", self.expr(e));
                        }
                    }
                }
                format!("(offsetof ({}) {s})", self.type_name(t))
            }
            ExprKind::TypesCompatible(a, b) => {
                format!(
                    "(types_compatible ({}) ({}))",
                    self.type_name(a),
                    self.type_name(b)
                )
            }
            ExprKind::LabelAddr(n) => format!("(&& {})", self.name(n.name)),
        }
    }

    fn block_items(&mut self, b: &Block) {
        for item in &b.items {
            match item {
                BlockItem::Decl(d) => self.declaration(d),
                BlockItem::Stmt(s) => self.stmt(s),
                BlockItem::Pragma(p) => self.line(&format!("pragma {}", p.text)),
                BlockItem::LocalLabels(_, v) => {
                    let names: Vec<&str> = v.iter().map(|n| self.name(n.name)).collect();
                    self.line(&format!("__label__ {}", names.join(", ")));
                }
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Labeled(n, b) => {
                self.line(&format!("label {}:", self.name(n.name)));
                self.nested(|p| p.stmt(b));
            }
            StmtKind::Case(a, b, body) => {
                let l = match b {
                    Some(b) => format!("case {} ... {}:", self.expr(a), self.expr(b)),
                    None => format!("case {}:", self.expr(a)),
                };
                self.line(&l);
                self.nested(|p| p.stmt(body));
            }
            StmtKind::Default(b) => {
                self.line("default:");
                self.nested(|p| p.stmt(b));
            }
            StmtKind::Compound(b) => {
                self.line("{");
                self.nested(|p| p.block_items(b));
                self.line("}");
            }
            StmtKind::Expr(None) => self.line(";"),
            StmtKind::Expr(Some(e)) => {
                let t = format!("{};", self.expr(e));
                self.line(&t)
            }
            StmtKind::If(c, t, e) => {
                self.line(&format!("if {}", self.expr(c)));
                self.nested(|p| p.stmt(t));
                if let Some(e) = e {
                    self.line("else");
                    self.nested(|p| p.stmt(e));
                }
            }
            StmtKind::Switch(c, b) => {
                self.line(&format!("switch {}", self.expr(c)));
                self.nested(|p| p.stmt(b));
            }
            StmtKind::While(c, b) => {
                self.line(&format!("while {}", self.expr(c)));
                self.nested(|p| p.stmt(b));
            }
            StmtKind::DoWhile(b, c) => {
                self.line("do");
                self.nested(|p| p.stmt(b));
                self.line(&format!("while {}", self.expr(c)));
            }
            StmtKind::For(init, c, step, b) => {
                let i = match init {
                    ForInit::None => String::new(),
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => {
                        let mut p = Printer {
                            out: String::new(),
                            sy: self.sy,
                            depth: 0,
                        };
                        p.declaration(d);
                        p.out.trim_end().to_owned()
                    }
                };
                let c = c.as_ref().map_or(String::new(), |c| self.expr(c));
                let st = step.as_ref().map_or(String::new(), |c| self.expr(c));
                self.line(&format!("for ({i}; {c}; {st})"));
                self.nested(|p| p.stmt(b));
            }
            StmtKind::Goto(n) => self.line(&format!("goto {};", self.name(n.name))),
            StmtKind::GotoIndirect(e) => self.line(&format!("goto *{};", self.expr(e))),
            StmtKind::Continue => self.line("continue;"),
            StmtKind::Break => self.line("break;"),
            StmtKind::Return(e) => {
                let t = match e {
                    Some(e) => format!("return {};", self.expr(e)),
                    None => "return;".into(),
                };
                self.line(&t)
            }
            StmtKind::Asm(a) => {
                let t = self.asm(a);
                self.line(&t)
            }
            StmtKind::Omp(d) => self.omp(d),
        }
    }

    fn asm(&self, a: &AsmStmt) -> String {
        let q: Vec<&str> = a.qualifiers.iter().map(|n| self.name(n.name)).collect();
        let ops = |v: &[AsmOperand]| -> String {
            let parts: Vec<String> = v
                .iter()
                .map(|o| format!("{}({})", self.string(&o.constraint), self.expr(&o.expr)))
                .collect();
            parts.join(", ")
        };
        let clob: Vec<String> = a.clobbers.iter().map(|c| self.string(c)).collect();
        format!(
            "asm{}{} {} : {} : {} : {}",
            if q.is_empty() { "" } else { " " },
            q.join(" "),
            self.string(&a.template),
            ops(&a.outputs),
            ops(&a.inputs),
            clob.join(", ")
        )
    }

    fn omp(&mut self, d: &OmpDirective) {
        let mut s = format!("omp {}", d.kind);
        if !d.args.is_empty() {
            let a: Vec<String> = d.args.iter().map(|e| self.expr(e)).collect();
            let _ = write!(s, "({})", a.join(", "));
        }
        for c in &d.clauses {
            s.push(' ');
            s.push_str(&self.clause(c));
        }
        self.line(&s);
        if let Some(b) = &d.body {
            self.nested(|p| p.stmt(b));
        }
    }

    /// `iterator(name = begin:end[:step], ...)`, as the clause's first modifier.
    fn iterator_modifier(&self, it: &OmpIterated) -> String {
        let defs: Vec<String> = it
            .iterators
            .iter()
            .map(|d| {
                let step = d
                    .step
                    .as_ref()
                    .map_or(String::new(), |s| format!(":{}", self.expr(s)));
                format!(
                    "{} = {}:{}{step}",
                    self.name(d.name.name),
                    self.expr(&d.begin),
                    self.expr(&d.end)
                )
            })
            .collect();
        format!("iterator({})", defs.join(", "))
    }

    fn list(&self, v: &[Expr]) -> String {
        let parts: Vec<String> = v.iter().map(|e| self.expr(e)).collect();
        parts.join(", ")
    }

    fn clause(&self, c: &OmpClause) -> String {
        let n = c.name.as_str();
        match &c.kind {
            OmpClauseKind::Flag => n.to_owned(),
            OmpClauseKind::Expr(e) => match c.modifier {
                Some(m) => format!("{n}({}: {})", self.name(m.name), self.expr(e)),
                None => format!("{n}({})", self.expr(e)),
            },
            OmpClauseKind::List(v) => format!("{n}({})", self.list(v)),
            OmpClauseKind::Lastprivate { conditional, list } => {
                format!(
                    "{n}({}{})",
                    if *conditional { "conditional: " } else { "" },
                    self.list(list)
                )
            }
            OmpClauseKind::Default(k) => format!("{n}({})", format!("{k:?}").to_lowercase()),
            OmpClauseKind::Reduction {
                modifier, op, list, ..
            } => {
                let m = modifier.map_or(String::new(), |m| format!("{}, ", self.name(m.name)));
                let o = match op {
                    ReductionOp::Add => "+",
                    ReductionOp::Mul => "*",
                    ReductionOp::Sub => "-",
                    ReductionOp::BitAnd => "&",
                    ReductionOp::BitOr => "|",
                    ReductionOp::BitXor => "^",
                    ReductionOp::LogAnd => "&&",
                    ReductionOp::LogOr => "||",
                    ReductionOp::Min => "min",
                    ReductionOp::Max => "max",
                };
                format!("{n}({m}{o}: {})", self.list(list))
            }
            OmpClauseKind::UserReduction {
                modifier,
                name,
                list,
            } => {
                let m = modifier.map_or(String::new(), |m| format!("{}, ", self.name(m.name)));
                format!("{n}({m}{}: {})", self.name(name.name), self.list(list))
            }
            OmpClauseKind::Map {
                modifiers,
                map_type,
                list,
                iterated,
            } => {
                let mut head: Vec<String> = iterated
                    .iter()
                    .map(|it| self.iterator_modifier(it))
                    .collect();
                head.extend(modifiers.iter().map(|m| format!("{m:?}").to_lowercase()));
                if let Some(t) = map_type {
                    head.push(format!("{t:?}").to_lowercase());
                }
                let list = iterated.as_ref().map_or(list, |it| &it.list);
                if head.is_empty() {
                    format!("{n}({})", self.list(list))
                } else {
                    format!("{n}({}: {})", head.join(", "), self.list(list))
                }
            }
            OmpClauseKind::Motion {
                present,
                list,
                iterated,
            } => {
                let mut head: Vec<String> = iterated
                    .iter()
                    .map(|it| self.iterator_modifier(it))
                    .collect();
                if *present {
                    head.push("present".to_owned());
                }
                let list = iterated.as_ref().map_or(list, |it| &it.list);
                if head.is_empty() {
                    format!("{n}({})", self.list(list))
                } else {
                    format!("{n}({}: {})", head.join(", "), self.list(list))
                }
            }
            OmpClauseKind::Schedule {
                modifiers,
                kind,
                chunk,
            } => {
                let m: Vec<String> = modifiers
                    .iter()
                    .map(|m| format!("{m:?}").to_lowercase())
                    .collect();
                let m = if m.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", m.join(", "))
                };
                let ch = chunk
                    .as_ref()
                    .map_or(String::new(), |c| format!(", {}", self.expr(c)));
                format!("{n}({m}{}{ch})", format!("{kind:?}").to_lowercase())
            }
            OmpClauseKind::DistSchedule { chunk } => {
                let ch = chunk
                    .as_ref()
                    .map_or(String::new(), |c| format!(", {}", self.expr(c)));
                format!("{n}(static{ch})")
            }
            OmpClauseKind::If { modifier, cond } => {
                let m = modifier.map_or(String::new(), |m| format!("{m}: "));
                format!("{n}({m}{})", self.expr(cond))
            }
            OmpClauseKind::Depend {
                kind,
                list,
                iterated,
                all_memory,
            } => {
                let kind = format!("{kind:?}").to_lowercase();
                let mut items = self.list(list);
                if *all_memory {
                    items = if items.is_empty() {
                        "omp_all_memory".to_owned()
                    } else {
                        format!("omp_all_memory, {items}")
                    };
                }
                match iterated {
                    Some(it) => format!(
                        "{n}({}, {kind}: {})",
                        self.iterator_modifier(it),
                        self.list(&it.list)
                    ),
                    None => format!("{n}({kind}: {items})"),
                }
            }
            OmpClauseKind::Defaultmap { behavior, category } => {
                let c = category.map_or(String::new(), |c| {
                    format!(": {}", format!("{c:?}").to_lowercase())
                });
                format!("{n}({}{c})", format!("{behavior:?}").to_lowercase())
            }
            OmpClauseKind::Aligned { list, alignment } => {
                let a = alignment
                    .as_ref()
                    .map_or(String::new(), |a| format!(": {}", self.expr(a)));
                format!("{n}({}{a})", self.list(list))
            }
            OmpClauseKind::Linear { list, step } => {
                let a = step
                    .as_ref()
                    .map_or(String::new(), |a| format!(": {}", self.expr(a)));
                format!("{n}({}{a})", self.list(list))
            }
            OmpClauseKind::ProcBind(p) => format!("{n}({})", format!("{p:?}").to_lowercase()),
            OmpClauseKind::Order { modifier } => {
                let m = modifier.map_or(String::new(), |m| format!("{}: ", self.name(m.name)));
                format!("{n}({m}concurrent)")
            }
            OmpClauseKind::Keyword(k) => format!("{n}({})", self.name(k.name)),
            OmpClauseKind::IteratedList(it) => {
                format!(
                    "{n}({}: {})",
                    self.iterator_modifier(it),
                    self.list(&it.list)
                )
            }
        }
    }
}

fn qual(q: TypeQual) -> &'static str {
    match q {
        TypeQual::Const => "const",
        TypeQual::Restrict => "restrict",
        TypeQual::Volatile => "volatile",
        TypeQual::Atomic => "_Atomic",
    }
}

fn binop(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::Lt => "<",
        BinaryOp::Gt => ">",
        BinaryOp::Le => "<=",
        BinaryOp::Ge => ">=",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitXor => "^",
        BinaryOp::BitOr => "|",
        BinaryOp::LogAnd => "&&",
        BinaryOp::LogOr => "||",
    }
}
