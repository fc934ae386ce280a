//! The `--emit=accesses` text: per function, its loops, regions, bases, accesses, calls,
//! sections per loop/region/function, dependences and reductions per canonical loop, alias
//! facts and the summary. Every item names its source line; the order is source order, so
//! the text is stable under unrelated edits of other functions.

use std::fmt::Write as _;

use ompcc_diag::{SourceMap, Span};

use crate::UnitAccesses;
use crate::model::*;

struct P<'x, 'u> {
    ua: &'x UnitAccesses<'u>,
    sm: &'x SourceMap,
    out: String,
}

/// Renders the analysis of every function.
pub fn print(ua: &UnitAccesses<'_>, sm: &SourceMap) -> String {
    let mut p = P {
        ua,
        sm,
        out: String::new(),
    };
    for k in 0..ua.functions.len() {
        if in_main_file(sm, ua.functions[k].span) {
            p.function(k);
        }
    }
    p.out
}

fn in_main_file(sm: &SourceMap, s: Span) -> bool {
    sm.lookup(s.lo).file == sm.main_file()
}

impl P<'_, '_> {
    fn line(&self, s: Span) -> u32 {
        self.sm.lookup(s.lo).line
    }

    fn unknown(&self, u: &Unknown) -> String {
        if u.span == Span::default() {
            format!("unknown ({})", u.reason.message())
        } else {
            format!(
                "unknown (line {}: {})",
                self.line(u.span),
                u.reason.message()
            )
        }
    }

    fn name(&self, s: ompcc_sema::SymbolId) -> String {
        self.ua.unit.symbols[s].name.clone()
    }

    fn show(&self, e: &crate::SymExpr) -> String {
        self.ua.expr_c(e)
    }

    fn w(&mut self, s: String) {
        self.out.push_str(&s);
        self.out.push('\n');
    }

