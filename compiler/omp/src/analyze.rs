//! The analysis behind [`crate::plan`]: finds the device constructs of a checked translation
//! unit, decides each target region's execution mode and loop nest, and classifies every
//! variable a region uses by the OpenMP 5.2 data-sharing and mapping rules.
//!
//! Invariants: regions and data constructs are in source order; kernel names are unique in
//! the unit; a region's params are in order of first reference in its body, each symbol at
//! most once; a variable with explicit map clauses feeds its param from the first of them and
//! the others go to `extra_maps` (so do maps of variables the body never references).

use crate::plan::*;
use crate::walk::{self, Node};
use ompcc_diag::{Diagnostic, SourceMap, Span};
use ompcc_sema::types::{ArraySize, QualType, TypeKind};
use ompcc_sema::{Storage, SymbolId, SymbolKind, TypedUnit};
use ompcc_syntax::ast::{
    self, BinaryOp, DefaultmapBehavior, DefaultmapCategory, Expr, ExprKind, ExternalDecl, ForInit,
    FunctionDef, MapType, OmpClauseKind, OmpClauseName, OmpDirective, OmpDirectiveKind as K, Stmt,
    StmtKind, TranslationUnit, UnaryOp,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Plans every device construct of `tu`. Kernels are named `__omp_offload_<function>_r<n>`
/// (`n`: the region's ordinal in its function), since no source map is at hand; use
/// [`plan_with_source`] for the line-numbered names the contract describes.
pub fn plan<'a>(tu: &'a TranslationUnit, typed: &'a TypedUnit) -> PlanResult<'a> {
    Analyzer::new(tu, typed, None).run()
}

/// [`plan`] with kernel names `__omp_offload_<function>_l<line>[_<n>]`, the line being the
/// `#pragma omp target` line in the user's file.
pub fn plan_with_source<'a>(
    tu: &'a TranslationUnit,
    typed: &'a TypedUnit,
    source: &SourceMap,
) -> PlanResult<'a> {
    Analyzer::new(tu, typed, Some(source)).run()
}

/// Eight hex digits naming a translation unit: FNV-1a of its main file's name and its
/// preprocessed text, so units compiled from different files, or from one file with different
/// macros, get different ids, and the same input always gets the same one.
pub fn unit_id(sm: &SourceMap) -> String {
    let name = sm.file_name(sm.main_file());
    let h = fnv1a(&[name.as_bytes(), &[0], sm.text().as_bytes()]);
    format!("{:08x}", (h ^ (h >> 32)) as u32)
}

/// The 64-bit FNV-1a hash of `parts` one after the other: stable across runs and builds
/// (names and seeds derived from it are reproducible).
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in parts.iter().copied().flatten() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// True for the `target` constructs that become kernels.
pub fn is_target_region(kind: K) -> bool {
    matches!(
        kind,
        K::Target
            | K::TargetParallel
            | K::TargetParallelFor
            | K::TargetParallelForSimd
            | K::TargetParallelLoop
            | K::TargetSimd
            | K::TargetTeams
            | K::TargetTeamsLoop
            | K::TargetTeamsDistribute
            | K::TargetTeamsDistributeSimd
            | K::TargetTeamsDistributeParallelFor
            | K::TargetTeamsDistributeParallelForSimd
    )
}

/// The base variable of a list item (`a`, `a[0:n]`, `s.x`, `p[i][0:m]`, `*p`).
pub fn base_ident(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Ident(_) => Some(e),
        ExprKind::Paren(x)
        | ExprKind::Index(x, _)
        | ExprKind::ArraySection { base: x, .. }
        | ExprKind::Member { base: x, .. }
        | ExprKind::Unary(UnaryOp::Deref, x) => base_ident(x),
        _ => None,
    }
}

/// A variable or array sections of it (`a`, `a[0:n]`, `a[:4][:4]`).
pub fn is_section_chain(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Paren(x) | ExprKind::ArraySection { base: x, .. } => is_section_chain(x),
        _ => false,
    }
}

pub(crate) fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// The statement with single-statement compound blocks removed (`{ { s } }` is `s`).
pub fn strip_compound(s: &Stmt) -> &Stmt {
    match &s.kind {
        StmtKind::Compound(b) if b.items.len() == 1 => match &b.items[0] {
            ast::BlockItem::Stmt(inner) => strip_compound(inner),
            _ => s,
        },
        _ => s,
    }
}

/// The directive that is the whole of `body`, if it is one.
fn sole_directive(body: Option<&Stmt>) -> Option<&OmpDirective> {
    match &strip_compound(body?).kind {
        StmtKind::Omp(d) => Some(d),
        _ => None,
    }
}

/// What runs a region: mode, the loop nest, and the chain of directives from the target down
/// to the loop directive (their clauses all apply to the kernel).
struct Shape<'a> {
    mode: ExecMode,
    loop_dir: Option<&'a OmpDirective>,
    chain: Vec<&'a OmpDirective>,
}

