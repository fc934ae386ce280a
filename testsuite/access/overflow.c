// constants near the limits of 64 bits: overflow is unknown, never a wrapped value or a crash
void f(long n, double *a) {
  for (long i = 0; i < n; i++)
    a[i + 9223372036854775807L] = 0;
  for (long i = 0; i < n; i -= (-9223372036854775807L - 1))
    a[i] = 1;
  for (long i = 0; i < n; i++)
    a[9223372036854775807L * i * 2] = 2;
  for (long i = n; i > 0; i += -9223372036854775807L)
    a[-9223372036854775807L - 1 + i] = 3;
}
