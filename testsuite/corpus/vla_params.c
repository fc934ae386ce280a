/* Variable-length arrays: VLA locals, sizeof on VLAs, VLA typedefs, pointer-to-VLA parameters
 * (double (*a)[n]), [static n] and [*] parameter forms, and 3-D VLA indexing. */
#include <stdio.h>
#include <stdlib.h>

void fill(int n, int m, double (*a)[m]);
double trace(int n, double a[n][n]);
void transpose(int n, int m, const double (*src)[m], double (*dst)[n]);
int sum_first(int v[static 3]);
void scale3(int n, int m, int k, double a[n][m][k], double f);

void fill(int n, int m, double (*a)[m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] = i * 10 + j;
}

double trace(int n, double a[n][n])
{
    double t = 0;
    for (int i = 0; i < n; i++)
        t += a[i][i];
    return t;
}

void transpose(int n, int m, const double (*src)[m], double (*dst)[n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            dst[j][i] = src[i][j];
}

int sum_first(int v[static 3]) { return v[0] + v[1] + v[2]; }

void scale3(int n, int m, int k, double a[n][m][k], double f)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            for (int l = 0; l < k; l++)
                a[i][j][l] *= f;
}

static size_t row_bytes(int m) { return sizeof(double[m]); }

int main(int argc, char **argv)
{
    (void)argv;
    int n = 3 + argc, m = 5; /* n is only known at run time */
    double a[n][m];
    printf("sizeof a=%zu, sizeof a[0]=%zu, rows=%zu\n", sizeof a, sizeof a[0], sizeof a / sizeof a[0]);
    fill(n, m, a);
    double t[m][n];
    transpose(n, m, (const double (*)[m])a, t);
    printf("a[%d][%d]=%.6g t[%d][%d]=%.6g\n", n - 1, m - 1, a[n - 1][m - 1], m - 1, n - 1, t[m - 1][n - 1]);

    typedef double row_t[m];
    row_t *heap = malloc((size_t)m * sizeof(row_t));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            heap[i][j] = (i == j) ? i + 0.5 : 1.0;
    printf("trace of %dx%d heap VLA=%.6g, row bytes=%zu\n", m, m, trace(m, heap), row_bytes(m));
    free(heap);

    int k = 2;
    double cube[2][3][k];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int l = 0; l < k; l++)
                cube[i][j][l] = i + j + l;
    scale3(2, 3, k, cube, 1.5);
    double s = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int l = 0; l < k; l++)
                s += cube[i][j][l];
    printf("cube sum=%.6g\n", s);

    int arr[4] = {4, 5, 6, 7};
    printf("sum_first=%d\n", sum_first(arr));

    int len = 1;
    for (int round = 0; round < 3; round++) {
        len *= 4; /* a new VLA each iteration, sized by the loop */
        char buf[len];
        for (int i = 0; i < len; i++)
            buf[i] = (char)('a' + i % 26);
        printf("round %d: len=%d last=%c sizeof=%zu\n", round, len, buf[len - 1], sizeof buf);
    }
    double (*p)[m] = a + 1; /* pointer arithmetic scales by the run-time row size */
    printf("p[1][2]=%.6g distance=%td\n", p[1][2], p - a);
    return 0;
}
