/* Tagged unions: a small dynamically typed value (nil, bool, int, double, string, pair) with
 * anonymous union members, constructors, printing, equality and a recursive list sum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

typedef enum { T_NIL, T_BOOL, T_INT, T_DOUBLE, T_STR, T_PAIR } tag;

typedef struct value {
    tag tag;
    union {
        bool b;
        long i;
        double d;
        struct { char *chars; size_t len; };
        struct { struct value *car, *cdr; };
    };
} value;

static value *mk(tag t)
{
    value *v = calloc(1, sizeof *v);
    if (!v)
        exit(1);
    v->tag = t;
    return v;
}
static value *mk_int(long i) { value *v = mk(T_INT); v->i = i; return v; }
static value *mk_double(double d) { value *v = mk(T_DOUBLE); v->d = d; return v; }
static value *mk_bool(bool b) { value *v = mk(T_BOOL); v->b = b; return v; }
static value *mk_str(const char *s)
{
    value *v = mk(T_STR);
    v->len = strlen(s);
    v->chars = malloc(v->len + 1);
    memcpy(v->chars, s, v->len + 1);
    return v;
}
static value *cons(value *a, value *b) { value *v = mk(T_PAIR); v->car = a; v->cdr = b; return v; }

static void print(const value *v)
{
    switch (v->tag) {
    case T_NIL: printf("()"); break;
    case T_BOOL: printf(v->b ? "#t" : "#f"); break;
    case T_INT: printf("%ld", v->i); break;
    case T_DOUBLE: printf("%.6g", v->d); break;
    case T_STR: printf("\"%s\"", v->chars); break;
    case T_PAIR:
        printf("(");
        for (;;) {
            print(v->car);
            v = v->cdr;
            if (v->tag != T_PAIR)
                break;
            printf(" ");
        }
        if (v->tag != T_NIL) {
            printf(" . ");
            print(v);
        }
        printf(")");
        break;
    }
}

static bool equal(const value *a, const value *b)
{
    if (a->tag != b->tag)
        return false;
    switch (a->tag) {
    case T_NIL: return true;
    case T_BOOL: return a->b == b->b;
    case T_INT: return a->i == b->i;
    case T_DOUBLE: return a->d == b->d;
    case T_STR: return a->len == b->len && memcmp(a->chars, b->chars, a->len) == 0;
    case T_PAIR: return equal(a->car, b->car) && equal(a->cdr, b->cdr);
    }
    return false;
}

static double sum(const value *v)
{
    switch (v->tag) {
    case T_INT: return (double)v->i;
    case T_DOUBLE: return v->d;
    case T_PAIR: return sum(v->car) + sum(v->cdr);
    default: return 0.0;
    }
}

static void release(value *v)
{
    if (v->tag == T_STR)
        free(v->chars);
    if (v->tag == T_PAIR) {
        release(v->car);
        release(v->cdr);
    }
    free(v);
}

int main(void)
{
    value *list = cons(mk_int(1), cons(mk_double(2.5), cons(mk_str("three"),
                       cons(cons(mk_int(4), mk_int(5)), cons(mk_bool(true), mk(T_NIL))))));
    value *other = cons(mk_int(1), cons(mk_double(2.5), cons(mk_str("three"),
                        cons(cons(mk_int(4), mk_int(5)), cons(mk_bool(true), mk(T_NIL))))));
    print(list);
    printf("\nsum of numbers = %.6g\n", sum(list));
    printf("equal to copy: %d\n", equal(list, other));
    other->cdr->car->d = 2.25;
    printf("equal after change: %d\n", equal(list, other));
    printf("sizeof(value)=%zu tag offset=%zu\n", sizeof(value), (size_t)((char *)&list->tag - (char *)list));
    value *dotted = cons(mk_str("a"), mk_str("b"));
    print(dotted);
    printf("\n");
    release(list);
    release(other);
    release(dotted);
    return 0;
}
