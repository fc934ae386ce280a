//! The pre-scan of one function: before accesses are resolved, where every scalar is
//! written, which addresses are taken, which pointers come from allocation calls, where
//! calls may write globals, and the occurrences that make up reductions.
//!
//! Positions are byte offsets (span starts) into the preprocessed text, so "written inside
//! scope S" is "a write position lies in S's span". A declarator with an initializer is a
//! write at the declarator.

use ompcc_sema::{SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{BinaryOp, Declarator, Expr, ExprId, ExprKind, FunctionDef, UnaryOp};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::model::Summary;
use crate::walk::{self, Node, strip_parens};

/// Allocation functions whose result is a fresh object.
pub const ALLOC_FUNCS: &[&str] = &["malloc", "calloc", "realloc", "aligned_alloc"];

/// What the pre-scan learns; kept with the function for on-demand queries.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// Write positions of each variable.
    pub writes: FxHashMap<SymbolId, Vec<u32>>,
    /// Variables whose address is taken in the function.
    pub addr_taken: FxHashSet<SymbolId>,
    /// Calls that may write globals: position and the globals (`None`: any).
    pub call_globals: Vec<(u32, Option<Vec<SymbolId>>)>,
    /// Stores through pointers (and calls that store through pointer arguments): position
    /// and the stored type's aliasing class (C11 6.5p7), for globals a pointer may reach.
    pub stores: Vec<(u32, AliasClass)>,
    /// Each occurrence of a scalar: position, and the operator when it is part of a
    /// reduction update (`s += e`, `s = s * e`).
    pub occurrences: FxHashMap<SymbolId, Vec<(u32, Option<&'static str>)>>,
}

/// Which objects a store of some type may modify under C's effective-type rules: a
/// character type or a structure/union (whose members may be anything) may modify any
/// object; otherwise only objects of the same type, signedness aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasClass {
    /// May modify anything.
    Any,
    /// An integer type of this size in bytes.
    Int(u64),
    /// Any other type, by its canonical unqualified id.
    Other(ompcc_sema::types::TypeId),
}

impl AliasClass {
    /// The class of objects of type `ty`.
    pub fn of(unit: &TypedUnit, ty: ompcc_sema::types::QualType) -> AliasClass {
        let t = &unit.types;
        if let Some(k) = t.int_kind(ty) {
            if k.size() == 1 {
                return AliasClass::Any;
            }
            return AliasClass::Int(k.size());
        }
        if t.is_record(ty) || t.is_array(ty) || t.is_void(ty) {
            return AliasClass::Any;
        }
        AliasClass::Other(t.canon(ty).ty)
    }

    /// True when a store of class `self` may modify an object of class `obj`.
    pub fn may_modify(self, obj: AliasClass) -> bool {
        self == AliasClass::Any || obj == AliasClass::Any || self == obj
    }
}

impl Env {
    /// True when something other than a direct assignment may change the global `v` (of
    /// class `class`) in `lo..hi`: a call that writes globals, or a store through a pointer
    /// of a type that may alias it.
    pub fn global_may_change(&self, v: SymbolId, class: AliasClass, lo: u32, hi: u32) -> bool {
        self.call_writes_in(v, lo, hi)
            || self
                .stores
                .iter()
                .any(|(p, c)| *p >= lo && *p < hi && c.may_modify(class))
    }

    /// True when `v` is written at a position in `lo..hi`.
    pub fn written_in(&self, v: SymbolId, lo: u32, hi: u32) -> bool {
        self.writes
            .get(&v)
            .is_some_and(|ps| ps.iter().any(|&p| p >= lo && p < hi))
    }

    /// True when a call in `lo..hi` may write the global `v`.
    pub fn call_writes_in(&self, v: SymbolId, lo: u32, hi: u32) -> bool {
        self.call_globals
            .iter()
            .any(|(p, set)| *p >= lo && *p < hi && set.as_ref().is_none_or(|s| s.contains(&v)))
    }
}

/// The scan's result: the [`Env`] and the borrowed facts the main walk needs.
pub struct Scan<'a> {
    pub env: Env,
    /// Pointers assigned exactly once, from an allocation call: the call and the function.
    pub allocs: FxHashMap<SymbolId, (&'a Expr, String)>,
    /// Array-size expressions of declarators, by id (VLA extents).
    pub sizes: FxHashMap<ExprId, &'a Expr>,
}

/// The called function's symbol when the callee is a plain function name.
pub fn callee_symbol(unit: &TypedUnit, callee: &Expr) -> Option<SymbolId> {
    let c = strip_parens(callee);
    let ExprKind::Ident(_) = c.kind else {
        return None;
    };
    let s = *unit.ident_symbols.get(&c.id)?;
    (unit.symbols[s].kind == SymbolKind::Function).then_some(s)
}

/// The variable an lvalue writes as a whole (`x`, `(x)`), if any.
fn whole_var(unit: &TypedUnit, e: &Expr) -> Option<SymbolId> {
    let e = strip_parens(e);
    match e.kind {
        ExprKind::Ident(_) => unit.ident_symbols.get(&e.id).copied(),
        _ => None,
    }
}

