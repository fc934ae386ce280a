//! Function selection (`declare target` forms, callees pulled in) and the diagnostics for what
//! cannot run on the device: each is an error at the construct, and the module still verifies.

mod common;
use common::*;
use ompcc_lower::FunctionSelection;

fn names(m: &ompcc_ir::Module) -> Vec<String> {
    let mut v: Vec<String> = m.functions.iter().map(|f| f.name.clone()).collect();
    v.sort();
    v
}

#[test]
fn declare_target_selects_functions_and_their_callees() {
    let src = "\
static int helper(int x) { return x * 2; }\n\
static int unused(int x) { return x; }\n\
int host_only(void) { return 1; }\n\
#pragma omp declare target\n\
int dev_a(int x) { return helper(x) + 1; }\n\
#pragma omp end declare target\n\
#pragma omp begin declare target\n\
int dev_b(int x) { return dev_a(x); }\n\
#pragma omp end declare target\n\
int listed(int x) { return x + 3; }\n\
#pragma omp declare target(listed)\n\
int entered(int x) { return x + 4; }\n\
#pragma omp declare target enter(entered)\n\
#pragma omp begin declare target device_type(host)\n\
int host_side(int x) { return x; }\n\
#pragma omp end declare target\n\
int host_listed(int x) { return x; }\n\
#pragma omp declare target enter(host_listed) device_type(host)\n";
    let (m, d) = lower_with(src, &FunctionSelection::DeclareTarget);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(names(&m), ["dev_a", "dev_b", "entered", "helper", "listed"]);
    let (m, _) = lower_with(src, &FunctionSelection::All);
    assert_eq!(m.functions.len(), 9);
    let (m, _) = lower_with(src, &FunctionSelection::Named(vec!["dev_b".into()]));
    assert_eq!(names(&m), ["dev_a", "dev_b", "helper"]);
}

fn one_error(src: &str, needle: &str) {
    let errs = lower_errors(src);
    assert!(
        errs.iter().any(|e| e.contains(needle)),
        "expected an error containing {needle:?}, got {errs:?}"
    );
}

#[test]
fn unsupported_constructs_are_diagnosed() {
    one_error(
        "int fprintf(void *, const char *, ...);\nvoid f(void) { fprintf(0, \"x\"); }",
        "function 'fprintf' has no device definition",
    );
    one_error(
        "typedef long jmp_buf[8]; int setjmp(jmp_buf); void f(void) { jmp_buf b; setjmp(b); }",
        "'setjmp' cannot be used on the device",
    );
    one_error(
        "int ext(int); int f(void) { return ext(1); }",
        "'ext' has no device definition",
    );
    one_error(
        "void f(void) { __asm__ volatile(\"nop\"); }",
        "inline assembly",
    );
    one_error(
        "long double f(long double x) { return x * 2; }",
        "long double",
    );
    // a long double that would exist at run time is refused plainly
    one_error(
        "double f(double x) { return x * 2.0L; }",
        "a 'long double' value at run time is not supported on the device",
    );
    one_error("void f(void) { __int128 x = 1; (void)x; }", "__int128");
    one_error(
        "void f(void) { _Complex long double z = 1; (void)z; }",
        "long double",
    );
    one_error(
        "int ext(int); int f(void) { int (*p)(int) = ext; return p(1); }",
        "'ext' has no device definition, so it has no device address",
    );
    one_error(
        "_Thread_local int t; int f(void) { return t; }",
        "thread-local",
    );
    one_error(
        "int g(int); int (*fp)(int) = g; int f(void) { return fp(1); }",
        "initializer of 'fp' cannot be placed on the device",
    );
    // A function's own `parallel for` runs serialized; an orphaned `for` binds to the
    // caller's team, unknown here.
    one_error(
        "void f(int *a, int n) {\n#pragma omp for\n for (int i = 0; i < n; i++) a[i] = 0;\n}",
        "orphaned '#pragma omp for'",
    );
    one_error(
        "void f(int *a, int n) {\n#pragma omp target map(a[0:n])\n a[0] = 1;\n}",
        "a target region cannot contain another target construct",
    );
}

#[test]
fn a_failed_function_still_leaves_a_valid_callable_symbol() {
    let src =
        "int ext(int);\nint bad(int x) { return ext(x); }\nint good(int x) { return bad(x) + 1; }";
    let (m, d) = lower_with(src, &FunctionSelection::All);
    assert_eq!(d.iter().filter(|d| d.is_error()).count(), 1, "{d:?}");
    let bad = m.function("bad").expect("bad is kept");
    assert!(bad.to_string().contains("trap"), "{bad}");
    assert!(m.function("good").is_some());
}

#[test]
fn globals_get_module_storage_with_initializers() {
    let (m, _) = lower_ok(
        "static double coef[3] = {0.5, 1.5, -2.0};\n\
         struct { int a; char s[4]; } cfg = {7, \"ab\"};\n\
         double f(int i) { static int calls = 3; calls++; return coef[i] * cfg.a + calls; }",
    );
    let coef = m.global("coef").expect("coef");
    let init = coef.init.as_ref().expect("init");
    assert_eq!(&init[0..8], &0.5f64.to_le_bytes());
    assert_eq!(&init[16..24], &(-2.0f64).to_le_bytes());
    let cfg = m.global("cfg").expect("cfg");
    // Initializers hold the bytes up to the last nonzero one; the rest is zero.
    assert_eq!(
        cfg.init.as_ref().map(|b| b.to_vec()),
        Some(vec![7, 0, 0, 0, b'a', b'b'])
    );
    let calls = m.global("f__calls").expect("static local");
    assert_eq!(calls.init.as_ref().map(|b| b[0]), Some(3));
}

