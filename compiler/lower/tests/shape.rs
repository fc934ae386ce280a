//! Checks on the printed IR: what the lowering emits for particular constructs, before and
//! after -O1 (filecheck-style line matching).

mod common;
use common::*;
use ompcc_ir::Module;

fn func_text(m: &Module, name: &str) -> String {
    m.function(name)
        .unwrap_or_else(|| panic!("no function {name} in\n{m}"))
        .to_string()
}

/// Asserts that `needles` occur in `text` in this order (each a substring of one line).
fn check_order(text: &str, needles: &[&str]) {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    for n in needles {
        match lines[at..].iter().position(|l| l.contains(n)) {
            Some(p) => at += p + 1,
            None => panic!("expected `{n}` (in order) in:\n{text}"),
        }
    }
}

#[test]
fn saxpy_at_o1_has_no_stack_traffic() {
    let (o0, o1) = lower_ok(
        "void saxpy(int n, float a, const float *x, float *y) {\n\
           for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n\
         }",
    );
    let before = func_text(&o0, "saxpy");
    assert!(
        before.contains("stack_slot"),
        "-O0 keeps locals in slots:\n{before}"
    );
    let t = func_text(&o1, "saxpy");
    assert!(!t.contains("stack_slot"), "{t}");
    assert!(!t.contains("stack_addr"), "{t}");
    assert!(!t.contains(" local "), "{t}");
    check_order(
        &t,
        &[
            "icmp slt",
            "brif",
            "sext.i64",
            "load.f32 generic align 4",
            "fmul",
            "load.f32 generic align 4",
            "fadd",
            "store generic align 4",
            "iadd",
        ],
    );
}

#[test]
fn struct_member_offsets_follow_the_layout() {
    let (_, o1) = lower_ok(
        "struct S { char a; double b; int c; short d[3]; };\n\
         int get_c(struct S *s) { return s->c; }\n\
         short get_d2(struct S *s) { return s->d[2]; }\n\
         double get_b(struct S s) { return s.b; }",
    );
    check_order(
        &func_text(&o1, "get_c"),
        &["iconst.i64 16", "ptr_offset", "load.i32 generic align 4"],
    );
    // d at 20, element 2 at +4
    let d = func_text(&o1, "get_d2");
    assert!(d.contains("load.i16 generic align 2"), "{d}");
    assert!(
        d.contains("iconst.i64 24") || (d.contains("iconst.i64 20") && d.contains("iconst.i64 4")),
        "{d}"
    );
    check_order(
        &func_text(&o1, "get_b"),
        &["iconst.i64 8", "ptr_offset", "load.f64 generic align 8"],
    );
}

#[test]
fn bitfield_store_masks_and_shifts() {
    let (o0, _) = lower_ok(
        "struct B { unsigned a : 3; int b : 5; };\n\
         void set_b(struct B *p, int v) { p->b = v; }\n\
         int get_b(struct B *p) { return p->b; }",
    );
    let set = func_text(&o0, "set_b");
    // b occupies bits 3..8 of the first byte: keep mask ~0xf8 = -249 in i8 is 7, field mask 0xf8
    check_order(
        &set,
        &[
            "load.i8",
            "iconst.i8 7",
            "and",
            "iconst.i8 3",
            "shl",
            "iconst.i8 -8",
            "and",
            "or",
            "store",
        ],
    );
    let get = func_text(&o0, "get_b");
    // sign extension of a 5-bit field at bit 3 in an i8 unit: shl 0, ashr 3
    check_order(&get, &["load.i8", "shl", "iconst.i8 3", "ashr", "sext.i32"]);
}

#[test]
fn signed_and_unsigned_division_differ() {
    let (_, o1) = lower_ok(
        "int sdiv(int a, int b) { return a / b + a % b; }\n\
         unsigned udiv(unsigned a, unsigned b) { return a / b + a % b; }\n\
         int sshr(int a, int b) { return a >> b; }\n\
         unsigned ushr(unsigned a, int b) { return a >> b; }\n\
         int ucmp(unsigned a, unsigned b) { return a < b; }",
    );
    let s = func_text(&o1, "sdiv");
    assert!(
        s.contains("sdiv") && s.contains("srem") && !s.contains("udiv"),
        "{s}"
    );
    let u = func_text(&o1, "udiv");
    assert!(
        u.contains("udiv") && u.contains("urem") && !u.contains("sdiv"),
        "{u}"
    );
    assert!(func_text(&o1, "sshr").contains("ashr"));
    assert!(func_text(&o1, "ushr").contains("lshr"));
    assert!(func_text(&o1, "ucmp").contains("icmp ult"));
}

