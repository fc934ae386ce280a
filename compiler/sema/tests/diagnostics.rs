//! Expected diagnostics for bad programs: each case gives a program, the one error (or
//! warning) it must produce, the message text it must contain and the exact source text
//! under the primary span. Programs that must check cleanly are listed too.

mod common;

use ompcc_diag::Severity;

struct Case {
    name: &'static str,
    src: &'static str,
    severity: Severity,
    code: &'static str,
    message: &'static str,
    span: &'static str,
}

const fn err(
    name: &'static str,
    src: &'static str,
    code: &'static str,
    message: &'static str,
    span: &'static str,
) -> Case {
    Case {
        name,
        src,
        severity: Severity::Error,
        code,
        message,
        span,
    }
}

const fn warn(
    name: &'static str,
    src: &'static str,
    code: &'static str,
    message: &'static str,
    span: &'static str,
) -> Case {
    Case {
        name,
        src,
        severity: Severity::Warning,
        code,
        message,
        span,
    }
}

const CASES: &[Case] = &[
    err(
        "undeclared",
        "int f(void) { return yy + 1; }",
        "E0410",
        "'yy' undeclared",
        "yy",
    ),
    err(
        "struct_plus_int",
        "struct S { int a; } s; int f(void) { return s + 1; }",
        "E0427",
        "invalid operands to binary + (have 'struct S' and 'int')",
        "s + 1",
    ),
    err(
        "assign_to_const",
        "int f(void) { const int c = 1; c = 2; return c; }",
        "E0422",
        "assignment of read-only variable 'c'",
        "c",
    ),
    err(
        "assign_to_rvalue",
        "int f(int a) { (a + 1) = 3; return a; }",
        "E0421",
        "lvalue required as assignment",
        "(a + 1)",
    ),
    err(
        "too_few_args",
        "int g(int, int); int f(void) { return g(1); }",
        "E0431",
        "too few arguments to function 'g' (expected 2, have 1)",
        "g(1)",
    ),
    err(
        "too_many_args",
        "int g(int); int f(void) { return g(1, 2); }",
        "E0431",
        "too many arguments to function 'g'",
        "g(1, 2)",
    ),
    err(
        "no_member",
        "struct P { int x; }; int f(struct P p) { return p.y; }",
        "E0414",
        "'struct P' has no member named 'y'",
        "y",
    ),
    err(
        "member_of_non_struct",
        "int f(int i) { return i.x; }",
        "E0419",
        "request for member 'x' in something not a structure or union",
        "x",
    ),
    err(
        "deref_non_pointer",
        "int f(int i) { return *i; }",
        "E0424",
        "invalid type argument of unary '*' (have 'int')",
        "*i",
    ),
    err(
        "incompatible_struct_assign",
        "struct A { int x; } a; struct B { int x; } b; void f(void) { a = b; }",
        "E0428",
        "incompatible types when assignment to type 'struct A' from type 'struct B'",
        "b",
    ),
    err(
        "call_non_function",
        "int f(int x) { return x(3); }",
        "E0430",
        "called object is not a function or function pointer",
        "x",
    ),
    err(
        "duplicate_case",
        "int f(int x) { switch (x) { case 1: return 1; case 1: return 2; } return 0; }",
        "E0504",
        "duplicate case value",
        "1",
    ),
    err(
        "break_outside",
        "void f(void) { break; }",
        "E0507",
        "break statement not within loop or switch",
        "break;",
    ),
    err(
        "continue_in_switch",
        "void f(int x) { switch (x) { case 0: continue; } }",
        "E0507",
        "continue statement not within a loop",
        "continue;",
    ),
    err(
        "goto_undefined",
        "void f(void) { goto out; }",
        "E0508",
        "label 'out' used but not defined",
        "out",
    ),
    err(
        "case_outside_switch",
        "void f(void) { case 3: ; }",
        "E0503",
        "case label not within a switch statement",
        "case 3: ;",
    ),
    err(
        "conflicting_types",
        "int h(int); double h(int);",
        "E0314",
        "conflicting types for 'h'",
        "h",
    ),
    err(
        "redefinition",
        "int v = 1; int v = 2;",
        "E0317",
        "redefinition of 'v'",
        "v",
    ),
    err(
        "negative_array",
        "int arr[-3];",
        "E0308",
        "size of array is negative",
        "-3",
    ),
    err(
        "static_assert",
        "_Static_assert(sizeof(int) == 8, \"int is 8 bytes\");",
        "E0319",
        "static assertion failed: \"int is 8 bytes\"",
        "_Static_assert(sizeof(int) == 8, \"int is 8 bytes\")",
    ),
    err(
        "non_constant_static_init",
        "int f(void); int g = f();",
        "E0347",
        "initializer element is not constant",
        "f()",
    ),
    err(
        "bitfield_too_wide",
        "struct B { char c : 9; };",
        "E0324",
        "width of bit-field (9) exceeds its type (8 bits)",
        "c : 9",
    ),
    err(
        "incomplete_sizeof",
        "struct Q; unsigned long n = sizeof(struct Q);",
        "E0412",
        "invalid application of 'sizeof' to incomplete type 'struct Q'",
        "sizeof(struct Q)",
    ),
    err(
        "address_of_rvalue",
        "int *f(int a) { return &(a + 1); }",
        "E0423",
        "lvalue required as unary '&' operand",
        "&(a + 1)",
    ),
    err(
        "div_by_zero_constant",
        "int a[1 / 0];",
        "E0402",
        "division by zero in constant expression",
        "1 / 0",
    ),
    err(
        "distribute_outside_teams",
        "void f(int *a) {\n#pragma omp target\n{\n#pragma omp distribute\nfor (int i = 0; i < 8; i++) a[i] = i;\n}\n}",
        "E0610",
        "'distribute' region must be strictly nested inside a 'teams' region",
        "#pragma omp distribute",
    ),
    err(
        "teams_inside_parallel",
        "void f(void) {\n#pragma omp parallel\n{\n#pragma omp teams\n{ }\n}\n}",
        "E0611",
        "'teams' construct must be closely nested in a 'target' construct",
        "#pragma omp teams",
    ),
    err(
        "target_teams_not_alone",
        "void f(int *a) {\n#pragma omp target\n{\na[0] = 1;\n#pragma omp teams\n{ }\n}\n}",
        "E0616",
        "must not contain other statements",
        "#pragma omp teams\n{ }",
    ),
    err(
        "collapse_too_deep",
        "void f(int *a) {\n#pragma omp parallel for collapse(2)\nfor (int i = 0; i < 8; i++) a[i] = i;\n}",
        "E0620",
        "not enough perfectly nested loops for 'collapse(2)': only 1 found",
        "a[i] = i;",
    ),
    err(
        "noncanonical_test",
        "void f(int *a) {\n#pragma omp parallel for\nfor (int i = 0; a[i]; i++) a[i] = i;\n}",
        "E0623",
        "invalid controlling predicate in OpenMP loop",
        "a[i]",
    ),
    err(
        "noncanonical_increment",
        "void f(int *a) {\n#pragma omp parallel for\nfor (int i = 0; i < 8; i *= 2) a[i] = i;\n}",
        "E0624",
        "invalid increment expression in OpenMP loop",
        "i *= 2",
    ),
    err(
        "noncanonical_init",
        "void f(int *a) {\n#pragma omp for\nfor (;;) a[0] = 1;\n}",
        "E0621",
        "invalid initialization in OpenMP 'for' loop",
        "for (;;) a[0] = 1;",
    ),
    err(
        "float_loop_var",
        "void f(float *a) {\n#pragma omp simd\nfor (float x = 0; x < 1; x += 0.5f) a[0] = x;\n}",
        "E0622",
        "OpenMP loop iteration variable must have integer or pointer type",
        "for (float x = 0; x < 1; x += 0.5f) a[0] = x;",
    ),
    err(
        "reduction_on_pointer",
        "void f(int *p) {\n#pragma omp parallel for reduction(+: p)\nfor (int i = 0; i < 4; i++) ;\n}",
        "E0606",
        "invalid type 'int *' for reduction list item",
        "p",
    ),
    err(
        "default_none_unlisted",
        "void f(int *a, int n) {\nint s = 0;\n#pragma omp parallel for default(none) shared(a)\nfor (int i = 0; i < n; i++) a[i] = s;\n}",
        "E0630",
        "'n' not specified in enclosing 'parallel for' construct with 'default(none)'",
        "n",
    ),
    err(
        "dsa_twice",
        "void f(int x) {\n#pragma omp parallel private(x) shared(x)\n{ }\n}",
        "E0631",
        "'x' appears in both 'private' and 'shared' clauses",
        "x",
    ),
    err(
        "update_without_motion",
        "void f(void) {\n#pragma omp target update\n}",
        "E0650",
        "'#pragma omp target update' must have a 'to' or 'from' clause",
        "",
    ),
    err(
        "enter_data_without_map",
        "void f(void) {\n#pragma omp target enter data\n}",
        "E0650",
        "'#pragma omp target enter data' must have a 'map' clause",
        "",
    ),
    err(
        "target_data_without_map",
        "void f(void) {\n#pragma omp target data\n{ }\n}",
        "E0650",
        "must have a 'map', 'use_device_ptr' or 'use_device_addr' clause",
        "",
    ),
    err(
        "enter_data_map_from",
        "void f(int *a) {\n#pragma omp target enter data map(from: a[0:4])\n}",
        "E0651",
        "map type 'from' is not allowed on '#pragma omp target enter data'",
        "",
    ),
    err(
        "exit_data_map_to",
        "void f(int *a) {\n#pragma omp target exit data map(to: a[0:4])\n}",
        "E0651",
        "map type 'to' is not allowed on '#pragma omp target exit data'",
        "",
    ),
    err(
        "negative_section_length",
        "void f(int *a) {\n#pragma omp target update from(a[0:-1])\n}",
        "E0652",
        "array section in 'from' clause has a negative length",
        "-1",
    ),
    err(
        "section_stride_below_one",
        "void f(int *a) {\n#pragma omp target update from(a[0:4:0])\n}",
        "E0652",
        "array section in 'from' clause has a stride below 1",
        "0",
    ),
    err(
        "iterator_bound_not_integer",
        "void f(int *a, double d) {\n#pragma omp task depend(iterator(i = 0:d), in: a[i])\n;\n}",
        "E0603",
        "expression in 'depend' clause must have integer type",
        "d",
    ),
    err(
        "iterator_out_of_scope",
        "void f(int *a) {\n#pragma omp task depend(iterator(i = 0:4), in: a[i])\n;\na[i] = 0;\n}",
        "E0410",
        "'i' undeclared",
        "i",
    ),
    err(
        "negative_section_length_map",
        "void f(int *a) {\n#pragma omp target map(tofrom: a[2:-3])\n{ }\n}",
        "E0652",
        "array section in 'map' clause has a negative length",
        "-3",
    ),
    err(
        "static_vla",
        "void f(int n) { static int a[n]; (void)a; }",
        "E0308",
        "storage size of 'a' isn't constant",
        "a",
    ),
    // the member and section checks of map list items reach the items of an iterator
    err(
        "iterator_map_missing_member",
        "struct S { int n; double **rows; };\nvoid f(struct S s) {\n#pragma omp target map(iterator(it = 0:s.n), to: s.cols[it][0:4])\n{ }\n}",
        "E0414",
        "'struct S' has no member named 'cols'",
        "cols",
    ),
    err(
        "iterator_map_section_of_int_member",
        "struct S { int n; int k; };\nvoid f(struct S s) {\n#pragma omp target map(iterator(it = 0:s.n), to: s.k[0:it])\n{ }\n}",
        "E0405",
        "array section of non-array type 'int'",
        "s.k",
    ),
    err(
        "iterator_map_negative_length",
        "struct S { int n; double **rows; };\nvoid f(struct S s) {\n#pragma omp target update to(iterator(it = 0:s.n): s.rows[it][0:-2])\n}",
        "E0652",
        "array section in 'to' clause has a negative length",
        "-2",
    ),
    err(
        "masked_in_task",
        "void f(int *a) {\n#pragma omp task\n{\n#pragma omp masked taskloop\nfor (int i = 0; i < 4; i++) a[i] = i;\n}\n}",
        "E0614",
        "'masked' region may not be closely nested inside a 'task' region",
        "#pragma omp masked taskloop",
    ),
    err(
        "barrier_in_for",
        "void f(int *a) {\n#pragma omp parallel for\nfor (int i = 0; i < 8; i++) {\n#pragma omp barrier\na[i] = i;\n}\n}",
        "E0614",
        "'barrier' region may not be closely nested inside a 'parallel for' region",
        "#pragma omp barrier",
    ),
    err(
        "single_in_teams",
        "void f(int *a) {\n#pragma omp target teams\n{\n#pragma omp single\na[0] = 1;\n}\n}",
        "E0612",
        "'single' region may not be closely nested inside a 'teams' region",
        "#pragma omp single",
    ),
    err(
        "parallel_in_simd",
        "void f(int *a) {\n#pragma omp simd\nfor (int i = 0; i < 8; i++) {\n#pragma omp parallel\na[i] = i;\n}\n}",
        "E0613",
        "'parallel' region may not be closely nested inside a 'simd' region",
        "#pragma omp parallel",
    ),
    err(
        "atomic_bad_update",
        "void f(int *a, int x) {\n#pragma omp atomic\nx = a[0] * a[1];\n}",
        "E0640",
        "invalid form of the statement of '#pragma omp atomic update'",
        "x = a[0] * a[1];",
    ),
    err(
        "atomic_write_reads_x",
        "void f(int *a, int i) {\n#pragma omp atomic write\na[i] = a[i] + 1;\n}",
        "E0640",
        "invalid form of the statement of '#pragma omp atomic write'",
        "a[i] = a[i] + 1;",
    ),
    err(
        "atomic_update_reads_x_twice",
        "void f(int *a, int i) {\n#pragma omp atomic update\na[i] = a[i] * (a[i] + 1);\n}",
        "E0640",
        "invalid form of the statement of '#pragma omp atomic update'",
        "a[i] = a[i] * (a[i] + 1);",
    ),
    err(
        "atomic_read_from_rvalue",
        "void f(int v, int x) {\n#pragma omp atomic read\nv = x + 1;\n}",
        "E0640",
        "invalid form of the statement of '#pragma omp atomic read'",
        "v = x + 1;",
    ),
    err(
        "loop_var_modified",
        "void f(int *a) {\n#pragma omp parallel for\nfor (int i = 0; i < 8; i++) { a[i] = i; i += 1; }\n}",
        "E0625",
        "iteration variable 'i' of an OpenMP loop is modified in the loop body",
        "i += 1",
    ),
    err(
        "vla_at_file_scope",
        "int n = 3; int a[n];",
        "E0308",
        "variably modified type at file scope",
        "n",
    ),
    err(
        "bad_shift_in_case",
        "int f(int x) { switch (x) { case 1 << 40: return 1; } return 0; }",
        "E0402",
        "shift count is negative or too large for the type in constant expression",
        "1 << 40",
    ),
    warn(
        "constant_overflow",
        "int x = 2147483647 + 1;",
        "W0409",
        "integer overflow in expression of type 'int' results in '-2147483648'",
        "2147483647 + 1",
    ),
    warn(
        "narrowing_constant",
        "short g = 70000;",
        "W0410",
        "overflow in conversion from 'int' to 'short' changes value from '70000' to '4464'",
        "70000",
    ),
    err(
        "private_array_element",
        "void f(int *a) {\n#pragma omp parallel private(a[0])\n{ }\n}",
        "E0607",
        "list items of 'private' must be variables",
        "a[0]",
    ),
    err(
        "private_const",
        "void f(void) {\nconst int k = 3;\n#pragma omp parallel private(k)\n{ }\n}",
        "E0608",
        "const-qualified variable cannot appear in 'private'",
        "k",
    ),
    warn(
        "num_threads_zero",
        "void f(void) {\n#pragma omp parallel num_threads(0)\n{ }\n}",
        "W0602",
        "'num_threads' value must be positive",
        "0",
    ),
    err(
        "section_of_void_pointer",
        "void f(void *p, int n) {\n#pragma omp target map(to: p[0:n])\n{ }\n}",
        "E0405",
        "array section of incomplete element type 'void'",
        "p[0:n]",
    ),
    warn(
        "int_to_pointer",
        "void f(void) { int *p = 5; (void)p; }",
        "W0405",
        "initialization makes pointer from integer without a cast",
        "5",
    ),
    warn(
        "incompatible_pointers",
        "void f(void) { int i; double *p = &i; (void)p; }",
        "W0403",
        "incompatible pointer types in initialization to 'double *' from 'int *'",
        "&i",
    ),
    warn(
        "implicit_declaration",
        "int f(void) { return undeclared_fn(1); }",
        "W0408",
        "implicit declaration of function 'undeclared_fn'",
        "undeclared_fn",
    ),
    warn(
        "discard_const",
        "void f(const char *s) { char *t = s; (void)t; }",
        "W0404",
        "discards qualifiers",
        "s",
    ),
];

