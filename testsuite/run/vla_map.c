/* Variable-length arrays: a 1-D VLA and a 2-D VLA with sizes known only at run time, mapped by
 * name (the whole VLA) and by section, and a VLA parameter in a function with a target region. */
#include <stdio.h>

static double frob(int rows, int cols, double m[rows][cols])
{
    double total = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+ : total) \
    map(tofrom : m[0:rows][0:cols])
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            m[i][j] = m[i][j] * 0.5 + i - j;
            total += m[i][j];
        }
    return total;
}

int main(void)
{
    int n = 777, rows = 33, cols = 45;
    double v[n];
    for (int i = 0; i < n; i++)
        v[i] = i * 0.125;
#pragma omp target teams distribute parallel for map(tofrom : v)
    for (int i = 0; i < n; i++)
        v[i] = v[i] * v[i];
    double m[rows][cols];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            m[i][j] = v[(i * cols + j) % n];
    double t = frob(rows, cols, m);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    printf("s=%.6f t=%.6f m[32][44]=%.6f v[776]=%.6f\n", s, t, m[rows - 1][cols - 1], v[n - 1]);
    return 0;
}
