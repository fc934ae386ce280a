//! Target regions outlined into kernels, assembled by ptxas and run on the emulator; every
//! result is compared with the same computation done on the host.

#[path = "common/offload.rs"]
mod harness;

use harness::*;
use ompcc_omp::{ExecMode, Pass};

#[test]
fn saxpy_spmd() {
    let c = compile(
        "void saxpy(int n, float a, float *x, float *y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}",
    );
    assert_eq!(c.regions[0].mode, ExecMode::Spmd);
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let mut e = Emu::new(&c);
    let (dx, dy) = (e.buf(&x), e.buf(&y));
    e.launch(
        0,
        4,
        64,
        &[
            ("n", int(n)),
            ("a", float(2.5)),
            ("x", Arg::Buf(dx)),
            ("y", Arg::Buf(dy)),
        ],
    );
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| 2.5 * x + y).collect();
    assert_eq!(e.get::<f32>(dy, n as usize), want);
}
