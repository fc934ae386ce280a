int f(void) {
    return count + 1;
}
// ERROR 2:12: 'count' undeclared [E0410]
