/* '#pragma omp requires atomic_default_mem_order(seq_cst)': an atomic without a memory-order
 * clause takes the unit's default (fences before and after); an explicit clause still wins. */
// run: -fopenmp --device-only --emit=ptx -O2
#pragma omp requires atomic_default_mem_order(seq_cst)
void default_update(int *p, int v) {
#pragma omp atomic
    *p += v;
}
int default_read(int *p) {
    int v;
#pragma omp atomic read
    v = *p;
    return v;
}
void explicit_relaxed(int *p, int v) {
#pragma omp atomic relaxed
    *p += v;
}
// check: default_update(
// check: fence.sc.gpu;
// nextln: atom.add.u32
// nextln: fence.sc.gpu;
// check: default_read(
// check: fence.sc.gpu;
// nextln: ld.volatile
// nextln: fence.sc.gpu;
// check: ld.param.b64 %rd1, [explicit_relaxed_param_0];
// not: fence
// check: ret;
