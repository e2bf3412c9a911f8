//! The multi-version interprocedural control-flow graph (MVICFG; Le and Pattison, ICSE
//! 2014, as 003 section III-B builds it): the CFGs of N versions in one graph, where a
//! statement common to several versions is one node and every edge is labelled with the
//! versions it belongs to.
//!
//! Built from the version matching of consecutive versions: functions matched by the
//! matching share one multi-version function, and a node of version `i+1` mapped (MAPPED)
//! to a node of version `i` whose statement is the same (as [`Stmt`], with names instead
//! of one program's variable numbers and representations instead of its type table)
//! joins that node. Entries and exits of matched functions are always shared. Calls go
//! to functions by key, so queries cross them (the graph is interprocedural).

use std::sync::Arc;

use ripple_ir::{
    Callee, Expr, ExprKind, FuncId, Function, IntKind, Intrinsic, NodeId, NodeKind, Place, Program,
    Storage, Type, VarId,
};
use ripple_symex::term::{Repr, Term};
use ripple_versions::VersionMatch;
use rustc_hash::FxHashMap;

/// A set of versions (bit `i`: version `i`); at most 64 versions.
pub type Versions = u64;

/// The most versions one graph holds.
pub const MAX_VERSIONS: usize = 64;

/// A statement of a multi-version node, over names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    Entry,
    Exit,
    Skip,
    Assign {
        dst: Dst,
        value: Term,
    },
    Branch(Term),
    Call {
        dst: Option<Dst>,
        callee: Target,
        args: Vec<Term>,
    },
    /// Unmodelled: may write `dst` and any memory.
    Havoc {
        dst: Option<Dst>,
    },
}

/// Where a statement writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dst {
    Var(Arc<str>, Repr),
    Mem {
        addr: Term,
        repr: Repr,
    },
    /// A bit-field: the whole unit at `addr` (of `bytes` bytes) may change.
    Bits {
        addr: Term,
        bytes: u32,
    },
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A function defined in the program, by key.
    Defined(String),
    /// A declared function (library), by name.
    External(String),
    /// Through a pointer, or a builtin that writes memory.
    Unknown,
}

/// A node: its statement, the versions it belongs to and where it comes from in each.
#[derive(Clone, Debug)]
pub struct MvNode {
    pub stmt: Stmt,
    pub versions: Versions,
    pub origin: Vec<Option<NodeId>>,
}

/// An edge into a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MvEdge {
    pub from: usize,
    pub versions: Versions,
    /// For an edge out of a branch: the branch outcome it is taken on.
    pub taken: Option<bool>,
}

/// One function across the versions that have it.
#[derive(Clone, Debug)]
pub struct MvFunction {
    pub name: String,
    pub key: String,
    pub versions: Versions,
    pub origin: Vec<Option<FuncId>>,
    pub nodes: Vec<MvNode>,
    pub preds: Vec<Vec<MvEdge>>,
    pub entry: usize,
    pub exit: usize,
    /// Names of the parameters, in order, per version.
    pub params: Vec<Vec<Arc<str>>>,
    /// Name of the return variable.
    pub ret: Option<(Arc<str>, Repr)>,
    /// The named scalar variables any version declares: name, representation, whether
    /// it lives in memory (read as a load of `&local:name`), and the versions declaring
    /// it.
    pub scalars: Vec<(Arc<str>, Repr, bool, Versions)>,
    /// Names (of scalars, or of the return variable) declared with another
    /// representation or storage than where first seen (in another version, or in
    /// another scope): one name for two variables, whose invariants are not listed.
    pub retyped: Vec<Arc<str>>,
    /// The versions whose function computes with `long double`, which the terms would
    /// compute as `double`: their invariants are not given.
    pub long_double: Versions,
}

/// The graph of all versions.
pub struct Mvicfg {
    pub versions: usize,
    pub functions: Vec<MvFunction>,
    /// Per version: function key to multi-version function.
    pub by_key: Vec<FxHashMap<String, usize>>,
}

