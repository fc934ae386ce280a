//! The text ompcc adds around a rewritten unit: the prelude (the runtime's C ABI, written
//! without `#include` because the unit is already preprocessed) and the device image (PTX,
//! kernel and global tables, module descriptor, registering constructor).
//!
//! The text is compiled as `cpp-output`, so no macro is expanded: fixed-width types are
//! written as the C types that have those widths on every target ompcc supports (`int`,
//! `unsigned int`, `unsigned long long`).
//!
//! Invariants: the prelude declares exactly the subset of `runtime/include/ompcc_rt.h` that
//! generated code uses, and the OpenMP 5.1/5.2 routines the runtime defines that libgomp 12's
//! `<omp.h>` does not declare (with the types a newer `<omp.h>` gives them, `size_t` as
//! `unsigned long` and gcc's `struct omp_depend_t`), with the same layouts (struct tags are ompcc's own, `__ompcc_*`, so a
//! unit that also includes the real header does not see two definitions of one tag); it is
//! preceded by its own line marker and followed by one that returns to the unit's first line,
//! so the user's code keeps its line numbers. Every name ompcc defines starts with `__ompcc_`.

use crate::cexpr::{c_string, push_escaped};

/// `OMPCC_RT_ABI_VERSION` of the runtime this code is generated for.
pub const ABI_VERSION: u32 = 2;

/// Map entry flags (`OMPCC_RT_MAP_*`).
pub mod flags {
    pub const TO: u64 = 1 << 0;
    pub const FROM: u64 = 1 << 1;
    pub const ALWAYS: u64 = 1 << 2;
    pub const DELETE: u64 = 1 << 3;
    pub const TARGET_PARAM: u64 = 1 << 4;
    pub const LITERAL: u64 = 1 << 5;
    pub const IMPLICIT: u64 = 1 << 6;
    pub const CLOSE: u64 = 1 << 7;
    pub const PRESENT: u64 = 1 << 8;
    pub const ATTACH: u64 = 1 << 9;
}

/// `OMPCC_RT_DEVICE_DEFAULT`.
pub const DEVICE_DEFAULT: i32 = -100;

/// The variable holding this unit's module id (set by the constructor).
pub const MODULE_ID: &str = "__ompcc_module";
/// The expression rewritten constructs read the module id with: a call, not the file-scope
/// variable, because a `task` with `default(private)` or `default(firstprivate)` around a
/// construct makes gcc demand a data-sharing attribute for every variable with static
/// storage duration the task names (functions need none).
pub const MODULE_ID_READ: &str = "__ompcc_module_id()";

const PRELUDE: &str = "\
typedef struct __ompcc_kernel_desc { const char *name; unsigned int num_params; \
const unsigned int *param_sizes; } __ompcc_kernel_desc;
typedef struct __ompcc_global_desc { const char *name; void *host_addr; \
unsigned long long size; } __ompcc_global_desc;
typedef struct __ompcc_module_desc { unsigned int abi_version; unsigned int num_kernels; \
unsigned int num_globals; unsigned int requirements; const char *name; const char *ptx; \
unsigned long long ptx_size; const __ompcc_kernel_desc *kernels; \
const __ompcc_global_desc *globals; } __ompcc_module_desc;
typedef struct __ompcc_map_entry { void *base; void *begin; unsigned long long size; \
unsigned long long flags; const char *name; const char *loc; } __ompcc_map_entry;
typedef struct __ompcc_launch_args { int module; unsigned int kernel; \
int device; unsigned int num_entries; const __ompcc_map_entry *entries; \
unsigned int num_teams; unsigned int thread_limit; unsigned int dyn_shared_bytes; \
unsigned int iterations; const char *loc; unsigned int nest[3]; } __ompcc_launch_args;
extern int ompcc_rt_register_module(const __ompcc_module_desc *);
extern int ompcc_rt_target_data_begin(int, unsigned int, \
const __ompcc_map_entry *, const char *);
extern int ompcc_rt_target_data_end(int, unsigned int, \
const __ompcc_map_entry *, const char *);
extern int ompcc_rt_target_enter_data(int, unsigned int, \
const __ompcc_map_entry *, const char *);
extern int ompcc_rt_target_exit_data(int, unsigned int, \
const __ompcc_map_entry *, const char *);
extern int ompcc_rt_target_update(int, unsigned int, \
const __ompcc_map_entry *, const char *);
extern int ompcc_rt_target_update_strided(int, const __ompcc_map_entry *, unsigned int, \
const unsigned long long *, const unsigned long long *, const char *);
extern void *ompcc_rt_use_device_ptr(int, void *, const char *, const char *);
extern int ompcc_rt_launch(const __ompcc_launch_args *);
extern unsigned int ompcc_rt_clause_count(long long, const char *, const char *);
extern void ompcc_rt_target_free_at(void *, int, const char *);
static __inline__ __attribute__((unused)) unsigned int __ompcc_least_count(unsigned int a, \
unsigned int b) { return a == 0 ? b : b == 0 ? a : a < b ? a : b; }
static int __ompcc_module __attribute__((unused)) = -1;
static inline __attribute__((unused)) int __ompcc_module_id(void) { return __ompcc_module; }
struct omp_depend_t;
extern int omp_target_memcpy_async(void *, const void *, unsigned long, unsigned long, \
unsigned long, int, int, int, struct omp_depend_t *);
extern int omp_target_memcpy_rect_async(void *, const void *, unsigned long, int, \
const unsigned long *, const unsigned long *, const unsigned long *, const unsigned long *, \
const unsigned long *, int, int, int, struct omp_depend_t *);
extern void *omp_get_mapped_ptr(const void *, int);
extern int omp_target_is_accessible(const void *, unsigned long, int);
extern int omp_in_explicit_task(void);
extern int __ompcc_auto_select(const char *, long, long, long, long, long, long, long, long);
extern void __ompcc_auto_done(const char *);
";

