//! The dependence test: does loop `L` carry a dependence on base `B`?
//!
//! For every pair of accesses to `B` inside `L` with at least one write (an access paired
//! with itself included), the subscripts of the second are renamed to another iteration
//! (the variables of `L` and of the loops inside it become [`Atom::Prime`]; variables of
//! outer loops and symbols are shared) and, per dimension, `h = s1 - s2'` must be zero for
//! the two to touch the same element. The pair is independent across iterations of `L` when
//! some dimension proves `h != 0` for `i != i'`:
//! - GCD: `h` is linear in the loop variables with constant coefficients and a constant
//!   rest that their gcd does not divide (no solution at all);
//! - separation (Banerjee-style bounds): `h = X*(i - i') + R` with `X` free of the loop
//!   variables and `|R| <= |X| - 1` over the ranges of the inner loops' variables (both
//!   copies), proven from the loop facts: then `|X*(i - i')| >= |X| > |R|`.
//!   This covers `a[i][j]`, `a[i*n + j]` with `0 <= j < n`, and `a[2*i]` vs `a[2*i + 1]`.
//!
//! Calls inside `L` that touch `B`, bases that may alias `B`, and unknown subscripts make
//! the answer [`Dependence::Unknown`]; a constant distance is reported with `MayCarry`.

use ompcc_diag::Span;

use crate::alias;
use crate::model::*;
use crate::section::{Ctx, Facts};
use crate::sym::{Atom, SymExpr};

