//! Device selection under MPI: without `OMP_DEFAULT_DEVICE`, each rank's default device is
//! its local rank modulo the number of devices (one rank per GPU needs no setup); the
//! variable, or `omp_set_default_device`, wins over it.

use ompcc_rt::Runtime;
use ompcc_rt::backend::Backend;
use ompcc_rt::backend::sim::SimBackend;
use ompcc_rt::options::Options;

fn runtime(local_rank: Option<u32>, env_default: Option<i32>, devices: usize) -> Runtime {
    let options = Options {
        local_rank,
        default_device: env_default.unwrap_or(0),
        default_device_set: env_default.is_some(),
        ..Options::default()
    };
    let backends: Vec<Box<dyn Backend>> = (0..devices)
        .map(|_| Box::new(SimBackend::new()) as Box<dyn Backend>)
        .collect();
    Runtime::new(options, Some(backends))
}

#[test]
fn each_rank_takes_local_rank_mod_devices() {
    assert_eq!(runtime(Some(3), None, 2).default_device(), 1);
    assert_eq!(runtime(Some(2), None, 2).default_device(), 0);
    assert_eq!(runtime(Some(5), None, 4).default_device(), 1);
    assert_eq!(runtime(Some(1), None, 1).default_device(), 0);
    // Not under MPI: device 0, as before.
    assert_eq!(runtime(None, None, 2).default_device(), 0);
}

#[test]
fn omp_default_device_and_the_api_win_over_the_rank() {
    assert_eq!(runtime(Some(3), Some(0), 2).default_device(), 0);
    let mut rt = runtime(Some(3), None, 2);
    rt.set_default_device(0);
    assert_eq!(rt.default_device(), 0);
    assert_eq!(rt.num_devices(), 2);
    assert_eq!(rt.default_device(), 0);
}
