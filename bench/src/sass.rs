//! Reading `cuobjdump -sass` listings: the machine instructions of each function, and the
//! counts the static comparison with nvcc reports (instructions, the innermost loop, global
//! loads and stores, loads through the read-only path).
//!
//! A listing has a `Function : NAME` line per function, then one line per instruction of
//! the form `/*0120*/  @P0 LDG.E.CONSTANT R2, desc[UR4][R2.64] ;  /* encoding */`. The
//! padding after the code (`NOP`s and the `BRA` to itself that ends every function) is not
//! counted. Anything else is ignored, so newer listings with more lines still parse.

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// Byte offset in the function.
    pub addr: u32,
    /// Opcode with its modifiers (`LDG.E.CONSTANT`), without the predicate.
    pub opcode: String,
    /// Operands as printed.
    pub operands: String,
}

/// A function of the listing with its counted instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub insts: Vec<Inst>,
}

/// Counts of one function or a sum over several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions, padding excluded.
    pub instructions: u32,
    /// Instructions of the largest innermost loop (a backward branch's range that holds no
    /// other backward branch's range), 0 when there is no loop.
    pub innermost_loop: u32,
    /// `LDG*` instructions.
    pub global_loads: u32,
    /// `STG*` instructions.
    pub global_stores: u32,
    /// `LDG*.CONSTANT`: loads through the read-only (non-coherent) path.
    pub readonly_loads: u32,
}

impl Stats {
    /// Sums the counts; the innermost loop is the largest of the two.
    pub fn combine(self, o: Stats) -> Stats {
        Stats {
            instructions: self.instructions + o.instructions,
            innermost_loop: self.innermost_loop.max(o.innermost_loop),
            global_loads: self.global_loads + o.global_loads,
            global_stores: self.global_stores + o.global_stores,
            readonly_loads: self.readonly_loads + o.readonly_loads,
        }
    }

    /// The counts of `k` copies of the code (a function launched from `k` places); the
    /// innermost loop stays one loop.
    pub fn times(self, k: u32) -> Stats {
        Stats {
            instructions: self.instructions * k,
            innermost_loop: self.innermost_loop,
            global_loads: self.global_loads * k,
            global_stores: self.global_stores * k,
            readonly_loads: self.readonly_loads * k,
        }
    }
}

/// The functions of a `cuobjdump -sass` listing, in order.
pub fn parse(listing: &str) -> Vec<Function> {
    let mut out: Vec<Function> = Vec::new();
    for line in listing.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("Function : ") {
            out.push(Function {
                name: name.trim().to_string(),
                insts: Vec::new(),
            });
            continue;
        }
        let (Some(f), Some(inst)) = (out.last_mut(), instruction(t)) else {
            continue;
        };
        f.insts.push(inst);
    }
    for f in &mut out {
        // Trailing padding: NOPs and the branch to itself after the last EXIT.
        while let Some(last) = f.insts.last() {
            let self_branch = last.opcode == "BRA" && parse_addr(&last.operands) == Some(last.addr);
            if last.opcode == "NOP" || self_branch {
                f.insts.pop();
            } else {
                break;
            }
        }
    }
    out
}

/// `/*0120*/  @P0 OPCODE operands ;  /* 0x... */` -> the instruction.
fn instruction(line: &str) -> Option<Inst> {
    let rest = line.strip_prefix("/*")?;
    let close = rest.find("*/")?;
    let addr = u32::from_str_radix(&rest[..close], 16).ok()?;
    let body = rest[close + 2..].split(';').next()?.trim();
    let body = match body.strip_prefix('@') {
        Some(p) => p.split_once(char::is_whitespace)?.1.trim(),
        None => body,
    };
    if body.is_empty() || body.starts_with("/*") {
        return None;
    }
    let (opcode, operands) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    Some(Inst {
        addr,
        opcode: opcode.to_string(),
        operands: operands.trim().to_string(),
    })
}

/// The branch target: the last operand (`BRA 0x790`, `BRA P1, 0x790`, `BRA.U !UP0, 0x40`).
fn parse_addr(operands: &str) -> Option<u32> {
    let hex = operands
        .rsplit(',')
        .next()?
        .trim()
        .trim_start_matches('`')
        .trim_start_matches('(');
    let hex = hex.strip_prefix("0x")?;
    let end = hex
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(hex.len());
    u32::from_str_radix(&hex[..end], 16).ok()
}

