/* Flexible array members: variable-sized strings and packets allocated in one block,
 * offsetof/sizeof rules, growing with realloc, and an array-of-records serialization. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>

struct str {
    size_t len;
    char data[];
};

struct packet {
    uint16_t kind;
    uint16_t count;
    int32_t values[];
};

static struct str *str_new(const char *s)
{
    size_t n = strlen(s);
    struct str *p = malloc(sizeof *p + n + 1);
    if (!p)
        exit(1);
    p->len = n;
    memcpy(p->data, s, n + 1);
    return p;
}

static struct str *str_cat(struct str *a, const char *b)
{
    size_t n = strlen(b);
    struct str *p = realloc(a, sizeof *a + a->len + n + 1);
    if (!p)
        exit(1);
    memcpy(p->data + p->len, b, n + 1);
    p->len += n;
    return p;
}

static struct packet *packet_new(uint16_t kind, uint16_t count)
{
    struct packet *p = calloc(1, offsetof(struct packet, values) + count * sizeof(int32_t));
    if (!p)
        exit(1);
    p->kind = kind;
    p->count = count;
    return p;
}

static size_t packet_size(const struct packet *p)
{
    return offsetof(struct packet, values) + p->count * sizeof p->values[0];
}

int main(void)
{
    printf("sizeof(struct str)=%zu offsetof(data)=%zu\n", sizeof(struct str), offsetof(struct str, data));
    printf("sizeof(struct packet)=%zu offsetof(values)=%zu\n", sizeof(struct packet),
           offsetof(struct packet, values));
    struct str *s = str_new("flexible");
    s = str_cat(s, " array");
    s = str_cat(s, " members");
    printf("%s (%zu)\n", s->data, s->len);
    free(s);

    unsigned char wire[256];
    size_t off = 0;
    for (uint16_t k = 1; k <= 3; k++) {
        struct packet *p = packet_new(k, (uint16_t)(k * 2));
        for (int i = 0; i < p->count; i++)
            p->values[i] = (int32_t)(k * 100 + i * i);
        size_t sz = packet_size(p);
        memcpy(wire + off, p, sz);
        off += sz;
        free(p);
    }
    printf("serialized %zu bytes\n", off);
    size_t pos = 0;
    while (pos < off) {
        struct packet hdr;
        memcpy(&hdr, wire + pos, offsetof(struct packet, values));
        int32_t total = 0;
        for (int i = 0; i < hdr.count; i++) {
            int32_t v;
            memcpy(&v, wire + pos + offsetof(struct packet, values) + (size_t)i * sizeof v, sizeof v);
            total += v;
        }
        printf("packet kind=%u count=%u total=%d\n", hdr.kind, hdr.count, (int)total);
        pos += offsetof(struct packet, values) + hdr.count * sizeof(int32_t);
    }
    return 0;
}
