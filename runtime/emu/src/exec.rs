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

/// Per-launch counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    /// Warp-level instructions issued, by `InstClass` (index with `InstClass as usize`).
    pub warp_insts: [u64; InstClass::COUNT],
    /// Thread-level instructions executed (active lanes), by class.
    pub thread_insts: [u64; InstClass::COUNT],
    /// Warp-level global loads/stores (each one a memory request).
    pub global_requests: u64,
    /// Distinct 32-byte sectors touched by those requests, summed.
    pub global_sectors: u64,
    /// Warp-level conditional branches whose lanes went both ways.
    pub divergent_branches: u64,
    /// Warp-level shared-memory loads/stores.
    pub shared_requests: u64,
    /// Passes those needed: per request, the most distinct words one of the 32 four-byte
    /// banks served (1 = conflict-free; same-word accesses broadcast).
    pub shared_wavefronts: u64,
    /// Blocks run.
    pub blocks: u64,
    /// Threads run.
    pub threads: u64,
}

impl LaunchStats {
    /// Warp-level instructions of one class.
    pub fn warp(&self, c: InstClass) -> u64 {
        self.warp_insts[c as usize]
    }
    /// Thread-level instructions of one class.
    pub fn thread(&self, c: InstClass) -> u64 {
        self.thread_insts[c as usize]
    }
    /// All thread-level instructions.
    pub fn total_thread_insts(&self) -> u64 {
        self.thread_insts.iter().sum()
    }
    /// All warp-level instructions.
    pub fn total_warp_insts(&self) -> u64 {
        self.warp_insts.iter().sum()
    }
    fn add(&mut self, o: &LaunchStats) {
        for i in 0..InstClass::COUNT {
            self.warp_insts[i] += o.warp_insts[i];
            self.thread_insts[i] += o.thread_insts[i];
        }
        self.global_requests += o.global_requests;
        self.global_sectors += o.global_sectors;
        self.divergent_branches += o.divergent_branches;
        self.shared_requests += o.shared_requests;
        self.shared_wavefronts += o.shared_wavefronts;
        self.blocks += o.blocks;
        self.threads += o.threads;
    }
}

impl std::fmt::Display for LaunchStats {
    /// One line: thread instructions by class, then global-memory coalescing.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} thread insts (", self.total_thread_insts())?;
        let mut first = true;
        for c in InstClass::ALL {
            let n = self.thread(c);
            if n > 0 {
                write!(f, "{}{} {n}", if first { "" } else { ", " }, c.name())?;
                first = false;
            }
        }
        write!(
            f,
            "); {} global requests, {} sectors",
            self.global_requests, self.global_sectors
        )?;
        if self.global_requests > 0 {
            write!(
                f,
                " ({:.2}/request)",
                self.global_sectors as f64 / self.global_requests as f64
            )?;
        }
        write!(f, "; {} divergent branches", self.divergent_branches)?;
        if self.shared_requests > 0 {
            write!(
                f,
                "; {} shared requests, {} wavefronts",
                self.shared_requests, self.shared_wavefronts
            )?;
        }
        Ok(())
    }
}

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

