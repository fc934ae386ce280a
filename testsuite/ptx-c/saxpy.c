// run: -fopenmp --emit=ptx -O2
#pragma omp declare target
void saxpy(int n, float a, const float *x, float *y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
#pragma omp end declare target
int main(void) { return 0; }
// check: .visible .func saxpy(.param .b32 saxpy_param_0, .param .b32 saxpy_param_1, .param .b64 saxpy_param_2, .param .b64 saxpy_param_3)
// check: mul.rn.f32
// check: add.rn.f32
// not: ld.local