    fn function(&mut self, k: usize) {
        let f = &self.ua.functions[k];
        self.w(format!("function {} (line {})", f.name, self.line(f.span)));
        for l in &f.loops {
            self.loop_line(k, l);
        }
        for r in &f.regions {
            let parent = r
                .parent
                .map(|p| format!(" in R{}", p.0))
                .unwrap_or_default();
            let names = |v: &[ompcc_sema::SymbolId]| {
                v.iter()
                    .map(|s| self.name(*s))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let used = self.ua.scalars_used(k, Scope::Region(r.id));
            let mut extra = String::new();
            if !used.is_empty() {
                let _ = write!(extra, " uses {}", names(&used));
            }
            if !r.scalars_written.is_empty() {
                let _ = write!(extra, " writes {}", names(&r.scalars_written));
            }
            self.w(format!(
                "  region R{} line {}{}: {}{extra}",
                r.id.0,
                self.line(r.span),
                parent,
                r.directive
            ));
        }
        for b in &f.bases {
            self.base_line(b);
        }
        for a in &f.accesses {
            self.access_line(f, a);
        }
        for c in &f.calls {
            self.call_line(k, c);
        }
        for l in &f.loops {
            self.sections(k, Scope::Loop(l.id), format!("L{}", l.id.0));
        }
        for r in &f.regions {
            self.sections(k, Scope::Region(r.id), format!("R{}", r.id.0));
        }
        self.sections(k, Scope::Function, "function".into());
        for l in &f.loops {
            if l.form.is_ok() {
                self.loop_facts(k, l);
            }
        }
        self.aliases(k);
        self.summary(k);
    }

    fn loop_line(&mut self, _k: usize, l: &Loop) {
        let parent = l
            .parent
            .map(|p| format!(" in L{}", p.0))
            .unwrap_or_default();
        let form = match &l.form {
            Ok(c) => format!(
                "for {} in [{}, {}] step {}",
                self.name(c.var),
                self.show(&c.lo),
                self.show(&c.hi),
                c.step
            ),
            Err(u) => self.unknown(u),
        };
        let mut extra = String::new();
        if let Some((d, level)) = &l.omp {
            let _ = write!(extra, " [omp {d}");
            if l.collapse > 1 {
                let _ = write!(extra, ", collapse level {} of {}", level + 1, l.collapse);
            }
            extra.push(']');
        }
        if l.early_exit {
            extra.push_str(" [early exit]");
        }
        if !l.scalars_written.is_empty() {
            let names: Vec<String> = l.scalars_written.iter().map(|s| self.name(*s)).collect();
            let _ = write!(extra, " writes {}", names.join(", "));
        }
        self.w(format!(
            "  loop L{} line {}{}: {}{}",
            l.id.0,
            self.line(l.span),
            parent,
            form,
            extra
        ));
    }

    fn base_line(&mut self, b: &Base) {
        let kind = match &b.kind {
            BaseKind::Array { global: true } => "global array".to_string(),
            BaseKind::Array { global: false } => "local array".to_string(),
            BaseKind::GlobalScalar => "global scalar".to_string(),
            BaseKind::Member => "member".to_string(),
            BaseKind::Unknown(u) => self.unknown(u),
            BaseKind::Pointer(p) => match p {
                Provenance::Param(k) => format!("pointer parameter {}", k + 1),
                Provenance::Global => "global pointer".to_string(),
                Provenance::Alloc {
                    func, bytes, elems, ..
                } => {
                    let bytes = match bytes {
                        Ok(x) => self.show(x),
                        Err(u) => self.unknown(u),
                    };
                    let elems = match elems {
                        Ok(x) => format!(" = {} elements", self.show(x)),
                        Err(u) => format!(", elements {}", self.unknown(u)),
                    };
                    format!("pointer from {func}({bytes} bytes){elems}")
                }
                Provenance::AddressOf(x) => format!("pointer to {x}"),
                Provenance::Unknown(u) => format!("pointer of {}", self.unknown(u)),
            },
        };
        let mut extra = String::new();
        if !b.extents.is_empty() {
            let ext: Vec<String> = b
                .extents
                .iter()
                .map(|e| match e {
                    Ok(x) => self.show(x),
                    Err(_) => "?".into(),
                })
                .collect();
            let _ = write!(extra, ", inner extents [{}]", ext.join("]["));
        }
        if b.restrict {
            extra.push_str(", restrict");
        }
        if b.const_pointee {
            extra.push_str(", const");
        }
        if let Some(u) = &b.escapes {
            let _ = write!(extra, ", escapes at line {}", self.line(u.span));
        }
        self.w(format!(
            "  base {}: {}, element {}, {} dims{}",
            b.name, kind, b.elem, b.dims, extra
        ));
    }

    fn subs_text(&self, name: &str, subs: &[Fact<crate::SymExpr>]) -> (String, Option<String>) {
        let mut s = name.to_string();
        let mut why = None;
        for x in subs {
            match x {
                Ok(e) => {
                    let _ = write!(s, "[{}]", self.show(e));
                }
                Err(u) => {
                    s.push_str("[?]");
                    why.get_or_insert_with(|| self.unknown(u));
                }
            }
        }
        (s, why)
    }

    fn access_line(&mut self, f: &FunctionAccesses, a: &Access) {
        let b = &f.bases[a.base.0 as usize];
        let kind = match a.kind {
            AccessKind::Read => "read ",
            AccessKind::Write => "write",
            AccessKind::ReadWrite => "rw   ",
        };
        let (mut text, why) = self.subs_text(&b.name, &a.subscripts);
        if let Some(fl) = &a.field {
            text.push_str(fl);
        }
        let loops: Vec<String> = a.loops.iter().map(|l| format!("L{}", l.0)).collect();
        let mut extra = String::new();
        if !loops.is_empty() {
            let _ = write!(extra, " in {}", loops.join(" "));
        }
        if let Some(w) = why {
            let _ = write!(extra, " -- {w}");
        }
        self.w(format!(
            "  access line {}: {kind} {text}{extra}",
            self.line(a.span)
        ));
    }

    fn call_line(&mut self, k: usize, c: &CallSite) {
        let callee = match &c.callee {
            Callee::Defined(_) => "defined".to_string(),
            Callee::Library(_) => "library".to_string(),
            Callee::Unknown(u) => self.unknown(u),
        };
        let mut parts = Vec::new();
        for e in &c.effects {
            let kind = match e.kind {
                AccessKind::Read => "read",
                AccessKind::Write => "write",
                AccessKind::ReadWrite => "rw",
            };
            let text = match self.ua.section_c(k, e.base, &e.section) {
                Ok(t) => t,
                Err(u) => format!(
                    "{} {}",
                    self.ua.functions[k].bases[e.base.0 as usize].name,
                    self.unknown(&u)
                ),
            };
            parts.push(format!("{kind} {text}"));
        }
        if c.unknown_globals.is_some() {
            parts.push("any memory reachable from globals or parameters".to_string());
        }
        let effects = if parts.is_empty() {
            "no effect on the program's memory".to_string()
        } else {
            parts.join("; ")
        };
        self.w(format!(
            "  call line {}: {} ({callee}): {effects}",
            self.line(c.span),
            c.name
        ));
    }

    fn section_text(&self, k: usize, b: BaseId, s: &Option<Section>) -> Option<String> {
        let s = s.as_ref()?;
        Some(match self.ua.section_c(k, b, s) {
            Ok(t) => t,
            Err(u) => format!(
                "{} {}",
                self.ua.functions[k].bases[b.0 as usize].name,
                self.unknown(&u)
            ),
        })
    }

    fn sections(&mut self, k: usize, scope: Scope, label: String) {
        let secs = self.ua.sections(k, scope);
        if secs.is_empty() {
            return;
        }
        self.w(format!("  sections {label}:"));
        for s in secs {
            if let Some(t) = self.section_text(k, s.base, &s.read) {
                self.w(format!("    read  {t}"));
            }
            if let Some(t) = self.section_text(k, s.base, &s.write) {
                self.w(format!("    write {t}"));
            }
        }
    }

    fn loop_facts(&mut self, k: usize, l: &Loop) {
        let f = &self.ua.functions[k];
        for s in self.ua.sections(k, Scope::Loop(l.id)) {
            if s.write.is_none() {
                continue;
            }
            let b = s.base;
            let text = match self.ua.dependence(k, l.id, b) {
                Dependence::Independent => "independent".to_string(),
                Dependence::MayCarry {
                    first,
                    second,
                    distance,
                } => {
                    let d = distance
                        .map(|d| format!(", distance {d}"))
                        .unwrap_or_default();
                    format!(
                        "may carry (lines {} and {}{d})",
                        self.line(first),
                        self.line(second)
                    )
                }
                Dependence::Unknown(u) => self.unknown(&u),
            };
            self.w(format!(
                "  dependence L{} on {}: {text}",
                l.id.0, f.bases[b.0 as usize].name
            ));
        }
        let par = match self.ua.independent(k, l.id) {
            Ok(()) => "iterations independent".to_string(),
            Err(u) => self.unknown(&u),
        };
        self.w(format!("  parallel L{}: {par}", l.id.0));
        for r in self.ua.reductions(k, l.id) {
            let what = match r.target {
                ReductionTarget::Scalar(v) => self.name(v),
                ReductionTarget::Element { base, access } => {
                    let a = &f.accesses[access];
                    let (t, _) = self.subs_text(&f.bases[base.0 as usize].name, &a.subscripts);
                    format!("{t} (line {})", self.line(a.span))
                }
            };
            self.w(format!("  reduction L{}: {what} ({})", l.id.0, r.op));
        }
        for (ai, a) in f.accesses.iter().enumerate() {
            if a.loops.last() != Some(&l.id) || a.subscripts.is_empty() {
                continue;
            }
            let b = &f.bases[a.base.0 as usize];
            if matches!(b.kind, BaseKind::GlobalScalar | BaseKind::Unknown(_)) {
                continue;
            }
            if let Ok(s) = self.ua.stride(k, ai, l.id) {
                let (text, _) = self.subs_text(&b.name, &a.subscripts);
                self.w(format!(
                    "  stride L{} line {}: {text} {}",
                    l.id.0,
                    self.line(a.span),
                    self.show(&s)
                ));
            }
        }
    }

    fn aliases(&mut self, k: usize) {
        let f = &self.ua.functions[k];
        let written: Vec<bool> = f
            .bases
            .iter()
            .map(|b| {
                f.accesses.iter().any(|a| a.base == b.id && a.kind.writes())
                    || f.calls
                        .iter()
                        .any(|c| c.effects.iter().any(|e| e.base == b.id && e.kind.writes()))
            })
            .collect();
        let named: Vec<&Base> = f
            .bases
            .iter()
            .filter(|b| !matches!(b.kind, BaseKind::Unknown(_) | BaseKind::GlobalScalar))
            .collect();
        for (x, a) in named.iter().enumerate() {
            for b in &named[x + 1..] {
                if !written[a.id.0 as usize] && !written[b.id.0 as usize] {
                    continue;
                }
                let text = match self.ua.distinct(k, a.id, b.id) {
                    Some(why) => format!("distinct ({why})"),
                    None => "may alias".to_string(),
                };
                self.w(format!("  alias {}, {}: {text}", a.name, b.name));
            }
        }
    }

    fn effect_text(&self, name: &str, e: &Effect) -> String {
        let sec = |s: &Option<Section>| -> Option<String> {
            let s = s.as_ref()?;
            Some(match s {
                Ok(dims) => {
                    let mut t = name.to_string();
                    for d in dims {
                        let len = d
                            .length()
                            .map_or_else(|| "?".to_string(), |l| self.show(&l));
                        let _ = write!(t, "[{}:{}]", self.show(&d.lo), len);
                    }
                    t
                }
                Err(u) => format!("{name} {}", self.unknown(u)),
            })
        };
        let mut parts = Vec::new();
        if let Some(r) = sec(&e.read) {
            parts.push(format!("read {r}"));
        }
        if let Some(w) = sec(&e.write) {
            parts.push(format!("write {w}"));
        }
        parts.join(", ")
    }

    fn summary(&mut self, k: usize) {
        let f = &self.ua.functions[k];
        let s = &f.summary;
        let mut parts = Vec::new();
        for (i, e) in s.params.iter().enumerate() {
            if let Some(e) = e {
                let name = f.params[i].map_or_else(|| format!("#{}", i + 1), |p| self.name(p));
                parts.push(self.effect_text(&name, e));
            }
        }
        for (g, e) in &s.globals {
            parts.push(self.effect_text(&self.name(*g), e));
        }
        for p in &s.escaping {
            let name = f.params[*p].map_or_else(|| format!("#{}", p + 1), |p| self.name(p));
            parts.push(format!("{name} escapes"));
        }
        if !s.scalars_written.is_empty() {
            let names: Vec<String> = s.scalars_written.iter().map(|v| self.name(*v)).collect();
            parts.push(format!("assigns {}", names.join(", ")));
        }
        if let Some(u) = &s.unknown_globals {
            parts.push(format!(
                "memory reachable from globals or parameters: {}",
                self.unknown(u)
            ));
        }
        let body = if parts.is_empty() {
            "no memory effects".to_string()
        } else {
            parts.join("; ")
        };
        self.w(format!("  summary: {body}"));
    }
}
