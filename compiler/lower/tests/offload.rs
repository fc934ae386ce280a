//! Target regions outlined into kernels, assembled by ptxas and run on the emulator; every
//! result is compared with the same computation done on the host.

#[path = "common/offload.rs"]
mod harness;

use harness::*;
use ompcc_omp::{ExecMode, Pass};

#[test]
fn saxpy_spmd() {
    let c = compile(
        "void saxpy(int n, float a, float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}",
    );
    assert_eq!(c.regions[0].mode, ExecMode::Spmd);
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let mut e = Emu::new(&c);
    let (dx, dy) = (e.buf(&x), e.buf(&y));
    e.launch(
        0,
        4,
        64,
        &[
            ("n", int(n)),
            ("a", float(2.5)),
            ("x", Arg::Buf(dx)),
            ("y", Arg::Buf(dy)),
        ],
    );
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| 2.5 * x + y).collect();
    assert_eq!(e.get::<f32>(dy, n as usize), want);
}

#[test]
fn dot_product_reduction_double() {
    let c = compile(
        "double dot(int n, double *x, double *y) {
  double sum = 0.5;
#pragma omp target teams distribute parallel for reduction(+:sum) map(to: x[0:n], y[0:n])
  for (int i = 0; i < n; i++) sum += x[i] * y[i];
  return sum;
}",
    );
    assert!(c.regions[0].params.contains(&("sum".into(), Pass::Ref, 8)));
    let n = 777;
    let x: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
    let y: Vec<f64> = (0..n).map(|i| (i % 5) as f64 * 0.5).collect();
    let mut e = Emu::new(&c);
    let (dx, dy, ds) = (e.buf(&x), e.buf(&y), e.buf(&[0.5f64]));
    e.launch(
        0,
        4,
        64,
        &[
            ("n", int(n)),
            ("x", Arg::Buf(dx)),
            ("y", Arg::Buf(dy)),
            ("sum", Arg::Buf(ds)),
        ],
    );
    let want: f64 = 0.5 + x.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>();
    assert_eq!(e.get::<f64>(ds, 1)[0], want);
    // blocks that end in a partial warp
    let ds = e.buf(&[0.5f64]);
    e.launch(
        0,
        3,
        40,
        &[
            ("n", int(n)),
            ("x", Arg::Buf(dx)),
            ("y", Arg::Buf(dy)),
            ("sum", Arg::Buf(ds)),
        ],
    );
    assert_eq!(e.get::<f64>(ds, 1)[0], want);
}

#[test]
fn min_max_reductions_int_and_double() {
    let c = compile(
        "void mm(int n, double *v, int *w, double *lo, double *hi, int *ilo, int *ihi, long *prod) {
  double mn = 1e300, mx = -1e300; int a = 1 << 30, b = -(1 << 30); long p = 1;
#pragma omp target teams distribute parallel for reduction(min:mn,a) reduction(max:mx,b) reduction(*:p) map(to: v[0:n], w[0:n])
  for (int i = 0; i < n; i++) {
    mn = v[i] < mn ? v[i] : mn;
    mx = v[i] > mx ? v[i] : mx;
    a = w[i] < a ? w[i] : a;
    b = w[i] > b ? w[i] : b;
    if (i % 100 == 0) p *= 2;
  }
  *lo = mn; *hi = mx; *ilo = a; *ihi = b; *prod = p;
}",
    );
    let n = 1000i32;
    let v: Vec<f64> = (0..n).map(|i| ((i * 37) % 1001) as f64 - 300.25).collect();
    let w: Vec<i32> = (0..n).map(|i| (i * 7919) % 2003 - 1000).collect();
    let mut e = Emu::new(&c);
    let (dv, dw) = (e.buf(&v), e.buf(&w));
    let (mn, mx) = (e.buf(&[1e300f64]), e.buf(&[-1e300f64]));
    let (a, b, p) = (
        e.buf(&[1i32 << 30]),
        e.buf(&[-(1i32 << 30)]),
        e.buf(&[1i64]),
    );
    e.launch(
        0,
        3,
        96,
        &[
            ("n", int(n)),
            ("v", Arg::Buf(dv)),
            ("w", Arg::Buf(dw)),
            ("mn", Arg::Buf(mn)),
            ("mx", Arg::Buf(mx)),
            ("a", Arg::Buf(a)),
            ("b", Arg::Buf(b)),
            ("p", Arg::Buf(p)),
        ],
    );
    let fmin = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let fmax = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(e.get::<f64>(mn, 1)[0], fmin);
    assert_eq!(e.get::<f64>(mx, 1)[0], fmax);
    assert_eq!(e.get::<i32>(a, 1)[0], *w.iter().min().unwrap());
    assert_eq!(e.get::<i32>(b, 1)[0], *w.iter().max().unwrap());
    assert_eq!(e.get::<i64>(p, 1)[0], 1 << 10);
}

#[test]
fn collapse_two_and_three() {
    let c = compile(
        "void f(int n, int m, int *a, double *b) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i * m + j] = i * 100 + j;
#pragma omp target teams distribute parallel for collapse(3) map(tofrom: b[0:n*m*4])
  for (int i = n - 1; i >= 0; i--)
    for (int j = 0; j < m; j += 2)
      for (int k = 1; k <= 4; k++)
        b[(i * m + j) * 4 + k - 1] = i + j * 0.5 + k * 0.25;
}",
    );
    let (n, m) = (13i32, 11i32);
    let mut e = Emu::new(&c);
    let a = e.buf(&vec![-1i32; (n * m) as usize]);
    let b = e.buf(&vec![-1f64; (n * m * 4) as usize]);
    e.launch(
        0,
        2,
        64,
        &[("n", int(n)), ("m", int(m)), ("a", Arg::Buf(a))],
    );
    e.launch(
        1,
        2,
        64,
        &[("n", int(n)), ("m", int(m)), ("b", Arg::Buf(b))],
    );
    let got = e.get::<i32>(a, (n * m) as usize);
    for i in 0..n {
        for j in 0..m {
            assert_eq!(got[(i * m + j) as usize], i * 100 + j);
        }
    }
    let mut want = vec![-1f64; (n * m * 4) as usize];
    for i in 0..n {
        for j in (0..m).step_by(2) {
            for k in 1..=4 {
                want[((i * m + j) * 4 + k - 1) as usize] =
                    i as f64 + j as f64 * 0.5 + k as f64 * 0.25;
            }
        }
    }
    assert_eq!(e.get::<f64>(b, (n * m * 4) as usize), want);
}

