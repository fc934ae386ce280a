//! Grid mapping (issue 16): the parallel loop swap fires at -O2 where the access analysis
//! proves it legal, says so with `-Rpass=coalesce` (loop, strides before and after), says
//! which fact was missing with `-Rpass-missed=coalesce`, stays off at -O1 and under
//! `-C loop-swap=off`, and on the emulator makes a row-per-thread nest read far fewer sectors
//! per request. The outputs of the same program against gcc are the run suite's
//! (`testsuite/run/coalesce_swap.c`). The same for warp-cooperative inner loops, automatic
//! collapse, private array layout and irregular loop collapsing (`coalesce_coop*.c`,
//! `coalesce_collapse.c`, `coalesce_private_layout.c`, `coalesce_csr_flat.c`).

mod support;

use support::{Sandbox, ok, stderr, stdout};

const SWAP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_swap.c"
);

#[test]
fn loop_swap_remarks_name_the_loops_and_the_missing_facts() {
    let sb = Sandbox::new();
    let err = sb.remarks(SWAP, &["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"]);
    let has = |s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        "coalesce_swap.c:36:1: remark: parallel loop swap: the grid's threads take loop 'j' (line 38) instead of 'i' (line 37); unit or zero stride bytes per iteration 0 -> 16; strides in 'i': a[m*i + j] m, b[m*i + j] m; in 'j': a[m*i + j] 1, b[m*i + j] 1 [-Rpass=coalesce]",
    );
    // the k-loop's accesses weigh more; a broadcast counts as good
    has("strides in 'i': a[m*k + j] 0, t[m*i + j] m; in 'j': a[m*k + j] 1, t[m*i + j] 1");
    // 3-D: the innermost loop, with 'j' run by each thread
    has("the grid's threads take loop 'k' (line 53) instead of 'i' (line 51)");
    // a directive reduction and a downward inner loop
    has(
        "instead of 'i' (line 58); unit or zero stride bytes per iteration 0 -> 16; strides in 'i': a[m*i + j] m; in 'j': a[m*i + j] -1",
    );
    has("the grid's threads take loop 'j' (line 67) instead of 'i' (line 66)");
    // where it must not fire, the missing fact
    has(
        "coalesce_swap.c:16:1: remark: loop 'j' (line 18) has unit or zero stride for more bytes than the distributed loop 'i' (16 vs 0 per iteration), but the loops were not swapped: loop 'j': 'src' may alias it [-Rpass-missed=coalesce]",
    );
    has("not swapped: loop 'j': a dependence on 'a' may be carried by the loop");
    has("not swapped: loop 'j': the expression reads memory or calls a function");
    // triangular nests, up and down: the bounding box of j's ranges
    has(
        "the grid's threads take loop 'j' (line 82) (over the bounding box of its ranges in 'i') instead of 'i' (line 81)",
    );
    has(
        "the grid's threads take loop 'j' (line 86) (over the bounding box of its ranges in 'i') instead of 'i' (line 85)",
    );
    has(
        "not swapped: the bounds of loop 'j' use 'i' (a non-rectangular nest; a boxed swap needs a step of 1 or -1 and bounds affine in one outer loop's variable)",
    );
    assert_eq!(err.matches("[-Rpass=coalesce]").count(), 7, "{err}");
    assert_eq!(err.matches("[-Rpass-missed=coalesce]").count(), 4, "{err}");

    // one kind asked for, one kind printed
    let passed = sb.remarks(SWAP, &["-O2", "-Rpass=coalesce"]);
    assert!(!passed.contains("-Rpass-missed"), "{passed}");
    assert_eq!(passed.matches("[-Rpass=coalesce]").count(), 7, "{passed}");
    // not at -O1, not with the knob off
    for extra in [
        &["-O1", "-Rpass=coalesce", "-Rpass-missed=coalesce"][..],
        &[
            "-O2",
            "-C",
            "loop-swap=off",
            "-Rpass=coalesce",
            "-Rpass-missed=coalesce",
        ][..],
        &["-O1", "-Cloop-swap=on", "-Rpass-missed=coalesce"][..],
    ] {
        let quiet = sb.remarks(SWAP, extra);
        assert!(!quiet.contains("parallel loop swap"), "{extra:?}: {quiet}");
    }
    // ... unless the knob turns it on at -O1
    let on = sb.remarks(SWAP, &["-O1", "-Cloop-swap=on", "-Rpass=coalesce"]);
    assert_eq!(on.matches("[-Rpass=coalesce]").count(), 7, "{on}");
    let bad = sb.ompcc(&["-fopenmp", "-O2", "-Cloop-swap=maybe", "-c", SWAP]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("-C loop-swap=maybe: expected `on` or `off`"),
        "{}",
        stderr(&bad)
    );
}

