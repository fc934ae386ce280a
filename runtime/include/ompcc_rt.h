/* ompcc_rt.h: the C ABI of libompcc_rt, called by code that ompcc generates.
 *
 * Every entry point is synchronous. On an error (a mapping rule broken, a device failure)
 * the runtime prints "ompcc-rt: error: FILE:LINE:COL: message" and exits with status 1, so
 * generated code need not check return values. Source locations are "file:line:col" strings
 * and names are the list items as written; both may be NULL.
 *
 * Link order: libompcc_rt.a must come BEFORE -lgomp (which cc -fopenmp appends last), so
 * that the omp_* device-API functions below resolve to this runtime and not to libgomp's
 * no-device versions.
 */
#ifndef OMPCC_RT_H
#define OMPCC_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OMPCC_RT_ABI_VERSION 2u

/* device argument: the default device (default-device-var, OMP_DEFAULT_DEVICE) */
#define OMPCC_RT_DEVICE_DEFAULT (-100)
/* device argument: the host (omp_initial_device) */
#define OMPCC_RT_DEVICE_INITIAL (-1)

/* ompcc_rt_module_desc.requirements: the unit's `#pragma omp requires` clauses */
#define OMPCC_RT_REQUIRES_UNIFIED_ADDRESS       (1u << 0)
#define OMPCC_RT_REQUIRES_UNIFIED_SHARED_MEMORY (1u << 1) /* maps are zero-copy */

/* ompcc_rt_map_entry.flags */
#define OMPCC_RT_MAP_TO           (1ull << 0) /* copy host->device on creation (or always) */
#define OMPCC_RT_MAP_FROM         (1ull << 1) /* copy device->host on removal (or always) */
#define OMPCC_RT_MAP_ALWAYS       (1ull << 2) /* always modifier */
#define OMPCC_RT_MAP_DELETE       (1ull << 3) /* delete map type (exit data) */
#define OMPCC_RT_MAP_TARGET_PARAM (1ull << 4) /* next kernel parameter: device address of base */
#define OMPCC_RT_MAP_LITERAL      (1ull << 5) /* by value: parameter = size bytes at begin */
#define OMPCC_RT_MAP_IMPLICIT     (1ull << 6) /* no map clause was written (logs only) */
#define OMPCC_RT_MAP_CLOSE        (1ull << 7) /* close modifier (hint, ignored) */
#define OMPCC_RT_MAP_PRESENT      (1ull << 8) /* present modifier: error if absent */
#define OMPCC_RT_MAP_ATTACH       (1ull << 9) /* pointer attachment: base = &ptr, begin = pointee */
/* struct member of entry PARENT (0-based index of an earlier entry in the same array) */
#define OMPCC_RT_MAP_MEMBER_OF(parent) (((uint64_t)(parent) + 1u) << 48)

typedef struct ompcc_rt_kernel_desc {
  const char *name;           /* PTX .entry name; NAME_one: NAME's one-iteration variant */
  uint32_t num_params;
  const uint32_t *param_sizes; /* bytes per .param (pointers: 8) */
} ompcc_rt_kernel_desc;

typedef struct ompcc_rt_global_desc {
  const char *name; /* PTX name of the declare-target variable */
  void *host_addr;  /* its host copy */
  uint64_t size;
} ompcc_rt_global_desc;

typedef struct ompcc_rt_module_desc {
  uint32_t abi_version; /* OMPCC_RT_ABI_VERSION */
  uint32_t num_kernels;
  uint32_t num_globals;
  uint32_t requirements; /* OMPCC_RT_REQUIRES_* bits of the unit's #pragma omp requires */
  const char *name;     /* source file */
  const char *ptx;      /* PTX text, ptx_size bytes (NUL not required) */
  uint64_t ptx_size;
  const ompcc_rt_kernel_desc *kernels;
  const ompcc_rt_global_desc *globals;
} ompcc_rt_module_desc;

typedef struct ompcc_rt_map_entry {
  void *base;       /* kernel parameter source (array/pointer value); for ATTACH: &pointer */
  void *begin;      /* first byte of the list item */
  uint64_t size;    /* bytes; 0 = zero-length array section (look up, never map) */
  uint64_t flags;   /* OMPCC_RT_MAP_* */
  const char *name; /* list item as written, e.g. "a[0:n]" */
  const char *loc;  /* "file:line:col" of the clause */
} ompcc_rt_map_entry;

typedef struct ompcc_rt_launch_args {
  int32_t module;       /* from ompcc_rt_register_module */
  uint32_t kernel;      /* index in the module's kernel table */
  int32_t device;       /* device clause or OMPCC_RT_DEVICE_DEFAULT */
  uint32_t num_entries;
  const ompcc_rt_map_entry *entries; /* TARGET_PARAM entries are the parameters, in order */
  uint32_t num_teams;   /* 0: runtime picks */
  uint32_t thread_limit; /* 0: runtime picks */
  uint32_t dyn_shared_bytes;
  uint32_t iterations;  /* of the loop nest the league shares, saturated; 0: unknown */
  const char *loc;      /* "file:line:col" of the target construct */
  uint32_t nest[3];     /* trip counts of a 2- or 3-loop collapsed nest, innermost first,
                         * saturated, whose NAME_one runs on a grid of as many dimensions
                         * (1 for an absent third loop); all 0 otherwise (ABI 2) */
} ompcc_rt_launch_args;

