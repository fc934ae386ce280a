//! Shared tiles of a one-iteration kernel (`ompcc_omp::choose_tiles`): before the thread's
//! iteration, the block loads the elements `a[i + lo] .. a[i + hi]` of all its threads'
//! iterations into a `.shared` array, consecutive threads taking consecutive elements, and
//! meets at a barrier; every read `a[i + c]` of the body then reads element `tid + c - lo`
//! of the tile. Every thread of the block runs this part, those past the trip count too
//! (they load, reach the barrier, then skip the body); the block's iteration count decides
//! how many elements exist, so nothing outside what the loop reads is loaded.

use crate::func::{Addr, FnLower};
use crate::worksharing::CanonLoop;
use ompcc_ir::{AddrSpace, IntCC, SpecialReg, Type, Value};
use ompcc_omp::{SharedTile, TILE_THREADS};

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// Stages the tiles of the kernel's region (`Ctx::tiles`) for the block of iteration
    /// `k` (of `total`) of loop `c`, and points their reads at them (`Ctx::tile_reads`).
    pub(crate) fn stage_tiles(&mut self, k: Value, total: Value, c: &CanonLoop) {
        let tiles = std::mem::take(&mut self.cx.tiles);
        if tiles.is_empty() {
            return;
        }
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let tid = self.b.ins().zext(Type::I64, tid);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let ntid = self.b.ins().zext(Type::I64, ntid);
        // the tiles are sized for a GPU's largest block; a larger one would overrun them
        let cap = self.b.ins().iconst(Type::I64, TILE_THREADS);
        let fits = self.b.ins().icmp(IntCC::Sle, ntid, cap);
        let ok = self.b.create_block();
        let broken = self.b.create_block();
        self.b.ins().brif(fits, ok, &[], broken, &[]);
        self.b.switch_to_block(broken);
        self.b.ins().trap();
        self.b.switch_to_block(ok);
        // the block's first iteration and how many it has: clamp(total - k0, 0, ntid)
        let k0 = self.b.ins().isub(k, tid);
        let left = self.b.ins().isub(total, k0);
        let fewer = self.b.ins().icmp(IntCC::Slt, left, ntid);
        let n = self.b.ins().select(fewer, left, ntid);
        let zero = self.b.ins().iconst(Type::I64, 0);
        let any = self.b.ins().icmp(IntCC::Sgt, n, zero);
        // the loop variable of iteration k0 (step 1)
        let i0 = self.b.ins().iadd(c.lb, k0);
        for t in &tiles {
            self.load_tile(t, (tid, ntid), i0, (n, any));
        }
        self.b.ins().barrier();
        self.cx.tiles = tiles;
    }

    /// Loads tile `t`: `n + hi - lo` elements from `a[i0 + lo]` when the block has an
    /// iteration (`any`), thread `tid` taking every `ntid`-th; records its reads.
    fn load_tile(
        &mut self,
        t: &SharedTile<'a>,
        (tid, ntid): (Value, Value),
        i0: Value,
        (n, any): (Value, Value),
    ) {
        let Some(src) = self.tile_source(t) else {
            return;
        };
        let Some(info) = self.cx.typed.expr(t.reads[0].0) else {
            return;
        };
        let Ok(ty) = self.cx.value_type(info.ty) else {
            return;
        };
        let bytes = i64::from(t.elem_bytes);
        let halo = t.hi - t.lo;
        let name = format!("{}__tile", self.name);
        let size = ((TILE_THREADS + halo) * bytes) as u64;
        let g = self.cx.shared_global(&name, size, t.elem_bytes.max(8));
        let gr = self.b.import_global(&g, AddrSpace::Shared);
        let sh = self.b.ins().global_addr(gr);
        let w = self.b.ins().iconst(Type::I64, halo);
        let with_halo = self.b.ins().iadd(n, w);
        let zero = self.b.ins().iconst(Type::I64, 0);
        let count = self.b.ins().select(any, with_halo, zero);
        let lo = self.b.ins().iconst(Type::I64, t.lo);
        let first = self.b.ins().iadd(i0, lo);
        let size_v = self.b.ins().iconst(Type::I64, bytes);
        // for (m = tid; m < count; m += ntid) tile[m] = a[first + m]
        let head = self.b.create_block();
        let m = self.b.append_block_param(head, Type::I64);
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().jump(head, &[tid]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, m, count);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        let j = self.b.ins().iadd(first, m);
        let from = self.b.ins().imul(j, size_v);
        let from = Addr {
            ptr: self.b.ins().ptr_offset(src.ptr, from),
            space: src.space,
            align: t.elem_bytes,
        };
        let v = self.load_raw(from, ty, false);
        let to = self.b.ins().imul(m, size_v);
        let to = Addr {
            ptr: self.b.ins().ptr_offset(sh, to),
            space: AddrSpace::Shared,
            align: t.elem_bytes,
        };
        self.store_raw(to, v, false);
        let next = self.b.ins().iadd(m, ntid);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(done);
        // this thread's reads: element tid + c - lo
        let mine = self.b.ins().imul(tid, size_v);
        let mine = self.b.ins().ptr_offset(sh, mine);
        for &(e, c) in &t.reads {
            self.cx
                .tile_reads
                .insert(e, (mine, (c - t.lo) * bytes, t.elem_bytes));
        }
    }

    /// The address of the tiled array's element 0, as the body would compute it.
    fn tile_source(&mut self, t: &SharedTile<'a>) -> Option<Addr> {
        let info = self.cx.typed.expr(t.base.id)?;
        if self.cx.typed.types.is_array(info.ty) {
            match self.lvalue(t.base)? {
                crate::expr::Lv::Mem(addr, _) => Some(addr),
                _ => None,
            }
        } else {
            let ptr = self.scalar(t.base)?;
            Some(Addr {
                ptr,
                space: AddrSpace::Generic,
                align: t.elem_bytes,
            })
        }
    }

    /// `a[i + c]` read from its tile, when the kernel staged one for it.
    pub(crate) fn tile_read(&mut self, e: ompcc_syntax::ast::ExprId) -> Option<Addr> {
        let &(mine, off, align) = self.cx.tile_reads.get(&e)?;
        let off = self.b.ins().iconst(Type::I64, off);
        let ptr = self.b.ins().ptr_offset(mine, off);
        Some(Addr {
            ptr,
            space: AddrSpace::Shared,
            align,
        })
    }
}
