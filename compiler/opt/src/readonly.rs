//! readonly: marks global loads of kernels whose memory the kernel never writes, so the PTX
//! writer emits `ld.global.nc` (the non-coherent, read-only data cache path).
//!
//! `ld.global.nc` is only correct when the bytes do not change while the kernel runs. The
//! pass proves it for a load in a kernel (`FuncKind::Kernel`; a device function cannot see
//! what its callers' kernels write) when no instruction of the kernel that writes memory may
//! touch the load's bytes in any execution of either, by any thread:
//! - a store or atomic must `never_overlap` the load (different spaces, or disjoint objects:
//!   distinct globals, `noalias` parameters against other objects);
//! - a remaining call (direct or indirect) may write anything, so one blocks every load.
//!
//! Offsets are deliberately ignored (`a[i + 1] = ..` writes what another iteration or thread
//! reads as `a[i]`). Runs after `inline` (calls that remain are opaque) and `spaces` (only
//! loads that name the global space are marked). Volatile loads are never marked.

use crate::remarks::Remarks;
use ompcc_ir::analysis::{Access, AliasAnalysis};
use ompcc_ir::{AddrSpace, FuncKind, Function, Inst, InstData};

/// Runs the pass; returns whether any load was marked.
pub fn readonly(func: &mut Function) -> bool {
    readonly_with_remarks(func, &mut Remarks::default())
}

/// What a writing instruction may touch.
enum Write {
    /// Bytes at this access (the size matters not: offsets are ignored).
    At(Access),
    /// Anything (calls).
    Anything,
}

fn write_of(func: &Function, inst: Inst) -> Option<Write> {
    let access = |addr, space| Access {
        addr,
        size: 1,
        space,
    };
    match func.dfg.inst(inst) {
        InstData::Store { .. } => AliasAnalysis::access_of(func, inst).map(Write::At),
        InstData::AtomicRmw { space, args, .. } => Some(Write::At(access(args[0], *space))),
        InstData::AtomicCas { space, args, .. } => Some(Write::At(access(args[0], *space))),
        InstData::Call { .. } | InstData::CallIndirect { .. } => Some(Write::Anything),
        _ => None,
    }
}

/// `readonly`, reporting the loads it marked (`-Rpass=readonly`) and, for each global load
/// it could not mark, the write that may overlap it (`-Rpass-missed=readonly`).
pub fn readonly_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    if func.kind != FuncKind::Kernel {
        return false;
    }
    let mut writes = Vec::new();
    let mut loads = Vec::new();
    let mut call = None;
    for inst in func.layout.all_insts() {
        if let Some(w) = write_of(func, inst) {
            if matches!(w, Write::Anything) {
                call.get_or_insert(inst);
            }
            writes.push((inst, w));
        }
        if let InstData::Load {
            space: AddrSpace::Global,
            flags,
            ..
        } = func.dfg.inst(inst)
            && !flags.volatile
            && !flags.readonly
        {
            loads.push(inst);
        }
    }
    if let Some(call) = call {
        if remarks.wants_missed() {
            let at = line_of(func, call);
            for &load in &loads {
                remarks.emit_missed(
                    func.srcloc(load),
                    format!("load not on the read-only path: the call{at} may write any memory"),
                );
            }
        }
        return false;
    }
    let aa = AliasAnalysis::compute(func);
    let mut count = 0;
    for load in loads {
        let Some(la) = AliasAnalysis::access_of(func, load) else {
            continue;
        };
        let blocker = writes.iter().find(|(_, w)| match w {
            Write::At(wa) => !aa.never_overlap(func, &la, wa),
            Write::Anything => true,
        });
        if let Some((w, write)) = blocker {
            let w = *w;
            if remarks.wants_missed() {
                let what = match func.dfg.inst(w) {
                    InstData::Store { .. } => "store",
                    _ => "atomic",
                };
                let same_base = match write {
                    Write::At(wa) => {
                        aa.decompose(func, la.addr).root == aa.decompose(func, wa.addr).root
                    }
                    Write::Anything => false,
                };
                let why = if same_base {
                    "writes through the same base pointer"
                } else {
                    "may write the same memory (no fact that they reach disjoint objects: \
                     distinct globals, or a noalias parameter)"
                };
                remarks.emit_missed(
                    func.srcloc(load),
                    format!(
                        "load not on the read-only path: the {what}{} {why}",
                        line_of(func, w)
                    ),
                );
            }
            continue;
        }
        if let InstData::Load { flags, .. } = func.dfg.inst_mut(load) {
            flags.readonly = true;
            count += 1;
            if remarks.wants() {
                remarks.emit(
                    func.srcloc(load),
                    "load of memory the kernel never writes uses the read-only cache",
                );
            }
        }
    }
    count > 0
}

/// ` at line N` for an instruction with a known location, else nothing.
fn line_of(func: &Function, inst: Inst) -> String {
    let loc = func.srcloc(inst);
    if loc.is_unknown() {
        String::new()
    } else {
        format!(" at line {}", loc.line)
    }
}
