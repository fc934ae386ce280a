//! OpenMP directive and clause tables: names, which clauses each directive allows, which clauses
//! may appear at most once, and whether a directive owns a statement.
//!
//! Combined and composite directives are described by their leaf constructs; a clause is
//! allowed on a combined directive when some leaf allows it (OpenMP 5.2, 17.4), except
//! `nowait` under `parallel for`/`parallel sections`/... whose implicit barrier belongs to
//! `parallel`. The tables are the single source of truth for the lexer (statement vs
//! standalone), the clause converter and the printer.

use std::fmt;

/// What follows a directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Association {
    /// An executable directive owning the next statement (a loop for loop constructs).
    Stmt,
    /// An executable directive without a statement (`barrier`, `target update`, ...).
    Standalone,
    /// A declarative directive (`declare target`, `threadprivate`, ...).
    Declarative,
}

macro_rules! directives {
    ($($v:ident = [$($w:literal)+] $assoc:ident [$($leaf:ident)*];)*) => {
        /// Every OpenMP directive the parser knows; combined forms are single kinds.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum OmpDirectiveKind {
            $($v,)*
            /// A valid directive ompcc does not support (declare reduction, tile, ...): kept so
            /// later stages can reject it where it matters (inside device code).
            Unsupported,
        }

        const DIRECTIVES: &[(OmpDirectiveKind, &[&str], Association, &[Leaf])] = &[
            $((OmpDirectiveKind::$v, &[$($w),+], Association::$assoc, &[$(Leaf::$leaf),*]),)*
        ];
    };
}

/// Leaf constructs that carry clause permissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaf {
    Parallel,
    For,
    Simd,
    Sections,
    Single,
    Scope,
    Masked,
    Critical,
    Task,
    Taskloop,
    Taskgroup,
    Taskwait,
    Flush,
    Ordered,
    Atomic,
    Loop,
    Teams,
    Distribute,
    Target,
    TargetData,
    TargetEnterExit,
    TargetUpdate,
    DeclareTarget,
    BeginDeclareTarget,
    Requires,
    Scan,
    Cancel,
    Unroll,
    Dispatch,
}

