//! Lowering of `#pragma omp atomic` (OpenMP 5.2 section 15.8.4) in all its forms: `read`
//! (`v = x`), `write` (`x = e`), `update` (`x++`, `x op= e`, `x = x op e`, `x = e op x`),
//! `capture` (`v = <update>`, the two-statement blocks, swap `{v = x; x = e;}`) and `compare`
//! (`x = e < x ? e : x`, `if (x > e) x = e;`, `x = x == e ? d : x`, `if (x == e) x = d;`,
//! with `capture` also `{v = x; <cond>}`, `{<cond> v = x;}`, `if (x == e) x = d; else v = x;`
//! and `{r = x == e; if (r) x = d; [else v = x;]}`).
//!
//! Invariants:
//! - a statement is first parsed into a [`Form`] (which object, which update, which value
//!   each capture receives), then lowered; a statement that fits no form is an `E0803`;
//! - every operand other than `x` (`e`, `d`) is evaluated exactly once, before `x` is read;
//! - `x` is read and written only by atomic instructions (volatile loads/stores for `read`
//!   and `write`), except thread-private (local-space) objects, which no other thread sees;
//! - results are those of the statement as written, in C's types (a compare of floats is
//!   false on NaN and true for `-0.0 == 0.0`): a native `atom.*` is used only where it gives
//!   exactly that result (add/and/or/xor/min/max/cas/exch of the object's own type, float
//!   add), a compare-and-swap loop over the object's bits otherwise;
//! - memory-order clauses become fences (`seq_cst`: before and after, `release`/`acq_rel`:
//!   before, `acquire`/`acq_rel`: after). `weak` and `fail(...)` need nothing more: a strong
//!   compare-and-swap ordered on both outcomes implements them. Without a memory-order
//!   clause the unit's `requires atomic_default_mem_order(...)` decides ([`default_fences`]),
//!   else the order is `relaxed`.

use crate::expr::{Lv, strip_parens};
use crate::func::{Addr, FnLower};
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, AtomicRmwOp, IntCC, MemFlags, Scope, Type, Value};
use ompcc_sema::types::{QualType, Quals};
use ompcc_syntax::ast::{
    BinaryOp, BlockItem, Expr, ExprKind, OmpClauseName as C, OmpDirective, Stmt, StmtKind, UnaryOp,
};

/// What an atomic statement does to `x`.
#[derive(Clone, Copy, Debug)]
enum Update<'a> {
    /// `x++`, `x op= e`, `x = x op e`, `x = e op x` (`e` is `None` for `++`/`--`); `whole`
    /// is the expression whose recorded type is the computation type.
    Arith {
        op: BinaryOp,
        e: Option<&'a Expr>,
        x_right: bool,
        whole: &'a Expr,
    },
    /// `x = e`
    Write(&'a Expr),
    /// `if (cmp) x = d;` or `x = cmp ? d : x`, where `cmp` compares `x` with `e` by `op`
    /// (`<`, `>` or `==`; `x_left` when `x` is its left operand).
    Cond {
        op: BinaryOp,
        e: &'a Expr,
        x_left: bool,
        d: &'a Expr,
    },
}

/// Which value of `x` a capture stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    /// The value before the operation.
    Old,
    /// The value after it.
    New,
    /// The value before it, stored only when the comparison failed.
    OldOnFail,
}

/// A parsed atomic statement.
#[derive(Clone, Copy, Debug)]
struct Form<'a> {
    x: &'a Expr,
    upd: Update<'a>,
    /// `v` and the value it receives.
    v: Option<(&'a Expr, When)>,
    /// `r` of `r = x == e`: receives the comparison's result.
    r: Option<&'a Expr>,
}

