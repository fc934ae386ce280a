/* -g: the file table and a .loc before the code of each statement and expression, with
   this file's line numbers. */
// run: -fopenmp --device-only --emit=ptx -O0 -g
int scale(int a, int b) {
    int s = a * b;
    if (s > 100)
        s = 100;
    return s;
}
// check: .file 1 "
// sameln: ptx-c/line_info.c"
// check: scale(
// check: .loc 1 4 5
// check: .loc 1 5 13
// nextln: ld.local.u32 %r3, [__stack_0];
// check: mul.lo.s32 %r5, %r3, %r4;
// nextln: .loc 1 5 9
// nextln: st.local.u32 [__stack_2], %r5;
// check: .loc 1 6 13
// nextln: mov.u32 %r7, 100;
// nextln: .loc 1 6 5
// nextln: setp.gt.s32 %p1, %r6, %r7;
// check: .loc 1 7 9
// check: st.local.u32 [__stack_2], %r8;
// check: .loc 1 8 5
// nextln: ld.local.u32 %r9, [__stack_2];
