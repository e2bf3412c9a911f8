//! Running a function of a C program natively, to confirm a witness on the compiled code
//! rather than on ripple's own interpreter (a witness is "confirmed" only by an observed
//! difference of the program as the machine's compiler builds it).
//!
//! A generated driver, compiled together with the version's source (`-O0 -fwrapv`, the
//! semantics of ripple's encoding), reads inputs from stdin, one per line, and calls the
//! function on each in a forked child with a timer. For each it prints the outcome: the
//! returned value, the final contents of every object passed by pointer and of the chosen
//! globals (field by field, padding skipped, integers by value, every NaN printed alike), the function's own
//! output and how the child ended. Old and new versions run on the same inputs and their
//! outcomes compare as strings. One build per version and function serves every input.
//!
//! A program on disk is built as its build does: each unit with its own flags (those of
//! the compilation database, then the command line's, then the version's root as an
//! include directory, as it was preprocessed), the other units compiled once per run
//! and linked. Library functions the program declares that no library linked defines
//! (a dependency built elsewhere) get stand-ins that end the run saying so: the
//! functions that do not call them still run compiled. A build that fails says why in
//! one line: the first undefined symbol, else the compiler's first error.
//!
//! Input line format: per parameter `x<hex bytes>` (a value, or the contents of a fresh
//! object for a pointer) or `@<argument>+<offset>` (a pointer into an earlier argument's
//! object); then per chosen global `-` (left as initialised) or `x<hex bytes>`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use ripple_ir::{ExprKind, FloatKind, FuncId, InitItem, Program, Type, TypeId};
use ripple_symex::Side;

use super::pointees;
use super::pointees::BEFORE;
use super::{ObjectRef, ReplayArg, ReplayInput};

/// Bytes of the object a pointer argument points to, at most.
pub const MAX_OBJECT_BYTES: usize = 4096;

/// One argument of a native call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeArg {
    /// The bytes of a parameter passed by value (scalar or record).
    Value(Vec<u8>),
    /// A pointer to a fresh object holding `bytes` from the pointer on and `before`
    /// before it (the last [`BEFORE`] of them, after zeros).
    Buffer { before: Vec<u8>, bytes: Vec<u8> },
    /// A pointer `offset` bytes into the buffer of argument `of`.
    Alias { of: usize, offset: u64 },
    /// A null pointer.
    Null,
}

/// The inputs of one call: arguments in order and initial bytes of globals (by C name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NativeInput {
    pub args: Vec<NativeArg>,
    pub globals: Vec<(String, Vec<u8>)>,
    /// Objects pointer members point to (`strm->state`): how the driver prints each
    /// (an index in [`pointees::reachable_types`] of the function, or as words), and
    /// its bytes.
    pub objects: Vec<(Option<usize>, Vec<u8>)>,
    /// Pointer members: object `from` (an argument's by position, else `objects[from -
    /// args]`) holds, `at` bytes from its pointer, the pointer `offset` bytes from the
    /// pointer of object `to`.
    pub links: Vec<NativeLink>,
}

/// A pointer member of a driver's object ([`NativeInput::links`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeLink {
    pub from: usize,
    pub at: u64,
    pub to: usize,
    pub offset: i64,
}

/// Objects reached through pointer members, at most, in a driver.
const MAX_LINKED_OBJECTS: usize = 16;

/// The C text of a type, or None when it cannot be written (function pointers, anonymous
/// records, arrays).
pub fn c_type(program: &Program, ty: TypeId) -> Option<String> {
    let text = program.types.display(ty);
    if text.contains('(') || text.contains('<') || text.contains('[') {
        return None;
    }
    Some(text)
}

/// Whether a type holds only numbers (no pointers), so that any bytes are a valid value.
pub fn scalar_data(program: &Program, ty: TypeId) -> bool {
    match program.types.get(ty) {
        Type::Int(_) | Type::Float(_) => true,
        Type::Array { elem, len: Some(_) } => scalar_data(program, *elem),
        Type::Record(index) => program.types.records[*index as usize]
            .fields
            .iter()
            .all(|f| f.bit_field.is_none() && scalar_data(program, f.ty)),
        _ => false,
    }
}

/// Whether `ty` is the record of a `jmp_buf` or `sigjmp_buf` (`struct __jmp_buf_tag`
/// in glibc and musl). What `setjmp` saves there (stack and return addresses, mangled
/// with a per-process key) is the implementation's and changes from run to run: its
/// bytes are no observable difference, so neither the driver nor a witness's state
/// shows them.
pub fn is_jump_buffer(program: &Program, ty: TypeId) -> bool {
    matches!(program.types.get(ty), Type::Record(index)
        if program.types.records[*index as usize].tag.as_deref() == Some("__jmp_buf_tag"))
}

/// Whether an object of type `ty` holds a jump buffer ([`is_jump_buffer`]).
pub fn holds_jump_buffer(program: &Program, ty: TypeId) -> bool {
    match program.types.get(ty) {
        Type::Array { elem, .. } => holds_jump_buffer(program, *elem),
        Type::Record(index) => {
            is_jump_buffer(program, ty)
                || program.types.records[*index as usize]
                    .fields
                    .iter()
                    .any(|f| holds_jump_buffer(program, f.ty))
        }
        _ => false,
    }
}

