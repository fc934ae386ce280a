//! Sequentializing a parallel copy.
//!
//! Block arguments become a set of copies `dst_i <- src_i` that must act at once (all sources
//! read before any destination is written). Destinations are distinct. The result is an
//! ordered list of ordinary copies with the same effect: a copy is emitted once no pending copy
//! still reads its destination; when only cycles remain, one source is saved in a temporary
//! (from `temp`) and the cycle is broken there.

/// Orders `copies` (pairs `(dst, src)`, distinct destinations) into sequential copies.
pub fn sequentialize<R: Copy + Eq>(copies: &[(R, R)], mut temp: impl FnMut(R) -> R) -> Vec<(R, R)> {
    let mut pending: Vec<(R, R)> = copies.iter().copied().filter(|(d, s)| d != s).collect();
    let mut out = Vec::with_capacity(pending.len() + 1);
    while !pending.is_empty() {
        let ready = pending
            .iter()
            .position(|&(d, _)| !pending.iter().any(|&(_, s)| s == d));
        match ready {
            Some(i) => out.push(pending.remove(i)),
            None => {
                // Every destination is still read: only cycles remain. Save one source.
                let src = pending[0].1;
                let t = temp(src);
                out.push((t, src));
                for c in &mut pending {
                    if c.1 == src {
                        c.1 = t;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs copies on a register file and returns it.
    fn run(regs: &mut Vec<u32>, seq: &[(usize, usize)]) {
        for &(d, s) in seq {
            if d >= regs.len() {
                regs.resize(d + 1, 0);
            }
            regs[d] = regs[s];
        }
    }

    fn check(copies: &[(usize, usize)]) {
        let n = 16;
        let mut next = n;
        let seq = sequentialize(copies, |_| {
            next += 1;
            next - 1
        });
        let init: Vec<u32> = (0..n as u32).map(|i| 100 + i).collect();
        let mut regs = init.clone();
        run(&mut regs, &seq);
        for &(d, s) in copies {
            assert_eq!(regs[d], init[s], "copy {d} <- {s} in {seq:?}");
        }
        let temps = seq.iter().filter(|(d, _)| *d >= n).count();
        assert!(temps <= copies.len() / 2 + 1);
    }

    #[test]
    fn swaps_cycles_and_fanout() {
        check(&[]);
        check(&[(0, 0)]);
        check(&[(0, 1), (1, 0)]);
        check(&[(0, 1), (1, 2), (2, 0)]);
        check(&[(0, 1), (1, 0), (2, 3), (3, 2), (4, 0)]);
        check(&[(1, 0), (2, 0), (3, 1)]);
        check(&[(0, 1), (1, 2), (2, 3), (3, 1)]);
        // Every permutation of 4 registers.
        let mut p = [0usize, 1, 2, 3];
        for _ in 0..24 {
            let copies: Vec<(usize, usize)> = (0..4).map(|i| (i, p[i])).collect();
            check(&copies);
            next_permutation(&mut p);
        }
    }

    fn next_permutation(p: &mut [usize]) {
        let Some(i) = (0..p.len() - 1).rev().find(|&i| p[i] < p[i + 1]) else {
            p.reverse();
            return;
        };
        let j = (i + 1..p.len()).rev().find(|&j| p[j] > p[i]).unwrap_or(i);
        p.swap(i, j);
        p[i + 1..].reverse();
    }
}
