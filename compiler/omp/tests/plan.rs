//! The offload plan of small C programs: modes, loop nests, params and maps.

use ompcc_omp::{ExecMode, OffloadPlan, Pass, plan_with_source};
use ompcc_syntax::ast::MapType;

/// Parses and checks `src`, plans it, and hands the plan to `f` (the plan borrows the tree).
fn with_plan(src: &str, f: impl FnOnce(&OffloadPlan<'_>, &[ompcc_diag::Diagnostic])) {
    let (tu, sm, pd) = ompcc_syntax::parse_translation_unit(src, "t.c");
    assert!(pd.iter().all(|d| !d.is_error()), "{pd:?}");
    let tu = tu.expect("parse");
    let (typed, sd) = ompcc_sema::check(&tu);
    assert!(sd.iter().all(|d| !d.is_error()), "{sd:?}");
    let (plan, diags) = plan_with_source(&tu, &typed, &sm);
    f(&plan, &diags);
}

fn params(p: &OffloadPlan<'_>, r: usize) -> Vec<(String, Pass, Option<MapType>, u32)> {
    p.regions[r]
        .params
        .iter()
        .map(|x| {
            (
                x.name.clone(),
                x.pass,
                x.map.as_ref().map(|m| m.map_type),
                x.size,
            )
        })
        .collect()
}

#[test]
fn saxpy_params_follow_the_rules() {
    let src = "void saxpy(int n, float a, float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(p.regions.len(), 1);
        let r = &p.regions[0];
        assert_eq!(r.kernel, "__omp_offload_saxpy_l2");
        assert_eq!(r.mode, ExecMode::Spmd);
        let ln = r.loop_nest.expect("loop nest");
        assert_eq!(ln.collapse, 1);
        assert_eq!(
            params(p, 0),
            vec![
                ("n".into(), Pass::Value, None, 4),
                ("y".into(), Pass::DevicePtr, Some(MapType::ToFrom), 8),
                ("a".into(), Pass::Value, None, 4),
                ("x".into(), Pass::DevicePtr, Some(MapType::To), 8),
            ]
        );
        assert_eq!(r.params[1].map.as_ref().unwrap().name, "y[0:n]");
        assert!(r.extra_maps.is_empty());
    });
}

#[test]
fn implicit_maps_reductions_and_private() {
    let src = "double g[8];
double dot(int n, double *x, double *y) {
  double sum = 0; int t; double arr[4];
#pragma omp target teams distribute parallel for reduction(+:sum) private(t) map(to: x[0:n], y[0:n])
  for (int i = 0; i < n; i++) { t = i; arr[t % 4] = 1; sum += x[i] * y[i] + g[0]; }
  return sum;
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        let r = &p.regions[0];
        assert_eq!(r.reductions.len(), 1);
        assert_eq!(
            params(p, 0),
            vec![
                ("n".into(), Pass::Value, None, 4),
                ("arr".into(), Pass::Ref, Some(MapType::ToFrom), 8),
                ("sum".into(), Pass::Ref, Some(MapType::ToFrom), 8),
                ("x".into(), Pass::DevicePtr, Some(MapType::To), 8),
                ("y".into(), Pass::DevicePtr, Some(MapType::To), 8),
                ("g".into(), Pass::Ref, Some(MapType::ToFrom), 8),
            ]
        );
        assert!(r.params[1].map.as_ref().unwrap().implicit);
        assert!(!r.params[3].map.as_ref().unwrap().implicit);
    });
}

#[test]
fn modes_of_nested_forms() {
    let src = "#pragma omp declare target
int counter;
#pragma omp end declare target
void f(int n, int *a) {
#pragma omp target map(tofrom: a[0:n])
  {
#pragma omp teams distribute parallel for num_teams(4)
    for (int i = 0; i < n; i++) a[i] += counter;
  }
#pragma omp target teams map(tofrom: a[0:n])
  {
    int k = 1;
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++) a[i] += k;
  }
#pragma omp target map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target parallel map(tofrom: a[0:n])
  {
#pragma omp for
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp single
    a[0] = 0;
  }
#pragma omp target simd map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a[0:n*n])
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i*n+j] = i;
#pragma omp target teams map(tofrom: a[0:n])
#pragma omp parallel
  a[0] = 1;