impl Mvicfg {
    /// Builds the graph of `programs`, where `matches[i]` matches `programs[i]` (old) with
    /// `programs[i + 1]` (new).
    pub fn build(programs: &[&Program], matches: &[&VersionMatch]) -> Mvicfg {
        assert!(programs.len() <= MAX_VERSIONS, "at most 64 versions");
        assert_eq!(matches.len() + 1, programs.len().max(1));
        let n = programs.len();
        let mut functions: Vec<MvFunction> = Vec::new();
        let mut by_key: Vec<FxHashMap<String, usize>> = vec![FxHashMap::default(); n];
        // Per version, per function: multi-version node of each IR node.
        let mut node_of: Vec<FxHashMap<FuncId, Vec<usize>>> = vec![FxHashMap::default(); n];
        for (v, program) in programs.iter().enumerate() {
            let bit = 1u64 << v;
            let old_of_new: FxHashMap<FuncId, FuncId> = if v == 0 {
                FxHashMap::default()
            } else {
                matches[v - 1]
                    .functions
                    .iter()
                    .filter_map(|m| Some((m.new?, m.old?)))
                    .collect()
            };
            for (fid, function) in program.functions.iter_enumerated() {
                if !function.is_defined() {
                    continue;
                }
                let conv = Converter::new(program, function);
                let stmts: Vec<Stmt> = function.nodes.iter().map(|n| conv.stmt(&n.kind)).collect();
                let previous = old_of_new.get(&fid).and_then(|old| {
                    let mv = *by_key[v - 1].get(&programs[v - 1].functions[*old].key)?;
                    Some((*old, mv))
                });
                let mut map = vec![usize::MAX; function.nodes.len()];
                let mv = match previous {
                    Some((old, mv)) => {
                        let m = matches[v - 1].of_new(fid).expect("matched function");
                        let old_nodes = &node_of[v - 1][&old];
                        let f = &mut functions[mv];
                        let old_fn = &programs[v - 1].functions[old];
                        let mut pairs: Vec<(NodeId, NodeId)> = m.node_map.clone();
                        pairs.push((old_fn.entry, function.entry));
                        pairs.push((old_fn.exit, function.exit));
                        for (o, nw) in pairs {
                            let target = old_nodes[o.index()];
                            if map[nw.index()] == usize::MAX
                                && f.nodes[target].stmt == stmts[nw.index()]
                            {
                                map[nw.index()] = target;
                            }
                        }
                        mv
                    }
                    None => {
                        functions.push(MvFunction {
                            name: function.name.clone(),
                            key: function.key.clone(),
                            versions: 0,
                            origin: vec![None; n],
                            nodes: Vec::new(),
                            preds: Vec::new(),
                            entry: usize::MAX,
                            exit: usize::MAX,
                            params: vec![Vec::new(); n],
                            ret: None,
                            scalars: Vec::new(),
                            retyped: Vec::new(),
                            long_double: 0,
                        });
                        functions.len() - 1
                    }
                };
                let f = &mut functions[mv];
                f.versions |= bit;
                let types = &program.types;
                let long_double = function.nodes.iter().any(|node| {
                    node.exprs().into_iter().any(|e| {
                        let mut found = false;
                        e.walk(&mut |x| found |= types.is_long_double(x.ty));
                        found
                    })
                });
                if long_double {
                    f.long_double |= bit;
                }
                f.origin[v] = Some(fid);
                f.params[v] = function.params.iter().map(|&p| conv.name(p)).collect();
                if let Some(r) = function.ret_var {
                    let ret = (conv.name(r), conv.repr(function.locals[r].ty));
                    match &f.ret {
                        Some(known) if *known != ret => {
                            if !f.retyped.contains(&known.0) {
                                f.retyped.push(known.0.clone());
                            }
                        }
                        Some(_) => {}
                        None => f.ret = Some(ret),
                    }
                }
                for (var, local) in function.locals.iter_enumerated() {
                    let repr = conv.repr(local.ty);
                    let named = !local.name.is_empty()
                        && !matches!(
                            local.kind,
                            ripple_ir::LocalKind::Temp | ripple_ir::LocalKind::Return
                        );
                    if named
                        && matches!(repr, Repr::Int { .. } | Repr::Float { .. } | Repr::Pointer)
                    {
                        let name = conv.name(var);
                        let memory = local.storage == Storage::Memory;
                        match f.scalars.iter_mut().find(|(n, _, _, _)| *n == name) {
                            None => f.scalars.push((name, repr, memory, bit)),
                            Some((_, r, m, _)) if (*r, *m) != (repr, memory) => {
                                if !f.retyped.contains(&name) {
                                    f.retyped.push(name);
                                }
                            }
                            Some((_, _, _, declared)) => *declared |= bit,
                        }
                    }
                }
                for (i, stmt) in stmts.into_iter().enumerate() {
                    if map[i] == usize::MAX {
                        f.nodes.push(MvNode {
                            stmt,
                            versions: 0,
                            origin: vec![None; n],
                        });
                        f.preds.push(Vec::new());
                        map[i] = f.nodes.len() - 1;
                    }
                    let node = &mut f.nodes[map[i]];
                    node.versions |= bit;
                    node.origin[v] = Some(NodeId::from(i));
                }
                f.entry = map[function.entry.index()];
                f.exit = map[function.exit.index()];
                for (i, node) in function.nodes.iter().enumerate() {
                    let branch = matches!(node.kind, NodeKind::Branch { .. });
                    for (k, s) in node.succs.iter().enumerate() {
                        let taken = branch.then_some(k == 0);
                        let preds = &mut f.preds[map[s.index()]];
                        let from = map[i];
                        match preds
                            .iter_mut()
                            .find(|e| e.from == from && e.taken == taken)
                        {
                            Some(e) => e.versions |= bit,
                            None => preds.push(MvEdge {
                                from,
                                versions: bit,
                                taken,
                            }),
                        }
                    }
                }
                by_key[v].insert(function.key.clone(), mv);
                node_of[v].insert(fid, map);
            }
        }
        Mvicfg {
            versions: n,
            functions,
            by_key,
        }
    }

