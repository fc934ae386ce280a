/* A dense switch: a br_table in the IR, an index range check and a compare chain or brx.idx
   in PTX. */
// run: -fopenmp --device-only --emit=ptx -O2
int dense(int op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a & b;
    case 4: return a | b;
    case 5: return a ^ b;
    case 6: return a << 1;
    case 7: return b << 1;
    default: return -1;
    }
}
// check: dense(
// check: setp.ge.u32 %p1, %r1, 8;
// nextln: @%p1 bra $$L__BB10;
// check: setp.eq.b32 %p8, %r1, 0;
// check: add.s32 %r4, %r2, %r3;
// check: xor.b32 %r9, %r2, %r3;
// check: mov.u32 %r14, 4294967295;
