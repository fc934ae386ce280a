/* File-scope objects and static locals live in the global state space. */
// run: -fopenmp --device-only --emit=ptx -O2
int counter;
double table[4] = {1.0, 2.0, 4.0, 8.0};
static long total = 5;

int bump(void) { return ++counter; }
double lookup(int i) { return table[i & 3]; }
long accumulate(long v) {
    static long calls;
    calls++;
    total += v;
    return total + calls;
}
// check: .visible .global .align 4 .b8 counter[4];
// check: .visible .global .align 8 .b8 table[32] = {0, 0, 0, 0, 0, 0, 240, 63,
// check: .global .align 8 .b8 accumulate__calls[8]
// check: .visible .global .align 8 .b8 total[8] = {5};
// check: bump()
// check: ld.global.u32 $(=%r\d+), [counter];
// check: st.global.u32 [counter], $(=%r\d+);
// check: lookup(
// check: ld.global.f64 $(=%fd\d+), [$(=%rd\d+)];
// check: accumulate(
// check: st.global.u64 [accumulate__calls], $(=%rd\d+);
// check: st.global.u64 [total], $(=%rd\d+);
