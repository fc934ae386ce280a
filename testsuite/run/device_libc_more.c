/* More of the C library in target regions: a kernel parsing numbers with strtod/strtof (end
 * offsets too), errno after overflow in a serial region (strtod, strtol, wcstol), strdup,
 * strerror, puts/putchar, wide strings (wcstok, wcstod, towupper, wcstombs, ...), and a
 * declare-target table of math function pointers next to a local `sqrt` pointer. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#define N 12
#define W 24

#pragma omp declare target
static double (*const fns[4])(double) = {sqrt, fabs, exp, floor};
#pragma omp end declare target

int main(void)
{
    static const char *inputs[N] = {"3.25",          "  -0.1e-2x",     "1e23",
                                    "0x1.8p4",        "inf",            "2.4703282292062328e-324",
                                    "123456789.987654321", "1e-400",  "9007199254740993",
                                    ".5e+1",          "nan",            "-7"};
    char text[N][W];
    for (int i = 0; i < N; i++)
        strcpy(text[i], inputs[i]);
    double val[N];
    float valf[N];
    int end[N];
#pragma omp target teams distribute parallel for map(to : text) map(from : val, valf, end)
    for (int i = 0; i < N; i++) {
        char *e;
        val[i] = strtod(text[i], &e);
        end[i] = (int)(e - text[i]);
        valf[i] = strtof(text[i], 0);
    }
    for (int i = 0; i < N; i++)
        printf("%-24s %.17g %.9g end=%d\n", inputs[i], val[i], (double)valf[i], end[i]);

    int errs[5];
    long big = 0;
    char dup[W], msg[2][40];
#pragma omp target map(from : errs, big, dup, msg)
    {
        errno = 0;
        double x = strtod("1e999", 0);
        errs[0] = errno == ERANGE && x == HUGE_VAL;
        errno = 0;
        big = strtol("99999999999999999999", 0, 10);
        errs[1] = errno;
        errno = 0;
        (void)atof("2.5");
        errs[2] = errno;
        errno = 0;
        (void)wcstol(L"-99999999999999999999", 0, 10);
        errs[3] = errno;
        errno = 0;
        errs[4] = (int)strtoul("-1", 0, 10) + (errno != 0);
        char *p = strdup("copied on the device");
        strncpy(dup, p ? p : "", W - 1);
        dup[W - 1] = 0;
        free(p);
        strcpy(msg[0], strerror(ERANGE));
        strcpy(msg[1], strerror(9999));
        puts("puts from a target region");
        putchar('!');
        putchar('\n');
    }
    printf("errno: %d %d %d %d %d big=%ld\n", errs[0], errs[1], errs[2], errs[3], errs[4], big);
    printf("%s | %s | %s\n", dup, msg[0], msg[1]);

    int wl[4], wcmp = 0, ntok = 0, nalpha = 0;
    long wv = 0;
    double wd = 0;
    char narrow[W];
#pragma omp target map(from : wl, wcmp, ntok, nalpha, wv, wd, narrow)
    {
        wchar_t buf[W], up[W];
        wcscpy(buf, L"alpha, beta,,gamma");
        wl[0] = (int)wcslen(buf);
        for (int k = 0; k <= wl[0]; k++)
            up[k] = (wchar_t)towupper((wint_t)buf[k]);
        wcmp = wcscmp(buf, up) > 0;
        wl[1] = (int)(wcschr(buf, L'b') - buf);
        wl[2] = (int)(wcsstr(buf, L"gam") - buf);
        wl[3] = (int)wcsspn(buf, L"ahlp");
        for (int k = 0; buf[k]; k++)
            nalpha += iswalpha((wint_t)buf[k]) != 0;
        wchar_t *save, *t = wcstok(up, L", ", &save);
        while (t) {
            ntok++;
            t = wcstok(0, L", ", &save);
        }
        wchar_t *e;
        wv = wcstol(L"  0x7fz", &e, 16) * 100 + (long)(e - L"  0x7fz");
        wd = wcstod(L"6.02e23", 0);
        wcstombs(narrow, L"wide->narrow", W);
    }
    printf("wide: %d %d %d %d cmp=%d tokens=%d alpha=%d %ld %.17g %s\n", wl[0], wl[1], wl[2],
           wl[3], wcmp, ntok, nalpha, wv, wd, narrow);

    double out[N];
#pragma omp target teams distribute parallel for map(from : out)
    for (int i = 0; i < N; i++) {
        double (*f)(double) = sqrt;
        double x = 0.25 * (i - 4);
        out[i] = fns[i % 4](x) + (i % 3 == 0 ? f(fabs(x)) : 0.0);
    }
    for (int i = 0; i < N; i++)
        printf("fn[%d] %.15g\n", i, out[i]);
    return 0;
}
