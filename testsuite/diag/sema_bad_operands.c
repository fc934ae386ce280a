struct point { int x, y; };
int f(struct point p) {
    return p * 2;
}
// ERROR 3:12: invalid operands to binary * (have 'struct point' and 'int') [E0427]
