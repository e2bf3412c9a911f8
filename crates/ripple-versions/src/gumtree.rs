//! Statement matching: GumTree on the per-function syntax trees.
//!
//! Falleri, Morandat, Blanc, Martinez, Monperrus: "Fine-grained and accurate source code
//! differencing", ASE 2014, section 3 (algorithms 1 and 2):
//!
//! 1. **Top-down** ([`top_down`]): the largest isomorphic subtrees (same kinds, labels and
//!    shape, found through a structural hash) are matched greedily, by decreasing height,
//!    down to `min_height`. A subtree with several isomorphic candidates is deferred and the
//!    candidates are ranked by the Dice similarity of their parents (ties: closer relative
//!    position, then ids), as in the paper.
//! 2. **Bottom-up** ([`bottom_up`]): in post-order, an unmatched inner node is matched to the
//!    unmatched node of the same kind whose descendants share the most mappings with its
//!    own (Dice above `min_dice`); the two roots are always matched.
//! 3. **Recovery** ([`recover`]): after each bottom-up match, the remaining children are
//!    matched by the longest common subsequence of isomorphic children, then of children
//!    with the same kind and label (recursively), then of children whose kind occurs once
//!    on each side (the LCS is bounded: very long child lists keep their common prefix
//!    and suffix only). This replaces the paper's optimal edit script (RTED) on small subtrees
//!    by the cheaper LCS recovery of later GumTree versions ("simple" recovery).
//!
//! Layout and comments never reach the trees (the frontend drops them), so tree equality
//! ignores formatting: spans differ, kinds and labels do not. Labels are compared after
//! [`crate::similarity::normalise_label`], so a renamed function's own name is no change.
//!
//! Everything iterates in id or post order and breaks ties by ids: the result is
//! deterministic.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use ripple_ir::{SynId, SyntaxTree};
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};

use crate::similarity::normalise_label;

/// A syntax tree with the per-node data GumTree needs.
pub(crate) struct TreeView<'a> {
    pub(crate) tree: &'a SyntaxTree,
    /// Labels after own-name normalisation.
    labels: Vec<&'a str>,
    height: Vec<u32>,
    /// Number of nodes in the subtree (itself included).
    size: Vec<u32>,
    /// Structural hash of the subtree (kinds, labels, shape).
    hash: Vec<u64>,
    /// Post-order of the tree from its root.
    pub(crate) post: Vec<SynId>,
    /// Position of each node in `post` (`u32::MAX` when unreachable from the root).
    post_index: Vec<u32>,
}

impl<'a> TreeView<'a> {
    pub(crate) fn new(tree: &'a SyntaxTree, own_name: &str) -> TreeView<'a> {
        let count = tree.nodes.len();
        let labels = tree
            .nodes
            .iter()
            .map(|node| normalise_label(&node.label, own_name))
            .collect::<Vec<_>>();
        let mut view = TreeView {
            tree,
            labels,
            height: vec![0; count],
            size: vec![0; count],
            hash: vec![0; count],
            post: Vec::new(),
            post_index: vec![u32::MAX; count],
        };
        if count == 0 {
            return view;
        }
        view.post = tree.post_order(tree.root);
        for (position, &id) in view.post.iter().enumerate() {
            let i = id.index();
            view.post_index[i] = u32::try_from(position).expect("tree size fits in u32");
            let node = &tree.nodes[id];
            let mut hasher = FxHasher::default();
            node.kind.hash(&mut hasher);
            view.labels[i].hash(&mut hasher);
            node.children.len().hash(&mut hasher);
            let mut height = 0;
            let mut size = 1;
            for &child in &node.children {
                view.hash[child.index()].hash(&mut hasher);
                height = height.max(view.height[child.index()]);
                size += view.size[child.index()];
            }
            view.height[i] = height + 1;
            view.size[i] = size;
            view.hash[i] = hasher.finish();
        }
        view
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.post.is_empty()
    }

    pub(crate) fn root(&self) -> SynId {
        self.tree.root
    }

    pub(crate) fn kind(&self, id: SynId) -> &'static str {
        self.tree.nodes[id].kind
    }

    pub(crate) fn label(&self, id: SynId) -> &str {
        self.labels[id.index()]
    }

    pub(crate) fn children(&self, id: SynId) -> &[SynId] {
        &self.tree.nodes[id].children
    }

    pub(crate) fn parent(&self, id: SynId) -> Option<SynId> {
        self.tree.nodes[id].parent
    }

