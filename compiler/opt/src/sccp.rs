//! sccp: sparse conditional constant propagation (Wegman-Zadeck) over integer values.
//!
//! Each value holds a lattice element: unknown (no executable definition reached yet), one
//! integer constant, or varying. Blocks start unreachable except the entry, whose parameters
//! vary. Evaluating an executable block's instructions with the shared scalar semantics
//! (`ompcc_ir::semantics`) and following only the branch edges whose conditions may hold, a
//! block parameter is the meet of the arguments on its executable incoming edges. So a value
//! that is constant on every path that can actually run is found even through loops and
//! branches that plain folding cannot see through (a flag set on both arms, a loop that never
//! changes a variable).
//!
//! Afterwards constant instruction results become `iconst` in place, constant block
//! parameters are replaced by an `iconst` at the top of their block, and branches on a
//! constant become jumps (simplifycfg then drops what became unreachable). Floats, pointers,
//! loads and calls are varying; an operation that would trap (division by zero) is varying.

use crate::remarks::{Remarks, plural};
use cranelift_entity::SecondaryMap;
use ompcc_ir::analysis::DefUse;
use ompcc_ir::semantics::{icmp, int_binary, int_unary};
use ompcc_ir::{Block, FuncCursor, Function, Inst, InstData, Opcode, Value};
use rustc_hash::FxHashSet;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Lat {
    #[default]
    Unknown,
    Const(i64),
    Varying,
}

fn meet(a: Lat, b: Lat) -> Lat {
    match (a, b) {
        (Lat::Unknown, x) | (x, Lat::Unknown) => x,
        (Lat::Const(x), Lat::Const(y)) if x == y => a,
        _ => Lat::Varying,
    }
}

struct Solver {
    lat: SecondaryMap<Value, Lat>,
    exec_blocks: FxHashSet<Block>,
    exec_edges: FxHashSet<(Block, Block)>,
    block_work: Vec<Block>,
    value_work: Vec<Value>,
}

impl Solver {
    fn raise(&mut self, v: Value, new: Lat) {
        let m = meet(self.lat[v], new);
        if m != self.lat[v] {
            self.lat[v] = m;
            self.value_work.push(v);
        }
    }

    fn edge(&mut self, func: &Function, from: Block, to: Block, args: &[Value]) {
        let params = func.dfg.block_params(to).to_vec();
        for (p, &a) in params.into_iter().zip(args) {
            let l = self.lat[a];
            self.raise(p, l);
        }
        if self.exec_edges.insert((from, to)) && self.exec_blocks.insert(to) {
            self.block_work.push(to);
        }
    }

    fn value_of(&self, func: &Function, inst: Inst) -> Lat {
        let data = func.dfg.inst(inst);
        let Some(res) = func.dfg.first_result(inst) else {
            return Lat::Varying;
        };
        let ty = func.dfg.value_type(res);
        if !ty.is_int() {
            return Lat::Varying;
        }
        let l = |v: Value| self.lat[v];
        let both = |a: Value, b: Value, f: &dyn Fn(i64, i64) -> Option<i64>| match (l(a), l(b)) {
            (Lat::Const(x), Lat::Const(y)) => f(x, y).map_or(Lat::Varying, Lat::Const),
            (Lat::Varying, _) | (_, Lat::Varying) => Lat::Varying,
            _ => Lat::Unknown,
        };
        match data {
            InstData::UnaryImm { imm, .. } => Lat::Const(*imm),
            InstData::Binary { opcode, args, .. } if func.dfg.value_type(args[0]).is_int() => {
                let op = *opcode;
                both(args[0], args[1], &|x, y| int_binary(op, ty, x, y))
            }
            InstData::Unary { opcode, arg } if func.dfg.value_type(*arg).is_int() => {
                let from = func.dfg.value_type(*arg);
                match l(*arg) {
                    Lat::Const(x) => {
                        int_unary(*opcode, from, ty, x).map_or(Lat::Varying, Lat::Const)
                    }
                    other => other,
                }
            }
            InstData::IntCompare { cond, args } => {
                let t = func.dfg.value_type(args[0]);
                if !t.is_int() {
                    return Lat::Varying;
                }
                let cc = *cond;
                both(args[0], args[1], &|x, y| Some(icmp(cc, t, x, y) as i64))
            }
            InstData::Ternary {
                opcode: Opcode::Select,
                args,
            } => match l(args[0]) {
                Lat::Const(c) => l(if c != 0 { args[1] } else { args[2] }),
                Lat::Unknown => Lat::Unknown,
                Lat::Varying => meet(l(args[1]), l(args[2])),
            },
            _ => Lat::Varying,
        }
    }

