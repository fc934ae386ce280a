//! Static initializers checked against the host compiler byte for byte: the definitions below
//! are compiled by `cc` into a probe that dumps each object's bytes, and the same text is
//! checked by sema, whose flattened initializer entries (offset, type, constant value) are
//! written into a zeroed buffer. The two images must be equal. Requires `cc`.

mod common;

use ompcc_sema::InitKey;
use ompcc_sema::consteval::ConstValue;
use ompcc_sema::types::{FloatKind, TypeKind};
use ompcc_syntax::ast::{DeclarationKind, ExternalDecl};
use std::fmt::Write as _;
use std::process::Command;

const DEFS: &str = r#"
struct in { short s; char c[3]; };
struct out { int a; struct in in[2]; unsigned b : 5, c : 7; union { float f; int i; }; long l; };
struct bits { unsigned a : 3; signed b : 5; unsigned long long c : 40; _Bool d : 1; char e; };
union un { char c[6]; double d; };
struct out o1 = { 1, { { 2, "ab" }, 3, 4, 5 }, .c = 6, .i = 7, -8 };
struct out o2 = { .in[1].c = "xyz", .in[0] = { -1 }, .l = 1L << 40, .f = 1.5f };
struct bits b1 = { 5, -3, 0xfffffffff, 1, 'q' };
struct bits b2 = { .c = 1, .e = -1, .a = 9 };
int grid[2][3] = { 1, 2, 3, [1][1] = 9 };
int flat[2][3] = { { 1 }, 4, 5 };
char word[] = "tree";
char braced[6] = { "hi" };
double ramp[6] = { [1 ... 3] = 1.5, -2.25 };
float fl[3] = { 1, 2.5, -0.125f };
union un u1 = { "abcde" };
union un u2 = { .d = 3.0 };
unsigned char bytes[5] = { 255, 256, -1, 'A', 0x7f };
long long mixed[4] = { 3.9, -2.5, 1u << 31, sizeof(struct out) };
struct { char tag; struct { int x, y; } pt[2]; } nested = { 'n', { 1, 2, 3, 4 } };
struct { int a[3]; int b; } elided = { 1, 2, 3, 4 };
_Bool flags[3] = { 0, 2, 0.5 };
short shorts[4] = { [3] = 7, [0] = -7 };
float specials[3] = { __builtin_inff(), -__builtin_huge_valf(), __builtin_nanf("") };
double dspecial = -__builtin_inf();
"#;

fn globals(src: &str) -> Vec<String> {
    let (tu, _, _) = ompcc_syntax::parse_translation_unit(src, "g.c");
    let tu = tu.unwrap();
    let mut names = Vec::new();
    for item in &tu.items {
        if let ExternalDecl::Decl(d) = item
            && let DeclarationKind::Vars { declarators, .. } = &d.kind
        {
            for id in declarators {
                if id.init.is_some()
                    && let Some(n) = id.declarator.name
                {
                    names.push(tu.symbols.resolve(n.name).to_string());
                }
            }
        }
    }
    names
}

