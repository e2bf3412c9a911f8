//! Version matching: which function, statement and IR node of one version is which of
//! the other, and what changed.
//!
//! [`match_programs`] pairs the defined functions of two programs ([`procedures`]: by key,
//! by unique name, by body similarity for renames), matches the statements of each pair
//! on their syntax trees ([`gumtree`]: Falleri et al., ASE 2014), and derives the MAPPED
//! relation on IR nodes together with the changed nodes and source lines ([`mapped`]:
//! Gyori et al., ISSTA 2017, section 3.1).
//!
//! Guarantees:
//! - `node_map` is a partial bijection that maps entry to entry and exit to exit, pairs
//!   only nodes lowered in the same order from statements with identical text (kinds and
//!   labels; layout and comments ignored) at corresponding places, and is closed under
//!   control flow: the successors of a mapped pair are mapped to each other or both
//!   unmapped. Everything else is in `changed_old` / `changed_new`.
//! - Formatting-only and comment-only edits change nothing; a function that only moved
//!   (same key, other position) is [`FunctionStatus::Unchanged`].
//! - The output is sorted (by key, then ids) and does not depend on hash order.
//!
//! Renames: a renamed function is matched with its old self, but its callers still differ
//! in text (they call another name), so they are reported as [`FunctionStatus::Modified`]
//! with the call lines changed, even though the meaning of those calls did not change.
//!
//! Architecture invariant: this crate reads the IR and the per-function syntax trees
//! only; it knows nothing of C or tree-sitter, and does no I/O.

mod globals;
mod gumtree;
mod irdiff;
mod mapped;
mod procedures;
#[cfg(test)]
mod properties;
mod similarity;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

pub use globals::{match_all_globals, match_globals, GlobalMatch, GlobalStatus};

use ripple_ir::{FuncId, NodeId, Program};
use rustc_hash::FxHashMap;

use crate::gumtree::GumTreeConfig;
use crate::mapped::{diff_functions, everything_changed, identity, FunctionDiff, Side};
use crate::procedures::{match_procedures, PairKind};
use crate::similarity::TokenBag;

/// Parameters of the matching.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The body similarity (Dice over leaf tokens, 0 to 1) from which an unmatched old
    /// function and an unmatched new function are taken for a rename. Too low pairs
    /// unrelated small functions; too high misses renames that also changed the body.
    pub rename_threshold: f64,
    /// GumTree's minimum height of subtrees matched top-down (the paper uses 2): lower
    /// values match lone identifiers out of context.
    pub min_height: u32,
    /// GumTree's minimum Dice similarity of descendants for matching two containers
    /// bottom-up (the paper uses 0.5).
    pub min_dice: f64,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            rename_threshold: 0.6,
            min_height: 2,
            min_dice: 0.5,
        }
    }
}

/// The matching of two versions of a program.
#[derive(Clone, Debug, Default)]
pub struct VersionMatch {
    /// One entry per defined function of either version, sorted by key (the old key when
    /// there is an old function, else the new one), then by ids.
    pub functions: Vec<FunctionMatch>,
    /// One entry per defined global variable of either version, sorted by key.
    pub globals: Vec<GlobalMatch>,
}

impl VersionMatch {
    /// The entry of an old function, if it is defined.
    pub fn of_old(&self, old: FuncId) -> Option<&FunctionMatch> {
        self.functions.iter().find(|m| m.old == Some(old))
    }

    /// The entry of a new function, if it is defined.
    pub fn of_new(&self, new: FuncId) -> Option<&FunctionMatch> {
        self.functions.iter().find(|m| m.new == Some(new))
    }

    /// The entries that are not [`FunctionStatus::Unchanged`].
    pub fn changed(&self) -> impl Iterator<Item = &FunctionMatch> {
        self.functions
            .iter()
            .filter(|m| m.status != FunctionStatus::Unchanged)
    }