#[test]
fn lastprivate_and_private() {
    let c = compile(
        "void f(int n, int *a, int *out) {
  int i, last = -1, t;
#pragma omp target teams distribute parallel for lastprivate(i, last) private(t) map(tofrom: a[0:n])
  for (i = 0; i < n; i++) { t = a[i] * 2; a[i] = t; last = t + 1; }
  out[0] = i; out[1] = last;
}",
    );
    let n = 300;
    let v: Vec<i32> = (0..n).collect();
    let mut e = Emu::new(&c);
    let (a, i, last) = (e.buf(&v), e.buf(&[0i32]), e.buf(&[-1i32]));
    e.launch(
        0,
        2,
        64,
        &[
            ("n", int(n)),
            ("a", Arg::Buf(a)),
            ("i", Arg::Buf(i)),
            ("last", Arg::Buf(last)),
        ],
    );
    assert_eq!(e.get::<i32>(i, 1)[0], n);
    assert_eq!(e.get::<i32>(last, 1)[0], (n - 1) * 2 + 1);
    assert_eq!(
        e.get::<i32>(a, n as usize),
        v.iter().map(|x| x * 2).collect::<Vec<_>>()
    );
}

#[test]
fn target_parallel_for_critical_single() {
    let c = compile(
        "int omp_get_num_threads(void);
void f(int n, int *a, int *count, int *flag) {
#pragma omp target parallel map(tofrom: a[0:n], count[0:1], flag[0:2])
  {
#pragma omp for
    for (int i = 0; i < n; i++) a[i] = i + omp_get_num_threads() * 0;
#pragma omp critical
    count[0] += 1;
#pragma omp single
    flag[0] += 1;
#pragma omp master
    flag[1] = a[n - 1];
  }
}",
    );
    assert_eq!(c.regions[0].mode, ExecMode::Spmd);
    let n = 200;
    let mut e = Emu::new(&c);
    let (a, count, flag) = (
        e.buf(&vec![0i32; n as usize]),
        e.buf(&[0i32]),
        e.buf(&[0i32, 0]),
    );
    // the runtime may pick several teams: only team 0 runs the region
    e.launch(
        0,
        2,
        64,
        &[
            ("n", int(n)),
            ("a", Arg::Buf(a)),
            ("count", Arg::Buf(count)),
            ("flag", Arg::Buf(flag)),
        ],
    );
    assert_eq!(e.get::<i32>(a, n as usize), (0..n).collect::<Vec<_>>());
    assert_eq!(e.get::<i32>(count, 1)[0], 64);
    assert_eq!(e.get::<i32>(flag, 2), vec![1, n - 1]);
}

#[test]
fn generic_teams_with_nested_distribute_parallel_for() {
    let c = compile(
        "int omp_get_team_num(void); int omp_get_num_teams(void);
void f(int n, double *a, int *seen) {
#pragma omp target teams map(tofrom: a[0:n], seen[0:8]) num_teams(4)
  {
    double scale = 2.0;
    seen[omp_get_team_num()] = omp_get_num_teams();
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++) a[i] = a[i] * scale + omp_get_team_num() * 0;
  }
}",
    );
    assert_eq!(c.regions[0].mode, ExecMode::Generic);
    let n = 101;
    let v: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let mut e = Emu::new(&c);
    let (a, seen) = (e.buf(&v), e.buf(&[0i32; 8]));
    e.launch(
        0,
        4,
        64,
        &[("n", int(n)), ("a", Arg::Buf(a)), ("seen", Arg::Buf(seen))],
    );
    assert_eq!(
        e.get::<f64>(a, n as usize),
        v.iter().map(|x| x * 2.0).collect::<Vec<_>>()
    );
    assert_eq!(e.get::<i32>(seen, 8), vec![4, 4, 4, 4, 0, 0, 0, 0]);
}

#[test]
fn serial_target_with_a_loop_and_device_function() {
    let c = compile(
        "#pragma omp declare target
static int sq(int x) { return x * x; }
int table[16];
#pragma omp end declare target
int cube(int x) { return x * sq(x); }
void f(int n, long *out) {
  long s = 0;
#pragma omp target map(tofrom: s)
  {
    for (int i = 0; i < n; i++) { table[i % 16] += i; s += cube(i); }
  }
  out[0] = s;
}",
    );
    assert_eq!(c.regions[0].mode, ExecMode::Serial);
    assert_eq!(c.globals, vec!["table".to_string()]);
    let n = 40;
    let mut e = Emu::new(&c);
    let s = e.buf(&[0i64]);
    e.launch(0, 1, 1, &[("n", int(n)), ("s", Arg::Buf(s))]);
    assert_eq!(
        e.get::<i64>(s, 1)[0],
        (0..n as i64).map(|i| i * i * i).sum::<i64>()
    );
    let g = e.global("table");
    let t = e.get::<i32>(g, 16);
    let mut want = [0i32; 16];
    for i in 0..n {
        want[(i % 16) as usize] += i;
    }
    assert_eq!(t, want.to_vec());
}

