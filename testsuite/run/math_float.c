/* <math.h> float functions (sqrtf, expf, sinf, powf, ...) in a kernel; floats are printed with
 * 6 significant digits and summed in double on the host. */
#include <stdio.h>
#include <math.h>

#define N 2000
#define F 12

static float r[F][N];

int main(void)
{
#pragma omp target teams distribute parallel for map(from : r)
    for (int i = 0; i < N; i++) {
        float x = (float)(i + 1) / 256.0f; /* exact inputs */
        float s = x - 3.875f;
        r[0][i] = sqrtf(x);
        r[1][i] = expf(s);
        r[2][i] = logf(x);
        r[3][i] = sinf(s) + 2.0f;
        r[4][i] = cosf(s) + 2.0f;
        r[5][i] = powf(x, 0.75f);
        r[6][i] = fabsf(s) + floorf(s) + ceilf(x);
        r[7][i] = fminf(s, 1.0f) + fmaxf(x, 2.0f);
        r[8][i] = atanf(s) + tanhf(s) + 4.0f;
        r[9][i] = exp2f(s) + log2f(x) + 20.0f;
        r[10][i] = fmodf(x * 3.0f, 0.7f) + truncf(s) + roundf(s * 2.0f);
        r[11][i] = hypotf(x, s) + cbrtf(s);
    }
    const char *names[F] = {"sqrtf", "expf",  "logf",  "sinf",  "cosf",  "powf",
                            "fabsf", "fminf", "atanf", "exp2f", "fmodf", "hypotf"};
    for (int f = 0; f < F; f++) {
        double s = 0.0;
        for (int i = 0; i < N; i++)
            s += fabs((double)r[f][i]);
        printf("%-6s sum|.|=%.6e r[17]=%.6e r[1234]=%.6e\n", names[f], s, r[f][17], r[f][1234]);
    }
    return 0;
}
