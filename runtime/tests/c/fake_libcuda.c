/* A fake CUDA driver for tests: the driver-API entry points libompcc_rt uses, over host
 * memory, with the test kernels of inc.ptx / caller.ptx+callee.ptx emulated in C. It checks
 * every device range against its allocations, so a host pointer passed as a device pointer
 * fails with CUDA_ERROR_INVALID_VALUE. Environment: FAKE_CUDA_NO_DEVICE=1 makes cuInit fail
 * with CUDA_ERROR_NO_DEVICE; FAKE_CUDA_TRACE=1 prints launches to stderr; FAKE_CUDA_PAGEABLE=1
 * reports CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS (88) and lets kernels use host pointers,
 * as HMM does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;
enum { OK = 0, INVALID_VALUE = 1, NO_DEVICE = 100, INVALID_PTX = 218, NOT_FOUND = 500 };

struct alloc { CUdeviceptr addr; size_t size; unsigned char *mem; };
static struct alloc allocs[1024];
static int nallocs;
static CUdeviceptr next_addr = 0x7e0000000000ull;

struct module { char *text; CUdeviceptr g_val; };
struct function { struct module *m; char name[64]; };
struct link { char *text; char *errlog; size_t errsize; char *cubin; };

static unsigned char *dev(CUdeviceptr p, size_t n) {
  for (int i = 0; i < nallocs; i++)
    if (allocs[i].mem && p >= allocs[i].addr && p + n <= allocs[i].addr + allocs[i].size)
      return allocs[i].mem + (p - allocs[i].addr);
  return NULL;
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  const char *e = getenv("FAKE_CUDA_NO_DEVICE");
  return e && *e == '1' ? NO_DEVICE : OK;
}
CUresult cuDriverGetVersion(int *v) { *v = 12080; return OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return OK; }
CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return ordinal == 0 ? OK : INVALID_VALUE; }
CUresult cuDeviceGetName(char *name, int len, int d) {
  (void)d;
  snprintf(name, (size_t)len, "Fake GPU");
  return OK;
}
static int pageable(void) {
  const char *e = getenv("FAKE_CUDA_PAGEABLE");
  return e && *e == '1';
}
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  *v = attr == 75 ? 9 : attr == 76 ? 0 : attr == 16 ? 3 : attr == 88 ? pageable() : 0;
  return OK;
}
/* What a kernel reaches at p: device memory, or host memory when pageable access is on. */
static unsigned char *kernel_mem(CUdeviceptr p, size_t n) {
  unsigned char *m = dev(p, n);
  return m ? m : pageable() && p ? (unsigned char *)(uintptr_t)p : NULL;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) { (void)d; *ctx = (void *)0x1; return OK; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx ? OK : INVALID_VALUE; }
CUresult cuCtxSynchronize(void) { return OK; }

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
  if (nallocs == 1024) return 2;
  const char *trace = getenv("FAKE_CUDA_TRACE");
  if (trace && *trace == '1') fprintf(stderr, "fake-cuda: cuMemAlloc %zu\n", n);
  allocs[nallocs].mem = calloc(1, n ? n : 1);
  allocs[nallocs].addr = next_addr;
  allocs[nallocs].size = n;
  *p = next_addr;
  next_addr += (n + 511) / 256 * 256;
  nallocs++;
  return OK;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  for (int i = 0; i < nallocs; i++)
    if (allocs[i].mem && allocs[i].addr == p) {
      free(allocs[i].mem);
      allocs[i].mem = NULL;
      return OK;
    }
  return INVALID_VALUE;
}
/* Managed memory is one address for the host and the device: host memory, registered as an
 * allocation at its own address. */
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) {
  if (nallocs == 1024 || flags != 1) return INVALID_VALUE;
  const char *trace = getenv("FAKE_CUDA_TRACE");
  if (trace && *trace == '1') fprintf(stderr, "fake-cuda: cuMemAllocManaged %zu\n", n);
  unsigned char *m = calloc(1, n ? n : 1);
  if (!m) return 2;
  allocs[nallocs].mem = m;
  allocs[nallocs].addr = (CUdeviceptr)(uintptr_t)m;
  allocs[nallocs].size = n;
  *p = allocs[nallocs].addr;
  nallocs++;
  return OK;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n) {
  const char *trace = getenv("FAKE_CUDA_TRACE");
  if (trace && *trace == '1') fprintf(stderr, "fake-cuda: cuMemcpyHtoD %zu\n", n);
  unsigned char *m = dev(d, n);
  if (!m) return INVALID_VALUE;
  memcpy(m, h, n);
  return OK;
}
CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n) {
  unsigned char *m = dev(d, n);
  if (!m) return INVALID_VALUE;
  memcpy(h, m, n);
  return OK;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) {
  unsigned char *a = dev(d, n), *b = dev(s, n);
  if (!a || !b) return INVALID_VALUE;
  memmove(a, b, n);
  return OK;
}
CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags) {
  (void)flags;
  *p = malloc(n);
  return *p ? OK : 2;
}

/* Writes the JIT error log into the caller's buffer (options 5 and 6). */
static void jit_error(unsigned n, int *opts, void **vals, const char *msg) {
  char *buf = NULL;
  size_t size = 0;
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == 5) buf = vals[i];
    if (opts[i] == 6) size = (size_t)vals[i];
  }
  if (buf && size) snprintf(buf, size, "%s", msg);
}

