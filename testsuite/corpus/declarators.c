/* Hard declarators and pointer arithmetic: pointers to arrays and functions, functions
 * returning function pointers, arrays of function pointers, typedef shadowing, const at every
 * level, multi-dimensional indexing, pointer differences, the comma and conditional operators. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

typedef int T;

static int add1(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int neg(int x) { return -x; }

/* a function taking a char and returning a pointer to a function from int to int */
static int (*pick(char c))(int)
{
    return c == 'a' ? add1 : c == 'd' ? dbl : neg;
}

/* pointer to an array of 3 pointers to functions from int to int */
static int (*(*table_ptr(void))[3])(int)
{
    static int (*table[3])(int) = {add1, dbl, neg};
    return &table;
}

static int apply_all(int (*const fs[])(int), size_t n, int x)
{
    for (size_t i = 0; i < n; i++)
        x = fs[i](x);
    return x;
}

static int sum_rows(int rows, const int (*m)[4])
{
    int s = 0;
    for (const int (*r)[4] = m; r < m + rows; r++)
        for (const int *p = *r; p < *r + 4; p++)
            s += *p;
    return s;
}

int main(void)
{
    int grid[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            grid[i][j] = i * 4 + j;
    int (*row)[4] = grid + 1;
    int *flat = &grid[0][0];
    printf("row[1][2]=%d flat[9]=%d *(*(grid+2)+3)=%d 2[flat]=%d\n", row[1][2], flat[9], *(*(grid + 2) + 3), 2 [flat]);
    printf("sizeof grid=%zu *grid=%zu **grid=%zu row=%zu *row=%zu\n", sizeof grid, sizeof *grid, sizeof **grid,
           sizeof row, sizeof *row);
    ptrdiff_t d = &grid[2][1] - &grid[0][3];
    printf("element distance=%td, row distance=%td\n", d, (grid + 2) - row);
    printf("sum_rows=%d\n", sum_rows(3, (const int (*)[4])grid));

    printf("pick: %d %d %d\n", pick('a')(10), pick('d')(10), pick('n')(10));
    int (*(*tp)[3])(int) = table_ptr();
    printf("table: %d %d %d, apply_all=%d\n", (*tp)[0](5), (*tp)[1](5), (*tp)[2](5), apply_all(*tp, 3, 5));

    {
        typedef double T; /* shadows the file-scope T */
        T x = 2.5;
        printf("inner T is double: %.6g (sizeof %zu)\n", x, sizeof(T));
    }
    T y = 7;
    printf("outer T is int: %d (sizeof %zu)\n", y, sizeof(T));

    const char *const names[] = {"zero", "one", "two"};
    const char *const *pn = names;
    char buf[] = "mutable";
    char *const fixed = buf;
    fixed[0] = 'M';
    printf("names[2]=%s pn[1]=%s fixed=%s\n", names[2], pn[1], fixed);

    int a = 1, b = 2;
    int c = (a++, b += a, a + b);
    int *which = a > b ? &a : &b;
    *which = 100;
    printf("comma: a=%d b=%d c=%d\n", a, b, c);
    (a < b ? a : b) == 2 ? printf("conditional picks a\n") : printf("conditional picks b\n");

    void *vp = buf;
    unsigned char *bytes = vp;
    int (*fp)(int) = &add1; /* & on a function name is optional */
    int (*fp2)(int) = *add1;
    printf("bytes[1]=%c fp(1)=%d (*fp2)(1)=%d (**fp)(2)=%d\n", bytes[1], fp(1), (*fp2)(1), (**fp)(2));
    char s[3][8] = {"ab", "cde", "f"};
    char (*ps)[8] = s;
    printf("strings: %s %s %s, strlen(ps[1])=%zu\n", ps[0], ps[1], ps[2], strlen(ps[1]));
    return 0;
}
