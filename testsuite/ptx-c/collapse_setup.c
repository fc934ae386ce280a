/* Setup of a collapse(2) target loop over `int` bounds: the trip counts are the 32-bit
   smax(n - 1, 1) - 1 (narrow's form of the 64-bit smax(span, 0)), their product one
   mul.wide, the global thread number and the grid stride are 32-bit products (a league
   has at most 2^21 - 1 teams), and both are split into loop indices by 32-bit divisions and
   remainders: no 64-bit division, no run-time test for one. */
// run: -fopenmp --emit=ptx -O2
void sweep(int n, int m, float *a) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : a[0:n * m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            a[i * m + j] *= 2.0f;
}
int main(void) { return 0; }
// check: .visible .entry
// check: max.s32 $(m=%r\d+), $(=%r\d+), $(c=%r\d+);
// nextln: sub.s32 $(=%r\d+), $m, $c;
// check: mul.wide.s32
// check: mov.u32 $(b=%r\d+), %ctaid.x;
// nextln: mov.u32 $(t=%r\d+), %ntid.x;
// nextln: mov.u32 $(x=%r\d+), %tid.x;
// nextln: mov.u32 $(g=%r\d+), %nctaid.x;
// nextln: mul.lo.s32 $(bt=%r\d+), $b, $t;
// nextln: add.s32 $(k=%r\d+), $bt, $x;
// check: mul.lo.s32 $(s=%r\d+), $g, $t;
// The remainders (a - q * d) are 32-bit too (computed after the loop's guard: `rotate`).
// check: div.u32 $(q=%r\d+), $k, $(d=%r\d+);
// nextln: div.u32 $(q2=%r\d+), $s, $d;
// check: mul.lo.s32 $(p=%r\d+), $q, $d;
// nextln: sub.s32 $(=%r\d+), $k, $p;
// check: mul.lo.s32 $(p2=%r\d+), $q2, $d;
// nextln: sub.s32 $(=%r\d+), $s, $p2;
// not: div.u64
// not: div.s64
// not: shr.u64
// check: ret;