    /// The number of nodes, and how many belong to more than one version.
    pub fn size(&self) -> (usize, usize) {
        let nodes = self.functions.iter().map(|f| f.nodes.len()).sum();
        let shared = self
            .functions
            .iter()
            .flat_map(|f| &f.nodes)
            .filter(|n| n.versions.count_ones() > 1)
            .count();
        (nodes, shared)
    }
}

/// The names the graph gives a function's locals (by [`VarId`]): the source name, with
/// `#k` for the k-th local of one name, `$tN` for temporaries, `return`.
pub fn local_names(program: &Program, function: &Function) -> Vec<Arc<str>> {
    Converter::new(program, function).names
}

/// Converts one function's IR to names and representations.
pub(crate) struct Converter<'a> {
    program: &'a Program,
    function: &'a Function,
    names: Vec<Arc<str>>,
}

impl<'a> Converter<'a> {
    pub(crate) fn new(program: &'a Program, function: &'a Function) -> Self {
        // A name used by several locals (shadowing) gets `#k` from its second use; the
        // lowering's temporaries are numbered in order.
        let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
        let mut temps = 0;
        let names = function
            .locals
            .iter()
            .map(|l| {
                if matches!(l.kind, ripple_ir::LocalKind::Temp) || l.name.is_empty() {
                    temps += 1;
                    return Arc::from(format!("$t{temps}"));
                }
                if matches!(l.kind, ripple_ir::LocalKind::Return) {
                    return Arc::from("return");
                }
                let k = seen.entry(&l.name).or_insert(0);
                *k += 1;
                if *k == 1 {
                    Arc::from(l.name.as_str())
                } else {
                    Arc::from(format!("{}#{}", l.name, *k))
                }
            })
            .collect();
        Converter {
            program,
            function,
            names,
        }
    }

    pub(crate) fn name(&self, v: VarId) -> Arc<str> {
        self.names[v.index()].clone()
    }

