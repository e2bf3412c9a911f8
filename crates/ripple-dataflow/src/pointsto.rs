//! Points-to analysis: which memory each address expression may denote, and which
//! functions each call may reach.
//!
//! Memory is abstracted into *objects*: each global, each memory local (per function,
//! shared by all activations), each allocation site (`malloc` and friends, by call node),
//! each function (for function pointers), the variadic arguments of each variadic
//! function (what its `va_list` reads), and one *external* object standing for the
//! memory and hidden state of the C library and of unknown code (argv strings, `FILE`s,
//! `errno`, the stdin position). A *cell* is an object and a byte offset in it, or the
//! object at an unknown offset.
//!
//! Two solvers share one set of constraints (address-of, copy, pointer shift, load,
//! store, block copy), generated once from the IR:
//! - [`PointsToMode::Andersen`]: inclusion-based (Andersen, 1994), field-sensitive through
//!   constant offsets (`p->f` is `PtrAdd(p, offset)` in the IR): a load or store at a
//!   known offset touches that cell and the object's unknown-offset cell; arithmetic with
//!   a non-constant offset, or an offset past the object, gives the unknown-offset cell.
//!   Solved after offline variable substitution (Hardekopf and Lin, SAS 2007) by a
//!   worklist in topological waves with difference propagation that collapses cycles
//!   of copy edges as it finds them (Hardekopf and Lin, PLDI 2007, lazy cycle
//!   detection; see `pointsto/andersen.rs`); deterministic.
//! - [`PointsToMode::Unification`]: Steensgaard's unification (POPL 1996), field-
//!   insensitive, almost linear; the fallback for programs with more nodes than
//!   [`PointsToConfig::andersen_node_limit`], where inclusion-based solving costs too
//!   much. Its equivalence classes become the memory regions.
//!
//! Either way the result is a partition of memory into *regions* ([`PartId`]: objects
//! for Andersen, classes for unification) and, for every node, the regions (and offsets)
//! it reads and writes directly ([`Access`]), including what external functions do to
//! memory (see `libc.rs`). Indirect calls are resolved to the functions their pointer
//! may hold; functions passed to externals (`qsort`, `bsearch`, `atexit`) are callbacks
//! of that call.
//!
//! Parameters come from the calls the solver binds (direct, through pointers, callbacks
//! of externals, which pass pointers into what the external was given); functions that
//! no call of the program may reach, and those whose address escapes into external
//! memory, also get external memory in their parameters (except numbers narrower than a
//! pointer, such as `argc`, which cannot hold an address on LP64).
//!
//! Soundness: a havoc node may read every region and write every one but the read-only
//! regions (string literals and `const` globals, which no defined run writes); unknown
//! externals read and write what their arguments point to and the external object, and
//! return pointers into either. Blocks returned by allocation wrappers are one object per call site of
//! the wrapper (`pointsto/wrappers.rs`). Limits: objects are otherwise context-
//! insensitive (all activations of a local, all blocks from one allocation site are one
//! object); integers built from pointers by
//! arithmetic other than `PtrAdd` keep the pointer's targets at an unknown offset, but
//! pointers forged from integer constants point to nothing.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_ir::{
    BinOp, Callee, Expr, ExprKind, FuncId, GlobalId, InitItem, Intrinsic, NodeId, NodeKind, Place,
    Program, Storage, Type, TypeId, UnOp, VarId,
};

use crate::libc::{external_model, CountStores, LibraryGlobals, Returns, Writes};
use ripple_graph::{CallGraph, CallTarget};

mod andersen;
mod by_access;
mod wrappers;

use andersen::Andersen;
pub use andersen::AndersenStats;
use wrappers::{WrapperCall, Wrappers};

/// An abstract memory object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Object {
    Global(GlobalId),
    Local(FuncId, VarId),
    Heap(FuncId, NodeId),
    Function(FuncId),
    /// The variadic arguments of every call of a function (what its `va_list` reads).
    VarArgs(FuncId),
    External,
}

/// A memory region: the unit of the mod/ref sets and of the SDG's memory inputs and
/// outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartId(pub u32);

impl PartId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    Read,
    Write,
}

/// One direct memory access of a node: a region it may read or write. (The solver
/// tells fields apart; the dependence graph needs only the regions, and a list of
/// cells would be several times longer: on sqlite3.c about 2 GB more at the peak.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Access {
    pub kind: AccessKind,
    pub part: PartId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointsToMode {
    Andersen,
    Unification,
}

/// Why a program's points-to is unification's, not the inclusion-based analysis'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Asked for ([`PointsToConfig::mode`]).
    Chosen,
    /// The program has more IR nodes than [`PointsToConfig::andersen_node_limit`].
    AboveNodeLimit { nodes: usize, limit: usize },
    /// The inclusion-based solver passed [`PointsToConfig::andersen_work_limit`].
    PastWorkLimit { limit: u64 },
}

#[derive(Clone, Debug)]
pub struct PointsToConfig {
    /// Programs with more IR nodes than this use unification instead of Andersen.
    pub andersen_node_limit: usize,
    /// Work after which Andersen gives up and unification is used instead (unless the
    /// mode is forced): worklist steps, words of bit sets unioned and cells applied to
    /// complex constraints ([`AndersenStats::work`]). Lua 5.4.9 as one program (17,608
    /// nodes) takes 1.4e8 (about 3 s); the limit allows about three times that.
    pub andersen_work_limit: u64,
    /// Forces a mode.
    pub mode: Option<PointsToMode>,
    /// Whether the Andersen solver merges pvars proven to have equal sets: offline
    /// variable substitution and the collapsing of cycles of copy edges (lazy cycle
    /// detection). The result is the same either way (up to the cells of objects
    /// with many offsets, see `pointsto/andersen.rs`); merging makes it faster.
    pub collapse_cycles: bool,
    /// Whether to check that the Andersen result satisfies every constraint (for
    /// tests; the count is [`AndersenStats::violations`]).
    pub verify_fixpoint: bool,
    /// A diagnostic: (function, variable, object name) asks for a shortest derivation
    /// of the object in the set of the function's register variable, under Andersen
    /// ([`PointsTo::explained`]).
    pub explain: Option<(String, String, String)>,
}

impl Default for PointsToConfig {
    fn default() -> Self {
        PointsToConfig {
            andersen_node_limit: 40_000,
            andersen_work_limit: 400_000_000,
            mode: None,
            collapse_cycles: true,
            verify_fixpoint: false,
            explain: None,
        }
    }
}

/// The points-to result of a program.
#[derive(Clone, Debug)]
pub struct PointsTo {
    pub mode: PointsToMode,
    /// The steps asked for by [`PointsToConfig::explain`], from the address taken.
    pub explained: Vec<String>,
    /// Why unification ran, when it did.
    pub fallback: Option<Fallback>,
    /// Objects with more offsets addressed than the inclusion-based solver keeps apart
    /// (every member of the object's type, and 32 other offsets: elements of arrays of
    /// numbers, the fields of heap blocks): their further offsets share the
    /// unknown-offset cell, so what is stored at one may be read from another. Sorted.
    pub fields_merged: Vec<Object>,
    /// Counters of the Andersen solver, when it ran (also when it gave up and the
    /// result is unification's).
    pub andersen: Option<AndersenStats>,
    pub objects: Vec<Object>,
    /// The objects of each region, sorted.
    pub part_objects: Vec<Vec<Object>>,
    /// The number of regions the solver gave, before [`PointsTo::merged_by_access`].
    pub fine_regions: usize,
    /// Direct accesses per function and node: an index into `access_lists`.
    accesses: Vec<Vec<u32>>,
    /// The distinct access lists, each sorted and deduplicated (many nodes access
    /// memory through pointers with the same targets, which under Andersen can be
    /// hundreds of regions).
    access_lists: Vec<Vec<Access>>,
    /// By region: whether it holds read-only objects only (string literals, globals
    /// defined `const`), which no defined run writes.
    read_only: Vec<bool>,
    /// Nodes that may read and write every region (havoc).
    havoc: FxHashSet<(FuncId, NodeId)>,
    /// The `setjmp` nodes ([`ripple_ir::Node::is_setjmp`]).
    setjmp: FxHashSet<(FuncId, NodeId)>,
    /// Defined functions each call node may call (direct, indirect resolved), sorted.
    targets: FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
    /// Defined functions an external call may call back, sorted.
    callbacks: FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
    /// Library functions a call through a pointer may call, sorted.
    library_targets: FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
    /// The region of the external object.
    pub external_part: PartId,
    object_part: FxHashMap<Object, PartId>,
}

impl PointsTo {
    pub fn analyze(program: &Program, config: &PointsToConfig) -> PointsTo {
        let nodes = program.node_count();
        let mode = config
            .mode
            .unwrap_or(if nodes > config.andersen_node_limit {
                PointsToMode::Unification
            } else {
                PointsToMode::Andersen
            });
        let graph = CallGraph::build(program);
        let wrappers = Wrappers::find(program, &graph);
        // Functions some call through a pointer may reach, by type.
        let by_pointer: FxHashSet<FuncId> = graph
            .sites
            .iter()
            .flat_map(|site| match &site.target {
                CallTarget::Indirect(targets) => targets.as_slice(),
                _ => &[],
            })
            .copied()
            .collect();
        let mut gen = Generator::new(program, &wrappers, &by_pointer);
        gen.generate_all();
        let mut stats = None;
        if mode == PointsToMode::Andersen {
            let collapse = config.collapse_cycles;
            let (solution, attempt) =
                gen.solve_andersen(config.andersen_work_limit, collapse, config.verify_fixpoint);
            stats = Some(attempt);
            if let Some(solution) = solution {
                let explained = config
                    .explain
                    .as_ref()
                    .map(|spec| gen.explain(&solution, spec))
                    .unwrap_or_default();
                let mut result = gen.finish(mode, solution, stats);
                result.explained = explained;
                return result;
            }
            if config.mode == Some(PointsToMode::Andersen) {
                let (solution, attempt) =
                    gen.solve_andersen(u64::MAX, collapse, config.verify_fixpoint);
                let solution = solution.expect("no limit on the worklist");
                return gen.finish(mode, solution, Some(attempt));
            }
            // Too much work: unification, from a fresh set of constraints.
            gen = Generator::new(program, &wrappers, &by_pointer);
            gen.generate_all();
        }
        let solution = gen.solve_unification();
        let mut result = gen.finish(PointsToMode::Unification, solution, stats);
        result.fallback = Some(if config.mode == Some(PointsToMode::Unification) {
            Fallback::Chosen
        } else if mode == PointsToMode::Andersen {
            Fallback::PastWorkLimit {
                limit: config.andersen_work_limit,
            }
        } else {
            Fallback::AboveNodeLimit {
                nodes,
                limit: config.andersen_node_limit,
            }
        });
        result
    }