/// Runs the whole grid. Blocks go to `workers` host threads; the error of the lowest block
/// index wins so failures are reproducible.
pub(crate) fn run_grid(l: &Launch) -> Result<LaunchStats, EmuError> {
    let nblocks = l.grid[0] as u64 * l.grid[1] as u64 * l.grid[2] as u64;
    let next = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let first_err: Mutex<Option<(u64, EmuError)>> = Mutex::new(None);
    let total = Mutex::new(LaunchStats::default());
    let output: Mutex<Vec<(u64, Vec<u8>)>> = Mutex::new(Vec::new());
    let start = Instant::now();
    let workers = l.workers.clamp(1, 256).min(nblocks.max(1) as u32);
    let work = |worker: u32| {
        let mut env = Env {
            l,
            ctaid: [0; 3],
            shared: Vec::new(),
            stats: LaunchStats::default(),
            worker,
            nwarps: 0,
            clock: 0,
            block_insts: 0,
            start,
            arrived: [0; 16],
            sectors: Vec::with_capacity(128),
            words: Vec::with_capacity(128),
            printed: Vec::new(),
        };
        let mut warps = Vec::new();
        loop {
            if abort.load(Ordering::Relaxed) {
                break;
            }
            let b = next.fetch_add(1, Ordering::Relaxed);
            if b >= nblocks {
                break;
            }
            let gx = l.grid[0] as u64;
            let gy = l.grid[1] as u64;
            env.ctaid = [
                (b % gx) as u32,
                ((b / gx) % gy) as u32,
                (b / (gx * gy)) as u32,
            ];
            let r = run_block(&mut env, &mut warps);
            if !env.printed.is_empty() {
                let out = std::mem::take(&mut env.printed);
                output
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((b, out));
            }
            if let Err(e) = r {
                abort.store(true, Ordering::Relaxed);
                let mut fe = first_err.lock().unwrap_or_else(|p| p.into_inner());
                if fe.as_ref().is_none_or(|(fb, _)| b < *fb) {
                    *fe = Some((b, e));
                }
                break;
            }
        }
        total
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .add(&env.stats);
    };
    if workers == 1 {
        work(0);
    } else {
        std::thread::scope(|s| {
            for w in 0..workers {
                let work = &work;
                s.spawn(move || work(w));
            }
        });
    }
    // Device printf is buffered like CUDA's and shown when the kernel ends, in block order
    // so that output does not depend on how blocks were spread over host threads.
    let mut output = output.into_inner().unwrap_or_else(|p| p.into_inner());
    if !output.is_empty() {
        output.sort_by_key(|(b, _)| *b);
        let mut sink = l.sink.lock().unwrap_or_else(|p| p.into_inner());
        for (_, text) in output {
            // the sink is the user's; an I/O error there is not a kernel fault
            let _ = sink.write_all(&text);
        }
    }
    if let Some((_, e)) = first_err.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(total.into_inner().unwrap_or_else(|p| p.into_inner()))
}

fn run_block(env: &mut Env, warps: &mut Vec<Warp>) -> Result<(), EmuError> {
    let l = env.l;
    let prog = l.prog;
    let kf = &prog.funcs[l.kernel as usize];
    let nthreads = (l.block[0] * l.block[1] * l.block[2]) as usize;
    let nw = nthreads.div_ceil(32);
    env.nwarps = nw as u32;
    env.block_insts = 0;
    env.arrived = [0; 16];
    env.shared.clear();
    env.shared.resize(
        prog.dyn_shared_base.max(prog.static_shared) as usize + l.dyn_shared as usize,
        0,
    );
    let nregs = kf.nregs as usize;
    let lbase = prog.static_local as usize;
    let local_len = lbase + kf.frame_size as usize;
    while warps.len() < nw {
        warps.push(Warp {
            regs: Vec::new(),
            rb: [0; 32],
            id: 0,
            n: 0,
            lanes: Vec::new(),
            pc: [0; 32],
            state: [EXIT; 32],
            bar: [(0, 0); 32],
            bar_aligned: 0,
            tid: [[0; 3]; 32],
            forced: 0,
            carry: 0,
            red_lanes: 0,
            red_pred: 0,
            red: [(BarRed::Popc, 0); 32],
        });
    }
    for (wi, w) in warps.iter_mut().take(nw).enumerate() {
        w.id = wi as u32;
        w.regs.clear();
        w.regs.resize(nregs * 32, 0);
        w.rb = [0; 32];
        w.forced = 0;
        w.carry = 0;
        w.red_lanes = 0;
        w.red_pred = 0;
        w.n = (nthreads - wi * 32).min(32);
        w.lanes.resize_with(w.n, Lane::default);
        for (li, lane) in w.lanes.iter_mut().enumerate() {
            let t = wi * 32 + li;
            let bx = l.block[0] as usize;
            let by = l.block[1] as usize;
            w.tid[li] = [
                (t % bx) as u32,
                ((t / bx) % by) as u32,
                (t / (bx * by)) as u32,
            ];
            lane.local.clear();
            lane.local.resize(local_len, 0);
            lane.lbase = lbase;
            lane.sp = local_len;
            lane.func = l.kernel;
            lane.stack.clear();
            w.pc[li] = kf.entry;
            w.state[li] = RUN;
        }
        for li in w.n..32 {
            w.state[li] = EXIT;
        }
    }
    env.stats.blocks += 1;
    env.stats.threads += nthreads as u64;
    loop {
        for w in warps.iter_mut().take(nw) {
            run_warp(env, w)?;
        }
        // every lane has exited or waits at a barrier
        let mut live = 0u32;
        let mut waiting = [0u32; 16];
        let mut need = [0u32; 16];
        for w in warps.iter().take(nw) {
            for li in 0..w.n {
                match w.state[li] {
                    EXIT => {}
                    BAR => {
                        live += 1;
                        let (id, cnt) = w.bar[li];
                        waiting[id as usize] += 1;
                        if cnt != 0 {
                            need[id as usize] = cnt;
                        }
                    }
                    _ => live += 1,
                }
            }
        }
        if live == 0 {
            return Ok(());
        }
        for w in warps.iter().take(nw) {
            check_aligned_barrier(env, w)?;
        }
        let mut released = false;
        for id in 0..16 {
            let need_id = if need[id] != 0 { need[id] } else { live };
            if waiting[id] > 0 && waiting[id] + env.arrived[id] >= need_id {
                released = true;
                env.arrived[id] = 0;
                // bar.red: reduce the predicates of the threads released together
                let mut count = 0u32;
                let mut members = 0u32;
                for w in warps.iter().take(nw) {
                    for li in 0..w.n {
                        if w.state[li] == BAR
                            && w.bar[li].0 as usize == id
                            && w.red_lanes & (1 << li) != 0
                        {
                            members += 1;
                            count += (w.red_pred >> li) & 1;
                        }
                    }
                }
                for w in warps.iter_mut().take(nw) {
                    for li in 0..w.n {
                        if w.state[li] == BAR && w.bar[li].0 as usize == id {
                            w.state[li] = RUN;
                            if w.red_lanes & (1 << li) != 0 {
                                w.red_lanes &= !(1 << li);
                                let (kind, d) = w.red[li];
                                let v = match kind {
                                    BarRed::Popc => count as u64,
                                    BarRed::And => (count == members) as u64,
                                    BarRed::Or => (count > 0) as u64,
                                };
                                w.set(li, d, v);
                            }
                        }
                    }
                }
            }
        }
        if !released {
            // report the first waiting thread
            for w in warps.iter().take(nw) {
                for li in 0..w.n {
                    if w.state[li] == BAR {
                        let (id, _) = w.bar[li];
                        let pc = w.pc[li].saturating_sub(1);
                        return Err(fault(
                            env,
                            w,
                            li,
                            pc,
                            format!(
                                "barrier deadlock: {} of {} live threads wait at barrier {id}",
                                waiting[id as usize], live
                            ),
                        ));
                    }
                }
            }
            return Err(EmuError::api("internal: barrier state inconsistent"));
        }
    }
}