#pragma omp target teams map(tofrom: a[0:n])
#pragma omp parallel num_threads(n)
  a[0] = 1;
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        let modes: Vec<ExecMode> = p.regions.iter().map(|r| r.mode).collect();
        use ExecMode::*;
        // `teams` around a whole `parallel` is SPMD over the league, unless `num_threads`
        // sizes the team at run time.
        assert_eq!(
            modes,
            vec![Spmd, Generic, Serial, Spmd, Serial, Spmd, Spmd, Generic]
        );
        assert!(p.regions[6].league && !p.regions[3].league);
        assert!(p.regions[0].loop_nest.is_some() && p.regions[0].num_teams.is_some());
        assert!(p.regions[1].loop_nest.is_none() && p.regions[3].loop_nest.is_none());
        assert!(p.regions[4].loop_nest.is_some());
        assert_eq!(p.regions[5].loop_nest.unwrap().collapse, 2);
        // the declare-target global is no param
        assert!(p.regions[0].params.iter().all(|x| x.name != "counter"));
        assert_eq!(p.device_globals.len(), 1);
        let names: Vec<&str> = p.regions.iter().map(|r| r.kernel.as_str()).collect();
        assert_eq!(names[0], "__omp_offload_f_l5");
    });
}

#[test]
fn data_constructs_and_extra_maps() {
    let src = "struct S { int n; double *v; };
void f(int n, double *a, struct S s) {
#pragma omp target data map(tofrom: a[0:n]) use_device_ptr(a)
  {
#pragma omp target update to(a[0:n]) if(n > 1)
#pragma omp target map(tofrom: a[0:n]) map(to: a[0:1]) map(alloc: n)
    a[0] = n;
  }
#pragma omp target enter data map(to: a[0:n])
#pragma omp target exit data map(delete: a[0:n])
#pragma omp target defaultmap(tofrom: scalar) map(tofrom: a[0:n])
  a[0] = s.n + n;
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(p.data.len(), 4);
        assert_eq!(p.data[0].use_device.len(), 1);
        assert!(p.data[1].if_cond.is_some());
        assert_eq!(p.data[1].maps[0].map_type, MapType::To);
        assert_eq!(p.data[2].maps[0].map_type, MapType::To);
        assert_eq!(p.data[3].maps[0].map_type, MapType::Delete);
        let r = &p.regions[0];
        assert_eq!(r.extra_maps.len(), 1);
        assert_eq!(r.extra_maps[0].name, "a[0:1]");
        assert_eq!(
            params(p, 0),
            vec![
                ("a".into(), Pass::DevicePtr, Some(MapType::ToFrom), 8),
                ("n".into(), Pass::Ref, Some(MapType::Alloc), 8),
            ]
        );
        assert_eq!(
            params(p, 1),
            vec![
                ("a".into(), Pass::DevicePtr, Some(MapType::ToFrom), 8),
                ("s".into(), Pass::Ref, Some(MapType::ToFrom), 8),
                ("n".into(), Pass::Ref, Some(MapType::ToFrom), 8),
            ]
        );
    });
}

#[test]
fn lastprivate_loop_variable_is_mapped() {
    let src = "int f(int n, int *a) {
  int i, last = 0;
#pragma omp target teams distribute parallel for lastprivate(i, last) map(tofrom: a[0:n])
  for (i = 0; i < n; i++) { last = a[i]; }
  return i + last;
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        let names: Vec<(String, Pass)> = p.regions[0]
            .params
            .iter()
            .map(|x| (x.name.clone(), x.pass))
            .collect();
        assert_eq!(
            names,
            vec![
                ("i".to_string(), Pass::Ref),
                ("n".to_string(), Pass::Value),
                ("last".to_string(), Pass::Ref),
                ("a".to_string(), Pass::DevicePtr),
            ]
        );
    });
}

#[test]
fn vla_pointer_sizes_are_captured() {
    let src = "void f(int n, double (*a)[n]) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < 4; i++) a[i][0] = 1;
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        let names: Vec<String> = p.regions[0].params.iter().map(|x| x.name.clone()).collect();
        assert_eq!(names, vec!["a".to_string(), "n".to_string()]);
    });
}

