//! spaces: memory-space inference for generic pointers.
//!
//! A generic pointer that provably points into one specific space (it is an `addrspacecast`
//! of a `ptr(S)`, a `ptr_offset` or `select` of such pointers, or a block parameter that only
//! ever receives them) is rebuilt in that space, and the generic loads, stores and atomics
//! through it then name the space directly (PTX `ld.global` instead of a generic `ld`).
//!
//! A kernel's (`FuncKind::Kernel`) pointer parameters are global: by the CUDA convention every
//! pointer a kernel receives points into global memory (nvcc emits `cvta.to.global` for them,
//! LLVM's NVPTX backend assumes it for CUDA and OpenMP kernels), and in OpenMP offloading they
//! are the device addresses of mapped data or `omp_target_alloc` memory. The global pointer is
//! an `addrspacecast` at the top of the entry block (`cvta.to.global`, which is the identity on
//! NVIDIA GPUs and never traps, so null or unused parameters stay harmless).
//!
//! Inference is optimistic: every generic pointer starts "unknown" and is lowered to a space
//! or to "generic" (anything else: device-function parameters, loads, calls, `inttoptr`) until
//! nothing changes. The rebuilt pointers are new instructions placed right after the generic
//! ones (and new block parameters next to the old ones), so they dominate the same uses; the
//! generic originals die unless something else uses them (DCE). Stores into `const` and atomics
//! outside `global`/`shared` are left alone.

use crate::remarks::Remarks;
use ompcc_ir::analysis::ControlFlowGraph;
use ompcc_ir::{
    AddrSpace, Block, FuncCursor, FuncKind, Function, Inst, InstData, Opcode, Type, Value, ValueDef,
};
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lat {
    Unknown,
    Space(AddrSpace),
    Generic,
}

fn meet(a: Lat, b: Lat) -> Lat {
    match (a, b) {
        (Lat::Unknown, x) | (x, Lat::Unknown) => x,
        (Lat::Space(s), Lat::Space(t)) if s == t => a,
        _ => Lat::Generic,
    }
}

struct Infer<'a> {
    func: &'a mut Function,
    lat: FxHashMap<Value, Lat>,
    /// Incoming arguments of each block parameter.
    incoming: FxHashMap<Value, Vec<Value>>,
    /// Branches into each block.
    preds: FxHashMap<Block, Vec<Inst>>,
    rebuilt: FxHashMap<Value, Value>,
}

impl Infer<'_> {
    fn is_generic_ptr(&self, v: Value) -> bool {
        self.func.dfg.value_type(v) == Type::PTR
    }

    /// The lattice value of `v` computed from its definition and the current facts.
    fn eval(&self, v: Value) -> Lat {
        let get = |x: Value| -> Lat {
            match self.func.dfg.value_type(x) {
                Type::Ptr(AddrSpace::Generic) => self.lat.get(&x).copied().unwrap_or(Lat::Unknown),
                Type::Ptr(s) => Lat::Space(s),
                _ => Lat::Generic,
            }
        };
        match self.func.dfg.value_def(v) {
            ValueDef::Result(inst, 0) => match self.func.dfg.inst(inst) {
                InstData::Unary {
                    opcode: Opcode::Addrspacecast,
                    arg,
                } => get(*arg),
                InstData::Binary {
                    opcode: Opcode::PtrOffset,
                    args,
                    ..
                } => get(args[0]),
                InstData::Ternary {
                    opcode: Opcode::Select,
                    args,
                } => meet(get(args[1]), get(args[2])),
                _ => Lat::Generic,
            },
            ValueDef::Param(b, _) if Some(b) != self.func.layout.entry_block() => {
                let ins = self.incoming.get(&v).map_or(&[][..], |v| v.as_slice());
                if ins.is_empty() {
                    return Lat::Generic;
                }
                ins.iter().fold(Lat::Unknown, |acc, &a| meet(acc, get(a)))
            }
            ValueDef::Param(_, _) if self.func.kind == FuncKind::Kernel => {
                Lat::Space(AddrSpace::Global)
            }
            _ => Lat::Generic,
        }
    }

    /// A `ptr(space)` value equal to generic pointer `v` (whose lattice value is that space).
    fn rebuild(&mut self, v: Value, space: AddrSpace) -> Value {
        if self.func.dfg.value_type(v) == Type::Ptr(space) {
            return v;
        }
        if let Some(&r) = self.rebuilt.get(&v) {
            return r;
        }
        let ty = Type::Ptr(space);
        match self.func.dfg.value_def(v) {
            ValueDef::Result(inst, _) => {
                let data = self.func.dfg.inst(inst).clone();
                let after = self.func.layout.next_inst(inst);
                match data {
                    InstData::Unary { arg, .. } => {
                        // An addrspacecast: the source already has the space.
                        self.rebuilt.insert(v, arg);
                        arg
                    }
                    InstData::Binary { args, .. } => {
                        let p = self.rebuild(args[0], space);
                        let r = self.insert_after(inst, after, |c| c.ins().ptr_offset(p, args[1]));
                        self.rebuilt.insert(v, r);
                        r
                    }
                    InstData::Ternary { args, .. } => {
                        let a = self.rebuild(args[1], space);
                        let b = self.rebuild(args[2], space);
                        let r = self.insert_after(inst, after, |c| c.ins().select(args[0], a, b));
                        self.rebuilt.insert(v, r);
                        r
                    }
                    _ => v,
                }
            }
            ValueDef::Param(block, _) if Some(block) == self.func.layout.entry_block() => {
                // A kernel parameter: cast it once, at the top of the entry block.
                let mut cur = FuncCursor::new(self.func);
                match cur.func.layout.first_inst(block) {
                    Some(first) => {
                        cur.goto_inst(first);
                        cur.set_srcloc(Default::default());
                    }
                    None => cur.goto_bottom(block),
                }
                let r = cur.ins().addrspacecast(ty, v);
                self.rebuilt.insert(v, r);
                r
            }
            ValueDef::Param(block, index) => {
                let p = self.func.dfg.append_block_param(block, ty);
                // Record first: a loop passes values derived from this very parameter.
                self.rebuilt.insert(v, p);
                for br in self.preds.get(&block).cloned().unwrap_or_default() {
                    let n = self.func.dfg.branch_destinations(br).len();
                    for c in 0..n {
                        let call = &self.func.dfg.branch_destinations(br)[c];
                        if call.block != block {
                            continue;
                        }
                        let arg = self.func.dfg.block_call_args(call)[index];
                        let a = self.rebuild(arg, space);
                        let (calls, pool) = self.func.dfg.branch_destinations_and_pool(br);
                        calls[c].args.push(a, pool);
                    }
                }
                p
            }
            ValueDef::Placeholder => v,
        }
    }

    fn insert_after(
        &mut self,
        inst: Inst,
        after: Option<Inst>,
        build: impl FnOnce(&mut FuncCursor<'_>) -> Value,
    ) -> Value {
        let mut cur = FuncCursor::new(self.func);
        match after {
            Some(n) => cur.goto_inst(n),
            None => {
                let b = cur.func.layout.inst_block(inst);
                if let Some(b) = b {
                    cur.goto_bottom(b);
                }
            }
        }
        // The new instruction recomputes `inst` in another space: it takes `inst`'s location.
        let loc = cur.func.srcloc(inst);
        cur.set_srcloc(loc);
        build(&mut cur)
    }
}