/* Registers one translation unit's device code (call from a constructor). Returns the
 * module id. Globals become present on every device with an infinite reference count. */
int32_t ompcc_rt_register_module(const ompcc_rt_module_desc *desc);

/* target data: begin and end take the same entries. Return 0. */
int32_t ompcc_rt_target_data_begin(int32_t device, uint32_t n, const ompcc_rt_map_entry *e,
                                   const char *loc);
int32_t ompcc_rt_target_data_end(int32_t device, uint32_t n, const ompcc_rt_map_entry *e,
                                 const char *loc);
/* target enter data / target exit data (release or DELETE). Return 0. */
int32_t ompcc_rt_target_enter_data(int32_t device, uint32_t n, const ompcc_rt_map_entry *e,
                                   const char *loc);
int32_t ompcc_rt_target_exit_data(int32_t device, uint32_t n, const ompcc_rt_map_entry *e,
                                  const char *loc);
/* target update: entries with TO copy host->device, FROM device->host; absent items are
 * skipped unless PRESENT. Returns 0. */
int32_t ompcc_rt_target_update(int32_t device, uint32_t n, const ompcc_rt_map_entry *e,
                               const char *loc);
/* target update of a discontiguous section: e describes its first row (begin, bytes), counts
 * and strides (bytes) the dims dimensions above the rows, outermost first; each row moves
 * like one entry of ompcc_rt_target_update, nothing between rows moves. Returns 0. */
int32_t ompcc_rt_target_update_strided(int32_t device, const ompcc_rt_map_entry *e,
                                       uint32_t dims, const uint64_t *counts,
                                       const uint64_t *strides, const char *loc);
/* use_device_ptr / use_device_addr: device address of host, or host if not mapped. */
void *ompcc_rt_use_device_ptr(int32_t device, void *host, const char *name, const char *loc);
/* num_teams / thread_limit / num_threads value for ompcc_rt_launch_args: a non-positive
 * value is ignored (returns 0, the runtime picks) with one warning per loc; larger than
 * UINT32_MAX saturates. */
uint32_t ompcc_rt_clause_count(long long value, const char *clause, const char *loc);
/* omp_target_free called at loc: ompcc rewrites the calls in the units it compiles to this,
 * so that freeing what omp_target_alloc did not return (or freeing twice) names the line. */
void ompcc_rt_target_free_at(void *device_ptr, int device_num, const char *loc);
/* target: maps, launches, unmaps. Returns 1 if the kernel ran on a device, 0 if the caller
 * must run the host fallback (no device, device(initial), OMP_TARGET_OFFLOAD=DISABLED). */
int32_t ompcc_rt_launch(const ompcc_rt_launch_args *args);

/* The OpenMP device API, host side (defined by this runtime; see the link order above). */
int omp_get_num_devices(void);
int omp_get_default_device(void);
void omp_set_default_device(int device_num);
int omp_get_initial_device(void);
int omp_is_initial_device(void);
int omp_get_device_num(void);
void *omp_target_alloc(size_t size, int device_num);
void omp_target_free(void *device_ptr, int device_num);
int omp_target_is_present(const void *ptr, int device_num);
int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                      size_t src_offset, int dst_device_num, int src_device_num);
int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                           const size_t *volume, const size_t *dst_offsets,
                           const size_t *src_offsets, const size_t *dst_dimensions,
                           const size_t *src_dimensions, int dst_device_num,
                           int src_device_num);
int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                             size_t device_offset, int device_num);
int omp_target_disassociate_ptr(const void *ptr, int device_num);

/* OpenMP 5.1/5.2 routines libgomp 12 lacks. The depend objects are gcc's omp_depend_t (two
 * words: the address, then the dependence kind). The _async copies are tasks that depend on
 * them; GOMP_task, GOMP_taskloop and GOMP_taskloop_ull are defined here too (forwarded to
 * libgomp) so that omp_in_explicit_task knows which tasks are explicit. */
struct omp_depend_t;
int omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset,
                            size_t src_offset, int dst_device_num, int src_device_num,
                            int depobj_count, struct omp_depend_t *depobj_list);
int omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size, int num_dims,
                                 const size_t *volume, const size_t *dst_offsets,
                                 const size_t *src_offsets, const size_t *dst_dimensions,
                                 const size_t *src_dimensions, int dst_device_num,
                                 int src_device_num, int depobj_count,
                                 struct omp_depend_t *depobj_list);
void *omp_get_mapped_ptr(const void *ptr, int device_num);
int omp_target_is_accessible(const void *ptr, size_t size, int device_num);
int omp_in_explicit_task(void);

#ifdef __cplusplus
}
#endif
#endif /* OMPCC_RT_H */
