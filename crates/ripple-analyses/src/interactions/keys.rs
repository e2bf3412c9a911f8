//! Statement identity across the variants of 002 section 7.2 (`P'`, `P'\Ci`,
//! `P'\{Ci,Cj}`): each variant is lowered from its own source text, so its IR nodes are
//! named again, and the augmented execution histories of two variants can only be
//! compared through a key each of their statements shares.
//!
//! Every line of a variant is a line of the old or of the new version
//! ([`LineOrigin`]); a variant node is the node of that version at the same place (line,
//! columns, kind, and order among nodes at that place). Its key is the new version's
//! node, or for an old node its partner in the new version (MAPPED, and inside a change
//! its old and new statements paired), so that a changed statement has one key whether
//! the change is applied or not, as in the thesis (statement 1 of Fig. 4 is statement 1
//! in `prog` and `prog'`). Old statements with no partner keep their own key; a variant
//! node found in neither version (which the line map should not allow) gets a key of
//! its own, equal to nothing.

use std::mem::Discriminant;

use rustc_hash::FxHashMap;

use ripple_ir::{FuncId, NodeKind, Program};

use crate::effects::changes::{LineOrigin, VariantFile};
use crate::effects::{ChangeSet, NodeRef};

/// A statement of any variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StmtKey {
    /// The end of a run (how it terminated).
    End,
    New(NodeRef),
    Old(NodeRef),
    /// A node of a file outside the versions' sources (a system header), the same in
    /// every variant: file (interned), line, columns, lines spanned, and its order
    /// among the nodes there.
    Outside([u32; 6]),
    /// A node of variant `.0` matched in neither version.
    Variant(u32, NodeRef),
}

/// The keys of all variants, numbered densely.
#[derive(Clone, Debug, Default)]
pub struct KeyTable {
    pub keys: Vec<StmtKey>,
    index: FxHashMap<StmtKey, u32>,
    /// Paths of [`StmtKey::Outside`] keys.
    pub paths: Vec<String>,
}

impl KeyTable {
    pub fn new() -> KeyTable {
        let mut table = KeyTable::default();
        table.id(StmtKey::End);
        table
    }

    pub fn id(&mut self, key: StmtKey) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.keys.len() as u32;
        self.keys.push(key);
        self.index.insert(key, i);
        i
    }

    fn path(&mut self, path: &str) -> u32 {
        match self.paths.iter().position(|p| p == path) {
            Some(i) => i as u32,
            None => {
                self.paths.push(path.to_string());
                self.paths.len() as u32 - 1
            }
        }
    }
}

/// The key of entry and exit nodes, which histories do not record.
pub const NO_KEY: u32 = u32::MAX;

/// The key of [`StmtKey::End`].
pub const END_KEY: u32 = 0;

/// Where a node sits: file pair, 0-based line of its side, columns, lines spanned,
/// kind.
type Place = (usize, usize, u32, u32, u32, Discriminant<NodeKind>);

fn place(pair: usize, line: usize, node: &ripple_ir::Node) -> Place {
    let span = node.span;
    (
        pair,
        line,
        span.start_col,
        span.end_line - span.start_line,
        span.end_col,
        std::mem::discriminant(&node.kind),
    )
}

/// The nodes of one version by place, in node order.
fn places(
    program: &Program,
    pair_of_file: &dyn Fn(&str) -> Option<usize>,
    line_of: &dyn Fn(usize, usize) -> Option<usize>,
) -> FxHashMap<Place, Vec<NodeRef>> {
    let mut out: FxHashMap<Place, Vec<NodeRef>> = FxHashMap::default();
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            if matches!(node.kind, NodeKind::Entry | NodeKind::Exit) || node.span.start_line == 0 {
                continue;
            }
            let Some(pair) = program
                .files
                .get(node.span.file)
                .and_then(|file| pair_of_file(&file.path))
            else {
                continue;
            };
            let Some(line) = line_of(pair, node.span.start_line as usize - 1) else {
                continue;
            };
            out.entry(place(pair, line, node)).or_default().push((f, n));
        }
    }
    out
}

/// What the nodes of one variant are.
#[derive(Clone, Debug, Default)]
pub struct VariantNodes {
    /// By function and node: the key.
    pub key: Vec<Vec<u32>>,
    /// By function and node: the change-set bits of the changes the node belongs to.
    pub groups: Vec<Vec<u64>>,
    /// By function: the sets with a change that has no node in this variant there (an
    /// insertion left out, a deletion applied), run when the function is entered.
    pub entered: Vec<u64>,
}

