struct point { int x; unsigned flag : 1; double w; };
typedef struct point point_t;
enum mode { OFF, ON = 3 };
static const char greeting[] = "hi";
int table[4] = { [1] = 2, 3 };

static double scale(const point_t *p, float k) {
    return p->x * k + p->w;
}

int run(int n, double (*grid)[n]) {
    point_t pt = { .x = 1, .w = 2.5 };
    unsigned short us = 7;
    long acc = 0;
    acc += us << 2;
    pt.flag = ON;
    for (int i = 0; i < n; i++) {
        grid[i][0] = scale(&pt, 0.5f) + table[i & 3];
    }
#pragma omp target teams distribute parallel for map(tofrom: grid[0:n][0:n])
    for (int i = 0; i < n; i++)
        grid[i][i] *= 2;
    return (int)acc + (greeting[0] == 'h') + sizeof(point_t);
}
