//! Running a function of a C file natively: a generated driver, appended to the source and
//! compiled with gcc (`-fwrapv -O0`, as ripple's encoding), calls the function on a list
//! of inputs, each in a forked child with a timer, and prints for each the outcome: the
//! returned value, the final contents of every object passed by pointer and of the
//! globals (field by field, padding skipped, every NaN printed alike), the function's own
//! output and how the child ended. Old and new versions of a pair run on the same inputs
//! and their outcomes compare as strings.

#![allow(dead_code)] // Each test binary uses a part of these helpers.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use ripple_analyses::semdiff::{ReplayArg, ReplayInput};
use ripple_ir::{FloatKind, FuncId, Program, Type, TypeId};

/// Bytes of one object pointed to by a pointer argument.
pub const BUFFER_BYTES: usize = 128;

/// One argument of a native call.
#[derive(Clone, Debug)]
pub enum Arg {
    /// The bytes of a parameter passed by value (scalar or struct).
    Value(Vec<u8>),
    /// A pointer to a fresh object holding these bytes.
    Buffer(Vec<u8>),
    /// A pointer `offset` bytes into the buffer of argument `of`.
    Alias { of: usize, offset: u64 },
}

/// The inputs of one call: arguments in order and initial bytes of globals (by C name).
#[derive(Clone, Debug, Default)]
pub struct Input {
    pub args: Vec<Arg>,
    pub globals: Vec<(String, Vec<u8>)>,
}

/// A small deterministic generator (splitmix64).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The C text of a type, or None when it cannot be written (function pointers, anonymous
/// records).
fn c_type(program: &Program, ty: TypeId) -> Option<String> {
    let text = program.types.display(ty);
    if text.contains('(') || text.contains('<') || text.contains('[') {
        return None;
    }
    Some(text)
}

