//! Differential fuzzing with csmith: random C programs (Debian packages `csmith` and
//! `libcsmith-dev`) made into offload programs, built by gcc and by ompcc, run, compared.
//!
//! Each program is wrapped whole in `declare target`; csmith's `main` becomes a device
//! function that one `target` region calls, so every function, global and checksum runs on
//! the device (the checksum lines are the kernel's printf). The reference is
//! `gcc -fopenmp -foffload=disable -O0`; ompcc builds it at -O0 and -O2, both run on the emulator
//! and the -O2 build also on the host fallback. Every output must equal gcc's, and ompcc
//! must accept every program (csmith writes valid C).
//!
//! Seeds are fresh each run (printed, with the command that repeats one); a program whose
//! reference run does not finish within 50 ms (too long to emulate) is replaced by the next
//! seed, so the count is of programs compared. `OMPCC_CSMITH_COUNT` (default 50) sets how many,
//! `OMPCC_CSMITH_SEED` the first seed; `testsuite/csmith.sh N` runs N locally.

use ompcc_testsuite::harness::{RunOutput, ompcc_binary, run_with_timeout};
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// csmith's options: programs small enough that the emulator runs one in about a second.
/// No packed structs: csmith takes the addresses of their members, and a misaligned pointer
/// (UB in C, tolerated by x86) faults on the GPU and in the emulator; `run/pragma_pack.c`
/// covers packed layouts.
const CSMITH_OPTIONS: &[&str] = &[
    "--no-packed-struct",
    "--max-funcs",
    "4",
    "--max-block-depth",
    "3",
    "--max-expr-complexity",
    "8",
    "--max-array-dim",
    "2",
    "--max-array-len-per-dim",
    "6",
];

/// Where csmith's runtime headers are (`libcsmith-dev`).
const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// How long the reference (gcc -O0) may run for a program to be kept: the emulator runs
/// device code some 500 times slower than the host runs gcc's -O0 code, and an ompcc build
/// must finish within `RUN_LIMIT` (generous: a timeout is a failure). A busy machine only
/// skips more seeds.
const REF_LIMIT: Duration = Duration::from_millis(50);
const RUN_LIMIT: Duration = Duration::from_secs(120);

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// The csmith program `text` as an offload program (see the module comment).
fn offload_program(text: &str) -> Option<String> {
    const MAIN: &str = "int main (int argc, char* argv[])";
    const HEADER: &str = "#include \"csmith.h\"";
    if !text.contains(MAIN) || !text.contains(HEADER) {
        return None;
    }
    let mut out = text
        .replacen(HEADER, &format!("{HEADER}\n#pragma omp declare target"), 1)
        .replacen(MAIN, "static int csmith_main(int argc, char *argv[])", 1);
    out.push_str(
        "\n#pragma omp end declare target\n\
         int main(void)\n{\n\
         #pragma omp target\n    csmith_main(1, 0);\n    return 0;\n}\n",
    );
    Some(out)
}

