//! Lowering of one function: frame (parameters and locals in stack slots), statements and
//! control flow, declarations with their initializers, VLA sizes, and memory helpers.
//!
//! Invariants: the builder's current block is always open while statements are lowered (code
//! after a terminator goes to a fresh unreachable block); every local object has exactly one
//! home (`Local`) for the whole function; `break`/`continue` targets are stacks that mirror the
//! nesting of loops and switches; every block is terminated before the function is returned.

use crate::ctx::Ctx;
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{
    AddrSpace, Block, FuncKind, Function, FunctionBuilder, LoopHint, MemFlags, StackSlot, Type,
    Value,
};
use ompcc_sema::types::{ArraySize, QualType, Quals, TypeKind, VlaSize};
use ompcc_sema::{InitEntry, InitKey, Storage, SymbolId, SymbolKind};
use ompcc_syntax::ast::{
    self, BlockItem, DeclarationKind, ExprId, ForInit, FunctionDef, Stmt, StmtKind,
};
use rustc_hash::FxHashMap;

/// A memory address with the space it points into and its known alignment.
#[derive(Clone, Copy, Debug)]
pub struct Addr {
    pub ptr: Value,
    pub space: AddrSpace,
    pub align: u32,
}

/// Where a local object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Local {
    /// A stack slot of this function.
    Slot(StackSlot, u32),
    /// Memory owned by the caller (struct parameters): a generic pointer.
    Ptr(Value, u32),
}

/// A block that allocated local VLAs: the stack top saved before its first one, and the
/// nesting it was opened at (blocks, break targets, continue targets), to free them when
/// control leaves the block.
pub struct VlaScope {
    pub saved: Value,
    pub depth: usize,
    pub breaks: usize,
    pub continues: usize,
}

/// Targets of the innermost enclosing switch.
pub struct SwitchCtx {
    pub cases: FxHashMap<ExprId, Block>,
    pub default: Option<Block>,
}

