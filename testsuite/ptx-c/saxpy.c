#pragma omp declare target
void saxpy(int n, float a, const float *x, float *y) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
#pragma omp end declare target
int main(void) { return 0; }
