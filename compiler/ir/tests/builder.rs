//! Builder, printer, parser and verifier working together on IR built through the API.

use ompcc_ir::analysis::{ControlFlowGraph, DefUse, DominatorTree, LoopAnalysis};
use ompcc_ir::*;

/// saxpy with a grid-stride loop, built the way lowering will build it.
fn saxpy() -> Function {
    let sig = Signature::new(
        vec![
            Type::I32,
            Type::F32,
            Type::Ptr(AddrSpace::Global),
            Type::Ptr(AddrSpace::Global),
        ],
        vec![],
    );
    let mut func = Function::new("saxpy", FuncKind::Kernel, sig);
    let mut b = FunctionBuilder::new(&mut func);
    let entry = b.create_entry_block();
    let header = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    let i = b.append_block_param(header, Type::I32);
    let [n, a, x, y] = b.block_params(entry).try_into().expect("4 params");

    b.switch_to_block(entry);
    let tid = b.ins().sreg(SpecialReg::TidX);
    let ntid = b.ins().sreg(SpecialReg::NtidX);
    let ctaid = b.ins().sreg(SpecialReg::CtaidX);
    let base = b.ins().imul(ctaid, ntid);
    let start = b.ins().iadd(base, tid);
    b.ins().jump(header, &[start]);

    b.switch_to_block(header);
    let c = b.ins().icmp(IntCC::Slt, i, n);
    b.ins().brif(c, body, &[], exit, &[]);

    b.switch_to_block(body);
    let wide = b.ins().sext(Type::I64, i);
    let four = b.ins().iconst(Type::I64, 4);
    let off = b.ins().imul(wide, four);
    let px = b.ins().ptr_offset(x, off);
    let py = b.ins().ptr_offset(y, off);
    let vx = b
        .ins()
        .load(Type::F32, AddrSpace::Global, MemFlags::aligned(4), px);
    let vy = b
        .ins()
        .load(Type::F32, AddrSpace::Global, MemFlags::aligned(4), py);
    let r = b.ins().fma(a, vx, vy);
    b.ins()
        .store(AddrSpace::Global, MemFlags::aligned(4), r, py);
    let nct = b.ins().sreg(SpecialReg::NctaidX);
    let stride = b.ins().imul(nct, ntid);
    let next = b.ins().iadd(i, stride);
    b.ins().jump(header, &[next]);
    assert!(b.is_filled());

    b.switch_to_block(exit);
    b.ins().ret(&[]);
    func
}

#[test]
fn built_function_verifies_prints_and_reparses() {
    let func = saxpy();
    verify_function(&func).expect("verifies");
    let text = func.to_string();
    assert!(text.contains("v18 = fma v1, v16, v17"), "{text}");
    assert!(text.contains("brif v10, block2, block3"), "{text}");
    let again = parse_function(&text).expect("parses");
    assert_eq!(again.to_string(), text);
    verify_function(&again).expect("reparsed verifies");

    let cfg = ControlFlowGraph::compute(&func);
    let dt = DominatorTree::compute(&func, &cfg);
    let loops = LoopAnalysis::compute(&cfg, &dt);
    assert_eq!(loops.loops().len(), 1);
    let l = &loops.loops()[0];
    assert_eq!(l.header.to_string(), "block1");
    assert_eq!(
        l.preheader.map(|b| b.to_string()).as_deref(),
        Some("block0")
    );
    let du = DefUse::compute(&func);
    let header_param = func.dfg.block_params(l.header)[0];
    // Used by the compare, the sign extension and the increment.
    assert_eq!(du.num_uses(header_param), 3);
}