pub struct FnLower<'c, 'a, 'f> {
    pub cx: &'c mut Ctx<'a>,
    pub b: FunctionBuilder<'f>,
    pub name: String,
    pub locals: FxHashMap<SymbolId, Local>,
    pub vla: FxHashMap<VlaSize, StackSlot>,
    pub labels: FxHashMap<ast::Symbol, Block>,
    /// Block-scope typedefs seen so far, by name (for `sizeof(vla_typedef)`).
    pub typedefs: FxHashMap<ast::Symbol, QualType>,
    /// Locals whose declaration was already reported: their uses stay silent.
    pub failed_locals: rustc_hash::FxHashSet<SymbolId>,
    pub breaks: Vec<Block>,
    pub continues: Vec<Block>,
    pub switches: Vec<SwitchCtx>,
    /// Hidden result pointer of a function returning a struct.
    pub sret: Option<Value>,
    /// Hidden argument-buffer pointer of a variadic function (module `varargs`).
    pub va_area: Option<Value>,
    /// Blocks with local VLAs, innermost last.
    pub vla_scopes: Vec<VlaScope>,
    /// Nesting depth of the compound statement being lowered.
    pub depth: usize,
    /// Class of the return value (None: void or struct).
    pub ret: Option<Scalar>,
    pub errors: usize,
    /// Who runs the code (kernels: the execution context of OpenMP constructs).
    pub par: crate::kernel::Par,
    /// Generic kernels with workers: their state machine (module `generic`).
    pub generic: Option<crate::generic::GenericTeam>,
    /// For each enclosing parallel region (innermost last), the bindings of the variables
    /// its threads share, taken where it starts: a task shares a variable that still has
    /// that binding and gets a firstprivate copy of any other (OpenMP 5.2, 5.1.1).
    pub(crate) shared_scopes: Vec<FxHashMap<SymbolId, Local>>,
    /// While lowering one arm of a `dispatch` construct: its target call's callee
    /// expression and the function that arm calls.
    pub(crate) dispatch_callee: Option<(ompcc_syntax::ast::ExprId, SymbolId)>,
    /// How the enclosing worksharing loops hand out their iterations (innermost last).
    pub(crate) loop_runs: Vec<crate::kernel::Who>,
    /// The `taskloop` whose loop the next `distributed_loop` runs: how its iterations split
    /// into tasks and the firstprivate copies each task starts from (module `taskloop`).
    pub(crate) taskloop_split: Option<crate::taskloop::TaskSplit>,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// Lowers `def` to a device function named `name`.
    pub fn lower(
        cx: &'c mut Ctx<'a>,
        sym: SymbolId,
        def: &'a FunctionDef,
        name: String,
    ) -> Function {
        let fty = cx.typed.symbols[sym].ty;
        let span = def.span;
        let c_name = cx.typed.symbols[sym].name.clone();
        if !cx.ptx_nameable("E0801", "function", &c_name, span) {
            return trap_stub(name);
        }
        let (sig, sret) = match crate::varargs::call_signature(cx, fty) {
            Ok(s) => s,
            Err(msg) => {
                cx.error(
                    "E0801",
                    format!("function '{name}' cannot run on the device: {msg}"),
                    span,
                );
                return trap_stub(name);
            }
        };
        let mut func = Function::new(name.clone(), FuncKind::Device, sig.clone());
        let errors_before = cx.diags.iter().filter(|d| d.is_error()).count();
        {
            let ret = cx
                .typed
                .types
                .fn_type(fty)
                .and_then(|f| ty::scalar(&cx.typed.types, f.ret).ok().flatten());
            let mut fl = FnLower {
                cx,
                b: FunctionBuilder::new(&mut func),
                name: name.clone(),
                locals: FxHashMap::default(),
                vla: FxHashMap::default(),
                labels: FxHashMap::default(),
                typedefs: FxHashMap::default(),
                failed_locals: Default::default(),
                breaks: Vec::new(),
                continues: Vec::new(),
                switches: Vec::new(),
                sret: None,
                va_area: None,
                vla_scopes: Vec::new(),
                generic: None,
                shared_scopes: Vec::new(),
                dispatch_callee: None,
                loop_runs: Vec::new(),
                taskloop_split: None,
                depth: 0,
                ret,
                errors: 0,
                par: crate::kernel::Par::DEVICE,
            };
            fl.body(def, sret, crate::varargs::is_variadic(fl.cx, fty));
        }
        func.attrs.inline = crate::hints::inline_attr(cx, sym, def);
        if let Err(e) = ompcc_ir::verify_function(&func) {
            // A lowering bug must not reach later stages (nor crash): report it as an
            // internal error at the function.
            cx.error(
                "E0899",
                format!(
                    "internal error: lowering '{name}' produced invalid IR ({})",
                    e.first().map_or(String::new(), |e| e.message.clone())
                ),
                span,
            );
        }
        let errors_after = cx.diags.iter().filter(|d| d.is_error()).count();
        if errors_after > errors_before {
            // Keep the symbol callable but never run a half-lowered body.
            let mut f = Function::new(name, FuncKind::Device, sig);
            let mut b = FunctionBuilder::new(&mut f);
            let e = b.create_entry_block();
            b.switch_to_block(e);
            b.ins().trap();
            return f;
        }
        func
    }

    fn body(&mut self, def: &'a FunctionDef, sret: bool, variadic: bool) {
        let entry = self.b.create_entry_block();
        self.b.switch_to_block(entry);
        // The prologue (parameters stored to their slots) belongs to the declarator.
        let loc = self.cx.srcloc(def.declarator.span);
        self.b.set_srcloc(loc);
        let params: Vec<Value> = self.b.block_params(entry).to_vec();
        let mut pi = 0;
        if sret {
            self.sret = params.first().copied();
            pi = 1;
        }
        if variadic {
            // the variadic ABI's hidden buffer pointer comes last
            self.va_area = params.last().copied();
        }
        // Parameters: the function declarator is the first Function layer.
        let plist = def.declarator.derived.iter().find_map(|d| match d {
            ast::Derived::Function { params, .. } => Some(params),
            _ => None,
        });
        for p in plist.into_iter().flatten() {
            let Some(d) = &p.declarator else {
                // `(void)` or an unnamed parameter: skip its value.
                if !p.specs.specs.is_empty() && self.is_void_param(p) {
                    continue;
                }
                pi += 1;
                continue;
            };
            let Some(qt) = self.cx.typed.decl_type(d.id) else {
                pi += 1;
                continue;
            };
            if self.cx.typed.types.is_void(qt) {
                continue;
            }
            let Some(&v) = params.get(pi) else { break };
            if crate::hints::is_restrict_pointer(self.cx, qt) {
                // `restrict` parameters: sorted, since parameters are visited in order.
                self.b.func.attrs.noalias.push(pi as u32);
            }
            pi += 1;
            let Some(sym) = self.cx.typed.decl_symbol(d.id) else {
                continue;
            };
            self.vla_sizes_of(qt, d.span);
            let align = self.align_of(qt);
            if ty::by_address(&self.cx.typed.types, qt) {
                self.locals.insert(sym, Local::Ptr(v, align));
                continue;
            }
            let slot = self.new_slot(qt, d.span);
            if let Some(slot) = slot {
                self.locals.insert(sym, Local::Slot(slot, align));
                let a = self.slot_addr(slot, align);
                self.store_raw(a, v, false);
            }
        }
        self.block(&def.body);
        // Falling off the end returns at the closing brace.
        let end = self
            .cx
            .srcloc(ompcc_diag::Span::point(def.body.span.hi.saturating_sub(1)));
        self.b.set_srcloc(end);
        if !self.b.is_filled() {
            self.default_return();
        }
        self.terminate_all();
    }

    fn is_void_param(&self, p: &ast::ParamDecl) -> bool {
        p.specs
            .specs
            .iter()
            .any(|s| matches!(s.kind, ast::DeclSpecKind::Type(ast::TypeSpec::Void)))
    }

    /// Falling off the end: `return;` (or zero, which `main` returns and other functions
    /// leave undefined).
    fn default_return(&mut self) {
        match self.ret {
            Some(s) => {
                let z = self.zero(s);
                self.b.ins().ret(&[z]);
            }
            None => {
                self.b.ins().ret(&[]);
            }
        }
    }

    /// Ends every open block (unreachable code after jumps, unused labels) and places labels
    /// that were jumped to but never defined (a checker error) so every branch target exists.
    pub(crate) fn terminate_all(&mut self) {
        let labels: Vec<Block> = self.labels.values().copied().collect();
        for blk in labels {
            if !self.b.func.layout.is_block_inserted(blk) {
                self.b.switch_to_block(blk);
            }
        }
        let blocks: Vec<Block> = self.b.func.layout.blocks().collect();
        for blk in blocks {
            let filled = self
                .b
                .func
                .layout
                .last_inst(blk)
                .is_some_and(|i| self.b.func.dfg.inst(i).opcode().is_terminator());
            if !filled {
                self.b.switch_to_block(blk);
                self.b.ins().unreachable();
            }
        }
    }

    // ----- diagnostics -----

    pub fn unsupported(&mut self, msg: impl Into<String>, span: Span) {
        self.errors += 1;
        self.cx.error("E0803", msg, span);
    }

    /// [`Self::unsupported`] with a `help:` line saying how to fix it.
    pub fn unsupported_with_help(
        &mut self,
        msg: impl Into<String>,
        help: impl Into<String>,
        span: Span,
    ) {
        self.errors += 1;
        self.cx
            .diags
            .push(ompcc_diag::Diagnostic::error("E0803", msg, span).with_help(help));
    }

    // ----- blocks -----

    /// Makes sure instructions can be appended: after a terminator, continue in a fresh
    /// (unreachable) block.
    pub fn ensure_open(&mut self) {
        if self.b.current_block().is_none() || self.b.is_filled() {
            let blk = self.b.create_block();
            self.b.switch_to_block(blk);
        }
    }

    /// Jumps to `target` unless the current block is already terminated.
    pub fn jump_to(&mut self, target: Block) {
        if !self.b.is_filled() {
            self.b.ins().jump(target, &[]);
        }
    }

    // ----- statements -----

    pub fn block(&mut self, blk: &'a ast::Block) {
        self.depth += 1;
        self.block_items(&blk.items);
        self.free_block_vlas();
        self.depth -= 1;
    }

    /// The items of a block (between `depth` going up and `free_block_vlas`).
    pub(crate) fn block_items(&mut self, items: &'a [BlockItem]) {
        // A loop pragma applies to the statement after it (other pragma lines may come between).
        let mut pending: Option<(&ast::Pragma, LoopHint)> = None;
        for item in items {
            match item {
                BlockItem::Decl(d) => {
                    if let Some((p, _)) = pending.take() {
                        self.pragma_not_before_loop(p);
                    }
                    self.declaration(d)
                }
                BlockItem::Stmt(s) => match pending.take() {
                    Some((_, hint)) if is_loop(s) => self.stmt_with_hint(s, Some(hint)),
                    Some((p, _)) => {
                        self.pragma_not_before_loop(p);
                        self.stmt(s)
                    }
                    None => self.stmt(s),
                },
                BlockItem::Pragma(p) => match crate::hints::loop_hint_of(&p.text) {
                    Ok(Some(hint)) => pending = Some((p, hint)),
                    Ok(None) => {}
                    Err(msg) => self
                        .cx
                        .diags
                        .push(ompcc_diag::Diagnostic::warning("W0810", msg, p.span)),
                },
                BlockItem::LocalLabels(..) => {}
            }
        }
        if let Some((p, _)) = pending {
            self.pragma_not_before_loop(p);
        }
    }

    /// Leaving the block at `depth` frees its VLAs.
    pub(crate) fn free_block_vlas(&mut self) {
        if let Some(scope) = self.vla_scopes.last()
            && scope.depth == self.depth
        {
            let saved = scope.saved;
            self.vla_scopes.pop();
            if !self.b.is_filled() {
                self.b.ins().stack_restore(saved);
            }
        }
    }

    /// Before `break` (or `continue`): frees the VLAs of the blocks it leaves, those opened
    /// inside the innermost break (continue) target.
    fn free_vlas_leaving(&mut self, is_break: bool) {
        let (breaks, continues) = (self.breaks.len(), self.continues.len());
        let outermost = self.vla_scopes.iter().find(|s| {
            if is_break {
                s.breaks >= breaks
            } else {
                s.continues >= continues
            }
        });
        if let Some(s) = outermost {
            let saved = s.saved;
            self.b.ins().stack_restore(saved);
        }
    }

    /// A local variable length array: fresh stack memory of its run-time size; the block's
    /// stack top is saved before its first VLA so leaving the block frees them.
    fn alloc_vla(&mut self, qt: QualType, span: Span) -> Option<Value> {
        if self.vla_scopes.last().is_none_or(|s| s.depth != self.depth) {
            let saved = self.b.ins().stack_save();
            self.vla_scopes.push(VlaScope {
                saved,
                depth: self.depth,
                breaks: self.breaks.len(),
                continues: self.continues.len(),
            });
        }
        let size = self.sizeof_value(qt, span)?;
        let p = self.b.ins().stack_alloc(size);
        Some(self.b.ins().addrspacecast(Type::PTR, p))
    }

    /// Warns about a loop pragma that no loop follows (gcc and clang reject some of these;
    /// ignoring it keeps the program's meaning).
    fn pragma_not_before_loop(&mut self, p: &ast::Pragma) {
        self.cx.diags.push(ompcc_diag::Diagnostic::warning(
            "W0811",
            format!(
                "'#pragma {}' is ignored: it must come right before a for, while or do loop",
                p.text
            ),
            p.span,
        ));
    }

    /// Records `hint` for the loop whose header is `header`.
    fn set_loop_hint(&mut self, header: Block, hint: Option<LoopHint>) {
        if hint.is_some() {
            self.b.func.loop_hints[header] = hint;
        }
    }

    pub fn stmt(&mut self, s: &'a Stmt) {
        self.stmt_with_hint(s, None)
    }

    /// Lowers `s`; a loop gets `hint` (from a loop pragma before it) on its header block.
    pub(crate) fn stmt_with_hint(&mut self, s: &'a Stmt, hint: Option<LoopHint>) {
        self.ensure_open();
        let loc = self.cx.srcloc(s.span);
        self.b.set_srcloc(loc);
        match &s.kind {
            StmtKind::Labeled(id, inner) => {
                let blk = self.label_block(id.name);
                self.jump_to(blk);
                self.b.switch_to_block(blk);
                self.stmt(inner);
            }
            StmtKind::Case(lo, _, inner) => {
                if let Some(&blk) = self.switches.last().and_then(|sw| sw.cases.get(&lo.id)) {
                    self.jump_to(blk);
                    self.b.switch_to_block(blk);
                }
                self.stmt(inner);
            }
            StmtKind::Default(inner) => {
                if let Some(blk) = self.switches.last().and_then(|sw| sw.default) {
                    self.jump_to(blk);
                    self.b.switch_to_block(blk);
                }
                self.stmt(inner);
            }
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Expr(e) => {
                if let Some(e) = e {
                    self.effect(e);
                }
            }
            StmtKind::If(c, t, e) => {
                let then_b = self.b.create_block();
                let else_b = self.b.create_block();
                let join = self.b.create_block();
                self.branch(c, then_b, else_b);
                self.b.switch_to_block(then_b);
                self.stmt(t);
                self.jump_to(join);
                self.b.switch_to_block(else_b);
                if let Some(e) = e {
                    self.stmt(e);
                }
                self.jump_to(join);
                self.b.switch_to_block(join);
            }
            StmtKind::While(c, body) => {
                let head = self.b.create_block();
                let body_b = self.b.create_block();
                let exit = self.b.create_block();
                self.set_loop_hint(head, hint);
                self.jump_to(head);
                self.b.switch_to_block(head);
                self.branch(c, body_b, exit);
                self.b.switch_to_block(body_b);
                self.loop_body(body, exit, head);
                self.jump_to(head);
                self.b.switch_to_block(exit);
            }
            StmtKind::DoWhile(body, c) => {
                let body_b = self.b.create_block();
                let cond_b = self.b.create_block();
                let exit = self.b.create_block();
                // The body is the loop's header: the back edge and the entry both reach it.
                self.set_loop_hint(body_b, hint);
                self.jump_to(body_b);
                self.b.switch_to_block(body_b);
                self.loop_body(body, exit, cond_b);
                self.jump_to(cond_b);
                self.b.switch_to_block(cond_b);
                self.branch(c, body_b, exit);
                self.b.switch_to_block(exit);
            }
            StmtKind::For(init, c, step, body) => {
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.effect(e),
                    ForInit::Decl(d) => self.declaration(d),
                }
                let head = self.b.create_block();
                let body_b = self.b.create_block();
                let step_b = self.b.create_block();
                let exit = self.b.create_block();
                self.set_loop_hint(head, hint);
                if c.is_none() {
                    // `head` is a lone jump that simplifycfg threads away; the body becomes
                    // the header then.
                    self.set_loop_hint(body_b, hint);
                }
                self.jump_to(head);
                self.b.switch_to_block(head);
                match c {
                    Some(c) => self.branch(c, body_b, exit),
                    None => {
                        self.b.ins().jump(body_b, &[]);
                    }
                }
                self.b.switch_to_block(body_b);
                self.loop_body(body, exit, step_b);
                self.jump_to(step_b);
                self.b.switch_to_block(step_b);
                if let Some(st) = step {
                    self.effect(st);
                }
                self.jump_to(head);
                self.b.switch_to_block(exit);
            }
            StmtKind::Switch(c, body) => self.switch(c, body),
            StmtKind::Goto(id) => {
                let blk = self.label_block(id.name);
                self.b.ins().jump(blk, &[]);
            }
            StmtKind::Continue => match self.continues.last() {
                Some(&t) => {
                    self.free_vlas_leaving(false);
                    self.b.ins().jump(t, &[]);
                }
                None => self.unsupported("'continue' outside a loop", s.span),
            },
            StmtKind::Break => match self.breaks.last() {
                Some(&t) => {
                    self.free_vlas_leaving(true);
                    self.b.ins().jump(t, &[]);
                }
                None => self.unsupported("'break' outside a loop or switch", s.span),
            },
            StmtKind::Return(e) => self.ret_stmt(e.as_deref(), s.span),
            StmtKind::GotoIndirect(_) => {
                self.unsupported("computed 'goto' is not supported on the device", s.span)
            }
            StmtKind::Asm(_) => {
                self.unsupported("inline assembly cannot be compiled for the device", s.span)
            }
            StmtKind::Omp(d) if d.kind == ast::OmpDirectiveKind::Unroll => {
                // A loop transformation, not a region: its loop with the hint it asks for.
                if let Some(body) = &d.body {
                    let h = crate::hints::omp_unroll_hint(self.cx, d);
                    self.stmt_with_hint(crate::hints::single_stmt(body), h.or(hint));
                }
            }
            StmtKind::Omp(d) if d.kind == ast::OmpDirectiveKind::Atomic => self.omp_atomic(d),
            StmtKind::Omp(d) if d.kind == ast::OmpDirectiveKind::Flush => {
                self.b.ins().fence(ompcc_ir::Scope::Gpu);
            }
            StmtKind::Omp(d) if d.kind == ast::OmpDirectiveKind::Simd && simd_is_sequential(d) => {
                // One thread running the loop in order is a valid execution of `simd`
                // (reductions then combine into the original directly).
                if let Some(body) = &d.body {
                    self.stmt(body);
                }
            }
            StmtKind::Omp(d) if self.par.split == crate::kernel::Split::Device => {
                self.device_function_construct(d)
            }
            StmtKind::Omp(d) => self.omp_construct(d),
        }
    }

    fn loop_body(&mut self, body: &'a Stmt, brk: Block, cont: Block) {
        self.breaks.push(brk);
        self.continues.push(cont);
        self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
    }

    fn label_block(&mut self, name: ast::Symbol) -> Block {
        if let Some(&b) = self.labels.get(&name) {
            return b;
        }
        let b = self.b.create_block();
        self.labels.insert(name, b);
        b
    }

    fn ret_stmt(&mut self, e: Option<&'a ast::Expr>, span: Span) {
        let Some(e) = e else {
            self.default_return();
            return;
        };
        if let Some(dst) = self.sret {
            if let Some(src) = self.agg_value(e) {
                let size = self.cx.typed.expr(e.id).map(|i| i.ty);
                if let Some(qt) = size {
                    let to = Addr {
                        ptr: dst,
                        space: AddrSpace::Generic,
                        align: self.align_of(qt),
                    };
                    self.copy(to, src, qt, span);
                }
            }
            self.b.ins().ret(&[]);
            return;
        }
        match self.ret {
            Some(_) => {
                if let Some(v) = self.scalar(e) {
                    self.b.ins().ret(&[v]);
                }
            }
            None => {
                self.effect(e);
                self.ensure_open();
                self.b.ins().ret(&[]);
            }
        }
    }

    /// `switch`: a compare chain over the case labels of this switch (GNU ranges included).
    fn switch(&mut self, c: &'a ast::Expr, body: &'a Stmt) {
        let Some(cls) = self.class_of_conv(c) else {
            return;
        };
        if !matches!(cls, Scalar::Int(..) | Scalar::Bool) {
            self.unsupported("switch quantity is not an integer", c.span);
            return;
        }
        let Some(v) = self.scalar(c) else { return };
        let mut labels = Vec::new();
        collect_cases(body, &mut labels);
        let exit = self.b.create_block();
        let mut sw = SwitchCtx {
            cases: FxHashMap::default(),
            default: None,
        };
        let mut chain = Vec::new();
        for l in &labels {
            match l {
                CaseLabel::Case(lo, hi) => {
                    let blk = self.b.create_block();
                    sw.cases.insert(lo.id, blk);
                    let lov = self.case_value(lo);
                    let hiv = hi.and_then(|h| self.case_value(h));
                    if let Some(lov) = lov {
                        chain.push((lov, hiv, blk));
                    }
                }
                CaseLabel::Default => {
                    sw.default = Some(self.b.create_block());
                }
            }
        }
        let otherwise = sw.default.unwrap_or(exit);
        // Dense single-value cases become one `br_table` on `v - min` (unsigned, so values
        // below `min` wrap to the default); GNU ranges and sparse cases stay compares.
        let singles: Vec<(i128, Block)> = chain
            .iter()
            .filter(|c| c.1.is_none())
            .map(|c| (c.0, c.2))
            .collect();
        let table = match (
            singles.iter().map(|c| c.0).min(),
            singles.iter().map(|c| c.0).max(),
        ) {
            (Some(min), Some(max))
                if singles.len() >= 4
                    && max - min < 2 * singles.len() as i128 + 8
                    && max - min < 4096 =>
            {
                Some((min, max))
            }
            _ => None,
        };
        if table.is_some() {
            chain.retain(|c| c.1.is_some());
        }
        for (lo, hi, blk) in chain {
            let next = self.b.create_block();
            let ty = cls.ty();
            let cond = match hi {
                None => {
                    let k = self.b.ins().iconst(ty, lo as i64);
                    self.b.ins().icmp(ompcc_ir::IntCC::Eq, v, k)
                }
                Some(hi) => {
                    // lo <= v <= hi as one unsigned compare: v - lo <= hi - lo.
                    let k = self.b.ins().iconst(ty, lo as i64);
                    let d = self.b.ins().isub(v, k);
                    let span = self.b.ins().iconst(ty, hi.wrapping_sub(lo) as i64);
                    self.b.ins().icmp(ompcc_ir::IntCC::Ule, d, span)
                }
            };
            self.b.ins().brif(cond, blk, &[], next, &[]);
            self.b.switch_to_block(next);
        }
        match table {
            Some((min, max)) => {
                let ty = cls.ty();
                let k = self.b.ins().iconst(ty, min as i64);
                let idx = self.b.ins().isub(v, k);
                let mut targets = vec![otherwise; (max - min + 1) as usize];
                for (val, blk) in singles {
                    targets[(val - min) as usize] = blk;
                }
                let calls: Vec<(Block, &[Value])> = targets.iter().map(|b| (*b, &[][..])).collect();
                self.b.ins().br_table(idx, (otherwise, &[]), &calls);
            }
            None => {
                self.b.ins().jump(otherwise, &[]);
            }
        }
        // The body starts unreachable; case labels open their blocks.
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
        self.switches.push(sw);
        self.breaks.push(exit);
        self.stmt(body);
        self.breaks.pop();
        self.switches.pop();
        self.jump_to(exit);
        self.b.switch_to_block(exit);
    }

    fn case_value(&mut self, e: &ast::Expr) -> Option<i128> {
        match self.cx.typed.consts.get(&e.id) {
            Some(ompcc_sema::consteval::ConstValue::Int(i)) => Some(i.value),
            _ => match ompcc_sema::fold(self.cx.typed, e) {
                Some(ompcc_sema::consteval::ConstValue::Int(i)) => Some(i.value),
                _ => {
                    self.unsupported("case label is not an integer constant", e.span);
                    None
                }
            },
        }
    }

    // ----- declarations -----

    pub fn declaration(&mut self, d: &'a ast::Declaration) {
        let DeclarationKind::Vars { declarators, .. } = &d.kind else {
            return;
        };
        for id in declarators {
            self.ensure_open();
            let decl = &id.declarator;
            let loc = self.cx.srcloc(decl.span);
            self.b.set_srcloc(loc);
            let Some(qt) = self.cx.typed.decl_type(decl.id) else {
                continue;
            };
            let Some(sym) = self.cx.typed.decl_symbol(decl.id) else {
                continue;
            };
            let info = &self.cx.typed.symbols[sym];
            match info.kind {
                SymbolKind::Typedef => {
                    if let Some(n) = decl.name {
                        self.typedefs.insert(n.name, qt);
                    }
                    self.vla_sizes_of(qt, decl.span);
                    continue;
                }
                SymbolKind::Object => {}
                _ => continue,
            }
            if info.storage != Storage::Automatic {
                // `static` locals and block-scope `extern`: module globals, found by symbol.
                continue;
            }
            let qt = info.ty;
            self.vla_sizes_of(qt, decl.span);
            if self.cx.typed.types.is_vla(qt) {
                let Some(p) = self.alloc_vla(qt, decl.span) else {
                    self.failed_locals.insert(sym);
                    continue;
                };
                let align = self.align_of(qt).clamp(1, 16);
                self.locals.insert(sym, Local::Ptr(p, align));
                continue;
            }
            let Some(slot) = self.new_slot(qt, decl.span) else {
                self.failed_locals.insert(sym);
                continue;
            };
            let align = self.align_of(qt);
            self.locals.insert(sym, Local::Slot(slot, align));
            if id.init.is_some() {
                let addr = self.slot_addr(slot, align);
                self.init_object(addr, qt, InitKey::Decl(decl.id), decl.span);
            }
        }
    }

    /// Zero-fills the bytes of the object no entry covers, then stores every entry.
    pub fn init_object(&mut self, addr: Addr, qt: QualType, key: InitKey, span: Span) {
        let entries: Vec<InitEntry> = self.cx.typed.inits.get(&key).cloned().unwrap_or_default();
        let size = self.cx.typed.types.size_of(qt).unwrap_or(0);
        let mut covered = vec![false; size as usize];
        for e in &entries {
            if e.bit_width.is_some() {
                continue;
            }
            let at = (e.bit_offset / 8) as usize;
            let mut n = self.cx.typed.types.size_of(e.ty).unwrap_or(0) as usize;
            // A string stores its characters and terminator; the zero fill does the rest.
            if let Some(x) = self.cx.expr_by_id(e.expr)
                && let ast::ExprKind::Str(s) = &crate::expr::strip_parens(x).kind
            {
                n = n.min(self.string_stored_len(e.ty, s));
            }
            for c in covered.iter_mut().skip(at).take(n) {
                *c = true;
            }
        }
        self.zero_uncovered(addr, &covered);
        for e in entries {
            let Some(x) = self.cx.expr_by_id(e.expr) else {
                continue;
            };
            let at = self.offset(addr, (e.bit_offset / 8) as i64);
            if let Some(w) = e.bit_width {
                let Some(v) = self.scalar(x) else { continue };
                let Some(cls) = self.class(e.ty, x.span) else {
                    continue;
                };
                let Some(lv) = self.bitfield_lv(addr, e.bit_offset, w, 0..size * 8, cls, x.span)
                else {
                    continue;
                };
                self.store_lv(&lv, v);
                continue;
            }
            if let ast::ExprKind::Str(s) = &crate::expr::strip_parens(x).kind
                && self.cx.typed.types.is_array(e.ty)
            {
                self.store_string(at, e.ty, s);
                continue;
            }
            if ty::by_address(&self.cx.typed.types, e.ty) {
                if let Some(src) = self.agg_value(x) {
                    self.copy(at, src, e.ty, span);
                }
                continue;
            }
            if let Some(v) = self.scalar(x) {
                let vol = e.ty.quals.contains(Quals::VOLATILE);
                let a = Addr {
                    align: at.align.min(self.align_of(e.ty)),
                    ..at
                };
                self.store_raw(a, v, vol);
            }
        }
    }

    fn store_string(&mut self, at: Addr, ty: QualType, s: &ast::StringLit) {
        let types = &self.cx.typed.types;
        let elem = types
            .array_elem(ty)
            .and_then(|t| types.size_of(t))
            .unwrap_or(1) as u32;
        let n = (self.string_stored_len(ty, s) / elem.max(1) as usize) as u64;
        let ity = Type::int(elem * 8).unwrap_or(Type::I8);
        for i in 0..n {
            let u = s.value.get(i as usize).copied().unwrap_or(0);
            let v = self.b.ins().iconst(ity, u as i64);
            let a = self.offset(at, (i * elem as u64) as i64);
            let a = Addr {
                align: elem.min(a.align),
                ..a
            };
            self.store_raw(a, v, false);
        }
    }

    /// Bytes of a character array that its string initializer writes explicitly: the
    /// characters and the terminator, at most the array.
    fn string_stored_len(&self, ty: QualType, s: &ast::StringLit) -> usize {
        let types = &self.cx.typed.types;
        let elem = types
            .array_elem(ty)
            .and_then(|t| types.size_of(t))
            .unwrap_or(1) as usize;
        let size = types.size_of(ty).unwrap_or(0) as usize;
        size.min((s.value.len() + 1) * elem)
    }

    fn zero_uncovered(&mut self, addr: Addr, covered: &[bool]) {
        let mut i = 0usize;
        while i < covered.len() {
            if covered[i] {
                i += 1;
                continue;
            }
            // Long runs (`double a[4096] = {0}`) get a loop instead of one store per unit.
            let run = covered[i..].iter().take_while(|&&c| !c).count();
            let unit = addr.align.clamp(1, 8) as usize;
            if run >= 256 && i.is_multiple_of(unit) {
                let n = run / unit * unit;
                self.zero_loop(addr, i as i64, n as i64, unit as u32);
                i += n;
                continue;
            }
            // largest unit that is aligned here, uncovered, and allowed by the alignment
            let mut unit = 8usize;
            while unit > 1
                && (!i.is_multiple_of(unit)
                    || unit as u32 > addr.align
                    || i + unit > covered.len()
                    || covered[i..i + unit].iter().any(|&c| c))
            {
                unit /= 2;
            }
            let ty = Type::int(unit as u32 * 8).unwrap_or(Type::I8);
            let z = self.b.ins().iconst(ty, 0);
            let a = self.offset(addr, i as i64);
            let a = Addr {
                align: unit as u32,
                ..a
            };
            self.store_raw(a, z, false);
            i += unit;
        }
    }

    /// Stores zeros over `len` bytes at `addr + start` in `unit`-byte steps, as a loop.
    fn zero_loop(&mut self, addr: Addr, start: i64, len: i64, unit: u32) {
        let ty = Type::int(unit * 8).unwrap_or(Type::I8);
        let head = self.b.create_block();
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let i = self.b.append_block_param(head, Type::I64);
        let first = self.b.ins().iconst(Type::I64, start);
        self.b.ins().jump(head, &[first]);
        self.b.switch_to_block(head);
        let end = self.b.ins().iconst(Type::I64, start + len);
        let c = self.b.ins().icmp(ompcc_ir::IntCC::Slt, i, end);
        self.b.ins().brif(c, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        let p = self.b.ins().ptr_offset(addr.ptr, i);
        let z = self.b.ins().iconst(ty, 0);
        let a = Addr {
            ptr: p,
            align: unit,
            ..addr
        };
        self.store_raw(a, z, false);
        let step = self.b.ins().iconst(Type::I64, unit as i64);
        let next = self.b.ins().iadd(i, step);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(exit);
    }

    // ----- VLA sizes -----

    /// Evaluates (once) the size expressions of every VLA in `qt`, outermost first, into
    /// stack slots holding the element counts as `i64`.
    pub fn vla_sizes_of(&mut self, qt: QualType, span: Span) {
        let kind = self.cx.typed.types.ckind(qt).clone();
        match kind {
            TypeKind::Pointer(p) => self.vla_sizes_of(p, span),
            TypeKind::Array { elem, size, .. } => {
                if let ArraySize::Vla(vs) = size {
                    self.vla_count(vs, span);
                }
                self.vla_sizes_of(elem, span);
            }
            _ => {}
        }
    }

    /// The slot holding the element count of a VLA, evaluating its size expression here the
    /// first time (declarations, casts and type names evaluate theirs where they appear).
    fn vla_count(&mut self, vs: VlaSize, span: Span) -> Option<StackSlot> {
        if let Some(&s) = self.vla.get(&vs) {
            return Some(s);
        }
        let e = self
            .cx
            .typed
            .vla_sizes
            .get(&vs)
            .and_then(|&id| self.cx.expr_by_id(id))?;
        let cls = self.class_of_conv(e)?;
        let v = self.scalar(e)?;
        let n = self.convert(v, cls, Scalar::LONG);
        let slot = self.b.create_stack_slot(8, 8);
        let a = self.slot_addr(slot, 8);
        self.store_raw(a, n, false);
        self.vla.insert(vs, slot);
        let _ = span;
        Some(slot)
    }

    /// `sizeof` of a type as an `i64`, computed at run time for VLAs.
    pub fn sizeof_value(&mut self, qt: QualType, span: Span) -> Option<Value> {
        if let Some(n) = self.cx.typed.types.size_of(qt) {
            return Some(self.b.ins().iconst(Type::I64, n as i64));
        }
        let kind = self.cx.typed.types.ckind(qt).clone();
        match kind {
            TypeKind::Void | TypeKind::Function(_) => Some(self.b.ins().iconst(Type::I64, 1)),
            TypeKind::Array { elem, size, .. } => {
                let es = self.sizeof_value(elem, span)?;
                let n = match size {
                    ArraySize::Fixed(n) => self.b.ins().iconst(Type::I64, n as i64),
                    ArraySize::Vla(vs) => match self.vla_count(vs, span) {
                        Some(slot) => {
                            let a = self.slot_addr(slot, 8);
                            self.load_raw(a, Type::I64, false)
                        }
                        None => {
                            self.unsupported(
                                "size of this variable length array is unknown here",
                                span,
                            );
                            return None;
                        }
                    },
                    _ => {
                        self.unsupported("array of unknown size has no size", span);
                        return None;
                    }
                };
                Some(self.b.ins().imul(n, es))
            }
            _ => {
                self.unsupported(
                    format!("type '{}' has no size", self.cx.typed.types.display(qt)),
                    span,
                );
                None
            }
        }
    }

    // ----- memory helpers -----

    pub fn align_of(&self, qt: QualType) -> u32 {
        self.cx
            .typed
            .types
            .align_of(qt)
            .unwrap_or(1)
            .clamp(1, 1 << 16) as u32
    }

    /// A stack slot for an object of type `qt`.
    pub fn new_slot(&mut self, qt: QualType, span: Span) -> Option<StackSlot> {
        let Some(size) = self.cx.typed.types.size_of(qt) else {
            self.unsupported(
                format!(
                    "object of type '{}' has no fixed size",
                    self.cx.typed.types.display(qt)
                ),
                span,
            );
            return None;
        };
        let Ok(size) = u32::try_from(size.max(1)) else {
            self.unsupported("object is too large for the device stack", span);
            return None;
        };
        let align = self.align_of(qt);
        Some(self.b.create_stack_slot(size, align))
    }

    pub fn slot_addr(&mut self, slot: StackSlot, align: u32) -> Addr {
        let ptr = self.b.ins().stack_addr(slot);
        Addr {
            ptr,
            space: AddrSpace::Local,
            align,
        }
    }

    /// The address of a local object (a fresh `stack_addr`, so promotion sees plain uses).
    pub fn local_addr(&mut self, l: Local) -> Addr {
        match l {
            Local::Slot(s, align) => self.slot_addr(s, align),
            Local::Ptr(p, align) => Addr {
                ptr: p,
                space: AddrSpace::Generic,
                align,
            },
        }
    }

    /// `addr + bytes` (constant).
    pub fn offset(&mut self, addr: Addr, bytes: i64) -> Addr {
        if bytes == 0 {
            return addr;
        }
        let k = self.b.ins().iconst(Type::I64, bytes);
        let ptr = self.b.ins().ptr_offset(addr.ptr, k);
        let low = 1u32 << (bytes.trailing_zeros().min(16));
        Addr {
            ptr,
            space: addr.space,
            align: addr.align.min(low),
        }
    }

    /// The address as a C pointer value (generic space).
    pub fn generic_ptr(&mut self, addr: Addr) -> Value {
        if addr.space == AddrSpace::Generic {
            addr.ptr
        } else {
            self.b.ins().addrspacecast(Type::PTR, addr.ptr)
        }
    }

    pub fn load_raw(&mut self, addr: Addr, ty: Type, volatile: bool) -> Value {
        let flags = MemFlags {
            align: addr.align.min(ty.bytes()).max(1),
            volatile,
            readonly: false,
        };
        self.b.ins().load(ty, addr.space, flags, addr.ptr)
    }

    pub fn store_raw(&mut self, addr: Addr, v: Value, volatile: bool) {
        let ty = self.b.value_type(v);
        let flags = MemFlags {
            align: addr.align.min(ty.bytes()).max(1),
            volatile,
            readonly: false,
        };
        self.b.ins().store(addr.space, flags, v, addr.ptr);
    }

    /// Copies an object of type `qt` (records, arrays) unit by unit; a loop for large ones.
    pub fn copy(&mut self, dst: Addr, src: Addr, qt: QualType, span: Span) {
        if self.complex_copy(dst, src, qt) {
            return;
        }
        let Some(size) = self.cx.typed.types.size_of(qt) else {
            self.unsupported("cannot copy an object of unknown size", span);
            return;
        };
        let unit = dst.align.min(src.align).clamp(1, 8) as u64;
        let unit = if size.is_multiple_of(unit) {
            unit
        } else {
            1u64.max(gcd_pow2(size, unit))
        };
        let ty = Type::int(unit as u32 * 8).unwrap_or(Type::I8);
        let count = size / unit;
        if count <= 16 {
            for i in 0..count {
                let s = self.offset(src, (i * unit) as i64);
                let d = self.offset(dst, (i * unit) as i64);
                let v = self.load_raw(s, ty, false);
                self.store_raw(d, v, false);
            }
            return;
        }
        // for (i = 0; i < size; i += unit) dst[i] = src[i];
        let head = self.b.create_block();
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let i = self.b.append_block_param(head, Type::I64);
        let zero = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(head, &[zero]);
        self.b.switch_to_block(head);
        let lim = self.b.ins().iconst(Type::I64, size as i64);
        let c = self.b.ins().icmp(ompcc_ir::IntCC::Ult, i, lim);
        self.b.ins().brif(c, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        let sp = self.b.ins().ptr_offset(src.ptr, i);
        let dp = self.b.ins().ptr_offset(dst.ptr, i);
        let s = Addr {
            ptr: sp,
            align: unit as u32,
            ..src
        };
        let d = Addr {
            ptr: dp,
            align: unit as u32,
            ..dst
        };
        let v = self.load_raw(s, ty, false);
        self.store_raw(d, v, false);
        let step = self.b.ins().iconst(Type::I64, unit as i64);
        let next = self.b.ins().iadd(i, step);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(exit);
    }

    pub fn zero(&mut self, s: Scalar) -> Value {
        match s {
            Scalar::Float(t) => self.b.ins().fconst(t, 0.0),
            Scalar::Ptr => {
                let z = self.b.ins().iconst(Type::I64, 0);
                self.b.ins().inttoptr(Type::PTR, z)
            }
            other => self.b.ins().iconst(other.ty(), 0),
        }
    }
}

/// `simd` whose clauses keep their meaning when the loop simply runs in order on one thread:
/// no privatization (a private copy's updates must not reach the original).
/// Whether `s` is a `for`, `while` or `do` loop (what a loop pragma may precede).
fn is_loop(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::For(..) | StmtKind::While(..) | StmtKind::DoWhile(..)
    )
}

