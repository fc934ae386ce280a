int main(void) {
    int x = 1
    return x;
}
// ERROR 3:5: expected ';', found 'return' [E0101]
