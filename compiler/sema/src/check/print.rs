//! `--emit=ast` with types: a readable dump of what the checker found. Every declared name
//! with its type and linkage, every expression (as its source text) with its type, value
//! category and the conversion its context applies, indented by nesting.
//!
//! The dump is for people and snapshot tests; nothing parses it back.

use super::{Linkage, TypedUnit, ValueKind};
use ompcc_syntax::ast::{
    BlockItem, Declaration, DeclarationKind, Declarator, Expr, ExprKind, ExternalDecl, ForInit,
    InitList, Initializer, OmpClauseKind, OmpDirective, Stmt, StmtKind, TranslationUnit,
};
use std::fmt::Write;

struct Printer<'a> {
    unit: &'a TypedUnit,
    src: &'a str,
    out: String,
}

/// Prints the typed tree of `tu` (checked into `unit`); `src` is the text that was parsed.
pub fn print_typed(tu: &TranslationUnit, unit: &TypedUnit, src: &str) -> String {
    let mut p = Printer {
        unit,
        src,
        out: String::new(),
    };
    for item in &tu.items {
        match item {
            ExternalDecl::Function(f) => {
                p.declarator(&f.declarator, 0, "function");
                p.block(&f.body.items, 1);
            }
            ExternalDecl::Decl(d) => p.declaration(d, 0),
            ExternalDecl::Omp(d) => p.omp(d, 0),
            _ => {}
        }
    }
    p.out
}

