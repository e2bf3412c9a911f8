//! Program dependence graphs and the system dependence graph (SDG).
//!
//! Vertices ([`VertexKind`]): one per CFG node; per function, formal-in and formal-out
//! vertices for its interface ([`IfaceVar`]: parameters, the return value, the memory
//! regions of its mod/ref sets, and `Stop`, "the call may end the program"); per call
//! site, one actual-in and one actual-out vertex per interface variable of its callees
//! (shared by all targets of the site); memory vertices ([`VertexKind::Memory`]): the
//! state of a region at a join point of a function's CFG (see below), or, for the regions
//! kept flow-insensitive, one per function and region, joining every write of the region
//! in the function to every read; and dispatch vertices
//! ([`VertexKind::Dispatch`]): the call sites through a pointer with many possible targets
//! bind to one shared set of ports per target set instead of to every target, which keeps
//! the graph linear in the number of sites when unification-based points-to gives
//! hundreds of targets to each (reachability, and therefore slicing, is unchanged: a
//! dispatch port only splits the parameter edges it stands for).
//!
//! Edges ([`EdgeKind`]): data dependence (reaching definitions for registers; for memory,
//! the writes of a region that may reach a read along the CFG, [`crate::memdeps`]),
//! control dependence (post-dominators, [`crate::control`]; nodes
//! after a call that may stop the program are control dependent on that call's `Stop`
//! output, and a function's `Stop` depends on the nodes that may stop it and the branches
//! that decide whether one runs), call edges (call node to callee entry), parameter-in
//! and parameter-out edges, and summary edges (actual-in to actual-out when a callee has a same-level path from
//! the formal-in to the formal-out), computed with the worklist algorithm of Reps,
//! Horwitz, Sagiv and Rosay (FSE 1994) over callers of functions whose summaries grew.
//! This is the SDG of Horwitz, Reps and Binkley (TOPLAS 1990), with globals and the heap
//! as extra inputs and outputs as in 000 section 2.2, so that slicing and DCIA over it
//! are context-sensitive.
//!
//! Memory dependences are flow-sensitive within a function: a read of a region (a load,
//! the actual-in of a call, the function's formal-out at the exit) depends on the writes
//! of the region that may reach it along a path of the CFG (stores, actual-outs of calls
//! at the call's position, havoc nodes) and on the region's value at entry (the formal-in,
//! or a parameter's initial value); updates are weak, so no write kills another. Memory
//! SSA keeps this linear in size ([`crate::memdeps`]).
//!
//! Known limits (all over-approximations):
//! - Memory dependences are per region, not per byte: a load depends on every reaching
//!   store to its region, whatever the offsets.
//! - Some regions stay flow-insensitive (one memory vertex per function and region):
//!   every region of a function with a havoc or `setjmp` node (a `setjmp` may return
//!   again after later writes; its value depends on what decides whether the later
//!   calls of its function return, and on what those that may reach library code that
//!   may jump read), and the regions read or written by callbacks that may run after the
//!   call that receives them returns (`atexit`, `signal`, `pthread_create`, any external
//!   without a model), in every function. Under unification points-to (large programs)
//!   every function address tends to reach every unmodelled external, so there this
//!   covers all regions and memory dependences are as before.
//! - Loads inside the arguments of a call to a defined function are attributed to the
//!   actual-ins of the arguments that load (per argument expression, not per load: an
//!   argument that loads reads every region the call's expressions load).
//! - Calls through a pointer are also treated as possible calls of unknown externals
//!   (the call node reads every argument and defines the result).
//! - Callbacks (`qsort`, `bsearch`, `atexit`) are bound at the external call, every
//!   argument to every parameter.

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_ir::{Callee, Expr, FuncId, NodeId, NodeKind, Place, Program, Span, Storage};

use crate::bitset::BitSet;
use crate::control::{ControlDependence, PostDominators};
use crate::libc::external_model;
use crate::memdeps::{memory_deps, MemoryAccesses};
use crate::modref::ModRef;
use crate::noreturn::{trap_reads, TrapReads};

/// A function's call sites, the nodes that may not return, and what decides whether each
/// node that may trap does (`Builder::call_sites`).
type CallSites = (
    FxHashMap<NodeId, Site>,
    Vec<NodeId>,
    Vec<(NodeId, TrapReads)>,
);
use crate::pointsto::{AccessKind, Object, PartId, PointsTo, PointsToConfig};
use crate::reaching::ReachingDefs;
use ripple_graph::BitMatrix;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VertexId(pub u32);

impl VertexId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An input or output of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IfaceVar {
    Param(u32),
    Return,
    Mem(PartId),
    /// Whether the call ends the program (exit, abort) instead of returning.
    Stop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexKind {
    Node(NodeId),
    FormalIn(IfaceVar),
    FormalOut(IfaceVar),
    ActualIn {
        call: NodeId,
        var: IfaceVar,
    },
    ActualOut {
        call: NodeId,
        var: IfaceVar,
    },
    /// The contents of a region inside one function: at a join point of the CFG (or
    /// after many writes), or anywhere in the function for a region kept flow-insensitive.
    Memory(PartId),
    /// The contents of a region kept context-insensitive ([`Sdg::global_regions`]) in
    /// the whole program: every write of the region anywhere reaches it, and it reaches
    /// every read.
    Region(PartId),
    /// Whether the node traps (divides by zero), deciding whether what follows it runs.
    Trap(NodeId),
    /// The contents of a region as a client of a library (a program without `main`)
    /// leaves them between its calls of the library's functions. See
    /// [`Program::client_functions`].
    Client(PartId),
    /// A port of the dispatch shared by the call sites with one set of targets.
    Dispatch {
        dispatch: u32,
        port: Port,
    },
}

/// The ports of a dispatch: its call edge, and its inputs and outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Port {
    Call,
    In(IfaceVar),
    Out(IfaceVar),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    Data,
    Control,
    /// Call node to the callee's entry.
    Call,
    ParamIn,
    ParamOut,
    Summary,
}

impl EdgeKind {
    /// Edges that stay inside one function.
    pub fn is_intraprocedural(self) -> bool {
        matches!(self, EdgeKind::Data | EdgeKind::Control | EdgeKind::Summary)
    }
}

#[derive(Clone, Debug)]
pub struct SdgConfig {
    pub points_to: PointsToConfig,
    /// Budget on the estimated number of summary edges (per call site, inputs times
    /// outputs of the callee). Past it, the most widely used memory regions leave the
    /// interfaces of functions and become context-insensitive, one vertex each for the
    /// whole program ([`Sdg::global_regions`]): sound, less precise, and far smaller
    /// when every function reaches hundreds of regions through its callees.
    pub max_summary_estimate: usize,
    /// Call sites with at least this many targets bind to a dispatch (one per target
    /// set) instead of to each target.
    pub dispatch_min_targets: usize,
    /// Whether regions that no memory access tells apart are merged into one
    /// ([`PointsTo::merged_by_access`]): the same dependences, fewer vertices.
    pub merge_regions_by_access: bool,
}

impl Default for SdgConfig {
    fn default() -> Self {
        SdgConfig {
            points_to: PointsToConfig::default(),
            max_summary_estimate: 2_000_000,
            dispatch_min_targets: 4,
            merge_regions_by_access: true,
        }
    }
}

/// What a call site is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    Function(FuncId),
    /// A dispatch, bound in turn to each of its targets.
    Dispatch(u32),
}

/// One call site bound to one callee or dispatch: which actual feeds which formal (or
/// dispatch input), and which formal (or dispatch output) feeds which actual.
#[derive(Clone, Debug)]
pub struct Binding {
    pub caller: FuncId,
    pub call: NodeId,
    pub callee: Bound,
    pub ins: Vec<(VertexId, VertexId)>,
    pub outs: Vec<(VertexId, VertexId)>,
}

/// The call sites with one set of targets: their shared ports.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub targets: Vec<FuncId>,
    pub call: VertexId,
    pub ins: FxHashMap<IfaceVar, VertexId>,
    pub outs: FxHashMap<IfaceVar, VertexId>,
}

