//! Shared-memory tiles for 1-D neighbourhoods (issue 16 item 7, OpenMPC's caching of
//! reused data; knob `-C shared-tiles`, on at -O2): when iteration `i` of a one-iteration
//! kernel reads `a[i + c]` for several constants `c` (a stencil), neighbouring threads read
//! the same elements: thread `t` reads `a[i + 1]`, thread `t + 1` reads it again as `a[i]`.
//! Each block then loads the elements its threads' iterations read, `a[i0 + lo] ..
//! a[i_last + hi]`, into `.shared` once (consecutive threads, consecutive elements), meets
//! at a barrier, and every `a[i + c]` reads the tile. Threads past the trip count help load
//! and reach the barrier, then skip the body.
//!
//! The facts, each proven or the tile not made (a `-Rpass-missed=shared-tiles` remark names
//! the first missing one, for every array read at two or more constant offsets):
//! - the region has a one-iteration kernel (`choose_one_iteration`) sharing one loop, `i`
//!   from its lower bound by 1, as written (no swap, no collapse);
//! - the loop body is straight-line code (no `if`, loop, `switch` or jump), and no read of
//!   `a` is under `&&`, `||` or `?:`: every iteration reads all its offsets, so every element
//!   the block loads lies between two elements the loop reads (no access outside the object);
//! - every use of `a` in the region is such a read `a[i + c]` of a scalar element (no other
//!   subscript, no address taken, no assignment);
//! - the access analysis finds no write to `a` in the region, and every other base the
//!   region writes, itself or through a call, proven distinct from `a` (`distinct`);
//! - the window `hi - lo` is at most [`MAX_HALO`] and the kernel's tiles, sized for
//!   [`TILE_THREADS`] threads, fit [`MAX_TILE_BYTES`].
//!
//! Only the one-iteration kernel stages tiles; the grid-stride kernel (launched when the
//! runtime cannot give each iteration a thread) reads global memory as written.

use ompcc_access::{AccessKind, BaseId, Callee};
use ompcc_diag::{SourceMap, Span};
use ompcc_sema::{SymbolId, TypedUnit};
use ompcc_syntax::ast::{BinaryOp, Expr, ExprId, ExprKind, Stmt, StmtKind, TranslationUnit};
use ompcc_syntax::ast::{BlockItem, UnaryOp};
use rustc_hash::FxHashMap;

use crate::analyze::strip_parens;
use crate::grid::{Cx, GridRemark};
use crate::plan::{OffloadPlan, SharedTile, TargetRegion};

/// The remark name (`-Rpass=shared-tiles`, `-Rpass-missed=shared-tiles`).
pub const SHARED_TILES_REMARK: &str = "shared-tiles";
/// The most threads a block has (a GPU's limit): each tile holds `TILE_THREADS + hi - lo`
/// elements, and lowering traps in a larger block rather than overrun it.
pub const TILE_THREADS: i64 = 1024;
/// The widest neighbourhood staged, `hi - lo`.
pub const MAX_HALO: i64 = 32;
/// Bytes of `.shared` one kernel's tiles may take.
pub const MAX_TILE_BYTES: i64 = 32 * 1024;

/// One read `a[i + c]`: the index expression, the identifier `a`, the offset.
#[derive(Clone, Copy)]
struct Read<'a> {
    index: &'a Expr,
    base: &'a Expr,
    offset: i64,
}

