/* Host OpenMP loop schedules (static, static chunked, dynamic, guided, auto, runtime) on an
 * imbalanced loop: each schedule must produce the same per-iteration results and the same
 * checksums; the scheduling itself (which thread ran what) is never printed. */
#include <stdio.h>
#include <omp.h>

#define N 2000

static double work(int i)
{
    double s = 0;
    for (int k = 0; k < i % 97; k++) /* uneven cost per iteration */
        s += (double)((i * k) % 11) * 0.5;
    return s;
}

static unsigned checksum(const double *v)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < N; i++) {
        h ^= (unsigned)(v[i] * 2.0);
        h *= 16777619u;
    }
    return h;
}

int main(void)
{
    static double out[7][N];
    int covered[7] = {0};
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) out[0][i] = work(i);
#pragma omp parallel for schedule(static, 7)
    for (int i = 0; i < N; i++) out[1][i] = work(i);
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < N; i++) out[2][i] = work(i);
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < N; i++) out[3][i] = work(i);
#pragma omp parallel for schedule(guided, 4)
    for (int i = 0; i < N; i++) out[4][i] = work(i);
#pragma omp parallel for schedule(auto)
    for (int i = 0; i < N; i++) out[5][i] = work(i);
    omp_set_schedule(omp_sched_dynamic, 3);
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < N; i++) out[6][i] = work(i);

    static const char *names[] = {"static", "static,7", "dynamic", "dynamic,16", "guided,4", "auto", "runtime"};
    for (int s = 0; s < 7; s++) {
        double total = 0;
        for (int i = 0; i < N; i++) {
            total += out[s][i];
            covered[s] += out[s][i] == out[0][i];
        }
        printf("%-10s total=%.6g checksum=%08x agree=%d\n", names[s], total, checksum(out[s]), covered[s]);
    }
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    printf("runtime schedule is dynamic: %d, chunk=%d\n", kind == omp_sched_dynamic, chunk);

    /* iterations of a nonrectangular (triangular) loop nest, counted by reduction */
    long pairs = 0;
#pragma omp parallel for schedule(dynamic, 8) reduction(+ : pairs)
    for (int i = 0; i < 500; i++)
        for (int j = i + 1; j < 500; j++)
            pairs += (i + j) % 2;
    printf("odd-sum pairs=%ld\n", pairs);

    int nested_ok = 1;
#pragma omp parallel for schedule(static) reduction(&& : nested_ok)
    for (int i = 0; i < 64; i++)
        nested_ok = nested_ok && omp_in_parallel() == (omp_get_num_threads() > 1);
    printf("omp_in_parallel consistent: %d\n", nested_ok);
    return 0;
}