/// Adjacency lists in one array (compressed sparse rows).
#[derive(Clone, Debug, Default)]
struct Adjacency {
    offsets: Vec<u32>,
    edges: Vec<(VertexId, EdgeKind)>,
}

impl Adjacency {
    /// The lists of `edges` by source (`reverse`: by target), each sorted and without
    /// duplicates: a counting sort by source, then a sort of each (short) list.
    fn build(count: usize, edges: &[(u32, u32, EdgeKind)], reverse: bool) -> Adjacency {
        let ends = |&(a, b, k): &(u32, u32, EdgeKind)| if reverse { (b, a, k) } else { (a, b, k) };
        let mut start = vec![0u32; count + 1];
        for e in edges {
            start[ends(e).0 as usize + 1] += 1;
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![(VertexId(0), EdgeKind::Data); edges.len()];
        for e in edges {
            let (a, b, k) = ends(e);
            list[fill[a as usize] as usize] = (VertexId(b), k);
            fill[a as usize] += 1;
        }
        // Sort and deduplicate each list, compacting in place.
        let mut offsets = vec![0u32; count + 1];
        let mut write = 0usize;
        for v in 0..count {
            let (lo, hi) = (start[v] as usize, start[v + 1] as usize);
            list[lo..hi].sort_unstable();
            let mut last = None;
            for i in lo..hi {
                if last != Some(list[i]) {
                    last = Some(list[i]);
                    list[write] = list[i];
                    write += 1;
                }
            }
            offsets[v + 1] = write as u32;
        }
        list.truncate(write);
        list.shrink_to_fit();
        Adjacency {
            offsets,
            edges: list,
        }
    }

    fn of(&self, v: VertexId) -> &[(VertexId, EdgeKind)] {
        let (a, b) = (self.offsets[v.index()], self.offsets[v.index() + 1]);
        &self.edges[a as usize..b as usize]
    }
}

/// The system dependence graph of a program.
#[derive(Clone, Debug)]
pub struct Sdg {
    pub kinds: Vec<VertexKind>,
    pub function_of: Vec<FuncId>,
    succs: Adjacency,
    preds: Adjacency,
    /// The vertex of node 0 of each defined function.
    node_base: Vec<Option<u32>>,

    formal_in: Vec<FxHashMap<IfaceVar, VertexId>>,
    formal_out: Vec<FxHashMap<IfaceVar, VertexId>>,
    pub bindings: Vec<Binding>,
    pub dispatches: Vec<Dispatch>,
    /// Whether each function has a caller other than itself.
    pub called: Vec<bool>,
    pub points_to: PointsTo,
    pub modref: ModRef,
    /// The memory regions kept context-insensitive to stay within the budget of
    /// [`SdgConfig::max_summary_estimate`]: they are in no interface, and one
    /// [`VertexKind::Region`] vertex each joins every write of them to every read.
    pub global_regions: BitSet,
    /// The vertex of each context-insensitive region.
    region_vertex: FxHashMap<PartId, VertexId>,
    trap_vertex: FxHashMap<(FuncId, NodeId), VertexId>,
    /// The memory vertices of regions a function keeps flow-insensitive (a function with
    /// a havoc node, regions callbacks may use later): every write of the region in the
    /// function reaches every read, in whatever order they run.
    unordered_memory: FxHashSet<VertexId>,
}

impl Sdg {
    pub fn build(program: &Program, config: &SdgConfig) -> Sdg {
        let mut points_to = PointsTo::analyze(program, &config.points_to);
        if config.merge_regions_by_access {
            points_to = points_to.merged_by_access();
        }
        let modref = ModRef::compute(program, &points_to);
        let global = global_regions(program, &points_to, &modref, config);
        let mut builder = Builder::new(program, points_to, modref, config);
        builder.global = global;
        builder.build();
        builder.finish()
    }

    /// The program-wide vertex of a region kept context-insensitive, if it has one (a
    /// region is given its vertex where it is first accessed).
    pub fn region_vertex(&self, part: PartId) -> Option<VertexId> {
        self.region_vertex.get(&part).copied()
    }

    /// Whether `v` is the contents of a region in one function that every write of it
    /// there reaches and every read of it there reads, in any order.
    pub fn is_unordered_memory(&self, v: VertexId) -> bool {
        self.unordered_memory.contains(&v)
    }

    /// Whether `v` stands for memory of the whole program rather than of one function:
    /// a traversal that reaches it has left every calling context.
    pub fn is_context_free(&self, v: VertexId) -> bool {
        matches!(
            self.kinds[v.index()],
            VertexKind::Region(_) | VertexKind::Client(_)
        )
    }

    /// The client of a library ([`Program::client_functions`]) between its calls: each
    /// region one of them leaves (a formal-out) reaches that region at the entry of every
    /// one (a formal-in), through one [`VertexKind::Client`] vertex per region. The
    /// client may call them in any order, with the objects it was given. What it does
    /// with the values they return is its own code's (not followed).
    fn client_edges(&mut self, program: &Program, edges: &mut Vec<(u32, u32, EdgeKind)>) {
        let clients = program.client_functions();
        let Some(&first) = clients.first() else {
            return;
        };
        // The memory of an interface, in a stable order.
        let memory = |ports: &FxHashMap<IfaceVar, VertexId>| {
            let mut out: Vec<(PartId, VertexId)> = ports
                .iter()
                .filter_map(|(&x, &v)| match x {
                    IfaceVar::Mem(p) => Some((p, v)),
                    _ => None,
                })
                .collect();
            out.sort_unstable();
            out
        };
        let mut vertex_of: FxHashMap<PartId, VertexId> = FxHashMap::default();
        for &f in &clients {
            for (part, v) in memory(&self.formal_out[f.index()]) {
                let c = *vertex_of.entry(part).or_insert_with(|| {
                    self.kinds.push(VertexKind::Client(part));
                    self.function_of.push(first);
                    VertexId((self.kinds.len() - 1) as u32)
                });
                edges.push((v.0, c.0, EdgeKind::Data));
            }
        }
        for &f in &clients {
            for (part, v) in memory(&self.formal_in[f.index()]) {
                if let Some(&c) = vertex_of.get(&part) {
                    edges.push((c.0, v.0, EdgeKind::Data));
                }
            }
        }
    }

    pub fn vertex_count(&self) -> usize {
        self.kinds.len()
    }

    pub fn edge_count(&self) -> usize {
        self.succs.edges.len()
    }

    pub fn succs(&self, v: VertexId) -> &[(VertexId, EdgeKind)] {
        self.succs.of(v)
    }

    pub fn preds(&self, v: VertexId) -> &[(VertexId, EdgeKind)] {
        self.preds.of(v)
    }

