//! The GNU atomic builtins (`__atomic_*`, `__sync_*`) that `<stdatomic.h>` and real programs
//! use, classified once by name so that the checker (typing) and lowering (code) agree on
//! what each one takes and does.
//!
//! Invariants: [`AtomicBuiltin::from_name`] knows exactly the builtins gcc documents for
//! C (no sized `_1`..`_16` library entry points); [`AtomicBuiltin::params`] lists every
//! parameter in call order, so argument `i` of a call has role `params()[i]` (the `__sync_*`
//! builtins also take any number of trailing arguments, which gcc ignores).

/// A read-modify-write operation of the fetch builtins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    /// `~(old & v)`
    Nand,
}

impl FetchOp {
    const ALL: [(FetchOp, &'static str); 6] = [
        (FetchOp::Add, "add"),
        (FetchOp::Sub, "sub"),
        (FetchOp::And, "and"),
        (FetchOp::Or, "or"),
        (FetchOp::Xor, "xor"),
        (FetchOp::Nand, "nand"),
    ];
}

/// One GNU atomic builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicBuiltin {
    /// `__atomic_load_n(p, order)` -> T; `__atomic_load(p, ret, order)` (`generic`).
    Load { generic: bool },
    /// `__atomic_store_n(p, v, order)`; `__atomic_store(p, &v, order)` (`generic`).
    Store { generic: bool },
    /// `__atomic_exchange_n(p, v, order)` -> T; `__atomic_exchange(p, &v, ret, order)`.
    Exchange { generic: bool },
    /// `__atomic_compare_exchange_n(p, &expected, desired, weak, success, failure)` -> bool;
    /// the generic form takes `&desired`. On failure `expected` receives the current value.
    CompareExchange { generic: bool },
    /// `__atomic_fetch_OP(p, v, order)` (old value) and `__atomic_OP_fetch` (`new`: the
    /// result), `__sync_fetch_and_OP(p, v, ...)` and `__sync_OP_and_fetch` (`sync`: seq_cst).
    Fetch { op: FetchOp, new: bool, sync: bool },
    /// `__atomic_test_and_set(p, order)` -> bool: sets the byte at `p`, returns whether it
    /// was set.
    TestAndSet,
    /// `__atomic_clear(p, order)`: stores a zero byte.
    Clear,
    /// `__atomic_thread_fence(order)`
    ThreadFence,
    /// `__atomic_signal_fence(order)`: orders only against a signal handler of the same
    /// thread, so it is a compiler barrier.
    SignalFence,
    /// `__atomic_always_lock_free(size, p)` -> bool, a constant.
    AlwaysLockFree,
    /// `__atomic_is_lock_free(size, p)` -> bool.
    IsLockFree,
    /// `__sync_val_compare_and_swap(p, old, new, ...)` -> T (`value`) and
    /// `__sync_bool_compare_and_swap` -> bool.
    SyncCas { value: bool },
    /// `__sync_lock_test_and_set(p, v, ...)` -> T: an acquire exchange.
    SyncLockTestAndSet,
    /// `__sync_lock_release(p, ...)`: a release store of 0.
    SyncLockRelease,
    /// `__sync_synchronize()`: a full fence.
    SyncSynchronize,
}

/// What an argument of an atomic builtin is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// The pointer to the atomic object (type `T *`).
    Object,
    /// A value converted to `T` (for pointer `T` in the fetch builtins, an integer byte count).
    Value,
    /// A `T *` other than the object (`ret`, `&v`, `&expected`, `&desired`).
    ValuePtr,
    /// A memory order (`int`; `__ATOMIC_RELAXED` = 0 .. `__ATOMIC_SEQ_CST` = 5).
    Order,
    /// The `weak` flag of compare_exchange.
    Weak,
    /// A pointer to any object (test_and_set, clear, the lock-free queries).
    AnyPtr,
    /// A size in bytes (the lock-free queries).
    Size,
}

/// The C11 memory orders, numbered as gcc's `__ATOMIC_*` macros.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MemOrder {
    Relaxed = 0,
    Consume = 1,
    Acquire = 2,
    Release = 3,
    AcqRel = 4,
    SeqCst = 5,
}

impl MemOrder {
    /// The order a constant argument names; gcc treats values it does not know as seq_cst.
    pub fn from_value(v: i128) -> MemOrder {
        match v & 0xffff {
            0 => MemOrder::Relaxed,
            1 => MemOrder::Consume,
            2 => MemOrder::Acquire,
            3 => MemOrder::Release,
            4 => MemOrder::AcqRel,
            _ => MemOrder::SeqCst,
        }
    }

    /// Whether a load may carry this order (C11 7.17.7.2: not release or acq_rel).
    pub fn valid_for_load(self) -> bool {
        !matches!(self, MemOrder::Release | MemOrder::AcqRel)
    }

    /// Whether a store may carry this order (not consume, acquire or acq_rel).
    pub fn valid_for_store(self) -> bool {
        matches!(
            self,
            MemOrder::Relaxed | MemOrder::Release | MemOrder::SeqCst
        )
    }
}