    pub fn accesses(&self, function: FuncId, node: NodeId) -> &[Access] {
        self.accesses
            .get(function.index())
            .and_then(|f| f.get(node.index()))
            .map_or(&[], |&list| self.access_lists[list as usize].as_slice())
    }

    pub fn is_havoc(&self, function: FuncId, node: NodeId) -> bool {
        self.havoc.contains(&(function, node))
    }

    /// Whether a node is a `setjmp`: it returns again when a later call jumps back to
    /// it, with the memory that call left.
    pub fn is_setjmp(&self, function: FuncId, node: NodeId) -> bool {
        self.setjmp.contains(&(function, node))
    }

    /// Whether a region holds read-only objects only (string literals, globals defined
    /// `const`): a write there is undefined behaviour (a trap where they live in
    /// read-only memory), so no defined run writes it, not even unknown code (a havoc).
    pub fn is_read_only(&self, part: PartId) -> bool {
        self.read_only.get(part.index()).copied().unwrap_or(false)
    }

    /// The defined functions a call node may call.
    pub fn call_targets(&self, function: FuncId, node: NodeId) -> &[FuncId] {
        self.targets
            .get(&(function, node))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether call node `node` of `function` may call a library function that may not
    /// return, directly or through a pointer (a handler set to `exit`): one that never
    /// does (`exit`), one that jumps (`longjmp`), or one without a model (another
    /// library's code may exit, or jump back to the program, as libpng's errors do).
    pub fn may_not_return_from_library(
        &self,
        program: &Program,
        function: FuncId,
        node: NodeId,
    ) -> bool {
        self.calls_library(program, function, node, |m| m.noreturn || m.jumps)
    }

    /// Whether a call node may call a library function that may jump back to a
    /// `setjmp` of the program (`longjmp`, an unknown external), directly or through a
    /// pointer.
    pub fn may_jump_back(&self, program: &Program, function: FuncId, node: NodeId) -> bool {
        self.calls_library(program, function, node, |m| m.jumps)
    }

    /// Whether a call node may call, directly or through a pointer, a library function
    /// whose model has the property `holds`.
    fn calls_library(
        &self,
        program: &Program,
        function: FuncId,
        node: NodeId,
        holds: impl Fn(&crate::libc::ExternalModel) -> bool,
    ) -> bool {
        let library = |g: FuncId| {
            let g = &program.functions[g];
            !g.is_defined() && holds(&external_model(&g.name))
        };
        let direct = program.functions[function].nodes[node]
            .direct_callee()
            .is_some_and(library);
        let through_pointer = self
            .library_targets
            .get(&(function, node))
            .is_some_and(|targets| targets.iter().copied().any(library));
        direct || through_pointer
    }

    /// The defined functions an external call may call back.
    pub fn callbacks(&self, function: FuncId, node: NodeId) -> &[FuncId] {
        self.callbacks
            .get(&(function, node))
            .map_or(&[], Vec::as_slice)
    }

    /// The region holding an object, if the object is known to the analysis.
    pub fn part_of(&self, object: Object) -> Option<PartId> {
        self.object_part.get(&object).copied()
    }

    pub fn part_count(&self) -> usize {
        self.part_objects.len()
    }

    /// A readable name of a region: its most telling object (a named global, else a heap
    /// block, a local, a string literal) and how many others share it.
    pub fn part_name(&self, program: &Program, part: PartId) -> String {
        let objects = &self.part_objects[part.index()];
        let rank = |o: &Object| match o {
            Object::Global(g) if !program.globals[*g].name.starts_with(".str") => 0,
            Object::Heap(..) => 1,
            Object::Local(..) => 2,
            Object::Global(_) => 3,
            _ => 4,
        };
        let Some(first) = objects.iter().min_by_key(|o| rank(o)) else {
            return "memory".to_string();
        };
        let name = object_name(program, *first);
        if objects.len() > 1 {
            format!("{name} (and {} aliased objects)", objects.len() - 1)
        } else {
            name
        }
    }
}

/// A readable name of an object.
pub fn object_name(program: &Program, object: Object) -> String {
    match object {
        Object::Global(g) if program.globals[g].name.starts_with(".str") => {
            let global = &program.globals[g];
            let text: String = global
                .init
                .iter()
                .flat_map(|i| &i.items)
                .filter_map(|item| match item {
                    ripple_ir::InitItem::Bytes { bytes, .. } => Some(bytes),
                    _ => None,
                })
                .flatten()
                .take_while(|b| **b != 0)
                .map(|b| char::from(*b))
                .collect();
            let shown: String = text
                .chars()
                .take(24)
                .collect::<String>()
                .escape_default()
                .to_string();
            let more = if text.chars().count() > 24 { "..." } else { "" };
            format!(
                "string literal \"{shown}{more}\" at {}:{}",
                program.file_path(global.span.file),
                global.span.start_line
            )
        }
        Object::Global(g) => program.globals[g].name.clone(),
        Object::Local(f, v) => {
            let function = &program.functions[f];
            format!("{} (local of {})", function.locals[v].name, function.name)
        }
        Object::Heap(f, n) => {
            let node = &program.functions[f].nodes[n];
            let span = node.span;
            // A block cloned at a call of an allocation wrapper is named by the wrapper.
            let by = match node.direct_callee() {
                Some(g) if program.functions[g].is_defined() => {
                    format!(" by {}", program.functions[g].name)
                }
                _ => String::new(),
            };
            format!(
                "heap block allocated{by} at {}:{}",
                program.file_path(span.file),
                span.start_line
            )
        }
        Object::Function(f) => program.functions[f].name.clone(),
        Object::VarArgs(f) => format!("variadic arguments of {}", program.functions[f].name),
        Object::External => "external memory".to_string(),
    }
}

type PVar = u32;

/// The cells an object may have at offsets where its type has no member (or an object
/// without a type: a heap block) before further offsets go to its unknown-offset cell.
/// Pointer arithmetic walking a buffer by constant steps (`p + 1` in a loop) would
/// otherwise give every byte of it a cell.
const MAX_CELLS: usize = 32;

/// The member offsets of an object's type that get cells of their own whatever
/// [`MAX_CELLS`] says: those of its scalar members (the elements of arrays of pointers
/// and records included, of arrays of numbers the first only), up to this many. A
/// record with more members than `MAX_CELLS` (a parser's state, say) keeps them apart,
/// so a pointer stored in one member is not read from every other one.
const MAX_MEMBER_CELLS: usize = 1024;

#[derive(Clone, Debug)]
enum Constraint {
    /// `dst` may point to cell `cell` (a cell pvar).
    Base(PVar, PVar),
    Copy(PVar, PVar),
    /// `dst = src + offset` (pointer arithmetic; `None`: unknown offset).
    Shift(PVar, PVar, Option<i64>),
    /// `dst = *addr`.
    Load(PVar, PVar),
    /// `*addr = src`.
    Store(PVar, PVar),
    /// The contents of what `src` points to flow into what `dst` points to.
    CopyBlock(PVar, PVar),
}

/// An access before solving: its address pvar.
#[derive(Clone, Debug)]
struct RawAccess {
    kind: AccessKind,
    addr: PVar,
}

impl RawAccess {
    fn new(kind: AccessKind, addr: PVar) -> Self {
        RawAccess { kind, addr }
    }
}

enum Solution {
    Andersen(Box<Andersen>),
    Unification(UnionFind),
}

struct Generator<'p> {
    program: &'p Program,
    wrappers: &'p Wrappers,
    /// Functions a call through a pointer of a fitting type may reach.
    by_pointer: &'p FxHashSet<FuncId>,
    /// Functions whose parameters come from outside the program: (function, index of
    /// the external call passing it as a callback, or `usize::MAX`).
    rooted: FxHashSet<(FuncId, usize)>,
    reg_base: Vec<u32>,
    next: u32,
    objects: Vec<Object>,
    object_ids: FxHashMap<Object, u32>,
    /// Cell pvar -> (object, offset).
    cell_info: FxHashMap<PVar, (u32, Option<u64>)>,
    cells: FxHashMap<(u32, Option<u64>), PVar>,
    cells_of_object: Vec<Vec<PVar>>,
    object_size: Vec<Option<u64>>,
    /// By object with [`MAX_CELLS`] cells or more: the offsets of its type's members
    /// (sorted), which get cells of their own.
    member_offsets: FxHashMap<u32, Vec<u64>>,
    /// Objects that had more fields addressed than the solver keeps apart: the further
    /// ones went to the unknown-offset cell.
    fields_merged: FxHashSet<u32>,
    constraints: Vec<Constraint>,
    raw: Vec<Vec<Vec<RawAccess>>>,
    havoc: FxHashSet<(FuncId, NodeId)>,
    setjmp: FxHashSet<(FuncId, NodeId)>,
    /// Indirect calls: (function, node, callee pvar, arg pvars, result target).
    indirect: Vec<IndirectCall>,
    /// External calls with possible callbacks: (function, node, arg pvars, and per pvar
    /// whether what it points to may be a function pointer, by its type).
    #[allow(clippy::type_complexity)]
    external_calls: Vec<(FuncId, NodeId, Vec<Option<PVar>>, Vec<bool>)>,
    direct_targets: FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
    /// Library functions bound to calls through pointers.
    library_targets: FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
    /// The library models applied to each indirect call (by index), as text.
    library_bound: FxHashSet<(usize, String)>,
    /// Indirect calls (by index) bound to a target they may reach (see [`may_reach`]).
    reaching: FxHashSet<usize>,
    /// Targets of indirect calls that the arguments do not fit, not bound unless the
    /// call has no other (then every target is, see [`Generator::bind_unfit`]).
    unfit: FxHashMap<usize, Vec<FuncId>>,
    /// Indirect calls bound to every target, for none fits their arguments.
    unfit_bound: FxHashSet<usize>,
    external: PVar,
    external_cell: PVar,
    /// The globals the program declares without defining them (the C library's own,
    /// such as `optind`), but the standard streams' pointers: see
    /// [`LibraryGlobals::All`].
    library_globals: Vec<GlobalId>,
}

