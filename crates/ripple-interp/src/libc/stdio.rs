//! `<stdio.h>`: formatted and unformatted output to stdout, stderr and files, string
//! formatting, and input from stdin and files.
//!
//! stdin is the run's input ([`crate::RunConfig::stdin`]), read as from a pipe; stdout
//! and stderr are collected (stdout as a pipe: see [`crate::RunOutcome`] and `abort`).
//! `fseek` and `ftell` on these three fail with `ESPIPE`; `fileno` gives 0, 1 and 2.
//!
//! Files are modelled by `files.rs` (the run's view of the file system: reads come
//! from the real files, writes stay in memory). The functions on them: `fopen` (modes
//! `r w a r+ w+ a+`, with `b`, `x` and the letters glibc ignores), `tmpfile`, `fclose`,
//! `fread`, `fwrite`, `fgetc`, `getc`, `ungetc`, `fgets`, `fputc`, `putc`, `fputs`,
//! `fprintf`, `vfprintf`, `fscanf`, `vfscanf`, `fseek`, `fseeko`, `ftell`, `ftello`,
//! `rewind`, `fgetpos`, `fsetpos`, `feof`, `ferror`, `clearerr`, `fileno`, `fflush`,
//! `setvbuf` and `setbuf` (accepted, without effect on files), `remove`, `unlink` and
//! `rename`, with their `_unlocked` and 64-bit variants. Failures return what glibc
//! returns and set `errno` (`ENOENT` for a missing file, `EBADF` for a write on a
//! read-only stream, ...) and the stream's error indicator. A `FILE *` is the address of
//! a block of the run's memory, so programs may store and compare it; a null pointer,
//! a pointer that is not a `FILE`, and a stream used after `fclose` (stdin, stdout and
//! stderr included) stop the run with a trap. `fscanf` sets the end-of-file indicator
//! when it reads its input to the end (glibc would not when the format ends with a
//! literal matching the last byte).
//!
//! `read` and `write` work on the descriptors of these streams (0, 1, 2 and `fileno`
//! of an open file) through the same unbuffered streams: a program that mixes `read(0,
//! ...)` with `getchar` sees its input in order, where glibc's `getchar` would have read
//! ahead.
//!
//! Not modelled (the run stops as unsupported): `freopen`, `fdopen`, `fmemopen`,
//! `open_memstream`, `popen`, `getline` and `getdelim`, `tmpnam`, `mkstemp`, the
//! wide-character functions, the other file-descriptor calls (`open`, `close`,
//! `lseek`), `opendir`, `stat`, `mkdir`, and special files (devices, FIFOs).
//! A directory can be opened for reading, but reading it fails with `EISDIR`. Output
//! to files is not buffered: a program that reads a file through a second stream
//! before flushing the first sees data the real program would not see yet.

use crate::exec::{Exec, Stop};
use crate::libc::files::{Mode, Target};
use crate::libc::format::VarArgs;
use crate::libc::{int, long, Args};
use crate::memory::{block_of, make_ptr, offset_of, BlockKind};
use crate::{Interpreter, Value};

/// The size of glibc's `FILE`.
const FILE_SIZE: u64 = 216;

/// A stream: one of the standard three, or a file stream, by the block of its `FILE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdin,
    Stdout,
    Stderr,
    File(u32),
}

const STD_NAMES: [&str; 3] = ["stdin", "stdout", "stderr"];

