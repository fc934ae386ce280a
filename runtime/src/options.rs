//! Run-time settings read from the environment once, at the runtime's first use.
//!
//! `OMP_TARGET_OFFLOAD=MANDATORY|DISABLED|DEFAULT`, `OMP_DEFAULT_DEVICE=n`,
//! `OMPCC_DEVICE=cuda|emu|sim|host`, `OMPCC_LIBCUDA=path`, `OMPCC_INFO=1|all|maps,copies,launches,devices`,
//! `OMPCC_PROFILE=1|json:PATH`, `OMPCC_EMU_THREADS=n`, `OMPCC_EMU_MAX_BLOCK_INSTS=n`,
//! `OMPCC_EMU_DIV_CHECK=0|1`. Values are case-insensitive; an unknown value is ignored with
//! a warning (collected in [`Options::warnings`]) rather than guessed at.

use crate::log::InfoCategories;

/// `target-offload-var`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offload {
    /// Use a device when one is available, else run target regions on the host.
    Default,
    /// A device construct that cannot run on a device is a fatal error.
    Mandatory,
    /// Every target region runs on the host; there are no devices.
    Disabled,
}

/// Which kind of device the runtime drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    /// CUDA GPUs when a driver and a device exist, else none (host fallback).
    Auto,
    /// CUDA GPUs, required.
    Cuda,
    /// The PTX emulator.
    Emu,
    /// Separate host buffers with Rust kernels (tests).
    Sim,
    /// No device.
    Host,
}

/// Where `OMPCC_PROFILE` sends its report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileOutput {
    /// No profiling.
    Off,
    /// A text table on stderr at exit.
    Table,
    /// JSON written to this file at exit.
    Json(String),
}

/// All settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `OMP_TARGET_OFFLOAD`.
    pub offload: Offload,
    /// `OMPCC_DEVICE`.
    pub device: DeviceKind,
    /// `OMP_DEFAULT_DEVICE` (initial value of `default-device-var`).
    pub default_device: i32,
    /// `OMP_DEFAULT_DEVICE` was set (else an MPI rank picks its device, see `local_rank`).
    pub default_device_set: bool,
    /// The process's rank on its node under MPI (`OMPI_COMM_WORLD_LOCAL_RANK`,
    /// `MPI_LOCALRANKID`, `MPI_LOCAL_RANK`, `SLURM_LOCALID`): without `OMP_DEFAULT_DEVICE`
    /// the default device is `local_rank mod devices`, so one rank per GPU needs no setup.
    pub local_rank: Option<u32>,
    /// `OMPCC_INFO`: which of maps, copies, launches, devices to log on stderr.
    pub info: InfoCategories,
    /// `OMP_NUM_TEAMS` (OpenMP 5.1 `nteams-var`): teams of a league without `num_teams`.
    pub num_teams: Option<u32>,
    /// `OMP_TEAMS_THREAD_LIMIT` (OpenMP 5.1 `teams-thread-limit-var`): threads per team of a
    /// region without `thread_limit` or `num_threads`.
    pub teams_thread_limit: Option<u32>,
    /// `OMPCC_PROFILE`.
    pub profile: ProfileOutput,
    /// `OMPCC_LIBCUDA`, default `libcuda.so.1`.
    pub libcuda: String,
    /// `OMPCC_EMU_THREADS`: host threads running emulated blocks (default: one per core).
    pub emu_threads: Option<u32>,
    /// `OMPCC_EMU_MAX_BLOCK_INSTS`: an emulated block issuing more warp instructions is an
    /// error (a guard against endless loops); unlimited by default.
    pub emu_block_limit: Option<u64>,
    /// `OMPCC_EMU_DIV_CHECK`: an integer division or remainder by zero on the emulator stops
    /// the launch with an error naming the kernel and line (default on; `0` turns it off,
    /// and the quotient is then what a GPU gives: all ones, the remainder the dividend).
    pub emu_div_check: bool,
    /// `OMPCC_AUTO_OFFLOAD`: where automatically offloaded loops run.
    pub auto_offload: AutoChoice,
    /// Problems found while reading the environment, printed once.
    pub warnings: Vec<String>,
}

