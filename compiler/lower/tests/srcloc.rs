//! Source locations: with a source map in `LowerOptions`, each statement's and expression's
//! instructions carry their line and column in the user's file (line markers followed), the
//! module names the file, and the locations survive -O1; without one, no instruction has any.

use ompcc_ir::{Function, Module, Opcode, SourceLoc};
use ompcc_lower::{FunctionSelection, LowerOptions, lower_functions};

fn lower(src: &str, with_map: bool) -> Module {
    let (tu, sm, pd) = ompcc_syntax::parse_translation_unit(src, "pp.i");
    let tu = tu.expect("parses");
    assert!(pd.iter().all(|d| !d.is_error()), "{pd:?}");
    let (typed, sd) = ompcc_sema::check(&tu);
    assert!(sd.iter().all(|d| !d.is_error()), "{sd:?}");
    let opts = LowerOptions {
        source_map: with_map.then_some(&sm),
        ..LowerOptions::default()
    };
    let (m, d) = lower_functions(&tu, &typed, &FunctionSelection::All, &opts);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    ompcc_ir::verify_module(&m).expect("verifies");
    m
}

/// Locations of the instructions with opcode `op`, in layout order.
fn locs(f: &Function, op: Opcode) -> Vec<SourceLoc> {
    f.layout
        .all_insts()
        .filter(|&i| f.dfg.inst(i).opcode() == op)
        .map(|i| f.srcloc(i))
        .collect()
}

// A line marker puts the function at line 10 of `user.c`.
const SRC: &str = "# 10 \"user.c\"\nint f(int a, int b) {\n  int s = a * b;\n  if (s > 7)\n    s = s - 7;\n  return s;\n}\n";

#[test]
fn statements_and_expressions_carry_their_lines() {
    let m = lower(SRC, true);
    assert_eq!(m.files, vec!["user.c".to_string()]);
    let f = m.function("f").expect("f");
    let at = |l: u32, c: u32| SourceLoc::new(0, l, c);
    assert_eq!(locs(f, Opcode::Imul), vec![at(11, 11)], "a * b");
    assert_eq!(locs(f, Opcode::Icmp), vec![at(12, 3)], "the if's compare");
    assert_eq!(locs(f, Opcode::Isub), vec![at(13, 9)], "s - 7");
    assert_eq!(locs(f, Opcode::Return), vec![at(14, 3)], "return");
    // The initializer's store is the declaration's; the prologue's stores the declarator's.
    let stores = locs(f, Opcode::Store);
    assert_eq!(stores[0], at(10, 5));
    assert!(stores.contains(&at(11, 7)), "{stores:?}");
    assert!(
        f.layout.all_insts().all(|i| !f.srcloc(i).is_unknown()),
        "every instruction has a location:\n{f}"
    );
    let text = m.to_string();
    assert!(text.contains("file 0 \"user.c\""), "{text}");
    let back = ompcc_ir::parse_module(&text).expect("round trip");
    assert_eq!(back.to_string(), text);
}

#[test]
fn locations_survive_optimization() {
    let mut m = lower(SRC, true);
    ompcc_opt::optimize(&mut m, 1, true).expect("-O1");
    let f = m.function("f").expect("f");
    assert_eq!(locs(f, Opcode::Imul), vec![SourceLoc::new(0, 11, 11)]);
}

#[test]
fn without_a_source_map_nothing_has_a_location() {
    let m = lower(SRC, false);
    assert!(m.files.is_empty());
    let f = m.function("f").expect("f");
    assert!(f.layout.all_insts().all(|i| f.srcloc(i).is_unknown()));
}
