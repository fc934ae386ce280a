//! The OpenMP lock API on the device (OpenMP 5.2 section 18.9): `omp_init_lock`,
//! `omp_init_lock_with_hint`, `omp_destroy_lock`, `omp_set_lock`, `omp_unset_lock`,
//! `omp_test_lock` and their `_nest_` variants, lowered inline next to the rest of the device
//! API (`kernel::omp_api`).
//!
//! Layout (inside gcc's `omp_lock_t`, 4 bytes, and `omp_nest_lock_t`, 16 bytes aligned to 8):
//! word 0 is the lock, 0 when free and 1 when held; a nest lock also keeps its nesting count
//! at offset 4 (`i32`) and its owner at offset 8 (`i64`: 0 for none, else the owning hardware
//! thread's grid-wide index plus one, which names the (team, thread) pair uniquely).
//!
//! Invariants:
//! - the lock word changes only by `atomic_cas` (taking) and `atomic_rmw xchg` (releasing);
//!   a fence follows every successful take and precedes every release, so the protected
//!   accesses happen between an acquire and a release (PTX memory model: fence + morally
//!   strong atomic synchronizes);
//! - the count and owner of a nest lock are written only by the thread holding it, and read
//!   with volatile loads; a thread compares the owner only with its own id, which no other
//!   thread writes, so a stale value can never make it believe it owns the lock;
//! - waiting is a spin on the compare-and-swap. Lanes of one warp that contend make progress
//!   under independent thread scheduling (sm_70+, the targets ompcc emits for) and on the
//!   emulator, which gives divergent lane groups time slices.

use crate::expr::Rv;
use crate::func::FnLower;
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{AddrSpace, AtomicRmwOp, IntCC, MemFlags, Scope, SpecialReg, Type, Value};
use ompcc_sema::ExprInfo;
use ompcc_syntax::ast::Expr;

/// Byte offsets inside a nest lock.
const COUNT: i64 = 4;
const OWNER: i64 = 8;

fn vol(align: u32) -> MemFlags {
    MemFlags {
        align,
        volatile: true,
        readonly: false,
    }
}