impl Interpreter<'_> {
    /// The stream a `FILE *` argument of `name` designates.
    pub(crate) fn stream(&self, name: &str, ptr: u64) -> Exec<Stream> {
        let [i, o, e] = self.file_blocks;
        let standard = match ptr {
            0 => return Err(Stop::Trap(format!("{name} on a null FILE pointer"))),
            p if p == make_ptr(i, 0) => Some(0),
            p if p == make_ptr(o, 0) => Some(1),
            p if p == make_ptr(e, 0) => Some(2),
            _ => None,
        };
        if let Some(k) = standard {
            self.std_open(name, k)?;
            return Ok([Stream::Stdin, Stream::Stdout, Stream::Stderr][k]);
        }
        let block = block_of(ptr);
        if offset_of(ptr) == 0 && self.files.is_open(block) {
            return Ok(Stream::File(block));
        }
        if offset_of(ptr) == 0 && self.files.was_closed(block) {
            return Err(Stop::Trap(format!(
                "{name} on a FILE closed by fclose ({ptr:#x})"
            )));
        }
        Err(Stop::Trap(format!(
            "{name} on {ptr:#x}, which is not a FILE pointer"
        )))
    }

    /// Fails when stdin (0), stdout (1) or stderr (2) was closed by `fclose`.
    fn std_open(&self, name: &str, k: usize) -> Exec<()> {
        if self.files.std_closed[k] {
            return Err(Stop::Trap(format!(
                "{name} on {} after fclose({})",
                STD_NAMES[k], STD_NAMES[k]
            )));
        }
        Ok(())
    }

    /// Writes to a stream; `false` (with `errno` and the error indicator set) when the
    /// stream cannot be written.
    fn output(&mut self, name: &str, stream: Stream, bytes: &[u8]) -> Exec<bool> {
        match stream {
            Stream::Stdout => self.stdout.extend_from_slice(bytes),
            Stream::Stderr => self.stderr.extend_from_slice(bytes),
            Stream::Stdin => return Err(Stop::Unsupported(format!("{name} writing to stdin"))),
            Stream::File(block) => {
                if let Err(errno) = self.files.write(&mut self.mem, block, bytes)? {
                    self.set_errno(errno)?;
                    return Ok(false);
                }
                if self.mem.track_origins {
                    // An observed run: what this node writes to files.
                    self.file_output
                        .extend_from_slice(&(bytes.len() as u64).to_le_bytes());
                    self.file_output.extend_from_slice(bytes);
                }
            }
        }
        Ok(true)
    }

    /// The next byte of stdin.
    pub(crate) fn stdin_getc(&mut self) -> Option<u8> {
        let b = self.stdin.get(self.stdin_pos).copied()?;
        self.stdin_pos += 1;
        Some(b)
    }

    /// Reads up to `max` bytes of a stream (stopping after a newline when `line`);
    /// fewer at the end of the input or on an error (which sets `errno`).
    fn input(&mut self, name: &str, stream: Stream, max: usize, line: bool) -> Exec<Vec<u8>> {
        match stream {
            Stream::Stdin => {
                let mut bytes = Vec::new();
                while bytes.len() < max {
                    let Some(b) = self.stdin_getc() else {
                        break;
                    };
                    bytes.push(b);
                    if line && b == b'\n' {
                        break;
                    }
                }
                Ok(bytes)
            }
            Stream::File(block) => match self.files.read(block, max, line) {
                Ok(bytes) => Ok(bytes),
                Err(errno) => {
                    self.set_errno(errno)?;
                    Ok(Vec::new())
                }
            },
            Stream::Stdout | Stream::Stderr => Err(Stop::Unsupported(format!(
                "{name} reading from an output stream"
            ))),
        }
    }

    /// `fgetc`: the next byte, or -1.
    fn getc(&mut self, name: &str, stream: Stream) -> Exec<Value> {
        let bytes = self.input(name, stream, 1, false)?;
        Ok(int(bytes.first().map_or(-1, |b| i32::from(*b))))
    }

    /// Scans a stream (`fscanf`, `vfscanf`).
    fn scan_stream(
        &mut self,
        name: &str,
        stream: Stream,
        fmt: &[u8],
        args: &mut VarArgs<'_>,
    ) -> Exec<Value> {
        match stream {
            Stream::Stdin => {
                let input = std::mem::take(&mut self.stdin);
                let mut pos = self.stdin_pos;
                let result = self.scan(&input, &mut pos, fmt, args);
                self.stdin = input;
                self.stdin_pos = pos;
                Ok(int(result?))
            }
            Stream::File(block) => {
                let input = match self.files.scan_input(block) {
                    Ok(input) => input,
                    Err(errno) => {
                        self.set_errno(errno)?;
                        return Ok(int(-1));
                    }
                };
                let mut pos = input.start;
                let result = self.scan(&input.bytes, &mut pos, fmt, args);
                self.files.end_scan(block, input, pos);
                Ok(int(result?))
            }
            Stream::Stdout | Stream::Stderr => Err(Stop::Unsupported(format!(
                "{name} reading from an output stream"
            ))),
        }
    }

    /// Opens a stream on `target` (a file descriptor is free): its `FILE *`.
    fn open_stream(&mut self, target: Target, mode: Mode, fd: i32) -> Exec<Value> {
        let block = self.alloc_block(FILE_SIZE, BlockKind::Runtime)?;
        self.files.add_stream(block, target, mode, fd);
        Ok(Value::pointer(block, 0))
    }

    /// The stream an open file descriptor belongs to.
    fn fd_stream(&self, fd: i32) -> Option<Stream> {
        match fd {
            0..=2 if self.files.std_closed[fd as usize] => None,
            0 => Some(Stream::Stdin),
            1 => Some(Stream::Stdout),
            2 => Some(Stream::Stderr),
            _ => self.files.block_of_fd(fd).map(Stream::File),
        }
    }

    /// A failure: sets `errno` and returns `value`.
    fn fail(&mut self, errno: i32, value: Value) -> Exec<Value> {
        self.set_errno(errno)?;
        Ok(value)
    }

    /// `fseek` (and `rewind`, `fsetpos`): 0, or -1 with `errno`.
    fn seek(&mut self, stream: Stream, offset: i64, whence: i32) -> Exec<Value> {
        let Stream::File(block) = stream else {
            return self.fail(libc::ESPIPE, int(-1));
        };
        match self.files.seek(block, offset, whence) {
            Ok(()) => Ok(int(0)),
            Err(errno) => self.fail(errno, int(-1)),
        }
    }

    /// `ftell`: the position, or -1 with `errno`.
    fn tell(&mut self, stream: Stream) -> Exec<Result<u64, ()>> {
        let Stream::File(block) = stream else {
            self.set_errno(libc::ESPIPE)?;
            return Ok(Err(()));
        };
        match self.files.tell(block) {
            Ok(pos) => Ok(Ok(pos)),
            Err(errno) => {
                self.set_errno(errno)?;
                Ok(Err(()))
            }
        }
    }

    /// Files the run created or changed, by absolute path, with their final content
    /// (the real file system is never written).
    pub fn written_files(&self) -> Vec<(std::path::PathBuf, Vec<u8>)> {
        self.files.written()
    }

    /// Real files the run removed or renamed away (in its own view only).
    pub fn removed_files(&self) -> Vec<std::path::PathBuf> {
        self.files.removed()
    }

    /// Writes formatted bytes to a buffer of `cap` bytes (`None`: unbounded), with the
    /// NUL; returns the full length as `snprintf` does.
    fn write_formatted(&mut self, dst: u64, cap: Option<u64>, bytes: &[u8]) -> Exec<Value> {
        match cap {
            None => {
                self.mem.write(dst, bytes)?;
                self.mem.write(dst + bytes.len() as u64, &[0])?;
            }
            Some(0) => {}
            Some(cap) => {
                let n = (bytes.len() as u64).min(cap - 1);
                self.mem.write(dst, &bytes[..n as usize])?;
                self.mem.write(dst + n, &[0])?;
            }
        }
        Ok(int(bytes.len() as i32))
    }

    pub(crate) fn stdio_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        let name = args.name;
        let rest = |from: usize| VarArgs::Values(args.values.get(from..).unwrap_or(&[]), 0);
        Ok(Some(match name {
            "printf" | "__printf_chk" => {
                self.std_open(name, 1)?;
                let f = usize::from(name != "printf");
                let bytes = self.format(args.u64(f)?, &mut rest(f + 1))?;
                self.stdout.extend_from_slice(&bytes);
                int(bytes.len() as i32)
            }
            "vprintf" | "__vprintf_chk" => {
                self.std_open(name, 1)?;
                let f = usize::from(name != "vprintf");
                let bytes = self.format(args.u64(f)?, &mut VarArgs::VaList(args.u64(f + 1)?))?;
                self.stdout.extend_from_slice(&bytes);
                int(bytes.len() as i32)
            }
            "fprintf" | "__fprintf_chk" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let f = if name == "fprintf" { 1 } else { 2 };
                let bytes = self.format(args.u64(f)?, &mut rest(f + 1))?;
                let ok = self.output(name, stream, &bytes)?;
                int(if ok { bytes.len() as i32 } else { -1 })
            }
            "vfprintf" | "__vfprintf_chk" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let f = if name == "vfprintf" { 1 } else { 2 };
                let bytes = self.format(args.u64(f)?, &mut VarArgs::VaList(args.u64(f + 1)?))?;
                let ok = self.output(name, stream, &bytes)?;
                int(if ok { bytes.len() as i32 } else { -1 })
            }
            "sprintf" | "__sprintf_chk" => {
                let f = if name == "sprintf" { 1 } else { 3 };
                let bytes = self.format(args.u64(f)?, &mut rest(f + 1))?;
                self.write_formatted(args.u64(0)?, None, &bytes)?
            }
            "vsprintf" | "__vsprintf_chk" => {
                let f = if name == "vsprintf" { 1 } else { 3 };
                let bytes = self.format(args.u64(f)?, &mut VarArgs::VaList(args.u64(f + 1)?))?;
                self.write_formatted(args.u64(0)?, None, &bytes)?
            }
            "snprintf" | "__snprintf_chk" => {
                let f = if name == "snprintf" { 2 } else { 4 };
                let bytes = self.format(args.u64(f)?, &mut rest(f + 1))?;
                self.write_formatted(args.u64(0)?, Some(args.u64(1)?), &bytes)?
            }
            "vsnprintf" | "__vsnprintf_chk" => {
                let f = if name == "vsnprintf" { 2 } else { 4 };
                let bytes = self.format(args.u64(f)?, &mut VarArgs::VaList(args.u64(f + 1)?))?;
                self.write_formatted(args.u64(0)?, Some(args.u64(1)?), &bytes)?
            }
            "puts" => {
                self.std_open(name, 1)?;
                let s = self.mem.c_string(args.u64(0)?)?.to_vec();
                self.stdout.extend_from_slice(&s);
                self.stdout.push(b'\n');
                int(s.len() as i32 + 1)
            }
            "putchar" | "putchar_unlocked" => {
                self.std_open(name, 1)?;
                let c = args.int(0)? as u8;
                self.stdout.push(c);
                int(i32::from(c))
            }
            "fputs" | "fputs_unlocked" => {
                let s = self.mem.c_string(args.u64(0)?)?.to_vec();
                let stream = self.stream(name, args.u64(1)?)?;
                let ok = self.output(name, stream, &s)?;
                int(if ok { 1 } else { -1 })
            }
            "fputc" | "putc" | "_IO_putc" | "fputc_unlocked" | "putc_unlocked" => {
                let c = args.int(0)? as u8;
                let stream = self.stream(name, args.u64(1)?)?;
                let ok = self.output(name, stream, &[c])?;
                int(if ok { i32::from(c) } else { -1 })
            }
            "fwrite" | "fwrite_unlocked" => {
                let (ptr, size, n) = (args.u64(0)?, args.u64(1)?, args.u64(2)?);
                let stream = self.stream(name, args.u64(3)?)?;
                let total = size
                    .checked_mul(n)
                    .ok_or_else(|| Stop::Trap("fwrite: size overflows".into()))?;
                let bytes = self.mem.slice(ptr, total)?.to_vec();
                let ok = self.output(name, stream, &bytes)?;
                Value::Int(u128::from(if size == 0 || !ok { 0 } else { n }))
            }
            "fread" | "fread_unlocked" => {
                let (ptr, size, n) = (args.u64(0)?, args.u64(1)?, args.u64(2)?);
                let stream = self.stream(name, args.u64(3)?)?;
                let total = size
                    .checked_mul(n)
                    .ok_or_else(|| Stop::Trap("fread: size overflows".into()))?;
                if total == 0 {
                    return Ok(Some(Value::Int(0)));
                }
                // The destination must hold what was asked for, as the real `fread` may
                // fill all of it.
                self.mem.slice_mut(ptr, total)?;
                let bytes = self.input(name, stream, total as usize, false)?;
                self.mem.write(ptr, &bytes)?;
                Value::Int(u128::from(bytes.len() as u64 / size))
            }
            "fflush" | "fflush_unlocked" => {
                let stream = args.u64(0)?;
                if stream == 0 || self.stream(name, stream)? == Stream::Stdout {
                    self.stdout_flushed = self.stdout.len();
                }
                int(0)
            }
            "setvbuf" => {
                if self.stream(name, args.u64(0)?)? == Stream::Stdout {
                    self.stdout_mode = args.int(2)?;
                }
                int(0)
            }
            "setbuf" => {
                if self.stream(name, args.u64(0)?)? == Stream::Stdout && args.u64(1)? == 0 {
                    self.stdout_mode = 2;
                }
                Value::Int(0)
            }
            "setlinebuf" => {
                if self.stream(name, args.u64(0)?)? == Stream::Stdout {
                    self.stdout_mode = 1;
                }
                Value::Int(0)
            }
            "perror" => {
                self.std_open(name, 2)?;
                let s = args.u64(0)?;
                let mut msg = Vec::new();
                if s != 0 {
                    let prefix = self.mem.c_string(s)?;
                    if !prefix.is_empty() {
                        msg.extend_from_slice(prefix);
                        msg.extend_from_slice(b": ");
                    }
                }
                msg.extend_from_slice(&strerror(self.errno()));
                msg.push(b'\n');
                self.stderr.extend_from_slice(&msg);
                Value::Int(0)
            }
            "getchar" | "getchar_unlocked" => {
                self.std_open(name, 0)?;
                int(self.stdin_getc().map_or(-1, i32::from))
            }
            "getc" | "fgetc" | "_IO_getc" | "getc_unlocked" | "fgetc_unlocked" => {
                let stream = self.stream(name, args.u64(0)?)?;
                self.getc(name, stream)?
            }
            "ungetc" => {
                let c = args.int(0)?;
                let stream = self.stream(name, args.u64(1)?)?;
                match stream {
                    _ if c == -1 => int(-1),
                    Stream::Stdin => {
                        let c = c as u8;
                        if self.stdin_pos > 0 && self.stdin[self.stdin_pos - 1] == c {
                            self.stdin_pos -= 1;
                        } else {
                            self.stdin.insert(self.stdin_pos, c);
                        }
                        int(i32::from(c))
                    }
                    Stream::File(block) => {
                        self.files.unread(block, c as u8);
                        int(i32::from(c as u8))
                    }
                    Stream::Stdout | Stream::Stderr => {
                        return Err(Stop::Unsupported(format!(
                            "{name} reading from an output stream"
                        )))
                    }
                }
            }
            "fgets" | "fgets_unlocked" => {
                let (buf, n) = (args.u64(0)?, args.int(1)?);
                let stream = self.stream(name, args.u64(2)?)?;
                if n <= 0 {
                    return Ok(Some(Value::Int(0)));
                }
                let mut line = self.input(name, stream, n as usize - 1, true)?;
                if line.is_empty() && n > 1 {
                    Value::Int(0)
                } else {
                    line.push(0);
                    self.mem.write(buf, &line)?;
                    Value::Int(u128::from(buf))
                }
            }
            "feof" | "feof_unlocked" => match self.stream(name, args.u64(0)?)? {
                Stream::Stdin => int(i32::from(self.stdin_pos >= self.stdin.len())),
                Stream::File(block) => {
                    int(i32::from(self.files.stream(block).is_some_and(|s| s.eof)))
                }
                Stream::Stdout | Stream::Stderr => int(0),
            },
            "ferror" | "ferror_unlocked" => match self.stream(name, args.u64(0)?)? {
                Stream::File(block) => {
                    int(i32::from(self.files.stream(block).is_some_and(|s| s.error)))
                }
                _ => int(0),
            },
            "clearerr" | "clearerr_unlocked" => {
                if let Stream::File(block) = self.stream(name, args.u64(0)?)? {
                    self.files.clear_indicators(block);
                }
                Value::Int(0)
            }
            "read" => {
                let (fd, ptr, n) = (args.int(0)?, args.u64(1)?, args.u64(2)?);
                let stream = match self.fd_stream(fd) {
                    Some(s @ (Stream::Stdin | Stream::File(_))) => s,
                    _ => return self.fail(libc::EBADF, long(-1)).map(Some),
                };
                if n == 0 {
                    return Ok(Some(long(0)));
                }
                self.mem.slice_mut(ptr, n)?;
                let bytes = match stream {
                    Stream::File(block) => match self.files.read(block, n as usize, false) {
                        Ok(bytes) => bytes,
                        Err(errno) => return self.fail(errno, long(-1)).map(Some),
                    },
                    _ => self.input(name, stream, n as usize, false)?,
                };
                self.mem.write(ptr, &bytes)?;
                long(bytes.len() as i64)
            }
            "write" => {
                let (fd, ptr, n) = (args.int(0)?, args.u64(1)?, args.u64(2)?);
                let stream = match self.fd_stream(fd) {
                    Some(Stream::Stdin) | None => {
                        return self.fail(libc::EBADF, long(-1)).map(Some)
                    }
                    Some(s) => s,
                };
                let bytes = self.mem.slice(ptr, n)?.to_vec();
                if self.output(name, stream, &bytes)? {
                    long(n as i64)
                } else {
                    long(-1)
                }
            }
            "fileno" | "fileno_unlocked" => match self.stream(name, args.u64(0)?)? {
                Stream::Stdin => int(0),
                Stream::Stdout => int(1),
                Stream::Stderr => int(2),
                Stream::File(block) => int(self.files.stream(block).map_or(-1, |s| s.fd)),
            },
            "fopen" | "fopen64" => {
                let path = self.mem.c_string(args.u64(0)?)?.to_vec();
                let mode = self.mem.c_string(args.u64(1)?)?.to_vec();
                let Some(mode) = Mode::parse(&mode) else {
                    return self.fail(libc::EINVAL, Value::Int(0)).map(Some);
                };
                let Some(fd) = self.files.next_fd() else {
                    return self.fail(libc::EMFILE, Value::Int(0)).map(Some);
                };
                match self.files.open(&mut self.mem, &path, mode)? {
                    Ok(target) => self.open_stream(target, mode, fd)?,
                    Err(errno) => self.fail(errno, Value::Int(0))?,
                }
            }
            "tmpfile" | "tmpfile64" => {
                let Some(fd) = self.files.next_fd() else {
                    return self.fail(libc::EMFILE, Value::Int(0)).map(Some);
                };
                let target = self.files.anonymous();
                self.open_stream(target, Mode::update(), fd)?
            }
            "fclose" => {
                match self.stream(name, args.u64(0)?)? {
                    Stream::File(block) => {
                        self.files.close(&mut self.mem, block);
                        self.mem.free(block);
                    }
                    Stream::Stdin => self.files.std_closed[0] = true,
                    Stream::Stdout => {
                        self.stdout_flushed = self.stdout.len();
                        self.files.std_closed[1] = true;
                    }
                    Stream::Stderr => self.files.std_closed[2] = true,
                }
                int(0)
            }
            "fseek" | "fseeko" | "fseeko64" => {
                let stream = self.stream(name, args.u64(0)?)?;
                self.seek(stream, args.i64(1)?, args.int(2)?)?
            }
            "ftell" | "ftello" | "ftello64" => {
                let stream = self.stream(name, args.u64(0)?)?;
                match self.tell(stream)? {
                    Ok(pos) => long(pos as i64),
                    Err(()) => long(-1),
                }
            }
            "rewind" => {
                let stream = self.stream(name, args.u64(0)?)?;
                self.seek(stream, 0, libc::SEEK_SET)?;
                if let Stream::File(block) = stream {
                    self.files.clear_indicators(block);
                }
                Value::Int(0)
            }
            "fgetpos" | "fgetpos64" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let dst = args.u64(1)?;
                match self.tell(stream)? {
                    Ok(pos) => {
                        // An `fpos_t`: the offset, then a zero `mbstate_t`.
                        self.mem.write_uint(dst, 8, u128::from(pos))?;
                        self.mem.write_uint(dst + 8, 8, 0)?;
                        int(0)
                    }
                    Err(()) => int(-1),
                }
            }
            "fsetpos" | "fsetpos64" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let pos = self.mem.read_uint(args.u64(1)?, 8)? as u64 as i64;
                self.seek(stream, pos, libc::SEEK_SET)?
            }
            "remove" | "unlink" => {
                let path = self.mem.c_string(args.u64(0)?)?.to_vec();
                match self.files.remove(&mut self.mem, &path, name == "remove")? {
                    Ok(()) => int(0),
                    Err(errno) => self.fail(errno, int(-1))?,
                }
            }
            "rename" => {
                let old = self.mem.c_string(args.u64(0)?)?.to_vec();
                let new = self.mem.c_string(args.u64(1)?)?.to_vec();
                match self.files.rename(&mut self.mem, &old, &new)? {
                    Ok(()) => int(0),
                    Err(errno) => self.fail(errno, int(-1))?,
                }
            }
            "scanf" => {
                self.std_open(name, 0)?;
                let fmt = self.mem.c_string(args.u64(0)?)?.to_vec();
                self.scan_stream(name, Stream::Stdin, &fmt, &mut rest(1))?
            }
            "fscanf" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let fmt = self.mem.c_string(args.u64(1)?)?.to_vec();
                self.scan_stream(name, stream, &fmt, &mut rest(2))?
            }
            "sscanf" => {
                let input = self.mem.c_string(args.u64(0)?)?.to_vec();
                let fmt = self.mem.c_string(args.u64(1)?)?.to_vec();
                int(self.scan(&input, &mut 0, &fmt, &mut rest(2))?)
            }
            "vsscanf" => {
                let input = self.mem.c_string(args.u64(0)?)?.to_vec();
                let fmt = self.mem.c_string(args.u64(1)?)?.to_vec();
                let mut va = VarArgs::VaList(args.u64(2)?);
                int(self.scan(&input, &mut 0, &fmt, &mut va)?)
            }
            "vscanf" => {
                self.std_open(name, 0)?;
                let fmt = self.mem.c_string(args.u64(0)?)?.to_vec();
                let mut va = VarArgs::VaList(args.u64(1)?);
                self.scan_stream(name, Stream::Stdin, &fmt, &mut va)?
            }
            "vfscanf" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let fmt = self.mem.c_string(args.u64(1)?)?.to_vec();
                let mut va = VarArgs::VaList(args.u64(2)?);
                self.scan_stream(name, stream, &fmt, &mut va)?
            }
            _ => return Ok(None),
        }))
    }
}

/// glibc's message for an error number.
pub(crate) fn strerror(errno: i32) -> Vec<u8> {
    // SAFETY: strerror returns a pointer to a NUL-terminated string that stays valid
    // until the next call; it is copied at once.
    unsafe {
        let p = libc::strerror(errno);
        if p.is_null() {
            return b"Unknown error".to_vec();
        }
        std::ffi::CStr::from_ptr(p).to_bytes().to_vec()
    }
}
