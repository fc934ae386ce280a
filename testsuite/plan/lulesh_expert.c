/* lulesh, expert form: the computation of lulesh_naive.c with hand-written data movement across
 * the functions: init_mesh enters the mesh once (`pos`, `vel`, `mass` `to`, `force` `alloc`),
 * the kernels find it present, apply_boundary updates the two elements it writes, report
 * updates `vel` from the device before reading it, and finish exits the data, copying back
 * only `pos` and `vel`.
 */
// plan-data: time-stepped
#include <stdio.h>
#include <stdlib.h>

#define NODES 8192
#define STEPS 24
#define REPORT_EVERY 6
#define VLIMIT 300

static long *pos, *vel, *force;

static void init_mesh(long *mass)
{
    pos = malloc(NODES * sizeof *pos);
    vel = malloc(NODES * sizeof *vel);
    force = malloc(NODES * sizeof *force);
    for (int i = 0; i < NODES; i++) {
        pos[i] = (long)i * 1024 + (i % 13) * 40;
        vel[i] = (i % 5) * 8 - 16;
        force[i] = 0;
        mass[i] = 8 + i % 8;
    }
#pragma omp target enter data map(to : pos[0:NODES], vel[0:NODES], mass[0:NODES]) map(alloc : force[0:NODES])
}

static void calc_force(const long *mass)
{
#pragma omp target teams distribute parallel for
    for (int i = 1; i < NODES - 1; i++)
        force[i] = 4 * (pos[i - 1] - 2 * pos[i] + pos[i + 1]) / 16 - vel[i] / 32;
}

/* Moves the interior nodes by one step of dt; returns the largest |velocity|. */
static long advance(const long *mass, long dt)
{
    long vmax = 0;
#pragma omp target teams distribute parallel for reduction(max : vmax)
    for (int i = 1; i < NODES - 1; i++) {
        long v = vel[i] + force[i] * dt / mass[i];
        vel[i] = v;
        pos[i] += v * dt / 4;
        long a = v < 0 ? -v : v;
        vmax = a > vmax ? a : vmax;
    }
    return vmax;
}

static void apply_boundary(int step)
{
    static const long drive[8] = {0, 700, 1000, 700, 0, -700, -1000, -700};
    pos[0] = drive[step % 8] * 4;
    vel[0] = drive[(step + 2) % 8];
#pragma omp target update to(pos[0:1], vel[0:1])
}

static void report(int step, long dt, const long *mass)
{
    long kinetic = 0;
#pragma omp target update from(vel[0:NODES])
    for (int i = 0; i < NODES; i++)
        kinetic += mass[i] * vel[i] * vel[i] / 2;
    printf("step %d dt %ld kinetic %ld\n", step, dt, kinetic);
}

static void finish(long *mass)
{
#pragma omp target exit data map(from : pos[0:NODES], vel[0:NODES]) map(release : force[0:NODES], mass[0:NODES])
    long psum = 0, vsum = 0, hash = 0;
    for (int i = 0; i < NODES; i++) {
        psum += pos[i];
        vsum += vel[i];
        hash = (hash * 31 + pos[i] + 7 * vel[i]) % 1000000007;
    }
    printf("lulesh nodes %d steps %d: pos sum %ld vel sum %ld hash %ld\n", NODES, STEPS, psum, vsum,
           hash);
    free(pos);
    free(vel);
    free(force);
    free(mass);
}

int main(void)
{
    long *mass = malloc(NODES * sizeof *mass);
    init_mesh(mass);
    long dt = 2;
    for (int step = 1; step <= STEPS; step++) {
        apply_boundary(step);
        calc_force(mass);
        long vmax = advance(mass, dt);
        dt = vmax > VLIMIT ? 1 : 2; /* a time-step constraint, decided on the host */
        if (step % REPORT_EVERY == 0)
            report(step, dt, mass);
    }
    finish(mass);
    return 0;
}