impl<'a> FnLower<'_, 'a, '_> {
    /// A call of the lock API; `None` when `name` is not one of its functions.
    pub(crate) fn omp_lock(
        &mut self,
        name: &str,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Rv>> {
        let (op, nest) = match name {
            "omp_init_lock" | "omp_init_lock_with_hint" => ("init", false),
            "omp_init_nest_lock" | "omp_init_nest_lock_with_hint" => ("init", true),
            "omp_destroy_lock" => ("destroy", false),
            "omp_destroy_nest_lock" => ("destroy", true),
            "omp_set_lock" => ("set", false),
            "omp_set_nest_lock" => ("set", true),
            "omp_unset_lock" => ("unset", false),
            "omp_unset_nest_lock" => ("unset", true),
            "omp_test_lock" => ("test", false),
            "omp_test_nest_lock" => ("test", true),
            _ => return None,
        };
        let Some(p) = args.first() else {
            self.unsupported(format!("'{name}' needs a lock argument"), span);
            return Some(None);
        };
        let Some(lock) = self.scalar(p) else {
            return Some(None);
        };
        // the hint of `omp_init_lock_with_hint` changes nothing here
        for a in &args[1..] {
            self.effect(a);
        }
        let r = match (op, nest) {
            ("init", false) => {
                let z = self.b.ins().iconst(Type::I32, 0);
                self.b.ins().store(AddrSpace::Generic, vol(4), z, lock);
                None
            }
            ("init", true) => {
                let z = self.b.ins().iconst(Type::I32, 0);
                self.b.ins().store(AddrSpace::Generic, vol(4), z, lock);
                let c = self.lock_field(lock, COUNT);
                self.b.ins().store(AddrSpace::Generic, vol(4), z, c);
                let z64 = self.b.ins().iconst(Type::I64, 0);
                let o = self.lock_field(lock, OWNER);
                self.b.ins().store(AddrSpace::Generic, vol(8), z64, o);
                None
            }
            ("destroy", _) => None,
            ("set", false) => {
                self.spin_take(lock);
                None
            }
            ("unset", false) => {
                self.release(lock);
                None
            }
            ("test", false) => {
                let got = self.try_take(lock);
                Some(self.b.ins().zext(Type::I32, got))
            }
            ("set", true) => {
                self.set_nest(lock);
                None
            }
            ("unset", true) => {
                self.unset_nest(lock);
                None
            }
            _ => Some(self.test_nest(lock)),
        };
        Some(Some(match r {
            None => Rv::Void,
            Some(v) => {
                let want = self.class(info.ty, span).unwrap_or(Scalar::INT);
                Rv::S(self.convert(v, Scalar::INT, want))
            }
        }))
    }

    fn lock_field(&mut self, lock: Value, off: i64) -> Value {
        let k = self.b.ins().iconst(Type::I64, off);
        self.b.ins().ptr_offset(lock, k)
    }

    /// One attempt to take the lock word: an `i1`, true when taken (then acquired).
    fn try_take(&mut self, lock: Value) -> Value {
        let z = self.b.ins().iconst(Type::I32, 0);
        let one = self.b.ins().iconst(Type::I32, 1);
        let prev = self
            .b
            .ins()
            .atomic_cas(AddrSpace::Generic, Scope::Gpu, lock, z, one);
        self.b.ins().fence(Scope::Gpu);
        self.b.ins().icmp(IntCC::Eq, prev, z)
    }

    /// Spins until the lock word is taken.
    fn spin_take(&mut self, lock: Value) {
        let spin = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().jump(spin, &[]);
        self.b.switch_to_block(spin);
        let z = self.b.ins().iconst(Type::I32, 0);
        let one = self.b.ins().iconst(Type::I32, 1);
        let prev = self
            .b
            .ins()
            .atomic_cas(AddrSpace::Generic, Scope::Gpu, lock, z, one);
        let got = self.b.ins().icmp(IntCC::Eq, prev, z);
        self.b.ins().brif(got, done, &[], spin, &[]);
        self.b.switch_to_block(done);
        self.b.ins().fence(Scope::Gpu);
    }

    /// Releases the lock word.
    fn release(&mut self, lock: Value) {
        self.b.ins().fence(Scope::Gpu);
        let z = self.b.ins().iconst(Type::I32, 0);
        self.b
            .ins()
            .atomic_rmw(AtomicRmwOp::Xchg, AddrSpace::Generic, Scope::Gpu, lock, z);
    }

    /// This thread's owner id: its grid-wide index plus one (`i64`).
    fn owner_id(&mut self) -> Value {
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let ctaid = self.team_num();
        let [tid, ntid, ctaid] = [tid, ntid, ctaid].map(|v| self.b.ins().zext(Type::I64, v));
        let base = self.b.ins().imul(ctaid, ntid);
        let idx = self.b.ins().iadd(base, tid);
        let one = self.b.ins().iconst(Type::I64, 1);
        self.b.ins().iadd(idx, one)
    }

    /// Whether this thread owns the nest lock (`i1`), and its id.
    fn owns(&mut self, lock: Value) -> (Value, Value) {
        let me = self.owner_id();
        let op = self.lock_field(lock, OWNER);
        let owner = self.b.ins().load(Type::I64, AddrSpace::Generic, vol(8), op);
        (self.b.ins().icmp(IntCC::Eq, owner, me), me)
    }

    /// After taking a nest lock's word: owner = me, count = 1.
    fn claim(&mut self, lock: Value, me: Value) {
        let op = self.lock_field(lock, OWNER);
        self.b.ins().store(AddrSpace::Generic, vol(8), me, op);
        let one = self.b.ins().iconst(Type::I32, 1);
        let cp = self.lock_field(lock, COUNT);
        self.b.ins().store(AddrSpace::Generic, vol(4), one, cp);
    }

    /// count + 1 (the owner only); returns the new count.
    fn bump(&mut self, lock: Value) -> Value {
        let cp = self.lock_field(lock, COUNT);
        let c = self.b.ins().load(Type::I32, AddrSpace::Generic, vol(4), cp);
        let one = self.b.ins().iconst(Type::I32, 1);
        let c1 = self.b.ins().iadd(c, one);
        self.b.ins().store(AddrSpace::Generic, vol(4), c1, cp);
        c1
    }

    fn set_nest(&mut self, lock: Value) {
        let (mine, me) = self.owns(lock);
        let again = self.b.create_block();
        let take = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(mine, again, &[], take, &[]);
        self.b.switch_to_block(again);
        self.bump(lock);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(take);
        self.spin_take(lock);
        self.claim(lock, me);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    fn unset_nest(&mut self, lock: Value) {
        let cp = self.lock_field(lock, COUNT);
        let c = self.b.ins().load(Type::I32, AddrSpace::Generic, vol(4), cp);
        let one = self.b.ins().iconst(Type::I32, 1);
        let c1 = self.b.ins().isub(c, one);
        self.b.ins().store(AddrSpace::Generic, vol(4), c1, cp);
        let z = self.b.ins().iconst(Type::I32, 0);
        let last = self.b.ins().icmp(IntCC::Eq, c1, z);
        let free = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(last, free, &[], done, &[]);
        self.b.switch_to_block(free);
        let z64 = self.b.ins().iconst(Type::I64, 0);
        let op = self.lock_field(lock, OWNER);
        self.b.ins().store(AddrSpace::Generic, vol(8), z64, op);
        self.release(lock);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// `omp_test_nest_lock`: the new nesting count, or 0 when another thread holds it.
    fn test_nest(&mut self, lock: Value) -> Value {
        let (mine, me) = self.owns(lock);
        let again = self.b.create_block();
        let try_ = self.b.create_block();
        let got = self.b.create_block();
        let done = self.b.create_block();
        let res = self.b.append_block_param(done, Type::I32);
        self.b.ins().brif(mine, again, &[], try_, &[]);
        self.b.switch_to_block(again);
        let c = self.bump(lock);
        self.b.ins().jump(done, &[c]);
        self.b.switch_to_block(try_);
        let ok = self.try_take(lock);
        let z = self.b.ins().iconst(Type::I32, 0);
        self.b.ins().brif(ok, got, &[], done, &[z]);
        self.b.switch_to_block(got);
        self.claim(lock, me);
        let one = self.b.ins().iconst(Type::I32, 1);
        self.b.ins().jump(done, &[one]);
        self.b.switch_to_block(done);
        res
    }
}
