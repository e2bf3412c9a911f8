//! The machine: frames, node execution, calls, intrinsics and the initial memory.

use ripple_ir::{
    Callee, FuncId, GlobalId, InitItem, Intrinsic, NodeId, NodeKind, Place, Program, Storage,
    TypeId,
};
use rustc_hash::FxHashMap;

use crate::memory::{block_of, make_ptr, offset_of, BlockKind, MemError, Memory};
use crate::observe::{LibraryAccess, Location, NodeEvent, ObservedRead, ObservedWrite, Observer};
use crate::value::{extend, sign_extend, truncate, Repr};
use crate::{CallOutcome, CallResult, RunConfig, RunOutcome, Termination, Value};

/// Bytes of bulk memory work (`memcpy`, `memset`, ...) counted as one step.
const BYTES_PER_STEP: u64 = 64;

/// Why execution stopped before the expected return.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stop {
    Exit(i32),
    Abort,
    Trap(String),
    StepLimit,
    Unsupported(String),
}

impl From<MemError> for Stop {
    fn from(err: MemError) -> Stop {
        Stop::Trap(err.message())
    }
}

pub(crate) type Exec<T> = Result<T, Stop>;

/// The deepest call stack before the run traps with a stack overflow.
const MAX_FRAMES: usize = 400_000;

/// A marker in a `va_list` written by `va_start`.
const VA_MAGIC: u64 = 0x7661_5f6c_6973_7421;

/// One activation of a defined function.
#[derive(Clone, Debug, Default)]
pub(crate) struct Frame {
    pub(crate) func: FuncId,
    pub(crate) node: NodeId,
    /// Register locals, indexed by variable.
    pub(crate) regs: Vec<Value>,
    /// Whether each register local has been given a value (a parameter, or a write).
    pub(crate) set: Vec<bool>,
    /// The block of each memory local (0 for registers).
    pub(crate) mem_blocks: Vec<u32>,
    pub(crate) allocas: Vec<u32>,
    /// The variadic arguments of this call, in [`Interpreter::varargs`] (0: none).
    pub(crate) va_id: u32,
    /// Reads of the pending call node, reported when the call returns.
    pub(crate) pending_reads: Vec<ObservedRead>,
}

/// Blocks kept free on each side of an object of [`Interpreter::alloc_isolated`].
pub const ISOLATION: u32 = 8;

/// A running program: memory, call stack, standard streams and the C library's state.
/// A clone is an independent run from the same state (a program laid out once, then run
/// on many inputs).
#[derive(Clone)]
pub struct Interpreter<'p> {
    pub(crate) program: &'p Program,
    pub(crate) reprs: Vec<Repr>,
    pub(crate) mem: Memory,
    pub(crate) frames: Vec<Frame>,
    spare_frames: Vec<Frame>,
    pub(crate) steps: u64,
    pub(crate) max_steps: u64,
    pub(crate) stdout: Vec<u8>,
    /// How much of stdout a real process would have written out (by `fflush`), and the
    /// buffering mode set by `setvbuf` (0 full, 1 line, 2 none): on `abort`, the
    /// unflushed rest of a full buffer is lost, as in a process whose stdout is a pipe.
    pub(crate) stdout_flushed: usize,
    pub(crate) stdout_mode: i32,
    pub(crate) stderr: Vec<u8>,
    /// The lengths of stdout and stderr when the current node started (observed runs).
    output_from: [usize; 2],
    /// What the current node wrote to files: per write, its length (8 bytes, little
    /// endian) and the bytes (observed runs).
    pub(crate) file_output: Vec<u8>,
    pub(crate) stdin: Vec<u8>,
    pub(crate) stdin_pos: usize,
    pub(crate) stdin_is_file: bool,
    pub(crate) global_blocks: Vec<u32>,
    pub(crate) func_base: u32,
    /// The `FILE` objects of stdin, stdout and stderr.
    pub(crate) file_blocks: [u32; 3],
    /// The run's files and the streams open on them.
    pub(crate) files: crate::libc::files::Files,
    /// Signal handlers and mask (signals are never delivered).
    pub(crate) signals: crate::libc::posix::Signals,
    /// What `getopt` keeps between calls.
    pub(crate) getopt: crate::libc::getopt::State,
    pub(crate) varargs: FxHashMap<u32, Vec<Value>>,
    next_va_id: u32,
    pub(crate) atexit: Vec<u64>,
    pub(crate) errno_ptr: u64,
    /// Addresses of the pointer slots returned by `__ctype_b_loc`, `__ctype_toupper_loc`
    /// and `__ctype_tolower_loc`, made on first use.
    pub(crate) ctype_slots: Option<[u64; 3]>,
    pub(crate) strtok_next: u64,
    pub(crate) rand_state: Option<crate::libc::stdlib::RandState>,
    pub(crate) record_reads: bool,
    pub(crate) reads: Vec<ObservedRead>,
    /// What the library call or memory intrinsic of the node read and wrote.
    pub(crate) library: Vec<LibraryAccess>,
    /// The kinds of undefined behaviour the run went through (each once, in order).
    pub(crate) undefined: Vec<crate::eval::Undefined>,
    pub(crate) program_name: String,
    argv: Vec<String>,
}

