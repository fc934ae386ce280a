/* Monte Carlo estimates with a fixed 64-bit LCG: pi, the volume of the unit 4-ball, and a
 * 1-D random walk. Each OpenMP iteration block gets its own jump-ahead stream, so the result
 * does not depend on the number of threads. */
#include <stdio.h>
#include <stdint.h>
#include <omp.h>

#define LCG_A UINT64_C(6364136223846793005)
#define LCG_C UINT64_C(1442695040888963407)

static inline uint64_t lcg_next(uint64_t *s)
{
    *s = *s * LCG_A + LCG_C;
    return *s;
}

static inline double lcg_uniform(uint64_t *s)
{
    return (double)(lcg_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* state after `n` steps from `s`, by repeated squaring of the affine map */
static uint64_t lcg_skip(uint64_t s, uint64_t n)
{
    uint64_t a = LCG_A, c = LCG_C, acc_a = 1, acc_c = 0;
    while (n) {
        if (n & 1) {
            acc_a *= a;
            acc_c = acc_c * a + c;
        }
        c = (a + 1) * c;
        a *= a;
        n >>= 1;
    }
    return acc_a * s + acc_c;
}

#define BLOCKS 64
#define PER_BLOCK 4096

int main(void)
{
    const uint64_t seed = 12345;
    long in_circle = 0, in_ball = 0;
#pragma omp parallel for reduction(+ : in_circle, in_ball) schedule(static)
    for (int b = 0; b < BLOCKS; b++) {
        uint64_t s = lcg_skip(seed, (uint64_t)b * PER_BLOCK * 6);
        for (int i = 0; i < PER_BLOCK; i++) {
            double x = lcg_uniform(&s), y = lcg_uniform(&s);
            if (x * x + y * y <= 1.0)
                in_circle++;
            double u = lcg_uniform(&s), v = lcg_uniform(&s);
            double w = lcg_uniform(&s), z = lcg_uniform(&s);
            if (u * u + v * v + w * w + z * z <= 1.0)
                in_ball++;
        }
    }
    long total = (long)BLOCKS * PER_BLOCK;
    printf("samples: %ld\n", total);
    printf("inside circle: %ld, pi ~ %.6g\n", in_circle, 4.0 * in_circle / total);
    printf("inside 4-ball: %ld, volume ~ %.6g\n", in_ball, 16.0 * in_ball / total);

    /* check the jump-ahead against stepping one by one */
    uint64_t s1 = seed;
    for (int i = 0; i < 1000; i++)
        lcg_next(&s1);
    printf("skip matches stepping: %s\n", s1 == lcg_skip(seed, 1000) ? "yes" : "no");

    uint64_t s = 42;
    long pos = 0, max_pos = 0;
    for (int i = 0; i < 100000; i++) {
        pos += (lcg_next(&s) >> 63) ? 1 : -1;
        if (pos > max_pos)
            max_pos = pos;
    }
    printf("walk end: %ld, max: %ld\n", pos, max_pos);
    return 0;
}
