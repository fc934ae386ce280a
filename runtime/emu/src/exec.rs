//! The interpreter: runs a grid of blocks over host threads, each block's warps in lockstep.
//!
//! Scheduling inside a warp: every lane has its own pc; the warp runs the group of lanes with
//! the smallest key (deepest call first, then lowest pc) until that group's pc passes the key
//! of another group ahead, which makes divergent lanes reconverge at the first instruction
//! they share. `.sync` warp instructions (shfl, vote, match, bar.warp) follow sm_70 rules:
//! a group waits there (`WSYNC`) until every live lane of its member mask has arrived. A
//! divergent group gets time slices of `SLICE` instructions, so a lane spinning on a lock
//! another group of its warp holds cannot starve it. Warps of a block run one at a time until
//! every lane has exited or waits at a barrier; then barriers whose thread count is met are
//! released, or the block fails with a deadlock error.
//!
//! Invariants: a lane's registers for the current frame are `regs[rbase..rbase+nregs]` and its
//! frame's local memory is `local[lbase..lbase+frame_size]`; every memory access goes through
//! `load`/`store`/the atomic path, which check mapping, bounds and alignment; faults become
//! `EmuError::Fault` naming kernel, block, thread, address and PTX line. Blocks share only
//! global memory, whose bytes are atomics (see `memory`).

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::alu::*;
use crate::error::{EmuError, FaultSite};
use crate::memory::{
    DeviceHeap, FUNC_WINDOW, GlobalMem, LOCAL_WINDOW, MemFault, PARAM_WINDOW, SHARED_WINDOW,
    WINDOW_SIZE,
};
use crate::printf::{self, ArgSource};
use crate::program::*;

mod access;
mod call;
mod grid;
mod stats;

use access::{
    Loc, PrintfArgs, count_banks, count_sectors, eff_addr, load, loc_addr, mem_msg, needed_align,
    offset_loc, read_cstr, read_le, reclass_generic, resolve, space_name, store, write_le,
};
use call::{alloca, do_call, do_ret, slot_read, slot_write, stack_restore};
pub(crate) use grid::run_grid;
pub use stats::LaunchStats;

/// Everything a launch needs.
pub(crate) struct Launch<'a> {
    pub prog: &'a Program,
    pub kernel: u32,
    pub gaddrs: &'a [u64],
    pub mem: &'a GlobalMem,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_shared: u32,
    pub sink: &'a Mutex<Box<dyn Write + Send>>,
    pub workers: u32,
    /// Per-thread local memory limit in bytes.
    pub stack_limit: usize,
    /// Most warp instructions one block may issue.
    pub max_block_insts: u64,
    /// Integer division or remainder by zero is a fault.
    pub div_check: bool,
    /// The device heap, when the program calls `malloc`/`free`.
    pub heap: Option<&'a Mutex<DeviceHeap>>,
}

/// Deepest call nesting per thread (hardware stacks allow far less).
const MAX_CALL_DEPTH: usize = 8192;
/// Most registers (all frames together) per thread, bounding host memory under recursion.
const MAX_FRAME_REGS: usize = 1 << 16;

/// Instructions a divergent group runs before another group of its warp gets a turn.
const SLICE: u32 = 1 << 10;

const RUN: u8 = 0;
const BAR: u8 = 1;
const EXIT: u8 = 2;
/// Waiting at a `.sync` warp instruction for the other lanes of its member mask.
const WSYNC: u8 = 3;

struct Frame {
    call_pc: u32,
    rbase: usize,
    lbase: usize,
    /// The caller's dynamic stack top.
    sp: usize,
    func: u32,
}

#[derive(Default)]
struct Lane {
    local: Vec<u8>,
    lbase: usize,
    /// Top of the current frame's dynamic stack (`alloca`): starts at the end of the frame;
    /// the next call's frame begins above it.
    sp: usize,
    func: u32,
    stack: Vec<Frame>,
}

/// A warp. Registers are slot-major (`regs[slot * 32 + lane]`), lane `l`'s current frame
/// starting at slot `rb[l]`: lanes in the same frame touch neighbouring words, and deeper
/// frames only append slots.
struct Warp {
    regs: Vec<u64>,
    rb: [usize; 32],
    id: u32,
    n: usize,
    lanes: Vec<Lane>,
    pc: [u32; 32],
    state: [u8; 32],
    /// Barrier id and expected count (0 = all threads) of waiting lanes.
    bar: [(u32, u32); 32],
    /// Waiting lanes whose barrier is `.aligned` (`bar.sync`).
    bar_aligned: u32,
    tid: [[u32; 3]; 32],
    /// Lanes released from `WSYNC` without their whole member mask (the rest exited or
    /// wait elsewhere): their next `.sync` instruction runs with the lanes present.
    forced: u32,
    /// Carry flag (CC.CF) per lane.
    carry: u32,
    /// Lanes waiting at a `bar.red`, their predicates, and where each wants the result.
    red_lanes: u32,
    red_pred: u32,
    red: [(BarRed, u32); 32],
}

struct Env<'a> {
    l: &'a Launch<'a>,
    ctaid: [u32; 3],
    shared: Vec<u8>,
    stats: LaunchStats,
    worker: u32,
    nwarps: u32,
    clock: u64,
    /// Warp instructions issued in the current block.
    block_insts: u64,
    start: Instant,
    /// Barrier arrivals (`bar.arrive`) per barrier id.
    arrived: [u32; 16],
    sectors: Vec<u64>,
    /// 4-byte words touched by the current shared-memory access.
    words: Vec<u64>,
    /// printf output of the current block (flushed in block order at the end of the launch).
    printed: Vec<u8>,
}

