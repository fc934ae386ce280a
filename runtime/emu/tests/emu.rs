//! Emulator tests: each runs a hand-written PTX file from tests/ptx and checks results,
//! counters or the error message.

mod common;

use common::{Env, p};
use ompcc_emu::InstClass;

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
    let st = e.run(
        "saxpy",
        4,
        256,
        &[
            &(n as u32).to_le_bytes(),
            &2.5f32.to_le_bytes(),
            &p(dx),
            &p(dy),
        ],
    );
    assert_eq!(e.download::<f32>(dy, n), saxpy_host(2.5, &x, &y));
    // 1024 threads: 24 out-of-range threads skip the body
    assert_eq!(st.threads, 1024);
    assert_eq!(st.blocks, 4);
    // 32 warps with work, 2 loads + 1 store each; a full warp touches 128 contiguous bytes
    // = 4 sectors, the last warp has 8 active lanes = 1 sector
    assert_eq!(st.global_requests, 96);
    assert_eq!(st.global_sectors, 31 * 3 * 4 + 3);
    assert!(st.thread(InstClass::Float) == n as u64);
    let line = st.to_string();
    assert!(
        line.contains("float 1000")
            && line.contains("96 global requests, 375 sectors (3.91/request)"),
        "{line}"
    );
}

#[test]
fn divergent_branches_see_their_own_masks() {
    let mut e = Env::new("divergence");
    let out = e.zeros(48 * 12);
    let first = e.run("diverge", 1, 48, &[&p(out)]);
    assert_eq!(first.divergent_branches, 2);
    let v = e.download::<u32>(out, 48 * 3);
    for t in 0..48usize {
        let (mask, ballot, after) = (v[t * 3], v[t * 3 + 1], v[t * 3 + 2]);
        let full = if t < 32 { u32::MAX } else { 0xffff };
        let odd = t % 2 == 1;
        assert_eq!(
            mask,
            if odd { 0xaaaa_aaaa } else { 0x5555_5555 } & full,
            "thread {t} mask"
        );
        let exp_ballot = if odd {
            0x2222_2222 & full
        } else if t < 32 {
            0x55
        } else {
            0
        };
        assert_eq!(ballot, exp_ballot, "thread {t} ballot");
        assert_eq!(after, full, "thread {t} after the join");
    }
}

#[test]
fn loops_with_per_thread_trip_counts_reconverge() {
    let mut e = Env::new("loops");
    let n = 3 * 64;
    let (out, masks) = (e.zeros(n * 4), e.zeros(n * 4));
    let st = e.run("tri_loop", 3, 64, &[&p(out), &p(masks)]);
    let v = e.download::<u32>(out, n);
    for (g, &x) in v.iter().enumerate() {
        let exp: u32 = (0..g as u32)
            .map(|i| i * i)
            .fold(0u32, |a, b| a.wrapping_add(b));
        assert_eq!(x, exp, "thread {g}");
    }
    assert!(e.download::<u32>(masks, n).iter().all(|&m| m == u32::MAX));
    assert!(st.warp(InstClass::Control) > 0);
    let out2 = e.zeros(64 * 4);
    e.run("nested_break", 1, 64, &[&p(out2)]);
    for (t, &x) in e.download::<u32>(out2, 64).iter().enumerate() {
        let pairs = (t * t.saturating_sub(1) / 2) as u32;
        assert_eq!(x, pairs.min(100), "thread {t}");
    }
}

#[test]
fn barrier_reverses_through_shared_memory() {
    let mut e = Env::new("barrier");
    let n = 4 * 256;
    let input: Vec<u32> = (0..n as u32).map(|i| i * 3 + 1).collect();
    let (din, dout) = (e.upload(&input), e.zeros(n * 4));
    e.run("reverse", 4, 256, &[&p(din), &p(dout)]);
    let v = e.download::<u32>(dout, n);
    for b in 0..4 {
        for t in 0..256 {
            assert_eq!(v[b * 256 + t], input[b * 256 + 255 - t]);
        }
    }
}

