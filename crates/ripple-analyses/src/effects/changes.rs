//! The change model of 002 (Definition 14, section 3.1.2): a change is a contiguous
//! changed region of one version, `<G, G', IN, OUT>`, with the statements it replaces
//! (`G`, old IR nodes) and its replacement (`G'`, new IR nodes); and the variants
//! `P'\C` (every change but those in `C` applied), built as source text so that they
//! can be compiled.
//!
//! A change is found from the line diff of each pair of files: a hunk that replaces as
//! many lines as it inserts is split line by line (two statements edited on adjacent
//! lines are two changes, as ch3 and ch4 of 002 Fig. 4), and the parts of the diff that
//! hold the same changed statement are joined. The IR nodes MAPPED by version matching
//! are the unchanged ones; every node not in MAPPED belongs to the change whose lines it
//! is on. Nodes changed without a line of their own changing (a changed macro or
//! declaration used there) join the change of their function when it has one, and else
//! form one change per function that cannot be separated at source level: its variants
//! keep it applied, and the report says so. Lines whose
//! change alters no statement (comments, layout, declarations) are part of every variant.

use rustc_hash::FxHashMap;
use similar::{DiffOp, TextDiff};

use ripple_ir::{FuncId, NodeId, Program};
use ripple_versions::VersionMatch;

use crate::invariants::mvicfg::{Converter, Stmt, Target};

/// One file of both versions. A file of one version only has empty text on the other.
#[derive(Clone, Debug)]
pub struct FilePair {
    /// The file's path in the old program ([`ripple_ir::SourceFile::path`]), if any.
    pub old_path: Option<String>,
    /// The file's path in the new program, if any.
    pub new_path: Option<String>,
    pub old_text: String,
    pub new_text: String,
}

/// Lines of a file pair replaced by other lines (0-based, half-open ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    pub file: usize,
    pub old: std::ops::Range<usize>,
    pub new: std::ops::Range<usize>,
}

/// A node of one version.
pub type NodeRef = (FuncId, NodeId);

/// Nodes of the old and of the new version.
type SideNodes = (Vec<NodeRef>, Vec<NodeRef>);

/// One change, `<G, G', IN, OUT>` of 002 Definition 14.
#[derive(Clone, Debug)]
pub struct Change {
    /// 1-based, in the order of the new version's lines ("ch1", "ch2", ...).
    pub id: usize,
    /// The function the change is in (its new name when it has one).
    pub function: String,
    /// G: the old nodes the change replaces, sorted (a node of a changed line that does
    /// exactly what its partner in the other version does is not counted).
    pub old_nodes: Vec<NodeRef>,
    /// G': the new nodes, sorted.
    pub new_nodes: Vec<NodeRef>,
    /// The source lines, or `None` for nodes changed through a macro or declaration.
    pub hunks: Vec<Hunk>,
}

impl Change {
    /// [`Change::line`], or for a change through a macro or a declaration (no line of
    /// its own changed) the first statement it changes, in `programs` (old, new).
    pub fn place(&self, set: &ChangeSet, programs: [&ripple_ir::Program; 2]) -> (String, u32) {
        if !self.hunks.is_empty() {
            return self.line(set);
        }
        let statement = |program: &ripple_ir::Program, &(f, n): &NodeRef| {
            let span = program.functions[f].nodes[n].span;
            let file = program.files.get(span.file)?;
            Some((file.path.clone(), span.start_line))
        };
        self.new_nodes
            .first()
            .and_then(|n| statement(programs[1], n))
            .or_else(|| {
                self.old_nodes
                    .first()
                    .and_then(|n| statement(programs[0], n))
            })
            .unwrap_or_default()
    }

