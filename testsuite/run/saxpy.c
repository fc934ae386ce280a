/* saxpy: y = a*x + y with `target teams distribute parallel for`, explicit to/tofrom maps of
 * pointer sections, and a scalar passed implicitly as firstprivate. */
#include <stdio.h>
#include <stdlib.h>

#define N 10000

static void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(tofrom : y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(void)
{
    float *x = malloc(N * sizeof *x);
    float *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 100) * 0.5f;
        y[i] = (float)(i % 7);
    }
    saxpy(N, 2.0f, x, y);
    saxpy(N, -0.25f, x, y);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += y[i];
    printf("sum=%.6f\n", sum);
    for (int i = 0; i < N; i += 1999)
        printf("y[%d]=%.6f\n", i, y[i]);
    free(x);
    free(y);
    return 0;
}
