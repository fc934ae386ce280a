//! The grid loop of a one-iteration kernel variant (`ompcc_omp::choose_one_iteration`): the
//! runtime launches the variant only with at least one thread per iteration, so each thread
//! runs the iteration its global thread number names, if there is one, with no loop around
//! it, no stride and no carries: CUDA's `if (idx < n)` form. A collapsed nest's indices are
//! the thread number's digits in the mixed radix of the trip counts, divided out once; a
//! nest of two or three collapsed loops runs on a grid of as many dimensions instead
//! (`ompcc_omp::one_iteration_grid`): the innermost index is `%ctaid.x * %ntid.x + %tid.x`,
//! the outer ones `%ctaid.y` and `%ctaid.z`, and no thread divides.

use crate::func::Local;
use crate::func::{Addr, FnLower};
use crate::kernel::Split;
use crate::kernel::Who;
use crate::privatize::{PrivKind, Private};
use crate::ty::Scalar;
use crate::worksharing::CanonLoop;
use ompcc_ir::{ArithFlags, InstData, IntCC, Opcode, SpecialReg, Type, Value, ValueDef};
use ompcc_syntax::ast::Stmt;

/// What a grid loop's one iteration runs: the nest's loops and the body inside them.
pub(crate) struct OneIteration<'s, 'a> {
    /// The distributed (collapsed) loops, outermost first.
    pub(crate) canon: &'s [CanonLoop],
    /// The grid mapping's sequential loops each iteration runs around the body.
    pub(crate) sequential: &'s [CanonLoop],
    /// Iterations of the collapsed nest (`i64`).
    pub(crate) total: Value,
    pub(crate) body: &'a Stmt,
    /// The `lastprivate` mark (`mark_if_last`).
    pub(crate) last_flag: Option<Addr>,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// Whether the grid loop of directive `d` is lowered in the one-iteration form: in a
    /// one-iteration variant, the region's own loop nest shared by the grid, without a
    /// schedule, chunks, lane groups or an elected worker.
    pub(crate) fn one_iteration_loop(&self, d: &ompcc_syntax::ast::OmpDirective, who: Who) -> bool {
        self.cx.one_iteration_loop == Some(d.span) && who == Who::Grid && self.generic.is_none()
    }

