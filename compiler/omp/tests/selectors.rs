//! Compile-time resolution of context selectors: metadirective lines rewritten for the
//! device and the host version, declare-variant calls in device code, declare-mapper
//! expansion, and the E0909/E0912 refusals.

fn with_unit(
    src: &str,
    f: impl FnOnce(&ompcc_syntax::ast::TranslationUnit, &ompcc_sema::TypedUnit),
) {
    let (tu, _, pd) = ompcc_syntax::parse_translation_unit(src, "t.c");
    assert!(pd.iter().all(|d| !d.is_error()), "{pd:?}");
    let tu = tu.expect("parses");
    let (typed, sd) = ompcc_sema::check(&tu);
    assert!(sd.iter().all(|d| !d.is_error()), "{sd:?}");
    f(&tu, &typed);
}

#[test]
fn metadirective_lines_become_each_version_s_variant() {
    let src = "void f(int *a) {
#pragma omp target map(a[0:4])
  {
#pragma omp metadirective when(device={kind(gpu)}: parallel) default(single)
    a[0] = 1;
  }
#pragma omp metadirective when(user={condition(0)}: parallel) otherwise(nothing)
  a[1] = 2;
}
";
    with_unit(src, |tu, typed| {
        let (edits, diags) = ompcc_omp::resolve_metadirectives(tu, typed, src, 70);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(edits.len(), 2);
        let first = &edits[0];
        assert_eq!(first.device.trim_end(), "#pragma omp parallel");
        assert_eq!(first.host.trim_end(), "#pragma omp single");
        assert_eq!(first.device.len(), first.hi - first.lo);
        assert_eq!(edits[1].device.trim(), "");
        assert_eq!(edits[1].host.trim(), "");
    });
    let dynamic = "void g(int n) {
#pragma omp metadirective when(user={condition(n > 4)}: parallel) default(nothing)
  n++;
}
";
    with_unit(dynamic, |tu, typed| {
        let (_, diags) = ompcc_omp::resolve_metadirectives(tu, typed, dynamic, 70);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "E0912");
        assert!(diags[0].message.contains("condition(n > 4)"), "{diags:?}");
    });
}

#[test]
fn isa_selectors_follow_the_offload_arch() {
    let src = "void f(int *a) {
#pragma omp target map(a[0:4])
  {
#pragma omp metadirective when(device={isa(sm_80)}: parallel) default(single)
    a[0] = 1;
  }
}
";
    with_unit(src, |tu, typed| {
        for (isa, device) in [(70, "single"), (80, "parallel"), (90, "parallel")] {
            let (edits, diags) = ompcc_omp::resolve_metadirectives(tu, typed, src, isa);
            assert!(diags.is_empty(), "{diags:?}");
            assert_eq!(
                edits[0].device.trim_end(),
                format!("#pragma omp {device}"),
                "sm_{isa}"
            );
            assert_eq!(edits[0].host.trim_end(), "#pragma omp single", "sm_{isa}");
        }
    });
}

#[test]
fn device_calls_take_the_best_matching_variant() {
    let src = "int v_gpu(int x) { return x; }
int v_arch(int x) { return x; }
#pragma omp declare variant(v_gpu) match(device={kind(gpu)})
#pragma omp declare variant(v_arch) match(device={arch(nvptx64)})
int base(int x) { return x; }
int main(void) {
  int r = 0;
#pragma omp target map(from: r)
  r = base(1);
  return base(r);
}
";
    with_unit(src, |tu, typed| {
        let (calls, diags) = ompcc_omp::device_variant_calls(tu, typed, src, 70);
        assert!(diags.is_empty(), "{diags:?}");
        // one call in device code; the host's call is gcc's
        assert_eq!(calls.len(), 1);
        let v = *calls.values().next().unwrap();
        assert_eq!(typed.symbols[v].name, "v_arch");
    });
}

#[test]
fn mapper_uses_expand_into_map_clauses() {
    let src = "struct V { int n; double *p; };
#pragma omp declare mapper(struct V v) map(v, v.p[0:v.n])
void f(struct V s, struct V *arr) {
#pragma omp target map(to: s)
  s.p[0] = 1;
#pragma omp target map(tofrom: arr[0:2])
  arr[0].n = 1;
}
";
    with_unit(src, |tu, typed| {
        let (edits, diags) = ompcc_omp::expand_mappers(tu, typed, src);
        assert!(
            edits.iter().any(|e| e.with == "map(to: s, s.p[0:s.n])"),
            "{edits:?}"
        );
        assert!(
            edits
                .iter()
                .any(|e| e.with.trim().is_empty() && e.hi > e.lo)
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, "E0909");
        assert!(diags[0].message.contains("array sections"), "{diags:?}");
    });
}

