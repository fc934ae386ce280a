//! The runtime's `OMPCC_PROFILE=json:PATH` file: per-kernel launches, time and, on the
//! emulator, warp-level instructions and global-memory sectors/requests; per direction, the
//! count and bytes of the data transfers.

use serde::Deserialize;
use std::collections::BTreeMap;

/// One kernel's totals over all its launches.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct KernelRow {
    /// Launches.
    pub launches: u64,
    /// Wall time of the launches, seconds.
    pub total_s: f64,
    /// Warp-level instructions executed (emulator only).
    pub instructions: Option<u64>,
    /// Global-memory sectors touched (emulator only).
    pub sectors: Option<u64>,
    /// Global-memory requests (warp-level accesses; emulator only).
    pub requests: Option<u64>,
}

#[derive(Deserialize)]
struct File {
    kernels: BTreeMap<String, KernelRow>,
}

/// Per-kernel rows of a profile file.
pub fn parse(json: &str) -> Result<BTreeMap<String, KernelRow>, String> {
    serde_json::from_str::<File>(json)
        .map(|f| f.kernels)
        .map_err(|e| format!("profile JSON: {e}"))
}

/// One direction's data transfers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
pub struct TransferRow {
    /// Transfers (one per copy the runtime made).
    pub count: u64,
    /// Bytes moved.
    pub bytes: u64,
    /// Wall time of the copies, seconds.
    pub total_s: f64,
}

/// The transfers of one program run: a direction without any is all zero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Transfers {
    pub host_to_device: TransferRow,
    pub device_to_host: TransferRow,
}

#[derive(Deserialize)]
struct TransferFile {
    #[serde(default)]
    transfers: BTreeMap<String, TransferRow>,
}

/// The host-to-device and device-to-host transfers of a profile file (the runtime writes a
/// direction only when something moved in it).
pub fn transfers(json: &str) -> Result<Transfers, String> {
    let mut file = serde_json::from_str::<TransferFile>(json)
        .map_err(|e| format!("profile JSON: {e}"))?
        .transfers;
    let mut take = |dir: &str| file.remove(dir).unwrap_or_default();
    Ok(Transfers {
        host_to_device: take("host_to_device"),
        device_to_host: take("device_to_host"),
    })
}

/// Totals over all kernels of one program.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Kernels that ran.
    pub kernels: usize,
    /// Launches of all kernels.
    pub launches: u64,
    /// Kernel wall time, seconds.
    pub time_s: f64,
    /// Warp-level instructions, when every kernel reported them.
    pub instructions: Option<u64>,
    /// Sectors, when every kernel reported them.
    pub sectors: Option<u64>,
    /// Requests, when every kernel reported them.
    pub requests: Option<u64>,
}

impl Totals {
    /// Sums the rows; a counter is `None` unless every row has it.
    pub fn of(rows: &BTreeMap<String, KernelRow>) -> Totals {
        let sum = |f: fn(&KernelRow) -> Option<u64>| -> Option<u64> {
            rows.values().map(f).sum::<Option<u64>>()
        };
        Totals {
            kernels: rows.len(),
            launches: rows.values().map(|r| r.launches).sum(),
            time_s: rows.values().map(|r| r.total_s).sum(),
            instructions: sum(|r| r.instructions),
            sectors: sum(|r| r.sectors),
            requests: sum(|r| r.requests),
        }
    }

    /// Global-memory sectors per request (4.00 for coalesced 4-byte accesses).
    pub fn sectors_per_request(&self) -> Option<f64> {
        match (self.sectors, self.requests) {
            (Some(s), Some(r)) if r > 0 => Some(s as f64 / r as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{
  "kernels": {
    "main_l20": {"launches": 2, "total_s": 0.5, "instructions": 1000, "sectors": 40, "requests": 10},
    "main_l30": {"launches": 1, "total_s": 0.25, "instructions": 24, "sectors": 8, "requests": 1}
  },
  "transfers": {"host_to_device": {"count": 2, "bytes": 100, "total_s": 0.1}}
}"#;

    #[test]
    fn sums_kernels() {
        let t = Totals::of(&parse(JSON).unwrap());
        assert_eq!(t.kernels, 2);
        assert_eq!(t.launches, 3);
        assert_eq!(t.instructions, Some(1024));
        assert_eq!(t.sectors_per_request(), Some(48.0 / 11.0));
        assert!((t.time_s - 0.75).abs() < 1e-12);
    }

    #[test]
    fn counters_missing_on_a_real_gpu() {
        let rows = parse(r#"{"kernels": {"k": {"launches": 1, "total_s": 0.1, "instructions": null, "sectors": null, "requests": null}}}"#).unwrap();
        let t = Totals::of(&rows);
        assert_eq!(t.instructions, None);
        assert_eq!(t.sectors_per_request(), None);
    }

    #[test]
    fn reads_transfers_per_direction() {
        let t = transfers(JSON).unwrap();
        assert_eq!(t.host_to_device.count, 2);
        assert_eq!(t.host_to_device.bytes, 100);
        assert_eq!(t.device_to_host, TransferRow::default());
        let none = transfers(r#"{"kernels": {}}"#).unwrap();
        assert_eq!(none, Transfers::default());
        assert!(transfers(r#"{"transfers": {"host_to_device": 3}}"#).is_err());
    }

    #[test]
    fn malformed_json_is_an_error() {
        assert!(
            parse("{\"kernels\": 3}")
                .unwrap_err()
                .starts_with("profile JSON")
        );
    }
}