#[test]
fn printf_and_device_api_in_a_kernel() {
    let c = compile(
        "#include_next_is_not_used
int printf(const char *, ...); int omp_get_thread_num(void); int omp_is_initial_device(void);
void f(void) {
#pragma omp target
  printf(\"dev %d %d\\n\", omp_is_initial_device(), omp_get_thread_num());
}"
        .replace("#include_next_is_not_used\n", "")
        .as_str(),
    );
    let mut e = Emu::new(&c);
    e.launch(0, 1, 1, &[]);
    if let Some(out) = e.printed() {
        assert_eq!(out, "dev 0 0\n");
    }
}

#[test]
fn unsupported_constructs_are_errors_at_the_construct() {
    // `ordered` under a static schedule: the program may observe which thread runs which
    // iteration, so one worker cannot run them all in order (without it, one does).
    let err = try_compile(
        "void f(int n, int *a) {
#pragma omp target teams distribute parallel for ordered schedule(static, 1) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    a[0] += i;
  }
}",
        2,
    )
    .err()
    .expect("an error");
    assert!(
        err.contains("E0803") && err.contains("ordered") && err.ends_with("@4"),
        "{err}"
    );
    // `inscan` on a combined target construct: the host fallback (gcc) rejects it.
    let err = try_compile(
        "void f(int n, int *a, int *b) {
  int s = 0;
#pragma omp target parallel for reduction(inscan, +: s) map(to: a[0:n]) map(from: b[0:n])
  for (int i = 0; i < n; i++) {
    s += a[i];
#pragma omp scan inclusive(s)
    b[i] = s;
  }
}",
        2,
    )
    .err()
    .expect("an error");
    assert!(
        err.contains("E0803") && err.contains("inscan") && err.ends_with("@3"),
        "{err}"
    );
    // A user-defined reduction where threads would share the iterations (a static schedule,
    // so one thread cannot run them all): its combiner would have to run on the device.
    let err = try_compile(
        "#pragma omp declare reduction(keepmax : int : omp_out = omp_in > omp_out ? omp_in : omp_out)
void f(int n, int *a, int m) {
#pragma omp target teams distribute parallel for reduction(keepmax: m) schedule(static) map(to: a[0:n])
  for (int i = 0; i < n; i++) m = a[i] > m ? a[i] : m;
}",
        2,
    )
    .err()
    .expect("an error");
    assert!(
        err.contains("E0803") && err.contains("user-defined reduction"),
        "{err}"
    );
    // An orphaned worksharing construct binds to the caller's team, unknown in the function.
    let err = try_compile(
        "#pragma omp declare target
void g(int n, int *a) {
#pragma omp for
  for (int i = 0; i < n; i++) a[i] = i;
}
#pragma omp end declare target
void f(int n, int *a) {
#pragma omp target parallel map(tofrom: a[0:n])
  g(n, a);
}",
        2,
    )
    .err()
    .expect("an error");
    assert!(
        err.contains("E0803") && err.contains("orphaned") && err.ends_with("@3"),
        "{err}"
    );
    // A taskloop splits its logical iterations, which a non-rectangular nest does not count.
    let err = try_compile(
        "void f(int n, int *a) {
#pragma omp target map(tofrom: a[0:n * n])
  {
#pragma omp taskloop collapse(2) grainsize(3)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) a[i * n + j] = j;
  }
}",
        2,
    )
    .err()
    .expect("an error");
    assert!(
        err.contains("E0803") && err.contains("'#pragma omp taskloop'") && err.ends_with("@4"),
        "{err}"
    );
    // Without a clause asking for a split it is one task, which OpenMP allows.
    try_compile(
        "void f(int n, int *a) {
#pragma omp target map(tofrom: a[0:n * n])
  {
#pragma omp taskloop collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) a[i * n + j] = j;
  }
}",
        2,
    )
    .expect("one task");
    // A valid directive ompcc does not support is named in the message.
    for (line, name) in [
        ("#pragma omp tile sizes(4)", "'#pragma omp tile'"),
        (
            "#pragma omp metadirective when(device={kind(gpu)}: parallel) default(single)",
            "'#pragma omp metadirective'",
        ),
        ("#pragma omp workshare", "'#pragma omp workshare'"),
    ] {
        let src = format!(
            "void f(int *a) {{
  int s = 0;
#pragma omp target parallel map(tofrom: s)
  {{
{line}
    s += 1;
  }}
}}"
        );
        let err = try_compile(&src, 2).err().expect("an error");
        assert!(
            err.contains("E0803") && err.contains(name) && err.ends_with("@5"),
            "{err}"
        );
    }
}

#[test]
fn loop_shapes_and_scalar_params() {
    let c = compile(
        "struct P { int k; double w; };
void f(unsigned n, char c, short s, _Bool b, long big, struct P p, int *a, long *out) {
  long total = 0;
#pragma omp target teams distribute map(tofrom: a[0:n])
  for (unsigned i = 2; i <= n - 1; i += 3) a[i] = c + s + b + p.k;
#pragma omp target map(tofrom: a[0:n])
#pragma omp parallel for
  for (long j = (long)n - 1; j >= 0; j -= 2) a[j] += 1000 + big;
#pragma omp target simd reduction(+:total) map(tofrom: a[0:n])
  for (int k = 0; k < 10; k++) total += a[k];
  out[0] = total;
}",
    );
    let modes: Vec<ExecMode> = c.regions.iter().map(|r| r.mode).collect();
    assert_eq!(
        modes,
        vec![ExecMode::Spmd, ExecMode::Spmd, ExecMode::Serial]
    );
    let n = 50u32;
    let mut e = Emu::new(&c);
    let a = e.buf(&vec![0i32; n as usize]);
    let p = e.buf(&[7i64, 2.5f64.to_bits() as i64]);
    let total = e.buf(&[0i64]);
    e.launch(
        0,
        2,
        32,
        &[
            ("n", Arg::Val(n.to_le_bytes().to_vec())),
            ("c", Arg::Val(vec![3])),
            ("s", Arg::Val(300i16.to_le_bytes().to_vec())),
            ("b", Arg::Val(vec![1])),
            ("p", Arg::Buf(p)),
            ("a", Arg::Buf(a)),
        ],
    );
    e.launch(
        1,
        3,
        32,
        &[
            ("n", Arg::Val(n.to_le_bytes().to_vec())),
            ("big", long(1 << 20)),
            ("a", Arg::Buf(a)),
        ],
    );
    e.launch(2, 1, 1, &[("total", Arg::Buf(total)), ("a", Arg::Buf(a))]);
    let mut want = vec![0i32; n as usize];
    for i in (2..n).step_by(3) {
        want[i as usize] = 3 + 300 + 1 + 7;
    }
    for j in (0..n as i64).rev().step_by(2) {
        want[j as usize] += 1000 + (1 << 20);
    }
    assert_eq!(e.get::<i32>(a, n as usize), want);
    assert_eq!(
        e.get::<i64>(total, 1)[0],
        want[..10].iter().map(|&x| x as i64).sum::<i64>()
    );
}