    /// The defined functions a call node may call (callbacks of externals included).
    pub fn call_targets(&self, function: FuncId, call: NodeId) -> Vec<FuncId> {
        let mut out = self.points_to.call_targets(function, call).to_vec();
        out.extend_from_slice(self.points_to.callbacks(function, call));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The names of the functions a call may reach, shortened past three.
    pub fn callee_names(&self, program: &Program, function: FuncId, call: NodeId) -> String {
        let targets = self.call_targets(function, call);
        let mut names: Vec<&str> = targets
            .iter()
            .take(3)
            .map(|&g| program.functions[g].name.as_str())
            .collect();
        if names.is_empty() {
            names.push("an unknown function");
        }
        let mut out = names.join(" or ");
        if targets.len() > 3 {
            out.push_str(&format!(" (or {} more)", targets.len() - 3));
        }
        out
    }

    /// Whether a node traps (divides by zero), when that is a vertex of its own
    /// ([`VertexKind::Trap`]; otherwise the node's vertex decides it).
    pub fn trap_vertex(&self, function: FuncId, node: NodeId) -> Option<VertexId> {
        self.trap_vertex.get(&(function, node)).copied()
    }

    /// The vertex of a CFG node of a defined function.
    pub fn node_vertex(&self, function: FuncId, node: NodeId) -> Option<VertexId> {
        self.node_base
            .get(function.index())
            .copied()
            .flatten()
            .map(|base| VertexId(base + node.0))
    }

    pub fn formal_in(&self, function: FuncId, var: IfaceVar) -> Option<VertexId> {
        self.formal_in.get(function.index())?.get(&var).copied()
    }

    pub fn formal_out(&self, function: FuncId, var: IfaceVar) -> Option<VertexId> {
        self.formal_out.get(function.index())?.get(&var).copied()
    }

    /// The CFG node a vertex stands for or belongs to (call nodes for actuals; entry and
    /// exit for formals), if any.
    pub fn node_of(&self, program: &Program, v: VertexId) -> Option<NodeId> {
        let f = &program.functions[self.function_of[v.index()]];
        match self.kinds[v.index()] {
            VertexKind::Node(n) | VertexKind::Trap(n) => Some(n),
            VertexKind::ActualIn { call, .. } | VertexKind::ActualOut { call, .. } => Some(call),
            VertexKind::FormalIn(_) => Some(f.entry),
            VertexKind::FormalOut(_) => Some(f.exit),
            VertexKind::Memory(_)
            | VertexKind::Region(_)
            | VertexKind::Client(_)
            | VertexKind::Dispatch { .. } => None,
        }
    }

    /// The source span of a vertex.
    pub fn span(&self, program: &Program, v: VertexId) -> Span {
        let f = &program.functions[self.function_of[v.index()]];
        match self.node_of(program, v) {
            Some(n) => f.nodes[n].span,
            None => f.span,
        }
    }

    /// A readable name of an interface variable of `function`.
    pub fn var_name(&self, program: &Program, function: FuncId, var: IfaceVar) -> String {
        let f = &program.functions[function];
        match var {
            IfaceVar::Param(i) => f.params.get(i as usize).map_or_else(
                || format!("argument {}", i + 1),
                |&p| f.locals[p].name.clone(),
            ),
            IfaceVar::Return => "return value".to_string(),
            IfaceVar::Mem(part) => self.points_to.part_name(program, part),
            IfaceVar::Stop => "whether it returns".to_string(),
        }
    }

    /// A one-line description of a vertex, for explanations.
    pub fn describe(&self, program: &Program, v: VertexId) -> String {
        let function = self.function_of[v.index()];
        let fname = &program.functions[function].name;
        let span = self.span(program, v);
        let at = format!("{}:{}", program.file_path(span.file), span.start_line);
        match self.kinds[v.index()] {
            VertexKind::Node(_) => at,
            VertexKind::Trap(_) => format!("{at} whether it divides by zero"),
            VertexKind::FormalIn(var) => match var {
                IfaceVar::Param(_) => {
                    format!(
                        "{} (param of {fname})",
                        self.var_name(program, function, var)
                    )
                }
                _ => format!(
                    "{} (input of {fname})",
                    self.var_name(program, function, var)
                ),
            },
            VertexKind::FormalOut(var) => {
                format!("{} of {fname}", self.var_name(program, function, var))
            }
            VertexKind::ActualIn { call, var } => match var {
                IfaceVar::Param(_) => format!("{at} call argument"),
                _ => format!(
                    "{at} {} passed to {}",
                    self.var_name(program, function, var),
                    self.callee_names(program, function, call)
                ),
            },
            VertexKind::ActualOut { call, var } => format!(
                "{at} {} of call to {}",
                self.var_name(program, function, var),
                self.callee_names(program, function, call)
            ),
            VertexKind::Dispatch { dispatch, port } => {
                let d = &self.dispatches[dispatch as usize];
                let var = match port {
                    Port::Call => "call".to_string(),
                    Port::In(v) | Port::Out(v) => self.var_name(program, d.targets[0], v),
                };
                format!("{var} through a pointer to {} functions", d.targets.len())
            }
            VertexKind::Memory(part) => {
                format!(
                    "{} (memory in {fname}{})",
                    self.points_to.part_name(program, part),
                    if self.unordered_memory.contains(&v) {
                        ", any write to any read"
                    } else {
                        ""
                    }
                )
            }
            VertexKind::Region(part) => {
                format!(
                    "{} (memory, in any function)",
                    self.points_to.part_name(program, part)
                )
            }
            VertexKind::Client(part) => format!(
                "{} as a client leaves it between calls of the library",
                self.points_to.part_name(program, part)
            ),
        }
    }
}

struct Builder<'p> {
    program: &'p Program,
    pts: PointsTo,
    modref: ModRef,
    dispatch_min_targets: usize,
    kinds: Vec<VertexKind>,
    function_of: Vec<FuncId>,
    edges: Vec<(u32, u32, EdgeKind)>,
    node_base: Vec<Option<u32>>,
    formal_in: Vec<FxHashMap<IfaceVar, VertexId>>,
    formal_out: Vec<FxHashMap<IfaceVar, VertexId>>,
    bindings: Vec<Binding>,
    dispatches: Vec<Dispatch>,
    dispatch_of: FxHashMap<Vec<FuncId>, u32>,
    called: Vec<bool>,
    /// Inputs and outputs of each function, sorted.
    ins: Vec<Vec<IfaceVar>>,
    outs: Vec<Vec<IfaceVar>>,
    /// Regions read or written by callbacks that may run after the call that receives
    /// them returns (`atexit`, `signal`, unknown externals): kept flow-insensitive.
    deferred: BitSet,
    /// Regions kept context-insensitive, and their vertices.
    global: BitSet,
    region_vertex: FxHashMap<PartId, VertexId>,
    trap_vertex: FxHashMap<(FuncId, NodeId), VertexId>,
    unordered_memory: FxHashSet<VertexId>,
}

impl<'p> Builder<'p> {
    fn new(program: &'p Program, pts: PointsTo, modref: ModRef, config: &SdgConfig) -> Self {
        let count = program.functions.len();
        Builder {
            program,
            pts,
            modref,
            dispatch_min_targets: config.dispatch_min_targets.max(2),
            kinds: Vec::new(),
            function_of: Vec::new(),
            edges: Vec::new(),
            node_base: vec![None; count],
            formal_in: vec![FxHashMap::default(); count],
            formal_out: vec![FxHashMap::default(); count],
            bindings: Vec::new(),
            dispatches: Vec::new(),
            dispatch_of: FxHashMap::default(),
            called: vec![false; count],
            ins: vec![Vec::new(); count],
            outs: vec![Vec::new(); count],
            deferred: BitSet::new(0),
            global: BitSet::new(0),
            region_vertex: FxHashMap::default(),
            trap_vertex: FxHashMap::default(),
            unordered_memory: FxHashSet::default(),
        }
    }

    fn vertex(&mut self, f: FuncId, kind: VertexKind) -> VertexId {
        let id = VertexId(self.kinds.len() as u32);
        self.kinds.push(kind);
        self.function_of.push(f);
        id
    }

    fn edge(&mut self, from: VertexId, to: VertexId, kind: EdgeKind) {
        self.edges.push((from.0, to.0, kind));
    }

    fn build(&mut self) {
        let program = self.program;
        // Interfaces.
        for (f, function) in program.functions.iter_enumerated() {
            if !function.is_defined() {
                continue;
            }
            let mut ins: Vec<IfaceVar> = (0..function.params.len() as u32)
                .map(IfaceVar::Param)
                .collect();
            let mut mem_in = self.modref.refs[f.index()].clone();
            mem_in.union_with(&self.modref.mods[f.index()]);
            mem_in.subtract(&self.global);
            ins.extend(mem_in.iter().map(|p| IfaceVar::Mem(PartId(p as u32))));
            let mut outs = Vec::new();
            if function.ret_var.is_some() {
                outs.push(IfaceVar::Return);
            }
            outs.extend(
                self.modref.mods[f.index()]
                    .iter()
                    .filter(|&p| !self.global.contains(p))
                    .map(|p| IfaceVar::Mem(PartId(p as u32))),
            );
            if self.modref.may_stop[f.index()] {
                outs.push(IfaceVar::Stop);
            }
            self.ins[f.index()] = ins;
            self.outs[f.index()] = outs;
        }
        self.deferred = deferred_regions(program, &self.pts, &self.modref);
        // Nodes and formals of every function first: call sites refer to them.
        for (f, function) in program.functions.iter_enumerated() {
            if !function.is_defined() {
                continue;
            }
            let first = self.kinds.len() as u32;
            self.node_base[f.index()] = Some(first);
            for n in function.nodes.ids() {
                self.vertex(f, VertexKind::Node(n));
            }
            let entry_v = VertexId(first + function.entry.0);
            for var in self.ins[f.index()].clone() {
                let v = self.vertex(f, VertexKind::FormalIn(var));
                self.formal_in[f.index()].insert(var, v);
                self.edge(entry_v, v, EdgeKind::Control);
            }
            for var in self.outs[f.index()].clone() {
                let v = self.vertex(f, VertexKind::FormalOut(var));
                self.formal_out[f.index()].insert(var, v);
                self.edge(entry_v, v, EdgeKind::Control);
            }
        }
        for (f, function) in program.functions.iter_enumerated() {
            if function.is_defined() {
                self.function(f);
            }
        }
    }

