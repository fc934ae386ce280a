//! The optimizer's options end to end: what the source asks (loop pragmas, inlining
//! attributes, `restrict`) shows in `--emit=ir`; `-C key=value`, `-ffp-contract=` and `-std=`
//! reach the pass manager; `-Rpass=REGEX` prints the passes' remarks with file and line,
//! `-Rpass-missed=REGEX` their missed chances with the reason; bad
//! values are `ompcc: error:` with exit status 1, never a panic.

mod support;

use support::{Sandbox, stderr, stdout};

const HINTS: &str = "\
void loops(float *a, int n) {
#pragma unroll 4
    for (int i = 0; i < n; i++) a[i] += 1.0f;
#pragma nounroll
    for (int i = 0; i < n; i++) a[i] += 2.0f;
    int j = 0;
#pragma GCC ivdep
#pragma GCC unroll 0
    while (j < n) { a[j] *= 2.0f; j++; }
#pragma unroll
    do { j--; } while (j > 0);
}
__attribute__((noinline)) static float never(float x) { return x + 1.0f; }
static inline float hint(float x) { return x * 3.0f; }
__attribute__((always_inline)) float always(float x) { return x - 1.0f; }
float proto(float x) __attribute__((__noinline__));
float proto(float x) { return x / 2.0f; }
void uses(float *restrict a, const float *restrict b, float *c, int n) {
    for (int i = 0; i < n; i++)
        a[i] = never(b[i]) + hint(c[i]) + always(b[i]) + proto(c[i]);
}
";

/// The IR of `source` (`--device-only --emit=ir`), asserting success.
fn ir(sb: &Sandbox, name: &str, source: &str, extra: &[&str]) -> (String, String) {
    sb.write(name, source);
    let mut args = vec!["-fopenmp", "--device-only", "--emit=ir"];
    args.extend_from_slice(extra);
    args.push(name);
    let out = sb.ompcc(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (stdout(&out), stderr(&out))
}

/// The lines of `text` that start with `prefix`, trimmed.
fn lines_starting<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with(prefix))
        .collect()
}

#[test]
fn attributes_and_loop_hints_show_in_the_ir() {
    let sb = Sandbox::new();
    let (text, _) = ir(&sb, "h.c", HINTS, &[]);
    let funcs: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("func @") && l.ends_with('{'))
        .collect();
    for expected in [
        "internal func @never(f32) -> f32 noinline {",
        "internal func @hint(f32) -> f32 inlinehint {",
        "func @always(f32) -> f32 always_inline {",
        "func @proto(f32) -> f32 noinline {",
        "func @uses(ptr, ptr, ptr, i32) noalias(0, 1) {",
        "func @loops(ptr, i32) {",
    ] {
        assert!(funcs.contains(&expected), "{expected}\n{text}");
    }
    // One hint per loop, in source order, on the loop's header.
    let hinted: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("block") && (l.contains("unroll")))
        .map(|l| l.split_once(' ').map_or(l, |(_, h)| h))
        .collect();
    assert_eq!(
        hinted,
        ["unroll(4):", "nounroll:", "nounroll:", "unroll(full):"],
        "{text}"
    );
}