#[test]
fn verifier_errors_are_printed_inline() {
    let mut func = saxpy();
    // Break it: the loop back edge passes no argument.
    let header = func.layout.blocks().nth(1).expect("header");
    let body = func.layout.blocks().nth(2).expect("body");
    let jump = func.layout.last_inst(body).expect("jump");
    func.dfg.branch_destinations_mut(jump)[0] = BlockCall {
        block: header,
        args: Default::default(),
    };
    let errs = verify_function(&func).expect_err("must fail");
    assert_eq!(errs.len(), 1);
    let text = annotate(&func, &errs);
    assert!(
        text.contains("    jump block1\n    ; error: block1 takes 1 argument(s), 0 given\n"),
        "{text}"
    );
    assert!(parse_function(&text).is_ok());
}

#[test]
fn cursor_inserts_before_and_replaces_in_place() {
    let mut func = saxpy();
    let body = func.layout.blocks().nth(2).expect("body");
    let first = func.layout.first_inst(body).expect("first");
    let mut cur = FuncCursor::new(&mut func);
    cur.goto_inst(first);
    let k = cur.ins().iconst(Type::I32, 0x1_0000_0001);
    // iconst keeps the low 32 bits, sign-extended, and lands before `first`.
    let ValueDef::Result(kinst, 0) = func.dfg.value_def(k) else {
        panic!("iconst result")
    };
    assert_eq!(func.layout.first_inst(body), Some(kinst));
    assert!(matches!(
        func.dfg.inst(kinst),
        InstData::UnaryImm { imm: 1, .. }
    ));
    verify_function(&func).expect("still verifies");
}

#[test]
fn parser_never_panics_on_mutations() {
    let text = saxpy().to_string();
    let bytes = text.as_bytes();
    // Delete, duplicate or replace every byte position in turn (bounded work).
    for i in (0..bytes.len()).step_by(3) {
        let mut del = bytes.to_vec();
        del.remove(i);
        let mut dup = bytes.to_vec();
        dup.insert(i, bytes[i]);
        let mut rep = bytes.to_vec();
        rep[i] = b"v(,:=1@-x"[i % 9];
        for m in [del, dup, rep] {
            if let Ok(s) = String::from_utf8(m)
                && let Ok(module) = parse_module(&s)
            {
                // Whatever parsed must print and verify without panicking.
                let _ = verify_module(&module);
                let _ = module.to_string();
            }
        }
    }
}

#[test]
fn verifier_and_printer_never_panic_on_corrupted_ir() {
    // Deterministic xorshift so failures reproduce.
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..300 {
        let mut func = saxpy();
        let insts: Vec<Inst> = func
            .layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b).collect::<Vec<_>>())
            .collect();
        let nv = func.dfg.num_values() as u64 * 2;
        let nb = func.dfg.num_blocks() as u64 * 2;
        for _ in 0..3 {
            let inst = insts[(next() % insts.len() as u64) as usize];
            match next() % 4 {
                0 => func
                    .dfg
                    .map_inst_uses(inst, |_| Value::from_u32((next() % nv) as u32)),
                1 => {
                    for call in func.dfg.branch_destinations_mut(inst) {
                        call.block = Block::from_u32((next() % nb) as u32);
                    }
                }
                2 => func.layout.remove_inst(inst),
                _ => {
                    *func.dfg.inst_mut(inst) =
                        InstData::binary(Opcode::Fma, [Value::from_u32(0), Value::from_u32(1)])
                }
            }
        }
        let errors = verify_function(&func).err().unwrap_or_default();
        let text = annotate(&func, &errors);
        assert!(!text.is_empty(), "round {round}");
        // The interpreter reports broken IR as an error, never a panic.
        let mut m = Module::new();
        m.functions.push(func);
        let mut it = ompcc_ir::interp::Interpreter::new(&m).unwrap();
        it.steps_left = 10_000;
        let g = Type::Ptr(AddrSpace::Global);
        let args = [
            ompcc_ir::interp::DataValue::Int(Type::I32, 4),
            ompcc_ir::interp::DataValue::Float(Type::F32, 1.0),
            ompcc_ir::interp::DataValue::Ptr(g, 0),
            ompcc_ir::interp::DataValue::Ptr(g, 0),
        ];
        let _ = it.call("saxpy", &args);
    }
}