    /// The dispatch of a set of targets (sorted), created on first use: a call port with
    /// call edges to every target's entry, and an input (output) port per interface
    /// variable of any target, joined to that target's formal by a parameter edge.
    fn dispatch(&mut self, targets: &[FuncId]) -> u32 {
        if let Some(&d) = self.dispatch_of.get(targets) {
            return d;
        }
        let d = self.dispatches.len() as u32;
        let owner = targets[0];
        let port = |port| VertexKind::Dispatch { dispatch: d, port };
        let call = self.vertex(owner, port(Port::Call));
        let mut ins: FxHashMap<IfaceVar, VertexId> = FxHashMap::default();
        let mut outs: FxHashMap<IfaceVar, VertexId> = FxHashMap::default();
        for &g in targets {
            let entry = node_v_of(&self.node_base, g, self.program.functions[g].entry);
            self.edge(call, entry, EdgeKind::Call);
            for var in self.ins[g.index()].clone() {
                let v = *ins
                    .entry(var)
                    .or_insert_with(|| self.vertex(owner, port(Port::In(var))));
                let formal = self.formal_in[g.index()][&var];
                self.edge(v, formal, EdgeKind::ParamIn);
            }
            for var in self.outs[g.index()].clone() {
                let v = *outs
                    .entry(var)
                    .or_insert_with(|| self.vertex(owner, port(Port::Out(var))));
                let formal = self.formal_out[g.index()][&var];
                self.edge(formal, v, EdgeKind::ParamOut);
            }
        }
        self.dispatches.push(Dispatch {
            targets: targets.to_vec(),
            call,
            ins,
            outs,
        });
        self.dispatch_of.insert(targets.to_vec(), d);
        d
    }

    /// Binds call site `n` of `f` to `targets` (directly, or through their dispatch when
    /// there are many), creating the site's shared actuals as needed. A callback receives
    /// every argument of the external call in every parameter, and its result flows back
    /// into the call node.
    fn bind(
        &mut self,
        f: FuncId,
        n: NodeId,
        targets: &[FuncId],
        is_callback: bool,
        site: &mut Site,
    ) {
        let program = self.program;
        let NodeKind::Call { dst, args, .. } = &program.functions[f].nodes[n].kind else {
            return;
        };
        let call_v = node_v_of(&self.node_base, f, n);
        // Per callee: what it is, its entry (or call port), and its input and output
        // vertices by interface variable.
        type Ports = Vec<(IfaceVar, VertexId)>;
        let mut callees: Vec<(Bound, VertexId, Ports, Ports)> = Vec::new();
        if targets.len() >= self.dispatch_min_targets {
            let d = self.dispatch(targets);
            let dispatch = &self.dispatches[d as usize];
            let mut ins: Vec<_> = dispatch.ins.iter().map(|(&k, &v)| (k, v)).collect();
            let mut outs: Vec<_> = dispatch.outs.iter().map(|(&k, &v)| (k, v)).collect();
            ins.sort_unstable();
            outs.sort_unstable();
            callees.push((Bound::Dispatch(d), dispatch.call, ins, outs));
        } else {
            for &g in targets {
                let entry = node_v_of(&self.node_base, g, program.functions[g].entry);
                let ins = self.ins[g.index()]
                    .iter()
                    .map(|&var| (var, self.formal_in[g.index()][&var]))
                    .collect();
                let outs = self.outs[g.index()]
                    .iter()
                    .map(|&var| (var, self.formal_out[g.index()][&var]))
                    .collect();
                callees.push((Bound::Function(g), entry, ins, outs));
            }
        }
        for &g in targets {
            if g != f {
                self.called[g.index()] = true;
            }
        }
        for (callee, entry, ins, outs) in callees {
            let mut binding = Binding {
                caller: f,
                call: n,
                callee,
                ins: Vec::new(),
                outs: Vec::new(),
            };
            self.edge(call_v, entry, EdgeKind::Call);
            for (var, formal) in ins {
                let actuals: Vec<IfaceVar> = match var {
                    IfaceVar::Param(_) if is_callback => {
                        (0..args.len() as u32).map(IfaceVar::Param).collect()
                    }
                    IfaceVar::Param(i) if (i as usize) < args.len() => vec![var],
                    IfaceVar::Param(_) => Vec::new(),
                    _ => vec![var],
                };
                for a in actuals {
                    let v = match site.actual_in.get(&a) {
                        Some(&v) => v,
                        None => {
                            let v = self.vertex(f, VertexKind::ActualIn { call: n, var: a });
                            self.edge(call_v, v, EdgeKind::Control);
                            site.actual_in.insert(a, v);
                            v
                        }
                    };
                    self.edge(v, formal, EdgeKind::ParamIn);
                    binding.ins.push((v, formal));
                }
            }
            for (var, formal) in outs {
                if var == IfaceVar::Return && dst.is_none() && !is_callback {
                    continue;
                }
                let v = match site.actual_out.get(&var) {
                    Some(&v) => v,
                    None => {
                        let v = self.vertex(f, VertexKind::ActualOut { call: n, var });
                        self.edge(call_v, v, EdgeKind::Control);
                        site.actual_out.insert(var, v);
                        v
                    }
                };
                self.edge(formal, v, EdgeKind::ParamOut);
                binding.outs.push((formal, v));
                if is_callback && var == IfaceVar::Return {
                    // The external uses what the callback returns.
                    self.edge(v, call_v, EdgeKind::Data);
                }
            }
            self.bindings.push(binding);
        }
    }

    fn function(&mut self, f: FuncId) {
        let (sites, may_stop_nodes, trap_reads) = self.call_sites(f);
        let (traps, trap_uses) = self.traps(f, &sites, trap_reads);
        let pdom = self.control_dependences(f, &sites, &may_stop_nodes, &traps);
        self.register_dependences(f, &sites, trap_uses);
        self.memory_dependences(f, &sites, &pdom);
    }

    /// Per node of `f` that may trap, what decides whether it does: a vertex reading the
    /// registers of its divisors (with those uses), or, when they read memory, the node
    /// itself and the actual-ins of its call.
    fn traps(
        &mut self,
        f: FuncId,
        sites: &FxHashMap<NodeId, Site>,
        trap_reads: Vec<(NodeId, TrapReads)>,
    ) -> (TrapSources, Vec<RegisterUse>) {
        let first = self.node_base[f.index()].expect("defined");
        let mut traps = FxHashMap::default();
        let mut uses = Vec::new();
        for (n, reads) in trap_reads {
            let sources = if reads.memory {
                let mut v: Vec<VertexId> = sites
                    .get(&n)
                    .map(|site| site.actual_in.values().copied().collect())
                    .unwrap_or_default();
                v.sort_unstable();
                v.insert(0, VertexId(first + n.0));
                v
            } else {
                let v = self.vertex(f, VertexKind::Trap(n));
                self.trap_vertex.insert((f, n), v);
                uses.push((v, n, reads.registers));
                vec![v]
            };
            traps.insert(n, sources);
        }
        (traps, uses)
    }

