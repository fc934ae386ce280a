//! Host side of offloading: rewrites the preprocessed text of a unit so that each device
//! construct calls the runtime (`runtime/include/ompcc_rt.h`), and embeds the device image.
//!
//! [`rewrite`] patches byte ranges taken from AST spans; every other byte reaches the host
//! compiler verbatim. For each construct of the [`OffloadPlan`]:
//! - `target`: map entries (one `TARGET_PARAM` entry per kernel parameter, in the plan's
//!   order, then the extra maps), launch arguments, and
//!   `if (!(if_cond) || !ompcc_rt_launch(&a)) { <the original construct> }`: the original
//!   pragma and statement stay as the host fallback (gcc compiles them with
//!   `-foffload=disable`);
//! - `target data`: begin, the body (its own constructs rewritten), end; `use_device_ptr`
//!   pointers (and `use_device_addr` pointers) are shadowed in the body by their device values;
//!   every use of a `use_device_addr` variable that is not a pointer becomes `(*__ompcc_uN)`,
//!   an lvalue of its type at its device address (so `sizeof` and `&` keep their meaning),
//!   except in the pragma lines of nested directives, which keep naming the variable for the
//!   host fallback;
//! - `target enter data` / `exit data` / `update`: one runtime call each;
//! - `depend` clauses on these (the runtime runs every construct at once, `nowait` or not):
//!   a `#pragma omp taskwait` with the same clauses first, so sibling tasks the construct
//!   depends on are complete before it runs;
//! - `omp unroll` lines anywhere in the unit: what gcc understands (`unroll` module);
//! - `dispatch` constructs and `declare variant` selectors naming `dispatch`: resolved by
//!   ompcc (`dispatch` module);
//! - OpenMP 5.1/5.2 spellings gcc 12 rejects (`declare target enter`, `begin declare target`,
//!   `present` modifiers in a fallback's clauses): their older equivalents (`compat` module).
//!
//! Map items become `(base, begin, size)` C expressions over their own text (`cexpr`):
//! variables, array sections of arrays and pointers (several dimensions: the contiguous
//! hull), struct members and sections of pointer members (in a `target` region, one group
//! per struct whatever the clause order: a parent entry over the storage the region needs,
//! `MEMBER_OF` entries, the pointees with `ATTACH` entries; see `members`). Kernel parameters that
//! are no map of the variable: firstprivate aggregates (`Pass::Copy`: a temporary copy of the
//! bytes, mapped `to`) and `has_device_addr` variables (`Pass::DeviceAddr`: `&x` as a
//! `LITERAL`).
//!
//! Line numbers of user code never change: replaced text keeps its newline count, inserted
//! lines are followed by a line marker, and the prelude sits before the unit's first marker.
//! So the host compiler's diagnostics and `__LINE__` stay right.
//!
//! Names ompcc introduces start with `__ompcc_` and are numbered per construct, so nested
//! constructs never shadow each other's variables.

mod calls;
mod cexpr;
mod compat;
mod depend;
mod dispatch;
mod embed;
mod iterated;
mod members;
mod remarks;
mod trip;
mod unroll;

use ompcc_diag::{Diagnostic, SourceMap, Span};
use ompcc_omp::{DataConstruct, ExecMode, MapItem, OffloadPlan, ParallelIf, Pass, TargetRegion};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{MapModifier, MapType, OmpClauseName, OmpDirectiveKind, TranslationUnit};
use std::collections::{BTreeMap, HashMap};

pub use calls::FREE_AT_SYMBOL;
pub use embed::ptx_assembly;
pub use remarks::remarks;

/// The device code of one unit, as the host side embeds it.
#[derive(Debug, Clone, Default)]
pub struct DeviceImage {
    /// The PTX module (kernels `region.kernel` of every region, in plan order).
    pub ptx: String,
    /// The PTX is left out of the text (`ptx` is not read): the text declares
    /// `__ompcc_ptx` and `__ompcc_ptx_size`, which [`ptx_assembly`] defines in assembly
    /// appended to the host compiler's output, so the host compile can start before the
    /// PTX exists.
    pub ptx_apart: bool,
    /// Declare-target globals the PTX defines, registered with their host copies.
    pub globals: Vec<DeviceGlobal>,
    /// C definitions of host copies that only the image needs (the `declare target
    /// indirect` tables), written before the image's tables.
    pub host_decls: String,
    /// The unit has no device constructs and is rewritten only for its calls (located
    /// frees): no image, so that its object needs the runtime no more than cc's would.
    pub calls_only: bool,
    /// The unit's `#pragma omp requires` clauses the runtime acts on
    /// (`ompcc_rt_module_desc.requirements`, [`REQUIRES_UNIFIED_ADDRESS`] and
    /// [`REQUIRES_UNIFIED_SHARED_MEMORY`]).
    pub requirements: u32,
}

/// `OMPCC_RT_REQUIRES_UNIFIED_ADDRESS`.
pub const REQUIRES_UNIFIED_ADDRESS: u32 = 1 << 0;
/// `OMPCC_RT_REQUIRES_UNIFIED_SHARED_MEMORY`: the runtime makes maps zero-copy.
pub const REQUIRES_UNIFIED_SHARED_MEMORY: u32 = 1 << 1;

/// A declare-target global of the device image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceGlobal {
    /// The name the PTX gives it.
    pub ptx_name: String,
    /// The host variable (a file-scope identifier of the unit).
    pub host_name: String,
}

