//! Record layout checked against the host C compiler.
//!
//! Each case describes one struct/union. The test prints it as C, compiles a probe with `cc`
//! that prints sizeof, alignof and the bit offset and width of every named member (bitfields
//! found by setting them to all ones in a zeroed object and scanning the bytes), and compares
//! that text with the same report computed from sema's layout of the same declarations.
//! The `cc` compiler is required: the test fails, rather than skips, without it.

use ompcc_sema::types::{
    ArraySize, Field, FloatKind, IntKind, QualType, RecordAttrs, RecordId, RecordKind, TypeTable,
};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::Command;

#[derive(Clone)]
enum Ty {
    Named(&'static str),
    Inline(Box<Case>),
}

#[derive(Clone)]
struct F {
    ty: Ty,
    name: Option<&'static str>,
    /// Some(n) array of n, Some(0) flexible array member
    arr: Option<u64>,
    bits: Option<u32>,
    packed: bool,
    align: Option<u64>,
}

#[derive(Clone)]
struct Case {
    tag: Option<&'static str>,
    kind: RecordKind,
    fields: Vec<F>,
    packed: bool,
    align: Option<u64>,
    pack: Option<u64>,
}

fn f(ty: &'static str, name: &'static str) -> F {
    F {
        ty: Ty::Named(ty),
        name: Some(name),
        arr: None,
        bits: None,
        packed: false,
        align: None,
    }
}
fn bf(ty: &'static str, name: &'static str, w: u32) -> F {
    F {
        bits: Some(w),
        ..f(ty, name)
    }
}
fn anon_bf(ty: &'static str, w: u32) -> F {
    F {
        name: None,
        ..bf(ty, "", w)
    }
}
fn arr(ty: &'static str, name: &'static str, n: u64) -> F {
    F {
        arr: Some(n),
        ..f(ty, name)
    }
}
fn inline(c: Case, name: Option<&'static str>) -> F {
    F {
        ty: Ty::Inline(Box::new(c)),
        name,
        arr: None,
        bits: None,
        packed: false,
        align: None,
    }
}
impl F {
    fn packed(mut self) -> F {
        self.packed = true;
        self
    }
    fn aligned(mut self, a: u64) -> F {
        self.align = Some(a);
        self
    }
}
fn st(tag: &'static str, fields: Vec<F>) -> Case {
    Case {
        tag: Some(tag),
        kind: RecordKind::Struct,
        fields,
        packed: false,
        align: None,
        pack: None,
    }
}
fn un(tag: &'static str, fields: Vec<F>) -> Case {
    Case {
        kind: RecordKind::Union,
        ..st(tag, fields)
    }
}
fn anon(kind: RecordKind, fields: Vec<F>) -> Case {
    Case {
        tag: None,
        kind,
        ..st("", fields)
    }
}
impl Case {
    fn packed(mut self) -> Case {
        self.packed = true;
        self
    }
    fn aligned(mut self, a: u64) -> Case {
        self.align = Some(a);
        self
    }
    fn pack(mut self, n: u64) -> Case {
        self.pack = Some(n);
        self
    }
}

const PRELUDE: &str = "typedef int i2 __attribute__((aligned(2)));
typedef long l2 __attribute__((aligned(2)));
typedef double d16 __attribute__((aligned(16)));
enum E1 { E1A = 1 };
enum E2 { E2A = -1 };
enum E3 { E3A = 0x100000000 };
enum __attribute__((packed)) EP { EPA = 1 };
";

fn cases() -> Vec<Case> {
    use RecordKind::{Struct, Union};
    vec![
        st("s01", vec![f("char", "a"), f("int", "b"), f("char", "c")]),
        st(
            "s02",
            vec![f("char", "a"), f("double", "b"), f("short", "c")],
        ),
        st("s03", vec![f("char", "a"), f("long double", "b")]),
        st(
            "s04",
            vec![f("char", "a"), f("__int128", "b"), f("_Bool", "c")],
        ),
        st(
            "s05",
            vec![f("char", "a"), bf("int", "b", 4), bf("int", "c", 30)],
        ),
        st(
            "s06",
            vec![f("char", "a"), bf("short", "b", 9), bf("short", "c", 9)],
        ),
        st("s07", vec![f("char", "a"), anon_bf("int", 4)]),
        st(
            "s08",
            vec![f("char", "a"), anon_bf("int", 0), f("char", "b")],
        ),
        st("s09", vec![f("char", "a"), anon_bf("long", 0)]),
        st(
            "s10",
            vec![f("char", "a"), bf("long long", "b", 40), f("char", "c")],
        ),
        st(
            "s11",
            vec![f("char", "a"), bf("int", "b", 31), bf("int", "c", 3)],
        )
        .packed(),
        st(
            "s12",
            vec![f("char", "c"), bf("_Bool", "b", 1), bf("long long", "x", 3)],
        ),
        st("s13", vec![f("char", "a"), bf("int", "b", 3).aligned(8)]),
        st("s14", vec![f("char", "a"), f("i2", "b")]),
        st("s15", vec![f("char", "a"), f("int", "b").packed()]),
        st(
            "s16",
            vec![
                f("char", "a"),
                bf("int", "b", 4).packed(),
                bf("int", "c", 30),
            ],
        ),
        st(
            "s17",
            vec![f("char", "a"), f("int", "b").packed().aligned(2)],
        ),
        st("s18", vec![f("char", "a"), f("int", "b")])
            .packed()
            .aligned(4),
        st("s19", vec![f("char", "a"), arr("int", "x", 0)]),
        st(
            "s20",
            vec![
                f("char", "c"),
                inline(anon(Struct, vec![f("int", "ia"), f("char", "ib")]), None),
                inline(anon(Union, vec![f("short", "us"), f("double", "ud")]), None),
            ],
        ),
        st("s21", vec![f("char", "a"), bf("l2", "b", 40)]),
        st(
            "s22",
            vec![f("char", "a"), bf("enum E1", "b", 3), bf("enum E2", "c", 5)],
        ),
        st(
            "s23",
            vec![f("enum E3", "a"), f("enum EP", "b"), f("char", "c")],
        ),
        st("s24", vec![f("char", "a"), f("d16", "b")]),
        st("s25", vec![f("char", "a"), f("int", "b").aligned(16)]),
        st("s26", vec![f("char", "a"), f("double", "b")]).aligned(32),
        st(
            "s27",
            vec![
                f("char", "a"),
                bf("char", "b", 3),
                bf("char", "c", 6),
                bf("unsigned char", "d", 8),
            ],
        ),
        st(
            "s28",
            vec![
                bf("unsigned", "a", 1),
                anon_bf("unsigned", 0),
                bf("unsigned", "b", 1),
                anon_bf("char", 3),
                bf("unsigned long", "c", 60),
            ],
        ),
        st(
            "s29",
            vec![
                f("short", "s"),
                inline(
                    Case {
                        tag: Some("s29in"),
                        ..st("", vec![f("char", "x"), f("long", "y")])
                    },
                    Some("in"),
                ),
                f("char", "t"),
            ],
        ),
        st(
            "s30",
            vec![
                f("char", "a"),
                inline(
                    anon(Struct, vec![f("char", "p"), f("int", "q")]).packed(),
                    Some("pk"),
                ),
                f("char", "b"),
            ],
        ),
        st("s31", vec![f("char", "a"), f("double", "b"), f("int", "c")]).pack(4),
        st(
            "s32",
            vec![f("char", "a"), bf("int", "b", 20), bf("int", "c", 20)],
        )
        .pack(2),
        st("s33", vec![f("_Complex double", "z"), f("char", "c")]),
        st(
            "s34",
            vec![
                arr("char", "a", 3),
                f("_Complex float", "z"),
                f("float", "w"),
            ],
        ),
        st(
            "s35",
            vec![f("char", "a"), arr("short", "b", 3), arr("double", "d", 0)],
        ),
        st("s36", vec![]),
        st(
            "s37",
            vec![
                bf("unsigned short", "a", 15),
                bf("unsigned short", "b", 2),
                bf("long", "c", 33),
                bf("long", "d", 33),
            ],
        ),
        un("u01", vec![bf("int", "x", 3), f("char", "c")]),
        un("u02", vec![f("char", "c"), anon_bf("int", 0)]),
        un("u03", vec![f("char", "c"), bf("int", "x", 3).aligned(8)]),
        un("u04", vec![arr("char", "c", 9), f("double", "d")]),
        un("u05", vec![arr("char", "c", 5), f("int", "i")]).packed(),
        un(
            "u06",
            vec![
                inline(anon(Struct, vec![f("char", "a"), f("long", "b")]), None),
                f("short", "s"),
            ],
        )
        .aligned(32),
        un("u07", vec![f("long double", "ld"), f("__int128", "q")]),
        st("s38", vec![f("char", "a"), f("struct s01", "in")]).packed(),
        st(
            "s39",
            vec![f("short", "a"), arr("struct s02", "x", 3), f("char", "z")],
        ),
        un(
            "u08",
            vec![f("struct s05", "s"), bf("unsigned long long", "bits", 50)],
        ),
        st(
            "s40",
            vec![
                arr("char", "a", 5),
                bf("long long", "b", 30),
                bf("long long", "c", 30),
            ],
        ),
        st(
            "s41",
            vec![
                bf("unsigned long long", "a", 1),
                f("char", "b"),
                bf("unsigned long long", "c", 63),
            ],
        ),
        st(
            "s42",
            vec![
                bf("unsigned short", "a", 7),
                bf("unsigned short", "b", 7),
                bf("unsigned short", "c", 7),
                f("char", "d"),
            ],
        )
        .packed(),
        st(
            "s43",
            vec![f("char", "a"), arr("struct s20", "n", 2), f("char", "b")],
        ),
    ]
}

// ----- C text -----

fn c_type(ty: &Ty, out: &mut String) {
    match ty {
        Ty::Named(n) => out.push_str(n),
        Ty::Inline(c) => c_record(c, out),
    }
}

fn c_record(c: &Case, out: &mut String) {
    out.push_str(match c.kind {
        RecordKind::Struct => "struct",
        RecordKind::Union => "union",
    });
    if c.packed {
        out.push_str(" __attribute__((packed))");
    }
    if let Some(t) = c.tag {
        write!(out, " {t}").unwrap();
    }
    out.push_str(" { ");
    for fl in &c.fields {
        c_type(&fl.ty, out);
        out.push(' ');
        if let Some(n) = fl.name {
            out.push_str(n);
        }
        match fl.arr {
            Some(0) => out.push_str("[]"),
            Some(n) => write!(out, "[{n}]").unwrap(),
            None => {}
        }
        if let Some(w) = fl.bits {
            write!(out, " : {w}").unwrap();
        }
        if fl.packed {
            out.push_str(" __attribute__((packed))");
        }
        if let Some(a) = fl.align {
            write!(out, " __attribute__((aligned({a})))").unwrap();
        }
        out.push_str("; ");
    }
    out.push('}');
    // after the body, the other place gcc accepts type attributes
    if let Some(a) = c.align {
        write!(out, " __attribute__((aligned({a})))").unwrap();
    }
}

/// Named leaf members reachable from a case, as (C access path, is bitfield, type text).
fn members(c: &Case, prefix: &str, out: &mut Vec<(String, bool, String)>) {
    for fl in &c.fields {
        match (&fl.ty, fl.name) {
            (Ty::Inline(inner), None) => members(inner, prefix, out),
            (Ty::Inline(inner), Some(n)) => members(inner, &format!("{prefix}{n}."), out),
            (Ty::Named(t), Some(n)) => {
                out.push((format!("{prefix}{n}"), fl.bits.is_some(), (*t).to_string()))
            }
            (Ty::Named(_), None) => {}
        }
    }
}

fn probe_source(cases: &[Case]) -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#include <string.h>\n#include <stddef.h>\n\
         static int first_bit(const unsigned char *p, size_t n) {\n\
           for (size_t i = 0; i < n * 8; i++) if (p[i / 8] >> (i % 8) & 1) return (int)i;\n\
           return -1; }\n\
         static int count_bits(const unsigned char *p, size_t n) {\n\
           int c = 0; for (size_t i = 0; i < n * 8; i++) c += p[i / 8] >> (i % 8) & 1;\n\
           return c; }\n",
    );
    s.push_str(PRELUDE);
    for c in cases {
        if let Some(p) = c.pack {
            writeln!(s, "#pragma pack(push, {p})").unwrap();
        }
        c_record(c, &mut s);
        s.push_str(";\n");
        if c.pack.is_some() {
            s.push_str("#pragma pack(pop)\n");
        }
    }
    s.push_str("int main(void) {\n");
    for c in cases {
        let tag = c.tag.unwrap_or_default();
        let kw = match c.kind {
            RecordKind::Struct => "struct",
            RecordKind::Union => "union",
        };
        writeln!(
            s,
            "  printf(\"{tag} %zu %zu\\n\", sizeof({kw} {tag}), _Alignof({kw} {tag}));"
        )
        .unwrap();
        let mut ms = Vec::new();
        members(c, "", &mut ms);
        for (path, is_bits, ty) in ms {
            if is_bits {
                let all_ones = if ty == "_Bool" { "1" } else { "-1" };
                writeln!(
                    s,
                    "  {{ {kw} {tag} v; memset(&v, 0, sizeof v); v.{path} = {all_ones}; \
                     printf(\"{tag}.{path} %d %d\\n\", first_bit((unsigned char *)&v, sizeof v), \
                     count_bits((unsigned char *)&v, sizeof v)); }}"
                )
                .unwrap();
            } else {
                writeln!(
                    s,
                    "  printf(\"{tag}.{path} %d\\n\", (int)(offsetof({kw} {tag}, {path}) * 8));"
                )
                .unwrap();
            }
        }
    }
    s.push_str("  return 0;\n}\n");
    s
}

