//! The host rewrite of small units: the generated C is valid (cc compiles it as
//! `cpp-output`), user lines keep their numbers, and the entries follow the plan.

use std::process::Command;

use ompcc_host::{DeviceGlobal, DeviceImage, rewrite};

/// Parses, checks, plans and rewrites `src` (file `t.c`); returns the rewritten text.
fn rewritten(src: &str, image: &DeviceImage) -> String {
    let (tu, sm, pd) = ompcc_syntax::parse_translation_unit(src, "t.c");
    assert!(pd.iter().all(|d| !d.is_error()), "{pd:?}");
    let tu = tu.expect("parse");
    let (typed, sd) = ompcc_sema::check(&tu);
    assert!(sd.iter().all(|d| !d.is_error()), "{sd:?}");
    let (plan, diags) = ompcc_omp::plan_with_source(&tu, &typed, &sm);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let out = rewrite(src, src.as_bytes(), &sm, &tu, &typed, &plan, image)
        .unwrap_or_else(|d| panic!("{d:?}"));
    String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
}

/// Compiles `text` with `cc -x cpp-output -c` and the warnings on; returns cc's messages.
fn cc_accepts(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.i");
    std::fs::write(&path, text).unwrap();
    let out = Command::new("cc")
        .args([
            "-fopenmp",
            "-foffload=disable",
            "-Wall",
            "-Wextra",
            "-x",
            "cpp-output",
            "-c",
        ])
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("t.o"))
        .env("LC_ALL", "C")
        .output()
        .expect("running cc");
    let msgs = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "cc rejected:\n{msgs}\n{text}");
    msgs
}

const PROGRAM: &str = "\
struct S { int n; double *p; };
#pragma omp declare target
int g = 3;
#pragma omp end declare target
void f(int n, double *x, double a[8][16], struct S s) {
  double loc[32];
#pragma omp target teams distribute parallel for map(to: x[1:n]) map(tofrom: s, s.p[0:s.n])
  for (int i = 0; i < n; i++)
    x[i + 1] += s.p[i] + g + loc[i % 32];
#pragma omp target data map(tofrom: a[2][0:16], loc[4:]) if(n > 0) use_device_ptr(x)
  {
#pragma omp target update to(a[2][0:16]) from(loc[4:8])
    x[0] = 1;
  }
#pragma omp target enter data map(alloc: x[0:n])
#pragma omp target exit data map(delete: x[0:n])
  int unused_on_line_17;
}
";

