//! licm: loop-invariant code motion.
//!
//! First gives every natural loop a preheader (a new block that takes over all edges entering
//! the header from outside the loop and jumps to the header with the same arguments). Then,
//! innermost loops first, moves to the end of the preheader (before its jump) every
//! instruction of the loop body that is pure, cannot trap and whose operands are all defined
//! outside the loop — including by instructions hoisted just before. Such instructions are
//! safe to execute speculatively, so it does not matter whether their block ran on every
//! iteration. A non-volatile load with an invariant address is hoisted too when the loop has
//! no call, atomic, barrier or fence, no store in the loop may alias it
//! (`ompcc_ir::analysis::alias`), and its block dominates every latch and every block leaving
//! the loop (it runs on every iteration, the first included, so hoisting never executes a
//! load the program would not have). `-Rpass-missed=licm` names, for each load with an
//! invariant address left in a loop, what kept it there (the aliasing store's line, the
//! call, volatility, or a block that not every iteration runs).

use crate::remarks::{Remarks, plural};
use ompcc_ir::Opcode;
use ompcc_ir::analysis::{
    Access, AliasAnalysis, AliasResult, ControlFlowGraph, DominatorTree, Loop, LoopAnalysis,
};
use ompcc_ir::{Block, FuncCursor, Function, Inst, InstData, Value};
use rustc_hash::FxHashSet;

fn hoistable(func: &Function, inst: Inst) -> bool {
    let data = func.dfg.inst(inst);
    let op = data.opcode();
    if op.has_side_effects() || op.reads_memory() || op.can_trap() {
        return false;
    }
    match data {
        InstData::Nullary { .. } => false,
        InstData::Special { reg } => !reg.is_volatile(),
        _ => func.dfg.inst_results(inst).len() == 1,
    }
}

/// The loop's memory writes (each with its store), or `Err` with the first instruction in it
/// that may write anything.
pub(crate) type Stores = Result<Vec<(Inst, Access)>, Inst>;

