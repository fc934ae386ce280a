//! The statement tree the data-flow walks: the statements of one range of a block, as
//! sequences, loops, branches, `target` regions and host leaves (statements without a
//! region), each knowing whether a directive line may go before or after it (a direct child
//! of a compound statement), plus the checks that make a range plannable (no jump leaves it)
//! and the spans under a condition (their accesses may not happen, so their sections are not
//! proven to lie inside the object).

use ompcc_diag::Span;
use ompcc_omp::is_target_region;
use ompcc_syntax::ast::{
    BinaryOp, Block, BlockItem, Expr, ExprKind, OmpDirectiveKind, Stmt, StmtKind, UnaryOp,
};

/// A node index into [`Tree::nodes`].
pub(crate) type NodeId = usize;

pub(crate) struct Node {
    pub span: Span,
    /// A direct child of a compound statement: a directive line may go before or after it.
    pub anchor: bool,
    pub parent: Option<NodeId>,
    pub kind: Kind,
    /// The function whose text the node is (an index into [`Tree::frames`]; 0 is the
    /// planned function, others are callees spliced in at their call statement).
    pub frame: usize,
    /// A host leaf that may `break` or `continue` the innermost loop around it: the state
    /// there also reaches that loop's exit and its next iteration.
    pub jumps: bool,
}

pub(crate) enum Kind {
    Seq(Vec<NodeId>),
    /// `for`/`while`/`do`: `head` covers the controlling expressions, evaluated around every
    /// iteration of `body`.
    Loop {
        head: Span,
        body: NodeId,
    },
    /// `if`: `cond` is evaluated first, then one arm (or none without `else`).
    Branch {
        cond: Span,
        arms: Vec<NodeId>,
        exhaustive: bool,
        /// The condition expression, when evaluating it once more right before the `if`
        /// gives the same value (no assignment, increment, call or volatile access).
        pure: Option<Span>,
    },
    /// A `target` region (its whole statement).
    Target,
    /// Host code with no `target` region inside.
    Leaf,
}

pub(crate) struct Tree<'t> {
    pub nodes: Vec<Node>,
    pub root: NodeId,
    /// Per frame: the function index and which of its bases is which base of frame 0.
    pub frames: Vec<crate::splice::FrameMap>,
    /// Per node: the last node of its subtree (nodes are numbered in execution order).
    last: Vec<NodeId>,
    /// The frame the build is in.
    cur: usize,
    typed: &'t ompcc_sema::TypedUnit,
}

/// Where a callee's body goes into the tree: the frame of the caller, the call statement
/// there, and the callee's body with the spans that make a statement of it not a leaf (its
/// `target` regions and its own spliced call statements).
pub(crate) struct Site<'b> {
    pub parent: usize,
    pub stmt: Span,
    pub body: &'b Block,
    pub spans: Vec<Span>,
}

/// Why a range cannot be planned (the message and where).
pub(crate) struct Refusal {
    pub span: Span,
    pub why: String,
}

impl<'t> Tree<'t> {
    /// The tree of `items` (consecutive items of one block of frame 0's function); `sites[k]`
    /// says where frame `k`'s body goes (`sites[0]`: the spans of the function's `target`
    /// regions and spliced call statements), `frames[k]` its bases.
    pub fn build(
        items: &[&BlockItem],
        span: Span,
        sites: &[Site<'_>],
        frames: Vec<crate::splice::FrameMap>,
        typed: &'t ompcc_sema::TypedUnit,
    ) -> Result<Tree<'t>, Refusal> {
        let mut t = Tree {
            typed,
            nodes: Vec::new(),
            root: 0,
            frames,
            last: Vec::new(),
            cur: 0,
        };
        let root = t.push(span, false, None, Kind::Seq(Vec::new()));
        let mut kids = Vec::new();
        for item in items {
            kids.push(t.item(item, root, sites)?);
        }
        t.nodes[root].kind = Kind::Seq(kids);
        t.root = root;
        t.last = (0..t.nodes.len()).collect();
        for n in (0..t.nodes.len()).rev() {
            if let Some(p) = t.nodes[n].parent {
                t.last[p] = t.last[p].max(t.last[n]);
            }
        }
        Ok(t)
    }

