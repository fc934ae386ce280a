//! Automatic offload's run-time choice (`-fopenmp-auto-offload`, DESIGN.md section 11).
//!
//! The compiler gives every offloaded loop two versions and calls
//! `__ompcc_auto_select(loc, trip, bytes, int_ops, float_ops, special, loads, stores,
//! coalesced_permille)` to pick one (per-iteration features of the loop, the trip count and
//! the bytes it maps filled in at run time), then `__ompcc_auto_done(loc)` when it ends.
//! The first choice is a prediction from the machine ([`Machine`]): the device's
//! multiprocessors, the host's threads, memory and transfer bandwidths. From then on each
//! loop keeps what it measured on each side ([`Chooser`]) and runs the faster, with
//! hysteresis so that two close sides do not alternate, and one probe of the side it has not
//! measured, so that a wrong first guess is corrected. The host version's time includes the
//! copies its `target update`s make, so the cost of moving data back counts.
//!
//! `OMPCC_AUTO_OFFLOAD=device|host` forces the side; on the emulator the model takes the
//! device (the emulator exists to test the device path); without a device the host version
//! runs, which is the program as written.

use std::collections::HashMap;
use std::ffi::{CStr, c_char};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::log::InfoCategories;
use crate::options::{AutoChoice, DeviceKind};
use crate::runtime::{DEVICE_DEFAULT, Target};

/// What the compiler knows of one loop, per iteration of its distributed loop(s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Iterations (`< 0`: unknown).
    pub trip: i64,
    /// Bytes the device version maps.
    pub bytes: i64,
    pub int_ops: i64,
    pub float_ops: i64,
    pub special: i64,
    pub loads: i64,
    pub stores: i64,
    /// Loads and stores with unit or zero stride across threads, per thousand.
    pub coalesced_permille: i64,
}

/// The machine the predictions are made for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Machine {
    /// Host threads a `parallel for` uses.
    pub host_threads: u32,
    /// The device's multiprocessors.
    pub sms: u32,
    /// Host to device bandwidth, bytes per second.
    pub link_bw: f64,
}

/// Iterations assumed when the trip count is unknown.
const UNKNOWN_TRIP: f64 = 1e5;

impl Machine {
    /// Predicted seconds of the host version.
    pub fn host_time(&self, f: &Features) -> f64 {
        let trip = if f.trip < 0 {
            UNKNOWN_TRIP
        } else {
            f.trip as f64
        };
        let per_iter = 0.4e-9 * (f.int_ops + f.float_ops) as f64
            + 4e-9 * f.special as f64
            + 0.6e-9 * (f.loads + f.stores) as f64;
        // fork/join of the team
        2e-6 + trip * per_iter / f64::from(self.host_threads.max(1))
    }

    /// Predicted seconds of the device version, its data already on the device.
    pub fn device_time(&self, f: &Features) -> f64 {
        let trip = if f.trip < 0 {
            UNKNOWN_TRIP
        } else {
            f.trip as f64
        };
        let lanes = f64::from(self.sms.max(1)) * 128.0;
        let compute = (f.int_ops + f.float_ops) as f64 + 8.0 * f.special as f64;
        let ops_s = trip * compute / (lanes * 1.4e9);
        // uncoalesced accesses cost a 32-byte sector each, coalesced ones a share of one
        let c = f.coalesced_permille.clamp(0, 1000) as f64 / 1000.0;
        let bytes = trip * (f.loads + f.stores) as f64 * (c * 8.0 + (1.0 - c) * 32.0);
        let mem_s = bytes / (f64::from(self.sms.max(1)) * 20e9);
        // launch, and the copies back and forth of a first run
        10e-6 + ops_s.max(mem_s)
    }

    /// Seconds to move `bytes` over the link.
    pub fn transfer_time(&self, bytes: i64) -> f64 {
        bytes.max(0) as f64 / self.link_bw
    }
}

/// Which version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Host,
    Device,
}

impl Side {
    fn index(self) -> usize {
        self as usize
    }

    fn other(self) -> Side {
        match self {
            Side::Host => Side::Device,
            Side::Device => Side::Host,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Host => "host",
            Side::Device => "device",
        }
    }
}

