//! inline: replaces calls to small device functions by a copy of their body.
//!
//! A module pass. Callers are visited bottom-up over the call graph's strongly connected
//! components (Tarjan), so a callee has had its own calls inlined before it is copied. A call is
//! inlined when the callee is defined in the module, is not `noinline`, is not recursive (its
//! component has more than one function or it calls itself: recursion is never unrolled) and
//! its size (instructions that are not constants) is within the limit: unlimited for
//! `always_inline`, the `inline-threshold` knob for others, twice that for `inlinehint`
//! (`static inline`), four times for an internal function with a single call site (the copy
//! replaces the original). A caller stops growing at `MAX_CALLER_SIZE` instructions, except
//! for `always_inline` callees.
//!
//! The call's block is split after the call; the callee's reachable blocks are copied in
//! between, its entry parameters replaced by the call arguments, its stack slots, callee and
//! global declarations re-declared in the caller, and each `return` becomes a jump to the
//! continuation block, whose parameters replace the call's results. Copied instructions keep
//! the callee's source locations (the call's when they have none) and loop hints.
//! Afterwards internal device functions that were called and no function calls any more are
//! removed, and
//! callers drop declarations of callees they no longer call. Kernels are never inlined (the
//! verifier forbids calling them) and never removed.

use crate::knobs::Knobs;
use crate::remarks::Remarks;
use crate::util::{InstCopy, Remap};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::dfg::{ExtFuncData, GlobalRefData};
use ompcc_ir::{
    FuncKind, FuncRef, Function, InlineAttr, Inst, InstData, Linkage, Module, Opcode, Value,
};
use rustc_hash::FxHashMap;

/// A caller stops taking inlined bodies (other than `always_inline` ones) at this size.
pub const MAX_CALLER_SIZE: usize = 20_000;

/// Instructions that cost something: everything but constants.
fn size(func: &Function) -> usize {
    func.layout
        .all_insts()
        .filter(|&i| !matches!(func.dfg.inst(i).opcode(), Opcode::Iconst | Opcode::Fconst))
        .count()
}

/// The module functions each function calls (indices into `module.functions`).
fn callees(module: &Module, f: &Function) -> Vec<usize> {
    let mut out = Vec::new();
    for inst in f.layout.all_insts() {
        if let InstData::Call { func, .. } = f.dfg.inst(inst)
            && let Some(d) = f.dfg.ext_funcs.get(*func)
            && let Some(i) = module.functions.iter().position(|g| g.name == d.name)
            && !out.contains(&i)
        {
            out.push(i);
        }
    }
    out
}

/// Runs the inliner with the default knobs; returns whether anything changed.
pub fn inline(module: &mut Module) -> bool {
    inline_with_remarks(module, &Knobs::default(), &mut Remarks::default())
}

/// `inline`, reporting each inlined call ("inlined @g into @f") to `remarks`.
pub fn inline_with_remarks(module: &mut Module, knobs: &Knobs, remarks: &mut Remarks) -> bool {
    let graph: Vec<Vec<usize>> = module
        .functions
        .iter()
        .map(|f| callees(module, f))
        .collect();
    let comps = ompcc_graph::sccs(&graph);
    let mut recursive = vec![false; graph.len()];
    for c in &comps {
        for &f in c {
            recursive[f] = c.len() > 1 || graph[f].contains(&f);
        }
    }
    // Call sites per function, to spot internal functions called once.
    let mut call_sites: FxHashMap<String, usize> = FxHashMap::default();
    for f in &module.functions {
        for inst in f.layout.all_insts() {
            if let InstData::Call { func, .. } = f.dfg.inst(inst)
                && let Some(d) = f.dfg.ext_funcs.get(*func)
            {
                *call_sites.entry(d.name.clone()).or_default() += 1;
            }
        }
    }
    let mut changed = false;
    for comp in &comps {
        for &caller in comp {
            changed |= inline_into(module, caller, &recursive, &call_sites, knobs, remarks);
        }
    }
    if changed {
        for f in &mut module.functions {
            drop_unused_decls(f);
        }
        remove_dead_internal(module, &call_sites, remarks);
    }
    changed
}

