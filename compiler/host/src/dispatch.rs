//! The `dispatch` construct (OpenMP 5.1, 5.2 section 7.6) in the host text: gcc 12 ignores
//! the directive and rejects `declare variant` selectors that name `dispatch`, so ompcc
//! resolves the call itself (`ompcc_omp::host_dispatch_calls`) and writes what the
//! construct means:
//!
//! ```c
//! {                                          // the pragma line becomes these lines
//! #pragma omp taskwait depend(...)           // with depend clauses: before the region
//! # N "file.c"
//! int nv = !!(novariants), nc = !!(nocontext); int dd = omp_get_default_device();
//! omp_set_default_device((int)(device));     // with a device clause, for the region
//! { __typeof__(f) *volatile base = f;        // with novariants: the base through a pointer
//! if (nv) x = (*base)(...); else if (nc) x = v_nocontext(...); else x = v_dispatch(...); }
//! omp_set_default_device(dd); }
//! ```
//!
//! `novariants(true)` calls the base function (through a volatile pointer, as gcc replaces a
//! direct call of it by a variant matching the enclosing constructs); `nocontext(true)` leaves `dispatch` out of
//! the construct set when selecting; `nowait` has no effect (5.2: the nowait property
//! does not change the construct). The call of the variant chosen with `dispatch` passes the
//! arguments its `adjust_args(need_device_ptr: ...)` names through `ompcc_rt_use_device_ptr`
//! of the default device (the device address of mapped storage; an unmapped pointer as it
//! is), except those `is_device_ptr`/`has_device_addr` name (not in a target region's
//! fallback copy, whose pointers are the device's). Each clause
//! expression is evaluated once, in that order, before the call. `declare variant`
//! directives whose selector names `dispatch` are removed from the host text (their calls
//! outside `dispatch` call the base function, as no such selector matches there).
//!
//! Invariant: line numbers stay the user's: the copies of the statement are written on its
//! first line, followed by its newlines; the inserted taskwait line is followed by a marker.

use ompcc_diag::{Diagnostic, SourceMap};
use ompcc_omp::walk::{self, Node};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{OmpClauseKind, OmpClauseName, TranslationUnit};
use std::collections::BTreeMap;