#[test]
fn pointer_to_vla_stride_is_computed_at_run_time() {
    let (_, o1) =
        lower_ok("double at(int n, int m, double (*a)[m], int i, int j) { return a[i][j]; }");
    let t = func_text(&o1, "at");
    // row stride = (long)m * 8, then i * stride
    check_order(
        &t,
        &[
            "sext.i64 v1",
            "iconst.i64 8",
            "imul",
            "imul",
            "ptr_offset",
            "ptr_offset",
            "load.f64",
        ],
    );
}

#[test]
fn printf_packs_arguments_for_vprintf() {
    let (o0, _) = lower_ok(
        "int printf(const char *, ...);\n\
         void say(int i, float f, char c, long l) { printf(\"%d %f %c %ld\\n\", i, f, c, l); }",
    );
    let t = func_text(&o0, "say");
    // int at 0, double at 8, int at 16, long at 24: 32 bytes
    assert!(t.contains("size 32, align 8"), "{t}");
    assert!(t.contains("fpext.f64"), "{t}");
    check_order(&t, &["call fn0("]);
    assert!(o0.decls.iter().any(|d| d.name == "vprintf"), "{o0}");
    let fmt = o0
        .globals
        .iter()
        .find(|g| g.init.as_deref().is_some_and(|b| b.starts_with(b"%d %f")))
        .expect("format global");
    assert_eq!(fmt.init.as_ref().map(|b| *b.last().unwrap_or(&1)), Some(0));
}

#[test]
fn math_stays_external_calls_and_device_api_reads_registers() {
    let (o0, _) = lower_ok(
        "int omp_get_thread_num(void); double sqrt(double);\n\
         double f(double x) { return sqrt(x) + omp_get_thread_num(); }",
    );
    let names: Vec<&str> = o0.decls.iter().map(|d| d.name.as_str()).collect();
    assert!(
        names.contains(&"sqrt") && !names.contains(&"omp_get_thread_num"),
        "{names:?}"
    );
    let text = o0.to_string();
    assert!(text.contains("sreg tid.x"), "{text}");
    assert!(ompcc_lower::DEVICE_API.contains(&"omp_get_team_num"));
    assert!(ompcc_lower::is_device_library_function("expf"));
    assert!(ompcc_lower::is_device_library_function("strncmp"));
    assert!(!ompcc_lower::is_device_library_function("lgamma"));
}

#[test]
fn short_circuit_uses_control_flow() {
    let (o0, _) = lower_ok("int f(int *p) { return p && *p > 2; }");
    let t = func_text(&o0, "f");
    // the load of *p happens only on the path where p is non-null
    check_order(
        &t,
        &[
            "ptrtoint", "icmp ne", "brif", "load.i32", "icmp sgt", "brif",
        ],
    );
}

#[test]
fn omp_atomic_on_shared_memory_is_one_rmw() {
    let (o0, _) = lower_ok(
        "void add(double *t, double v, int *n) {\n#pragma omp atomic\n*t += v;\n#pragma omp atomic\n(*n)--;\n}",
    );
    let t = func_text(&o0, "add");
    check_order(
        &t,
        &[
            "atomic_rmw add generic gpu",
            " = neg ",
            "atomic_rmw add generic gpu",
        ],
    );
}

#[test]
fn dense_switch_uses_a_jump_table_sparse_one_compares() {
    let (o0, _) = lower_ok(
        "int dense(int x) { switch (x) { case 3: return 1; case 4: return 2; case 6: return 3;\n\
           case 7: return 4; case 10 ... 12: return 9; default: return 0; } }\n\
         int sparse(int x) { switch (x) { case 1: return 1; case 1000: return 2; case -70000: return 3;\n\
           case 5: return 4; } return 0; }",
    );
    let d = func_text(&o0, "dense");
    check_order(
        &d,
        &[
            "isub",
            "icmp ule",
            "brif",
            "iconst.i32 3",
            "isub",
            "br_table",
        ],
    );
    let s = func_text(&o0, "sparse");
    assert!(
        !s.contains("br_table") && s.matches("icmp eq").count() == 4,
        "{s}"
    );
}