#[test]
fn errors_name_the_construct() {
    let src = "void f(int n, double *a) {
  double b[n];
#pragma omp target firstprivate(b) map(tofrom: a[0:n])
  a[0] = b[0];
#pragma omp target defaultmap(none) map(tofrom: a[0:n])
  a[0] = n;
}
";
    with_plan(src, |_, d| {
        let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec!["E0905", "E0907"], "{d:?}");
    });
}

/// `unified_address`, `unified_shared_memory` (zero-copy maps, decided by the runtime),
/// `dynamic_allocators` and `atomic_default_mem_order` are accepted; `reverse_offload` is not.
#[test]
fn requires_refuses_what_ompcc_cannot_guarantee() {
    let src = "#pragma omp requires unified_address, dynamic_allocators
#pragma omp requires unified_shared_memory
#pragma omp requires reverse_offload atomic_default_mem_order(seq_cst)
void f(int *a) {
#pragma omp target map(a[0:1])
  a[0] = 1;
}
";
    with_plan(src, |_, d| {
        let got: Vec<(&str, &str)> = d
            .iter()
            .map(|d| (d.code, d.message.split(':').next().unwrap_or("")))
            .collect();
        assert_eq!(
            got,
            vec![(
                "E0913",
                "'#pragma omp requires reverse_offload' is not supported by ompcc"
            )],
            "{d:?}"
        );
    });
}

#[test]
fn firstprivate_aggregates_are_copied() {
    let src = "struct P { double a, b; int k; };
void f(int *out) {
  int coef[4] = {1, 2, 3, 4};
  struct P p = {1, 2, 3};
  union { int i; float f; } u;
  u.i = 1;
#pragma omp target teams distribute parallel for firstprivate(coef, p) map(from: out[0:8])
  for (int i = 0; i < 8; i++) out[i] = coef[i % 4] + p.k;
#pragma omp target defaultmap(firstprivate: aggregate) map(from: out[0:1])
  out[0] = u.i + coef[1];
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            params(p, 0),
            vec![
                ("out".into(), Pass::DevicePtr, Some(MapType::From), 8),
                ("coef".into(), Pass::Copy, None, 8),
                ("p".into(), Pass::Copy, None, 8),
            ]
        );
        assert_eq!(
            params(p, 1),
            vec![
                ("out".into(), Pass::DevicePtr, Some(MapType::From), 8),
                ("u".into(), Pass::Copy, None, 8),
                ("coef".into(), Pass::Copy, None, 8),
            ]
        );
    });
}

#[test]
fn has_device_addr_items_pass_their_address() {
    let src = "void f(int n, double *q) {
  static double v[64];
  double s = 0;
#pragma omp target teams distribute parallel for has_device_addr(v, q[0:n]) map(tofrom: s)
  for (int i = 0; i < n; i++) { v[i] = q[i]; s += 1; }
#pragma omp target has_device_addr(s)
  s = v[0];
}
";
    with_plan(src, |p, d| {
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            params(p, 0),
            vec![
                ("n".into(), Pass::Value, None, 4),
                ("v".into(), Pass::DeviceAddr, None, 8),
                ("q".into(), Pass::Value, None, 8),
                ("s".into(), Pass::Ref, Some(MapType::ToFrom), 8),
            ]
        );
        assert_eq!(
            params(p, 1),
            vec![
                ("s".into(), Pass::DeviceAddr, None, 8),
                ("v".into(), Pass::Ref, Some(MapType::ToFrom), 8),
            ]
        );
    });
}

/// The kernel names of `src` planned as file `name`.
fn kernel_names(src: &str, name: &str) -> Vec<String> {
    let (tu, sm, _) = ompcc_syntax::parse_translation_unit(src, name);
    let tu = tu.expect("parse");
    let (typed, _) = ompcc_sema::check(&tu);
    let (plan, _) = plan_with_source(&tu, &typed, &sm);
    plan.regions.iter().map(|r| r.kernel.clone()).collect()
}

