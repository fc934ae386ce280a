//! The host half of `declare target indirect` (see ompcc-lower's `indirect` module): the
//! host copies of the unit's indirect-function and table globals, registered with the device
//! image like declare-target variables, so the runtime can pair host and device addresses.

use crate::frontend::Checked;

/// The globals to register and the C definitions of their host copies, for the unit's
/// `__ompcc_indirect_*` globals that `module` defines.
pub fn image_parts(
    checked: &Checked,
    module: &ompcc_ir::Module,
) -> (Vec<ompcc_host::DeviceGlobal>, String) {
    // (the unit's id hashes the whole unit: only for a module with such globals)
    let prefixes = [
        ompcc_lower::functions_global(""),
        ompcc_lower::table_global(""),
    ];
    let named = |g: &ompcc_ir::GlobalData| prefixes.iter().any(|p| g.name.starts_with(p));
    if !module.globals.iter().any(named) {
        return (Vec::new(), String::new());
    }
    let unit = ompcc_omp::unit_id(&checked.source_map);
    let defines = |name: &str| module.globals.iter().any(|g| g.name == name);
    let mut globals = Vec::new();
    let mut decls = String::new();
    let fns_name = ompcc_lower::functions_global(&unit);
    if defines(&fns_name) {
        let fns: Vec<String> = ompcc_lower::indirect_functions(&checked.tu, &checked.typed)
            .into_iter()
            .map(|s| format!("(void *){}", checked.typed.symbols[s].name))
            .collect();
        decls.push_str(&format!(
            "static void *const {fns_name}[{}] = {{{}}};\n",
            fns.len(),
            fns.join(", ")
        ));
        globals.push(ompcc_host::DeviceGlobal {
            ptx_name: fns_name.clone(),
            host_name: fns_name,
        });
    }
    let tab_name = ompcc_lower::table_global(&unit);
    if defines(&tab_name) {
        decls.push_str(&format!("static unsigned long long {tab_name}[2];\n"));
        globals.push(ompcc_host::DeviceGlobal {
            ptx_name: tab_name.clone(),
            host_name: tab_name,
        });
    }
    (globals, decls)
}
