//! Symbolic integer expressions in one canonical form.
//!
//! A [`SymExpr`] is a polynomial: a sum of [`Term`]s, each an `i64` coefficient times a
//! product of [`Atom`]s (variables, and the few opaque shapes bounds need: C division by a
//! positive constant, `min`, `max`). Invariants, kept by every constructor:
//! - the atoms of a term are sorted (a repeated atom is a power: `i*i`);
//! - terms are sorted by their atoms (the constant term, with no atoms, last), no two terms
//!   have the same atoms, and no coefficient is zero (zero is the empty sum);
//! - `min`/`max` arguments are canonical, flattened, sorted and deduplicated, and never two
//!   arguments whose difference is a constant (the smaller/larger is kept);
//! - arithmetic that would overflow `i64` returns `None`, never a wrapped value.
//!
//! So two expressions are equal as values of the type exactly when they are equal as
//! polynomials over the atoms, and comparing bounds is `==`. [`SymExpr::to_c`] prints C
//! source (`2*n*i + j - 1`, `(a < b ? a : b)`), given the names of the variables.
//!
//! [`Atom::Prime`] is internal to the dependence test (the second iteration's copy of a loop
//! variable) and never appears in a result.

use std::fmt::Write as _;

use ompcc_sema::SymbolId;

/// A factor of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// An integer variable: a loop variable or a loop-invariant symbol.
    Var(SymbolId),
    /// The other iteration's copy of a loop variable (dependence equations only).
    Prime(SymbolId),
    /// C division `e / c` with `c > 1` (truncating), kept when `e` is not a multiple of `c`.
    Div(Box<SymExpr>, i64),
    /// `min(args)`, at least two arguments.
    Min(Vec<SymExpr>),
    /// `max(args)`, at least two arguments.
    Max(Vec<SymExpr>),
}

/// `coef * atoms[0] * atoms[1] * ...`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term {
    /// The sorted factors; empty for the constant term.
    pub atoms: Vec<Atom>,
    /// Never zero.
    pub coef: i64,
}

/// A canonical polynomial over [`Atom`]s (see the module header).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SymExpr {
    terms: Vec<Term>,
}

impl SymExpr {
    /// The constant `c`.
    pub fn int(c: i64) -> SymExpr {
        SymExpr::from_terms(vec![Term {
            atoms: Vec::new(),
            coef: c,
        }])
        .unwrap_or_default()
    }

    /// The variable `v`.
    pub fn var(v: SymbolId) -> SymExpr {
        SymExpr::atom(Atom::Var(v))
    }

    /// One atom with coefficient 1.
    pub fn atom(a: Atom) -> SymExpr {
        SymExpr {
            terms: vec![Term {
                atoms: vec![a],
                coef: 1,
            }],
        }
    }

    /// Canonicalizes a list of terms (sorts, merges equal monomials, drops zeros).
    fn from_terms(mut terms: Vec<Term>) -> Option<SymExpr> {
        for t in &mut terms {
            t.atoms.sort();
        }
        terms.sort_by(term_order);
        let mut out: Vec<Term> = Vec::with_capacity(terms.len());
        for t in terms {
            match out.last_mut() {
                Some(last) if last.atoms == t.atoms => {
                    last.coef = last.coef.checked_add(t.coef)?;
                }
                _ => out.push(t),
            }
        }
        out.retain(|t| t.coef != 0);
        Some(SymExpr { terms: out })
    }