/// A line marker: the next line is `line` of `file` (`system` adds gcc's flag 3).
pub fn line_marker(line: u32, file: &str, system: bool) -> String {
    format!(
        "# {line} {}{}\n",
        c_string(file),
        if system { " 3" } else { "" }
    )
}

/// The prelude and the line marker that returns to the unit: placed after the unit's first
/// line marker `first_marker` (the host compiler names the compilation unit after the first
/// marker, for debug info and messages), which is repeated after the prelude so the unit's
/// next line keeps its number. A unit without a leading marker gets one for line 1 of `file`
/// on both sides of the prelude.
pub fn prelude(file: &str, first_marker: Option<&str>) -> String {
    let back = match first_marker {
        Some(m) => format!("{}\n", m.trim_end_matches(['\n', '\r'])),
        None => line_marker(1, file, false),
    };
    let mut out = String::new();
    if first_marker.is_none() {
        out.push_str(&back);
    }
    out.push_str(&line_marker(1, "<ompcc-prelude>", false));
    out.push_str(PRELUDE);
    out.push_str(&back);
    out
}

/// One kernel of the device image.
pub struct KernelC<'a> {
    pub name: &'a str,
    pub param_sizes: Vec<u32>,
}

/// One declare-target global of the device image.
pub struct GlobalC<'a> {
    /// Its PTX name.
    pub ptx_name: &'a str,
    /// The host variable, as a C identifier.
    pub host_name: &'a str,
}

