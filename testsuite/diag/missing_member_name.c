struct S { int a; };
int f(struct S *s) { return s->; }
// ERROR 2:32: expected identifier or type name, found ';' [E0101]
