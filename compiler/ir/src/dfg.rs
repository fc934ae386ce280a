//! The data-flow graph: instructions, values, block parameters and per-function declarations.
//!
//! Invariants: every value is defined exactly once, either as result `n` of one instruction or
//! parameter `n` of one block (`ValueDef`), and `inst_results` / `block_params` list exactly the
//! values whose definition points back at them. Placeholders exist only while the parser builds
//! a function and never survive a successful parse. The order of blocks and instructions is not
//! kept here but in `Layout`.

use crate::entities::{Block, FuncRef, GlobalRef, Inst, JumpTable, SigRef, Value};
use crate::function::Signature;
use crate::instructions::{
    BlockCall, InstData, JumpTableData, Opcode, SpecialReg, ValueList, ValueListPool, VoteMode,
};
use crate::types::{AddrSpace, Type};
use cranelift_entity::{PrimaryMap, SecondaryMap};

/// Where a value is defined.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result number `n` of an instruction.
    Result(Inst, usize),
    /// Parameter number `n` of a block.
    Param(Block, usize),
    /// A number reserved by the parser and not (yet) defined.
    Placeholder,
}

/// A value's type and definition.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// Its type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
}

#[derive(Clone, Debug, Default)]
struct BlockData {
    params: ValueList,
}

/// A function a function calls, as declared in its preamble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtFuncData {
    /// Module-level name.
    pub name: String,
    /// Its signature.
    pub sig: Signature,
}

/// A module global a function refers to, as declared in its preamble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalRefData {
    /// Module-level name.
    pub name: String,
    /// The space the global lives in; `global_addr` returns a pointer into it.
    pub space: AddrSpace,
}

/// Instructions, values and blocks of one function.
#[derive(Clone, Debug, Default)]
pub struct DataFlowGraph {
    insts: PrimaryMap<Inst, InstData>,
    results: SecondaryMap<Inst, ValueList>,
    values: PrimaryMap<Value, ValueData>,
    blocks: PrimaryMap<Block, BlockData>,
    /// Pool of every value list (operands, results, block parameters, block arguments).
    pub value_lists: ValueListPool,
    /// Jump tables of `br_table` instructions.
    pub jump_tables: PrimaryMap<JumpTable, JumpTableData>,
    /// Callees declared by the function.
    pub ext_funcs: PrimaryMap<FuncRef, ExtFuncData>,
    /// Globals declared by the function.
    pub globals: PrimaryMap<GlobalRef, GlobalRefData>,
    /// Signatures of indirect calls declared by the function.
    pub signatures: PrimaryMap<SigRef, Signature>,
}

impl DataFlowGraph {
    /// An empty graph.
    pub fn new() -> DataFlowGraph {
        DataFlowGraph::default()
    }

    // ---- blocks ----

    /// Creates a block with no parameters (not yet in the layout).
    pub fn make_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Number of blocks ever created.
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Whether `block` was created by this graph.
    pub fn block_is_valid(&self, block: Block) -> bool {
        self.blocks.is_valid(block)
    }

