//! The text printer.
//!
//! Prints exactly the syntax `parser` reads, with the same entity numbers unless renumbering is
//! asked for (blocks in layout order, values in definition order), which keeps snapshots stable
//! across unrelated changes. Annotations (verifier errors) are printed as `; error:` comment
//! lines right after the line of the entity they belong to, so annotated text still parses.
//! Source locations print as a trailing `!loc FILE:LINE:COL` on instruction lines and the
//! module's file table as `file N "path"` lines before everything else.

use crate::entities::{AnyEntity, Block, Inst, Value};
use crate::function::{Function, Module};
use crate::instructions::InstData;
use crate::types::Type;
use cranelift_entity::{EntityRef, SecondaryMap};
use rustc_hash::FxHashMap;
use std::fmt::{self, Write};

/// Printing options.
#[derive(Default, Clone, Copy)]
pub struct WriteOptions<'a> {
    /// Renumber blocks and values densely in layout order.
    pub renumber: bool,
    /// Comment lines to print after an entity's line.
    pub annotations: Option<&'a FxHashMap<AnyEntity, Vec<String>>>,
}

struct Printer<'a> {
    func: &'a Function,
    opts: WriteOptions<'a>,
    vnum: SecondaryMap<Value, Option<u32>>,
    bnum: SecondaryMap<Block, Option<u32>>,
    // First number handed to values (blocks) that are used but not defined in the layout.
    vspill: u32,
    bspill: u32,
}