    /// The first changed line of the new version (1-based), else of the old one.
    pub fn line(&self, set: &ChangeSet) -> (String, u32) {
        let Some(h) = self.hunks.first() else {
            return (String::new(), 0);
        };
        let f = &set.files[h.file];
        match (&f.new_path, &f.old_path) {
            (Some(p), _) if !h.new.is_empty() => (p.clone(), h.new.start as u32 + 1),
            (_, Some(p)) => (p.clone(), h.old.start as u32 + 1),
            (Some(p), None) => (p.clone(), h.new.start as u32 + 1),
            (None, None) => (String::new(), 0),
        }
    }

    /// The old and new text of the change's lines.
    pub fn text(&self, set: &ChangeSet) -> (Vec<String>, Vec<String>) {
        let (mut old, mut new) = (Vec::new(), Vec::new());
        for h in &self.hunks {
            let f = &set.files[h.file];
            old.extend(
                f.old_text
                    .lines()
                    .skip(h.old.start)
                    .take(h.old.len())
                    .map(str::to_string),
            );
            new.extend(
                f.new_text
                    .lines()
                    .skip(h.new.start)
                    .take(h.new.len())
                    .map(str::to_string),
            );
        }
        (old, new)
    }

    /// Whether the change can be left out of a variant.
    pub fn separable(&self) -> bool {
        !self.hunks.is_empty()
    }
}

/// The changes between two versions, and what builds their variants.
#[derive(Clone, Debug)]
pub struct ChangeSet {
    pub files: Vec<FilePair>,
    pub changes: Vec<Change>,
    /// Parts of the diff that change no statement; every variant applies them.
    pub other_hunks: Vec<Hunk>,
    /// Which node of the other version each changed-or-mapped node stands for: MAPPED,
    /// and inside a change its old and new nodes of the same kind paired in order.
    pub new_to_old: FxHashMap<NodeRef, NodeRef>,
    pub old_to_new: FxHashMap<NodeRef, NodeRef>,
}

/// A part of a file's diff, before it is given to a change.
struct Unit {
    hunk: Hunk,
    old_nodes: Vec<NodeRef>,
    new_nodes: Vec<NodeRef>,
}