/// Kernels in `static` and `inline` functions carry the unit's id (other units may have
/// functions of the same name and the device code of all units is linked into one program);
/// the id is deterministic and differs between files and between different texts.
#[test]
fn kernels_of_unit_local_functions_carry_the_unit_id() {
    let src = "static void s(int *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = 1;
}
inline void i(int *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = 2;
}
void e(int *a) {
#pragma omp target map(tofrom: a[0:1])
  a[0] = 3;
}
";
    let names = kernel_names(src, "a.c");
    assert_eq!(names.len(), 3);
    let id = names[0]
        .strip_prefix("__omp_offload_s_")
        .and_then(|r| r.strip_suffix("_l2"))
        .unwrap_or_else(|| panic!("{names:?}"));
    assert!(
        id.len() == 8 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    assert_eq!(names[1], format!("__omp_offload_i_{id}_l6"));
    assert_eq!(names[2], "__omp_offload_e_l10");
    assert_eq!(kernel_names(src, "a.c"), names, "deterministic");
    assert_ne!(kernel_names(src, "b.c")[0], names[0]);
    let other = src.replace("a[0] = 1", "a[0] = 4");
    assert_ne!(kernel_names(&other, "a.c")[0], names[0]);
}

/// A generic region forks its team at nested `parallel` constructs unless its sequential
/// code may put an address of the main thread's stack into a variable.
#[test]
fn generic_regions_fork_unless_the_main_thread_exposes_its_stack() {
    let forks = |body: &str| {
        let src = format!(
            "int g(int); double sqrt(double); int omp_get_team_num(void);\n\
             int h(int x) {{ return x + 1; }}\n\
             int h2(int x) {{ return h(x) * g(x); }}\n\
             int (*fp)(int) = h;\n\
             void omp_set_num_threads(int);\n\
             int shape(int x) {{ omp_set_num_threads(x); return x; }}\n\
             void f(int n, int *a) {{\n#pragma omp target teams map(tofrom: a[0:n])\n{{\n{body}\n}}\n}}\n"
        );
        let mut out = None;
        with_plan(&src, |p, _| {
            assert_eq!(p.regions[0].mode, ExecMode::Generic);
            out = Some(p.regions[0].forks_team);
        });
        out.expect("planned")
    };
    let par = "#pragma omp parallel for\nfor (int i = 0; i < n; i++) a[i] += s;";
    assert!(forks(&format!("int s = 1;\n{par}")));
    assert!(!forks("int s = 1; a[0] = s;"), "no nested parallel");
    assert!(!forks(&format!(
        "int s = 1; int *q = &s;\n{par}\na[0] = *q;"
    )));
    assert!(!forks(&format!(
        "int t[4] = {{1}}; int *q = t; int s = q[0];\n{par}"
    )));
    // Indexed only (the forked body gets a copy of the array): fine.
    assert!(forks(&format!(
        "int t[4] = {{1}}; int s = t[0] + (int)sizeof t;\n{par}\na[1] = t[1];"
    )));
    // Inside the forked body, addresses of its own locals are fine.
    assert!(forks(
        "int s = 2;\n#pragma omp parallel for\nfor (int i = 0; i < n; i++) { int t[2] = {i, s}; int *q = &t[1]; a[i] += *q; }"
    ));
    // A call of a function of another unit in the sequential part: its OpenMP API would read
    // the hardware thread ids.
    assert!(!forks(&format!("int s = g(1);\n{par}")));
    // Functions of this unit answer from the ICV records, unless they call another unit's.
    assert!(forks(&format!("int s = h(1);\n{par}")));
    assert!(!forks(&format!("int s = h2(1);\n{par}")));
    assert!(
        !forks(&format!("int s = fp(1);\n{par}")),
        "through a pointer"
    );
    assert!(
        !forks(&format!("int s = shape(1);\n{par}")),
        "sets nthreads-var"
    );
    // A sized construct's body may only call this unit's functions.
    assert!(forks(
        "int s = 1;\n#pragma omp parallel num_threads(3)\na[h(0)] = s;"
    ));
    assert!(!forks(
        "int s = 1;\n#pragma omp parallel num_threads(3)\na[g(0)] = s;"
    ));
    assert!(forks("int s = 1;\n#pragma omp parallel\na[g(0)] = s;"));
    assert!(forks(&format!(
        "int s = (int)sqrt(4.0) + omp_get_team_num();\n{par}"
    )));
    // A construct with num_threads or if forks with its active threads...
    assert!(forks(
        "int s = 1;\n#pragma omp parallel for num_threads(2)\nfor (int i = 0; i < n; i++) a[i] += s;"
    ));
    assert!(forks(
        "int s = 1;\n#pragma omp parallel if(n > 10)\n{\n#pragma omp for nowait\nfor (int i = 0; i < n; i++) a[i] += s;\n}"
    ));
    // ...unless a barrier inside would wait for the inactive threads too.
    assert!(!forks(
        "int s = 1;\n#pragma omp parallel num_threads(4)\n{\n#pragma omp for\nfor (int i = 0; i < n; i++) a[i] += s;\n}"
    ));
    assert!(!forks(
        "int s = 1;\n#pragma omp parallel if(parallel: n > 1)\n{ a[0] = s;\n#pragma omp barrier\n}"
    ));
    // An `if` for another construct does not size the parallel one.
    assert!(forks(
        "int s = 1;\n#pragma omp parallel for simd if(simd: n > 1)\nfor (int i = 0; i < n; i++) a[i] += s;\n#pragma omp parallel\n{\n#pragma omp barrier\n}"
    ));
}

