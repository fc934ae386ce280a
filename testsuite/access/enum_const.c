// enumerators and sizeof in bounds and subscripts
enum { W = 8, H = 4 };
int img[H][W];
void f(void) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < (int)(sizeof img[0] / sizeof img[0][0]); x++)
      img[y][x] = W * y + x;
}