/// Inlines every eligible call of `module.functions[caller]`.
fn inline_into(
    module: &mut Module,
    caller: usize,
    recursive: &[bool],
    call_sites: &FxHashMap<String, usize>,
    knobs: &Knobs,
    remarks: &mut Remarks,
) -> bool {
    let mut changed = false;
    // Callee bodies are copied out once per callee (the caller is mutated meanwhile).
    let mut bodies: FxHashMap<usize, Function> = FxHashMap::default();
    let mut caller_size = size(&module.functions[caller]);
    loop {
        let f = &module.functions[caller];
        let mut next: Option<(Inst, usize)> = None;
        for inst in f.layout.all_insts() {
            let Some(ci) = module_callee(module, f, inst) else {
                continue;
            };
            if verdict(
                module,
                caller,
                ci,
                caller_size,
                recursive,
                call_sites,
                knobs,
            ) == Verdict::Inline
            {
                bodies
                    .entry(ci)
                    .or_insert_with(|| module.functions[ci].clone());
                next = Some((inst, ci));
                break;
            }
        }
        let Some((call, ci)) = next else {
            missed_remarks(
                module,
                caller,
                caller_size,
                recursive,
                call_sites,
                knobs,
                remarks,
            );
            return changed;
        };
        let Some(g) = bodies.get(&ci) else {
            return changed;
        };
        let callee_name = g.name.clone();
        caller_size += size(g);
        let f = &mut module.functions[caller];
        let loc = f.srcloc(call);
        inline_call(f, call, g);
        remarks.begin("inline", &f.name.clone());
        if remarks.wants() {
            remarks.emit(loc, format!("inlined @{callee_name} into @{}", f.name));
        }
        changed = true;
    }
}

/// The index of the module function `inst` calls, when it is a call of one.
fn module_callee(module: &Module, f: &Function, inst: Inst) -> Option<usize> {
    let InstData::Call { func, .. } = f.dfg.inst(inst) else {
        return None;
    };
    let d = f.dfg.ext_funcs.get(*func)?;
    module.functions.iter().position(|g| g.name == d.name)
}

/// Whether a call of `module.functions[ci]` in `caller` is inlined, and why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Inline,
    /// The callee calls itself, directly or through others.
    Recursive,
    /// `noinline`, or a kernel.
    Forbidden,
    /// Its size is over its limit.
    TooCostly {
        cost: usize,
        limit: usize,
    },
    /// The caller has reached `MAX_CALLER_SIZE`.
    CallerTooBig {
        size: usize,
    },
}

fn verdict(
    module: &Module,
    caller: usize,
    ci: usize,
    caller_size: usize,
    recursive: &[bool],
    call_sites: &FxHashMap<String, usize>,
    knobs: &Knobs,
) -> Verdict {
    if ci == caller || recursive[ci] {
        return Verdict::Recursive;
    }
    let g = &module.functions[ci];
    if g.kind != FuncKind::Device || g.attrs.inline == InlineAttr::Never {
        return Verdict::Forbidden;
    }
    let gsize = size(g);
    let t = knobs.inline_threshold as usize;
    let single =
        module.linkage_of(&g.name) == Linkage::Internal && call_sites.get(&g.name) == Some(&1);
    let limit = match g.attrs.inline {
        InlineAttr::Always => usize::MAX,
        _ if single => 4 * t,
        InlineAttr::Hint => 2 * t,
        _ => t,
    };
    let always = g.attrs.inline == InlineAttr::Always;
    if gsize > limit {
        Verdict::TooCostly { cost: gsize, limit }
    } else if !always && caller_size + gsize > MAX_CALLER_SIZE {
        Verdict::CallerTooBig { size: caller_size }
    } else {
        Verdict::Inline
    }
}