    /// The descendants of `id` (itself excluded), in post-order.
    pub(crate) fn descendants(&self, id: SynId) -> &[SynId] {
        let end = self.post_index[id.index()] as usize;
        let start = end + 1 - self.size[id.index()] as usize;
        &self.post[start..end]
    }

    /// The subtree of `id` (itself included), in post-order.
    pub(crate) fn subtree(&self, id: SynId) -> &[SynId] {
        let end = self.post_index[id.index()] as usize;
        let start = end + 1 - self.size[id.index()] as usize;
        &self.post[start..=end]
    }

    pub(crate) fn is_descendant(&self, node: SynId, ancestor: SynId) -> bool {
        let position = self.post_index[node.index()];
        let end = self.post_index[ancestor.index()];
        position < end && position + self.size[ancestor.index()] > end
    }

    /// The position of `id` among its siblings, scaled to [0, 1].
    fn relative_position(&self, id: SynId) -> f64 {
        match self.parent(id) {
            None => 0.0,
            Some(parent) => {
                let siblings = self.children(parent);
                let index = siblings.iter().position(|&c| c == id).unwrap_or(0);
                if siblings.len() <= 1 {
                    0.0
                } else {
                    index as f64 / (siblings.len() - 1) as f64
                }
            }
        }
    }
}

/// Whether two subtrees are isomorphic: same kinds, labels and shape.
pub(crate) fn isomorphic(a: &TreeView<'_>, x: SynId, b: &TreeView<'_>, y: SynId) -> bool {
    if a.hash[x.index()] != b.hash[y.index()] || a.size[x.index()] != b.size[y.index()] {
        return false;
    }
    // Guard against hash collisions: compare the two post-orders node by node.
    a.subtree(x).iter().zip(b.subtree(y)).all(|(&p, &q)| {
        a.kind(p) == b.kind(q)
            && a.label(p) == b.label(q)
            && a.children(p).len() == b.children(q).len()
    })
}

/// Whether two subtrees are isomorphic up to renaming: as [`isomorphic`], but an
/// identifier may have another name when the two names are a pair of `renamed`.
pub(crate) fn isomorphic_renamed(
    a: &TreeView<'_>,
    x: SynId,
    b: &TreeView<'_>,
    y: SynId,
    renamed: &[(&str, &str)],
) -> bool {
    if renamed.is_empty() || a.size[x.index()] != b.size[y.index()] {
        return isomorphic(a, x, b, y);
    }
    a.subtree(x).iter().zip(b.subtree(y)).all(|(&p, &q)| {
        a.kind(p) == b.kind(q)
            && a.children(p).len() == b.children(q).len()
            && (a.label(p) == b.label(q)
                || (a.kind(p) == "identifier" && renamed.contains(&(a.label(p), b.label(q)))))
    })
}

/// A partial bijection between the nodes of two syntax trees.
#[derive(Clone, Debug)]
pub(crate) struct SynMapping {
    old_to_new: Vec<Option<SynId>>,
    new_to_old: Vec<Option<SynId>>,
}

impl SynMapping {
    pub(crate) fn new(old_count: usize, new_count: usize) -> SynMapping {
        SynMapping {
            old_to_new: vec![None; old_count],
            new_to_old: vec![None; new_count],
        }
    }

    pub(crate) fn new_of(&self, old: SynId) -> Option<SynId> {
        self.old_to_new[old.index()]
    }

    pub(crate) fn old_of(&self, new: SynId) -> Option<SynId> {
        self.new_to_old[new.index()]
    }

    fn link(&mut self, old: SynId, new: SynId) {
        debug_assert!(self.old_to_new[old.index()].is_none());
        debug_assert!(self.new_to_old[new.index()].is_none());
        self.old_to_new[old.index()] = Some(new);
        self.new_to_old[new.index()] = Some(old);
    }

    fn unlink_old(&mut self, old: SynId) {
        if let Some(new) = self.old_to_new[old.index()].take() {
            self.new_to_old[new.index()] = None;
        }
    }

    fn unlink_new(&mut self, new: SynId) {
        if let Some(old) = self.new_to_old[new.index()].take() {
            self.old_to_new[old.index()] = None;
        }
    }

    /// Maps two isomorphic subtrees node by node (pairs whose nodes are both still free).
    fn link_subtrees(&mut self, a: &TreeView<'_>, x: SynId, b: &TreeView<'_>, y: SynId) {
        for (&p, &q) in a.subtree(x).iter().zip(b.subtree(y)) {
            if self.new_of(p).is_none() && self.old_of(q).is_none() {
                self.link(p, q);
            }
        }
    }

