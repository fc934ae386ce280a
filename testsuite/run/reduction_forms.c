/* Reduction forms that once failed with "local 'x' is not available here": '&&' and '||' on
 * doubles, the 'task' modifier on a parallel (and worksharing) reduction, and a reduction
 * item that is also mapped explicitly on the same combined construct. */
#include <stdio.h>

int main(void)
{
    double d = 1, e = 0, f = 1;
    int x = 0, y = 0, z = 0, w = 0;
#pragma omp target parallel for reduction(&& : d) reduction(|| : e)
    for (int i = 0; i < 10; i++) {
        d = d && (i + 1);
        e = e || (i == 3);
    }
#pragma omp target teams distribute parallel for reduction(&& : f)
    for (int i = 0; i < 10; i++)
        f = f && (i - 4);
#pragma omp target parallel reduction(task, + : x)
    {
        x += 1;
    }
#pragma omp target map(tofrom : y)
#pragma omp parallel for reduction(task, + : y)
    for (int i = 0; i < 10; i++)
        y += i;
#pragma omp target teams distribute map(tofrom : z) reduction(+ : z)
    for (int i = 0; i < 10; i++)
        z += i;
#pragma omp target teams distribute parallel for map(tofrom : w) reduction(+ : w)
    for (int i = 0; i < 10; i++)
        w += i;
    printf("%g %g %g %d %d %d %d\n", d, e, f, x > 0, y, z, w);
    return 0;
}