struct IndirectCall {
    function: FuncId,
    node: NodeId,
    callee: Option<PVar>,
    args: Vec<Option<PVar>>,
    result: Option<ResultTarget>,
    /// The allocation wrappers whose result the call gets from its cloned objects
    /// (see `wrappers.rs`): bound without their result.
    cloned: Vec<FuncId>,
    /// How each argument is passed, to tell the targets it may call.
    classes: Vec<PassedAs>,
}

/// How a value is passed to a function, as far as a call through a pointer can tell
/// the functions it may reach apart: calling a function through a pointer of an
/// incompatible type is undefined behaviour (C11 6.5.2.2p9), and a pointer or a
/// floating value where the function takes a narrower integer (or the reverse) is
/// incompatible on every ABI. Integers as wide as a pointer pass for pointers
/// (`intptr_t`), and an integer constant passes for anything (`f(0)` through an
/// unprototyped pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PassedAs {
    Pointer,
    NarrowInt,
    WideInt,
    Float,
    Record,
    Any,
}

impl PassedAs {
    fn of_type(types: &ripple_ir::TypeTable, ty: ripple_ir::TypeId) -> Self {
        match types.get(ty) {
            ripple_ir::Type::Pointer(_) => PassedAs::Pointer,
            ripple_ir::Type::Int(_) if types.size_of(ty) >= 8 => PassedAs::WideInt,
            ripple_ir::Type::Int(_) => PassedAs::NarrowInt,
            ripple_ir::Type::Float(_) => PassedAs::Float,
            ripple_ir::Type::Record(_) => PassedAs::Record,
            _ => PassedAs::Any,
        }
    }

    fn of_arg(types: &ripple_ir::TypeTable, arg: &Expr) -> Self {
        match arg.kind {
            ripple_ir::ExprKind::Int(_) => PassedAs::Any,
            _ => Self::of_type(types, arg.ty),
        }
    }

    fn fits(self, param: PassedAs) -> bool {
        use PassedAs::*;
        match (self, param) {
            (Any, _) | (_, Any) => true,
            (Pointer | WideInt, Pointer | WideInt) => true,
            (NarrowInt | WideInt, NarrowInt | WideInt) => true,
            (a, b) => a == b,
        }
    }
}

/// Whether a call through a pointer passing `classes` may reach `callee`: the number of
/// arguments and how each is passed fit its parameters (see [`PassedAs`]).
fn may_reach(program: &Program, classes: &[PassedAs], callee: FuncId) -> bool {
    let callee = &program.functions[callee];
    let types = &program.types;
    let arity = callee.params.len() == classes.len()
        || (callee.is_variadic(types) && callee.params.len() <= classes.len());
    arity
        && callee
            .params
            .iter()
            .zip(classes)
            .all(|(&p, class)| class.fits(PassedAs::of_type(types, callee.locals[p].ty)))
}

#[derive(Clone, Copy)]
enum ResultTarget {
    Reg(PVar),
    Mem(PVar),
}

impl<'p> Generator<'p> {
    fn new(
        program: &'p Program,
        wrappers: &'p Wrappers,
        by_pointer: &'p FxHashSet<FuncId>,
    ) -> Self {
        let mut reg_base = Vec::with_capacity(program.functions.len());
        let mut next = 0u32;
        for f in program.functions.iter() {
            reg_base.push(next);
            next += f.locals.len() as u32;
        }
        let mut gen = Generator {
            program,
            wrappers,
            by_pointer,
            rooted: FxHashSet::default(),
            reg_base,
            next,
            objects: Vec::new(),
            object_ids: FxHashMap::default(),
            cell_info: FxHashMap::default(),
            cells: FxHashMap::default(),
            cells_of_object: Vec::new(),
            object_size: Vec::new(),
            member_offsets: FxHashMap::default(),
            fields_merged: FxHashSet::default(),
            constraints: Vec::new(),
            raw: program
                .functions
                .iter()
                .map(|f| vec![Vec::new(); f.nodes.len()])
                .collect(),
            havoc: FxHashSet::default(),
            setjmp: FxHashSet::default(),
            indirect: Vec::new(),
            external_calls: Vec::new(),
            direct_targets: FxHashMap::default(),
            library_targets: FxHashMap::default(),
            library_bound: FxHashSet::default(),
            reaching: FxHashSet::default(),
            unfit: FxHashMap::default(),
            unfit_bound: FxHashSet::default(),
            external: 0,
            external_cell: 0,
            library_globals: program
                .globals
                .iter_enumerated()
                .filter(|(_, g)| {
                    g.init.is_none() && !matches!(g.name.as_str(), "stdin" | "stdout" | "stderr")
                })
                .map(|(id, _)| id)
                .collect(),
        };
        let ext = gen.object(Object::External);
        gen.external_cell = gen.cell(ext, None);
        gen.external = gen.temp();
        gen.constraints
            .push(Constraint::Base(gen.external, gen.external_cell));
        // External memory may point to external memory.
        gen.constraints
            .push(Constraint::Base(gen.external_cell, gen.external_cell));
        gen
    }

    fn temp(&mut self) -> PVar {
        self.next += 1;
        self.next - 1
    }

    fn reg(&self, f: FuncId, v: VarId) -> PVar {
        self.reg_base[f.index()] + v.0
    }

    fn object(&mut self, object: Object) -> u32 {
        if let Some(&id) = self.object_ids.get(&object) {
            return id;
        }
        let id = self.objects.len() as u32;
        let size = match object {
            Object::Global(g) => Some(self.program.types.size_of(self.program.globals[g].ty)),
            Object::Local(f, v) => Some(
                self.program
                    .types
                    .size_of(self.program.functions[f].locals[v].ty),
            ),
            Object::Heap(..) => Some(4096),
            Object::Function(_) | Object::VarArgs(_) | Object::External => Some(1),
        };
        self.objects.push(object);
        self.object_ids.insert(object, id);
        self.cells_of_object.push(Vec::new());
        self.object_size.push(size);
        id
    }

    fn cell(&mut self, object: u32, offset: Option<u64>) -> PVar {
        if let Some(&pv) = self.cells.get(&(object, offset)) {
            return pv;
        }
        let pv = self.temp();
        self.cells.insert((object, offset), pv);
        self.cell_info.insert(pv, (object, offset));
        self.cells_of_object[object as usize].push(pv);
        pv
    }

    /// The cell at `offset` from `cell`, collapsing to the unknown offset past the object.
    fn shifted(&mut self, cell: PVar, by: Option<i64>) -> PVar {
        let (object, offset) = self.cell_info[&cell];
        let new_offset = match (offset, by) {
            (Some(o), Some(d)) => {
                let target = o as i64 + d;
                let size = self.object_size[object as usize].unwrap_or(0) as i64;
                (target >= 0 && target < size.max(1)).then_some(target as u64)
            }
            _ => None,
        };
        // Bounded field sensitivity: past MAX_CELLS cells at offsets where its type has
        // no member, an object sends further such offsets to its unknown-offset cell.
        let new_offset = new_offset.filter(|&offset| {
            let kept = self.cells_of_object[object as usize].len() < MAX_CELLS
                || self.cells.contains_key(&(object, Some(offset)))
                || self.is_member_offset(object, offset)
                || self.other_cells(object) < MAX_CELLS;
            if !kept {
                self.fields_merged.insert(object);
            }
            kept
        });
        self.cell(object, new_offset)
    }

    /// The number of cells of `object` at known offsets where its type has no member.
    fn other_cells(&mut self, object: u32) -> usize {
        let offsets: Vec<u64> = self.cells_of_object[object as usize]
            .iter()
            .filter_map(|pv| self.cell_info[pv].1)
            .collect();
        offsets
            .into_iter()
            .filter(|&o| !self.is_member_offset(object, o))
            .count()
    }

    /// Whether the type of `object` has a member at `offset` (see [`MAX_MEMBER_CELLS`]).
    fn is_member_offset(&mut self, object: u32, offset: u64) -> bool {
        let program = self.program;
        let objects = &self.objects;
        let offsets = self.member_offsets.entry(object).or_insert_with(|| {
            let ty = match objects[object as usize] {
                Object::Global(g) => program.globals[g].ty,
                Object::Local(f, v) => program.functions[f].locals[v].ty,
                _ => return Vec::new(),
            };
            let mut offsets = Vec::new();
            member_offsets(&program.types, ty, 0, &mut offsets, 0);
            offsets.sort_unstable();
            offsets.dedup();
            offsets
        });
        offsets.binary_search(&offset).is_ok()
    }

    fn base_of(&mut self, object: Object) -> PVar {
        let id = self.object(object);
        let cell = self.cell(id, Some(0));
        let t = self.temp();
        self.constraints.push(Constraint::Base(t, cell));
        t
    }

    fn access(&mut self, f: FuncId, n: NodeId, access: RawAccess) {
        self.raw[f.index()][n.index()].push(access);
    }