    /// The mapped pairs, by old id.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (SynId, SynId)> + '_ {
        self.old_to_new
            .iter()
            .enumerate()
            .filter_map(|(i, new)| new.map(|new| (SynId::from(i), new)))
    }
}

/// The GumTree parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GumTreeConfig {
    pub(crate) min_height: u32,
    pub(crate) min_dice: f64,
}

/// Matches the nodes of two syntax trees: top-down, then bottom-up with recovery.
pub(crate) fn match_trees(a: &TreeView<'_>, b: &TreeView<'_>, config: GumTreeConfig) -> SynMapping {
    let mut mapping = SynMapping::new(a.tree.nodes.len(), b.tree.nodes.len());
    if a.is_empty() || b.is_empty() {
        return mapping;
    }
    top_down(a, b, &mut mapping, config.min_height);
    bottom_up(a, b, &mut mapping, config.min_dice);
    realign_bodies(a, b, &mut mapping);
    mapping
}

/// Gives matched constructs their bodies back. The bottom-up phase matches containers
/// greedily, deepest first, by the share of descendants they have in common, so when a
/// change nests statements anew (two `if`s merged into one condition), a block can be
/// matched to the block one level up or down, and every construct around it then reads
/// as moved. Top-down from the root, the only block among the children of a matched
/// node is matched to the only block among its partner's children.
fn realign_bodies(a: &TreeView<'_>, b: &TreeView<'_>, mapping: &mut SynMapping) {
    const BLOCK: &str = "compound_statement";
    let mut stack = vec![a.root()];
    while let Some(x) = stack.pop() {
        if let Some(y) = mapping.new_of(x) {
            let only = |view: &TreeView<'_>, node: SynId| -> Option<SynId> {
                let mut blocks = view
                    .children(node)
                    .iter()
                    .copied()
                    .filter(|&c| view.kind(c) == BLOCK);
                let first = blocks.next()?;
                blocks.next().is_none().then_some(first)
            };
            if let (Some(c), Some(d)) = (only(a, x), only(b, y)) {
                if mapping.new_of(c) != Some(d) {
                    mapping.unlink_old(c);
                    mapping.unlink_new(d);
                    mapping.link(c, d);
                }
            }
        }
        stack.extend(a.children(x).iter().rev().copied());
    }
}

/// Nodes waiting to be matched, by height.
struct HeightQueue {
    by_height: BTreeMap<u32, Vec<SynId>>,
}

impl HeightQueue {
    fn new(root: SynId, view: &TreeView<'_>) -> HeightQueue {
        let mut queue = HeightQueue {
            by_height: BTreeMap::new(),
        };
        queue.push(root, view);
        queue
    }

    fn push(&mut self, id: SynId, view: &TreeView<'_>) {
        self.by_height
            .entry(view.height[id.index()])
            .or_default()
            .push(id);
    }

    fn peek_max(&self) -> u32 {
        self.by_height.keys().next_back().copied().unwrap_or(0)
    }

    fn pop_max(&mut self) -> Vec<SynId> {
        let mut nodes = self
            .by_height
            .pop_last()
            .map(|(_, v)| v)
            .unwrap_or_default();
        nodes.sort_unstable();
        nodes
    }

    fn open(&mut self, id: SynId, view: &TreeView<'_>) {
        for &child in view.children(id) {
            self.push(child, view);
        }
    }
}