#[test]
fn teams_reduction_and_logical_bitwise_reductions() {
    let c = compile(
        "void f(int n, int *v, double *x, int *res) {
  int all = 1, any = 0, band = -1, bor = 0, bxor = 0; double prod = 1.0, sub = 0.0;
#pragma omp target teams distribute parallel for map(to: v[0:n], x[0:n]) reduction(&&:all) reduction(||:any) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(*:prod) reduction(-:sub)
  for (int i = 0; i < n; i++) {
    all = all && v[i] > 0; any = any || v[i] > 90; band &= v[i]; bor |= v[i]; bxor ^= v[i];
    prod *= x[i]; sub -= x[i];
  }
  res[0] = all; res[1] = any; res[2] = band; res[3] = bor; res[4] = bxor;
  x[0] = prod; x[1] = sub;
  int t = 0;
#pragma omp target teams map(tofrom: t) reduction(+:t) num_teams(3)
  t += 5;
  res[5] = t;
}",
    );
    assert_eq!(c.regions[1].mode, ExecMode::Generic);
    let n = 64;
    let v: Vec<i32> = (0..n).map(|i| (i * 13) % 97 + 1).collect();
    let x: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { 2.0 } else { 1.0 }).collect();
    let mut e = Emu::new(&c);
    let (dv, dx) = (e.buf(&v), e.buf(&x));
    let cells: Vec<_> = [1i32, 0, -1, 0, 0].iter().map(|&k| e.buf(&[k])).collect();
    let (prod, sub) = (e.buf(&[1.0f64]), e.buf(&[0.0f64]));
    e.launch(
        0,
        2,
        64,
        &[
            ("n", int(n)),
            ("v", Arg::Buf(dv)),
            ("x", Arg::Buf(dx)),
            ("all", Arg::Buf(cells[0])),
            ("any", Arg::Buf(cells[1])),
            ("band", Arg::Buf(cells[2])),
            ("bor", Arg::Buf(cells[3])),
            ("bxor", Arg::Buf(cells[4])),
            ("prod", Arg::Buf(prod)),
            ("sub", Arg::Buf(sub)),
        ],
    );
    let got: Vec<i32> = cells.iter().map(|&p| e.get::<i32>(p, 1)[0]).collect();
    let want = vec![
        v.iter().all(|&a| a > 0) as i32,
        v.iter().any(|&a| a > 90) as i32,
        v.iter().fold(-1, |a, b| a & b),
        v.iter().fold(0, |a, b| a | b),
        v.iter().fold(0, |a, b| a ^ b),
    ];
    assert_eq!(got, want);
    assert_eq!(e.get::<f64>(prod, 1)[0], x.iter().product::<f64>());
    assert_eq!(e.get::<f64>(sub, 1)[0], -x.iter().sum::<f64>());
    let t = e.buf(&[0i32]);
    e.launch(1, 3, 1, &[("t", Arg::Buf(t))]);
    assert_eq!(e.get::<i32>(t, 1)[0], 15);
}

#[test]
fn target_parallel_shares_target_private_values_and_private_arrays() {
    let c = compile(
        "int omp_get_thread_num(void);
void f(int n, int *a, int *out) {
  int x = 5, sum = 0;
#pragma omp target parallel map(tofrom: a[0:n], out[0:3])
  {
#pragma omp single
    x = 7;
#pragma omp for reduction(+:sum)
    for (int i = 0; i < n; i++) sum += a[i] + x;
#pragma omp master
    { out[0] = sum; out[1] = x; }
  }
  int tmp[4];
#pragma omp target teams distribute parallel for private(tmp) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) tmp[k] = a[i] + k;
    a[i] = tmp[0] + tmp[3];
  }
#pragma omp target teams distribute parallel for map(tofrom: out[0:3])
  for (int i = 0; i < n; i++) {
#pragma omp critical
    out[2] += i;
  }
}",
    );
    let n = 100;
    let v: Vec<i32> = (0..n).collect();
    let mut e = Emu::new(&c);
    let (a, out) = (e.buf(&v), e.buf(&[0i32; 3]));
    e.launch(
        0,
        1,
        64,
        &[
            ("n", int(n)),
            ("a", Arg::Buf(a)),
            ("out", Arg::Buf(out)),
            ("x", int(5)),
            ("sum", int(0)),
        ],
    );
    let sum: i32 = v.iter().map(|x| x + 7).sum();
    assert_eq!(e.get::<i32>(out, 2), vec![sum, 7]);
    e.launch(1, 2, 64, &[("n", int(n)), ("a", Arg::Buf(a))]);
    assert_eq!(
        e.get::<i32>(a, n as usize),
        v.iter().map(|x| 2 * x + 3).collect::<Vec<_>>()
    );
    e.launch(2, 4, 64, &[("n", int(n)), ("out", Arg::Buf(out))]);
    assert_eq!(e.get::<i32>(out, 3)[2], (0..n).sum::<i32>());
}