/// The root variable of a member/field lvalue written in place (`s.x`), if any.
fn root_of_dot(unit: &TypedUnit, e: &Expr) -> Option<SymbolId> {
    match &strip_parens(e).kind {
        ExprKind::Member {
            base, arrow: false, ..
        } => root_of_dot(unit, base),
        ExprKind::Index(b, _) if unit.expr(b.id).is_some_and(|i| unit.types.is_array(i.ty)) => {
            root_of_dot(unit, b)
        }
        _ => whole_var(unit, e),
    }
}

fn reduction_op(op: BinaryOp) -> Option<&'static str> {
    Some(match op {
        BinaryOp::Add | BinaryOp::Sub => "+",
        BinaryOp::Mul => "*",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        _ => return None,
    })
}

fn mentions(unit: &TypedUnit, e: &Expr, v: SymbolId) -> bool {
    let mut found = false;
    walk::expr(e, &mut |n| {
        if let Node::Expr(x) = n
            && matches!(x.kind, ExprKind::Ident(_))
            && unit.ident_symbols.get(&x.id) == Some(&v)
        {
            found = true;
        }
    });
    found
}

/// The mutable state of one scan.
struct State<'a> {
    env: Env,
    sizes: FxHashMap<ExprId, &'a Expr>,
    /// Reduction occurrences: identifier id -> (operator, the update expression's id).
    red_ids: FxHashMap<ExprId, (&'static str, ExprId)>,
    idents: Vec<(SymbolId, u32, ExprId)>,
    alloc_candidates: Vec<(SymbolId, &'a Expr)>,
    /// Expressions whose value a parent uses (an update there is no reduction).
    used: FxHashSet<ExprId>,
}

/// Scans `f`. `summaries` are the callees' (callees come first); `library` tells whether a
/// name is a library function that writes no global of the program.
pub fn scan<'a>(
    unit: &TypedUnit,
    f: &'a FunctionDef,
    summaries: &FxHashMap<SymbolId, Summary>,
    library: &dyn Fn(&str) -> bool,
) -> Scan<'a> {
    let mut st = State {
        env: Env::default(),
        sizes: FxHashMap::default(),
        red_ids: FxHashMap::default(),
        idents: Vec::new(),
        alloc_candidates: Vec::new(),
        used: FxHashSet::default(),
    };
    let mut visit = |n: Node<'a>| match n {
        Node::Decl(d, init) => st.decl(unit, d, init),
        Node::Expr(e) => st.expr(unit, e, summaries, library),
        Node::AsmOutput(e) => match root_of_dot(unit, e) {
            Some(s) => st.env.writes.entry(s).or_default().push(e.span.lo),
            None => st.env.stores.push((e.span.lo, AliasClass::Any)),
        },
    };
    walk::declarator(&f.declarator, &mut visit);
    walk::block(&f.body, &mut visit);
    let State {
        mut env,
        sizes,
        red_ids,
        idents,
        alloc_candidates,
        used,
    } = st;
    for (s, pos, id) in idents {
        let op = red_ids
            .get(&id)
            .filter(|(_, upd)| !used.contains(upd))
            .map(|(o, _)| *o);
        env.occurrences.entry(s).or_default().push((pos, op));
    }
    let mut allocs = FxHashMap::default();
    for (s, e) in alloc_candidates {
        if env.writes.get(&s).is_some_and(|w| w.len() == 1)
            && !env.addr_taken.contains(&s)
            && let Some(name) = alloc_call(unit, e)
        {
            allocs.insert(s, (e, name));
        }
    }
    Scan { env, allocs, sizes }
}

impl<'a> State<'a> {
    fn decl(
        &mut self,
        unit: &TypedUnit,
        d: &'a Declarator,
        init: Option<&'a ompcc_syntax::ast::Initializer>,
    ) {
        for layer in &d.derived {
            if let ompcc_syntax::ast::Derived::Array {
                size: ompcc_syntax::ast::ArraySize::Expr(e),
                ..
            } = layer
            {
                self.sizes.insert(e.id, &**e);
            }
        }
        if let (Some(s), Some(init)) = (unit.decl_symbol(d.id), init) {
            self.env.writes.entry(s).or_default().push(d.span.lo);
            if let ompcc_syntax::ast::Initializer::Expr(e) = init {
                self.alloc_candidates.push((s, e));
            }
        }
    }

    fn mark_children(&mut self, e: &Expr) {
        let mut mark = |x: &Expr| {
            self.used.insert(x.id);
        };
        match &e.kind {
            ExprKind::Paren(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Cast(_, x)
            | ExprKind::Member { base: x, .. } => mark(x),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                mark(a);
                mark(b);
            }
            ExprKind::Comma(_, b) => mark(b),
            ExprKind::Call(c, args) => {
                mark(c);
                args.iter().for_each(mark);
            }
            ExprKind::Cond(c, t, f) => {
                mark(c);
                if let Some(t) = t {
                    mark(t);
                }
                mark(f);
            }
            _ => {}
        }
    }

