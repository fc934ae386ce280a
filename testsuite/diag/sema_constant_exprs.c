int f(void);
int table[-2];
int g = f();
_Static_assert(sizeof(long) == 4, "long is 32-bit");
struct bits { unsigned char c : 9; };
// ERROR 2:11: size of array is negative [E0308]
// ERROR 3:9: initializer element is not constant [E0347]
// ERROR 4:1: static assertion failed: "long is 32-bit" [E0319]
// ERROR 5:29: width of bit-field (9) exceeds its type (8 bits) [E0324]
