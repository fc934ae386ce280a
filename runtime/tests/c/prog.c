/* Test program for libompcc_rt: each scenario (argv[1]) calls the C ABI the way generated
 * code would. argv[2] is the directory holding the PTX files. */
#include "ompcc_rt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int g_val = 41;
static const char *ptx_dir = ".";

static char *slurp(const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", ptx_dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  static char buf[3][1 << 16];
  static int next = 0;
  char *b = buf[next++ % 3];
  *len = fread(b, 1, sizeof buf[0] - 1, f);
  b[*len] = 0;
  fclose(f);
  return b;
}

static uint32_t requirements; /* of the modules reg() registers */

static int reg(const char *file, const ompcc_rt_kernel_desc *k, uint32_t nk,
               const ompcc_rt_global_desc *g, uint32_t ng) {
  ompcc_rt_module_desc d = {0};
  d.requirements = requirements;
  d.abi_version = OMPCC_RT_ABI_VERSION;
  d.name = file;
  d.ptx = slurp(file, &(size_t){0});
  d.ptx_size = strlen(d.ptx);
  d.kernels = k;
  d.num_kernels = nk;
  d.globals = g;
  d.num_globals = ng;
  return ompcc_rt_register_module(&d);
}

static const uint32_t k_params[] = {8, 4};
static const uint32_t one_ptr[] = {8};
static const ompcc_rt_kernel_desc inc_kernels[] = {{"k", 2, k_params}, {"bump_g", 0, NULL}};
static const ompcc_rt_global_desc inc_globals[] = {{"g_val", &g_val, sizeof g_val}};

static const uint32_t saxpy_params[] = {4, 4, 8, 8};
static const ompcc_rt_kernel_desc emu_kernels[] = {
    {"saxpy", 4, saxpy_params}, {"read_g", 1, one_ptr}, {"oob", 2, k_params}, {"spin", 0, NULL},
    {"hello", 0, NULL}};

