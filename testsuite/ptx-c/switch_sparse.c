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
// check: mov.u64 $(=%rd\d+), 18446744073709451616;
// nextln: setp.eq.b64 $(=%p\d+), $(=%rd\d+), $(=%rd\d+);
// check: setp.eq.b64 $(=%p\d+), $(=%rd\d+), $(=%rd\d+);
// check: mov.u64 $(=%rd\d+), 123456789012;
// check: mov.u32 $(=%r\d+), 2;
// nextln: add.s32 $(=%r\d+), $(=%r\d+), $(=%r\d+);
