//! Alias analysis: whether two memory accesses can touch the same bytes.
//!
//! An address is decomposed into a root and a byte offset by walking back through
//! `ptr_offset` and `addrspacecast`; the offset is a linear expression over `i64` values
//! (through `iadd`, `isub`, and `imul`/`shl` by constants), exact modulo 2^64. A root's underlying object is a stack slot (`stack_addr`), a
//! module global (`global_addr`, by name), an entry parameter, or unknown (loaded pointers,
//! call results, block parameters, `inttoptr`).
//!
//! Two accesses do not alias (`NoAlias`) when, in this order:
//! 1. they name two different specific address spaces (a `generic` access, through a
//!    generic pointer, may reach any of them);
//! 2. they have the same root and offsets with the same variable part whose constant parts
//!    put the byte ranges apart (base+offset disambiguation: `a[i]` and `a[i + 1]` when the
//!    index arithmetic is 64-bit);
//! 3. their objects are two different stack slots or globals, or a global and a stack slot;
//! 4. one is a stack slot whose address never escapes (is only used as the address of loads
//!    and stores, through offsets and casts) and the other any other root;
//! 5. one is a `noalias` parameter (C `restrict`, or kernel parameters declared not to
//!    overlap) and the other another parameter, a global or a stack slot.
//!
//! Same root, same offset and same size is `MustAlias`; everything else `MayAlias`.
//! `alias` compares two accesses as executed with the same values (one thread, one iteration);
//! `never_overlap` answers for every execution of both instructions (any thread, any
//! iteration), so it ignores offsets and uses only rules 1, 3, 4 and 5.
//! Results are valid while the function's instructions are unchanged.

use crate::dfg::ValueDef;
use crate::entities::{Block, StackSlot, Value};
use crate::function::Function;
use crate::instructions::{InstData, Opcode};
use crate::types::AddrSpace;
use cranelift_entity::SecondaryMap;

/// The answer to an alias query.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AliasResult {
    /// The accesses never overlap.
    NoAlias,
    /// They may overlap.
    MayAlias,
    /// They access exactly the same bytes.
    MustAlias,
}

/// The object an address points into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Object {
    /// A stack slot.
    Slot(StackSlot),
    /// A module global, by name.
    Global(String),
    /// Entry parameter `n`.
    Param(usize),
    /// Anything else.
    Unknown,
}

/// An address as root + a linear byte offset `sum(scale * value) + konst`, exact modulo 2^64
/// (pointer arithmetic and `i64` arithmetic both wrap there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decomposed {
    /// The value the address is derived from.
    pub root: Value,
    /// Variable terms `(value, scale)`, sorted by value, scales non-zero.
    pub terms: Vec<(Value, i64)>,
    /// The constant part.
    pub konst: i64,
}

impl Decomposed {
    /// The constant offset from the root, when the offset has no variable term.
    pub fn offset(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.konst)
    }
}

/// A linear `i64` expression under construction.
#[derive(Default)]
struct Linear {
    terms: Vec<(Value, i64)>,
    konst: i64,
}

impl Linear {
    fn add(&mut self, other: Linear, sign: i64) {
        self.konst = self.konst.wrapping_add(other.konst.wrapping_mul(sign));
        for (v, k) in other.terms {
            self.add_term(v, k.wrapping_mul(sign));
        }
    }

    fn add_term(&mut self, v: Value, k: i64) {
        match self.terms.iter_mut().find(|t| t.0 == v) {
            Some(t) => t.1 = t.1.wrapping_add(k),
            None => self.terms.push((v, k)),
        }
        self.terms.retain(|t| t.1 != 0);
    }

    fn scale(&mut self, k: i64) {
        self.konst = self.konst.wrapping_mul(k);
        for t in &mut self.terms {
            t.1 = t.1.wrapping_mul(k);
        }
        self.terms.retain(|t| t.1 != 0);
    }
}

