//! The order of blocks in a function and of instructions in each block.
//!
//! Doubly linked lists threaded through `SecondaryMap`s, so inserting, removing and moving a
//! block or an instruction is O(1) and never touches the data-flow graph. Invariants: a block is
//! in the list iff `is_block_inserted`; an instruction is in at most one block and
//! `inst_block` names it; the first block in the list is the entry block.

use crate::entities::{Block, Inst};
use cranelift_entity::SecondaryMap;
use cranelift_entity::packed_option::PackedOption;

#[derive(Clone, Debug, Default)]
struct BlockNode {
    prev: PackedOption<Block>,
    next: PackedOption<Block>,
    first_inst: PackedOption<Inst>,
    last_inst: PackedOption<Inst>,
    inserted: bool,
}

#[derive(Clone, Debug, Default)]
struct InstNode {
    block: PackedOption<Block>,
    prev: PackedOption<Inst>,
    next: PackedOption<Inst>,
}

/// Block and instruction order.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    blocks: SecondaryMap<Block, BlockNode>,
    insts: SecondaryMap<Inst, InstNode>,
    first_block: PackedOption<Block>,
    last_block: PackedOption<Block>,
}

impl Layout {
    /// An empty layout.
    pub fn new() -> Layout {
        Layout::default()
    }

    /// The entry block (first in order).
    pub fn entry_block(&self) -> Option<Block> {
        self.first_block.expand()
    }

    /// The last block in order.
    pub fn last_block(&self) -> Option<Block> {
        self.last_block.expand()
    }

    /// Whether `block` is in the layout.
    pub fn is_block_inserted(&self, block: Block) -> bool {
        self.blocks[block].inserted
    }

    /// Appends `block` (not yet inserted) at the end.
    pub fn append_block(&mut self, block: Block) {
        debug_assert!(!self.is_block_inserted(block));
        let prev = self.last_block;
        {
            let n = &mut self.blocks[block];
            n.inserted = true;
            n.prev = prev;
            n.next = None.into();
        }
        match prev.expand() {
            Some(p) => self.blocks[p].next = block.into(),
            None => self.first_block = block.into(),
        }
        self.last_block = block.into();
    }

    /// Inserts `block` (not yet inserted) just before `before`.
    pub fn insert_block_before(&mut self, block: Block, before: Block) {
        debug_assert!(!self.is_block_inserted(block) && self.is_block_inserted(before));
        let prev = self.blocks[before].prev;
        {
            let n = &mut self.blocks[block];
            n.inserted = true;
            n.prev = prev;
            n.next = before.into();
        }
        self.blocks[before].prev = block.into();
        match prev.expand() {
            Some(p) => self.blocks[p].next = block.into(),
            None => self.first_block = block.into(),
        }
    }

    /// Inserts `block` (not yet inserted) just after `after`.
    pub fn insert_block_after(&mut self, block: Block, after: Block) {
        debug_assert!(!self.is_block_inserted(block) && self.is_block_inserted(after));
        let next = self.blocks[after].next;
        {
            let n = &mut self.blocks[block];
            n.inserted = true;
            n.prev = after.into();
            n.next = next;
        }
        self.blocks[after].next = block.into();
        match next.expand() {
            Some(nx) => self.blocks[nx].prev = block.into(),
            None => self.last_block = block.into(),
        }
    }

    /// Removes `block` and all its instructions from the layout.
    pub fn remove_block(&mut self, block: Block) {
        if !self.is_block_inserted(block) {
            return;
        }
        while let Some(inst) = self.first_inst(block) {
            self.remove_inst(inst);
        }
        let (prev, next) = {
            let n = &mut self.blocks[block];
            n.inserted = false;
            (n.prev.take(), n.next.take())
        };
        match prev {
            Some(p) => self.blocks[p].next = next.into(),
            None => self.first_block = next.into(),
        }
        match next {
            Some(nx) => self.blocks[nx].prev = prev.into(),
            None => self.last_block = prev.into(),
        }
    }