/// Runs memory-space inference; returns whether any access changed space.
pub fn spaces(func: &mut Function) -> bool {
    spaces_with_remarks(func, &mut Remarks::default())
}

/// `spaces`, reporting each access it moves out of the generic space (at the access) to `remarks`.
pub fn spaces_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let mut incoming: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
    let mut preds: FxHashMap<Block, Vec<Inst>> = FxHashMap::default();
    let mut generic: Vec<Value> = Vec::new();
    let blocks: Vec<Block> = func.layout.blocks().collect();
    for &b in &blocks {
        for &(_, br) in cfg.preds(b) {
            preds.entry(b).or_default().push(br);
            for call in func
                .dfg
                .branch_destinations(br)
                .iter()
                .filter(|c| c.block == b)
            {
                for (&p, &a) in func
                    .dfg
                    .block_params(b)
                    .iter()
                    .zip(func.dfg.block_call_args(call))
                {
                    incoming.entry(p).or_default().push(a);
                }
            }
        }
        generic.extend(func.dfg.block_params(b).iter().copied());
        for inst in func.layout.block_insts(b) {
            generic.extend(func.dfg.inst_results(inst).iter().copied());
        }
    }
    let mut inf = Infer {
        func,
        lat: FxHashMap::default(),
        incoming,
        preds,
        rebuilt: FxHashMap::default(),
    };
    generic.retain(|&v| inf.is_generic_ptr(v));
    // Optimistic fixpoint: values only move down the lattice.
    loop {
        let mut changed = false;
        for &v in &generic {
            let new = meet(
                inf.lat.get(&v).copied().unwrap_or(Lat::Unknown),
                inf.eval(v),
            );
            if inf.lat.get(&v) != Some(&new) {
                inf.lat.insert(v, new);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Rewrite the accesses.
    let mut changed = false;
    for b in blocks {
        for inst in inf.func.layout.block_insts(b).collect::<Vec<_>>() {
            let (space, addr) = match inf.func.dfg.inst(inst) {
                InstData::Load { space, arg, .. } => (*space, *arg),
                InstData::Store { space, args, .. } => (*space, args[1]),
                InstData::AtomicRmw { space, args, .. } => (*space, args[0]),
                InstData::AtomicCas { space, args, .. } => (*space, args[0]),
                _ => continue,
            };
            if space != AddrSpace::Generic || !inf.is_generic_ptr(addr) {
                continue;
            }
            let Some(Lat::Space(s)) = inf.lat.get(&addr).copied() else {
                continue;
            };
            let ok = match inf.func.dfg.inst(inst) {
                InstData::Store { .. } => s.is_writable(),
                InstData::AtomicRmw { .. } | InstData::AtomicCas { .. } => {
                    matches!(s, AddrSpace::Global | AddrSpace::Shared)
                }
                _ => true,
            };
            if !ok {
                continue;
            }
            let p = inf.rebuild(addr, s);
            if remarks.wants() {
                let what = inf.func.dfg.inst(inst).opcode();
                remarks.emit(
                    inf.func.srcloc(inst),
                    format!("generic {what} now accesses {s} memory"),
                );
            }
            match inf.func.dfg.inst_mut(inst) {
                InstData::Load { space, arg, .. } => (*space, *arg) = (s, p),
                InstData::Store { space, args, .. } => (*space, args[1]) = (s, p),
                InstData::AtomicRmw { space, args, .. } => (*space, args[0]) = (s, p),
                InstData::AtomicCas { space, args, .. } => (*space, args[0]) = (s, p),
                _ => {}
            }
            changed = true;
        }
    }
    changed
}
