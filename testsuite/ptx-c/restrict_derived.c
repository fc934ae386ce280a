/* A pointer based on a `restrict` pointer (`b = a + 1`) may reach the same object (C11
   6.7.3.1); in a kernel the two are separate parameters, so neither is `noalias` and the
   reads of `a` stay on the coherent path while `b` writes (the read-only cache is not
   coherent with the kernel's own stores). Two `restrict` pointers are disjoint. */
// run: -fopenmp --emit=ptx -O2
void derived_unmapped(double *restrict a, int n) {
    double *b = a + 1;
#pragma omp target map(tofrom : a[0:n])
    for (int i = 0; i < n - 1; i++)
        b[i] = a[i] + 1;
}
void derived_mapped(double *restrict a, int n) {
    double *b = a + 1;
#pragma omp target map(tofrom : a[0:n]) map(tofrom : b[0:n-1])
    for (int i = 0; i < n - 1; i++)
        b[i] = a[i] + 1;
}
void both_restrict(double *restrict x, double *restrict y, int n) {
#pragma omp target map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 1;
}
int main(void) { return 0; }
// check: .entry __omp_offload_derived_unmapped_l8(
// not: ld.global.nc
// check: .entry __omp_offload_derived_mapped_l14(
// not: ld.global.nc
// check: .entry __omp_offload_both_restrict_l19(
// check: ld.global.nc.f64
// check: ret;
