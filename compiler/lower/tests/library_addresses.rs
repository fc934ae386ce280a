//! Addresses of device C library functions: a function pointer or a table entry naming a
//! library function (`sqrt`) points at one internal function per library function, which
//! calls the declared library function (linked and renamed later); extern inline definitions
//! of library functions (glibc's `putchar`) yield to the library.

mod common;
use common::*;
use ompcc_lower::FunctionSelection;

#[test]
fn local_pointers_and_tables_share_one_wrapper_per_function() {
    let src = "\
double sqrt(double); double fabs(double);\n\
double (*const table[3])(double) = {sqrt, fabs, sqrt};\n\
double f(double x) { double (*p)(double) = sqrt; return p(x) + table[1](x) + sqrt(x); }\n";
    let (m, d) = lower_with(src, &FunctionSelection::All);
    assert!(d.is_empty(), "{d:?}");
    let wrappers: Vec<&str> = m
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with("__ompcc_addr_"))
        .collect();
    assert_eq!(wrappers, ["__ompcc_addr_sqrt", "__ompcc_addr_fabs"]);
    let targets: Vec<&str> = m.relocs["table"]
        .iter()
        .map(|r| r.target.as_str())
        .collect();
    assert_eq!(
        targets,
        [
            "__ompcc_addr_sqrt",
            "__ompcc_addr_fabs",
            "__ompcc_addr_sqrt"
        ]
    );
    for name in ["sqrt", "fabs"] {
        assert!(
            m.decls.iter().any(|d| d.name == name),
            "no declaration of {name}"
        );
    }
    assert_eq!(
        m.linkage.get("__ompcc_addr_sqrt"),
        Some(&ompcc_ir::Linkage::Internal)
    );
}

#[test]
fn functions_outside_the_library_still_have_no_address() {
    let (_, d) = lower_with(
        "int ext(int); int (*const t[1])(int) = {ext}; int f(void) { return t[0](1); }",
        &FunctionSelection::All,
    );
    assert!(
        d.iter()
            .any(|d| d.message.contains("'ext' has no device definition")),
        "{d:?}"
    );
}

#[test]
fn extern_inline_library_definitions_yield_to_the_library() {
    let src = "\
extern inline __attribute__((__gnu_inline__)) int putchar(int c) { return c + 1000; }\n\
static inline int twice(int c) { return 2 * c; }\n\
int f(int c) { return putchar(c) + twice(c); }\n";
    let (m, d) = lower_with(src, &FunctionSelection::All);
    assert!(d.is_empty(), "{d:?}");
    assert!(m.functions.iter().all(|f| f.name != "putchar"));
    assert!(m.decls.iter().any(|d| d.name == "putchar"));
    assert!(m.functions.iter().any(|f| f.name == "twice"));
}