directives! {
    Parallel = ["parallel"] Stmt [Parallel];
    For = ["for"] Stmt [For];
    Simd = ["simd"] Stmt [Simd];
    ForSimd = ["for" "simd"] Stmt [For Simd];
    ParallelFor = ["parallel" "for"] Stmt [Parallel For];
    ParallelForSimd = ["parallel" "for" "simd"] Stmt [Parallel For Simd];
    ParallelLoop = ["parallel" "loop"] Stmt [Parallel Loop];
    ParallelSections = ["parallel" "sections"] Stmt [Parallel Sections];
    ParallelMasked = ["parallel" "masked"] Stmt [Parallel Masked];
    ParallelMaster = ["parallel" "master"] Stmt [Parallel];
    Sections = ["sections"] Stmt [Sections];
    Section = ["section"] Stmt [];
    Single = ["single"] Stmt [Single];
    Scope = ["scope"] Stmt [Scope];
    Master = ["master"] Stmt [];
    Masked = ["masked"] Stmt [Masked];
    Critical = ["critical"] Stmt [Critical];
    Barrier = ["barrier"] Standalone [];
    Taskwait = ["taskwait"] Standalone [Taskwait];
    Taskyield = ["taskyield"] Standalone [];
    Taskgroup = ["taskgroup"] Stmt [Taskgroup];
    Task = ["task"] Stmt [Task];
    Taskloop = ["taskloop"] Stmt [Taskloop];
    TaskloopSimd = ["taskloop" "simd"] Stmt [Taskloop Simd];
    MasterTaskloop = ["master" "taskloop"] Stmt [Taskloop];
    MasterTaskloopSimd = ["master" "taskloop" "simd"] Stmt [Taskloop Simd];
    MaskedTaskloop = ["masked" "taskloop"] Stmt [Masked Taskloop];
    MaskedTaskloopSimd = ["masked" "taskloop" "simd"] Stmt [Masked Taskloop Simd];
    ParallelMasterTaskloop = ["parallel" "master" "taskloop"] Stmt [Parallel Taskloop];
    ParallelMasterTaskloopSimd = ["parallel" "master" "taskloop" "simd"] Stmt [Parallel Taskloop Simd];
    ParallelMaskedTaskloop = ["parallel" "masked" "taskloop"] Stmt [Parallel Masked Taskloop];
    ParallelMaskedTaskloopSimd = ["parallel" "masked" "taskloop" "simd"] Stmt [Parallel Masked Taskloop Simd];
    Flush = ["flush"] Standalone [Flush];
    Ordered = ["ordered"] Stmt [Ordered];
    Atomic = ["atomic"] Stmt [Atomic];
    Loop = ["loop"] Stmt [Loop];
    Scan = ["scan"] Standalone [Scan];
    Cancel = ["cancel"] Standalone [Cancel];
    CancellationPoint = ["cancellation" "point"] Standalone [Cancel];
    Teams = ["teams"] Stmt [Teams];
    TeamsLoop = ["teams" "loop"] Stmt [Teams Loop];
    Distribute = ["distribute"] Stmt [Distribute];
    DistributeSimd = ["distribute" "simd"] Stmt [Distribute Simd];
    DistributeParallelFor = ["distribute" "parallel" "for"] Stmt [Distribute Parallel For];
    DistributeParallelForSimd = ["distribute" "parallel" "for" "simd"] Stmt [Distribute Parallel For Simd];
    TeamsDistribute = ["teams" "distribute"] Stmt [Teams Distribute];
    TeamsDistributeSimd = ["teams" "distribute" "simd"] Stmt [Teams Distribute Simd];
    TeamsDistributeParallelFor = ["teams" "distribute" "parallel" "for"] Stmt [Teams Distribute Parallel For];
    TeamsDistributeParallelForSimd = ["teams" "distribute" "parallel" "for" "simd"] Stmt [Teams Distribute Parallel For Simd];
    Target = ["target"] Stmt [Target];
    TargetData = ["target" "data"] Stmt [TargetData];
    TargetEnterData = ["target" "enter" "data"] Standalone [TargetEnterExit];
    TargetExitData = ["target" "exit" "data"] Standalone [TargetEnterExit];
    TargetUpdate = ["target" "update"] Standalone [TargetUpdate];
    TargetParallel = ["target" "parallel"] Stmt [Target Parallel];
    TargetParallelFor = ["target" "parallel" "for"] Stmt [Target Parallel For];
    TargetParallelForSimd = ["target" "parallel" "for" "simd"] Stmt [Target Parallel For Simd];
    TargetParallelLoop = ["target" "parallel" "loop"] Stmt [Target Parallel Loop];
    TargetSimd = ["target" "simd"] Stmt [Target Simd];
    TargetTeams = ["target" "teams"] Stmt [Target Teams];
    TargetTeamsLoop = ["target" "teams" "loop"] Stmt [Target Teams Loop];
    TargetTeamsDistribute = ["target" "teams" "distribute"] Stmt [Target Teams Distribute];
    TargetTeamsDistributeSimd = ["target" "teams" "distribute" "simd"] Stmt [Target Teams Distribute Simd];
    TargetTeamsDistributeParallelFor = ["target" "teams" "distribute" "parallel" "for"] Stmt [Target Teams Distribute Parallel For];
    TargetTeamsDistributeParallelForSimd = ["target" "teams" "distribute" "parallel" "for" "simd"] Stmt [Target Teams Distribute Parallel For Simd];
    DeclareTarget = ["declare" "target"] Declarative [DeclareTarget];
    BeginDeclareTarget = ["begin" "declare" "target"] Declarative [BeginDeclareTarget];
    EndDeclareTarget = ["end" "declare" "target"] Declarative [];
    Threadprivate = ["threadprivate"] Declarative [];
    Requires = ["requires"] Declarative [Requires];
    Unroll = ["unroll"] Stmt [Unroll];
    Dispatch = ["dispatch"] Stmt [Dispatch];
}

