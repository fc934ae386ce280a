/* Prints the C view of the ABI (constants, sizes, offsets) for tests/c_programs.rs to compare
 * with the Rust definitions. */
#include "ompcc_rt.h"
#include <stddef.h>
#include <stdio.h>

#define FIELD(T, f) printf(#T "." #f " %zu\n", offsetof(T, f))

int main(void) {
  printf("abi %u\n", OMPCC_RT_ABI_VERSION);
  printf("device_default %d\n", OMPCC_RT_DEVICE_DEFAULT);
  printf("device_initial %d\n", OMPCC_RT_DEVICE_INITIAL);
  printf("to %llu\n", (unsigned long long)OMPCC_RT_MAP_TO);
  printf("from %llu\n", (unsigned long long)OMPCC_RT_MAP_FROM);
  printf("always %llu\n", (unsigned long long)OMPCC_RT_MAP_ALWAYS);
  printf("delete %llu\n", (unsigned long long)OMPCC_RT_MAP_DELETE);
  printf("target_param %llu\n", (unsigned long long)OMPCC_RT_MAP_TARGET_PARAM);
  printf("literal %llu\n", (unsigned long long)OMPCC_RT_MAP_LITERAL);
  printf("implicit %llu\n", (unsigned long long)OMPCC_RT_MAP_IMPLICIT);
  printf("close %llu\n", (unsigned long long)OMPCC_RT_MAP_CLOSE);
  printf("present %llu\n", (unsigned long long)OMPCC_RT_MAP_PRESENT);
  printf("attach %llu\n", (unsigned long long)OMPCC_RT_MAP_ATTACH);
  printf("member_of_3 %llu\n", (unsigned long long)OMPCC_RT_MAP_MEMBER_OF(3));
  printf("sizeof.kernel %zu\n", sizeof(ompcc_rt_kernel_desc));
  printf("sizeof.global %zu\n", sizeof(ompcc_rt_global_desc));
  printf("sizeof.module %zu\n", sizeof(ompcc_rt_module_desc));
  printf("sizeof.entry %zu\n", sizeof(ompcc_rt_map_entry));
  printf("sizeof.launch %zu\n", sizeof(ompcc_rt_launch_args));
  FIELD(ompcc_rt_kernel_desc, num_params);
  FIELD(ompcc_rt_kernel_desc, param_sizes);
  FIELD(ompcc_rt_global_desc, host_addr);
  FIELD(ompcc_rt_global_desc, size);
  FIELD(ompcc_rt_module_desc, num_kernels);
  FIELD(ompcc_rt_module_desc, num_globals);
  FIELD(ompcc_rt_module_desc, name);
  FIELD(ompcc_rt_module_desc, ptx);
  FIELD(ompcc_rt_module_desc, ptx_size);
  FIELD(ompcc_rt_module_desc, kernels);
  FIELD(ompcc_rt_module_desc, globals);
  FIELD(ompcc_rt_map_entry, begin);
  FIELD(ompcc_rt_map_entry, size);
  FIELD(ompcc_rt_map_entry, flags);
  FIELD(ompcc_rt_map_entry, name);
  FIELD(ompcc_rt_map_entry, loc);
  FIELD(ompcc_rt_launch_args, kernel);
  FIELD(ompcc_rt_launch_args, device);
  FIELD(ompcc_rt_launch_args, num_entries);
  FIELD(ompcc_rt_launch_args, entries);
  FIELD(ompcc_rt_launch_args, num_teams);
  FIELD(ompcc_rt_launch_args, thread_limit);
  FIELD(ompcc_rt_launch_args, dyn_shared_bytes);
  FIELD(ompcc_rt_launch_args, loc);
  FIELD(ompcc_rt_launch_args, nest);
  return 0;
}
