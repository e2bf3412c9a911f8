//! Programs, functions, globals and the list of approximations.

use rustc_hash::FxHashMap;

use crate::{
    Expr, FileId, FuncId, GlobalId, IndexVec, Node, NodeId, Span, SyntaxTree, TypeId, TypeTable,
    VarId,
};

/// A whole program (one version): every translation unit given, linked by name.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub files: IndexVec<FileId, SourceFile>,
    pub types: TypeTable,
    pub globals: IndexVec<GlobalId, Global>,
    pub functions: IndexVec<FuncId, Function>,
    /// Every place where the IR over-approximates the C semantics.
    pub approximations: Vec<Approximation>,
    /// Function lookup by [`Function::key`].
    pub function_keys: FxHashMap<String, FuncId>,
    /// Where the sources had errors: the code there may be missing or read as something
    /// it is not, so an answer that depends on it is no answer.
    pub read_errors: Vec<ReadError>,
    /// The functions that may access `volatile` objects (found from their text, an
    /// over-approximation), sorted. Every analysis reads such an object as ordinary
    /// memory, where each access to it is observable and two reads may differ.
    pub volatile: Vec<FuncId>,
}

/// An error met reading the sources, where it was met; or a constant read from the
/// layout of a record whose body had one (`sizeof`, `offsetof`), where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The error's position (its file is [`Span::SYNTHETIC`]'s when no position is known).
    pub span: Span,
    /// The function being read, when the error is inside one.
    pub function: Option<FuncId>,
    /// Outside functions, the struct or union whose body was being read, when the
    /// error is inside one: only code using that type may read wrong.
    pub record: Option<TypeId>,
    /// A hash of the tokens of the top-level declaration or definition holding the
    /// error (0 when there is none): what was read there depends on that text, so two
    /// versions whose texts differ there may differ however the rest was read.
    pub text: u64,
}

/// A source file, by the path the user gave (relative to the version's root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    pub path: String,
}

/// External linkage (one object per program) or internal (`static`, one per file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    External,
    Internal(FileId),
}

/// A function: defined (with a CFG) or only declared (an external).
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Unique within the program: the name, or `path:name` for a `static` function.
    pub key: String,
    pub linkage: Linkage,
    /// The function type ([`crate::Type::Function`]).
    pub ty: TypeId,
    pub params: Vec<VarId>,
    /// The variable `return e;` assigns before jumping to the exit; `None` for `void`.
    pub ret_var: Option<VarId>,
    pub locals: IndexVec<VarId, Local>,
    /// Empty for a declaration.
    pub nodes: IndexVec<NodeId, Node>,
    pub entry: NodeId,
    pub exit: NodeId,
    pub span: Span,
    /// The function's syntax, for statement matching (built on request).
    pub syntax: Option<SyntaxTree>,
    /// A hash of the function's normalised token text (comments and layout ignored): equal
    /// fingerprints mean syntactically identical functions.
    pub fingerprint: u64,
    /// Declared never to return (`_Noreturn`, `__attribute__((noreturn))`).
    pub noreturn: bool,
}

impl Function {
    pub fn is_defined(&self) -> bool {
        !self.nodes.is_empty()
    }

    /// Whether the function takes a variable number of arguments.
    pub fn is_variadic(&self, types: &TypeTable) -> bool {
        matches!(
            types.get(self.ty),
            crate::Type::Function { varargs: true, .. }
        )
    }

    /// The declared return type.
    pub fn return_type(&self, types: &TypeTable) -> TypeId {
        match types.get(self.ty) {
            crate::Type::Function { ret, .. } => *ret,
            _ => self.ty,
        }
    }

    /// Locals renamed between this version of a function and `new`, as (old, new) pairs:
    /// the named register locals (neither temporaries nor in memory) whose names the other
    /// version does not declare at all, each name declared once, paired in declaration
    /// order when both versions have as many of them (a renamed loop counter, say); none
    /// otherwise. Whether a pair also agrees in type is for the caller to check.
    ///
    /// Sound as a correspondence: no statement can name such a local under its own name
    /// in the other version, so a statement that reads or writes one is compared under
    /// this pairing or not at all; a wrong pairing only makes statements differ.
    pub fn renamed_locals(&self, new: &Function) -> Vec<(VarId, VarId)> {
        let exclusive = |function: &Function, other: &Function| {
            let declared: rustc_hash::FxHashSet<&str> =
                other.locals.iter().map(|l| l.name.as_str()).collect();
            let mut count: FxHashMap<&str, u32> = FxHashMap::default();
            for local in function.locals.iter() {
                *count.entry(local.name.as_str()).or_default() += 1;
            }
            function
                .locals
                .iter_enumerated()
                .filter(|(_, l)| {
                    l.storage == Storage::Register
                        && l.kind != LocalKind::Temp
                        && !l.name.is_empty()
                        && count[l.name.as_str()] == 1
                        && !declared.contains(l.name.as_str())
                })
                .map(|(v, _)| v)
                .collect::<Vec<_>>()
        };
        let (a, b) = (exclusive(self, new), exclusive(new, self));
        if a.len() != b.len() {
            return Vec::new();
        }
        a.into_iter().zip(b).collect()
    }

    /// Predecessor lists, indexed by node.
    pub fn predecessors(&self) -> IndexVec<NodeId, Vec<NodeId>> {
        let mut preds: IndexVec<NodeId, Vec<NodeId>> = (0..self.nodes.len())
            .map(|_| Vec::new())
            .collect::<Vec<_>>()
            .into();
        for (id, node) in self.nodes.iter_enumerated() {
            for &succ in &node.succs {
                preds[succ].push(id);
            }
        }
        preds
    }
}

