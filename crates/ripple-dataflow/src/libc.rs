//! Summaries of external functions (no body in the program): what they read, write,
//! allocate and return, for points-to and mod/ref. Unknown names get the worst case the
//! analyses can express: they read and write everything their pointer arguments point
//! to, the hidden state of the C library (stdin position, `rand` seed, `strtok`,
//! `errno`), modelled as one "external memory" region, and the library's globals the
//! program declares (`optind`, `environ`, ...); they may call back what they are given,
//! and may not return (another library's code may exit, or `longjmp` to the program).
//! A `printf`-family call whose format may hold `%n` also writes through its variadic
//! pointers ([`count_stores`]).

use ripple_ir::{Expr, ExprKind, InitItem, Program};

/// Which pointer arguments an external writes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Writes {
    Nothing,
    /// The pointees of this argument.
    Arg(usize),
    /// The pointees of every argument from this index on (`scanf` family).
    ArgsFrom(usize),
    /// The pointees of every pointer argument.
    All,
}

/// What an external's result may point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Returns {
    /// Not a pointer into program memory (or nothing).
    NoPointer,
    /// A fresh heap object allocated at the call.
    Fresh,
    /// A fresh heap object holding what the first argument pointed to (`realloc`).
    Realloc,
    /// Into what the arguments point to, or external memory.
    ArgsOrExternal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExternalModel {
    /// Reads what its pointer arguments point to.
    pub reads_args: bool,
    pub writes: Writes,
    /// Reads and writes the hidden state of the C library.
    pub state: bool,
    /// Only writes it (`errno` set by a mathematical function, a stream written that
    /// the program may read back), where `state` is false.
    pub writes_state: bool,
    /// Only reads it (`perror` prints `errno`), where `state` is false.
    pub reads_state: bool,
    pub returns: Returns,
    /// May not return to its caller.
    pub noreturn: bool,
    /// Copies the contents of argument 1's pointees into argument 0's.
    pub copies: bool,
    /// May call functions of the program passed to it (`qsort`'s comparator); unknown
    /// externals may.
    pub calls_back: bool,
    /// The C library's own globals (declared by the program, defined by the library) it
    /// reads and writes.
    pub library_globals: LibraryGlobals,
    /// Also writes through the pointers stored in this argument's pointees
    /// (`getopt_long`'s `flag` members).
    pub deep_writes: Option<usize>,
    /// May jump back to a `setjmp` of the program: `longjmp`, and unknown externals (a
    /// library whose errors `longjmp` to the program's buffer: libpng's `png_error`).
    pub jumps: bool,
}

/// Which of the C library's globals an external reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LibraryGlobals {
    None,
    Named(&'static [&'static str]),
    /// Every global the program declares without defining it (unknown code may be
    /// the library code that defines it), except the standard streams' pointers (the
    /// library never assigns them: `freopen` reuses the stream).
    All,
}

/// What `getopt` and its variants keep in globals.
const GETOPT_GLOBALS: &[&str] = &["optind", "optarg", "opterr", "optopt"];

const fn model(reads_args: bool, writes: Writes, state: bool, returns: Returns) -> ExternalModel {
    ExternalModel {
        reads_args,
        writes,
        state,
        writes_state: false,
        reads_state: false,
        returns,
        noreturn: false,
        copies: false,
        calls_back: false,
        library_globals: LibraryGlobals::None,
        deep_writes: None,
        jumps: false,
    }
}