/// Gives the one-iteration kernels of `plan` their shared tiles (`TargetRegion::tiles`); a
/// remark for every array read at two or more constant offsets of the loop variable.
pub fn choose_tiles<'a>(
    plan: &mut OffloadPlan<'a>,
    tu: &'a TranslationUnit,
    typed: &'a TypedUnit,
    sm: &SourceMap,
) -> Vec<GridRemark> {
    let mut remarks = Vec::new();
    let loops: Vec<Option<&'a Stmt>> = plan.regions.iter().map(|r| distributed_loop(r)).collect();
    let reuse = |l: &Option<&'a Stmt>| l.is_some_and(|l| !reused_arrays(l, typed).is_empty());
    if !loops.iter().any(reuse) {
        return remarks;
    }
    let ua = ompcc_access::analyze(tu, typed);
    for (r, outer) in plan.regions.iter_mut().zip(loops) {
        let Some(outer) = outer else { continue };
        let arrays = reused_arrays(outer, typed);
        if arrays.is_empty() {
            continue;
        }
        let span = r.loop_nest.map_or(r.directive.span, |ln| ln.directive.span);
        let missed = |name: &str, why: String| GridRemark {
            pass: SHARED_TILES_REMARK,
            passed: false,
            span,
            message: format!(
                "'{name}' is read at several offsets but not staged in .shared: {why}"
            ),
        };
        let Some(fi) = ua.functions.iter().position(|f| f.span == r.function.span) else {
            continue;
        };
        let cx = Cx { ua: &ua, fi, sm };
        let mut bytes = 0;
        for (sym, reads) in arrays {
            let name = typed.symbols[sym].name.clone();
            let tile = cx
                .region_fits(r, outer)
                .and_then(|()| cx.tile_fits(r, outer, typed, sym, &reads));
            let tile = match tile {
                Ok(t) => t,
                Err(why) => {
                    remarks.push(missed(&name, why));
                    continue;
                }
            };
            let size = (TILE_THREADS + tile.hi - tile.lo) * i64::from(tile.elem_bytes);
            if bytes + size > MAX_TILE_BYTES {
                let why = format!("the kernel's tiles would take more than {MAX_TILE_BYTES} bytes");
                remarks.push(missed(&name, why));
                continue;
            }
            bytes += size;
            remarks.push(GridRemark {
                pass: SHARED_TILES_REMARK,
                passed: true,
                span,
                message: passed_message(&cx, &name, outer, &tile),
            });
            r.tiles.push(tile);
        }
    }
    remarks
}

/// What a staged tile does, for `-Rpass=shared-tiles`.
fn passed_message(cx: &Cx<'_, '_>, name: &str, outer: &Stmt, t: &SharedTile<'_>) -> String {
    let i = cx
        .loop_id(outer)
        .map_or_else(|| "i".to_string(), |l| cx.var_name(l));
    let at = |c: i64| match c {
        0 => format!("{name}[{i}]"),
        c if c < 0 => format!("{name}[{i} - {}]", -c),
        c => format!("{name}[{i} + {c}]"),
    };
    let mut offsets: Vec<i64> = t.reads.iter().map(|r| r.1).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let list: Vec<String> = offsets.iter().map(|&c| at(c)).collect();
    format!(
        "'{name}' staged in .shared: each block loads {} .. {} of its threads' iterations once \
         (blockDim + {} elements) and the reads {} take them from there after a barrier; \
         '{name}' is not written in the region and no write in it may alias it",
        at(t.lo),
        at(t.hi),
        t.hi - t.lo,
        list.join(", ")
    )
}

/// The loop a region's one-iteration kernel shares among its threads, when it has one.
fn distributed_loop<'a>(r: &TargetRegion<'a>) -> Option<&'a Stmt> {
    let ln = r.loop_nest?;
    (r.mode == crate::plan::ExecMode::Spmd && r.league && ln.collapse == 1).then_some(ln.outer)
}

