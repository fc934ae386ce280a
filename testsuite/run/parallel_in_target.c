/* `parallel for` and `parallel` + `for` nested inside a plain `target` region, with sequential
 * code between the parallel loops that uses their results. */
#include <stdio.h>

#define N 4000

int main(void)
{
    static double a[N], b[N];
    double mean = 0.0, var = 0.0;
#pragma omp target map(from : a, b) map(tofrom : mean, var)
    {
        double scale = 0.001; /* sequential setup */
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            a[i] = (i % 100) * scale + (i % 3);
        double s = 0.0;
#pragma omp parallel for reduction(+ : s)
        for (int i = 0; i < N; i++)
            s += a[i];
        mean = s / N; /* sequential, uses the reduction */
        double v = 0.0;
#pragma omp parallel
        {
#pragma omp for reduction(+ : v)
            for (int i = 0; i < N; i++)
                v += (a[i] - mean) * (a[i] - mean);
#pragma omp for
            for (int i = 0; i < N; i++)
                b[i] = a[i] - mean;
        }
        var = v / N;
    }
    double sb = 0.0;
    for (int i = 0; i < N; i++)
        sb += b[i] * b[i];
    printf("mean=%.10g var=%.10g sb/N=%.10g b[7]=%.10g\n", mean, var, sb / N, b[7]);
    return 0;
}
