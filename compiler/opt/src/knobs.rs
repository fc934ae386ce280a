//! Per-pass knobs (`-C key=value`): the numbers and switches passes read instead of
//! constants, so experiments need no rebuild.
//!
//! `Knobs::for_level` gives each optimization level its defaults; `Knobs::set` applies one
//! `-C key=value` on top (unknown keys and malformed values are errors naming the known keys).
//! Passes only read knobs; the pass manager owns them.

use std::fmt;

/// Floating-point contraction (`-ffp-contract=`): whether `a * b + c` may become one `fma`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum FpContract {
    /// Never fuse (`-ffp-contract=off`); the device math library must be built this way,
    /// because its error bounds assume separately rounded products.
    Off,
    /// Fuse within one expression. The IR no longer knows C expression boundaries, so `on`
    /// fuses only a product whose single use is the add (the common `a*b + c` shape).
    On,
    /// Fuse wherever the shape appears (gcc's default for GNU C).
    #[default]
    Fast,
}

impl FpContract {
    /// Parses `off`, `on` or `fast`.
    pub fn parse(s: &str) -> Option<FpContract> {
        match s {
            "off" => Some(FpContract::Off),
            "on" => Some(FpContract::On),
            "fast" => Some(FpContract::Fast),
            _ => None,
        }
    }
}

impl fmt::Display for FpContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FpContract::Off => "off",
            FpContract::On => "on",
            FpContract::Fast => "fast",
        })
    }
}

/// The knobs of every pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// `inline-threshold`: a callee of at most this many instructions (constants not counted)
    /// is inlined; `inlinehint` callees get twice as much.
    pub inline_threshold: u32,
    /// `unroll-count`: the factor of partial unrolling for loops whose trip count is not a
    /// small constant (0 or 1: no partial unrolling). A loop's `unroll(N)` hint wins.
    pub unroll_count: u32,
    /// `unroll-threshold`: a loop is fully unrolled when trip count x body size is at most
    /// this many instructions; partial unrolling keeps the unrolled body under it too.
    pub unroll_threshold: u32,
    /// `fp-contract`: mad/fma contraction (`off`, `on`, `fast`).
    pub fp_contract: FpContract,
    /// `loop-swap`: the offload plan may give the grid's threads another loop of an SPMD
    /// nest than the distributed one, for coalesced accesses (`on`/`off`; on at -O2 and
    /// above). Read by the driver for `ompcc_omp::map_grids`, before lowering.
    pub loop_swap: bool,
    /// `warp-coop`: a group of lanes may share a thread's inner reduction loop, for
    /// coalesced accesses (`on`: integer reductions, whose result any order gives; `reassoc`:
    /// floating-point ones too, rounding differently; `off`; on at -O2 and above). Read by
    /// the driver for `ompcc_omp::map_grids`.
    pub warp_coop: WarpCoop,
    /// `private-layout`: a device-only work array (`map(alloc:)`, never copied) indexed
    /// thread-major may be laid out thread-minor (`on`/`off`; on at -O2 and above). Read by
    /// the driver for `ompcc_omp::map_grids`.
    pub private_layout: bool,
    /// `auto-collapse`: a parallel inner loop perfectly nested in a distributed loop of few
    /// iterations may join it as `collapse(2)` would (`on`/`off`; on at -O2 and above). Read
    /// by the driver for `ompcc_omp::map_grids`.
    pub auto_collapse: bool,
    /// `triangular-collapse`: ... a triangular one too (the inner loop's bounds affine in the
    /// outer variable, step ±1), the threads taking the bounding box of its ranges
    /// (`on`/`off`; on at -O2 and above; nothing without `auto-collapse`).
    pub triangular_collapse: bool,
    /// `ordered-coop`: a floating-point reduction that `warp-coop` may not reorder is shared
    /// in order (the lanes evaluate the terms, every lane adds them in the loop's order; the
    /// same result) when the loop's body is its one update and its bounds are affine (`on`,
    /// the default at -O2 and above), also when its bounds are read from memory, a CSR row
    /// of unknown length (`all`), or never (`off`); nothing with `warp-coop=off`.
    pub ordered_coop: OrderedCoop,
    /// `noalias-maps`: kernel parameters of mapped variables proven disjoint from all other
    /// memory the kernel reaches are `noalias` (`on`/`off`; on at -O2 and above), so
    /// `readonly` can load what the kernel only reads through `ld.global.nc`. Read by the
    /// driver for `ompcc_omp::map_grids`.
    pub noalias_maps: bool,
    /// `irregular-collapse`: a floating-point sum over a CSR row (an inner loop whose bounds
    /// are read from memory) is computed by the warp over its rows' nonzeros flattened: the
    /// lanes evaluate consecutive nonzeros' terms into shared memory and each lane adds its
    /// own row's terms in the loop's order (`on`/`off`; on at -O2 and above; nothing with
    /// `warp-coop=off`). Read by the driver for `ompcc_omp::map_grids`.
    pub irregular_collapse: bool,
    /// `register-cache`: loads of memory a loop never writes are kept in registers across its
    /// iterations (`a[i+1]` read again as `a[i]` one iteration later is loaded once) and
    /// loop-invariant ones hoisted out of it, by the `cache` pass (`on`/`off`; on at -O2 and
    /// above).
    pub register_cache: bool,
    /// `one-iteration`: an SPMD region whose league shares a loop nest also gets a kernel in
    /// which each thread runs at most one iteration, with no loop, which the runtime launches
    /// when it can give every iteration a thread (`on`/`off`; on at -O2 and above). Read by
    /// the driver for `ompcc_omp::choose_one_iteration`.
    pub one_iteration: bool,
    /// `const-tables`: small `const` tables with constant initializers are read from `.const`
    /// copies through the constant cache (`on`/`off`; on at -O2 and above). Read by the
    /// driver for lowering (`ompcc_lower::LowerOptions::const_tables`).
    pub const_tables: bool,
    /// `shared-tiles`: an array each iteration of a one-iteration kernel reads at several
    /// constant offsets of the loop variable (a stencil) is staged per block in `.shared`
    /// (`on`/`off`; on at -O2 and above). Read by the driver for `ompcc_omp::choose_tiles`.
    pub shared_tiles: bool,
}