    /// The same matching with no node of a changed function mapped: every statement of
    /// a function whose body changed is a change, as the prototype of 000 (section 4,
    /// "Differencing") took it. Coarser than statement matching; for comparison.
    pub fn with_changed_functions_unmapped(mut self) -> VersionMatch {
        for m in self.functions.iter_mut().filter(|m| m.body_changed) {
            let map = std::mem::take(&mut m.node_map);
            m.changed_old.extend(map.iter().map(|&(a, _)| a));
            m.changed_new.extend(map.iter().map(|&(_, b)| b));
            m.changed_old.sort_unstable();
            m.changed_new.sort_unstable();
        }
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FunctionStatus {
    /// Same key, same text (layout and comments aside), every node mapped.
    Unchanged,
    /// Same key (or the same unique name), something differs.
    Modified,
    /// Defined in the new version only.
    Added,
    /// Defined in the old version only.
    Removed,
    /// Matched by body similarity under another name; `body_changed` tells whether the
    /// body changed too.
    Renamed,
}

impl FunctionStatus {
    pub fn name(self) -> &'static str {
        match self {
            FunctionStatus::Unchanged => "unchanged",
            FunctionStatus::Modified => "modified",
            FunctionStatus::Added => "added",
            FunctionStatus::Removed => "removed",
            FunctionStatus::Renamed => "renamed",
        }
    }
}

/// One function of either version and its counterpart.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionMatch {
    pub old: Option<FuncId>,
    pub new: Option<FuncId>,
    pub status: FunctionStatus,
    /// Whether anything differs besides the name (always true for added and removed
    /// functions, false for unchanged ones).
    pub body_changed: bool,
    /// MAPPED: a partial bijection of IR nodes old -> new, sorted by old node.
    pub node_map: Vec<(NodeId, NodeId)>,
    /// Unmapped pairs of nodes that hold the same statement: MAPPED leaves them out
    /// because their successors do not correspond (the node before an inserted or after
    /// a deleted statement, [`crate::mapped`]). They are in `changed_old` and
    /// `changed_new`, but compute what their partner computes. Sorted.
    pub continuation: Vec<(NodeId, NodeId)>,
    /// Old IR nodes that are not mapped, sorted.
    pub changed_old: Vec<NodeId>,
    /// New IR nodes that are not mapped, sorted.
    pub changed_new: Vec<NodeId>,
    /// Changed source lines of the old version (file path, 1-based line), sorted.
    pub old_lines: Vec<(String, u32)>,
    /// Changed source lines of the new version, sorted.
    pub new_lines: Vec<(String, u32)>,
    /// Body similarity (Dice over leaf tokens): 1.0 for identical bodies, 0.0 for added
    /// and removed functions.
    pub similarity: f64,
}

impl FunctionMatch {
    /// Whether both versions run the same code although the text differs (braces,
    /// layout, code the preprocessor leaves out, a loop written another way that
    /// lowers alike): every IR node of each is mapped to an equal one of the other
    /// ([`crate::irdiff`]). What it calls and the globals it reads may still differ.
    pub fn same_code(&self) -> bool {
        self.old.is_some()
            && self.new.is_some()
            && !self.node_map.is_empty()
            && self.changed_old.is_empty()
            && self.changed_new.is_empty()
    }
}

/// Matches two versions of a program: functions, statements and IR nodes.
pub fn match_programs(old: &Program, new: &Program, config: &MatchConfig) -> VersionMatch {
    let gumtree = GumTreeConfig {
        min_height: config.min_height,
        min_dice: config.min_dice,
    };
    let pairs = match_procedures(old, new, config.rename_threshold);
    let correspondence: FxHashMap<FuncId, FuncId> = pairs
        .iter()
        .filter_map(|pair| Some((pair.old?, pair.new?)))
        .collect();
    let mut functions: Vec<FunctionMatch> = pairs
        .into_iter()
        .map(|pair| {
            let old_side = pair.old.map(|id| Side {
                program: old,
                function: &old.functions[id],
            });
            let new_side = pair.new.map(|id| Side {
                program: new,
                function: &new.functions[id],
            });
            match (old_side, new_side) {
                (Some(old_side), Some(new_side)) => {
                    compare_pair(&old_side, &new_side, pair.kind, &correspondence, gumtree)
                        .with_ids(pair.old, pair.new)
                }
                (old_side, new_side) => {
                    let diff = everything_changed(old_side.as_ref(), new_side.as_ref());
                    let status = if pair.old.is_some() {
                        FunctionStatus::Removed
                    } else {
                        FunctionStatus::Added
                    };
                    build(diff, status, true, 0.0).with_ids(pair.old, pair.new)
                }
            }
        })
        .collect();
    let sort_key = |m: &FunctionMatch| -> String {
        match (m.old, m.new) {
            (Some(o), _) => old.functions[o].key.clone(),
            (None, Some(n)) => new.functions[n].key.clone(),
            (None, None) => String::new(),
        }
    };
    functions.sort_by_cached_key(|m| (sort_key(m), m.old, m.new));
    VersionMatch {
        functions,
        globals: match_globals(old, new),
    }
}

fn compare_pair(
    old: &Side<'_>,
    new: &Side<'_>,
    kind: PairKind,
    functions: &FxHashMap<FuncId, FuncId>,
    gumtree: GumTreeConfig,
) -> FunctionMatch {
    let renamed = matches!(kind, PairKind::Renamed { .. });
    let same_name = old.function.name == new.function.name;
    // Same text: every node maps to itself, no statement matching needed.
    if same_name && old.function.fingerprint == new.function.fingerprint {
        if let Some(diff) = identity(old, new, functions) {
            let status = if renamed {
                FunctionStatus::Renamed
            } else {
                FunctionStatus::Unchanged
            };
            return build(diff, status, false, 1.0);
        }
    }
    let diff = diff_functions(old, new, functions, gumtree);
    let body_changed = diff.has_changes();
    let similarity = match kind {
        PairKind::Renamed { similarity } => similarity,
        _ => match (
            TokenBag::of_function(old.function),
            TokenBag::of_function(new.function),
        ) {
            (Some(x), Some(y)) => x.dice(&y),
            _ if body_changed => 0.0,
            _ => 1.0,
        },
    };
    let status = if renamed {
        FunctionStatus::Renamed
    } else if body_changed || !same_name {
        FunctionStatus::Modified
    } else {
        FunctionStatus::Unchanged
    };
    build(diff, status, body_changed, similarity)
}

