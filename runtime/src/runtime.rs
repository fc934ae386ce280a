//! The runtime proper: registered modules, device selection, the OpenMP mapping rules,
//! transfers and launches. The C ABI (`abi.rs`) is a thin layer over [`Runtime`].
//!
//! Mapping rules (OpenMP 5.2, 5.8.3 and 5.9): every mapped range has a dynamic reference count
//! (`target enter/exit data`) and a structured one (`target data`, `target`); its storage is
//! created on the first reference and removed (after any `from` copy) when both counts reach
//! zero. `to` copies happen only on creation unless `always`; `from` copies only on removal
//! unless `always`. A list item must be entirely present or entirely absent: partial overlap
//! is an error. Zero-length sections never create storage; they only translate addresses.
//! Pointer attachment writes a device address into the device copy of a mapped pointer and
//! remembers the host value (a "shadow") so that later copies never move a device address to
//! the host or a host address to the device.
//!
//! Invariant: nothing here prints except through [`Runtime::info`]; errors are values
//! ([`RtError`]) and the ABI layer decides how to report them.

use crate::backend::{
    Backend, BackendError, DevPtr, DeviceAbort, LaunchDims, ModuleImage, ProgramId, cuda,
    emu::EmuBackend, sim::SimBackend,
};
use crate::flags;
use crate::launch_shape::{
    launch_teams, launch_threads, one_iteration_grid, one_iteration_variant,
};
use crate::log::{self, InfoCategories};
use crate::options::{DeviceKind, Offload, Options};
use crate::profile::{self, Direction};
use crate::table::{Entry, Lookup, PresentTable, RefCount};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::time::Instant;

mod mapping;
pub mod requires;

use mapping::{absent_error, check_items, partial_error};

/// `device` argument meaning "the default device" (`default-device-var`).
pub const DEVICE_DEFAULT: i32 = -100;
/// `omp_initial_device` (OpenMP 5.2).
pub const INITIAL_DEVICE: i32 = -1;

/// A runtime error: a message tied to the source location of the construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtError {
    /// `file:line:col` of the construct, or `<unknown location>`.
    pub loc: String,
    /// One-line explanation.
    pub message: String,
    /// Extra lines (the JIT log), possibly empty.
    pub log: String,
    /// The device code called `abort` or failed an `assert`: the program should abort, as the
    /// host code would have.
    pub abort: Option<DeviceAbort>,
}

impl RtError {
    pub(crate) fn new(loc: &str, message: impl Into<String>) -> Self {
        RtError {
            loc: loc.to_string(),
            message: message.into(),
            log: String::new(),
            abort: None,
        }
    }

    fn backend(loc: &str, what: impl fmt::Display, e: BackendError) -> Self {
        RtError {
            loc: loc.to_string(),
            message: format!("{what}: {e}"),
            log: e.log,
            abort: e.abort,
        }
    }
}

impl fmt::Display for RtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // an API routine called without a location has its own name as `loc`, which its
        // message already begins with
        match self.message.strip_prefix(&self.loc) {
            Some(rest) if rest.starts_with(": ") => write!(f, "{}", self.message)?,
            _ => write!(f, "{}: {}", self.loc, self.message)?,
        }
        if !self.log.is_empty() {
            write!(f, "\n{}", self.log)?;
        }
        Ok(())
    }
}

/// A kernel of a registered module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelDesc {
    /// PTX entry name.
    pub name: String,
    /// Size in bytes of each `.param`.
    pub param_sizes: Vec<u32>,
}

/// A `declare target` global of a registered module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalDesc {
    /// PTX name of the device copy.
    pub name: String,
    /// Address of the host copy.
    pub host_addr: u64,
    /// Size in bytes.
    pub size: u64,
}

/// One translation unit's device code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleDesc {
    /// Source file, for messages.
    pub name: String,
    /// PTX text.
    pub ptx: String,
    /// Kernels, indexed by the launch's kernel id.
    pub kernels: Vec<KernelDesc>,
    /// Device globals.
    pub globals: Vec<GlobalDesc>,
    /// [`requires`] bits: the unit's `#pragma omp requires` clauses.
    pub requires: u32,
}

/// One list item of a construct (a `map` clause item, a motion clause item, or a kernel
/// argument), with host addresses as integers. See `ompcc_rt_map_entry` in the C header.
#[derive(Clone, Copy, Debug)]
pub struct MapItem<'a> {
    /// Base address: the value a kernel parameter is translated from (array or pointer
    /// value); for [`flags::ATTACH`], the host address of the pointer variable.
    pub base: u64,
    /// First byte of the list item's storage.
    pub begin: u64,
    /// Size in bytes (0: zero-length section).
    pub size: u64,
    /// [`flags`] bits.
    pub flags: u64,
    /// Variable or expression as written.
    pub name: &'a str,
    /// `file:line:col`.
    pub loc: &'a str,
}

fn too_large(row: &MapItem<'_>) -> RtError {
    RtError::new(
        row.loc,
        format!(
            "target update of '{}': the section does not fit in the address space",
            row.name
        ),
    )
}

