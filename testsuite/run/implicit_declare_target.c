/* Functions called from target regions without any `declare target`: OpenMP 5.x makes functions
 * defined in the same translation unit and referenced in a region implicitly declare target,
 * transitively (a helper calling a helper), including a static function returning a struct. */
#include <stdio.h>

#define N 3000

struct stats {
    long sum;
    int max;
};

static int digit_sum(int v)
{
    int s = 0;
    while (v > 0) {
        s += v % 10;
        v /= 10;
    }
    return s;
}

static int weight(int v)
{
    return digit_sum(v) * digit_sum(v * 7) + (v & 3);
}

static struct stats summarize(const int *w, int lo, int hi)
{
    struct stats st = {0, 0};
    for (int i = lo; i < hi; i++) {
        st.sum += w[i];
        if (w[i] > st.max)
            st.max = w[i];
    }
    return st;
}

int main(void)
{
    static int w[N];
    static long sums[30];
    static int maxes[30];
#pragma omp target teams distribute parallel for map(from : w)
    for (int i = 0; i < N; i++)
        w[i] = weight(i);
#pragma omp target teams distribute parallel for map(to : w) map(from : sums, maxes)
    for (int b = 0; b < 30; b++) {
        struct stats st = summarize(w, b * 100, b * 100 + 100);
        sums[b] = st.sum;
        maxes[b] = st.max;
    }
    long total = 0, mx = 0;
    for (int b = 0; b < 30; b++) {
        total += sums[b];
        mx += maxes[b];
    }
    printf("total=%ld maxes=%ld w[1234]=%d sums[7]=%ld\n", total, mx, w[1234], sums[7]);
    return 0;
}
