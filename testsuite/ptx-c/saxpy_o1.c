/* saxpy at -O1: every local is promoted to a register, so the loop touches no local memory. */
// run: -fopenmp --device-only --emit=ptx -O1
void saxpy(int n, float a, const float *x, float *y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
// check: .visible .func saxpy(
// not: ld.local
// not: st.local
// check: ld.f32 %f2, [%rd6];
// not: ld.local
// not: st.local
// check: mul.rn.f32 %f3, %f1, %f2;
// not: ld.local
// not: st.local
// check: add.rn.f32 %f5, %f3, %f4;
// not: ld.local
// not: st.local
// check: st.f32 [%rd14], %f5;
// not: ld.local
// not: st.local
// check: ret;