/// Sectors per request of a program's kernels from its `OMPCC_PROFILE` file.
fn sectors_per_request(json: &[u8]) -> f64 {
    let (s, r) = sectors_and_requests(json);
    s as f64 / r as f64
}

/// Global-memory sectors and requests of a program's kernels from its `OMPCC_PROFILE` file.
fn sectors_and_requests(json: &[u8]) -> (u64, u64) {
    let v: serde_json::Value = serde_json::from_slice(json).expect("profile JSON");
    let (mut s, mut r) = (0u64, 0u64);
    for k in v["kernels"].as_object().expect("kernels").values() {
        s += k["sectors"].as_u64().expect("sectors");
        r += k["requests"].as_u64().expect("requests");
    }
    (s, r)
}

#[test]
fn loop_swap_coalesces_a_row_per_thread_nest_on_the_emulator() {
    let sb = Sandbox::new();
    sb.write(
        "rows.c",
        r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 64, m = 96;
    float *a = malloc(sizeof(float) * n * m), *b = malloc(sizeof(float) * n * m);
    for (int i = 0; i < n * m; i++)
        a[i] = (float)(i % 17);
#pragma omp target teams distribute parallel for map(to : a[0:n * m]) map(from : b[0:n * m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = 2.0f * a[i * m + j] + 1.0f;
    double s = 0;
    for (int i = 0; i < n * m; i++)
        s += b[i] * (i % 5 + 1);
    printf("%.1f\n", s);
    return 0;
}
"#,
    );
    let mut spr = Vec::new();
    for (exe, knob) in [("on", "loop-swap=on"), ("off", "loop-swap=off")] {
        ok(&sb.ompcc(&["-fopenmp", "-O2", "-C", knob, "rows.c", "-o", exe]));
        let out = std::process::Command::new(sb.join(exe))
            .current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY")
            .env("OMPCC_PROFILE", format!("json:{exe}.json"))
            .output()
            .unwrap();
        ok(&out);
        assert_eq!(stdout(&out), "313102.0\n");
        spr.push(sectors_per_request(&sb.read(&format!("{exe}.json"))));
    }
    // swapped: consecutive threads read consecutive floats (4 sectors per request); as
    // written: a row apart (one sector per lane)
    assert!(spr[0] <= 4.5, "{spr:?}");
    assert!(spr[1] >= 24.0, "{spr:?}");
}

const COOP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_coop.c"
);
const COOP_NO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_coop_no.c"
);

