//! The launch shape of a target region (OpenMP 5.2 10.2, 13.3): how many teams and threads
//! per team a launch gets from its clauses, the environment, the loop nest's iteration count
//! and what the device runs at once.

use crate::runtime::{KernelDesc, Launch};

/// What the compiler appends to a region's kernel name for its one-iteration variant
/// (`ompcc_omp::ONE_ITERATION_SUFFIX`, which must stay equal): the same parameters, each
/// thread running at most the one iteration its global thread number names.
pub(crate) const ONE_ITERATION_SUFFIX: &str = "_one";

/// The one-iteration variant of kernel `name` among a module's `kernels`, if it has one.
pub(crate) fn one_iteration_variant<'k>(
    kernels: &'k [KernelDesc],
    name: &str,
) -> Option<&'k KernelDesc> {
    kernels
        .iter()
        .find(|k| k.name.strip_suffix(ONE_ITERATION_SUFFIX) == Some(name))
}

/// The grid (blocks in x, y, z) and threads a team of `l`'s one-iteration variant with at
/// most `threads` a team: a thread per iteration when nothing else decides the league's size
/// (no `num_teams`, no `OMP_NUM_TEAMS`), the count is known and not saturated, and the
/// league it needs is at most [`MAX_TEAMS`]; else `None` (the grid-stride kernel runs).
/// A one-dimensional variant gets `ceil(iterations / threads)` blocks; one over a collapsed
/// nest (`l.nest`) [`grid_over_nest`].
pub(crate) fn one_iteration_grid(
    l: &Launch<'_>,
    env_teams: Option<u32>,
    threads: u32,
) -> Option<([u32; 3], u32)> {
    if l.num_teams > 0 || env_teams.is_some() || l.iterations == 0 || l.iterations == u32::MAX {
        return None;
    }
    let threads = threads.max(1);
    if l.nest[0] > 0 {
        return grid_over_nest(l.nest, threads);
    }
    let teams = l.iterations.div_ceil(threads);
    (teams <= MAX_TEAMS).then_some(([teams, 1, 1], threads))
}

/// Most blocks a grid has in y or in z (CUDA's limit).
const MAX_GRID_YZ: u32 = 65535;

/// The grid of a variant over a collapsed nest with trip counts `nest` (innermost first):
/// blocks in x over the innermost loop, in y and z one per iteration of the outer loops
/// (the kernel traps when they do not cover its own counts). A team is the inner trip count
/// rounded up to a warp when that is below `threads`; when blocks would still be less than
/// half busy (a short inner loop), or y or z exceed CUDA's limit: `None`.
fn grid_over_nest(nest: [u32; 3], threads: u32) -> Option<([u32; 3], u32)> {
    let [inner, y, z] = nest;
    if y == 0 || z == 0 || y > MAX_GRID_YZ || z > MAX_GRID_YZ {
        return None;
    }
    let threads = threads.min(inner.checked_next_multiple_of(32)?);
    let x = inner.div_ceil(threads);
    if u64::from(x) * u64::from(threads) > 2 * u64::from(inner) {
        return None;
    }
    let teams = u64::from(x) * u64::from(y) * u64::from(z);
    (teams <= u64::from(MAX_TEAMS)).then_some(([x, y, z], threads))
}

/// Threads per team of `l` (OpenMP 5.2 10.2, 13.3): `thread_limit`/`num_threads`, else
/// `OMP_TEAMS_THREAD_LIMIT`, else 128, and never more than the kernel's registers allow
/// (`max_threads`): the clauses are upper bounds.
pub(crate) fn launch_threads(l: &Launch<'_>, env_threads: Option<u32>, max_threads: u32) -> u32 {
    if l.thread_limit > 0 {
        l.thread_limit
    } else {
        env_threads.unwrap_or(128)
    }
    .min(max_threads)
    .max(1)
}