/// `int f(int n, int k) { int s = 0; for (int i = 0; i < n; i++) { if (i & 1) s += k; else s -= 1; } return s; }`
/// with `s` and `i` as builder variables.
#[test]
fn variables_build_ssa() {
    let sig = Signature::new(vec![Type::I32, Type::I32], vec![Type::I32]);
    let mut func = Function::new("f", FuncKind::Device, sig);
    let mut b = FunctionBuilder::new(&mut func);
    let (s, i) = (b.declare_var(Type::I32), b.declare_var(Type::I32));
    let entry = b.create_entry_block();
    let [header, body, odd, even, latch, exit] = [(); 6].map(|_| b.create_block());
    b.switch_to_block(entry);
    b.seal_block(entry);
    let (n, k) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let zero = b.ins().iconst(Type::I32, 0);
    b.def_var(s, zero);
    b.def_var(i, zero);
    b.ins().jump(header, &[]);

    b.switch_to_block(header); // not sealed: the back edge does not exist yet
    let iv = b.use_var(i);
    let c = b.ins().icmp(IntCC::Slt, iv, n);
    b.ins().brif(c, body, &[], exit, &[]);

    b.switch_to_block(body);
    b.seal_block(body);
    let iv = b.use_var(i);
    let one = b.ins().iconst(Type::I32, 1);
    let bit = b.ins().and(iv, one);
    let zero = b.ins().iconst(Type::I32, 0);
    let is_odd = b.ins().icmp(IntCC::Ne, bit, zero);
    b.ins().brif(is_odd, odd, &[], even, &[]);
    b.seal_block(odd);
    b.seal_block(even);

    b.switch_to_block(odd);
    let sv = b.use_var(s);
    let sv = b.ins().iadd(sv, k);
    b.def_var(s, sv);
    b.ins().jump(latch, &[]);

    b.switch_to_block(even);
    let sv = b.use_var(s);
    let one = b.ins().iconst(Type::I32, 1);
    let sv = b.ins().isub(sv, one);
    b.def_var(s, sv);
    b.ins().jump(latch, &[]);

    b.switch_to_block(latch);
    b.seal_block(latch);
    let iv = b.use_var(i);
    let one = b.ins().iconst(Type::I32, 1);
    let next = b.ins().iadd(iv, one);
    b.def_var(i, next);
    b.ins().jump(header, &[]);
    b.seal_block(header);

    b.switch_to_block(exit);
    b.seal_block(exit);
    let sv = b.use_var(s);
    b.ins().ret(&[sv]);

    verify_function(&func).unwrap_or_else(|e| panic!("{e:?}\n{}", annotate(&func, &e)));
    let text = func.to_string();
    assert!(
        text.contains("block1(v"),
        "header takes parameters:\n{text}"
    );
    let mut m = Module::new();
    m.functions.push(func);
    let mut it = ompcc_ir::interp::Interpreter::new(&m).unwrap();
    let int = |v| ompcc_ir::interp::DataValue::Int(Type::I32, v);
    // n = 5, k = 10: i = 0..4 -> even, odd, even, odd, even: -1 + 10 - 1 + 10 - 1 = 17.
    assert_eq!(it.call("f", &[int(5), int(10)]).unwrap(), vec![int(17)]);
    assert_eq!(it.call("f", &[int(0), int(10)]).unwrap(), vec![int(0)]);
}

