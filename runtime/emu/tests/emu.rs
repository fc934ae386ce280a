//! Emulator tests: each runs a hand-written PTX file from tests/ptx and checks results,
//! counters or the error message.

mod common;

use common::{Env, p};
use ompcc_emu::{EmuError, InstClass};

fn saxpy_host(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(x, y)| x.mul_add(a, *y)).collect()
}

#[test]
fn saxpy_small_with_tail() {
    let mut e = Env::new("saxpy");
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let (dx, dy) = (e.upload(&x), e.upload(&y));
    let st = e.run("saxpy", 4, 256, &[&(n as u32).to_le_bytes(), &2.5f32.to_le_bytes(), &p(dx), &p(dy)]);
    assert_eq!(e.download::<f32>(dy, n), saxpy_host(2.5, &x, &y));
    // 1024 threads: 24 out-of-range threads skip the body
    assert_eq!(st.threads, 1024);
    assert_eq!(st.blocks, 4);
    // 32 warps with work, 2 loads + 1 store each; a full warp touches 128 contiguous bytes
    // = 4 sectors, the last warp has 8 active lanes = 1 sector
    assert_eq!(st.global_requests, 96);
    assert_eq!(st.global_sectors, 31 * 3 * 4 + 3);
    assert!(st.thread(InstClass::Float) == n as u64);
}
