int f(void) {
    const int limit = 10;
    limit = 20;
    return limit;
}
// ERROR 3:5: assignment of read-only variable 'limit' [E0422]
