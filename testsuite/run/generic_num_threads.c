/* Generic-mode teams: nested parallel regions sized by num_threads and if. */
#include <omp.h>
#include <stdio.h>

#define B 4
#define N 100
#define M 37

int main(void)
{
    int n1[B], n_if0[B], t_if0[B], lvl_if0[B], inpar_if0[B], ok_k[B][3], small[B];
    long sum[B], ids[B][3];
    int big = 50;
    long w[B], dp[M];
#pragma omp target teams num_teams(B) thread_limit(8) map(from : w, dp, n1, n_if0, t_if0, lvl_if0, inpar_if0, ok_k, sum, ids, small)
    {
        int base = 7; /* sequential code: generic mode */
#pragma omp distribute
        for (int b = 0; b < B; b++) {
            int ks[3] = {2, 8, 64};
            for (int j = 0; j < 3; j++) {
                int k = ks[j], good = 1, size = 0;
                long id = 0, ones = 0;
#pragma omp parallel num_threads(k) reduction(&& : good) reduction(+ : id, ones)
                {
                    int t = omp_get_thread_num(), n = omp_get_num_threads();
                    good = t >= 0 && t < n && n >= 1 && n <= k && omp_get_level() == 1;
                    id += t;
                    ones += 1;
                    if (t == 0)
                        size = n;
                }
                ok_k[b][j] = good && ones == size && id == (long)size * (size - 1) / 2;
                ids[b][j] = id - (long)size * (size - 1) / 2;
            }
#pragma omp parallel num_threads(1)
            n1[b] = omp_get_num_threads() + 10 * omp_get_thread_num();
#pragma omp parallel if (0)
            {
                n_if0[b] = omp_get_num_threads();
                t_if0[b] = omp_get_thread_num();
                lvl_if0[b] = omp_get_level();
                inpar_if0[b] = omp_in_parallel();
            }
            long s = 0;
#pragma omp parallel for num_threads(3) reduction(+ : s) if (big > 10)
            for (int i = 0; i < N; i++)
                s += i * base + b;
            sum[b] = s;
            int m = 0;
#pragma omp parallel num_threads(big - 47) if (big > 100) reduction(max : m)
            m = omp_get_num_threads();
            small[b] = m;
            long ws = 0;
#pragma omp parallel num_threads(3) reduction(+ : ws)
            {
#pragma omp for nowait
                for (int i = 0; i < N; i++)
                    ws += i % 7;
#pragma omp for /* a barrier inside: ompcc runs it on one thread */
                for (int i = 0; i < N; i++)
                    ws += 1;
            }
            w[b] = ws;
        }
#pragma omp distribute parallel for num_threads(2)
        for (int i = 0; i < M; i++)
            dp[i] = (long)i * i + base;
    }
    long d = 0;
    for (int i = 0; i < M; i++)
        d += dp[i] * (i + 1);
    printf("dp=%ld\n", d);
    for (int b = 0; b < B; b++)
        printf("b=%d ok=%d%d%d ids=%ld,%ld,%ld n1=%d if0=%d/%d/%d/%d sum=%ld small=%d w=%ld\n", b,
               ok_k[b][0], ok_k[b][1], ok_k[b][2], ids[b][0], ids[b][1], ids[b][2], n1[b],
               n_if0[b], t_if0[b], lvl_if0[b], inpar_if0[b], sum[b], small[b], w[b]);
    return 0;
}
