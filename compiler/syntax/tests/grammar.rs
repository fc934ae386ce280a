//! Grammar unit tests: tricky C declarations and expressions, typedef scoping, the dangling
//! else, GNU extensions and OpenMP directives with every clause form. Each test prints the
//! tree and checks the lines that matter.

use ompcc_syntax::{dump_tokens, parse_translation_unit, print_ast};

fn ast(src: &str) -> String {
    let (tu, sm, diags) = parse_translation_unit(src, "t.c");
    let msgs: Vec<String> = diags
        .iter()
        .map(|d| format!("{}: {}", sm.describe(d.primary.span), d.message))
        .collect();
    assert!(
        msgs.is_empty(),
        "unexpected diagnostics for {src:?}:\n{}",
        msgs.join("\n")
    );
    print_ast(&tu.expect("tree"))
}

fn errors(src: &str) -> Vec<String> {
    let (_, sm, diags) = parse_translation_unit(src, "t.c");
    diags
        .iter()
        .map(|d| {
            format!(
                "{}: {} [{}]",
                sm.describe(d.primary.span),
                d.message,
                d.code
            )
        })
        .collect()
}

fn has(out: &str, line: &str) {
    assert!(
        out.lines().any(|l| l.trim() == line),
        "missing line {line:?} in:\n{out}"
    );
}

#[test]
fn typedef_scoping() {
    let out = ast("typedef int T;\n\
         void f(void) { T * x; { int T; T * x; } T * y; }\n\
         void g(void) { float T; T = 1; }\n\
         int p(int T) { return T * 2; }\n\
         T h;");
    has(&out, "decl typedef int T");
    has(&out, "decl typedef-name:T x *");
    has(&out, "decl int T");
    has(&out, "(* T x);");
    has(&out, "decl typedef-name:T y *");
    has(&out, "decl float T");
    has(&out, "(= T 1);");
    has(&out, "function int p fn(int T)");
    has(&out, "return (* T 2);");
    has(&out, "decl typedef-name:T h");
}

#[test]
fn typedef_names_as_tags_members_and_params() {
    let out = ast("typedef struct T T; struct T { T *next; int T; };\n\
         typedef int U; int f(U); int g(int U); int h(int (U));\n\
         void k(T *t) { t->T = 1; }\n\
         int m(void) { U: goto U; }");
    has(&out, "decl typedef struct T T");
    has(&out, "decl struct T { typedef-name:T next *; int T }");
    has(&out, "decl int f fn(typedef-name:U)");
    has(&out, "decl int g fn(int U)");
    has(&out, "decl int h fn(int <abstract> fn(typedef-name:U))");
    has(&out, "(= (-> t T) 1);");
    has(&out, "label U:");
    has(&out, "goto U;");
}

#[test]
fn casts_versus_parenthesized_expressions() {
    let out = ast(
        "typedef int T; int a, b; void f(void) { a = (T)b; a = (a)*b; a = (T)*&b; a = (T){1}.x; a = sizeof(T) + sizeof (a) + sizeof a; }",
    );
    has(&out, "(= a (cast (typedef-name:T) b));");
    has(&out, "(= a (* (paren a) b));");
    has(&out, "(= a (cast (typedef-name:T) (* (& b))));");
    has(&out, "(= a (. (compound (typedef-name:T) {1}) x));");
    has(
        &out,
        "(= a (+ (+ (sizeof (typedef-name:T)) (sizeof (paren a))) (sizeof a)));",
    );
}

#[test]
fn declarators() {
    let out = ast(
        "int *a[3]; int (*b)[3]; int (*c)(int, char *); void (*signal(int, void (*)(int)))(int);\n\
         char *const *restrict d; int e[static 4]; int f(int n, double m[n][*]); int g(int x[static const 3]);\n\
         int (*(*h)(void))[2];",
    );
    has(&out, "decl int a [3] *");
    has(&out, "decl int b * [3]");
    has(&out, "decl int c * fn(int, char <abstract> *)");
    has(
        &out,
        "decl void signal fn(int, void <abstract> * fn(int)) * fn(int)",
    );
    has(&out, "decl char d *restrict *const");
    has(&out, "decl int e [static 4]");
    has(&out, "decl int f fn(int n, double m [n] [*])");
    has(&out, "decl int g fn(int x [static const 3])");
    has(&out, "decl int h * fn(void) * [2]");
}

