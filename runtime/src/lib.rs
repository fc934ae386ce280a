//! libompcc_rt: the runtime that generated code calls to map data and launch kernels.