    /// The call sites of `f` with their bound targets, the nodes that may not return
    /// (havocs, calls of functions that may stop, traps), and what decides whether each
    /// node that may trap does.
    fn call_sites(&mut self, f: FuncId) -> CallSites {
        let program = self.program;
        let function = &program.functions[f];
        // Call sites.
        let mut sites: FxHashMap<NodeId, Site> = FxHashMap::default();
        let mut may_stop_nodes = Vec::new();
        let mut all_trap_reads = Vec::new();
        for (n, node) in function.nodes.iter_enumerated() {
            let reads = trap_reads(program, node);
            let traps = self.pts.is_havoc(f, n) || reads.is_some();
            all_trap_reads.extend(reads.map(|r| (n, r)));
            if traps {
                may_stop_nodes.push(n);
            }
            let NodeKind::Call { callee, .. } = &node.kind else {
                continue;
            };
            let (external, stops) = match callee {
                Callee::Direct(g) if program.functions[*g].is_defined() => (false, false),
                // Through a pointer too (`exit` in a table of handlers).
                Callee::Direct(_) | Callee::Indirect(_) => {
                    (true, self.pts.may_not_return_from_library(program, f, n))
                }
                Callee::Intrinsic(_) => (true, false),
            };
            let mut site = Site {
                targets: Vec::new(),
                external,
                stops,
                actual_in: FxHashMap::default(),
                actual_out: FxHashMap::default(),
            };
            let mut targets = self.pts.call_targets(f, n).to_vec();
            targets.sort_unstable();
            targets.dedup();
            let mut callbacks: Vec<FuncId> = self
                .pts
                .callbacks(f, n)
                .iter()
                .copied()
                .filter(|g| !targets.contains(g))
                .collect();
            callbacks.sort_unstable();
            callbacks.dedup();
            if !targets.is_empty() {
                self.bind(f, n, &targets, false, &mut site);
            }
            if !callbacks.is_empty() {
                self.bind(f, n, &callbacks, true, &mut site);
            }
            site.targets = targets;
            site.targets.extend(callbacks);
            let any_stop =
                site.stops || site.targets.iter().any(|g| self.modref.may_stop[g.index()]);
            if any_stop && !traps {
                may_stop_nodes.push(n);
            }
            sites.insert(n, site);
        }
        (sites, may_stop_nodes, all_trap_reads)
    }

    /// Control dependences over the CFG augmented with edges to the exit from the nodes
    /// that may not return, and what decides whether `f` returns.
    fn control_dependences(
        &mut self,
        f: FuncId,
        sites: &FxHashMap<NodeId, Site>,
        may_stop_nodes: &[NodeId],
        traps: &TrapSources,
    ) -> PostDominators {
        let program = self.program;
        let function = &program.functions[f];
        let first = self.node_base[f.index()].expect("defined");
        let node_v = |n: NodeId| VertexId(first + n.0);
        let entry_v = node_v(function.entry);
        // Control dependence, over the CFG augmented with edges to the exit.
        let pdom = PostDominators::compute(function, may_stop_nodes);
        let cd = ControlDependence::from_postdominators(function, &pdom);
        let stop_out = self.formal_out[f.index()].get(&IfaceVar::Stop).copied();
        for (m, _) in function.nodes.iter_enumerated() {
            // Whether m traps is governed as m is.
            let targets: Vec<VertexId> = std::iter::once(node_v(m))
                .chain(self.trap_vertex.get(&(f, m)).copied())
                .collect();
            let on = cd.of(m);
            if on.is_empty() {
                if m != function.entry {
                    for &t in &targets {
                        self.edge(entry_v, t, EdgeKind::Control);
                    }
                }
                continue;
            }
            for &c in on {
                for source in self.stop_sources(sites.get(&c), node_v(c), traps.get(&c)) {
                    for &t in &targets {
                        self.edge(source, t, EdgeKind::Control);
                    }
                }
            }
        }
        // A `setjmp` returns again, with the value of a `longjmp`, when a later call
        // jumps back to it: its value depends on what decides whether each call that
        // may not return returns (the `longjmp`'s arguments among it), and, for a call
        // that may reach library code that may jump (an unknown external: libpng's
        // errors), on all that call reads.
        let setjmps: Vec<NodeId> = function
            .nodes
            .ids()
            .filter(|&s| self.pts.is_setjmp(f, s))
            .collect();
        if !setjmps.is_empty() {
            let mut sources: Vec<VertexId> = Vec::new();
            for &n in may_stop_nodes {
                if let Some(site) = sites.get(&n) {
                    // A trap jumps nowhere: what decides it is left out.
                    sources.extend(self.stop_sources_of_call(Some(site), node_v(n), false));
                }
            }
            for (&n, site) in sites {
                let jumps = self.pts.may_jump_back(program, f, n)
                    || site.targets.iter().any(|g| self.modref.may_jump[g.index()]);
                if jumps {
                    sources.push(node_v(n));
                    sources.extend(site.actual_in.values().copied());
                }
            }
            sources.sort_unstable();
            sources.dedup();
            for &s in &setjmps {
                for &source in &sources {
                    self.edge(source, node_v(s), EdgeKind::Data);
                }
            }
        }
        // What decides whether the function returns: the nodes that may not return, and
        // the branches that govern whether one runs (transitively: the closure under
        // control dependence). Other branches only choose among paths that all return
        // (termination-insensitive, as the rest). Its exit runs only when it returns.
        if let Some(stop) = stop_out {
            self.edge(stop, node_v(function.exit), EdgeKind::Data);
            let mut seen = vec![false; function.nodes.len()];
            let mut stack: Vec<NodeId> = may_stop_nodes.to_vec();
            while let Some(n) = stack.pop() {
                if std::mem::replace(&mut seen[n.index()], true) {
                    continue;
                }
                stack.extend(cd.of(n).iter().copied());
            }
            for (n, node) in function.nodes.iter_enumerated() {
                if !seen[n.index()] {
                    continue;
                }
                if matches!(node.kind, NodeKind::Branch { .. }) {
                    self.edge(node_v(n), stop, EdgeKind::Data);
                }
                if may_stop_nodes.contains(&n) {
                    for source in self.stop_sources(sites.get(&n), node_v(n), traps.get(&n)) {
                        self.edge(source, stop, EdgeKind::Data);
                    }
                }
            }
        }
        pdom
    }

    /// Data dependences between register reads and the definitions reaching them.
    fn register_dependences(
        &mut self,
        f: FuncId,
        sites: &FxHashMap<NodeId, Site>,
        extra_uses: Vec<RegisterUse>,
    ) {
        let program = self.program;
        let function = &program.functions[f];
        let first = self.node_base[f.index()].expect("defined");
        let node_v = |n: NodeId| VertexId(first + n.0);
        // Register data dependences.
        let reaching = ReachingDefs::compute(function);
        let def_vertices = |b: &Self, d: NodeId, var| -> Vec<VertexId> {
            if d == function.entry {
                let i = function.params.iter().position(|&p| p == var);
                return i
                    .and_then(|i| {
                        b.formal_in[f.index()]
                            .get(&IfaceVar::Param(i as u32))
                            .copied()
                    })
                    .into_iter()
                    .collect();
            }
            match sites.get(&d) {
                Some(site) => {
                    let mut out: Vec<VertexId> = site
                        .actual_out
                        .get(&IfaceVar::Return)
                        .copied()
                        .into_iter()
                        .collect();
                    if site.external || out.is_empty() {
                        out.push(node_v(d));
                    }
                    out
                }
                None => vec![node_v(d)],
            }
        };
        let mut uses: Vec<RegisterUse> = extra_uses;
        for (n, node) in function.nodes.iter_enumerated() {
            let here = node_v(n);
            match &node.kind {
                NodeKind::Call { dst, callee, args }
                    if sites[&n].targets.is_empty() || sites[&n].external =>
                {
                    let mut regs = Vec::new();
                    for e in node.exprs() {
                        e.locals_read(&mut regs);
                    }
                    uses.push((here, n, regs));
                    // Arguments also feed the actual-ins of callbacks and targets.
                    Self::arg_uses(&sites[&n], args, &mut uses, n, here);
                    let _ = (dst, callee);
                }
                NodeKind::Call { dst, callee, args } => {
                    let mut regs = Vec::new();
                    if let Callee::Indirect(target) = callee {
                        target.locals_read(&mut regs);
                    }
                    if let Some(Place::Mem { addr, .. } | Place::Bits { addr, .. }) = dst {
                        addr.locals_read(&mut regs);
                    }
                    uses.push((here, n, regs));
                    Self::arg_uses(&sites[&n], args, &mut uses, n, here);
                }
                NodeKind::Exit => {
                    if let Some(ret) = function.ret_var {
                        uses.push((here, n, vec![ret]));
                        if let Some(&out) = self.formal_out[f.index()].get(&IfaceVar::Return) {
                            uses.push((out, n, vec![ret]));
                        }
                    }
                }
                _ => {
                    let mut regs = Vec::new();
                    for e in node.exprs() {
                        e.locals_read(&mut regs);
                    }
                    uses.push((here, n, regs));
                }
            }
        }
        for (user, at, mut regs) in uses {
            regs.sort_unstable();
            regs.dedup();
            for var in regs {
                if function.locals[var].storage != Storage::Register {
                    continue;
                }
                for d in reaching.reaching(at, var) {
                    for source in def_vertices(self, d, var) {
                        self.edge(source, user, EdgeKind::Data);
                    }
                }
            }
        }
    }

