//! The run's files: a virtual file system over the real one, and the streams the
//! program opened with `fopen` or `tmpfile`.
//!
//! A path is resolved against the run's working directory ([`crate::RunConfig`]) and
//! normalised lexically (`.` and `..` are removed without following symbolic links).
//! The first time the run needs the content of a path it has not written, the real file
//! is read whole; from then on the run sees its own copy, so later changes of the real
//! file do not reach it. Everything the program writes, creates, truncates, removes or
//! renames changes only the run's copy: the real file system is never written. Files
//! are inodes, so a stream keeps its file after `remove` or `rename`, as on POSIX
//! systems. The bytes of every file count against the run's memory limit; a write or a
//! read of a real file past it stops the run with a trap.
//!
//! Permissions follow the real file system (`access(2)` on the real file or on the
//! directory a file is created in); files the run creates may be read and written.
//! Directories can be opened for reading (reads fail with `EISDIR`, as on Linux) but
//! not created, removed or renamed; other special files (devices, FIFOs) are not
//! modelled.
//!
//! A stream reads and writes its file directly, without a buffer: what one stream
//! writes is visible at once to every other stream on the same file, as if every stream
//! were unbuffered. A stream has one position for reading and writing (glibc keeps one
//! too, switching between reading and writing without an explicit `fseek`), `ungetc`
//! pushes bytes back in front of it, and the end-of-file indicator is sticky: once set,
//! reads fail until `clearerr`, `fseek`, `rewind` or `ungetc` (glibc 2.28 and later).

use std::collections::BTreeMap;
use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::exec::{Exec, Stop};
use crate::memory::Memory;

/// The most file descriptors a run may have open at once (the usual soft limit of
/// `RLIMIT_NOFILE`); past it `fopen` and `tmpfile` fail with `EMFILE`.
const MAX_FDS: i32 = 1024;

/// What `fopen`'s mode string asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mode {
    pub(crate) read: bool,
    pub(crate) write: bool,
    /// Every write goes to the end of the file.
    pub(crate) append: bool,
    pub(crate) create: bool,
    pub(crate) truncate: bool,
    /// `x`: fail with `EEXIST` when the file exists.
    pub(crate) exclusive: bool,
}

impl Mode {
    /// glibc's reading of a mode: `r`, `w` or `a`, then up to six characters among
    /// which `+` and `x` count (`b`, `e`, `m`, `c` and anything else are ignored).
    /// `None` for any other first character (`EINVAL`).
    pub(crate) fn parse(mode: &[u8]) -> Option<Mode> {
        let mut m = match mode.first()? {
            b'r' => Mode {
                read: true,
                ..Mode::default()
            },
            b'w' => Mode {
                write: true,
                create: true,
                truncate: true,
                ..Mode::default()
            },
            b'a' => Mode {
                write: true,
                append: true,
                create: true,
                ..Mode::default()
            },
            _ => return None,
        };
        for &c in mode.iter().skip(1).take(6) {
            match c {
                b'+' => {
                    m.read = true;
                    m.write = true;
                }
                b'x' => m.exclusive = true,
                _ => {}
            }
        }
        Some(m)
    }

    /// `w+`, the mode of `tmpfile`.
    pub(crate) fn update() -> Mode {
        Mode {
            read: true,
            write: true,
            create: true,
            truncate: true,
            ..Mode::default()
        }
    }
}

/// What a path names in the run's view of the file system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// A file of the run: created, written, or read from the real file system.
    File(u32),
    /// Removed, or renamed away, by the run.
    Removed,
}

/// What a lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    File(u32),
    /// A real regular file the run has not read yet, of this size.
    Real(u64),
    Dir,
    /// A device, FIFO or socket.
    Special,
    Missing,
}

#[derive(Clone, Debug)]
struct Inode {
    data: Vec<u8>,
    /// Whether a path names it.
    linked: bool,
    /// Streams open on it.
    opens: u32,
    /// What the real file system allows on it (files the run creates allow both).
    may_read: bool,
    may_write: bool,
    /// Whether the run created, truncated or wrote it.
    written: bool,
}

/// What a stream is open on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    File(u32),
    /// A directory, opened for reading: every read fails with `EISDIR`.
    Dir,
}