    fn push(&mut self, span: Span, anchor: bool, parent: Option<NodeId>, kind: Kind) -> NodeId {
        self.nodes.push(Node {
            span,
            anchor,
            parent,
            kind,
            frame: self.cur,
            jumps: false,
        });
        self.nodes.len() - 1
    }

    /// A call statement whose callee is spliced in: a sequence holding the callee's body.
    fn splice(
        &mut self,
        span: Span,
        anchor: bool,
        parent: NodeId,
        sites: &[Site<'_>],
    ) -> Result<Option<NodeId>, Refusal> {
        let Some(k) = sites
            .iter()
            .position(|s| s.parent == self.cur && s.stmt == span)
        else {
            return Ok(None);
        };
        let n = self.push(span, anchor, Some(parent), Kind::Seq(Vec::new()));
        let caller = self.cur;
        self.cur = k;
        let body = sites[k].body;
        let b = self.push(body.span, false, Some(n), Kind::Seq(Vec::new()));
        let mut kids = Vec::new();
        for item in &body.items {
            kids.push(self.item(item, b, sites)?);
        }
        self.nodes[b].kind = Kind::Seq(kids);
        self.cur = caller;
        self.nodes[n].kind = Kind::Seq(vec![b]);
        Ok(Some(n))
    }

    fn item(
        &mut self,
        item: &BlockItem,
        parent: NodeId,
        sites: &[Site<'_>],
    ) -> Result<NodeId, Refusal> {
        match item {
            BlockItem::Stmt(s) => self.stmt(s, true, parent, sites),
            BlockItem::Decl(d) => match self.splice(d.span, true, parent, sites)? {
                Some(n) => Ok(n),
                None => Ok(self.push(d.span, true, Some(parent), Kind::Leaf)),
            },
            BlockItem::Pragma(p) => Ok(self.push(p.span, true, Some(parent), Kind::Leaf)),
            BlockItem::LocalLabels(s, _) => Ok(self.push(*s, true, Some(parent), Kind::Leaf)),
        }
    }

    fn stmt(
        &mut self,
        s: &Stmt,
        anchor: bool,
        parent: NodeId,
        sites: &[Site<'_>],
    ) -> Result<NodeId, Refusal> {
        if let Some(n) = self.splice(s.span, anchor, parent, sites)? {
            return Ok(n);
        }
        let regions = &sites[self.cur].spans;
        // host-only statements are leaves, except an `if`: an update its arm needs goes
        // inside the arm rather than before the `if`, where it would run on every path
        if !regions
            .iter()
            .any(|r| r.lo >= s.span.lo && r.lo < s.span.hi)
            && !matches!(s.kind, StmtKind::If(..) | StmtKind::Compound(_))
        {
            let n = self.push(s.span, anchor, Some(parent), Kind::Leaf);
            self.nodes[n].jumps = jumps_out(s, 0);
            return Ok(n);
        }
        let refuse = |why: &str| {
            Err(Refusal {
                span: s.span,
                why: why.to_owned(),
            })
        };
        match &s.kind {
            StmtKind::Compound(b) => {
                let n = self.push(s.span, anchor, Some(parent), Kind::Seq(Vec::new()));
                let mut kids = Vec::new();
                for item in &b.items {
                    kids.push(self.item(item, n, sites)?);
                }
                self.nodes[n].kind = Kind::Seq(kids);
                Ok(n)
            }
            StmtKind::For(_, _, _, body) | StmtKind::While(_, body) => {
                let head = Span::new(s.span.lo, body.span.lo);
                self.looped(s, anchor, parent, head, body, sites)
            }
            StmtKind::DoWhile(body, _) => {
                let head = Span::new(body.span.hi, s.span.hi);
                self.looped(s, anchor, parent, head, body, sites)
            }
            StmtKind::If(c, then, els) => {
                let cond = Span::new(s.span.lo, then.span.lo);
                let pure = pure(c, self.typed).then_some(c.span);
                let n = self.push(
                    s.span,
                    anchor,
                    Some(parent),
                    Kind::Branch {
                        cond,
                        arms: Vec::new(),
                        exhaustive: els.is_some(),
                        pure,
                    },
                );
                let mut arms = vec![self.stmt(then, false, n, sites)?];
                if let Some(e) = els {
                    arms.push(self.stmt(e, false, n, sites)?);
                }
                if let Kind::Branch { arms: a, .. } = &mut self.nodes[n].kind {
                    *a = arms;
                }
                Ok(n)
            }
            StmtKind::Omp(d) if is_target_region(d.kind) => {
                Ok(self.push(s.span, anchor, Some(parent), Kind::Target))
            }
            StmtKind::Omp(d) => refuse(&format!(
                "the target regions are inside a '{}' construct",
                d.name()
            )),
            StmtKind::Switch(..) => refuse("a target region is inside a 'switch'"),
            _ => refuse("a target region is inside a labeled statement"),
        }
    }

    fn looped(
        &mut self,
        s: &Stmt,
        anchor: bool,
        parent: NodeId,
        head: Span,
        body: &Stmt,
        sites: &[Site<'_>],
    ) -> Result<NodeId, Refusal> {
        let n = self.push(s.span, anchor, Some(parent), Kind::Leaf);
        let b = self.stmt(body, false, n, sites)?;
        self.nodes[n].kind = Kind::Loop { head, body: b };
        Ok(n)
    }

    /// The nodes from `n` up to the root, `n` first.
    pub fn ancestors(&self, n: NodeId) -> Vec<NodeId> {
        let mut out = vec![n];
        let mut at = n;
        while let Some(p) = self.nodes[at].parent {
            out.push(p);
            at = p;
        }
        out
    }

    /// The loops that contain node `n`, innermost first.
    pub fn loops_around(&self, n: NodeId) -> Vec<NodeId> {
        self.ancestors(n)
            .into_iter()
            .skip(1)
            .filter(|&a| matches!(self.nodes[a].kind, Kind::Loop { .. }))
            .collect()
    }

    /// Node `m` is `n` or inside it.
    pub fn within(&self, m: NodeId, n: NodeId) -> bool {
        m >= n && m <= self.last[n]
    }

    /// Whether node `m` may run after node `n`: later in execution order, or in a loop with
    /// it (across spliced callees, text order says nothing).
    pub fn may_follow(&self, n: NodeId, m: NodeId) -> bool {
        m > self.last[n]
            || self
                .loops_around(m)
                .iter()
                .any(|l| self.loops_around(n).contains(l))
    }

    /// Every `target` node, in execution order.
    pub fn targets(&self) -> Vec<NodeId> {
        (0..self.nodes.len())
            .filter(|&n| matches!(self.nodes[n].kind, Kind::Target))
            .collect()
    }
}

/// A jump that leaves the statements `items` (a `return`, a `goto`, a label that may be
/// jumped to from outside, a `break`/`continue` of an enclosing loop), which would skip the
/// planned `exit data`; `target` region bodies are not looked into.
pub(crate) fn leaving_jump(items: &[&BlockItem]) -> Option<Span> {
    fn block(b: &Block, depth: u32) -> Option<Span> {
        b.items.iter().find_map(|i| match i {
            BlockItem::Stmt(s) => stmt(s, depth),
            _ => None,
        })
    }
    fn stmt(s: &Stmt, depth: u32) -> Option<Span> {
        match &s.kind {
            StmtKind::Return(_)
            | StmtKind::Goto(_)
            | StmtKind::GotoIndirect(_)
            | StmtKind::Labeled(..) => Some(s.span),
            StmtKind::Break | StmtKind::Continue if depth == 0 => Some(s.span),
            StmtKind::Compound(b) => block(b, depth),
            StmtKind::For(_, _, _, b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
                stmt(b, depth + 1)
            }
            StmtKind::Switch(_, b) => stmt(b, depth + 1),
            StmtKind::Case(_, _, b) | StmtKind::Default(b) => stmt(b, depth),
            StmtKind::If(_, t, e) => {
                stmt(t, depth).or_else(|| e.as_ref().and_then(|e| stmt(e, depth)))
            }
            StmtKind::Omp(d) if is_target_region(d.kind) => None,
            StmtKind::Omp(d) => d.body.as_ref().and_then(|b| stmt(b, depth)),
            _ => None,
        }
    }
    items.iter().find_map(|i| match i {
        BlockItem::Stmt(s) => stmt(s, 0),
        _ => None,
    })
}

/// Whether `b` holds a label outside target regions (nothing jumps into those): where
/// there is none, nothing runs a statement twice but a loop around it.
pub(crate) fn has_label(b: &Block) -> bool {
    fn stmt(s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Labeled(..) => true,
            StmtKind::Compound(b) => has_label(b),
            StmtKind::For(_, _, _, b)
            | StmtKind::While(_, b)
            | StmtKind::DoWhile(b, _)
            | StmtKind::Switch(_, b)
            | StmtKind::Case(_, _, b)
            | StmtKind::Default(b) => stmt(b),
            StmtKind::If(_, t, e) => stmt(t) || e.as_ref().is_some_and(|e| stmt(e)),
            StmtKind::Omp(d) if is_target_region(d.kind) => false,
            StmtKind::Omp(d) => d.body.as_ref().is_some_and(|b| stmt(b)),
            _ => false,
        }
    }
    b.items
        .iter()
        .any(|i| matches!(i, BlockItem::Stmt(s) if stmt(s)))
}

/// Whether `items` hold a data construct the user wrote (`target data`, `enter`/`exit data`,
/// `update`): the planner leaves such functions as written.
pub(crate) fn user_data_construct(body: &Block) -> Option<(Span, String)> {
    let mut found = None;
    ompcc_omp::walk::block(body, &mut |n| {
        if let ompcc_omp::walk::Node::Directive(d) = n
            && found.is_none()
            && matches!(
                d.kind,
                OmpDirectiveKind::TargetData
                    | OmpDirectiveKind::TargetEnterData
                    | OmpDirectiveKind::TargetExitData
                    | OmpDirectiveKind::TargetUpdate
            )
        {
            found = Some((d.span, d.name()));
        }
    });
    found
}

/// The spans inside `items` whose code runs only under a condition: `if` arms, `switch`
/// and `while` bodies, the bodies of loops that `break`, `continue` or jump out, the arms of
/// `?:`, the right operands of `&&`/`||`, and array accesses with a `?:` subscript (the
/// access analysis records one access per arm, each under its condition).
pub(crate) fn guarded_spans(items: &[&BlockItem], span: Span) -> Vec<Span> {
    let mut out = Vec::new();
    let block = Block {
        span,
        items: items.iter().map(|i| (*i).clone()).collect(),
    };
    ompcc_omp::walk::block(&block, &mut |n| {
        if let ompcc_omp::walk::Node::Expr(x) = n {
            match &x.kind {
                ExprKind::Cond(_, t, f) => {
                    if let Some(t) = t {
                        out.push(t.span);
                    }
                    out.push(f.span);
                }
                ExprKind::Binary(BinaryOp::LogAnd | BinaryOp::LogOr, _, r) => out.push(r.span),
                ExprKind::Index(..) if has_cond_subscript(x) => out.push(x.span),
                _ => {}
            }
        }
    });
    for i in items {
        if let BlockItem::Stmt(s) = i {
            stmt_structure(s, &mut out);
        }
    }
    out
}

/// Whether the access at `at` runs under a condition inside `node` (a guard around the
/// whole node does not count: the statement tree models those branches and loops).
pub(crate) fn conditional_within(guarded: &[Span], node: Span, at: Span) -> bool {
    guarded
        .iter()
        .any(|g| at.lo >= g.lo && at.hi <= g.hi && !(g.lo <= node.lo && node.hi <= g.hi))
}

/// Whether an operand of the array access `e`, or of the accesses it indexes, is built by
/// arithmetic from a `?:`.
fn has_cond_subscript(e: &Expr) -> bool {
    fn arith(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Cond(..) => true,
            ExprKind::Paren(x) | ExprKind::Cast(_, x) => arith(x),
            ExprKind::Unary(UnaryOp::Minus | UnaryOp::Plus, x) => arith(x),
            ExprKind::Binary(_, l, r) => arith(l) || arith(r),
            _ => false,
        }
    }
    match &e.kind {
        ExprKind::Paren(x) => has_cond_subscript(x),
        ExprKind::Index(l, r) => {
            arith(l) || arith(r) || has_cond_subscript(l) || has_cond_subscript(r)
        }
        _ => false,
    }
}

/// The statement-level guards (the expression-level ones come from the walk).
fn stmt_structure(s: &Stmt, out: &mut Vec<Span>) {
    match &s.kind {
        StmtKind::If(_, t, e) => {
            out.push(t.span);
            if let Some(e) = e {
                out.push(e.span);
            }
        }
        StmtKind::Switch(_, b) | StmtKind::While(_, b) => out.push(b.span),
        StmtKind::For(_, _, _, b) => {
            if jumps_out(b, 0) {
                out.push(b.span);
            } else {
                stmt_structure(b, out);
            }
        }
        StmtKind::DoWhile(b, _) => {
            if jumps_out(b, 0) {
                out.push(b.span);
            } else {
                stmt_structure(b, out);
            }
        }
        StmtKind::Compound(b) => {
            for i in &b.items {
                if let BlockItem::Stmt(s) = i {
                    stmt_structure(s, out);
                }
            }
        }
        StmtKind::Labeled(_, b) | StmtKind::Case(_, _, b) | StmtKind::Default(b) => {
            stmt_structure(b, out)
        }
        StmtKind::Omp(d) => {
            if let Some(b) = &d.body {
                stmt_structure(b, out);
            }
        }
        _ => {}
    }
}

/// A `break`, `continue`, `return` or `goto` that leaves the body of a loop early.
pub(crate) fn jumps_out(s: &Stmt, depth: u32) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => depth == 0,
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::GotoIndirect(_) => true,
        StmtKind::Compound(b) => b.items.iter().any(|i| match i {
            BlockItem::Stmt(s) => jumps_out(s, depth),
            _ => false,
        }),
        StmtKind::For(_, _, _, b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
            jumps_out(b, depth + 1)
        }
        StmtKind::Switch(_, b) => jumps_out_switch(b, depth),
        StmtKind::If(_, t, e) => {
            jumps_out(t, depth) || e.as_ref().is_some_and(|e| jumps_out(e, depth))
        }
        StmtKind::Labeled(_, b) | StmtKind::Case(_, _, b) | StmtKind::Default(b) => {
            jumps_out(b, depth)
        }
        StmtKind::Omp(d) => d.body.as_ref().is_some_and(|b| jumps_out(b, depth)),
        _ => false,
    }
}

