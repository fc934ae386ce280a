/* An orphaned `distribute` in a declare-target function called from `teams` (gcc accepts it;
 * OpenMP 5.2 binds it to the caller's teams): every iteration runs once, dist_schedule(static,
 * c) hands chunks to the teams round-robin, collapse and private copies work. */
#include <omp.h>
#include <stdio.h>

#define N 200
#define R 12
#define C 9

#pragma omp declare target
static int runs[N], team_of[N], grid[R][C];
static int nteams;

void mark(int n)
{
    int t = omp_get_team_num();
    if (t == 0)
        nteams = omp_get_num_teams();
#pragma omp distribute dist_schedule(static, 8)
    for (int i = 0; i < n; i++) {
#pragma omp atomic update
        runs[i] += 1;
        team_of[i] = t;
    }
}

void fill(int rows, int cols, int scale)
{
    int tmp;
#pragma omp distribute collapse(2) private(tmp)
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            tmp = i * cols + j;
            grid[i][j] = tmp * scale;
        }
}
#pragma omp end declare target

int main(void)
{
#pragma omp target teams num_teams(4)
    mark(N);
#pragma omp target teams num_teams(3)
    fill(R, C, 5);
#pragma omp target update from(runs, team_of, nteams, grid)
    int once = 1, round_robin = 1;
    for (int i = 0; i < N; i++) {
        once &= runs[i] == 1;
        round_robin &= team_of[i] == (i / 8) % nteams;
    }
    long sum = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            sum += grid[i][j];
    printf("each iteration once: %d\n", once);
    printf("chunks round-robin over the teams: %d\n", round_robin);
    printf("collapsed grid sum: %ld (last %d)\n", sum, grid[R - 1][C - 1]);
    return 0;
}