#[test]
fn dangling_else_binds_to_nearest_if() {
    let out = ast(
        "void f(int a, int b) { if (a) if (b) a = 1; else a = 2; while (a) if (b) break; else continue; }",
    );
    assert!(
        out.contains("if a\n    if b\n      (= a 1);\n    else\n      (= a 2);"),
        "{out}"
    );
    assert!(
        out.contains("while a\n    if b\n      break;\n    else\n      continue;"),
        "{out}"
    );
}

#[test]
fn precedence_and_associativity() {
    let out = ast(
        "int x = 1 + 2 * 3 - 4 << 1 < 5 == 1 & 3 ^ 2 | 1 && 1 || 0 ? 1 : 2; int y = 1 - 2 - 3; void f(int a, int b){ a = b += 1; a = -b++ * !b; a = a ?: b; }",
    );
    has(
        &out,
        "decl int x = (?: (|| (&& (| (^ (& (== (< (<< (- (+ 1 (* 2 3)) 4) 1) 5) 1) 3) 2) 1) 1) 0) 1 2)",
    );
    has(&out, "decl int y = (- (- 1 2) 3)");
    has(&out, "(= a (+= b 1));");
    has(&out, "(= a (* (- (post++ b)) (! b)));");
    has(&out, "(= a (?: a _ b));");
}

#[test]
fn initializers_and_compound_literals() {
    let out = ast(
        "struct P { int x, y; }; struct P p = { .y = 2, .x = 1 }; int a[10] = { [2] = 1, [4 ... 6] = 2, 3, }; int m[2][2] = {{1, 2}, [1][0] = 3};\n\
         struct P *q = &(struct P){ 1, 2 }; struct Q { struct P p; int z[2]; } r = { .p.x = 1, .z[1] = 2 }; struct P s = { x: 5 };",
    );
    has(&out, "decl struct P p = {.y = 2, .x = 1}");
    has(&out, "decl int a [10] = {[2] = 1, [4 ... 6] = 2, 3}");
    has(&out, "decl int m [2] [2] = {{1, 2}, [1][0] = 3}");
    has(&out, "decl struct P q * = (& (compound (struct P) {1, 2}))");
    has(
        &out,
        "decl struct Q { struct P p; int z [2] } r = {.p.x = 1, .z[1] = 2}",
    );
    has(&out, "decl struct P s = {.x = 5}");
}

#[test]
fn c11_features() {
    let out = ast(
        "_Static_assert(sizeof(int) == 4, \"int\"); _Alignas(16) int a; _Atomic(int) b; _Atomic int c; _Thread_local int d; _Noreturn void e(void);\n\
         int f(int x) { return _Generic(x, int: 1, default: 0) + _Alignof(double); }\n\
         struct S { union { int i; float f; }; struct { int j; }; int bits : 3, : 0; };",
    );
    has(&out, "static_assert (== (sizeof (int)) 4) \"int\"");
    has(&out, "decl _Alignas(16) int a");
    has(&out, "decl _Atomic(int) b");
    has(&out, "decl _Atomic int c");
    has(&out, "decl _Thread_local int d");
    has(&out, "decl _Noreturn void e fn(void)");
    has(
        &out,
        "return (+ (_Generic x [int: 1] [default: 0]) (alignof (double)));",
    );
    has(
        &out,
        "decl struct S { union { int i; float f }; struct { int j }; int bits:3, :0 }",
    );
}

