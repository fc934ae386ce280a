//! `declare target indirect` tables (OpenMP 5.2 section 7.8.2; the compiler half is
//! ompcc-lower's `indirect` module). Each unit defining indirect functions registers a global
//! `__ompcc_indirect_fns_<unit>` whose host copy lists their host addresses and whose device
//! copy lists their device addresses, in the same order; each unit whose device code calls
//! through pointers registers `__ompcc_indirect_tab_<unit>` (a pointer and a length). After a
//! program loads, every pair of the program's units goes into one table in device memory
//! (kept for the program's lifetime), and every table global points at it, so device code
//! translates a host function address to the device function it calls.

use crate::backend::{Backend, ProgramId};
use crate::runtime::ModuleDesc;

const FUNCTIONS: &str = "__ompcc_indirect_fns_";
const TABLE: &str = "__ompcc_indirect_tab_";

/// Builds the table of the program `program` that holds `modules`, and points their table
/// globals at it. Errors are messages for the load's `RtError`.
pub(crate) fn fill_tables(
    backend: &mut dyn Backend,
    program: ProgramId,
    modules: &[ModuleDesc],
) -> Result<(), String> {
    let mut pairs: Vec<u64> = Vec::new();
    for g in modules.iter().flat_map(|m| &m.globals) {
        if !g.name.starts_with(FUNCTIONS) {
            continue;
        }
        let n = (g.size / 8) as usize;
        // SAFETY: the registering unit's host copy is an array of `n` function addresses
        // (`static void *const NAME[n]`), alive for the whole program.
        let host = unsafe { std::slice::from_raw_parts(g.host_addr as *const u64, n) };
        let (addr, _) = backend
            .global_address(program, &g.name)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("device global '{}' is missing", g.name))?;
        let mut bytes = vec![0u8; n * 8];
        backend
            .copy_from_device(&mut bytes, addr)
            .map_err(|e| e.to_string())?;
        for (i, &h) in host.iter().enumerate() {
            let d = u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
            pairs.extend([h, d]);
        }
    }
    if pairs.is_empty() {
        return Ok(());
    }
    let bytes: Vec<u8> = pairs.iter().flat_map(|w| w.to_le_bytes()).collect();
    let table = backend
        .alloc(bytes.len() as u64)
        .map_err(|e| e.to_string())?;
    backend
        .copy_to_device(table, &bytes)
        .map_err(|e| e.to_string())?;
    let mut head = table.to_le_bytes().to_vec();
    head.extend(((pairs.len() / 2) as u64).to_le_bytes());
    for g in modules.iter().flat_map(|m| &m.globals) {
        if !g.name.starts_with(TABLE) {
            continue;
        }
        if let Some((addr, _)) = backend
            .global_address(program, &g.name)
            .map_err(|e| e.to_string())?
        {
            backend
                .copy_to_device(addr, &head)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
