/* Neighbouring elements of a signed int index (`a[k - 1]`, `a[k]`, `a[k + 1]` with
 * k = i * n + j) share one 64-bit address: the index is widened operand by operand (signed
 * overflow is undefined), so the constant parts become [reg+imm] offsets. An unsigned index
 * wraps, so it is widened as a whole. */
// run: -fopenmp --device-only --emit=ptx -O2
float neighbours(const float *a, int i, int j, int n) {
    int k = i * n + j;
    return a[k - 1] + a[k] + a[k + 1];
}
float wraps(const float *a, unsigned k) { return a[k - 1] + a[k + 1]; }
// check: neighbours(
// check: ld.f32 $(=%f\d+), [$(p=%rd\d+)+-4];
// nextln: ld.f32 $(=%f\d+), [$p];
// check: ld.f32 $(=%f\d+), [$p+4];
// check: wraps(
// check: sub.s32 $(=%r\d+), $(=%r\d+), $(=%r\d+);
// nextln: mul.wide.u32
// not: +4]
// check: ret;