/// The counts of one function.
pub fn stats(f: &Function) -> Stats {
    let is = |i: &Inst, p: &str| i.opcode == p || i.opcode.starts_with(&format!("{p}."));
    // Loops: [target, branch] of every branch that jumps backwards.
    let loops: Vec<(u32, u32)> = f
        .insts
        .iter()
        .filter(|i| is(i, "BRA"))
        .filter_map(|i| {
            parse_addr(&i.operands)
                .filter(|t| *t < i.addr)
                .map(|t| (t, i.addr))
        })
        .collect();
    let innermost = loops
        .iter()
        .filter(|(s, e)| {
            !loops
                .iter()
                .any(|(s2, e2)| (s2, e2) != (s, e) && s <= s2 && e2 <= e)
        })
        .map(|(s, e)| {
            f.insts
                .iter()
                .filter(|i| *s <= i.addr && i.addr <= *e && i.opcode != "NOP")
                .count() as u32
        })
        .max()
        .unwrap_or(0);
    Stats {
        instructions: f.insts.iter().filter(|i| i.opcode != "NOP").count() as u32,
        innermost_loop: innermost,
        global_loads: f.insts.iter().filter(|i| is(i, "LDG")).count() as u32,
        global_stores: f.insts.iter().filter(|i| is(i, "STG")).count() as u32,
        readonly_loads: f
            .insts
            .iter()
            .filter(|i| is(i, "LDG") && i.opcode.split('.').any(|m| m == "CONSTANT"))
            .count() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTING: &str = "
	code for sm_90
		Function : k
	.headerflags	@\"EF_CUDA_SM90\"
        /*0000*/                   S2R R0, SR_TID.X ;                     /* 0x0000000000007919 */
                                                                          /* 0x000e2e0000002100 */
        /*0010*/                   LDG.E.CONSTANT R2, desc[UR4][R2.64] ;  /* 0x0000000402027981 */
        /*0020*/                   LDG.E R7, desc[UR4][R4.64] ;           /* 0x0000000404077981 */
        /*0030*/                   FFMA R7, R2, UR6, R7 ;                 /* 0x0000000602077c23 */
        /*0040*/                   STG.E desc[UR4][R4.64], R7 ;           /* 0x0000000704007986 */
        /*0050*/               @P0 BRA 0x10 ;                             /* 0x0000000704007986 */
        /*0060*/               @!P1 BRA 0x30 ;                            /* 0x0000000704007986 */
        /*0070*/                   EXIT ;                                 /* 0x000000000000794d */
        /*0080*/                   BRA 0x80;                              /* 0xfffffffc00fc7947 */
        /*0090*/                   NOP;                                   /* 0x0000000000007918 */
		Function : empty
        /*0000*/                   EXIT ;                                 /* 0x000000000000794d */
";

    #[test]
    fn counts_instructions_without_padding() {
        let fs = parse(LISTING);
        assert_eq!(fs.len(), 2);
        assert_eq!(fs[0].name, "k");
        let s = stats(&fs[0]);
        assert_eq!(s.instructions, 8);
        assert_eq!(
            (s.global_loads, s.global_stores, s.readonly_loads),
            (2, 1, 1)
        );
        assert_eq!(stats(&fs[1]).instructions, 1);
    }

    #[test]
    fn innermost_loop_is_the_smallest_nested_range() {
        let s = stats(&parse(LISTING)[0]);
        // 0x10..0x50 holds 0x30..0x60? No: they overlap without nesting, so both are
        // innermost and the larger (0x10..0x50, five instructions) is reported.
        assert_eq!(s.innermost_loop, 5);
        let nested = "Function : n\n/*0000*/ NOP ;\n/*0010*/ IADD R1, R1, 1 ;\n/*0020*/ @P0 BRA 0x10 ;\n/*0030*/ @P1 BRA 0x0 ;\n/*0040*/ EXIT ;\n";
        assert_eq!(stats(&parse(nested)[0]).innermost_loop, 2);
        // A branch with a predicate operand, as ptxas writes unrolled loops' back edges.
        let pred = "Function : p\n/*0000*/ IADD R1, R1, 1 ;\n/*0010*/ IADD R2, R2, 1 ;\n/*0020*/ @!P0 BRA P1, 0x0 ;\n/*0030*/ EXIT ;\n";
        assert_eq!(stats(&parse(pred)[0]).innermost_loop, 3);
    }

    #[test]
    fn no_loop_and_garbage_lines() {
        let s = stats(&parse("Function : f\nnot an instruction\n/*zz*/ X ;\n/*0000*/ EXIT ;\n")[0]);
        assert_eq!(
            s,
            Stats {
                instructions: 1,
                ..Stats::default()
            }
        );
        assert!(parse("").is_empty());
    }
}