/// The update with its operands evaluated: what the new value of `x` is, given the old one.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// `old op e` (or `e op old`) computed in class `ccls`; `e` is in class `rc`.
    Arith {
        op: BinaryOp,
        ccls: Scalar,
        e: Option<(Value, Scalar)>,
        x_right: bool,
    },
    /// Store this value (in `x`'s class).
    Write(Value),
    /// `d` when `old op e` (or `e op old`) holds in class `cmp`, else unchanged.
    Cond {
        op: BinaryOp,
        cmp: Scalar,
        e: Value,
        x_left: bool,
        d: Value,
    },
}

/// A native instruction that performs the whole update.
#[derive(Clone, Copy, Debug)]
enum Native {
    Rmw(AtomicRmwOp, Value),
    /// `atom.cas` expecting the value, storing the other (both in `x`'s class).
    Cas(Value, Value),
}

/// The object an atomic statement updates.
#[derive(Clone, Copy, Debug)]
struct Target {
    addr: Addr,
    cls: Scalar,
}

/// What an atomic update did: `x`'s value before and after, and for conditional updates
/// whether the comparison held (`new` is then already `old` when it did not).
#[derive(Clone, Copy, Debug)]
struct Outcome {
    old: Value,
    new: Value,
    cond: Option<Value>,
}

/// `e` as an expression statement's expression: `e;` or `{ e; }`.
fn stmt_expr(s: &Stmt) -> Option<&Expr> {
    match &s.kind {
        StmtKind::Expr(Some(e)) => Some(strip_parens(e)),
        StmtKind::Compound(b) => match b.items.as_slice() {
            [BlockItem::Stmt(s)] => stmt_expr(s),
            _ => None,
        },
        _ => None,
    }
}

/// The statements of a `{ ... }` block holding only statements.
fn block_stmts(s: &Stmt) -> Option<Vec<&Stmt>> {
    let StmtKind::Compound(b) = &s.kind else {
        return None;
    };
    b.items
        .iter()
        .map(|i| match i {
            BlockItem::Stmt(s) => Some(s),
            _ => None,
        })
        .collect()
}

/// The binary operators of `x op= e` and `x = x op e`.
fn arith_op(op: BinaryOp) -> bool {
    use BinaryOp as B;
    matches!(
        op,
        B::Add | B::Sub | B::Mul | B::Div | B::BitAnd | B::BitOr | B::BitXor | B::Shl | B::Shr
    )
}

/// Whether two expressions are the same side-effect-free expression (names resolve to the
/// same objects): `x` of `x = x + 1`, `e` of `x = e < x ? e : x`.
fn same_expr(typed: &ompcc_sema::TypedUnit, a: &Expr, b: &Expr) -> bool {
    let (a, b) = (strip_parens(a), strip_parens(b));
    let same = |x: &Expr, y: &Expr| same_expr(typed, x, y);
    match (&a.kind, &b.kind) {
        (ExprKind::Ident(_), ExprKind::Ident(_)) => {
            typed.ident_symbols.contains_key(&a.id)
                && typed.ident_symbols.get(&a.id) == typed.ident_symbols.get(&b.id)
        }
        (ExprKind::Int { value: x, .. }, ExprKind::Int { value: y, .. }) => {
            x == y && typed.expr(a.id).map(|i| i.ty) == typed.expr(b.id).map(|i| i.ty)
        }
        (ExprKind::Float { value: x, .. }, ExprKind::Float { value: y, .. }) => {
            x.to_bits() == y.to_bits()
                && typed.expr(a.id).map(|i| i.ty) == typed.expr(b.id).map(|i| i.ty)
        }
        (ExprKind::Char { value: x, .. }, ExprKind::Char { value: y, .. }) => x == y,
        (ExprKind::Index(a1, a2), ExprKind::Index(b1, b2)) => same(a1, b1) && same(a2, b2),
        (
            ExprKind::Member {
                base: ab,
                name: an,
                arrow: aa,
            },
            ExprKind::Member {
                base: bb,
                name: bn,
                arrow: ba,
            },
        ) => an.name == bn.name && aa == ba && same(ab, bb),
        (ExprKind::Unary(oa, x), ExprKind::Unary(ob, y)) => {
            oa == ob
                && !matches!(
                    oa,
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                )
                && same(x, y)
        }
        (ExprKind::Binary(oa, a1, a2), ExprKind::Binary(ob, b1, b2)) => {
            oa == ob && same(a1, b1) && same(a2, b2)
        }
        (ExprKind::Cast(_, x), ExprKind::Cast(_, y)) => {
            typed.expr(a.id).map(|i| i.ty) == typed.expr(b.id).map(|i| i.ty) && same(x, y)
        }
        _ => false,
    }
}

