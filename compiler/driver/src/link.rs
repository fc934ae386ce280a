//! Whether a link needs ompcc's runtime, and where the runtime is.
//!
//! Code that ompcc offloads calls the runtime's C ABI (`ompcc_rt_*`, see the runtime's
//! `include/ompcc_rt.h`). With separate compilation (`ompcc -c a.c`, then `ompcc a.o`) the link
//! command has no source to tell, so the driver looks at the objects and static archives it
//! links: one with an undefined `ompcc_rt_*` symbol needs `libompcc_rt.a`. Host-only programs
//! have none and link exactly as with cc.
//!
//! Invariant: a file that cannot be read or parsed counts as not needing the runtime (the
//! linker reports real problems itself).

use std::path::{Path, PathBuf};

use object::read::archive::ArchiveFile;
use object::{FileKind, Object as _, ObjectSymbol as _};

use crate::cli::{HostArg, Kind, Lang};

/// The prefix of every symbol of the runtime's C ABI.
const RUNTIME_SYMBOL_PREFIX: &[u8] = b"ompcc_rt_";

/// The name of ompcc's runtime library.
pub const RUNTIME_LIB: &str = "libompcc_rt.a";

/// The environment variable that overrides where the runtime library is.
pub const RUNTIME_LIB_VAR: &str = "OMPCC_RUNTIME_LIB";

/// What a Rust static library needs from the system when a C compiler links it (the core of
/// `rustc --print native-static-libs` on Linux; libc comes with every link). They follow the
/// runtime, which itself precedes the `-lgomp` that `-fopenmp` appends: the runtime's
/// `omp_*` device-API functions must win over libgomp's.
pub const RUNTIME_SYSTEM_LIBS: &[&str] = &["-lpthread", "-ldl", "-lm"];

/// A GNU ld script that lays out the runtime's writable data (its own and the Rust standard
/// library's, all in `lib`) ahead of the program's, after the default layout's read-only
/// parts: `INSERT` adds to the default script instead of replacing it.
///
/// Why: the Rust code in the runtime is compiled for the small code model, so its text
/// reaches its `.data`/`.bss` with 32-bit PC-relative displacements (directly, or through
/// GOT loads that the linker relaxes to them). By input order the runtime's data would
/// follow the program's, and a program with more than 2 GiB of static data (which gcc
/// links: libc's data lives in a shared library) put it out of reach ("failed to convert
/// GOTPCREL relocation", "relocation truncated to fit"). In front of the program's data it
/// stays a few kilobytes from the text whatever the program holds.
pub fn data_first_script(lib: &Path) -> String {
    let name = lib
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| RUNTIME_LIB.to_owned());
    format!(
        "SECTIONS {{ .ompcc_rt.data : {{ *{name}:*(.data .data.*) }} }} INSERT BEFORE .data;\n\
         SECTIONS {{ .ompcc_rt.bss (NOLOAD) : {{ *{name}:*(.bss .bss.* COMMON) }} }} \
         INSERT BEFORE .bss;\n"
    )
}

/// Whether any object or static archive among the link's inputs calls the runtime.
pub fn inputs_reference_runtime(args: &[HostArg]) -> bool {
    linked_files(args)
        .iter()
        .any(|path| std::fs::read(path).is_ok_and(|data| file_references_runtime(&data)))
}

/// The object and static-archive files a link reads: its linker inputs, and `-lNAME`
/// resolved to `libNAME.a` in the command's `-L` directories (as the linker would: the first
/// directory with `libNAME.so` or `libNAME.a` wins; a shared library carries its own runtime).
pub fn linked_files(args: &[HostArg]) -> Vec<PathBuf> {
    let lib_dirs: Vec<&str> = args
        .iter()
        .filter(|a| a.kind == Kind::Link)
        .filter_map(|a| match a.words.as_slice() {
            [opt, dir] if opt == "-L" => Some(dir.as_str()),
            [opt] => opt.strip_prefix("-L").filter(|d| !d.is_empty()),
            _ => None,
        })
        .collect();
    let mut files = Vec::new();
    for arg in args {
        match &arg.kind {
            Kind::Input(input) if input.lang == Lang::Linker => {
                files.push(PathBuf::from(&input.path));
            }
            Kind::Link => {
                let name = match arg.words.as_slice() {
                    [opt, name] if opt == "-l" => Some(name.as_str()),
                    [opt] => opt.strip_prefix("-l").filter(|n| !n.is_empty()),
                    _ => None,
                };
                if let Some(archive) = name.and_then(|n| find_static_lib(n, &lib_dirs)) {
                    files.push(archive);
                }
            }
            _ => {}
        }
    }
    files
}

