//! The lowering context: program-wide linking state, per-unit scopes, per-function CFG
//! construction (labels, branches, temporaries) and the final CFG clean-up.

use ripple_ir::{
    Approximation, ApproximationKind, Expr, ExprKind, FileId, FloatKind, FuncId, GlobalId,
    IndexVec, IntKind, Local, LocalKind, Node, NodeId, NodeKind, Place, Program, SourceFile, Span,
    Storage, SynId, Type, TypeId, VarId,
};
use rustc_hash::{FxHashMap, FxHashSet};
use tree_sitter::Node as TsNode;

use crate::{Diagnostic, FrontendConfig, Lowered, Severity, TranslationUnit};

/// Frequently used types, interned once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CommonTypes {
    pub void: TypeId,
    pub bool_: TypeId,
    pub char_: TypeId,
    pub schar: TypeId,
    pub uchar: TypeId,
    pub short: TypeId,
    pub ushort: TypeId,
    pub int: TypeId,
    pub uint: TypeId,
    pub long: TypeId,
    pub ulong: TypeId,
    pub llong: TypeId,
    pub ullong: TypeId,
    pub i128: TypeId,
    pub u128: TypeId,
    pub float: TypeId,
    pub double: TypeId,
    pub ldouble: TypeId,
    pub void_ptr: TypeId,
    pub char_ptr: TypeId,
    /// `__builtin_va_list`: `struct __va_list_tag[1]`.
    pub va_list: TypeId,
    /// The function type `int()` given to implicitly declared functions.
    pub implicit_fn: TypeId,
}

impl CommonTypes {
    fn new(program: &mut Program) -> Self {
        let t = &mut program.types;
        let void = t.void();
        let int = t.int(IntKind::Int);
        let uint = t.int(IntKind::UInt);
        let char_ = t.int(IntKind::Char);
        let void_ptr = t.pointer_to(void);
        let va_tag = t.declare_record(Some("__va_list_tag".into()), false);
        t.complete_record(
            va_tag,
            vec![
                ("gp_offset".into(), uint, None),
                ("fp_offset".into(), uint, None),
                ("overflow_arg_area".into(), void_ptr, None),
                ("reg_save_area".into(), void_ptr, None),
            ],
            false,
        );
        let va_list = t.array_of(va_tag, Some(1));
        let implicit_fn = t.intern(Type::Function {
            ret: int,
            params: Vec::new(),
            varargs: false,
            prototyped: false,
        });
        CommonTypes {
            void,
            bool_: t.int(IntKind::Bool),
            char_,
            schar: t.int(IntKind::SChar),
            uchar: t.int(IntKind::UChar),
            short: t.int(IntKind::Short),
            ushort: t.int(IntKind::UShort),
            int,
            uint,
            long: t.int(IntKind::Long),
            ulong: t.int(IntKind::ULong),
            llong: t.int(IntKind::LongLong),
            ullong: t.int(IntKind::ULongLong),
            i128: t.int(IntKind::Int128),
            u128: t.int(IntKind::UInt128),
            float: t.float(FloatKind::Float),
            double: t.float(FloatKind::Double),
            ldouble: t.float(FloatKind::LongDouble),
            void_ptr,
            char_ptr: t.pointer_to(char_),
            va_list,
            implicit_fn,
        }
    }
}

/// State shared by all units: the program being built and the linking tables.
pub(crate) struct Linker {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
    pub global_keys: FxHashMap<String, GlobalId>,
    pub file_ids: FxHashMap<String, FileId>,
    pub next_string: usize,
    /// The types every lowering needs (int, char, pointers to void ...).
    pub types: CommonTypes,
    pub build_syntax: bool,
    /// Grammar kind names by kind id (static, for syntax trees).
    pub kind_names: Vec<&'static str>,
    /// The records whose bodies had errors (see [`ripple_ir::ReadError::record`]).
    pub broken_records: Vec<TypeId>,
    /// Functions with the `constructor` and `destructor` attributes, which the C
    /// runtime calls before `main` and after it returns.
    pub runtime_calls: [Vec<FuncId>; 2],
    /// The vector types (`type_attributes.rs`) by lane type and number of lanes, and back.
    pub vector_types: FxHashMap<(TypeId, u64), TypeId>,
    pub vector_shapes: FxHashMap<TypeId, (TypeId, u64)>,
}

impl Linker {
    pub fn file_id(&mut self, path: &str) -> FileId {
        if let Some(&id) = self.file_ids.get(path) {
            return id;
        }
        let id = self.program.files.push(SourceFile {
            path: path.to_string(),
        });
        self.file_ids.insert(path.to_string(), id);
        id
    }
}

/// What an ordinary identifier denotes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sym {
    Typedef(TypeId),
    Local(VarId, TypeId),
    /// A variable-length array: a register holding its address, one holding its size.
    Vla {
        ptr: VarId,
        size: VarId,
        ty: TypeId,
    },
    Global(GlobalId, TypeId),
    Func(FuncId, TypeId),
    EnumConst(i128, TypeId),
}

#[derive(Default)]
pub(crate) struct Scope<'a> {
    pub names: FxHashMap<&'a str, Sym>,
    pub tags: FxHashMap<&'a str, TypeId>,
    /// The variables of the scope with a `cleanup` attribute, in declaration order.
    pub cleanups: Vec<Cleanup>,
}

/// A variable declared with `__attribute__((cleanup(func)))`: `func(&var)` runs wherever
/// its scope is left (the end of the block, `return`, `break`, `continue`, `goto`).
#[derive(Clone, Debug)]
pub(crate) struct Cleanup {
    pub func: FuncId,
    pub var: VarId,
    /// The bytes where the variable is in scope, from its declaration to the end of its
    /// block: a `goto` to a label outside them (a backward one too) leaves it.
    pub scope: std::ops::Range<usize>,
}

/// A `switch` being lowered: the cases seen so far, in source order.
pub(crate) struct SwitchCtx {
    pub cases: Vec<SwitchCase>,
    pub default: Option<NodeId>,
}

pub(crate) struct SwitchCase {
    pub low: u128,
    pub high: Option<u128>,
    pub target: NodeId,
    pub span: Span,
    pub syn: Option<SynId>,
}