fn cc_images(names: &[String]) -> String {
    let mut src = String::from("#include <stdio.h>\n");
    src.push_str(DEFS);
    src.push_str("static void dump(const char *n, const void *p, size_t s) {\n  printf(\"%s \", n);\n  for (size_t i = 0; i < s; i++) printf(\"%02x\", ((const unsigned char *)p)[i]);\n  printf(\"\\n\");\n}\nint main(void) {\n");
    for n in names {
        writeln!(src, "  dump(\"{n}\", &{n}, sizeof {n});").unwrap();
    }
    src.push_str("  return 0;\n}\n");
    let dir = std::env::temp_dir().join(format!("ompcc-sema-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("p.c");
    let exe = dir.join("p");
    std::fs::write(&c, src).unwrap();
    let out = Command::new("cc")
        .arg("-w")
        .arg("-o")
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("this test needs the host C compiler `cc`");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(run.stdout).unwrap()
}

fn put_bits(buf: &mut [u8], bit_offset: u64, width: u64, value: u128) {
    for i in 0..width {
        let bit = (value >> i) & 1;
        let pos = bit_offset + i;
        let byte = (pos / 8) as usize;
        if bit == 1 {
            buf[byte] |= 1 << (pos % 8);
        } else {
            buf[byte] &= !(1 << (pos % 8));
        }
    }
}

fn sema_images(names: &[String]) -> String {
    let r = common::check_src(DEFS);
    assert!(
        r.parse_diags.is_empty() && common::errors(&r.diags).is_empty(),
        "{:?}",
        r.diags
    );
    let t = &r.unit.types;
    let mut out = String::new();
    for item in &r.tu.items {
        let ExternalDecl::Decl(d) = item else {
            continue;
        };
        let DeclarationKind::Vars { declarators, .. } = &d.kind else {
            continue;
        };
        for id in declarators {
            let Some(n) = id.declarator.name else {
                continue;
            };
            let name = r.tu.symbols.resolve(n.name);
            if !names.iter().any(|x| x == name) {
                continue;
            }
            let sym = r.unit.decl_symbol(id.declarator.id).unwrap();
            let size = t.size_of(r.unit.symbols[sym].ty).unwrap() as usize;
            let mut buf = vec![0u8; size];
            for e in &r.unit.inits[&InitKey::Decl(id.declarator.id)] {
                let expr = find_expr(&r.tu, e.expr).unwrap();
                let bits = t.size_of(e.ty).unwrap() * 8;
                match t.ckind(e.ty) {
                    TypeKind::Array { .. } => {
                        // a string literal
                        let ompcc_syntax::ast::ExprKind::Str(s) = &strip(expr).kind else {
                            panic!("array entry is not a string")
                        };
                        for (i, ch) in s.value.iter().enumerate().take(bits as usize / 8) {
                            buf[(e.bit_offset / 8) as usize + i] = *ch as u8;
                        }
                    }
                    TypeKind::Float(k) => {
                        let Some(ConstValue::Float(f)) = ompcc_sema::fold(&r.unit, expr) else {
                            panic!("{name}: not a float constant")
                        };
                        let bytes: Vec<u8> = match k {
                            FloatKind::Float => (f.value as f32).to_le_bytes().to_vec(),
                            _ => f.value.to_le_bytes().to_vec(),
                        };
                        let at = (e.bit_offset / 8) as usize;
                        buf[at..at + bytes.len()].copy_from_slice(&bytes);
                    }
                    _ => {
                        let Some(ConstValue::Int(v)) = ompcc_sema::fold(&r.unit, expr) else {
                            panic!("{name}: not an integer constant")
                        };
                        let width = e.bit_width.map_or(bits, u64::from);
                        put_bits(&mut buf, e.bit_offset, width, v.as_u128());
                    }
                }
            }
            let hex: String = buf.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(out, "{name} {hex}").unwrap();
        }
    }
    out
}

fn strip(e: &ompcc_syntax::ast::Expr) -> &ompcc_syntax::ast::Expr {
    match &e.kind {
        ompcc_syntax::ast::ExprKind::Paren(x) => strip(x),
        _ => e,
    }
}

/// Finds an expression by id in the initializers of the unit (enough for this test).
fn find_expr(
    tu: &ompcc_syntax::ast::TranslationUnit,
    id: ompcc_syntax::ast::ExprId,
) -> Option<&ompcc_syntax::ast::Expr> {
    use ompcc_syntax::ast::{Expr, Initializer};
    fn in_init(i: &Initializer, id: ompcc_syntax::ast::ExprId) -> Option<&Expr> {
        match i {
            Initializer::Expr(e) => (e.id == id).then_some(&**e),
            Initializer::List(l) => l.items.iter().find_map(|it| in_init(&it.init, id)),
        }
    }
    tu.items.iter().find_map(|item| match item {
        ExternalDecl::Decl(d) => match &d.kind {
            DeclarationKind::Vars { declarators, .. } => declarators
                .iter()
                .find_map(|x| x.init.as_ref().and_then(|i| in_init(i, id))),
            _ => None,
        },
        _ => None,
    })
}

#[test]
fn static_initializers_match_cc() {
    let names = globals(DEFS);
    assert!(names.len() >= 15);
    let expected = cc_images(&names);
    let got = sema_images(&names);
    let diffs: Vec<String> = expected
        .lines()
        .zip(got.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("cc:   {a}\nsema: {b}"))
        .collect();
    assert!(
        diffs.is_empty() && expected.lines().count() == got.lines().count(),
        "{}",
        diffs.join("\n")
    );
}