/// Every corpus program with target regions plans, outlines, verifies, optimizes and emits
/// PTX that ptxas accepts; constructs ompcc cannot offload may be diagnosed (listed), nothing
/// may panic or produce invalid IR.
#[test]
fn corpus_target_programs_outline_to_valid_ptx() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dirs = [
        "testsuite/corpus",
        "compiler/sema/tests/programs",
        "compiler/syntax/tests/seeds",
    ];
    let mut files: Vec<_> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("corpus dir"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("omp target")))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "only {} corpus programs with target regions",
        files.len()
    );
    let (mut clean, mut kernels) = (0, 0);
    let mut report = Vec::new();
    for f in &files {
        let out = std::process::Command::new("cc")
            .args(["-E", "-fopenmp"])
            .arg(f)
            .output()
            .expect("cc -E");
        assert!(out.status.success(), "{}", f.display());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let r = std::panic::catch_unwind(|| try_compile(&text, 2));
        match r {
            Err(_) => panic!("{name}: panic"),
            Ok(Ok(c)) => {
                assemble(&c.ptx);
                clean += 1;
                kernels += c.regions.len();
            }
            Ok(Err(d)) => {
                assert!(!d.contains("E0899"), "{name}: {d}");
                report.push(format!("{name}: {d}"));
            }
        }
    }
    println!(
        "{clean} of {} programs outlined cleanly ({kernels} kernels)\n{}",
        files.len(),
        report.join("\n")
    );
    assert!(clean * 2 >= files.len(), "{}", report.join("\n"));
}

#[test]
fn array_reductions() {
    let c = compile(
        "void f(int n, int *v, int *h) {
  int hist[8] = {0};
  long grid[4][4] = {{0}};
#pragma omp target teams distribute parallel for reduction(+:hist) reduction(+:grid[:4][:4]) map(to: v[0:n])
  for (int i = 0; i < n; i++) { hist[v[i] % 8]++; grid[i % 4][v[i] % 4] += 2; }
#pragma omp target teams distribute parallel for reduction(max:h[2:3]) map(to: v[0:n])
  for (int i = 0; i < n; i++) { int k = 2 + i % 3; h[k] = v[i] > h[k] ? v[i] : h[k]; }
}",
    );
    let n = 500;
    let v: Vec<i32> = (0..n).map(|i| (i * 31 + 7) % 101).collect();
    let mut e = Emu::new(&c);
    let dv = e.buf(&v);
    let (hist, grid) = (e.buf(&[0i32; 8]), e.buf(&[0i64; 16]));
    e.launch(
        0,
        3,
        64,
        &[
            ("n", int(n)),
            ("v", Arg::Buf(dv)),
            ("hist", Arg::Buf(hist)),
            ("grid", Arg::Buf(grid)),
        ],
    );
    let mut wh = [0i32; 8];
    let mut wg = [0i64; 16];
    for (i, &x) in v.iter().enumerate() {
        wh[(x % 8) as usize] += 1;
        wg[(i % 4) * 4 + (x % 4) as usize] += 2;
    }
    assert_eq!(e.get::<i32>(hist, 8), wh.to_vec());
    assert_eq!(e.get::<i64>(grid, 16), wg.to_vec());
    let h = e.buf(&[-1i32, -1, 0, 0, 0, -1]);
    e.launch(
        1,
        2,
        64,
        &[("n", int(n)), ("v", Arg::Buf(dv)), ("h", Arg::Buf(h))],
    );
    let mut want = vec![-1i32, -1, 0, 0, 0, -1];
    for (i, &x) in v.iter().enumerate() {
        let k = 2 + i % 3;
        want[k] = want[k].max(x);
    }
    assert_eq!(e.get::<i32>(h, 6), want);
}

#[test]
fn generic_teams_nested_parallel_reduction_and_thread_ids() {
    let c = compile(
        "int omp_get_thread_num(void); int omp_get_num_threads(void); int omp_get_team_num(void);
int omp_get_num_teams(void);
void f(int n, int *a, long *tot, int *ids) {
  long t = 0;
#pragma omp target teams map(tofrom: a[0:n], t) num_teams(3)
  {
    long mine = 0;
#pragma omp parallel for reduction(+:mine)
    for (int i = omp_get_team_num(); i < n; i += 3) mine += a[i];
#pragma omp atomic
    t += mine;
  }
  *tot = t;
#pragma omp target parallel map(tofrom: ids[0:64])
  ids[omp_get_thread_num()] = omp_get_num_threads() * 100 + omp_get_thread_num() + omp_get_num_teams() * 10000 + omp_get_team_num();
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i != n; ++i) a[i] = -a[i];
}",
    );
    let n = 90;
    let v: Vec<i32> = (0..n).map(|i| i * 3 + 1).collect();
    let mut e = Emu::new(&c);
    let (a, t, ids) = (e.buf(&v), e.buf(&[0i64]), e.buf(&[0i32; 64]));
    e.launch(
        0,
        3,
        1,
        &[("n", int(n)), ("a", Arg::Buf(a)), ("t", Arg::Buf(t))],
    );
    assert_eq!(
        e.get::<i64>(t, 1)[0],
        v.iter().map(|&x| x as i64).sum::<i64>()
    );
    // several teams launched: only team 0 runs a target parallel region
    e.launch(1, 2, 64, &[("ids", Arg::Buf(ids))]);
    assert_eq!(
        e.get::<i32>(ids, 64),
        (0..64).map(|i| 16400 + i).collect::<Vec<_>>()
    );
    e.launch(2, 2, 32, &[("n", int(n)), ("a", Arg::Buf(a))]);
    assert_eq!(
        e.get::<i32>(a, n as usize),
        v.iter().map(|x| -x).collect::<Vec<_>>()
    );
}

#[test]
fn loop_construct_forms() {
    let c = compile(
        "void f(int n, int *a) {
#pragma omp target teams loop map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target parallel loop map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 10;
#pragma omp target teams map(tofrom: a[0:n]) num_teams(3)
  {
    int k = 100;
#pragma omp loop
    for (int i = 0; i < n; i++) a[i] += k;
  }
#pragma omp target parallel map(tofrom: a[0:n])
  {
#pragma omp loop
    for (int i = 0; i < n; i++) a[i] += 1000;
  }
}",
    );
    let modes: Vec<ExecMode> = c.regions.iter().map(|r| r.mode).collect();
    use ExecMode::*;
    assert_eq!(modes, vec![Spmd, Spmd, Generic, Spmd]);
    let n = 77;
    let mut e = Emu::new(&c);
    let a = e.buf(&vec![0i32; n as usize]);
    for r in 0..4 {
        e.launch(r, 3, 32, &[("n", int(n)), ("a", Arg::Buf(a))]);
    }
    assert_eq!(e.get::<i32>(a, n as usize), vec![1111; n as usize]);
}

