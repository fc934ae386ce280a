//! Differential test: random structured programs are built three ways — the way lowering
//! builds them at -O0 (every variable in a stack slot, loaded and stored around each
//! statement), with the integer variables as fields of one aggregate slot, and through the
//! builder's SSA variables — then the slot and aggregate versions are optimized with the -O1,
//! -O2 and -O3 pipelines under the verifier (loops with constant and variable trip counts
//! exercise full and partial unrolling). All versions run in the reference
//! interpreter on random inputs and must agree whenever the original does not trap.

use ompcc_ir::interp::{DataValue, Interpreter};
use ompcc_ir::*;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const VARS: usize = 4;
const OPS: &[Opcode] = &[
    Opcode::Iadd,
    Opcode::Isub,
    Opcode::Imul,
    Opcode::And,
    Opcode::Or,
    Opcode::Xor,
    Opcode::Shl,
    Opcode::Lshr,
    Opcode::Ashr,
    Opcode::Smin,
    Opcode::Umax,
    Opcode::Sdiv,
    Opcode::Urem,
];

/// Where a source variable lives.
#[derive(Clone, Copy)]
enum Cell {
    /// A stack slot address and the type stored there.
    Slot(Value, Type),
    /// A builder variable.
    Var(Variable),
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Slots,
    Aggregate,
    Vars,
}

struct Gen<'a, 'f> {
    b: &'a mut FunctionBuilder<'f>,
    rng: Rng,
    use_vars: bool,
    ints: Vec<Cell>,
    float: Cell,
    /// Generic pointer to a global `i32[8]` array the program reads and writes.
    gmem: Value,
}

impl Gen<'_, '_> {
    fn new_cell(&mut self, ty: Type, init: Value) -> Cell {
        if self.use_vars {
            let v = self.b.declare_var(ty);
            self.b.def_var(v, init);
            Cell::Var(v)
        } else {
            let ss = self.b.create_stack_slot(ty.bytes(), ty.bytes());
            let a = self.b.ins().stack_addr(ss);
            let c = Cell::Slot(a, ty);
            self.set(c, init);
            c
        }
    }

    fn get(&mut self, c: Cell) -> Value {
        match c {
            Cell::Slot(a, ty) => {
                self.b
                    .ins()
                    .load(ty, AddrSpace::Local, MemFlags::aligned(ty.bytes()), a)
            }
            Cell::Var(v) => self.b.use_var(v),
        }
    }

    fn set(&mut self, c: Cell, val: Value) {
        match c {
            Cell::Slot(a, ty) => {
                self.b
                    .ins()
                    .store(AddrSpace::Local, MemFlags::aligned(ty.bytes()), val, a);
            }
            Cell::Var(v) => self.b.def_var(v, val),
        }
    }

    fn load(&mut self, i: usize) -> Value {
        self.get(self.ints[i])
    }

    fn store(&mut self, i: usize, v: Value) {
        self.set(self.ints[i], v)
    }

    fn operand(&mut self) -> Value {
        if self.rng.below(3) == 0 {
            let k = self.rng.pick(&[0i64, 1, -1, 2, 7, 31, 0x7fff_ffff]);
            self.b.ins().iconst(Type::I32, k)
        } else {
            let i = self.rng.below(VARS as u64) as usize;
            self.load(i)
        }
    }

    fn cond(&mut self) -> Value {
        let (x, y) = (self.operand(), self.operand());
        let cc = self.rng.pick(IntCC::ALL);
        self.b.ins().icmp(cc, x, y)
    }

    fn float_stmt(&mut self) {
        let f = self.get(self.float);
        let x = self.operand();
        let xf = self.b.ins().sitofp(Type::F64, x);
        let r = match self.rng.below(4) {
            0 => self.b.ins().fadd(f, xf),
            1 => self.b.ins().fmul(f, xf),
            2 => self.b.ins().fmin(f, xf),
            _ => {
                let h = self.b.ins().fconst(Type::F64, 0.5);
                self.b.ins().fmul(f, h)
            }
        };
        self.set(self.float, r);
        // Feed the float back into an integer variable now and then.
        if self.rng.below(2) == 0 {
            let i = self.b.ins().fptosi(Type::I32, r);
            let dst = self.rng.below(VARS as u64) as usize;
            self.store(dst, i);
        }
    }

    fn switch_stmt(&mut self, depth: u32) {
        let x = self.operand();
        let three = self.b.ins().iconst(Type::I32, 3);
        let idx = self.b.ins().urem(x, three);
        let arms: Vec<Block> = (0..3).map(|_| self.b.create_block()).collect();
        let join = self.b.create_block();
        let table: Vec<(Block, &[Value])> = arms[1..].iter().map(|&a| (a, &[][..])).collect();
        self.b.ins().br_table(idx, (arms[0], &[]), &table);
        for a in arms {
            self.b.switch_to_block(a);
            self.b.seal_block(a);
            self.stmts(depth + 1, 1);
            if self.rng.below(6) == 0 {
                // An early return: the rest of this arm is unreachable.
                self.ret();
            } else {
                self.b.ins().jump(join, &[]);
            }
        }
        self.b.switch_to_block(join);
        self.b.seal_block(join);
    }