    /// Appends a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let n = self.blocks[block].params.len(&self.value_lists);
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::Param(block, n),
        });
        self.blocks[block].params.push(v, &mut self.value_lists);
        v
    }

    /// The parameters of `block`.
    pub fn block_params(&self, block: Block) -> &[Value] {
        self.blocks[block].params.as_slice(&self.value_lists)
    }

    /// Removes parameter `index` of `block`; the caller fixes the branches that pass it.
    pub fn remove_block_param(&mut self, block: Block, index: usize) {
        let params = &mut self.blocks[block].params;
        if index >= params.len(&self.value_lists) {
            return;
        }
        params.remove(index, &mut self.value_lists);
        for (i, &v) in params.as_slice(&self.value_lists).iter().enumerate() {
            self.values[v].def = ValueDef::Param(block, i);
        }
    }

    // ---- values ----

    /// Number of values ever created.
    pub fn num_values(&self) -> usize {
        self.values.len()
    }

    /// Whether `v` was created by this graph.
    pub fn value_is_valid(&self, v: Value) -> bool {
        self.values.is_valid(v)
    }

    /// The type of `v`.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// The definition of `v`.
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v].def
    }

    /// Values in creation order (placeholders included).
    pub fn values(&self) -> impl Iterator<Item = Value> + '_ {
        self.values.keys()
    }

    /// Reserves a value number with no definition (used by the parser).
    pub fn make_placeholder(&mut self) -> Value {
        self.values.push(ValueData {
            ty: Type::I1,
            def: ValueDef::Placeholder,
        })
    }

    /// Makes placeholder `v` the next parameter of `block`.
    pub fn attach_block_param(&mut self, block: Block, v: Value, ty: Type) {
        let n = self.blocks[block].params.push(v, &mut self.value_lists);
        self.values[v] = ValueData {
            ty,
            def: ValueDef::Param(block, n),
        };
    }

    /// Makes placeholder `v` the next result of `inst`.
    pub fn attach_result(&mut self, inst: Inst, v: Value, ty: Type) {
        let n = self.results[inst].push(v, &mut self.value_lists);
        self.values[v] = ValueData {
            ty,
            def: ValueDef::Result(inst, n),
        };
    }

    // ---- instructions ----

    /// Creates an instruction with no results (not yet in the layout).
    pub fn make_inst(&mut self, data: InstData) -> Inst {
        self.insts.push(data)
    }

    /// Number of instructions ever created.
    pub fn num_insts(&self) -> usize {
        self.insts.len()
    }

    /// The opcode and operands of `inst`.
    pub fn inst(&self, inst: Inst) -> &InstData {
        &self.insts[inst]
    }

    /// Mutable access, e.g. to rewrite an instruction in place (its results stay).
    pub fn inst_mut(&mut self, inst: Inst) -> &mut InstData {
        &mut self.insts[inst]
    }

    /// The results of `inst`.
    pub fn inst_results(&self, inst: Inst) -> &[Value] {
        self.results[inst].as_slice(&self.value_lists)
    }

    /// The first result of `inst`.
    pub fn first_result(&self, inst: Inst) -> Option<Value> {
        self.results[inst].first(&self.value_lists)
    }

    /// Creates the results of `inst` from `result_types`.
    pub fn make_inst_results(&mut self, inst: Inst, ctrl: Option<Type>) -> usize {
        let tys = self.result_types(&self.insts[inst], ctrl);
        for ty in &tys {
            let n = self.results[inst].len(&self.value_lists);
            let v = self.values.push(ValueData {
                ty: *ty,
                def: ValueDef::Result(inst, n),
            });
            self.results[inst].push(v, &mut self.value_lists);
        }
        tys.len()
    }

    /// The value operands of `inst`, block arguments excluded.
    pub fn inst_args(&self, inst: Inst) -> &[Value] {
        self.insts[inst].arguments(&self.value_lists)
    }

    /// Branch targets of `inst` with their arguments.
    pub fn branch_destinations(&self, inst: Inst) -> &[BlockCall] {
        self.insts[inst].branch_destinations(&self.jump_tables)
    }

    /// The arguments of a block call.
    pub fn block_call_args(&self, call: &BlockCall) -> &[Value] {
        call.args.as_slice(&self.value_lists)
    }

    /// Makes a block call.
    pub fn block_call(&mut self, block: Block, args: &[Value]) -> BlockCall {
        BlockCall {
            block,
            args: ValueList::from_slice(args, &mut self.value_lists),
        }
    }

    /// Makes a value list.
    pub fn value_list(&mut self, vals: &[Value]) -> ValueList {
        ValueList::from_slice(vals, &mut self.value_lists)
    }

    /// Every value `inst` uses: operands, then block arguments in destination order.
    pub fn inst_uses(&self, inst: Inst) -> Vec<Value> {
        let mut out = self.inst_args(inst).to_vec();
        for call in self.branch_destinations(inst) {
            out.extend_from_slice(self.block_call_args(call));
        }
        out
    }

    /// Rewrites every value `inst` uses (operands and block arguments) through `f`.
    pub fn map_inst_uses(&mut self, inst: Inst, mut f: impl FnMut(Value) -> Value) {
        for a in self.insts[inst].arguments_mut(&mut self.value_lists) {
            *a = f(*a);
        }
        let pool = &mut self.value_lists;
        let calls: &mut [BlockCall] = match &mut self.insts[inst] {
            InstData::Jump { dest } => std::slice::from_mut(dest),
            InstData::Brif { blocks, .. } => blocks,
            InstData::BrTable { table, .. } => match self.jump_tables.get_mut(*table) {
                Some(t) => &mut t.calls,
                None => &mut [],
            },
            _ => &mut [],
        };
        for call in calls {
            for a in call.args.as_mut_slice(pool) {
                *a = f(*a);
            }
        }
    }

    /// Mutable branch targets of `inst` (to retarget or change arguments).
    pub fn branch_destinations_mut(&mut self, inst: Inst) -> &mut [BlockCall] {
        self.branch_destinations_and_pool(inst).0
    }

    /// Mutable branch targets of `inst` together with the pool their argument lists live in,
    /// to edit arguments in place.
    pub fn branch_destinations_and_pool(
        &mut self,
        inst: Inst,
    ) -> (&mut [BlockCall], &mut ValueListPool) {
        let calls: &mut [BlockCall] = match &mut self.insts[inst] {
            InstData::Jump { dest } => std::slice::from_mut(dest),
            InstData::Brif { blocks, .. } => blocks,
            InstData::BrTable { table, .. } => match self.jump_tables.get_mut(*table) {
                Some(t) => &mut t.calls,
                None => &mut [],
            },
            _ => &mut [],
        };
        (calls, &mut self.value_lists)
    }

    /// Creates a jump table; `calls[0]` is the default target.
    pub fn make_jump_table(&mut self, calls: Vec<BlockCall>) -> JumpTable {
        self.jump_tables.push(JumpTableData { calls })
    }

    /// The result types an instruction has, given its operands and its controlling type.
    ///
    /// Never fails: an instruction whose result types cannot be known (missing controlling
    /// type, undeclared callee) gets none, and the verifier reports it.
    pub fn result_types(&self, data: &InstData, ctrl: Option<Type>) -> Vec<Type> {
        let ty = |v: Value| self.values.get(v).map(|d| d.ty);
        let one = |t: Option<Type>| t.into_iter().collect::<Vec<_>>();
        let op = data.opcode();
        if op.has_ctrl_type() {
            return one(ctrl);
        }
        match data {
            InstData::Nullary { opcode } => match opcode {
                Opcode::Activemask => vec![Type::I32],
                Opcode::StackSave => vec![Type::Ptr(AddrSpace::Local)],
                _ => vec![],
            },
            InstData::UnaryImm { .. } | InstData::UnaryIeee { .. } | InstData::Load { .. } => {
                one(ctrl)
            }
            InstData::Unary { opcode, arg } => match opcode {
                Opcode::StackAlloc => vec![Type::Ptr(AddrSpace::Local)],
                Opcode::StackRestore | Opcode::WarpSync => vec![],
                _ => one(ty(*arg)),
            },
            InstData::Binary { args, .. } => one(ty(args[0])),
            InstData::Ternary { opcode, args } => match opcode {
                Opcode::Select => one(ty(args[1])),
                _ => one(ty(args[0])),
            },
            InstData::IntCompare { .. } | InstData::FloatCompare { .. } => vec![Type::I1],
            InstData::Special { reg } => match reg {
                SpecialReg::Clock64 => vec![Type::I64],
                _ => vec![Type::I32],
            },
            InstData::StackAddr { .. } => vec![Type::Ptr(AddrSpace::Local)],
            InstData::GlobalAddr { global } => {
                one(self.globals.get(*global).map(|g| Type::Ptr(g.space)))
            }
            InstData::Call { func, .. } => self
                .ext_funcs
                .get(*func)
                .map_or_else(Vec::new, |f| f.sig.returns.clone()),
            InstData::FuncAddr { .. } => vec![Type::PTR],
            InstData::CallIndirect { sig, .. } => self
                .signatures
                .get(*sig)
                .map_or_else(Vec::new, |s| s.returns.clone()),
            InstData::AtomicRmw { args, .. } => one(ty(args[1])),
            InstData::AtomicCas { args, .. } => one(ty(args[1])),
            InstData::Shuffle { args, .. } => one(ty(args[0])),
            InstData::Vote { mode, .. } => match mode {
                VoteMode::Ballot => vec![Type::I32],
                _ => vec![Type::I1],
            },
            InstData::Store { .. }
            | InstData::Return { .. }
            | InstData::Jump { .. }
            | InstData::Brif { .. }
            | InstData::BrTable { .. }
            | InstData::Fence { .. } => vec![],
        }
    }
}
