//! Calls and returns of a lane: frames, argument and result slots, indirect call targets,
//! and the dynamic stack (`alloca`, `stackrestore`) inside a frame.

use super::*;

/// Reads a call slot of the caller (bytes of a frame parameter, a register or an immediate).
/// Writes the low `size` bytes of `v` to a call's result slot in lane `l`.
pub(super) fn slot_write(w: &mut Warp, l: usize, s: Slot, size: u32, v: u64) {
    match s {
        Slot::Frame(o) => {
            let lane = &mut w.lanes[l];
            let off = (lane.lbase + o as usize) as u64;
            write_le(&mut lane.local, off, size, v);
        }
        Slot::Reg(reg) => w.set(l, reg, v),
        Slot::Imm(_) => {}
    }
}

pub(super) fn slot_read(w: &Warp, l: usize, s: Slot, size: u32) -> u64 {
    let lane = &w.lanes[l];
    match s {
        Slot::Frame(o) => {
            read_le(&lane.local, (lane.lbase + o as usize) as u64, size.min(8)).unwrap_or(0)
        }
        Slot::Reg(r) => w.get(l, r),
        Slot::Imm(v) => v,
    }
}
/// The function a call goes to: the direct callee, or the one the lane's function pointer
/// names (checked against the call's argument and result counts).
pub(super) fn call_target(env: &Env, w: &Warp, l: usize, ci: &CallInfo) -> Result<u32, String> {
    let Some(t) = ci.target else {
        return Ok(ci.callee);
    };
    let prog = env.l.prog;
    let p = rd(env, w, l, t);
    let off = p.wrapping_sub(FUNC_WINDOW);
    let idx = off / 16;
    let f = prog
        .funcs
        .get(idx as usize)
        .filter(|f| off.is_multiple_of(16) && !f.is_kernel && f.entry != u32::MAX);
    let Some(f) = f else {
        return Err(format!(
            "indirect call through 0x{p:x}, which is not the address of a device function"
        ));
    };
    if f.params.len() != ci.args.len() || f.rets.len() != ci.rets.len() {
        return Err(format!(
            "indirect call of `{}` with the wrong number of arguments or results",
            f.name
        ));
    }
    Ok(idx as u32)
}

pub(super) fn do_call(
    env: &Env,
    w: &mut Warp,
    l: usize,
    pc: u32,
    ci: &CallInfo,
) -> Result<(), String> {
    let prog = env.l.prog;
    let cur = &prog.funcs[w.lanes[l].func as usize];
    let callee_idx = call_target(env, w, l, ci)?;
    let callee = &prog.funcs[callee_idx as usize];
    let indirect = ci.target.is_some();
    let new_rb = w.rb[l] + cur.nregs as usize;
    let rend = new_rb + callee.nregs as usize;
    // register arguments are read before the callee's frame exists
    let mut reg_args = [0u64; 16];
    for (k, &(slot, _, size)) in ci.args.iter().enumerate().take(16) {
        if !matches!(slot, Slot::Frame(_)) {
            reg_args[k] = slot_read(w, l, slot, size);
        }
    }
    let lane = &mut w.lanes[l];
    let new_lbase = lane.sp.div_ceil(16) * 16;
    let lend = new_lbase + callee.frame_size as usize;
    if lend > env.l.stack_limit || rend > MAX_FRAME_REGS || lane.stack.len() >= MAX_CALL_DEPTH {
        return Err(format!(
            "call stack overflow calling `{}` (depth {}, {} bytes of local memory)",
            callee.name,
            lane.stack.len(),
            lend
        ));
    }
    if lane.local.len() < lend {
        lane.local.resize(lend, 0);
    }
    for (k, &(slot, off, size)) in ci.args.iter().enumerate() {
        let (off, size) = if indirect {
            (callee.params[k].offset, callee.params[k].size)
        } else {
            (off, size)
        };
        let dst = new_lbase + off as usize;
        match slot {
            Slot::Frame(o) => {
                let src = lane.lbase + o as usize;
                if !copy_local(&mut lane.local, src, dst, size as usize) {
                    return Err(format!(
                        "argument of `{}` does not fit its parameter",
                        callee.name
                    ));
                }
            }
            Slot::Reg(_) | Slot::Imm(_) => {
                let Some(&v) = reg_args.get(k) else {
                    return Err(format!(
                        "more than 16 register arguments calling `{}`",
                        callee.name
                    ));
                };
                write_le(&mut lane.local, dst as u64, size.min(8), v);
            }
        }
    }
    lane.stack.push(Frame {
        call_pc: pc,
        rbase: w.rb[l],
        lbase: lane.lbase,
        sp: lane.sp,
        func: lane.func,
    });
    lane.lbase = new_lbase;
    lane.sp = lend;
    lane.func = callee_idx;
    if w.regs.len() < rend * 32 {
        w.regs.resize(rend * 32, 0);
    }
    w.rb[l] = new_rb;
    w.pc[l] = callee.entry;
    Ok(())
}