    /// `gmem[k]` through the generic pointer.
    fn gmem_elem(&mut self, k: i64) -> Value {
        let off = self.b.ins().iconst(Type::I64, 4 * k);
        let g = self.gmem;
        self.b.ins().ptr_offset(g, off)
    }

    fn memory_stmt(&mut self) {
        let k = self.rng.below(8) as i64;
        let i = self.rng.below(VARS as u64) as usize;
        let p = self.gmem_elem(k);
        if self.rng.below(2) == 0 {
            let v = self.load(i);
            self.b
                .ins()
                .store(AddrSpace::Generic, MemFlags::aligned(4), v, p);
        } else {
            let v = self
                .b
                .ins()
                .load(Type::I32, AddrSpace::Generic, MemFlags::aligned(4), p);
            self.store(i, v);
        }
    }

    fn stmts(&mut self, depth: u32, n: u32) {
        for _ in 0..n {
            if self.rng.below(5) == 0 {
                self.float_stmt();
                continue;
            }
            if self.rng.below(6) == 0 {
                self.memory_stmt();
                continue;
            }
            if depth <= 2 && self.rng.below(8) == 0 {
                self.switch_stmt(depth);
                continue;
            }
            match self.rng.below(if depth > 2 { 2 } else { 5 }) {
                0 | 1 => {
                    let (x, y) = (self.operand(), self.operand());
                    let op = self.rng.pick(OPS);
                    let data = InstData::binary(op, [x, y]);
                    let inst = self.b.ins().build(data, None);
                    let r = self.b.func.dfg.inst_results(inst)[0];
                    let dst = self.rng.below(VARS as u64) as usize;
                    self.store(dst, r);
                }
                2 => {
                    let c = self.cond();
                    let (x, y) = (self.operand(), self.operand());
                    let s = self.b.ins().select(c, x, y);
                    let dst = self.rng.below(VARS as u64) as usize;
                    self.store(dst, s);
                }
                3 => {
                    let c = self.cond();
                    let (t, e, j) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().brif(c, t, &[], e, &[]);
                    self.b.switch_to_block(t);
                    self.b.seal_block(t);
                    let k = self.rng.below(3) as u32 + 1;
                    self.stmts(depth + 1, k);
                    self.b.ins().jump(j, &[]);
                    self.b.switch_to_block(e);
                    self.b.seal_block(e);
                    let k = self.rng.below(3) as u32;
                    self.stmts(depth + 1, k);
                    self.b.ins().jump(j, &[]);
                    self.b.switch_to_block(j);
                    self.b.seal_block(j);
                }
                _ => {
                    // for (c = 0; c < trips; c++) { ... }, trips constant (full unrolling)
                    // or `x & 7` for a variable x (partial unrolling with a remainder).
                    let trips = self.rng.below(5) as i64;
                    let var_trips = if self.rng.below(3) == 0 {
                        let x = self.operand();
                        let seven = self.b.ins().iconst(Type::I32, 7);
                        Some(self.b.ins().and(x, seven))
                    } else {
                        None
                    };
                    let zero = self.b.ins().iconst(Type::I32, 0);
                    let counter = self.new_cell(Type::I32, zero);
                    let (h, body, exit) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().jump(h, &[]);
                    self.b.switch_to_block(h);
                    let c = self.get(counter);
                    let n = match var_trips {
                        Some(n) => n,
                        None => self.b.ins().iconst(Type::I32, trips),
                    };
                    let go = self.b.ins().icmp(IntCC::Slt, c, n);
                    self.b.ins().brif(go, body, &[], exit, &[]);
                    self.b.switch_to_block(body);
                    self.b.seal_block(body);
                    let k = self.rng.below(3) as u32 + 1;
                    self.stmts(depth + 1, k);
                    let c = self.get(counter);
                    let one = self.b.ins().iconst(Type::I32, 1);
                    let c1 = self.b.ins().iadd(c, one);
                    self.set(counter, c1);
                    self.b.ins().jump(h, &[]);
                    self.b.seal_block(h);
                    self.b.switch_to_block(exit);
                    self.b.seal_block(exit);
                }
            }
        }
    }

    /// Returns a value that depends on every variable, so no statement is trivially dead.
    fn ret(&mut self) {
        let x = self.load(0);
        let y = self.load(1);
        let z = self.load(2);
        let w = self.load(3);
        let xy = self.b.ins().xor(x, y);
        let zw = self.b.ins().iadd(z, w);
        let f = self.get(self.float);
        let fi = self.b.ins().fptosi(Type::I32, f);
        let zwf = self.b.ins().xor(zw, fi);
        let p = self.gmem_elem(3);
        let m = self
            .b
            .ins()
            .load(Type::I32, AddrSpace::Generic, MemFlags::aligned(4), p);
        let out = self.b.ins().iadd(zwf, m);
        self.b.ins().ret(&[xy, out]);
    }
}