/// The model of the external `name` (builtin prefixes stripped).
pub(crate) fn external_model(name: &str) -> ExternalModel {
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    let name = name.strip_prefix("__isoc99_").unwrap_or(name);
    use Returns::*;
    use Writes::*;
    match name {
        "exit" | "_exit" | "_Exit" | "quick_exit" | "abort" | "__assert_fail" | "longjmp"
        | "siglongjmp" | "_longjmp" | "__longjmp_chk" | "err" | "errx" | "trap" | "unreachable"
        | "__stack_chk_fail" | "pthread_exit" => ExternalModel {
            noreturn: true,
            jumps: name.contains("longjmp"),
            ..model(true, Nothing, true, NoPointer)
        },
        "malloc" | "calloc" | "aligned_alloc" | "alloca" | "valloc" => {
            model(false, Nothing, false, Fresh)
        }
        "strdup" | "strndup" => model(true, Nothing, false, Fresh),
        "realloc" | "reallocarray" => model(true, Nothing, false, Realloc),
        "free" => model(false, Nothing, false, NoPointer),
        // Standard output is not read back; a stream given by the program may be (a
        // file written, rewound and read), and its position (`ftell`) changes.
        "printf" | "puts" | "putchar" | "vprintf" => model(true, Nothing, false, NoPointer),
        "fprintf" | "fputs" | "fputc" | "putc" | "vfprintf" | "fwrite" => ExternalModel {
            writes_state: true,
            ..model(true, Nothing, false, NoPointer)
        },
        "perror" => ExternalModel {
            reads_state: true,
            ..model(true, Nothing, false, NoPointer)
        },
        "strlen" | "strnlen" | "strcmp" | "strncmp" | "strcasecmp" | "strncasecmp" | "memcmp"
        | "strspn" | "strcspn" | "atoi" | "atol" | "atoll" | "atof" | "abs" | "labs" | "llabs"
        | "strcoll" => model(true, Nothing, false, NoPointer),
        "strchr" | "strrchr" | "strstr" | "strpbrk" | "memchr" | "index" | "rindex" => {
            model(true, Nothing, false, ArgsOrExternal)
        }
        "strtol" | "strtoul" | "strtoll" | "strtoull" | "strtod" | "strtof" | "strtold" => {
            // The end pointer, and errno.
            model(true, Arg(1), true, NoPointer)
        }
        "strcpy" | "strncpy" | "strcat" | "strncat" | "memcpy" | "memmove" | "stpcpy" => {
            ExternalModel {
                copies: true,
                ..model(true, Arg(0), false, ArgsOrExternal)
            }
        }
        "memset" | "bzero" => model(false, Arg(0), false, ArgsOrExternal),
        "sprintf" | "snprintf" | "vsprintf" | "vsnprintf" => model(true, Arg(0), false, NoPointer),
        "sscanf" => model(true, ArgsFrom(2), true, NoPointer),
        "scanf" => model(true, ArgsFrom(1), true, NoPointer),
        "fscanf" => model(true, ArgsFrom(2), true, NoPointer),
        "fgets" | "gets" => model(true, Arg(0), true, ArgsOrExternal),
        "getchar" | "getc" | "fgetc" | "ungetc" | "rand" | "srand" | "random" | "srandom"
        | "feof" | "ferror" | "clearerr" | "fflush" | "setvbuf" | "setbuf" | "time" | "clock"
        | "__errno_location" | "getenv" | "rewind" => model(true, Nothing, true, ArgsOrExternal),
        "toupper"
        | "tolower"
        | "isdigit"
        | "isalpha"
        | "isalnum"
        | "isspace"
        | "isupper"
        | "islower"
        | "isxdigit"
        | "ispunct"
        | "isprint"
        | "iscntrl"
        | "isgraph"
        | "__ctype_b_loc"
        | "__ctype_toupper_loc"
        | "__ctype_tolower_loc" => model(true, Nothing, false, ArgsOrExternal),
        "atan"
        | "floor"
        | "ceil"
        | "fabs"
        | "round"
        | "trunc"
        | "fabsf"
        | "floorf"
        | "ceilf"
        | "tanh"
        | "expect"
        | "expect_with_probability"
        | "assume_aligned"
        | "isnan"
        | "isinf"
        | "fmax"
        | "fmin"
        | "cbrt" => model(false, Nothing, false, ArgsOrExternal),
        // glibc sets `errno` on their domain and range errors.
        "sqrt" | "sqrtf" | "pow" | "powf" | "exp" | "exp2" | "expm1" | "expf" | "log" | "log10"
        | "log2" | "log1p" | "logf" | "sin" | "cos" | "tan" | "sinf" | "cosf" | "tanf" | "asin"
        | "acos" | "atan2" | "atan2f" | "sinh" | "cosh" | "fmod" | "fmodf" | "lround"
        | "llround" | "hypot" | "hypotf" | "erf" | "erfc" | "tgamma" | "lgamma" | "ldexp"
        | "scalbn" => ExternalModel {
            writes_state: true,
            ..model(false, Nothing, false, ArgsOrExternal)
        },
        // System calls and their wrappers: bytes in or out through one buffer, the
        // position of a file or the clock as hidden state; none keeps a pointer.
        "read" | "pread" | "recv" => model(false, Arg(1), true, NoPointer),
        "write" | "pwrite" | "send" => ExternalModel {
            writes_state: true,
            ..model(true, Nothing, false, NoPointer)
        },
        "fread" => model(true, Arg(0), true, NoPointer),
        "stat" | "fstat" | "lstat" | "clock_gettime" => model(true, Arg(1), true, NoPointer),
        "gettimeofday" | "getrandom" | "getentropy" | "arc4random_buf" => {
            model(false, Arg(0), true, NoPointer)
        }
        "open" | "close" | "lseek" | "fsync" | "ftruncate" | "unlink" | "rmdir" | "mkdir"
        | "access" | "chmod" | "fchmod" | "fclose" | "fseek" | "ftell" | "arc4random"
        | "getpid" | "geteuid" | "getuid" | "sleep" | "usleep" => {
            model(true, Nothing, true, NoPointer)
        }
        // Streams and files opened or named: a `FILE` (or `freopen`'s own stream) in the
        // library's memory.
        "fopen" | "freopen" | "fdopen" | "tmpfile" | "popen" | "setlocale" | "strerror"
        | "localeconv" | "gmtime" | "localtime" | "ctime" | "asctime" => {
            model(true, Nothing, true, ArgsOrExternal)
        }
        "gmtime_r" | "localtime_r" => model(true, Arg(1), true, ArgsOrExternal),
        "ctime_r" | "asctime_r" | "getcwd" | "tmpnam" => model(true, Arg(0), true, ArgsOrExternal),
        "remove" | "rename" | "system" | "pclose" | "fchown" | "chown" | "utimes" | "utime"
        | "sysconf" => model(true, Nothing, true, NoPointer),
        "mktime" | "timegm" | "strftime" => model(true, Arg(0), true, NoPointer),
        "difftime" => model(false, Nothing, false, NoPointer),
        "frexp" | "frexpf" | "modf" | "modff" => model(false, Arg(1), false, NoPointer),
        "nanosleep" | "readlink" => model(true, Arg(1), true, NoPointer),
        // `F_GETLK` fills the `struct flock` passed after the command.
        "fcntl" => model(true, ArgsFrom(2), true, NoPointer),
        "mmap" => model(false, Nothing, true, Fresh),
        "mremap" => model(true, Nothing, true, Realloc),
        "munmap" => model(false, Nothing, true, NoPointer),
        "pthread_mutex_init"
        | "pthread_mutex_destroy"
        | "pthread_mutex_lock"
        | "pthread_mutex_trylock"
        | "pthread_mutex_unlock"
        | "pthread_mutexattr_init"
        | "pthread_mutexattr_destroy"
        | "pthread_mutexattr_settype" => model(true, Arg(0), true, NoPointer),
        "qsort" => ExternalModel {
            calls_back: true,
            ..model(true, Arg(0), false, NoPointer)
        },
        "bsearch" => ExternalModel {
            calls_back: true,
            ..model(true, Nothing, false, ArgsOrExternal)
        },
        "atexit" => ExternalModel {
            calls_back: true,
            ..model(false, Nothing, true, NoPointer)
        },
        // `optind` and `opterr` in, `optind`, `optarg` and `optopt` out, and `argv`
        // permuted (options first).
        "getopt" => ExternalModel {
            library_globals: LibraryGlobals::Named(GETOPT_GLOBALS),
            ..model(true, Arg(1), false, NoPointer)
        },
        // Also `*longind` and the `flag` of the option found.
        "getopt_long" | "getopt_long_only" => ExternalModel {
            library_globals: LibraryGlobals::Named(GETOPT_GLOBALS),
            deep_writes: Some(3),
            ..model(true, All, false, NoPointer)
        },
        _ => UNKNOWN,
    }
}

