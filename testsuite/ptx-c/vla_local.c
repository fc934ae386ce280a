/* Local variable length arrays: stack_alloc (PTX alloca) sized at run time, freed with
   stackrestore when the block ends and on break/continue out of it. */
// run: -fopenmp --device-only --emit=ptx -O2
// local-memory: yes
double smooth(int n, const double *in, double *out) {
    double total = 0.0;
    for (int r = 0; r < 4; r++) {
        double tmp[n];
        for (int i = 0; i < n; i++)
            tmp[i] = in[i] * (r + 1);
        if (n > 100)
            continue;
        for (int i = 0; i < n; i++)
            total += tmp[i];
    }
    out[0] = total;
    return total;
}
// check: .version 7.3
// check: smooth(
// check: mul.wide.s32 $(=%rd\d+), $(=%r\d+), 8;
// check: stacksave.u64 $(=%rd\d+);
// nextln: alloca.u64 $(=%rd\d+), $(=%rd\d+), 16;
// check: st.local.f64 [$(=%rd\d+)], $(=%fd\d+);
// check: $$L__BB9:
// nextln: stackrestore.u64 $(=%rd\d+);
// check: ld.local.f64 $(=%fd\d+), [$(=%rd\d+)];
// check: $$L__BB15:
// nextln: stackrestore.u64 $(=%rd\d+);