#[test]
fn kernel_params_from_restrict_pointers_are_noalias() {
    let sb = Sandbox::new();
    let src = "\
void axpy(int n, float s, float *restrict y, const float *restrict x, float *z) {
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n], z[0:n])
    for (int i = 0; i < n; i++)
        y[i] += s * x[i] + z[i];
}
";
    sb.write("k.c", src);
    let out = sb.ompcc(&["-fopenmp", "--emit=ir", "k.c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let kernel = lines_starting(&text, "kernel @");
    assert_eq!(kernel.len(), 1, "{text}");
    // The params follow the plan's order; exactly the two restrict pointers are noalias.
    let noalias = kernel[0]
        .split_once("noalias(")
        .map(|(_, r)| r.split(')').next().unwrap_or(""))
        .unwrap_or_else(|| panic!("no noalias: {}", kernel[0]));
    assert_eq!(noalias.split(", ").count(), 2, "{}", kernel[0]);
}

#[test]
fn kernel_params_proven_disjoint_are_noalias_at_o2() {
    let sb = Sandbox::new();
    let src = "\
#include <stdlib.h>
void params(int n, float *y, const float *x, const float *w) {
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n], w[0:n])
    for (int i = 0; i < n; i++)
        y[i] += x[i] * w[i];
}
void fresh(int n, int *r) {
    float *y = malloc(4 * n), *x = malloc(4 * n);
    double s = 0;
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) map(to: x[0:n]) reduction(+: s)
    for (int i = 0; i < n; i++)
        s += y[i] += x[i];
    *r = (int)s;
}
";
    sb.write("k.c", src);
    let kernels = |extra: &[&str]| {
        let mut args = vec!["-fopenmp", "--emit=ir-opt", "k.c"];
        args.extend_from_slice(extra);
        let out = sb.ompcc(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        // the one-iteration variants (-O2) carry their kernels' attributes
        let all = lines_starting(&text, "kernel @");
        let k: Vec<String> = all
            .iter()
            .filter(|l| !l.contains("_one("))
            .map(|l| l.to_string())
            .collect();
        for v in all.iter().filter(|l| l.contains("_one(")) {
            let base = k.iter().find(|b| b.replacen('(', "_one(", 1) == **v);
            assert!(base.is_some(), "{v} differs from its kernel: {text}");
        }
        assert_eq!(k.len(), 2, "{text}");
        (k, stderr(&out))
    };
    // -O2: the two allocations and the reduction variable (params n, y, x, s) are proven
    // disjoint; the host function's parameters are not
    let (k, err) = kernels(&["-O2", "-Rpass=readonly", "-Rpass-missed=readonly"]);
    assert!(!k[0].contains("noalias"), "{}", k[0]);
    assert!(k[1].contains("noalias(1, 2, 3)"), "{}", k[1]);
    let has = |s: &str| assert!(err.contains(s), "missing `{s}` in:\n{err}");
    has(
        "k.c:3:1: remark: 'x' is only read in the region but not proven disjoint from the \
         memory the kernel writes: 'x' and 'y' are not proven distinct objects \
         [-Rpass-missed=readonly]",
    );
    has("k.c:3:1: remark: 'w' is only read");
    has(
        "k.c:10:1: remark: 'x' reaches memory nothing else the kernel reaches overlaps \
         (allocation and variable) [-Rpass=readonly]",
    );
    has(
        "k.c:10:1: remark: 's' reaches memory nothing else the kernel reaches overlaps \
         (allocation and variable) [-Rpass=readonly]",
    );
    // the pass: where a load stays coherent, the store that may write it; where not, so
    has(
        "k.c:12:14: remark: @__omp_offload_fresh_l10: load of memory the kernel never writes \
         uses the read-only cache [-Rpass=readonly]",
    );
    has(
        "k.c:5:17: remark: @__omp_offload_params_l3: load not on the read-only path: the \
         store at line 5 may write the same memory",
    );
    has(
        "k.c:5:9: remark: @__omp_offload_params_l3: load not on the read-only path: the \
         store at line 5 writes through the same base pointer",
    );
    // off under the knob and at -O1, without remarks
    for extra in [&["-O2", "-C", "noalias-maps=off"][..], &["-O1"][..]] {
        let mut args = extra.to_vec();
        args.push("-Rpass-missed=readonly");
        let (k, err) = kernels(&args);
        assert!(k.iter().all(|k| !k.contains("noalias")), "{k:?}");
        assert!(!err.contains("is only read in the region"), "{err}");
    }
}

