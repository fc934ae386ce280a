//! Automatic offload (`-fopenmp-auto-offload`, DESIGN.md section 11): every top-level
//! `#pragma omp parallel for` whose offload the access analysis proves safe becomes two
//! versions, chosen at run time:
//!
//! ```c
//! { if (__ompcc_auto_select("f.c:12", trip, bytes, features...)) {
//! #pragma omp target teams distribute parallel for <its clauses> map(...)
//!   for (...) ...                       // a copy of the loop: the device version
//! } else {
//! #pragma omp parallel for <its clauses>
//!   for (...) ...                       // the loop as written: the host version
//! } __ompcc_auto_done("f.c:12"); }
//! ```
//!
//! The device version maps every base the loop touches with the section the analysis proves
//! (a loop whose data it cannot bound stays on the host); the data planner, which runs on the
//! result, then keeps that data on the device across consecutive loops and time steps and puts
//! the `target update`s the host version needs inside its branch. The runtime fills the
//! features in, predicts both times, runs the faster and corrects itself from what it measures
//! (`runtime/src/auto_offload.rs`).
//!
//! Like the data plan, the result is text edits: the driver applies them to the preprocessed
//! unit (the copy carries line markers, so both versions keep the user's line numbers) and
//! `--emit=annotated-c` to the user's file.

mod features;
mod legal;

use ompcc_access::{FunctionAccesses, Scope, UnitAccesses};
use ompcc_dataplan::{Anchor, Edit, Remark, anchorable};
use ompcc_diag::{SourceMap, Span};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{ExternalDecl, FunctionDef, OmpDirective, Stmt, StmtKind, TranslationUnit};

/// The runtime entry that chooses the version; a unit that already calls it is not planned
/// again (it is annotated source).
pub const SELECT: &str = "__ompcc_auto_select";
/// The runtime entry that ends the timed execution of a version.
pub const DONE: &str = "__ompcc_auto_done";

/// What `--emit=annotated-c` puts first: any compiler other than ompcc takes the device
/// version of every loop.
pub const PORTABLE_PRELUDE: &str = "#ifndef __OMPCC__
#define __ompcc_auto_select(...) 1
#define __ompcc_auto_done(loc) ((void)0)
#endif
";

/// The edits of a unit, for the preprocessed text and for the user's file, with the remarks.
#[derive(Debug, Default)]
pub struct AutoPlan {
    /// Edits for the preprocessed unit (the copies carry line markers).
    pub preprocessed: Vec<Edit>,
    /// The same edits for the user's file (`--emit=annotated-c`).
    pub annotated: Vec<Edit>,
    /// `-Rpass=auto-offload` (offloaded) and `-Rpass-missed=auto-offload` (kept) remarks.
    pub remarks: Vec<Remark>,
}

/// Plans the unit: `text` is the preprocessed unit the spans index, `original` the user's
/// file when readable (an edit goes only where it can be written into both).
pub fn plan(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    sm: &SourceMap,
    text: &str,
    original: Option<&str>,
) -> AutoPlan {
    let mut out = AutoPlan::default();
    if text.contains(SELECT) {
        return out;
    }
    let ua = ompcc_access::analyze(tu, typed);
    let threadprivate = legal::threadprivate(tu, typed);
    let funcs = tu.items.iter().filter_map(|i| match i {
        ExternalDecl::Function(f) => Some(f),
        _ => None,
    });
    for (fi, f) in funcs.enumerate().take(ua.functions.len()) {
        let fa = &ua.functions[fi];
        for r in fa.regions.iter().filter(|r| r.parent.is_none()) {
            let combined = matches!(r.directive.as_str(), "parallel for" | "parallel for simd");
            if !combined && r.directive != "parallel" {
                continue;
            }
            let Some(stmt) = find_stmt(&f.body.items, r.span) else {
                continue;
            };
            let StmtKind::Omp(d) = &stmt.kind else {
                continue;
            };
            let region = Region {
                ua: &ua,
                fi,
                func: f,
                typed,
                text,
                threadprivate: &threadprivate,
            };
            let parts = if combined {
                Ok(vec![Part::Kernel(region.kernel(
                    d,
                    stmt.span,
                    Scope::Region(r.id),
                    &r.scalars_written,
                ))])
            } else {
                region.split(d)
            };
            match parts.and_then(|parts| region.version(&parts, stmt, sm, original)) {
                Ok((pp, ann, remark)) => {
                    out.preprocessed.extend(pp);
                    out.annotated.extend(ann);
                    out.remarks.push(Remark {
                        span: d.span,
                        missed: false,
                        message: remark,
                    });
                }
                Err(why) => out.remarks.push(Remark {
                    span: d.span,
                    missed: true,
                    message: format!("loop kept on the host: {why}"),
                }),
            }
        }
    }
    out.remarks.sort_by_key(|r| r.span.lo);
    out
}

