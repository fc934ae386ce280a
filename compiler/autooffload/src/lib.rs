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

use ompcc_access::{FunctionAccesses, Region, UnitAccesses};
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
            if !matches!(r.directive.as_str(), "parallel for" | "parallel for simd") {
                continue;
            }
            let Some(stmt) = find_stmt(&f.body.items, r.span) else {
                continue;
            };
            let StmtKind::Omp(d) = &stmt.kind else {
                continue;
            };
            let cx = Candidate {
                ua: &ua,
                fi,
                fa,
                region: r,
                directive: d,
                func: f,
                typed,
                text,
                threadprivate: &threadprivate,
            };
            match cx.version(sm, original) {
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

/// One `parallel for` being considered.
struct Candidate<'a, 'u> {
    ua: &'a UnitAccesses<'u>,
    fi: usize,
    fa: &'a FunctionAccesses,
    region: &'a Region,
    directive: &'a OmpDirective,
    func: &'a FunctionDef,
    typed: &'a TypedUnit,
    text: &'a str,
    threadprivate: &'a [ompcc_sema::SymbolId],
}

impl Candidate<'_, '_> {
    fn src(&self, s: Span) -> &str {
        &self.text[s.lo as usize..s.hi as usize]
    }

    /// The two versions as edits (preprocessed, annotated) and the `-Rpass` text, or why the
    /// loop stays on the host.
    fn version(
        &self,
        sm: &SourceMap,
        original: Option<&str>,
    ) -> Result<(Vec<Edit>, Vec<Edit>, String), String> {
        let d = self.directive;
        let Some(body) = d.body.as_deref() else {
            return Err("the directive has no loop".to_owned());
        };
        let clauses = self.device_clauses()?;
        self.calls_allowed()?;
        self.directives_allowed(body)?;
        let maps = self.maps(self.func)?;
        let feats = features::features(self);
        let stmt = self.region.span;
        let bytes = sm.lookup(stmt.lo);
        let loop_loc = sm.lookup(body.span.lo);
        if loop_loc.file != sm.main_file() || bytes.file != sm.main_file() {
            return Err("the loop is not in the main file".to_owned());
        }
        for at in [
            Anchor::Before(stmt),
            Anchor::After(stmt),
            Anchor::Before(body.span),
            Anchor::After(body.span),
        ] {
            if !anchorable(self.text, sm, original, at) {
                return Err("the loop shares its lines with other code, where the two versions cannot be written".to_owned());
            }
        }
        let file = sm.file_name(bytes.file);
        let loc = format!("{}:{}", file.rsplit('/').next().unwrap_or(file), bytes.line);
        let simd = if d.kind.to_string().ends_with("simd") {
            " simd"
        } else {
            ""
        };
        let mut pragma = format!("#pragma omp target teams distribute parallel for{simd}");
        for c in &clauses {
            pragma.push(' ');
            pragma.push_str(c);
        }
        for m in &maps.clauses {
            pragma.push(' ');
            pragma.push_str(m);
        }
        let select = format!(
            "{{ if ({SELECT}({}, {}, {}, {})) {{",
            c_string(&loc),
            feats.trip,
            maps.bytes,
            feats.list()
        );
        let done = format!("}} {DONE}({}); }}", c_string(&loc));
        // the loop's own lines, copied
        let raw = self.text.as_bytes();
        let from = line_start(raw, body.span.lo as usize);
        let to = line_end(raw, body.span.hi as usize);
        let copy_pp = &self.text[from..to];
        let marker = |line: u32| format!("# {line} {}", c_string(file));
        let pp_before = format!(
            "{select}\n{}\n{pragma}\n{}\n{copy_pp}\n}} else {{",
            marker(bytes.line),
            marker(loop_loc.line)
        );
        let mut pp = vec![
            Edit {
                at: Anchor::Before(stmt),
                text: pp_before,
                order: 1,
            },
            Edit {
                at: Anchor::After(stmt),
                text: done.clone(),
                order: 1,
            },
        ];
        let mut ann = Vec::new();
        if let Some(orig) = original {
            let lines: Vec<&str> = orig.split('\n').collect();
            let last = sm.lookup(body.span.hi.saturating_sub(1)).line;
            let Some(copy) = lines.get(loop_loc.line as usize - 1..last as usize) else {
                return Err("the loop's lines are not in the source file".to_owned());
            };
            ann.push(Edit {
                at: Anchor::Before(stmt),
                text: format!("{select}\n{pragma}\n{}\n}} else {{", copy.join("\n")),
                order: 1,
            });
            ann.push(Edit {
                at: Anchor::After(stmt),
                text: done,
                order: 1,
            });
        } else {
            ann = pp.clone();
        }
        pp.sort_by_key(|e| e.order);
        let remark = format!(
            "loop offloaded in two versions chosen at run time: kernel 'target teams distribute parallel for{simd}', trip count {}, data {}",
            if feats.trip == "-1" {
                "unknown".to_owned()
            } else {
                feats.trip.clone()
            },
            if maps.clauses.is_empty() {
                "none mapped".to_owned()
            } else {
                maps.clauses.join(" ")
            }
        );
        Ok((pp, ann, remark))
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
