void f(const char *s) {
    char *t = s;
    double *d = &t;
    int *p = 42;
    undeclared_function(p, d);
}
// WARNING 2:15: initialization discards qualifiers from pointer target type [W0404]
// WARNING 3:17: incompatible pointer types in initialization to 'double *' from 'char **' [W0403]
// WARNING 4:14: initialization makes pointer from integer without a cast [W0405]
// WARNING 5:5: implicit declaration of function 'undeclared_function' [W0408]
