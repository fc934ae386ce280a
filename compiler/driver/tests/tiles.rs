//! Caching reused data (issue 16 item 7): const tables read from `.const` copies and stencil
//! reads staged in `.shared` fire at -O2 where the facts are proven, say so with
//! `-Rpass=const-tables` / `-Rpass=shared-tiles`, name the missing fact with `-Rpass-missed`,
//! stay off at -O1 and under their `-C` knob, and on the emulator the staged stencil reads
//! fewer global sectors for the same output. The outputs against gcc are the run suite's
//! (`testsuite/run/const_tables.c`, `testsuite/run/shared_tiles.c`).

mod support;

use support::{Sandbox, ok, stdout};

const TABLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/const_tables.c"
);
const TILES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/shared_tiles.c"
);

#[test]
fn const_table_remarks_name_the_tables_and_the_missing_facts() {
    let sb = Sandbox::new();
    let asked = ["-Rpass=const-tables", "-Rpass-missed=const-tables"];
    let err = sb.remarks(TABLES, &[&["-O2"][..], &asked].concat());
    let has = |s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        "const_tables.c:39:1: remark: 'stencil' (40 bytes) is read from .const (ld.const): const-qualified with a constant initializer, so no host or device code can change it [-Rpass=const-tables]",
    );
    has("'perm' (32 bytes) is read from .const");
    has("'scale' stays in .global: it is not const-qualified: host code may change it");
    has("'counts' stays in .global: it is not const-qualified");
    has("'pairs' stays in .global: its elements are not integers or floats of at most 8 bytes");
    has(
        "'big' stays in .global: 49152 bytes do not fit the 32696 bytes left of this unit's 32768-byte .const budget",
    );
    assert_eq!(err.matches("[-Rpass=const-tables]").count(), 2, "{err}");
    for extra in [&["-O1"][..], &["-O2", "-C", "const-tables=off"][..]] {
        let quiet = sb.remarks(TABLES, &[extra, &asked].concat());
        assert!(!quiet.contains("remark"), "{extra:?}: {quiet}");
    }
}

#[test]
fn shared_tile_remarks_name_the_arrays_and_the_missing_facts() {
    let sb = Sandbox::new();
    let asked = ["-Rpass=shared-tiles", "-Rpass-missed=shared-tiles"];
    let err = sb.remarks(TILES, &[&["-O2"][..], &asked].concat());
    let has = |s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        "shared_tiles.c:16:1: remark: 'x' staged in .shared: each block loads x[i] .. x[i + 4] of its threads' iterations once (blockDim + 4 elements) and the reads x[i], x[i + 1], x[i + 2], x[i + 3], x[i + 4] take them from there after a barrier",
    );
    has("'a' staged in .shared: each block loads a[i - 1] .. a[i + 1]");
    has(
        "'p' is read at several offsets but not staged in .shared: the write to 'q' at line 26 may alias 'p'",
    );
    has("'a' is written in the region at line 56");
    has("'a' is used at line 62 other than as 'a[i + c]' with a constant c");
    has("the read at line 68 happens only under '&&', '||' or '?:'");
    has("the loop body has control flow at line 75");
    assert_eq!(err.matches("[-Rpass=shared-tiles]").count(), 2, "{err}");
    assert_eq!(
        err.matches("[-Rpass-missed=shared-tiles]").count(),
        5,
        "{err}"
    );
    for extra in [&["-O1"][..], &["-O2", "-Cshared-tiles=off"][..]] {
        let quiet = sb.remarks(TILES, &[extra, &asked].concat());
        assert!(!quiet.contains("remark"), "{extra:?}: {quiet}");
    }
    // without a one-iteration kernel there is nothing to stage, and the remark says why
    let off = sb.remarks(
        TILES,
        &[&["-O2", "-Cone-iteration=off"][..], &asked].concat(),
    );
    assert!(
        off.contains("the region has no one-iteration kernel"),
        "{off}"
    );
    assert!(!off.contains("[-Rpass=shared-tiles]"), "{off}");
}

/// Global sectors and warp instructions of one kernel from an `OMPCC_PROFILE` file.
fn kernel_counts(json: &[u8], kernel_prefix: &str) -> (u64, u64) {
    let v: serde_json::Value = serde_json::from_slice(json).expect("profile JSON");
    let kernels = v["kernels"].as_object().expect("kernels");
    let (_, k) = kernels
        .iter()
        .find(|(name, _)| name.starts_with(kernel_prefix))
        .unwrap_or_else(|| panic!("no kernel {kernel_prefix} in {v}"));
    (
        k["sectors"].as_u64().expect("sectors"),
        k["instructions"].as_u64().expect("instructions"),
    )
}

#[test]
fn shared_tiles_read_fewer_global_sectors_on_the_emulator() {
    let sb = Sandbox::new();
    let mut outputs = Vec::new();
    let mut sectors = Vec::new();
    for (exe, knob) in [("on", "shared-tiles=on"), ("off", "shared-tiles=off")] {
        ok(&sb.ompcc(&["-fopenmp", "-O2", "-C", knob, TILES, "-o", exe]));
        let out = std::process::Command::new(sb.join(exe))
            .current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY")
            .env("OMPCC_PROFILE", format!("json:{exe}.json"))
            .output()
            .unwrap();
        ok(&out);
        outputs.push(stdout(&out));
        let json = sb.read(&format!("{exe}.json"));
        sectors.push([
            kernel_counts(&json, "__omp_offload_blur5").0,
            kernel_counts(&json, "__omp_offload_main_l45").0,
        ]);
    }
    assert_eq!(outputs[0], outputs[1]);
    // each element read once per block instead of once per offset: the 5-point stencil
    // reads 1596 sectors as written and 508 staged, the 3-point one 1093 and 538
    for k in 0..2 {
        assert!(
            sectors[0][k] * 3 < sectors[1][k] * 2,
            "staged {:?} vs global {:?}",
            sectors[0],
            sectors[1]
        );
    }
}
