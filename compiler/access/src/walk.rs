//! A read-only pre-order walk over a function body: every evaluated expression, every
//! declarator (with its initializer) and every array-size expression of a declarator or type
//! name. OpenMP clauses are not visited (their list items are not evaluated as written).
//! The pre-scan uses it to find writes, taken addresses and calls before the main walk.

use ompcc_syntax::ast::*;

/// One node the walk visits.
#[derive(Clone, Copy)]
pub enum Node<'a> {
    /// An expression (its subexpressions follow).
    Expr(&'a Expr),
    /// A declarator with its initializer.
    Decl(&'a Declarator, Option<&'a Initializer>),
    /// An output operand of an `asm` statement (written by it); the expression follows.
    AsmOutput(&'a Expr),
}

/// Calls `f` on every node of `b`.
pub fn block<'a>(b: &'a Block, f: &mut dyn FnMut(Node<'a>)) {
    for item in &b.items {
        match item {
            BlockItem::Decl(d) => decl(d, f),
            BlockItem::Stmt(s) => stmt(s, f),
            BlockItem::Pragma(_) | BlockItem::LocalLabels(..) => {}
        }
    }
}

/// Calls `f` on every node of a declaration.
pub fn decl<'a>(d: &'a Declaration, f: &mut dyn FnMut(Node<'a>)) {
    if let DeclarationKind::Vars { declarators, .. } = &d.kind {
        for id in declarators {
            declarator(&id.declarator, f);
            f(Node::Decl(&id.declarator, id.init.as_ref()));
            if let Some(init) = &id.init {
                initializer(init, f);
            }
        }
    }
}

/// Calls `f` on the array sizes inside a declarator (parameters included).
pub fn declarator<'a>(d: &'a Declarator, f: &mut dyn FnMut(Node<'a>)) {
    for layer in &d.derived {
        match layer {
            Derived::Array {
                size: ArraySize::Expr(e),
                ..
            } => expr(e, f),
            Derived::Function { params, .. } => {
                for p in params {
                    if let Some(pd) = &p.declarator {
                        declarator(pd, f);
                        f(Node::Decl(pd, None));
                    }
                }
            }
            _ => {}
        }
    }
}

fn initializer<'a>(i: &'a Initializer, f: &mut dyn FnMut(Node<'a>)) {
    match i {
        Initializer::Expr(e) => expr(e, f),
        Initializer::List(l) => {
            for item in &l.items {
                initializer(&item.init, f);
            }
        }
    }
}

/// Calls `f` on every node of `s`.
pub fn stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(Node<'a>)) {
    match &s.kind {
        StmtKind::Labeled(_, x) | StmtKind::Default(x) => stmt(x, f),
        StmtKind::Case(_, _, x) => stmt(x, f),
        StmtKind::Compound(b) => block(b, f),
        StmtKind::Expr(e) => {
            if let Some(e) = e {
                expr(e, f);
            }
        }
        StmtKind::If(c, t, e) => {
            expr(c, f);
            stmt(t, f);
            if let Some(e) = e {
                stmt(e, f);
            }
        }
        StmtKind::Switch(c, b) | StmtKind::While(c, b) => {
            expr(c, f);
            stmt(b, f);
        }
        StmtKind::DoWhile(b, c) => {
            stmt(b, f);
            expr(c, f);
        }
        StmtKind::For(init, cond, step, body) => {
            match init {
                ForInit::None => {}
                ForInit::Expr(e) => expr(e, f),
                ForInit::Decl(d) => decl(d, f),
            }
            for e in [cond, step].into_iter().flatten() {
                expr(e, f);
            }
            stmt(body, f);
        }
        StmtKind::Return(e) => {
            if let Some(e) = e {
                expr(e, f);
            }
        }
        StmtKind::GotoIndirect(e) => expr(e, f),
        StmtKind::Asm(a) => {
            for op in &a.outputs {
                f(Node::AsmOutput(&op.expr));
            }
            for op in a.outputs.iter().chain(&a.inputs) {
                expr(&op.expr, f);
            }
        }
        StmtKind::Omp(d) => {
            if let Some(b) = &d.body {
                stmt(b, f);
            }
        }
        StmtKind::Goto(_) | StmtKind::Continue | StmtKind::Break => {}
    }
}

/// Calls `f` on every node of `e`.
pub fn expr<'a>(e: &'a Expr, f: &mut dyn FnMut(Node<'a>)) {
    f(Node::Expr(e));
    match &e.kind {
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::VaArg(x, _) => expr(x, f),
        ExprKind::Cast(t, x) => {
            if let Some(d) = &t.declarator {
                declarator(d, f);
            }
            expr(x, f);
        }
        ExprKind::Generic(c, assocs) => {
            expr(c, f);
            for a in assocs {
                expr(&a.expr, f);
            }
        }
        ExprKind::Index(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b) => {
            expr(a, f);
            expr(b, f);
        }
        ExprKind::Call(c, args) => {
            expr(c, f);
            for a in args {
                expr(a, f);
            }
        }
        ExprKind::Member { base, .. } => expr(base, f),
        ExprKind::Cond(c, t, e2) => {
            expr(c, f);
            if let Some(t) = t {
                expr(t, f);
            }
            expr(e2, f);
        }
        ExprKind::CompoundLiteral(_, l) => {
            for item in &l.items {
                initializer(&item.init, f);
            }
        }
        ExprKind::StmtExpr(b) => block(b, f),
        ExprKind::ArraySection {
            base,
            lower,
            length,
            stride,
        } => {
            expr(base, f);
            for x in [lower, length, stride].into_iter().flatten() {
                expr(x, f);
            }
        }
        // unevaluated operands and leaves
        ExprKind::SizeofExpr(_)
        | ExprKind::AlignofExpr(_)
        | ExprKind::SizeofType(_)
        | ExprKind::AlignofType(_)
        | ExprKind::Offsetof(..)
        | ExprKind::TypesCompatible(..)
        | ExprKind::Ident(_)
        | ExprKind::Int { .. }
        | ExprKind::Float { .. }
        | ExprKind::Char { .. }
        | ExprKind::Str(_)
        | ExprKind::LabelAddr(_) => {}
    }
}

/// An integer expression as a symbolic one (clauses, subscripts): constants, integer
/// variables, `+ - *`, division and shifts left by constants, integer casts; else `None`.
pub fn int_sym(typed: &ompcc_sema::TypedUnit, e: &Expr) -> Option<crate::SymExpr> {
    use crate::SymExpr;
    if let Some(ompcc_sema::consteval::ConstValue::Int(c)) = ompcc_sema::fold(typed, e) {
        return i64::try_from(c.value).ok().map(SymExpr::int);
    }
    match &e.kind {
        ExprKind::Paren(x) | ExprKind::Unary(UnaryOp::Plus, x) | ExprKind::Cast(_, x) => {
            int_sym(typed, x)
        }
        ExprKind::Unary(UnaryOp::Minus, x) => int_sym(typed, x)?.neg(),
        ExprKind::Ident(_) => {
            let v = *typed.ident_symbols.get(&e.id)?;
            let ty = typed.symbols[v].ty;
            typed.types.is_integer(ty).then(|| SymExpr::var(v))
        }
        ExprKind::Binary(op, l, r) => {
            let (a, c) = (int_sym(typed, l)?, int_sym(typed, r)?);
            match op {
                BinaryOp::Add => a.add(&c),
                BinaryOp::Sub => a.sub(&c),
                BinaryOp::Mul => a.mul(&c),
                BinaryOp::Div => a.div(c.as_const()?),
                BinaryOp::Shl => a.scale(1i64.checked_shl(u32::try_from(c.as_const()?).ok()?)?),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `e` without enclosing parentheses.
pub fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}
