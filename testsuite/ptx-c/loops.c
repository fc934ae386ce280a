/* Every loop form and goto: while, do-while, for with break/continue, a backward goto. */
// run: -fopenmp --device-only --emit=ptx -O2
int loops(int n) {
    int s = 0, i = 0;
    while (i < n) s += i++;
    do { s ^= i; i--; } while (i > 0);
    for (int j = 0; j < n; j++) {
        if (j == 3) continue;
        if (s > 1000) break;
        s += j;
    }
again:
    if (s % 2) { s = s / 2; goto again; }
    return s;
}
// check: loops(
// check: setp.lt.s32 $(=%p\d+), $(=%r\d+), $(=%r\d+);
// check: xor.b32 $(=%r\d+), $(=%r\d+), $(=%r\d+);
// check: setp.gt.s32 $(=%p\d+), $(=%r\d+), $(=%r\d+);
// check: setp.eq.b32 $(=%p\d+), $(=%r\d+), $(=%r\d+);
// `s % 2` reuses the quotient of `s / 2`, computed once before the test (pass divrem).
// check: div.s32 $(q=%r\d+), $(s=%r\d+), $(two=%r\d+);
// nextln: mul.lo.s32 $(m=%r\d+), $q, $two;
// nextln: sub.s32 $(=%r\d+), $s, $m;