/// The statement whose span is `span`, searched through nested statements.
fn find_stmt(items: &[ompcc_syntax::ast::BlockItem], span: Span) -> Option<&Stmt> {
    use ompcc_syntax::ast::BlockItem;
    items.iter().find_map(|i| match i {
        BlockItem::Stmt(s) => find_in(s, span),
        _ => None,
    })
}

fn find_in(s: &Stmt, span: Span) -> Option<&Stmt> {
    if s.span == span {
        return Some(s);
    }
    if s.span.lo > span.lo || s.span.hi < span.hi {
        return None;
    }
    match &s.kind {
        StmtKind::Labeled(_, x) | StmtKind::Default(x) | StmtKind::Case(_, _, x) => {
            find_in(x, span)
        }
        StmtKind::Compound(b) => find_stmt(&b.items, span),
        StmtKind::If(_, t, e) => {
            find_in(t, span).or_else(|| e.as_deref().and_then(|e| find_in(e, span)))
        }
        StmtKind::Switch(_, b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
            find_in(b, span)
        }
        StmtKind::For(_, _, _, b) => find_in(b, span),
        StmtKind::Omp(d) => d.body.as_deref().and_then(|b| find_in(b, span)),
        _ => None,
    }
}

/// What the kernels of one function share.
struct Region<'a, 'u> {
    ua: &'a UnitAccesses<'u>,
    fi: usize,
    func: &'a FunctionDef,
    typed: &'a TypedUnit,
    text: &'a str,
    threadprivate: &'a [ompcc_sema::SymbolId],
}

/// One work-sharing loop becoming a kernel: a `parallel for`, or a `for` of a `parallel`
/// region.
struct Candidate<'a, 'u> {
    ua: &'a UnitAccesses<'u>,
    fi: usize,
    fa: &'a FunctionAccesses,
    directive: &'a OmpDirective,
    /// The directive's statement (pragma and loop).
    span: Span,
    /// Where the access analysis computes its sections.
    scope: Scope,
    /// Scalars declared outside that it writes.
    scalars_written: &'a [ompcc_sema::SymbolId],
    /// The data-sharing clauses of the `parallel` region it was split from, which hold for
    /// each of its loops.
    inherited: Vec<&'a ompcc_syntax::ast::OmpClause>,
    func: &'a FunctionDef,
    typed: &'a TypedUnit,
    text: &'a str,
    threadprivate: &'a [ompcc_sema::SymbolId],
}

/// A piece of an offloaded region, in order.
enum Part<'a, 'u> {
    /// A loop that becomes a kernel.
    Kernel(Candidate<'a, 'u>),
    /// `single` / `master` code that runs once on the host between kernels.
    Host(&'a Stmt),
}

/// A piece of the device side's text.
struct Piece {
    /// The directive line written before the copied lines (none for host code).
    pragma: Option<String>,
    /// The line of the directive in the source.
    pragma_line: u32,
    /// The statement whose lines are copied.
    copy: Span,
}

impl<'a, 'u> Region<'a, 'u> {
    fn kernel(
        &self,
        directive: &'a OmpDirective,
        span: Span,
        scope: Scope,
        scalars_written: &'a [ompcc_sema::SymbolId],
    ) -> Candidate<'a, 'u> {
        Candidate {
            ua: self.ua,
            fi: self.fi,
            fa: &self.ua.functions[self.fi],
            directive,
            span,
            scope,
            scalars_written,
            inherited: Vec::new(),
            func: self.func,
            typed: self.typed,
            text: self.text,
            threadprivate: self.threadprivate,
        }
    }

