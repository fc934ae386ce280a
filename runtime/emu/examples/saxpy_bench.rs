//! Measures emulator speed: saxpy over N elements (default 1M; `saxpy_bench N`), printing
//! wall time and thread-level instructions per second. Run with `--release`.

use std::time::Instant;

use ompcc_emu::{Device, Module};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: u32 = std::env::args().nth(1).map_or(Ok(1 << 20), |s| s.parse())?;
    let module = Module::parse(include_str!("../tests/ptx/saxpy.ptx"))?;
    let mut dev = Device::new();
    let m = dev.load(&module)?;
    let x: Vec<u8> = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let y: Vec<u8> = (0..n)
        .flat_map(|i| (1.0 - i as f32).to_le_bytes())
        .collect();
    let dx = dev.alloc(x.len() as u64)?;
    let dy = dev.alloc(y.len() as u64)?;
    dev.copy_to_device(dx, &x)?;
    dev.copy_to_device(dy, &y)?;
    let start = Instant::now();
    let st = dev.launch(
        &m,
        "saxpy",
        [n.div_ceil(256), 1, 1],
        [256, 1, 1],
        0,
        &[
            &n.to_le_bytes(),
            &2.0f32.to_le_bytes(),
            &dx.0.to_le_bytes(),
            &dy.0.to_le_bytes(),
        ],
    )?;
    let secs = start.elapsed().as_secs_f64();
    let insts = st.total_thread_insts();
    println!(
        "saxpy n={n}: {secs:.3} s, {insts} thread instructions ({} warp), {:.1} M thread-inst/s, {} sectors / {} requests",
        st.total_warp_insts(),
        insts as f64 / secs / 1e6,
        st.global_sectors,
        st.global_requests
    );
    Ok(())
}