/// The `ordered-coop` knob's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderedCoop {
    /// Never.
    Off,
    /// Inner loops with affine bounds.
    On,
    /// Inner loops whose bounds are read from memory (CSR rows) too.
    All,
}

/// The `warp-coop` knob's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpCoop {
    /// Never.
    Off,
    /// For reductions whose result does not depend on the order (integer arithmetic).
    On,
    /// For floating-point `+` and `*` reductions too (`-C warp-coop=reassoc`).
    Reassoc,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs::for_level(2)
    }
}

/// The knob names `set` accepts, for error messages and `--help`.
pub const KNOB_NAMES: &[&str] = &[
    "inline-threshold",
    "unroll-count",
    "unroll-threshold",
    "fp-contract",
    "loop-swap",
    "warp-coop",
    "private-layout",
    "auto-collapse",
    "triangular-collapse",
    "ordered-coop",
    "noalias-maps",
    "irregular-collapse",
    "register-cache",
    "one-iteration",
    "const-tables",
    "shared-tiles",
];

impl Knobs {
    /// The defaults of optimization level `level` (-O3 inlines and unrolls more).
    pub fn for_level(level: u8) -> Knobs {
        match level {
            0 | 1 => Knobs {
                inline_threshold: 40,
                unroll_count: 0,
                unroll_threshold: 0,
                fp_contract: FpContract::Fast,
                loop_swap: false,
                warp_coop: WarpCoop::Off,
                private_layout: false,
                auto_collapse: false,
                triangular_collapse: false,
                ordered_coop: OrderedCoop::Off,
                noalias_maps: false,
                irregular_collapse: false,
                register_cache: false,
                one_iteration: false,
                const_tables: false,
                shared_tiles: false,
            },
            2 => Knobs {
                inline_threshold: 100,
                unroll_count: 4,
                unroll_threshold: 160,
                fp_contract: FpContract::Fast,
                loop_swap: true,
                warp_coop: WarpCoop::On,
                private_layout: true,
                auto_collapse: true,
                triangular_collapse: true,
                ordered_coop: OrderedCoop::On,
                noalias_maps: true,
                irregular_collapse: true,
                register_cache: true,
                one_iteration: true,
                const_tables: true,
                shared_tiles: true,
            },
            _ => Knobs {
                inline_threshold: 250,
                unroll_count: 4,
                unroll_threshold: 400,
                fp_contract: FpContract::Fast,
                loop_swap: true,
                warp_coop: WarpCoop::On,
                private_layout: true,
                auto_collapse: true,
                triangular_collapse: true,
                ordered_coop: OrderedCoop::On,
                noalias_maps: true,
                irregular_collapse: true,
                register_cache: true,
                one_iteration: true,
                const_tables: true,
                shared_tiles: true,
            },
        }
    }

