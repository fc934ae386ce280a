/* LULESH-omp4 style: a Domain struct of many heap arrays, mapped member by member with
 * enter data through local pointer copies, kernels over nodes and elements, exit data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int numNode, numElem;
    double *x, *xd, *fx, *nodalMass;
    double *e, *p, *q, *v;
    int *nodelist; /* 2 nodes per element (1-D chain) */
    double dt;
} Domain;

static void alloc_domain(Domain *d, int ne)
{
    d->numElem = ne;
    d->numNode = ne + 1;
    d->x = calloc(d->numNode, sizeof(double));
    d->xd = calloc(d->numNode, sizeof(double));
    d->fx = calloc(d->numNode, sizeof(double));
    d->nodalMass = calloc(d->numNode, sizeof(double));
    d->e = calloc(ne, sizeof(double));
    d->p = calloc(ne, sizeof(double));
    d->q = calloc(ne, sizeof(double));
    d->v = calloc(ne, sizeof(double));
    d->nodelist = malloc(sizeof(int) * 2 * ne);
    for (int i = 0; i < d->numNode; i++) {
        d->x[i] = i * 0.125;
        d->nodalMass[i] = 1.0;
    }
    for (int i = 0; i < ne; i++) {
        d->nodelist[2 * i] = i;
        d->nodelist[2 * i + 1] = i + 1;
        d->e[i] = (i == 0) ? 4.0 : 0.0;
        d->v[i] = 1.0;
    }
    d->dt = 1.0 / 64;
}

int main(void)
{
    Domain dom;
    alloc_domain(&dom, 200);
    int nn = dom.numNode, ne = dom.numElem;
    double *x = dom.x, *xd = dom.xd, *fx = dom.fx, *m = dom.nodalMass;
    double *e = dom.e, *p = dom.p, *q = dom.q, *v = dom.v;
    int *nl = dom.nodelist;
    double dt = dom.dt;
#pragma omp target enter data map(to : x[0:nn], xd[0:nn], m[0:nn], e[0:ne], v[0:ne], nl[0:2 * ne]) \
    map(alloc : fx[0:nn], p[0:ne], q[0:ne])
    for (int step = 0; step < 10; step++) {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < ne; i++) {
            p[i] = 0.4 * e[i] / v[i];
            double dv = xd[nl[2 * i + 1]] - xd[nl[2 * i]];
            q[i] = dv < 0 ? 0.5 * dv * dv : 0.0;
        }
#pragma omp target teams distribute parallel for
        for (int n = 0; n < nn; n++) {
            double f = 0;
            if (n > 0)
                f += p[n - 1] + q[n - 1];
            if (n < ne)
                f -= p[n] + q[n];
            fx[n] = f;
        }
#pragma omp target teams distribute parallel for firstprivate(dt)
        for (int n = 0; n < nn; n++) {
            xd[n] += fx[n] / m[n] * dt;
            x[n] += xd[n] * dt;
        }
#pragma omp target teams distribute parallel for firstprivate(dt)
        for (int i = 0; i < ne; i++) {
            double len = x[nl[2 * i + 1]] - x[nl[2 * i]];
            double vnew = len / 0.125;
            e[i] -= (p[i] + q[i]) * (vnew - v[i]);
            v[i] = vnew;
        }
    }
#pragma omp target exit data map(from : x[0:nn], e[0:ne], v[0:ne]) \
    map(release : xd[0:nn], m[0:nn], nl[0:2 * ne], fx[0:nn], p[0:ne], q[0:ne])
    double etot = 0, vmin = 1e30;
    for (int i = 0; i < ne; i++) {
        etot += e[i];
        vmin = fmin(vmin, v[i]);
    }
    printf("etot=%.10f vmin=%.10f x1=%.10f\n", etot, vmin, x[1]);
    return 0;
}