/// What went wrong with one seed, or `Ok(false)` when the seed was not usable.
fn check_seed(seed: u64, dir: &Path) -> Result<bool, String> {
    let src = dir.join(format!("s{seed}.c"));
    let raw = dir.join(format!("s{seed}.raw.c"));
    // csmith writes platform.info where it runs and reads it back: two runs in one folder
    // race on it ("please specify integer size in platform.info"), so each seed has its own
    let gen_dir = dir.join(format!("gen{seed}"));
    std::fs::create_dir_all(&gen_dir).map_err(|e| e.to_string())?;
    let gen_out = Command::new("csmith")
        .current_dir(&gen_dir)
        .args(["--seed", &seed.to_string()])
        .args(CSMITH_OPTIONS)
        .arg("-o")
        .arg(&raw)
        .output()
        .map_err(|e| format!("csmith is required (apt-get install csmith libcsmith-dev): {e}"))?;
    if !gen_out.status.success() {
        return Err(format!(
            "csmith failed ({}): {}{}",
            gen_out.status,
            String::from_utf8_lossy(&gen_out.stdout),
            String::from_utf8_lossy(&gen_out.stderr)
        ));
    }
    let text = std::fs::read_to_string(&raw).map_err(|e| e.to_string())?;
    let program = offload_program(&text).ok_or("csmith's output has no main to wrap")?;
    std::fs::write(&src, program).map_err(|e| e.to_string())?;

    let build = |compiler: &Path, flags: &[&str], exe: &str| -> Result<(), String> {
        let out = Command::new(compiler)
            .args(["-fopenmp", "-w", "-I", CSMITH_INCLUDE])
            .args(flags)
            .arg(&src)
            .arg("-o")
            .arg(dir.join(exe))
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} {} failed:\n{}",
                compiler.display(),
                flags.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    let run = |exe: &str, device: &str, limit: Duration| -> Result<RunOutput, String> {
        let mut cmd = Command::new(dir.join(exe));
        cmd.env("OMPCC_DEVICE", device)
            .env_remove("OMP_TARGET_OFFLOAD")
            .env("OMP_NUM_THREADS", "1");
        run_with_timeout(&mut cmd, dir, &format!("{exe}-{device}"), limit)
            .map_err(|e| e.to_string())
    };

    build(
        Path::new("gcc"),
        &["-O0", "-foffload=disable"],
        &format!("g{seed}"),
    )?;
    let reference = run(&format!("g{seed}"), "host", REF_LIMIT)?;
    if reference.status.is_none_or(|s| !s.success()) {
        return Ok(false);
    }
    let ompcc = ompcc_binary();
    for level in ["-O0", "-O2"] {
        let exe = format!("o{seed}{level}");
        build(&ompcc, &[level], &exe)?;
        let devices: &[&str] = if level == "-O2" {
            &["emu", "host"]
        } else {
            &["emu"]
        };
        for device in devices {
            let out = run(&exe, device, RUN_LIMIT)?;
            if out.status.is_none_or(|s| !s.success()) || out.stdout != reference.stdout {
                return Err(format!(
                    "ompcc {level} on {device}: {} (gcc: exit 0)\nexpected:\n{}got:\n{}stderr:\n{}",
                    out.describe_end(),
                    reference.stdout,
                    out.stdout,
                    out.stderr
                ));
            }
        }
    }
    Ok(true)
}

#[test]
fn csmith_programs_match_gcc_on_emulator_and_host() {
    let count = env_u64("OMPCC_CSMITH_COUNT").unwrap_or(50) as usize;
    let first = env_u64("OMPCC_CSMITH_SEED").unwrap_or_else(|| {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        (now.as_nanos() as u64) % 4_000_000_000
    });
    eprintln!("csmith: {count} programs from seed {first}");
    let dir = tempfile::tempdir().unwrap();
    let next = AtomicU64::new(first);
    let compared = AtomicUsize::new(0);
    let skipped = AtomicUsize::new(0);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // seeds skipped for a slow or failing reference stay bounded
                let mut tries = 0;
                while compared.load(Ordering::SeqCst) < count && tries < 4 * count {
                    tries += 1;
                    let seed = next.fetch_add(1, Ordering::SeqCst);
                    match check_seed(seed, dir.path()) {
                        Ok(true) => {
                            compared.fetch_add(1, Ordering::SeqCst);
                        }
                        Ok(false) => {
                            skipped.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(e) => {
                            compared.fetch_add(1, Ordering::SeqCst);
                            failures.lock().unwrap().push(format!(
                                "seed {seed} (repeat: OMPCC_CSMITH_SEED={seed} \
                                 OMPCC_CSMITH_COUNT=1 cargo test -p ompcc-testsuite --test \
                                 csmith): {e}"
                            ));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let compared = compared.load(Ordering::SeqCst);
    assert!(
        failures.is_empty(),
        "{} of {compared} csmith programs differ or were refused:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        compared >= count,
        "only {compared} of {count} csmith programs had a reference run within {REF_LIMIT:?}"
    );
    eprintln!(
        "csmith: {compared} programs equal to gcc's output ({} seeds skipped: their \
         reference ran longer than {REF_LIMIT:?})",
        skipped.load(Ordering::SeqCst)
    );
}