    /// Data dependences through memory regions: flow-sensitive by memory SSA, or through
    /// one vertex per region where that is not sound.
    fn memory_dependences(
        &mut self,
        f: FuncId,
        sites: &FxHashMap<NodeId, Site>,
        pdom: &PostDominators,
    ) {
        let program = self.program;
        let function = &program.functions[f];
        let first = self.node_base[f.index()].expect("defined");
        let node_v = |n: NodeId| VertexId(first + n.0);
        let exit_v = node_v(function.exit);
        // Memory data dependences: who reads and writes which region where.
        let all_parts: Vec<PartId> = {
            let mut s = self.modref.refs[f.index()].clone();
            s.union_with(&self.modref.mods[f.index()]);
            s.iter().map(|p| PartId(p as u32)).collect()
        };
        let mut reads: Vec<(NodeId, PartId, VertexId)> = Vec::new();
        let mut writes: Vec<(NodeId, PartId, VertexId)> = Vec::new();
        let mut entry_values: Vec<(PartId, VertexId)> = Vec::new();
        let mut has_havoc = false;
        let mut repeats = vec![false; function.nodes.len()];
        // A havoc also reads and writes the function's own memory locals (the
        // parameters of a function whose body could not be read live there).
        let mut havoc_parts: Option<Vec<PartId>> = None;
        for (n, _) in function.nodes.iter_enumerated() {
            let here = node_v(n);
            // A `setjmp` returns again with the memory a later call left: every write
            // of the function reaches every read.
            if self.pts.is_setjmp(f, n) {
                has_havoc = true;
            }
            if self.pts.is_havoc(f, n) {
                has_havoc = true;
                let parts = havoc_parts.get_or_insert_with(|| {
                    let mut parts = all_parts.clone();
                    for (var, local) in function.locals.iter_enumerated() {
                        if local.storage == Storage::Memory {
                            parts.extend(self.pts.part_of(Object::Local(f, var)));
                        }
                    }
                    parts.sort_unstable();
                    parts.dedup();
                    parts
                });
                for &p in parts.iter() {
                    reads.push((n, p, here));
                    if !self.pts.is_read_only(p) {
                        writes.push((n, p, here));
                    }
                }
            }
            let site = sites.get(&n);
            let readers = match site {
                Some(site) if !site.external => {
                    argument_readers(&function.nodes[n].kind, site, here)
                }
                _ => vec![here],
            };
            for access in self.pts.accesses(f, n) {
                match access.kind {
                    AccessKind::Read => {
                        for &r in &readers {
                            reads.push((n, access.part, r));
                        }
                    }
                    AccessKind::Write => {
                        let mut writers = Vec::new();
                        if let Some(site) = site {
                            writers.extend(site.actual_out.get(&IfaceVar::Return).copied());
                            if site.external || writers.is_empty() {
                                writers.push(here);
                            }
                        } else {
                            writers.push(here);
                        }
                        for w in writers {
                            writes.push((n, access.part, w));
                        }
                    }
                }
            }
            if let Some(site) = site {
                for (&var, &v) in &site.actual_in {
                    if let IfaceVar::Mem(p) = var {
                        reads.push((n, p, v));
                    }
                }
                for (&var, &v) in &site.actual_out {
                    if let IfaceVar::Mem(p) = var {
                        writes.push((n, p, v));
                    }
                }
                // An external may call its callbacks several times.
                repeats[n.index()] = !self.pts.callbacks(f, n).is_empty();
            }
        }
        for (&var, &v) in &self.formal_in[f.index()] {
            match var {
                IfaceVar::Mem(p) => entry_values.push((p, v)),
                IfaceVar::Param(i) => {
                    let p = function.params[i as usize];
                    if function.locals[p].storage == Storage::Memory {
                        if let Some(part) = self.pts.part_of(Object::Local(f, p)) {
                            entry_values.push((part, v));
                        }
                    }
                }
                _ => {}
            }
        }
        for (&var, &v) in &self.formal_out[f.index()] {
            match var {
                IfaceVar::Mem(p) => reads.push((function.exit, p, v)),
                IfaceVar::Return => {
                    let ret = function.ret_var.expect("a return output has a variable");
                    if function.locals[ret].storage == Storage::Memory {
                        if let Some(part) = self.pts.part_of(Object::Local(f, ret)) {
                            reads.push((function.exit, part, v));
                            reads.push((function.exit, part, exit_v));
                        }
                    }
                }
                _ => {}
            }
        }
        // Regions kept flow-insensitive (every region of a function with a havoc node,
        // which may be a `setjmp` that returns again after later writes, and the regions
        // of callbacks that may run later) go through one memory vertex per region, and
        // the regions kept context-insensitive through their program-wide vertex; the
        // others get flow-sensitive dependences ([`crate::memdeps`]).
        let coarse = |b: &Self, p: PartId| {
            has_havoc || b.deferred.contains(p.index()) || b.global.contains(p.index())
        };
        let mut memory: FxHashMap<PartId, VertexId> = FxHashMap::default();
        let mut mem_vertex = |b: &mut Self, part: PartId| -> VertexId {
            if b.global.contains(part.index()) {
                if let Some(&v) = b.region_vertex.get(&part) {
                    return v;
                }
                let v = b.vertex(f, VertexKind::Region(part));
                b.region_vertex.insert(part, v);
                return v;
            }
            *memory.entry(part).or_insert_with(|| {
                let v = b.vertex(f, VertexKind::Memory(part));
                b.unordered_memory.insert(v);
                v
            })
        };
        let mut flow = MemoryAccesses::new(function.nodes.len());
        flow.repeats = repeats;
        for (n, p, v) in reads {
            if coarse(self, p) {
                let m = mem_vertex(self, p);
                self.edge(m, v, EdgeKind::Data);
            } else {
                flow.reads[n.index()].push((p, v));
            }
        }
        for (n, p, v) in writes {
            if coarse(self, p) {
                let m = mem_vertex(self, p);
                self.edge(v, m, EdgeKind::Data);
            } else {
                flow.writes[n.index()].push((p, v));
            }
        }
        for (p, v) in entry_values {
            if coarse(self, p) {
                let m = mem_vertex(self, p);
                self.edge(v, m, EdgeKind::Data);
            } else {
                flow.entry.push((p, v));
            }
        }
        let succs: Vec<&[NodeId]> = function
            .nodes
            .ids()
            .map(|n| pdom.augmented_succs(n))
            .collect();
        let deps = memory_deps(&succs, function.entry, &mut flow, self.kinds.len() as u32);
        for part in deps.states {
            self.vertex(f, VertexKind::Memory(part));
        }
        for (a, b) in deps.edges {
            self.edge(a, b, EdgeKind::Data);
        }
    }