/// An `.aligned` barrier (`bar.sync`) must be executed by every live thread of the warp at
/// the same instruction: on a GPU, a warp whose threads wait at different barrier
/// instructions (or some at a barrier, some elsewhere) is undefined behaviour and often hangs.
/// Called when every lane has exited or waits at a barrier. Non-aligned `barrier.sync` may be
/// reached divergently.
fn check_aligned_barrier(env: &Env, w: &Warp) -> Result<(), EmuError> {
    let Some(first) = (0..w.n).find(|&l| w.state[l] == BAR && w.bar_aligned & (1 << l) != 0) else {
        return Ok(());
    };
    for l in 0..w.n {
        if w.state[l] == EXIT || (w.state[l] == BAR && w.pc[l] == w.pc[first]) {
            continue;
        }
        let pc = w.pc[first].saturating_sub(1);
        return Err(fault(
            env,
            w,
            first,
            pc,
            format!(
                "aligned barrier (bar.sync) reached by part of a warp: lane {l} \
                 waits at another instruction; divergent threads need the non-aligned \
                 barrier.sync"
            ),
        ));
    }
    Ok(())
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

/// A resolved memory location.
#[derive(Clone, Copy)]
enum Loc {
    Global(u64),
    Shared(u64),
    Local(u64),
    KParam(u64),
}

#[inline(always)]
fn resolve(sp: MemSpace, a: u64) -> Loc {
    match sp {
        MemSpace::Global => Loc::Global(a),
        MemSpace::Shared => Loc::Shared(a),
        MemSpace::Local => Loc::Local(a),
        MemSpace::KParam => Loc::KParam(a),
        MemSpace::Generic => {
            if a.wrapping_sub(SHARED_WINDOW) < WINDOW_SIZE {
                Loc::Shared(a - SHARED_WINDOW)
            } else if a.wrapping_sub(LOCAL_WINDOW) < WINDOW_SIZE {
                Loc::Local(a - LOCAL_WINDOW)
            } else if a.wrapping_sub(PARAM_WINDOW) < WINDOW_SIZE {
                Loc::KParam(a - PARAM_WINDOW)
            } else {
                Loc::Global(a)
            }
        }
    }
}

fn space_name(loc: Loc) -> &'static str {
    match loc {
        Loc::Global(_) => "global",
        Loc::Shared(_) => "shared",
        Loc::Local(_) => "local",
        Loc::KParam(_) => "parameter",
    }
}

