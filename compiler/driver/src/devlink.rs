//! The link-time device symbol check: a device function or global that some unit's device
//! code references and no linked unit defines is a link error, as with gcc and clang, not a
//! failure at the first device use at run time.
//!
//! Each offloaded unit's object holds its PTX as a string (`__ompcc_ptx`, see
//! `ompcc_host::embed`), whose text survives compilation byte for byte. The check reads the
//! PTX declarations straight from the bytes of every object and archive member the link
//! reads: `.extern .func NAME` / `.extern .global ... NAME[...]` are references,
//! `.visible .func|.entry|.global|.const ... NAME` are definitions. (Dynamic shared memory,
//! `.extern .shared`, is no symbol; the functions the CUDA driver gives every module,
//! `ompcc_ptx::RUNTIME_FUNCS`, are defined.) The device C library and everything else a unit
//! keeps to itself is internal and never appears as either.
//!
//! Invariant: a file that cannot be read or holds no PTX contributes nothing; the check only
//! fails for a reference that is certainly unresolved among the PTX the link contains.

use std::collections::BTreeSet;
use std::path::Path;

use object::read::archive::ArchiveFile;
use object::{FileKind, Object as _, ObjectSection as _};

/// The device symbols of one linked file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct DeviceSymbols {
    /// Functions and globals its device code defines with external visibility.
    pub defined: BTreeSet<String>,
    /// Functions (`true`) and globals (`false`) its device code declares `.extern`.
    pub referenced: BTreeSet<(String, bool)>,
}

/// Checks the device symbols of `files` (each with the name to report it by: the user's
/// source for an object ompcc compiled in this command). `Err` holds one message per
/// unresolved symbol.
pub fn check(files: &[(std::path::PathBuf, String)]) -> Result<(), Vec<String>> {
    let units: Vec<(&str, DeviceSymbols)> = files
        .iter()
        .filter_map(|(path, name)| Some((name.as_str(), read_file(path)?)))
        .collect();
    let defined: BTreeSet<&str> = units
        .iter()
        .flat_map(|(_, s)| s.defined.iter().map(String::as_str))
        .collect();
    let mut errors = Vec::new();
    for (unit, syms) in &units {
        for (name, is_func) in &syms.referenced {
            // What the CUDA driver provides to every module (`vprintf`, `__assertfail`, ...).
            let provided = *is_func && ompcc_ptx::RUNTIME_FUNCS.contains(&name.as_str());
            if !defined.contains(name.as_str()) && !provided {
                let (what, how) = if *is_func {
                    (
                        "function",
                        "define it inside '#pragma omp declare target' (or name it in \
                      'declare target(...)') in a unit compiled with -fopenmp",
                    )
                } else {
                    (
                        "variable",
                        "define it in a 'declare target' directive of a unit \
                      compiled with -fopenmp",
                    )
                };
                errors.push(format!(
                    "undefined device {what} '{name}' referenced by the device code of \
                     '{unit}': no linked unit defines it for the device ({how})"
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The device symbols of an object file or of every member of an archive; `None` when the
/// file cannot be read or holds no PTX.
fn read_file(path: &Path) -> Option<DeviceSymbols> {
    let data = std::fs::read(path).ok()?;
    let mut out = DeviceSymbols::default();
    match FileKind::parse(&*data) {
        Ok(FileKind::Archive) => {
            let archive = ArchiveFile::parse(&*data).ok()?;
            for member in archive.members().flatten() {
                if let Ok(bytes) = member.data(&*data) {
                    object_symbols(bytes, &mut out);
                }
            }
        }
        Ok(_) => object_symbols(&data, &mut out),
        Err(_) => return None,
    }
    (!out.defined.is_empty() || !out.referenced.is_empty()).then_some(out)
}

/// Scans the data sections of one object (the PTX string is read-only data).
fn object_symbols(data: &[u8], out: &mut DeviceSymbols) {
    let Ok(file) = object::File::parse(data) else {
        return;
    };
    for section in file.sections() {
        if let Ok(bytes) = section.data() {
            scan_ptx(bytes, out);
        }
    }
}

/// Adds the declarations of PTX text found in `bytes` (which may hold other data around it).
pub fn scan_ptx(bytes: &[u8], out: &mut DeviceSymbols) {
    for line in bytes.split(|&b| b == b'\n' || b == 0) {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let line = line.trim();
        if let Some(rest) = line.strip_prefix(".extern ") {
            if let Some(decl) = rest.strip_prefix(".func ") {
                if let Some(name) = func_name(decl) {
                    out.referenced.insert((name, true));
                }
            } else if let Some(decl) = rest
                .strip_prefix(".global ")
                .or_else(|| rest.strip_prefix(".const "))
                && let Some(name) = var_name(decl)
            {
                out.referenced.insert((name, false));
            }
        } else if let Some(rest) = line.strip_prefix(".visible ") {
            let name = if let Some(decl) = rest
                .strip_prefix(".func ")
                .or_else(|| rest.strip_prefix(".entry "))
            {
                func_name(decl)
            } else if let Some(decl) = rest
                .strip_prefix(".global ")
                .or_else(|| rest.strip_prefix(".const "))
            {
                var_name(decl)
            } else {
                None
            };
            if let Some(name) = name {
                out.defined.insert(name);
            }
        }
    }
}

/// The name in `[(.param ... retval)] NAME(...)`.
fn func_name(decl: &str) -> Option<String> {
    let mut rest = decl.trim_start();
    if rest.starts_with('(') {
        rest = rest[rest.find(')')? + 1..].trim_start();
    }
    ident(rest)
}

/// The name in `.align N .b8 NAME[...]` or `.align N .u64 NAME = ...;`: the last word
/// before `[`, `=` or `;`.
fn var_name(decl: &str) -> Option<String> {
    let end = decl.find(['[', '=', ';']).unwrap_or(decl.len());
    ident(decl[..end].split_whitespace().last()?)
}

fn ident(s: &str) -> Option<String> {
    let n = s
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$'))
        .count();
    (n > 0).then(|| s[..n].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_references_and_definitions_from_ptx_text() {
        let ptx = b"junk\0//\n.version 7.0\n.extern .func (.param .b64 w_retval0) w(.param .b32 w_param_0);\n\
            .extern .func scale(\n.extern .global .align 8 .b8 tab[64];\n\
            .extern .shared .align 16 .b8 dyn[];\n.visible .func (.param .b32 r) sq(\n\
            .visible .entry __omp_offload_main_l5(\n.visible .global .align 8 .u64 ops[2] = {0, sq};\n\
            .func internal_one(\n";
        let mut s = DeviceSymbols::default();
        scan_ptx(ptx, &mut s);
        let refs: Vec<(&str, bool)> = s.referenced.iter().map(|(n, f)| (n.as_str(), *f)).collect();
        assert_eq!(refs, [("scale", true), ("tab", false), ("w", true)]);
        let defs: Vec<&str> = s.defined.iter().map(String::as_str).collect();
        assert_eq!(defs, ["__omp_offload_main_l5", "ops", "sq"]);
    }
}