#[test]
fn gnu_extensions() {
    let out = ast(
        "__extension__ typedef long long ll; int x __asm__(\"y\") __attribute__((used));\n\
         extern int printf(const char *__restrict, ...) __attribute__((__format__(__printf__, 1, 2), __nothrow__));\n\
         struct __attribute__((packed)) S { char c; int i __attribute__((aligned(8))); };\n\
         __int128 big; unsigned __int128 ubig; _Float128 q; __float128 q2; __typeof__(big) t; typeof(int *) tp;\n\
         int f(int n, __builtin_va_list ap) {\n\
           int r = ({ int y = n; y * 2; });\n\
           switch (n) { case 1 ... 3: r += __builtin_va_arg(ap, int); break; default: ; }\n\
           __asm__ __volatile__(\"nop\" : \"=r\"(r) : \"r\"(n) : \"memory\");\n\
           void *p = &&done; goto *p;\n\
           done: return r ?: __builtin_offsetof(struct S, i) + __builtin_types_compatible_p(int, long) + __real__ n;\n\
         }",
    );
    has(&out, "decl typedef long long ll");
    has(&out, "decl int x asm(\"y\") __attribute__((used))");
    has(
        &out,
        "decl struct __attribute__((packed)) S { char c; int i __attribute__((aligned(8))) }",
    );
    has(&out, "decl unsigned __int128 ubig");
    has(&out, "decl _Float128 q");
    has(&out, "decl _Float128 q2");
    has(&out, "decl typeof(big) t");
    has(&out, "decl typeof(int <abstract> *) tp");
    has(&out, "decl int r = ({ decl int y = n; (* y 2); })");
    has(&out, "case 1 ... 3:");
    has(&out, "(+= r (va_arg ap (int)));");
    has(
        &out,
        "asm __volatile__ \"nop\" : \"=r\"(r) : \"r\"(n) : \"memory\"",
    );
    has(&out, "decl void p * = (&& done)");
    has(&out, "goto *p;");
    has(
        &out,
        "return (?: r _ (+ (+ (offsetof (struct S) i) (types_compatible (int) (long))) (__real__ n)));",
    );
}

#[test]
fn literals() {
    let out = ast(
        "int a = 0x1F + 017 + 10ul + 'a' + L'b'; double b = 1.5e3 + 0x1p-2 + .5f + 1e10L; char *s = \"a\" \"b\\n\"; int *w = L\"wide\" L\"er\";",
    );
    has(&out, "decl int a = (+ (+ (+ (+ 31 15) 10ul) '97') '98')");
    has(
        &out,
        "decl double b = (+ (+ (+ 1500.0 0.25) 0.5f) 10000000000.0l)",
    );
    has(&out, "decl char s * = \"ab\\xa\"");
    has(&out, "decl int w * = L\"wideer\"");
}

#[test]
fn line_markers_and_loop_pragmas() {
    let src = "# 1 \"t.c\"\n# 1 \"/usr/include/x.h\" 1 3 4\ntypedef int X;\n# 3 \"t.c\" 2\n#pragma once\n#pragma GCC diagnostic push\nvoid f(X *a) {\n#pragma GCC unroll 4\n  for (int i = 0; i < 4; i++) a[i] = 0;\n#pragma nounroll\n  while (0) ;\n}\n";
    let out = ast(src);
    has(&out, "pragma GCC unroll 4");
    has(&out, "pragma nounroll");
    has(&out, "function void f fn(typedef-name:X a *)");
    let toks = dump_tokens(src, "t.c");
    assert!(
        toks.lines().any(|l| l == "t.c:5:8 TypeName(X) \"X\""),
        "{toks}"
    );
    assert!(
        toks.lines().any(|l| l.starts_with("t.c:6:1 Pragma")),
        "{toks}"
    );
}