fn random_module(seed: u64, mode: Mode) -> Module {
    let use_vars = mode == Mode::Vars;
    let sig = Signature::new(vec![Type::I32, Type::I32], vec![Type::I32, Type::I32]);
    let mut func = Function::new("f", FuncKind::Device, sig);
    {
        let mut b = FunctionBuilder::new(&mut func);
        let entry = b.create_entry_block();
        b.switch_to_block(entry);
        b.seal_block(entry);
        let params = b.block_params(entry).to_vec();
        let placeholder = Cell::Slot(params[0], Type::I32);
        let gv = b.import_global("mem", AddrSpace::Global);
        let ga = b.ins().global_addr(gv);
        let gmem = b.ins().addrspacecast(Type::PTR, ga);
        let mut g = Gen {
            b: &mut b,
            rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            use_vars,
            ints: Vec::new(),
            float: placeholder,
            gmem,
        };
        // In aggregate mode the integers are the fields of one `int[VARS]` slot.
        let aggregate = (mode == Mode::Aggregate).then(|| {
            let ss = g.b.create_stack_slot(4 * VARS as u32, 8);
            g.b.ins().stack_addr(ss)
        });
        for i in 0..VARS {
            let init = match params.get(i) {
                Some(&p) => p,
                None => g.b.ins().iconst(Type::I32, i as i64),
            };
            let c = match aggregate {
                Some(base) => {
                    let off = g.b.ins().iconst(Type::I64, 4 * i as i64);
                    let a = g.b.ins().ptr_offset(base, off);
                    let c = Cell::Slot(a, Type::I32);
                    g.set(c, init);
                    c
                }
                None => g.new_cell(Type::I32, init),
            };
            g.ints.push(c);
        }
        let one = g.b.ins().fconst(Type::F64, 1.0);
        g.float = g.new_cell(Type::F64, one);
        g.stmts(0, 6);
        g.ret();
    }
    let mut m = Module::new();
    m.globals.push(GlobalData {
        name: "mem".into(),
        space: AddrSpace::Global,
        size: 32,
        align: 4,
        init: None,
    });
    m.functions.push(func);
    m
}

fn run(m: &Module, a: i32, b: i32) -> Option<Vec<DataValue>> {
    let mut it = Interpreter::new(m).ok()?;
    it.call(
        "f",
        &[
            DataValue::Int(Type::I32, a as i64),
            DataValue::Int(Type::I32, b as i64),
        ],
    )
    .ok()
}

#[test]
fn o1_pipeline_preserves_meaning() {
    check_level(1);
}

#[test]
fn o2_pipeline_preserves_meaning() {
    check_level(2);
}

#[test]
fn o3_pipeline_preserves_meaning() {
    check_level(3);
}

fn check_level(level: u8) {
    let mut compared = 0;
    for seed in 0..400u64 {
        let m = random_module(seed, Mode::Slots);
        if let Err(e) = verify_module(&m) {
            panic!("seed {seed}: generator built invalid IR: {e:?}\n{m}");
        }
        let mut agg = random_module(seed, Mode::Aggregate);
        ompcc_opt::optimize(&mut agg, level, true).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            !agg.to_string().contains("local"),
            "seed {seed}: sroa + mem2reg left a local access\n{agg}"
        );
        let ssa = random_module(seed, Mode::Vars);
        if let Err(e) = verify_module(&ssa) {
            panic!("seed {seed}: builder variables built invalid IR: {e:?}\n{ssa}");
        }
        let mut opt = m.clone();
        ompcc_opt::optimize(&mut opt, level, true).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let text = opt.to_string();
        let reparsed = parse_module(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(reparsed.to_string(), text, "seed {seed}");
        assert!(
            !text.contains("load.i32 local") && !text.contains("load.f64 local"),
            "seed {seed}: mem2reg left a load\n{text}"
        );
        if level >= 2 {
            assert!(
                !text.contains("generic"),
                "seed {seed}: spaces left a generic access\n{text}"
            );
        }
        let mut rng = Rng(seed + 7);
        for _ in 0..6 {
            let (a, b) = (
                rng.next() as i32 >> rng.below(31),
                rng.next() as i32 >> rng.below(31),
            );
            let Some(want) = run(&m, a, b) else { continue };
            let got = run(&opt, a, b);
            assert_eq!(
                got.as_ref(),
                Some(&want),
                "seed {seed} inputs ({a}, {b})\nbefore:\n{m}\nafter:\n{opt}"
            );
            let got = run(&agg, a, b);
            assert_eq!(
                got.as_ref(),
                Some(&want),
                "seed {seed} inputs ({a}, {b})\nslots:\n{m}\naggregate, optimized:\n{agg}"
            );
            let got = run(&ssa, a, b);
            assert_eq!(
                got.as_ref(),
                Some(&want),
                "seed {seed} inputs ({a}, {b})\nslots:\n{m}\nvariables:\n{ssa}"
            );
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} comparisons ran");
}