impl Printer<'_> {
    fn text(&self, e: &Expr) -> String {
        let t = self.src.get(e.span.range()).unwrap_or("?");
        // drop line markers the preprocessor left inside the expression
        let t: String = t
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ");
        if t.chars().count() > 48 {
            let cut: String = t.chars().take(45).collect();
            format!("{cut}...")
        } else {
            t
        }
    }

    fn declarator(&mut self, d: &Declarator, depth: usize, what: &str) {
        let Some(sym) = self.unit.decl_symbol(d.id) else {
            return;
        };
        let s = &self.unit.symbols[sym];
        let link = match s.linkage {
            Linkage::None => "",
            Linkage::Internal => " internal",
            Linkage::External => " external",
        };
        let _ = writeln!(
            self.out,
            "{:indent$}{what} {} : {}{link}",
            "",
            s.name,
            self.unit.types.display(s.ty),
            indent = depth * 2
        );
    }

    fn declaration(&mut self, d: &Declaration, depth: usize) {
        match &d.kind {
            DeclarationKind::StaticAssert(sa) => self.expr(&sa.cond, depth),
            DeclarationKind::Vars { declarators, .. } => {
                for id in declarators {
                    self.declarator(&id.declarator, depth, "decl");
                    if let Some(init) = &id.init {
                        self.init(init, depth + 1);
                        self.init_entries(super::InitKey::Decl(id.declarator.id), depth + 1);
                    }
                }
            }
        }
    }

    /// The flattened stores of an initializer: bit offset, subobject type, expression.
    fn init_entries(&mut self, key: super::InitKey, depth: usize) {
        let Some(entries) = self.unit.inits.get(&key) else {
            return;
        };
        for e in entries {
            let w = e.bit_width.map(|w| format!(":{w}")).unwrap_or_default();
            let _ = writeln!(
                self.out,
                "{:indent$}store @{}{w} {} <- expr#{}",
                "",
                e.bit_offset,
                self.unit.types.display(e.ty),
                e.expr.0,
                indent = depth * 2
            );
        }
    }

    fn init(&mut self, i: &Initializer, depth: usize) {
        match i {
            Initializer::Expr(e) => self.expr(e, depth),
            Initializer::List(l) => self.init_list(l, depth),
        }
    }

    fn init_list(&mut self, l: &InitList, depth: usize) {
        for item in &l.items {
            self.init(&item.init, depth);
        }
    }

    fn expr(&mut self, e: &Expr, depth: usize) {
        let line = match self.unit.expr(e.id) {
            Some(info) => {
                let mut s = format!("`{}` : {}", self.text(e), self.unit.types.display(info.ty));
                match info.kind {
                    ValueKind::LValue => s.push_str(" lvalue"),
                    ValueKind::Function => s.push_str(" function"),
                    ValueKind::RValue => {}
                }
                if let Some(w) = info.bitfield {
                    let _ = write!(s, " bitfield:{w}");
                }
                let plain = self.unit.types.canon(info.ty).unqual();
                if info.conv != info.ty && info.conv != plain {
                    let _ = write!(s, " -> {}", self.unit.types.display(info.conv));
                }
                if let Some(v) = self.unit.consts.get(&e.id) {
                    let _ = write!(s, " = {}", const_text(v));
                }
                s
            }
            None => format!("`{}` : <error>", self.text(e)),
        };
        let _ = writeln!(self.out, "{:indent$}{line}", "", indent = depth * 2);
        let d = depth + 1;
        match &e.kind {
            ExprKind::Paren(x)
            | ExprKind::Unary(_, x)
            | ExprKind::SizeofExpr(x)
            | ExprKind::AlignofExpr(x)
            | ExprKind::Cast(_, x)
            | ExprKind::VaArg(x, _) => self.expr(x, d),
            ExprKind::Member { base, .. } => self.expr(base, d),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                self.expr(a, d);
                self.expr(b, d);
            }
            ExprKind::ArraySection {
                base,
                lower,
                length,
                stride,
            } => {
                self.expr(base, d);
                for x in [lower, length, stride].into_iter().flatten() {
                    self.expr(x, d);
                }
            }
            ExprKind::Call(f, args) => {
                self.expr(f, d);
                for a in args {
                    self.expr(a, d);
                }
            }
            ExprKind::Cond(c, t, f) => {
                self.expr(c, d);
                if let Some(t) = t {
                    self.expr(t, d);
                }
                self.expr(f, d);
            }
            ExprKind::Generic(c, assocs) => {
                self.expr(c, d);
                for a in assocs {
                    self.expr(&a.expr, d);
                }
            }
            ExprKind::CompoundLiteral(_, l) => {
                self.init_list(l, d);
                self.init_entries(super::InitKey::CompoundLiteral(e.id), d);
            }
            ExprKind::StmtExpr(b) => self.block(&b.items, d),
            _ => {}
        }
    }

    fn block(&mut self, items: &[BlockItem], depth: usize) {
        for item in items {
            match item {
                BlockItem::Decl(d) => self.declaration(d, depth),
                BlockItem::Stmt(s) => self.stmt(s, depth),
                _ => {}
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        match &s.kind {
            StmtKind::Labeled(_, b) | StmtKind::Default(b) => self.stmt(b, depth),
            StmtKind::Case(lo, hi, b) => {
                self.expr(lo, depth);
                if let Some(h) = hi {
                    self.expr(h, depth);
                }
                self.stmt(b, depth);
            }
            StmtKind::Compound(b) => self.block(&b.items, depth),
            StmtKind::Expr(Some(e)) | StmtKind::Return(Some(e)) | StmtKind::GotoIndirect(e) => {
                self.expr(e, depth)
            }
            StmtKind::If(c, t, f) => {
                self.expr(c, depth);
                self.stmt(t, depth + 1);
                if let Some(f) = f {
                    self.stmt(f, depth + 1);
                }
            }
            StmtKind::Switch(c, b) | StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.expr(c, depth);
                self.stmt(b, depth + 1);
            }
            StmtKind::For(init, c, st, b) => {
                match init {
                    ForInit::Expr(e) => self.expr(e, depth),
                    ForInit::Decl(d) => self.declaration(d, depth),
                    ForInit::None => {}
                }
                for x in [c, st].into_iter().flatten() {
                    self.expr(x, depth);
                }
                self.stmt(b, depth + 1);
            }
            StmtKind::Omp(d) => self.omp(d, depth),
            _ => {}
        }
    }

    fn omp(&mut self, d: &OmpDirective, depth: usize) {
        let _ = writeln!(
            self.out,
            "{:indent$}#pragma omp {}",
            "",
            d.kind,
            indent = depth * 2
        );
        for c in &d.clauses {
            let exprs: Vec<&Expr> = match &c.kind {
                OmpClauseKind::Expr(e) => vec![e],
                OmpClauseKind::List(l)
                | OmpClauseKind::Lastprivate { list: l, .. }
                | OmpClauseKind::Reduction { list: l, .. }
                | OmpClauseKind::UserReduction { list: l, .. }
                | OmpClauseKind::Map { list: l, .. }
                | OmpClauseKind::Motion { list: l, .. }
                | OmpClauseKind::Depend { list: l, .. }
                | OmpClauseKind::Aligned { list: l, .. }
                | OmpClauseKind::Linear { list: l, .. } => l.iter().collect(),
                OmpClauseKind::If { cond, .. } => vec![cond],
                _ => vec![],
            };
            for e in exprs {
                self.expr(e, depth + 1);
            }
        }
        if let Some(b) = &d.body {
            self.stmt(b, depth + 1);
        }
    }
}

fn const_text(v: &crate::consteval::ConstValue) -> String {
    match v {
        crate::consteval::ConstValue::Int(i) => {
            if i.kind.is_signed() {
                i.value.to_string()
            } else {
                i.as_u128().to_string()
            }
        }
        crate::consteval::ConstValue::Float(f) => f.value.to_string(),
    }
}