#[inline(always)]
fn read_le(buf: &[u8], off: u64, len: u32) -> Option<u64> {
    let o = usize::try_from(off).ok()?;
    let s = buf.get(o..o.checked_add(len as usize)?)?;
    let mut v = [0u8; 8];
    v[..s.len()].copy_from_slice(s);
    Some(u64::from_le_bytes(v))
}

#[inline(always)]
fn write_le(buf: &mut [u8], off: u64, len: u32, v: u64) -> bool {
    let Ok(o) = usize::try_from(off) else {
        return false;
    };
    let Some(end) = o.checked_add(len as usize) else {
        return false;
    };
    match buf.get_mut(o..end) {
        Some(s) => {
            s.copy_from_slice(&v.to_le_bytes()[..len as usize]);
            true
        }
        None => false,
    }
}

fn mem_msg(kind: &str, loc: Loc, addr: u64, len: u32, f: Option<MemFault>, limit: usize) -> String {
    let sp = space_name(loc);
    match f {
        Some(MemFault::Unmapped) => {
            format!("{kind} of {len} bytes at unmapped {sp} address 0x{addr:x}")
        }
        Some(MemFault::OutOfBounds { base, size }) => format!(
            "out-of-bounds {sp} {kind} of {len} bytes at address 0x{addr:x} (allocation 0x{base:x} of {size} bytes)"
        ),
        None => format!(
            "out-of-bounds {sp} {kind} of {len} bytes at address 0x{addr:x} ({sp} memory is {limit} bytes)"
        ),
    }
}

#[inline]
fn load(env: &Env, lane: &Lane, loc: Loc, len: u32) -> Result<u64, String> {
    match loc {
        Loc::Global(a) => env
            .l
            .mem
            .read(a, len)
            .map_err(|f| mem_msg("load", loc, a, len, Some(f), 0)),
        Loc::Shared(a) => read_le(&env.shared, a, len)
            .ok_or_else(|| mem_msg("load", loc, a, len, None, env.shared.len())),
        Loc::Local(a) => read_le(&lane.local, a, len)
            .ok_or_else(|| mem_msg("load", loc, a, len, None, lane.local.len())),
        Loc::KParam(a) => read_le(env.l.params, a, len)
            .ok_or_else(|| mem_msg("load", loc, a, len, None, env.l.params.len())),
    }
}

#[inline]
fn store(env: &mut Env, lane: &mut Lane, loc: Loc, len: u32, v: u64) -> Result<(), String> {
    match loc {
        Loc::Global(a) => env
            .l
            .mem
            .write(a, len, v)
            .map_err(|f| mem_msg("store", loc, a, len, Some(f), 0)),
        Loc::Shared(a) => {
            let n = env.shared.len();
            if write_le(&mut env.shared, a, len, v) {
                Ok(())
            } else {
                Err(mem_msg("store", loc, a, len, None, n))
            }
        }
        Loc::Local(a) => {
            let n = lane.local.len();
            if write_le(&mut lane.local, a, len, v) {
                Ok(())
            } else {
                Err(mem_msg("store", loc, a, len, None, n))
            }
        }
        Loc::KParam(a) => Err(format!("store to kernel parameter space at offset 0x{a:x}")),
    }
}

fn loc_addr(loc: Loc) -> u64 {
    match loc {
        Loc::Global(a) | Loc::Shared(a) | Loc::Local(a) | Loc::KParam(a) => a,
    }
}

#[inline(always)]
fn eff_addr(env: &Env, w: &Warp, l: usize, a: &Addr) -> u64 {
    let base = match a.base {
        Base::Reg(r) => w.get(l, r),
        Base::Global(g) => env.l.gaddrs[g as usize],
        Base::Frame(o) => (w.lanes[l].lbase + o as usize) as u64,
        Base::Abs => 0,
    };
    base.wrapping_add(a.off as u64)
}

