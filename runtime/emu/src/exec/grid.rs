//! Block scheduling: spreads a grid's blocks over host threads and runs each block's warps
//! until every lane has exited, releasing barriers or reporting a deadlock (see `exec`).

use super::*;

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

pub(super) fn run_block(env: &mut Env, warps: &mut Vec<Warp>) -> Result<(), EmuError> {
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
pub(super) fn check_aligned_barrier(env: &Env, w: &Warp) -> Result<(), EmuError> {
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
