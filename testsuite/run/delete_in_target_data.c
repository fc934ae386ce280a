/* `target exit data map(delete:)` inside an enclosing `target data` (OpenMP 5.2, 5.8.3):
 * delete sets the reference count to zero and removes the mapping, so the enclosing region's
 * end finds nothing to copy back, and a later map inside the region maps the array anew.
 * Where the regions run on the host nothing is mapped and every write lands in the host
 * arrays; the program computes what each case must give where it ran and prints only whether
 * that held. */
#include <omp.h>
#include <stdio.h>

#define N 64

static int a[N], b[N], c[N];

static const char *verdict(int ok)
{
    return ok ? "as specified" : "WRONG";
}

int main(void)
{
    int dev = omp_get_default_device();
    int on_device = 0;
#pragma omp target map(from : on_device)
    on_device = !omp_is_initial_device();
    for (int i = 0; i < N; i++)
        a[i] = b[i] = c[i] = 1;

    /* delete after device writes: the enclosing end copies nothing back */
    int present_after = -1;
#pragma omp target data map(tofrom : a)
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            a[i] = 2;
#pragma omp target exit data map(delete : a)
        present_after = omp_target_is_present(a, dev);
    }
    printf("delete ends the mapping: %s\n", verdict(present_after == !on_device));
    printf("enclosing end copies nothing back: %s\n", verdict(a[0] == (on_device ? 1 : 2)));

    /* after the delete, a region in the same target data maps b anew (to and from) */
#pragma omp target data map(tofrom : b)
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            b[i] = 5;
#pragma omp target exit data map(delete : b)
#pragma omp target teams distribute parallel for map(tofrom : b)
        for (int i = 0; i < N; i++)
            b[i] += 10;
    }
    printf("a later map starts over: %s\n", verdict(b[N - 1] == (on_device ? 11 : 15)));

    /* enter data and target data both hold c: delete drops both counts */
#pragma omp target enter data map(to : c)
#pragma omp target data map(tofrom : c)
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++)
            c[i] = 7;
#pragma omp target exit data map(delete : c)
        present_after = omp_target_is_present(c, dev);
    }
    int still = omp_target_is_present(c, dev);
    printf("delete drops every reference: %s\n",
           verdict(present_after == !on_device && still == !on_device && c[3] == (on_device ? 1 : 7)));
    return 0;
}