    /// Runs iteration `%ctaid.x * %ntid.x + %tid.x` of `it`'s nest on this thread when there
    /// is one. A grid smaller than the iterations breaks the launch's promise (a host count
    /// that disagrees with the kernel's): the kernel traps rather than skip iterations.
    pub(crate) fn one_iteration(&mut self, it: OneIteration<'_, 'a>, privs: &[Private<'a>]) {
        let trips: Vec<Value> = it.canon.iter().map(|c| c.trip).collect();
        let dims = self.cx.one_iteration_grid as usize;
        let (covered, has, k, digits) = if dims == 1 {
            self.linear_iteration(it.total, &trips)
        } else if dims == trips.len() {
            self.grid_iteration(&trips)
        } else {
            self.unsupported(
                "internal compiler error: a one-iteration grid whose dimensions are not the \
                 collapsed loops (lower::one_iteration)",
                it.body.span,
            );
            return;
        };
        let fits = self.b.create_block();
        let broken = self.b.create_block();
        self.b.ins().brif(covered, fits, &[], broken, &[]);
        self.b.switch_to_block(broken);
        self.b.ins().trap();
        self.b.switch_to_block(fits);
        // every thread of the block, with an iteration or not, stages the shared tiles (only
        // a loop that is not collapsed has them: a one-dimensional grid)
        if let [c] = it.canon
            && it.sequential.is_empty()
            && dims == 1
        {
            let (k, _) = self.who_range(Who::Grid);
            self.stage_tiles(k, it.total, c);
        }
        let run = self.b.create_block();
        let done = self.b.create_block();
        let has = has(self);
        self.b.ins().brif(has, run, &[], done, &[]);
        self.b.switch_to_block(run);
        let digits = digits(self);
        for (c, &idx) in it.canon.iter().zip(&digits) {
            self.set_iteration_var(c, idx);
        }
        if privs.iter().any(|p| p.kind == PrivKind::Linear) || it.last_flag.is_some() {
            let k = k(self, &digits);
            self.set_linear(privs, k);
            if let Some(flag) = it.last_flag {
                self.mark_if_last(flag, k, it.total);
            }
        }
        // `continue` ends the thread's iteration; `break` cannot leave an OpenMP loop
        self.breaks.push(done);
        self.continues.push(done);
        self.loop_runs.push(Who::Grid);
        // `None`: a sequential loop's bounds could not be lowered (reported)
        let _ = self.sequential_nest(it.sequential, it.body, None);
        self.loop_runs.pop();
        self.continues.pop();
        self.breaks.pop();
        self.jump_to(done);
        self.b.switch_to_block(done);
    }

    /// Stores loop `c`'s variable in iteration `idx`, as `set_loop_var`. A loop over a signed
    /// `int` from a constant `lb >= 0` by `+1` gets `trunc(idx) + lb` computed in `int` as
    /// an `nsw` sum: the value is the variable's in an iteration that runs, so it fits, and
    /// `idx = value - lb` fits too. Later passes then read `j + c` as `sext(j) + c` and
    /// share `A[i * n + j]`'s address with `A[i * n + j - 1]`'s (the 64-bit `lb + idx`
    /// kept the sum opaque: no pass can see it fits).
    fn set_iteration_var(&mut self, c: &CanonLoop, idx: Value) {
        let lb = self
            .known_i64(c.lb)
            .filter(|&v| (0..=i32::MAX as i64).contains(&v));
        let int = matches!(c.cls, Scalar::Int(Type::I32, true));
        let (Some(lb), true, Some(1)) = (lb, int, self.known_i64(c.step)) else {
            self.set_loop_var(c, idx);
            return;
        };
        let k = self.b.ins().trunc(Type::I32, idx);
        let lb = self.b.ins().iconst(Type::I32, lb);
        let iv = self
            .b
            .ins()
            .binary_flags(Opcode::Iadd, ArithFlags::NSW, k, lb);
        if let Some(Local::Slot(slot, align)) = self.locals.get(&c.var).copied() {
            let a = self.slot_addr(slot, align);
            self.store_raw(a, iv, false);
        }
    }

    /// The constant `v` is (an `iconst`, or the sign or zero extension of one).
    fn known_i64(&self, v: Value) -> Option<i64> {
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return None;
        };
        match dfg.inst(inst) {
            InstData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(*imm),
            InstData::Unary {
                opcode: op @ (Opcode::Sext | Opcode::Zext),
                arg,
            } => {
                let c = self.known_i64(*arg)?;
                let bits = dfg.value_type(*arg).bits();
                Some(match op {
                    Opcode::Zext if bits < 64 => c & ((1i64 << bits) - 1),
                    _ => c,
                })
            }
            _ => None,
        }
    }