#[test]
fn openmp_target_constructs() {
    let out = ast(
        "void f(int n, double *a, double *b, struct { double *p; } s) {\n\
         #pragma omp target teams distribute parallel for map(to: a[0:n]) map(always, tofrom: b[:n]) map(s.p[0:n]) num_teams(4) thread_limit(128) collapse(1) schedule(static, 4) dist_schedule(static) firstprivate(n) defaultmap(tofrom: scalar) if(target: n > 10) device(0) nowait\n\
         for (int i = 0; i < n; i++) b[i] += a[i];\n\
         #pragma omp target data map(alloc: a[1:n-1][0:2]) use_device_ptr(a) use_device_addr(b[0:1])\n\
         { }\n\
         #pragma omp target enter data map(to: a[0:n]) depend(in: a[0]) nowait\n\
         #pragma omp target update from(b[0:n]) to(present: a[0:n])\n\
         #pragma omp target exit data map(release: a[0:n]) map(delete: b[0:n])\n\
         #pragma omp target is_device_ptr(a) has_device_addr(b[0:2]) private(n)\n\
         a[0] = 1;\n\
         }",
    );
    has(
        &out,
        "omp target teams distribute parallel for map(to: (section a 0 n)) map(always, tofrom: (section b _ n)) map((section (. s p) 0 n)) num_teams(4) thread_limit(128) collapse(1) schedule(static, 4) dist_schedule(static) firstprivate(n) defaultmap(tofrom: scalar) if(target: (> n 10)) device(0) nowait",
    );
    has(&out, "for (decl int i = 0; (< i n); (post++ i))");
    has(
        &out,
        "omp target data map(alloc: (section (section a 1 (- n 1)) 0 2)) use_device_ptr(a) use_device_addr((section b 0 1))",
    );
    has(
        &out,
        "omp target enter data map(to: (section a 0 n)) depend(in: (index a 0)) nowait",
    );
    has(
        &out,
        "omp target update from((section b 0 n)) to(present: (section a 0 n))",
    );
    has(
        &out,
        "omp target exit data map(release: (section a 0 n)) map(delete: (section b 0 n))",
    );
    has(
        &out,
        "omp target is_device_ptr(a) has_device_addr((section b 0 2)) private(n)",
    );
    // Standalone directives own no statement; the others own the next one.
    assert!(out.contains("omp target exit data map(release: (section a 0 n)) map(delete: (section b 0 n))\n  omp target"), "{out}");
    assert!(out.contains("private(n)\n    (= (index a 0) 1);"), "{out}");
}

#[test]
fn openmp_host_constructs_and_clauses() {
    let out = ast("int g; double v[8];\n\
         #pragma omp declare target\n\
         int h(int x) { return x; }\n\
         #pragma omp end declare target\n\
         #pragma omp declare target(g) \n\
         #pragma omp declare target to(v) device_type(nohost)\n\
         #pragma omp threadprivate(g)\n\
         void f(int n, int *a) { int s = 0, m = 0, i;\n\
         #pragma omp parallel num_threads(4) default(none) shared(a) private(i) proc_bind(close) reduction(+: s) reduction(max: m) reduction(&&: i)\n\
         {\n\
         #pragma omp for schedule(monotonic: dynamic) lastprivate(conditional: i) ordered nowait\n\
         for (i = 0; i < n; i++) s += a[i];\n\
         #pragma omp barrier\n\
         #pragma omp single copyprivate(m)\n\
         m = 1;\n\
         #pragma omp critical(lock) hint(0)\n\
         s++;\n\
         #pragma omp atomic update seq_cst\n\
         s += 1;\n\
         #pragma omp atomic capture\n\
         m = s++;\n\
         #pragma omp flush(s, m)\n\
         #pragma omp master\n\
         m = 2;\n\
         #pragma omp masked filter(0)\n\
         m = 3;\n\
         }\n\
         #pragma omp simd simdlen(8) safelen(16) aligned(a: 64) linear(i: 1)\n\
         for (i = 0; i < n; i++) a[i] = i;\n\
         #pragma omp loop order(concurrent) bind(thread)\n\
         for (i = 0; i < n; i++) a[i] = i;\n\
         #pragma omp taskwait\n\
         #pragma omp declare reduction(merge : int : omp_out += omp_in)\n\
         }");
    has(&out, "omp declare target");
    has(&out, "omp end declare target");
    has(&out, "omp declare target(g)");
    has(&out, "omp declare target to(v) device_type(nohost)");
    has(&out, "omp threadprivate(g)");
    has(
        &out,
        "omp parallel num_threads(4) default(none) shared(a) private(i) proc_bind(close) reduction(+: s) reduction(max: m) reduction(&&: i)",
    );
    has(
        &out,
        "omp for schedule(monotonic: dynamic) lastprivate(conditional: i) ordered nowait",
    );
    has(&out, "omp barrier");
    has(&out, "omp single copyprivate(m)");
    has(&out, "omp critical(lock) hint(0)");
    has(&out, "omp atomic update seq_cst");
    has(&out, "omp atomic capture");
    has(&out, "omp flush(s, m)");
    has(&out, "omp master");
    has(&out, "omp masked filter(0)");
    has(
        &out,
        "omp simd simdlen(8) safelen(16) aligned(a: 64) linear(i: 1)",
    );
    has(&out, "omp loop order(concurrent) bind(thread)");
    has(&out, "omp taskwait");
    has(&out, "omp <unsupported>");
}

