//! Grid mapping (issue 16): the parallel loop swap fires at -O2 where the access analysis
//! proves it legal, says so with `-Rpass=coalesce` (loop, strides before and after), says
//! which fact was missing with `-Rpass-missed=coalesce`, stays off at -O1 and under
//! `-C loop-swap=off`, and on the emulator makes a row-per-thread nest read far fewer sectors
//! per request. The outputs of the same program against gcc are the run suite's
//! (`testsuite/run/coalesce_swap.c`).

mod support;

use support::{Sandbox, ok, stderr, stdout};

const SWAP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testsuite/run/coalesce_swap.c"
);

fn remarks(sb: &Sandbox, extra: &[&str]) -> String {
    let mut args = vec!["-fopenmp", "-c", SWAP, "-o", "s.o"];
    args.extend(extra);
    let out = sb.ompcc(&args);
    ok(&out);
    stderr(&out)
}

#[test]
fn loop_swap_remarks_name_the_loops_and_the_missing_facts() {
    let sb = Sandbox::new();
    let err = remarks(&sb, &["-O2", "-Rpass=coalesce", "-Rpass-missed=coalesce"]);
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
        "not swapped: the bounds of loop 'j' use 'i' (a non-rectangular nest; a boxed swap needs a step of 1 or -1 and one outer loop's variable)",
    );
    assert_eq!(err.matches("[-Rpass=coalesce]").count(), 7, "{err}");
    assert_eq!(err.matches("[-Rpass-missed=coalesce]").count(), 4, "{err}");

    // one kind asked for, one kind printed
    let passed = remarks(&sb, &["-O2", "-Rpass=coalesce"]);
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
        let quiet = remarks(&sb, extra);
        assert!(!quiet.contains("parallel loop swap"), "{extra:?}: {quiet}");
    }
    // ... unless the knob turns it on at -O1
    let on = remarks(&sb, &["-O1", "-Cloop-swap=on", "-Rpass=coalesce"]);
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
    let v: serde_json::Value = serde_json::from_slice(json).expect("profile JSON");
    let (mut s, mut r) = (0u64, 0u64);
    for k in v["kernels"].as_object().expect("kernels").values() {
        s += k["sectors"].as_u64().expect("sectors");
        r += k["requests"].as_u64().expect("requests");
    }
    s as f64 / r as f64
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