/// The arrays the body of loop `outer` reads at two or more constant offsets of its
/// variable, with every such read.
fn reused_arrays<'a>(outer: &'a Stmt, typed: &TypedUnit) -> Vec<(SymbolId, Vec<Read<'a>>)> {
    let StmtKind::For(_, _, _, body) = &outer.kind else {
        return Vec::new();
    };
    let Some(var) = loop_var(outer, typed) else {
        return Vec::new();
    };
    let mut by_array: FxHashMap<SymbolId, Vec<Read<'a>>> = FxHashMap::default();
    ompcc_access::walk::stmt(body, &mut |n| {
        if let ompcc_access::walk::Node::Expr(e) = n
            && let ExprKind::Index(a, s) = &e.kind
            && let ExprKind::Ident(_) = &strip_parens(a).kind
            && let Some(&sym) = typed.ident_symbols.get(&strip_parens(a).id)
            && let Some(offset) = offset_of(s, var, typed)
        {
            by_array.entry(sym).or_default().push(Read {
                index: e,
                base: strip_parens(a),
                offset,
            });
        }
    });
    let mut out: Vec<(SymbolId, Vec<Read<'a>>)> = by_array
        .into_iter()
        .filter(|(_, reads)| reads.iter().any(|r| r.offset != reads[0].offset))
        .collect();
    out.sort_by_key(|(_, reads)| reads[0].index.span.lo);
    out
}

/// The variable a `for` loop declares or assigns in its init.
fn loop_var(outer: &Stmt, typed: &TypedUnit) -> Option<SymbolId> {
    use ompcc_syntax::ast::{DeclarationKind, ForInit};
    let StmtKind::For(init, _, _, _) = &outer.kind else {
        return None;
    };
    match init {
        ForInit::Decl(d) => match &d.kind {
            DeclarationKind::Vars { declarators, .. } => declarators
                .first()
                .and_then(|id| typed.decl_symbol(id.declarator.id)),
            _ => None,
        },
        ForInit::Expr(e) => match &strip_parens(e).kind {
            ExprKind::Assign(_, l, _) => typed.ident_symbols.get(&strip_parens(l).id).copied(),
            _ => None,
        },
        ForInit::None => None,
    }
}

/// `c` when subscript `s` is `var`, `var + c`, `c + var` or `var - c` with `c` an integer
/// constant.
fn offset_of(s: &Expr, var: SymbolId, typed: &TypedUnit) -> Option<i64> {
    let is_var = |e: &Expr| typed.ident_symbols.get(&strip_parens(e).id) == Some(&var);
    let konst = |e: &Expr| match ompcc_sema::fold(typed, e)? {
        ompcc_sema::consteval::ConstValue::Int(i) => i64::try_from(i.value).ok(),
        _ => None,
    };
    let s = strip_parens(s);
    if is_var(s) {
        return Some(0);
    }
    match &s.kind {
        ExprKind::Binary(BinaryOp::Add, l, r) if is_var(l) => konst(r),
        ExprKind::Binary(BinaryOp::Add, l, r) if is_var(r) => konst(l),
        ExprKind::Binary(BinaryOp::Sub, l, r) if is_var(l) => konst(r)?.checked_neg(),
        _ => None,
    }
}

impl<'a> Cx<'_, 'a> {
    /// Why region `r` cannot stage tiles for its loop `outer`, if it cannot.
    fn region_fits(&self, r: &TargetRegion<'a>, outer: &'a Stmt) -> Result<(), String> {
        if !r.one_iteration {
            return Err(
                "the region has no one-iteration kernel (-Rpass-missed=one-iteration \
                        says why)"
                    .into(),
            );
        }
        if r.grid.is_some() {
            return Err("the threads do not take the loop as written (a grid mapping)".into());
        }
        let f = &self.ua.functions[self.fi];
        let canon = self
            .loop_id(outer)
            .and_then(|l| f.loops[l.0 as usize].form.as_ref().ok())
            .ok_or("the distributed loop is not in canonical form")?;
        if canon.step != 1 {
            return Err(format!("the loop's step is {}, not 1", canon.step));
        }
        let StmtKind::For(_, _, _, body) = &outer.kind else {
            return Err("the distributed loop is not a 'for' loop".into());
        };
        if let Some(s) = control_flow(body) {
            return Err(format!(
                "the loop body has control flow at line {}, so an iteration may not read \
                 every offset",
                self.line(s.span)
            ));
        }
        Ok(())
    }

    /// The tile of array `sym`, whose reads at constant offsets in loop `outer` are `reads`,
    /// or the first missing fact.
    fn tile_fits(
        &self,
        r: &TargetRegion<'a>,
        outer: &'a Stmt,
        typed: &TypedUnit,
        sym: SymbolId,
        reads: &[Read<'a>],
    ) -> Result<SharedTile<'a>, String> {
        let name = &typed.symbols[sym].name;
        let region = r
            .directive
            .body
            .as_deref()
            .ok_or("the region has no body")?;
        self.only_these_uses(region, outer, typed, sym, reads)?;
        let ty = typed
            .expr(reads[0].index.id)
            .map(|i| i.ty)
            .ok_or("an untyped read")?;
        let types = &typed.types;
        let bytes = types.size_of(ty).unwrap_or(0);
        if !(types.is_integer(ty) || types.is_real_float(ty)) || bytes == 0 || bytes > 8 {
            return Err(format!(
                "the elements of '{name}' are not integers or floats of at most 8 bytes"
            ));
        }
        let b = self
            .ua
            .base_of_var(self.fi, sym)
            .ok_or_else(|| format!("the access analysis has no base for '{name}'"))?;
        self.not_written(region.span, b, name)?;
        let lo = reads.iter().map(|r| r.offset).min().unwrap_or(0);
        let hi = reads.iter().map(|r| r.offset).max().unwrap_or(0);
        if hi - lo > MAX_HALO {
            return Err(format!(
                "the offsets span {} elements, more than {MAX_HALO}",
                hi - lo
            ));
        }
        Ok(SharedTile {
            array: sym,
            base: reads[0].base,
            lo,
            hi,
            elem_bytes: bytes as u32,
            reads: reads.iter().map(|r| (r.index.id, r.offset)).collect(),
        })
    }

    /// Every use of `sym` in the region is one of `reads`, none of them conditional
    /// (`&&`, `||`, `?:`) or with its address taken.
    fn only_these_uses(
        &self,
        region: &'a Stmt,
        outer: &'a Stmt,
        typed: &TypedUnit,
        sym: SymbolId,
        reads: &[Read<'a>],
    ) -> Result<(), String> {
        let name = &typed.symbols[sym].name;
        let mut stray: Option<Span> = None;
        let mut addressed: Option<Span> = None;
        ompcc_access::walk::stmt(region, &mut |n| {
            let ompcc_access::walk::Node::Expr(e) = n else {
                return;
            };
            match &e.kind {
                ExprKind::Ident(_)
                    if typed.ident_symbols.get(&e.id) == Some(&sym)
                        && !reads.iter().any(|r| r.base.id == e.id) =>
                {
                    stray.get_or_insert(e.span);
                }
                ExprKind::Unary(UnaryOp::AddrOf, x)
                    if reads.iter().any(|r| r.index.id == strip_parens(x).id) =>
                {
                    addressed.get_or_insert(e.span);
                }
                _ => {}
            }
        });
        if let Some(s) = stray {
            return Err(format!(
                "'{name}' is used at line {} other than as '{name}[i + c]' with a constant c",
                self.line(s)
            ));
        }
        if let Some(s) = addressed {
            return Err(format!(
                "the address of an element of '{name}' is taken at line {}",
                self.line(s)
            ));
        }
        let StmtKind::For(_, _, _, body) = &outer.kind else {
            return Err("the distributed loop is not a 'for' loop".into());
        };
        let conditional = conditional_exprs(body);
        if let Some(r) = reads.iter().find(|r| conditional.contains(&r.index.id)) {
            return Err(format!(
                "the read at line {} happens only under '&&', '||' or '?:'",
                self.line(r.index.span)
            ));
        }
        Ok(())
    }

    /// No access or call in the region (span `within`) writes base `b` or a base that may
    /// alias it.
    fn not_written(&self, within: Span, b: BaseId, name: &str) -> Result<(), String> {
        let f = &self.ua.functions[self.fi];
        let inside = |s: Span| s.lo >= within.lo && s.hi <= within.hi;
        let may_alias = |w: BaseId| w == b || self.ua.distinct(self.fi, w, b).is_none();
        let written = |k: AccessKind| k != AccessKind::Read;
        for a in f
            .accesses
            .iter()
            .filter(|a| inside(a.span) && written(a.kind))
        {
            if a.base == b {
                return Err(format!(
                    "'{name}' is written in the region at line {}",
                    self.line(a.span)
                ));
            }
            if may_alias(a.base) {
                return Err(format!(
                    "the write to '{}' at line {} may alias '{name}'",
                    f.bases[a.base.0 as usize].name,
                    self.line(a.span)
                ));
            }
        }
        for c in f.calls.iter().filter(|c| inside(c.span)) {
            let writes = c
                .effects
                .iter()
                .any(|e| written(e.kind) && may_alias(e.base));
            if matches!(c.callee, Callee::Unknown(_)) || writes {
                return Err(format!(
                    "the call of '{}' at line {} may write '{name}'",
                    c.name,
                    self.line(c.span)
                ));
            }
        }
        Ok(())
    }
}

/// The first statement of `s` that is not straight-line code (a branch, loop, jump,
/// directive or `asm`).
fn control_flow(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::Expr(_) => None,
        StmtKind::Compound(b) => b.items.iter().find_map(|item| match item {
            BlockItem::Stmt(s) => control_flow(s),
            _ => None,
        }),
        _ => Some(s),
    }
}

/// The expressions of `s` evaluated only under a condition: right of `&&`/`||`, the arms
/// of `?:`, inside a statement expression.
fn conditional_exprs(s: &Stmt) -> Vec<ExprId> {
    let mut arms: Vec<&Expr> = Vec::new();
    ompcc_access::walk::stmt(s, &mut |n| {
        if let ompcc_access::walk::Node::Expr(e) = n {
            match &e.kind {
                ExprKind::Binary(BinaryOp::LogAnd | BinaryOp::LogOr, _, r) => arms.push(r),
                ExprKind::Cond(_, t, f) => arms.extend(t.as_deref().into_iter().chain([&**f])),
                ExprKind::StmtExpr(_) => arms.push(e),
                _ => {}
            }
        }
    });
    let mut out = Vec::new();
    for a in arms {
        ompcc_access::walk::expr(a, &mut |n| {
            if let ompcc_access::walk::Node::Expr(e) = n {
                out.push(e.id);
            }
        });
    }
    out
}