// ----- the same declarations through sema's API -----

struct Env {
    t: TypeTable,
    names: HashMap<String, QualType>,
    recs: HashMap<String, RecordId>,
}

impl Env {
    fn new() -> Env {
        let mut t = TypeTable::new();
        let mut names = HashMap::new();
        let ints = [
            ("char", IntKind::Char),
            ("unsigned char", IntKind::UChar),
            ("short", IntKind::Short),
            ("unsigned short", IntKind::UShort),
            ("int", IntKind::Int),
            ("unsigned", IntKind::UInt),
            ("long", IntKind::Long),
            ("unsigned long", IntKind::ULong),
            ("long long", IntKind::LongLong),
            ("unsigned long long", IntKind::ULongLong),
            ("__int128", IntKind::Int128),
        ];
        for (n, k) in ints {
            names.insert(n.to_string(), t.int(k));
        }
        names.insert("_Bool".into(), t.bool_());
        for (n, k) in [
            ("float", FloatKind::Float),
            ("double", FloatKind::Double),
            ("long double", FloatKind::LongDouble),
        ] {
            names.insert(n.to_string(), t.float(k));
            names.insert(format!("_Complex {n}"), t.complex(k));
        }
        let int = names["int"];
        let long = names["long"];
        let double = names["double"];
        names.insert("i2".into(), t.new_typedef("i2".into(), int, Some(2)));
        names.insert("l2".into(), t.new_typedef("l2".into(), long, Some(2)));
        names.insert("d16".into(), t.new_typedef("d16".into(), double, Some(16)));
        for (tag, v, packed) in [
            ("E1", 1, false),
            ("E2", -1, false),
            ("E3", 0x1_0000_0000, false),
            ("EP", 1, true),
        ] {
            let (e, q) = t.new_enum(Some(tag.into()));
            t.complete_enum(e, vec![(format!("{tag}A"), v)], packed);
            names.insert(format!("enum {tag}"), q);
        }
        Env {
            t,
            names,
            recs: HashMap::new(),
        }
    }

