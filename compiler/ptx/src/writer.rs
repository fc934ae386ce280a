//! The module and function writer: header, declarations, globals, function frames, the
//! `.param` calling convention and control flow (out-of-SSA copies, branch layout).
//!
//! Module order: `.version`/`.target`/`.address_size`, `.file` table (with line info), external
//! declarations (`.extern .func`), globals, prototypes of every device function (so calls may
//! precede definitions), then the functions. A function body is built in a buffer first because its `.reg` declarations must
//! come before the code and are only known at the end.
//!
//! Out of SSA: every block parameter has its own register, which a value a `jump` passes to it
//! may share (`coalesce`); an edge with arguments becomes a sequentialized parallel copy
//! (`copies`). A `jump` copies before branching. A conditional
//! edge copies on the fallthrough path right after the conditional branch or, when the other
//! edge already took that path, in a trampoline after the function's blocks, so copies never
//! run on the wrong edge (critical edges are split that way). Non-instruction-specific code
//! lives here; the per-family instruction cases are in `insts`.

use crate::copies::sequentialize;
use crate::legalize::legalize;
use crate::regs::{Reg, RegAlloc, RegClass, mem};
use crate::{PtxError, PtxOptions};
use cranelift_entity::{EntityRef, SecondaryMap};
use ompcc_ir::instructions::BlockCall;
use ompcc_ir::{
    AddrSpace, Block, FuncKind, Function, GlobalData, Inst, InstData, Linkage, Module, Opcode,
    Signature, Type, Value,
};
use std::fmt::{self, Write as _};

/// Writes PTX for a module into any `fmt::Write`.
pub struct Writer<'o, W: fmt::Write> {
    out: W,
    opts: &'o PtxOptions,
}

impl From<fmt::Error> for PtxError {
    fn from(_: fmt::Error) -> PtxError {
        PtxError::Write
    }
}

/// Whether `name` is a PTX identifier: `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$][a-zA-Z0-9_$]+`.
fn valid_name(name: &str) -> bool {
    let mut cs = name.chars();
    let ok_rest = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    match cs.next() {
        Some(c) if c.is_ascii_alphabetic() => cs.all(ok_rest),
        Some('_' | '$') => name.len() > 1 && cs.all(ok_rest),
        _ => false,
    }
}

/// `s` as a PTX string literal: C-style escapes, with `"` and control characters as octal
/// (`\042`) because ptxas rejects `\"`.
fn ptx_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == '"' || (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The qualifier a defined function or global gets for its linkage (with a trailing space).
fn visibility(linkage: Linkage) -> &'static str {
    match linkage {
        Linkage::Internal => "",
        _ => ".visible ",
    }
}

/// Declared type of a device-function parameter or return value (small integers widen to
/// 32 bits, as in the CUDA ABI).
fn abi_decl(ty: Type) -> &'static str {
    match ty {
        Type::I64 | Type::F64 | Type::Ptr(_) => ".b64",
        _ => ".b32",
    }
}

/// Type of the `ld.param`/`st.param` moving a value of `ty` (i1 moves as a 32-bit 0/1).
fn abi_move(ty: Type) -> &'static str {
    match ty {
        Type::I1 | Type::I32 => "b32",
        Type::I8 | Type::I16 => "b16",
        Type::I64 | Type::Ptr(_) => "b64",
        Type::F32 => "f32",
        Type::F64 => "f64",
    }
}

/// Device functions the CUDA driver provides to every module.
pub const RUNTIME_FUNCS: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];

/// Type of a kernel parameter as the host lays it out.
fn kernel_param(ty: Type) -> &'static str {
    match ty {
        Type::I1 | Type::I8 => ".u8",
        Type::I16 => ".u16",
        Type::I32 => ".u32",
        Type::I64 | Type::Ptr(_) => ".u64",
        Type::F32 => ".f32",
        Type::F64 => ".f64",
    }
}

/// Byte offsets, total size and alignment of several return values packed in one `.param`
/// array (PTX returns at most one `.param` value, so multiple results travel as an
/// aggregate, each slot naturally aligned; small values take 4 bytes as in the scalar case).
fn ret_layout(rets: &[Type]) -> (Vec<u32>, u32, u32) {
    let mut offsets = Vec::with_capacity(rets.len());
    let (mut size, mut align) = (0u32, 4u32);
    for t in rets {
        let n = if abi_decl(*t) == ".b64" { 8 } else { 4 };
        size = size.next_multiple_of(n);
        offsets.push(size);
        size += n;
        align = align.max(n);
    }
    (offsets, size.next_multiple_of(align), align)
}

/// The `.param` operand of return value `i` of `n` in the return parameter `base`.
fn ret_slot(base: &str, rets: &[Type], i: usize) -> String {
    if rets.len() == 1 {
        return format!("[{base}]");
    }
    let (offsets, _, _) = ret_layout(rets);
    format!("[{base}+{}]", offsets[i])
}

