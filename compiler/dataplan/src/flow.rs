//! The data-flow for one base over a range's statement tree: where the valid copy is.
//!
//! State: `host_stale` (a kernel may have written the device copy since the host copy was
//! last refreshed) and `dev_valid` (every element of the mapped section on the device holds
//! a defined value: after `map(to:)`, or after a kernel that writes all of it). Host code
//! that touches the base while the host copy may be stale gets `update from` before it (the
//! section it touches; a write needs it too, or pushing the write back would also push stale
//! neighbours); host code that writes gets `update to` after it (lib.rs keeps it only when a
//! kernel or the exit copy can see the write). Loops iterate to a fixed point; `if` joins its
//! arms. Nothing here moves data: it records where transfers are needed.

use crate::tree::{Kind, NodeId, Tree};

/// What the base's planning needs to know per node.
#[derive(Clone, Copy, Default)]
pub(crate) struct NodeFacts {
    /// The node (host leaf or region) may read the base.
    pub read: bool,
    /// It may write it.
    pub write: bool,
    /// A region that writes every element of the mapped section; a host leaf whose
    /// section covers it (an `update from` there refreshes the whole host copy).
    pub covers: bool,
    /// For loops and branches: their controlling expressions read / write the base.
    pub head_read: bool,
    pub head_write: bool,
    /// A host leaf that writes every element it touches and reads none: it needs no
    /// `update from` before it (the `update to` after it moves exactly what it wrote).
    pub overwrites: bool,
    /// A host leaf whose writes span the mapped section: the `update to` after it leaves
    /// every element on the device defined, when the host copy was current.
    pub write_covers: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    host_stale: bool,
    dev_valid: bool,
}

fn join(a: State, b: State) -> State {
    State {
        host_stale: a.host_stale || b.host_stale,
        dev_valid: a.dev_valid && b.dev_valid,
    }
}

/// The transfers one base needs.
#[derive(Default)]
pub(crate) struct Needs {
    /// Map `to` at entry (else `alloc`): some use needs the host's values on the device.
    pub entry_to: bool,
    /// Copy back at exit: the host copy may be stale there (the caller checks liveness).
    pub stale_at_exit: bool,
    /// `update from` before these nodes (host leaves, or `if` statements whose condition
    /// reads the base).
    pub from_before: Vec<NodeId>,
    /// Host leaves that write the base (candidates for `update to` after them).
    pub host_writes: Vec<NodeId>,
    /// A controlling expression the plan cannot serve (node, why).
    pub refused: Option<(NodeId, &'static str)>,
}

/// Runs the flow over `tree` with `facts` indexed by node; `live` says whether the host
/// reads the base after the range (then a stale host copy needs `from` at exit).
pub(crate) fn run(tree: &Tree, facts: &[NodeFacts], live: bool) -> Needs {
    let mut f = Flow {
        tree,
        facts,
        needs: Needs::default(),
        jumped: Vec::new(),
    };
    let start = State {
        host_stale: false,
        dev_valid: false,
    };
    let end = f.walk(tree.root, start);
    if end.host_stale && live {
        f.needs.stale_at_exit = true;
        f.needs.entry_to |= !end.dev_valid;
    }
    f.needs.from_before.sort_unstable();
    f.needs.from_before.dedup();
    f.needs.host_writes.sort_unstable();
    f.needs.host_writes.dedup();
    f.needs
}

struct Flow<'t> {
    tree: &'t Tree<'t>,
    facts: &'t [NodeFacts],
    needs: Needs,
    /// Per loop being walked (innermost last): the join of the states at its `break` and
    /// `continue` leaves.
    jumped: Vec<Option<State>>,
}

impl Flow<'_> {
    fn walk(&mut self, n: NodeId, st: State) -> State {
        let after = self.step(n, st);
        if self.tree.nodes[n].jumps
            && let Some(j) = self.jumped.last_mut()
        {
            *j = Some(j.map_or(after, |j| join(j, after)));
        }
        after
    }

    fn step(&mut self, n: NodeId, st: State) -> State {
        let fx = self.facts[n];
        match &self.tree.nodes[n].kind {
            Kind::Seq(kids) => kids.clone().into_iter().fold(st, |s, k| self.walk(k, s)),
            Kind::Leaf if fx.overwrites => {
                self.needs.host_writes.push(n);
                let mut st = st;
                st.dev_valid |= fx.write_covers;
                st
            }
            Kind::Leaf => self.host(n, st, fx.read, fx.write, fx.covers, fx.write_covers),
            Kind::Target => {
                let mut st = st;
                if (fx.read || (fx.write && !fx.covers)) && !st.dev_valid {
                    self.needs.entry_to = true;
                }
                if fx.write {
                    st.host_stale = true;
                    st.dev_valid |= fx.covers;
                }
                st
            }
            Kind::Loop { body, .. } => {
                let body = *body;
                let mut at_head = st;
                self.jumped.push(None);
                loop {
                    let h = self.head(n, at_head);
                    let after = self.walk(body, h);
                    // a `continue` starts the next iteration from where it jumped
                    let mut next = join(st, after);
                    if let Some(Some(j)) = self.jumped.last() {
                        next = join(next, *j);
                    }
                    if next == at_head {
                        break;
                    }
                    at_head = next;
                }
                let exit = self.head(n, at_head);
                // a `break` leaves with the state where it jumped
                match self.jumped.pop().flatten() {
                    Some(j) => join(exit, j),
                    None => exit,
                }
            }
            Kind::Branch {
                arms, exhaustive, ..
            } => {
                let (arms, exhaustive) = (arms.clone(), *exhaustive);
                let st = self.host(n, st, fx.head_read, fx.head_write, false, false);
                let mut out: Option<State> = (!exhaustive).then_some(st);
                for a in arms {
                    let s = self.walk(a, st);
                    out = Some(out.map_or(s, |o| join(o, s)));
                }
                out.unwrap_or(st)
            }
        }
    }

    /// A loop's controlling expressions: evaluated again after every iteration, so no
    /// directive line can sit right before them.
    fn head(&mut self, n: NodeId, st: State) -> State {
        let fx = self.facts[n];
        if fx.head_write {
            self.needs
                .refused
                .get_or_insert((n, "a loop's controlling expressions write it"));
        } else if fx.head_read && st.host_stale {
            self.needs.refused.get_or_insert((
                n,
                "a loop's controlling expressions read it after a kernel may have written it",
            ));
        }
        st
    }

    /// Host code that may read or write the base (a leaf, or an `if` condition).
    #[allow(clippy::too_many_arguments)]
    fn host(
        &mut self,
        n: NodeId,
        st: State,
        read: bool,
        write: bool,
        covers: bool,
        covers_write: bool,
    ) -> State {
        let mut st = st;
        if (read || write) && st.host_stale {
            self.needs.from_before.push(n);
            self.needs.entry_to |= !st.dev_valid;
            if covers {
                st.host_stale = false;
            }
        }
        if write {
            // the `update to` after it (before any kernel) moves the current host copy
            if covers_write && !st.host_stale {
                st.dev_valid = true;
            }
            if matches!(self.tree.nodes[n].kind, Kind::Branch { .. }) {
                self.needs
                    .refused
                    .get_or_insert((n, "an 'if' condition writes it"));
            }
            self.needs.host_writes.push(n);
        }
        st
    }
}