/// The function being lowered (at file scope: a scratch function whose nodes are
/// discarded, used to detect non-constant initializers).
pub(crate) struct FnState<'a> {
    pub id: Option<FuncId>,
    pub name: &'a str,
    pub locals: Vec<Local>,
    pub nodes: Vec<Node>,
    /// Parallel to `nodes`: skip nodes made as jump targets, removed by the clean-up.
    pub is_label: Vec<bool>,
    pub cur: Option<NodeId>,
    pub span: Span,
    pub syn: Option<SynId>,
    pub ret_var: Option<VarId>,
    pub ret_ty: TypeId,
    pub exit: NodeId,
    /// The targets of `break` and `continue`, with the number of scopes open there.
    pub breaks: Vec<(NodeId, usize)>,
    pub continues: Vec<(NodeId, usize)>,
    pub switches: Vec<SwitchCtx>,
    pub switch_types: Vec<TypeId>,
    pub labels: FxHashMap<&'a str, NodeId>,
    /// The first jump to each label (`goto`, `asm goto`), where a label never defined
    /// is reported.
    pub label_uses: FxHashMap<&'a str, TsNode<'a>>,
    /// Names whose address is taken somewhere in the body (`&x`): such locals live in
    /// memory.
    pub addr_taken: FxHashSet<&'a str>,
    /// Tree-sitter node id to syntax node.
    pub syn_map: FxHashMap<usize, SynId>,
    /// Counts side effects emitted while evaluating a file-scope initializer.
    pub effects: usize,
    /// Array types with a run-time length (variable-length array dimensions), with the
    /// register holding their size in bytes; the latest entry for a type wins.
    pub vla_types: Vec<(TypeId, VarId)>,
    /// Tree-sitter ids of block items not lowered as statements (K&R parameter
    /// declarations moved into the body).
    pub skip_items: Vec<usize>,
    /// Labels whose address is taken (`&&label`), in order of first appearance; the
    /// address of the k-th is the integer k + 1 as a pointer.
    pub label_addrs: Vec<&'a str>,
}

impl<'a> FnState<'a> {
    pub fn push_node(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        NodeId::from(self.nodes.len() - 1)
    }

    pub fn push_local(&mut self, local: Local) -> VarId {
        self.locals.push(local);
        VarId::from(self.locals.len() - 1)
    }

    pub fn new(int: TypeId) -> Self {
        FnState {
            id: None,
            name: "",
            locals: Vec::new(),
            nodes: Vec::new(),
            is_label: Vec::new(),
            cur: None,
            span: Span::SYNTHETIC,
            syn: None,
            ret_var: None,
            ret_ty: int,
            exit: NodeId(0),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            switch_types: Vec::new(),
            labels: FxHashMap::default(),
            label_uses: FxHashMap::default(),
            addr_taken: FxHashSet::default(),
            syn_map: FxHashMap::default(),
            effects: 0,
            vla_types: Vec::new(),
            skip_items: Vec::new(),
            label_addrs: Vec::new(),
        }
    }
}

/// A saved position to undo speculative lowering (`sizeof` operands, type probes).
pub(crate) struct Snapshot {
    nodes: usize,
    locals: usize,
    cur: Option<NodeId>,
    cur_succs: usize,
    approximations: usize,
    effects: usize,
    diagnostics: usize,
    vla_types: usize,
}

/// The lowering of one unit.
pub(crate) struct Lowerer<'a, 'l> {
    /// The program being built, shared by the units.
    pub linker: &'l mut Linker,
    /// The names the unit's declarations saying `volatile` declare (`crate::volatile`),
    /// read at its first function definition.
    pub volatile_names: Option<FxHashSet<String>>,
    /// The types every lowering needs (int, char, pointers to void ...).
    pub types: CommonTypes,
    pub src: &'a str,
    pub unit: &'a TranslationUnit,
    pub unit_file: FileId,
    /// Line-map file index to program file.
    pub map_files: Vec<FileId>,
    pub scopes: Vec<Scope<'a>>,
    /// The function being lowered.
    pub func: FnState<'a>,
    /// Whether a function body is being lowered (else: file scope).
    pub in_function: bool,
    /// Nesting depth of speculative lowering (no diagnostics while positive).
    pub speculating: u32,
    /// Nesting depth of parameter lists being read (array sizes there are evaluated
    /// at the entry of the function being defined, not where the list is read).
    pub in_params: u32,
    pub fields: crate::types::FieldIds,
    /// The type arguments of `__builtin_va_arg(ap, TYPE)`, masked before parsing (see
    /// [`mask_va_arg_types`]), by the byte offset of the mask.
    pub va_arg_types: FxHashMap<usize, String>,
    /// Where the C89 rewrite (`oldstyle.rs`) inserted text: offsets back to original
    /// rows and columns.
    pub offset_map: Option<crate::oldstyle::OffsetMap>,
    /// Bodies holding K&R parameter declarations moved into them: the offset of the `{`
    /// to the end of the declarations.
    pub knr_bodies: FxHashMap<usize, usize>,
    /// Offsets of the `goto` of each `goto *EXPR;`, respelled `0 , *EXPR;` before
    /// parsing (`oldstyle.rs`).
    pub computed_gotos: FxHashSet<usize>,
    /// The offsets of the `noreturn` attributes blanked before parsing, in order.
    pub noreturn_attributes: Vec<usize>,
    /// The offsets of the blanked `constructor` and `destructor` attributes, in order.
    pub runtime_attributes: [Vec<usize>; 2],
    /// The offsets of the blanked `cleanup` attributes, in order, with the function each
    /// names (empty if it could not be read).
    pub cleanup_attributes: Vec<(usize, String)>,
    /// Those whose variable is modelled (its cleanup calls lowered).
    pub modelled_cleanups: FxHashSet<usize>,
    /// The offsets of the names of the function definitions lowered so far.
    pub lowered_definitions: FxHashSet<usize>,
}

