/* Combined and composite target constructs: target parallel for, target teams loop,
 * target simd, teams distribute simd, dist_schedule and schedule clauses, private,
 * firstprivate and lastprivate on device loops, defaultmap, and nowait with taskwait. */
#include <stdio.h>
#include <omp.h>

#define N 3000

int main(void)
{
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i % 50);
        b[i] = (float)(i % 7) * 0.5f;
    }
#pragma omp target parallel for map(to : a, b) map(from : c) schedule(static, 4)
    for (int i = 0; i < N; i++)
        c[i] = a[i] + b[i];
    double s1 = 0;
    for (int i = 0; i < N; i++)
        s1 += c[i];
    printf("target parallel for: %.6g\n", s1);

#pragma omp target teams loop map(to : a) map(tofrom : c)
    for (int i = 0; i < N; i++)
        c[i] = c[i] * 2.0f - a[i];
    double s2 = 0;
    for (int i = 0; i < N; i++)
        s2 += c[i];
    printf("target teams loop: %.6g\n", s2);

    int ivals[N];
#pragma omp target simd map(from : ivals)
    for (int i = 0; i < N; i++)
        ivals[i] = i % 9;
#pragma omp target teams distribute simd map(tofrom : ivals) dist_schedule(static, 128)
    for (int i = 0; i < N; i++)
        ivals[i] += 1;
    long s3 = 0;
    for (int i = 0; i < N; i++)
        s3 += ivals[i];
    printf("simd forms: %ld\n", s3);

    int last = -1, tmp = 77, base = 5;
#pragma omp target teams distribute parallel for map(tofrom : last) lastprivate(last) private(tmp) \
    firstprivate(base) dist_schedule(static) schedule(static)
    for (int i = 0; i < N; i++) {
        tmp = base + i;
        last = tmp;
    }
    printf("lastprivate=%d, tmp unchanged=%d\n", last, tmp);

    double scale = 3.0;
    double out[16];
#pragma omp target teams distribute parallel for defaultmap(tofrom : scalar) map(from : out)
    for (int i = 0; i < 16; i++)
        out[i] = scale * i;
    printf("defaultmap: out[15]=%.6g scale=%.6g\n", out[15], scale);

    static int x[N], y[N];
#pragma omp target teams distribute parallel for map(from : x) nowait
    for (int i = 0; i < N; i++)
        x[i] = i;
#pragma omp target teams distribute parallel for map(from : y) nowait
    for (int i = 0; i < N; i++)
        y[i] = 2 * i;
#pragma omp taskwait
    long s4 = 0;
    for (int i = 0; i < N; i++)
        s4 += x[i] + y[i];
    printf("nowait + taskwait: %ld\n", s4);

    int dep = 0;
#pragma omp target map(tofrom : dep) depend(out : dep) nowait
    dep = 41;
#pragma omp target map(tofrom : dep) depend(in : dep) nowait
    dep += 1;
#pragma omp taskwait
    printf("depend chain: %d\n", dep);
    return 0;
}