#[test]
fn target_parallel_for_is_one_team() {
    let c = compile(
        "int omp_get_thread_num(void);
void f(int n, int *a, long *partial) {
#pragma omp target parallel for map(to: a[0:n]) map(tofrom: partial[0:64])
  for (int i = 0; i < n; i++) partial[omp_get_thread_num()] += a[i];
}",
    );
    let n = 1000;
    let v: Vec<i32> = (0..n).collect();
    let mut e = Emu::new(&c);
    let (a, p) = (e.buf(&v), e.buf(&[0i64; 64]));
    // several teams launched: thread numbers must still name one thread each
    e.launch(
        0,
        4,
        64,
        &[("n", int(n)), ("a", Arg::Buf(a)), ("partial", Arg::Buf(p))],
    );
    assert_eq!(
        e.get::<i64>(p, 64).iter().sum::<i64>(),
        v.iter().map(|&x| x as i64).sum::<i64>()
    );
}

#[test]
fn float_and_unsigned_reductions() {
    let c = compile(
        "void f(int n, float *x, unsigned *u) {
  float s = 0.0f, lo = 1e30f; unsigned umx = 0, umn = 4000000000u; unsigned long ul = 0;
#pragma omp target teams distribute parallel for reduction(+:s) reduction(min:lo) reduction(max:umx) reduction(min:umn) reduction(+:ul) map(to: x[0:n], u[0:n])
  for (int i = 0; i < n; i++) {
    s += x[i]; lo = x[i] < lo ? x[i] : lo;
    umx = u[i] > umx ? u[i] : umx; umn = u[i] < umn ? u[i] : umn; ul += u[i];
  }
}",
    );
    let n = 256;
    let x: Vec<f32> = (0..n)
        .map(|i| ((i * 17) % 64) as f32 * 0.25 - 3.0)
        .collect();
    let u: Vec<u32> = (0..n)
        .map(|i| 3_000_000_000u32.wrapping_add((i as u32) * 7_919_111))
        .collect();
    let mut e = Emu::new(&c);
    let (dx, du) = (e.buf(&x), e.buf(&u));
    let (s, lo) = (e.buf(&[0.0f32]), e.buf(&[1e30f32]));
    let (umx, umn, ul) = (e.buf(&[0u32]), e.buf(&[4_000_000_000u32]), e.buf(&[0u64]));
    e.launch(
        0,
        2,
        64,
        &[
            ("n", int(n)),
            ("x", Arg::Buf(dx)),
            ("u", Arg::Buf(du)),
            ("s", Arg::Buf(s)),
            ("lo", Arg::Buf(lo)),
            ("umx", Arg::Buf(umx)),
            ("umn", Arg::Buf(umn)),
            ("ul", Arg::Buf(ul)),
        ],
    );
    // the sum of quarter-integers is exact in any order
    assert_eq!(e.get::<f32>(s, 1)[0], x.iter().sum::<f32>());
    assert_eq!(
        e.get::<f32>(lo, 1)[0],
        x.iter().cloned().fold(f32::INFINITY, f32::min)
    );
    assert_eq!(e.get::<u32>(umx, 1)[0], *u.iter().max().unwrap());
    assert_eq!(
        e.get::<u32>(umn, 1)[0],
        *u.iter().min().unwrap().min(&4_000_000_000)
    );
    assert_eq!(
        e.get::<u64>(ul, 1)[0],
        u.iter().map(|&v| v as u64).sum::<u64>()
    );
}

#[test]
fn variable_length_arrays() {
    let c = compile(
        "void f(int n, int m, double (*g)[m], double *out) {
  double v[n];
  for (int i = 0; i < n; i++) v[i] = i;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: g[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      g[i][j] = v[i] * 10 + j;
}",
    );
    let (n, m) = (5, 7);
    let mut e = Emu::new(&c);
    let g = e.buf(&vec![0f64; (n * m) as usize]);
    let v = e.buf(&(0..n).map(|i| i as f64).collect::<Vec<_>>());
    e.launch(
        0,
        2,
        32,
        &[
            ("n", int(n)),
            ("m", int(m)),
            ("g", Arg::Buf(g)),
            ("v", Arg::Buf(v)),
        ],
    );
    let want: Vec<f64> = (0..n)
        .flat_map(|i| (0..m).map(move |j| i as f64 * 10.0 + j as f64))
        .collect();
    assert_eq!(e.get::<f64>(g, (n * m) as usize), want);
}

#[test]
fn atomic_forms() {
    let c = compile(
        "void f(int n, int *hist, long *prod, float *fs, int *mx, int *counter, int *caps) {
#pragma omp target teams distribute parallel for map(tofrom: hist[0:8], prod[0:1], fs[0:1], mx[0:1], counter[0:1], caps[0:n])
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hist[i % 8] += 1;
    if (i < 20) {
#pragma omp atomic update
      prod[0] = prod[0] * 2;
    }
#pragma omp atomic
    fs[0] += 0.5;
#pragma omp atomic
    mx[0] = 3 - mx[0];
#pragma omp atomic capture
    caps[i] = counter[0]++;
  }
}",
    );
    let n = 301;
    let mut e = Emu::new(&c);
    let hist = e.buf(&[0i32; 8]);
    let prod = e.buf(&[1i64]);
    let fs = e.buf(&[0.25f32]);
    let mx = e.buf(&[1i32]);
    let counter = e.buf(&[0i32]);
    let caps = e.buf(&vec![-1i32; n as usize]);
    e.launch(
        0,
        3,
        64,
        &[
            ("n", int(n)),
            ("hist", Arg::Buf(hist)),
            ("prod", Arg::Buf(prod)),
            ("fs", Arg::Buf(fs)),
            ("mx", Arg::Buf(mx)),
            ("counter", Arg::Buf(counter)),
            ("caps", Arg::Buf(caps)),
        ],
    );
    let mut want = [0i32; 8];
    for i in 0..n {
        want[(i % 8) as usize] += 1;
    }
    assert_eq!(e.get::<i32>(hist, 8), want.to_vec());
    assert_eq!(e.get::<i64>(prod, 1)[0], 1 << 20);
    assert_eq!(e.get::<f32>(fs, 1)[0], 0.25 + 0.5 * n as f32);
    // x = 3 - x applied an odd number of times
    assert_eq!(e.get::<i32>(mx, 1)[0], 2);
    let mut got = e.get::<i32>(caps, n as usize);
    got.sort();
    assert_eq!(got, (0..n).collect::<Vec<_>>());
}