/// `(.param .b32 _) _ (.param .b64 _, ...)`: the `.callprototype` of an indirect call.
fn call_prototype(sig: &Signature) -> String {
    let ret = match sig.returns.as_slice() {
        [] => String::new(),
        [t] => format!("(.param {} _) ", abi_decl(*t)),
        rets => {
            let (_, size, align) = ret_layout(rets);
            format!("(.param .align {align} .b8 _[{size}]) ")
        }
    };
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|t| format!(".param {} _", abi_decl(*t)))
        .collect();
    format!("{ret}_ ({})", params.join(", "))
}

/// `(.param .b32 name_retval0) name(.param ... name_param_0, ...)` for a device function.
fn func_prototype(name: &str, sig: &Signature) -> Result<String, PtxError> {
    let mut s = String::new();
    match sig.returns.as_slice() {
        [] => {}
        [t] => write!(s, "(.param {} {name}_retval0) ", abi_decl(*t))?,
        rets => {
            let (_, size, align) = ret_layout(rets);
            write!(s, "(.param .align {align} .b8 {name}_retval0[{size}]) ")?;
        }
    }
    write!(s, "{name}(")?;
    for (i, t) in sig.params.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write!(s, ".param {} {name}_param_{i}", abi_decl(*t))?;
    }
    s.push(')');
    Ok(s)
}