/// Directive names that are valid OpenMP but unsupported by ompcc (first words).
const UNSUPPORTED: &[&[&str]] = &[
    &["declare", "reduction"],
    &["declare", "mapper"],
    &["declare", "variant"],
    &["declare", "simd"],
    &["begin", "declare", "variant"],
    &["end", "declare", "variant"],
    &["metadirective"],
    &["begin", "metadirective"],
    &["tile"],
    &["depobj"],
    &["interop"],
    &["allocate"],
    &["allocators"],
    &["error"],
    &["nothing"],
    &["assume"],
    &["assumes"],
    &["begin", "assumes"],
    &["end", "assumes"],
    &["parallel", "workshare"],
    &["workshare"],
];

impl OmpDirectiveKind {
    /// Longest directive name that is a prefix of `words`: the kind and the number of words
    /// it takes. `Unsupported` for valid but unsupported directives; `None` when unknown.
    pub fn lookup(words: &[&str]) -> Option<(OmpDirectiveKind, usize)> {
        let mut best: Option<(OmpDirectiveKind, usize)> = None;
        for (kind, names, _, _) in DIRECTIVES {
            if words.len() >= names.len()
                && words[..names.len()] == **names
                && best.is_none_or(|(_, n)| names.len() > n)
            {
                best = Some((*kind, names.len()));
            }
        }
        for names in UNSUPPORTED {
            if words.len() >= names.len()
                && words[..names.len()] == **names
                && best.is_none_or(|(_, n)| names.len() > n)
            {
                best = Some((OmpDirectiveKind::Unsupported, names.len()));
            }
        }
        best
    }

    /// The name words of the valid but unsupported directive `words` starts with (the
    /// longest match), if it starts with one.
    pub fn unsupported_name(words: &[&str]) -> Option<&'static [&'static str]> {
        UNSUPPORTED
            .iter()
            .copied()
            .filter(|names| words.len() >= names.len() && words[..names.len()] == **names)
            .max_by_key(|names| names.len())
    }

    fn entry(
        self,
    ) -> Option<&'static (
        OmpDirectiveKind,
        &'static [&'static str],
        Association,
        &'static [Leaf],
    )> {
        DIRECTIVES.iter().find(|d| d.0 == self)
    }

    /// The directive's name words (`["target", "teams"]`); empty for `Unsupported`.
    pub fn words(self) -> &'static [&'static str] {
        self.entry().map_or(&[], |e| e.1)
    }

    /// What follows the directive. `Unsupported` directives are treated as standalone.
    pub fn association(self) -> Association {
        self.entry().map_or(Association::Standalone, |e| e.2)
    }

    fn leaves(self) -> &'static [Leaf] {
        self.entry().map_or(&[], |e| e.3)
    }

    /// True when the directive's leaf constructs include `other`'s first leaf (used for
    /// `if(target: ...)` modifiers and nesting checks).
    pub fn contains(self, other: OmpDirectiveKind) -> bool {
        match other.leaves().first() {
            Some(l) => self.leaves().contains(l),
            None => self == other,
        }
    }

    /// The constructs a combined directive that the parser splits stands for, outermost
    /// first (`parallel master taskloop` is `parallel`, `master`, `taskloop`); empty for every
    /// other directive. Later stages never meet these kinds: the parser nests the leaves
    /// (`split.rs`), with the clauses distributed as OpenMP 5.2 section 17.2 says.
    pub fn split(self) -> &'static [OmpDirectiveKind] {
        use OmpDirectiveKind as K;
        match self {
            K::MasterTaskloop => &[K::Master, K::Taskloop],
            K::MasterTaskloopSimd => &[K::Master, K::TaskloopSimd],
            K::MaskedTaskloop => &[K::Masked, K::Taskloop],
            K::MaskedTaskloopSimd => &[K::Masked, K::TaskloopSimd],
            K::ParallelMasterTaskloop => &[K::Parallel, K::Master, K::Taskloop],
            K::ParallelMasterTaskloopSimd => &[K::Parallel, K::Master, K::TaskloopSimd],
            K::ParallelMaskedTaskloop => &[K::Parallel, K::Masked, K::Taskloop],
            K::ParallelMaskedTaskloopSimd => &[K::Parallel, K::Masked, K::TaskloopSimd],
            _ => &[],
        }
    }

    /// True when `clause` may appear on this directive.
    pub fn allows(self, clause: OmpClauseName) -> bool {
        let leaves = self.leaves();
        // `nowait` on `parallel for` would remove the parallel region's own barrier; on a
        // combined `target ...` directive it applies to the target task and is fine.
        if clause == OmpClauseName::Nowait
            && !leaves.contains(&Leaf::Target)
            && leaves.contains(&Leaf::Parallel)
            && leaves
                .iter()
                .any(|l| matches!(l, Leaf::For | Leaf::Sections | Leaf::Loop))
        {
            return false;
        }
        leaves.iter().any(|l| leaf_allows(*l, clause))
    }

    /// True for directives that apply to a loop nest (collapse, canonical loop form).
    pub fn is_loop(self) -> bool {
        self.leaves().iter().any(|l| {
            matches!(
                l,
                Leaf::For | Leaf::Simd | Leaf::Distribute | Leaf::Loop | Leaf::Taskloop
            )
        })
    }
}

