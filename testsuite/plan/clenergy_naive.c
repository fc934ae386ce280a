/* clenergy, naive form. The Coulomb-energy grid of VMD's cionize / the OpenCL clenergy sample
 * (OMPDart's evaluation): every point of a lattice of NZ planes of NX x NY points sums
 * q / r over the atoms. As in cionize, the host feeds the atoms in chunks of CHUNK: it packs
 * each chunk into a small buffer (`atominfo`: x, y, z, q) and launches a kernel that adds the
 * chunk's contribution to the plane. Time-stepped: NZ planes x ATOMS / CHUNK chunks = 20
 * kernels. Charges are positive, so the sums do not cancel, and coordinates are exact binary
 * fractions.
 *
 * What a new user writes: every kernel maps the atom buffer and the whole energy grid `tofrom`.
 * A planner should: hoist the grid's map out of both loops (`to` once, since the host zeroed
 * it; `from` once after the loops for the host's sums), allocate the atom buffer on the device
 * once and replace its per-kernel map by a `target update to(atominfo[0:4*CHUNK])` after the
 * host writes it (lines 47-51; it is never copied
 * back: the kernel only reads it).
 */
// plan-data: time-stepped
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NX 40
#define NY 40
#define NZ 2
#define ATOMS 240
#define CHUNK 24
#define SPACING 0.5

int main(void)
{
    double *atoms = malloc(ATOMS * 4 * sizeof *atoms), *atominfo = malloc(CHUNK * 4 * sizeof *atominfo);
    double *energy = malloc(NX * NY * NZ * sizeof *energy);
    unsigned seed = 2024;
    for (int a = 0; a < ATOMS; a++) {
        for (int c = 0; c < 3; c++) {
            seed = seed * 1664525u + 1013904223u;
            atoms[a * 4 + c] = (seed >> 20) / 128.0; /* 0 .. 32, exact in binary */
        }
        atoms[a * 4 + 3] = 0.125 + (a % 7) * 0.125;
    }
    for (int i = 0; i < NX * NY * NZ; i++)
        energy[i] = 0.0;
    for (int z = 0; z < NZ; z++) {
        double gz = 8.0 + z * SPACING;
        for (int first = 0; first < ATOMS; first += CHUNK) {
            /* Pack the chunk as cionize does: z distance to the plane precomputed. */
            for (int a = 0; a < CHUNK; a++) {
                atominfo[a * 4 + 0] = atoms[(first + a) * 4 + 0];
                atominfo[a * 4 + 1] = atoms[(first + a) * 4 + 1];
                double dz = gz - atoms[(first + a) * 4 + 2];
                atominfo[a * 4 + 2] = dz * dz;
                atominfo[a * 4 + 3] = atoms[(first + a) * 4 + 3];
            }
#pragma omp target teams distribute parallel for collapse(2) map(tofrom : atominfo[0:CHUNK * 4], energy[0:NX * NY * NZ])
            for (int y = 0; y < NY; y++)
                for (int x = 0; x < NX; x++) {
                    double gx = x * SPACING, gy = y * SPACING, e = 0.0;
                    for (int a = 0; a < CHUNK; a++) {
                        double dx = gx - atominfo[a * 4 + 0], dy = gy - atominfo[a * 4 + 1];
                        e += atominfo[a * 4 + 3] / sqrt(dx * dx + dy * dy + atominfo[a * 4 + 2]);
                    }
                    energy[(z * NY + y) * NX + x] += e;
                }
        }
    }
    double total = 0.0, peak = 0.0;
    for (int i = 0; i < NX * NY * NZ; i++) {
        total += energy[i];
        peak = energy[i] > peak ? energy[i] : peak;
    }
    printf("clenergy %dx%dx%d atoms %d: total %.6e peak %.6e e[0] %.6e e[last] %.6e\n", NX, NY, NZ,
           ATOMS, total, peak, energy[0], energy[NX * NY * NZ - 1]);
    free(atoms);
    free(atominfo);
    free(energy);
    return 0;
}
