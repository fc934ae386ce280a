//! The OpenMP device API routines with ICV state, run on the emulator: per-thread values in
//! SPMD regions, inheritance by a forked team, the scoping of tasks, and the diagnostics for
//! what a forking region cannot honour.

#[path = "common/offload.rs"]
mod harness;

use harness::*;

const DECLS: &str = "void omp_set_default_device(int); int omp_get_default_device(void);
int omp_get_thread_num(void); void omp_set_num_threads(int); int omp_get_max_threads(void);
void omp_set_max_active_levels(int); int omp_in_final(void);
";

#[test]
fn every_thread_has_its_own_icvs() {
    let c = compile(&format!(
        "{DECLS}
void f(int *out) {{
#pragma omp target parallel map(tofrom: out[0:64])
  {{
    int t = omp_get_thread_num();
    omp_set_default_device(t * 3);
#pragma omp barrier
    out[t] = omp_get_default_device();
  }}
}}"
    ));
    let mut e = Emu::new(&c);
    let out = e.buf(&[-1i32; 64]);
    e.launch(0, 1, 64, &[("out", Arg::Buf(out))]);
    assert_eq!(
        e.get::<i32>(out, 64),
        (0..64).map(|t| t * 3).collect::<Vec<_>>()
    );
}

#[test]
fn forked_workers_inherit_and_the_main_thread_gets_its_values_back() {
    let c = compile(&format!(
        "{DECLS}
void f(int *out) {{
#pragma omp target teams num_teams(1) map(tofrom: out[0:33])
  {{
    omp_set_default_device(7);
#pragma omp parallel
    {{
      out[omp_get_thread_num()] = omp_get_default_device();
      omp_set_default_device(9);
    }}
    out[32] = omp_get_default_device();
  }}
}}"
    ));
    assert_eq!(c.regions[0].mode, ompcc_omp::ExecMode::Generic);
    let mut e = Emu::new(&c);
    let out = e.buf(&[-1i32; 33]);
    e.launch(0, 1, 32, &[("out", Arg::Buf(out))]);
    assert_eq!(e.get::<i32>(out, 33), vec![7; 33]);
}

#[test]
fn tasks_scope_changes_and_final_is_inherited() {
    let c = compile(&format!(
        "{DECLS}
void f(int *out) {{
#pragma omp target map(tofrom: out[0:5])
  {{
    omp_set_default_device(4);
#pragma omp task shared(out)
    {{
      omp_set_default_device(8);
      out[0] = omp_get_default_device();
    }}
    out[1] = omp_get_default_device();
#pragma omp task final(out[4] == 0) shared(out)
    {{
#pragma omp task shared(out)
      out[2] = omp_in_final();
    }}
    out[3] = omp_in_final();
  }}
}}"
    ));
    let mut e = Emu::new(&c);
    let out = e.buf(&[-1i32, -1, -1, -1, 0]);
    e.launch(0, 1, 1, &[("out", Arg::Buf(out))]);
    assert_eq!(e.get::<i32>(out, 5), vec![8, 4, 1, 0, 0]);
}

#[test]
fn units_that_set_nothing_keep_no_icv_storage() {
    let c = compile(&format!(
        "{DECLS}
void f(int *out) {{
#pragma omp target map(tofrom: out[0:2])
  {{
    out[0] = omp_get_default_device();
    out[1] = omp_get_max_threads();
  }}
}}"
    ));
    assert!(!c.ptx.contains("__ompcc_icv"), "{}", c.ptx);
    let c = compile(&format!(
        "{DECLS}
static void set(void) {{ omp_set_default_device(2); }}
#pragma omp declare target to(set)
void f(int *out) {{
#pragma omp target map(tofrom: out[0:1])
  {{ set(); out[0] = omp_get_default_device(); }}
}}"
    ));
    assert!(c.ptx.contains("__ompcc_icv"));
    let mut e = Emu::new(&c);
    let out = e.buf(&[-1i32]);
    e.launch(0, 1, 1, &[("out", Arg::Buf(out))]);
    assert_eq!(e.get::<i32>(out, 1), vec![2]);
}

#[test]
fn team_shaping_setters_before_a_fork_are_errors() {
    for call in ["omp_set_num_threads(2)", "omp_set_max_active_levels(0)"] {
        let src = format!(
            "{DECLS}
void f(int *out) {{
#pragma omp target teams map(tofrom: out[0:32])
  {{
    {call};
#pragma omp parallel
    out[omp_get_thread_num()] = 1;
  }}
}}"
        );
        let err = try_compile(&src, 2).err().unwrap_or_default();
        let name = call.split('(').next().unwrap_or_default();
        assert!(
            err.contains(&format!("'{name}' is not supported in the sequential part")),
            "{err}"
        );
    }
}