static CUresult load(void **mod, const char *text, unsigned n, int *opts, void **vals) {
  if (strstr(text, "mov.u32 %r1")) { /* bad.ptx uses an undeclared register */
    jit_error(n, opts, vals, "ptxas application ptx input, line 6; error   : Unknown symbol '%r1'");
    return INVALID_PTX;
  }
  if (strstr(text, ".extern .func") && !strstr(text, ".visible .func")) {
    jit_error(n, opts, vals, "ptxas fatal   : Unresolved extern function 'twice'");
    return INVALID_PTX;
  }
  struct module *m = calloc(1, sizeof *m);
  m->text = strdup(text);
  if (strstr(text, "g_val")) {
    cuMemAlloc_v2(&m->g_val, 4);
    int init = 41;
    cuMemcpyHtoD_v2(m->g_val, &init, 4);
  }
  *mod = m;
  return OK;
}
CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *opts, void **vals) {
  return load(mod, image, n, opts, vals);
}
CUresult cuModuleLoadData(void **mod, const void *image) { return load(mod, image, 0, NULL, NULL); }
CUresult cuModuleGetFunction(void **f, void *mod, const char *name) {
  struct module *m = mod;
  char needle[96];
  snprintf(needle, sizeof needle, ".entry %s(", name);
  if (!strstr(m->text, needle)) return NOT_FOUND;
  struct function *fn = calloc(1, sizeof *fn);
  fn->m = m;
  snprintf(fn->name, sizeof fn->name, "%s", name);
  *f = fn;
  return OK;
}
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *size, void *mod, const char *name) {
  struct module *m = mod;
  if (strcmp(name, "g_val") || !m->g_val) return NOT_FOUND;
  *p = m->g_val;
  *size = 4;
  return OK;
}

CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, void **state) {
  struct link *l = calloc(1, sizeof *l);
  l->text = strdup("");
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == 5) l->errlog = vals[i];
    if (opts[i] == 6) l->errsize = (size_t)vals[i];
  }
  *state = l;
  return OK;
}
CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name,
                          unsigned n, int *opts, void **vals) {
  (void)n; (void)opts; (void)vals; (void)name;
  struct link *l = state;
  if (type != 1 || ((char *)data)[size - 1] != 0) return INVALID_VALUE; /* PTX, NUL counted */
  size_t old = strlen(l->text);
  l->text = realloc(l->text, old + size + 1);
  memcpy(l->text + old, data, size);
  return OK;
}
CUresult cuLinkComplete(void *state, void **cubin, size_t *size) {
  struct link *l = state;
  l->cubin = strdup(l->text);
  *cubin = l->cubin;
  *size = strlen(l->cubin) + 1;
  return OK;
}
CUresult cuLinkDestroy(void *state) {
  struct link *l = state;
  free(l->text);
  free(l->cubin);
  free(l);
  return OK;
}

/* FAKE_CUDA_MAX_THREADS plays a kernel whose registers allow fewer than 1024 threads. */
static int max_threads(void) {
  const char *e = getenv("FAKE_CUDA_MAX_THREADS");
  return e && *e ? atoi(e) : 1024;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *f) {
  (void)f;
  if (attr != 0) return INVALID_VALUE; /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK only */
  *v = max_threads();
  return OK;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
  (void)stream; (void)extra;
  struct function *fn = f;
  const char *trace = getenv("FAKE_CUDA_TRACE");
  if (trace && *trace == '1')
    fprintf(stderr, "fake-cuda: launch %s grid=%ux%ux%u block=%ux%ux%u shared=%u\n", fn->name,
            gx, gy, gz, bx, by, bz, shared);
  if (bx * by * bz > (unsigned)max_threads()) return 701; /* LAUNCH_OUT_OF_RESOURCES */
  if (!strcmp(fn->name, "k")) {
    CUdeviceptr a = *(CUdeviceptr *)params[0];
    unsigned n = *(unsigned *)params[1];
    int *p = (int *)kernel_mem(a, 4ull * n);
    if (!p) return 719; /* CUDA_ERROR_LAUNCH_FAILED */
    for (unsigned i = 0; i < n; i++) p[i] += 1; /* a grid-stride loop, as ompcc's kernels */
  } else if (!strcmp(fn->name, "bump_g")) {
    *(int *)dev(fn->m->g_val, 4) += 1;
  } else if (!strcmp(fn->name, "use_twice")) {
    int *p = (int *)dev(*(CUdeviceptr *)params[0], 4);
    if (!p) return 719;
    *p *= 2;
  }
  return OK;
}

static const char *names[][2] = {
    {"CUDA_SUCCESS", "no error"},
    {"CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {"CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {"CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {"CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {"CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};
static int index_of(CUresult r) {
  switch (r) {
  case OK: return 0;
  case INVALID_VALUE: return 1;
  case NO_DEVICE: return 2;
  case INVALID_PTX: return 3;
  case NOT_FOUND: return 4;
  case 719: return 5;
  default: return -1;
  }
}
CUresult cuGetErrorName(CUresult r, const char **s) {
  int i = index_of(r);
  if (i < 0) return INVALID_VALUE;
  *s = names[i][0];
  return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  int i = index_of(r);
  if (i < 0) return INVALID_VALUE;
  *s = names[i][1];
  return OK;
}