/// Returns from a device function; gives the pc to continue at.
pub(super) fn do_ret(env: &Env, w: &mut Warp, l: usize) -> u32 {
    let prog = env.l.prog;
    let lane = &mut w.lanes[l];
    let Some(f) = lane.stack.pop() else { return 0 };
    let callee = &prog.funcs[lane.func as usize];
    let callee_lbase = lane.lbase;
    lane.lbase = f.lbase;
    lane.sp = f.sp;
    lane.func = f.func;
    w.rb[l] = f.rbase;
    if let Op::Call(ci) = &prog.code[f.call_pc as usize].op {
        for (k, &(off, slot, size)) in ci.rets.iter().enumerate() {
            let (off, size) = match (ci.target, callee.rets.get(k)) {
                (Some(_), Some(r)) => (r.offset, r.size),
                _ => (off, size),
            };
            let src = callee_lbase + off as usize;
            let lane = &mut w.lanes[l];
            match slot {
                Slot::Frame(o) => {
                    let dst = lane.lbase + o as usize;
                    // decode sized both slots from the callee's signature
                    copy_local(&mut lane.local, src, dst, size as usize);
                }
                Slot::Reg(r) => {
                    let v = read_le(&lane.local, src as u64, size.min(8)).unwrap_or(0);
                    w.set(l, r, v);
                }
                Slot::Imm(_) => {}
            }
        }
    }
    f.call_pc + 1
}

/// `alloca`: takes `size` bytes aligned to `align` from the top of the lane's dynamic stack,
/// growing its local memory; the local address of the block, or an error when the stack
/// would pass the per-thread limit (CUDA's `cudaLimitStackSize`, `OMPCC_STACK_SIZE`).
pub(super) fn alloca(env: &Env, lane: &mut Lane, size: u64, align: u32) -> Result<u64, String> {
    let limit = env.l.stack_limit;
    let at = lane.sp.div_ceil(align as usize) * align as usize;
    let end = usize::try_from(size)
        .ok()
        .and_then(|n| at.checked_add(n))
        .filter(|&e| e <= limit);
    let Some(end) = end else {
        return Err(format!(
            "stack overflow: alloca of {size} bytes with {} bytes of the thread's stack in use, \
             more than its {limit} bytes (OMPCC_STACK_SIZE)",
            lane.sp
        ));
    };
    if lane.local.len() < end {
        lane.local.resize(end, 0);
    }
    lane.sp = end;
    Ok(at as u64)
}

/// `stackrestore`: frees every `alloca` of the current frame above `to`, which must lie
/// between the frame's end and the current top (a value `stacksave` returned in this frame).
pub(super) fn stack_restore(env: &Env, lane: &mut Lane, to: u64) -> Result<(), String> {
    let frame_end = lane.lbase + env.l.prog.funcs[lane.func as usize].frame_size as usize;
    match usize::try_from(to) {
        Ok(t) if (frame_end..=lane.sp).contains(&t) => {
            // nothing above the top is live (deeper frames have returned): later accesses
            // to freed blocks fault as out of bounds
            lane.sp = t;
            lane.local.truncate(t);
            Ok(())
        }
        _ => Err(format!(
            "stackrestore to 0x{to:x}, outside the current frame's stack [0x{frame_end:x}, 0x{:x}]",
            lane.sp
        )),
    }
}

/// Copies `len` bytes inside one local memory; false when either range is out of bounds.
pub(super) fn copy_local(local: &mut [u8], src: usize, dst: usize, len: usize) -> bool {
    let n = local.len();
    if src.checked_add(len).is_none_or(|e| e > n) || dst.checked_add(len).is_none_or(|e| e > n) {
        return false;
    }
    local.copy_within(src..src + len, dst);
    true
}
