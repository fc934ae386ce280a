//! Coalescing a block parameter with the value a `jump` passes to it, so the edge needs no
//! copy: the value is computed straight into the parameter's register.
//!
//! The typical case is a loop's latch, `v = iadd p, step; jump head(v)`, which would
//! otherwise end in `add %t, %p, step; mov %p, %t`. (ptxas would remove the `mov` itself; the
//! point is PTX that reads like the loop, and the emulator's counts.)
//!
//! `a` (defined in block `L`) shares the register of parameter `p` of `B` when `L` ends with
//! `jump B(.., a, ..)` passing `a` to `p`, and from `a`'s definition to the end of `L` the old
//! value of `p` is not needed:
//! - no instruction after the definition reads `p`, directly or through an address the
//!   emitter folds (`[p+imm]` for a `ptr_offset` of `p`), and the `jump` passes `p` nowhere;
//! - the defining instruction itself reads `p` only if it is emitted as one PTX instruction
//!   (which reads its operands before writing its result).
//!
//! and every read of `a` is in `L` (a preheader's value may also be read inside the loop,
//! where the parameter's register has moved on), so `a` is dead after the `jump` except as
//! `p`, which `B` receives anew on every edge.
//!
//! A rotated loop's latch ends in `brif c, B(a), X(..)` instead (`rotate`: the test at the
//! bottom). There `a` may share `p`'s register too when, besides the above, the old value of
//! `p` is dead along the other edge: `X`'s arguments do not pass `p`, and no block reachable
//! from `X` without entering `B` (which receives `p` anew) reads `p`. Otherwise the latch
//! would end in `@!c bra X; mov p, a; bra B`, a copy ptxas answers by peeling an iteration.

use cranelift_entity::SecondaryMap;
use ompcc_ir::{Block, BlockCall, Function, Inst, InstData, Opcode, Value, ValueDef};

/// For each value that shares a block parameter's register, that parameter.
pub(crate) fn coalesced_params(f: &Function) -> SecondaryMap<Value, Option<Value>> {
    let dfg = &f.dfg;
    let mut out: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
    let entry = f.layout.entry_block();
    let read_elsewhere = read_outside_own_block(f);
    for block in f.layout.blocks() {
        let Some(term) = f.layout.last_inst(block) else {
            continue;
        };
        let (dest, other) = match dfg.inst(term) {
            InstData::Jump { dest } => (dest, None),
            InstData::Brif { blocks: [t, e], .. } => match (has_args(f, t), has_args(f, e)) {
                (true, false) => (t, Some(e)),
                (false, true) => (e, Some(t)),
                _ => continue,
            },
            _ => continue,
        };
        if Some(dest.block) == entry || other.is_some_and(|o| o.block == dest.block) {
            continue;
        }
        let params = dfg.block_params(dest.block);
        let args = dfg.block_call_args(dest);
        for (j, (&p, &a)) in params.iter().zip(args).enumerate() {
            if p == a
                || out[a].is_some()
                || read_elsewhere[a]
                || dfg.value_type(p) != dfg.value_type(a)
            {
                continue;
            }
            let ValueDef::Result(def, 0) = dfg.value_def(a) else {
                continue;
            };
            if f.layout.inst_block(def) != Some(block) {
                continue;
            }
            if reads(f, def, p) && !single_instruction(f, def) {
                continue;
            }
            let later_reads = f
                .layout
                .block_insts(block)
                .skip_while(|&i| i != def)
                .skip(1)
                .filter(|&i| i != term)
                .any(|i| reads(f, i, p));
            let jump_passes_p =
                reads(f, term, p) || args.iter().enumerate().any(|(k, &x)| k != j && x == p);
            let dead_on_other_edge =
                other.is_none_or(|o| !read_before_entering(f, o.block, dest.block, p));
            if !later_reads && !jump_passes_p && dead_on_other_edge {
                out[a] = Some(p);
            }
        }
    }
    out
}

/// Whether the call passes any argument.
fn has_args(f: &Function, call: &BlockCall) -> bool {
    !f.dfg.block_call_args(call).is_empty()
}

/// Whether some instruction or edge of a block reachable from `from` without entering
/// `redefines` reads `p` (which `redefines` receives anew on every edge into it).
fn read_before_entering(f: &Function, from: Block, redefines: Block, p: Value) -> bool {
    let dfg = &f.dfg;
    let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
    let mut stack = vec![from];
    while let Some(block) = stack.pop() {
        if block == redefines || std::mem::replace(&mut seen[block], true) {
            continue;
        }
        for inst in f.layout.block_insts(block) {
            if reads(f, inst, p) {
                return true;
            }
            for call in dfg.branch_destinations(inst) {
                if dfg.block_call_args(call).contains(&p) {
                    return true;
                }
                stack.push(call.block);
            }
        }
    }
    false
}

/// The values some instruction or edge outside their defining block reads.
fn read_outside_own_block(f: &Function) -> SecondaryMap<Value, bool> {
    let dfg = &f.dfg;
    let mut out = SecondaryMap::new();
    for block in f.layout.blocks() {
        for inst in f.layout.block_insts(block) {
            let edges = dfg
                .branch_destinations(inst)
                .iter()
                .flat_map(|c| dfg.block_call_args(c));
            for &x in dfg.inst_args(inst).iter().chain(edges) {
                let mut mark = |v: Value| {
                    if let ValueDef::Result(d, _) = dfg.value_def(v)
                        && f.layout.inst_block(d) != Some(block)
                    {
                        out[v] = true;
                    }
                };
                mark(x);
                if let Some(&base) = folded_base(f, x) {
                    mark(base);
                }
            }
        }
    }
    out
}

/// The base of `x` when `x` is a `ptr_offset`, which the emitter may fold into an address.
fn folded_base(f: &Function, x: Value) -> Option<&Value> {
    match f.dfg.value_def(x) {
        ValueDef::Result(d, 0) if f.dfg.inst(d).opcode() == Opcode::PtrOffset => {
            f.dfg.inst_args(d).first()
        }
        _ => None,
    }
}

/// Whether the PTX of `inst` may read the register of `v`: `v` is an operand, or the base of
/// an operand that is a `ptr_offset` (which the emitter may fold into `[base+imm]`).
fn reads(f: &Function, inst: Inst, v: Value) -> bool {
    let dfg = &f.dfg;
    dfg.inst_args(inst)
        .iter()
        .any(|&x| x == v || folded_base(f, x) == Some(&v))
}

/// Instructions the emitter writes as one PTX instruction that reads every operand before
/// writing its result (`insts`: `int_binary`, `float_binary`, `selp`, `fma`, `add.s64`).
fn single_instruction(f: &Function, inst: Inst) -> bool {
    use Opcode as O;
    matches!(
        f.dfg.inst(inst).opcode(),
        O::Iadd
            | O::Isub
            | O::Imul
            | O::And
            | O::Or
            | O::Xor
            | O::Smin
            | O::Smax
            | O::Umin
            | O::Umax
            | O::PtrOffset
            | O::Fadd
            | O::Fsub
            | O::Fmul
            | O::Fmin
            | O::Fmax
            | O::Select
            | O::Fma
    )
}