#[test]
fn assert_calls_assertfail_then_traps_and_abort_traps() {
    let (m, _) = lower_ok(
        "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n\
         void abort(void);\n\
         int f(int x) { ((x > 0) ? (void)0 : __assert_fail(\"x > 0\", \"t.c\", 3, \"f\")); if (x > 9) abort(); return x; }",
    );
    let t = m.function("f").expect("f").to_string();
    let call = t.find("call").expect("__assertfail call");
    let trap = t[call..].find("trap").expect("trap after the call");
    assert!(trap > 0);
    assert_eq!(t.matches("trap").count(), 2, "{t}");
    let decl = m
        .decls
        .iter()
        .find(|d| d.name == "__assertfail")
        .expect("declared");
    assert_eq!(decl.sig.to_string(), "(ptr, ptr, i32, ptr, i64)", "{t}");
}

#[test]
fn all_selection_skips_unused_inline_definitions() {
    let src = "static inline int used(int x) { return x + 1; }\n\
               static inline int unused(int x, ...) { return x; }\n\
               int f(int x) { return used(x); }";
    let (m, d) = lower_with(src, &FunctionSelection::All);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(names(&m), ["f", "used"]);
}

/// The address of another unit's declare-target function, taken in code and held by an
/// initializer, is the `extern` declaration's (resolved by the device link); a function that
/// is not declare target still has no device address.
#[test]
fn addresses_of_other_units_declare_target_functions() {
    let src = "\
#pragma omp declare target\n\
double sq(double x);\n\
double tw(double x);\n\
double (*table[2])(double) = {0, tw};\n\
double apply(int i, double x) { double (*f)(double) = i ? sq : table[1]; return f(x); }\n\
#pragma omp end declare target\n";
    let (m, d) = lower_with(src, &FunctionSelection::DeclareTarget);
    assert!(d.is_empty(), "{d:?}");
    let text = m.to_string();
    for line in [
        "extern declare @sq(f64) -> f64",
        "extern declare @tw(f64) -> f64",
        "relocs [8: @tw]",
        "= func_addr fn",
    ] {
        assert!(text.contains(line), "{line:?} missing in\n{text}");
    }
    ompcc_ir::verify_module(&m).expect("verifies");
    one_error(
        "double sq(double x);\n#pragma omp declare target\n\
         double (*p)(double) = sq;\ndouble use(double x) { return p(x); }\n\
         #pragma omp end declare target\n",
        "function 'sq' has no device definition",
    );
}

/// Separate compilation: a `declare target` function or object that this unit declares but
/// another defines is an `extern` declaration / global (PTX `.extern`), in every declare-target
/// form; a function that is not declare target keeps its error; a unit's own definitions and
/// tentative definitions stay definitions.
#[test]
fn declare_target_symbols_of_other_units_are_extern() {
    let src = "\
#pragma omp declare target\n\
double weight(int i);\n\
extern double table[8];\n\
extern int counter;\n\
int tentative;\n\
#pragma omp end declare target\n\
int listed(int);\n\
#pragma omp declare target enter(listed)\n\
#pragma omp begin declare target\n\
double use(int i) { counter += listed(i); tentative++; return weight(i) * table[i & 7]; }\n\
#pragma omp end declare target\n";
    let (m, d) = lower_with(src, &FunctionSelection::DeclareTarget);
    assert!(d.is_empty(), "{d:?}");
    let text = m.to_string();
    for line in [
        "extern declare @weight(i32) -> f64",
        "extern declare @listed(i32) -> i32",
        "extern global @table: global, size 64, align 8\n",
        "extern global @counter: global, size 4, align 4\n",
        // Zero-initialized: an initializer with no bytes (the object is all zero).
        "global @tentative: global, size 4, align 4 = []",
    ] {
        assert!(text.contains(line), "{line:?} missing in\n{text}");
    }
    assert!(!text.contains("extern global @tentative"), "{text}");
    // The text form reads back with the same linkage.
    let back = ompcc_ir::parse_module(&text).expect("parses");
    assert_eq!(back.to_string(), text);
    one_error(
        "double weight(int i);\n#pragma omp declare target\n\
         double use(int i) { return weight(i); }\n#pragma omp end declare target\n",
        "function 'weight' has no device definition",
    );
}

#[test]
fn long_double_constants_fold_into_double_and_float() {
    // gcc's <float.h>: `#define DBL_MAX ((double)1.79769313486231570814527423731704357e+308L)`
    let src = "double dmax(void) { return -((double)1.79769313486231570814527423731704357e+308L); }\n\
               double half(void) { double h = 1.0L / 2.0L; return h; }\n\
               float third(void) { return (float)(3.0L / 4.0L) + 2.5L; }\n\
               long big(void) { return (long)1e15L; }";
    let (m, d) = lower_with(src, &FunctionSelection::All);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(as_f64(run(&m, "dmax")), -f64::MAX);
    assert_eq!(as_f64(run(&m, "half")), 0.5);
    assert_eq!(as_f64(run(&m, "third")), 3.25);
    assert_eq!(as_i64(run(&m, "big")), 1_000_000_000_000_000);
}