    /// The iteration of a one-dimensional grid: the global thread number `k` and its digits
    /// in the mixed radix of `trips`; covered when the grid has a thread per iteration.
    fn linear_iteration(&mut self, total: Value, trips: &[Value]) -> Parts<'c, 'a, 'f> {
        let (k, threads) = self.who_range(Who::Grid);
        let covered = self.b.ins().icmp(IntCC::Sle, total, threads);
        let trips = trips.to_vec();
        (
            covered,
            Box::new(move |fl| fl.b.ins().icmp(IntCC::Slt, k, total)),
            Box::new(move |_, _| k),
            // every trip count is positive here (their product is): no guard on the divisions
            Box::new(move |fl| fl.mixed_radix_digits(k, &trips)),
        )
    }

    /// The iteration of a grid with a dimension per collapsed loop (`trips`, outermost
    /// first): x over the innermost loop, y and z over the outer ones. Covered when x has a
    /// thread per inner iteration and y and z a block per outer one; a thread has an
    /// iteration when each index is below its trip count (a host count above the kernel's
    /// only idles blocks); its linear number is the digits' value in the radix.
    fn grid_iteration(&mut self, trips: &[Value]) -> Parts<'c, 'a, 'f> {
        let sreg = |fl: &mut Self, r: SpecialReg| {
            let v = fl.b.ins().sreg(r);
            fl.b.ins().zext(Type::I64, v)
        };
        let inner = trips[trips.len() - 1];
        let (c, n, t) = (
            sreg(self, SpecialReg::CtaidX),
            sreg(self, SpecialReg::NtidX),
            sreg(self, SpecialReg::TidX),
        );
        let base = self.b.ins().imul(c, n);
        let x = self.b.ins().iadd(base, t);
        let nc = sreg(self, SpecialReg::NctaidX);
        let width = self.b.ins().imul(nc, n);
        let mut covered = self.b.ins().icmp(IntCC::Sle, inner, width);
        let outer = [
            (SpecialReg::CtaidY, SpecialReg::NctaidY),
            (SpecialReg::CtaidZ, SpecialReg::NctaidZ),
        ];
        // digits innermost first, then reversed to the loops' order
        let mut digits = vec![x];
        for (&trip, (id, count)) in trips.iter().rev().skip(1).zip(outer) {
            let blocks = sreg(self, count);
            let enough = self.b.ins().icmp(IntCC::Sle, trip, blocks);
            covered = self.b.ins().and(covered, enough);
            digits.push(sreg(self, id));
        }
        digits.reverse();
        let (bounds, inside) = (trips.to_vec(), digits.clone());
        let has = move |fl: &mut Self| {
            // x first: the other indices are below their counts but where the host's exceed
            let mut has = fl.b.ins().icmp(IntCC::Slt, x, inner);
            for (&d, &t) in inside.iter().zip(&bounds).rev().skip(1) {
                let below = fl.b.ins().icmp(IntCC::Slt, d, t);
                has = fl.b.ins().and(has, below);
            }
            has
        };
        let trips = trips.to_vec();
        (
            covered,
            Box::new(has),
            Box::new(move |fl, d| fl.mixed_radix_value(d, &trips)),
            Box::new(move |_| digits),
        )
    }

    /// The value of `digits` (outermost first) in the mixed radix `radix`.
    fn mixed_radix_value(&mut self, digits: &[Value], radix: &[Value]) -> Value {
        let mut v = digits[0];
        for (&d, &r) in digits.iter().zip(radix).skip(1) {
            let scaled = self.b.ins().imul(v, r);
            v = self.b.ins().iadd(scaled, d);
        }
        v
    }

    /// Whether the grid may have more than one dimension here: in a one-iteration variant on
    /// a multi-dimensional grid, and in a device function, which any kernel may call.
    fn grid_may_have_rows(&self) -> bool {
        self.cx.one_iteration_grid > 1 || self.par.split == Split::Device
    }

    /// The team's number in the league (`omp_get_team_num`, `i32`): the block's number,
    /// `%ctaid.x` where the grid is one-dimensional, else counted x fastest.
    pub(crate) fn team_num(&mut self) -> Value {
        let x = self.b.ins().sreg(SpecialReg::CtaidX);
        if !self.grid_may_have_rows() {
            return x;
        }
        let s = |fl: &mut Self, r: SpecialReg| fl.b.ins().sreg(r);
        let (y, z, nx, ny) = (
            s(self, SpecialReg::CtaidY),
            s(self, SpecialReg::CtaidZ),
            s(self, SpecialReg::NctaidX),
            s(self, SpecialReg::NctaidY),
        );
        let plane = self.b.ins().imul(z, ny);
        let row = self.b.ins().iadd(plane, y);
        let before = self.b.ins().imul(row, nx);
        self.b.ins().iadd(before, x)
    }

    /// The teams of the league (`omp_get_num_teams`, `i32`): the grid's blocks.
    pub(crate) fn num_teams(&mut self) -> Value {
        let x = self.b.ins().sreg(SpecialReg::NctaidX);
        if !self.grid_may_have_rows() {
            return x;
        }
        let y = self.b.ins().sreg(SpecialReg::NctaidY);
        let z = self.b.ins().sreg(SpecialReg::NctaidZ);
        let yz = self.b.ins().imul(y, z);
        self.b.ins().imul(x, yz)
    }
}

/// How a thread finds its iteration: whether the grid covers the nest (`i1`), then, each
/// emitted where it is needed, whether the thread has an iteration, its linear number
/// (`i64`, from the digits) and the loops' indices (`i64`, outermost first).
type Parts<'c, 'a, 'f> = (
    Value,
    Box<dyn FnOnce(&mut FnLower<'c, 'a, 'f>) -> Value>,
    Box<dyn FnOnce(&mut FnLower<'c, 'a, 'f>, &[Value]) -> Value>,
    Box<dyn FnOnce(&mut FnLower<'c, 'a, 'f>) -> Vec<Value>>,
);
