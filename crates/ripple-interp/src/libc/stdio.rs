//! `<stdio.h>`: formatted and unformatted output to stdout and stderr, string
//! formatting, and input from stdin. Other streams (files) are not modelled.

use crate::exec::{Exec, Stop};
use crate::libc::format::VarArgs;
use crate::libc::{int, Args};
use crate::memory::make_ptr;
use crate::{Interpreter, Value};

/// A standard stream.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

impl Interpreter<'_> {
    pub(crate) fn stream(&self, name: &str, ptr: u64) -> Exec<Stream> {
        let [i, o, e] = self.file_blocks;
        match ptr {
            p if p == make_ptr(i, 0) => Ok(Stream::Stdin),
            p if p == make_ptr(o, 0) => Ok(Stream::Stdout),
            p if p == make_ptr(e, 0) => Ok(Stream::Stderr),
            0 => Err(Stop::Trap(format!("{name} on a null FILE pointer"))),
            _ => Err(Stop::Unsupported(format!(
                "{name} on a stream other than stdin, stdout or stderr"
            ))),
        }
    }

    fn output(&mut self, name: &str, stream: Stream, bytes: &[u8]) -> Exec<()> {
        match stream {
            Stream::Stdout => self.stdout.extend_from_slice(bytes),
            Stream::Stderr => self.stderr.extend_from_slice(bytes),
            Stream::Stdin => return Err(Stop::Unsupported(format!("{name} writing to stdin"))),
        }
        Ok(())
    }

    /// The next byte of stdin.
    pub(crate) fn stdin_getc(&mut self) -> Option<u8> {
        let b = self.stdin.get(self.stdin_pos).copied()?;
        self.stdin_pos += 1;
        Some(b)
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
                let f = usize::from(name != "printf");
                let bytes = self.format(args.u64(f)?, &mut rest(f + 1))?;
                self.stdout.extend_from_slice(&bytes);
                int(bytes.len() as i32)
            }
            "vprintf" | "__vprintf_chk" => {
                let f = usize::from(name != "vprintf");
                let bytes = self.format(args.u64(f)?, &mut VarArgs::VaList(args.u64(f + 1)?))?;
                self.stdout.extend_from_slice(&bytes);
                int(bytes.len() as i32)
            }
            "fprintf" | "__fprintf_chk" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let f = if name == "fprintf" { 1 } else { 2 };
                let bytes = self.format(args.u64(f)?, &mut rest(f + 1))?;
                self.output(name, stream, &bytes)?;
                int(bytes.len() as i32)
            }
            "vfprintf" | "__vfprintf_chk" => {
                let stream = self.stream(name, args.u64(0)?)?;
                let f = if name == "vfprintf" { 1 } else { 2 };
                let bytes = self.format(args.u64(f)?, &mut VarArgs::VaList(args.u64(f + 1)?))?;
                self.output(name, stream, &bytes)?;
                int(bytes.len() as i32)
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
                let s = self.mem.c_string(args.u64(0)?)?.to_vec();
                self.stdout.extend_from_slice(&s);
                self.stdout.push(b'\n');
                int(s.len() as i32 + 1)
            }
            "putchar" | "putchar_unlocked" => {
                let c = args.int(0)? as u8;
                self.stdout.push(c);
                int(i32::from(c))
            }
            "fputs" | "fputs_unlocked" => {
                let s = self.mem.c_string(args.u64(0)?)?.to_vec();
                let stream = self.stream(name, args.u64(1)?)?;
                self.output(name, stream, &s)?;
                int(1)
            }
            "fputc" | "putc" | "_IO_putc" | "fputc_unlocked" | "putc_unlocked" => {
                let c = args.int(0)? as u8;
                let stream = self.stream(name, args.u64(1)?)?;
                self.output(name, stream, &[c])?;
                int(i32::from(c))
            }
            "fwrite" | "fwrite_unlocked" => {
                let (ptr, size, n) = (args.u64(0)?, args.u64(1)?, args.u64(2)?);
                let stream = self.stream(name, args.u64(3)?)?;
                let total = size
                    .checked_mul(n)
                    .ok_or_else(|| Stop::Trap("fwrite: size overflows".into()))?;
                let bytes = self.mem.slice(ptr, total)?.to_vec();
                self.output(name, stream, &bytes)?;
                Value::Int(u128::from(if size == 0 { 0 } else { n }))
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
            "getchar" | "getchar_unlocked" => int(self.stdin_getc().map_or(-1, i32::from)),
            "getc" | "fgetc" | "_IO_getc" | "getc_unlocked" | "fgetc_unlocked" => {
                self.expect_stdin(name, args.u64(0)?)?;
                int(self.stdin_getc().map_or(-1, i32::from))
            }
            "ungetc" => {
                let c = args.int(0)?;
                self.expect_stdin(name, args.u64(1)?)?;
                if c == -1 {
                    int(-1)
                } else {
                    let c = c as u8;
                    if self.stdin_pos > 0 && self.stdin[self.stdin_pos - 1] == c {
                        self.stdin_pos -= 1;
                    } else {
                        self.stdin.insert(self.stdin_pos, c);
                    }
                    int(i32::from(c))
                }
            }
            "fgets" => {
                let (buf, n) = (args.u64(0)?, args.int(1)?);
                self.expect_stdin(name, args.u64(2)?)?;
                if n <= 0 {
                    return Ok(Some(Value::Int(0)));
                }
                let mut line = Vec::new();
                while line.len() + 1 < n as usize {
                    match self.stdin_getc() {
                        Some(b) => {
                            line.push(b);
                            if b == b'\n' {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                if line.is_empty() && n > 1 {
                    Value::Int(0)
                } else {
                    line.push(0);
                    self.mem.write(buf, &line)?;
                    Value::Int(u128::from(buf))
                }
            }
            "feof" => {
                self.expect_stdin(name, args.u64(0)?)?;
                int(i32::from(self.stdin_pos >= self.stdin.len()))
            }
            "ferror" => int(0),
            "scanf" => {
                let fmt = self.mem.c_string(args.u64(0)?)?.to_vec();
                let input = std::mem::take(&mut self.stdin);
                let mut pos = self.stdin_pos;
                let result = self.scan(&input, &mut pos, &fmt, &mut rest(1));
                self.stdin = input;
                self.stdin_pos = pos;
                int(result?)
            }
            "fscanf" => {
                self.expect_stdin(name, args.u64(0)?)?;
                let fmt = self.mem.c_string(args.u64(1)?)?.to_vec();
                let input = std::mem::take(&mut self.stdin);
                let mut pos = self.stdin_pos;
                let result = self.scan(&input, &mut pos, &fmt, &mut rest(2));
                self.stdin = input;
                self.stdin_pos = pos;
                int(result?)
            }
            "sscanf" => {
                let input = self.mem.c_string(args.u64(0)?)?.to_vec();
                let fmt = self.mem.c_string(args.u64(1)?)?.to_vec();
                int(self.scan(&input, &mut 0, &fmt, &mut rest(2))?)
            }
            "vscanf" | "vsscanf" | "vfscanf" => {
                let (input, f) = match name {
                    "vsscanf" => (Some(self.mem.c_string(args.u64(0)?)?.to_vec()), 1),
                    "vfscanf" => {
                        self.expect_stdin(name, args.u64(0)?)?;
                        (None, 1)
                    }
                    _ => (None, 0),
                };
                let fmt = self.mem.c_string(args.u64(f)?)?.to_vec();
                let mut va = VarArgs::VaList(args.u64(f + 1)?);
                match input {
                    Some(input) => int(self.scan(&input, &mut 0, &fmt, &mut va)?),
                    None => {
                        let input = std::mem::take(&mut self.stdin);
                        let mut pos = self.stdin_pos;
                        let result = self.scan(&input, &mut pos, &fmt, &mut va);
                        self.stdin = input;
                        self.stdin_pos = pos;
                        int(result?)
                    }
                }
            }
            _ => return Ok(None),
        }))
    }

    fn expect_stdin(&self, name: &str, ptr: u64) -> Exec<()> {
        match self.stream(name, ptr)? {
            Stream::Stdin => Ok(()),
            _ => Err(Stop::Unsupported(format!(
                "{name} reading from an output stream"
            ))),
        }
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
