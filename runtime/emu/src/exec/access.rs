//! Memory accesses of a lane: resolving a state-space address to a location, and the checked
//! `load`/`store` every instruction goes through (mapping, bounds, alignment), plus the
//! per-access counters (sectors, bank conflicts) and printf argument reads.

use super::*;

/// A resolved memory location.
#[derive(Clone, Copy)]
pub(super) enum Loc {
    Global(u64),
    Shared(u64),
    Local(u64),
    KParam(u64),
}

#[inline(always)]
pub(super) fn resolve(sp: MemSpace, a: u64) -> Loc {
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

pub(super) fn space_name(loc: Loc) -> &'static str {
    match loc {
        Loc::Global(_) => "global",
        Loc::Shared(_) => "shared",
        Loc::Local(_) => "local",
        Loc::KParam(_) => "parameter",
    }
}

#[inline(always)]
pub(super) fn read_le(buf: &[u8], off: u64, len: u32) -> Option<u64> {
    let o = usize::try_from(off).ok()?;
    let s = buf.get(o..o.checked_add(len as usize)?)?;
    let mut v = [0u8; 8];
    v[..s.len()].copy_from_slice(s);
    Some(u64::from_le_bytes(v))
}

#[inline(always)]
pub(super) fn write_le(buf: &mut [u8], off: u64, len: u32, v: u64) -> bool {
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

pub(super) fn mem_msg(
    kind: &str,
    loc: Loc,
    addr: u64,
    len: u32,
    f: Option<MemFault>,
    limit: usize,
) -> String {
    let sp = space_name(loc);
    match f {
        Some(MemFault::Unmapped) => {
            format!("{kind} of {len} bytes at unmapped {sp} address 0x{addr:x}")
        }
        Some(MemFault::Host) => format!(
            "{kind} of {len} bytes at host address 0x{addr:x}, which the process cannot access \
             (unified shared memory: addresses outside device allocations are the host's)"
        ),
        Some(MemFault::OutOfBounds { base, size }) => format!(
            "out-of-bounds {sp} {kind} of {len} bytes at address 0x{addr:x} (allocation 0x{base:x} of {size} bytes)"
        ),
        None => format!(
            "out-of-bounds {sp} {kind} of {len} bytes at address 0x{addr:x} ({sp} memory is {limit} bytes)"
        ),
    }
}

#[inline]
pub(super) fn load(env: &Env, lane: &Lane, loc: Loc, len: u32) -> Result<u64, String> {
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
pub(super) fn store(
    env: &mut Env,
    lane: &mut Lane,
    loc: Loc,
    len: u32,
    v: u64,
) -> Result<(), String> {
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

pub(super) fn loc_addr(loc: Loc) -> u64 {
    match loc {
        Loc::Global(a) | Loc::Shared(a) | Loc::Local(a) | Loc::KParam(a) => a,
    }
}

#[inline(always)]
pub(super) fn eff_addr(env: &Env, w: &Warp, l: usize, a: &Addr) -> u64 {
    let base = match a.base {
        Base::Reg(r) => w.get(l, r),
        Base::Global(g) => env.l.gaddrs[g as usize],
        Base::Frame(o) => (w.lanes[l].lbase + o as usize) as u64,
        Base::Abs => 0,
    };
    base.wrapping_add(a.off as u64)
}

pub(super) struct PrintfArgs<'a, 'b> {
    pub(super) env: &'a Env<'b>,
    pub(super) lane: &'a Lane,
    pub(super) base: u64,
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

pub(super) fn read_cstr(env: &Env, lane: &Lane, addr: u64) -> Result<Vec<u8>, String> {
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
pub(super) fn offset_loc(loc: Loc, k: u64) -> Loc {
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
pub(super) fn needed_align(loc: Loc, elem: u32, total: u32) -> u64 {
    match loc {
        Loc::Global(_) | Loc::Shared(_) => total as u64,
        Loc::Local(_) | Loc::KParam(_) => elem as u64,
    }
}

/// Counts the bank conflicts of one warp-level shared-memory access.
pub(super) fn count_banks(env: &mut Env) {
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
pub(super) fn count_sectors(env: &mut Env) {
    let s = &mut env.sectors;
    s.sort_unstable();
    s.dedup();
    env.stats.global_requests += 1;
    env.stats.global_sectors += s.len() as u64;
}

/// A generic access that hit shared or local memory: move it from the global class.
pub(super) fn reclass_generic(
    env: &mut Env,
    ci: usize,
    exec: u32,
    w: &Warp,
    addr: &Addr,
    sp: MemSpace,
) {
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
