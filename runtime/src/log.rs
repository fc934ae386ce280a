//! The runtime's messages on stderr: `OMPCC_INFO` categories, whole lines, MPI ranks.
//!
//! Every line the runtime prints goes through [`line`], which writes it with its newline in
//! one `write` call on stderr, so the lines of two processes sharing a terminal or a file
//! (MPI ranks) never mix inside a line. (Rust's stderr is unbuffered: `eprintln!` with
//! arguments writes the pieces of a line separately.)
//!
//! Under MPI (a rank in `OMPI_COMM_WORLD_RANK`, `PMI_RANK` or `SLURM_PROCID`) each line
//! starts with `[rank N] `. Outside MPI lines carry no prefix: the `ompcc-rt: info: ...`
//! lines are parsed from the start of the line by the test suites and by users' scripts, and
//! a single process needs no tag. (The pid is not added for that reason; `OMPCC_PROFILE`'s
//! `%p` names per-process files instead.)
//!
//! `OMPCC_INFO` takes `1`/`all` (every category, as before categories existed) or a comma
//! list of [`InfoCategories`] names; the lines of each category are unchanged.

use std::io::Write as _;

/// Which `OMPCC_INFO` lines are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoCategories(u8);

impl InfoCategories {
    /// Nothing.
    pub const NONE: InfoCategories = InfoCategories(0);
    /// `maps`: map, unmap, attach, present entries, implicit zero-length sections,
    /// `use_device_ptr`, skipped updates, `omp_target_associate_ptr`.
    pub const MAPS: InfoCategories = InfoCategories(1);
    /// `copies`: every copy to and from the device.
    pub const COPIES: InfoCategories = InfoCategories(2);
    /// `launches`: every kernel launch with its shape and time.
    pub const LAUNCHES: InfoCategories = InfoCategories(4);
    /// `devices`: devices opened (or why none), modules registered and loaded, the host
    /// fallback.
    pub const DEVICES: InfoCategories = InfoCategories(8);
    /// `auto`: automatic offload's choices (predicted times, choice, measured time).
    pub const AUTO: InfoCategories = InfoCategories(16);
    /// Every category.
    pub const ALL: InfoCategories = InfoCategories(31);

    /// The category names, in the order `--help`-like messages list them.
    pub const NAMES: [(&'static str, InfoCategories); 5] = [
        ("maps", InfoCategories::MAPS),
        ("copies", InfoCategories::COPIES),
        ("launches", InfoCategories::LAUNCHES),
        ("devices", InfoCategories::DEVICES),
        ("auto", InfoCategories::AUTO),
    ];

    /// Whether every category of `other` is on.
    pub fn has(self, other: InfoCategories) -> bool {
        other.0 != 0 && self.0 & other.0 == other.0
    }

    /// Whether any category is on.
    pub fn any(self) -> bool {
        self.0 != 0
    }

    /// Parses an `OMPCC_INFO` value: `1`, `all`, `yes`, `on`, `true` for everything, `0`,
    /// `no`, `off`, `false` or empty for nothing, else a comma-separated list of category
    /// names. Unknown names are returned for a warning; the known ones still count.
    pub fn parse(value: &str) -> (InfoCategories, Vec<String>) {
        let v = value.trim().to_ascii_lowercase();
        match v.as_str() {
            "" | "0" | "false" | "off" | "no" => return (InfoCategories::NONE, Vec::new()),
            "1" | "all" | "true" | "on" | "yes" => return (InfoCategories::ALL, Vec::new()),
            _ => {}
        }
        let mut cats = InfoCategories::NONE;
        let mut unknown = Vec::new();
        for name in v.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match InfoCategories::NAMES.iter().find(|(n, _)| *n == name) {
                Some((_, c)) => cats.0 |= c.0,
                None if name == "all" => cats = InfoCategories::ALL,
                None => unknown.push(name.to_owned()),
            }
        }
        (cats, unknown)
    }
}

/// This process's MPI rank, from the launcher's environment (Open MPI, MPICH/PMI, Slurm).
pub fn mpi_rank() -> Option<u32> {
    rank_from(|k| std::env::var(k).ok())
}

/// [`mpi_rank`] through `get`, for tests.
pub fn rank_from(get: impl Fn(&str) -> Option<String>) -> Option<u32> {
    ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"]
        .iter()
        .find_map(|k| get(k).and_then(|v| v.trim().parse().ok()))
}

/// This process's rank among the ranks of its node (for device selection), from the
/// launcher's environment.
pub fn mpi_local_rank() -> Option<u32> {
    local_rank_from(|k| std::env::var(k).ok())
}

/// [`mpi_local_rank`] through `get`, for tests.
pub fn local_rank_from(get: impl Fn(&str) -> Option<String>) -> Option<u32> {
    [
        "OMPI_COMM_WORLD_LOCAL_RANK",
        "MPI_LOCALRANKID",
        "MPI_LOCAL_RANK",
        "SLURM_LOCALID",
    ]
    .iter()
    .find_map(|k| get(k).and_then(|v| v.trim().parse().ok()))
}

/// The text [`line`] writes for `text`: the rank prefix under MPI, the newline.
pub fn format_line(rank: Option<u32>, text: &str) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut out = String::with_capacity(text.len() + 12);
    for l in text.split('\n') {
        if let Some(r) = rank {
            out.push_str(&format!("[rank {r}] "));
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Writes `text` (one line, or several: each gets the prefix) to stderr in one call.
pub fn line(text: &str) {
    static RANK: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    let rank = *RANK.get_or_init(mpi_rank);
    let out = format_line(rank, text);
    // A closed stderr is not worth failing the program over.
    let _ = std::io::stderr().lock().write_all(out.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn categories_parse_from_names_and_switches() {
        let p = |v: &str| InfoCategories::parse(v);
        assert_eq!(p("1").0, InfoCategories::ALL);
        assert_eq!(p("ALL").0, InfoCategories::ALL);
        assert_eq!(p("0").0, InfoCategories::NONE);
        let (c, bad) = p("maps, launches");
        assert!(c.has(InfoCategories::MAPS) && c.has(InfoCategories::LAUNCHES));
        assert!(!c.has(InfoCategories::COPIES) && bad.is_empty());
        let (c, bad) = p("copies,nope");
        assert_eq!(c, InfoCategories::COPIES);
        assert_eq!(bad, ["nope"]);
        assert!(!InfoCategories::NONE.any());
    }

    #[test]
    fn ranks_come_from_any_launcher_and_prefix_whole_lines() {
        let env = |pairs: &[(&str, &str)]| {
            let m: HashMap<String, String> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            move |k: &str| m.get(k).cloned()
        };
        assert_eq!(rank_from(env(&[("OMPI_COMM_WORLD_RANK", "3")])), Some(3));
        assert_eq!(rank_from(env(&[("PMI_RANK", "1")])), Some(1));
        assert_eq!(rank_from(env(&[("SLURM_PROCID", "7")])), Some(7));
        assert_eq!(rank_from(env(&[])), None);
        assert_eq!(local_rank_from(env(&[("SLURM_LOCALID", "2")])), Some(2));
        assert_eq!(
            format_line(None, "ompcc-rt: info: x"),
            "ompcc-rt: info: x\n"
        );
        assert_eq!(format_line(Some(2), "a\nb\n"), "[rank 2] a\n[rank 2] b\n");
    }
}