    /// A `parallel` region as kernels split at its work-sharing loops (OpenMPC's kernel
    /// regions), with its `single`/`master` code run on the host between them.
    fn split(&self, d: &'a OmpDirective) -> Result<Vec<Part<'a, 'u>>, String> {
        let mut inherited = Vec::new();
        for c in &d.clauses {
            let name = c.name.as_str();
            match name {
                "shared" | "default" | "num_threads" | "proc_bind" => {}
                // each thread's copy lives through the region; the loops' own clauses keep
                // that where no code outside the loops sees it (checked below)
                "private" | "firstprivate" | "reduction" => inherited.push(c),
                _ => return Err(format!("the 'parallel' region has the clause '{name}'")),
            }
        }
        let Some(StmtKind::Compound(block)) = d.body.as_deref().map(|b| &b.kind) else {
            return Err("the 'parallel' region is not a block of work-sharing loops".to_owned());
        };
        let fa = &self.ua.functions[self.fi];
        let mut parts = Vec::new();
        for item in &block.items {
            let ompcc_syntax::ast::BlockItem::Stmt(s) = item else {
                return Err(
                    "the 'parallel' region declares variables that every thread would own"
                        .to_owned(),
                );
            };
            let StmtKind::Omp(inner) = &s.kind else {
                return Err(format!(
                    "the 'parallel' region runs code outside work-sharing loops on every \
                     thread (line {})",
                    self.line_of(s.span)
                ));
            };
            match inner.kind.to_string().as_str() {
                "for" | "for simd" => {
                    let Some(l) = fa.loops.iter().find(|l| {
                        l.omp.as_ref().is_some_and(|(_, lvl)| *lvl == 0)
                            && l.span.lo >= s.span.lo
                            && l.span.hi <= s.span.hi
                    }) else {
                        return Err("a work-sharing loop is not analysed".to_owned());
                    };
                    let mut k = self.kernel(inner, s.span, Scope::Loop(l.id), &l.scalars_written);
                    k.inherited = inherited.clone();
                    parts.push(Part::Kernel(k));
                }
                "single" | "master" | "masked" if inner.clauses.is_empty() => {
                    let Some(body) = inner.body.as_deref() else {
                        continue;
                    };
                    parts.push(Part::Host(body));
                }
                "barrier" => {}
                other => {
                    return Err(format!("the 'parallel' region holds '#pragma omp {other}'"));
                }
            }
        }
        if !inherited.is_empty() && parts.iter().any(|p| matches!(p, Part::Host(_))) {
            return Err(
                "the 'parallel' region's private or reduction copies would be seen by its \
                 'single'/'master' code"
                    .to_owned(),
            );
        }
        if !parts.iter().any(|p| matches!(p, Part::Kernel(_))) {
            return Err("the 'parallel' region has no work-sharing loop".to_owned());
        }
        Ok(parts)
    }

    fn line_of(&self, s: Span) -> usize {
        self.text[..s.lo as usize].matches('\n').count() + 1
    }

