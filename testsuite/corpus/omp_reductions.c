/* Host OpenMP reductions over every operator (+ * - & | ^ && || min max), on scalars and on
 * an array section, with integer results (exact for any thread count) and float sums checked
 * against a tolerance. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#define N 100000

int main(void)
{
    long sum = 0, sub = 0;
    unsigned long long prod = 1;
    unsigned and_bits = ~0u, or_bits = 0, xor_bits = 0;
    int all_positive = 1, any_big = 0;
    int mn = 1 << 30, mx = -(1 << 30);
    double fsum = 0.0;
#pragma omp parallel for reduction(+ : sum, fsum) reduction(- : sub) reduction(* : prod) \
    reduction(& : and_bits) reduction(| : or_bits) reduction(^ : xor_bits)                \
    reduction(&& : all_positive) reduction(|| : any_big) reduction(min : mn) reduction(max : mx)
    for (int i = 1; i <= N; i++) {
        int v = (int)((i * 37L) % 1009) - 300;
        sum += v;
        sub -= i % 7;
        if (i % 5000 == 0)
            prod *= 3;
        and_bits &= (unsigned)i | 0xFF000000u;
        or_bits |= 1u << (i % 20);
        xor_bits ^= (unsigned)i * 2654435761u;
        all_positive = all_positive && i > 0;
        any_big = any_big || v > 700;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
        fsum += 1.0 / i;
    }
    printf("sum=%ld sub=%ld prod=%llu\n", sum, sub, prod);
    printf("and=%#x or=%#x xor=%#x\n", and_bits, or_bits, xor_bits);
    printf("all_positive=%d any_big=%d min=%d max=%d\n", all_positive, any_big, mn, mx);
    double harmonic = 0.0;
    for (int i = N; i >= 1; i--)
        harmonic += 1.0 / i;
    printf("harmonic=%.6g matches serial: %s\n", fsum, fabs(fsum - harmonic) < 1e-9 ? "yes" : "no");

    int hist[8] = {0};
#pragma omp parallel for reduction(+ : hist[:8])
    for (int i = 0; i < N; i++)
        hist[(int)(((long)i * i) % 8)]++;
    printf("histogram of i*i mod 8:");
    for (int k = 0; k < 8; k++)
        printf(" %d", hist[k]);
    printf("\n");

    double dot = 0.0;
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; i++) {
        a[i] = (i % 100) * 0.5;
        b[i] = (i % 3) - 1.0;
    }
#pragma omp parallel
    {
#pragma omp for reduction(+ : dot) schedule(static)
        for (int i = 0; i < N; i++)
            dot += a[i] * b[i];
    }
    printf("dot=%.6g\n", dot);
    long count = 0;
#pragma omp parallel for collapse(2) reduction(+ : count)
    for (int i = 0; i < 300; i++)
        for (int j = 0; j < 300; j++)
            if ((i ^ j) % 3 == 0)
                count++;
    printf("collapse(2) count=%ld\n", count);
    free(a);
    free(b);
    return 0;
}
