/* Integer matrix power modulo a prime: repeated squaring with 32x32 int64 matrix products on the
 * device (collapse(2), % in the inner loop), checked with a trace and a row hash. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define N 32
#define P 1000003LL

static int64_t A[N][N], R[N][N], T[N][N];

static void mulmod(int64_t (*x)[N], int64_t (*y)[N], int64_t (*out)[N])
{
#pragma omp target teams distribute parallel for collapse(2) map(to : x[0:N], y[0:N]) \
    map(from : out[0:N])
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int64_t s = 0;
            for (int k = 0; k < N; k++)
                s = (s + x[i][k] * y[k][j]) % P;
            out[i][j] = s;
        }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * 31 + j * 17 + 5) % 97;
            R[i][j] = i == j;
        }
    int e = 45; /* R = A^45 */
    while (e > 0) {
        if (e & 1) {
            mulmod(R, A, T);
            memcpy(R, T, sizeof R);
        }
        mulmod(A, A, T);
        memcpy(A, T, sizeof A);
        e >>= 1;
    }
    int64_t tr = 0, h = 0;
    for (int i = 0; i < N; i++) {
        tr = (tr + R[i][i]) % P;
        h = (h * 131 + R[7][i]) % P;
    }
    printf("trace=%lld hash=%lld R[0][31]=%lld\n", (long long)tr, (long long)h, (long long)R[0][N - 1]);
    return 0;
}
