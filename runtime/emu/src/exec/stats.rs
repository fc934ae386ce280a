//! Per-launch counters of the interpreter (instructions by class, memory transactions), and
//! their one-line summary.

use super::*;

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
    pub(super) fn add(&mut self, o: &LaunchStats) {
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