impl<'p> Interpreter<'p> {
    /// Sets up memory: functions, standard streams, globals with their initial values.
    pub fn new(program: &'p Program, config: &RunConfig) -> Result<Interpreter<'p>, Termination> {
        let reprs = (0..program.types.len())
            .map(|i| Repr::of(&program.types, TypeId::from(i)))
            .collect();
        let mut machine = Interpreter {
            program,
            reprs,
            mem: Memory::new(config.max_memory),
            frames: Vec::new(),
            spare_frames: Vec::new(),
            steps: 0,
            max_steps: config.max_steps,
            stdout: Vec::new(),
            stdout_flushed: 0,
            stdout_mode: 0,
            stderr: Vec::new(),
            output_from: [0, 0],
            file_output: Vec::new(),
            stdin: config.stdin.clone(),
            stdin_pos: 0,
            stdin_is_file: config.stdin_is_file,
            global_blocks: Vec::new(),
            func_base: 1,
            file_blocks: [0; 3],
            files: crate::libc::files::Files::new(&config.working_dir),
            signals: Default::default(),
            getopt: Default::default(),
            varargs: FxHashMap::default(),
            next_va_id: 1,
            atexit: Vec::new(),
            errno_ptr: 0,
            ctype_slots: None,
            strtok_next: 0,
            rand_state: None,
            record_reads: false,
            undefined: Vec::new(),
            reads: Vec::new(),
            library: Vec::new(),
            program_name: crate::PROGRAM_NAME.to_string(),
            argv: config.args.clone(),
        };
        machine
            .init_memory()
            .map_err(|stop| machine.termination(stop))?;
        Ok(machine)
    }

    /// Sets the step limit of the run (of a clone of a laid-out program, say).
    pub fn set_step_limit(&mut self, steps: u64) {
        self.max_steps = steps;
    }

    /// What cloning this interpreter costs, in steps: a copy of every block of memory.
    pub fn clone_cost(&self) -> u64 {
        self.mem.clone_cost()
    }

    /// What [`Interpreter::new`] costs, in steps: it lays out every function and global,
    /// writes every item of every initializer and describes every type.
    pub fn setup_cost(program: &Program) -> u64 {
        let items: usize = program
            .globals
            .iter()
            .map(|g| 1 + g.init.as_ref().map_or(0, |i| i.items.len()))
            .sum();
        (items + program.functions.len() + program.types.len()) as u64
    }

    fn init_memory(&mut self) -> Exec<()> {
        let program = self.program;
        for (id, _) in program.functions.iter_enumerated() {
            let block = self.alloc_block(0, BlockKind::Function(id))?;
            if id.index() == 0 {
                self.func_base = block;
            }
        }
        for i in 0..3 {
            // Room for a glibc `FILE`; programs only compare these pointers.
            self.file_blocks[i] = self.alloc_block(216, BlockKind::Runtime)?;
        }
        let errno = self.alloc_block(4, BlockKind::Runtime)?;
        self.errno_ptr = make_ptr(errno, 0);
        for global in program.globals.iter() {
            let size = program.types.size_of(global.ty);
            let block = self.alloc_block(
                size,
                BlockKind::Global(GlobalId::from(self.global_blocks.len())),
            )?;
            self.global_blocks.push(block);
        }
        for (id, global) in program.globals.iter_enumerated() {
            let base = make_ptr(self.global_blocks[id.index()], 0);
            match &global.init {
                Some(init) => {
                    for item in &init.items {
                        self.init_item(base, item)?;
                    }
                }
                None => {
                    let stream = match global.name.as_str() {
                        "stdin" => Some(0),
                        "stdout" => Some(1),
                        "stderr" => Some(2),
                        _ => None,
                    };
                    if let Some(stream) = stream {
                        let file = make_ptr(self.file_blocks[stream], 0);
                        let size = program.types.size_of(global.ty).min(8);
                        self.mem.write_uint(base, size, u128::from(file))?;
                    }
                }
            }
            if global.is_const {
                if let Some(block) = self.mem.block_mut(self.global_blocks[id.index()]) {
                    block.read_only = true;
                }
            }
        }
        self.init_getopt_globals()
    }

    fn init_item(&mut self, base: u64, item: &InitItem) -> Exec<()> {
        match item {
            InitItem::Value { offset, value } => {
                let v = self.eval(value)?;
                self.write_typed(base.wrapping_add(*offset), value.ty, &v)?;
            }
            InitItem::Bytes { offset, bytes } => {
                self.mem.write(base.wrapping_add(*offset), bytes)?;
            }
            InitItem::Bits {
                offset,
                unit,
                bit_offset,
                width,
                value,
            } => {
                let v = self.eval(value)?;
                self.write_bits(base.wrapping_add(*offset), *unit, *bit_offset, *width, &v)?;
            }
        }
        Ok(())
    }

    pub(crate) fn alloc_block(&mut self, size: u64, kind: BlockKind) -> Exec<u32> {
        self.mem
            .alloc(size, kind)
            .ok_or_else(|| Stop::Trap(format!("out of memory allocating {size} bytes")))
    }

    /// A fresh block holding `bytes`, as a pointer value (for arguments of
    /// [`Interpreter::call`]).
    pub fn alloc_bytes(&mut self, bytes: &[u8]) -> Option<Value> {
        let block = self.mem.alloc(bytes.len() as u64, BlockKind::Heap)?;
        self.mem.write(make_ptr(block, 0), bytes).ok()?;
        Some(Value::pointer(block, 0))
    }

    /// Like [`Interpreter::alloc_bytes`], with [`ISOLATION`] blocks no pointer may
    /// access on either side: an address computed past the object by less than that
    /// many blocks' span (4 GiB each) is nowhere else, so it can be told as the object
    /// and an offset (how witnesses show pointers into their arguments).
    pub fn alloc_isolated(&mut self, bytes: &[u8]) -> Option<Value> {
        self.mem.dead_blocks(ISOLATION);
        let object = self.alloc_bytes(bytes);
        self.mem.dead_blocks(ISOLATION);
        object
    }

    /// The address of a function (what `&f` evaluates to).
    pub fn function_address(&self, func: FuncId) -> Value {
        Value::pointer(self.func_base + func.index() as u32, 0)
    }

    /// The address of a global.
    pub fn global_address(&self, global: GlobalId) -> Option<Value> {
        self.global_blocks
            .get(global.index())
            .map(|b| Value::pointer(*b, 0))
    }

    /// The current bytes of a global.
    /// The kinds of undefined behaviour the run went through so far (C semantics; the
    /// interpreter gives them the values of code built with `-fwrapv` on x86-64).
    pub fn undefined(&self) -> &[crate::eval::Undefined] {
        &self.undefined
    }

    /// Steps executed so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counts a library call's work on `bytes` bytes toward the step limit, before it is
    /// done: a `memset` or `strncpy` of a gigabyte is as much work as many nodes, and a
    /// run's limit bounds it the same way.
    pub(crate) fn charge_bytes(&mut self, bytes: u64) -> Exec<()> {
        self.steps = self.steps.saturating_add(bytes / BYTES_PER_STEP);
        if self.steps > self.max_steps {
            return Err(Stop::StepLimit);
        }
        Ok(())
    }

    pub(crate) fn note_undefined(&mut self, kind: crate::eval::Undefined) {
        if !self.undefined.contains(&kind) {
            self.undefined.push(kind);
        }
    }

    pub fn read_global(&self, global: GlobalId) -> Option<Vec<u8>> {
        let block = self.mem.block(*self.global_blocks.get(global.index())?)?;
        block.live.then(|| block.data.clone())
    }

    /// Overwrites the first bytes of a global.
    pub fn write_global(&mut self, global: GlobalId, bytes: &[u8]) -> Result<(), String> {
        let Some(&block) = self.global_blocks.get(global.index()) else {
            return Err(format!("no global {global}"));
        };
        let Some(data) = self.mem.block_mut(block) else {
            return Err(format!("no global {global}"));
        };
        if bytes.len() > data.data.len() {
            return Err(format!(
                "{} bytes do not fit in global {global} of {} bytes",
                bytes.len(),
                data.data.len()
            ));
        }
        data.data[..bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// `len` bytes at a pointer value, if they are all readable.
    pub fn read_memory(&self, pointer: &Value, len: u64) -> Option<Vec<u8>> {
        self.mem
            .slice(pointer.as_u64(), len)
            .ok()
            .map(<[u8]>::to_vec)
    }

    /// Overwrites `bytes` at a pointer value; false when they are not all writable.
    pub fn write_memory(&mut self, pointer: &Value, bytes: &[u8]) -> bool {
        self.mem.write(pointer.as_u64(), bytes).is_ok()
    }

    /// The NUL-terminated string at a pointer value.
    pub fn read_c_string(&self, pointer: &Value) -> Option<Vec<u8>> {
        self.mem.c_string(pointer.as_u64()).ok().map(<[u8]>::to_vec)
    }

    /// Everything written to stdout so far.
    pub fn stdout(&self) -> &[u8] {
        &self.stdout
    }

    /// Everything written to stderr so far.
    pub fn stderr(&self) -> &[u8] {
        &self.stderr
    }

    /// Calls a function with the given arguments (converted to the parameter types).
    pub fn call<O: Observer>(
        &mut self,
        function: FuncId,
        args: &[Value],
        observer: &mut O,
    ) -> CallOutcome {
        let out_start = self.stdout.len();
        let err_start = self.stderr.len();
        let steps_start = self.steps;
        self.record_reads = O::ENABLED;
        let result = match self.call_function_value(observer, function, args.to_vec()) {
            Ok(value) => {
                let program = self.program;
                let returns = program.functions.get(function).is_some_and(|f| {
                    !matches!(self.repr(f.return_type(&program.types)), Repr::Void)
                });
                CallResult::Returned(if returns { value } else { None })
            }
            Err(stop) => {
                let termination = self.termination(stop);
                self.unwind();
                CallResult::Stopped(termination)
            }
        };
        CallOutcome {
            result,
            stdout: self.stdout[out_start..].to_vec(),
            stderr: self.stderr[err_start..].to_vec(),
            steps: self.steps - steps_start,
        }
    }

    /// Runs `main(argc, argv, envp)`, then the `atexit` handlers.
    pub fn run_main<O: Observer>(&mut self, observer: &mut O) -> RunOutcome {
        self.record_reads = O::ENABLED;
        let termination = match self.run_main_inner(observer) {
            Ok(code) => Termination::Exit(code),
            Err(stop) => self.termination(stop),
        };
        self.unwind();
        if termination == Termination::Abort {
            self.drop_unflushed_stdout();
        }
        RunOutcome {
            stdout: std::mem::take(&mut self.stdout),
            stderr: std::mem::take(&mut self.stderr),
            termination,
            steps: self.steps,
            written: self.written_files(),
            removed: self.removed_files(),
        }
    }

    fn run_main_inner<O: Observer>(&mut self, observer: &mut O) -> Exec<i32> {
        let program = self.program;
        let Some(main) = program
            .function_by_key("main")
            .or_else(|| program.function_by_name("main"))
            .filter(|f| program.functions[*f].is_defined())
        else {
            return Err(Stop::Unsupported("the program has no main function".into()));
        };
        let mut args = vec![self.program_name.clone()];
        args.extend(self.argv.iter().cloned());
        let argv_block = self.alloc_block(8 * (args.len() as u64 + 1), BlockKind::Runtime)?;
        for (i, arg) in args.iter().enumerate() {
            let mut bytes = arg.as_bytes().to_vec();
            bytes.push(0);
            let block = self.alloc_block(bytes.len() as u64, BlockKind::Runtime)?;
            self.mem.write(make_ptr(block, 0), &bytes)?;
            self.mem.write_uint(
                make_ptr(argv_block, 8 * i as u32),
                8,
                u128::from(make_ptr(block, 0)),
            )?;
        }
        let envp = self.alloc_block(8, BlockKind::Runtime)?;
        let call_args = [
            Value::Int(args.len() as u128),
            Value::pointer(argv_block, 0),
            Value::pointer(envp, 0),
        ];
        let nparams = program.functions[main].params.len().min(3);
        let result = self.call_function_value(observer, main, call_args[..nparams].to_vec());
        let code = match result {
            Ok(value) => value.map_or(0, |v| v.as_u64() as i32),
            Err(Stop::Exit(code)) => {
                self.run_atexit(observer)?;
                return Ok(code);
            }
            Err(other) => return Err(other),
        };
        self.run_atexit(observer)?;
        Ok(code)
    }

    /// What an aborting process leaves of its stdout: glibc writes a full buffer (4096
    /// bytes, a pipe's block size) when it fills, and nothing else unless flushed.
    fn drop_unflushed_stdout(&mut self) {
        const BLOCK: usize = 4096;
        let len = self.stdout.len();
        let kept = match self.stdout_mode {
            2 => len,
            1 => self
                .stdout
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1),
            _ => {
                let flushed = self.stdout_flushed.min(len);
                flushed + (len - flushed) / BLOCK * BLOCK
            }
        };
        self.stdout.truncate(kept.max(self.stdout_flushed.min(len)));
    }

    fn run_atexit<O: Observer>(&mut self, observer: &mut O) -> Exec<()> {
        while let Some(handler) = self.atexit.pop() {
            let func = self.func_of_ptr(handler)?;
            match self.call_function_value(observer, func, Vec::new()) {
                Ok(_) => {}
                Err(Stop::Exit(_)) => {}
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }

    /// Frees every frame left on the stack (after a stop).
    fn unwind(&mut self) {
        while let Some(frame) = self.frames.pop() {
            self.release_frame(frame);
        }
    }

    /// The termination for a stop, located at the current node.
    pub(crate) fn termination(&self, stop: Stop) -> Termination {
        match stop {
            Stop::Exit(code) => Termination::Exit(code),
            Stop::Abort => Termination::Abort,
            Stop::StepLimit => Termination::StepLimit,
            Stop::Unsupported(what) => Termination::Unsupported { what },
            Stop::Trap(message) => {
                let (function, line) = match self.frames.last() {
                    Some(frame) => {
                        let func = &self.program.functions[frame.func];
                        let line = func.nodes.get(frame.node).map_or(0, |n| n.span.start_line);
                        (func.name.clone(), line)
                    }
                    None => (String::new(), 0),
                };
                Termination::Trap {
                    message,
                    function,
                    line,
                }
            }
        }
    }

    pub(crate) fn repr(&self, ty: TypeId) -> Repr {
        self.reprs.get(ty.index()).copied().unwrap_or(Repr::Void)
    }

    /// The function a function pointer points to.
    pub(crate) fn func_of_ptr(&self, ptr: u64) -> Exec<FuncId> {
        let block = block_of(ptr);
        match self.mem.block(block) {
            Some(b) if offset_of(ptr) == 0 => match b.kind {
                BlockKind::Function(f) => Ok(f),
                _ => Err(Stop::Trap(format!(
                    "call through a non-function pointer {ptr:#x}"
                ))),
            },
            _ => Err(Stop::Trap(format!(
                "call through an invalid function pointer {ptr:#x}"
            ))),
        }
    }

    /// Calls a function (defined or external) from native code and runs it to its
    /// return: used for `main`, `qsort` comparators, `atexit` handlers and the API.
    pub(crate) fn call_function_value<O: Observer>(
        &mut self,
        observer: &mut O,
        func: FuncId,
        args: Vec<Value>,
    ) -> Exec<Option<Value>> {
        let program = self.program;
        let Some(function) = program.functions.get(func) else {
            return Err(Stop::Unsupported(format!("no function {func}")));
        };
        if !function.is_defined() {
            return self.call_external(observer, func, &args).map(Some);
        }
        let stop_depth = self.frames.len();
        self.push_frame(func, args)?;
        self.run_loop(observer, stop_depth)
    }

    fn push_frame(&mut self, func: FuncId, mut args: Vec<Value>) -> Exec<()> {
        if self.frames.len() >= MAX_FRAMES {
            return Err(Stop::Trap("stack overflow (call depth limit)".into()));
        }
        let program = self.program;
        let function = &program.functions[func];
        if function.nodes.get(function.entry).is_none() {
            return Err(Stop::Unsupported(format!(
                "function {} has no entry node",
                function.name
            )));
        }
        let mut frame = self.spare_frames.pop().unwrap_or_default();
        frame.func = func;
        frame.node = function.entry;
        frame.set.clear();
        frame.set.resize(function.locals.len(), false);
        for param in &function.params {
            frame.set[param.index()] = true;
        }
        frame.regs.clear();
        frame.regs.extend(
            function
                .locals
                .iter()
                .map(|l| match self.reprs.get(l.ty.index()) {
                    Some(Repr::F32) => Value::F32(0.0),
                    Some(Repr::F64 | Repr::LongDouble) => Value::F64(0.0),
                    _ => Value::Int(0),
                }),
        );
        frame.mem_blocks.clear();
        frame.mem_blocks.resize(function.locals.len(), 0);
        frame.allocas.clear();
        frame.va_id = 0;
        frame.pending_reads.clear();
        let mut failed = None;
        for (var, local) in function.locals.iter_enumerated() {
            if local.storage == Storage::Memory {
                match self
                    .mem
                    .alloc(program.types.size_of(local.ty), BlockKind::Stack)
                {
                    Some(block) => frame.mem_blocks[var.index()] = block,
                    None => {
                        failed = Some(Stop::Trap("stack overflow (memory limit)".into()));
                        break;
                    }
                }
            }
        }
        if let Some(stop) = failed {
            self.release_frame(frame);
            return Err(stop);
        }
        let nparams = function.params.len();
        if args.len() > nparams {
            let extra: Vec<Value> = args.drain(nparams..).collect();
            frame.va_id = self.next_va_id;
            self.next_va_id = self.next_va_id.wrapping_add(1).max(1);
            self.varargs.insert(frame.va_id, extra);
        }
        for (i, &param) in function.params.iter().enumerate() {
            let Some(local) = function.locals.get(param) else {
                continue;
            };
            let value = args
                .get_mut(i)
                .map_or(Value::Int(0), |v| std::mem::replace(v, Value::Int(0)));
            let value = self.coerce(value, local.ty);
            let block = frame.mem_blocks.get(param.index()).copied().unwrap_or(0);
            if block != 0 {
                if let Err(err) = self.write_typed(make_ptr(block, 0), local.ty, &value) {
                    self.release_frame(frame);
                    return Err(err);
                }
            } else if let Some(slot) = frame.regs.get_mut(param.index()) {
                *slot = value;
            }
        }
        self.frames.push(frame);
        Ok(())
    }

    fn release_frame(&mut self, mut frame: Frame) {
        for &block in &frame.mem_blocks {
            if block != 0 {
                self.mem.free(block);
            }
        }
        for &block in &frame.allocas {
            self.mem.free(block);
        }
        if frame.va_id != 0 {
            self.varargs.remove(&frame.va_id);
        }
        frame.regs.clear();
        self.spare_frames.push(frame);
    }

    /// Executes nodes until the frame stack shrinks back to `stop_depth`; returns the
    /// value the last popped function returned.
    fn run_loop<O: Observer>(
        &mut self,
        observer: &mut O,
        stop_depth: usize,
    ) -> Exec<Option<Value>> {
        let program = self.program;
        loop {
            let Some(frame) = self.frames.last() else {
                return Ok(None);
            };
            let func_id = frame.func;
            let node_id = frame.node;
            let function = &program.functions[func_id];
            let Some(node) = function.nodes.get(node_id) else {
                return Err(Stop::Unsupported(format!(
                    "{}: no node {node_id}",
                    function.name
                )));
            };
            self.steps += 1;
            if self.steps > self.max_steps {
                return Err(Stop::StepLimit);
            }
            if O::ENABLED {
                self.reads.clear();
                self.library.clear();
                self.output_from = [self.stdout.len(), self.stderr.len()];
                self.file_output.clear();
                self.mem.track_origins = true;
                self.mem.site = Some((func_id, node_id));
            }
            let mut write = None;
            let next = match &node.kind {
                NodeKind::Entry | NodeKind::Skip => 0,
                NodeKind::Assign { dst, value } => {
                    let v = self.eval(value)?;
                    write = self.store(dst, v)?;
                    0
                }
                NodeKind::Branch { cond } => {
                    if self.eval(cond)?.is_true() {
                        0
                    } else {
                        1
                    }
                }
                NodeKind::Havoc { dst, reason } => {
                    if !node.is_setjmp() {
                        return Err(Stop::Unsupported(format!("havoc: {reason}")));
                    }
                    // The direct invocation of `setjmp` returns 0 and changes nothing
                    // the program can see; a `longjmp` back to it stops the run.
                    if let Some(dst) = dst {
                        write = self.store(dst, Value::Int(0))?;
                    }
                    0
                }
                NodeKind::Call { dst, callee, args } => {
                    let target = match callee {
                        Callee::Direct(f) => Some(*f),
                        Callee::Indirect(e) => {
                            let ptr = self.eval(e)?.as_u64();
                            Some(self.func_of_ptr(ptr)?)
                        }
                        Callee::Intrinsic(_) => None,
                    };
                    let mut values = Vec::with_capacity(args.len());
                    for arg in args {
                        values.push(self.eval(arg)?);
                    }
                    let result = match (target, callee) {
                        (_, Callee::Intrinsic(intrinsic)) => {
                            let dst_ty = dst.as_ref().map(|d| self.place_type(func_id, d));
                            let mark = O::ENABLED.then(|| self.mem.start_log());
                            let result = self.intrinsic(*intrinsic, &values, dst_ty);
                            if let Some(mark) = mark {
                                self.library = self.mem.end_log(mark);
                            }
                            result?
                        }
                        (Some(f), _)
                            if program.functions.get(f).is_some_and(|f| f.is_defined()) =>
                        {
                            if O::ENABLED {
                                observer.on_call(&NodeEvent {
                                    function: func_id,
                                    node: node_id,
                                    depth: self.frames.len() - 1,
                                    reads: &self.reads,
                                    write: None,
                                    library: &[],
                                    branch: None,
                                    output: [&[], &[], &[]],
                                    origins: &self.mem.origins,
                                });
                                let reads = std::mem::take(&mut self.reads);
                                if let Some(frame) = self.frames.last_mut() {
                                    frame.pending_reads = reads;
                                }
                            }
                            self.push_frame(f, values)?;
                            continue;
                        }
                        (Some(f), _) => {
                            let mark = O::ENABLED.then(|| self.mem.start_log());
                            let result = self.call_external(observer, f, &values);
                            if let Some(mark) = mark {
                                self.library = self.mem.end_log(mark);
                            }
                            match result {
                                Ok(value) => value,
                                Err(stop) => {
                                    // `exit` or `abort` ends the program: the call ran.
                                    if O::ENABLED && matches!(stop, Stop::Exit(_) | Stop::Abort) {
                                        observer.on_node(&NodeEvent {
                                            function: func_id,
                                            node: node_id,
                                            depth: self.frames.len() - 1,
                                            reads: &self.reads,
                                            write: None,
                                            library: &self.library,
                                            branch: None,
                                            output: [
                                                self.stdout
                                                    .get(self.output_from[0]..)
                                                    .unwrap_or(&[]),
                                                self.stderr
                                                    .get(self.output_from[1]..)
                                                    .unwrap_or(&[]),
                                                &self.file_output,
                                            ],
                                            origins: &self.mem.origins,
                                        });
                                    }
                                    return Err(stop);
                                }
                            }
                        }
                        (None, _) => return Err(Stop::Unsupported("call without a target".into())),
                    };
                    if let Some(dst) = dst {
                        write = self.store(dst, result)?;
                    }
                    0
                }
                NodeKind::Exit => {
                    let ret = match function.ret_var {
                        Some(var) => {
                            // Falling off the end is not an uninitialised read here
                            // (main returns 0; other callers may ignore the value).
                            if let Some(set) = self
                                .frames
                                .last_mut()
                                .and_then(|f| f.set.get_mut(var.index()))
                            {
                                *set = true;
                            }
                            let value = self.read_var(var)?;
                            if O::ENABLED {
                                self.reads.push(ObservedRead {
                                    location: Location::Local(var),
                                    value: value.clone(),
                                    size: 0,
                                });
                            }
                            Some(value)
                        }
                        None => None,
                    };
                    if O::ENABLED && observer.wants_locals(self.frames.len() - 1) {
                        let locals = self.final_locals();
                        observer.on_exit(func_id, self.frames.len() - 1, &locals);
                    }
                    let Some(frame) = self.frames.pop() else {
                        return Ok(ret);
                    };
                    if O::ENABLED {
                        observer.on_node(&NodeEvent {
                            function: func_id,
                            node: node_id,
                            depth: self.frames.len(),
                            reads: &self.reads,
                            write: None,
                            library: &[],
                            branch: None,
                            output: [&[], &[], &[]],
                            origins: &self.mem.origins,
                        });
                    }
                    self.release_frame(frame);
                    if self.frames.len() <= stop_depth {
                        return Ok(ret);
                    }
                    self.finish_call(observer, ret)?;
                    continue;
                }
            };
            if O::ENABLED {
                observer.on_node(&NodeEvent {
                    function: func_id,
                    node: node_id,
                    depth: self.frames.len() - 1,
                    reads: &self.reads,
                    write: write.as_ref(),
                    library: &self.library,
                    branch: matches!(node.kind, NodeKind::Branch { .. }).then_some(next == 0),
                    output: [
                        self.stdout.get(self.output_from[0]..).unwrap_or(&[]),
                        self.stderr.get(self.output_from[1]..).unwrap_or(&[]),
                        &self.file_output,
                    ],
                    origins: &self.mem.origins,
                });
            }
            self.advance(next)?;
        }
    }

    /// Stores a returned value into the destination of the caller's call node and moves
    /// the caller past it.
    fn finish_call<O: Observer>(&mut self, observer: &mut O, ret: Option<Value>) -> Exec<()> {
        let program = self.program;
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        let (func_id, node_id) = (frame.func, frame.node);
        if O::ENABLED {
            self.reads = std::mem::take(&mut frame.pending_reads);
        }
        let node = &program.functions[func_id].nodes[node_id];
        let mut write = None;
        if let NodeKind::Call { dst: Some(dst), .. } = &node.kind {
            write = self.store(dst, ret.unwrap_or(Value::Int(0)))?;
        }
        if O::ENABLED {
            observer.on_node(&NodeEvent {
                function: func_id,
                node: node_id,
                depth: self.frames.len() - 1,
                reads: &self.reads,
                write: write.as_ref(),
                library: &[],
                branch: None,
                output: [&[], &[], &[]],
                origins: &self.mem.origins,
            });
        }
        self.advance(0)
    }

    fn advance(&mut self, succ: usize) -> Exec<()> {
        let program = self.program;
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        let function = &program.functions[frame.func];
        match function.nodes[frame.node].succs.get(succ) {
            Some(next) => {
                frame.node = *next;
                Ok(())
            }
            None => Err(Stop::Unsupported(format!(
                "{}: node {} has no successor {succ}",
                function.name, frame.node
            ))),
        }
    }

    /// The value of every local of the current frame as it leaves (`None` for a register
    /// never set and for memory that cannot be read); nothing counts as a read.
    fn final_locals(&self) -> Vec<Option<Value>> {
        let Some(frame) = self.frames.last() else {
            return Vec::new();
        };
        let locals = &self.program.functions[frame.func].locals;
        locals
            .iter_enumerated()
            .map(|(var, local)| match frame.mem_blocks.get(var.index()) {
                Some(0) => frame
                    .set
                    .get(var.index())
                    .copied()
                    .unwrap_or(false)
                    .then(|| frame.regs[var.index()].clone()),
                Some(&block) => self.read_typed(make_ptr(block, 0), local.ty).ok(),
                None => None,
            })
            .collect()
    }

    /// The value of a local of the current frame (register or memory).
    pub(crate) fn read_var(&mut self, var: ripple_ir::VarId) -> Exec<Value> {
        let program = self.program;
        let frame = self
            .frames
            .last()
            .ok_or_else(|| Stop::Unsupported("no frame".into()))?;
        match frame.mem_blocks.get(var.index()) {
            Some(0) => {
                let value = frame.regs[var.index()].clone();
                if !frame.set.get(var.index()).copied().unwrap_or(true) {
                    self.note_undefined(crate::eval::Undefined::UninitialisedRead);
                }
                Ok(value)
            }
            Some(&block) => {
                let ty = program.functions[frame.func].locals[var].ty;
                self.read_typed(make_ptr(block, 0), ty)
            }
            None => Err(Stop::Unsupported(format!(
                "{}: no local {var}",
                program.functions[frame.func].name
            ))),
        }
    }

    /// The type a place holds.
    fn place_type(&self, func: FuncId, place: &Place) -> TypeId {
        match place {
            Place::Local(var) => self.program.functions[func]
                .locals
                .get(*var)
                .map_or(TypeId(0), |l| l.ty),
            Place::Mem { ty, .. } => *ty,
            Place::Bits { unit, .. } => *unit,
        }
    }

    /// Writes a value to a place; returns what was written, for observers.
    pub(crate) fn store(&mut self, place: &Place, value: Value) -> Exec<Option<ObservedWrite>> {
        match place {
            Place::Local(var) => {
                let program = self.program;
                let frame = self
                    .frames
                    .last()
                    .ok_or_else(|| Stop::Unsupported("no frame".into()))?;
                let function = &program.functions[frame.func];
                let Some(local) = function.locals.get(*var) else {
                    return Err(Stop::Unsupported(format!(
                        "{}: no local {var}",
                        function.name
                    )));
                };
                let value = self.coerce(value, local.ty);
                let block = frame.mem_blocks.get(var.index()).copied().unwrap_or(0);
                if block != 0 {
                    self.write_typed(make_ptr(block, 0), local.ty, &value)?;
                } else if let Some(frame) = self.frames.last_mut() {
                    if let Some(slot) = frame.regs.get_mut(var.index()) {
                        *slot = value.clone();
                    }
                    if let Some(set) = frame.set.get_mut(var.index()) {
                        *set = true;
                    }
                }
                Ok(self.record_reads.then_some(ObservedWrite {
                    location: Location::Local(*var),
                    value,
                    size: 0,
                }))
            }
            Place::Mem { addr, ty } => {
                let address = self.eval(addr)?.as_u64();
                let value = self.coerce(value, *ty);
                self.write_typed(address, *ty, &value)?;
                Ok(self.record_reads.then_some(ObservedWrite {
                    location: Location::Memory(address),
                    value,
                    size: self.access_size(*ty),
                }))
            }
            Place::Bits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let address = self.eval(addr)?.as_u64();
                self.write_bits(address, *unit, *bit_offset, *width, &value)?;
                Ok(self.record_reads.then_some(ObservedWrite {
                    location: Location::Memory(address),
                    value,
                    size: self.access_size(*unit),
                }))
            }
        }
    }

    /// Converts a value to the representation of `ty` when it has another one (a call
    /// result of an implicitly declared function, an argument of an unprototyped call).
    pub(crate) fn coerce(&self, value: Value, ty: TypeId) -> Value {
        match (self.repr(ty), value) {
            (Repr::Int { bits, is_bool, .. }, Value::Int(v)) => {
                if is_bool {
                    Value::Int(u128::from(v != 0))
                } else {
                    Value::Int(truncate(v, bits))
                }
            }
            (Repr::Pointer, Value::Int(v)) => Value::Int(truncate(v, 64)),
            (Repr::Int { bits, signed, .. }, Value::F64(f)) => {
                Value::Int(crate::value::float_to_int(f, bits, signed))
            }
            (Repr::Int { bits, signed, .. }, Value::F32(f)) => {
                Value::Int(crate::value::float_to_int(f64::from(f), bits, signed))
            }
            (Repr::F64 | Repr::LongDouble, Value::F32(f)) => Value::F64(f64::from(f)),
            (Repr::F64 | Repr::LongDouble, Value::Int(v)) => Value::F64(sign_extend(v, 64) as f64),
            (Repr::F32, Value::F64(f)) => Value::F32(f as f32),
            (Repr::F32, Value::Int(v)) => Value::F32(sign_extend(v, 64) as f32),
            (_, value) => value,
        }
    }

    /// Reads a value of type `ty` at `address`.
    /// The bytes a load or store of `ty` accesses.
    pub(crate) fn access_size(&self, ty: TypeId) -> u64 {
        match self.repr(ty) {
            Repr::Int { bits, .. } => u64::from(bits / 8),
            Repr::Pointer | Repr::F64 | Repr::LongDouble => 8,
            Repr::F32 => 4,
            Repr::Aggregate { size } => size,
            Repr::Void | Repr::Function => 0,
        }
    }

    pub(crate) fn read_typed(&self, address: u64, ty: TypeId) -> Exec<Value> {
        Ok(match self.repr(ty) {
            Repr::Int { bits, .. } => Value::Int(self.mem.read_uint(address, u64::from(bits / 8))?),
            Repr::Pointer => Value::Int(self.mem.read_uint(address, 8)?),
            Repr::F32 => Value::F32(f32::from_bits(self.mem.read_uint(address, 4)? as u32)),
            Repr::F64 | Repr::LongDouble => {
                Value::F64(f64::from_bits(self.mem.read_uint(address, 8)? as u64))
            }
            Repr::Aggregate { size } => Value::Bytes(self.mem.slice(address, size)?.into()),
            Repr::Void | Repr::Function => Value::Int(0),
        })
    }

    /// Writes a value of type `ty` at `address`.
    pub(crate) fn write_typed(&mut self, address: u64, ty: TypeId, value: &Value) -> Exec<()> {
        let value = self.coerce(value.clone(), ty);
        match (self.repr(ty), &value) {
            (Repr::Int { bits, .. }, Value::Int(v)) => {
                self.mem.write_uint(address, u64::from(bits / 8), *v)?
            }
            (Repr::Pointer, Value::Int(v)) => self.mem.write_uint(address, 8, *v)?,
            (Repr::F32, Value::F32(f)) => {
                self.mem.write_uint(address, 4, u128::from(f.to_bits()))?
            }
            (Repr::F64, Value::F64(f)) => {
                self.mem.write_uint(address, 8, u128::from(f.to_bits()))?
            }
            (Repr::LongDouble, Value::F64(f)) => {
                self.mem.write_uint(address, 16, u128::from(f.to_bits()))?;
            }
            (Repr::Aggregate { size }, Value::Bytes(bytes)) => {
                let n = (size as usize).min(bytes.len());
                self.mem.write(address, &bytes[..n])?;
            }
            (Repr::Void | Repr::Function, _) => {}
            (repr, value) => {
                return Err(Stop::Unsupported(format!(
                    "storing {value:?} as a value of representation {repr:?}"
                )))
            }
        }
        Ok(())
    }

    /// Writes a bit-field.
    pub(crate) fn write_bits(
        &mut self,
        address: u64,
        unit: TypeId,
        bit_offset: u32,
        width: u32,
        value: &Value,
    ) -> Exec<()> {
        let Some((bits, _)) = self.repr(unit).int_bits() else {
            return Err(Stop::Unsupported("bit-field of a non-integer unit".into()));
        };
        let size = u64::from(bits / 8);
        let old = self.mem.read_uint(address, size)?;
        let v = match value {
            Value::Int(v) => *v,
            other => other.as_u64().into(),
        };
        let mask = truncate(u128::MAX, width) << bit_offset;
        let new = (old & !mask) | ((v << bit_offset) & mask);
        self.mem.write_uint(address, size, new)?;
        Ok(())
    }

    /// Reads a bit-field, extended to `ty`.
    pub(crate) fn read_bits(
        &self,
        address: u64,
        unit: TypeId,
        bit_offset: u32,
        width: u32,
        ty: TypeId,
    ) -> Exec<Value> {
        let Some((bits, _)) = self.repr(unit).int_bits() else {
            return Err(Stop::Unsupported("bit-field of a non-integer unit".into()));
        };
        let raw = self.mem.read_uint(address, u64::from(bits / 8))?;
        let field = truncate(raw >> bit_offset, width);
        let (ty_bits, signed) = self.repr(ty).int_bits().unwrap_or((bits, false));
        Ok(Value::Int(truncate(extend(field, width, signed), ty_bits)))
    }

    fn intrinsic(
        &mut self,
        intrinsic: Intrinsic,
        args: &[Value],
        dst_ty: Option<TypeId>,
    ) -> Exec<Value> {
        let arg = |i: usize| -> Exec<u64> {
            args.get(i).map(Value::as_u64).ok_or_else(|| {
                Stop::Unsupported(format!("{} without argument {i}", intrinsic.name()))
            })
        };
        match intrinsic {
            Intrinsic::VaStart => {
                let ap = arg(0)?;
                let frame = self
                    .frames
                    .last_mut()
                    .ok_or_else(|| Stop::Unsupported("no frame".into()))?;
                if frame.va_id == 0 {
                    frame.va_id = self.next_va_id;
                    self.next_va_id = self.next_va_id.wrapping_add(1).max(1);
                    self.varargs.insert(frame.va_id, Vec::new());
                }
                let id = frame.va_id;
                self.mem.write_uint(ap, 4, 0)?;
                self.mem.write_uint(ap + 4, 4, u128::from(id))?;
                self.mem.write_uint(ap + 8, 8, u128::from(VA_MAGIC))?;
                Ok(Value::Int(0))
            }
            Intrinsic::VaArg => {
                let value = self.va_arg_next(arg(0)?)?;
                Ok(match dst_ty {
                    Some(ty) => self.coerce(value, ty),
                    None => value,
                })
            }
            Intrinsic::VaEnd => Ok(Value::Int(0)),
            Intrinsic::VaCopy => {
                self.mem.copy(arg(0)?, arg(1)?, 24)?;
                Ok(Value::Int(0))
            }
            Intrinsic::Memcpy => {
                let dst = arg(0)?;
                self.mem.copy(dst, arg(1)?, arg(2)?)?;
                Ok(Value::Int(u128::from(dst)))
            }
            Intrinsic::Memset => {
                let dst = arg(0)?;
                let size = arg(2)?;
                self.mem.slice_mut(dst, size)?.fill(arg(1)? as u8);
                Ok(Value::Int(u128::from(dst)))
            }
            Intrinsic::Alloca => {
                let block = self.alloc_block(arg(0)?, BlockKind::Stack)?;
                if let Some(frame) = self.frames.last_mut() {
                    frame.allocas.push(block);
                }
                Ok(Value::pointer(block, 0))
            }
        }
    }

    /// The next variadic argument of the `va_list` at `ap`.
    pub(crate) fn va_arg_next(&mut self, ap: u64) -> Exec<Value> {
        let magic = self.mem.read_uint(ap.wrapping_add(8), 8)? as u64;
        if magic != VA_MAGIC {
            return Err(Stop::Trap(
                "va_arg on a va_list that va_start did not initialise".into(),
            ));
        }
        let index = self.mem.read_uint(ap, 4)? as u32;
        let id = self.mem.read_uint(ap + 4, 4)? as u32;
        let Some(list) = self.varargs.get(&id) else {
            return Err(Stop::Trap(
                "va_arg on a va_list of a function that returned".into(),
            ));
        };
        let Some(value) = list.get(index as usize).cloned() else {
            return Err(Stop::Trap("va_arg past the last variadic argument".into()));
        };
        self.mem.write_uint(ap, 4, u128::from(index + 1))?;
        Ok(value)
    }
}
