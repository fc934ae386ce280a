/* saxpy on the device (host fallback until device code generation lands), checked on the host. */
#include <stdio.h>

#define N 1000

int main(void) {
    static float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
    for (int i = 0; i < N; i++)
        y[i] = 2.0f * x[i] + y[i];
    double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < N; i++)
        sum += y[i];
    printf("saxpy sum = %.1f\n", sum);
    return 0;
}
