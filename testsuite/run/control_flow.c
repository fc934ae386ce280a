/* Control flow in kernels: switch with fallthrough and default, goto out of nested loops,
 * short-circuit && and || with side effects on the right, ternaries, break and continue,
 * do-while. */
#include <stdio.h>

#define N 2000

#pragma omp declare target
static int classify(int v)
{
    int r = 0;
    switch (v % 8) {
    case 0:
        r += 100;
        /* fallthrough */
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r = -v;
        break;
    case 7:
        return 7;
    default:
        r = v / 2;
    }
    return r;
}

static int find_pair(int i)
{
    int found = -1;
    for (int a = 1; a < 40; a++)
        for (int b = a; b < 40; b++)
            if (a * b == i % 997 + 1) {
                found = a * 100 + b;
                goto done;
            }
done:
    return found;
}
#pragma omp end declare target

int main(void)
{
    static int c[N], p[N], s[N], d[N];
#pragma omp target teams distribute parallel for map(from : c, p, s, d)
    for (int i = 0; i < N; i++) {
        c[i] = classify(i);
        p[i] = find_pair(i);
        int calls = 0;
        int t = (i % 3 == 0 && ++calls > 0) || (i % 5 == 0 && ++calls > 0) || ++calls > 5;
        s[i] = t * 10 + calls;
        int k = i, steps = 0;
        do {
            if (k % 3 == 0) {
                k /= 3;
                continue;
            }
            if (k > 1000)
                break;
            k = k * 2 + 1;
        } while (++steps < 20 && k > 1);
        d[i] = k + steps * 1000;
    }
    long sc = 0, sp = 0, ss = 0, sd = 0;
    for (int i = 0; i < N; i++) {
        sc += c[i];
        sp += p[i];
        ss += s[i];
        sd += d[i];
    }
    printf("classify=%ld pairs=%ld shortcircuit=%ld dowhile=%ld\n", sc, sp, ss, sd);
    printf("c[8]=%d c[3]=%d p[11]=%d p[996]=%d s[15]=%d s[7]=%d d[7]=%d\n", c[8], c[3], p[11],
           p[996], s[15], s[7], d[7]);
    return 0;
}
