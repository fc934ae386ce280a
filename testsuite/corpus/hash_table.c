/* Hash table with separate chaining and string keys: insert/update, lookup, delete, resize
 * when the load factor exceeds 3/4; counts words of a fixed text and prints them sorted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

typedef struct entry {
    char *key;
    int count;
    struct entry *next;
} entry;

typedef struct {
    entry **slots;
    size_t nslots, size;
} table;

static size_t hash(const char *s)
{
    size_t h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

static void resize(table *t, size_t n)
{
    entry **slots = calloc(n, sizeof *slots);
    for (size_t i = 0; i < t->nslots; i++)
        for (entry *e = t->slots[i], *next; e; e = next) {
            next = e->next;
            size_t k = hash(e->key) % n;
            e->next = slots[k];
            slots[k] = e;
        }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
}

static entry *find(const table *t, const char *key)
{
    for (entry *e = t->slots[hash(key) % t->nslots]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static void add(table *t, const char *key)
{
    entry *e = find(t, key);
    if (e) {
        e->count++;
        return;
    }
    if (4 * (t->size + 1) > 3 * t->nslots)
        resize(t, t->nslots * 2);
    e = malloc(sizeof *e);
    e->key = strdup(key);
    e->count = 1;
    size_t k = hash(key) % t->nslots;
    e->next = t->slots[k];
    t->slots[k] = e;
    t->size++;
}

static int remove_key(table *t, const char *key)
{
    for (entry **p = &t->slots[hash(key) % t->nslots]; *p; p = &(*p)->next)
        if (strcmp((*p)->key, key) == 0) {
            entry *dead = *p;
            *p = dead->next;
            free(dead->key);
            free(dead);
            t->size--;
            return 1;
        }
    return 0;
}

static int by_count_then_key(const void *a, const void *b)
{
    const entry *x = *(entry *const *)a, *y = *(entry *const *)b;
    if (x->count != y->count)
        return y->count - x->count;
    return strcmp(x->key, y->key);
}

int main(void)
{
    const char *text = "It was the best of times, it was the worst of times, it was the age of "
                       "wisdom, it was the age of foolishness, it was the epoch of belief, it was "
                       "the epoch of incredulity, it was the season of Light, it was the season of "
                       "Darkness.";
    table t = {calloc(4, sizeof(entry *)), 4, 0};
    char word[32];
    size_t len = 0;
    for (const char *p = text;; p++) {
        if (isalpha((unsigned char)*p)) {
            if (len < sizeof word - 1)
                word[len++] = (char)tolower((unsigned char)*p);
        } else if (len) {
            word[len] = '\0';
            add(&t, word);
            len = 0;
        }
        if (!*p)
            break;
    }
    printf("distinct=%zu slots=%zu\n", t.size, t.nslots);
    printf("removed 'age': %d, removed 'zebra': %d\n", remove_key(&t, "age"), remove_key(&t, "zebra"));
    entry **all = malloc(t.size * sizeof *all);
    size_t n = 0;
    for (size_t i = 0; i < t.nslots; i++)
        for (entry *e = t.slots[i]; e; e = e->next)
            all[n++] = e;
    qsort(all, n, sizeof *all, by_count_then_key);
    for (size_t i = 0; i < n; i++)
        printf("%-12s %d\n", all[i]->key, all[i]->count);
    entry *w = find(&t, "was");
    printf("lookup 'was' -> %d\n", w ? w->count : -1);
    for (size_t i = 0; i < n; i++) {
        free(all[i]->key);
        free(all[i]);
    }
    free(all);
    free(t.slots);
    return 0;
}