fn build(
    diff: FunctionDiff,
    status: FunctionStatus,
    body_changed: bool,
    similarity: f64,
) -> FunctionMatch {
    FunctionMatch {
        old: None,
        new: None,
        status,
        body_changed,
        node_map: diff.node_map,
        continuation: diff.continuation,
        changed_old: diff.changed_old,
        changed_new: diff.changed_new,
        old_lines: diff.old_lines,
        new_lines: diff.new_lines,
        similarity,
    }
}

impl FunctionMatch {
    fn with_ids(mut self, old: Option<FuncId>, new: Option<FuncId>) -> Self {
        self.old = old;
        self.new = new;
        self
    }
}

/// Whether a modified function differs from its partner only in the line numbers its
/// code reports (`__LINE__`, as `assert` and error paths pass it): the code moved, and
/// node for node the IR is the same but for integer constants equal to each node's own
/// line. It still changes behaviour (a message names another line).
pub fn only_line_numbers_differ(
    old: &ripple_ir::Program,
    new: &ripple_ir::Program,
    matching: &VersionMatch,
    m: &FunctionMatch,
) -> bool {
    same_nodes_up_to(old, new, matching, m, |comparer, a, b| {
        comparer.same_node_up_to_lines(a, b)
    })
}

/// Whether a modified function differs from its partner only in the offsets of the
/// record members it accesses, each the offset of the member of the same name in its
/// version's layout (a member added to or removed from a record it reads, or members
/// moved): node for node the same IR otherwise. With the records' members matched by
/// name, it does what it did.
pub fn only_record_layouts_differ(
    old: &ripple_ir::Program,
    new: &ripple_ir::Program,
    matching: &VersionMatch,
    m: &FunctionMatch,
) -> bool {
    same_nodes_up_to(old, new, matching, m, |comparer, a, b| {
        comparer.same_node_up_to_layouts(a, b)
    })
}

/// Whether a modified function (not the same code) has as many nodes as its partner,
/// with the same successors, each the same node as its partner's by `same`.
fn same_nodes_up_to(
    old: &ripple_ir::Program,
    new: &ripple_ir::Program,
    matching: &VersionMatch,
    m: &FunctionMatch,
    same: impl Fn(&mut irdiff::IrComparer<'_>, &ripple_ir::Node, &ripple_ir::Node) -> bool,
) -> bool {
    let (Some(o), Some(n)) = (m.old, m.new) else {
        return false;
    };
    if m.status != FunctionStatus::Modified || m.same_code() {
        return false;
    }
    let (fo, fn_) = (&old.functions[o], &new.functions[n]);
    if fo.nodes.len() != fn_.nodes.len() {
        return false;
    }
    compare_functions(old, new, matching, (o, n), |comparer| {
        fo.nodes
            .iter()
            .zip(fn_.nodes.iter())
            .all(|(a, b)| a.succs == b.succs && same(comparer, a, b))
    })
}

/// Runs `compare` with a comparer of the IR of two matched functions.
fn compare_functions<R>(
    old: &ripple_ir::Program,
    new: &ripple_ir::Program,
    matching: &VersionMatch,
    (o, n): (ripple_ir::FuncId, ripple_ir::FuncId),
    compare: impl FnOnce(&mut irdiff::IrComparer<'_>) -> R,
) -> R {
    let partners: rustc_hash::FxHashMap<ripple_ir::FuncId, ripple_ir::FuncId> = matching
        .functions
        .iter()
        .filter_map(|m| Some((m.old?, m.new?)))
        .collect();
    let old_side = mapped::Side {
        program: old,
        function: &old.functions[o],
    };
    let new_side = mapped::Side {
        program: new,
        function: &new.functions[n],
    };
    compare(&mut irdiff::IrComparer::new(
        &old_side, &new_side, &partners,
    ))
}

/// What differs between a call of an old function and a call of its partner in the new
/// version, compared as IR modulo the renumbering of ids: per argument whether its
/// expression differs, and whether the destination does. `None` when the nodes are not
/// both calls with as many arguments.
pub fn call_differences(
    old: &ripple_ir::Program,
    new: &ripple_ir::Program,
    matching: &VersionMatch,
    functions: (ripple_ir::FuncId, ripple_ir::FuncId),
    nodes: (ripple_ir::NodeId, ripple_ir::NodeId),
) -> Option<(Vec<bool>, bool)> {
    let (fo, fn_) = (&old.functions[functions.0], &new.functions[functions.1]);
    compare_functions(old, new, matching, functions, |comparer| {
        comparer.call_differences(&fo.nodes[nodes.0], &fn_.nodes[nodes.1])
    })
}
