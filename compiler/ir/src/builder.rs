//! Building instructions: `FunctionBuilder` for lowering, `FuncCursor` for passes.
//!
//! Both hand out an `InsertBuilder` (`ins()`) whose methods create one instruction each, insert
//! it at the current position and return its result. The builder never checks types: whatever
//! it builds, the verifier judges. Blocks are created detached and enter the layout when the
//! builder first switches to them, so lowering can create join blocks before filling them.
//!
//! Source locations: both builders carry a current `SourceLoc` (`set_srcloc`) that every
//! instruction they create records in `Function::srclocs`; the default (unknown) records
//! nothing. `FuncCursor::goto_inst(i)` makes `i`'s location current (see `srcloc` for the rule).

use crate::dfg::{ExtFuncData, GlobalRefData};
use crate::entities::{Block, FuncRef, GlobalRef, Inst, SigRef, StackSlot, Value};
use crate::function::{Function, Signature};
use crate::instructions::{
    ArithFlags, AtomicRmwOp, FloatCC, InstData, IntCC, MemFlags, Opcode, Scope, ShuffleMode,
    SpecialReg, VoteMode,
};
use crate::srcloc::SourceLoc;
use crate::types::{AddrSpace, Type};

/// Where the next instruction goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// Nowhere: instructions are created but not inserted.
    Detached,
    /// At the end of the block.
    End(Block),
    /// Just before the instruction.
    Before(Inst),
}

/// Inserts instructions at an `InsertPoint`; one method per opcode.
pub struct InsertBuilder<'f> {
    func: &'f mut Function,
    at: InsertPoint,
    srcloc: SourceLoc,
}

