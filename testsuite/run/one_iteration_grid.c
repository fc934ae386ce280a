/* Collapsed nests whose one-iteration variant runs on a 2-D or 3-D grid at -O2/-O3 (a block
 * row per outer iteration): the OpenMP API inside the body and in a declare-target function
 * (team numbers count every grid dimension),
 * `lastprivate` over the collapsed space, and the shapes that keep the
 * grid-stride kernel (an inner loop shorter than half a warp, more outer iterations than a
 * grid dimension holds), whose results must be the same. */
#include <omp.h>
#include <stdio.h>

#define R 45
#define C 70
#define P 5

#pragma omp declare target
static int team_of_caller(void) { return omp_get_team_num(); }
#pragma omp end declare target

#define MAXW 65536

static char bad[P][R][C];
static int who[P][R][C], span[P][R][C], runs[MAXW], lin[R][C], thin[R][6];
static char wide[70000][2];

int main(void)
{
    int n = R, m = C;
#pragma omp target teams distribute parallel for collapse(3) map(from : bad, who, span)
    for (int p = 0; p < P; p++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                int t = omp_get_team_num(), nt = omp_get_num_teams();
                int h = omp_get_thread_num(), nh = omp_get_num_threads();
                bad[p][i][j] = t < 0 || t >= nt || h < 0 || h >= nh || team_of_caller() != t;
                who[p][i][j] = t * nh + h;
                span[p][i][j] = nt * nh;
            }
    /* no (team, thread) pair runs more than its share of the iterations: team numbers
     * that ignored a grid dimension would give the pairs of a block row to every row */
    long nbad = 0, most = 0;
    for (int p = 0; p < P; p++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                int w = who[p][i][j], sp = span[p][i][j];
                nbad += bad[p][i][j] || sp != span[0][0][0] || sp > MAXW || w >= sp;
                if (!nbad && ++runs[w] > most)
                    most = runs[w];
            }
    long share = (P * R * C + span[0][0][0] - 1) / span[0][0][0];
    printf("bad=%ld over=%d\n", nbad, most > share);
    int k = 7, li = -1, lj = -1;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(li, lj, k) map(from : lin)
    for (li = 1; li < n; li++)
        for (lj = m - 1; lj >= 3; lj--) {
            k = 7 + 3 * ((li - 1) * (m - 3) + (m - 1 - lj));
            lin[li][lj] = k;
        }
    long ls = 0;
    for (int i = 1; i < n; i++)
        for (int j = 3; j < m; j++)
            ls += (long)lin[i][j] * (i + 2 * j);
    printf("k=%d li=%d lj=%d ls=%ld\n", k, li, lj, ls);
    /* six inner iterations: a block per row would be mostly idle */
#pragma omp target teams distribute parallel for collapse(2) map(from : thin)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 6; j++)
            thin[i][j] = i * 6 + j;
    long ts = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 6; j++)
            ts += (long)thin[i][j] * (j + 1);
    /* 70000 rows: more than a grid's y dimension holds */
    int rows = 70000;
#pragma omp target teams distribute parallel for collapse(2) map(from : wide)
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < 2; j++)
            wide[i][j] = (char)(i % 100 + j);
    long ws = 0;
    for (int i = 0; i < rows; i++)
        ws += wide[i][0] * 3 + wide[i][1];
    printf("ts=%ld ws=%ld\n", ts, ws);
    return 0;
}