#[test]
fn barriers_from_divergent_paths_and_after_exits() {
    let mut e = Env::new("barrier");
    for limit in [96u32, 50] {
        let out = e.zeros(96 * 4);
        e.run("split_barrier", 1, 96, &[&p(out), &limit.to_le_bytes()]);
        let v = e.download::<u32>(out, 96);
        for t in 0..limit {
            assert_eq!(
                v[t as usize],
                ((t + 1) % limit) * 10,
                "limit {limit} thread {t}"
            );
        }
    }
}

#[test]
fn aligned_barrier_reached_divergently_is_reported() {
    let e = Env::new("barrier");
    let err = e
        .launch("split_aligned", [1, 1, 1], [32, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("aligned barrier (bar.sync) reached by part of a warp")
            && err.contains("kernel `split_aligned`"),
        "{err}"
    );
}

#[test]
fn barrier_that_cannot_complete_is_reported() {
    let e = Env::new("barrier");
    let err = e
        .launch("stuck", [1, 1, 1], [32, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("barrier deadlock") && err.contains("kernel `stuck`"),
        "{err}"
    );
}

#[test]
fn shared_memory_tree_reduction() {
    let mut e = Env::new("reduce_shared");
    let n = 1000u32;
    let input: Vec<f32> = (0..n).map(|i| (i % 17) as f32).collect();
    let (din, dout) = (e.upload(&input), e.zeros(4 * 4));
    e.dev
        .launch(
            &e.m,
            "block_sum",
            [4, 1, 1],
            [256, 1, 1],
            256 * 4,
            &[&p(din), &p(dout), &n.to_le_bytes()],
        )
        .unwrap();
    let v = e.download::<f32>(dout, 4);
    for (b, got) in v.iter().enumerate() {
        let exp: f32 = input.iter().skip(b * 256).take(256).sum();
        assert_eq!(*got, exp, "block {b}");
    }
    // without the dynamic shared memory the first store is out of bounds
    let err = e
        .dev
        .launch(
            &e.m,
            "block_sum",
            [1, 1, 1],
            [256, 1, 1],
            0,
            &[&p(din), &p(dout), &n.to_le_bytes()],
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("out-of-bounds shared store"),
        "{err}"
    );
}

#[test]
fn warp_shuffle_reduction() {
    let mut e = Env::new("shuffle");
    let n = 64 * 32;
    let input: Vec<u32> = (0..n as u32).map(|i| i ^ 0x55).collect();
    let (din, dout) = (e.upload(&input), e.zeros(4));
    let st = e.run("warp_sum", 16, 128, &[&p(din), &p(dout)]);
    assert_eq!(e.download::<u32>(dout, 1)[0], input.iter().sum::<u32>());
    assert_eq!(st.warp(InstClass::Sync), 5 * 64);
    assert_eq!(st.thread(InstClass::Atomic), 64);
}

#[test]
fn warp_shuffle_modes_width_and_predicate() {
    let mut e = Env::new("shuffle");
    let out = e.zeros(32 * 32);
    e.run("modes", 1, 32, &[&p(out)]);
    let v = e.download::<u32>(out, 32 * 8);
    for l in 0..32u32 {
        let r = &v[l as usize * 8..l as usize * 8 + 8];
        let val = |k: u32| k * 100;
        assert_eq!(r[0], val(if l >= 1 { l - 1 } else { l }), "up lane {l}");
        let seg_end = (l / 8) * 8 + 7;
        assert_eq!(
            r[1],
            val(if l + 3 <= seg_end { l + 3 } else { l }),
            "down width 8 lane {l}"
        );
        assert_eq!(r[2], val(l ^ 5), "bfly lane {l}");
        assert_eq!(r[3], val((l + 7) % 32), "idx lane {l}");
        assert_eq!(r[4], val((l / 16) * 16 + 2), "idx width 16 lane {l}");
        assert_eq!(r[5], (l >= 1) as u32, "up predicate lane {l}");
        assert_eq!(r[6], (l + 3 <= seg_end) as u32, "down predicate lane {l}");
        let seg_start = (l / 8) * 8;
        assert_eq!(
            r[7],
            val(if l >= seg_start + 2 { l - 2 } else { l }),
            "up width 8 lane {l}"
        );
    }
}

#[test]
fn atomics_under_contention_across_blocks() {
    let mut e = Env::new("atomics");
    let g = e.zeros(64);
    let mut init = vec![0u8; 64];
    init[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    init[16..20].copy_from_slice(&0x8000_0000u32.to_le_bytes());
    init[56..60].copy_from_slice(&u32::MAX.to_le_bytes());
    e.dev.copy_to_device(g, &init).unwrap();
    let (blocks, threads) = (64u32, 128u32);
    let n = blocks * threads;
    let st = e.run("atomics", blocks, threads, &[&p(g)]);
    let w = e.download::<u32>(g, 16);
    assert_eq!(w[0], n);
    assert_eq!(w[1], n - 1);
    assert_eq!(w[2], 0);
    assert_eq!(w[3], n % 1000);
    assert_eq!(w[4], u32::MAX);
    assert_eq!(w[5], (0..n).fold(0, |a, b| a ^ b));
    assert_eq!(f32::from_bits(w[6]), n as f32 * 0.5);
    let sum = (n as u64) * (n as u64 - 1) / 2;
    assert_eq!(w[8] as u64 | (w[9] as u64) << 32, sum);
    assert_eq!(
        f64::from_bits(w[10] as u64 | (w[11] as u64) << 32),
        sum as f64
    );
    // exchanges: every gid handed back once (see the kernel), the race winner removed
    assert_eq!(w[7] as u64, sum);
    assert_eq!(w[12], 0);
    // dec: starts at 0 -> 7, then counts down and wraps every 8 operations
    assert_eq!(w[13], (8 - n % 8) % 8);
    assert_eq!(w[14], 0);
    assert_eq!(w[15], blocks * threads * (threads - 1) / 2);
    assert!(st.thread(InstClass::Atomic) >= 14 * n as u64);
}

#[test]
fn vprintf_formats_like_c() {
    let e = Env::new("printf");
    e.dev
        .launch(
            &e.m,
            "hello",
            [1, 1, 1],
            [2, 1, 1],
            0,
            &[&0.25f64.to_le_bytes()],
        )
        .unwrap();
    let out = e.printed();
    let mut exp = String::new();
    for t in 0..2i32 {
        let d = t as f64 + 0.25;
        let r2 = (t * 255) as u32;
        let x = if r2 == 0 {
            "0".to_string()
        } else {
            format!("{r2:#x}")
        };
        let neg = format!("{:<4}", -t);
        let e_str = if t == 0 {
            "2.500000e-01"
        } else {
            "1.250000e+00"
        };
        exp += &format!(
            "tid {t}: [{d:6.2}] hello {x}|{neg}|-1234567890123 {} {e_str} 0.25 hel|{r2}|{r2:o}\n",
            (65 + t) as u8 as char
        );
    }
    exp += "no args % here\nno args % here\n";
    assert_eq!(out, exp);
}

#[test]
fn device_function_calls_and_recursion() {
    let mut e = Env::new("calls");
    let out = e.zeros(64 * 24);
    e.run("calls", 1, 64, &[&p(out)]);
    let mut b = vec![0u8; 64 * 24];
    e.dev.copy_from_device(&mut b, out).unwrap();
    let fib = |n: u32| {
        let (mut a, mut c) = (0u32, 1u32);
        for _ in 0..n {
            (a, c) = (c, a + c);
        }
        a
    };
    for t in 0..64u32 {
        let r = &b[t as usize * 24..];
        let u32at = |o: usize| u32::from_le_bytes(r[o..o + 4].try_into().unwrap());
        assert_eq!(u32at(0), t * t + 3, "add_sq {t}");
        let fact: u64 = (1..=(t % 16) as u64).product();
        assert_eq!(
            u64::from_le_bytes(r[8..16].try_into().unwrap()),
            fact,
            "fact {t}"
        );
        assert_eq!(u32at(16), fib(t % 13), "fib {t}");
        // lanes recursed to different depths; after the calls the warp is whole again, as
        // PTX's `ret` says ("a divergent return suspends threads until all threads are ready
        // to return"). Real hardware need not show this (see examples/gpu_diff.rs).
        assert_eq!(u32at(20), u32::MAX, "reconverged after calls {t}");
    }
}

#[test]
fn unbounded_recursion_is_a_stack_overflow_error() {
    let e = Env::new("calls");
    let err = e
        .launch("runaway", [1, 1, 1], [1, 1, 1], &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("call stack overflow") && err.contains("_Z7foreveri"),
        "{err}"
    );
}

#[test]
fn votes_and_matches() {
    let mut e = Env::new("vote");
    let out = e.zeros(32 * 32);
    e.run("votes", 1, 32, &[&p(out)]);
    let v = e.download::<u32>(out, 32 * 8);
    for l in 0..32usize {
        let r = &v[l * 8..l * 8 + 8];
        assert_eq!(r[0..4], [1, 1, 0, 0], "lane {l} all/any/all/uni");
        assert_eq!(r[4], 0x1f);
        assert_eq!(r[5], !0x1f);
        assert_eq!(r[6], 0xffu32 << ((l / 8) * 8), "match.any lane {l}");
        assert_eq!(r[7], 0, "match.all lane {l}");
    }
}

#[test]
fn module_globals_const_and_pointer_initializers() {
    let mut e = Env::new("memory");
    let out = e.zeros(64 * 4);
    e.run("globals", 2, 32, &[&p(out)]);
    let v = e.download::<u32>(out, 64);
    for t in 0..32u32 {
        let table = [10u32, 20, 30, 40];
        let coef = [15u32, 25];
        let exp = table[(t % 4) as usize] + table[((t + 1) % 4) as usize] + coef[(t % 2) as usize];
        assert_eq!(v[t as usize], exp, "thread {t}");
    }
    let (hits, size) = e.m.global("hits").unwrap();
    assert_eq!(size, 4);
    assert_eq!(e.download::<u32>(hits, 1)[0], 64);
    let (tab, size) = e.m.global("table").unwrap();
    assert_eq!(size, 16);
    assert_eq!(e.download::<u32>(tab, 4), vec![10, 20, 30, 40]);
    assert!(e.m.global("nope").is_none());
}

#[test]
fn local_arrays_and_generic_pointers() {
    let mut e = Env::new("memory");
    let out = e.zeros(64 * 4);
    e.run("local_generic", 1, 64, &[&p(out)]);
    let v = e.download::<u32>(out, 64);
    let val = |t: u32| (t % 16) * t + 1 + 15 * t + 1;
    for t in 0..64u32 {
        assert_eq!(v[t as usize], val(t) + val(0), "thread {t}");
    }
}

#[test]
fn dynamic_shared_memory() {
    let mut e = Env::new("memory");
    let out = e.zeros(128 * 4);
    e.dev
        .launch(&e.m, "dyn_reverse", [1, 1, 1], [128, 1, 1], 512, &[&p(out)])
        .unwrap();
    let v = e.download::<u32>(out, 128);
    assert!(v.iter().enumerate().all(|(t, &x)| x == 127 - t as u32));
}

#[test]
fn vector_loads_and_stores() {
    let mut e = Env::new("memory");
    let x: Vec<f32> = (0..128).map(|i| i as f32 * 0.5).collect();
    let pairs: Vec<u64> = (0..64).map(|i| i * 1_000_000_007).collect();
    let (dx, dy, dp, dq) = (
        e.upload(&x),
        e.zeros(128 * 4),
        e.upload(&pairs),
        e.zeros(64 * 8),
    );
    let st = e.run("vectors", 1, 32, &[&p(dx), &p(dy), &p(dp), &p(dq)]);
    let y = e.download::<f32>(dy, 128);
    for i in 0..32 {
        for k in 0..4 {
            assert_eq!(y[i * 4 + k], x[i * 4 + 3 - k] * 2.0);
        }
    }
    let q = e.download::<u64>(dq, 64);
    for i in 0..32 {
        assert_eq!((q[2 * i], q[2 * i + 1]), (pairs[2 * i + 1], pairs[2 * i]));
    }
    // 32 lanes x 16 bytes = 512 contiguous bytes = 16 sectors per request
    assert_eq!(st.global_requests, 4);
    assert_eq!(st.global_sectors, 64);
}

#[test]
fn coalescing_counts_sectors_per_warp_access() {
    let mut e = Env::new("memory");
    let n = 4096u32;
    let input: Vec<u32> = (0..n).collect();
    let (din, dout) = (e.upload(&input), e.zeros(1024 * 4));
    let contiguous = e.run(
        "strided",
        4,
        256,
        &[&p(din), &p(dout), &1u32.to_le_bytes(), &n.to_le_bytes()],
    );
    assert_eq!(contiguous.global_requests, 64);
    assert_eq!(contiguous.global_sectors, 64 * 4);
    let strided = e.run(
        "strided",
        4,
        256,
        &[&p(din), &p(dout), &8u32.to_le_bytes(), &n.to_le_bytes()],
    );
    // loads hit 32 different sectors per warp, stores stay contiguous
    assert_eq!(strided.global_sectors, 32 * 32 + 32 * 4);
    let out = e.download::<u32>(dout, 1024);
    assert!(
        out.iter()
            .enumerate()
            .all(|(g, &v)| v == (g as u32 * 8) % n)
    );
}

#[test]
fn special_registers_in_3d_grids() {
    let mut e = Env::new("sregs");
    let (grid, block) = ([2u32, 3, 2], [8u32, 4, 2]);
    let nthreads = 12 * 64;
    let out = e.zeros(nthreads * 64);
    e.launch("sregs", grid, block, &[&p(out)]).unwrap();
    let v = e.download::<u32>(out, nthreads * 16);
    for bz in 0..2 {
        for by in 0..3 {
            for bx in 0..2 {
                for tz in 0..2 {
                    for ty in 0..4 {
                        for tx in 0..8 {
                            let b = (bz * 3 + by) * 2 + bx;
                            let t = (tz * 4 + ty) * 8 + tx;
                            let r = &v[(b * 64 + t) as usize * 16..][..16];
                            let lane = t % 32;
                            assert_eq!(
                                r,
                                [
                                    tx,
                                    ty,
                                    tz,
                                    8,
                                    4,
                                    2,
                                    bx,
                                    by,
                                    bz,
                                    2,
                                    3,
                                    2,
                                    lane,
                                    1, // %warpid < %nwarpid
                                    (1u32 << lane) - 1,
                                    !((1u32 << lane) - 1)
                                ],
                                "block {b} thread {t}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn clang_style_ptx_struct_returns_packing_testp_and_exit_in_function() {
    let mut e = Env::new("clang_style");
    let out = e.zeros(16 * 32);
    e.run("clang_kernel", 1, 16, &[&p(out)]);
    let v = e.download::<u32>(out, 16 * 8);
    for t in 0..16u32 {
        let r = &v[t as usize * 8..][..8];
        assert_eq!((r[0], r[1]), (t / 3, t % 3), "divmod {t}");
        assert_eq!(r[2], ((t as f64).to_bits() >> 32) as u32, "high word {t}");
        assert_eq!(r[3], (t & 0xffff) | (0x7f << 16), "repacked {t}");
        let x = 1.0f32 / (t as f32 - 4.0);
        let nan = (t as f32 - 8.0).sqrt().is_nan();
        assert_eq!(
            r[4],
            x.is_finite() as u32 | (x.is_infinite() as u32) << 1 | (nan as u32) << 2,
            "testp {t}"
        );
        assert_eq!(r[5], (t % 2 == 0) as u32, "exit inside a function {t}");
    }
}

#[test]
fn memset_and_device_copies() {
    let mut e = Env::new("saxpy");
    let a = e.zeros(64);
    let b = e.zeros(64);
    e.dev.memset(a, 0xab, 64).unwrap();
    e.dev.copy_device_to_device(b.offset(8), a, 16).unwrap();
    let v = e.download::<u8>(b, 64);
    assert!(
        v[..8].iter().all(|&x| x == 0)
            && v[8..24].iter().all(|&x| x == 0xab)
            && v[24..].iter().all(|&x| x == 0)
    );
    assert!(e.dev.memset(a.offset(60), 0, 8).is_err());
    assert_eq!(e.dev.allocation_size(a), Some(64));
}

/// Speed guard: saxpy over 1M elements must finish in seconds even in the test profile.
#[test]
fn saxpy_one_million_elements() {
    let mut e = Env::new("saxpy");
    let n = 1usize << 20;
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let (dx, dy) = (e.upload(&x), e.upload(&y));
    let start = std::time::Instant::now();
    let st = e.run(
        "saxpy",
        (n / 256) as u32,
        256,
        &[
            &(n as u32).to_le_bytes(),
            &0.5f32.to_le_bytes(),
            &p(dx),
            &p(dy),
        ],
    );
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(e.download::<f32>(dy, n), saxpy_host(0.5, &x, &y));
    assert_eq!(st.total_thread_insts(), 19 * n as u64);
    assert!(secs < 30.0, "saxpy 1M took {secs:.1} s");
}

#[test]
fn spin_lock_inside_one_warp_makes_progress() {
    let mut e = Env::new("sync");
    let (lock, counter) = (e.zeros(4), e.zeros(4));
    e.run("critical", 2, 64, &[&p(lock), &p(counter)]);
    let exp: u32 = 2 * (1..=64).sum::<u32>();
    assert_eq!(e.download::<u32>(counter, 1)[0], exp);
    assert_eq!(e.download::<u32>(lock, 1)[0], 0);
}

#[test]
fn sync_shuffles_wait_for_lanes_from_long_uneven_loops() {
    let mut e = Env::new("sync");
    let out = e.zeros(32 * 8);
    e.run("uneven_then_shuffle", 1, 32, &[&p(out)]);
    let v = e.download::<u32>(out, 64);
    let total = (0..32u32)
        .map(|l| (0..l * 700).fold(0u32, |a, i| a.wrapping_add(i)))
        .fold(0u32, u32::wrapping_add);
    for l in 0..32 {
        assert_eq!(v[2 * l], total, "lane {l} sum");
        assert_eq!(v[2 * l + 1], u32::MAX, "lane {l} mask after bar.warp.sync");
    }
}

#[test]
fn indirect_calls_through_function_pointers() {
    let mut e = Env::new("indirect");
    let out = e.zeros(64 * 4);
    e.run("dispatch", 1, 64, &[&p(out)]);
    let v = e.download::<u32>(out, 64);
    for t in 0..64u32 {
        let exp = if t % 2 == 0 { 2 * t } else { t * t };
        assert_eq!(v[t as usize], exp + 1000, "thread {t}");
    }
    // a pointer read from the module's table works from the host too; null does not
    let (table, _) = e.m.global("table").unwrap();
    let square = e.download::<u64>(table, 2)[1];
    e.run("call_ptr", 1, 1, &[&p(out), &square.to_le_bytes()]);
    assert_eq!(e.download::<u32>(out, 1)[0], 49);
    let err = e
        .launch(
            "call_ptr",
            [1, 1, 1],
            [1, 1, 1],
            &[&p(out), &0u64.to_le_bytes()],
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("not the address of a device function"),
        "{err}"
    );
}

#[test]
fn barrier_reductions_count_and_or() {
    let mut e = Env::new("barrier");
    for limit in [1000u32, 70] {
        let out = e.zeros(100 * 12);
        e.run("reductions", 1, 100, &[&p(out), &limit.to_le_bytes()]);
        let v = e.download::<u32>(out, 300);
        for t in 0..100 {
            assert_eq!(v[t * 3], 34, "popc, thread {t}");
            assert_eq!(v[t * 3 + 1], (limit >= 100) as u32, "and, thread {t}");
            assert_eq!(v[t * 3 + 2], (limit < 100) as u32, "or, thread {t}");
        }
    }
}

#[test]
fn switch_through_a_jump_table() {
    let mut e = Env::new("loops");
    let out = e.zeros(40 * 8);
    let st = e.run("switcher", 1, 40, &[&p(out)]);
    let v = e.download::<u32>(out, 80);
    for t in 0..40u32 {
        assert_eq!(
            v[2 * t as usize],
            [10, 20, 30, 40][(t % 4) as usize] + t / 4 * 100,
            "thread {t}"
        );
        assert_eq!(
            v[2 * t as usize + 1],
            if t < 32 { u32::MAX } else { 0xff },
            "mask {t}"
        );
    }
    assert_eq!(st.divergent_branches, 2);
}

#[test]
fn printf_from_many_blocks_arrives_whole() {
    let mut e = Env::new("printf");
    e.dev.set_workers(4);
    e.dev
        .launch(
            &e.m,
            "hello",
            [16, 1, 1],
            [2, 1, 1],
            0,
            &[&0.25f64.to_le_bytes()],
        )
        .unwrap();
    let out = e.printed();
    assert_eq!(out.lines().count(), 16 * 4);
    // block after block: each block's two threads print, then both print the second line
    let one_block: Vec<&str> = out.lines().take(4).collect();
    assert!(
        one_block[0].starts_with("tid 0:") && one_block[1].starts_with("tid 1:"),
        "{one_block:?}"
    );
    assert_eq!(one_block[2], "no args % here");
    for chunk in out.lines().collect::<Vec<_>>().chunks(4) {
        assert_eq!(chunk, one_block.as_slice());
    }
}

#[test]
fn shared_memory_bank_conflicts() {
    let mut e = Env::new("barrier");
    for (stride, wavefronts) in [(1u32, 1u64), (2, 2), (3, 1), (32, 8), (0, 1)] {
        let st = e.run("bank_stride", 1, 32, &[&stride.to_le_bytes()]);
        assert_eq!(
            (st.shared_requests, st.shared_wavefronts),
            (1, wavefronts),
            "stride {stride}"
        );
    }
    // the block reversal: one store and one load per warp, both conflict-free
    let n = 256;
    let (din, dout) = (e.upload(&vec![1u32; n]), e.zeros(n * 4));
    let st = e.run("reverse", 1, 256, &[&p(din), &p(dout)]);
    assert_eq!((st.shared_requests, st.shared_wavefronts), (16, 16));
}

#[test]
fn device_malloc_and_free_use_the_heap() {
    let mut e = Env::new("heap");
    let out = e.zeros(256 * 8);
    // Two blocks of 128: blocks run on several host threads and share the heap.
    e.run("heap", 2, 128, &[&p(out)]);
    let r: Vec<u32> = e.download(out, 256 * 2);
    for t in 0..256u32 {
        let tid = t % 128;
        assert_eq!(r[2 * t as usize], tid * (tid % 5 + 1), "sum {t}");
        assert_eq!(r[2 * t as usize + 1], 1, "aligned non-null block {t}");
    }
}

#[test]
fn alloca_grows_each_threads_stack_and_stackrestore_frees_it() {
    let mut e = Env::new("alloca");
    let threads = 40usize;
    let out = e.zeros(threads * 32);
    let base = 5u32;
    let st = e.run("vla", 1, threads as u32, &[&p(out), &base.to_le_bytes()]);
    let v = e.download::<u64>(out, threads * 4);
    for t in 0..threads {
        let n = base as u64 + (t as u64 % 4);
        let sum: u64 = (0..n).map(|k| k * (t as u64 + 1)).sum();
        let got = &v[4 * t..4 * t + 4];
        assert_eq!(got, [sum, 0, 1, n * 1000], "thread {t}");
    }
    assert!(st.thread(InstClass::Int) > 0);
}

#[test]
fn alloca_within_the_stack_limit_runs() {
    let mut e = Env::new("alloca");
    e.dev.set_stack_limit(4096);
    e.run("big", 2, 33, &[&4000u64.to_le_bytes()]);
}