/// `v` (an `i64` offset) as a linear expression, looking through `iadd`, `isub`, and `imul`
/// / `shl` by constants, to a small depth.
fn linear(func: &Function, v: Value, depth: u32) -> Linear {
    let leaf = || Linear {
        terms: vec![(v, 1)],
        konst: 0,
    };
    if let Some(c) = crate::analysis::scev::const_of(func, v) {
        return Linear {
            terms: Vec::new(),
            konst: c,
        };
    }
    if depth == 0 || func.dfg.value_type(v) != crate::types::Type::I64 {
        return leaf();
    }
    let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
        return leaf();
    };
    let InstData::Binary { opcode, args, .. } = func.dfg.inst(inst) else {
        return leaf();
    };
    let c1 = crate::analysis::scev::const_of(func, args[1]);
    match opcode {
        Opcode::Iadd | Opcode::Isub => {
            let mut l = linear(func, args[0], depth - 1);
            let sign = if *opcode == Opcode::Iadd { 1 } else { -1 };
            l.add(linear(func, args[1], depth - 1), sign);
            l
        }
        Opcode::Imul if c1.is_some() => {
            let mut l = linear(func, args[0], depth - 1);
            l.scale(c1.unwrap_or(1));
            l
        }
        Opcode::Shl if c1.is_some_and(|c| (0..64).contains(&c)) => {
            let mut l = linear(func, args[0], depth - 1);
            l.scale(1i64.wrapping_shl(c1.unwrap_or(0) as u32));
            l
        }
        _ => leaf(),
    }
}

/// A memory access: address, size in bytes and the space the instruction names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The address operand.
    pub addr: Value,
    /// Bytes accessed.
    pub size: u32,
    /// The space the instruction names (`generic` when it goes through a generic pointer).
    pub space: AddrSpace,
}

/// Alias facts of one function.
#[derive(Clone, Debug, Default)]
pub struct AliasAnalysis {
    escaped: SecondaryMap<StackSlot, bool>,
    entry: Option<Block>,
}

impl AliasAnalysis {
    /// Computes which stack slots escape.
    pub fn compute(func: &Function) -> AliasAnalysis {
        let mut aa = AliasAnalysis {
            escaped: SecondaryMap::new(),
            entry: func.layout.entry_block(),
        };
        for inst in func.layout.all_insts() {
            let data = func.dfg.inst(inst);
            // Operands used as something other than an address (or to derive one).
            let escaping: Vec<Value> = match data {
                InstData::Load { .. } => Vec::new(),
                InstData::Store { args, .. } => vec![args[0]],
                InstData::Binary {
                    opcode: Opcode::PtrOffset,
                    ..
                } => Vec::new(),
                InstData::Unary {
                    opcode: Opcode::Addrspacecast,
                    ..
                } => Vec::new(),
                _ => func.dfg.inst_uses(inst),
            };
            for v in escaping {
                if func.dfg.value_type(v).is_ptr()
                    && let Object::Slot(s) = aa.object(func, aa.decompose(func, v).root)
                {
                    aa.escaped[s] = true;
                }
            }
        }
        aa
    }

    /// Whether the address of `slot` may be known outside loads and stores through it.
    pub fn slot_escapes(&self, slot: StackSlot) -> bool {
        self.escaped[slot]
    }

    /// Root and linear offset of `addr`.
    pub fn decompose(&self, func: &Function, addr: Value) -> Decomposed {
        let mut v = addr;
        let mut off = Linear::default();
        // Bounded walk: chains are finite in valid IR; the bound guards against cycles
        // through unreachable code.
        for _ in 0..64 {
            let ValueDef::Result(inst, 0) = func.dfg.value_def(v) else {
                break;
            };
            match func.dfg.inst(inst) {
                InstData::Binary {
                    opcode: Opcode::PtrOffset,
                    args,
                    ..
                } => {
                    off.add(linear(func, args[1], 6), 1);
                    v = args[0];
                }
                InstData::Unary {
                    opcode: Opcode::Addrspacecast,
                    arg,
                } => v = *arg,
                _ => break,
            }
        }
        off.terms.sort();
        Decomposed {
            root: v,
            terms: off.terms,
            konst: off.konst,
        }
    }