#[test]
fn expected_diagnostics() {
    let mut failures = Vec::new();
    for c in CASES {
        let r = common::check_src(c.src);
        if !r.parse_diags.is_empty() {
            failures.push(format!("{}: parse errors {:?}", c.name, r.parse_diags));
            continue;
        }
        let found = r
            .diags
            .iter()
            .find(|d| d.severity == c.severity && d.code == c.code);
        match found {
            None => failures.push(format!(
                "{}: no {} {} among {:?}",
                c.name,
                c.severity.as_str(),
                c.code,
                r.diags
                    .iter()
                    .map(|d| format!("{} {}", d.code, d.message))
                    .collect::<Vec<_>>()
            )),
            Some(d) => {
                if !d.message.contains(c.message) {
                    failures.push(format!(
                        "{}: message {:?} lacks {:?}",
                        c.name, d.message, c.message
                    ));
                }
                let text = common::span_text(c.src, d);
                if !c.span.is_empty() && text != c.span {
                    failures.push(format!(
                        "{}: span {:?}, expected {:?}",
                        c.name, text, c.span
                    ));
                }
            }
        }
        // a case with an expected warning must not produce errors
        if c.severity == Severity::Warning && !common::errors(&r.diags).is_empty() {
            failures.push(format!(
                "{}: unexpected errors {:?}",
                c.name,
                common::errors(&r.diags)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_programs_check_cleanly() {
    let programs = [
        "int a[] = {1, 2, 3}; _Static_assert(sizeof a == 12, \"size\");",
        "struct P { int x, y; }; struct P ps[2] = { [1].y = 4, [0] = { 1, 2 } };",
        "union U { int i; float f; } u = { .f = 1.5f };",
        "char s[] = \"hello\"; _Static_assert(sizeof s == 6, \"completed\");",
        "unsigned c = -1; int d = 0xffffffff; signed char f = 200; unsigned short h = -1; char e = -128; unsigned long long big = -1;",
        "char b[] = { \"abc\" }; _Static_assert(sizeof b == 4, \"braced string\"); struct { char n[8]; int k; } rec = { \"name\", 3 }, recs[2] = { { \"a\" }, { { 'b', 'c' }, 4 } };",
        "int f(int n, double (*a)[n]) { return (int)a[0][n - 1]; }",
        "void f(int n) { double m[n][n]; m[0][0] = sizeof m; }",
        "enum E { A = -1, B }; _Static_assert(B == 0, \"enum\");",
        "static int x; extern int x; int *p = &x;",
        "int t; int t; int t = 3;",
        "typedef struct { int a; } T; T v = { 1 }; T *pv = &v;",
        "int f(void) { int x = ({ int y = 2; y * 3; }); return x; }",
        "void f(int *a, int n) {\n#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) collapse(1)\nfor (int i = 0; i < n; i += 2) a[i] += 1;\n}",
        "void f(int *a, int n) {\n#pragma omp target map(a[0:n])\n#pragma omp teams\n#pragma omp distribute parallel for\nfor (int i = n - 1; i >= 0; --i) a[i] = i;\n}",
        "void f(double (*a)[8]) {\nint i, j;\n#pragma omp parallel for collapse(2)\nfor (i = 0; i < 8; i++)\nfor (j = i; j != 8; j = j + 1) a[i][j] = 0;\n}",
        "int g(int x) { switch (x) { case 1 ... 3: return 1; default: break; } return 0; }",
        "void f(int *a) {\n#pragma omp parallel sections\n{\n#pragma omp section\na[0] = 1;\n#pragma omp section\na[1] = 2;\n}\n#pragma omp parallel\n{\n#pragma omp sections\n{\n#pragma omp section\na[2] = 3;\n}\n#pragma omp for\nfor (int i = 0; i < 4; i++) {\n#pragma omp critical\na[i] += 1;\n}\n}\n}",
        "void f(int *a) {\n#pragma omp parallel for\nfor (int i = 0; i < 8; i++) { for (int i = 0; i < 2; i++) a[i] = i; }\n}",
        "void f(int *a, int x, int v) {\n#pragma omp atomic\nx += a[0];\n#pragma omp atomic update\na[1] = a[1] * 2;\n#pragma omp atomic read\nv = x;\n#pragma omp atomic write\nx = v + 1;\n#pragma omp atomic capture\nv = x++;\n#pragma omp atomic capture\n{ v = x; x -= 3; }\n#pragma omp atomic\n--x;\n}",
        // OpenMP 5.2 15.8.4: the expression must not access x's storage; other elements of
        // the same array may appear (BFS's `cost[u] = cost[v] + 1`)
        "void f(int *cost, int u, int v, int *p) {\n#pragma omp atomic write\ncost[u] = cost[v] + 1;\n#pragma omp atomic update\ncost[u] = cost[u] + cost[v];\n#pragma omp atomic\ncost[u] += cost[u + 1];\n#pragma omp atomic capture\n{ v = cost[u]; cost[u] = cost[v] * 2; }\n#pragma omp atomic write\n*p = p[1];\n}",
        "void f(int *a, int n) {\nint i, s = 0;\n#pragma omp parallel for default(none) shared(a) reduction(+: s) firstprivate(n) lastprivate(n)\nfor (i = 0; i < n; i++) { int t = a[i]; s += t + (int)sizeof(a); }\n}",
        "void *p = (void *)0; int z = (int)3.9 + sizeof(struct { char c; });",
        "struct S { int a, b; }; unsigned long off = (unsigned long)&((struct S *)0)->b; static int arr[4]; int *q = &arr[1] + 2; char *str = \"abc\" + 1; int (*fp)(void) = 0;",
        "int f(int i) { static void *tab[] = { &&a, &&b }; goto *tab[i]; a: return 1; b: return 2; }",
        // iterators are `int` variables of the clause's list only; `omp_all_memory` is no
        // variable; strided sections in `target update`
        "void f(int *a, int n, int (*m)[8]) {\n#pragma omp task depend(iterator(i = 0:n:2, unsigned j = 0:2), inout: a[i + j])\n;\n#pragma omp task depend(inout: omp_all_memory, a[0])\n;\n#pragma omp target update to(a[0:n:2], m[0:2:2][1:3:3])\n}",
        "typedef void (*cb)(int); cb handlers[2] = { ((void *)0), 0 }; void set(cb c); void g(void) { set(((void *)0)); }",
        "typedef enum { omp_default_mem_alloc = 1 } omp_allocator_handle_t;
void f(int *a) {
int t[4];
#pragma omp target uses_allocators(omp_default_mem_alloc) allocate(omp_default_mem_alloc: t) firstprivate(t) map(tofrom: a[0:4])
for (int i = 0; i < 4; i++) { t[i] = i; a[i] += t[i]; }
}",
    ];
    let mut failures = Vec::new();
    for p in programs {
        let r = common::check_src(p);
        let errs: Vec<_> = r
            .parse_diags
            .iter()
            .chain(&r.diags)
            .map(|d| format!("{} {} `{}`", d.code, d.message, common::span_text(p, d)))
            .collect();
        if !errs.is_empty() {
            failures.push(format!("{p}\n  {}", errs.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn declare_target_marks_entities() {
    let src = "int a, b, c;\nint host_only(void);\n#pragma omp declare target\nint dev_var;\nstatic int dev_fn(int x) { return x + a; }\n#pragma omp end declare target\n#pragma omp begin declare target\nvoid dev2(void);\n#pragma omp end declare target\n#pragma omp declare target(b)\n#pragma omp declare target enter(c)\n";
    let r = common::check_src(src);
    assert!(
        r.parse_diags.is_empty() && r.diags.is_empty(),
        "{:?} {:?}",
        r.parse_diags,
        r.diags
    );
    let mut marked: Vec<&str> = r
        .unit
        .declare_target
        .iter()
        .map(|s| r.unit.symbols[*s].name.as_str())
        .filter(|n| !n.is_empty())
        .collect();
    marked.sort();
    assert_eq!(marked, ["b", "c", "dev2", "dev_fn", "dev_var"]);
}