/// Switch only when the other side is this much faster.
const HYSTERESIS: f64 = 0.85;
/// Runs after which the side not yet measured is tried once.
const PROBE_AFTER: u64 = 3;
/// Weight of a new measurement.
const ALPHA: f64 = 0.3;

/// One loop's choice: its predictions, what it measured, where it runs now.
#[derive(Clone, Debug, Default)]
pub struct Chooser {
    predicted: [f64; 2],
    measured: [Option<f64>; 2],
    runs: [u64; 2],
    current: Option<Side>,
}

impl Chooser {
    /// A loop predicted to take `host` and `device` seconds.
    pub fn new(host: f64, device: f64) -> Chooser {
        Chooser {
            predicted: [host, device],
            ..Chooser::default()
        }
    }

    /// The estimate of `side`: what it measured, else its prediction corrected by how far
    /// off the other side's prediction was.
    pub fn estimate(&self, side: Side) -> f64 {
        if let Some(m) = self.measured[side.index()] {
            return m;
        }
        let o = side.other().index();
        let scale = match self.measured[o] {
            Some(m) if self.predicted[o] > 0.0 => (m / self.predicted[o]).clamp(0.25, 4.0),
            _ => 1.0,
        };
        self.predicted[side.index()] * scale
    }

    /// The side of the next run.
    pub fn choose(&mut self) -> Side {
        match self.current {
            None => {
                if self.estimate(Side::Device) < self.estimate(Side::Host) {
                    Side::Device
                } else {
                    Side::Host
                }
            }
            Some(cur) => {
                let other = cur.other();
                if self.measured[other.index()].is_none()
                    && self.runs[cur.index()] >= PROBE_AFTER
                    && self.estimate(other) < 4.0 * self.estimate(cur)
                {
                    // one probe: the prediction may be wrong
                    other
                } else if self.estimate(other) < HYSTERESIS * self.estimate(cur) {
                    other
                } else {
                    cur
                }
            }
        }
    }

    /// Records a run of `side` that took `seconds`; the next choice stays there unless the
    /// estimates say otherwise.
    pub fn record(&mut self, side: Side, seconds: f64) {
        let i = side.index();
        self.measured[i] = Some(match self.measured[i] {
            Some(m) => m + ALPHA * (seconds - m),
            None => seconds,
        });
        self.runs[i] += 1;
        // after a probe, go on from the faster of the two
        self.current = Some(match self.current {
            Some(cur) if cur != side => {
                if self.estimate(side) < HYSTERESIS * self.estimate(cur) {
                    side
                } else {
                    cur
                }
            }
            _ => side,
        });
    }
}

/// A loop in flight: where it runs and since when.
struct Running {
    side: Side,
    since: Instant,
}

#[derive(Default)]
struct State {
    loops: HashMap<String, Chooser>,
    running: HashMap<String, Running>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn host_threads() -> u32 {
    let from_env = std::env::var("OMP_NUM_THREADS")
        .ok()
        .and_then(|v| v.split(',').next()?.trim().parse::<u32>().ok());
    from_env.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32))
}

/// The forced side, or `None` for the model; the machine when there is a device; whether it
/// is the emulator. Found once per process.
fn setup() -> (Option<Side>, Option<Machine>, bool) {
    static SETUP: std::sync::OnceLock<(Option<Side>, Option<Machine>, bool)> =
        std::sync::OnceLock::new();
    *SETUP.get_or_init(find_setup)
}

fn find_setup() -> (Option<Side>, Option<Machine>, bool) {
    let (forced, machine, emu) = crate::with_runtime(|rt| {
        let forced = match rt.options().auto_offload {
            AutoChoice::Model => None,
            AutoChoice::Device => Some(Side::Device),
            AutoChoice::Host => Some(Side::Host),
        };
        let emu = rt.options().device == DeviceKind::Emu;
        let machine = match rt.resolve(DEVICE_DEFAULT, "auto-offload") {
            Ok(Target::Device(d)) => rt.device_shape(d).map(|(_, sms)| {
                (
                    d,
                    Machine {
                        host_threads: host_threads(),
                        sms,
                        link_bw: 20e9,
                    },
                )
            }),
            _ => None,
        };
        (forced, machine, emu)
    });
    // the link's bandwidth, measured once (not on the emulator, whose choice is fixed)
    let machine = machine.map(|(d, m)| {
        if emu {
            return m;
        }
        link_probe(d as i32).map_or(m, |bw| Machine { link_bw: bw, ..m })
    });
    (forced, machine, emu)
}