/// An open stream other than stdin, stdout and stderr.
#[derive(Clone, Debug)]
pub(crate) struct FileStream {
    target: Target,
    pub(crate) fd: i32,
    /// The file offset of the next read or write (writes of append streams go to the
    /// end whatever it is).
    pos: u64,
    mode: Mode,
    pub(crate) eof: bool,
    pub(crate) error: bool,
    /// Bytes pushed back by `ungetc`, the next one to read last.
    pushback: Vec<u8>,
}

impl FileStream {
    /// The file the stream reads; an error number (and the error indicator) when it
    /// cannot be read.
    fn readable(&mut self) -> Result<u32, i32> {
        if !self.mode.read {
            self.error = true;
            return Err(libc::EBADF);
        }
        match self.target {
            Target::Dir => {
                self.error = true;
                Err(libc::EISDIR)
            }
            Target::File(id) => Ok(id),
        }
    }
}

/// The input of a `fscanf` on a file stream, lent by [`Files::scan_input`] and given
/// back with [`Files::end_scan`].
pub(crate) struct ScanInput {
    pub(crate) bytes: Vec<u8>,
    pub(crate) start: usize,
    /// Whether `bytes` is the file's own data (no pushed-back bytes to read first).
    whole_file: bool,
}

/// The run's files and file streams.
#[derive(Clone, Debug, Default)]
pub(crate) struct Files {
    /// The absolute working directory of the run.
    cwd: PathBuf,
    inodes: FxHashMap<u32, Inode>,
    next_inode: u32,
    paths: BTreeMap<PathBuf, Entry>,
    /// Open streams by the block of their `FILE`.
    streams: FxHashMap<u32, FileStream>,
    /// The blocks of streams closed by `fclose`.
    closed: FxHashSet<u32>,
    /// Whether `fclose` closed stdin, stdout, stderr.
    pub(crate) std_closed: [bool; 3],
}

/// The errno of an I/O error (`EIO` when it has none).
fn errno_of(err: &std::io::Error) -> i32 {
    err.raw_os_error().unwrap_or(libc::EIO)
}

/// `access(2)` on a real path.
fn access(path: &Path, mode: i32) -> Result<(), i32> {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return Err(libc::ENOENT);
    };
    // SAFETY: `c` is a NUL-terminated string that outlives the call.
    if unsafe { libc::access(c.as_ptr(), mode) } == 0 {
        Ok(())
    } else {
        Err(errno_of(&std::io::Error::last_os_error()))
    }
}

fn memory_limit(mem: &Memory) -> Stop {
    Stop::Trap(format!(
        "the run's memory and files exceed the memory limit of {} bytes",
        mem.max_bytes
    ))
}