#[test]
fn routines_the_device_cannot_run_are_named() {
    for (decl, call) in [
        (
            "void omp_fulfill_event(unsigned long);",
            "omp_fulfill_event(0)",
        ),
        ("void omp_display_env(int);", "omp_display_env(0)"),
        (
            "void *omp_target_alloc(unsigned long, int);",
            "omp_target_alloc(8, 0)",
        ),
    ] {
        let src = format!(
            "{decl}
void f(int *out) {{
#pragma omp target map(tofrom: out[0:1])
  {{ {call}; out[0] = 1; }}
}}"
        );
        let err = try_compile(&src, 2).err().unwrap_or_default();
        let name = call.split('(').next().unwrap_or_default();
        assert!(
            err.contains(&format!(
                "the OpenMP routine '{name}' is not supported in device code"
            )),
            "{err}"
        );
    }
}

#[test]
fn levels_are_exact_in_device_functions_and_serialized_regions() {
    let c = compile(
        "int omp_get_level(void); int omp_get_ancestor_thread_num(int); int omp_get_team_size(int);
int omp_get_thread_num(void);
static int lv(void) {
  return omp_get_level() * 1000 + omp_get_ancestor_thread_num(1) * 10 + omp_get_team_size(2) +
         (omp_get_ancestor_thread_num(3) == -1 ? 0 : 500) + (omp_get_team_size(0) == 1 ? 0 : 700);
}
#pragma omp declare target to(lv)
void f(int *out, int *per) {
#pragma omp target parallel map(tofrom: out[0:64])
  {
    int t = omp_get_thread_num();
    out[t] = lv();
#pragma omp parallel
    out[32 + t] = lv();
  }
#pragma omp target teams distribute map(tofrom: per[0:8])
  for (int i = 0; i < 4; i++) {
    per[i] = lv();
#pragma omp parallel
    per[4 + i] = lv();
  }
}",
    );
    let mut e = Emu::new(&c);
    let out = e.buf(&[0i32; 64]);
    e.launch(0, 1, 32, &[("out", Arg::Buf(out))]);
    let want: Vec<i32> = (0..32)
        .map(|t| 1000 + 10 * t - 1)
        .chain((0..32).map(|t| 2000 + 10 * t + 1))
        .collect();
    assert_eq!(e.get::<i32>(out, 64), want);
    let per = e.buf(&[0i32; 8]);
    e.launch(1, 2, 32, &[("per", Arg::Buf(per))]);
    assert_eq!(
        e.get::<i32>(per, 8),
        [-11, -11, -11, -11, 999, 999, 999, 999]
    );
}

#[test]
fn levels_agree_with_the_team_in_generic_regions() {
    // a parallel as the whole teams body, and one after sequential code (a forked team)
    let c = compile(
        "int omp_get_level(void); int omp_get_ancestor_thread_num(int); int omp_get_team_size(int);
int omp_get_thread_num(void); int omp_get_num_threads(void); int omp_get_team_num(void);
void f(int *out) {
#pragma omp target teams num_teams(1) map(tofrom: out[0:64])
  {
#pragma omp parallel
    out[omp_get_thread_num()] = omp_get_level() * 10 +
        (omp_get_team_size(1) == omp_get_num_threads() &&
         omp_get_ancestor_thread_num(1) == omp_get_thread_num());
  }
#pragma omp target teams num_teams(1) map(tofrom: out[0:64])
  {
    int k = omp_get_team_num() + 1;
#pragma omp parallel
    out[32 + omp_get_thread_num()] = omp_get_level() * 10 * k +
        (omp_get_team_size(1) == omp_get_num_threads() &&
         omp_get_ancestor_thread_num(1) == omp_get_thread_num());
  }
}",
    );
    let mut e = Emu::new(&c);
    let out = e.buf(&[0i32; 64]);
    e.launch(0, 1, 32, &[("out", Arg::Buf(out))]);
    e.launch(1, 1, 32, &[("out", Arg::Buf(out))]);
    let got = e.get::<i32>(out, 64);
    // every thread that ran the body saw a consistent level 1
    assert_eq!(got[0], 11);
    assert!(got[1..32].iter().all(|&v| v == 0 || v == 11), "{got:?}");
    assert_eq!(&got[32..], &[11; 32][..]);
}