pub(crate) fn loop_stores(func: &Function, l: &Loop) -> Stores {
    let mut out = Vec::new();
    for &b in &l.blocks {
        for inst in func.layout.block_insts(b) {
            match func.dfg.inst(inst).opcode() {
                Opcode::Call
                | Opcode::AtomicRmw
                | Opcode::AtomicCas
                | Opcode::Barrier
                | Opcode::WarpSync
                | Opcode::Fence => return Err(inst),
                Opcode::Store => {
                    out.extend(AliasAnalysis::access_of(func, inst).map(|a| (inst, a)))
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// Blocks of `l` that leave it: branches out, returns, traps.
pub(crate) fn leaving_blocks(func: &Function, cfg: &ControlFlowGraph, l: &Loop) -> Vec<Block> {
    l.blocks
        .iter()
        .copied()
        .filter(|&b| {
            cfg.succs(b).iter().any(|s| !l.blocks.contains(s))
                || func
                    .layout
                    .last_inst(b)
                    .is_some_and(|t| !func.dfg.inst(t).opcode().is_branch())
        })
        .collect()
}

/// Whether load `inst` of block `b` may move to the preheader of `l`.
fn hoistable_load(
    func: &Function,
    aa: &AliasAnalysis,
    dt: &DominatorTree,
    l: &Loop,
    (stores, leaving): (&Stores, &[Block]),
    b: Block,
    inst: Inst,
) -> bool {
    matches!(
        load_blocker(func, aa, dt, l, (stores, leaving), b, inst),
        Some(Blocker::None)
    )
}

/// What keeps a load in its loop (`None` when `inst` is no load or has no known address).
enum Blocker {
    /// Nothing: it may be hoisted (when its address is invariant).
    None,
    Volatile,
    /// A call, atomic, barrier or fence in the loop.
    Clobber(Inst),
    /// A store in the loop that may write what it reads.
    Store(Inst),
    /// It does not run on every iteration.
    Conditional,
}

fn load_blocker(
    func: &Function,
    aa: &AliasAnalysis,
    dt: &DominatorTree,
    l: &Loop,
    (stores, leaving): (&Stores, &[Block]),
    b: Block,
    inst: Inst,
) -> Option<Blocker> {
    let InstData::Load { flags, .. } = func.dfg.inst(inst) else {
        return None;
    };
    let access = AliasAnalysis::access_of(func, inst)?;
    Some(if flags.volatile {
        Blocker::Volatile
    } else if let Err(clobber) = stores {
        Blocker::Clobber(*clobber)
    } else if !l.latches.iter().chain(leaving).all(|&x| dt.dominates(b, x)) {
        Blocker::Conditional
    } else if let Some((st, _)) = stores.as_ref().ok().and_then(|s| {
        s.iter()
            .find(|(_, a)| aa.alias(func, a, &access) != AliasResult::NoAlias)
    }) {
        Blocker::Store(*st)
    } else {
        Blocker::None
    })
}

/// "at line L" for an instruction with a known location, else its name.
fn where_is(func: &Function, inst: Inst) -> String {
    let loc = func.srcloc(inst);
    if loc.is_unknown() {
        format!("{inst}")
    } else {
        format!("at line {}", loc.line)
    }
}

/// `-Rpass-missed=licm`: the loads of `l` with an invariant address that stay in the loop,
/// each with what keeps it there.
fn missed_loads(
    func: &Function,
    aa: &AliasAnalysis,
    dt: &DominatorTree,
    l: &Loop,
    ctx: (&Stores, &[Block]),
    remarks: &mut Remarks,
) {
    let body: FxHashSet<Block> = l.blocks.iter().copied().collect();
    for &b in &l.blocks {
        for inst in func.layout.block_insts(b) {
            let invariant = func.dfg.inst_args(inst).iter().all(|&a| {
                let def_block = match func.dfg.value_def(a) {
                    ompcc_ir::ValueDef::Result(i, _) => func.layout.inst_block(i),
                    ompcc_ir::ValueDef::Param(pb, _) => Some(pb),
                    ompcc_ir::ValueDef::Placeholder => None,
                };
                def_block.is_some_and(|db| !body.contains(&db))
            });
            if !invariant {
                continue;
            }
            let why = match load_blocker(func, aa, dt, l, ctx, b, inst) {
                None | Some(Blocker::None) => continue,
                Some(Blocker::Volatile) => "it is volatile".to_string(),
                Some(Blocker::Clobber(c)) => format!(
                    "the loop has a {} {}",
                    func.dfg.inst(c).opcode().name(),
                    where_is(func, c)
                ),
                Some(Blocker::Store(st)) => format!("may alias the store {}", where_is(func, st)),
                Some(Blocker::Conditional) => "it does not run on every iteration".to_string(),
            };
            // No block name: licm runs several times and the same load must read the same.
            remarks.emit_missed(func.srcloc(inst), format!("load not hoisted: {why}"));
        }
    }
}

/// Creates a preheader for the loop headed by `header` whose outside predecessors are
/// `outside` (branch instructions). Returns the new block.
pub(crate) fn make_preheader(func: &mut Function, header: Block, outside: &[Inst]) -> Block {
    let pre = func.dfg.make_block();
    func.layout.insert_block_before(pre, header);
    let tys: Vec<_> = func
        .dfg
        .block_params(header)
        .iter()
        .map(|&p| func.dfg.value_type(p))
        .collect();
    let params: Vec<Value> = tys
        .into_iter()
        .map(|t| func.dfg.append_block_param(pre, t))
        .collect();
    for &br in outside {
        for call in func.dfg.branch_destinations_mut(br) {
            if call.block == header {
                call.block = pre;
            }
        }
    }
    let mut cur = FuncCursor::new(func);
    cur.goto_bottom(pre);
    cur.ins().jump(header, &params);
    pre
}

/// Runs LICM; returns whether anything changed.
pub fn licm(func: &mut Function) -> bool {
    licm_with_remarks(func, &mut Remarks::default())
}

/// `licm`, reporting the preheaders it adds and the instructions it hoists per loop to `remarks`.
pub fn licm_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let mut changed = false;
    // Preheaders first; they change the CFG, so the analyses are recomputed afterwards.
    {
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(func, &cfg);
        let la = LoopAnalysis::compute(&cfg, &dt);
        for l in la.loops() {
            if l.preheader.is_some() {
                continue;
            }
            let body: FxHashSet<Block> = l.blocks.iter().copied().collect();
            let outside: Vec<Inst> = cfg
                .preds(l.header)
                .iter()
                .filter(|(p, _)| !body.contains(p))
                .map(|&(_, br)| br)
                .collect();
            if !outside.is_empty() {
                make_preheader(func, l.header, &outside);
                changed = true;
                remarks.emit(
                    Default::default(),
                    format!("added a preheader to the loop at {}", l.header),
                );
            }
        }
    }
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let la = LoopAnalysis::compute(&cfg, &dt);
    // Moving instructions keeps which stack slots escape, so one analysis serves all loops.
    let aa = AliasAnalysis::compute(func);
    for l in la.loops().iter().rev() {
        let Some(pre) = l.preheader else { continue };
        let stores = loop_stores(func, l);
        let leaving = leaving_blocks(func, &cfg, l);
        let Some(pre_term) = func.layout.last_inst(pre) else {
            continue;
        };
        let body: FxHashSet<Block> = l.blocks.iter().copied().collect();
        let mut hoisted = 0;
        for &b in &l.blocks {
            let insts: Vec<Inst> = func.layout.block_insts(b).collect();
            for inst in insts {
                if !hoistable(func, inst)
                    && !hoistable_load(func, &aa, &dt, l, (&stores, &leaving), b, inst)
                {
                    continue;
                }
                let invariant = func.dfg.inst_args(inst).iter().all(|&a| {
                    let def_block = match func.dfg.value_def(a) {
                        ompcc_ir::ValueDef::Result(i, _) => func.layout.inst_block(i),
                        ompcc_ir::ValueDef::Param(pb, _) => Some(pb),
                        ompcc_ir::ValueDef::Placeholder => None,
                    };
                    def_block.is_some_and(|db| !body.contains(&db))
                });
                if invariant {
                    func.layout.remove_inst(inst);
                    func.layout.insert_inst_before(inst, pre_term);
                    changed = true;
                    hoisted += 1;
                }
            }
        }
        if remarks.wants_missed() {
            missed_loads(func, &aa, &dt, l, (&stores, &leaving), remarks);
        }
        if hoisted > 0 {
            remarks.emit(
                Default::default(),
                format!(
                    "hoisted {} out of the loop at {}",
                    plural(hoisted, "invariant instruction", "invariant instructions"),
                    l.header
                ),
            );
        }
    }
    changed
}
