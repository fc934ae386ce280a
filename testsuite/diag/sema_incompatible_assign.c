struct a { int x; };
struct b { int x; };
void f(struct a *pa, struct b vb) {
    *pa = vb;
    int *ip = 3;
    (void)ip;
}
// ERROR 4:11: incompatible types when assignment to type 'struct a' from type 'struct b' [E0428]
// WARNING 5:15: initialization makes pointer from integer without a cast [W0405]