/// Launch request.
#[derive(Clone, Copy, Debug)]
pub struct Launch<'a> {
    /// Module id from registration.
    pub module: u32,
    /// Kernel index within the module.
    pub kernel: u32,
    /// Device number or [`DEVICE_DEFAULT`].
    pub device: i32,
    /// Map entries; those with [`flags::TARGET_PARAM`] are the kernel parameters, in order.
    pub items: &'a [MapItem<'a>],
    /// `num_teams` (0: the runtime picks).
    pub num_teams: u32,
    /// `thread_limit` (0: the runtime picks).
    pub thread_limit: u32,
    /// Dynamic shared memory per team, bytes.
    pub dyn_shared_bytes: u32,
    /// Iterations of the loop nest the league shares (saturated at `u32::MAX`; 0: unknown or
    /// none): without `num_teams` or `OMP_NUM_TEAMS`, no more teams than they need.
    pub iterations: u32,
    /// Trip counts of a collapsed nest of two or three loops, innermost first, whose
    /// one-iteration variant runs on a grid of as many dimensions (1 for an absent third
    /// loop); all 0 otherwise (`launch_shape::one_iteration_grid`).
    pub nest: [u32; 3],
    /// Location of the construct.
    pub loc: &'a str,
}

/// Where a construct executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The host (initial device): mapping is the identity, launches fall back.
    Host,
    /// Offload device number `n`.
    Device(usize),
}

/// Host value and device location of an attached pointer.
#[derive(Clone, Copy, Debug)]
struct Shadow {
    host_value: u64,
    dev_addr: DevPtr,
    dev_value: u64,
}

struct Device {
    backend: Box<dyn Backend>,
    table: PresentTable,
    /// Attached pointers, by host address of the pointer variable.
    shadows: BTreeMap<u64, Shadow>,
    /// Loaded programs and the module ids each holds.
    programs: Vec<(ProgramId, std::ops::Range<usize>)>,
    /// `omp_target_alloc`'s blocks and how each was allocated.
    user_allocs: HashMap<DevPtr, requires::UserAlloc>,
    /// Unified shared memory: kernels use host storage at host addresses, and mappings are
    /// the identity (see [`requires`]). Decided when the first program loads.
    shared_host: bool,
}

enum Devices {
    Unopened,
    Open(Vec<Device>),
    /// No device; the reason in words, and whether the user asked for a device explicitly.
    Unavailable {
        reason: String,
        requested: bool,
    },
}

/// The whole runtime state.
pub struct Runtime {
    options: Options,
    modules: Vec<ModuleDesc>,
    devices: Devices,
    injected: Option<Vec<Box<dyn Backend>>>,
    default_device: i32,
    /// Under MPI without `OMP_DEFAULT_DEVICE`: the local rank whose `mod` the device count
    /// becomes the default device once the devices are open.
    rank_device: Option<u32>,
}

/// Which construct maps: a `target` launch, `target data` (structured references) or
/// `target enter data` (dynamic references).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Enter {
    Launch,
    Structured,
    Dynamic,
}

/// What the exit half of a mapping does to the counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Release {
    Structured,
    Dynamic,
}

/// Per-thread stack bytes the CUDA backend sets (`cuCtxSetLimit(CU_LIMIT_STACK_SIZE)`) when
/// `OMPCC_STACK_SIZE` is not given. CUDA's own default, 1 KiB (which clang's libomptarget keeps
/// unless `LIBOMPTARGET_STACK_SIZE` is set), is too small for ompcc's kernels: locals that are
/// not promoted to registers and recursive device functions live on this stack.
pub(crate) const DEFAULT_STACK_SIZE: usize = 8 * 1024;

/// The device stack size from the value of `OMPCC_STACK_SIZE` (bytes; absent, empty, zero or
/// not a number: [`DEFAULT_STACK_SIZE`]).
pub(crate) fn device_stack_size(env: Option<&str>) -> usize {
    env.and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(DEFAULT_STACK_SIZE)
}

fn hex_range(begin: u64, size: u64) -> String {
    format!("[{begin:#x}, +{size})")
}