/// Host-to-device bandwidth of device `d` from one 4 MiB copy, bytes per second.
fn link_probe(d: i32) -> Option<f64> {
    const BYTES: usize = 4 << 20;
    let host = vec![1u8; BYTES];
    let dev = crate::abi::omp_target_alloc(BYTES, d);
    if dev.is_null() {
        return None;
    }
    let initial = crate::abi::omp_get_initial_device();
    let start = Instant::now();
    // SAFETY: `host` holds BYTES bytes and `dev` is an allocation of BYTES on device `d`
    let rc = unsafe {
        crate::abi::omp_target_memcpy(dev, host.as_ptr().cast(), BYTES, 0, 0, d, initial)
    };
    let seconds = start.elapsed().as_secs_f64();
    // SAFETY: `dev` came from omp_target_alloc on `d`
    unsafe { crate::abi::omp_target_free(dev, d) };
    (rc == 0 && seconds > 0.0).then(|| BYTES as f64 / seconds)
}

fn info(text: &str) {
    let on = crate::with_runtime(|rt| rt.options().info.has(InfoCategories::AUTO));
    if on {
        crate::log::line(&format!("ompcc-rt: info: {text}"));
    }
}

/// Picks the version of the loop at `loc`: 1 for the device, 0 for the host.
///
/// # Safety
/// `loc` is a NUL-terminated string.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __ompcc_auto_select(
    loc: *const c_char,
    trip: i64,
    bytes: i64,
    int_ops: i64,
    float_ops: i64,
    special: i64,
    loads: i64,
    stores: i64,
    coalesced_permille: i64,
) -> i32 {
    let loc = if loc.is_null() {
        "?".to_owned()
    } else {
        // SAFETY: the compiler passes a string literal
        unsafe { CStr::from_ptr(loc) }
            .to_string_lossy()
            .into_owned()
    };
    let f = Features {
        trip,
        bytes,
        int_ops,
        float_ops,
        special,
        loads,
        stores,
        coalesced_permille,
    };
    let (forced, machine, emu) = setup();
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let state = guard.get_or_insert_with(State::default);
    let (side, why) = match (forced, machine) {
        (Some(s), _) => (s, "OMPCC_AUTO_OFFLOAD".to_owned()),
        (None, None) => (Side::Host, "no offload device".to_owned()),
        (None, Some(_)) if emu => (
            Side::Device,
            "the emulator tests the device version".to_owned(),
        ),
        (None, Some(m)) => {
            let host = m.host_time(&f);
            // the first device run also copies the data in
            let device = m.device_time(&f) + m.transfer_time(bytes);
            let c = state
                .loops
                .entry(loc.clone())
                .or_insert_with(|| Chooser::new(host, device));
            let s = c.choose();
            (
                s,
                format!(
                    "estimated host {:.1} us, device {:.1} us",
                    c.estimate(Side::Host) * 1e6,
                    c.estimate(Side::Device) * 1e6
                ),
            )
        }
    };
    state.running.insert(
        loc.clone(),
        Running {
            side,
            since: Instant::now(),
        },
    );
    drop(guard);
    info(&format!(
        "{loc}: auto-offload runs the {} version ({why}; trip count {trip}, {bytes} bytes mapped)",
        side.name()
    ));
    i32::from(side == Side::Device)
}

