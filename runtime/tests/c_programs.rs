//! Links a C program (`tests/c/prog.c`) against the static library next to this test binary,
//! with libgomp, and checks what users see: which `omp_*` definitions win, device selection
//! without a driver, `OMPCC_INFO` / `OMPCC_PROFILE` output and fatal errors. On a machine with
//! a CUDA GPU the same program runs real kernels (set `OMPCC_REQUIRE_GPU=1` to make a missing
//! GPU a failure).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;
use common::staticlib;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c")
}

struct Built {
    _dir: tempfile::TempDir,
    ours_first: PathBuf,
    gomp_first: PathBuf,
    fake_cuda: PathBuf,
}

/// Builds `tests/c/omp_only.c` (which calls nothing but `omp_*`) with the library before or
/// after `-lgomp`.
fn build_omp_only(dir: &Path, gomp_first: bool) -> PathBuf {
    let out = dir.join(if gomp_first {
        "omp_gomp_first"
    } else {
        "omp_ours_first"
    });
    let mut cmd = Command::new("cc");
    cmd.arg("-fopenmp").arg(src_dir().join("omp_only.c"));
    if gomp_first {
        cmd.arg("-lgomp");
    }
    cmd.arg(staticlib())
        .args(["-ldl", "-lpthread", "-lm", "-o"])
        .arg(&out);
    let o = cmd.output().expect("cc must be installed");
    assert!(
        o.status.success(),
        "link failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn build() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
        let link = |out: &Path, gomp_first: bool| {
            let mut cmd = Command::new("cc");
            cmd.arg("-fopenmp")
                .arg("-I")
                .arg(&include)
                .arg(src_dir().join("prog.c"));
            if gomp_first {
                cmd.arg("-lgomp");
            }
            cmd.arg(staticlib())
                .args(["-ldl", "-lpthread", "-lm", "-o"])
                .arg(out);
            let o = cmd.output().expect("cc must be installed");
            assert!(
                o.status.success(),
                "link failed: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        };
        let ours_first = dir.path().join("prog");
        let gomp_first = dir.path().join("prog_gomp_first");
        link(&ours_first, false);
        link(&gomp_first, true);
        let fake_cuda = dir.path().join("libfakecuda.so");
        let o = Command::new("cc")
            .args(["-shared", "-fPIC", "-o"])
            .arg(&fake_cuda)
            .arg(src_dir().join("fake_libcuda.c"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        Built {
            _dir: dir,
            ours_first,
            gomp_first,
            fake_cuda,
        }
    })
}

/// Runs the program with a clean ompcc/OpenMP environment plus `env`.
fn run_exe(exe: &Path, scenario: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.arg(scenario).arg(src_dir());
    for (k, _) in std::env::vars() {
        if k.starts_with("OMPCC_") || k.starts_with("OMP_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(env.iter().copied());
    cmd.output().unwrap()
}

fn run(scenario: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let o = run_exe(&build().ours_first, scenario, env);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const NO_DRIVER: (&str, &str) = ("OMPCC_LIBCUDA", "/nonexistent/libcuda.so.1");

#[test]
fn our_omp_functions_win_when_linked_before_libgomp() {
    let (rc, out, _) = run("devices", &[("OMPCC_DEVICE", "sim")]);
    assert_eq!(rc, 0);
    assert_eq!(out, "devices=1 initial=1 default=0\n");
    // A program that uses runtime entry points pulls our definitions in whatever the order
    // (an executable's definition beats a shared library's, no duplicate-symbol error).
    let o = run_exe(&build().gomp_first, "devices", &[("OMPCC_DEVICE", "sim")]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "devices=1 initial=1 default=0\n"
    );
    // A program that calls only omp_* functions shows why the driver puts libompcc_rt.a
    // first: after -lgomp, libgomp's no-device versions are bound and ours never pulled in.
    let dir = tempfile::tempdir().unwrap();
    let sim = [("OMPCC_DEVICE", "sim")];
    let o = run_exe(&build_omp_only(dir.path(), false), "", &sim);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "devices=1 initial=1 threads=2\n"
    );
    let o = run_exe(&build_omp_only(dir.path(), true), "", &sim);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "devices=0 initial=0 threads=2\n"
    );
}

#[test]
fn missing_driver_falls_back_to_the_host() {
    let (rc, out, err) = run("launch", &[NO_DRIVER]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=0 a0=1 a7=8\n");
    assert_eq!(err, "");
    let (_, out, _) = run("devices", &[NO_DRIVER]);
    assert_eq!(out, "devices=0 initial=0 default=0\n");
}

#[test]
fn missing_driver_under_mandatory_is_a_clear_error() {
    let (rc, out, err) = run("launch", &[NO_DRIVER, ("OMP_TARGET_OFFLOAD", "mandatory")]);
    assert_eq!(rc, 1);
    assert_eq!(out, "");
    assert!(
        err.starts_with(
            "ompcc-rt: error: prog.c:30:9: OMP_TARGET_OFFLOAD=MANDATORY but no offload device is \
             available: cannot load /nonexistent/libcuda.so.1: "
        ),
        "{err}"
    );
}

#[test]
fn explicit_cuda_without_driver_is_an_error() {
    let (rc, _, err) = run("data", &[NO_DRIVER, ("OMPCC_DEVICE", "cuda")]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("prog.c:20:1: no offload device: cannot load /nonexistent"),
        "{err}"
    );
}

#[test]
fn host_device_and_disabled_offload_run_on_the_host() {
    for env in [("OMPCC_DEVICE", "host"), ("OMP_TARGET_OFFLOAD", "disabled")] {
        let (rc, out, err) = run("launch", &[env, ("OMPCC_INFO", "1")]);
        assert_eq!(rc, 0);
        assert_eq!(out, "ran=0 a0=1 a7=8\n");
        assert!(
            err.contains("prog.c:30:9: kernel 'k' runs on the host (fallback)"),
            "{err}"
        );
    }
}

#[test]
fn bad_environment_values_warn() {
    let (rc, _, err) = run("devices", &[NO_DRIVER, ("OMP_TARGET_OFFLOAD", "sometimes")]);
    assert_eq!(rc, 0);
    assert!(
        err.contains("ompcc-rt: warning: ignoring OMP_TARGET_OFFLOAD=sometimes"),
        "{err}"
    );
}

#[test]
fn info_logs_maps_and_transfers_with_locations() {
    let (rc, out, err) = run("data", &[("OMPCC_DEVICE", "sim"), ("OMPCC_INFO", "1")]);
    assert_eq!(rc, 0);
    assert_eq!(out, "a0=0 a7=7\n", "update from restored the device value");
    let lines: Vec<&str> = err.lines().collect();
    let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
    assert!(has("device 0: sim:0"), "{err}");
    assert!(has("prog.c:12:5: map to 'a[0:8]' ["), "{err}");
    assert!(has("+32) -> device 0 0x5ee0"), "{err}");
    assert!(has("(new; refs dynamic=1 structured=0)"), "{err}");
    assert!(has("prog.c:12:5: copy to device 'a[0:8]'"), "{err}");
    assert!(has("prog.c:12:5: copy from device 'a[0:8]'"), "{err}");
    assert!(has("refs dynamic=0 structured=0; removed"), "{err}");
    let (_, _, quiet) = run("data", &[("OMPCC_DEVICE", "sim")]);
    assert_eq!(quiet, "");
}

#[test]
fn profile_table_is_printed_at_exit() {
    let (rc, _, err) = run("data", &[("OMPCC_DEVICE", "sim"), ("OMPCC_PROFILE", "1")]);
    assert_eq!(rc, 0);
    assert!(err.starts_with("ompcc-rt profile\n"), "{err}");
    let row = |name: &str| -> Vec<String> {
        let line = err
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{err}"));
        line.split_whitespace().map(str::to_string).collect()
    };
    assert_eq!(row("host->device")[1..3], ["1", "32"]);
    assert_eq!(row("device->host")[1..3], ["2", "64"]);
}

#[test]
fn profile_json_is_written_at_exit_even_after_a_fatal_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.json");
    let spec = format!("json:{}", path.display());
    let (rc, _, err) = run(
        "overlap",
        &[("OMPCC_DEVICE", "sim"), ("OMPCC_PROFILE", &spec)],
    );
    assert_eq!(rc, 1, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("valid JSON");
    assert_eq!(v["transfers"]["host_to_device"]["count"], 1);
    assert_eq!(v["transfers"]["host_to_device"]["bytes"], 16);
    assert!(v["kernels"].as_object().unwrap().is_empty());
}

#[test]
fn fatal_mapping_error_names_both_items() {
    let (rc, out, err) = run("overlap", &[("OMPCC_DEVICE", "sim")]);
    assert_eq!(rc, 1);
    assert_eq!(out, "");
    assert!(
        err.starts_with("ompcc-rt: error: prog.c:71:30: 'a[2:4]' [0x"),
        "{err}"
    );
    assert!(err.contains("partially overlaps 'a[0:8]'"), "{err}");
    assert!(err.contains("mapped at prog.c:12:5 on device 0"), "{err}");
}

const EMU: (&str, &str) = ("OMPCC_DEVICE", "emu");

/// The scenarios the fake driver and real GPUs run, on the PTX emulator.
#[test]
fn emu_runs_the_driver_scenarios() {
    let (rc, out, err) = run("launch", &[EMU, ("OMPCC_INFO", "1")]);
    assert_eq!((rc, out.as_str()), (0, "ran=1 a0=1 a7=8\n"), "{err}");
    assert!(err.contains("device 0: emu:0 (PTX emulator"), "{err}");
    assert!(
        err.contains("prog.c:30:9: launch 'k' on device 0: 2 teams x 4 threads"),
        "{err}"
    );
    let (rc, out, err) = run("global", &[EMU]);
    assert_eq!(
        (rc, out.as_str()),
        (0, "ran=1 g_val=42 present=1\n"),
        "{err}"
    );
    let (rc, out, err) = run("link", &[EMU]);
    assert_eq!(
        (rc, out.as_str()),
        (0, "ran=1 a0=42\n"),
        "use_twice calls twice from the other module: {err}"
    );
    let (rc, out, err) = run("data", &[EMU]);
    assert_eq!((rc, out.as_str()), (0, "a0=0 a7=7\n"), "{err}");
    let (rc, out, err) = run("nokernel", &[EMU]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert!(
        err.starts_with("ompcc-rt: error: prog.c:65:9: kernel 'missing' on emu:0 "),
        "{err}"
    );
    assert!(err.contains("no kernel named `missing`"), "{err}");
}

#[test]
fn emu_bad_ptx_names_module_and_line() {
    let (rc, out, err) = run("badptx", &[EMU]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert!(
        err.starts_with(
            "ompcc-rt: error: prog.c:60:9: loading the device code of bad.ptx: emu load failed: PTX"
        ),
        "{err}"
    );
    assert!(err.contains("line 6 of bad.ptx"), "{err}");
    assert!(err.contains("%r1"), "{err}");
}

#[test]
fn emu_unresolved_extern_variable_is_a_link_error() {
    let (rc, out, err) = run("unresolved", &[EMU]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "ompcc-rt: error: prog.c:140:9: loading the device code of emu.ptx: emu link failed: \
         `.extern` variable `g_val` of emu.ptx is not defined by any module\n"
    );
}

#[test]
fn emu_device_printf_is_in_order_with_host_output() {
    let (rc, out, err) = run("hello", &[EMU]);
    assert_eq!(rc, 0, "{err}");
    let dev: String = (0..8).map(|i| format!("dev {i}\n")).collect();
    assert_eq!(out, format!("host before\n{dev}host after ran=1\n"));
}

#[test]
fn emu_saxpy_copies_to_and_from() {
    let (rc, out, err) = run("saxpy", &[EMU, ("OMP_TARGET_OFFLOAD", "mandatory")]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 x999=999 y0=1 y999=1999 sum=1000000\n", "{err}");
    // without a device the host fallback computes the same
    let (_, host, _) = run("saxpy", &[("OMPCC_DEVICE", "host")]);
    assert_eq!(host, out.replace("ran=1", "ran=0"));
}

#[test]
fn emu_kernel_reads_declare_target_global_after_update() {
    let (rc, out, err) = run("gread", &[EMU, ("OMPCC_INFO", "1")]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out, "ran=1 before=41 after=1234\n",
        "initializer from inc.ptx, then the value of `target update to`"
    );
    assert!(
        err.contains("prog.c:112:27: copy to device 'g_val'"),
        "{err}"
    );
}

#[test]
fn emu_fault_is_fatal_and_names_kernel_and_locations() {
    let (rc, out, err) = run("oob", &[EMU]);
    assert_eq!((rc, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("ompcc-rt: error: prog.c:120:9: kernel 'oob' on emu:0 (PTX emulator, "),
        "{err}"
    );
    assert!(
        err.contains("emu launch failed: kernel `oob` block ("),
        "{err}"
    );
    assert!(
        err.contains("out-of-bounds global store of 4 bytes at address 0x"),
        "{err}"
    );
    assert!(err.contains("(allocation 0x"), "{err}");
    let ptx = std::fs::read_to_string(src_dir().join("emu.ptx")).unwrap();
    let store = 1 + ptx
        .lines()
        .position(|l| l.contains("st.global.u32 [%rd4], %r5;"))
        .unwrap();
    assert!(
        err.contains(&format!(" at PTX line {store} of emu.ptx (prog.c:121)\n")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The fault is in inc.ptx, linked before emu.ptx: both number their file `1`, and the
/// message must still name inc.ptx's own file and line.
#[test]
fn emu_fault_in_the_first_module_names_its_source_file() {
    let (rc, out, err) = run("oobinc", &[EMU]);
    assert_eq!((rc, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("ompcc-rt: error: prog.c:125:9: kernel 'k' on emu:0 "),
        "{err}"
    );
    assert!(
        err.contains("emu launch failed: kernel `k` block ("),
        "{err}"
    );
    assert!(err.contains("(allocation 0x"), "{err}");
    assert!(err.contains(" of 16 bytes) at PTX line "), "{err}");
    assert!(err.ends_with(" of inc.ptx (inc.c:7)\n"), "{err}");
}

#[test]
fn emu_block_instruction_limit_stops_endless_loops() {
    let (rc, out, err) = run(
        "spin",
        &[
            EMU,
            ("OMPCC_EMU_MAX_BLOCK_INSTS", "5000"),
            ("OMPCC_EMU_THREADS", "1"),
        ],
    );
    assert_eq!((rc, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("ompcc-rt: error: prog.c:130:9: kernel 'spin' on emu:0 (PTX emulator, 1 host threads): emu launch failed: kernel `spin` block ("),
        "{err}"
    );
    assert!(err.contains("more than 5000 warp instructions"), "{err}");
    assert!(err.contains("of emu.ptx"), "{err}");
}

#[test]
fn emu_profile_reports_instructions_and_coalescing() {
    let (rc, _, err) = run("saxpy", &[EMU, ("OMPCC_PROFILE", "1")]);
    assert_eq!(rc, 0, "{err}");
    let row = err
        .lines()
        .find(|l| l.starts_with("saxpy "))
        .unwrap_or_else(|| panic!("{err}"));
    let k: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(k[..2], ["saxpy", "1"], "{err}");
    let insts: u64 = k[4].parse().unwrap_or_else(|_| panic!("{row}"));
    // 8 warps, 4 trips each through a loop of about a dozen instructions
    assert!(insts > 8 * 4 * 12, "{row}");
    // 4-byte loads and stores by 32 consecutive lanes touch 4 sectors per request, except in
    // the last, partial warp
    let per_req: f64 = k[5].parse().unwrap_or_else(|_| panic!("{row}"));
    assert!((3.5..=4.0).contains(&per_req), "{row}");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.json");
    let spec = format!("json:{}", path.display());
    let (rc, _, err) = run("saxpy", &[EMU, ("OMPCC_PROFILE", &spec)]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("valid JSON");
    let saxpy = &v["kernels"]["saxpy"];
    assert_eq!(saxpy["launches"], 1);
    assert_eq!(saxpy["instructions"].as_u64(), Some(insts));
    // 1000 floats in x and y: 3 requests per warp-iteration, 32 warps' worth of lanes
    assert_eq!(saxpy["requests"].as_u64(), Some(3 * 1000u64.div_ceil(32)));
    assert_eq!(saxpy["sectors"].as_u64(), Some(3 * 1000 * 4 / 32));
}

/// Real kernels on a CUDA GPU when one is present; otherwise the same scenarios must take the
/// host fallback. `OMPCC_REQUIRE_GPU=1` turns a missing GPU into a failure.
#[test]
fn cuda_device_runs_kernels_or_falls_back() {
    let (_, devices, err) = run("devices", &[]);
    let has_gpu = !devices.starts_with("devices=0");
    if std::env::var("OMPCC_REQUIRE_GPU").is_ok_and(|v| v == "1") {
        assert!(has_gpu, "OMPCC_REQUIRE_GPU=1 but no GPU: {devices} {err}");
    }
    let ran = if has_gpu { "1" } else { "0" };
    let (rc, out, err) = run(
        "launch",
        &[(
            "OMP_TARGET_OFFLOAD",
            if has_gpu { "mandatory" } else { "default" },
        )],
    );
    assert_eq!(
        (rc, out.as_str()),
        (0, format!("ran={ran} a0=1 a7=8\n").as_str()),
        "{err}"
    );
    let (rc, out, err) = run("global", &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, format!("ran={ran} g_val=42 present=1\n"), "{err}");
    let (rc, out, err) = run("link", &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, format!("ran={ran} a0=42\n"), "{err}");
    // the emulator scenarios give the same answers on the GPU
    let (rc, out, err) = run("saxpy", &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out,
        format!("ran={ran} x999=999 y0=1 y999=1999 sum=1000000\n"),
        "{err}"
    );
    let (rc, out, err) = run("gread", &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, format!("ran={ran} before=41 after=1234\n"), "{err}");
    let (rc, out, err) = run("badptx", &[]);
    if has_gpu {
        assert_eq!(rc, 1, "{out}");
        assert!(err.contains("prog.c:60:9: loading the device code of bad.ptx: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"), "{err}");
        assert!(err.contains("ptxas"), "JIT log shown: {err}");
    } else {
        assert_eq!((rc, out.as_str()), (0, "ran=0\n"));
    }
}

/// Runs a scenario on the fake CUDA driver (`tests/c/fake_libcuda.c`), MANDATORY offload.
fn run_fake(scenario: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let lib = build().fake_cuda.to_str().unwrap().to_string();
    let mut all = vec![
        ("OMPCC_LIBCUDA", lib.as_str()),
        ("OMP_TARGET_OFFLOAD", "mandatory"),
    ];
    all.extend_from_slice(env);
    run(scenario, &all)
}

#[test]
fn cuda_backend_maps_launches_and_copies_back_through_the_driver_api() {
    let trace = [("FAKE_CUDA_TRACE", "1"), ("OMPCC_INFO", "1")];
    let (rc, out, err) = run_fake("launch", &trace);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 a0=1 a7=8\n");
    assert!(err.contains("device 0: cuda:0 Fake GPU (sm_90)"), "{err}");
    assert!(
        err.contains("fake-cuda: launch k grid=2x1x1 block=4x1x1 shared=0"),
        "{err}"
    );
    assert!(
        err.contains("prog.c:30:9: launch 'k' on device 0: 2 teams x 4 threads"),
        "{err}"
    );
}

#[test]
fn cuda_launch_is_clamped_to_the_kernels_thread_limit() {
    // `thread_limit(4)` is an upper bound; a kernel whose registers allow 2 threads per block
    // runs with 2 instead of failing with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.
    let env = [
        ("FAKE_CUDA_TRACE", "1"),
        ("OMPCC_INFO", "1"),
        ("FAKE_CUDA_MAX_THREADS", "2"),
    ];
    let (rc, out, err) = run_fake("launch", &env);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 a0=1 a7=8\n");
    assert!(
        err.contains("fake-cuda: launch k grid=2x1x1 block=2x1x1 shared=0"),
        "{err}"
    );
    assert!(
        err.contains("prog.c:30:9: launch 'k' on device 0: 2 teams x 2 threads"),
        "{err}"
    );
}

#[test]
fn cuda_backend_finds_declare_target_globals() {
    let (rc, out, err) = run_fake("global", &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 g_val=42 present=1\n");
}

#[test]
fn cuda_backend_links_several_modules() {
    let (rc, out, err) = run_fake("link", &[]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out, "ran=1 a0=42\n",
        "use_twice resolved 'twice' from the other module"
    );
}

#[test]
fn cuda_jit_failure_shows_error_name_and_log() {
    let (rc, out, err) = run_fake("badptx", &[]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "ompcc-rt: error: prog.c:60:9: loading the device code of bad.ptx: cuModuleLoadDataEx \
         failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)\nptxas application ptx \
         input, line 6; error   : Unknown symbol '%r1'\n"
    );
}

#[test]
fn cuda_without_device_is_named_by_the_driver_error() {
    let (rc, _, err) = run_fake("launch", &[("FAKE_CUDA_NO_DEVICE", "1")]);
    assert_eq!(rc, 1);
    assert!(
        err.contains(
            "MANDATORY but no offload device is available: cuInit failed: CUDA_ERROR_NO_DEVICE \
             (no CUDA-capable device is detected)"
        ),
        "{err}"
    );
    let lib = build().fake_cuda.to_str().unwrap().to_string();
    let (rc, out, _) = run(
        "launch",
        &[("OMPCC_LIBCUDA", &lib), ("FAKE_CUDA_NO_DEVICE", "1")],
    );
    assert_eq!((rc, out.as_str()), (0, "ran=0 a0=1 a7=8\n"));
}

#[test]
fn cuda_pinned_staging_gives_the_same_results() {
    let (rc, out, err) = run_fake("data", &[("OMPCC_PINNED_STAGING", "16")]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "a0=0 a7=7\n");
    let (rc, out, err) = run_fake("launch", &[("OMPCC_PINNED_STAGING", "16")]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 a0=1 a7=8\n");
}

#[test]
fn profile_counts_kernel_launches() {
    let (rc, _, err) = run_fake("launch", &[("OMPCC_PROFILE", "1")]);
    assert_eq!(rc, 0, "{err}");
    let row = err
        .lines()
        .find(|l| l.starts_with("k "))
        .unwrap_or_else(|| panic!("{err}"));
    let k: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(k[..2], ["k", "1"]);
    assert_eq!(
        k[4..],
        ["-", "-"],
        "the driver reports no instruction or sector counts"
    );
}

/// The header and the Rust definitions agree on every constant, size and offset.
#[test]
fn header_matches_the_rust_abi() {
    use ompcc_rt::abi::{GlobalDescC, KernelDescC, LaunchArgsC, MapEntryC, ModuleDescC};
    use ompcc_rt::flags::*;
    use std::mem::{offset_of, size_of};
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("abi_layout");
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let o = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Werror", "-I"])
        .arg(&include)
        .arg(src_dir().join("abi_layout.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(Command::new(&exe).output().unwrap().stdout).unwrap();
    let expect = [
        ("abi", u64::from(ompcc_rt::abi::ABI_VERSION)),
        ("to", TO),
        ("from", FROM),
        ("always", ALWAYS),
        ("delete", DELETE),
        ("target_param", TARGET_PARAM),
        ("literal", LITERAL),
        ("implicit", IMPLICIT),
        ("close", CLOSE),
        ("present", PRESENT),
        ("attach", ATTACH),
        ("member_of_3", member_of_bits(3)),
        ("sizeof.kernel", size_of::<KernelDescC>() as u64),
        ("sizeof.global", size_of::<GlobalDescC>() as u64),
        ("sizeof.module", size_of::<ModuleDescC>() as u64),
        ("sizeof.entry", size_of::<MapEntryC>() as u64),
        ("sizeof.launch", size_of::<LaunchArgsC>() as u64),
        (
            "ompcc_rt_kernel_desc.num_params",
            offset_of!(KernelDescC, num_params) as u64,
        ),
        (
            "ompcc_rt_kernel_desc.param_sizes",
            offset_of!(KernelDescC, param_sizes) as u64,
        ),
        (
            "ompcc_rt_global_desc.host_addr",
            offset_of!(GlobalDescC, host_addr) as u64,
        ),
        (
            "ompcc_rt_global_desc.size",
            offset_of!(GlobalDescC, size) as u64,
        ),
        (
            "ompcc_rt_module_desc.num_kernels",
            offset_of!(ModuleDescC, num_kernels) as u64,
        ),
        (
            "ompcc_rt_module_desc.num_globals",
            offset_of!(ModuleDescC, num_globals) as u64,
        ),
        (
            "ompcc_rt_module_desc.name",
            offset_of!(ModuleDescC, name) as u64,
        ),
        (
            "ompcc_rt_module_desc.ptx",
            offset_of!(ModuleDescC, ptx) as u64,
        ),
        (
            "ompcc_rt_module_desc.ptx_size",
            offset_of!(ModuleDescC, ptx_size) as u64,
        ),
        (
            "ompcc_rt_module_desc.kernels",
            offset_of!(ModuleDescC, kernels) as u64,
        ),
        (
            "ompcc_rt_module_desc.globals",
            offset_of!(ModuleDescC, globals) as u64,
        ),
        (
            "ompcc_rt_map_entry.begin",
            offset_of!(MapEntryC, begin) as u64,
        ),
        (
            "ompcc_rt_map_entry.size",
            offset_of!(MapEntryC, size) as u64,
        ),
        (
            "ompcc_rt_map_entry.flags",
            offset_of!(MapEntryC, flags) as u64,
        ),
        (
            "ompcc_rt_map_entry.name",
            offset_of!(MapEntryC, name) as u64,
        ),
        ("ompcc_rt_map_entry.loc", offset_of!(MapEntryC, loc) as u64),
        (
            "ompcc_rt_launch_args.kernel",
            offset_of!(LaunchArgsC, kernel) as u64,
        ),
        (
            "ompcc_rt_launch_args.device",
            offset_of!(LaunchArgsC, device) as u64,
        ),
        (
            "ompcc_rt_launch_args.num_entries",
            offset_of!(LaunchArgsC, num_entries) as u64,
        ),
        (
            "ompcc_rt_launch_args.entries",
            offset_of!(LaunchArgsC, entries) as u64,
        ),
        (
            "ompcc_rt_launch_args.num_teams",
            offset_of!(LaunchArgsC, num_teams) as u64,
        ),
        (
            "ompcc_rt_launch_args.thread_limit",
            offset_of!(LaunchArgsC, thread_limit) as u64,
        ),
        (
            "ompcc_rt_launch_args.dyn_shared_bytes",
            offset_of!(LaunchArgsC, dyn_shared_bytes) as u64,
        ),
        (
            "ompcc_rt_launch_args.loc",
            offset_of!(LaunchArgsC, loc) as u64,
        ),
        (
            "ompcc_rt_launch_args.nest",
            offset_of!(LaunchArgsC, nest) as u64,
        ),
    ];
    let mut want: String = format!(
        "device_default {}\ndevice_initial {}\n",
        ompcc_rt::DEVICE_DEFAULT,
        ompcc_rt::INITIAL_DEVICE
    );
    for (k, v) in expect {
        want.push_str(&format!("{k} {v}\n"));
    }
    let mut got: Vec<&str> = out.lines().collect();
    let mut want: Vec<&str> = want.lines().collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

/// `ptxas` on PATH, else from the `nvidia-cuda-nvcc-cu12` Python package.
fn ptxas() -> Option<PathBuf> {
    if Command::new("ptxas")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some(PathBuf::from("ptxas"));
    }
    let o = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])",
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8(o.stdout).ok()?;
    let p = Path::new(dir.trim()).join("bin/ptxas");
    p.exists().then_some(p)
}

/// The test PTX (run on the real driver when a GPU is present) is valid PTX, and bad.ptx is
/// not, so the JIT-failure scenario fails for the intended reason.
#[test]
fn test_ptx_files_assemble() {
    let Some(ptxas) = ptxas() else {
        let required = std::env::var("OMPCC_REQUIRE_PTXAS").is_ok_and(|v| v == "1");
        assert!(!required, "OMPCC_REQUIRE_PTXAS=1 but ptxas was not found");
        eprintln!("ptxas not found: PTX validity not checked");
        return;
    };
    let out = tempfile::tempdir().unwrap();
    for (file, ok) in [
        ("inc.ptx", true),
        ("caller.ptx", true),
        ("callee.ptx", true),
        ("emu.ptx", true),
        ("bad.ptx", false),
    ] {
        for arch in ["sm_70", "sm_90"] {
            let o = Command::new(&ptxas)
                .args(["-c", "-arch", arch, "-o"])
                .arg(out.path().join("x.cubin"))
                .arg(src_dir().join(file))
                .output()
                .unwrap();
            assert_eq!(
                o.status.success(),
                ok,
                "{file} {arch}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn cuda_launch_failure_names_kernel_device_and_location() {
    let (rc, out, err) = run_fake("nokernel", &[]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "ompcc-rt: error: prog.c:65:9: kernel 'missing' on cuda:0 Fake GPU (sm_90): \
         cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND (named symbol not found)\n"
    );
}

#[test]
fn cuda_unified_shared_memory_follows_pageable_memory_access() {
    // CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 1: the kernel gets `a`'s host address,
    // nothing is allocated or copied for it, and its writes are the host's without `from`
    let env = [
        ("FAKE_CUDA_PAGEABLE", "1"),
        ("FAKE_CUDA_TRACE", "1"),
        ("OMPCC_INFO", "1"),
    ];
    let (rc, out, err) = run_fake("usm", &env);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 a0=1 a7=8 accessible=1\n");
    assert!(
        err.contains(
            "device 0: unified shared memory (requires unified_shared_memory in inc.ptx): \
             kernels use host memory at host addresses, maps copy nothing"
        ),
        "{err}"
    );
    assert!(
        err.contains("module inc.ptx requires unified_address, unified_shared_memory"),
        "{err}"
    );
    // the declare-target global g_val (4 bytes) is the only device allocation and copy
    assert!(
        !err.contains("cuMemAlloc 32") && !err.contains("cuMemcpyHtoD 32"),
        "{err}"
    );
    assert!(!err.contains("copy to device 'a[0:8]'"), "{err}");
    // = 0: a clear error naming the requirement, the device and the attribute
    let (rc, out, err) = run_fake("usm", &[]);
    assert_eq!((rc, out.as_str()), (1, ""));
    assert!(
        err.contains(
            "ompcc-rt: error: prog.c:35:9: the program requires unified_shared_memory \
             ('#pragma omp requires unified_shared_memory' in inc.ptx) but device 0 (cuda:0 \
             Fake GPU (sm_90)) cannot provide it: the driver reports \
             CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 0"
        ),
        "{err}"
    );
    // no device: the host runs the region, where all memory is shared
    let (rc, out, err) = run("usm", &[NO_DRIVER]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=0 a0=1 a7=8 accessible=1\n");
}

#[test]
fn cuda_target_alloc_is_managed_memory_under_unified_shared_memory() {
    // the host writes and reads omp_target_alloc's storage, the kernel updates it in between
    let env = [("FAKE_CUDA_PAGEABLE", "1"), ("FAKE_CUDA_TRACE", "1")];
    let (rc, out, err) = run_fake("usm_alloc", &env);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=1 p0=1 p7=8\n");
    assert!(err.contains("fake-cuda: cuMemAllocManaged 32"), "{err}");
    assert!(!err.contains("fake-cuda: cuMemAlloc 32"), "{err}");
    // no device: the host's malloc
    let (rc, out, err) = run("usm_alloc", &[NO_DRIVER]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "ran=0 p0=1 p7=8\n");
}
