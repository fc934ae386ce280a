//! Calls: the call graph and its order, the C library table, and applying a callee's
//! [`Summary`] at a call site by substituting the arguments.
//!
//! Summaries are computed callees first (Tarjan's strongly connected components come out in
//! that order), so each function is analysed once with its callees' summaries at hand: the
//! fixpoint of the call graph with every cycle set to `unknown` (a call inside a recursive
//! cycle gets no summary, so its pointer arguments and all globals become unknown).

use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{Expr, ExprKind, ExternalDecl, FunctionDef, TranslationUnit};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::collect::{Addr, BaseKey, Use, Walker};
use crate::model::*;
use crate::scan::callee_symbol;
use crate::sym::{Atom, SymExpr};
use crate::walk::{self, Node, strip_parens};

/// Library functions that touch no program memory except through their pointer arguments
/// (const pointees read, others read and written) and write no program global.
const LIBRARY: &[&str] = &[
    // <math.h>
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "pow",
    "sqrt",
    "cbrt",
    "hypot",
    "fabs",
    "floor",
    "ceil",
    "round",
    "trunc",
    "fmod",
    "fmin",
    "fmax",
    "fma",
    "erf",
    "erfc",
    "lgamma",
    "tgamma",
    "sinf",
    "cosf",
    "tanf",
    "expf",
    "logf",
    "powf",
    "sqrtf",
    "fabsf",
    "floorf",
    "ceilf",
    "fminf",
    "fmaxf",
    "fmaf",
    "roundf",
    "frexp",
    "modf",
    "ldexp",
    "copysign",
    // <stdlib.h>
    "abs",
    "labs",
    "llabs",
    "rand",
    "srand",
    "malloc",
    "calloc",
    "aligned_alloc",
    "free",
    "realloc",
    "exit",
    "abort",
    "atoi",
    "atol",
    "atof",
    "strtol",
    "strtod",
    // <stdio.h>, <string.h>
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fputs",
    "fflush",
    "sprintf",
    "snprintf",
    "memcpy",
    "memmove",
    "memset",
    "strlen",
    "strcmp",
    "strncmp",
    "strcpy",
    "strncpy",
    // OpenMP
    "omp_get_thread_num",
    "omp_get_num_threads",
    "omp_get_max_threads",
    "omp_get_wtime",
    "omp_get_num_devices",
    "omp_is_initial_device",
    "omp_get_team_num",
    "omp_get_num_teams",
    "omp_get_default_device",
    "omp_set_num_threads",
    "omp_get_initial_device",
    // automatic offload's run-time choice: scalars and a string literal
    "__ompcc_auto_select",
    "__ompcc_auto_done",
];

/// True for the C library functions the analysis has a built-in summary for.
pub fn is_library(name: &str) -> bool {
    LIBRARY.contains(&name)
}