#[test]
fn warp_coop_remarks_name_the_lanes_strides_and_missing_facts() {
    let sb = Sandbox::new();
    let all = ["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"];
    let err = sb.remarks(COOP, &all);
    let has = |err: &str, s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        &err,
        "coalesce_coop.c:31:1: remark: warp-cooperative inner loop: 32 lanes share each iteration of 'i' (line 32) in loop 'j' (line 34), their partial 's' values ('+' reduction) combined by shuffles and lane 0 running the rest of the iteration; unit or zero stride bytes per iteration 4 -> 8; strides in 'i': a[m*i + j] m, x[j] 0; in 'j' (across lanes): a[m*i + j] 1, x[j] 1 [-Rpass=coalesce]",
    );
    // a 6-iteration row: 8 lanes; '^' and '*'
    has(
        &err,
        "8 lanes share each iteration of 'i' (line 59) in loop 'j' (line 61), their partial 'h' values ('^' reduction)",
    );
    has(&err, "their partial 'p' values ('*' reduction)");
    // a nested 'parallel for reduction' in 'teams distribute', a 'simd reduction': the
    // directive allows any order of the floating-point updates
    has(
        &err,
        "coalesce_coop.c:89:1: remark: warp-cooperative inner loop: 32 lanes share each iteration of 'i' (line 90) in loop 'j' (line 93)",
    );
    has(
        &err,
        "coalesce_coop.c:97:1: remark: warp-cooperative inner loop: 32 lanes share each iteration of 'i' (line 98) in loop 'j' (line 101)",
    );
    assert_eq!(err.matches("[-Rpass=coalesce]").count(), 7, "{err}");
    assert_eq!(err.matches("[-Rpass-missed=coalesce]").count(), 0, "{err}");

    let no = sb.remarks(COOP_NO, &all);
    assert_eq!(no.matches("[-Rpass=coalesce]").count(), 0, "{no}");
    for why in [
        "but its iterations were not shared by a group of lanes: 's' is a floating-point '+' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and it cannot be shared in order: the update of 's' is not computed in its own type [-Rpass-missed=coalesce]",
        "not shared by a group of lanes: loop 'j' writes memory ('w[m*i + j]', line",
        "not shared by a group of lanes: loop 'j' calls 'twice' (line",
        "not shared by a group of lanes: loop 'j' writes 'last', which is not a reduction variable declared in the distributed loop's body",
        "not shared by a group of lanes: a statement before loop 'j' in the distributed loop's body (only declarations run on every lane)",
        "not shared by a group of lanes: loop 'j' runs 3 iterations, too few to share",
        "not shared by a group of lanes: the directive's 'schedule' clause fixes which thread runs each iteration",
    ] {
        has(&no, why);
    }
    // reassoc: the floating-point sum too
    let re = sb.remarks(COOP_NO, &["-O2", "-Cwarp-coop=reassoc", "-Rpass=coalesce"]);
    has(&re, "their partial 's' values ('+' reduction)");
    assert_eq!(re.matches("[-Rpass=coalesce]").count(), 1, "{re}");
    // not at -O1, not with the knob off
    for extra in [
        &["-O1", "-Rpass=coalesce", "-Rpass-missed=coalesce"][..],
        &[
            "-O2",
            "-Cwarp-coop=off",
            "-Rpass=coalesce",
            "-Rpass-missed=coalesce",
        ][..],
    ] {
        let quiet = sb.remarks(COOP, extra);
        assert!(!quiet.contains("lanes"), "{extra:?}: {quiet}");
    }
    let on = sb.remarks(COOP, &["-O1", "-Cwarp-coop=on", "-Rpass=coalesce"]);
    assert_eq!(on.matches("[-Rpass=coalesce]").count(), 7, "{on}");
    // a nested directive with more than the reduction, or another variable's
    sb.write(
        "nested.c",
        r#"void f(int n, int m, const float *a, float *y) {
#pragma omp target teams distribute map(to : a[0:n * m]) map(from : y[0:n])
    for (int i = 0; i < n; i++) {
        float s = 0, t = 0;
#pragma omp parallel for reduction(+ : s) num_threads(4)
        for (int j = 0; j < m; j++)
            s += a[i * m + j];
        y[i] = s;
    }
#pragma omp target teams distribute map(to : a[0:n * m]) map(from : y[0:n])
    for (int i = 0; i < n; i++) {
        float s = 0;
#pragma omp parallel for
        for (int j = 0; j < m; j++)
            s += a[i * m + j];
        y[i] = s;
    }
    int b = 1;
#pragma omp target teams distribute parallel for firstprivate(b) map(to : a[0:n * m]) map(from : y[0:n])
    for (int i = 0; i < n; i++) {
        int s = b;
        for (int j = 0; j < m; j++)
            s += (int)a[i * m + j];
        b = s;
        y[i] = s;
    }
}
"#,
    );
    let nested = sb.remarks("nested.c", &all);
    has(
        &nested,
        "nested.c:19:1: remark: loop 'j' (line 22) has unit or zero stride for more bytes than the distributed loop 'i' (4 vs 0 per iteration), but its iterations were not shared by a group of lanes: 'b' is written after loop 'j' (by lane 0 alone) and read before it or in it [-Rpass-missed=coalesce]",
    );
    has(
        &nested,
        "nested.c:2:1: remark: loop 'j' (line 6) has unit or zero stride for more bytes than the distributed loop 'i' (4 vs 0 per iteration), but its iterations were not shared by a group of lanes: the directive of loop 'j' has more clauses than one 'reduction' (only one 'reduction' item is shared by lanes) [-Rpass-missed=coalesce]",
    );
    has(
        &nested,
        "nested.c:10:1: remark: loop 'j' (line 14) has unit or zero stride for more bytes than the distributed loop 'i' (4 vs 0 per iteration), but its iterations were not shared by a group of lanes: the directive of loop 'j' has no 'reduction' clause",
    );
    assert_eq!(nested.matches("[-Rpass=coalesce]").count(), 0, "{nested}");
    let bad = sb.ompcc(&["-fopenmp", "-O2", "-Cwarp-coop=maybe", "-c", COOP]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("-C warp-coop=maybe: expected `on`, `off` or `reassoc`"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn warp_coop_coalesces_a_thread_per_row_dot_product_on_the_emulator() {
    let sb = Sandbox::new();
    sb.write(
        "dot.c",
        r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 64, m = 96;
    int *a = malloc(sizeof(int) * n * m), *x = malloc(sizeof(int) * m);
    long *y = malloc(sizeof(long) * n);
    for (int i = 0; i < n * m; i++)
        a[i] = i % 17 - 8;
    for (int j = 0; j < m; j++)
        x[j] = j % 5;
#pragma omp target teams distribute parallel for map(to : a[0:n * m], x[0:m]) map(from : y[0:n])
    for (int i = 0; i < n; i++) {
        long s = 0;
        for (int j = 0; j < m; j++)
            s += a[i * m + j] * x[j];
        y[i] = s;
    }
    long t = 0;
    for (int i = 0; i < n; i++)
        t += y[i] * (i % 7 + 1);
    printf("%ld\n", t);
    return 0;
}
"#,
    );
    let mut spr = Vec::new();
    for (exe, knob) in [("on", "warp-coop=on"), ("off", "warp-coop=off")] {
        ok(&sb.ompcc(&["-fopenmp", "-O2", "-C", knob, "dot.c", "-o", exe]));
        let out = std::process::Command::new(sb.join(exe))
            .current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY")
            .env("OMPCC_PROFILE", format!("json:{exe}.json"))
            .output()
            .unwrap();
        ok(&out);
        spr.push((
            stdout(&out),
            sectors_per_request(&sb.read(&format!("{exe}.json"))),
        ));
    }
    assert_eq!(spr[0].0, spr[1].0);
    // shared: a group's lanes read consecutive ints; a thread per row: a row apart
    assert!(spr[0].1 <= 6.0, "{spr:?}");
    assert!(spr[1].1 >= 12.0, "{spr:?}");
}

const LAYOUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_private_layout.c"
);
const COLLAPSE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_collapse.c"
);
const COLLAPSE_TRI: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_collapse_tri.c"
);