/// `host_if`: whether the host can evaluate an `if` condition of a `parallel` that is the
/// whole body of the target (`Analyzer::host_evaluable`).
fn shape<'d>(d: &'d OmpDirective, host_if: &dyn Fn(&Expr) -> bool) -> Shape<'d> {
    let spmd_combined = matches!(
        d.kind,
        K::TargetTeamsDistributeParallelFor
            | K::TargetTeamsDistributeParallelForSimd
            | K::TargetParallelFor
            | K::TargetParallelForSimd
            | K::TargetParallelLoop
            | K::TargetTeamsLoop
            | K::TargetTeamsDistribute
            | K::TargetTeamsDistributeSimd
    );
    if spmd_combined {
        return Shape {
            mode: ExecMode::Spmd,
            loop_dir: Some(d),
            chain: vec![d],
        };
    }
    if d.kind == K::TargetSimd {
        return Shape {
            mode: ExecMode::Serial,
            loop_dir: Some(d),
            chain: vec![d],
        };
    }
    // `target`, `target teams`, `target parallel`: look through directly nested directives.
    // `level`: 0 = target, 1 = inside teams, 2 = inside parallel.
    let mut chain = vec![d];
    let mut level = match d.kind {
        K::TargetTeams => 1,
        K::TargetParallel => 2,
        _ => 0,
    };
    let mut cur = d;
    while let Some(inner) = sole_directive(cur.body.as_deref()) {
        let loop_kind = match level {
            0 => matches!(
                inner.kind,
                K::TeamsDistributeParallelFor
                    | K::TeamsDistributeParallelForSimd
                    | K::TeamsLoop
                    | K::TeamsDistribute
                    | K::TeamsDistributeSimd
                    | K::ParallelFor
                    | K::ParallelForSimd
                    | K::ParallelLoop
            ),
            1 => matches!(
                inner.kind,
                K::DistributeParallelFor
                    | K::DistributeParallelForSimd
                    | K::Distribute
                    | K::DistributeSimd
                    | K::Loop
            ),
            _ => matches!(inner.kind, K::For | K::ForSimd | K::Loop),
        };
        if loop_kind {
            chain.push(inner);
            return Shape {
                mode: ExecMode::Spmd,
                loop_dir: Some(inner),
                chain,
            };
        }
        match (level, inner.kind) {
            (0, K::Teams) => level = 1,
            // `target` or `teams` whose whole body is a `parallel`: every team's threads run it
            // (SPMD). Under `target` alone the one team is launched `num_threads` wide, as for
            // the combined `target parallel` (`TargetRegion::num_threads`), and one thread
            // wide when an `if` the host evaluates before the launch is false
            // (`TargetRegion::parallel_if`); another `if` stays serial (a team of one). In
            // `teams`, `num_threads` and `if` size each team at run time: generic.
            (0 | 1, K::Parallel)
                if inner.clauses.iter().all(|c| match &c.kind {
                    OmpClauseKind::If { cond, .. } => level == 0 && host_if(cond),
                    _ => !(level == 1 && c.name == OmpClauseName::NumThreads),
                }) =>
            {
                level = 2
            }
            _ => break,
        }
        chain.push(inner);
        cur = inner;
    }
    let mode = match level {
        2 => ExecMode::Spmd,
        1 => ExecMode::Generic,
        _ => ExecMode::Serial,
    };
    Shape {
        mode,
        loop_dir: None,
        chain,
    }
}

/// Whether an object of type `ty` is const: a const-qualified type, or an array of them.
fn is_read_only(types: &ompcc_sema::types::TypeTable, ty: ompcc_sema::types::QualType) -> bool {
    let c = types.canon(ty);
    c.quals.contains(ompcc_sema::types::Quals::CONST)
        || types.array_elem(c).is_some_and(|e| is_read_only(types, e))
}