/// Bits of a lane mask, lowest first.
struct Bits(u32);
impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let l = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(l)
        }
    }
}

#[inline(always)]
fn key(depth: usize, pc: u32) -> u64 {
    ((u32::MAX as u64 - depth as u64) << 32) | pc as u64
}

impl Warp {
    #[inline(always)]
    fn get(&self, l: usize, r: u32) -> u64 {
        self.regs[(self.rb[l] + r as usize) * 32 + l]
    }
    #[inline(always)]
    fn set(&mut self, l: usize, r: u32, v: u64) {
        let i = (self.rb[l] + r as usize) * 32 + l;
        self.regs[i] = v;
    }
}

fn fault(env: &Env, w: &Warp, li: usize, pc: u32, msg: String) -> EmuError {
    EmuError::Fault {
        site: fault_site(env, w, li, pc),
        msg,
    }
}

/// Where lane `li` of `w` is when it faults at `pc`.
fn fault_site(env: &Env, w: &Warp, li: usize, pc: u32) -> Box<FaultSite> {
    let prog = env.l.prog;
    let (line, source) = match prog.code.get(pc as usize) {
        Some(i) => {
            let src = prog
                .files
                .get(i.src_file as usize)
                .map(|f| (f.clone(), i.src_line));
            (i.line, src)
        }
        None => (0, None),
    };
    Box::new(FaultSite {
        kernel: prog.funcs[env.l.kernel as usize].name.clone(),
        block: env.ctaid,
        thread: w.tid[li],
        ptx_line: line,
        source,
    })
}

#[inline(always)]
fn rd(env: &Env, w: &Warp, l: usize, s: Src) -> u64 {
    match s {
        Src::Reg(r) => w.get(l, r),
        Src::Imm(v) => v,
        Src::SReg(sr) => sreg(env, w, l, sr),
        Src::GlobalAddr(g, off) => env.l.gaddrs[g as usize].wrapping_add(off as u64),
        Src::FrameAddr(o) => (w.lanes[l].lbase + o as usize) as u64,
    }
}

fn sreg(env: &Env, w: &Warp, l: usize, s: SReg) -> u64 {
    let lm = |f: fn(u32) -> u32| f(l as u32) as u64;
    match s {
        SReg::Tid(d) => w.tid[l][d as usize] as u64,
        SReg::Ntid(d) => env.l.block[d as usize] as u64,
        SReg::Ctaid(d) => env.ctaid[d as usize] as u64,
        SReg::Nctaid(d) => env.l.grid[d as usize] as u64,
        SReg::LaneId => l as u64,
        SReg::WarpId => w.id as u64,
        SReg::NWarpId => env.nwarps as u64,
        SReg::SmId => env.worker as u64,
        SReg::NSmId => env.l.workers as u64,
        SReg::GridId => 1,
        SReg::Clock => env.clock & 0xffff_ffff,
        SReg::Clock64 => env.clock,
        SReg::GlobalTimer => env.start.elapsed().as_nanos() as u64,
        SReg::LanemaskEq => lm(|l| 1 << l),
        SReg::LanemaskLe => lm(|l| ((1u64 << (l + 1)) - 1) as u32),
        SReg::LanemaskLt => lm(|l| (1u32 << l) - 1),
        SReg::LanemaskGe => lm(|l| !((1u32 << l) - 1)),
        SReg::LanemaskGt => lm(|l| if l == 31 { 0 } else { !((1u32 << (l + 1)) - 1) }),
        SReg::DynSmem => env.l.dyn_shared as u64,
        SReg::TotalSmem => env.shared.len() as u64,
    }
}