    /// The object `root` points into.
    pub fn object(&self, func: &Function, root: Value) -> Object {
        match func.dfg.value_def(root) {
            ValueDef::Result(inst, 0) => match func.dfg.inst(inst) {
                InstData::StackAddr { slot } => Object::Slot(*slot),
                InstData::GlobalAddr { global } => func
                    .dfg
                    .globals
                    .get(*global)
                    .map_or(Object::Unknown, |g| Object::Global(g.name.clone())),
                _ => Object::Unknown,
            },
            ValueDef::Param(b, n) if Some(b) == self.entry => Object::Param(n),
            _ => Object::Unknown,
        }
    }

    /// The space an access really touches: the instruction's, or its pointer's when the
    /// instruction says `generic`.
    fn space_of(func: &Function, a: &Access) -> AddrSpace {
        match a.space {
            AddrSpace::Generic => func
                .dfg
                .value_type(a.addr)
                .addr_space()
                .unwrap_or(AddrSpace::Generic),
            s => s,
        }
    }

    /// Whether `a` and `b` may access the same bytes.
    pub fn alias(&self, func: &Function, a: &Access, b: &Access) -> AliasResult {
        let (sa, sb) = (Self::space_of(func, a), Self::space_of(func, b));
        if sa != AddrSpace::Generic && sb != AddrSpace::Generic && sa != sb {
            return AliasResult::NoAlias;
        }
        let (da, db) = (self.decompose(func, a.addr), self.decompose(func, b.addr));
        if da.root == db.root {
            if da.terms != db.terms {
                return AliasResult::MayAlias;
            }
            // Same variable part: the constant parts decide, modulo 2^64.
            let d = db.konst.wrapping_sub(da.konst) as u64;
            return if d == 0 && a.size == b.size {
                AliasResult::MustAlias
            } else if d >= u64::from(a.size) && d.wrapping_neg() >= u64::from(b.size) {
                AliasResult::NoAlias
            } else {
                AliasResult::MayAlias
            };
        }
        let (oa, ob) = (self.object(func, da.root), self.object(func, db.root));
        if self.distinct(func, &oa, &ob) || self.distinct(func, &ob, &oa) {
            AliasResult::NoAlias
        } else {
            AliasResult::MayAlias
        }
    }

    /// Whether `a` and `b` can never touch the same bytes, in any execution of either (every
    /// thread of a kernel, every loop iteration): they name different specific spaces or point
    /// into disjoint objects. Offsets are ignored: `a[i]` and `a[i + 1]` overlap across
    /// iterations.
    pub fn never_overlap(&self, func: &Function, a: &Access, b: &Access) -> bool {
        let (sa, sb) = (Self::space_of(func, a), Self::space_of(func, b));
        if sa != AddrSpace::Generic && sb != AddrSpace::Generic && sa != sb {
            return true;
        }
        let (ra, rb) = (
            self.decompose(func, a.addr).root,
            self.decompose(func, b.addr).root,
        );
        if ra == rb {
            return false;
        }
        let (oa, ob) = (self.object(func, ra), self.object(func, rb));
        self.distinct(func, &oa, &ob) || self.distinct(func, &ob, &oa)
    }

    /// Whether objects `a` and `b` (of different roots) are known to be disjoint.
    fn distinct(&self, func: &Function, a: &Object, b: &Object) -> bool {
        match (a, b) {
            (Object::Slot(x), Object::Slot(y)) => x != y || !self.escaped[*x],
            (Object::Global(x), Object::Global(y)) => x != y,
            (Object::Global(_), Object::Slot(_)) => true,
            (Object::Slot(x), _) => !self.escaped[*x],
            // Different roots, so a second parameter is another one.
            (Object::Param(i), Object::Param(_) | Object::Global(_) | Object::Slot(_)) => {
                func.attrs.is_noalias(*i)
            }
            _ => false,
        }
    }

    /// The access a load or store instruction makes.
    pub fn access_of(func: &Function, inst: crate::entities::Inst) -> Option<Access> {
        match func.dfg.inst(inst) {
            InstData::Load { space, arg, .. } => {
                let ty = func.dfg.value_type(func.dfg.first_result(inst)?);
                Some(Access {
                    addr: *arg,
                    size: ty.bytes(),
                    space: *space,
                })
            }
            InstData::Store { space, args, .. } => Some(Access {
                addr: args[1],
                size: func.dfg.value_type(args[0]).bytes(),
                space: *space,
            }),
            _ => None,
        }
    }
}