/// GNU attributes the layout or types depend on; every other `__attribute__((...))` is
/// blanked before parsing, because the grammar rejects attributes in several positions
/// GCC accepts (after a `*` of a declarator, between a declarator and `;`).
const KEPT_ATTRIBUTES: [&str; 4] = ["packed", "aligned", "vector_size", "mode"];

/// Calls `visit(start, open, close)` for every `keyword` standing as a whole word and
/// followed (after white space) by a parenthesized group: `start` is the offset of the
/// keyword, `open` and `close` those of the group's parentheses. When `visit` returns
/// true the scan goes on after the group, else within it. It stops at a `(` never closed.
fn scan_keyword_groups(
    bytes: &[u8],
    keyword: &[u8],
    mut visit: impl FnMut(usize, usize, usize) -> bool,
) {
    let mut from = 0;
    while let Some(pos) = find(&bytes[from..], keyword).map(|p| p + from) {
        from = pos + keyword.len();
        let preceded_by_ident = pos > 0 && is_ident_byte(bytes[pos - 1]);
        if preceded_by_ident || bytes.get(from).is_some_and(|&b| is_ident_byte(b)) {
            continue;
        }
        let mut i = from;
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'(') {
            continue;
        }
        let Some(end) = matching_paren(bytes, i) else {
            break;
        };
        if visit(pos, i, end) {
            from = end + 1;
        }
    }
}

/// Blanks the assembler names of declarators, `register int r0 __asm__("r0") = x;`
/// (GNU: the register or symbol name of a variable), which the parser does not take
/// before an initializer, and which say nothing the analysis uses. One is an `asm`
/// group of string literals only, right after a declarator's name (an identifier that
/// is no keyword, or `]`) and before `=`, `;`, `,` or an attribute.
fn blank_asm_labels(text: &mut String) {
    const NOT_NAMES: [&[u8]; 6] = [b"else", b"do", b"return", b"case", b"default", b"goto"];
    let mut ranges = Vec::new();
    {
        let bytes = text.as_bytes();
        for keyword in [&b"__asm__"[..], b"__asm", b"asm"] {
            scan_keyword_groups(bytes, keyword, |pos, open, close| {
                let mut before = pos;
                while before > 0 && bytes[before - 1].is_ascii_whitespace() {
                    before -= 1;
                }
                let mut start = before;
                while start > 0 && is_ident_byte(bytes[start - 1]) {
                    start -= 1;
                }
                let name = &bytes[start..before];
                let after_name =
                    !name.is_empty() && !name[0].is_ascii_digit() && !NOT_NAMES.contains(&name);
                let after_array = before > 0 && bytes[before - 1] == b']';
                let strings_only = {
                    let mut in_string = false;
                    let mut escaped = false;
                    bytes[open + 1..close].iter().all(|&b| {
                        if in_string {
                            match (escaped, b) {
                                (true, _) => escaped = false,
                                (false, b'\\') => escaped = true,
                                (false, b'"') => in_string = false,
                                _ => {}
                            }
                            true
                        } else if b == b'"' {
                            in_string = true;
                            true
                        } else {
                            b.is_ascii_whitespace()
                        }
                    })
                };
                let mut next = close + 1;
                while bytes.get(next).is_some_and(u8::is_ascii_whitespace) {
                    next += 1;
                }
                let ends = bytes
                    .get(next)
                    .is_some_and(|b| matches!(b, b'=' | b';' | b',' | b'_'));
                if (after_name || after_array) && strings_only && ends {
                    ranges.push((pos, close + 1));
                    return true;
                }
                false
            });
        }
    }
    if ranges.is_empty() {
        return;
    }
    edit_bytes(text, |bytes| {
        for (start, end) in ranges {
            blank(&mut bytes[start..end]);
        }
    });
}

/// Rewrites the bytes of `text` in place by `edit`, which overwrites ASCII-delimited
/// ranges with ASCII; a multi-byte character cut by it (inside a string literal) would
/// make the text invalid UTF-8: stay lossless then.
fn edit_bytes(text: &mut String, edit: impl FnOnce(&mut [u8])) {
    let mut bytes = std::mem::take(text).into_bytes();
    edit(&mut bytes);
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// Replaces every byte by a space but newlines, so every byte offset and line stays
/// where it was.
fn blank(bytes: &mut [u8]) {
    for b in bytes {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// Replaces `__attribute__((...))` by spaces (newlines kept), so every byte offset and
/// line stays where it was; string literals inside the parentheses are skipped over.
/// Returns the offsets of the blanked `noreturn`, `constructor`, `destructor` and
/// `cleanup` attributes (their meaning is kept aside: `Lowerer::noreturn_attributes`,
/// `Lowerer::runtime_attributes` and `Lowerer::cleanup_attributes`).
fn blank_attributes(text: &mut String) -> ([Vec<usize>; 3], Vec<(usize, String)>) {
    let mut ranges = Vec::new();
    let mut found: [Vec<usize>; 4] = Default::default();
    let mut cleanups = Vec::new();
    let mut kept = Vec::new();
    scan_keyword_groups(text.as_bytes(), b"__attribute__", |start, open, close| {
        let inner = &text[open..close];
        if KEPT_ATTRIBUTES.iter().any(|k| inner.contains(k)) {
            kept.push((start, close));
        } else {
            ranges.push((start, close + 1));
            let has = |word: &str| {
                inner
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| w.trim_matches('_') == word)
            };
            for (list, word) in
                found
                    .iter_mut()
                    .zip(["noreturn", "constructor", "destructor", "cleanup"])
            {
                if has(word) {
                    list.push(start);
                }
            }
            if has("cleanup") {
                cleanups.push((start, cleanup_function(inner)));
            }
        }
        true
    });
    let [noreturn, constructors, destructors, _] = found;
    let found = [noreturn, constructors, destructors];
    // `aligned` or `packed` after the declarator of a variable, where the grammar takes
    // no attribute: the alignment of variables is not modelled (that of types and
    // members is). A vector or mode attribute there stays (and is a syntax error).
    let placed = crate::declarator_attributes::after_declarators(text.as_bytes(), &kept);
    for (&(start, close), after) in kept.iter().zip(placed) {
        let inner = &text[start..close];
        if after && !inner.contains("vector_size") && !inner.contains("mode") {
            ranges.push((start, close + 1));
        }
    }
    if ranges.is_empty() {
        return (found, cleanups);
    }
    edit_bytes(text, |bytes| {
        for (start, end) in ranges {
            blank(&mut bytes[start..end]);
        }
    });
    (found, cleanups)
}

/// The function a `cleanup(NAME)` attribute names, or "" if there is none to read.
fn cleanup_function(attributes: &str) -> String {
    let Some(at) = attributes.find("cleanup") else {
        return String::new();
    };
    let rest = attributes[at..].trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let Some(rest) = rest.trim_start().strip_prefix('(') else {
        return String::new();
    };
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if rest.trim_start()[name.len()..]
        .trim_start()
        .starts_with(')')
    {
        name
    } else {
        String::new()
    }
}

/// Replaces the type argument of every `__builtin_va_arg(ap, TYPE)` by `0` and spaces
/// (newlines kept, so every byte offset and line stays where it was) and returns the
/// types by the offset of their `0`. The grammar has no expression taking a type there:
/// it reads `int *` as an error, and `(__builtin_va_arg(ap, int *))` as a cast to a
/// function type, losing the statement around it.
fn mask_va_arg_types(text: &mut String) -> FxHashMap<usize, String> {
    let mut types = FxHashMap::default();
    let mut ranges = Vec::new();
    let bytes = text.as_bytes();
    scan_keyword_groups(bytes, b"__builtin_va_arg", |_, open, close| {
        // The first comma at depth 1 ends the `va_list` argument.
        let mut depth = 0usize;
        let mut comma = None;
        for (k, &b) in bytes.iter().enumerate().take(close).skip(open + 1) {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    comma = Some(k);
                    break;
                }
                _ => {}
            }
        }
        let Some(comma) = comma else { return false };
        let mut start = comma + 1;
        while start < close && bytes[start].is_ascii_whitespace() {
            start += 1;
        }
        if start < close {
            types.insert(
                start,
                String::from_utf8_lossy(&bytes[start..close]).into_owned(),
            );
            ranges.push((start, close));
        }
        true
    });
    if ranges.is_empty() {
        return types;
    }
    edit_bytes(text, |bytes| {
        for (start, end) in ranges {
            blank(&mut bytes[start..end]);
            bytes[start] = b'0';
        }
    });
    types
}

