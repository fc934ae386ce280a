int f(int a) {
    if (a) {
        return 1;
// ERROR 3:18: expected '}', found end of file [E0101]
