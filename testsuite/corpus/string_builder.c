/* A growable string builder with a printf-style append (vsnprintf through <stdarg.h>),
 * used to render a table, join words, escape JSON, and replace substrings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

typedef struct { char *data; size_t len, cap; } sb;

static void sb_reserve(sb *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 16;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        exit(1);
    b->data = p;
    b->cap = cap;
}

static void sb_append(sb *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void sb_puts(sb *b, const char *s) { sb_append(b, s, strlen(s)); }

__attribute__((format(printf, 2, 3))) static void sb_printf(sb *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        sb_reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

static void sb_json_string(sb *b, const char *s)
{
    sb_puts(b, "\"");
    for (; *s; s++) {
        switch (*s) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\t': sb_puts(b, "\\t"); break;
        default:
            if ((unsigned char)*s < 0x20)
                sb_printf(b, "\\u%04x", (unsigned)*s);
            else
                sb_append(b, s, 1);
        }
    }
    sb_puts(b, "\"");
}

static char *replace_all(const char *s, const char *from, const char *to)
{
    sb out = {0};
    size_t fl = strlen(from);
    const char *hit;
    while ((hit = strstr(s, from)) != NULL) {
        sb_append(&out, s, (size_t)(hit - s));
        sb_puts(&out, to);
        s = hit + fl;
    }
    sb_puts(&out, s);
    return out.data;
}

int main(void)
{
    sb b = {0};
    static const struct { const char *item; int qty; double price; } rows[] = {
        {"widget", 3, 2.5}, {"gadget", 12, 0.99}, {"doohickey", 1, 100.0}};
    double total = 0;
    sb_printf(&b, "%-10s %4s %8s\n", "item", "qty", "amount");
    for (size_t i = 0; i < 3; i++) {
        double amount = rows[i].qty * rows[i].price;
        total += amount;
        sb_printf(&b, "%-10s %4d %8.2f\n", rows[i].item, rows[i].qty, amount);
    }
    sb_printf(&b, "%-10s %4s %8.2f\n", "total", "", total);
    fputs(b.data, stdout);
    printf("table: %zu chars, capacity %zu\n", b.len, b.cap);

    b.len = 0;
    const char *words[] = {"alpha", "beta", "gamma", "delta"};
    for (int i = 0; i < 4; i++) {
        if (i)
            sb_puts(&b, ", ");
        sb_puts(&b, words[i]);
    }
    printf("joined: %s\n", b.data);

    b.len = 0;
    sb_puts(&b, "{\"msg\": ");
    sb_json_string(&b, "say \"hi\"\n\tand\\leave\x01");
    sb_puts(&b, "}");
    printf("json: %s\n", b.data);

    char *r = replace_all("the cat sat on the mat with the hat", "the", "a");
    printf("replaced: %s\n", r);
    free(r);
    r = replace_all("aaaa", "aa", "b");
    printf("replaced: %s\n", r);
    free(r);
    free(b.data);
    return 0;
}
