struct vec { double x, y; };
double f(struct vec *v) {
    return v->z + v.x;
}
// ERROR 3:15: 'struct vec' has no member named 'z' [E0414]
// ERROR 3:21: request for member 'x' in something not a structure or union (type 'struct vec *') [E0419]
