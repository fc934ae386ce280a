/* OpenMP constructs inside declare-target functions: the function's own `parallel for` (with
 * a reduction and `ordered`), `parallel sections`, `single copyprivate`, recursive tasks with
 * `taskwait`, and the data-sharing of tasks (firstprivate copies vs shared variables). */
#include <stdio.h>

#pragma omp declare target
static long fib(int n)
{
    if (n < 12) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }
    long x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

/* A function with its own parallel loop: a reduction and an ordered trace. */
static long weighted_sum(const int *v, int n, char *trace)
{
    long s = 0;
    int pos = 0;
#pragma omp parallel for reduction(+ : s) ordered
    for (int i = 0; i < n; i++) {
        s += (long)v[i] * (i + 1);
#pragma omp ordered
        trace[pos++] = (char)('a' + v[i] % 26);
    }
    trace[pos] = '\0';
    return s;
}

static void sections_and_single(int *out)
{
    int lo = 0, hi = 0;
#pragma omp parallel sections
    {
#pragma omp section
        lo = 11;
#pragma omp section
        hi = 22;
    }
#pragma omp parallel
    {
        int seed;
#pragma omp single copyprivate(seed)
        seed = lo + hi;
#pragma omp critical
        out[0] = seed * 3; /* every thread got the single's value */
    }
    out[1] = lo * 100 + hi;
}

/* Task data-sharing: `k` is firstprivate in the task (the write stays inside), `total` is
 * shared by the parallel region, so the task's update is seen after it. */
static int task_sharing(int k)
{
    int total = 0, seen = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task
        {
            k += 1000;
            total += k;
        }
#pragma omp taskwait
        seen = k;
    }
    return total * 10 + (seen == k);
}
#pragma omp end declare target

int main(void)
{
    int v[40];
    for (int i = 0; i < 40; i++)
        v[i] = (i * 37 + 5) % 101;
    long fibs[4], sums[2];
    char trace[2][48];
    int sec[2] = {0, 0}, sharing[3];
#pragma omp target map(to : v) map(from : fibs, sums, trace, sharing) map(tofrom : sec)
    {
        for (int i = 0; i < 4; i++)
            fibs[i] = fib(14 + 3 * i);
        sums[0] = weighted_sum(v, 40, trace[0]);
        sums[1] = weighted_sum(v + 7, 20, trace[1]);
        sections_and_single(sec);
        for (int i = 0; i < 3; i++)
            sharing[i] = task_sharing(i * 5);
    }
    for (int i = 0; i < 4; i++)
        printf("fib(%d) = %ld\n", 14 + 3 * i, fibs[i]);
    printf("weighted sums: %ld %ld\n", sums[0], sums[1]);
    printf("ordered traces: %s %s\n", trace[0], trace[1]);
    printf("sections/single: %d %d\n", sec[0], sec[1]);
    printf("task sharing: %d %d %d\n", sharing[0], sharing[1], sharing[2]);
    return 0;
}
