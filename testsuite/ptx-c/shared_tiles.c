/* A 3-point stencil's reads staged in .shared by the one-iteration kernel at -O2: the block
   loads its tile (blockDim + 2 elements, sized for 1024 threads), meets at a barrier, and
   reads the three neighbours from the tile; the grid-stride kernel reads global memory. */
// run: -fopenmp --emit=ptx -O2
void smooth(int n, const float *restrict x, float *restrict y) {
#pragma omp target teams distribute parallel for map(to: x[0:n + 2]) map(from: y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = x[i] + x[i + 1] + x[i + 2];
}
// check: .shared .align 8 .b8 __omp_offload_smooth_l6_one__tile[4104];
// check: .entry __omp_offload_smooth_l6(
// not: .shared
// check: .entry __omp_offload_smooth_l6_one(
// check: ld.global.nc.f32 $(=%f\d+), [$(=%rd\d+)];
// check: st.shared.f32
// check: barrier.sync 0;
// check: ld.shared.f32 $(=%f\d+), [$(=%rd\d+)];
// check: ld.shared.f32 $(=%f\d+), [$(=%rd\d+)+4];
// check: ld.shared.f32 $(=%f\d+), [$(=%rd\d+)+8];
