//! A concrete interpreter of the ripple IR: runs a lowered C program as the program
//! compiled by GCC for x86-64 (LP64, `-O0 -fwrapv`) would run.
//!
//! It is the test oracle of the C frontend and the dynamic checker of the analyses:
//! [`run_program`] runs `main(argc, argv)`; [`Interpreter`] and [`call_function`] call
//! one function with chosen arguments and globals and read the state afterwards;
//! [`run_program_observed`] and [`Interpreter::call`] report every executed node to an
//! [`Observer`].
//!
//! Code map: `value.rs` values and integer/float conversions, `memory.rs` blocks and
//! pointers, `eval.rs` expressions, `exec.rs` the machine (frames, nodes, calls,
//! intrinsics, globals), `observe.rs` observation, `libc/` the model of the C library
//! (`format.rs` printf, `scan.rs` scanf, `stdio.rs`, `files.rs` the file system and
//! file streams, `posix.rs` terminal, `fstat` and signal calls, `string.rs`,
//! `stdlib.rs`, `math.rs`, `ctype.rs`).
//!
//! Semantics: integers wrap; division by zero, `INT_MIN / -1`, out-of-bounds accesses,
//! null dereferences and uses after free stop the run with [`Termination::Trap`]
//! (where the compiled program would crash or silently misbehave). Uninitialised
//! memory and registers read as zero. `long double` is computed as `double`. Calls to
//! external functions without a model and havoc nodes stop the run with
//! [`Termination::Unsupported`], except the havoc of a `setjmp`, which returns 0 as its
//! direct invocation does (a `longjmp` is a havoc, so it stops the run). `time` and
//! `clock` return fixed values. Files are read from the real file system, relative to
//! [`RunConfig::working_dir`], and written only in the run's memory, which the next
//! opens of the run see ([`Interpreter::written_files`] lists what the run wrote). The
//! run has no terminal and receives no signals. stdout is modelled as a pipe: on
//! `abort` (and failed `assert`) the output not yet flushed (`fflush`, full 4096-byte
//! buffers, `setvbuf` modes) is dropped, as the real process loses it; on traps the
//! whole output is kept for diagnosis.
//!
//! Architecture invariant: the interpreter never panics on a program; malformed IR is
//! reported as [`Termination::Unsupported`] or [`Termination::Trap`]. IR calls use an
//! explicit frame stack, so deep recursion in the program does not grow the Rust stack.

mod eval;
mod exec;
mod libc;
mod memory;
mod observe;
mod value;

#[cfg(test)]
mod tests;

use std::path::PathBuf;

use ripple_ir::{FuncId, GlobalId, Program};

/// The `argv[0]` programs run with.
pub const PROGRAM_NAME: &str = "./a.out";

pub use eval::Undefined;
pub use exec::{Interpreter, ISOLATION};
pub use memory::{BlockKind, BlockOrigin};
pub use observe::{
    LibraryAccess, Location, NoObserver, NodeEvent, ObservedRead, ObservedWrite, Observer,
};
pub use value::Value;

/// Inputs and limits of a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// The command-line arguments after the program name (`argv[1..]`); `argv[0]` is
    /// `"./a.out"`.
    pub args: Vec<String>,
    /// The whole standard input.
    pub stdin: Vec<u8>,
    /// Whether stdin is a regular file (`< FILE` in a shell) rather than a pipe: `fstat`
    /// on descriptor 0 says so (programs such as ed decide by it whether they run
    /// interactively). Reading is the same either way; `fseek` on stdin still fails.
    pub stdin_is_file: bool,
    /// Executed nodes before the run stops with [`Termination::StepLimit`].
    pub max_steps: u64,
    /// Bytes of live memory (globals, frames, heap) and of the run's files; `malloc`
    /// past it returns null, a file growing past it stops the run with a trap.
    pub max_memory: u64,
    /// The directory relative paths of `fopen`, `remove` and `rename` are resolved
    /// against (the program's current directory; by default the process's current
    /// directory when the config is made). Files are read from the real file system;
    /// what the program writes stays in the run's memory.
    pub working_dir: PathBuf,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            args: Vec::new(),
            stdin: Vec::new(),
            stdin_is_file: false,
            max_steps: 50_000_000,
            max_memory: 1 << 30,
            working_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// `main` returned or `exit` was called, with this status.
    Exit(i32),
    /// `abort()` or a failed `assert`: a shell sees exit code 134.
    Abort,
    /// Undefined behaviour the interpreter detected, where the program was.
    Trap {
        message: String,
        function: String,
        line: u32,
    },
    StepLimit,
    /// Something the interpreter cannot execute (an external function without a model,
    /// a havoc node, malformed IR).
    Unsupported {
        what: String,
    },
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub termination: Termination,
    pub steps: u64,
    /// The files the run wrote (their content at the end, in the run's own view: the
    /// real file system is never written), and the real files it removed or renamed
    /// away, sorted by path.
    pub written: Vec<(PathBuf, Vec<u8>)>,
    pub removed: Vec<PathBuf>,
}

