// a pointer member of an array element names different memory per element: unknown base;
// a member array of a struct variable is a base of its own
struct row { int len; double *vals; };
struct grid { double cells[8][8]; };
void f(int n, struct row *rows, struct grid *g) {
  for (int i = 0; i < n; i++)
    rows[i].vals[0] = 1.0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      g->cells[i][j] = i * j;
}