/// Spells `__restrict` / `__restrict__` as `restrict` (padded with spaces) where they
/// qualify an array parameter (`char *argv[__restrict]`, glibc's `regmatch_t
/// __pmatch[__restrict n]`): the grammar knows only `restrict` inside the brackets.
fn respell_array_restrict(text: &mut String) {
    const KEYWORD: &[u8] = b"__restrict";
    let mut hits = Vec::new();
    {
        let bytes = text.as_bytes();
        let mut from = 0;
        while let Some(pos) = find(&bytes[from..], KEYWORD).map(|p| p + from) {
            let mut end = pos + KEYWORD.len();
            if bytes[end..].starts_with(b"__") {
                end += 2;
            }
            from = end;
            if (pos > 0 && is_ident_byte(bytes[pos - 1]))
                || bytes.get(end).is_some_and(|&b| is_ident_byte(b))
            {
                continue;
            }
            // Back over whitespace and other qualifiers (`[static __restrict 3]`) to `[`.
            let mut i = pos;
            while i > 0 && (bytes[i - 1].is_ascii_whitespace() || is_ident_byte(bytes[i - 1])) {
                i -= 1;
            }
            if i > 0 && bytes[i - 1] == b'[' {
                hits.push((pos, end));
            }
        }
    }
    if hits.is_empty() {
        return;
    }
    edit_bytes(text, |bytes| {
        for (start, end) in hits {
            bytes[start..start + 8].copy_from_slice(b"restrict");
            for b in &mut bytes[start + 8..end] {
                *b = b' ';
            }
        }
    });
}

/// What `default` in a `_Generic` association list is spelled as for the grammar, which
/// knows only `type: expression` associations there (`Lowerer::generic` reads it back).
pub(crate) const GENERIC_DEFAULT: &str = "_Gdflt_";