    /// Applies `-C key=value`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let num = || -> Result<u32, String> {
            value
                .parse::<u32>()
                .map_err(|_| format!("-C {key}={value}: expected a non-negative integer"))
        };
        let on_off = || match value {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(format!("-C {key}={value}: expected `on` or `off`")),
        };
        match key {
            "inline-threshold" => self.inline_threshold = num()?,
            "unroll-count" => self.unroll_count = num()?,
            "unroll-threshold" => self.unroll_threshold = num()?,
            "fp-contract" => {
                self.fp_contract = FpContract::parse(value).ok_or_else(|| {
                    format!("-C fp-contract={value}: expected `off`, `on` or `fast`")
                })?
            }
            "loop-swap" => self.loop_swap = on_off()?,
            "private-layout" => self.private_layout = on_off()?,
            "auto-collapse" => self.auto_collapse = on_off()?,
            "triangular-collapse" => self.triangular_collapse = on_off()?,
            "ordered-coop" => {
                self.ordered_coop = match value {
                    "on" => OrderedCoop::On,
                    "off" => OrderedCoop::Off,
                    "all" => OrderedCoop::All,
                    _ => {
                        return Err(format!(
                            "-C ordered-coop={value}: expected `on`, `off` or `all`"
                        ));
                    }
                }
            }
            "noalias-maps" => self.noalias_maps = on_off()?,
            "irregular-collapse" => self.irregular_collapse = on_off()?,
            "register-cache" => self.register_cache = on_off()?,
            "one-iteration" => self.one_iteration = on_off()?,
            "const-tables" => self.const_tables = on_off()?,
            "shared-tiles" => self.shared_tiles = on_off()?,
            "warp-coop" => {
                self.warp_coop = match value {
                    "on" => WarpCoop::On,
                    "off" => WarpCoop::Off,
                    "reassoc" => WarpCoop::Reassoc,
                    _ => {
                        return Err(format!(
                            "-C warp-coop={value}: expected `on`, `off` or `reassoc`"
                        ));
                    }
                }
            }
            _ => {
                return Err(format!(
                    "unknown codegen option `-C {key}` (known: {})",
                    KNOB_NAMES.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// Applies a comma-separated `key=value` list (`"inline-threshold=5, unroll-count=2"`).
    pub fn set_list(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("`{item}`: expected key=value"))?;
            self.set(k.trim(), v.trim())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_knobs() {
        let mut k = Knobs::for_level(2);
        k.set("inline-threshold", "7").unwrap();
        k.set_list("unroll-count=8, fp-contract=off").unwrap();
        assert_eq!(k.inline_threshold, 7);
        assert_eq!(k.unroll_count, 8);
        assert_eq!(k.fp_contract, FpContract::Off);
        assert!(k.set("inline-threshold", "-1").is_err());
        assert!(k.set("fp-contract", "maybe").is_err());
        assert!(k.loop_swap && !Knobs::for_level(1).loop_swap);
        k.set("loop-swap", "off").unwrap();
        assert!(!k.loop_swap);
        assert!(k.set("loop-swap", "1").is_err());
        assert_eq!(k.warp_coop, WarpCoop::On);
        assert_eq!(Knobs::for_level(1).warp_coop, WarpCoop::Off);
        k.set("warp-coop", "reassoc").unwrap();
        assert_eq!(k.warp_coop, WarpCoop::Reassoc);
        assert!(k.set("warp-coop", "yes").is_err());
        assert!(k.private_layout && !Knobs::for_level(1).private_layout);
        k.set("private-layout", "off").unwrap();
        assert!(!k.private_layout);
        assert!(k.auto_collapse && !Knobs::for_level(1).auto_collapse);
        k.set("auto-collapse", "off").unwrap();
        assert!(!k.auto_collapse);
        assert!(k.set("auto-collapse", "no").is_err());
        assert!(k.triangular_collapse && !Knobs::for_level(1).triangular_collapse);
        k.set("triangular-collapse", "off").unwrap();
        assert!(!k.triangular_collapse);
        assert_eq!(k.ordered_coop, OrderedCoop::On);
        assert_eq!(Knobs::for_level(1).ordered_coop, OrderedCoop::Off);
        k.set("ordered-coop", "all").unwrap();
        assert_eq!(k.ordered_coop, OrderedCoop::All);
        assert!(k.set("ordered-coop", "yes").is_err());
        assert!(k.register_cache && !Knobs::for_level(1).register_cache);
        k.set("register-cache", "off").unwrap();
        assert!(!k.register_cache);
        assert!(k.set("register-cache", "no").is_err());
        assert!(k.const_tables && !Knobs::for_level(1).const_tables);
        k.set("const-tables", "off").unwrap();
        assert!(!k.const_tables);
        assert!(k.shared_tiles && !Knobs::for_level(1).shared_tiles);
        k.set("shared-tiles", "off").unwrap();
        assert!(!k.shared_tiles);
        let e = k.set("nope", "1").unwrap_err();
        assert!(e.contains("unroll-count"), "{e}");
        assert!(Knobs::for_level(3).inline_threshold > Knobs::for_level(2).inline_threshold);
    }
}