    fn record(&mut self, c: &Case) -> QualType {
        let (id, q) = self.t.new_record(c.kind, c.tag.map(Into::into));
        let mut fields = Vec::new();
        for fl in &c.fields {
            let mut ty = match &fl.ty {
                Ty::Named(n) => self.names[*n],
                Ty::Inline(inner) => self.record(inner),
            };
            match fl.arr {
                Some(0) => ty = self.t.array(ty, ArraySize::Incomplete),
                Some(n) => ty = self.t.array(ty, ArraySize::Fixed(n)),
                None => {}
            }
            fields.push(Field {
                name: fl.name.map(Into::into),
                ty,
                bit_width: fl.bits,
                packed: fl.packed,
                align: fl.align,
            });
        }
        let attrs = RecordAttrs {
            packed: c.packed,
            align: c.align,
            max_field_align: c.pack,
        };
        self.t
            .complete_record(id, fields, attrs)
            .unwrap_or_else(|e| panic!("{:?}: {e:?}", c.tag));
        if let Some(tag) = c.tag {
            self.recs.insert(tag.to_string(), id);
            let kw = match c.kind {
                RecordKind::Struct => "struct",
                RecordKind::Union => "union",
            };
            self.names.insert(format!("{kw} {tag}"), q);
        }
        q
    }
}