/// Spells the C11 keywords the grammar lacks as ones it knows, byte for byte in place:
/// `_Thread_local` as `__thread` (padded with spaces), and `default` in a `_Generic`
/// association list as [`GENERIC_DEFAULT`], a reserved identifier of the same length.
fn respell_c11_keywords(text: &mut String) {
    const THREAD_LOCAL: &[u8] = b"_Thread_local";
    let mut hits: Vec<(usize, &[u8])> = Vec::new();
    {
        let bytes = text.as_bytes();
        let mut from = 0;
        while let Some(pos) = find(&bytes[from..], THREAD_LOCAL).map(|p| p + from) {
            from = pos + THREAD_LOCAL.len();
            let inside_word = (pos > 0 && is_ident_byte(bytes[pos - 1]))
                || bytes.get(from).is_some_and(|&b| is_ident_byte(b));
            if !inside_word {
                hits.push((pos, b"__thread     "));
            }
        }
        scan_keyword_groups(bytes, b"_Generic", |_, open, close| {
            let mut depth = 0usize;
            let mut i = open;
            while i < close {
                match bytes[i] {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    quote @ (b'"' | b'\'') => {
                        i += 1;
                        while i < close && bytes[i] != quote {
                            i += usize::from(bytes[i] == b'\\') + 1;
                        }
                    }
                    b'd' if depth == 1
                        && bytes[i..close].starts_with(b"default")
                        && !is_ident_byte(bytes[i - 1])
                        && !bytes.get(i + 7).is_some_and(|&b| is_ident_byte(b)) =>
                    {
                        let after = bytes[i + 7..close]
                            .iter()
                            .find(|b| !b.is_ascii_whitespace());
                        if after == Some(&b':') {
                            hits.push((i, GENERIC_DEFAULT.as_bytes()));
                        }
                        i += 7;
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
            // Nested `_Generic`s are inside this group: visit them too.
            false
        });
    }
    if hits.is_empty() {
        return;
    }
    edit_bytes(text, |bytes| {
        for (start, spelling) in hits {
            bytes[start..start + spelling.len()].copy_from_slice(spelling);
        }
    });
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The index of the `)` closing the `(` at `open`, skipping string and char literals.
fn matching_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Replaces GCC line markers and `#pragma` lines by spaces.
pub(crate) fn blank_line_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let directive = trimmed.strip_prefix('#').map(str::trim_start);
        let is_marker = directive.is_some_and(|d| {
            d.starts_with(|c: char| c.is_ascii_digit())
                || d.starts_with("line")
                || d.starts_with("pragma")
                || d.starts_with("ident")
        });
        if is_marker {
            for c in line.chars() {
                out.push(if c == '\n' { '\n' } else { ' ' });
            }
            // Multi-byte characters would change the length: pad to the byte length.
            let pushed = line.chars().count();
            for _ in pushed..line.len() {
                out.push(' ');
            }
        } else if line.contains("__signed__") {
            // GCC's alternate keyword (Linux `asm` headers), unknown to the grammar:
            // spelled `signed`, padded to keep every byte offset.
            out.push_str(&line.replace("__signed__", "signed    "));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The C grammar, loaded once (its kind names are then `'static`).
pub(crate) fn c_language() -> &'static tree_sitter::Language {
    static LANGUAGE: std::sync::OnceLock<tree_sitter::Language> = std::sync::OnceLock::new();
    LANGUAGE.get_or_init(|| tree_sitter_c::LANGUAGE.into())
}

pub(crate) fn lower_all(units: &[TranslationUnit], config: &FrontendConfig) -> Lowered {
    let mut program = Program::default();
    let t = CommonTypes::new(&mut program);
    let mut linker = Linker {
        program,
        diagnostics: Vec::new(),
        global_keys: FxHashMap::default(),
        file_ids: FxHashMap::default(),
        next_string: 0,
        types: t,
        build_syntax: config.build_syntax,
        kind_names: Vec::new(),
        broken_records: Vec::new(),
        vector_types: FxHashMap::default(),
        vector_shapes: FxHashMap::default(),
        runtime_calls: Default::default(),
    };
    let language: &'static tree_sitter::Language = c_language();
    linker.kind_names = (0..language.node_kind_count())
        .map(|id| {
            u16::try_from(id)
                .ok()
                .and_then(|id| language.node_kind_for_id(id))
                .unwrap_or("unknown")
        })
        .collect();
    let mut parser = tree_sitter::Parser::new();
    let parser_ok = parser.set_language(language).is_ok();
    let fields = crate::types::FieldIds::new(language);
    for unit in units {
        let unit_file = linker.file_id(&unit.path);
        // Line markers (`# 12 "file.h" 3`) are not C: blank them out, keeping every byte
        // offset and line number.
        let blanked = if unit.line_map.is_some() {
            blank_line_markers(&unit.text)
        } else {
            unit.text.clone()
        };
        let mut old_style = crate::oldstyle::rewrite(&blanked);
        let mut blanked = old_style.text;
        let ([noreturn_attributes, constructors, destructors], cleanup_attributes) =
            blank_attributes(&mut blanked);
        let va_arg_types = mask_va_arg_types(&mut blanked);
        blank_asm_labels(&mut blanked);
        respell_array_restrict(&mut blanked);
        respell_c11_keywords(&mut blanked);
        let text: &str = &blanked;
        if !parser_ok {
            linker.program.read_errors.push(unit_unread(unit_file));
            linker.diagnostics.push(Diagnostic {
                severity: Severity::Error,
                file: unit.path.clone(),
                line: 0,
                col: 0,
                message: "the parser could not parse this file".into(),
            });
            continue;
        }
        let map_files = match &unit.line_map {
            Some(map) => map.files.iter().map(|f| linker.file_id(f)).collect(),
            None => Vec::new(),
        };
        let chunk_bytes = config.chunk_bytes.unwrap_or(crate::chunks::CHUNK_BYTES);
        let chunks = crate::chunks::split(text, chunk_bytes);
        // Trees live in slots that never move, so that the lowering can hold nodes of
        // earlier trees while later ones arrive (one extra slot per chunk for re-parses
        // of two chunks together).
        // One more slot per definition, for those read again alone (`recover.rs`).
        let recovered_slots: Vec<std::sync::OnceLock<tree_sitter::Tree>> =
            (0..old_style.definitions.len())
                .map(|_| std::sync::OnceLock::new())
                .collect();
        let definitions = std::mem::take(&mut old_style.definitions);
        let slots: Vec<std::sync::OnceLock<tree_sitter::Tree>> = (0..chunks.len() * 2)
            .map(|_| std::sync::OnceLock::new())
            .collect();
        let mut lowerer = Lowerer {
            types: linker.types,
            linker: &mut linker,
            src: text,
            unit,
            unit_file,
            map_files,
            scopes: vec![Scope::default()],
            func: FnState::new(t.int),
            in_function: false,
            speculating: 0,
            in_params: 0,
            fields,
            va_arg_types,
            offset_map: old_style.map,
            knr_bodies: old_style.knr_bodies,
            computed_gotos: old_style.computed_gotos,
            noreturn_attributes,
            runtime_attributes: [constructors, destructors],
            cleanup_attributes,
            modelled_cleanups: FxHashSet::default(),
            lowered_definitions: FxHashSet::default(),
            volatile_names: None,
        };
        let mut sink = ChunkSink {
            slots: &slots,
            used: 0,
            held: None,
            failed: false,
        };
        if chunks.len() == 1 {
            let tree = crate::chunks::parse_range(&mut parser, text, &chunks, 0, 0);
            sink.take(&mut lowerer, &mut parser, text, &chunks, 0, tree);
        } else {
            let threads = config
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .clamp(1, 8);
            crate::chunks::parse_parallel(language, text, &chunks, threads, |k, tree| {
                sink.take(&mut lowerer, &mut parser, text, &chunks, k, tree);
            });
        }
        sink.finish(&mut lowerer);
        lowerer.recover_definitions(&definitions, &recovered_slots, &mut parser);
        if sink.failed {
            lowerer
                .linker
                .program
                .read_errors
                .push(unit_unread(unit_file));
            lowerer.linker.diagnostics.push(Diagnostic {
                severity: Severity::Error,
                file: unit.path.clone(),
                line: 0,
                col: 0,
                message: "the parser could not parse this file".into(),
            });
        }
    }
    let [constructors, destructors] = std::mem::take(&mut linker.runtime_calls);
    crate::runtime::call_around_main(&mut linker.program, &constructors, &destructors);
    crate::readonly::mark_unwritten_statics(&mut linker.program);
    linker.program.volatile.sort_unstable();
    linker.program.volatile.dedup();
    let mut diagnostics = linker.diagnostics;
    diagnostics.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
    diagnostics.dedup();
    Lowered {
        program: linker.program,
        diagnostics,
    }
}

/// A unit that could not be read at all: an error with no place in it.
fn unit_unread(file: ripple_ir::FileId) -> ripple_ir::ReadError {
    ripple_ir::ReadError {
        span: Span {
            file,
            ..Span::SYNTHETIC
        },
        function: None,
        record: None,
        text: 0,
    }
}

/// Receives the trees of a unit's chunks in order and lowers them; a chunk whose edge
/// item has a syntax error is held back and, with its neighbour, parsed again as one.
struct ChunkSink<'a> {
    slots: &'a [std::sync::OnceLock<tree_sitter::Tree>],
    used: usize,
    /// A tree not yet lowered: (first chunk, last chunk, tree).
    held: Option<(usize, usize, &'a tree_sitter::Tree)>,
    failed: bool,
}

impl<'a> ChunkSink<'a> {
    fn store(&mut self, tree: tree_sitter::Tree) -> &'a tree_sitter::Tree {
        let slot = &self.slots[self.used];
        self.used += 1;
        let _ = slot.set(tree);
        slot.get().expect("slot just set")
    }

    fn take(
        &mut self,
        lowerer: &mut Lowerer<'a, '_>,
        parser: &mut tree_sitter::Parser,
        text: &'a str,
        chunks: &[crate::chunks::Chunk],
        k: usize,
        tree: Option<tree_sitter::Tree>,
    ) {
        let Some(tree) = tree else {
            self.failed = true;
            return;
        };
        let mut tree = self.store(tree);
        let mut from = k;
        if let Some((held_from, _, held)) = self.held.take() {
            if crate::chunks::edge_error(held, false) || crate::chunks::edge_error(tree, true) {
                // The cut may have split a construct: parse both chunks together.
                match crate::chunks::parse_range(parser, text, chunks, held_from, k) {
                    Some(merged) => {
                        tree = self.store(merged);
                        from = held_from;
                    }
                    None => {
                        self.failed = true;
                        lower_tree(lowerer, held);
                    }
                }
            } else {
                lower_tree(lowerer, held);
            }
        }
        self.held = Some((from, k, tree));
    }

    fn finish(&mut self, lowerer: &mut Lowerer<'a, '_>) {
        if let Some((_, _, tree)) = self.held.take() {
            lower_tree(lowerer, tree);
        }
    }
}

fn lower_tree<'a>(lowerer: &mut Lowerer<'a, '_>, tree: &'a tree_sitter::Tree) {
    lowerer.report_parse_errors(tree.root_node());
    lowerer.lower_translation_unit(tree.root_node());
}

impl<'a> Lowerer<'a, '_> {
    // ----- source text and locations -----

    pub fn text(&self, node: TsNode<'_>) -> &'a str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    /// The original file and line of a tree-sitter row.
    pub fn locate(&self, row: usize) -> (FileId, u32) {
        let pp_line = u32::try_from(row + 1).unwrap_or(u32::MAX);
        if let Some(map) = &self.unit.line_map {
            let at = map.segments.partition_point(|s| s.pp_line <= pp_line);
            if let Some(seg) = at.checked_sub(1).and_then(|i| map.segments.get(i)) {
                if let Some(&file) = self.map_files.get(seg.file as usize) {
                    return (file, seg.orig_line + (pp_line - seg.pp_line));
                }
            }
        }
        (self.unit_file, pp_line)
    }

    pub fn span_of(&self, node: TsNode<'_>) -> Span {
        let (start, end) = match &self.offset_map {
            Some(map) => {
                let (row, column) = map.position(node.start_byte());
                let start = tree_sitter::Point { row, column };
                let (row, column) = map.position(node.end_byte());
                (start, tree_sitter::Point { row, column })
            }
            None => (node.start_position(), node.end_position()),
        };
        let (file, start_line) = self.locate(start.row);
        let end_line = if end.row == start.row {
            start_line
        } else {
            let (end_file, line) = self.locate(end.row);
            if end_file == file {
                line.max(start_line)
            } else {
                start_line
            }
        };
        Span::new(
            file,
            start_line,
            u32::try_from(start.column + 1).unwrap_or(u32::MAX),
            end_line,
            u32::try_from(end.column + 1).unwrap_or(u32::MAX),
        )
    }

    pub fn diag(&mut self, severity: Severity, node: TsNode<'_>, message: String) {
        if self.speculating > 0 {
            return;
        }
        let span = self.span_of(node);
        if severity == Severity::Error {
            self.linker.program.read_errors.push(ripple_ir::ReadError {
                span,
                function: if self.in_function { self.func.id } else { None },
                record: None,
                // Inside functions the code read differs where the text does.
                text: if self.in_function {
                    0
                } else {
                    crate::syntax::top_level_text(self, node)
                },
            });
        }
        let file = self.linker.program.file_path(span.file).to_string();
        self.linker.diagnostics.push(Diagnostic {
            severity,
            file,
            line: span.start_line,
            col: span.start_col,
            message,
        });
    }

    /// A constant read from the layout of `ty` (`sizeof`, `_Alignof`, `offsetof`): where
    /// a record in it had errors in its body, the code reading it depends on them, as
    /// code naming the record's type does (`ripple_analyses::unread`).
    pub(crate) fn layout_read(&mut self, ty: TypeId, node: TsNode<'_>) {
        if self.linker.broken_records.is_empty() || self.speculating > 0 {
            return;
        }
        let marks = self
            .linker
            .program
            .types
            .mentioning(&self.linker.broken_records);
        if marks[ty.index()] {
            let span = self.span_of(node);
            self.linker.program.read_errors.push(ripple_ir::ReadError {
                span,
                function: if self.in_function { self.func.id } else { None },
                record: None,
                // Inside functions the code read differs where the text does.
                text: if self.in_function {
                    0
                } else {
                    crate::syntax::top_level_text(self, node)
                },
            });
        }
    }

    pub fn approx(&mut self, kind: ApproximationKind, node: TsNode<'_>, detail: String) {
        let span = self.span_of(node);
        self.linker.program.approximations.push(Approximation {
            kind,
            span,
            function: if self.in_function { self.func.id } else { None },
            detail,
        });
    }

    // ----- scopes -----

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    /// Calls the `cleanup` functions of the variables of the scopes from `depth` inward
    /// that `leaves` says are left (innermost first, each scope's in reverse order of
    /// declaration), as a jump out of them or the end of a block does. Nothing when the
    /// current point is unreachable.
    pub fn run_cleanups(&mut self, depth: usize, leaves: impl Fn(&Cleanup) -> bool) {
        let due: Vec<Cleanup> = self.scopes[depth.min(self.scopes.len())..]
            .iter()
            .rev()
            .flat_map(|s| s.cleanups.iter().rev())
            .filter(|c| leaves(c))
            .cloned()
            .collect();
        if self.func.cur.is_none() {
            return;
        }
        for c in due {
            let param = match self
                .linker
                .program
                .types
                .get(self.linker.program.functions[c.func].ty)
            {
                Type::Function { params, .. } => params.first().copied(),
                _ => None,
            };
            let addr = self.addr_of_local(c.var);
            let arg = match param {
                Some(p) => self.assign_convert(addr, p),
                None => addr,
            };
            self.emit(NodeKind::Call {
                dst: None,
                callee: ripple_ir::Callee::Direct(c.func),
                args: vec![arg],
            });
        }
    }

    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    pub fn lookup(&self, name: &str) -> Option<Sym> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.names.get(name).copied())
    }

    pub fn lookup_tag(&self, name: &str) -> Option<TypeId> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.tags.get(name).copied())
    }

    pub fn bind(&mut self, name: &'a str, sym: Sym) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.names.insert(name, sym);
        }
    }

    pub fn bind_file_scope(&mut self, name: &'a str, sym: Sym) {
        if let Some(scope) = self.scopes.first_mut() {
            scope.names.insert(name, sym);
        }
    }

    // ----- locals and temporaries -----

    pub fn new_local(&mut self, name: &str, ty: TypeId, kind: LocalKind, memory: bool) -> VarId {
        let storage = if memory || !self.linker.program.types.is_scalar(ty) {
            Storage::Memory
        } else {
            Storage::Register
        };
        self.func.push_local(Local {
            name: name.to_string(),
            ty,
            kind,
            storage,
            span: self.func.span,
        })
    }

    pub fn temp(&mut self, ty: TypeId) -> VarId {
        self.new_local("", ty, LocalKind::Temp, false)
    }

    pub fn is_register(&self, var: VarId) -> bool {
        self.func.locals[var.index()].storage == Storage::Register
    }

    /// Evaluates `value` into a fresh temporary and returns an expression reading it.
    pub fn spill(&mut self, value: Expr) -> Expr {
        let ty = value.ty;
        let var = self.temp(ty);
        if self.is_register(var) {
            self.emit(NodeKind::Assign {
                dst: Place::Local(var),
                value,
            });
            Expr::local(var, ty)
        } else {
            let addr = self.addr_of_local(var);
            self.emit(NodeKind::Assign {
                dst: Place::Mem { addr, ty },
                value,
            });
            Expr::load(self.addr_of_local(var), ty)
        }
    }

    pub fn addr_of_local(&mut self, var: VarId) -> Expr {
        let ty = self.func.locals[var.index()].ty;
        let ptr = self.linker.program.types.pointer_to(ty);
        Expr::new(ExprKind::AddrOfLocal(var), ptr)
    }

    // ----- CFG construction -----

    pub fn emit(&mut self, kind: NodeKind) -> NodeId {
        self.func.effects += 1;
        let id = self.func.push_node(Node {
            kind,
            succs: Vec::new(),
            span: self.func.span,
            syn: self.func.syn,
        });
        self.func.is_label.push(false);
        if let Some(cur) = self.func.cur {
            self.func.nodes[cur.index()].succs.push(id);
        }
        self.func.cur = Some(id);
        id
    }

    /// A jump target, not yet placed.
    pub fn new_label(&mut self) -> NodeId {
        let id = self.func.push_node(Node {
            kind: NodeKind::Skip,
            succs: Vec::new(),
            span: self.func.span,
            syn: None,
        });
        self.func.is_label.push(true);
        id
    }

    /// Jumps from the current point to `label`; the code after is unreachable.
    pub fn goto(&mut self, label: NodeId) {
        if let Some(cur) = self.func.cur.take() {
            self.func.nodes[cur.index()].succs.push(label);
        }
    }

    /// Continues lowering at `label` (falling through into it).
    pub fn place(&mut self, label: NodeId) {
        if let Some(cur) = self.func.cur.take() {
            if cur != label {
                self.func.nodes[cur.index()].succs.push(label);
            }
        }
        self.func.cur = Some(label);
    }

    pub fn branch(&mut self, cond: Expr, then: NodeId, otherwise: NodeId) {
        let id = self.emit(NodeKind::Branch { cond });
        self.func.nodes[id.index()].succs = vec![then, otherwise];
        self.func.cur = None;
    }

    /// Makes sure there is a current node (code after a jump is unreachable but still
    /// lowered, so that its statements keep their nodes).
    pub fn ensure_cur(&mut self) {
        if self.func.cur.is_none() {
            let label = self.new_label();
            self.func.cur = Some(label);
        }
    }

    pub fn havoc(
        &mut self,
        dst: Option<Place>,
        kind: ApproximationKind,
        node: TsNode<'_>,
        reason: &str,
    ) {
        self.approx(kind, node, reason.to_string());
        self.emit(NodeKind::Havoc {
            dst,
            reason: reason.to_string(),
        });
    }

    /// A havocked value of type `ty` (for unreadable or unsupported expressions).
    pub fn havoc_value(
        &mut self,
        ty: TypeId,
        kind: ApproximationKind,
        node: TsNode<'_>,
        reason: &str,
    ) -> Expr {
        let ty = if self.linker.program.types.is_scalar(ty) {
            ty
        } else {
            self.types.int
        };
        let var = self.temp(ty);
        self.havoc(Some(Place::Local(var)), kind, node, reason);
        Expr::local(var, ty)
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            nodes: self.func.nodes.len(),
            locals: self.func.locals.len(),
            cur: self.func.cur,
            cur_succs: self
                .func
                .cur
                .map_or(0, |c| self.func.nodes[c.index()].succs.len()),
            approximations: self.linker.program.approximations.len(),
            effects: self.func.effects,
            diagnostics: self.linker.diagnostics.len(),
            vla_types: self.func.vla_types.len(),
        }
    }

    pub fn restore(&mut self, snap: Snapshot) {
        self.func.nodes.truncate(snap.nodes);
        self.func.is_label.truncate(snap.nodes);
        self.func.locals.truncate(snap.locals);
        self.func.cur = snap.cur;
        if let Some(cur) = snap.cur {
            if let Some(node) = self.func.nodes.get_mut(cur.index()) {
                node.succs.truncate(snap.cur_succs);
            }
        }
        self.linker
            .program
            .approximations
            .truncate(snap.approximations);
        self.func.effects = snap.effects;
        self.linker.diagnostics.truncate(snap.diagnostics);
        self.func.vla_types.truncate(snap.vla_types);
    }

    /// Removes the label nodes (forwarding their predecessors), connects dangling nodes
    /// to the exit and returns the final node list.
    /// Error recovery around statements with syntax errors can leave a node that is not
    /// a branch with several successors. The choice becomes explicit and
    /// nondeterministic (a sound over-approximation: every successor stays possible): a
    /// havoc of a fresh temporary, then a branch on it for each successor but the last.
    fn explicit_choices(&mut self) {
        let exit = self.func.exit;
        for i in 0..self.func.nodes.len() {
            let node = &self.func.nodes[i];
            if i == exit.index()
                || node.succs.len() <= 1
                || matches!(node.kind, NodeKind::Branch { .. })
            {
                continue;
            }
            let succs = std::mem::take(&mut self.func.nodes[i].succs);
            let span = self.func.nodes[i].span;
            let syn = self.func.nodes[i].syn;
            let choice = self.temp(self.types.int);
            let mut from = NodeId::from(i);
            for (k, &target) in succs.iter().enumerate() {
                if k + 1 == succs.len() {
                    self.func.nodes[from.index()].succs.push(target);
                    break;
                }
                let havoc = self.func.push_node(Node {
                    kind: NodeKind::Havoc {
                        dst: Some(Place::Local(choice)),
                        reason: "control flow of a statement with a syntax error".into(),
                    },
                    succs: Vec::new(),
                    span,
                    syn,
                });
                self.func.is_label.push(false);
                let branch = self.func.push_node(Node {
                    kind: NodeKind::Branch {
                        cond: Expr::local(choice, self.types.int),
                    },
                    succs: vec![target],
                    span,
                    syn,
                });
                self.func.is_label.push(false);
                self.func.nodes[from.index()].succs.push(havoc);
                self.func.nodes[havoc.index()].succs.push(branch);
                from = branch;
            }
        }
    }

    pub fn finish_cfg(&mut self) -> (IndexVec<NodeId, Node>, NodeId) {
        let exit = self.func.exit;
        self.explicit_choices();
        let mut nodes: Vec<Node> = std::mem::take(&mut self.func.nodes);
        let is_label = std::mem::take(&mut self.func.is_label);
        for (i, node) in nodes.iter_mut().enumerate() {
            if i != exit.index() && node.succs.is_empty() {
                node.succs.push(exit);
            }
            if let NodeKind::Branch { .. } = node.kind {
                while node.succs.len() < 2 {
                    node.succs.push(exit);
                }
            }
        }
        let n = nodes.len();
        // resolve[i]: the node a jump to i really reaches.
        let mut resolve: Vec<u32> = (0..n as u32).collect();
        let removable = |i: usize, nodes: &Vec<Node>| {
            i != 0
                && i != exit.index()
                && is_label.get(i).copied().unwrap_or(false)
                && nodes[i].succs.len() == 1
        };
        let mut state = vec![0u8; n]; // 0 = unvisited, 1 = in progress, 2 = done
        let mut keep = vec![true; n];
        for start in 0..n {
            if state[start] == 2 || !removable(start, &nodes) {
                continue;
            }
            let mut path = Vec::new();
            let mut i = start;
            let target = loop {
                if state[i] == 2 {
                    break resolve[i];
                }
                if !removable(i, &nodes) {
                    break i as u32;
                }
                if state[i] == 1 {
                    // A cycle of labels (an empty infinite loop): keep this one.
                    keep[i] = true;
                    state[i] = 2;
                    resolve[i] = i as u32;
                    break i as u32;
                }
                state[i] = 1;
                path.push(i);
                i = nodes[i].succs[0].index();
            };
            for p in path {
                if state[p] == 1 {
                    state[p] = 2;
                    resolve[p] = target;
                    keep[p] = false;
                }
            }
        }
        let mut new_index = vec![u32::MAX; n];
        let mut next = 0u32;
        for i in 0..n {
            if keep[i] {
                new_index[i] = next;
                next += 1;
            }
        }
        let mut out = IndexVec::with_capacity(next as usize);
        for (i, mut node) in nodes.into_iter().enumerate() {
            if !keep[i] {
                continue;
            }
            for succ in &mut node.succs {
                *succ = NodeId(new_index[resolve[succ.index()] as usize]);
            }
            out.push(node);
        }
        (out, NodeId(new_index[exit.index()]))
    }
}
