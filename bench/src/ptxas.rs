//! Finding `ptxas` and reading what `ptxas -v` reports per function.
//!
//! `ptxas -v` writes, per function, a "Compiling entry function 'k' for 'sm_80'" line (kernels
//! only), "Function properties for k" followed by "N bytes stack frame, N bytes spill stores,
//! N bytes spill loads", and for kernels "Used N registers, ...". Lines that match none of
//! these are ignored, so newer ptxas versions with more lines still parse.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

/// Resources of one function as `ptxas -v` reports them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Registers per thread (`Used N registers`); `None` for device functions, which ptxas
    /// reports only through the kernels that call them.
    pub registers: Option<u32>,
    /// Stack frame bytes.
    pub stack_frame: u32,
    /// Spill store bytes.
    pub spill_stores: u32,
    /// Spill load bytes.
    pub spill_loads: u32,
}

/// Parses `ptxas -v` output (stderr) into resources per function name.
pub fn parse_verbose(log: &str) -> BTreeMap<String, Resources> {
    let mut out: BTreeMap<String, Resources> = BTreeMap::new();
    let mut entry: Option<String> = None;
    let mut props: Option<String> = None;
    for line in log.lines() {
        if let Some(name) = quoted_after(line, "Compiling entry function '") {
            out.entry(name.clone()).or_default();
            entry = Some(name);
            props = None;
        } else if let Some(name) = name_after(line, "Function properties for ") {
            out.entry(name.clone()).or_default();
            props = Some(name);
        } else if line.contains("bytes stack frame") {
            if let Some(r) = props.as_ref().and_then(|n| out.get_mut(n)) {
                r.stack_frame = number_before(line, "bytes stack frame").unwrap_or(0);
                r.spill_stores = number_before(line, "bytes spill stores").unwrap_or(0);
                r.spill_loads = number_before(line, "bytes spill loads").unwrap_or(0);
            }
        } else if line.contains("Used ")
            && line.contains(" registers")
            && let Some(r) = entry.as_ref().and_then(|n| out.get_mut(n))
        {
            r.registers = number_before(line, "registers");
        }
    }
    out
}

fn quoted_after(line: &str, prefix: &str) -> Option<String> {
    let start = line.find(prefix)? + prefix.len();
    let len = line[start..].find('\'')?;
    Some(line[start..start + len].to_string())
}

fn name_after(line: &str, prefix: &str) -> Option<String> {
    let start = line.find(prefix)? + prefix.len();
    let name = line[start..].split_whitespace().next()?;
    Some(name.trim_matches('\'').to_string())
}

/// The number just before `word` in `line` ("12 bytes spill stores" -> 12).
fn number_before(line: &str, word: &str) -> Option<u32> {
    let at = line.find(word)?;
    line[..at].split_whitespace().last()?.parse().ok()
}

/// `ptxas`: on `PATH`, else in the `nvidia-cuda-nvcc-cu12` Python package.
pub fn find() -> Option<PathBuf> {
    let on_path = Command::new("ptxas")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if on_path {
        return Some(PathBuf::from("ptxas"));
    }
    let out = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])",
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let path = PathBuf::from(dir).join("bin").join("ptxas");
    path.is_file().then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Function properties for helper
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'main_l12' for 'sm_80'
ptxas info    : Function properties for main_l12
    24 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 38 registers, 380 bytes cmem[0]
ptxas info    : Compiling entry function 'main_l20' for 'sm_80'
ptxas info    : Function properties for main_l20
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, 368 bytes cmem[0]
";

    #[test]
    fn reads_registers_and_spills() {
        let r = parse_verbose(LOG);
        assert_eq!(r.len(), 3);
        let k = &r["main_l12"];
        assert_eq!(
            (k.registers, k.stack_frame, k.spill_stores, k.spill_loads),
            (Some(38), 24, 16, 12)
        );
        assert_eq!(r["main_l20"].registers, Some(10));
        assert_eq!(r["helper"].registers, None);
        assert_eq!(r["helper"].stack_frame, 8);
    }

    #[test]
    fn unrelated_text_is_ignored() {
        assert!(parse_verbose("ptxas warning : something\n\nUsed nothing\n").is_empty());
    }
}