#[test]
fn rewritten_unit_compiles_and_keeps_user_lines() {
    let image = DeviceImage {
        ptx: ".version 7.0\n.target sm_70\n// \"quoted\" \\ ??=\n".to_owned(),
        globals: vec![DeviceGlobal {
            ptx_name: "g".to_owned(),
            host_name: "g".to_owned(),
        }],
        host_decls: String::new(),
        calls_only: false,
        requirements: 0,
        ptx_apart: false,
    };
    let text = rewritten(PROGRAM, &image);
    let msgs = cc_accepts(&text);
    // The one warning is the user's, on the user's line.
    assert!(
        msgs.contains("t.c:17:7: warning: unused variable 'unused_on_line_17'"),
        "{msgs}"
    );
    assert_eq!(msgs.matches("warning:").count(), 1, "{msgs}");
    // Untouched lines reach cc verbatim.
    for line in [
        "  for (int i = 0; i < n; i++)",
        "    x[i + 1] += s.p[i] + g + loc[i % 32];",
        "    x[0] = 1;",
    ] {
        assert!(text.contains(line), "{line}:\n{text}");
    }
    // The region: params in plan order, a pointer attachment for s.p, the fallback.
    assert!(text.contains("ompcc_rt_launch(&__ompcc_a"), "{text}");
    assert!(text.contains("\"s.p[0:s.n]\""), "{text}");
    assert!(
        text.contains(", 0x200ull, \"s.p[0:s.n]\""),
        "attach entry:\n{text}"
    );
    assert!(
        text.contains("\n#pragma omp target teams distribute parallel for map(to: x[1:n])"),
        "host fallback:\n{text}"
    );
    // Data constructs: the guard evaluated once, the shadowed device pointer.
    assert!(text.contains("int __ompcc_if"), "{text}");
    assert!(text.contains("__typeof__(x) x = __ompcc_u"), "{text}");
    assert!(!text.contains("#pragma omp target data"), "{text}");
    // The image: escaped PTX and the global table.
    assert!(text.contains(r#""// \"quoted\" \\ \?\?=\n""#), "{text}");
    assert!(text.contains("{\"g\", (void *)&g, sizeof(g)}"), "{text}");
    // The unit's first line stays its first (cc names the unit after its first marker).
    assert!(
        text.starts_with("# 1 \"t.c\"\n# 1 \"<ompcc-prelude>\""),
        "{text}"
    );
}

#[test]
fn with_the_ptx_apart_the_units_assembly_completes_it() {
    let ptx = ".version 7.0\n// \"quoted\" \\ ??= caf\u{e9}\t\n";
    let image = DeviceImage {
        ptx_apart: true,
        ..DeviceImage::default()
    };
    let text = rewritten(PROGRAM, &image);
    assert!(!text.contains(".version"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let (src, asm, obj) = (
        dir.path().join("t.i"),
        dir.path().join("t.s"),
        dir.path().join("t.o"),
    );
    std::fs::write(&src, text).unwrap();
    let cc = |args: &[&std::ffi::OsStr]| {
        let out = Command::new("cc").args(args).output().expect("running cc");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let compile = [
        "-fopenmp",
        "-foffload=disable",
        "-x",
        "cpp-output",
        "-S",
        "-o",
    ];
    let mut args: Vec<&std::ffi::OsStr> = compile.iter().map(|a| a.as_ref()).collect();
    args.extend([asm.as_os_str(), src.as_os_str()]);
    cc(&args);
    let mut assembly = std::fs::read_to_string(&asm).unwrap();
    assembly.push_str(&ompcc_host::ptx_assembly(ptx));
    std::fs::write(&asm, assembly).unwrap();
    cc(&[
        "-c".as_ref(),
        "-o".as_ref(),
        obj.as_os_str(),
        asm.as_os_str(),
    ]);
    // The PTX bytes, NUL-terminated, and its size, in the object, defined there.
    let bytes = std::fs::read(&obj).unwrap();
    let mut want = ptx.as_bytes().to_vec();
    want.push(0);
    assert!(bytes.windows(want.len()).any(|w| w == want.as_slice()));
    let size = (ptx.len() as u64).to_le_bytes();
    assert!(bytes.windows(8).any(|w| w == size));
    let nm = Command::new("nm").arg(&obj).output().expect("running nm");
    let symbols = String::from_utf8_lossy(&nm.stdout);
    assert!(symbols.contains(" r __ompcc_ptx\n"), "{symbols}");
    assert!(symbols.contains(" r __ompcc_ptx_size\n"), "{symbols}");
    assert!(!symbols.contains(" U __ompcc_ptx"), "{symbols}");
}

#[test]
fn launch_geometry_follows_the_mode() {
    let src = "\
void f(int n, int *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) num_teams(n / 4) thread_limit(64)
  for (int i = 0; i < n; i++) a[i]++;
#pragma omp target parallel for map(tofrom: a[0:n]) num_threads(8)
  for (int i = 0; i < n; i++) a[i]++;
#pragma omp target map(tofrom: a[0:1]) device(0)
  a[0] = 7;
}
";
    let text = rewritten(src, &DeviceImage::default());
    cc_accepts(&text);
    // A league sharing a loop: the iteration count (computed from the bounds) rides along.
    assert!(
        text.contains(
            "unsigned int __ompcc_n1_0 = ompcc_rt_clause_count((long long)(n / 4), \
             \"num_teams\", \"t.c:2:80\"); unsigned int __ompcc_n1_1 = \
             ompcc_rt_clause_count((long long)(64), \"thread_limit\", \"t.c:2:100\"); "
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "__ompcc_e1, __ompcc_n1_0, __ompcc_n1_1, 0u, __extension__({ long long __t = ({ long long __lo = (long long)(0), __hi = (long long)(n), \
             __s = (long long)(1);"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "(unsigned int)(__t > 0xffffffffLL ? 0xffffffffu : __t); }), \"t.c:2:1\", {0u, 0u, 0u}}"
        ),
        "{text}"
    );
    // No `teams`: one team, whatever the device's size.
    assert!(
        text.contains(
            "unsigned int __ompcc_n2_0 = ompcc_rt_clause_count((long long)(8), \
             \"num_threads\", \"t.c:4:65\"); "
        ),
        "{text}"
    );
    assert!(
        text.contains(", 1, __ompcc_n2_0, 0u, 0u, \"t.c:4:1\", {0u, 0u, 0u}}"),
        "{text}"
    );
    // The host fallback takes the values the launch took (evaluated once, sanitized).
    assert!(
        text.contains(
            "parallel for map(tofrom: a[0:n]) num_threads((__ompcc_n2_0 > 2147483647u ? \
             2147483647 : (int)__ompcc_n2_0))"
        ),
        "{text}"
    );
    assert!(
        text.contains("(int)(0), 1u, __ompcc_e3, 1, 1, 0u, 0u, \"t.c:6:1\", {0u, 0u, 0u}}"),
        "{text}"
    );
    // The host-fallback copy runs on the host whatever device was asked for.
    assert!(
        text.contains("#pragma omp target map(tofrom: a[0:1]) device(-1)"),
        "{text}"
    );
}

/// A generic region that forks its team at nested `parallel` constructs (sized ones, and
/// with a call of the unit's own function in its sequential part) starts `thread_limit`
/// threads per team; one that cannot fork starts one.
#[test]
fn forking_generic_regions_launch_their_thread_limit() {
    let src = "\
int omp_get_num_threads(void);
#pragma omp declare target
int who(void) { return omp_get_num_threads(); }
#pragma omp end declare target
void f(int n, int *a) {
#pragma omp target teams num_teams(2) thread_limit(32) map(tofrom: a[0:n])
  {
    int s = who();
#pragma omp parallel for num_threads(4) if(n > 1)
    for (int i = 0; i < n; i++) a[i] += s;
  }
#pragma omp target teams num_teams(2) thread_limit(32) map(tofrom: a[0:n])
  {
    int s = 1, *p = &s;
#pragma omp parallel for num_threads(4)
    for (int i = 0; i < n; i++) a[i] += *p;
  }
}
";
    let text = rewritten(src, &DeviceImage::default());
    cc_accepts(&text);
    assert!(
        text.contains(
            "__ompcc_n1_0 = ompcc_rt_clause_count((long long)(2), \"num_teams\", \
             \"t.c:6:36\"); unsigned int __ompcc_n1_1 = ompcc_rt_clause_count((long long)(32), \
             \"thread_limit\", \"t.c:6:52\"); "
        ),
        "{text}"
    );
    assert!(
        text.contains("__ompcc_n1_0, __ompcc_n1_1, 0u, 0u, \"t.c:6:1\", {0u, 0u, 0u}}"),
        "{text}"
    );
    assert!(
        text.contains(
            "__ompcc_n2_0 = ompcc_rt_clause_count((long long)(2), \"num_teams\", \
             \"t.c:12:36\"); "
        ),
        "{text}"
    );
    assert!(
        text.contains("__ompcc_n2_0, 1, 0u, 0u, \"t.c:12:1\", {0u, 0u, 0u}}"),
        "{text}"
    );
}

#[test]
fn use_device_addr_of_an_array_redirects_its_uses() {
    let src = "\
unsigned long f(void) {
  static double v[64];
  unsigned long n = 0;
#pragma omp target data map(tofrom: v)
  {
#pragma omp target data use_device_addr(v)
    {
      double *d = v;
      n = sizeof(v) + (d != 0);
#pragma omp target teams distribute parallel for has_device_addr(v)
      for (int i = 0; i < 64; i++)
        v[i] = i;
    }
  }
  return n;
}
";
    let text = rewritten(src, &DeviceImage::default());
    let msgs = cc_accepts(&text);
    assert!(!msgs.contains("warning"), "{msgs}\n{text}");
    // A pointer to the array at its device address; the body's uses go through it, so
    // `sizeof` still measures the array.
    assert!(
        text.contains("__typeof__(v) *__ompcc_u2_0 = (__typeof__(v) *)ompcc_rt_use_device_ptr("),
        "{text}"
    );
    assert!(
        text.contains("      double *d = (*__ompcc_u2_0);"),
        "{text}"
    );
    assert!(
        text.contains("      n = sizeof((*__ompcc_u2_0)) + (d != 0);"),
        "{text}"
    );
    // The region passes that address unchanged (LITERAL | TARGET_PARAM); its pragma, the
    // host fallback, still names the variable.
    assert!(
        text.contains("void *__ompcc_h3_0 = (void *)&((*__ompcc_u2_0));"),
        "{text}"
    );
    assert!(text.contains(", 0x30ull, \"v\""), "{text}");
    assert!(
        text.contains("#pragma omp target teams distribute parallel for has_device_addr(v)\n"),
        "{text}"
    );
    assert!(text.contains("        (*__ompcc_u2_0)[i] = i;"), "{text}");
}

#[test]
fn firstprivate_aggregates_are_copied_for_the_launch() {
    let src = "\
struct P { double a; int k; };
void f(int *out) {
  const int coef[4] = {1, 2, 3, 4};
  struct P p = {0.5, 2};
#pragma omp target teams distribute parallel for firstprivate(coef, p) map(from: out[0:8])
  for (int i = 0; i < 8; i++)
    out[i] = coef[i % 4] + p.k;
}
";
    let text = rewritten(src, &DeviceImage::default());
    let msgs = cc_accepts(&text);
    assert!(!msgs.contains("warning"), "{msgs}\n{text}");
    for (k, v) in [(1, "coef"), (2, "p")] {
        assert!(
            text.contains(&format!(
                "unsigned char __ompcc_f1_{k}[sizeof({v})] __attribute__((aligned(__alignof__({v})))); \
                 __builtin_memcpy(__ompcc_f1_{k}, (const void *)&({v}), sizeof(__ompcc_f1_{k}));"
            )),
            "{v}:\n{text}"
        );
        // Mapped `to` as the kernel's parameter: TO | TARGET_PARAM.
        assert!(
            text.contains(&format!(
                "{{((void *)__ompcc_f1_{k}), ((void *)__ompcc_f1_{k}), \
                 ((unsigned long long)sizeof(__ompcc_f1_{k})), 0x11ull, \"{v}\""
            )),
            "{v}:\n{text}"
        );
    }
}

#[test]
fn depend_clauses_wait_for_their_predecessors_first() {
    // The runtime runs each construct at once, `nowait` or not: the host task that writes
    // `a` must be complete before `enter data` copies it, so each construct with `depend`
    // is preceded by a `taskwait` with its clauses (the user's lines keep their numbers).
    let src = "\
void g(float *a, float *c, int n) {
#pragma omp task depend(out: a[0:n])
  for (int i = 0; i < n; i++) a[i] = i;
#pragma omp target enter data map(to: a[0:n]) depend(in: a[0:n]) nowait
#pragma omp target teams distribute parallel for nowait depend(in: a[0:n]) depend(out: c[0:n]) map(tofrom: c[0:n])
  for (int i = 0; i < n; i++) c[i] = a[i];
#pragma omp target update from(c[0:n]) depend(inout: c[0:n])
  int line_8 = 0; (void)line_8;
#pragma omp target teams distribute parallel for map(tofrom: c[0:n])
  for (int i = 0; i < n; i++) c[i] += 1;
}
";
    let text = rewritten(src, &DeviceImage::default());
    let msgs = cc_accepts(&text);
    assert!(!msgs.contains("warning"), "{msgs}\n{text}");
    let waits: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("#pragma omp taskwait"))
        .collect();
    assert_eq!(
        waits,
        [
            "#pragma omp taskwait depend(in: a[0:n])",
            "#pragma omp taskwait depend(in: a[0:n]) depend(out: c[0:n])",
            "#pragma omp taskwait depend(inout: c[0:n])",
        ],
        "{text}"
    );
    // Each wait comes before its construct's runtime call, and a marker returns to its line.
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s}:\n{text}"));
    assert!(at("taskwait depend(in: a[0:n])\n") < at("ompcc_rt_target_enter_data(-"));
    assert!(
        text.contains("depend(inout: c[0:n])\n# 7 \"t.c\"\n{ "),
        "{text}"
    );
    assert!(text.contains("\"t.c:7:1\"); }}\n  int line_8"), "{text}");
}