/// The device image and its registration, appended after the unit's text; `requirements`
/// are the `OMPCC_RT_REQUIRES_*` bits of the unit's `#pragma omp requires`.
pub fn image(
    file: &str,
    ptx: Option<&str>,
    kernels: &[KernelC<'_>],
    globals: &[GlobalC<'_>],
    host_decls: &str,
    requirements: u32,
) -> String {
    let mut out = String::from("\n");
    out.push_str(&line_marker(1, "<ompcc-image>", false));
    out.push_str(host_decls);
    match ptx {
        Some(ptx) => push_ptx_string(&mut out, ptx),
        None => out.push_str(PTX_APART),
    }
    for (i, k) in kernels.iter().enumerate() {
        if !k.param_sizes.is_empty() {
            let sizes: Vec<String> = k.param_sizes.iter().map(u32::to_string).collect();
            out.push_str(&format!(
                "static const unsigned int __ompcc_k{i}_params[] = {{{}}};\n",
                sizes.join(", ")
            ));
        }
    }
    let kernels_ref = if kernels.is_empty() {
        "0".to_owned()
    } else {
        out.push_str("static const __ompcc_kernel_desc __ompcc_kernels[] = {\n");
        for (i, k) in kernels.iter().enumerate() {
            let params = if k.param_sizes.is_empty() {
                "0".to_owned()
            } else {
                format!("__ompcc_k{i}_params")
            };
            out.push_str(&format!(
                "  {{{}, {}, {params}}},\n",
                c_string(k.name),
                k.param_sizes.len()
            ));
        }
        out.push_str("};\n");
        "__ompcc_kernels".to_owned()
    };
    let globals_ref = if globals.is_empty() {
        "0".to_owned()
    } else {
        out.push_str("static const __ompcc_global_desc __ompcc_globals[] = {\n");
        for g in globals {
            out.push_str(&format!(
                "  {{{}, (void *)&{h}, sizeof({h})}},\n",
                c_string(g.ptx_name),
                h = g.host_name
            ));
        }
        out.push_str("};\n");
        "__ompcc_globals".to_owned()
    };
    // Apart, the size is a link-time value: the descriptor gets it when the constructor runs.
    let (constness, size, set_size) = match ptx {
        Some(_) => ("const ", "sizeof __ompcc_ptx - 1", ""),
        None => ("", "0", "d.ptx_size = __ompcc_ptx_size;\n  "),
    };
    out.push_str(&format!(
        "__attribute__((constructor)) static void __ompcc_register(void) {{\n  \
         static {constness}__ompcc_module_desc d = {{{ABI_VERSION}u, {}u, {}u, {requirements}u, \
         {}, __ompcc_ptx, {size}, {kernels_ref}, {globals_ref}}};\n  \
         {set_size}{MODULE_ID} = ompcc_rt_register_module(&d);\n}}\n",
        kernels.len(),
        globals.len(),
        c_string(file),
    ));
    out
}

/// The PTX as a C string, one literal a line. Longer than the 4095 characters ISO C
/// requires compilers to take, which `-pedantic` (with `-Werror`, an error) reports unless
/// told not to for this declaration.
fn push_ptx_string(out: &mut String, ptx: &str) {
    out.push_str(
        "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n",
    );
    out.push_str("static const char __ompcc_ptx[] =\n");
    if ptx.is_empty() {
        out.push_str("\"\"");
    }
    for line in ptx.split_inclusive('\n') {
        out.push('"');
        push_escaped(out, line.as_bytes());
        out.push_str("\"\n");
    }
    out.push_str(";\n#pragma GCC diagnostic pop\n");
}

/// The declarations of a PTX kept apart from the text: local symbols of the unit's own
/// assembly ([`ptx_assembly`], appended to what the host compiler makes of the text), hidden
/// so that the compiler addresses them directly, as it would a static array.
const PTX_APART: &str = "extern const char __ompcc_ptx[] __attribute__((visibility(\"hidden\")));
extern const unsigned long long __ompcc_ptx_size __attribute__((visibility(\"hidden\")));
";

/// GNU assembler text defining the `__ompcc_ptx` (NUL-terminated) and `__ompcc_ptx_size` a
/// text written with the PTX apart declares, in `.rodata`: appended to the host compiler's
/// assembly of that text, it completes the unit. The symbols are not `.globl`, so every unit
/// keeps its own.
pub fn ptx_assembly(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len() + ptx.len() / 16 + 256);
    out.push_str("\t.section\t.rodata\n\t.type\t__ompcc_ptx, @object\n__ompcc_ptx:\n");
    for line in ptx.as_bytes().chunk_by(|&a, _| a != b'\n') {
        out.push_str("\t.ascii\t\"");
        push_assembler_escaped(&mut out, line);
        out.push_str("\"\n");
    }
    out.push_str(&format!(
        "\t.byte\t0\n\t.size\t__ompcc_ptx, {}\n\t.balign\t8\n\t.type\t__ompcc_ptx_size, @object\n\
         __ompcc_ptx_size:\n\t.quad\t{}\n\t.size\t__ompcc_ptx_size, 8\n",
        ptx.len() + 1,
        ptx.len()
    ));
    out
}

/// `bytes` escaped for a GNU assembler string: quotes, backslashes, newlines and tabs,
/// every other byte outside printable ASCII as a three-digit octal escape.
fn push_assembler_escaped(out: &mut String, bytes: &[u8]) {
    let plain = |b: &u8| matches!(b, 0x20..=0x7e) && !matches!(b, b'"' | b'\\');
    let mut rest = bytes;
    while !rest.is_empty() {
        // runs of plain bytes in one piece: PTX is nearly all of them
        let n = rest.iter().take_while(|b| plain(b)).count();
        if let Ok(run) = std::str::from_utf8(&rest[..n]) {
            out.push_str(run);
        }
        let Some((&b, tail)) = rest[n..].split_first() else {
            break;
        };
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
        rest = tail;
    }
}
