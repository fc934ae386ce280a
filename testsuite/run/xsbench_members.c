// XSBench-shaped lookups written for this repo: a struct of sizes and pointer members
// (SimulationData-like) mapped member by member (`map(to: SD.grid[:SD.length_grid])`, a
// scalar member, the sizes read in the kernel), an Inputs struct used by value, `-DBL_MAX`
// starting an argmax in the kernel, and a lookup kernel doing binary searches over a large
// read-only table of grid points. Grids have power-of-two spacings and every input is an
// exact binary fraction, so the interpolation is exact and the argmax never ties by rounding.
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n_isotopes, n_gridpoints, n_mats, lookups;
} Inputs;

typedef struct {
  double energy;
  double xs[5];
} GridPoint;

typedef struct {
  int *num_nucs;
  int length_num_nucs;
  int *mats; // n_mats x max_num_nucs nuclide ids
  int length_mats;
  double *concs;
  int length_concs;
  GridPoint *grid; // n_isotopes x n_gridpoints, each nuclide's energies ascending
  int length_grid;
  int max_num_nucs;
} SimulationData;

#pragma omp declare target
static long search(const GridPoint *g, int n, double e) {
  long lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2;
    if (g[mid].energy > e) hi = mid;
    else lo = mid;
  }
  return lo;
}

static void macro_xs(double e, int mat, Inputs in, const int *num_nucs, const int *mats,
                     const double *concs, const GridPoint *grid, int max_num_nucs, double *out) {
  for (int j = 0; j < 5; j++) out[j] = 0;
  for (int k = 0; k < num_nucs[mat]; k++) {
    int nuc = mats[mat * max_num_nucs + k];
    const GridPoint *g = &grid[(long)nuc * in.n_gridpoints];
    long i = search(g, in.n_gridpoints, e);
    double f = (e - g[i].energy) / (g[i + 1].energy - g[i].energy);
    for (int j = 0; j < 5; j++)
      out[j] += concs[mat * max_num_nucs + k] * (g[i].xs[j] + f * (g[i + 1].xs[j] - g[i].xs[j]));
  }
}
#pragma omp end declare target

int main(void) {
  Inputs in = {40, 128, 6, 1536};
  SimulationData SD;
  SD.max_num_nucs = 12;
  SD.length_num_nucs = in.n_mats;
  SD.length_mats = SD.length_concs = in.n_mats * SD.max_num_nucs;
  SD.length_grid = in.n_isotopes * in.n_gridpoints;
  SD.num_nucs = malloc(sizeof(int) * SD.length_num_nucs);
  SD.mats = malloc(sizeof(int) * SD.length_mats);
  SD.concs = malloc(sizeof(double) * SD.length_concs);
  SD.grid = malloc(sizeof(GridPoint) * SD.length_grid);
  for (int m = 0; m < in.n_mats; m++) {
    SD.num_nucs[m] = 3 + (m * 5) % 10;
    for (int k = 0; k < SD.max_num_nucs; k++) {
      SD.mats[m * SD.max_num_nucs + k] = (m * 11 + k * 7) % in.n_isotopes;
      SD.concs[m * SD.max_num_nucs + k] = 0.25 * (1 + (m + 3 * k) % 9);
    }
  }
  for (int n = 0; n < in.n_isotopes; n++) {
    double step = 1.0 / (64 << (n % 3)); // the grid spans [0, 2) at most
    for (int p = 0; p < in.n_gridpoints; p++) {
      GridPoint *g = &SD.grid[n * in.n_gridpoints + p];
      g->energy = p * step;
      for (int j = 0; j < 5; j++)
        g->xs[j] = ((n * 7 + p * 3 + j * 5) % 17) * 0.5 + ((n + j) % 5) * 2.0;
    }
  }
  int *verification = malloc(sizeof(int) * in.lookups);
#pragma omp target teams distribute parallel for map(to : SD.num_nucs[ : SD.length_num_nucs]) \
    map(to : SD.mats[ : SD.length_mats]) map(to : SD.concs[ : SD.length_concs])             \
    map(to : SD.grid[ : SD.length_grid]) map(to : SD.max_num_nucs)                        \
    map(from : verification[ : in.lookups])
  for (int i = 0; i < in.lookups; i++) {
    unsigned long long seed = 2654435761ull * (unsigned long long)(i + 1);
    seed ^= seed >> 29;
    double e = (double)(seed % 4000) / 8192.0; // below every grid's last point
    int mat = (int)((seed >> 12) % (unsigned long long)in.n_mats);
    double xs[5];
    macro_xs(e, mat, in, SD.num_nucs, SD.mats, SD.concs, SD.grid, SD.max_num_nucs, xs);
    double max = -DBL_MAX;
    int max_idx = 0;
    for (int j = 0; j < 5; j++)
      if (xs[j] > max) {
        max = xs[j];
        max_idx = j;
      }
    verification[i] = max_idx + 1;
  }
  unsigned long long vsum = 0;
  int hist[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < in.lookups; i++) {
    vsum += (unsigned long long)verification[i] * (unsigned long long)(i % 97 + 1);
    hist[verification[i]]++;
  }
  printf("verification %llu\n", vsum);
  printf("argmax histogram %d %d %d %d %d\n", hist[1], hist[2], hist[3], hist[4], hist[5]);
  free(verification);
  free(SD.grid);
  free(SD.concs);
  free(SD.mats);
  free(SD.num_nucs);
  return 0;
}