impl<'o, W: fmt::Write> Writer<'o, W> {
    /// A writer for `opts` onto `out`.
    pub fn new(out: W, opts: &'o PtxOptions) -> Writer<'o, W> {
        Writer { out, opts }
    }

    /// Writes the whole module; a module that does not verify is refused.
    pub fn module(&mut self, m: &Module) -> Result<(), PtxError> {
        ompcc_ir::verify_module(m).map_err(PtxError::InvalidIr)?;
        let names = m
            .globals
            .iter()
            .map(|g| &g.name)
            .chain(m.decls.iter().map(|d| &d.name))
            .chain(m.functions.iter().map(|f| &f.name));
        for n in names {
            if !valid_name(n) {
                return Err(PtxError::BadName(n.clone()));
            }
        }
        // `alloca`, `stacksave` and `stackrestore` need PTX ISA 7.3.
        let dynamic_stack = m.functions.iter().any(|f| {
            f.layout.all_insts().any(|i| {
                matches!(
                    f.dfg.inst(i).opcode(),
                    Opcode::StackAlloc | Opcode::StackSave | Opcode::StackRestore
                )
            })
        });
        let v = if dynamic_stack {
            self.opts.ptx_version().max(73)
        } else {
            self.opts.ptx_version()
        };
        writeln!(self.out, "//\n// Generated by ompcc\n//\n")?;
        writeln!(self.out, ".version {}.{}", v / 10, v % 10)?;
        writeln!(self.out, ".target sm_{}", self.opts.sm)?;
        writeln!(self.out, ".address_size 64")?;
        if self.opts.line_info && !m.files.is_empty() {
            writeln!(self.out)?;
            for (i, name) in m.files.iter().enumerate() {
                writeln!(self.out, ".file {} {}", i + 1, ptx_string(name))?;
            }
        }
        if !m.decls.is_empty() {
            writeln!(self.out)?;
        }
        for d in &m.decls {
            writeln!(
                self.out,
                ".extern .func {};",
                func_prototype(&d.name, &d.sig)?
            )?;
        }
        if !m.globals.is_empty() {
            writeln!(self.out)?;
        }
        let has_relocs = |g: &GlobalData| m.relocs.get(&g.name).is_some_and(|r| !r.is_empty());
        for g in m.globals.iter().filter(|g| !has_relocs(g)) {
            self.global(g, m.linkage_of(&g.name))?;
        }
        let devices: Vec<&Function> = m
            .functions
            .iter()
            .filter(|f| f.kind == FuncKind::Device)
            .collect();
        if !devices.is_empty() {
            writeln!(self.out)?;
        }
        for f in devices {
            writeln!(
                self.out,
                "{}.func {};",
                visibility(m.linkage_of(&f.name)),
                func_prototype(&f.name, &f.sig)?
            )?;
        }
        // Initializers holding addresses name symbols declared before them: after the plain
        // globals and the function prototypes, each after the relocated globals it names.
        let mut pending: Vec<&GlobalData> = m.globals.iter().filter(|g| has_relocs(g)).collect();
        if !pending.is_empty() {
            writeln!(self.out)?;
        }
        while !pending.is_empty() {
            let ready = pending.iter().position(|g| {
                m.relocs[&g.name]
                    .iter()
                    .all(|r| !pending.iter().any(|p| p.name == r.target))
            });
            let Some(i) = ready else {
                return Err(PtxError::Unsupported {
                    symbol: pending[0].name.clone(),
                    reason: "global initializers that refer to each other (or to themselves) \
                             cannot be written in PTX"
                        .into(),
                });
            };
            let g = pending.remove(i);
            self.relocated_global(g, &m.relocs[&g.name], m)?;
        }
        // Callable: the module's functions and its `extern` declarations (defined by another
        // unit, resolved by the device link), besides the CUDA runtime's.
        let defined: Vec<String> = m
            .functions
            .iter()
            .map(|f| f.name.clone())
            .chain(
                m.decls
                    .iter()
                    .filter(|d| m.linkage_of(&d.name) == Linkage::Extern)
                    .map(|d| d.name.clone()),
            )
            .collect();
        for f in &m.functions {
            writeln!(self.out)?;
            let mut f = f.clone();
            legalize(&mut f);
            ompcc_ir::verify_function(&f).map_err(|e| PtxError::Unsupported {
                symbol: f.name.clone(),
                reason: format!(
                    "legalization produced invalid IR (a backend bug): {}",
                    e.first().map_or(String::new(), |e| e.to_string())
                ),
            })?;
            let linkage = m.linkage_of(&f.name);
            let text = FuncEmitter::new(&f, self.opts, defined.clone()).function(linkage)?;
            self.out.write_str(&text)?;
        }
        Ok(())
    }

    /// A global whose initializer holds addresses: a `.u64` array, each 8-byte unit either the
    /// initializer's bytes or `generic(sym)+addend` (`+(-N)` when negative; a function's name
    /// for a function).
    fn relocated_global(
        &mut self,
        g: &GlobalData,
        relocs: &[ompcc_ir::Reloc],
        m: &Module,
    ) -> Result<(), PtxError> {
        let bad = |reason: &str| PtxError::Unsupported {
            symbol: g.name.clone(),
            reason: reason.into(),
        };
        if !g.size.is_multiple_of(8) || g.align < 8 {
            return Err(bad(
                "a global holding addresses must be a multiple of 8 bytes, 8-aligned",
            ));
        }
        let space = match (g.space, m.linkage_of(&g.name)) {
            (AddrSpace::Const, Linkage::Internal) => ".const",
            (AddrSpace::Const, _) => ".visible .const",
            (_, Linkage::Internal) => ".global",
            _ => ".visible .global",
        };
        let init = g.init.as_deref().unwrap_or(&[]);
        // Initializers may be incomplete (PTX ISA 5.4.4: the rest is zero): write up to the
        // last address or nonzero byte, so a large object costs its initialized part only.
        let nonzero = init
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i as u64 / 8 + 1);
        let last_reloc = relocs.iter().map(|r| r.offset / 8 + 1).max().unwrap_or(0);
        let used = nonzero.max(last_reloc).min(g.size / 8);
        let mut units = Vec::with_capacity(used as usize);
        for u in 0..used {
            let off = u * 8;
            if let Some(r) = relocs.iter().find(|r| r.offset == off) {
                let extern_func = m.decls.iter().any(|d| d.name == r.target)
                    && m.linkage_of(&r.target) == Linkage::Extern;
                if m.function(&r.target).is_some() || extern_func {
                    if r.addend != 0 {
                        return Err(bad("an offset from a function's address"));
                    }
                    units.push(r.target.clone());
                } else if r.addend == 0 {
                    units.push(format!("generic({})", r.target));
                } else if r.addend < 0 {
                    // ptxas parses no `-` here, only `+` of a parenthesized negative.
                    units.push(format!("generic({})+({})", r.target, r.addend));
                } else {
                    units.push(format!("generic({})+{}", r.target, r.addend));
                }
                continue;
            }
            let mut b = [0u8; 8];
            for (i, x) in b.iter_mut().enumerate() {
                *x = init.get(off as usize + i).copied().unwrap_or(0);
            }
            units.push(u64::from_le_bytes(b).to_string());
        }
        writeln!(
            self.out,
            "{space} .align {} .u64 {}[{}] = {{{}}};",
            g.align,
            g.name,
            g.size / 8,
            units.join(", ")
        )?;
        Ok(())
    }