macro_rules! binary {
    ($($(#[$m:meta])* $name:ident = $op:ident;)*) => {$(
        $(#[$m])*
        pub fn $name(self, a: Value, b: Value) -> Value {
            self.value(InstData::binary(Opcode::$op, [a, b]), None)
        }
    )*};
}
macro_rules! unary {
    ($($(#[$m:meta])* $name:ident = $op:ident;)*) => {$(
        $(#[$m])*
        pub fn $name(self, a: Value) -> Value {
            self.value(InstData::Unary { opcode: Opcode::$op, arg: a }, None)
        }
    )*};
}
macro_rules! convert {
    ($($(#[$m:meta])* $name:ident = $op:ident;)*) => {$(
        $(#[$m])*
        pub fn $name(self, to: Type, a: Value) -> Value {
            self.value(InstData::Unary { opcode: Opcode::$op, arg: a }, Some(to))
        }
    )*};
}

impl<'f> InsertBuilder<'f> {
    /// An inserter for `func` at `at`.
    /// Instructions get no source location unless `with_srcloc` gives one.
    pub fn new(func: &'f mut Function, at: InsertPoint) -> InsertBuilder<'f> {
        InsertBuilder {
            func,
            at,
            srcloc: SourceLoc::default(),
        }
    }

    /// Gives every instruction this builder creates the location `loc`.
    pub fn with_srcloc(mut self, loc: SourceLoc) -> InsertBuilder<'f> {
        self.srcloc = loc;
        self
    }

    /// Creates, inserts and returns an instruction with its results.
    pub fn build(mut self, data: InstData, ctrl: Option<Type>) -> Inst {
        self.insert(data, ctrl)
    }

    fn insert(&mut self, data: InstData, ctrl: Option<Type>) -> Inst {
        let inst = self.func.dfg.make_inst(data);
        self.func.dfg.make_inst_results(inst, ctrl);
        if !self.srcloc.is_unknown() {
            self.func.srclocs[inst] = self.srcloc;
        }
        match self.at {
            InsertPoint::Detached => {}
            InsertPoint::End(b) => self.func.layout.append_inst(inst, b),
            InsertPoint::Before(i) => self.func.layout.insert_inst_before(inst, i),
        }
        inst
    }

    /// Builds and returns the first result. An instruction whose result type cannot be known
    /// (e.g. a call to an undeclared callee) gets an `i1` stand-in result that the verifier
    /// rejects, so a builder bug surfaces as a verifier error rather than a panic.
    fn value(mut self, data: InstData, ctrl: Option<Type>) -> Value {
        let inst = self.insert(data, ctrl);
        match self.func.dfg.first_result(inst) {
            Some(v) => v,
            None => {
                let v = self.func.dfg.make_placeholder();
                self.func
                    .dfg
                    .attach_result(inst, v, ctrl.unwrap_or(Type::I1));
                v
            }
        }
    }

    /// `iconst.ty imm` (normalized: sign-extended from the type's width, `i1` as 0/1).
    pub fn iconst(self, ty: Type, imm: i64) -> Value {
        let imm = normalize_imm(ty, imm);
        self.value(
            InstData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            },
            Some(ty),
        )
    }

    /// `fconst.ty x` (an `f32` constant is rounded to `f32` first).
    pub fn fconst(self, ty: Type, x: f64) -> Value {
        let x = if ty == Type::F32 { x as f32 as f64 } else { x };
        self.value(
            InstData::UnaryIeee {
                opcode: Opcode::Fconst,
                bits: x.to_bits(),
            },
            Some(ty),
        )
    }

    binary! {
        /// Wrapping integer addition.
        iadd = Iadd;
        /// Wrapping integer subtraction.
        isub = Isub;
        /// Wrapping integer multiplication.
        imul = Imul;
        /// Signed division (traps on zero).
        sdiv = Sdiv;
        /// Unsigned division (traps on zero).
        udiv = Udiv;
        /// Signed remainder.
        srem = Srem;
        /// Unsigned remainder.
        urem = Urem;
        /// High half of the signed double-width product.
        smulhi = Smulhi;
        /// High half of the unsigned double-width product.
        umulhi = Umulhi;
        /// Bitwise and.
        and = And;
        /// Bitwise or.
        or = Or;
        /// Bitwise xor.
        xor = Xor;
        /// Shift left (an amount >= the width gives 0, as in PTX).
        shl = Shl;
        /// Logical shift right (an amount >= the width gives 0).
        lshr = Lshr;
        /// Arithmetic shift right (an amount >= the width gives the sign).
        ashr = Ashr;
        /// Signed minimum.
        smin = Smin;
        /// Signed maximum.
        smax = Smax;
        /// Unsigned minimum.
        umin = Umin;
        /// Unsigned maximum.
        umax = Umax;
        /// Float addition.
        fadd = Fadd;
        /// Float subtraction.
        fsub = Fsub;
        /// Float multiplication.
        fmul = Fmul;
        /// Float division.
        fdiv = Fdiv;
        /// Float remainder (C `fmod`).
        frem = Frem;
        /// Float minimum (IEEE minNum).
        fmin = Fmin;
        /// Float maximum (IEEE maxNum).
        fmax = Fmax;
        /// Magnitude of the first, sign of the second.
        fcopysign = Fcopysign;
        /// Pointer plus signed byte offset.
        ptr_offset = PtrOffset;
    }

    unary! {
        /// Two's complement negation.
        neg = Neg;
        /// Bitwise not.
        not = Not;
        /// Population count.
        popcnt = Popcnt;
        /// Count leading zeros.
        clz = Clz;
        /// Count trailing zeros.
        ctz = Ctz;
        /// Byte swap.
        bswap = Bswap;
        /// Float negation.
        fneg = Fneg;
        /// Float absolute value.
        fabs = Fabs;
        /// Square root.
        sqrt = Sqrt;
        /// Round toward negative infinity.
        floor = Floor;
        /// Round toward positive infinity.
        ceil = Ceil;
        /// Round toward zero.
        ftrunc = Ftrunc;
        /// Round to nearest, ties to even.
        nearest = Nearest;
    }

    convert! {
        /// Sign extension.
        sext = Sext;
        /// Zero extension.
        zext = Zext;
        /// Integer truncation.
        trunc = Trunc;
        /// `f32` to `f64`.
        fpext = Fpext;
        /// `f64` to `f32`.
        fptrunc = Fptrunc;
        /// Signed integer to float.
        sitofp = Sitofp;
        /// Unsigned integer to float.
        uitofp = Uitofp;
        /// Float to signed integer (toward zero).
        fptosi = Fptosi;
        /// Float to unsigned integer (toward zero).
        fptoui = Fptoui;
        /// Reinterpret bits (same width).
        bitcast = Bitcast;
        /// Pointer to integer.
        ptrtoint = Ptrtoint;
        /// Integer to pointer.
        inttoptr = Inttoptr;
        /// Pointer to pointer of another space (one side generic).
        addrspacecast = Addrspacecast;
    }

    /// A binary instruction with explicit flags (`iadd nsw a, b`); see `ArithFlags` for when
    /// a producer may claim them.
    pub fn binary_flags(self, opcode: Opcode, flags: ArithFlags, a: Value, b: Value) -> Value {
        self.value(
            InstData::Binary {
                opcode,
                args: [a, b],
                flags,
            },
            None,
        )
    }

    /// `fma a, b, c` = a*b+c rounded once.
    pub fn fma(self, a: Value, b: Value, c: Value) -> Value {
        self.value(
            InstData::Ternary {
                opcode: Opcode::Fma,
                args: [a, b, c],
            },
            None,
        )
    }

    /// `select c, a, b`.
    pub fn select(self, c: Value, a: Value, b: Value) -> Value {
        self.value(
            InstData::Ternary {
                opcode: Opcode::Select,
                args: [c, a, b],
            },
            None,
        )
    }

    /// Integer or pointer comparison.
    pub fn icmp(self, cond: IntCC, a: Value, b: Value) -> Value {
        self.value(InstData::IntCompare { cond, args: [a, b] }, None)
    }

    /// Float comparison.
    pub fn fcmp(self, cond: FloatCC, a: Value, b: Value) -> Value {
        self.value(InstData::FloatCompare { cond, args: [a, b] }, None)
    }

    /// Loads a `ty` from `addr` in `space`.
    pub fn load(self, ty: Type, space: AddrSpace, flags: MemFlags, addr: Value) -> Value {
        self.value(
            InstData::Load {
                space,
                flags,
                arg: addr,
            },
            Some(ty),
        )
    }

    /// Stores `val` to `addr` in `space`.
    pub fn store(self, space: AddrSpace, flags: MemFlags, val: Value, addr: Value) -> Inst {
        self.build(
            InstData::Store {
                space,
                flags,
                args: [val, addr],
            },
            None,
        )
    }

    /// Address of a stack slot (`ptr(local)`).
    pub fn stack_addr(self, slot: StackSlot) -> Value {
        self.value(InstData::StackAddr { slot }, None)
    }

    /// Address of a global.
    pub fn global_addr(self, global: GlobalRef) -> Value {
        self.value(InstData::GlobalAddr { global }, None)
    }

    /// Direct call; results via `dfg.inst_results`.
    pub fn call(self, func: FuncRef, args: &[Value]) -> Inst {
        let args = self.func.dfg.value_list(args);
        self.build(InstData::Call { func, args }, None)
    }

    /// Address of a declared function (a generic `ptr`).
    pub fn func_addr(self, func: FuncRef) -> Value {
        self.value(InstData::FuncAddr { func }, None)
    }

    /// Call through the function pointer `callee` with signature `sig`; results via
    /// `dfg.inst_results`.
    pub fn call_indirect(self, sig: SigRef, callee: Value, args: &[Value]) -> Inst {
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(callee);
        all.extend_from_slice(args);
        let args = self.func.dfg.value_list(&all);
        self.build(InstData::CallIndirect { sig, args }, None)
    }

    /// `size` (an `i64`) fresh bytes of this function's stack, 16-byte aligned, alive until
    /// the function returns or a `stack_restore` to a point saved before it (`ptr(local)`).
    pub fn stack_alloc(self, size: Value) -> Value {
        self.value(
            InstData::Unary {
                opcode: Opcode::StackAlloc,
                arg: size,
            },
            None,
        )
    }

    /// The current top of the dynamic stack, for a later `stack_restore`.
    pub fn stack_save(self) -> Value {
        self.value(
            InstData::Nullary {
                opcode: Opcode::StackSave,
            },
            None,
        )
    }

    /// Frees every `stack_alloc` made since the `stack_save` that returned `saved`.
    pub fn stack_restore(self, saved: Value) -> Inst {
        self.build(
            InstData::Unary {
                opcode: Opcode::StackRestore,
                arg: saved,
            },
            None,
        )
    }

    /// Return.
    pub fn ret(self, vals: &[Value]) -> Inst {
        let args = self.func.dfg.value_list(vals);
        self.build(InstData::Return { args }, None)
    }

    /// Unconditional branch.
    pub fn jump(self, block: Block, args: &[Value]) -> Inst {
        let dest = self.func.dfg.block_call(block, args);
        self.build(InstData::Jump { dest }, None)
    }

    /// Two-way branch on an `i1`.
    pub fn brif(
        self,
        c: Value,
        then_block: Block,
        then_args: &[Value],
        else_block: Block,
        else_args: &[Value],
    ) -> Inst {
        let a = self.func.dfg.block_call(then_block, then_args);
        let b = self.func.dfg.block_call(else_block, else_args);
        self.build(
            InstData::Brif {
                arg: c,
                blocks: [a, b],
            },
            None,
        )
    }

    /// Multi-way branch: `targets[index]`, or `default` when out of range.
    pub fn br_table(
        self,
        index: Value,
        default: (Block, &[Value]),
        targets: &[(Block, &[Value])],
    ) -> Inst {
        let mut calls = vec![self.func.dfg.block_call(default.0, default.1)];
        for (b, a) in targets {
            calls.push(self.func.dfg.block_call(*b, a));
        }
        let table = self.func.dfg.make_jump_table(calls);
        self.build(InstData::BrTable { arg: index, table }, None)
    }

    /// Reads a special register.
    pub fn sreg(self, reg: SpecialReg) -> Value {
        self.value(InstData::Special { reg }, None)
    }

    /// Block-wide barrier (`barrier.sync 0`).
    pub fn barrier(self) -> Inst {
        self.build(
            InstData::Nullary {
                opcode: Opcode::Barrier,
            },
            None,
        )
    }

    /// Memory fence at `scope`.
    pub fn fence(self, scope: Scope) -> Inst {
        self.build(InstData::Fence { scope }, None)
    }

    /// Atomic read-modify-write; returns the old value.
    pub fn atomic_rmw(
        self,
        op: AtomicRmwOp,
        space: AddrSpace,
        scope: Scope,
        addr: Value,
        val: Value,
    ) -> Value {
        self.value(
            InstData::AtomicRmw {
                op,
                space,
                scope,
                args: [addr, val],
            },
            None,
        )
    }

    /// Atomic compare-and-swap; returns the old value.
    pub fn atomic_cas(
        self,
        space: AddrSpace,
        scope: Scope,
        addr: Value,
        expected: Value,
        new: Value,
    ) -> Value {
        self.value(
            InstData::AtomicCas {
                space,
                scope,
                args: [addr, expected, new],
            },
            None,
        )
    }

    /// Warp shuffle of `val` among the lanes in `mask`.
    pub fn shuffle(self, mode: ShuffleMode, val: Value, lane: Value, mask: Value) -> Value {
        self.value(
            InstData::Shuffle {
                mode,
                args: [val, lane, mask],
            },
            None,
        )
    }

    /// Warp vote on `pred` among the lanes in `mask`.
    pub fn vote(self, mode: VoteMode, pred: Value, mask: Value) -> Value {
        self.value(
            InstData::Vote {
                mode,
                args: [pred, mask],
            },
            None,
        )
    }

    /// Waits for the lanes in `mask` and orders their memory accesses (`bar.warp.sync`).
    pub fn warp_sync(self, mask: Value) -> Inst {
        self.build(
            InstData::Unary {
                opcode: Opcode::WarpSync,
                arg: mask,
            },
            None,
        )
    }

    /// Mask of the currently active lanes.
    pub fn activemask(self) -> Value {
        self.value(
            InstData::Nullary {
                opcode: Opcode::Activemask,
            },
            None,
        )
    }

    /// Marks a point control never reaches.
    pub fn unreachable(self) -> Inst {
        self.build(
            InstData::Nullary {
                opcode: Opcode::Unreachable,
            },
            None,
        )
    }

    /// Aborts the kernel.
    pub fn trap(self) -> Inst {
        self.build(
            InstData::Nullary {
                opcode: Opcode::Trap,
            },
            None,
        )
    }
}

/// Sign-extends `imm` from `ty`'s width; `i1` constants are 0 or 1.
pub fn normalize_imm(ty: Type, imm: i64) -> i64 {
    match ty.bits() {
        1 => imm & 1,
        b if b < 64 => (imm << (64 - b)) >> (64 - b),
        _ => imm,
    }
}

/// A source-level variable whose SSA values the builder tracks (`def_var`/`use_var`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variable(u32);
cranelift_entity::entity_impl!(Variable, "var");

/// Builds a function block by block, appending at the end of the current block.
///
/// Besides plain instruction building it constructs SSA form for `Variable`s on the fly
/// (Braun et al., "Simple and Efficient Construction of Static Single Assignment Form"):
/// `def_var` records a variable's current value in the current block, `use_var` finds the
/// reaching value, adding block parameters (and the matching branch arguments) where control
/// flow merges. A block must be sealed (`seal_block`) once all branches into it exist;
/// parameters needed before that are completed at sealing time. Parameters that turn out to
/// be redundant are left for `simplify` to remove. Explicit parameters of a block
/// (`append_block_param`) must be appended before a variable is used in it, since variable
/// parameters follow them.
pub struct FunctionBuilder<'f> {
    /// The function being built.
    pub func: &'f mut Function,
    current: Option<Block>,
    var_types: cranelift_entity::PrimaryMap<Variable, Type>,
    defs: rustc_hash::FxHashMap<(Variable, Block), Value>,
    sealed: cranelift_entity::SecondaryMap<Block, bool>,
    incomplete: cranelift_entity::SecondaryMap<Block, Vec<(Variable, Value)>>,
    srcloc: SourceLoc,
}

impl<'f> FunctionBuilder<'f> {
    /// A builder for `func` (usually empty).
    pub fn new(func: &'f mut Function) -> FunctionBuilder<'f> {
        FunctionBuilder {
            func,
            current: None,
            var_types: cranelift_entity::PrimaryMap::new(),
            defs: rustc_hash::FxHashMap::default(),
            sealed: cranelift_entity::SecondaryMap::new(),
            incomplete: cranelift_entity::SecondaryMap::new(),
            srcloc: SourceLoc::default(),
        }
    }

    /// Sets the location of the instructions built from now on (`SourceLoc::default()` for
    /// none). Block parameters and the zeros read from undefined variables get no location.
    pub fn set_srcloc(&mut self, loc: SourceLoc) {
        self.srcloc = loc;
    }

    /// The location new instructions get.
    pub fn srcloc(&self) -> SourceLoc {
        self.srcloc
    }

    /// Declares a variable of type `ty`.
    pub fn declare_var(&mut self, ty: Type) -> Variable {
        self.var_types.push(ty)
    }

    /// The type of a variable.
    pub fn var_type(&self, var: Variable) -> Type {
        self.var_types[var]
    }

    /// Sets `var` to `val` from here on in the current block.
    pub fn def_var(&mut self, var: Variable, val: Value) {
        if let Some(b) = self.current {
            self.defs.insert((var, b), val);
        }
    }

    /// The value of `var` at the current position. A variable read before any definition on
    /// some path reads zero there (C leaves it undefined).
    pub fn use_var(&mut self, var: Variable) -> Value {
        match self.current {
            Some(b) => self.use_var_in(var, b),
            None => self.zero_of(var, None),
        }
    }

    /// Declares that every branch into `block` has been built.
    pub fn seal_block(&mut self, block: Block) {
        if self.sealed[block] {
            return;
        }
        self.sealed[block] = true;
        for (var, param) in std::mem::take(&mut self.incomplete[block]) {
            self.add_param_args(var, block, param);
        }
    }

    /// Seals every block in the layout.
    pub fn seal_all_blocks(&mut self) {
        let blocks: Vec<Block> = self.func.layout.blocks().collect();
        for b in blocks {
            self.seal_block(b);
        }
    }

    fn zero_of(&mut self, var: Variable, block: Option<Block>) -> Value {
        let ty = self.var_types[var];
        // Materialize at the top of the entry block so the zero dominates every use.
        let entry = self.func.layout.entry_block().or(block);
        let at = match entry {
            Some(e) => match self.func.layout.first_inst(e) {
                Some(i) => InsertPoint::Before(i),
                None => InsertPoint::End(e),
            },
            None => InsertPoint::Detached,
        };
        let ins = InsertBuilder::new(self.func, at);
        if ty.is_float() {
            ins.fconst(ty, 0.0)
        } else if ty.is_ptr() {
            let z = ins.iconst(Type::I64, 0);
            InsertBuilder::new(self.func, at).inttoptr(ty, z)
        } else {
            ins.iconst(ty, 0)
        }
    }

    /// Branch instructions (in the layout) that target `block`, with their blocks.
    fn branches_into(&self, block: Block) -> Vec<(Block, Inst)> {
        let mut out = Vec::new();
        for b in self.func.layout.blocks() {
            if let Some(t) = self.func.layout.last_inst(b)
                && self
                    .func
                    .dfg
                    .branch_destinations(t)
                    .iter()
                    .any(|c| c.block == block)
            {
                out.push((b, t));
            }
        }
        out
    }

    fn use_var_in(&mut self, var: Variable, block: Block) -> Value {
        if let Some(&v) = self.defs.get(&(var, block)) {
            return v;
        }
        let ty = self.var_types[var];
        let v = if !self.sealed[block] {
            let p = self.func.dfg.append_block_param(block, ty);
            self.incomplete[block].push((var, p));
            p
        } else {
            let preds = self.branches_into(block);
            match preds.as_slice() {
                [] => self.zero_of(var, Some(block)),
                [(pb, _)] => self.use_var_in(var, *pb),
                _ => {
                    let p = self.func.dfg.append_block_param(block, ty);
                    // Record first so a loop back to this block finds the parameter.
                    self.defs.insert((var, block), p);
                    self.add_param_args(var, block, p);
                    p
                }
            }
        };
        self.defs.insert((var, block), v);
        v
    }

    /// Appends the reaching value of `var` to every branch into `block` for `param`.
    fn add_param_args(&mut self, var: Variable, block: Block, param: Value) {
        self.defs.entry((var, block)).or_insert(param);
        for (pb, br) in self.branches_into(block) {
            let v = self.use_var_in(var, pb);
            let (calls, pool) = self.func.dfg.branch_destinations_and_pool(br);
            for call in calls.iter_mut().filter(|c| c.block == block) {
                call.args.push(v, pool);
            }
        }
    }

    /// Creates a block, not yet in the layout.
    pub fn create_block(&mut self) -> Block {
        self.func.dfg.make_block()
    }

    /// Creates the entry block with one parameter per signature parameter.
    pub fn create_entry_block(&mut self) -> Block {
        let b = self.create_block();
        for ty in self.func.sig.params.clone() {
            self.func.dfg.append_block_param(b, ty);
        }
        b
    }

    /// Appends a parameter to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.dfg.append_block_param(block, ty)
    }

    /// The parameters of `block`.
    pub fn block_params(&self, block: Block) -> &[Value] {
        self.func.dfg.block_params(block)
    }

    /// Makes `block` current, appending it to the layout if it is not there yet.
    pub fn switch_to_block(&mut self, block: Block) {
        if !self.func.layout.is_block_inserted(block) {
            self.func.layout.append_block(block);
        }
        self.current = Some(block);
    }

    /// The current block.
    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    /// Whether the current block already ends in a terminator (lowering then starts a new,
    /// unreachable block for code after `return`/`break`).
    pub fn is_filled(&self) -> bool {
        self.current
            .and_then(|b| self.func.layout.last_inst(b))
            .is_some_and(|i| self.func.dfg.inst(i).opcode().is_terminator())
    }

    /// Inserts at the end of the current block (detached when there is none).
    pub fn ins(&mut self) -> InsertBuilder<'_> {
        let at = self.current.map_or(InsertPoint::Detached, InsertPoint::End);
        InsertBuilder::new(self.func, at).with_srcloc(self.srcloc)
    }

    /// The type of `v`.
    pub fn value_type(&self, v: Value) -> Type {
        self.func.dfg.value_type(v)
    }

    /// Adds a stack slot.
    pub fn create_stack_slot(&mut self, size: u32, align: u32) -> StackSlot {
        self.func.create_stack_slot(size, align)
    }

    /// Declares a callee.
    pub fn import_function(&mut self, name: &str, sig: Signature) -> FuncRef {
        if let Some((r, _)) = self.func.dfg.ext_funcs.iter().find(|(_, d)| d.name == name) {
            return r;
        }
        self.func.dfg.ext_funcs.push(ExtFuncData {
            name: name.to_string(),
            sig,
        })
    }

    /// Declares the signature of indirect calls (shared between equal signatures).
    pub fn import_signature(&mut self, sig: Signature) -> SigRef {
        if let Some((r, _)) = self.func.dfg.signatures.iter().find(|(_, s)| **s == sig) {
            return r;
        }
        self.func.dfg.signatures.push(sig)
    }

    /// Declares a module global.
    pub fn import_global(&mut self, name: &str, space: AddrSpace) -> GlobalRef {
        if let Some((r, _)) = self.func.dfg.globals.iter().find(|(_, d)| d.name == name) {
            return r;
        }
        self.func.dfg.globals.push(GlobalRefData {
            name: name.to_string(),
            space,
        })
    }
}

/// A position in a function for passes: walk, insert before, remove.
pub struct FuncCursor<'f> {
    /// The function being edited.
    pub func: &'f mut Function,
    at: InsertPoint,
    srcloc: SourceLoc,
}

impl<'f> FuncCursor<'f> {
    /// A cursor at no position.
    pub fn new(func: &'f mut Function) -> FuncCursor<'f> {
        FuncCursor {
            func,
            at: InsertPoint::Detached,
            srcloc: SourceLoc::default(),
        }
    }

    /// Positions before `inst`: new instructions go just before it and take its location.
    pub fn goto_inst(&mut self, inst: Inst) {
        self.at = InsertPoint::Before(inst);
        self.srcloc = self.func.srcloc(inst);
    }

    /// Positions at the end of `block`; new instructions get no location.
    pub fn goto_bottom(&mut self, block: Block) {
        self.at = InsertPoint::End(block);
        self.srcloc = SourceLoc::default();
    }

    /// Sets the location of the instructions inserted from now on (until the next `goto_*`).
    pub fn set_srcloc(&mut self, loc: SourceLoc) {
        self.srcloc = loc;
    }

    /// The location new instructions get.
    pub fn srcloc(&self) -> SourceLoc {
        self.srcloc
    }

    /// Positions before the terminator of `block` (or at its end when it has none); new
    /// instructions get no location (code placed there rarely implements the branch).
    pub fn goto_before_terminator(&mut self, block: Block) {
        self.at = match self.func.layout.last_inst(block) {
            Some(i) if self.func.dfg.inst(i).opcode().is_terminator() => InsertPoint::Before(i),
            _ => InsertPoint::End(block),
        };
        self.srcloc = SourceLoc::default();
    }

    /// The current position.
    pub fn position(&self) -> InsertPoint {
        self.at
    }

    /// Inserts at the current position.
    pub fn ins(&mut self) -> InsertBuilder<'_> {
        InsertBuilder::new(self.func, self.at).with_srcloc(self.srcloc)
    }
}