/// The fences (before, after) of an `atomic` without a memory-order clause in a unit whose
/// `requires atomic_default_mem_order(order)` names `order` (OpenMP 5.2 section 15.8.4):
/// `seq_cst` both; `acq_rel` as `acquire` for a read, `release` for a write or an update
/// without capture, `acq_rel` for a capture; `acquire` and `release` as themselves where the
/// construct reads or writes `x` (a `write` reads nothing, a `read` writes nothing);
/// `relaxed`, or no default, none.
fn default_fences(order: Option<&str>, read: bool, write: bool, capture: bool) -> (bool, bool) {
    match order {
        Some("seq_cst") => (true, true),
        Some("acq_rel") if read => (false, true),
        Some("acq_rel") if capture => (true, true),
        Some("acq_rel") => (true, false),
        Some("acquire") => (false, !write),
        Some("release") => (!read, false),
        _ => (false, false),
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    /// The argument of the unit's `requires atomic_default_mem_order(...)`, if any.
    fn default_mem_order(&self) -> Option<&'a str> {
        let tu = self.cx.tu;
        tu.items.iter().find_map(|item| {
            let ompcc_syntax::ast::ExternalDecl::Omp(d) = item else {
                return None;
            };
            d.clauses.iter().find_map(|c| match &c.kind {
                ompcc_syntax::ast::OmpClauseKind::Keyword(k)
                    if c.name == C::AtomicDefaultMemOrder =>
                {
                    Some(tu.symbols.resolve(k.name))
                }
                _ => None,
            })
        })
    }

    /// `#pragma omp atomic ...` with its statement.
    pub fn omp_atomic(&mut self, d: &'a OmpDirective) {
        let has = |n: C| d.clauses.iter().any(|c| c.name == n);
        let Some(body) = d.body.as_deref() else {
            self.unsupported("'#pragma omp atomic' needs a statement", d.span);
            return;
        };
        let explicit = [C::SeqCst, C::AcqRel, C::Release, C::Acquire, C::Relaxed]
            .into_iter()
            .any(has);
        let (before, after) = if explicit {
            (
                has(C::SeqCst) || has(C::AcqRel) || has(C::Release),
                has(C::SeqCst) || has(C::AcqRel) || has(C::Acquire),
            )
        } else {
            default_fences(
                self.default_mem_order(),
                has(C::Read),
                has(C::Write),
                has(C::Capture),
            )
        };
        if before {
            self.b.ins().fence(Scope::Gpu);
        }
        if has(C::Read) || has(C::Write) {
            self.atomic_read_write(has(C::Read), body, d.span);
        } else {
            let form = self.atomic_form(body, has(C::Capture), has(C::Compare));
            match form {
                Some(f) => self.atomic_update(f, body.span),
                None => {
                    let what = if has(C::Compare) {
                        "compare"
                    } else if has(C::Capture) {
                        "capture"
                    } else {
                        "update"
                    };
                    self.unsupported(
                        format!(
                            "the statement of '#pragma omp atomic {what}' has none of the forms OpenMP allows"
                        ),
                        body.span,
                    );
                    return;
                }
            }
        }
        if after {
            self.b.ins().fence(Scope::Gpu);
        }
    }

    /// `v = x` (`read`) or `x = e` (`write`): one volatile access of `x` (single-copy atomic
    /// for naturally aligned scalars on the GPU).
    fn atomic_read_write(&mut self, read: bool, body: &'a Stmt, span: Span) {
        let Some(ExprKind::Assign(None, l, r)) = stmt_expr(body).map(|e| &e.kind) else {
            self.unsupported(
                "expected 'v = x' or 'x = expr' after 'omp atomic read/write'",
                span,
            );
            return;
        };
        let shared = if read { &**r } else { &**l };
        let Some(Lv::Mem(addr, qt)) = self.lvalue(shared) else {
            self.unsupported("atomic operand must be a scalar object", shared.span);
            return;
        };
        let vq = qt.with(Quals::VOLATILE);
        if read {
            let Some(cls) = self.class(qt, r.span) else {
                return;
            };
            let v = self.load_lv(&Lv::Mem(addr, vq));
            self.store_to(l, v, cls);
        } else if let Some(v) = self.scalar(r) {
            self.store_lv(&Lv::Mem(addr, vq), v);
        }
    }

    /// Stores `val` (of class `cls`) into the lvalue `v`, converted to its type.
    fn store_to(&mut self, v: &'a Expr, val: Value, cls: Scalar) {
        let Some(vi) = self.info(v) else { return };
        let Some(to) = self.class(vi.ty, v.span) else {
            return;
        };
        let val = self.convert(val, cls, to);
        if let Some(lv) = self.lvalue(v) {
            self.store_lv(&lv, val);
        }
    }

    // ----- parsing the forms -----

    /// The form of an `update`, `capture` or `compare` statement; `None` when it has none.
    fn atomic_form(&self, body: &'a Stmt, capture: bool, compare: bool) -> Option<Form<'a>> {
        if let Some(e) = stmt_expr(body) {
            // `v = <update>`: the new value (the old one for `x++`, `x--`)
            if capture
                && let ExprKind::Assign(None, v, u) = &e.kind
                && let u = strip_parens(u)
                && let Some((x, upd)) = self.parse_update(u, compare)
            {
                let when = match u.kind {
                    ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PostDec, _) => When::Old,
                    _ => When::New,
                };
                return Some(Form {
                    x,
                    upd,
                    v: Some((v, when)),
                    r: None,
                });
            }
            let (x, upd) = self.parse_update(e, compare)?;
            return Some(Form {
                x,
                upd,
                v: None,
                r: None,
            });
        }
        if let StmtKind::If(..) = body.kind {
            return self.parse_if(body, compare, capture);
        }
        let stmts = block_stmts(body)?;
        let [a, b] = stmts.as_slice() else {
            return None;
        };
        if !capture {
            return None;
        }
        // `{v = x; <update>}`
        if let Some(Form {
            x, upd, v: None, ..
        }) = self.atomic_form(b, false, compare)
            && let Some(v) = self.read_of(a, x)
        {
            return Some(Form {
                x,
                upd,
                v: Some((v, When::Old)),
                r: None,
            });
        }
        // `{<update> v = x;}`
        if let Some(Form {
            x, upd, v: None, ..
        }) = self.atomic_form(a, false, compare)
            && let Some(v) = self.read_of(b, x)
        {
            return Some(Form {
                x,
                upd,
                v: Some((v, When::New)),
                r: None,
            });
        }
        // `{r = x == e; if (r) x = d; [else v = x;]}`
        let ExprKind::Assign(None, r, c) = &stmt_expr(a)?.kind else {
            return None;
        };
        let StmtKind::If(rc, then, els) = &b.kind else {
            return None;
        };
        if !compare || !same_expr(self.cx.typed, rc, r) {
            return None;
        }
        let upd = self.parse_cond(c, stmt_expr(then)?)?;
        let v = match els {
            Some(s) => Some((self.read_of(s, upd.0)?, When::OldOnFail)),
            None => None,
        };
        if !matches!(
            upd.1,
            Update::Cond {
                op: BinaryOp::Eq,
                ..
            }
        ) {
            return None;
        }
        Some(Form {
            x: upd.0,
            upd: upd.1,
            v,
            r: Some(r),
        })
    }

    /// `v` of a statement `v = x`.
    fn read_of(&self, s: &'a Stmt, x: &'a Expr) -> Option<&'a Expr> {
        match &stmt_expr(s)?.kind {
            ExprKind::Assign(None, v, y) if same_expr(self.cx.typed, x, y) => Some(v),
            _ => None,
        }
    }

    /// `if (cmp) x = d;`, with `capture` also `if (x == e) x = d; else v = x;`.
    fn parse_if(&self, s: &'a Stmt, compare: bool, capture: bool) -> Option<Form<'a>> {
        let StmtKind::If(c, then, els) = &s.kind else {
            return None;
        };
        if !compare {
            return None;
        }
        let (x, upd) = self.parse_cond(c, stmt_expr(then)?)?;
        let v = match els {
            None => None,
            Some(e)
                if capture
                    && matches!(
                        upd,
                        Update::Cond {
                            op: BinaryOp::Eq,
                            ..
                        }
                    ) =>
            {
                Some((self.read_of(e, x)?, When::OldOnFail))
            }
            Some(_) => return None,
        };
        Some(Form { x, upd, v, r: None })
    }

    /// The conditional update `if (c) assign`, where `assign` is `x = d`.
    fn parse_cond(&self, c: &'a Expr, assign: &'a Expr) -> Option<(&'a Expr, Update<'a>)> {
        let ExprKind::Assign(None, x, d) = &assign.kind else {
            return None;
        };
        self.parse_cond_expr(c, x, d)
    }

    /// `x++`, `x op= e`, `x = x op e`, `x = e op x`, `x = e`; with `compare` also
    /// `x = cmp ? e : x`.
    fn parse_update(&self, e: &'a Expr, compare: bool) -> Option<(&'a Expr, Update<'a>)> {
        let typed = self.cx.typed;
        let arith = |op, e, x_right, whole| Update::Arith {
            op,
            e,
            x_right,
            whole,
        };
        Some(match &e.kind {
            ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) => {
                (&**x, arith(BinaryOp::Add, None, false, e))
            }
            ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, x) => {
                (&**x, arith(BinaryOp::Sub, None, false, e))
            }
            ExprKind::Assign(Some(op), x, r) if arith_op(*op) => {
                (&**x, arith(*op, Some(&**r), false, e))
            }
            ExprKind::Assign(None, x, r) => {
                let rhs = strip_parens(r);
                match &rhs.kind {
                    ExprKind::Binary(op, a, b) if arith_op(*op) && same_expr(typed, x, a) => {
                        (&**x, arith(*op, Some(&**b), false, rhs))
                    }
                    ExprKind::Binary(op, a, b) if arith_op(*op) && same_expr(typed, x, b) => {
                        (&**x, arith(*op, Some(&**a), true, rhs))
                    }
                    ExprKind::Cond(c, Some(t), f) if compare && same_expr(typed, x, f) => {
                        // `x = c ? d : x` is `if (c) x = d;`
                        self.parse_cond_expr(c, x, t)?
                    }
                    _ if compare => return None,
                    _ => (&**x, Update::Write(r)),
                }
            }
            _ => return None,
        })
    }

    /// `if (c) x = d;` / `x = c ? d : x`: `c` compares `x` with `e` by `<` or `>` (then `d`
    /// must be `e`: a min or max) or by `==` (then `d` is any value).
    fn parse_cond_expr(
        &self,
        c: &'a Expr,
        x: &'a Expr,
        d: &'a Expr,
    ) -> Option<(&'a Expr, Update<'a>)> {
        let typed = self.cx.typed;
        let ExprKind::Binary(op, l, r) = &strip_parens(c).kind else {
            return None;
        };
        let (e, x_left) = if same_expr(typed, x, l) {
            (&**r, true)
        } else if same_expr(typed, x, r) {
            (&**l, false)
        } else {
            return None;
        };
        let ok = match op {
            BinaryOp::Lt | BinaryOp::Gt => same_expr(typed, e, d),
            BinaryOp::Eq => true,
            _ => false,
        };
        ok.then_some((
            x,
            Update::Cond {
                op: *op,
                e,
                x_left,
                d,
            },
        ))
    }

    // ----- lowering -----

    /// Lowers a parsed update/capture/compare statement.
    fn atomic_update(&mut self, f: Form<'a>, span: Span) {
        let Some(xi) = self.info(f.x) else { return };
        let Some(cls) = self.class(xi.ty, f.x.span) else {
            return;
        };
        if !matches!(
            cls,
            Scalar::Int(Type::I32 | Type::I64, _) | Scalar::Float(_)
        ) {
            self.unsupported(
                "an atomic update on the device needs a 4- or 8-byte integer, float or double object",
                f.x.span,
            );
            return;
        }
        let Some(Lv::Mem(addr, _)) = self.lvalue(f.x) else {
            self.unsupported("atomic operand must be a scalar object", f.x.span);
            return;
        };
        let t = Target { addr, cls };
        let Some((plan, native)) = self.plan(&f, cls, span) else {
            return;
        };
        let Some(out) = self.atomic_apply(t, plan, native, span) else {
            return;
        };
        if let Some(r) = f.r {
            // only the `==` forms have `r`, and they always compare
            let Some(c) = out.cond else { return };
            let c = self.b.ins().zext(Type::I32, c);
            self.store_to(r, c, Scalar::INT);
        }
        if let Some((v, when)) = f.v {
            match when {
                When::Old => self.store_to(v, out.old, cls),
                When::New => self.store_to(v, out.new, cls),
                When::OldOnFail => {
                    let Some(c) = out.cond else { return };
                    let store = self.b.create_block();
                    let done = self.b.create_block();
                    self.b.ins().brif(c, done, &[], store, &[]);
                    self.b.switch_to_block(store);
                    self.store_to(v, out.old, cls);
                    self.jump_to(done);
                    self.b.switch_to_block(done);
                }
            }
        }
    }

    /// Evaluates the operands of `f` and chooses a native instruction when one gives the
    /// statement's exact result.
    fn plan(&mut self, f: &Form<'a>, cls: Scalar, span: Span) -> Option<(Plan, Option<Native>)> {
        let int = matches!(cls, Scalar::Int(..));
        Some(match f.upd {
            Update::Write(e) => {
                let v = self.scalar(e)?;
                (Plan::Write(v), Some(Native::Rmw(AtomicRmwOp::Xchg, v)))
            }
            Update::Arith {
                op,
                e,
                x_right,
                whole,
            } => {
                // the type `x op e` is computed in (C's usual arithmetic conversions)
                let ctype: Option<QualType> = match &whole.kind {
                    ExprKind::Assign(Some(_), ..) => {
                        self.cx.typed.compound_types.get(&whole.id).copied()
                    }
                    ExprKind::Binary(..) => self.info(whole).map(|i| i.ty),
                    _ => None,
                };
                let ccls = match ctype {
                    Some(t) => self.class(t, span)?,
                    None => ty::promote(cls),
                };
                let e = match e {
                    None => None,
                    Some(r) => {
                        let rc = self.class_of_conv(r)?;
                        Some((self.scalar(r)?, rc))
                    }
                };
                let plan = Plan::Arith {
                    op,
                    ccls,
                    e,
                    x_right,
                };
                // One instruction fits when the operation is done in x's own type.
                let own = match e {
                    None => ccls == cls || int,
                    Some((_, rc)) => rc == cls && ccls == cls,
                };
                let rmw = match op {
                    BinaryOp::Add => Some(AtomicRmwOp::Add),
                    // no atom.sub: add the negation (exact for floats too)
                    BinaryOp::Sub if !x_right => Some(AtomicRmwOp::Add),
                    BinaryOp::BitAnd if int => Some(AtomicRmwOp::And),
                    BinaryOp::BitOr if int => Some(AtomicRmwOp::Or),
                    BinaryOp::BitXor if int => Some(AtomicRmwOp::Xor),
                    _ => None,
                };
                let native = match rmw {
                    Some(rmw) if own => {
                        let val = match e {
                            Some((v, _)) => v,
                            None if int => self.b.ins().iconst(cls.ty(), 1),
                            None => self.b.ins().fconst(cls.ty(), 1.0),
                        };
                        let val = match (op, int) {
                            (BinaryOp::Sub, true) => self.b.ins().neg(val),
                            (BinaryOp::Sub, false) => self.b.ins().fneg(val),
                            _ => val,
                        };
                        Some(Native::Rmw(rmw, val))
                    }
                    _ => None,
                };
                (plan, native)
            }
            Update::Cond { op, e, x_left, d } => {
                // `e` arrives in the comparison's type, `d` in x's.
                let cmp = self.class_of_conv(e)?;
                let ev = self.scalar(e)?;
                let dv = if matches!(op, BinaryOp::Eq) {
                    self.scalar(d)?
                } else {
                    self.convert(ev, cmp, cls)
                };
                let plan = Plan::Cond {
                    op,
                    cmp,
                    e: ev,
                    x_left,
                    d: dv,
                };
                let native = if int && cmp == cls {
                    let signed = cls.is_signed();
                    // `x < e ? e : x` is max, `e < x ? e : x` min, and so on.
                    let max = matches!(op, BinaryOp::Lt) == x_left;
                    match op {
                        BinaryOp::Eq => Some(Native::Cas(ev, dv)),
                        _ => Some(Native::Rmw(
                            match (max, signed) {
                                (true, true) => AtomicRmwOp::Smax,
                                (true, false) => AtomicRmwOp::Umax,
                                (false, true) => AtomicRmwOp::Smin,
                                (false, false) => AtomicRmwOp::Umin,
                            },
                            ev,
                        )),
                    }
                } else {
                    None
                };
                (plan, native)
            }
        })
    }

    /// The new value of `x` from its old value `old` (class of `x`), and the condition of a
    /// conditional update (an `i1`).
    fn plan_apply(&mut self, plan: Plan, cls: Scalar, old: Value, span: Span) -> Option<Outcome> {
        Some(match plan {
            Plan::Write(v) => Outcome {
                old,
                new: v,
                cond: None,
            },
            Plan::Arith {
                op,
                ccls,
                e,
                x_right,
            } => {
                let a = self.convert(old, cls, ccls);
                let (b, rc) = match e {
                    Some(p) => p,
                    None => (self.iconst_in(Scalar::INT, 1), Scalar::INT),
                };
                let r = if x_right {
                    // `e op x`: e is already in ccls; x converts as its operand does
                    let xc = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                        ty::promote(cls)
                    } else {
                        ccls
                    };
                    let a = self.convert(old, cls, xc);
                    let b = self.convert(b, rc, ccls);
                    self.arith(op, ccls, b, xc, a, span)?
                } else {
                    self.arith(op, ccls, a, rc, b, span)?
                };
                Outcome {
                    old,
                    new: self.convert(r, ccls, cls),
                    cond: None,
                }
            }
            Plan::Cond {
                op,
                cmp,
                e,
                x_left,
                d,
            } => {
                let xv = self.convert(old, cls, cmp);
                let (l, r) = if x_left { (xv, e) } else { (e, xv) };
                let c = self.compare_values(op, cmp, l, r);
                let new = self.b.ins().select(c, d, old);
                Outcome {
                    old,
                    new,
                    cond: Some(c),
                }
            }
        })
    }

    /// Performs the update on `t`: the native instruction, a plain read-modify-write of
    /// thread-private memory, or a compare-and-swap loop.
    fn atomic_apply(
        &mut self,
        t: Target,
        plan: Plan,
        native: Option<Native>,
        span: Span,
    ) -> Option<Outcome> {
        let Target { addr, cls } = t;
        let bits = if cls.ty().bytes() == 4 {
            Type::I32
        } else {
            Type::I64
        };
        let float = matches!(cls, Scalar::Float(_));
        let flags = MemFlags {
            align: addr.align.min(cls.ty().bytes()).max(1),
            volatile: true,
            readonly: false,
        };
        if addr.space == AddrSpace::Local {
            // thread-private memory: an ordinary read-modify-write is atomic enough
            let old = self.b.ins().load(cls.ty(), addr.space, flags, addr.ptr);
            let out = self.plan_apply(plan, cls, old, span)?;
            self.b.ins().store(addr.space, flags, out.new, addr.ptr);
            return Some(out);
        }
        match native {
            Some(Native::Rmw(op, v)) => {
                let old = if float && op == AtomicRmwOp::Xchg {
                    let vb = self.b.ins().bitcast(bits, v);
                    let ob = self
                        .b
                        .ins()
                        .atomic_rmw(op, addr.space, Scope::Gpu, addr.ptr, vb);
                    self.b.ins().bitcast(cls.ty(), ob)
                } else {
                    self.b
                        .ins()
                        .atomic_rmw(op, addr.space, Scope::Gpu, addr.ptr, v)
                };
                return self.plan_apply(plan, cls, old, span);
            }
            Some(Native::Cas(expect, new)) => {
                let old = self
                    .b
                    .ins()
                    .atomic_cas(addr.space, Scope::Gpu, addr.ptr, expect, new);
                return self.plan_apply(plan, cls, old, span);
            }
            None => {}
        }
        // head(ob): compute; [cond false -> done]; cas; retry with what was there
        let first = self.b.ins().load(bits, addr.space, flags, addr.ptr);
        let head = self.b.create_block();
        let ob = self.b.append_block_param(head, bits);
        let swap = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().jump(head, &[first]);
        self.b.switch_to_block(head);
        let old = if float {
            self.b.ins().bitcast(cls.ty(), ob)
        } else {
            ob
        };
        let out = self.plan_apply(plan, cls, old, span)?;
        match out.cond {
            Some(c) => {
                self.b.ins().brif(c, swap, &[], done, &[]);
            }
            None => {
                self.b.ins().jump(swap, &[]);
            }
        }
        self.b.switch_to_block(swap);
        let nb = if float {
            self.b.ins().bitcast(bits, out.new)
        } else {
            out.new
        };
        let prev = self
            .b
            .ins()
            .atomic_cas(addr.space, Scope::Gpu, addr.ptr, ob, nb);
        let same = self.b.ins().icmp(IntCC::Eq, prev, ob);
        self.b.ins().brif(same, done, &[], head, &[prev]);
        self.b.switch_to_block(done);
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::default_fences;

    #[test]
    fn default_memory_orders_give_their_fences() {
        // (read, write, capture) -> (before, after)
        let forms = [
            (true, false, false),
            (false, true, false),
            (false, false, false),
            (false, false, true),
        ];
        let want = |order| forms.map(|(r, w, c)| default_fences(order, r, w, c));
        let (n, b, a, ba) = ((false, false), (true, false), (false, true), (true, true));
        assert_eq!(want(None), [n, n, n, n]);
        assert_eq!(want(Some("relaxed")), [n, n, n, n]);
        assert_eq!(want(Some("seq_cst")), [ba, ba, ba, ba]);
        assert_eq!(want(Some("acq_rel")), [a, b, b, ba]);
        assert_eq!(want(Some("acquire")), [a, n, a, a]);
        assert_eq!(want(Some("release")), [n, b, b, b]);
    }
}
