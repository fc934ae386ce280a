/* Dot product: a `+` reduction on double across teams and threads, with arrays of known size
 * mapped implicitly (tofrom) and explicitly (to). */
#include <stdio.h>

#define N 10000

static double a[N], b[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = 1.0 / (1 + i % 13);
        b[i] = (double)(i % 9) - 4.0;
    }
    double dot = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : dot) map(to : a, b)
    for (int i = 0; i < N; i++)
        dot += a[i] * b[i];
    printf("dot=%.10g\n", dot);

    /* Implicit maps: a and b are arrays of known size, so map(tofrom) by default. */
    double norm2 = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : norm2)
    for (int i = 0; i < N; i++)
        norm2 += a[i] * a[i] + b[i] * b[i];
    printf("norm2=%.10g\n", norm2);

    /* An integer dot product must match exactly. */
    long idot = 0;
#pragma omp target teams distribute parallel for reduction(+ : idot) map(to : b)
    for (int i = 0; i < N; i++)
        idot += (long)i * (long)b[i];
    printf("idot=%ld\n", idot);
    return 0;
}