#[test]
fn variable_read_before_definition_is_zero() {
    let sig = Signature::new(vec![Type::I1], vec![Type::F64]);
    let mut func = Function::new("g", FuncKind::Device, sig);
    let mut b = FunctionBuilder::new(&mut func);
    let x = b.declare_var(Type::F64);
    let entry = b.create_entry_block();
    let (then, join) = (b.create_block(), b.create_block());
    b.switch_to_block(entry);
    b.seal_block(entry);
    let c = b.block_params(entry)[0];
    b.ins().brif(c, then, &[], join, &[]);
    b.switch_to_block(then);
    b.seal_block(then);
    let v = b.ins().fconst(Type::F64, 2.5);
    b.def_var(x, v);
    b.ins().jump(join, &[]);
    b.switch_to_block(join);
    b.seal_block(join);
    let r = b.use_var(x);
    b.ins().ret(&[r]);
    verify_function(&func).unwrap_or_else(|e| panic!("{e:?}\n{}", annotate(&func, &e)));
    let text = func.to_string();
    assert!(text.contains("fconst.f64 0.0"), "{text}");
}

#[test]
fn replace_all_uses_rewrites_operands_and_block_args() {
    let mut func = saxpy();
    let entry = func.layout.entry_block().unwrap();
    let n = func.dfg.block_params(entry)[0];
    let k = {
        let first = func.layout.first_inst(entry).unwrap();
        let mut cur = FuncCursor::new(&mut func);
        cur.goto_inst(first);
        cur.ins().iconst(Type::I32, 64)
    };
    func.replace_all_uses(n, k);
    let du = ompcc_ir::analysis::DefUse::compute(&func);
    assert_eq!(du.num_uses(n), 0);
    assert_eq!(du.num_uses(k), 1);
    verify_function(&func).unwrap();
    assert_eq!(func.layout.all_insts().count(), 23);
}

/// The builders record the current source location on each instruction they create; a cursor
/// positioned before an instruction hands its location on; the text form round-trips them.
#[test]
fn source_locations() {
    let mut m = Module::new();
    let file = m.add_file("k.c");
    assert_eq!(m.add_file("k.c"), file, "files are deduplicated");
    let sig = Signature::new(vec![Type::I32], vec![Type::I32]);
    let mut func = Function::new("f", FuncKind::Device, sig);
    let mut b = FunctionBuilder::new(&mut func);
    let entry = b.create_entry_block();
    b.switch_to_block(entry);
    let x = b.block_params(entry)[0];
    let one = b.ins().iconst(Type::I32, 1);
    b.set_srcloc(SourceLoc::new(file, 3, 7));
    let sum = b.ins().iadd(x, one);
    b.set_srcloc(SourceLoc::new(file, 4, 3));
    let ret = b.ins().ret(&[sum]);
    b.set_srcloc(SourceLoc::default());
    assert!(b.srcloc().is_unknown());

    let one_inst = match func.dfg.value_def(one) {
        ValueDef::Result(i, _) => i,
        _ => panic!("iconst defines its result"),
    };
    assert!(func.srcloc(one_inst).is_unknown());
    assert_eq!(func.srcloc(ret), SourceLoc::new(file, 4, 3));

    // A cursor before `return` gives new instructions the return's location.
    let mut cur = FuncCursor::new(&mut func);
    cur.goto_inst(ret);
    let two = cur.ins().iconst(Type::I32, 2);
    let two_inst = match cur.func.dfg.value_def(two) {
        ValueDef::Result(i, _) => i,
        _ => panic!("iconst defines its result"),
    };
    assert_eq!(cur.func.srcloc(two_inst), SourceLoc::new(file, 4, 3));
    cur.goto_bottom(entry);
    assert!(cur.srcloc().is_unknown());

    m.functions.push(func);
    verify_module(&m).unwrap();
    let text = m.to_string();
    assert!(text.starts_with("file 0 \"k.c\"\n"), "{text}");
    assert!(text.contains("v2 = iadd v0, v1 !loc 0:3:7\n"), "{text}");
    assert!(text.contains("v3 = iconst.i32 2 !loc 0:4:3\n"), "{text}");
    assert!(text.contains("    v1 = iconst.i32 1\n"), "{text}");
    let again = parse_module(&text).unwrap();
    assert_eq!(again.files, m.files);
    assert_eq!(again.to_string(), text);
}