/// Rewrites the preprocessed unit for `plan` and appends `image`. `text` is what `tu` was
/// parsed from (`sm` is its source map); `raw` is the same unit as bytes, copied to the output
/// wherever ompcc changes nothing (C sources may hold bytes that are not UTF-8, which `text`
/// has as `?`, one per byte). Errors are list items ompcc cannot express as map entries.
pub fn rewrite(
    text: &str,
    raw: &[u8],
    sm: &SourceMap,
    tu: &TranslationUnit,
    typed: &TypedUnit,
    plan: &OffloadPlan<'_>,
    image: &DeviceImage,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    // Spans index `text`: the two must have the same length.
    let raw = if raw.len() == text.len() {
        raw
    } else {
        text.as_bytes()
    };
    let mut constructs: Vec<Construct<'_, '_>> = plan
        .regions
        .iter()
        .enumerate()
        .map(|(i, r)| Construct::Region(i, r))
        .chain(plan.data.iter().map(Construct::Data))
        .collect();
    constructs.sort_by_key(|c| (c.span().lo, std::cmp::Reverse(c.span().hi)));
    let file = sm.file_name(sm.main_file()).to_owned();
    let mut w = Writer {
        text,
        raw,
        sm,
        typed,
        out: Vec::with_capacity(text.len() + text.len() / 8 + 4096),
        errors: Vec::new(),
        counter: 0,
        subst: BTreeMap::new(),
        pragma_subst: BTreeMap::new(),
        redirect: HashMap::new(),
    };
    unroll::host_pragmas(tu, typed, &mut w.subst);
    let located_frees = calls::located_frees(tu, typed, text, sm, &mut w.subst);
    compat::host_pragmas(tu, text, &mut w.pragma_subst);
    depend::host_pragmas(tu, text, sm, &mut w.pragma_subst, &mut w.errors);
    dispatch::host_pragmas(
        tu,
        typed,
        text,
        sm,
        &mut w.pragma_subst,
        &mut w.subst,
        &mut w.errors,
    );
    // The unit's first line marker stays first; the prelude follows it.
    let first = first_marker_len(text);
    w.copy(0, first);
    w.push(&embed::prelude(&file, (first > 0).then(|| &text[..first])));
    w.render(first, text.len(), &constructs);
    // A region's one-iteration variant takes its parameters; the runtime finds it by name.
    let variants: Vec<String> = plan
        .regions
        .iter()
        .filter(|r| r.one_iteration)
        .map(|r| format!("{}{}", r.kernel, ompcc_omp::ONE_ITERATION_SUFFIX))
        .collect();
    let mut kernels: Vec<embed::KernelC<'_>> = plan
        .regions
        .iter()
        .map(|r| embed::KernelC {
            name: &r.kernel,
            param_sizes: r.params.iter().map(|p| p.size).collect(),
        })
        .collect();
    let variant_regions = plan.regions.iter().filter(|r| r.one_iteration);
    for (name, r) in variants.iter().zip(variant_regions) {
        kernels.push(embed::KernelC {
            name,
            param_sizes: r.params.iter().map(|p| p.size).collect(),
        });
    }
    let globals: Vec<embed::GlobalC<'_>> = image
        .globals
        .iter()
        .map(|g| embed::GlobalC {
            ptx_name: &g.ptx_name,
            host_name: &g.host_name,
        })
        .collect();
    if !image.calls_only {
        w.push(&embed::image(
            &file,
            (!image.ptx_apart).then_some(image.ptx.as_str()),
            &kernels,
            &globals,
            &image.host_decls,
            image.requirements,
        ));
    }
    if located_frees {
        w.push(&embed::line_marker(1, "<ompcc-prelude>", false));
        w.push(calls::FREE_FALLBACK);
    }
    if w.errors.is_empty() {
        Ok(w.out)
    } else {
        Err(w.errors)
    }
}

/// The length of the unit's first line (newline included) when it is a line marker
/// (`# 0 "x.c"` from `cc -E`), else 0.
fn first_marker_len(text: &str) -> usize {
    let line_end = text.find('\n').map_or(text.len(), |i| i + 1);
    let rest = text[..line_end].trim_start_matches([' ', '\t']);
    let is_marker = rest.strip_prefix('#').is_some_and(|r| {
        let r = r.trim_start_matches([' ', '\t']);
        let r = r
            .strip_prefix("line")
            .unwrap_or(r)
            .trim_start_matches([' ', '\t']);
        r.starts_with(|c: char| c.is_ascii_digit())
    });
    if is_marker { line_end } else { 0 }
}

/// A device construct with its extent in the text.
enum Construct<'p, 'a> {
    /// A `target` region and its kernel index.
    Region(usize, &'p TargetRegion<'a>),
    Data(&'p DataConstruct<'a>),
}

impl Construct<'_, '_> {
    /// From the pragma's `#` to the end of the associated statement (or of the pragma line).
    fn span(&self) -> Span {
        let d = match self {
            Construct::Region(_, r) => r.directive,
            Construct::Data(c) => c.directive,
        };
        match &d.body {
            Some(body) => Span::new(d.span.lo, body.span.hi.max(d.span.hi)),
            None => d.span,
        }
    }
}

