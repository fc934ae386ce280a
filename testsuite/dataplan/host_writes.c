// The host sets the two boundary values between kernels (a loop, so the updates go around it):
// their range [0, N-1] holds the kernel's whole section, so the updates move what the device
// holds of it (u[1:62]) both ways: the price of sections as ranges. At the end the host copy is
// current, so nothing comes back.
#include <stdio.h>
#define N 64

double u[N];

int main(void) {
  for (int i = 0; i < N; i++)
    u[i] = 1.0;
  for (int t = 0; t < 8; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      u[i] = u[i] * 0.5 + 1.0;
    for (int k = 0; k < 2; k++)
      u[k * (N - 1)] = t;
  }
  printf("%.4f %.4f %.4f\n", u[0], u[N / 2], u[N - 1]);
  return 0;
}
