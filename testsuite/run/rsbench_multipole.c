/* RSBench-style multipole cross sections: complex arithmetic with a small struct type,
 * poles and windows per nuclide, Faddeeva-like rational approximation, doubles only. */
#include <math.h>
#include <stdio.h>

#define NUC 6
#define POLES 24
#define WIN 4
#define LOOKUPS 800

typedef struct { double r, i; } cplx;
typedef struct { cplx MP_EA, MP_RT, MP_RA, MP_RF; short l_value; } pole_t;
typedef struct { double T, A, F; int start, end; } window_t;

#pragma omp declare target
static cplx cmul(cplx a, cplx b) { cplx c = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r}; return c; }
static cplx cdiv(cplx a, cplx b)
{
    double d = b.r * b.r + b.i * b.i;
    cplx c = {(a.r * b.r + a.i * b.i) / d, (a.i * b.r - a.r * b.i) / d};
    return c;
}
static cplx fast_w(cplx z)
{
    /* two-pole rational approximation of the Faddeeva function (upper half plane) */
    cplx i = {0, 1};
    cplx a = {0.5124242, 0}, b = {0.2752551, 0}, c = {0.05176536, 0}, d = {2.724745, 0};
    cplx z2 = cmul(z, z);
    cplx t1 = cdiv(a, (cplx){z2.r - b.r, z2.i});
    cplx t2 = cdiv(c, (cplx){z2.r - d.r, z2.i});
    cplx s = {t1.r + t2.r, t1.i + t2.i};
    return cmul(cmul(i, z), s);
}
#pragma omp end declare target

int main(void)
{
    static pole_t poles[NUC][POLES];
    static window_t windows[NUC][WIN];
    for (int n = 0; n < NUC; n++) {
        for (int p = 0; p < POLES; p++) {
            double t = (n * POLES + p) * 0.01;
            poles[n][p].MP_EA = (cplx){1.0 + t, 0.25 + 0.5 * t};
            poles[n][p].MP_RT = (cplx){0.5 * t, 0.125};
            poles[n][p].MP_RA = (cplx){0.25, 0.5 * t};
            poles[n][p].MP_RF = (cplx){0.125 * t, 0.0625};
            poles[n][p].l_value = (short)(p % 4);
        }
        for (int w = 0; w < WIN; w++)
            windows[n][w] = (window_t){0.1 * w, 0.01 * n, 0.001 * (n + w), w * POLES / WIN, (w + 1) * POLES / WIN};
    }
    double sums[4] = {0, 0, 0, 0};
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp target teams distribute parallel for map(to : poles, windows) reduction(+ : s0, s1, s2, s3)
    for (int k = 0; k < LOOKUPS; k++) {
        double E = 0.5 + (k % 200) / 200.0;
        int nuc = k % NUC;
        int w = (int)(E * WIN) % WIN;
        window_t win = windows[nuc][w];
        double sigT = E * win.T, sigA = E * win.A, sigF = E * win.F, sigE = 0;
        double sqrtE = sqrt(E);
        for (int p = win.start; p < win.end; p++) {
            pole_t pl = poles[nuc][p];
            cplx zz = {(sqrtE - pl.MP_EA.r) * 3.0, (0.0 - pl.MP_EA.i) * 3.0 + 1.0};
            cplx fw = fast_w(zz);
            cplx t = cmul(pl.MP_RT, fw);
            cplx a = cmul(pl.MP_RA, fw);
            cplx f = cmul(pl.MP_RF, fw);
            sigT += t.r * (1 + pl.l_value);
            sigA += a.r;
            sigF += f.r;
            sigE += t.r - a.r;
        }
        s0 += sigT; s1 += sigA; s2 += sigF; s3 += sigE;
    }
    sums[0] = s0; sums[1] = s1; sums[2] = s2; sums[3] = s3;
    printf("%.9e %.9e %.9e %.9e\n", sums[0], sums[1], sums[2], sums[3]);
    return 0;
}