/// Names the nodes of a variant program lowered from `files` (as
/// [`ChangeSet::variant_files`] built them). `group_of` gives the change set (index)
/// of each change id; `applied` the changes applied in the variant.
#[allow(clippy::too_many_arguments)]
pub fn variant_nodes(
    old: &Program,
    new: &Program,
    set: &ChangeSet,
    variant: &Program,
    files: &[VariantFile],
    variant_id: u32,
    applied: &[usize],
    group_of: &dyn Fn(usize) -> Option<usize>,
    table: &mut KeyTable,
) -> VariantNodes {
    let pair_by = |old_side: bool| {
        move |path: &str| {
            set.files.iter().position(|f| {
                let p = if old_side { &f.old_path } else { &f.new_path };
                p.as_deref() == Some(path)
            })
        }
    };
    let same_line = |_: usize, line: usize| Some(line);
    let old_places = places(old, &pair_by(true), &same_line);
    let new_places = places(new, &pair_by(false), &same_line);
    let by_path: FxHashMap<&str, &VariantFile> =
        files.iter().map(|f| (f.path.as_str(), f)).collect();
    // A variant line's place is the place of the line it comes from, on its side.
    let side_of = |path: &str, line: usize| -> Option<(usize, LineOrigin)> {
        let f = by_path.get(path)?;
        Some((f.pair, *f.origins.get(line)?))
    };
    let mut out = VariantNodes {
        key: Vec::with_capacity(variant.functions.len()),
        groups: Vec::with_capacity(variant.functions.len()),
        entered: vec![0; variant.functions.len()],
    };
    // Nodes of each place of the variant, in order, to pair k-th with k-th.
    let mut seen: FxHashMap<(Place, bool), usize> = FxHashMap::default();
    let mut outside: FxHashMap<[u32; 6], u32> = FxHashMap::default();
    for (f, function) in variant.functions.iter_enumerated() {
        let mut keys = Vec::with_capacity(function.nodes.len());
        let mut groups = Vec::with_capacity(function.nodes.len());
        for (n, node) in function.nodes.iter_enumerated() {
            if matches!(node.kind, NodeKind::Entry | NodeKind::Exit) {
                keys.push(NO_KEY);
                groups.push(0);
                continue;
            }
            let path = variant.files.get(node.span.file).map(|f| f.path.as_str());
            let origin = path
                .filter(|_| node.span.start_line > 0)
                .and_then(|p| side_of(p, node.span.start_line as usize - 1));
            let found = origin.and_then(|(pair, origin)| {
                let (line, old_side) = match origin {
                    LineOrigin::Old(l) => (l, true),
                    LineOrigin::New(l) => (l, false),
                };
                let here = place(pair, line, node);
                let k = seen.entry((here, old_side)).or_insert(0);
                *k += 1;
                let places = if old_side { &old_places } else { &new_places };
                let node = *places.get(&here)?.get(*k - 1)?;
                Some((node, old_side))
            });
            let (key, change) = match (found, origin, path) {
                (Some((o, true)), _, _) => (
                    set.old_to_new
                        .get(&o)
                        .map_or(StmtKey::Old(o), |&n| StmtKey::New(n)),
                    set.change_of(true, o),
                ),
                (Some((n, false)), _, _) => (StmtKey::New(n), set.change_of(false, n)),
                (None, None, Some(path)) => {
                    let span = node.span;
                    let place = [
                        table.path(path),
                        span.start_line,
                        span.start_col,
                        span.end_line - span.start_line,
                        span.end_col,
                        0,
                    ];
                    let k = outside.entry(place).or_insert(0);
                    *k += 1;
                    let mut key = place;
                    key[5] = *k;
                    (StmtKey::Outside(key), None)
                }
                _ => (StmtKey::Variant(variant_id, (f, n)), None),
            };
            keys.push(table.id(key));
            groups.push(
                change
                    .and_then(group_of)
                    .filter(|&g| g < 64)
                    .map_or(0, |g| 1u64 << g),
            );
        }
        out.key.push(keys);
        out.groups.push(groups);
    }
    // Changes without a node here are run when their function is.
    for c in &set.changes {
        let here = if applied.contains(&c.id) {
            &c.new_nodes
        } else {
            &c.old_nodes
        };
        let Some(g) = group_of(c.id).filter(|&g| g < 64) else {
            continue;
        };
        if here.is_empty() {
            if let Some(f) = function_named(variant, &c.function) {
                out.entered[f.index()] |= 1 << g;
            }
        }
    }
    out
}

fn function_named(program: &Program, name: &str) -> Option<FuncId> {
    program
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == name)
        .map(|(id, _)| id)
}
