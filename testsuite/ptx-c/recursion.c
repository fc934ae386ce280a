/* Recursion: direct and mutual. */
// run: -fopenmp --device-only --emit=ptx -O2
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
int parity(unsigned n) { return is_even(n); }
// check: fib(
// check: call (retval0), fib, (param0);
// check: call (retval0), fib, (param0);
// check: is_even(
// check: call (retval0), is_odd, (param0);
// check: is_odd(
// check: call (retval0), is_even, (param0);
