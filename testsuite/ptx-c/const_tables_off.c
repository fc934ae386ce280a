/* `-C const-tables=off`: a const table a region maps implicitly is read through the kernel's
   parameter from global memory (with the knob on, from its .const copy: run/const_tables.c). */
// run: -fopenmp --emit=ptx -O2 -C const-tables=off
const float weights[4] = {0.125f, 0.25f, 0.5f, 0.125f};
void blur(int n, const float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n + 3]) map(from: y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = weights[0] * x[i] + weights[1] * x[i + 1] + weights[2] * x[i + 2] + weights[3] * x[i + 3];
}
// check: .entry __omp_offload_blur_l6(
// not: .const
// check: ld.global.f32 $(=%f\d+), [$(=%rd\d+)];