struct Writer<'t> {
    text: &'t str,
    raw: &'t [u8],
    sm: &'t SourceMap,
    typed: &'t TypedUnit,
    out: Vec<u8>,
    errors: Vec<Diagnostic>,
    /// Numbers the variables of each construct.
    counter: u32,
    /// Identifier uses redirected to a device copy (`use_device_addr`): start -> (end, text).
    subst: BTreeMap<usize, (usize, String)>,
    /// Rewrites of pragma text for the host compiler only (`compat`): applied when copying,
    /// never to the C expressions built from list items, which need the items as written.
    pragma_subst: BTreeMap<usize, (usize, String)>,
    /// The same redirection by variable, for the code ompcc writes inside such a region.
    redirect: HashMap<ompcc_sema::SymbolId, String>,
}

/// One map entry in C.
struct Entry {
    base: String,
    begin: String,
    size: String,
    flags: u64,
    name: String,
    loc: String,
}

impl Writer<'_> {
    fn push(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// Copies the unit's own bytes `lo..hi`, with the substitutions inside them applied.
    fn copy(&mut self, lo: usize, hi: usize) {
        let mut at = lo;
        let mut subs: Vec<(usize, &(usize, String))> = self
            .subst
            .range(lo..hi)
            .chain(self.pragma_subst.range(lo..hi))
            .map(|(&k, v)| (k, v))
            .collect();
        subs.sort_by_key(|&(k, _)| k);
        for (start, (end, with)) in subs {
            if *end > hi {
                break;
            }
            self.out.extend_from_slice(&self.raw[at..start]);
            self.out.extend_from_slice(with.as_bytes());
            at = *end;
        }
        self.out.extend_from_slice(&self.raw[at..hi]);
    }

    /// The text as the host compiler sees it (substitutions applied), for C expressions.
    fn tx(&self) -> cexpr::Text<'_> {
        cexpr::Text {
            text: self.text,
            subst: &self.subst,
        }
    }

    /// Copies `text[lo..hi]`, rewriting the constructs that start in it (`constructs` is
    /// sorted by start, outer before inner).
    fn render(&mut self, lo: usize, hi: usize, constructs: &[Construct<'_, '_>]) {
        let mut at = lo;
        for c in constructs {
            let span = c.span();
            let (clo, chi) = (span.lo as usize, span.hi as usize);
            if clo < at || chi > hi {
                // Inside a construct already written (a region's own text), or outside.
                continue;
            }
            let start = line_start(self.text, clo).max(at);
            self.copy(at, start);
            match c {
                Construct::Region(k, r) => self.region(*k, r, start, chi),
                Construct::Data(d) => self.data(d, start, chi, constructs),
            }
            at = chi;
        }
        self.copy(at, hi);
    }

    /// How code ompcc writes at the current construct names variable `sym` (`name`): the
    /// device copy inside a `use_device_addr` region for it, else the variable.
    fn var(&self, sym: ompcc_sema::SymbolId, name: &str) -> String {
        self.redirect
            .get(&sym)
            .cloned()
            .unwrap_or_else(|| name.to_owned())
    }

    fn next_id(&mut self) -> u32 {
        self.counter += 1;
        self.counter
    }

    fn loc(&self, span: Span) -> String {
        cexpr::c_string(&self.sm.describe(span))
    }

    fn src(&self, e: &ompcc_syntax::ast::Expr) -> String {
        self.tx().of(e).into_owned()
    }

    /// A `target` construct whose text (from its line's start) is `text[start..end]`.
    fn region(&mut self, kernel: usize, r: &TargetRegion<'_>, start: usize, end: usize) {
        let id = self.next_id();
        let mut pre = String::from("{ ");
        let mut entries = Vec::new();
        // Params whose struct members were written as parent + members.
        let mut member_params = Vec::new();
        for (i, p) in r.params.iter().enumerate() {
            let name = &p.name;
            match p.pass {
                Pass::Value => {
                    let ty = self.typed.symbols[p.sym].ty;
                    let sym_size = self.typed.types.size_of(ty);
                    let copy = format!("__ompcc_v{id}_{i}");
                    // A value whose kernel parameter is wider or narrower than the variable
                    // (a promoted `char`): pass a converted copy. A scalar of the parameter's
                    // size: a plain copy, so the variable's address is never taken (the host
                    // compiler then keeps it in a register in the rest of the function, and
                    // compiles the function faster).
                    let var = if sym_size.is_some_and(|s| s != u64::from(p.size)) {
                        let floating = self.typed.types.is_floating(ty);
                        pre.push_str(&format!(
                            "{} {copy} = ({name}); ",
                            scalar_type(p.size, floating)
                        ));
                        copy
                    } else if self.typed.types.is_scalar(ty) {
                        pre.push_str(&format!("__typeof__({name}) {copy} = ({name}); "));
                        copy
                    } else {
                        name.clone()
                    };
                    let mut flags = embed::flags::LITERAL | embed::flags::TARGET_PARAM;
                    if p.map.as_ref().is_some_and(|m| m.implicit) {
                        flags |= embed::flags::IMPLICIT;
                    }
                    entries.push(Entry {
                        base: format!("((void *)&({var}))"),
                        begin: format!("((void *)&({var}))"),
                        size: format!("((unsigned long long)sizeof({var}))"),
                        flags,
                        name: name.clone(),
                        loc: self.loc(p.map.as_ref().map_or(r.directive.span, |m| m.span)),
                    });
                }
                Pass::Copy => {
                    // A fresh temporary holding the host bytes, mapped `to` for the launch:
                    // never present before, so the device sees exactly the host value.
                    let v = self.var(p.sym, name);
                    let tmp = format!("__ompcc_f{id}_{i}");
                    pre.push_str(&format!(
                        "unsigned char {tmp}[sizeof({v})] \
                         __attribute__((aligned(__alignof__({v})))); \
                         __builtin_memcpy({tmp}, (const void *)&({v}), sizeof({tmp})); "
                    ));
                    entries.push(Entry {
                        base: format!("((void *){tmp})"),
                        begin: format!("((void *){tmp})"),
                        size: format!("((unsigned long long)sizeof({tmp}))"),
                        flags: embed::flags::TO | embed::flags::TARGET_PARAM,
                        name: name.clone(),
                        loc: self.loc(r.directive.span),
                    });
                }
                Pass::DeviceAddr => {
                    // The variable's address is a device address already: passed unchanged.
                    let v = self.var(p.sym, name);
                    let tmp = format!("__ompcc_h{id}_{i}");
                    pre.push_str(&format!("void *{tmp} = (void *)&({v}); "));
                    entries.push(Entry {
                        base: format!("((void *)&{tmp})"),
                        begin: format!("((void *)&{tmp})"),
                        size: format!("((unsigned long long)sizeof({tmp}))"),
                        flags: embed::flags::LITERAL | embed::flags::TARGET_PARAM,
                        name: name.clone(),
                        loc: self.loc(r.directive.span),
                    });
                }
                Pass::Ref | Pass::DevicePtr if self.struct_group(r, p, &mut entries) => {
                    // Parts of a struct: a parent entry and its members (`members`).
                    member_params.push((p.sym, p.pass));
                }
                Pass::Ref | Pass::DevicePtr => {
                    let (item, map_flags, implicit, span, item_name) = match &p.map {
                        Some(m) => (
                            Some(m.expr),
                            map_flags(m),
                            m.implicit,
                            m.span,
                            m.name.clone(),
                        ),
                        None => (
                            None,
                            embed::flags::TO | embed::flags::FROM,
                            true,
                            r.directive.span,
                            name.clone(),
                        ),
                    };
                    let (begin, size, attach) = match item {
                        // The pointer itself named: a zero-length section at its value.
                        Some(e)
                            if p.pass == Pass::DevicePtr
                                && matches!(
                                    strip_parens(e).kind,
                                    ompcc_syntax::ast::ExprKind::Ident(_)
                                ) =>
                        {
                            (format!("((void *)({name}))"), "0".to_owned(), None)
                        }
                        Some(e) => match cexpr::item(&self.tx(), self.typed, e) {
                            Ok(c) => (c.begin, c.size, c.attach_ptr),
                            Err(d) => {
                                self.errors.push(*d);
                                continue;
                            }
                        },
                        None if p.pass == Pass::DevicePtr => {
                            (format!("((void *)({name}))"), "0".to_owned(), None)
                        }
                        None => (
                            format!("((void *)&({name}))"),
                            format!("((unsigned long long)sizeof({name}))"),
                            None,
                        ),
                    };
                    let base = match p.pass {
                        Pass::DevicePtr => format!("((void *)({name}))"),
                        _ => format!("((void *)&({name}))"),
                    };
                    let mut flags = map_flags | embed::flags::TARGET_PARAM;
                    if implicit {
                        flags |= embed::flags::IMPLICIT;
                    }
                    let loc = self.loc(span);
                    entries.push(Entry {
                        base,
                        begin: begin.clone(),
                        size,
                        flags,
                        name: item_name.clone(),
                        loc: loc.clone(),
                    });
                    if let Some(ptr) = attach {
                        entries.push(attach_entry(ptr, begin, &item_name, loc));
                    }
                }
            }
        }
        for m in &r.extra_maps {
            if member_params.iter().any(|&(sym, pass)| {
                self.struct_part(m.expr, pass)
                    .is_some_and(|(root, _, _)| root == sym)
            }) {
                continue; // written with its parent above
            }
            self.map_entries(m, map_flags(m), &mut entries);
        }
        let iterated = self.iterated(r.directive, id);
        let (entries_ref, n) = self.declare_entries(&mut pre, id, &entries, iterated.as_ref());
        let release = release_entries(id, iterated.is_some());
        let device = r.device.map_or(embed::DEVICE_DEFAULT.to_string(), |d| {
            format!("(int)({})", self.src(d))
        });
        // A clause's value as the launch takes it: the runtime warns about and ignores a
        // non-positive one (0: it picks), and the least of several ignores those. Each is
        // evaluated once, into a variable the host fallback's clause reads too: the fallback
        // then runs the shape the device would (gcc's own fallback takes -5 teams as
        // 4294967291 of them), and a clause with side effects runs them once.
        let mut counts = Vec::new();
        let mut bound = |b: Bound<'_>| {
            match b {
            Bound::One => "1".to_owned(),
            Bound::Least(es) => es
                .iter()
                .map(|&(name, e)| {
                    let var = format!("__ompcc_n{id}_{}", counts.len());
                    pre.push_str(&format!(
                        "unsigned int {var} = ompcc_rt_clause_count((long long)({}), \"{name}\", {}); ",
                        self.src(e),
                        self.loc(e.span)
                    ));
                    counts.push((e.span, var.clone()));
                    var
                })
                .reduce(|a, b| format!("__ompcc_least_count({a}, {b})"))
                .unwrap_or_else(|| "0".to_owned()),
        }
        };
        let shape = launch_shape(r);
        let (teams, mut threads) = (bound(shape.teams), bound(shape.threads));
        match r.parallel_if {
            // a false `if` of the region's `parallel`: a team of one thread (analysis admits
            // only conditions the host evaluates to the region's value)
            Some(ParallelIf::Host(c)) => {
                threads = format!("(({}) ? {threads} : 1u)", self.src(c));
            }
            Some(ParallelIf::One) => threads = "1u".to_owned(),
            None => {}
        }
        let iterations = if r.mode == ExecMode::Spmd && r.league {
            self.iterations_hint(r)
        } else {
            "0u".to_owned()
        };
        let nest = self.nest_hint(r);
        pre.push_str(&format!(
            "__ompcc_launch_args __ompcc_a{id} = {{{}, {kernel}u, {device}, {n}, {entries_ref}, \
             {teams}, {threads}, 0u, {iterations}, {}, {nest}}}; ",
            embed::MODULE_ID_READ,
            self.loc(r.directive.span),
        ));
        let cond = match r.if_cond {
            Some(c) => format!("!({}) || ", self.src(c)),
            None => String::new(),
        };
        pre.push_str(&format!("if ({cond}!ompcc_rt_launch(&__ompcc_a{id})) {{\n"));
        let waits = self.wait_for_dependences(r.directive);
        self.push(&pre);
        self.marker_at(r.directive.span.lo as usize);
        self.copy_with_counts(start, end, &counts);
        self.push(&format!(" }}{release}}}{}", if waits { "}" } else { "" }));
    }

    /// [`Self::copy`] of a region's fallback with its clause expressions replaced by the
    /// variables holding their launch values (at most `INT_MAX`, as the clauses take an int).
    fn copy_with_counts(&mut self, start: usize, end: usize, counts: &[(Span, String)]) {
        let mut saved = Vec::new();
        let mut placed = Vec::new();
        for (span, var) in counts {
            let (lo, hi) = (span.lo as usize, span.hi as usize);
            let covered = |m: &BTreeMap<usize, (usize, String)>| {
                m.range(..lo).next_back().is_some_and(|(_, &(e, _))| e > lo)
            };
            if covered(&self.subst) || covered(&self.pragma_subst) {
                continue; // inside a rewritten piece: that text stands
            }
            // a clause of a metadirective's device version: the host version copied here
            // does not have it
            if self.raw.get(lo..hi) != self.text.as_bytes().get(lo..hi) {
                continue;
            }
            // substitutions inside the expression give way to the variable
            for (which, map) in [&mut self.subst, &mut self.pragma_subst]
                .into_iter()
                .enumerate()
            {
                let inner: Vec<usize> = map.range(lo..hi).map(|(&k, _)| k).collect();
                for k in inner {
                    if let Some(v) = map.remove(&k) {
                        saved.push((which, k, v));
                    }
                }
            }
            self.pragma_subst.insert(
                lo,
                (
                    hi,
                    format!("({var} > 2147483647u ? 2147483647 : (int){var})"),
                ),
            );
            placed.push(lo);
        }
        self.copy(start, end);
        for lo in placed {
            self.pragma_subst.remove(&lo);
        }
        for (which, k, v) in saved {
            [&mut self.subst, &mut self.pragma_subst][which].insert(k, v);
        }
    }

    /// The runtime runs a construct at once, even under `nowait`; so its `depend` clauses
    /// become a `taskwait` with the same clauses (`iterator` modifiers included), on a line
    /// of its own before the construct, which waits for the sibling tasks the construct
    /// depends on; with `omp_all_memory`, a plain `taskwait` (every earlier sibling task).
    /// Later tasks that depend on the construct find it complete. Written at a line start
    /// after a `{` (the construct may be the body of an `if` or a loop), followed by a marker
    /// back to the directive's line; true when it was, and the caller then closes the brace
    /// after the construct.
    fn wait_for_dependences(&mut self, d: &ompcc_syntax::ast::OmpDirective) -> bool {
        let depends: Vec<&str> = d
            .clauses
            .iter()
            .filter(|c| c.name == OmpClauseName::Depend)
            .map(|c| &self.text[c.span.lo as usize..c.span.hi as usize])
            .collect();
        if depends.is_empty() {
            return false;
        }
        let clauses = if depend::all_memory(d) {
            String::new()
        } else {
            // A clause continued over several lines (`\` in the pragma) is one line here.
            format!(" {}", depends.join(" "))
                .replace("\\\n", " ")
                .replace('\n', " ")
        };
        self.push(&format!("{{\n#pragma omp taskwait{clauses}\n"));
        self.marker_at(d.span.lo as usize);
        true
    }

    /// `# line "file"` so that the next line is numbered as the line holding `pos`.
    fn marker_at(&mut self, pos: usize) {
        let loc = self.sm.lookup(pos as u32);
        let file = self.sm.file_name(loc.file).to_owned();
        self.push(&embed::line_marker(loc.line, &file, loc.system_header));
    }

    /// Declares the entries array (when there are entries); returns the C expressions that
    /// point at it and that count its entries (`unsigned int`). With `iterated` items the
    /// array is allocated on the heap and filled at run time (see `iterated`); the
    /// construct's code ends with [`release_entries`].
    fn declare_entries(
        &self,
        pre: &mut String,
        id: u32,
        entries: &[Entry],
        iterated: Option<&iterated::Iterated>,
    ) -> (String, String) {
        let entry = |e: &Entry| {
            format!(
                "{{{}, {}, {}, {:#x}ull, {}, {}}}",
                e.base,
                e.begin,
                e.size,
                e.flags,
                cexpr::c_string(&e.name),
                e.loc
            )
        };
        if let Some(it) = iterated {
            let n = entries.len();
            pre.push_str(&it.pre);
            // on the heap: an iterator may range over more points than a stack holds
            pre.push_str(&format!(
                "unsigned long long __ompcc_en{id} = {n}ull + {}; \
                 __ompcc_map_entry *__ompcc_e{id} = (__ompcc_map_entry *)__builtin_malloc(\
                 sizeof(__ompcc_map_entry) * (__ompcc_en{id} + 1u)); \
                 if (!__ompcc_e{id}) __builtin_abort(); \
                 unsigned long long __ompcc_ex{id} = 0; ",
                it.count
            ));
            for e in entries {
                pre.push_str(&format!(
                    "__ompcc_e{id}[__ompcc_ex{id}++] = (__ompcc_map_entry){}; ",
                    entry(e)
                ));
            }
            pre.push_str(&it.fill(&format!("__ompcc_e{id}"), &format!("__ompcc_ex{id}")));
            return (
                format!("__ompcc_e{id}"),
                format!("(unsigned int)__ompcc_ex{id}"),
            );
        }
        if entries.is_empty() {
            return ("0".to_owned(), "0u".to_owned());
        }
        pre.push_str(&format!("__ompcc_map_entry __ompcc_e{id}[] = {{"));
        for (i, e) in entries.iter().enumerate() {
            if i > 0 {
                pre.push_str(", ");
            }
            pre.push_str(&entry(e));
        }
        pre.push_str("}; ");
        (format!("__ompcc_e{id}"), format!("{}u", entries.len()))
    }

    /// The `iterator(...)` items of `d`'s data clauses, as C (see `iterated`).
    fn iterated(
        &mut self,
        d: &ompcc_syntax::ast::OmpDirective,
        id: u32,
    ) -> Option<iterated::Iterated> {
        let sm = self.sm;
        let describe = |s: Span| sm.describe(s);
        let mut errors = Vec::new();
        let out = iterated::entries(d, id, &self.tx(), self.typed, &describe, &mut errors);
        self.errors.extend(errors);
        out
    }

    /// Entries for one list item that feeds no kernel parameter.
    fn map_entries(&mut self, m: &MapItem<'_>, flags: u64, entries: &mut Vec<Entry>) {
        match cexpr::item(&self.tx(), self.typed, m.expr) {
            Ok(c) => {
                let loc = self.loc(m.span);
                let mut flags = flags;
                if m.implicit {
                    flags |= embed::flags::IMPLICIT;
                }
                entries.push(Entry {
                    base: c.begin.clone(),
                    begin: c.begin.clone(),
                    size: c.size,
                    flags,
                    name: m.name.clone(),
                    loc: loc.clone(),
                });
                if let Some(ptr) = c.attach_ptr {
                    entries.push(attach_entry(ptr, c.begin, &m.name, loc));
                }
            }
            Err(d) => self.errors.push(*d),
        }
    }

    /// A data construct whose text (from its line's start) is `text[start..end]`.
    fn data(
        &mut self,
        d: &DataConstruct<'_>,
        start: usize,
        end: usize,
        constructs: &[Construct<'_, '_>],
    ) {
        let id = self.next_id();
        let dir = d.directive;
        let update = dir.kind == OmpDirectiveKind::TargetUpdate;
        let mut entries = Vec::new();
        // Motion clauses over a discontiguous section: one strided call each.
        let mut strided = Vec::new();
        // Struct members and member sections map as one group per struct (`members`), as
        // a target region maps them, so a region inside finds the same parent present.
        let groups = if update {
            Vec::new()
        } else {
            self.data_groups(&d.maps)
        };
        let grouped: Vec<bool> = d
            .maps
            .iter()
            .map(|m| {
                groups
                    .iter()
                    .any(|(_, items)| items.iter().any(|(g, _, _)| std::ptr::eq(*g, m)))
            })
            .collect();
        for (sym, items) in groups {
            self.data_group(sym, items, &mut entries);
        }
        for (m, grouped) in d.maps.iter().zip(grouped) {
            if grouped {
                continue;
            }
            let mut flags = map_flags(m);
            if update {
                // Motion clauses: `to` / `from` only.
                flags &= embed::flags::TO | embed::flags::FROM | embed::flags::PRESENT;
                if let Ok(cexpr::ItemC {
                    begin,
                    strided: Some(s),
                    ..
                }) = cexpr::item(&self.tx(), self.typed, m.expr)
                {
                    strided.push((begin, s, flags, m.name.clone(), self.loc(m.span)));
                    continue;
                }
            }
            self.map_entries(m, flags, &mut entries);
        }
        let mut pre = String::from("{ ");
        let iterated = self.iterated(dir, id);
        let static_entries = entries.len();
        let (entries_ref, n) = self.declare_entries(&mut pre, id, &entries, iterated.as_ref());
        let release = release_entries(id, iterated.is_some());
        let device = d.device.map_or(embed::DEVICE_DEFAULT.to_string(), |e| {
            format!("(int)({})", self.src(e))
        });
        let guard = match d.if_cond {
            Some(c) => {
                pre.push_str(&format!("int __ompcc_if{id} = !!({}); ", self.src(c)));
                format!("if (__ompcc_if{id}) ")
            }
            None => String::new(),
        };
        let loc = self.loc(dir.span);
        let call = |f: &str| format!("{guard}{f}({device}, {n}, {entries_ref}, {loc});");
        let pragma_end = dir.span.hi as usize;
        let body = dir
            .body
            .as_deref()
            .filter(|_| dir.kind == OmpDirectiveKind::TargetData);
        match body {
            Some(body) => {
                pre.push_str(&call("ompcc_rt_target_data_begin"));
                pre.push_str(" { ");
                let mut closers = 0;
                let mut redirected = Vec::new();
                for (i, u) in d.use_device.iter().enumerate() {
                    let v = self.src(u.expr);
                    let tmp = format!("__ompcc_u{id}_{i}");
                    let translate = |arg: &str| {
                        format!(
                            "ompcc_rt_use_device_ptr({device}, {arg}, {}, {})",
                            cexpr::c_string(&v),
                            self.loc(u.expr.span)
                        )
                    };
                    let ty = self.typed.symbols[u.sym].ty;
                    if u.addr && !self.typed.types.is_pointer(ty) {
                        // `use_device_addr(x)`: every use of `x` in the body becomes
                        // `(*tmp)`, an lvalue of x's type at the device address (so
                        // `sizeof x` and `&x` keep their meaning).
                        let translated = translate(&format!("(void *)&({v})"));
                        pre.push_str(&format!(
                            "__typeof__({v}) *{tmp} = (__typeof__({v}) *){translated}; "
                        ));
                        let with = format!("(*{tmp})");
                        self.redirect_uses(body, u.sym, &with);
                        redirected.push((u.sym, self.redirect.insert(u.sym, with)));
                        continue;
                    }
                    if u.addr {
                        // A pointer: its own storage on the device, read back as the pointer
                        // value the body sees.
                        let translated = translate(&format!("(void *)&({v})"));
                        pre.push_str(&format!(
                            "__typeof__({v}) {tmp} = *(__typeof__({v}) *){translated}; "
                        ));
                    } else {
                        let translated = translate(&format!("(void *)({v})"));
                        pre.push_str(&format!(
                            "__typeof__({v}) {tmp} = (__typeof__({v})){translated}; "
                        ));
                    }
                    pre.push_str(&format!("{{ __typeof__({v}) {v} = {tmp}; "));
                    closers += 1;
                }
                let closers = "}".repeat(closers);
                self.push(&pre);
                // The pragma line becomes the code above; its newlines stay.
                let nl = newlines_of(&self.text[start..pragma_end]);
                self.push(&nl);
                self.render(pragma_end, end, constructs);
                for (sym, old) in redirected.into_iter().rev() {
                    match old {
                        Some(o) => self.redirect.insert(sym, o),
                        None => self.redirect.remove(&sym),
                    };
                }
                let end_call = format!(
                    " {closers}}} {} {release}}}",
                    call("ompcc_rt_target_data_end")
                );
                self.push(&end_call);
            }
            None => {
                let f = match dir.kind {
                    OmpDirectiveKind::TargetEnterData => "ompcc_rt_target_enter_data",
                    OmpDirectiveKind::TargetExitData => "ompcc_rt_target_exit_data",
                    OmpDirectiveKind::TargetUpdate => "ompcc_rt_target_update",
                    _ => "ompcc_rt_target_enter_data",
                };
                let strided_iterated = iterated
                    .as_ref()
                    .map_or(String::new(), |it| it.strided(&guard, &device, &loc));
                if static_entries > 0
                    || iterated.as_ref().is_some_and(|it| it.count != "0ull")
                    || (strided.is_empty() && strided_iterated.is_empty())
                {
                    pre.push_str(&call(f));
                }
                pre.push_str(&strided_iterated);
                for (i, (begin, s, flags, name, item_loc)) in strided.iter().enumerate() {
                    let (counts, strides): (Vec<_>, Vec<_>) = s.rows.iter().cloned().unzip();
                    pre.push_str(&format!(
                        "{guard}{{ __ompcc_map_entry __ompcc_r{id}_{i} = {{{begin}, {begin}, {}, \
                         {flags:#x}ull, {}, {item_loc}}}; \
                         unsigned long long __ompcc_rc{id}_{i}[] = {{{}}}; \
                         unsigned long long __ompcc_rs{id}_{i}[] = {{{}}}; \
                         ompcc_rt_target_update_strided({device}, &__ompcc_r{id}_{i}, {}u, \
                         __ompcc_rc{id}_{i}, __ompcc_rs{id}_{i}, {loc}); }}",
                        s.row_size,
                        cexpr::c_string(name),
                        counts.join(", "),
                        strides.join(", "),
                        s.rows.len()
                    ));
                }
                pre.push_str(&format!(" {release}}}"));
                if self.wait_for_dependences(dir) {
                    pre.push('}');
                }
                self.push(&pre);
                let nl = newlines_of(&self.text[start..end]);
                self.push(&nl);
            }
        }
    }
}