fn simd_is_sequential(d: &ast::OmpDirective) -> bool {
    use ast::OmpClauseName as C;
    d.clauses.iter().all(|c| {
        matches!(
            c.name,
            C::Safelen
                | C::Simdlen
                | C::Aligned
                | C::Nontemporal
                | C::Collapse
                | C::Order
                | C::Reduction
                | C::If
        )
    })
}

fn gcd_pow2(size: u64, unit: u64) -> u64 {
    let mut u = unit;
    while u > 1 && !size.is_multiple_of(u) {
        u /= 2;
    }
    u
}

enum CaseLabel<'a> {
    Case(&'a ast::Expr, Option<&'a ast::Expr>),
    Default,
}

/// The case labels of one switch body (not those of nested switches).
fn collect_cases<'a>(s: &'a Stmt, out: &mut Vec<CaseLabel<'a>>) {
    match &s.kind {
        StmtKind::Case(lo, hi, inner) => {
            out.push(CaseLabel::Case(lo, hi.as_deref()));
            collect_cases(inner, out);
        }
        StmtKind::Default(inner) => {
            out.push(CaseLabel::Default);
            collect_cases(inner, out);
        }
        StmtKind::Labeled(_, inner)
        | StmtKind::While(_, inner)
        | StmtKind::DoWhile(inner, _)
        | StmtKind::For(_, _, _, inner) => collect_cases(inner, out),
        StmtKind::If(_, t, e) => {
            collect_cases(t, out);
            if let Some(e) = e {
                collect_cases(e, out);
            }
        }
        StmtKind::Compound(b) => {
            for item in &b.items {
                if let BlockItem::Stmt(s) = item {
                    collect_cases(s, out);
                }
            }
        }
        _ => {}
    }
}

/// A device function that only traps: the stand-in for one that was refused (its error is
/// reported), so the module stays well-formed.
fn trap_stub(name: String) -> Function {
    let mut f = Function::new(name, FuncKind::Device, Default::default());
    let mut b = FunctionBuilder::new(&mut f);
    let e = b.create_entry_block();
    b.switch_to_block(e);
    b.ins().trap();
    f
}