impl Files {
    /// No files yet; relative paths are resolved against `cwd` (made absolute here).
    pub(crate) fn new(cwd: &Path) -> Files {
        let cwd = std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf());
        Files {
            cwd: normalise(&cwd),
            ..Files::default()
        }
    }

    /// The absolute, lexically normalised path of a C path.
    pub(crate) fn resolve(&self, path: &[u8]) -> PathBuf {
        let path = Path::new(OsStr::from_bytes(path));
        normalise(&self.cwd.join(path))
    }

    pub(crate) fn is_open(&self, block: u32) -> bool {
        self.streams.contains_key(&block)
    }

    pub(crate) fn was_closed(&self, block: u32) -> bool {
        self.closed.contains(&block)
    }

    pub(crate) fn stream(&self, block: u32) -> Option<&FileStream> {
        self.streams.get(&block)
    }

    fn stream_mut(&mut self, block: u32) -> Option<&mut FileStream> {
        self.streams.get_mut(&block)
    }

    /// The stream an open descriptor (not 0, 1 or 2) belongs to.
    pub(crate) fn block_of_fd(&self, fd: i32) -> Option<u32> {
        self.streams
            .iter()
            .find(|(_, s)| s.fd == fd)
            .map(|(block, _)| *block)
    }

    /// The lowest free file descriptor, as `open(2)` returns it; `None` past
    /// [`MAX_FDS`].
    pub(crate) fn next_fd(&self) -> Option<i32> {
        (0..MAX_FDS).find(|&fd| {
            let std_open = usize::try_from(fd)
                .ok()
                .and_then(|i| self.std_closed.get(i))
                .is_some_and(|closed| !closed);
            !std_open && !self.streams.values().any(|s| s.fd == fd)
        })
    }

    /// What an open file descriptor (not 0, 1 or 2) is on: its target, the file's size
    /// and whether a path still names it.
    pub(crate) fn describe_fd(&self, fd: i32) -> Option<(Target, u64, bool)> {
        let stream = self.streams.values().find(|s| s.fd == fd)?;
        Some(match stream.target {
            Target::File(id) => {
                let inode = self.inodes.get(&id)?;
                (stream.target, inode.data.len() as u64, inode.linked)
            }
            Target::Dir => (Target::Dir, 0, true),
        })
    }

    fn new_inode(&mut self, data: Vec<u8>, linked: bool) -> u32 {
        let id = self.next_inode;
        self.next_inode += 1;
        self.inodes.insert(
            id,
            Inode {
                data,
                linked,
                opens: 0,
                may_read: true,
                may_write: true,
                written: true,
            },
        );
        id
    }

    /// Frees an inode no path and no stream refers to.
    fn release_if_unused(&mut self, mem: &mut Memory, id: u32) {
        if let Some(inode) = self.inodes.get(&id) {
            if !inode.linked && inode.opens == 0 {
                mem.release(inode.data.len() as u64);
                self.inodes.remove(&id);
            }
        }
    }

    fn unlink_inode(&mut self, mem: &mut Memory, id: u32) {
        if let Some(inode) = self.inodes.get_mut(&id) {
            inode.linked = false;
        }
        self.release_if_unused(mem, id);
    }

    /// What a path names: the run's own entries first, then the real file system. An
    /// error number when the path cannot name anything (`ENOTDIR` under a file).
    /// The full path of a path the program names, and what is there (`ENOENT` for an
    /// empty path, as the C library says).
    fn locate(&self, path: &[u8]) -> Result<(PathBuf, Found), i32> {
        if path.is_empty() {
            return Err(libc::ENOENT);
        }
        let full = self.resolve(path);
        let found = self.lookup(&full)?;
        Ok((full, found))
    }

    fn lookup(&self, full: &Path) -> Result<Found, i32> {
        match self.paths.get(full) {
            Some(Entry::File(id)) => return Ok(Found::File(*id)),
            Some(Entry::Removed) => return Ok(Found::Missing),
            None => {}
        }
        for dir in full.ancestors().skip(1) {
            match self.paths.get(dir) {
                Some(Entry::File(_)) => return Err(libc::ENOTDIR),
                Some(Entry::Removed) => return Err(libc::ENOENT),
                None => {}
            }
        }
        match std::fs::metadata(full) {
            Ok(meta) if meta.is_file() => Ok(Found::Real(meta.len())),
            Ok(meta) if meta.is_dir() => Ok(Found::Dir),
            Ok(_) => Ok(Found::Special),
            Err(err) if err.raw_os_error() == Some(libc::ENOENT) => Ok(Found::Missing),
            Err(err) => Err(errno_of(&err)),
        }
    }

    /// Whether a file may be created (or removed) at `full`: its directory exists and
    /// is writable.
    fn check_dir_writable(&self, full: &Path) -> Result<(), i32> {
        let Some(dir) = full.parent() else {
            return Err(libc::EISDIR);
        };
        match self.lookup(dir)? {
            Found::Dir => access(dir, libc::W_OK | libc::X_OK),
            Found::Missing => Err(libc::ENOENT),
            Found::File(_) | Found::Real(_) | Found::Special => Err(libc::ENOTDIR),
        }
    }

    /// Reads the real file at `full` (of about `size` bytes) into an inode of the run.
    fn load(&mut self, mem: &mut Memory, full: &Path, size: u64) -> Exec<Result<u32, i32>> {
        if !mem.reserve(size) {
            return Err(memory_limit(mem));
        }
        let data = match std::fs::read(full) {
            Ok(data) => data,
            Err(err) => {
                mem.release(size);
                return Ok(Err(errno_of(&err)));
            }
        };
        mem.release(size);
        if !mem.reserve(data.len() as u64) {
            return Err(memory_limit(mem));
        }
        let id = self.new_inode(data, true);
        if let Some(inode) = self.inodes.get_mut(&id) {
            inode.written = false;
            inode.may_read = access(full, libc::R_OK).is_ok();
            inode.may_write = access(full, libc::W_OK).is_ok();
        }
        self.paths.insert(full.to_path_buf(), Entry::File(id));
        Ok(Ok(id))
    }

    /// Opens a path for `fopen`: what the stream will be on, or the error number.
    pub(crate) fn open(
        &mut self,
        mem: &mut Memory,
        path: &[u8],
        mode: Mode,
    ) -> Exec<Result<Target, i32>> {
        let (full, found) = match self.locate(path) {
            Ok(located) => located,
            Err(errno) => return Ok(Err(errno)),
        };
        let exists_error = mode.create && mode.exclusive;
        let target = match found {
            Found::Special => {
                return Err(Stop::Unsupported(format!(
                    "fopen of {}: only regular files and directories are modelled",
                    full.display()
                )))
            }
            Found::Dir => {
                if exists_error {
                    return Ok(Err(libc::EEXIST));
                }
                if mode.write {
                    return Ok(Err(libc::EISDIR));
                }
                if let Err(errno) = access(&full, libc::R_OK) {
                    return Ok(Err(errno));
                }
                Target::Dir
            }
            Found::Missing => {
                if !mode.create {
                    return Ok(Err(libc::ENOENT));
                }
                if let Err(errno) = self.check_dir_writable(&full) {
                    return Ok(Err(errno));
                }
                let id = self.new_inode(Vec::new(), true);
                self.paths.insert(full, Entry::File(id));
                Target::File(id)
            }
            Found::File(id) => {
                if exists_error {
                    return Ok(Err(libc::EEXIST));
                }
                let Some(inode) = self.inodes.get(&id) else {
                    return Ok(Err(libc::ENOENT));
                };
                if (mode.read && !inode.may_read) || (mode.write && !inode.may_write) {
                    return Ok(Err(libc::EACCES));
                }
                if mode.truncate {
                    self.truncate(mem, id);
                }
                Target::File(id)
            }
            Found::Real(size) => {
                if exists_error {
                    return Ok(Err(libc::EEXIST));
                }
                let wanted = match (mode.read, mode.write) {
                    (true, true) => libc::R_OK | libc::W_OK,
                    (false, true) => libc::W_OK,
                    _ => libc::R_OK,
                };
                if let Err(errno) = access(&full, wanted) {
                    return Ok(Err(errno));
                }
                if mode.truncate {
                    let id = self.new_inode(Vec::new(), true);
                    self.paths.insert(full, Entry::File(id));
                    Target::File(id)
                } else {
                    match self.load(mem, &full, size)? {
                        Ok(id) => Target::File(id),
                        Err(errno) => return Ok(Err(errno)),
                    }
                }
            }
        };
        Ok(Ok(target))
    }

    /// A new file without a name, for `tmpfile`.
    pub(crate) fn anonymous(&mut self) -> Target {
        Target::File(self.new_inode(Vec::new(), false))
    }

    fn truncate(&mut self, mem: &mut Memory, id: u32) {
        if let Some(inode) = self.inodes.get_mut(&id) {
            mem.release(inode.data.len() as u64);
            inode.data = Vec::new();
            inode.written = true;
        }
    }

    /// Records a stream opened on `target`, with its `FILE` at `block`.
    pub(crate) fn add_stream(&mut self, block: u32, target: Target, mode: Mode, fd: i32) {
        let mut pos = 0;
        if let Target::File(id) = target {
            if let Some(inode) = self.inodes.get_mut(&id) {
                inode.opens += 1;
                // glibc starts a write-only append stream at the end (`ftell` says so)
                // and an `a+` stream at the start.
                if mode.append && !mode.read {
                    pos = inode.data.len() as u64;
                }
            }
        }
        self.streams.insert(
            block,
            FileStream {
                target,
                fd,
                pos,
                mode,
                eof: false,
                error: false,
                pushback: Vec::new(),
            },
        );
    }

    /// Closes a stream (`fclose`); `false` if it is not open.
    pub(crate) fn close(&mut self, mem: &mut Memory, block: u32) -> bool {
        let Some(stream) = self.streams.remove(&block) else {
            return false;
        };
        self.closed.insert(block);
        if let Target::File(id) = stream.target {
            if let Some(inode) = self.inodes.get_mut(&id) {
                inode.opens = inode.opens.saturating_sub(1);
            }
            self.release_if_unused(mem, id);
        }
        true
    }

    /// Reads up to `max` bytes (stopping after a newline when `line`); fewer at the end
    /// of the file, which sets the end-of-file indicator. An error number (and the
    /// error indicator) when the stream cannot be read.
    pub(crate) fn read(&mut self, block: u32, max: usize, line: bool) -> Result<Vec<u8>, i32> {
        let Some(stream) = self.streams.get_mut(&block) else {
            return Err(libc::EBADF);
        };
        let id = stream.readable()?;
        let mut out = Vec::new();
        while out.len() < max {
            let Some(b) = stream.pushback.pop() else {
                break;
            };
            out.push(b);
            if line && b == b'\n' {
                return Ok(out);
            }
        }
        if out.len() < max && !stream.eof {
            let data = self.inodes.get(&id).map_or(&[][..], |i| &i.data[..]);
            let start = usize::try_from(stream.pos).map_or(data.len(), |p| p.min(data.len()));
            let available = &data[start..];
            let mut n = available.len().min(max - out.len());
            if line {
                if let Some(nl) = available[..n].iter().position(|b| *b == b'\n') {
                    n = nl + 1;
                }
            }
            out.extend_from_slice(&available[..n]);
            if n > 0 {
                stream.pos = (start + n) as u64;
            }
            let ended_line = line && out.last() == Some(&b'\n');
            if out.len() < max && !ended_line {
                stream.eof = true;
            }
        }
        Ok(out)
    }

    /// Writes `bytes` at the stream's position (at the end for append streams). An error
    /// number (and the error indicator) when the stream cannot be written; a trap past
    /// the memory limit.
    pub(crate) fn write(
        &mut self,
        mem: &mut Memory,
        block: u32,
        bytes: &[u8],
    ) -> Exec<Result<(), i32>> {
        let Some(stream) = self.streams.get_mut(&block) else {
            return Ok(Err(libc::EBADF));
        };
        let id = match stream.target {
            Target::File(id) if stream.mode.write => id,
            _ => {
                stream.error = true;
                return Ok(Err(libc::EBADF));
            }
        };
        let Some(inode) = self.inodes.get_mut(&id) else {
            return Ok(Err(libc::EBADF));
        };
        stream.pushback.clear();
        let len = inode.data.len() as u64;
        let pos = if stream.mode.append { len } else { stream.pos };
        let end = pos.saturating_add(bytes.len() as u64);
        if end > len {
            if !mem.reserve(end - len) {
                return Err(memory_limit(mem));
            }
            // Within the memory limit, so it fits in memory.
            inode.data.resize(end as usize, 0);
        }
        inode.data[pos as usize..end as usize].copy_from_slice(bytes);
        inode.written = true;
        stream.pos = end;
        Ok(Ok(()))
    }

    /// `ungetc` of a byte (not `EOF`).
    pub(crate) fn unread(&mut self, block: u32, byte: u8) {
        if let Some(stream) = self.stream_mut(block) {
            stream.pushback.push(byte);
            stream.eof = false;
        }
    }

    /// The position `ftell` reports: the file offset less the bytes pushed back.
    pub(crate) fn tell(&self, block: u32) -> Result<u64, i32> {
        let stream = self.streams.get(&block).ok_or(libc::EBADF)?;
        stream
            .pos
            .checked_sub(stream.pushback.len() as u64)
            .ok_or(libc::EIO)
    }

    /// `fseek`: moves to `offset` from the start (`whence` 0), the current position (1)
    /// or the end (2); drops pushed-back bytes and clears the end-of-file indicator.
    pub(crate) fn seek(&mut self, block: u32, offset: i64, whence: i32) -> Result<(), i32> {
        let base = match whence {
            libc::SEEK_SET => 0,
            libc::SEEK_CUR => self.tell(block)?,
            libc::SEEK_END => {
                let stream = self.streams.get(&block).ok_or(libc::EBADF)?;
                match stream.target {
                    Target::File(id) => self.inodes.get(&id).map_or(0, |i| i.data.len() as u64),
                    Target::Dir => 0,
                }
            }
            _ => return Err(libc::EINVAL),
        };
        let new = i128::from(base) + i128::from(offset);
        if new < 0 {
            return Err(libc::EINVAL);
        }
        let new = i64::try_from(new).map_err(|_| libc::EOVERFLOW)? as u64;
        let stream = self.streams.get_mut(&block).ok_or(libc::EBADF)?;
        stream.pos = new;
        stream.pushback.clear();
        stream.eof = false;
        Ok(())
    }

    /// `clearerr`.
    pub(crate) fn clear_indicators(&mut self, block: u32) {
        if let Some(stream) = self.stream_mut(block) {
            stream.eof = false;
            stream.error = false;
        }
    }

    /// Lends the rest of a stream's input to `fscanf`: the pushed-back bytes, then the
    /// file from the position (nothing after the end-of-file indicator is set). An
    /// error number (and the error indicator) when the stream cannot be read.
    pub(crate) fn scan_input(&mut self, block: u32) -> Result<ScanInput, i32> {
        let stream = self.streams.get_mut(&block).ok_or(libc::EBADF)?;
        let id = stream.readable()?;
        let data = self.inodes.get_mut(&id).map(|i| &mut i.data);
        let empty = ScanInput {
            bytes: Vec::new(),
            start: 0,
            whole_file: false,
        };
        if stream.pushback.is_empty() {
            if stream.eof {
                return Ok(empty);
            }
            let Some(data) = data else {
                return Ok(empty);
            };
            let bytes = std::mem::take(data);
            let start = usize::try_from(stream.pos).map_or(bytes.len(), |p| p.min(bytes.len()));
            return Ok(ScanInput {
                bytes,
                start,
                whole_file: true,
            });
        }
        let mut bytes: Vec<u8> = stream.pushback.iter().rev().copied().collect();
        if !stream.eof {
            if let Some(data) = data {
                let start = usize::try_from(stream.pos).map_or(data.len(), |p| p.min(data.len()));
                bytes.extend_from_slice(&data[start..]);
            }
        }
        Ok(ScanInput {
            bytes,
            start: 0,
            whole_file: false,
        })
    }

    /// Takes back the input lent by [`Files::scan_input`], of which `fscanf` read up to
    /// `end`. Reaching the end of the input sets the end-of-file indicator.
    pub(crate) fn end_scan(&mut self, block: u32, input: ScanInput, end: usize) {
        let Some(stream) = self.streams.get_mut(&block) else {
            return;
        };
        let at_end = end >= input.bytes.len();
        let consumed = end.saturating_sub(input.start);
        if input.whole_file {
            if consumed > 0 {
                stream.pos = end as u64;
            }
            if let Target::File(id) = stream.target {
                if let Some(inode) = self.inodes.get_mut(&id) {
                    inode.data = input.bytes;
                }
            }
        } else {
            let from_pushback = consumed.min(stream.pushback.len());
            stream
                .pushback
                .truncate(stream.pushback.len() - from_pushback);
            let from_file = (consumed - from_pushback) as u64;
            if from_file > 0 {
                stream.pos = stream.pos.saturating_add(from_file);
            }
        }
        if at_end {
            stream.eof = true;
        }
    }

    /// `remove` (which would remove an empty directory too) or `unlink` (which
    /// fails on a directory with `EISDIR`).
    pub(crate) fn remove(
        &mut self,
        mem: &mut Memory,
        path: &[u8],
        directories: bool,
    ) -> Exec<Result<(), i32>> {
        let (full, found) = match self.locate(path) {
            Ok(located) => located,
            Err(errno) => return Ok(Err(errno)),
        };
        match found {
            Found::Missing => return Ok(Err(libc::ENOENT)),
            Found::Dir if !directories => return Ok(Err(libc::EISDIR)),
            Found::Dir | Found::Special => {
                return Err(Stop::Unsupported(format!(
                    "removing {}: only regular files are modelled",
                    full.display()
                )))
            }
            Found::File(_) | Found::Real(_) => {}
        }
        if let Err(errno) = self.check_dir_writable(&full) {
            return Ok(Err(errno));
        }
        if let Found::File(id) = found {
            self.unlink_inode(mem, id);
        }
        self.paths.insert(full, Entry::Removed);
        Ok(Ok(()))
    }

    /// `rename` of a regular file (replacing a file at `new`).
    pub(crate) fn rename(
        &mut self,
        mem: &mut Memory,
        old: &[u8],
        new: &[u8],
    ) -> Exec<Result<(), i32>> {
        let unsupported = |path: &Path| {
            Err(Stop::Unsupported(format!(
                "renaming {}: only regular files are modelled",
                path.display()
            )))
        };
        if new.is_empty() {
            return Ok(Err(libc::ENOENT));
        }
        let (old_full, found) = match self.locate(old) {
            Ok(located) => located,
            Err(errno) => return Ok(Err(errno)),
        };
        let new_full = self.resolve(new);
        match found {
            Found::Missing => return Ok(Err(libc::ENOENT)),
            Found::Dir | Found::Special => return unsupported(&old_full),
            Found::File(_) | Found::Real(_) => {}
        }
        if let Err(errno) = self.check_dir_writable(&old_full) {
            return Ok(Err(errno));
        }
        let target = match self.lookup(&new_full) {
            Ok(found) => found,
            Err(errno) => return Ok(Err(errno)),
        };
        match target {
            Found::Dir => return Ok(Err(libc::EISDIR)),
            Found::Special => return unsupported(&new_full),
            Found::File(_) | Found::Real(_) | Found::Missing => {}
        }
        if let Err(errno) = self.check_dir_writable(&new_full) {
            return Ok(Err(errno));
        }
        if old_full == new_full {
            return Ok(Ok(()));
        }
        let id = match found {
            Found::File(id) => id,
            Found::Real(size) => match self.load(mem, &old_full, size)? {
                Ok(id) => id,
                Err(errno) => return Ok(Err(errno)),
            },
            _ => return Ok(Err(libc::ENOENT)),
        };
        if let Found::File(replaced) = target {
            self.unlink_inode(mem, replaced);
        }
        self.paths.insert(new_full, Entry::File(id));
        self.paths.insert(old_full, Entry::Removed);
        if let Some(inode) = self.inodes.get_mut(&id) {
            inode.written = true;
        }
        Ok(Ok(()))
    }

    /// The files the run created or changed (and still names), by path.
    pub(crate) fn written(&self) -> Vec<(PathBuf, Vec<u8>)> {
        self.paths
            .iter()
            .filter_map(|(path, entry)| match entry {
                Entry::File(id) => self
                    .inodes
                    .get(id)
                    .filter(|i| i.written)
                    .map(|i| (path.clone(), i.data.clone())),
                Entry::Removed => None,
            })
            .collect()
    }

    /// The paths the run removed or renamed away (and did not create again).
    pub(crate) fn removed(&self) -> Vec<PathBuf> {
        self.paths
            .iter()
            .filter(|(_, entry)| **entry == Entry::Removed)
            .map(|(path, _)| path.clone())
            .collect()
    }
}

