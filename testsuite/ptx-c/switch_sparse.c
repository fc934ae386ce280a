/* A sparse switch with fallthrough: compares. */
// run: -fopenmp --device-only --emit=ptx -O2
int sparse(long key) {
    int r = 0;
    switch (key) {
    case -100000: r += 1;
    case 7: r += 2; break;
    case 1000: r = 9; break;
    case 123456789012: r = 11; break;
    }
    return r;
}
// check: sparse(
// check: mov.u64 %rd2, 18446744073709451616;
// nextln: setp.eq.b64 %p1, %rd1, %rd2;
// check: setp.eq.b64 %p2, %rd1, %rd3;
// check: mov.u64 %rd5, 123456789012;
// check: mov.u32 %r5, 2;
// nextln: add.s32 %r6, %r2, %r5;