    /// Generates constraints for an expression; returns the pvar holding its value, when
    /// it may hold a pointer. Records the loads as reads of node `n`.
    fn expr(&mut self, f: FuncId, n: NodeId, e: &Expr) -> Option<PVar> {
        let types = &self.program.types;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) => None,
            ExprKind::Local(v) => Some(self.reg(f, *v)),
            ExprKind::AddrOfLocal(v) => Some(self.base_of(Object::Local(f, *v))),
            ExprKind::AddrOfGlobal(g) => Some(self.base_of(Object::Global(*g))),
            ExprKind::AddrOfFunc(g) => Some(self.base_of(Object::Function(*g))),
            ExprKind::Load(addr) => {
                let a = self.expr(f, n, addr)?;
                let whole = types.is_aggregate(e.ty);
                self.access(f, n, RawAccess::new(AccessKind::Read, a));
                let source = if whole { self.shift(a, None) } else { a };
                let t = self.temp();
                self.constraints.push(Constraint::Load(t, source));
                Some(t)
            }
            ExprKind::LoadBits { addr, .. } => {
                let a = self.expr(f, n, addr)?;
                self.access(f, n, RawAccess::new(AccessKind::Read, a));
                None
            }
            ExprKind::Unary(UnOp::LogicalNot, inner) => {
                self.expr(f, n, inner);
                None
            }
            ExprKind::Unary(_, inner) => {
                let a = self.expr(f, n, inner)?;
                Some(self.shift(a, None))
            }
            ExprKind::Cast(inner) => self.expr(f, n, inner),
            ExprKind::Binary(op, lhs, rhs) => {
                let l = self.expr(f, n, lhs);
                let r = self.expr(f, n, rhs);
                if op.is_comparison() || *op == BinOp::PtrDiff {
                    return None;
                }
                if *op == BinOp::PtrAdd {
                    if let (Some(l), ExprKind::Int(bits)) = (l, &rhs.kind) {
                        let width = types.bits(rhs.ty);
                        let value = sign_extend(*bits, width);
                        return Some(self.shift(l, Some(value)));
                    }
                }
                match (l, r) {
                    (None, None) => None,
                    (Some(a), None) | (None, Some(a)) => Some(self.shift(a, None)),
                    (Some(a), Some(b)) => {
                        let t = self.temp();
                        self.constraints.push(Constraint::Shift(t, a, None));
                        self.constraints.push(Constraint::Shift(t, b, None));
                        Some(t)
                    }
                }
            }
        }
    }

    fn shift(&mut self, src: PVar, by: Option<i64>) -> PVar {
        let t = self.temp();
        self.constraints.push(Constraint::Shift(t, src, by));
        t
    }

    /// Writes `value` to a place; records the write.
    fn place(&mut self, f: FuncId, n: NodeId, place: &Place, value: Option<PVar>) {
        let types = &self.program.types;
        match place {
            Place::Local(v) => {
                if let Some(value) = value {
                    self.constraints
                        .push(Constraint::Copy(self.reg(f, *v), value));
                }
            }
            Place::Mem { addr, ty } => {
                let whole = types.is_aggregate(*ty);
                let Some(a) = self.expr(f, n, addr) else {
                    return;
                };
                self.access(f, n, RawAccess::new(AccessKind::Write, a));
                if let Some(value) = value {
                    let target = if whole { self.shift(a, None) } else { a };
                    self.constraints.push(Constraint::Store(target, value));
                }
            }
            Place::Bits { addr, .. } => {
                if let Some(a) = self.expr(f, n, addr) {
                    self.access(f, n, RawAccess::new(AccessKind::Write, a));
                }
            }
        }
    }

    /// Binds the arguments and result of a call to a defined function.
    fn bind_call(
        &mut self,
        callee: FuncId,
        args: &[Option<PVar>],
        result: Option<ResultTarget>,
        constraints: &mut Vec<Constraint>,
    ) {
        let function = &self.program.functions[callee];
        for (i, arg) in args.iter().enumerate() {
            let Some(arg) = *arg else { continue };
            match function.params.get(i) {
                Some(&p) if function.locals[p].storage == Storage::Register => {
                    constraints.push(Constraint::Copy(self.reg(callee, p), arg));
                }
                Some(&p) => {
                    let obj = self.object(Object::Local(callee, p));
                    let cell = self.cell(obj, None);
                    constraints.push(Constraint::Copy(cell, arg));
                }
                // Variadic arguments go to the callee's `va_list` area (read by va_arg);
                // a function without `...` never reads extra arguments.
                None if function.is_variadic(&self.program.types) => {
                    let obj = self.object(Object::VarArgs(callee));
                    let cell = self.cell(obj, None);
                    constraints.push(Constraint::Copy(cell, arg));
                }
                None => {}
            }
        }
        if let (Some(target), Some(ret)) = (result, function.ret_var) {
            let ret_pv = self.local_value(callee, ret);
            match target {
                ResultTarget::Reg(r) => constraints.push(Constraint::Copy(r, ret_pv)),
                ResultTarget::Mem(a) => constraints.push(Constraint::Store(a, ret_pv)),
            }
        }
    }

    fn generate_all(&mut self) {
        let program = self.program;
        // Global initialisers.
        for (g, global) in program.globals.iter_enumerated() {
            let Some(init) = &global.init else {
                // An external object: its contents are unknown.
                let obj = self.object(Object::Global(g));
                let cell = self.cell(obj, None);
                self.constraints.push(Constraint::Copy(cell, self.external));
                continue;
            };
            for item in &init.items {
                if let InitItem::Value { offset, value } = item {
                    let obj = self.object(Object::Global(g));
                    let cell = self.cell(obj, Some(*offset));
                    if let Some(v) = self.expr_const(value) {
                        self.constraints.push(Constraint::Copy(cell, v));
                    }
                }
            }
        }
        let mut has_callers = vec![false; program.functions.len()];
        for f in program.functions.iter() {
            for node in f.nodes.iter() {
                if let Some(callee) = node.direct_callee() {
                    has_callers[callee.index()] = true;
                }
            }
        }
        // A library (no `main`): a client may call any function of external linkage, with
        // whatever it was given before (returned pointers escape to it).
        let clients: FxHashSet<FuncId> = program.client_functions().into_iter().collect();
        for (f, function) in program.functions.iter_enumerated() {
            if !function.is_defined() {
                continue;
            }
            // Roots (main, or functions nobody in the program may call) get their
            // pointer parameters from outside: external memory. Functions called
            // through pointers get theirs from the calls the solver binds, and from
            // outside too once their address escapes (`bind_escaped`).
            let uncalled = !has_callers[f.index()] && !self.by_pointer.contains(&f);
            let client = clients.contains(&f);
            if uncalled || client {
                self.rooted.insert((f, usize::MAX));
                self.root(f, &[]);
            }
            if client {
                self.client_root(f);
            }
            for (n, node) in function.nodes.iter_enumerated() {
                self.node(f, n, &node.kind);
            }
        }
        // A wrapper called where no clone is made (through a pointer the analysis did
        // not pre-resolve, or from outside) returns its own object, which gets the
        // contents of the blocks it may reallocate.
        let mut wrappers: Vec<FuncId> = self.wrappers.wrappers.keys().copied().collect();
        wrappers.sort_unstable();
        for g in wrappers {
            let unseen = self.wrappers.unseen_objects(g);
            let wrapper = &self.wrappers.wrappers[&g];
            if unseen.is_empty() || wrapper.params.is_empty() {
                continue;
            }
            let params: Vec<usize> = wrapper.params.iter().copied().collect();
            let base = self.temp();
            for object in unseen {
                let id = self.object(object);
                let cell = self.cell(id, Some(0));
                self.constraints.push(Constraint::Base(base, cell));
            }
            let function = &program.functions[g];
            for k in params {
                if let Some(&p) = function.params.get(k) {
                    if function.locals[p].storage == Storage::Register {
                        self.constraints
                            .push(Constraint::CopyBlock(base, self.reg(g, p)));
                    }
                }
            }
        }
    }

    /// A constant initialiser expression (addresses plus offsets).
    fn expr_const(&mut self, e: &Expr) -> Option<PVar> {
        match &e.kind {
            ExprKind::AddrOfGlobal(g) => Some(self.base_of(Object::Global(*g))),
            ExprKind::AddrOfFunc(g) => Some(self.base_of(Object::Function(*g))),
            ExprKind::Cast(inner) => self.expr_const(inner),
            ExprKind::Binary(BinOp::PtrAdd, l, r) => {
                let l = self.expr_const(l)?;
                let by = match &r.kind {
                    ExprKind::Int(bits) => Some(sign_extend(*bits, self.program.types.bits(r.ty))),
                    _ => None,
                };
                Some(self.shift(l, by))
            }
            ExprKind::Binary(_, l, r) => {
                let l = self.expr_const(l);
                let r = self.expr_const(r);
                l.or(r).map(|a| self.shift(a, None))
            }
            _ => None,
        }
    }

    fn node(&mut self, f: FuncId, n: NodeId, kind: &NodeKind) {
        match kind {
            NodeKind::Entry | NodeKind::Exit | NodeKind::Skip => {}
            NodeKind::Assign { dst, value } => {
                let v = self.expr(f, n, value);
                self.place(f, n, dst, v);
            }
            NodeKind::Branch { cond } => {
                self.expr(f, n, cond);
            }
            // A `setjmp` reads and writes nothing the program sees (its buffer is the
            // implementation's); what decides its value again is the dependence graph's.
            NodeKind::Havoc { dst, .. } if self.program.functions[f].nodes[n].is_setjmp() => {
                self.setjmp.insert((f, n));
                if let Some(dst) = dst {
                    let ext = self.external;
                    self.place(f, n, dst, Some(ext));
                }
            }
            NodeKind::Havoc { dst, .. } => {
                self.havoc.insert((f, n));
                if let Some(dst) = dst {
                    let ext = self.external;
                    self.place(f, n, dst, Some(ext));
                }
            }
            NodeKind::Call { dst, callee, args } => {
                let arg_pvs: Vec<Option<PVar>> = args.iter().map(|a| self.expr(f, n, a)).collect();
                let result = match dst {
                    Some(Place::Local(v)) => Some(ResultTarget::Reg(self.reg(f, *v))),
                    Some(Place::Mem { addr, ty }) => {
                        let a = self.expr(f, n, addr);
                        a.map(|a| {
                            self.access(f, n, RawAccess::new(AccessKind::Write, a));
                            ResultTarget::Mem(if self.program.types.is_aggregate(*ty) {
                                self.shift(a, None)
                            } else {
                                a
                            })
                        })
                    }
                    Some(Place::Bits { addr, .. }) => {
                        if let Some(a) = self.expr(f, n, addr) {
                            self.access(f, n, RawAccess::new(AccessKind::Write, a));
                        }
                        None
                    }
                    None => None,
                };
                match callee {
                    Callee::Direct(g) if self.program.functions[*g].is_defined() => {
                        self.direct_targets.insert((f, n), vec![*g]);
                        let wrapper = self.wrappers.call(self.program, f, n);
                        let bound_result = if wrapper.is_some() { None } else { result };
                        let mut cs = Vec::new();
                        self.bind_call(*g, &arg_pvs, bound_result, &mut cs);
                        self.constraints.extend(cs);
                        if let Some(call) = wrapper {
                            self.wrapper_result(f, n, &call, &arg_pvs, result);
                        }
                    }
                    Callee::Direct(g) => {
                        let name = self.program.functions[*g].name.clone();
                        self.external_call(f, n, &name, &arg_pvs, result);
                    }
                    Callee::Indirect(target) => {
                        let callee_pv = self.expr(f, n, target);
                        let wrapper = self.wrappers.call(self.program, f, n);
                        if let Some(call) = &wrapper {
                            self.wrapper_result(f, n, call, &arg_pvs, result);
                        }
                        self.indirect.push(IndirectCall {
                            function: f,
                            node: n,
                            callee: callee_pv,
                            args: arg_pvs,
                            result,
                            cloned: wrapper.map(|c| c.targets).unwrap_or_default(),
                            classes: args
                                .iter()
                                .map(|a| PassedAs::of_arg(&self.program.types, a))
                                .collect(),
                        });
                    }
                    Callee::Intrinsic(intrinsic) => {
                        self.intrinsic(f, n, *intrinsic, &arg_pvs, result);
                    }
                }
            }
        }
    }

    /// A pvar pointing to the objects of the block allocated at call `n` of `f`, at
    /// `offset` in them (`None`: anywhere).
    fn alloc_base(&mut self, f: FuncId, n: NodeId, offset: Option<u64>) -> PVar {
        let t = self.temp();
        for object in self.wrappers.site_objects(f, n) {
            let id = self.object(object);
            let offset = offset.filter(|&o| Some(o) < self.object_size[id as usize]);
            let cell = self.cell(id, offset);
            self.constraints.push(Constraint::Base(t, cell));
        }
        t
    }

    /// The result of a call of allocation wrappers at call `n` of `f`: the call's own
    /// clone, and the blocks of the arguments it may return, whose contents the clone
    /// gets (unless the caller, itself a wrapper, leaves that to its own callers).
    fn wrapper_result(
        &mut self,
        f: FuncId,
        n: NodeId,
        call: &WrapperCall,
        args: &[Option<PVar>],
        result: Option<ResultTarget>,
    ) {
        let base = self.alloc_base(f, n, call.offset);
        let t = self.temp();
        self.constraints.push(Constraint::Copy(t, base));
        for &k in &call.params {
            let Some(Some(a)) = args.get(k) else { continue };
            if call.params_shifted {
                self.constraints.push(Constraint::Shift(t, *a, None));
            } else {
                self.constraints.push(Constraint::Copy(t, *a));
            }
            if !self.wrappers.is_deferred(f, n) {
                self.constraints.push(Constraint::CopyBlock(base, *a));
            }
        }
        self.result_from(result, t);
    }

    fn result_from(&mut self, result: Option<ResultTarget>, value: PVar) {
        match result {
            Some(ResultTarget::Reg(r)) => self.constraints.push(Constraint::Copy(r, value)),
            Some(ResultTarget::Mem(a)) => self.constraints.push(Constraint::Store(a, value)),
            None => {}
        }
    }

    fn intrinsic(
        &mut self,
        f: FuncId,
        n: NodeId,
        intrinsic: Intrinsic,
        args: &[Option<PVar>],
        result: Option<ResultTarget>,
    ) {
        let raw = RawAccess::new;
        match intrinsic {
            Intrinsic::Memcpy => {
                if let (Some(Some(d)), Some(Some(s))) = (args.first(), args.get(1)) {
                    self.access(f, n, raw(AccessKind::Write, *d));
                    self.access(f, n, raw(AccessKind::Read, *s));
                    self.constraints.push(Constraint::CopyBlock(*d, *s));
                }
            }
            Intrinsic::Memset => {
                if let Some(Some(d)) = args.first() {
                    self.access(f, n, raw(AccessKind::Write, *d));
                }
            }
            Intrinsic::Alloca => {
                let heap = self.base_of(Object::Heap(f, n));
                self.result_from(result, heap);
            }
            Intrinsic::VaStart | Intrinsic::VaEnd | Intrinsic::VaCopy | Intrinsic::VaArg => {
                for a in args.iter().flatten() {
                    self.access(f, n, raw(AccessKind::Read, *a));
                    self.access(f, n, raw(AccessKind::Write, *a));
                }
                let ext = self.external;
                self.access(f, n, raw(AccessKind::Read, ext));
                // A `va_list` holds a pointer to the variadic arguments of the function
                // that started it: va_arg reads through it (a `va_list` from outside
                // the program points into external memory).
                let ap = args.first().copied().flatten();
                match (intrinsic, ap) {
                    (Intrinsic::VaStart, Some(ap)) => {
                        let obj = self.object(Object::VarArgs(f));
                        let cell = self.cell(obj, None);
                        let t = self.temp();
                        self.constraints.push(Constraint::Base(t, cell));
                        self.constraints.push(Constraint::Store(ap, t));
                    }
                    (Intrinsic::VaCopy, Some(d)) => {
                        if let Some(Some(s)) = args.get(1) {
                            self.constraints.push(Constraint::CopyBlock(d, *s));
                        }
                    }
                    (Intrinsic::VaArg, Some(ap)) => {
                        let area = self.temp();
                        self.constraints.push(Constraint::Load(area, ap));
                        let any = self.shift(area, None);
                        let t = self.temp();
                        self.constraints.push(Constraint::Load(t, any));
                        self.result_from(result, t);
                    }
                    _ => {}
                }
            }
        }
    }

    /// A pvar for the pointers stored anywhere in what `a` points to.
    fn held_anywhere(&mut self, a: PVar) -> PVar {
        let cells = self.shift(a, None);
        let inner = self.temp();
        self.constraints.push(Constraint::Load(inner, cells));
        inner
    }

    fn external_call(
        &mut self,
        f: FuncId,
        n: NodeId,
        name: &str,
        args: &[Option<PVar>],
        result: Option<ResultTarget>,
    ) {
        let model = external_model(name);
        let raw = RawAccess::new;
        // `%n` stores counts through the arguments after the format (or the `va_list`'s).
        let call_args: &[Expr] = match &self.program.functions[f].nodes[n].kind {
            NodeKind::Call { args, .. } => args,
            _ => &[],
        };
        match crate::libc::count_stores(self.program, name, call_args) {
            Some(CountStores::ArgsFrom(k)) => {
                for a in args.iter().skip(k).flatten() {
                    self.access(f, n, raw(AccessKind::Write, *a));
                }
            }
            Some(CountStores::VaList(k)) => {
                if let Some(Some(ap)) = args.get(k) {
                    let area = self.held_anywhere(*ap);
                    let pointers = self.held_anywhere(area);
                    self.access(f, n, raw(AccessKind::Write, pointers));
                }
            }
            None => {}
        }
        let ptr_args: Vec<(usize, PVar)> = args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.map(|a| (i, a)))
            .collect();
        if model.reads_args {
            for &(_, a) in &ptr_args {
                self.access(f, n, raw(AccessKind::Read, a));
            }
        }
        for &(i, a) in &ptr_args {
            let writes = match model.writes {
                Writes::Nothing => false,
                Writes::Arg(k) => i == k,
                Writes::ArgsFrom(k) => i >= k,
                Writes::All => true,
            };
            if writes {
                self.access(f, n, raw(AccessKind::Write, a));
                if model.writes == Writes::All {
                    // Unknown code may store any escaped pointer.
                    let t = self.shift(a, None);
                    self.constraints.push(Constraint::Store(t, self.external));
                }
            }
        }
        if model.writes == Writes::All {
            // Pointers passed to unknown code escape into external memory.
            for &(_, a) in &ptr_args {
                self.constraints
                    .push(Constraint::Copy(self.external_cell, a));
            }
        }
        if model.state || model.reads_state {
            self.access(f, n, raw(AccessKind::Read, self.external));
        }
        if model.state || model.writes_state {
            self.access(f, n, raw(AccessKind::Write, self.external));
        }
        if let Some(k) = model.deep_writes {
            if let Some(Some(a)) = args.get(k) {
                let inner = self.held_anywhere(*a);
                self.access(f, n, raw(AccessKind::Write, inner));
            }
        }
        let library_globals: Vec<GlobalId> = match model.library_globals {
            LibraryGlobals::None => Vec::new(),
            LibraryGlobals::Named(names) => self
                .library_globals
                .iter()
                .copied()
                .filter(|&g| names.contains(&self.program.globals[g].name.as_str()))
                .collect(),
            LibraryGlobals::All => self.library_globals.clone(),
        };
        // What it may store in them: external memory, or into what the arguments'
        // pointees point to (`optarg` into an `argv` string).
        let stored: Vec<PVar> = if library_globals.is_empty() {
            Vec::new()
        } else {
            ptr_args
                .iter()
                .map(|&(_, a)| {
                    let inner = self.held_anywhere(a);
                    self.shift(inner, None)
                })
                .collect()
        };
        for g in library_globals {
            let base = self.base_of(Object::Global(g));
            self.access(f, n, raw(AccessKind::Read, base));
            self.access(f, n, raw(AccessKind::Write, base));
            self.constraints
                .push(Constraint::Store(base, self.external));
            for &v in &stored {
                self.constraints.push(Constraint::Store(base, v));
            }
        }
        if model.copies {
            if let (Some(Some(d)), Some(Some(s))) = (args.first(), args.get(1)) {
                self.constraints.push(Constraint::CopyBlock(*d, *s));
            }
        }
        match model.returns {
            Returns::NoPointer => {}
            Returns::Fresh => {
                let heap = self.alloc_base(f, n, Some(0));
                self.result_from(result, heap);
            }
            Returns::Realloc => {
                let heap = self.alloc_base(f, n, Some(0));
                let t = self.temp();
                self.constraints.push(Constraint::Copy(t, heap));
                if let Some(Some(old)) = args.first() {
                    self.constraints.push(Constraint::Copy(t, *old));
                    if !self.wrappers.is_deferred(f, n) {
                        self.constraints.push(Constraint::CopyBlock(heap, *old));
                    }
                }
                self.result_from(result, t);
            }
            Returns::ArgsOrExternal => {
                let t = self.temp();
                self.constraints.push(Constraint::Copy(t, self.external));
                for &(_, a) in &ptr_args {
                    self.constraints.push(Constraint::Shift(t, a, None));
                }
                self.result_from(result, t);
            }
        }
        if model.calls_back {
            let types = &self.program.types;
            let arg_types: Vec<TypeId> = call_args.iter().map(|a| a.ty).collect();
            let mut given = args.to_vec();
            let mut may_hold: Vec<bool> = (0..args.len())
                .map(|i| {
                    arg_types
                        .get(i)
                        .is_some_and(|&ty| may_hold_function(types, ty))
                })
                .collect();
            if model.writes == Writes::All {
                // Unknown code may also call the functions stored in what it is given
                // (`sigaction`'s handler, in the struct its second argument points to).
                for &(i, a) in &ptr_args {
                    may_hold.push(arg_types.get(i).is_some_and(|&ty| match types.get(ty) {
                        Type::Pointer(pointee) => stores_function(types, *pointee, 0),
                        _ => true,
                    }));
                    given.push(Some(self.held_anywhere(a)));
                }
            }
            self.external_calls.push((f, n, given, may_hold));
        }
    }

    /// Inclusion-based solving with a worklist and difference propagation: copy
    /// constraints become edges of a graph, and only the cells newly added to a pvar's
    /// set flow along its edges and into the complex constraints (shift, load, store,
    /// block copy) watching it. Loads and block copies that read every cell of an
    /// object stay subscribed to it, so cells created later (by pointer arithmetic)
    /// flow as well. Indirect calls are bound with the sets at each fixpoint, and the
    /// new constraints solved incrementally until no call gains a target.
    fn solve_andersen(
        &mut self,
        limit: u64,
        collapse: bool,
        verify: bool,
    ) -> (Option<Solution>, AndersenStats) {
        let mut solver = Andersen::new(collapse);
        if collapse {
            solver.new_cells(self);
            solver.stats.substituted = solver.substitute(self);
        }
        let mut bound: FxHashSet<(usize, FuncId)> = FxHashSet::default();
        let mut installed = 0;
        loop {
            while installed < self.constraints.len() {
                let c = self.constraints[installed].clone();
                installed += 1;
                solver.install(self, c);
            }
            if solver.stats.substituted > 0 {
                solver.normalize_all();
            }
            if !solver.run(self, limit) {
                return (None, solver.stats);
            }
            let solved = &solver;
            self.bind_indirect(&mut bound, |_, pv| solved.cells_of(pv));
            self.bind_escaped(|_, pv| solved.cells_of(pv));
            if installed == self.constraints.len() && !self.bind_unfit() {
                break;
            }
        }
        solver.new_cells(self);
        solver.stats.converged = true;
        if verify {
            solver.stats.violations = Some(solver.violations(self));
        }
        let stats = solver.stats;
        (Some(Solution::Andersen(Box::new(solver))), stats)
    }

    /// Parameters of `f` that may hold anything from outside the program, and what
    /// the pointers `args` may point to, anywhere in it.
    fn root(&mut self, f: FuncId, args: &[PVar]) {
        let function = &self.program.functions[f];
        for &p in &function.params {
            // A number narrower than a pointer (`argc`) or a floating value cannot hold
            // an address on LP64.
            let ty = function.locals[p].ty;
            let scalar = match self.program.types.get(ty) {
                ripple_ir::Type::Int(_) => self.program.types.size_of(ty) < 8,
                ripple_ir::Type::Float(_) => true,
                _ => false,
            };
            if scalar {
                continue;
            }
            let dst = self.local_value(f, p);
            self.constraints.push(Constraint::Copy(dst, self.external));
            for &a in args {
                self.constraints.push(Constraint::Shift(dst, a, None));
            }
        }
    }

    /// What holds local `v` of `f`: its register, or the first cell of its object.
    fn local_value(&mut self, f: FuncId, v: VarId) -> PVar {
        if self.program.functions[f].locals[v].storage == Storage::Register {
            self.reg(f, v)
        } else {
            let obj = self.object(Object::Local(f, v));
            self.cell(obj, None)
        }
    }

    /// A function of a library its client may call: its pointer parameters may also
    /// hold what the client was given (what external memory holds), and what it returns
    /// goes to the client (into external memory).
    fn client_root(&mut self, f: FuncId) {
        let function = &self.program.functions[f];
        for &p in &function.params {
            let dst = self.local_value(f, p);
            self.constraints
                .push(Constraint::Copy(dst, self.external_cell));
        }
        if let Some(ret) = function.ret_var {
            let ret_pv = self.local_value(f, ret);
            self.constraints
                .push(Constraint::Copy(self.external_cell, ret_pv));
        }
    }

    /// Roots the functions whose address has escaped to code outside the program:
    /// stored in external memory (unknown code may call them with anything), or passed
    /// to an external that calls back (with pointers into what it was given).
    fn bind_escaped(&mut self, targets_of: impl Fn(&Self, PVar) -> Vec<PVar>) {
        let function_of = |this: &Self, cell: PVar| match this.cell_info.get(&cell) {
            Some(&(obj, _)) => match this.objects[obj as usize] {
                Object::Function(g) if this.program.functions[g].is_defined() => Some(g),
                _ => None,
            },
            None => None,
        };
        let mut new: Vec<(FuncId, usize)> = Vec::new();
        for cell in targets_of(self, self.external_cell) {
            if let Some(g) = function_of(self, cell) {
                if self.rooted.insert((g, usize::MAX)) {
                    new.push((g, usize::MAX));
                }
            }
        }
        for (i, (_, _, args, _)) in self.external_calls.iter().enumerate() {
            for pv in args.iter().flatten() {
                for cell in targets_of(self, *pv) {
                    if let Some(g) = function_of(self, cell) {
                        if self.rooted.insert((g, i)) {
                            new.push((g, i));
                        }
                    }
                }
            }
        }
        for (g, i) in new {
            let args: Vec<PVar> = match self.external_calls.get(i) {
                Some((_, _, args, _)) => args.iter().flatten().copied().collect(),
                None => Vec::new(),
            };
            self.root(g, &args);
        }
    }

    /// Binds the library function `g` (declared, not defined) to indirect call `i`: a
    /// library function called through a pointer (`read` in a table of system calls)
    /// does to the arguments what its direct call does. One model is applied once per
    /// call, whichever functions have it (under unification a pointer's class may hold
    /// every library function whose address is taken).
    fn bind_library(&mut self, i: usize, g: FuncId) {
        let call = &self.indirect[i];
        let (f, n, args, result) = (call.function, call.node, call.args.clone(), call.result);
        let callee = &self.program.functions[g];
        let name = callee.name.clone();
        let list = self.library_targets.entry((f, n)).or_default();
        list.push(g);
        list.sort_unstable();
        list.dedup();
        let call_args: &[Expr] = match &self.program.functions[f].nodes[n].kind {
            NodeKind::Call { args, .. } => args,
            _ => &[],
        };
        let counts = crate::libc::count_stores(self.program, &name, call_args);
        let model = format!("{:?} {counts:?}", external_model(&name));
        if self.library_bound.insert((i, model)) {
            self.external_call(f, n, &name, &args, result);
        }
    }

    /// Adds the bindings of newly found indirect-call targets.
    fn bind_indirect(
        &mut self,
        bound: &mut FxHashSet<(usize, FuncId)>,
        targets_of: impl Fn(&Self, PVar) -> Vec<PVar>,
    ) {
        let mut new = Vec::new();
        for (i, call) in self.indirect.iter().enumerate() {
            let Some(callee) = call.callee else { continue };
            for cell in targets_of(self, callee) {
                let Some(&(obj, _)) = self.cell_info.get(&cell) else {
                    continue;
                };
                if let Object::Function(g) = self.objects[obj as usize] {
                    if bound.insert((i, g)) {
                        new.push((i, g));
                    }
                }
            }
        }
        for (i, g) in new {
            // A library function declared without a prototype takes what it is given.
            let unprototyped = {
                let callee = &self.program.functions[g];
                !callee.is_defined() && callee.params.is_empty()
            };
            if unprototyped || may_reach(self.program, &self.indirect[i].classes, g) {
                self.reaching.insert(i);
            } else if !self.unfit_bound.contains(&i) {
                self.unfit.entry(i).or_default().push(g);
                continue;
            }
            self.bind_target(i, g);
        }
    }

    fn bind_target(&mut self, i: usize, g: FuncId) {
        if !self.program.functions[g].is_defined() {
            self.bind_library(i, g);
            return;
        }
        let args = self.indirect[i].args.clone();
        let result = if self.indirect[i].cloned.contains(&g) {
            None
        } else {
            self.indirect[i].result
        };
        let mut cs = Vec::new();
        self.bind_call(g, &args, result, &mut cs);
        self.constraints.extend(cs);
    }

    /// At a fixpoint, binds every target of the indirect calls none of whose targets
    /// fits their arguments: the program's calls are then not as typed as assumed, and
    /// the analysis stays sound by taking them at their word. Returns whether any was.
    fn bind_unfit(&mut self) -> bool {
        let mut calls: Vec<usize> = self
            .unfit
            .keys()
            .copied()
            .filter(|i| !self.reaching.contains(i))
            .collect();
        calls.sort_unstable();
        for &i in &calls {
            self.unfit_bound.insert(i);
            let mut targets = self.unfit.remove(&i).unwrap_or_default();
            targets.sort_unstable();
            for g in targets {
                self.bind_target(i, g);
            }
        }
        !calls.is_empty()
    }

    fn solve_unification(&mut self) -> Solution {
        let mut uf = UnionFind::new(self.next as usize);
        // Field-insensitive: all cells of an object are one node.
        for cells in &self.cells_of_object {
            for w in cells.windows(2) {
                uf.union(w[0], w[1]);
            }
        }
        let mut bound: FxHashSet<(usize, FuncId)> = FxHashSet::default();
        let mut done = 0;
        loop {
            while done < self.constraints.len() {
                let c = self.constraints[done].clone();
                done += 1;
                uf.grow(self.next as usize);
                match c {
                    Constraint::Base(d, cell) => {
                        let p = uf.pointee(d);
                        uf.union(p, cell);
                    }
                    Constraint::Copy(d, s) | Constraint::Shift(d, s, _) => {
                        let pd = uf.pointee(d);
                        let ps = uf.pointee(s);
                        uf.union(pd, ps);
                    }
                    Constraint::Load(d, a) => {
                        let pd = uf.pointee(d);
                        let pa = uf.pointee(a);
                        let ppa = uf.pointee(pa);
                        uf.union(pd, ppa);
                    }
                    Constraint::Store(a, s) => {
                        let pa = uf.pointee(a);
                        let ppa = uf.pointee(pa);
                        let ps = uf.pointee(s);
                        uf.union(ppa, ps);
                    }
                    Constraint::CopyBlock(d, s) => {
                        let pd = uf.pointee(d);
                        let ppd = uf.pointee(pd);
                        let ps = uf.pointee(s);
                        let pps = uf.pointee(ps);
                        uf.union(ppd, pps);
                    }
                }
            }
            // Cells of each class, to resolve function pointers.
            let mut class_cells: FxHashMap<u32, Vec<PVar>> = FxHashMap::default();
            for &cell in self.cell_info.keys() {
                class_cells.entry(uf.find(cell)).or_default().push(cell);
            }
            let before = self.constraints.len();
            let uf_ref = &mut uf;
            let snapshot: FxHashMap<PVar, Vec<PVar>> = self
                .indirect
                .iter()
                .filter_map(|c| c.callee)
                .chain(
                    self.external_calls
                        .iter()
                        .flat_map(|c| c.2.iter().flatten().copied()),
                )
                .chain([self.external_cell])
                .map(|pv| {
                    let p = uf_ref.pointee_existing(pv);
                    let cells = p
                        .and_then(|p| class_cells.get(&uf_ref.find(p)).cloned())
                        .unwrap_or_default();
                    (pv, cells)
                })
                .collect();
            self.bind_indirect(&mut bound, |_, pv| {
                snapshot.get(&pv).cloned().unwrap_or_default()
            });
            self.bind_escaped(|_, pv| snapshot.get(&pv).cloned().unwrap_or_default());
            if self.constraints.len() == before && !self.bind_unfit() {
                break;
            }
        }
        uf.grow(self.next as usize);
        Solution::Unification(uf)
    }

    /// The steps of [`andersen::Andersen::derivation`] for `spec`, named.
    fn explain(&self, solution: &Solution, spec: &(String, String, String)) -> Vec<String> {
        let Solution::Andersen(solver) = solution else {
            return Vec::new();
        };
        let (function, var, object) = spec;
        let program = self.program;
        let Some((f, v)) = program.functions.iter_enumerated().find_map(|(f, func)| {
            (func.name == *function)
                .then(|| func.locals.iter_enumerated().find(|(_, l)| l.name == *var))
                .flatten()
                .map(|(v, _)| (f, v))
        }) else {
            return vec![format!("no variable {var} in {function}")];
        };
        let Some(o) = self
            .objects
            .iter()
            .position(|&obj| object_name(program, obj) == *object)
        else {
            return vec![format!("no object {object}")];
        };
        let name = |pv: PVar| -> String {
            if let Some(&(obj, offset)) = self.cell_info.get(&pv) {
                let obj = object_name(program, self.objects[obj as usize]);
                return match offset {
                    Some(k) => format!("{obj}+{k}"),
                    None => format!("{obj}+?"),
                };
            }
            let at = self.reg_base.partition_point(|&base| base <= pv);
            if at > 0 {
                let g = FuncId((at - 1) as u32);
                let func = &program.functions[g];
                let v = (pv - self.reg_base[at - 1]) as usize;
                if let Some(local) = func.locals.as_slice().get(v) {
                    return format!("{} of {}", local.name, func.name);
                }
            }
            format!("temporary {pv}")
        };
        // A memory local stands for its first cell.
        let from = if program.functions[f].locals[v].storage == Storage::Register {
            self.reg(f, v)
        } else {
            let cell = self.object_ids.get(&Object::Local(f, v)).and_then(|&obj| {
                [Some(0), None]
                    .into_iter()
                    .find_map(|offset| self.cells.get(&(obj, offset)).copied())
            });
            match cell {
                Some(cell) => cell,
                None => return vec![format!("{var} of {function} has no cell")],
            }
        };
        solver
            .derivation(self, from, o as u32)
            .into_iter()
            .map(|(pv, how)| format!("{how} -> {}", name(pv)))
            .collect()
    }

    fn finish(
        mut self,
        mode: PointsToMode,
        mut solution: Solution,
        andersen: Option<AndersenStats>,
    ) -> PointsTo {
        // Regions.
        let object_count = self.objects.len();
        let mut part_of_object: Vec<u32> = vec![0; object_count];
        let mut part_objects: Vec<Vec<Object>> = Vec::new();
        match &mut solution {
            Solution::Andersen(_) => {
                // One region per object, in the sorted order of objects.
                let mut order: Vec<u32> = (0..object_count as u32).collect();
                order.sort_by_key(|&o| self.objects[o as usize]);
                for o in order {
                    part_of_object[o as usize] = part_objects.len() as u32;
                    part_objects.push(vec![self.objects[o as usize]]);
                }
            }
            Solution::Unification(uf) => {
                let mut classes: FxHashMap<u32, Vec<Object>> = FxHashMap::default();
                for o in 0..object_count {
                    let cell = self.cells_of_object[o][0];
                    classes
                        .entry(uf.find(cell))
                        .or_default()
                        .push(self.objects[o]);
                }
                let mut list: Vec<Vec<Object>> = classes.into_values().collect();
                for l in &mut list {
                    l.sort_unstable();
                }
                list.sort_unstable();
                for objects in list {
                    let id = part_objects.len() as u32;
                    for o in &objects {
                        part_of_object[self.object_ids[o] as usize] = id;
                    }
                    part_objects.push(objects);
                }
            }
        }
        let external_part = PartId(part_of_object[self.object_ids[&Object::External] as usize]);
        // Regions of read-only objects only (string literals, globals defined `const`):
        // a write there is undefined behaviour (it traps where they live in read-only
        // memory), so no defined run writes them and writes do not address them.
        let read_only: Vec<bool> = part_objects
            .iter()
            .map(|objects| {
                objects.iter().all(|o| match o {
                    Object::Global(g) => {
                        let global = &self.program.globals[*g];
                        global.is_const || global.key.starts_with(".str")
                    }
                    _ => false,
                })
            })
            .collect();
        // Accesses per node.
        let raw = std::mem::take(&mut self.raw);
        let mut accesses: Vec<Vec<u32>> = Vec::with_capacity(raw.len());
        // Distinct lists, found by hash: list 0 is the empty one.
        let mut access_lists: Vec<Vec<Access>> = vec![Vec::new()];
        let mut list_ids: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
        // The objects of each unification class, in increasing order: one pass here
        // instead of one scan of every object per pointer.
        let mut class_objects: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        if let Solution::Unification(uf) = &mut solution {
            for o in 0..object_count {
                class_objects
                    .entry(uf.find(self.cells_of_object[o][0]))
                    .or_default()
                    .push(o as u32);
            }
        }
        // The regions each pointer may address: all objects of a region give the same
        // access, so the list holds regions, not objects. Memoised per pointer, or per
        // class under unification (where every pointer into a class has the same
        // targets, and classes can hold thousands of objects).
        let classes = match &solution {
            Solution::Andersen(solved) => solved.set_classes(self.next as usize),
            Solution::Unification(_) => Vec::new(),
        };
        let memo_key = |solution: &mut Solution, pv: PVar| -> u64 {
            match solution {
                // Pvars with equal sets (of one collapsed cycle, or not) share targets.
                Solution::Andersen(_) => u64::from(classes[pv as usize]),
                Solution::Unification(uf) => uf
                    .pointee_existing(pv)
                    .map_or(u64::MAX, |p| (1 << 32) | u64::from(p)),
            }
        };
        let mut memo: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
        // Nodes whose accesses have the same kinds and targets share their list.
        type Signature = Vec<(AccessKind, u64)>;
        let mut by_signature: FxHashMap<Signature, u32> = FxHashMap::default();
        for function in raw {
            let mut per_node = Vec::with_capacity(function.len());
            for node in function {
                let signature: Signature = node
                    .iter()
                    .map(|a| (a.kind, memo_key(&mut solution, a.addr)))
                    .collect();
                if let Some(&id) = by_signature.get(&signature) {
                    per_node.push(id);
                    continue;
                }
                for (access, &(_, key)) in node.iter().zip(&signature) {
                    memo.entry(key).or_insert_with(|| {
                        let mut parts: Vec<u32> = self
                            .targets_of(&mut solution, &class_objects, access.addr)
                            .into_iter()
                            .map(|(obj, _)| part_of_object[obj as usize])
                            .collect();
                        parts.sort_unstable();
                        parts.dedup();
                        parts
                    });
                }
                let mut list =
                    Vec::with_capacity(signature.iter().map(|(_, k)| memo[k].len()).sum());
                for &(kind, key) in &signature {
                    for &part in &memo[&key] {
                        if kind == AccessKind::Write && read_only[part as usize] {
                            continue;
                        }
                        list.push(Access {
                            kind,
                            part: PartId(part),
                        });
                    }
                }
                // Each access gives its targets in order: a stable sort merges the runs.
                list.sort();
                list.dedup();
                if list.is_empty() {
                    by_signature.insert(signature, 0);
                    per_node.push(0);
                    continue;
                }
                let hash = {
                    let mut hasher = rustc_hash::FxHasher::default();
                    list.hash(&mut hasher);
                    hasher.finish()
                };
                let same = list_ids.entry(hash).or_default();
                let id = match same.iter().find(|&&id| access_lists[id as usize] == list) {
                    Some(&id) => id,
                    None => {
                        let id = access_lists.len() as u32;
                        access_lists.push(list);
                        same.push(id);
                        id
                    }
                };
                by_signature.insert(signature, id);
                per_node.push(id);
            }
            accesses.push(per_node);
        }
        // Call targets.
        let mut targets = std::mem::take(&mut self.direct_targets);
        let mut callbacks: FxHashMap<(FuncId, NodeId), Vec<FuncId>> = FxHashMap::default();
        let indirect = std::mem::take(&mut self.indirect);
        // The defined functions a pointer may address, memoised as above.
        let mut function_memo: FxHashMap<u64, Vec<FuncId>> = FxHashMap::default();
        let mut functions_of = |this: &Self, solution: &mut Solution, pv: PVar| -> Vec<FuncId> {
            let key = memo_key(solution, pv);
            function_memo
                .entry(key)
                .or_insert_with(|| {
                    let mut list: Vec<FuncId> = this
                        .targets_of(solution, &class_objects, pv)
                        .into_iter()
                        .filter_map(|(obj, _)| match this.objects[obj as usize] {
                            Object::Function(g) if this.program.functions[g].is_defined() => {
                                Some(g)
                            }
                            _ => None,
                        })
                        .collect();
                    list.sort_unstable();
                    list.dedup();
                    list
                })
                .clone()
        };
        for (i, call) in indirect.iter().enumerate() {
            let mut list = match call.callee {
                Some(pv) => functions_of(&self, &mut solution, pv),
                None => Vec::new(),
            };
            // The targets bound while solving: those the arguments fit, or all of them.
            if !self.unfit_bound.contains(&i) {
                list.retain(|&g| may_reach(self.program, &call.classes, g));
            }
            targets.insert((call.function, call.node), list);
        }
        let external_calls = std::mem::take(&mut self.external_calls);
        for (f, n, args, may_hold) in &external_calls {
            let mut list = Vec::new();
            for (i, pv) in args.iter().enumerate() {
                let Some(pv) = pv else { continue };
                // Under unification, the class of a pointer to data often holds function
                // addresses too: only what may hold a function pointer by its type
                // passes callbacks. Andersen's sets are exact enough as they are.
                if mode == PointsToMode::Unification && !may_hold[i] {
                    continue;
                }
                list.extend(functions_of(&self, &mut solution, *pv));
            }
            if !list.is_empty() {
                list.sort_unstable();
                list.dedup();
                callbacks.insert((*f, *n), list);
            }
        }
        let mut fields_merged: Vec<Object> = self
            .fields_merged
            .iter()
            .map(|&o| self.objects[o as usize])
            .collect();
        fields_merged.sort_unstable();
        PointsTo {
            mode,
            explained: Vec::new(),
            fallback: None,
            fields_merged,
            andersen,
            objects: self.objects.clone(),
            fine_regions: part_objects.len(),
            part_objects,
            accesses,
            access_lists,
            read_only,
            havoc: std::mem::take(&mut self.havoc),
            setjmp: std::mem::take(&mut self.setjmp),
            targets,
            callbacks,
            library_targets: std::mem::take(&mut self.library_targets),
            external_part,
            object_part: self
                .objects
                .iter()
                .enumerate()
                .map(|(o, &object)| (object, PartId(part_of_object[o])))
                .collect(),
        }
    }

    /// The distinct (object, offset) pairs a pvar may point to (sorted under unification).
    fn targets_of(
        &self,
        solution: &mut Solution,
        class_objects: &FxHashMap<u32, Vec<u32>>,
        pv: PVar,
    ) -> Vec<(u32, Option<u64>)> {
        let mut out: Vec<(u32, Option<u64>)> = match solution {
            // Distinct (object, offset) pairs, in cell order: the callers sort what they
            // make of them.
            Solution::Andersen(solved) => return solved.targets(pv),
            Solution::Unification(uf) => match uf.pointee_existing(pv) {
                None => Vec::new(),
                // Objects whose cells are in the class.
                Some(p) => class_objects
                    .get(&uf.find(p))
                    .map(|objects| objects.iter().map(|&o| (o, None)).collect())
                    .unwrap_or_default(),
            },
        };
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Whether a value of type `ty` may be a function pointer passed as a callback: a
/// pointer to a function or to `void`.
/// Whether memory of type `ty` may store a function pointer: a pointer to a function or
/// to `void`, an aggregate with such a member, or a record whose members are not known.
fn stores_function(types: &ripple_ir::TypeTable, ty: ripple_ir::TypeId, depth: u32) -> bool {
    if depth > 16 {
        return true;
    }
    match types.get(ty) {
        Type::Void => true,
        Type::Pointer(_) => may_hold_function(types, ty),
        Type::Array { elem, .. } => stores_function(types, *elem, depth + 1),
        Type::Record(_) => types.record(ty).is_none_or(|r| {
            !r.complete
                || r.fields
                    .iter()
                    .any(|f| stores_function(types, f.ty, depth + 1))
        }),
        Type::Int(_) | Type::Float(_) | Type::Function { .. } => false,
    }
}

fn may_hold_function(types: &ripple_ir::TypeTable, ty: ripple_ir::TypeId) -> bool {
    match types.get(ty) {
        ripple_ir::Type::Pointer(pointee) => matches!(
            types.get(*pointee),
            ripple_ir::Type::Function { .. } | ripple_ir::Type::Void
        ),
        _ => false,
    }
}

/// Pushes the offsets (from `base`) of the scalar members of type `ty` onto `out`, up to
/// [`MAX_MEMBER_CELLS`] of them: every element of an array of pointers or records, the
/// first of an array of numbers (a buffer, which pointer arithmetic walks).
fn member_offsets(
    types: &ripple_ir::TypeTable,
    ty: ripple_ir::TypeId,
    base: u64,
    out: &mut Vec<u64>,
    depth: u32,
) {
    if out.len() >= MAX_MEMBER_CELLS || depth > 16 {
        return;
    }
    match types.get(ty) {
        Type::Record(_) => {
            let Some(record) = types.record(ty) else {
                return;
            };
            for field in &record.fields {
                member_offsets(types, field.ty, base + field.offset, out, depth + 1);
            }
        }
        Type::Array { elem, len } => {
            let numbers = matches!(types.get(*elem), Type::Int(_) | Type::Float(_));
            let count = if numbers { 1 } else { len.unwrap_or(1).max(1) };
            let step = types.size_of(*elem);
            for i in 0..count {
                let before = out.len();
                member_offsets(types, *elem, base + i * step, out, depth + 1);
                // Full, or elements without scalar members.
                if out.len() >= MAX_MEMBER_CELLS || out.len() == before {
                    return;
                }
            }
        }
        Type::Void | Type::Function { .. } => {}
        Type::Int(_) | Type::Float(_) | Type::Pointer(_) => out.push(base),
    }
}

fn sign_extend(bits: u128, width: u32) -> i64 {
    ripple_ir::bits::sign_extend(bits, width.clamp(1, 64)) as i64
}

/// Union-find with one pointee per class (Steensgaard).
struct UnionFind {
    parent: Vec<u32>,
    pointee: Vec<Option<u32>>,
}

impl UnionFind {
    fn new(len: usize) -> Self {
        UnionFind {
            parent: (0..len as u32).collect(),
            pointee: vec![None; len],
        }
    }

    fn grow(&mut self, len: usize) {
        while self.parent.len() < len {
            self.parent.push(self.parent.len() as u32);
            self.pointee.push(None);
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    fn pointee_existing(&mut self, x: u32) -> Option<u32> {
        if x as usize >= self.parent.len() {
            return None;
        }
        let r = self.find(x);
        self.pointee[r as usize].map(|p| self.find(p))
    }

    fn pointee(&mut self, x: u32) -> u32 {
        let r = self.find(x);
        if let Some(p) = self.pointee[r as usize] {
            return self.find(p);
        }
        let fresh = self.parent.len() as u32;
        self.parent.push(fresh);
        self.pointee.push(None);
        self.pointee[r as usize] = Some(fresh);
        fresh
    }

    fn union(&mut self, a: u32, b: u32) {
        let mut pending = vec![(a, b)];
        while let Some((a, b)) = pending.pop() {
            let (ra, rb) = (self.find(a), self.find(b));
            if ra == rb {
                continue;
            }
            let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[gone as usize] = keep;
            match (self.pointee[keep as usize], self.pointee[gone as usize]) {
                (Some(p), Some(q)) => pending.push((p, q)),
                (None, Some(q)) => self.pointee[keep as usize] = Some(q),
                _ => {}
            }
        }
    }
}