/// Writes a random value of type `ty` at `bytes[off..]`; `boundary` favours edge values.
fn fill(program: &Program, ty: TypeId, bytes: &mut [u8], off: usize, rng: &mut Rng) {
    match program.types.get(ty) {
        Type::Int(kind) => {
            let size = (kind.bits() / 8) as usize;
            let value: u64 = match rng.below(10) {
                0 => 0,
                1 => 1,
                2 => u64::MAX,                                            // -1
                3 => 1u64 << (kind.bits().min(64) - 1), // the minimum, or the top bit
                4 => (1u64 << (kind.bits().min(64) - 1)).wrapping_sub(1), // the maximum
                5 | 6 => rng.below(21).wrapping_sub(10),
                7 => rng.below(2000).wrapping_sub(1000),
                _ => rng.next(),
            };
            let value = if matches!(kind, ripple_ir::IntKind::Bool) {
                value & 1
            } else {
                value
            };
            let le = value.to_le_bytes();
            let n = size.min(8);
            bytes[off..off + n].copy_from_slice(&le[..n]);
        }
        Type::Float(kind) => {
            let special = [
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.5,
                2.0,
                3.0,
                100.0,
                1e16,
                -1e16,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                f64::MAX,
                f64::MIN_POSITIVE,
                5e-324,
            ];
            let value = match rng.below(4) {
                0 => *rng.pick(&special),
                1 => rng.below(41) as f64 - 20.0,
                2 => (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0,
                _ => f64::from_bits(rng.next()),
            };
            match kind {
                FloatKind::Float => {
                    bytes[off..off + 4].copy_from_slice(&(value as f32).to_le_bytes());
                }
                FloatKind::Double => bytes[off..off + 8].copy_from_slice(&value.to_le_bytes()),
                FloatKind::LongDouble => {} // left zero: +0.0 in the x87 format
            }
        }
        Type::Array { elem, len: Some(n) } => {
            let size = program.types.size_of(*elem) as usize;
            for i in 0..*n as usize {
                if off + (i + 1) * size > bytes.len() {
                    break;
                }
                fill(program, *elem, bytes, off + i * size, rng);
            }
        }
        Type::Record(index) => {
            let record = &program.types.records[*index as usize];
            if record.is_union {
                if let Some(field) = record.fields.first() {
                    fill(program, field.ty, bytes, off, rng);
                }
                return;
            }
            for field in &record.fields {
                if field.bit_field.is_none() {
                    fill(program, field.ty, bytes, off + field.offset as usize, rng);
                }
            }
        }
        // Pointers stay null; void and functions have no bytes.
        _ => {}
    }
}

/// Random and boundary inputs for `func`, or None when a parameter cannot be given natively.
pub fn random_inputs(
    program: &Program,
    func: FuncId,
    count: usize,
    seed: u64,
) -> Option<Vec<Input>> {
    let function = &program.functions[func];
    let mut rng = Rng(seed);
    let params: Vec<TypeId> = function
        .params
        .iter()
        .map(|p| function.locals[*p].ty)
        .collect();
    for ty in &params {
        c_type(program, *ty)?;
    }
    let globals: Vec<(String, TypeId)> = program
        .globals
        .iter()
        .filter(|g| {
            g.init.is_some()
                && !g.is_const
                && !g.key.starts_with('.')
                && g.key.matches(':').count() <= 1
                && scalar_data(program, g.ty)
        })
        .map(|g| (g.name.clone(), g.ty))
        .collect();
    let mut inputs = Vec::with_capacity(count);
    for _ in 0..count {
        let mut args = Vec::new();
        for ty in &params {
            match program.types.get(*ty) {
                Type::Pointer(pointee) => {
                    let mut bytes = vec![0u8; BUFFER_BYTES];
                    let size = program.types.size_of(*pointee).max(1) as usize;
                    if matches!(program.types.get(*pointee), Type::Int(k) if k.bits() == 8) {
                        // A string: random small bytes, terminated.
                        let len = rng.below(12) as usize;
                        for b in bytes.iter_mut().take(len) {
                            *b = 1 + rng.below(126) as u8;
                        }
                    } else {
                        let mut off = 0;
                        while off + size <= BUFFER_BYTES {
                            fill(program, *pointee, &mut bytes, off, &mut rng);
                            off += size;
                        }
                    }
                    args.push(Arg::Buffer(bytes));
                }
                _ => {
                    let mut bytes = vec![0u8; program.types.size_of(*ty) as usize];
                    fill(program, *ty, &mut bytes, 0, &mut rng);
                    args.push(Arg::Value(bytes));
                }
            }
        }
        let mut global_bytes = Vec::new();
        for (name, ty) in &globals {
            if rng.chance(70) {
                let mut bytes = vec![0u8; program.types.size_of(*ty) as usize];
                fill(program, *ty, &mut bytes, 0, &mut rng);
                global_bytes.push((name.clone(), bytes));
            }
        }
        inputs.push(Input {
            args,
            globals: global_bytes,
        });
    }
    Some(inputs)
}

/// Whether a type holds only numbers (no pointers), so that random bytes are a valid value.
fn scalar_data(program: &Program, ty: TypeId) -> bool {
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

/// A semdiff witness as a native input.
pub fn witness_input(program: &Program, replay: &ReplayInput) -> Input {
    let args = replay
        .args
        .iter()
        .map(|arg| match arg {
            ReplayArg::Scalar { bits, ty } => {
                let size = program.types.size_of(*ty) as usize;
                Arg::Value(bits.to_le_bytes()[..size.min(16)].to_vec())
            }
            ReplayArg::Pointer { bytes, .. } => {
                let mut b = bytes.clone();
                if b.len() < BUFFER_BYTES {
                    b.resize(BUFFER_BYTES, 0);
                }
                Arg::Buffer(b)
            }
            ReplayArg::Alias { of, offset, .. } => Arg::Alias {
                of: *of,
                offset: *offset,
            },
        })
        .collect();
    let globals = replay
        .globals
        .iter()
        .filter_map(|(key, bytes)| {
            let global = program.globals.iter().find(|g| &g.key == key)?;
            if global.is_const || !scalar_data(program, global.ty) {
                return None;
            }
            Some((global.name.clone(), bytes.clone()))
        })
        .collect();
    Input { args, globals }
}

fn c_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 4 + 2);
    s.push('"');
    for b in bytes {
        let _ = write!(s, "\\x{b:02x}");
    }
    s.push('"');
    s
}