/// Algorithm 1 of the paper: greedy top-down matching of isomorphic subtrees.
pub(crate) fn top_down(
    a: &TreeView<'_>,
    b: &TreeView<'_>,
    mapping: &mut SynMapping,
    min_height: u32,
) {
    let mut queue_a = HeightQueue::new(a.root(), a);
    let mut queue_b = HeightQueue::new(b.root(), b);
    let mut candidates: Vec<(SynId, SynId)> = Vec::new();
    loop {
        let (height_a, height_b) = (queue_a.peek_max(), queue_b.peek_max());
        if height_a.min(height_b) < min_height.max(1) {
            break;
        }
        if height_a != height_b {
            if height_a > height_b {
                for id in queue_a.pop_max() {
                    queue_a.open(id, a);
                }
            } else {
                for id in queue_b.pop_max() {
                    queue_b.open(id, b);
                }
            }
            continue;
        }
        let nodes_a = queue_a.pop_max();
        let nodes_b = queue_b.pop_max();
        let mut hash_count_a: FxHashMap<u64, u32> = FxHashMap::default();
        for &x in &nodes_a {
            *hash_count_a.entry(a.hash[x.index()]).or_insert(0) += 1;
        }
        let mut by_hash_b: FxHashMap<u64, Vec<SynId>> = FxHashMap::default();
        for &y in &nodes_b {
            by_hash_b.entry(b.hash[y.index()]).or_default().push(y);
        }
        let mut used_a = vec![false; nodes_a.len()];
        let mut used_b: FxHashMap<SynId, bool> = FxHashMap::default();
        for (i, &x) in nodes_a.iter().enumerate() {
            let Some(ys) = by_hash_b.get(&a.hash[x.index()]) else {
                continue;
            };
            let isomorphic_ys: Vec<SynId> = ys
                .iter()
                .copied()
                .filter(|&y| isomorphic(a, x, b, y))
                .collect();
            if isomorphic_ys.is_empty() {
                continue;
            }
            used_a[i] = true;
            for &y in &isomorphic_ys {
                used_b.insert(y, true);
            }
            if isomorphic_ys.len() == 1 && hash_count_a[&a.hash[x.index()]] == 1 {
                mapping.link_subtrees(a, x, b, isomorphic_ys[0]);
            } else {
                candidates.extend(isomorphic_ys.iter().map(|&y| (x, y)));
            }
        }
        for (i, &x) in nodes_a.iter().enumerate() {
            if !used_a[i] {
                queue_a.open(x, a);
            }
        }
        for &y in &nodes_b {
            if !used_b.contains_key(&y) {
                queue_b.open(y, b);
            }
        }
    }
    // Ambiguous candidates: best parent similarity first, then closest position, then ids.
    let mut ranked: Vec<(f64, f64, SynId, SynId)> = candidates
        .into_iter()
        .map(|(x, y)| {
            let parent_dice = match (a.parent(x), b.parent(y)) {
                (Some(px), Some(py)) => dice(a, px, b, py, mapping),
                _ => 0.0,
            };
            let distance = (a.relative_position(x) - b.relative_position(y)).abs();
            (parent_dice, distance, x, y)
        })
        .collect();
    ranked.sort_by(|p, q| {
        q.0.total_cmp(&p.0)
            .then(p.1.total_cmp(&q.1))
            .then(p.2.cmp(&q.2))
            .then(p.3.cmp(&q.3))
    });
    for (_, _, x, y) in ranked {
        if mapping.new_of(x).is_none() && mapping.old_of(y).is_none() {
            mapping.link_subtrees(a, x, b, y);
        }
    }
}

/// The Dice similarity of two subtrees under `mapping`: the share of their descendants
/// mapped into each other.
pub(crate) fn dice(
    a: &TreeView<'_>,
    x: SynId,
    b: &TreeView<'_>,
    y: SynId,
    mapping: &SynMapping,
) -> f64 {
    let total = a.descendants(x).len() + b.descendants(y).len();
    if total == 0 {
        return 0.0;
    }
    let common = a
        .descendants(x)
        .iter()
        .filter(|&&d| mapping.new_of(d).is_some_and(|m| b.is_descendant(m, y)))
        .count();
    2.0 * common as f64 / total as f64
}

/// Algorithm 2 of the paper: bottom-up matching of containers, with recovery.
pub(crate) fn bottom_up(
    a: &TreeView<'_>,
    b: &TreeView<'_>,
    mapping: &mut SynMapping,
    min_dice: f64,
) {
    for &x in &a.post {
        if x == a.root() {
            if mapping.new_of(x).is_none() && mapping.old_of(b.root()).is_none() {
                mapping.link(x, b.root());
            }
            if mapping.new_of(x) == Some(b.root()) {
                recover(a, x, b, b.root(), mapping);
            }
            continue;
        }
        if mapping.new_of(x).is_some() || a.children(x).is_empty() {
            continue;
        }
        // Candidates: unmatched same-kind ancestors of the images of x's descendants.
        // Ancestor chains converge: stop at the first ancestor already seen.
        let mut candidates: Vec<SynId> = Vec::new();
        let mut seen: FxHashSet<SynId> = FxHashSet::default();
        for &d in a.descendants(x) {
            let Some(image) = mapping.new_of(d) else {
                continue;
            };
            let mut up = b.parent(image);
            while let Some(y) = up {
                if !seen.insert(y) {
                    break;
                }
                if y != b.root() && b.kind(y) == a.kind(x) && mapping.old_of(y).is_none() {
                    candidates.push(y);
                }
                up = b.parent(y);
            }
        }
        candidates.sort_unstable();
        let mut best: Option<(f64, SynId)> = None;
        for y in candidates {
            let similarity = dice(a, x, b, y, mapping);
            if similarity > min_dice && best.is_none_or(|(s, _)| similarity > s) {
                best = Some((similarity, y));
            }
        }
        if let Some((_, y)) = best {
            mapping.link(x, y);
            recover(a, x, b, y, mapping);
        }
    }
}