    /// The two versions as edits (preprocessed, annotated) and the `-Rpass` text, or why the
    /// loop stays on the host.
    fn version(
        &self,
        parts: &[Part],
        stmt: &Stmt,
        sm: &SourceMap,
        original: Option<&str>,
    ) -> Result<(Vec<Edit>, Vec<Edit>, String), String> {
        let main = sm.main_file();
        let mut pieces = Vec::new();
        let mut kernels = Vec::new();
        let mut all_maps: Vec<String> = Vec::new();
        let mut bytes: Vec<String> = Vec::new();
        let mut feats: Option<features::Features> = None;
        for part in parts {
            match part {
                Part::Kernel(k) => {
                    let d = k.directive;
                    let Some(body) = d.body.as_deref() else {
                        return Err("the directive has no loop".to_owned());
                    };
                    let clauses = k.device_clauses()?;
                    k.calls_allowed()?;
                    k.directives_allowed(body)?;
                    let maps = k.maps(k.func)?;
                    let f = features::features(k);
                    feats = Some(match feats {
                        None => f,
                        Some(acc) => acc.plus(&f),
                    });
                    let simd = if d.kind.to_string().ends_with("simd") {
                        " simd"
                    } else {
                        ""
                    };
                    let kernel = format!("target teams distribute parallel for{simd}");
                    let mut pragma = format!("#pragma omp {kernel}");
                    for c in clauses.iter().chain(&maps.clauses) {
                        pragma.push(' ');
                        pragma.push_str(c);
                    }
                    for m in maps.clauses {
                        merge_map(&mut all_maps, m);
                    }
                    for b in maps.bytes {
                        if !bytes.contains(&b) {
                            bytes.push(b);
                        }
                    }
                    kernels.push(kernel);
                    pieces.push(Piece {
                        pragma: Some(pragma),
                        pragma_line: sm.lookup(d.span.lo).line,
                        copy: body.span,
                    });
                }
                Part::Host(s) => pieces.push(Piece {
                    pragma: None,
                    pragma_line: 0,
                    copy: s.span,
                }),
            }
        }
        let Some(feats) = feats else {
            return Err("nothing to offload".to_owned());
        };
        let at = sm.lookup(stmt.span.lo);
        let mut anchors = vec![Anchor::Before(stmt.span), Anchor::After(stmt.span)];
        for p in &pieces {
            if sm.lookup(p.copy.lo).file != main {
                return Err("the loop is not in the main file".to_owned());
            }
            anchors.push(Anchor::Before(p.copy));
            anchors.push(Anchor::After(p.copy));
        }
        if at.file != main
            || anchors
                .iter()
                .any(|a| !anchorable(self.text, sm, original, *a))
        {
            return Err(
                "the loop shares its lines with other code, where the two versions cannot be \
                 written"
                    .to_owned(),
            );
        }
        let file = sm.file_name(at.file);
        let loc = format!("{}:{}", file.rsplit('/').next().unwrap_or(file), at.line);
        let bytes = if bytes.is_empty() {
            "0L".to_owned()
        } else {
            bytes.join(" + ")
        };
        let select = format!(
            "{{ if ({SELECT}({}, {}, {bytes}, {})) {{",
            c_string(&loc),
            feats.trip,
            feats.list()
        );
        let done = format!("}} {DONE}({}); }}", c_string(&loc));
        let marker = |line: u32| format!("# {line} {}", c_string(file));
        // the device side in the preprocessed unit: each copy after a line marker, so that it
        // keeps its lines
        let raw = self.text.as_bytes();
        let mut pp_text = select.clone();
        for p in &pieces {
            if let Some(pragma) = &p.pragma {
                pp_text.push_str(&format!("\n{}\n{pragma}", marker(p.pragma_line)));
            }
            let from = line_start(raw, p.copy.lo as usize);
            let to = line_end(raw, p.copy.hi as usize);
            pp_text.push_str(&format!(
                "\n{}\n{}",
                marker(sm.lookup(p.copy.lo).line),
                &self.text[from..to]
            ));
        }
        pp_text.push_str("\n} else {");
        let pp = vec![
            Edit {
                at: Anchor::Before(stmt.span),
                text: pp_text,
                order: 1,
            },
            Edit {
                at: Anchor::After(stmt.span),
                text: done.clone(),
                order: 1,
            },
        ];
        let ann = match original {
            Some(orig) => {
                let lines: Vec<&str> = orig.split('\n').collect();
                let mut text = select;
                for p in &pieces {
                    if let Some(pragma) = &p.pragma {
                        text.push('\n');
                        text.push_str(pragma);
                    }
                    let first = sm.lookup(p.copy.lo).line as usize;
                    let last = sm.lookup(p.copy.hi.saturating_sub(1)).line as usize;
                    let Some(copy) = lines.get(first - 1..last) else {
                        return Err("the loop's lines are not in the source file".to_owned());
                    };
                    text.push('\n');
                    text.push_str(&copy.join("\n"));
                }
                text.push_str("\n} else {");
                vec![
                    Edit {
                        at: Anchor::Before(stmt.span),
                        text,
                        order: 1,
                    },
                    Edit {
                        at: Anchor::After(stmt.span),
                        text: done,
                        order: 1,
                    },
                ]
            }
            None => pp.clone(),
        };
        let trip = if feats.trip == "-1" {
            "unknown".to_owned()
        } else {
            feats.trip.clone()
        };
        let data = if all_maps.is_empty() {
            "none mapped".to_owned()
        } else {
            all_maps.join(" ")
        };
        let what = if kernels.len() == 1 {
            format!("kernel '{}'", kernels[0])
        } else {
            format!("{} kernels split at the region's loops", kernels.len())
        };
        let remark = format!(
            "loop offloaded in two versions chosen at run time: {what}, trip count {trip}, data \
             {data}"
        );
        Ok((pp, ann, remark))
    }
}

impl Candidate<'_, '_> {
    fn src(&self, s: Span) -> &str {
        &self.text[s.lo as usize..s.hi as usize]
    }
}

/// Adds `map(kind: item)` to the remark's list; an item mapped with two kinds is `tofrom`.
fn merge_map(list: &mut Vec<String>, m: String) {
    let item = |m: &str| m.split_once(": ").map(|(_, rest)| rest.to_owned());
    match list.iter().position(|x| item(x) == item(&m)) {
        Some(i) if list[i] != m => {
            list[i] = format!("map(tofrom: {}", item(&m).unwrap_or_default());
        }
        Some(_) => {}
        None => list.push(m),
    }
}

/// `s` as a C string literal.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            _ => out.push('?'),
        }
    }
    out.push('"');
    out
}

fn line_start(b: &[u8], pos: usize) -> usize {
    b[..pos]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1)
}

fn line_end(b: &[u8], pos: usize) -> usize {
    b[pos..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| pos + p)
}