impl AtomicBuiltin {
    /// The builtin called `name`, if it is one.
    pub fn from_name(name: &str) -> Option<AtomicBuiltin> {
        use AtomicBuiltin as A;
        if let Some(rest) = name.strip_prefix("__atomic_") {
            return Some(match rest {
                "load_n" => A::Load { generic: false },
                "load" => A::Load { generic: true },
                "store_n" => A::Store { generic: false },
                "store" => A::Store { generic: true },
                "exchange_n" => A::Exchange { generic: false },
                "exchange" => A::Exchange { generic: true },
                "compare_exchange_n" => A::CompareExchange { generic: false },
                "compare_exchange" => A::CompareExchange { generic: true },
                "test_and_set" => A::TestAndSet,
                "clear" => A::Clear,
                "thread_fence" => A::ThreadFence,
                "signal_fence" => A::SignalFence,
                "always_lock_free" => A::AlwaysLockFree,
                "is_lock_free" => A::IsLockFree,
                _ => {
                    let (op, new) = if let Some(op) = rest.strip_prefix("fetch_") {
                        (op, false)
                    } else {
                        (rest.strip_suffix("_fetch")?, true)
                    };
                    let op = FetchOp::ALL.iter().find(|(_, n)| *n == op)?.0;
                    A::Fetch {
                        op,
                        new,
                        sync: false,
                    }
                }
            });
        }
        let rest = name.strip_prefix("__sync_")?;
        Some(match rest {
            "val_compare_and_swap" => A::SyncCas { value: true },
            "bool_compare_and_swap" => A::SyncCas { value: false },
            "lock_test_and_set" => A::SyncLockTestAndSet,
            "lock_release" => A::SyncLockRelease,
            "synchronize" => A::SyncSynchronize,
            _ => {
                let (op, new) = if let Some(op) = rest.strip_prefix("fetch_and_") {
                    (op, false)
                } else {
                    (rest.strip_suffix("_and_fetch")?, true)
                };
                let op = FetchOp::ALL.iter().find(|(_, n)| *n == op)?.0;
                A::Fetch {
                    op,
                    new,
                    sync: true,
                }
            }
        })
    }

    /// The parameters, in order.
    pub fn params(self) -> &'static [Param] {
        use AtomicBuiltin as A;
        use Param as P;
        match self {
            A::Load { generic: false } => &[P::Object, P::Order],
            A::Load { generic: true } => &[P::Object, P::ValuePtr, P::Order],
            A::Store { generic: false } | A::Exchange { generic: false } => {
                &[P::Object, P::Value, P::Order]
            }
            A::Store { generic: true } => &[P::Object, P::ValuePtr, P::Order],
            A::Exchange { generic: true } => &[P::Object, P::ValuePtr, P::ValuePtr, P::Order],
            A::CompareExchange { generic: false } => &[
                P::Object,
                P::ValuePtr,
                P::Value,
                P::Weak,
                P::Order,
                P::Order,
            ],
            A::CompareExchange { generic: true } => &[
                P::Object,
                P::ValuePtr,
                P::ValuePtr,
                P::Weak,
                P::Order,
                P::Order,
            ],
            A::Fetch { sync: false, .. } => &[P::Object, P::Value, P::Order],
            A::Fetch { sync: true, .. } | A::SyncLockTestAndSet => &[P::Object, P::Value],
            A::TestAndSet | A::Clear => &[P::AnyPtr, P::Order],
            A::ThreadFence | A::SignalFence => &[P::Order],
            A::AlwaysLockFree | A::IsLockFree => &[P::Size, P::AnyPtr],
            A::SyncCas { .. } => &[P::Object, P::Value, P::Value],
            A::SyncLockRelease => &[P::Object],
            A::SyncSynchronize => &[],
        }
    }

    /// Whether calls may pass more arguments than [`params`](Self::params) lists (the
    /// `__sync_*` builtins, whose extra arguments gcc ignores).
    pub fn variadic(self) -> bool {
        matches!(
            self,
            AtomicBuiltin::Fetch { sync: true, .. }
                | AtomicBuiltin::SyncCas { .. }
                | AtomicBuiltin::SyncLockTestAndSet
                | AtomicBuiltin::SyncLockRelease
                | AtomicBuiltin::SyncSynchronize
        )
    }

    /// Whether the object may be of any type (the generic forms, which move bytes), rather
    /// than an integer or pointer of 1, 2, 4, 8 or 16 bytes.
    pub fn any_type(self) -> bool {
        matches!(
            self,
            AtomicBuiltin::Load { generic: true }
                | AtomicBuiltin::Store { generic: true }
                | AtomicBuiltin::Exchange { generic: true }
                | AtomicBuiltin::CompareExchange { generic: true }
        )
    }
}

/// Whether an object of `size` bytes is always lock-free on the target (x86-64 and NVIDIA
/// GPUs agree: 1, 2, 4 and 8 bytes).
pub fn always_lock_free(size: u64) -> bool {
    matches!(size, 1 | 2 | 4 | 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            AtomicBuiltin::from_name("__atomic_add_fetch"),
            Some(AtomicBuiltin::Fetch {
                op: FetchOp::Add,
                new: true,
                sync: false
            })
        );
        assert_eq!(
            AtomicBuiltin::from_name("__sync_fetch_and_nand"),
            Some(AtomicBuiltin::Fetch {
                op: FetchOp::Nand,
                new: false,
                sync: true
            })
        );
        assert_eq!(
            AtomicBuiltin::from_name("__atomic_compare_exchange"),
            Some(AtomicBuiltin::CompareExchange { generic: true })
        );
        for bad in [
            "__atomic_fetch_min",
            "__atomic_load_4",
            "__sync_fetch_and_",
            "__atomic_",
            "atomic_load",
        ] {
            assert_eq!(AtomicBuiltin::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn orders() {
        assert_eq!(MemOrder::from_value(2), MemOrder::Acquire);
        assert_eq!(MemOrder::from_value(99), MemOrder::SeqCst);
        // gcc's HLE bits above the low 16 do not change the order
        assert_eq!(MemOrder::from_value(0x10000 | 3), MemOrder::Release);
        assert!(!MemOrder::Release.valid_for_load());
        assert!(!MemOrder::Acquire.valid_for_store());
    }
}