/// Inside a `switch`, `break` leaves the switch, `continue` the loop.
fn jumps_out_switch(s: &Stmt, depth: u32) -> bool {
    match &s.kind {
        StmtKind::Continue => depth == 0,
        StmtKind::Break => false,
        StmtKind::Compound(b) => b.items.iter().any(|i| match i {
            BlockItem::Stmt(s) => jumps_out_switch(s, depth),
            _ => false,
        }),
        StmtKind::Labeled(_, b) | StmtKind::Case(_, _, b) | StmtKind::Default(b) => {
            jumps_out_switch(b, depth)
        }
        StmtKind::If(_, t, e) => {
            jumps_out_switch(t, depth) || e.as_ref().is_some_and(|e| jumps_out_switch(e, depth))
        }
        _ => jumps_out(s, depth + 1),
    }
}

/// An expression whose evaluation has no effect and gives the same value again: no
/// assignment, increment, call, comma, statement expression or `volatile` access.
fn pure(e: &ompcc_syntax::ast::Expr, typed: &ompcc_sema::TypedUnit) -> bool {
    use ompcc_syntax::ast::UnaryOp;
    let mut ok = true;
    ompcc_omp::walk::expr(e, &mut |n| {
        if let ompcc_omp::walk::Node::Expr(x) = n {
            ok &= typed
                .expr(x.id)
                .is_some_and(|i| !i.ty.quals.contains(ompcc_sema::types::Quals::VOLATILE));
            match &x.kind {
                ExprKind::Ident(_)
                | ExprKind::Int { .. }
                | ExprKind::Paren(_)
                | ExprKind::Binary(..)
                | ExprKind::Index(..)
                | ExprKind::Cast(..)
                | ExprKind::Cond(..) => {}
                ExprKind::Unary(op, _) => {
                    ok &= !matches!(
                        op,
                        UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                    )
                }
                _ => ok = false,
            }
        }
    });
    ok
}
