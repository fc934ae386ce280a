//! `#pragma omp requires` as the runtime sees it: the bits of `ompcc_rt_module_desc.requirements`
//! and the program's memory mode.
//!
//! `unified_shared_memory` (OpenMP 5.2, 8.2) makes every mapping zero-copy on a device that
//! can give kernels the host's pageable memory (the emulator; a GPU whose driver reports
//! `CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`): present-table entries map a host range to
//! itself, so reference counts, `present` checks and `omp_target_is_present` keep their
//! meaning while nothing is allocated or copied. Declare-target variables keep their device
//! copies (device code names them directly). On a device that cannot, the first use of the
//! device is an error naming the requirement and the device.
//!
//! OpenMP asks every compilation unit with device constructs or declare-target code to
//! carry the same `unified_shared_memory` requirement: a program whose units disagree is
//! refused when it first uses a device, naming a unit on each side. `unified_address` needs
//! nothing from the runtime (device addresses are unique in the process either way), so its
//! bit is informative only.

use super::ModuleDesc;

/// `OMPCC_RT_REQUIRES_UNIFIED_ADDRESS`.
pub const UNIFIED_ADDRESS: u32 = 1 << 0;
/// `OMPCC_RT_REQUIRES_UNIFIED_SHARED_MEMORY`.
pub const UNIFIED_SHARED_MEMORY: u32 = 1 << 1;
/// Every bit this runtime knows; a module with another bit set is refused at registration.
pub const KNOWN: u32 = UNIFIED_ADDRESS | UNIFIED_SHARED_MEMORY;

/// The clauses of `bits`, as `#pragma omp requires` spells them (for `OMPCC_INFO`).
pub fn clause_names(bits: u32) -> Vec<&'static str> {
    [
        (UNIFIED_ADDRESS, "unified_address"),
        (UNIFIED_SHARED_MEMORY, "unified_shared_memory"),
    ]
    .into_iter()
    .filter(|(b, _)| bits & b != 0)
    .map(|(_, n)| n)
    .collect()
}

fn has_device_code(m: &ModuleDesc) -> bool {
    !m.kernels.is_empty() || !m.globals.is_empty()
}

/// Whether the program made of `modules` requires unified shared memory: `Ok(Some(unit))`
/// naming a unit that says so, `Ok(None)` when none does, `Err` when a unit with device code
/// lacks the requirement another unit states.
pub fn unified_shared_memory(modules: &[ModuleDesc]) -> Result<Option<&str>, String> {
    let Some(with) = modules
        .iter()
        .find(|m| m.requires & UNIFIED_SHARED_MEMORY != 0)
    else {
        return Ok(None);
    };
    if let Some(without) = modules
        .iter()
        .find(|m| m.requires & UNIFIED_SHARED_MEMORY == 0 && has_device_code(m))
    {
        return Err(format!(
            "'#pragma omp requires unified_shared_memory' is in {} but not in {}, which has \
             device code: OpenMP requires it in every compilation unit with device constructs \
             or declare target code",
            with.name, without.name
        ));
    }
    Ok(Some(&with.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::KernelDesc;

    fn module(name: &str, requires: u32, kernels: usize) -> ModuleDesc {
        ModuleDesc {
            name: name.into(),
            ptx: String::new(),
            kernels: (0..kernels)
                .map(|i| KernelDesc {
                    name: format!("k{i}"),
                    param_sizes: Vec::new(),
                })
                .collect(),
            globals: Vec::new(),
            requires,
        }
    }

    #[test]
    fn units_must_agree_on_unified_shared_memory() {
        let usm = UNIFIED_SHARED_MEMORY | UNIFIED_ADDRESS;
        assert_eq!(unified_shared_memory(&[]), Ok(None));
        assert_eq!(
            unified_shared_memory(&[module("a.c", UNIFIED_ADDRESS, 1)]),
            Ok(None)
        );
        assert_eq!(
            unified_shared_memory(&[module("a.c", usm, 1), module("b.c", usm, 2)]),
            Ok(Some("a.c"))
        );
        // a unit without device code (only the directive, or host code) need not say it
        assert_eq!(
            unified_shared_memory(&[module("main.c", 0, 0), module("k.c", usm, 1)]),
            Ok(Some("k.c"))
        );
        let err =
            unified_shared_memory(&[module("main.c", usm, 0), module("k.c", 0, 1)]).unwrap_err();
        assert!(
            err.contains("is in main.c but not in k.c, which has device code"),
            "{err}"
        );
        assert_eq!(
            clause_names(usm),
            ["unified_address", "unified_shared_memory"]
        );
    }
}

/// How `omp_target_alloc` got a block of a device.
#[derive(Clone, Copy, Debug)]
pub(crate) enum UserAlloc {
    /// The device's own memory.
    Device,
    /// Under unified shared memory, the backend's memory that the host and the device use
    /// at one address (CUDA managed memory); freed through the backend.
    Managed,
    /// Under unified shared memory, host memory the device reaches at its host address (a
    /// backend with no allocator of its own for it: the emulator).
    Host(std::alloc::Layout),
}

/// `omp_target_alloc` of `bytes` (> 0) on a device running in unified shared memory mode:
/// OpenMP 5.2 8.2.1 makes the storage accessible from every device and the host, so it is
/// the backend's managed memory where it has some, host memory otherwise. `None` when
/// nothing could be allocated.
pub(crate) fn alloc_shared(
    backend: &mut dyn crate::backend::Backend,
    bytes: u64,
) -> Option<(super::DevPtr, UserAlloc)> {
    if let Some(got) = backend.alloc_managed(bytes) {
        return got.ok().map(|p| (p, UserAlloc::Managed));
    }
    // the alignment `Backend::alloc` promises
    let layout = std::alloc::Layout::from_size_align(usize::try_from(bytes).ok()?, 256).ok()?;
    // SAFETY: `layout` has a non-zero size (`bytes` > 0).
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    (!p.is_null()).then_some((p as super::DevPtr, UserAlloc::Host(layout)))
}

/// Frees `ptr`, which `omp_target_alloc` got as `how` from `backend`.
pub(crate) fn free_user(
    backend: &mut dyn crate::backend::Backend,
    ptr: super::DevPtr,
    how: UserAlloc,
) -> Result<(), crate::backend::BackendError> {
    match how {
        UserAlloc::Device => backend.free(ptr),
        UserAlloc::Managed => backend.free_managed(ptr),
        UserAlloc::Host(layout) => {
            // SAFETY: `alloc_shared` allocated `ptr` with `layout`; the caller removed it
            // from the device's allocations, so it is freed once.
            unsafe { std::alloc::dealloc(ptr as *mut u8, layout) };
            Ok(())
        }
    }
}
