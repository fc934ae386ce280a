/* Sorting algorithms on the same pseudo-random data: insertion, shell, merge, heap, quick and
 * counting sort; each result is checked against the others and summarized. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#define N 2000

static void insertion_sort(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void shell_sort(int *a, int n)
{
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            int v = a[i], j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap)
                a[j] = a[j - gap];
            a[j] = v;
        }
}

static void merge_sort(int *a, int *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    merge_sort(a, tmp, h);
    merge_sort(a + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, (size_t)n * sizeof *a);
}

static void sift_down(int *a, int root, int n)
{
    for (;;) {
        int c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && a[c + 1] > a[c])
            c++;
        if (a[root] >= a[c])
            return;
        int t = a[root]; a[root] = a[c]; a[c] = t;
        root = c;
    }
}

static void heap_sort(int *a, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--)
        sift_down(a, i, n);
    for (int end = n - 1; end > 0; end--) {
        int t = a[0]; a[0] = a[end]; a[end] = t;
        sift_down(a, 0, end);
    }
}

static void quick_sort(int *a, int lo, int hi)
{
    while (lo < hi) {
        int p = a[lo + (hi - lo) / 2], i = lo, j = hi;
        while (i <= j) {
            while (a[i] < p) i++;
            while (a[j] > p) j--;
            if (i <= j) {
                int t = a[i]; a[i] = a[j]; a[j] = t;
                i++;
                j--;
            }
        }
        if (j - lo < hi - i) { quick_sort(a, lo, j); lo = i; }
        else { quick_sort(a, i, hi); hi = j; }
    }
}

static void counting_sort(int *a, int n, int maxv)
{
    int *count = calloc((size_t)maxv + 1, sizeof *count);
    for (int i = 0; i < n; i++)
        count[a[i]]++;
    int k = 0;
    for (int v = 0; v <= maxv; v++)
        while (count[v]--)
            a[k++] = v;
    free(count);
}

static bool sorted(const int *a, int n)
{
    for (int i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return false;
    return true;
}

int main(void)
{
    static int base[N], work[6][N], tmp[N];
    unsigned s = 2463534242u;
    for (int i = 0; i < N; i++) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        base[i] = (int)(s % 5000);
    }
    for (int k = 0; k < 6; k++)
        memcpy(work[k], base, sizeof base);
    insertion_sort(work[0], N);
    shell_sort(work[1], N);
    merge_sort(work[2], tmp, N);
    heap_sort(work[3], N);
    quick_sort(work[4], 0, N - 1);
    counting_sort(work[5], N, 4999);
    const char *names[] = {"insertion", "shell", "merge", "heap", "quick", "counting"};
    for (int k = 0; k < 6; k++)
        printf("%-9s sorted=%d same=%d\n", names[k], sorted(work[k], N),
               memcmp(work[k], work[0], sizeof base) == 0);
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += (long)work[0][i] * (i % 7);
    printf("min=%d median=%d max=%d weighted=%ld\n", work[0][0], work[0][N / 2], work[0][N - 1], sum);
    return 0;
}
