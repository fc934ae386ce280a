/* Mapped data a kernel only reads is loaded through the read-only path (`ld.global.nc`) when
   every other memory parameter of the kernel is proven a distinct object (module `disjoint`
   of ompcc-omp, knob `noalias-maps`): two fresh allocations; a reduction variable (a local
   whose address is never taken) against them. Pointers that come from a function's
   parameters may point into the same object, so there `x` stays on the coherent path. */
// run: -fopenmp --emit=ptx -O2
#include <stdlib.h>
void from_params(int n, float a, float *x, float *y) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
double fresh(int n, float a) {
    float *x = malloc(sizeof(float) * n);
    float *y = malloc(sizeof(float) * n);
    double sum = 0;
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
#pragma omp target teams distribute parallel for map(to : x[0:n], y[0:n]) reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += x[i] * y[i];
    free(x);
    free(y);
    return sum;
}
int main(void) { return (int)fresh(10, 2.0f); }
// check: .entry __omp_offload_from_params_l9(
// not: ld.global.nc
// check: ld.global.f32 $(=%f\d+), [$(=%rd\d+)];
// check: ld.global.f32 $(=%f\d+), [$(=%rd\d+)];
// not: ld.global.nc
// check: .entry __omp_offload_fresh_l17(
// not: ld.global.f32
// check: ld.global.nc.f32 $(=%f\d+), [$(=%rd\d+)];
// not: ld.global.nc
// check: ld.global.f32 $(=%f\d+), [$(=%rd\d+)];
// not: ld.global.nc
// check: st.global.f32
// check: .entry __omp_offload_fresh_l20(
// not: ld.global.f
// check: ld.global.nc.f32 $(=%f\d+), [$(=%rd\d+)];
// nextln: add.s64
// nextln: ld.global.nc.f32 $(=%f\d+), [$(=%rd\d+)];
// check: ret;
