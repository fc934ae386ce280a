//! The public API as the consumers use it: region sections as C text, host ranges that
//! touch a base, the dependence test, independence, strides, alias facts and summaries.

use ompcc_access::{Dependence, Scope, UnitAccesses};

fn with_analysis(
    src: &str,
    f: impl FnOnce(&UnitAccesses<'_>, &ompcc_syntax::ast::TranslationUnit),
) {
    let (tu, _sm, diags) = ompcc_syntax::parse_translation_unit(src, "t.c");
    assert!(
        diags
            .iter()
            .all(|d| d.severity != ompcc_diag::Severity::Error),
        "parse errors: {diags:?}"
    );
    let tu = tu.expect("a tree");
    let (typed, sema) = ompcc_sema::check(&tu);
    assert!(
        sema.iter()
            .all(|d| d.severity != ompcc_diag::Severity::Error),
        "sema errors: {sema:?}"
    );
    let ua = ompcc_access::analyze(&tu, &typed);
    f(&ua, &tu);
}

fn base(ua: &UnitAccesses<'_>, f: usize, name: &str) -> ompcc_access::BaseId {
    ua.functions[f]
        .bases
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no base {name}"))
        .id
}

const HEAT: &str = "
void heat(int n, int steps, double *restrict u, double *restrict v) {
  for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++)
      v[i] = 0.5 * (u[i - 1] + u[i + 1]);
    u[0] = v[1];
  }
}
";

#[test]
fn region_sections_as_c_text() {
    with_analysis(HEAT, |ua, _| {
        let f = ua.function("heat").unwrap();
        let r = ua.functions[f].regions[0].id;
        let mut text = Vec::new();
        for s in ua.sections(f, Scope::Region(r)) {
            if let Some(sec) = &s.read {
                text.push(format!("read {}", ua.section_c(f, s.base, sec).unwrap()));
            }
            if let Some(sec) = &s.write {
                text.push(format!("write {}", ua.section_c(f, s.base, sec).unwrap()));
            }
        }
        assert_eq!(text, ["read u[0:n]", "write v[1:n - 2]"]);
    });
}

#[test]
fn host_statement_touches() {
    with_analysis(HEAT, |ua, _| {
        let f = ua.function("heat").unwrap();
        let (u, v) = (base(ua, f, "u"), base(ua, f, "v"));
        // the host statement `u[0] = v[1];` follows the region in the time loop's body
        let t_loop = ua.functions[f].loops[0].body;
        let region = ua.functions[f].regions[0].span;
        let host = ompcc_diag::Span::new(region.hi, t_loop.hi);
        let tu_ = ua.touches(f, u, host).unwrap();
        assert!(tu_.write && !tu_.read);
        let tv = ua.touches(f, v, host).unwrap();
        assert!(tv.read && !tv.write);
        // the same range's sections, at its first statement
        let secs = ua.sections(f, Scope::Range(host));
        let text: Vec<String> = secs
            .iter()
            .flat_map(|s| {
                [("read", &s.read), ("write", &s.write)]
                    .into_iter()
                    .filter_map(move |(k, x)| x.as_ref().map(|x| (k, s.base, x)))
            })
            .map(|(k, b, x)| format!("{k} {}", ua.section_c(f, b, x).unwrap()))
            .collect();
        assert_eq!(text, ["write u[0:1]", "read v[1:1]"]);
    });
}

#[test]
fn dependence_and_independence() {
    let src = "
void f(int n, double *restrict a, double *restrict b, double *restrict s) {
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1];
  for (int i = 0; i < n; i++)
    b[2 * i] = b[2 * i + 1];
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += b[i];
  int last = 0;
  for (int i = 0; i < n; i++)
    last = i;
  s[0] = sum + last;
}
";
    with_analysis(src, |ua, _| {
        let f = 0;
        let loops: Vec<_> = ua.functions[f].loops.iter().map(|l| l.id).collect();
        let (a, b) = (base(ua, f, "a"), base(ua, f, "b"));
        assert!(matches!(
            ua.dependence(f, loops[0], a),
            Dependence::MayCarry {
                distance: Some(1),
                ..
            }
        ));
        assert_eq!(ua.dependence(f, loops[1], b), Dependence::Independent);
        assert!(ua.independent(f, loops[0]).is_err());
        assert!(ua.independent(f, loops[1]).is_ok());
        assert!(ua.independent(f, loops[2]).is_ok(), "a reduction");
        let reds = ua.reductions(f, loops[2]);
        assert_eq!(reds.len(), 1);
        assert_eq!(reds[0].op, "+");
        let err = ua.independent(f, loops[3]).unwrap_err();
        assert!(
            err.reason.message().contains("'last'"),
            "{}",
            err.reason.message()
        );
    });
}

#[test]
fn strides_in_loop_variables() {
    let src = "
void f(int n, int m, double *a, double b[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[j * n + i] = b[i][j];
}
";
    with_analysis(src, |ua, _| {
        let fa = &ua.functions[0];
        let (li, lj) = (fa.loops[0].id, fa.loops[1].id);
        let read = fa.accesses.iter().position(|x| !x.kind.writes()).unwrap();
        let write = fa.accesses.iter().position(|x| x.kind.writes()).unwrap();
        assert_eq!(ua.expr_c(&ua.stride(0, read, lj).unwrap()), "1");
        assert_eq!(ua.expr_c(&ua.stride(0, read, li).unwrap()), "m");
        assert_eq!(ua.expr_c(&ua.stride(0, write, lj).unwrap()), "n");
        assert_eq!(ua.expr_c(&ua.stride(0, write, li).unwrap()), "1");
    });
}

#[test]
fn alias_facts_and_summaries() {
    let src = "
void *malloc(unsigned long);
static void fill(int n, double *x) {
  for (int i = 0; i < n; i++)
    x[i] = 0;
}
double g[100];
void f(int n, double *p, double *q) {
  double *m = malloc(n * sizeof(double));
  fill(n, m);
  fill(n - 1, p + 1);
  g[0] = m[0] + q[0];
}
";
    with_analysis(src, |ua, _| {
        let f = ua.function("f").unwrap();
        let (p, q, m, g) = (
            base(ua, f, "p"),
            base(ua, f, "q"),
            base(ua, f, "m"),
            base(ua, f, "g"),
        );
        assert_eq!(ua.distinct(f, p, q), None);
        assert!(ua.distinct(f, m, p).is_some());
        assert!(ua.distinct(f, m, g).is_some());
        assert_eq!(ua.distinct(f, p, g), None);
        let fill = ua.functions[ua.function("fill").unwrap()].symbol.unwrap();
        let sum = ua.summary(fill).unwrap();
        let eff = sum.params[1].as_ref().unwrap();
        assert!(eff.read.is_none());
        let w = eff.write.as_ref().unwrap().as_ref().unwrap();
        assert_eq!(ua.expr_c(&w[0].lo), "0");
        assert_eq!(ua.expr_c(&w[0].length().unwrap()), "n");
        // at the call site the argument's offset and count are substituted
        let secs = ua.sections(f, Scope::Function);
        let ps = secs.iter().find(|s| s.base == p).unwrap();
        assert_eq!(
            ua.section_c(f, p, ps.write.as_ref().unwrap()).unwrap(),
            "p[1:n - 1]"
        );
    });
}