fn find_static_lib(name: &str, dirs: &[&str]) -> Option<PathBuf> {
    if let Some(file) = name.strip_prefix(':') {
        return dirs
            .iter()
            .map(|d| Path::new(d).join(file))
            .find(|p| p.is_file());
    }
    for dir in dirs {
        let dir = Path::new(dir);
        if dir.join(format!("lib{name}.so")).is_file() {
            return None;
        }
        let archive = dir.join(format!("lib{name}.a"));
        if archive.is_file() {
            return Some(archive);
        }
    }
    None
}

/// Whether an object file, or any member of an archive, has an undefined runtime symbol.
fn file_references_runtime(data: &[u8]) -> bool {
    match FileKind::parse(data) {
        Ok(FileKind::Archive) => ArchiveFile::parse(data).is_ok_and(|archive| {
            archive.members().any(|member| {
                member
                    .ok()
                    .and_then(|m| m.data(data).ok())
                    .is_some_and(object_references_runtime)
            })
        }),
        Ok(_) => object_references_runtime(data),
        Err(_) => false,
    }
}

fn object_references_runtime(data: &[u8]) -> bool {
    object::File::parse(data).is_ok_and(|file| {
        file.symbols().any(|sym| {
            sym.is_undefined()
                && sym
                    .name_bytes()
                    .is_ok_and(|n| n.starts_with(RUNTIME_SYMBOL_PREFIX))
        })
    })
}

/// The runtime library: `$OMPCC_RUNTIME_LIB`, else `libompcc_rt.a` next to the ompcc
/// executable (a cargo build), else in `<prefix>/lib` (an installed `<prefix>/bin/ompcc`).
pub fn runtime_library() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os(RUNTIME_LIB_VAR).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot locate the ompcc executable: {e}"))?;
    let candidates = runtime_candidates(&exe);
    candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
        let tried: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
        format!(
            "cannot find the ompcc runtime {RUNTIME_LIB} (looked for {}; set ${RUNTIME_LIB_VAR} \
             to its path)",
            tried.join(", ")
        )
    })
}

fn runtime_candidates(exe: &Path) -> Vec<PathBuf> {
    let Some(bin) = exe.parent() else {
        return Vec::new();
    };
    let mut out = vec![bin.join(RUNTIME_LIB)];
    if let Some(prefix) = bin.parent() {
        out.push(prefix.join("lib").join(RUNTIME_LIB));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn cc(dir: &Path, args: &[&str]) {
        let out = Command::new("cc")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn finds_runtime_references_in_objects_and_archives() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(
            d.join("uses.c"),
            "int ompcc_rt_launch(const void *);\nint f(void) { return ompcc_rt_launch(0); }\n",
        )
        .unwrap();
        std::fs::write(d.join("plain.c"), "int g(void) { return 1; }\n").unwrap();
        cc(d, &["-c", "uses.c", "plain.c"]);
        let ar = Command::new("ar")
            .args(["rcs", "libmix.a", "plain.o", "uses.o"])
            .current_dir(d)
            .output()
            .unwrap();
        assert!(ar.status.success());
        let read = |name: &str| std::fs::read(d.join(name)).unwrap();
        assert!(file_references_runtime(&read("uses.o")));
        assert!(!file_references_runtime(&read("plain.o")));
        assert!(file_references_runtime(&read("libmix.a")));
        assert!(!file_references_runtime(b"not an object"));
    }

    #[test]
    fn resolves_l_options_like_the_linker() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for f in [
            "a/libx.a",
            "b/libx.so",
            "b/liby.a",
            "c/liby.a",
            "c/special.a",
        ] {
            std::fs::create_dir_all(d.join(f).parent().unwrap()).unwrap();
            std::fs::write(d.join(f), "").unwrap();
        }
        let dirs: Vec<String> = ["b", "a", "c"]
            .iter()
            .map(|s| d.join(s).display().to_string())
            .collect();
        let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
        assert_eq!(find_static_lib("x", &dirs), None); // b/libx.so comes first
        assert_eq!(find_static_lib("y", &dirs), Some(d.join("b/liby.a")));
        assert_eq!(
            find_static_lib(":special.a", &dirs),
            Some(d.join("c/special.a"))
        );
        assert_eq!(find_static_lib("z", &dirs), None);
    }

    #[test]
    fn runtime_is_looked_for_next_to_the_binary_then_in_lib() {
        let got = runtime_candidates(Path::new("/opt/ompcc/bin/ompcc"));
        assert_eq!(
            got,
            [
                PathBuf::from("/opt/ompcc/bin/libompcc_rt.a"),
                PathBuf::from("/opt/ompcc/lib/libompcc_rt.a")
            ]
        );
    }
}
