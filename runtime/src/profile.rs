//! `OMPCC_PROFILE`: per-kernel and per-direction counters, rendered at exit.
//!
//! The counters live in their own mutex (not the runtime's), so the at-exit report can run
//! even when the program exits from inside a runtime call (a fatal mapping error).

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::Duration;

use crate::backend::LaunchStats;

/// Totals for one kernel.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KernelRow {
    /// Number of launches.
    pub launches: u64,
    /// Total wall time of the launches (launch to completion), seconds.
    pub total_s: f64,
    /// Instructions executed, when the backend counts them.
    pub instructions: Option<u64>,
    /// Global-memory sectors, when the backend counts them.
    pub sectors: Option<u64>,
    /// Global-memory requests, when the backend counts them.
    pub requests: Option<u64>,
}

/// Totals for one transfer direction.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TransferRow {
    /// Number of transfers.
    pub count: u64,
    /// Bytes moved.
    pub bytes: u64,
    /// Total wall time, seconds.
    pub total_s: f64,
}

/// Direction of a transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Direction {
    /// Host to device.
    #[serde(rename = "host_to_device")]
    HostToDevice,
    /// Device to host.
    #[serde(rename = "device_to_host")]
    DeviceToHost,
    /// Within a device or between devices.
    #[serde(rename = "device_to_device")]
    DeviceToDevice,
}

impl Direction {
    fn label(self) -> &'static str {
        match self {
            Direction::HostToDevice => "host->device",
            Direction::DeviceToHost => "device->host",
            Direction::DeviceToDevice => "device->device",
        }
    }
}

/// A target region that ran on the host instead of a device.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HostRow {
    /// Where the region is (`file:line:col`).
    pub loc: String,
    /// How many times it ran on the host.
    pub runs: u64,
    /// Why (the last run's reason): no device, `OMP_TARGET_OFFLOAD=DISABLED`, ...
    pub reason: String,
}

/// All counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Profile {
    /// Per kernel name.
    pub kernels: BTreeMap<String, KernelRow>,
    /// Per direction.
    pub transfers: BTreeMap<Direction, TransferRow>,
    /// Per kernel name: the regions that ran on the host fallback (absent from the JSON when
    /// none did, so reports of device runs keep their shape).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub host_fallback: BTreeMap<String, HostRow>,
    /// Per loop location: the automatically offloaded loops (`-fopenmp-auto-offload`), absent
    /// from the JSON when none ran.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub auto: BTreeMap<String, AutoRow>,
}

/// Runs of one automatically offloaded loop on each side.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AutoRow {
    /// Runs of the host version.
    pub host_runs: u64,
    /// Their total time, seconds.
    pub host_s: f64,
    /// Runs of the device version.
    pub device_runs: u64,
    /// Their total time, seconds (transfers and launches included).
    pub device_s: f64,
}

fn add(slot: &mut Option<u64>, v: Option<u64>) {
    if let Some(v) = v {
        *slot = Some(slot.unwrap_or(0) + v);
    }
}

impl Profile {
    /// Records one launch.
    pub fn launch(&mut self, kernel: &str, time: Duration, stats: LaunchStats) {
        let row = self.kernels.entry(kernel.to_string()).or_default();
        row.launches += 1;
        row.total_s += time.as_secs_f64();
        add(&mut row.instructions, stats.instructions);
        add(&mut row.sectors, stats.sectors);
        add(&mut row.requests, stats.requests);
    }

    /// Records one run of a target region on the host fallback.
    pub fn host_run(&mut self, kernel: &str, loc: &str, reason: &str) {
        let row = self.host_fallback.entry(kernel.to_string()).or_default();
        row.runs += 1;
        row.loc = loc.to_string();
        row.reason = reason.to_string();
    }

    /// Records one run of an automatically offloaded loop.
    pub fn auto_run(&mut self, loc: &str, device: bool, time: Duration) {
        let row = self.auto.entry(loc.to_string()).or_default();
        if device {
            row.device_runs += 1;
            row.device_s += time.as_secs_f64();
        } else {
            row.host_runs += 1;
            row.host_s += time.as_secs_f64();
        }
    }

    /// Records one transfer.
    pub fn transfer(&mut self, dir: Direction, bytes: u64, time: Duration) {
        let row = self.transfers.entry(dir).or_default();
        row.count += 1;
        row.bytes += bytes;
        row.total_s += time.as_secs_f64();
    }

    /// The human-readable report.
    pub fn render_table(&self) -> String {
        let mut s = String::from("ompcc-rt profile\n");
        let _ = writeln!(
            s,
            "{:<32} {:>9} {:>12} {:>12} {:>14} {:>12}",
            "kernel", "launches", "total ms", "mean us", "instructions", "sectors/req"
        );
        for (name, k) in &self.kernels {
            let mean_us = k.total_s * 1e6 / k.launches.max(1) as f64;
            let per_req = match (k.sectors, k.requests) {
                (Some(s), Some(r)) if r > 0 => format!("{:.2}", s as f64 / r as f64),
                _ => "-".into(),
            };
            let insts = k.instructions.map_or("-".into(), |i| i.to_string());
            let _ = writeln!(
                s,
                "{:<32} {:>9} {:>12.3} {:>12.1} {:>14} {:>12}",
                name,
                k.launches,
                k.total_s * 1e3,
                mean_us,
                insts,
                per_req
            );
        }
        let _ = writeln!(
            s,
            "{:<32} {:>9} {:>12} {:>12} {:>14}",
            "transfer", "count", "bytes", "total ms", "GB/s"
        );
        for (dir, t) in &self.transfers {
            let gbps = if t.total_s > 0.0 {
                t.bytes as f64 / t.total_s / 1e9
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                "{:<32} {:>9} {:>12} {:>12.3} {:>14.2}",
                dir.label(),
                t.count,
                t.bytes,
                t.total_s * 1e3,
                gbps
            );
        }
        if !self.host_fallback.is_empty() {
            let _ = writeln!(s, "{:<32} {:>9}  why", "ran on the host (fallback)", "runs");
            for (name, h) in &self.host_fallback {
                let _ = writeln!(s, "{:<32} {:>9}  {} ({})", name, h.runs, h.reason, h.loc);
            }
        }
        if !self.auto.is_empty() {
            let _ = writeln!(
                s,
                "{:<32} {:>9} {:>12} {:>12} {:>14}",
                "auto-offloaded loop", "host runs", "host ms", "device runs", "device ms"
            );
            for (loc, a) in &self.auto {
                let _ = writeln!(
                    s,
                    "{:<32} {:>9} {:>12.3} {:>12} {:>14.3}",
                    loc,
                    a.host_runs,
                    a.host_s * 1e3,
                    a.device_runs,
                    a.device_s * 1e3
                );
            }
        }
        s
    }