    /// The terms, in canonical order.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The value when the expression is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [t] if t.atoms.is_empty() => Some(t.coef),
            _ => None,
        }
    }

    /// The constant term.
    pub fn constant(&self) -> i64 {
        self.terms
            .last()
            .filter(|t| t.atoms.is_empty())
            .map_or(0, |t| t.coef)
    }

    /// True for the zero expression.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// `self + other`.
    pub fn add(&self, other: &SymExpr) -> Option<SymExpr> {
        let mut terms = self.terms.clone();
        terms.extend(other.terms.iter().cloned());
        SymExpr::from_terms(terms)
    }

    /// `self - other`.
    pub fn sub(&self, other: &SymExpr) -> Option<SymExpr> {
        self.add(&other.neg()?)
    }

    /// `-self`.
    pub fn neg(&self) -> Option<SymExpr> {
        self.scale(-1)
    }

    /// `c * self`.
    pub fn scale(&self, c: i64) -> Option<SymExpr> {
        let mut terms = Vec::with_capacity(self.terms.len());
        for t in &self.terms {
            terms.push(Term {
                atoms: t.atoms.clone(),
                coef: t.coef.checked_mul(c)?,
            });
        }
        SymExpr::from_terms(terms)
    }

    /// `self + c`.
    pub fn add_const(&self, c: i64) -> Option<SymExpr> {
        self.add(&SymExpr::int(c))
    }

    /// `self * other` (polynomial product).
    pub fn mul(&self, other: &SymExpr) -> Option<SymExpr> {
        let mut terms = Vec::with_capacity(self.terms.len() * other.terms.len());
        for a in &self.terms {
            for b in &other.terms {
                let mut atoms = a.atoms.clone();
                atoms.extend(b.atoms.iter().cloned());
                terms.push(Term {
                    atoms,
                    coef: a.coef.checked_mul(b.coef)?,
                });
            }
        }
        SymExpr::from_terms(terms)
    }

    /// C's `self / c` for a positive constant `c`: exact when every coefficient is a multiple
    /// of `c`, else the opaque [`Atom::Div`]. `None` for `c <= 0`.
    pub fn div(&self, c: i64) -> Option<SymExpr> {
        if c <= 0 {
            return None;
        }
        if c == 1 {
            return Some(self.clone());
        }
        if let Some(k) = self.as_const() {
            return Some(SymExpr::int(k / c));
        }
        if self.terms.iter().all(|t| t.coef % c == 0) {
            return self.exact_div(c);
        }
        Some(SymExpr::atom(Atom::Div(Box::new(self.clone()), c)))
    }

    /// `self / c` when every coefficient is a multiple of `c`.
    pub fn exact_div(&self, c: i64) -> Option<SymExpr> {
        if self.terms.iter().any(|t| t.coef.checked_rem(c) != Some(0)) {
            return None;
        }
        let mut terms = Vec::with_capacity(self.terms.len());
        for t in &self.terms {
            terms.push(Term {
                atoms: t.atoms.clone(),
                coef: t.coef.checked_div(c)?,
            });
        }
        SymExpr::from_terms(terms)
    }

    /// `self / d` for a one-term divisor `d` that divides every term exactly (`8*n*m / 8*m`
    /// is `n`).
    pub fn div_exact(&self, d: &SymExpr) -> Option<SymExpr> {
        let [dt] = d.terms.as_slice() else {
            return None;
        };
        let mut terms = Vec::with_capacity(self.terms.len());
        for t in &self.terms {
            if t.coef.checked_rem(dt.coef) != Some(0) {
                return None;
            }
            let mut atoms = t.atoms.clone();
            for a in &dt.atoms {
                let k = atoms.iter().position(|x| x == a)?;
                atoms.remove(k);
            }
            terms.push(Term {
                atoms,
                coef: t.coef.checked_div(dt.coef)?,
            });
        }
        SymExpr::from_terms(terms)
    }

    /// The smaller of two expressions: exact when their difference is a constant.
    pub fn smin(&self, other: &SymExpr) -> Option<SymExpr> {
        minmax(self, other, true)
    }

    /// The larger of two expressions: exact when their difference is a constant.
    pub fn smax(&self, other: &SymExpr) -> Option<SymExpr> {
        minmax(self, other, false)
    }

    /// Calls `f` on every variable (`Var` and `Prime`) anywhere in the expression.
    pub fn for_each_atom(&self, f: &mut dyn FnMut(&Atom)) {
        for t in &self.terms {
            for a in &t.atoms {
                match a {
                    Atom::Var(_) | Atom::Prime(_) => f(a),
                    Atom::Div(e, _) => e.for_each_atom(f),
                    Atom::Min(args) | Atom::Max(args) => {
                        for e in args {
                            e.for_each_atom(f);
                        }
                    }
                }
            }
        }
    }

    /// The variables of the expression (`Var` atoms), sorted, without duplicates.
    pub fn vars(&self) -> Vec<SymbolId> {
        let mut out = Vec::new();
        self.for_each_atom(&mut |a| {
            if let Atom::Var(v) = a {
                out.push(*v);
            }
        });
        out.sort();
        out.dedup();
        out
    }

    /// True when `a` occurs anywhere in the expression.
    pub fn mentions(&self, a: &Atom) -> bool {
        let mut found = false;
        self.for_each_atom(&mut |x| found |= x == a);
        found
    }

    /// Replaces the atom `a` by `by` everywhere (inside `Div`/`Min`/`Max` too).
    pub fn subst(&self, a: &Atom, by: &SymExpr) -> Option<SymExpr> {
        let mut out = SymExpr::default();
        for t in &self.terms {
            let mut prod = SymExpr::int(t.coef);
            for x in &t.atoms {
                let factor = if x == a {
                    by.clone()
                } else {
                    match x {
                        Atom::Var(_) | Atom::Prime(_) => SymExpr::atom(x.clone()),
                        Atom::Div(e, c) => e.subst(a, by)?.div(*c)?,
                        Atom::Min(args) => fold_minmax(args, a, by, true)?,
                        Atom::Max(args) => fold_minmax(args, a, by, false)?,
                    }
                };
                prod = prod.mul(&factor)?;
            }
            out = out.add(&prod)?;
        }
        Some(out)
    }

    /// Splits `self` as `x * a + rest` with `x` and `rest` free of `a`; `None` when `a`
    /// occurs non-linearly (a power, or inside `Div`/`Min`/`Max`).
    pub fn split_linear(&self, a: &Atom) -> Option<(SymExpr, SymExpr)> {
        let mut coef = Vec::new();
        let mut rest = Vec::new();
        for t in &self.terms {
            let n = t.atoms.iter().filter(|x| *x == a).count();
            let nested = t.atoms.iter().any(|x| x != a && atom_mentions(x, a));
            if nested || n > 1 {
                return None;
            }
            if n == 1 {
                let atoms: Vec<Atom> = t.atoms.iter().filter(|x| *x != a).cloned().collect();
                coef.push(Term {
                    atoms,
                    coef: t.coef,
                });
            } else {
                rest.push(t.clone());
            }
        }
        Some((SymExpr::from_terms(coef)?, SymExpr::from_terms(rest)?))
    }

    /// C source text; `name` gives each variable's spelling.
    pub fn to_c(&self, name: &dyn Fn(SymbolId) -> String) -> String {
        let mut s = String::new();
        if self.terms.is_empty() {
            return "0".into();
        }
        for (k, t) in self.terms.iter().enumerate() {
            let mag = t.coef.unsigned_abs();
            if k == 0 {
                if t.coef < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if t.coef < 0 { " - " } else { " + " });
            }
            let mut parts: Vec<String> = Vec::new();
            if mag != 1 || t.atoms.is_empty() {
                parts.push(mag.to_string());
            }
            for a in &t.atoms {
                parts.push(atom_to_c(a, name, t.atoms.len() > 1 || mag != 1));
            }
            s.push_str(&parts.join("*"));
        }
        s
    }
}