#[test]
fn all_memory_and_iterators_order_tasks_conservatively() {
    // gcc 12 knows no `omp_all_memory`: a task naming it waits for every earlier sibling
    // (a taskwait) and runs undeferred (`if(0)`; its own condition still evaluated), in braces since it may be a braceless
    // body; a `target nowait` naming it gets a plain taskwait, and its fallback copy loses
    // the clause and `nowait`. `iterator` modifiers reach gcc as written.
    let src = "\
void g(int *a, int n) {
  int x = 0;
#pragma omp parallel
#pragma omp single
  {
    if (n > 0)
#pragma omp task depend(inout: omp_all_memory) if(n > 1)
      x++;
    for (int k = 0; k < n; k++)
#pragma omp target nowait depend(out: omp_all_memory) map(tofrom: a[0:n])
      a[k] += 1;
#pragma omp task depend(iterator(i = 0:n), in: a[i]) shared(x)
    x += a[0];
#pragma omp target nowait depend(iterator(int i = 0:n:2), out: a[i]) map(tofrom: a[0:n])
    a[0] += x;
#pragma omp taskwait depend(inout: omp_all_memory)
  }
  int line_18 = x; (void)line_18;
}
";
    let text = rewritten(src, &DeviceImage::default());
    let msgs = cc_accepts(&text);
    assert!(!msgs.contains("warning"), "{msgs}\n{text}");
    assert!(!text.contains("omp_all_memory"), "{text}");
    assert!(
        text.contains("    if (n > 0)\n{\n#pragma omp taskwait\n# 7 \"t.c\"\n#pragma omp task"),
        "{text}"
    );
    assert!(
        text.contains(" if(((void)(n > 1), 0))\n      x++;}\n"),
        "{text}"
    );
    assert!(
        text.contains("{\n#pragma omp taskwait\n# 10 \"t.c\"\n{ "),
        "{text}"
    );
    assert!(
        text.contains("#pragma omp taskwait depend(iterator(int i = 0:n:2), out: a[i])\n"),
        "{text}"
    );
    assert!(
        text.contains("#pragma omp task depend(iterator(i = 0:n), in: a[i]) shared(x)\n"),
        "{text}"
    );
    // the user's line 18 is still line 18 for cc
    let before = &text[..text.find("int line_18").unwrap()];
    let (marker_at, marker) = before
        .match_indices("\n# ")
        .last()
        .map(|(i, _)| (i, &before[i + 3..]))
        .unwrap();
    let line: usize = marker.split(' ').next().unwrap().parse().unwrap();
    let after = before[marker_at + 1..].matches('\n').count() - 1;
    assert_eq!(line + after, 18, "{text}");
}