impl Writer<'_> {
    /// Substitutes `with` for the uses of `sym` in `body`, except inside the pragma lines of
    /// nested directives (their clauses name the original variable for the host fallback).
    fn redirect_uses(
        &mut self,
        body: &ompcc_syntax::ast::Stmt,
        sym: ompcc_sema::SymbolId,
        with: &str,
    ) {
        use ompcc_omp::walk::{self, Node};
        let mut uses = Vec::new();
        let mut pragmas = Vec::new();
        walk::stmt(body, &mut |n| match n {
            Node::Expr(e)
                if matches!(e.kind, ompcc_syntax::ast::ExprKind::Ident(_))
                    && self.typed.ident_symbols.get(&e.id) == Some(&sym) =>
            {
                uses.push(e.span);
            }
            Node::Directive(d) => pragmas.push(d.span),
            _ => {}
        });
        for u in uses {
            if pragmas.iter().any(|p| p.lo <= u.lo && u.hi <= p.hi) {
                continue;
            }
            self.subst
                .insert(u.lo as usize, (u.hi as usize, with.to_owned()));
        }
    }
}

fn strip_parens(mut e: &ompcc_syntax::ast::Expr) -> &ompcc_syntax::ast::Expr {
    while let ompcc_syntax::ast::ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// What ends a construct's code: the release of its entries array when it is on the heap
/// (a construct with `iterator` items), else nothing.
fn release_entries(id: u32, iterated: bool) -> String {
    if iterated {
        format!("__builtin_free(__ompcc_e{id}); ")
    } else {
        String::new()
    }
}

fn attach_entry(ptr: String, begin: String, name: &str, loc: String) -> Entry {
    Entry {
        base: ptr,
        begin,
        size: "8".to_owned(),
        flags: embed::flags::ATTACH,
        name: name.to_owned(),
        loc,
    }
}

/// `OMPCC_RT_MAP_MEMBER_OF(parent)`.
fn member_of(parent: usize) -> u64 {
    (parent as u64 + 1) << 48
}

/// The runtime flags of a list item's map type and modifiers.
fn map_flags(m: &MapItem<'_>) -> u64 {
    type_flags(m.map_type, &m.modifiers)
}

/// The runtime flags of a map type and modifiers.
pub(crate) fn type_flags(map_type: MapType, modifiers: &[MapModifier]) -> u64 {
    use embed::flags;
    let mut f = match map_type {
        MapType::To => flags::TO,
        MapType::From => flags::FROM,
        MapType::ToFrom => flags::TO | flags::FROM,
        MapType::Alloc | MapType::Release => 0,
        MapType::Delete => flags::DELETE,
    };
    for modifier in modifiers {
        f |= match modifier {
            MapModifier::Always => flags::ALWAYS,
            MapModifier::Close => flags::CLOSE,
            MapModifier::Present => flags::PRESENT,
        };
    }
    f
}

/// A C scalar type of `size` bytes.
fn scalar_type(size: u32, floating: bool) -> &'static str {
    match (size, floating) {
        (4, true) => "float",
        (8, true) => "double",
        (1, _) => "signed char",
        (2, _) => "short",
        (4, _) => "int",
        _ => "long long",
    }
}

