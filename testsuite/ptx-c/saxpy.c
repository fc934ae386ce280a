// run: -fopenmp --emit=ptx -O2
#pragma omp declare target
void saxpy(int n, float a, const float *x, float *y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
#pragma omp end declare target
int main(void) { return 0; }
// check: .visible .func saxpy(.param .b32 saxpy_param_0, .param .b32 saxpy_param_1, .param .b64 saxpy_param_2, .param .b64 saxpy_param_3)
// a * x[i] + y[i] is contracted to one fma.rn.f32 (the loop is also unrolled by 4).
// check: ld.param.f32 $(a=%f\d+), [saxpy_param_1];
// check: ld.f32 $(x=%f\d+), [$(=%rd\d+)];
// check: ld.f32 $(y=%f\d+), [$(py=%rd\d+)];
// nextln: fma.rn.f32 $(r=%f\d+), $a, $x, $y;
// nextln: st.f32 [$py], $r;
// not: mul.rn.f32
// not: ld.local