/// The model of a function without one: the worst case (module doc).
const UNKNOWN: ExternalModel = ExternalModel {
    calls_back: true,
    library_globals: LibraryGlobals::All,
    jumps: true,
    ..model(true, Writes::All, true, Returns::ArgsOrExternal)
};

/// The library functions `program` calls (directly or by address) that have no model,
/// sorted by name: each is taken at the worst case (module doc).
pub fn unmodelled_library_functions(program: &Program) -> Vec<String> {
    let mut used: Vec<ripple_ir::FuncId> = ripple_graph::address_taken_functions(program);
    used.extend(
        program
            .functions
            .iter()
            .flat_map(|f| f.nodes.iter().filter_map(|n| n.direct_callee())),
    );
    let mut names: Vec<String> = used
        .into_iter()
        .map(|g| &program.functions[g])
        .filter(|g| !g.is_defined() && external_model(&g.name) == UNKNOWN)
        .map(|g| g.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Where a call of the `printf` family may store counts (`%n` writes the number of
/// characters printed so far through its argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountStores {
    /// Through the pointer arguments from this index on.
    ArgsFrom(usize),
    /// Through the pointers in the variadic area this `va_list` argument points to.
    VaList(usize),
}

/// Whether the call of the external `name` with `args` may store a count: its format is
/// a string literal holding `%n`, or not a literal at all (it may hold one).
pub fn count_stores(program: &Program, name: &str, args: &[Expr]) -> Option<CountStores> {
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    // The format's index, and whether the arguments come in a `va_list`.
    let (format, va_list) = match name {
        "printf" => (0, false),
        "fprintf" | "sprintf" | "dprintf" | "asprintf" | "__printf_chk" => (1, false),
        "snprintf" | "__fprintf_chk" | "__dprintf_chk" => (2, false),
        "__sprintf_chk" => (3, false),
        "__snprintf_chk" => (4, false),
        "vprintf" => (0, true),
        "vfprintf" | "vsprintf" | "vdprintf" | "vasprintf" | "__vprintf_chk" => (1, true),
        "vsnprintf" | "__vfprintf_chk" => (2, true),
        "__vsprintf_chk" => (3, true),
        "__vsnprintf_chk" => (4, true),
        _ => return None,
    };
    let literal = args.get(format).and_then(|f| literal_bytes(program, f));
    if literal.is_some_and(|text| !holds_count_conversion(text)) {
        return None;
    }
    Some(if va_list {
        CountStores::VaList(format + 1)
    } else {
        CountStores::ArgsFrom(format + 1)
    })
}

/// The bytes of the string literal `e` points to the start of.
fn literal_bytes<'p>(program: &'p Program, e: &Expr) -> Option<&'p [u8]> {
    match &e.kind {
        ExprKind::Cast(inner) => literal_bytes(program, inner),
        ExprKind::AddrOfGlobal(g) => {
            let global = &program.globals[*g];
            if !global.key.starts_with(".str.") {
                return None;
            }
            match global.init.as_ref()?.items.as_slice() {
                [InitItem::Bytes { offset: 0, bytes }] => Some(bytes),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a format holds a `%n` conversion (flags, width, precision and length
/// modifiers between; `%%` is read as a conversion too, which only over-approximates).
fn holds_count_conversion(text: &[u8]) -> bool {
    text.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && text[i + 1..]
                .iter()
                .find(|c| !b"-+ #'0123456789.*$hlLqjzt".contains(c))
                .is_some_and(|&c| c == b'n')
    })
}

#[cfg(test)]
mod tests {
    use super::holds_count_conversion;

    #[test]
    fn count_conversions_are_found_past_flags_and_lengths() {
        assert!(holds_count_conversion(b"%d%n\n"));
        assert!(holds_count_conversion(b"ab%hhn"));
        assert!(holds_count_conversion(b"%2$ln"));
        assert!(!holds_count_conversion(b"%d items\n"));
        assert!(!holds_count_conversion(b"%s"));
        assert!(!holds_count_conversion(b"n%"));
    }
}