#[test]
fn openmp_5_spellings_gcc_12_rejects_reach_it_in_older_forms() {
    // gcc 12 knows neither `enter`, `begin declare target`, `uses_allocators` nor the `present`
    // modifiers; the host text (the fallback copy included) must still compile.
    let src = "\
typedef enum { omp_default_mem_alloc = 1 } omp_allocator_handle_t; int tab[4] = {1, 2, 3, 4};
#pragma omp declare target enter(tab)
#pragma omp begin declare target device_type(any)
int twice(int x) { return 2 * x; }
#pragma omp end declare target
int sq(int x) { return x * x; }
#pragma omp declare target enter(sq) device_type(any)
void f(int n, int *a) {
#pragma omp target enter data map(present, to: a[0:n])
#pragma omp target map(present, tofrom: a[0:n]) defaultmap(present: aggregate)
  for (int i = 0; i < n; i++) a[i] = twice(a[i]) + sq(tab[i % 4]);
#pragma omp target update from(present: a[0:n])
  int line_13 = 0; (void)line_13;
  int t[4]; double v = 1, *pv = &v;
#pragma omp target map(tofrom: *pv)
  *pv += 1;
#pragma omp target firstprivate(t) uses_allocators(omp_default_mem_alloc) allocate(t) map(tofrom: a[0:4])
  for (int i = 0; i < 4; i++) { t[i] = i; a[i] += t[i]; }
}
";
    let text = rewritten(src, &DeviceImage::default());
    let msgs = cc_accepts(&text);
    assert!(!msgs.contains("warning"), "{msgs}\n{text}");
    for line in [
        "#pragma omp declare target to(tab)",
        "#pragma omp declare target ",
        "#pragma omp declare target to(sq) ",
        "#pragma omp target map(tofrom : a[0:n]) defaultmap(tofrom: aggregate)",
        "#pragma omp target firstprivate(t)  allocate(t) map(tofrom: a[0:4])",
        "#pragma omp target map(tofrom: pv[0:1])",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}:\n{text}");
    }
    assert!(text.contains("\"t.c:12:1\"); }\n  int line_13"), "{text}");
    // The runtime's entry for the item is still the pointee, as written.
    assert!(
        text.contains("((void *)&(*pv)), ((unsigned long long)sizeof(*pv)), 0x13ull, \"*pv\""),
        "{text}"
    );
}