/// Removes `.` and `..` components without looking at the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => out.push(component.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => out.push(name),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_as_glibc_does() {
        let r = Mode::parse(b"r").unwrap();
        assert!(r.read && !r.write && !r.create);
        let w = Mode::parse(b"wb").unwrap();
        assert!(!w.read && w.write && w.truncate && w.create);
        let a = Mode::parse(b"a+").unwrap();
        assert!(a.read && a.write && a.append && !a.truncate);
        let rp = Mode::parse(b"rb+").unwrap();
        assert!(rp.read && rp.write && !rp.create);
        assert!(Mode::parse(b"wx").unwrap().exclusive);
        assert_eq!(Mode::parse(b"x"), None);
        assert_eq!(Mode::parse(b""), None);
    }

    #[test]
    fn paths_are_normalised_against_the_working_directory() {
        let files = Files::new(Path::new("/a/b"));
        assert_eq!(files.resolve(b"c.txt"), PathBuf::from("/a/b/c.txt"));
        assert_eq!(files.resolve(b"./c/../d"), PathBuf::from("/a/b/d"));
        assert_eq!(files.resolve(b"../x"), PathBuf::from("/a/x"));
        assert_eq!(files.resolve(b"/etc//y"), PathBuf::from("/etc/y"));
    }

    #[test]
    fn file_descriptors_are_the_lowest_free() {
        let mut files = Files::new(Path::new("/"));
        assert_eq!(files.next_fd(), Some(3));
        let t = files.anonymous();
        files.add_stream(10, t, Mode::update(), 3);
        assert_eq!(files.next_fd(), Some(4));
        files.std_closed[1] = true;
        assert_eq!(files.next_fd(), Some(1));
    }
}