/// The most teams a league ever gets: the compiler's range analysis takes `%nctaid.x` to be at
/// most this (`ompcc_ir::analysis::MAX_TEAMS`, which must stay equal), so with at most 1024
/// threads a team the global thread number and stride of a distributed loop fit 32 bits.
pub(crate) const MAX_TEAMS: u32 = (1 << 21) - 1;

/// Teams of `l`: the `num_teams` clause, else `OMP_NUM_TEAMS`, else as many as the iterations
/// need (`ceil(iterations / threads)`) up to `fill`, the teams the device runs at once, else
/// `fill`; never more than [`MAX_TEAMS`] (OpenMP lets a league have fewer teams than it asks
/// for).
pub(crate) fn launch_teams(l: &Launch<'_>, env_teams: Option<u32>, threads: u32, fill: u32) -> u32 {
    let fill = fill.max(1);
    if l.num_teams > 0 {
        l.num_teams
    } else if let Some(n) = env_teams {
        n
    } else if l.iterations > 0 {
        l.iterations.div_ceil(threads.max(1)).clamp(1, fill)
    } else {
        fill
    }
    .min(MAX_TEAMS)
}

#[cfg(test)]
mod launch_shape_tests {
    use super::{
        MAX_TEAMS, launch_teams, launch_threads, one_iteration_grid, one_iteration_variant,
    };
    use crate::runtime::{KernelDesc, Launch};

