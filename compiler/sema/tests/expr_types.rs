//! Types the checker gives expressions, through the real path (parse, then check): each
//! expression initializes an `__auto_type` variable, whose type is the expression's type
//! after lvalue conversion and decay. Also folded constant values.

mod common;

const DECLS: &str = "
typedef unsigned long size_t;
struct S { int a; unsigned b : 3; long c : 40; char d[4]; };
enum E1 { E1A = 1 }; enum E2 { E2A = -1 };
int f(int);
int arr[10];
void t(unsigned u, int i, long l, unsigned long ul, long long ll, char c, unsigned char uc,
       unsigned short us, short sh, _Bool b, float fl, double d, long double ld,
       int *p, void *vp, const int *cp, struct S s, struct S *ps, _Complex double z,
       enum E1 e1, enum E2 e2) {
";

const CASES: &[(&str, &str)] = &[
    ("u + i", "unsigned int"),
    ("l + u", "long"),
    ("ul - l", "unsigned long"),
    ("ll * ul", "unsigned long long"),
    ("c + c", "int"),
    ("uc * us", "int"),
    ("-us", "int"),
    ("~uc", "int"),
    ("b + b", "int"),
    ("sh << 2L", "int"),
    ("u >> ll", "unsigned int"),
    ("fl + 1", "float"),
    ("fl + d", "double"),
    ("ld - fl", "long double"),
    ("z * 2", "_Complex double"),
    ("fl + z", "_Complex double"),
    ("p - p", "long"),
    ("p + 1", "int *"),
    ("1 + p", "int *"),
    ("arr", "int *"),
    ("&arr", "int (*)[10]"),
    ("f", "int (*)(int)"),
    ("*f", "int (*)(int)"),
    ("&f", "int (*)(int)"),
    ("'a'", "int"),
    ("i ? p : 0", "int *"),
    ("i ? vp : p", "void *"),
    ("i ? cp : p", "const int *"),
    ("i ? u : l", "long"),
    ("i < l", "int"),
    ("p == 0", "int"),
    ("!d", "int"),
    ("sizeof i", "unsigned long"),
    ("s.a", "int"),
    ("s.b + 0", "int"),
    ("s.c + 0", "long"),
    ("ps->d", "char *"),
    ("s.d[1]", "char"),
    ("*cp", "int"),
    ("cp", "const int *"),
    ("e1 + 0", "unsigned int"),
    ("e2 + 0", "int"),
    ("2147483647", "int"),
    ("2147483648", "long"),
    ("0x80000000", "unsigned int"),
    ("0xffffffffffffffff", "unsigned long"),
    ("4294967296u", "unsigned long"),
    ("1ll", "long long"),
    ("1.0f", "float"),
    ("1.0L", "long double"),
    ("\"abc\"", "char *"),
    ("(char)i", "char"),
    ("(i, d)", "double"),
    ("i = 3.5", "int"),
    ("d += i", "double"),
    ("u++", "unsigned int"),
    ("__builtin_expect(i, 1)", "long"),
    ("_Generic(fl, float: 1, default: 2.0)", "int"),
    ("__builtin_choose_expr(1, fl, d)", "float"),
    ("__builtin_offsetof(struct S, d[2])", "unsigned long"),
];

#[test]
fn expression_types() {
    let mut src = String::from(DECLS);
    for (i, (e, _)) in CASES.iter().enumerate() {
        src.push_str(&format!("  __auto_type r{i} = ({e});\n"));
    }
    src.push_str("}\n");
    let r = common::check_src(&src);
    let errs: Vec<_> = r
        .parse_diags
        .iter()
        .chain(&r.diags)
        .filter(|d| d.severity == ompcc_diag::Severity::Error)
        .map(|d| format!("{} `{}`", d.message, common::span_text(&src, d)))
        .collect();
    assert!(errs.is_empty(), "{errs:#?}");
    let mut failures = Vec::new();
    for (i, (e, want)) in CASES.iter().enumerate() {
        let name = format!("r{i}");
        let sym = r.unit.symbols.values().find(|s| s.name == name).unwrap();
        let got = r.unit.types.display(sym.ty);
        if got != *want {
            failures.push(format!("{e}: got '{got}', want '{want}'"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn constant_values() {
    let cases: &[(&str, i128)] = &[
        ("1 + 2 * 3", 7),
        ("-7 / 2", -3),
        ("-7 % 2", -1),
        ("(unsigned)-1 >> 28", 15),
        ("-1 < 0u", 0),
        ("-1 < 0L", 1),
        ("(char)300", 44),
        ("(unsigned char)-1", 255),
        ("(_Bool)0.5", 1),
        ("(int)3.99", 3),
        ("sizeof(struct S)", 24),
        ("_Alignof(long double)", 16),
        ("__builtin_offsetof(struct S, d[2])", 15),
        ("1 ? 2 : 1 / 0", 2),
        ("0 && 1 / 0", 0),
        ("E1A + E2A", 0),
        ("'\\xff'", -1),
        ("__builtin_types_compatible_p(int, const int)", 1),
        ("__builtin_constant_p(3 + 4)", 1),
        ("sizeof(int[3][5])", 60),
        ("1ull << 63 >> 62", 2),
        ("(1.5 + 2) * 2", 7),
        ("_Alignof(struct { char c; _Alignas(16) int x; })", 16),
        ("sizeof(struct { char c; _Alignas(16) int x; })", 32),
        ("sizeof(struct { char c; _Alignas(double) char d; })", 16),
        (
            "__builtin_offsetof(struct { char c; int x __attribute__((aligned(8))); }, x)",
            8,
        ),
        (
            "sizeof(union { char c[5]; int i; } __attribute__((packed)))",
            5,
        ),
        ("_Alignof(_Atomic(struct { char a, b; }))", 2),
        ("sizeof(long double _Complex)", 32),
        ("sizeof(__int128)", 16),
        ("sizeof(enum { BIG = 0x100000000 })", 8),
    ];
    let mut src = String::from(
        "struct S { int a; unsigned b : 3; long c : 40; char d[4]; };\nenum E1 { E1A = 1 }; enum E2 { E2A = -1 };\n",
    );
    for (i, (e, _)) in cases.iter().enumerate() {
        src.push_str(&format!("enum {{ K{i} = (int)({e}) }};\n"));
    }
    let r = common::check_src(&src);
    let errs: Vec<_> = r
        .parse_diags
        .iter()
        .chain(&r.diags)
        .filter(|d| d.severity == ompcc_diag::Severity::Error)
        .map(|d| format!("{} `{}`", d.message, common::span_text(&src, d)))
        .collect();
    assert!(errs.is_empty(), "{errs:#?}");
    let mut failures = Vec::new();
    for (i, (e, want)) in cases.iter().enumerate() {
        let name = format!("K{i}");
        let sym = r.unit.symbols.values().find(|s| s.name == name).unwrap();
        let got = match sym.kind {
            ompcc_sema::SymbolKind::EnumConstant(v) => v,
            _ => i128::MIN,
        };
        if got != *want {
            failures.push(format!("{e}: got {got}, want {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn function_parameters_resolve() {
    let src = "int f(int n, double (*a)[n], const char *s) { return n + (int)a[0][0] + s[0]; }\nint g(void) { return 0; }";
    let r = common::check_src(src);
    assert!(r.diags.is_empty(), "{:?}", r.diags);
    let mut got = Vec::new();
    for item in &r.tu.items {
        if let ompcc_syntax::ast::ExternalDecl::Function(f) = item {
            let ps: Vec<String> = r
                .unit
                .params(f)
                .into_iter()
                .map(|p| {
                    let s = &r.unit.symbols[p.unwrap()];
                    format!("{}: {}", s.name, r.unit.types.display(s.ty))
                })
                .collect();
            got.push(ps.join(", "));
        }
    }
    assert_eq!(got, ["n: int, a: double (*)[<vla>], s: const char *", ""]);
}