    fn expr(
        &mut self,
        unit: &TypedUnit,
        e: &'a Expr,
        summaries: &FxHashMap<SymbolId, Summary>,
        library: &dyn Fn(&str) -> bool,
    ) {
        self.mark_children(e);
        let arith = |s: SymbolId| unit.types.is_arithmetic(unit.symbols[s].ty);
        match &e.kind {
            ExprKind::Ident(_) => {
                if let Some(&s) = unit.ident_symbols.get(&e.id)
                    && unit.symbols[s].kind == SymbolKind::Object
                {
                    self.idents.push((s, e.span.lo, e.id));
                }
            }
            ExprKind::Assign(op, l, r) => {
                if let Some(s) = whole_var(unit, l) {
                    self.env.writes.entry(s).or_default().push(l.span.lo);
                    if op.is_none() {
                        self.alloc_candidates.push((s, r));
                    }
                    let red = match (op, &strip_parens(r).kind) {
                        _ if !arith(s) => None,
                        (Some(op), _) if !mentions(unit, r, s) => {
                            reduction_op(*op).map(|o| (o, None))
                        }
                        (None, ExprKind::Binary(op, a, b)) => {
                            let o = reduction_op(*op);
                            let commutes = !matches!(op, BinaryOp::Sub);
                            if whole_var(unit, a) == Some(s) && !mentions(unit, b, s) {
                                o.map(|o| (o, Some(strip_parens(a).id)))
                            } else if commutes
                                && whole_var(unit, b) == Some(s)
                                && !mentions(unit, a, s)
                            {
                                o.map(|o| (o, Some(strip_parens(b).id)))
                            } else {
                                None
                            }
                        }
                        _ => None,
                    };
                    if let Some((o, inner)) = red {
                        self.red_ids.insert(strip_parens(l).id, (o, e.id));
                        if let Some(i) = inner {
                            self.red_ids.insert(i, (o, e.id));
                        }
                    }
                } else if let Some(s) = root_of_dot(unit, l) {
                    self.env.writes.entry(s).or_default().push(l.span.lo);
                } else if let Some(info) = unit.expr(l.id) {
                    let class = AliasClass::of(unit, info.ty);
                    self.env.stores.push((l.span.lo, class));
                }
            }
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                x,
            ) => {
                if let Some(s) = whole_var(unit, x).or_else(|| root_of_dot(unit, x)) {
                    self.env.writes.entry(s).or_default().push(x.span.lo);
                    if whole_var(unit, x).is_some() && arith(s) {
                        self.red_ids.insert(strip_parens(x).id, ("+", e.id));
                    }
                } else if let Some(info) = unit.expr(x.id) {
                    let class = AliasClass::of(unit, info.ty);
                    self.env.stores.push((x.span.lo, class));
                }
            }
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if let Some(s) = root_of_dot(unit, x) {
                    self.env.addr_taken.insert(s);
                }
            }
            ExprKind::Call(c, args) => {
                // stores through pointer arguments: a defined callee's written parameters,
                // a library function's non-const pointer arguments (as bytes)
                let callee = callee_symbol(unit, c);
                for (k, a) in args.iter().enumerate() {
                    let t = &unit.types;
                    let Some(pointee) = unit.expr(a.id).and_then(|i| t.pointee(i.conv)) else {
                        continue;
                    };
                    let writes = match callee.and_then(|s| summaries.get(&s)) {
                        Some(sum) => sum
                            .params
                            .get(k)
                            .and_then(|p| p.as_ref())
                            .is_some_and(|e| e.write.is_some()),
                        None => !t
                            .canon(pointee)
                            .quals
                            .contains(ompcc_sema::types::Quals::CONST),
                    };
                    if writes {
                        let own = unit
                            .expr(a.id)
                            .and_then(|i| t.pointee(i.ty).or_else(|| t.array_elem(i.ty)))
                            .unwrap_or(pointee);
                        let class = if callee.is_some_and(|s| summaries.contains_key(&s)) {
                            AliasClass::of(unit, own)
                        } else {
                            AliasClass::Any
                        };
                        self.env.stores.push((e.span.lo, class));
                    }
                }
                let set = match callee {
                    Some(s) => match summaries.get(&s) {
                        Some(sum) if sum.unknown_globals.is_none() => {
                            Some(sum.scalars_written.clone())
                        }
                        Some(_) => None,
                        None if library(&unit.symbols[s].name) => Some(Vec::new()),
                        None => None,
                    },
                    None => None,
                };
                self.env.call_globals.push((e.span.lo, set));
            }
            _ => {}
        }
    }
}

/// The allocation function `e` calls (through casts and parentheses), if it is one.
pub fn alloc_call(unit: &TypedUnit, e: &Expr) -> Option<String> {
    let mut e = strip_parens(e);
    while let ExprKind::Cast(_, x) = &e.kind {
        e = strip_parens(x);
    }
    let ExprKind::Call(c, _) = &e.kind else {
        return None;
    };
    let s = callee_symbol(unit, c)?;
    let name = &unit.symbols[s].name;
    ALLOC_FUNCS.contains(&name.as_str()).then(|| name.clone())
}