#[test]
fn members_through_one_pointer_share_a_parent_entry() {
    // `rp->arr[0:8]` and `rp->id` are parts of one struct: one parent entry spans them and
    // the kernel's `rp` is translated through it (two separate mappings would leave the
    // device struct without storage between them). A section of a pointer member is not
    // part of the struct.
    let src = "\
struct R { int id; double arr[8]; double *ext; };
void f(struct R *rp, int n) {
#pragma omp target map(tofrom: rp->arr[0:8]) map(to: rp->id) map(tofrom: rp->ext[0:n])
  for (int i = 0; i < 8; i++) rp->arr[i] += rp->id + rp->ext[i % n];
}
";
    let text = rewritten(src, &DeviceImage::default());
    let msgs = cc_accepts(&text);
    assert!(!msgs.contains("warning"), "{msgs}\n{text}");
    let line = text
        .lines()
        .find(|l| l.contains("__ompcc_map_entry __ompcc_e1[]"))
        .unwrap_or_else(|| panic!("{text}"));
    // Parent: base `rp`, TARGET_PARAM only; then the two members with MEMBER_OF(1).
    assert!(
        line.contains("{((void *)(rp)), ((void *)__extension__({ char *__l"),
        "{line}"
    );
    let member_of_first = format!("0x{:x}ull", (1u64 << 48) | 0x3);
    assert!(
        line.contains(&format!("{member_of_first}, \"rp->arr[0:8]\"")),
        "{line}"
    );
    assert!(
        line.contains(&format!("0x{:x}ull, \"rp->id\"", (1u64 << 48) | 0x1)),
        "{line}"
    );
    // The pointee section of `rp->ext` keeps its own entry (not a member of the parent).
    assert!(line.contains("0x3ull, \"rp->ext[0:n]\""), "{line}");
}

