/* A local array indexed at run time stays in memory (a .local frame), sized and aligned. */
// run: -fopenmp --device-only --emit=ptx -O2
// local-memory: yes
int local_array(int k) {
    int buf[16];
    for (int i = 0; i < 16; i++)
        buf[i] = i * i;
    return buf[k & 15];
}
// check: local_array(
// check: .local .align 4 .b8 __stack_0[64];
// The fill loop is fully unrolled into stores at constant offsets; the load stays indexed.
// check: st.local.u32 [__stack_0], $(=%r\d+);
// check: st.local.u32 [__stack_0+60], $(=%r\d+);
// check: ld.local.u32 $(=%r\d+), [$(=%rd\d+)];