/// `-Rpass-missed=inline`: one remark per call of a module function left in `caller`, saying
/// why it stayed a call.
fn missed_remarks(
    module: &Module,
    caller: usize,
    caller_size: usize,
    recursive: &[bool],
    call_sites: &FxHashMap<String, usize>,
    knobs: &Knobs,
    remarks: &mut Remarks,
) {
    let f = &module.functions[caller];
    remarks.begin("inline", &f.name);
    if !remarks.wants_missed() {
        return;
    }
    for inst in f.layout.all_insts() {
        let Some(ci) = module_callee(module, f, inst) else {
            continue;
        };
        let g = &module.functions[ci];
        let why = match verdict(
            module,
            caller,
            ci,
            caller_size,
            recursive,
            call_sites,
            knobs,
        ) {
            Verdict::Inline => continue,
            Verdict::Recursive => "recursive".to_string(),
            Verdict::Forbidden if g.kind != FuncKind::Device => "a kernel".to_string(),
            Verdict::Forbidden => "marked noinline".to_string(),
            Verdict::TooCostly { cost, limit } => {
                format!("cost {cost} exceeds threshold {limit}")
            }
            Verdict::CallerTooBig { size } => {
                format!("the caller has {size} instructions (limit {MAX_CALLER_SIZE})")
            }
        };
        remarks.emit_missed(
            f.srcloc(inst),
            format!("'{}' not inlined into '{}': {why}", g.name, f.name),
        );
    }
}

/// Replaces `call` in `f` by a copy of `g`'s body.
fn inline_call(f: &mut Function, call: Inst, g: &Function) {
    let Some(block) = f.layout.inst_block(call) else {
        return;
    };
    let call_loc = f.srcloc(call);
    let args: Vec<Value> = f.dfg.inst_args(call).to_vec();
    let results: Vec<Value> = f.dfg.inst_results(call).to_vec();
    // The continuation: everything after the call, with the call's results as parameters.
    let cont = f.dfg.make_block();
    f.layout.insert_block_after(cont, block);
    if let Some(after) = f.layout.next_inst(call) {
        f.layout.split_off_to(after, cont);
    }
    f.layout.remove_inst(call);
    for r in results {
        let ty = f.dfg.value_type(r);
        let p = f.dfg.append_block_param(cont, ty);
        f.replace_all_uses(r, p);
    }
    // Declarations.
    let mut map = Remap::default();
    for (ss, d) in g.stack_slots.iter() {
        map.slots.insert(ss, f.create_stack_slot(d.size, d.align));
    }
    for (r, d) in g.dfg.ext_funcs.iter() {
        let mine = match f.dfg.ext_funcs.iter().find(|(_, e)| e.name == d.name) {
            Some((m, _)) => m,
            None => f.dfg.ext_funcs.push(ExtFuncData {
                name: d.name.clone(),
                sig: d.sig.clone(),
            }),
        };
        map.funcs.insert(r, mine);
    }
    for (sr, sig) in g.dfg.signatures.iter() {
        let mine = match f.dfg.signatures.iter().find(|(_, s)| *s == sig) {
            Some((m, _)) => m,
            None => f.dfg.signatures.push(sig.clone()),
        };
        map.sigs.insert(sr, mine);
    }
    for (gv, d) in g.dfg.globals.iter() {
        let mine = match f.dfg.globals.iter().find(|(_, e)| e.name == d.name) {
            Some((m, _)) => m,
            None => f.dfg.globals.push(GlobalRefData {
                name: d.name.clone(),
                space: d.space,
            }),
        };
        map.globals.insert(gv, mine);
    }
    // Blocks: reachable ones only, in the callee's layout order, between `block` and `cont`.
    let cfg = ControlFlowGraph::compute(g);
    let dt = DominatorTree::compute(g, &cfg);
    let Some(entry) = g.layout.entry_block() else {
        return;
    };
    for gb in g.layout.blocks().filter(|&b| dt.is_reachable(b)) {
        let nb = f.dfg.make_block();
        f.layout.insert_block_before(nb, cont);
        map.blocks.insert(gb, nb);
        f.loop_hints[nb] = g.loop_hints[gb];
        if gb == entry {
            for (&p, &a) in g.dfg.block_params(gb).iter().zip(&args) {
                map.values.insert(p, a);
            }
        } else {
            for &p in g.dfg.block_params(gb) {
                let np = f.dfg.append_block_param(nb, g.dfg.value_type(p));
                map.values.insert(p, np);
            }
        }
    }
    // Instructions in reverse postorder: every operand is copied before its uses.
    for &gb in dt.rpo() {
        let nb = map.block(gb);
        for gi in g.layout.block_insts(gb) {
            let copy = InstCopy::read(g, gi);
            let inst = if copy.opcode() == Opcode::Return {
                let vals: Vec<Value> = copy.return_args().iter().map(|&v| map.value(v)).collect();
                let dest = f.dfg.block_call(cont, &vals);
                f.dfg.make_inst(InstData::Jump { dest })
            } else {
                copy.write(f, &mut map)
            };
            f.layout.append_inst(inst, nb);
            let loc = g.srcloc(gi);
            f.set_srcloc(inst, if loc.is_unknown() { call_loc } else { loc });
        }
    }
    let start = map.block(entry);
    let jump = {
        let dest = f.dfg.block_call(start, &[]);
        f.dfg.make_inst(InstData::Jump { dest })
    };
    f.layout.append_inst(jump, block);
    f.set_srcloc(jump, call_loc);
}

