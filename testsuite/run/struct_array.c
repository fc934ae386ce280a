/* An array of structs mapped tofrom: particles advanced by a kernel reading and writing
 * several members, with a nested struct and a member array. */
#include <stdio.h>

#define N 4096

struct vec3 {
    double x, y, z;
};

struct particle {
    struct vec3 pos, vel;
    float mass;
    int id;
    short hits[4];
};

static struct particle ps[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        ps[i].pos = (struct vec3){i * 0.01, (i % 17) * 0.1, 0.0};
        ps[i].vel = (struct vec3){1.0, -0.5, (i % 3) * 0.25};
        ps[i].mass = 1.0f + (float)(i % 5);
        ps[i].id = i;
        for (int k = 0; k < 4; k++)
            ps[i].hits[k] = 0;
    }
    for (int step = 0; step < 4; step++) {
#pragma omp target teams distribute parallel for map(tofrom : ps)
        for (int i = 0; i < N; i++) {
            struct particle *p = &ps[i];
            double dt = 0.1 / p->mass;
            p->pos.x += p->vel.x * dt;
            p->pos.y += p->vel.y * dt;
            p->pos.z += p->vel.z * dt;
            if (p->pos.y < 0.0) {
                p->pos.y = -p->pos.y;
                p->vel.y = -p->vel.y;
                p->hits[step]++;
            }
            p->id += step;
        }
    }
    double sx = 0, sy = 0, sz = 0;
    long ids = 0, hits = 0;
    for (int i = 0; i < N; i++) {
        sx += ps[i].pos.x;
        sy += ps[i].pos.y;
        sz += ps[i].pos.z;
        ids += ps[i].id;
        for (int k = 0; k < 4; k++)
            hits += ps[i].hits[k] * (k + 1);
    }
    printf("sum pos=(%.10g, %.10g, %.10g) ids=%ld hits=%ld\n", sx, sy, sz, ids, hits);
    printf("ps[100].pos.y=%.10g ps[4095].vel.y=%.6f\n", ps[100].pos.y, ps[4095].vel.y);
    return 0;
}