/// Matches the remaining children of two matched nodes (LCS-based recovery).
pub(crate) fn recover(
    a: &TreeView<'_>,
    x: SynId,
    b: &TreeView<'_>,
    y: SynId,
    mapping: &mut SynMapping,
) {
    // 1. Isomorphic children, in order.
    let (xs, ys) = unmapped_children(a, x, b, y, mapping);
    for (p, q) in lcs(&xs, &ys, |p, q| isomorphic(a, p, b, q)) {
        mapping.link_subtrees(a, p, b, q);
    }
    // 2. Children with the same kind and label, in order, recursively.
    let (xs, ys) = unmapped_children(a, x, b, y, mapping);
    let mut recurse = Vec::new();
    for (p, q) in lcs(&xs, &ys, |p, q| {
        a.kind(p) == b.kind(q) && a.label(p) == b.label(q)
    }) {
        mapping.link(p, q);
        recurse.push((p, q));
    }
    // 3. Children whose kind occurs once among the remaining children of each side.
    let (xs, ys) = unmapped_children(a, x, b, y, mapping);
    for &p in &xs {
        let same_a = xs.iter().filter(|&&o| a.kind(o) == a.kind(p)).count();
        let same_b: Vec<SynId> = ys
            .iter()
            .copied()
            .filter(|&o| b.kind(o) == a.kind(p))
            .collect();
        if same_a == 1 && same_b.len() == 1 {
            mapping.link(p, same_b[0]);
            recurse.push((p, same_b[0]));
        }
    }
    for (p, q) in recurse {
        recover(a, p, b, q, mapping);
    }
}

fn unmapped_children(
    a: &TreeView<'_>,
    x: SynId,
    b: &TreeView<'_>,
    y: SynId,
    mapping: &SynMapping,
) -> (Vec<SynId>, Vec<SynId>) {
    let xs = a
        .children(x)
        .iter()
        .copied()
        .filter(|&c| mapping.new_of(c).is_none())
        .collect();
    let ys = b
        .children(y)
        .iter()
        .copied()
        .filter(|&c| mapping.old_of(c).is_none())
        .collect();
    (xs, ys)
}

/// The largest table [`lcs`] fills; longer sequences keep their common prefix and suffix
/// only (a child list of thousands of statements, e.g. a huge `switch`).
const LCS_MAX_CELLS: usize = 1 << 22;

/// A longest common subsequence of two sequences under `equal` (first one in order).
pub(crate) fn lcs<T: Copy>(xs: &[T], ys: &[T], equal: impl Fn(T, T) -> bool) -> Vec<(T, T)> {
    let (n, m) = (xs.len(), ys.len());
    if n == 0 || m == 0 {
        return Vec::new();
    }
    if (n + 1).saturating_mul(m + 1) > LCS_MAX_CELLS {
        let prefix = xs
            .iter()
            .zip(ys)
            .take_while(|&(&x, &y)| equal(x, y))
            .count();
        let suffix = xs[prefix..]
            .iter()
            .rev()
            .zip(ys[prefix..].iter().rev())
            .take_while(|&(&x, &y)| equal(x, y))
            .count();
        let mut out: Vec<(T, T)> = xs[..prefix]
            .iter()
            .copied()
            .zip(ys[..prefix].iter().copied())
            .collect();
        out.extend(
            xs[n - suffix..]
                .iter()
                .copied()
                .zip(ys[m - suffix..].iter().copied()),
        );
        return out;
    }
    // lengths[i][j]: LCS length of xs[i..] and ys[j..].
    let mut lengths = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lengths[at(i, j)] = if equal(xs[i], ys[j]) {
                lengths[at(i + 1, j + 1)] + 1
            } else {
                lengths[at(i + 1, j)].max(lengths[at(i, j + 1)])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if equal(xs[i], ys[j]) && lengths[at(i, j)] == lengths[at(i + 1, j + 1)] + 1 {
            out.push((xs[i], ys[j]));
            i += 1;
            j += 1;
        } else if lengths[at(i + 1, j)] >= lengths[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}