/// Ends the run of the loop at `loc` begun by [`__ompcc_auto_select`]: its time corrects
/// the loop's choice.
///
/// # Safety
/// `loc` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __ompcc_auto_done(loc: *const c_char) {
    if loc.is_null() {
        return;
    }
    // SAFETY: the compiler passes a string literal
    let loc = unsafe { CStr::from_ptr(loc) }
        .to_string_lossy()
        .into_owned();
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(state) = guard.as_mut() else { return };
    let Some(run) = state.running.remove(&loc) else {
        return;
    };
    let time: Duration = run.since.elapsed();
    if let Some(c) = state.loops.get_mut(&loc) {
        c.record(run.side, time.as_secs_f64());
    }
    drop(guard);
    crate::profile::with(|p| p.auto_run(&loc, run.side == Side::Device, time));
    info(&format!(
        "{loc}: auto-offload {} version took {:.1} us",
        run.side.name(),
        time.as_secs_f64() * 1e6
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a loop `n` times on simulated sides taking `host` and `device` seconds (with a
    /// deterministic jitter of `noise`), from the given predictions; the sides it ran.
    fn simulate(pred: (f64, f64), host: f64, device: f64, noise: f64, n: usize) -> Vec<Side> {
        let mut c = Chooser::new(pred.0, pred.1);
        let mut out = Vec::new();
        for i in 0..n {
            let s = c.choose();
            let jitter = 1.0 + noise * if i % 2 == 0 { 1.0 } else { -1.0 };
            let t = match s {
                Side::Host => host,
                Side::Device => device,
            } * jitter;
            c.record(s, t);
            out.push(s);
        }
        out
    }

    #[test]
    fn a_right_guess_stays_on_the_faster_side() {
        let runs = simulate((1.0, 0.1), 1.0, 0.1, 0.02, 20);
        assert!(runs.iter().all(|s| *s == Side::Device), "{runs:?}");
    }

    #[test]
    fn a_wrong_guess_for_the_device_moves_to_the_host() {
        // predicted device fast, it is 5x slower than the host
        let runs = simulate((1.0, 0.2), 1.0, 5.0, 0.02, 20);
        assert_eq!(runs[0], Side::Device);
        assert!(runs[2..].iter().all(|s| *s == Side::Host), "{runs:?}");
    }

    #[test]
    fn a_wrong_guess_for_the_host_is_corrected_by_the_probe() {
        // predicted the host 2x faster; the device is 10x faster
        let runs = simulate((1.0, 2.0), 1.0, 0.1, 0.02, 20);
        assert_eq!(runs[0], Side::Host);
        let first_device = runs.iter().position(|s| *s == Side::Device).unwrap();
        assert!(first_device <= PROBE_AFTER as usize, "{runs:?}");
        assert!(
            runs[first_device..].iter().all(|s| *s == Side::Device),
            "{runs:?}"
        );
    }

    #[test]
    fn close_sides_do_not_flip_flop() {
        // within 5%, with 4% jitter: at most the probe and one settling switch
        let runs = simulate((1.0, 1.02), 1.0, 0.97, 0.04, 40);
        let switches = runs.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(switches <= 2, "{switches} switches: {runs:?}");
        assert!(runs[10..].windows(2).all(|w| w[0] == w[1]), "{runs:?}");
    }

    #[test]
    fn a_slow_device_probe_is_not_tried_when_far_off() {
        // the device is predicted 100x slower: never tried
        let runs = simulate((1.0, 100.0), 1.0, 100.0, 0.0, 20);
        assert!(runs.iter().all(|s| *s == Side::Host), "{runs:?}");
    }

    #[test]
    fn predictions_follow_the_machine() {
        let m = Machine {
            host_threads: 8,
            sms: 132,
            link_bw: 20e9,
        };
        let big = Features {
            trip: 10_000_000,
            bytes: 80_000_000,
            float_ops: 20,
            loads: 2,
            stores: 1,
            coalesced_permille: 1000,
            ..Features::default()
        };
        assert!(m.device_time(&big) < m.host_time(&big));
        let small = Features { trip: 100, ..big };
        assert!(m.device_time(&small) > m.host_time(&small));
        // more host threads, faster host
        let m1 = Machine {
            host_threads: 1,
            ..m
        };
        assert!(m1.host_time(&big) > m.host_time(&big));
    }
}