/// A region that names nothing of a struct but uses its members maps them under a parent
/// flagged implicit, so that the runtime, finding only part of the struct present, can say
/// the variable was mapped implicitly; one explicit member item keeps the parent explicit.
#[test]
fn parent_of_only_implicit_members_is_implicit() {
    let src = "\
struct S { int n; double *a; };
double f(struct S s) {
  double t = 0;
#pragma omp target map(tofrom: t)
  for (int i = 0; i < s.n; i++) t += s.a[i];
#pragma omp target map(tofrom: t) map(to: s.a[0:s.n])
  for (int i = 0; i < s.n; i++) t += s.a[i];
  return t;
}
";
    let text = rewritten(src, &DeviceImage::default());
    cc_accepts(&text);
    let parent_flags = |array: &str| {
        let line = text
            .lines()
            .find(|l| l.contains(array))
            .unwrap_or_else(|| panic!("{text}"));
        let parent = line
            .split("}, {")
            .find(|e| e.contains("\"s\""))
            .unwrap_or_else(|| panic!("{line}"));
        parent
            .rsplit(", 0x")
            .next()
            .and_then(|t| t.split("ull").next())
            .map(|h| u64::from_str_radix(h, 16).expect("hex flags"))
            .unwrap_or_else(|| panic!("{parent}"))
    };
    let (target_param, implicit) = (1u64 << 4, 1u64 << 6);
    assert_eq!(parent_flags("__ompcc_e1[]"), target_param | implicit);
    assert_eq!(parent_flags("__ompcc_e2[]"), target_param);
}