/// The unit's function definitions, callees before callers, and the functions that are
/// part of a recursive cycle.
pub fn call_order(tu: &TranslationUnit, unit: &TypedUnit) -> (Vec<usize>, FxHashSet<SymbolId>) {
    let defs: Vec<(usize, &FunctionDef, Option<SymbolId>)> = tu
        .items
        .iter()
        .enumerate()
        .filter_map(|(k, it)| match it {
            ExternalDecl::Function(f) => Some((k, f, unit.decl_symbol(f.declarator.id))),
            _ => None,
        })
        .collect();
    let index: FxHashMap<SymbolId, usize> = defs
        .iter()
        .enumerate()
        .filter_map(|(n, (_, _, s))| s.map(|s| (s, n)))
        .collect();
    let edges: Vec<Vec<usize>> = defs
        .iter()
        .map(|(_, f, _)| {
            let mut out = Vec::new();
            walk::block(&f.body, &mut |n| {
                if let Node::Expr(e) = n
                    && let ExprKind::Call(c, _) = &e.kind
                    && let Some(s) = callee_symbol(unit, c)
                    && let Some(&k) = index.get(&s)
                {
                    out.push(k);
                }
            });
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    let sccs = ompcc_graph::sccs(&edges).into_iter().map(|mut c| {
        c.sort_unstable();
        c
    });
    let mut recursive = FxHashSet::default();
    let mut order = Vec::new();
    for scc in sccs {
        let cyclic = scc.len() > 1 || edges[scc[0]].contains(&scc[0]);
        for &n in &scc {
            if cyclic && let Some(s) = defs[n].2 {
                recursive.insert(s);
            }
            order.push(defs[n].0);
        }
    }
    (order, recursive)
}

/// `e` without parentheses and casts.
fn strip_casts(mut e: &Expr) -> &Expr {
    loop {
        match &e.kind {
            ExprKind::Paren(x) | ExprKind::Cast(_, x) => e = x,
            _ => return e,
        }
    }
}

/// An argument as the call site sees it.
enum Arg {
    Pointer(Option<Fact<Addr>>),
    Value(Fact<SymExpr>),
}

impl<'a> Walker<'a, '_> {
    pub fn call(&mut self, e: &'a Expr, c: &'a Expr, args: &'a [Expr]) {
        let sym = callee_symbol(self.unit, c);
        let name = sym.map_or_else(|| "(*)".to_string(), |s| self.sym_name(s));
        if sym.is_none() {
            self.expr(c, Use::Read);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            if self.is_ptr(a) {
                let is_str = matches!(strip_parens(a).kind, ExprKind::Str(_));
                vals.push(Arg::Pointer((!is_str).then(|| self.addr(a))));
                self.addr_operands(a);
            } else {
                vals.push(Arg::Value(self.conv(a)));
                self.expr(a, Use::Read);
            }
        }
        let callee = match sym {
            None => Callee::Unknown(Unknown::new(Reason::IndirectCall, c.span)),
            Some(s) if self.recursive.contains(&s) => {
                Callee::Unknown(Unknown::new(Reason::Recursion(name.clone()), e.span))
            }
            Some(s) if self.summaries.contains_key(&s) => Callee::Defined(name.clone()),
            Some(_) if is_library(&name) => Callee::Library(name.clone()),
            Some(_) => Callee::Unknown(Unknown::new(Reason::UnknownExternal(name.clone()), e.span)),
        };
        let mut effects = Vec::new();
        let mut unknown_globals = None;
        match &callee {
            Callee::Defined(_) => {
                let sum = sym
                    .and_then(|s| self.summaries.get(&s))
                    .cloned()
                    .unwrap_or_default();
                for (k, a) in vals.iter().enumerate() {
                    let Arg::Pointer(addr) = a else { continue };
                    if sum.escaping.contains(&k) {
                        self.escape(&args[k]);
                    }
                    let Some(Some(eff)) = sum.params.get(k) else {
                        continue;
                    };
                    let Some(addr) = addr else { continue };
                    self.apply_effect(&mut effects, addr, eff, &sum, &vals, e, &name);
                }
                for (g, eff) in &sum.globals {
                    let ty = self.unit.symbols[*g].ty;
                    let addr = Ok(Addr {
                        key: BaseKey::Var(*g),
                        subs: if self.unit.types.is_pointer(ty) || self.unit.types.is_array(ty) {
                            vec![Ok(SymExpr::int(0))]
                        } else {
                            Vec::new()
                        },
                        base_ty: Some(ty),
                    });
                    self.apply_effect(&mut effects, &addr, eff, &sum, &vals, e, &name);
                }
                unknown_globals = sum
                    .unknown_globals
                    .as_ref()
                    .map(|_| Unknown::new(Reason::CalleeUnknown(name.clone()), e.span));
            }
            Callee::Library(lib) => {
                self.library_effects(&mut effects, lib, &vals, args, e);
            }
            Callee::Unknown(u) => {
                unknown_globals = Some(u.clone());
                for (k, a) in vals.iter().enumerate() {
                    if let Arg::Pointer(Some(addr)) = a {
                        self.escape(&args[k]);
                        let kind = if self.const_pointee(&args[k]) {
                            AccessKind::Read
                        } else {
                            AccessKind::ReadWrite
                        };
                        self.push_effect(&mut effects, addr, kind, Err(u.clone()));
                    }
                }
            }
        }
        self.out.calls.push(CallSite {
            span: e.span,
            name,
            callee,
            effects,
            unknown_globals,
            loops: self.loop_stack.clone(),
            region: self.region_stack.last().copied(),
        });
    }

    fn const_pointee(&self, e: &Expr) -> bool {
        let t = &self.unit.types;
        self.conv_ty(e)
            .and_then(|ty| t.pointee(ty))
            .is_some_and(|p| t.canon(p).quals.contains(ompcc_sema::types::Quals::CONST))
    }

    /// Adds an effect on the base of `addr` (an unknown base when the address is untraced).
    fn push_effect(
        &mut self,
        effects: &mut Vec<CallEffect>,
        addr: &Fact<Addr>,
        kind: AccessKind,
        section: Section,
    ) {
        let base = match addr {
            Ok(a) => {
                let text = self.key_text(&a.key);
                self.base_of(&a.key, a.base_ty, &text)
            }
            Err(u) => self.unknown_base(u.clone()),
        };
        let section = match addr {
            Ok(_) => section,
            Err(u) => Err(u.clone()),
        };
        effects.push(CallEffect {
            base,
            kind,
            section,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_effect(
        &mut self,
        effects: &mut Vec<CallEffect>,
        addr: &Fact<Addr>,
        eff: &Effect,
        sum: &Summary,
        vals: &[Arg],
        call: &Expr,
        name: &str,
    ) {
        for (sec, kind) in [
            (&eff.read, AccessKind::Read),
            (&eff.write, AccessKind::Write),
        ] {
            let Some(sec) = sec else { continue };
            let mapped = match (sec, addr) {
                (Ok(dims), Ok(a)) => self
                    .substitute(dims, &eff.extents, sum, vals, call)
                    .and_then(|(dims, extents)| self.map_into(&dims, &extents, a, call)),
                (Err(u), _) => Err(Unknown::new(
                    match &u.reason {
                        Reason::CalleeUnknown(_) => u.reason.clone(),
                        _ => Reason::CalleeUnknown(name.to_string()),
                    },
                    call.span,
                )),
                (_, Err(u)) => Err(u.clone()),
            };
            self.push_effect(effects, addr, kind, mapped);
        }
    }

    /// The callee's section with the arguments substituted for its parameters.
    fn substitute(
        &self,
        dims: &[DimRange],
        extents: &[Fact<SymExpr>],
        sum: &Summary,
        vals: &[Arg],
        call: &Expr,
    ) -> Fact<(Vec<DimRange>, Vec<Fact<SymExpr>>)> {
        let ovf = || Unknown::new(Reason::Overflow, call.span);
        let subst = |x: &SymExpr| -> Fact<SymExpr> {
            let mut x = x.clone();
            for (k, p) in sum.param_syms.iter().enumerate() {
                let Some(p) = p else { continue };
                let atom = Atom::Var(*p);
                if !x.mentions(&atom) {
                    continue;
                }
                match vals.get(k) {
                    Some(Arg::Value(Ok(v))) => x = x.subst(&atom, v).ok_or_else(ovf)?,
                    _ => {
                        return Err(Unknown::new(Reason::ArgumentUnknown(k + 1), call.span));
                    }
                }
            }
            Ok(x)
        };
        let mut out = Vec::with_capacity(dims.len());
        for d in dims {
            out.push(DimRange {
                lo: subst(&d.lo)?,
                hi: subst(&d.hi)?,
            });
        }
        let ext = extents
            .iter()
            .map(|e| e.as_ref().map_err(Clone::clone).and_then(&subst))
            .collect();
        Ok((out, ext))
    }

    /// A callee section (one range per callee dimension) placed at the address the
    /// argument points to.
    fn map_into(
        &mut self,
        dims: &[DimRange],
        extents: &[Fact<SymExpr>],
        a: &Addr,
        call: &Expr,
    ) -> Section {
        let mismatch = || Unknown::new(Reason::ShapeMismatch, call.span);
        let ovf = || Unknown::new(Reason::Overflow, call.span);
        let base_dims = match &a.key {
            BaseKey::Var(s) => {
                let ty = self.unit.symbols[*s].ty;
                let t = &self.unit.types;
                if t.is_pointer(ty) || t.is_array(ty) {
                    None
                } else {
                    Some(0)
                }
            }
            _ => None,
        };
        if base_dims == Some(0) {
            // a global scalar: the summary's own "section" is empty
            return Ok(Vec::new());
        }
        let k = a.subs.len();
        let text = self.key_text(&a.key);
        let b = self.base_of(&a.key, a.base_ty, &text);
        let base = &self.out.bases[b.0 as usize];
        let (d_total, base_extents) = (base.dims, base.extents.clone());
        if k == 0 || dims.is_empty() || dims.len() + k - 1 != d_total {
            return Err(mismatch());
        }
        for (j, ext) in extents.iter().enumerate() {
            match (ext, base_extents.get(k + j - 1)) {
                (Ok(x), Some(Ok(y))) if x == y => {}
                _ => return Err(mismatch()),
            }
        }
        // a range placed in an inner dimension must stay inside it (a flattened array
        // passed as a pointer to its first element is not a row)
        if k >= 2 {
            let ext = base_extents
                .get(k - 2)
                .cloned()
                .unwrap_or_else(|| Err(mismatch()));
            let last = a.subs[k - 1].clone()?;
            let (lo, hi) = (
                last.add(&dims[0].lo).ok_or_else(ovf)?,
                last.add(&dims[0].hi).ok_or_else(ovf)?,
            );
            let fits = ext
                .ok()
                .and_then(|e| e.add_const(-1)?.sub(&hi))
                .is_some_and(|room| self.provably_nonneg(&room) && self.provably_nonneg(&lo));
            if !fits {
                return Err(mismatch());
            }
        }
        let mut out = Vec::with_capacity(d_total);
        for s in &a.subs[..k - 1] {
            let s = s.clone()?;
            out.push(DimRange {
                lo: s.clone(),
                hi: s,
            });
        }
        let last = a.subs[k - 1].clone()?;
        out.push(DimRange {
            lo: last.add(&dims[0].lo).ok_or_else(ovf)?,
            hi: last.add(&dims[0].hi).ok_or_else(ovf)?,
        });
        out.extend(dims[1..].iter().cloned());
        Ok(out)
    }

    /// Non-negative from constants and unsigned variables alone.
    fn provably_nonneg(&self, e: &SymExpr) -> bool {
        let t = &self.unit.types;
        e.terms().iter().all(|term| {
            term.coef >= 0
                && term.atoms.iter().all(|a| match a {
                    Atom::Var(v) => t
                        .int_kind(self.unit.symbols[*v].ty)
                        .is_some_and(|k| !k.is_signed()),
                    _ => false,
                })
        })
    }

    fn library_effects(
        &mut self,
        effects: &mut Vec<CallEffect>,
        lib: &str,
        vals: &[Arg],
        args: &'a [Expr],
        call: &Expr,
    ) {
        let bytes_section = |w: &Self, k: usize, n: usize| -> Section {
            let Some(Arg::Value(bytes)) = vals.get(n) else {
                return Err(Unknown::new(Reason::ArgumentUnknown(n + 1), call.span));
            };
            let bytes = bytes.clone()?;
            let t = &w.unit.types;
            let size = args
                .get(k)
                .and_then(|a| w.own_ty(strip_casts(a)))
                .and_then(|ty| t.pointee(ty).or_else(|| t.array_elem(ty)))
                .and_then(|p| t.size_of(p))
                .filter(|&s| s > 0)
                .ok_or_else(|| Unknown::new(Reason::ByteCount, call.span))?;
            let elems = bytes
                .exact_div(size as i64)
                .ok_or_else(|| Unknown::new(Reason::ByteCount, call.span))?;
            let hi = elems
                .add_const(-1)
                .ok_or_else(|| Unknown::new(Reason::Overflow, call.span))?;
            Ok(vec![DimRange {
                lo: SymExpr::int(0),
                hi,
            }])
        };
        let pointer = |k: usize| match vals.get(k) {
            Some(Arg::Pointer(Some(a))) => Some(a.clone()),
            _ => None,
        };
        match lib {
            "memcpy" | "memmove" | "memset" => {
                let (dst, src) = (pointer(0), (lib != "memset").then(|| pointer(1)).flatten());
                if let Some(d) = dst {
                    let sec = bytes_section(self, 0, 2).and_then(|dims| match &d {
                        Ok(a) => self.map_into(&dims, &[], a, call),
                        Err(u) => Err(u.clone()),
                    });
                    self.push_effect(effects, &d, AccessKind::Write, sec);
                }
                if let Some(s) = src {
                    let sec = bytes_section(self, 1, 2).and_then(|dims| match &s {
                        Ok(a) => self.map_into(&dims, &[], a, call),
                        Err(u) => Err(u.clone()),
                    });
                    self.push_effect(effects, &s, AccessKind::Read, sec);
                }
            }
            "free" => {}
            _ => {
                for (k, a) in vals.iter().enumerate() {
                    let Arg::Pointer(Some(addr)) = a else {
                        continue;
                    };
                    if lib == "realloc" {
                        self.escape(&args[k]);
                    }
                    let kind = if self.const_pointee(&args[k]) {
                        AccessKind::Read
                    } else {
                        AccessKind::ReadWrite
                    };
                    let u = Unknown::new(Reason::CalleeUnknown(lib.to_string()), call.span);
                    self.push_effect(effects, addr, kind, Err(u));
                }
            }
        }
    }
}