/// The start of the line holding byte `pos`.
fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

/// As many newlines as `s` holds.
fn newlines_of(s: &str) -> String {
    "\n".repeat(s.bytes().filter(|&b| b == b'\n').count())
}

/// A launch dimension of a region's kernel: one, or the least of the clause values given
/// (none: the runtime's default).
pub(crate) enum Bound<'a> {
    One,
    /// The least of these clauses' values (clause name, expression); none: the runtime picks.
    Least(Vec<(&'static str, &'a ompcc_syntax::ast::Expr)>),
}

/// The teams and threads a region's kernel is launched with.
pub(crate) struct LaunchShape<'a> {
    pub teams: Bound<'a>,
    pub threads: Bound<'a>,
}

/// The launch shape of `r`. Without `teams` the region is one team (more blocks would only
/// exit). `num_threads` of a parallel construct at the region's top bounds the team size, as
/// `thread_limit` does. A generic-mode region that forks its team at nested `parallel`
/// constructs (`TargetRegion::forks_team`) starts with `thread_limit` threads, the workers of
/// the main thread; otherwise one thread per team runs it.
pub(crate) fn launch_shape<'a>(r: &ompcc_omp::TargetRegion<'a>) -> LaunchShape<'a> {
    let teams = || Bound::Least(r.num_teams.map(|e| ("num_teams", e)).into_iter().collect());
    let limit = r.thread_limit.map(|e| ("thread_limit", e));
    match r.mode {
        ExecMode::Spmd => {
            let num_threads = r.num_threads.map(|e| ("num_threads", e));
            LaunchShape {
                teams: if r.league { teams() } else { Bound::One },
                threads: Bound::Least(num_threads.into_iter().chain(limit).collect()),
            }
        }
        ExecMode::Generic if r.forks_team => LaunchShape {
            teams: teams(),
            threads: Bound::Least(limit.into_iter().collect()),
        },
        ExecMode::Generic => LaunchShape {
            teams: teams(),
            threads: Bound::One,
        },
        ExecMode::Serial => LaunchShape {
            teams: Bound::One,
            threads: Bound::One,
        },
    }
}
