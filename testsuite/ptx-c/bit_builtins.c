/* GNU bit builtins: popcount, clz, ctz, bswap as single PTX instructions. */
// run: -fopenmp --device-only --emit=ptx -O2
int pop32(unsigned x) { return __builtin_popcount(x); }
int pop64(unsigned long x) { return __builtin_popcountl(x); }
int lz32(unsigned x) { return __builtin_clz(x); }
int tz64(unsigned long x) { return __builtin_ctzll(x); }
unsigned swap32(unsigned x) { return __builtin_bswap32(x); }
// check: pop32(
// check: popc.b32 %r2, %r1;
// check: pop64(
// check: popc.b64 %r1, %rd1;
// check: lz32(
// check: clz.b32 %r2, %r1;
// check: tz64(
// check: brev.b64 %rd3, %rd1;
// nextln: clz.b64 %r1, %rd3;
// check: swap32(
// check: prmt.b32 %r2, %r1, 0, 0x0123;
