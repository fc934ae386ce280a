void f(int a, int b) {
    (a + b) = 3;
    int *p = &(a * 2);
}
// ERROR 2:5: lvalue required as assignment [E0421]
// ERROR 3:14: lvalue required as unary '&' operand [E0423]
