//! The `ompcc` command: a drop-in replacement for `cc` that offloads OpenMP regions to GPUs.

fn main() {
    std::process::exit(0);
}
