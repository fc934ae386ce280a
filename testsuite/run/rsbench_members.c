// RSBench-shaped multipole lookups written for this repo: a SimulationData-like struct of
// sizes and pointer members (poles, windows, materials) whose pointees are mapped member by
// member with the sizes read in the kernel, pole and window tables of structs, a complex
// type as two doubles, `DBL_MAX`/`-DBL_MAX` bounds in the kernel, and one `+` reduction per
// cross-section channel.
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double r, i;
} cplx;

typedef struct {
  cplx mp_ea, mp_rt, mp_ra;
  short l_value;
} Pole;

typedef struct {
  double T, A;
  int start, end;
} Window;

typedef struct {
  int n_nuclides, n_poles, n_windows, n_mats, max_num_nucs;
  Pole *poles; // n_nuclides x n_poles
  long length_poles;
  Window *windows; // n_nuclides x n_windows
  long length_windows;
  int *num_nucs, *mats;
  double *concs;
  int length_mats;
} SimulationData;

#pragma omp declare target
static cplx c_mul(cplx a, cplx b) { return (cplx){a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r}; }
static cplx c_div(cplx a, cplx b) {
  double d = b.r * b.r + b.i * b.i;
  return (cplx){(a.r * b.r + a.i * b.i) / d, (a.i * b.r - a.r * b.i) / d};
}
#pragma omp end declare target

int main(void) {
  SimulationData SD = {24, 40, 8, 5, 6, NULL, 0, NULL, 0, NULL, NULL, NULL, 0};
  SD.length_poles = (long)SD.n_nuclides * SD.n_poles;
  SD.length_windows = (long)SD.n_nuclides * SD.n_windows;
  SD.length_mats = SD.n_mats * SD.max_num_nucs;
  SD.poles = malloc(sizeof(Pole) * SD.length_poles);
  SD.windows = malloc(sizeof(Window) * SD.length_windows);
  SD.num_nucs = malloc(sizeof(int) * SD.n_mats);
  SD.mats = malloc(sizeof(int) * SD.length_mats);
  SD.concs = malloc(sizeof(double) * SD.length_mats);
  for (long p = 0; p < SD.length_poles; p++) {
    Pole *q = &SD.poles[p];
    q->mp_ea = (cplx){0.5 + (p % 13) * 0.25, 0.125 + (p % 7) * 0.0625};
    q->mp_rt = (cplx){1.0 + (p % 5) * 0.5, -0.25 * (p % 3)};
    q->mp_ra = (cplx){0.75 + (p % 11) * 0.125, 0.5};
    q->l_value = (short)(p % 4);
  }
  for (long w = 0; w < SD.length_windows; w++) {
    int k = (int)(w % SD.n_windows);
    SD.windows[w] = (Window){0.01 * (k + 1), 0.5 + k, k * 5, k * 5 + 4};
  }
  for (int m = 0; m < SD.n_mats; m++) {
    SD.num_nucs[m] = 2 + m % SD.max_num_nucs;
    for (int k = 0; k < SD.max_num_nucs; k++) {
      SD.mats[m * SD.max_num_nucs + k] = (m * 5 + k * 3) % SD.n_nuclides;
      SD.concs[m * SD.max_num_nucs + k] = 0.5 + 0.25 * k;
    }
  }
  const int lookups = 800;
  double s_tot = 0, s_abs = 0, s_fis = 0, lo = DBL_MAX, hi = -DBL_MAX;

#pragma omp target teams distribute parallel for map(to : SD.poles[ : SD.length_poles])     \
    map(to : SD.windows[ : SD.length_windows], SD.num_nucs[ : SD.n_mats])                   \
    map(to : SD.mats[ : SD.length_mats], SD.concs[ : SD.length_mats])                       \
    reduction(+ : s_tot, s_abs, s_fis) reduction(min : lo) reduction(max : hi)
  for (int i = 0; i < lookups; i++) {
    double E = 0.001 + (i % 400) * 0.0025; // in [0.001, 1)
    int mat = i % SD.n_mats;
    double tot = 0, ab = 0, fi = 0, low = DBL_MAX, high = -DBL_MAX;
    for (int k = 0; k < SD.num_nucs[mat]; k++) {
      int nuc = SD.mats[mat * SD.max_num_nucs + k];
      int w = (int)(E * SD.n_windows);
      Window win = SD.windows[nuc * SD.n_windows + w];
      double sigT = E * win.T, sigA = E * win.A;
      cplx sq = {E, 0.0};
      for (int p = win.start; p <= win.end; p++) {
        Pole pole = SD.poles[(long)nuc * SD.n_poles + p];
        cplx z = c_div((cplx){1.0, 0.0}, (cplx){pole.mp_ea.r - E, pole.mp_ea.i + pole.l_value});
        cplx t = c_mul(pole.mp_rt, c_mul(z, sq));
        sigT += t.r;
        sigA += c_mul(pole.mp_ra, z).r;
      }
      double c = SD.concs[mat * SD.max_num_nucs + k];
      tot += c * sigT;
      ab += c * sigA;
      fi += c * (sigT - sigA) * 0.5;
      if (sigT < low) low = sigT;
      if (sigT > high) high = sigT;
    }
    s_tot += tot;
    s_abs += ab;
    s_fis += fi;
    if (low < lo) lo = low;
    if (high > hi) hi = high;
  }
  printf("total %.9e absorption %.9e fission %.9e\n", s_tot, s_abs, s_fis);
  printf("range %.9e .. %.9e\n", lo, hi);
  free(SD.concs);
  free(SD.mats);
  free(SD.num_nucs);
  free(SD.windows);
  free(SD.poles);
  return 0;
}