    fn visit(&mut self, func: &Function, inst: Inst) {
        let Some(block) = func.layout.inst_block(inst) else {
            return;
        };
        if !self.exec_blocks.contains(&block) {
            return;
        }
        match func.dfg.inst(inst) {
            InstData::Jump { dest } => {
                let args = func.dfg.block_call_args(dest).to_vec();
                self.edge(func, block, dest.block, &args);
            }
            InstData::Brif { arg, blocks } => {
                let take: &[usize] = match self.lat[*arg] {
                    Lat::Unknown => &[],
                    Lat::Const(c) if c != 0 => &[0],
                    Lat::Const(_) => &[1],
                    Lat::Varying => &[0, 1],
                };
                for &i in take {
                    let args = func.dfg.block_call_args(&blocks[i]).to_vec();
                    self.edge(func, block, blocks[i].block, &args);
                }
            }
            InstData::BrTable { arg, .. } => {
                let calls = func.dfg.branch_destinations(inst).to_vec();
                let chosen: Vec<usize> = match self.lat[*arg] {
                    Lat::Unknown => Vec::new(),
                    Lat::Const(c) => {
                        let i = (c as u64 & ompcc_ir::semantics::mask(func.dfg.value_type(*arg)))
                            .saturating_add(1);
                        vec![if (i as usize) < calls.len() {
                            i as usize
                        } else {
                            0
                        }]
                    }
                    Lat::Varying => (0..calls.len()).collect(),
                };
                for i in chosen {
                    let args = func.dfg.block_call_args(&calls[i]).to_vec();
                    self.edge(func, block, calls[i].block, &args);
                }
            }
            _ => {
                let new = self.value_of(func, inst);
                let results = func.dfg.inst_results(inst).to_vec();
                for r in results {
                    self.raise(r, new);
                }
            }
        }
    }
}

/// Runs SCCP; returns whether anything changed.
pub fn sccp(func: &mut Function) -> bool {
    sccp_with_remarks(func, &mut Remarks::default())
}

/// `sccp`, reporting how many values and branches became constant.
pub fn sccp_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let Some(entry) = func.layout.entry_block() else {
        return false;
    };
    let du = DefUse::compute(func);
    let mut s = Solver {
        lat: SecondaryMap::new(),
        exec_blocks: FxHashSet::default(),
        exec_edges: FxHashSet::default(),
        block_work: vec![entry],
        value_work: Vec::new(),
    };
    s.exec_blocks.insert(entry);
    for &p in func.dfg.block_params(entry) {
        s.lat[p] = Lat::Varying;
    }
    while !s.block_work.is_empty() || !s.value_work.is_empty() {
        while let Some(b) = s.block_work.pop() {
            let insts: Vec<Inst> = func.layout.block_insts(b).collect();
            for i in insts {
                s.visit(func, i);
            }
        }
        while let Some(v) = s.value_work.pop() {
            for &u in du.users(v) {
                s.visit(func, u);
            }
        }
    }
    // Rewrite.
    let mut values = 0;
    let mut branches = 0;
    let blocks: Vec<Block> = func.layout.blocks().collect();
    for b in blocks {
        if !s.exec_blocks.contains(&b) {
            continue;
        }
        let params = func.dfg.block_params(b).to_vec();
        for p in params {
            if let Lat::Const(c) = s.lat[p] {
                let ty = func.dfg.value_type(p);
                let Some(first) = func.layout.first_inst(b) else {
                    continue;
                };
                let mut cur = FuncCursor::new(func);
                cur.goto_inst(first);
                let k = cur.ins().iconst(ty, c);
                func.replace_all_uses(p, k);
                values += 1;
            }
        }
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            let data = func.dfg.inst(inst).clone();
            match data {
                InstData::UnaryImm { .. } => {}
                InstData::Brif { arg, blocks } => {
                    if let Lat::Const(c) = s.lat[arg] {
                        let dest = blocks[if c != 0 { 0 } else { 1 }].clone();
                        *func.dfg.inst_mut(inst) = InstData::Jump { dest };
                        branches += 1;
                    }
                }
                _ if data.opcode().has_side_effects() => {}
                _ => {
                    let [r] = func.dfg.inst_results(inst) else {
                        continue;
                    };
                    let Lat::Const(c) = s.lat[*r] else { continue };
                    *func.dfg.inst_mut(inst) = InstData::UnaryImm {
                        opcode: Opcode::Iconst,
                        imm: c,
                    };
                    values += 1;
                }
            }
        }
    }
    if values + branches > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "found {} and {} constant",
                plural(values, "value", "values"),
                plural(branches, "branch", "branches")
            ),
        );
    }
    values + branches > 0
}