impl ChangeSet {
    /// Finds the changes between `old` and `new` from their matching and the text of
    /// their files.
    pub fn build(
        old: &Program,
        new: &Program,
        matching: &VersionMatch,
        files: Vec<FilePair>,
    ) -> ChangeSet {
        let mut units = diff_units(&files);
        // Which unit holds each line: (file pair, old?, line) -> unit.
        let mut line_unit: FxHashMap<(usize, bool, usize), usize> = FxHashMap::default();
        for (u, unit) in units.iter().enumerate() {
            for l in unit.hunk.old.clone() {
                line_unit.insert((unit.hunk.file, true, l), u);
            }
            for l in unit.hunk.new.clone() {
                line_unit.insert((unit.hunk.file, false, l), u);
            }
        }
        let file_index = |program: &Program, is_old: bool| -> Vec<Option<usize>> {
            program
                .files
                .iter()
                .map(|f| {
                    files.iter().position(|p| {
                        let path = if is_old { &p.old_path } else { &p.new_path };
                        path.as_deref() == Some(f.path.as_str())
                    })
                })
                .collect()
        };
        let (old_files, new_files) = (file_index(old, true), file_index(new, false));
        // Join units that hold one node (a statement over several lines).
        let mut parent: Vec<usize> = (0..units.len()).collect();
        let mut loose: FxHashMap<String, SideNodes> = FxHashMap::default();
        let mut node_unit: Vec<(bool, NodeRef, usize)> = Vec::new();
        for m in &matching.functions {
            let name = m
                .new
                .map(|f| new.functions[f].name.clone())
                .or_else(|| m.old.map(|f| old.functions[f].name.clone()))
                .unwrap_or_default();
            for (is_old, func, nodes, program, index) in [
                (true, m.old, &m.changed_old, old, &old_files),
                (false, m.new, &m.changed_new, new, &new_files),
            ] {
                let Some(func) = func else { continue };
                let function = &program.functions[func];
                for &n in nodes {
                    let span = function.nodes[n].span;
                    if n == function.entry || n == function.exit {
                        // The function's own boundary: part of whatever changed in it.
                        let side = loose.entry(name.clone()).or_default();
                        if is_old { &mut side.0 } else { &mut side.1 }.push((func, n));
                        continue;
                    }
                    let file = index.get(span.file.index()).copied().flatten();
                    let mut found: Vec<usize> = Vec::new();
                    if let Some(file) = file {
                        for l in span.lines() {
                            let key = (file, is_old, (l as usize).wrapping_sub(1));
                            found.extend(line_unit.get(&key));
                        }
                    }
                    found.sort_unstable();
                    found.dedup();
                    match found.first() {
                        Some(&first) => {
                            for &u in &found[1..] {
                                union(&mut parent, first, u);
                            }
                            node_unit.push((is_old, (func, n), first));
                        }
                        None => {
                            let side = loose.entry(name.clone()).or_default();
                            if is_old { &mut side.0 } else { &mut side.1 }.push((func, n));
                        }
                    }
                }
            }
        }
        for (is_old, node, u) in node_unit {
            let root = find(&mut parent, u);
            let unit = &mut units[root];
            if is_old {
                &mut unit.old_nodes
            } else {
                &mut unit.new_nodes
            }
            .push(node);
        }
        // Group units by root.
        let mut groups: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for u in 0..units.len() {
            let root = find(&mut parent, u);
            groups.entry(root).or_default().push(u);
        }
        let mut changes = Vec::new();
        let mut other_hunks = Vec::new();
        let mut roots: Vec<usize> = groups.keys().copied().collect();
        roots.sort_unstable();
        for root in roots {
            let members = &groups[&root];
            let unit = &units[root];
            let hunks: Vec<Hunk> = members.iter().map(|&u| units[u].hunk.clone()).collect();
            if unit.old_nodes.is_empty() && unit.new_nodes.is_empty() {
                other_hunks.extend(hunks);
                continue;
            }
            let function = unit
                .new_nodes
                .first()
                .map(|&(f, _)| new.functions[f].name.clone())
                .or_else(|| {
                    unit.old_nodes
                        .first()
                        .map(|&(f, _)| old.functions[f].name.clone())
                })
                .unwrap_or_default();
            let mut change = Change {
                id: 0,
                function,
                old_nodes: unit.old_nodes.clone(),
                new_nodes: unit.new_nodes.clone(),
                hunks,
            };
            change.old_nodes.sort_unstable();
            change.new_nodes.sort_unstable();
            changes.push(change);
        }
        let mut loose: Vec<(String, SideNodes)> = loose.into_iter().collect();
        loose.sort_by(|a, b| a.0.cmp(&b.0));
        for (function, (mut old_nodes, mut new_nodes)) in loose {
            // Changed nodes on unchanged lines of a function that has a change of its own
            // (its changed signature, or a statement the matching could not pair next to
            // an edit) join that change.
            if let Some(c) = changes.iter_mut().find(|c| c.function == function) {
                c.old_nodes.append(&mut old_nodes);
                c.new_nodes.append(&mut new_nodes);
                c.old_nodes.sort_unstable();
                c.new_nodes.sort_unstable();
                c.old_nodes.dedup();
                c.new_nodes.dedup();
                continue;
            }
            old_nodes.sort_unstable();
            new_nodes.sort_unstable();
            changes.push(Change {
                id: 0,
                function,
                old_nodes,
                new_nodes,
                hunks: Vec::new(),
            });
        }
        changes.sort_by_key(|c| {
            let h = c.hunks.first();
            (
                h.is_none(),
                h.map(|h| (h.file, h.new.start, h.old.start)),
                c.function.clone(),
            )
        });
        for (i, c) in changes.iter_mut().enumerate() {
            c.id = i + 1;
        }
        let (new_to_old, old_to_new) = correspondence(old, new, matching, &changes);
        // A statement of a changed line that reads and does exactly what its partner did
        // (the call in `if (f(x) > y)` when only the comparison changed) is no source of
        // an effect: it leaves the change's statements, unless nothing would be left.
        for c in &mut changes {
            let same = |&(f, n): &NodeRef| {
                let Some(&(g, m)) = new_to_old.get(&(f, n)) else {
                    return false;
                };
                let (fa, fb) = (&new.functions[f], &old.functions[g]);
                if n == fa.entry || n == fa.exit {
                    return false;
                }
                by_name(new, Converter::new(new, fa).stmt(&fa.nodes[n].kind))
                    == by_name(old, Converter::new(old, fb).stmt(&fb.nodes[m].kind))
            };
            let identical: Vec<NodeRef> = c.new_nodes.iter().copied().filter(same).collect();
            let partners: Vec<NodeRef> = identical.iter().map(|n| new_to_old[n]).collect();
            let left = c.new_nodes.len() - identical.len() + c.old_nodes.len() - partners.len();
            if !identical.is_empty() && left > 0 {
                c.new_nodes.retain(|n| !identical.contains(n));
                c.old_nodes.retain(|n| !partners.contains(n));
            }
        }
        ChangeSet {
            files,
            changes,
            other_hunks,
            new_to_old,
            old_to_new,
        }
    }