#[test]
fn private_layout_remarks_name_the_array_strides_and_missing_facts() {
    let sb = Sandbox::new();
    let all = ["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"];
    let err = sb.remarks(LAYOUT, &all);
    let has = |err: &str, s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        &err,
        "coalesce_private_layout.c:23:1: remark: private array layout: 'work' (map(alloc), device-only) laid out thread-minor: work[8*t + k] -> work[nt*k + t]; stride in 't' 8 -> 1, in k 1 -> nt [-Rpass=coalesce]",
    );
    // where it must not fire, the missing fact
    has(
        &err,
        "coalesce_private_layout.c:60:1: remark: 'back' is indexed thread-major (8 elements per 't'), but it was not laid out thread-minor: 'back' is copied to or from the host (map(from)), which would see the new layout [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "'work' is indexed thread-major, but it was not laid out thread-minor: the subscript of 'work' at line 75 is not affine [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "'flat' is indexed thread-major (8 elements per 't'), but it was not laid out thread-minor: the 'target data' at line 84 names 'flat' (its device copy may outlive the region)",
    );
    // a pointer to rows, 'work2[t][k]'
    has(
        &err,
        "coalesce_private_layout.c:44:1: remark: private array layout: 'work2' (map(alloc), device-only) laid out thread-minor: work2[t][k] -> work2[nt*k + t]; stride in 't' 8 -> 1, in k 1 -> nt [-Rpass=coalesce]",
    );
    assert_eq!(err.matches("private array layout").count(), 2, "{err}");
    assert_eq!(
        err.matches("not laid out thread-minor:").count(),
        3,
        "{err}"
    );
    // not at -O1, not with the knob off; on at -O1 with the knob
    for extra in [
        &["-O1", "-Rpass=coalesce", "-Rpass-missed=coalesce"][..],
        &[
            "-O2",
            "-Cprivate-layout=off",
            "-Rpass=coalesce",
            "-Rpass-missed=coalesce",
        ][..],
    ] {
        let quiet = sb.remarks(LAYOUT, extra);
        assert!(!quiet.contains("thread-minor"), "{extra:?}: {quiet}");
    }
    let on = sb.remarks(LAYOUT, &["-O1", "-Cprivate-layout=on", "-Rpass=coalesce"]);
    assert_eq!(on.matches("private array layout").count(), 2, "{on}");
    let bad = sb.ompcc(&[
        "-fopenmp",
        "-c",
        LAYOUT,
        "-o",
        "s.o",
        "-Cprivate-layout=yes",
    ]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("-C private-layout=yes: expected `on` or `off`"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn private_layout_coalesces_a_work_array_on_the_emulator() {
    let sb = Sandbox::new();
    sb.write(
        "ep.c",
        r#"#include <stdio.h>
#include <stdlib.h>
#define W 16
int main(void) {
    int nt = 256;
    float *work = malloc(sizeof(float) * nt * W), *out = malloc(sizeof(float) * nt);
#pragma omp target teams distribute parallel for map(alloc : work[0:nt * W]) map(from : out[0:nt])
    for (int t = 0; t < nt; t++) {
        for (int w = 0; w < W; w++)
            work[t * W + w] = (float)(t % 7 + w);
        float s = 0.0f;
        for (int w = 0; w < W; w++)
            s += work[t * W + w] * work[t * W + (W - 1 - w)];
        out[t] = s;
    }
    double sum = 0;
    for (int t = 0; t < nt; t++)
        sum += out[t] * (t % 3 + 1);
    printf("%.1f\n", sum);
    return 0;
}
"#,
    );
    let mut spr = Vec::new();
    for (exe, knob) in [("on", "private-layout=on"), ("off", "private-layout=off")] {
        ok(&sb.ompcc(&["-fopenmp", "-O2", "-C", knob, "ep.c", "-o", exe]));
        let out = std::process::Command::new(sb.join(exe))
            .current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY")
            .env("OMPCC_PROFILE", format!("json:{exe}.json"))
            .output()
            .unwrap();
        ok(&out);
        assert_eq!(stdout(&out), "756880.0\n");
        spr.push(sectors_per_request(&sb.read(&format!("{exe}.json"))));
    }
    // thread-minor: consecutive threads touch consecutive floats; thread-major: 64 bytes
    // apart (one sector per lane)
    assert!(spr[0] <= 4.5, "{spr:?}");
    assert!(spr[1] >= 24.0, "{spr:?}");
}

#[test]
fn auto_collapse_remarks_name_the_loops_and_missing_facts() {
    let sb = Sandbox::new();
    let all = ["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"];
    let err = sb.remarks(COLLAPSE, &all);
    let has = |err: &str, s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        &err,
        "coalesce_collapse.c:22:1: remark: automatic collapse: loop 'c' (line 23) has 6 iterations (fewer than 2048); the grid's threads take the iterations of 'c' and 'i' (line 24) together, as collapse(2) would [-Rpass=coalesce]",
    );
    // a triangular nest: the bounding box of the inner ranges
    has(
        &err,
        "coalesce_collapse.c:34:1: remark: automatic collapse: loop 'i' (line 35) has 16 iterations (fewer than 2048); the grid's threads take the iterations of 'i' and 'j' (line 36) together, as collapse(2) would (a triangular nest: the bounding box of the ranges of 'j', each thread checking its own row's range) [-Rpass=coalesce]",
    );
    has(
        &err,
        "its inner loop 'i' was not collapsed with it: loop 'i': a dependence on 'p' may be carried by the loop [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "its inner loop 'j' was not collapsed with it: consecutive threads would take consecutive 'j', which has unit or zero stride for fewer bytes than 'i' (0 vs 4 per iteration; strides in 'i': q[i + 8*j] 1; in 'j': q[i + 8*j] 8)",
    );
    assert_eq!(err.matches("automatic collapse").count(), 2, "{err}");
    assert_eq!(err.matches("was not collapsed").count(), 2, "{err}");
    // the triangular knob off: the rectangular nest alone, the triangular one says why
    let rect = sb.remarks(
        COLLAPSE,
        &[
            "-O2",
            "-Ctriangular-collapse=off",
            "-Rpass=coalesce",
            "-Rpass-missed=coalesce",
        ],
    );
    assert_eq!(rect.matches("automatic collapse").count(), 1, "{rect}");
    has(
        &rect,
        "coalesce_collapse.c:34:1: remark: loop 'i' has 16 iterations (fewer than 2048), but its inner loop 'j' was not collapsed with it: the bounds of 'j' depend on the outer variable 'i' (a triangular nest): triangular collapse is off (-C triangular-collapse=off) [-Rpass-missed=coalesce]",
    );

    // triangular nests: counted down, a band empty for its first rows; and where it must
    // not fire: a carried dependence, a step of 2, bounds not affine (the analysis has no
    // canonical form for 'j = i * i')
    let tri = sb.remarks(COLLAPSE_TRI, &all);
    has(
        &tri,
        "coalesce_collapse_tri.c:15:1: remark: automatic collapse: loop 'i' (line 16) has 12 iterations (fewer than 2048); the grid's threads take the iterations of 'i' and 'j' (line 17) together, as collapse(2) would (a triangular nest",
    );
    has(
        &tri,
        "coalesce_collapse_tri.c:28:1: remark: automatic collapse: loop 'i' (line 29) has 16 iterations",
    );
    has(
        &tri,
        "coalesce_collapse_tri.c:41:1: remark: loop 'i' has 16 iterations (fewer than 2048), but its inner loop 'j' was not collapsed with it: loop 'j': a dependence on 'w' may be carried by the loop [-Rpass-missed=coalesce]",
    );
    has(
        &tri,
        "coalesce_collapse_tri.c:55:1: remark: loop 'i' has 16 iterations (fewer than 2048), but its inner loop 'j' was not collapsed with it: the bounds of 'j' depend on the outer variable 'i' (a triangular nest): its step is 2, and a triangular collapse needs 1 or -1 [-Rpass-missed=coalesce]",
    );
    has(
        &tri,
        "coalesce_collapse_tri.c:59:1: remark: loop 'i' has 8 iterations (fewer than 2048), but its inner loop 'j' was not collapsed with it: loop 'j': subscript is not affine: a product of loop variables [-Rpass-missed=coalesce]",
    );
    assert_eq!(tri.matches("automatic collapse").count(), 2, "{tri}");
    assert_eq!(tri.matches("was not collapsed").count(), 3, "{tri}");
    for extra in [
        &["-O1", "-Rpass=coalesce", "-Rpass-missed=coalesce"][..],
        &[
            "-O2",
            "-Cauto-collapse=off",
            "-Rpass=coalesce",
            "-Rpass-missed=coalesce",
        ][..],
    ] {
        let quiet = sb.remarks(COLLAPSE, extra);
        assert!(
            !quiet.contains("automatic collapse") && !quiet.contains("not collapsed"),
            "{extra:?}: {quiet}"
        );
    }
    // at -O1 the knobs turn it on: rectangular, then triangular too
    let on = sb.remarks(COLLAPSE, &["-O1", "-Cauto-collapse=on", "-Rpass=coalesce"]);
    assert_eq!(on.matches("automatic collapse").count(), 1, "{on}");
    let on = sb.remarks(
        COLLAPSE,
        &[
            "-O1",
            "-Cauto-collapse=on",
            "-Ctriangular-collapse=on",
            "-Rpass=coalesce",
        ],
    );
    assert_eq!(on.matches("automatic collapse").count(), 2, "{on}");
}

const COOP_ORDERED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_coop_ordered.c"
);

#[test]
fn ordered_warp_coop_remarks_and_bit_exact_sums() {
    let sb = Sandbox::new();
    let all = ["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"];
    let err = sb.remarks(COOP_ORDERED, &all);
    let has = |err: &str, s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        &err,
        "coalesce_coop_ordered.c:44:1: remark: warp-cooperative inner loop, in order: 8 lanes share each iteration of 'i' (line 45) in loop 'j' (line 47), each lane evaluating the term of one iteration and every lane adding the terms to 's' ('+' reduction) in the loop's order, so the result rounds as the loop's; lane 0 runs the rest of the iteration; unit or zero stride bytes per iteration 4 -> 8; strides in 'i': a[m*i + j] m, x[j] 0; in 'j' (across lanes): a[m*i + j] 1, x[j] 1 [-Rpass=coalesce]",
    );
    // doubles: a sector is 4 terms; a product
    has(
        &err,
        "coalesce_coop_ordered.c:52:1: remark: warp-cooperative inner loop, in order: 4 lanes share each iteration of 'i' (line 53)",
    );
    has(
        &err,
        "adding the terms to 'p' ('*' reduction) in the loop's order",
    );
    // a CSR row: collapsed by default (`coalesce_csr_flat.c`); without that, not in order
    // (its length is unknown); with `all`, a warp per row (its start is anywhere in a sector)
    has(
        &err,
        "coalesce_coop_ordered.c:96:1: remark: irregular loop collapse: each warp takes the nonzeros of its 32 iterations of 'i' (line 97)",
    );
    let no_flat = sb.remarks(
        COOP_ORDERED,
        &["-O2", "-Cirregular-collapse=off", "-Rpass-missed=coalesce"],
    );
    has(
        &no_flat,
        "coalesce_coop_ordered.c:96:1: remark: loop 'k' (line 99) has unit or zero stride for more bytes than the distributed loop 'i' (8 vs 4 per iteration), but its iterations were not shared by a group of lanes: 't' is a floating-point '+' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and loop 'k' has bounds read from memory (a row of unknown length, which a group could mostly idle through: shared in order with -C ordered-coop=all) [-Rpass-missed=coalesce]",
    );
    let all_rows = sb.remarks(
        COOP_ORDERED,
        &[
            "-O2",
            "-Cordered-coop=all",
            "-Cirregular-collapse=off",
            "-Rpass=coalesce",
        ],
    );
    has(
        &all_rows,
        "coalesce_coop_ordered.c:96:1: remark: warp-cooperative inner loop, in order: 32 lanes share each iteration of 'i' (line 97) in loop 'k' (line 99)",
    );
    assert_eq!(
        all_rows.matches("inner loop, in order: ").count(),
        4,
        "{all_rows}"
    );
    // where it must not: two updates, a term computed in double, '-='
    has(
        &err,
        "coalesce_coop_ordered.c:71:1: remark: loop 'j' (line 74) has unit or zero stride for more bytes than the distributed loop 'i' (8 vs 4 per iteration), but its iterations were not shared by a group of lanes: 's' is a floating-point '+' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and it cannot be shared in order: the loop's body is not one update of 's' [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "coalesce_coop_ordered.c:80:1: remark: loop 'j' (line 83) has unit or zero stride for more bytes than the distributed loop 'i' (4 vs 0 per iteration), but its iterations were not shared by a group of lanes: 's' is a floating-point '+' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and it cannot be shared in order: the update of 's' is not computed in its own type [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "coalesce_coop_ordered.c:87:1: remark: loop 'j' (line 90) has unit or zero stride for more bytes than the distributed loop 'i' (4 vs 0 per iteration), but its iterations were not shared by a group of lanes: 's' is a floating-point '+' reduction",
    );
    assert_eq!(err.matches("inner loop, in order: ").count(), 3, "{err}");
    assert_eq!(
        err.matches("not shared by a group of lanes").count(),
        3,
        "{err}"
    );
    // the knob off: the missed remarks say so
    let off = sb.remarks(
        COOP_ORDERED,
        &[
            "-O2",
            "-Cordered-coop=off",
            "-Rpass=coalesce",
            "-Rpass-missed=coalesce",
        ],
    );
    assert!(!off.contains("inner loop, in order"), "{off}");
    has(
        &off,
        "coalesce_coop_ordered.c:44:1: remark: loop 'j' (line 47) has unit or zero stride for more bytes than the distributed loop 'i' (8 vs 4 per iteration), but its iterations were not shared by a group of lanes: 's' is a floating-point '+' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and sharing it in order is off (-C ordered-coop=off) [-Rpass-missed=coalesce]",
    );
    // Bit for bit the loops' sums: in order against one thread per row (both without
    // contraction, which C allows but never requires), in hexadecimal; reordering (reassoc)
    // rounds differently. And the shared rows read fewer sectors per request.
    let run = |exe: &str, flags: &[&str]| {
        let mut args = vec!["-fopenmp", "-O2", "-ffp-contract=off", "-DHEX"];
        args.extend(flags);
        args.extend([COOP_ORDERED, "-o", exe]);
        ok(&sb.ompcc(&args));
        let out = std::process::Command::new(sb.join(exe))
            .current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY")
            .env("OMPCC_PROFILE", format!("json:{exe}.json"))
            .output()
            .unwrap();
        ok(&out);
        (
            stdout(&out),
            sectors_per_request(&sb.read(&format!("{exe}.json"))),
        )
    };
    let ordered = run(
        "ordered",
        &["-Cordered-coop=all", "-Cirregular-collapse=off"],
    );
    let rows = run("rows", &["-Cordered-coop=off", "-Cirregular-collapse=off"]);
    let reassoc = run("reassoc", &["-Cwarp-coop=reassoc"]);
    assert!(ordered.0.contains("0x1."), "{}", ordered.0);
    assert_eq!(ordered.0, rows.0);
    assert_ne!(ordered.0, reassoc.0);
    // (the program's rows are 45 values, 180 bytes: not sector-aligned; three of its seven
    // kernels stay a thread per row)
    assert!(ordered.1 < rows.1 - 1.0, "{} vs {}", ordered.1, rows.1);
}

const CSR_FLAT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_csr_flat.c"
);

