//! Body similarity of two functions, for rename detection.
//!
//! The similarity is the Dice coefficient over the multisets of leaf tokens of the two
//! syntax trees, each token a pair (grammar kind, label). An identifier equal to the
//! function's own name is replaced by a placeholder first, so a recursive function that
//! was renamed is still recognised as identical. This is the token-bag measure used for
//! clone and rename detection (e.g. Kim et al.'s and Malpohl et al.'s renaming detectors);
//! it is cheap (linear in the tree size), symmetric, and 1.0 exactly when the bags agree.
//!
//! Known limits: the measure ignores order, so two functions with the same tokens in
//! another order look identical; rename detection therefore also requires a threshold
//! and picks pairs greedily by best similarity.

use ripple_ir::Function;
use rustc_hash::FxHashMap;

/// The placeholder that replaces a function's own name in its syntax tree.
pub(crate) const SELF_NAME: &str = "<self>";

/// The multiset of leaf tokens of a function's syntax tree.
#[derive(Clone, Debug, Default)]
pub(crate) struct TokenBag {
    counts: FxHashMap<(&'static str, String), u32>,
    total: u64,
}

impl TokenBag {
    /// The token bag of `function`, or `None` when it has no syntax tree.
    pub(crate) fn of_function(function: &Function) -> Option<TokenBag> {
        let tree = function.syntax.as_ref()?;
        let mut bag = TokenBag::default();
        for id in tree.post_order(tree.root) {
            let node = &tree.nodes[id];
            if !node.children.is_empty() {
                continue;
            }
            let label = normalise_label(&node.label, &function.name);
            *bag.counts.entry((node.kind, label.to_owned())).or_insert(0) += 1;
            bag.total += 1;
        }
        Some(bag)
    }

    /// The Dice coefficient `2 |A ∩ B| / (|A| + |B|)` of two multisets (1.0 for two
    /// empty bags).
    pub(crate) fn dice(&self, other: &TokenBag) -> f64 {
        if self.total + other.total == 0 {
            return 1.0;
        }
        let (small, large) = if self.counts.len() <= other.counts.len() {
            (self, other)
        } else {
            (other, self)
        };
        let common: u64 = small
            .counts
            .iter()
            .map(|(token, &count)| {
                u64::from(count.min(large.counts.get(token).copied().unwrap_or(0)))
            })
            .sum();
        2.0 * common as f64 / (self.total + other.total) as f64
    }
}

/// The label with the function's own name replaced by [`SELF_NAME`].
pub(crate) fn normalise_label<'a>(label: &'a str, own_name: &str) -> &'a str {
    if !own_name.is_empty() && label == own_name {
        SELF_NAME
    } else {
        label
    }
}