impl Printer<'_> {
    fn v(&self, v: Value) -> String {
        if self.opts.renumber {
            let n = self.vnum[v].unwrap_or(self.vspill + v.index() as u32);
            format!("v{n}")
        } else {
            v.to_string()
        }
    }

    fn b(&self, b: Block) -> String {
        if self.opts.renumber {
            let n = self.bnum[b].unwrap_or(self.bspill + b.index() as u32);
            format!("block{n}")
        } else {
            b.to_string()
        }
    }

    fn vs(&self, vs: &[Value]) -> String {
        vs.iter().map(|v| self.v(*v)).collect::<Vec<_>>().join(", ")
    }

    fn call(&self, call: &crate::instructions::BlockCall) -> String {
        let args = self.func.dfg.block_call_args(call);
        if args.is_empty() {
            self.b(call.block)
        } else {
            format!("{}({})", self.b(call.block), self.vs(args))
        }
    }

    fn annotate(&self, w: &mut dyn Write, e: AnyEntity, indent: &str) -> fmt::Result {
        if let Some(notes) = self.opts.annotations.and_then(|a| a.get(&e)) {
            for n in notes {
                writeln!(w, "{indent}; error: {n}")?;
            }
        }
        Ok(())
    }

    fn inst(&self, w: &mut dyn Write, inst: Inst) -> fmt::Result {
        let dfg = &self.func.dfg;
        let data = dfg.inst(inst);
        let op = data.opcode();
        let results = dfg.inst_results(inst);
        w.write_str("    ")?;
        if !results.is_empty() {
            write!(w, "{} = ", self.vs(results))?;
        }
        w.write_str(op.name())?;
        let ctrl = results.first().map(|r| dfg.value_type(*r));
        if op.has_ctrl_type()
            && let Some(t) = ctrl
        {
            write!(w, ".{t}")?;
        }
        match data {
            InstData::Nullary { .. } => {}
            InstData::UnaryImm { imm, .. } => write!(w, " {imm}")?,
            InstData::UnaryIeee { bits, .. } => {
                write!(w, " {}", format_float(ctrl.unwrap_or(Type::F64), *bits))?
            }
            InstData::Unary { arg, .. } => write!(w, " {}", self.v(*arg))?,
            InstData::Binary { args, flags, .. } => write!(w, "{flags} {}", self.vs(args))?,
            InstData::Ternary { args, .. } => write!(w, " {}", self.vs(args))?,
            InstData::IntCompare { cond, args } => write!(w, " {cond} {}", self.vs(args))?,
            InstData::FloatCompare { cond, args } => write!(w, " {cond} {}", self.vs(args))?,
            InstData::Special { reg } => write!(w, " {reg}")?,
            InstData::Load { space, flags, arg } => write!(w, " {space} {flags} {}", self.v(*arg))?,
            InstData::Store { space, flags, args } => {
                write!(w, " {space} {flags} {}", self.vs(args))?
            }
            InstData::StackAddr { slot } => write!(w, " {slot}")?,
            InstData::GlobalAddr { global } => write!(w, " {global}")?,
            InstData::Call { func, args } => {
                write!(w, " {func}({})", self.vs(args.as_slice(&dfg.value_lists)))?
            }
            InstData::FuncAddr { func } => write!(w, " {func}")?,
            InstData::CallIndirect { sig, args } => {
                let a = args.as_slice(&dfg.value_lists);
                let (callee, rest) = a
                    .split_first()
                    .map_or((String::new(), &[][..]), |(c, r)| (self.v(*c), r));
                write!(w, " {sig}, {callee}({})", self.vs(rest))?
            }
            InstData::Return { args } => {
                let a = args.as_slice(&dfg.value_lists);
                if !a.is_empty() {
                    write!(w, " {}", self.vs(a))?;
                }
            }
            InstData::Jump { dest } => write!(w, " {}", self.call(dest))?,
            InstData::Brif { arg, blocks } => write!(
                w,
                " {}, {}, {}",
                self.v(*arg),
                self.call(&blocks[0]),
                self.call(&blocks[1])
            )?,
            InstData::BrTable { arg, .. } => {
                let calls = dfg.branch_destinations(inst);
                let (default, rest) = calls
                    .split_first()
                    .map_or((String::new(), &[][..]), |(d, r)| (self.call(d), r));
                let table: Vec<String> = rest.iter().map(|c| self.call(c)).collect();
                write!(w, " {}, {default}, [{}]", self.v(*arg), table.join(", "))?
            }
            InstData::AtomicRmw {
                op,
                space,
                scope,
                args,
            } => write!(w, " {op} {space} {scope} {}", self.vs(args))?,
            InstData::AtomicCas { space, scope, args } => {
                write!(w, " {space} {scope} {}", self.vs(args))?
            }
            InstData::Fence { scope } => write!(w, " {scope}")?,
            InstData::Shuffle { mode, args } => write!(w, " {mode} {}", self.vs(args))?,
            InstData::Vote { mode, args } => write!(w, " {mode} {}", self.vs(args))?,
        }
        let loc = self.func.srcloc(inst);
        if !loc.is_unknown() {
            write!(w, " !loc {loc}")?;
        }
        writeln!(w)?;
        self.annotate(w, AnyEntity::Inst(inst), "    ")?;
        for r in results {
            self.annotate(w, AnyEntity::Value(*r), "    ")?;
        }
        Ok(())
    }

    fn function(&self, w: &mut dyn Write) -> fmt::Result {
        let f = self.func;
        writeln!(
            w,
            "{} @{}{}{}{} {{",
            f.kind.keyword(),
            f.name,
            f.sig,
            f.launch_bounds,
            f.attrs
        )?;
        self.annotate(w, AnyEntity::Function, "    ")?;
        let mut preamble = false;
        for (ss, d) in f.stack_slots.iter() {
            writeln!(
                w,
                "    {ss} = stack_slot size {}, align {}",
                d.size, d.align
            )?;
            self.annotate(w, AnyEntity::StackSlot(ss), "    ")?;
            preamble = true;
        }
        for (gv, d) in f.dfg.globals.iter() {
            writeln!(w, "    {gv} = global @{}: {}", d.name, d.space)?;
            self.annotate(w, AnyEntity::GlobalRef(gv), "    ")?;
            preamble = true;
        }
        for (r, d) in f.dfg.ext_funcs.iter() {
            writeln!(w, "    {r} = func @{}{}", d.name, d.sig)?;
            self.annotate(w, AnyEntity::FuncRef(r), "    ")?;
            preamble = true;
        }
        for (s, sig) in f.dfg.signatures.iter() {
            writeln!(w, "    {s} = {sig}")?;
            self.annotate(w, AnyEntity::SigRef(s), "    ")?;
            preamble = true;
        }
        for (i, block) in f.layout.blocks().enumerate() {
            if i > 0 || preamble {
                writeln!(w)?;
            }
            w.write_str(&self.b(block))?;
            let params = f.dfg.block_params(block);
            if !params.is_empty() {
                let ps: Vec<String> = params
                    .iter()
                    .map(|p| format!("{}: {}", self.v(*p), f.dfg.value_type(*p)))
                    .collect();
                write!(w, "({})", ps.join(", "))?;
            }
            if let Some(hint) = f.loop_hints[block] {
                write!(w, " {hint}")?;
            }
            writeln!(w, ":")?;
            self.annotate(w, AnyEntity::Block(block), "    ")?;
            for p in params {
                self.annotate(w, AnyEntity::Value(*p), "    ")?;
            }
            for inst in f.layout.block_insts(block) {
                self.inst(w, inst)?;
            }
        }
        writeln!(w, "}}")
    }
}

