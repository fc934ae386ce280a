// pointer members as bases, and fields of elements
struct vec { int n; double *p; };
struct pt { double x, y; };
void members(struct vec v, struct vec *w, struct pt *pts, int n) {
  for (int i = 0; i < n; i++) {
    v.p[i] = w->p[i] * 2.0;
    pts[i].x = pts[i].y;
  }
}