    /// The change (by id) a node of one version belongs to.
    pub fn change_of(&self, old_side: bool, node: NodeRef) -> Option<usize> {
        self.changes
            .iter()
            .find(|c| {
                let nodes = if old_side { &c.old_nodes } else { &c.new_nodes };
                nodes.binary_search(&node).is_ok()
            })
            .map(|c| c.id)
    }

    /// The sources of the variant with exactly the changes `applied` (ids) applied to the
    /// old version, plus every part of the diff that changes no statement, plus the
    /// changes that cannot be separated: `P'\C` for `C` the changes left out. Returns
    /// each file of the variant by its new path (its old path for a file the new version
    /// lacks, which is then left out) and text.
    pub fn variant(&self, applied: &[usize]) -> Vec<(String, String)> {
        self.variant_files(applied)
            .into_iter()
            .map(|f| (f.path, f.text))
            .collect()
    }

    /// [`ChangeSet::variant`], with where each line of each file comes from.
    pub fn variant_files(&self, applied: &[usize]) -> Vec<VariantFile> {
        let mut chosen: Vec<&Hunk> = self.other_hunks.iter().collect();
        for c in &self.changes {
            if applied.contains(&c.id) {
                chosen.extend(&c.hunks);
            }
        }
        // Hunks are disjoint; mark the old lines each chosen hunk replaces.
        let mut replace: Vec<Vec<&Hunk>> = vec![Vec::new(); self.files.len()];
        for h in chosen {
            replace[h.file].push(h);
        }
        let mut out = Vec::new();
        for (i, f) in self.files.iter().enumerate() {
            let old: Vec<&str> = f.old_text.split_inclusive('\n').collect();
            let new: Vec<&str> = f.new_text.split_inclusive('\n').collect();
            let mut hunks = replace[i].clone();
            hunks.sort_by_key(|h| (h.old.start, h.new.start));
            let mut text = String::new();
            let mut origins = Vec::new();
            let mut line = 0;
            let mut copy =
                |lines: &[&str], from: usize, to: usize, side: fn(usize) -> LineOrigin| {
                    let (from, to) = (from.min(lines.len()), to.min(lines.len()));
                    for (k, l) in lines[from..to.max(from)].iter().enumerate() {
                        text.push_str(l);
                        origins.push(side(from + k));
                    }
                };
            for h in hunks {
                copy(&old, line, h.old.start, LineOrigin::Old);
                copy(&new, h.new.start, h.new.end, LineOrigin::New);
                line = line.max(h.old.end);
            }
            copy(&old, line, old.len(), LineOrigin::Old);
            let path = f.new_path.clone().or_else(|| f.old_path.clone());
            if let Some(path) = path {
                if !(text.is_empty() && f.new_path.is_none()) {
                    out.push(VariantFile {
                        path,
                        pair: i,
                        text,
                        origins,
                    });
                }
            }
        }
        out
    }
}

