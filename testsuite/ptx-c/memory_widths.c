/* Loads and stores through generic pointers at every width (8 to 64 bits, ints and floats). */
// run: -fopenmp --device-only --emit=ptx -O2
void copy_widths(char *c, short *s, int *i, long *l, float *f, double *d) {
    c[1] = c[0];
    s[1] = s[0];
    i[1] = i[0];
    l[1] = l[0];
    f[1] = f[0];
    d[1] = d[0];
}
// check: copy_widths(
// check: ld.u8 %rs1, [%rd1];
// check: st.u8 [%rd1+1], %rs1;
// check: ld.u16 %rs2, [%rd2];
// check: st.u16 [%rd2+2], %rs2;
// check: ld.u32 %r1, [%rd3];
// check: st.u32 [%rd3+4], %r1;
// check: ld.u64 %rd14, [%rd4];
// check: st.u64 [%rd4+8], %rd14;
// check: ld.f32 %f1, [%rd5];
// check: st.f32 [%rd5+4], %f1;
// check: ld.f64 %fd1, [%rd6];
// check: st.f64 [%rd6+8], %fd1;