fn sema_report(cases: &[Case]) -> String {
    let mut env = Env::new();
    for c in cases {
        env.record(c);
    }
    report(&env.t, &env.recs, cases)
}

/// The same declarations parsed from C text by ompcc-syntax and checked by the checker.
fn parsed_report(cases: &[Case]) -> String {
    let mut src = String::from(PRELUDE);
    for c in cases {
        c_record(c, &mut src);
        src.push_str(";\n");
    }
    let (tu, _, pdiags) = ompcc_syntax::parse_translation_unit(&src, "layout.c");
    assert!(pdiags.is_empty(), "parse errors: {pdiags:?}");
    let tu = tu.unwrap();
    let (unit, diags) = ompcc_sema::check(&tu);
    assert!(diags.is_empty(), "check diagnostics: {diags:?}");
    let mut recs = HashMap::new();
    for c in cases {
        let tag = c.tag.unwrap();
        recs.insert(tag.to_string(), unit.record_by_tag(tag).unwrap());
    }
    report(&unit.types, &recs, cases)
}

fn report(t: &TypeTable, recs: &HashMap<String, RecordId>, cases: &[Case]) -> String {
    let mut out = String::new();
    for c in cases {
        let tag = c.tag.unwrap_or_default();
        let rid = recs[tag];
        let l = t.record_layout(rid).unwrap();
        writeln!(out, "{tag} {} {}", l.size, l.align).unwrap();
        let mut ms = Vec::new();
        members(c, "", &mut ms);
        for (path, is_bits, _) in ms {
            // walk the dotted path through named and anonymous members
            let mut rec = rid;
            let mut bit = 0;
            let mut fl_layout = None;
            for part in path.split('.') {
                let (idx, fty) = t.find_member(rec, part).unwrap();
                let mut r = rec;
                for &i in &idx {
                    let l = &t.record_layout(r).unwrap().fields[i];
                    bit += l.bit_offset;
                    fl_layout = Some(*l);
                    let fty = t.record(r).fields.as_ref().unwrap()[i].ty;
                    if let Some(inner) = t.record_id(fty) {
                        r = inner;
                    }
                }
                if let Some(inner) = t.record_id(fty) {
                    rec = inner;
                }
            }
            if is_bits {
                writeln!(out, "{tag}.{path} {bit} {}", fl_layout.unwrap().bit_size).unwrap();
            } else {
                writeln!(out, "{tag}.{path} {bit}").unwrap();
            }
        }
    }
    out
}

