//! divbypass: 64-bit division and remainder take a 32-bit path when both operands fit.
//!
//! GPUs have no 64-bit divide: `div.u64` / `rem.s64` expand to a long software sequence, while
//! the 32-bit forms are much shorter, and 64-bit index arithmetic (`size_t`, `long`) often
//! holds small values. Each `udiv`/`urem`/`sdiv`/`srem` on `i64` whose divisor is not a
//! constant (constant divisors become multiplications later) is rewritten as
//!
//! ```text
//!     t = or a, b;  hi = lshr t, K;  small = icmp eq hi, 0;  brif small, fast, slow
//! fast: q32 = udiv (trunc a), (trunc b);  jump join(zext q32)
//! slow: q = <original> a, b;              jump join(q)
//! join(q): ...
//! ```
//!
//! with K = 32 for unsigned operations and 31 for signed ones: both operands then lie in
//! `[0, 2^31)`, where the signed and unsigned quotients and remainders agree with the 32-bit
//! unsigned ones. A zero divisor takes the fast path and traps there as the original would.

use crate::remarks::{Remarks, plural};
use crate::util::iconst_value;
use ompcc_ir::{FuncCursor, Function, Inst, InstData, IntCC, Opcode, Type, Value};
use rustc_hash::FxHashSet;

/// Runs the pass; returns whether anything changed.
pub fn divbypass(func: &mut Function) -> bool {
    divbypass_with_remarks(func, &mut Remarks::default())
}

fn candidate(func: &Function, inst: Inst) -> Option<(Opcode, Value, Value)> {
    let InstData::Binary { opcode, args, .. } = func.dfg.inst(inst) else {
        return None;
    };
    let ok = matches!(
        opcode,
        Opcode::Udiv | Opcode::Urem | Opcode::Sdiv | Opcode::Srem
    ) && func.dfg.value_type(args[0]) == Type::I64
        && iconst_value(func, args[1]).is_none();
    ok.then_some((*opcode, args[0], args[1]))
}

/// `divbypass`, reporting the number of divisions given a fast path.
pub fn divbypass_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let mut done: FxHashSet<Inst> = FxHashSet::default();
    let mut count = 0;
    loop {
        let next = func
            .layout
            .all_insts()
            .find(|&i| !done.contains(&i) && candidate(func, i).is_some());
        let Some(inst) = next else { break };
        done.insert(inst);
        if bypass(func, inst) {
            count += 1;
        }
    }
    if count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "gave {} a 32-bit path",
                plural(count, "64-bit division", "64-bit divisions")
            ),
        );
    }
    count > 0
}

fn bypass(func: &mut Function, inst: Inst) -> bool {
    let Some((op, a, b)) = candidate(func, inst) else {
        return false;
    };
    let (Some(block), Some(res)) = (func.layout.inst_block(inst), func.dfg.first_result(inst))
    else {
        return false;
    };
    let Some(after) = func.layout.next_inst(inst) else {
        return false;
    };
    let loc = func.srcloc(inst);
    let join = func.dfg.make_block();
    let fast = func.dfg.make_block();
    let slow = func.dfg.make_block();
    func.layout.insert_block_after(fast, block);
    func.layout.insert_block_after(slow, fast);
    func.layout.insert_block_after(join, slow);
    func.layout.split_off_to(after, join);
    let p = func.dfg.append_block_param(join, Type::I64);
    func.replace_all_uses(res, p);
    func.layout.remove_inst(inst);
    func.layout.append_inst(inst, slow);
    let signed = matches!(op, Opcode::Sdiv | Opcode::Srem);
    let mut cur = FuncCursor::new(func);
    cur.set_srcloc(loc);
    cur.goto_bottom(block);
    let t = cur.ins().or(a, b);
    let k = cur.ins().iconst(Type::I64, if signed { 31 } else { 32 });
    let hi = cur.ins().lshr(t, k);
    let zero = cur.ins().iconst(Type::I64, 0);
    let small = cur.ins().icmp(IntCC::Eq, hi, zero);
    cur.ins().brif(small, fast, &[], slow, &[]);
    cur.goto_bottom(fast);
    let a32 = cur.ins().trunc(Type::I32, a);
    let b32 = cur.ins().trunc(Type::I32, b);
    let q32 = match op {
        Opcode::Udiv | Opcode::Sdiv => cur.ins().udiv(a32, b32),
        _ => cur.ins().urem(a32, b32),
    };
    let q = cur.ins().zext(Type::I64, q32);
    cur.ins().jump(join, &[q]);
    cur.goto_bottom(slow);
    cur.ins().jump(join, &[res]);
    true
}
