/* A 3x3 window on a one-iteration 2-D grid (bench conv2d's shape): the column part
   `A + 4 * j` is computed once, each row adds its own `int` term with one `mul.wide.s32`
   (ptxas's IMAD.WIDE), and the columns are immediates -4, 0, +4 of the row's register: no
   64-bit index sums. The loop variables (`int`, from 1 by 1) are the grid's indices plus one
   in 32 bits. */
// run: -fopenmp --emit=ptx -O2
void blur(int n, const float *A, float *B) {
#pragma omp target teams distribute parallel for collapse(2) map(to : A[0:n * n]) map(tofrom : B[0:n * n])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            B[i * n + j] = A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +
                           A[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] +
                           A[(i + 1) * n + j - 1] + A[(i + 1) * n + j] + A[(i + 1) * n + j + 1];
}
int main(void) { return 0; }
// check: .visible .entry __omp_offload_blur_l8_one(
// check: trap;
// The column part: the thread's x index (`j - 1`) times 4, once.
// check: mul.wide.s32 $(cj=%rd\d+), $(k=%r\d+), 4;
// nextln: add.s64 $(col=%rd\d+), $(a=%rd\d+), $cj;
// nextln: mul.wide.s32 $(r0=%rd\d+), $(x0=%r\d+), 4;
// nextln: add.s64 $(row0=%rd\d+), $col, $r0;
// nextln: ld.global.f32 $(=%f\d+), [$row0];
// nextln: ld.global.f32 $(=%f\d+), [$row0+4];
// check: ld.global.f32 $(=%f\d+), [$row0+8];
// check: add.s64 $(row1=%rd\d+), $col, $(=%rd\d+);
// nextln: ld.global.f32 $(=%f\d+), [$row1];
// check: ld.global.f32 $(=%f\d+), [$row1+8];
// check: add.s64 $(row2=%rd\d+), $col, $(=%rd\d+);
// nextln: ld.global.f32 $(=%f\d+), [$row2];
// check: ld.global.f32 $(=%f\d+), [$row2+8];
// not: mul.lo.s64
// not: cvt.s64.s32
// check: st.global.f32
