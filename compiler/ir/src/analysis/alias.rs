//! Alias analysis: whether two memory accesses can touch the same bytes.
//!
//! An address is decomposed into a root and a byte offset by walking back through
//! `ptr_offset` (constant offsets add up; a variable offset makes the offset unknown but keeps
//! the root) and `addrspacecast`. A root's underlying object is a stack slot (`stack_addr`), a
//! module global (`global_addr`, by name), an entry parameter, or unknown (loaded pointers,
//! call results, block parameters, `inttoptr`).
//!
//! Two accesses do not alias (`NoAlias`) when, in this order:
//! 1. they name two different specific address spaces (a `generic` access, through a
//!    generic pointer, may reach any of them);
//! 2. they have the same root and known offsets whose byte ranges are disjoint;
//! 3. their objects are two different stack slots or globals, or a global and a stack slot;
//! 4. one is a stack slot whose address never escapes (is only used as the address of loads
//!    and stores, through offsets and casts) and the other any other root;
//! 5. one is a `noalias` parameter (C `restrict`, or kernel parameters declared not to
//!    overlap) and the other another parameter, a global or a stack slot.
//!
//! Same root, same known offset and same size is `MustAlias`; everything else `MayAlias`.
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

/// An address as root + offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decomposed {
    /// The value the address is derived from.
    pub root: Value,
    /// Constant byte offset from the root, when known.
    pub offset: Option<i64>,
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

    /// Root and constant offset of `addr`.
    pub fn decompose(&self, func: &Function, addr: Value) -> Decomposed {
        let mut v = addr;
        let mut offset = Some(0i64);
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
                } => {
                    offset = match (offset, crate::analysis::scev::const_of(func, args[1])) {
                        (Some(o), Some(c)) => o.checked_add(c),
                        _ => None,
                    };
                    v = args[0];
                }
                InstData::Unary {
                    opcode: Opcode::Addrspacecast,
                    arg,
                } => v = *arg,
                _ => break,
            }
        }
        Decomposed { root: v, offset }
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
            return match (da.offset, db.offset) {
                (Some(x), Some(y)) => {
                    if x == y && a.size == b.size {
                        AliasResult::MustAlias
                    } else if x + i64::from(a.size) <= y || y + i64::from(b.size) <= x {
                        AliasResult::NoAlias
                    } else {
                        AliasResult::MayAlias
                    }
                }
                _ => AliasResult::MayAlias,
            };
        }
        let (oa, ob) = (self.object(func, da.root), self.object(func, db.root));
        if self.distinct(func, &oa, &ob) || self.distinct(func, &ob, &oa) {
            AliasResult::NoAlias
        } else {
            AliasResult::MayAlias
        }
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