fn cc_report(cases: &[Case]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "ompcc-sema-layout-{}-{}",
        std::process::id(),
        cases.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&src, probe_source(cases)).unwrap();
    let cc = Command::new("cc")
        .arg("-w")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("the layout test needs the host C compiler `cc`");
    assert!(
        cc.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(run.stdout).unwrap()
}

fn compare(expected: &str, got: &str) {
    let diffs: Vec<String> = expected
        .lines()
        .zip(got.lines())
        .filter(|(e, g)| e != g)
        .map(|(e, g)| format!("cc: {e:<24} sema: {g}"))
        .collect();
    assert!(
        diffs.is_empty() && expected.lines().count() == got.lines().count(),
        "layout differs from cc:\n{}",
        diffs.join("\n")
    );
}

#[test]
fn layout_matches_cc() {
    let cases = cases();
    assert!(cases.len() >= 30);
    compare(&cc_report(&cases), &sema_report(&cases));
}

/// The real path: C text -> parser -> checker -> layout. `#pragma pack` cases are left to
/// the API test above because the parser drops `#pragma pack` lines (a change asked of
/// ompcc-syntax); everything else goes through here.
#[test]
fn layout_from_parsed_source_matches_cc() {
    let cases: Vec<Case> = cases().into_iter().filter(|c| c.pack.is_none()).collect();
    assert!(cases.len() >= 30);
    compare(&cc_report(&cases), &parsed_report(&cases));
}