/// Where a local lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// A scalar whose address is never taken: read with [`crate::ExprKind::Local`].
    Register,
    /// A slot in the frame: read and written through [`crate::ExprKind::AddrOfLocal`].
    Memory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalKind {
    Param,
    Declared,
    /// A temporary introduced by lowering (split side effects, call results).
    Temp,
    Return,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    pub name: String,
    pub ty: TypeId,
    pub kind: LocalKind,
    pub storage: Storage,
    pub span: Span,
}

/// A global object: a variable, a file-scoped static (also a function's `static`
/// local), or a string literal.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    /// Unique within the program: the name, `path:name` for statics, `path:fn:name` for a
    /// function's static local, `.str.N` for string literals.
    pub key: String,
    pub linkage: Linkage,
    pub ty: TypeId,
    /// `None` for a declaration without a definition in the program (an external object
    /// whose contents are unknown).
    pub init: Option<GlobalInit>,
    pub is_const: bool,
    pub span: Span,
}

/// The initial contents of a global: zero everywhere but at the listed items.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GlobalInit {
    pub items: Vec<InitItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InitItem {
    /// A constant expression (integer, float, address of a global or function plus a
    /// constant offset) stored at `offset` with the expression's type.
    Value { offset: u64, value: Expr },
    /// Raw bytes (string literals and character arrays).
    Bytes { offset: u64, bytes: Vec<u8> },
    /// A bit-field member.
    Bits {
        offset: u64,
        unit: TypeId,
        bit_offset: u32,
        width: u32,
        value: Expr,
    },
}

/// One over-approximation of the C semantics, reported to the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approximation {
    pub kind: ApproximationKind,
    pub span: Span,
    pub function: Option<FuncId>,
    pub detail: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ApproximationKind {
    InlineAsm,
    Setjmp,
    UnknownBuiltin,
    /// A construct the lowering does not model (named in the detail).
    Unsupported,
    /// An expression whose type could not be resolved (e.g. an undeclared identifier in
    /// raw mode): its value is havocked.
    UnresolvedName,
    /// `long double` computed as `double`.
    LongDouble,
    /// A global initializer that is not a constant the IR can express.
    NonConstantInitializer,
    /// A region the parser could not read (syntax error); its code is absent.
    ParseError,
}

impl ApproximationKind {
    pub fn name(self) -> &'static str {
        match self {
            ApproximationKind::InlineAsm => "inline-asm",
            ApproximationKind::Setjmp => "setjmp",
            ApproximationKind::UnknownBuiltin => "unknown-builtin",
            ApproximationKind::Unsupported => "unsupported",
            ApproximationKind::UnresolvedName => "unresolved-name",
            ApproximationKind::LongDouble => "long-double",
            ApproximationKind::NonConstantInitializer => "non-constant-initializer",
            ApproximationKind::ParseError => "parse-error",
        }
    }
}

impl Program {
    /// The functions a client may call, in a program without a defined `main` (a
    /// library): those with external linkage (a `static` one only through a pointer it
    /// was given, which points-to analysis binds). Empty for a program with `main`.
    pub fn client_functions(&self) -> Vec<FuncId> {
        if self.defined_main().is_some() {
            return Vec::new();
        }
        self.functions
            .iter_enumerated()
            .filter(|(_, f)| f.is_defined() && f.linkage == Linkage::External)
            .map(|(id, _)| id)
            .collect()
    }

    /// The program's `main`, when it defines one (a library does not).
    pub fn defined_main(&self) -> Option<FuncId> {
        self.functions
            .iter_enumerated()
            .find(|(_, f)| f.name == "main" && f.is_defined())
            .map(|(id, _)| id)
    }

    /// The texts ([`ReadError::text`]) of the errors outside functions within `span`
    /// (a global's definition), sorted.
    pub fn unread_texts_within(&self, span: &Span) -> Vec<u64> {
        let mut texts: Vec<u64> = self
            .read_errors
            .iter()
            .filter(|e| e.function.is_none() && span.holds_lines(&e.span))
            .map(|e| e.text)
            .collect();
        texts.sort_unstable();
        texts
    }

    /// The texts of the errors in the body of record number `record`, sorted.
    pub fn unread_texts_of_record(&self, record: u32) -> Vec<u64> {
        let mut texts: Vec<u64> = self
            .read_errors
            .iter()
            .filter(|e| {
                e.record.is_some_and(
                    |ty| matches!(self.types.get(ty), crate::Type::Record(r) if *r == record),
                )
            })
            .map(|e| e.text)
            .collect();
        texts.sort_unstable();
        texts
    }

    pub fn function_by_key(&self, key: &str) -> Option<FuncId> {
        self.function_keys.get(key).copied()
    }

    /// The first function named `name` (an external one when there are several).
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        if let Some(id) = self.function_by_key(name) {
            return Some(id);
        }
        self.functions
            .iter_enumerated()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }

    /// Adds a function and indexes it by key.
    pub fn add_function(&mut self, function: Function) -> FuncId {
        let key = function.key.clone();
        let id = self.functions.push(function);
        self.function_keys.insert(key, id);
        id
    }

    pub fn file_path(&self, file: FileId) -> &str {
        self.files
            .get(file)
            .map_or("<synthetic>", |f| f.path.as_str())
    }

    /// The number of CFG nodes of all functions.
    pub fn node_count(&self) -> usize {
        self.functions.iter().map(|f| f.nodes.len()).sum()
    }

    /// Whether `file` lies outside the version's own sources: a system header (kept with
    /// its absolute path), a `<built-in>` pseudo-file, or no file at all.
    pub fn is_system_file(&self, file: FileId) -> bool {
        let path = self.file_path(file);
        path.starts_with('/') || path.starts_with('<')
    }
}
