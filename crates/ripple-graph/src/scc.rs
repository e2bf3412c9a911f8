//! Strongly connected components (Tarjan 1972, iterative), for control-flow graphs (the
//! components of 004 section 3.1) and for the call graph (004 Lemma 1, Fig. 5 line 1).
//!
//! The graph is given by a successor function over `0..n`; only nodes reachable from the
//! given roots are visited, so unreachable code never forms a component. Components come
//! out in topological order of the condensation (a component before every component it
//! has an edge to). Known limits: none beyond memory linear in nodes plus edges.

/// The strongly connected components of the part of a graph reachable from its roots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sccs {
    /// Per node: its component, or [`Sccs::UNREACHED`] for nodes not reached.
    pub component_of: Vec<u32>,
    /// Members of each component (sorted), components in topological order.
    pub members: Vec<Vec<u32>>,
    /// Whether the component has a cycle: more than one node, or a self-loop.
    pub cyclic: Vec<bool>,
}

impl Sccs {
    /// The component of nodes the search did not reach.
    pub const UNREACHED: u32 = u32::MAX;

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub fn is_reached(&self, node: usize) -> bool {
        self.component_of[node] != Self::UNREACHED
    }
}

/// Tarjan's algorithm from `roots`, over `node_count` nodes; `successor(node, i)` is the
/// `i`-th successor of `node` or `None` past the last one.
pub fn strongly_connected_components(
    node_count: usize,
    roots: impl IntoIterator<Item = usize>,
    successor: impl Fn(usize, usize) -> Option<usize>,
) -> Sccs {
    const UNVISITED: u32 = u32::MAX;
    let mut index = vec![UNVISITED; node_count];
    let mut lowlink = vec![0u32; node_count];
    let mut on_stack = vec![false; node_count];
    let mut stack: Vec<u32> = Vec::new();
    let mut component_of = vec![Sccs::UNREACHED; node_count];
    // Components in the order Tarjan completes them: reverse topological.
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut cyclic: Vec<bool> = Vec::new();
    let mut next_index = 0u32;
    // Call stack of the depth-first search: (node, next successor position).
    let mut frames: Vec<(usize, usize)> = Vec::new();
    for root in roots {
        if index[root] != UNVISITED {
            continue;
        }
        index[root] = next_index;
        lowlink[root] = next_index;
        next_index += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        frames.push((root, 0));
        while let Some(top) = frames.last_mut() {
            let (node, position) = *top;
            if let Some(succ) = successor(node, position) {
                top.1 += 1;
                if index[succ] == UNVISITED {
                    index[succ] = next_index;
                    lowlink[succ] = next_index;
                    next_index += 1;
                    stack.push(succ as u32);
                    on_stack[succ] = true;
                    frames.push((succ, 0));
                } else if on_stack[succ] {
                    lowlink[node] = lowlink[node].min(index[succ]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                lowlink[parent] = lowlink[parent].min(lowlink[node]);
            }
            if lowlink[node] == index[node] {
                let id = members.len() as u32;
                let mut component = Vec::new();
                loop {
                    let member = stack.pop().expect("Tarjan stack holds the component");
                    on_stack[member as usize] = false;
                    component_of[member as usize] = id;
                    component.push(member);
                    if member as usize == node {
                        break;
                    }
                }
                component.sort_unstable();
                let has_cycle = component.len() > 1 || {
                    let mut i = 0;
                    let mut self_loop = false;
                    while let Some(s) = successor(node, i) {
                        self_loop |= s == node;
                        i += 1;
                    }
                    self_loop
                };
                members.push(component);
                cyclic.push(has_cycle);
            }
        }
    }
    // Reverse into topological order and renumber.
    let count = members.len() as u32;
    members.reverse();
    cyclic.reverse();
    for c in &mut component_of {
        if *c != Sccs::UNREACHED {
            *c = count - 1 - *c;
        }
    }
    Sccs {
        component_of,
        members,
        cyclic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sccs(n: usize, edges: &[(usize, usize)], roots: &[usize]) -> Sccs {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a].push(b);
        }
        strongly_connected_components(n, roots.iter().copied(), |node, i| {
            adj[node].get(i).copied()
        })
    }

    #[test]
    fn components_in_topological_order() {
        // 0 -> 1 <-> 2 -> 3 (self-loop), 4 unreachable from 0.
        let s = sccs(5, &[(0, 1), (1, 2), (2, 1), (2, 3), (3, 3), (4, 0)], &[0]);
        assert_eq!(s.members, vec![vec![0], vec![1, 2], vec![3]]);
        assert_eq!(s.cyclic, vec![false, true, true]);
        assert!(!s.is_reached(4));
        assert_eq!(s.component_of[2], 1);
    }

    #[test]
    fn every_edge_goes_forward_in_the_order() {
        // A deterministic pseudo-random graph: each edge joins components in order.
        let n = 60;
        let mut edges = Vec::new();
        let mut x: u64 = 7;
        for a in 0..n {
            for _ in 0..2 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                edges.push((a, (x >> 33) as usize % n));
            }
        }
        let s = sccs(n, &edges, &(0..n).collect::<Vec<_>>());
        for &(a, b) in &edges {
            assert!(s.component_of[a] <= s.component_of[b]);
        }
    }
}