#[test]
fn irregular_collapse_remarks_and_bit_exact_sums() {
    let sb = Sandbox::new();
    let has = |err: &str, s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    let err = sb.remarks(
        CSR_FLAT,
        &["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"],
    );
    has(
        &err,
        "coalesce_csr_flat.c:50:1: remark: irregular loop collapse: each warp takes the nonzeros of its 32 iterations of 'i' (line 51) flattened, consecutive lanes evaluating the terms of consecutive iterations of loop 'k' (line 53) into shared memory, and each lane adds its own row's terms to 't' ('+' reduction) in the loop's order, so the result rounds as the loop's; a warp whose rows' ranges are not consecutive runs the loop as written; chosen over a warp-cooperative row statically, for any row length (rows are known only at run time; an in-order warp per row costs every lane a shuffle per term of each row, here a lane adds only its own row's terms); unit or zero stride bytes per iteration 4 -> 8; strides in 'i': rowptr[i + 1] 1, val[?] unknown, x[?] unknown, col[?] unknown; in the flattened nonzeros (across lanes): val[k] 1, col[k] 1 [-Rpass=coalesce]",
    );
    // the double sum and the rows from start and end arrays (checked at run time)
    has(
        &err,
        "coalesce_csr_flat.c:58:1: remark: irregular loop collapse",
    );
    has(
        &err,
        "adds its own row's terms to 't' ('*' reduction) in the loop's order",
    );
    assert_eq!(err.matches("irregular loop collapse").count(), 3, "{err}");
    // where it must not: the term uses the row's index; an order-dependent scalar; the
    // integer sum goes to a warp per row (any order gives it)
    has(
        &err,
        "coalesce_csr_flat.c:75:1: remark: loop 'k' (line 78) has unit or zero stride for more bytes than the distributed loop 'i' (8 vs 4 per iteration), but its iterations were not shared by a group of lanes: 't' is a floating-point '+' reduction: the lanes' partial values would round differently from the loop's order (allowed by -C warp-coop=reassoc), and the rows' nonzeros cannot be collapsed (-C irregular-collapse): the term of loop 'k' uses 'i', which may differ between rows (a lane evaluates other rows' terms) [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "coalesce_csr_flat.c:83:1: remark: loop 'k' (line 86) has unit or zero stride for more bytes than the distributed loop 'i' (8 vs 4 per iteration), but its iterations were not shared by a group of lanes: loop 'k' writes 'c', which is not a reduction variable declared in the distributed loop's body [-Rpass-missed=coalesce]",
    );
    has(
        &err,
        "coalesce_csr_flat.c:103:1: remark: warp-cooperative inner loop: 32 lanes share each iteration of 'i' (line 104)",
    );
    // the knob off, and -O1: not collapsed
    for flags in [&["-O2", "-Cirregular-collapse=off"][..], &["-O1"][..]] {
        let mut args = flags.to_vec();
        args.extend(["-Rpass=coalesce", "-Rpass-missed=coalesce"]);
        let off = sb.remarks(CSR_FLAT, &args);
        assert!(!off.contains("irregular loop collapse"), "{off}");
    }
    // Bit for bit the loops' sums (in hexadecimal, without contraction) against one thread
    // per row; fewer sectors in all
    let run = |exe: &str, flags: &[&str]| {
        let mut args = vec!["-fopenmp", "-O2", "-ffp-contract=off", "-DHEX"];
        args.extend(flags);
        args.extend([CSR_FLAT, "-o", exe]);
        ok(&sb.ompcc(&args));
        let out = std::process::Command::new(sb.join(exe))
            .current_dir(sb.path())
            .env("OMPCC_DEVICE", "emu")
            .env("OMP_TARGET_OFFLOAD", "MANDATORY")
            .env("OMPCC_PROFILE", format!("json:{exe}.json"))
            .output()
            .unwrap();
        ok(&out);
        (
            stdout(&out),
            sectors_and_requests(&sb.read(&format!("{exe}.json"))),
        )
    };
    let flat = run("flat", &[]);
    let rows = run("rows", &["-Cirregular-collapse=off"]);
    assert!(flat.0.contains("float 0x1."), "{}", flat.0);
    assert_eq!(flat.0, rows.0);
    assert!(
        flat.1.0 * 10 < rows.1.0 * 9,
        "sectors {:?} vs {:?}",
        flat.1,
        rows.1
    );
}