    fn global(&mut self, g: &GlobalData, linkage: Linkage) -> Result<(), PtxError> {
        if linkage == Linkage::Extern {
            // The verifier allows `extern` for the dynamic shared array (unsized) and for
            // variables another module defines (sized, so ptxas checks accesses against it).
            match g.space {
                AddrSpace::Shared => writeln!(
                    self.out,
                    ".extern .shared .align {} .b8 {}[];",
                    g.align, g.name
                )?,
                space => writeln!(
                    self.out,
                    ".extern .{} .align {} .b8 {}[{}];",
                    if space == AddrSpace::Const {
                        "const"
                    } else {
                        "global"
                    },
                    g.align,
                    g.name,
                    g.size
                )?,
            }
            return Ok(());
        }
        if g.size == 0 {
            return Err(PtxError::Unsupported {
                symbol: g.name.clone(),
                reason: "PTX has no zero-sized variables".into(),
            });
        }
        // `.visible` does not apply to `.shared`: shared memory belongs to one block.
        let space = match (g.space, linkage) {
            (AddrSpace::Shared, _) => ".shared",
            (AddrSpace::Const, Linkage::Internal) => ".const",
            (AddrSpace::Const, _) => ".visible .const",
            (_, Linkage::Internal) => ".global",
            _ => ".visible .global",
        };
        write!(
            self.out,
            "{space} .align {} .b8 {}[{}]",
            g.align, g.name, g.size
        )?;
        // Globals start as zero; an initializer may be incomplete (PTX ISA 5.4.4), so it
        // stops at the last nonzero byte and an all-zero object has none.
        let init = g.init.as_deref().unwrap_or(&[]);
        let used = init
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i + 1)
            .min(g.size as usize);
        if used > 0 {
            self.out.write_str(" = {")?;
            for (i, b) in init[..used].iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(self.out, "{sep}{b}")?;
            }
            self.out.write_str("}")?;
        }
        writeln!(self.out, ";")?;
        Ok(())
    }
}

/// A trampoline: the copies of one conditional edge, then a branch to its block.
struct Trampoline {
    label: String,
    moves: Vec<(Reg, Reg)>,
    target: Block,
}

/// Emits one (legalized) function.
pub(crate) struct FuncEmitter<'f> {
    pub(crate) func: &'f Function,
    pub(crate) opts: &'f PtxOptions,
    pub(crate) regs: RegAlloc,
    vregs: SecondaryMap<Value, Option<Reg>>,
    body: String,
    trampolines: Vec<Trampoline>,
    labels: u32,
    /// Names of the functions the module defines (callable without the runtime).
    defined: Vec<String>,
    /// The last `.loc` written, so repeated locations are written once.
    last_loc: ompcc_ir::SourceLoc,
    /// Every value whose register was asked for, in order (see [`Chunk`]).
    refs: Vec<Value>,
    /// Values that live in a block parameter's register (`coalesce`).
    coalesced: SecondaryMap<Value, Option<Value>>,
}

/// The text one non-terminator instruction emitted and the registers it referenced. An
/// instruction folded away into its users (a constant that became an immediate, a
/// `ptr_offset` that became a `[reg+imm]` address) leaves its own text unreferenced; such
/// text of side-effect-free instructions is dropped after the function is written.
struct Chunk {
    inst: Inst,
    text: std::ops::Range<usize>,
    refs: std::ops::Range<usize>,
}