    /// Blocks in layout order.
    pub fn blocks(&self) -> Blocks<'_> {
        Blocks {
            layout: self,
            next: self.first_block.expand(),
        }
    }

    /// The block after `block`.
    pub fn next_block(&self, block: Block) -> Option<Block> {
        self.blocks[block].next.expand()
    }

    /// The block before `block`.
    pub fn prev_block(&self, block: Block) -> Option<Block> {
        self.blocks[block].prev.expand()
    }

    /// First instruction of `block`.
    pub fn first_inst(&self, block: Block) -> Option<Inst> {
        self.blocks[block].first_inst.expand()
    }

    /// Last instruction of `block` (its terminator in valid IR).
    pub fn last_inst(&self, block: Block) -> Option<Inst> {
        self.blocks[block].last_inst.expand()
    }

    /// The block containing `inst`, if it is inserted.
    pub fn inst_block(&self, inst: Inst) -> Option<Block> {
        self.insts[inst].block.expand()
    }

    /// The instruction after `inst` in its block.
    pub fn next_inst(&self, inst: Inst) -> Option<Inst> {
        self.insts[inst].next.expand()
    }

    /// The instruction before `inst` in its block.
    pub fn prev_inst(&self, inst: Inst) -> Option<Inst> {
        self.insts[inst].prev.expand()
    }

    /// Appends `inst` (not inserted anywhere) to the end of `block`.
    pub fn append_inst(&mut self, inst: Inst, block: Block) {
        debug_assert!(self.inst_block(inst).is_none() && self.is_block_inserted(block));
        let last = self.blocks[block].last_inst;
        self.insts[inst] = InstNode {
            block: block.into(),
            prev: last,
            next: None.into(),
        };
        match last.expand() {
            Some(l) => self.insts[l].next = inst.into(),
            None => self.blocks[block].first_inst = inst.into(),
        }
        self.blocks[block].last_inst = inst.into();
    }

    /// Inserts `inst` (not inserted anywhere) just before `before`.
    pub fn insert_inst_before(&mut self, inst: Inst, before: Inst) {
        let Some(block) = self.inst_block(before) else {
            return;
        };
        let prev = self.insts[before].prev;
        self.insts[inst] = InstNode {
            block: block.into(),
            prev,
            next: before.into(),
        };
        self.insts[before].prev = inst.into();
        match prev.expand() {
            Some(p) => self.insts[p].next = inst.into(),
            None => self.blocks[block].first_inst = inst.into(),
        }
    }

    /// Inserts `inst` (not inserted anywhere) just after `after`.
    pub fn insert_inst_after(&mut self, inst: Inst, after: Inst) {
        match self.next_inst(after) {
            Some(n) => self.insert_inst_before(inst, n),
            None => {
                if let Some(b) = self.inst_block(after) {
                    self.append_inst(inst, b);
                }
            }
        }
    }

    /// Removes `inst` from its block (the DFG keeps it).
    pub fn remove_inst(&mut self, inst: Inst) {
        let Some(block) = self.inst_block(inst) else {
            return;
        };
        let node = std::mem::take(&mut self.insts[inst]);
        match node.prev.expand() {
            Some(p) => self.insts[p].next = node.next,
            None => self.blocks[block].first_inst = node.next,
        }
        match node.next.expand() {
            Some(n) => self.insts[n].prev = node.prev,
            None => self.blocks[block].last_inst = node.prev,
        }
    }

    /// Moves every instruction from `inst` to the end of its block onto the end of `dest`.
    pub fn split_off_to(&mut self, inst: Inst, dest: Block) {
        let mut cur = Some(inst);
        while let Some(i) = cur {
            cur = self.next_inst(i);
            self.remove_inst(i);
            self.append_inst(i, dest);
        }
    }

    /// Every instruction in layout order (block by block).
    pub fn all_insts(&self) -> impl Iterator<Item = Inst> + '_ {
        self.blocks().flat_map(move |b| self.block_insts(b))
    }

    /// Instructions of `block` in order.
    pub fn block_insts(&self, block: Block) -> Insts<'_> {
        Insts {
            layout: self,
            next: self.first_inst(block),
        }
    }
}

/// Iterator over blocks in layout order.
pub struct Blocks<'a> {
    layout: &'a Layout,
    next: Option<Block>,
}

impl Iterator for Blocks<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        let b = self.next?;
        self.next = self.layout.next_block(b);
        Some(b)
    }
}

/// Iterator over the instructions of one block.
pub struct Insts<'a> {
    layout: &'a Layout,
    next: Option<Inst>,
}

impl Iterator for Insts<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        let i = self.next?;
        self.next = self.layout.next_inst(i);
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;

    #[test]
    fn insert_remove_move() {
        let mut l = Layout::new();
        let (b0, b1, b2) = (Block::new(0), Block::new(1), Block::new(2));
        l.append_block(b0);
        l.append_block(b2);
        l.insert_block_before(b1, b2);
        assert_eq!(l.blocks().collect::<Vec<_>>(), [b0, b1, b2]);
        let i: Vec<Inst> = (0..4).map(Inst::new).collect();
        l.append_inst(i[0], b0);
        l.append_inst(i[2], b0);
        l.insert_inst_before(i[1], i[2]);
        l.insert_inst_after(i[3], i[2]);
        assert_eq!(l.block_insts(b0).collect::<Vec<_>>(), i);
        l.split_off_to(i[2], b1);
        assert_eq!(l.block_insts(b0).collect::<Vec<_>>(), [i[0], i[1]]);
        assert_eq!(l.block_insts(b1).collect::<Vec<_>>(), [i[2], i[3]]);
        assert_eq!(l.inst_block(i[3]), Some(b1));
        l.remove_block(b0);
        assert_eq!(l.entry_block(), Some(b1));
        assert_eq!(l.inst_block(i[0]), None);
        l.remove_inst(i[3]);
        assert_eq!(l.last_inst(b1), Some(i[2]));
    }
}