impl Runtime {
    /// A runtime with these options. `devices`, when given, replaces device discovery (tests
    /// and embedders pass their own backends).
    pub fn new(options: Options, devices: Option<Vec<Box<dyn Backend>>>) -> Runtime {
        let default_device = options.default_device;
        let rank_device = if options.default_device_set {
            None
        } else {
            options.local_rank
        };
        Runtime {
            options,
            modules: Vec::new(),
            devices: Devices::Unopened,
            injected: devices,
            default_device,
            rank_device,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    fn info(&self, category: InfoCategories, msg: impl FnOnce() -> String) {
        if self.options.info.has(category) {
            log::line(&format!("ompcc-rt: info: {}", msg()));
        }
    }

    /// Registers a module; returns its id.
    pub fn register_module(&mut self, module: ModuleDesc) -> u32 {
        self.info(InfoCategories::DEVICES, || {
            format!(
                "registered module {} ({} kernels, {} globals, {} bytes of PTX)",
                module.name,
                module.kernels.len(),
                module.globals.len(),
                module.ptx.len()
            )
        });
        if module.requires != 0 {
            self.info(InfoCategories::DEVICES, || {
                format!(
                    "module {} requires {}",
                    module.name,
                    requires::clause_names(module.requires).join(", ")
                )
            });
        }
        self.modules.push(module);
        self.modules.len() as u32 - 1
    }

    /// Before device `target` first loads device code: under `requires
    /// unified_shared_memory`, switches it to zero-copy or fails naming the requirement and
    /// the device; for code loaded later (a `dlopen`ed library), checks it asks for the mode
    /// the device already runs in.
    fn memory_mode(&mut self, target: usize, loc: &str) -> Result<(), RtError> {
        let usm = requires::unified_shared_memory(&self.modules)
            .map_err(|why| RtError::new(loc, why))?
            .map(str::to_owned);
        let info = self.options.info;
        let Devices::Open(devices) = &mut self.devices else {
            return Ok(());
        };
        let dev = &mut devices[target];
        if !dev.programs.is_empty() {
            if usm.is_some() != dev.shared_host {
                return Err(RtError::new(
                    loc,
                    format!(
                        "device code loaded after the first launch {} unified_shared_memory \
                         but the device code loaded before {}: every compilation unit must \
                         agree",
                        if usm.is_some() {
                            "requires"
                        } else {
                            "does not require"
                        },
                        if dev.shared_host { "does" } else { "does not" }
                    ),
                ));
            }
            return Ok(());
        }
        let Some(unit) = usm else {
            return Ok(());
        };
        dev.backend.share_host_memory().map_err(|why| {
            RtError::new(
                loc,
                format!(
                    "the program requires unified_shared_memory ('#pragma omp requires \
                     unified_shared_memory' in {unit}) but device {target} ({}) cannot \
                     provide it: {why}",
                    dev.backend.describe()
                ),
            )
        })?;
        dev.shared_host = true;
        if info.has(InfoCategories::DEVICES) {
            log::line(&format!(
                "ompcc-rt: info: device {target}: unified shared memory (requires \
                 unified_shared_memory in {unit}): kernels use host memory at host addresses, \
                 maps copy nothing"
            ));
        }
        Ok(())
    }

    fn open_devices(&mut self) {
        if !matches!(self.devices, Devices::Unopened) {
            return;
        }
        let opened: Result<Vec<Box<dyn Backend>>, (String, bool)> =
            if let Some(injected) = self.injected.take() {
                Ok(injected)
            } else {
                match self.options.device {
                    DeviceKind::Host => Err(("OMPCC_DEVICE=host selects no device".into(), false)),
                    DeviceKind::Sim => Ok(vec![Box::new(SimBackend::new()) as Box<dyn Backend>]),
                    DeviceKind::Emu => Ok(vec![Box::new(EmuBackend::with_settings(
                        self.options.emu_threads,
                        self.options.emu_block_limit,
                        self.options.emu_div_check,
                    )) as Box<dyn Backend>]),
                    kind @ (DeviceKind::Auto | DeviceKind::Cuda) => {
                        match cuda::open_devices(&self.options.libcuda) {
                            Ok(devs) => Ok(devs
                                .into_iter()
                                .map(|d| Box::new(d) as Box<dyn Backend>)
                                .collect()),
                            Err(reason) => Err((reason, kind == DeviceKind::Cuda)),
                        }
                    }
                }
            };
        self.devices = match opened {
            Ok(backends) if backends.is_empty() => Devices::Unavailable {
                reason: "no device was configured".into(),
                requested: false,
            },
            Ok(backends) => {
                if let Some(rank) = self.rank_device.take() {
                    self.default_device = (rank as usize % backends.len()) as i32;
                    let d = self.default_device;
                    self.info(InfoCategories::DEVICES, || {
                        format!(
                            "default device {d}: local MPI rank {rank} mod {} devices",
                            backends.len()
                        )
                    });
                }
                for (i, b) in backends.iter().enumerate() {
                    self.info(InfoCategories::DEVICES, || {
                        format!("device {i}: {}", b.describe())
                    });
                }
                Devices::Open(
                    backends
                        .into_iter()
                        .map(|backend| Device {
                            backend,
                            table: PresentTable::default(),
                            shadows: BTreeMap::new(),
                            programs: Vec::new(),
                            user_allocs: HashMap::new(),
                            shared_host: false,
                        })
                        .collect(),
                )
            }
            Err((reason, requested)) => {
                self.info(InfoCategories::DEVICES, || {
                    format!("no offload device ({reason}); target regions run on the host")
                });
                Devices::Unavailable { reason, requested }
            }
        };
    }

    /// `omp_get_num_devices`.
    pub fn num_devices(&mut self) -> i32 {
        if self.options.offload == Offload::Disabled {
            return 0;
        }
        self.open_devices();
        match &self.devices {
            Devices::Open(d) => d.len() as i32,
            _ => 0,
        }
    }

    /// `omp_get_default_device`.
    pub fn default_device(&mut self) -> i32 {
        if self.rank_device.is_some() {
            // The rank's device is known once the devices are.
            self.open_devices();
        }
        self.default_device
    }

    /// `omp_set_default_device`.
    pub fn set_default_device(&mut self, device: i32) {
        self.rank_device = None;
        self.default_device = device;
    }

    /// Why a construct for `device` runs on the host (after [`Self::resolve`] said so).
    fn host_reason(&self, device: i32) -> String {
        let id = if device == DEVICE_DEFAULT {
            self.default_device
        } else {
            device
        };
        if self.options.offload == Offload::Disabled {
            return "OMP_TARGET_OFFLOAD=DISABLED".to_owned();
        }
        match &self.devices {
            Devices::Unavailable { reason, .. } => format!("no offload device: {reason}"),
            _ => format!("device {id} is the host (omp_get_initial_device())"),
        }
    }

    /// Decides where a construct with device clause `device` runs.
    pub fn resolve(&mut self, device: i32, loc: &str) -> Result<Target, RtError> {
        let n = self.num_devices();
        let id = if device == DEVICE_DEFAULT {
            self.default_device
        } else {
            device
        };
        if self.options.offload == Offload::Disabled {
            return Ok(Target::Host);
        }
        // device(omp_initial_device) is honoured even under MANDATORY; device number 0 that
        // names the host only because no device exists is not (see the MANDATORY error below).
        if id == INITIAL_DEVICE || (n > 0 && id == n) {
            return Ok(Target::Host);
        }
        if (0..n).contains(&id) {
            return Ok(Target::Device(id as usize));
        }
        if let Devices::Unavailable { reason, requested } = &self.devices {
            if self.options.offload == Offload::Mandatory {
                return Err(RtError::new(
                    loc,
                    format!(
                        "OMP_TARGET_OFFLOAD=MANDATORY but no offload device is available: \
                         {reason}"
                    ),
                ));
            }
            if *requested {
                return Err(RtError::new(loc, format!("no offload device: {reason}")));
            }
            return Ok(Target::Host);
        }
        Err(RtError::new(
            loc,
            format!(
                "device number {id} is not valid: offload devices are 0..{} and {n} is the host",
                n - 1
            ),
        ))
    }

    fn device(&mut self, target: usize, loc: &str) -> Result<&mut Device, RtError> {
        self.load_programs(target, loc)?;
        match &mut self.devices {
            Devices::Open(d) => Ok(&mut d[target]),
            _ => Err(RtError::new(
                loc,
                "internal: device used before it was opened",
            )),
        }
    }

    /// Loads modules registered since the last load as one program, and enters their
    /// globals in the present table with an infinite reference count.
    fn load_programs(&mut self, target: usize, loc: &str) -> Result<(), RtError> {
        let Devices::Open(devices) = &mut self.devices else {
            return Ok(());
        };
        let dev = &mut devices[target];
        let loaded = dev.programs.last().map_or(0, |p| p.1.end);
        if loaded == self.modules.len() {
            return Ok(());
        }
        self.memory_mode(target, loc)?;
        let Devices::Open(devices) = &mut self.devices else {
            return Ok(());
        };
        let dev = &mut devices[target];
        let new = &self.modules[loaded..];
        let images: Vec<ModuleImage<'_>> = new
            .iter()
            .map(|m| ModuleImage {
                name: &m.name,
                ptx: &m.ptx,
            })
            .collect();
        let names: Vec<&str> = new.iter().map(|m| m.name.as_str()).collect();
        let program = dev.backend.load_program(&images).map_err(|e| {
            RtError::backend(
                loc,
                format!("loading the device code of {}", names.join(", ")),
                e,
            )
        })?;
        dev.programs.push((program, loaded..self.modules.len()));
        for m in new {
            for g in &m.globals {
                let found = dev.backend.global_address(program, &g.name).map_err(|e| {
                    RtError::backend(loc, format!("looking up device global '{}'", g.name), e)
                })?;
                let Some((addr, size)) = found else {
                    return Err(RtError::new(
                        loc,
                        format!(
                            "declare target variable '{}' of {} is missing from the device code",
                            g.name, m.name
                        ),
                    ));
                };
                if size < g.size {
                    return Err(RtError::new(
                        loc,
                        format!(
                            "declare target variable '{}' has {size} bytes on the device but {} \
                             on the host",
                            g.name, g.size
                        ),
                    ));
                }
                if g.size > 0 && dev.table.lookup(g.host_addr, g.size) == Lookup::Absent {
                    dev.table.insert(Entry {
                        host_begin: g.host_addr,
                        host_end: g.host_addr + g.size,
                        dev_begin: addr,
                        dynamic_refs: RefCount::Infinite,
                        structured_refs: 0,
                        owned: false,
                        shared: false,
                        name: g.name.clone(),
                        loc: m.name.clone(),
                    });
                }
            }
        }
        crate::indirect::fill_tables(dev.backend.as_mut(), program, new)
            .map_err(|e| RtError::new(loc, format!("declare target indirect table: {e}")))?;
        self.info(InfoCategories::DEVICES, || {
            format!(
                "device {target}: loaded device code of {}",
                names.join(", ")
            )
        });
        Ok(())
    }

    /// The program holding module `module` on device `target`.
    fn program_of(&self, target: usize, module: usize) -> Option<ProgramId> {
        match &self.devices {
            Devices::Open(d) => d[target]
                .programs
                .iter()
                .find(|p| p.1.contains(&module))
                .map(|p| p.0),
            _ => None,
        }
    }

    // ---- data environments -------------------------------------------------------------

    /// `target data` entry (`structured`) or `target enter data`.
    pub fn data_begin(
        &mut self,
        device: i32,
        items: &[MapItem<'_>],
        structured: bool,
        loc: &str,
    ) -> Result<(), RtError> {
        check_items(items, loc)?;
        if let Target::Device(d) = self.resolve(device, loc)? {
            let info = self.options.info;
            let dev = self.device(d, loc)?;
            let how = if structured {
                Enter::Structured
            } else {
                Enter::Dynamic
            };
            dev.enter(d, items, how, info)?;
        }
        Ok(())
    }

    /// `target data` exit (`structured`) or `target exit data`.
    pub fn data_end(
        &mut self,
        device: i32,
        items: &[MapItem<'_>],
        structured: bool,
        loc: &str,
    ) -> Result<(), RtError> {
        check_items(items, loc)?;
        if let Target::Device(d) = self.resolve(device, loc)? {
            let info = self.options.info;
            let dev = self.device(d, loc)?;
            let release = if structured {
                Release::Structured
            } else {
                Release::Dynamic
            };
            dev.exit(d, items, release, info)?;
        }
        Ok(())
    }

    /// `target update`: items with `TO` copy host->device, with `FROM` device->host; items
    /// that are not present are skipped unless they carry `PRESENT`. An item that overlaps a
    /// mapping without lying inside it (OpenMP leaves this unspecified) moves the overlap:
    /// the device holds nothing else of it (the data planner's updates rely on this).
    pub fn update(&mut self, device: i32, items: &[MapItem<'_>], loc: &str) -> Result<(), RtError> {
        check_items(items, loc)?;
        let Target::Device(d) = self.resolve(device, loc)? else {
            return Ok(());
        };
        let info = self.options.info;
        let dev = self.device(d, loc)?;
        for it in items {
            if it.size == 0 {
                continue;
            }
            let mut part = *it;
            let key = match dev.table.lookup(it.begin, it.size) {
                Lookup::Inside(k) => k,
                Lookup::Partial(k) if it.flags & flags::PRESENT == 0 => {
                    let Some(e) = dev.table.get(k) else { continue };
                    part.begin = it.begin.max(e.host_begin);
                    let end = (it.begin + it.size).min(e.host_begin + e.size());
                    part.size = end.saturating_sub(part.begin);
                    if info.has(InfoCategories::MAPS) {
                        log::line(&format!(
                            "ompcc-rt: info: {}: update of '{}' moves the {} bytes of it that are \
                             present on device {d}",
                            it.loc, it.name, part.size
                        ));
                    }
                    k
                }
                Lookup::Partial(k) => return Err(partial_error(it, &dev.table, k, d)),
                Lookup::Absent if it.flags & flags::PRESENT != 0 => {
                    return Err(absent_error(
                        it,
                        d,
                        "target update with the `present` modifier",
                    ));
                }
                Lookup::Absent => {
                    if info.has(InfoCategories::MAPS) {
                        log::line(&format!(
                            "ompcc-rt: info: {}: update of '{}' skipped: not present on device {d}",
                            it.loc, it.name
                        ));
                    }
                    continue;
                }
            };
            let dev_addr = dev
                .table
                .get(key)
                .map(|e| e.translate(part.begin))
                .unwrap_or(0);
            if part.flags & flags::TO != 0 {
                dev.copy_in(&part, dev_addr, info)?;
            }
            if part.flags & flags::FROM != 0 {
                dev.copy_out(&part, dev_addr, info)?;
            }
        }
        Ok(())
    }

    /// `target update` of a discontiguous section: `row` is its first row (`begin`, `size`
    /// bytes), `dims` the `(count, byte stride)` of every dimension above the rows, outermost
    /// first; each row moves as one item of [`Runtime::update`], and nothing between rows
    /// moves. Dimensions whose rows abut (stride equal to the bytes below) merge first, so a
    /// section whose inner dimensions are whole moves as one range.
    pub fn update_strided(
        &mut self,
        device: i32,
        row: &MapItem<'_>,
        dims: &[(u64, u64)],
        loc: &str,
    ) -> Result<(), RtError> {
        let mut size = row.size;
        let mut dims = dims.to_vec();
        while let Some(&(count, stride)) = dims.last() {
            if stride != size {
                break;
            }
            size = count.checked_mul(size).ok_or_else(|| too_large(row))?;
            dims.pop();
        }
        if size == 0 || dims.iter().any(|&(count, _)| count == 0) {
            return Ok(());
        }
        // The last row's end must be an address: then no offset below overflows.
        let span = dims.iter().try_fold(size, |acc, &(count, stride)| {
            (count - 1).checked_mul(stride)?.checked_add(acc)
        });
        if span.and_then(|s| row.begin.checked_add(s)).is_none() {
            return Err(too_large(row));
        }
        const BATCH: usize = 4096;
        let mut index = vec![0u64; dims.len()];
        let mut batch = Vec::with_capacity(BATCH);
        loop {
            let offset: u64 = index.iter().zip(&dims).map(|(i, (_, s))| i * s).sum();
            batch.push(MapItem {
                begin: row.begin + offset,
                base: row.begin + offset,
                size,
                ..*row
            });
            if batch.len() == BATCH {
                self.update(device, &batch, loc)?;
                batch.clear();
            }
            // The next index, the innermost dimension fastest.
            let mut k = dims.len();
            loop {
                if k == 0 {
                    return if batch.is_empty() {
                        Ok(())
                    } else {
                        self.update(device, &batch, loc)
                    };
                }
                k -= 1;
                index[k] += 1;
                if index[k] < dims[k].0 {
                    break;
                }
                index[k] = 0;
            }
        }
    }

    /// `use_device_ptr` / `use_device_addr`: the device address of host address `host`, or
    /// `host` itself when it is not mapped (OpenMP 5.2: the pointer keeps its value).
    pub fn device_address(&mut self, device: i32, host: u64, loc: &str) -> Result<u64, RtError> {
        match self.resolve(device, loc)? {
            Target::Host => Ok(host),
            Target::Device(d) => Ok(self.mapped_address(d, host, 0, loc)?.unwrap_or(host)),
        }
    }

    // ---- launches ----------------------------------------------------------------------

    /// `target`: maps, runs the kernel, unmaps. `Ok(false)`: the caller runs the host
    /// fallback (no device; nothing was mapped).
    pub fn launch(&mut self, l: &Launch<'_>) -> Result<bool, RtError> {
        check_items(l.items, l.loc)?;
        let module = self
            .modules
            .get(l.module as usize)
            .ok_or_else(|| RtError::new(l.loc, format!("launch of unknown module {}", l.module)))?;
        let kernel = module
            .kernels
            .get(l.kernel as usize)
            .cloned()
            .ok_or_else(|| {
                RtError::new(
                    l.loc,
                    format!("module {} has no kernel {}", module.name, l.kernel),
                )
            })?;
        let variant = one_iteration_variant(&module.kernels, &kernel.name).cloned();
        let d = match self.resolve(l.device, l.loc)? {
            Target::Host => {
                self.info(InfoCategories::LAUNCHES, || {
                    format!(
                        "{}: kernel '{}' runs on the host (fallback)",
                        l.loc, kernel.name
                    )
                });
                let reason = self.host_reason(l.device);
                profile::with(|p| p.host_run(&kernel.name, l.loc, &reason));
                return Ok(false);
            }
            Target::Device(d) => d,
        };
        let info = self.options.info;
        let env_shape = (self.options.num_teams, self.options.teams_thread_limit);
        self.load_programs(d, l.loc)?;
        let program = self.program_of(d, l.module as usize).ok_or_else(|| {
            RtError::new(
                l.loc,
                format!("internal: module {} is not loaded", l.module),
            )
        })?;
        let dev = self.device(d, l.loc)?;
        dev.enter(d, l.items, Enter::Launch, info)?;
        let params = dev.kernel_params(l.items);
        let result = (|| {
            let params = params?;
            if params.len() != kernel.param_sizes.len() {
                return Err(RtError::new(
                    l.loc,
                    format!(
                        "kernel '{}' takes {} parameters but the launch passes {}",
                        kernel.name,
                        kernel.param_sizes.len(),
                        params.len()
                    ),
                ));
            }
            for (i, (p, size)) in params.iter().zip(&kernel.param_sizes).enumerate() {
                if p.len() != *size as usize {
                    return Err(RtError::new(
                        l.loc,
                        format!(
                            "parameter {i} of kernel '{}' is {size} bytes but the launch passes {}",
                            kernel.name,
                            p.len()
                        ),
                    ));
                }
            }
            let described = dev.backend.describe();
            let backend_error = |name: &str, e| {
                RtError::backend(l.loc, format!("kernel '{name}' on {described}"), e)
            };
            let max_threads = dev
                .backend
                .max_threads(program, &kernel.name)
                .map_err(|e| backend_error(&kernel.name, e))?;
            let threads = launch_threads(l, env_shape.1, max_threads);
            // the one-iteration variant when every iteration can have a thread of its own
            let one = match &variant {
                Some(v) => {
                    let most = dev
                        .backend
                        .max_threads(program, &v.name)
                        .map_err(|e| backend_error(&v.name, e))?;
                    let t = launch_threads(l, env_shape.1, most);
                    one_iteration_grid(l, env_shape.0, t)
                        .map(|(grid, t)| (v.name.as_str(), grid, t))
                }
                None => None,
            };
            let (launched, dims) = match one {
                Some((name, [x, y, z], threads)) => (
                    name,
                    LaunchDims {
                        teams: x,
                        teams_yz: [y, z],
                        threads,
                        dyn_shared_bytes: l.dyn_shared_bytes,
                    },
                ),
                None => {
                    let fill = dev
                        .backend
                        .default_teams(program, &kernel.name, threads, l.dyn_shared_bytes)
                        .map_err(|e| backend_error(&kernel.name, e))?;
                    (
                        kernel.name.as_str(),
                        LaunchDims {
                            teams: launch_teams(l, env_shape.0, threads, fill),
                            teams_yz: [1, 1],
                            threads,
                            dyn_shared_bytes: l.dyn_shared_bytes,
                        },
                    )
                }
            };
            if info.has(InfoCategories::LAUNCHES) {
                // What sized the league, after the fields users' scripts already parse.
                let why = if l.num_teams > 0 {
                    String::new()
                } else if env_shape.0.is_some() {
                    " (OMP_NUM_TEAMS)".to_owned()
                } else if one.is_some() {
                    format!(" (for {} iterations, one per thread)", l.iterations)
                } else if l.iterations > 0 {
                    format!(" (for {} iterations)", l.iterations)
                } else {
                    String::new()
                };
                // a multi-dimensional grid after everything else (scripts parse the line)
                let [y, z] = dims.teams_yz;
                let grid = if [y, z] == [1, 1] {
                    String::new()
                } else {
                    format!(" on a {} x {y} x {z} grid", dims.teams)
                };
                let teams = u64::from(dims.teams) * u64::from(y) * u64::from(z);
                log::line(&format!(
                    "ompcc-rt: info: {}: launch '{}' on device {d}: {teams} teams x {} threads, {} \
                     bytes dynamic shared{why}{grid}",
                    l.loc, kernel.name, dims.threads, dims.dyn_shared_bytes
                ));
            }
            let refs: Vec<&[u8]> = params.iter().map(Vec::as_slice).collect();
            let unmapped = dev.unmapped_pointer_params(l.items);
            let start = Instant::now();
            let stats = dev
                .backend
                .launch(program, launched, &refs, dims)
                .map_err(|e| {
                    let mut err = backend_error(launched, e);
                    // A fault in a kernel that got host addresses: say which and why.
                    if err.abort.is_none() {
                        for (name, host) in &unmapped {
                            if !err.log.is_empty() {
                                err.log.push('\n');
                            }
                            err.log.push_str(&format!(
                                "note: pointer '{name}' reached the kernel as its host address \
                                 {host:#x}: nothing maps the data it points to on device {d} \
                                 (map it: map(tofrom: {name}[0:COUNT]))"
                            ));
                        }
                    }
                    err
                })?;
            let time = start.elapsed();
            profile::with(|p| p.launch(&kernel.name, time, stats));
            Ok(())
        })();
        result?;
        dev.exit(d, l.items, Release::Structured, info)?;
        Ok(true)
    }

    // ---- device memory API -------------------------------------------------------------

    /// `omp_target_alloc` on an offload device; under unified shared memory, storage the
    /// host can use too (`requires::alloc_shared`).
    pub fn target_alloc(&mut self, d: usize, size: u64) -> Result<DevPtr, RtError> {
        let dev = self.device(d, "omp_target_alloc")?;
        let bytes = size.max(1);
        let got = if dev.shared_host {
            requires::alloc_shared(dev.backend.as_mut(), bytes)
        } else {
            dev.backend
                .alloc(bytes)
                .ok()
                .map(|p| (p, requires::UserAlloc::Device))
        };
        // OpenMP 5.2 18.8.1: NULL when the device cannot allocate, for the program to handle.
        let Some((p, how)) = got else {
            return Ok(0);
        };
        dev.user_allocs.insert(p, how);
        Ok(p)
    }

    /// `omp_target_free` on an offload device, called at `loc`.
    pub fn target_free(&mut self, d: usize, ptr: DevPtr, loc: &str) -> Result<(), RtError> {
        let dev = self.device(d, loc)?;
        let Some(how) = dev.user_allocs.remove(&ptr) else {
            return Err(RtError::new(
                loc,
                format!(
                    "omp_target_free: {ptr:#x} was not returned by omp_target_alloc for device \
                     {d}, or was freed already"
                ),
            ));
        };
        requires::free_user(dev.backend.as_mut(), ptr, how)
            .map_err(|e| RtError::backend(loc, "omp_target_free", e))
    }

    /// Copies `size` bytes between host memory and devices (`omp_target_memcpy`).
    ///
    /// # Safety
    /// Host-side ranges must be valid for the access.
    pub unsafe fn memcpy(
        &mut self,
        dst: (u64, Target),
        src: (u64, Target),
        size: u64,
    ) -> Result<(), RtError> {
        const LOC: &str = "omp_target_memcpy";
        if size == 0 {
            return Ok(());
        }
        let len = usize::try_from(size).map_err(|_| RtError::new(LOC, "size too large"))?;
        let fail = |e| RtError::backend(LOC, format!("copying {size} bytes"), e);
        let start = Instant::now();
        let dir = match (dst.1, src.1) {
            (Target::Host, Target::Host) => {
                // SAFETY: the caller guarantees both host ranges; `copy` allows overlap.
                unsafe { std::ptr::copy(src.0 as *const u8, dst.0 as *mut u8, len) };
                return Ok(());
            }
            (Target::Device(d), Target::Host) => {
                // SAFETY: the caller guarantees the host source range.
                let bytes = unsafe { std::slice::from_raw_parts(src.0 as *const u8, len) };
                self.device(d, LOC)?
                    .backend
                    .copy_to_device(dst.0, bytes)
                    .map_err(fail)?;
                Direction::HostToDevice
            }
            (Target::Host, Target::Device(s)) => {
                // SAFETY: the caller guarantees the host destination range.
                let bytes = unsafe { std::slice::from_raw_parts_mut(dst.0 as *mut u8, len) };
                self.device(s, LOC)?
                    .backend
                    .copy_from_device(bytes, src.0)
                    .map_err(fail)?;
                Direction::DeviceToHost
            }
            (Target::Device(d), Target::Device(s)) if d == s => {
                self.device(d, LOC)?
                    .backend
                    .copy_within_device(dst.0, src.0, size)
                    .map_err(fail)?;
                Direction::DeviceToDevice
            }
            (Target::Device(d), Target::Device(s)) => {
                let mut staging = vec![0u8; len];
                self.device(s, LOC)?
                    .backend
                    .copy_from_device(&mut staging, src.0)
                    .map_err(fail)?;
                self.device(d, LOC)?
                    .backend
                    .copy_to_device(dst.0, &staging)
                    .map_err(fail)?;
                Direction::DeviceToDevice
            }
        };
        let t = start.elapsed();
        profile::with(|p| p.transfer(dir, size, t));
        self.info(InfoCategories::COPIES, || {
            format!("{LOC}: {size} bytes {dir:?}")
        });
        Ok(())
    }

    /// `omp_target_is_present` on an offload device.
    pub fn is_present(&mut self, d: usize, host: u64) -> Result<bool, RtError> {
        let dev = self.device(d, "omp_target_is_present")?;
        Ok(dev.table.lookup(host, 0) != Lookup::Absent)
    }

    /// The device address corresponding to `host` (`omp_get_mapped_ptr`, `use_device_ptr`),
    /// `None` when no mapping holds `[host, host+size)` (with `size` 0, one that ends at
    /// `host` does).
    pub fn mapped_address(
        &mut self,
        d: usize,
        host: u64,
        size: u64,
        loc: &str,
    ) -> Result<Option<DevPtr>, RtError> {
        let dev = self.device(d, loc)?;
        Ok(match dev.table.lookup(host, size) {
            Lookup::Inside(k) => dev.table.get(k).map(|e| e.translate(host)),
            _ => None,
        })
    }

    /// `omp_target_is_accessible`: kernels on device `d` reach host memory as it is.
    pub fn reads_host_memory(&mut self, d: usize) -> Result<bool, RtError> {
        Ok(self
            .device(d, "omp_target_is_accessible")?
            .backend
            .reads_host_memory())
    }

    /// `omp_target_associate_ptr`: maps `[host, host+size)` to existing device memory with an
    /// infinite reference count. Associating the same pair again is allowed.
    pub fn associate(
        &mut self,
        d: usize,
        host: u64,
        dev_addr: DevPtr,
        size: u64,
    ) -> Result<(), RtError> {
        const LOC: &str = "omp_target_associate_ptr";
        let info = self.options.info;
        let dev = self.device(d, LOC)?;
        match dev.table.lookup(host, size.max(1)) {
            Lookup::Absent => {
                dev.table.insert(Entry {
                    host_begin: host,
                    host_end: host + size.max(1),
                    dev_begin: dev_addr,
                    dynamic_refs: RefCount::Infinite,
                    structured_refs: 0,
                    owned: false,
                    shared: false,
                    name: "<associated>".into(),
                    loc: LOC.into(),
                });
                if info.has(InfoCategories::MAPS) {
                    log::line(&format!(
                        "ompcc-rt: info: {LOC}: {} -> device {d} {dev_addr:#x}",
                        hex_range(host, size)
                    ));
                }
                Ok(())
            }
            Lookup::Inside(k)
                if dev
                    .table
                    .get(k)
                    .is_some_and(|e| e.translate(host) == dev_addr) =>
            {
                Ok(())
            }
            _ => Err(RtError::new(
                LOC,
                format!(
                    "{} is already mapped on device {d} to other storage",
                    hex_range(host, size)
                ),
            )),
        }
    }

    /// `omp_target_disassociate_ptr`.
    pub fn disassociate(&mut self, d: usize, host: u64) -> Result<(), RtError> {
        const LOC: &str = "omp_target_disassociate_ptr";
        let dev = self.device(d, LOC)?;
        match dev.table.get(host) {
            Some(e) if !e.owned && e.dynamic_refs == RefCount::Infinite => {
                dev.table.remove(host);
                Ok(())
            }
            _ => Err(RtError::new(
                LOC,
                format!("{host:#x} was not associated with omp_target_associate_ptr on device {d}"),
            )),
        }
    }

    /// Entries of the present table of device `d` (tests and diagnostics).
    pub fn present_entries(&mut self, d: usize) -> Vec<Entry> {
        match self.device(d, "present_entries") {
            Ok(dev) => dev.table.iter().cloned().collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Device `d`'s description and multiprocessor count (automatic offload's model).
    pub fn device_shape(&mut self, d: usize) -> Option<(String, u32)> {
        let dev = self.device(d, "device_shape").ok()?;
        Some((dev.backend.describe(), dev.backend.multiprocessors()))
    }
}

#[cfg(test)]
mod stack_size_tests {
    use super::{DEFAULT_STACK_SIZE, device_stack_size};

    #[test]
    fn stack_size_comes_from_the_variable_or_the_default() {
        assert_eq!(device_stack_size(None), DEFAULT_STACK_SIZE);
        assert_eq!(device_stack_size(Some("65536")), 65536);
        assert_eq!(device_stack_size(Some(" 4096 ")), 4096);
        assert_eq!(device_stack_size(Some("0")), DEFAULT_STACK_SIZE);
        assert_eq!(device_stack_size(Some("8k")), DEFAULT_STACK_SIZE);
        assert_eq!(device_stack_size(Some("")), DEFAULT_STACK_SIZE);
    }
}