    /// Uses of argument registers by the actual-ins of the call.
    fn arg_uses(
        site: &Site,
        args: &[Expr],
        uses: &mut Vec<(VertexId, NodeId, Vec<ripple_ir::VarId>)>,
        n: NodeId,
        call_v: VertexId,
    ) {
        for (i, arg) in args.iter().enumerate() {
            let mut regs = Vec::new();
            arg.locals_read(&mut regs);
            match site.actual_in.get(&IfaceVar::Param(i as u32)) {
                Some(&v) => uses.push((v, n, regs)),
                // Variadic extras (and arguments of unresolved calls) are read by the call.
                None => uses.push((call_v, n, regs)),
            }
        }
    }

    /// The vertices whose change decides whether execution continues after node `c`
    /// (`trap`: what decides whether it traps, if it may).
    fn stop_sources(
        &self,
        site: Option<&Site>,
        c_v: VertexId,
        trap: Option<&Vec<VertexId>>,
    ) -> Vec<VertexId> {
        let mut out = self.stop_sources_of_call(site, c_v, trap.is_some());
        out.extend(trap.into_iter().flatten().copied());
        out
    }

    fn stop_sources_of_call(
        &self,
        site: Option<&Site>,
        c_v: VertexId,
        traps: bool,
    ) -> Vec<VertexId> {
        let Some(site) = site else {
            return if traps { Vec::new() } else { vec![c_v] };
        };
        let mut out: Vec<VertexId> = site
            .actual_out
            .get(&IfaceVar::Stop)
            .copied()
            .into_iter()
            .collect();
        if site.stops || (out.is_empty() && !traps) {
            out.push(c_v);
        }
        out
    }

    fn finish(self) -> Sdg {
        let count = self.kinds.len();
        let mut edges = self.edges;
        let mut sdg = Sdg {
            kinds: self.kinds,
            function_of: self.function_of,
            succs: Adjacency::default(),
            preds: Adjacency::default(),
            node_base: self.node_base,
            formal_in: self.formal_in,
            formal_out: self.formal_out,
            bindings: self.bindings,
            dispatches: self.dispatches,
            called: self.called,
            points_to: self.pts,
            modref: self.modref,
            global_regions: self.global,
            region_vertex: self.region_vertex,
            trap_vertex: self.trap_vertex,
            unordered_memory: self.unordered_memory,
        };
        sdg.succs = Adjacency::build(count, &edges, false);
        let summary = summary_edges(&sdg);
        edges.extend(summary.into_iter().map(|(a, b)| (a, b, EdgeKind::Summary)));
        // After the summary edges: a client's calls are no same-level path.
        sdg.client_edges(self.program, &mut edges);
        let count = sdg.kinds.len();
        sdg.succs = Adjacency::build(count, &edges, false);
        sdg.preds = Adjacency::build(count, &edges, true);
        sdg
    }
}

/// The regions to keep context-insensitive so that the summary edges stay within
/// [`SdgConfig::max_summary_estimate`] (none if the budget allows).
///
/// The estimate bounds the summary edges from above: per binding (a call site bound to a
/// callee, or to the dispatch of its targets), the callee's inputs times its outputs.
/// A context-insensitive region leaves every interface, so the regions in the most
/// interfaces (weighted by bindings) go first, as few of them as the budget allows (the
/// estimate only decreases as more go, so a binary search finds the count).
fn global_regions(
    program: &Program,
    pts: &PointsTo,
    modref: &ModRef,
    config: &SdgConfig,
) -> BitSet {
    let parts = pts.part_count();
    // Callees (functions and target sets) with their number of bindings.
    let mut weight: FxHashMap<Vec<FuncId>, usize> = FxHashMap::default();
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            if !matches!(node.kind, NodeKind::Call { .. }) {
                continue;
            }
            for list in [pts.call_targets(f, n), pts.callbacks(f, n)] {
                if list.len() >= config.dispatch_min_targets.max(2) {
                    *weight.entry(list.to_vec()).or_default() += 1;
                } else {
                    for &g in list {
                        *weight.entry(vec![g]).or_default() += 1;
                    }
                }
            }
        }
    }
    struct Callee {
        weight: usize,
        params: usize,
        ins: BitSet,
        outs: BitSet,
    }
    let callees: Vec<Callee> = weight
        .into_iter()
        .map(|(targets, weight)| {
            let mut ins = BitSet::new(parts);
            let mut outs = BitSet::new(parts);
            let mut params = 0;
            for g in targets {
                ins.union_with(&modref.refs[g.index()]);
                ins.union_with(&modref.mods[g.index()]);
                outs.union_with(&modref.mods[g.index()]);
                params = params.max(program.functions[g].params.len());
            }
            Callee {
                weight,
                params,
                ins,
                outs,
            }
        })
        .collect();
    let estimate = |global: &BitSet| -> usize {
        let size = |set: &BitSet| -> usize {
            let mut rest = set.clone();
            rest.subtract(global);
            rest.count()
        };
        callees
            .iter()
            .map(|c| c.weight * (c.params + size(&c.ins)) * (size(&c.outs) + 2))
            .fold(0usize, usize::saturating_add)
    };
    let budget = config.max_summary_estimate;
    if estimate(&BitSet::new(parts)) <= budget {
        return BitSet::new(parts);
    }
    let mut frequency = vec![0usize; parts];
    for c in &callees {
        for p in c.ins.iter() {
            frequency[p] += c.weight;
        }
    }
    let mut order: Vec<usize> = (0..parts).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(frequency[p]), p));
    let top = |k: usize| -> BitSet {
        let mut set = BitSet::new(parts);
        for &p in &order[..k] {
            set.insert(p);
        }
        set
    };
    // The smallest k with estimate(top k) within the budget (all of them if none is).
    let (mut lo, mut hi) = (1, parts);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if estimate(&top(mid)) <= budget {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    top(lo)
}

/// The regions of the callbacks that may run after the external call that receives them
/// has returned: those of `atexit` and of unknown externals (`signal`, `pthread_create`).
/// The other modelled externals call back during the call (`qsort`, `bsearch`) or never.
/// A flow-sensitive dependence would miss the writes between the registration and the
/// call back (in the function or in its callers), so these regions stay flow-insensitive
/// in every function.
fn deferred_regions(program: &Program, pts: &PointsTo, modref: &ModRef) -> BitSet {
    let mut deferred = BitSet::new(pts.part_count());
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            let callbacks = pts.callbacks(f, n);
            if callbacks.is_empty() {
                continue;
            }
            if let NodeKind::Call {
                callee: Callee::Direct(g),
                ..
            } = &node.kind
            {
                let name = program.functions[*g].name.as_str();
                if name.starts_with("__builtin_") {
                    // Compiler builtins call nothing.
                    continue;
                }
                let during = matches!(name, "qsort" | "bsearch");
                if during || !external_model(name).calls_back {
                    continue;
                }
            }
            for &h in callbacks {
                deferred.union_with(&modref.refs[h.index()]);
                deferred.union_with(&modref.mods[h.index()]);
            }
        }
    }
    deferred
}

