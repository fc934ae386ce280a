//! Model-based check of the present table: random `target enter/exit data` sequences on
//! sub-ranges of one buffer, compared step by step with a plain list-of-ranges model of the
//! OpenMP rules (containment shares storage, partial overlap is an error, counts reach zero ->
//! removed). Also checks that concurrent host threads can map independently.

mod common;

use common::{c, errors, setup};
use ompcc_rt::abi::*;
use ompcc_rt::backend::sim::SimBackend;
use ompcc_rt::flags::{DELETE, FROM, TO};
use std::ffi::c_void;

/// Deterministic pseudo-random numbers (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[derive(Clone, Copy, Debug)]
struct Mapped {
    begin: u64,
    end: u64,
    refs: u64,
}

fn op(kind: u64, begin: u64, size: u64, flags: u64) -> i32 {
    let e = MapEntryC {
        base: begin as *mut c_void,
        begin: begin as *mut c_void,
        size,
        flags,
        name: c("x"),
        loc: c("model.c:1:1"),
    };
    // SAFETY: the range lies inside the test's live buffer.
    unsafe {
        if kind == 0 {
            ompcc_rt_target_enter_data(0, 1, &e, c("model.c:1:1"))
        } else {
            ompcc_rt_target_exit_data(0, 1, &e, c("model.c:1:1"))
        }
    }
}

#[test]
fn random_enter_exit_sequences_follow_the_model() {
    let _g = setup(SimBackend::new());
    let buf = vec![7u8; 1024];
    let base = buf.as_ptr() as u64;
    let mut model: Vec<Mapped> = Vec::new();
    let mut rng = Rng(0x5eed);
    let (mut partials, mut shared, mut removed) = (0, 0, 0);
    for step in 0..3000 {
        // Whole 16-byte blocks (one or two) or a piece of one block, so that containment,
        // partial overlap and disjoint ranges are all common.
        let block = base + 16 * rng.below(60);
        let (begin, size) = if rng.below(5) < 3 {
            (block, 16 * (1 + rng.below(2)))
        } else {
            let off = rng.below(15);
            (block + off, 1 + rng.below(16 - off))
        };
        let end = begin + size;
        let containing = model.iter().position(|m| m.begin <= begin && end <= m.end);
        let overlapping = model.iter().any(|m| m.begin < end && begin < m.end);
        let kind = match rng.below(20) {
            0..9 => 0,  // enter
            9..17 => 1, // release
            _ => 2,     // delete
        };
        let flags = match kind {
            0 => TO,
            1 => FROM,
            _ => DELETE,
        };
        let rc = op(kind.min(1), begin, size, flags);
        let partial = containing.is_none() && overlapping;
        assert_eq!(
            rc,
            if partial { -1 } else { 0 },
            "step {step}: {begin:#x}+{size}"
        );
        if partial {
            partials += 1;
            let e = errors();
            assert!(e[0].contains("partially overlaps"), "step {step}: {e:?}");
            continue;
        }
        match (kind, containing) {
            (0, Some(i)) => {
                shared += 1;
                model[i].refs += 1
            }
            (0, None) => model.push(Mapped {
                begin,
                end,
                refs: 1,
            }),
            (1, Some(i)) => model[i].refs -= 1,
            (_, Some(i)) => model[i].refs = 0,
            (_, None) => {}
        }
        let before = model.len();
        model.retain(|m| m.refs > 0);
        removed += before - model.len();
        let mut table: Vec<(u64, u64, u64)> = ompcc_rt::with_runtime(|rt| rt.present_entries(0))
            .iter()
            .map(|e| match e.dynamic_refs {
                ompcc_rt::table::RefCount::Finite(n) => (e.host_begin, e.host_end, n),
                ompcc_rt::table::RefCount::Infinite => panic!("no infinite counts here"),
            })
            .collect();
        let mut expect: Vec<(u64, u64, u64)> =
            model.iter().map(|m| (m.begin, m.end, m.refs)).collect();
        table.sort();
        expect.sort();
        assert_eq!(table, expect, "step {step}");
    }
    assert!(errors().is_empty());
    // The sequence must exercise every rule, or the comparison proves little.
    eprintln!("partial overlaps {partials}, shared {shared}, removed {removed}");
    assert!(
        partials > 100 && shared > 100 && removed > 100,
        "{partials} {shared} {removed}"
    );
}

#[test]
fn host_threads_map_concurrently() {
    let _g = setup(SimBackend::new());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let mut a = vec![t as u8; 64];
                for i in 0..200u32 {
                    let p = a.as_mut_ptr() as u64;
                    assert_eq!(op(0, p, 64, TO), 0);
                    assert_eq!(op(1, p, 64, FROM), 0);
                    a[(i % 64) as usize] = t as u8;
                }
                assert!(a.iter().all(|&x| x == t as u8));
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert!(ompcc_rt::with_runtime(|rt| rt.present_entries(0)).is_empty());
    assert!(errors().is_empty());
}