static int launch(int m, uint32_t kernel, uint32_t n, const ompcc_rt_map_entry *e,
                  const char *loc) {
  ompcc_rt_launch_args a = {0};
  a.module = m;
  a.kernel = kernel;
  a.device = OMPCC_RT_DEVICE_DEFAULT;
  a.num_entries = n;
  a.entries = e;
  a.num_teams = 2;
  a.thread_limit = 4;
  a.loc = loc;
  return ompcc_rt_launch(&a);
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "devices";
  if (argc > 2) ptx_dir = argv[2];
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  ompcc_rt_map_entry e = {a, a, sizeof a, OMPCC_RT_MAP_TO | OMPCC_RT_MAP_FROM, "a[0:8]",
                          "prog.c:12:5"};
  if (!strcmp(s, "devices")) {
    printf("devices=%d initial=%d default=%d\n", omp_get_num_devices(),
           omp_get_initial_device(), omp_get_default_device());
  } else if (!strcmp(s, "data")) {
    ompcc_rt_map_entry to = e;
    to.flags = OMPCC_RT_MAP_TO;
    ompcc_rt_target_enter_data(OMPCC_RT_DEVICE_DEFAULT, 1, &to, "prog.c:20:1");
    a[0] = 100;
    ompcc_rt_map_entry up = e;
    up.flags = OMPCC_RT_MAP_FROM;
    ompcc_rt_target_update(OMPCC_RT_DEVICE_DEFAULT, 1, &up, "prog.c:22:1");
    ompcc_rt_target_exit_data(OMPCC_RT_DEVICE_DEFAULT, 1, &up, "prog.c:23:1");
    printf("a0=%d a7=%d\n", a[0], a[7]);
  } else if (!strcmp(s, "launch")) {
    int m = reg("inc.ptx", inc_kernels, 2, inc_globals, 1);
    int n = 8;
    ompcc_rt_map_entry args[2] = {e, {&n, &n, sizeof n, 0, "n", "prog.c:30:20"}};
    args[0].flags |= OMPCC_RT_MAP_TARGET_PARAM;
    args[1].flags = OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM;
    int ran = launch(m, 0, 2, args, "prog.c:30:9");
    if (!ran)
      for (int i = 0; i < n; i++) a[i] += 1; /* host fallback */
    printf("ran=%d a0=%d a7=%d\n", ran, a[0], a[7]);
  } else if (!strcmp(s, "usm")) {
    /* #pragma omp requires unified_shared_memory: the kernel gets a's host address */
    requirements = OMPCC_RT_REQUIRES_UNIFIED_ADDRESS | OMPCC_RT_REQUIRES_UNIFIED_SHARED_MEMORY;
    int m = reg("inc.ptx", inc_kernels, 2, inc_globals, 1);
    int n = 8;
    ompcc_rt_map_entry args[2] = {e, {&n, &n, sizeof n, 0, "n", "prog.c:35:20"}};
    args[0].flags = OMPCC_RT_MAP_TO | OMPCC_RT_MAP_TARGET_PARAM; /* no from: shared storage */
    args[1].flags = OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM;
    int ran = launch(m, 0, 2, args, "prog.c:35:9");
    if (!ran)
      for (int i = 0; i < n; i++) a[i] += 1;
    printf("ran=%d a0=%d a7=%d accessible=%d\n", ran, a[0], a[7],
           omp_target_is_accessible(a, sizeof a, omp_get_default_device()));
  } else if (!strcmp(s, "usm_alloc")) {
    /* under unified_shared_memory omp_target_alloc's storage is the host's too */
    requirements = OMPCC_RT_REQUIRES_UNIFIED_ADDRESS | OMPCC_RT_REQUIRES_UNIFIED_SHARED_MEMORY;
    int m = reg("inc.ptx", inc_kernels, 2, inc_globals, 1);
    int dev = omp_get_default_device();
    int *p = omp_target_alloc(8 * sizeof(int), dev);
    for (int i = 0; i < 8; i++) p[i] = i;
    int n = 8;
    ompcc_rt_map_entry args[2] = {
        {&p, &p, sizeof p, OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM, "p", "prog.c:70:20"},
        {&n, &n, sizeof n, OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM, "n", "prog.c:70:23"}};
    int ran = launch(m, 0, 2, args, "prog.c:70:9");
    if (!ran)
      for (int i = 0; i < n; i++) p[i] += 1;
    printf("ran=%d p0=%d p7=%d\n", ran, p[0], p[7]);
    omp_target_free(p, dev);
  } else if (!strcmp(s, "global")) {
    int m = reg("inc.ptx", inc_kernels, 2, inc_globals, 1);
    int ran = launch(m, 1, 0, NULL, "prog.c:40:9");
    if (!ran) g_val += 1;
    ompcc_rt_map_entry g = {&g_val, &g_val, sizeof g_val, OMPCC_RT_MAP_FROM, "g_val",
                            "prog.c:41:9"};
    ompcc_rt_target_update(OMPCC_RT_DEVICE_DEFAULT, 1, &g, "prog.c:41:9");
    printf("ran=%d g_val=%d present=%d\n", ran, g_val,
           omp_target_is_present(&g_val, omp_get_default_device()));
  } else if (!strcmp(s, "link")) {
    static const ompcc_rt_kernel_desc kc[] = {{"use_twice", 1, one_ptr}};
    int m = reg("caller.ptx", kc, 1, NULL, 0);
    reg("callee.ptx", NULL, 0, NULL, 0);
    a[0] = 21;
    e.flags |= OMPCC_RT_MAP_TARGET_PARAM;
    int ran = launch(m, 0, 1, &e, "prog.c:50:9");
    if (!ran) a[0] *= 2;
    printf("ran=%d a0=%d\n", ran, a[0]);
  } else if (!strcmp(s, "badptx")) {
    static const ompcc_rt_kernel_desc kb[] = {{"broken", 0, NULL}};
    int m = reg("bad.ptx", kb, 1, NULL, 0);
    int ran = launch(m, 0, 0, NULL, "prog.c:60:9");
    printf("ran=%d\n", ran);
  } else if (!strcmp(s, "nokernel")) {
    static const ompcc_rt_kernel_desc km[] = {{"missing", 0, NULL}};
    int m = reg("inc.ptx", km, 1, inc_globals, 1);
    int ran = launch(m, 0, 0, NULL, "prog.c:65:9");
    printf("ran=%d\n", ran);
  } else if (!strcmp(s, "overlap")) {
    ompcc_rt_map_entry first = e, second = e;
    first.size = 4 * sizeof(int);
    second.begin = a + 2;
    second.name = "a[2:4]";
    second.loc = "prog.c:71:30";
    ompcc_rt_target_enter_data(OMPCC_RT_DEVICE_DEFAULT, 1, &first, "prog.c:70:1");
    ompcc_rt_target_enter_data(OMPCC_RT_DEVICE_DEFAULT, 1, &second, "prog.c:71:1");
    printf("not reached\n");
  } else if (!strcmp(s, "saxpy") || !strcmp(s, "gread") || !strcmp(s, "oob") ||
             !strcmp(s, "spin") || !strcmp(s, "hello") || !strcmp(s, "oobinc")) {
    /* two translation units: inc.ptx defines g_val, emu.ptx declares it extern */
    int mi = reg("inc.ptx", inc_kernels, 2, inc_globals, 1);
    int m = reg("emu.ptx", emu_kernels, 5, NULL, 0);
    if (!strcmp(s, "saxpy")) {
      enum { N = 1000 };
      static float x[N], y[N];
      for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
      uint32_t n = N;
      float alpha = 2.0f;
      ompcc_rt_map_entry args[4] = {
          {&n, &n, sizeof n, OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM, "n", "prog.c:100:1"},
          {&alpha, &alpha, sizeof alpha, OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM, "a",
           "prog.c:100:1"},
          {x, x, sizeof x, OMPCC_RT_MAP_TO | OMPCC_RT_MAP_TARGET_PARAM, "x[0:n]", "prog.c:100:40"},
          {y, y, sizeof y, OMPCC_RT_MAP_TO | OMPCC_RT_MAP_FROM | OMPCC_RT_MAP_TARGET_PARAM,
           "y[0:n]", "prog.c:100:52"}};
      ompcc_rt_launch_args la = {0};
      la.module = m;
      la.kernel = 0;
      la.device = OMPCC_RT_DEVICE_DEFAULT;
      la.num_entries = 4;
      la.entries = args;
      la.num_teams = 4;
      la.thread_limit = 64;
      la.loc = "prog.c:100:1";
      int ran = ompcc_rt_launch(&la);
      if (!ran)
        for (int i = 0; i < N; i++) y[i] = alpha * x[i] + y[i];
      double sum = 0;
      for (int i = 0; i < N; i++) sum += y[i];
      printf("ran=%d x999=%g y0=%g y999=%g sum=%.0f\n", ran, x[N - 1], y[0], y[N - 1], sum);
    } else if (!strcmp(s, "gread")) {
      int out = -1;
      ompcc_rt_map_entry o = {&out, &out, sizeof out, OMPCC_RT_MAP_FROM | OMPCC_RT_MAP_TARGET_PARAM,
                              "out", "prog.c:110:30"};
      int ran = launch(m, 1, 1, &o, "prog.c:110:9");
      int before = ran ? out : g_val;
      g_val = 1234;
      ompcc_rt_map_entry g = {&g_val, &g_val, sizeof g_val, OMPCC_RT_MAP_TO, "g_val",
                              "prog.c:112:27"};
      ompcc_rt_target_update(OMPCC_RT_DEVICE_DEFAULT, 1, &g, "prog.c:112:9");
      ran = launch(m, 1, 1, &o, "prog.c:113:9");
      if (!ran) out = g_val;
      printf("ran=%d before=%d after=%d\n", ran, before, out);
    } else if (!strcmp(s, "hello")) {
      printf("host before\n");
      int ran = launch(m, 4, 0, NULL, "prog.c:135:9");
      printf("host after ran=%d\n", ran);
    } else if (!strcmp(s, "oobinc")) {
      /* k over n = 8 elements of a mapped a[0:4]: a fault in the first module */
      int n = 8;
      ompcc_rt_map_entry args[2] = {e, {&n, &n, sizeof n, 0, "n", "prog.c:125:20"}};
      args[0].size = 4 * sizeof(int);
      args[0].name = "a[0:4]";
      args[0].flags |= OMPCC_RT_MAP_TARGET_PARAM;
      args[1].flags = OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM;
      printf("ran=%d\n", launch(mi, 0, 2, args, "prog.c:125:9"));
    } else if (!strcmp(s, "spin")) {
      printf("ran=%d\n", launch(m, 3, 0, NULL, "prog.c:130:9"));
    } else {
      int n = 8;
      ompcc_rt_map_entry args[2] = {e, {&n, &n, sizeof n, 0, "n", "prog.c:120:20"}};
      args[0].flags |= OMPCC_RT_MAP_TARGET_PARAM;
      args[1].flags = OMPCC_RT_MAP_LITERAL | OMPCC_RT_MAP_TARGET_PARAM;
      int ran = launch(m, 2, 2, args, "prog.c:120:9");
      printf("ran=%d\n", ran);
    }
  } else if (!strcmp(s, "unresolved")) {
    /* emu.ptx alone: its extern g_val has no definition */
    int m = reg("emu.ptx", emu_kernels, 5, NULL, 0);
    int out = 0;
    ompcc_rt_map_entry o = {&out, &out, sizeof out, OMPCC_RT_MAP_FROM | OMPCC_RT_MAP_TARGET_PARAM,
                            "out", "prog.c:140:30"};
    printf("ran=%d\n", launch(m, 1, 1, &o, "prog.c:140:9"));
  } else if (!strcmp(s, "bandwidth")) {
    size_t n = (size_t)256 << 20;
    char *big = malloc(n);
    memset(big, 1, n);
    ompcc_rt_map_entry b = {big, big, n, OMPCC_RT_MAP_TO | OMPCC_RT_MAP_FROM, "big", "prog.c:80:1"};
    for (int i = 0; i < 4; i++) {
      ompcc_rt_target_enter_data(OMPCC_RT_DEVICE_DEFAULT, 1, &b, "prog.c:81:1");
      ompcc_rt_target_exit_data(OMPCC_RT_DEVICE_DEFAULT, 1, &b, "prog.c:82:1");
    }
    printf("big=%d\n", big[n - 1]);
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    return 2;
  }
  return 0;
}