#[test]
fn loop_pragmas_that_precede_no_loop_are_warned_about() {
    let sb = Sandbox::new();
    let src = "\
void f(float *a) {
#pragma unroll 4
    a[0] = 1.0f;
#pragma unroll many
    for (int i = 0; i < 4; i++) a[i] = 0.0f;
#pragma GCC unroll 2
}
";
    let (text, err) = ir(&sb, "w.c", src, &["-fdiagnostics-color=never"]);
    assert!(
        err.contains("w.c:2:1: warning: '#pragma unroll 4' is ignored: it must come right before a for, while or do loop [W0811]"),
        "{err}"
    );
    assert!(
        err.contains("w.c:4:1: warning: '#pragma unroll many': the count must be a non-negative integer constant [W0810]"),
        "{err}"
    );
    assert!(
        err.contains("w.c:6:1: warning: '#pragma GCC unroll 2' is ignored"),
        "{err}"
    );
    assert!(!text.contains("unroll"), "{text}");
}

#[test]
fn rpass_prints_remarks_with_file_and_line() {
    let sb = Sandbox::new();
    sb.write("h.c", HINTS);
    let out = sb.ompcc(&[
        "-fopenmp",
        "--device-only",
        "-O2",
        "-Rpass=^(unroll|inl)",
        "h.c",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    // The remark names the loop's line (its column is where the header's code starts).
    assert!(
        err.lines().any(|l| l.starts_with("h.c:3:") && l.ends_with(
            ": remark: @loops: unrolled the loop at block1 by 4 with a remainder loop [-Rpass=unroll]"
        )),
        "{err}"
    );
    assert!(
        err.contains("remark: @uses: inlined @hint into @uses [-Rpass=inline]"),
        "{err}"
    );
    // Hinted loops are left alone; noinline functions are not inlined.
    assert!(!err.contains("@never into"), "{err}");
    assert!(!err.contains("@proto into"), "{err}");
    assert_eq!(
        err.lines()
            .filter(|l| l.contains("[-Rpass=unroll]"))
            .count(),
        // loops: the unroll(4) loop; uses: its loop, by the -O2 default count.
        2,
        "{err}"
    );
    assert!(!err.contains("-Rpass=gvn"), "{err}");
    // Without -Rpass, nothing.
    let out = sb.ompcc(&["-fopenmp", "--device-only", "-O2", "h.c"]);
    assert_eq!(stderr(&out), "");
}

#[test]
fn rpass_missed_says_why_not_with_file_and_line() {
    let sb = Sandbox::new();
    let src = "\
#pragma omp declare target
__attribute__((noinline)) static float never(float x) { return x + 1.0f; }
float f(float *a, float *b, int n) {
    float s = 0.0f;
#pragma omp unroll full
    for (int i = 0; i < 2000; i++)
        s += a[i];
    for (int i = 0; i < n; i++) {
        b[i] = a[0] * 2.0f;
        s += never(b[i]);
    }
    return s;
}
#pragma omp end declare target
";
    sb.write("m.c", src);
    let out = sb.ompcc(&[
        "-fopenmp",
        "-O2",
        "--emit=ptx",
        "-Rpass-missed=unroll|inline|licm",
        "-Rpass-analysis=.",
        "m.c",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let has = |line: &str, text: &str| err.lines().any(|l| l.starts_with(line) && l.contains(text));
    assert!(
        has(
            "m.c:6:",
            "remark: @f: loop at block1 not unrolled: 'unroll full' asked, but the trip count is too large (2001 > 1024) [-Rpass-missed=unroll]"
        ),
        "{err}"
    );
    assert!(
        has(
            "m.c:10:",
            "remark: @f: 'never' not inlined into 'f': marked noinline [-Rpass-missed=inline]"
        ),
        "{err}"
    );
    assert!(
        has(
            "m.c:9:",
            "remark: @f: load not hoisted: the loop has a call at line 10 [-Rpass-missed=licm]"
        ),
        "{err}"
    );
    // Only the kinds asked for: no `-Rpass=` remark; each missed chance once, though the
    // pipeline runs unroll and licm several times.
    assert!(!err.contains("[-Rpass="), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let mut unique = lines.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), lines.len(), "{err}");
}

#[test]
fn codegen_knobs_reach_the_passes() {
    let sb = Sandbox::new();
    let src = "static float tiny(float x) { return x + 1.0f; }\n\
               float twice(float x) { return tiny(x) * tiny(x); }\n\
               float fm(float a, float b, float c) { return a * b + c; }\n";
    sb.write("c.c", src);
    let ptx = |extra: &[&str]| {
        let mut args = vec!["-fopenmp", "--device-only", "-O2"];
        args.extend_from_slice(extra);
        args.push("c.c");
        let out = sb.ompcc(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        stdout(&out)
    };
    assert!(!ptx(&[]).contains("call "));
    assert!(ptx(&["-C", "inline-threshold=0"]).contains("call (retval0), tiny"));
    assert!(ptx(&["-Cinline-threshold=0"]).contains("call (retval0), tiny"));
    assert!(ptx(&[]).contains("fma.rn.f32"));
    assert!(!ptx(&["-ffp-contract=off"]).contains("fma.rn.f32"));
    assert!(!ptx(&["-std=c99"]).contains("fma.rn.f32"));
    assert!(!ptx(&["-ansi"]).contains("fma.rn.f32"));
    assert!(ptx(&["-std=gnu99"]).contains("fma.rn.f32"));
    assert!(ptx(&["-std=c99", "-ffp-contract=fast"]).contains("fma.rn.f32"));
    // -C comes last: it wins over -ffp-contract.
    assert!(!ptx(&["-ffp-contract=fast", "-C", "fp-contract=off"]).contains("fma.rn.f32"));
}

#[test]
fn bad_optimizer_options_are_errors() {
    let sb = Sandbox::new();
    sb.write("t.c", "int main(void) { return 0; }\n");
    for (args, message) in [
        (
            &["-C", "inline-threshold=lots"][..],
            "ompcc: error: -C inline-threshold=lots: expected a non-negative integer",
        ),
        (
            &["-C", "unroll=4"][..],
            "ompcc: error: unknown codegen option `-C unroll` (known: inline-threshold, unroll-count, unroll-threshold, fp-contract, loop-swap, warp-coop, private-layout, auto-collapse, triangular-collapse, ordered-coop, noalias-maps, irregular-collapse, register-cache, one-iteration, const-tables, shared-tiles)",
        ),
        (
            &["-C", "fp-contract=maybe"][..],
            "ompcc: error: -C fp-contract=maybe: expected `off`, `on` or `fast`",
        ),
        (
            &["-Rpass=un(roll"][..],
            "ompcc: error: invalid regular expression 'un(roll' in '-Rpass=':",
        ),
        (
            &["-Rpass-missed=[x"][..],
            "ompcc: error: invalid regular expression '[x' in '-Rpass-missed=':",
        ),
    ] {
        // Checked before anything runs, with or without device code.
        for openmp in [true, false] {
            let mut a: Vec<&str> = Vec::new();
            if openmp {
                a.push("-fopenmp");
            }
            a.extend_from_slice(args);
            a.extend(["-c", "t.c"]);
            let out = sb.ompcc(&a);
            assert_eq!(out.status.code(), Some(1), "{a:?}: {}", stderr(&out));
            assert!(stderr(&out).starts_with(message), "{a:?}: {}", stderr(&out));
            assert!(!sb.exists("t.o"), "{a:?}");
        }
    }
    // -ffp-contract is cc's option too: cc rejects a bad value, in its own words.
    for openmp in [&["-fopenmp"][..], &[]] {
        let mut a = openmp.to_vec();
        a.extend(["-ffp-contract=sometimes", "-c", "t.c"]);
        let (ours, cc) = (sb.ompcc(&a), sb.cc(&a));
        assert_eq!(ours.status.code(), cc.status.code(), "{a:?}");
        assert_ne!(ours.status.code(), Some(0), "{a:?}");
        assert_eq!(stderr(&ours), stderr(&cc), "{a:?}");
    }
}