/// Reads a call slot of the caller (bytes of a frame parameter, a register or an immediate).
/// Writes the low `size` bytes of `v` to a call's result slot in lane `l`.
fn slot_write(w: &mut Warp, l: usize, s: Slot, size: u32, v: u64) {
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

fn slot_read(w: &Warp, l: usize, s: Slot, size: u32) -> u64 {
    let lane = &w.lanes[l];
    match s {
        Slot::Frame(o) => {
            read_le(&lane.local, (lane.lbase + o as usize) as u64, size.min(8)).unwrap_or(0)
        }
        Slot::Reg(r) => w.get(l, r),
        Slot::Imm(v) => v,
    }
}

struct PrintfArgs<'a, 'b> {
    env: &'a Env<'b>,
    lane: &'a Lane,
    base: u64,
}

impl ArgSource for PrintfArgs<'_, '_> {
    fn arg(&mut self, offset: u64, size: u32) -> Result<u64, String> {
        if self.base == 0 {
            return Err("printf argument buffer is null but the format needs arguments".into());
        }
        let a = self.base.wrapping_add(offset);
        load(self.env, self.lane, resolve(MemSpace::Generic, a), size)
    }
    fn string(&mut self, addr: u64) -> Result<Vec<u8>, String> {
        read_cstr(self.env, self.lane, addr)
    }
}

fn read_cstr(env: &Env, lane: &Lane, addr: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut a = addr;
    loop {
        let b = load(env, lane, resolve(MemSpace::Generic, a), 1)? as u8;
        if b == 0 {
            return Ok(out);
        }
        out.push(b);
        if out.len() > 1 << 20 {
            return Err("printf string longer than 1 MiB (missing NUL?)".into());
        }
        a = a.wrapping_add(1);
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

fn offset_loc(loc: Loc, k: u64) -> Loc {
    match loc {
        Loc::Global(a) => Loc::Global(a.wrapping_add(k)),
        Loc::Shared(a) => Loc::Shared(a.wrapping_add(k)),
        Loc::Local(a) => Loc::Local(a.wrapping_add(k)),
        Loc::KParam(a) => Loc::KParam(a.wrapping_add(k)),
    }
}

/// Alignment an access must have: the whole vector in global and shared memory (the
/// hardware faults otherwise); one element in parameter and local space, whose `.param`
/// slots compilers declare with element alignment and ptxas keeps in registers.
#[inline(always)]
fn needed_align(loc: Loc, elem: u32, total: u32) -> u64 {
    match loc {
        Loc::Global(_) | Loc::Shared(_) => total as u64,
        Loc::Local(_) | Loc::KParam(_) => elem as u64,
    }
}

/// Counts the bank conflicts of one warp-level shared-memory access.
fn count_banks(env: &mut Env) {
    let w = &mut env.words;
    w.sort_unstable();
    w.dedup();
    let mut per_bank = [0u32; 32];
    for &wd in w.iter() {
        per_bank[(wd % 32) as usize] += 1;
    }
    env.stats.shared_requests += 1;
    env.stats.shared_wavefronts += per_bank.iter().copied().max().unwrap_or(0) as u64;
}

/// Counts the distinct sectors gathered for one warp-level global access.
fn count_sectors(env: &mut Env) {
    let s = &mut env.sectors;
    s.sort_unstable();
    s.dedup();
    env.stats.global_requests += 1;
    env.stats.global_sectors += s.len() as u64;
}

/// A generic access that hit shared or local memory: move it from the global class.
fn reclass_generic(env: &mut Env, ci: usize, exec: u32, w: &Warp, addr: &Addr, sp: MemSpace) {
    let l = exec.trailing_zeros() as usize;
    let class = match resolve(sp, eff_addr(env, w, l, addr)) {
        Loc::Shared(_) => InstClass::SharedMem,
        _ => InstClass::LocalMem,
    } as usize;
    env.stats.warp_insts[ci] -= 1;
    env.stats.thread_insts[ci] -= exec.count_ones() as u64;
    env.stats.warp_insts[class] += 1;
    env.stats.thread_insts[class] += exec.count_ones() as u64;
}

/// The function a call goes to: the direct callee, or the one the lane's function pointer
/// names (checked against the call's argument and result counts).
fn call_target(env: &Env, w: &Warp, l: usize, ci: &CallInfo) -> Result<u32, String> {
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

fn do_call(env: &Env, w: &mut Warp, l: usize, pc: u32, ci: &CallInfo) -> Result<(), String> {
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
fn do_ret(env: &Env, w: &mut Warp, l: usize) -> u32 {
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
fn alloca(env: &Env, lane: &mut Lane, size: u64, align: u32) -> Result<u64, String> {
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
fn stack_restore(env: &Env, lane: &mut Lane, to: u64) -> Result<(), String> {
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
fn copy_local(local: &mut [u8], src: usize, dst: usize, len: usize) -> bool {
    let n = local.len();
    if src.checked_add(len).is_none_or(|e| e > n) || dst.checked_add(len).is_none_or(|e| e > n) {
        return false;
    }
    local.copy_within(src..src + len, dst);
    true
}
