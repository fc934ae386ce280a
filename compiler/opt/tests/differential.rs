//! Differential test: random structured programs are built the way lowering builds them
//! (every variable in a stack slot, loaded and stored around each statement), optimized with
//! the -O1 and -O2 pipelines under the verifier, and run in the reference interpreter before and after
//! on random inputs. Results must agree whenever the original does not trap.

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

struct Gen<'a, 'f> {
    b: &'a mut FunctionBuilder<'f>,
    rng: Rng,
    slots: Vec<Value>,
    /// Address of an `f64` variable.
    fslot: Value,
}

impl Gen<'_, '_> {
    fn load(&mut self, i: usize) -> Value {
        let a = self.slots[i];
        self.b
            .ins()
            .load(Type::I32, AddrSpace::Local, MemFlags::aligned(4), a)
    }

    fn store(&mut self, i: usize, v: Value) {
        let a = self.slots[i];
        self.b
            .ins()
            .store(AddrSpace::Local, MemFlags::aligned(4), v, a);
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
        let fa = self.fslot;
        let f = self
            .b
            .ins()
            .load(Type::F64, AddrSpace::Local, MemFlags::aligned(8), fa);
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
        self.b
            .ins()
            .store(AddrSpace::Local, MemFlags::aligned(8), r, fa);
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
            self.stmts(depth + 1, 1);
            if self.rng.below(6) == 0 {
                // An early return: the rest of this arm is unreachable.
                let v = self.load(0);
                let w = self.load(1);
                self.b.ins().ret(&[v, w]);
            } else {
                self.b.ins().jump(join, &[]);
            }
        }
        self.b.switch_to_block(join);
    }

    fn stmts(&mut self, depth: u32, n: u32) {
        for _ in 0..n {
            if self.rng.below(5) == 0 {
                self.float_stmt();
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
                    let data = InstData::Binary {
                        opcode: op,
                        args: [x, y],
                    };
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
                    let k = self.rng.below(3) as u32 + 1;
                    self.stmts(depth + 1, k);
                    self.b.ins().jump(j, &[]);
                    self.b.switch_to_block(e);
                    let k = self.rng.below(3) as u32;
                    self.stmts(depth + 1, k);
                    self.b.ins().jump(j, &[]);
                    self.b.switch_to_block(j);
                }
                _ => {
                    // for (c = 0; c < trips; c++) { ... } with the counter in its own slot.
                    let trips = self.rng.below(5) as i64;
                    let ss = self.b.create_stack_slot(4, 4);
                    let ca = self.b.ins().stack_addr(ss);
                    let zero = self.b.ins().iconst(Type::I32, 0);
                    self.b
                        .ins()
                        .store(AddrSpace::Local, MemFlags::aligned(4), zero, ca);
                    let (h, body, exit) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().jump(h, &[]);
                    self.b.switch_to_block(h);
                    let c =
                        self.b
                            .ins()
                            .load(Type::I32, AddrSpace::Local, MemFlags::aligned(4), ca);
                    let n = self.b.ins().iconst(Type::I32, trips);
                    let go = self.b.ins().icmp(IntCC::Slt, c, n);
                    self.b.ins().brif(go, body, &[], exit, &[]);
                    self.b.switch_to_block(body);
                    let k = self.rng.below(3) as u32 + 1;
                    self.stmts(depth + 1, k);
                    let c =
                        self.b
                            .ins()
                            .load(Type::I32, AddrSpace::Local, MemFlags::aligned(4), ca);
                    let one = self.b.ins().iconst(Type::I32, 1);
                    let c1 = self.b.ins().iadd(c, one);
                    self.b
                        .ins()
                        .store(AddrSpace::Local, MemFlags::aligned(4), c1, ca);
                    self.b.ins().jump(h, &[]);
                    self.b.switch_to_block(exit);
                }
            }
        }
    }
}

fn random_module(seed: u64) -> Module {
    let sig = Signature::new(vec![Type::I32, Type::I32], vec![Type::I32, Type::I32]);
    let mut func = Function::new("f", FuncKind::Device, sig);
    {
        let mut b = FunctionBuilder::new(&mut func);
        let entry = b.create_entry_block();
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let mut slots = Vec::new();
        for i in 0..VARS {
            let ss = b.create_stack_slot(4, 4);
            let a = b.ins().stack_addr(ss);
            let init = match params.get(i) {
                Some(&p) => p,
                None => b.ins().iconst(Type::I32, i as i64),
            };
            b.ins()
                .store(AddrSpace::Local, MemFlags::aligned(4), init, a);
            slots.push(a);
        }
        let fss = b.create_stack_slot(8, 8);
        let fslot = b.ins().stack_addr(fss);
        let one = b.ins().fconst(Type::F64, 1.0);
        b.ins()
            .store(AddrSpace::Local, MemFlags::aligned(8), one, fslot);
        let mut g = Gen {
            b: &mut b,
            rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            slots,
            fslot,
        };
        g.stmts(0, 6);
        // Every variable reaches the result, so no statement is trivially dead.
        let x = g.load(0);
        let y = g.load(1);
        let z = g.load(2);
        let w = g.load(3);
        let xy = g.b.ins().xor(x, y);
        let zw = g.b.ins().iadd(z, w);
        let fa = g.fslot;
        let f =
            g.b.ins()
                .load(Type::F64, AddrSpace::Local, MemFlags::aligned(8), fa);
        let fi = g.b.ins().fptosi(Type::I32, f);
        let zwf = g.b.ins().xor(zw, fi);
        g.b.ins().ret(&[xy, zwf]);
    }
    let mut m = Module::new();
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

fn check_level(level: u8) {
    let mut compared = 0;
    for seed in 0..400u64 {
        let m = random_module(seed);
        if let Err(e) = verify_module(&m) {
            panic!("seed {seed}: generator built invalid IR: {e:?}\n{m}");
        }
        let mut opt = m.clone();
        ompcc_opt::optimize(&mut opt, level, true).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let text = opt.to_string();
        let reparsed = parse_module(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(reparsed.to_string(), text, "seed {seed}");
        assert!(
            !text.contains("load"),
            "seed {seed}: mem2reg left a load\n{text}"
        );
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
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} comparisons ran");
}