fn run_warp(env: &mut Env, w: &mut Warp) -> Result<(), EmuError> {
    let prog = env.l.prog;
    let code = &prog.code[..];
    // after a time slice, the next group is the one after this key (fairness, see below)
    let mut rotate: Option<u64> = None;
    loop {
        // pick the group: deepest call, then lowest pc
        let mut best = u64::MAX;
        let mut lowest = u64::MAX;
        for li in 0..w.n {
            if w.state[li] == RUN {
                let k = key(w.lanes[li].stack.len(), w.pc[li]);
                lowest = lowest.min(k);
                if rotate.is_some_and(|r| k > r) {
                    best = best.min(k);
                }
            }
        }
        if best == u64::MAX {
            best = lowest;
        }
        rotate = None;
        if best == u64::MAX {
            // only lanes waiting at `.sync` instructions are left: let them go on
            let mut waiting = 0u32;
            for li in 0..w.n {
                if w.state[li] == WSYNC {
                    w.state[li] = RUN;
                    waiting |= 1 << li;
                }
            }
            if waiting == 0 {
                return Ok(());
            }
            w.forced |= waiting;
            continue;
        }
        let mut gmask = 0u32;
        let mut next_other = u64::MAX;
        let mut divergent = false;
        for li in 0..w.n {
            if w.state[li] == WSYNC && key(w.lanes[li].stack.len(), w.pc[li]) == best {
                // the lanes it waited for have caught up
                w.state[li] = RUN;
            }
            if w.state[li] == RUN {
                let k = key(w.lanes[li].stack.len(), w.pc[li]);
                if k == best {
                    gmask |= 1 << li;
                } else {
                    divergent = true;
                    // merge only with groups ahead; groups behind wait for their turn
                    if k > best {
                        next_other = next_other.min(k);
                    }
                }
            }
        }
        let depth_key = best & !0xffff_ffff;
        let mut pc = best as u32;
        let mut slice = SLICE;
        loop {
            // A divergent group that spins (waiting for a lock another group of the warp
            // holds) must not starve that group: after a slice, let the next group run.
            if divergent {
                slice -= 1;
                if slice == 0 {
                    write_pcs(w, gmask, pc);
                    rotate = Some(depth_key | pc as u64);
                    break;
                }
            }
            env.block_insts += 1;
            if env.block_insts > env.l.max_block_insts {
                let li = gmask.trailing_zeros() as usize;
                let limit = env.l.max_block_insts;
                return Err(fault(
                    env,
                    w,
                    li,
                    pc,
                    format!("block ran more than {limit} warp instructions (endless loop?)"),
                ));
            }
            let Some(inst) = code.get(pc as usize) else {
                let li = gmask.trailing_zeros() as usize;
                return Err(fault(
                    env,
                    w,
                    li,
                    pc.saturating_sub(1),
                    "execution ran past the end of the function".into(),
                ));
            };
            let mut exec = gmask;
            if inst.guard != NO_GUARD {
                exec = 0;
                for l in Bits(gmask) {
                    if ((w.get(l, inst.guard) & 1) != 0) != inst.guard_neg {
                        exec |= 1 << l;
                    }
                }
            }
            env.clock += 1;
            let ci = inst.class as usize;
            env.stats.warp_insts[ci] += 1;
            env.stats.thread_insts[ci] += exec.count_ones() as u64;
            if inst.class == InstClass::Sync
                && let Op::Shfl { mask: Some(m), .. }
                | Op::Vote { mask: Some(m), .. }
                | Op::Match { mask: Some(m), .. }
                | Op::WarpSync { mask: Some(m) } = &inst.op
            {
                // sm_70 `.sync` semantics: wait until every live lane of the member mask
                // has arrived here
                let member = rd(env, w, gmask.trailing_zeros() as usize, *m) as u32;
                let mut live = 0u32;
                for li in 0..w.n {
                    if w.state[li] != EXIT {
                        live |= 1 << li;
                    }
                }
                if member & live & !gmask != 0 && w.forced & gmask == 0 {
                    env.stats.warp_insts[ci] -= 1;
                    env.stats.thread_insts[ci] -= exec.count_ones() as u64;
                    for l in Bits(gmask) {
                        w.state[l] = WSYNC;
                    }
                    write_pcs(w, gmask, pc);
                    break;
                }
                w.forced &= !gmask;
            }
            macro_rules! fail {
                ($l:expr, $msg:expr) => {
                    return Err(fault(env, w, $l, pc, $msg))
                };
            }
            match &inst.op {
                Op::Mov { d, a, bits } => {
                    let m = mask(*bits);
                    for l in Bits(exec) {
                        let v = rd(env, w, l, *a) & m;
                        w.set(l, *d, v);
                    }
                }
                Op::Pack {
                    d,
                    parts,
                    part_bits,
                } => {
                    for l in Bits(exec) {
                        let mut v = 0u64;
                        for (k, p) in parts.iter().enumerate() {
                            v |= (rd(env, w, l, *p) & mask(*part_bits)) << (k as u32 * part_bits);
                        }
                        w.set(l, *d, v);
                    }
                }
                Op::Unpack { ds, a, part_bits } => {
                    for l in Bits(exec) {
                        let v = rd(env, w, l, *a);
                        for (k, d) in ds.iter().enumerate() {
                            if let Some(d) = d {
                                w.set(l, *d, (v >> (k as u32 * part_bits)) & mask(*part_bits));
                            }
                        }
                    }
                }
                Op::Ld {
                    sp: MemSpace::KParam,
                    ty,
                    n,
                    d,
                    addr:
                        Addr {
                            base: Base::Abs,
                            off,
                        },
                } if exec != 0 => {
                    // kernel parameters at fixed offsets are the same for every lane: read once
                    let size = ty.bytes();
                    let mut vals = [0u64; 4];
                    for (k, v) in vals.iter_mut().enumerate().take(*n as usize) {
                        let a = (*off as u64).wrapping_add(k as u64 * size as u64);
                        let Some(x) = read_le(env.l.params, a, size)
                            .filter(|_| a.is_multiple_of(size as u64))
                        else {
                            fail!(
                                exec.trailing_zeros() as usize,
                                format!("bad kernel parameter load of {size} bytes at offset {a}")
                            );
                        };
                        *v = if ty.signed() {
                            sext(x, ty.bits()) as u64
                        } else {
                            x
                        };
                    }
                    for l in Bits(exec) {
                        for (k, &dk) in d.iter().enumerate().take(*n as usize) {
                            w.set(l, dk, vals[k]);
                        }
                    }
                }
                Op::Ld { sp, ty, n, d, addr } => {
                    let size = ty.bytes();
                    let total = size * *n as u32;
                    let mut global = false;
                    env.sectors.clear();
                    env.words.clear();
                    for l in Bits(exec) {
                        let a = eff_addr(env, w, l, addr);
                        let loc = resolve(*sp, a);
                        if !loc_addr(loc).is_multiple_of(needed_align(loc, size, total)) {
                            fail!(
                                l,
                                format!(
                                    "misaligned {} load of {total} bytes at address 0x{a:x}",
                                    space_name(loc)
                                )
                            );
                        }
                        match loc {
                            Loc::Global(g) => {
                                global = true;
                                for s in (g >> 5)..=(g.saturating_add(total as u64 - 1) >> 5) {
                                    env.sectors.push(s);
                                }
                            }
                            Loc::Shared(a) => {
                                for wd in (a >> 2)..=(a.saturating_add(total as u64 - 1) >> 2) {
                                    env.words.push(wd);
                                }
                            }
                            _ => {}
                        }
                        for (k, &dk) in d.iter().enumerate().take(*n as usize) {
                            let v = match load(
                                env,
                                &w.lanes[l],
                                offset_loc(loc, k as u64 * size as u64),
                                size,
                            ) {
                                Ok(v) => v,
                                Err(m) => fail!(l, m),
                            };
                            let v = if ty.signed() {
                                sext(v, ty.bits()) as u64
                            } else {
                                v
                            };
                            w.set(l, dk, v);
                        }
                    }
                    if !env.words.is_empty() {
                        count_banks(env);
                    }
                    if global {
                        count_sectors(env);
                    } else if *sp == MemSpace::Generic && exec != 0 {
                        reclass_generic(env, ci, exec, w, addr, *sp);
                    }
                }
                Op::St { sp, ty, n, s, addr } => {
                    let size = ty.bytes();
                    let total = size * *n as u32;
                    let mut global = false;
                    env.sectors.clear();
                    env.words.clear();
                    for l in Bits(exec) {
                        let a = eff_addr(env, w, l, addr);
                        let loc = resolve(*sp, a);
                        if !loc_addr(loc).is_multiple_of(needed_align(loc, size, total)) {
                            fail!(
                                l,
                                format!(
                                    "misaligned {} store of {total} bytes at address 0x{a:x}",
                                    space_name(loc)
                                )
                            );
                        }
                        match loc {
                            Loc::Global(g) => {
                                global = true;
                                for s in (g >> 5)..=(g.saturating_add(total as u64 - 1) >> 5) {
                                    env.sectors.push(s);
                                }
                            }
                            Loc::Shared(a) => {
                                for wd in (a >> 2)..=(a.saturating_add(total as u64 - 1) >> 2) {
                                    env.words.push(wd);
                                }
                            }
                            _ => {}
                        }
                        for (k, &sk) in s.iter().enumerate().take(*n as usize) {
                            let v = rd(env, w, l, sk);
                            if let Err(m) = store(
                                env,
                                &mut w.lanes[l],
                                offset_loc(loc, k as u64 * size as u64),
                                size,
                                v,
                            ) {
                                fail!(l, m);
                            }
                        }
                    }
                    if !env.words.is_empty() {
                        count_banks(env);
                    }
                    if global {
                        count_sectors(env);
                    } else if *sp == MemSpace::Generic && exec != 0 {
                        reclass_generic(env, ci, exec, w, addr, *sp);
                    }
                }
                Op::IBin {
                    op,
                    bits,
                    signed,
                    d,
                    a,
                    b,
                } => {
                    // the commonest operations get a loop of their own (no per-lane dispatch)
                    macro_rules! lanes {
                        ($f:expr) => {
                            for l in Bits(exec) {
                                let v = $f(rd(env, w, l, *a), rd(env, w, l, *b));
                                w.set(l, *d, v);
                            }
                        };
                    }
                    let m = mask(*bits);
                    match op {
                        IOp::Add => lanes!(|x: u64, y: u64| x.wrapping_add(y) & m),
                        IOp::Sub => lanes!(|x: u64, y: u64| x.wrapping_sub(y) & m),
                        IOp::MulLo => lanes!(|x: u64, y: u64| x.wrapping_mul(y) & m),
                        IOp::And => lanes!(|x: u64, y: u64| x & y & m),
                        IOp::Or => lanes!(|x: u64, y: u64| (x | y) & m),
                        IOp::Div | IOp::Rem if env.l.div_check => {
                            if let Some(l) = Bits(exec).find(|&l| rd(env, w, l, *b) & m == 0) {
                                let what = if *op == IOp::Div {
                                    "division"
                                } else {
                                    "remainder"
                                };
                                let msg = format!("integer {what} by zero");
                                return Err(fault(env, w, l, pc, msg));
                            }
                            lanes!(|x, y| ibin(*op, *bits, *signed, x, y))
                        }
                        _ => lanes!(|x, y| ibin(*op, *bits, *signed, x, y)),
                    }
                }
                Op::IUn {
                    op,
                    bits,
                    signed,
                    d,
                    a,
                } => {
                    for l in Bits(exec) {
                        let v = iun(*op, *bits, *signed, rd(env, w, l, *a));
                        w.set(l, *d, v);
                    }
                }
                Op::Mad {
                    mode,
                    bits,
                    signed,
                    sat,
                    d,
                    a,
                    b,
                    c,
                } => {
                    for l in Bits(exec) {
                        let (x, y, z) = (rd(env, w, l, *a), rd(env, w, l, *b), rd(env, w, l, *c));
                        let v = match mode {
                            MadMode::Lo => ibin(
                                IOp::Add,
                                *bits,
                                *signed,
                                ibin(IOp::MulLo, *bits, *signed, x, y),
                                z,
                            ),
                            MadMode::Hi if *sat && *signed => {
                                let p = (sext(x, *bits) as i128 * sext(y, *bits) as i128) >> bits;
                                let r = p + sext(z, *bits) as i128;
                                r.clamp(-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) as u64
                                    & mask(*bits)
                            }
                            MadMode::Hi => ibin(
                                IOp::Add,
                                *bits,
                                *signed,
                                ibin(IOp::MulHi, *bits, *signed, x, y),
                                z,
                            ),
                            MadMode::Wide => ibin(
                                IOp::Add,
                                bits * 2,
                                *signed,
                                ibin(IOp::MulWide, *bits, *signed, x, y),
                                z,
                            ),
                        };
                        w.set(l, *d, v);
                    }
                }
                Op::FBin {
                    op,
                    f64,
                    ftz,
                    sat,
                    rnd,
                    d,
                    a,
                    b,
                } => {
                    for l in Bits(exec) {
                        let v = fbin(
                            *op,
                            *f64,
                            *ftz,
                            *sat,
                            *rnd,
                            rd(env, w, l, *a),
                            rd(env, w, l, *b),
                        );
                        w.set(l, *d, v);
                    }
                }
                Op::FUn {
                    op,
                    f64,
                    ftz,
                    sat,
                    d,
                    a,
                } => {
                    for l in Bits(exec) {
                        let v = fun(*op, *f64, *ftz, *sat, rd(env, w, l, *a));
                        w.set(l, *d, v);
                    }
                }
                Op::Fma {
                    f64,
                    ftz,
                    sat,
                    rnd,
                    d,
                    a,
                    b,
                    c,
                } => {
                    for l in Bits(exec) {
                        let (x, y, z) = (rd(env, w, l, *a), rd(env, w, l, *b), rd(env, w, l, *c));
                        let v = if *f64 {
                            let r = f64v(x).mul_add(f64v(y), f64v(z));
                            (if *sat { sat64(r) } else { r }).to_bits()
                        } else {
                            let (mut x, mut y, mut z) = (f32v(x), f32v(y), f32v(z));
                            if *ftz {
                                (x, y, z) = (ftz32(x), ftz32(y), ftz32(z));
                            }
                            let mut r = if matches!(rnd, Rnd::Rz | Rnd::Rm | Rnd::Rp) {
                                to_f32((x as f64).mul_add(y as f64, z as f64), *rnd)
                            } else {
                                x.mul_add(y, z)
                            };
                            if *ftz {
                                r = ftz32(r);
                            }
                            if *sat {
                                r = sat64(r as f64) as f32;
                            }
                            r.to_bits() as u64
                        };
                        w.set(l, *d, v);
                    }
                }
                Op::Setp {
                    cmp,
                    ty,
                    d,
                    d2,
                    a,
                    b,
                    comb,
                } => {
                    for l in Bits(exec) {
                        let r = cmp_vals(*cmp, *ty, rd(env, w, l, *a), rd(env, w, l, *b));
                        let (p, q) = match comb {
                            Some((op, c, neg)) => {
                                let c = ((rd(env, w, l, *c) & 1) != 0) != *neg;
                                (boolop(*op, r, c), boolop(*op, !r, c))
                            }
                            None => (r, !r),
                        };
                        w.set(l, *d, p as u64);
                        if let Some(d2) = d2 {
                            w.set(l, *d2, q as u64);
                        }
                    }
                }
                Op::Set {
                    cmp,
                    ty,
                    dty,
                    d,
                    a,
                    b,
                    comb,
                } => {
                    for l in Bits(exec) {
                        let mut r = cmp_vals(*cmp, *ty, rd(env, w, l, *a), rd(env, w, l, *b));
                        if let Some((op, c, neg)) = comb {
                            let c = ((rd(env, w, l, *c) & 1) != 0) != *neg;
                            r = boolop(*op, r, c);
                        }
                        let v = match (r, dty) {
                            (false, _) => 0,
                            (true, Ty::F32) => 1.0f32.to_bits() as u64,
                            (true, _) => mask(dty.bits()),
                        };
                        w.set(l, *d, v);
                    }
                }
                Op::Selp { bits, d, a, b, p } => {
                    for l in Bits(exec) {
                        let v = if rd(env, w, l, *p) & 1 != 0 {
                            rd(env, w, l, *a)
                        } else {
                            rd(env, w, l, *b)
                        };
                        w.set(l, *d, v & mask(*bits));
                    }
                }
                Op::Slct {
                    bits,
                    cf32,
                    d,
                    a,
                    b,
                    c,
                } => {
                    for l in Bits(exec) {
                        let cv = rd(env, w, l, *c);
                        let take_a = if *cf32 {
                            f32v(cv) >= 0.0
                        } else {
                            sext(cv, 32) >= 0
                        };
                        let v = if take_a {
                            rd(env, w, l, *a)
                        } else {
                            rd(env, w, l, *b)
                        };
                        w.set(l, *d, v & mask(*bits));
                    }
                }
                Op::Cvt {
                    dt,
                    st,
                    rnd,
                    sat,
                    ftz,
                    d,
                    a,
                } => {
                    for l in Bits(exec) {
                        let v = cvt(*dt, *st, *rnd, *sat, *ftz, rd(env, w, l, *a));
                        w.set(l, *d, v);
                    }
                }
                Op::Cvta { to, sp, d, a } => {
                    let win = match sp {
                        MemSpace::Shared => SHARED_WINDOW,
                        MemSpace::Local => LOCAL_WINDOW,
                        MemSpace::KParam => PARAM_WINDOW,
                        _ => 0,
                    };
                    for l in Bits(exec) {
                        let x = rd(env, w, l, *a);
                        let v = if win == 0 {
                            x
                        } else if *to {
                            if x.wrapping_sub(win) >= WINDOW_SIZE {
                                fail!(
                                    l,
                                    format!(
                                        "cvta.to: generic address 0x{x:x} is not in the requested state space"
                                    )
                                );
                            }
                            x - win
                        } else {
                            x.wrapping_add(win)
                        };
                        w.set(l, *d, v);
                    }
                }
                Op::Bfe {
                    bits,
                    signed,
                    d,
                    a,
                    b,
                    c,
                } => {
                    for l in Bits(exec) {
                        let v = bfe(
                            *bits,
                            *signed,
                            rd(env, w, l, *a),
                            rd(env, w, l, *b),
                            rd(env, w, l, *c),
                        );
                        w.set(l, *d, v);
                    }
                }
                Op::Bfi {
                    bits,
                    d,
                    a,
                    b,
                    c,
                    e,
                } => {
                    for l in Bits(exec) {
                        let v = bfi(
                            *bits,
                            rd(env, w, l, *a),
                            rd(env, w, l, *b),
                            rd(env, w, l, *c),
                            rd(env, w, l, *e),
                        );
                        w.set(l, *d, v);
                    }
                }
                Op::AddC {
                    sub,
                    cin,
                    cout,
                    bits,
                    d,
                    a,
                    b,
                } => {
                    let m = mask(*bits);
                    for l in Bits(exec) {
                        let (x, y) = (
                            (rd(env, w, l, *a) & m) as i128,
                            (rd(env, w, l, *b) & m) as i128,
                        );
                        let c = (*cin && w.carry & (1 << l) != 0) as i128;
                        let full = if *sub { x - y - c } else { x + y + c };
                        let flag = if *sub { full < 0 } else { full > m as i128 };
                        if *cout {
                            w.carry = (w.carry & !(1 << l)) | ((flag as u32) << l);
                        }
                        w.set(l, *d, full as u64 & m);
                    }
                }
                Op::MadC {
                    hi,
                    cin,
                    cout,
                    bits,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let m = mask(*bits);
                    for l in Bits(exec) {
                        let (x, y, z) = (
                            rd(env, w, l, *a) & m,
                            rd(env, w, l, *b) & m,
                            rd(env, w, l, *c) & m,
                        );
                        let prod = x as u128 * y as u128;
                        let part = if *hi { prod >> bits } else { prod & m as u128 };
                        let carry_in = (*cin && w.carry & (1 << l) != 0) as u128;
                        let full = part + z as u128 + carry_in;
                        if *cout {
                            let flag = (full >> bits) & 1;
                            w.carry = (w.carry & !(1 << l)) | ((flag as u32) << l);
                        }
                        w.set(l, *d, full as u64 & m);
                    }
                }
                Op::Prmt { d, a, b, c } => {
                    for l in Bits(exec) {
                        let v = prmt(rd(env, w, l, *a), rd(env, w, l, *b), rd(env, w, l, *c));
                        w.set(l, *d, v);
                    }
                }
                Op::Bra { target } => {
                    if exec == gmask {
                        pc = *target;
                        if depth_key | pc as u64 >= next_other {
                            write_pcs(w, gmask, pc);
                            break;
                        }
                        continue;
                    } else if exec == 0 {
                        // fall through
                    } else {
                        env.stats.divergent_branches += 1;
                        write_pcs(w, exec, *target);
                        write_pcs(w, gmask & !exec, pc + 1);
                        break;
                    }
                }
                Op::Brx { index, targets } => {
                    let mut first = None;
                    let mut same = true;
                    for l in Bits(exec) {
                        let i = rd(env, w, l, *index) & 0xffff_ffff;
                        let Some(&t) = targets.get(i as usize) else {
                            fail!(
                                l,
                                format!("brx.idx index {i} outside its {} targets", targets.len())
                            );
                        };
                        w.pc[l] = t;
                        same &= first.is_none_or(|f| f == t);
                        first = Some(t);
                    }
                    match first {
                        Some(t) if same && exec == gmask => {
                            pc = t;
                            if depth_key | pc as u64 >= next_other {
                                write_pcs(w, gmask, pc);
                                break;
                            }
                            continue;
                        }
                        Some(_) => {
                            env.stats.divergent_branches += 1;
                            write_pcs(w, gmask & !exec, pc + 1);
                            break;
                        }
                        None => {}
                    }
                }
                Op::Call(ci) => {
                    for l in Bits(exec) {
                        if let Err(m) = do_call(env, w, l, pc, ci) {
                            fail!(l, m);
                        }
                    }
                    write_pcs(w, gmask & !exec, pc + 1);
                    break;
                }
                Op::Ret => {
                    for l in Bits(exec) {
                        if w.lanes[l].stack.is_empty() {
                            w.state[l] = EXIT;
                        } else {
                            w.pc[l] = do_ret(env, w, l);
                        }
                    }
                    write_pcs(w, gmask & !exec, pc + 1);
                    break;
                }
                Op::Exit => {
                    for l in Bits(exec) {
                        w.state[l] = EXIT;
                    }
                    gmask &= !exec;
                    if gmask == 0 {
                        break;
                    }
                }
                Op::Trap => {
                    if exec != 0 {
                        let site = fault_site(env, w, exec.trailing_zeros() as usize, pc);
                        return Err(EmuError::Trap {
                            site,
                            assertion: None,
                        });
                    }
                }
                Op::Bar {
                    id,
                    count,
                    arrive,
                    aligned,
                    red,
                } => {
                    for l in Bits(exec) {
                        let id = rd(env, w, l, *id);
                        if id >= 16 {
                            fail!(l, format!("barrier id {id} out of range (0..15)"));
                        }
                        let cnt = match count {
                            Some(c) => rd(env, w, l, *c) as u32,
                            None => 0,
                        };
                        if *arrive {
                            env.arrived[id as usize] += 1;
                        } else {
                            w.state[l] = BAR;
                            w.bar[l] = (id as u32, cnt);
                            w.bar_aligned = (w.bar_aligned & !(1 << l)) | ((*aligned as u32) << l);
                        }
                        if let Some((kind, d, c, neg)) = red {
                            let p = ((rd(env, w, l, *c) & 1) != 0) != *neg;
                            w.red_lanes |= 1 << l;
                            w.red_pred = (w.red_pred & !(1 << l)) | ((p as u32) << l);
                            w.red[l] = (*kind, *d);
                        }
                    }
                    if !*arrive && exec != 0 {
                        write_pcs(w, gmask, pc + 1);
                        break;
                    }
                }
                Op::WarpSync { .. } | Op::Nop => {}
                Op::Alloca { d, size, align } => {
                    for l in Bits(exec) {
                        let n = rd(env, w, l, *size);
                        match alloca(env, &mut w.lanes[l], n, *align) {
                            Ok(p) => w.set(l, *d, p),
                            Err(m) => fail!(l, m),
                        }
                    }
                }
                Op::StackSave { d } => {
                    for l in Bits(exec) {
                        let sp = w.lanes[l].sp as u64;
                        w.set(l, *d, sp);
                    }
                }
                Op::StackRestore { a } => {
                    for l in Bits(exec) {
                        let to = rd(env, w, l, *a);
                        if let Err(m) = stack_restore(env, &mut w.lanes[l], to) {
                            fail!(l, m);
                        }
                    }
                }
                Op::Fence => std::sync::atomic::fence(Ordering::SeqCst),
                Op::Atom {
                    sp,
                    op,
                    ty,
                    d,
                    addr,
                    b,
                    c,
                } => {
                    let size = ty.bytes();
                    for l in Bits(exec) {
                        let a = eff_addr(env, w, l, addr);
                        let loc = resolve(*sp, a);
                        if !loc_addr(loc).is_multiple_of(size as u64) {
                            fail!(
                                l,
                                format!(
                                    "misaligned {} atomic of {size} bytes at address 0x{a:x}",
                                    space_name(loc)
                                )
                            );
                        }
                        let (bv, cv) = (rd(env, w, l, *b), rd(env, w, l, *c));
                        let old = match loc {
                            Loc::Global(g) => match env
                                .l
                                .mem
                                .atomic(g, size, |old| atom_apply(*op, *ty, old, bv, cv))
                            {
                                Ok(v) => v,
                                Err(f) => fail!(l, mem_msg("atomic", loc, g, size, Some(f), 0)),
                            },
                            Loc::Shared(_) | Loc::Local(_) => {
                                let old = match load(env, &w.lanes[l], loc, size) {
                                    Ok(v) => v,
                                    Err(m) => fail!(l, m),
                                };
                                let new = atom_apply(*op, *ty, old, bv, cv);
                                if let Err(m) = store(env, &mut w.lanes[l], loc, size, new) {
                                    fail!(l, m);
                                }
                                old
                            }
                            Loc::KParam(_) => fail!(l, "atomic on kernel parameter space".into()),
                        };
                        if let Some(d) = d {
                            w.set(l, *d, old);
                        }
                    }
                }
                Op::Shfl {
                    mode,
                    d,
                    p,
                    a,
                    b,
                    c,
                    ..
                } => {
                    let mut vals = [0u64; 32];
                    let mut ok = [false; 32];
                    for l in Bits(exec) {
                        let bval = (rd(env, w, l, *b) & 0x1f) as i32;
                        let cv = rd(env, w, l, *c) as u32;
                        let clamp = (cv & 0x1f) as i32;
                        let seg = ((cv >> 8) & 0x1f) as i32;
                        let lane = l as i32;
                        let max_lane = (lane & seg) | (clamp & !seg);
                        let min_lane = lane & seg;
                        let (j, pv) = match mode {
                            ShflMode::Up => (lane - bval, lane - bval >= max_lane),
                            ShflMode::Down => (lane + bval, lane + bval <= max_lane),
                            ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
                            ShflMode::Idx => {
                                let j = min_lane | (bval & !seg);
                                (j, j <= max_lane)
                            }
                        };
                        let j = if pv && (0..w.n as i32).contains(&j) {
                            j as usize
                        } else {
                            l
                        };
                        vals[l] = rd(env, w, j, *a) & 0xffff_ffff;
                        ok[l] = pv;
                    }
                    for l in Bits(exec) {
                        w.set(l, *d, vals[l]);
                        if let Some(p) = p {
                            w.set(l, *p, ok[l] as u64);
                        }
                    }
                }
                Op::Vote {
                    mode, d, a, neg, ..
                } => {
                    let mut ballot = 0u32;
                    for l in Bits(exec) {
                        if ((rd(env, w, l, *a) & 1) != 0) != *neg {
                            ballot |= 1 << l;
                        }
                    }
                    let v = match mode {
                        VoteMode::Ballot => ballot as u64,
                        VoteMode::All => (ballot == exec) as u64,
                        VoteMode::Any => (ballot != 0) as u64,
                        VoteMode::Uni => (ballot == exec || ballot == 0) as u64,
                    };
                    for l in Bits(exec) {
                        w.set(l, *d, v);
                    }
                }
                Op::Testp { kind, f64, d, a } => {
                    for l in Bits(exec) {
                        let v = rd(env, w, l, *a);
                        let x = if *f64 { f64v(v) } else { f32v(v) as f64 };
                        // f32 subnormals are normal f64 values: classify in the source width
                        let sub = if *f64 {
                            x.is_subnormal()
                        } else {
                            f32v(v).is_subnormal()
                        };
                        let r = match kind {
                            TestKind::Finite => x.is_finite(),
                            TestKind::Infinite => x.is_infinite(),
                            TestKind::Number => !x.is_nan(),
                            TestKind::NotANumber => x.is_nan(),
                            TestKind::Normal => x.is_finite() && x != 0.0 && !sub,
                            TestKind::Subnormal => sub,
                        };
                        w.set(l, *d, r as u64);
                    }
                }
                Op::Activemask { d } => {
                    for l in Bits(exec) {
                        w.set(l, *d, gmask as u64);
                    }
                }
                Op::Match {
                    all, bits, d, p, a, ..
                } => {
                    let mut vals = [0u64; 32];
                    for l in Bits(exec) {
                        vals[l] = rd(env, w, l, *a) & mask(*bits);
                    }
                    let mut same_all = true;
                    let first = vals[exec.trailing_zeros().min(31) as usize];
                    for l in Bits(exec) {
                        same_all &= vals[l] == first;
                    }
                    for l in Bits(exec) {
                        let v = if *all {
                            if same_all { exec as u64 } else { 0 }
                        } else {
                            Bits(exec)
                                .filter(|&k| vals[k] == vals[l])
                                .fold(0u64, |m, k| m | (1 << k))
                        };
                        w.set(l, *d, v);
                        if let Some(p) = p {
                            w.set(l, *p, same_all as u64);
                        }
                    }
                }
                Op::Vprintf { fmt, args, ret } => {
                    for l in Bits(exec) {
                        let fp = slot_read(w, l, *fmt, 8);
                        let ap = slot_read(w, l, *args, 8);
                        let lane = &w.lanes[l];
                        let text = match read_cstr(env, lane, fp) {
                            Ok(t) => t,
                            Err(m) => fail!(l, format!("vprintf format string: {m}")),
                        };
                        let out = match printf::format(
                            &text,
                            &mut PrintfArgs {
                                env,
                                lane,
                                base: ap,
                            },
                        ) {
                            Ok(o) => o,
                            Err(m) => fail!(l, format!("vprintf: {m}")),
                        };
                        env.printed.extend_from_slice(&out);
                        if let Some(r) = ret {
                            slot_write(w, l, *r, 4, out.len() as u64);
                        }
                    }
                }
                Op::AssertFail {
                    message,
                    file,
                    line,
                    function,
                } => {
                    if exec != 0 {
                        let l = exec.trailing_zeros() as usize;
                        let lane = &w.lanes[l];
                        let text = |slot: Slot| match read_cstr(env, lane, slot_read(w, l, slot, 8))
                        {
                            Ok(t) => Ok(String::from_utf8_lossy(&t).into_owned()),
                            Err(m) => Err(format!("__assertfail: {m}")),
                        };
                        let (message, file, function) =
                            match (text(*message), text(*file), text(*function)) {
                                (Ok(m), Ok(f), Ok(func)) => (m, f, func),
                                (Err(m), _, _) | (_, Err(m), _) | (_, _, Err(m)) => fail!(l, m),
                            };
                        let line = slot_read(w, l, *line, 4) as u32;
                        return Err(EmuError::Trap {
                            site: fault_site(env, w, l, pc),
                            assertion: Some(format!(
                                "{file}:{line}: {function}: Assertion `{message}' failed."
                            )),
                        });
                    }
                }
                Op::Malloc { size, ret } => {
                    let Some(heap) = env.l.heap else {
                        fail!(
                            exec.trailing_zeros() as usize,
                            "malloc without a device heap".into()
                        );
                    };
                    for l in Bits(exec) {
                        let bytes = slot_read(w, l, *size, 8);
                        let p = heap.lock().unwrap_or_else(|p| p.into_inner()).malloc(bytes);
                        if let Some(r) = ret {
                            slot_write(w, l, *r, 8, p);
                        }
                    }
                }
                Op::Free { ptr } => {
                    for l in Bits(exec) {
                        let p = slot_read(w, l, *ptr, 8);
                        let freed = p == 0
                            || env.l.heap.is_some_and(|h| {
                                h.lock().unwrap_or_else(|p| p.into_inner()).free(p)
                            });
                        if !freed {
                            fail!(l, format!("free of 0x{p:x}, which malloc did not return"));
                        }
                    }
                }
            }
            pc += 1;
            if depth_key | pc as u64 >= next_other {
                write_pcs(w, gmask, pc);
                break;
            }
        }
    }
}

#[inline(always)]
fn write_pcs(w: &mut Warp, mask: u32, pc: u32) {
    for l in Bits(mask) {
        w.pc[l] = pc;
    }
}