impl<'f> FuncEmitter<'f> {
    fn new(func: &'f Function, opts: &'f PtxOptions, defined: Vec<String>) -> FuncEmitter<'f> {
        FuncEmitter {
            func,
            opts,
            regs: RegAlloc::default(),
            vregs: SecondaryMap::new(),
            body: String::new(),
            trampolines: Vec::new(),
            labels: 0,
            defined,
            last_loc: ompcc_ir::SourceLoc::default(),
            refs: Vec::new(),
            coalesced: crate::coalesce::coalesced_params(func),
        }
    }

    /// Emits one instruction line (`\t<text>;`).
    pub(crate) fn e(&mut self, text: impl fmt::Display) {
        // Writing to a String cannot fail.
        let _ = writeln!(self.body, "\t{text};");
    }

    /// Emits a line as is (labels, braces, directives).
    pub(crate) fn raw(&mut self, text: impl fmt::Display) {
        let _ = writeln!(self.body, "{text}");
    }

    /// The register of `v`.
    pub(crate) fn v(&mut self, v: Value) -> Reg {
        self.refs.push(v);
        let owner = self.coalesced[v].unwrap_or(v);
        if let Some(r) = self.vregs[owner] {
            return r;
        }
        let r = self
            .regs
            .fresh(RegClass::of(self.func.dfg.value_type(owner)));
        self.vregs[owner] = Some(r);
        r
    }

    /// The type of `v`.
    pub(crate) fn ty(&self, v: Value) -> Type {
        self.func.dfg.value_type(v)
    }

    /// A fresh temporary register.
    pub(crate) fn tmp(&mut self, class: RegClass) -> Reg {
        self.regs.fresh(class)
    }

    /// An error about this function.
    pub(crate) fn unsupported(&self, reason: impl Into<String>) -> PtxError {
        PtxError::Unsupported {
            symbol: self.func.name.clone(),
            reason: reason.into(),
        }
    }

    fn label(b: Block) -> String {
        format!("$L__BB{}", b.index())
    }

    pub(crate) fn fresh_label(&mut self, kind: &str) -> String {
        self.labels += 1;
        format!("$L__{kind}{}", self.labels)
    }

    fn function(mut self, linkage: Linkage) -> Result<String, PtxError> {
        let f = self.func;
        let name = &f.name;
        let mut head = String::new();
        match f.kind {
            FuncKind::Kernel => {
                write!(head, ".visible .entry {name}(")?;
                for (i, t) in f.sig.params.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(
                        head,
                        "{sep}\n\t.param {} {name}_param_{i}",
                        kernel_param(*t)
                    )?;
                }
                head.push_str(if f.sig.params.is_empty() {
                    ")\n"
                } else {
                    "\n)\n"
                });
                let lb = f.launch_bounds;
                if let Some(n) = lb.max_threads {
                    writeln!(head, ".maxntid {n}, 1, 1")?;
                }
                if let Some([x, y, z]) = lb.req_threads {
                    writeln!(head, ".reqntid {x}, {y}, {z}")?;
                }
                if let Some(n) = lb.min_blocks {
                    writeln!(head, ".minnctapersm {n}")?;
                }
            }
            FuncKind::Device => {
                writeln!(
                    head,
                    "{}.func {}",
                    visibility(linkage),
                    func_prototype(name, &f.sig)?
                )?;
            }
        }
        let blocks: Vec<Block> = f.layout.blocks().collect();
        let mut chunks = Vec::new();
        for (i, &block) in blocks.iter().enumerate() {
            if i == 0 {
                self.params(block);
            } else {
                self.raw(format_args!("{}:", Self::label(block)));
            }
            let next = blocks.get(i + 1).copied();
            for inst in f.layout.block_insts(block) {
                self.srcloc(inst);
                if f.dfg.inst(inst).opcode().is_terminator() {
                    self.terminator(inst, next)?;
                } else {
                    let (text, refs) = (self.body.len(), self.refs.len());
                    self.inst(inst)?;
                    chunks.push(Chunk {
                        inst,
                        text: text..self.body.len(),
                        refs: refs..self.refs.len(),
                    });
                }
            }
        }
        for t in std::mem::take(&mut self.trampolines) {
            self.raw(format_args!("{}:", t.label));
            self.moves(&t.moves);
            self.e(format_args!("bra {}", Self::label(t.target)));
        }
        head.push_str("{\n");
        head.push_str(&self.regs.declarations());
        for (ss, d) in f.stack_slots.iter() {
            writeln!(
                head,
                "\t.local .align {} .b8 __stack_{}[{}];",
                d.align,
                ss.index(),
                d.size.max(1)
            )?;
        }
        head.push_str(&self.live_text(&chunks));
        head.push_str("}\n");
        Ok(head)
    }

    /// The body without the text of side-effect-free instructions whose registers nothing
    /// live references because their uses were all folded into immediates or addresses.
    /// Instructions the IR itself leaves unused stay (dead code is the optimizer's to
    /// remove, and `-O0` output keeps it).
    fn live_text(&self, chunks: &[Chunk]) -> String {
        let f = self.func;
        let dfg = &f.dfg;
        let mut used: rustc_hash::FxHashSet<Value> = Default::default();
        for inst in f.layout.blocks().flat_map(|b| f.layout.block_insts(b)) {
            used.extend(dfg.inst_args(inst));
            for call in dfg.branch_destinations(inst) {
                used.extend(dfg.block_call_args(call));
            }
        }
        let removable = |c: &Chunk| {
            let op = dfg.inst(c.inst).opcode();
            !op.has_side_effects()
                && !op.reads_memory()
                && !op.can_trap()
                && dfg.inst_results(c.inst).iter().any(|r| used.contains(r))
        };
        let mut defined_by: rustc_hash::FxHashMap<Value, usize> = Default::default();
        let mut inside = vec![false; self.refs.len()];
        for (ci, c) in chunks.iter().enumerate().filter(|(_, c)| removable(c)) {
            for &r in dfg.inst_results(c.inst) {
                defined_by.insert(r, ci);
            }
            inside[c.refs.clone()].iter_mut().for_each(|x| *x = true);
        }
        // Roots: every reference made outside removable instructions.
        let mut work: Vec<Value> = (0..self.refs.len())
            .filter(|&k| !inside[k])
            .map(|k| self.refs[k])
            .collect();
        let mut live = vec![false; chunks.len()];
        while let Some(v) = work.pop() {
            if let Some(&ci) = defined_by.get(&v)
                && !live[ci]
            {
                live[ci] = true;
                work.extend_from_slice(&self.refs[chunks[ci].refs.clone()]);
            }
        }
        let mut out = String::with_capacity(self.body.len());
        let mut at = 0;
        for (ci, c) in chunks.iter().enumerate() {
            if removable(c) && !live[ci] {
                out.push_str(&self.body[at..c.text.start]);
                at = c.text.end;
            }
        }
        out.push_str(&self.body[at..]);
        if !self.opts.line_info {
            return out;
        }
        // A `.loc` whose instructions were all dropped describes nothing.
        let lines: Vec<&str> = out.lines().collect();
        let mut kept = String::with_capacity(out.len());
        for (k, line) in lines.iter().enumerate() {
            let is_loc = |l: &str| l.starts_with("\t.loc ");
            if is_loc(line) && lines.get(k + 1).is_some_and(|n| is_loc(n)) {
                continue;
            }
            kept.push_str(line);
            kept.push('\n');
        }
        kept
    }

    /// Writes `.loc` for `inst` when line info is on and its location is known and new.
    fn srcloc(&mut self, inst: Inst) {
        let loc = self.func.srcloc(inst);
        if !self.opts.line_info || loc.is_unknown() || loc == self.last_loc {
            return;
        }
        self.last_loc = loc;
        self.raw(format_args!(
            "\t.loc {} {} {}",
            loc.file + 1,
            loc.line,
            loc.col
        ));
    }

    /// Loads the entry block's parameters from the `.param` space.
    fn params(&mut self, entry: Block) {
        let f = self.func;
        let kernel = f.kind == FuncKind::Kernel;
        for (i, &p) in f.dfg.block_params(entry).iter().enumerate() {
            let t = self.ty(p);
            let r = self.v(p);
            let src = format!("[{}_param_{i}]", f.name);
            match (t, kernel) {
                (Type::I1, true) => {
                    let b = self.tmp(RegClass::B16);
                    self.e(format_args!("ld.param.u8 {b}, {src}"));
                    self.e(format_args!("setp.ne.b16 {r}, {b}, 0"));
                }
                (Type::I1, false) => {
                    let b = self.tmp(RegClass::B32);
                    self.e(format_args!("ld.param.b32 {b}, {src}"));
                    self.e(format_args!("setp.ne.b32 {r}, {b}, 0"));
                }
                // The host passes generic addresses; PTX defines the global window apart.
                (Type::Ptr(AddrSpace::Global), true) => {
                    let g = self.tmp(RegClass::B64);
                    self.e(format_args!("ld.param.u64 {g}, {src}"));
                    self.e(format_args!("cvta.to.global.u64 {r}, {g}"));
                }
                (t, true) => self.e(format_args!("ld.param.{} {r}, {src}", mem(t))),
                (t, false) => self.e(format_args!("ld.param.{} {r}, {src}", abi_move(t))),
            }
        }
    }

    /// `mov` for each sequential copy.
    fn moves(&mut self, moves: &[(Reg, Reg)]) {
        for (d, s) in moves {
            self.e(format_args!("mov.{} {d}, {s}", d.class.mov()));
        }
    }

    /// Whether a block call moves anything (an argument coalesced with its parameter shares
    /// the register).
    fn has_moves(&self, call: &BlockCall) -> bool {
        let dfg = &self.func.dfg;
        let owner = |v: Value| self.coalesced[v].unwrap_or(v);
        let params = dfg.block_params(call.block);
        params
            .iter()
            .zip(dfg.block_call_args(call))
            .any(|(&p, &a)| owner(p) != owner(a))
    }

    /// The sequentialized copies of a block call.
    fn edge_moves(&mut self, call: &BlockCall) -> Vec<(Reg, Reg)> {
        let dfg = &self.func.dfg;
        let pairs: Vec<(Value, Value)> = dfg
            .block_params(call.block)
            .iter()
            .copied()
            .zip(dfg.block_call_args(call).iter().copied())
            .collect();
        let regs: Vec<(Reg, Reg)> = pairs.iter().map(|&(p, a)| (self.v(p), self.v(a))).collect();
        let mut alloc = std::mem::take(&mut self.regs);
        let seq = sequentialize(&regs, |r| alloc.fresh(r.class));
        self.regs = alloc;
        seq
    }

    /// The label a conditional branch along `call` jumps to: the block itself when the edge
    /// has no copies, else a new trampoline.
    fn cond_target(&mut self, call: &BlockCall) -> String {
        let moves = self.edge_moves(call);
        if moves.is_empty() {
            return Self::label(call.block);
        }
        let label = self.fresh_label("E");
        self.trampolines.push(Trampoline {
            label: label.clone(),
            moves,
            target: call.block,
        });
        label
    }

    /// Copies for `call` inline, then a branch unless `call.block` comes next.
    fn fallthrough_edge(&mut self, call: &BlockCall, next: Option<Block>) {
        let moves = self.edge_moves(call);
        self.moves(&moves);
        if next != Some(call.block) {
            self.e(format_args!("bra {}", Self::label(call.block)));
        }
    }

    fn terminator(&mut self, inst: Inst, next: Option<Block>) -> Result<(), PtxError> {
        let f = self.func;
        match f.dfg.inst(inst) {
            InstData::Jump { dest } => self.fallthrough_edge(dest, next),
            InstData::Brif {
                arg,
                blocks: [t, e],
            } => {
                let c = self.v(*arg);
                let (tm, em) = (self.has_moves(t), self.has_moves(e));
                // Branch along an edge without copies where possible, so the other edge's
                // copies run on the fallthrough path; prefer falling through to `next`.
                if !em && (tm || next == Some(t.block)) {
                    // No copies, but the edge still reads its arguments (coalesced with the
                    // parameters): keep their definitions live.
                    let none = self.edge_moves(e);
                    debug_assert!(none.is_empty());
                    self.e(format_args!("@!{c} bra {}", Self::label(e.block)));
                    self.fallthrough_edge(t, next);
                } else {
                    let target = self.cond_target(t);
                    self.e(format_args!("@{c} bra {target}"));
                    self.fallthrough_edge(e, next);
                }
            }
            InstData::BrTable { arg, .. } => {
                let calls = f.dfg.branch_destinations(inst).to_vec();
                let idx = self.v(*arg);
                self.br_table(idx, self.ty(*arg), &calls, next);
            }
            InstData::Return { args } => {
                let vals = args.as_slice(&f.dfg.value_lists).to_vec();
                let base = format!("{}_retval0", f.name);
                for (i, &v) in vals.iter().enumerate() {
                    let r = self.v(v);
                    let t = self.ty(v);
                    self.store_param(&ret_slot(&base, &f.sig.returns, i), r, t);
                }
                self.e("ret");
            }
            // Reaching `unreachable` is undefined; trapping makes it loud.
            InstData::Nullary { .. } => self.e("trap"),
            _ => return Err(self.unsupported("unknown terminator")),
        }
        Ok(())
    }

    /// `st.param` of a value of type `t` (i1 as a 32-bit 0/1).
    fn store_param(&mut self, dst: &str, r: Reg, t: Type) {
        if t == Type::I1 {
            let b = self.tmp(RegClass::B32);
            self.e(format_args!("selp.u32 {b}, 1, 0, {r}"));
            self.e(format_args!("st.param.b32 {dst}, {b}"));
        } else {
            self.e(format_args!("st.param.{} {dst}, {r}", abi_move(t)));
        }
    }

    /// `br_table`: a compare chain for small tables; otherwise a bounds check, then a binary
    /// search of compares, or `brx.idx` when `PtxOptions::jump_tables` asks for it.
    fn br_table(&mut self, idx: Reg, ty: Type, calls: &[BlockCall], next: Option<Block>) {
        let Some((default, table)) = calls.split_first() else {
            return;
        };
        let w = ty.bits();
        if table.len() <= 3 {
            for (k, call) in table.iter().enumerate() {
                let target = self.cond_target(call);
                let p = self.tmp(RegClass::Pred);
                self.e(format_args!("setp.eq.b{w} {p}, {idx}, {k}"));
                self.e(format_args!("@{p} bra {target}"));
            }
            self.fallthrough_edge(default, next);
            return;
        }
        let p = self.tmp(RegClass::Pred);
        self.e(format_args!("setp.ge.u{w} {p}, {idx}, {}", table.len()));
        let dflt = self.cond_target(default);
        self.e(format_args!("@{p} bra {dflt}"));
        let targets: Vec<String> = table.iter().map(|c| self.cond_target(c)).collect();
        if !self.opts.jump_tables {
            self.search_tree(idx, w, &targets, 0);
            return;
        }
        let idx32 = if w == 64 {
            let r = self.tmp(RegClass::B32);
            self.e(format_args!("cvt.u32.u64 {r}, {idx}"));
            r
        } else {
            idx
        };
        let tbl = self.fresh_label("T");
        self.raw(format_args!(
            "{tbl}: .branchtargets {};",
            targets.join(", ")
        ));
        self.e(format_args!("brx.idx {idx32}, {tbl}"));
    }

    /// Branches to `targets[idx - lo]` by binary search, `idx` known to be in range: halves
    /// with `setp.lt`, then up to three equality tests, the last one implied.
    fn search_tree(&mut self, idx: Reg, w: u32, targets: &[String], lo: usize) {
        if targets.len() <= 3 {
            let Some((last, rest)) = targets.split_last() else {
                return;
            };
            for (k, t) in rest.iter().enumerate() {
                let p = self.tmp(RegClass::Pred);
                self.e(format_args!("setp.eq.b{w} {p}, {idx}, {}", lo + k));
                self.e(format_args!("@{p} bra {t}"));
            }
            self.e(format_args!("bra {last}"));
            return;
        }
        let mid = targets.len() / 2;
        let left = self.fresh_label("S");
        let p = self.tmp(RegClass::Pred);
        self.e(format_args!("setp.lt.u{w} {p}, {idx}, {}", lo + mid));
        self.e(format_args!("@{p} bra {left}"));
        self.search_tree(idx, w, &targets[mid..], lo + mid);
        self.raw(format_args!("{left}:"));
        self.search_tree(idx, w, &targets[..mid], lo);
    }

    /// Whether `name` is a function of the module or of the CUDA device runtime.
    pub(crate) fn is_defined(&self, name: &str) -> bool {
        self.defined.iter().any(|d| d == name) || RUNTIME_FUNCS.contains(&name)
    }

    /// A call through the `.param` convention, in its own `{ }` scope: `call` names the
    /// callee, `call_indirect` passes its register and a `.callprototype` of the signature.
    pub(crate) fn call(&mut self, inst: Inst) -> Result<(), PtxError> {
        let f = self.func;
        let (target, sig, args) = match f.dfg.inst(inst) {
            InstData::Call { func, args } => {
                let callee = &f.dfg.ext_funcs[*func];
                if !self.is_defined(&callee.name) {
                    return Err(self.unsupported(format!(
                        "`{}` is neither defined in the module (nor declared `extern`) nor a CUDA device runtime function ({})",
                        callee.name,
                        RUNTIME_FUNCS.join(", ")
                    )));
                }
                let args = args.as_slice(&f.dfg.value_lists).to_vec();
                (None, callee.sig.clone(), args)
            }
            InstData::CallIndirect { sig, args } => {
                let all = args.as_slice(&f.dfg.value_lists);
                let Some((&callee, rest)) = all.split_first() else {
                    return Err(self.unsupported("`call_indirect` without a callee"));
                };
                (Some(callee), f.dfg.signatures[*sig].clone(), rest.to_vec())
            }
            _ => return Ok(()),
        };
        let results = f.dfg.inst_results(inst).to_vec();
        self.raw("\t{");
        let mut names = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let t = self.ty(a);
            let r = self.v(a);
            self.e(format_args!(".param {} param{i}", abi_decl(t)));
            self.store_param(&format!("[param{i}]"), r, t);
            names.push(format!("param{i}"));
        }
        let rets = sig.returns.clone();
        let ret = match rets.as_slice() {
            [] => "",
            [t] => {
                self.e(format_args!(".param {} retval0", abi_decl(*t)));
                "(retval0), "
            }
            _ => {
                let (_, size, align) = ret_layout(&rets);
                self.e(format_args!(".param .align {align} .b8 retval0[{size}]"));
                "(retval0), "
            }
        };
        // Plain `call`, not `call.uni`: the call may sit in divergent code.
        let (callee, proto) = match target {
            None => match f.dfg.inst(inst) {
                InstData::Call { func, .. } => (f.dfg.ext_funcs[*func].name.clone(), None),
                _ => return Ok(()),
            },
            Some(v) => {
                let label = self.fresh_label("proto");
                // The label is local to the call's `{ }` scope; `$` names are not.
                let label = label.trim_start_matches('$').to_string();
                let r = self.v(v);
                self.raw(format_args!(
                    "\t{label}: .callprototype {};",
                    call_prototype(&sig)
                ));
                (r.to_string(), Some(label))
            }
        };
        let list = if names.is_empty() {
            String::new()
        } else {
            format!(", ({})", names.join(", "))
        };
        match proto {
            // PTX wants the argument list even when empty before a prototype.
            Some(p) => self.e(format_args!(
                "call {ret}{callee}, ({}), {p}",
                names.join(", ")
            )),
            None => self.e(format_args!("call {ret}{callee}{list}")),
        }
        for (i, &v) in results.iter().enumerate() {
            let t = self.ty(v);
            let r = self.v(v);
            let src = ret_slot("retval0", &rets, i);
            if t == Type::I1 {
                let b = self.tmp(RegClass::B32);
                self.e(format_args!("ld.param.b32 {b}, {src}"));
                self.e(format_args!("setp.ne.b32 {r}, {b}, 0"));
            } else {
                self.e(format_args!("ld.param.{} {r}, {src}", abi_move(t)));
            }
        }
        self.raw("\t}");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(valid_name("saxpy"));
        assert!(valid_name("_Z3fooi"));
        assert!(valid_name("$x"));
        assert!(!valid_name("_"));
        assert!(!valid_name("a.b"));
        assert!(!valid_name("1a"));
        assert!(!valid_name(""));
    }
}