/// Renumbers the callee declarations of `f` to those still called.
fn drop_unused_decls(f: &mut Function) {
    let mut used = vec![false; f.dfg.ext_funcs.len()];
    let insts: Vec<Inst> = f.layout.all_insts().collect();
    for &inst in &insts {
        if let InstData::Call { func, .. } | InstData::FuncAddr { func } = f.dfg.inst(inst)
            && let Some(u) = used.get_mut(func.as_u32() as usize)
        {
            *u = true;
        }
    }
    if used.iter().all(|&u| u) {
        return;
    }
    let old = std::mem::take(&mut f.dfg.ext_funcs);
    let mut renum: FxHashMap<FuncRef, FuncRef> = FxHashMap::default();
    for (r, d) in old.into_iter() {
        if used[r.as_u32() as usize] {
            renum.insert(r, f.dfg.ext_funcs.push(d));
        }
    }
    for inst in insts {
        if let InstData::Call { func, .. } | InstData::FuncAddr { func } = f.dfg.inst_mut(inst)
            && let Some(&n) = renum.get(func)
        {
            *func = n;
        }
    }
}

/// Removes internal device functions that were called before inlining and that nothing
/// declares any more.
fn remove_dead_internal(
    module: &mut Module,
    had_calls: &FxHashMap<String, usize>,
    remarks: &mut Remarks,
) {
    loop {
        let declared = |name: &str, m: &Module| {
            m.functions
                .iter()
                .any(|f| f.name != name && f.dfg.ext_funcs.values().any(|d| d.name == name))
        };
        let dead = module.functions.iter().position(|f| {
            f.kind == FuncKind::Device
                && module.linkage_of(&f.name) == Linkage::Internal
                && had_calls.contains_key(&f.name)
                && !declared(&f.name, module)
        });
        let Some(i) = dead else { return };
        let f = module.functions.remove(i);
        module.set_linkage(&f.name, Linkage::Export);
        remarks.begin("inline", &f.name);
        remarks.emit(
            Default::default(),
            format!("removed @{}: every call was inlined", f.name),
        );
    }
}