#[test]
fn generic_teams_fork_the_whole_team_at_nested_parallel() {
    let c = compile(
        "int omp_get_thread_num(void); int omp_get_num_threads(void); int omp_get_team_num(void);
void f(int n, int *a, int *b, long *sums, int *ids, int *solo) {
#pragma omp target teams map(tofrom: a[0:n], b[0:n], sums[0:4], ids[0:128], solo[0:4]) num_teams(3)
  {
    int team = omp_get_team_num();
    long s = 0;
    int bias = team * 1000;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++) s += a[i] + bias;
    /* sequential: uses the first loop's result */
    int mean = (int)(s / n);
#pragma omp parallel
    {
      if (team == 0) ids[omp_get_thread_num()] = omp_get_num_threads() * 1000 + omp_get_thread_num();
#pragma omp for
      for (int i = team; i < n; i += 3) b[i] = mean;
    }
    sums[team] = s;
    /* forked with min(2, team size) active threads */
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == omp_get_num_threads() - 1)
      solo[team] = omp_get_num_threads() * 10 + omp_get_thread_num();
  }
}",
    );
    assert_eq!(c.regions[0].mode, ExecMode::Generic);
    let n = 90;
    let v: Vec<i32> = (0..n).map(|i| i * 3 + 1).collect();
    for threads in [64u32, 40, 1] {
        let mut e = Emu::new(&c);
        let (a, b, sums, ids, solo) = (
            e.buf(&v),
            e.buf(&[0i32; 90]),
            e.buf(&[0i64; 4]),
            e.buf(&[-1i32; 128]),
            e.buf(&[-1i32; 4]),
        );
        e.launch(
            0,
            3,
            threads,
            &[
                ("n", int(n)),
                ("a", Arg::Buf(a)),
                ("b", Arg::Buf(b)),
                ("sums", Arg::Buf(sums)),
                ("ids", Arg::Buf(ids)),
                ("solo", Arg::Buf(solo)),
            ],
        );
        let base: i64 = v.iter().map(|&x| x as i64).sum();
        let want: Vec<i64> = (0..3).map(|t| base + t * 1000 * n as i64).collect();
        assert_eq!(&e.get::<i64>(sums, 4)[..3], &want[..], "{threads} threads");
        let b_out = e.get::<i32>(b, n as usize);
        for (i, x) in b_out.iter().enumerate() {
            assert_eq!(
                *x as i64,
                want[i % 3] / n as i64,
                "b[{i}], {threads} threads"
            );
        }
        let got = e.get::<i32>(ids, 128);
        let t = threads as i32;
        let want_ids: Vec<i32> = (0..128)
            .map(|i| if i < t { t * 1000 + i } else { -1 })
            .collect();
        assert_eq!(got, want_ids, "{threads} threads");
        let two = if threads > 1 { 21 } else { 10 };
        assert_eq!(&e.get::<i32>(solo, 4)[..3], &[two; 3], "{threads} threads");
    }
}

/// A generic region whose sequential part calls a function that asks the OpenMP API about its
/// team forks anyway: the function answers 0 of 1 on the main thread and the team's values
/// inside a (sized) nested parallel region, from the ICV records.
#[test]
fn generic_region_calling_functions_forks_and_the_api_answers_in_them() {
    let c = compile(
        "int omp_get_thread_num(void); int omp_get_num_threads(void); int omp_in_parallel(void);
int omp_get_team_num(void);
#pragma omp declare target
int me(void) { return omp_get_num_threads() * 100 + omp_get_thread_num() * 10 + omp_in_parallel(); }
#pragma omp end declare target
void f(int k, int *seq, int *in, int *off) {
#pragma omp target teams map(tofrom: seq[0:2], in[0:256], off[0:2]) num_teams(2)
  {
    int t = omp_get_team_num();
    seq[t] = me();
#pragma omp parallel num_threads(k)
    in[t * 128 + omp_get_thread_num()] = me();
#pragma omp parallel if (k > 1000)
    off[t] = me();
  }
}",
    );
    let r = &c.regions[0];
    assert_eq!(r.mode, ExecMode::Generic);
    for (threads, k) in [(64u32, 5i32), (8, 100), (1, 3)] {
        let mut e = Emu::new(&c);
        let (seq, inn, off) = (e.buf(&[-1i32; 2]), e.buf(&[-1i32; 256]), e.buf(&[-1i32; 2]));
        e.launch(
            0,
            2,
            threads,
            &[
                ("k", int(k)),
                ("seq", Arg::Buf(seq)),
                ("in", Arg::Buf(inn)),
                ("off", Arg::Buf(off)),
            ],
        );
        let n = (k as u32).min(threads) as i32;
        assert_eq!(e.get::<i32>(seq, 2), [100, 100], "{threads} threads");
        assert_eq!(e.get::<i32>(off, 2), [100, 100], "{threads} threads");
        let got = e.get::<i32>(inn, 256);
        for t in 0..2 {
            for i in 0..128 {
                let want = if i < n {
                    n * 100 + i * 10 + i32::from(n > 1)
                } else {
                    -1
                };
                assert_eq!(
                    got[t * 128 + i as usize],
                    want,
                    "team {t} thread {i}, {threads} threads"
                );
            }
        }
    }
}