#[test]
fn mapper_iterators_expand_renamed_and_iterated_items_are_refused() {
    let src = "struct V { int n; double **rows; };
#pragma omp declare mapper(struct V v) map(iterator(it = 0:v.n), to: v.rows[it][0:4])
void f(struct V s, struct V *arr, int it) {
#pragma omp target map(tofrom: s)
  s.rows[it][0] = 1;
#pragma omp target map(iterator(i = 0:2), to: arr[i])
  arr[0].n = 1;
}
";
    with_unit(src, |tu, typed| {
        let (edits, diags) = ompcc_omp::expand_mappers(tu, typed, src);
        assert!(
            edits.iter().any(|e| e.with
                == "map(iterator(__ompcc_mapper_it0_it = 0:s.n), to: s.rows[__ompcc_mapper_it0_it][0:4])"),
            "{edits:?}"
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, "E0909");
        assert!(
            diags[0].message.contains("'arr[i]'") && diags[0].message.contains("iterator"),
            "{diags:?}"
        );
    });
}

#[test]
fn dispatch_calls_convert_the_need_device_ptr_arguments() {
    let src = "void v(float *a, float *b, float *c, int n) {}
#pragma omp declare variant(v) match(construct={dispatch}) adjust_args(need_device_ptr: c, a) adjust_args(nothing: b)
void f(float *a, float *b, float *c, int n);
int main(void) {
  float x[4], y[4], z[4];
  float *p = z;
#pragma omp dispatch
  f(x, y, z, 4);
#pragma omp dispatch is_device_ptr(p)
  f(x, y, p, 4);
#pragma omp dispatch novariants(1)
  f(x, y, z, 4);
#pragma omp target map(x, y, z)
  {
#pragma omp dispatch
    f(x, y, z, 4);
  }
  return 0;
}
";
    with_unit(src, |tu, typed| {
        let (calls, diags) = ompcc_omp::host_dispatch_calls(tu, typed, src);
        assert!(diags.is_empty(), "{diags:?}");
        let converted: Vec<Vec<usize>> = calls.iter().map(|c| c.need_device_ptr.clone()).collect();
        // is_device_ptr keeps `p`; in a target region every pointer is the device's already
        assert_eq!(converted, [vec![0, 2], vec![0], vec![0, 2], vec![]]);
    });
}

#[test]
fn adjust_args_errors_name_what_is_wrong() {
    for (clause, selector, why) in [
        (
            "adjust_args(need_device_ptr: q)",
            "construct={dispatch}",
            "'q' in 'adjust_args' is not a parameter of 'f'",
        ),
        (
            "adjust_args(need_device_ptr: n)",
            "construct={dispatch}",
            "'n' in 'adjust_args(need_device_ptr: ...)' is not a pointer parameter",
        ),
        (
            "adjust_args(need_device_ptr: a) adjust_args(nothing: a)",
            "construct={dispatch}",
            "'a' appears in 'adjust_args' more than once",
        ),
        (
            "adjust_args(need_device_addr: a)",
            "construct={dispatch}",
            "the adjust-op 'need_device_addr' of 'adjust_args' is not supported",
        ),
        (
            "adjust_args(need_device_ptr: a)",
            "device={kind(gpu)}",
            "'adjust_args' needs 'dispatch' in the construct selector set",
        ),
        (
            "append_args(interop(target))",
            "construct={dispatch}",
            "the 'append_args' clause of 'declare variant' is not supported",
        ),
    ] {
        let src = format!(
            "void v(float *a, int n) {{}}
#pragma omp declare variant(v) match({selector}) {clause}
void f(float *a, int n);
void g(float *a) {{
#pragma omp dispatch
  f(a, 1);
}}
"
        );
        with_unit(&src, |tu, typed| {
            let (_, diags) = ompcc_omp::host_dispatch_calls(tu, typed, &src);
            assert_eq!(diags.len(), 1, "{clause}: {diags:?}");
            assert_eq!(diags[0].code, "E0912");
            assert!(
                diags[0].message.contains(why),
                "{clause}: {}",
                diags[0].message
            );
        });
    }
}