    /// The machine-readable report.
    pub fn render_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The file name `OMPCC_PROFILE=json:PATH` writes: `%r` is the MPI rank (0 outside MPI),
/// `%p` the process id, `%%` a `%`; anything else is kept.
pub fn expand_path(path: &str, rank: Option<u32>, pid: u32) -> String {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => out.push_str(&rank.unwrap_or(0).to_string()),
            Some('p') => out.push_str(&pid.to_string()),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// The process-wide counters.
pub static PROFILE: Mutex<Option<Profile>> = Mutex::new(None);

/// Runs `f` on the counters when profiling is on.
pub fn with(f: impl FnOnce(&mut Profile)) {
    let mut guard = PROFILE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = guard.as_mut() {
        f(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Profile {
        let mut p = Profile::default();
        let stats = LaunchStats {
            instructions: Some(1000),
            sectors: Some(40),
            requests: Some(10),
        };
        p.launch("saxpy_l12", Duration::from_micros(30), stats);
        p.launch("saxpy_l12", Duration::from_micros(10), stats);
        p.launch("plain", Duration::from_millis(2), LaunchStats::default());
        p.transfer(Direction::HostToDevice, 800, Duration::from_micros(5));
        p.transfer(Direction::HostToDevice, 200, Duration::from_micros(5));
        p.transfer(Direction::DeviceToHost, 800, Duration::from_micros(4));
        p
    }

    #[test]
    fn table_has_kernel_and_transfer_rows() {
        let t = sample().render_table();
        let line = |start: &str| {
            t.lines()
                .find(|l| l.starts_with(start))
                .unwrap()
                .to_string()
        };
        let saxpy_line = line("saxpy_l12");
        let cols: Vec<&str> = saxpy_line.split_whitespace().collect();
        assert_eq!(cols, ["saxpy_l12", "2", "0.040", "20.0", "2000", "4.00"]);
        let plain_line = line("plain");
        let cols: Vec<&str> = plain_line.split_whitespace().collect();
        assert_eq!(cols, ["plain", "1", "2.000", "2000.0", "-", "-"]);
        let h2d_line = line("host->device");
        let cols: Vec<&str> = h2d_line.split_whitespace().collect();
        assert_eq!(cols, ["host->device", "2", "1000", "0.010", "0.10"]);
        assert!(t.contains("device->host"));
        assert!(!t.contains("device->device"));
    }

    #[test]
    fn host_fallback_runs_are_listed_with_their_reason() {
        let mut p = sample();
        assert!(!p.render_table().contains("ran on the host"));
        let v: serde_json::Value = serde_json::from_str(&p.render_json()).unwrap();
        assert!(v.get("host_fallback").is_none());
        p.host_run(
            "k_l5",
            "t.c:5:1",
            "no offload device: OMPCC_DEVICE=host selects no device",
        );
        p.host_run(
            "k_l5",
            "t.c:5:1",
            "no offload device: OMPCC_DEVICE=host selects no device",
        );
        let t = p.render_table();
        assert!(t.contains("ran on the host (fallback)"), "{t}");
        assert!(
            t.lines().any(|l| l.starts_with("k_l5")
                && l.contains(" 2  no offload device: OMPCC_DEVICE=host")
                && l.ends_with("(t.c:5:1)")),
            "{t}"
        );
        let v: serde_json::Value = serde_json::from_str(&p.render_json()).unwrap();
        assert_eq!(v["host_fallback"]["k_l5"]["runs"], 2);
        assert_eq!(v["host_fallback"]["k_l5"]["loc"], "t.c:5:1");
    }

    #[test]
    fn profile_paths_name_the_rank_and_the_process() {
        assert_eq!(expand_path("prof-%r.json", Some(3), 77), "prof-3.json");
        assert_eq!(expand_path("prof-%r.json", None, 77), "prof-0.json");
        assert_eq!(expand_path("p%p-%%-%x%", Some(1), 77), "p77-%-%x%");
    }

    #[test]
    fn json_has_the_same_numbers() {
        let v: serde_json::Value = serde_json::from_str(&sample().render_json()).unwrap();
        assert_eq!(v["kernels"]["saxpy_l12"]["launches"], 2);
        assert_eq!(v["kernels"]["saxpy_l12"]["instructions"], 2000);
        assert_eq!(v["kernels"]["plain"]["sectors"], serde_json::Value::Null);
        assert_eq!(v["transfers"]["host_to_device"]["bytes"], 1000);
        assert_eq!(v["transfers"]["device_to_host"]["count"], 1);
    }
}