#[test]
fn scalar_locals_never_survive_o1() {
    let (o0, o1) = lower_ok(
        "static int sq(int v) { return v * v; }\n\
         long f(int n, const double *p, char c, _Bool b) {\n\
           long acc = 0; double d = 0; const double *q = p; unsigned char uc = c; _Bool flag = b;\n\
           for (int i = 0; i < n; i++) { acc += sq(i) % 7; d += q[i]; if (flag) uc++; }\n\
           switch (n & 3) { case 0: acc -= 1; break; case 1: acc <<= 2; default: acc ^= 5; }\n\
           int t = ({ int k = n; k > 3 ? k : -k; });\n\
           if (acc > 100) goto done;\n\
           acc = c ? acc + t : acc - t;\n\
         done:\n\
           return acc + (long)d + uc + flag;\n\
         }",
    );
    assert!(func_text(&o0, "f").contains("stack_slot"));
    // -O1 inlines the static `sq` into `f` and drops it (internal linkage, no caller left).
    assert!(o1.function("sq").is_none(), "{o1}");
    let t = func_text(&o1, "f");
    assert!(
        !t.contains("stack_slot") && !t.contains("stack_addr"),
        "{t}"
    );
}

#[test]
fn tgmath_calls_the_selected_candidate() {
    let (o0, _) = lower_ok(
        "double sqrt(double); float sqrtf(float);\n\
         float f(float x) { return __builtin_tgmath(sqrtf, sqrt, x); }\n\
         double g(int i) { return __builtin_tgmath(sqrtf, sqrt, i); }",
    );
    assert!(
        func_text(&o0, "f").contains("fn0 = func @sqrtf(f32) -> f32"),
        "{o0}"
    );
    let g = func_text(&o0, "g");
    assert!(
        g.contains("@sqrt(f64) -> f64") && g.contains("sitofp.f64"),
        "{g}"
    );
}

#[test]
fn generic_selection_of_a_function_is_a_direct_call() {
    let (o0, _) = lower_ok(
        "static int twice(int x) { return 2 * x; }\n\
         static double half(double x) { return x / 2; }\n\
         double f(int a, double b) {\n\
           return _Generic(a, int: twice, double: half)(a) + _Generic(b, int: twice, double: half)(b);\n\
         }",
    );
    let t = func_text(&o0, "f");
    assert!(t.contains("func @twice") && t.contains("func @half"), "{t}");
    assert!(!t.contains("call_indirect"), "{t}");
}

#[test]
fn signed_int_arithmetic_is_nsw_and_unsigned_wraps() {
    let src = "\
int si(int a, int b) { return a * b + a - b; }\n\
long sl(long a, long b) { return a * b + a; }\n\
unsigned ui(unsigned a, unsigned b) { return a * b + a - b; }\n\
unsigned long ul(unsigned long a, unsigned long b) { return a * b + a; }\n\
int loop(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }\n\
int bytes(char c) { c++; return c; }\n";
    let (m, _) = lower_ok(src);
    let si = func_text(&m, "si");
    assert_eq!(si.matches(" nsw ").count(), 3, "{si}");
    let sl = func_text(&m, "sl");
    assert_eq!(sl.matches(" nsw ").count(), 2, "{sl}");
    for f in ["ui", "ul"] {
        let t = func_text(&m, f);
        assert!(!t.contains("nsw"), "{t}");
    }
    // `i++` and `s += p[i]` on ints; the pointer arithmetic of `p[i]` stays plain.
    let lp = func_text(&m, "loop");
    assert_eq!(lp.matches("iadd nsw").count(), 2, "{lp}");
    assert!(!lp.contains("imul nsw"), "{lp}");
    // `c++` on a char is `(char)(c + 1)`: the conversion wraps, so no flag.
    let by = func_text(&m, "bytes");
    assert!(!by.contains("nsw"), "{by}");
}