/// `OMPCC_AUTO_OFFLOAD=model|device|host`: how automatically offloaded loops
/// (`-fopenmp-auto-offload`) pick their version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AutoChoice {
    /// Predicted, then measured (the default).
    #[default]
    Model,
    /// Always the device version.
    Device,
    /// Always the host version.
    Host,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            offload: Offload::Default,
            device: DeviceKind::Auto,
            default_device: 0,
            default_device_set: false,
            local_rank: None,
            info: InfoCategories::NONE,
            num_teams: None,
            teams_thread_limit: None,
            profile: ProfileOutput::Off,
            libcuda: "libcuda.so.1".into(),
            emu_threads: None,
            emu_block_limit: None,
            emu_div_check: true,
            auto_offload: AutoChoice::Model,
            warnings: Vec::new(),
        }
    }
}

impl Options {
    /// Reads the process environment.
    pub fn from_env() -> Options {
        Options::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads settings through `get` (the environment, or a map in tests).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Options {
        let mut o = Options::default();
        if let Some(v) = get("OMP_TARGET_OFFLOAD") {
            match v.trim().to_ascii_lowercase().as_str() {
                "mandatory" => o.offload = Offload::Mandatory,
                "disabled" => o.offload = Offload::Disabled,
                "default" | "" => {}
                _ => o.warnings.push(format!(
                    "ignoring OMP_TARGET_OFFLOAD={v} (expected MANDATORY, DISABLED or DEFAULT)"
                )),
            }
        }
        if let Some(v) = get("OMPCC_DEVICE") {
            match v.trim().to_ascii_lowercase().as_str() {
                "cuda" => o.device = DeviceKind::Cuda,
                "emu" => o.device = DeviceKind::Emu,
                "sim" => o.device = DeviceKind::Sim,
                "host" => o.device = DeviceKind::Host,
                "" | "auto" => {}
                _ => o.warnings.push(format!(
                    "ignoring OMPCC_DEVICE={v} (expected cuda, emu, sim or host)"
                )),
            }
        }
        if let Some(v) = get("OMP_DEFAULT_DEVICE") {
            match v.trim().parse::<i32>() {
                Ok(n) if n >= 0 => {
                    o.default_device = n;
                    o.default_device_set = true;
                }
                _ => o.warnings.push(format!(
                    "ignoring OMP_DEFAULT_DEVICE={v} (expected a non-negative integer)"
                )),
            }
        }
        if let Some(v) = get("OMPCC_INFO") {
            let (cats, unknown) = InfoCategories::parse(&v);
            o.info = cats;
            if !unknown.is_empty() {
                let names: Vec<&str> = InfoCategories::NAMES.iter().map(|(n, _)| *n).collect();
                o.warnings.push(format!(
                    "ignoring '{}' in OMPCC_INFO={v} (expected 1, all or a list of: {})",
                    unknown.join(","),
                    names.join(", ")
                ));
            }
        }
        for (name, slot) in [
            ("OMP_NUM_TEAMS", &mut o.num_teams),
            ("OMP_TEAMS_THREAD_LIMIT", &mut o.teams_thread_limit),
        ] {
            if let Some(v) = get(name) {
                match v.trim().parse::<u32>() {
                    Ok(n) if n > 0 => *slot = Some(n),
                    _ => o
                        .warnings
                        .push(format!("ignoring {name}={v} (expected a positive integer)")),
                }
            }
        }
        if let Some(v) = get("OMPCC_AUTO_OFFLOAD") {
            match v.trim().to_ascii_lowercase().as_str() {
                "model" | "" => o.auto_offload = AutoChoice::Model,
                "device" => o.auto_offload = AutoChoice::Device,
                "host" => o.auto_offload = AutoChoice::Host,
                other => o.warnings.push(format!(
                    "OMPCC_AUTO_OFFLOAD={other} is not one of model, device, host; using model"
                )),
            }
        }
        if let Some(v) = get("OMPCC_PROFILE") {
            if let Some(path) = v.strip_prefix("json:") {
                o.profile = ProfileOutput::Json(path.to_string());
            } else if truthy(&v) {
                o.profile = ProfileOutput::Table;
            }
        }
        o.local_rank = crate::log::local_rank_from(&get);
        if let Some(v) = get("OMPCC_LIBCUDA") {
            o.libcuda = v;
        }
        if let Some(v) = get("OMPCC_EMU_THREADS") {
            match v.trim().parse::<u32>() {
                Ok(n) if n > 0 => o.emu_threads = Some(n),
                _ => o.warnings.push(format!(
                    "ignoring OMPCC_EMU_THREADS={v} (expected a positive integer)"
                )),
            }
        }
        if let Some(v) = get("OMPCC_EMU_MAX_BLOCK_INSTS") {
            match v.trim().parse::<u64>() {
                Ok(n) if n > 0 => o.emu_block_limit = Some(n),
                _ => o.warnings.push(format!(
                    "ignoring OMPCC_EMU_MAX_BLOCK_INSTS={v} (expected a positive integer)"
                )),
            }
        }
        if let Some(v) = get("OMPCC_EMU_DIV_CHECK") {
            o.emu_div_check = truthy(&v);
        }
        o
    }
}

fn truthy(v: &str) -> bool {
    !matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "" | "0" | "false" | "off" | "no"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(pairs: &[(&str, &str)]) -> Options {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Options::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_without_environment() {
        assert_eq!(parse(&[]), Options::default());
    }

    #[test]
    fn reads_every_variable() {
        let o = parse(&[
            ("OMP_TARGET_OFFLOAD", "Mandatory"),
            ("OMPCC_DEVICE", "SIM"),
            ("OMP_DEFAULT_DEVICE", "2"),
            ("OMPCC_INFO", "1"),
            ("OMPCC_PROFILE", "json:/tmp/p.json"),
            ("OMPCC_LIBCUDA", "/x/libcuda.so"),
            ("OMPCC_EMU_THREADS", "3"),
            ("OMPCC_EMU_MAX_BLOCK_INSTS", " 1000000"),
        ]);
        assert_eq!(o.offload, Offload::Mandatory);
        assert_eq!(o.device, DeviceKind::Sim);
        assert_eq!(o.default_device, 2);
        assert!(o.default_device_set);
        assert_eq!(o.local_rank, None);
        assert_eq!(o.info, InfoCategories::ALL);
        assert_eq!(o.profile, ProfileOutput::Json("/tmp/p.json".into()));
        assert_eq!(o.libcuda, "/x/libcuda.so");
        assert_eq!(o.emu_threads, Some(3));
        assert_eq!(o.emu_block_limit, Some(1_000_000));
        assert!(o.warnings.is_empty());
        let o = parse(&[("OMPI_COMM_WORLD_LOCAL_RANK", "3")]);
        assert_eq!((o.local_rank, o.default_device_set), (Some(3), false));
    }

    #[test]
    fn bad_values_warn_and_keep_defaults() {
        let o = parse(&[
            ("OMP_TARGET_OFFLOAD", "sometimes"),
            ("OMPCC_DEVICE", "tpu"),
            ("OMP_DEFAULT_DEVICE", "-3"),
            ("OMPCC_INFO", "0"),
            ("OMPCC_PROFILE", "1"),
            ("OMPCC_EMU_THREADS", "0"),
            ("OMPCC_EMU_MAX_BLOCK_INSTS", "lots"),
        ]);
        assert_eq!(o.offload, Offload::Default);
        assert_eq!(o.device, DeviceKind::Auto);
        assert!(!o.info.any());
        assert_eq!(o.profile, ProfileOutput::Table);
        assert_eq!(o.warnings.len(), 5, "{:?}", o.warnings);
        assert_eq!(o.emu_threads, None);
        assert_eq!(o.emu_block_limit, None);
        assert!(o.warnings[0].contains("OMP_TARGET_OFFLOAD=sometimes"));
    }
}