/// Statements printing the object of type `ty` at `base + off` (`base` an unsigned char *).
fn print_object(program: &Program, ty: TypeId, base: &str, off: u64, limit: u64, out: &mut String) {
    let size = program.types.size_of(ty);
    if off + size > limit {
        return;
    }
    match program.types.get(ty) {
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

const PRELUDE: &str = r#"
extern int fork(void);
extern int waitpid(int, int *, int);
extern unsigned int ualarm(unsigned int, unsigned int);
extern long write(int, const void *, unsigned long);
extern void exit(int);
static void rp_int(const unsigned char *p, int n) {
    for (int i = n - 1; i >= 0; i--)
        __builtin_printf("%02x", p[i]);
    __builtin_printf(" ");
}
static void rp_f64(const unsigned char *p) {
    double d;
    __builtin_memcpy(&d, p, 8);
    if (d != d)
        __builtin_printf("nan ");
    else
        rp_int(p, 8);
}
static void rp_f32(const unsigned char *p) {
    float f;
    __builtin_memcpy(&f, p, 4);
    if (f != f)
        __builtin_printf("nan ");
    else
        rp_int(p, 4);
}
static void rp_f80(const unsigned char *p) {
    long double f;
    __builtin_memcpy(&f, p, sizeof f);
    if (f != f)
        __builtin_printf("nan ");
    else
        rp_int(p, 10);
}
static void rp_ptr(const unsigned char *p) {
    void *v;
    __builtin_memcpy(&v, p, sizeof v);
    __builtin_printf(v ? "ptr " : "null ");
}
static void rp_status(int st) {
    char buf[64];
    int n = 0;
    const char *what = (st & 0x7f) ? " |signal " : " |exit ";
    int code = (st & 0x7f) ? (st & 0x7f) : ((st >> 8) & 0xff);
    while (*what)
        buf[n++] = *what++;
    if (code >= 100)
        buf[n++] = '0' + code / 100;
    if (code >= 10)
        buf[n++] = '0' + code / 10 % 10;
    buf[n++] = '0' + code % 10;
    buf[n++] = '\n';
    buf[n++] = '@';
    buf[n++] = '\n';
    write(1, buf, n);
}
"#;

/// The driver calling `func` of `program` on each input, to append to the program's source;
/// None when the function's signature cannot be written natively.
pub fn driver(
    program: &Program,
    func: FuncId,
    inputs: &[Input],
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
    let mut out = String::from("\n#undef main\n");
    out.push_str(PRELUDE);
    out.push_str("int main(void) {\n");
    for (k, input) in inputs.iter().enumerate() {
        let _ = writeln!(out, "{{ int st = 0; int pid = fork(); if (pid == 0) {{");
        if timeout_ms < 1000 {
            let _ = writeln!(out, "ualarm({}, 0);", timeout_ms * 1000);
        } else {
            // ualarm takes less than a second: a longer timer uses alarm.
            let _ = writeln!(
                out,
                "{{ extern unsigned int alarm(unsigned int); alarm({}); }}",
                timeout_ms / 1000
            );
        }
        for (name, bytes) in &input.globals {
            let _ = writeln!(
                out,
                "__builtin_memcpy((void *)&{name}, {}, {});",
                c_bytes(bytes),
                bytes.len()
            );
        }
        let mut call_args = Vec::new();
        for (i, (arg, ty)) in input.args.iter().zip(&params).enumerate() {
            let cty = c_type(program, *ty)?;
            match arg {
                Arg::Value(bytes) => {
                    let _ = writeln!(
                        out,
                        "{cty} a{i}; __builtin_memset(&a{i}, 0, sizeof a{i}); \
                         __builtin_memcpy(&a{i}, {}, {});",
                        c_bytes(bytes),
                        bytes.len().min(program.types.size_of(*ty) as usize)
                    );
                }
                Arg::Buffer(bytes) => {
                    let _ = writeln!(
                        out,
                        "static unsigned char b{i}[{}] __attribute__((aligned(16))); \
                         __builtin_memcpy(b{i}, {}, {}); {cty} a{i} = ({cty})(void *)b{i};",
                        bytes.len(),
                        c_bytes(bytes),
                        bytes.len()
                    );
                }
                Arg::Alias { of, offset } => {
                    let _ = writeln!(out, "{cty} a{i} = ({cty})(void *)(b{of} + {offset});");
                }
            }
            call_args.push(format!("a{i}"));
        }
        let call = format!("{}({})", function.name, call_args.join(", "));
        if returns {
            // `__typeof__` does not evaluate the call; it names anonymous types too.
            let _ = writeln!(
                out,
                "__typeof__({call}) r = {call}; __builtin_printf(\"| \");"
            );
            let size = program.types.size_of(ret);
            print_object(
                program,
                ret,
                "((const unsigned char *)&r)",
                0,
                size,
                &mut out,
            );
        } else {
            let _ = writeln!(out, "{call}; __builtin_printf(\"| \");");
        }
        for (i, arg) in input.args.iter().enumerate() {
            if let (Arg::Buffer(bytes), Type::Pointer(pointee)) =
                (arg, program.types.get(params[i]))
            {
                let _ = writeln!(out, "__builtin_printf(\"| \");");
                let esize = program.types.size_of(*pointee).max(1);
                let mut off = 0;
                while off + esize <= bytes.len() as u64 {
                    if matches!(program.types.get(*pointee), Type::Void) {
                        let _ = writeln!(out, "rp_int(b{i} + {off}, 1);");
                    } else {
                        print_object(
                            program,
                            *pointee,
                            &format!("b{i}"),
                            off,
                            bytes.len() as u64,
                            &mut out,
                        );
                    }
                    off += esize;
                }
            }
        }
        for global in program.globals.iter() {
            if !global.key.starts_with('.')
                && global.key.matches(':').count() <= 1
                && scalar_data(program, global.ty)
                && global.init.is_some()
            {
                let _ = writeln!(out, "__builtin_printf(\"| \");");
                let size = program.types.size_of(global.ty);
                print_object(
                    program,
                    global.ty,
                    &format!("((const unsigned char *)&{})", global.name),
                    0,
                    size,
                    &mut out,
                );
            }
        }
        let _ = writeln!(out, "exit(0); }}");
        let _ = writeln!(
            out,
            "waitpid(pid, &st, 0); rp_status(st); }} /* input {k} */"
        );
    }
    out.push_str("return 0;\n}\n");
    Some(out)
}

/// Compiles `source` (a C file's text) with the driver and runs it: one outcome per input.
pub fn run(source: &str, driver: &str, work: &Path, name: &str) -> Result<Vec<String>, String> {
    let c = work.join(format!("{name}.c"));
    let exe = work.join(name);
    let text = format!("#define main rp_original_main\n{source}\n{driver}");
    std::fs::write(&c, text).map_err(|e| e.to_string())?;
    let output = Command::new("gcc")
        .args(["-std=gnu11", "-fwrapv", "-O0", "-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lm")
        .output()
        .map_err(|e| format!("gcc: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "gcc {}: {}",
            c.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let output = Command::new(&exe)
        .output()
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

/// Fails (does not skip) when gcc is missing: the native checks are the point of the test.
pub fn require_gcc() {
    let found = Command::new("gcc").arg("--version").output();
    assert!(
        matches!(found, Ok(ref o) if o.status.success()),
        "gcc is required by this test (install gcc)"
    );
}