/// `adjust_args(need_device_ptr: ...)`: the call of the variant chosen with `dispatch`
/// translates those arguments, in argument order; the other arms pass them unchanged.
#[test]
fn dispatch_passes_need_device_ptr_arguments_as_device_addresses() {
    let src = "\
void v(float *a, float *b, float *c, int n) {}
#pragma omp declare variant(v) match(construct={dispatch}) adjust_args(need_device_ptr: c, a)
void f(float *a, float *b, float *c, int n);
void g(float *x, float *y, float *z, int nc) {
#pragma omp dispatch nocontext(nc) device(1)
  f(x + 1, y, z, 4);
}
";
    let text = rewritten(src, &DeviceImage::default());
    cc_accepts(&text);
    let call = text
        .lines()
        .find(|l| l.contains("if (__ompcc_nc0)"))
        .expect("the dispatch rewrite");
    assert!(
        call.contains("if (__ompcc_nc0) f(x + 1, y, z, 4); else "),
        "{call}"
    );
    assert!(
        call.contains(
            "v(ompcc_rt_use_device_ptr(-100, (void *)(x + 1), \"x + 1\", \"t.c:5:1\"), y, \
             ompcc_rt_use_device_ptr(-100, (void *)(z), \"z\", \"t.c:5:1\"), 4);"
        ),
        "{call}"
    );
}

#[test]
fn collapsed_one_iteration_variant_passes_its_trip_counts_innermost_first() {
    let src = "void f(int n, int m, float *a) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i * m + j] = 1;
}
";
    let (tu, sm, _) = ompcc_syntax::parse_translation_unit(src, "t.c");
    let tu = tu.expect("parse");
    let (typed, _) = ompcc_sema::check(&tu);
    let (mut plan, _) = ompcc_omp::plan_with_source(&tu, &typed, &sm);
    assert!(ompcc_omp::choose_one_iteration(&mut plan, &typed).is_empty());
    assert_eq!(ompcc_omp::one_iteration_grid(&plan.regions[0]), 2);
    let out = rewrite(
        src,
        src.as_bytes(),
        &sm,
        &tu,
        &typed,
        &plan,
        &DeviceImage::default(),
    )
    .unwrap_or_else(|d| panic!("{d:?}"));
    let text = String::from_utf8(out).unwrap();
    cc_accepts(&text);
    // `m`'s loop first, then `n`'s, then 1 for the absent third loop
    let nest = text.split("\"t.c:2:1\", ").nth(1).expect("launch args");
    let m = nest.find("(long long)(m)").expect("inner trip");
    let n = nest.find("(long long)(n)").expect("outer trip");
    assert!(
        nest.starts_with("{__extension__({ long long __t = ") && m < n,
        "{text}"
    );
    assert!(nest.contains("__t); }), 1u}}; "), "{text}");
}
