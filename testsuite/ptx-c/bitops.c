/* Bitwise and, or, xor, not on 32- and 64-bit values. */
// run: -fopenmp --device-only --emit=ptx -O2
unsigned bits32(unsigned a, unsigned b, unsigned c) { return (a & b) | (~a & c) ^ b; }
unsigned long bits64(unsigned long a, unsigned long b) { return (a ^ b) & ~(a | b); }
int lowmask(int a) { return a & 0xff; }
// check: bits32(
// check: and.b32 %r4, %r1, %r2;
// nextln: not.b32 %r5, %r1;
// nextln: and.b32 %r6, %r5, %r3;
// nextln: xor.b32 %r7, %r6, %r2;
// nextln: or.b32 %r8, %r4, %r7;
// check: bits64(
// check: xor.b64 %rd3, %rd1, %rd2;
// nextln: or.b64 %rd4, %rd1, %rd2;
// nextln: not.b64 %rd5, %rd4;
// nextln: and.b64 %rd6, %rd3, %rd5;
// check: lowmask(
// check: and.b32 %r3, %r1, %r2;