#[test]
fn declarative_directives_ompcc_cannot_honour_are_reported() {
    let src = "struct V { int n; double *p; };
#pragma omp declare mapper(struct V v) map(v, v.p[0:v.n])
double big[100];
#pragma omp declare target link(big)
#pragma omp begin declare target indirect
int inc(int x) { return x + 1; }
#pragma omp end declare target
int dev_twice(int x) { return 2 * x; }
#pragma omp begin declare variant match(device = {kind(gpu)})
int twice(int x) { return x + x; }
#pragma omp end declare variant
void f(void) {
#pragma omp target map(tofrom: big)
  big[0] = twice(inc(1));
}
";
    with_plan(src, |_, d| {
        let got: Vec<(&str, bool)> = d.iter().map(|d| (d.code, d.is_error())).collect();
        assert_eq!(got, [("W0910", false)], "{d:?}");
        assert!(
            d[0].message.contains("'#pragma omp begin declare variant'"),
            "{d:?}"
        );
    });
}

/// A `parallel if(c)` at the top of a target region launches `c ? width : 1` threads when
/// the host can evaluate `c` to the region's value; otherwise the split form runs serial
/// and the combined form one thread wide (W0913).
#[test]
fn parallel_if_is_evaluated_by_the_launch_when_the_host_can() {
    let plan = |directives: &str| {
        let src = format!(
            "int g; int f(int);\nenum {{ E = 3 }};\n\
             void k(int n, int c, int *p, int a[4]) {{\n{directives}\n{{ a[0] = n; }}\n}}\n"
        );
        let mut out = None;
        with_plan(&src, |p, d| {
            let r = &p.regions[0];
            let errors: Vec<String> = d.iter().map(|d| d.code.to_string()).collect();
            out = Some((r.mode, r.parallel_if.is_some(), errors));
        });
        out.expect("planned")
    };
    let split = |clauses: &str, cond: &str| {
        plan(&format!(
            "#pragma omp target {clauses}\n#pragma omp parallel num_threads(4) if({cond})"
        ))
    };
    assert_eq!(split("", "c > E && n"), (ExecMode::Spmd, true, vec![]));
    assert_eq!(
        split("firstprivate(c)", "(long)c + sizeof(int)"),
        (ExecMode::Spmd, true, vec![])
    );
    // the device's copy, memory, globals, calls, side effects: serial, a team of one
    for (clauses, cond) in [
        ("map(tofrom: c)", "c"),
        ("defaultmap(tofrom: scalar)", "c"),
        ("", "*p"),
        ("", "a[0]"),
        ("", "g"),
        ("", "f(c)"),
        ("", "c++"),
    ] {
        assert_eq!(
            split(clauses, cond),
            (ExecMode::Serial, false, vec![]),
            "{clauses} {cond}"
        );
    }
    let combined = |cond: &str| {
        plan(&format!(
            "#pragma omp target parallel num_threads(4) if(parallel: {cond})"
        ))
    };
    assert_eq!(combined("c"), (ExecMode::Spmd, true, vec![]));
    // a condition the host cannot evaluate: a team of one, with a warning
    assert_eq!(
        combined("*p"),
        (ExecMode::Spmd, true, vec!["W0913".to_string()])
    );
    // `if(c)` on `target parallel` is the target's (and so the parallel's) condition
    assert_eq!(
        plan("#pragma omp target parallel if(*p)"),
        (ExecMode::Spmd, false, vec![])
    );
}