/// One file of a variant.
#[derive(Clone, Debug)]
pub struct VariantFile {
    /// The file's new path (its old path for a file only the old version has).
    pub path: String,
    /// The index of its file pair in [`ChangeSet::files`].
    pub pair: usize,
    pub text: String,
    /// Per line of `text` (0-based): the line of the old or new file it is.
    pub origins: Vec<LineOrigin>,
}

/// Where a line of a variant comes from (0-based line numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineOrigin {
    Old(usize),
    New(usize),
}

/// The parts of each file pair's line diff.
fn diff_units(files: &[FilePair]) -> Vec<Unit> {
    let mut units = Vec::new();
    for (file, pair) in files.iter().enumerate() {
        let diff = TextDiff::from_lines(&pair.old_text, &pair.new_text);
        for op in diff.ops() {
            let unit = |old: std::ops::Range<usize>, new: std::ops::Range<usize>| Unit {
                hunk: Hunk { file, old, new },
                old_nodes: Vec::new(),
                new_nodes: Vec::new(),
            };
            match *op {
                DiffOp::Equal { .. } => {}
                DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                } => units.push(unit(old_index..old_index + old_len, new_index..new_index)),
                DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                } => units.push(unit(old_index..old_index, new_index..new_index + new_len)),
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } if old_len == new_len => {
                    for k in 0..old_len {
                        units.push(unit(
                            old_index + k..old_index + k + 1,
                            new_index + k..new_index + k + 1,
                        ));
                    }
                }
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => units.push(unit(
                    old_index..old_index + old_len,
                    new_index..new_index + new_len,
                )),
            }
        }
    }
    units
}

/// A statement with its callee named by function name instead of key (a `static`
/// function's key names its file, which may be named differently in the other version).
fn by_name(program: &Program, stmt: Stmt) -> Stmt {
    match stmt {
        Stmt::Call {
            dst,
            callee: Target::Defined(key),
            args,
        } => {
            let name = program
                .function_keys
                .get(&key)
                .map_or(key, |&f| program.functions[f].name.clone());
            Stmt::Call {
                dst,
                callee: Target::Defined(name),
                args,
            }
        }
        other => other,
    }
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb)] = ra.min(rb);
    }
}

type Correspondence = (FxHashMap<NodeRef, NodeRef>, FxHashMap<NodeRef, NodeRef>);

/// MAPPED, plus the old and new nodes of each change paired by kind in order (a
/// changed condition stands for the condition it replaces).
fn correspondence(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    changes: &[Change],
) -> Correspondence {
    let mut new_to_old = FxHashMap::default();
    let mut old_to_new = FxHashMap::default();
    for m in &matching.functions {
        let (Some(fo), Some(fn_)) = (m.old, m.new) else {
            continue;
        };
        for &(a, b) in &m.node_map {
            new_to_old.insert((fn_, b), (fo, a));
            old_to_new.insert((fo, a), (fn_, b));
        }
    }
    let kind = |p: &Program, (f, n): NodeRef| std::mem::discriminant(&p.functions[f].nodes[n].kind);
    for c in changes {
        let mut used = vec![false; c.old_nodes.len()];
        for &nn in &c.new_nodes {
            let pick = c
                .old_nodes
                .iter()
                .enumerate()
                .find(|&(i, &on)| !used[i] && kind(old, on) == kind(new, nn));
            if let Some((i, &on)) = pick {
                used[i] = true;
                new_to_old.insert(nn, on);
                old_to_new.insert(on, nn);
            }
        }
    }
    (new_to_old, old_to_new)
}
