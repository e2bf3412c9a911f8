//! Reverse postorder and dominators of a graph given by a successor function over
//! `0..n`, from one root: the iterative algorithm of Cooper, Harvey and Kennedy ("A
//! Simple, Fast Dominance Algorithm", 2001). Post-dominators are the dominators of the
//! reversed graph (the caller passes predecessors as successors).
//!
//! Only the part reachable from the root is ordered and dominated; other nodes have
//! rank and immediate dominator [`UNREACHED`].

/// Rank or immediate dominator of a node the search did not reach.
pub const UNREACHED: u32 = u32::MAX;

/// A depth-first reverse postorder of the nodes reachable from a root.
#[derive(Clone, Debug)]
pub struct ReversePostorder {
    /// Reached nodes, root first.
    pub order: Vec<u32>,
    /// Per node: its position in `order`, or [`UNREACHED`].
    pub rank: Vec<u32>,
}

/// `successor(node, i)` is the `i`-th successor of `node`, `None` past the last one.
pub fn reverse_postorder(
    node_count: usize,
    root: usize,
    successor: impl Fn(usize, usize) -> Option<usize>,
) -> ReversePostorder {
    let mut rank = vec![UNREACHED; node_count];
    let mut post: Vec<u32> = Vec::with_capacity(node_count);
    if root < node_count {
        let mut seen = vec![false; node_count];
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        seen[root] = true;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(s) = successor(node, *next) {
                *next += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(node as u32);
                stack.pop();
            }
        }
    }
    post.reverse();
    for (i, &node) in post.iter().enumerate() {
        rank[node as usize] = i as u32;
    }
    ReversePostorder { order: post, rank }
}

/// Immediate dominators from a root, with the order they were computed in.
#[derive(Clone, Debug)]
pub struct Dominators {
    /// Per node: its immediate dominator; the root's is itself; [`UNREACHED`] for
    /// nodes not reached.
    pub idom: Vec<u32>,
    pub rpo: ReversePostorder,
    /// Per reached node: its predecessors among reached nodes, without repetition.
    pub preds: Vec<Vec<u32>>,
}

impl Dominators {
    /// The immediate dominator (`None` for the root and for unreached nodes).
    pub fn immediate(&self, node: usize) -> Option<usize> {
        let d = self.idom[node];
        (d != UNREACHED && d as usize != node).then_some(d as usize)
    }

    /// Whether `a` dominates `b` (reflexive; false when `b` is unreached).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if self.idom[b] == UNREACHED {
            return false;
        }
        let mut runner = b;
        loop {
            if runner == a {
                return true;
            }
            match self.immediate(runner) {
                Some(up) => runner = up,
                None => return false,
            }
        }
    }
}

pub fn dominators(
    node_count: usize,
    root: usize,
    successor: impl Fn(usize, usize) -> Option<usize>,
) -> Dominators {
    let rpo = reverse_postorder(node_count, root, &successor);
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); node_count];
    for &node in &rpo.order {
        let mut i = 0;
        while let Some(s) = successor(node as usize, i) {
            i += 1;
            if !preds[s].contains(&node) {
                preds[s].push(node);
            }
        }
    }
    let mut idom = vec![UNREACHED; node_count];
    if let Some(&first) = rpo.order.first() {
        idom[first as usize] = first;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &node in rpo.order.iter().skip(1) {
            let mut new_idom = UNREACHED;
            for &p in &preds[node as usize] {
                if idom[p as usize] == UNREACHED {
                    continue;
                }
                new_idom = if new_idom == UNREACHED {
                    p
                } else {
                    intersect(&idom, &rpo.rank, p, new_idom)
                };
            }
            if new_idom != UNREACHED && idom[node as usize] != new_idom {
                idom[node as usize] = new_idom;
                changed = true;
            }
        }
    }
    Dominators { idom, rpo, preds }
}

fn intersect(idom: &[u32], rank: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rank[a as usize] > rank[b as usize] {
            a = idom[a as usize];
        }
        while rank[b as usize] > rank[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doms(succs: &[&[usize]]) -> Dominators {
        dominators(succs.len(), 0, |v, i| succs[v].get(i).copied())
    }

    #[test]
    fn diamond_with_loop() {
        // 0 -> 1 -> {2, 3} -> 4 -> 1 (back edge), 4 -> 5; 6 unreachable.
        let d = doms(&[&[1], &[2, 3], &[4], &[4], &[1, 5], &[], &[5]]);
        assert_eq!(d.immediate(0), None);
        assert_eq!(d.immediate(1), Some(0));
        assert_eq!(d.immediate(2), Some(1));
        assert_eq!(d.immediate(3), Some(1));
        // 4 is reached through 2 or 3: only 1 dominates it.
        assert_eq!(d.immediate(4), Some(1));
        assert_eq!(d.immediate(5), Some(4));
        assert_eq!(d.idom[6], UNREACHED);
        assert!(d.dominates(1, 5) && !d.dominates(2, 4) && !d.dominates(0, 6));
        assert_eq!(d.rpo.order[0], 0);
        assert_eq!(d.rpo.rank[6], UNREACHED);
        // Every edge between reached nodes that is not a back edge goes forward in rank.
        assert!(d.rpo.rank[1] < d.rpo.rank[4] && d.rpo.rank[4] < d.rpo.rank[5]);
        assert_eq!(d.preds[1], vec![0, 4]);
    }

    #[test]
    fn agrees_with_the_definition_on_random_graphs() {
        // a dominates b iff b is unreachable from the root once a is removed (a != root).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let n = 2 + (next() % 9) as usize;
            let succs: Vec<Vec<usize>> = (0..n)
                .map(|_| {
                    (0..next() % 3)
                        .map(|_| (next() % n as u64) as usize)
                        .collect()
                })
                .collect();
            let d = dominators(n, 0, |v, i| succs[v].get(i).copied());
            let reach = |without: usize| {
                let mut seen = vec![false; n];
                let mut stack = vec![0];
                seen[0] = true;
                while let Some(v) = stack.pop() {
                    for &s in &succs[v] {
                        if s != without && !seen[s] {
                            seen[s] = true;
                            stack.push(s);
                        }
                    }
                }
                seen
            };
            let reached = reach(usize::MAX);
            for a in 0..n {
                let without_a = reach(a);
                for b in 0..n {
                    let expected = reached[b] && (a == b || a == 0 || !without_a[b]);
                    assert_eq!(d.dominates(a, b), expected, "{succs:?} a={a} b={b}");
                }
            }
        }
    }
}