/// Formats float constant bits of type `ty` so that the parser reads back the same bits:
/// shortest round-tripping decimal, or the raw bits in hex for NaNs.
pub fn format_float(ty: Type, bits: u64) -> String {
    let x = f64::from_bits(bits);
    if ty == Type::F32 {
        let y = x as f32;
        if y.is_nan() {
            format!("0x{:08x}", y.to_bits())
        } else {
            format!("{y:?}")
        }
    } else if x.is_nan() {
        format!("0x{bits:016x}")
    } else {
        format!("{x:?}")
    }
}

/// `s` as a double-quoted string literal: `"` and `\\` are escaped with a backslash, other
/// control characters as `\xHH`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes `func` in the text form.
pub fn write_function(w: &mut dyn Write, func: &Function, opts: WriteOptions<'_>) -> fmt::Result {
    let mut p = Printer {
        func,
        opts,
        vnum: SecondaryMap::new(),
        bnum: SecondaryMap::new(),
        vspill: 0,
        bspill: 0,
    };
    if opts.renumber {
        let (mut nv, mut nb) = (0u32, 0u32);
        for block in func.layout.blocks() {
            p.bnum[block] = Some(nb);
            nb += 1;
            for &v in func.dfg.block_params(block) {
                p.vnum[v] = Some(nv);
                nv += 1;
            }
            for inst in func.layout.block_insts(block) {
                for &v in func.dfg.inst_results(inst) {
                    p.vnum[v] = Some(nv);
                    nv += 1;
                }
            }
        }
        p.vspill = nv;
        p.bspill = nb;
    }
    p.function(w)
}

/// `func` as text with the given options.
pub fn function_to_string(func: &Function, opts: WriteOptions<'_>) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_function(&mut s, func, opts);
    s
}

/// Writes a whole module: globals, declarations, then functions.
pub fn write_module(w: &mut dyn Write, module: &Module, opts: WriteOptions<'_>) -> fmt::Result {
    let mut first = true;
    for (i, name) in module.files.iter().enumerate() {
        writeln!(w, "file {i} {}", quote(name))?;
        first = false;
    }
    let linkage = |w: &mut dyn Write, name: &str| match module.linkage_of(name).keyword() {
        Some(k) => write!(w, "{k} "),
        None => Ok(()),
    };
    for g in &module.globals {
        linkage(w, &g.name)?;
        write!(
            w,
            "global @{}: {}, size {}, align {}",
            g.name, g.space, g.size, g.align
        )?;
        if let Some(init) = &g.init {
            let bytes: Vec<String> = init.iter().map(|b| format!("{b:02x}")).collect();
            write!(w, " = [{}]", bytes.join(" "))?;
        }
        if let Some(relocs) = module.relocs.get(&g.name).filter(|r| !r.is_empty()) {
            let rs: Vec<String> = relocs.iter().map(|r| r.to_string()).collect();
            write!(w, " relocs [{}]", rs.join(", "))?;
        }
        writeln!(w)?;
        first = false;
    }
    for d in &module.decls {
        linkage(w, &d.name)?;
        writeln!(w, "declare @{}{}", d.name, d.sig)?;
        first = false;
    }
    for f in &module.functions {
        if !first {
            writeln!(w)?;
        }
        linkage(w, &f.name)?;
        write_function(w, f, opts)?;
        first = false;
    }
    Ok(())
}

/// `module` as text with the given options.
pub fn module_to_string(module: &Module, opts: WriteOptions<'_>) -> String {
    let mut s = String::new();
    let _ = write_module(&mut s, module, opts);
    s
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_function(f, self, WriteOptions::default())
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_module(f, self, WriteOptions::default())
    }
}
