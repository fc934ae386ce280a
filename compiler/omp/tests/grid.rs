//! The plan's grid mapping (`map_grids`): which loop the threads take, what each thread runs,
//! and when the nest stays as written.

use ompcc_omp::{GridOptions, map_grids, plan_with_source};
use ompcc_syntax::ast::Stmt;

/// The line of each region's threaded loop and of its sequential loops, the box variable's
/// name, and the remarks (passed?, message), for `src` planned with the loop swap `on`.
#[allow(clippy::type_complexity)]
fn grids(
    src: &str,
    on: bool,
) -> (
    Vec<Option<(u32, Vec<u32>, Option<String>)>>,
    Vec<(bool, String)>,
) {
    let (tu, sm, pd) = ompcc_syntax::parse_translation_unit(src, "t.c");
    assert!(pd.iter().all(|d| !d.is_error()), "{pd:?}");
    let tu = tu.expect("parse");
    let (typed, sd) = ompcc_sema::check(&tu);
    assert!(sd.iter().all(|d| !d.is_error()), "{sd:?}");
    let (mut plan, diags) = plan_with_source(&tu, &typed, &sm);
    assert!(diags.is_empty(), "{diags:?}");
    let remarks = map_grids(
        &mut plan,
        &tu,
        &typed,
        &sm,
        GridOptions {
            loop_swap: on,
            warp_coop: false,
            reassociate: false,
            private_layout: false,
            auto_collapse: false,
            triangular_collapse: false,
            irregular_collapse: false,
            ordered_coop: false,
            noalias_maps: false,
            ordered_irregular: false,
        },
    );
    let line = |s: &Stmt| sm.lookup(s.span.lo).line;
    let out = plan
        .regions
        .iter()
        .map(|r| {
            r.grid.as_ref().map(|g| {
                let ln = r.loop_nest.expect("a loop nest");
                // the host's launch sizing reads `outer`: the threaded loop unless boxed
                if g.box_over.is_none() {
                    assert!(std::ptr::eq(ln.outer, g.threaded));
                } else {
                    assert!(!std::ptr::eq(ln.outer, g.threaded));
                }
                (
                    line(g.threaded),
                    g.sequential.iter().map(|s| line(s)).collect(),
                    g.box_over.map(|v| typed.symbols[v].name.clone()),
                )
            })
        })
        .collect();
    (
        out,
        remarks
            .into_iter()
            .filter(|r| r.pass == "coalesce")
            .map(|r| (r.passed, r.message))
            .collect(),
    )
}

const NESTS: &str = "void f(int n, int m, float *restrict a, float *restrict b, float *g) {
#pragma omp target teams distribute parallel for map(to: a[0:n*m]) map(from: b[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i*m + j] = a[i*m + j];
#pragma omp target teams distribute parallel for map(tofrom: g[0:n*n*n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        g[(i*n + j)*n + k] += 1.0f;
#pragma omp target teams distribute parallel for map(tofrom: b[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      b[i*m + j] = 0.0f;
#pragma omp target teams distribute parallel for map(tofrom: b[0:n*m])
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      b[i*m + j] *= 2.0f;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: b[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i*m + j] += 1.0f;
#pragma omp target teams distribute parallel for schedule(static, 4) map(tofrom: b[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i*m + j] += 1.0f;
}
";

#[test]
fn the_threads_take_the_unit_stride_loop_where_it_is_legal() {
    let (g, remarks) = grids(NESTS, true);
    assert_eq!(g[0], Some((4, vec![3], None)));
    // 3-D: the innermost loop; i and j run in order in each thread
    assert_eq!(g[1], Some((9, vec![7, 8], None)));
    // triangular: boxed over i
    assert_eq!(g[2], Some((13, vec![12], Some("i".into()))));
    // already coalesced, a collapse nest, a schedule: as written
    assert_eq!(g[3..], [None, None, None]);
    let passed = remarks.iter().filter(|r| r.0).count();
    assert_eq!(passed, 3, "{remarks:?}");
    let missed: Vec<&String> = remarks.iter().filter(|r| !r.0).map(|r| &r.1).collect();
    assert_eq!(missed.len(), 1, "{missed:?}");
    assert!(
        missed[0]
            .ends_with("the directive's 'schedule' clause fixes which thread runs each iteration"),
        "{missed:?}"
    );
}

#[test]
fn the_knob_off_keeps_every_nest_as_written() {
    let (g, remarks) = grids(NESTS, false);
    assert!(g.iter().all(Option::is_none));
    assert!(remarks.is_empty());
}

/// Per region: the cooperative loop's line, lanes and reduction variable, for `src` planned
/// with warp-cooperative inner loops on (floating-point ones too when `reassoc`).
fn cooperative(src: &str, reassoc: bool) -> Vec<Option<(u32, u32, String)>> {
    let (tu, sm, pd) = ompcc_syntax::parse_translation_unit(src, "t.c");
    assert!(pd.iter().all(|d| !d.is_error()), "{pd:?}");
    let tu = tu.expect("parse");
    let (typed, sd) = ompcc_sema::check(&tu);
    assert!(sd.iter().all(|d| !d.is_error()), "{sd:?}");
    let (mut plan, diags) = plan_with_source(&tu, &typed, &sm);
    assert!(diags.is_empty(), "{diags:?}");
    let opts = GridOptions {
        loop_swap: true,
        warp_coop: true,
        reassociate: reassoc,
        private_layout: false,
        auto_collapse: false,
        triangular_collapse: false,
        irregular_collapse: false,
        ordered_coop: false,
        noalias_maps: false,
        ordered_irregular: false,
    };
    map_grids(&mut plan, &tu, &typed, &sm, opts);
    plan.regions
        .iter()
        .map(|r| {
            let c = r.grid.as_ref()?.cooperative?;
            Some((
                sm.lookup(c.inner.span.lo).line,
                c.lanes,
                typed.symbols[c.var].name.clone(),
            ))
        })
        .collect()
}

const ROWS: &str = "void f(int n, int m, const int *a, const float *b, long *y, float *z) {
#pragma omp target teams distribute parallel for map(to: a[0:n*m]) map(from: y[0:n])
  for (int i = 0; i < n; i++) {
    long s = 0;
    for (int j = 0; j < m; j++)
      s += a[i*m + j];
    y[i] = s;
  }
#pragma omp target teams distribute parallel for map(to: a[0:n*m]) map(from: y[0:n])
  for (int i = 0; i < n; i++) {
    int s = 1;
    for (int j = 2; j < 14; j++)
      s *= a[i*m + j];
    y[i] = s;
  }
#pragma omp target teams distribute parallel for map(to: b[0:n*m]) map(from: z[0:n])
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < m; j++)
      s += b[i*m + j];
    z[i] = s;
  }
#pragma omp target teams distribute parallel for map(to: a[0:n*m]) map(from: y[0:n])
  for (int j = 0; j < m; j++) {
    long s = 0;
    for (int i = 0; i < n; i++)
      s += a[i*m + j];
    y[j] = s;
  }
}
";

#[test]
fn lanes_share_row_reductions_that_any_order_sums_alike() {
    // integer rows: 32 lanes, or 16 for 12 iterations; a float sum only under reassoc; a
    // column per thread is coalesced already
    assert_eq!(
        cooperative(ROWS, false),
        vec![
            Some((5, 32, "s".into())),
            Some((12, 16, "s".into())),
            None,
            None
        ]
    );
    assert_eq!(cooperative(ROWS, true)[2], Some((19, 32, "s".into())));
}
