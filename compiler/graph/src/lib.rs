//! Graph algorithms over adjacency lists indexed `0..n` (`graph[v]` lists the successors of
//! `v`). Both call graphs of the compiler use them: the access analysis over the typed AST
//! (summaries callees first) and the inliner over the IR module (bottom-up inlining), so the
//! algorithm lives here, below both, with no dependencies.
//!
//! Invariants: iterative (a call chain of any depth never overflows the host stack) and
//! linear in nodes plus edges; every edge names a node in `0..n`.

/// Tarjan's strongly connected components, each emitted after every component it reaches
/// (for a call graph: callees first, the reverse topological order of the condensed graph).
/// Inside a component, nodes come in the order Tarjan's stack pops them.
pub fn sccs(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct St {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    let n = graph.len();
    let mut st = St {
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    // iterative depth-first search: frames are (node, next edge index)
    for root in 0..n {
        if st.index[root].is_some() {
            continue;
        }
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        st.index[root] = Some(st.next);
        st.low[root] = st.next;
        st.next += 1;
        st.stack.push(root);
        st.on_stack[root] = true;
        while let Some(&mut (v, ref mut e)) = frames.last_mut() {
            if let Some(&w) = graph[v].get(*e) {
                *e += 1;
                match st.index[w] {
                    None => {
                        st.index[w] = Some(st.next);
                        st.low[w] = st.next;
                        st.next += 1;
                        st.stack.push(w);
                        st.on_stack[w] = true;
                        frames.push((w, 0));
                    }
                    Some(iw) if st.on_stack[w] => st.low[v] = st.low[v].min(iw),
                    Some(_) => {}
                }
                continue;
            }
            frames.pop();
            if let Some(&(p, _)) = frames.last() {
                st.low[p] = st.low[p].min(st.low[v]);
            }
            if Some(st.low[v]) == st.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = st.stack.pop() {
                    st.on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                st.out.push(comp);
            }
        }
    }
    st.out
}

#[cfg(test)]
mod tests {
    use super::sccs;

    #[test]
    fn cycles_and_self_loops_group_into_components() {
        // 0 -> 1 <-> 2 -> 3, 3 -> 3, 4 alone
        let g = vec![vec![1], vec![2], vec![1, 3], vec![3], vec![]];
        let mut out = sccs(&g);
        for c in &mut out {
            c.sort_unstable();
        }
        assert_eq!(out, vec![vec![3], vec![1, 2], vec![0], vec![4]]);
    }

    #[test]
    fn a_deep_chain_does_not_overflow_the_stack() {
        let n = 200_000;
        let g: Vec<Vec<usize>> = (0..n)
            .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
            .collect();
        let out = sccs(&g);
        assert_eq!(out.len(), n);
        assert_eq!(out[0], vec![n - 1]);
        assert_eq!(out[n - 1], vec![0]);
    }

    #[test]
    fn a_long_cycle_is_one_component() {
        let n = 100_000;
        let g: Vec<Vec<usize>> = (0..n).map(|v| vec![(v + 1) % n]).collect();
        let out = sccs(&g);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].len(), n);
    }

    #[test]
    fn components_come_callees_first() {
        // 0 -> 1 -> 2 -> 1, 0 -> 3
        let g = vec![vec![1, 3], vec![2], vec![1], vec![]];
        let c = sccs(&g);
        let pos = |n: usize| c.iter().position(|comp| comp.contains(&n)).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(pos(1), pos(2));
        assert!(pos(1) < pos(0) && pos(3) < pos(0));
    }
}