#[test]
fn omp_pragma_from_pragma_operator() {
    // What `gcc -E` makes of `_Pragma("omp parallel for")` inside a macro.
    let out =
        ast("void f(int *a) {\n#pragma omp parallel for\n for (int i = 0; i < 4; i++) a[i] = i; }");
    has(&out, "omp parallel for");
}

/// A reduction identifier that is a name (a `declare reduction`) is kept as a user-defined
/// reduction, not an error: the host compiler implements it, and device code refuses it later.
#[test]
fn user_defined_reduction_identifiers_are_kept() {
    let out = ast(
        "void f(int n) {\n int m = 0;\n#pragma omp parallel for reduction(task, keepmax: m)\n for (int i = 0; i < n; i++) m = i;\n}",
    );
    has(&out, "omp parallel for reduction(task, keepmax: m)");
}

/// A K&R-style definition is read as the prototype it declares, in the list's order, with
/// an undeclared name as `int` and the specifiers shared by a declaration's declarators.
#[test]
fn kr_definitions_read_as_prototypes() {
    let out = ast("long f(c, a, b, p) char *a, b; double c; { return b; }");
    has(
        &out,
        "function long f fn(double c, char a *, char b, int p)",
    );
}

#[test]
fn openmp_errors() {
    let e = errors(
        "void f(int *a, int n) {\n#pragma omp paralel for\nfor(;;);\n#pragma omp parallel for nowait\nfor(;;);\n#pragma omp target map(a[0:n]) map(bogus: a)\n;\n#pragma omp for collapse(2) collapse(3)\nfor(;;);\n#pragma omp parallel private(a[0:n]) frobnicate\n;\n#pragma omp target map(to: a[b[0:1]])\n;\n}",
    );
    assert_eq!(
        e,
        [
            "t.c:2:13: unknown OpenMP directive 'paralel' [E0120]",
            "t.c:4:26: 'nowait' clause is not allowed on '#pragma omp parallel for' [E0122]",
            "t.c:6:36: unknown map type or modifier 'bogus' [E0124]",
            "t.c:8:29: 'collapse' clause appears more than once on '#pragma omp for' [E0123]",
            "t.c:10:30: array sections are not allowed in 'private' clause [E0125]",
            "t.c:10:38: unknown OpenMP clause 'frobnicate' [E0121]",
            "t.c:12:30: array section is not allowed here [E0125]",
        ]
    );
}

/// `grainsize` and `num_tasks` take the OpenMP 5.1 `strict:` modifier (kept: it changes how a
/// taskloop splits), `device` its `device_num:`/`ancestor:`; another word before the `:` is a
/// located error rather than a modifier silently dropped.
#[test]
fn expression_clause_modifiers() {
    let out = ast("void f(int *a, int n) {\n\
         #pragma omp taskloop grainsize(strict: n + 1) nogroup\n\
         for (int i = 0; i < n; i++) a[i] = i;\n\
         #pragma omp taskloop num_tasks(strict: 3)\n\
         for (int i = 0; i < n; i++) a[i] = i;\n\
         #pragma omp taskloop grainsize(4)\n\
         for (int i = 0; i < n; i++) a[i] = i;\n\
         #pragma omp target device(device_num: 0)\n\
         ;\n\
         }");
    has(&out, "omp taskloop grainsize(strict: (+ n 1)) nogroup");
    has(&out, "omp taskloop num_tasks(strict: 3)");
    has(&out, "omp taskloop grainsize(4)");
    has(&out, "omp target device(device_num: 0)");
    let e = errors(
        "void f(int *a, int n) {\n#pragma omp taskloop grainsize(loose: 4)\nfor (int i = 0; i < n; i++) a[i] = i;\n#pragma omp taskloop num_tasks(strict strict: 4)\nfor (int i = 0; i < n; i++) a[i] = i;\n#pragma omp target device(strict: 1)\n;\n}",
    );
    assert_eq!(
        e,
        [
            "t.c:2:32: malformed 'grainsize' clause: the modifier before ':' must be 'strict:' [E0124]",
            "t.c:4:32: malformed 'num_tasks' clause: the modifier before ':' must be 'strict:' [E0124]",
            "t.c:6:27: malformed 'device' clause: the modifier before ':' must be 'device_num:' or 'ancestor:' [E0124]",
        ]
    );
}