/// The globals a driver of `func` can set and print: named at file scope and in reach of
/// the unit the driver is compiled with (external, or static in the function's own
/// file: another unit's statics cannot be named there), initialised, writable, holding
/// only numbers.
pub fn data_globals(program: &Program, func: FuncId) -> Vec<String> {
    let mut names: Vec<String> = program
        .globals
        .iter()
        .filter(|g| {
            g.init.is_some()
                && !g.is_const
                && !g.key.starts_with('.')
                && in_reach(program, func, g)
                && scalar_data(program, g.ty)
        })
        .map(|g| g.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The globals of a witness (key, bytes) that a driver setting `applied` (C names)
/// leaves at other values than the witness's: not set by the driver (pointers, function
/// pointers, bit-fields, another unit's statics) and not already holding those bytes
/// initially. A compiled run of such a witness is a run of another input.
pub fn unapplied_globals(
    program: &Program,
    witness: &[(String, Vec<u8>)],
    applied: &[String],
) -> Vec<String> {
    witness
        .iter()
        .filter_map(|(key, bytes)| {
            let global = program.globals.iter().find(|g| &g.key == key)?;
            let initial = global.init.as_ref().and_then(|init| {
                let mut out = vec![0u8; bytes.len()];
                for item in &init.items {
                    let (offset, data) = match item {
                        InitItem::Bytes { offset, bytes } => (*offset, bytes.clone()),
                        InitItem::Value { offset, value } => match value.kind {
                            ExprKind::Int(bits) => {
                                let size = program.types.size_of(value.ty) as usize;
                                (*offset, bits.to_le_bytes()[..size.min(16)].to_vec())
                            }
                            _ => return None,
                        },
                        InitItem::Bits { .. } => return None,
                    };
                    let start = usize::try_from(offset).ok()?;
                    out.get_mut(start..start + data.len())?
                        .copy_from_slice(&data);
                }
                Some(out)
            });
            let same = initial.as_deref() == Some(bytes.as_slice());
            (!applied.contains(&global.name) && !same).then(|| global.name.clone())
        })
        .collect()
}

/// Whether `global` can be named by a driver of `func` compiled with `func`'s file: an
/// external one (keyed by its name), or a static of that file (keyed `file:name`), not
/// a static of a function (`file:function:name`) or of another file.
fn in_reach(program: &Program, func: FuncId, global: &ripple_ir::Global) -> bool {
    match global.key.split_once(':') {
        None => true,
        Some((file, name)) => {
            let own = program.functions[func].span.file;
            !name.contains(':') && program.files.get(own).is_some_and(|f| f.path == file)
        }
    }
}

/// A semdiff witness as a native input of version `side` (`program`); `made_for` is the
/// program its arguments' types are of (the old version: the two versions' type tables
/// differ when their headers do).
pub fn witness_input(
    program: &Program,
    func: FuncId,
    made_for: &Program,
    side: Side,
    replay: &ReplayInput,
) -> NativeInput {
    let args = replay
        .args
        .iter()
        .map(|arg| match arg {
            ReplayArg::Scalar { bits: 0, ty }
                if matches!(made_for.types.get(*ty), Type::Pointer(_)) =>
            {
                NativeArg::Null
            }
            ReplayArg::Scalar { bits, ty } => {
                let size = made_for.types.size_of(*ty) as usize;
                NativeArg::Value(bits.to_le_bytes()[..size.min(16)].to_vec())
            }
            ReplayArg::Aggregate { bytes, .. } => NativeArg::Value(bytes.clone()),
            ReplayArg::Pointer { bytes, before, .. } => NativeArg::Buffer {
                before: before.clone(),
                bytes: bytes.clone(),
            },
            ReplayArg::Alias { of, offset, .. } => NativeArg::Alias {
                of: *of,
                offset: *offset,
            },
            // Never written: no driver is built for a function pointer parameter
            // (`c_type` cannot write its type).
            ReplayArg::Function { .. } => NativeArg::Value(vec![0; 8]),
        })
        .collect();
    let globals = replay
        .globals_of(side)
        .iter()
        .filter_map(|(key, bytes)| {
            let global = program.globals.iter().find(|g| &g.key == key)?;
            if global.is_const || !scalar_data(program, global.ty) {
                return None;
            }
            Some((global.name.clone(), bytes.clone()))
        })
        .collect();
    let index = |object: ObjectRef| match object {
        ObjectRef::Arg(i) => i,
        ObjectRef::Inner(k) => replay.args.len() + k,
    };
    let printed = pointees::reachable_types(program, func);
    let types = pointees::object_types(program, func, &replay.pointees);
    NativeInput {
        args,
        globals,
        objects: replay
            .pointees
            .objects
            .iter()
            .zip(types)
            .take(MAX_LINKED_OBJECTS)
            .map(|(o, ty)| {
                let printer = ty.and_then(|t| printed.iter().position(|p| *p == t));
                (
                    printer,
                    o.bytes[..o.bytes.len().min(MAX_OBJECT_BYTES)].to_vec(),
                )
            })
            .collect(),
        links: replay
            .pointees
            .links
            .iter()
            .map(|l| NativeLink {
                from: index(l.from),
                at: l.at,
                to: index(l.to),
                offset: l.offset,
            })
            .collect(),
    }
}

fn hex(bytes: &[u8], out: &mut String) {
    out.push('x');
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
}

/// The stdin text of a driver built with `globals` for these inputs.
pub fn stdin_text(inputs: &[NativeInput], globals: &[String]) -> String {
    let mut out = String::new();
    for input in inputs {
        for arg in &input.args {
            match arg {
                NativeArg::Value(bytes) => hex(bytes, &mut out),
                // The bytes before the pointer first, [`BEFORE`] of them.
                NativeArg::Buffer { before, bytes } => {
                    let mut all = vec![0; BEFORE.saturating_sub(before.len())];
                    all.extend_from_slice(&before[before.len().saturating_sub(BEFORE)..]);
                    all.extend_from_slice(bytes);
                    hex(&all, &mut out);
                }
                NativeArg::Alias { of, offset } => {
                    let _ = write!(out, "@{of}+{offset}");
                }
                NativeArg::Null => out.push('n'),
            }
            out.push(' ');
        }
        for name in globals {
            match input.globals.iter().find(|(n, _)| n == name) {
                Some((_, bytes)) => hex(bytes, &mut out),
                None => out.push('-'),
            }
            out.push(' ');
        }
        for (printer, bytes) in &input.objects {
            out.push('o');
            if let Some(k) = printer {
                let _ = write!(out, "{k}");
            }
            hex(bytes, &mut out);
            out.push(' ');
        }
        for link in &input.links {
            let _ = write!(
                out,
                "l{}:{}:{}:{} ",
                link.from, link.at, link.to, link.offset
            );
        }
        out.push('\n');
    }
    out
}

/// Statements printing the object of type `ty` at `base + off` (`base` an unsigned char *).
fn print_object(program: &Program, ty: TypeId, base: &str, off: u64, limit: u64, out: &mut String) {
    let size = program.types.size_of(ty);
    if off + size > limit {
        return;
    }
    match program.types.get(ty) {
        // By value, so that a variable whose integer type changed between the versions
        // (a `short` becoming an `int`) compares by what it holds.
        Type::Int(kind) if matches!(size, 1 | 2 | 4 | 8) => {
            let signed = u8::from(kind.is_signed());
            let _ = writeln!(out, "rp_value({base} + {off}, {size}, {signed});");
        }
        Type::Int(_) => {
            let _ = writeln!(out, "rp_int({base} + {off}, {size});");
        }
        Type::Float(FloatKind::Float) => {
            let _ = writeln!(out, "rp_f32({base} + {off});");
        }
        Type::Float(FloatKind::Double) => {
            let _ = writeln!(out, "rp_f64({base} + {off});");
        }
        Type::Float(FloatKind::LongDouble) => {
            let _ = writeln!(out, "rp_f80({base} + {off});");
        }
        Type::Pointer(_) => {
            let _ = writeln!(out, "rp_ptr({base} + {off});");
        }
        Type::Array { elem, len: Some(n) } => {
            let esize = program.types.size_of(*elem).max(1);
            for i in 0..*n {
                print_object(program, *elem, base, off + i * esize, limit, out);
            }
        }
        Type::Record(_) if is_jump_buffer(program, ty) => {
            let _ = writeln!(out, "__builtin_printf(\"jmp_buf \");");
        }
        Type::Record(index) => {
            let record = &program.types.records[*index as usize];
            if record.is_union {
                if let Some(field) = record.fields.first() {
                    print_object(program, field.ty, base, off, limit, out);
                }
                return;
            }
            for field in &record.fields {
                if field.bit_field.is_none() {
                    print_object(program, field.ty, base, off + field.offset, limit, out);
                }
            }
        }
        _ => {}
    }
}

/// The driver's helpers. System calls are declared under names of their own (bound to
/// the libc symbols) so that they cannot clash with the program's declarations.
const PRELUDE: &str = r#"
extern int rp_fork(void) __asm__("fork");
extern int rp_dup2(int, int) __asm__("dup2");
extern int rp_waitpid(int, int *, int) __asm__("waitpid");
extern unsigned int rp_ualarm(unsigned int, unsigned int) __asm__("ualarm");
extern unsigned int rp_alarm(unsigned int) __asm__("alarm");
extern long rp_write(int, const void *, unsigned long) __asm__("write");
extern long rp_read(int, void *, unsigned long) __asm__("read");
extern void rp_exit(int) __asm__("exit");
static unsigned char rp_in[1 << 20];
static long rp_len, rp_pos;
static int rp_peek(void) { return rp_pos < rp_len ? rp_in[rp_pos] : -1; }
static void rp_space(void) { while (rp_pos < rp_len && rp_in[rp_pos] == ' ') rp_pos++; }
static int rp_digit(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}
static long rp_bytes(unsigned char *dst, long max) {
    long n = 0;
    rp_space();
    if (rp_peek() == '-') { rp_pos++; return -1; }
    if (rp_peek() == 'x') rp_pos++;
    while (rp_pos + 1 < rp_len && rp_digit(rp_in[rp_pos]) >= 0 && rp_digit(rp_in[rp_pos + 1]) >= 0) {
        if (n < max) dst[n] = (unsigned char)(rp_digit(rp_in[rp_pos]) * 16 + rp_digit(rp_in[rp_pos + 1]));
        n++;
        rp_pos += 2;
    }
    return n < max ? n : max;
}
static long rp_number(void) {
    long v = 0;
    while (rp_pos < rp_len && rp_in[rp_pos] >= '0' && rp_in[rp_pos] <= '9') v = v * 10 + (rp_in[rp_pos++] - '0');
    return v;
}
static void rp_eol(void) {
    while (rp_pos < rp_len && rp_in[rp_pos] != '\n') rp_pos++;
    if (rp_pos < rp_len) rp_pos++;
}
static void rp_int(const unsigned char *p, int n) {
    int i;
    for (i = n - 1; i >= 0; i--)
        __builtin_printf("%02x", p[i]);
    __builtin_printf(" ");
}
static void rp_value(const unsigned char *p, int n, int is_signed) {
    unsigned long long v = 0;
    int i;
    for (i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    if (is_signed && n < 8 && (v >> (8 * n - 1) & 1))
        v |= ~0ULL << (8 * n);
    if (is_signed) __builtin_printf("%lld ", (long long)v); else __builtin_printf("%llu ", v);
}
static void rp_f64(const unsigned char *p) {
    double d;
    __builtin_memcpy(&d, p, 8);
    if (d != d) __builtin_printf("nan "); else rp_int(p, 8);
}
static void rp_f32(const unsigned char *p) {
    float f;
    __builtin_memcpy(&f, p, 4);
    if (f != f) __builtin_printf("nan "); else rp_int(p, 4);
}
static void rp_f80(const unsigned char *p) {
    long double f;
    __builtin_memcpy(&f, p, sizeof f);
    if (f != f) __builtin_printf("nan "); else rp_int(p, 10);
}
/* The objects of pointer arguments sit at fixed addresses, far from the program's own
   memory, so that a pointer less than RP_NEAR bytes from one prints as that argument and
   an offset: the same text in both versions' executables whenever the pointers are (the
   interpreter's replays tell them alike). Elsewhere it prints "ptr". */
extern void *rp_mmap(void *, unsigned long, int, int, int, long) __asm__("mmap");
#define RP_ARENA 0x100000000000ULL
#define RP_STRIDE 0x1000000000ULL
static int rp_fixed = sizeof(void *) == 8;
static int rp_nbufs;
static unsigned char *rp_buffer(int i, unsigned char *fallback) {
    void *want, *got;
    if (!rp_fixed) return fallback;
    want = (void *)(unsigned long)(RP_ARENA + (unsigned long long)i * RP_STRIDE);
    got = rp_mmap(want, RP_OBJECT_BYTES, 3 /* read, write */, 0x22 /* private, anonymous */, -1, 0);
    if (got != want) { rp_fixed = 0; return fallback; }
    if (i + 1 > rp_nbufs) rp_nbufs = i + 1;
    return (unsigned char *)got;
}
static void rp_ptr(const unsigned char *p) {
    unsigned long long v = 0, low = RP_ARENA - RP_STRIDE / 2;
    __builtin_memcpy(&v, p, sizeof(void *));
    if (!v) { __builtin_printf("null "); return; }
    if (rp_fixed && v >= low && v < low + (unsigned long long)rp_nbufs * RP_STRIDE) {
        unsigned long long i = (v - low) / RP_STRIDE;
        long long off = (long long)(v - (RP_ARENA + i * RP_STRIDE + RP_BEFORE));
        if (off < RP_NEAR && off > -RP_NEAR) {
            __builtin_printf("b%llu%+lld ", i, off);
            return;
        }
    }
    __builtin_printf("ptr ");
}
/* An object of unknown type as 8-byte words: one that may be an address (past 32 bits,
   below 2^48) as rp_ptr prints it, others as bytes. */
static void rp_words(const unsigned char *p, long n) {
    long i;
    for (i = 0; i + 8 <= n; i += 8) {
        unsigned long long v;
        __builtin_memcpy(&v, p + i, 8);
        if (v >> 32 && !(v >> 48)) rp_ptr(p + i); else rp_int(p + i, 8);
    }
    for (; i < n; i++) rp_int(p + i, 1);
}
static void rp_status(int st) {
    char buf[64];
    int n = 0;
    const char *what = (st & 0x7f) ? " |signal " : " |exit ";
    int code = (st & 0x7f) ? (st & 0x7f) : ((st >> 8) & 0xff);
    while (*what) buf[n++] = *what++;
    if (code >= 100) buf[n++] = '0' + code / 100;
    if (code >= 10) buf[n++] = '0' + code / 10 % 10;
    buf[n++] = '0' + code % 10;
    buf[n++] = '\n';
    buf[n++] = '@';
    buf[n++] = '\n';
    rp_write(1, buf, n);
}
"#;

/// The driver calling `func` of `program` on every input line of its stdin, setting and
/// printing `globals` (C names; give both versions of a pair the same list); to append to
/// the program's source. None when the function's signature cannot be written natively.
pub fn driver(
    program: &Program,
    func: FuncId,
    globals: &[String],
    timeout_ms: u32,
) -> Option<String> {
    let function = &program.functions[func];
    let Type::Function { ret, .. } = program.types.get(function.ty) else {
        return None;
    };
    let ret = *ret;
    let returns = !matches!(program.types.get(ret), Type::Void);
    let params: Vec<TypeId> = function
        .params
        .iter()
        .map(|p| function.locals[*p].ty)
        .collect();
    let globals: Vec<(&String, TypeId)> = globals
        .iter()
        .filter_map(|name| {
            let g = program
                .globals
                .iter()
                .find(|g| &g.name == name && g.init.is_some() && in_reach(program, func, g))?;
            scalar_data(program, g.ty).then_some((name, g.ty))
        })
        .filter(|(name, ty)| {
            // One defined in another file is named through a declaration of its own
            // (the function's file need not declare it): only a number's type is sure
            // to be written alike there.
            let elsewhere = program
                .globals
                .iter()
                .any(|g| &g.name == *name && g.span.file != function.span.file);
            !elsewhere || matches!(program.types.get(*ty), Type::Int(_) | Type::Float(_))
        })
        .collect();
    let mut out = format!(
        "\n#undef main\n#define RP_BEFORE {BEFORE}\n#define RP_OBJECT_BYTES {}\n#define RP_NEAR {}LL\n",
        MAX_OBJECT_BYTES + BEFORE,
        super::witness::NEAR
    );
    out.push_str(PRELUDE);
    for (name, ty) in &globals {
        let elsewhere = program
            .globals
            .iter()
            .any(|g| &g.name == *name && g.span.file != function.span.file);
        if elsewhere {
            let _ = writeln!(out, "extern {} {name};", c_type(program, *ty)?);
        }
    }
    out.push_str("int main(void) {\n  long rp_got;\n");
    out.push_str(
        "  while ((rp_got = rp_read(0, rp_in + rp_len, sizeof rp_in - rp_len)) > 0) rp_len += rp_got;\n",
    );
    out.push_str("  while (rp_pos < rp_len) {\n    int rp_st = 0, rp_pid;\n");
    let mut call_args = Vec::new();
    for (i, ty) in params.iter().enumerate() {
        let cty = c_type(program, *ty)?;
        if let Type::Pointer(_) = program.types.get(*ty) {
            let _ = writeln!(
                out,
                "    static unsigned char rp_s{i}[RP_OBJECT_BYTES] __attribute__((aligned(16))); \
                 static unsigned char *rp_b{i}; long rp_n{i} = 0; unsigned char *rp_p{i};\n    \
                 if (!rp_b{i}) rp_b{i} = rp_buffer({i}, rp_s{i}); rp_p{i} = rp_b{i} + RP_BEFORE;\n    \
                 __builtin_memset(rp_b{i}, 0, RP_OBJECT_BYTES); rp_space();\n    \
                 long rp_ao{i} = -1, rp_aoff{i} = 0;\n    \
                 if (rp_peek() == '@') {{ rp_pos++; rp_ao{i} = rp_number(); rp_pos++; \
                 rp_aoff{i} = rp_number(); }} else if (rp_peek() == 'n') {{ rp_pos++; rp_p{i} = 0; }} \
                 else {{ rp_n{i} = rp_bytes(rp_b{i}, RP_OBJECT_BYTES) - RP_BEFORE; if (rp_n{i} < 0) rp_n{i} = 0; }}\n    \
                 (void)rp_n{i};"
            );
            call_args.push(format!("({cty})(void *)rp_p{i}"));
        } else {
            let size = program.types.size_of(*ty);
            let _ = writeln!(
                out,
                "    static unsigned char rp_v{i}[{}] __attribute__((aligned(16))); \
                 __builtin_memset(rp_v{i}, 0, sizeof rp_v{i}); rp_bytes(rp_v{i}, {size});",
                size.max(1)
            );
            call_args.push(format!("rp_a{i}"));
        }
    }
    // Aliases last: they may point into the object of a later argument.
    for (i, ty) in params.iter().enumerate() {
        if matches!(program.types.get(*ty), Type::Pointer(_)) {
            for (j, other) in params.iter().enumerate() {
                if j != i && matches!(program.types.get(*other), Type::Pointer(_)) {
                    let _ = writeln!(
                        out,
                        "    if (rp_ao{i} == {j}) rp_p{i} = rp_b{j} + RP_BEFORE + rp_aoff{i};"
                    );
                }
            }
        }
    }
    for (k, (_, ty)) in globals.iter().enumerate() {
        let size = program.types.size_of(*ty).max(1);
        let _ = writeln!(
            out,
            "    static unsigned char rp_g{k}[{size}]; long rp_gs{k} = rp_bytes(rp_g{k}, {size});"
        );
    }
    // Objects pointer members point to, each in a buffer of its own after the
    // arguments', and the members (`strm->state`), written once every object is there.
    let np = params.len();
    let _ = writeln!(
        out,
        "    unsigned char *rp_obj[{}] = {{0}};",
        np + MAX_LINKED_OBJECTS
    );
    for (i, ty) in params.iter().enumerate() {
        if matches!(program.types.get(*ty), Type::Pointer(_)) {
            let _ = writeln!(out, "    rp_obj[{i}] = rp_p{i};");
        }
    }
    let _ = writeln!(
        out,
        "    static unsigned char rp_os[{MAX_LINKED_OBJECTS}][RP_OBJECT_BYTES] __attribute__((aligned(16)));\n    \
         static long rp_on[{MAX_LINKED_OBJECTS}]; static long rp_oty[{MAX_LINKED_OBJECTS}]; int rp_nobj = 0;\n    \
         rp_space();\n    \
         while (rp_peek() == 'o' && rp_nobj < {MAX_LINKED_OBJECTS}) {{\n      \
         unsigned char *rp_q = rp_buffer({np} + rp_nobj, rp_os[rp_nobj]);\n      \
         rp_pos++; __builtin_memset(rp_q, 0, RP_OBJECT_BYTES);\n      \
         rp_oty[rp_nobj] = -1; if (rp_peek() >= '0' && rp_peek() <= '9') rp_oty[rp_nobj] = rp_number();\n      \
         rp_on[rp_nobj] = rp_bytes(rp_q + RP_BEFORE, RP_OBJECT_BYTES - RP_BEFORE);\n      \
         rp_obj[{np} + rp_nobj] = rp_q + RP_BEFORE; rp_nobj++; rp_space();\n    }}\n    \
         while (rp_peek() == 'l') {{\n      \
         long rp_f, rp_at, rp_t, rp_off; int rp_neg;\n      \
         rp_pos++; rp_f = rp_number(); rp_pos++; rp_at = rp_number(); rp_pos++; rp_t = rp_number(); rp_pos++;\n      \
         rp_neg = rp_peek() == '-'; if (rp_neg) rp_pos++; rp_off = rp_number(); if (rp_neg) rp_off = -rp_off;\n      \
         if (rp_f < {n} && rp_t < {n} && rp_obj[rp_f] && rp_obj[rp_t]) {{\n        \
         unsigned char *rp_v = rp_obj[rp_t] + rp_off;\n        \
         __builtin_memcpy(rp_obj[rp_f] + rp_at, &rp_v, sizeof rp_v);\n      }}\n      \
         rp_space();\n    }}",
        n = np + MAX_LINKED_OBJECTS
    );
    // The child's stderr goes where its stdout goes: what it writes there is output.
    out.push_str(
        "    rp_eol();\n    rp_pid = rp_fork();\n    if (rp_pid == 0) {\n      rp_dup2(1, 2);\n",
    );
    if timeout_ms < 1000 {
        let _ = writeln!(out, "      rp_ualarm({}, 0);", timeout_ms * 1000);
    } else {
        let _ = writeln!(out, "      rp_alarm({});", timeout_ms.div_ceil(1000));
    }
    for (k, (name, _)) in globals.iter().enumerate() {
        let _ = writeln!(
            out,
            "      if (rp_gs{k} >= 0) __builtin_memcpy((void *)&{name}, rp_g{k}, rp_gs{k});"
        );
    }
    for (i, ty) in params.iter().enumerate() {
        if !matches!(program.types.get(*ty), Type::Pointer(_)) {
            let cty = c_type(program, *ty)?;
            let _ = writeln!(
                out,
                "      {cty} rp_a{i}; __builtin_memcpy(&rp_a{i}, rp_v{i}, sizeof rp_a{i});"
            );
        }
    }
    // The program's `main` is renamed (see [`build`]): `main` here is the driver's.
    let callee = match function.name.as_str() {
        "main" => "rp_original_main",
        name => name,
    };
    let call = format!("{callee}({})", call_args.join(", "));
    if returns {
        // `__typeof__` does not evaluate the call; it names anonymous types too.
        let _ = writeln!(
            out,
            "      {{ __typeof__({call}) rp_r = {call}; __builtin_printf(\"| \");"
        );
        let size = program.types.size_of(ret);
        print_object(
            program,
            ret,
            "((const unsigned char *)&rp_r)",
            0,
            size,
            &mut out,
        );
        out.push_str("      }\n");
    } else {
        let _ = writeln!(out, "      {call}; __builtin_printf(\"| \");");
    }
    for (i, ty) in params.iter().enumerate() {
        if let Type::Pointer(pointee) = program.types.get(*ty) {
            let _ = writeln!(out, "      __builtin_printf(\"| \");");
            let esize = program.types.size_of(*pointee).max(1);
            let mut element = String::new();
            if matches!(program.types.get(*pointee), Type::Void) {
                let _ = writeln!(element, "rp_int(rp_b{i} + RP_BEFORE + rp_o, 1);");
            } else {
                print_object(
                    program,
                    *pointee,
                    &format!("(rp_b{i} + RP_BEFORE + rp_o)"),
                    0,
                    esize,
                    &mut element,
                );
            }
            let _ = writeln!(
                out,
                "      {{ long rp_o; for (rp_o = 0; rp_o + {esize} <= rp_n{i}; rp_o += {esize}) {{\n{element}      }} }}"
            );
            // What lies before the pointer that is not zero (sds' headers).
            let _ = writeln!(
                out,
                "      if (rp_n{i} > 0) {{ long rp_k; for (rp_k = 0; rp_k < RP_BEFORE; rp_k++) \
                 if (rp_b{i}[rp_k]) __builtin_printf(\"[%ld]=%02x \", rp_k - RP_BEFORE, rp_b{i}[rp_k]); }}"
            );
        }
    }
    // The objects pointer members point to, by their types in this version (the
    // input says which); one of a type it cannot name (`void`, incomplete) as words,
    // an address as `rp_ptr` prints it (each executable places its memory elsewhere).
    let mut cases = String::new();
    for (k, ty) in pointees::reachable_types(program, func)
        .into_iter()
        .enumerate()
    {
        let size = program.types.size_of(ty);
        if size == 0 || matches!(program.types.get(ty), Type::Void) {
            continue;
        }
        let mut element = String::new();
        print_object(program, ty, "rp_q", 0, size, &mut element);
        let _ = writeln!(
            cases,
            "        case {k}: if (rp_on[rp_k] >= {size}) {{ {element} }} break;"
        );
    }
    let _ = writeln!(
        out,
        "      {{ int rp_k; for (rp_k = 0; rp_k < rp_nobj; rp_k++) {{\n        \
         const unsigned char *rp_q = rp_obj[{np} + rp_k]; __builtin_printf(\"| \");\n        \
         switch (rp_oty[rp_k]) {{\n{cases}        default: rp_words(rp_q, rp_on[rp_k]);\n        }}\n      }} }}"
    );
    for (name, ty) in &globals {
        let _ = writeln!(out, "      __builtin_printf(\"| \");");
        let size = program.types.size_of(*ty);
        print_object(
            program,
            *ty,
            &format!("((const unsigned char *)&{name})"),
            0,
            size,
            &mut out,
        );
    }
    out.push_str(
        "      rp_exit(0);\n    }\n    rp_waitpid(rp_pid, &rp_st, 0);\n    rp_status(rp_st);\n  }\n",
    );
    out.push_str("  return 0;\n}\n");
    Some(out)
}

/// The source a driver is compiled with.
#[derive(Clone, Debug)]
pub enum NativeSource {
    /// The text of one C file (the whole program).
    Text(String),
    /// Files on disk: the translation units of the program, the flags every unit is
    /// compiled with (`-I`, `-D` from the command line), and the root of the version's
    /// tree (where the compiler runs, as the preprocessor did, with `-I` of it). The
    /// driver is compiled with the unit that defines the function, so that its static
    /// functions are in reach; every other unit is compiled with its own flags into an
    /// object (once per run) and linked.
    Files {
        units: Vec<NativeUnit>,
        flags: Vec<String>,
        root: PathBuf,
    },
}

/// One translation unit of a program on disk.
#[derive(Clone, Debug)]
pub struct NativeUnit {
    /// Its name in the program (the path the program's spans give it).
    pub name: String,
    /// Its path, relative to the root (or absolute).
    pub path: PathBuf,
    /// Its own flags (from the compilation database), placed before the program's.
    pub flags: Vec<String>,
    /// The files it reads (itself and what it includes), by their names in the program:
    /// a function defined in a header is compiled with a unit that includes it.
    pub reads: Vec<String>,
}

/// Compiles `source` with `driver` into `exe` (the C file of the driver is written next
/// to it); `unit`: the file the function is defined in, by its name in the program.
pub fn build(
    cc: &str,
    source: &NativeSource,
    unit: &str,
    driver: &str,
    exe: &Path,
) -> Result<(), String> {
    build_with_stand_ins(cc, source, unit, driver, exe, &[])
}

/// [`build`], where the link may miss library functions: those of `library_functions`
/// (functions the program declares and does not define) that no library linked
/// defines get stand-ins that end the run saying so ([`unlinked`]), so that the
/// functions that never call them still run compiled.
pub fn build_with_stand_ins(
    cc: &str,
    source: &NativeSource,
    unit: &str,
    driver: &str,
    exe: &Path,
    library_functions: &[String],
) -> Result<(), String> {
    let c = exe.with_extension("c");
    let work = c.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut command = Command::new(cc);
    command.args(["-std=gnu11", "-fwrapv", "-O0", "-w"]);
    // Paths a message names are shown relative to these (they differ from run to run).
    let mut strip = vec![work.clone()];
    let mut objects = Vec::new();
    let text = match source {
        NativeSource::Text(text) => format!("#define main rp_original_main\n{text}\n{driver}"),
        NativeSource::Files { units, flags, root } => {
            let root = std::path::absolute(root).map_err(|e| e.to_string())?;
            strip.push(root.clone());
            if let Ok(canonical) = root.canonicalize() {
                strip.push(canonical);
            }
            let own = units
                .iter()
                .position(|u| u.name == unit)
                .or_else(|| units.iter().position(|u| u.reads.iter().any(|r| r == unit)))
                .ok_or_else(|| format!("no translation unit of the program reads {unit}"))?;
            let program_flags = program_flags(flags, &root);
            for (i, other) in units.iter().enumerate() {
                if i != own {
                    objects.push(
                        compile_object(cc, other, &program_flags, &root, &work)
                            .map_err(|e| failure_message(cc, &e, &strip))?,
                    );
                }
            }
            let own = &units[own];
            let absolute = std::path::absolute(root.join(&own.path)).map_err(|e| e.to_string())?;
            command.args(&own.flags).args(&program_flags);
            command.current_dir(&root);
            format!("#include \"{}\"\n{driver}", absolute.display())
        }
    };
    std::fs::write(&c, text).map_err(|e| format!("{}: {e}", c.display()))?;
    command.arg(&c).args(&objects).arg("-o").arg(exe);
    let mut stderr = link(&mut command, cc, &[])?;
    if let Some(stderr_text) = &stderr {
        // Library functions no library linked defines: stand-ins, one more try.
        let missing = undefined_symbols(stderr_text);
        if !missing.is_empty() && missing.iter().all(|m| library_functions.contains(m)) {
            let stand_ins = exe.with_extension("stand-ins.c");
            std::fs::write(&stand_ins, stand_ins_text(&missing))
                .map_err(|e| format!("{}: {e}", stand_ins.display()))?;
            stderr = link(&mut command, cc, &[stand_ins])?;
        }
    }
    match stderr {
        None => Ok(()),
        Some(stderr) => Err(failure_message(cc, &stderr, &strip)),
    }
}

/// The flags every unit of a program on disk is compiled with: the program's, then its
/// root as an include directory (as the preprocessor had it), `main` renamed (the driver
/// has its own) and `__FILE__` named relative to the root, as the preprocessor named it.
fn program_flags(flags: &[String], root: &Path) -> Vec<String> {
    let mut out = flags.to_vec();
    out.push(format!("-I{}", root.display()));
    out.push("-Dmain=rp_original_main".into());
    out.push(format!("-fmacro-prefix-map={}/=", root.display()));
    out
}

/// Compiles `unit` (its own flags, then `program_flags`) into an object in `work`,
/// unless an earlier build did: the object is named by a hash of what it is made of.
/// The compiler's messages on failure.
fn compile_object(
    cc: &str,
    unit: &NativeUnit,
    program_flags: &[String],
    root: &Path,
    work: &Path,
) -> Result<PathBuf, String> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (cc, root, &unit.path, &unit.flags, program_flags).hash(&mut hasher);
    let object = work.join(format!("unit-{:016x}.o", hasher.finish()));
    if object.is_file() {
        return Ok(object);
    }
    // Written aside and renamed, so that a build never links half an object.
    let aside = object.with_extension(format!("{}.o", std::process::id()));
    let output = Command::new(cc)
        .args(["-std=gnu11", "-fwrapv", "-O0", "-w", "-c"])
        .args(&unit.flags)
        .args(program_flags)
        .arg(&unit.path)
        .arg("-o")
        .arg(&aside)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    std::fs::rename(&aside, &object).map_err(|e| format!("{}: {e}", object.display()))?;
    Ok(object)
}

/// Runs the final compile and link of `command` with `extra` files: None when it
/// succeeds, else the compiler's messages.
fn link(command: &mut Command, cc: &str, extra: &[PathBuf]) -> Result<Option<String>, String> {
    let output = command
        .args(extra)
        .arg("-lm")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    Ok((!output.status.success()).then(|| String::from_utf8_lossy(&output.stderr).into_owned()))
}

/// The symbols the linker found no definition of, in the order it named them.
fn undefined_symbols(stderr: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let Some((_, rest)) = line.split_once("undefined reference to `") else {
            continue;
        };
        let name = rest.trim_end().trim_end_matches('\'');
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// The exit status of a run that reached a stand-in.
const UNLINKED_STATUS: u32 = 97;

/// Stand-ins for library functions: each writes `|unlinked NAME` and ends the run.
fn stand_ins_text(names: &[String]) -> String {
    let mut out = String::from(
        "extern long rp_write(int, const void *, unsigned long) __asm__(\"write\");\n\
         extern void rp_quit(int) __asm__(\"_exit\");\n",
    );
    for name in names {
        let _ = writeln!(
            out,
            "void {name}(void) {{ static const char m[] = \"|unlinked {name}\\n\"; \
             rp_write(1, m, sizeof m - 1); rp_quit({UNLINKED_STATUS}); }}"
        );
    }
    out
}

/// The library function whose stand-in ended a run ([`build_with_stand_ins`]): what
/// the run would have done past it is unknown.
pub fn unlinked(outcome: &str) -> Option<&str> {
    if !outcome.ends_with(&format!("|exit {UNLINKED_STATUS}")) {
        return None;
    }
    let (_, rest) = outcome.rsplit_once("|unlinked ")?;
    rest.split_whitespace().next()
}

/// What a failed build says, in one line: the first symbol the linker found undefined
/// or defined twice, else the compiler's first error; the paths of the scratch
/// directories (`strip`) left out, so that the same input gives the same report.
fn failure_message(cc: &str, stderr: &str, strip: &[PathBuf]) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let from = |key: &str| {
        lines
            .iter()
            .find_map(|l| l.find(key).map(|at| l[at..].trim().to_string()))
    };
    let mut cause = if let Some(undefined) = from("undefined reference to ") {
        match undefined_symbols(stderr).len() {
            0 | 1 => undefined,
            n => format!("{undefined} (and {} more undefined symbol(s))", n - 1),
        }
    } else if let Some(twice) = from("multiple definition of ") {
        twice.split("; ").next().unwrap_or_default().to_string()
    } else {
        lines
            .iter()
            .find(|l| l.contains(": error: ") || l.contains(": fatal error: "))
            .or_else(|| lines.iter().find(|l| l.contains("error")))
            .or_else(|| lines.first())
            .map_or(String::new(), |l| l.trim().to_string())
    };
    for dir in strip {
        cause = cause.replace(&format!("{}/", dir.display()), "");
    }
    format!("{cc} could not build the driver: {cause}")
}

/// Runs a built driver on `stdin` (from [`stdin_text`]): one outcome per input.
pub fn run(exe: &Path, stdin: &str, dir: Option<&Path>) -> Result<Vec<String>, String> {
    use std::io::Write;
    let mut command = Command::new(exe);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    if let Some(mut input) = child.stdin.take() {
        input
            .write_all(stdin.as_bytes())
            .map_err(|e| format!("{}: {e}", exe.display()))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut outcomes: Vec<String> = text.split("\n@\n").map(str::to_string).collect();
    outcomes.pop(); // after the last separator
    Ok(outcomes)
}

/// Whether an outcome ended by the timer (so that it says nothing about the result).
pub fn timed_out(outcome: &str) -> bool {
    outcome.ends_with("|signal 14")
}

/// Whether an outcome ended by a segmentation fault or a bus error (which is also how a
/// stack overflow ends).
pub fn crashed(outcome: &str) -> bool {
    outcome.ends_with("|signal 11") || outcome.ends_with("|signal 7")
}

/// Confirms witnesses on both versions built by the machine's C compiler: one build per
/// version and function, kept for the run.
#[derive(Debug)]
pub struct NativeRunner {
    cc: String,
    sources: [NativeSource; 2],
    work: PathBuf,
    timeout_ms: u32,
    builds: Mutex<HashMap<(usize, FuncId), Result<PathBuf, String>>>,
    /// The directory each version's runs start in.
    run_dirs: [super::RunDir; 2],
}

impl NativeRunner {
    /// `work`: an existing directory for the drivers and executables.
    pub fn new(
        cc: &str,
        old: NativeSource,
        new: NativeSource,
        work: &Path,
        timeout_ms: u32,
    ) -> Self {
        NativeRunner {
            cc: cc.to_string(),
            sources: [old, new],
            work: work.to_path_buf(),
            timeout_ms,
            builds: Mutex::new(HashMap::new()),
            run_dirs: Default::default(),
        }
    }

    /// Runs each version (old, new) in its own directory: where the files it opens by a
    /// relative path are.
    pub fn with_run_dirs(mut self, run_dirs: [super::RunDir; 2]) -> Self {
        self.run_dirs = run_dirs;
        self
    }

    /// The outcomes of `func` of `program` (the version `side`) on `inputs`; an error
    /// when the driver cannot be built, or when a run calls a library function that no
    /// library linked defines (its stand-in ends the run: the outcome is not the
    /// program's).
    pub fn outcomes(
        &self,
        side: Side,
        program: &Program,
        func: FuncId,
        globals: &[String],
        inputs: &[NativeInput],
    ) -> Result<Vec<String>, String> {
        let index = usize::from(side == Side::New);
        let exe = {
            let mut builds = self.builds.lock().map_err(|e| e.to_string())?;
            builds
                .entry((index, func))
                .or_insert_with(|| {
                    let driver =
                        driver(program, func, globals, self.timeout_ms).ok_or_else(|| {
                            "the function's signature cannot be written in C".to_string()
                        })?;
                    let exe = self
                        .work
                        .join(format!("{}-{}", ["old", "new"][index], func.index()));
                    // A static function is its unit's (even when a header defines it).
                    let function = &program.functions[func];
                    let file = match function.linkage {
                        ripple_ir::Linkage::Internal(unit) => unit,
                        ripple_ir::Linkage::External => function.span.file,
                    };
                    let unit = program.files.get(file).map_or("", |f| f.path.as_str());
                    let library: Vec<String> = program
                        .functions
                        .iter()
                        .filter(|f| !f.is_defined())
                        .map(|f| f.name.clone())
                        .collect();
                    build_with_stand_ins(
                        &self.cc,
                        &self.sources[index],
                        unit,
                        &driver,
                        &exe,
                        &library,
                    )?;
                    Ok(exe)
                })
                .clone()?
        };
        let dir = self.run_dirs[index].path();
        let outcomes = run(&exe, &stdin_text(inputs, globals), dir)?;
        if let Some(name) = outcomes.iter().find_map(|o| unlinked(o)) {
            return Err(format!(
                "the compiled run calls {name}, which no library linked with the driver defines"
            ));
        }
        Ok(outcomes)
    }
}
