/* Every form of `atomic`: update (x++, ++x, x--, x op= e, x = x op e, x = e op x), read, write,
 * capture (v = x++, v = x op= e, the structured block forms), on int, long, float and double. */
#include <stdio.h>

#define N 4096

int main(void)
{
    int ic = 0, idec = 1000000, imul = 0;
    long lsum = 0, lxor = 0, land = -1, lor = 0;
    float fsum = 0.0f;
    double dsum = 0.0, dsub = 0.0;
    static int slot[N];
    int ticket = 0, maxseen = 0;
#pragma omp target teams distribute parallel for map(tofrom : ic, idec, imul, lsum, lxor, land, \
                                                             lor, fsum, dsum, dsub, slot, ticket)
    for (int i = 0; i < N; i++) {
#pragma omp atomic
        ic++;
#pragma omp atomic
        --idec;
#pragma omp atomic update
        imul = imul + 2;
#pragma omp atomic
        lsum += (long)i << 20;
#pragma omp atomic
        lxor ^= (long)i * 31;
#pragma omp atomic
        land &= ~((long)(i % 64 == 63) << (i % 40));
#pragma omp atomic
        lor |= 1L << (i % 50);
#pragma omp atomic
        fsum += 0.5f;
#pragma omp atomic
        dsum = (i % 8) * 0.25 + dsum;
#pragma omp atomic
        dsub -= 0.125;
        int mine;
#pragma omp atomic capture
        mine = ticket++;
        slot[mine] = 1; /* every ticket is taken exactly once */
    }
    long distinct = 0;
    for (int i = 0; i < N; i++)
        distinct += slot[i];
    printf("ic=%d idec=%d imul=%d lsum=%ld lxor=%ld\n", ic, idec, imul, lsum, lxor);
    printf("land=%ld lor=%ld fsum=%.6f dsum=%.6f dsub=%.6f\n", land, lor, fsum, dsum, dsub);
    printf("tickets=%d distinct=%ld\n", ticket, distinct);

    int x = 5, r1 = 0, r2 = 0, r3 = 0;
    double y = 1.5, ry = 0.0;
#pragma omp target map(tofrom : x, r1, r2, r3, y, ry, maxseen)
    {
#pragma omp atomic read
        r1 = x;
#pragma omp atomic write
        x = 40;
#pragma omp atomic capture
        {
            r2 = x;
            x += 2;
        }
#pragma omp atomic capture
        {
            x *= 3;
            r3 = x;
        }
#pragma omp atomic capture
        ry = y = y * 4.0;
#pragma omp atomic write
        maxseen = r1 + r2 + r3;
    }
    printf("r1=%d r2=%d r3=%d x=%d y=%.6f ry=%.6f maxseen=%d\n", r1, r2, r3, x, y, ry, maxseen);
    return 0;
}