/// Terms sort by their atoms, with the constant term last.
fn term_order(a: &Term, b: &Term) -> std::cmp::Ordering {
    match (a.atoms.is_empty(), b.atoms.is_empty()) {
        (true, true) => std::cmp::Ordering::Equal,
        (true, false) => std::cmp::Ordering::Greater,
        (false, true) => std::cmp::Ordering::Less,
        (false, false) => a.atoms.cmp(&b.atoms),
    }
}

fn atom_mentions(x: &Atom, a: &Atom) -> bool {
    match x {
        Atom::Var(_) | Atom::Prime(_) => x == a,
        Atom::Div(e, _) => e.mentions(a),
        Atom::Min(args) | Atom::Max(args) => args.iter().any(|e| e.mentions(a)),
    }
}

fn fold_minmax(args: &[SymExpr], a: &Atom, by: &SymExpr, is_min: bool) -> Option<SymExpr> {
    let mut acc: Option<SymExpr> = None;
    for e in args {
        let e = e.subst(a, by)?;
        acc = Some(match acc {
            None => e,
            Some(prev) => minmax(&prev, &e, is_min)?,
        });
    }
    acc
}

fn minmax(x: &SymExpr, y: &SymExpr, is_min: bool) -> Option<SymExpr> {
    let mut args: Vec<SymExpr> = Vec::new();
    for e in [x, y] {
        match e.terms.as_slice() {
            [t] if t.coef == 1 && t.atoms.len() == 1 => match &t.atoms[0] {
                Atom::Min(inner) if is_min => args.extend(inner.iter().cloned()),
                Atom::Max(inner) if !is_min => args.extend(inner.iter().cloned()),
                _ => args.push(e.clone()),
            },
            _ => args.push(e.clone()),
        }
    }
    // keep one argument per class of expressions that differ by a constant
    let mut kept: Vec<SymExpr> = Vec::new();
    'next: for e in args {
        for k in kept.iter_mut() {
            if let Some(d) = e.sub(k)?.as_const() {
                if (is_min && d < 0) || (!is_min && d > 0) {
                    *k = e;
                }
                continue 'next;
            }
        }
        kept.push(e);
    }
    kept.sort();
    if kept.len() == 1 {
        return kept.pop();
    }
    Some(SymExpr::atom(if is_min {
        Atom::Min(kept)
    } else {
        Atom::Max(kept)
    }))
}