    pub(crate) fn repr(&self, ty: ripple_ir::TypeId) -> Repr {
        Repr::of(&self.program.types, ty)
    }

    fn is_bool(&self, ty: ripple_ir::TypeId) -> bool {
        matches!(self.program.types.get(ty), Type::Int(IntKind::Bool))
    }

    pub(crate) fn term(&self, e: &Expr) -> Term {
        let repr = self.repr(e.ty);
        match &e.kind {
            ExprKind::Int(v) => Term::Int(*v, repr),
            ExprKind::Float(x) => match repr {
                Repr::Float { bits: 32 } => Term::Float(u64::from((*x as f32).to_bits()), repr),
                _ => Term::Float(x.to_bits(), repr),
            },
            ExprKind::Local(v) => Term::Var(self.name(*v), repr),
            ExprKind::AddrOfLocal(v) => Term::Addr(Arc::from(format!("local:{}", self.name(*v)))),
            ExprKind::AddrOfGlobal(g) => {
                Term::Addr(Arc::from(self.program.globals[*g].key.as_str()))
            }
            ExprKind::AddrOfFunc(f) => {
                Term::Addr(Arc::from(format!("fn:{}", self.program.functions[*f].key)))
            }
            ExprKind::Load(a) => Term::Load(Arc::new(self.term(a)), repr),
            ExprKind::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
            } => Term::LoadBits {
                addr: Arc::new(self.term(addr)),
                unit: self.repr(*unit),
                bit_offset: *bit_offset,
                width: *width,
                repr,
            },
            ExprKind::Unary(op, a) => Term::Unary(*op, Arc::new(self.term(a)), repr),
            ExprKind::Binary(op, a, b) => {
                Term::Binary(*op, Arc::new(self.term(a)), Arc::new(self.term(b)), repr)
            }
            ExprKind::Cast(a) => Term::Cast(Arc::new(self.term(a)), repr, self.is_bool(e.ty)),
        }
    }

    fn dst(&self, place: &Place) -> Dst {
        match place {
            Place::Local(v) => Dst::Var(self.name(*v), self.repr(self.function.locals[*v].ty)),
            Place::Mem { addr, ty } => Dst::Mem {
                addr: self.term(addr),
                repr: self.repr(*ty),
            },
            Place::Bits { addr, unit, .. } => Dst::Bits {
                addr: self.term(addr),
                bytes: self.repr(*unit).bytes(),
            },
        }
    }

    pub(crate) fn stmt(&self, kind: &NodeKind) -> Stmt {
        match kind {
            NodeKind::Entry => Stmt::Entry,
            NodeKind::Exit => Stmt::Exit,
            NodeKind::Skip => Stmt::Skip,
            NodeKind::Assign { dst, value } => Stmt::Assign {
                dst: self.dst(dst),
                value: self.term(value),
            },
            NodeKind::Branch { cond } => Stmt::Branch(self.term(cond)),
            NodeKind::Call { dst, callee, args } => {
                let callee = match callee {
                    Callee::Direct(f) => {
                        let g = &self.program.functions[*f];
                        if g.is_defined() {
                            Target::Defined(g.key.clone())
                        } else if ripple_dataflow::count_stores(self.program, &g.name, args)
                            .is_some()
                        {
                            // `%n` may store through any of its arguments.
                            Target::Unknown
                        } else {
                            Target::External(g.name.clone())
                        }
                    }
                    Callee::Indirect(_) => Target::Unknown,
                    Callee::Intrinsic(i) => match i {
                        Intrinsic::VaEnd => Target::External("va_end".into()),
                        _ => Target::Unknown,
                    },
                };
                Stmt::Call {
                    dst: dst.as_ref().map(|d| self.dst(d)),
                    callee,
                    args: args.iter().map(|a| self.term(a)).collect(),
                }
            }
            NodeKind::Havoc { dst, .. } => Stmt::Havoc {
                dst: dst.as_ref().map(|d| self.dst(d)),
            },
        }
    }
}