/// `collapse(n)` of a loop directive (1 when absent or not a constant).
pub fn collapse_of(typed: &TypedUnit, d: &OmpDirective) -> u32 {
    d.clauses
        .iter()
        .find(|c| c.name == OmpClauseName::Collapse)
        .and_then(|c| match &c.kind {
            OmpClauseKind::Expr(e) => match ompcc_sema::fold(typed, e) {
                Some(ompcc_sema::consteval::ConstValue::Int(i)) => u32::try_from(i.value).ok(),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or(1)
        .max(1)
}

/// The `for` statements of a loop nest, outermost first (fewer when the nest is shorter).
/// An `omp unroll partial` standing for a loop of the nest (sema allows it innermost) counts
/// as its own loop: the iteration space is the same; `nest_unroll` finds the directive.
pub fn nest_loops(outer: &Stmt, depth: u32) -> Vec<&Stmt> {
    let mut out = Vec::new();
    let mut s = strip_compound(outer);
    while out.len() < depth as usize {
        if let StmtKind::Omp(u) = &s.kind
            && u.kind == ast::OmpDirectiveKind::Unroll
            && let Some(body) = &u.body
        {
            s = strip_compound(body);
        }
        if !matches!(s.kind, StmtKind::For(..)) {
            break;
        }
        out.push(s);
        if let StmtKind::For(_, _, _, body) = &s.kind {
            s = strip_compound(body);
        }
    }
    out
}

/// The `omp unroll` directive standing for a loop of the nest of `depth` loops at `outer`,
/// with the index of that loop.
pub fn nest_unroll(outer: &Stmt, depth: u32) -> Option<(usize, &OmpDirective)> {
    let mut s = strip_compound(outer);
    for level in 0..depth as usize {
        match &s.kind {
            StmtKind::Omp(u) if u.kind == ast::OmpDirectiveKind::Unroll => return Some((level, u)),
            StmtKind::For(_, _, _, body) => s = strip_compound(body),
            _ => return None,
        }
    }
    None
}

/// The iteration variable a canonical `for` declares or assigns.
pub fn loop_var(typed: &TypedUnit, s: &Stmt) -> Option<SymbolId> {
    let StmtKind::For(init, ..) = &s.kind else {
        return None;
    };
    match init {
        ForInit::Decl(d) => match &d.kind {
            ast::DeclarationKind::Vars { declarators, .. } => declarators
                .first()
                .and_then(|i| typed.decl_symbol(i.declarator.id)),
            _ => None,
        },
        ForInit::Expr(e) => match &e.kind {
            ExprKind::Assign(_, l, _) => base_ident(l)
                .filter(|l| matches!(l.kind, ExprKind::Ident(_)))
                .and_then(|l| typed.ident_symbols.get(&l.id).copied()),
            _ => None,
        },
        ForInit::None => None,
    }
}

/// The list items of every clause named `name` on `d`.
fn clause_items(d: &OmpDirective, name: OmpClauseName) -> Vec<&Expr> {
    let mut out = Vec::new();
    for c in d.clauses.iter().filter(|c| c.name == name) {
        match &c.kind {
            OmpClauseKind::List(l)
            | OmpClauseKind::Lastprivate { list: l, .. }
            | OmpClauseKind::Reduction { list: l, .. }
            | OmpClauseKind::UserReduction { list: l, .. }
            | OmpClauseKind::Map { list: l, .. }
            | OmpClauseKind::Motion { list: l, .. } => out.extend(l.iter()),
            _ => {}
        }
    }
    out
}

fn clause_expr(d: &OmpDirective, name: OmpClauseName) -> Option<&Expr> {
    d.clauses
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| match &c.kind {
            OmpClauseKind::Expr(e) => Some(&**e),
            _ => None,
        })
}

/// The source text of a list item, rebuilt from the tree (for runtime messages).
pub fn item_text(tu: &TranslationUnit, e: &Expr) -> String {
    match &e.kind {
        ExprKind::Ident(s) => tu.symbols.resolve(*s).to_string(),
        ExprKind::Int { value, .. } => value.to_string(),
        ExprKind::Paren(x) => format!("({})", item_text(tu, x)),
        ExprKind::Index(a, b) => format!("{}[{}]", item_text(tu, a), item_text(tu, b)),
        ExprKind::ArraySection {
            base,
            lower,
            length,
            stride,
        } => format!(
            "{}[{}:{}{}]",
            item_text(tu, base),
            lower.as_ref().map_or(String::new(), |x| item_text(tu, x)),
            length.as_ref().map_or(String::new(), |x| item_text(tu, x)),
            stride
                .as_ref()
                .map_or(String::new(), |x| format!(":{}", item_text(tu, x)))
        ),
        ExprKind::Member { base, name, arrow } => format!(
            "{}{}{}",
            item_text(tu, base),
            if *arrow { "->" } else { "." },
            tu.symbols.resolve(name.name)
        ),
        ExprKind::Unary(UnaryOp::Deref, x) => format!("*{}", item_text(tu, x)),
        ExprKind::Binary(op, a, b) => {
            let o = match op {
                BinaryOp::Add => "+",
                BinaryOp::Sub => "-",
                BinaryOp::Mul => "*",
                BinaryOp::Div => "/",
                _ => "?",
            };
            format!("{}{o}{}", item_text(tu, a), item_text(tu, b))
        }
        _ => "<expr>".to_string(),
    }
}

struct Analyzer<'a, 's> {
    tu: &'a TranslationUnit,
    typed: &'a TypedUnit,
    source: Option<&'s SourceMap>,
    plan: OffloadPlan<'a>,
    diags: Vec<Diagnostic>,
    names: FxHashSet<String>,
    /// [`unit_id`] of `source`, hashed once (it reads the whole unit).
    unit_id: std::cell::OnceCell<String>,
    /// Every expression of the unit by id (VLA size expressions are known by id only).
    exprs: Vec<Option<&'a Expr>>,
}

impl<'a, 's> Analyzer<'a, 's> {
    fn new(tu: &'a TranslationUnit, typed: &'a TypedUnit, source: Option<&'s SourceMap>) -> Self {
        let mut exprs = vec![None; tu.num_exprs as usize];
        walk::unit(tu, &mut |n| {
            if let Node::Expr(e) = n
                && let Some(slot) = exprs.get_mut(e.id.0 as usize)
            {
                *slot = Some(e);
            }
        });
        Analyzer {
            tu,
            typed,
            source,
            plan: OffloadPlan::default(),
            diags: Vec::new(),
            names: FxHashSet::default(),
            unit_id: std::cell::OnceCell::new(),
            exprs,
        }
    }

    fn run(mut self) -> PlanResult<'a> {
        let tu = self.tu;
        for item in &tu.items {
            let ExternalDecl::Function(f) = item else {
                continue;
            };
            let mut dirs: Vec<&'a OmpDirective> = Vec::new();
            for bi in &f.body.items {
                let mut visit = |n: Node<'a>| {
                    if let Node::Directive(d) = n {
                        dirs.push(d);
                    }
                };
                match bi {
                    ast::BlockItem::Stmt(s) => walk::stmt(s, &mut visit),
                    ast::BlockItem::Decl(d) => {
                        if let ast::DeclarationKind::Vars { declarators, .. } = &d.kind {
                            for id in declarators {
                                if let Some(ast::Initializer::Expr(e)) = &id.init {
                                    walk::expr(e, &mut visit);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            let mut open_targets: Vec<Span> = Vec::new();
            let mut ordinal = 0;
            for d in dirs {
                let inside = open_targets
                    .iter()
                    .any(|s| s.lo <= d.span.lo && d.span.hi <= s.hi);
                let device = is_target_region(d.kind)
                    || matches!(
                        d.kind,
                        K::TargetData | K::TargetUpdate | K::TargetEnterData | K::TargetExitData
                    );
                if device && inside {
                    self.diags.push(Diagnostic::error(
                        "E0901",
                        format!("'#pragma omp {}' inside a target region", d.kind),
                        d.span,
                    ));
                    continue;
                }
                if is_target_region(d.kind) {
                    ordinal += 1;
                    if let Some(b) = &d.body {
                        open_targets.push(d.span.to(b.span));
                    }
                    self.region(f, d, ordinal);
                } else if matches!(
                    d.kind,
                    K::TargetData | K::TargetUpdate | K::TargetEnterData | K::TargetExitData
                ) {
                    self.data(d);
                }
            }
        }
        self.declarative_directives();
        self.device_globals();
        (self.plan, self.diags)
    }

    /// File-scope directives that would change device code in ways ompcc does not implement:
    /// a warning for `begin declare variant`, whose alternative definitions device code never
    /// calls (`declare variant(f)` is `variant`'s; `declare mapper` is expanded before
    /// planning, `mapper`'s).
    fn declarative_directives(&mut self) {
        for item in &self.tu.items {
            let ExternalDecl::Omp(d) = item else { continue };
            if d.kind == K::Requires {
                self.requires(d);
                continue;
            }
            if d.kind != K::Unsupported {
                continue;
            }
            if d.unsupported_name == ["begin", "declare", "variant"] {
                self.diags.push(Diagnostic::warning(
                    "W0910",
                    format!(
                        "'#pragma omp {}' is ignored in device code: calls there run the \
                         base function",
                        d.name()
                    ),
                    d.span,
                ));
            }
        }
    }

    /// `requires`: ompcc meets `unified_address` (device addresses are unique in the process
    /// and usable as values; a pointer no map translates keeps its value),
    /// `unified_shared_memory` (the runtime makes maps zero-copy on a device that gives
    /// kernels host memory, and refuses to run on one that cannot: `runtime/src/runtime/
    /// requires.rs`), `dynamic_allocators` (the device allocator routines,
    /// `omp_init_allocator` included) and `atomic_default_mem_order`; it refuses what it
    /// cannot guarantee (E0913): `reverse_offload` (no `target device(ancestor: 1)` path back
    /// to the host).
    fn requires(&mut self, d: &OmpDirective) {
        for c in d
            .clauses
            .iter()
            .filter(|c| c.name == OmpClauseName::ReverseOffload)
        {
            self.diags.push(
                Diagnostic::error(
                    "E0913",
                    "'#pragma omp requires reverse_offload' is not supported by ompcc: target \
                     regions cannot run code back on the host ('device(ancestor: 1)' is not \
                     supported)",
                    c.span,
                )
                .with_primary_label("this requirement"),
            );
        }
    }

    fn device_globals(&mut self) {
        let mut globals: Vec<SymbolId> = self
            .typed
            .declare_target
            .iter()
            .copied()
            .filter(|s| {
                let info = &self.typed.symbols[*s];
                info.kind == SymbolKind::Object && info.storage == Storage::Static
            })
            .collect();
        globals.sort();
        self.plan.device_globals = globals;
    }

    fn kernel_name(&mut self, f: &FunctionDef, d: &OmpDirective, ordinal: u32) -> String {
        let sym = self.typed.decl_symbol(f.declarator.id);
        let fname = sym.map_or_else(|| "fn".to_string(), |s| self.typed.symbols[s].name.clone());
        // Kernels are visible symbols of the linked device program: a function name that
        // other units may define too (`static`, C99 `inline`) gets the unit's id.
        let unit_local = sym.is_none_or(|s| {
            let info = &self.typed.symbols[s];
            info.linkage != ompcc_sema::Linkage::External || info.is_inline
        });
        let base = match self.source {
            Some(sm) if unit_local => format!(
                "__omp_offload_{fname}_{}_l{}",
                self.unit_id.get_or_init(|| unit_id(sm)),
                sm.lookup(d.span.lo).line
            ),
            Some(sm) => format!("__omp_offload_{fname}_l{}", sm.lookup(d.span.lo).line),
            None => format!("__omp_offload_{fname}_r{ordinal}"),
        };
        let mut name = base.clone();
        let mut n = 2;
        while !self.names.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }

    fn sym_of(&self, e: &Expr) -> Option<SymbolId> {
        let b = base_ident(e)?;
        self.typed.ident_symbols.get(&b.id).copied()
    }

    fn map_item(
        &self,
        e: &'a Expr,
        map_type: MapType,
        modifiers: Vec<ast::MapModifier>,
    ) -> MapItem<'a> {
        MapItem {
            expr: e,
            name: item_text(self.tu, e),
            map_type,
            modifiers,
            implicit: false,
            span: e.span,
        }
    }

    /// Explicit `map` items of a directive, in clause order, with `default` as the map type
    /// where none is written.
    fn map_clauses(&self, d: &'a OmpDirective, default: MapType) -> Vec<MapItem<'a>> {
        let mut out = Vec::new();
        for c in &d.clauses {
            match &c.kind {
                OmpClauseKind::Map {
                    modifiers,
                    map_type,
                    list,
                    ..
                } => {
                    for e in list {
                        out.push(self.map_item(e, map_type.unwrap_or(default), modifiers.clone()));
                    }
                }
                OmpClauseKind::Motion { present, list, .. } => {
                    let ty = if c.name == OmpClauseName::From {
                        MapType::From
                    } else {
                        MapType::To
                    };
                    let mods = if *present {
                        vec![ast::MapModifier::Present]
                    } else {
                        Vec::new()
                    };
                    for e in list {
                        out.push(self.map_item(e, ty, mods.clone()));
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn if_cond(d: &'a OmpDirective) -> Option<&'a Expr> {
        d.clauses.iter().find_map(|c| match &c.kind {
            OmpClauseKind::If { modifier, cond } => match modifier {
                None => Some(&**cond),
                Some(m) if m.contains(K::Target) || m.contains(K::TargetData) || *m == d.kind => {
                    Some(&**cond)
                }
                Some(_) => None,
            },
            _ => None,
        })
    }

    fn data(&mut self, d: &'a OmpDirective) {
        let default = match d.kind {
            K::TargetEnterData => MapType::To,
            K::TargetExitData => MapType::From,
            _ => MapType::ToFrom,
        };
        let maps = self.map_clauses(d, default);
        let mut use_device = Vec::new();
        for (name, addr) in [
            (OmpClauseName::UseDevicePtr, false),
            (OmpClauseName::UseDeviceAddr, true),
        ] {
            for e in clause_items(d, name) {
                if let Some(sym) = self.sym_of(e) {
                    use_device.push(UseDevice { sym, expr: e, addr });
                }
            }
        }
        self.plan.data.push(DataConstruct {
            directive: d,
            maps,
            use_device,
            if_cond: Self::if_cond(d),
            device: clause_expr(d, OmpClauseName::Device),
        });
    }

    /// Symbols of the identifiers in the VLA size expressions of `qt`.
    fn vla_refs(&self, qt: QualType, out: &mut Vec<&'a Expr>) {
        match self.typed.types.ckind(qt).clone() {
            TypeKind::Pointer(p) => self.vla_refs(p, out),
            TypeKind::Array { elem, size, .. } => {
                if let ArraySize::Vla(vs) = size
                    && let Some(e) = self
                        .typed
                        .vla_sizes
                        .get(&vs)
                        .and_then(|id| self.exprs.get(id.0 as usize).copied().flatten())
                {
                    walk::expr(e, &mut |n| {
                        if let Node::Expr(x) = n
                            && matches!(x.kind, ExprKind::Ident(_))
                        {
                            out.push(x);
                        }
                    });
                }
                self.vla_refs(elem, out);
            }
            _ => {}
        }
    }

    fn region(&mut self, f: &'a FunctionDef, d: &'a OmpDirective, ordinal: u32) {
        let typed = self.typed;
        let kernel = self.kernel_name(f, d, ordinal);
        let sh = shape(d, &|e| self.host_evaluable(e, d));
        let loop_nest = sh.loop_dir.and_then(|ld| {
            let outer = ld.body.as_deref()?;
            Some(LoopNest {
                directive: ld,
                collapse: collapse_of(typed, ld),
                outer: strip_compound(outer),
            })
        });

        // What the body declares and references, in order.
        let mut declared: FxHashSet<SymbolId> = FxHashSet::default();
        let mut refs: Vec<&'a Expr> = Vec::new();
        // The iteration variables of the worksharing loops in the body (predetermined
        // private there) with the spans of the loops they control, and those an inner
        // directive's `lastprivate` or `linear` writes back to the region's variable.
        let mut loop_vars: FxHashMap<SymbolId, Vec<Span>> = FxHashMap::default();
        let mut written_back: FxHashSet<SymbolId> = FxHashSet::default();
        if let Some(body) = d.body.as_deref() {
            walk::stmt(body, &mut |n| match n {
                Node::Declarator(decl) => {
                    if let Some(s) = typed.decl_symbol(decl.id) {
                        declared.insert(s);
                    }
                }
                Node::Expr(e) if matches!(e.kind, ExprKind::Ident(_)) => refs.push(e),
                Node::Directive(inner) if inner.kind.is_loop() => {
                    for l in nest_loops(
                        inner.body.as_deref().map_or(body, |b| b),
                        collapse_of(typed, inner),
                    ) {
                        if let Some(v) = loop_var(typed, l) {
                            loop_vars.entry(v).or_default().push(l.span);
                        }
                    }
                    for name in [OmpClauseName::Lastprivate, OmpClauseName::Linear] {
                        written_back.extend(
                            clause_items(inner, name)
                                .into_iter()
                                .filter_map(|e| self.sym_of(e)),
                        );
                    }
                }
                _ => {}
            });
            refs.extend(crate::link::callee_link_refs(self.tu, typed, body));
        }
        if let Some(ln) = &loop_nest
            && ln.directive.kind == d.kind
        {
            for l in nest_loops(ln.outer, ln.collapse) {
                if let Some(v) = loop_var(typed, l) {
                    loop_vars.entry(v).or_default().push(l.span);
                }
            }
        }
        // A loop's variable needs no copy in the region when the region uses it only inside
        // its loops, which privatize it, and no inner clause writes it back.
        let only_in_loops = |sym: SymbolId, refs: &[&Expr]| {
            loop_vars.get(&sym).is_some_and(|spans| {
                !written_back.contains(&sym)
                    && refs
                        .iter()
                        .filter(|e| typed.ident_symbols.get(&e.id) == Some(&sym))
                        .all(|e| spans.iter().any(|l| l.lo <= e.span.lo && e.span.hi <= l.hi))
            })
        };
        let body_refs = refs.clone();

        // Clauses of the target directive (combined forms: its leaves share the list).
        let private: FxHashSet<SymbolId> = clause_items(d, OmpClauseName::Private)
            .into_iter()
            .filter_map(|e| self.sym_of(e))
            .collect();
        let firstprivate: FxHashSet<SymbolId> = clause_items(d, OmpClauseName::Firstprivate)
            .into_iter()
            .filter_map(|e| self.sym_of(e))
            .collect();
        let device_ptrs: FxHashSet<SymbolId> = clause_items(d, OmpClauseName::IsDevicePtr)
            .into_iter()
            .filter_map(|e| self.sym_of(e))
            .collect();
        // `has_device_addr`: the first list item of each variable decides how it is passed.
        let mut device_addrs: FxHashMap<SymbolId, &'a Expr> = FxHashMap::default();
        for e in clause_items(d, OmpClauseName::HasDeviceAddr) {
            if let Some(sym) = self.sym_of(e) {
                device_addrs.entry(sym).or_insert(e);
            }
        }
        let mut tofrom_items: FxHashMap<SymbolId, &'a Expr> = FxHashMap::default();
        let mut reductions = Vec::new();
        // `in_reduction` on the target task (OpenMP 5.2 5.5.10): mapped `tofrom`; the runtime
        // runs the region at once on the encountering thread, whose updates of the item are
        // then part of the enclosing reduction.
        for e in clause_items(d, OmpClauseName::InReduction) {
            if let Some(sym) = self.sym_of(e) {
                tofrom_items.entry(sym).or_insert(e);
            }
        }
        if d.kind != K::Target {
            for c in &d.clauses {
                match &c.kind {
                    // an `inscan` reduction's loop runs in order on one worker, which updates
                    // the mapped item itself (`lower::worksharing::in_order_loop`)
                    OmpClauseKind::Reduction {
                        modifier: Some(m),
                        list,
                        ..
                    } if self.tu.symbols.resolve(m.name) == "inscan" => {
                        for e in list {
                            if let Some(sym) = self.sym_of(e) {
                                tofrom_items.entry(sym).or_insert(e);
                            }
                        }
                    }
                    // a user-defined reduction's loop runs in order on one worker too
                    OmpClauseKind::UserReduction { list, .. }
                        if c.name == OmpClauseName::Reduction =>
                    {
                        for e in list {
                            if let Some(sym) = self.sym_of(e) {
                                tofrom_items.entry(sym).or_insert(e);
                            }
                        }
                    }
                    OmpClauseKind::Reduction { op, list, .. }
                        if c.name == OmpClauseName::Reduction =>
                    {
                        for e in list {
                            let Some(sym) = self.sym_of(e) else { continue };
                            if !is_section_chain(e) {
                                self.diags.push(Diagnostic::error(
                                    "E0902",
                                    "reductions over struct members or subscripted elements are not supported on the device yet",
                                    e.span,
                                ));
                                continue;
                            }
                            tofrom_items.entry(sym).or_insert(e);
                            reductions.push(Reduction {
                                sym,
                                expr: e,
                                op: *op,
                            });
                        }
                    }
                    // OpenMP 5.2 5.8.8: lastprivate and linear items of a combined target
                    // construct are also mapped tofrom
                    OmpClauseKind::Lastprivate { list, .. }
                    | OmpClauseKind::Linear { list, .. } => {
                        for e in list {
                            if let Some(sym) = self.sym_of(e) {
                                tofrom_items.entry(sym).or_insert(e);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut explicit: Vec<(SymbolId, MapItem<'a>)> = Vec::new();
        for m in self.map_clauses(d, MapType::ToFrom) {
            match self.sym_of(m.expr) {
                Some(s) => explicit.push((s, m)),
                None => self.diags.push(Diagnostic::error(
                    "E0903",
                    format!("map list item '{}' does not name a variable", m.name),
                    m.span,
                )),
            }
        }
        let mut defaultmap: FxHashMap<u8, DefaultmapBehavior> = FxHashMap::default();
        for c in &d.clauses {
            if let OmpClauseKind::Defaultmap { behavior, category } = &c.kind {
                let cats: &[u8] = match category {
                    None | Some(DefaultmapCategory::All) => &[0, 1, 2],
                    Some(DefaultmapCategory::Scalar) => &[0],
                    Some(DefaultmapCategory::Aggregate) => &[1],
                    Some(DefaultmapCategory::Pointer) => &[2],
                };
                for c in cats {
                    defaultmap.insert(*c, *behavior);
                }
            }
        }

        // A reduction item the body never names is still the region's (its value goes back
        // combined with nothing), so it is a candidate like the names the body uses.
        refs.extend(reductions.iter().map(|r: &Reduction| r.expr));
        // Candidates: objects declared outside the region that live in the host's frames,
        // or file-scope objects the device has no copy of; VLA sizes of their types too.
        let mut order: Vec<(SymbolId, &'a Expr)> = Vec::new();
        let mut seen: FxHashSet<SymbolId> = FxHashSet::default();
        let mut i = 0;
        while i < refs.len() {
            let e = refs[i];
            i += 1;
            let Some(&sym) = typed.ident_symbols.get(&e.id) else {
                continue;
            };
            let info = &typed.symbols[sym];
            if info.kind != SymbolKind::Object || declared.contains(&sym) || !seen.insert(sym) {
                continue;
            }
            if info.storage == Storage::Static && typed.declare_target.contains(&sym) {
                continue;
            }
            if info.storage == Storage::Thread {
                self.diags.push(Diagnostic::error(
                    "E0904",
                    format!(
                        "thread-local variable '{}' cannot be used in a target region",
                        info.name
                    ),
                    e.span,
                ));
                continue;
            }
            if typed.types.is_variably_modified(info.ty) {
                let mut more = Vec::new();
                self.vla_refs(info.ty, &mut more);
                refs.extend(more);
            }
            if (only_in_loops(sym, &body_refs) && !tofrom_items.contains_key(&sym))
                || private.contains(&sym)
            {
                continue;
            }
            order.push((sym, e));
        }

        let mut params = Vec::new();
        let mut extra_maps = Vec::new();
        let mut used_maps: FxHashSet<usize> = FxHashSet::default();
        for (sym, first) in order {
            let info = &typed.symbols[sym];
            let ty = info.ty;
            let types = &typed.types;
            // OpenMP 5.2 5.8.1: pointers to functions are scalars (firstprivate), not the
            // base of a zero-length section.
            let is_ptr =
                types.is_pointer(ty) && !types.pointee(ty).is_some_and(|p| types.is_function(p));
            let value_size = types.size_of(ty).unwrap_or(8) as u32;
            let name = info.name.clone();
            let implicit = |map_type: MapType| MapItem {
                expr: first,
                name: name.clone(),
                map_type,
                modifiers: Vec::new(),
                implicit: true,
                span: d.span,
            };
            let (pass, map) = if device_ptrs.contains(&sym) {
                (Pass::Value, None)
            } else if let Some(item) = device_addrs.get(&sym) {
                // A section of a pointer: the pointer's value is the device address (as for
                // `is_device_ptr`); otherwise the variable's own storage is on the device.
                if is_ptr && !matches!(strip_parens(item).kind, ExprKind::Ident(_)) {
                    (Pass::Value, None)
                } else {
                    (Pass::DeviceAddr, None)
                }
            } else if let Some(k) = explicit.iter().position(|(s, _)| *s == sym) {
                used_maps.insert(k);
                let m = explicit[k].1.clone();
                let section = !matches!(m.expr.kind, ExprKind::Ident(_));
                if is_ptr && section {
                    (Pass::DevicePtr, Some(m))
                } else {
                    (Pass::Ref, Some(m))
                }
            } else if firstprivate.contains(&sym) {
                if types.is_scalar(ty) {
                    (Pass::Value, None)
                } else if let Some(pass) = self.aggregate_copy(&name, ty, first.span) {
                    (pass, None)
                } else {
                    continue;
                }
            } else if typed.declare_target_link.contains(&sym) {
                // OpenMP 5.2 5.8.1: as if it appeared in a `map(tofrom:)` clause.
                (Pass::Ref, Some(implicit(MapType::ToFrom)))
            } else if let Some(item) = tofrom_items.get(&sym) {
                let mut m = implicit(MapType::ToFrom);
                m.expr = item;
                m.span = item.span;
                m.name = item_text(self.tu, item);
                if is_ptr && !matches!(item.kind, ExprKind::Ident(_)) {
                    (Pass::DevicePtr, Some(m))
                } else {
                    (Pass::Ref, Some(m))
                }
            } else if is_ptr {
                match defaultmap.get(&2) {
                    Some(DefaultmapBehavior::Firstprivate) => (Pass::Value, None),
                    Some(DefaultmapBehavior::None) => {
                        self.defaultmap_none(&name, first.span);
                        continue;
                    }
                    _ => (Pass::DevicePtr, Some(implicit(MapType::ToFrom))),
                }
            } else if types.is_scalar(ty) {
                match defaultmap.get(&0) {
                    Some(DefaultmapBehavior::ToFrom) => {
                        (Pass::Ref, Some(implicit(MapType::ToFrom)))
                    }
                    Some(DefaultmapBehavior::To) => (Pass::Ref, Some(implicit(MapType::To))),
                    Some(DefaultmapBehavior::From) => (Pass::Ref, Some(implicit(MapType::From))),
                    Some(DefaultmapBehavior::Alloc) => (Pass::Ref, Some(implicit(MapType::Alloc))),
                    Some(DefaultmapBehavior::None) => {
                        self.defaultmap_none(&name, first.span);
                        continue;
                    }
                    _ => (Pass::Value, None),
                }
            } else {
                if types.size_of(ty).is_none() && !types.is_vla(ty) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0906",
                            format!("'{name}' has no known size and cannot be mapped implicitly"),
                            first.span,
                        )
                        .with_help(format!(
                            "map an array section of it, e.g. 'map(tofrom: {name}[0:n])'"
                        )),
                    );
                    continue;
                }
                match defaultmap.get(&1) {
                    Some(DefaultmapBehavior::None) => {
                        self.defaultmap_none(&name, first.span);
                        continue;
                    }
                    Some(DefaultmapBehavior::To) => (Pass::Ref, Some(implicit(MapType::To))),
                    Some(DefaultmapBehavior::From) => (Pass::Ref, Some(implicit(MapType::From))),
                    Some(DefaultmapBehavior::Alloc) => (Pass::Ref, Some(implicit(MapType::Alloc))),
                    Some(DefaultmapBehavior::Firstprivate) => {
                        match self.aggregate_copy(&name, ty, first.span) {
                            Some(pass) => (pass, None),
                            None => continue,
                        }
                    }
                    // A const object (`__func__` behind `assert`, a lookup table) cannot
                    // change on the device: copying it back would only write read-only
                    // memory.
                    _ if is_read_only(types, ty) => (Pass::Ref, Some(implicit(MapType::To))),
                    _ => (Pass::Ref, Some(implicit(MapType::ToFrom))),
                }
            };
            // Every pass but `Value` hands the kernel one address.
            let size = match pass {
                Pass::Value => value_size,
                Pass::Ref | Pass::DevicePtr | Pass::Copy | Pass::DeviceAddr => 8,
            };
            params.push(Param {
                sym,
                name,
                pass,
                map,
                size,
            });
        }
        for (k, (_, m)) in explicit.into_iter().enumerate() {
            if !used_maps.contains(&k) {
                extra_maps.push(m);
            }
        }

        let parallel_if = if sh.mode == ExecMode::Spmd {
            self.launch_parallel_if(d, &sh.chain)
        } else {
            None
        };
        let from_chain = |name: OmpClauseName| sh.chain.iter().find_map(|c| clause_expr(c, name));
        self.plan.regions.push(TargetRegion {
            directive: d,
            function: f,
            kernel,
            mode: sh.mode,
            forks_team: sh.mode == ExecMode::Generic
                && d.body
                    .as_deref()
                    .is_some_and(|b| crate::generic::generic_region_forks(self.tu, b)),
            league: sh.chain.iter().any(|c| c.kind.words().contains(&"teams")),
            loop_nest,
            params,
            extra_maps,
            reductions,
            num_teams: from_chain(OmpClauseName::NumTeams),
            thread_limit: from_chain(OmpClauseName::ThreadLimit),
            num_threads: from_chain(OmpClauseName::NumThreads),
            parallel_if,
            if_cond: Self::if_cond(d),
            device: clause_expr(d, OmpClauseName::Device),
            nowait: d.clauses.iter().any(|c| c.name == OmpClauseName::Nowait),
            grid: None,
            layouts: Vec::new(),
            tiles: Vec::new(),
            disjoint: Vec::new(),
            one_iteration: false,
        });
    }

    /// How a firstprivate aggregate reaches the kernel: a copy of its bytes (`Pass::Copy`)
    /// when its size is known at compile time; `E0905` for variably modified types, whose size
    /// the kernel could not give a private copy.
    fn aggregate_copy(&mut self, name: &str, ty: QualType, span: Span) -> Option<Pass> {
        let types = &self.typed.types;
        if types.size_of(ty).is_some() && !types.is_variably_modified(ty) {
            return Some(Pass::Copy);
        }
        self.diags.push(
            Diagnostic::error(
                "E0905",
                format!(
                    "firstprivate '{name}' of a variable-length or incomplete type on a target \
                     construct is not supported"
                ),
                span,
            )
            .with_help(format!(
                "map it instead, e.g. 'map(to: {name})', and copy it inside the region"
            )),
        );
        None
    }

    /// The `if` that applies to the `parallel` of an SPMD region's `chain` (`if(parallel: c)`;
    /// `if(c)` on a directive without `target`, whose `if` is also the target's otherwise):
    /// evaluated by the host before the launch when it can be, otherwise a team of one
    /// thread with a W0913 warning.
    fn launch_parallel_if(
        &mut self,
        target: &'a OmpDirective,
        chain: &[&'a OmpDirective],
    ) -> Option<ParallelIf<'a>> {
        let (clause, cond) = chain.iter().find_map(|d| {
            let words = d.kind.words();
            d.clauses.iter().find_map(|c| match &c.kind {
                OmpClauseKind::If { modifier, cond }
                    if *modifier == Some(K::Parallel)
                        || (modifier.is_none()
                            && words.contains(&"parallel")
                            && !words.contains(&"target")) =>
                {
                    Some((c, &**cond))
                }
                _ => None,
            })
        })?;
        if self.host_evaluable(cond, target) {
            return Some(ParallelIf::Host(cond));
        }
        self.diags.push(
            Diagnostic::warning(
                "W0913",
                "the 'parallel' of this target region runs as a team of one thread whatever \
                 its 'if' condition is: the host cannot evaluate the condition before the \
                 launch (only constants and scalar local variables the region gets as \
                 firstprivate, with operators that do not read memory or call functions)",
                clause.span,
            )
            .with_help("compute the condition into a local variable before the construct"),
        );
        Some(ParallelIf::One)
    }

    /// Whether the host can evaluate `e`, the `if` condition of a `parallel` in `target`'s
    /// chain, before the launch to the value the region itself would compute (OpenMP
    /// evaluates it in the region's data environment): constants and scalar local variables
    /// the region gets as firstprivate (no `defaultmap`, and no clause of the target but
    /// `firstprivate` names them), combined by operators that neither call, write nor read
    /// memory.
    fn host_evaluable(&self, e: &Expr, target: &OmpDirective) -> bool {
        if target
            .clauses
            .iter()
            .any(|c| c.name == OmpClauseName::Defaultmap)
        {
            return false;
        }
        let mut named = Vec::new();
        for c in target
            .clauses
            .iter()
            .filter(|c| c.name != OmpClauseName::Firstprivate)
        {
            let items = match &c.kind {
                OmpClauseKind::List(l)
                | OmpClauseKind::Lastprivate { list: l, .. }
                | OmpClauseKind::Reduction { list: l, .. }
                | OmpClauseKind::UserReduction { list: l, .. }
                | OmpClauseKind::Map { list: l, .. } => l,
                _ => continue,
            };
            for item in items {
                walk::expr(item, &mut |n| {
                    if let Node::Expr(x) = n
                        && let Some(&s) = self.typed.ident_symbols.get(&x.id)
                    {
                        named.push(s);
                    }
                });
            }
        }
        let mut ok = true;
        walk::expr(e, &mut |n| {
            let Node::Expr(x) = n else { return };
            ok &= match &x.kind {
                ExprKind::Ident(_) => self.typed.ident_symbols.get(&x.id).is_some_and(|&s| {
                    let info = &self.typed.symbols[s];
                    match info.kind {
                        SymbolKind::EnumConstant(_) => true,
                        SymbolKind::Object => {
                            info.storage == Storage::Automatic
                                && self.typed.types.is_scalar(info.ty)
                                && !named.contains(&s)
                        }
                        _ => false,
                    }
                }),
                ExprKind::Unary(op, _) => !matches!(
                    op,
                    UnaryOp::PreInc
                        | UnaryOp::PreDec
                        | UnaryOp::PostInc
                        | UnaryOp::PostDec
                        | UnaryOp::AddrOf
                        | UnaryOp::Deref
                ),
                ExprKind::Int { .. }
                | ExprKind::Float { .. }
                | ExprKind::Char { .. }
                | ExprKind::Paren(_)
                | ExprKind::Binary(..)
                | ExprKind::Cond(..)
                | ExprKind::Cast(..)
                | ExprKind::SizeofType(_) => true,
                _ => false,
            };
        });
        ok
    }

    fn defaultmap_none(&mut self, name: &str, span: Span) {
        self.diags.push(Diagnostic::error(
            "E0907",
            format!("'{name}' must appear in a map or data-sharing clause (defaultmap(none))"),
            span,
        ));
    }
}