/// Strided sections outside `target update to/from` (E0128: in a map, the rule it breaks),
/// a second `iterator` modifier and `omp_all_memory` with a dependence type other than
/// out/inout: located errors. The forms ompcc takes parse cleanly: `iterator` modifiers in
/// `depend`, `map`, `to`, `from` and `affinity`, and `iterator(...)` calls of a function so
/// named.
#[test]
fn strided_sections_iterators_and_all_memory() {
    let e = errors(
        "void f(int *a, int n) {\n#pragma omp target map(to: a[0:n:2])\n;\n#pragma omp target update to(iterator(i = 0:n), iterator(j = 0:n): a[i])\n#pragma omp target enter data map(iterator(i = 0:n), to: a[i:2:2])\n#pragma omp task depend(in: omp_all_memory)\n;\n#pragma omp task depend(inout: a[0:n:2])\n;\n}",
    );
    assert_eq!(
        e,
        [
            "t.c:2:28: strided array section in 'map' clause of '#pragma omp target' is not allowed: a map list item that is an array section must specify contiguous storage (OpenMP map clause restrictions) [E0128]",
            "t.c:4:49: 'to' clause takes at most one 'iterator' modifier [E0124]",
            "t.c:5:58: strided array section in 'map' clause of '#pragma omp target enter data' is not allowed: a map list item that is an array section must specify contiguous storage (OpenMP map clause restrictions) [E0128]",
            "t.c:6:29: 'omp_all_memory' is only allowed in 'depend(out: ...)' and 'depend(inout: ...)', not 'in' [E0124]",
            "t.c:8:32: strided array section in 'depend' clause of '#pragma omp task' is not supported [E0128]",
        ]
    );
    let ok = errors(
        "int iterator(int);\nvoid f(int *a, int n, int (*m)[8], int **p) {\n#pragma omp target update to(a[0:n:2]) from(m[1:2:2][0:4:3], a[1:n:1])\n#pragma omp target map(tofrom: a[0:n:1])\n;\n#pragma omp task depend(iterator(int i = 0:n:2, unsigned long j = 1:3), inout: a[i], a[j])\n;\n#pragma omp task depend(inout: omp_all_memory) depend(out: a[0])\n;\n#pragma omp taskwait depend(iterator(i = 0:n), in: a[i])\n#pragma omp target update to(iterator(i = 0:n): p[i][0:n]) from(iterator(i = 0:2, j = 0:4): m[i][j:1:2])\n#pragma omp target enter data map(iterator(i = 0:n), always, to: p[i][0:n])\n#pragma omp task affinity(iterator(i = 0:n): a[i]) priority(iterator(n)) if(iterator (0))\n;\n}",
    );
    assert!(ok.is_empty(), "{ok:?}");
}

#[test]
fn syntax_errors_recover() {
    let e = errors(
        "int f(void) {\n  int x = 1\n  return x;\n}\nint g(void) { return 1 + ; }\nint h(void) { if x) return 0; }\nint ok;\n",
    );
    assert_eq!(
        e,
        [
            "t.c:3:3: expected ';', found 'return' [E0101]",
            "t.c:5:26: expected expression, found ';' [E0101]",
            "t.c:6:18: expected '(', found identifier [E0101]",
        ]
    );
}

#[test]
fn lexical_errors() {
    let e = errors("int a = 08; char *s = \"abc;\nint b = 1 @ 2; double d = 1.0zz;\n");
    assert_eq!(
        e,
        [
            "t.c:1:9: invalid digit '8' in octal constant [E0102]",
            "t.c:1:23: missing terminating \" character [E0103]",
            // The unterminated string swallowed the `;`.
            "t.c:2:1: expected ';', found 'int' [E0101]",
            "t.c:2:11: stray '@' in program [E0100]",
            "t.c:2:27: invalid suffix 'zz' on floating constant [E0102]",
        ]
    );
}
