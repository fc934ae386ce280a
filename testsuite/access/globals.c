// file-scope arrays and scalars in summaries
#define N 256
double grid[N];
int steps;
static double scale = 2.0;
void init(int n) {
  for (int i = 0; i < n; i++)
    grid[i] = i;
  steps = 0;
}
void step(int n) {
  for (int i = 1; i < n - 1; i++)
    grid[i] = scale * grid[i];
  steps++;
}
void run(int n) {
  init(n);
  for (int t = 0; t < 10; t++)
    step(n);
}