impl fmt::Display for OmpDirectiveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == OmpDirectiveKind::Unsupported {
            return f.write_str("<unsupported>");
        }
        f.write_str(&self.words().join(" "))
    }
}

macro_rules! clauses {
    ($($v:ident = $name:literal $unique:literal;)*) => {
        /// Every OpenMP clause name the parser knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum OmpClauseName { $($v,)* }

        const CLAUSES: &[(OmpClauseName, &str, bool)] = &[$((OmpClauseName::$v, $name, $unique),)*];
    };
}

clauses! {
    If = "if" false;
    NumThreads = "num_threads" true;
    Default = "default" true;
    Private = "private" false;
    Firstprivate = "firstprivate" false;
    Lastprivate = "lastprivate" false;
    Shared = "shared" false;
    Copyin = "copyin" false;
    Copyprivate = "copyprivate" false;
    Reduction = "reduction" false;
    InReduction = "in_reduction" false;
    TaskReduction = "task_reduction" false;
    ProcBind = "proc_bind" true;
    Allocate = "allocate" false;
    Linear = "linear" false;
    Schedule = "schedule" true;
    Collapse = "collapse" true;
    Ordered = "ordered" true;
    Nowait = "nowait" true;
    Order = "order" true;
    Safelen = "safelen" true;
    Simdlen = "simdlen" true;
    Aligned = "aligned" false;
    Nontemporal = "nontemporal" false;
    Filter = "filter" true;
    Hint = "hint" true;
    Final = "final" true;
    Untied = "untied" true;
    Mergeable = "mergeable" true;
    Depend = "depend" false;
    Priority = "priority" true;
    Affinity = "affinity" false;
    Detach = "detach" true;
    Grainsize = "grainsize" true;
    NumTasks = "num_tasks" true;
    Nogroup = "nogroup" true;
    Threads = "threads" true;
    SimdClause = "simd" true;
    Doacross = "doacross" false;
    Read = "read" true;
    Write = "write" true;
    Update = "update" true;
    Capture = "capture" true;
    Compare = "compare" true;
    Weak = "weak" true;
    Fail = "fail" true;
    SeqCst = "seq_cst" true;
    AcqRel = "acq_rel" true;
    Release = "release" true;
    Acquire = "acquire" true;
    Relaxed = "relaxed" true;
    Bind = "bind" true;
    NumTeams = "num_teams" true;
    ThreadLimit = "thread_limit" true;
    DistSchedule = "dist_schedule" true;
    Device = "device" true;
    Map = "map" false;
    IsDevicePtr = "is_device_ptr" false;
    HasDeviceAddr = "has_device_addr" false;
    UseDevicePtr = "use_device_ptr" false;
    UseDeviceAddr = "use_device_addr" false;
    Defaultmap = "defaultmap" false;
    UsesAllocators = "uses_allocators" false;
    To = "to" false;
    From = "from" false;
    Enter = "enter" false;
    Link = "link" false;
    DeviceType = "device_type" true;
    Indirect = "indirect" true;
    Inclusive = "inclusive" false;
    Exclusive = "exclusive" false;
    UnifiedAddress = "unified_address" true;
    UnifiedSharedMemory = "unified_shared_memory" true;
    ReverseOffload = "reverse_offload" true;
    DynamicAllocators = "dynamic_allocators" true;
    AtomicDefaultMemOrder = "atomic_default_mem_order" true;
    CancelParallel = "parallel" true;
    CancelFor = "for" true;
    CancelSections = "sections" true;
    CancelTaskgroup = "taskgroup" true;
    Full = "full" true;
    Partial = "partial" true;
    Novariants = "novariants" true;
    Nocontext = "nocontext" true;
}