/// Adds to `subst` (start -> (end, text), the pragma-only substitutions) the rewrites of the
/// `dispatch` constructs of `tu` and of the `declare variant` directives naming `dispatch`;
/// `code_subst` loses its substitutions inside the rewritten statements. Errors go to
/// `errors`.
pub(crate) fn host_pragmas(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
    sm: &SourceMap,
    subst: &mut BTreeMap<usize, (usize, String)>,
    code_subst: &mut BTreeMap<usize, (usize, String)>,
    errors: &mut Vec<Diagnostic>,
) {
    walk::unit(tu, &mut |n| {
        if let Node::Directive(d) = n
            && ompcc_omp::is_declare_variant(d)
            && ompcc_omp::selects_dispatch(d, text)
        {
            let (lo, hi) = (d.span.lo as usize, d.span.hi as usize);
            subst.insert(lo, (hi, newlines(&text[lo..hi])));
        }
    });
    let (calls, diags) = ompcc_omp::host_dispatch_calls(tu, typed, text);
    errors.extend(diags);
    for (k, call) in calls.iter().enumerate() {
        let d = call.directive;
        let Some(body) = d.body.as_deref() else {
            continue;
        };
        let expr = |name: OmpClauseName| {
            d.clauses.iter().find_map(|c| match &c.kind {
                OmpClauseKind::Expr(e) if c.name == name => {
                    Some(&text[e.span.lo as usize..e.span.hi as usize])
                }
                _ => None,
            })
        };
        let depends: Vec<&str> = d
            .clauses
            .iter()
            .filter(|c| c.name == OmpClauseName::Depend)
            .map(|c| &text[c.span.lo as usize..c.span.hi as usize])
            .collect();
        let (plo, phi) = (d.span.lo as usize, d.span.hi as usize);
        let mut head = String::from("{");
        if !depends.is_empty() {
            let loc = sm.lookup(d.span.lo);
            let marker =
                crate::embed::line_marker(loc.line, sm.file_name(loc.file), loc.system_header);
            let clauses = depends.join(" ").replace("\\\n", " ").replace('\n', " ");
            head.push_str(&format!("\n#pragma omp taskwait {clauses}\n{marker}"));
        }
        let nv = expr(OmpClauseName::Novariants).map(|e| {
            head.push_str(&format!(" int __ompcc_nv{k} = !!({e});"));
            format!("__ompcc_nv{k}")
        });
        let nc = expr(OmpClauseName::Nocontext).map(|e| {
            head.push_str(&format!(" int __ompcc_nc{k} = !!({e});"));
            format!("__ompcc_nc{k}")
        });
        let device = expr(OmpClauseName::Device);
        if let Some(dev) = device {
            head.push_str(&format!(
                " extern int omp_get_default_device(void); \
                 extern void omp_set_default_device(int); \
                 int __ompcc_dd{k} = omp_get_default_device(); \
                 omp_set_default_device((int)({dev}));"
            ));
        }
        head.push_str(&newlines(&text[plo..phi]));
        subst.insert(plo, (phi, head));

        // the statement, once per function it may call
        let (slo, shi) = (body.span.lo as usize, body.span.hi as usize);
        let stmt = &text[slo..shi];
        let (clo, chi) = (
            call.callee.span.lo as usize - slo,
            call.callee.span.hi as usize - slo,
        );
        let one_line = |s: &str| s.replace("\\\n", " ").replace('\n', " ");
        let converted = device_pointer_args(call, body, text, &sm.describe(d.span));
        let calling = |v: Option<ompcc_sema::SymbolId>, adjusted: &[(usize, usize, String)]| {
            let Some(v) = v else {
                return one_line(stmt);
            };
            let mut edits = vec![(clo, chi, typed.symbols[v].name.clone())];
            edits.extend(adjusted.iter().cloned());
            let mut out = String::new();
            let mut at = 0;
            for (lo, hi, with) in edits {
                out.push_str(&one_line(&stmt[at..lo]));
                out.push_str(&with);
                at = hi;
            }
            out.push_str(&one_line(&stmt[at..]));
            out
        };
        let mut out = String::new();
        if let Some(nv) = &nv {
            // the base function through a pointer: gcc would replace a direct call by a
            // variant whose selector matches the enclosing constructs
            let base = &text[call.callee.span.lo as usize..call.callee.span.hi as usize];
            let base_call = format!(
                "{}(*__ompcc_base{k}){}",
                one_line(&stmt[..clo]),
                one_line(&stmt[chi..])
            );
            out.push_str(&format!(
                "{{ __typeof__({base}) *volatile __ompcc_base{k} = {base}; if ({nv}) {base_call} else "
            ));
        }
        if let Some(nc) = &nc {
            out.push_str(&format!(
                "if ({nc}) {} else ",
                calling(call.without_dispatch, &[])
            ));
        }
        out.push_str(&calling(call.with_dispatch, &converted));
        if nv.is_some() {
            out.push_str(" }");
        }
        if device.is_some() {
            out.push_str(&format!(" omp_set_default_device(__ompcc_dd{k});"));
        }
        out.push_str(" }");
        out.push_str(&newlines(stmt));
        let inner: Vec<usize> = code_subst.range(slo..shi).map(|(&at, _)| at).collect();
        for at in inner {
            code_subst.remove(&at);
        }
        subst.insert(slo, (shi, out));
    }
}

/// The edits of `call`'s statement (`body`) that pass its `adjust_args(need_device_ptr: ...)`
/// arguments as `use_device_ptr` translates them (the default device is the construct's
/// `device` by then; an unmapped pointer passes unchanged): (start, end) offsets in the
/// statement, in order, and the text that replaces them.
fn device_pointer_args(
    call: &ompcc_omp::DispatchCall<'_>,
    body: &ompcc_syntax::ast::Stmt,
    text: &str,
    loc: &str,
) -> Vec<(usize, usize, String)> {
    let slo = body.span.lo as usize;
    let loc = crate::cexpr::c_string(loc);
    let args = ompcc_omp::dispatch_target_call_parts(body).map_or(&[][..], |(_, a)| a);
    let mut edits: Vec<(usize, usize, String)> = call
        .need_device_ptr
        .iter()
        .filter_map(|&i| args.get(i))
        .map(|a| {
            let (alo, ahi) = (a.span.lo as usize, a.span.hi as usize);
            let arg = text[alo..ahi].replace("\\\n", " ").replace('\n', " ");
            let name = crate::cexpr::c_string(&arg);
            let with = format!(
                "ompcc_rt_use_device_ptr({}, (void *)({arg}), {name}, {loc})",
                crate::embed::DEVICE_DEFAULT
            );
            (alo - slo, ahi - slo, with)
        })
        .collect();
    edits.sort_by_key(|e| e.0);
    edits
}

fn newlines(s: &str) -> String {
    "\n".repeat(s.bytes().filter(|&b| b == b'\n').count())
}