    fn launch(num_teams: u32, thread_limit: u32, iterations: u32) -> Launch<'static> {
        Launch {
            module: 0,
            kernel: 0,
            device: 0,
            items: &[],
            num_teams,
            thread_limit,
            dyn_shared_bytes: 0,
            iterations,
            nest: [0; 3],
            loc: "t.c:1:1",
        }
    }

    #[test]
    fn teams_follow_clauses_then_environment_then_iterations() {
        // `fill` = 40: the teams the device runs at once.
        let shape = |l: &Launch<'_>, (teams, threads): (Option<u32>, Option<u32>)| {
            let t = launch_threads(l, threads, 1024);
            (launch_teams(l, teams, t, 40), t)
        };
        // unknown trip count: as many teams as the device runs at once, 128 threads
        assert_eq!(shape(&launch(0, 0, 0), (None, None)), (40, 128));
        // no more teams than the iterations need, never more than fill the device
        assert_eq!(shape(&launch(0, 0, 100), (None, None)), (1, 128));
        assert_eq!(shape(&launch(0, 0, 1000), (None, None)), (8, 128));
        assert_eq!(shape(&launch(0, 0, 1 << 30), (None, None)), (40, 128));
        assert_eq!(shape(&launch(0, 64, 1000), (None, None)), (16, 64));
        // OMP_NUM_TEAMS / OMP_TEAMS_THREAD_LIMIT, below the clauses
        assert_eq!(shape(&launch(0, 0, 1000), (Some(3), Some(32))), (3, 32));
        assert_eq!(shape(&launch(5, 256, 1000), (Some(3), Some(32))), (5, 256));
        // a league is at most MAX_TEAMS, whatever asks for more
        assert_eq!(shape(&launch(u32::MAX, 0, 0), (None, None)).0, MAX_TEAMS);
        assert_eq!(shape(&launch(0, 0, 0), (Some(u32::MAX), None)).0, MAX_TEAMS);
        assert_eq!(
            launch_teams(&launch(0, 0, u32::MAX), None, 1, u32::MAX),
            MAX_TEAMS
        );
        // the kernel's own limit wins over every request
        assert_eq!(launch_threads(&launch(0, 0, 0), Some(2048), 256), 256);
    }

    /// The teams of a one-dimensional one-iteration grid, if it is taken.
    fn one_iteration_teams(l: &Launch<'_>, env: Option<u32>, threads: u32) -> Option<u32> {
        one_iteration_grid(l, env, threads).map(|([x, y, z], t)| {
            assert_eq!((y, z, t), (1, 1, threads));
            x
        })
    }

    #[test]
    fn one_iteration_variant_covers_every_iteration_or_is_not_taken() {
        // a thread per iteration, far more teams than fill the device
        assert_eq!(
            one_iteration_teams(&launch(0, 0, 1 << 24), None, 128),
            Some(1 << 17)
        );
        assert_eq!(one_iteration_teams(&launch(0, 0, 1000), None, 128), Some(8));
        assert_eq!(
            one_iteration_teams(&launch(0, 64, 1000), None, 64),
            Some(16)
        );
        // the clause or the environment decides the league; unknown or saturated counts
        assert_eq!(one_iteration_teams(&launch(5, 0, 1000), None, 128), None);
        assert_eq!(one_iteration_teams(&launch(0, 0, 1000), Some(3), 128), None);
        assert_eq!(one_iteration_teams(&launch(0, 0, 0), None, 128), None);
        assert_eq!(
            one_iteration_teams(&launch(0, 0, u32::MAX), None, 128),
            None
        );
        // more teams than a league may have: the grid-stride kernel
        assert_eq!(one_iteration_teams(&launch(0, 1, 1 << 22), None, 1), None);
        assert_eq!(
            one_iteration_teams(&launch(0, 1, MAX_TEAMS), None, 1),
            Some(MAX_TEAMS)
        );
    }

    #[test]
    fn collapsed_variant_gets_a_block_row_per_outer_iteration() {
        let nest = |inner: u32, y: u32, z: u32| Launch {
            nest: [inner, y, z],
            ..launch(0, 0, inner.saturating_mul(y).saturating_mul(z))
        };
        // jacobi2d at n = 128: a row of 126 in one block of 128 threads, a block per row
        assert_eq!(
            one_iteration_grid(&nest(126, 126, 1), None, 128),
            Some(([1, 126, 1], 128))
        );
        assert_eq!(
            one_iteration_grid(&nest(300, 20, 7), None, 128),
            Some(([3, 20, 7], 128))
        );
        // a short inner loop: a team of a warp; shorter than half a warp, the grid-stride kernel
        assert_eq!(
            one_iteration_grid(&nest(20, 50, 1), None, 128),
            Some(([1, 50, 1], 32))
        );
        assert_eq!(one_iteration_grid(&nest(15, 50, 1), None, 128), None);
        // a thread_limit below a warp is kept
        assert_eq!(
            one_iteration_grid(&nest(20, 4, 1), None, 8),
            Some(([3, 4, 1], 8))
        );
        // CUDA's 65535 blocks in y and z, the league's MAX_TEAMS, saturated counts
        assert_eq!(one_iteration_grid(&nest(64, 65536, 1), None, 128), None);
        assert_eq!(one_iteration_grid(&nest(64, 2, 65536), None, 128), None);
        assert_eq!(one_iteration_grid(&nest(1024, 4096, 600), None, 128), None);
        assert_eq!(one_iteration_grid(&nest(u32::MAX, 1, 1), None, 128), None);
        // the clause or the environment still decides the league
        let mut clause = nest(126, 126, 1);
        clause.num_teams = 4;
        assert_eq!(one_iteration_grid(&clause, None, 128), None);
        assert_eq!(one_iteration_grid(&nest(126, 126, 1), Some(4), 128), None);
    }

    #[test]
    fn one_iteration_variant_is_found_by_name() {
        let k = |name: &str| KernelDesc {
            name: name.into(),
            param_sizes: vec![8],
        };
        let kernels = [
            k("__omp_offload_f_l3"),
            k("__omp_offload_f_l9"),
            k("__omp_offload_f_l3_one"),
        ];
        let found = one_iteration_variant(&kernels, "__omp_offload_f_l3").map(|k| k.name.as_str());
        assert_eq!(found, Some("__omp_offload_f_l3_one"));
        assert!(one_iteration_variant(&kernels, "__omp_offload_f_l9").is_none());
        assert!(one_iteration_variant(&kernels, "__omp_offload_f_l3_one").is_none());
    }
}