impl Ctx<'_> {
    /// See the module header.
    pub fn dependence(&self, l: LoopId, b: BaseId) -> Dependence {
        let lp = &self.f.loops[l.0 as usize];
        let Ok(canon) = &lp.form else {
            return Dependence::Unknown(
                lp.form
                    .clone()
                    .err()
                    .unwrap_or_else(|| Unknown::new(Reason::LoopNotCanonical("unknown"), lp.span)),
            );
        };
        // the base must name the same memory in every iteration
        if let Err(u) = self.base_stable(b, lp.span, Scope::Loop(l), lp.span) {
            return Dependence::Unknown(u);
        }
        let inside = |loops: &[LoopId]| loops.contains(&l);
        // calls in the loop
        for c in &self.f.calls {
            if !inside(&c.loops) {
                continue;
            }
            if c.unknown_globals.is_some()
                && crate::section::reachable_by_unknown(&self.f.bases[b.0 as usize])
            {
                return Dependence::Unknown(c.unknown_globals.clone().unwrap_or_else(|| {
                    Unknown::new(Reason::CalleeUnknown(c.name.clone()), c.span)
                }));
            }
            for e in &c.effects {
                if (e.base == b || alias::may_alias(self, e.base, b))
                    && (e.kind.writes() || self.written_in_loop(l, b))
                {
                    return Dependence::Unknown(Unknown::new(
                        Reason::CallInLoop(c.name.clone()),
                        c.span,
                    ));
                }
            }
        }
        let accs: Vec<&Access> = self
            .f
            .accesses
            .iter()
            .filter(|a| inside(&a.loops))
            .collect();
        // other bases that may alias this one
        let b_written = accs.iter().any(|a| a.base == b && a.kind.writes());
        for a in &accs {
            if a.base != b
                && (a.kind.writes() || b_written)
                && accs.iter().any(|x| x.base == b)
                && alias::may_alias(self, a.base, b)
            {
                let name = self.f.bases[a.base.0 as usize].name.clone();
                return Dependence::Unknown(Unknown::new(Reason::MayAlias(name), a.span));
            }
        }
        let mine: Vec<&Access> = accs.into_iter().filter(|a| a.base == b).collect();
        let mut first_carry: Option<Dependence> = None;
        for (x, p) in mine.iter().enumerate() {
            for q in &mine[x..] {
                if !p.kind.writes() && !q.kind.writes() {
                    continue;
                }
                match self.pair(l, canon, p, q) {
                    Ok(true) => {}
                    Ok(false) => {}
                    Err(PairResult::Carry(d)) => {
                        if first_carry.is_none() {
                            first_carry = Some(Dependence::MayCarry {
                                first: p.span,
                                second: q.span,
                                distance: d,
                            });
                        }
                    }
                    Err(PairResult::Unknown(u)) => return Dependence::Unknown(u),
                }
            }
        }
        first_carry.unwrap_or(Dependence::Independent)
    }

    fn written_in_loop(&self, l: LoopId, b: BaseId) -> bool {
        self.f
            .accesses
            .iter()
            .any(|a| a.base == b && a.kind.writes() && a.loops.contains(&l))
    }

    /// `Ok(_)`: no dependence carried by `l` between `p` and `q`.
    fn pair(
        &self,
        l: LoopId,
        canon: &Canonical,
        p: &Access,
        q: &Access,
    ) -> Result<bool, PairResult> {
        let subs = |a: &Access| -> Result<Vec<SymExpr>, PairResult> {
            a.subscripts
                .iter()
                .map(|s| s.clone().map_err(PairResult::Unknown))
                .collect()
        };
        let (s1, s2) = (subs(p)?, subs(q)?);
        if s1.len() != s2.len() {
            return Err(PairResult::Unknown(Unknown::new(
                Reason::ShapeMismatch,
                q.span,
            )));
        }
        let inner = |a: &Access| -> Vec<LoopId> {
            let k = a.loops.iter().position(|x| *x == l).unwrap_or(0);
            a.loops[k..].to_vec()
        };
        let (in1, in2) = (inner(p), inner(q));
        // rename the second access's inner loop variables
        let prime = |e: &SymExpr| -> Option<SymExpr> {
            let mut e = e.clone();
            for lid in &in2 {
                if let Ok(c) = &self.f.loops[lid.0 as usize].form {
                    e = e.subst(&Atom::Var(c.var), &SymExpr::atom(Atom::Prime(c.var)))?;
                }
            }
            Some(e)
        };
        let ovf = || PairResult::Unknown(Unknown::new(Reason::Overflow, q.span));
        let mut facts = self.facts(&p.loops);
        let mut inner_vars: Vec<(Atom, SymExpr, SymExpr)> = Vec::new();
        for lid in &in1 {
            if let Ok(c) = &self.f.loops[lid.0 as usize].form {
                inner_vars.push((Atom::Var(c.var), c.lo.clone(), c.hi.clone()));
            }
        }
        for lid in &in2 {
            if let Ok(c) = &self.f.loops[lid.0 as usize].form {
                let r = (
                    Atom::Prime(c.var),
                    prime(&c.lo).ok_or_else(ovf)?,
                    prime(&c.hi).ok_or_else(ovf)?,
                );
                facts.ranges.push(r.clone());
                inner_vars.push(r);
            }
        }
        for x in self.facts(&q.loops).ranges {
            if !facts.ranges.iter().any(|y| y.0 == x.0) {
                facts.ranges.push(x);
            }
        }
        let i = Atom::Var(canon.var);
        let ip = Atom::Prime(canon.var);
        let mut distance = None;
        for (a, b) in s1.iter().zip(&s2) {
            let h = a.sub(&prime(b).ok_or_else(ovf)?).ok_or_else(ovf)?;
            if gcd_excludes(&h, &inner_vars) {
                return Ok(true);
            }
            let Some((x, r1)) = h.split_linear(&i) else {
                continue;
            };
            let Some((xp, r)) = r1.split_linear(&ip) else {
                continue;
            };
            if x.is_zero() || xp != x.neg().ok_or_else(ovf)? {
                continue;
            }
            if self.separated(&x, &r, &inner_vars, &facts, q.span) {
                return Ok(true);
            }
            if let (Some(c), Some(k)) = (x.as_const(), r.as_const())
                && c != 0
            {
                let (Some(rem), Some(q)) = (k.checked_rem(c), k.checked_div(c)) else {
                    continue;
                };
                if rem != 0 {
                    return Ok(true);
                }
                // i - i' = -k/c, and the variable moves by `step` per iteration
                let Some(d) = q.checked_neg() else { continue };
                match d.checked_rem(canon.step) {
                    Some(0) => {}
                    Some(_) => return Ok(true),
                    None => continue,
                }
                distance = d.checked_div(canon.step).and_then(i64::checked_abs);
            }
        }
        Err(PairResult::Carry(distance))
    }

    /// `|r| <= |x| - 1` over the ranges of the inner variables.
    fn separated(
        &self,
        x: &SymExpr,
        r: &SymExpr,
        inner: &[(Atom, SymExpr, SymExpr)],
        facts: &Facts,
        span: Span,
    ) -> bool {
        let absx = match self.sign(x, facts) {
            1 => x.clone(),
            -1 => match x.neg() {
                Some(n) => n,
                None => return false,
            },
            _ => return false,
        };
        let (mut lo, mut hi) = (r.clone(), r.clone());
        // innermost first: the later entries are deeper loops
        for (v, vlo, vhi) in inner.iter().rev() {
            let Ok(l2) = self.eliminate(&lo, v, (vlo, vhi), facts, true, span) else {
                return false;
            };
            let Ok(h2) = self.eliminate(&hi, v, (vlo, vhi), facts, false, span) else {
                return false;
            };
            lo = l2;
            hi = h2;
        }
        let Some(m) = absx.add_const(-1) else {
            return false;
        };
        let ok_hi = m.sub(&hi).is_some_and(|d| self.sign(&d, facts) == 1);
        let ok_lo = m.add(&lo).is_some_and(|d| self.sign(&d, facts) == 1);
        ok_hi && ok_lo
    }
}

enum PairResult {
    Carry(Option<i64>),
    Unknown(Unknown),
}

/// GCD test: `h = sum c_k v_k + k0` with constant coefficients over the loop variables and
/// a constant rest; no integer solution when gcd(c) does not divide k0.
fn gcd_excludes(h: &SymExpr, vars: &[(Atom, SymExpr, SymExpr)]) -> bool {
    let mut g: i64 = 0;
    let mut k0: i64 = 0;
    for t in h.terms() {
        match t.atoms.as_slice() {
            [] => k0 = t.coef,
            [a] if vars.iter().any(|(v, ..)| v == a) => match t.coef.checked_abs() {
                Some(c) => g = gcd(g, c),
                None => return false,
            },
            _ => return false,
        }
    }
    if g == 0 {
        return k0 != 0;
    }
    k0.checked_rem(g).is_some_and(|r| r != 0)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a.checked_rem(b).unwrap_or(0))
    }
}
