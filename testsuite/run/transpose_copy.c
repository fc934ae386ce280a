/* Matrix transpose and copies: naive transpose with collapse(2), a tiled transpose with the tile
 * loops distributed and the element loops in a nested parallel for, and an in-place swap of the
 * upper and lower triangles. */
#include <stdio.h>

#define N 96
#define T 16

static float A[N][N], B[N][N], C[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (float)(i * N + j);
#pragma omp target teams distribute parallel for collapse(2) map(to : A) map(from : B)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            B[j][i] = A[i][j];
#pragma omp target teams distribute collapse(2) map(to : A) map(from : C)
    for (int ti = 0; ti < N; ti += T)
        for (int tj = 0; tj < N; tj += T) {
#pragma omp parallel for collapse(2)
            for (int i = ti; i < ti + T; i++)
                for (int j = tj; j < tj + T; j++)
                    C[j][i] = A[i][j];
        }
    int same = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            same &= B[i][j] == C[i][j] && B[i][j] == A[j][i];
#pragma omp target teams distribute parallel for map(tofrom : A)
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            float t = A[i][j];
            A[i][j] = A[j][i];
            A[j][i] = t;
        }
    int inplace = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            inplace &= A[i][j] == B[i][j];
    printf("same=%d inplace=%d B[3][90]=%.1f C[95][0]=%.1f\n", same, inplace, B[3][90], C[95][0]);
    return 0;
}
