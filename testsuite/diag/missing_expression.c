int f(int a) {
    return a + ;
}
// ERROR 2:16: expected expression, found ';' [E0101]
