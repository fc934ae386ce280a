/* `default(private)` and `default(firstprivate)` on `parallel` inside a target region, on the
 * combined `target parallel` and `target teams distribute parallel for`, on `teams`, and on a
 * `parallel` in a declare-target function: writes to the copies never reach the originals,
 * firstprivate copies start with the original's value, `shared(...)` items stay shared. */
#include <stdio.h>

#define N 64

#pragma omp declare target
static int in_function(int v)
{
    int out = 0;
#pragma omp parallel default(firstprivate) shared(out) num_threads(1)
    {
        out = v * 3;
        v = -1;
    }
#pragma omp parallel default(private) num_threads(1)
    {
        out = 99;
    }
    return out + v;
}
#pragma omp end declare target

int main(void)
{
    int x = 1, y = 2, z = 0, w = 0;
#pragma omp target map(tofrom : x, y, z)
    {
#pragma omp parallel default(private) num_threads(1)
        {
            x = 7;
            y = 8;
        }
#pragma omp parallel default(firstprivate) shared(z) num_threads(1)
        {
            z = x + 10;
            x = 5;
        }
    }
    printf("nested: x=%d y=%d z=%d\n", x, y, z);

#pragma omp target parallel default(private) map(tofrom : x) num_threads(4)
    {
        x = 7;
    }
    printf("target parallel private: x=%d\n", x);

    int k = 40;
#pragma omp target parallel default(firstprivate) shared(w) map(tofrom : w) num_threads(4)
    {
        k = k + 2;
        if (k == 42) {
#pragma omp atomic
            w += 1;
        }
    }
    printf("target parallel firstprivate: k=%d all_saw_42=%d\n", k, w > 0);

    int a[N], scale = 3, twice = -1;
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma omp target teams distribute parallel for default(firstprivate) shared(a) map(tofrom : a)
    for (int i = 0; i < N; i++) {
        twice = scale * 2;
        a[i] = a[i] * twice;
    }
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += a[i];
    printf("combined loop: sum=%ld twice=%d\n", sum, twice);

    int t = 5, seen = 0;
#pragma omp target teams num_teams(2) default(firstprivate) shared(seen) map(tofrom : seen, t)
    {
        t = t + 1;
#pragma omp parallel num_threads(1) shared(t, seen)
        if (t == 6) {
#pragma omp atomic
            seen += 1;
        }
    }
    printf("teams firstprivate: t=%d ok=%d\n", t, seen > 0);

    int r = 0;
#pragma omp target map(from : r)
    r = in_function(4);
    printf("function: r=%d\n", r);
    return 0;
}