/// A region whose sequential code has a local array could hand its address to
/// the workers, which cannot read the main thread's stack: it keeps one thread per team
/// (`ompcc_omp::generic_region_forks`) and computes the right values.
#[test]
fn generic_region_with_a_local_array_keeps_one_thread_per_team() {
    let c = compile(
        "void f(int n, int *a) {
#pragma omp target teams map(tofrom: a[0:n]) num_teams(2)
  {
    int tmp[4];
    tmp[0] = 1;
    int *p = tmp;
#pragma omp parallel for
    for (int i = 0; i < n; i++) a[i] = p[0] + i;
  }
}",
    );
    let n = 100i32;
    let mut e = Emu::new(&c);
    let a = e.buf(&vec![0i32; n as usize]);
    // One thread per team, as the host launches a region that does not fork.
    e.launch(0, 2, 1, &[("n", int(n)), ("a", Arg::Buf(a))]);
    let want: Vec<i32> = (0..n).map(|i| 1 + i).collect();
    assert_eq!(e.get::<i32>(a, n as usize), want);
}

#[test]
fn firstprivate_aggregate_copies_are_per_thread() {
    // Each thread changes its own copy of `coef` and `p`; the buffer the host passed stays as
    // it was, and every thread starts from its values (one iteration per thread: a thread's
    // copy lives across its iterations).
    let c = compile(
        "struct P { double a; int k; };
void f(int n, int *out) {
  int coef[4] = {1, -2, 3, -4};
  struct P p = {0.5, 3};
#pragma omp target teams distribute parallel for firstprivate(coef, p) map(from: out[0:n])
  for (int i = 0; i < n; i++) {
    coef[i % 4] += i;
    p.k += i;
    out[i] = coef[0] + coef[1] + coef[2] + coef[3] + p.k;
  }
}",
    );
    let params: Vec<(String, Pass)> = c.regions[0]
        .params
        .iter()
        .map(|(n, p, _)| (n.clone(), *p))
        .collect();
    assert_eq!(
        params,
        vec![
            ("n".into(), Pass::Value),
            ("coef".into(), Pass::Copy),
            ("p".into(), Pass::Copy),
            ("out".into(), Pass::DevicePtr),
        ]
    );
    let n = 128;
    let mut e = Emu::new(&c);
    let coef = e.buf(&[1i32, -2, 3, -4]);
    // `{0.5, 3}` as 32-bit words: the double's low and high halves, `k`, padding.
    let half = 0.5f64.to_bits();
    let p = e.buf(&[half as u32, (half >> 32) as u32, 3, 0]);
    let out = e.buf(&vec![0i32; n as usize]);
    e.launch(
        0,
        2,
        64,
        &[
            ("n", int(n)),
            ("coef", Arg::Buf(coef)),
            ("p", Arg::Buf(p)),
            ("out", Arg::Buf(out)),
        ],
    );
    let want: Vec<i32> = (0..n).map(|i| -2 + i + 3 + i).collect();
    assert_eq!(e.get::<i32>(out, n as usize), want);
    assert_eq!(e.get::<i32>(coef, 4), vec![1, -2, 3, -4]);
}

#[test]
fn has_device_addr_array_is_used_in_place() {
    let c = compile(
        "void f(void) {
  static double v[256];
#pragma omp target teams distribute parallel for has_device_addr(v)
  for (int i = 0; i < 256; i++) v[i] = v[i] * 2.0 + i;
}",
    );
    assert_eq!(c.regions[0].params, vec![("v".into(), Pass::DeviceAddr, 8)]);
    let v: Vec<f64> = (0..256).map(|i| (i % 17) as f64).collect();
    let mut e = Emu::new(&c);
    let dv = e.buf(&v);
    e.launch(0, 2, 64, &[("v", Arg::Buf(dv))]);
    let want: Vec<f64> = v
        .iter()
        .enumerate()
        .map(|(i, x)| x * 2.0 + i as f64)
        .collect();
    assert_eq!(e.get::<f64>(dv, 256), want);
}

#[test]
fn non_rectangular_collapsed_nests_cover_every_iteration_once() {
    // The inner bound uses the outer variable: the outer loop is distributed, the inner one
    // runs whole per outer iteration, and its variable (declared outside) stays private.
    let c = compile(
        "void f(int n, int *a) {
  int i, j;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a[0:n*n])
  for (i = 0; i < n; i++)
    for (j = i; j < n; j++)
      a[i * n + j] += i * 100 + j + 1;
}",
    );
    let n = 9usize;
    let mut e = Emu::new(&c);
    let a = e.buf(&vec![0i32; n * n]);
    e.launch(
        0,
        2,
        32,
        &[
            ("n", Arg::Val((n as i32).to_le_bytes().to_vec())),
            ("a", Arg::Buf(a)),
        ],
    );
    let mut want = vec![0i32; n * n];
    for i in 0..n {
        for j in i..n {
            want[i * n + j] = (i * 100 + j + 1) as i32;
        }
    }
    assert_eq!(e.get::<i32>(a, n * n), want);
    // With lastprivate one worker runs the nest in order: the copy ends as sequentially, also
    // when the last outer iterations' inner loops are empty (j < i - 1 at i = 1 and i = 0).
    let c = compile(
        "void f(int n, int *a) {
  int i, j, last = -1;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(last) map(tofrom: a[0:n])
  for (i = n - 1; i >= 0; i--)
    for (j = 0; j < i - 1; j++)
      last = a[j] * 100 + i;
  a[0] = last;
}",
    );
    let n = 9usize;
    let mut e = Emu::new(&c);
    let init: Vec<i32> = (0..n as i32).map(|k| k + 1).collect();
    let a = e.buf(&init);
    let last = e.buf(&[-1i32]);
    e.launch(
        0,
        2,
        32,
        &[
            ("n", Arg::Val((n as i32).to_le_bytes().to_vec())),
            ("a", Arg::Buf(a)),
            ("last", Arg::Buf(last)),
        ],
    );
    // sequentially the last iteration is i = 2, j = 0
    assert_eq!(e.get::<i32>(last, 1), [102]);
}
