/* CRC-32 of 64 independent 256-byte blocks: the lookup table is a declare target global built
 * by a serial target region, then one kernel computes each block's CRC byte by byte. */
#include <stdio.h>
#include <stdint.h>

#define BLOCKS 64
#define BLEN 256

#pragma omp declare target
uint32_t crc_table[256];
#pragma omp end declare target

static unsigned char data[BLOCKS * BLEN];

int main(void)
{
    for (int i = 0; i < BLOCKS * BLEN; i++)
        data[i] = (unsigned char)((i * 131 + (i >> 8) * 7) & 0xFF);
#pragma omp target
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
    static uint32_t crc[BLOCKS];
#pragma omp target teams distribute parallel for map(to : data) map(from : crc)
    for (int b = 0; b < BLOCKS; b++) {
        uint32_t c = 0xFFFFFFFFu;
        const unsigned char *p = data + b * BLEN;
        for (int i = 0; i < BLEN; i++)
            c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
        crc[b] = c ^ 0xFFFFFFFFu;
    }
#pragma omp target update from(crc_table[0:4])
    uint32_t x = 0;
    for (int b = 0; b < BLOCKS; b++)
        x ^= crc[b] * (uint32_t)(b + 1);
    printf("table[1]=%08x table[3]=%08x crc[0]=%08x crc[63]=%08x mix=%08x\n", crc_table[1],
           crc_table[3], crc[0], crc[BLOCKS - 1], x);
    return 0;
}