impl OmpClauseName {
    /// The clause named `name`.
    pub fn lookup(name: &str) -> Option<OmpClauseName> {
        CLAUSES.iter().find(|c| c.1 == name).map(|c| c.0)
    }

    /// The clause's name as written.
    pub fn as_str(self) -> &'static str {
        CLAUSES.iter().find(|c| c.0 == self).map_or("?", |c| c.1)
    }

    /// True when the clause may appear at most once on a directive.
    pub fn unique(self) -> bool {
        CLAUSES.iter().find(|c| c.0 == self).is_some_and(|c| c.2)
    }
}

impl fmt::Display for OmpClauseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn leaf_allows(leaf: Leaf, c: OmpClauseName) -> bool {
    use OmpClauseName as C;
    match leaf {
        Leaf::Parallel => matches!(
            c,
            C::If
                | C::NumThreads
                | C::Default
                | C::Private
                | C::Firstprivate
                | C::Shared
                | C::Copyin
                | C::Reduction
                | C::ProcBind
                | C::Allocate
        ),
        Leaf::For => matches!(
            c,
            C::Private
                | C::Firstprivate
                | C::Lastprivate
                | C::Linear
                | C::Reduction
                | C::Schedule
                | C::Collapse
                | C::Ordered
                | C::Nowait
                | C::Allocate
                | C::Order
        ),
        Leaf::Simd => matches!(
            c,
            C::If
                | C::Safelen
                | C::Simdlen
                | C::Linear
                | C::Aligned
                | C::Nontemporal
                | C::Private
                | C::Lastprivate
                | C::Reduction
                | C::Collapse
                | C::Order
        ),
        Leaf::Sections => matches!(
            c,
            C::Private | C::Firstprivate | C::Lastprivate | C::Reduction | C::Allocate | C::Nowait
        ),
        Leaf::Single => {
            matches!(
                c,
                C::Private | C::Firstprivate | C::Copyprivate | C::Allocate | C::Nowait
            )
        }
        Leaf::Scope => matches!(
            c,
            C::Private | C::Firstprivate | C::Reduction | C::Allocate | C::Nowait
        ),
        Leaf::Masked => matches!(c, C::Filter),
        Leaf::Critical => matches!(c, C::Hint),
        Leaf::Dispatch => matches!(
            c,
            C::Device
                | C::Depend
                | C::Nowait
                | C::Novariants
                | C::Nocontext
                | C::IsDevicePtr
                | C::HasDeviceAddr
        ),
        Leaf::Task => matches!(
            c,
            C::If
                | C::Final
                | C::Untied
                | C::Default
                | C::Mergeable
                | C::Private
                | C::Firstprivate
                | C::Shared
                | C::InReduction
                | C::Depend
                | C::Priority
                | C::Allocate
                | C::Affinity
                | C::Detach
        ),
        Leaf::Taskloop => matches!(
            c,
            C::If
                | C::Shared
                | C::Private
                | C::Firstprivate
                | C::Lastprivate
                | C::Reduction
                | C::InReduction
                | C::Default
                | C::Grainsize
                | C::NumTasks
                | C::Collapse
                | C::Final
                | C::Priority
                | C::Untied
                | C::Mergeable
                | C::Nogroup
                | C::Allocate
        ),
        Leaf::Taskgroup => matches!(c, C::TaskReduction | C::Allocate),
        Leaf::Taskwait => matches!(c, C::Depend | C::Nowait),
        Leaf::Flush => matches!(c, C::SeqCst | C::AcqRel | C::Release | C::Acquire),
        Leaf::Ordered => matches!(c, C::Threads | C::SimdClause | C::Depend | C::Doacross),
        Leaf::Atomic => matches!(
            c,
            C::Read
                | C::Write
                | C::Update
                | C::Capture
                | C::Compare
                | C::Weak
                | C::Fail
                | C::SeqCst
                | C::AcqRel
                | C::Release
                | C::Acquire
                | C::Relaxed
                | C::Hint
        ),
        Leaf::Loop => {
            matches!(
                c,
                C::Bind | C::Collapse | C::Order | C::Private | C::Lastprivate | C::Reduction
            )
        }
        Leaf::Teams => matches!(
            c,
            C::NumTeams
                | C::ThreadLimit
                | C::Default
                | C::Private
                | C::Firstprivate
                | C::Shared
                | C::Reduction
                | C::Allocate
                | C::If
        ),
        Leaf::Distribute => matches!(
            c,
            C::Private
                | C::Firstprivate
                | C::Lastprivate
                | C::Collapse
                | C::DistSchedule
                | C::Allocate
                | C::Order
        ),
        Leaf::Target => matches!(
            c,
            C::If
                | C::Device
                | C::Private
                | C::Firstprivate
                | C::Map
                | C::IsDevicePtr
                | C::HasDeviceAddr
                | C::Defaultmap
                | C::Nowait
                | C::Depend
                | C::Allocate
                | C::UsesAllocators
                | C::InReduction
                | C::ThreadLimit
        ),
        Leaf::TargetData => {
            matches!(
                c,
                C::If | C::Device | C::Map | C::UseDevicePtr | C::UseDeviceAddr
            )
        }
        Leaf::TargetEnterExit => matches!(c, C::If | C::Device | C::Map | C::Depend | C::Nowait),
        Leaf::TargetUpdate => {
            matches!(
                c,
                C::If | C::Device | C::To | C::From | C::Depend | C::Nowait
            )
        }
        Leaf::DeclareTarget => {
            matches!(c, C::To | C::Enter | C::Link | C::DeviceType | C::Indirect)
        }
        Leaf::BeginDeclareTarget => matches!(c, C::DeviceType | C::Indirect),
        // `full` and `partial` exclude each other (checked by sema).
        Leaf::Unroll => matches!(c, C::Full | C::Partial),
        Leaf::Requires => matches!(
            c,
            C::UnifiedAddress
                | C::UnifiedSharedMemory
                | C::ReverseOffload
                | C::DynamicAllocators
                | C::AtomicDefaultMemOrder
        ),
        Leaf::Scan => matches!(c, C::Inclusive | C::Exclusive),
        Leaf::Cancel => matches!(
            c,
            C::If | C::CancelParallel | C::CancelFor | C::CancelSections | C::CancelTaskgroup
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_match_and_permissions() {
        let w = ["target", "teams", "distribute", "parallel", "for", "map"];
        assert_eq!(
            OmpDirectiveKind::lookup(&w),
            Some((OmpDirectiveKind::TargetTeamsDistributeParallelFor, 5))
        );
        assert_eq!(
            OmpDirectiveKind::lookup(&["declare", "reduction"]).map(|d| d.0),
            Some(OmpDirectiveKind::Unsupported)
        );
        assert_eq!(OmpDirectiveKind::lookup(&["paralel"]), None);
        let k = OmpDirectiveKind::TargetTeamsDistributeParallelFor;
        assert!(k.allows(OmpClauseName::Map) && k.allows(OmpClauseName::NumTeams));
        assert!(k.allows(OmpClauseName::DistSchedule) && k.allows(OmpClauseName::Schedule));
        assert!(k.allows(OmpClauseName::Nowait) && !k.allows(OmpClauseName::Safelen));
        assert!(!OmpDirectiveKind::ParallelFor.allows(OmpClauseName::Nowait));
        assert!(OmpDirectiveKind::Target.allows(OmpClauseName::Nowait));
        assert!(!OmpDirectiveKind::Barrier.allows(OmpClauseName::Private));
        assert_eq!(
            OmpDirectiveKind::TargetUpdate.association(),
            Association::Standalone
        );
        assert_eq!(k.to_string(), "target teams distribute parallel for");
        assert!(k.contains(OmpDirectiveKind::Target) && k.contains(OmpDirectiveKind::Parallel));
        assert!(OmpClauseName::Collapse.unique() && !OmpClauseName::Map.unique());
    }
}