fn atom_to_c(a: &Atom, name: &dyn Fn(SymbolId) -> String, in_product: bool) -> String {
    match a {
        Atom::Var(v) => name(*v),
        Atom::Prime(v) => format!("{}'", name(*v)),
        Atom::Div(e, c) => {
            let inner = e.to_c(name);
            let text = if e.terms.len() > 1 || e.terms.first().is_some_and(|t| t.coef < 0) {
                format!("({inner}) / {c}")
            } else {
                format!("{inner} / {c}")
            };
            if in_product {
                format!("({text})")
            } else {
                text
            }
        }
        Atom::Min(args) | Atom::Max(args) => {
            let op = if matches!(a, Atom::Min(_)) { "<" } else { ">" };
            let mut it = args.iter();
            let mut acc = it.next().map(|e| e.to_c(name)).unwrap_or_default();
            for e in it {
                let b = e.to_c(name);
                let mut s = String::new();
                let _ = write!(s, "({acc} {op} {b} ? {acc} : {b})");
                acc = s;
            }
            acc
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(k: u32) -> SymExpr {
        SymExpr::var(SymbolId::from_u32(k))
    }
    fn show(e: &SymExpr) -> String {
        e.to_c(&|s| ["i", "j", "n", "m"][s.as_u32() as usize % 4].to_string())
    }

    #[test]
    fn sums_are_flattened_sorted_and_folded() {
        let (i, n) = (v(0), v(2));
        let a = i.add(&n).unwrap().add_const(3).unwrap();
        let b = SymExpr::int(1)
            .add(&n)
            .unwrap()
            .add(&i)
            .unwrap()
            .add_const(2)
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(show(&a), "i + n + 3");
        let z = a.sub(&b).unwrap();
        assert!(z.is_zero());
        assert_eq!(z.as_const(), Some(0));
        assert_eq!(show(&z), "0");
    }

    #[test]
    fn products_are_polynomial_terms() {
        let (i, j, n) = (v(0), v(1), v(2));
        // i*n + j, written as n*i + j and j + i*n
        let a = n.mul(&i).unwrap().add(&j).unwrap();
        let b = j.add(&i.mul(&n).unwrap()).unwrap();
        assert_eq!(a, b);
        assert_eq!(show(&a), "i*n + j");
        // (i + 1) * n = i*n + n
        let c = i.add_const(1).unwrap().mul(&n).unwrap();
        assert_eq!(show(&c), "i*n + n");
        assert_eq!(show(&i.mul(&i).unwrap().scale(-2).unwrap()), "-2*i*i");
        let (coef, rest) = c.split_linear(&Atom::Var(SymbolId::from_u32(0))).unwrap();
        assert_eq!(coef, n);
        assert_eq!(rest, n);
        assert!(
            i.mul(&i)
                .unwrap()
                .split_linear(&Atom::Var(SymbolId::from_u32(0)))
                .is_none()
        );
    }

    #[test]
    fn substitution_and_division() {
        let (i, n) = (v(0), v(2));
        let e = i.scale(2).unwrap().add_const(1).unwrap();
        let s = e
            .subst(&Atom::Var(SymbolId::from_u32(0)), &n.add_const(-1).unwrap())
            .unwrap();
        assert_eq!(show(&s), "2*n - 1");
        assert_eq!(show(&n.scale(4).unwrap().div(2).unwrap()), "2*n");
        let h = n.div(2).unwrap();
        assert_eq!(show(&h), "n / 2");
        assert_eq!(h, n.div(2).unwrap());
        assert_eq!(show(&h.scale(3).unwrap()), "3*(n / 2)");
        assert!(n.div(0).is_none());
        let bytes = n.mul(&v(3)).unwrap().scale(8).unwrap();
        let row = v(3).scale(8).unwrap();
        assert_eq!(bytes.div_exact(&row), Some(n.clone()));
        assert_eq!(bytes.div_exact(&n.scale(3).unwrap()), None);
        assert_eq!(SymExpr::int(7).div(2).unwrap().as_const(), Some(3));
    }

    #[test]
    fn min_and_max_are_canonical() {
        let (n, m) = (v(2), v(3));
        assert_eq!(n.smin(&n.add_const(1).unwrap()).unwrap(), n);
        assert_eq!(
            n.smax(&n.add_const(1).unwrap()).unwrap(),
            n.add_const(1).unwrap()
        );
        let a = n.smax(&m).unwrap();
        let b = m.smax(&n).unwrap();
        assert_eq!(a, b);
        assert_eq!(show(&a), "(n > m ? n : m)");
        // flattened, and a constant shift of an argument collapses
        let c = a.smax(&n.add_const(-3).unwrap()).unwrap();
        assert_eq!(c, a);
        // substituting makes it exact again
        let d = a.subst(&Atom::Var(SymbolId::from_u32(3)), &n).unwrap();
        assert_eq!(d, n);
    }

    #[test]
    fn overflow_is_none() {
        let big = SymExpr::int(i64::MAX);
        assert!(big.add_const(1).is_none());
        assert!(big.scale(2).is_none());
        assert!(SymExpr::int(i64::MIN).neg().is_none());
    }

    #[test]
    fn negative_leading_term_prints_as_c() {
        let (i, n) = (v(0), v(2));
        let e = n.sub(&i).unwrap().add_const(-1).unwrap();
        assert_eq!(show(&e), "-i + n - 1");
        assert_eq!(show(&SymExpr::int(-4)), "-4");
    }
}