impl RunOutcome {
    /// The exit code a shell would see: the status's low 8 bits, 134 for an abort, and
    /// `None` for traps, step limits and unsupported constructs.
    pub fn exit_code(&self) -> Option<i32> {
        match self.termination {
            Termination::Exit(code) => Some(code & 0xff),
            Termination::Abort => Some(134),
            _ => None,
        }
    }
}

/// Runs `main(argc, argv)` of `program`.
pub fn run_program(program: &Program, config: &RunConfig) -> RunOutcome {
    run_program_observed(program, config, &mut NoObserver)
}

/// Runs `main(argc, argv)`, reporting every executed node to `observer`.
pub fn run_program_observed<O: Observer>(
    program: &Program,
    config: &RunConfig,
    observer: &mut O,
) -> RunOutcome {
    match Interpreter::new(program, config) {
        Ok(mut interpreter) => interpreter.run_main(observer),
        Err(termination) => RunOutcome {
            stdout: Vec::new(),
            stderr: Vec::new(),
            termination,
            steps: 0,
            written: Vec::new(),
            removed: Vec::new(),
        },
    }
}

/// How a function call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum CallResult {
    /// The function returned (with its value, unless it returns `void`).
    Returned(Option<Value>),
    /// The run stopped inside the call (exit, abort, trap, limit, unsupported).
    Stopped(Termination),
}

/// The result of [`call_function`] or [`Interpreter::call`].
#[derive(Clone, Debug)]
pub struct CallOutcome {
    pub result: CallResult,
    /// Output written during this call.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub steps: u64,
}

/// Calls `function` with `args` after overwriting the initial bytes of the given globals
/// (each `(global, bytes)` writes `bytes` at the start of the global). Returns the
/// outcome and the interpreter, whose state (globals, memory) can then be read with
/// [`Interpreter::read_global`] and [`Interpreter::read_memory`]. Pointer arguments can
/// be made with [`Interpreter::alloc_bytes`] on an interpreter from [`Interpreter::new`].
pub fn call_function<'p>(
    program: &'p Program,
    config: &RunConfig,
    function: FuncId,
    args: &[Value],
    globals: &[(GlobalId, Vec<u8>)],
) -> (CallOutcome, Option<Interpreter<'p>>) {
    let mut interpreter = match Interpreter::new(program, config) {
        Ok(interpreter) => interpreter,
        Err(termination) => {
            let outcome = CallOutcome {
                result: CallResult::Stopped(termination),
                stdout: Vec::new(),
                stderr: Vec::new(),
                steps: 0,
            };
            return (outcome, None);
        }
    };
    for (global, bytes) in globals {
        if let Err(message) = interpreter.write_global(*global, bytes) {
            let outcome = CallOutcome {
                result: CallResult::Stopped(Termination::Unsupported { what: message }),
                stdout: Vec::new(),
                stderr: Vec::new(),
                steps: 0,
            };
            return (outcome, Some(interpreter));
        }
    }
    let outcome = interpreter.call(function, args, &mut NoObserver);
    (outcome, Some(interpreter))
}