/// The vertices that read the memory a call to defined functions loads in its own
/// expressions: the actual-in of each argument that loads (the call node for variadic
/// extras), the result's actual-out when the address it is stored at loads, and the call
/// node when the target of a call through a pointer loads. The loaded values go nowhere
/// else: whether the call runs does not depend on them.
fn argument_readers(kind: &NodeKind, site: &Site, call_v: VertexId) -> Vec<VertexId> {
    let NodeKind::Call { dst, callee, args } = kind else {
        return vec![call_v];
    };
    let mut out = Vec::new();
    if matches!(callee, Callee::Indirect(target) if target.reads_memory()) {
        out.push(call_v);
    }
    for (i, arg) in args.iter().enumerate() {
        if arg.reads_memory() {
            let var = IfaceVar::Param(i as u32);
            out.push(site.actual_in.get(&var).copied().unwrap_or(call_v));
        }
    }
    if let Some(Place::Mem { addr, .. } | Place::Bits { addr, .. }) = dst {
        if addr.reads_memory() {
            let ret = site.actual_out.get(&IfaceVar::Return).copied();
            out.push(ret.unwrap_or(call_v));
        }
    }
    if out.is_empty() {
        out.push(call_v);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A call site of the function being built.
/// Per node that may trap, the vertices that decide whether it does.
type TrapSources = FxHashMap<NodeId, Vec<VertexId>>;

/// A vertex reading registers at a node.
type RegisterUse = (VertexId, NodeId, Vec<ripple_ir::VarId>);

struct Site {
    /// Targets and callbacks.
    targets: Vec<FuncId>,
    /// The call node itself also acts as an unknown external call.
    external: bool,
    /// An external that may end the program.
    stops: bool,
    /// The actuals, shared by all targets.
    actual_in: FxHashMap<IfaceVar, VertexId>,
    actual_out: FxHashMap<IfaceVar, VertexId>,
}

fn node_v_of(node_base: &[Option<u32>], g: FuncId, n: NodeId) -> VertexId {
    VertexId(node_base[g.index()].expect("defined functions have vertices") + n.0)
}

/// The summary edges (Reps, Horwitz, Sagiv and Rosay, FSE 1994, over whole functions):
/// an actual-in joins an actual-out of a call when a callee has a same-level path from
/// the formal-in to the formal-out, through its own data, control and summary edges.
/// A dispatch has the union of its targets' paths. Worklist over functions whose
/// summaries grew; `sdg.succs` holds every edge but the summaries.
fn summary_edges(sdg: &Sdg) -> Vec<(u32, u32)> {
    let functions = sdg.formal_in.len();
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); functions];
    for (v, f) in sdg.function_of.iter().enumerate() {
        members[f.index()].push(v as u32);
    }
    let mut local = vec![0u32; sdg.kinds.len()];
    for list in &members {
        for (i, &v) in list.iter().enumerate() {
            local[v as usize] = i as u32;
        }
    }
    // Bindings per callee: functions first, then dispatches.
    let key = |b: Bound| match b {
        Bound::Function(g) => g.index(),
        Bound::Dispatch(d) => functions + d as usize,
    };
    let mut bindings_of: Vec<Vec<usize>> = vec![Vec::new(); functions + sdg.dispatches.len()];
    for (i, b) in sdg.bindings.iter().enumerate() {
        bindings_of[key(b.callee)].push(i);
    }
    let mut dispatches_of: Vec<Vec<u32>> = vec![Vec::new(); functions];
    for (d, dispatch) in sdg.dispatches.iter().enumerate() {
        for &g in &dispatch.targets {
            dispatches_of[g.index()].push(d as u32);
        }
    }
    // Pairs already summarised, per callee: (formal-out, formal-in) of functions, and
    // (output port, input port) of dispatches.
    let mut known: Vec<FxHashSet<(VertexId, VertexId)>> =
        vec![FxHashSet::default(); sdg.dispatches.len()];
    let mut known_own: Vec<Option<BitMatrix>> = vec![None; functions];
    // Summary edges found so far, by actual-in.
    let mut summary: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut all: Vec<(u32, u32)> = Vec::new();
    let mut queued = vec![false; functions];
    let mut worklist: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for (f, flag) in queued.iter_mut().enumerate() {
        if !sdg.formal_out[f].is_empty() && !sdg.formal_in[f].is_empty() {
            worklist.push_back(f);
            *flag = true;
        }
    }
    // Per function, which formal-ins reach each of its vertices (row: a vertex, column:
    // a formal-in), kept between visits: a later visit only propagates the summary edges
    // added since (`pending`).
    let mut reach: Vec<Option<BitMatrix>> = vec![None; functions];
    let mut pending: Vec<Vec<(u32, u32)>> = vec![Vec::new(); functions];
    let mut ins_of: Vec<Vec<VertexId>> = vec![Vec::new(); functions];
    let mut on_stack = vec![false; sdg.kinds.len()];
    while let Some(f) = worklist.pop_front() {
        queued[f] = false;
        let mut stack: Vec<u32> = Vec::new();
        let bits = match &mut reach[f] {
            Some(bits) => {
                for (a, o) in std::mem::take(&mut pending[f]) {
                    if bits.union_rows(local[o as usize] as usize, local[a as usize] as usize)
                        && !on_stack[o as usize]
                    {
                        on_stack[o as usize] = true;
                        stack.push(o);
                    }
                }
                bits
            }
            slot @ None => {
                pending[f].clear();
                let mut ins: Vec<VertexId> = sdg.formal_in[f].values().copied().collect();
                ins.sort_unstable();
                let mut bits = BitMatrix::new(members[f].len(), ins.len());
                for (i, &v) in ins.iter().enumerate() {
                    bits.insert(local[v.index()] as usize, i);
                    on_stack[v.index()] = true;
                    stack.push(v.0);
                }
                ins_of[f] = ins;
                slot.insert(bits)
            }
        };
        while let Some(v) = stack.pop() {
            on_stack[v as usize] = false;
            let from = local[v as usize] as usize;
            // Paths through a context-insensitive region are no same-level paths: a
            // traversal that reaches the region leaves every context anyway.
            let base = sdg
                .succs(VertexId(v))
                .iter()
                .filter(|&&(w, kind)| {
                    kind.is_intraprocedural()
                        && sdg.function_of[w.index()].index() == f
                        && !sdg.is_context_free(w)
                })
                .map(|&(w, _)| w.0);
            let extra = summary.get(&v).into_iter().flatten().copied();
            for w in base.chain(extra) {
                if bits.union_rows(local[w as usize] as usize, from) && !on_stack[w as usize] {
                    on_stack[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        let ins = &ins_of[f];
        let mut outs: Vec<VertexId> = sdg.formal_out[f].values().copied().collect();
        outs.sort_unstable();
        let done = known_own[f].get_or_insert_with(|| BitMatrix::new(outs.len(), ins.len()));
        // New pairs per callee (f itself, and its dispatches), by formal-in.
        let mut new_pairs: Vec<(usize, FxHashMap<VertexId, Vec<VertexId>>)> = Vec::new();
        let mut own: FxHashMap<VertexId, Vec<VertexId>> = FxHashMap::default();
        for (o, &fo) in outs.iter().enumerate() {
            for i in bits.iter_row(local[fo.index()] as usize) {
                if done.insert(o, i) {
                    own.entry(ins[i]).or_default().push(fo);
                }
            }
        }
        if own.is_empty() {
            continue;
        }
        for &d in &dispatches_of[f] {
            let dispatch = &sdg.dispatches[d as usize];
            let callee = functions + d as usize;
            let known = &mut known[d as usize];
            let mut through: FxHashMap<VertexId, Vec<VertexId>> = FxHashMap::default();
            for (&fi, fos) in &own {
                let VertexKind::FormalIn(x) = sdg.kinds[fi.index()] else {
                    continue;
                };
                let Some(&pi) = dispatch.ins.get(&x) else {
                    continue;
                };
                for &fo in fos {
                    let VertexKind::FormalOut(y) = sdg.kinds[fo.index()] else {
                        continue;
                    };
                    if let Some(&po) = dispatch.outs.get(&y) {
                        if known.insert((pi, po)) {
                            through.entry(pi).or_default().push(po);
                        }
                    }
                }
            }
            if !through.is_empty() {
                new_pairs.push((callee, through));
            }
        }
        new_pairs.push((f, own));
        for (callee, pairs) in &new_pairs {
            for &b in &bindings_of[*callee] {
                let binding = &sdg.bindings[b];
                let caller = binding.caller.index();
                let actual_out: FxHashMap<VertexId, VertexId> =
                    binding.outs.iter().copied().collect();
                for &(a_in, fi) in &binding.ins {
                    let Some(fos) = pairs.get(&fi) else {
                        continue;
                    };
                    for fo in fos {
                        let Some(&a_out) = actual_out.get(fo) else {
                            continue;
                        };
                        summary.entry(a_in.0).or_default().push(a_out.0);
                        pending[caller].push((a_in.0, a_out.0));
                        all.push((a_in.0, a_out.0));
                        if !queued[caller] {
                            queued[caller] = true;
                            worklist.push_back(caller);
                        }
                    }
                }
            }
        }
    }
    all
}
