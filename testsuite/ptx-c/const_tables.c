/* A const table with a constant initializer that a region maps implicitly is read from an
   internal .const copy with ld.const at -O2; the kernel keeps its parameter (the host maps the
   table as before) but does not read it. */
// run: -fopenmp --emit=ptx -O2
const float weights[4] = {0.125f, 0.25f, 0.5f, 0.125f};
void blur(int n, const float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n + 3]) map(from: y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = weights[0] * x[i] + weights[1] * x[i + 1] + weights[2] * x[i + 2] + weights[3] * x[i + 3];
}
// check: .const .align 4 .b8 weights__const[16] = {0, 0, 0, 62, 0, 0, 128, 62, 0, 0, 0, 63, 0, 0, 0, 62};
// check: .entry __omp_offload_blur_l7(
// check: ld.const.f32 $(=%f\d+), [weights__const];
// check: ld.const.f32 $(=%f\d+), [weights__const+4];
