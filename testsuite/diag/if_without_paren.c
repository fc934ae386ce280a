int f(int a) {
    if a > 0) return 1;
    return 0;
}
// ERROR 2:8: expected '(', found identifier [E0101]
